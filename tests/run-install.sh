#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The installed program, as `make install` lays it out (staged with DESTDIR,
# so it is an install moved away from the PREFIX it was built for): a
# scenario outside the repository finds `topology single` beside the
# program. Usage: tests/run-install.sh
set -u
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
results=$(realpath "$results")
work=$(mktemp -d "${TMPDIR:-/tmp}/schedscope-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "install: $1: ok"; }
bad() { fail=$((fail + 1)); echo "install: $1: FAILED: $2"; }

datadir=$(make --no-print-directory -s --eval 'print-datadir: ; @echo $(DATADIR)' print-datadir)
if ! make --no-print-directory -s install DESTDIR="$work/stage" >"$work/make.out" 2>&1; then
	bad "make install DESTDIR" "$(tail -n5 "$work/make.out")"
	echo "install $pass $fail" >> "$results"
	exit 1
fi
bin=$(find "$work/stage" -path '*/bin/schedscope' | head -n1)
share=$(dirname "$(dirname "$bin")")/share/schedscope
mkdir -p "$work/elsewhere"
printf 'topology single\nduration 10ms\ntask t program="run forever"\n' > "$work/elsewhere/x.scn"
# no topologies/ in the scenario's folder, its parent or the current directory
cd "$work/elsewhere" || exit 1
if [ -d "$datadir/topologies" ]; then
	echo "install: $datadir/topologies exists here: the lookup beside the program cannot be told apart (skipped)"
elif out=$(env -u SCHEDSCOPE_DATADIR "$bin" run x.scn 2>&1); then
	ok "topology single beside the installed program ($share/topologies)"
else
	bad "topology single beside the installed program" "$out"
fi
# and without the installed topologies it is not found: the case above is what found it
mv "$share/topologies" "$share/topologies.away"
out=$(env -u SCHEDSCOPE_DATADIR "$bin" run x.scn 2>&1)
rc=$?
if [ "$rc" = 2 ] && printf '%s' "$out" | grep -q "topology 'single' not found"; then
	ok "without them: not found, status 2"
else
	bad "without the installed topologies" "status $rc: $out"
fi
echo "install $pass $fail" >> "$results"
[ "$fail" = 0 ]
