// SPDX-License-Identifier: GPL-2.0
/*
 * The periodic load balancer (kernel/sched/fair.c, Linux 6.12):
 * sched_balance_domains() [rebalance_domains] from the tick, per domain and
 * interval; sched_balance_rq() [load_balance] with should_we_balance(),
 * find_busiest_group() over update_sg_lb_stats()/group_classify(),
 * calculate_imbalance(), find_busiest_queue(), detach_tasks() with
 * can_migrate_task() and task_hot(), and attach_tasks().
 *
 * Also newidle balancing (sched_balance_newidle() [newidle_balance], gated
 * by avg_idle against max_newidle_lb_cost) and active balancing (the CPU
 * stopper pushing a running or misfit task, active_load_balance_cpu_stop()).
 * The NO_HZ idle balancer that runs sched_balance_domains() on behalf of
 * idle CPUs is in nohz.c.
 *
 * Each attempt is recorded on the event stream: one EV_LB_GROUP per
 * group compared, one EV_LB_TASK per task detach_tasks() looked at
 * (followed by its sched_migrate_task when moved), and one EV_LOAD_BALANCE
 * with the outcome. They all carry the seq of the record's first event,
 * and so do the migrations, so every move traces back to its decision.
 *
 * A pass costs cost_balance_ns plus NEWIDLE_COST_PER_CPU for each CPU of
 * the domain (the order of magnitude the kernel's own max_newidle_lb_cost
 * shows on real machines): CPU time with noise on, and always what newidle
 * balancing weighs against avg_idle, as the kernel weighs its measured cost.
 *
 * Not modelled: NUMA balancing (fbq_type is always "all"), asym packing
 * (no ITMT priorities in topologies), CPU hotplug (every CPU is active).
 * capacity_of() does take off what RT, deadline and IRQ time used, as the
 * last pass over the CPU's lowest domain measured it (capacity.c).
 */
#include "balance.h"

#define NUMA_IMBALANCE_MIN 2

struct sd_lb_stats {
	const struct sched_group *busiest, *local;
	unsigned long total_load, total_capacity, avg_load;
	bool prefer_sibling;
	struct sg_lb_stats busiest_stat, local_stat;
};

/* ---- rq->cfs_tasks: queued fair tasks, most recently run at the head ---- */

void cfs_tasks_add(struct rq *rq, struct task_struct *p)
{
	p->tasks_prev = NULL;
	p->tasks_next = rq->cfs_tasks_head;
	if (rq->cfs_tasks_head)
		rq->cfs_tasks_head->tasks_prev = p;
	else
		rq->cfs_tasks_tail = p;
	rq->cfs_tasks_head = p;
}

void cfs_tasks_del(struct rq *rq, struct task_struct *p)
{
	if (p->tasks_prev)
		p->tasks_prev->tasks_next = p->tasks_next;
	else
		rq->cfs_tasks_head = p->tasks_next;
	if (p->tasks_next)
		p->tasks_next->tasks_prev = p->tasks_prev;
	else
		rq->cfs_tasks_tail = p->tasks_prev;
	p->tasks_prev = p->tasks_next = NULL;
}

void cfs_tasks_move_head(struct rq *rq, struct task_struct *p)
{
	cfs_tasks_del(rq, p);
	cfs_tasks_add(rq, p);
}

/* ---- state in the arena ---- */

size_t balance_arena_need(const struct sched_domains *sds, int nr_cpus)
{
	return (size_t)sds->nr_domains * sizeof(struct sd_lb_state) +
	       (size_t)nr_cpus * sizeof(struct sd_llc_shared) +
	       (size_t)sds->nr_sgc * sizeof(struct sched_group_capacity) + 3 * 16;
}

void balance_init(void *(*alloc)(struct sched_engine *, size_t))
{
	const struct sched_domains *sds = SDS();

	ST->sd_lb = alloc(E, (size_t)sds->nr_domains * sizeof(struct sd_lb_state));
	for (int i = 0; i < sds->nr_domains; i++) {
		ST->sd_lb[i].balance_interval = sds->sd[i].balance_interval;
		/* sd_init(): a newidle pass starts out worth it half the time */
		ST->sd_lb[i].newidle_call = 512;
		ST->sd_lb[i].newidle_success = 256;
		ST->sd_lb[i].newidle_ratio = 512;
	}
	ST->llc_shared = alloc(E, (size_t)ST->nr_cpus * sizeof(struct sd_llc_shared));
	ST->sgc = alloc(E, (size_t)sds->nr_sgc * sizeof(struct sched_group_capacity));
	init_sched_groups_capacity();
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		struct rq *rq = cpu_rq(cpu);

		rq->avg_idle = 2 * sysctl(TUN_MIGRATION_COST);
		rq->max_idle_balance_cost = sysctl(TUN_MIGRATION_COST);
		/* every CPU boots busy in the LLC count, then its idle tick stops */
		if (lowest_sd(cpu))
			llc_shared(cpu)->nr_busy_cpus++;
		const struct sched_domain *sd = lowest_sd(cpu);
		if (sd && (sd->flags & SD_SHARE_CPUCAPACITY))
			ST->smt_present = true;
	}
	/* before 3.8 the CPUs boot ticking: their first idle tick lets them go */
	if (!legacy_balance())
		for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
			nohz_balance_enter_idle(cpu_rq(cpu));
}

/* ---- classification ---- */

static bool group_has_capacity(unsigned int imbalance_pct, const struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return true;
	if (sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100)
		return false;
	if (sgs->group_capacity * 100 > sgs->group_util * imbalance_pct)
		return true;
	return false;
}

static bool group_is_overloaded(unsigned int imbalance_pct, const struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return false;
	if (sgs->group_capacity * 100 < sgs->group_util * imbalance_pct)
		return true;
	if (sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100)
		return true;
	return false;
}

enum group_type group_classify(unsigned int imbalance_pct, const struct sched_group *group,
			       struct sg_lb_stats *sgs)
{
	if (group_is_overloaded(imbalance_pct, sgs))
		return group_overloaded;
	if (sgc_of(group)->imbalance)
		return group_imbalanced;
	if (sgs->group_asym_packing)
		return group_asym_packing;
	if (sgs->group_smt_balance)
		return group_smt_balance;
	if (sgs->group_misfit_task_load)
		return group_misfit_task;
	if (!group_has_capacity(imbalance_pct, sgs))
		return group_fully_busy;
	return group_has_spare;
}

/* Allow a small imbalance between nodes so communicating tasks stay local. */
int adjust_numa_imbalance(int imbalance, int dst_running, int imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;
	return imbalance;
}

/* capacity_greater(): more than ~5 % apart. */
static bool capacity_greater(unsigned long a, unsigned long b)
{
	return a * 1024 > b * 1078;
}

static bool is_core_idle(int cpu)
{
	const struct sched_domain *sd = lowest_sd(cpu);
	int sibling;

	if (!sd || !(sd->flags & SD_SHARE_CPUCAPACITY))
		return true;
	for_each_cpu(sibling, &sd->span)
		if (sibling != cpu && !idle_cpu(sibling))
			return false;
	return true;
}

/* update_misfit_status(): a task too big for its CPU, on asymmetric capacity. */
static void update_misfit_status(struct task_struct *p, struct rq *rq)
{
	unsigned long max_allowed_capacity = 0;
	int allowed = 0;

	if (!asym_cpucap_active())
		return;
	for (int cpu = 0; !is_idle_task(p) && cpu < ST->nr_cpus; cpu++) {
		if (task_allowed_on_cpu(p, cpu)) {
			allowed++;
			max_allowed_capacity = MAX(max_allowed_capacity, capacity_of(cpu));
		}
	}
	/* on the biggest CPU it may use, nothing would fit it better */
	if (is_idle_task(p) || allowed == 1 || capacity_of(rq->cpu) == max_allowed_capacity ||
	    task_fits_cpu(p, rq->cpu)) {
		rq->misfit_task_load = 0;
		return;
	}
	rq->misfit_task_load = MAX(task_h_load(p), 1UL);
}

/* ---- the decision record ---- */

void emit_group(const struct lb_env *env, const struct sched_group *sg, const struct sg_lb_stats *sgs,
		bool local)
{
	struct sched_event ev;

	sched_event_init(&ev, EV_LB_GROUP, env->dst_cpu);
	ev.lb_group.decision = env->decision;
	ev.lb_group.avg_load = sgs->avg_load;
	ev.lb_group.group_load = (u32)MIN(sgs->group_load, 0xffffffffUL);
	ev.lb_group.group_util = (u32)MIN(sgs->group_util, 0xffffffffUL);
	ev.lb_group.group_capacity = (u32)sgs->group_capacity;
	ev.lb_group.sum_nr_running = (u16)MIN(sgs->sum_nr_running, 65535u);
	ev.lb_group.sum_h_nr_running = (u16)MIN(sgs->sum_h_nr_running, 65535u);
	ev.lb_group.idle_cpus = (u16)sgs->idle_cpus;
	ev.lb_group.first_cpu = (s16)cpumask_first(&sg->span);
	ev.lb_group.group_type = (u8)sgs->group_type;
	ev.lb_group.local = local;
	ev.lb_group.depth = (u8)env->sd->depth;
	sched_emit(&ev);
}

void emit_task(const struct lb_env *env, struct task_struct *p, unsigned long load, int result)
{
	struct sched_event ev;

	sched_event_init(&ev, EV_LB_TASK, env->dst_cpu);
	ev.lb_task.decision = env->decision;
	ev.lb_task.pid = p->pid;
	ev.lb_task.load = (u32)MIN(load, 0xffffffffUL);
	ev.lb_task.imbalance = env->imbalance;
	ev.lb_task.result = (u8)result;
	ev.lb_task.depth = (u8)env->sd->depth;
	ev.lb_task.nr_balance_failed = (u16)MIN(sd_lb(env->sd)->nr_balance_failed, 65535u);
	ev.lb_task.migration_type = (u8)env->migration_type;
	ev.lb_task.compared = env->compared;
	if (env->migration_type == migrate_load && !legacy_balance()) {
		/* the cache holds for a jiffy: loads may have moved since it was filled */
		unsigned long fresh = task_h_load_now(p);

		ev.lb_task.load_fresh = (u32)MIN(fresh, 0xffffffffUL);
		ev.lb_task.h_load_stale = fresh != task_h_load(p);
	}
	sched_emit(&ev);
}

void emit_outcome(const struct lb_env *env, const struct sched_group *busiest_group, const struct rq *busiest,
		  int moved, int outcome)
{
	struct sched_event ev;

	sched_event_init(&ev, EV_LOAD_BALANCE, env->dst_cpu);
	ev.lb.decision = env->decision;
	ev.lb.imbalance = env->found_imbalance;
	ev.lb.busiest_group = (s16)(busiest_group ? cpumask_first(&busiest_group->span) : -1);
	ev.lb.busiest_cpu = (s16)(busiest ? busiest->cpu : -1);
	ev.lb.nr_moved = (u16)moved;
	ev.lb.nr_hot_moved = (u16)env->nr_hot_moved;
	ev.lb.nr_balance_failed = (u16)MIN(sd_lb(env->sd)->nr_balance_failed, 65535u);
	ev.lb.nr_balance_failed_before = (u16)MIN(env->nr_balance_failed, 65535u);
	ev.lb.depth = (u8)env->sd->depth;
	ev.lb.idle = (u8)env->idle;
	ev.lb.migration_type = (u8)env->migration_type;
	ev.lb.outcome = (u8)outcome;
	ev.lb.why = (u8)env->why;
	ev.lb.active = env->active;
	ev.lb.level = (u8)env->sd->level_name;
	ev.lb.balance_interval = sd_lb(env->sd)->balance_interval;
	sched_emit(&ev);
}

/* ---- find_busiest_group ---- */

static void update_sg_lb_stats(struct lb_env *env, const struct sched_group *group, struct sg_lb_stats *sgs,
			       bool local_group)
{
	int i;

	memset(sgs, 0, sizeof(*sgs));
	for_each_cpu(i, &group->span) {
		struct rq *rq = cpu_rq(i);
		unsigned long load = cpu_load(rq);

		if (!cpumask_test(&env->cpus, i))
			continue;
		sgs->group_load += load;
		sgs->group_util += cpu_util_cfs(i);
		sgs->group_runnable += cpu_runnable(rq);
		sgs->sum_h_nr_running += rq->cfs.h_nr_running;
		sgs->sum_nr_running += rq->nr_running;
		if (rq->nr_running > 1)
			env->sg_overloaded = true;
		if (!rq->nr_running && idle_cpu(i)) {
			sgs->idle_cpus++;
			continue;
		}
		if (local_group)
			continue;
		/* a misfit counts as overload: it makes newidle balancing worth trying */
		if ((env->sd->flags & SD_ASYM_CPUCAPACITY) &&
		    sgs->group_misfit_task_load < rq->misfit_task_load) {
			sgs->group_misfit_task_load = rq->misfit_task_load;
			env->sg_overloaded = true;
		}
	}
	sgs->group_capacity = sgc_of(group)->capacity;
	sgs->group_weight = group->group_weight;
	/* smt_balance: an idle CPU pulls the second task off an SMT core */
	if (!local_group && env->idle != CPU_NOT_IDLE && (group->flags & SD_SHARE_CPUCAPACITY) &&
	    sgs->sum_h_nr_running > 1)
		sgs->group_smt_balance = 1;
	sgs->group_type = group_classify(env->sd->imbalance_pct, group, sgs);
	if (sgs->group_type == group_overloaded)
		sgs->avg_load = sgs->group_load * SCHED_CAPACITY_SCALE / sgs->group_capacity;
}

static bool smt_vs_nonsmt_groups(const struct sched_group *a, const struct sched_group *b)
{
	if (!a || !b)
		return false;
	return (a->flags & SD_SHARE_CPUCAPACITY) != (b->flags & SD_SHARE_CPUCAPACITY);
}

static bool update_sd_pick_busiest(struct lb_env *env, struct sd_lb_stats *sds, const struct sched_group *sg,
				   const struct sg_lb_stats *sgs)
{
	const struct sg_lb_stats *busiest = &sds->busiest_stat;

	if (!sgs->sum_h_nr_running)
		return false;
	/* a misfit only moves to a bigger, idle-cored CPU with room */
	if ((env->sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_type == group_misfit_task &&
	    (!env->dst_core_idle || !capacity_greater(capacity_of(env->dst_cpu), sgc_of(sg)->max_capacity) ||
	     sds->local_stat.group_type != group_has_spare))
		return false;
	/* don't pull from bigger CPUs that are not overloaded */
	if ((env->sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_type <= group_fully_busy &&
	    capacity_greater(sgc_of(sg)->min_capacity, capacity_of(env->dst_cpu)))
		return false;
	if (sgs->group_type != busiest->group_type)
		return sgs->group_type > busiest->group_type;

	switch (sgs->group_type) {
	case group_overloaded:
		return sgs->avg_load > busiest->avg_load;
	case group_imbalanced:
	case group_asym_packing:
		return false;
	case group_misfit_task:
		return sgs->group_misfit_task_load > busiest->group_misfit_task_load;
	case group_smt_balance:
		if (sgs->idle_cpus != 0 || busiest->idle_cpus != 0)
			goto has_spare;
		/* fallthrough */
	case group_fully_busy:
		if (sgs->avg_load < busiest->avg_load)
			return false;
		if (sgs->avg_load == busiest->avg_load && (sds->busiest->flags & SD_SHARE_CPUCAPACITY))
			return false;
		return true;
	case group_has_spare:
	default:
		if (smt_vs_nonsmt_groups(sds->busiest, sg))
			return !((sg->flags & SD_SHARE_CPUCAPACITY) && sgs->sum_h_nr_running <= 1);
has_spare:
		if (sgs->idle_cpus > busiest->idle_cpus)
			return false;
		if (sgs->idle_cpus == busiest->idle_cpus && sgs->sum_nr_running <= busiest->sum_nr_running)
			return false;
		return true;
	}
}

/* update_idle_cpu_scan(): SIS_UTIL's scan depth from the LLC's utilisation. */
static void update_idle_cpu_scan(struct lb_env *env, unsigned long sum_util)
{
	int llc_weight = SDS()->percpu[env->dst_cpu].sd_llc_size;
	u64 x, tmp, y;
	unsigned int pct;

	if (!sched_feat(SIS_UTIL) || env->idle == CPU_NEWLY_IDLE)
		return;
	if ((int)env->sd->span_weight != llc_weight || SDS()->percpu[env->dst_cpu].sd_llc < 0)
		return;
	x = sum_util / (u64)llc_weight;
	pct = env->sd->imbalance_pct;
	tmp = x * x * pct * pct / (10000 * SCHED_CAPACITY_SCALE);
	tmp = MIN(tmp, (u64)SCHED_CAPACITY_SCALE);
	y = (SCHED_CAPACITY_SCALE - tmp) * (u64)llc_weight / SCHED_CAPACITY_SCALE;
	llc_shared(env->dst_cpu)->nr_idle_scan = (int)y;
}

static void update_sd_lb_stats(struct lb_env *env, struct sd_lb_stats *sds)
{
	unsigned long sum_util = 0;

	env->dst_core_idle = !ST->smt_present || is_core_idle(env->dst_cpu);
	for (int k = 0; k < env->sd->nr_groups; k++) {
		const struct sched_group *sg = sd_group(SDS(), env->sd, k);
		bool local_group = cpumask_test(&sg->span, env->dst_cpu);
		struct sg_lb_stats tmp, *sgs = local_group ? &sds->local_stat : &tmp;

		if (local_group) {
			sds->local = sg;
			update_local_group_capacity(env, sg);
		}
		update_sg_lb_stats(env, sg, sgs, local_group);
		emit_group(env, sg, sgs, local_group);
		if (!local_group && update_sd_pick_busiest(env, sds, sg, sgs)) {
			sds->busiest = sg;
			sds->busiest_stat = *sgs;
		}
		sds->total_load += sgs->group_load;
		sds->total_capacity += sgs->group_capacity;
		sum_util += sgs->group_util;
	}
	if (sds->busiest)
		sds->prefer_sibling = !!(sds->busiest->flags & SD_PREFER_SIBLING);
	if (!parent_sd(env->sd))
		ST->rd_overloaded = env->sg_overloaded;
	update_idle_cpu_scan(env, sum_util);
}

static long sibling_imbalance(struct lb_env *env, struct sd_lb_stats *sds, const struct sg_lb_stats *busiest,
			      const struct sg_lb_stats *local)
{
	long ncores_busiest, ncores_local, imbalance;

	if (env->idle == CPU_NOT_IDLE || !busiest->sum_nr_running)
		return 0;
	ncores_busiest = sds->busiest->cores;
	ncores_local = sds->local->cores;
	if (ncores_busiest == ncores_local) {
		imbalance = (long)busiest->sum_nr_running - (long)local->sum_nr_running;
		return MAX(imbalance, 0L);
	}
	/* balance the tasks per core between groups of different sizes */
	imbalance = ncores_local * (long)busiest->sum_nr_running - ncores_busiest * (long)local->sum_nr_running;
	imbalance = MAX(imbalance, 0L);
	imbalance = (2 * imbalance + ncores_local + ncores_busiest) / (ncores_local + ncores_busiest);
	if (imbalance <= 1 && local->sum_nr_running == 0 && busiest->sum_nr_running > 1)
		imbalance = 2;
	return imbalance;
}

static void calculate_imbalance(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sg_lb_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;

	if (busiest->group_type == group_misfit_task) {
		env->migration_type = migrate_misfit;
		env->imbalance = 1;
		return;
	}
	if (busiest->group_type == group_asym_packing) {
		env->migration_type = migrate_task;
		env->imbalance = busiest->sum_h_nr_running;
		return;
	}
	if (busiest->group_type == group_smt_balance || busiest->group_type == group_imbalanced) {
		env->migration_type = migrate_task;
		env->imbalance = 1;
		return;
	}
	if (local->group_type == group_has_spare) {
		if (busiest->group_type > group_fully_busy && !(env->sd->flags & SD_SHARE_LLC)) {
			/* fill the local group's spare capacity */
			env->migration_type = migrate_util;
			env->imbalance = (long)(MAX(local->group_capacity, local->group_util) - local->group_util);
			if (env->idle != CPU_NOT_IDLE && env->imbalance == 0) {
				env->migration_type = migrate_task;
				env->imbalance = 1;
			}
			return;
		}
		env->migration_type = migrate_task;
		if (busiest->group_weight == 1 || sds->prefer_sibling)
			env->imbalance = sibling_imbalance(env, sds, busiest, local);
		else
			env->imbalance = MAX((long)local->idle_cpus - (long)busiest->idle_cpus, 0L);
		if (env->sd->flags & SD_NUMA)
			env->imbalance = adjust_numa_imbalance((int)env->imbalance,
							       (int)local->sum_nr_running + 1,
							       (int)env->sd->imb_numa_nr);
		env->imbalance >>= 1;
		return;
	}
	if (local->group_type < group_overloaded) {
		/* pulling load will make the local group overloaded: only if it stays below */
		local->avg_load = local->group_load * SCHED_CAPACITY_SCALE / local->group_capacity;
		if (local->avg_load >= busiest->avg_load) {
			env->imbalance = 0;
			return;
		}
		sds->avg_load = sds->total_load * SCHED_CAPACITY_SCALE / sds->total_capacity;
		if (local->avg_load >= sds->avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	/* both move towards the domain average, neither past it */
	env->migration_type = migrate_load;
	env->imbalance = (long)(MIN((busiest->avg_load - sds->avg_load) * busiest->group_capacity,
				    (sds->avg_load - local->avg_load) * local->group_capacity) /
				SCHED_CAPACITY_SCALE);
}

static const struct sched_group *find_busiest_group(struct lb_env *env)
{
	struct sd_lb_stats sds;
	struct sg_lb_stats *local, *busiest;

	memset(&sds, 0, sizeof(sds));
	sds.busiest_stat.group_type = group_has_spare;
	update_sd_lb_stats(env, &sds);

	if (!sds.busiest) {
		env->why = FBG_NO_BUSIEST;
		goto out_balanced;
	}
	busiest = &sds.busiest_stat;
	local = &sds.local_stat;
	if (busiest->group_type == group_misfit_task || busiest->group_type == group_asym_packing ||
	    busiest->group_type == group_imbalanced)
		goto force_balance;
	if (local->group_type > busiest->group_type) {
		env->why = FBG_LOCAL_BUSIER;
		goto out_balanced;
	}
	if (local->group_type == group_overloaded) {
		sds.avg_load = sds.total_load * SCHED_CAPACITY_SCALE / sds.total_capacity;
		if (local->avg_load >= busiest->avg_load || local->avg_load >= sds.avg_load ||
		    100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load) {
			env->why = FBG_AVG_LOAD;
			goto out_balanced;
		}
	}
	if (sds.prefer_sibling && local->group_type == group_has_spare &&
	    sibling_imbalance(env, &sds, busiest, local) > 1)
		goto force_balance;
	if (busiest->group_type != group_overloaded) {
		if (env->idle == CPU_NOT_IDLE) {
			/* a busy CPU leaves spreading spare capacity to the idle ones */
			env->why = FBG_NOT_IDLE;
			goto out_balanced;
		}
		if (busiest->group_type == group_smt_balance && smt_vs_nonsmt_groups(sds.local, sds.busiest))
			goto force_balance;
		if (busiest->group_weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1) {
			env->why = FBG_IDLE_CPUS;
			goto out_balanced;
		}
		if (busiest->sum_h_nr_running == 1) {
			env->why = FBG_ONE_TASK;
			goto out_balanced;
		}
	}
force_balance:
	calculate_imbalance(env, &sds);
	if (env->imbalance)
		return sds.busiest;
	env->why = FBG_NO_IMBALANCE;
	return NULL;
out_balanced:
	env->imbalance = 0;
	return NULL;
}

static struct rq *find_busiest_queue(struct lb_env *env, const struct sched_group *group)
{
	struct rq *busiest = NULL;
	unsigned long busiest_util = 0, busiest_load = 0, busiest_capacity = 1;
	unsigned int busiest_nr = 0;
	int i;

	for_each_cpu(i, &group->span) {
		struct rq *rq = cpu_rq(i);
		unsigned long capacity = capacity_of(i), load, util;
		unsigned int nr_running = rq->cfs.h_nr_running;

		if (!cpumask_test(&env->cpus, i) || !nr_running)
			continue;
		/* a single task on a smaller CPU is better left to misfit handling */
		if ((env->sd->flags & SD_ASYM_CPUCAPACITY) &&
		    !capacity_greater(capacity_of(env->dst_cpu), capacity) && nr_running == 1)
			continue;
		switch (env->migration_type) {
		case migrate_load:
			load = cpu_load(rq);
			if (nr_running == 1 && load > (unsigned long)env->imbalance)
				break;
			/* the highest load per capacity, cross-multiplied */
			if (load * busiest_capacity > busiest_load * capacity) {
				busiest_load = load;
				busiest_capacity = capacity;
				busiest = rq;
			}
			break;
		case migrate_util:
			util = cpu_util_cfs(i);
			if (nr_running <= 1)
				continue;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = rq;
			}
			break;
		case migrate_task:
			if (busiest_nr < nr_running) {
				busiest_nr = nr_running;
				busiest = rq;
			}
			break;
		case migrate_misfit:
		default:
			if (rq->misfit_task_load > busiest_load) {
				busiest_load = rq->misfit_task_load;
				busiest = rq;
			}
			break;
		}
	}
	return busiest;
}

/* ---- detach/attach ---- */

/* Ran within migration_cost: its cache is still warm where it is. */
static int task_hot(struct task_struct *p, struct lb_env *env)
{
	u64 cost = sysctl(TUN_MIGRATION_COST);

	if (task_has_idle_policy(p))
		return 0;
	if (env->sd->flags & SD_SHARE_CPUCAPACITY)
		return 0;
	if (sched_feat(CACHE_HOT_BUDDY) && env->dst_rq->nr_running && &p->se == cfs_rq_of(&p->se)->next)
		return 1;
	if (cost == 0)
		return 0;
	return (s64)(rq_clock_task(env->src_rq) - p->se.exec_start) < (s64)cost;
}

/* Queue-based throttling (before 6.18): a throttled group's tasks stay put. */
bool throttled_lb_pair(const struct task_group *tg, int src_cpu, int dst_cpu)
{
	return throttled_hierarchy(tg->cfs_rq[src_cpu]) || throttled_hierarchy(tg->cfs_rq[dst_cpu]);
}

/*
 * 6.18+: a task may leave a throttled queue (it is throttled on its way back
 * to user space; 5b726e9bf954 dropped throttled_lb_pair()) but is not
 * balanced onto one (0d4eaf8caf8c).
 */
static bool lb_throttled_hierarchy(const struct task_struct *p, int dst_cpu)
{
	return throttled_hierarchy(p->sched_task_group->cfs_rq[dst_cpu]);
}

/*
 * 6.14+ (873199d27bb2): place_entity() keeps a migrating task's lag, so a task
 * that is not eligible here would not be eligible on a busy destination either.
 */
static bool task_is_ineligible_on_dst_cpu(struct task_struct *p, int dst_cpu)
{
	struct cfs_rq *dst_cfs_rq = p->sched_task_group->cfs_rq[dst_cpu];

	return sched_feat(PLACE_LAG) && dst_cfs_rq->nr_running && !entity_eligible(cfs_rq_of(&p->se), &p->se);
}

/* can_migrate_task(): 0 = may move, else the enum lb_task_result that stops it. */
static int can_migrate_task(struct task_struct *p, struct lb_env *env, bool *hot)
{
	int cpu;

	*hot = false;
	/* 6.14+: moving a task that only waits out DELAY_DEQUEUE balances no runnable count */
	if (p->se.sched_delayed && env->migration_type != migrate_load && kernel_at_least(6, 14))
		return LBT_DELAYED;
	if (task_based_throttle() ? lb_throttled_hierarchy(p, env->dst_cpu)
				  : throttled_lb_pair(p->sched_task_group, env->src_cpu, env->dst_cpu))
		return LBT_THROTTLED;
	/* eligible tasks go first; an ineligible one waits for a failed attempt */
	if (!sched_legacy_cfs() && kernel_at_least(6, 14) && !sd_lb(env->sd)->nr_balance_failed &&
	    task_is_ineligible_on_dst_cpu(p, env->dst_cpu))
		return LBT_INELIGIBLE;
	if (!task_allowed_on_cpu(p, env->dst_cpu)) {
		env->flags |= LBF_SOME_PINNED;
		/*
		 * remember another CPU of our group that p may run on; an active
		 * balance has no group (dst_grpmask is NULL) and a single target
		 */
		if (env->idle == CPU_NEWLY_IDLE || (env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
			return LBT_PINNED;
		for_each_cpu(cpu, env->dst_grpmask) {
			if (cpumask_test(&env->cpus, cpu) && task_allowed_on_cpu(p, cpu)) {
				env->flags |= LBF_DST_PINNED;
				env->new_dst_cpu = cpu;
				break;
			}
		}
		return LBT_PINNED;
	}
	env->flags &= ~LBF_ALL_PINNED;
	if (p->on_cpu)
		return LBT_RUNNING;
	if (env->flags & LBF_ACTIVE_LB)
		return 0;
	*hot = task_hot(p, env);
	/* repeated failures overrule cache hotness */
	if (!*hot || sd_lb(env->sd)->nr_balance_failed > env->sd->cache_nice_tries)
		return 0;
	return LBT_HOT;
}

void detach_task(struct task_struct *p, struct lb_env *env)
{
	deactivate_task(env->src_rq, p, 0);
	set_task_cpu(p, env->dst_cpu, env->dst_cpu, env->decision, env->reason);
}

/*
 * A newly idle CPU balances from inside schedule(), where its need_resched
 * is still set: the kernel's wakeup_preempt() returns early there.
 */
void attach_task(struct rq *rq, struct task_struct *p, enum cpu_idle_type idle)
{
	activate_task(rq, p, 0);
	if (idle != CPU_NEWLY_IDLE)
		wakeup_preempt(rq, p, 0);
}

static int detach_tasks(struct lb_env *env, struct task_struct **detached_list, int max)
{
	int detached = 0;
	unsigned int nr_failed = sd_lb(env->sd)->nr_balance_failed;
	struct task_struct *p;

	if (env->src_rq->nr_running <= 1) {
		env->flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	if (env->imbalance <= 0)
		return 0;

	while (env->src_rq->cfs_tasks_tail && detached < max) {
		unsigned long load = 0;
		bool hot;
		int why;

		/* an idle puller leaves the source one task: it would be treated likewise */
		if (env->idle != CPU_NOT_IDLE && env->src_rq->nr_running <= 1)
			break;
		env->loop++;
		if (env->loop > env->loop_max)
			break;
		if (env->loop > env->loop_break) {
			env->loop_break += SCHED_NR_MIGRATE_BREAK;
			env->flags |= LBF_NEED_BREAK;
			break;
		}
		/* the coldest task: the least recently run is at the tail */
		p = env->src_rq->cfs_tasks_tail;
		env->compared = false;
		why = can_migrate_task(p, env, &hot);
		if (!why) {
			switch (env->migration_type) {
			case migrate_load:
				load = MAX(task_h_load(p), 1UL);
				env->compared = !(sched_feat(LB_MIN) && load < 16 && !nr_failed);
				if (!env->compared)
					why = LBT_TOO_BIG;
				else if ((load >> MIN(nr_failed, 63u)) > (unsigned long)env->imbalance)
					why = LBT_TOO_BIG;	/* bigger tasks pass as failures mount */
				else
					env->imbalance -= (long)load;
				break;
			case migrate_util:
				load = task_util(p);
				env->compared = true;
				if ((load >> MIN(nr_failed, 63u)) > (unsigned long)env->imbalance)
					why = LBT_TOO_BIG;
				else
					env->imbalance -= (long)load;
				break;
			case migrate_task:
				load = 1;
				env->imbalance--;
				break;
			case migrate_misfit:
			default:
				load = task_util(p);
				if (task_fits_cpu(p, env->src_cpu))
					why = LBT_FITS;
				else
					env->imbalance = 0;
				break;
			}
		}
		if (why) {
			emit_task(env, p, load ? load : task_h_load(p), why);
			cfs_tasks_move_head(env->src_rq, p);
			continue;
		}
		emit_task(env, p, load, hot ? LBT_MOVED_HOT : LBT_MOVED);
		env->nr_hot_moved += hot;
		detach_task(p, env);
		detached_list[detached++] = p;
		/* a preemptible kernel's newidle balance stops after one task */
		if (env->idle == CPU_NEWLY_IDLE)
			break;
		if (env->imbalance <= 0)
			break;
	}
	return detached;
}

/* ---- sched_balance_rq [load_balance] ---- */

/* One balancer per group: the first idle CPU (on an idle core if possible), else the first CPU. */
static bool should_we_balance(struct lb_env *env)
{
	const struct sched_group *sg = sd_group(SDS(), env->sd, 0);
	struct cpumask swb = sg->balance_mask;
	int cpu, idle_smt = -1;

	if (!cpumask_test(&env->cpus, env->dst_cpu))
		return false;
	if (env->idle == CPU_NEWLY_IDLE)
		return env->dst_rq->nr_running == 0;
	for_each_cpu(cpu, &swb) {
		if (!cpumask_test(&env->cpus, cpu) || !idle_cpu(cpu))
			continue;
		if (!(env->sd->flags & SD_SHARE_CPUCAPACITY) && !is_core_idle(cpu)) {
			const struct sched_domain *smt = lowest_sd(cpu);

			if (idle_smt == -1)
				idle_smt = cpu;
			if (smt && (smt->flags & SD_SHARE_CPUCAPACITY))
				for (int w = 0; w < CPUMASK_WORDS; w++)
					swb.bits[w] &= ~smt->span.bits[w];
			continue;
		}
		return cpu == env->dst_cpu;
	}
	if (idle_smt != -1)
		return idle_smt == env->dst_cpu;
	return sg->sgc_id == env->dst_cpu;
}

static bool imbalanced_active_balance(struct lb_env *env)
{
	return env->migration_type == migrate_task &&
	       sd_lb(env->sd)->nr_balance_failed > env->sd->cache_nice_tries + 2;
}

/*
 * need_active_balance(): pulling failed, and the running task itself should
 * move: after repeated failures, when it is a misfit, or when it is alone
 * on a CPU whose capacity interrupts have cut below what an idle dst offers
 * (no asym packing here).
 */
static bool need_active_balance(struct lb_env *env)
{
	if (imbalanced_active_balance(env))
		return true;
	if (env->idle != CPU_NOT_IDLE && env->src_rq->cfs.h_nr_running == 1 &&
	    check_cpu_capacity(env->src_rq, env->sd) &&
	    capacity_of(env->src_cpu) * env->sd->imbalance_pct < capacity_of(env->dst_cpu) * 100)
		return true;
	return env->migration_type == migrate_misfit;
}

static int sched_balance_rq(int this_cpu, struct rq *this_rq, const struct sched_domain *sd,
			    enum cpu_idle_type idle, int reason, bool *continue_balancing)
{
	const struct sched_domain *parent = parent_sd(sd);
	int *group_imbalance = parent ? &sgc_of(sd_group(SDS(), parent, 0))->imbalance : NULL;
	struct sd_lb_state *lb = sd_lb(sd);
	const struct sched_group *group = NULL;
	struct task_struct *moved[SCHED_NR_MIGRATE_BREAK];
	struct rq *busiest = NULL;
	int ld_moved = 0, outcome;
	struct lb_env env = {
		.sd = sd,
		.dst_cpu = this_cpu,
		.dst_rq = this_rq,
		.dst_grpmask = &sd_group(SDS(), sd, 0)->balance_mask,
		.idle = idle,
		.reason = reason,
		.loop_break = SCHED_NR_MIGRATE_BREAK,
		.decision = ST->nr_events,
		.nr_balance_failed = lb->nr_balance_failed,
	};

	env.cpus = sd->span;
	balance_pass_spend(this_rq, sd, idle);
redo:
	if (!should_we_balance(&env)) {
		*continue_balancing = false;
		env.why = FBG_NOT_DESIGNATED;
		outcome = LB_BALANCED;
		goto out_balanced;
	}
	group = find_busiest_group(&env);
	if (!group) {
		outcome = LB_NOBUSYG;	/* as schedstat counts it: why says more */
		goto out_balanced;
	}
	busiest = find_busiest_queue(&env, group);
	if (!busiest) {
		outcome = LB_NOBUSYQ;
		goto out_balanced;
	}

	env.found_imbalance = env.imbalance;
	env.src_cpu = busiest->cpu;
	env.src_rq = busiest;
	env.flags |= LBF_ALL_PINNED;
	if (busiest->nr_running > 1) {
		env.loop_max = (unsigned int)MIN(sysctl(TUN_NR_MIGRATE), (u64)busiest->nr_running);
more_balance:
		update_rq_clock(busiest);
		int n = detach_tasks(&env, moved, (int)ARRAY_SIZE(moved));
		if (n) {
			update_rq_clock(env.dst_rq);
			for (int i = 0; i < n; i++)
				attach_task(env.dst_rq, moved[i], idle);
			ld_moved += n;
		}
		if (env.flags & LBF_NEED_BREAK) {
			env.flags &= ~LBF_NEED_BREAK;
			goto more_balance;
		}
		/* the tasks could not come here: try another CPU of our group */
		if ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) {
			cpumask_clear(&env.cpus, env.dst_cpu);
			env.dst_rq = cpu_rq(env.new_dst_cpu);
			env.dst_cpu = env.new_dst_cpu;
			env.flags &= ~LBF_DST_PINNED;
			env.loop = 0;
			env.loop_break = SCHED_NR_MIGRATE_BREAK;
			goto more_balance;
		}
		/* affinity kept us from balancing: the parent sees our group as imbalanced */
		if (group_imbalance && (env.flags & LBF_SOME_PINNED) && env.imbalance > 0)
			*group_imbalance = 1;
		if (env.flags & LBF_ALL_PINNED) {
			cpumask_clear(&env.cpus, busiest->cpu);
			if (!cpumask_subset(&env.cpus, env.dst_grpmask)) {
				env.loop = 0;
				env.loop_break = SCHED_NR_MIGRATE_BREAK;
				goto redo;
			}
			outcome = LB_ALL_PINNED;
			goto out_all_pinned;
		}
	}

	if (!ld_moved) {
		outcome = LB_FAILED;
		if (idle != CPU_NEWLY_IDLE && env.migration_type != migrate_misfit)
			lb->nr_balance_failed++;
		if (need_active_balance(&env)) {
			struct task_struct *curr = busiest->curr;

			if (is_idle_task(curr) || !task_allowed_on_cpu(curr, this_cpu))
				goto out_one_pinned;
			env.flags &= ~LBF_ALL_PINNED;
			/* one stopper per source; it runs when busiest next schedules */
			if (!busiest->active_balance) {
				busiest->active_balance = true;
				busiest->push_cpu = this_cpu;
				busiest->active_decision = env.decision;
				env.active = true;
				resched_curr(busiest);
			}
		}
	} else {
		outcome = LB_MOVED;
		lb->nr_balance_failed = 0;
	}
	if (!env.active || need_active_balance(&env))
		lb->balance_interval = sd->min_interval;
	goto out;

out_balanced:
	if (group_imbalance && !(env.flags & LBF_ALL_PINNED))
		*group_imbalance = 0;
out_all_pinned:
	lb->nr_balance_failed = 0;
out_one_pinned:
	ld_moved = 0;
	if (env.idle == CPU_NEWLY_IDLE || env.migration_type == migrate_misfit)
		goto out;
	/* balanced: look less often */
	if (((env.flags & LBF_ALL_PINNED) && lb->balance_interval < MAX_PINNED_INTERVAL) ||
	    lb->balance_interval < sd->max_interval)
		lb->balance_interval *= 2;
out:
	emit_outcome(&env, group, busiest, ld_moved, outcome);
	return ld_moved;
}

/* ---- sched_balance_domains [rebalance_domains] ---- */

static unsigned long get_sd_balance_interval(const struct sched_domain *sd, bool cpu_busy)
{
	u64 interval = sd_lb(sd)->balance_interval;
	u64 max = sched_max_load_balance_interval(E->sc->hz, ST->nr_cpus);

	if (cpu_busy)
		interval *= sd->busy_factor;
	interval = msecs_to_jiffies(interval);
	/* a busy CPU's levels must not fall due in lock-step */
	if (cpu_busy)
		interval -= 1;
	return (unsigned long)MAX(1, MIN(interval, MAX(max, 1)));
}

/* NI_RANDOM's success rate: successes per 1024 calls, halved every 1024. */
static void update_newidle_stats(struct sd_lb_state *lb, unsigned int success)
{
	lb->newidle_call++;
	lb->newidle_success += success;
	if (lb->newidle_call >= 1024) {
		lb->newidle_ratio = lb->newidle_success;
		lb->newidle_call /= 2;
		lb->newidle_success /= 2;
	}
}

/* The newidle cost a level remembers decays by 253/256 once a second. */
static bool update_newidle_cost(const struct sched_domain *sd, u64 cost, unsigned int success)
{
	struct sd_lb_state *lb = sd_lb(sd);
	u64 now = jiffies();

	if (cost && sched_feat(NI_RANDOM))
		update_newidle_stats(lb, success);
	if (cost > lb->max_newidle_lb_cost) {
		lb->max_newidle_lb_cost = cost;
		lb->last_decay_max_lb_cost = now;
	} else if (now > lb->last_decay_max_lb_cost + E->sc->hz) {
		lb->max_newidle_lb_cost = lb->max_newidle_lb_cost * 253 / 256;
		lb->last_decay_max_lb_cost = now;
		return true;
	}
	return false;
}

void sched_balance_domains(struct rq *rq, enum cpu_idle_type idle, int reason)
{
	bool continue_balancing = true, busy = idle != CPU_IDLE && !sched_idle_cpu(rq->cpu);
	u64 now = jiffies(), next_balance = now + 60 * E->sc->hz;
	const struct sched_domain *sd;
	bool update_next = false, need_decay = false;
	u64 max_cost = 0;

	for_each_domain(rq->cpu, sd) {
		struct sd_lb_state *lb = sd_lb(sd);
		unsigned long interval;

		need_decay = update_newidle_cost(sd, 0, 0);
		max_cost += lb->max_newidle_lb_cost;
		if (!continue_balancing) {
			if (need_decay)
				continue;
			break;
		}
		interval = get_sd_balance_interval(sd, busy);
		if (now >= lb->last_balance + interval) {
			if (sched_balance_rq(rq->cpu, rq, sd, idle, reason, &continue_balancing)) {
				idle = idle_cpu(rq->cpu) ? CPU_IDLE : CPU_NOT_IDLE;
				busy = idle != CPU_IDLE && !sched_idle_cpu(rq->cpu);
			}
			lb->last_balance = now;
			interval = get_sd_balance_interval(sd, busy);
		}
		if (next_balance > lb->last_balance + interval) {
			next_balance = lb->last_balance + interval;
			update_next = true;
		}
	}
	if (need_decay)
		rq->max_idle_balance_cost = MAX(sysctl(TUN_MIGRATION_COST), max_cost);
	if (update_next)
		rq->next_balance = next_balance;
}

/* sched_balance_trigger() from the tick; the SCHED_SOFTIRQ work runs right after it. */
void sched_balance_trigger(struct rq *rq)
{
	if (legacy_balance()) {
		trigger_load_balance_legacy(rq);
		return;
	}
	update_misfit_status(rq->curr, rq);
	if (!lowest_sd(rq->cpu))
		return;
	if (jiffies() >= rq->next_balance) {
		/* sched_balance_softirq(): the blocked loads are decayed before they are compared */
		update_blocked_averages(rq->cpu);
		sched_balance_domains(rq, idle_cpu(rq->cpu) ? CPU_IDLE : CPU_NOT_IDLE, MIGRATE_BALANCE);
	}
	nohz_balancer_kick(rq);
}

/* ---- newidle ---- */

/* update_avg() at a wakeup: the idle period just ended feeds rq->avg_idle. */
void update_avg_idle(struct rq *rq)
{
	u64 max = 2 * rq->max_idle_balance_cost, delta;

	if (!rq->idle_stamp)
		return;
	delta = rq_clock(rq) - rq->idle_stamp;
	if (legacy_balance()) {
		/* 3.3: a long idle period sets the average to its cap, a short one is averaged in */
		max = 2 * sysctl(TUN_MIGRATION_COST);
		if (delta > max)
			rq->avg_idle = max;
		else
			rq->avg_idle = (u64)((s64)rq->avg_idle + (((s64)delta - (s64)rq->avg_idle) >> 3));
		rq->idle_stamp = 0;
		return;
	}
	rq->avg_idle = (u64)((s64)rq->avg_idle + ((s64)delta - (s64)rq->avg_idle) / 8);
	if (rq->avg_idle > max)
		rq->avg_idle = max;
	rq->idle_stamp = 0;
}

static void update_next_balance(const struct sched_domain *sd, u64 *next_balance)
{
	u64 next = sd_lb(sd)->last_balance + get_sd_balance_interval(sd, false);

	if (*next_balance > next)
		*next_balance = next;
}

/*
 * sched_balance_newidle(): a CPU with nothing left to run pulls before
 * going idle, level by level while the idle time it expects (avg_idle)
 * exceeds what balancing has cost. > 0 when fair tasks are queued now.
 */
int sched_balance_newidle(struct rq *this_rq)
{
	const struct sched_domain *sd = lowest_sd(this_rq->cpu);
	u64 next_balance = jiffies() + E->sc->hz, curr_cost = 0;
	bool continue_balancing = true;
	int pulled_task = 0;

	if (legacy_balance())
		return idle_balance_legacy(this_rq);

	this_rq->idle_stamp = rq_clock(this_rq);
	if (!sd)
		return 0;
	/* nothing to pull unless some CPU is overloaded; not worth it for a short idle */
	if (!ST->rd_overloaded || this_rq->avg_idle < sd_lb(sd)->max_newidle_lb_cost) {
		update_next_balance(sd, &next_balance);
		goto out;
	}
	update_blocked_averages(this_rq->cpu);
	for_each_domain(this_rq->cpu, sd) {
		update_next_balance(sd, &next_balance);
		if (this_rq->avg_idle < curr_cost + sd_lb(sd)->max_newidle_lb_cost)
			break;
		if (sd->flags & SD_BALANCE_NEWIDLE) {
			u64 cost = balance_pass_cost(sd);
			unsigned int weight = 1;

			if (sched_feat(NI_RANDOM)) {
				/* run only as often as it has been succeeding: a 1024-sided die */
				unsigned int d1k = (unsigned int)(sched_rand() % 1024);

				weight = 1 + sd_lb(sd)->newidle_ratio;
				if (d1k > weight) {
					update_newidle_stats(sd_lb(sd), 0);
					continue;
				}
				weight = (1024 + weight / 2) / weight;
			}
			pulled_task = sched_balance_rq(this_rq->cpu, this_rq, sd, CPU_NEWLY_IDLE,
						       MIGRATE_NEWIDLE, &continue_balancing);
			update_newidle_cost(sd, cost, weight * !!pulled_task);
			curr_cost += cost;
		}
		if (pulled_task || !continue_balancing)
			break;
	}
	if (curr_cost > this_rq->max_idle_balance_cost)
		this_rq->max_idle_balance_cost = curr_cost;
	if (this_rq->cfs.h_nr_running && !pulled_task)
		pulled_task = 1;
out:
	if (this_rq->next_balance > next_balance)
		this_rq->next_balance = next_balance;
	if (pulled_task)
		this_rq->idle_stamp = 0;
	return pulled_task;
}

/* ---- active balance: the CPU stopper ---- */

/*
 * active_load_balance_cpu_stop(): runs on the busiest CPU once its stopper
 * has switched the running task out, so even that task can move; the
 * coldest task allowed on the target goes, cache hot or not.
 */
void active_load_balance_cpu_stop(struct rq *busiest_rq)
{
	int target_cpu = busiest_rq->push_cpu;
	struct rq *target_rq = cpu_rq(target_cpu);
	const struct sched_domain *sd;
	struct task_struct *p, *moved = NULL;
	struct lb_env env;
	int outcome = LB_ACTIVE_FAILED;

	if (legacy_balance()) {
		active_load_balance_legacy(busiest_rq);
		return;
	}

	busiest_rq->active_balance = false;
	if (!busiest_rq->nr_running)
		return;
	for_each_domain(target_cpu, sd)
		if (cpumask_test(&sd->span, busiest_rq->cpu))
			break;
	if (!sd)
		return;

	memset(&env, 0, sizeof(env));
	env.sd = sd;
	env.dst_cpu = target_cpu;
	env.dst_rq = target_rq;
	env.src_cpu = busiest_rq->cpu;
	env.src_rq = busiest_rq;
	env.idle = CPU_IDLE;
	env.reason = MIGRATE_ACTIVE;
	env.flags = LBF_ACTIVE_LB;
	/* the push continues the record of the balance attempt that asked for it */
	env.decision = busiest_rq->active_decision;
	env.nr_balance_failed = sd_lb(sd)->nr_balance_failed;
	env.found_imbalance = 1;
	/* the kernel's lb_env initializer leaves it 0: migrate_load, so delayed tasks may go */
	env.migration_type = migrate_load;
	update_rq_clock(busiest_rq);
	for (p = busiest_rq->cfs_tasks_tail; p; p = p->tasks_prev) {
		bool hot;

		if (can_migrate_task(p, &env, &hot))
			continue;
		emit_task(&env, p, task_h_load(p), LBT_MOVED);
		detach_task(p, &env);
		moved = p;
		break;
	}
	if (moved) {
		update_rq_clock(target_rq);
		attach_task(target_rq, moved, CPU_IDLE);
		sd_lb(sd)->nr_balance_failed = 0;
		outcome = LB_ACTIVE_PUSHED;
	}
	emit_outcome(&env, NULL, busiest_rq, moved != NULL, outcome);
}
