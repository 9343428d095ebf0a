#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Ground truth from the Linux this runs on (`make truth`, as root).

Each tests/kernel/experiments/NAME.scn is run for real: its tasks become
worker processes (tests/kernel/worker.c) with the scenario's affinity
(cpus=), nice, policy (batch, idle) and cgroup v1 cpu-controller group
(cpu.weight -> cpu.shares, cpu.max -> cfs_quota_us/cfs_period_us,
cpu.idle), started together, with the sched tracepoints recorded on the
experiment's CPUs (sched_trace.py). After a warm-up, the window is the
scenario's duration: each task's CPU share is its run time over the
window, its delay per slice its wait over its slices, counting only the
experiment's own scheduling (a run cut only by a foreign task, such as a
kworker or another session's process, is one slice, and the wait that
task caused is kept apart as foreign_wait); the share is of the time its
CPUs had for the experiment (less the time foreign tasks ran there while a
task of the experiment waited: foreign_taken, per CPU; raw_share is over
the whole window, and the share of a task under a cpu.max quota too, as
the quota decides it). /proc/PID/schedstat is read at
both ends too, for comparison: run time, run delay and pcount, which count
every switch whoever caused it. Each experiment runs REPEATS times;
the results file keeps every repeat, the mean and the spread (standard
deviation), with the kernel release, CONFIG_HZ, the CPU count and the load
average before and after.

The machine may be shared: the experiments run inside a top-level group
with the largest cpu.shares (262144), so that other work in the root group
(weight 1024 a task) takes a few per cent of the CPUs at most, and the
groups of a scenario are made inside it.

Each experiment keeps its own date and load average, and per repeat and
CPU the share of the window foreign tasks took from it (foreign_taken) and
ran at all (foreign_busy): a CPU other work keeps busy is one the load
balancer does not move the experiment's tasks to.

Usage: truth.py WORKER OUT.json [NAME...]   (NAMEs: only those are run
again; the other experiments of OUT.json, for the same kernel, are kept)
"""
import json
import os
import re
import shlex
import signal
import statistics
import sys
import time

from sched_trace import Tracer, analyse, parse as parse_trace

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


def experiment_cpus(exp):
    """The CPUs the experiment's tasks may use: the ones to trace."""
    cpus = set()
    for t in exp["tasks"]:
        cpus |= t["cpus"] if t["cpus"] is not None else set(range(os.cpu_count()))
    return cpus


def limited(exp, t):
    """Is the task in a group, or below one, with a cpu.max quota?"""
    for path, kv in exp["groups"]:
        if "cpu.max" in kv and kv["cpu.max"].split()[0] != "max" and \
                (t["group"] == path or t["group"].startswith(path.rstrip("/") + "/")):
            return True
    return False


def run_once(worker, exp, tracer):
    make_groups(exp)
    tracer.start()
    pids = [start(worker, t) for t in exp["tasks"]]
    try:
        time.sleep(WARMUP)
        t0 = time.monotonic_ns()
        a = [schedstat(p) for p in pids]
        time.sleep(exp["duration"] / 1e9)
        b = [schedstat(p) for p in pids]
        t1 = time.monotonic_ns()
        lines = tracer.stop()
    finally:
        for p in pids:
            os.kill(p, signal.SIGKILL)
        for p in pids:
            os.waitpid(p, 0)
        remove_groups(exp)
    window = t1 - t0
    bw_pids = [p for t, p in zip(exp["tasks"], pids) if limited(exp, t)]
    traced, displaced, busy = analyse(parse_trace(lines), pids, t0, t1, bw_pids)
    out = {}
    for t, p, x, y in zip(exp["tasks"], pids, a, b):
        k = traced[p]
        cpus = t["cpus"] if t["cpus"] is not None else range(os.cpu_count())
        # its CPUs' time, less what foreign tasks took from the experiment there; a quota
        # decides a limited task's share whoever else runs (it runs later in the period)
        left = window - sum(displaced.get(c, 0) for c in cpus) / len(cpus)
        out[t["name"]] = {
            "share": k["run_ns"] / (window if limited(exp, t) else left),
            "raw_share": k["run_ns"] / window,
            "delay": k["wait_ns"] / max(k["slices"], 1),
            "slices": k["slices"],
            "cuts": k["cuts"],
            "foreign_wait_ns": k["foreign_ns"],
            "schedstat_share": (y[0] - x[0]) / window,
            "schedstat_delay": (y[1] - x[1]) / max(y[2] - x[2], 1),
            "pcount": y[2] - x[2],
        }
    share = lambda per_cpu: {str(c): d / window for c, d in sorted(per_cpu.items())}
    return out, share(displaced), share(busy)


def summary(rs):
    """Each repeat, the mean and the spread of a task's figures; schedstat's apart."""
    def put(out, key, name, mean, sd=None, unit=""):
        v = [r[key] for r in rs]
        out[name] = v
        out[mean + "_mean" + unit] = statistics.mean(v)
        if sd:
            out[mean + "_sd" + unit] = statistics.stdev(v)

    out, ss = {}, {}
    put(out, "share", "share", "share", True)
    put(out, "raw_share", "raw_share", "raw_share")
    put(out, "delay", "delay_per_slice_ns", "delay", True, "_ns")
    put(out, "slices", "slices", "slices")
    put(out, "cuts", "cuts", "cuts")
    put(out, "foreign_wait_ns", "foreign_wait_ns", "foreign_wait", False, "_ns")
    put(ss, "schedstat_share", "share", "share", True)
    put(ss, "schedstat_delay", "delay_per_slice_ns", "delay", True, "_ns")
    put(ss, "pcount", "pcount", "pcount")
    out["schedstat"] = ss
    return out


def kernel_config():
    """The running kernel's .config text, or ''."""
    for path in ("/proc/config.gz", f"/boot/config-{os.uname().release}"):
        try:
            if path.endswith(".gz"):
                import gzip
                return gzip.open(path, "rt").read()
            return open(path).read()
        except OSError:
            continue
    return ""


def config_hz():
    m = re.search(r"^CONFIG_HZ=(\d+)$", kernel_config(), re.M)
    return int(m.group(1)) if m else None


def machine(worker):
    """What the simulation needs of this kernel's build and this machine besides the release and HZ:
    CONFIG_IRQ_TIME_ACCOUNTING (without it an interrupt's time is charged to the task it interrupts)
    and the tick's cost: what a task spinning on CPU 0 loses at the tick (`costs HZ tick`: the mean of
    its gaps of 1-100 us at the tick over 2 s), the median of 9 such measurements, which vary with the
    machine's load (11-27 us on the VM of results/linux-6.18.json)."""
    import subprocess
    cfg = kernel_config()
    out = {}
    if cfg:
        out["irq_time_accounting"] = bool(re.search(r"^CONFIG_IRQ_TIME_ACCOUNTING=y$", cfg, re.M))
    costs = os.path.join(os.path.dirname(worker), "costs")
    load = open("/proc/loadavg").read().split()[0]
    ticks = []
    for _ in range(9):
        r = subprocess.run([costs, str(config_hz()), "tick"], capture_output=True, text=True, check=True)
        if int(r.stdout):
            ticks.append(int(r.stdout))
    if ticks:
        out["tick_cost_ns"] = int(statistics.median(ticks))
        out["tick_costs_ns"] = ticks
        out["tick_cost_load"] = load
    return out


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
        "measure": "sched_switch/sched_wakeup/sched_migrate_task trace on the experiment's CPUs: "
                   "delay per slice over the experiment's own switches; schedstat kept for comparison",
        "machine": machine(worker),
        "experiments": {},
    }
    if sys.argv[3:] and os.path.exists(out_path):
        # some experiments again: the others are kept as they were recorded
        kept = json.load(open(out_path))
        if (kept["kernel"], kept["hz"], kept["cpus"]) == (result["kernel"], result["hz"], result["cpus"]):
            result["experiments"] = kept["experiments"]
    for name in names:
        exp = parse(f"{HERE}/experiments/{name}.scn")
        tracer = Tracer(experiment_cpus(exp), any(limited(exp, t) for t in exp["tasks"]))
        load = open("/proc/loadavg").read().split()[:3]
        runs, taken, busy = zip(*(run_once(worker, exp, tracer) for _ in range(REPEATS)))
        tasks = {}
        for t in exp["tasks"]:
            rs = [r[t["name"]] for r in runs]
            tasks[t["name"]] = summary(rs)
            k = tasks[t["name"]]
            print(f"truth: {name:14s} {t['name']:6s} share {k['share_mean']:.4f} +- {k['share_sd']:.4f}  "
                  f"delay/slice {k['delay_mean_ns'] / 1e6:.3f} ms +- {k['delay_sd_ns'] / 1e6:.3f} "
                  f"(schedstat {k['schedstat']['delay_mean_ns'] / 1e6:.3f})  "
                  f"foreign wait {k['foreign_wait_mean_ns'] / 1e6:.1f} ms, {k['cuts_mean']:.0f} cuts", flush=True)
        result["experiments"][name] = {"duration_ns": exp["duration"], "cpus": sorted(experiment_cpus(exp)),
                                       "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                       "loadavg_before": load,
                                       "loadavg_after": open("/proc/loadavg").read().split()[:3],
                                       "foreign_taken": list(taken), "foreign_busy": list(busy), "tasks": tasks}
    Tracer.remove()
    result["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    if os.path.isdir(TOP):
        os.rmdir(TOP)
    with open(out_path + ".tmp", "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(out_path + ".tmp", out_path)


if __name__ == "__main__":
    main()
