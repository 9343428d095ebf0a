// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline: a cfs_rq's waiting entities (curr is kept out), ordered by
 * virtual deadline for EEVDF and by vruntime for CFS, equal keys FIFO.
 *
 * The kernel uses an rbtree augmented with each subtree's min_vruntime. A
 * doubly linked list gives the same order and the same picks; inserting
 * walks from the end nearer the new key (a preempted task's deadline lands
 * at the tail), so the common case is O(1) and the worst is O(n/2) in
 * queued entities.
 */
#include "internal.h"

static u64 timeline_key(const struct sched_entity *se)
{
	return sched_legacy_cfs() ? se->vruntime : se->deadline;
}

/* Σ key·w and Σ w over the timeline give V without walking it (EEVDF). */
static void avg_vruntime_add(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned long weight = scale_load_down(se->load.weight);

	cfs_rq->avg_vruntime += entity_key(cfs_rq, se) * (s64)weight;
	cfs_rq->avg_load += weight;
}

static void avg_vruntime_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned long weight = scale_load_down(se->load.weight);

	cfs_rq->avg_vruntime -= entity_key(cfs_rq, se) * (s64)weight;
	cfs_rq->avg_load -= weight;
}

/* `first`: se is the only entity the minima cover so far. A stale minimum waits for its rescan. */
static void timeline_min_add(struct cfs_rq *cfs_rq, struct sched_entity *se, bool first)
{
	if (first) {
		cfs_rq->tl_min_vruntime_stale = 0;
		cfs_rq->tl_min_slice_stale = 0;
	}
	if (cfs_rq->tl_min_vruntime_stale) {
	} else if (first || (s64)(se->vruntime - cfs_rq->tl_min_vruntime) < 0) {
		cfs_rq->tl_min_vruntime = se->vruntime;
		cfs_rq->tl_min_vruntime_nr = 1;
	} else if (se->vruntime == cfs_rq->tl_min_vruntime) {
		cfs_rq->tl_min_vruntime_nr++;
	}
	if (cfs_rq->tl_min_slice_stale) {
	} else if (first || se->slice < cfs_rq->tl_min_slice) {
		cfs_rq->tl_min_slice = se->slice;
		cfs_rq->tl_min_slice_nr = 1;
	} else if (se->slice == cfs_rq->tl_min_slice) {
		cfs_rq->tl_min_slice_nr++;
	}
}

static void timeline_min_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (!cfs_rq->tl_min_vruntime_stale && se->vruntime == cfs_rq->tl_min_vruntime &&
	    !--cfs_rq->tl_min_vruntime_nr)
		cfs_rq->tl_min_vruntime_stale = 1;
	if (!cfs_rq->tl_min_slice_stale && se->slice == cfs_rq->tl_min_slice && !--cfs_rq->tl_min_slice_nr)
		cfs_rq->tl_min_slice_stale = 1;
}

/* The smallest vruntime in the timeline, which must not be empty. */
u64 timeline_min_vruntime(struct cfs_rq *cfs_rq)
{
	if (cfs_rq->tl_min_vruntime_stale) {
		struct sched_entity *se = cfs_rq->tl_first;

		cfs_rq->tl_min_vruntime = se->vruntime;
		cfs_rq->tl_min_vruntime_nr = 1;
		for (se = se->tl_next; se; se = se->tl_next) {
			if ((s64)(se->vruntime - cfs_rq->tl_min_vruntime) < 0) {
				cfs_rq->tl_min_vruntime = se->vruntime;
				cfs_rq->tl_min_vruntime_nr = 1;
			} else if (se->vruntime == cfs_rq->tl_min_vruntime) {
				cfs_rq->tl_min_vruntime_nr++;
			}
		}
		cfs_rq->tl_min_vruntime_stale = 0;
	}
	return cfs_rq->tl_min_vruntime;
}

/* The shortest slice in the timeline, which must not be empty. */
u64 timeline_min_slice(struct cfs_rq *cfs_rq)
{
	if (cfs_rq->tl_min_slice_stale) {
		struct sched_entity *se = cfs_rq->tl_first;

		cfs_rq->tl_min_slice = se->slice;
		cfs_rq->tl_min_slice_nr = 1;
		for (se = se->tl_next; se; se = se->tl_next) {
			if (se->slice < cfs_rq->tl_min_slice) {
				cfs_rq->tl_min_slice = se->slice;
				cfs_rq->tl_min_slice_nr = 1;
			} else if (se->slice == cfs_rq->tl_min_slice) {
				cfs_rq->tl_min_slice_nr++;
			}
		}
		cfs_rq->tl_min_slice_stale = 0;
	}
	return cfs_rq->tl_min_slice;
}

void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 key = timeline_key(se);
	struct sched_entity *pos = cfs_rq->tl_last;

	if (!sched_legacy_cfs())
		avg_vruntime_add(cfs_rq, se);
	timeline_min_add(cfs_rq, se, !cfs_rq->tl_first);

	/*
	 * se goes after every entity whose key is not larger. Walk from the end
	 * its key is nearer to: the same place, about half the steps when it
	 * lands in the middle (a wakee placed at the average vruntime).
	 */
	if (pos && (s64)(key - timeline_key(pos)) < 0) {
		struct sched_entity *first = cfs_rq->tl_first;

		if ((s64)(key - timeline_key(first)) < (s64)(timeline_key(pos) - key)) {
			pos = NULL;
			while (first && (s64)(key - timeline_key(first)) >= 0) {
				pos = first;
				first = first->tl_next;
			}
		} else {
			while (pos && (s64)(key - timeline_key(pos)) < 0)
				pos = pos->tl_prev;
		}
	}

	se->tl_prev = pos;
	se->tl_next = pos ? pos->tl_next : cfs_rq->tl_first;
	if (se->tl_next)
		se->tl_next->tl_prev = se;
	else
		cfs_rq->tl_last = se;
	if (pos)
		pos->tl_next = se;
	else
		cfs_rq->tl_first = se;
}

void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (se->tl_prev)
		se->tl_prev->tl_next = se->tl_next;
	else
		cfs_rq->tl_first = se->tl_next;
	if (se->tl_next)
		se->tl_next->tl_prev = se->tl_prev;
	else
		cfs_rq->tl_last = se->tl_prev;
	se->tl_prev = se->tl_next = NULL;

	if (!sched_legacy_cfs())
		avg_vruntime_sub(cfs_rq, se);
	timeline_min_sub(cfs_rq, se);
}

/*
 * A queued group entity's slice follows the shortest below it (6.12): its
 * place in the timeline does not change, only the cached minimum.
 */
void set_entity_slice(struct cfs_rq *cfs_rq, struct sched_entity *se, u64 slice)
{
	bool in_timeline = se->on_rq && se != cfs_rq->curr;

	if (se->slice == slice)
		return;
	if (!in_timeline || cfs_rq->tl_min_slice_stale) {
		se->slice = slice;
		return;
	}
	if (se->slice == cfs_rq->tl_min_slice)
		cfs_rq->tl_min_slice_nr--;
	se->slice = slice;
	if (slice < cfs_rq->tl_min_slice) {
		cfs_rq->tl_min_slice = slice;
		cfs_rq->tl_min_slice_nr = 1;
	} else if (slice == cfs_rq->tl_min_slice) {
		cfs_rq->tl_min_slice_nr++;
	} else if (!cfs_rq->tl_min_slice_nr) {
		cfs_rq->tl_min_slice_stale = 1;
	}
}
