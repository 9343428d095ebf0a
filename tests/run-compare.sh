#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `schedscope compare` golden tests: run-compare.sh BIN [update]
#
# tests/compare/NAME.args holds the arguments after `compare` (one line, run
# from the top of the tree); NAME.out is what it must print (stdout, then
# stderr) and NAME.rc its exit code. tests/compare/bad/ holds the same for
# bad input: exit 2, the message naming the argument or file:line:col.
# With `update`, the outputs are written instead of checked.
set -u
bin=$1
update=${2:-}
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
work=$(mktemp -d "${TMPDIR:-/tmp}/schedscope-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

for args in tests/compare/*.args tests/compare/bad/*.args; do
	t=${args%.args}
	eval "set -- $(cat "$args")"
	"$bin" compare "$@" >"$work/out" 2>"$work/err"
	rc=$?
	cat "$work/err" >>"$work/out"
	if [ "$update" = update ]; then
		cp "$work/out" "$t.out"
		echo $rc >"$t.rc"
		continue
	fi
	if [ "$rc" != "$(cat "$t.rc")" ]; then
		fail=$((fail + 1))
		echo "compare: $t: FAILED: exit $rc, expected $(cat "$t.rc")"
	elif ! diff -u "$t.out" "$work/out" >"$work/diff"; then
		fail=$((fail + 1))
		echo "compare: $t: FAILED: output differs"
		head -n 20 "$work/diff"
	else
		pass=$((pass + 1))
		echo "compare: $t: ok"
	fi
done

echo "compare $pass $fail" >>"$results"
echo "compare: $pass passed, $fail failed"
[ $fail -eq 0 ]
