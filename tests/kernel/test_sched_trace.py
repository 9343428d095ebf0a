#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sched_trace.analyse() on hand-written traces (tests/run-kernel.sh)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sched_trace import analyse, parse  # noqa: E402

A, B, KW = 101, 102, 7  # the experiment's two tasks and a foreign kworker


def sw(us, cpu, prev, state, nxt):
    return (f"  x-{prev} [{cpu:03d}] d..2. {us // 10**6}.{us % 10**6:06d}: sched_switch: prev_comm=x y "
            f"prev_pid={prev} prev_prio=120 prev_state={state} ==> next_comm=z w next_pid={nxt} next_prio=120\n")


def wake(us, cpu, pid):
    return (f"  x-0 [{cpu:03d}] dNh4. {us // 10**6}.{us % 10**6:06d}: sched_wakeup: comm=a b "
            f"pid={pid} prio=120 target_cpu={cpu:03d}\n")


def migrate(us, cpu, pid, dest):
    return (f"  x-0 [{cpu:03d}] d..2. {us // 10**6}.{us % 10**6:06d}: sched_migrate_task: comm=a "
            f"pid={pid} prio=120 orig_cpu={cpu} dest_cpu={dest}\n")


def period_timer(us, cpu):
    return (f"  x-0 [{cpu:03d}] d.h1. {us // 10**6}.{us % 10**6:06d}: hrtimer_expire_entry: "
            f"hrtimer=000000005ec1effb function=sched_cfs_period_timer now=1\n")


def run(lines, t0_us=0, t1_us=100_000, bw=()):
    return analyse(parse(["# tracer: nop\n"] + lines), [A, B], t0_us * 1000, t1_us * 1000, bw)


class Analyse(unittest.TestCase):
    def test_foreign_cut_is_one_slice(self):
        # A runs, a kworker takes 50 us, A again; then B preempts A for 4 ms
        k, foreign, busy = run([sw(10, 0, 0, "R", A), sw(1000, 0, A, "R+", KW), sw(1050, 0, KW, "I", A),
                          sw(5000, 0, A, "R", B), sw(9000, 0, B, "R", A)], t1_us=10_000)
        self.assertEqual(k[A]["slices"], 2)
        self.assertEqual(k[A]["cuts"], 1)
        self.assertEqual(k[A]["foreign_ns"], 50_000)
        self.assertEqual(k[A]["wait_ns"], 4_000_000)
        self.assertEqual(k[A]["run_ns"], 10_000_000 - 4_000_000 - 50_000 - 10_000)
        self.assertEqual(k[B]["slices"], 1)
        self.assertEqual(k[B]["wait_ns"], 1_000_000)  # unknown before its first switch: not counted
        self.assertEqual(foreign, {0: 50_000})
        self.assertEqual(busy, {0: 50_000})

    def test_experiment_task_in_the_gap_makes_a_slice(self):
        # A preempted by a kworker, which gives the CPU to B, then A: B's run counts
        k, _, _ = run([sw(0, 0, 0, "R", A), sw(1000, 0, A, "R+", KW), sw(1100, 0, KW, "S", B),
                    sw(2000, 0, B, "S", A)], t1_us=3000)
        self.assertEqual((k[A]["slices"], k[A]["cuts"]), (2, 0))
        self.assertEqual(k[A]["foreign_ns"], 100_000)
        self.assertEqual(k[A]["wait_ns"], 900_000)

    def test_wakeup_wait_is_own_and_foreign_in_turn(self):
        # B sleeps, wakes at 2 ms behind a kworker (foreign), then A runs 1 ms, then B
        k, _, _ = run([sw(0, 0, 0, "R", B), sw(1000, 0, B, "S", KW), wake(2000, 0, B), sw(2500, 0, KW, "S", A),
                    sw(3500, 0, A, "R", B)], t1_us=4000)
        self.assertEqual(k[B]["foreign_ns"], 500_000)
        self.assertEqual(k[B]["wait_ns"], 1_000_000)
        self.assertEqual((k[B]["slices"], k[B]["cuts"]), (2, 0))
        self.assertEqual(k[A]["slices"], 1)

    def test_window_clips(self):
        k, _, _ = run([sw(0, 0, 0, "R", A), sw(1000, 0, A, "R", B), sw(3000, 0, B, "R", A)], t0_us=2000, t1_us=4000)
        self.assertEqual(k[A]["wait_ns"], 1_000_000)
        self.assertEqual(k[A]["run_ns"], 1_000_000)
        self.assertEqual(k[A]["slices"], 1)  # its switch-in at 0 is before the window
        self.assertEqual(k[B]["slices"], 0)
        self.assertEqual(k[B]["run_ns"], 1_000_000)

    def test_migrated_wait_follows_the_task(self):
        # A preempted by a kworker on CPU 0, pulled to CPU 1 where B runs, then switched in there
        k, _, _ = run([sw(0, 0, 0, "R", A), sw(0, 1, 0, "R", B), sw(1000, 0, A, "R+", KW), migrate(1200, 1, A, 1),
                    sw(2000, 1, B, "R", A)], t1_us=3000)
        self.assertEqual(k[A]["foreign_ns"], 200_000)
        self.assertEqual(k[A]["wait_ns"], 800_000)
        self.assertEqual((k[A]["slices"], k[A]["cuts"]), (2, 0))

    def test_throttled_wait_is_own_whoever_runs(self):
        # A (in a limited group) throttled at 1 ms, a kworker runs, the period timer at 5 ms, A at 6 ms
        lines = [sw(0, 0, 0, "R", A), sw(1000, 0, A, "R", KW), period_timer(5000, 1), sw(6000, 0, KW, "S", A)]
        k, displaced, busy = run(lines, t1_us=7000, bw=[A])
        self.assertEqual(k[A]["wait_ns"], 4_000_000)
        self.assertEqual(k[A]["foreign_ns"], 1_000_000)
        self.assertEqual((k[A]["slices"], k[A]["cuts"]), (2, 0))
        self.assertEqual(displaced, {0: 1_000_000})
        self.assertEqual(busy, {0: 5_000_000})  # the kworker held the CPU, but the throttle kept A off it
        # the same trace for a task without a cpu.max: one slice cut by a foreign task
        k, displaced, _ = run(lines, t1_us=7000)
        self.assertEqual((k[A]["wait_ns"], k[A]["foreign_ns"]), (0, 5_000_000))
        self.assertEqual((k[A]["slices"], k[A]["cuts"]), (1, 1))
        self.assertEqual(displaced, {0: 5_000_000})

    def test_the_simulations_unthrottle_ends_a_throttled_wait_too(self):
        # schedscope run --trace writes its own record of the period timer and the unthrottle
        unthrottle = ("  hog-1 [001] d..2.     0.005000: schedscope_cfs_unthrottle: group=/lim "
                      "runtime_remaining=1 pool=0\n")
        k, _, _ = run([sw(0, 0, 0, "R", A), sw(1000, 0, A, "R", KW), unthrottle, sw(6000, 0, KW, "S", A)],
                      t1_us=7000, bw=[A])
        self.assertEqual((k[A]["wait_ns"], k[A]["foreign_ns"]), (4_000_000, 1_000_000))
        self.assertEqual((k[A]["slices"], k[A]["cuts"]), (2, 0))

    def test_displacement_counts_a_cpu_once(self):
        # A and B both wait on CPU 0 while a kworker runs 2 ms: 2 ms taken from the experiment, not 4
        k, displaced, _ = run([sw(0, 0, 0, "R", A), sw(1000, 0, A, "R", B), sw(2000, 0, B, "R+", KW),
                            sw(4000, 0, KW, "S", A)], t1_us=5000)
        self.assertEqual(displaced, {0: 2_000_000})
        self.assertEqual(k[B]["foreign_ns"], 2_000_000)
        self.assertEqual(k[A]["foreign_ns"], 2_000_000)
        self.assertEqual(k[A]["wait_ns"], 1_000_000)


if __name__ == "__main__":
    unittest.main()
