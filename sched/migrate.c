/*
 * What a task carries from one CPU to another (kernel/sched/fair.c
 * migrate_task_rq_fair(), remove_entity_load_avg(), detach_entity_load_avg()):
 * a woken task's load leaves its old queue through cfs_rq->removed and
 * joins the new one on enqueue (last_update_time = 0 asks for the attach);
 * a task pulled while queued is detached on its dequeue instead. EEVDF
 * keeps the lag saved at dequeue (placement on the new queue reuses it);
 * legacy CFS keeps vruntime relative to min_vruntime across the move.
 */
#include "internal.h"

static void sub_positive(unsigned long *p, unsigned long v)
{
	*p = *p > v ? *p - v : 0;
}

static void sub_positive_64(u64 *p, u64 v)
{
	*p = *p > v ? *p - v : 0;
}

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

void detach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	struct sched_avg *sa = &cfs_rq->avg;
	u64 w = scale_load_down(se->load.weight);

	/* dequeue_load_avg() */
	sub_positive(&sa->load_avg, se->avg.load_avg);
	sub_positive_64(&sa->load_sum, w * se->avg.load_sum);
	sa->load_sum = MAX((u32)sa->load_sum, (u32)(sa->load_avg * PELT_MIN_DIVIDER));

	sub_positive(&sa->util_avg, se->avg.util_avg);
	sa->util_sum = sa->util_sum > se->avg.util_sum ? sa->util_sum - se->avg.util_sum : 0;
	sa->util_sum = MAX(sa->util_sum, (u32)(sa->util_avg * PELT_MIN_DIVIDER));

	sub_positive(&sa->runnable_avg, se->avg.runnable_avg);
	sub_positive_64(&sa->runnable_sum, se->avg.runnable_sum);
	sa->runnable_sum = MAX((u32)sa->runnable_sum, (u32)(sa->runnable_avg * PELT_MIN_DIVIDER));
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
