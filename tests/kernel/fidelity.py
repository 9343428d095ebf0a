#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`make fidelity`: the simulation against the real kernel's recorded results.

For each results file (tests/kernel/results/*.json, written by truth.py)
and each experiment in it, runs tests/kernel/experiments/NAME.scn on the
default (realistic) machine with what the results record of the kernel and
the machine they came from: the release with its stable update (6.18.44's
rules, not 6.18's), CONFIG_HZ, CONFIG_IRQ_TIME_ACCOUNTING (without it the
interrupts' time is charged to the task they interrupt) and the tick's cost
on that machine (`costs HZ tick`), for SEEDS seeds,
over the kernel's window (after its warm-up, for the duration), and
compares each task's mean CPU share and delay per slice with the kernel's
(truth.py's trace-based figures: the experiment's own slices and waits;
schedstat's, which count every switch on the machine, are shown beside):

  share        within max(1 point, 2 x the kernel's spread over its repeats)
  delay/slice  within 1.5x of the kernel's mean either way, or both below
               100 us (under that the kernel's figure is the measurement's
               noise: a hog alone on a CPU waits a few us for a timer)

Prints a table and exits 1 if any task is out of tolerance. Needs no root:
the real runs were made by `make truth` and committed.

Usage: fidelity.py SCHEDSCOPE [RESULTS.json...]
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = 5
DELAY_RATIO = 1.5
DELAY_FLOOR_NS = 100_000


def release(kernel):
    """6.18.44-fc-v1252 -> 6.18.44: the release and its stable update, without the local version."""
    return re.match(r"\d+\.\d+(\.\d+)?", kernel).group(0)


def machine_sets(res):
    """--set arguments for what the results record of the kernel's build and the machine."""
    sets = [f"kernel={release(res['kernel'])}", f"hz={res['hz']}"]
    m = res.get("machine", {})
    if m.get("irq_time_accounting") is False:
        sets.append("feature=NO_IRQ_TIME_ACCOUNTING")
    if m.get("tick_cost_ns"):
        sets.append(f"cost_tick_ns={m['tick_cost_ns']}ns")
    return sets


def simulate(binary, name, sets, warmup_ns, duration_ns):
    """The recorded kernel's rules and machine, and the same window: after the warm-up, for the duration."""
    share, delay = {}, {}
    for seed in range(1, SEEDS + 1):
        out = subprocess.run(
            [binary, "run", f"{HERE}/experiments/{name}.scn", "--seed", str(seed)] +
            [a for s in sets for a in ("--set", s)] + [
             "--set", f"duration={warmup_ns + duration_ns}ns",
             "--window", f"{warmup_ns}ns..{warmup_ns + duration_ns}ns", "--report", "json"],
            check=True, capture_output=True, text=True).stdout
        r = json.loads(out)
        span = r["window"]["to_ns"] - r["window"]["from_ns"]
        for t in r["tasks"]:
            share.setdefault(t["name"], []).append(t["cpu_ns"] / span)
            delay.setdefault(t["name"], []).append(t["wait_ns"] / max(t["slices"], 1))
    return ({n: statistics.mean(v) for n, v in share.items()},
            {n: statistics.mean(v) for n, v in delay.items()})


def main():
    binary = sys.argv[1]
    files = sys.argv[2:] or sorted(glob.glob(f"{HERE}/results/*.json"))
    if not files:
        sys.exit("fidelity: no results in tests/kernel/results (run `make truth` as root)")
    bad = total = 0
    for path in files:
        res = json.load(open(path))
        sets = machine_sets(res)
        print(f"fidelity: {os.path.basename(path)}: Linux {res['kernel']}, HZ {res['hz']}, {res['cpus']} CPUs, "
              f"{res['repeats']} repeats, {res['date']}, load {' '.join(res['loadavg_before'])}")
        print(f"fidelity: simulated with --set {' --set '.join(sets)}")
        print(f"{'experiment':14s} {'task':6s} {'kernel share':>14s} {'sim':>7s} {'tol':>6s}  "
              f"{'kernel delay/slice':>18s} {'sim':>9s} {'ratio':>6s} {'schedstat':>9s}")
        for name, exp in sorted(res["experiments"].items()):
            sim_share, sim_delay = simulate(binary, name, sets, int(res["warmup_s"] * 1e9),
                                            exp["duration_ns"])
            for task, k in sorted(exp["tasks"].items()):
                total += 1
                tol = max(0.01, 2 * k["share_sd"])
                s_ok = abs(sim_share[task] - k["share_mean"]) <= tol
                kd, sd = k["delay_mean_ns"], sim_delay[task]
                ratio = max(kd, sd) / max(min(kd, sd), 1)
                d_ok = ratio <= DELAY_RATIO or max(kd, sd) < DELAY_FLOOR_NS
                bad += not (s_ok and d_ok)
                print(f"{name:14s} {task:6s} {k['share_mean']:7.4f}+-{k['share_sd']:.4f} {sim_share[task]:7.4f} "
                      f"{tol:6.4f}{'' if s_ok else '!'} {kd / 1e6:11.3f}+-{k['delay_sd_ns'] / 1e6:.3f} ms "
                      f"{sd / 1e6:6.3f} ms {ratio:5.2f}{'' if d_ok else '!':1s} "
                      f"{k['schedstat']['delay_mean_ns'] / 1e6:6.3f} ms")
    print(f"fidelity: {total - bad} of {total} tasks within tolerance")
    results = os.environ.get("RESULTS")
    if results:
        with open(results, "a") as f:
            f.write(f"fidelity {total - bad} {bad}\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
