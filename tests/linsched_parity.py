#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""LinSched parity: scenarios/linsched/ held to LinSched's own tolerances.

Where the simulation differs, a case widens its expect's tolerance and keeps
LinSched's figure in a comment above it ("# run_delay of p: LinSched 2200ms
+- 100ms; here ..."). This runs every case with LinSched's tolerance put
back and counts the cases that match in full and the checks that hold, the
figures schedscope-scenario(5) quotes under "LinSched parity".

Usage: tests/linsched_parity.py BIN   (from the top of the tree)
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

METRIC = {"runtime": "cpu_time", "run_delay": "wait_time", "pcount": "switches"}
LINSCHED = re.compile(r"^# (runtime|run_delay|pcount) of (\w+): LinSched (\S+) \+- (\S+);", re.M)
EXPECT = re.compile(r"^expect (\w+)\((\w+)\.\*\) = (\S+) \+- (\S+)$")


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


def main():
    binary = sys.argv[1]
    cases = full = checks = held = 0
    for path in sorted(glob.glob("scenarios/linsched/*.scn")):
        # beside the case, so that its topology is found as for the case itself
        fd, tmp = tempfile.mkstemp(suffix=".scn", dir=os.path.dirname(path))
        try:
            with os.fdopen(fd, "w") as f:
                f.write(restored(open(path).read()))
            run = subprocess.run([binary, "run", tmp, "--check"], capture_output=True, text=True)
        finally:
            os.unlink(tmp)
        lines = [l for l in run.stdout.split("\n") if l.startswith("expect")]
        ok = [l for l in lines if ": ok" in l]
        cases += 1
        full += len(ok) == len(lines)
        checks += len(lines)
        held += len(ok)
        for l in lines:
            if ": ok" not in l:
                print(f"{os.path.basename(path)}: {l[:150]}")
    print(f"linsched parity: {full} of {cases} cases in full, {held} of {checks} checks")


if __name__ == "__main__":
    main()
