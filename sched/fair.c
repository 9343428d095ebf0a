// SPDX-License-Identifier: GPL-2.0
/*
 * The fair class (kernel/sched/fair.c): accounting, PELT hooks, enqueue,
 * dequeue, pick and tick, shared by EEVDF (eevdf.c) and the pre-6.6 CFS
 * pick (cfs_legacy.c). Every level of the task-group hierarchy is a cfs_rq
 * of its own; the walks up and down it are the kernel's (group.c holds the
 * group weights and the PELT propagation between levels).
 */
#include "internal.h"

/* delta / w: wall time to this entity's virtual time. */
u64 calc_delta_fair(u64 delta, struct sched_entity *se)
{
	if (se->load.weight != NICE_0_LOAD)
		delta = __calc_delta(delta, NICE_0_LOAD, &se->load);
	return delta;
}

static unsigned long se_weight(struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
}

/* ---- PELT bookkeeping ---- */


/* New tasks are assumed fully busy until they show otherwise; a new group carries nothing yet. */
void init_entity_runnable_average(struct sched_entity *se)
{
	struct sched_avg *sa = &se->avg;

	*sa = (struct sched_avg){ 0 };
	if (entity_is_task(se))
		sa->load_avg = scale_load_down(se->load.weight);
}

/* A new task gets half of the CPU's spare utilisation, in proportion to its weight. */
void post_init_entity_util_avg(struct task_struct *p)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	struct sched_avg *sa = &se->avg;
	long cpu_scale = rq_of(cfs_rq)->cpu_capacity_orig;
	long cap = (long)(cpu_scale - (long)cfs_rq->avg.util_avg) / 2;

	if (cap > 0) {
		if (cfs_rq->avg.util_avg != 0) {
			sa->util_avg = cfs_rq->avg.util_avg * se_weight(se);
			sa->util_avg /= (cfs_rq->avg.load_avg + 1);
			if (sa->util_avg > (unsigned long)cap)
				sa->util_avg = cap;
		} else {
			sa->util_avg = cap;
		}
	}
	sa->runnable_avg = sa->util_avg;
}

void enqueue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->avg.load_avg += se->avg.load_avg;
	cfs_rq->avg.load_sum += se_weight(se) * se->avg.load_sum;
}

void dequeue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	sub_positive_ul(&cfs_rq->avg.load_avg, se->avg.load_avg);
	sub_positive_u64(&cfs_rq->avg.load_sum, se_weight(se) * se->avg.load_sum);
	/* rounding can leave sum below avg * min divider; keep them consistent */
	cfs_rq->avg.load_sum = MAX((u32)cfs_rq->avg.load_sum,
				   (u32)(cfs_rq->avg.load_avg * PELT_MIN_DIVIDER));
}

int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs_rq)
{
	struct sched_avg *sa = &cfs_rq->avg;
	int decayed = 0;

	if (cfs_rq->removed.nr) {
		u32 divider = get_pelt_divider(&cfs_rq->avg);
		unsigned long r;

		r = cfs_rq->removed.load_avg;
		sub_positive_ul(&sa->load_avg, r);
		sub_positive_u64(&sa->load_sum, (u64)r * divider);
		sa->load_sum = MAX((u32)sa->load_sum, (u32)(sa->load_avg * PELT_MIN_DIVIDER));

		r = cfs_rq->removed.util_avg;
		sub_positive_ul(&sa->util_avg, r);
		sub_positive_u32(&sa->util_sum, (u64)r * divider);
		sa->util_sum = MAX(sa->util_sum, (u32)(sa->util_avg * PELT_MIN_DIVIDER));

		r = cfs_rq->removed.runnable_avg;
		sub_positive_ul(&sa->runnable_avg, r);
		sub_positive_u64(&sa->runnable_sum, (u64)r * divider);
		sa->runnable_sum = MAX((u32)sa->runnable_sum,
				       (u32)(sa->runnable_avg * PELT_MIN_DIVIDER));
		/* the unweighted runnable estimates the load_sum that left */
		add_tg_cfs_propagate(cfs_rq, -(long)(((u64)r * divider) >> SCHED_CAPACITY_SHIFT));

		cfs_rq->removed.load_avg = cfs_rq->removed.util_avg = 0;
		cfs_rq->removed.runnable_avg = 0;
		cfs_rq->removed.nr = 0;
		decayed = 1;
	}
	decayed |= __update_load_avg_cfs_rq(now, cfs_rq);
	return decayed;
}

void attach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u32 divider = get_pelt_divider(&cfs_rq->avg);

	/* Align with the cfs_rq so the sums are comparable. */
	se->avg.last_update_time = cfs_rq->avg.last_update_time;
	se->avg.period_contrib = cfs_rq->avg.period_contrib;
	se->avg.util_sum = (u32)(se->avg.util_avg * divider);
	se->avg.runnable_sum = se->avg.runnable_avg * divider;
	se->avg.load_sum = se->avg.load_avg * divider;
	if (se_weight(se) < se->avg.load_sum)
		se->avg.load_sum = se->avg.load_sum / se_weight(se);
	else
		se->avg.load_sum = 1;

	enqueue_load_avg(cfs_rq, se);
	cfs_rq->avg.util_avg += se->avg.util_avg;
	cfs_rq->avg.util_sum += se->avg.util_sum;
	cfs_rq->avg.runnable_avg += se->avg.runnable_avg;
	cfs_rq->avg.runnable_sum += se->avg.runnable_sum;
	add_tg_cfs_propagate(cfs_rq, (long)se->avg.load_sum);
}

void detach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	dequeue_load_avg(cfs_rq, se);
	sub_positive_ul(&cfs_rq->avg.util_avg, se->avg.util_avg);
	sub_positive_u32(&cfs_rq->avg.util_sum, se->avg.util_sum);
	cfs_rq->avg.util_sum = MAX(cfs_rq->avg.util_sum, (u32)(cfs_rq->avg.util_avg * PELT_MIN_DIVIDER));
	sub_positive_ul(&cfs_rq->avg.runnable_avg, se->avg.runnable_avg);
	sub_positive_u64(&cfs_rq->avg.runnable_sum, se->avg.runnable_sum);
	cfs_rq->avg.runnable_sum = MAX((u32)cfs_rq->avg.runnable_sum,
				       (u32)(cfs_rq->avg.runnable_avg * PELT_MIN_DIVIDER));
	add_tg_cfs_propagate(cfs_rq, -(long)se->avg.load_sum);
}

void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 now = cfs_rq_clock_pelt(cfs_rq);
	int decayed;

	if (se->avg.last_update_time && !(flags & SKIP_AGE_LOAD))
		__update_load_avg_se(now, cfs_rq, se);

	decayed = update_cfs_rq_load_avg(now, cfs_rq);
	decayed |= propagate_entity_load_avg(se);

	if (!se->avg.last_update_time && (flags & DO_ATTACH)) {
		attach_entity_load_avg(cfs_rq, se);
		update_tg_load_avg(cfs_rq);
	} else if (flags & DO_DETACH) {
		detach_entity_load_avg(cfs_rq, se);
		update_tg_load_avg(cfs_rq);
	} else if (decayed && (flags & UPDATE_TG)) {
		update_tg_load_avg(cfs_rq);
	}
}

/* A group entity's PELT runnable counts the tasks runnable below it. */
void se_update_runnable(struct sched_entity *se)
{
	if (!entity_is_task(se))
		se->runnable_weight = se->my_q->h_nr_running - se->my_q->h_nr_delayed;
}

/* ---- runqueue accounting ---- */

void init_cfs_rq(struct cfs_rq *cfs_rq, struct rq *rq)
{
	cfs_rq->rq = rq;
	INIT_LIST_HEAD(&cfs_rq->tl_list);
	/* The kernel starts min_vruntime just below the u64 wrap to catch wrap bugs. */
	cfs_rq->min_vruntime = (u64)(-(1LL << 20));
	cfs_rq->last_h_load_update = ~0ULL;	/* never: the first task_h_load() computes it */
	cfs_rq->tl_max_slice.stale = 1;		/* tracked only where asked for (timeline.c) */
}

static void account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_add(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_running++;
	if (entity_is_task(se))
		cfs_tasks_add(rq_of(cfs_rq), task_of(se));
}

static void account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_sub(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_running--;
	if (entity_is_task(se))
		cfs_tasks_del(rq_of(cfs_rq), task_of(se));
}

/* A buddy mark runs up the hierarchy; clearing it stops where another entity holds it. */
void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_entity *e;

	if (cfs_rq->next == se)
		for (e = se; e && cfs_rq_of(e)->next == e; e = e->parent)
			cfs_rq_of(e)->next = NULL;
	if (cfs_rq->last == se)
		for (e = se; e && cfs_rq_of(e)->last == e; e = e->parent)
			cfs_rq_of(e)->last = NULL;
	if (cfs_rq->skip == se)
		for (e = se; e && cfs_rq_of(e)->skip == e; e = e->parent)
			cfs_rq_of(e)->skip = NULL;
}

void set_next_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se) {
		if (SCHED_WARN_ON(!se->on_rq))
			return;
		if (se_is_idle(se))
			return;
		cfs_rq_of(se)->next = se;
	}
}

void set_last_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se) {
		if (SCHED_WARN_ON(!se->on_rq))
			return;
		if (se_is_idle(se))
			return;
		cfs_rq_of(se)->last = se;
	}
}

static void set_skip_buddy(struct sched_entity *se)
{
	for_each_sched_entity(se)
		cfs_rq_of(se)->skip = se;
}

/* Where the task's entity is queued: its group's cfs_rq on its CPU. */
void set_task_rq(struct task_struct *p, int cpu)
{
	struct task_group *tg = p->sched_task_group;

	p->se.cfs_rq = tg->cfs_rq[cpu];
	p->se.parent = tg->se ? tg->se[cpu] : NULL;
	p->se.depth = p->se.parent ? p->se.parent->depth + 1 : 0;
}

/* ---- update_curr: charge the running entity ---- */

static s64 update_curr_se(struct rq *rq, struct sched_entity *curr)
{
	u64 now = rq_clock_task(rq);
	s64 delta_exec = (s64)(now - curr->exec_start);

	if (delta_exec <= 0)
		return delta_exec;
	curr->exec_start = now;
	curr->sum_exec_runtime += (u64)delta_exec;
	return delta_exec;
}

void update_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	s64 delta_exec;
	bool resched;

	if (!curr)
		return;
	delta_exec = update_curr_se(rq_of(cfs_rq), curr);
	if (delta_exec <= 0)
		return;
	/* 6.12+: a task's fair time counts against the fair server whoever picked it */
	if (entity_is_task(curr))
		dl_server_update(&rq_of(cfs_rq)->fair_server, delta_exec);

	if (sched_legacy_cfs()) {
		curr->vruntime += cfs_calc_delta_fair((u64)delta_exec, curr);
		update_min_vruntime_legacy(cfs_rq);
		account_cfs_rq_runtime(cfs_rq, (u64)delta_exec);
		return;
	}

	curr->vruntime += calc_delta_fair((u64)delta_exec, curr);
	resched = update_deadline(cfs_rq, curr);
	if (!zero_vruntime_follows_v())
		update_min_vruntime(cfs_rq);
	account_cfs_rq_runtime(cfs_rq, (u64)delta_exec);

	if (cfs_rq->nr_running == 1)
		return;
	if (kernel_at_least(6, 17)) {
		if (resched || !protect_slice(curr)) {
			resched_curr(rq_of(cfs_rq));
			clear_buddies(cfs_rq, curr);
		}
	} else if (resched || did_preempt_short(cfs_rq, curr)) {
		resched_curr(rq_of(cfs_rq));
		clear_buddies(cfs_rq, curr);
	}
}

/* ---- enqueue / dequeue ---- */

void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool curr = cfs_rq->curr == se;

	if (sched_legacy_cfs()) {
		/* CFS keeps a dequeued vruntime relative to min_vruntime, except after a sleep. */
		bool renorm = !(flags & ENQUEUE_WAKEUP) || (flags & ENQUEUE_MIGRATED);

		if (renorm && curr)
			se->vruntime += cfs_rq->min_vruntime;
		update_curr(cfs_rq);
		if (renorm && !curr)
			se->vruntime += cfs_rq->min_vruntime;
		update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH);
		se_update_runnable(se);
		update_cfs_group(se);
		account_entity_enqueue(cfs_rq, se);
		if (flags & ENQUEUE_WAKEUP)
			place_entity_legacy(cfs_rq, se, 0);
	} else {
		/* The current task is placed before update_curr() moves V. */
		if (curr)
			place_entity(cfs_rq, se, flags);
		update_curr(cfs_rq);
		update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH);
		se_update_runnable(se);
		/* reweighted first, so the placement sees the group's new weight */
		update_cfs_group(se);
		if (!curr)
			place_entity(cfs_rq, se, flags);
		account_entity_enqueue(cfs_rq, se);
	}
	/* a moved task is no longer cache hot; 3.3's set_task_cpu() left exec_start as it was */
	if ((flags & ENQUEUE_MIGRATED) && !legacy_balance())
		se->exec_start = 0;
	if (!curr)
		__enqueue_entity(cfs_rq, se);
	se->on_rq = 1;

	if (cfs_rq->nr_running == 1) {
		check_enqueue_throttle(cfs_rq);
		if (throttled_hierarchy(cfs_rq)) {
			if (cfs_rq_throttled(cfs_rq) && !cfs_rq->throttled_clock)
				cfs_rq->throttled_clock = rq_clock(rq_of(cfs_rq));
			if (!cfs_rq->throttled_clock_self)
				cfs_rq->throttled_clock_self = rq_clock(rq_of(cfs_rq));
		}
	}
}

/* A delayed task still counts as queued at every level above it, but not as runnable. */
static void set_delayed(struct sched_entity *se)
{
	se->sched_delayed = 1;
	if (!entity_is_task(se))
		return;
	for_each_sched_entity(se) {
		cfs_rq_of(se)->h_nr_delayed++;
		if (throttle_stops_walk(cfs_rq_of(se)))
			break;
	}
}

void clear_delayed(struct sched_entity *se)
{
	se->sched_delayed = 0;
	if (!entity_is_task(se))
		return;
	for_each_sched_entity(se) {
		cfs_rq_of(se)->h_nr_delayed--;
		if (throttle_stops_walk(cfs_rq_of(se)))
			break;
	}
}

/* Returns false when DELAY_DEQUEUE keeps a sleeping, ineligible entity queued. */
bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool sleep = flags & DEQUEUE_SLEEP;
	int action = UPDATE_TG;

	update_curr(cfs_rq);
	clear_buddies(cfs_rq, se);

	if (!sched_legacy_cfs() && !(flags & DEQUEUE_DELAYED) && sleep &&
	    !(flags & DEQUEUE_SPECIAL) && sched_feat(DELAY_DEQUEUE) &&
	    kernel_at_least(6, 12) && !entity_eligible(cfs_rq, se)) {
		update_load_avg(cfs_rq, se, 0);
		set_delayed(se);
		return false;
	}

	if (entity_is_task(se) && task_of(se)->on_rq == TASK_ON_RQ_MIGRATING)
		action |= DO_DETACH;
	update_load_avg(cfs_rq, se, action);
	se_update_runnable(se);

	if (sched_legacy_cfs()) {
		if (se != cfs_rq->curr)
			__dequeue_entity(cfs_rq, se);
		se->on_rq = 0;
		account_entity_dequeue(cfs_rq, se);
		return_cfs_rq_runtime(cfs_rq);
		/* Keep it relative so it can be re-based on whatever queue it joins next. */
		if (!sleep)
			se->vruntime -= cfs_rq->min_vruntime;
		update_cfs_group(se);
		if ((flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
			update_min_vruntime_legacy(cfs_rq);
		return true;
	}

	update_entity_lag(cfs_rq, se);
	if (sched_feat(PLACE_REL_DEADLINE) && kernel_at_least(6, 12) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = 1;
	}
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	se->on_rq = 0;
	account_entity_dequeue(cfs_rq, se);
	return_cfs_rq_runtime(cfs_rq);
	update_cfs_group(se);

	if (flags & DEQUEUE_DELAYED) {
		clear_delayed(se);
		if (sched_feat(DELAY_ZERO) && se->vlag > 0)
			se->vlag = 0;
	}
	if (!zero_vruntime_follows_v() && (flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime(cfs_rq);
	if (!cfs_rq->nr_running && throttled_hierarchy(cfs_rq) && task_based_throttle())
		throttled_queue_emptied(cfs_rq);
	return true;
}

static void hrtick_start_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	if (rq->cfs.h_nr_running > 1) {
		u64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;
		u64 slice = sched_legacy_cfs() ? sched_slice(cfs_rq_of(se), se) : se->slice;
		s64 delta = (s64)(slice - ran);

		if (delta < 0) {
			if (task_current(rq, p))
				resched_curr(rq);
			return;
		}
		hrtick_start(rq, (u64)delta);
	}
}

/*
 * hrtick_update(): an enqueue or a dequeue changes the running task's slice,
 * so its hrtick is armed again. Before EEVDF (6.6) only while its queue
 * holds fewer than sched_nr_latency tasks.
 */
static void hrtick_update(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	if (!sched_feat(HRTICK) || curr->sched_class != &fair_sched_class)
		return;
	if (sched_legacy_cfs() && cfs_rq_of(&curr->se)->nr_running >= sched_nr_latency())
		return;
	hrtick_start_fair(rq, curr);
}

/* The hierarchical counts an enqueue or dequeue adds at one level. */
struct h_delta {
	int queued, delayed, idle;
};

static void account_h_delta(struct cfs_rq *cfs_rq, struct h_delta *d, int sign)
{
	cfs_rq->h_nr_running += sign * d->queued;
	cfs_rq->h_nr_delayed += sign * d->delayed;
	cfs_rq->idle_h_nr_running += sign * d->idle;
	/* above an idle group, everything it holds counts as idle */
	if (cfs_rq_is_idle(cfs_rq))
		d->idle = d->queued;
}

/*
 * The levels an enqueue or dequeue left queued: refresh their load, weight
 * and slice. False when a throttled queue hides the change from the CPU.
 */
static bool update_upper_levels(struct sched_entity *se, struct h_delta *d, int sign, u64 slice)
{
	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		update_load_avg(cfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		update_cfs_group(se);
		if (custom_slice_supported() && slice)
			set_entity_slice(cfs_rq, se, slice);
		slice = cfs_rq_min_slice(cfs_rq);
		account_h_delta(cfs_rq, d, sign);
		if (throttle_stops_walk(cfs_rq))
			return false;
	}
	return true;
}

void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_entity *se = &p->se;
	struct h_delta d = { 1, 0, task_has_idle_policy(p) };
	unsigned int h_nr_before = rq->cfs.h_nr_running;
	u64 slice = 0;

	if (flags & ENQUEUE_DELAYED) {
		requeue_delayed_entity(se);
		return;
	}
	/* a throttled task joining a throttled hierarchy waits on its limbo list */
	if (p->throttled && enqueue_throttled_task(p))
		return;
	/* kept delayed across a SAVE/RESTORE change */
	if (!(flags & ENQUEUE_WAKEUP))
		d.delayed = se->sched_delayed;

	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq;

		if (se->on_rq) {
			if (se->sched_delayed)
				requeue_delayed_entity(se);
			break;
		}
		cfs_rq = cfs_rq_of(se);
		if (custom_slice_supported() && slice) {
			se->slice = slice;
			se->custom_slice = 1;
		}
		enqueue_entity(cfs_rq, se, flags);
		slice = cfs_rq_min_slice(cfs_rq);
		account_h_delta(cfs_rq, &d, 1);
		if (throttle_stops_walk(cfs_rq))
			return;
		flags = ENQUEUE_WAKEUP;
	}
	if (!update_upper_levels(se, &d, 1, slice))
		return;
	/* the first fair task on this CPU starts its fair server (6.12+) */
	if (!h_nr_before && rq->cfs.h_nr_running) {
		if (!rq->nr_running)
			dl_server_update_idle_time(rq, rq->curr);
		dl_server_start(&rq->fair_server);
	}

	rq->nr_running++;
	hrtick_update(rq);
}

/*
 * Dequeue se and every ancestor it leaves empty. -1: the task stays queued
 * as a delayed dequeue; 1: done.
 */
static int dequeue_entities(struct rq *rq, struct sched_entity *se, int flags)
{
	bool task_sleep = flags & DEQUEUE_SLEEP;
	bool task_delayed = flags & DEQUEUE_DELAYED;
	struct task_struct *p = NULL;
	struct h_delta d = { 0, 0, 0 };
	u64 slice = 0;

	if (entity_is_task(se)) {
		p = task_of(se);
		d.queued = 1;
		d.idle = task_has_idle_policy(p);
		if (!task_sleep && !task_delayed)
			d.delayed = se->sched_delayed;
	}

	for_each_sched_entity(se) {
		struct cfs_rq *cfs_rq = cfs_rq_of(se);

		if (!dequeue_entity(cfs_rq, se, flags)) {
			if (p && &p->se == se)
				return -1;
			/* a group entity went delayed: it stays queued, its task count goes */
			slice = cfs_rq_min_slice(cfs_rq);
			break;
		}
		account_h_delta(cfs_rq, &d, -1);
		if (throttle_stops_walk(cfs_rq))
			return 1;

		/* Don't dequeue the parent if it still holds other entities. */
		if (cfs_rq->load.weight) {
			slice = cfs_rq_min_slice(cfs_rq);
			se = parent_entity(se);
			/* p sleeps within its slice: favour a sibling from the same group next */
			if (task_sleep && se && !throttled_hierarchy(cfs_rq))
				set_next_buddy(se);
			break;
		}
		flags |= DEQUEUE_SLEEP;
		flags &= ~(DEQUEUE_DELAYED | DEQUEUE_SPECIAL);
	}
	if (update_upper_levels(se, &d, -1, slice))
		rq->nr_running -= d.queued;
	/* what dequeue_task_fair() skipped when the task went delayed */
	if (p && task_delayed)
		hrtick_update(rq);
	return 1;
}

/* False when the task stays queued as a delayed dequeue. */
bool dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	/* a task on a limbo list is off its queue already */
	if (p->throttled) {
		dequeue_throttled_task(p);
		return true;
	}
	if (dequeue_entities(rq, &p->se, flags) < 0)
		return false;
	hrtick_update(rq);
	return true;
}

/* ---- pick ---- */

static void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, bool first)
{
	clear_buddies(cfs_rq, se);
	/* 'current' is kept out of the timeline. */
	if (se->on_rq) {
		__dequeue_entity(cfs_rq, se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		if (!sched_legacy_cfs() && (first || !protect_slice_at_pick_only()))
			set_protect_slice(cfs_rq, se);
	}
	se->exec_start = rq_clock_task(rq_of(cfs_rq));	/* update_stats_curr_start() */
	cfs_rq->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

static void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq)
		update_curr(cfs_rq);
	/* a queue that ran out of runtime is throttled as it is put */
	check_cfs_rq_runtime(cfs_rq);
	if (prev->on_rq) {
		__enqueue_entity(cfs_rq, prev);
		update_load_avg(cfs_rq, prev, 0);
	}
	cfs_rq->curr = NULL;
}

/*
 * The entity pick_next_entity() takes from a queue with entities, and why
 * (enum sched_pick_why), changing nothing: what the queries answer.
 */
struct sched_entity *pick_next_entity_why(struct cfs_rq *cfs_rq, int *why)
{
	if (sched_legacy_cfs()) {
		struct sched_entity *curr = cfs_rq->curr;
		if (curr && !curr->on_rq)
			curr = NULL;
		return pick_next_entity_legacy(cfs_rq, curr, why);
	}

	/* The next buddy changes latency, not fairness. */
	if (sched_feat(PICK_BUDDY) && kernel_at_least(6, 12) && !wakeup_preempt_rework() && cfs_rq->next &&
	    entity_eligible(cfs_rq, cfs_rq->next)) {
		/* ->next is never delayed */
		SCHED_WARN_ON(cfs_rq->next->sched_delayed);
		*why = PICK_NEXT_BUDDY;
		return cfs_rq->next;
	}
	return pick_eevdf_why(cfs_rq, why);
}

/* NULL when the pick dequeued a delayed entity: pick again. */
struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq, bool protect)
{
	int why;
	struct sched_entity *se = protect ? pick_next_entity_why(cfs_rq, &why) : pick_eevdf(cfs_rq, false);

	if (sched_legacy_cfs())
		return se;
	if (se->sched_delayed) {
		/* It blocked while ineligible; now that it is chosen, it finally leaves. */
		bool task = entity_is_task(se);

		dequeue_entities(rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		if (task)
			task_of(se)->on_rq = 0;
		return NULL;
	}
	return se;
}

/* Walk down from the root queue, picking one entity per level. */
static struct task_struct *pick_task_fair(struct rq *rq)
{
	struct sched_entity *se;
	struct cfs_rq *cfs_rq;

again:
	cfs_rq = &rq->cfs;
	if (!cfs_rq->nr_running)
		return NULL;
	do {
		/* curr may not have been put yet */
		if (cfs_rq->curr && cfs_rq->curr->on_rq)
			update_curr(cfs_rq);
		/* before 6.18 throttling dequeues the group here; from 6.18 the pick goes on */
		if (check_cfs_rq_runtime(cfs_rq) && !task_based_throttle())
			goto again;
		se = pick_next_entity(rq, cfs_rq, true);
		if (!se)
			goto again;
		cfs_rq = group_cfs_rq(se);
	} while (cfs_rq);
	/* 6.18+: a task of a throttled hierarchy leaves for its limbo list when it gets here */
	if (throttle_task_at_pick(rq, task_of(se)))
		goto again;
	return task_of(se);
}

static void put_prev_task_fair(struct rq *rq, struct task_struct *prev, struct task_struct *next)
{
	struct sched_entity *se = &prev->se;

	for_each_sched_entity(se)
		put_prev_entity(cfs_rq_of(se), se);
}

static void set_next_task_fair(struct rq *rq, struct task_struct *p, bool first)
{
	struct sched_entity *se = &p->se;

	for_each_sched_entity(se) {
		set_next_entity(cfs_rq_of(se), se, first);
		/* make sure the queue has runtime, or is rescheduled to be throttled */
		account_cfs_rq_runtime(cfs_rq_of(se), 0);
	}
	/* the most recently run task heads cfs_tasks: the balancer takes from the tail
	 * (before 3.8 the list kept the order of enqueues) */
	if (task_on_rq_queued(p) && !legacy_balance())
		cfs_tasks_move_head(rq, p);
	if (sched_feat(HRTICK))
		hrtick_start_fair(rq, p);
}

/* Same cfs_rq: the two entities are siblings. */
static struct cfs_rq *is_same_group(struct sched_entity *se, struct sched_entity *pse)
{
	return se->cfs_rq == pse->cfs_rq ? se->cfs_rq : NULL;
}

/*
 * Before 3.15 (678d5718d8d0) __schedule() put prev back and picked anew even
 * when prev was picked again, so set_next_entity() started it a new slice:
 * a task past its slice but still leftmost gets a whole one more, where later
 * releases reschedule it at every tick until another overtakes it.
 */
static void repick_prev_legacy(struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	for_each_sched_entity (se)
		put_prev_entity(cfs_rq_of(se), se);
	/* pick_next_task_fair()'s walk down, the top level first */
	for (int depth = 0; depth <= p->se.depth; depth++) {
		for (se = &p->se; se->depth != depth; se = parent_entity(se))
			;
		set_next_entity(cfs_rq_of(se), se, true);
	}
}

/*
 * From fair to fair, only the levels where prev's and next's ancestors
 * differ are put and set: the common ancestors keep running undisturbed.
 */
static struct task_struct *pick_next_task_fair(struct rq *rq, struct task_struct *prev)
{
	struct task_struct *p = pick_task_fair(rq);
	struct sched_entity *se, *pse;
	struct cfs_rq *cfs_rq;

	if (p && prev == p && sched_legacy_cfs() && !kernel_at_least(3, 15)) {
		repick_prev_legacy(p);
		return p;
	}
	if (!p || prev == p)
		return p;
	if (prev->sched_class != &fair_sched_class) {
		prev->sched_class->put_prev_task(rq, prev, p);
		set_next_task_fair(rq, p, true);
		return p;
	}
	se = &p->se;
	pse = &prev->se;
	while (!(cfs_rq = is_same_group(se, pse))) {
		int se_depth = se->depth, pse_depth = pse->depth;

		if (se_depth <= pse_depth) {
			put_prev_entity(cfs_rq_of(pse), pse);
			pse = parent_entity(pse);
		}
		if (se_depth >= pse_depth) {
			set_next_entity(cfs_rq_of(se), se, true);
			se = parent_entity(se);
		}
	}
	put_prev_entity(cfs_rq, pse);
	set_next_entity(cfs_rq, se, true);
	if (sched_feat(HRTICK))
		hrtick_start_fair(rq, p);
	return p;
}

/* ---- tick, yield, wakeup preemption ---- */

static void entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, int queued)
{
	update_curr(cfs_rq);
	update_load_avg(cfs_rq, curr, UPDATE_TG);
	update_cfs_group(curr);
	/* 6.18.17 to 6.18.21: pulls zero_vruntime along, which nothing else does while curr runs alone */
	if (avg_vruntime_moves_zero() && !zero_vruntime_at_slice_end())
		avg_vruntime(cfs_rq);

	/* hrticks are programmed at the slice end: just reschedule */
	if (queued) {
		resched_curr(rq_of(cfs_rq));
		return;
	}
	if (timer_queued(&rq_of(cfs_rq)->hrtick))
		return;
	if (sched_legacy_cfs() && cfs_rq->nr_running > 1)
		check_preempt_tick(cfs_rq, curr);
}

static void task_tick_fair(struct rq *rq, struct task_struct *curr, int queued)
{
	struct sched_entity *se = &curr->se;

	for_each_sched_entity(se)
		entity_tick(cfs_rq_of(se), se, queued);
}

static void yield_task_fair(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct sched_entity *se = &curr->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (rq->nr_running == 1)
		return;
	clear_buddies(cfs_rq, se);
	/* legacy CFS did not charge a yielding batch task */
	if (!sched_legacy_cfs() || curr->policy != SCHED_BATCH)
		update_curr(cfs_rq);
	if (sched_legacy_cfs())
		set_skip_buddy(se);	/* the next pick prefers the runner-up */
	else
		yield_entity_eevdf(cfs_rq, se);
}

/* The next pick on p's queue favours p (PICK_BUDDY if eligible; CFS within a wakeup granularity). */
static bool yield_to_task_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	/* throttled hierarchies are not runnable (a buddy there would be picked forever) */
	if (!se->on_rq || se->sched_delayed || throttled_hierarchy(cfs_rq_of(se)))
		return false;
	set_next_buddy(se);
	yield_task_fair(rq);
	return true;
}

/* Walk both up to the level where they are siblings: only siblings compete. */
void find_matching_se(struct sched_entity **se, struct sched_entity **pse)
{
	int se_depth = (*se)->depth, pse_depth = (*pse)->depth;

	while (se_depth > pse_depth) {
		se_depth--;
		*se = parent_entity(*se);
	}
	while (pse_depth > se_depth) {
		pse_depth--;
		*pse = parent_entity(*pse);
	}
	while (!is_same_group(*se, *pse)) {
		*se = parent_entity(*se);
		*pse = parent_entity(*pse);
	}
}

static void wakeup_preempt_fair(struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct task_struct *curr = rq->curr;

	if (curr == p)
		return;
	if (sched_legacy_cfs())
		check_preempt_wakeup_legacy(rq, p, wake_flags);
	else
		check_preempt_wakeup_eevdf(rq, p, wake_flags);
}

/* ---- weight changes ---- */

void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight)
{
	bool curr = cfs_rq->curr == se, rel_vprot = false;
	bool place = !sched_legacy_cfs() && reweight_places_entity();
	u64 avruntime = 0;
	s64 vprot = 0;

	if (se->on_rq) {
		update_curr(cfs_rq);
		if (place) {
			/* taken out with its lag and relative deadline, put back by place_entity() */
			update_entity_lag(cfs_rq, se);
			se->deadline -= se->vruntime;
			se->rel_deadline = 1;
			cfs_rq->nr_running--;
		} else if (!sched_legacy_cfs()) {
			avruntime = avg_vruntime(cfs_rq);
		}
		/* the protection is relative to vruntime before 101f3498b4bd, to V after */
		if (curr && reweight_scales_vprot() && protect_slice(se)) {
			vprot = (s64)(se->vprot - (place ? se->vruntime : avruntime));
			rel_vprot = true;
		}
		if (!curr)
			__dequeue_entity(cfs_rq, se);
		update_load_sub(&cfs_rq->load, se->load.weight);
	}
	dequeue_load_avg(cfs_rq, se);

	if (!sched_legacy_cfs() && se->on_rq && !place) {
		reweight_eevdf(se, avruntime, weight);
	} else if (!sched_legacy_cfs()) {
		se->vlag = reweight_scale(se->vlag, se->load.weight, weight);
		/* from 6d71a9c61604 a relative deadline is scaled too, queued or not; the revert kept it */
		if (se->rel_deadline && kernel_at_least(6, 13))
			se->deadline = (u64)reweight_scale((s64)se->deadline, se->load.weight, weight);
	}
	if (rel_vprot)
		vprot = reweight_scale(vprot, se->load.weight, weight);

	update_load_set(&se->load, weight);
	se->avg.load_avg = se_weight(se) * se->avg.load_sum / get_pelt_divider(&se->avg);
	enqueue_load_avg(cfs_rq, se);
	if (se->on_rq) {
		if (place)
			place_entity(cfs_rq, se, 0);
		if (rel_vprot)
			se->vprot = (place ? se->vruntime : avruntime) + (u64)vprot;
		update_load_add(&cfs_rq->load, se->load.weight);
		if (!curr)
			__enqueue_entity(cfs_rq, se);
		if (place)
			cfs_rq->nr_running++;
		if (!sched_legacy_cfs() && !zero_vruntime_follows_v())
			update_min_vruntime(cfs_rq);
	}
}

static void reweight_task_fair(struct rq *rq, struct task_struct *p, unsigned long weight, u32 inv)
{
	reweight_entity(cfs_rq_of(&p->se), &p->se, weight);
	p->se.load.inv_weight = inv;
}

static void task_fork_fair(struct task_struct *p)
{
	if (sched_legacy_cfs())
		task_fork_legacy(p);
}

const struct sched_class fair_sched_class = {
	.name = "fair",
	.enqueue_task = enqueue_task_fair,
	.dequeue_task = dequeue_task_fair,
	.yield_task = yield_task_fair,
	.yield_to_task = yield_to_task_fair,
	.wakeup_preempt = wakeup_preempt_fair,
	.pick_task = pick_task_fair,
	.pick_next_task = pick_next_task_fair,
	.put_prev_task = put_prev_task_fair,
	.set_next_task = set_next_task_fair,
	.task_tick = task_tick_fair,
	.reweight_task = reweight_task_fair,
	.task_fork = task_fork_fair,
	.task_change_group = task_change_group_fair,
};
