// SPDX-License-Identifier: GPL-2.0
/*
 * Branches of the history (sched/history_branch.c), as the user met
 * them: run to 3 s, checkpoint "three", go back to 1 s, renice a task. The
 * old future must stay a branch: switching to it gives back the same events
 * and the same engine state as before, its checkpoint with it; the new branch
 * survives the round trip as well; a branch's commands run in a second
 * engine give the same stream; a command that fails starts nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/history.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC

static const char scenario_fmt[] =
	"topology packages=1 cores=%d threads=1\n"
	"%s\nhz 1000\nseed %d\nduration 800ms\n"
	"task hog count=3 program=\"run forever\"\n"
	"task web count=4 program=\"loop { run uniform(100us, 900us); sleep exp(2ms) }\"\n"
	"task ping program=\"loop { run 50us; wake pong; wait }\"\n"
	"task pong program=\"loop { wait; run 60us; wake ping }\"\n";

struct sim {
	struct scenario_file f;
	struct sched_engine *e;
	struct sched_history *h;
	char text[1024];
};

static void sim_open(struct sim *s, const char *text)
{
	char err[512];

	snprintf(s->text, sizeof(s->text), "%s", text);
	if (scenario_parse("branches.scn", s->text, strlen(s->text), &s->f, err, sizeof(err)))
		fail_msg("%s", err);
	s->e = sched_engine_create(&s->f.sc, err, sizeof(err));
	if (!s->e)
		fail_msg("%s", err);
	s->h = history_create(s->e, HISTORY_DEFAULT_BUDGET);
	assert_non_null(s->h);
}

static void sim_close(struct sim *s)
{
	history_destroy(s->h);
	sched_engine_destroy(s->e);
	scenario_free(&s->f);
}

static void *state_of(const struct sched_engine *e)
{
	void *buf = malloc(sched_state_size(e));

	assert_non_null(buf);
	sched_state_save(e, buf);
	return buf;
}

static void assert_state_is(const struct sched_engine *e, const void *want, const char *what)
{
	void *now = state_of(e);

	if (memcmp(now, want, sched_state_size(e)))
		fail_msg("%s: the engine state differs (now %llu)", what, (unsigned long long)sched_now(e));
	free(now);
}

static struct sched_event *log_copy(struct sched_history *h, u64 *nr)
{
	*nr = history_nr_logged(h);
	struct sched_event *ev = malloc(*nr * sizeof(*ev) + 1);

	assert_non_null(ev);
	for (u64 i = 0; i < *nr; i++)
		ev[i] = *history_event(h, i);
	return ev;
}

/* The log's first n events are want's. */
static void assert_log_starts(struct sched_history *h, const struct sched_event *want, u64 n,
			      const char *what)
{
	assert_true(history_nr_logged(h) >= n);
	for (u64 i = 0; i < n; i++)
		if (memcmp(history_event(h, i), &want[i], sizeof(want[i])))
			fail_msg("%s: event %llu differs (%s at %llu, want %s at %llu)", what,
				 (unsigned long long)i, sched_event_names[history_event(h, i)->type],
				 (unsigned long long)history_event(h, i)->time,
				 sched_event_names[want[i].type], (unsigned long long)want[i].time);
}

static void apply_nice(struct sim *s, int task, int nice)
{
	struct sched_command c = { .kind = CMD_SET_NICE, .task = task, .value = nice };
	char err[256];

	if (history_apply_command(s->h, &c, err, sizeof(err)))
		fail_msg("command: %s", err);
}

static void assert_branch(const struct sched_history *h, int i, const char *name, int nr_cmd, int nr_cp)
{
	struct history_branch_info bi;

	history_branch_info(h, i, &bi);
	assert_string_equal(bi.name, name);
	assert_int_equal(bi.nr_commands, nr_cmd);
	assert_int_equal(bi.nr_checkpoints, nr_cp);
}

/* A branch's commands replayed in a second engine from the start: the same stream to time t. */
static void assert_copy_runs_as(const struct sim *s, int branch, u64 t, const struct sched_event *want, u64 n)
{
	struct sim c = { 0 };

	sim_open(&c, s->text);
	history_copy_branch(c.h, s->h, branch);
	history_run_until(c.h, t);
	assert_int_equal(history_nr_logged(c.h), n);
	assert_log_starts(c.h, want, n, "a copy of the branch");
	struct history_branch_info bi, src;
	history_branch_info(c.h, 0, &bi);
	history_branch_info(s->h, branch, &src);
	assert_string_equal(bi.name, src.name);
	assert_int_equal(bi.nr_commands, src.nr_commands);
	sim_close(&c);
}

static void check_round_trip(int cpus, const char *kernel, int seed)
{
	char text[1024];
	struct sim s = { 0 };
	u64 t1 = 200 * MS, t3 = 600 * MS, t2 = 500 * MS, n_main, n_b1;

	snprintf(text, sizeof(text), scenario_fmt, cpus, kernel, seed);
	sim_open(&s, text);
	assert_int_equal(history_nr_branches(s.h), 1);
	assert_branch(s.h, 0, "main", 0, 0);

	/* main: to 3 (600 ms), checkpoint "three" */
	history_run_until(s.h, t3);
	assert_int_equal(history_checkpoint(s.h, "three"), 0);
	struct sched_event *log_main = log_copy(s.h, &n_main);
	void *state_main = state_of(s.e);

	/* back to 1 and a renice: b1 starts, main keeps its future and "three" */
	history_goto_time(s.h, t1);
	assert_int_equal(history_nr_branches(s.h), 1); /* a rewind alone starts nothing */
	apply_nice(&s, 3, 10);
	assert_int_equal(history_nr_branches(s.h), 2);
	assert_int_equal(history_current_branch(s.h), 1);
	assert_branch(s.h, 0, "main", 0, 1);
	assert_branch(s.h, 1, "b1", 1, 0);
	assert_true(history_find_checkpoint(s.h, "three") < 0);
	assert_int_equal(history_checkpoint_branch(s.h, "three"), 0);
	assert_int_equal(history_branch_fork(s.h, 0), t1);
	assert_int_equal(history_branch_fork(s.h, 1), UINT64_MAX);

	/* b1: to 500 ms, checkpoint "bee" */
	history_run_until(s.h, t2);
	assert_int_equal(history_checkpoint(s.h, "bee"), 0);
	struct sched_event *log_b1 = log_copy(s.h, &n_b1);
	void *state_b1 = state_of(s.e);
	/* the runs part after the renice */
	assert_true(memcmp(log_b1, log_main, (size_t)MIN(n_b1, n_main) * sizeof(*log_b1)));

	/* to main at 3: the old future as it was, "three" with it */
	history_switch_branch(s.h, 0, t3);
	assert_int_equal(history_current_branch(s.h), 0);
	assert_int_equal(sched_now(s.e), t3);
	assert_state_is(s.e, state_main, "main at 3 after the switch");
	assert_int_equal(history_nr_logged(s.h), n_main);
	assert_log_starts(s.h, log_main, n_main, "main's log after the switch");
	assert_int_equal(history_find_checkpoint(s.h, "three"), (s64)t3);
	assert_true(history_find_checkpoint(s.h, "bee") < 0);
	assert_int_equal(history_checkpoint_branch(s.h, "bee"), 1);
	assert_branch(s.h, 1, "b1", 1, 1);
	history_goto_time(s.h, 0);
	history_goto_time(s.h, (u64)history_find_checkpoint(s.h, "three"));
	assert_state_is(s.e, state_main, "goto three");

	/* and back to b1 at "bee" */
	history_switch_branch(s.h, 1, t2);
	assert_state_is(s.e, state_b1, "b1 at 500 ms after two switches");
	assert_log_starts(s.h, log_b1, n_b1, "b1's log after two switches");
	assert_int_equal(history_find_checkpoint(s.h, "bee"), (s64)t2);
	assert_int_equal(history_mismatches(s.h), 0);

	/* each branch run in an engine of its own */
	assert_copy_runs_as(&s, 0, t3, log_main, n_main);
	assert_copy_runs_as(&s, 1, t2, log_b1, n_b1);

	/* a command that cannot apply starts no branch and drops no future */
	history_goto_time(s.h, t1 / 2);
	struct sched_command bad = { .kind = CMD_SET_NICE, .task = 3, .value = 40 };
	char err[256];
	assert_int_equal(history_apply_command(s.h, &bad, err, sizeof(err)), -1);
	assert_int_equal(history_nr_branches(s.h), 2);
	assert_int_equal(history_nr_logged(s.h), n_b1);

	/* a branch of a branch: b2 before main's and b1's fork, then straight to main */
	apply_nice(&s, 0, -5);
	assert_int_equal(history_nr_branches(s.h), 3);
	assert_branch(s.h, 2, "b2", 1, 0);
	assert_branch(s.h, 1, "b1", 1, 1);
	assert_int_equal(history_branch_fork(s.h, 0), t1 / 2);
	history_run_until(s.h, t3);
	history_switch_branch(s.h, 0, t3);
	assert_state_is(s.e, state_main, "main at 3 from b2");
	assert_log_starts(s.h, log_main, n_main, "main's log from b2");
	history_switch_branch(s.h, 1, t2);
	assert_state_is(s.e, state_b1, "b1 from main, after b2");
	assert_int_equal(history_mismatches(s.h), 0);

	free(log_main);
	free(log_b1);
	free(state_main);
	free(state_b1);
	sim_close(&s);
}

static void test_branch_round_trip(void **state)
{
	check_round_trip(2, "kernel 6.12", 1);
	check_round_trip(4, "kernel 6.6", 7);
	check_round_trip(3, "sched cfs", 42);
}

/* A command at the newest point reached (nothing rewound) starts no branch. */
static void test_no_branch_without_future(void **state)
{
	char text[1024];
	struct sim s = { 0 };

	snprintf(text, sizeof(text), scenario_fmt, 2, "kernel 6.12", 3);
	sim_open(&s, text);
	history_run_until(s.h, 100 * MS);
	apply_nice(&s, 0, 5);
	apply_nice(&s, 1, 5);
	history_run_until(s.h, 200 * MS);
	apply_nice(&s, 0, 0);
	assert_int_equal(history_nr_branches(s.h), 1);
	assert_branch(s.h, 0, "main", 3, 0);
	/* a checkpoint ahead of the current point is a future too */
	history_checkpoint(s.h, "late");
	history_goto_time(s.h, 150 * MS);
	history_goto_time(s.h, 200 * MS);
	assert_int_equal(history_nr_logged(s.h), sched_nr_events(s.e));
	apply_nice(&s, 2, 1);
	assert_int_equal(history_nr_branches(s.h), 1);
	sim_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_branch_round_trip),
		cmocka_unit_test(test_no_branch_without_future),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
