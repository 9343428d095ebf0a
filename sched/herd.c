// SPDX-License-Identifier: GPL-2.0
/*
 * Herd migrations: herd_threshold or more migrations within herd_window
 * (schedscope's tunables; "herd" is not a kernel term). The migrations of
 * the last window are kept in a ring; when their number reaches the
 * threshold one EV_HERD names the burst and what drove it, and the
 * burst lasts until the window holds fewer again. The cause is read off the
 * migrations' reasons and CPUs:
 *   newidle   - most came from newidle balancing, to more than one CPU
 *               (many CPUs going idle at once, each its own balancer);
 *   wakeup    - most were wakeups, and half or more went to one CPU
 *               (several wakers picked the same idle CPU);
 *   imbalance - most came from periodic, NO_HZ idle or active balancing;
 *   mixed     - none of these.
 */
#include "internal.h"

#define HERD_RING 64	/* herd_threshold's maximum */

struct herd_entry {
	u64 time, seq;
	s16 src, dst;
	u8 reason;
};

struct herd_window {
	struct herd_entry e[HERD_RING];
	int head, nr;		/* oldest entry, entries in the window */
	bool in_herd;
};

size_t herd_arena_need(void)
{
	return sizeof(struct herd_window) + 16;
}

void herd_init(void *(*alloc)(struct sched_engine *, size_t))
{
	ST->herd = alloc(E, sizeof(struct herd_window));
}

static const struct herd_entry *at(const struct herd_window *h, int k)
{
	return &h->e[(h->head + k) % HERD_RING];
}

static int distinct(const struct herd_window *h, bool dst, int *most)
{
	int n = 0;

	*most = 0;
	for (int i = 0; i < h->nr; i++) {
		int cpu = dst ? at(h, i)->dst : at(h, i)->src, same = 0, seen = 0;

		for (int j = 0; j < h->nr; j++) {
			int c = dst ? at(h, j)->dst : at(h, j)->src;

			if (c == cpu) {
				same++;
				seen += j < i;
			}
		}
		n += !seen;
		*most = MAX(*most, same);
	}
	return n;
}

static void emit_herd(const struct herd_window *h)
{
	struct sched_event ev;
	int most_dst, most_src, by[NR_MIGRATE_REASONS] = { 0 };
	int balance;

	sched_event_init(&ev, EV_HERD, at(h, h->nr - 1)->dst);
	for (int i = 0; i < h->nr; i++)
		by[at(h, i)->reason]++;
	ev.herd.first_seq = at(h, 0)->seq;
	ev.herd.first_time = at(h, 0)->time;
	ev.herd.nr = (u16)h->nr;
	ev.herd.nr_dst = (u16)distinct(h, true, &most_dst);
	ev.herd.nr_src = (u16)distinct(h, false, &most_src);
	for (int r = 0; r < NR_MIGRATE_REASONS; r++)
		ev.herd.by_reason[r] = (u8)by[r];

	balance = by[MIGRATE_BALANCE] + by[MIGRATE_NOHZ] + by[MIGRATE_ACTIVE];
	if (2 * by[MIGRATE_NEWIDLE] > h->nr && ev.herd.nr_dst > 1)
		ev.herd.cause = HERD_NEWIDLE;
	else if (2 * by[MIGRATE_WAKEUP] > h->nr && 2 * most_dst >= h->nr)
		ev.herd.cause = HERD_WAKEUP;
	else if (2 * balance > h->nr)
		ev.herd.cause = HERD_IMBALANCE;
	else if (2 * by[MIGRATE_AFFINITY] > h->nr)
		ev.herd.cause = HERD_AFFINITY;
	else
		ev.herd.cause = HERD_MIXED;
	sched_emit(&ev);
}

/* Called with every sched_migrate_task, after it was emitted. */
void herd_note_migration(const struct sched_event *m)
{
	struct herd_window *h = ST->herd;
	u64 window = sysctl(TUN_HERD_WINDOW);
	int threshold = (int)MIN(sysctl(TUN_HERD_THRESHOLD), (u64)HERD_RING);
	struct herd_entry *e;

	/* forget what left the window, and the oldest when the ring is full */
	while (h->nr && (at(h, 0)->time + window < m->time || h->nr == HERD_RING)) {
		h->head = (h->head + 1) % HERD_RING;
		h->nr--;
	}
	e = &h->e[(h->head + h->nr) % HERD_RING];
	e->time = m->time;
	e->seq = m->seq;
	e->src = (s16)m->migrate.orig_cpu;
	e->dst = (s16)m->migrate.dest_cpu;
	e->reason = m->migrate.reason;
	h->nr++;
	if (h->nr < threshold) {
		h->in_herd = false;
	} else if (!h->in_herd) {
		h->in_herd = true;
		emit_herd(h);
	}
}
