// SPDX-License-Identifier: GPL-2.0
/*
 * The real machine's jitter (`noise on`): simultaneous interrupts of two
 * CPUs in a seeded order, the hrtimer range rule for a sleep's timer slack,
 * and the ideal machine (`noise off`) where a sleep ends at its expiry.
 * Each scenario is parsed from text and run to its end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/internal.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC

/* Task 0's sleeps: when each began (switched out asleep) and when its timer woke it. */
struct sleeps {
	u64 begin[64], wake[64];
	int nr_begin, nr_wake;
};

static void record(void *arg, const struct sched_event *ev)
{
	struct sleeps *s = arg;

	if (ev->type == EV_SCHED_SWITCH && ev->sw.prev_pid == 1 && ev->sw.prev_state == TASK_STATE_S &&
	    s->nr_begin < 64)
		s->begin[s->nr_begin++] = ev->time;
	if (ev->type == EV_SCHED_WAKING && ev->wake.pid == 1 && ev->wake.from_timer && s->nr_wake < 64)
		s->wake[s->nr_wake++] = ev->time;
}

/* Parse text with --set assignments, run it to its end; task 0's sleeps in *s, CPU time in run[]. */
static void run_text(const char *text, const char *set1, const char *set2, struct sleeps *s, u64 run[2],
		     int cpu[2])
{
	struct scenario_file f;
	char err[512];
	struct sched_engine *e;

	if (scenario_parse("noise.scn", text, strlen(text), &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	if ((set1 && scenario_set(&f, set1, err, sizeof(err)) < 0) ||
	    (set2 && scenario_set(&f, set2, err, sizeof(err)) < 0))
		fail_msg("%s", err);
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);
	if (s) {
		memset(s, 0, sizeof(*s));
		sched_add_listener(e, record, s);
	}
	while (sched_step(e))
		;
	for (int i = 0; run && i < 2; i++) {
		struct sched_task_info ti;

		sched_task_info(e, i, &ti);
		run[i] = ti.sum_exec_runtime;
		cpu[i] = ti.cpu;
	}
	sched_engine_destroy(e);
	scenario_free(&f);
}

/*
 * Two hogs in one cpu.max group on two CPUs, one per CPU: whose queue takes
 * the pool's last runtime at a period's start is decided by whose tick comes
 * first. On the ideal machine the ticks are simultaneous and CPU 0's fires
 * first every time; on the real one either CPU's task comes out ahead,
 * depending on the seed.
 */
static void test_simultaneous_ticks_seeded(void **state)
{
	const char *text = "topology packages=1 cores=2\nhz 250\nduration 2s\n"
			   "group /lim cpu.max=\"20ms 100ms\"\n"
			   "task hog count=2 group=/lim program=\"run forever\"\n";
	int cpu0_ahead[2] = { 0, 0 };

	for (int noise = 0; noise < 2; noise++) {
		for (int seed = 1; seed <= 8; seed++) {
			char set[32];
			u64 run[2];
			int cpu[2];

			snprintf(set, sizeof(set), "seed=%d", seed);
			run_text(text, set, noise ? "noise=on" : "noise=off", NULL, run, cpu);
			assert_int_not_equal(cpu[0], cpu[1]);
			cpu0_ahead[noise] += run[cpu[0] == 0 ? 0 : 1] > run[cpu[0] == 0 ? 1 : 0];
		}
	}
	assert_int_equal(cpu0_ahead[0], 8);
	assert_in_range(cpu0_ahead[1], 1, 7);
}

#define ALONE "topology packages=1 cores=1 threads=1\nduration 100ms\n"

/*
 * Alone on its CPU the tick is stopped while it sleeps: nothing else
 * interrupts, so the timer fires at the range's hard end, expiry + slack,
 * entering up to irq_jitter_ns late. Each sleep follows a run, so the task
 * leaves its CPU as it arms the timer (a sleep right after its switch-in
 * would leave when cost_switch_ns ends).
 */
static void test_sleep_on_idle_cpu_ends_at_slack(void **state)
{
	static const struct {
		const char *task, *set;
		u64 lo, hi;
	} c[] = {
		{ "task s program=\"loop 10 { run 1ms; sleep 1ms }\"", "noise=off", 0, 0 },
		{ "task s program=\"loop 10 { run 1ms; sleep 1ms }\"", NULL, 50 * US, 60 * US },
		{ "task s timer_slack=200us program=\"loop 10 { run 1ms; sleep 1ms }\"", NULL, 200 * US,
		  210 * US },
		{ "task s timer_slack=0 program=\"loop 10 { run 1ms; sleep 1ms }\"", NULL, 0, 10 * US },
		/* RT tasks have no slack, only the interrupt's entry */
		{ "task s policy=fifo prio=10 program=\"loop 10 { run 1ms; sleep 1ms }\"", NULL, 0, 10 * US },
		{ "task s program=\"loop 10 { run 1ms; sleep 1ms }\"", "irq_jitter=0", 50 * US, 50 * US },
	};

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		char text[256];
		struct sleeps s;
		u64 late_sum = 0;

		snprintf(text, sizeof(text), ALONE "%s\n", c[i].task);
		run_text(text, c[i].set, NULL, &s, NULL, NULL);
		assert_int_equal(s.nr_wake, 10);
		assert_int_equal(s.nr_begin, 10);
		for (int k = 0; k < s.nr_wake; k++) {
			u64 late = s.wake[k] - (s.begin[k] + 1 * MS);

			assert_in_range(late, c[i].lo, c[i].hi);
			late_sum += late;
		}
		/* the entry jitter is drawn, not a constant */
		if (c[i].hi - c[i].lo == 10 * US)
			assert_true(late_sum != 10 * c[i].lo && late_sum != 10 * c[i].hi);
	}
}

/*
 * Next to a hog the tick runs: at HZ 1000 a 1 ms slack range always holds
 * a tick, and the sleep ends with it, in the same interrupt (at a tick's
 * time, up to the entry jitter past the 1 ms grid), never at the hard end.
 */
static void test_sleep_ends_at_tick_in_range(void **state)
{
	const char *text = "topology packages=1 cores=1 threads=1\nhz 1000\nduration 200ms\n"
			   "task s timer_slack=1ms program=\"loop 30 { run 300us; sleep 2300us }\"\n"
			   "task hog program=\"run forever\"\n";
	struct sleeps s;

	run_text(text, NULL, NULL, &s, NULL, NULL);
	assert_true(s.nr_wake >= 20);
	for (int k = 0; k < s.nr_wake && k < s.nr_begin; k++) {
		u64 expiry = s.begin[k] + 2300 * US;

		assert_in_range(s.wake[k], expiry, expiry + 1 * MS);
		assert_in_range(s.wake[k] % MS, 0, 10 * US);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simultaneous_ticks_seeded),
		cmocka_unit_test(test_sleep_on_idle_cpu_ends_at_slack),
		cmocka_unit_test(test_sleep_ends_at_tick_in_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
