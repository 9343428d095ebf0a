// SPDX-License-Identifier: GPL-2.0
/*
 * PELT (kernel/sched/pelt.c): decay_load(), LOAD_AVG_MAX, the geometric
 * closed forms of a running and a sleeping entity, driven both by calling
 * the PELT functions on a hand-made entity and through a real engine.
 *
 * Expected values come from y = 0.5^(1/32) in long double: after p periods
 * (1 period = 1024 us = 1048576 ns) of running from zero, util_avg is
 * 1024 * (1 - y^p); after p periods of sleep, a signal is multiplied by y^p.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define PERIOD_NS 1048576ULL	/* 1024 units of 1024 ns */
#define MS NSEC_PER_MSEC

static long double y_pow(long double periods)
{
	return powl(0.5L, periods / 32.0L);
}

static long double periods_of(u64 ns)
{
	return (long double)ns / (long double)PERIOD_NS;
}

/* |got - want| <= rel * want + abs */
static void assert_near(long double got, long double want, long double rel, long double abs,
			const char *what)
{
	if (fabsl(got - want) > rel * fabsl(want) + abs)
		fail_msg("%s: got %.3Lf, expected %.3Lf (±%.1Lf%% ± %.1Lf)", what, got, want,
			 rel * 100, abs);
}

/* ---- decay_load ---- */

static const u64 values[] = {
	0, 1, 2, 3, 100, 511, 512, 1000, 1001, 1023, 1024, 47742, 1000000, 48887808,
	0xffffffffULL, 0x100000000ULL, 1ULL << 40, 123456789012345ULL, 1ULL << 62,
	(1ULL << 63) + 12345, ~0ULL,
};

/*
 * One half-life: v/2 within 1 for values below 2^33. The table's y^0 entry is
 * 2^32-1, not 2^32, so (as in the kernel) the result is exactly floor(v/2) - 1
 * for 2 <= v < 2^33, and larger values lose a further v/2^33 (+ truncations).
 */
static void test_decay_32_is_half(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		u64 v = values[i];
		u64 got = decay_load(v, 32);

		if (v < (1ULL << 33)) {
			long double d = (long double)got - (long double)(v / 2);
			if (fabsl(d) > 1)
				fail_msg("decay_load(%llu, 32) = %llu", (unsigned long long)v,
					 (unsigned long long)got);
			assert_int_equal(got, v >= 2 ? v / 2 - 1 : 0);
		} else {
			assert_near((long double)got, (long double)v / 2, 0,
				    2.0L + (long double)v / 8589934592.0L, "decay_load(v, 32)");
		}
	}
	/* two half-lives: a quarter; 32·k: v >> k */
	assert_near((long double)decay_load(1000000, 64), 250000, 0, 1, "decay_load(1e6, 64)");
	assert_near((long double)decay_load(1 << 20, 320), 1024, 0, 1, "decay_load(2^20, 320)");
	/* hand: 1000 * 0.5 = 500, truncated after the 2^32-1 factor: 499 */
	assert_int_equal(decay_load(1000, 32), 499);
}

/* decay_load(v, n) ≈ v * y^n for every n up to the cut-off. */
static void test_decay_vs_exact(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		for (u64 n = 0; n <= 2016; n += (n < 70 ? 1 : 13)) {
			u64 v = values[i];
			long double want = (long double)v * y_pow((long double)n);
			/* < 1 from v >> (n/32), < 1 from the final truncation, and the
			 * table entry floor((2^32-1) y^r) is below 2^32 y^r by at most
			 * 2^-32 + 1/(2^32 y^r) <= 3 * 2^-32 relatively */
			long double tol = 2.0L + want * 3 / 4294967296.0L;
			long double got = (long double)decay_load(v, n);

			if (got > want + 1e-6L || want - got > tol)
				fail_msg("decay_load(%llu, %llu) = %.0Lf, exact %.3Lf",
					 (unsigned long long)v, (unsigned long long)n, got, want);
		}
	}
}

/* Past 63 half-lives (2016 periods) nothing is left, whatever the value. */
static void test_decay_cutoff(void **state)
{
	const u64 ns[] = { 2016, 2017, 2048, 3000, 65536, 1ULL << 32, 1ULL << 40, ~0ULL };

	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		for (size_t j = 0; j < ARRAY_SIZE(ns); j++)
			if (decay_load(values[i], ns[j]) != 0)
				fail_msg("decay_load(%llu, %llu) = %llu, expected 0",
					 (unsigned long long)values[i], (unsigned long long)ns[j],
					 (unsigned long long)decay_load(values[i], ns[j]));
	/* at 62 half-lives only the largest values leave a trace:
	 * 2^62 >> 62 = 1, * (2^32-1) >> 32 = 0; (2^64-1) >> 62 = 3 -> 2 */
	assert_int_equal(decay_load(1ULL << 62, 62 * 32), 0);
	assert_int_equal(decay_load(~0ULL, 62 * 32), 2);
}

/* LOAD_AVG_MAX is the fixed point of m = (m * floor((2^32-1) y) >> 32) + 1024. */
static void test_load_avg_max(void **state)
{
	long double y = y_pow(1);
	u64 inv1 = (u64)floorl(4294967295.0L * y);
	u64 m = 0, prev;

	assert_int_equal(inv1, 0xfa83b2da);
	do {
		prev = m;
		m = ((m * inv1) >> 32) + 1024;
	} while (m != prev);
	assert_int_equal(m, 47742);
	assert_int_equal(LOAD_AVG_MAX, m);
	assert_int_equal(PELT_MIN_DIVIDER, 47742 - 1024);
	assert_int_equal(LOAD_AVG_PERIOD, 32);
	/* the real-valued series 1024 / (1 - y) is a little larger */
	assert_near(1024.0L / (1 - y), 47788.0L, 0, 1, "1024/(1-y)");
}

/* ---- direct calls on a hand-made entity ---- */

struct pelt_fix {
	struct cfs_rq cfs;
	struct sched_entity se;
	u64 t0;
};

static void pelt_fix_init(struct pelt_fix *f, unsigned long weight_unscaled)
{
	memset(f, 0, sizeof(*f));
	f->se.load.weight = scale_load(weight_unscaled);
	f->se.on_rq = 1;
	f->cfs.curr = &f->se;		/* running */
	f->t0 = 10 * PERIOD_NS;		/* any non-zero start; periods count from here */
	f->se.avg.last_update_time = f->t0;
}

/* Running from zero for N ms: util_avg ≈ 1024 (1 - y^p) within 2 %. */
static void test_closed_form_running(void **state)
{
	const u64 N[] = { 5, 10, 20, 32, 50, 64, 100, 200, 345, 500 };

	for (size_t i = 0; i < ARRAY_SIZE(N); i++) {
		struct pelt_fix a, b;
		char what[64];

		/* a: updated every millisecond, like the tick; b: once at the end */
		pelt_fix_init(&a, 1024);
		pelt_fix_init(&b, 1024);
		for (u64 ms = 1; ms <= N[i]; ms++)
			__update_load_avg_se(a.t0 + ms * MS, &a.cfs, &a.se);
		__update_load_avg_se(b.t0 + N[i] * MS, &b.cfs, &b.se);

		long double want = 1024.0L * (1 - y_pow(periods_of(N[i] * MS)));
		snprintf(what, sizeof(what), "util_avg after %llu ms (tick)", (unsigned long long)N[i]);
		assert_near(a.se.avg.util_avg, want, 0.02L, 1, what);
		snprintf(what, sizeof(what), "util_avg after %llu ms (once)", (unsigned long long)N[i]);
		assert_near(b.se.avg.util_avg, want, 0.02L, 1, what);
		/* running all the time: runnable and (nice 0) load follow util */
		assert_near(a.se.avg.runnable_avg, want, 0.02L, 1, "runnable_avg");
		assert_near(a.se.avg.load_avg, want, 0.02L, 1, "load_avg");
	}
}

/* Runnable but not running (waiting on the queue): load and runnable grow, util stays 0. */
static void test_closed_form_waiting(void **state)
{
	struct pelt_fix f;
	struct sched_entity other;

	pelt_fix_init(&f, 3121);	/* nice -5 */
	memset(&other, 0, sizeof(other));
	f.cfs.curr = &other;
	for (u64 ms = 1; ms <= 100; ms++)
		__update_load_avg_se(f.t0 + ms * MS, &f.cfs, &f.se);
	long double frac = 1 - y_pow(periods_of(100 * MS));
	assert_int_equal(f.se.avg.util_avg, 0);
	assert_near(f.se.avg.runnable_avg, 1024 * frac, 0.02L, 1, "runnable_avg");
	assert_near(f.se.avg.load_avg, 3121 * frac, 0.02L, 1, "load_avg (nice -5)");
}

/* Running for a long time: util -> 1024 and load -> weight within 1 %, sums at LOAD_AVG_MAX. */
static void test_long_run_saturates(void **state)
{
	const unsigned long w[] = { 1024, 3121, 88761, 335, 15 };

	for (size_t i = 0; i < ARRAY_SIZE(w); i++) {
		struct pelt_fix f;

		pelt_fix_init(&f, w[i]);
		/* 3 s, updated each ms, ending exactly on a period boundary */
		u64 end = f.t0 + 3000 * PERIOD_NS;
		for (u64 t = f.t0 + MS; t < end; t += MS)
			__update_load_avg_se(t, &f.cfs, &f.se);
		__update_load_avg_se(end, &f.cfs, &f.se);
		assert_int_equal(f.se.avg.period_contrib, 0);
		assert_near(f.se.avg.util_avg, 1024, 0.01L, 0, "util_avg saturated");
		assert_near(f.se.avg.load_avg, w[i], 0.01L, 1, "load_avg saturated");
		/* at a boundary the sum is Σ_{n>=1} 1024 y^n = LOAD_AVG_MAX - 1024 */
		assert_near(f.se.avg.load_sum, LOAD_AVG_MAX - 1024, 0, 2, "load_sum at a boundary");
		/* one unit before the next boundary it is just under LOAD_AVG_MAX */
		__update_load_avg_se(end + 1023 * 1024, &f.cfs, &f.se);
		assert_int_equal(f.se.avg.period_contrib, 1023);
		assert_true(f.se.avg.load_sum <= LOAD_AVG_MAX);
		assert_near(f.se.avg.load_sum, LOAD_AVG_MAX - 1, 0, 3, "load_sum before a boundary");
	}
}

/* A sleeping entity halves every 32 periods (and every 32 ms, roughly). */
static void test_sleep_halves(void **state)
{
	struct pelt_fix f;

	pelt_fix_init(&f, 1024);
	u64 t = f.t0 + 1000 * PERIOD_NS;
	__update_load_avg_se(t, &f.cfs, &f.se);
	assert_near(f.se.avg.util_avg, 1024, 0.01L, 0, "util before sleeping");

	/* it blocks: not queued, not running */
	f.se.on_rq = 0;
	f.cfs.curr = NULL;
	long double u = f.se.avg.util_avg, l = f.se.avg.load_avg;
	for (int k = 1; k <= 6; k++) {
		t += 32 * PERIOD_NS;
		__update_load_avg_blocked_se(t, &f.se);
		u /= 2;
		l /= 2;
		/* each halving truncates; allow one unit per step */
		assert_near(f.se.avg.util_avg, u, 0, k, "util_avg after 32k periods asleep");
		assert_near(f.se.avg.load_avg, l, 0, k, "load_avg after 32k periods asleep");
		assert_near(f.se.avg.runnable_avg, u, 0, k, "runnable_avg asleep");
	}

	/* in plain milliseconds: 32 ms is 30.52 periods, so a factor y^30.52 = 0.5163 */
	pelt_fix_init(&f, 1024);
	t = f.t0 + 1000 * PERIOD_NS;
	__update_load_avg_se(t, &f.cfs, &f.se);
	f.se.on_rq = 0;
	f.cfs.curr = NULL;
	u = f.se.avg.util_avg;
	for (int k = 1; k <= 4; k++)
		__update_load_avg_blocked_se(t + (u64)k * 8 * MS, &f.se);	/* 4 updates, 32 ms */
	assert_near(f.se.avg.util_avg, u * y_pow(periods_of(32 * MS)), 0.02L, 1, "32 ms asleep");
	assert_near(f.se.avg.util_avg, u / 2, 0.04L, 1, "32 ms ≈ one half-life");

	/* ~2 s asleep: nothing left */
	__update_load_avg_blocked_se(t + 2100 * PERIOD_NS, &f.se);
	assert_int_equal(f.se.avg.util_avg, 0);
	assert_int_equal(f.se.avg.load_avg, 0);
	assert_int_equal(f.se.avg.load_sum, 0);
}

/* Sub-microsecond time is carried, not lost; nothing changes within a period. */
static void test_units_and_carry(void **state)
{
	struct pelt_fix f;

	pelt_fix_init(&f, 1024);
	/* 1023 ns: not even one unit, nothing moves */
	assert_int_equal(__update_load_avg_se(f.t0 + 1023, &f.cfs, &f.se), 0);
	assert_int_equal(f.se.avg.last_update_time, f.t0);
	/* 3000 ns: two units accounted, 952 ns carried */
	assert_int_equal(__update_load_avg_se(f.t0 + 3000, &f.cfs, &f.se), 0);
	assert_int_equal(f.se.avg.last_update_time, f.t0 + 2048);
	assert_int_equal(f.se.avg.period_contrib, 2);
	assert_int_equal(f.se.avg.util_sum, 2 << 10);
	assert_int_equal(f.se.avg.load_sum, 2);
	/* no boundary crossed yet: averages untouched */
	assert_int_equal(f.se.avg.util_avg, 0);
	/* crossing the boundary returns 1 and recomputes them */
	assert_int_equal(__update_load_avg_se(f.t0 + PERIOD_NS + 5000, &f.cfs, &f.se), 1);
	/* hand: (1024 - 2) units of the first period decayed once: d1 = 1022;
	 * contrib = 1022 * y + 4 (d3 = 4 units); with the old 2 decayed too:
	 * util_sum = ((2 * y) + (1022 * y) + 4) << 10 ≈ (1002.06 + 4) << 10 */
	long double y = y_pow(1);
	long double want = ((2 + 1022) * y + 4) * 1024;
	assert_near(f.se.avg.util_sum, want, 0, 2048, "util_sum after one boundary");
	assert_int_equal(f.se.avg.period_contrib, 4);
}

/* ---- through a real engine ---- */

/* One CPU, EEVDF, 10 s. */
static struct fx *eng_new(void)
{
	struct fx *f = fx_new(1, KV_LATEST, SCHED_VARIANT_EEVDF);

	f->sc.duration = 10 * NSEC_PER_SEC;
	return f;
}

/* A NORMAL task on any CPU, forked at `start`; prog NULL = run forever. */
static void eng_task(struct fx *f, int nice, u64 start, const struct sched_program *prog)
{
	fx_add_task(f, nice, SCHED_NORMAL, -1, prog)->start = start;
}

/*
 * One hog forked at `start` on an idle CPU: post_init_entity_util_avg() gives
 * it half the spare capacity (512), then it runs: util(t) = 1024 - 512 y^p.
 */
static void check_hog_pelt(u64 start)
{
	struct fx *f = eng_new();
	struct sched_engine *e;
	const u64 at[] = { 10, 20, 40, 80, 160, 320 };
	struct sched_task_info ti;
	struct sched_cpu_info ci;
	char what[96];

	eng_task(f, 0, start, NULL);
	e = fx_start(f);
	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		sched_run_until(e, start + at[i] * MS);
		sched_task_info(e, 0, &ti);
		sched_cpu_info(e, 0, &ci);
		long double want = 1024 - 512 * y_pow(periods_of(at[i] * MS));
		snprintf(what, sizeof(what), "task util_avg %llu ms after a fork at %llu ns",
			 (unsigned long long)at[i], (unsigned long long)start);
		assert_near(ti.avg.util_avg, want, 0.02L, 1, what);
		assert_near(ci.avg.util_avg, want, 0.02L, 1, "cfs_rq util_avg");
		assert_near(ti.avg.load_avg, 1024, 0.01L, 0, "task load_avg (starts at its weight)");
	}
	sched_run_until(e, start + 2 * NSEC_PER_SEC);
	sched_task_info(e, 0, &ti);
	sched_cpu_info(e, 0, &ci);
	assert_near(ti.avg.util_avg, 1024, 0.01L, 0, "task util_avg after 2 s");
	assert_near(ti.avg.runnable_avg, 1024, 0.01L, 0, "task runnable_avg after 2 s");
	assert_near(ti.avg.load_avg, 1024, 0.01L, 0, "task load_avg after 2 s");
	assert_near(ci.avg.util_avg, 1024, 0.01L, 0, "cfs_rq util_avg after 2 s");
	assert_near(ci.avg.load_avg, 1024, 0.01L, 0, "cfs_rq load_avg after 2 s");
	/* the task's own sums keep being aged: its last update is within a tick */
	sched_enter(e);
	assert_true(e->st->task[0].se.avg.last_update_time + 2 * MS >= sched_now(e));
	fx_free(f);
}

static void test_engine_hog_forked_later(void **state)
{
	check_hog_pelt(1 * MS);
	check_hog_pelt(7 * MS + 12345);
}

/*
 * A task forked at t = 0 (every scenario's default). Regression test: the
 * engine once attached it to a cfs_rq whose avg.last_update_time was still
 * 0, so attach_entity_load_avg() copied 0 into se->avg.last_update_time and
 * update_load_avg() ("if (se->avg.last_update_time && ...)") never aged it:
 * util_avg stayed at the post_init value 512 (fixed by rq clocks counting
 * from a boot time before 0). In the kernel the PELT clock is never 0 at fork.
 */
static void test_engine_hog_forked_at_zero(void **state)
{
	check_hog_pelt(0);
}

/* Two nice-0 hogs sharing the CPU: each runs half the time but is always runnable. */
static void test_engine_two_hogs(void **state)
{
	struct fx *f = eng_new();
	struct sched_engine *e;
	struct sched_task_info a, b;
	struct sched_cpu_info ci;

	eng_task(f, 0, 1 * MS, NULL);
	eng_task(f, 0, 1 * MS, NULL);
	e = fx_start(f);
	sched_run_until(e, 3 * NSEC_PER_SEC);
	sched_task_info(e, 0, &a);
	sched_task_info(e, 1, &b);
	sched_cpu_info(e, 0, &ci);
	assert_near(a.avg.util_avg, 512, 0.02L, 0, "hog A util_avg");
	assert_near(b.avg.util_avg, 512, 0.02L, 0, "hog B util_avg");
	assert_near(a.avg.runnable_avg, 1024, 0.01L, 0, "hog A runnable_avg");
	assert_near(b.avg.runnable_avg, 1024, 0.01L, 0, "hog B runnable_avg");
	assert_near(a.avg.load_avg, 1024, 0.01L, 0, "hog A load_avg");
	assert_near(b.avg.load_avg, 1024, 0.01L, 0, "hog B load_avg");
	assert_near(ci.avg.util_avg, 1024, 0.01L, 0, "cfs_rq util_avg");
	assert_near(ci.avg.load_avg, 2048, 0.01L, 0, "cfs_rq load_avg");
	assert_near(ci.avg.runnable_avg, 2048, 0.01L, 0, "cfs_rq runnable_avg (counts tasks)");
	fx_free(f);
}

/* A hog of nice -5: load_avg -> its weight 3121. */
static void test_engine_load_is_weight(void **state)
{
	struct fx *f = eng_new();
	struct sched_engine *e;
	struct sched_task_info ti;
	struct sched_cpu_info ci;

	eng_task(f, -5, 2 * MS, NULL);
	e = fx_start(f);
	sched_run_until(e, 2 * NSEC_PER_SEC);
	sched_task_info(e, 0, &ti);
	sched_cpu_info(e, 0, &ci);
	assert_near(ti.avg.load_avg, 3121, 0.01L, 0, "nice -5 load_avg");
	assert_near(ci.avg.load_avg, 3121, 0.01L, 0, "cfs_rq load_avg");
	assert_near(ti.avg.util_avg, 1024, 0.01L, 0, "nice -5 util_avg");
	fx_free(f);
}

/* Run 300 ms, sleep 64 ms: on waking, util_avg has decayed by y^(64 ms in periods). */
static void check_engine_sleep_decay(u64 start)
{
	struct fx *f = eng_new();
	struct sched_engine *e;
	struct prog_insn insn[3] = {
		{ .op = PROG_RUN, .dur = { DIST_CONST, 300 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 64 * MS, 0 } },
		{ .op = PROG_RUN_FOREVER },
	};
	struct sched_program prog = { .nr_insns = 3, .insn = insn };
	struct sched_task_info ti;

	eng_task(f, 0, start, &prog);
	e = fx_start(f);
	sched_run_until(e, start + 300 * MS);
	sched_task_info(e, 0, &ti);
	assert_int_equal(ti.state, TASK_INTERRUPTIBLE);
	long double u0 = ti.avg.util_avg;
	/* it blocked after running 300 ms from 512: 1024 - 512 y^p */
	assert_near(u0, 1024 - 512 * y_pow(periods_of(300 * MS)), 0.02L, 1, "util at sleep");
	sched_run_until(e, start + 364 * MS);
	sched_task_info(e, 0, &ti);
	assert_int_equal(ti.state, TASK_RUNNING);
	long double want = u0 * y_pow(periods_of(64 * MS));
	assert_near(ti.avg.util_avg, want, 0.02L, 2, "util_avg after 64 ms asleep");
	assert_near(ti.avg.load_avg, 1024 * y_pow(periods_of(64 * MS)), 0.03L, 2,
		    "load_avg after 64 ms asleep");
	fx_free(f);
}

static void test_engine_sleep_decay(void **state)
{
	check_engine_sleep_decay(1 * MS);
}

/* The same from t = 0 (regression: the task once slept and woke with util 512). */
static void test_engine_sleep_decay_forked_at_zero(void **state)
{
	check_engine_sleep_decay(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_32_is_half),
		cmocka_unit_test(test_decay_vs_exact),
		cmocka_unit_test(test_decay_cutoff),
		cmocka_unit_test(test_load_avg_max),
		cmocka_unit_test(test_closed_form_running),
		cmocka_unit_test(test_closed_form_waiting),
		cmocka_unit_test(test_long_run_saturates),
		cmocka_unit_test(test_sleep_halves),
		cmocka_unit_test(test_units_and_carry),
		cmocka_unit_test_teardown(test_engine_hog_forked_later, fx_cleanup),
		cmocka_unit_test_teardown(test_engine_hog_forked_at_zero, fx_cleanup),
		cmocka_unit_test_teardown(test_engine_two_hogs, fx_cleanup),
		cmocka_unit_test_teardown(test_engine_load_is_weight, fx_cleanup),
		cmocka_unit_test_teardown(test_engine_sleep_decay, fx_cleanup),
		cmocka_unit_test_teardown(test_engine_sleep_decay_forked_at_zero, fx_cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
