#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The layers, lowest first: a file may include only from its own folder and
# the folders before it, and outside the engine only the engine's public
# headers (sched/api/). The Makefile builds one library per folder in this order.
set -u
results=${RESULTS:-build/test-results}
layers="sched src/base src/format src/analysis src/trace src/import ui src"
rank() {
	i=0
	for l in $layers; do
		case $1 in "$l"|"$l"/api) echo $i; return ;; esac
		i=$((i + 1))
	done
	echo -1
}
bad=0 n=0
for dir in $layers; do
	me=$(rank "$dir")
	for f in "$dir"/*.[ch] "$dir"/api/*.h; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
			if [ -f "$(dirname "$f")/$inc" ]; then
				target=$(dirname "$(dirname "$f")/$inc")
			elif [ -f "$inc" ]; then
				target=$(dirname "$inc")
			else
				continue	# generated or a system header
			fi
			target=$(realpath --relative-to=. "$target")
			them=$(rank "$target")
			if [ "$them" -lt 0 ] || [ "$them" -gt "$me" ]; then
				echo "layers: $f includes $inc ($target is above $dir)"
				bad=$((bad + 1))
			elif [ "$target" = sched ] && [ "$dir" != sched ]; then
				echo "layers: $f includes $inc (outside the engine, only sched/api/ is public)"
				bad=$((bad + 1))
			fi
		done
	done
done
mkdir -p "$(dirname "$results")"
if [ $bad -eq 0 ]; then echo "layers 1 0" >> "$results"; else echo "layers 0 1" >> "$results"; fi
echo "layers: $n files, $bad includes against the order ($layers)"
[ $bad -eq 0 ]
