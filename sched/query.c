// SPDX-License-Identifier: GPL-2.0
/* The read API: what views, reports and tests may know of the engine's state. */
#include <stdio.h>

#include "internal.h"
#include "ext.h"
#include "api/topology.h"

/* Readers may be called between steps of any engine. */

const struct sched_scenario *sched_scenario_of(const struct sched_engine *e)
{
	return e->sc;
}

int sched_nr_cpus(const struct sched_engine *e)
{
	return e->st->nr_cpus;
}

int sched_nr_tasks(const struct sched_engine *e)
{
	return e->st->nr_tasks;
}

int sched_task_by_pid(const struct sched_engine *e, int pid)
{
	return pid >= 1 && pid <= e->st->nr_tasks ? pid - 1 : -1;
}

const char *sched_comm(const struct sched_engine *e, int pid, int cpu)
{
	if (pid >= 1 && pid <= e->st->nr_tasks)
		return e->sc->task[pid - 1].name;
	return cpu >= 0 && cpu < e->st->nr_cpus ? e->idle_comm[cpu] : "swapper";
}

static void avg_info(const struct sched_avg *sa, struct sched_avg_info *out)
{
	out->load_avg = sa->load_avg;
	out->runnable_avg = sa->runnable_avg;
	out->util_avg = sa->util_avg;
}

void sched_task_info(const struct sched_engine *e, int task, struct sched_task_info *out)
{
	struct task_struct *p = &e->st->task[task];
	struct sched_entity *se = &p->se;
	struct cfs_rq *cfs_rq;

	sched_enter(e);
	cfs_rq = se->cfs_rq ? se->cfs_rq : &cpu_rq(p->cpu)->cfs;
	*out = (struct sched_task_info){
		.pid = p->pid,
		.name = p->spec->name,
		.state = p->state,
		.on_cpu = p->on_cpu,
		.on_rq = se->on_rq,
		.sched_delayed = se->sched_delayed,
		.cpu = p->cpu,
		.policy = p->policy,
		.nice = PRIO_TO_NICE(p->static_prio),
		.prio = p->prio,
		.weight = se->load.weight,
		.vruntime = se->vruntime,
		.deadline = se->deadline,
		.slice = se->slice,
		.vlag = se->vlag,
		.sum_exec_runtime = se->sum_exec_runtime,
		.run_delay = p->sched_info.run_delay,
		.pcount = p->sched_info.pcount,
		.nr_wakeups = p->nr_wakeups,
		.nr_migrations = se->nr_migrations,
		.nvcsw = p->nvcsw,
		.nivcsw = p->nivcsw,
		.group = p->sched_task_group->id,
		.rt_priority = p->rt_priority,
		.dl_runtime = p->dl.dl_runtime,
		.dl_deadline = p->dl.dl_deadline,
		.dl_period = p->dl.dl_period,
		.dl_runtime_left = p->dl.runtime,
		.dl_abs_deadline = p->dl.deadline ? p->dl.deadline - SCHED_CLOCK_BOOT : 0,
		.dl_throttled = p->dl.dl_throttled,
	};
	if (se->on_rq && !sched_legacy_cfs()) {
		out->vlag = (s64)(avg_vruntime_peek(cfs_rq) - se->vruntime);
		out->eligible = entity_eligible(cfs_rq, se);
	}
	avg_info(&se->avg, &out->avg);
	out->ext_dsq = SCX_DSQ_INVALID;
	scx_task_info(p, out);
}

/* Tasks a queue's throttle holds off its CPU: to 6.17 all below it, from 6.18 those in its limbo. */
static int throttled_tasks(const struct cfs_rq *q)
{
	return task_based_throttle() ? q->nr_limbo : q->throttled ? (int)q->h_nr_running : 0;
}

void sched_cpu_info(const struct sched_engine *e, int cpu, struct sched_cpu_info *out)
{
	struct rq *rq;

	sched_enter(e);
	rq = cpu_rq(cpu);
	*out = (struct sched_cpu_info){
		.cpu = cpu,
		.curr_pid = rq->curr->pid,
		.nr_running = (int)rq->nr_running,
		.idle = is_idle_task(rq->curr),
		.tick_stopped = rq->tick_stopped,
		.clock = rq->clock,
		.clock_task = rq->clock_task,
		.min_vruntime = rq->cfs.min_vruntime,
		.avg_vruntime = sched_legacy_cfs() ? rq->cfs.min_vruntime : avg_vruntime_peek(&rq->cfs),
		.load_weight = rq->cfs.load.weight,
		.capacity = rq->cpu_capacity_orig,
		.nr_switches = rq->nr_switches,
		.irq_time = rq->irq_time,
		.steal_time = rq->steal_time,
		.interrupted = rq->intr_end != 0,
		.irq_util = rq->avg_irq.util_avg,
		.rt_nr_running = (int)rq->rt.rt_nr_running,
		.rt_throttled = rq->rt.rt_throttled,
		.rt_time = rq->rt.rt_time,
		.dl_nr_running = (int)rq->dl.dl_nr_running,
		.fair_server_active = rq->fair_server.dl_server_active,
		.fair_server_runtime = rq->fair_server.runtime,
	};
	if (ST->scx)
		out->ext_nr_local = (int)ST->scx->rq[cpu].local_dsq.nr;
	for (int g = 1; g < ST->nr_groups; g++) {
		const struct cfs_rq *q = ST->tg[g].cfs_rq[cpu];

		out->throttled_queues += q->throttled;
		out->throttled_tasks += throttled_tasks(q);
	}
	avg_info(&rq->cfs.avg, &out->avg);
}

/* A queued entity's tasks: itself, or everything queued in its group, in place. */
static int entity_tasks(struct sched_entity *se, int *tasks, int n, int max)
{
	struct cfs_rq *q = group_cfs_rq(se);

	if (!q) {
		if (n < max)
			tasks[n++] = task_of(se)->idx;
		return n;
	}
	if (q->curr && q->curr->on_rq)
		n = entity_tasks(q->curr, tasks, n, max);
	for (se = __pick_first_entity(q); se && n < max; se = __pick_next_entity(se))
		n = entity_tasks(se, tasks, n, max);
	return n;
}

int sched_cpu_queue(const struct sched_engine *e, int cpu, int *tasks, int max)
{
	struct cfs_rq *cfs_rq;
	int n = 0;

	sched_enter(e);
	cfs_rq = &cpu_rq(cpu)->cfs;
	if (cfs_rq->curr && cfs_rq->curr->on_rq)
		n = entity_tasks(cfs_rq->curr, tasks, n, max);
	for (struct sched_entity *se = __pick_first_entity(cfs_rq); se && n < max; se = __pick_next_entity(se))
		n = entity_tasks(se, tasks, n, max);
	return n;
}

void sched_shares_cost(const struct sched_engine *e, u64 *calc_group_shares, u64 *walk_visits)
{
	*calc_group_shares = e->st->nr_calc_group_shares;
	*walk_visits = e->st->nr_shares_walk_visits;
}

/*
 * __calc_delta() caches a load's inverse weight as it computes; a reader
 * puts back what it found there, so that asking changes no byte of the
 * state (a checkpoint taken after it is the one taken before).
 */
#define INV_KEPT_MAX 64

struct inv_kept {
	int n;
	u32 *at[INV_KEPT_MAX];
	u32 was[INV_KEPT_MAX];
};

static void inv_keep(struct inv_kept *k, struct load_weight *lw)
{
	SCHED_WARN_ON(k->n >= INV_KEPT_MAX);
	if (k->n < INV_KEPT_MAX) {
		k->at[k->n] = &lw->inv_weight;
		k->was[k->n++] = lw->inv_weight;
	}
}

static void inv_put_back(struct inv_kept *k)
{
	while (k->n-- > 0)
		*k->at[k->n] = k->was[k->n];
}

/* sched_slice(), which divides by each level's queue weight */
static u64 sched_slice_peek(struct cfs_rq *q, struct sched_entity *se)
{
	struct inv_kept k = { 0 };
	u64 slice;

	for (struct sched_entity *s = se; s; s = s->parent)
		inv_keep(&k, &cfs_rq_of(s)->load);
	slice = sched_slice(q, se);
	inv_put_back(&k);
	return slice;
}

static void entity_info(struct cfs_rq *q, struct sched_entity *se, struct sched_entity_info *out)
{
	*out = (struct sched_entity_info){
		.task = entity_is_task(se) ? task_of(se)->idx : -1,
		.group = entity_is_task(se) ? -1 : se->my_q->tg->id,
		.curr = q->curr == se,
		.sched_delayed = se->sched_delayed,
		.eligible = true,
		.weight = se->load.weight,
		.vruntime = se->vruntime,
		.deadline = se->deadline,
		.slice = se->slice,
		.vlag = se->vlag,
		.sum_exec_runtime = se->sum_exec_runtime,
		.h_nr_running = entity_is_task(se) ? 1 : (int)se->my_q->h_nr_running,
	};
	out->buddy_next = q->next == se;
	out->buddy_last = q->last == se;
	out->buddy_skip = q->skip == se;
	if (sched_legacy_cfs()) {
		out->ideal_slice = sched_slice_peek(q, se);
		return;
	}
	out->vlag = (s64)(avg_vruntime_peek(q) - se->vruntime);
	out->eligible = entity_eligible(q, se);
	out->ideal_slice = se->slice;
	/* the rule __pick_eevdf() applies to curr */
	if (q->curr == se && protect_slice(se) && (kernel_at_least(6, 17) || sched_feat(RUN_TO_PARITY))) {
		out->protect = true;
		out->vprot = kernel_at_least(6, 17) ? se->vprot : se->deadline;
	}
}

void sched_cfs_rq_pick(const struct sched_engine *e, int cpu, int group, struct sched_pick_info *out)
{
	struct cfs_rq *q;
	struct sched_entity *pick, *se;
	bool with_curr;
	int i = 0;

	sched_enter(e);
	q = ST->tg[group].cfs_rq[cpu];
	*out = (struct sched_pick_info){ .index = -1, .why = PICK_IDLE };
	if (!q->nr_running)
		return;
	with_curr = q->curr && q->curr->on_rq;
	if (!sched_legacy_cfs()) {
		if (with_curr)
			out->nr_eligible += entity_eligible(q, q->curr);
		for (se = __pick_first_entity(q); se; se = __pick_next_entity(se))
			out->nr_eligible += entity_eligible(q, se);
	}
	/* the legacy pick converts wakeup_granularity with the leftmost's weight */
	struct inv_kept k = { 0 };

	if (with_curr)
		inv_keep(&k, &q->curr->load);
	if (__pick_first_entity(q))
		inv_keep(&k, &__pick_first_entity(q)->load);
	pick = pick_next_entity_why(q, &out->why);
	inv_put_back(&k);
	if (!pick)
		return;
	out->delayed = pick->sched_delayed;
	/* its place in sched_cfs_rq_entities()'s order: curr first, then the tree */
	if (with_curr && pick == q->curr) {
		out->index = 0;
		return;
	}
	i = with_curr;
	for (se = __pick_first_entity(q); se && se != pick; se = __pick_next_entity(se))
		i++;
	out->index = se ? i : -1;
}

int sched_cfs_rq_entities(const struct sched_engine *e, int cpu, int group, struct sched_entity_info *out,
			  int max)
{
	struct cfs_rq *q;
	int n = 0;

	sched_enter(e);
	q = ST->tg[group].cfs_rq[cpu];
	if (q->curr && q->curr->on_rq && n < max)
		entity_info(q, q->curr, &out[n++]);
	for (struct sched_entity *se = __pick_first_entity(q); se && n < max; se = __pick_next_entity(se))
		entity_info(q, se, &out[n++]);
	return n;
}

void sched_cfs_rq_info(const struct sched_engine *e, int cpu, int group, struct sched_cfs_rq_info *out)
{
	struct cfs_rq *q;

	sched_enter(e);
	q = ST->tg[group].cfs_rq[cpu];
	*out = (struct sched_cfs_rq_info){
		.min_vruntime = q->min_vruntime,
		.avg_vruntime = sched_legacy_cfs() ? q->min_vruntime : avg_vruntime_peek(q),
		.load_weight = q->load.weight,
		.nr_running = (int)q->nr_running,
		.h_nr_running = (int)q->h_nr_running,
	};
}

int sched_nr_groups(const struct sched_engine *e)
{
	return e->st->nr_groups;
}

void sched_group_info(const struct sched_engine *e, int group, struct sched_group_info *out)
{
	struct task_group *tg;
	struct cfs_bandwidth *b;
	int depth = 0;

	sched_enter(e);
	tg = &ST->tg[group];
	b = &tg->cfs_bandwidth;
	for (struct task_group *t = tg->parent; t; t = t->parent)
		depth++;
	*out = (struct sched_group_info){
		.path = e->sc->nr_groups ? e->sc->group[group].path : "/",
		.parent = tg->parent ? tg->parent->id : -1,
		.depth = depth,
		.shares = scale_load_down(tg->shares),
		.idle = tg->idle,
		.quota = group ? b->quota : RUNTIME_INF,
		.period = b->period,
		.burst = b->burst,
		.runtime = b->runtime,
		.load_avg = tg->load_avg,
		.nr_periods = b->nr_periods,
		.nr_throttled = b->nr_throttled,
		.throttled_time = b->throttled_time,
		.nr_bursts = b->nr_burst,
		.burst_time = b->burst_time,
		.period_expires = timer_queued(&b->period_timer) ? b->period_timer.expires : 0,
	};
}

void sched_group_cpu_info(const struct sched_engine *e, int group, int cpu, struct sched_group_cpu_info *out)
{
	struct task_group *tg;
	struct cfs_rq *q;
	struct sched_entity *se;

	sched_enter(e);
	tg = &ST->tg[group];
	q = tg->cfs_rq[cpu];
	se = tg->se ? tg->se[cpu] : NULL;
	*out = (struct sched_group_cpu_info){
		.nr_running = (int)q->nr_running,
		.h_nr_running = (int)q->h_nr_running,
		.load_avg = q->avg.load_avg,
		.util_avg = q->avg.util_avg,
		.tg_load_avg_contrib = q->tg_load_avg_contrib,
		.h_load = h_load_now(q),
		.throttled = q->throttled,
		.nr_throttled_tasks = throttled_tasks(q),
		.throttle_count = q->throttle_count,
		.runtime_remaining = q->runtime_enabled ? q->runtime_remaining : 0,
	};
	if (!se)
		return;
	out->weight = se->load.weight;
	out->on_rq = se->on_rq;
	out->curr = cfs_rq_of(se)->curr == se;
	out->vruntime = se->vruntime;
	out->deadline = se->deadline;
	out->slice = se->slice;
	out->vlag = se->vlag;
	if (se->on_rq && !sched_legacy_cfs()) {
		out->vlag = (s64)(avg_vruntime_peek(cfs_rq_of(se)) - se->vruntime);
		out->eligible = entity_eligible(cfs_rq_of(se), se);
	}
}

u64 sched_tunable_value(const struct sched_engine *e, enum sched_tunable t)
{
	return e->st->tunable[t];
}

bool sched_feature_enabled(const struct sched_engine *e, enum sched_feature f)
{
	return (e->st->features >> f) & 1;
}

int sched_kernel_version(const struct sched_engine *e)
{
	return e->kernel;
}

int sched_kernel_stable(const struct sched_engine *e)
{
	return e->kernel_stable;
}

int sched_variant(const struct sched_engine *e)
{
	return e->variant;
}

const char *sched_domain_name(const struct sched_engine *e, int cpu, int depth)
{
	const struct sched_domain *sd;

	if (cpu < 0 || cpu >= e->sds->nr_cpus)
		return NULL;
	for (sd = cpu_sd(e->sds, cpu); sd && depth > 0; depth--)
		sd = sd_parent(e->sds, sd);
	return sd ? sd->name : NULL;
}
