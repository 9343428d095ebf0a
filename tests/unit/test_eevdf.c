// SPDX-License-Identifier: GPL-2.0
/*
 * EEVDF (kernel/sched/fair.c: avg_vruntime(), entity_eligible(), pick_eevdf()) on real engine states: the weighted
 * average V, eligibility, the pick, fresh deadlines, the base slice and its
 * CPU-count factor, new-task placement, the lag clamp, CPU shares of hogs,
 * SCHED_IDLE and custom slices.
 *
 * Expected values are computed here from the entities themselves (exact
 * sums in __int128), or by hand (virtual slices below, derived from the
 * notes' wmult table: calc_delta_fair(d) = d * (1024 * wmult >> s) >> (32 - s)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

/*
 * Hand-computed virtual slices, calc_delta_fair(slice, nice):
 *   nice 0: the slice itself.
 *   nice 5 (wmult 12820798): 1024*wmult = 13128497152 > 2^32, >> 2 -> 3282124288, shift 30:
 *     700000 -> 2139701 (exact 2139701.49), 750000 -> 2292537, 1400000 -> 4279403
 *   nice -3 (wmult 2157191): 1024*wmult = 2208963584 < 2^32, shift 32:
 *     700000 -> 360020 (exact 360020.09), 750000 -> 385735
 *   nice 19 (wmult 286331153): 1400000 -> 95573333; SCHED_IDLE (1431655765): 1400000 -> 477866666
 */
#define VS_N0_700 700000
#define VS_N5_700 2139701
#define VS_N5_750 2292537
#define VS_N5_1400 4279403
#define VS_NM3_700 360020
#define VS_NM3_750 385735

/* ---- a scenario built by hand ---- */

/* loop { run R; sleep S } with constant or uniform durations */
/* Run e to t and enter it there: CPU 0's cfs_rq, as the kernel's code sees it then. */
static struct cfs_rq *cpu0_cfs_at(struct sched_engine *e, u64 t)
{
	sched_run_until(e, t);
	sched_enter(e);
	return &cpu_rq(0)->cfs;
}

static const struct sched_program *fx_periodic(struct fx *f, int slot, u64 run_lo, u64 run_hi,
					       u64 sleep_lo, u64 sleep_hi)
{
	struct prog_insn *in = f->insn[slot];

	in[0] = (struct prog_insn){ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 };
	in[1] = (struct prog_insn){ .op = PROG_RUN,
				    .dur = { run_lo == run_hi ? DIST_CONST : DIST_UNIFORM, run_lo, run_hi } };
	in[2] = (struct prog_insn){ .op = PROG_SLEEP,
				    .dur = { sleep_lo == sleep_hi ? DIST_CONST : DIST_UNIFORM, sleep_lo, sleep_hi } };
	in[3] = (struct prog_insn){ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 };
	f->prog[slot] = (struct sched_program){ .nr_insns = 4, .insn = in, .nr_loops = 1 };
	return &f->prog[slot];
}

/* ---- reference computations, from the entities alone ---- */

static u64 w_of(const struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
}

/* Every entity queued on the cfs_rq: curr (if queued) then the timeline. */
static int queued_entities(struct cfs_rq *cfs, struct sched_entity **out, int max)
{
	int n = 0;

	if (cfs->curr && cfs->curr->on_rq && n < max)
		out[n++] = cfs->curr;
	for (struct sched_entity *se = __pick_first_entity(cfs); se && n < max; se = __pick_next_entity(se))
		out[n++] = se;
	return n;
}

/* floor(Σ w_i v_i / Σ w_i), exact; *ok = false when the queue is empty. */
static u64 ref_V(struct sched_entity **q, int n)
{
	u64 ref = q[0]->vruntime;
	__int128 s = 0, w = 0;

	for (int i = 0; i < n; i++) {
		s += (__int128)(s64)(q[i]->vruntime - ref) * (__int128)w_of(q[i]);
		w += w_of(q[i]);
	}
	__int128 d = s / w;
	if (s % w != 0 && s < 0)
		d -= 1;		/* floor */
	return ref + (u64)(s64)d;
}

/* v <= V exactly: Σ w_i (v_i - v) >= 0 */
static bool ref_eligible(struct sched_entity **q, int n, u64 v)
{
	__int128 s = 0;

	for (int i = 0; i < n; i++)
		s += (__int128)(s64)(q[i]->vruntime - v) * (__int128)w_of(q[i]);
	return s >= 0;
}

/* ---- V and eligibility ---- */

static void check_V_state(struct sched_engine *e, u64 *nchecks)
{
	struct cfs_rq *cfs = &cpu_rq(0)->cfs;
	struct sched_entity *q[FX_MAX_TASKS];
	int n = queued_entities(cfs, q, FX_MAX_TASKS);

	assert_int_equal(n, cfs->nr_running);
	if (!n)
		return;

	u64 V = ref_V(q, n);
	u64 got = avg_vruntime_peek(cfs);
	if (got != V)
		fail_msg("t=%llu: V = %llu, Σwv/Σw = %llu (n=%d)", (unsigned long long)sched_now(e),
			 (unsigned long long)got, (unsigned long long)V, n);
	struct sched_cpu_info ci;
	sched_cpu_info(e, 0, &ci);
	assert_int_equal(ci.avg_vruntime, V);

	/* the running sums the engine keeps match the timeline */
	__int128 sum = 0;
	u64 load = 0;
	for (struct sched_entity *se = __pick_first_entity(cfs); se; se = __pick_next_entity(se)) {
		sum += (__int128)(s64)(se->vruntime - cfs->min_vruntime) * (__int128)w_of(se);
		load += w_of(se);
	}
	assert_true(sum == (__int128)cfs->avg_vruntime);
	assert_int_equal(load, cfs->avg_load);

	for (int i = 0; i < n; i++) {
		bool want = ref_eligible(q, n, q[i]->vruntime);
		/* the same thing through the floored V: v <= floor(V) <=> v <= V for integers */
		assert_int_equal(want, (s64)(q[i]->vruntime - V) <= 0);
		if (!!entity_eligible(cfs, q[i]) != want)
			fail_msg("t=%llu: entity_eligible(v=%llu) = %d, V = %llu", (unsigned long long)sched_now(e),
				 (unsigned long long)q[i]->vruntime, entity_eligible(cfs, q[i]),
				 (unsigned long long)V);
		struct sched_task_info ti;
		sched_task_info(e, task_of(q[i])->idx, &ti);
		assert_int_equal(ti.eligible, want);
		assert_int_equal(ti.vlag, (s64)(V - q[i]->vruntime));
		(*nchecks)++;
	}
}

static void run_V_checks(int kernel, u32 hz)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	u64 nchecks = 0;

	f->sc.hz = hz;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, -3, SCHED_NORMAL, 0, 3 * MS + 123, NULL);
	fx_task(f, 2, SCHED_NORMAL, 0, 0, fx_periodic(f, 3, 400 * US, 400 * US, 1300 * US, 1300 * US));
	fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_periodic(f, 4, 50 * US, 3 * MS, 100 * US, 5 * MS));
	fx_task(f, 0, SCHED_IDLE, 0, 10 * MS, NULL);
	fx_task(f, 7, SCHED_BATCH, 0, 0, fx_periodic(f, 6, 2 * MS, 2 * MS, 7 * MS, 7 * MS));
	fx_task(f, -1, SCHED_NORMAL, 500 * US, 0, fx_periodic(f, 7, 100 * US, 900 * US, 1 * MS, 2 * MS));
	struct sched_engine *e = fx_start(f);

	while (sched_now(e) < 400 * MS && sched_step(e)) {
		sched_enter(e);
		check_V_state(e, &nchecks);
	}
	assert_true(nchecks > 1000);
	fx_free(f);
}

static void test_V_is_weighted_average(void **state)
{
	run_V_checks(KV_LATEST, 1000);
	run_V_checks(KV(6, 12), 1000);
	run_V_checks(KV(6, 17), 250);
	run_V_checks(KV(6, 6), 1000);
}

/* ---- the pick: earliest eligible deadline, curr kept while protected ---- */

static struct sched_entity *ref_pick(struct cfs_rq *cfs)
{
	struct sched_entity *q[FX_MAX_TASKS];
	int n = queued_entities(cfs, q, FX_MAX_TASKS);
	struct sched_entity *curr = cfs->curr && cfs->curr->on_rq ? cfs->curr : NULL;
	struct sched_entity *best = NULL;

	if (n == 1)
		return q[0];
	if (kernel_at_least(6, 19) && sched_feat(PICK_BUDDY) && cfs->next &&
	    ref_eligible(q, n, cfs->next->vruntime))
		return cfs->next;
	if (curr && !ref_eligible(q, n, curr->vruntime))
		curr = NULL;
	if (curr) {
		bool prot = kernel_at_least(6, 17) ? (s64)(curr->vprot - curr->vruntime) > 0
						   : curr->vlag == (s64)curr->deadline;
		if (prot && (kernel_at_least(6, 17) || sched_feat(RUN_TO_PARITY)))
			return curr;
	}
	/* earliest deadline among eligible queued entities; ties: timeline order */
	for (struct sched_entity *se = __pick_first_entity(cfs); se; se = __pick_next_entity(se)) {
		if (!ref_eligible(q, n, se->vruntime))
			continue;
		if (!best || (s64)(se->deadline - best->deadline) < 0)
			best = se;
	}
	if (!best || (curr && (s64)(curr->deadline - best->deadline) < 0))
		best = curr;
	return best;
}

static void run_pick_checks(int kernel, bool twins)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	int checks = 0;

	if (twins) {
		/* identical hogs: equal deadlines, where the tie rules decide */
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	} else {
		fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, -3, SCHED_NORMAL, 0, 0, NULL);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_periodic(f, 3, 300 * US, 2 * MS, 200 * US, 4 * MS));
		fx_task(f, 3, SCHED_NORMAL, 300 * US, 0,
			fx_periodic(f, 4, 100 * US, 700 * US, 1 * MS, 3 * MS));
	}
	struct sched_engine *e = fx_start(f);

	while (sched_now(e) < 300 * MS && sched_step(e)) {
		sched_enter(e);
		struct cfs_rq *cfs = &cpu_rq(0)->cfs;
		if (!cfs->nr_running)
			continue;
		struct sched_entity *want = ref_pick(cfs);
		assert_non_null(want);	/* a correct state never has an empty pick */
		assert_ptr_equal(pick_eevdf(cfs, true), want);
		checks++;
	}
	assert_true(checks > 300);
	fx_free(f);
}

static void test_pick_earliest_eligible_deadline(void **state)
{
	const int kv[] = { KV_LATEST, KV(6, 12), KV(6, 17), KV(6, 6) };

	for (size_t i = 0; i < ARRAY_SIZE(kv); i++) {
		run_pick_checks(kv[i], false);
		run_pick_checks(kv[i], true);
	}
}

/* ---- deadlines ---- */

/*
 * Three hogs nice 0, 5, -3: after the first placement every deadline change
 * is update_deadline(): deadline - vruntime = calc_delta_fair(slice) exactly.
 */
static void run_deadline_checks(int kernel, const u64 vs[3])
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	u64 last_dl[3] = { 0, 0, 0 };
	int renewals[3] = { 0, 0, 0 };
	bool seen[3] = { false, false, false };

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, -3, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);

	while (sched_now(e) < 500 * MS && sched_step(e)) {
		sched_enter(e);
		for (int i = 0; i < 3; i++) {
			struct sched_entity *se = &T(e, i)->se;

			if (T(e, i)->state == TASK_NEW || se->deadline == last_dl[i])
				continue;
			u64 off = se->deadline - se->vruntime;
			if (!seen[i]) {
				/* a new task starts half-way through a request */
				assert_int_equal(off, vs[i] / 2);
				seen[i] = true;
			} else {
				if (off != vs[i])
					fail_msg("t=%llu task %d: deadline - vruntime = %llu, want %llu",
						 (unsigned long long)sched_now(e), i,
						 (unsigned long long)off, (unsigned long long)vs[i]);
				renewals[i]++;
			}
			last_dl[i] = se->deadline;
		}
	}
	for (int i = 0; i < 3; i++)
		assert_true(renewals[i] > 10);
	fx_free(f);
}

static void test_fresh_deadline_is_vslice(void **state)
{
	const u64 v619[3] = { VS_N0_700, VS_N5_700, VS_NM3_700 };
	const u64 v612[3] = { 750000, VS_N5_750, VS_NM3_750 };

	run_deadline_checks(KV_LATEST, v619);
	run_deadline_checks(KV(6, 15), v619);
	run_deadline_checks(KV(6, 12), v612);
	run_deadline_checks(KV(6, 6), v612);
}

/* ---- base slice ---- */

static void test_base_slice_scaling(void **state)
{
	/* factor 1 + ilog2(min(ncpus, 8)): 1, 2, 2, 3, 3, 4, 4 */
	const int ncpus[] = { 1, 2, 3, 4, 6, 8, 16 };
	const u64 s619[] = { 700000, 1400000, 1400000, 2100000, 2100000, 2800000, 2800000 };
	const u64 s612[] = { 750000, 1500000, 1500000, 2250000, 2250000, 3000000, 3000000 };

	for (size_t i = 0; i < ARRAY_SIZE(ncpus); i++) {
		for (int k = 0; k < 4; k++) {
			const int kv[] = { KV_LATEST, KV(6, 15), KV(6, 14), KV(6, 12) };
			const u64 *want = k < 2 ? s619 : s612;
			struct fx *f = fx_new(ncpus[i], kv[k], SCHED_VARIANT_EEVDF);

			fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
			struct sched_engine *e = fx_start(f);
			assert_int_equal(sched_tunable_value(e, TUN_BASE_SLICE), want[i]);
			/* and a task gets it as its slice */
			sched_run_until(e, 3 * MS);
			struct sched_task_info ti;
			sched_task_info(e, 0, &ti);
			assert_int_equal(ti.slice, want[i]);
			fx_free(f);
		}
	}
	/* NONE scaling: the normalized value whatever the CPU count */
	struct fx *f = fx_new(8, KV_LATEST, SCHED_VARIANT_EEVDF);
	f->sc.tunable[TUN_TUNABLE_SCALING] = SCHED_TUNABLESCALING_NONE;
	f->sc.tunable_set[TUN_TUNABLE_SCALING] = true;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	assert_int_equal(sched_tunable_value(e, TUN_BASE_SLICE), 700000);
	fx_free(f);
	/* LINEAR: min(ncpus, 8) */
	f = fx_new(4, KV_LATEST, SCHED_VARIANT_EEVDF);
	f->sc.tunable[TUN_TUNABLE_SCALING] = SCHED_TUNABLESCALING_LINEAR;
	f->sc.tunable_set[TUN_TUNABLE_SCALING] = true;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	e = fx_start(f);
	assert_int_equal(sched_tunable_value(e, TUN_BASE_SLICE), 2800000);
	fx_free(f);
}

/* On 4 CPUs the fresh deadline of a nice-0 hog is 2.1 ms ahead. */
static void test_deadline_4cpus(void **state)
{
	struct fx *f = fx_new(4, KV_LATEST, SCHED_VARIANT_EEVDF);
	u64 last = 0;
	int renewals = 0;

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	while (sched_now(e) < 100 * MS && sched_step(e)) {
		struct sched_entity *se = &T(e, 0)->se;
		if (T(e, 0)->state == TASK_NEW || se->deadline == last)
			continue;
		if (last) {
			assert_int_equal(se->deadline - se->vruntime, 2100000);
			renewals++;
		} else {
			assert_int_equal(se->deadline - se->vruntime, 1050000);
		}
		last = se->deadline;
	}
	assert_true(renewals > 5);
	fx_free(f);
}

/* ---- placement of a new task ---- */

/*
 * Hogs nice 0 and 5 from t=0; task B (nice `nice`) forks at 50.3 ms. B lands
 * at V of the queue it joins (its lag is 0), with a deadline half a virtual
 * slice ahead (PLACE_DEADLINE_INITIAL) or a full one when that is cleared.
 */
static void check_new_task_placement(int kernel, int nice, bool initial_half, u64 vslice)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	int b = fx_task(f, nice, SCHED_NORMAL, 0, 50 * MS + 300 * US, NULL);
	if (!initial_half)
		f->sc.features_clear = FEAT_BIT(FEAT_PLACE_DEADLINE_INITIAL);
	struct sched_engine *e = fx_start(f);

	while (T(e, b)->state == TASK_NEW)
		assert_true(sched_step(e));
	assert_int_equal(sched_now(e), 50 * MS + 300 * US);
	sched_enter(e);

	/* V of the two hogs, from their vruntimes (unchanged since B was placed) */
	struct sched_entity *q[2] = { &T(e, 0)->se, &T(e, 1)->se };
	u64 V = ref_V(q, 2);
	struct sched_entity *se = &T(e, b)->se;
	assert_int_equal(se->on_rq, 1);
	if (se->vruntime != V)
		fail_msg("new task at %llu, V of the queue it joined = %llu",
			 (unsigned long long)se->vruntime, (unsigned long long)V);
	assert_int_equal(se->deadline - se->vruntime, initial_half ? vslice / 2 : vslice);
	/* and joining at V leaves V where it was */
	struct sched_entity *q3[3] = { q[0], q[1], se };
	assert_int_equal(ref_V(q3, 3), V);
	fx_free(f);
}

static void test_new_task_placement(void **state)
{
	check_new_task_placement(KV_LATEST, 0, true, VS_N0_700);
	check_new_task_placement(KV_LATEST, 5, true, VS_N5_700);
	check_new_task_placement(KV_LATEST, -3, true, VS_NM3_700);
	check_new_task_placement(KV_LATEST, 0, false, VS_N0_700);
	check_new_task_placement(KV_LATEST, 5, false, VS_N5_700);
	check_new_task_placement(KV(6, 12), 0, true, 750000);
	check_new_task_placement(KV(6, 12), 5, false, VS_N5_750);
	check_new_task_placement(KV(6, 6), 5, true, VS_N5_750);
}

/*
 * A task waking with a saved lag vl (PLACE_LAG) lands at
 * v = V - vl * (W + w) / W, W being the weight already queued (curr
 * included), so that its lag after joining is the saved one; its deadline
 * is a full virtual slice ahead.
 */
static void run_wakeup_placement(int kernel)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	int placed = 0, nonzero = 0;
	s64 saved[FX_MAX_TASKS];
	bool queued[FX_MAX_TASKS] = { false };

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, -3, SCHED_NORMAL, 0, 0, fx_periodic(f, 2, 200 * US, 3 * MS, 100 * US, 6 * MS));
	fx_task(f, 2, SCHED_NORMAL, 0, 0, fx_periodic(f, 3, 50 * US, 2 * MS, 500 * US, 4 * MS));
	fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_periodic(f, 4, 1 * MS, 1 * MS, 3 * MS, 3 * MS));
	struct sched_engine *e = fx_start(f);

	while (sched_now(e) < 1 * SEC) {
		for (int i = 0; i < f->sc.nr_tasks; i++) {
			queued[i] = T(e, i)->se.on_rq;
			saved[i] = T(e, i)->se.vlag;
		}
		int before = e->st->nr_tasks;
		assert_true(sched_step(e));
		sched_enter(e);
		for (int i = 0; i < before; i++) {
			struct task_struct *p = T(e, i);
			struct sched_entity *q[FX_MAX_TASKS], *others[FX_MAX_TASKS];
			int n, m = 0;

			/* woken in this step (not a fork): placed from its saved lag */
			if (queued[i] || !p->se.on_rq || !p->nr_wakeups || p->se.sched_delayed)
				continue;
			/* skip steps where another entity also came or went (a delayed
			 * dequeue finishing at the pick): V then moved after the placement */
			bool same = true;
			for (int k = 0; k < before; k++)
				if (k != i && queued[k] != (bool)T(e, k)->se.on_rq)
					same = false;
			if (!same)
				continue;
			n = queued_entities(&cpu_rq(0)->cfs, q, FX_MAX_TASKS);
			u64 W = 0;
			for (int k = 0; k < n; k++) {
				if (q[k] == &p->se)
					continue;
				others[m++] = q[k];
				W += w_of(q[k]);
			}
			if (!m)
				continue;	/* joined an empty queue: lag dropped */
			u64 V = ref_V(others, m);
			s64 lag = (s64)(((__int128)saved[i] * (__int128)(W + w_of(&p->se))) / (__int128)W);
			if (p->se.vruntime != V - (u64)lag)
				fail_msg("t=%llu task %d: woke at V%+lld, saved lag %lld -> want V%+lld",
					 (unsigned long long)sched_now(e), i,
					 (long long)(s64)(p->se.vruntime - V), (long long)saved[i],
					 (long long)-lag);
			assert_int_equal(p->se.deadline - p->se.vruntime,
					 calc_delta_fair(p->se.slice, &p->se));
			placed++;
			if (saved[i])
				nonzero++;
		}
	}
	assert_true(placed > 100);
	assert_true(nonzero > 50);
	fx_free(f);
}

static void test_wakeup_placement_keeps_lag(void **state)
{
	run_wakeup_placement(KV_LATEST);
	run_wakeup_placement(KV(6, 12));
	run_wakeup_placement(KV(6, 6));
}

/*
 * Renicing a waiting task keeps its weighted lag w * (V - v) and so leaves V
 * where it was (notes §2.12; set_user_nice(): the lag saved at the SAVE
 * dequeue is rescaled by w_old/w_new, then restored by place_entity()).
 * Up to truncations of a few ns.
 */
static void check_renice_keeps_weighted_lag(int kernel, int new_nice)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	char err[128];
	int checked = 0;

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, -3, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 2, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);

	/* on ticks, so the running task has no uncharged runtime when the command comes */
	for (u64 t = 20 * MS; t < 400 * MS; t += 7 * MS) {
		struct cfs_rq *cfs = cpu0_cfs_at(e, t);
		struct sched_entity *q[FX_MAX_TASKS];
		int n = queued_entities(cfs, q, FX_MAX_TASKS);
		/* a waiting task: the first in the timeline */
		struct sched_entity *se = __pick_first_entity(cfs);
		assert_non_null(se);
		int idx = task_of(se)->idx;
		u64 V0 = ref_V(q, n), v0 = se->vruntime, w0 = w_of(se);
		s64 limit = (s64)calc_delta_fair(MAX(2 * se->slice, TICK_NSEC), se);
		if ((s64)(V0 - v0) > limit || (s64)(V0 - v0) < -limit)
			continue;	/* would be clamped */
		int old_nice = PRIO_TO_NICE(task_of(se)->static_prio);
		int nice = old_nice == new_nice ? 0 : new_nice;

		struct sched_command c = { .kind = CMD_SET_NICE, .task = idx, .value = nice };
		assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
		sched_enter(e);
		n = queued_entities(cfs, q, FX_MAX_TASKS);
		u64 V1 = ref_V(q, n), w1 = w_of(se);
		assert_int_equal(w1, (u64)sched_prio_to_weight[nice + 20]);
		s64 dV = (s64)(V1 - V0);
		__int128 l0 = (__int128)(s64)(V0 - v0) * w0, l1 = (__int128)(s64)(V1 - se->vruntime) * w1;
		__int128 dl = l1 > l0 ? l1 - l0 : l0 - l1;
		if (dV < -3 || dV > 3 || dl > (__int128)4 * (w0 + w1))
			fail_msg("kernel %d t=%llu nice %d->%d: V moved %+lld, w*lag %lld -> %lld", kernel,
				 (unsigned long long)t, old_nice, nice,
				 (long long)dV, (long long)l0, (long long)l1);
		checked++;
	}
	assert_true(checked > 20);
	fx_free(f);
}

static void test_renice_keeps_weighted_lag(void **state)
{
	check_renice_keeps_weighted_lag(KV_LATEST, 7);
	check_renice_keeps_weighted_lag(KV(6, 12), -4);
	check_renice_keeps_weighted_lag(KV(6, 7), 3);
}

/*
 * Regression (same cause as test_cfs.c test_renice_keeps_vruntime):
 * set_user_nice() dequeues with DEQUEUE_SAVE only, and dequeue_entity()
 * (6.6-6.18) calls update_min_vruntime() only when the flags are not
 * "SAVE without MOVE"; at a tick-aligned time update_curr() has nothing to
 * charge, so renicing a waiting task leaves min_vruntime where it was. The
 * engine once dequeued with DEQUEUE_SAVE | DEQUEUE_MOVE and moved it.
 */
static void check_renice_keeps_min_vruntime(int kernel)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	char err[128];
	int checked = 0;

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, -3, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 2, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);

	for (u64 t = 20 * MS; t < 400 * MS; t += 7 * MS) {
		struct cfs_rq *cfs = cpu0_cfs_at(e, t);
		struct task_struct *p = task_of(__pick_first_entity(cfs));
		int nice = PRIO_TO_NICE(p->static_prio) == 7 ? 0 : 7;
		struct sched_cpu_info before, after;

		sched_cpu_info(e, 0, &before);
		struct sched_command c = { .kind = CMD_SET_NICE, .task = p->idx, .value = nice };
		assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
		sched_cpu_info(e, 0, &after);
		if (after.min_vruntime != before.min_vruntime)
			fail_msg("kernel %d t=%llu: renicing a waiting task moved min_vruntime by %+lld",
				 kernel, (unsigned long long)t,
				 (long long)(s64)(after.min_vruntime - before.min_vruntime));
		checked++;
	}
	assert_true(checked > 20);
	fx_free(f);
}

static void test_renice_keeps_min_vruntime(void **state)
{
	check_renice_keeps_min_vruntime(KV(6, 12));
	check_renice_keeps_min_vruntime(KV(6, 7));
}

/* ---- lag clamp ---- */

/*
 * update_entity_lag() on a detached entity against a real queue:
 * vlag = clamp(V - v, ±calc_delta_fair(max(2 * slice, TICK_NSEC))).
 */
static void check_lag_clamp(u32 hz, int nice, unsigned long weight, u32 wmult, u64 slice,
			    s64 limit)
{
	struct fx *f = fx_new(1, KV_LATEST, SCHED_VARIANT_EEVDF);

	f->sc.hz = hz;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	struct cfs_rq *cfs = cpu0_cfs_at(e, 20 * MS + 500 * US);
	u64 V = avg_vruntime_peek(cfs);
	const s64 offsets[] = { -10 * (s64)SEC, -limit - 1, -limit, -limit + 1, -500 * (s64)US, -1, 0,
				1, 500 * (s64)US, limit - 1, limit, limit + 1, 10 * (s64)SEC };

	for (size_t i = 0; i < ARRAY_SIZE(offsets); i++) {
		struct sched_entity se;

		memset(&se, 0, sizeof(se));
		se.load.weight = scale_load(weight);
		se.load.inv_weight = wmult;
		se.slice = slice;
		se.on_rq = 1;
		se.vruntime = V - (u64)offsets[i];	/* lag V - v = offsets[i] */
		update_entity_lag(cfs, &se);
		s64 want = offsets[i] < -limit ? -limit : offsets[i] > limit ? limit : offsets[i];
		if (se.vlag != want)
			fail_msg("hz %u nice %d: lag %lld -> vlag %lld, want %lld (limit %lld)", hz, nice,
				 (long long)offsets[i], (long long)se.vlag, (long long)want,
				 (long long)limit);
	}
	fx_free(f);
}

static void test_lag_clamp(void **state)
{
	/* HZ 1000: max(1.4 ms, 1 ms) = 1.4 ms */
	check_lag_clamp(1000, 0, 1024, 4194304, 700000, 1400000);
	check_lag_clamp(1000, 5, 335, 12820798, 700000, VS_N5_1400);
	check_lag_clamp(1000, 19, 15, 286331153, 700000, 95573333);
	check_lag_clamp(1000, 0, WEIGHT_IDLEPRIO, WMULT_IDLEPRIO, 700000, 477866666);
	/* HZ 100: the tick (10 ms) is larger than two slices */
	check_lag_clamp(100, 0, 1024, 4194304, 700000, 10000000);
	check_lag_clamp(100, 5, 335, 12820798, 700000, 30567164);
	/* a 100 ms custom slice: 200 ms */
	check_lag_clamp(1000, 0, 1024, 4194304, 100 * MS, 200 * (s64)MS);
}

/* In a real run, every lag saved at a dequeue is within the clamp. */
static void run_saved_lag_checks(u32 hz)
{
	struct fx *f = fx_new(1, KV_LATEST, SCHED_VARIANT_EEVDF);
	int saved = 0;
	bool was_queued[FX_MAX_TASKS] = { false };

	f->sc.hz = hz;
	fx_task(f, -5, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 19, SCHED_NORMAL, 0, 0, fx_periodic(f, 1, 100 * US, 5 * MS, 100 * US, 3 * MS));
	fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_periodic(f, 2, 1 * MS, 20 * MS, 50 * US, 1 * MS));
	fx_task(f, 0, SCHED_IDLE, 0, 0, fx_periodic(f, 3, 1 * MS, 4 * MS, 1 * MS, 2 * MS));
	fx_task(f, 8, SCHED_NORMAL, 200 * US, 0, fx_periodic(f, 4, 10 * US, 300 * US, 10 * US, 300 * US));
	fx_task(f, -10, SCHED_NORMAL, 0, 0, fx_periodic(f, 5, 10 * US, 2 * MS, 10 * US, 500 * US));
	struct sched_engine *e = fx_start(f);

	while (sched_now(e) < 3 * SEC && sched_step(e)) {
		sched_enter(e);
		for (int i = 0; i < f->sc.nr_tasks; i++) {
			struct task_struct *p = T(e, i);
			bool q = p->se.on_rq;

			if (was_queued[i] && !q) {
				/* dequeued in this step: its lag was just saved */
				s64 limit = (s64)calc_delta_fair(MAX(2 * p->se.slice, TICK_NSEC), &p->se);
				if (p->se.vlag > limit || p->se.vlag < -limit)
					fail_msg("task %d saved vlag %lld outside ±%lld", i,
						 (long long)p->se.vlag, (long long)limit);
				saved++;
			}
			was_queued[i] = q;
		}
	}
	assert_true(saved > 200);
	fx_free(f);
}

static void test_saved_lag_within_clamp(void **state)
{
	run_saved_lag_checks(1000);
	run_saved_lag_checks(100);
}

/* ---- CPU shares of hogs ---- */

static void check_shares(int kernel, int n, const int *nice, const int *policy, u64 feats,
			 double tol_pp)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	double wsum = 0, w[FX_MAX_TASKS];
	u64 run[FX_MAX_TASKS];

	f->sc.features_set = feats;
	for (int i = 0; i < n; i++) {
		fx_task(f, nice[i], policy ? policy[i] : SCHED_NORMAL, 0, 0, NULL);
		w[i] = policy && policy[i] == SCHED_IDLE ? 3 : sched_prio_to_weight[nice[i] + 20];
		wsum += w[i];
	}
	u64 tot = fx_run_times(f, n, 10 * SEC, run);
	/* the CPU was never idle: the runtimes add up to (nearly) the 10 s */
	assert_true(tot <= 10 * SEC && tot >= 10 * SEC - 2 * MS);
	for (int i = 0; i < n; i++) {
		double share = 100.0 * (double)run[i] / (double)tot, want = 100.0 * w[i] / wsum;
		if (share < want - tol_pp || share > want + tol_pp)
			fail_msg("kernel %d: task %d (nice %d) got %.3f%%, weight share %.3f%%", kernel,
				 i, nice[i], share, want);
	}
	fx_free(f);
}

static void test_shares_0_0_5(void **state)
{
	const int nice[] = { 0, 0, 5 };

	check_shares(KV_LATEST, 3, nice, NULL, 0, 0.5);
	check_shares(KV(6, 12), 3, nice, NULL, 0, 0.5);
	check_shares(KV(6, 6), 3, nice, NULL, 0, 0.5);
	check_shares(KV_LATEST, 3, nice, NULL, FEAT_BIT(FEAT_HRTICK), 0.5);
}

static void test_shares_m5_0_5_10(void **state)
{
	const int nice[] = { -5, 0, 5, 10 };

	check_shares(KV_LATEST, 4, nice, NULL, 0, 0.5);
	check_shares(KV(6, 12), 4, nice, NULL, 0, 0.5);
	check_shares(KV(6, 6), 4, nice, NULL, 0, 0.5);
}

/* SCHED_IDLE next to a nice-0 hog: 3/1027 = 0.292 %, within 10 % of that. */
static void test_shares_sched_idle(void **state)
{
	const int nice[] = { 0, 0 };
	const int policy[] = { SCHED_NORMAL, SCHED_IDLE };
	const double want = 100.0 * 3 / 1027;

	check_shares(KV_LATEST, 2, nice, policy, 0, want * 0.1);
	check_shares(KV(6, 12), 2, nice, policy, 0, want * 0.1);
	/* nice is ignored for SCHED_IDLE */
	const int nice2[] = { 0, -20 };
	check_shares(KV_LATEST, 2, nice2, policy, 0, want * 0.1);
}

/* ---- a custom slice ---- */

/*
 * A 0.3 ms custom-slice task next to a nice-0 hog (with HRTICK so requests
 * end on time rather than at the next tick): the same 50 % share, but its
 * requests are shorter (deadline 0.3 ms of virtual time ahead instead of
 * 0.7) and so it makes more of them, and its deadline is the earlier one
 * each time it gets a fresh request.
 */
static void check_custom_slice(int kernel, u64 feats)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	u64 base = kernel >= KV(6, 15) ? 700000 : 750000;

	f->sc.features_set = feats;
	int s = fx_task(f, 0, SCHED_NORMAL, 300 * US, 0, NULL);
	int h = fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	u64 last[2] = { 0, 0 };
	int req[2] = { 0, 0 }, steps = 0, earlier = 0;

	while (sched_now(e) < 2 * SEC && sched_step(e)) {
		for (int i = 0; i < 2; i++) {
			struct sched_entity *se = &T(e, i)->se;
			if (T(e, i)->state == TASK_NEW || se->deadline == last[i])
				continue;
			u64 off = se->deadline - se->vruntime;
			u64 slice = i == s ? 300 * US : base;
			/* a fresh request: a full slice ahead, half of one for the first */
			assert_true(off == slice || (!last[i] && off == slice / 2));
			last[i] = se->deadline;
			req[i]++;
		}
		steps++;
		if ((s64)(T(e, s)->se.deadline - T(e, h)->se.deadline) < 0)
			earlier++;
	}
	struct sched_task_info ts, th;
	sched_task_info(e, s, &ts);
	sched_task_info(e, h, &th);
	assert_int_equal(ts.slice, 300 * US);
	assert_int_equal(th.slice, base);
	double share = 100.0 * (double)ts.sum_exec_runtime /
		       (double)(ts.sum_exec_runtime + th.sum_exec_runtime);
	if (share < 49.5 || share > 50.5)
		fail_msg("custom-slice task share %.3f%%", share);
	if (feats & FEAT_BIT(FEAT_HRTICK)) {
		/* same CPU time in 0.3 ms requests instead of 0.7: about 7/3 as many */
		if (req[s] * 10 < req[h] * 14)
			fail_msg("short-slice requests %d vs hog %d", req[s], req[h]);
		/* and its deadline is the earlier of the two most of the time */
		if (earlier * 10 < steps * 6)
			fail_msg("short-slice deadline earlier in %d of %d steps", earlier, steps);
	}
	fx_free(f);
}

/*
 * A hog and two periodic tasks on one CPU (the lockstep case of
 * tests/kernel), at the first moment the hog runs protected but no longer
 * eligible, one periodic task is delayed, eligible and first by deadline,
 * and the other sleeps: waking the sleeper. 6.18's wakeup preemption asks
 * __pick_eevdf(), which answers with the delayed task, so the hog keeps
 * the CPU; from 6.18.33 (ac8e69e69363) the pick is pick_next_entity()'s,
 * which dequeues the delayed task there and picks again: the wakee.
 */
static void test_wakeup_pick_dequeues_delayed(void **state)
{
	struct fx *f = fx_new(1, KV(6, 18), SCHED_VARIANT_EEVDF);

	f->sc.kernel_stable = 44;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_periodic(f, 1, 1900 * US, 2100 * US, 6 * MS, 6 * MS));
	fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_periodic(f, 2, 2900 * US, 3100 * US, 3 * MS, 3 * MS));
	/* the same run twice: e2 judges the moment found by 6.18's rules */
	f->e = fx_engine(f);
	f->e2 = fx_engine(f);

	int delayed = -1, sleeper = -1;
	while (sched_now(f->e) < 3 * SEC) {
		assert_true(sched_step(f->e));
		assert_true(sched_step(f->e2));
		sched_enter(f->e);
		struct rq *rq = cpu_rq(0);
		struct sched_entity *hog = &T(f->e, 0)->se;

		if (rq->curr != T(f->e, 0) || rq->need_resched)
			continue;
		/* the hog's time so far, as the wakeup's update_curr() will see it (both runs alike) */
		update_curr(&rq->cfs);
		sched_enter(f->e2);
		update_curr(&cpu_rq(0)->cfs);
		sched_enter(f->e);
		if (rq->need_resched || entity_eligible(&rq->cfs, hog) || !protect_slice(hog) ||
		    (s64)(hog->vruntime - hog->deadline) >= 0)
			continue;
		for (int i = 1; i <= 2; i++) {
			struct task_struct *p = T(f->e, i), *o = T(f->e, 3 - i);

			/* where the sleeper will land (PLACE_LAG, all of weight 1024): behind the delayed task */
			s64 n = queued_entities(&rq->cfs, (struct sched_entity *[FX_MAX_TASKS]){ 0 },
						FX_MAX_TASKS);
			u64 d = avg_vruntime_peek(&rq->cfs) - (u64)(o->se.vlag * (n + 1) / n) +
				calc_delta_fair(sysctl(TUN_BASE_SLICE), &o->se);

			if (p->se.sched_delayed && __pick_first_entity(&rq->cfs) == &p->se &&
			    entity_eligible(&rq->cfs, &p->se) && !o->se.on_rq &&
			    o->state == TASK_INTERRUPTIBLE && (s64)(p->se.deadline - d) < 0) {
				delayed = i;
				sleeper = 3 - i;
			}
		}
		if (delayed > 0)
			break;
	}
	assert_true(delayed > 0);

	f->e2->kernel_stable = 0;
	sched_enter(f->e2);
	try_to_wake_up(T(f->e2, sleeper), 0);
	assert_false(cpu_rq(0)->need_resched);
	assert_true(T(f->e2, delayed)->se.sched_delayed);

	sched_enter(f->e);
	try_to_wake_up(T(f->e, sleeper), 0);
	assert_true(cpu_rq(0)->need_resched);
	assert_false(T(f->e, delayed)->se.on_rq);
	fx_free(f);
}

/*
 * A fair task switched to SCHED_FIFO leaves the fair queue with its
 * deadline made relative (PLACE_REL_DEADLINE), and then forks a fair child.
 * Where __sched_fork() leaves rel_deadline (6.12 to 6.19, 6.18.0-32), the
 * child's placement takes the parent's relative deadline for its own; from
 * 3da56dc063cd (6.18.33, 6.12.91) the child starts half a slice ahead, as
 * every new task (PLACE_DEADLINE_INITIAL); before 6.12 there is no
 * relative deadline.
 */
static void check_fork_rel_deadline(int kernel, int stable, bool inherits)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	u64 vslice = sched_default_tunable(kernel, TUN_BASE_SLICE);

	f->sc.kernel_stable = stable;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	int parent = fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	int child = fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	f->task[child].forked = true;
	struct sched_engine *e = fx_start(f);

	/* run until the parent is partway through a request, off the CPU */
	while (sched_now(e) < 20 * MS + 100 * US)
		assert_true(sched_step(e));
	sched_enter(e);
	struct task_struct *p = T(e, parent), *c = T(e, child);
	assert_int_equal(c->state, TASK_NEW);
	u64 rel = p->se.deadline - p->se.vruntime;

	assert_int_equal(
		__sched_setscheduler(p, &(struct sched_attr){ .policy = SCHED_FIFO, .rt_priority = 10 }), 0);
	assert_int_equal(p->se.rel_deadline, kernel >= KV(6, 12));
	wake_up_new_task(c, p);
	assert_int_equal(c->se.on_rq, 1);
	assert_int_equal(c->se.rel_deadline, 0);
	if (inherits) {
		/* the parent's relative deadline, not half a slice: a different request */
		assert_int_not_equal(rel, vslice / 2);
		assert_int_equal(c->se.deadline - c->se.vruntime, rel);
	} else {
		assert_int_equal(c->se.deadline - c->se.vruntime, vslice / 2);
	}
	fx_free(f);
}

static void test_fork_clears_rel_deadline(void **state)
{
	check_fork_rel_deadline(KV(6, 18), 0, true);
	check_fork_rel_deadline(KV(6, 18), 32, true);
	check_fork_rel_deadline(KV(6, 18), 33, false);
	check_fork_rel_deadline(KV(6, 18), 44, false);
	check_fork_rel_deadline(KV(6, 12), 90, true);
	check_fork_rel_deadline(KV(6, 12), 91, false);
	check_fork_rel_deadline(KV_LATEST, 0, true);
	check_fork_rel_deadline(KV(6, 11), 0, false);
}

/*
 * 6.19's wakeup preemption, as released: a waker that is no longer
 * eligible keeps the CPU unless the wakee is the pick (e837456fdca8 forced
 * it off at once; 15257cc2f905 reverted that before 6.19-rc7). Two hogs
 * asking for 3 ms slices, so that one runs several ticks and is ineligible
 * at some, protected, and a sleeper asking for 10 ms, whose deadline is then
 * often behind the other hog's: at each such tick a copy of the run
 * (replayed to that step) has the hog wake the sleeper.
 */
static void test_ineligible_waker_not_forced(void **state)
{
	static const struct prog_insn wait_forever[] = {
		{ .op = PROG_LOOP, .target = 3 },
		{ .op = PROG_WAIT },
		{ .op = PROG_END_LOOP, .target = 0 },
	};
	struct fx *f = fx_new(1, KV(6, 19), SCHED_VARIANT_EEVDF);
	int kept = 0, steps = 0;

	fx_task(f, 0, SCHED_NORMAL, 3 * MS, 0, NULL);
	fx_task(f, 0, SCHED_NORMAL, 3 * MS, 0, NULL);
	int b = fx_task(f, 0, SCHED_NORMAL, 10 * MS, 0, fx_program(f, 2, wait_forever, 3, 1));
	f->e = fx_engine(f);
	while (sched_now(f->e) < 1 * SEC && kept < 3) {
		assert_true(sched_step(f->e));
		steps++;
		sched_enter(f->e);
		struct rq *rq = cpu_rq(0);

		if (rq->curr == T(f->e, b) || rq->need_resched || T(f->e, b)->state != TASK_INTERRUPTIBLE)
			continue;
		update_curr(&rq->cfs);
		assert_true(protect_slice(&rq->curr->se));
		if (rq->need_resched || entity_eligible(&rq->cfs, &rq->curr->se))
			continue;

		struct sched_engine *copy = fx_engine(f);
		for (int i = 0; i < steps; i++)
			assert_true(sched_step(copy));
		sched_enter(copy);
		rq = cpu_rq(0);
		update_curr(&rq->cfs);
		ST->waker_cpu = 0;
		try_to_wake_up(T(copy, b), WF_IN_TASK);
		bool picked = pick_eevdf(&rq->cfs, true) == &T(copy, b)->se;

		assert_int_equal(rq->need_resched, picked);
		kept += !picked;
		sched_engine_destroy(copy);
	}
	assert_int_equal(kept, 3);
	fx_free(f);
}

/*
 * 6.18's stable updates that took 6.19's rules: yield forfeits the request
 * from 6.18.2, the keys' reference follows V from 6.18.4 (moved to V by
 * each computation of V from 6.18.17, else at enqueue and dequeue only),
 * NI_RANDOM is on from 6.18.5. Two hogs on one CPU, each update and the
 * one before it.
 */
static void check_stable_rules(int stable, bool forfeit, bool zero, bool ni_random)
{
	struct fx *f = fx_new(1, KV(6, 18), SCHED_VARIANT_EEVDF);

	f->sc.kernel_stable = stable;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 5, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);

	assert_int_equal(sched_feat(NI_RANDOM), ni_random);
	assert_int_equal(
		!!(sched_default_features(KV(6, 18), stable, SCHED_VARIANT_EEVDF) & FEAT_BIT(FEAT_NI_RANDOM)),
		ni_random);
	while (sched_now(e) < 20 * MS)
		assert_true(sched_step(e));
	sched_enter(e);
	struct cfs_rq *cfs = &cpu_rq(0)->cfs;
	struct sched_entity *curr = cfs->curr;

	update_curr(cfs);
	/* V of the two, from their vruntimes; avg_vruntime() moves zero_vruntime there from 6.18.17 */
	struct sched_entity *q[2] = { &T(e, 0)->se, &T(e, 1)->se };
	u64 V = ref_V(q, 2);

	assert_int_equal(avg_vruntime(cfs), V);
	if (zero)
		assert_int_equal(cfs->min_vruntime, V);
	else
		assert_int_not_equal(cfs->min_vruntime, V);

	assert_true(entity_eligible(cfs, curr) || entity_eligible(cfs, q[curr == q[0]]));
	struct sched_entity *se = entity_eligible(cfs, curr) ? curr : q[curr == q[0]];
	u64 deadline = se->deadline, vruntime = se->vruntime;

	yield_entity_eevdf(cfs, se);
	if (forfeit) {
		assert_int_equal(se->vruntime, deadline);
		assert_int_equal(se->deadline, deadline + calc_delta_fair(se->slice, se));
	} else {
		assert_int_equal(se->vruntime, vruntime);
		assert_int_equal(se->deadline, deadline + calc_delta_fair(se->slice, se));
	}
	fx_free(f);
}

static void test_stable_6_18_rules(void **state)
{
	check_stable_rules(1, false, false, false);
	check_stable_rules(2, true, false, false);
	check_stable_rules(3, true, false, false);
	check_stable_rules(4, true, false, false);
	check_stable_rules(5, true, false, true);
	check_stable_rules(44, true, true, true);
}

/*
 * How far zero_vruntime trails a hog alone on a CPU (the test case of
 * b3d99f43c72b), read half a tick after each of 30 ticks from 1 s on: the
 * hog asks for 3 ms, so a request ends every third tick. min_vruntime
 * (to 6.18.3) follows the hog at every update_curr(); 6.18.4 to 6.18.16
 * and 6.19 move zero_vruntime only at enqueue and dequeue, which a lone
 * task never sees again, so its key grows without bound; 6.18.17's tick
 * pulls it along; 6.18.22 (1319ea57529e) does at the end of each request.
 */
static void check_zero_vruntime_lone(int kernel, int stable, int zero_keys, u64 max_key)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	int zeros = 0;
	u64 most = 0;

	f->sc.kernel_stable = stable;
	int a = fx_task(f, 0, SCHED_NORMAL, 3 * MS, 0, NULL);
	struct sched_engine *e = fx_start(f);

	for (int k = 0; k < 30; k++) {
		while (sched_now(e) < SEC + 500 * US + (u64)k * MS)
			assert_true(sched_step(e));
		sched_enter(e);
		struct sched_entity *se = &T(e, a)->se;
		s64 key = entity_key(&cpu_rq(0)->cfs, se);

		assert_true(cpu_rq(0)->cfs.curr == se && key >= 0);
		zeros += !key;
		most = MAX(most, (u64)key);
	}
	assert_int_equal(zeros, zero_keys);
	assert_true(most <= max_key);
	fx_free(f);
}

static void test_zero_vruntime_tracking(void **state)
{
	check_zero_vruntime_lone(KV(6, 18), 3, 30, 0);
	/* a second of vruntime behind: nothing has moved it since the hog was picked */
	check_zero_vruntime_lone(KV(6, 18), 4, 0, ~0ULL);
	check_zero_vruntime_lone(KV(6, 18), 16, 0, ~0ULL);
	check_zero_vruntime_lone(KV(6, 19), 0, 0, ~0ULL);
	check_zero_vruntime_lone(KV(6, 18), 17, 30, 0);
	/* a request lasts three ticks: the two ticks after its end read 1 and 2 ms */
	check_zero_vruntime_lone(KV(6, 18), 22, 10, 2 * MS);
	check_zero_vruntime_lone(KV(6, 18), 44, 10, 2 * MS);
	(void)state;
}

/*
 * update_entity_lag()'s clamp: twice the entity's slice, at least a tick;
 * from 6e3c0a4e1ad1 (6.18.17) the longest slice on the queue plus a tick.
 * A task asking for 0.1 ms runs beside one asking for 20 ms, 10 ms of
 * vruntime ahead of it: its lag, -5 ms, was clamped to -1 ms (a tick).
 */
static void check_lag_clamp_max_slice(int stable, bool max_slice)
{
	struct fx *f = fx_new(1, KV(6, 18), SCHED_VARIANT_EEVDF);

	f->sc.kernel_stable = stable;
	int a = fx_task(f, 0, SCHED_NORMAL, 20 * MS, 0, NULL);
	int b = fx_task(f, 0, SCHED_NORMAL, 100 * US, 0, NULL);
	struct sched_engine *e = fx_start(f);
	struct sched_entity *sa = &T(e, a)->se, *sb = &T(e, b)->se;

	do {
		assert_true(sched_step(e));
		sched_enter(e);
	} while (cpu_rq(0)->cfs.curr != sb || !sa->on_rq);
	struct cfs_rq *cfs = &cpu_rq(0)->cfs;

	update_curr(cfs);
	/* curr is outside the tree's sums: moving it keeps them whole */
	sb->vruntime = sa->vruntime + 10 * MS;
	s64 lag = (s64)(avg_vruntime_peek(cfs) - sb->vruntime);

	assert_true(lag <= -5 * (s64)MS + 1 && lag >= -5 * (s64)MS - 1);
	update_entity_lag(cfs, sb);
	assert_int_equal(sb->vlag, max_slice ? lag : -(s64)calc_delta_fair(TICK_NSEC, sb));
	fx_free(f);
}

static void test_lag_clamp_max_slice(void **state)
{
	check_lag_clamp_max_slice(16, false);
	check_lag_clamp_max_slice(17, true);
	check_lag_clamp_max_slice(44, true);
	(void)state;
}

/* The timeline's cached extrema (the rbtree's augmentation) against a walk over it. */
static void assert_timeline_extrema(struct cfs_rq *cfs)
{
	struct sched_entity *se = __pick_first_entity(cfs);
	u64 min_v = se->vruntime, min_s = se->slice, max_s = se->slice;

	for (; se; se = __pick_next_entity(se)) {
		if ((s64)(se->vruntime - min_v) < 0)
			min_v = se->vruntime;
		min_s = MIN(min_s, se->slice);
		max_s = MAX(max_s, se->slice);
	}
	assert_int_equal(timeline_min_vruntime(cfs), min_v);
	assert_int_equal(timeline_min_slice(cfs), min_s);
	assert_int_equal(timeline_max_slice(cfs), max_s);
}

/*
 * The longest and shortest slice and the smallest vruntime stay right while
 * entities holding them leave and come back and queued slices change (a
 * group entity's follows its queue's shortest), whoever holds them alone.
 */
static void test_timeline_extrema(void **state)
{
	static const u64 slices[] = {
		3 * MS, 100 * US, 3 * MS, 20 * MS, 700 * US, 20 * MS, 100 * US, 5 * MS
	};
	struct fx *f = fx_new(1, KV(6, 18), SCHED_VARIANT_EEVDF);
	struct sched_entity *out[ARRAY_SIZE(slices)];
	int nr_out = 0;

	f->sc.kernel_stable = 44;
	for (size_t i = 0; i < ARRAY_SIZE(slices); i++)
		fx_task(f, 0, SCHED_NORMAL, slices[i], 0, NULL);
	struct cfs_rq *cfs = cpu0_cfs_at(fx_start(f), 30 * MS);

	assert_int_equal(cfs->nr_running, ARRAY_SIZE(slices));
	assert_timeline_extrema(cfs);
	/* each leaves in turn, first the longest slices, till two are left */
	while (cfs->nr_running - nr_out > 3) {
		struct sched_entity *se, *longest = __pick_first_entity(cfs);

		for (se = longest; se; se = __pick_next_entity(se))
			if (se->slice > longest->slice)
				longest = se;
		__dequeue_entity(cfs, longest);
		out[nr_out++] = longest;
		assert_timeline_extrema(cfs);
	}
	/* a queued slice grows past the rest, then shrinks below them, then to the middle */
	struct sched_entity *se = __pick_first_entity(cfs);

	set_entity_slice(cfs, se, 30 * MS);
	assert_timeline_extrema(cfs);
	set_entity_slice(cfs, se, 50 * US);
	assert_timeline_extrema(cfs);
	set_entity_slice(cfs, se, 4 * MS);
	assert_timeline_extrema(cfs);
	while (nr_out) {
		__enqueue_entity(cfs, out[--nr_out]);
		assert_timeline_extrema(cfs);
	}
	fx_free(f);
	(void)state;
}

/* A hog asking for 6 ms beside one asking for 2 ms, run until it is protected 1 ms into its slice. */
static struct task_struct *protected_hog(struct fx *f, int stable)
{
	f->sc.kernel_stable = stable;
	int a = fx_task(f, 0, SCHED_NORMAL, 6 * MS, 0, NULL);
	fx_task(f, 0, SCHED_NORMAL, 2 * MS, 0, NULL);
	struct sched_engine *e = fx_start(f);
	struct task_struct *p = T(e, a);

	do {
		assert_true(sched_step(e));
		sched_enter(e);
	} while (cpu_rq(0)->curr != p || p->se.sum_exec_runtime - p->se.prev_sum_exec_runtime < 1 * MS ||
		 !protect_slice(&p->se));
	update_curr(&cpu_rq(0)->cfs);
	return p;
}

/*
 * Slice protection is set when a task is picked; until bcd74b2ffdd0
 * (6.18.17) also when the change pattern (a sched_setattr() of the running
 * task: put_prev_task() ... set_next_task()) sets it up again, which
 * restarted the protection from where the task then was. A hog asking for
 * 6 ms beside one asking for 2 ms is protected for 2 ms of its own virtual
 * time; a millisecond into it, the running hog's attributes are set again
 * (the same ones).
 */
static void check_protect_at_pick(int stable, bool restarted)
{
	struct fx *f = fx_new(1, KV(6, 18), SCHED_VARIANT_EEVDF);
	struct task_struct *p = protected_hog(f, stable);
	u64 vprot = p->se.vprot;

	assert_int_equal(
		__sched_setscheduler(p, &(struct sched_attr){ .policy = SCHED_NORMAL, .slice = 6 * MS }), 0);
	assert_true(cpu_rq(0)->curr == p);
	/* set_protect_slice() from here: the deadline, or sooner, 2 ms on */
	u64 again = MIN(p->se.deadline, p->se.vruntime + calc_delta_fair(2 * MS, &p->se));

	assert_int_not_equal(again, vprot);
	assert_int_equal(p->se.vprot, restarted ? again : vprot);
	fx_free(f);
}

static void test_protect_at_pick_only(void **state)
{
	check_protect_at_pick(16, true);
	check_protect_at_pick(17, false);
	check_protect_at_pick(44, false);
}

/*
 * A weight change of the running entity while it is protected: from
 * ff38424030f9 (6.18.17) its protection keeps its distance to vruntime,
 * scaled by old / new weight as its deadline is; before, vprot stayed put
 * (the nice-0 hog of check_protect_at_pick() reweighted to nice 5's 335).
 */
static void check_reweight_vprot(int stable, bool scaled)
{
	struct fx *f = fx_new(1, KV(6, 18), SCHED_VARIANT_EEVDF);
	struct task_struct *p = protected_hog(f, stable);
	unsigned long w, nw = scale_load(335);
	u64 vprot = p->se.vprot;
	s64 rel = (s64)(vprot - p->se.vruntime);

	w = p->se.load.weight;
	reweight_entity(cfs_rq_of(&p->se), &p->se, nw);
	assert_int_equal(p->se.load.weight, nw);
	if (scaled)
		assert_int_equal(p->se.vprot, p->se.vruntime + (u64)reweight_scale(rel, w, nw));
	else
		assert_int_equal(p->se.vprot, vprot);
	/* the protection grew by 1024 / 335 in virtual time: still ahead of vruntime */
	assert_true(protect_slice(&p->se));
	fx_free(f);
}

static void test_reweight_keeps_vprot(void **state)
{
	check_reweight_vprot(16, false);
	check_reweight_vprot(17, true);
	check_reweight_vprot(44, true);
}

/*
 * reweight_entity() of a queued nice-0 hog to nice 5's 335, by hand: with v0 the reference,
 * the running A at v0+3ms (deadline +3.7ms) and the waiting B at v0+1ms (deadline +1.7ms),
 * V = v0+2ms, A's lag -1ms, B's +1ms.
 * Keeping w*lag about V (reweight_eevdf()): A's lag -1ms * 1024/335 = -3056716, so v' = V +
 * 3056716 = +5056716, d' = V + 1.7ms * 1024/335 (5196417) = +7196417; B's lag 3056716 gives
 * v' = -1056716, d' = V - 0.3ms * 1024/335 (-917014) = +1082986.
 * 6d71a9c61604's place_entity(): for A (curr, counted at its new weight) V = (1ms * 1024 +
 * 3ms * 335) / 1359 = +1493009 and the lag grows by (1359 + 335) / 1359 to -3810211, so
 * v' = +5303220 and d' = v' + 0.7ms * 1024/335 (2139701) = +7442921; for B V is A's +3ms
 * and the lag 3056716 * 1359/1024 = 4056715, so v' = -1056715, d' = +1082986.
 * A's protection at +3.501ms (6.18.17's ff38424030f9 scales it): 0.501ms * 1024/335 =
 * 1531414 past v' = +6834634 with 6d71a9c61604; 1.501ms * 1024/335 = 4588131 past V =
 * +6588131 with its revert.
 */
/* The state above on kernel (stable), with *v0 the reference: A is cfs->curr, B __pick_first_entity(cfs). */
static struct cfs_rq *reweight_state(struct fx *f, int stable, u64 *v0)
{
	f->sc.kernel_stable = stable;
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	struct cfs_rq *cfs = cpu0_cfs_at(e, 20 * MS + 300 * US);
	struct sched_entity *a = cfs->curr, *b = __pick_first_entity(cfs);

	assert_int_equal(cfs->nr_running, 2);
	update_curr(cfs);
	__dequeue_entity(cfs, b);
	*v0 = cfs->min_vruntime;
	b->vruntime = *v0 + 1 * MS;
	b->deadline = *v0 + 1700 * US;
	__enqueue_entity(cfs, b);
	a->vruntime = *v0 + 3 * MS;
	a->deadline = *v0 + 3700 * US;
	a->vprot = *v0 + 3501 * US;
	assert_int_equal(avg_vruntime_peek(cfs), *v0 + 2 * MS);
	return cfs;
}

static void check_reweight_place(int kernel, int stable, bool running, s64 v, s64 d, s64 prot)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	u64 v0;
	struct cfs_rq *cfs = reweight_state(f, stable, &v0);
	struct sched_entity *a = cfs->curr, *se = running ? a : __pick_first_entity(cfs);

	reweight_entity(cfs, se, scale_load(335));
	assert_int_equal((s64)(se->vruntime - v0), v);
	assert_int_equal((s64)(se->deadline - v0), d);
	assert_int_equal(se->rel_deadline, 0);
	assert_int_equal(cfs->nr_running, 2);
	assert_int_equal((s64)(a->vprot - v0), prot);
	fx_free(f);
}

/*
 * B taken off the queue as a renice takes it (DEQUEUE_SAVE): its lag 1ms and its deadline
 * relative, 0.7ms. Its lag becomes 1ms * 1024/335 = 3056716 in every release; its relative
 * deadline 0.7ms * 1024/335 = 2139701 from 6d71a9c61604 (its revert kept that), 0.7ms before.
 */
static void check_reweight_off_queue(int kernel, int stable, s64 d)
{
	struct fx *f = fx_new(1, kernel, SCHED_VARIANT_EEVDF);
	u64 v0;
	struct cfs_rq *cfs = reweight_state(f, stable, &v0);
	struct sched_entity *b = __pick_first_entity(cfs);

	__dequeue_entity(cfs, b);
	b->on_rq = 0;
	cfs->nr_running--;
	b->vlag = 1 * MS;
	b->deadline -= b->vruntime;
	b->rel_deadline = 1;
	reweight_entity(cfs, b, scale_load(335));
	assert_int_equal(b->vlag, 3056716);
	assert_int_equal((s64)b->deadline, d);
	assert_int_equal(b->rel_deadline, 1);
	fx_free(f);
}

static void test_reweight_places_entity(void **state)
{
	(void)state;
	check_reweight_place(KV(6, 12), 0, true, 5056716, 7196417, 3501000);
	check_reweight_place(KV(6, 13), 0, true, 5303220, 7442921, 3501000);
	check_reweight_place(KV(6, 18), 44, true, 5303220, 7442921, 6834634);
	check_reweight_place(KV(6, 18), 45, true, 5056716, 7196417, 6588131);
	check_reweight_place(KV_LATEST, 0, true, 5303220, 7442921, 3501000);
	check_reweight_place(KV(6, 12), 0, false, -1056716, 1082986, 3501000);
	check_reweight_place(KV(6, 13), 0, false, -1056715, 1082986, 3501000);
	check_reweight_off_queue(KV(6, 12), 0, 700000);
	check_reweight_off_queue(KV(6, 13), 0, 2139701);
	check_reweight_off_queue(KV(6, 18), 45, 2139701);
}

static void test_custom_slice(void **state)
{
	check_custom_slice(KV_LATEST, FEAT_BIT(FEAT_HRTICK));
	check_custom_slice(KV(6, 12), FEAT_BIT(FEAT_HRTICK));
	check_custom_slice(KV(6, 17), FEAT_BIT(FEAT_HRTICK));
	check_custom_slice(KV_LATEST, 0);
}

/* reweight_scale(): v * old / new, truncated toward zero as div_s64(), also past 64-bit products */
static void test_reweight_scale(void **state)
{
	(void)state;
	assert_int_equal(reweight_scale(3000000, NICE_0_LOAD, scale_load(3121)), 984299);
	assert_int_equal(reweight_scale(-7, 3, 2), -10);
	/* 9e12 * (88761 << 10) is past 2^63: the 128-bit path */
	assert_int_equal(reweight_scale(9000000000000LL, scale_load(88761), scale_load(15)),
			 53256600000000000LL);
	assert_int_equal(reweight_scale(-9000000000000LL, scale_load(88761), scale_load(15)),
			 -53256600000000000LL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_V_is_weighted_average, fx_cleanup),
		cmocka_unit_test_teardown(test_pick_earliest_eligible_deadline, fx_cleanup),
		cmocka_unit_test_teardown(test_fresh_deadline_is_vslice, fx_cleanup),
		cmocka_unit_test_teardown(test_base_slice_scaling, fx_cleanup),
		cmocka_unit_test_teardown(test_deadline_4cpus, fx_cleanup),
		cmocka_unit_test_teardown(test_new_task_placement, fx_cleanup),
		cmocka_unit_test_teardown(test_wakeup_placement_keeps_lag, fx_cleanup),
		cmocka_unit_test_teardown(test_renice_keeps_weighted_lag, fx_cleanup),
		cmocka_unit_test_teardown(test_renice_keeps_min_vruntime, fx_cleanup),
		cmocka_unit_test_teardown(test_zero_vruntime_tracking, fx_cleanup),
		cmocka_unit_test_teardown(test_lag_clamp_max_slice, fx_cleanup),
		cmocka_unit_test_teardown(test_timeline_extrema, fx_cleanup),
		cmocka_unit_test_teardown(test_lag_clamp, fx_cleanup),
		cmocka_unit_test_teardown(test_saved_lag_within_clamp, fx_cleanup),
		cmocka_unit_test_teardown(test_shares_0_0_5, fx_cleanup),
		cmocka_unit_test_teardown(test_shares_m5_0_5_10, fx_cleanup),
		cmocka_unit_test_teardown(test_shares_sched_idle, fx_cleanup),
		cmocka_unit_test_teardown(test_custom_slice, fx_cleanup),
		cmocka_unit_test_teardown(test_wakeup_pick_dequeues_delayed, fx_cleanup),
		cmocka_unit_test_teardown(test_fork_clears_rel_deadline, fx_cleanup),
		cmocka_unit_test_teardown(test_ineligible_waker_not_forced, fx_cleanup),
		cmocka_unit_test_teardown(test_stable_6_18_rules, fx_cleanup),
		cmocka_unit_test_teardown(test_protect_at_pick_only, fx_cleanup),
		cmocka_unit_test_teardown(test_reweight_keeps_vprot, fx_cleanup),
		cmocka_unit_test_teardown(test_reweight_places_entity, fx_cleanup),
		cmocka_unit_test(test_reweight_scale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
