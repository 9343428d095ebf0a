// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time affinity (`set cpus`, sched_setaffinity()): where the kernel
 * moves a task its CPU no longer allows, and how (__set_cpus_allowed_ptr()
 * and affine_move_task() of the modelled release). Noise off, so each move
 * happens at the instant of the command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/internal.h"
#include "src/format/command.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC
#define MAX_SEEN 64

struct seen {
	struct {
		u64 time;
		int pid, orig, dest, reason;
	} mig[MAX_SEEN];
	int nr_mig;
	int switches_at[4]; /* switches on each CPU at the command's instant */
	u64 at;
};

static void record(void *arg, const struct sched_event *ev)
{
	struct seen *s = arg;

	if (ev->type == EV_SCHED_MIGRATE_TASK && s->nr_mig < MAX_SEEN)
		s->mig[s->nr_mig++] = (typeof(s->mig[0])){ ev->time, ev->migrate.pid, ev->migrate.orig_cpu,
							   ev->migrate.dest_cpu, ev->migrate.reason };
	if (ev->type == EV_SCHED_SWITCH && ev->time == s->at && ev->cpu < 4)
		s->switches_at[ev->cpu]++;
}

/* Run text to its end with the ideal machine; pid's runtime is returned. */
static u64 run_text(const char *text, u64 at, struct seen *s, int pid)
{
	struct scenario_file f;
	char err[512], full[2048];
	struct sched_engine *e;
	struct sched_task_info ti;

	snprintf(full, sizeof(full), "noise off\nhz 250\n%s", text);
	if (scenario_parse("affinity.scn", full, strlen(full), &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);
	memset(s, 0, sizeof(*s));
	s->at = at;
	sched_add_listener(e, record, s);
	while (sched_step(e))
		;
	sched_task_info(e, pid - 1, &ti);
	sched_engine_destroy(e);
	scenario_free(&f);
	return ti.sum_exec_runtime;
}

/* The moves a scenario made for one reason. */
static int moves(const struct seen *s, int reason)
{
	int n = 0;

	for (int i = 0; i < s->nr_mig; i++)
		n += s->mig[i].reason == reason;
	return n;
}

/*
 * A running task is moved by its CPU's stopper: the CPU switches to the
 * stopper (shown as the idle task) and back, and the task joins the other
 * CPU at once, where it shares with the hog there from then on.
 */
static void test_running_task_moved_by_stopper(void **state)
{
	struct seen s;
	u64 run = run_text("topology dual\nduration 1s\n"
			   "task a cpus=0 program=\"run forever\"\n"
			   "task b cpus=1 program=\"run forever\"\n"
			   "at 100ms set cpus a 1\n",
			   100 * MS, &s, 1);

	assert_int_equal(moves(&s, MIGRATE_AFFINITY), 1);
	assert_int_equal(s.mig[0].time, 100 * MS);
	assert_int_equal(s.mig[0].pid, 1);
	assert_int_equal(s.mig[0].orig, 0);
	assert_int_equal(s.mig[0].dest, 1);
	assert_int_equal(s.switches_at[0], 1); /* a -> the stopper, then idle stays */
	/* alone for 100 ms, then half of CPU 1 for 900 ms, give or take a tick */
	assert_true(run >= 550 * MS - 4 * MS && run <= 550 * MS + 4 * MS);
}

#define RT_OVER_FAIR                                                  \
	"topology dual\nduration 300ms\n"                             \
	"task r policy=fifo prio=10 cpus=0 program=\"run forever\"\n" \
	"task a cpus=0 program=\"run forever\"\n"                     \
	"at 100ms set cpus a 1\n"

/*
 * A task that waits in its queue (a fair task under an RT hog) moves at
 * once from 3.18 (move_queued_task()): the RT task keeps its CPU. Before,
 * the stopper moved it too, taking the CPU from the RT task for a moment.
 */
static void test_queued_task_moves_at_once_from_3_18(void **state)
{
	struct seen s;
	char text[512];

	snprintf(text, sizeof(text), "kernel 6.6\n%s", RT_OVER_FAIR);
	/* all of CPU 1 from 100 ms (runtime is as of the last tick, 4 ms before the end) */
	assert_int_equal(run_text(text, 100 * MS, &s, 2), 196 * MS);
	assert_int_equal(moves(&s, MIGRATE_AFFINITY), 1);
	assert_int_equal(s.mig[0].time, 100 * MS);
	assert_int_equal(s.switches_at[0], 0);

	snprintf(text, sizeof(text), "kernel 3.3\n%s", RT_OVER_FAIR);
	run_text(text, 100 * MS, &s, 2);
	assert_int_equal(moves(&s, MIGRATE_AFFINITY), 1);
	assert_int_equal(s.mig[0].time, 100 * MS);
	assert_int_equal(s.switches_at[0], 2); /* r -> stopper -> r */
}

#define QUEUED_FAIR_MOVED                                                                \
	"topology dual\nduration 300ms\n"                                                \
	"task a cpus=0 program=\"run forever\"\ntask b cpus=0 program=\"run forever\"\n" \
	"task c cpus=1 program=\"run forever\"\nat 200ms set cpus b 1\n"

/*
 * A fair task moved while it waits keeps its place relative to its queue
 * (3.3: vruntime less the old min_vruntime, plus the new one; EEVDF: its
 * lag): the move is a migration (deactivate_task() and activate_task()
 * with no flags), not a wakeup, so from 200 ms b and c share CPU 1 as
 * equals, c getting half of the last 100 ms. Taken for a wakeup, 3.3's b
 * lost the old min_vruntime twice and ran alone there for 108 ms.
 */
static void test_queued_fair_task_keeps_its_place(void **state)
{
	static const char *const kernels[] = { "3.3", "6.6", "6.12", "6.18" };

	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		struct seen s;
		char text[512];
		u64 c;

		snprintf(text, sizeof(text), "kernel %s\n%s", kernels[i], QUEUED_FAIR_MOVED);
		c = run_text(text, 200 * MS, &s, 3);
		assert_int_equal(moves(&s, MIGRATE_AFFINITY), 1);
		print_message("%s: c ran %llu us of the 100 ms after the move\n", kernels[i],
			      (unsigned long long)(c - 200 * MS) / 1000);
		/* all of CPU 1 to 200 ms, then half, give or take a slice and a tick */
		assert_in_range(c, 250 * MS - 8 * MS, 250 * MS + 8 * MS);
	}
}

/*
 * A sleeping task is not moved: its next wakeup places it on an allowed
 * CPU (a wakeup migration, not an affinity one).
 */
static void test_sleeping_task_placed_at_wakeup(void **state)
{
	struct seen s;

	run_text("topology dual\nduration 30ms\n"
		 "task a cpus=0 program=\"run 1ms; sleep 10ms; run 1ms\"\n"
		 "at 5ms set cpus a 1\n",
		 5 * MS, &s, 1);
	assert_int_equal(moves(&s, MIGRATE_AFFINITY), 0);
	assert_int_equal(moves(&s, MIGRATE_WAKEUP), 1);
	assert_int_equal(s.mig[0].time, 11 * MS);
	assert_int_equal(s.mig[0].dest, 1);
}

#define TWO_ON_THREE                                              \
	"topology packages=1 cores=4 threads=1\nduration 200ms\n" \
	"task a cpus=3 program=\"run forever\"\n"                 \
	"task b cpus=3 program=\"run forever\"\n"                 \
	"at 100ms set cpus * 0-1\n"

/*
 * Where the moved task goes: from 5.7 cpumask_any_and_distribute(), whose
 * first pick from a CPU skips CPU 0 and whose next goes on from there
 * (wrapping); before, the first CPU of the new mask.
 */
static void test_destination_distributed_from_5_7(void **state)
{
	struct seen s;
	char text[512];

	snprintf(text, sizeof(text), "kernel 6.6\n%s", TWO_ON_THREE);
	run_text(text, 100 * MS, &s, 1);
	assert_int_equal(moves(&s, MIGRATE_AFFINITY), 2);
	assert_int_equal(s.mig[0].dest, 1);
	assert_int_equal(s.mig[1].dest, 0);

	snprintf(text, sizeof(text), "kernel 5.4\n%s", TWO_ON_THREE);
	run_text(text, 100 * MS, &s, 1);
	assert_int_equal(moves(&s, MIGRATE_AFFINITY), 2);
	assert_int_equal(s.mig[0].dest, 0);
	assert_int_equal(s.mig[1].dest, 0);
}

/* The same mask again changes nothing; the console's refusals name the errno. */
static void test_refusals(void **state)
{
	struct scenario_file f;
	struct sched_command c[4];
	char err[256];
	int n;
	const char *text = "topology dual\n"
			   "task d policy=deadline runtime=1ms deadline=10ms program=\"run 1ms; sleep 9ms\"\n"
			   "task a program=\"run forever\"\n";

	if (scenario_parse("refuse.scn", text, strlen(text), &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	struct sched_engine *e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);

	assert_int_equal(command_parse(&f, "set cpus d 0", c, 4, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "EBUSY"));
	assert_int_equal(command_parse(&f, "set cpus a 0,", c, 4, &n, err, sizeof(err)), -1);
	assert_int_equal(command_parse(&f, "set cpus a 2", c, 4, &n, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "does not exist"));

	/* built by hand: no CPU at all, or a deadline task narrowed after the parser's check */
	struct sched_command none = { .kind = CMD_SET_CPUS, .task = 1 };
	assert_int_equal(sched_apply_command(e, &none, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "EINVAL"));
	struct sched_command narrow = { .kind = CMD_SET_CPUS, .task = 0 };
	cpumask_set(&narrow.cpus, 1);
	assert_int_equal(sched_apply_command(e, &narrow, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "EBUSY"));

	/* 0,1 as three tokens is the whole machine: nothing to do */
	assert_int_equal(command_parse(&f, "set cpus a 0 , 1", c, 4, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].value, 2);
	assert_int_equal(sched_apply_command(e, &c[0], err, sizeof(err)), 0);
	sched_engine_destroy(e);
	scenario_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_running_task_moved_by_stopper),
		cmocka_unit_test(test_queued_task_moves_at_once_from_3_18),
		cmocka_unit_test(test_queued_fair_task_keeps_its_place),
		cmocka_unit_test(test_sleeping_task_placed_at_wakeup),
		cmocka_unit_test(test_destination_distributed_from_5_7),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
