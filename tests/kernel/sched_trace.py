# SPDX-License-Identifier: GPL-2.0
"""The experiment's own scheduling, from the kernel's sched tracepoints.

truth.py records sched_switch, sched_wakeup and sched_migrate_task in a
tracefs instance of its own (so other users of the global buffer are left
alone), on the experiment's CPUs, with the monotonic clock its window is
measured in; for an experiment with cpu.max, a second instance records the
expiries of the bandwidth timers (sched_cfs_period_timer and
sched_cfs_slack_timer, the only places a throttled group gets runtime
back). analyse() turns the trace into what the simulated machine, which
runs only the experiment's tasks, can show:

  run_ns       time on a CPU inside the window
  slices       switch-ins, except that a run cut only by foreign tasks
               (anything not of the experiment, the idle task aside) is one
               slice: preempted by a kworker and switched back in, with no
               task of the experiment on that CPU meanwhile
  wait_ns      time runnable and not running while the CPU it waits on ran a
               task of the experiment or was idle (the wakeup's own path),
               or while its group was throttled
  foreign_ns   time runnable and not running while a foreign task had that
               CPU: reported, not counted in the delay
  cuts         switch-ins merged into the slice before (foreign cuts)

and per CPU the time foreign tasks took from the experiment (ran while a
task of it waited there, not throttled), which truth.py takes out of the
window a task's share is measured against, and the time they ran there at
all (which also tells the load balancer a CPU is busy).

A throttled task is switched out runnable and comes back only after a
bandwidth timer: a wait of a task in a limited group that spans such an
expiry is throttled up to the last expiry in it, whoever ran meanwhile.

/proc/PID/schedstat's pcount and run_delay count every switch and every
wait, whoever caused them; truth.py keeps those too, for comparison.
"""
import os
import re

TRACEFS = "/sys/kernel/tracing"
INSTANCE = TRACEFS + "/instances/schedscope-truth"
INSTANCE_BW = INSTANCE + "-bw"
EVENTS = ("sched_switch", "sched_wakeup", "sched_migrate_task")
BW_TIMERS = ("sched_cfs_period_timer", "sched_cfs_slack_timer")
BUFFER_KB = 16384  # per CPU; a busy experiment writes a few thousand events a second

LINE = re.compile(r"^\s*.*?\[(\d+)\]\s+\S+\s+(\d+)\.(\d{6}): (\w+): (.*)$")
SWITCH = re.compile(r"prev_pid=(-?\d+) prev_prio=-?\d+ prev_state=(\S+) ==> next_comm=.* next_pid=(-?\d+) next_prio=-?\d+$")
WAKEUP = re.compile(r"pid=(-?\d+) prio=-?\d+ target_cpu=(\d+)$")
TIMER = re.compile(r"function=(\w+) now=")
MIGRATE = re.compile(r"pid=(-?\d+) prio=-?\d+ orig_cpu=(\d+) dest_cpu=(\d+)$")


def _write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def _kernel_symbols(names):
    addr = {}
    with open("/proc/kallsyms") as f:
        for line in f:
            a, _, name = line.split()[:3]
            if name in names:
                addr[name] = int(a, 16)
    if len(addr) != len(names) or not all(addr.values()):
        raise OSError("trace: no address for " + ", ".join(sorted(set(names) - set(addr))) +
                      " in /proc/kallsyms (run as root)")
    return addr


class Tracer:
    """tracefs instances: the sched events on CPUS; the bandwidth timers on every CPU if BANDWIDTH."""

    def __init__(self, cpus, bandwidth):
        if not os.path.isdir(TRACEFS + "/instances"):
            raise OSError(f"no tracefs at {TRACEFS} (mount -t tracefs nodev {TRACEFS})")
        self.cpus = sorted(cpus)
        self.instances = [(INSTANCE, self.cpus)]
        self._setup(INSTANCE, self.cpus)
        for ev in EVENTS:
            _write(f"{INSTANCE}/events/sched/{ev}/enable", 1)
        if bandwidth:
            every = list(range(os.cpu_count()))
            self.instances.append((INSTANCE_BW, every))
            self._setup(INSTANCE_BW, every)
            ev = INSTANCE_BW + "/events/timer/hrtimer_expire_entry"
            _write(ev + "/filter", " || ".join(f"function == {a:#x}" for a in _kernel_symbols(BW_TIMERS).values()))
            _write(ev + "/enable", 1)

    @staticmethod
    def _setup(path, cpus):
        os.makedirs(path, exist_ok=True)
        _write(path + "/tracing_on", 0)
        _write(path + "/trace_clock", "mono")
        _write(path + "/buffer_size_kb", BUFFER_KB)
        _write(path + "/tracing_cpumask", format(sum(1 << c for c in cpus), "x"))

    def start(self):
        for path, _ in self.instances:
            _write(path + "/trace", "")
        for path, _ in self.instances:
            _write(path + "/tracing_on", 1)

    def stop(self):
        """Stop and return the trace's lines; refuses a trace that lost events."""
        for path, _ in self.instances:
            _write(path + "/tracing_on", 0)
        lines = []
        for path, cpus in self.instances:
            for c in cpus:
                stats = open(f"{path}/per_cpu/cpu{c}/stats").read()
                lost = sum(int(n) for n in re.findall(r"^(?:overrun|dropped events): (\d+)$", stats, re.M))
                if lost:
                    raise RuntimeError(f"trace: CPU {c} lost {lost} events (raise BUFFER_KB)")
            with open(path + "/trace") as f:
                lines += f.readlines()
        return lines

    @staticmethod
    def remove():
        for path in (INSTANCE, INSTANCE_BW):
            if os.path.isdir(path):
                _write(path + "/tracing_on", 0)
                os.rmdir(path)


def parse(lines):
    """(time_ns, cpu, event, fields) for each line of the trace files, in time order."""
    out = []
    for line in lines:
        if line.startswith("#"):
            continue
        m = LINE.match(line)
        if not m:
            continue
        cpu, t = int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)) * 1000
        ev, rest = m.group(4), m.group(5)
        if ev == "sched_switch":
            s = SWITCH.search(rest)
            if s:
                out.append((t, cpu, ev, (int(s.group(1)), s.group(2), int(s.group(3)))))
        elif ev == "sched_wakeup":
            s = WAKEUP.search(rest)
            if s:
                out.append((t, cpu, ev, (int(s.group(1)), int(s.group(2)))))
        elif ev == "sched_migrate_task":
            s = MIGRATE.search(rest)
            if s:
                out.append((t, cpu, ev, (int(s.group(1)), int(s.group(3)))))
        elif ev == "hrtimer_expire_entry":
            s = TIMER.search(rest)
            if s and s.group(1) in BW_TIMERS:
                out.append((t, cpu, "bandwidth_timer", ()))
        elif ev in ("schedscope_cfs_period", "schedscope_cfs_unthrottle"):
            # the simulation's records of the same (schedscope run --trace): replay.py reads both
            out.append((t, cpu, "bandwidth_timer", ()))
    out.sort(key=lambda e: e[0])
    return out


class _Task:
    def __init__(self):
        self.state = None  # "run", "wait", "sleep"; None until its first event
        self.since = 0  # start of the current state; of the wait's last accounted piece
        self.cpu = None  # the CPU it runs or waits on
        self.preempted = False  # the current wait began with a preemption
        self.own_cut = False  # a task of the experiment had its CPU during this wait
        self.throttled_to = 0  # the current wait is throttled until then
        self.run_ns = self.wait_ns = self.foreign_ns = 0
        self.slices = self.cuts = 0


def throttled_waits(events, pids):
    """pid -> {start of a wait: the last bandwidth timer expiry in it}, for waits that span one."""
    out = {p: {} for p in pids}
    start, expiry = {}, []
    for t, cpu, ev, f in events:
        if ev == "bandwidth_timer":
            expiry.append(t)
        elif ev == "sched_switch":
            prev, state, nxt = f
            if prev in out and state.startswith("R"):
                start[prev] = (t, len(expiry))
            if nxt in start:
                t_out, n = start.pop(nxt)
                if len(expiry) > n:
                    out[nxt][t_out] = expiry[-1]
    return out


def analyse(events, pids, t0, t1, bw_pids=()):
    """Per pid of PIDS: run_ns, slices, wait_ns, foreign_ns, cuts in [t0, t1); per CPU the foreign time
    that displaced the experiment, and all the foreign time. BW_PIDS: the tasks in groups with a cpu.max."""
    pids = set(pids)
    tasks = {p: _Task() for p in pids}
    throttled = throttled_waits(events, set(bw_pids))
    occ = {}  # cpu -> pid running there
    displaced = {}  # cpu -> foreign time while a task of the experiment waited there
    busy = {}  # cpu -> foreign time
    occ_since = {}

    def clip(a, b):
        return max(0, min(b, t1) - max(a, t0))

    def foreign(pid):
        return pid != 0 and pid not in pids

    def settle(t):
        """Account every wait up to t: throttled, then to whoever has its CPU."""
        since = {}  # cpu -> start of the earliest wait there that was not throttled
        for k in tasks.values():
            if k.state != "wait" or t <= k.since:
                continue
            mid = min(max(k.throttled_to, k.since), t)
            k.wait_ns += clip(k.since, mid)
            if foreign(occ.get(k.cpu, 0)):
                k.foreign_ns += clip(mid, t)
                if mid < t:
                    since[k.cpu] = min(since.get(k.cpu, mid), mid)
            else:
                k.wait_ns += clip(mid, t)
            k.since = t
        for cpu, a in since.items():
            displaced[cpu] = displaced.get(cpu, 0) + clip(a, t)

    def mark_own(cpu, pid):
        if pid in pids:
            for q, k in tasks.items():
                if q != pid and k.state == "wait" and k.cpu == cpu:
                    k.own_cut = True

    for t, cpu, ev, f in events:
        settle(t)
        if ev == "sched_switch":
            prev, state, nxt = f
            if foreign(occ.get(cpu, 0)):
                busy[cpu] = busy.get(cpu, 0) + clip(occ_since[cpu], t)
            occ[cpu], occ_since[cpu] = nxt, t
            if prev in tasks:
                k = tasks[prev]
                if k.state == "run":
                    k.run_ns += clip(k.since, t)
                k.state = "wait" if state.startswith("R") else "sleep"
                k.since, k.cpu = t, cpu
                k.preempted = k.state == "wait"
                k.throttled_to = throttled[prev].get(t, 0) if prev in throttled else 0
                k.own_cut = nxt in pids or k.throttled_to > 0
            mark_own(cpu, nxt)
            if nxt in tasks:
                k = tasks[nxt]
                if t0 <= t < t1:
                    if k.state == "wait" and k.preempted and not k.own_cut:
                        k.cuts += 1
                    else:
                        k.slices += 1
                k.state, k.since, k.cpu = "run", t, cpu
        elif ev == "sched_wakeup":
            pid, target = f
            k = tasks.get(pid)
            if k and k.state in ("sleep", None):
                k.state, k.since, k.cpu = "wait", t, target
                k.preempted, k.throttled_to = False, 0
                k.own_cut = occ.get(target, 0) in pids
        elif ev == "sched_migrate_task":
            pid, dest = f
            k = tasks.get(pid)
            if k and k.state == "wait":
                k.cpu = dest
                if occ.get(dest, 0) in pids:
                    k.own_cut = True
    settle(t1)
    for cpu, pid in occ.items():
        if foreign(pid):
            busy[cpu] = busy.get(cpu, 0) + clip(occ_since[cpu], t1)
    for k in tasks.values():
        if k.state == "run":
            k.run_ns += clip(k.since, t1)
    keys = ("run_ns", "slices", "wait_ns", "foreign_ns", "cuts")
    return {p: {key: getattr(k, key) for key in keys} for p, k in tasks.items()}, displaced, busy
