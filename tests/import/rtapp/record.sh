#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Record an rt-app workload the way a user would: the sched tracepoints
# (and cgroup moves) in the kernel's ring buffer while rt-app runs with its
# own per-thread logs, then `trace-cmd extract` and `trace-cmd report`.
#
#   record.sh WORKLOAD.json NAME [SECONDS]
#
# rt-app's own calibration prints whole nanoseconds per loop, truncated
# (10 for a loop of 10.85 ns: runs 8 % too long), and is taken on a loaded
# CPU when the machine is shared: the loop's cost is measured by the clock
# over twenty runs of 20 ms instead, its median rounded to the nanosecond
# (or $CALIBRATION), and written into the workload.
#
# Writes NAME.json (the workload as run: the log folder and duration set),
# NAME.trace-cmd.txt.xz (trace-cmd report), NAME-log/ (rt-app's logs) and
# NAME.txt (the conditions: kernel, load average, versions). Needs root,
# rt-app and trace-cmd (apt-get install rt-app trace-cmd).
#
# `trace-cmd record` needs the function tracer's files (set_ftrace_pid,
# ftrace_enabled), which a sandboxed kernel may refuse: the events are
# enabled through tracefs here, and trace-cmd only extracts the buffers.
#
# On a machine shared with other work, rt-app's threads compete with it:
# nice values count only inside a session's autogroup, and other users'
# cpu cgroups get their shares whatever the nice values inside. The script
# moves itself into a cpu cgroup of its own with the largest weight
# (cpu.shares 262144 on cgroup v1, cpu.weight 10000 on v2), as a user
# shielding a benchmark would, so that rt-app runs nearly as on a quiet
# machine (calibration included).
set -eu
shield() {
	if [ -d /sys/fs/cgroup/cpu ]; then
		mkdir -p /sys/fs/cgroup/cpu/rtapp-record
		echo 262144 > /sys/fs/cgroup/cpu/rtapp-record/cpu.shares
		echo $$ > /sys/fs/cgroup/cpu/rtapp-record/cgroup.procs
	elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		mkdir -p /sys/fs/cgroup/rtapp-record
		echo 10000 > /sys/fs/cgroup/rtapp-record/cpu.weight
		echo $$ > /sys/fs/cgroup/rtapp-record/cgroup.procs
	fi
}
src=$1 name=$2 secs=${3:-3}
T=/sys/kernel/tracing
shield
[ -e $T/trace ] || mount -t tracefs nodev $T
rm -rf "$name-log"
mkdir -p "$name-log"
if [ -z "${CALIBRATION:-}" ]; then
	# the loop's cost by the clock: twenty runs of 20 ms at a nominal 10 ns per loop
	mkdir -p "$name.cal"
	echo '{ "tasks": { "t": { "priority": -19, "loop": 20, "run": 20000, "sleep": 1000 } },
		"global": { "duration": 2, "calibration": 10, "logdir": "'"$name.cal"'",
		"log_basename": "cal" } }' > "$name.cal/cal.json"
	rt-app "$name.cal/cal.json" > /dev/null 2>&1
	CALIBRATION=$(awk '!/^#/ { print 1000 * $3 / $2 }' "$name.cal"/cal-t-0.log | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.0f\n", v[int((NR + 1) / 2)] }')
	rm -rf "$name.cal"
fi
python3 - "$src" "$name-log" "$secs" "$CALIBRATION" > "$name.json" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'"logdir"\s*:\s*"[^"]*"', '"logdir" : "%s"' % sys.argv[2], s)
s = re.sub(r'"duration"\s*:\s*\d+', '"duration" : %s' % sys.argv[3], s)
s = re.sub(r'"calibration"\s*:\s*"[^"]*"', '"calibration" : %s' % sys.argv[4], s)
sys.stdout.write(s)
PY
events="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
	sched/sched_migrate_task sched/sched_process_fork sched/sched_process_exit cgroup/cgroup_attach_task"
echo 0 > $T/tracing_on
echo > $T/trace
echo 8192 > $T/buffer_size_kb
for e in $events; do echo 1 > $T/events/$e/enable; done
load=$(cat /proc/loadavg)
stat0=$(head -n 1 /proc/stat)
echo 1 > $T/tracing_on
rt-app "$name.json" > "$name-log/rt-app.out" 2>&1
echo 0 > $T/tracing_on
stat1=$(head -n 1 /proc/stat)
for e in $events; do echo 0 > $T/events/$e/enable; done
trace-cmd extract -o "$name.dat" > /dev/null 2>&1
{ trace-cmd report --stat "$name.dat"; trace-cmd report "$name.dat"; } 2>/dev/null | xz -9 > "$name.trace-cmd.txt.xz"
rm -f "$name.dat"
{
	echo "recorded: $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -sr), $(nproc) CPUs"
	echo "load average before: $load"
	echo "calibration: $CALIBRATION ns per loop"
	grep cpu /proc/self/cgroup | sed 's/^/cgroup: /'
	# user nice system idle iowait irq softirq steal, in USER_HZ ticks, around the recording
	echo "$stat0" | sed 's/^cpu /proc-stat-before: /'
	echo "$stat1" | sed 's/^cpu /proc-stat-after: /'
	echo "user-hz: $(getconf CLK_TCK)"
	echo "rt-app: $(dpkg-query -W -f '${Version}' rt-app), trace-cmd: $(dpkg-query -W -f '${Version}' trace-cmd)"
} > "$name.txt"
