#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Two builds must write byte-identical traces of the heavy loads (a speed-up
# that changes a trace is a bug): tests/compare-traces.sh OLD_BIN NEW_BIN.
# The mixed load of `make bench` under EEVDF (6.19, 6.18.45, 6.6), legacy
# CFS and HZ 1000, a 256-CPU (6.19, 6.18.17) and a 1,024-CPU load, and a
# machine with two NUMA levels;
# tests/snapshot-outputs.sh covers the shipped scenarios.
set -u
old=$1 new=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/big.scn" <<'SCN'
topology server-256
hz       250
seed     3
duration 2s
group /a cpu.weight=300
group /b cpu.max="20ms 10ms"
task hog  count=300 group=/a program="run forever"
task loop count=300 group=/b program="loop { run 1ms; sleep 9ms }"
task io   count=200 program="loop { run uniform(100us, 2ms); sleep exp(3ms) }"
SCN
# 1,024 CPUs on 8 nodes: forks placed across every NUMA group, domains of the largest machine
cat > "$tmp/huge.scn" <<'SCN'
topology packages=8 cores=64 threads=2 nodes=8
hz       250
seed     5
duration 300ms
task hog count=3000 program="run forever"
task io  count=1000 program="loop { run 1ms; sleep exp(5ms) }"
SCN
# two NUMA levels (overlapping groups), wakeups and forks across the boards
cat > "$tmp/numa.scn" <<'SCN'
topology numa-8node
hz       250
seed     9
duration 5s
task hog  count=40 program="run forever"
task loop count=60 program="loop { run uniform(200us, 3ms); sleep exp(4ms) }"
SCN
pass=0 fail=0
check() {
	name=$1
	shift
	a=$("$old" run "$@" --trace - | sha256sum)
	b=$("$new" run "$@" --trace - | sha256sum)
	if [ "$a" = "$b" ] && [ "$a" != "$(printf '' | sha256sum)" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "compare-traces: $name: the traces differ"
	fi
}
m=tests/bench/mixed-load.scn
check mixed $m
check mixed-cfs $m --set sched=cfs --set kernel=6.1 --set duration=20s
check mixed-hz1000 $m --set hz=1000 --set duration=20s
check mixed-6.6 $m --set kernel=6.6 --set duration=20s
# 6.18's stable rules: zero_vruntime tracking and the lag clamp to the longest slice (6.18.17)
check mixed-6.18.45 $m --set kernel=6.18.45 --set duration=20s
check mixed-3.3 $m --set sched=cfs --set kernel=3.3 --set hz=1000 --set duration=10s
check big-256 "$tmp/big.scn"
check big-256-6.18.17 "$tmp/big.scn" --set kernel=6.18.17
check huge-1024 "$tmp/huge.scn"
check numa-8node "$tmp/numa.scn"
check numa-8node-6.1 "$tmp/numa.scn" --set kernel=6.1
echo "compare-traces: $pass passed, $fail failed"
[ "$fail" = 0 ]
