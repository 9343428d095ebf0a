#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Trace import tests: run-import.sh BIN
#
# 1. Round trips: a scenario's ftrace export (`run --trace`), imported with
#    --pin and run again, gives each task the CPU time share it had in the
#    first run within 0.002 (0.2 % of a CPU), and the same number of wakeups
#    within 1 %. The export rounds timestamps to the microsecond, and the
#    trace ends at its last event rather than at the scenario's end, so the
#    shares are over each run's own length. The scenarios use only what a
#    trace shows (no policy=batch, slice=, yield).
# 2. Every trace under tests/import/ (real ones recorded on Linux 6.18 with
#    ftrace, trace-cmd and perf; older layouts written from their formats;
#    schedscope's own export) is read as the format its name says, imports
#    (also with --keep-idle --keep-tracer --pin), and the scenario runs.
# 3. Every tests/import/bad/*.txt is refused with exit 2, the first line of
#    stderr in the .err file beside it, and no output file.
set -u
bin=$1
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
work=$(mktemp -d "${TMPDIR:-/tmp}/schedscope-import.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "import: $1: ok"; }
bad() { fail=$((fail + 1)); echo "import: $1: FAILED: $2"; }

# Share and wakeups per pid from a JSON report: "pid share wakeups" lines.
# An imported task's pid is the suffix of its name (comm-PID).
per_pid() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
span = r["window"]["to_ns"] - r["window"]["from_ns"]
for t in r["tasks"]:
    pid = int(t["name"].rsplit("-", 1)[1]) if sys.argv[2] == "imported" else t["pid"]
    print(pid, "%.6f" % (t["cpu_ns"] / span), t["wakeups"])
' "$1" "$2" | sort -n
}

# On the ideal machine (noise off): a recorded sleep already holds the
# recording machine's timer slack, and a replay with noise would add more.
for s in demo periodic-eevdf nice-levels contended-eevdf; do
	scn=scenarios/$s.scn
	if ! "$bin" run "$scn" --set noise=off --trace "$work/$s.txt" --report json >"$work/$s.a.json" ||
	   ! "$bin" import "$work/$s.txt" --pin -o "$work/$s.scn" 2>"$work/$s.err" ||
	   ! "$bin" run "$work/$s.scn" --set noise=off --report json >"$work/$s.b.json"; then
		bad "round trip $s" "$(cat "$work/$s.err")"
		continue
	fi
	per_pid "$work/$s.a.json" original >"$work/$s.a"
	per_pid "$work/$s.b.json" imported >"$work/$s.b"
	if msg=$(join "$work/$s.a" "$work/$s.b" | awk -v n="$(wc -l <"$work/$s.a")" '
		{ d = $2 - $4; if (d < 0) d = -d; w = $3 - $5; if (w < 0) w = -w
		  if (d > 0.002) { print "pid " $1 ": share " $2 " vs " $4; bad = 1 }
		  if (w > $3 / 100 + 1) { print "pid " $1 ": wakeups " $3 " vs " $5; bad = 1 }
		  k++ }
		END { if (k != n) { print k " of " n " tasks matched"; bad = 1 } exit bad }'); then
		ok "round trip $s ($(wc -l <"$work/$s.a") tasks)"
	else
		bad "round trip $s" "$msg"
	fi
done

# the wake edges: demo's ping and pong hand the CPU to each other; each
# `wake` of the one must be a `wait` of the other, one per wakeup of the
# original run (within 2: a wait still pending when the run ends)
# times STATEMENT runs in program PROG of SCN, loops counted: count SCN PROG STATEMENT
count() {
	awk -v prog="program $2 {" -v stmt="$3" '
		$0 == prog { in_prog = 1; m = 1; next }
		in_prog && /^}/ { in_prog = 0 }
		in_prog && $1 == "loop" { m = $2; next }
		in_prog && $1 == "}" { m = 1; next }
		in_prog { line = $0; sub(/^[ \t]+/, "", line); if (line == stmt) n += m }
		END { print n + 0 }' "$1"
}
edges() {	# edges SCN WAKER WAKEE ORIGINAL_WAKEUPS
	wakes=$(count "$1" "$2" "wake $3")
	waits=$(count "$1" "$3" "wait")
	if [ "$wakes" = "$waits" ] && [ $(($4 - waits)) -le 2 ] && [ $((waits - $4)) -le 2 ]; then
		ok "wake edges $2 -> $3 ($wakes)"
	else
		bad "wake edges $2 -> $3" "$wakes wakes, $waits waits, $4 wakeups in the original"
	fi
}
if [ -f "$work/demo.scn" ]; then
	edges "$work/demo.scn" ping-15 pong-16 "$(awk '$1 == 16 { print $3 }' "$work/demo.a")"
	edges "$work/demo.scn" pong-16 ping-15 "$(awk '$1 == 15 { print $3 }' "$work/demo.a")"
fi

# the format is told from the text: the file names say which it is
for t in tests/import/*.txt; do
	case $(basename "$t") in
	*trace-cmd*) fmt=trace-cmd ;;
	*perf*) fmt=perf ;;
	*) fmt=ftrace ;;
	esac
	if "$bin" import "$t" -o "$work/t.scn" 2>"$work/t.err" && "$bin" run "$work/t.scn" >/dev/null 2>>"$work/t.err" &&
	   "$bin" import "$t" --keep-idle --keep-tracer --pin -o "$work/k.scn" 2>>"$work/t.err" &&
	   "$bin" run "$work/k.scn" >/dev/null 2>>"$work/t.err"; then
		if head -n 1 "$work/t.scn" | grep -q "($fmt text)"; then
			ok "$t"
		else
			bad "$t" "not read as $fmt: $(head -n 1 "$work/t.scn")"
		fi
	else
		bad "$t" "$(cat "$work/t.err")"
	fi
done
# perf script without the one event whose name is too long for padding
if grep -v migrate tests/import/real-perf-6.18.txt | "$bin" import - 2>/dev/null | head -n 1 | grep -q "(perf text)"; then
	ok "perf told apart without sched_migrate_task"
else
	bad "perf told apart without sched_migrate_task" "read as another format"
fi

for t in tests/import/bad/*.txt; do
	want=$(cat "${t%.txt}.err")
	rm -f "$work/bad.scn"
	"$bin" import "$t" -o "$work/bad.scn" 2>"$work/bad.err"
	rc=$?
	got=$(head -n 1 "$work/bad.err")
	if [ $rc -eq 2 ] && [ "$got" = "$want" ] && [ ! -e "$work/bad.scn" ]; then
		ok "$t"
	else
		bad "$t" "expected exit 2 and '$want', got $rc and '$got'"
	fi
done

echo "import $pass $fail" >> "$results"
echo "import: $pass passed, $fail failed"
[ $fail -eq 0 ]
