// SPDX-License-Identifier: GPL-2.0
/*
 * The idle class (kernel/sched/idle.c): runs the per-CPU idle task when
 * nothing else can. The idle task is never queued, woken, forked or yielding,
 * so only the pick, put/set and tick hooks exist. Entering and leaving it
 * tell the ext class (scx_update_idle()).
 */
#include "internal.h"
#include "ext.h"

static struct task_struct *pick_task_idle(struct rq *rq)
{
	if (ST->scx)
		scx_update_idle(rq, true, false);
	return rq->idle;
}

/* A deferred fair server counts idle time as time fair tasks could have had. */
static void put_prev_task_idle(struct rq *rq, struct task_struct *p, struct task_struct *next)
{
	dl_server_update_idle_time(rq, p);
	if (ST->scx)
		scx_update_idle(rq, false, true);
}

static void set_next_task_idle(struct rq *rq, struct task_struct *p, bool first)
{
	if (ST->scx)
		scx_update_idle(rq, true, true);
	p->se.exec_start = rq_clock_task(rq);
}

static void task_tick_idle(struct rq *rq, struct task_struct *p, int queued)
{
}

const struct sched_class idle_sched_class = {
	.name = "idle",
	.pick_task = pick_task_idle,
	.put_prev_task = put_prev_task_idle,
	.set_next_task = set_next_task_idle,
	.task_tick = task_tick_idle,
};
