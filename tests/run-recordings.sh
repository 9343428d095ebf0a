#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Real recordings (tests/import/rtapp: rt-app's mp3 and browser examples run
# on a 2-CPU Linux 6.18 machine shared with other work, under trace-cmd,
# with rt-app's own per-thread logs; see its README):
#
# 1. The trace imports, and its replay, run until all of its work is done,
#    keeps the machine as busy as /proc/stat counted around the recording,
#    within 5 %: no CPU time lost, none made up.
# 2. No phantom hog: each rt-app thread's CPU time in the import is at most
#    what rt-app's log says its run events took, plus 100 us a loop (and
#    one for the loop in progress at the end) for its other events' system
#    calls, and 1 ms to start the thread (a lost switch-out kept running
#    would add seconds).
# 3. The rt-app workload imported (rt-app's reading of repeated keys) and run
#    on the recording's CPUs writes per-loop logs whose run and period
#    medians are within 10 % of rt-app's own, for each thread that ran at
#    least 10 loops (compare-log --min-lines 10).
#
# Usage: tests/run-recordings.sh ./schedscope
set -u
bin=$1
results=${RESULTS:-build/test-results}
rec=tests/import/rtapp
mkdir -p "$(dirname "$results")"
work=$(mktemp -d "${TMPDIR:-/tmp}/schedscope-rec.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "recordings: $1: ok"; }
bad() { fail=$((fail + 1)); echo "recordings: $1: FAILED: $2"; }

for n in mp3 browser; do
	xz -dc "$rec/$n.trace-cmd.txt.xz" > "$work/$n.txt" || { bad "$n" "cannot read the trace"; continue; }
	cpus=$(sed -n 's/^cpus=//p;q' "$work/$n.txt")
	if ! "$bin" import "$work/$n.txt" -o "$work/$n.tr.scn" 2> "$work/$n.tr.warn" ||
	   ! "$bin" run "$work/$n.tr.scn" --set duration=20s --report json > "$work/$n.tr.json"; then
		bad "$n trace" "$(tail -n 3 "$work/$n.tr.warn")"
		continue
	fi
	if msg=$(python3 - "$rec/$n.txt" "$work/$n.tr.json" <<'PY'
import json, sys
info = dict(l.split(": ", 1) for l in open(sys.argv[1]).read().splitlines() if ": " in l)
before = [int(x) for x in info["proc-stat-before"].split()]
after = [int(x) for x in info["proc-stat-after"].split()]
d = [a - b for a, b in zip(after, before)]
# user nice system idle iowait irq softirq steal
busy = (d[0] + d[1] + d[2] + d[5] + d[6] + d[7]) / int(info["user-hz"])
r = json.load(open(sys.argv[2]))
replay = sum(c["busy_ns"] for c in r["cpus"]) / 1e9
print("busy %.3f s, /proc/stat %.2f s (%+.1f%%)" % (replay, busy, (replay - busy) / busy * 100))
sys.exit(abs(replay - busy) > 0.05 * busy)
PY
	); then
		ok "$n: the replay's $msg"
	else
		bad "$n: the replay's busy time" "$msg"
	fi
	if msg=$(python3 - "$rec/$n-log" "$work/$n.tr.json" <<'PY'
import glob, json, os, re, sys
word = lambda s: re.sub(r"[^A-Za-z0-9_-]", "_", s)
r = json.load(open(sys.argv[2]))
cpu = {}
for t in r["tasks"]:
    comm = t["name"].rsplit("-", 1)[0]
    cpu[comm] = cpu.get(comm, 0) + t["cpu_ns"] / 1e3
bad = []
for f in glob.glob(os.path.join(sys.argv[1], "*.log")):
    thread = word(re.sub(r"^[^-]*-(.*)-\d+\.log$", r"\1", os.path.basename(f)))
    rows = [l.split() for l in open(f) if l.strip() and not l.startswith("#")]
    # the loops logged, the one in progress at the end, and 1 ms to start the thread (its log file...)
    bound = sum(float(x[2]) for x in rows) + 100 * (len(rows) + 1) + 1000
    if cpu.get(thread, 0) > bound:
        bad.append("%s ran %.0f us, its log at most %.0f us" % (thread, cpu[thread], bound))
print("; ".join(bad) or "%d rt-app threads" % len(glob.glob(os.path.join(sys.argv[1], "*.log"))))
sys.exit(bool(bad))
PY
	); then
		ok "$n: no phantom hog ($msg)"
	else
		bad "$n: phantom hogs" "$msg"
	fi
	if ! "$bin" import "$rec/$n.json" -o "$work/$n.rt.scn" 2> "$work/$n.rt.warn"; then
		bad "$n rt-app" "$(cat "$work/$n.rt.warn")"
		continue
	fi
	sed -i "s/^topology .*/topology packages=1 cores=$cpus threads=1/" "$work/$n.rt.scn"
	if "$bin" run "$work/$n.rt.scn" --periods "$work/$n.sim.log" > /dev/null &&
	   "$bin" compare-log "$rec/$n-log" "$work/$n.sim.log" --columns run,period --max-diff 10 \
		--min-lines 10 > "$work/$n.cmp"; then
		ok "$n: rt-app's per-loop run and period medians ($(tail -n 1 "$work/$n.cmp"))"
	else
		bad "$n: rt-app's per-loop medians" "$(cat "$work/$n.cmp")"
	fi
done

echo "recordings $pass $fail" >> "$results"
echo "recordings: $pass passed, $fail failed"
[ $fail -eq 0 ]
