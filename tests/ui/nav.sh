#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The visualizer's navigation on a pty (tmux): the breakpoint language in
# the console, the events filter's words, mouse clicks and the wheel,
# search with n and N, the rule between panes and sideways scrolling at 80
# columns. Usage: tests/ui/nav.sh [./schedscope]
set -u
suite=ui-nav
bin=${1:-./schedscope}
pass=0
fail=0
. "$(dirname "$0")/lib.sh"

# the status line's selection and the events view's selected event
sel_event() {
	screen | sed -n 's/.*event #\([0-9]*\) selected.*/\1/p' | head -n1
}

# ---- breakpoints: keys and the comparison in any order, errors, completion ----
bal=scenarios/balance-spread-16-busy.scn
start ui "$bal" --paused --set noise=off
$T resize-window -t e2e -x 200 -y 30
check "starts paused" "PAUSED  0.000000s"
cmd "break balance level=NUMA moved >= 1 cpu=4-7"
check "the issue's breakpoint is taken" "breakpoint 1: balance level=NUMA moved >= 1 cpu=4-7"
cmd "speed max"
$T send-keys -t e2e Space
check "it stops on a NUMA balance by CPU 4-7 that moved a task" "schedscope_load_balance on cpu"
if screen | grep -q "schedscope_load_balance on cpu [4-7]: NUMA .*, [1-9][0-9]* moved"; then
	ok "the hit is at NUMA on CPU 4-7 with a task moved"
else
	bad "the hit does not fit the breakpoint"
fi
cmd "break balance cpu=4-7 frob"
check "a stray word: the column and what could come" \
	"col 17: expected level=, moved OP N, 'and' or 'or' before 'frob'"
cmd "break balance moved 1"
check "a missing comparison is named" "col 15: expected a comparison (> >= < <= =) after 'moved'"
# completion: kinds, then the kind's keys, then a key's values
$T send-keys -t e2e :
sleep 0.1
$T send-keys -t e2e "break " Tab Tab
check "Tab after break lists every kind" "at  balance  event  exit  fork  herd  migrate"
check "throttle too" "throttle  unthrottle"
$T send-keys -t e2e "balance " Tab Tab
check "after balance: its keys" "cpu=  level=  moved"
$T send-keys -t e2e "le" Tab
check "a key completes with its =" ":break balance level="
$T send-keys -t e2e "NU" Tab
check "level= completes the level names" ":break balance level=NUMA"
$T send-keys -t e2e "and mig" Tab "ta" Tab "hog.1" Tab Tab
check "after and: a kind, its keys, task names" "hog.1  hog.10  hog.11"
check "each completed word ends in a blank, a key in its =" ":break balance level=NUMA and migrate task=hog.1"
$T send-keys -t e2e Escape
sleep 0.3
# the events filter completes every word it takes: events by a tail, tasks
$T send-keys -t e2e f
sleep 0.1
$T send-keys -t e2e "thr" Tab
check "f: an event by the tail people use" ":filter throttle"
$T send-keys -t e2e "wak" Tab Tab
check "f: the events a prefix fits, once each" "wakeup  wakeup_new  waking"
$T send-keys -t e2e "eup_" Tab "hog.1" Tab Tab
check "f: then task names" "hog.1  hog.10  hog.11"
check "f: the line so far" ":filter throttle wakeup_new hog.1"
$T send-keys -t e2e Escape
quit

# ---- the events filter takes the words people use, several of them ----
start ui scenarios/bandwidth-two-cpus.scn --paused
cmd "goto 500ms"
cmd "view events"
cmd "filter throttle"
check "filter throttle: the cfs_throttle events" "schedscope_cfs_throttle"
if screen | grep -q "cfs_unthrottle\|switch"; then bad "filter throttle let other events through"; else ok "only throttles"; fi
cmd "filter throttle unthrottle"
check "two words: both kinds" "schedscope_cfs_unthrottle"
check "and still the first" "schedscope_cfs_throttle "
quit

# ---- mouse clicks select what is under them; the wheel scrolls ----
start ui "$bal" --paused --set noise=off
$T resize-window -t e2e -x 120 -y 40
cmd "goto 392100us"
cmd "view cpus"
wait_for "CPU9 "
# the cpus view: a CPU's line
row=$(row_of "^ *CPU9 ")
if [ -n "$row" ]; then
	click 6 $((row - 1))
	check "a click on a CPU's line selects it" "[cpus]  cpu 9"
else
	bad "no CPU9 line in the cpus view"
fi
# the timeline: a task's span
cmd "view timeline"
wait_for "Timeline "
row=$(row_of "^CPU7 ")
if [ -n "$row" ]; then
	click 10 $((row - 1))
	check "a click on a task in the timeline selects it" "task hog.9"
	check "and its span: the info line has its whole name and times" "CPU7 hog.9 (pid 25)  0.204000s .. now"
	click 2 $((row - 1))
	check "a click on a lane's label selects the CPU" "cpu 7  task hog.9"
else
	bad "no CPU7 lane in the timeline"
fi
check "the timeline follows now" "(following now)"
click 40 5 64
if wait_for "(following now)" 1 && screen | grep -q "Timeline .*(following now)"; then
	bad "the wheel did not scroll the timeline"
else
	ok "the wheel scrolls the timeline back in time"
fi
# a click on the time axis puts marker A there, a right click (button 3) B
row=$(row_of "┼")
if [ -n "$row" ]; then
	click 30 $((row - 1))
	check "a click on the axis sets marker A" "marker A at "
	click 70 "$row" 2
	check "a right click on the axis' times sets marker B" "marker B at "
	check "the message gives B-A" "B-A +"
	if screen | grep -q "^A [0-9.]*s  B [0-9.]*s  B-A +"; then ok "the view's last row gives both and B-A"; else bad "no A, B and B-A under the axis"; fi
	click 50 $((row - 3)) 2
	if screen | grep -q "marker B at .*B-A +"; then ok "a right click elsewhere leaves B"; else bad "a right click on a lane changed something"; fi
else
	bad "no time axis in the timeline"
fi
# the events view: a line
cmd "view events"
click 30 6
check "a click on an event selects it" "selected"
e1=$(sel_event)
click 30 9
e2=$(sel_event)
if [ -n "$e1" ] && [ -n "$e2" ] && [ "$e2" -gt "$e1" ]; then ok "a lower line is a later event ($e1 -> $e2)"; else bad "click: '$e1' then '$e2'"; fi
click 30 10 64
e3=$(sel_event)
if [ -n "$e3" ] && [ "$e3" -lt "$e2" ]; then ok "the wheel moves up the list ($e2 -> $e3)"; else bad "wheel up: '$e2' -> '$e3'"; fi
click 30 10 65
sleep 0.2
e4=$(sel_event)
if [ "$e4" = "$e2" ]; then ok "and back down"; else bad "wheel down: '$e3' -> '$e4', not $e2"; fi
# the migrations view: a migration, and its record
cmd "view migrations"
wait_for "Migrations "
row=$(row_of "CPU .* -> ")
if [ -n "$row" ]; then
	click 20 $((row - 1))
	check "a click on a migration selects it and shows why" "why: "
	if screen | sed -n "${row}p" | grep -q "^>"; then ok "the clicked line is marked"; else bad "the clicked migration is not marked"; fi
else
	bad "no migration listed"
fi
# the runqueue view: a task's lane
cmd "select cpu 1"
cmd "view runqueue"
wait_for "CPU 1 runqueue"
row=$(row_of "^ *[▶ ]b1 \|^.b1[* ]")
if [ -n "$row" ]; then
	click 3 $((row - 1))
	check "a click on a runqueue lane selects the task" "task b1"
else
	bad "no lane for b1 in the runqueue view"
fi
quit

# groups: a click on a group's line selects it
start ui scenarios/groups-nested.scn --paused
cmd "goto 100ms"
cmd "view groups"
line=$(screen | grep -n "^ *[^ ]*  *[0-9][0-9]* .*max" | sed -n 2p)
row=${line%%:*}
if [ -n "$row" ]; then
	click 2 $((row - 1))
	check "a click on a group selects it" "group /"
else
	bad "no group line in the groups view"
fi
quit

# ---- search: / in the events and migrations lists, n and N ----
start ui "$bal" --paused --set noise=off
cmd "goto 392100us"
cmd "view events"
$T send-keys -t e2e /
sleep 0.1
$T send-keys -t e2e "comm=hog.14" Enter
check "/ finds a line" "/comm=hog.14  (n next, N previous)"
s1=$(sel_event)
if screen | grep "^>" | grep -q "comm=hog.14"; then ok "the selected line holds the text"; else bad "the selected line lacks 'comm=hog.14 '"; fi
# a log that follows the newest finds the newest match, above
$T send-keys -t e2e N
sleep 0.3
s2=$(sel_event)
if [ -n "$s1" ] && [ -n "$s2" ] && [ "$s2" -lt "$s1" ]; then ok "N: the previous match ($s1 -> $s2)"; else bad "N: '$s1' -> '$s2'"; fi
if screen | grep "^>" | grep -q "comm=hog.14"; then ok "N's line holds the text"; else bad "N's line lacks the text"; fi
$T send-keys -t e2e n
sleep 0.3
s3=$(sel_event)
if [ "$s3" = "$s1" ]; then ok "n: the next one, where it began"; else bad "n: '$s2' -> '$s3', not $s1"; fi
$T send-keys -t e2e n
check "n past the last: said so" "/comm=hog.14: no more matches below"
if $T capture-pane -e -p -t e2e | grep "^.*>" | grep -q "43mcomm=hog.14"; then
	ok "the match is highlighted"
else
	bad "no highlight on the match"
fi
# the help is a list too
$T send-keys -t e2e ?
check "? opens the help" "schedscope help"
if screen | grep -qF "hide one field"; then bad "the events view's keys show before a search"; else ok "the views' keys are further down"; fi
$T send-keys -t e2e /
sleep 0.1
$T send-keys -t e2e "hide one field" Enter
check "/ in the help scrolls to the match" "hide one field less or more (scroll sideways)"
$T send-keys -t e2e Escape
sleep 0.2
cmd "search nosuchthing"
check "no match: said so" "search: no line holds 'nosuchthing'"
cmd "view migrations"
$T send-keys -t e2e /
sleep 0.1
$T send-keys -t e2e "hog.0" Enter
check "/ in the migrations list" "/hog.0  (n next, N previous)"
if screen | grep "^>" | grep -q "hog.0 "; then ok "the selected migration is hog.0's"; else bad "no hog.0 migration selected"; fi
quit

# the cpus, runqueue and groups views search too
start ui "$bal" --paused --set noise=off
cmd "goto 392100us"
cmd "view cpus"
cmd "search hog.13"
check "/ in the cpus view selects the CPU hog.13 is on" "/hog.13  (n next, N previous)"
if screen | grep "▶" | grep -q "hog.13"; then ok "the selected CPU's line holds hog.13"; else bad "the selected CPU's line lacks hog.13"; fi
quit
cat > "$tmp/sixty.scn" <<'SCN'
topology single
duration 1s
task t count=60 program="run forever"
SCN
start ui "$tmp/sixty.scn" --paused
cmd "goto 200ms"
cmd "view runqueue"
check "sixty tasks queued" "nr_running 60"
if screen | grep -q "^ *t\.47 "; then bad "t.47 shows before the search"; else ok "t.47 is below the first page"; fi
cmd "search t.47"
check "/ in the runqueue view selects a task further down" "task t.47"
if screen | grep -q "t\.47 "; then ok "and scrolls to its lane"; else bad "t.47's lane is not shown"; fi
quit
start ui scenarios/groups-nested.scn --paused
cmd "goto 100ms"
cmd "view groups"
path=$(screen | sed -n 's/^ *\(\/[a-z]*\/[a-z]*\) .*/\1/p' | head -n1)
leaf=${path##*/}
if [ -n "$leaf" ]; then
	cmd "search $leaf"
	check "/ in the groups view selects a group by its path" "selected $path"
else
	bad "no nested group in groups-nested.scn"
fi
quit

# the timeline: a task's spans by name, n and N; the task view: its switches
start ui "$bal" --paused --set noise=off
cmd "goto 392100us"
cmd "view timeline"
cmd "search hog.3"
check "/ in the timeline selects the task and its CPU" "cpu 1  task hog.3"
check "and says how to go on" "/hog.3  (n next, N previous)"
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	$T send-keys -t e2e n
	sleep 0.1
done
check "n goes span by span, to hog.3's move to CPU 6" "cpu 6  task hog.3"
$T send-keys -t e2e n
check "past the last one: said so" "/hog.3: no more matches below"
$T send-keys -t e2e N
check "N: back to the span before, on CPU 1" "cpu 1  task hog.3"
# (the label of the selected CPU is in reverse video too: after it)
if $T capture-pane -e -p -t e2e | grep "CPU1 " | sed 's/.*CPU1 //' | grep -q '\[7m\|;7m\|\[7;\|;7;'; then
	ok "the span found is in reverse video"
else
	bad "no span in reverse video on CPU1"
fi
cmd "view task"
cmd "search R"
check "/ in the task view selects a switches row" "/R  (n next, N previous)"
if screen | grep -q "^> .*\[[0-9]*\] .* R *$"; then ok "the row found is marked and holds the text"; else bad "no marked row in state R"; fi
quit

# a search through a long log: the visualizer goes on meanwhile, Escape gives it up
cat > "$tmp/long.scn" <<'SCN'
topology packages=2 cores=16 threads=2
duration 30s
task hog count=64 program="loop { run 300us; sleep 100us }"
SCN
start ui "$tmp/long.scn" --paused
cmd "goto 3s"
check "a long log" "PAUSED  3.000000s" 30
cmd "view events"
$T send-keys -t e2e /
sleep 0.1
$T send-keys -t e2e "sched_process_fork" Enter
check "the status line counts the events looked at" "searching… "
t1=$(sim_time)
$T send-keys -t e2e Space
check "keys work meanwhile: it runs" "RUNNING"
sleep 0.5
t2=$(sim_time)
$T send-keys -t e2e Space
if [ -n "$t1" ] && [ -n "$t2" ] && [ "$t1" != "$t2" ]; then ok "the clock runs while it searches ($t1 -> $t2)"; else bad "the clock: '$t1' -> '$t2'"; fi
if screen | grep -q "searching… "; then ok "and the search goes on"; else bad "the search ended too soon to tell (a faster machine?)"; fi
check "it ends on the match, at the log's start" "/sched_process_fork  (n next, N previous)" 90
if screen | grep "^>" | grep -q "process_fork"; then ok "the line found is selected"; else bad "no process_fork line selected"; fi
cmd "search nosuchthing"
check "another search" "searching… "
$T send-keys -t e2e Escape
check "Escape gives it up" "/nosuchthing: search cancelled after "
if status_line | grep -q "searching"; then bad "the status line still says searching"; else ok "the status line no longer says searching"; fi
quit

# ---- 80 columns: a rule between the views, the fields scroll sideways ----
start ui "$bal" --paused --set noise=off
$T resize-window -t e2e -x 80 -y 24
cmd "goto 392100us"
cmd "view events side cpus"
sleep 0.2
# rows with the rule in column 49 (3/5 of 80 for the main view)
rules=$(screen | python3 -c 'import sys; print(sum(len(l) > 48 and l[48] == "\u2502" for l in sys.stdin))')
if [ "$rules" -ge 20 ]; then ok "a rule between the main and the side view"; else bad "the rule is on $rules rows"; fi
cmd "view events side none"
cmd "filter lb_group"
check "lb_group lines at 80 columns" "schedscope_lb_group"
if screen | grep -q "idle_cpus="; then bad "idle_cpus shows without scrolling (the test needs a cut line)"; else ok "the last field is cut at 80 columns"; fi
for i in 1 2 3 4 5 6 7 8 9 10; do
	$T send-keys -t e2e l
done
check "l scrolls the fields: the last one shows" "idle_cpus="
check "the header says how many are hidden" "10 fields hidden (h)"
check "time and event stay" "] schedscope_lb_group « "
if screen | grep -q '[0-9]…\|«[0-9]'; then bad "a number is cut: $(screen | grep '[0-9]…\|«[0-9]' | head -n1)"; else ok "no number is cut"; fi
for i in 1 2 3 4 5 6 7 8 9 10; do
	$T send-keys -t e2e h
done
sleep 0.3
if screen | grep -q "fields hidden"; then bad "h did not scroll back"; else ok "h scrolls back"; fi
$T send-keys -t e2e q
rc=$(wait_exit)
if [ "$rc" = 0 ]; then ok "q quits with status 0"; else bad "exit status after q: $rc"; fi
$T kill-session -t e2e 2>/dev/null

# ---- the split screen: a click on side B focuses it ----
start ui scenarios/demo.scn --set noise=off --vs-set feature=NO_PLACE_LAG --paused
$T resize-window -t e2e -x 200 -y 40
# click only once side B is drawn at 200 columns: under load the first frame can be the 100-column one
for i in $(seq 50); do
	screen | grep -q "^.\{90,\}│ B: NO_PLACE_LAG" && break
	sleep 0.1
done
click 150 10
check "a click in side B focuses it" "split: B"
click 20 10
check "and in side A, A" "split: A"
$T send-keys -t e2e q
wait_exit > /dev/null

summary
