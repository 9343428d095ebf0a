// SPDX-License-Identifier: GPL-2.0
/*
 * Core scheduler (kernel/sched/core.c): runqueue clocks, the tick,
 * schedule(), wakeups, fork, nice and policy changes, yield and exit.
 */
#include "internal.h"
#include "balance.h"
#include "ext.h"

/*
 * Highest first: stop > dl > rt > fair > ext > idle (no stop class: no CPU
 * hotplug or migration threads).
 */
static const struct sched_class *const sched_class_order[] = {
	&dl_sched_class, &rt_sched_class, &fair_sched_class, &ext_sched_class, &idle_sched_class,
};

static int class_rank(const struct sched_class *c)
{
	for (int i = 0; i < (int)ARRAY_SIZE(sched_class_order); i++)
		if (sched_class_order[i] == c)
			return i;
	return (int)ARRAY_SIZE(sched_class_order);
}

bool sched_class_above(const struct sched_class *a, const struct sched_class *b)
{
	return class_rank(a) < class_rank(b);
}

/* next_active_class(): fair is skipped when ext has every task, ext when no policy runs. */
static bool class_active(const struct sched_class *class)
{
	if (class == &fair_sched_class)
		return !scx_switched_all();
	if (class == &ext_sched_class)
		return scx_enabled();
	return true;
}

/* ---- clocks ---- */

/*
 * clock_task is what tasks are charged by: interrupt and steal time come
 * out of it when the kernel is built to account them, and feed the CPU's
 * avg_irq instead (NONTASK_CAPACITY).
 */
static void update_rq_clock_task(struct rq *rq, s64 delta)
{
	s64 irq_delta = 0, steal = 0;

	if (sched_feat(IRQ_TIME_ACCOUNTING)) {
		irq_delta = MIN((s64)(rq->irq_time - rq->prev_irq_time), delta);
		rq->prev_irq_time += (u64)irq_delta;
		delta -= irq_delta;
	} else {
		rq->prev_irq_time = rq->irq_time;
	}
	if (sched_feat(PARAVIRT_TIME_ACCOUNTING)) {
		steal = MIN((s64)(rq->steal_time - rq->prev_steal_time_rq), delta);
		rq->prev_steal_time_rq += (u64)steal;
		delta -= steal;
	} else {
		rq->prev_steal_time_rq = rq->steal_time;
	}
	rq->clock_task += (u64)delta;
	if ((irq_delta + steal) && sched_feat(NONTASK_CAPACITY))
		update_irq_load_avg(rq, (u64)(irq_delta + steal));
	update_rq_clock_pelt(rq, delta);
}

void update_rq_clock(struct rq *rq)
{
	s64 delta = (s64)(ST->now + SCHED_CLOCK_BOOT - rq->clock);

	if (rq->clock_update_flags & RQCF_ACT_SKIP)
		return;
	if (delta <= 0)
		return;
	rq->clock += (u64)delta;
	update_rq_clock_task(rq, delta);
}

/* The engine runs schedule() on rq's CPU at its next chance (run_pending_reschedules()). */
void resched_pending(struct rq *rq)
{
	ST->resched_pending[rq->cpu >> 6] |= 1ULL << (rq->cpu & 63);
	ST->resched_pending_words |= 1ULL << (rq->cpu >> 6);
}

/* Preemption is a request, honoured when the engine next runs schedule() on that CPU. */
void resched_curr(struct rq *rq)
{
	if (rq->need_resched)
		return;
	rq->need_resched = true;
	resched_pending(rq);
}

/* ---- the tick, NO_HZ idle and hrtick ---- */

static u64 next_tick_after(u64 t)
{
	return (t / TICK_NSEC + 1) * TICK_NSEC;
}

/*
 * Ticks are aligned on all CPUs (no skew_tick), each entering up to
 * irq_jitter_ns late (noise.c); an idle CPU takes none.
 */
static void tick_arm(struct rq *rq)
{
	u64 late = irq_entry_delay(); /* one draw: MIN() evaluates its arguments twice */

	timer_arm(&ST->tq, &rq->tick.timer, next_tick_after(ST->now) + MIN(late, TICK_NSEC / 2));
}

static void tick_restart(struct rq *rq)
{
	if (!rq->tick_stopped)
		return;
	rq->tick_stopped = false;
	linsched_jiffies_update();
	tick_arm(rq);
}

void tick_stop(struct rq *rq)
{
	rq->tick_stopped = true;
	linsched_drop_do_timer(rq);
	timer_cancel(&ST->tq, &rq->tick.timer);
	timer_cancel(&ST->tq, &rq->hrtick);
	nohz_balance_enter_idle(rq);
}

void sched_tick(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	linsched_do_timer(rq);
	hrtimer_expire_ranges(rq);
	cpu_spend(rq, sched_cost(TUN_COST_TICK), true);
	update_rq_clock(rq);
	if (legacy_balance())
		update_cpu_load(rq);
	curr->sched_class->task_tick(rq, curr, 0);
	if (ST->scx)
		scx_tick(rq);
	if (sched_feat(TG_SHARES_UP_WALK) && ST->nr_groups > 1)
		tg_shares_up_walk(rq);
	tick_arm(rq);
	/* with every task on ext there is nothing for the fair balancer to move */
	if (!scx_switched_all())
		sched_balance_trigger(rq);
}

void hrtick_start(struct rq *rq, u64 delay)
{
	/* the kernel never programs an hrtimer closer than 10 us */
	timer_arm(&ST->tq, &rq->hrtick, ST->now + MAX(delay, 10 * NSEC_PER_USEC) + irq_entry_delay());
}

/* ---- enqueue/dequeue with sched_info bookkeeping ---- */

static void enqueue_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (!(flags & ENQUEUE_RESTORE) && !p->sched_info.last_queued)
		p->sched_info.last_queued = rq_clock(rq);
	p->sched_class->enqueue_task(rq, p, flags);
	/* add_nr_running(): a second task makes the root domain overloaded */
	if (rq->nr_running >= 2)
		ST->rd_overloaded = true;
}

/* sched_info_dequeue(): the wait so far counts, wherever the task runs next */
static void sched_info_dequeue(struct rq *rq, struct task_struct *p)
{
	if (!p->sched_info.last_queued)
		return;
	p->sched_info.run_delay += rq_clock(rq) - p->sched_info.last_queued;
	p->sched_info.last_queued = 0;
}

static bool dequeue_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (!(flags & DEQUEUE_SAVE))
		sched_info_dequeue(rq, p);
	return p->sched_class->dequeue_task(rq, p, flags);
}

void activate_task(struct rq *rq, struct task_struct *p, int flags)
{
	if (p->on_rq == TASK_ON_RQ_MIGRATING)
		flags |= ENQUEUE_MIGRATED;
	enqueue_task(rq, p, flags);
	p->on_rq = TASK_ON_RQ_QUEUED;
}

/* Off the queue to be moved: MIGRATING is set before the dequeue sees it. */
void deactivate_task(struct rq *rq, struct task_struct *p, int flags)
{
	p->on_rq = TASK_ON_RQ_MIGRATING;
	dequeue_task(rq, p, flags);
}

void wakeup_preempt(struct rq *rq, struct task_struct *p, int flags)
{
	struct task_struct *curr = rq->curr;

	if (p->sched_class == curr->sched_class)
		curr->sched_class->wakeup_preempt(rq, p, flags);
	else if (class_rank(p->sched_class) < class_rank(curr->sched_class))
		resched_curr(rq);
	/*
	 * rq_clock_skip_update() (4.1's 9edfbfed3f54): "we're going to
	 * schedule", so __schedule() keeps this wakeup's clock and what passes
	 * until the switch (the rest of the interrupt) is charged to next. A
	 * task woken on its own CPU before it left it (ttwu_runnable()) asks
	 * for nothing: the kernel makes no wakeup_preempt() for it. Before 4.1
	 * rq->skip_clock_update stops every clock update from here to the pick.
	 */
	if (p != curr && task_on_rq_queued(curr) && rq->need_resched)
		rq->clock_update_flags |= clock_skip_to_pick() ? RQCF_ACT_SKIP : RQCF_REQ_SKIP;
}

/* ---- schedule() ---- */

/*
 * prev_balance(), for what the engine models while a policy runs: ext must
 * balance before every pick, starting from prev's class or ext, whichever
 * is higher; the classes above stop the walk once they know of a task of
 * their own or higher (rt and dl: one is queued; fair: any task is queued,
 * else its newidle balance pulled one).
 */
static void prev_balance(struct rq *rq, struct task_struct *prev)
{
	scx_note_balance_pending(rq);
	if (sched_class_above(prev->sched_class, &fair_sched_class) &&
	    (rq->dl.dl_nr_running || rq->rt.rt_queued))
		return;
	if (sched_class_above(prev->sched_class, &ext_sched_class) && class_active(&fair_sched_class) &&
	    (rq->nr_running || sched_balance_newidle(rq) > 0))
		return;
	ext_sched_class.balance(rq, prev);
}

/* The first class with a runnable task wins; prev is put and next set unless they are one. */
static struct task_struct *pick_next_task(struct rq *rq, struct task_struct *prev)
{
	if (scx_enabled())
		prev_balance(rq, prev);
	for (int i = 0; i < (int)ARRAY_SIZE(sched_class_order); i++) {
		const struct sched_class *class = sched_class_order[i];
		struct task_struct *p;

		if (!class_active(class))
			continue;
		if (class->pick_next_task) {
			p = class->pick_next_task(rq, prev);
			if (p)
				return p;
			continue;
		}
		p = class->pick_task(rq);
		if (p) {
			if (p != prev) {
				prev->sched_class->put_prev_task(rq, prev, p);
				p->sched_class->set_next_task(rq, p, true);
			}
			return p;
		}
	}
	return rq->idle;	/* not reached: the idle class always has one */
}

static char task_state_char(const struct task_struct *p)
{
	switch (p->state) {
	case TASK_RUNNING:
		return TASK_STATE_R;
	case TASK_DEAD:
		return TASK_STATE_X;
	default:
		return TASK_STATE_S;
	}
}

static void emit_switch(struct rq *rq, struct task_struct *prev, struct task_struct *next)
{
	struct sched_event ev;

	if (!is_idle_task(prev)) {
		sched_event_init(&ev, EV_SCHED_STAT_RUNTIME, rq->cpu);
		ev.runtime.pid = prev->pid;
		ev.runtime.runtime = prev->se.sum_exec_runtime - prev->se.prev_sum_exec_runtime;
		ev.runtime.vruntime = prev->se.vruntime;
		sched_emit(&ev);
	}
	sched_event_init(&ev, EV_SCHED_SWITCH, rq->cpu);
	ev.sw.prev_pid = prev->pid;
	ev.sw.prev_prio = prev->prio;
	ev.sw.prev_state = task_state_char(prev);
	ev.sw.next_pid = next->pid;
	ev.sw.next_prio = next->prio;
	sched_emit(&ev);
}

static void sched_info_switch(struct rq *rq, struct task_struct *prev, struct task_struct *next)
{
	u64 now = rq_clock(rq);

	if (!is_idle_task(prev) && prev->state == TASK_RUNNING)
		prev->sched_info.last_queued = now;
	if (!is_idle_task(next)) {
		if (next->sched_info.last_queued)
			next->sched_info.run_delay += now - next->sched_info.last_queued;
		next->sched_info.last_queued = 0;
		next->sched_info.last_arrival = now;
		next->sched_info.pcount++;
	}
}

/* The CPU stopper has tasks to move for their new affinity. */
static bool migration_queued(const struct rq *rq)
{
	return !list_empty(&rq->migration_queue);
}

/* The CPU stopper is awake to push a task (on LinSched's machine, once its timer fired). */
static bool stopper_woken(const struct rq *rq)
{
	return rq->active_balance && !rq->stop_queued;
}

void __schedule(struct rq *rq)
{
	struct task_struct *prev = rq->curr, *next;

	/* hrtick_clear(): the next task programs its own slice end */
	timer_cancel(&ST->tq, &rq->hrtick);
	if (clock_skip_to_pick()) {
		update_rq_clock(rq); /* none while skip_clock_update holds */
	} else {
		rq->clock_update_flags <<= 1; /* promote REQ to ACT */
		update_rq_clock(rq);
		rq->clock_update_flags = 0;
	}
	rq->need_resched = false;

	/* A task that stopped being runnable leaves the queue (or stays, delayed). */
	if (!is_idle_task(prev) && prev->state != TASK_RUNNING && prev->on_rq) {
		/* an exiting task cannot stay behind as a delayed dequeue */
		int flags = DEQUEUE_SLEEP | (prev->state == TASK_DEAD ? DEQUEUE_SPECIAL : 0);
		if (dequeue_task(rq, prev, flags))
			prev->on_rq = 0;
	}

	/* balance_rt(): an RT task that left may let this CPU pull a waiting one */
	if (prev->sched_class == &rt_sched_class)
		balance_rt(rq, prev);
	if (stopper_woken(rq) && is_idle_task(prev))
		rq->active_balance = false;	/* nothing running to push */
	/* the stopper on an idle CPU puts nothing aside: it moves the task before the pick */
	if (migration_queued(rq) && is_idle_task(prev))
		migration_cpu_stop(rq);
	if (stopper_woken(rq) || migration_queued(rq)) {
		/* the CPU stopper takes the CPU from the running task (a class above all: no next) */
		next = rq->idle;
		prev->sched_class->put_prev_task(rq, prev, NULL);
		next->sched_class->set_next_task(rq, next, true);
	} else {
		next = pick_next_task(rq, prev);
		/* nothing to run: pull before going idle (with a policy, prev_balance() did) */
		if (is_idle_task(next) && !scx_enabled() && sched_balance_newidle(rq) > 0)
			next = pick_next_task(rq, next);
	}
	if (clock_skip_to_pick())
		rq->clock_update_flags = 0; /* rq->skip_clock_update = 0 */
	if (next == prev)
		goto out;

	task_account_work(rq, prev);
	if (!is_idle_task(prev)) {
		if (prev->state == TASK_RUNNING)
			prev->nivcsw++;
		else
			prev->nvcsw++;
	}
	prev->on_cpu = false;
	next->on_cpu = true;
	rq->curr = next;
	rq->nr_switches++;
	sched_info_switch(rq, prev, next);
	emit_switch(rq, prev, next);
	/* context_switch(): after next's exec_start, so next is charged for it */
	cpu_spend(rq, sched_cost(TUN_COST_SWITCH), false);
	/* finish_task_switch(): a dead task is gone once off its CPU */
	if (prev->state == TASK_DEAD && ST->scx)
		scx_task_dead(prev);

	if (is_idle_task(next)) {
		timer_cancel(&ST->tq, &rq->work);
		if (!stopper_woken(rq)) {
			update_idle_core(rq);
			update_idle_rq_clock_pelt(rq);
			/* before 3.8 the tick stops at the idle CPU's next event (sched_step()) */
			if (!legacy_balance())
				tick_stop(rq);
		}
	} else {
		if (is_idle_task(prev))
			tick_restart(rq);
		task_arm_work(rq, next);
	}
out:
	if (stopper_woken(rq) || migration_queued(rq)) {
		/* the stopper pushes or moves a task, then this CPU picks again */
		if (migration_queued(rq))
			migration_cpu_stop(rq);
		if (stopper_woken(rq))
			active_load_balance_cpu_stop(rq);
		resched_curr(rq);
		return;
	}
	/* the balance callback of set_next_task_rt(): push what waits here elsewhere */
	if (rq->curr->sched_class == &rt_sched_class)
		push_rt_tasks(rq);
	/* A task that got (or kept) the CPU with nothing to do runs its program on. */
	if (!is_idle_task(rq->curr))
		task_program_step(rq->curr);
}

/* ---- wakeups ---- */

static void emit_wake(int type, int cpu, struct task_struct *p, int target_cpu, bool from_timer)
{
	struct sched_event ev;

	sched_event_init(&ev, type, cpu);
	ev.wake.pid = p->pid;
	ev.wake.prio = p->prio;
	ev.wake.target_cpu = target_cpu;
	ev.wake.from_timer = from_timer;
	sched_emit(&ev);
}

/*
 * set_task_cpu(): the move of a task that is not queued (a wakeup) or is
 * being migrated (detached by the balancer). The event names the decision
 * (its first event's seq) that caused it.
 */
void set_task_cpu(struct task_struct *p, int cpu, int event_cpu, u64 cause, int reason)
{
	struct sched_event ev;

	if (p->cpu == cpu)
		return;
	sched_event_init(&ev, EV_SCHED_MIGRATE_TASK, event_cpu);
	ev.migrate.pid = p->pid;
	ev.migrate.prio = p->prio;
	ev.migrate.orig_cpu = p->cpu;
	ev.migrate.dest_cpu = cpu;
	ev.migrate.cause = cause;
	ev.migrate.reason = (u8)reason;
	sched_emit(&ev);
	herd_note_migration(&ev);
	/* detach and attach: in the balance softirq, else in a task's context */
	cpu_spend(cpu_rq(event_cpu), sched_cost(TUN_COST_MIGRATE),
		  reason == MIGRATE_BALANCE || reason == MIGRATE_NOHZ);
	if (p->sched_class == &fair_sched_class)
		migrate_task_rq_fair(p, cpu);
	p->se.nr_migrations++;
	p->cpu = cpu;
	set_task_rq(p, cpu);
}

/*
 * try_to_wake_up(): the event is reported on the waker's CPU (the target's
 * own CPU for timer wakeups, passed as -1).
 */
int try_to_wake_up(struct task_struct *p, int wake_flags)
{
	bool from_timer = !(wake_flags & WF_IN_TASK);
	int this_cpu = from_timer ? p->cpu : ST->waker_cpu;
	struct rq *rq;
	int cpu;

	if (p->state != TASK_INTERRUPTIBLE)
		return 0;

	emit_wake(EV_SCHED_WAKING, this_cpu, p, p->cpu, from_timer);
	p->state = TASK_RUNNING;
	p->nr_wakeups++;
	/* in the waker's context, or in the hrtimer's interrupt */
	cpu_spend(cpu_rq(this_cpu), sched_cost(TUN_COST_WAKEUP), from_timer);

	if (p->on_rq) {
		/* ttwu_runnable(): still queued as a delayed dequeue */
		rq = task_rq(p);
		update_rq_clock(rq);
		if (p->se.sched_delayed)
			enqueue_task(rq, p, ENQUEUE_DELAYED);
		wakeup_preempt(rq, p, wake_flags);
		emit_wake(EV_SCHED_WAKEUP, this_cpu, p, p->cpu, from_timer);
		return 1;
	}

	int prev_cpu = p->cpu;
	u64 decision = ST->nr_events;

	cpu = select_task_rq(p, prev_cpu, WF_TTWU | (wake_flags & WF_SYNC), this_cpu);
	set_task_cpu(p, cpu, this_cpu, decision, MIGRATE_WAKEUP);
	rq = cpu_rq(cpu);
	/* ttwu_queue_cond(): another LLC's CPU, or an idle one, activates the task in an IPI */
	bool ipi = cpu != this_cpu && (!cpus_share_cache(this_cpu, cpu) || !rq->nr_running);
	bool resched = rq->need_resched;

	update_rq_clock(rq);
	/* ENQUEUE_RQ_SELECTED: the class's select_task_rq() ran (ext tells its policy) */
	activate_task(rq, p,
		      ENQUEUE_WAKEUP | (cpu != prev_cpu ? ENQUEUE_MIGRATED : 0) |
			      (p->nr_cpus_allowed > 1 ? ENQUEUE_RQ_SELECTED : 0));
	wakeup_preempt(rq, p, wake_flags | WF_TTWU);
	/* else the waker activated it there, and a preemption it asked for takes an IPI */
	if (ipi || (cpu != this_cpu && rq->need_resched && !resched))
		cpu_spend(rq, sched_cost(TUN_COST_IPI), true);
	update_avg_idle(rq);
	if (p->sched_class == &rt_sched_class)
		task_woken_rt(rq, p);
	emit_wake(EV_SCHED_WAKEUP, this_cpu, p, cpu, from_timer);
	return 1;
}

/*
 * move_queued_task(): a queued task that is not running goes to dst_cpu (an
 * affinity change, RT push and pull). Deactivated and activated with no
 * flags, as the kernel does (3.3's __migrate_task(), 6.12's
 * move_queued_task() and push_rt_task()): MIGRATING makes the dequeue detach
 * its load and keeps set_task_cpu() from treating it as a wakeup (CFS would
 * take min_vruntime off its vruntime twice); sched_info closes its wait on
 * the old CPU and opens one on the new.
 */
void move_queued_task(struct task_struct *p, int dst_cpu, int event_cpu, int reason)
{
	struct rq *src = task_rq(p), *dst = cpu_rq(dst_cpu);

	update_rq_clock(src);
	deactivate_task(src, p, 0);
	set_task_cpu(p, dst_cpu, event_cpu, ST->nr_events, reason);
	update_rq_clock(dst);
	activate_task(dst, p, 0);
	wakeup_preempt(dst, p, 0);
}

/* ---- fork, nice, policy ---- */

void set_load_weight(struct task_struct *p, bool update_load)
{
	int prio = p->static_prio - MAX_RT_PRIO;
	unsigned long weight;
	u32 inv;

	if (task_has_idle_policy(p)) {
		weight = scale_load(WEIGHT_IDLEPRIO);
		inv = WMULT_IDLEPRIO;
	} else {
		weight = scale_load((unsigned long)sched_prio_to_weight[prio]);
		inv = sched_prio_to_wmult[prio];
	}
	if (update_load && p->sched_class->reweight_task) {
		p->sched_class->reweight_task(task_rq(p), p, weight, inv);
	} else {
		p->se.load.weight = weight;
		p->se.load.inv_weight = inv;
	}
}

/* __setscheduler_class() */
static const struct sched_class *policy_class(int policy)
{
	if (dl_policy(policy))
		return &dl_sched_class;
	if (rt_policy(policy))
		return &rt_sched_class;
	if (task_should_scx(policy))
		return &ext_sched_class;
	return &fair_sched_class;
}

/* normal_prio(): -1 for deadline, 99 - rt_priority for FIFO/RR, the nice level's otherwise. */
static int normal_prio(const struct task_struct *p)
{
	if (dl_policy(p->policy))
		return MAX_DL_PRIO - 1;
	if (rt_policy(p->policy))
		return MAX_RT_PRIO - 1 - (int)p->rt_priority;
	return p->static_prio;
}

/*
 * Policy, nice and slice come from the task line or from commands given
 * before the fork. A SCHED_DEADLINE task whose bandwidth no longer fits
 * (console commands took it) starts as SCHED_NORMAL, as a failed
 * sched_setattr() would leave it.
 */
static void sched_fork(struct task_struct *p, const struct task_struct *parent)
{
	u64 slice = p->se.custom_slice && custom_slice_supported() ? p->se.slice : 0;

	if (dl_policy(p->policy) && sched_dl_overflow(p, p->policy, p->dl.dl_runtime, p->dl.dl_period, true))
		p->policy = SCHED_NORMAL;
	p->state = TASK_RUNNING;
	p->se = (struct sched_entity){ 0 };
	p->se.slice = slice ? slice : sysctl(TUN_BASE_SLICE);
	p->se.custom_slice = slice != 0;
	/* dup_task_struct() copied the parent's entity; __sched_fork() may leave these */
	if (parent && !fork_clears_rel_deadline()) {
		p->se.rel_deadline = parent->se.rel_deadline;
		p->se.deadline = parent->se.deadline;
	}
	p->rt.time_slice = sched_rr_timeslice();
	p->dl.runtime = 0;
	p->dl.deadline = 0;
	p->prio = normal_prio(p);
	p->sched_class = policy_class(p->policy);
	set_load_weight(p, false);
	init_entity_runnable_average(&p->se);
	/* the child starts on its parent's CPU, the scenario's launcher */
	p->cpu = FORK_CPU;
	set_task_rq(p, FORK_CPU);
}

/* A new task: started by its fork timer (parent NULL) or by a task's `fork`. */
void wake_up_new_task(struct task_struct *p, struct task_struct *parent)
{
	int from = parent ? parent->cpu : FORK_CPU;
	struct sched_event ev;
	struct rq *rq;

	sched_fork(p, parent);
	/* a task's `fork`: the child starts out on its parent's CPU, as copy_process() leaves it */
	if (parent) {
		p->cpu = from;
		set_task_rq(p, from);
	}
	/* sched_fork()'s task_fork(): the child's vruntime, on the parent's CPU */
	if (p->sched_class == &fair_sched_class) {
		update_rq_clock(cpu_rq(from));
		p->sched_class->task_fork(p);
	}
	/* sched_cgroup_fork() and sched_post_fork(): ops.init_task(), then ops.enable() */
	if (ST->scx)
		scx_fork(p);
	/* __set_task_cpu(): a fork is placed, not migrated (no migrate event) */
	p->recent_used_cpu = from;
	p->cpu = select_task_rq(p, from, WF_FORK, from);
	set_task_rq(p, p->cpu);
	p->dl.rq = cpu_rq(p->cpu);
	rq = task_rq(p);
	update_rq_clock(rq);

	p->start_time = ST->now;
	sched_event_init(&ev, EV_SCHED_PROCESS_FORK, parent ? parent->cpu : p->cpu);
	ev.fork.parent_pid = parent ? parent->pid : 0;
	ev.fork.child_pid = p->pid;
	sched_emit(&ev);

	post_init_entity_util_avg(p);
	activate_task(rq, p, ENQUEUE_INITIAL);
	emit_wake(EV_SCHED_WAKEUP_NEW, p->cpu, p, p->cpu, false);
	wakeup_preempt(rq, p, WF_FORK);
	if (p->sched_class == &rt_sched_class)
		task_woken_rt(rq, p);
}

static void emit_set_nice(struct task_struct *p, int old_nice)
{
	struct sched_event ev;

	sched_event_init(&ev, EV_SET_NICE, p->cpu);
	ev.nice.pid = p->pid;
	ev.nice.old_nice = old_nice;
	ev.nice.new_nice = PRIO_TO_NICE(p->static_prio);
	ev.nice.policy = p->policy;
	ev.nice.slice = p->se.custom_slice ? p->se.slice : 0;
	sched_emit(&ev);
}

/* prio_changed_fair(): a lowered priority may hand the CPU on; a raised one may take it. */
static void prio_changed_fair(struct rq *rq, struct task_struct *p, int old_prio)
{
	if (!task_on_rq_queued(p) || rq->cfs.nr_running == 1)
		return;
	if (task_current(rq, p)) {
		if (p->prio > old_prio)
			resched_curr(rq);
	} else {
		wakeup_preempt(rq, p, 0);
	}
}

/* switched_to_fair(): a task arriving in the fair class competes at once. */
static void switched_to_fair(struct rq *rq, struct task_struct *p)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p))
		resched_curr(rq);
	else
		wakeup_preempt(rq, p, 0);
}

static void check_class_changed(struct rq *rq, struct task_struct *p,
				const struct sched_class *prev_class, int oldprio)
{
	if (prev_class != p->sched_class) {
		if (prev_class->switched_from)
			prev_class->switched_from(rq, p);
		if (p->sched_class == &fair_sched_class)
			switched_to_fair(rq, p);
		else
			p->sched_class->switched_to(rq, p);
	} else if (oldprio != p->prio || dl_task(p)) {
		if (p->sched_class == &fair_sched_class)
			prio_changed_fair(rq, p, oldprio);
		else
			p->sched_class->prio_changed(rq, p, oldprio);
	}
}

void sched_getattr(const struct task_struct *p, struct sched_attr *attr)
{
	*attr = (struct sched_attr){
		.policy = p->policy,
		.nice = PRIO_TO_NICE(p->static_prio),
		.rt_priority = p->rt_priority,
		.slice = p->se.custom_slice ? p->se.slice : 0,
		.dl_runtime = p->dl.dl_runtime,
		.dl_deadline = p->dl.dl_deadline,
		.dl_period = p->dl.dl_period,
	};
}

static void __setscheduler_params(struct task_struct *p, const struct sched_attr *attr, bool update_load)
{
	u64 slice = custom_slice_supported() ? attr->slice : 0;

	p->policy = attr->policy;
	p->rt_priority = rt_policy(attr->policy) ? attr->rt_priority : 0;
	/* nice and slice belong to the fair policies; RT and deadline leave them be */
	if (dl_policy(attr->policy)) {
		__setparam_dl(p, attr->dl_runtime, attr->dl_deadline, attr->dl_period);
	} else if (!rt_policy(attr->policy)) {
		p->static_prio = NICE_TO_PRIO(attr->nice);
		p->se.custom_slice = slice != 0;
		p->se.slice = slice ? slice : sysctl(TUN_BASE_SLICE);
	}
	if (update_load)
		set_load_weight(p, true);
}

/*
 * __sched_setscheduler(): the checks for SCHED_DEADLINE first (-1, nothing
 * changed, when its affinity is narrower than the machine or admission
 * fails); then the dequeue(SAVE) ... enqueue(RESTORE)
 * dance, moving p between classes. set_user_nice() dequeues with SAVE alone,
 * which keeps min_vruntime where it is; a policy change also MOVEs.
 */
static int change_attr(struct task_struct *p, const struct sched_attr *attr, int dequeue_flags)
{
	struct rq *rq = task_rq(p);
	const struct sched_class *prev_class = p->sched_class;
	int old_prio = p->prio, old_nice = PRIO_TO_NICE(p->static_prio);
	int enqueue_flags = ENQUEUE_RESTORE;
	bool queued, running;

	/* a deadline task must be allowed on all of its root domain (EPERM) */
	if (dl_policy(attr->policy) && p->nr_cpus_allowed < ST->nr_cpus)
		return -1;
	if (p->state == TASK_NEW || p->state == TASK_DEAD) {
		/* not forked yet: it starts with these (admission happens at the fork) */
		if (p->state == TASK_NEW) {
			__setscheduler_params(p, attr, false);
			p->se.slice = attr->slice;
			p->se.custom_slice = attr->slice != 0;
			p->prio = normal_prio(p);
		}
		return 0;
	}
	if (sched_dl_overflow(p, attr->policy, attr->dl_runtime,
			      attr->dl_period ? attr->dl_period : attr->dl_deadline, true))
		return -1;

	update_rq_clock(rq);
	queued = task_on_rq_queued(p);
	running = task_current(rq, p);
	if (queued)
		dequeue_task(rq, p, dequeue_flags);
	if (running)
		p->sched_class->put_prev_task(rq, p, NULL);

	__setscheduler_params(p, attr, true);
	p->prio = normal_prio(p);
	p->sched_class = policy_class(p->policy);
	/* check_class_changing() */
	if (p->sched_class != prev_class && p->sched_class->switching_to)
		p->sched_class->switching_to(rq, p);
	/* a queued task whose priority drops goes first among its new peers */
	if (old_prio < p->prio)
		enqueue_flags |= ENQUEUE_HEAD;

	if (queued)
		enqueue_task(rq, p, enqueue_flags);
	if (running)
		p->sched_class->set_next_task(rq, p, false);
	check_class_changed(rq, p, prev_class, old_prio);
	emit_set_nice(p, old_nice);
	return 0;
}

int __sched_setscheduler(struct task_struct *p, const struct sched_attr *attr)
{
	return change_attr(p, attr, DEQUEUE_SAVE | DEQUEUE_MOVE);
}

/* A cgroup.procs write: the task leaves its queue, changes group, and comes back. */
void sched_move_task(struct task_struct *p, struct task_group *tg)
{
	struct rq *rq = task_rq(p);
	bool queued = task_on_rq_queued(p), running = task_current(rq, p);

	if (p->sched_task_group == tg)
		return;
	if (p->state == TASK_NEW) {
		p->sched_task_group = tg;
		return;
	}
	update_rq_clock(rq);
	if (queued)
		dequeue_task(rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE);
	if (running)
		p->sched_class->put_prev_task(rq, p, NULL);
	p->sched_task_group = tg;
	if (p->sched_class->task_change_group)
		p->sched_class->task_change_group(p);
	else
		set_task_rq(p, p->cpu);
	if (queued)
		enqueue_task(rq, p, ENQUEUE_RESTORE | ENQUEUE_MOVE);
	if (running) {
		p->sched_class->set_next_task(rq, p, false);
		/* it may have joined a throttled group: let schedule() decide */
		resched_curr(rq);
	}
}

/* ---- affinity ---- */

/*
 * cpumask_any_and_distribute(): the first CPU of a & b after *prev, wrapping,
 * so successive picks from one caller spread out (the kernel keeps *prev per
 * calling CPU); nr_cpus if none.
 */
int cpumask_any_and_distribute(const struct cpumask *a, const struct cpumask *b, u32 *prev)
{
	int n = ST->nr_cpus;

	for (int i = 1; i <= n; i++) {
		int cpu = (int)((*prev + (u32)i) % (u32)n);

		if (cpumask_test(a, cpu) && cpumask_test(b, cpu)) {
			*prev = (u32)cpu;
			return cpu;
		}
	}
	return n;
}

static void set_cpus_allowed_common(struct task_struct *p, const struct cpumask *new_mask)
{
	p->cpus_mask = *new_mask;
	p->nr_cpus_allowed = (int)cpumask_weight(new_mask);
	if (p->sched_class->set_cpus_allowed)
		p->sched_class->set_cpus_allowed(p);
}

/* __do_set_cpus_allowed(): from 4.2 the task leaves its queue around the change. */
static void do_set_cpus_allowed(struct task_struct *p, const struct cpumask *new_mask)
{
	struct rq *rq = task_rq(p);
	bool change = kernel_at_least(4, 2) && p->state != TASK_NEW;
	bool queued = change && task_on_rq_queued(p), running = change && task_current(rq, p);

	if (queued)
		dequeue_task(rq, p, DEQUEUE_SAVE);
	if (running)
		p->sched_class->put_prev_task(rq, p, NULL);
	set_cpus_allowed_common(p, new_mask);
	if (queued)
		enqueue_task(rq, p, ENQUEUE_RESTORE);
	if (running)
		p->sched_class->set_next_task(rq, p, false);
}

/*
 * __set_cpus_allowed_ptr() for sched_setaffinity(): a task whose CPU is no
 * longer allowed goes to cpumask_any_and_distribute() of the new mask (from
 * 5.7; the first allowed CPU before). A running one (before 3.18, a queued one
 * too) is moved by its CPU's stopper, whose CPU is returned for the caller to
 * run at once, as stop_one_cpu() waits; a queued one from 3.18 moves at once;
 * a sleeping one is placed by its next wakeup. -1 when no stopper is needed.
 */
int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask)
{
	struct rq *rq = task_rq(p);
	int dest;

	update_rq_clock(rq);
	if (!memcmp(&p->cpus_mask, new_mask, sizeof(*new_mask)))
		return -1;
	/* every CPU of the machine is active (cpu_valid_mask): the pick is among the new mask's */
	if (kernel_at_least(5, 7))
		dest = cpumask_any_and_distribute(new_mask, new_mask, &rq->distribute_cpu_mask_prev);
	else
		dest = cpumask_next_from(new_mask, 0);
	do_set_cpus_allowed(p, new_mask);
	if (p->state == TASK_NEW || cpumask_test(new_mask, p->cpu) || !p->on_rq)
		return -1;
	if (task_current(rq, p) || !kernel_at_least(3, 18)) {
		/* each call queues a stop work (stop_one_cpu()); asked again, p moves once, as last asked */
		list_del_init(&p->migration_node);
		p->migration_dest = dest;
		list_add_tail(&p->migration_node, &rq->migration_queue);
		resched_curr(rq);
		return rq->cpu;
	}
	move_queued_task(p, dest, rq->cpu, MIGRATE_AFFINITY);
	return -1;
}

/* migration_cpu_stop(), once per queued work: each task still queued here moves. */
void migration_cpu_stop(struct rq *rq)
{
	while (!list_empty(&rq->migration_queue)) {
		struct task_struct *p =
			list_first_entry(&rq->migration_queue, struct task_struct, migration_node);

		list_del_init(&p->migration_node);
		if (task_rq(p) == rq && task_on_rq_queued(p) && task_allowed_on_cpu(p, p->migration_dest))
			move_queued_task(p, p->migration_dest, rq->cpu, MIGRATE_AFFINITY);
	}
}

void sched_change_class(struct task_struct *p, const struct sched_class *class)
{
	struct rq *rq = task_rq(p);
	const struct sched_class *prev_class = p->sched_class;
	bool queued = task_on_rq_queued(p), running = task_current(rq, p);

	update_rq_clock(rq);
	if (queued)
		dequeue_task(rq, p, DEQUEUE_SAVE | DEQUEUE_MOVE);
	if (running)
		p->sched_class->put_prev_task(rq, p, NULL);
	p->sched_class = class;
	if (class->switching_to)
		class->switching_to(rq, p);
	if (queued)
		enqueue_task(rq, p, ENQUEUE_RESTORE | ENQUEUE_MOVE);
	if (running)
		class->set_next_task(rq, p, false);
	check_class_changed(rq, p, prev_class, p->prio);
}

void set_user_nice(struct task_struct *p, int nice)
{
	struct sched_attr attr;

	/* an RT or deadline task keeps its weight: the nice counts once it is fair again */
	if ((rt_policy(p->policy) || dl_policy(p->policy)) && p->state != TASK_NEW) {
		int old_nice = PRIO_TO_NICE(p->static_prio);

		p->static_prio = NICE_TO_PRIO(nice);
		if (p->state != TASK_DEAD)
			emit_set_nice(p, old_nice);
		return;
	}
	sched_getattr(p, &attr);
	attr.nice = nice;
	change_attr(p, &attr, DEQUEUE_SAVE);
}

/* ---- yield and exit ---- */

void do_sched_yield(struct rq *rq)
{
	struct sched_event ev;

	update_rq_clock(rq);
	sched_event_init(&ev, EV_YIELD, rq->cpu);
	ev.yield.pid = rq->curr->pid;
	sched_emit(&ev);
	rq->curr->sched_class->yield_task(rq);
	resched_curr(rq);
}

/*
 * yield_to(p, preempt=true), as KVM uses it on a pause-loop exit: make p
 * the next buddy on its queue, yield, and kick p's CPU. False when there is
 * nothing to yield to (both CPUs have one task), or p cannot take it.
 */
bool yield_to(struct task_struct *p)
{
	struct rq *rq = cpu_rq(ST->waker_cpu), *p_rq = task_rq(p);
	struct task_struct *curr = rq->curr;
	struct sched_event ev;

	if (rq->nr_running == 1 && p_rq->nr_running == 1)
		return false;
	if (curr->sched_class != p->sched_class || task_current(p_rq, p) ||
	    p->state != TASK_RUNNING || !task_on_rq_queued(p) || !p->sched_class->yield_to_task)
		return false;
	update_rq_clock(rq);
	sched_event_init(&ev, EV_YIELD, rq->cpu);
	ev.yield.pid = curr->pid;
	ev.yield.to_pid = p->pid;
	sched_emit(&ev);
	if (!p->sched_class->yield_to_task(rq, p))
		return false;
	if (p_rq != rq)
		resched_curr(p_rq);
	resched_curr(rq);
	return true;
}

void do_task_dead(struct rq *rq)
{
	struct task_struct *p = rq->curr;
	struct sched_event ev;

	update_rq_clock(rq);
	sched_event_init(&ev, EV_SCHED_PROCESS_EXIT, rq->cpu);
	ev.exit.pid = p->pid;
	ev.exit.prio = p->prio;
	sched_emit(&ev);
	p->state = TASK_DEAD;
	timer_cancel(&ST->tq, &p->wake_timer.timer);
	hrtimer_sleep_over(p);
	/* task_dead_dl(): the bandwidth goes back to the root domain */
	if (dl_policy(p->policy)) {
		ST->dl_total_bw -= p->dl.dl_bw;
		timer_cancel(&ST->tq, &p->dl.dl_timer);
	}
	resched_curr(rq);
}
