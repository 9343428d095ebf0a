// SPDX-License-Identifier: GPL-2.0
/*
 * The fair class before EEVDF (2.6.23 - 6.5; rules of 6.1, and of 3.x when
 * the scenario says so): slices from sched_latency, a monotonic
 * min_vruntime, sleeper credit, tick preemption and the next/last/skip
 * buddies.
 */
#include "internal.h"

/* Until 3.13 the scaling was calc_delta_mine(): rounded, from an inverse of 2^32. */
static u64 cfs_calc_delta(u64 delta, unsigned long weight, struct load_weight *lw)
{
	if (!kernel_at_least(3, 14))
		return calc_delta_mine(delta, weight, lw);
	return __calc_delta(delta, weight, lw);
}

/* calc_delta_fair() of the release: wall time to virtual time. */
u64 cfs_calc_delta_fair(u64 delta, struct sched_entity *se)
{
	if (se->load.weight != NICE_0_LOAD)
		delta = cfs_calc_delta(delta, NICE_0_LOAD, &se->load);
	return delta;
}

/* sched_nr_latency = ceil(latency / min_granularity), as sched_update_scaling() keeps it. */
u64 sched_nr_latency(void)
{
	u64 lat = sysctl(TUN_LATENCY), gran = sysctl(TUN_MIN_GRANULARITY);

	return (lat + gran - 1) / gran;
}

/* Past nr_latency tasks the period stretches so each gets min_granularity. */
static u64 __sched_period(u64 nr_running)
{
	if (nr_running > sched_nr_latency())
		return nr_running * sysctl(TUN_MIN_GRANULARITY);
	return sysctl(TUN_LATENCY);
}

static bool sched_idle_cfs_rq(struct cfs_rq *cfs_rq)
{
	return cfs_rq->nr_running && cfs_rq->nr_running == cfs_rq->idle_h_nr_running;
}

/* The wall-time share of the period this entity is due. */
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	unsigned int nr_running = cfs_rq->nr_running;
	struct sched_entity *init_se = se;
	u64 slice;

	if (sched_feat(ALT_PERIOD))
		nr_running = rq_of(cfs_rq)->cfs.h_nr_running;
	slice = __sched_period(nr_running + !se->on_rq);

	/* the group's share of the period, then the entity's share of the group's */
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);
		struct load_weight *load = &qcfs_rq->load, lw;

		if (!se->on_rq) {
			lw = qcfs_rq->load;
			update_load_add(&lw, se->load.weight);
			load = &lw;
		}
		slice = cfs_calc_delta(slice, se->load.weight, load);
	}

	if (sched_feat(BASE_SLICE)) {
		u64 min_gran = se_is_idle(init_se) && !sched_idle_cfs_rq(cfs_rq) ?
				       sysctl(TUN_IDLE_MIN_GRANULARITY) :
				       sysctl(TUN_MIN_GRANULARITY);
		slice = MAX(slice, min_gran);
	}
	return slice;
}

static u64 sched_vslice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return cfs_calc_delta_fair(sched_slice(cfs_rq, se), se);
}

/* min_vruntime only moves forward: the floor for placement and migration. */
void update_min_vruntime_legacy(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *left = __pick_first_entity(cfs_rq);
	u64 vruntime = cfs_rq->min_vruntime;

	if (curr) {
		if (curr->on_rq)
			vruntime = curr->vruntime;
		else
			curr = NULL;
	}
	if (left) {
		if (!curr || (s64)(left->vruntime - vruntime) < 0)
			vruntime = left->vruntime;
	}
	if ((s64)(vruntime - cfs_rq->min_vruntime) > 0)
		cfs_rq->min_vruntime = vruntime;
}

/*
 * A fork starts one virtual slice behind (START_DEBIT); a wakeup gets at
 * most half a latency period of credit (GENTLE_FAIR_SLEEPERS) and never
 * moves backwards.
 */
void place_entity_legacy(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial)
{
	u64 vruntime = cfs_rq->min_vruntime;

	if (initial && sched_feat(START_DEBIT))
		vruntime += sched_vslice(cfs_rq, se);

	if (!initial) {
		/* 5.15 gave SCHED_IDLE sleepers the smaller credit */
		u64 thresh = se_is_idle(se) && kernel_at_least(5, 15) ? sysctl(TUN_MIN_GRANULARITY) :
									 sysctl(TUN_LATENCY);

		if (sched_feat(GENTLE_FAIR_SLEEPERS))
			thresh >>= 1;
		vruntime -= thresh;
	}
	if ((s64)(vruntime - se->vruntime) > 0)
		se->vruntime = vruntime;
}

/*
 * On the parent's CPU, before placement: the child starts at the parent's
 * vruntime, or a virtual slice behind min_vruntime if that is later. The
 * parent is the task running there (for the scenario's launcher, whatever
 * runs on CPU 0 stands for it, as in LinSched, whose harness forks from the
 * current task), or none on an idle CPU.
 */
void task_fork_legacy(struct task_struct *p)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	update_curr(cfs_rq);
	se->vruntime = cfs_rq->curr ? cfs_rq->curr->vruntime : cfs_rq->min_vruntime;
	place_entity_legacy(cfs_rq, se, 1);
	/* Stored relative; the enqueue on whatever CPU it lands re-bases it. */
	se->vruntime -= cfs_rq->min_vruntime;
}

/* -1: se is behind curr; 1: ahead by more than a wakeup granularity; 0: within it. */
static int wakeup_preempt_entity(struct sched_entity *curr, struct sched_entity *se)
{
	s64 gran, vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	/* in the wakee's virtual units, which penalises light wakees */
	gran = (s64)cfs_calc_delta_fair(sysctl(TUN_WAKEUP_GRANULARITY), se);
	if (vdiff > gran)
		return 1;
	return 0;
}

void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	u64 ideal_runtime = sched_slice(cfs_rq, curr);
	u64 delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;
	struct sched_entity *se;
	s64 delta;

	if (delta_exec > ideal_runtime) {
		resched_curr(rq_of(cfs_rq));
		clear_buddies(cfs_rq, curr);
		return;
	}
	/* Guarantee a minimum run so a wakeup cannot slice it into nothing. */
	if (delta_exec < sysctl(TUN_MIN_GRANULARITY))
		return;
	se = __pick_first_entity(cfs_rq);
	delta = (s64)(curr->vruntime - se->vruntime);
	if (delta < 0)
		return;
	/* a virtual difference against a wall-clock slice, as the kernel compares them */
	if ((u64)delta > ideal_runtime)
		resched_curr(rq_of(cfs_rq));
}

struct sched_entity *pick_next_entity_legacy(struct cfs_rq *cfs_rq, struct sched_entity *curr, int *why)
{
	struct sched_entity *left = __pick_first_entity(cfs_rq);
	struct sched_entity *se;

	if (!left || (curr && (s64)(curr->vruntime - left->vruntime) < 0))
		left = curr;
	se = left;
	*why = PICK_LEFTMOST;

	/* Avoid the yielder if the runner-up is not too far ahead. */
	if (cfs_rq->skip && cfs_rq->skip == se) {
		struct sched_entity *second;

		if (se == curr) {
			second = __pick_first_entity(cfs_rq);
		} else {
			second = __pick_next_entity(se);
			if (!second || (curr && (s64)(curr->vruntime - second->vruntime) < 0))
				second = curr;
		}
		if (second && wakeup_preempt_entity(second, left) < 1) {
			se = second;
			*why = PICK_SKIP_SECOND;
		}
	}
	/* The wakee, then the preempted task, unless that would be too unfair. */
	if (cfs_rq->next && wakeup_preempt_entity(cfs_rq->next, left) < 1) {
		se = cfs_rq->next;
		*why = PICK_NEXT_BUDDY;
	} else if (cfs_rq->last && wakeup_preempt_entity(cfs_rq->last, left) < 1) {
		se = cfs_rq->last;
		*why = PICK_LAST_BUDDY;
	}
	return se;
}

void check_preempt_wakeup_legacy(struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct task_struct *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	bool scale = cfs_rq_of(se)->nr_running >= sched_nr_latency();
	bool next_buddy_marked = false;

	if (throttled_hierarchy(cfs_rq_of(pse)))
		return;
	if (sched_feat(NEXT_BUDDY) && scale && !(wake_flags & WF_FORK)) {
		set_next_buddy(pse);
		next_buddy_marked = true;
	}
	if (rq->need_resched)
		return;
	/* Idle tasks are by definition preempted by non-idle tasks. */
	if (task_has_idle_policy(curr) && !task_has_idle_policy(p))
		goto preempt;
	/* Batch and idle tasks are preempted by the tick, never by a wakeup. */
	if (p->policy != SCHED_NORMAL || !sched_feat(WAKEUP_PREEMPTION))
		return;

	find_matching_se(&se, &pse);
	if (se_is_idle(se) && !se_is_idle(pse))
		goto preempt;
	if (se_is_idle(se) != se_is_idle(pse))
		return;

	update_curr(cfs_rq_of(se));
	if (wakeup_preempt_entity(se, pse) == 1) {
		if (!next_buddy_marked)
			set_next_buddy(pse);
		goto preempt;
	}
	return;

preempt:
	resched_curr(rq);
	if (!se->on_rq)
		return;
	if (sched_feat(LAST_BUDDY) && scale && entity_is_task(se))
		set_last_buddy(se);
}
