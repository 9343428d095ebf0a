// SPDX-License-Identifier: GPL-2.0
/*
 * The event queue: a 4-ary min-heap of armed timers ordered by expiry, in
 * front of it one slot for a timer armed to fire before all of them, and
 * beside it the ticks and sleeps in lanes (lists, struct lane_timer) in
 * the order they fire; the earliest of the lanes' heads is kept at hand,
 * so a timer leaves a lane without touching the heap.
 * With noise on, simultaneous interrupts of different CPUs fire in a seeded
 * random order (on a real machine they run in parallel and either takes a
 * shared lock first); the rest, and all of the ideal machine's, fire in
 * arming order.
 * The keys sit in the heap array itself, so sifting compares without
 * following pointers.
 */
#include "internal.h"

/* Checkpoints compare as bytes: a slot copied from the stack must carry no padding. */
_Static_assert(sizeof(struct timer_slot) == 2 * sizeof(u64) + sizeof(struct sched_timer *),
	       "struct timer_slot has padding");
_Static_assert(TIMER_HEAP_ARITY == 4, "first_child() picks among four");

#define ORDER_LATER (1ULL << 63)
#define ORDER_CPU_SHIFT 47
#define ORDER_LAST (1ULL << 46)
#define ORDER_SEQ_MASK (ORDER_LAST - 1)
#define ORDER_RANK_MAX 0xffffULL

/* The CPU whose hrtimer base holds t (a sleeper's: where it went to sleep); -1 for none. */
int timer_cpu(const struct sched_timer *t)
{
	switch (t->kind) {
	case T_TICK:
	case T_HRTICK:
	case T_WORK:
	case T_IRQ_END:
	case T_IPI:
	case T_STOP:
		return t->arg;
	case T_WAKE:
		return ST->task[t->arg].cpu;
	case T_FORK:
		return FORK_CPU;
	default:
		return -1;
	}
}

static struct lane_timer *lane_timer_of(struct sched_timer *t)
{
	return container_of(t, struct lane_timer, timer);
}

void timer_queue_init(struct timer_queue *q, struct timer_slot *heap, int cap)
{
	q->heap = heap;
	q->cap = cap;
	for (int l = 0; l < TIMER_NR_LANES; l++)
		INIT_LIST_HEAD(&q->lane[l].list);
}

static struct timer_slot lane_slot(struct lane_timer *k)
{
	return (struct timer_slot){ k->timer.expires, k->order, &k->timer };
}

static void lane_unlink(struct lane_timer *k)
{
	list_del_init(&k->node);
	k->timer.lane = 0;
}

/* The earliest of the lanes' heads, after the earliest left its lane. */
static void lane_first_update(struct timer_queue *q)
{
	struct timer_slot best = { 0 };

	for (int l = 0; l < TIMER_NR_LANES; l++) {
		struct timer_slot s;

		if (list_empty(&q->lane[l].list))
			continue;
		s = lane_slot(list_first_entry(&q->lane[l].list, struct lane_timer, node));
		if (!best.t || timer_slot_before(&s, &best))
			best = s;
	}
	q->lane_first = best;
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
		int parent = timer_heap_parent(i);
		if (!timer_slot_before(&s, &q->heap[parent]))
			break;
		heap_set(q, i, q->heap[parent]);
		i = parent;
	}
	heap_set(q, i, s);
}

/* The earliest of slot i's children; -1 for a leaf. */
static inline int first_child(const struct timer_queue *q, int i)
{
	int c = TIMER_HEAP_ARITY * i + 1, best = c;

	if (c >= q->nr)
		return -1;
	if (c + 4 <= q->nr) {
		/* a full family: two pairs, then their winners, without branching on the keys */
		int a = c + timer_slot_before(&q->heap[c + 1], &q->heap[c]);
		int b = c + 2 + timer_slot_before(&q->heap[c + 3], &q->heap[c + 2]);

		return timer_slot_before(&q->heap[b], &q->heap[a]) ? b : a;
	}
	for (int k = c + 1; k < q->nr; k++)
		if (timer_slot_before(&q->heap[k], &q->heap[best]))
			best = k;
	return best;
}

static void sift_down(struct timer_queue *q, int i)
{
	struct timer_slot s = q->heap[i];
	int c;

	while ((c = first_child(q, i)) >= 0 && timer_slot_before(&q->heap[c], &s)) {
		heap_set(q, i, q->heap[c]);
		i = c;
	}
	heap_set(q, i, s);
}

/* Restore the heap order around slot i after its key changed either way. */
static void sift(struct timer_queue *q, int i)
{
	if (i > 0 && timer_slot_before(&q->heap[i], &q->heap[timer_heap_parent(i)]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

/* Take slot i out of the heap. */
static void heap_remove(struct timer_queue *q, int i)
{
	q->nr--;
	if (i == q->nr)
		return;
	heap_set(q, i, q->heap[q->nr]);
	sift(q, i);
}

static void heap_push(struct timer_queue *q, struct timer_slot s)
{
	heap_set(q, q->nr++, s);
	sift_up(q, s.t->heap_idx);
}

static void first_clear(struct timer_queue *q)
{
	q->first = (struct timer_slot){ 0 };
}

/*
 * Queue s: in the first slot if it fires before everything queued, else in
 * the heap. Always inlined: with the lanes' callers gcc kept it out of
 * line, and arm()'s call cost the mixed load 1.6 % of its instructions.
 */
static inline __attribute__((always_inline)) void enqueue(struct timer_queue *q, struct timer_slot s)
{
	if (q->first.t ? timer_slot_before(&s, &q->first)
		       : (!q->nr || timer_slot_before(&s, &q->heap[0])) &&
				 (!q->lane_first.t || timer_slot_before(&s, &q->lane_first))) {
		if (q->first.t)
			heap_push(q, q->first);
		q->first = s;
		s.t->heap_idx = TIMER_IDX_FIRST;
		return;
	}
	heap_push(q, s);
}

/* Out of the first slot or the heap, where i says it is. */
static inline void dequeue(struct timer_queue *q, int i)
{
	if (i == TIMER_IDX_FIRST)
		first_clear(q);
	else
		heap_remove(q, i);
}

/* Out of its lane, without a heap operation. Out of line, so that cancel() inlines small into arm(). */
static void __attribute__((noinline)) lane_cancel(struct timer_queue *q, struct sched_timer *t)
{
	lane_unlink(lane_timer_of(t));
	if (q->lane_first.t == t)
		lane_first_update(q);
}

static inline __attribute__((always_inline)) void cancel(struct timer_queue *q, struct sched_timer *t)
{
	int i = t->heap_idx;

	if (i < 0)
		return;
	t->heap_idx = -1;
	if (t->lane)
		lane_cancel(q, t);
	else
		dequeue(q, i);
}

void timer_cancel(struct timer_queue *q, struct sched_timer *t)
{
	cancel(q, t);
}

/* Due after the last of lane l (or lane l empty), s goes behind it. */
static bool lane_append(struct timer_queue *q, int l, struct timer_slot s)
{
	struct lane_timer *k = lane_timer_of(s.t);
	struct list_head *lane = &q->lane[l].list;
	bool head = list_empty(lane);

	if (!head) {
		struct timer_slot last = lane_slot(list_last_entry(lane, struct lane_timer, node));

		if (!timer_slot_before(&last, &s))
			return false;
	}
	list_add_tail(&k->node, lane);
	k->order = s.order;
	s.t->lane = (u8)(l + 1);
	s.t->heap_idx = TIMER_IDX_LANE;
	if (head) {
		/* the first slot fires before everything queued, the lanes too */
		if (q->first.t && timer_slot_before(&s, &q->first)) {
			heap_push(q, q->first);
			first_clear(q);
		}
		if (!q->lane_first.t || timer_slot_before(&s, &q->lane_first))
			q->lane_first = s;
	}
	return true;
}

static void arm(struct timer_queue *q, struct sched_timer *t, u64 expires, bool after)
{
	/*
	 * A task's own `run` ending goes before anything else due at the same
	 * nanosecond: otherwise a tick on the same grid as round durations would
	 * preempt a task that has just finished, to give it back a 0 ns slice.
	 * Before 3.8 it goes after its CPU's other timers, as in LinSched, where
	 * the task's program runs once the interrupt is over (sched_step()).
	 */
	struct timer_slot s = { expires, (q->next_seq++ & ORDER_SEQ_MASK) | ORDER_LATER, t };
	int l = timer_first_lane(t);

	if (legacy_balance())
		s.order |= (u64)(timer_cpu(t) + 1) << ORDER_CPU_SHIFT | (t->kind == T_WORK ? ORDER_LAST : 0);
	else if (t->kind == T_WORK)
		s.order &= ~ORDER_LATER;
	if (after)
		s.order |= ORDER_RANK_MAX << ORDER_CPU_SHIFT | ORDER_LAST;
	else if (!legacy_balance() && cur_engine->sc->noise && t->kind != T_FORK && timer_cpu(t) >= 0)
		s.order |= (1 + (sched_rand() >> 49)) << ORDER_CPU_SHIFT;

	t->expires = expires;
	if (l >= 0) {
		cancel(q, t);
		for (; l <= timer_last_lane(t); l++)
			if (lane_append(q, l, s))
				return;
		enqueue(q, s);
		return;
	}
	/* re-keyed in place, unless it must now go before the first slot */
	if (t->heap_idx >= 0 && t->heap_idx != TIMER_IDX_FIRST &&
	    !(q->first.t && timer_slot_before(&s, &q->first))) {
		q->heap[t->heap_idx] = s;
		sift(q, t->heap_idx);
		return;
	}
	cancel(q, t);
	enqueue(q, s);
}

/* (Re)arm: a queued timer is re-keyed in place and counts as armed now. */
void timer_arm(struct timer_queue *q, struct sched_timer *t, u64 expires)
{
	arm(q, t, expires, false);
}

/*
 * Arm to fire in the same interrupt as the CPU timer due at expires, after
 * it (a sleeper whose slack range holds the tick: hrtimer_interrupt() runs
 * the tick's earlier hard expiry first).
 */
void timer_arm_after(struct timer_queue *q, struct sched_timer *t, u64 expires)
{
	arm(q, t, expires, true);
}

/*
 * Take the first timer out. Out of the heap, its hole goes down to a leaf
 * along the earliest child (no comparison with the slot that will fill
 * it), and the last slot fills it from there, rising the level or two a
 * late timer rises. Keys are unique (the arming order breaks ties), so the
 * order timers fire in is the same whatever the heap's layout, or how many
 * timers wait in the lanes.
 */
struct sched_timer *timer_pop(struct timer_queue *q)
{
	struct sched_timer *t = timer_peek(q);
	int i = 0, c;

	if (!t)
		return NULL;
	t->heap_idx = -1;
	if (t->lane) {
		lane_unlink(lane_timer_of(t));
		lane_first_update(q);
		return t;
	}
	if (q->first.t) {
		first_clear(q);
		return t;
	}
	if (--q->nr == 0)
		return t;
	while ((c = first_child(q, i)) >= 0) {
		heap_set(q, i, q->heap[c]);
		i = c;
	}
	heap_set(q, i, q->heap[q->nr]);
	sift_up(q, i);
	return t;
}
