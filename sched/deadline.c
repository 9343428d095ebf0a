// SPDX-License-Identifier: GPL-2.0
/*
 * The deadline class (kernel/sched/deadline.c): SCHED_DEADLINE tasks as
 * constant bandwidth servers (runtime Q every period P, relative deadline
 * D) picked earliest deadline first, their replenishment timer, the CBS
 * wakeup rule, admission control against the root domain's bandwidth, and
 * the 6.12 fair deadline server: a deferred reservation (50 ms per 1 s)
 * that runs fair tasks at DL priority only when RT kept them starving.
 * Each CPU has its own dl_rq; tasks are not pushed or pulled between CPUs.
 * The bandwidth arithmetic itself is in dl_bw.c.
 */
#include "internal.h"

/* a deferred server's timer is not pushed for less than this */
#define DL_SERVER_MIN_RES NSEC_PER_MSEC

static bool dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static struct task_struct *dl_task_of(struct sched_dl_entity *dl_se)
{
	return container_of(dl_se, struct task_struct, dl);
}

static bool dl_server(const struct sched_dl_entity *dl_se)
{
	return dl_se->dl_server;
}

static bool dl_is_implicit(const struct sched_dl_entity *dl_se)
{
	return dl_se->dl_deadline == dl_se->dl_period;
}

static u64 dl_to_sim(u64 clock)
{
	return clock - SCHED_CLOCK_BOOT;
}

void init_dl_rq(struct dl_rq *dl_rq)
{
	INIT_LIST_HEAD(&dl_rq->queue);
	dl_rq->dl_nr_running = 0;
}

static void emit_dl(int type, struct sched_dl_entity *dl_se, s64 runtime, u64 deadline)
{
	struct sched_event ev;

	sched_event_init(&ev, type, dl_se->rq->cpu);
	ev.dl.pid = dl_server(dl_se) ? 0 : dl_task_of(dl_se)->pid;
	ev.dl.runtime = runtime;
	ev.dl.deadline = dl_to_sim(deadline);
	sched_emit(&ev);
}

/* ---- the dl_rq: entities in deadline order (the kernel's rbtree) ---- */

static void __enqueue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct dl_rq *dl_rq = &dl_se->rq->dl;
	struct list_head *pos;

	/* before the first later deadline: equal ones queue behind each other, as rb_add() puts them right */
	list_for_each (pos, &dl_rq->queue)
		if (dl_time_before(dl_se->deadline,
				   list_entry(pos, struct sched_dl_entity, dl_node)->deadline))
			break;
	list_add_tail(&dl_se->dl_node, pos);
	dl_se->on_dl_rq = 1;
	dl_rq->dl_nr_running++;
	if (!dl_server(dl_se))
		dl_se->rq->nr_running++;
}

static void __dequeue_dl_entity(struct sched_dl_entity *dl_se)
{
	struct dl_rq *dl_rq = &dl_se->rq->dl;

	if (!dl_se->on_dl_rq)
		return;
	list_del_init(&dl_se->dl_node);
	dl_se->on_dl_rq = 0;
	dl_rq->dl_nr_running--;
	if (!dl_server(dl_se))
		dl_se->rq->nr_running--;
}

/* ---- CBS ---- */

static void replenish_dl_new_period(struct sched_dl_entity *dl_se, struct rq *rq)
{
	dl_se->deadline = rq_clock(rq) + dl_se->dl_deadline;
	dl_se->runtime = (s64)dl_se->dl_runtime;
	/* a deferred server not already fighting starvation waits again */
	if (dl_se->dl_defer && !dl_se->dl_defer_running) {
		dl_se->dl_throttled = 1;
		dl_se->dl_defer_armed = 1;
	}
}

static void setup_new_dl_entity(struct sched_dl_entity *dl_se)
{
	if (dl_se->dl_throttled)
		return;
	replenish_dl_new_period(dl_se, dl_se->rq);
}

/*
 * runtime / (deadline - t) > dl_runtime / dl_deadline, cross-multiplied
 * on values scaled down by 2^DL_SCALE so the products cannot overflow.
 */
static bool dl_entity_overflow(struct sched_dl_entity *dl_se, u64 t)
{
	u64 left = (dl_se->dl_deadline >> DL_SCALE) * ((u64)dl_se->runtime >> DL_SCALE);
	u64 right = ((dl_se->deadline - t) >> DL_SCALE) * (dl_se->dl_runtime >> DL_SCALE);

	return dl_time_before(right, left);
}

static u64 dl_next_period(struct sched_dl_entity *dl_se)
{
	return dl_se->deadline - dl_se->dl_deadline + dl_se->dl_period;
}

/*
 * Arm the replenishment timer: at the next period, or for an armed deferred
 * server at its zero-laxity point. 0 when that instant has already passed.
 */
static int start_dl_timer(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;
	u64 act = dl_se->dl_defer_armed ? dl_se->deadline - (u64)dl_se->runtime : dl_next_period(dl_se);

	/* ktime_us_delta(act, now) < 0 */
	if ((s64)(act - rq_clock(rq)) / (s64)NSEC_PER_USEC < 0)
		return 0;
	if (!timer_queued(&dl_se->dl_timer))
		timer_arm(&ST->tq, &dl_se->dl_timer, MAX(dl_to_sim(act), ST->now));
	return 1;
}

static void replenish_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	/* a deferred server that could not run in the background starts afresh */
	if (dl_se->dl_deadline == 0 ||
	    (dl_se->dl_defer_armed && dl_entity_overflow(dl_se, rq_clock(rq)))) {
		dl_se->deadline = rq_clock(rq) + dl_se->dl_deadline;
		dl_se->runtime = (s64)dl_se->dl_runtime;
	}
	if (dl_se->dl_yielded && dl_se->runtime > 0)
		dl_se->runtime = 0;
	/* overruns of any size: push the deadline until there is budget */
	while (dl_se->runtime <= 0) {
		dl_se->deadline += dl_se->dl_period;
		dl_se->runtime += (s64)dl_se->dl_runtime;
	}
	/* "DL replenish lagged too much" */
	if (dl_time_before(dl_se->deadline, rq_clock(rq)))
		replenish_dl_new_period(dl_se, rq);
	dl_se->dl_yielded = 0;
	dl_se->dl_throttled = 0;
	emit_dl(EV_DL_REPLENISH, dl_se, dl_se->runtime, dl_se->deadline);

	if (dl_se->dl_defer_armed) {
		dl_se->dl_defer_armed = 0;
		return;
	}
	if (dl_se->dl_defer && !dl_se->dl_defer_running &&
	    dl_time_before(rq_clock(rq), dl_se->deadline - (u64)dl_se->runtime)) {
		dl_se->dl_defer_armed = 1;
		dl_se->dl_throttled = 1;
		if (!start_dl_timer(dl_se)) {
			timer_cancel(&ST->tq, &dl_se->dl_timer);
			dl_se->dl_defer_armed = 0;
			dl_se->dl_throttled = 0;
		}
	}
}

/* Revised CBS for constrained deadlines: keep the deadline, cut the runtime to the density. */
static void update_dl_revised_wakeup(struct sched_dl_entity *dl_se, struct rq *rq)
{
	u64 laxity = dl_se->deadline - rq_clock(rq);

	dl_se->runtime = (s64)((dl_se->dl_density * laxity) >> BW_SHIFT);
}

/* The CBS wakeup rule: reuse (deadline, runtime) only if that does not exceed the bandwidth. */
static void update_dl_entity(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) || dl_entity_overflow(dl_se, rq_clock(rq))) {
		if ((!dl_is_implicit(dl_se) || (dl_se->dl_defer && dl_se->dl_defer_running)) &&
		    !dl_time_before(dl_se->deadline, rq_clock(rq))) {
			update_dl_revised_wakeup(dl_se, rq);
			return;
		}
		dl_se->dl_defer_running = 0;
		replenish_dl_new_period(dl_se, rq);
	} else if (dl_server(dl_se) && dl_se->dl_defer) {
		if (!dl_se->dl_defer_running) {
			dl_se->dl_defer_armed = 1;
			dl_se->dl_throttled = 1;
		}
	}
}

/* A constrained task woken between its deadline and its next period waits for that period. */
static void dl_check_constrained_dl(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (dl_time_before(dl_se->deadline, rq_clock(rq)) &&
	    dl_time_before(rq_clock(rq), dl_next_period(dl_se))) {
		if (!start_dl_timer(dl_se))
			return;
		dl_se->dl_throttled = 1;
		if (dl_se->runtime > 0)
			dl_se->runtime = 0;
	}
}

static void enqueue_dl_entity(struct sched_dl_entity *dl_se, int flags)
{
	if (!dl_se->dl_throttled && !dl_is_implicit(dl_se))
		dl_check_constrained_dl(dl_se);
	/* a throttled task waits for its timer, which enqueues it */
	if (!dl_se->dl_defer && dl_se->dl_throttled && !(flags & ENQUEUE_REPLENISH))
		return;

	if (flags & (ENQUEUE_WAKEUP | ENQUEUE_INITIAL))
		update_dl_entity(dl_se);
	else if (flags & ENQUEUE_REPLENISH)
		replenish_dl_entity(dl_se);
	else if ((flags & ENQUEUE_RESTORE) && dl_time_before(dl_se->deadline, rq_clock(dl_se->rq)))
		setup_new_dl_entity(dl_se);

	/* a deferred server still waiting for its zero-laxity point */
	if (dl_se->dl_throttled && start_dl_timer(dl_se))
		return;
	if (dl_se->dl_throttled) {
		timer_cancel(&ST->tq, &dl_se->dl_timer);
		dl_se->dl_defer_armed = 0;
		dl_se->dl_throttled = 0;
	}
	__enqueue_dl_entity(dl_se);
}

/* ---- accounting ---- */

static void update_curr_dl_se(struct rq *rq, struct sched_dl_entity *dl_se, s64 delta_exec)
{
	if (delta_exec <= 0) {
		if (dl_se->dl_yielded)
			goto throttle;
		return;
	}
	if (dl_server(dl_se) && dl_se->dl_throttled && !dl_se->dl_defer)
		return;

	/* dl_scaled_delta_exec(): a task's budget runs slower on a smaller CPU */
	if (!dl_server(dl_se))
		delta_exec = (s64)(((u64)delta_exec * rq->cpu_capacity_orig) >> SCHED_CAPACITY_SHIFT);
	dl_se->runtime -= delta_exec;

	/*
	 * A deferred server that consumed its budget in the background (fair
	 * tasks got their share anyway) is not needed this period: start anew.
	 */
	if (dl_se->dl_defer && dl_se->dl_throttled && dl_se->runtime <= 0) {
		dl_se->dl_defer_running = 0;
		timer_cancel(&ST->tq, &dl_se->dl_timer);
		replenish_dl_new_period(dl_se, rq);
		start_dl_timer(dl_se);
		return;
	}

throttle:
	if (dl_se->runtime <= 0 || dl_se->dl_yielded) {
		dl_se->dl_throttled = 1;
		emit_dl(EV_DL_THROTTLE, dl_se, dl_se->runtime, dl_se->deadline);
		__dequeue_dl_entity(dl_se);
		/* the next period has begun already: replenish at once */
		if (!start_dl_timer(dl_se))
			enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
		if (pick_next_dl_entity(&rq->dl) != dl_se)
			resched_curr(rq);
	}
}

static void update_curr_dl(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct sched_dl_entity *dl_se = &curr->dl;
	u64 now = rq_clock_task(rq);
	s64 delta_exec;

	if (!dl_task(curr) || !dl_se->on_dl_rq)
		return;
	delta_exec = (s64)(now - curr->se.exec_start);
	if (delta_exec > 0) {
		curr->se.exec_start = now;
		curr->se.sum_exec_runtime += (u64)delta_exec;
	}
	update_curr_dl_se(rq, dl_se, delta_exec);
}

/* ---- the replenishment timer ---- */

static void dl_server_timer(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (!dl_se->dl_throttled || !dl_se->dl_runtime)
		return;
	update_rq_clock(rq);
	if (dl_se->dl_defer_armed) {
		/* fair tasks ran meanwhile: the zero-laxity point moved on */
		if (dl_time_before(rq_clock(rq), dl_se->deadline - (u64)dl_se->runtime - DL_SERVER_MIN_RES)) {
			timer_arm(&ST->tq, &dl_se->dl_timer,
				  dl_to_sim(dl_se->deadline - (u64)dl_se->runtime));
			return;
		}
		dl_se->dl_defer_running = 1;
	}
	enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
	if (!dl_task(rq->curr) || dl_time_before(dl_se->deadline, rq->curr->dl.deadline))
		resched_curr(rq);
}

void dl_task_timer(struct sched_dl_entity *dl_se)
{
	struct task_struct *p;
	struct rq *rq = dl_se->rq;

	if (dl_server(dl_se)) {
		dl_server_timer(dl_se);
		return;
	}
	p = dl_task_of(dl_se);
	if (!dl_task(p) || !dl_se->dl_throttled)
		return;
	update_rq_clock(rq);
	if (!task_on_rq_queued(p)) {
		/* throttled and then blocked: refill now, queue on wakeup */
		replenish_dl_entity(dl_se);
		return;
	}
	enqueue_dl_entity(dl_se, ENQUEUE_REPLENISH);
	if (!dl_se->job_deadline)
		dl_se->job_deadline = dl_se->deadline;
	if (!dl_task(rq->curr) || dl_time_before(dl_se->deadline, rq->curr->dl.deadline))
		resched_curr(rq);
}

/* ---- the fair deadline server (6.12+) ---- */

static bool fair_server_enabled(void)
{
	return kernel_at_least(6, 12) && sysctl(TUN_FAIR_SERVER_RUNTIME) > 0;
}

void fair_server_init(struct rq *rq)
{
	struct sched_dl_entity *dl_se = &rq->fair_server;

	dl_se->rq = rq;
	dl_se->dl_timer.heap_idx = -1;
	dl_se->dl_timer.kind = T_DL_TIMER;
	dl_se->dl_timer.arg = -1 - rq->cpu;
}

void dl_server_start(struct sched_dl_entity *dl_se)
{
	struct rq *rq = dl_se->rq;

	if (!fair_server_enabled())
		return;
	if (!dl_se->dl_server) {
		u64 runtime = sysctl(TUN_FAIR_SERVER_RUNTIME), period = sysctl(TUN_FAIR_SERVER_PERIOD);

		dl_se->dl_runtime = runtime;
		dl_se->dl_deadline = dl_se->dl_period = period;
		dl_se->dl_bw = to_ratio(period, runtime);
		dl_se->dl_density = to_ratio(period, runtime);
		dl_se->dl_server = 1;
		dl_se->dl_defer = 1;
		setup_new_dl_entity(dl_se);
	}
	if (dl_se->dl_server_active)
		return;
	dl_se->dl_server_active = 1;
	enqueue_dl_entity(dl_se, ENQUEUE_WAKEUP);
	if (dl_se->on_dl_rq && (!dl_task(rq->curr) || dl_time_before(dl_se->deadline, rq->curr->dl.deadline)))
		resched_curr(rq);
}

static void dl_server_stop(struct sched_dl_entity *dl_se)
{
	__dequeue_dl_entity(dl_se);
	timer_cancel(&ST->tq, &dl_se->dl_timer);
	dl_se->dl_defer_armed = 0;
	dl_se->dl_throttled = 0;
	dl_se->dl_server_active = 0;
}

/* Fair execution is charged to the server whether or not the server picked it. */
void dl_server_update(struct sched_dl_entity *dl_se, s64 delta_exec)
{
	if (dl_se->dl_runtime && dl_se->dl_server_active)
		update_curr_dl_se(dl_se->rq, dl_se, delta_exec);
}

/* In defer mode idle time counts as time fair tasks could have had. */
void dl_server_update_idle_time(struct rq *rq, struct task_struct *p)
{
	struct sched_dl_entity *dl_se = &rq->fair_server;
	s64 delta_exec;

	if (!dl_se->dl_defer || dl_se->runtime < 0)
		return;
	delta_exec = (s64)(rq_clock_task(rq) - p->se.exec_start);
	if (delta_exec < 0)
		return;
	dl_se->runtime -= delta_exec;
	if (dl_se->runtime < 0) {
		dl_se->dl_defer_running = 0;
		dl_se->runtime = 0;
	}
	p->se.exec_start = rq_clock_task(rq);
}

/* ---- admission control (sched_dl_overflow(), __dl_overflow()) ---- */

u64 dl_bw_capacity(void)
{
	u64 cap = 0;

	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		cap += cpu_rq(cpu)->cpu_capacity_orig;
	return cap;
}

/*
 * Admit (or release) p's bandwidth for the new policy; -1 (EBUSY) and no
 * change if it does not fit. Without commit only the verdict.
 */
int sched_dl_overflow(struct task_struct *p, int policy, u64 runtime, u64 period, bool commit)
{
	u64 new_bw = dl_policy(policy) ? to_ratio(period, runtime) : 0;
	u64 bw = dl_bw_limit(sysctl(TUN_RT_PERIOD), sysctl(TUN_RT_RUNTIME));
	u64 cap = dl_bw_capacity();
	bool had = dl_policy(p->policy) && p->state != TASK_NEW && p->state != TASK_DEAD;
	u64 old_bw = had ? p->dl.dl_bw : 0;

	if (!dl_policy(policy) && !had)
		return 0;
	if (dl_policy(policy) && __dl_overflow(bw, cap, ST->dl_total_bw, old_bw, new_bw))
		return -1;
	if (commit)
		ST->dl_total_bw += new_bw - old_bw;
	return 0;
}

void dl_init_bandwidth(void)
{
	ST->dl_total_bw = fair_servers_bw(E->kernel, ST->nr_cpus, sysctl(TUN_FAIR_SERVER_RUNTIME),
					  sysctl(TUN_FAIR_SERVER_PERIOD));
}

/* __setparam_dl(): the reservation; the dynamic state starts afresh. */
void __setparam_dl(struct task_struct *p, u64 runtime, u64 deadline, u64 period)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->dl_runtime = runtime;
	dl_se->dl_deadline = deadline;
	dl_se->dl_period = period ? period : deadline;
	dl_se->dl_bw = to_ratio(dl_se->dl_period, runtime);
	dl_se->dl_density = to_ratio(deadline, runtime);
}

/* ---- deadline misses: a job (a wakeup to the next block) ending past its deadline ---- */

static void dl_job_end(struct rq *rq, struct sched_dl_entity *dl_se)
{
	if (dl_se->job_deadline && dl_time_before(dl_se->job_deadline, rq_clock(rq)))
		emit_dl(EV_DL_MISS, dl_se, (s64)(rq_clock(rq) - dl_se->job_deadline), dl_se->job_deadline);
	dl_se->job_deadline = 0;
}

/* ---- class hooks ---- */

static void enqueue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	struct sched_dl_entity *dl_se = &p->dl;

	dl_se->rq = rq;
	enqueue_dl_entity(dl_se, flags);
	if (flags & (ENQUEUE_WAKEUP | ENQUEUE_INITIAL))
		dl_se->job_deadline = dl_se->on_dl_rq ? dl_se->deadline : 0;
}

static bool dequeue_task_dl(struct rq *rq, struct task_struct *p, int flags)
{
	update_curr_dl(rq);
	__dequeue_dl_entity(&p->dl);
	if (flags & DEQUEUE_SLEEP)
		dl_job_end(rq, &p->dl);
	return true;
}

/* Give up the rest of this instance: wait, throttled, for the next period. */
static void yield_task_dl(struct rq *rq)
{
	rq->curr->dl.dl_yielded = 1;
	update_curr_dl(rq);
}

static void wakeup_preempt_dl(struct rq *rq, struct task_struct *p, int flags)
{
	if (dl_time_before(p->dl.deadline, rq->curr->dl.deadline))
		resched_curr(rq);
}

static struct task_struct *pick_task_dl(struct rq *rq)
{
	struct sched_dl_entity *dl_se;
	struct task_struct *p;

again:
	dl_se = pick_next_dl_entity(&rq->dl);
	if (!dl_se)
		return NULL;
	if (!dl_server(dl_se))
		return dl_task_of(dl_se);
	/* the server runs whatever the fair class would pick; none left: it stops */
	p = fair_sched_class.pick_task(rq);
	if (!p) {
		dl_server_stop(dl_se);
		goto again;
	}
	return p;
}

static void put_prev_task_dl(struct rq *rq, struct task_struct *p, struct task_struct *next)
{
	update_curr_dl(rq);
	update_dl_rq_load_avg(rq_clock_pelt(rq), rq, 1);
}

static void set_next_task_dl(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq_clock_task(rq);
	p->se.prev_sum_exec_runtime = p->se.sum_exec_runtime;
	if (rq->curr->sched_class != &dl_sched_class)
		update_dl_rq_load_avg(rq_clock_pelt(rq), rq, 0);
}

static void task_tick_dl(struct rq *rq, struct task_struct *p, int queued)
{
	update_curr_dl(rq);
	update_dl_rq_load_avg(rq_clock_pelt(rq), rq, 1);
}

static void switched_from_dl(struct rq *rq, struct task_struct *p)
{
	timer_cancel(&ST->tq, &p->dl.dl_timer);
	p->dl.dl_throttled = 0;
	p->dl.dl_yielded = 0;
	p->dl.job_deadline = 0;
}

static void switched_to_dl(struct rq *rq, struct task_struct *p)
{
	if (!task_on_rq_queued(p) || task_current(rq, p))
		return;
	if (!dl_task(rq->curr))
		resched_curr(rq);
	else
		wakeup_preempt_dl(rq, p, 0);
}

static void prio_changed_dl(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p)) {
		struct sched_dl_entity *first = pick_next_dl_entity(&rq->dl);

		if (first && dl_time_before(first->deadline, p->dl.deadline))
			resched_curr(rq);
	} else if (!dl_task(rq->curr)) {
		resched_curr(rq);
	} else {
		wakeup_preempt_dl(rq, p, 0);
	}
}

const struct sched_class dl_sched_class = {
	.name = "dl",
	.enqueue_task = enqueue_task_dl,
	.dequeue_task = dequeue_task_dl,
	.yield_task = yield_task_dl,
	.wakeup_preempt = wakeup_preempt_dl,
	.pick_task = pick_task_dl,
	.put_prev_task = put_prev_task_dl,
	.set_next_task = set_next_task_dl,
	.task_tick = task_tick_dl,
	.switched_from = switched_from_dl,
	.switched_to = switched_to_dl,
	.prio_changed = prio_changed_dl,
};
