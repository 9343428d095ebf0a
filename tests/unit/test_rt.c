// SPDX-License-Identifier: GPL-2.0
/*
 * The RT class (kernel/sched/rt.c): prio = 99 - rt_priority,
 * FIFO order, RR slices of sched_rr_timeslice, preemption of fair tasks,
 * sched_setscheduler() between classes, RT throttling up to 6.11 and the
 * fair deadline server from 6.12. Every expected time is worked out from
 * the kernel's rules in the comment next to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/balance.h"
#include "fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

static struct sched_task_spec *add_rt_task(struct fx *f, int policy, unsigned int prio,
				       const struct sched_program *prog)
{
	struct sched_task_spec *t = fx_add_task(f, 0, policy, 0, prog);

	t->rt_priority = prio;
	return t;
}

/* run D; exit */
static const struct sched_program *run_once(struct fx *f, int slot, u64 d)
{
	const struct prog_insn in[] = { { .op = PROG_RUN, .dur = { DIST_CONST, d, 0 } } };

	return fx_program(f, slot, in, 1, 0);
}

static u64 cpu_time(struct sched_engine *e, int task)
{
	struct sched_task_info ti;

	sched_task_info(e, task, &ti);
	return ti.sum_exec_runtime;
}

struct counts {
	int n[NR_SCHED_EVENTS];
	int next_prio_of_pid1;
};

static void count_event(void *ctx, const struct sched_event *ev)
{
	struct counts *c = ctx;

	c->n[ev->type]++;
	if (ev->type == EV_SCHED_SWITCH && ev->sw.next_pid == 1)
		c->next_prio_of_pid1 = ev->sw.next_prio;
}

/* ---- priorities ---- */

static void test_prio_numbers(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct counts c = { 0 };
	struct sched_task_info ti;

	add_rt_task(f, SCHED_FIFO, 50, NULL);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, count_event, &c);
	sched_run_until(e, 10 * MS);
	sched_task_info(e, 0, &ti);
	/* MAX_RT_PRIO - 1 - rt_priority, as ftrace prints it */
	assert_int_equal(ti.prio, 49);
	assert_int_equal(ti.rt_priority, 50);
	assert_int_equal(c.next_prio_of_pid1, 49);
	assert_ptr_equal(T(e, 0)->sched_class, &rt_sched_class);
}

/* ---- FIFO and RR ---- */

static void test_fifo_runs_to_completion(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);

	/* equal priorities never preempt: t0 runs its 30 ms, then t1 */
	add_rt_task(f, SCHED_FIFO, 10, run_once(f, 0, 30 * MS));
	add_rt_task(f, SCHED_FIFO, 10, run_once(f, 1, 30 * MS));
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 29 * MS);
	assert_int_equal(cpu_time(e, 0), 29 * MS);
	assert_int_equal(cpu_time(e, 1), 0);
	sched_run_until(e, 45 * MS);
	assert_int_equal(cpu_time(e, 0), 30 * MS);
	assert_int_equal(cpu_time(e, 1), 15 * MS);
}

static void test_rr_timeslice(void **state)
{
	const u32 hz[] = { 1000, 250, 100 };

	for (size_t i = 0; i < ARRAY_SIZE(hz); i++) {
		struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);

		f->sc.hz = hz[i];
		add_rt_task(f, SCHED_RR, 10, NULL);
		add_rt_task(f, SCHED_RR, 10, NULL);
		struct sched_engine *e = fx_start(f);
		/* RR_TIMESLICE = 100 ms at any HZ: t0 has the first 100 ms, t1 the next */
		sched_run_until(e, 150 * MS);
		assert_int_equal(cpu_time(e, 0), 100 * MS);
		sched_run_until(e, 200 * MS);
		assert_int_equal(cpu_time(e, 1), 100 * MS);
		sched_run_until(e, SEC);
		assert_int_equal(cpu_time(e, 0), 500 * MS);
		assert_int_equal(cpu_time(e, 1), 500 * MS);
		fx_free(f);
	}
}

static void test_rr_timeslice_tunable(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);

	f->sc.tunable[TUN_RR_TIMESLICE] = 30 * MS;
	f->sc.tunable_set[TUN_RR_TIMESLICE] = true;
	add_rt_task(f, SCHED_RR, 10, NULL);
	add_rt_task(f, SCHED_RR, 10, NULL);
	struct sched_engine *e = fx_start(f);
	/* sched_rr_timeslice_ms=30: slices of 30 ticks at HZ 1000 */
	sched_run_until(e, 45 * MS);
	assert_int_equal(cpu_time(e, 0), 30 * MS);
	assert_int_equal(cpu_time(e, 1), 15 * MS);
}

static void test_rr_alone_at_its_prio_keeps_running(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);

	/* an RR task alone at its priority is not rescheduled at slice end */
	add_rt_task(f, SCHED_RR, 20, NULL);
	add_rt_task(f, SCHED_RR, 10, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 500 * MS);
	assert_int_equal(cpu_time(e, 0), 500 * MS);
	assert_int_equal(cpu_time(e, 1), 0);
}

/* ---- preemption ---- */

static void test_rt_preempts_fair_and_lower_rt(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);

	fx_task(f, -20, SCHED_NORMAL, 0, 0, NULL);
	add_rt_task(f, SCHED_FIFO, 1, NULL)->start = 10 * MS;
	add_rt_task(f, SCHED_FIFO, 2, run_once(f, 2, 5 * MS))->start = 20 * MS;
	struct sched_engine *e = fx_start(f);
	/* the fair task ran 0..10 ms; t1 10..20 and 25..; t2 (higher) 20..25 */
	sched_run_until(e, 100 * MS);
	assert_int_equal(cpu_time(e, 0), 10 * MS);
	assert_int_equal(cpu_time(e, 1), 85 * MS);
	assert_int_equal(cpu_time(e, 2), 5 * MS);
}

static void test_yield_goes_to_tail(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	const struct prog_insn in[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 1 * MS, 0 } },
		{ .op = PROG_YIELD },
		{ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 },
	};
	const struct sched_program *p = fx_program(f, 0, in, 4, 1);
	struct counts c = { 0 };

	add_rt_task(f, SCHED_FIFO, 5, p);
	add_rt_task(f, SCHED_FIFO, 5, p);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, count_event, &c);
	/* each 1 ms run ends in a yield that hands the CPU to the other:
	 * the first switch at 0, then one at every ms up to 100 ms included */
	sched_run_until(e, 100 * MS);
	assert_int_equal(cpu_time(e, 0), 50 * MS);
	assert_int_equal(cpu_time(e, 1), 50 * MS);
	assert_int_equal(c.n[EV_SCHED_SWITCH], 101);
}

/* ---- sched_setscheduler() ---- */

static void test_setscheduler_between_classes(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_command to_rt = { .kind = CMD_SET_POLICY, .task = 1, .key = SCHED_FIFO, .value = 30 };
	struct sched_command to_fair = { .kind = CMD_SET_POLICY, .task = 1, .key = SCHED_NORMAL };
	struct sched_command bad = { .kind = CMD_SET_POLICY, .task = 1, .key = SCHED_RR, .value = 100 };
	struct sched_task_info ti;
	char err[256];

	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 100 * MS);
	u64 t0 = cpu_time(e, 0), t1 = cpu_time(e, 1);

	assert_int_equal(sched_apply_command(e, &to_rt, err, sizeof(err)), 0);
	sched_task_info(e, 1, &ti);
	assert_int_equal(ti.policy, SCHED_FIFO);
	assert_int_equal(ti.prio, 69);
	/* from now on t1 has the CPU to itself */
	sched_run_until(e, 300 * MS);
	assert_int_equal(cpu_time(e, 0), t0);
	assert_int_equal(cpu_time(e, 1), t1 + 200 * MS);

	assert_int_equal(sched_apply_command(e, &bad, err, sizeof(err)), -1);
	assert_string_equal(err, "rt priority 100 is outside 1..99");

	assert_int_equal(sched_apply_command(e, &to_fair, err, sizeof(err)), 0);
	sched_task_info(e, 1, &ti);
	assert_int_equal(ti.prio, 120);
	assert_ptr_equal(T(e, 1)->sched_class, &fair_sched_class);
	/* back to sharing: both run within the next second */
	sched_run_until(e, 1300 * MS);
	assert_true(cpu_time(e, 0) > t0 + 400 * MS);
	assert_true(cpu_time(e, 1) > t1 + 200 * MS + 400 * MS);
}

/*
 * set_user_nice() on an RT task only records the nice (kernel/sched/
 * syscalls.c): its weight, and so its PELT load, stay until it is fair
 * again. The engine used to reweight it without rescaling load_avg, which
 * left load_avg above the new weight (found by the engine fuzzer).
 */
static void test_nice_of_rt_task_waits(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_command to_rt = { .kind = CMD_SET_POLICY, .task = 0, .key = SCHED_FIFO, .value = 30 };
	struct sched_command nice0 = { .kind = CMD_SET_NICE, .task = 0, .value = 0 };
	struct sched_command to_fair = { .kind = CMD_SET_POLICY, .task = 0, .key = SCHED_NORMAL };
	struct sched_task_info ti;
	char err[256];

	(void)state;
	fx_task(f, -3, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 100 * MS);
	assert_int_equal(sched_apply_command(e, &to_rt, err, sizeof(err)), 0);
	assert_int_equal(T(e, 0)->se.load.weight, scale_load(1991));
	assert_int_equal(sched_apply_command(e, &nice0, err, sizeof(err)), 0);
	/* nice 0 recorded, weight still nice -3's */
	assert_int_equal(T(e, 0)->static_prio, 120);
	assert_int_equal(T(e, 0)->se.load.weight, scale_load(1991));
	sched_task_info(e, 0, &ti);
	assert_int_equal(ti.prio, 69);
	sched_run_until(e, 200 * MS);
	/* fair again: the recorded nice applies */
	assert_int_equal(sched_apply_command(e, &to_fair, err, sizeof(err)), 0);
	assert_int_equal(T(e, 0)->se.load.weight, scale_load(1024));
	sched_task_info(e, 0, &ti);
	assert_int_equal(ti.prio, 120);
}

static void test_lowered_prio_hands_over(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_command lower = { .kind = CMD_SET_POLICY, .task = 0, .key = SCHED_FIFO, .value = 5 };
	char err[256];

	add_rt_task(f, SCHED_FIFO, 50, NULL);
	add_rt_task(f, SCHED_FIFO, 10, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 10 * MS);
	assert_int_equal(sched_apply_command(e, &lower, err, sizeof(err)), 0);
	/* prio_changed_rt(): the running task fell below a queued one */
	sched_run_until(e, 20 * MS);
	assert_int_equal(cpu_time(e, 0), 10 * MS);
	assert_int_equal(cpu_time(e, 1), 10 * MS);
}

static void test_lowered_queued_task_goes_to_the_head(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_command lower = { .kind = CMD_SET_POLICY, .task = 2, .key = SCHED_FIFO, .value = 10 };
	char err[256];

	add_rt_task(f, SCHED_FIFO, 50, run_once(f, 0, 10 * MS));
	add_rt_task(f, SCHED_FIFO, 10, NULL);
	add_rt_task(f, SCHED_FIFO, 20, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 5 * MS);
	/* ENQUEUE_HEAD: t2, lowered from 20 to 10 while queued, goes before t1 */
	assert_int_equal(sched_apply_command(e, &lower, err, sizeof(err)), 0);
	sched_run_until(e, 15 * MS);
	assert_int_equal(cpu_time(e, 0), 10 * MS);
	assert_int_equal(cpu_time(e, 1), 0);
	assert_int_equal(cpu_time(e, 2), 5 * MS);
}

/* ---- placement on more than one CPU ---- */

static void test_wakeup_placement_find_lowest_rq(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_task_spec *t;
	struct sched_task_info ti;

	/* t0: prio-50 hog pinned to CPU 0; t1: fair hog pinned to CPU 1 */
	add_rt_task(f, SCHED_FIFO, 50, NULL);
	fx_add_task(f, 0, SCHED_NORMAL, 1, NULL);
	/* t2 (prio 40) forks at 10 ms from CPU 0 (the launcher), where it
	 * cannot preempt t0: find_lowest_rq() sends it to CPU 1, which runs
	 * only fair work (cpupri 0) */
	t = fx_add_task(f, 0, SCHED_FIFO, -1, NULL);
	t->rt_priority = 40;
	t->start = 10 * MS;
	/* t3 (prio 60) forks at 20 ms from CPU 0 too: t0 could be preempted
	 * but is pinned (curr->nr_cpus_allowed < 2), so t3 looks for the
	 * lowest cpupri below its own: CPU 1 running t2 (40 < 60). It preempts
	 * t2 there, and t2 has nowhere lower to be pushed to */
	t = fx_add_task(f, 0, SCHED_FIFO, -1, NULL);
	t->rt_priority = 60;
	t->start = 20 * MS;
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 30 * MS);
	sched_task_info(e, 2, &ti);
	assert_int_equal(ti.cpu, 1);
	sched_task_info(e, 3, &ti);
	assert_int_equal(ti.cpu, 1);
	assert_int_equal(cpu_time(e, 0), 30 * MS);
	assert_int_equal(cpu_time(e, 1), 10 * MS);
	assert_int_equal(cpu_time(e, 2), 10 * MS);
	assert_int_equal(cpu_time(e, 3), 10 * MS);
}

static void test_push_preempted_task(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_task_spec *t;
	struct sched_task_info ti;

	/* t0 (prio 10, free) runs on CPU 0; t1 (prio 20, pinned to CPU 0)
	 * arrives at 10 ms and preempts it; push_rt_tasks() then moves t0 to
	 * the idle CPU 1 instead of leaving it waiting */
	t = fx_add_task(f, 0, SCHED_FIFO, -1, NULL);
	t->rt_priority = 10;
	t = add_rt_task(f, SCHED_FIFO, 20, NULL);
	t->start = 10 * MS;
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 100 * MS);
	sched_task_info(e, 0, &ti);
	assert_int_equal(ti.cpu, 1);
	assert_int_equal(ti.nr_migrations, 1);
	assert_int_equal(cpu_time(e, 0), 100 * MS);
	assert_int_equal(cpu_time(e, 1), 90 * MS);
}

static void test_pull_when_a_cpu_frees_up(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_task_spec *t;
	struct sched_task_info ti;

	/* t0 (prio 50) holds CPU 0, t1 (prio 60) CPU 1 for 30 ms. t2 (prio 40,
	 * free) arrives at 10 ms: no CPU runs anything lower, so it waits on
	 * CPU 0. When t1 exits, CPU 1 pulls it (pull_rt_task()). */
	add_rt_task(f, SCHED_FIFO, 50, NULL);
	t = fx_add_task(f, 0, SCHED_FIFO, 1, run_once(f, 1, 30 * MS));
	t->rt_priority = 60;
	t = fx_add_task(f, 0, SCHED_FIFO, -1, NULL);
	t->rt_priority = 40;
	t->start = 10 * MS;
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 29 * MS);
	sched_task_info(e, 2, &ti);
	assert_int_equal(ti.cpu, 0);
	assert_int_equal(cpu_time(e, 2), 0);
	sched_run_until(e, 50 * MS);
	sched_task_info(e, 2, &ti);
	assert_int_equal(ti.cpu, 1);
	assert_int_equal(cpu_time(e, 2), 20 * MS);
}

/* ---- starvation protection ---- */

static void test_rt_throttling_6_11(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);
	struct counts c = { 0 };

	add_rt_task(f, SCHED_FIFO, 50, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, count_event, &c);
	/*
	 * rt_time is charged at each 1 ms tick; the rt_rq throttles at the
	 * first tick past 950 ms (rt_time 951 ms): the fair task has 951..1000.
	 * The period timer at 1 s takes 950 ms back, leaving 1 ms, so from then
	 * on the throttle comes at 1950, 2950...: 50 ms per period.
	 */
	sched_run_until(e, 10 * SEC);
	assert_int_equal(cpu_time(e, 1), 49 * MS + 9 * 50 * MS);
	assert_int_equal(cpu_time(e, 0), 10 * SEC - 499 * MS);
	assert_int_equal(c.n[EV_RT_THROTTLE], 10);
	assert_int_equal(c.n[EV_RT_UNTHROTTLE], 10);
}

static void test_rt_throttling_off(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);

	/* sched_rt_runtime_us = -1 */
	f->sc.tunable[TUN_RT_RUNTIME] = RUNTIME_INF;
	f->sc.tunable_set[TUN_RT_RUNTIME] = true;
	add_rt_task(f, SCHED_FIFO, 50, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_run_until(e, 3 * SEC);
	assert_int_equal(cpu_time(e, 1), 0);
}

static void test_rt_alone_throttled_only_before_6_12(void **state)
{
	struct fx *f = fx_new(1, KV(6, 11), SCHED_VARIANT_EEVDF);

	add_rt_task(f, SCHED_FIFO, 50, NULL);
	struct sched_engine *e = fx_start(f);
	/* throttling idles the CPU even with no fair task to protect: 0..951, 1000..1950 */
	sched_run_until(e, 2 * SEC);
	assert_int_equal(cpu_time(e, 0), 951 * MS + 950 * MS);
	fx_free(f);

	f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	add_rt_task(f, SCHED_FIFO, 50, NULL);
	e = fx_start(f);
	/* the fair server only runs fair tasks: none here, so RT keeps the CPU */
	sched_run_until(e, 2 * SEC);
	assert_int_equal(cpu_time(e, 0), 2 * SEC);
}

static void test_fair_server_6_12(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct counts c = { 0 };

	add_rt_task(f, SCHED_FIFO, 50, NULL);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, count_event, &c);
	/*
	 * The deferred server (50 ms per 1 s) starts with the fair task at 0:
	 * deadline 1 s, zero-laxity point 950 ms. Starved until then, it runs
	 * the fair task 950..1000 ms at DL priority, then every period's
	 * replenishment (1950 ms, 2950 ms, ...) gives it 50 ms more.
	 */
	sched_run_until(e, 950 * MS);
	assert_int_equal(cpu_time(e, 1), 0);
	sched_run_until(e, 1000 * MS);
	assert_int_equal(cpu_time(e, 1), 50 * MS);
	sched_run_until(e, 10 * SEC);
	assert_int_equal(cpu_time(e, 1), 10 * 50 * MS);
	assert_int_equal(c.n[EV_RT_THROTTLE], 0);
	assert_int_equal(c.n[EV_DL_THROTTLE], 10);
}

static void test_fair_server_idle_when_fair_runs(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	const struct prog_insn in[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 500 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 500 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 },
	};
	struct counts c = { 0 };

	/* an RT task that sleeps half the time: fair tasks get their 50 ms in the gaps */
	add_rt_task(f, SCHED_FIFO, 50, fx_program(f, 0, in, 4, 1));
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	struct sched_engine *e = fx_start(f);
	sched_add_listener(e, count_event, &c);
	sched_run_until(e, 10 * SEC);
	assert_int_equal(cpu_time(e, 0), 5 * SEC);
	assert_int_equal(cpu_time(e, 1), 5 * SEC);
	/* the server never had to run */
	assert_int_equal(c.n[EV_DL_THROTTLE], 0);
}

/*
 * What the passes over CPU 0's lowest domain saw: each EV_LB_GROUP of its
 * local group comes right after update_group_capacity() may have run.
 */
struct capacity_passes {
	int passes, fresh, stale, inconsistent;
	unsigned long before; /* capacity_of(0) when the last pass began */
};

static void note_capacity_pass(void *ctx, const struct sched_event *ev)
{
	struct capacity_passes *c = ctx;

	if (ev->type != EV_LB_GROUP || ev->cpu != 0 || !ev->lb_group.local || ev->lb_group.depth)
		return;
	c->passes++;
	/* scale_rt_capacity() with no interrupt time: 1024 - avg_rt */
	if (capacity_of(0) == 1024 - cpu_rq(0)->avg_rt.util_avg)
		c->fresh++;
	else if (capacity_of(0) == c->before)
		c->stale++;
	/* the group of one CPU holds that CPU's capacity */
	if (ev->lb_group.group_capacity != capacity_of(0))
		c->inconsistent++;
}

/*
 * avg_rt: an RT hog that runs half of every 100 ms (50 ms run, 50 ms sleep)
 * on CPU 0 leaves PELT around 1024 / 2 after a second (the running signal's
 * average, here within the swing of a 50 ms half-period). The fair balancer
 * sees the capacity left, scale_rt_capacity(): 1024 - avg_rt, as
 * update_cpu_capacity() [3.3: update_cpu_power()] measured it in the last
 * pass over CPU 0's lowest domain: between passes capacity_of(0) holds still
 * while avg_rt moves.
 */
static void capacity_measured_by_passes(int kv)
{
	struct fx *f = fx_new(2, kv, SCHED_VARIANT_EEVDF);
	const struct prog_insn in[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 3, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 50 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 50 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 },
	};
	struct capacity_passes c = { 0 };
	int held = 0, behind = 0;
	struct rq *rq;

	add_rt_task(f, SCHED_FIFO, 50, fx_program(f, 0, in, 4, 1));
	fx_start(f);
	sched_add_listener(f->e, note_capacity_pass, &c);
	/* the boot measured the CPUs idle: all of it */
	assert_int_equal(capacity_of(0), 1024);
	for (u64 t = MS; t <= SEC + 50 * MS; t += MS) {
		int passes = c.passes;

		c.before = capacity_of(0);
		sched_run_until(f->e, t);
		if (c.passes == passes) {
			assert_int_equal(capacity_of(0), c.before);
			held++;
		}
		behind += capacity_of(0) != scale_rt_capacity(0);
	}
	rq = cpu_rq(0);
	/* at 1.05 s after 50 ms of running, avg_rt is near its crest */
	assert_in_range(rq->avg_rt.util_avg, 690, 850);
	assert_int_equal(scale_rt_capacity(0), 1024 - rq->avg_rt.util_avg);
	assert_true(capacity_of(0) < 1024);
	assert_int_equal(c.inconsistent, 0);
	/* every pass measured again or, a newidle one before next_update, kept the last */
	assert_int_equal(c.fresh + c.stale, c.passes);
	assert_true(c.fresh > 5);
	assert_true(held > 100 && behind > 100);
	assert_int_equal(cpu_rq(1)->avg_rt.util_avg, 0);
	assert_int_equal(capacity_of(1), 1024);
	print_message("%d.%d: %d passes (%d measured), capacity_of(0) held for %d of 1050 ms, behind avg_rt "
		      "for %d\n",
		      kv / 100, kv % 100, c.passes, c.fresh, held, behind);
}

static void test_capacity_measured_by_passes(void **state)
{
	(void)state;
	capacity_measured_by_passes(KV(6, 12));
}

static void test_power_measured_by_passes_3_3(void **state)
{
	(void)state;
	capacity_measured_by_passes(KV(3, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_prio_numbers, fx_cleanup),
		cmocka_unit_test_teardown(test_fifo_runs_to_completion, fx_cleanup),
		cmocka_unit_test_teardown(test_rr_timeslice, fx_cleanup),
		cmocka_unit_test_teardown(test_rr_timeslice_tunable, fx_cleanup),
		cmocka_unit_test_teardown(test_rr_alone_at_its_prio_keeps_running, fx_cleanup),
		cmocka_unit_test_teardown(test_rt_preempts_fair_and_lower_rt, fx_cleanup),
		cmocka_unit_test_teardown(test_yield_goes_to_tail, fx_cleanup),
		cmocka_unit_test_teardown(test_setscheduler_between_classes, fx_cleanup),
		cmocka_unit_test_teardown(test_lowered_prio_hands_over, fx_cleanup),
		cmocka_unit_test_teardown(test_lowered_queued_task_goes_to_the_head, fx_cleanup),
		cmocka_unit_test_teardown(test_wakeup_placement_find_lowest_rq, fx_cleanup),
		cmocka_unit_test_teardown(test_push_preempted_task, fx_cleanup),
		cmocka_unit_test_teardown(test_pull_when_a_cpu_frees_up, fx_cleanup),
		cmocka_unit_test_teardown(test_rt_throttling_6_11, fx_cleanup),
		cmocka_unit_test_teardown(test_rt_throttling_off, fx_cleanup),
		cmocka_unit_test_teardown(test_rt_alone_throttled_only_before_6_12, fx_cleanup),
		cmocka_unit_test_teardown(test_fair_server_6_12, fx_cleanup),
		cmocka_unit_test_teardown(test_fair_server_idle_when_fair_runs, fx_cleanup),
		cmocka_unit_test_teardown(test_capacity_measured_by_passes, fx_cleanup),
		cmocka_unit_test_teardown(test_power_measured_by_passes_3_3, fx_cleanup),
		cmocka_unit_test_teardown(test_nice_of_rt_task_waits, fx_cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
