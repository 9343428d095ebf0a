#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`make replay NAME=...` (as root): one experiment on the real kernel and in
the simulation, on the same machine.

Runs tests/kernel/experiments/NAME.scn once for real as truth.py does,
recording every CPU's sched events (the ones `schedscope import` reads),
then imports the recording with --pin: every other task of the machine
(rcu_preempt, kworkers, this machine's services, other sessions' builds)
becomes a program that runs and sleeps as it did, on the CPU it did. The
experiment's own workers are dropped from the import and the experiment
is written in their place, inside a top-level group with cpu.shares=262144
as truth.py runs it. The scenario is simulated for SEEDS seeds (default
machine, the recorded HZ, the kernel's release) and the experiment's tasks
measured from the simulation's ftrace text by the same sched_trace.analyse()
as the kernel's trace: both sides count the experiment's own scheduling on
a machine with the same other work.

What it shows is whether a difference `make fidelity` finds is the engine's
or the machine's: fidelity simulates the experiment alone.

Usage: replay.py SCHEDSCOPE WORKER NAME [SEEDS]
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import truth
from sched_trace import BW_TIMERS, LINE, _kernel_symbols, _write, analyse, parse

INSTANCE = "/sys/kernel/tracing/instances/schedscope-replay"
EVENTS = ("sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new", "sched_process_fork",
          "sched_process_exit", "sched_migrate_task")
TOP = "/truth"


def record(worker, exp):
    """The experiment once for real: (trace lines, worker pids, window start, window end)."""
    os.makedirs(INSTANCE, exist_ok=True)
    _write(INSTANCE + "/tracing_on", 0)
    _write(INSTANCE + "/trace_clock", "mono")
    _write(INSTANCE + "/buffer_size_kb", 32768)
    for ev in EVENTS:
        _write(f"{INSTANCE}/events/sched/{ev}/enable", 1)
    if any(truth.limited(exp, t) for t in exp["tasks"]):
        ev = INSTANCE + "/events/timer/hrtimer_expire_entry"
        _write(ev + "/filter", " || ".join(f"function == {a:#x}" for a in _kernel_symbols(BW_TIMERS).values()))
        _write(ev + "/enable", 1)
    truth.make_groups(exp)
    _write(INSTANCE + "/trace", "")
    _write(INSTANCE + "/tracing_on", 1)
    pids = [truth.start(worker, t) for t in exp["tasks"]]
    try:
        time.sleep(truth.WARMUP)
        t0 = time.monotonic_ns()
        time.sleep(exp["duration"] / 1e9)
        t1 = time.monotonic_ns()
        _write(INSTANCE + "/tracing_on", 0)
    finally:
        for p in pids:
            os.kill(p, signal.SIGKILL)
        for p in pids:
            os.waitpid(p, 0)
        truth.remove_groups(exp)
    for c in range(os.cpu_count()):
        stats = open(f"{INSTANCE}/per_cpu/cpu{c}/stats").read()
        if re.search(r"^(?:overrun|dropped events): [1-9]", stats, re.M):
            sys.exit(f"replay: CPU {c} lost events")
    lines = open(INSTANCE + "/trace").readlines()
    os.rmdir(INSTANCE)
    return lines, pids, t0, t1


def experiment_text(path, at_us):
    """The experiment's groups and tasks, moved under TOP, started AT_US into the recording."""
    out = [f"group {TOP} cpu.shares=262144"]
    for line in open(path):
        line = line.split("#", 1)[0].rstrip()
        if line.startswith("group "):
            out.append(re.sub(r"^group /", f"group {TOP}/", line))
        elif line.startswith("task "):
            line = re.sub(r" group=/", f" group={TOP}/", line) if " group=" in line else line + f" group={TOP}"
            out.append(line + f" at={at_us}us")
    return "\n".join(out) + "\n"


def replay_scenario(schedscope, lines, pids, path, at_us):
    """The recording imported, the workers replaced by the experiment."""
    with tempfile.TemporaryDirectory() as d:
        with open(d + "/trace.txt", "w") as f:
            f.writelines(line for line in lines if "hrtimer_expire_entry:" not in line)
        scn = subprocess.run([schedscope, "import", d + "/trace.txt", "--pin"], check=True,
                             capture_output=True, text=True).stdout
    for pid in pids:
        name = re.search(r"^task (\S+-%d) " % pid, scn, re.M)
        if not name:
            continue
        n = re.escape(name.group(1))
        scn = re.sub(r"^program %s \{\n.*?^\}\n" % n, "", scn, flags=re.S | re.M)
        scn = re.sub(r"^task %s .*\n" % n, "", scn, flags=re.M)
        scn = re.sub(r"^\s*wake %s\n" % n, "", scn, flags=re.M)
    return scn + "\n" + experiment_text(path, at_us)


def figures(exp, k, taken, pids, window):
    """Share and delay per slice of each task, as truth.py counts them."""
    out = {}
    for t, p in zip(exp["tasks"], pids):
        cpus = t["cpus"] if t["cpus"] is not None else range(os.cpu_count())
        left = window - sum(taken.get(c, 0) for c in cpus) / len(cpus)
        out[t["name"]] = (k[p]["run_ns"] / (window if truth.limited(exp, t) else left),
                          k[p]["wait_ns"] / max(k[p]["slices"], 1))
    return out


def main():
    schedscope, worker, name = sys.argv[1:4]
    seeds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    path = f"{truth.HERE}/experiments/{name}.scn"
    exp = truth.parse(path)
    names = [t["name"] for t in exp["tasks"]]
    lines, pids, t0, t1 = record(worker, exp)
    events = parse(lines)
    start = min(t for t, _, ev, f in events if ev == "sched_switch" and f[2] in pids)
    # the import's time 0: its first event of any kind
    origin = min(int(m.group(2)) * 10**9 + int(m.group(3)) * 1000 for m in map(LINE.match, lines) if m)
    bw = [p for t, p in zip(exp["tasks"], pids) if truth.limited(exp, t)]
    k, taken, busy = analyse(events, pids, t0, t1, bw)
    kernel = figures(exp, k, taken, pids, t1 - t0)
    print(f"replay: {name}: kernel {os.uname().release}, load {open('/proc/loadavg').read().split()[0]}, "
          f"foreign busy " + " ".join(f"cpu{c} {b / (t1 - t0):.3f}" for c, b in sorted(busy.items())))
    scn = replay_scenario(schedscope, lines, pids, path, (start - origin) // 1000)
    release = re.match(r"\d+\.\d+(\.\d+)?", os.uname().release).group(0)  # with its stable update
    sims = []
    with tempfile.TemporaryDirectory() as d:
        open(d + "/replay.scn", "w").write(scn)
        for seed in range(1, seeds + 1):
            subprocess.run([schedscope, "run", d + "/replay.scn", "--seed", str(seed), "--set", f"kernel={release}",
                            "--set", f"hz={truth.config_hz()}", "--trace", d + "/sim.txt"],
                           check=True, capture_output=True)
            sl = open(d + "/sim.txt").readlines()
            spid = {}
            for line in sl:
                m = re.search(r"next_comm=(\S+) next_pid=(\d+)", line)
                if m and m.group(1) in names:
                    spid[m.group(1)] = int(m.group(2))
            s0, s1 = t0 - origin, t1 - origin
            sp = [spid[n] for n in names]
            sbw = [q for t, q in zip(exp["tasks"], sp) if truth.limited(exp, t)]
            sk, staken, _ = analyse(parse(sl), sp, s0, s1, sbw)
            sims.append(figures(exp, sk, staken, sp, s1 - s0))
    print(f"{'task':8s} {'kernel share':>12s} {'sim':>16s} {'kernel delay/slice':>19s} {'sim':>19s}")
    for n in names:
        ss = [s[n][0] for s in sims]
        sd = [s[n][1] / 1e6 for s in sims]
        print(f"{n:8s} {kernel[n][0]:12.4f} {min(ss):7.4f}-{max(ss):.4f} {kernel[n][1] / 1e6:16.3f} ms "
              f"{min(sd):7.3f}-{max(sd):.3f} ms")


if __name__ == "__main__":
    main()
