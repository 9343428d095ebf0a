/* The read API: what views, reports and tests may know of the engine's state. */
#include <stdio.h>

#include "internal.h"
#include "topology.h"

/* Readers may be called between steps of any engine. */
#define ENTER(e) (cur_engine = (struct sched_engine *)(e))

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
	/* one buffer per CPU id range is enough: the caller copies or prints at once */
	static char idle_name[24];

	if (pid >= 1 && pid <= e->st->nr_tasks)
		return e->sc->task[pid - 1].name;
	snprintf(idle_name, sizeof(idle_name), "swapper/%d", cpu);
	return idle_name;
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

	ENTER(e);
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
	};
	if (se->on_rq && !sched_legacy_cfs()) {
		out->vlag = (s64)(avg_vruntime_peek(cfs_rq) - se->vruntime);
		out->eligible = entity_eligible(cfs_rq, se);
	}
	avg_info(&se->avg, &out->avg);
}

void sched_cpu_info(const struct sched_engine *e, int cpu, struct sched_cpu_info *out)
{
	struct rq *rq;

	ENTER(e);
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
	};
	avg_info(&rq->cfs.avg, &out->avg);
}

int sched_cpu_queue(const struct sched_engine *e, int cpu, int *tasks, int max)
{
	struct cfs_rq *cfs_rq;
	int n = 0;

	ENTER(e);
	cfs_rq = &cpu_rq(cpu)->cfs;
	if (cfs_rq->curr && cfs_rq->curr->on_rq && n < max)
		tasks[n++] = task_of(cfs_rq->curr)->idx;
	for (struct sched_entity *se = __pick_first_entity(cfs_rq); se && n < max; se = __pick_next_entity(se))
		tasks[n++] = task_of(se)->idx;
	return n;
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
