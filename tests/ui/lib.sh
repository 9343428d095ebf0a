# SPDX-License-Identifier: GPL-2.0
# What the visualizer's pty tests share (sourced): a detached tmux session
# running the binary, keys and mouse sent to it, its screen read back.
# The sourcing script sets suite (its name), bin, and counts in pass and fail.
set -u
results=${RESULTS:-build/test-results}

if ! command -v tmux >/dev/null 2>&1; then
	echo "$suite: tmux is not installed (make deps)"
	exit 1
fi
tmp=$(mktemp -d)
sock="schedscope-e2e-$$"
T="tmux -L $sock"
cleanup() {
	$T kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

ok() {
	pass=$((pass + 1))
	echo "$suite: ok: $1"
}

bad() {
	fail=$((fail + 1))
	echo "$suite: FAILED: $1"
	echo "----- screen -----"
	$T capture-pane -p -t e2e 2>/dev/null | sed 's/^/| /'
	echo "------------------"
}

screen() {
	$T capture-pane -p -t e2e 2>/dev/null
}

# wait_for TEXT [SECONDS]: until the screen shows TEXT (fixed string)
wait_for() {
	i=0
	while [ $i -lt $(( ${2:-5} * 20 )) ]; do
		if screen | grep -qF -- "$1"; then
			return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

check() {
	if wait_for "$2" "${3:-5}"; then ok "$1"; else bad "$1 (no '$2' on the screen)"; fi
}

status_line() {
	screen | grep -E 'PAUSED|RUNNING|END' | tail -n1
}

# the simulated time and the event count on the status line
sim_time() {
	status_line | sed -n 's/.* \([0-9]*\.[0-9]*s\) \/ .*/\1/p'
}
sim_events() {
	status_line | sed -n 's/.*events \([0-9]*\).*/\1/p'
}

# start NAME ARGS...: a session running the binary; its exit status goes to $tmp/rc
# (a server still exiting after the last session was killed refuses it: try again)
start() {
	rm -f "$tmp/rc"
	for try in 1 2 3 4 5; do
		$T new-session -d -s e2e -x 100 -y 30 \
			"sh -c 'echo \$\$ > $tmp/pid; exec env ${START_ENV:-} LC_ALL=C.UTF-8 TERM=tmux-256color $bin $*'; echo \$? > $tmp/rc; sleep 600" \
			2>/dev/null && return
		sleep 0.2
	done
	echo "$suite: tmux would not start a session"
}

# wait_exit: until the program has exited; prints its status
wait_exit() {
	i=0
	while [ ! -s "$tmp/rc" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	cat "$tmp/rc" 2>/dev/null || echo none
}

restored() {
	[ "$($T display -p -t e2e '#{alternate_on}')" = 0 ] && ! screen | grep -q 'PAUSED\|RUNNING'
}

# cmd LINE: type a console command, and wait until the console has closed
# on it (a loaded machine can take its time)
cmd() {
	$T send-keys -t e2e :
	sleep 0.1
	$T send-keys -t e2e "$1" Enter
	sleep 0.1
	i=0
	while [ $i -lt 100 ] && screen | tail -n1 | grep -q '^:'; do
		sleep 0.05
		i=$((i + 1))
	done
}

# type_cmds LINE...: type console commands one after another, not waiting
# for each to be done (what a user typing ahead does)
type_cmds() {
	for c in "$@"; do
		$T send-keys -t e2e :
		sleep 0.1
		$T send-keys -t e2e "$c" Enter
	done
}

# quit: q to the program, wait until it has exited, end its session
quit() {
	$T send-keys -t e2e q
	wait_exit > /dev/null
	$T kill-session -t e2e 2>/dev/null
}

# row_of PATTERN: the screen's first line matching PATTERN (1-based), or nothing
row_of() {
	screen | grep -n -- "$1" | head -n1 | cut -d: -f1
}

# click X Y [BUTTON]: a mouse press and release at the cell (0-based), as an
# xterm in SGR mode sends it; BUTTON 0 is the left one, 64/65 the wheel
click() {
	$T send-keys -t e2e -l "$(printf '\033[<%d;%d;%dM' "${3:-0}" $(($1 + 1)) $(($2 + 1)))"
	[ "${3:-0}" -ge 64 ] || $T send-keys -t e2e -l "$(printf '\033[<%d;%d;%dm' "${3:-0}" $(($1 + 1)) $(($2 + 1)))"
	sleep 0.3
}

# summary: the counts for tests/summary.sh, and the exit status
summary() {
	echo "$suite: $pass passed, $fail failed"
	mkdir -p "$(dirname "$results")"
	echo "$suite $pass $fail" >> "$results"
	[ "$fail" = 0 ]
}
