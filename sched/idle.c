/* The idle class (kernel/sched/idle.c): runs the per-CPU idle task when nothing else can. */
#include "internal.h"

static struct task_struct *pick_task_idle(struct rq *rq)
{
	return rq->idle;
}

static void enqueue_task_idle(struct rq *rq, struct task_struct *p, int flags)
{
}

static bool dequeue_task_idle(struct rq *rq, struct task_struct *p, int flags)
{
	return true;
}

static void put_prev_task_idle(struct rq *rq, struct task_struct *p)
{
}

static void set_next_task_idle(struct rq *rq, struct task_struct *p)
{
}

static void task_tick_idle(struct rq *rq, struct task_struct *p, int queued)
{
}

static void yield_task_idle(struct rq *rq)
{
}

static void wakeup_preempt_idle(struct rq *rq, struct task_struct *p, int flags)
{
	resched_curr(rq);
}

static void update_curr_idle(struct rq *rq)
{
}

static void task_fork_idle(struct task_struct *p)
{
}

const struct sched_class idle_sched_class = {
	.name = "idle",
	.enqueue_task = enqueue_task_idle,
	.dequeue_task = dequeue_task_idle,
	.yield_task = yield_task_idle,
	.wakeup_preempt = wakeup_preempt_idle,
	.pick_task = pick_task_idle,
	.put_prev_task = put_prev_task_idle,
	.set_next_task = set_next_task_idle,
	.task_tick = task_tick_idle,
	.update_curr = update_curr_idle,
	.task_fork = task_fork_idle,
};
