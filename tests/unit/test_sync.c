// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app's resources in task programs: mutex hand-off order, a condition
 * broadcast under its mutex, barrier release, shared-timer slack in the
 * relative and absolute modes, and fork. Each scenario is parsed from text
 * and run; the expected times come from the programs, worked out by hand in
 * the comments.
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

#define MS NSEC_PER_MSEC

/* Every wakeup and timer event of a run, in order. */
struct rec {
	struct sched_event ev[512];
	int nr;
	int exits;		/* sched_process_exit, counted even when ev is full */
};

static void record(void *arg, const struct sched_event *ev)
{
	struct rec *r = arg;

	r->exits += ev->type == EV_SCHED_PROCESS_EXIT;
	if ((ev->type == EV_SCHED_WAKING || ev->type == EV_PROG_TIMER ||
	     ev->type == EV_SCHED_PROCESS_FORK) && r->nr < (int)ARRAY_SIZE(r->ev))
		r->ev[r->nr++] = *ev;
}

static struct rec rec;

/* Parse text, run it to its end, with every waking/timer/fork event in rec. */
static void run_text(const char *text)
{
	struct scenario_file f;
	char err[512];
	struct sched_engine *e;

	if (scenario_parse("sync.scn", text, strlen(text), &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);
	memset(&rec, 0, sizeof(rec));
	sched_add_listener(e, record, &rec);
	while (sched_step(e))
		;
	sched_engine_destroy(e);
	scenario_free(&f);
}

/* The n-th sched_waking (from 0): who was woken, on which CPU (the waker's), when. */
static const struct sched_event *waking(int n)
{
	for (int i = 0; i < rec.nr; i++)
		if (rec.ev[i].type == EV_SCHED_WAKING && n-- == 0)
			return &rec.ev[i];
	fail_msg("fewer wakings than expected");
	return NULL;
}

static int nr_of(int type)
{
	int n = 0;

	for (int i = 0; i < rec.nr; i++)
		n += rec.ev[i].type == type;
	return n;
}

#define TOPO "topology packages=1 cores=4\nhz 1000\nnoise off\nduration 100ms\n"

/*
 * a takes M at 0 and holds it 10 ms. b, c, d (each on a CPU of its own)
 * ask for it at 3, 1 and 2 ms: FIFO hands it to c at 10 ms (woken by a, on
 * a's CPU 0), to d at 11 ms (woken by c), to b at 12 ms (woken by d).
 */
static void test_mutex_handoff_order(void **state)
{
	run_text(TOPO
		 "task a cpus=0 program=\"lock M; run 10ms; unlock M; sleep 1s\"\n"
		 "task b cpus=1 at=3ms program=\"lock M; run 1ms; unlock M; sleep 1s\"\n"
		 "task c cpus=2 at=1ms program=\"lock M; run 1ms; unlock M; sleep 1s\"\n"
		 "task d cpus=3 at=2ms program=\"lock M; run 1ms; unlock M; sleep 1s\"\n");
	const struct sched_event *w;

	w = waking(0);
	assert_int_equal(w->wake.pid, 3);	/* c */
	assert_int_equal(w->time, 10 * MS);
	assert_int_equal(w->cpu, 0);		/* a's CPU: a woke it */
	w = waking(1);
	assert_int_equal(w->wake.pid, 4);	/* d */
	assert_int_equal(w->time, 11 * MS);
	assert_int_equal(w->cpu, 2);		/* c's */
	w = waking(2);
	assert_int_equal(w->wake.pid, 2);	/* b */
	assert_int_equal(w->time, 12 * MS);
	assert_int_equal(w->cpu, 3);		/* d's */
	assert_int_equal(nr_of(EV_SCHED_WAKING), 3);
}

/*
 * w1, w2, w3 wait on C (releasing M) at 1, 2, 3 ms. At 5 ms b takes M,
 * broadcasts and keeps M for 1 ms more: the broadcast moves the waiters to
 * M's queue, so none runs before b unlocks at 6 ms. Each then holds M for
 * 1 ms: w1 is woken at 6 ms by b, w2 at 7 by w1, w3 at 8 by w2.
 */
static void test_cond_broadcast_retakes_mutex(void **state)
{
	run_text(TOPO
		 "task w1 cpus=0 at=1ms program=\"lock M; cond_wait C M; run 1ms; unlock M; sleep 1s\"\n"
		 "task w2 cpus=1 at=2ms program=\"lock M; cond_wait C M; run 1ms; unlock M; sleep 1s\"\n"
		 "task w3 cpus=2 at=3ms program=\"lock M; cond_wait C M; run 1ms; unlock M; sleep 1s\"\n"
		 "task b cpus=3 at=5ms program=\"lock M; broadcast C; run 1ms; unlock M; sleep 1s\"\n"
		 "task late cpus=3 at=50ms program=\"signal C; run 1ms\"\n");
	const struct sched_event *w;

	for (int i = 0; i < 3; i++) {
		w = waking(i);
		assert_int_equal(w->wake.pid, i + 1);
		assert_int_equal(w->time, (u64)(6 + i) * MS);
		assert_int_equal(w->cpu, i == 0 ? 3 : i - 1);
	}
	/* `late` signals with nobody waiting: the signal is lost, nothing wakes */
	assert_int_equal(nr_of(EV_SCHED_WAKING), 3);
}

/* `signal` wakes only the first waiter; `suspend`/`resume` are a named wait and broadcast. */
static void test_signal_one_and_resume(void **state)
{
	run_text(TOPO
		 "task w1 cpus=0 at=1ms program=\"suspend S; run 1ms; cond_wait C X; sleep 1s\"\n"
		 "task w2 cpus=1 at=2ms program=\"suspend S; run 1ms; cond_wait C X; sleep 1s\"\n"
		 "task r cpus=2 at=5ms program=\"resume S; sleep 5ms; signal C\"\n");
	/* resume at 5 ms wakes both (w1 then w2) */
	assert_int_equal(waking(0)->wake.pid, 1);
	assert_int_equal(waking(0)->time, 5 * MS);
	assert_int_equal(waking(1)->wake.pid, 2);
	assert_int_equal(waking(1)->time, 5 * MS);
	/* r's sleep ends at 10 ms; its signal then wakes w1, the first waiter, only */
	assert_int_equal(waking(2)->wake.pid, 3);
	assert_int_equal(waking(3)->wake.pid, 1);
	assert_int_equal(waking(3)->time, 10 * MS);
	assert_int_equal(nr_of(EV_SCHED_WAKING), 4);
}

/*
 * Three tasks reach barrier B at 1, 2 and 3 ms: the first two block and the
 * last one, arriving at 3 ms, releases both and goes on. The second round
 * (after 1 ms more each) meets again: released at 5 ms by t3 once more.
 */
static void test_barrier_release(void **state)
{
	run_text(TOPO
		 "task t1 cpus=0 program=\"loop 2 { run 1ms; barrier B; run 1ms }; sleep 1s\"\n"
		 "task t2 cpus=1 program=\"loop 2 { run 2ms; barrier B; run 1ms }; sleep 1s\"\n"
		 "task t3 cpus=2 program=\"loop 2 { run 3ms; barrier B; run 1ms }; sleep 1s\"\n");
	/* round 1: t3 (pid 3, CPU 2) wakes t1 then t2 at 3 ms */
	assert_int_equal(waking(0)->wake.pid, 1);
	assert_int_equal(waking(1)->wake.pid, 2);
	assert_int_equal(waking(0)->time, 3 * MS);
	assert_int_equal(waking(1)->cpu, 2);
	/* round 2: t1 arrives at 3+1+1 = 5, t2 at 3+1+2 = 6, t3 at 3+1+3 = 7 ms */
	assert_int_equal(waking(2)->wake.pid, 1);
	assert_int_equal(waking(2)->time, 7 * MS);
	assert_int_equal(waking(3)->wake.pid, 2);
	assert_int_equal(waking(3)->time, 7 * MS);
}

/* The timer events of the run, in order. */
static const struct sched_event *timer_ev(int n)
{
	for (int i = 0; i < rec.nr; i++)
		if (rec.ev[i].type == EV_PROG_TIMER && n-- == 0)
			return &rec.ev[i];
	fail_msg("fewer timer events than expected");
	return NULL;
}

/*
 * run 2ms; timer 10ms; run 25ms; timer; run 2ms; timer, alone on a CPU:
 *   1st: expires 0 + 10 = 10 ms at 2 ms, slack +8 ms, sleeps to 10.
 *   2nd: expires 20 ms at 10 + 25 = 35 ms: missed, slack -15 ms.
 *        relative: the next period counts from 35; absolute: from 20.
 *   3rd at 37 ms: relative expires 45 (slack +8, sleeps); absolute expires
 *        30: missed again, slack -7 ms.
 */
static void test_timer_slack(void **state)
{
	static const char *const mode[2] = { "relative", "absolute" };

	for (int abs = 0; abs < 2; abs++) {
		char text[512];

		snprintf(text, sizeof(text), TOPO "task p program=\"run 2ms; timer T 10ms %s; "
			 "run 25ms; timer T 10ms; run 2ms; timer T 10ms; sleep 1s\"\n", mode[abs]);
		run_text(text);
		assert_int_equal(timer_ev(0)->time, 2 * MS);
		assert_int_equal(timer_ev(0)->timer.expires, 10 * MS);
		assert_int_equal(timer_ev(0)->timer.slack, 8 * (s64)MS);
		assert_int_equal(timer_ev(0)->timer.missed, 0);
		assert_int_equal(timer_ev(1)->time, 35 * MS);
		assert_int_equal(timer_ev(1)->timer.expires, 20 * MS);
		assert_int_equal(timer_ev(1)->timer.slack, -15 * (s64)MS);
		assert_int_equal(timer_ev(1)->timer.missed, 1);
		assert_int_equal(timer_ev(2)->time, 37 * MS);
		assert_int_equal(timer_ev(2)->timer.expires, (abs ? 30 : 45) * MS);
		assert_int_equal(timer_ev(2)->timer.slack, (abs ? -7 : 8) * (s64)MS);
		assert_int_equal(timer_ev(2)->timer.missed, abs);
		/* CPU time so far at each: 2, 27, 29 ms */
		assert_int_equal(timer_ev(2)->timer.sum_exec, 29 * MS);
	}
}

/*
 * A timer shared by two tasks advances once per use by either: a at 1 ms
 * takes the period ending at 10 ms, b at 2 ms the next one, ending at 20.
 * A "unique" timer is each task's own: both would get 10 ms.
 */
static void test_timer_shared_and_unique(void **state)
{
	run_text(TOPO
		 "task a cpus=0 program=\"run 1ms; timer T 10ms; sleep 1s\"\n"
		 "task b cpus=1 program=\"run 2ms; timer T 10ms; sleep 1s\"\n");
	assert_int_equal(timer_ev(0)->timer.expires, 10 * MS);
	assert_int_equal(timer_ev(1)->timer.expires, 20 * MS);

	run_text(TOPO
		 "task a cpus=0 program=\"run 1ms; timer unique 10ms; sleep 1s\"\n"
		 "task b cpus=1 program=\"run 2ms; timer unique 10ms; sleep 1s\"\n");
	assert_int_equal(timer_ev(0)->timer.expires, 10 * MS);
	assert_int_equal(timer_ev(1)->timer.expires, 10 * MS);
}

/* A forked task starts at its parent's `fork`, once per instance; a fork beyond them does nothing. */
static void test_fork(void **state)
{
	run_text(TOPO
		 "task parent cpus=0 program=\"run 1ms; fork kid; run 1ms; fork kid; fork kid; sleep 1s\"\n"
		 "task kid count=2 program=\"run 1ms\"\n");
	int forks = 0;

	for (int i = 0; i < rec.nr; i++) {
		const struct sched_event *ev = &rec.ev[i];
		if (ev->type != EV_SCHED_PROCESS_FORK || ev->fork.parent_pid != 1)
			continue;
		assert_int_equal(ev->fork.child_pid, 2 + forks);
		assert_int_equal(ev->time, (u64)(1 + forks) * MS);
		forks++;
	}
	assert_int_equal(forks, 2);
}

/*
 * Two tasks that signal each other and wait again at once never let time
 * pass: the per-instant statement budget stops them (they exit) instead of
 * the clock stopping. Each round of one task is 2 statements plus the loop's
 * end, so a task has its 10000 in about 3333 rounds.
 */
static void test_zero_time_ping_pong_stops(void **state)
{
	run_text(TOPO
		 "task a cpus=0 program=\"loop { signal C; cond_wait C M }\"\n"
		 "task b cpus=0 program=\"loop { signal C; cond_wait C M }\"\n");
	/* the run reached its end (no hang), and the first to use up its budget exited */
	assert_int_equal(rec.nr, ARRAY_SIZE(rec.ev));
	assert_true(rec.exits >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutex_handoff_order),
		cmocka_unit_test(test_cond_broadcast_retakes_mutex),
		cmocka_unit_test(test_signal_one_and_resume),
		cmocka_unit_test(test_barrier_release),
		cmocka_unit_test(test_timer_slack),
		cmocka_unit_test(test_timer_shared_and_unique),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_zero_time_ping_pong_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
