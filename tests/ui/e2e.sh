#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# End-to-end test of the visualizer: run the real binary in a detached tmux
# session, send keys, and check the screen, the exit status and that the
# terminal was restored. Usage: tests/ui/e2e.sh [./schedscope]
set -u
suite=ui-e2e
bin=${1:-./schedscope}
scn=scenarios/nice-levels.scn
pass=0
fail=0
. "$(dirname "$0")/lib.sh"

# ---- the keys ----
# the ideal machine, so that the tick a breakpoint at 1s stops on is at 1.000000s
start ui "$scn" --set noise=off
check "starts running" "RUNNING"
check "status line shows the duration" "/ 10.000000s"

$T send-keys -t e2e Space
check "space pauses" "PAUSED"
t1=$(sim_time)
sleep 0.4
t2=$(sim_time)
if [ -n "$t1" ] && [ "$t1" = "$t2" ]; then ok "paused time stands still ($t1)"; else bad "paused time moved: '$t1' -> '$t2'"; fi

e0=$(sim_events)
$T send-keys -t e2e .
wait_for "step: at"
e1=$(sim_events)
if [ -n "$e0" ] && [ -n "$e1" ] && [ "$e1" -gt "$e0" ]; then ok "step: events $e0 -> $e1"; else bad "step did not add events: '$e0' -> '$e1'"; fi

$T send-keys -t e2e ,
wait_for "back: at"
e2=$(sim_events)
if [ -n "$e2" ] && [ "$e2" -lt "$e1" ]; then ok "rewind: events $e1 -> $e2"; else bad "rewind did not go back: '$e1' -> '$e2'"; fi

$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "goto 2s" Enter
check ":goto 2s" "PAUSED  2.000000s / 10.000000s"

$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "frobnicate now" Enter
check "a bad command shows an error" "error: unknown command 'frobnicate'"
if [ "$(sim_time)" = "2.000000s" ]; then ok "the bad command changed nothing"; else bad "time moved after a bad command: $(sim_time)"; fi

# a 100 KB paste into the console stops at the 1023 bytes a command may have (issue 19)
printf 'goto 3s%102400s' '' >"$tmp/paste"
$T send-keys -t e2e :
sleep 0.1
$T load-buffer "$tmp/paste"
$T paste-buffer -t e2e
$T send-keys -t e2e Enter
check "a 100 KB paste is cut at 1023 bytes, the command runs" "PAUSED  3.000000s / 10.000000s" 30

# a breakpoint stops the run and says why
type_cmds "goto 900ms" "break at 1s" "speed 1"
$T send-keys -t e2e Space
check "a breakpoint pauses the run" "break 1 at 1.000000s"
check "and the status line says paused" "PAUSED  1.000000s"

$T send-keys -t e2e g
sleep 0.1
$T send-keys -t e2e "1.5s" Enter
check "g prompts for goto" "1.500000s / 10.000000s"

$T resize-window -t e2e -x 60 -y 20
check "60x20 is too small" "terminal too small: need 80x24"
$T resize-window -t e2e -x 100 -y 30
check "back to 100x30" "PAUSED  1.500000s / 10.000000s"
if screen | grep -qF "terminal too small"; then bad "the too-small message stayed"; else ok "the too-small message is gone"; fi

$T send-keys -t e2e ?
check "? opens the help" "schedscope help"
$T send-keys -t e2e NPage NPage
check "the help scrolls to the commands" "step-next EXPR"
$T send-keys -t e2e Escape
sleep 0.3
if screen | grep -qF "schedscope help"; then bad "Escape did not close the help"; else ok "Escape closes the help"; fi

$T send-keys -t e2e q
rc=$(wait_exit)
if [ "$rc" = 0 ]; then ok "q quits with status 0"; else bad "exit status after q: $rc"; fi
if restored; then ok "terminal restored after q"; else bad "terminal not restored after q"; fi
$T kill-session -t e2e 2>/dev/null

# ---- a script, and SIGTERM ----
cat > "$tmp/cmds" <<'CMDS'
# run to a time, pause, and look at the events
pause
goto 3s
checkpoint three
view events
CMDS
start ui "$scn" --commands "$tmp/cmds"
check "--commands runs a script" "PAUSED  3.000000s / 10.000000s"
check "the script's checkpoint and view" "[events]"
pid=$(cat "$tmp/pid" 2>/dev/null)
if [ -n "$pid" ]; then
	kill -TERM "$pid"
	rc=$(wait_exit)
	if [ "$rc" = 143 ]; then ok "SIGTERM ends it (status 143)"; else bad "SIGTERM: exit status $rc, not 143"; fi
	if restored; then ok "terminal restored after SIGTERM"; else bad "terminal not restored after SIGTERM"; fi
else
	bad "no process to send SIGTERM to"
fi
$T kill-session -t e2e 2>/dev/null

# ---- the console's paths, and the speed the run really goes at ----
mkdir -p "$tmp/home"
cat > "$tmp/long.scn" <<'SCN'
topology packages=2 cores=64 threads=2
duration 3600s
task hog count=300 program="loop { run 3ms; sleep 1ms }"
SCN
START_ENV="HOME=$tmp/home" start ui "$tmp/long.scn" --paused
check "a long run starts paused" "PAUSED  0.000000s"
type_cmds "goto 50ms" "trace ~/x.trace"
if wait_for "records to $tmp/home/x" && [ -s "$tmp/home/x.trace" ]; then
	ok ":trace ~/x.trace writes into \$HOME"
else
	bad ":trace ~/x.trace did not write $tmp/home/x.trace"
fi
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "speed 100" Enter
$T send-keys -t e2e Space
# 256 CPUs at 1000 ticks a simulated second each cannot go at 100x here
check "the status line shows the real rate beside the asked one" "speed 100x asked, " 8
$T send-keys -t e2e Space
check "paused: the asked speed alone" "PAUSED"
if status_line | grep -q "speed 100x  "; then ok "paused: no real rate"; else bad "paused: $(status_line)"; fi
quit

# ---- what the views have: CPU history, a task's switches, markers and wakeup arrows ----
start ui scenarios/demo.scn --set noise=off --paused
type_cmds "goto 2s" "select task web.0" "select cpu 1" "view cpus"
$T resize-window -t e2e -x 160 -y 50
check "160 columns: the CPUs view has a util history column" "util, last 1s"
check "and the selected CPU's graphs" "CPU1 over the last 1s"
$T resize-window -t e2e -x 80 -y 24
$T send-keys -t e2e 5
check "80 columns: the task view has perf sched timehist's columns" "time  cpu  wait time  sch delay   run time state"
$T resize-window -t e2e -x 120 -y 40
$T send-keys -t e2e k k
check "k scrolls the switches back" "... 2 newer below (j, PgDn, End)"
$T send-keys -t e2e End
$T resize-window -t e2e -x 80 -y 24
$T send-keys -t e2e 3
check "the timeline has the task's wakeup arrows" "wakeup"
$T send-keys -t e2e m
check "m sets marker A" "A 2.000000s"
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "goto 2.010s" Enter
$T send-keys -t e2e M
check "M sets marker B, and the delta shows" "B-A +10.000ms"
quit
# 256 CPUs on one screen: an LLC a row, the selected CPU's expanded
cat > "$tmp/llcs.scn" <<'SCN'
topology packages=2 cores=64 threads=2 llcs=8
duration 1s
task hog count=300 program="loop { run 3ms; sleep 1ms }"
SCN
start ui "$tmp/llcs.scn" --paused
type_cmds "goto 50ms" "view timeline"
check "256 CPUs: more than fit" "[more CPUs: select"
$T send-keys -t e2e l
check "l: an LLC a row" "LLC1 "
check "and the selected CPU's LLC in lanes" "CPU0 "
quit

# ---- the runqueue's number line: a stable axis, zoom lock, every task reachable ----
cat > "$tmp/sixty.scn" <<'SCN'
topology single
duration 1s
task t count=60 program="run forever"
SCN
start ui "$tmp/sixty.scn" --paused
check "sixty tasks start paused" "PAUSED  0.000000s"
type_cmds "goto 200ms" "view runqueue"
check "the runqueue holds sixty" "nr_running 60"
# the breakpoint language in the console: completion and keys in any order
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "break bal" Tab
check "Tab completes balance after break" ":break balance"
$T send-keys -t e2e "level=MC moved >= 1 cpu=0" Enter
check "keys after the comparison" "breakpoint 1: balance level=MC moved >= 1 cpu=0"
check "the rest are below" "more below (j, PgDn, End)"
axis() {
	screen | grep -E '^ *[-+0-9.]+[mun]?s +.* V ' | head -n1
}
a1=$(axis)
for i in 1 2 3; do
	$T send-keys -t e2e .
	sleep 0.2
done
a2=$(axis)
if [ -n "$a1" ] && [ "$a1" = "$a2" ]; then ok "the axis stays put over three steps"; else bad "the axis changed: '$a1' -> '$a2'"; fi
$T send-keys -t e2e End
check "End scrolls to the last tasks" "more above (k, PgUp, Home)"
if screen | grep -qF "more below"; then bad "End left tasks below"; else ok "nothing is left below after End"; fi
$T send-keys -t e2e Home
check "Home scrolls back" "more below (j, PgDn, End)"
span1=$(screen | sed -n 's/^axis \([^ ]*\) of virtual time.*/\1/p')
$T send-keys -t e2e z
check "z locks the zoom" "of virtual time, locked"
span2=$(screen | sed -n 's/^axis \([^ ]*\) of virtual time.*/\1/p')
if [ -n "$span1" ] && [ "$span1" != "$span2" ]; then ok "z zooms in: $span1 -> $span2"; else bad "z did not zoom: '$span1' -> '$span2'"; fi
$T send-keys -t e2e .
sleep 0.2
span3=$(screen | sed -n 's/^axis \([^ ]*\) of virtual time.*/\1/p')
if [ "$span2" = "$span3" ]; then ok "a locked zoom survives a step"; else bad "the locked zoom moved: '$span2' -> '$span3'"; fi
$T send-keys -t e2e a
check "a fits the axis again" "fitted to the queue"
$T send-keys -t e2e ?
$T send-keys -t e2e End
check "? lists the views' own keys" "z x zoom (locks the axis)"
$T send-keys -t e2e Escape
sleep 0.2
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "side timeline" Enter
sleep 0.2
$T send-keys -t e2e "<"
check "< steps back with the timeline beside" "back: at"
# cut text ends in an ellipsis, never right after part of a number
$T resize-window -t e2e -x 80 -y 24
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "view events" Enter
check "80 columns: the events view cuts its lines" "…"
if screen | grep -q '[0-9]…'; then bad "a number runs into the ellipsis: $(screen | grep '[0-9]…' | head -n1)"; else ok "no number is cut at 80 columns"; fi
$T resize-window -t e2e -x 100 -y 30
quit

# ---- the split screen: a branch against the old future, one clock ----
cat > "$tmp/split" <<'CMDS'
pause
goto 2s
checkpoint two
goto 1s
set nice web.0 10
compare main
CMDS
start ui scenarios/demo.scn --commands "$tmp/split"
check "compare splits the screen" "A: b1: set nice web.0 10 at 1.000000s"
check "side B is the old future" "B: main"
check "both from where they part" "PAUSED  1.000000s / 10.000000s"
$T send-keys -t e2e .
check "a step moves both sides" "step: at 1.0"
$T send-keys -t e2e o
check "o focuses side B" "split: B"
$T send-keys -t e2e 3
check "views follow the focused pane" "[timeline]"
$T resize-window -t e2e -x 200 -y 50
if wait_for "│ B: main" 3; then ok "wide: side by side"; else bad "not side by side at 200x50"; fi
$T send-keys -t e2e "|"
sleep 0.3
if screen | grep -q "A: b1.*B: main"; then bad "| did not stack the panes"; else ok "| stacks the panes"; fi
$T resize-window -t e2e -x 90 -y 24
check "90x24 is too small for the split" "terminal too small for the split"
$T resize-window -t e2e -x 70 -y 20
check "70x20 is too small for anything" "terminal too small: need 80x24"
$T resize-window -t e2e -x 100 -y 30
check "back to 100x30: both panes" "B: main"
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "goto 2.5s" Enter
check "goto moves both" "PAUSED  2.500000s / 10.000000s"
$T send-keys -t e2e ?
check "? explains the split" "Split screen"
$T send-keys -t e2e Escape
sleep 0.3
$T send-keys -t e2e q
rc=$(wait_exit)
if [ "$rc" = 0 ]; then ok "q quits the split with status 0"; else bad "split: exit status after q: $rc"; fi
if restored; then ok "terminal restored after the split"; else bad "terminal not restored after the split"; fi
$T kill-session -t e2e 2>/dev/null

# ---- ui --vs-set: a variant beside the stock run, and where they part ----
# (the ideal machine: where the runs part is a fixed point of the demo)
start ui scenarios/demo.scn --set noise=off --vs-set feature=NO_PLACE_LAG --paused
check "--vs-set labels side A" "A: stock"
check "--vs-set labels side B by what differs" "B: NO_PLACE_LAG"
$T resize-window -t e2e -x 220 -y 50
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "diverge" Enter
check ":diverge finds the first divergence" "first divergence at 0.021316s: A sched_switch cpu 1: web.2 -> web.3 | B sched_switch cpu 2"
check ":diverge shows the events view" "[events]"
check ":diverge names each side's event in its label" "A: stock │ sched_switch cpu 1: web.2 -> web.3"
$T send-keys -t e2e d
check "d goes to the next divergence" "next divergence at"
$T send-keys -t e2e D
check "D opens the diff strip" "diff B−A over 0.000000s.."
check "the strip has A, B and B-A columns" "A         B      B−A"
$T resize-window -t e2e -x 100 -y 30
check "the strip gives way to the panes at 100x30" "B: NO_PLACE_LAG"
$T send-keys -t e2e D
sleep 0.3
if screen | grep -qF "diff B−A"; then bad "D did not close the strip"; else ok "D closes the diff strip"; fi
$T send-keys -t e2e q
rc=$(wait_exit)
if [ "$rc" = 0 ]; then ok "--vs-set: q quits with status 0"; else bad "--vs-set: exit status after q: $rc"; fi
$T kill-session -t e2e 2>/dev/null

# ---- view --vs: a split frame without a terminal ----
out=$($bin view scenarios/demo.scn --vs-set feature=NO_PLACE_LAG --at 2s --size 200x40 2>&1)
if echo "$out" | grep -q "A: stock.*B: NO_PLACE_LAG"; then ok "view --vs-set: a split frame"; else bad "view --vs-set: no split frame: $(echo "$out" | head -3)"; fi
if echo "$out" | grep -q "PAUSED  2.000000s"; then ok "view --vs-set --at 2s"; else bad "view --vs-set: not at 2s"; fi
if $bin view scenarios/demo.scn --vs scenarios/nice-levels.scn --at 1s --format html | grep -q "B: nice-levels.scn"; then
	ok "view --vs FILE --format html"
else
	bad "view --vs FILE --format html"
fi
# a scenario's own `vs` lines split the frame; the command line's replace them
out=$($bin view scenarios/compare-place-lag.scn --at 1s --size 160x30 2>&1)
if echo "$out" | grep -q "A: stock.*B: NO_PLACE_LAG"; then ok "view: the scenario's own vs lines split the frame"; else bad "view: the scenario's vs lines ignored: $(echo "$out" | head -3)"; fi
out=$($bin view scenarios/compare-place-lag.scn --vs-set feature=PLACE_LAG --at 1s --size 160x30 2>&1)
if echo "$out" | grep -q "B: PLACE_LAG"; then ok "view: --vs-set replaces the scenario's vs lines"; else bad "view: --vs-set did not replace the scenario's vs lines"; fi
err=$($bin view scenarios/demo.scn --vs-set frobnicate=1 2>&1)
rc=$?
if [ "$rc" = 2 ] && echo "$err" | grep -q -- "--vs-set"; then ok "a bad --vs-set: status 2, named"; else bad "a bad --vs-set: status $rc: $err"; fi

# ---- monochrome ----
start ui "$scn" --colors 0 --paused
check "--colors 0 --paused" "PAUSED  0.000000s"
$T send-keys -t e2e q
rc=$(wait_exit)
if [ "$rc" = 0 ]; then ok "monochrome quits"; else bad "monochrome exit status $rc"; fi

summary
