// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline: a cfs_rq's waiting entities (curr is kept out), ordered by
 * virtual deadline for EEVDF and by vruntime for CFS, equal keys FIFO.
 *
 * The kernel uses an rbtree augmented with each subtree's min_vruntime. A
 * doubly linked list gives the same order and the same picks; a treap over
 * the same order finds where a new entity goes in O(log n) (a wakee placed
 * at the average vruntime lands in the middle), and an entity going to
 * either end (a preempted task's deadline: the tail) is linked in O(1).
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

/* The longest slice in the timeline, which must not be empty: a walk, asked only at a dequeue from 6.18.17. */
u64 timeline_max_slice(struct cfs_rq *cfs_rq)
{
	u64 max_slice = 0;

	for (struct sched_entity *se = cfs_rq->tl_first; se; se = se->tl_next)
		max_slice = MAX(max_slice, se->slice);
	return max_slice;
}

/*
 * The search tree is a treap: each entity's priority is a hash of where it
 * lives in the arena, so its shape is as deterministic as the list. Only
 * the list's order is seen outside this file; the tree finds places in it.
 */
static u32 tl_prio(const struct sched_entity *se)
{
	u64 off = (u64)((const char *)se - (const char *)ST);

	return (u32)((off * 0x9e3779b97f4a7c15ULL) >> 32);
}

/* Point the link that led to old (its parent's, or the root) at new. */
static void tl_replace_child(struct cfs_rq *cfs_rq, struct sched_entity *parent, struct sched_entity *old,
			     struct sched_entity *new)
{
	if (!parent)
		cfs_rq->tl_root = new;
	else if (parent->tl_left == old)
		parent->tl_left = new;
	else
		parent->tl_right = new;
}

/* Lift x above its parent; the in-order sequence does not change. */
static void tl_rotate_up(struct cfs_rq *cfs_rq, struct sched_entity *x)
{
	struct sched_entity *p = x->tl_parent, *g = p->tl_parent, *inner;

	if (x == p->tl_left) {
		inner = x->tl_right;
		p->tl_left = inner;
		x->tl_right = p;
	} else {
		inner = x->tl_left;
		p->tl_right = inner;
		x->tl_left = p;
	}
	if (inner)
		inner->tl_parent = p;
	p->tl_parent = x;
	x->tl_parent = g;
	tl_replace_child(cfs_rq, g, p, x);
}

static void tl_tree_insert(struct cfs_rq *cfs_rq, struct sched_entity *se, struct sched_entity *parent,
			   bool right)
{
	se->tl_left = se->tl_right = NULL;
	se->tl_parent = parent;
	if (!parent)
		cfs_rq->tl_root = se;
	else if (right)
		parent->tl_right = se;
	else
		parent->tl_left = se;
	while (se->tl_parent && tl_prio(se) > tl_prio(se->tl_parent))
		tl_rotate_up(cfs_rq, se);
}

static void tl_tree_erase(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_entity *child;

	/* down until it has one child at most, lifting the child that outranks the other */
	while (se->tl_left && se->tl_right)
		tl_rotate_up(cfs_rq,
			     tl_prio(se->tl_left) > tl_prio(se->tl_right) ? se->tl_left : se->tl_right);
	child = se->tl_left ? se->tl_left : se->tl_right;
	if (child)
		child->tl_parent = se->tl_parent;
	tl_replace_child(cfs_rq, se->tl_parent, se, child);
	se->tl_left = se->tl_right = se->tl_parent = NULL;
}

void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 key = timeline_key(se);
	struct sched_entity *first = cfs_rq->tl_first, *last = cfs_rq->tl_last;
	struct sched_entity *pos = NULL, *parent = NULL;
	bool right = false;

	if (!sched_legacy_cfs()) {
		avg_vruntime_add(cfs_rq, se);
		update_zero_vruntime(cfs_rq);
	}
	timeline_min_add(cfs_rq, se, !first);

	/*
	 * se goes after every entity whose key is not larger (pos). At either
	 * end its tree parent is that end, which has no child on that side.
	 */
	if (last && (s64)(key - timeline_key(last)) >= 0) {
		pos = parent = last;
		right = true;
	} else if (first && (s64)(key - timeline_key(first)) < 0) {
		parent = first;
	} else {
		for (struct sched_entity *n = cfs_rq->tl_root; n;) {
			parent = n;
			right = (s64)(key - timeline_key(n)) >= 0;
			if (right)
				pos = n;
			n = right ? n->tl_right : n->tl_left;
		}
	}
	tl_tree_insert(cfs_rq, se, parent, right);

	se->tl_prev = pos;
	se->tl_next = pos ? pos->tl_next : first;
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
	tl_tree_erase(cfs_rq, se);
	if (se->tl_prev)
		se->tl_prev->tl_next = se->tl_next;
	else
		cfs_rq->tl_first = se->tl_next;
	if (se->tl_next)
		se->tl_next->tl_prev = se->tl_prev;
	else
		cfs_rq->tl_last = se->tl_prev;
	se->tl_prev = se->tl_next = NULL;

	if (!sched_legacy_cfs()) {
		avg_vruntime_sub(cfs_rq, se);
		update_zero_vruntime(cfs_rq);
	}
	timeline_min_sub(cfs_rq, se);
}

static struct sched_entity *tl_leftmost(struct sched_entity *n)
{
	while (n && n->tl_left)
		n = n->tl_left;
	return n;
}

static struct sched_entity *tl_successor(struct sched_entity *n)
{
	if (n->tl_right)
		return tl_leftmost(n->tl_right);
	while (n->tl_parent && n == n->tl_parent->tl_right)
		n = n->tl_parent;
	return n->tl_parent;
}

/* For the invariant checks: what is wrong with the search tree, or NULL. */
const char *timeline_tree_error(struct cfs_rq *cfs_rq)
{
	struct sched_entity *se = cfs_rq->tl_first;

	if (cfs_rq->tl_root && cfs_rq->tl_root->tl_parent)
		return "the root has a parent";
	for (struct sched_entity *n = tl_leftmost(cfs_rq->tl_root); n;
	     n = tl_successor(n), se = se->tl_next) {
		if (n != se)
			return "its in-order sequence is not the list";
		if ((n->tl_left && n->tl_left->tl_parent != n) ||
		    (n->tl_right && n->tl_right->tl_parent != n))
			return "a child does not link back to its parent";
		if ((n->tl_left && tl_prio(n->tl_left) > tl_prio(n)) ||
		    (n->tl_right && tl_prio(n->tl_right) > tl_prio(n)))
			return "a child outranks its parent";
	}
	return se ? "it holds fewer entities than the list" : NULL;
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
