// SPDX-License-Identifier: GPL-2.0
/*
 * The event queue: a binary min-heap of armed timers ordered by expiry.
 * With noise on, simultaneous interrupts of different CPUs fire in a seeded
 * random order (on a real machine they run in parallel and either takes a
 * shared lock first); the rest, and all of the ideal machine's, fire in
 * arming order.
 * The keys sit in the heap array itself, so sifting compares without
 * following pointers.
 */
#include "internal.h"

/* Checkpoints compare as bytes: a slot copied from the stack must carry no padding. */
_Static_assert(sizeof(struct timer_slot) == 3 * sizeof(u64) + sizeof(struct sched_timer *),
	       "struct timer_slot has padding");

static bool key_before(const struct timer_slot *a, const struct timer_slot *b)
{
	if (a->expires != b->expires)
		return a->expires < b->expires;
	if (a->first != b->first)
		return a->first;
	if (a->rank != b->rank)
		return a->rank < b->rank;
	if (a->last != b->last)
		return b->last;
	return a->seq < b->seq;
}

/* The heap's order, for the invariant checks. */
bool timer_slot_before(const struct timer_slot *a, const struct timer_slot *b)
{
	return key_before(a, b);
}

/* The CPU whose hrtimer base holds t (a sleeper's: where it went to sleep); -1 for none. */
int timer_cpu(const struct sched_timer *t)
{
	switch (t->kind) {
	case T_TICK:
	case T_HRTICK:
	case T_WORK:
	case T_IRQ_END:
		return t->arg;
	case T_WAKE:
		return ST->task[t->arg].cpu;
	case T_FORK:
		return FORK_CPU;
	default:
		return -1;
	}
}

static void heap_set(struct timer_queue *q, int i, struct timer_slot s)
{
	q->heap[i] = s;
	s.t->heap_idx = i;
}

static void sift_up(struct timer_queue *q, int i)
{
	struct timer_slot s = q->heap[i];

	while (i > 0) {
		int parent = (i - 1) / 2;
		if (!key_before(&s, &q->heap[parent]))
			break;
		heap_set(q, i, q->heap[parent]);
		i = parent;
	}
	heap_set(q, i, s);
}

static void sift_down(struct timer_queue *q, int i)
{
	struct timer_slot s = q->heap[i];

	for (;;) {
		int c = 2 * i + 1;
		if (c >= q->nr)
			break;
		if (c + 1 < q->nr && key_before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!key_before(&q->heap[c], &s))
			break;
		heap_set(q, i, q->heap[c]);
		i = c;
	}
	heap_set(q, i, s);
}

/* Restore the heap order around slot i after its key changed either way. */
static void sift(struct timer_queue *q, int i)
{
	if (i > 0 && key_before(&q->heap[i], &q->heap[(i - 1) / 2]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

void timer_cancel(struct timer_queue *q, struct sched_timer *t)
{
	int i = t->heap_idx;

	if (i < 0)
		return;
	t->heap_idx = -1;
	q->nr--;
	if (i == q->nr)
		return;
	heap_set(q, i, q->heap[q->nr]);
	sift(q, i);
}

static void arm(struct timer_queue *q, struct sched_timer *t, u64 expires, bool last)
{
	/*
	 * A task's own `run` ending goes before anything else due at the same
	 * nanosecond: otherwise a tick on the same grid as round durations would
	 * preempt a task that has just finished, to give it back a 0 ns slice.
	 * Before 3.8 it goes after its CPU's other timers, as in LinSched, where
	 * the task's program runs once the interrupt is over (sched_step()).
	 */
	struct timer_slot s = { expires, q->next_seq++, t, t->kind == T_WORK, last, -1 };

	if (legacy_balance()) {
		s.first = false;
		s.rank = timer_cpu(t);
		s.last = last || t->kind == T_WORK;
	} else if (cur_engine->sc->noise && t->kind != T_FORK && timer_cpu(t) >= 0) {
		s.rank = (s32)(sched_rand() >> 33);
	}

	t->expires = expires;
	if (t->heap_idx >= 0) {
		q->heap[t->heap_idx] = s;
		sift(q, t->heap_idx);
		return;
	}
	heap_set(q, q->nr++, s);
	sift_up(q, t->heap_idx);
}

/* (Re)arm: a queued timer is re-keyed in place and counts as armed now. */
void timer_arm(struct timer_queue *q, struct sched_timer *t, u64 expires)
{
	arm(q, t, expires, false);
}

/*
 * Arm to fire in the same interrupt as another timer due at expires, after
 * it (a sleeper whose slack range holds the tick: hrtimer_interrupt() runs
 * the tick's earlier hard expiry first).
 */
void timer_arm_after(struct timer_queue *q, struct sched_timer *t, u64 expires)
{
	arm(q, t, expires, true);
}

struct sched_timer *timer_pop(struct timer_queue *q)
{
	struct sched_timer *t = timer_peek(q);

	if (t)
		timer_cancel(q, t);
	return t;
}
