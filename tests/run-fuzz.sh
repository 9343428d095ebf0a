#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run libFuzzer targets for a while each: run-fuzz.sh SECONDS BIN...
#
# Each BIN (build/fuzz/fuzz_NAME) starts from tests/fuzz/corpus/NAME/, copied
# to a temporary folder so the repository's seeds do not grow, with the seeds
# at the parsers' limits that tests/fuzz/limit-seeds.sh makes; -max_len is
# the largest of them (at least libFuzzer's 4096), so that mutations reach
# and pass every limit. A run shorter than LONG seconds (120; the smoke test)
# runs each limit seed once and mutates the small ones only: a megabyte seed
# would take most of its time. Prints one line
# per target and exits non-zero if any target crashed, leaked or timed out;
# the crashing input and the log are kept (their paths are printed).
set -u

if [ $# -lt 2 ]; then
	echo "usage: $0 SECONDS BIN..." >&2
	exit 2
fi
secs=$1
shift
LONG=${LONG:-120}
corpus_root=$(cd "$(dirname "$0")/fuzz/corpus" && pwd)
limit_seeds=$(dirname "$0")/fuzz/limit-seeds.sh
# one "fuzz PASSED FAILED" line per target, summed by tests/summary.sh
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
status=0

for bin in "$@"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	work=$(mktemp -d "${TMPDIR:-/tmp}/schedscope-fuzz-$name.XXXXXX")
	mkdir -p "$work/corpus"
	if [ -d "$corpus_root/$name" ]; then
		cp "$corpus_root/$name"/* "$work/corpus/" 2>/dev/null
	fi
	mkdir -p "$work/limits"
	"$limit_seeds" "$name" "$work/limits"
	# -rss_limit_mb bounds one input's memory; -timeout one input's time
	opts="-timeout=10 -rss_limit_mb=2048 -artifact_prefix=$work/"
	rc=0 once=""
	if [ "$secs" -lt "$LONG" ] && [ -n "$(ls "$work/limits")" ]; then
		# a short run: each limit seed once, then the mutations at libFuzzer's own sizes
		"$bin" $opts "$work/limits"/* >"$work/limits.log" 2>&1 || { rc=$?; cp "$work/limits.log" "$work/log"; }
		once=", $(ls "$work/limits" | wc -l) limit seeds once"
	else
		mv "$work/limits"/* "$work/corpus/" 2>/dev/null
	fi
	max_len=$(wc -c "$work/corpus"/* | sort -n | tail -n 2 | head -n 1 | awk '{ print $1 < 4096 ? 4096 : $1 + 4096 }')
	[ $rc -ne 0 ] || "$bin" -max_total_time="$secs" -max_len="$max_len" $opts -print_final_stats=1 \
		"$work/corpus" >"$work/log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
	if [ -z "$runs" ]; then
		runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/log" | tail -n 1)
	fi
	if [ $rc -eq 0 ]; then
		echo "fuzz: $name ok (${runs:-0} runs, inputs up to $max_len bytes$once)"
		echo "fuzz 1 0" >> "$results"
		rm -rf "$work"
	else
		echo "fuzz: $name FAILED (exit $rc): log $work/log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$work/log" | head -n 5
		ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' | sed "s|^|fuzz:   input $work/|"
		echo "fuzz 0 1" >> "$results"
		status=1
	fi
done
exit $status
