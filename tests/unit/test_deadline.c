// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE (kernel/sched/deadline.c): admission control against
 * sched_rt_runtime_us / sched_rt_period_us of the CPUs' capacity (with
 * 6.12's fair servers), CBS throttling and replenishment, EDF order, the
 * wakeup rule, constrained deadlines, yield and deadline misses. Expected
 * values are worked out by hand in the comments from the kernel's rules.
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

#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

static struct sched_task_spec *dl_task_spec(struct fx *f, u64 runtime, u64 deadline, u64 period,
					    const struct sched_program *prog)
{
	struct sched_task_spec *t = fx_add_task(f, 0, SCHED_DEADLINE, 0, prog);

	t->dl_runtime = runtime;
	t->dl_deadline = deadline;
	t->dl_period = period;
	return t;
}

static u64 cpu_time(struct sched_engine *e, int task)
{
	struct sched_task_info ti;

	sched_task_info(e, task, &ti);
	return ti.sum_exec_runtime;
}

/* loop { run R; sleep S } or, with yield, loop { run R; yield } */
static const struct sched_program *periodic(struct fx *f, int slot, u64 run, u64 sleep, bool yield)
{
	const struct prog_insn in[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, run, 0 } },
		yield ? (struct prog_insn){ .op = PROG_YIELD }
		      : (struct prog_insn){ .op = PROG_SLEEP, .dur = { DIST_CONST, sleep, 0 } },
		{ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 },
	};

	return fx_program(f, slot, in, 4, 1);
}

#define MAX_REC 64
struct rec {
	int n;
	struct sched_event ev[MAX_REC];
	int count[NR_SCHED_EVENTS];
};

static void record_dl(void *ctx, const struct sched_event *ev)
{
	struct rec *r = ctx;

	r->count[ev->type]++;
	if ((ev->type == EV_DL_THROTTLE || ev->type == EV_DL_REPLENISH || ev->type == EV_DL_MISS) &&
	    ev->dl.pid > 0 && r->n < MAX_REC)
		r->ev[r->n++] = *ev;
}

/* ---- admission ---- */

static int admit(int kv, int ncpus, const u64 *runtime_ms, int n, u64 rt_runtime)
{
	struct fx *f = fx_new(ncpus, kv, SCHED_VARIANT_EEVDF);
	int bad;

	if (rt_runtime) {
		f->sc.tunable[TUN_RT_RUNTIME] = rt_runtime;
		f->sc.tunable_set[TUN_RT_RUNTIME] = true;
	}
	for (int i = 0; i < n; i++) {
		struct sched_task_spec *t = dl_task_spec(f, runtime_ms[i] * MS, 100 * MS, 100 * MS, NULL);
		t->has_cpus = false;
	}
	int bad_action, r = sched_dl_admission_check(&f->sc, &bad, &bad_action);

	assert_int_equal(r, bad >= 0);
	assert_int_equal(bad_action, -1);
	fx_free(f);
	return bad;
}

static void test_admission(void **state)
{
	/*
	 * to_ratio(100ms, Q) = Q/100ms << 20; the limit per CPU is
	 * to_ratio(1s, 950ms) = 996147. 50 % + 45 % = 524288 + 471859 = 996147:
	 * exactly at the limit, admitted (only a sum above it overflows).
	 */
	const u64 fits[] = { 50, 45 }, over[] = { 50, 46 };
	assert_int_equal(to_ratio(100 * MS, 45 * MS), 471859);
	assert_int_equal(to_ratio(SEC, 950 * MS), 996147);
	assert_int_equal(admit(KV(6, 11), 1, fits, 2, 0), -1);
	assert_int_equal(admit(KV(6, 11), 1, over, 2, 0), 1);

	/* 6.12: the fair server's 50 ms/1 s (52428) is taken first: 90 % fits, 91 % not */
	const u64 ninety[] = { 90 }, ninety_one[] = { 91 };
	assert_int_equal(admit(KV(6, 12), 1, ninety, 1, 0), -1);
	assert_int_equal(admit(KV(6, 12), 1, ninety_one, 1, 0), 0);
	assert_int_equal(admit(KV(6, 11), 1, ninety_one, 1, 0), -1);

	/* the limit scales with the CPUs' capacity: 3 x 60 % fit on 2 CPUs, a 4th does not */
	const u64 four[] = { 60, 60, 60, 60 };
	assert_int_equal(admit(KV(6, 11), 2, four, 4, 0), 3);

	/* sched_rt_runtime_us = -1: no limit */
	const u64 full[] = { 100, 100 };
	assert_int_equal(admit(KV(6, 11), 1, full, 2, RUNTIME_INF), -1);
}

static void test_admission_of_actions(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	int bad, bad_action;

	/* a 40 % task; t1 to 50 % at 1 s (90 %), back to fair at 2 s, to 55 % at 3 s (95 %) */
	dl_task_spec(f, 40 * MS, 100 * MS, 100 * MS, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	f->action[0] = (struct sched_action){ SEC, { .kind = CMD_SET_POLICY, .task = 1, .key = SCHED_DEADLINE,
						      .dl = { 50 * MS, 100 * MS, 100 * MS } }, 7 };
	f->action[1] = (struct sched_action){ 2 * SEC, { .kind = CMD_SET_POLICY, .task = 1,
							  .key = SCHED_NORMAL }, 8 };
	f->action[2] = (struct sched_action){ 3 * SEC, { .kind = CMD_SET_POLICY, .task = 1, .key = SCHED_DEADLINE,
							  .dl = { 55 * MS, 100 * MS, 0 } }, 9 };
	f->sc.nr_actions = 3;
	/* 40 % + 55 % = 419430 + 576716 = 996146 <= 996147: fits */
	assert_int_equal(sched_dl_admission_check(&f->sc, &bad, &bad_action), 0);
	f->action[2].cmd.dl.runtime = 56 * MS;
	assert_int_equal(sched_dl_admission_check(&f->sc, &bad, &bad_action), 1);
	assert_int_equal(bad, -1);
	assert_int_equal(bad_action, 2);
	/* without the return to SCHED_NORMAL at 2 s, the second change replaces t1's 50 %: 40 + 56 still too much */
	f->action[1].cmd.key = SCHED_FIFO;
	assert_int_equal(sched_dl_admission_check(&f->sc, &bad, &bad_action), 1);
	assert_int_equal(bad_action, 2);
	/* and the first alone, 40 + 56 at 1 s, is refused there */
	f->action[0].cmd.dl.runtime = 56 * MS;
	assert_int_equal(sched_dl_admission_check(&f->sc, &bad, &bad_action), 1);
	assert_int_equal(bad_action, 0);
}

static void test_runtime_admission_refused(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct sched_command c = { .kind = CMD_SET_POLICY, .task = 1, .key = SCHED_DEADLINE,
				   .dl = { 50 * MS, 100 * MS, 100 * MS } };
	struct sched_task_info ti;
	char err[256];

	dl_task_spec(f, 50 * MS, 100 * MS, 100 * MS, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 10 * MS);
	/* 50 % + 50 % > 95 %: refused, and t1 stays as it was */
	assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t1: SCHED_DEADLINE admission failed"));
	sched_task_info(e, 1, &ti);
	assert_int_equal(ti.policy, SCHED_NORMAL);
	assert_int_equal(e->st->dl_total_bw, to_ratio(100 * MS, 50 * MS));

	/* 40 % fits; its bandwidth joins the total */
	c.dl.runtime = 40 * MS;
	assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
	sched_task_info(e, 1, &ti);
	assert_int_equal(ti.policy, SCHED_DEADLINE);
	assert_int_equal(ti.prio, -1);
	assert_int_equal(e->st->dl_total_bw, to_ratio(100 * MS, 50 * MS) + to_ratio(100 * MS, 40 * MS));

	/* a smaller RT limit must still hold the 90 % admitted: 80 % is refused, runtime > period too */
	struct sched_command t = { .kind = CMD_SET_TUNABLE, .task = -1, .key = TUN_RT_RUNTIME,
				   .value = 800 * MS };
	assert_int_equal(sched_apply_command(e, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "EBUSY"));
	t.value = 2 * SEC;
	assert_int_equal(sched_apply_command(e, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "EINVAL"));
	t.value = 900 * MS;
	assert_int_equal(sched_apply_command(e, &t, err, sizeof(err)), 0);

	/* leaving SCHED_DEADLINE gives it back */
	c = (struct sched_command){ .kind = CMD_SET_POLICY, .task = 1, .key = SCHED_NORMAL };
	assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
	assert_int_equal(e->st->dl_total_bw, to_ratio(100 * MS, 50 * MS));
}

/* ---- CBS ---- */

static void test_cbs_throttles_a_hog(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct rec r = { 0 };

	dl_task_spec(f, 10 * MS, 100 * MS, 100 * MS, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, record_dl, &r);
	/*
	 * 10 ms of budget per 100 ms: throttled at 10, 110, ... 910 ms (on the
	 * 1 ms ticks, so no overrun), replenished at 100, 200, ... 1000 ms.
	 */
	sched_run_until(e, SEC);
	assert_int_equal(cpu_time(e, 0), 100 * MS);
	assert_int_equal(cpu_time(e, 1), 900 * MS);
	assert_int_equal(r.count[EV_DL_THROTTLE], 10);
	assert_int_equal(r.count[EV_DL_REPLENISH], 10);
	assert_int_equal(r.ev[0].type, EV_DL_THROTTLE);
	assert_int_equal(r.ev[0].time, 10 * MS);
	assert_int_equal(r.ev[1].type, EV_DL_REPLENISH);
	assert_int_equal(r.ev[1].time, 100 * MS);
	assert_int_equal(r.ev[1].dl.deadline, 200 * MS);
	assert_int_equal(r.ev[1].dl.runtime, 10 * MS);
}

static void test_overrun_carried_into_next_period(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct rec r = { 0 };

	f->sc.hz = 250;
	dl_task_spec(f, 10 * MS, 100 * MS, 100 * MS, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, record_dl, &r);
	/*
	 * At HZ 250 the budget is checked every 4 ms: the 10 ms run is seen
	 * at 12 ms, 2 ms over. The replenishment adds 10 ms to -2 ms: 8 ms in
	 * the next period, and so on: 12, 8, 12, 8 ... averaging 10 ms.
	 */
	sched_run_until(e, 200 * MS);
	assert_int_equal(r.ev[0].dl.runtime, -2 * (s64)MS);
	assert_int_equal(r.ev[1].dl.runtime, 8 * MS);
	assert_int_equal(cpu_time(e, 0), 20 * MS);
}

static void test_edf_order(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);

	/* t0: deadline 100 ms; t1: deadline 50 ms. t1 goes first although queued second. */
	dl_task_spec(f, 20 * MS, 100 * MS, 100 * MS, NULL);
	dl_task_spec(f, 20 * MS, 50 * MS, 100 * MS, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 20 * MS);
	assert_int_equal(cpu_time(e, 0), 0);
	assert_int_equal(cpu_time(e, 1), 20 * MS);
	sched_run_until(e, 40 * MS);
	assert_int_equal(cpu_time(e, 0), 20 * MS);
	/* both throttled until 100 ms: the CPU idles */
	sched_run_until(e, 99 * MS);
	assert_int_equal(cpu_time(e, 0) + cpu_time(e, 1), 40 * MS);
}

static void test_wakeup_rule_keeps_or_renews(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct rec r = { 0 };

	/*
	 * Q = 10 ms, D = P = 100 ms; run 2 ms, sleep 10 ms. Waking at 12k ms
	 * with 10 - 2k ms left, (10 - 2k) / (100 - 12k) never exceeds 10/100,
	 * so the deadline (100 ms) and the budget are kept; the fifth run
	 * (48..50 ms) uses it up: throttled at 50 ms. The wakeup at 60 ms finds
	 * it throttled; the timer at 100 ms (the next period) replenishes it
	 * with deadline 200 ms and it runs again from 100 ms.
	 */
	dl_task_spec(f, 10 * MS, 100 * MS, 100 * MS, periodic(f, 0, 2 * MS, 10 * MS, false));
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, record_dl, &r);
	sched_run_until(e, 99 * MS);
	assert_int_equal(cpu_time(e, 0), 10 * MS);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.ev[0].type, EV_DL_THROTTLE);
	assert_int_equal(r.ev[0].time, 50 * MS);
	assert_int_equal(r.ev[0].dl.deadline, 100 * MS);
	sched_run_until(e, 102 * MS);
	assert_int_equal(cpu_time(e, 0), 12 * MS);
	assert_int_equal(r.ev[1].type, EV_DL_REPLENISH);
	assert_int_equal(r.ev[1].time, 100 * MS);
	assert_int_equal(r.ev[1].dl.deadline, 200 * MS);
	/* no job ended late: each ended before its deadline */
	assert_int_equal(r.count[EV_DL_MISS], 0);
}

static void test_wakeup_after_deadline_renews(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct rec r = { 0 };

	/* Q = 5, D = P = 20 ms; run 1 ms, sleep 30 ms: every wakeup is past the old
	 * deadline, so each gets deadline = now + 20 ms and a full budget */
	dl_task_spec(f, 5 * MS, 20 * MS, 20 * MS, periodic(f, 0, 1 * MS, 30 * MS, false));
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, record_dl, &r);
	sched_run_until(e, 100 * MS);
	assert_int_equal(T(e, 0)->dl.deadline - SCHED_CLOCK_BOOT, 93 * MS + 20 * MS);
	assert_int_equal(T(e, 0)->dl.runtime, 4 * MS);
	assert_int_equal(r.count[EV_DL_THROTTLE], 0);
}

static void test_deadline_misses(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct rec r = { 0 };

	/*
	 * Q = 5, D = 10, P = 100 ms, but each job needs 8 ms: throttled after
	 * 5 ms, it gets the rest at the next period (100..103 ms) and ends
	 * 93 ms past its 10 ms deadline. Woken at 195 ms, after its deadline
	 * (110) but before the period end (200), the constrained task waits
	 * for 200 ms (dl_check_constrained_dl()); the job then ends at 303 ms
	 * against deadline 210 ms. Jobs end at 103, 303, 503, 703, 903 ms.
	 */
	dl_task_spec(f, 5 * MS, 10 * MS, 100 * MS, periodic(f, 0, 8 * MS, 92 * MS, false));
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, record_dl, &r);
	sched_run_until(e, SEC);
	assert_int_equal(r.count[EV_DL_MISS], 5);
	for (int i = 0; i < r.n; i++)
		if (r.ev[i].type == EV_DL_MISS) {
			assert_int_equal(r.ev[i].time, 103 * MS);
			assert_int_equal(r.ev[i].dl.runtime, 93 * MS);
			assert_int_equal(r.ev[i].dl.deadline, 10 * MS);
			break;
		}
	assert_int_equal(cpu_time(e, 0), 5 * 8 * MS);
}

static void test_yield_forfeits_the_instance(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);

	/* Q = 5 ms per 100 ms, but each 1 ms run ends in sched_yield(): the
	 * rest of the instance is given up, so 1 ms per period */
	dl_task_spec(f, 5 * MS, 100 * MS, 100 * MS, periodic(f, 0, 1 * MS, 0, true));
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, SEC);
	assert_int_equal(cpu_time(e, 0), 10 * MS);
}

static void test_dl_preempts_rt(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct sched_task_spec *rt = fx_add_task(f, 0, SCHED_FIFO, 0, NULL);

	rt->rt_priority = 99;
	dl_task_spec(f, 10 * MS, 30 * MS, 100 * MS, periodic(f, 1, 10 * MS, 90 * MS, false))->start = 5 * MS;
	struct sched_engine *e = fx_start(f);
	/* the DL task takes the CPU from the highest RT priority at once */
	sched_run_until(e, 15 * MS);
	assert_int_equal(cpu_time(e, 1), 10 * MS);
	assert_int_equal(cpu_time(e, 0), 5 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_admission, fx_cleanup),
		cmocka_unit_test_teardown(test_admission_of_actions, fx_cleanup),
		cmocka_unit_test_teardown(test_runtime_admission_refused, fx_cleanup),
		cmocka_unit_test_teardown(test_cbs_throttles_a_hog, fx_cleanup),
		cmocka_unit_test_teardown(test_overrun_carried_into_next_period, fx_cleanup),
		cmocka_unit_test_teardown(test_edf_order, fx_cleanup),
		cmocka_unit_test_teardown(test_wakeup_rule_keeps_or_renews, fx_cleanup),
		cmocka_unit_test_teardown(test_wakeup_after_deadline_renews, fx_cleanup),
		cmocka_unit_test_teardown(test_deadline_misses, fx_cleanup),
		cmocka_unit_test_teardown(test_yield_forfeits_the_instance, fx_cleanup),
		cmocka_unit_test_teardown(test_dl_preempts_rt, fx_cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
