// SPDX-License-Identifier: GPL-2.0
/*
 * The timer queue (sched/timer.c) against a reference: through random
 * arms, re-arms and cancels, timer_peek() and timer_pop() must give the
 * queued timer due first; at the same nanosecond a `run` end (T_WORK)
 * before the others, then arming order (no noise, so no random ranks). The
 * queue must keep its invariants. Expiries are drawn both close together
 * (ties) and far apart (timers that wait across many pops); ticks are also
 * drawn a period ahead, and sleeps one of three lengths, so that they queue in
 * their lanes behind the heap's earliest, among timers that sort into the
 * heap.
 */
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define NR_TIMERS 300

/* A generator of the test's own, so the engine's stays untouched. */
static u64 rng = 88172645463325252ULL;

static u64 next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* When each timer was last armed, counting arms. */
static u64 armed_at[NR_TIMERS];

static bool fires_before(const struct sched_timer *t, int i, const struct sched_timer *u, int j)
{
	if (t->expires != u->expires)
		return t->expires < u->expires;
	if ((t->kind == T_WORK) != (u->kind == T_WORK))
		return t->kind == T_WORK;
	return armed_at[i] < armed_at[j];
}

/* The queued timer the queue must give next. */
static struct sched_timer *reference_first(struct sched_timer **t, int n)
{
	int best = -1;

	for (int i = 0; i < n; i++)
		if (timer_queued(t[i]) && (best < 0 || fires_before(t[i], i, t[best], best)))
			best = i;
	return best < 0 ? NULL : t[best];
}

static u64 draw_expiry(const struct sched_timer *t, u64 now)
{
	/* a period on, a sleep's length: armed in the order it fires, into its lane */
	if (timer_first_lane(t) >= 0 && next_rand() % 4)
		return now + (t->kind == T_TICK ? 4 : (1 + next_rand() % 3) * 3) * NSEC_PER_MSEC;
	switch (next_rand() % (timer_first_lane(t) >= 0 ? 2 : 4)) {
	case 0:
		return now + next_rand() % 4; /* ties at the next instants */
	case 1:
		return now + next_rand() % (4 * NSEC_PER_MSEC); /* a tick or two away */
	case 2:
		return now + next_rand() % (200 * NSEC_PER_MSEC); /* a sleeper */
	default:
		return now + next_rand() % (1ULL << 40); /* far off */
	}
}

static void invariant_failed(void *ctx, const char *msg)
{
	(void)ctx;
	fail_msg("%s", msg);
}

/* *dst = *src, its lanes' timers moved along (they link back to their head) */
static void move_queue(struct timer_queue *dst, struct timer_queue *src)
{
	*dst = *src;
	for (int l = 0; l < TIMER_NR_LANES; l++) {
		INIT_LIST_HEAD(&dst->lane[l].list);
		list_splice_init(&src->lane[l].list, &dst->lane[l].list);
	}
}

static void check_queue(struct fx *f, struct timer_queue *saved)
{
	/* the engine's invariant checks read ST->tq: show them the test's queue */
	struct timer_queue engine_tq;
	u64 now = ST->now;

	move_queue(&engine_tq, &ST->tq);
	move_queue(&ST->tq, saved);
	sched_check_invariants(f->e);
	move_queue(saved, &ST->tq);
	move_queue(&ST->tq, &engine_tq);
	ST->now = now;
}

static void test_pop_order(void **state)
{
	struct fx *f = fx_new(2, KV_LATEST, SCHED_VARIANT_EEVDF);
	/* every timer in a lane's container, so that any may be a tick or a sleep */
	struct lane_timer *lt = calloc(NR_TIMERS, sizeof(*lt));
	struct sched_timer *t[NR_TIMERS];
	struct timer_queue q = { 0 };
	u64 now = 0, popped = 0, arms = 0, lane_pops = 0;

	(void)state;
	fx_start(f);
	sched_set_invariant_check(f->e, invariant_failed, NULL);
	timer_queue_init(&q, calloc(NR_TIMERS, sizeof(*q.heap)), NR_TIMERS);
	for (int i = 0; i < NR_TIMERS; i++) {
		t[i] = &lt[i].timer;
		t[i]->heap_idx = -1;
		/* T_WORK goes first at an instant; T_TICK and T_WAKE may wait in lanes */
		t[i]->kind = (u8[]){ T_WORK, T_TICK, T_ACTION, T_WAKE, T_ACTION }[i % 5];
		t[i]->arg = 0;
	}
	for (int step = 0; step < 200000; step++) {
		int i = (int)(next_rand() % NR_TIMERS);
		struct sched_timer *x = t[i];
		u64 r = next_rand() % 8;

		if (r < 4) {
			timer_arm(&q, x, draw_expiry(x, now));
			armed_at[i] = arms++;
		} else if (r < 5) {
			timer_cancel(&q, x);
			assert_false(timer_queued(x));
		} else {
			struct sched_timer *want = reference_first(t, NR_TIMERS);
			struct sched_timer *got;

			lane_pops += want && want->lane;
			got = timer_pop(&q);
			assert_ptr_equal(got, want);
			if (got) {
				assert_false(timer_queued(got));
				assert_true(got->expires >= now);
				now = got->expires;
				popped++;
			}
		}
		assert_ptr_equal(timer_peek(&q), reference_first(t, NR_TIMERS));
		if (step % 97 == 0) {
			ST->now = now;
			check_queue(f, &q);
		}
	}
	assert_true(popped > 50000);
	assert_true(lane_pops > popped / 4);
	free(q.heap);
	free(lt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pop_order, fx_cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
