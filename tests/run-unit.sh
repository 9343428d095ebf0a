#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run cmocka unit-test binaries; print one line each, fail if any fails.
# Totals go to build/test-results for tests/summary.sh.
set -u
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
status=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	passed=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
	failed=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
	passed=${passed:-0}
	failed=${failed:-0}
	if [ $rc -ne 0 ] && [ "$failed" = 0 ]; then failed=1; fi
	echo "unit $passed $failed" >> "$results"
	if [ $rc -eq 0 ]; then
		echo "unit: $(basename "$t"): $passed passed"
	else
		printf '%s\n' "$out"
		echo "unit: $(basename "$t"): FAILED ($failed failed)"
		status=1
	fi
done
exit $status
