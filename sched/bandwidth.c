// SPDX-License-Identifier: GPL-2.0
/*
 * CFS bandwidth control (cpu.max), as kernel/sched/fair.c has it: a group's
 * pool is refilled with its quota every period (plus what burst lets it
 * carry over); each CPU's queue takes runtime from the pool in
 * sched_cfs_bandwidth_slice chunks; a queue that cannot get more is
 * throttled until a refill hands runtime out again; an emptied queue gives
 * back all but 1 ms as slack. Through 6.17 a throttled queue is dequeued
 * whole from its parent; from 6.18 it stays queued and each of its tasks is
 * taken off (to the queue's limbo list) when it is picked, the engine's
 * stand-in for the kernel's "on return to user space".
 */
#include "internal.h"

static const u64 min_cfs_rq_runtime = NSEC_PER_MSEC;
static const u64 min_bandwidth_expiration = 2 * NSEC_PER_MSEC;
static const u64 cfs_bandwidth_slack_period = 5 * NSEC_PER_MSEC;

static struct cfs_bandwidth *tg_cfs_bandwidth(struct task_group *tg)
{
	return &tg->cfs_bandwidth;
}

static u64 sched_cfs_bandwidth_slice(void)
{
	return sysctl(TUN_CFS_BANDWIDTH_SLICE);
}

/* extra: the throttled time of an unthrottle, whether queues were throttled at a refill */
static void emit_bandwidth(int type, int cpu, struct task_group *tg, struct cfs_rq *cfs_rq, u64 extra,
			   u64 burst)
{
	struct cfs_bandwidth *b = tg_cfs_bandwidth(tg);
	struct sched_event ev;

	sched_event_init(&ev, type, cpu);
	ev.bw.group = tg->id;
	ev.bw.runtime_remaining = cfs_rq ? cfs_rq->runtime_remaining : 0;
	ev.bw.pool = (s64)b->runtime;
	ev.bw.extra = extra;
	ev.bw.burst = burst;
	sched_emit(&ev);
}

/* ---- the pool ---- */

/*
 * Refill by one quota. A pool that ends up below what the last refill left
 * means the period used more than its quota: that much was burst (returned).
 */
static u64 __refill_cfs_bandwidth_runtime(struct cfs_bandwidth *b)
{
	s64 used_burst;

	if (b->quota == RUNTIME_INF)
		return 0;
	b->runtime += b->quota;
	used_burst = (s64)(b->runtime_snap - b->runtime);
	if (used_burst > 0) {
		b->burst_time += (u64)used_burst;
		b->nr_burst++;
	}
	b->runtime = MIN(b->runtime, b->quota + b->burst);
	b->runtime_snap = b->runtime;
	return used_burst > 0 ? (u64)used_burst : 0;
}

/* The period timer runs only while the group uses its bandwidth. */
static void start_cfs_bandwidth(struct cfs_bandwidth *b)
{
	u64 expires = b->period_timer.expires;

	if (b->period_active)
		return;
	b->period_active = true;
	/* hrtimer_forward_now(): keep the phase, skip the periods that passed */
	if (expires <= ST->now)
		expires += ((ST->now - expires) / b->period + 1) * b->period;
	timer_arm(&ST->tq, &b->period_timer, expires);
}

/* Take up to target - remaining from the pool; true when the queue has runtime now. */
static bool __assign_cfs_rq_runtime(struct cfs_bandwidth *b, struct cfs_rq *cfs_rq, u64 target)
{
	u64 min_amount = (u64)((s64)target - cfs_rq->runtime_remaining), amount = 0;

	if (b->quota == RUNTIME_INF) {
		amount = min_amount;
	} else {
		start_cfs_bandwidth(b);
		if (b->runtime > 0) {
			amount = MIN(b->runtime, min_amount);
			b->runtime -= amount;
			b->idle = false;
		}
	}
	cfs_rq->runtime_remaining += (s64)amount;
	return cfs_rq->runtime_remaining > 0;
}

void account_cfs_rq_runtime(struct cfs_rq *cfs_rq, u64 delta_exec)
{
	if (!cfs_rq->runtime_enabled)
		return;
	cfs_rq->runtime_remaining -= (s64)delta_exec;
	if (cfs_rq->runtime_remaining > 0 || cfs_rq->throttled)
		return;
	/* no more runtime: reschedule so the pick throttles this hierarchy */
	if (!__assign_cfs_rq_runtime(tg_cfs_bandwidth(cfs_rq->tg), cfs_rq, sched_cfs_bandwidth_slice()) &&
	    cfs_rq->curr)
		resched_curr(rq_of(cfs_rq));
}

/* ---- throttling ---- */

static void throttled_list_add(struct cfs_bandwidth *b, struct cfs_rq *cfs_rq)
{
	cfs_rq->throttled_next = NULL;
	cfs_rq->on_throttled_list = true;
	if (b->throttled_last)
		b->throttled_last->throttled_next = cfs_rq;
	else
		b->throttled_first = cfs_rq;
	b->throttled_last = cfs_rq;
}

static void throttled_list_del(struct cfs_bandwidth *b, struct cfs_rq *cfs_rq)
{
	struct cfs_rq **pp = &b->throttled_first, *prev = NULL;

	if (!cfs_rq->on_throttled_list)
		return;
	while (*pp != cfs_rq) {
		prev = *pp;
		pp = &(*pp)->throttled_next;
	}
	*pp = cfs_rq->throttled_next;
	if (b->throttled_last == cfs_rq)
		b->throttled_last = prev;
	cfs_rq->throttled_next = NULL;
	cfs_rq->on_throttled_list = false;
}

/* Every queue below tg on this CPU (tg included): parents precede children in the table. */
static bool tg_is_below(struct task_group *tg, struct task_group *top)
{
	for (; tg; tg = tg->parent)
		if (tg == top)
			return true;
	return false;
}

/* ---- 6.18+: tasks leave a throttled hierarchy one by one ---- */

void throttled_queue_emptied(struct cfs_rq *cfs_rq)
{
	cfs_rq->throttled_clock_pelt = rq_clock_pelt(rq_of(cfs_rq));
	cfs_rq->pelt_clock_throttled = true;
}

static void limbo_add(struct cfs_rq *cfs_rq, struct task_struct *p)
{
	p->throttled = true;
	p->throttle_next = cfs_rq->limbo;
	cfs_rq->limbo = p;
	cfs_rq->nr_limbo++;
}

/* Picked while its hierarchy is throttled: off the queue until the refill. */
bool throttle_task_at_pick(struct rq *rq, struct task_struct *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	if (!task_based_throttle() || !throttled_hierarchy(cfs_rq))
		return false;
	dequeue_task_fair(rq, p, DEQUEUE_SLEEP | DEQUEUE_SPECIAL);
	limbo_add(cfs_rq, p);
	return true;
}

/* A throttled task enqueued again (a group move): straight back to limbo if still throttled. */
bool enqueue_throttled_task(struct task_struct *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	if (throttled_hierarchy(cfs_rq)) {
		limbo_add(cfs_rq, p);
		return true;
	}
	p->throttled = false;
	return false;
}

void dequeue_throttled_task(struct task_struct *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);
	struct task_struct **pp = &cfs_rq->limbo;

	while (*pp && *pp != p)
		pp = &(*pp)->throttle_next;
	if (*pp) {
		*pp = p->throttle_next;
		cfs_rq->nr_limbo--;
	}
	p->throttle_next = NULL;
}

/* The refill reached this queue: its limbo tasks are enqueued again, newest first. */
static void requeue_limbo(struct cfs_rq *cfs_rq)
{
	while (cfs_rq->limbo) {
		struct task_struct *p = cfs_rq->limbo;

		cfs_rq->limbo = p->throttle_next;
		cfs_rq->nr_limbo--;
		p->throttle_next = NULL;
		p->throttled = false;
		enqueue_task_fair(rq_of(cfs_rq), p, ENQUEUE_WAKEUP);
	}
}

static void tg_throttle_down(struct task_group *top, struct rq *rq)
{
	for (int g = top->id; g < ST->nr_groups; g++) {
		struct task_group *tg = &ST->tg[g];
		struct cfs_rq *cfs_rq;

		if (!tg_is_below(tg, top))
			continue;
		cfs_rq = tg->cfs_rq[rq->cpu];
		if (!cfs_rq->throttle_count) {
			/* 6.18+: the clock stops only once the queue is empty */
			if (!task_based_throttle() || !cfs_rq->nr_running)
				throttled_queue_emptied(cfs_rq);
			if (cfs_rq->nr_running)
				cfs_rq->throttled_clock_self = rq_clock(rq);
		}
		cfs_rq->throttle_count++;
	}
}

static void tg_unthrottle_up(struct task_group *top, struct rq *rq)
{
	for (int g = ST->nr_groups - 1; g >= top->id; g--) {
		struct task_group *tg = &ST->tg[g];
		struct cfs_rq *cfs_rq;

		if (!tg_is_below(tg, top))
			continue;
		cfs_rq = tg->cfs_rq[rq->cpu];
		if (!--cfs_rq->throttle_count) {
			if (!task_based_throttle() || cfs_rq->pelt_clock_throttled)
				cfs_rq->throttled_clock_pelt_time += rq_clock_pelt(rq) - cfs_rq->throttled_clock_pelt;
			cfs_rq->pelt_clock_throttled = false;
			if (cfs_rq->throttled_clock_self) {
				cfs_rq->throttled_clock_self_time += rq_clock(rq) - cfs_rq->throttled_clock_self;
				cfs_rq->throttled_clock_self = 0;
			}
			requeue_limbo(cfs_rq);
		}
	}
}

/* Take the group's entity (and parents it leaves empty) off the CPU. */
static bool throttle_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct cfs_bandwidth *b = tg_cfs_bandwidth(cfs_rq->tg);
	struct sched_entity *se;
	long queued = cfs_rq->h_nr_running, delayed = cfs_rq->h_nr_delayed;
	long idle = cfs_rq->idle_h_nr_running;
	bool dequeued = true;

	/* raced with a refill: ask for 1 ns so later checks agree not to throttle */
	if (__assign_cfs_rq_runtime(b, cfs_rq, 1))
		return false;
	throttled_list_add(b, cfs_rq);

	se = cfs_rq->tg->se[rq->cpu];
	tg_throttle_down(cfs_rq->tg, rq);
	/* 6.18+: nothing leaves now; the tasks go as they are picked */
	if (task_based_throttle())
		se = NULL;

	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);
		int flags = DEQUEUE_SLEEP | DEQUEUE_SPECIAL;

		if (!se->on_rq) {
			dequeued = false;
			break;
		}
		if (se->sched_delayed)
			flags |= DEQUEUE_DELAYED;
		dequeue_entity(qcfs_rq, se, flags);
		if (cfs_rq_is_idle(group_cfs_rq(se)))
			idle = queued;
		qcfs_rq->h_nr_running -= queued;
		qcfs_rq->h_nr_delayed -= delayed;
		qcfs_rq->idle_h_nr_running -= idle;
		if (qcfs_rq->load.weight) {
			se = parent_entity(se);
			break;
		}
	}
	if (dequeued && !task_based_throttle()) {
		for_each_sched_entity(se) {
			struct cfs_rq *qcfs_rq = cfs_rq_of(se);

			if (!se->on_rq) {
				dequeued = false;
				break;
			}
			update_load_avg(qcfs_rq, se, 0);
			se_update_runnable(se);
			if (cfs_rq_is_idle(group_cfs_rq(se)))
				idle = queued;
			qcfs_rq->h_nr_running -= queued;
			qcfs_rq->h_nr_delayed -= delayed;
			qcfs_rq->idle_h_nr_running -= idle;
		}
		if (dequeued)
			rq->nr_running -= queued;
	}
	cfs_rq->throttled = true;
	if (cfs_rq->nr_running)
		cfs_rq->throttled_clock = rq_clock(rq);
	emit_bandwidth(EV_CFS_THROTTLE, rq->cpu, cfs_rq->tg, cfs_rq, 0, 0);
	return true;
}

static void unthrottle_cfs_rq(struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct cfs_bandwidth *b = tg_cfs_bandwidth(cfs_rq->tg);
	struct sched_entity *se = cfs_rq->tg->se[rq->cpu];
	long queued, delayed, idle;
	u64 throttled_ns = 0;

	/* 6.18+: enqueueing the limbo tasks without runtime would throttle at once */
	if (task_based_throttle() && cfs_rq->runtime_enabled && cfs_rq->runtime_remaining <= 0)
		return;
	cfs_rq->throttled = false;
	update_rq_clock(rq);
	if (cfs_rq->throttled_clock) {
		throttled_ns = rq_clock(rq) - cfs_rq->throttled_clock;
		b->throttled_time += throttled_ns;
		cfs_rq->throttled_clock = 0;
	}
	throttled_list_del(b, cfs_rq);
	tg_unthrottle_up(cfs_rq->tg, rq);
	emit_bandwidth(EV_CFS_UNTHROTTLE, rq->cpu, cfs_rq->tg, cfs_rq, throttled_ns, 0);

	/* 6.18+: the entity never left; the limbo tasks came back in tg_unthrottle_up() */
	if (!cfs_rq->load.weight || task_based_throttle())
		goto out;

	queued = cfs_rq->h_nr_running;
	delayed = cfs_rq->h_nr_delayed;
	idle = cfs_rq->idle_h_nr_running;
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		/* finish a delayed dequeue first */
		if (se->sched_delayed)
			dequeue_entity(qcfs_rq, se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		else if (se->on_rq)
			break;
		enqueue_entity(qcfs_rq, se, ENQUEUE_WAKEUP);
		if (cfs_rq_is_idle(group_cfs_rq(se)))
			idle = queued;
		qcfs_rq->h_nr_running += queued;
		qcfs_rq->h_nr_delayed += delayed;
		qcfs_rq->idle_h_nr_running += idle;
		if (cfs_rq_throttled(qcfs_rq))
			goto out;
	}
	for_each_sched_entity(se) {
		struct cfs_rq *qcfs_rq = cfs_rq_of(se);

		update_load_avg(qcfs_rq, se, UPDATE_TG);
		se_update_runnable(se);
		if (cfs_rq_is_idle(group_cfs_rq(se)))
			idle = queued;
		qcfs_rq->h_nr_running += queued;
		qcfs_rq->h_nr_delayed += delayed;
		qcfs_rq->idle_h_nr_running += idle;
		if (cfs_rq_throttled(qcfs_rq))
			goto out;
	}
	/* 6.12+: tasks back on a CPU that had none start its fair server */
	if (rq->cfs.h_nr_running == queued)
		dl_server_start(&rq->fair_server);
	rq->nr_running += queued;
out:
	/* an idle CPU may have work again */
	if (is_idle_task(rq->curr) && rq->cfs.nr_running)
		resched_curr(rq);
}

/* Hand the pool to throttled queues in the order they were throttled; true if some stay throttled. */
static bool distribute_cfs_runtime(struct cfs_bandwidth *b)
{
	struct cfs_rq *cfs_rq = b->throttled_first, *next;
	bool throttled = false;

	for (; cfs_rq; cfs_rq = next) {
		u64 runtime;

		next = cfs_rq->throttled_next;
		if (!b->runtime) {
			throttled = true;
			break;
		}
		runtime = (u64)(-cfs_rq->runtime_remaining + 1);
		runtime = MIN(runtime, b->runtime);
		b->runtime -= runtime;
		cfs_rq->runtime_remaining += (s64)runtime;
		if (cfs_rq->runtime_remaining > 0)
			unthrottle_cfs_rq(cfs_rq);
		else
			throttled = true;
	}
	return throttled;
}

/* ---- timers ---- */

static bool do_sched_cfs_period_timer(struct task_group *tg, u64 overrun)
{
	struct cfs_bandwidth *b = tg_cfs_bandwidth(tg);
	bool throttled;
	u64 burst;

	if (b->quota == RUNTIME_INF)
		return true;
	throttled = b->throttled_first != NULL;
	b->nr_periods += overrun;
	burst = __refill_cfs_bandwidth_runtime(b);
	emit_bandwidth(EV_CFS_PERIOD, 0, tg, NULL, throttled, burst);
	if (b->idle && !throttled)
		return true;
	if (!throttled) {
		b->idle = true;
		return false;
	}
	b->nr_throttled += overrun;
	while (throttled && b->runtime > 0)
		throttled = distribute_cfs_runtime(b);
	b->idle = false;
	return false;
}

void sched_cfs_period_timer(struct task_group *tg)
{
	struct cfs_bandwidth *b = tg_cfs_bandwidth(tg);

	if (do_sched_cfs_period_timer(tg, 1)) {
		/* idle for a whole period: stop until used again, keeping the phase */
		b->period_active = false;
		b->period_timer.expires = ST->now + b->period;
		return;
	}
	timer_arm(&ST->tq, &b->period_timer, ST->now + b->period);
}

/* Is the refill due within min_expire? Then slack is not worth distributing. */
static bool runtime_refresh_within(struct cfs_bandwidth *b, u64 min_expire)
{
	if (!timer_queued(&b->period_timer))
		return true;
	return b->period_timer.expires - ST->now < min_expire;
}

void sched_cfs_slack_timer(struct task_group *tg)
{
	struct cfs_bandwidth *b = tg_cfs_bandwidth(tg);

	b->slack_started = false;
	if (runtime_refresh_within(b, min_bandwidth_expiration))
		return;
	if (b->quota != RUNTIME_INF && b->runtime > sched_cfs_bandwidth_slice())
		distribute_cfs_runtime(b);
}

static void start_cfs_slack_bandwidth(struct cfs_bandwidth *b)
{
	if (runtime_refresh_within(b, cfs_bandwidth_slack_period + min_bandwidth_expiration))
		return;
	if (b->slack_started)
		return;
	b->slack_started = true;
	timer_arm(&ST->tq, &b->slack_timer, ST->now + cfs_bandwidth_slack_period);
}

/* A queue that went empty keeps 1 ms and gives the rest back. */
void return_cfs_rq_runtime(struct cfs_rq *cfs_rq)
{
	struct cfs_bandwidth *b = tg_cfs_bandwidth(cfs_rq->tg);
	s64 slack = cfs_rq->runtime_remaining - (s64)min_cfs_rq_runtime;

	if (!cfs_rq->runtime_enabled || cfs_rq->nr_running || slack <= 0)
		return;
	if (b->quota != RUNTIME_INF) {
		b->runtime += (u64)slack;
		if (b->runtime > sched_cfs_bandwidth_slice() && b->throttled_first)
			start_cfs_slack_bandwidth(b);
	}
	cfs_rq->runtime_remaining -= slack;
}

/* A queue waking up with no runtime left is throttled before it runs. */
void check_enqueue_throttle(struct cfs_rq *cfs_rq)
{
	if (!cfs_rq->runtime_enabled || cfs_rq->curr || cfs_rq_throttled(cfs_rq))
		return;
	account_cfs_rq_runtime(cfs_rq, 0);
	if (cfs_rq->runtime_remaining <= 0)
		throttle_cfs_rq(cfs_rq);
}

/* Called as schedule() puts or picks a queue: throttle it if it ran dry. */
bool check_cfs_rq_runtime(struct cfs_rq *cfs_rq)
{
	if (!cfs_rq->runtime_enabled || cfs_rq->runtime_remaining > 0)
		return false;
	if (cfs_rq_throttled(cfs_rq))
		return true;
	return throttle_cfs_rq(cfs_rq);
}

/* ---- cpu.max writes ---- */

void init_cfs_bandwidth(struct task_group *tg, u64 period, u64 quota, u64 burst)
{
	struct cfs_bandwidth *b = tg_cfs_bandwidth(tg);

	b->period = period;
	b->quota = RUNTIME_INF;
	b->period_timer = (struct sched_timer){ .heap_idx = -1, .kind = T_CFS_PERIOD, .arg = tg->id };
	b->slack_timer = (struct sched_timer){ .heap_idx = -1, .kind = T_CFS_SLACK, .arg = tg->id };
	/* the kernel starts each group's period timer at a random phase */
	b->period_timer.expires = sched_rand() % period;
	if (quota != RUNTIME_INF)
		tg_set_cfs_bandwidth(tg, period, quota, burst);
	else
		b->burst = burst;
}

void tg_set_cfs_bandwidth(struct task_group *tg, u64 period, u64 quota, u64 burst)
{
	struct cfs_bandwidth *b = tg_cfs_bandwidth(tg);
	bool enabled = quota != RUNTIME_INF;

	b->period = period;
	b->quota = quota;
	b->burst = burst;
	__refill_cfs_bandwidth_runtime(b);
	if (enabled) {
		/* restart the timer so the new period applies */
		if (b->period_active) {
			timer_cancel(&ST->tq, &b->period_timer);
			b->period_active = false;
		}
		start_cfs_bandwidth(b);
	}
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];

		update_rq_clock(rq_of(cfs_rq));
		cfs_rq->runtime_enabled = enabled;
		cfs_rq->runtime_remaining = 0;
		if (cfs_rq->throttled)
			unthrottle_cfs_rq(cfs_rq);
	}
}
