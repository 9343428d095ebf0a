// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy CFS (kernel/sched/fair.c before 6.6; variant SCHED_VARIANT_CFS, rules of 6.1
 * and 3.3): tunables and their CPU-count factor, sched_slice() and the
 * period stretch past sched_nr_latency, tick preemption, nice shares of
 * hogs, START_DEBIT and the sleeper credit of GENTLE_FAIR_SLEEPERS.
 *
 * Expected slices are hand-computed (tables below); shares come from the
 * weight table; placements from the notes' formulas.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

/* ---- a scenario built by hand ---- */

/* sleep S; run forever */
static const struct sched_program *fx_sleep_then_run(struct fx *f, int slot, u64 sleep)
{
	struct prog_insn *in = f->insn[slot];

	in[0] = (struct prog_insn){ .op = PROG_SLEEP, .dur = { DIST_CONST, sleep, 0 } };
	in[1] = (struct prog_insn){ .op = PROG_RUN_FOREVER };
	f->prog[slot] = (struct sched_program){ .nr_insns = 2, .insn = in };
	return &f->prog[slot];
}

/* ---- tunables ---- */

static void test_tunables_scaled(void **state)
{
	/* factor 1 + ilog2(min(ncpus, 8)) (notes §3.2) */
	const int ncpus[] = { 1, 2, 3, 4, 7, 8, 16 };
	const u64 lat[] = { 6 * MS, 12 * MS, 12 * MS, 18 * MS, 18 * MS, 24 * MS, 24 * MS };
	const u64 gran[] = { 750 * US, 1500 * US, 1500 * US, 2250 * US, 2250 * US, 3 * MS, 3 * MS };
	const u64 wgran[] = { 1 * MS, 2 * MS, 2 * MS, 3 * MS, 3 * MS, 4 * MS, 4 * MS };
	const int kv[] = { KV(6, 1), KV(3, 3), KV(5, 15) };

	for (size_t i = 0; i < ARRAY_SIZE(ncpus); i++) {
		for (size_t k = 0; k < ARRAY_SIZE(kv); k++) {
			struct fx *f = fx_new(ncpus[i], kv[k], SCHED_VARIANT_CFS);
			fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
			struct sched_engine *e = fx_start(f);

			assert_int_equal(sched_variant(e), SCHED_VARIANT_CFS);
			assert_int_equal(sched_tunable_value(e, TUN_LATENCY), lat[i]);
			assert_int_equal(sched_tunable_value(e, TUN_MIN_GRANULARITY), gran[i]);
			assert_int_equal(sched_tunable_value(e, TUN_WAKEUP_GRANULARITY), wgran[i]);
			/* not scaled */
			assert_int_equal(sched_tunable_value(e, TUN_IDLE_MIN_GRANULARITY), 750 * US);
			assert_int_equal(sched_tunable_value(e, TUN_MIGRATION_COST), 500 * US);
			fx_free(f);
		}
	}
}

/* Features of the legacy class: sleepers, debit, last buddy; ALT_PERIOD/BASE_SLICE from 5.13. */
static void test_features(void **state)
{
	struct fx *f = fx_new(1, KV(6, 1), SCHED_VARIANT_CFS);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);

	assert_true(sched_feature_enabled(e, FEAT_GENTLE_FAIR_SLEEPERS));
	assert_true(sched_feature_enabled(e, FEAT_START_DEBIT));
	assert_true(sched_feature_enabled(e, FEAT_LAST_BUDDY));
	assert_true(sched_feature_enabled(e, FEAT_ALT_PERIOD));
	assert_true(sched_feature_enabled(e, FEAT_BASE_SLICE));
	assert_true(sched_feature_enabled(e, FEAT_WAKEUP_PREEMPTION));
	assert_false(sched_feature_enabled(e, FEAT_NEXT_BUDDY));
	assert_false(sched_feature_enabled(e, FEAT_PLACE_LAG));
	assert_false(sched_feature_enabled(e, FEAT_DELAY_DEQUEUE));
	fx_free(f);

	f = fx_new(1, KV(3, 3), SCHED_VARIANT_CFS);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	e = fx_start(f);
	assert_true(sched_feature_enabled(e, FEAT_GENTLE_FAIR_SLEEPERS));
	assert_true(sched_feature_enabled(e, FEAT_START_DEBIT));
	assert_false(sched_feature_enabled(e, FEAT_ALT_PERIOD));
	assert_false(sched_feature_enabled(e, FEAT_BASE_SLICE));
	fx_free(f);
}

/* ---- sched_slice ---- */

/*
 * N equal nice-0 hogs on one CPU. period = latency, or N * min_granularity
 * past sched_nr_latency = 8; slice = period * 1024 / (N * 1024) through
 * __calc_delta() with the queue's recomputed inverse floor((2^32-1)/(1024 N)),
 * i.e. floor(period * 1024 * inv / 2^32) (a hair below period / N); 6.1's
 * BASE_SLICE then raises it to min_granularity. Hand-computed:
 */
struct slice_case {
	int n;
	u64 period;
	u64 fp;		/* fixed-point period / N */
};

static const struct slice_case slices_1cpu[] = {	/* latency 6 ms, min_gran 0.75 ms */
	{ 1, 6000000, 5999998 }, { 2, 6000000, 2999998 }, { 3, 6000000, 1999999 },
	{ 5, 6000000, 1199998 }, { 7, 6000000, 857142 },  { 8, 6000000, 749998 },
	{ 9, 6750000, 749998 },  { 10, 7500000, 749999 }, { 16, 12000000, 749997 },
	{ 20, 15000000, 749999 },
};

static const struct slice_case slices_4cpu[] = {	/* latency 18 ms, min_gran 2.25 ms */
	{ 1, 18000000, 17999995 }, { 2, 18000000, 8999995 }, { 3, 18000000, 5999998 },
	{ 7, 18000000, 2571427 },  { 8, 18000000, 2249995 }, { 9, 20250000, 2249996 },
	{ 10, 22500000, 2249997 }, { 16, 36000000, 2249991 },
};

/*
 * Before 3.14, calc_delta_mine(): inv = 2^32 / (1024 N) truncated, and
 * period * 1024 = 6.144e9 > 2^32 takes the split path
 * SRR(SRR(period * 1024, 16) * inv, 16) (SRR rounds to nearest): so
 * N = 2 gives exactly 3 ms, N = 3 (inv 1398101) 93750 * 1398101 / 2^16 =
 * 1999999.98 -> 2000000, and N = 9 (6.75 ms, inv 466033) 105469 * 466033
 * / 2^16 = 750000.7 -> 750001: rounded, either side of period / N.
 */
static const struct slice_case slices_1cpu_33[] = {
	{ 1, 6000000, 6000000 },  { 2, 6000000, 3000000 },  { 3, 6000000, 2000000 }, { 5, 6000000, 1199999 },
	{ 7, 6000000, 857142 },	  { 8, 6000000, 750000 },   { 9, 6750000, 750001 },  { 10, 7500000, 750002 },
	{ 16, 12000000, 750000 }, { 20, 15000000, 749999 },
};

static const struct slice_case slices_4cpu_33[] = {
	{ 1, 18000000, 18000000 }, { 2, 18000000, 9000000 },  { 3, 18000000, 5999999 },
	{ 7, 18000000, 2571427 },  { 8, 18000000, 2250000 },  { 9, 20250000, 2249994 },
	{ 10, 22500000, 2250001 }, { 16, 36000000, 2250000 },
};

static void check_slices(int kernel, int ncpus, const struct slice_case *c, size_t nc, u64 gran)
{
	for (size_t k = 0; k < nc; k++) {
		struct fx *f = fx_new(ncpus, kernel, SCHED_VARIANT_CFS);
		bool base_slice = kernel >= KV(5, 13);
		u64 want = base_slice ? MAX(c[k].fp, gran) : c[k].fp;

		for (int i = 0; i < c[k].n; i++)
			fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		struct sched_engine *e = fx_start(f);
		sched_run_until(e, 100 * MS + 500 * US);
		sched_enter(e);
		struct cfs_rq *cfs = &cpu_rq(0)->cfs;
		assert_int_equal(cfs->nr_running, c[k].n);
		/* sanity of the table: a hair below period / N (3.3: within a few ns) */
		if (kernel >= KV(3, 14))
			assert_true(c[k].fp <= c[k].period / (u64)c[k].n);
		assert_true(c[k].fp + 10 >= c[k].period / (u64)c[k].n &&
			    c[k].fp <= c[k].period / (u64)c[k].n + 10);
		for (int i = 0; i < c[k].n; i++) {
			u64 got = sched_slice(cfs, &T(e, i)->se);
			if (got != want)
				fail_msg("kernel %d, %d CPUs, %d hogs: sched_slice = %llu, want %llu",
					 kernel, ncpus, c[k].n, (unsigned long long)got,
					 (unsigned long long)want);
		}
		fx_free(f);
	}
}

static void test_sched_slice_equal_tasks(void **state)
{
	check_slices(KV(6, 1), 1, slices_1cpu, ARRAY_SIZE(slices_1cpu), 750 * US);
	check_slices(KV(3, 3), 1, slices_1cpu_33, ARRAY_SIZE(slices_1cpu_33), 750 * US);
	check_slices(KV(6, 1), 4, slices_4cpu, ARRAY_SIZE(slices_4cpu), 2250 * US);
	check_slices(KV(3, 3), 4, slices_4cpu_33, ARRAY_SIZE(slices_4cpu_33), 2250 * US);
	/* 3.14 brought __calc_delta() */
	check_slices(KV(3, 13), 1, slices_1cpu_33, ARRAY_SIZE(slices_1cpu_33), 750 * US);
	check_slices(KV(3, 14), 1, slices_1cpu, ARRAY_SIZE(slices_1cpu), 750 * US);
}

/* Unequal weights, and an entity not yet queued (counted as one more). */
static void test_sched_slice_weighted(void **state)
{
	const int kv[] = { KV(6, 1), KV(3, 3) };

	for (size_t k = 0; k < ARRAY_SIZE(kv); k++) {
		struct fx *f = fx_new(1, kv[k], SCHED_VARIANT_CFS);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
		struct sched_engine *e = fx_start(f);
		sched_run_until(e, 50 * MS + 500 * US);
		sched_enter(e);
		struct cfs_rq *cfs = &cpu_rq(0)->cfs;

		/* 6 ms * 1024 / 1694 = 3626918.5 and 6 ms * 335 / 1694 = 1186540.7, truncated
		 * by the fixed point to 3626917 and 1186540 (3.3 likewise: inv 2535399,
		 * SRR(93750 * 2535399, 16) = 3626917, SRR(6e6 * 335 * 2535399, 32) = 1186540) */
		assert_int_equal(sched_slice(cfs, &T(e, 0)->se), 3626917);
		assert_int_equal(sched_slice(cfs, &T(e, 1)->se), 1186540);
		assert_int_equal(sched_slice(cfs, &T(e, 2)->se), 1186540);

		/* a nice-0 task about to join (not queued): the period of 4 tasks (6 ms)
		 * over 1694 + 1024: 6e6 * 1024 / 2718 = 2260485.65, a hair less */
		struct task_struct *p = calloc(1, sizeof(*p));
		assert_non_null(p);
		p->policy = SCHED_NORMAL;
		p->se.load.weight = NICE_0_LOAD;
		p->se.load.inv_weight = 4194304;
		p->se.cfs_rq = cfs;
		u64 s = sched_slice(cfs, &p->se);
		free(p);
		/* 3.3 rounds it up: SRR(93750 * 1580194, 16) = 2260485.6 -> 2260486 */
		if (kv[k] == KV(3, 3))
			assert_int_equal(s, 2260486);
		else
			assert_true(s <= 2260485 && s + 2 >= 2260485);
		fx_free(f);
	}

	/* a nice-19 hog among two nice-0: 6 ms * 15 / 2063 = 43625.8 -> 43625 (3.3
	 * rounds: 43626); 6.1's BASE_SLICE raises it to 0.75 ms, 3.3 has no floor */
	for (size_t k = 0; k < ARRAY_SIZE(kv); k++) {
		struct fx *f = fx_new(1, kv[k], SCHED_VARIANT_CFS);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 19, SCHED_NORMAL, 0, 0, NULL);
		struct sched_engine *e = fx_start(f);
		sched_run_until(e, 50 * MS + 500 * US);
		sched_enter(e);
		struct cfs_rq *cfs = &cpu_rq(0)->cfs;
		assert_int_equal(sched_slice(cfs, &T(e, 2)->se), kv[k] == KV(6, 1) ? 750000 : 43626);
		assert_int_equal(sched_slice(cfs, &T(e, 0)->se), 2978186);	/* 6e6*1024/2063 */
		fx_free(f);
	}
}

/* ---- tick preemption: turns last the slice, rounded up to the tick ---- */

struct turns {
	u64 in[FX_MAX_TASKS + 1];
	u64 nr, min, max;
	u64 after;
};

static void on_switch(void *ctx, const struct sched_event *ev)
{
	struct turns *t = ctx;

	if (ev->type != EV_SCHED_SWITCH)
		return;
	if (ev->sw.prev_pid && ev->time >= t->after && t->in[ev->sw.prev_pid] >= t->after) {
		u64 d = ev->time - t->in[ev->sw.prev_pid];
		t->nr++;
		t->min = MIN(t->min, d);
		t->max = MAX(t->max, d);
	}
	t->in[ev->sw.next_pid] = ev->time;
}

static void check_turns(int kernel, int n, u64 want)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_CFS);
	struct turns t = { .min = ~0ULL, .after = 200 * MS };

	for (int i = 0; i < n; i++)
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, on_switch, &t);
	sched_run_until(e, 2 * SEC);
	assert_true(t.nr > 100);
	if (t.min != want || t.max != want)
		fail_msg("kernel %d, %d hogs: turns of %llu..%llu ns, want %llu", kernel, n,
			 (unsigned long long)t.min, (unsigned long long)t.max, (unsigned long long)want);
	fx_free(f);
}

static void test_tick_preemption_turns(void **state)
{
	/* slice 2999998 (2 hogs) -> preempted at the 3rd tick; 1999999 (3) -> 2nd;
	 * 857142 (7) -> 1st; 0.75 ms (10, stretched period) -> 1st */
	check_turns(KV(6, 1), 2, 3 * MS);
	check_turns(KV(6, 1), 3, 2 * MS);
	check_turns(KV(6, 1), 7, 1 * MS);
	check_turns(KV(6, 1), 10, 1 * MS);
	/* 3.3's slices are exact (3 ms, 2 ms) and the tick resched wants more than
	 * the slice: a turn is one tick longer */
	check_turns(KV(3, 3), 2, 4 * MS);
	check_turns(KV(3, 3), 3, 3 * MS);
}

/* ---- the hrtick ---- */

static const char hrtick_dequeue_scn[] = "topology dual\n"
					 "hz 100\n"
					 "duration 20ms\n"
					 "feature HRTICK\n"
					 "noise off\n"
					 "kernel 6.1\n"
					 "sched cfs\n"
					 "task a cpus=0 program=\"run forever\"\n"
					 "task b cpus=0 program=\"run forever\"\n"
					 "task c cpus=0 program=\"run forever\"\n"
					 "at 1ms set cpus c 1\n";

static void on_first_switch_out(void *ctx, const struct sched_event *ev)
{
	u64 *out = ctx;

	if (ev->type == EV_SCHED_SWITCH && ev->sw.prev_pid == 1 && !*out)
		*out = ev->time;
}

/*
 * hrtick_update() at a dequeue: with three tasks on CPU 0 of two, a's slice
 * is 12 ms / 3 = 4 ms; c moving away at 1 ms makes it 12 / 2 = 6 ms, and the
 * hrtick armed for 4 ms is armed again for 6 ms (the hrtick's own tick
 * reschedules whatever the slice). 6.1's __calc_delta() makes that
 * 12e6 * (1024 * (2^32 - 1) / 2048) >> 32 = 5999997 ns. Without it a is
 * switched out at 4 ms.
 */
static void test_hrtick_follows_dequeue(void **state)
{
	struct scenario_file sf;
	struct sched_engine *e;
	char err[512];
	u64 out = 0;

	(void)state;
	assert_int_equal(scenario_parse("hrtick.scn", hrtick_dequeue_scn, strlen(hrtick_dequeue_scn), &sf,
					err, sizeof(err)),
			 0);
	e = sched_engine_create(&sf.sc, err, sizeof(err));
	assert_non_null(e);
	sched_add_listener(e, on_first_switch_out, &out);
	sched_run_until(e, 20 * MS);
	assert_int_equal(out, 5999997);
	sched_engine_destroy(e);
	scenario_free(&sf);
}

/* ---- shares ---- */

static void check_shares(int kernel, int n, const int *nice)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_CFS);
	double wsum = 0, w[FX_MAX_TASKS];
	u64 run[FX_MAX_TASKS];

	for (int i = 0; i < n; i++) {
		fx_task(f, nice[i], SCHED_NORMAL, 0, 0, NULL);
		w[i] = sched_prio_to_weight[nice[i] + 20];
		wsum += w[i];
	}
	u64 tot = fx_run_times(f, n, 10 * SEC, run);
	assert_true(tot <= 10 * SEC && tot >= 10 * SEC - 10 * MS);
	for (int i = 0; i < n; i++) {
		double share = 100.0 * (double)run[i] / (double)tot, want = 100.0 * w[i] / wsum;
		if (share < want - 0.5 || share > want + 0.5)
			fail_msg("kernel %d: nice %d got %.3f%%, weight share %.3f%%", kernel, nice[i],
				 share, want);
	}
	fx_free(f);
}

static void test_shares(void **state)
{
	const int a[] = { 0, 0, 5 }, b[] = { -5, 0, 5, 10 }, c[] = { 0, 1 };

	check_shares(KV(6, 1), 3, a);
	check_shares(KV(6, 1), 4, b);
	check_shares(KV(6, 1), 2, c);	/* 55.5 / 44.5 */
	check_shares(KV(3, 3), 3, a);
	check_shares(KV(3, 3), 4, b);
}

/* ---- placement ---- */

/*
 * START_DEBIT: a task forked next to a running hog starts one virtual slice
 * behind min_vruntime: sched_vslice for 2 nice-0 tasks = 2999998.
 */
static void test_start_debit(void **state)
{
	const int kv[] = { KV(6, 1), KV(3, 3) };

	for (size_t k = 0; k < ARRAY_SIZE(kv); k++) {
		struct fx *f = fx_new(1, kv[k], SCHED_VARIANT_CFS);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		int b = fx_task(f, 0, SCHED_NORMAL, 0, 50 * MS + 300 * US, NULL);
		struct sched_engine *e = fx_start(f);

		while (T(e, b)->state == TASK_NEW)
			assert_true(sched_step(e));
		struct sched_cpu_info ci;
		sched_cpu_info(e, 0, &ci);
		/* the hog alone was min_vruntime; the newcomer waits behind it */
		assert_int_equal(ci.min_vruntime, T(e, 0)->se.vruntime);
		/* 3.3: exactly 3 ms */
		assert_int_equal(T(e, b)->se.vruntime - ci.min_vruntime,
				 kv[k] == KV(3, 3) ? 3000000 : 2999998);
		assert_int_equal(ci.curr_pid, 1);
		fx_free(f);
	}
}

/*
 * The boot's forks as LinSched's harness makes them: its CPU schedules after
 * each (linsched_check_resched()), so the first hog runs when the next are
 * forked, and each starts at its parent's vruntime, above min_vruntime plus
 * the virtual slice (6, 3, 2 ms): all three equal.
 */
static void test_boot_forks_from_running(void **state)
{
	const int kv[] = { KV(3, 3), KV(6, 1) };

	for (size_t k = 0; k < ARRAY_SIZE(kv); k++) {
		struct fx *f = fx_new(1, kv[k], SCHED_VARIANT_CFS);
		for (int i = 0; i < 3; i++)
			fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		struct sched_engine *e = fx_start(f);

		while (sched_next_time(e) == 0)
			assert_true(sched_step(e));
		struct sched_cpu_info ci;
		sched_cpu_info(e, 0, &ci);
		assert_int_equal(ci.curr_pid, 1);
		for (int i = 1; i < 3; i++)
			if (T(e, i)->se.vruntime != T(e, 0)->se.vruntime)
				fail_msg("kernel %d: fork %d at %+lld from the first", kv[k], i,
					 (long long)(s64)(T(e, i)->se.vruntime - T(e, 0)->se.vruntime));
		fx_free(f);
	}
}

/*
 * A task past its slice but still leftmost is picked again. Until 3.15
 * __schedule() put it back and set it anew, so set_next_entity() started a
 * new slice; from 3.15 (678d5718d8d0) the pick keeps it without. A hog alone
 * since 0; at 50.3 ms a fork lands a slice (3 ms) behind it. At 51 ms its
 * 51 ms run exceeds the slice: picked again. 3.3: a new 3 ms slice, taken
 * at the tick after it (55 ms); 6.1: rescheduled at every tick until the
 * newcomer is leftmost (54 ms, 0.7 ms past it).
 */
static void test_repick_restarts_slice(void **state)
{
	const struct {
		int kernel;
		u64 at;
	} c[] = { { KV(3, 3), 55 * MS }, { KV(6, 1), 54 * MS } };

	for (size_t k = 0; k < ARRAY_SIZE(c); k++) {
		struct fx *f = fx_new(1, c[k].kernel, SCHED_VARIANT_CFS);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		int b = fx_task(f, 0, SCHED_NORMAL, 0, 50 * MS + 300 * US, NULL);
		struct sched_engine *e = fx_start(f);
		struct sched_cpu_info ci;

		do {
			assert_true(sched_step(e));
			sched_cpu_info(e, 0, &ci);
		} while (ci.curr_pid != b + 1);
		if (sched_now(e) != c[k].at)
			fail_msg("kernel %d: the newcomer first ran at %llu ns, want %llu", c[k].kernel,
				 (unsigned long long)sched_now(e), (unsigned long long)c[k].at);
		fx_free(f);
	}
}

/*
 * Sleeper credit (GENTLE_FAIR_SLEEPERS): a task waking from a long sleep is
 * placed at min_vruntime - latency/2 (SCHED_IDLE: min_granularity/2, 5.15+);
 * a short sleeper keeps its own, larger vruntime.
 */
static void check_sleeper(int kernel, int ncpus, int policy, u64 sleep, s64 credit, bool lifted)
{
	struct fx *f = fx_new(ncpus, kernel, SCHED_VARIANT_CFS);

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	/* forked once the hog runs, so START_DEBIT puts it behind the hog */
	int b = fx_task(f, 0, policy, 0, 20 * MS, fx_sleep_then_run(f, 1, sleep));
	struct sched_engine *e = fx_start(f);

	/* until it has gone to sleep, then until it wakes */
	while (T(e, b)->state != TASK_INTERRUPTIBLE)
		assert_true(sched_step(e));
	u64 v_before = T(e, b)->se.vruntime;
	while (T(e, b)->state != TASK_RUNNING)
		assert_true(sched_step(e));
	/* before 3.8 the CPU reschedules once its timers at that instant are done */
	for (u64 now = sched_now(e); kernel < KV(3, 8) && sched_next_time(e) == now;)
		assert_true(sched_step(e));
	struct sched_cpu_info ci;
	sched_cpu_info(e, 0, &ci);
	u64 v = T(e, b)->se.vruntime;
	if (lifted) {
		/* slept long: lifted to exactly min_vruntime - credit */
		if ((s64)(v - ci.min_vruntime) != -credit)
			fail_msg("kernel %d, %d CPUs: woke at min_vruntime %+lld, want -%lld", kernel,
				 ncpus, (long long)(s64)(v - ci.min_vruntime), (long long)credit);
		/* and min_vruntime is the hog's, which kept running */
		assert_int_equal(ci.min_vruntime, T(e, 0)->se.vruntime);
		/* far behind, it preempts the hog at once (gap > wakeup granularity);
		 * a SCHED_IDLE wakee never preempts a normal task */
		assert_int_equal(ci.curr_pid, policy == SCHED_IDLE ? 1 : b + 1);
	} else {
		/* short sleep: above the credit point, it keeps its own vruntime */
		assert_int_equal(v, v_before);
		assert_true((s64)(v - ci.min_vruntime) > -credit);
	}
	fx_free(f);
}

static void test_sleeper_credit(void **state)
{
	check_sleeper(KV(6, 1), 1, SCHED_NORMAL, 1 * SEC, 3 * MS, true);
	check_sleeper(KV(6, 1), 4, SCHED_NORMAL, 1 * SEC, 9 * MS, true);
	check_sleeper(KV(6, 1), 16, SCHED_NORMAL, 1 * SEC, 12 * MS, true);
	check_sleeper(KV(3, 3), 1, SCHED_NORMAL, 1 * SEC, 3 * MS, true);
	check_sleeper(KV(3, 3), 2, SCHED_NORMAL, 1 * SEC, 6 * MS, true);
	/* 5.15+ SCHED_IDLE: min_granularity / 2 */
	check_sleeper(KV(6, 1), 1, SCHED_IDLE, 1 * SEC, 375 * US, true);
	/* a 100 us nap: nothing to credit */
	check_sleeper(KV(6, 1), 1, SCHED_NORMAL, 100 * US, 3 * MS, false);
	check_sleeper(KV(3, 3), 4, SCHED_NORMAL, 100 * US, 9 * MS, false);
}

/* Without GENTLE_FAIR_SLEEPERS the credit is a whole latency. */
static void test_sleeper_credit_not_gentle(void **state)
{
	struct fx *f = fx_new(1, KV(6, 1), SCHED_VARIANT_CFS);

	f->sc.features_clear = FEAT_BIT(FEAT_GENTLE_FAIR_SLEEPERS);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	int b = fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_sleep_then_run(f, 1, 500 * MS));
	struct sched_engine *e = fx_start(f);
	while (T(e, b)->state != TASK_INTERRUPTIBLE)
		assert_true(sched_step(e));
	while (T(e, b)->state != TASK_RUNNING)
		assert_true(sched_step(e));
	struct sched_cpu_info ci;
	sched_cpu_info(e, 0, &ci);
	assert_int_equal((s64)(T(e, b)->se.vruntime - ci.min_vruntime), -(s64)(6 * MS));
	fx_free(f);
}

/*
 * A nice change keeps the vruntime: set_user_nice() dequeues with
 * DEQUEUE_SAVE only (kernel/sched/syscalls.c in 6.12, core.c in 6.1), so
 * dequeue_entity() stores the vruntime relative to min_vruntime without
 * calling update_min_vruntime(), and the ENQUEUE_RESTORE re-bases it on the
 * same min_vruntime. The only change is the runtime charged up to the call.
 *
 * Regression: the engine once dequeued with SAVE | MOVE here, which ran
 * update_min_vruntime() in between and moved the running hog's vruntime by
 * +1 ms instead of the +0.5 ms it ran.
 */
static void check_renice_keeps_vruntime(int kernel)
{
	const int who[] = { 0, 1 };

	for (size_t k = 0; k < ARRAY_SIZE(who); k++) {
		struct fx *f = fx_new(1, kernel, SCHED_VARIANT_CFS);
		char err[128];

		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		struct sched_engine *e = fx_start(f);
		/* half-way between two ticks: the running hog has 0.5 ms not yet charged */
		sched_run_until(e, 50 * MS + 500 * US);
		struct task_struct *p = T(e, who[k]);
		bool running = cpu_rq(0)->curr == p;
		u64 v = p->se.vruntime;

		struct sched_command c = { .kind = CMD_SET_NICE, .task = who[k], .value = 5 };
		assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
		sched_enter(e);
		assert_int_equal(p->se.load.weight, scale_load(335));
		/* nice 0 until the change: 0.5 ms of runtime is 500000 of vruntime */
		u64 want = v + (running ? 500 * US : 0);
		if (p->se.vruntime != want)
			fail_msg("kernel %d: renicing the %s hog moved its vruntime by %+lld, want %+lld",
				 kernel, running ? "running" : "waiting",
				 (long long)(s64)(p->se.vruntime - v), (long long)(s64)(want - v));
		fx_free(f);
	}
}

/* 6.1 only: 3.x had no DEQUEUE_SAVE/MOVE and always updated min_vruntime there. */
static void test_renice_keeps_vruntime(void **state)
{
	check_renice_keeps_vruntime(KV(6, 1));
	check_renice_keeps_vruntime(KV(5, 15));
}

/*
 * min_vruntime never goes backwards, and no queued entity is more than the
 * sleeper credit (latency/2) below it: placement lifts a sleeper to at least
 * min_vruntime - latency/2, and min_vruntime cannot pass a queued entity.
 */
static void test_min_vruntime_monotonic(void **state)
{
	struct fx *f = fx_new(1, KV(6, 1), SCHED_VARIANT_CFS);
	struct prog_insn in[4] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_UNIFORM, 100 * US, 5 * MS } },
		{ .op = PROG_SLEEP, .dur = { DIST_UNIFORM, 100 * US, 20 * MS } },
		{ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 },
	};
	struct sched_program p = { .nr_insns = 4, .insn = in, .nr_loops = 1 };

	fx_task(f, 0, SCHED_NORMAL, 0, 0, &p);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, &p);
	fx_task(f, -5, SCHED_NORMAL, 0, 0, &p);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	u64 last = 0;
	bool first = true;
	while (sched_now(e) < 1 * SEC && sched_step(e)) {
		struct sched_cpu_info ci;
		sched_cpu_info(e, 0, &ci);
		if (!first)
			assert_true((s64)(ci.min_vruntime - last) >= 0);
		last = ci.min_vruntime;
		first = false;
		sched_enter(e);
		struct cfs_rq *cfs = &cpu_rq(0)->cfs;
		if (cfs->curr && cfs->curr->on_rq)
			assert_true((s64)(cfs->curr->vruntime - ci.min_vruntime) >= -(s64)(3 * MS));
		for (struct sched_entity *se = __pick_first_entity(cfs); se; se = __pick_next_entity(se))
			assert_true((s64)(se->vruntime - ci.min_vruntime) >= -(s64)(3 * MS));
	}
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_tunables_scaled, fx_cleanup),
		cmocka_unit_test_teardown(test_features, fx_cleanup),
		cmocka_unit_test_teardown(test_sched_slice_equal_tasks, fx_cleanup),
		cmocka_unit_test_teardown(test_sched_slice_weighted, fx_cleanup),
		cmocka_unit_test_teardown(test_tick_preemption_turns, fx_cleanup),
		cmocka_unit_test_teardown(test_shares, fx_cleanup),
		cmocka_unit_test_teardown(test_start_debit, fx_cleanup),
		cmocka_unit_test_teardown(test_boot_forks_from_running, fx_cleanup),
		cmocka_unit_test_teardown(test_repick_restarts_slice, fx_cleanup),
		cmocka_unit_test_teardown(test_sleeper_credit, fx_cleanup),
		cmocka_unit_test_teardown(test_sleeper_credit_not_gentle, fx_cleanup),
		cmocka_unit_test_teardown(test_renice_keeps_vruntime, fx_cleanup),
		cmocka_unit_test_teardown(test_min_vruntime_monotonic, fx_cleanup),
		cmocka_unit_test(test_hrtick_follows_dequeue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
