/*
 * The fair class (kernel/sched/fair.c): accounting, PELT hooks, enqueue,
 * dequeue, pick and tick, shared by EEVDF (eevdf.c) and the pre-6.6 CFS
 * pick (cfs_legacy.c). Runqueues are flat until task groups land: every
 * task entity sits on its CPU's root cfs_rq.
 */
#include "internal.h"

#define UPDATE_TG 0x1
#define SKIP_AGE_LOAD 0x2
#define DO_ATTACH 0x4
#define DO_DETACH 0x8

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

static void sub_positive_ul(unsigned long *p, unsigned long v)
{
	*p = *p > v ? *p - v : 0;
}

static void sub_positive_u64(u64 *p, u64 v)
{
	*p = *p > v ? *p - v : 0;
}

static void sub_positive_u32(u32 *p, u64 v)
{
	*p = *p > v ? (u32)(*p - v) : 0;
}

/* New tasks are assumed fully busy until they show otherwise. */
void init_entity_runnable_average(struct sched_entity *se)
{
	struct sched_avg *sa = &se->avg;

	*sa = (struct sched_avg){ 0 };
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

static void enqueue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->avg.load_avg += se->avg.load_avg;
	cfs_rq->avg.load_sum += se_weight(se) * se->avg.load_sum;
}

static void dequeue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	sub_positive_ul(&cfs_rq->avg.load_avg, se->avg.load_avg);
	sub_positive_u64(&cfs_rq->avg.load_sum, se_weight(se) * se->avg.load_sum);
	/* rounding can leave sum below avg * min divider; keep them consistent */
	cfs_rq->avg.load_sum = MAX((u32)cfs_rq->avg.load_sum,
				   (u32)(cfs_rq->avg.load_avg * PELT_MIN_DIVIDER));
}

static int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs_rq)
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

		cfs_rq->removed.load_avg = cfs_rq->removed.util_avg = 0;
		cfs_rq->removed.runnable_avg = 0;
		cfs_rq->removed.nr = 0;
		decayed = 1;
	}
	decayed |= __update_load_avg_cfs_rq(now, cfs_rq);
	return decayed;
}

static void attach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
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
}

void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 now = rq_clock_pelt(rq_of(cfs_rq));

	if (se->avg.last_update_time && !(flags & SKIP_AGE_LOAD))
		__update_load_avg_se(now, cfs_rq, se);

	update_cfs_rq_load_avg(now, cfs_rq);

	if (!se->avg.last_update_time && (flags & DO_ATTACH))
		attach_entity_load_avg(cfs_rq, se);
	else if (flags & DO_DETACH)
		detach_entity_load_avg(cfs_rq, se);
}

/* ---- runqueue accounting ---- */

void init_cfs_rq(struct cfs_rq *cfs_rq, struct rq *rq)
{
	cfs_rq->rq = rq;
	/* The kernel starts min_vruntime just below the u64 wrap to catch wrap bugs. */
	cfs_rq->min_vruntime = (u64)(-(1LL << 20));
}

static void account_entity_enqueue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_add(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_running++;
	cfs_tasks_add(rq_of(cfs_rq), task_of(se));
}

static void account_entity_dequeue(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	update_load_sub(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_running--;
	cfs_tasks_del(rq_of(cfs_rq), task_of(se));
}

void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->next == se)
		cfs_rq->next = NULL;
	if (cfs_rq->last == se)
		cfs_rq->last = NULL;
	if (cfs_rq->skip == se)
		cfs_rq->skip = NULL;
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

	curr->vruntime += calc_delta_fair((u64)delta_exec, curr);

	if (sched_legacy_cfs()) {
		update_min_vruntime_legacy(cfs_rq);
		return;
	}

	resched = update_deadline(cfs_rq, curr);
	if (!kernel_at_least(6, 19))
		update_min_vruntime(cfs_rq);

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

static void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
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
		account_entity_enqueue(cfs_rq, se);
		if (flags & ENQUEUE_WAKEUP)
			place_entity_legacy(cfs_rq, se, 0);
	} else {
		/* The current task is placed before update_curr() moves V. */
		if (curr)
			place_entity(cfs_rq, se, flags);
		update_curr(cfs_rq);
		update_load_avg(cfs_rq, se, UPDATE_TG | DO_ATTACH);
		if (!curr)
			place_entity(cfs_rq, se, flags);
		account_entity_enqueue(cfs_rq, se);
	}
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;
	if (!curr)
		__enqueue_entity(cfs_rq, se);
	se->on_rq = 1;
}

/* Returns false when DELAY_DEQUEUE keeps a sleeping, ineligible entity queued. */
static bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	bool sleep = flags & DEQUEUE_SLEEP;

	update_curr(cfs_rq);
	clear_buddies(cfs_rq, se);

	if (!sched_legacy_cfs() && !(flags & DEQUEUE_DELAYED) && sleep &&
	    !(flags & DEQUEUE_SPECIAL) && sched_feat(DELAY_DEQUEUE) &&
	    kernel_at_least(6, 12) && !entity_eligible(cfs_rq, se)) {
		update_load_avg(cfs_rq, se, 0);
		se->sched_delayed = 1;
		cfs_rq->h_nr_delayed++;
		return false;
	}

	/* a task pulled by the balancer takes its load along */
	update_load_avg(cfs_rq, se, UPDATE_TG |
			(task_of(se)->on_rq == TASK_ON_RQ_MIGRATING ? DO_DETACH : 0));

	if (sched_legacy_cfs()) {
		if (se != cfs_rq->curr)
			__dequeue_entity(cfs_rq, se);
		se->on_rq = 0;
		account_entity_dequeue(cfs_rq, se);
		/* Keep it relative so it can be re-based on whatever queue it joins next. */
		if (!sleep)
			se->vruntime -= cfs_rq->min_vruntime;
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

	if (flags & DEQUEUE_DELAYED) {
		se->sched_delayed = 0;
		cfs_rq->h_nr_delayed--;
		if (sched_feat(DELAY_ZERO) && se->vlag > 0)
			se->vlag = 0;
	}
	if (!kernel_at_least(6, 19) && (flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime(cfs_rq);
	return true;
}

static void hrtick_start_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	if (rq->cfs.h_nr_running > 1) {
		u64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;
		u64 slice = sched_legacy_cfs() ? sched_slice(&rq->cfs, se) : se->slice;
		s64 delta = (s64)(slice - ran);

		if (delta < 0) {
			if (task_current(rq, p))
				resched_curr(rq);
			return;
		}
		hrtick_start(rq, (u64)delta);
	}
}

static void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	if (flags & ENQUEUE_DELAYED) {
		requeue_delayed_entity(se);
		return;
	}
	enqueue_entity(cfs_rq, se, flags);
	cfs_rq->h_nr_running++;
	if (se->sched_delayed)	/* kept delayed across a SAVE/RESTORE change */
		cfs_rq->h_nr_delayed++;
	if (task_has_idle_policy(p))
		cfs_rq->idle_h_nr_running++;
	rq->nr_running++;
	if (sched_feat(HRTICK) && rq->curr->sched_class == &fair_sched_class)
		hrtick_start_fair(rq, rq->curr);
}

/* False when the task stays queued as a delayed dequeue. */
static bool dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	bool was_delayed = se->sched_delayed;

	if (!dequeue_entity(cfs_rq, se, flags))
		return false;
	cfs_rq->h_nr_running--;
	if (was_delayed && !(flags & DEQUEUE_DELAYED))
		cfs_rq->h_nr_delayed--;
	if (task_has_idle_policy(p))
		cfs_rq->idle_h_nr_running--;
	rq->nr_running--;
	return true;
}

/* ---- pick ---- */

static void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	clear_buddies(cfs_rq, se);
	/* 'current' is kept out of the timeline. */
	if (se->on_rq) {
		__dequeue_entity(cfs_rq, se);
		update_load_avg(cfs_rq, se, UPDATE_TG);
		if (!sched_legacy_cfs())
			set_protect_slice(cfs_rq, se);
	}
	se->exec_start = rq_clock_task(rq_of(cfs_rq));	/* update_stats_curr_start() */
	cfs_rq->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

static void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev)
{
	if (prev->on_rq) {
		update_curr(cfs_rq);
		__enqueue_entity(cfs_rq, prev);
		update_load_avg(cfs_rq, prev, 0);
	}
	cfs_rq->curr = NULL;
}

static struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq)
{
	struct sched_entity *se;

	if (sched_legacy_cfs()) {
		struct sched_entity *curr = cfs_rq->curr;
		if (curr && !curr->on_rq)
			curr = NULL;
		return pick_next_entity_legacy(cfs_rq, curr);
	}

	/* The next buddy changes latency, not fairness. */
	if (sched_feat(PICK_BUDDY) && kernel_at_least(6, 12) && cfs_rq->next &&
	    entity_eligible(cfs_rq, cfs_rq->next))
		return cfs_rq->next;

	se = pick_eevdf(cfs_rq);
	if (se->sched_delayed) {
		/* It blocked while ineligible; now that it is chosen, it finally leaves. */
		struct task_struct *p = task_of(se);

		dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		p->on_rq = 0;
		return NULL;
	}
	return se;
}

static struct task_struct *pick_task_fair(struct rq *rq)
{
	struct cfs_rq *cfs_rq = &rq->cfs;
	struct sched_entity *se;

again:
	if (!cfs_rq->nr_running)
		return NULL;
	if (cfs_rq->curr && cfs_rq->curr->on_rq)
		update_curr(cfs_rq);
	se = pick_next_entity(rq, cfs_rq);
	if (!se)
		goto again;
	return task_of(se);
}

static void put_prev_task_fair(struct rq *rq, struct task_struct *prev)
{
	put_prev_entity(&rq->cfs, &prev->se);
}

static void set_next_task_fair(struct rq *rq, struct task_struct *p)
{
	set_next_entity(&rq->cfs, &p->se);
	/* the most recently run task heads cfs_tasks: the balancer takes from the tail */
	if (task_on_rq_queued(p))
		cfs_tasks_move_head(rq, p);
	if (sched_feat(HRTICK))
		hrtick_start_fair(rq, p);
}

/* ---- tick, yield, wakeup preemption ---- */

static void entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, int queued)
{
	update_curr(cfs_rq);
	update_load_avg(cfs_rq, curr, UPDATE_TG);

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
	entity_tick(&rq->cfs, &curr->se, queued);
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
		cfs_rq->skip = se;	/* the next pick prefers the runner-up */
	else
		yield_entity_eevdf(cfs_rq, se);
}

/* The next pick on p's queue favours p (PICK_BUDDY if eligible; CFS within a wakeup granularity). */
static bool yield_to_task_fair(struct rq *rq, struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	if (!se->on_rq || se->sched_delayed)
		return false;
	if (!se_is_idle(se))
		cfs_rq_of(se)->next = se;
	yield_task_fair(rq);
	return true;
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

static void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight)
{
	bool curr = cfs_rq->curr == se;
	u64 avruntime = 0;

	if (se->on_rq) {
		update_curr(cfs_rq);
		if (!sched_legacy_cfs())
			avruntime = avg_vruntime(cfs_rq);
		if (!curr)
			__dequeue_entity(cfs_rq, se);
		update_load_sub(&cfs_rq->load, se->load.weight);
	}
	dequeue_load_avg(cfs_rq, se);

	if (!sched_legacy_cfs()) {
		if (se->on_rq)
			reweight_eevdf(se, avruntime, weight);
		else
			se->vlag = (s64)((__int128)se->vlag * (s64)se->load.weight / (s64)weight);
	}

	update_load_set(&se->load, weight);
	se->avg.load_avg = se_weight(se) * se->avg.load_sum / get_pelt_divider(&se->avg);
	enqueue_load_avg(cfs_rq, se);
	if (se->on_rq) {
		update_load_add(&cfs_rq->load, se->load.weight);
		if (!curr)
			__enqueue_entity(cfs_rq, se);
		if (!sched_legacy_cfs() && !kernel_at_least(6, 19))
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
	.put_prev_task = put_prev_task_fair,
	.set_next_task = set_next_task_fair,
	.task_tick = task_tick_fair,
	.reweight_task = reweight_task_fair,
	.task_fork = task_fork_fair,
};
