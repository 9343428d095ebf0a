// SPDX-License-Identifier: GPL-2.0
/*
 * The balancer of the releases before 3.8 (sched/cpu_load.c,
 * sched/balance_legacy.c, sched/select_legacy.c) against values worked out
 * by hand from Linux 3.3's kernel/sched/core.c and fair.c, and its imbalance
 * recomputed from the decision records' own inputs.
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
#define US NSEC_PER_USEC
#define SEC NSEC_PER_SEC

/* ---- cpu_load[] ---- */

/*
 * decay_load_missed(): (1 - 2^-idx)^missed on a 128 scale, one factor per
 * set bit of missed (degrade_factor[idx][bit]); nothing left past
 * degrade_zero_ticks[idx]; idx 1 is a shift.
 */
static void test_decay_load_missed(void **state)
{
	(void)state;
	assert_int_equal(decay_load_missed(1024, 0, 3), 1024);
	assert_int_equal(decay_load_missed(1024, 1, 1), 512);
	assert_int_equal(decay_load_missed(1024, 7, 1), 8);
	assert_int_equal(decay_load_missed(1024, 8, 1), 0);
	/* 1024 * 96 >> 7 = 768; then * 72 >> 7 = 432 for 3 = 0b11 */
	assert_int_equal(decay_load_missed(1024, 1, 2), 768);
	assert_int_equal(decay_load_missed(1024, 3, 2), 432);
	assert_int_equal(decay_load_missed(1024, 32, 2), 0);
	/* 31 = 0b11111: 750, 421, 131, 12, then * 1 >> 7 = 0 */
	assert_int_equal(decay_load_missed(1000, 31, 2), 0);
	/* 5 = 0b101: 2048 * 120 >> 7 = 1920, * 98 >> 7 = 1470 */
	assert_int_equal(decay_load_missed(2048, 5, 4), 1470);
	/* 2 = 0b10: 4096 * 98 >> 7 = 3136 */
	assert_int_equal(decay_load_missed(4096, 2, 3), 3136);
	assert_int_equal(decay_load_missed(4096, 64, 3), 0);
	assert_int_equal(decay_load_missed(500, 3, 0), 0);
}

/* __update_cpu_load(): index i keeps (2^i - 1) / 2^i of the old, rounding a rise up. */
static void test_update_cpu_load(void **state)
{
	unsigned long l[CPU_LOAD_IDX_MAX] = { 0 };
	const unsigned long one[] = { 1024, 512, 256, 128, 64 };
	/* (512 + 1025) >> 1, (256 * 3 + 1027) >> 2, (128 * 7 + 1031) >> 3, (64 * 15 + 1039) >> 4 */
	const unsigned long two[] = { 1024, 768, 448, 240, 124 };
	/* two missed ticks decay first: 768 >> 2 = 192 -> 96; 448 -> 252 -> 189;
	 * 240 -> 183 -> 160; 124 -> 108 -> 101 */
	const unsigned long idle[] = { 0, 96, 189, 160, 101 };

	(void)state;
	__update_cpu_load(l, 1024, 1);
	assert_memory_equal(l, one, sizeof(l));
	__update_cpu_load(l, 1024, 1);
	assert_memory_equal(l, two, sizeof(l));
	__update_cpu_load(l, 0, 3);
	assert_memory_equal(l, idle, sizeof(l));
}

/* ---- power, avg_idle ---- */

/* update_cpu_power(): an SMT thread gets smt_gain / 2 = 589, a lone core 1024. */
static void test_power_of(void **state)
{
	struct fx *f = fx_new(4, KV(3, 3), SCHED_VARIANT_CFS);

	(void)state;
	/* CPUs 0-1 share core 0; 2 and 3 are cores of their own */
	f->cpu[1].core = 0;
	f->cpu[1].thread = 1;
	fx_start(f);
	sched_enter(f->e);
	assert_int_equal(power_of(0), 589);
	assert_int_equal(power_of(1), 589);
	assert_int_equal(power_of(2), 1024);
}

/*
 * 3.3's ttwu_do_wakeup(): an idle period longer than 2 * migration_cost
 * (1 ms on one CPU) sets avg_idle to that; a shorter one is averaged in with
 * update_avg(), an arithmetic shift by 3.
 */
static void test_avg_idle(void **state)
{
	struct fx *f = fx_new(1, KV(3, 3), SCHED_VARIANT_CFS);
	struct rq *rq;

	(void)state;
	fx_start(f);
	sched_enter(f->e);
	rq = cpu_rq(0);
	assert_int_equal(rq->avg_idle, 1000000); /* boots at 2 * migration_cost */
	rq->idle_stamp = rq->clock - 300 * US;
	update_avg_idle(rq);
	assert_int_equal(rq->avg_idle, 912500); /* 1e6 + (-700000 >> 3) */
	assert_int_equal(rq->idle_stamp, 0);
	rq->idle_stamp = rq->clock - 100 * US;
	update_avg_idle(rq);
	assert_int_equal(rq->avg_idle, 810937); /* 912500 + (-812500 >> 3), rounded down */
	rq->idle_stamp = rq->clock - 5 * MS;
	update_avg_idle(rq);
	assert_int_equal(rq->avg_idle, 1000000);
}

/* ---- placement ---- */

struct placements {
	int cpu[FX_MAX_TASKS];
	int nr;
};

static void on_select(void *ctx, const struct sched_event *ev)
{
	struct placements *p = ctx;

	if (ev->type == EV_SELECT_RQ && (ev->select.wake_flags & WF_FORK))
		p->cpu[p->nr++] = ev->select.new_cpu;
}

/*
 * Four hogs forked at once from CPU 0 of two: find_idlest_group() with
 * forkexec_idx 0 sends the first away (both loads 0, and 100 * 0 is not
 * below 112 * 0), keeps the second (0 against 1024), keeps the third
 * (1024 * 100 < 1024 * 112) and sends the fourth (2048 * 100 > 1024 * 112).
 */
static void test_fork_placement(void **state)
{
	struct fx *f = fx_new(2, KV(3, 3), SCHED_VARIANT_CFS);
	struct placements p = { .nr = 0 };
	const int want[] = { 1, 0, 0, 1 };

	(void)state;
	for (int i = 0; i < 4; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	fx_start(f);
	sched_add_listener(f->e, on_select, &p);
	sched_run_until(f->e, 100 * MS);
	assert_int_equal(p.nr, 4);
	assert_memory_equal(p.cpu, want, sizeof(want));
	/* two hogs per CPU: nothing is ever moved */
	sched_enter(f->e);
	for (int i = 0; i < 4; i++)
		assert_int_equal(T(f->e, i)->se.nr_migrations, 0);
}

/* ---- calculate_imbalance() and fix_small_imbalance() from the records ---- */

struct lb_rec {
	struct sched_event lb;
	struct sched_event grp[FX_MAX_CPUS];
	int nr_grp;
};

struct lb_log {
	struct lb_rec rec[4096];
	int nr;
	struct lb_rec cur;
};

static void on_lb(void *ctx, const struct sched_event *ev)
{
	struct lb_log *l = ctx;

	if (ev->type == EV_LB_GROUP) {
		if (l->cur.nr_grp && l->cur.grp[0].lb_group.decision != ev->lb_group.decision)
			l->cur.nr_grp = 0;
		l->cur.grp[l->cur.nr_grp++] = *ev;
	} else if (ev->type == EV_LOAD_BALANCE &&
		   (ev->lb.outcome == LB_MOVED || ev->lb.outcome == LB_FAILED) &&
		   l->nr < (int)ARRAY_SIZE(l->rec)) {
		l->cur.lb = *ev;
		if (l->cur.nr_grp && l->cur.grp[0].lb_group.decision == ev->lb.decision)
			l->rec[l->nr++] = l->cur;
		l->cur.nr_grp = 0;
	}
}

/*
 * 3.3's imbalance for nice-0 tasks only (a task's weighted load is 1024),
 * from the group statistics the balancer recorded: avg_load = 1024 *
 * group_load / power, the domain's average, max_pull bounded by the load
 * above the busiest group's capacity, and fix_small_imbalance()'s
 * unsigned arithmetic.
 */
static long imbalance_33(const struct lb_rec *r)
{
	const struct sched_event *this = NULL, *busiest = NULL;
	unsigned long total_load = 0, total_pwr = 0, avg_load, blpt = 1024, tlpt;
	unsigned long max_load, this_load, bpwr, tpwr, bnr, bcap, max_pull, lac = ~0UL, imb;

	for (int i = 0; i < r->nr_grp; i++) {
		const struct sched_event *g = &r->grp[i];

		total_load += g->lb_group.group_load;
		total_pwr += g->lb_group.group_capacity;
		if (g->lb_group.local)
			this = g;
		if (g->lb_group.first_cpu == r->lb.lb.busiest_group)
			busiest = g;
	}
	assert_non_null(this);
	assert_non_null(busiest);
	avg_load = 1024 * total_load / total_pwr;
	max_load = busiest->lb_group.avg_load;
	this_load = this->lb_group.avg_load;
	bpwr = busiest->lb_group.group_capacity;
	tpwr = this->lb_group.group_capacity;
	bnr = busiest->lb_group.sum_nr_running;
	bcap = (bpwr + 512) / 1024;
	if (busiest->lb_group.group_type == group_imbalanced)
		blpt = MIN(blpt, avg_load);
	if (max_load < avg_load) {
		imb = 0;
		goto small;
	}
	if (busiest->lb_group.group_type != group_imbalanced)
		lac = (bnr - bcap) * 1024 * 1024 / bpwr;
	max_pull = MIN(max_load - avg_load, lac);
	imb = MIN(max_pull * bpwr, (avg_load - this_load) * tpwr) / 1024;
	if (imb >= blpt)
		return (long)imb;
small:
	/* fix_small_imbalance(): this_load_per_task is 1024 with tasks here; the
	 * local group is this CPU alone, so without tasks its cpu_avg_load_per_task() is 0 */
	tlpt = this->lb_group.sum_nr_running ? 1024 : 0;
	unsigned long scaled = blpt * 1024 / bpwr, imbn = blpt > tlpt ? 1 : 2;
	if (max_load - this_load + scaled >= scaled * imbn)
		return (long)blpt;
	unsigned long pwr_now = (bpwr * MIN(blpt, max_load) + tpwr * MIN(tlpt, this_load)) / 1024,
		      pwr_move = 0, tmp;

	tmp = blpt * 1024 / bpwr;
	if (max_load > tmp)
		pwr_move += bpwr * MIN(blpt, max_load - tmp);
	if (max_load * bpwr < blpt * 1024)
		tmp = max_load * bpwr / tpwr;
	else
		tmp = blpt * 1024 / tpwr;
	pwr_move += tpwr * MIN(tlpt, this_load + tmp);
	pwr_move /= 1024;
	return pwr_move > pwr_now ? (long)blpt : (long)imb;
}

/*
 * A hog, four tasks that run 3 ms and sleep 6 ms and four that run 5 ms
 * and sleep 4 ms on four CPUs of one package: every
 * attempt that found a busiest queue asked for the imbalance 3.3 computes
 * from its own group statistics. (The mix matters: some settle into a
 * pattern the balancer leaves alone after a few dozen attempts.)
 */
static void test_imbalance_from_records(void **state)
{
	struct fx *f = fx_new(4, KV(3, 3), SCHED_VARIANT_CFS);
	struct lb_log *l = calloc(1, sizeof(*l));
	const struct prog_insn naps[4] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 3 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 6 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 },
	};
	const struct prog_insn busy[4] = {
		{ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 5 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 4 * MS, 0 } },
		{ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 },
	};
	int checked = 0;

	(void)state;
	assert_non_null(l);
	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	fx_program(f, 0, naps, 4, 1);
	fx_program(f, 1, busy, 4, 1);
	for (int i = 0; i < 8; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, &f->prog[i / 4]);
	fx_start(f);
	sched_add_listener(f->e, on_lb, l);
	sched_run_until(f->e, 3 * SEC);
	for (int i = 0; i < l->nr; i++) {
		const struct lb_rec *r = &l->rec[i];
		long want = imbalance_33(r);

		if (want != r->lb.lb.imbalance)
			fail_msg("decision %llu on CPU %d: imbalance %lld, 3.3's formula gives %ld",
				 (unsigned long long)r->lb.lb.decision, r->lb.cpu,
				 (long long)r->lb.lb.imbalance, want);
		checked++;
	}
	free(l);
	assert_true(checked >= 100);
}

/* ---- active balance ---- */

/* two hogs on the threads of core 0, then free to go anywhere; core 1 idles */
static const char stacked_scn[] = "topology packages=1 cores=2 threads=2\n"
				  "hz 1000\n"
				  "duration 1s\n"
				  "kernel 3.3\n"
				  "noise off\n"
				  "task a cpus=0 program=\"run forever\"\n"
				  "task b cpus=1 program=\"run forever\"\n"
				  "at 5ms set cpus a 0-3\n"
				  "at 5ms set cpus b 0-3\n";

static struct sched_engine *stacked_engine(struct scenario_file *sf)
{
	char err[512];
	struct sched_engine *e;

	assert_int_equal(
		scenario_parse("stacked.scn", stacked_scn, strlen(stacked_scn), sf, err, sizeof(err)), 0);
	e = sched_engine_create(&sf->sc, err, sizeof(err));
	assert_non_null(e);
	return e;
}

static int pushes[NR_LB_OUTCOMES];

static void on_outcome(void *ctx, const struct sched_event *ev)
{
	(void)ctx;
	if (ev->type == EV_LOAD_BALANCE)
		pushes[ev->lb.outcome]++;
}

/*
 * A core's two threads have the capacity of one task (589 power each), so an
 * idle core's balancer finds the other core overloaded, but each of its
 * threads runs a single task that load_balance() cannot take: after
 * cache_nice_tries + 3 failures it wakes the busiest thread's stopper.
 * 3.3's active_load_balance_cpu_stop() goes on when nr_running > 1, which
 * counts the stopper itself: the task it preempted moves to the idle core.
 */
static void test_active_balance_moves_the_preempted_task(void **state)
{
	struct scenario_file sf;
	struct sched_engine *e;
	int core_a, core_b;

	(void)state;
	memset(pushes, 0, sizeof(pushes));
	e = stacked_engine(&sf);
	sched_add_listener(e, on_outcome, NULL);
	sched_run_until(e, 1 * SEC);
	core_a = sf.topo.cpu[e->st->task[0].cpu].core;
	core_b = sf.topo.cpu[e->st->task[1].cpu].core;
	print_message("a on CPU %d, b on CPU %d; %d pushed, %d failed\n", e->st->task[0].cpu,
		      e->st->task[1].cpu, pushes[LB_ACTIVE_PUSHED], pushes[LB_ACTIVE_FAILED]);
	assert_int_not_equal(core_a, core_b);
	assert_true(pushes[LB_ACTIVE_PUSHED] > 0);
	assert_int_equal(pushes[LB_ACTIVE_FAILED], 0);
	sched_engine_destroy(e);
	scenario_free(&sf);
}

/*
 * task_hot() looks at when a task last ran, which 3.3 keeps across a move:
 * its set_task_cpu() leaves se.exec_start alone, so a task moved off a busy
 * CPU is still hot for migration_cost. Later releases zero it on a move
 * (enqueue_entity() since a53ce18cacb4, migrate_task_rq_fair() before).
 */
static void test_moved_task_stays_hot(void **state)
{
	const int kernels[] = { KV(3, 3), KV(6, 1) };

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct fx *f = fx_new(2, kernels[k], SCHED_VARIANT_CFS);
		struct task_struct *waiting = NULL;
		u64 ran;

		/* three hogs on two CPUs: one of them waits */
		for (int i = 0; i < 3; i++)
			fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
		fx_start(f);
		sched_run_until(f->e, 10 * MS + 500 * US);
		sched_enter(f->e);
		for (int i = 0; i < 3; i++)
			if (task_on_rq_queued(T(f->e, i)) && !T(f->e, i)->on_cpu)
				waiting = T(f->e, i);
		assert_non_null(waiting);
		ran = waiting->se.exec_start;
		assert_true(ran > 0);
		move_queued_task(waiting, !waiting->cpu, waiting->cpu, MIGRATE_BALANCE);
		print_message("kernel %d: exec_start %llu before the move, %llu after\n", kernels[k],
			      (unsigned long long)ran, (unsigned long long)waiting->se.exec_start);
		assert_int_equal(waiting->se.exec_start, k == 0 ? ran : 0);
		fx_free(f);
	}
}

/* ---- LinSched's machine: an IPI is a 1 ns hrtimer, programmed 5 us out ---- */

struct ipi_log {
	u64 asked, pushed, arrived;
	s32 pid;
	int dest;
};

static void on_push(void *ctx, const struct sched_event *ev)
{
	struct ipi_log *l = ctx;

	if (ev->type == EV_LOAD_BALANCE && ev->lb.active && !l->asked)
		l->asked = ev->time;
	else if (ev->type == EV_LOAD_BALANCE && ev->lb.outcome == LB_ACTIVE_PUSHED && l->asked && !l->pushed)
		l->pushed = ev->time;
	else if (ev->type == EV_SCHED_MIGRATE_TASK && ev->migrate.reason == MIGRATE_ACTIVE && !l->pid) {
		l->pid = ev->migrate.pid;
		l->dest = ev->migrate.dest_cpu;
	} else if (ev->type == EV_SCHED_SWITCH && l->pid && !l->arrived && ev->cpu == l->dest &&
		   ev->sw.next_pid == l->pid)
		l->arrived = ev->time;
}

/*
 * LinSched sends an IPI as a 1 ns hrtimer on the target CPU, and its clock
 * event device programs nothing closer than 5 us: the stopper that an
 * active balance wakes runs 5 us after the balance that asked for it, and
 * the CPU it pushed a task to, idle, runs it 5 us after that.
 */
static void test_linsched_ipi_delays(void **state)
{
	struct scenario_file sf;
	struct sched_engine *e;
	struct ipi_log *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	e = stacked_engine(&sf);
	sched_add_listener(e, on_push, l);
	sched_run_until(e, 1 * SEC);
	print_message("asked at %llu, pushed at %llu, running on CPU %d at %llu\n",
		      (unsigned long long)l->asked, (unsigned long long)l->pushed, l->dest,
		      (unsigned long long)l->arrived);
	assert_true(l->asked > 0);
	assert_int_equal(l->pushed - l->asked, 5 * NSEC_PER_USEC);
	assert_int_equal(l->arrived - l->pushed, 5 * NSEC_PER_USEC);
	sched_engine_destroy(e);
	scenario_free(&sf);
	free(l);
}

/*
 * LinSched's CPUs take their turn at an instant one by one, and jiffies
 * advance in the tick of the do_timer CPU: CPU 0 stops its tick while idle
 * and drops that duty, CPU 1 takes it; back at work, CPU 0 ticks first at
 * each instant and sees the previous jiffy.
 */
static const char duty_scn[] = "topology packages=1 cores=2 threads=1\n"
			       "hz 1000\n"
			       "duration 1s\n"
			       "kernel 3.3\n"
			       "noise off\n"
			       "task a cpus=0 program=\"run 10ms; sleep 20ms; run forever\"\n"
			       "task b cpus=1 program=\"run forever\"\n";

static void test_linsched_do_timer_duty(void **state)
{
	struct scenario_file sf;
	struct sched_engine *e;
	char err[512];

	(void)state;
	assert_int_equal(scenario_parse("duty.scn", duty_scn, strlen(duty_scn), &sf, err, sizeof(err)), 0);
	e = sched_engine_create(&sf.sc, err, sizeof(err));
	assert_non_null(e);
	sched_run_until(e, 35 * MS);
	assert_int_equal(e->st->do_timer_cpu, 1);
	assert_int_equal(e->st->rq[0].last_load_update_tick, 34);
	assert_int_equal(e->st->rq[1].last_load_update_tick, 35);
	sched_engine_destroy(e);
	scenario_free(&sf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_load_missed),
		cmocka_unit_test(test_update_cpu_load),
		cmocka_unit_test_teardown(test_power_of, fx_cleanup),
		cmocka_unit_test_teardown(test_avg_idle, fx_cleanup),
		cmocka_unit_test_teardown(test_fork_placement, fx_cleanup),
		cmocka_unit_test_teardown(test_imbalance_from_records, fx_cleanup),
		cmocka_unit_test(test_active_balance_moves_the_preempted_task),
		cmocka_unit_test(test_moved_task_stays_hot),
		cmocka_unit_test(test_linsched_ipi_delays),
		cmocka_unit_test(test_linsched_do_timer_duty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
