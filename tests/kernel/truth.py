#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Ground truth from the Linux this runs on (`make truth`, as root).

Each tests/kernel/experiments/NAME.scn is run for real: its tasks become
worker processes (tests/kernel/worker.c) with the scenario's affinity
(cpus=), nice, policy (batch, idle) and cgroup v1 cpu-controller group
(cpu.weight -> cpu.shares, cpu.max -> cfs_quota_us/cfs_period_us,
cpu.idle), started together. After a warm-up, /proc/PID/schedstat is read
at the start and at the end of the scenario's duration: the task's CPU
share is its run time over the window, its delay per slice the run delay
over the times it got a CPU (pcount). Each experiment runs REPEATS times;
the results file keeps every repeat, the mean and the spread (standard
deviation), with the kernel release, CONFIG_HZ, the CPU count and the load
average before and after.

The machine may be shared: the experiments run inside a top-level group
with the largest cpu.shares (262144), so that other work in the root group
(weight 1024 a task) takes a few per cent of the CPUs at most, and the
groups of a scenario are made inside it.

Usage: truth.py WORKER OUT.json [NAME...]
"""
import json
import os
import re
import shlex
import signal
import statistics
import sys
import time

CG = "/sys/fs/cgroup/cpu"
TOP = CG + "/schedscope-truth"
REPEATS = int(os.environ.get("TRUTH_REPEATS", "5"))
WARMUP = 0.5
HERE = os.path.dirname(os.path.abspath(__file__))


def ns(text):
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", text)
    if not m:
        raise ValueError("bad duration " + text)
    return int(float(m.group(1)) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[m.group(2)])


def cpulist(text):
    cpus = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def parse(path):
    """The subset of the scenario language the experiments use."""
    exp = {"groups": [], "tasks": [], "duration": 10 * 10**9}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words = shlex.split(line)
        kv = dict(w.split("=", 1) for w in words[2:] if "=" in w)
        if words[0] == "duration":
            exp["duration"] = ns(words[1])
        elif words[0] == "group":
            exp["groups"].append((words[1], kv))
        elif words[0] == "task":
            prog = kv["program"]
            if prog == "run forever":
                run, sleep = 0, 0
            else:
                m = re.fullmatch(r"loop \{ run (\S+); sleep (\S+) \}", prog)
                if not m:
                    raise ValueError(path + ": program not supported: " + prog)
                run, sleep = ns(m.group(1)), ns(m.group(2))
            count = int(kv.get("count", 0))
            names = [f"{words[1]}.{i}" for i in range(count)] if count else [words[1]]
            for n in names:
                exp["tasks"].append({
                    "name": n, "run": run, "sleep": sleep,
                    "nice": int(kv.get("nice", 0)),
                    "policy": kv.get("policy", "normal"),
                    "cpus": cpulist(kv["cpus"]) if "cpus" in kv else None,
                    "group": kv.get("group", "/"),
                })
    return exp


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def make_groups(exp):
    os.makedirs(TOP, exist_ok=True)
    write(TOP + "/cpu.shares", 262144)
    for path, kv in exp["groups"]:
        d = TOP + path
        os.makedirs(d, exist_ok=True)
        if "cpu.weight" in kv:
            write(d + "/cpu.shares", int(kv["cpu.weight"]) * 1024 // 100)
        if "cpu.max" in kv:
            q, p = kv["cpu.max"].split()
            write(d + "/cpu.cfs_period_us", ns(p) // 1000)
            write(d + "/cpu.cfs_quota_us", -1 if q == "max" else ns(q) // 1000)
        if "cpu.idle" in kv:
            write(d + "/cpu.idle", kv["cpu.idle"])


def remove_groups(exp):
    for path, _ in sorted(exp["groups"], key=lambda g: -g[0].count("/")):
        if os.path.isdir(TOP + path):
            os.rmdir(TOP + path)


def start(worker, t):
    pid = os.fork()
    if pid:
        return pid
    try:
        write(TOP + (t["group"] if t["group"] != "/" else "") + "/tasks", os.getpid())
        if t["cpus"] is not None:
            os.sched_setaffinity(0, t["cpus"])
        pol = {"normal": os.SCHED_OTHER, "batch": os.SCHED_BATCH, "idle": os.SCHED_IDLE}[t["policy"]]
        os.sched_setscheduler(0, pol, os.sched_param(0))
        os.setpriority(os.PRIO_PROCESS, 0, t["nice"])
        os.execv(worker, [worker, str(t["run"]), str(t["sleep"])])
    finally:
        os._exit(127)


def schedstat(pid):
    with open(f"/proc/{pid}/schedstat") as f:
        return [int(x) for x in f.read().split()]


def run_once(worker, exp):
    make_groups(exp)
    pids = [start(worker, t) for t in exp["tasks"]]
    try:
        time.sleep(WARMUP)
        t0 = time.monotonic_ns()
        a = [schedstat(p) for p in pids]
        time.sleep(exp["duration"] / 1e9)
        b = [schedstat(p) for p in pids]
        window = time.monotonic_ns() - t0
    finally:
        for p in pids:
            os.kill(p, signal.SIGKILL)
        for p in pids:
            os.waitpid(p, 0)
        remove_groups(exp)
    out = {}
    for t, x, y in zip(exp["tasks"], a, b):
        slices = max(y[2] - x[2], 1)
        out[t["name"]] = (
            (y[0] - x[0]) / window,
            (y[1] - x[1]) / slices,
        )
    return out


def config_hz():
    for path in ("/proc/config.gz", f"/boot/config-{os.uname().release}"):
        try:
            if path.endswith(".gz"):
                import gzip
                text = gzip.open(path, "rt").read()
            else:
                text = open(path).read()
        except OSError:
            continue
        m = re.search(r"^CONFIG_HZ=(\d+)$", text, re.M)
        if m:
            return int(m.group(1))
    return None


def main():
    worker, out_path = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or sorted(f[:-4] for f in os.listdir(HERE + "/experiments") if f.endswith(".scn"))
    if not os.path.isdir(CG):
        sys.exit("truth: no cgroup v1 cpu controller at " + CG)
    result = {
        "kernel": os.uname().release,
        "hz": config_hz(),
        "cpus": os.cpu_count(),
        "repeats": REPEATS,
        "warmup_s": WARMUP,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "loadavg_before": open("/proc/loadavg").read().split()[:3],
        "isolation": "experiments in a top-level cpu group with cpu.shares=262144",
        "experiments": {},
    }
    for name in names:
        exp = parse(f"{HERE}/experiments/{name}.scn")
        runs = [run_once(worker, exp) for _ in range(REPEATS)]
        tasks = {}
        for t in exp["tasks"]:
            share = [r[t["name"]][0] for r in runs]
            delay = [r[t["name"]][1] for r in runs]
            tasks[t["name"]] = {
                "share": share,
                "share_mean": statistics.mean(share),
                "share_sd": statistics.stdev(share),
                "delay_per_slice_ns": delay,
                "delay_mean_ns": statistics.mean(delay),
                "delay_sd_ns": statistics.stdev(delay),
            }
            print(f"truth: {name:14s} {t['name']:6s} share {statistics.mean(share):.4f} "
                  f"+- {statistics.stdev(share):.4f}  delay/slice {statistics.mean(delay) / 1e6:.3f} ms "
                  f"+- {statistics.stdev(delay) / 1e6:.3f}", flush=True)
        result["experiments"][name] = {"duration_ns": exp["duration"], "tasks": tasks}
    result["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    if os.path.isdir(TOP):
        os.rmdir(TOP)
    with open(out_path + ".tmp", "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(out_path + ".tmp", out_path)


if __name__ == "__main__":
    main()
