#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile input and faults (issue 19): run-hostile.sh BIN
# Every case is a command, the exit status it must give and the stderr it
# must print (tests/hostile/NAME.err, byte for byte), then what must hold
# of the files around it: no output destroyed or half-written, a device or
# a symlink never replaced, the old file's mode kept, no temporary file
# left after a failure or a signal, every failed write told.
# A full disk is a 64 KiB tmpfs when running as root, else skipped (the
# /dev/full cases stand in for it).
set -u
bin=$(realpath "$1")
golden=$(realpath tests/hostile)
top=$(pwd)
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
results=$(realpath "$results")
work=$(mktemp -d "${TMPDIR:-/tmp}/schedscope-hostile.XXXXXX")
full=
cleanup() {
	[ -n "$full" ] && umount "$full" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "hostile: $1: ok"; }
bad() { fail=$((fail + 1)); echo "hostile: $1: FAILED: $2"; }

# case NAME WANT_RC CMD...: CMD's status and stderr (stdout to NAME.out);
# sets $case_ok for the checks that follow
case_() {
	name=$1 want=$2
	shift 2
	"$@" >"$name.out" 2>"$name.stderr"
	got=$?
	case_ok=1
	if [ "$got" -ne "$want" ]; then
		bad "$name" "exit status $got, wanted $want; stderr: $(head -c 600 "$name.stderr")"
		case_ok=0
	elif ! sed "s|$top|TOP|g" "$name.stderr" | cmp -s - "$golden/${GOLDEN:-$name}.err"; then
		bad "$name" "stderr differs from tests/hostile/${GOLDEN:-$name}.err: $(sed "s|$top|TOP|g" "$name.stderr" | diff "$golden/${GOLDEN:-$name}.err" - | head -20)"
		case_ok=0
	fi
}
# check NAME WHAT TEST...: one more thing that must hold after the case
check() {
	name=$1 what=$2
	shift 2
	[ "$case_ok" = 1 ] || return
	if ! "$@"; then
		bad "$name" "$what"
		case_ok=0
	fi
}
done_() { [ "$case_ok" = 1 ] && ok "$1"; }
no_temps() { ! ls -a "${1:-.}" | grep -q '^\.schedscope\.'; }
content_is() { [ "$(cat "$1")" = "$2" ]; }
mode_is() { [ "$(stat -c %a "$1")" = "$2" ]; }
is_char_dev() { [ -c "$1" ]; }
old() { rm -f "$1"; echo old >"$1"; chmod "${2:-644}" "$1"; }
cp "$top/tests/import/fork-delay.json" in.json
json=in.json
long="--set duration=600s"

# ---- 1. import -o: devices written in place, symlinks followed, the mode kept ----
case_ import-dev-null 0 "$bin" import "$json" -o /dev/null
check import-dev-null "/dev/null is no longer a character device" is_char_dev /dev/null
done_ import-dev-null

case_ import-dev-full 2 "$bin" import "$json" -o /dev/full
check import-dev-full "/dev/full is no longer a character device" is_char_dev /dev/full
done_ import-dev-full

old target.scn 640
ln -sf target.scn link.scn
case_ import-symlink 0 "$bin" import "$json" -o link.scn
check import-symlink "the symlink was replaced" test -L link.scn
check import-symlink "its target was not written" grep -q '^task worker' target.scn
check import-symlink "its target's mode 640 was not kept" mode_is target.scn 640
done_ import-symlink

old kept.scn 644
case_ import-mode 0 "$bin" import "$json" -o kept.scn
check import-mode "mode 644 came back $(stat -c %a kept.scn)" mode_is kept.scn 644
check import-mode "a temporary file is left" no_temps
done_ import-mode

ln -sf missing/nowhere.scn dangling.scn
case_ import-dangling 2 "$bin" import "$json" -o dangling.scn
check import-dangling "the dangling symlink was replaced" test -L dangling.scn
done_ import-dangling

mkdir -p adir
case_ import-dir 2 "$bin" import "$json" -o adir
check import-dir "the folder is gone" test -d adir
done_ import-dir

case_ import-no-folder 2 "$bin" import "$json" -o no/such/folder.scn
done_ import-no-folder

# ext build -o: the same writer; a policy the check refuses replaces nothing
loads() { "$bin" ext check "$1" 2>/dev/null; }
old kept.so 600
case_ ext-build-mode 0 env CC=cc "$bin" ext build "$top/ext/scx_simple.c" -o kept.so
check ext-build-mode "mode 600 came back $(stat -c %a kept.so)" mode_is kept.so 600
check ext-build-mode "kept.so is not the policy" loads kept.so
check ext-build-mode "a temporary file is left" no_temps
done_ ext-build-mode
old target.so 640
ln -sf target.so link.so
case_ ext-build-symlink 0 env CC=cc "$bin" ext build "$top/ext/scx_simple.c" -o link.so
check ext-build-symlink "the symlink was replaced" test -L link.so
check ext-build-symlink "its target's mode 640 was not kept" mode_is target.so 640
check ext-build-symlink "its target is not the policy" loads target.so
done_ ext-build-symlink
case_ ext-build-dev-null 0 env CC=cc "$bin" ext build "$top/ext/scx_simple.c" -o /dev/null
check ext-build-dev-null "/dev/null is no longer a character device" is_char_dev /dev/null
done_ ext-build-dev-null
case_ ext-build-dev-full 2 env CC=cc "$bin" ext build "$top/ext/scx_simple.c" -o /dev/full
done_ ext-build-dev-full
old refused.so
case_ ext-build-refused 2 env CC=cc "$bin" ext build "$top/tests/ext/global_data.c" -o refused.so
check ext-build-refused "the old refused.so was not kept" content_is refused.so old
check ext-build-refused "a temporary file is left" no_temps
done_ ext-build-refused
case_ ext-build-no-folder 2 env CC=cc "$bin" ext build "$top/ext/scx_simple.c" -o no/such/folder.so
done_ ext-build-no-folder

# ---- 7. inputs read with a limit: a NUL byte ends a trace at once ----
case_ import-dev-zero 2 timeout 10 "$bin" import /dev/zero
done_ import-dev-zero
printf '# tracer: nop\n#\n\0rest' >nul.txt
case_ import-nul 2 "$bin" import nul.txt -o nul.scn
check import-nul "nul.scn was written" test ! -e nul.scn
done_ import-nul

# ---- 8. what import writes, run reads: 100000 rt-app phases are refused ----
{
	printf '{"tasks":{"t":{"loop":1,"phases":{'
	seq 100000 | awk '{ printf "%s\"p%d\":{\"run\":100,\"sleep\":100}", (NR > 1 ? "," : ""), $1 }'
	printf '}}}}\n'
} >phases.json
case_ import-too-many-phases 2 "$bin" import phases.json -o phases.scn
check import-too-many-phases "phases.scn was written" test ! -e phases.scn
done_ import-too-many-phases

# ---- 2. every option checked before an output is opened ----
old existing.txt
case_ trace-bad-break 2 "$bin" run demo --trace existing.txt --break bogus
check trace-bad-break "existing.txt was truncated" content_is existing.txt old
done_ trace-bad-break

old periods.txt
case_ periods-bad-break 2 "$bin" run demo --periods periods.txt --break 'switch cpu=99'
check periods-bad-break "periods.txt was truncated" content_is periods.txt old
done_ periods-bad-break

old existing.txt
case_ trace-small-history 2 "$bin" run demo --trace existing.txt --break switch --history-budget 1M
check trace-small-history "existing.txt was truncated" content_is existing.txt old
done_ trace-small-history

case_ history-budget-bad 2 "$bin" ui demo --history-budget 12X
done_ history-budget-bad

# ---- 3. no partial trace over the old one: a full disk, SIGTERM, SIGINT ----
old trace.txt 600
case_ trace-replaced 0 "$bin" run demo --until 100ms --trace trace.txt
check trace-replaced "the trace is not complete" grep -q '^# tracer: nop' trace.txt
check trace-replaced "mode 600 not kept" mode_is trace.txt 600
check trace-replaced "a temporary file is left" no_temps
done_ trace-replaced

case_ trace-dev-full 2 "$bin" run demo --until 100ms --trace /dev/full
done_ trace-dev-full
ln -s /dev/full dev-full.json
case_ trace-json-dev-full 2 "$bin" run demo --until 100ms --trace dev-full.json
check trace-json-dev-full "the symlink to /dev/full was replaced" test -L dev-full.json
done_ trace-json-dev-full

# a signal during a long trace: the old file, whole, and no temporary file
for sig in TERM INT HUP; do
	for ext in txt json; do
		old sig.$ext
		env --default-signal=INT "$bin" run demo $long --trace sig.$ext >/dev/null 2>&1 &
		pid=$!
		# until the run is writing its temporary file
		i=0
		while no_temps && [ $i -lt 100 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		kill -$sig $pid
		{ wait $pid; } 2>/dev/null
		rc=$?
		case_ok=1
		check signal-$sig-$ext "exit status $rc, not death by SIG$sig" [ $rc -gt 128 ]
		check signal-$sig-$ext "the old trace was not kept" content_is sig.$ext old
		check signal-$sig-$ext "a temporary file is left" no_temps
		done_ signal-$sig-$ext
	done
done

if [ "$(id -u)" = 0 ] && mkdir -p full && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	full=$work/full
	old full/trace.txt
	old full/periods.txt
	case_ trace-full-disk 2 "$bin" run demo --trace full/trace.txt
	check trace-full-disk "the old trace was not kept" content_is full/trace.txt old
	check trace-full-disk "a temporary file is left" no_temps full
	done_ trace-full-disk
	case_ trace-json-full-disk 2 "$bin" run demo --trace full/trace.json
	check trace-json-full-disk "a temporary file is left" no_temps full
	check trace-json-full-disk "a partial trace.json is there" test ! -e full/trace.json
	done_ trace-json-full-disk
	case_ periods-full-disk 2 "$bin" run $top/scenarios/rtapp-periodic.scn --periods full/periods.txt
	done_ periods-full-disk
	umount "$full"
	full=
else
	echo "hostile: full-disk cases skipped (not root, or no tmpfs)"
fi

# ---- 5. the clock never wraps: the longest time runs as a short one ----
sed 's/1000000000s/10s/; s/at=999999999/at=9/' "$golden/longest-time.scn" >short-time.scn
case_ longest-time 0 timeout 60 "$bin" run "$golden/longest-time.scn" --window 999999999s..1000000000s
grep -E '^(hog\.[01]|late|  lim) ' longest-time.out >long.rows
"$bin" run short-time.scn --window 9s..10s | grep -E '^(hog\.[01]|late|  lim) ' >short.rows
check longest-time "its last second differs from 9s..10s: $(diff short.rows long.rows | head -6)" cmp -s long.rows short.rows
check longest-time "hog.0, hog.1, late and /lim not all there" [ "$(wc -l <long.rows)" -eq 4 ]
done_ longest-time

# ---- 11. a long run: its progress on a terminal, Ctrl-C prints the report so far ----
old ctrlc.txt
env --default-signal=INT "$bin" run demo $long --trace ctrlc.txt >ctrlc.out 2>ctrlc.err &
pid=$!
i=0
while no_temps && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
case_ok=1
check ctrl-c "exit status $rc, not 130" [ $rc -eq 130 ]
check ctrl-c "no message: $(cat ctrlc.err)" grep -qE '^schedscope: demo: interrupted at [0-9.]+ s of 600\.000 s: the report is the run so far; no file written \(the old one kept\)$' ctrlc.err
check ctrl-c "no report so far" grep -qE '^window 0\.000 s \.\. [0-9.]+ s \([0-9.]+ s simulated\)' ctrlc.out
check ctrl-c "the old trace was not kept" content_is ctrlc.txt old
check ctrl-c "a temporary file is left" no_temps
done_ ctrl-c

# Ctrl-C inside the long calls: a --break search, side B, --rewind-check's replays
# interrupt NAME ARGS...: Ctrl-C after a second; exit 130 (timeout's 124 if it went on)
interrupt() {
	name=$1
	shift
	env --default-signal=INT timeout 60 "$bin" run "$@" >"$name.out" 2>"$name.err" &
	pid=$!
	sleep 1
	pkill -INT -P $pid -x schedscope
	wait $pid
	rc=$?
	case_ok=1
	check "$name" "exit status $rc, not 130" [ $rc -eq 130 ]
	check "$name" "no message: $(cat "$name.err")" grep -q ': interrupted at' "$name.err"
}
interrupt ctrl-c-break demo $long --break 'at 599s'
check ctrl-c-break "the search did not stop: $(grep ^break ctrl-c-break.out)" \
	grep -qE "^break: 'at 599s' did not hit before ([0-9]{1,2}|[1-4][0-9]{2}|5[0-8][0-9])\.[0-9]+ s$" ctrl-c-break.out
done_ ctrl-c-break
interrupt ctrl-c-vs demo $long --vs-set seed=2
# side B runs to where A stopped: the two windows end at the same time
check ctrl-c-vs "side B did not stop where A did: $(grep ^window ctrl-c-vs.out)" \
	[ "$(grep -c '^window' ctrl-c-vs.out)" -eq 2 -a "$(grep '^window' ctrl-c-vs.out | cut -d' ' -f2-6 | sort -u | wc -l)" -eq 1 ]
done_ ctrl-c-vs
interrupt ctrl-c-rewind demo --set duration=2s --rewind-check 100000
check ctrl-c-rewind "the rewind check did not stop: $(grep rewind-check ctrl-c-rewind.err)" \
	grep -qE '^rewind-check: [0-9]{1,4} targets' ctrl-c-rewind.err
done_ ctrl-c-rewind

# on a terminal (script(1) gives one), after a second: simulated time, events/s, ETA
if command -v script >/dev/null; then
	script -qec "timeout -s INT 2 \"$bin\" run demo $long >/dev/null" /dev/null >progress.tty 2>&1
	case_ok=1
	check progress "no progress line: $(tr '\r' '\n' <progress.tty | head -3)" \
		grep -qE 'run: [0-9.]+ s of 600\.000 s simulated \([0-9.]+%\), [0-9.]+M events/s, ETA [0-9]+:[0-9]{2}:[0-9]{2}' progress.tty
	done_ progress
fi

# ---- 4. stdout: a failed write is told, exit 2 ----
for c in "run demo" "run demo --report json" "run demo --check" "run demo --dump-state text" \
	"run demo --break switch" "run demo --periods -" "run demo --until 10ms --trace -" \
	"--help" "--version" "topology $top/topologies/dual.topo" \
	"topology $top/topologies/dual.topo --format json" "view demo --at 1s"; do
	name=stdout-$(echo "$c" | sed 's|'"$top"'/||g; s/[^a-z0-9]\{1,\}/-/g; s/-$//')
	GOLDEN=stdout-full case_ "$name" 2 sh -c "\"$bin\" $c >/dev/full"
	done_ "$name"
done

case_ stdout-import 2 sh -c "\"$bin\" import $json >/dev/full"
done_ stdout-import

echo "hostile $pass $fail" >>"$results"
echo "hostile: $pass passed, $fail failed"
[ $fail -eq 0 ]
