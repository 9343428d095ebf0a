#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Same scenario and seed: byte-identical trace. Another seed: a different one
# (for scenarios that draw random durations).
set -u
bin=$1
results=${RESULTS:-build/test-results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for s in scenarios/*.scn; do
	"$bin" run "$s" --trace "$tmp/a" > /dev/null
	"$bin" run "$s" --trace "$tmp/b" > /dev/null
	if cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "determinism: $s: two runs with the same seed differ"
	fi
done
# rewinding to random times and running on must give the same events and state
for s in scenarios/*.scn; do
	if out=$("$bin" run "$s" --rewind-check 8 2>&1 >/dev/null); then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "rewind: $s: $out"
	fi
done
# the demo draws uniform() and exp() durations: the seed must matter
"$bin" run demo --trace "$tmp/a" > /dev/null
"$bin" run demo --seed 2 --trace "$tmp/b" > /dev/null
if cmp -s "$tmp/a" "$tmp/b"; then
	fail=$((fail + 1))
	echo "determinism: demo: seeds 1 and 2 gave the same trace"
else
	pass=$((pass + 1))
fi
echo "determinism $pass $fail" >> "$results"
echo "determinism: $pass passed, $fail failed"
[ $fail -eq 0 ]
