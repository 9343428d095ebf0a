// SPDX-License-Identifier: GPL-2.0
/* The ext class as views, reports and tests may see it: see sched_ext_info() in api/sched.h. */
#include "ext.h"

void sched_ext_info(const struct sched_engine *e, struct sched_ext_info *out)
{
	const struct scx_sched *s;

	sched_enter(e);
	s = ST->scx;
	*out = (struct sched_ext_info){ .loaded = s != NULL };
	if (!s)
		return;
	out->enabled = scx_enabled() && s->enable_state == SCX_OPS_ENABLED;
	out->partial = s->ops->flags & SCX_OPS_SWITCH_PARTIAL;
	out->name = s->ops->name;
	out->exit_kind = s->exit_kind;
	out->exit_msg = s->exit_msg;
	out->nr_dsqs = s->nr_nodes;
	for (int i = 0; i < s->nr_user; i++)
		out->nr_dsqs += s->user[i].id != SCX_DSQ_INVALID;
}

/* Shared queue i: the global ones, then the live ones the policy created. */
static const struct scx_dispatch_q *shared_dsq(int i)
{
	const struct scx_sched *s = ST->scx;

	if (!s || i < 0)
		return NULL;
	if (i < s->nr_nodes)
		return &s->global[i];
	i -= s->nr_nodes;
	for (int u = 0; u < s->nr_user; u++)
		if (s->user[u].id != SCX_DSQ_INVALID && !i--)
			return &s->user[u];
	return NULL;
}

void sched_ext_dsq(const struct sched_engine *e, int i, struct sched_ext_dsq_info *out)
{
	const struct scx_dispatch_q *dsq;

	sched_enter(e);
	dsq = shared_dsq(i);
	*out = (struct sched_ext_dsq_info){ .id = SCX_DSQ_INVALID };
	if (!dsq)
		return;
	*out = (struct sched_ext_dsq_info){
		.id = dsq->id,
		.node = dsq->node,
		.nr = (int)dsq->nr,
		.vtime = dsq->nr_priq > 0,
	};
}

int sched_ext_dsq_tasks(const struct sched_engine *e, int i, int *tasks, int max)
{
	const struct scx_dispatch_q *dsq;
	const struct scx_entity *se;
	int n = 0;

	sched_enter(e);
	if (!ST->scx)
		return 0;
	dsq = i < 0 ? (-1 - i < ST->nr_cpus ? &ST->scx->rq[-1 - i].local_dsq : NULL) : shared_dsq(i);
	if (!dsq)
		return 0;
	list_for_each_entry (se, &dsq->list, dsq_node) {
		if (n >= max)
			break;
		tasks[n++] = se->task->idx;
	}
	return n;
}

/* The ext part of sched_task_info(). */
void scx_task_info(const struct task_struct *p, struct sched_task_info *out)
{
	const struct scx_entity *se;

	if (!ST->scx || p->idx < 0)
		return;
	se = &ST->scx->ent[p->idx];
	out->ext = task_on_scx(p);
	out->ext_slice = se->view.scx.slice;
	out->ext_vtime = se->view.scx.dsq_vtime;
	out->ext_weight = se->view.scx.weight;
	out->ext_dsq = !se->dsq		   ? SCX_DSQ_INVALID
		       : se->dsq->cpu >= 0 ? SCX_DSQ_LOCAL_ON | (u64)se->dsq->cpu
					   : se->dsq->id;
}
