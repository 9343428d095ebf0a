#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The ground truth's own checks: sched_trace.py's analysis of hand-written
# traces. Usage: tests/run-kernel.sh
set -u
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
pass=0 fail=0
if python3 tests/kernel/test_sched_trace.py; then
	pass=$((pass + 1)); echo "kernel: sched_trace: ok"
else
	fail=$((fail + 1)); echo "kernel: sched_trace: FAILED"
fi
echo "kernel $pass $fail" >> "$results"
[ "$fail" -eq 0 ]
