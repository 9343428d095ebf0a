#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sweep tests: run-sweep.sh BIN [quick]
# (quick: 1 and the shards of 2 only, for the sanitizer build, whose workers'
# leaks show as cells that failed with exit status 23)
#
# 1. A sweep with a known result: tests/sweep/hogs.scn's expect holds only
#    where each hog gets half a CPU (2 hogs on single, 4 on dual): 4 of 8
#    cells pass, the table shows shares of exactly 50 and 100 %, exit 1.
# 2. The results are the same whatever --jobs is (1, 2, 3) and whatever the
#    order of the cells: shards run by GNU parallel (in any order, one
#    process per shard) and merged give the unsharded JSON byte for byte,
#    and the same table.
# 3. Cells that do not fit a machine are n/a, not failures; --vs-set gives
#    each cell a B side; CSV and --plot (valid SVG, braille in the terminal).
# 4. Bad input exits 2: an unknown topology in a list (that cell named, the
#    others still reported), a bad range, a parameter the scenario does not
#    declare, shards that do not add up, a damaged part.
set -u
bin=$1
quick=${2:-}
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
work=$(mktemp -d "${TMPDIR:-/tmp}/schedscope-sweep.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "sweep: $1: ok"; }
bad() { fail=$((fail + 1)); echo "sweep: $1: FAILED: $2"; }
# expect NAME WANT_RC GOT_RC FILE PATTERN...: the status and each pattern (grep -F) in FILE
expect() {
	name=$1 want=$2 got=$3 file=$4
	shift 4
	if [ "$got" -ne "$want" ]; then
		bad "$name" "exit status $got, wanted $want: $(head -c 600 "$file")"
		return
	fi
	for pat in "$@"; do
		if ! grep -qF -- "$pat" "$file"; then
			bad "$name" "no '$pat' in: $(head -c 1200 "$file")"
			return
		fi
	done
	ok "$name"
}

hogs=tests/sweep/hogs.scn
axes="--topology single,dual --param hogs=2,4 --seeds 1..2"

# 1. the known result
"$bin" sweep $hogs $axes --jobs 2 --out "$work/all.json" --out "$work/all.csv" >"$work/all.txt" 2>"$work/all.err"
expect known 1 $? "$work/all.txt" \
	"hogs  topology=single hogs=2: 2 seeds: 2 ok" \
	"hogs  topology=single hogs=4: 2 seeds: 2 fail" \
	"hogs  topology=dual hogs=2: 2 seeds: 2 fail" \
	"hogs  topology=dual hogs=4: 2 seeds: 2 ok" \
	"  hog.*                50.00 ±0 " \
	"  hog.*                25.00 ±0 " \
	"  hog.*                100.0 ±0 " \
	"expect share(hog.*) = 0.5 +- 0.03 over 200ms..1s: FAILED: hog.0 measured 0.2" \
	"fails in 2 of 2 seeds: 1, 2" \
	"sweep: 8 cells: 4 ok, 4 failed"
# not a terminal: a plain line per cell
expect progress-lines 0 0 "$work/all.err" "sweep: 8/8 hogs topology=" "seed=2: "
lines=$(wc -l <"$work/all.csv")
[ "$lines" -eq 9 ] && ok csv || bad csv "$lines lines, wanted a header and 8 cells of one row"

# 2. the same whatever --jobs and the order of the cells
for j in 1 3; do
	[ -n "$quick" ] && break
	"$bin" sweep $hogs $axes --jobs $j --out "$work/j$j.json" >"$work/j$j.txt" 2>/dev/null
	if cmp -s "$work/all.json" "$work/j$j.json" && cmp -s "$work/all.txt" "$work/j$j.txt"; then
		ok "jobs-$j-same"
	else
		bad "jobs-$j-same" "--jobs $j gives other results than --jobs 2"
	fi
done
if command -v parallel >/dev/null; then
	# GNU parallel runs the shards, at most two at a time, finishing in any order
	parallel --will-cite --jobs 2 --shuf "$bin" sweep $hogs $axes --jobs 1 --shard {}/3 --out "$work/part-{}.json" \
		'>/dev/null 2>&1' ::: 3 1 2
	"$bin" sweep merge "$work"/part-*.json --out "$work/merged.json" >"$work/merged.txt" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && cmp -s "$work/all.json" "$work/merged.json" && cmp -s "$work/all.txt" "$work/merged.txt"; then
		ok "shards-merged-same"
	else
		bad "shards-merged-same" "exit $rc; merged: $(diff "$work/all.txt" "$work/merged.txt" | head -5)"
	fi
	"$bin" sweep merge "$work/part-1.json" "$work/part-3.json" >"$work/miss.txt" 2>&1
	expect merge-missing 2 $? "$work/miss.txt" "sweep merge: 3 of 8 cells are missing (1, 4, 7): is a shard left out?"
	"$bin" sweep merge "$work/part-1.json" "$work/part-1.json" >"$work/twice.txt" 2>&1
	expect merge-twice 2 $? "$work/twice.txt" "cell 0 is in two parts (the same shard twice?)"
else
	bad shards "GNU parallel is not installed (make deps)"
fi
# an --out that cannot be written is refused before any cell runs, in a sweep and in a merge
"$bin" sweep $hogs --out "$work/no/such/dir.json" >"$work/outdir.txt" 2>&1
expect out-checked-first 2 $? "$work/outdir.txt" "$work/no/such/dir.json: cannot write: No such file or directory"
if grep -q "^sweep: 1/" "$work/outdir.txt"; then bad out-before-cells "a cell ran before --out was refused"; else ok out-before-cells; fi
"$bin" sweep merge "$work/all.json" --out "$work/no/such/m.json" >"$work/mergeout.txt" 2>&1
expect merge-out-checked-first 2 $? "$work/mergeout.txt" "$work/no/such/m.json: cannot write"
# a FIFO is written in place and opened once: its reader gets the whole result
mkfifo "$work/fifo.json"
cat "$work/fifo.json" >"$work/fromfifo.json" &
reader=$!
# the timeout turns a FIFO opened twice (its reader gone, the second open waiting) into a failure
timeout 60 "$bin" sweep $hogs --seeds 1..1 --out "$work/fifo.json" >/dev/null 2>&1
rc=$?
wait $reader
if [ "$rc" -le 1 ] && grep -q '"cells"' "$work/fromfifo.json"; then ok out-fifo; else bad out-fifo "status $rc, the reader got: $(head -c 200 "$work/fromfifo.json")"; fi

if [ -n "$quick" ]; then
	echo "sweep $pass $fail" >> "$results"
	echo "sweep (quick): $pass passed, $fail failed"
	[ $fail -eq 0 ]
	exit
fi
"$bin" sweep $hogs --topology single --out "$work/other.json" >/dev/null 2>&1
"$bin" sweep merge "$work/all.json" "$work/other.json" >"$work/other.txt" 2>&1
expect merge-other-sweep 2 $? "$work/other.txt" "other.json: not the same sweep"
head -c 300 "$work/all.json" >"$work/cut.json"
"$bin" sweep merge "$work/cut.json" >"$work/cut.txt" 2>&1
expect merge-damaged 2 $? "$work/cut.txt" "cut.json: "

# 3. cells that do not apply; B sides; charts
"$bin" sweep tests/sweep/pinned.scn --topology single,dual,laptop-4c8t >"$work/na.txt" 2>&1
expect not-applicable 0 $? "$work/na.txt" \
	"does not apply: tests/sweep/pinned.scn:4:18: CPU 3 does not exist (1 CPUs, 0-0)" \
	"sweep: 3 cells: 1 ok, 2 n/a"
"$bin" sweep tests/sweep/pinned.scn --topology own,single --matrix >"$work/matrix.txt" 2>&1
expect matrix 0 $? "$work/matrix.txt" "scenario                 own      single" "pinned                   ok*      n/a"
# the validation matrix found this: an active balance with pinned tasks crashed
# (on the ideal machine, where every w task is moved at least once there)
"$bin" sweep scenarios/numa-imbalance.scn --topology laptop-4c8t --set noise=off >"$work/numa.txt" 2>&1
expect active-balance-pinned 0 $? "$work/numa.txt" "sweep: 1 cell: 1 ok"
"$bin" sweep $hogs --topology dual --vs-set hz=1000 --vs-set seed=3 >"$work/vs.txt" 2>&1
expect vs-set 0 $? "$work/vs.txt" "B is A with hz=1000 seed=3" \
	"  hog.*                A    50.00" "                       B    50.00" "                       B-A  0 "
"$bin" sweep scenarios/latency-mix.scn --param wakers=2,8 --kernel 6.1,6.12 --seeds 1..2 \
	--plot "$work/chart.svg" >/dev/null 2>&1
rc=$?
if [ $rc -le 1 ] && python3 - "$work/chart.svg" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
texts = [t.text for t in root.iter(ns + "text")]
assert "p99 wakeup latency of web.* in latency-mix" in texts, texts[:3]
assert "kernel=6.1" in texts and "kernel=6.12" in texts
assert "wakers=2" in texts and "wakers=8" in texts        # the CDF panels
assert len(list(root.iter(ns + "circle"))) == 4           # 2 lines x 2 points
assert len(list(root.iter(ns + "path"))) >= 2 + 2 + 4     # bands, lines, CDFs
PY
then ok svg; else bad svg "exit $rc, or not the chart wanted"; fi
"$bin" sweep $hogs $axes --plot - --metric share >"$work/term.txt" 2>/dev/null
expect terminal-chart 1 $? "$work/term.txt" "CPU share of hog.* in hogs" "⠀" "1 topology=single" "2 topology=dual"

# 4. bad input
"$bin" sweep $hogs --topology dual,nowhere,single >"$work/topo.txt" 2>&1
expect unknown-topology 2 $? "$work/topo.txt" "hogs  topology=nowhere: 1 cell: 1 error" \
	"ERROR: --topology nowhere: topology 'nowhere' not found" "hogs  topology=single: 1 cell: 1 fail" \
	"sweep: 3 cells: 1 ok, 1 failed, 1 error"
"$bin" sweep $hogs --seeds 5..1 >"$work/range.txt" 2>&1
expect bad-range 2 $? "$work/range.txt" "--seeds: '5..1' is not A..B with A <= B"
"$bin" sweep $hogs --param tasks=1,2 >"$work/param.txt" 2>&1
expect undeclared-param 2 $? "$work/param.txt" \
	"ERROR: tests/sweep/hogs.scn: --param tasks=1: the scenario declares no such parameter (it declares hogs)"
"$bin" sweep $hogs --param hogs=2,2ms >"$work/kind.txt" 2>&1
expect ill-typed-param 2 $? "$work/kind.txt" "hogs  hogs=2: 1 cell: 1 fail" \
	"ERROR: tests/sweep/hogs.scn:3:12: --param hogs=2ms: the parameter is an integer (default 4), not a duration"
"$bin" sweep $hogs --kernel 6.12,7.3 >"$work/kernel.txt" 2>&1
expect bad-kernel 2 $? "$work/kernel.txt" "--kernel kernel=7.3: --set: unknown kernel '7.3'"
"$bin" sweep $hogs --set nosuch=1,2 >"$work/set.txt" 2>&1
expect bad-set 2 $? "$work/set.txt" "--set nosuch=1: --set: unknown key 'nosuch'"
"$bin" sweep $hogs --shard 4/3 >"$work/shard.txt" 2>&1
expect bad-shard 2 $? "$work/shard.txt" "--shard: '4/3' is not I/N with 1 <= I <= N"

echo "sweep $pass $fail" >> "$results"
echo "sweep: $pass passed, $fail failed"
[ $fail -eq 0 ]
