// SPDX-License-Identifier: GPL-2.0
/*
 * The real-time class (kernel/sched/rt.c): SCHED_FIFO and SCHED_RR on a
 * per-CPU array of MAX_RT_PRIO FIFO queues with a bitmap of the non-empty
 * ones, and the root rt_rq's throttling (sched_rt_runtime_us of every
 * sched_rt_period_us) that releases up to 6.11 apply. From 6.12 only RT
 * task groups are throttled; the fair deadline server (deadline.c) keeps
 * fair tasks from starving instead.
 */
#include "internal.h"
#include "balance.h"

static struct rq *rq_of_rt_rq(struct rt_rq *rt_rq)
{
	return container_of(rt_rq, struct rq, rt);
}

/* The root rt_rq's bandwidth limit exists up to 6.11 (without RT_GROUP_SCHED). */
static bool rt_bandwidth_modelled(void)
{
	return !kernel_at_least(6, 12);
}

static bool rt_bandwidth_enabled(void)
{
	return rt_bandwidth_modelled() && sysctl(TUN_RT_RUNTIME) != RUNTIME_INF;
}

void init_rt_rq(struct rt_rq *rt_rq, u64 rt_runtime)
{
	memset(rt_rq, 0, sizeof(*rt_rq));
	for (int prio = 0; prio < MAX_RT_PRIO; prio++)
		INIT_LIST_HEAD(&rt_rq->queue[prio]);
	rt_rq->rt_runtime = rt_runtime;
}

/* sched_rr_timeslice in ticks: msecs_to_jiffies() rounds up; 0 means RR_TIMESLICE. */
unsigned int sched_rr_timeslice(void)
{
	u64 ns = sysctl(TUN_RR_TIMESLICE) ? sysctl(TUN_RR_TIMESLICE) : 100 * NSEC_PER_MSEC;
	/* msecs_to_jiffies() of whole ms: 100 ms at HZ 300 is 30 ticks */
	u64 ticks = (ns / NSEC_PER_MSEC * E->sc->hz + 999) / 1000;

	return ticks ? (unsigned int)ticks : 1;
}

/* ---- the priority array ---- */

static int sched_find_first_bit(const u64 *bitmap)
{
	for (int w = 0; w < RT_PRIO_WORDS; w++)
		if (bitmap[w])
			return w * 64 + __builtin_ctzll(bitmap[w]);
	return MAX_RT_PRIO;
}

static void __enqueue_rt_entity(struct rt_rq *rt_rq, struct sched_rt_entity *rt_se, int prio, bool head)
{
	struct list_head *queue = &rt_rq->queue[prio];

	if (head)
		list_add(&rt_se->run_list, queue);
	else
		list_add_tail(&rt_se->run_list, queue);
	rt_rq->bitmap[prio / 64] |= 1ULL << (prio % 64);
	rt_se->on_rq = 1;
}

static void __dequeue_rt_entity(struct rt_rq *rt_rq, struct sched_rt_entity *rt_se, int prio)
{
	list_del_init(&rt_se->run_list);
	if (list_empty(&rt_rq->queue[prio]))
		rt_rq->bitmap[prio / 64] &= ~(1ULL << (prio % 64));
	rt_se->on_rq = 0;
}

/* To the tail of its priority's queue (or the head), as sched_yield() and RR expiry do. */
static void requeue_task_rt(struct rq *rq, struct task_struct *p, bool head)
{
	struct sched_rt_entity *rt_se = &p->rt;

	if (!rt_se->on_rq)
		return;
	__dequeue_rt_entity(&rq->rt, rt_se, p->prio);
	__enqueue_rt_entity(&rq->rt, rt_se, p->prio, head);
}

/* ---- rq->nr_running: a throttled rt_rq's tasks do not count ---- */

static void emit_rt_throttle(struct rt_rq *rt_rq, bool throttled)
{
	struct sched_event ev;

	sched_event_init(&ev, throttled ? EV_RT_THROTTLE : EV_RT_UNTHROTTLE, rq_of_rt_rq(rt_rq)->cpu);
	ev.rt_bw.rt_time = rt_rq->rt_time;
	ev.rt_bw.rt_runtime = rt_rq->rt_runtime;
	ev.rt_bw.nr_running = rt_rq->rt_nr_running;
	sched_emit(&ev);
}

static void dequeue_top_rt_rq(struct rt_rq *rt_rq)
{
	if (!rt_rq->rt_queued)
		return;
	rq_of_rt_rq(rt_rq)->nr_running -= rt_rq->rt_nr_running;
	rt_rq->rt_queued = false;
}

static void enqueue_top_rt_rq(struct rt_rq *rt_rq)
{
	if (rt_rq->rt_queued || rt_rq->rt_throttled)
		return;
	if (rt_rq->rt_nr_running) {
		rq_of_rt_rq(rt_rq)->nr_running += rt_rq->rt_nr_running;
		rt_rq->rt_queued = true;
	}
}

/* ---- RT throttling (<= 6.11): def_rt_bandwidth and its period timer ---- */

/* start_rt_bandwidth(): the first expiry is at once, then every period. */
static void rt_start_period_timer(void)
{
	if (!rt_bandwidth_enabled() || timer_queued(&ST->rt_period_timer))
		return;
	timer_arm(&ST->tq, &ST->rt_period_timer, ST->now);
}

static int sched_rt_runtime_exceeded(struct rt_rq *rt_rq)
{
	u64 runtime = rt_rq->rt_runtime;

	if (rt_rq->rt_throttled)
		return 1;
	if (runtime == RUNTIME_INF || runtime >= sysctl(TUN_RT_PERIOD))
		return 0;
	if (rt_rq->rt_time > runtime) {
		if (!runtime) {
			/* nothing to hand back next period either: forget it */
			rt_rq->rt_time = 0;
			return 0;
		}
		rt_rq->rt_throttled = true;
		emit_rt_throttle(rt_rq, true);
		dequeue_top_rt_rq(rt_rq);
		return 1;
	}
	return 0;
}

/* do_sched_rt_period_timer(): hand every CPU one period's runtime back. */
void sched_rt_period_timer(void)
{
	bool idle = true, throttled = false;

	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		struct rq *rq = cpu_rq(cpu);
		struct rt_rq *rt_rq = &rq->rt;
		bool enqueue = false;

		/* RT_RUNTIME_SHARE is off: each rt_rq has exactly the global runtime */
		rt_rq->rt_runtime = sysctl(TUN_RT_RUNTIME);
		if (!rt_rq->rt_time && !rt_rq->rt_nr_running)
			continue;
		update_rq_clock(rq);
		if (rt_rq->rt_time) {
			u64 runtime = rt_rq->rt_runtime;

			rt_rq->rt_time -= MIN(rt_rq->rt_time, runtime);
			if (rt_rq->rt_throttled && rt_rq->rt_time < runtime) {
				rt_rq->rt_throttled = false;
				emit_rt_throttle(rt_rq, false);
				enqueue = true;
			}
			if (rt_rq->rt_time || rt_rq->rt_nr_running)
				idle = false;
		} else if (rt_rq->rt_nr_running) {
			idle = false;
			if (!rt_rq->rt_throttled)
				enqueue = true;
		}
		if (rt_rq->rt_throttled)
			throttled = true;
		if (enqueue && rt_rq->rt_nr_running) {
			enqueue_top_rt_rq(rt_rq);
			resched_curr(rq);
		}
	}
	if (!throttled && !rt_bandwidth_enabled())
		idle = true;
	if (!idle)
		timer_arm(&ST->tq, &ST->rt_period_timer, ST->now + sysctl(TUN_RT_PERIOD));
}

/* Charge the running RT task; the rt_rq's budget too while throttling exists. */
static void update_curr_rt(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct rt_rq *rt_rq = &rq->rt;
	u64 now = rq_clock_task(rq);
	s64 delta_exec;

	if (curr->sched_class != &rt_sched_class)
		return;
	delta_exec = (s64)(now - curr->se.exec_start);
	if (delta_exec <= 0)
		return;
	curr->se.exec_start = now;
	curr->se.sum_exec_runtime += (u64)delta_exec;

	if (!rt_bandwidth_enabled())
		return;
	rt_rq->rt_time += (u64)delta_exec;
	if (sched_rt_runtime_exceeded(rt_rq)) {
		resched_curr(rq);
		rt_start_period_timer();
	}
}

/* ---- wakeup placement (select_task_rq_rt(), find_lowest_rq()) ---- */


/* rt.highest_prio.curr: the best queued RT prio, MAX_RT_PRIO - 1 when none. */
static int rt_highest_prio(struct rq *rq)
{
	return MIN(sched_find_first_bit(rq->rt.bitmap), MAX_RT_PRIO - 1);
}

/* convert_prio(): a CPU's cpupri, 0 without RT tasks, else 99 - its best prio (1..99). */
static int rq_cpupri(struct rq *rq)
{
	return MAX_RT_PRIO - 1 - rt_highest_prio(rq);
}

/*
 * cpupri_find(): the allowed CPUs of the lowest cpupri below p's own. Its
 * current CPU if it is one of them, else the first (the kernel then walks
 * the sched domains for a cache-close one; no domains here yet).
 */
static int find_lowest_rq(struct task_struct *p)
{
	int best = MAX_RT_PRIO - 1 - p->prio, target = -1;

	if (p->nr_cpus_allowed == 1)
		return -1;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		int cp = rq_cpupri(cpu_rq(cpu));

		if (task_allowed_on_cpu(p, cpu) && cp < best) {
			best = cp;
			target = cpu;
		}
	}
	if (target >= 0 && task_allowed_on_cpu(p, p->cpu) && rq_cpupri(task_rq(p)) == best)
		return p->cpu;
	return target;
}

/*
 * A waking or new RT task leaves a CPU whose current RT (or deadline) task
 * it could not preempt, for one running only lower-priority work; one that
 * can preempt stays (the preempted task would be pushed, not modelled).
 */
int select_task_rq_rt(struct task_struct *p, int cpu)
{
	struct task_struct *curr = cpu_rq(cpu)->curr;

	if (rt_task(curr) && (curr->nr_cpus_allowed < 2 || curr->prio <= p->prio)) {
		int target = find_lowest_rq(p);

		if (target != -1 && p->prio < rt_highest_prio(cpu_rq(target)))
			cpu = target;
	}
	return cpu;
}

/* ---- push and pull: the best RT tasks run, one per CPU, where affinity allows ---- */

/* Queued, not running, and free to move. */
static bool rt_pushable(struct rq *rq, struct task_struct *p)
{
	return !task_current(rq, p) && p->nr_cpus_allowed > 1;
}

/*
 * pick_next_pushable_task() / pick_highest_pushable_task(): the best
 * queued task that could move (to cpu, when cpu >= 0), in queue order.
 */
static struct task_struct *pick_pushable_task(struct rq *rq, int cpu)
{
	struct rt_rq *rt_rq = &rq->rt;

	for (int prio = sched_find_first_bit(rt_rq->bitmap); prio < MAX_RT_PRIO; prio++) {
		struct sched_rt_entity *rt_se;

		list_for_each_entry (rt_se, &rt_rq->queue[prio], run_list) {
			struct task_struct *p = rt_task_of(rt_se);

			if (rt_pushable(rq, p) && (cpu < 0 || task_allowed_on_cpu(p, cpu)))
				return p;
		}
	}
	return NULL;
}

/* push_rt_task(): move the best waiting task to a CPU running something lower. */
static bool push_rt_task(struct rq *rq)
{
	struct task_struct *next_task;
	int cpu;

	if (rq->rt.rt_nr_running < 2 || !(next_task = pick_pushable_task(rq, -1)))
		return false;
	/* it is about to preempt the current task here: nothing to push */
	if (next_task->prio < rq->curr->prio) {
		resched_curr(rq);
		return false;
	}
	cpu = find_lowest_rq(next_task);
	if (cpu < 0 || cpu == rq->cpu || rt_highest_prio(cpu_rq(cpu)) <= next_task->prio)
		return false;
	move_queued_task(next_task, cpu, rq->cpu, MIGRATE_RT_PUSH);
	return true;
}

void push_rt_tasks(struct rq *rq)
{
	while (push_rt_task(rq))
		;
}

/* pull_rt_task(): take from overloaded CPUs the tasks better than anything here. */
static void pull_rt_task(struct rq *this_rq)
{
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		struct rq *src = cpu_rq(cpu);
		struct task_struct *p;

		if (src == this_rq || src->rt.rt_nr_running < 2)
			continue;
		p = pick_pushable_task(src, this_rq->cpu);
		/* one about to preempt its CPU's current task stays there */
		if (p && p->prio < rt_highest_prio(this_rq) && p->prio >= src->curr->prio)
			move_queued_task(p, this_rq->cpu, this_rq->cpu, MIGRATE_RT_PULL);
	}
}

void balance_rt(struct rq *rq, struct task_struct *prev)
{
	if (!prev->rt.on_rq && rt_highest_prio(rq) > prev->prio)
		pull_rt_task(rq);
}

/* task_woken_rt(): a wakee that cannot run here now is pushed if it can go elsewhere. */
void task_woken_rt(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	if (!task_current(rq, p) && !rq->need_resched && p->nr_cpus_allowed > 1 && rt_task(curr) &&
	    (curr->nr_cpus_allowed < 2 || curr->prio <= p->prio))
		push_rt_tasks(rq);
}

/* ---- class hooks ---- */

static void enqueue_task_rt(struct rq *rq, struct task_struct *p, int flags)
{
	struct rt_rq *rt_rq = &rq->rt;

	dequeue_top_rt_rq(rt_rq);
	__enqueue_rt_entity(rt_rq, &p->rt, p->prio, flags & ENQUEUE_HEAD);
	rt_rq->rt_nr_running++;
	enqueue_top_rt_rq(rt_rq);
	rt_start_period_timer();	/* inc_rt_group() */
}

static bool dequeue_task_rt(struct rq *rq, struct task_struct *p, int flags)
{
	struct rt_rq *rt_rq = &rq->rt;

	update_curr_rt(rq);
	dequeue_top_rt_rq(rt_rq);
	__dequeue_rt_entity(rt_rq, &p->rt, p->prio);
	rt_rq->rt_nr_running--;
	enqueue_top_rt_rq(rt_rq);
	return true;
}

static void yield_task_rt(struct rq *rq)
{
	requeue_task_rt(rq, rq->curr, false);
}

/* Only a strictly higher priority preempts; equal ones wait their turn. */
static void wakeup_preempt_rt(struct rq *rq, struct task_struct *p, int flags)
{
	if (p->prio < rq->curr->prio)
		resched_curr(rq);
}

static struct task_struct *pick_task_rt(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;

	if (!rt_rq->rt_queued)
		return NULL;
	return rt_task_of(list_first_entry(&rt_rq->queue[sched_find_first_bit(rt_rq->bitmap)],
					   struct sched_rt_entity, run_list));
}

/* A preempted RT task stays where it is in its queue: at the head. */
static void put_prev_task_rt(struct rq *rq, struct task_struct *p, struct task_struct *next)
{
	update_curr_rt(rq);
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, 1);
}

static void set_next_task_rt(struct rq *rq, struct task_struct *p, bool first)
{
	p->se.exec_start = rq_clock_task(rq);
	p->se.prev_sum_exec_runtime = p->se.sum_exec_runtime;
	/* an RT prev has updated it at put_prev: only a class change starts the running stretch */
	if (rq->curr->sched_class != &rt_sched_class)
		update_rt_rq_load_avg(rq_clock_pelt(rq), rq, 0);
}

static void task_tick_rt(struct rq *rq, struct task_struct *p, int queued)
{
	struct sched_rt_entity *rt_se = &p->rt;

	update_curr_rt(rq);
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, 1);
	if (p->policy != SCHED_RR)
		return;
	if (--rt_se->time_slice)
		return;
	rt_se->time_slice = sched_rr_timeslice();
	/* requeue only when another task shares its priority */
	if (rt_se->run_list.prev != rt_se->run_list.next) {
		requeue_task_rt(rq, p, false);
		resched_curr(rq);
	}
}

static void switched_from_rt(struct rq *rq, struct task_struct *p)
{
	/* the last RT task here left the class: others may be waiting elsewhere */
	if (task_on_rq_queued(p) && !rq->rt.rt_nr_running)
		pull_rt_task(rq);
}

static void switched_to_rt(struct rq *rq, struct task_struct *p)
{
	if (task_current(rq, p) || !task_on_rq_queued(p))
		return;
	if (p->nr_cpus_allowed > 1 && rq->rt.rt_nr_running > 1)
		push_rt_tasks(rq);
	if (p->prio < rq->curr->prio)
		resched_curr(rq);
}

static void prio_changed_rt(struct rq *rq, struct task_struct *p, int oldprio)
{
	if (!task_on_rq_queued(p))
		return;
	if (task_current(rq, p)) {
		/* lowered: better tasks waiting elsewhere may come, or one queued here take over */
		if (oldprio < p->prio)
			pull_rt_task(rq);
		if (p->prio > sched_find_first_bit(rq->rt.bitmap))
			resched_curr(rq);
	} else if (p->prio < rq->curr->prio) {
		resched_curr(rq);
	}
}

const struct sched_class rt_sched_class = {
	.name = "rt",
	.enqueue_task = enqueue_task_rt,
	.dequeue_task = dequeue_task_rt,
	.yield_task = yield_task_rt,
	.wakeup_preempt = wakeup_preempt_rt,
	.pick_task = pick_task_rt,
	.put_prev_task = put_prev_task_rt,
	.set_next_task = set_next_task_rt,
	.task_tick = task_tick_rt,
	.switched_from = switched_from_rt,
	.switched_to = switched_to_rt,
	.prio_changed = prio_changed_rt,
};
