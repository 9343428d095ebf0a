#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Integer arithmetic only: two builds (optimised, and -O2 with sanitizers)
# must write the same trace bytes for the same scenario and seed.
set -u
a=$1 b=$2
results=${RESULTS:-build/test-results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for s in scenarios/*.scn; do
	"$a" run "$s" --trace "$tmp/a" > /dev/null
	"$b" run "$s" --trace "$tmp/b" > /dev/null
	if cmp -s "$tmp/a" "$tmp/b"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "cross-build: $s: $a and $b wrote different traces"
	fi
done
echo "cross-build $pass $fail" >> "$results"
echo "cross-build: $pass passed, $fail failed"
[ $fail -eq 0 ]
