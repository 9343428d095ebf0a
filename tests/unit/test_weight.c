// SPDX-License-Identifier: GPL-2.0
/*
 * Load weights (kernel/sched/core.c): the nice table, its inverse, the
 * fixed-point __calc_delta() against exact rational arithmetic, the
 * scale_load()/scale_load_down() pair and the SCHED_IDLE weight.
 *
 * Expected values are the notes' tables typed in by hand, or exact products
 * and quotients computed here with unsigned __int128 / long double; nothing
 * is computed by calling the code under test a second time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/internal.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

typedef unsigned __int128 u128;

/* kernel/sched/core.c: sched_prio_to_weight[], typed from the table (nice -20 .. 19). */
static const int notes_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

/* kernel/sched/core.c: sched_prio_to_wmult[]. */
static const u32 notes_wmult[40] = {
	48388, 59856, 76040, 92818, 118348, 147320, 184698, 229616, 287308, 360437,
	449829, 563644, 704093, 875809, 1099582, 1376151, 1717300, 2157191, 2708050, 3363326,
	4194304, 5237765, 6557202, 8165337, 10153587, 12820798, 15790321, 19976592, 24970740, 31350126,
	39045157, 49367440, 61356676, 76695844, 95443717, 119304647, 148102320, 186737708, 238609294, 286331153,
};

#define NICE(n) ((n) + 20)

/* The notes' definition of scale_load_down(), written out independently. */
static u64 ref_scale_load_down(u64 w)
{
	if (!w)
		return 0;
	return (w >> 10) < 2 ? 2 : (w >> 10);
}

/* ---- the tables ---- */

static void test_weight_table_matches_notes(void **state)
{
	for (int i = 0; i < 40; i++)
		assert_int_equal(sched_prio_to_weight[i], notes_weight[i]);
}

static void test_weight_spot_values(void **state)
{
	assert_int_equal(sched_prio_to_weight[NICE(-20)], 88761);
	assert_int_equal(sched_prio_to_weight[NICE(-10)], 9548);
	assert_int_equal(sched_prio_to_weight[NICE(-1)], 1277);
	assert_int_equal(sched_prio_to_weight[NICE(0)], 1024);
	assert_int_equal(sched_prio_to_weight[NICE(1)], 820);
	assert_int_equal(sched_prio_to_weight[NICE(5)], 335);
	assert_int_equal(sched_prio_to_weight[NICE(10)], 110);
	assert_int_equal(sched_prio_to_weight[NICE(19)], 15);
	assert_int_equal(NICE_0_LOAD, 1048576);
	assert_int_equal(NICE_TO_PRIO(0), 120);
	assert_int_equal(PRIO_TO_NICE(139), 19);
}

/* Each nice step is a factor of about 1.25 (notes §1.2: "≈ ×1.25"). */
static void test_weight_ratio_is_1_25(void **state)
{
	for (int i = 0; i < 39; i++) {
		double r = (double)sched_prio_to_weight[i] / sched_prio_to_weight[i + 1];

		/* the extremes are 18/15 = 1.200 and 23/18 = 1.278 */
		if (fabs(r - 1.25) > 0.05 + 1e-9)
			fail_msg("weight[%d]/weight[%d] = %f", i, i + 1, r);
	}
	/* over the whole table the geometric mean step is 1.25 within 0.5 % */
	double g = pow((double)sched_prio_to_weight[0] / sched_prio_to_weight[39], 1.0 / 39);
	assert_true(fabs(g - 1.25) < 0.00625);
	/* nice 0 vs nice 1: 55.5 % / 44.5 % (notes §1.2) */
	double s = 1024.0 / (1024 + 820);
	assert_true(fabs(s - 0.555) < 0.001);
}

static void test_wmult_table_matches_notes(void **state)
{
	for (int i = 0; i < 40; i++)
		assert_int_equal(sched_prio_to_wmult[i], notes_wmult[i]);
	assert_int_equal(sched_prio_to_wmult[NICE(0)], 4194304);	/* exactly 2^32 / 1024 */
	assert_int_equal(sched_prio_to_wmult[NICE(-20)], 48388);
	assert_int_equal(sched_prio_to_wmult[NICE(19)], 286331153);
}

/* wmult ≈ 2^32 / weight: within one unit of the exact quotient. */
static void test_wmult_is_inverse(void **state)
{
	for (int i = 0; i < 40; i++) {
		long double q = 4294967296.0L / sched_prio_to_weight[i];
		long double d = fabsl((long double)sched_prio_to_wmult[i] - q);

		if (d >= 1.0L)
			fail_msg("nice %d: wmult %u vs 2^32/%d = %.3Lf", i - 20,
				 sched_prio_to_wmult[i], sched_prio_to_weight[i], q);
		/* and so weight * wmult is 2^32 within one weight */
		u64 p = (u64)sched_prio_to_weight[i] * sched_prio_to_wmult[i];
		u64 err = p > (1ULL << 32) ? p - (1ULL << 32) : (1ULL << 32) - p;
		assert_true(err <= (u64)sched_prio_to_weight[i]);
	}
}

static void test_idle_weight(void **state)
{
	assert_int_equal(WEIGHT_IDLEPRIO, 3);
	assert_int_equal(WMULT_IDLEPRIO, 1431655765);
	/* floor(2^32 / 3) */
	assert_int_equal(WMULT_IDLEPRIO, (u32)((1ULL << 32) / 3));
}

/* ---- scale_load ---- */

static void test_scale_load(void **state)
{
	assert_int_equal(scale_load(0), 0);
	assert_int_equal(scale_load(1), 1024);
	assert_int_equal(scale_load(3), 3072);
	assert_int_equal(scale_load(1024), 1048576);
	assert_int_equal(scale_load(88761), 90891264);

	assert_int_equal(scale_load_down(0), 0);
	/* the floor of 2 for any non-zero weight (notes §1.7) */
	assert_int_equal(scale_load_down(1), 2);
	assert_int_equal(scale_load_down(1023), 2);
	assert_int_equal(scale_load_down(1024), 2);
	assert_int_equal(scale_load_down(2047), 2);
	assert_int_equal(scale_load_down(2048), 2);
	assert_int_equal(scale_load_down(3071), 2);
	assert_int_equal(scale_load_down(3072), 3);
	assert_int_equal(scale_load_down(1048576), 1024);
	assert_int_equal(scale_load_down(1048576 + 1023), 1024);
	assert_int_equal(scale_load_down(scale_load(15)), 15);
	for (unsigned long w = 3; w < 100000; w += 7)
		assert_int_equal(scale_load_down(scale_load(w)), w);
}

/* ---- __calc_delta ---- */

static const u64 deltas[] = {
	0, 1, 2, 7, 999, 1000, 1023, 1024, 4095, 100000, 299999, 300000, 700000, 750000,
	999999, 1000000, 1048576, 2100000, 3999999, 4000000, 10000000, 123456789,
	1000000000, 4294967295ULL, 4294967296ULL, 60000000000ULL, 1000000000000ULL,
	(1ULL << 40) + 5, (1ULL << 50) - 3, 1ULL << 54,
};

/*
 * Error bound (documented): with W = scale_load_down(lw.weight), the inverse
 * floor((2^32-1)/W) is at most (W+1)/2^32 relatively below 2^32/W; shifting
 * weight*inverse down to 32 bits loses less than 2^-31 relatively; the final
 * shift truncates less than 1. So
 *     exact - result <= exact * (W + 3) / 2^32 + 1,  and result <= floor(exact).
 */
static void check_calc_delta(u64 delta, unsigned long weight, unsigned long lw_weight)
{
	struct load_weight lw = { .weight = lw_weight, .inv_weight = 0 };
	u64 w = ref_scale_load_down(weight), W = ref_scale_load_down(lw_weight);
	u128 num = (u128)delta * w;
	u64 exact_floor = (u64)(num / W);
	long double exact = (long double)num / (long double)W;
	u64 got = __calc_delta(delta, weight, &lw);
	long double bound = exact * (long double)(W + 3) / 4294967296.0L + 1.0L;

	if (got > exact_floor)
		fail_msg("__calc_delta(%llu, %lu, %lu) = %llu > exact %llu", (unsigned long long)delta,
			 weight, lw_weight, (unsigned long long)got, (unsigned long long)exact_floor);
	if ((long double)(exact_floor - got) > bound)
		fail_msg("__calc_delta(%llu, %lu, %lu) = %llu, exact %llu: error above %.3Lf",
			 (unsigned long long)delta, weight, lw_weight, (unsigned long long)got,
			 (unsigned long long)exact_floor, bound);
	/* the lazily computed inverse is (2^32-1)/W, truncated */
	assert_int_equal(lw.inv_weight, (u32)(0xFFFFFFFFULL / W));
}

static void test_calc_delta_vs_exact(void **state)
{
	int n = 0;

	for (size_t d = 0; d < ARRAY_SIZE(deltas); d++) {
		for (int i = 0; i < 40; i++) {
			unsigned long w = scale_load((unsigned long)notes_weight[i]);

			/* alone on a queue, against nice 0, in queues of 2..9 equal tasks */
			check_calc_delta(deltas[d], w, w);
			check_calc_delta(deltas[d], w, NICE_0_LOAD);
			check_calc_delta(deltas[d], NICE_0_LOAD, w);
			for (int k = 2; k <= 9; k++)
				check_calc_delta(deltas[d], w, w * (unsigned long)k);
			/* with every other nice level on the queue */
			for (int j = 0; j < 40; j += 3)
				check_calc_delta(deltas[d], w,
						 w + scale_load((unsigned long)notes_weight[j]));
			n += 3 + 8 + 14;
		}
		/* SCHED_IDLE weight, and the scale_load_down() floor */
		check_calc_delta(deltas[d], scale_load(WEIGHT_IDLEPRIO), NICE_0_LOAD + scale_load(3));
		check_calc_delta(deltas[d], NICE_0_LOAD, scale_load(3));
		check_calc_delta(deltas[d], 1024, NICE_0_LOAD);		/* counts as weight 2 */
		check_calc_delta(deltas[d], 100, 3000);			/* 2 / 2 */
		/* large queues: a thousand nice -20 tasks */
		check_calc_delta(deltas[d], NICE_0_LOAD, scale_load(88761UL * 1000));
		check_calc_delta(deltas[d], scale_load(88761UL * 1000), scale_load(88761UL * 1001));
		n += 6;
	}
	assert_true(n > 7000);
}

/* Hand-computed cases. */
static void test_calc_delta_hand(void **state)
{
	struct load_weight lw;

	/* nice 0 against itself with the table inverse: 1024 * 4194304 = 2^32 exactly */
	lw = (struct load_weight){ NICE_0_LOAD, 4194304 };
	assert_int_equal(__calc_delta(1000000, NICE_0_LOAD, &lw), 1000000);
	assert_int_equal(__calc_delta(123456789, NICE_0_LOAD, &lw), 123456789);

	/* with a recomputed inverse (2^32-1)/1024 = 4194303 the result is one short */
	lw = (struct load_weight){ NICE_0_LOAD, 0 };
	assert_int_equal(__calc_delta(1000000, NICE_0_LOAD, &lw), 999999);
	assert_int_equal(lw.inv_weight, 4194303);

	/* an empty queue: inverse 2^32-1, so 1000 * 1024 * (2^32-1) / 2^32 = 1023999.76 */
	lw = (struct load_weight){ 0, 0 };
	assert_int_equal(__calc_delta(1000, NICE_0_LOAD, &lw), 1023999);

	/* two nice-0 tasks: 6 ms * 1024/2048; inverse 2097151, 1024*2097151 = 2147482624
	 * fits in 32 bits: 6000000 * 2147482624 >> 32 = 2999998.6 -> 2999998 */
	lw = (struct load_weight){ 2 * NICE_0_LOAD, 0 };
	assert_int_equal(__calc_delta(6000000, NICE_0_LOAD, &lw), 2999998);

	/* nice 5 with the table inverse: 1024 * 12820798 = 13128497152 > 2^32, so it
	 * is shifted right by fls(3) = 2 to 3282124288 with shift 30:
	 * 700000 * 3282124288 >> 30 = 2139701.56 -> 2139701 (exact 700000*1024/335 = 2139701.49) */
	lw = (struct load_weight){ scale_load(335), 12820798 };
	assert_int_equal(__calc_delta(700000, NICE_0_LOAD, &lw), 2139701);
}

/* calc_delta_fair(): delta itself for nice 0, else ≈ delta * 1024 / w with the table inverse. */
static void test_calc_delta_fair(void **state)
{
	for (size_t d = 0; d < ARRAY_SIZE(deltas); d++) {
		for (int i = 0; i < 40; i++) {
			struct sched_entity se;

			memset(&se, 0, sizeof(se));
			se.load.weight = scale_load((unsigned long)notes_weight[i]);
			se.load.inv_weight = notes_wmult[i];
			u64 got = calc_delta_fair(deltas[d], &se);

			if (i == NICE(0)) {
				/* exact: the nice-0 shortcut returns delta unchanged */
				assert_int_equal(got, deltas[d]);
				continue;
			}
			/* the table inverse is within one unit of 2^32/w (either side), so the
			 * result is within exact * w / 2^32 + 2^-31 relative, plus 1 */
			u128 num = (u128)deltas[d] * 1024;
			long double exact = (long double)num / notes_weight[i];
			long double tol = exact * ((long double)notes_weight[i] + 2) / 4294967296.0L + 1.0L;
			if (fabsl((long double)got - exact) > tol)
				fail_msg("calc_delta_fair(%llu) nice %d = %llu, exact %.3Lf",
					 (unsigned long long)deltas[d], i - 20, (unsigned long long)got, exact);
			/* and the inverse kept is the table's: calc_delta_fair must not recompute it */
			assert_int_equal(se.load.inv_weight, notes_wmult[i]);
		}
	}
	/* nice 0 is exact even with a stale inverse (a recomputed one would be
	 * 4194303 and give delta - 1): the shortcut returns delta itself */
	for (size_t d = 0; d < ARRAY_SIZE(deltas); d++) {
		struct sched_entity se0;

		memset(&se0, 0, sizeof(se0));
		se0.load.weight = NICE_0_LOAD;
		se0.load.inv_weight = 0;
		assert_int_equal(calc_delta_fair(deltas[d], &se0), deltas[d]);
	}
	/* hand-computed: nice 19, 1 ms -> 1000000 * 1024 / 15 = 68266666.67 */
	struct sched_entity se;
	memset(&se, 0, sizeof(se));
	se.load.weight = scale_load(15);
	se.load.inv_weight = 286331153;
	u64 v = calc_delta_fair(1000000, &se);
	assert_true(v >= 68266666 - 1 && v <= 68266666 + 1);
	/* SCHED_IDLE: 1 ms -> 1000000 * 1024 / 3 = 341333333.3 */
	se.load.weight = scale_load(WEIGHT_IDLEPRIO);
	se.load.inv_weight = WMULT_IDLEPRIO;
	v = calc_delta_fair(1000000, &se);
	assert_true(v >= 341333333 - 1 && v <= 341333333 + 1);
}

/*
 * calc_delta_mine() of the releases before 3.14, hand-computed from 3.3's
 * formula: inv = 2^32 / W (not 2^32 - 1), and SRR(x, y) = (x + 2^(y-1)) >> y.
 * delta * w above 2^32 takes SRR(SRR(delta * w, 16) * inv, 16).
 */
static void test_calc_delta_mine(void **state)
{
	struct load_weight lw = { .weight = scale_load(2048) };

	(void)state;
	/* 6e6 * 1024 = 6.144e9 > 2^32: SRR(93750 * 2097152, 16) = 3000000 exactly
	 * (__calc_delta() gives 2999998) */
	assert_int_equal(calc_delta_mine(6000000, NICE_0_LOAD, &lw), 3000000);
	assert_int_equal(__calc_delta(6000000, NICE_0_LOAD, &lw), 2999998);
	/* 1e6 * 1024 = 1.024e9: SRR(1.024e9 * 2097152, 32) = 500000 */
	assert_int_equal(calc_delta_mine(1000000, NICE_0_LOAD, &lw), 500000);
	lw.weight = scale_load(3072);
	/* inv = 1398101: SRR(93750 * 1398101, 16) = 1999999.98 -> 2000000 */
	assert_int_equal(calc_delta_mine(6000000, NICE_0_LOAD, &lw), 2000000);
	/* SRR(1024000 * 1398101, 32) = 333.33 -> 333 */
	assert_int_equal(calc_delta_mine(1000, NICE_0_LOAD, &lw), 333);
	lw.weight = scale_load(1694);
	/* inv = 2535399: SRR(6e6 * 335 * 2535399, 32) = 1186540.7 -> 1186540 */
	assert_int_equal(calc_delta_mine(6000000, scale_load(335), &lw), 1186540);
	/* calc_delta_fair() of nice 5: 1 ms * 1024 / 335 = 3056716.4, inv 12820798 */
	lw.weight = scale_load(335);
	assert_int_equal(calc_delta_mine(1000000, NICE_0_LOAD, &lw), 3056716);
	/* nice 19 among 1039: 4 ms * 15 / 1039 = 57747.8, rounded up (6.x truncates) */
	update_load_set(&lw, scale_load(1039));
	assert_int_equal(calc_delta_mine(4000000, scale_load(15), &lw), 57748);
	assert_int_equal(__calc_delta(4000000, scale_load(15), &lw), 57747);
}

/* update_load_add/sub/set leave the inverse stale (0) for lazy recomputation. */
static void test_update_load(void **state)
{
	struct load_weight lw = { NICE_0_LOAD, 4194304 };

	update_load_add(&lw, scale_load(335));
	assert_int_equal(lw.weight, scale_load(1024 + 335));
	assert_int_equal(lw.inv_weight, 0);
	lw.inv_weight = 123;
	update_load_sub(&lw, NICE_0_LOAD);
	assert_int_equal(lw.weight, scale_load(335));
	assert_int_equal(lw.inv_weight, 0);
	lw.inv_weight = 123;
	update_load_set(&lw, scale_load(15));
	assert_int_equal(lw.weight, scale_load(15));
	assert_int_equal(lw.inv_weight, 0);
	/* next use recomputes (2^32-1)/15 = 286331153 */
	(void)__calc_delta(1000, NICE_0_LOAD, &lw);
	assert_int_equal(lw.inv_weight, 286331153);
}

/* ---- the weights a real engine gives its tasks (set_load_weight) ---- */

static struct prog_insn forever_insn = { .op = PROG_RUN_FOREVER };
static struct sched_program forever = { .nr_insns = 1, .insn = &forever_insn };

static void test_engine_task_weights(void **state)
{
	struct sched_topo_cpu cpu = { .capacity = 1024 };
	u32 dist = 10;
	struct sched_topology topo = { .name = "one", .nr_cpus = 1, .cpu = &cpu, .nr_nodes = 1,
				       .distance = &dist };
	struct sched_task_spec task[4];
	const int nices[4] = { -20, 0, 19, 10 };
	const int policies[4] = { SCHED_NORMAL, SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE };
	struct sched_scenario sc = { .topo = &topo, .kernel = KV_LATEST, .variant = SCHED_VARIANT_EEVDF,
				     .hz = 1000, .seed = 1, .duration = NSEC_PER_SEC,
				     .nr_tasks = 4, .task = task };
	char err[128];

	memset(task, 0, sizeof(task));
	for (int i = 0; i < 4; i++) {
		snprintf(task[i].name, sizeof(task[i].name), "t%d", i);
		task[i].nice = nices[i];
		task[i].policy = policies[i];
		task[i].prog = &forever;
	}
	struct sched_engine *e = sched_engine_create(&sc, err, sizeof(err));
	assert_non_null(e);
	sched_run_until(e, 5 * NSEC_PER_MSEC);

	struct sched_task_info ti;
	sched_task_info(e, 0, &ti);
	assert_int_equal(ti.weight, 88761ULL << 10);
	sched_task_info(e, 1, &ti);
	assert_int_equal(ti.weight, 1024ULL << 10);
	sched_task_info(e, 2, &ti);
	assert_int_equal(ti.weight, 15ULL << 10);	/* BATCH: same weight as NORMAL */
	sched_task_info(e, 3, &ti);
	assert_int_equal(ti.weight, 3ULL << 10);	/* IDLE: weight 3 whatever the nice */
	assert_int_equal(ti.nice, 10);

	/* the inverse each task carries is the table's (or WMULT_IDLEPRIO) */
	sched_enter(e);
	assert_int_equal(e->st->task[0].se.load.inv_weight, 48388);
	assert_int_equal(e->st->task[1].se.load.inv_weight, 4194304);
	assert_int_equal(e->st->task[2].se.load.inv_weight, 286331153);
	assert_int_equal(e->st->task[3].se.load.inv_weight, 1431655765);

	/* the runqueue weight is the sum */
	struct sched_cpu_info ci;
	sched_cpu_info(e, 0, &ci);
	assert_int_equal(ci.load_weight, (88761ULL + 1024 + 15 + 3) << 10);

	/* renicing the idle task changes nothing; renicing task 1 to 5 gives 335 */
	struct sched_command c = { .kind = CMD_SET_NICE, .task = 3, .value = -20 };
	assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
	sched_task_info(e, 3, &ti);
	assert_int_equal(ti.weight, 3ULL << 10);
	c = (struct sched_command){ .kind = CMD_SET_NICE, .task = 1, .value = 5 };
	assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
	sched_task_info(e, 1, &ti);
	assert_int_equal(ti.weight, 335ULL << 10);
	assert_int_equal(e->st->task[1].se.load.inv_weight, 12820798);
	sched_cpu_info(e, 0, &ci);
	assert_int_equal(ci.load_weight, (88761ULL + 335 + 15 + 3) << 10);
	sched_engine_destroy(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weight_table_matches_notes),
		cmocka_unit_test(test_weight_spot_values),
		cmocka_unit_test(test_weight_ratio_is_1_25),
		cmocka_unit_test(test_wmult_table_matches_notes),
		cmocka_unit_test(test_wmult_is_inverse),
		cmocka_unit_test(test_idle_weight),
		cmocka_unit_test(test_scale_load),
		cmocka_unit_test(test_calc_delta_vs_exact),
		cmocka_unit_test(test_calc_delta_hand),
		cmocka_unit_test(test_calc_delta_fair),
		cmocka_unit_test(test_calc_delta_mine),
		cmocka_unit_test(test_update_load),
		cmocka_unit_test(test_engine_task_weights),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
