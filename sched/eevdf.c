// SPDX-License-Identifier: GPL-2.0
/*
 * EEVDF (kernel/sched/fair.c, 6.6 onwards): the weighted average V, lag,
 * eligibility, virtual deadlines, placement, the pick, slice protection and
 * wakeup preemption, with each release's variant selected by E->kernel.
 */
#include "internal.h"

static s64 div_s64_trunc(s64 a, s64 b)
{
	return a / b;
}

/* V - v0: Σ key·w / Σ w over the queue including curr, floored. */
static s64 avg_vruntime_delta(const struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	s64 avg = cfs_rq->avg_vruntime;
	s64 load = (s64)cfs_rq->avg_load;
	s64 delta = 0;

	if (curr && !curr->on_rq)
		curr = NULL;

	if (load) {
		if (curr) {
			unsigned long w = scale_load_down(curr->load.weight);
			avg += entity_key(cfs_rq, curr) * (s64)w;
			load += (s64)w;
		}
		if (avg < 0)
			avg -= (load - 1);
		delta = div_s64_trunc(avg, load);
	} else if (curr) {
		delta = entity_key(cfs_rq, curr);
	}
	return delta;
}

/* V without moving the reference: for readers, who must not change the state. */
u64 avg_vruntime_peek(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->min_vruntime + (u64)avg_vruntime_delta(cfs_rq);
}

/* v0 += d: Σ key·w shifts by -d·Σ w, so V stays where it is (avg_vruntime_update()). */
static void shift_zero_vruntime(struct cfs_rq *cfs_rq, s64 delta)
{
	cfs_rq->avg_vruntime -= (s64)cfs_rq->avg_load * delta;
	cfs_rq->min_vruntime += (u64)delta;
}

/*
 * V; the floor makes an entity placed exactly at V test eligible. From 6.18.17 the
 * reference v0 (zero_vruntime) is moved to V on every call.
 */
u64 avg_vruntime(struct cfs_rq *cfs_rq)
{
	s64 delta = avg_vruntime_delta(cfs_rq);

	if (!avg_vruntime_moves_zero())
		return cfs_rq->min_vruntime + (u64)delta;
	shift_zero_vruntime(cfs_rq, delta);
	return cfs_rq->min_vruntime;
}

/*
 * 6.18.4 to 6.18.16 and 6.19: __enqueue_entity() and __dequeue_entity() move v0 to V as
 * they see it, before set_next_entity() makes the entity curr and before put_prev_entity()
 * stops counting it as curr (what b3d99f43c72b found inconsistent).
 */
void update_zero_vruntime(struct cfs_rq *cfs_rq)
{
	if (zero_vruntime_follows_v() && !avg_vruntime_moves_zero())
		shift_zero_vruntime(cfs_rq, avg_vruntime_delta(cfs_rq));
}

/* v <= V, tested without dividing: Σ key·w >= (v - v0)·Σ w. */
static int vruntime_eligible(struct cfs_rq *cfs_rq, u64 vruntime)
{
	struct sched_entity *curr = cfs_rq->curr;
	s64 avg = cfs_rq->avg_vruntime;
	s64 load = (s64)cfs_rq->avg_load;

	if (curr && curr->on_rq) {
		unsigned long weight = scale_load_down(curr->load.weight);
		avg += entity_key(cfs_rq, curr) * (s64)weight;
		load += (s64)weight;
	}
	return avg >= (s64)(vruntime - cfs_rq->min_vruntime) * load;
}

int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return vruntime_eligible(cfs_rq, se->vruntime);
}

/*
 * Lag is clamped to what one request (or a tick) can owe: twice the entity's slice, from
 * 6.18.17 the longest slice on the queue (EEVDF's -r_max < lag < max(r_max, q)) plus a tick.
 */
static s64 entity_lag(struct cfs_rq *cfs_rq, u64 avruntime, struct sched_entity *se)
{
	s64 vlag = (s64)(avruntime - se->vruntime);
	u64 max_slice = MAX(2 * se->slice, TICK_NSEC);
	s64 limit;

	/* se counts as queued, as in the kernel, where reweight_entity() takes it out after */
	if (lag_clamp_max_slice())
		max_slice = MAX(cfs_rq_max_slice(cfs_rq), se->slice) + TICK_NSEC;
	limit = (s64)calc_delta_fair(max_slice, se);

	return vlag < -limit ? -limit : vlag > limit ? limit : vlag;
}

void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	SCHED_WARN_ON(!se->on_rq);
	se->vlag = entity_lag(cfs_rq, avg_vruntime(cfs_rq), se);
}

/* A used-up request gets a new deadline from the current vruntime; true = resched. */
bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if ((s64)(se->vruntime - se->deadline) < 0)
		return false;
	if (!se->custom_slice)
		se->slice = sysctl(TUN_BASE_SLICE);
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	if (zero_vruntime_at_slice_end())
		avg_vruntime(cfs_rq);
	/* 6.6-6.11 rescheduled from here, and only with company. */
	if (!kernel_at_least(6, 12) && cfs_rq->nr_running > 1) {
		resched_curr(rq_of(cfs_rq));
		clear_buddies(cfs_rq, se);
	}
	return true;
}

/* Before 6.19: a monotonic minimum of the queued vruntimes. */
void update_min_vruntime(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *se;
	u64 vruntime = cfs_rq->min_vruntime;
	bool have = false;

	if (curr && curr->on_rq) {
		vruntime = curr->vruntime;
		have = true;
	}
	se = __pick_first_entity(cfs_rq);
	if (se && (!have || (s64)(timeline_min_vruntime(cfs_rq) - vruntime) < 0))
		vruntime = timeline_min_vruntime(cfs_rq);
	s64 delta = (s64)(vruntime - cfs_rq->min_vruntime);
	if (delta > 0) {
		cfs_rq->avg_vruntime -= (s64)cfs_rq->avg_load * delta;
		cfs_rq->min_vruntime = vruntime;
	}
}

u64 cfs_rq_min_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	u64 min_slice = ~0ULL;

	if (curr && curr->on_rq)
		min_slice = curr->slice;
	if (__pick_first_entity(cfs_rq))
		min_slice = MIN(min_slice, timeline_min_slice(cfs_rq));
	return min_slice;
}

/* The longest slice of curr and the queued: the augmented max_slice of 6e3c0a4e1ad1. */
u64 cfs_rq_max_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;
	u64 max_slice = 0;

	if (curr && curr->on_rq)
		max_slice = curr->slice;
	if (__pick_first_entity(cfs_rq))
		max_slice = MAX(max_slice, timeline_max_slice(cfs_rq));
	return max_slice;
}

/* ---- placement ---- */

void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	u64 vslice, vruntime = avg_vruntime(cfs_rq);
	s64 lag = 0;

	if (!se->custom_slice)
		se->slice = sysctl(TUN_BASE_SLICE);
	vslice = calc_delta_fair(se->slice, se);

	/*
	 * Inserting an entity with lag vl moves V by -w·vl/(W+w); inflating
	 * the lag by (W+w)/W makes its lag after insertion the saved one.
	 */
	if (sched_feat(PLACE_LAG) && cfs_rq->nr_running) {
		struct sched_entity *curr = cfs_rq->curr;
		s64 load = (s64)cfs_rq->avg_load;

		lag = se->vlag;
		if (curr && curr->on_rq)
			load += (s64)scale_load_down(curr->load.weight);
		lag *= load + (s64)scale_load_down(se->load.weight);
		if (!load)
			load = 1;
		lag = div_s64_trunc(lag, load);
	}

	se->vruntime = vruntime - (u64)lag;

	/* with reweight_places_entity() a relative deadline is honoured without the feature */
	if ((sched_feat(PLACE_REL_DEADLINE) || reweight_places_entity()) && kernel_at_least(6, 12) &&
	    se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = 0;
		return;
	}
	/* Newcomers start halfway through a request, like the average queued task. */
	if (sched_feat(PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

/* ---- slice protection (RUN_TO_PARITY) ---- */

/*
 * 6.6-6.16: vlag doubles as a marker while curr; protected until a new
 * deadline is issued. 6.17+: protected until vprot, which honours the
 * shortest slice queued.
 */
void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (!kernel_at_least(6, 17)) {
		se->vlag = (s64)se->deadline;
		return;
	}
	u64 slice = sched_feat(RUN_TO_PARITY) ? cfs_rq_min_slice(cfs_rq) : ST->normalized_base_slice;

	slice = MIN(slice, se->slice);
	se->vprot = se->deadline;
	if (slice != se->slice) {
		u64 v = se->vruntime + calc_delta_fair(slice, se);
		if ((s64)(v - se->vprot) < 0)
			se->vprot = v;
	}
}

static void update_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	u64 slice = cfs_rq_min_slice(cfs_rq);
	u64 v = se->vruntime + calc_delta_fair(slice, se);

	if ((s64)(v - se->vprot) < 0)
		se->vprot = v;
}

bool protect_slice(struct sched_entity *se)
{
	if (!kernel_at_least(6, 17))
		return se->vlag == (s64)se->deadline;
	return (s64)(se->vprot - se->vruntime) > 0;
}

void cancel_protect_slice(struct sched_entity *se)
{
	if (!kernel_at_least(6, 17)) {
		if (protect_slice(se))
			se->vlag = (s64)se->deadline + 1;
		return;
	}
	se->vprot = se->vruntime;
}

/* ---- the pick ---- */

/*
 * Among eligible entities the earliest virtual deadline; curr competes
 * only while eligible, and keeps the CPU while its slice is protected.
 * *why (enum sched_pick_why) says which rule decided; the queries ask the
 * same function, so what a view says is what the engine does.
 */
static struct sched_entity *__pick_eevdf(struct cfs_rq *cfs_rq, bool protect, int *why)
{
	struct sched_entity *curr = cfs_rq->curr;
	struct sched_entity *best = NULL, *se;

	if (cfs_rq->nr_running == 1) {
		*why = PICK_ONLY;
		return curr && curr->on_rq ? curr : __pick_first_entity(cfs_rq);
	}

	if (wakeup_preempt_rework() && sched_feat(PICK_BUDDY) && cfs_rq->next &&
	    entity_eligible(cfs_rq, cfs_rq->next)) {
		*why = PICK_NEXT_BUDDY;
		return cfs_rq->next;
	}

	if (curr && (!curr->on_rq || !entity_eligible(cfs_rq, curr)))
		curr = NULL;

	if (curr && protect && protect_slice(curr) && (kernel_at_least(6, 17) || sched_feat(RUN_TO_PARITY))) {
		*why = PICK_PROTECTED;
		return curr;
	}

	/* The timeline is in deadline order: the first eligible one wins. */
	list_for_each_entry (se, &cfs_rq->tl_list, tl_node) {
		if (entity_eligible(cfs_rq, se)) {
			best = se;
			break;
		}
	}
	*why = PICK_EARLIEST;
	if (!best || (curr && (s64)(curr->deadline - best->deadline) < 0))
		best = curr;
	return best;
}

struct sched_entity *pick_eevdf_why(struct cfs_rq *cfs_rq, int *why)
{
	return __pick_eevdf(cfs_rq, true, why);
}

struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq, bool protect)
{
	int why;

	return __pick_eevdf(cfs_rq, protect, &why);
}

/* ---- preemption ---- */

/* 6.12-6.16: a short-slice wakee may end curr's protection early. */
bool did_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *curr)
{
	if (!sched_feat(PREEMPT_SHORT) || !kernel_at_least(6, 12))
		return false;
	if (protect_slice(curr))
		return false;
	return !entity_eligible(cfs_rq, curr);
}

static bool do_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *pse,
			     struct sched_entity *se)
{
	if (!sched_feat(PREEMPT_SHORT))
		return false;
	if (pse->slice >= se->slice)
		return false;
	if (!entity_eligible(cfs_rq, pse))
		return false;
	if ((s64)(pse->deadline - se->deadline) < 0)
		return true;
	if (!entity_eligible(cfs_rq, se))
		return true;
	return false;
}

/*
 * The entity the wakee must be to preempt. From 6.18.33 (mainline's
 * ac8e69e69363 and 9f6d929ee2c6, after 7.0) it is what pick_next_entity()
 * takes: a delayed entity it meets is past its 0-lag point and leaves the
 * queue, and the pick goes on, where __pick_eevdf() lets it hide the wakee.
 */
static struct sched_entity *wakeup_pick(struct rq *rq, struct cfs_rq *cfs_rq, bool protect, int *why)
{
	struct sched_entity *nse;

	if (!stable_at_least(6, 18, 33))
		return __pick_eevdf(cfs_rq, protect, why);
	do {
		nse = pick_next_entity(rq, cfs_rq, protect);
	} while (!nse && cfs_rq->nr_running);
	return nse;
}

void check_preempt_wakeup_eevdf(struct rq *rq, struct task_struct *p, int wake_flags)
{
	struct task_struct *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	struct cfs_rq *cfs_rq;
	bool preempt_short = false;
	int why;

	if (throttled_hierarchy(cfs_rq_of(pse)))
		return;
	if (!wakeup_preempt_rework() && sched_feat(NEXT_BUDDY) && !(wake_flags & WF_FORK) &&
	    !pse->sched_delayed)
		set_next_buddy(pse);

	if (rq->need_resched || !sched_feat(WAKEUP_PREEMPTION))
		return;

	find_matching_se(&se, &pse);
	/* A non-idle entity always preempts an idle one, never the reverse. */
	if (se_is_idle(se) && !se_is_idle(pse)) {
		if (kernel_at_least(6, 12))
			cancel_protect_slice(se);
		goto preempt;
	}
	if (se_is_idle(se) != se_is_idle(pse))
		return;
	/* BATCH and IDLE tasks do not preempt others. */
	if (!normal_policy(p->policy))
		return;

	cfs_rq = cfs_rq_of(se);
	update_curr(cfs_rq);

	if (wakeup_preempt_rework()) {
		if (sched_feat(PREEMPT_SHORT) && pse->slice < se->slice) {
			preempt_short = true;
			goto pick;
		}
		/* no preemption by a fork or by an entity still delayed */
		if ((wake_flags & WF_FORK) || pse->sched_delayed)
			return;
		if (sched_feat(NEXT_BUDDY) &&
		    !(cfs_rq->next && (s64)(cfs_rq->next->deadline - pse->deadline) < 0))
			set_next_buddy(pse);
pick:
		if (wakeup_pick(rq, cfs_rq, !preempt_short, &why) == pse)
			goto preempt;
		if (sched_feat(RUN_TO_PARITY))
			update_protect_slice(cfs_rq, se);
		return;
	}

	if (kernel_at_least(6, 17)) {
		preempt_short = sched_feat(PREEMPT_SHORT) && pse->slice < se->slice;
		if (__pick_eevdf(cfs_rq, !preempt_short, &why) == pse)
			goto preempt;
		if (sched_feat(RUN_TO_PARITY) && preempt_short)
			update_protect_slice(cfs_rq, se);
		return;
	}

	/* 6.12: the short-slice wakee strips curr's protection even if it loses. */
	if (kernel_at_least(6, 12) && do_preempt_short(cfs_rq, pse, se))
		cancel_protect_slice(se);
	if (pick_eevdf(cfs_rq, true) == pse)
		goto preempt;
	return;

preempt:
	if (preempt_short)
		cancel_protect_slice(se);
	resched_curr(rq);
}

/* ---- yield, reweight, delayed requeue ---- */

/* What EEVDF's yield_task_fair() does to the yielding entity. */
void yield_entity_eevdf(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (yield_forfeits_request()) {
		/* Forfeit the rest of the request, but only while eligible. */
		if (entity_eligible(cfs_rq, se)) {
			se->vruntime = se->deadline;
			if (zero_vruntime_at_slice_end()) {
				update_deadline(cfs_rq, se);
				return;
			}
			se->deadline += calc_delta_fair(se->slice, se);
			/* 6.18.2 and 6.18.3 forfeit with min_vruntime still the reference */
			if (!zero_vruntime_follows_v())
				update_min_vruntime(cfs_rq);
		}
		return;
	}
	/* Push the request one slice later: still eligible, but it loses the race. */
	se->deadline += calc_delta_fair(se->slice, se);
	update_min_vruntime(cfs_rq);
}

/*
 * v * old_weight / weight without overflow: in 64 bits when the product
 * fits (the kernel's div_s64()), which is nearly always and spares a call
 * to the 128-bit division; the quotient is the same either way.
 */
s64 reweight_scale(s64 v, unsigned long old_weight, unsigned long weight)
{
	s64 prod;

	if (!__builtin_mul_overflow(v, (s64)old_weight, &prod))
		return prod / (s64)weight;
	return (s64)((__int128)v * (s64)old_weight / (s64)weight);
}

/*
 * Keep w·lag constant across a weight change (6.7 to 6.12, and again from
 * 101f3498b4bd: reweight_places_entity()), which leaves V where
 * it was; 6.6 only rescaled the relative deadline.
 */
void reweight_eevdf(struct sched_entity *se, u64 avruntime, unsigned long weight)
{
	unsigned long old_weight = se->load.weight;
	s64 vlag, vslice;

	if (kernel_at_least(6, 7) && avruntime != se->vruntime) {
		vlag = entity_lag(cfs_rq_of(se), avruntime, se);
		vlag = reweight_scale(vlag, old_weight, weight);
		se->vruntime = avruntime - (u64)vlag;
	}
	vslice = (s64)(se->deadline - avruntime);
	vslice = reweight_scale(vslice, old_weight, weight);
	se->deadline = avruntime + (u64)vslice;
}

/* Woken while still queued as delayed: with DELAY_ZERO a positive lag is dropped. */
void requeue_delayed_entity(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	/* a delayed entity is one still queued, competing until it is eligible */
	SCHED_WARN_ON(!se->sched_delayed);
	SCHED_WARN_ON(!se->on_rq);
	if (sched_feat(DELAY_ZERO)) {
		update_entity_lag(cfs_rq, se);
		if (se->vlag > 0) {
			cfs_rq->nr_running--;
			if (se != cfs_rq->curr)
				__dequeue_entity(cfs_rq, se);
			se->vlag = 0;
			place_entity(cfs_rq, se, 0);
			if (se != cfs_rq->curr)
				__enqueue_entity(cfs_rq, se);
			cfs_rq->nr_running++;
		}
	}
	update_load_avg(cfs_rq, se, 0);
	clear_delayed(se);
}
