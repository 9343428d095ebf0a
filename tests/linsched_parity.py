#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""LinSched parity: scenarios/linsched/ held to LinSched's own tolerances.

Where the simulation differs, a case widens its expect's tolerance and keeps
LinSched's figure in a comment above it ("# run_delay of p: LinSched 2200ms
+- 100ms; here ..."). This runs every case with LinSched's tolerance put
back and counts the cases that match in full and the checks that hold, the
figures schedscope-scenario(5) quotes under "LinSched parity".

With --jitter N, every case runs again N times (seeds 1..N) with interrupts
entering up to 1 us late (noise on, with no timer slack and no costs: only
the lockstep of LinSched's machine is gone); for each check that fails in
lockstep it says in how many of those runs it holds and the range of its
tasks' figures, and in how many runs every check of its case holds at once:
a case that matches in some runs differs by the order of events at one
instant, from where the load goes its own way.

Usage: tests/linsched_parity.py BIN [--jitter N]   (from the top of the tree)
"""
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

METRIC = {"runtime": "cpu_time", "run_delay": "wait_time", "pcount": "switches"}
LINSCHED = re.compile(r"^# (runtime|run_delay|pcount) of (\w+): LinSched (\S+) \+- (\S+);", re.M)
EXPECT = re.compile(r"^expect (\w+)\((\w+)\.\*\) = (\S+) \+- (\S+)$")
JITTER = ["--set", "noise=on", "--set", "irq_jitter_ns=1us", "--set", "timer_slack_ns=0ns"] + [
    a for c in ("switch", "wakeup", "ipi", "tick", "balance", "migrate") for a in ("--set", f"cost_{c}_ns=0ns")
]
FIELD = {"cpu_time": "cpu_ns", "wait_time": "wait_ns", "switches": "slices"}


def restored(text):
    """The case's text with each widened tolerance put back to LinSched's."""
    orig = {(METRIC[m.group(1)], m.group(2)): (m.group(3), m.group(4)) for m in LINSCHED.finditer(text)}
    out = []
    for line in text.split("\n"):
        e = EXPECT.match(line)
        if e and (e.group(1), e.group(2)) in orig:
            value, tol = orig[(e.group(1), e.group(2))]
            line = f"expect {e.group(1)}({e.group(2)}.*) = {value} +- {tol}"
        out.append(line)
    return "\n".join(out)


def checks(binary, path):
    """The --check lines of the case at path, LinSched's tolerances put back."""
    # beside the case, so that its topology is found as for the case itself
    fd, tmp = tempfile.mkstemp(suffix=".scn", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w") as f:
            f.write(restored(open(path).read()))
        run = subprocess.run([binary, "run", tmp, "--check"], capture_output=True, text=True)
    finally:
        os.unlink(tmp)
    return [l for l in run.stdout.split("\n") if l.startswith("expect")]


def quantity(text):
    """An expect's value or tolerance in ns ("19000ms", "2s") or a count ("2000")."""
    m = re.fullmatch(r"([\d.]+)(ms|s)?", text)
    return float(m.group(1)) * {"ms": 1e6, "s": 1e9, None: 1}[m.group(2)]


def expects(text):
    """The case's expects with LinSched's tolerances: (metric, group, value, tolerance)."""
    out = []
    for line in restored(text).split("\n"):
        e = EXPECT.match(line)
        if e:
            out.append((e.group(1), e.group(2), quantity(e.group(3)), quantity(e.group(4))))
    return out


def jitter_run(binary, path, seed):
    """One run of the case with 1 us interrupt jitter: its tasks' figures."""
    out = subprocess.run([binary, "run", path, "--report", "json", "--seed", str(seed)] + JITTER,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["tasks"]


def held(tasks, check):
    """Whether every task of the check's group is within its tolerance, and their figures."""
    metric, group, value, tol = check
    v = [t[FIELD[metric]] for t in tasks if t["name"].split(".")[0] == group]
    return all(abs(x - value) <= tol for x in v), v


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--jitter" else 0
    paths = sorted(glob.glob("scenarios/linsched/*.scn"))
    cases = full = nchecks = nheld = failing = jitter_held = 0
    runs_held = runs_total = full_cases = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        jobs = {(p, s): pool.submit(jitter_run, binary, p, s) for p in paths for s in range(1, runs + 1)}
        for path in paths:
            lines = checks(binary, path)
            ok = [l for l in lines if ": ok" in l]
            cases += 1
            full += len(ok) == len(lines)
            nchecks += len(lines)
            nheld += len(ok)
            case = expects(open(path).read())
            results = [[held(jobs[(path, s)].result(), c) for c in case] for s in range(1, runs + 1)]
            in_full = sum(all(h for h, _ in r) for r in results)
            runs_held += sum(h for r in results for h, _ in r)
            runs_total += len(case) * runs
            full_cases += in_full > 0
            for l in lines:
                if ": ok" in l:
                    continue
                print(f"{os.path.basename(path)}: {l[:150]}")
                if not runs:
                    continue
                i = [f"expect {m}({g}.*)" for m, g, _, _ in case].index(l.split(" =")[0])
                ok_runs = [r[i][0] for r in results]
                vals = [x for r in results for x in r[i][1]]
                unit = 1 if case[i][0] == "switches" else 1e9
                failing += 1
                jitter_held += any(ok_runs)
                print(f"    with 1us jitter: held in {sum(ok_runs)} of {runs} runs; "
                      f"its tasks {min(vals) / unit:g} to {max(vals) / unit:g}")
            if runs and len(ok) < len(lines):
                print(f"    every check held in {in_full} of {runs} runs")
    print(f"linsched parity: {full} of {cases} cases in full, {nheld} of {nchecks} checks")
    if runs:
        print(f"with 1us interrupt jitter, seeds 1 to {runs}: {jitter_held} of {failing} failing checks "
              f"hold in at least one run, {full_cases} of {cases} cases in full in at least one run, "
              f"{runs_held} of {runs_total} check-runs hold")


if __name__ == "__main__":
    main()
