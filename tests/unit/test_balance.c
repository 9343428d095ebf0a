// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup/fork placement (sched/select.c) and the periodic load balancer
 * (sched/balance.c), checked against the kernel's formulas recomputed here
 * from the decision records' own inputs, and against hand-computed cases.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "sched/balance.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

/* ---- the events of one run ---- */

struct evlog {
	struct sched_event *ev;
	size_t nr, cap;
};

static struct evlog elog;

static void log_event(void *ctx, const struct sched_event *ev)
{
	struct evlog *l = ctx;

	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8192;
		l->ev = realloc(l->ev, l->cap * sizeof(*l->ev));
		assert_non_null(l->ev);
	}
	l->ev[l->nr++] = *ev;
}

static int teardown(void **state)
{
	free(elog.ev);
	memset(&elog, 0, sizeof(elog));
	return fx_cleanup(state);
}

/* n unpinned hogs on ncpus CPUs of one LLC, logged, run to `until`. */
static struct fx *hogs(int ncpus, int n, u64 until)
{
	struct fx *f = fx_new(ncpus, KV(6, 12), SCHED_VARIANT_EEVDF);

	/*
	 * HZ 250: at 100 and 1000 the aligned ticks and slices phase-lock, and
	 * the same two of three hogs keep trading places (see the scenario).
	 */
	f->sc.hz = 250;

	for (int i = 0; i < n; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	fx_start(f);
	sched_add_listener(f->e, log_event, &elog);
	sched_run_until(f->e, until);
	return f;
}

/* ---- group_classify(): the predicates with pct 117 ---- */

static void test_group_classify(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_group g = { .id = 0, .group_weight = 1, .capacity = 1024 };
	struct sg_lb_stats s = { .group_weight = 1, .group_capacity = 1024 };

	(void)state;
	fx_start(f);
	/* 2 tasks, util 900: 1024 * 100 = 102400 < 900 * 117 = 105300 */
	s.sum_nr_running = 2;
	s.group_util = 900;
	assert_int_equal(group_classify(117, &g, &s), group_overloaded);
	/* util 800 (93600 < 102400) and runnable 1000 (119808 >= 100000): room left */
	s.group_util = 800;
	s.group_runnable = 1000;
	assert_int_equal(group_classify(117, &g, &s), group_has_spare);
	/* runnable 1200: 1024 * 117 = 119808 < 120000 */
	s.group_runnable = 1200;
	assert_int_equal(group_classify(117, &g, &s), group_overloaded);
	/* one task on one CPU, util 900: no capacity (102400 <= 105300), not overloaded */
	s.sum_nr_running = 1;
	s.group_util = 900;
	s.group_runnable = 900;
	assert_int_equal(group_classify(117, &g, &s), group_fully_busy);
	s.group_util = 870;	/* 101790 < 102400: still room */
	assert_int_equal(group_classify(117, &g, &s), group_has_spare);
	/* a child level that failed for affinity marks the group imbalanced */
	sgc_of(&g)->imbalance = 1;
	assert_int_equal(group_classify(117, &g, &s), group_imbalanced);
	/* NUMA allowance: up to 2 tasks of imbalance while the destination is light */
	assert_int_equal(adjust_numa_imbalance(2, 3, 4), 0);
	assert_int_equal(adjust_numa_imbalance(3, 3, 4), 3);
	assert_int_equal(adjust_numa_imbalance(2, 5, 4), 2);
}

/*
 * sgc->imbalance lives in the sched_group_capacity, shared by the groups of one span at one
 * level across the CPUs' domains: at a NUMA level each CPU builds its own groups
 * (build_overlap_sched_groups()), which take their balance CPU's sgc. Two hogs pinned to
 * CPU 0 of two 2-CPU nodes: CPU 1's balance of node 0 fails for affinity and marks its NUMA
 * group {0,1}, and CPU 2 and 3's NUMA balances, whose {0,1} is a sched_group of their own,
 * see it imbalanced.
 */
static void test_pinned_imbalance_shared(void **state)
{
	static u32 dist[4] = { 10, 20, 20, 10 };
	struct fx *f = fx_new(4, KV(6, 12), SCHED_VARIANT_EEVDF);
	int seen = 0;

	(void)state;
	f->topo.nr_nodes = 2;
	f->topo.distance = dist;
	for (int i = 0; i < 4; i++)
		f->cpu[i].package = f->cpu[i].node = f->cpu[i].llc = f->cpu[i].cluster = i / 2;
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL);
	fx_add_task(f, 0, SCHED_NORMAL, 0, NULL);
	fx_start(f);
	sched_add_listener(f->e, log_event, &elog);
	sched_run_until(f->e, 500 * MS);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *ev = &elog.ev[i];

		if (ev->type == EV_LB_GROUP && ev->cpu >= 2 && ev->lb_group.first_cpu == 0 &&
		    ev->lb_group.group_type == group_imbalanced)
			seen++;
	}
	/* 0 when each sched_group kept its own flag */
	assert_true(seen > 0);
}

/* ---- fork placement: find_idlest_cpu() spreads over idle CPUs in order ---- */

static void test_fork_spreads(void **state)
{
	int placed[4], n = 0;

	(void)state;
	hogs(4, 4, 1 * MS);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *ev = &elog.ev[i];

		if (ev->type != EV_SELECT_RQ)
			continue;
		assert_true(ev->select.wake_flags & SELECT_WF_FORK);
		assert_int_equal(ev->select.path, SEL_IDLEST);
		assert_int_equal(ev->cpu, FORK_CPU);
		placed[n++] = ev->select.new_cpu;
	}
	assert_int_equal(n, 4);
	/*
	 * The first stays on the forking CPU (every group equally idle); each
	 * next one goes to the first group with the most idle CPUs.
	 */
	for (int i = 0; i < 4; i++)
		assert_int_equal(placed[i], i);
}

/* ---- calculate_imbalance() against the group records ---- */

/* The migrate_load case recomputed from the record's EV_LB_GROUP events. */
static void test_load_imbalance_matches_groups(void **state)
{
	int checked = 0;

	(void)state;
	hogs(2, 3, 2 * SEC);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *ev = &elog.ev[i];
		u64 total_load = 0, total_cap = 0, local_avg = 0, busiest_avg = 0, busiest_cap = 0, local_cap = 0;

		if (ev->type != EV_LOAD_BALANCE ||
		    (ev->lb.outcome != LB_MOVED && ev->lb.outcome != LB_FAILED))
			continue;
		assert_int_equal(ev->lb.migration_type, migrate_load);
		for (size_t k = 0; k < i; k++) {
			const struct sched_event *g = &elog.ev[k];

			if (g->type != EV_LB_GROUP || g->lb_group.decision != ev->lb.decision)
				continue;
			total_load += g->lb_group.group_load;
			total_cap += g->lb_group.group_capacity;
			if (g->lb_group.local) {
				local_avg = (u64)g->lb_group.group_load * 1024 / g->lb_group.group_capacity;
				local_cap = g->lb_group.group_capacity;
			} else {
				assert_int_equal(g->lb_group.group_type, group_overloaded);
				assert_int_equal(g->lb_group.first_cpu, ev->lb.busiest_group);
				busiest_avg = g->lb_group.avg_load;
				busiest_cap = g->lb_group.group_capacity;
			}
		}
		u64 avg = total_load * 1024 / total_cap;
		u64 want = MIN((busiest_avg - avg) * busiest_cap, (avg - local_avg) * local_cap) / 1024;
		assert_int_equal(ev->lb.imbalance, want);
		checked++;
	}
	assert_true(checked > 10);
	/* the first one by hand: loads 2048 and 1024, domain average 1536 -> 512 */
	for (size_t i = 0; i < elog.nr; i++)
		if (elog.ev[i].type == EV_LOAD_BALANCE && elog.ev[i].lb.outcome == LB_FAILED) {
			assert_int_equal(elog.ev[i].lb.imbalance, 512);
			break;
		}
}

/* ---- every migration names its decision ---- */

static void test_migrations_trace_to_decisions(void **state)
{
	int balance = 0;

	(void)state;
	hogs(2, 3, 2 * SEC);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *m = &elog.ev[i], *task = NULL, *out = NULL;

		if (m->type != EV_SCHED_MIGRATE_TASK)
			continue;
		assert_int_equal(m->migrate.reason, MIGRATE_BALANCE);
		assert_true(m->migrate.cause < m->seq);
		/* the record's first event is one of its groups */
		assert_int_equal(elog.ev[m->migrate.cause].type, EV_LB_GROUP);
		for (size_t k = m->migrate.cause; k < elog.nr && !out; k++) {
			const struct sched_event *e = &elog.ev[k];

			if (e->type == EV_LB_TASK && e->lb_task.decision == m->migrate.cause &&
			    e->lb_task.pid == m->migrate.pid &&
			    (e->lb_task.result == LBT_MOVED || e->lb_task.result == LBT_MOVED_HOT))
				task = e;
			if (e->type == EV_LOAD_BALANCE && e->lb.decision == m->migrate.cause)
				out = e;
		}
		assert_non_null(task);
		assert_non_null(out);
		assert_int_equal(out->lb.outcome, LB_MOVED);
		assert_int_equal(out->lb.busiest_cpu, m->migrate.orig_cpu);
		assert_int_equal(out->cpu, m->migrate.dest_cpu);
		balance++;
	}
	assert_true(balance >= 4);
}

/* ---- three hogs on two CPUs share them equally by moving about ---- */

static void test_three_hogs_share_two_cpus(void **state)
{
	u64 run[3], migrations = 0;

	(void)state;
	struct fx *f = hogs(2, 3, 4 * SEC);
	for (int i = 0; i < 3; i++) {
		struct sched_task_info ti;

		sched_task_info(f->e, i, &ti);
		run[i] = ti.sum_exec_runtime;
		migrations += ti.nr_migrations;
		/* 2/3 of a CPU each, within 3 points */
		assert_in_range(run[i], 4 * SEC * 2 / 3 - 120 * MS, 4 * SEC * 2 / 3 + 120 * MS);
	}
	/* a few per second: each move follows cache_nice_tries + 1 failed passes */
	assert_in_range(migrations, 4, 80);
}

/* ---- the interval: doubled while balanced, back to min_interval on an imbalance ---- */

static void test_balance_interval(void **state)
{
	const struct sched_domain *sd;
	int seen_double = 0, seen_reset = 0;

	(void)state;
	struct fx *f = hogs(2, 3, 1 * SEC);
	sd = cpu_sd(f->e->sds, 0);
	assert_int_equal(sd->min_interval, 2);	/* span weight 2 */
	assert_int_equal(sd->max_interval, 4);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *ev = &elog.ev[i];

		if (ev->type != EV_LOAD_BALANCE)
			continue;
		if (ev->lb.outcome == LB_NOBUSYG || ev->lb.outcome == LB_BALANCED) {
			assert_int_equal(ev->lb.nr_balance_failed, 0);
			assert_int_equal(ev->lb.balance_interval, 4);	/* 2 doubled, capped at 4 */
			seen_double++;
		} else {
			assert_int_equal(ev->lb.balance_interval, 2);
			seen_reset++;
		}
	}
	assert_true(seen_double && seen_reset);
}

/* ---- task_hot(): migration_cost = 0 makes nothing cache hot ---- */

static int count_results(int result)
{
	int n = 0;

	for (size_t i = 0; i < elog.nr; i++)
		n += elog.ev[i].type == EV_LB_TASK && elog.ev[i].lb_task.result == result;
	return n;
}

static void test_cache_hot(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	int hot;

	(void)state;
	for (int i = 0; i < 3; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	f->sc.tunable_set[TUN_MIGRATION_COST] = true;
	f->sc.tunable[TUN_MIGRATION_COST] = 0;
	fx_start(f);
	sched_add_listener(f->e, log_event, &elog);
	sched_run_until(f->e, 2 * SEC);
	assert_int_equal(count_results(LBT_HOT) + count_results(LBT_MOVED_HOT), 0);
	assert_true(count_results(LBT_MOVED) > 0);
	fx_free(f);
	free(elog.ev);
	memset(&elog, 0, sizeof(elog));

	/* with the default 500 us the task that just ran is hot */
	hogs(2, 3, 2 * SEC);
	hot = count_results(LBT_HOT);
	assert_true(hot > 0);
}

/* ---- SIS_UTIL: the LLC's scan depth from its utilisation ---- */

static void test_idle_cpu_scan_depth(void **state)
{
	struct fx *f = fx_new(4, KV(6, 12), SCHED_VARIANT_EEVDF);
	static const struct prog_insn half[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 3, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 4 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 4 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0 },
	};
	const struct sched_program *p = fx_program(f, 0, half, 4, 1);
	int checked = 0;

	(void)state;
	for (int i = 0; i < 6; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, p);
	fx_start(f);
	sched_add_listener(f->e, log_event, &elog);
	for (u64 t = 100 * MS; t <= SEC; t += 100 * MS) {
		sched_run_until(f->e, t);
		/* the newest periodic (not newidle) record on the LLC level */
		for (size_t i = elog.nr; i-- > 0;) {
			const struct sched_event *ev = &elog.ev[i];
			u64 sum = 0, x, tmp, y;

			if (ev->type != EV_LOAD_BALANCE || ev->lb.idle == CPU_NEWLY_IDLE ||
			    ev->lb.why == FBG_NOT_DESIGNATED)
				continue;
			for (size_t k = 0; k < i; k++)
				if (elog.ev[k].type == EV_LB_GROUP &&
				    elog.ev[k].lb_group.decision == ev->lb.decision)
					sum += elog.ev[k].lb_group.group_util;
			/* update_idle_cpu_scan(): x = util / weight, t = x^2 pct^2 / (10^4 * 1024) */
			x = sum / 4;
			tmp = MIN(x * x * 117 * 117 / (10000 * 1024), 1024);
			y = (1024 - tmp) * 4 / 1024;
			assert_int_equal(f->e->st->llc_shared[0].nr_idle_scan, (int)y);
			checked++;
			break;
		}
	}
	assert_true(checked >= 5);
}

/* ---- wake_affine_weight(): the effective loads as the kernel weighs them ---- */

struct affine_check {
	struct fx *f;
	int n;
};

static void check_affine(void *ctx, const struct sched_event *ev)
{
	struct affine_check *c = ctx;
	int *n = &c->n;

	if (ev->type != EV_SELECT_RQ || ev->select.affine < WA_SYNC_THIS)
		return;
	/* called while the state is the decision's own */
	struct task_struct *p = &c->f->e->st->task[ev->select.pid - 1], *waker = cpu_rq(ev->cpu)->curr;
	bool sync = ev->select.wake_flags & SELECT_WF_SYNC;
	s64 tl = (s64)task_h_load(p);	/* computed by wake_affine() this jiffy already */
	s64 this_load = (s64)cpu_rq(ev->cpu)->cfs.avg.load_avg;
	s64 this_eff, prev_eff;

	if (ev->select.affine == WA_SYNC_THIS) {
		/* the waker is alone on its CPU and about to sleep */
		assert_true(sync);
		assert_int_equal(cpu_rq(ev->cpu)->nr_running - cpu_rq(ev->cpu)->cfs.h_nr_delayed, 1);
		(*n)++;
		return;
	}
	/* a sync waker's own load does not count against its CPU */
	if (sync)
		this_load -= (s64)task_h_load(waker);
	this_eff = (this_load + tl) * 100 * 1024;
	prev_eff = ((s64)cpu_rq(ev->select.prev_cpu)->cfs.avg.load_avg - tl) * (100 + 17 / 2) * 1024 + sync;

	assert_int_equal(ev->select.this_eff_load, this_eff);
	assert_int_equal(ev->select.prev_eff_load, prev_eff);
	assert_int_equal(ev->select.affine, this_eff < prev_eff ? WA_WEIGHT_THIS : WA_WEIGHT_PREV);
	(*n)++;
}

/* wake_sync: WA_IDLE's sync rule, and WA_WEIGHT without the waker's load */
static void test_wake_affine_sync(void **state)
{
	struct fx *f = fx_new(4, KV(6, 12), SCHED_VARIANT_EEVDF);
	static const struct prog_insn waker[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 3 * MS, 0 } },
		{ .op = PROG_WAKE, .arg = 1, .wake_first = 0, .wake_count = 1 },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 1 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0 },
	};
	static const struct prog_insn wakee[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 3, .loop_slot = 0 },
		{ .op = PROG_WAIT },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 2 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0 },
	};
	struct affine_check c = { .f = f };
	int sync_this = 0;

	(void)state;
	/*
	 * CPUs 0-2 busy with pinned hogs, CPU 1 with two; the waker alone on
	 * CPU 3; the wakee may use CPUs 2 and 3 and is forked onto 2.
	 */
	struct sched_task_spec *t;

	for (int i = 0; i < 4; i++)
		fx_add_task(f, 0, SCHED_NORMAL, i % 3, NULL);
	fx_add_task(f, 0, SCHED_NORMAL, 3, fx_program(f, 0, waker, 5, 1));
	t = fx_add_task(f, 0, SCHED_NORMAL, 2, fx_program(f, 1, wakee, 4, 1));
	cpumask_set(&t->cpus, 3);
	f->wake_list[0] = 5;
	fx_start(f);
	sched_add_listener(f->e, check_affine, &c);
	sched_add_listener(f->e, log_event, &elog);
	sched_run_until(f->e, 1 * SEC);
	for (size_t i = 0; i < elog.nr; i++)
		sync_this += elog.ev[i].type == EV_SELECT_RQ && elog.ev[i].select.affine == WA_SYNC_THIS;
	assert_true(c.n > 0);
	assert_true(sync_this > 0);
}

static void test_wake_affine_weight(void **state)
{
	struct fx *f = fx_new(4, KV(6, 12), SCHED_VARIANT_EEVDF);
	static const struct prog_insn waker[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 3 * MS, 0 } },
		{ .op = PROG_WAKE, .wake_first = 0, .wake_count = 1 },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 1 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0 },
	};
	static const struct prog_insn wakee[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 3, .loop_slot = 0 },
		{ .op = PROG_WAIT },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 2 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0 },
	};
	struct affine_check c = { .f = f };

	(void)state;
	/* pinned hogs keep every CPU busy, so wake_affine_idle() never decides */
	for (int i = 0; i < 4; i++)
		fx_add_task(f, 0, SCHED_NORMAL, i, NULL);
	fx_add_task(f, 0, SCHED_NORMAL, 0, fx_program(f, 0, waker, 5, 1));
	fx_add_task(f, 0, SCHED_NORMAL, -1, fx_program(f, 1, wakee, 4, 1));
	f->wake_list[0] = 5;
	fx_start(f);
	sched_add_listener(f->e, check_affine, &c);
	sched_run_until(f->e, 2 * SEC);
	assert_true(c.n > 20);
}

/* ---- newidle: a CPU about to go idle pulls one task ---- */

static void test_newidle_pull(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	static const struct prog_insn brief[] = {
		{ .op = PROG_RUN, .dur = { DIST_CONST, 100 * MS, 0 } },
		{ .op = PROG_EXIT },
	};
	int newidle = 0;

	(void)state;
	f->sc.hz = 250;
	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	fx_add_task(f, 0, SCHED_NORMAL, -1, fx_program(f, 0, brief, 2, 0));	/* alone on CPU 1 */
	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	fx_start(f);
	sched_add_listener(f->e, log_event, &elog);
	sched_run_until(f->e, 1 * SEC);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *m = &elog.ev[i];

		if (m->type != EV_SCHED_MIGRATE_TASK || m->migrate.reason != MIGRATE_NEWIDLE)
			continue;
		for (size_t k = i; k < elog.nr; k++) {
			const struct sched_event *e = &elog.ev[k];

			if (e->type == EV_LOAD_BALANCE && e->lb.decision == m->migrate.cause) {
				assert_int_equal(e->lb.idle, CPU_NEWLY_IDLE);
				/* a preemptible kernel's newidle balance takes one task */
				assert_int_equal(e->lb.nr_moved, 1);
				assert_int_equal(e->cpu, m->migrate.dest_cpu);
				newidle++;
				break;
			}
		}
	}
	assert_true(newidle >= 1);
	/* from then on both CPUs are busy: 2 hogs, 2 CPUs, nothing to balance */
	for (int c = 0; c < 2; c++)
		assert_false(idle_cpu(c));
}

/* ---- NI_RANDOM (6.19): newidle runs in proportion to its success ---- */

static void test_newidle_random(void **state)
{
	struct fx *f = fx_new(4, KV(6, 19), SCHED_VARIANT_EEVDF);
	static const struct prog_insn burst[] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 3, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 3 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 2 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0 },
	};
	const struct sched_program *p = fx_program(f, 0, burst, 4, 1);
	const struct sd_lb_state *lb;
	unsigned int attempts = 0, pulled = 0;

	(void)state;
	f->sc.hz = 250;
	for (int i = 0; i < 6; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, p);
	fx_start(f);
	assert_true(sched_feat(NI_RANDOM));
	sched_add_listener(f->e, log_event, &elog);
	sched_run_until(f->e, 150 * MS);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *ev = &elog.ev[i];

		if (ev->type == EV_LOAD_BALANCE && ev->cpu == 0 && ev->lb.idle == CPU_NEWLY_IDLE) {
			attempts++;
			pulled += ev->lb.nr_moved > 0;
		}
	}
	lb = &f->e->st->sd_lb[cpu_sd(f->e->sds, 0)->id];
	/* no halving yet: the ratio is still sd_init()'s 512 */
	assert_true(lb->newidle_call < 1024);
	assert_int_equal(lb->newidle_ratio, 512);
	/* every call counts, the dice's skips too: more calls than attempts */
	assert_true(attempts > 0 && lb->newidle_call - 512 > attempts);
	/* a success weighs (1024 + 513 / 2) / 513 = 2 at ratio 512 */
	assert_true(pulled > 0);
	assert_int_equal(lb->newidle_success - 256, 2 * pulled);
}

/* ---- misfit: the stopper pushes a running task to a big CPU ---- */

static void test_misfit_active_push(void **state)
{
	struct fx *f = fx_new(8, KV(6, 12), SCHED_VARIANT_EEVDF);
	static const struct prog_insn grow[] = {
		{ .op = PROG_LOOP, .arg = 20, .target = 3, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 2 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 18 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0 },
		{ .op = PROG_RUN_FOREVER },
	};
	int pushed = 0;

	(void)state;
	f->sc.hz = 250;
	for (int i = 0; i < 8; i++) {
		f->cpu[i].capacity = i < 4 ? 446 : 1024;
		f->cpu[i].cluster = i / 4;
	}
	fx_add_task(f, 0, SCHED_NORMAL, -1, fx_program(f, 0, grow, 5, 1));
	fx_start(f);
	assert_true(f->e->sds->asym_cpucapacity);
	sched_add_listener(f->e, log_event, &elog);
	sched_run_until(f->e, 1 * SEC);
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *m = &elog.ev[i], *kick = NULL, *push = NULL;

		if (m->type != EV_SCHED_MIGRATE_TASK)
			continue;
		assert_int_equal(m->migrate.reason, MIGRATE_ACTIVE);
		assert_true(m->migrate.orig_cpu < 4 && m->migrate.dest_cpu >= 4);
		for (size_t k = 0; k < elog.nr; k++) {
			const struct sched_event *e = &elog.ev[k];

			if (e->type != EV_LOAD_BALANCE || e->lb.decision != m->migrate.cause)
				continue;
			if (e->lb.outcome == LB_FAILED)
				kick = e;
			if (e->lb.outcome == LB_ACTIVE_PUSHED)
				push = e;
		}
		assert_non_null(kick);
		assert_non_null(push);
		/* the running misfit cannot be pulled, so the balancer asked the stopper */
		assert_int_equal(kick->lb.migration_type, migrate_misfit);
		assert_true(kick->lb.active);
		assert_true(kick->seq < m->seq && m->seq < push->seq);
		/* util_avg had passed 446 * 0.8 */
		assert_true(T(f->e, 0)->se.avg.util_avg * 1280 >= 446 * 1024);
		pushed++;
	}
	assert_int_equal(pushed, 1);
	assert_true(T(f->e, 0)->cpu >= 4);
}

/* ---- DELAY_DEQUEUE: a delayed task moves only with a load migration (6.14+) ---- */

/* herd-newidle.scn's workload: newidle pulls while the workers sleep out their lag */
static const char delayed_scn[] =
	"topology packages=1 cores=8 threads=1\n"
	"hz 250\n"
	"duration 1s\n"
	"task p count=7 cpus=1-7 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task disp cpus=0 program=\"sleep 2ms; loop { run 100us; wake w.*; sleep 9900us }\"\n"
	"task w count=7 at=6ms program=\"loop { wait; run 1ms }\"\n";

struct delayed_seen {
	int moved_delayed;	/* delayed tasks moved by a task/util/misfit migration */
	int moved_delayed_load; /* ... by a load migration */
	int skipped;		/* LBT_DELAYED records */
	int skipped_not_delayed;
};

/* Whether each lb_task record's task was delayed when looked at, by event seq. */
static u8 *delayed_at;

static void note_delayed(void *ctx, const struct sched_event *ev)
{
	log_event(&elog, ev);
	if (ev->type == EV_LB_TASK)
		delayed_at[ev->seq] =
			((struct sched_engine *)ctx)->st->task[ev->lb_task.pid - 1].se.sched_delayed;
}

static struct delayed_seen run_delayed(const char *kernel)
{
	struct scenario_file sf;
	struct delayed_seen seen = { 0 };
	struct sched_engine *e;
	char err[512];

	assert_int_equal(
		scenario_parse("delayed.scn", delayed_scn, strlen(delayed_scn), &sf, err, sizeof(err)), 0);
	assert_int_equal(scenario_set(&sf, kernel, err, sizeof(err)), 0);
	e = sched_engine_create(&sf.sc, err, sizeof(err));
	assert_non_null(e);
	delayed_at = calloc(1 << 22, 1);
	sched_add_listener(e, note_delayed, e);
	sched_run_until(e, 1 * SEC);
	assert_true(elog.nr < (1u << 22));
	for (size_t i = 0; i < elog.nr; i++) {
		const struct sched_event *t = &elog.ev[i];
		int type = -1;

		if (t->type != EV_LB_TASK)
			continue;
		for (size_t k = i; k < elog.nr && type < 0; k++)
			if (elog.ev[k].type == EV_LOAD_BALANCE &&
			    elog.ev[k].lb.decision == t->lb_task.decision)
				type = elog.ev[k].lb.migration_type;
		if (t->lb_task.result == LBT_DELAYED) {
			seen.skipped++;
			seen.skipped_not_delayed += !delayed_at[t->seq];
			assert_int_not_equal(type, migrate_load);
		}
		if (delayed_at[t->seq] &&
		    (t->lb_task.result == LBT_MOVED || t->lb_task.result == LBT_MOVED_HOT)) {
			if (type == migrate_load)
				seen.moved_delayed_load++;
			else
				seen.moved_delayed++;
		}
	}
	free(delayed_at);
	sched_engine_destroy(e);
	scenario_free(&sf);
	free(elog.ev);
	memset(&elog, 0, sizeof(elog));
	return seen;
}

static void test_delayed_not_migrated(void **state)
{
	struct delayed_seen old, now;

	(void)state;
	/* 6.12: the balancer still pulls tasks that only wait out their lag */
	old = run_delayed("kernel=6.12");
	assert_true(old.moved_delayed > 0);
	assert_int_equal(old.skipped, 0);
	/* 6.14+ (61b82dfb6b7e): skipped, and the record says why */
	now = run_delayed("kernel=6.14");
	assert_int_equal(now.moved_delayed, 0);
	assert_true(now.skipped > 0);
	assert_int_equal(now.skipped_not_delayed, 0);
	print_message("6.12: %d delayed moved; 6.14: %d skipped, %d moved by load\n", old.moved_delayed,
		      now.skipped, now.moved_delayed_load);
}

/* ---- 6.18: a task is not balanced onto its group's throttled queue ---- */

/* three hogs under one quota on two CPUs: a CPU's queue throttles while the other still runs */
static const char throttled_scn[] = "topology packages=1 cores=2 threads=1\n"
				    "hz 250\n"
				    "duration 1s\n"
				    "group /lim cpu.max=\"20ms 100ms\"\n"
				    "task hog count=3 group=/lim program=\"run forever\"\n"
				    "task f cpus=1 program=\"loop { run 3ms; sleep 2ms }\"\n";

/*
 * eight tasks of one group on four CPUs: now and then a queue throttles while another still
 * runs; a move off it is rare (4 in 10 s with the measured costs)
 */
static const char throttled_src_scn[] =
	"topology packages=1 cores=4 threads=1\n"
	"hz 250\n"
	"duration 10s\n"
	"group /lim cpu.max=\"60ms 100ms\"\n"
	"task hog count=8 group=/lim program=\"loop { run 5ms; sleep 1ms }\"\n"
	"task f count=3 program=\"loop { run 3ms; sleep 2ms }\"\n";

struct throttled_seen {
	int moved_in;	  /* tasks moved onto a CPU where their group's queue was throttled */
	int moved_out;	  /* ... off a CPU where it was throttled */
	int refused;	  /* LBT_THROTTLED records */
	int refused_free; /* ... whose destination queue was not throttled: only 6.18's rule may refuse */
};

static struct throttled_seen seen_throttled;

static void note_throttled(void *ctx, const struct sched_event *ev)
{
	const struct task_struct *p;
	bool throttled;

	if (ev->type != EV_LB_TASK)
		return;
	p = &((struct sched_engine *)ctx)->st->task[ev->lb_task.pid - 1];
	throttled = throttled_hierarchy(p->sched_task_group->cfs_rq[ev->cpu]);
	if (ev->lb_task.result == LBT_MOVED || ev->lb_task.result == LBT_MOVED_HOT) {
		seen_throttled.moved_in += throttled;
		/* recorded before the detach: p is still on the source */
		seen_throttled.moved_out += throttled_hierarchy(p->sched_task_group->cfs_rq[p->cpu]);
	}
	if (ev->lb_task.result == LBT_THROTTLED) {
		seen_throttled.refused++;
		seen_throttled.refused_free += !throttled;
	}
}

/* scn to its duration under kernel, fn hearing every event with the engine as its context. */
static void run_listening(const char *name, const char *scn, const char *kernel, sched_event_fn fn)
{
	struct scenario_file sf;
	struct sched_engine *e;
	char err[512];

	assert_int_equal(scenario_parse(name, scn, strlen(scn), &sf, err, sizeof(err)), 0);
	assert_int_equal(scenario_set(&sf, kernel, err, sizeof(err)), 0);
	e = sched_engine_create(&sf.sc, err, sizeof(err));
	assert_non_null(e);
	sched_add_listener(e, fn, e);
	sched_run_until(e, sf.sc.duration);
	sched_engine_destroy(e);
	scenario_free(&sf);
}

static struct throttled_seen run_throttled(const char *scn, const char *kernel)
{
	memset(&seen_throttled, 0, sizeof(seen_throttled));
	run_listening("throttled.scn", scn, kernel, note_throttled);
	return seen_throttled;
}

/*
 * Linux 6.18 throttles a task on its way back to user space, so the
 * balancer may take a task off a throttled queue; but can_migrate_task()
 * refuses to put one on a queue in a throttled hierarchy
 * (lb_throttled_hierarchy(), 0d4eaf8caf8c). Before 6.18 a throttled queue
 * on either side stops it (throttled_lb_pair(), removed by 5b726e9bf954).
 */
static void test_not_balanced_onto_throttled(void **state)
{
	struct throttled_seen old, now;

	(void)state;
	old = run_throttled(throttled_scn, "kernel=6.17");
	assert_int_equal(old.moved_in, 0);
	assert_true(old.refused > 0);
	now = run_throttled(throttled_scn, "kernel=6.18");
	assert_int_equal(now.moved_in, 0);
	assert_true(now.refused > 0);
	assert_int_equal(now.refused_free, 0);
	print_message("6.17: %d refused; 6.18: %d refused\n", old.refused, now.refused);
	/* the source's throttling stops a move before 6.18 only */
	old = run_throttled(throttled_src_scn, "kernel=6.17");
	assert_int_equal(old.moved_out, 0);
	now = run_throttled(throttled_src_scn, "kernel=6.18");
	assert_true(now.moved_out > 0);
	assert_int_equal(now.moved_in + now.refused_free, 0);
	print_message("6.18: %d moved off a throttled queue\n", now.moved_out);
}

/* ---- 6.14: eligible tasks are balanced first ---- */

/* five tasks of two weights on two CPUs: the busy CPUs balance between each other */
static const char ineligible_scn[] = "topology packages=1 cores=2 threads=1\n"
				     "hz 250\n"
				     "duration 1s\n"
				     "task t count=3 program=\"loop { run 20ms; sleep 3ms }\"\n"
				     "task n count=2 nice=5 program=\"loop { run 7ms; sleep 2ms }\"\n";

struct ineligible_seen {
	int moved;	   /* tasks moved while ineligible, onto a busy queue, before any failed attempt */
	int refused;	   /* LBT_INELIGIBLE records */
	int refused_wrong; /* ... where one of the three conditions did not hold */
};

static struct ineligible_seen seen_ineligible;

static void note_ineligible(void *ctx, const struct sched_event *ev)
{
	struct task_struct *p;
	bool ineligible;

	if (ev->type != EV_LB_TASK)
		return;
	p = &((struct sched_engine *)ctx)->st->task[ev->lb_task.pid - 1];
	ineligible = !ev->lb_task.nr_balance_failed && p->sched_task_group->cfs_rq[ev->cpu]->nr_running &&
		     !entity_eligible(cfs_rq_of(&p->se), &p->se);
	if (ev->lb_task.result == LBT_MOVED || ev->lb_task.result == LBT_MOVED_HOT)
		seen_ineligible.moved += ineligible;
	if (ev->lb_task.result == LBT_INELIGIBLE) {
		seen_ineligible.refused++;
		seen_ineligible.refused_wrong += !ineligible;
	}
}

static struct ineligible_seen run_ineligible(const char *kernel)
{
	memset(&seen_ineligible, 0, sizeof(seen_ineligible));
	run_listening("ineligible.scn", ineligible_scn, kernel, note_ineligible);
	return seen_ineligible;
}

/*
 * From 6.14 (873199d27bb2) can_migrate_task() leaves a task that is not
 * eligible where it is, while the destination has queued entities and the
 * domain has not failed to balance: it would keep its negative lag there.
 */
static void test_ineligible_not_migrated(void **state)
{
	struct ineligible_seen old, now, off;

	(void)state;
	old = run_ineligible("kernel=6.13");
	assert_true(old.moved > 0);
	assert_int_equal(old.refused, 0);
	now = run_ineligible("kernel=6.14");
	assert_int_equal(now.moved, 0);
	assert_true(now.refused > 0);
	assert_int_equal(now.refused_wrong, 0);
	/* the test reads PLACE_LAG: without it lag is not kept, and the task may go */
	off = run_ineligible("feature=NO_PLACE_LAG");
	assert_int_equal(off.refused, 0);
	print_message("6.13: %d ineligible moved; 6.14: %d refused\n", old.moved, now.refused);
}

/* ---- the records are true at decision time ---- */

/*
 * Each schedscope_lb_task and schedscope_load_balance field checked, as it
 * is emitted, against the engine's state then: nr_balance_failed as the
 * check read it (not the value after the outcome reset it), the check
 * itself in the record's own unit, and task_h_load() cached and fresh.
 */
struct truth {
	u64 decision_cpu[1 << 16]; /* the balancing CPU of each decision, by seq & 0xffff */
	unsigned last_after[4096]; /* per domain: nr_balance_failed after its last attempt */
	int nr_tasks, nr_compared, nr_util, nr_stale, nr_lb, nr_failed_reset;
};

static const struct sched_domain *sd_at(int cpu, int depth)
{
	const struct sched_domain *sd;

	for_each_domain (cpu, sd)
		if (sd->depth == depth)
			return sd;
	return NULL;
}

/* The kernel's h_load, top down from the CPU's root load, computed afresh. */
static unsigned long h_load_fresh(struct cfs_rq *q)
{
	struct sched_entity *se = q->tg->se ? q->tg->se[rq_of(q)->cpu] : NULL;

	if (!se)
		return q->avg.load_avg;
	return h_load_fresh(cfs_rq_of(se)) * se->avg.load_avg / (cfs_rq_of(se)->avg.load_avg + 1);
}

static void check_truth(void *ctx, const struct sched_event *ev)
{
	struct truth *t = ctx;
	u64 decision = ev->type == EV_LB_GROUP	     ? ev->lb_group.decision
		       : ev->type == EV_LB_TASK	     ? ev->lb_task.decision
		       : ev->type == EV_LOAD_BALANCE ? ev->lb.decision
						     : ~0ULL;

	if (decision == ~0ULL)
		return;
	if (decision == ev->seq)
		t->decision_cpu[decision & 0xffff] = (u64)ev->cpu;
	int cpu = (int)t->decision_cpu[decision & 0xffff];

	if (ev->type == EV_LB_TASK) {
		const struct sched_domain *sd = sd_at(cpu, ev->lb_task.depth);
		struct task_struct *p = &ST->task[ev->lb_task.pid - 1];
		struct cfs_rq *q = cfs_rq_of(&p->se);
		bool moved = ev->lb_task.result <= LBT_MOVED_HOT;

		assert_non_null(sd);
		t->nr_tasks++;
		/* detach_tasks() read it once; nothing changes it before the outcome */
		assert_int_equal(ev->lb_task.nr_balance_failed, sd_lb(sd)->nr_balance_failed);
		if (ev->lb_task.compared) {
			unsigned shift = MIN(ev->lb_task.nr_balance_failed, 63u);
			s64 before = ev->lb_task.imbalance + (moved ? (s64)ev->lb_task.load : 0);

			assert_true(moved || ev->lb_task.result == LBT_TOO_BIG);
			assert_int_equal(moved, (s64)(ev->lb_task.load >> shift) <= before);
			t->nr_compared++;
		}
		if (ev->lb_task.migration_type == migrate_util) {
			t->nr_util++;
			if (ev->lb_task.compared)
				assert_int_equal(ev->lb_task.load, p->se.avg.util_avg);
		}
		if (ev->lb_task.migration_type == migrate_load) {
			unsigned long cached = p->se.avg.load_avg * q->h_load / (q->avg.load_avg + 1);
			unsigned long fresh = p->se.avg.load_avg * h_load_fresh(q) / (q->avg.load_avg + 1);

			if (ev->lb_task.compared)
				assert_int_equal(ev->lb_task.load, MAX(cached, 1UL));
			assert_int_equal(ev->lb_task.load_fresh, fresh);
			assert_int_equal(ev->lb_task.h_load_stale, cached != fresh);
			t->nr_stale += ev->lb_task.h_load_stale;
		}
	}
	if (ev->type == EV_LOAD_BALANCE) {
		const struct sched_domain *sd = sd_at(cpu, ev->lb.depth);

		assert_non_null(sd);
		assert_true(sd->id < 4096);
		t->nr_lb++;
		assert_int_equal(ev->lb.nr_balance_failed, sd_lb(sd)->nr_balance_failed);
		assert_int_equal(ev->lb.nr_balance_failed_before, t->last_after[sd->id]);
		t->nr_failed_reset += ev->lb.nr_balance_failed_before > ev->lb.nr_balance_failed;
		t->last_after[sd->id] = ev->lb.nr_balance_failed;
	}
}

static void run_truth(const char *path, const char *kernel, struct truth *t)
{
	struct scenario_file sf;
	struct sched_engine *e;
	char err[512];

	memset(t, 0, sizeof(*t));
	assert_int_equal(scenario_load(path, &sf, err, sizeof(err)), 0);
	if (kernel)
		assert_int_equal(scenario_set(&sf, kernel, err, sizeof(err)), 0);
	e = sched_engine_create(&sf.sc, err, sizeof(err));
	assert_non_null(e);
	sched_add_listener(e, check_truth, t);
	while (sched_step(e))
		;
	sched_engine_destroy(e);
	scenario_free(&sf);
	print_message("%s %s: %d attempts (%d reset nr_balance_failed), %d tasks looked at, %d checked "
		      "against the imbalance, %d util, %d stale h_load\n",
		      path, kernel ? kernel : "", t->nr_lb, t->nr_failed_reset, t->nr_tasks, t->nr_compared,
		      t->nr_util, t->nr_stale);
}

static void test_records_at_decision_time(void **state)
{
	static struct truth t;

	(void)state;
	run_truth("scenarios/balance-spread-16-busy.scn", NULL, &t);
	assert_true(t.nr_compared > 0 && t.nr_util > 0 && t.nr_failed_reset > 0);
	run_truth("scenarios/numa-imbalance.scn", NULL, &t);
	assert_true(t.nr_compared > 0);
	run_truth("scenarios/balance-3hogs-2cpus.scn", "kernel=6.6", &t);
	assert_true(t.nr_tasks > 0);
}

/* ---- herds: the threshold within the window, and the cause ---- */

static void migrate_at(struct fx *f, u64 t, int src, int dst, int reason)
{
	struct sched_event ev;

	f->e->st->now = t;
	sched_event_init(&ev, EV_SCHED_MIGRATE_TASK, dst);
	ev.migrate.orig_cpu = src;
	ev.migrate.dest_cpu = dst;
	ev.migrate.reason = (u8)reason;
	sched_emit(&ev);
	herd_note_migration(&ev);
}

static int herds(int cause)
{
	int n = 0;

	for (size_t i = 0; i < elog.nr; i++)
		n += elog.ev[i].type == EV_HERD && (cause < 0 || elog.ev[i].herd.cause == cause);
	return n;
}

static void test_herd_detection(void **state)
{
	struct fx *f = fx_new(8, KV(6, 12), SCHED_VARIANT_EEVDF);

	(void)state;
	fx_start(f);
	sched_add_listener(f->e, log_event, &elog);
	/* defaults: 4 migrations within 1 ms */
	assert_int_equal(sysctl(TUN_HERD_THRESHOLD), 4);
	assert_int_equal(sysctl(TUN_HERD_WINDOW), 1 * MS);

	/* four newidle pulls from CPU 0 by four CPUs in 0.9 ms: one herd */
	for (int i = 0; i < 4; i++)
		migrate_at(f, 10 * MS + (u64)i * 300 * NSEC_PER_USEC, 0, i + 1, MIGRATE_NEWIDLE);
	assert_int_equal(herds(HERD_NEWIDLE), 1);
	const struct sched_event *h = &elog.ev[elog.nr - 1];
	assert_int_equal(h->herd.nr, 4);
	assert_int_equal(h->herd.nr_src, 1);
	assert_int_equal(h->herd.nr_dst, 4);
	assert_int_equal(h->herd.by_reason[MIGRATE_NEWIDLE], 4);
	/* a fifth one inside the window is the same herd */
	migrate_at(f, 10 * MS + 950 * NSEC_PER_USEC, 0, 5, MIGRATE_NEWIDLE);
	assert_int_equal(herds(-1), 1);

	/* four spread over 1.2 ms each 400 us apart: never 4 in one window */
	for (int i = 0; i < 4; i++)
		migrate_at(f, 20 * MS + (u64)i * 400 * NSEC_PER_USEC, 0, 1, MIGRATE_BALANCE);
	assert_int_equal(herds(-1), 1);

	/* wakers on four CPUs sending wakees to CPU 7 */
	for (int i = 0; i < 4; i++)
		migrate_at(f, 30 * MS + (u64)i, i, 7, MIGRATE_WAKEUP);
	assert_int_equal(herds(HERD_WAKEUP), 1);

	/* periodic and idle balancing: a group imbalance */
	for (int i = 0; i < 4; i++)
		migrate_at(f, 40 * MS + (u64)i, 0, i + 1, i % 2 ? MIGRATE_NOHZ : MIGRATE_BALANCE);
	assert_int_equal(herds(HERD_IMBALANCE), 1);
	assert_int_equal(herds(-1), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_group_classify, teardown),
		cmocka_unit_test_teardown(test_pinned_imbalance_shared, teardown),
		cmocka_unit_test_teardown(test_fork_spreads, teardown),
		cmocka_unit_test_teardown(test_load_imbalance_matches_groups, teardown),
		cmocka_unit_test_teardown(test_migrations_trace_to_decisions, teardown),
		cmocka_unit_test_teardown(test_three_hogs_share_two_cpus, teardown),
		cmocka_unit_test_teardown(test_balance_interval, teardown),
		cmocka_unit_test_teardown(test_cache_hot, teardown),
		cmocka_unit_test_teardown(test_idle_cpu_scan_depth, teardown),
		cmocka_unit_test_teardown(test_wake_affine_weight, teardown),
		cmocka_unit_test_teardown(test_wake_affine_sync, teardown),
		cmocka_unit_test_teardown(test_newidle_pull, teardown),
		cmocka_unit_test_teardown(test_newidle_random, teardown),
		cmocka_unit_test_teardown(test_misfit_active_push, teardown),
		cmocka_unit_test_teardown(test_herd_detection, teardown),
		cmocka_unit_test_teardown(test_delayed_not_migrated, teardown),
		cmocka_unit_test_teardown(test_not_balanced_onto_throttled, teardown),
		cmocka_unit_test_teardown(test_ineligible_not_migrated, teardown),
		cmocka_unit_test(test_records_at_decision_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
