#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write every shipped scenario's outputs (trace, text and JSON reports,
# --check, dumped state, one frame of each view) into DIR, so two builds can
# be compared byte for byte: tests/snapshot-outputs.sh BIN DIR; diff -r A B.
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
