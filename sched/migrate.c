// SPDX-License-Identifier: GPL-2.0
/*
 * What a task carries from one CPU to another (kernel/sched/fair.c
 * migrate_task_rq_fair(), remove_entity_load_avg()): a woken task's load
 * leaves its old queue through cfs_rq->removed and joins the new one on
 * enqueue (last_update_time = 0 asks for the attach); a task pulled while
 * queued is detached on its dequeue instead (DO_DETACH in fair.c). EEVDF
 * keeps the lag saved at dequeue (placement on the new queue reuses it);
 * legacy CFS keeps vruntime relative to min_vruntime across the move.
 */
#include "internal.h"

/* Age a blocked entity's averages to its queue's last update. */
static void sync_entity_load_avg(struct sched_entity *se)
{
	__update_load_avg_blocked_se(cfs_rq_of(se)->avg.last_update_time, se);
}

static void remove_entity_load_avg(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	sync_entity_load_avg(se);
	cfs_rq->removed.nr++;
	cfs_rq->removed.util_avg += se->avg.util_avg;
	cfs_rq->removed.load_avg += se->avg.load_avg;
	cfs_rq->removed.runnable_avg += se->avg.runnable_avg;
}

/* set_task_cpu()'s class hook, before p->cpu changes. */
void migrate_task_rq_fair(struct task_struct *p, int new_cpu)
{
	struct sched_entity *se = &p->se;

	(void)new_cpu;
	if (p->on_rq != TASK_ON_RQ_MIGRATING) {
		/* a wakeup: the old queue drops the load at its next update */
		remove_entity_load_avg(se);
		if (sched_legacy_cfs())
			se->vruntime -= cfs_rq_of(se)->min_vruntime;
	}
	/* tell the new CPU to attach it */
	se->avg.last_update_time = 0;
}
