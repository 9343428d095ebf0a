// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own work (`noise on`'s cost_*_ns): each cost takes CPU time
 * from the task it is charged to or keeps it out of the task clock as
 * interrupt time, and the figures follow from the costs alone. Each
 * scenario runs with every other cost and the entry jitter at zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/internal.h"
#include "src/format/scenario_file.h"
#include "src/format/topology_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC

#define NO_COSTS                                                                                 \
	"tunable irq_jitter=0 timer_slack=0 cost_switch=0 cost_wakeup=0 cost_ipi=0 cost_tick=0 " \
	"cost_balance=0 cost_migrate=0 cost_hrtimer=0\n"

/* What the run showed of pid 1 and 2: switches in, when each last left its CPU. */
struct seen {
	int switches_in[3];
	u64 left[3];
	u64 woken[3];
};

static void record(void *arg, const struct sched_event *ev)
{
	struct seen *s = arg;

	if (ev->type == EV_SCHED_SWITCH) {
		if (ev->sw.next_pid >= 1 && ev->sw.next_pid <= 2)
			s->switches_in[ev->sw.next_pid]++;
		if (ev->sw.prev_pid >= 1 && ev->sw.prev_pid <= 2)
			s->left[ev->sw.prev_pid] = ev->time;
	}
	if (ev->type == EV_SCHED_WAKEUP && ev->wake.pid >= 1 && ev->wake.pid <= 2)
		s->woken[ev->wake.pid] = ev->time;
}

/* Run text (with NO_COSTS, then set) to just past t; the first two tasks' runtimes then in run[]. */
static void run_to(const char *text, const char *set, u64 t, struct seen *s, u64 run[2])
{
	struct scenario_file f;
	char err[512], full[1024];
	struct sched_engine *e;

	snprintf(full, sizeof(full), NO_COSTS "%s", text);
	if (scenario_parse("costs.scn", full, strlen(full), &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	if (set && scenario_set(&f, set, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);
	memset(s, 0, sizeof(*s));
	sched_add_listener(e, record, s);
	sched_run_until(e, t);
	for (int i = 0; i < f.sc.nr_tasks && i < 2; i++) {
		struct sched_task_info ti;

		sched_task_info(e, i, &ti);
		run[i] = ti.sum_exec_runtime;
	}
	sched_engine_destroy(e);
	scenario_free(&f);
}

/* The same to the run's end. */
static void run_text(const char *text, const char *set, struct seen *s, u64 run[2])
{
	run_to(text, set, UINT64_MAX, s, run);
}

#define TWO_ON_ONE                                                        \
	"topology packages=1 cores=1 threads=1\nhz 250\nduration 100ms\n" \
	"task a program=\"run 10ms; exit\"\ntask b program=\"run 10ms; exit\"\n"

/*
 * The switch comes after the pick has started next's exec clock: each
 * switch into a task costs it cost_switch_ns of runtime that its program
 * does not get, so its 10 ms of work take 10 ms plus that much per switch.
 */
static void test_switch_charged_to_next(void **state)
{
	struct seen s;
	u64 run[2];

	run_text(TWO_ON_ONE, "cost_switch=100us", &s, run);
	for (int i = 0; i < 2; i++) {
		assert_true(s.switches_in[i + 1] >= 2);
		assert_int_equal(run[i], 10 * MS + (u64)s.switches_in[i + 1] * 100 * US);
	}
	/* both finished: the CPU's time is their work and the switches */
	assert_int_equal(s.left[2], 20 * MS + (u64)(s.switches_in[1] + s.switches_in[2]) * 100 * US);

	/* the ideal machine has none of it */
	run_text(TWO_ON_ONE, "noise=off", &s, run);
	assert_int_equal(run[0], 10 * MS);
	assert_int_equal(run[1], 10 * MS);
	assert_int_equal(s.left[2], 20 * MS);
}

#define ALONE                                                                                         \
	"topology packages=1 cores=1 threads=1\nhz 250\nduration 200ms\ntask a program=\"run 100ms; " \
	"exit\"\n"

/*
 * The tick is interrupt time: with IRQ_TIME_ACCOUNTING (the default) it
 * stays out of the task clock, so the task is charged its 100 ms of work
 * and finishes a whole number of ticks' costs late; without, it is charged
 * all of the wall time.
 */
static void test_tick_is_irq_time(void **state)
{
	struct seen s;
	u64 run[2], late;

	run_text(ALONE, "cost_tick=50us", &s, run);
	assert_int_equal(run[0], 100 * MS);
	late = s.left[1] - 100 * MS;
	/* a tick every 4 ms while it runs, the first at 4 ms */
	assert_int_equal(late, 25 * 50 * US);

	run_text(ALONE "feature NO_IRQ_TIME_ACCOUNTING\n", "cost_tick=50us", &s, run);
	assert_int_equal(run[0], s.left[1]);
	assert_int_equal(s.left[1], 100 * MS + 25 * 50 * US);
}

#define WAKER_WAKEE                                                      \
	"topology packages=1 cores=2 threads=1\nhz 250\nduration 50ms\n" \
	"task w cpus=1 program=\"wait; run 1ms; exit\"\n"                \
	"task k cpus=0 program=\"run 2ms; wake w; run 5ms; exit\"\n"

/*
 * A wakeup onto an idle CPU goes through the wake list: the target takes
 * the IPI, then switches to the wakee, whose run ends that much later.
 * The waker is charged cost_wakeup_ns in its own context.
 */
static void test_remote_wakeup_ipi(void **state)
{
	struct seen s;
	u64 run[2];

	run_text(WAKER_WAKEE, "cost_ipi=20us", &s, run);
	assert_int_equal(s.woken[1], 2 * MS);
	assert_int_equal(s.left[1], 2 * MS + 20 * US + 1 * MS);
	assert_int_equal(run[0], 1 * MS); /* IPI time is irq time */

	run_text(WAKER_WAKEE, "cost_wakeup=30us", &s, run);
	assert_int_equal(s.left[1], 3 * MS);
	assert_int_equal(run[1], 7 * MS + 30 * US);
	assert_int_equal(s.left[2], 7 * MS + 30 * US);
}

#define SLEEPER                                                          \
	"topology packages=1 cores=1 threads=1\nhz 250\nduration 20ms\n" \
	"task s program=\"sleep 1ms; run 1ms; exit\"\n"

#define SLEEPER_BY_HOG                                                   \
	"topology packages=1 cores=1 threads=1\nhz 250\nduration 20ms\n" \
	"tunable timer_slack=1ms\ntask hog program=\"run forever\"\n"    \
	"task s program=\"sleep 3500us; run 1ms; exit\"\n"

/*
 * A sleep's end is hrtimer_interrupt() on the sleeper's CPU: irq time
 * before the wakeup, so the sleeper's run starts that much later and is
 * not charged for it. When the tick's interrupt expires the sleep (s first
 * runs at the tick at 4 ms; the one at 8 ms lies in its range 7.5-8.5 ms),
 * the tick runs the timer and there is no interrupt of its own.
 */
static void test_sleep_end_is_hrtimer_irq(void **state)
{
	struct seen s, t;
	u64 run[2], run0[2];

	run_text(SLEEPER, "cost_hrtimer=50us", &s, run);
	assert_int_equal(s.woken[1], 1 * MS);
	assert_int_equal(s.left[1], 2 * MS + 50 * US);
	assert_int_equal(run[0], 1 * MS);

	run_text(SLEEPER_BY_HOG, "cost_hrtimer=50us", &s, run);
	run_text(SLEEPER_BY_HOG, NULL, &t, run0);
	assert_int_equal(s.woken[2], 8 * MS);
	assert_int_equal(s.woken[2], t.woken[2]);
	assert_int_equal(s.left[2], t.left[2]);
	assert_int_equal(run[1], run0[1]);
}

#define SLEEPS_AT_ONCE                                                   \
	"topology packages=1 cores=1 threads=1\nhz 250\nduration 20ms\n" \
	"task s program=\"sleep 5ms; sleep 1ms; exit\"\n"

/*
 * A task's code runs once the switch into it is over: s, switched in at 0,
 * arms its 5 ms sleep after the switch's 10 us, and its second sleep after
 * the next switch-in, at 5.02 ms; not at the switch-in instants.
 */
static void test_program_runs_after_switch(void **state)
{
	struct seen s;
	u64 run[2];

	(void)state;
	run_to(SLEEPS_AT_ONCE, "cost_switch=10us", 5 * MS + 500 * US, &s, run);
	assert_int_equal(s.woken[1], 5 * MS + 10 * US);
	run_to(SLEEPS_AT_ONCE, "cost_switch=10us", 7 * MS, &s, run);
	assert_int_equal(s.woken[1], 6 * MS + 20 * US);
}

#define TICK_PREEMPTS                                                         \
	"topology packages=1 cores=1 threads=1\nhz 250\nduration 100ms\n"     \
	"feature NO_IRQ_TIME_ACCOUNTING\ntask a program=\"run 10ms; exit\"\n" \
	"task b program=\"run 10ms; exit\"\n"

#define WAKEUP_PREEMPTS                                                    \
	"topology packages=1 cores=1 threads=1\nhz 250\nduration 20ms\n"   \
	"feature NO_IRQ_TIME_ACCOUNTING\ntask h program=\"run forever\"\n" \
	"task s program=\"sleep 5ms; run 1ms; exit\"\n"

/*
 * The tick that ends a's slice at 4 ms sets need_resched; the switch comes
 * at irq_exit(), after the tick's 50 us, which a (without
 * IRQ_TIME_ACCOUNTING) is charged as the task it interrupted: b starts its
 * exec clock at 4.05 ms.
 */
static void test_tick_preemption_at_irq_exit(void **state)
{
	struct seen s;
	u64 sum_exec[2];

	run_to(TICK_PREEMPTS, "cost_tick=50us", 4 * MS + 60 * US, &s, sum_exec);
	assert_int_equal(s.switches_in[2], 1);
	assert_int_equal(s.left[1], 4 * MS + 50 * US);
	assert_int_equal(sum_exec[0], 4 * MS + 50 * US);
	assert_int_equal(sum_exec[1], 0);
}

/*
 * s first runs at the tick at 4 ms and sleeps to 9 ms. Its wakeup preempts
 * and asks __schedule() to skip its clock update (rq_clock_skip_update()):
 * the hog is charged up to the wakeup, the switch comes at irq_exit() after
 * the hrtimer's 50 us, and s, whose exec clock starts at the wakeup's, is
 * charged them: its 1 ms of work costs it 1.05 ms, as the kernel charges it.
 * The same before 4.1, where rq->skip_clock_update holds the clock from the
 * wakeup to the pick.
 */
static void test_wakeup_preemption_charges_next(void **state)
{
	static const char *const kernels[] = { "", "kernel 3.3\n" };

	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		char text[512];
		struct seen s;
		u64 sum_exec[2];

		snprintf(text, sizeof(text), WAKEUP_PREEMPTS "%s", kernels[i]);
		run_to(text, "cost_hrtimer=50us", 11 * MS, &s, sum_exec);
		assert_int_equal(s.woken[2], 9 * MS);
		assert_int_equal(s.left[1], 9 * MS + 50 * US);
		assert_int_equal(s.left[2], 10 * MS + 50 * US);
		assert_int_equal(sum_exec[1], 1 * MS + 50 * US);
		/* the hog, as it left: 0-4 ms and 4-9 ms, up to the wakeup and not the interrupt */
		assert_int_equal(sum_exec[0], 9 * MS);
	}
}

#define BALANCED                                                          \
	"topology packages=1 cores=2 threads=1\nhz 250\nduration 200ms\n" \
	"task a cpus=0 program=\"run 100ms; exit\"\n"

/*
 * The periodic balance runs in SCHED_SOFTIRQ: each pass over the 2-CPU
 * domain takes cost_balance_ns and 50 ns a CPU of interrupt time, so the
 * hog is charged its 100 ms and ends a whole number of passes late. The
 * same with 3.3's balancer.
 */
static void test_balance_pass_is_softirq_time(void **state)
{
	static const char *const kernels[] = { "", "kernel 3.3\n" };

	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		char text[256];
		struct seen s;
		u64 run[2], late;

		snprintf(text, sizeof(text), BALANCED "%s", kernels[i]);
		run_text(text, "cost_balance=100us", &s, run);
		assert_int_equal(run[0], 100 * MS);
		late = s.left[1] - 100 * MS;
		assert_true(late > 0);
		assert_int_equal(late % (100 * US + 2 * 50), 0);

		run_text(text, "noise=off", &s, run);
		assert_int_equal(s.left[1], 100 * MS);
	}
}

/* A topology's `cost` lines are the defaults; a scenario's tunable wins; bad lines are refused. */
static void test_topology_cost_lines(void **state)
{
	static const char good[] = "packages 1\ncores 2\ncost switch 5us\ncost ipi 0\n";
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "packages 1\ncores 1\ncost fork 1us\n",
		  "t.topo:3:6: unknown cost 'fork' (expected switch, wakeup, ipi, tick, balance, migrate, "
		  "hrtimer)" },
		{ "packages 1\ncores 1\ncost tick 1us\ncost tick 2us\n",
		  "t.topo:4:6: duplicate cost 'tick' (first at line 3)" },
		{ "packages 1\ncores 1\ncost tick 2ms\n", "t.topo:3:11: cost '2ms' is more than 1ms" },
		{ "packages 1\ncores 1\ncost tick\n", "t.topo:3:10: 'tick' needs a value" },
	};
	struct sched_topology t;
	char err[256];

	assert_int_equal(topology_parse("t.topo", good, strlen(good), &t, err, sizeof(err)), 0);
	assert_true(t.cost_set[TUN_COST_SWITCH - TUN_COST_FIRST]);
	assert_int_equal(t.cost[TUN_COST_SWITCH - TUN_COST_FIRST], 5 * US);
	assert_true(t.cost_set[TUN_COST_IPI - TUN_COST_FIRST]);
	assert_int_equal(t.cost[TUN_COST_IPI - TUN_COST_FIRST], 0);
	assert_false(t.cost_set[TUN_COST_TICK - TUN_COST_FIRST]);
	topology_free(&t);

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(
			topology_parse("t.topo", bad[i].text, strlen(bad[i].text), &t, err, sizeof(err)), -1);
		assert_string_equal(err, bad[i].err);
	}
}

/* dual.topo's figures reach the engine, and a scenario's tunable wins over them. */
static void test_topology_default_and_override(void **state)
{
	static const char text[] = "topology dual\nduration 10ms\ntask a program=\"run forever\"\n";
	struct scenario_file f;
	char err[512];
	struct sched_engine *e;

	if (scenario_parse("scenarios/x.scn", text, strlen(text), &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);
	assert_int_equal(sched_tunable_value(e, TUN_COST_SWITCH),
			 f.sc.topo->cost[TUN_COST_SWITCH - TUN_COST_FIRST]);
	assert_true(f.sc.topo->cost_set[TUN_COST_SWITCH - TUN_COST_FIRST]);
	sched_engine_destroy(e);
	assert_int_equal(scenario_set(&f, "cost_switch=3us", err, sizeof(err)), 0);
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_int_equal(sched_tunable_value(e, TUN_COST_SWITCH), 3 * US);
	sched_engine_destroy(e);
	scenario_free(&f);
}

#define COSTS_RESULTS "tests/kernel/results/costs-linux-6.18.txt"
#define MAX_RUNS 32

/* The median as costs_summary.py prints it: statistics.median(), truncated. */
static long long median(long long *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			long long t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Each run's figure for one cost: its `cost` lines' `NAME VALUE` pair. */
static int measured_runs(const char *name, long long *v)
{
	FILE *f = fopen(COSTS_RESULTS, "r");
	char line[512];
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char word[32];
		long long value;
		int off = 0, used;

		if (strncmp(line, "cost ", 5))
			continue;
		off = 5;
		while (sscanf(line + off, "%31s %lld%n", word, &value, &used) == 2) {
			off += used;
			if (!strcmp(word, name)) {
				assert_true(n < MAX_RUNS);
				v[n++] = value;
			}
		}
	}
	fclose(f);
	return n;
}

/*
 * The built-in costs and dual.topo's are the medians of the recorded
 * `make costs` runs, so the figures and the file they cite cannot drift
 * apart; migrate's median is below zero (not measurable on that VM), so it
 * keeps the engine's figure.
 */
static void test_defaults_are_the_measured_medians(void **state)
{
	static const struct {
		const char *name;
		enum sched_tunable t;
	} costs[] = {
		{ "switch", TUN_COST_SWITCH },
		{ "wakeup", TUN_COST_WAKEUP },
		{ "ipi", TUN_COST_IPI },
		{ "tick", TUN_COST_TICK },
	};
	long long hrtimer[MAX_RUNS], wakeup[MAX_RUNS];
	struct sched_topology dual;
	char err[256];
	long long v[MAX_RUNS];

	assert_int_equal(topology_load("topologies/dual.topo", &dual, err, sizeof(err)), 0);
	for (size_t i = 0; i < ARRAY_SIZE(costs); i++) {
		int n = measured_runs(costs[i].name, v);
		long long m = median(v, n);

		assert_int_equal(n, 7);
		assert_int_equal(sched_default_tunable(KV_LATEST, costs[i].t), m);
		assert_true(dual.cost_set[costs[i].t - TUN_COST_FIRST]);
		assert_int_equal(dual.cost[costs[i].t - TUN_COST_FIRST], m);
	}
	assert_true(median(v, measured_runs("migrate", v)) < 0);
	/* a sleep's end: the hrtimer interrupt's figure holds the wakeup in it */
	assert_int_equal(sched_default_tunable(KV_LATEST, TUN_COST_HRTIMER),
			 median(hrtimer, measured_runs("hrtimer", hrtimer)) -
				 median(wakeup, measured_runs("wakeup", wakeup)));
	assert_int_equal(dual.cost[TUN_COST_HRTIMER - TUN_COST_FIRST],
			 sched_default_tunable(KV_LATEST, TUN_COST_HRTIMER));
	assert_int_equal(dual.cost[TUN_COST_MIGRATE - TUN_COST_FIRST],
			 sched_default_tunable(KV_LATEST, TUN_COST_MIGRATE));
	topology_free(&dual);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_switch_charged_to_next),
		cmocka_unit_test(test_tick_is_irq_time),
		cmocka_unit_test(test_remote_wakeup_ipi),
		cmocka_unit_test(test_sleep_end_is_hrtimer_irq),
		cmocka_unit_test(test_program_runs_after_switch),
		cmocka_unit_test(test_tick_preemption_at_irq_exit),
		cmocka_unit_test(test_wakeup_preemption_charges_next),
		cmocka_unit_test(test_balance_pass_is_softirq_time),
		cmocka_unit_test(test_topology_cost_lines),
		cmocka_unit_test(test_topology_default_and_override),
		cmocka_unit_test(test_defaults_are_the_measured_medians),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
