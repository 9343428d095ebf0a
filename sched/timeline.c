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

/* What decides each extremum: wrapped vruntime order, and plain slice lengths. */
static bool vruntime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static bool slice_shorter(u64 a, u64 b)
{
	return a < b;
}

static bool slice_longer(u64 a, u64 b)
{
	return a > b;
}

/* `first`: v is the only value x covers so far. A stale extremum waits for its rescan. */
static void tl_extremum_add(struct tl_extremum *x, u64 v, bool first, bool (*before)(u64, u64))
{
	if (first) {
		x->val = v;
		x->nr = 1;
		x->stale = 0;
	} else if (x->stale) {
	} else if (before(v, x->val)) {
		x->val = v;
		x->nr = 1;
	} else if (v == x->val) {
		x->nr++;
	}
}

/* The last holder of the extremum leaving makes it stale. */
static void tl_extremum_sub(struct tl_extremum *x, u64 v)
{
	if (!x->stale && v == x->val && !--x->nr)
		x->stale = 1;
}

static void timeline_extrema_add(struct cfs_rq *cfs_rq, struct sched_entity *se, bool first)
{
	tl_extremum_add(&cfs_rq->tl_min_vruntime, se->vruntime, first, vruntime_before);
	tl_extremum_add(&cfs_rq->tl_min_slice, se->slice, first, slice_shorter);
	/* only 6.18.17's lag clamp asks for the longest: elsewhere it stays stale (init_cfs_rq()) */
	if (lag_clamp_max_slice())
		tl_extremum_add(&cfs_rq->tl_max_slice, se->slice, first, slice_longer);
}

static void timeline_extrema_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	tl_extremum_sub(&cfs_rq->tl_min_vruntime, se->vruntime);
	tl_extremum_sub(&cfs_rq->tl_min_slice, se->slice);
	tl_extremum_sub(&cfs_rq->tl_max_slice, se->slice);
}

static u64 se_vruntime(const struct sched_entity *se)
{
	return se->vruntime;
}

static u64 se_slice(const struct sched_entity *se)
{
	return se->slice;
}

/* x over the timeline, which must not be empty: a stale one is rescanned first. */
static u64 tl_extremum(struct cfs_rq *cfs_rq, struct tl_extremum *x,
		       u64 (*value)(const struct sched_entity *), bool (*before)(u64, u64))
{
	if (x->stale) {
		struct sched_entity *se;
		bool first = true;

		list_for_each_entry (se, &cfs_rq->tl_list, tl_node) {
			tl_extremum_add(x, value(se), first, before);
			first = false;
		}
	}
	return x->val;
}

/* The smallest vruntime in the timeline, which must not be empty. */
u64 timeline_min_vruntime(struct cfs_rq *cfs_rq)
{
	return tl_extremum(cfs_rq, &cfs_rq->tl_min_vruntime, se_vruntime, vruntime_before);
}

/* The shortest slice in the timeline, which must not be empty. */
u64 timeline_min_slice(struct cfs_rq *cfs_rq)
{
	return tl_extremum(cfs_rq, &cfs_rq->tl_min_slice, se_slice, slice_shorter);
}

/* The longest slice in the timeline, which must not be empty (the lag clamp from 6.18.17). */
u64 timeline_max_slice(struct cfs_rq *cfs_rq)
{
	return tl_extremum(cfs_rq, &cfs_rq->tl_max_slice, se_slice, slice_longer);
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
	struct list_head *head = &cfs_rq->tl_list;
	struct sched_entity *pos = NULL, *parent = NULL;
	bool empty = list_empty(head), right = false;

	if (!sched_legacy_cfs()) {
		avg_vruntime_add(cfs_rq, se);
		update_zero_vruntime(cfs_rq);
	}
	timeline_extrema_add(cfs_rq, se, empty);

	/*
	 * se goes after every entity whose key is not larger (pos). At either
	 * end its tree parent is that end, which has no child on that side.
	 */
	if (!empty) {
		struct sched_entity *first = list_first_entry(head, struct sched_entity, tl_node);
		struct sched_entity *last = list_last_entry(head, struct sched_entity, tl_node);

		if ((s64)(key - timeline_key(last)) >= 0) {
			pos = parent = last;
			right = true;
		} else if ((s64)(key - timeline_key(first)) < 0) {
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
	}
	tl_tree_insert(cfs_rq, se, parent, right);

	list_add(&se->tl_node, pos ? &pos->tl_node : head);
}

void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	tl_tree_erase(cfs_rq, se);
	list_del_init(&se->tl_node);

	if (!sched_legacy_cfs()) {
		avg_vruntime_sub(cfs_rq, se);
		update_zero_vruntime(cfs_rq);
	}
	timeline_extrema_sub(cfs_rq, se);
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
	struct sched_entity *se = __pick_first_entity(cfs_rq);

	if (cfs_rq->tl_root && cfs_rq->tl_root->tl_parent)
		return "the root has a parent";
	for (struct sched_entity *n = tl_leftmost(cfs_rq->tl_root); n;
	     n = tl_successor(n), se = __pick_next_entity(se)) {
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

/* A member's value changes from old to v in place. */
static void tl_extremum_change(struct tl_extremum *x, u64 old, u64 v, bool (*before)(u64, u64))
{
	if (x->stale)
		return;
	if (old == x->val)
		x->nr--;
	if (before(v, x->val)) {
		x->val = v;
		x->nr = 1;
	} else if (v == x->val) {
		x->nr++;
	} else if (!x->nr) {
		x->stale = 1;
	}
}

/*
 * A queued group entity's slice follows the shortest below it (6.12): its
 * place in the timeline does not change, only the cached extrema.
 */
void set_entity_slice(struct cfs_rq *cfs_rq, struct sched_entity *se, u64 slice)
{
	bool in_timeline = se->on_rq && se != cfs_rq->curr;

	if (se->slice == slice)
		return;
	if (in_timeline) {
		tl_extremum_change(&cfs_rq->tl_min_slice, se->slice, slice, slice_shorter);
		tl_extremum_change(&cfs_rq->tl_max_slice, se->slice, slice, slice_longer);
	}
	se->slice = slice;
}
