#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Seeds at the limits the parsers enforce: limit-seeds.sh NAME DIR writes,
# for fuzz target NAME, inputs just within and just past each limit (the
# longest line, the most groups, statements, phases, CPUs, conditions, the
# deepest nesting) into DIR. Made when the fuzzers run, so the repository
# keeps no megabytes of them; run-fuzz.sh sizes -max_len to the largest.
set -eu
name=$1 dir=$2
# rep N TEXT: TEXT N times, numbered: %d in TEXT is the count from 0
rep() { awk -v n="$1" -v t="$2" 'BEGIN { for (i = 0; i < n; i++) printf t, i }'; }
head_scn='topology packages=1 cores=2 threads=1\nduration 1s\n'
case $name in
scenario)
	# LEX_MAX_LINE: 4096 bytes in one line
	for n in 4096 4097; do
		{ printf "$head_scn"; printf '#'; rep $((n - 1)) x; printf '\n'; } >"$dir/line-$n"
	done
	# MAX_GROUPS: 4095 besides the root
	for n in 4095 4096; do
		{ printf "$head_scn"; rep $n 'group /g%d\n'; printf 'task t group=/g1 program="run forever"\n'; } >"$dir/groups-$n"
	done
	# MAX_GROUP_DEPTH: 32 levels with the root
	for n in 32 33; do
		{ printf "$head_scn"; awk -v n=$n 'BEGIN { p = ""; for (i = 0; i < n; i++) { p = p "/a"; print "group " p } }'
		} >"$dir/group-depth-$n"
	done
	# PROG_MAX_LOOP_DEPTH: 16 nested loops
	for n in 16 17; do
		{ printf "$head_scn"; printf 'task t program="'; rep $n 'loop 2 { run 1ms; '; printf 'run 1ms'
		  rep $n ' }'; printf '"\n'; } >"$dir/loop-depth-$n"
	done
	# MAX_PROG_INSNS: 65536 statements in one program
	for n in 65536 65537; do
		{ printf "$head_scn"; printf 'program p {\n'; rep $n 'run %dus\n'; printf '}\ntask t program=p\n'; } >"$dir/statements-$n"
	done
	# MAX_IRQ_SOURCES: 4096 interrupt and steal sources
	for n in 4096 4097; do
		{ printf "$head_scn"; rep $n 'irq cpu=0 every=1ms cost=1us irq=%d\n'; } >"$dir/irqs-$n"
	done
	# PARAM_MAX, MAX_COUNT and MAX_TASKS
	{ printf "$head_scn"; rep 65 'param p%d=1\n'; } >"$dir/params-65"
	{ printf "$head_scn"; printf 'task a count=100000 program="run forever"\ntask b count=100000 program="run forever"\n'
	  printf 'task c count=1 program="run forever"\n'; } >"$dir/tasks-200001"
	;;
topology)
	for n in 4096 4097; do
		{ printf 'packages 1\n#'; rep $((n - 1)) x; printf '\ncores 2\n'; } >"$dir/line-$n"
	done
	# SCHED_MAX_CPUS: 1024, and a capacity line per CPU
	for n in 1024 1025; do
		{ printf 'packages 1\ncores %d\n' $n; rep $n 'capacity %d 1024\n'; } >"$dir/cpus-$n"
	done
	# MAX_DISTANCE nodes: a 64-node distance matrix
	{ printf 'packages 64\ncores 1\n'
	  awk 'BEGIN { for (i = 0; i < 64; i++) { printf "distance"; for (j = 0; j < 64; j++) printf " %d", i == j ? 10 : 20; printf "\n" } }'
	} >"$dir/distance-64"
	;;
breakpoint)
	# BREAKPOINT_MAX_CONDS, BREAKPOINT_MAX_DEPTH and MAX_PATTERN (with its NUL)
	for n in 64 65; do
		{ printf 'switch cpu=0'; rep $((n - 1)) ' or switch cpu=1'; } >"$dir/conds-$n"
	done
	for n in 16 17; do
		{ rep $n '('; printf 'switch'; rep $n ')'; } >"$dir/depth-$n"
	done
	for n in 255 256; do
		{ printf 'switch task='; rep $n a; } >"$dir/pattern-$n"
	done
	;;
import_rtapp)
	# the scenario's 65536 statements: a phase is a run, a sleep and a log
	for n in 21845 21846; do
		{ printf '{"tasks":{"t":{"loop":1,"phases":{'
		  rep $n '"p%d":{"run":100,"sleep":100},' | sed 's/,$//'
		  printf '}}}}\n'; } >"$dir/phases-$n.json"
	done
	# MAX_TASKS: 4096 tasks; MAX_DEPTH: 64 levels of nesting below the top
	for n in 4096 4097; do
		{ printf '{"tasks":{'; rep $n '"t%d":{"run":100},' | sed 's/,$//'; printf '}}\n'; } >"$dir/tasks-$n.json"
	done
	for n in 65 66; do
		{ printf '{"tasks":{"t":{"run":100}},"x":'; rep $((n - 2)) '['; rep $((n - 2)) ']'; printf '}\n'; } >"$dir/depth-$n.json"
	done
	;;
import_trace)
	# MAX_STMTS: 65000 statements for one task, a switch in, out and a wakeup
	# making two; past it the rest of the task's trace is dropped with a repair
	for n in 32499 32501; do
		{ printf '# tracer: nop\n#\n'
		  awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) { t = 50 + i * 0.0003
			printf "<idle>-0 [000] d..2. %.6f: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=p next_pid=10 next_prio=120\n", t
			printf "p-10 [000] d..2. %.6f: sched_switch: prev_comm=p prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", t + 0.0001
			printf "<idle>-0 [000] d.h2. %.6f: sched_wakeup: comm=p pid=10 prio=120 target_cpu=000\n", t + 0.0002 } }'
		} >"$dir/statements-$n"
	done
	# SCHED_MAX_CPUS: CPU 1023 is the last there is
	for n in 1023 1024; do
		printf '# tracer: nop\n#\n<idle>-0 [%03d] d..2. 50.000000: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=p next_pid=10 next_prio=120\n' $n $n >"$dir/cpu-$n"
	done
	;;
sweep)
	# SWEEP_MAX_AXES, SWEEP_MAX_VS and SWEEP_MAX_CELLS in a part's plan
	cell='{"cell":0,"status":"ok","a":{"window_ns":1000000000,"rows":[],"expects":[]}}'
	for n in 16 17; do
		{ printf '{"schedscope_sweep":1,"plan":{"axes":['; rep $n '{"kind":"param","key":"p%d"},' | sed 's/,$//'
		  printf '],"scenarios":[{"path":"s.scn","values":['; rep $n '["1"],' | sed 's/,$//'
		  printf '],"own":['; rep $n 'null,' | sed 's/,$//'
		  printf ']}],"vs_set":[],"window":null},"cells_total":1,"shard":[1,1],"cells":[%s]}\n' "$cell"
		} >"$dir/axes-$n.json"
	done
	for n in 32 33; do
		{ printf '{"schedscope_sweep":1,"plan":{"axes":[],"scenarios":[{"path":"s.scn","values":[],"own":[]}],"vs_set":['
		  rep $n '"hz=%d",' | sed 's/,$//'
		  printf '],"window":null},"cells_total":1,"shard":[1,1],"cells":[%s]}\n' "$cell"
		} >"$dir/vs-$n.json"
	done
	for n in 1000 1001; do
		{ printf '{"schedscope_sweep":1,"plan":{"axes":[{"kind":"param","key":"a"},{"kind":"param","key":"b"}],'
		  printf '"scenarios":[{"path":"s.scn","values":[['; rep 1000 '"%d",' | sed 's/,$//'
		  printf '],['; rep $n '"%d",' | sed 's/,$//'
		  printf ']],"own":[null,null]}],"vs_set":[],"window":null},"cells_total":1000000,"shard":[1,1],"cells":[%s]}\n' "$cell"
		} >"$dir/cells-${n}000.json"
	done
	;;
esac
