#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rt-app workloads through schedscope import: each tests/import/*.json must
# convert to exactly the .scn beside it, with exactly the warnings of its .warn file, and the
# result must run; each tests/import/bad/*.json must be refused with exit 2
# and the first line of stderr in the .err file beside it. Debian's rt-app
# examples (the rt-app package), when installed, must import and run.
set -u
bin=$1
results=${RESULTS:-build/test-results}
mkdir -p "$(dirname "$results")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "import-rtapp: $*"; }

cd tests/import || exit 1
bin=$(cd "$(dirname "../../$bin")" && pwd)/$(basename "$bin")
for j in *.json; do
	s=${j%.json}
	if ! "$bin" import "$j" -o "$tmp/$s.scn" 2>"$tmp/$s.warn"; then
		ko "$j: refused: $(cat "$tmp/$s.warn")"
	elif ! diff -u "$s.scn" "$tmp/$s.scn" || ! diff -u "$s.warn" "$tmp/$s.warn"; then
		ko "$j: output differs from $s.scn / $s.warn"
	elif ! "$bin" run "$tmp/$s.scn" --set duration=1s >/dev/null; then
		ko "$j: the imported scenario does not run"
	else
		ok
	fi
done
for j in bad/*.json; do
	want=$(cat "${j%.json}.err")
	out=$("$bin" import "$j" -o "$tmp/bad.scn" 2>&1)
	rc=$?
	if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | head -n1)" = "$want" ] && [ ! -e "$tmp/bad.scn" ]; then
		ok
	else
		ko "$j: expected exit 2 and '$want', got $rc and '$out'"
	fi
done
examples=/usr/share/doc/rt-app/examples
if [ -d "$examples" ]; then
	for j in "$examples"/tutorial/*.json "$examples"/browser-*.json "$examples"/mp3-*.json \
		 "$examples"/video-*.json "$examples"/spreading-tasks.json "$examples"/template.json; do
		[ -e "$j" ] || continue
		s=$tmp/example.scn
		if "$bin" import "$j" -o "$s" 2>/dev/null && "$bin" run "$s" --set duration=1s >/dev/null; then
			ok
		else
			ko "$j: does not import and run"
		fi
	done
else
	echo "import-rtapp: $examples not found (apt-get install rt-app): Debian's examples skipped"
fi
cd ../..
echo "import-rtapp $pass $fail" >> "$results"
echo "import-rtapp: $pass passed, $fail failed"
[ $fail -eq 0 ]
