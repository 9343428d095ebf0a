#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`make costs`: the `cost` lines of several `costs HZ` runs, summarised.

Reads the runs' output on stdin (each run ends with a line `cost switch N
wakeup N ...`) and prints, per cost, the median over the runs and their
spread (lowest and highest), with the load average before and after: the
figures the engine's cost_*_ns defaults take.
"""
import statistics
import sys


def main():
    runs, loads = [], []
    for line in sys.stdin:
        sys.stdout.write(line)
        words = line.split()
        if words[:1] == ["cost"]:
            runs.append({words[i]: int(words[i + 1]) for i in range(1, len(words) - 2, 2)})
        elif line.startswith("# ") and "load" in words:
            loads.append(" ".join(words[words.index("load") + 1:][:3]))
    if not runs:
        sys.exit("costs_summary: no `cost` line in the input")
    with open("/proc/loadavg") as f:
        after = " ".join(f.read().split()[:3])
    print(f"# {len(runs)} runs; load averages at their starts: {', '.join(loads)}; after: {after}")
    for name in runs[0]:
        v = sorted(r[name] for r in runs)
        print(f"median {name:8s} {int(statistics.median(v)):8d} ns  (spread {v[0]} .. {v[-1]})")


if __name__ == "__main__":
    main()
