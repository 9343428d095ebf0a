#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every shipped scenario is a test: run it with --check (its expect lines),
# every engine regression scenario in tests/scenario/regress/, and every
# tests/scenario/ext/*.scn (ext policies built for the tests).
# scenarios/linsched/ holds LinSched's basic_tests with its expected figures:
# a minute each on up to 24 CPUs, checked here but kept out of the trace,
# determinism and rewind runs (their traces run to hundreds of MB).
# Every tests/scenario/bad/*.scn must be refused with exit 2 and the message
# in the .err file beside it (file:line:col included).
set -u
bin=$1
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
pass=0 fail=0
for s in scenarios/*.scn scenarios/linsched/*.scn tests/scenario/regress/*.scn tests/scenario/ext/*.scn; do
	[ -e "$s" ] || continue
	# a hang (an engine bug some regression scenarios guard against) fails, not waits
	if out=$(timeout 900 "$bin" run "$s" --check 2>&1); then
		pass=$((pass + 1))
		echo "scenario: $s: ok ($(printf '%s\n' "$out" | grep -c ': ok') expects)"
	else
		fail=$((fail + 1))
		printf '%s\n' "$out"
		echo "scenario: $s: FAILED"
	fi
done
for s in tests/scenario/bad/*.scn; do
	[ -e "$s" ] || continue
	want=$(cat "${s%.scn}.err")
	out=$("$bin" run "$s" --check 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | head -n1)" = "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "scenario: $s: expected exit 2 and '$want', got $rc and '$out'"
	fi
done
echo "scenario $pass $fail" >> "$results"
echo "scenarios: $pass passed, $fail failed"
[ $fail -eq 0 ]
