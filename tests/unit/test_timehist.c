// SPDX-License-Identifier: GPL-2.0
/*
 * perf sched timehist's columns (src/analysis/timehist.c): on events written
 * by hand, on a lone sleeper whose figures are known, and against the
 * engine's own schedstats (run_delay, sum_exec_runtime, pcount).
 */
#include <stdio.h>
#include <string.h>

#include "sched/api/history.h"
#include "sched/api/sched.h"
#include "src/analysis/timehist.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US NSEC_PER_USEC

static struct sched_event wake(u64 t, int pid)
{
	struct sched_event ev = { .time = t, .type = EV_SCHED_WAKEUP, .cpu = 0 };

	ev.wake.pid = pid;
	return ev;
}

static struct sched_event sw(u64 t, int cpu, int prev, char state, int next)
{
	struct sched_event ev = { .time = t, .type = EV_SCHED_SWITCH, .cpu = (s16)cpu };

	ev.sw.prev_pid = prev, ev.sw.prev_state = state, ev.sw.next_pid = next;
	return ev;
}

static void row_is(const struct timehist *th, u64 i, u64 t, int cpu, u64 wait, u64 delay, u64 run, char st)
{
	const struct timehist_row *r = timehist_row(th, i);

	assert_int_equal(r->time, t);
	assert_int_equal(r->cpu, cpu);
	assert_int_equal(r->wait, wait);
	assert_int_equal(r->delay, delay);
	assert_int_equal(r->run, run);
	assert_int_equal(r->state, st);
}

/*
 * Task 1 forked at 10us and run at once; preempted by task 2 at 30 (state R:
 * ready again at once); back at 45, sleeps at 50; woken at 70 (again at 72:
 * already ready, ignored) and run on CPU 1 from 75 to 90.
 */
static void test_by_hand(void **state)
{
	struct sched_event ev[] = {
		wake(10 * US, 1),	   sw(10 * US, 0, 0, 'R', 1), wake(20 * US, 2),
		sw(30 * US, 0, 1, 'R', 2), sw(45 * US, 0, 2, 'S', 1), sw(50 * US, 0, 1, 'S', 0),
		wake(70 * US, 1),	   wake(72 * US, 1),	      sw(75 * US, 1, 0, 'R', 1),
		sw(90 * US, 1, 1, 'S', 0),
	};
	struct timehist th;

	(void)state;
	ev[0].type = EV_SCHED_WAKEUP_NEW;
	timehist_init(&th, 1, 2);
	for (size_t i = 0; i < ARRAY_SIZE(ev); i++)
		timehist_feed(&th, &ev[i]);
	assert_int_equal(th.nr, 3);
	/* run 10..30, woken at 10 and in at 10: no delay; no switch-out before: no wait */
	row_is(&th, 0, 30 * US, 0, 0, 0, 20 * US, 'R');
	/* preempted at 30, back in at 45: waited 15, all of it ready */
	row_is(&th, 1, 50 * US, 0, 15 * US, 15 * US, 5 * US, 'S');
	/* out at 50, woken at 70, in at 75 on CPU 1 */
	row_is(&th, 2, 90 * US, 1, 25 * US, 5 * US, 15 * US, 'S');
	assert_int_equal(th.total_wait, 40 * US);
	assert_int_equal(th.total_delay, 20 * US);
	assert_int_equal(th.total_run, 40 * US);
	assert_int_equal(th.max_delay, 15 * US);
	timehist_free(&th);
}

/* The ring keeps the last TIMEHIST_ROWS rows, oldest first; the totals cover all. */
static void test_ring(void **state)
{
	struct timehist th;
	u64 n = TIMEHIST_ROWS + 5;

	(void)state;
	timehist_init(&th, 1, 1);
	for (u64 i = 0; i < n; i++) {
		struct sched_event in = sw(i * 10 * US, 0, 0, 'R', 1),
				   out = sw(i * 10 * US + 3 * US, 0, 1, 'S', 0);

		timehist_feed(&th, &in);
		timehist_feed(&th, &out);
	}
	assert_int_equal(th.nr, n);
	assert_int_equal(th.total_run, n * 3 * US);
	row_is(&th, 0, 5 * 10 * US + 3 * US, 0, 7 * US, 0, 3 * US, 'S');
	row_is(&th, TIMEHIST_ROWS - 1, (n - 1) * 10 * US + 3 * US, 0, 7 * US, 0, 3 * US, 'S');
	timehist_free(&th);
}

struct run {
	struct scenario_file f;
	struct sched_engine *e;
	struct sched_history *h;
};

static void run_start(struct run *r, const char *text, u64 until)
{
	char err[256];

	if (scenario_parse("test.scn", text, strlen(text), &r->f, err, sizeof(err)))
		fail_msg("%s", err);
	r->e = sched_engine_create(&r->f.sc, err, sizeof(err));
	if (!r->e)
		fail_msg("%s", err);
	r->h = history_create(r->e, HISTORY_DEFAULT_BUDGET);
	assert_non_null(r->h);
	history_run_until(r->h, until);
}

static void run_feed(struct run *r, struct timehist *th, int pid)
{
	timehist_init(th, pid, sched_nr_cpus(r->e));
	for (u64 i = 0; i < history_nr_logged(r->h); i++)
		timehist_feed(th, history_event(r->h, i));
}

static void run_end(struct run *r)
{
	history_destroy(r->h);
	sched_engine_destroy(r->e);
	scenario_free(&r->f);
}

/* Alone on a CPU, run 1ms, sleep 2ms: every switch-out after the first waited 2ms with no delay. */
static void test_lone_sleeper(void **state)
{
	static const char text[] = "topology packages=1 cores=1 threads=1\n"
				   "noise off\n"
				   "duration 1s\n"
				   "task s program=\"loop { run 1ms; sleep 2ms }\"\n";
	struct run r;
	struct timehist th;

	(void)state;
	run_start(&r, text, 100 * NSEC_PER_MSEC);
	run_feed(&r, &th, 1);
	assert_true(th.nr >= 30);
	for (u64 i = 0; i < th.nr; i++) {
		const struct timehist_row *row = timehist_row(&th, i);

		assert_int_equal(row->run, NSEC_PER_MSEC);
		assert_int_equal(row->delay, 0);
		assert_int_equal(row->wait, i ? 2 * NSEC_PER_MSEC : 0);
		assert_int_equal(row->state, 'S');
		assert_int_equal(row->time, (3 * i + 1) * NSEC_PER_MSEC);
	}
	timehist_free(&th);
	run_end(&r);
}

/*
 * Hogs and sleepers on two CPUs, with preemption, wakeups and migrations: for
 * every task off its CPU, the rows add up to the engine's schedstats, the
 * delays to run_delay (queued time, preempted or woken), the runs to
 * sum_exec_runtime, the rows to pcount.
 */
static void test_engine_schedstats(void **state)
{
	static const char text[] = "topology packages=1 cores=2 threads=1\n"
				   "noise off\n"
				   "duration 1s\n"
				   "task hog count=3 program=\"run forever\"\n"
				   "task sleeper count=3 program=\"loop { run 700us; sleep 1300us }\"\n";
	struct run r;
	int checked = 0, sleeping = 0;

	(void)state;
	run_start(&r, text, 300 * NSEC_PER_MSEC);
	/* a few instants, until a sleeper has been seen asleep */
	for (int step = 0; step < 100 && !sleeping; step++) {
		history_run_until(r.h, 300 * NSEC_PER_MSEC + (u64)step * 97 * US);
		for (int t = 0; t < sched_nr_tasks(r.e); t++) {
			struct sched_task_info ti;
			struct timehist th;

			sched_task_info(r.e, t, &ti);
			if (ti.on_cpu)
				continue;
			run_feed(&r, &th, ti.pid);
			assert_true(th.nr > 10);
			assert_int_equal(th.nr, ti.pcount);
			assert_int_equal(th.total_run, ti.sum_exec_runtime);
			/* a queued task's current wait joins run_delay when it runs */
			if (!ti.on_rq) {
				assert_int_equal(th.total_delay, ti.run_delay);
				sleeping++;
			}
			checked++;
			timehist_free(&th);
		}
	}
	assert_true(checked >= 2 && sleeping >= 1);
	run_end(&r);
}

/*
 * Tasks that wait on one CPU and are pulled to another by the balancer:
 * sched_info_dequeue() adds the wait so far to run_delay, so the waits
 * before and after the move both count, at 3.3 (its balancer) and at 6.1.
 * (From 6.12 a delayed sleeper that is moved counts as queued from the
 * move, as the kernel's enqueue stamps it: timehist starts at the wakeup.)
 */
static void test_wait_before_a_migration_joins_run_delay(void **state)
{
	static const char *const kernels[] = { "3.3", "6.1" };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(kernels); k++) {
		char text[256];
		struct run r;
		int sleeping = 0;
		u64 migrated = 0;

		snprintf(text, sizeof(text),
			 "topology packages=1 cores=2 threads=1\n"
			 "noise off\n"
			 "kernel %s\n"
			 "duration 2s\n"
			 "task w count=5 program=\"loop { run 30ms; sleep 10ms }\"\n",
			 kernels[k]);
		run_start(&r, text, 0);
		for (int step = 1; step <= 200; step++) {
			history_run_until(r.h, (u64)step * 7 * NSEC_PER_MSEC + 3 * US);
			for (int t = 0; t < sched_nr_tasks(r.e); t++) {
				struct sched_task_info ti;
				struct timehist th;

				sched_task_info(r.e, t, &ti);
				if (ti.on_rq)
					continue;
				run_feed(&r, &th, ti.pid);
				assert_int_equal(th.total_delay, ti.run_delay);
				migrated += ti.nr_migrations;
				sleeping++;
				timehist_free(&th);
			}
		}
		assert_true(sleeping > 50 && migrated > 0);
		run_end(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_lone_sleeper),
		cmocka_unit_test(test_engine_schedstats),
		cmocka_unit_test(test_wait_before_a_migration_joins_run_delay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
