#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""LinSched parity: scenarios/linsched/ held to LinSched's own tolerances.

Where the simulation differs, a case widens its expect's tolerance and keeps
LinSched's figure in a comment above it ("# run_delay of p: LinSched 2200ms
+- 100ms; here ..."). This runs every case with LinSched's tolerance put
back and counts the cases that match in full and the checks that hold, the
figures schedscope-scenario(5) quotes under "LinSched parity".

With --jitter N, each check that fails is run again N times (seeds 1..N)
with interrupts entering up to 1 us late (noise on, with no timer slack and
no costs: only the lockstep of LinSched's machine is gone) and says in how
many of those runs it holds, and the range of its tasks' figures: a check
that holds in some runs hinges on the order of events at one instant.

Usage: tests/linsched_parity.py BIN [--jitter N]   (from the top of the tree)
"""
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


def jittered(binary, path, failed, runs):
    """Per failing check: the runs with 1us jitter that hold it, and its tasks' figures."""
    want = {}
    for l in failed:
        m, group, value, tol = EXPECT.match(l.split(":", 1)[0]).groups()
        want[l] = (FIELD[m], group, quantity(value), quantity(tol), [], [])
    for seed in range(1, runs + 1):
        out = subprocess.run([binary, "run", path, "--report", "json", "--seed", str(seed)] + JITTER,
                             capture_output=True, text=True).stdout
        tasks = json.loads(out)["tasks"]
        for field, group, value, tol, held, vals in want.values():
            v = [t[field] for t in tasks if t["name"].split(".")[0] == group]
            held.append(all(abs(x - value) <= tol for x in v))
            vals.extend(v)
    return want


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--jitter" else 0
    cases = full = nchecks = held = failing = jitter_held = 0
    for path in sorted(glob.glob("scenarios/linsched/*.scn")):
        lines = checks(binary, path)
        ok = [l for l in lines if ": ok" in l]
        cases += 1
        full += len(ok) == len(lines)
        nchecks += len(lines)
        held += len(ok)
        failed = [l for l in lines if ": ok" not in l]
        jitter = jittered(binary, path, failed, runs) if failed and runs else {}
        for l in failed:
            print(f"{os.path.basename(path)}: {l[:150]}")
            if l not in jitter:
                continue
            field, _, _, _, ok_runs, vals = jitter[l]
            unit = 1 if field == "slices" else 1e9
            failing += 1
            jitter_held += any(ok_runs)
            print(f"    with 1us jitter: held in {sum(ok_runs)} of {runs} runs; "
                  f"its tasks {min(vals) / unit:g} to {max(vals) / unit:g}")
    print(f"linsched parity: {full} of {cases} cases in full, {held} of {nchecks} checks")
    if runs:
        print(f"with 1us interrupt jitter: {jitter_held} of {failing} failing checks hold in at least one of {runs} runs")


if __name__ == "__main__":
    main()
