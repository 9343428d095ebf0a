// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups and CFS bandwidth: calc_group_shares() against numbers worked
 * by hand, the split of a group's weight across CPUs, h_load, and the pool,
 * slices, slack and burst of cpu.max.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"

#define MS NSEC_PER_MSEC

static struct task_group *TG(struct fx *f, int g)
{
	return &f->e->st->tg[g];
}

/*
 * shares = tg_shares * load / (tg->load_avg - contrib + load), load =
 * max(load.weight, load_avg) unscaled, clamped to [2, tg_shares].
 */
static void test_calc_group_shares(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct cfs_rq *q;

	fx_group(f, 0, 1024, RUNTIME_INF, 100 * MS, 0);
	fx_start(f);
	q = TG(f, 1)->cfs_rq[0];

	TG(f, 1)->load_avg = 3000;
	q->tg_load_avg_contrib = 1000;
	q->load.weight = scale_load(2048);
	q->avg.load_avg = 500;
	/* 1048576 * 2048 / (3000 - 1000 + 2048) = 530504 */
	assert_int_equal(calc_group_shares(q), 530504);

	/* the PELT average wins when it is the larger: load = 4000, 1048576 * 4000 / 6000 */
	q->avg.load_avg = 4000;
	assert_int_equal(calc_group_shares(q), 699050);

	/* never above the group's shares... */
	TG(f, 1)->load_avg = 0;
	q->tg_load_avg_contrib = 0;
	assert_int_equal(calc_group_shares(q), scale_load(1024));
	/* ...and never below MIN_SHARES (2, unscaled) */
	q->load.weight = 0;
	q->avg.load_avg = 1;
	TG(f, 1)->load_avg = 100000000;
	assert_int_equal(calc_group_shares(q), 2);
}

/*
 * Group A has a hog on each of two CPUs, group B two hogs on CPU 0. A's
 * weight 1024 splits by load: about 512 per CPU. So on CPU 0 A's entity
 * weighs 512 against B's 1024: A's task gets 1/3 of CPU 0 and all of CPU 1,
 * B's two tasks 1/3 each.
 */
static void test_shares_split_across_cpus(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	u64 run[4];
	int a = fx_group(f, 0, 1024, RUNTIME_INF, 100 * MS, 0);
	int b = fx_group(f, 0, 1024, RUNTIME_INF, 100 * MS, 0);

	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = a;
	fx_add_task(f, 0, SCHED_NORMAL, 1, NULL)->group = a;
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = b;
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = b;
	fx_run_times(f, 4, 10 * NSEC_PER_SEC, run);

	assert_in_range(scale_load_down(TG(f, a)->se[0]->load.weight), 480, 545);
	assert_in_range(scale_load_down(TG(f, a)->se[1]->load.weight), 480, 545);
	assert_in_range(scale_load_down(TG(f, b)->se[0]->load.weight), 1000, 1024);
	/* CPU time over 10 s: 3.33 s, 10 s, 3.33 s, 3.33 s (within 3 %) */
	assert_in_range(run[0], 3233 * MS, 3433 * MS);
	assert_in_range(run[1], 9990 * MS, 10000 * MS);
	assert_in_range(run[2], 3233 * MS, 3433 * MS);
	assert_in_range(run[3], 3233 * MS, 3433 * MS);
}

/* h_load hands the CPU's load down the hierarchy: the tasks' h_loads add up to it. */
static void test_h_load_sums_to_cpu_load(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	int a = fx_group(f, 0, 2048, RUNTIME_INF, 100 * MS, 0);
	int ab = fx_group(f, a, 1024, RUNTIME_INF, 100 * MS, 0);
	int c = fx_group(f, 0, 512, RUNTIME_INF, 100 * MS, 0);
	unsigned long sum = 0, root;

	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = a;
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = ab;
	fx_add_task(f, 5, SCHED_NORMAL, 0, NULL)->group = ab;
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = c;
	fx_start(f);
	sched_run_until(f->e, 5 * NSEC_PER_SEC);
	root = cpu_rq(0)->cfs.avg.load_avg;
	for (int i = 0; i < 4; i++)
		sum += task_h_load(T(f->e, i));
	/* each division rounds down (and divides by load + 1): a few units lost per level */
	assert_true(root > 500);
	assert_in_range(sum, root - root / 50, root);
	/* the group of weight 512 holds 512/2560 of the load, and so does its only task */
	assert_in_range(task_h_load(T(f->e, 3)), root * 512 / 2560 - root / 25, root * 512 / 2560 + root / 25);
}

/* 20 ms per 100 ms on one CPU: one throttle and one unthrottle per period, 20 ms run each. */
static void test_bandwidth_quota(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	int g = fx_group(f, 0, 1024, 20 * MS, 100 * MS, 0);
	u64 run[1];

	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = g;
	fx_run_times(f, 1, 2 * NSEC_PER_SEC, run);
	/* 20 periods (21 started by the random phase), HZ 1000: overrun below 1 ms each */
	assert_in_range(run[0], 400 * MS, 421 * MS + 21 * MS);
	assert_in_range(TG(f, g)->cfs_bandwidth.nr_periods, 19, 20);
	/* every period but perhaps the first, cut short by the timer's random phase */
	assert_in_range(TG(f, g)->cfs_bandwidth.nr_throttled, TG(f, g)->cfs_bandwidth.nr_periods - 1,
			TG(f, g)->cfs_bandwidth.nr_periods);
	/* throttled ~80 ms of each period */
	assert_in_range(TG(f, g)->cfs_bandwidth.throttled_time, 19 * 79 * MS, 21 * 81 * MS);
}

/*
 * A queue takes a 5 ms slice; its task runs 2 ms and sleeps: the queue
 * keeps 1 ms (min_cfs_rq_runtime) and gives the other 2 ms back.
 */
static void test_bandwidth_slack_return(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	int g = fx_group(f, 0, 1024, 50 * MS, 1000 * MS, 0);
	struct prog_insn p[2] = {
		{ .op = PROG_RUN, .dur = { DIST_CONST, 2 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 500 * MS, 0 } },
	};
	struct cfs_bandwidth *b;

	fx_add_task(f, 0, SCHED_NORMAL, 0, fx_program(f, 0, p, 2, 0))->group = g;
	fx_start(f);
	sched_run_until(f->e, 100 * MS);
	b = &TG(f, g)->cfs_bandwidth;
	assert_int_equal(TG(f, g)->cfs_rq[0]->runtime_remaining, (s64)MS);
	if (b->nr_periods == 0)
		assert_int_equal(b->runtime, 50 * MS - 5 * MS + 2 * MS);
}

/* Unused quota carries over up to the burst: after idle periods the pool holds quota + burst. */
static void test_bandwidth_burst(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	int g = fx_group(f, 0, 1024, 10 * MS, 100 * MS, 10 * MS);
	struct prog_insn p[2] = {
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 550 * MS, 0 } },
		{ .op = PROG_RUN_FOREVER },
	};
	struct cfs_bandwidth *b;
	u64 run[1];

	fx_add_task(f, 0, SCHED_NORMAL, 0, fx_program(f, 0, p, 2, 0))->group = g;
	fx_start(f);
	b = &TG(f, g)->cfs_bandwidth;
	/* the task slept at once and the timer went idle; the pool was refilled to quota + burst */
	sched_run_until(f->e, 540 * MS);
	assert_int_equal(b->runtime, 20 * MS);
	fx_free(f);

	f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	g = fx_group(f, 0, 1024, 10 * MS, 100 * MS, 10 * MS);
	fx_add_task(f, 0, SCHED_NORMAL, 0, fx_program(f, 0, p, 2, 0))->group = g;
	fx_run_times(f, 1, 1550 * MS, run);
	b = &TG(f, g)->cfs_bandwidth;
	/* the first busy period used its 10 ms and the 10 ms of burst: one burst counted */
	assert_int_equal(b->nr_burst, 1);
	assert_in_range(b->burst_time, 9 * MS, 10 * MS);
	/* 1 s of running: 10 ms per period plus the 10 ms of burst once (+ tick overruns) */
	assert_in_range(run[0], 110 * MS, 125 * MS);
}

/* A parent's quota bounds its children: 30 ms / 100 ms on /p over two children without limits. */
static void test_bandwidth_hierarchical(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	int p = fx_group(f, 0, 1024, 30 * MS, 100 * MS, 0);
	int c1 = fx_group(f, p, 1024, RUNTIME_INF, 100 * MS, 0);
	int c2 = fx_group(f, p, 1024, RUNTIME_INF, 100 * MS, 0);
	u64 run[2];

	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = c1;
	fx_add_task(f, 0, SCHED_NORMAL, 1, NULL)->group = c2;
	fx_run_times(f, 2, 5 * NSEC_PER_SEC, run);
	/* 50 periods of 30 ms = 1.5 s between them, plus at most a period and tick overruns */
	assert_in_range(run[0] + run[1], 1500 * MS, 1500 * MS + 30 * MS + 100 * MS);
}

/*
 * Where the throttled tasks are: through 6.17 they stay queued in the
 * group's queue and the group's entity leaves the CPU; from 6.18 each task
 * leaves for the queue's limbo list as it is picked, and the emptied queue's
 * entity follows. Both come back at the refill.
 */
static void throttled_tasks_at(int kernel, u64 t, bool *group_on_rq, int *queued, int *limbo, bool *throttled)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	int g = fx_group(f, 0, 1024, 10 * MS, 100 * MS, 0);

	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = g;
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL)->group = g;
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL);	/* in the root: the CPU never idles */
	fx_start(f);
	sched_run_until(f->e, t);
	*group_on_rq = TG(f, g)->se[0]->on_rq;
	*queued = (int)TG(f, g)->cfs_rq[0]->h_nr_running;
	*limbo = TG(f, g)->cfs_rq[0]->nr_limbo;
	*throttled = TG(f, g)->cfs_rq[0]->throttled;
	fx_free(f);
}

static void test_throttle_models(void **state)
{
	bool on_rq, throttled;
	int queued, limbo;
	u64 when = 0;

	/* find a moment the group is throttled under 6.12 (the period's phase is random) */
	for (u64 t = 50 * MS; t < 300 * MS; t += 10 * MS) {
		throttled_tasks_at(KV(6, 12), t, &on_rq, &queued, &limbo, &throttled);
		if (throttled) {
			when = t;
			break;
		}
	}
	assert_true(when);
	assert_false(on_rq);
	assert_int_equal(queued, 2);
	assert_int_equal(limbo, 0);

	throttled_tasks_at(KV(6, 18), when, &on_rq, &queued, &limbo, &throttled);
	assert_true(throttled);
	assert_false(on_rq);
	assert_int_equal(queued, 0);
	assert_int_equal(limbo, 2);

	/* a whole second later every period has refilled and throttled again: never lost */
	throttled_tasks_at(KV(6, 18), when + NSEC_PER_SEC + 50 * MS, &on_rq, &queued, &limbo, &throttled);
	assert_int_equal(queued + limbo, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_calc_group_shares, fx_cleanup),
		cmocka_unit_test_teardown(test_shares_split_across_cpus, fx_cleanup),
		cmocka_unit_test_teardown(test_h_load_sums_to_cpu_load, fx_cleanup),
		cmocka_unit_test_teardown(test_bandwidth_quota, fx_cleanup),
		cmocka_unit_test_teardown(test_bandwidth_slack_return, fx_cleanup),
		cmocka_unit_test_teardown(test_bandwidth_burst, fx_cleanup),
		cmocka_unit_test_teardown(test_bandwidth_hierarchical, fx_cleanup),
		cmocka_unit_test_teardown(test_throttle_models, fx_cleanup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
