#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Chrome/Perfetto JSON export of every scenario: it parses (python3's
# json), names its rows, pairs its flow events, keeps a --trace-window, and
# two runs give the same bytes. Then a real consumer reads the windowed
# exports and three whole ones: the Chrome DevTools trace model from npm
# (tests/perfetto/devtools-check.mjs), installed in $(B)/npm by `make test`.
# Usage: tests/run-perfetto-check.sh ./schedscope [TRACE_ENGINE_DIR]
set -u
bin=${1:-./schedscope}
engine=${2:-build/npm/node_modules/@paulirish/trace_engine}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=${RESULTS:-build/test-results}
pass=0 fail=0
check() {	# FILE FROM_US TO_US (TO_US empty: no end)
	python3 - "$@" <<'PY'
import json, sys
path, lo = sys.argv[1], float(sys.argv[2])
hi = float(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] else float("inf")
d = json.load(open(path))
ev = d["traceEvents"]
assert "displayTimeUnit" not in d	# ts is in microseconds, as the format says
assert all(e.get("cat") == "__metadata" for e in ev if e["ph"] == "M")
assert all(e.get("args") == {} for e in ev if e["ph"] in ("s", "f"))
meta = {(e["pid"], e["tid"], e["name"]): e["args"] for e in ev if e["ph"] == "M"}
assert meta[(1000000, 1000000, "process_name")]["name"] == "CPUs"
assert meta[(2000000, 2000000, "process_name")]["name"] == "Tasks"
assert meta[(1000000, 1000001, "thread_name")]["name"] == "CPU 0"
starts, ends = {}, {}
for e in ev:
    ph = e["ph"]
    if ph == "M":
        continue
    assert lo <= e["ts"] < hi or (ph == "X" and e["ts"] == lo), e
    if ph == "X":
        assert e["dur"] > 0 and e["ts"] + e["dur"] <= hi + 1e-9, e
        if e["pid"] == 1000000:
            assert (1000000, e["tid"], "thread_name") in meta, e
    elif ph == "s":
        starts[e["id"]] = e
    elif ph == "f":
        ends[e["id"]] = e
    elif ph == "i":
        assert e["s"] in ("g", "t"), e
for i, f in ends.items():
    s = starts[i]
    assert s["ts"] <= f["ts"] and s["name"] == f["name"] and s["cat"] == f["cat"], (s, f)
print(len(ev))
PY
}
for s in scenarios/*.scn; do
	n=$(basename "$s" .scn)
	if "$bin" run "$s" --trace "$tmp/$n.a.json" > /dev/null &&
	   "$bin" run "$s" --trace "$tmp/$n.b.json" > /dev/null &&
	   cmp -s "$tmp/$n.a.json" "$tmp/$n.b.json" &&
	   check "$tmp/$n.a.json" 0 > /dev/null &&
	   "$bin" run "$s" --trace "$tmp/$n.w.json" --trace-window 1s..1500ms > /dev/null &&
	   check "$tmp/$n.w.json" 1000000 1500000 > /dev/null; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "perfetto-check: $s: the JSON export is not well formed, deterministic or windowed"
	fi
	case $n in
	demo|herd-newidle|balance-3hogs-2cpus) mv "$tmp/$n.a.json" "$tmp/$n.whole.json" ;;
	esac
	rm -f "$tmp/$n".[ab].json
done
# run --vs: both runs in one file, side B under processes of its own (pids
# shifted by 4000000, names labelled), on one time axis; deterministic too
vs="scenarios/latency-mix.scn --vs-set kernel=6.1 --until 2s"
if "$bin" run $vs --trace "$tmp/vs.whole.json" > /dev/null &&
   "$bin" run $vs --trace "$tmp/vs.b.json" > /dev/null &&
   cmp -s "$tmp/vs.whole.json" "$tmp/vs.b.json" &&
   check "$tmp/vs.whole.json" 0 > /dev/null &&
   python3 - "$tmp/vs.whole.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
meta = {(e["pid"], e["tid"], e["name"]): e["args"] for e in ev if e["ph"] == "M"}
assert meta[(5000000, 5000000, "process_name")]["name"] == "CPUs (B: kernel 6.1)"
assert meta[(6000000, 6000000, "process_name")]["name"] == "Tasks (B: kernel 6.1)"
assert meta[(5000000, 5000001, "thread_name")]["name"] == "CPU 0"
side = {p: [e for e in ev if e["ph"] == "X" and e["pid"] == p] for p in (1000000, 5000000)}
assert side[1000000] and side[5000000]
# one time axis: both runs span the same simulated time
for p in side:
    assert min(e["ts"] for e in side[p]) < 10000 and max(e["ts"] + e["dur"] for e in side[p]) == 2000000
# the two runs differ (CFS against EEVDF), so do their slices
assert [(e["tid"] - 4000000, e["ts"], e["dur"]) for e in side[5000000]] != \
       [(e["tid"], e["ts"], e["dur"]) for e in side[1000000]]
ids = [e["id"] for e in ev if e["ph"] == "s"]
assert len(ids) == len(set(ids))
PY
then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "perfetto-check: run --vs: the two runs' JSON export is not well formed or deterministic"
fi
rm -f "$tmp/vs.b.json"
if [ -f "$engine/analyze-trace.mjs" ]; then
	node tests/perfetto/devtools-check.mjs "$engine" "$tmp"/*.json > "$tmp/devtools.out"
	grep -v ': ok ' "$tmp/devtools.out"
	pass=$((pass + $(grep -c ': ok ' "$tmp/devtools.out")))
	fail=$((fail + $(grep -c ': FAILED' "$tmp/devtools.out")))
else
	fail=$((fail + 1))
	echo "perfetto-check: the Chrome DevTools trace model is not installed in $engine (make npm-deps)"
fi
echo "perfetto $pass $fail" >> "$results"
echo "perfetto-check: $pass passed, $fail failed"
[ "$fail" = 0 ]
