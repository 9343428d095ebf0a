/*
 * The event queue: a binary min-heap of armed timers ordered by
 * (expiry, arming sequence), so simultaneous timers fire in a stable order.
 */
#include "internal.h"

static bool timer_before(const struct sched_timer *a, const struct sched_timer *b)
{
	if (a->expires != b->expires)
		return a->expires < b->expires;
	return a->seq < b->seq;
}

static void heap_set(struct timer_queue *q, int i, struct sched_timer *t)
{
	q->heap[i] = t;
	t->heap_idx = i;
}

static void sift_up(struct timer_queue *q, int i)
{
	struct sched_timer *t = q->heap[i];

	while (i > 0) {
		int parent = (i - 1) / 2;
		if (!timer_before(t, q->heap[parent]))
			break;
		heap_set(q, i, q->heap[parent]);
		i = parent;
	}
	heap_set(q, i, t);
}

static void sift_down(struct timer_queue *q, int i)
{
	struct sched_timer *t = q->heap[i];

	for (;;) {
		int c = 2 * i + 1;
		if (c >= q->nr)
			break;
		if (c + 1 < q->nr && timer_before(q->heap[c + 1], q->heap[c]))
			c++;
		if (!timer_before(q->heap[c], t))
			break;
		heap_set(q, i, q->heap[c]);
		i = c;
	}
	heap_set(q, i, t);
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
	if (i > 0 && timer_before(q->heap[i], q->heap[(i - 1) / 2]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

/* (Re)arm: a queued timer moves to its new expiry and counts as armed now. */
void timer_arm(struct timer_queue *q, struct sched_timer *t, u64 expires)
{
	timer_cancel(q, t);
	t->expires = expires;
	t->seq = q->next_seq++;
	heap_set(q, q->nr++, t);
	sift_up(q, t->heap_idx);
}

struct sched_timer *timer_pop(struct timer_queue *q)
{
	struct sched_timer *t = timer_peek(q);

	if (t)
		timer_cancel(q, t);
	return t;
}
