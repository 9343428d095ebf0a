#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write every shipped scenario's outputs (trace, text and JSON reports,
# --check, dumped state, one frame of each view), the comparisons of the
# compare scenarios, every topology's domains, every test trace imported and
# a sweep's charts into DIR, so two builds can be compared byte for byte:
# tests/snapshot-outputs.sh BIN DIR; diff -r A B.
set -u
bin=$1 out=$2
mkdir -p "$out"
views="cpus runqueue timeline events task groups migrations"
for s in scenarios/*.scn; do
	n=$(basename "$s" .scn)
	"$bin" run "$s" --trace "$out/$n.trace" > "$out/$n.report" 2>&1
	"$bin" run "$s" --report json 2>&1 | grep -v "\"wall_ns\"" > "$out/$n.json"
	"$bin" run "$s" --check > "$out/$n.check" 2>&1
	"$bin" run "$s" --until 1s --dump-state json > "$out/$n.state" 2>&1
	for v in $views; do
		"$bin" view "$s" --at 1s --size 160x50 --view $v --format text > "$out/$n.view-$v" 2>&1
	done
done
for s in scenarios/compare-*.scn; do
	n=$(basename "$s" .scn)
	"$bin" compare "$s" > "$out/$n.compare" 2>&1
	"$bin" compare "$s" --json > "$out/$n.compare-json" 2>&1
done
for t in topologies/*.topo; do
	n=$(basename "$t" .topo)
	"$bin" topology "$t" > "$out/$n.topology" 2>&1
	"$bin" topology "$t" --format json --kernel 6.1 > "$out/$n.topology-json" 2>&1
done
"$bin" topology --host > "$out/host.topo" 2>&1
for i in tests/import/*.txt tests/import/*.json; do
	"$bin" import "$i" > "$out/$(basename "$i").import" 2>&1
done
"$bin" sweep scenarios/latency-mix.scn --param wakers=2,8 --kernel 6.1,6.12 --seeds 1..2 \
	--out "$out/sweep.json" > /dev/null 2>&1
"$bin" sweep merge "$out/sweep.json" --plot "$out/sweep-chart.svg" > /dev/null 2>&1
"$bin" sweep merge "$out/sweep.json" --plot - > "$out/sweep-chart.txt" 2>&1
"$bin" sweep merge "$out/sweep.json" --plot - --metric share --row hog.\* > "$out/sweep-share.txt" 2>&1
