// SPDX-License-Identifier: GPL-2.0
/*
 * Time travel (sched/history.c) as property tests over generated
 * scenarios: a rewind replays exactly the original stream, checkpoints
 * round-trip, run-time commands are part of the history (with the branch
 * rule), checkpoint memory stays within its budget, breakpoints stop at the
 * first event that satisfies them, and history_goto_event() lands just after
 * the step holding the event. Every "random" choice comes from a fixed-seed
 * generator, so a failure reproduces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/history.h"
#include "src/format/breakpoint.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC

/* ---- a fixed-seed generator (splitmix64), independent of the engine's ---- */

static u64 rnd(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static u64 rnd_range(u64 *x, u64 lo, u64 hi)
{
	return lo + rnd(x) % (hi - lo + 1);
}

/* ---- recording events ---- */

struct rec {
	struct sched_event *ev;
	size_t nr, cap;
};

static void rec_event(void *ctx, const struct sched_event *ev)
{
	struct rec *r = ctx;

	if (r->nr == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4096;
		r->ev = realloc(r->ev, r->cap * sizeof(*r->ev));
		assert_non_null(r->ev);
	}
	r->ev[r->nr++] = *ev;
}

static void rec_free(struct rec *r)
{
	free(r->ev);
	memset(r, 0, sizeof(*r));
}

static void fail_event(const char *what, u64 i, const struct sched_event *a, const struct sched_event *b)
{
	fail_msg("%s: event %llu differs: %s cpu %d at %llu vs %s cpu %d at %llu", what,
		 (unsigned long long)i, sched_event_names[a->type], a->cpu,
		 (unsigned long long)a->time, sched_event_names[b->type], b->cpu,
		 (unsigned long long)b->time);
}

/* The history's log equals the recorded stream, event for event. */
static void assert_log_is(struct sched_history *h, const struct rec *r, const char *what)
{
	assert_int_equal(history_nr_logged(h), r->nr);
	for (u64 i = 0; i < r->nr; i++) {
		const struct sched_event *ev = history_event(h, i);
		assert_non_null(ev);
		if (memcmp(ev, &r->ev[i], sizeof(*ev)))
			fail_event(what, i, ev, &r->ev[i]);
	}
	assert_null(history_event(h, r->nr));
}

/* ---- state snapshots ---- */

static void *state_of(const struct sched_engine *e)
{
	void *buf = malloc(sched_state_size(e));

	assert_non_null(buf);
	sched_state_save(e, buf);
	return buf;
}

static void assert_state_is(const struct sched_engine *e, const void *want, const char *what)
{
	size_t n = sched_state_size(e);
	unsigned char *now = state_of(e);
	const unsigned char *w = want;

	for (size_t i = 0; i < n; i++)
		if (now[i] != w[i]) {
			free(now);
			fail_msg("%s: state differs at byte %zu of %zu (now %llu, %llu events)", what,
				 i, n, (unsigned long long)sched_now(e),
				 (unsigned long long)sched_nr_events(e));
		}
	free(now);
}

/* ---- generated scenarios ---- */

static const char *const sched_lines[] = { "kernel 6.6", "kernel 6.12", "kernel 6.19", "sched cfs" };

struct gen_opts {
	int min_cpus, max_cpus;
	int min_tasks, max_tasks;
	u64 dur_ms;
	int sched;		/* index into sched_lines, -1 for a random one */
	bool actions;		/* may add `at T set nice` lines */
};

/*
 * A scenario text: 1..8 CPUs, a mix of hogs, run/sleep loops and wait/wake
 * pairs, some niced, pinned or forked late. Task t0 is always a hog that
 * starts at 0 (the target of set-nice commands).
 */
static void gen_scenario(u64 *x, const struct gen_opts *o, char *buf, size_t len)
{
	int cpus = (int)rnd_range(x, (u64)o->min_cpus, (u64)o->max_cpus);
	int ntasks = (int)rnd_range(x, (u64)o->min_tasks, (u64)o->max_tasks);
	int sched = o->sched >= 0 ? o->sched : (int)(rnd(x) % 4);
	static const int hzs[] = { 100, 250, 1000 };
	size_t n = 0;

#define OUT(...) (n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__), assert_true(n < len))
	if (cpus % 2 == 0 && cpus >= 4 && rnd(x) % 3 == 0)
		OUT("topology packages=2 cores=%d threads=1\n", cpus / 2);
	else if (cpus % 2 == 0 && rnd(x) % 3 == 0)
		OUT("topology packages=1 cores=%d threads=2\n", cpus / 2);
	else
		OUT("topology packages=1 cores=%d threads=1\n", cpus);
	OUT("%s\nhz %d\nseed %llu\nduration %llums\n", sched_lines[sched], hzs[rnd(x) % 3],
	    (unsigned long long)(rnd(x) % 100000), (unsigned long long)o->dur_ms);

	OUT("task t0 program=\"run forever\"\n");
	for (int i = 1; i < ntasks; i++) {
		char attr[128];
		size_t a = 0;

		attr[0] = 0;
		if (rnd(x) % 3 == 0)
			a += (size_t)snprintf(attr + a, sizeof(attr) - a, " nice=%d",
					      (int)rnd_range(x, 0, 25) - 10);
		if (rnd(x) % 6 == 0)
			a += (size_t)snprintf(attr + a, sizeof(attr) - a, " cpus=%d",
					      (int)(rnd(x) % (u64)cpus));
		if (rnd(x) % 6 == 0)
			a += (size_t)snprintf(attr + a, sizeof(attr) - a, " at=%llums",
					      (unsigned long long)(rnd(x) % (o->dur_ms / 4 + 1)));
		switch (rnd(x) % 5) {
		case 0:
			OUT("task t%d%s program=\"run forever\"\n", i, attr);
			break;
		case 3:
			if (i + 1 < ntasks) {
				OUT("task t%d%s program=\"loop { run %lluus; wake t%d; wait }\"\n", i, attr,
				    (unsigned long long)rnd_range(x, 50, 800), i + 1);
				OUT("task t%d program=\"loop { wait; run %lluus; wake t%d }\"\n", i + 1,
				    (unsigned long long)rnd_range(x, 50, 800), i);
				i++;
				break;
			}
			/* fall through */
		default: {
			u64 lo = rnd_range(x, 50, 2000), hi = lo + rnd_range(x, 0, 3000);
			OUT("task t%d%s program=\"loop { run uniform(%lluus, %lluus); sleep exp(%lluus) }\"\n",
			    i, attr, (unsigned long long)lo, (unsigned long long)hi,
			    (unsigned long long)rnd_range(x, 200, 10000));
			break;
		}
		}
	}
	if (o->actions && rnd(x) % 2 == 0)
		OUT("at %llums set nice t0 %d\n", (unsigned long long)rnd_range(x, 1, o->dur_ms - 1),
		    (int)rnd_range(x, 0, 20) - 10);
#undef OUT
}

/* ---- an engine with a history over a parsed scenario ---- */

struct sim {
	struct scenario_file f;
	struct sched_engine *e;
	struct sched_history *h;
	struct rec rec;		/* what the history's listener saw */
	const char **names;	/* task names by pid - 1, for breakpoints */
	char text[8192];
};

static void sim_open(struct sim *s, size_t budget)
{
	char err[512];

	if (scenario_parse("gen.scn", s->text, strlen(s->text), &s->f, err, sizeof(err)))
		fail_msg("%s\n%s", err, s->text);
	s->e = sched_engine_create(&s->f.sc, err, sizeof(err));
	if (!s->e)
		fail_msg("%s", err);
	s->h = history_create(s->e, budget);
	assert_non_null(s->h);
	assert_int_equal(history_add_listener(s->h, rec_event, &s->rec), 0);
	s->names = calloc((size_t)s->f.sc.nr_tasks + 1, sizeof(*s->names));
	for (int i = 0; i < s->f.sc.nr_tasks; i++)
		s->names[i] = s->f.sc.task[i].name;
}

static struct sim *sim_new(u64 *x, const struct gen_opts *o, size_t budget)
{
	struct sim *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	gen_scenario(x, o, s->text, sizeof(s->text));
	sim_open(s, budget);
	return s;
}

/* A dense load (8 CPUs, 30 tasks, short bursts): many events per second. */
static struct sim *heavy_sim(u64 seed, const char *dur)
{
	struct sim *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	snprintf(s->text, sizeof(s->text),
		 "topology packages=2 cores=4 threads=1\n"
		 "kernel 6.19\nhz 1000\nseed %llu\nduration %s\n"
		 "task hog count=6 program=\"run forever\"\n"
		 "task nic count=2 nice=5 program=\"run forever\"\n"
		 "task w count=18 program=\"loop { run uniform(20us, 150us); sleep exp(200us) }\"\n"
		 "task ping program=\"loop { run 30us; wake pong; wait }\"\n"
		 "task pong program=\"loop { wait; run 40us; wake ping }\"\n"
		 "task late at=100ms nice=-3 program=\"loop { run 1ms; sleep 2ms }\"\n"
		 "at 300ms set nice w.0 8\n",
		 (unsigned long long)seed, dur);
	sim_open(s, HISTORY_DEFAULT_BUDGET);
	return s;
}

static void sim_free(struct sim *s)
{
	history_destroy(s->h);
	sched_engine_destroy(s->e);
	scenario_free(&s->f);
	rec_free(&s->rec);
	free(s->names);
	free(s);
}

/* A fresh history (before any run) with the smallest budget and `states` more checkpoints' worth. */
static size_t sim_rebudget(struct sim *s, size_t states)
{
	size_t budget = history_min_budget(s->e) + states * sched_state_size(s->e);

	assert_int_equal(sched_nr_events(s->e), 0);
	history_destroy(s->h);
	s->h = history_create(s->e, budget);
	assert_non_null(s->h);
	rec_free(&s->rec);
	assert_int_equal(history_add_listener(s->h, rec_event, &s->rec), 0);
	return budget;
}

static u64 duration(const struct sim *s)
{
	return s->f.sc.duration;
}

/*
 * A reference run on a plain engine (no history): its stream and where each
 * step ends. Not its state: the arena holds pointers into itself, so state
 * bytes compare only within one engine.
 */
struct ref {
	struct rec rec;
	u64 *bound;		/* bound[i]: events emitted after step i + 1 */
	u64 nr_steps;
};

static void ref_run(const struct sim *s, struct ref *r)
{
	char err[512];
	struct sched_engine *e = sched_engine_create(&s->f.sc, err, sizeof(err));
	u64 cap = 0;

	memset(r, 0, sizeof(*r));
	assert_non_null(e);
	sched_add_listener(e, rec_event, &r->rec);
	while (!sched_finished(e)) {
		u64 before = sched_nr_steps(e);
		sched_step(e);
		if (sched_nr_steps(e) == before)
			continue;
		if (r->nr_steps == cap) {
			cap = cap ? 2 * cap : 4096;
			r->bound = realloc(r->bound, cap * sizeof(*r->bound));
		}
		r->bound[r->nr_steps++] = sched_nr_events(e);
	}
	sched_engine_destroy(e);
}

static void ref_free(struct ref *r)
{
	rec_free(&r->rec);
	free(r->bound);
}

static void assert_clean(const struct sim *s, const char *what)
{
	if (history_mismatches(s->h))
		fail_msg("%s: %llu replayed events differ from the log\n%s", what,
			 (unsigned long long)history_mismatches(s->h), s->text);
}

/* ---- 1. rewind to T and run to the end: the same stream, the same end state ---- */

#define NR_TIMES 4

static void test_rewind_replays_same_stream(void **state)
{
	u64 x = 0x5eed0001;

	for (int round = 0; round < 8; round++) {
		struct gen_opts o = { 1, 8, 2, 30, rnd_range(&x, 150, 700), round % 4, true };
		struct sim *s = sim_new(&x, &o, HISTORY_DEFAULT_BUDGET);
		u64 end = duration(s), t[NR_TIMES];
		void *at[NR_TIMES];
		struct ref ref;

		ref_run(s, &ref);

		/* the first pass, stopping at each T (in order) to keep its state */
		for (int i = 0; i < NR_TIMES; i++)
			t[i] = rnd(&x) % end;
		for (int i = 1; i < NR_TIMES; i++)
			for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
				u64 tmp = t[j];
				t[j] = t[j - 1];
				t[j - 1] = tmp;
			}
		for (int i = 0; i < NR_TIMES; i++) {
			history_run_until(s->h, t[i]);
			assert_int_equal(sched_now(s->e), t[i]);
			at[i] = state_of(s->e);
		}
		history_run_until(s->h, end);
		assert_true(sched_finished(s->e));
		void *final = state_of(s->e);

		/* stopping on the way changed nothing: the plain engine's stream */
		assert_log_is(s->h, &ref.rec, "first pass vs plain engine");
		assert_int_equal(s->rec.nr, ref.rec.nr);
		assert_clean(s, "first pass");

		/* rewinds, in shuffled order: exactly the same states, stream and end */
		for (int k = 0; k < 2 * NR_TIMES; k++) {
			int i = (int)(rnd(&x) % NR_TIMES);
			history_goto_time(s->h, t[i]);
			assert_int_equal(sched_now(s->e), t[i]);
			assert_state_is(s->e, at[i], "state after goto_time(T)");
			history_run_until(s->h, end);
			assert_clean(s, "replay to the end");
			assert_state_is(s->e, final, "end state after a rewind");
			/* the listener saw nothing twice, the log is untouched */
			assert_int_equal(s->rec.nr, ref.rec.nr);
			assert_int_equal(history_nr_logged(s->h), ref.rec.nr);
		}
		assert_log_is(s->h, &ref.rec, "log after rewinds");
		/* the listener's copy is the original stream */
		assert_int_equal(memcmp(s->rec.ev, ref.rec.ev, ref.rec.nr * sizeof(*ref.rec.ev)), 0);

		for (int i = 0; i < NR_TIMES; i++)
			free(at[i]);
		free(final);
		ref_free(&ref);
		sim_free(s);
	}
}

/* A long run crosses several automatic checkpoints: rewinds restore middle ones. */
static void test_rewind_across_checkpoints(void **state)
{
	u64 x = 0x5eed0011;
	struct sim *s = heavy_sim(1, "2s");
	u64 end = duration(s);
	struct ref ref;

	ref_run(s, &ref);
	history_run_until(s->h, end);
	void *final = state_of(s->e);
	assert_true(history_nr_checkpoints(s->h) >= 3);
	for (int k = 0; k < 6; k++) {
		u64 t = rnd(&x) % end;
		history_goto_time(s->h, t);
		assert_int_equal(sched_now(s->e), t);
		history_run_until(s->h, end);
		assert_clean(s, "replay across checkpoints");
		assert_state_is(s->e, final, "end state after a rewind");
	}
	assert_log_is(s->h, &ref.rec, "log after rewinds");
	assert_int_equal(s->rec.nr, ref.rec.nr);
	free(final);
	ref_free(&ref);
	sim_free(s);
}

/* ---- 2. checkpoint/restore round trips ---- */

static void test_checkpoint_round_trip(void **state)
{
	u64 x = 0x5eed0002;

	for (int round = 0; round < 6; round++) {
		struct gen_opts o = { 1, 8, 2, 30, 300, -1, true };
		struct sim *s = sim_new(&x, &o, HISTORY_DEFAULT_BUDGET);
		u64 end = duration(s), t = rnd(&x) % (end / 2), t2 = t + 1 + rnd(&x) % (end - t - 1);
		struct rec a = { 0 }, b = { 0 };
		void *saved, *at_t2;

		history_run_until(s->h, t);
		saved = state_of(s->e);

		/* the raw engine API: save, run on, restore */
		sched_add_listener(s->e, rec_event, &a);
		history_run_until(s->h, t2);
		sched_remove_listener(s->e, rec_event, &a);
		at_t2 = state_of(s->e);
		sched_state_restore(s->e, saved);
		assert_state_is(s->e, saved, "restored state");
		assert_int_equal(sched_now(s->e), t);
		sched_add_listener(s->e, rec_event, &b);
		history_run_until(s->h, t2);
		sched_remove_listener(s->e, rec_event, &b);
		assert_int_equal(a.nr, b.nr);
		assert_int_equal(memcmp(a.ev, b.ev, a.nr * sizeof(*a.ev)), 0);
		assert_state_is(s->e, at_t2, "state after running on from a restore");
		assert_clean(s, "run on after restore");

		/* a named checkpoint: goto returns to exactly that state */
		history_goto_time(s->h, t);
		assert_state_is(s->e, saved, "goto_time(T) back to the save");
		assert_int_equal(history_checkpoint(s->h, "mark"), 0);
		assert_int_equal(history_find_checkpoint(s->h, "mark"), (s64)t);
		assert_int_equal(history_find_checkpoint(s->h, "nope"), -1);
		bool found = false;
		for (int i = 0; i < history_nr_checkpoints(s->h); i++) {
			struct history_checkpoint_info ci;
			history_checkpoint_info(s->h, i, &ci);
			if (ci.name && !strcmp(ci.name, "mark")) {
				found = true;
				assert_int_equal(ci.time, t);
				assert_int_equal(ci.nr_events, sched_nr_events(s->e));
				assert_int_equal(ci.bytes, sched_state_size(s->e));
			}
			if (i > 0) {
				struct history_checkpoint_info prev;
				history_checkpoint_info(s->h, i - 1, &prev);
				assert_true(prev.nr_steps <= ci.nr_steps);
			}
		}
		assert_true(found);
		history_run_until(s->h, end);
		void *final = state_of(s->e);
		history_goto_time(s->h, (u64)history_find_checkpoint(s->h, "mark"));
		assert_state_is(s->e, saved, "goto the named checkpoint");
		/* the checkpoint's copy is not changed by running on from it */
		history_run_until(s->h, t2);
		assert_state_is(s->e, at_t2, "T2 again from the named checkpoint");
		history_goto_time(s->h, t);
		assert_state_is(s->e, saved, "the named checkpoint again");
		history_run_until(s->h, end);
		assert_state_is(s->e, final, "end from the named checkpoint");
		assert_clean(s, "named checkpoint");

		free(final);
		free(saved);
		free(at_t2);
		rec_free(&a);
		rec_free(&b);
		sim_free(s);
	}
}

/* ---- 3. commands are part of the history ---- */

static struct sched_command set_nice(int task, int nice)
{
	return (struct sched_command){ .kind = CMD_SET_NICE, .task = task, .value = nice };
}

static void apply(struct sim *s, struct sched_command c)
{
	char err[256];

	if (history_apply_command(s->h, &c, err, sizeof(err)))
		fail_msg("command: %s", err);
}

static struct sched_event *log_copy(struct sched_history *h, u64 *nr)
{
	*nr = history_nr_logged(h);
	struct sched_event *ev = malloc(*nr * sizeof(*ev) + 1);

	for (u64 i = 0; i < *nr; i++)
		ev[i] = *history_event(h, i);
	return ev;
}

/*
 * Put the engine at time t (history_goto_time), or, with at_step, just
 * after the last step that emitted events by then: the clock then reads
 * that step's time rather than t.
 */
static void goto_point(struct sim *s, u64 t, bool at_step)
{
	history_goto_time(s->h, t);
	if (at_step && sched_nr_events(s->e) > 0) {
		u64 seq = sched_nr_events(s->e) - 1;
		history_goto_event(s->h, seq);
		assert_int_equal(sched_now(s->e), history_event(s->h, seq)->time);
	}
}

/*
 * Command A (set nice) at T1, run to T2; rewinds before T1 re-apply it at
 * the same point. Then command B before T1: a new branch, A and the old
 * future gone, and the new branch replays as itself.
 */
static void check_commands(u64 seed, bool at_step)
{
	u64 x = seed;

	for (int round = 0; round < 6; round++) {
		struct gen_opts o = { 1, 4, 3, 12, 400, round % 4, false };
		struct sim *s = sim_new(&x, &o, HISTORY_DEFAULT_BUDGET);
		u64 end = duration(s);
		u64 t1 = rnd_range(&x, end / 8, end / 2), t2 = rnd_range(&x, t1 + 10 * MS, end - 1);
		u64 nr_a, nr_after_t2;

		/* command A at T1 */
		goto_point(s, t1, at_step);
		u64 n1 = sched_nr_events(s->e), when = sched_now(s->e);
		apply(s, set_nice(0, 10));
		assert_int_equal(history_nr_logged(s->h), sched_nr_events(s->e));
		assert_true(sched_nr_events(s->e) > n1);	/* it is in the stream */
		assert_int_equal(history_event(s->h, n1)->type, EV_COMMAND);
		assert_int_equal(history_event(s->h, n1)->time, when);
		history_run_until(s->h, t2);
		nr_after_t2 = sched_nr_events(s->e);
		struct sched_event *log_a = log_copy(s->h, &nr_a);
		void *state_a = state_of(s->e);

		/* rewind before T1, run to T2: A is applied again, at the same point */
		for (int k = 0; k < 3; k++) {
			u64 t0 = k == 0 ? 0 : rnd(&x) % when;
			history_goto_time(s->h, t0);
			history_run_until(s->h, t2);
			if (history_mismatches(s->h)) {
				const struct sched_event *ev = history_event(s->h, n1);
				fail_msg("%s: rewind to %llu and replay to T2: %llu events differ from "
					 "the log; the command was applied at %llu (event %llu, logged "
					 "time %llu)\n%s", at_step ? "at a step" : "between steps",
					 (unsigned long long)t0,
					 (unsigned long long)history_mismatches(s->h),
					 (unsigned long long)when, (unsigned long long)n1,
					 (unsigned long long)ev->time, s->text);
			}
			assert_int_equal(sched_nr_events(s->e), nr_after_t2);
			assert_int_equal(history_nr_logged(s->h), nr_a);
			assert_state_is(s->e, state_a, "T2 after replaying the command");
		}
		/* rewinding past it undoes it */
		history_goto_time(s->h, when > 0 ? when - 1 : 0);
		struct sched_task_info ti;
		sched_task_info(s->e, 0, &ti);
		assert_int_equal(ti.nice, 0);

		/* a different command B before T1: a new branch, the old future dropped */
		goto_point(s, rnd(&x) % when, at_step);
		u64 nb = sched_nr_events(s->e), tb = sched_now(s->e);
		assert_true(nb <= n1);
		apply(s, set_nice(0, -5));
		assert_true(history_nr_logged(s->h) < nr_a);
		assert_int_equal(history_nr_logged(s->h), sched_nr_events(s->e));
		assert_int_equal(history_event(s->h, nb)->type, EV_COMMAND);
		assert_int_equal(history_event(s->h, nb)->command.value, -5);
		/* the log before the branch point is the old one */
		for (u64 i = 0; i < nb; i++)
			if (memcmp(history_event(s->h, i), &log_a[i], sizeof(log_a[i])))
				fail_event("log before the branch", i, history_event(s->h, i), &log_a[i]);
		u64 before = history_nr_logged(s->h);
		history_run_until(s->h, t2);
		assert_true(history_nr_logged(s->h) > before);
		assert_int_equal(history_nr_logged(s->h), sched_nr_events(s->e));
		/* the listener saw the old run once, then the new branch's events once */
		assert_int_equal(s->rec.nr, nr_a + history_nr_logged(s->h) - nb);
		for (u64 i = nb; i < history_nr_logged(s->h); i++)
			if (memcmp(history_event(s->h, i), &s->rec.ev[nr_a + i - nb], sizeof(log_a[i])))
				fail_event("listener on the new branch", i, history_event(s->h, i),
					   &s->rec.ev[nr_a + i - nb]);
		assert_clean(s, "new branch");
		/* the new branch's events differ from the old ones after T1 */
		u64 diff = 0, nr_b = history_nr_logged(s->h);
		for (u64 i = n1; i < nr_b && i < nr_a; i++)
			diff += memcmp(history_event(s->h, i), &log_a[i], sizeof(log_a[i])) != 0;
		assert_true(diff > 0 || nr_b != nr_a);
		/* and A is gone: every command in the new log is B */
		for (u64 i = 0; i < nr_b; i++) {
			const struct sched_event *ev = history_event(s->h, i);
			if (ev->type == EV_COMMAND)
				assert_int_equal(ev->command.value, -5);
		}
		sched_task_info(s->e, 0, &ti);
		assert_int_equal(ti.nice, -5);

		/* the new branch replays as itself */
		struct sched_event *log_b = log_copy(s->h, &nr_b);
		void *state_b = state_of(s->e);
		history_goto_time(s->h, tb / 2);
		history_run_until(s->h, t2);
		if (history_mismatches(s->h))
			fail_msg("%s: replaying the new branch (B at %llu): %llu events differ",
				 at_step ? "at a step" : "between steps", (unsigned long long)tb,
				 (unsigned long long)history_mismatches(s->h));
		assert_state_is(s->e, state_b, "T2 on the new branch");
		assert_int_equal(history_nr_logged(s->h), nr_b);
		for (u64 i = 0; i < nr_b; i++)
			if (memcmp(history_event(s->h, i), &log_b[i], sizeof(log_b[i])))
				fail_event("new branch log", i, history_event(s->h, i), &log_b[i]);

		free(log_a);
		free(log_b);
		free(state_a);
		free(state_b);
		sim_free(s);
	}
}

/* Commands applied right after a step (the clock reads that step's time). */
static void test_commands_at_step(void **state)
{
	check_commands(0x5eed0003, true);
}

/* Commands applied at any time T1, e.g. after history_goto_time(T1). */
static void test_commands_at_time(void **state)
{
	check_commands(0x5eed0013, false);
}

/* Two commands applied at one point both belong to the history. */
static void test_two_commands_at_one_point(void **state)
{
	u64 x = 0x5eed0033;

	for (int round = 0; round < 3; round++) {
		struct gen_opts o = { 2, 4, 4, 10, 300, round, false };
		struct sim *s = sim_new(&x, &o, HISTORY_DEFAULT_BUDGET);
		u64 end = duration(s), t2 = 2 * end / 3;

		goto_point(s, end / 3, true);
		u64 n1 = sched_nr_events(s->e);
		apply(s, set_nice(0, 10));
		apply(s, set_nice(1, 5));
		struct sched_task_info ti;
		sched_task_info(s->e, 0, &ti);
		assert_int_equal(ti.nice, 10);
		history_run_until(s->h, t2);
		void *st = state_of(s->e);
		u64 nr = history_nr_logged(s->h);

		history_goto_time(s->h, 0);
		history_run_until(s->h, t2);
		if (history_mismatches(s->h)) {
			u64 i = n1;
			const struct sched_event *ev = history_event(s->h, i);
			fail_msg("two commands at event %llu, replayed: %llu events differ from the log "
				 "(logged there: %s value %lld)\n%s", (unsigned long long)n1,
				 (unsigned long long)history_mismatches(s->h),
				 sched_event_names[ev->type], (long long)ev->command.value, s->text);
		}
		assert_int_equal(history_nr_logged(s->h), nr);
		assert_state_is(s->e, st, "T2 after replaying two commands");
		sched_task_info(s->e, 0, &ti);
		assert_int_equal(ti.nice, 10);
		free(st);
		sim_free(s);
	}
}

/* ---- 4. checkpoint memory within the budget on a long run ---- */

static void test_memory_budget(void **state)
{
	u64 x = 0x5eed0004;
	struct sim *s = heavy_sim(4, "4s");
	size_t budget = sim_rebudget(s, 5);
	/* checkpoints keep half the budget at most */
	int cap = (int)(budget / 2 / sched_state_size(s->e));

	/* checkpoints often enough that the budget must thin them */
	history_set_interval(s->h, 2048);

	u64 end = duration(s);
	u64 early[4] = { 0, 3 * MS, 40 * MS, end / 5 };
	void *at[4];
	int k = 0, max_cp = 0;

	for (;;) {
		while (k < 4 && sched_next_time(s->e) > early[k]) {
			history_run_until(s->h, early[k]);
			at[k++] = state_of(s->e);
		}
		bool more = history_step(s->h);
		if (history_bytes(s->h) > budget)
			fail_msg("%zu bytes of checkpoints, budget %zu, at %llu", history_bytes(s->h),
				 budget, (unsigned long long)sched_now(s->e));
		if (history_nr_checkpoints(s->h) > max_cp)
			max_cp = history_nr_checkpoints(s->h);
		if (!more)
			break;
	}
	assert_int_equal(k, 4);
	void *final = state_of(s->e);
	/* long enough that the budget had to thin: more intervals than checkpoints */
	assert_true(sched_nr_events(s->e) > 2ull * (u64)cap * 2048);
	assert_true(history_nr_checkpoints(s->h) <= cap);
	assert_true(max_cp <= cap);
	assert_true(history_nr_checkpoints(s->h) >= 2);
	struct history_checkpoint_info first;
	history_checkpoint_info(s->h, 0, &first);
	assert_int_equal(first.time, 0);
	assert_int_equal(first.nr_steps, 0);
	assert_int_equal(first.nr_events, 0);

	for (int r = 0; r < 8; r++) {
		int i = (int)(rnd(&x) % 4);
		history_goto_time(s->h, early[i]);
		assert_state_is(s->e, at[i], "early state under a small budget");
		assert_true(history_bytes(s->h) <= budget);
		if (r % 4 == 3) {
			history_run_until(s->h, end);
			assert_state_is(s->e, final, "end state under a small budget");
		}
	}
	history_goto_time(s->h, early[3]);
	history_run_until(s->h, end);
	assert_clean(s, "small budget");
	assert_true(history_bytes(s->h) <= budget);
	assert_int_equal(s->rec.nr, history_nr_logged(s->h));

	for (int i = 0; i < 4; i++)
		free(at[i]);
	free(final);
	sim_free(s);
}

/* ---- 4b. the log within the budget: events given back come back byte-identical ---- */

static void assert_within(const struct sim *s, size_t budget, const char *what)
{
	struct history_usage u;

	history_usage(s->h, &u);
	if (u.total > budget || history_bytes(s->h) != u.total ||
	    u.total != u.checkpoint_bytes + u.log_bytes + sched_state_size(s->e))
		fail_msg("%s: %zu bytes in use (%zu checkpoints, %zu log), budget %zu", what, u.total,
			 u.checkpoint_bytes, u.log_bytes, budget);
	/* the high-water mark: no allocation between two looks went past the budget either */
	if (u.peak > budget || u.peak < u.total)
		fail_msg("%s: peak %zu bytes, %zu in use, budget %zu", what, u.peak, u.total, budget);
}

/* Step i's end in ref: the step count just after the step that emitted seq. */
static u64 ref_step_of(const struct ref *ref, u64 seq)
{
	u64 lo = 0, hi = ref->nr_steps;

	while (lo < hi) {
		u64 mid = (lo + hi) / 2;
		if (ref->bound[mid] > seq)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo + 1;
}

static void test_log_given_back(void **state)
{
	u64 x = 0x5eed0007;
	struct sim *s = heavy_sim(7, "3s");
	size_t budget = sim_rebudget(s, 2);
	struct ref ref;
	struct history_usage u;

	ref_run(s, &ref);
	while (history_step(s->h))
		assert_within(s, budget, "while running");
	assert_within(s, budget, "at the end");
	assert_log_is(s->h, &ref.rec, "the first pass's log vs the plain engine");
	assert_int_equal(s->rec.nr, ref.rec.nr);
	/* the budget had to give most of the log back */
	history_usage(s->h, &u);
	assert_true(u.resident_events < ref.rec.nr / 2);
	assert_true(u.regenerated_chunks > 0);

	/* reads jump around the run: each event as first emitted, the engine untouched */
	void *end_state = state_of(s->e);
	u64 n = ref.rec.nr;
	for (int k = 0; k < 400; k++) {
		u64 seq = k % 2 ? rnd(&x) % n : (n - 1) * (u64)k / 400;
		const struct sched_event *ev = history_event(s->h, seq);

		if (memcmp(ev, &ref.rec.ev[seq], sizeof(*ev)))
			fail_event("regenerated", seq, ev, &ref.rec.ev[seq]);
		assert_int_equal(history_event_step(s->h, seq), ref_step_of(&ref, seq));
		/* the first event at or after that time */
		u64 t = ev->time + (k % 3 == 0);
		u64 at = history_seq_at_time(s->h, t), want = seq;
		while (want > 0 && ref.rec.ev[want - 1].time >= t)
			want--;
		while (want < n && ref.rec.ev[want].time < t)
			want++;
		assert_int_equal(at, want);
		assert_within(s, budget, "while regenerating");
	}
	assert_state_is(s->e, end_state, "the engine after regenerating");
	assert_int_equal(history_seq_at_time(s->h, UINT64_MAX), n);
	assert_int_equal(history_seq_at_time(s->h, 0), 0);

	/* a pointer outlives reads of fewer than HISTORY_PINNED_CHUNKS other chunks */
	const struct sched_event *first = history_event(s->h, 5);
	for (int i = 1; i < HISTORY_PINNED_CHUNKS; i++)
		history_event(s->h, (u64)i * HISTORY_CHUNK_EVENTS * 3 % n);
	assert_memory_equal(first, &ref.rec.ev[5], sizeof(*first));
	/* ... counted from its last read: a chunk read again is pinned anew */
	for (int i = 1; i < HISTORY_PINNED_CHUNKS; i++) {
		history_event(s->h, (u64)i * HISTORY_CHUNK_EVENTS % n);
		first = history_event(s->h, 5);
	}
	for (int i = 1; i < HISTORY_PINNED_CHUNKS; i++)
		history_event(s->h, (u64)(i + HISTORY_PINNED_CHUNKS) * HISTORY_CHUNK_EVENTS % n);
	assert_memory_equal(first, &ref.rec.ev[5], sizeof(*first));

	/* rewinds stay exact with the log given back, and so does a branch */
	u64 t = duration(s) / 3;
	history_goto_time(s->h, t);
	void *mid = state_of(s->e);
	history_run_until(s->h, duration(s));
	assert_state_is(s->e, end_state, "the end after a rewind under the smallest budget");
	assert_clean(s, "rewind under the smallest budget");
	history_goto_time(s->h, t);
	assert_state_is(s->e, mid, "a rewind under the smallest budget");
	u64 cut = sched_nr_events(s->e);
	struct sched_command c = { .kind = CMD_SET_NICE, .task = 0, .value = 7 };
	char err[128];
	assert_int_equal(history_apply_command(s->h, &c, err, sizeof(err)), 0);
	assert_true(history_nr_logged(s->h) > cut);
	assert_int_equal(history_event(s->h, cut)->type, EV_COMMAND);
	for (u64 seq = cut > 50 ? cut - 50 : 0; seq < cut; seq++)
		assert_memory_equal(history_event(s->h, seq), &ref.rec.ev[seq], sizeof(struct sched_event));
	history_run_until(s->h, duration(s));
	assert_within(s, budget, "after a branch");
	for (int k = 0; k < 50; k++) {
		u64 seq = rnd(&x) % cut;
		assert_memory_equal(history_event(s->h, seq), &ref.rec.ev[seq], sizeof(struct sched_event));
	}
	/* the new branch's events, given back and regenerated, are what the listener saw */
	assert_int_equal(s->rec.nr, history_nr_logged(s->h) + ref.rec.nr - cut);
	for (int k = 0; k < 50; k++) {
		u64 seq = cut + rnd(&x) % (history_nr_logged(s->h) - cut);
		assert_memory_equal(history_event(s->h, seq), &s->rec.ev[ref.rec.nr + seq - cut],
				    sizeof(struct sched_event));
	}
	free(mid);
	free(end_state);
	ref_free(&ref);
	sim_free(s);
}

/* ---- 5. breakpoints stop at the first event that satisfies them ---- */

/*
 * Wakeup latency of each sched_switch's incoming task, computed here from
 * the stream as breakpoint.h defines it (-1: none). All tasks are watched
 * from time 0, so each one enters through sched_wakeup_new.
 */
static s64 *latencies(const struct rec *r, int nr_tasks)
{
	s64 *lat = malloc((r->nr + 1) * sizeof(*lat));
	u64 *woken = malloc(((size_t)nr_tasks + 1) * sizeof(*woken));
	bool *off = calloc((size_t)nr_tasks + 1, sizeof(*off));

	for (int p = 0; p <= nr_tasks; p++)
		woken[p] = UINT64_MAX;
	for (size_t i = 0; i < r->nr; i++) {
		const struct sched_event *ev = &r->ev[i];
		int p;

		lat[i] = -1;
		switch (ev->type) {
		case EV_SCHED_WAKEUP_NEW:
		case EV_SCHED_WAKEUP:
			p = ev->wake.pid;
			if (ev->type == EV_SCHED_WAKEUP_NEW)
				off[p] = true;
			if (off[p] && woken[p] == UINT64_MAX)
				woken[p] = ev->time;
			break;
		case EV_SCHED_SWITCH:
			p = ev->sw.prev_pid;
			if (p > 0) {
				off[p] = true;
				woken[p] = UINT64_MAX;
			}
			p = ev->sw.next_pid;
			if (p > 0) {
				if (woken[p] != UINT64_MAX)
					lat[i] = (s64)(ev->time - woken[p]);
				off[p] = false;
				woken[p] = UINT64_MAX;
			}
			break;
		case EV_SCHED_PROCESS_EXIT:
			p = ev->exit.pid;
			off[p] = true;
			woken[p] = UINT64_MAX;
			break;
		}
	}
	free(woken);
	free(off);
	return lat;
}

static struct breakpoint *bp_parse(struct sim *s, const char *text)
{
	char err[512];
	struct breakpoint_scope scope;

	scenario_breakpoint_scope(&s->f, &scope);
	struct breakpoint *bp = breakpoint_parse(text, &scope, err, sizeof(err));

	if (!bp)
		fail_msg("'%s': %s", text, err);
	return bp;
}

/* The first index >= from whose event matches (hit[i]), or -1. */
static s64 first_hit(const bool *hit, u64 from, u64 nr)
{
	for (u64 i = from; i < nr; i++)
		if (hit[i])
			return (s64)i;
	return -1;
}

/*
 * Run to each hit in turn: every one must be the first matching event at
 * or after the position the run started from. Then rewind before the first
 * hit and check it is found again on the replayed stream.
 */
static void check_hits(struct sim *s, const struct ref *ref, const bool *hit, const char *text)
{
	struct breakpoint *bp = bp_parse(s, text);
	u64 end = duration(s);
	s64 first = -1;
	int hits = 0;

	for (;;) {
		u64 from = sched_nr_events(s->e);
		s64 want = first_hit(hit, from, ref->rec.nr);
		s64 got = history_run_until_event(s->h, end, breakpoint_test, bp);
		if (got != want)
			fail_msg("'%s' from event %llu: hit %lld, the first matching event is %lld\n%s",
				 text, (unsigned long long)from, (long long)got, (long long)want, s->text);
		if (got < 0)
			break;
		if (first < 0)
			first = got;
		hits++;
		/* stopped just after the step holding the hit */
		assert_int_equal(sched_now(s->e), ref->rec.ev[got].time);
		assert_true(sched_nr_events(s->e) > (u64)got);
		assert_int_equal(memcmp(history_event(s->h, (u64)got), &ref->rec.ev[got],
					sizeof(ref->rec.ev[got])), 0);
		if (hits == 20)
			break;
	}
	if (first >= 0) {
		/* rewind before the hit; feed the log up to there (breakpoint.h) */
		u64 t = ref->rec.ev[first].time;
		history_goto_time(s->h, t ? t - 1 : 0);
		breakpoint_reset(bp);
		for (u64 i = 0; i < sched_nr_events(s->e); i++)
			breakpoint_test(bp, history_event(s->h, i));
		u64 from = sched_nr_events(s->e);
		s64 want = first_hit(hit, from, ref->rec.nr);
		s64 got = history_run_until_event(s->h, end, breakpoint_test, bp);
		if (got != want)
			fail_msg("'%s' after a rewind: hit %lld, expected %lld", text, (long long)got,
				 (long long)want);
		assert_clean(s, text);
	}
	breakpoint_free(bp);
}

/* Same scenario text, a new engine and history. */
static struct sim *sim_clone(const struct sim *s, size_t budget)
{
	struct sim *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	memcpy(c->text, s->text, sizeof(c->text));
	sim_open(c, budget);
	return c;
}

static void test_breakpoints(void **state)
{
	u64 x = 0x5eed0005;

	for (int round = 0; round < 6; round++) {
		struct gen_opts o = { 2, 8, 6, 30, 300, round % 4, true };
		struct sim *s = sim_new(&x, &o, HISTORY_DEFAULT_BUDGET);
		struct ref ref;
		char text[128];
		u64 nr;

		ref_run(s, &ref);
		nr = ref.rec.nr;
		bool *hit = calloc(nr + 1, sizeof(*hit));

		/* switch cpu=C next=NAME: CPU 1 (or, if no task runs there, another
		 * CPU that has switches), NAME a task that does run on it */
		int cpu = -1, pid = -1;
		u64 cand = 0, pick;
		for (int c = 1; cpu < 0 && c < 1 + s->f.topo.nr_cpus; c++)
			for (u64 i = 0; i < nr && cpu < 0; i++)
				if (ref.rec.ev[i].type == EV_SCHED_SWITCH &&
				    ref.rec.ev[i].cpu == c % s->f.topo.nr_cpus && ref.rec.ev[i].sw.next_pid > 0)
					cpu = c % s->f.topo.nr_cpus;
		assert_true(cpu >= 0);
		for (u64 i = 0; i < nr; i++)
			cand += ref.rec.ev[i].type == EV_SCHED_SWITCH && ref.rec.ev[i].cpu == cpu &&
				ref.rec.ev[i].sw.next_pid > 0;
		pick = rnd(&x) % cand;
		for (u64 i = 0; i < nr && pid < 0; i++)
			if (ref.rec.ev[i].type == EV_SCHED_SWITCH && ref.rec.ev[i].cpu == cpu &&
			    ref.rec.ev[i].sw.next_pid > 0 && !pick--)
				pid = ref.rec.ev[i].sw.next_pid;
		for (u64 i = 0; i < nr; i++)
			hit[i] = ref.rec.ev[i].type == EV_SCHED_SWITCH && ref.rec.ev[i].cpu == cpu &&
				 ref.rec.ev[i].sw.next_pid == pid;
		snprintf(text, sizeof(text), "switch cpu=%d next=%s", cpu, s->names[pid - 1]);
		check_hits(s, &ref, hit, text);

		/* wakeup_latency > D, D just under a latency seen in the run */
		struct sim *s2 = sim_clone(s, HISTORY_DEFAULT_BUDGET);
		s64 *lat = latencies(&ref.rec, s->f.sc.nr_tasks);
		cand = 0;
		for (u64 i = 0; i < nr; i++)
			cand += lat[i] > 0;
		if (cand) {
			pick = rnd(&x) % cand;
			s64 d = -1;
			for (u64 i = 0; i < nr && d < 0; i++)
				if (lat[i] > 0 && !pick--)
					d = lat[i] - 1;
			for (u64 i = 0; i < nr; i++)
				hit[i] = lat[i] >= 0 && lat[i] > d;
			snprintf(text, sizeof(text), "wakeup_latency > %lldns", (long long)d);
		} else {
			/* every wakeup found a CPU at once: latency 0 is still a latency */
			for (u64 i = 0; i < nr; i++)
				hit[i] = lat[i] >= 0;
			snprintf(text, sizeof(text), "wakeup_latency >= 0");
		}
		check_hits(s2, &ref, hit, text);

		free(lat);
		sim_free(s2);
		ref_free(&ref);
		free(hit);
		sim_free(s);
	}
}

/* ---- 6. goto_event lands just after the step holding the event ---- */

static void test_goto_event(void **state)
{
	u64 x = 0x5eed0006;

	for (int round = 0; round < 4; round++) {
		struct gen_opts o = { 1, 8, 2, 30, 300, -1, true };
		struct sim *s = round == 3 ? heavy_sim(6, "1500ms") : sim_new(&x, &o, HISTORY_DEFAULT_BUDGET);
		struct ref ref;

		if (round == 3)
			sim_rebudget(s, 3);	/* rewinds restore from sparse checkpoints */
		ref_run(s, &ref);
		history_run_until(s->h, duration(s));
		void *final = state_of(s->e);

		for (int k = 0; k < 24; k++) {
			u64 seq = k == 0 ? 0 : k == 1 ? ref.rec.nr - 1 : rnd(&x) % ref.rec.nr;
			history_goto_event(s->h, seq);
			/* the step holding seq: the first whose bound passes it */
			u64 lo = 0, hi = ref.nr_steps - 1;
			while (lo < hi) {
				u64 mid = (lo + hi) / 2;
				if (ref.bound[mid] > seq)
					hi = mid;
				else
					lo = mid + 1;
			}
			assert_true(sched_nr_events(s->e) > seq);
			assert_int_equal(sched_nr_events(s->e), ref.bound[lo]);
			assert_int_equal(sched_nr_steps(s->e), lo + 1);
			assert_int_equal(sched_now(s->e), ref.rec.ev[seq].time);
			/* and one event further forward is the next step that emits one (ticks may not) */
			if (k % 6 == 5 && ref.bound[lo] < ref.rec.nr) {
				u64 next = lo + 1;

				while (ref.bound[next] == ref.bound[lo])
					next++;
				history_goto_event(s->h, ref.bound[lo]);
				assert_int_equal(sched_nr_steps(s->e), next + 1);
			}
		}
		assert_clean(s, "goto_event");
		if (round == 3)
			assert_true(history_nr_checkpoints(s->h) > 1);
		history_run_until(s->h, duration(s));
		assert_state_is(s->e, final, "end after goto_event");
		assert_log_is(s->h, &ref.rec, "log after goto_event");
		free(final);
		ref_free(&ref);
		sim_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rewind_replays_same_stream),
		cmocka_unit_test(test_rewind_across_checkpoints),
		cmocka_unit_test(test_checkpoint_round_trip),
		cmocka_unit_test(test_commands_at_step),
		cmocka_unit_test(test_commands_at_time),
		cmocka_unit_test(test_two_commands_at_one_point),
		cmocka_unit_test(test_memory_budget),
		cmocka_unit_test(test_log_given_back),
		cmocka_unit_test(test_breakpoints),
		cmocka_unit_test(test_goto_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
