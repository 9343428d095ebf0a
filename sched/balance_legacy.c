// SPDX-License-Identifier: GPL-2.0
/*
 * The load balancer of the releases before 3.8, as Linux 3.3's
 * kernel/sched/fair.c has it (sched_domains_legacy()): loads are runqueue
 * weights (weighted_cpuload()) and their per-tick averages cpu_load[]
 * (cpu_load.c), read through each domain's busy_idx, idle_idx and
 * newidle_idx; groups are compared by load per cpu_power.
 *
 *   rebalance_domains()      from the tick (trigger_load_balance()), per
 *                            domain when balance_interval (times busy_factor
 *                            on a busy CPU) has passed
 *   load_balance()           find_busiest_group() over update_sg_lb_stats()
 *                            (group_imb, group_capacity, prefer_sibling),
 *                            calculate_imbalance(), fix_small_imbalance(),
 *                            find_busiest_queue(), move_tasks() over the
 *                            queues' task lists, most recently queued first
 *   idle_balance()           before a CPU goes idle, when avg_idle is at least
 *                            sysctl_sched_migration_cost
 *   active balance           after cache_nice_tries + 2 failures, the stopper
 *                            pushes one task (move_one_task())
 *   NO_HZ                    nohz_kick_needed(): a busy tick with two tasks,
 *                            or two busy CPUs sharing a package, kicks the
 *                            first tickless CPU to balance for all of them
 *
 * The records are those of the 6.12 balancer (balance.c): a group's type is
 * derived from 3.3's capacity test, its capacity is its cpu_power.
 */
#include "balance.h"

/* 3.3 counts the breaks a balance takes (LBF_HAD_BREAK) and gives up after three */
#define LBF_HAD_BREAK 0x20
#define LBF_HAD_BREAKS 0x60
#define LBF_ABORT 0x80

struct sg_stats33 {
	unsigned long avg_load, group_load, sum_nr_running, sum_weighted_load;
	unsigned long group_capacity, idle_cpus, group_weight, power;
	int group_imb, group_has_capacity;
	unsigned int sum_h_nr_running;
};

struct sd_stats33 {
	const struct sched_group *busiest, *this;
	unsigned long total_load, total_pwr, avg_load;
	unsigned long this_load, this_load_per_task, this_nr_running, this_has_capacity, this_idle_cpus;
	unsigned long busiest_idle_cpus, max_load, busiest_load_per_task, busiest_nr_running;
	unsigned long busiest_group_capacity, busiest_has_capacity, busiest_group_weight;
	unsigned long this_power, busiest_power;
	int group_imb;
};

static unsigned long div_round_closest(unsigned long x, unsigned long d)
{
	return (x + d / 2) / d;
}

/* sgp->power, as update_group_power() left it; power_orig before RT and interrupt time. */
static unsigned long group_power(const struct sched_group *sg, unsigned long *orig)
{
	unsigned long base = 0;
	int i;

	for_each_cpu (i, &sg->span)
		base += power_orig_of(i);
	if (orig)
		*orig = base;
	return sgc_of(sg)->capacity;
}

/* fix_small_capacity(): an SMT sibling that kept ~90% of its power still counts as one. */
static unsigned long fix_small_capacity(const struct sched_domain *sd, const struct sched_group *sg)
{
	unsigned long orig, power = group_power(sg, &orig);

	if (!(sd->flags & SD_SHARE_CPUCAPACITY))
		return 0;
	return power * 32 > orig * 29;
}

static int get_sd_load_idx(const struct sched_domain *sd, enum cpu_idle_type idle)
{
	if (idle == CPU_NOT_IDLE)
		return (int)sd->busy_idx;
	if (idle == CPU_NEWLY_IDLE)
		return (int)sd->newidle_idx;
	return (int)sd->idle_idx;
}

static void emit_group33(const struct lb_env *env, const struct sched_group *sg, const struct sg_stats33 *s,
			 bool local)
{
	struct sg_lb_stats sgs = {
		.avg_load = s->avg_load,
		.group_load = s->group_load,
		.group_capacity = s->power,
		.sum_nr_running = (unsigned int)s->sum_nr_running,
		.sum_h_nr_running = s->sum_h_nr_running,
		.idle_cpus = (unsigned int)s->idle_cpus,
		.group_weight = (unsigned int)s->group_weight,
	};

	if (s->group_imb)
		sgs.group_type = group_imbalanced;
	else if (s->sum_nr_running > s->group_capacity)
		sgs.group_type = group_overloaded;
	else if (s->sum_nr_running == s->group_capacity)
		sgs.group_type = group_fully_busy;
	else
		sgs.group_type = group_has_spare;
	emit_group(env, sg, &sgs, local);
}

/* ---- find_busiest_group ---- */

static void update_sg_lb_stats(struct lb_env *env, const struct sched_group *group, int load_idx,
			       bool local_group, bool *balance, struct sg_stats33 *sgs)
{
	unsigned long max_cpu_load = 0, min_cpu_load = ~0UL, max_nr_running = 0, avg_load_per_task = 0;
	int balance_cpu = -1, i;
	bool first_idle_cpu = false;

	memset(sgs, 0, sizeof(*sgs));
	if (local_group)
		balance_cpu = cpumask_first(&group->span);
	for_each_cpu (i, &group->span) {
		struct rq *rq = cpu_rq(i);
		unsigned long load;

		if (!cpumask_test(&env->cpus, i))
			continue;
		/* bias balancing toward the CPUs of our own group */
		if (local_group) {
			if (idle_cpu(i) && !first_idle_cpu) {
				first_idle_cpu = true;
				balance_cpu = i;
			}
			load = target_load(i, load_idx);
		} else {
			load = source_load(i, load_idx);
			if (load > max_cpu_load) {
				max_cpu_load = load;
				max_nr_running = rq->nr_running;
			}
			if (min_cpu_load > load)
				min_cpu_load = load;
		}
		sgs->group_load += load;
		sgs->sum_nr_running += rq->nr_running;
		sgs->sum_h_nr_running += rq->cfs.h_nr_running;
		sgs->sum_weighted_load += weighted_cpuload(i);
		if (idle_cpu(i))
			sgs->idle_cpus++;
	}
	/* the first idle CPU, else the first CPU, balances for the group */
	if (env->idle != CPU_NEWLY_IDLE && local_group && balance_cpu != env->dst_cpu) {
		*balance = false;
		return;
	}
	if (local_group)
		update_local_group_capacity(env, group);
	sgs->power = group_power(group, NULL);
	sgs->avg_load = sgs->group_load * SCHED_POWER_SCALE / sgs->power;
	/* imbalanced inside: its CPUs differ by more than a task, one runs two */
	if (sgs->sum_nr_running)
		avg_load_per_task = sgs->sum_weighted_load / sgs->sum_nr_running;
	if (max_cpu_load - min_cpu_load >= avg_load_per_task && max_nr_running > 1)
		sgs->group_imb = 1;
	sgs->group_capacity = div_round_closest(sgs->power, SCHED_POWER_SCALE);
	if (!sgs->group_capacity)
		sgs->group_capacity = fix_small_capacity(env->sd, group);
	sgs->group_weight = group->group_weight;
	if (sgs->group_capacity > sgs->sum_nr_running)
		sgs->group_has_capacity = 1;
}

static bool update_sd_pick_busiest(const struct sd_stats33 *sds, const struct sg_stats33 *sgs)
{
	if (sgs->avg_load <= sds->max_load)
		return false;
	if (sgs->sum_nr_running > sgs->group_capacity)
		return true;
	return sgs->group_imb;
}

static void update_sd_lb_stats(struct lb_env *env, bool *balance, struct sd_stats33 *sds)
{
	const struct sched_domain *child = child_sd(env->sd);
	bool prefer_sibling = child && (child->flags & SD_PREFER_SIBLING);
	int load_idx = get_sd_load_idx(env->sd, env->idle);

	for (int k = 0; k < env->sd->nr_groups; k++) {
		const struct sched_group *sg = sd_group(SDS(), env->sd, k);
		bool local_group = cpumask_test(&sg->span, env->dst_cpu);
		struct sg_stats33 sgs;

		update_sg_lb_stats(env, sg, load_idx, local_group, balance, &sgs);
		if (local_group && !*balance)
			return;
		emit_group33(env, sg, &sgs, local_group);
		sds->total_load += sgs.group_load;
		sds->total_pwr += sgs.power;
		/* the child prefers siblings: a group here should keep one task if we have room */
		if (prefer_sibling && !local_group && sds->this_has_capacity)
			sgs.group_capacity = MIN(sgs.group_capacity, 1UL);
		if (local_group) {
			sds->this_load = sgs.avg_load;
			sds->this = sg;
			sds->this_power = sgs.power;
			sds->this_nr_running = sgs.sum_nr_running;
			sds->this_load_per_task = sgs.sum_weighted_load;
			sds->this_has_capacity = (unsigned long)sgs.group_has_capacity;
			sds->this_idle_cpus = sgs.idle_cpus;
		} else if (update_sd_pick_busiest(sds, &sgs)) {
			sds->max_load = sgs.avg_load;
			sds->busiest = sg;
			sds->busiest_power = sgs.power;
			sds->busiest_nr_running = sgs.sum_nr_running;
			sds->busiest_idle_cpus = sgs.idle_cpus;
			sds->busiest_group_capacity = sgs.group_capacity;
			sds->busiest_load_per_task = sgs.sum_weighted_load;
			sds->busiest_has_capacity = (unsigned long)sgs.group_has_capacity;
			sds->busiest_group_weight = sgs.group_weight;
			sds->group_imb = sgs.group_imb;
		}
	}
}

/* Not enough imbalance to move a task by load: move one anyway if that gains throughput. */
static void fix_small_imbalance(struct lb_env *env, struct sd_stats33 *sds)
{
	unsigned long tmp, pwr_now = 0, pwr_move = 0, scaled_busy_load_per_task;
	unsigned int imbn = 2;

	if (sds->this_nr_running) {
		sds->this_load_per_task /= sds->this_nr_running;
		if (sds->busiest_load_per_task > sds->this_load_per_task)
			imbn = 1;
	} else {
		sds->this_load_per_task = cpu_avg_load_per_task(env->dst_cpu);
	}
	scaled_busy_load_per_task = sds->busiest_load_per_task * SCHED_POWER_SCALE / sds->busiest_power;
	if (sds->max_load - sds->this_load + scaled_busy_load_per_task >= scaled_busy_load_per_task * imbn) {
		env->imbalance = (long)sds->busiest_load_per_task;
		return;
	}
	pwr_now += sds->busiest_power * MIN(sds->busiest_load_per_task, sds->max_load);
	pwr_now += sds->this_power * MIN(sds->this_load_per_task, sds->this_load);
	pwr_now /= SCHED_POWER_SCALE;
	/* amount of load we'd subtract */
	tmp = sds->busiest_load_per_task * SCHED_POWER_SCALE / sds->busiest_power;
	if (sds->max_load > tmp)
		pwr_move += sds->busiest_power * MIN(sds->busiest_load_per_task, sds->max_load - tmp);
	/* amount of load we'd add */
	if (sds->max_load * sds->busiest_power < sds->busiest_load_per_task * SCHED_POWER_SCALE)
		tmp = sds->max_load * sds->busiest_power / sds->this_power;
	else
		tmp = sds->busiest_load_per_task * SCHED_POWER_SCALE / sds->this_power;
	pwr_move += sds->this_power * MIN(sds->this_load_per_task, sds->this_load + tmp);
	pwr_move /= SCHED_POWER_SCALE;
	if (pwr_move > pwr_now)
		env->imbalance = (long)sds->busiest_load_per_task;
}

static void calculate_imbalance(struct lb_env *env, struct sd_stats33 *sds)
{
	unsigned long max_pull, load_above_capacity = ~0UL;

	sds->busiest_load_per_task /= sds->busiest_nr_running;
	if (sds->group_imb)
		sds->busiest_load_per_task = MIN(sds->busiest_load_per_task, sds->avg_load);
	if (sds->max_load < sds->avg_load) {
		env->imbalance = 0;
		fix_small_imbalance(env, sds);
		return;
	}
	/* don't pull so much that the busiest group would go idle */
	if (!sds->group_imb) {
		load_above_capacity = sds->busiest_nr_running - sds->busiest_group_capacity;
		load_above_capacity *= SCHED_CAPACITY_SCALE * SCHED_POWER_SCALE;
		load_above_capacity /= sds->busiest_power;
	}
	/* nobody above the average; unsigned, as the kernel's (a negative wraps) */
	max_pull = MIN(sds->max_load - sds->avg_load, load_above_capacity);
	env->imbalance = (long)(MIN(max_pull * sds->busiest_power,
				    (sds->avg_load - sds->this_load) * sds->this_power) /
				SCHED_POWER_SCALE);
	if ((unsigned long)env->imbalance < sds->busiest_load_per_task)
		fix_small_imbalance(env, sds);
}

static const struct sched_group *find_busiest_group(struct lb_env *env, bool *balance)
{
	struct sd_stats33 sds;

	memset(&sds, 0, sizeof(sds));
	update_sd_lb_stats(env, balance, &sds);
	if (!*balance) {
		env->why = FBG_NOT_DESIGNATED;
		goto out;
	}
	if (!sds.busiest || !sds.busiest_nr_running) {
		env->why = FBG_NO_BUSIEST;
		goto out;
	}
	sds.avg_load = SCHED_POWER_SCALE * sds.total_load / sds.total_pwr;
	/* affinity keeps the busiest group's CPUs unequal: the checks below would not hold */
	if (sds.group_imb)
		goto force_balance;
	/* SD_BALANCE_NEWIDLE trumps SMP nice when underutilized */
	if (env->idle == CPU_NEWLY_IDLE && sds.this_has_capacity && !sds.busiest_has_capacity)
		goto force_balance;
	if (sds.this_load >= sds.max_load) {
		env->why = FBG_LOCAL_BUSIER;
		goto out;
	}
	if (sds.this_load >= sds.avg_load) {
		env->why = FBG_AVG_LOAD;
		goto out;
	}
	if (env->idle == CPU_IDLE) {
		/* no more tasks than CPUs there, and idle CPUs on both sides */
		if (sds.this_idle_cpus <= sds.busiest_idle_cpus + 1 &&
		    sds.busiest_nr_running <= sds.busiest_group_weight) {
			env->why = FBG_IDLE_CPUS;
			goto out;
		}
	} else if (100 * sds.max_load <= env->sd->imbalance_pct * sds.this_load) {
		env->why = FBG_AVG_LOAD;
		goto out;
	}
force_balance:
	calculate_imbalance(env, &sds);
	return sds.busiest;
out:
	env->imbalance = 0;
	return NULL;
}

static struct rq *find_busiest_queue(struct lb_env *env, const struct sched_group *group)
{
	struct rq *busiest = NULL;
	unsigned long max_load = 0;
	int i;

	for_each_cpu (i, &group->span) {
		unsigned long power = power_of(i), capacity = div_round_closest(power, SCHED_POWER_SCALE), wl;
		struct rq *rq = cpu_rq(i);

		if (!capacity)
			capacity = fix_small_capacity(env->sd, group);
		if (!cpumask_test(&env->cpus, i))
			continue;
		wl = weighted_cpuload(i);
		/* a lone task heavier than the imbalance stays */
		if (capacity && rq->nr_running == 1 && wl > (unsigned long)env->imbalance)
			continue;
		wl = wl * SCHED_POWER_SCALE / power;
		if (wl > max_load) {
			max_load = wl;
			busiest = rq;
		}
	}
	return busiest;
}

/* ---- moving tasks ---- */

/* task_hot(): a buddy of the CPU doing the balance, or it ran within migration_cost. */
static int task_hot(struct task_struct *p, struct lb_env *env)
{
	const struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);
	u64 cost = sysctl(TUN_MIGRATION_COST);

	if (p->sched_class != &fair_sched_class || task_has_idle_policy(p))
		return 0;
	if (sched_feat(CACHE_HOT_BUDDY) && env->this_rq->nr_running &&
	    (&p->se == cfs_rq->next || &p->se == cfs_rq->last))
		return 1;
	if (cost == 0)
		return 0;
	return (s64)(rq_clock_task(env->src_rq) - p->se.exec_start) < (s64)cost;
}

/* can_migrate_task(): 0 = may move, else the enum lb_task_result that stops it. */
static int can_migrate_task(struct task_struct *p, struct lb_env *env, bool *hot)
{
	*hot = false;
	if (!task_allowed_on_cpu(p, env->dst_cpu))
		return LBT_PINNED;
	env->flags &= ~LBF_ALL_PINNED;
	if (p->on_cpu)
		return LBT_RUNNING;
	*hot = task_hot(p, env);
	/* repeated failures overrule cache hotness */
	if (!*hot || sd_lb(env->sd)->nr_balance_failed > env->sd->cache_nice_tries)
		return 0;
	return LBT_HOT;
}

/* pull_task(): moved and checked for preemption on the new CPU. */
static void pull_task(struct task_struct *p, struct lb_env *env, bool hot)
{
	emit_task(env, p, scale_load_down(p->se.load.weight), hot ? LBT_MOVED_HOT : LBT_MOVED);
	env->nr_hot_moved += hot;
	update_rq_clock(env->src_rq);
	detach_task(p, env);
	update_rq_clock(env->dst_rq);
	attach_task(env->dst_rq, p, env->idle);
}

/* The load the balancer sees of a queue (h_load), top down from the CPU's weight. */
static unsigned long h_load(const struct cfs_rq *cfs_rq)
{
	const struct task_group *tg = cfs_rq->tg;
	int cpu = rq_of((struct cfs_rq *)cfs_rq)->cpu;
	const struct cfs_rq *parent;

	if (!tg->parent)
		return weighted_cpuload(cpu);
	parent = tg->parent->cfs_rq[cpu];
	return h_load(parent) * scale_load_down(tg->se[cpu]->load.weight) /
	       (scale_load_down(parent->load.weight) + 1);
}

/*
 * balance_tasks(): the tasks of one queue, most recently queued first,
 * until max_load_move of its own weight has moved; a task more than
 * twice what is left stays.
 */
static unsigned long balance_tasks(struct lb_env *env, unsigned long max_load_move,
				   const struct cfs_rq *cfs_rq, int *pulled)
{
	long rem_load_move = (long)max_load_move;
	unsigned int loops = 0;
	struct task_struct *p, *n;

	if (!max_load_move)
		return 0;
	for (p = env->src_rq->cfs_tasks_head; p; p = n) {
		unsigned long weight = scale_load_down(p->se.load.weight);
		bool hot;
		int why;

		n = p->tasks_next;
		if (cfs_rq_of(&p->se) != cfs_rq)
			continue;
		if (loops++ > sysctl(TUN_NR_MIGRATE)) {
			env->flags |= LBF_NEED_BREAK;
			break;
		}
		if ((long)(weight >> 1) > rem_load_move) {
			emit_task(env, p, weight, LBT_TOO_BIG);
			continue;
		}
		why = can_migrate_task(p, env, &hot);
		if (why) {
			emit_task(env, p, weight, why);
			continue;
		}
		pull_task(p, env, hot);
		(*pulled)++;
		rem_load_move -= (long)weight;
		if (rem_load_move <= 0)
			break;
	}
	return (unsigned long)((long)max_load_move - rem_load_move);
}

/*
 * load_balance_fair(): queue by queue, children before parents, in the
 * queue's own units: the imbalance scaled by weight over h_load.
 */
static unsigned long load_balance_fair(struct lb_env *env, unsigned long max_load_move, int *pulled)
{
	long rem_load_move = (long)max_load_move;
	int cpu = env->src_cpu;

	for (int g = ST->nr_groups - 1; g >= 0; g--) {
		const struct task_group *tg = &ST->tg[g];
		const struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];
		unsigned long busiest_h_load, busiest_weight;
		u64 rem_load, moved_load;

		if (env->flags & (LBF_NEED_BREAK | LBF_ABORT))
			break;
		if (!cfs_rq->nr_running || cfs_rq->h_nr_running == 0 ||
		    throttled_lb_pair(tg, cpu, env->dst_cpu))
			continue;
		busiest_h_load = h_load(cfs_rq);
		busiest_weight = scale_load_down(cfs_rq->load.weight);
		rem_load = (u64)rem_load_move * busiest_weight / (busiest_h_load + 1);
		moved_load = balance_tasks(env, (unsigned long)rem_load, cfs_rq, pulled);
		if (!moved_load)
			continue;
		moved_load = moved_load * busiest_h_load / (busiest_weight + 1);
		rem_load_move -= (long)moved_load;
		if (rem_load_move < 0)
			break;
	}
	return (unsigned long)((long)max_load_move - rem_load_move);
}

static int move_tasks(struct lb_env *env, unsigned long max_load_move)
{
	unsigned long total_load_moved = 0, load_moved;
	int pulled = 0;

	do {
		load_moved = load_balance_fair(env, max_load_move - total_load_moved, &pulled);
		total_load_moved += load_moved;
		if (env->flags & (LBF_NEED_BREAK | LBF_ABORT))
			break;
	} while (load_moved && max_load_move > total_load_moved);
	return pulled;
}

/* ---- load_balance ---- */

static int need_active_balance(const struct lb_env *env)
{
	/* newidle: only the power-savings settings (off) push a lone task */
	if (env->idle == CPU_NEWLY_IDLE)
		return 0;
	return sd_lb(env->sd)->nr_balance_failed > env->sd->cache_nice_tries + 2;
}

static int load_balance(int this_cpu, struct rq *exec_rq, const struct sched_domain *sd,
			enum cpu_idle_type idle, int reason, bool *balance)
{
	struct sd_lb_state *lb = sd_lb(sd);
	const struct sched_group *group = NULL;
	struct rq *busiest = NULL;
	int ld_moved = 0, outcome;
	struct lb_env env = {
		.sd = sd,
		.dst_cpu = this_cpu,
		.dst_rq = cpu_rq(this_cpu),
		.this_rq = exec_rq,
		.idle = idle,
		.reason = reason,
		.migration_type = migrate_load,
		.decision = ST->nr_events,
		.nr_balance_failed = lb->nr_balance_failed,
	};

	/* cpu_active_mask: every CPU */
	for (int i = 0; i < ST->nr_cpus; i++)
		cpumask_set(&env.cpus, i);
	balance_pass_spend(exec_rq, sd, idle);
redo:
	group = find_busiest_group(&env, balance);
	if (!*balance) {
		outcome = LB_BALANCED;
		goto out_balanced;
	}
	if (!group) {
		outcome = LB_NOBUSYG;
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
	ld_moved = 0;
	if (busiest->nr_running > 1) {
		env.flags |= LBF_ALL_PINNED;
		ld_moved = move_tasks(&env, (unsigned long)env.imbalance);
		if (ld_moved && this_cpu != exec_rq->cpu)
			resched_curr(env.dst_rq);
		if (env.flags & LBF_NEED_BREAK) {
			env.flags += LBF_HAD_BREAK - LBF_NEED_BREAK;
			if (env.flags & LBF_ABORT) {
				outcome = ld_moved ? LB_MOVED : LB_FAILED;
				goto out_balanced;
			}
			goto redo;
		}
		/* every task there was pinned elsewhere: try the others */
		if (env.flags & LBF_ALL_PINNED) {
			cpumask_clear(&env.cpus, busiest->cpu);
			for (int i = 0; i < ST->nr_cpus; i++)
				if (cpumask_test(&env.cpus, i))
					goto redo;
			outcome = LB_ALL_PINNED;
			goto out_balanced;
		}
	}
	if (!ld_moved) {
		outcome = LB_FAILED;
		if (idle != CPU_NEWLY_IDLE)
			lb->nr_balance_failed++;
		if (need_active_balance(&env)) {
			/* the running task must be able to come here (the idle task cannot) */
			if (is_idle_task(busiest->curr) || !task_allowed_on_cpu(busiest->curr, this_cpu)) {
				env.flags |= LBF_ALL_PINNED;
				goto out_one_pinned;
			}
			if (!busiest->active_balance) {
				busiest->active_balance = true;
				busiest->push_cpu = this_cpu;
				busiest->active_decision = env.decision;
				env.active = true;
				if (linsched_machine())
					linsched_stop_one_cpu_nowait(busiest);
				else
					resched_curr(busiest);
			}
			/* kicked: the failures start over from cache_nice_tries + 1 */
			lb->nr_balance_failed = sd->cache_nice_tries + 1;
		}
	} else {
		outcome = LB_MOVED;
		lb->nr_balance_failed = 0;
	}
	if (!env.active)
		lb->balance_interval = sd->min_interval;
	else if (lb->balance_interval < sd->max_interval)
		lb->balance_interval *= 2;
	goto out;

out_balanced:
	lb->nr_balance_failed = 0;
out_one_pinned:
	/* balanced: look less often (newidle too, in these releases) */
	if (((env.flags & LBF_ALL_PINNED) && lb->balance_interval < MAX_PINNED_INTERVAL) ||
	    lb->balance_interval < sd->max_interval)
		lb->balance_interval *= 2;
	ld_moved = 0;
out:
	emit_outcome(&env, group, busiest, ld_moved, outcome);
	return ld_moved;
}

/* ---- rebalance_domains, idle_balance, the NO_HZ balancer ---- */

static unsigned long balance_interval_jiffies(const struct sched_domain *sd, enum cpu_idle_type idle)
{
	u64 interval = sd_lb(sd)->balance_interval;
	u64 max = sched_max_load_balance_interval(E->sc->hz, ST->nr_cpus);

	if (idle != CPU_IDLE)
		interval *= sd->busy_factor;
	interval = msecs_to_jiffies(interval);
	return (unsigned long)MAX(1, MIN(interval, MAX(max, 1)));
}

/* rebalance_domains() of cpu, run by exec_rq's CPU (the idle load balancer's for a tickless one). */
static void rebalance_domains(int cpu, struct rq *exec_rq, enum cpu_idle_type idle, int reason)
{
	struct rq *rq = cpu_rq(cpu);
	u64 now = jiffies(), next_balance = now + 60 * E->sc->hz;
	bool balance = true, update_next = false;
	const struct sched_domain *sd;

	for_each_domain (cpu, sd) {
		struct sd_lb_state *lb = sd_lb(sd);
		unsigned long interval = balance_interval_jiffies(sd, idle);

		if (now >= lb->last_balance + interval) {
			/* pulled: this CPU is no longer idle */
			if (load_balance(cpu, exec_rq, sd, idle, reason, &balance))
				idle = CPU_NOT_IDLE;
			lb->last_balance = now;
		}
		if (next_balance > lb->last_balance + interval) {
			next_balance = lb->last_balance + interval;
			update_next = true;
		}
		/* another CPU of our group balances at this level and above */
		if (!balance)
			break;
	}
	if (update_next)
		rq->next_balance = next_balance;
}

/*
 * nohz_idle_balance(): the kicked CPU balances for every other tickless idle
 * CPU, refreshing its own cpu_load[] first (3.3 updates the balancer's, not
 * the balanced CPU's), until it gets work itself.
 */
static void nohz_idle_balance(int ilb_cpu)
{
	struct rq *this_rq = cpu_rq(ilb_cpu);
	int cpu;

	rebalance_domains(ilb_cpu, this_rq, CPU_IDLE, MIGRATE_NOHZ);
	for_each_cpu (cpu, &ST->nohz.idle_cpus_mask) {
		if (cpu == ilb_cpu || !idle_cpu(cpu))
			continue;
		if (this_rq->need_resched)
			break;
		update_rq_clock(this_rq);
		update_cpu_load(this_rq);
		rebalance_domains(cpu, this_rq, CPU_IDLE, MIGRATE_NOHZ);
		if (this_rq->next_balance > cpu_rq(cpu)->next_balance)
			this_rq->next_balance = cpu_rq(cpu)->next_balance;
	}
	ST->nohz.next_balance = this_rq->next_balance;
}

/* nohz_kick_needed(): a busy CPU with two tasks, or two busy CPUs sharing a package. */
static bool nohz_kick_needed(struct rq *rq)
{
	const struct sched_domain *sd;

	if (idle_cpu(rq->cpu))
		return false;
	/* the first busy tick after idle: counted busy again, out of the tickless mask */
	nohz_balance_exit_idle(rq);
	if (!ST->nohz.nr_cpus || jiffies() < ST->nohz.next_balance)
		return false;
	if (rq->nr_running >= 2)
		return true;
	for_each_domain (rq->cpu, sd) {
		const struct sched_group *sg = sd_group(SDS(), sd, 0);

		if ((sd->flags & SD_SHARE_LLC) && sgc_of(sg)->nr_busy_cpus > 1)
			return true;
		if (!(sd->flags & SD_SHARE_LLC))
			break;
	}
	return false;
}

/*
 * trigger_load_balance() in the tick: raise the softirq if a balance is due,
 * and kick the first tickless CPU (find_new_ilb()), if it is still idle,
 * when the NO_HZ balancer is needed. Both run from run_rebalance_legacy()
 * once the CPU's interrupt is over.
 */
void trigger_load_balance_legacy(struct rq *rq)
{
	if (!lowest_sd(rq->cpu))
		return;
	rq->lb_softirq = jiffies() >= rq->next_balance;
	rq->lb_softirq_idle = idle_cpu(rq->cpu);
	rq->lb_kicked_ilb = -1;
	if (nohz_kick_needed(rq)) {
		int ilb = cpumask_first(&ST->nohz.idle_cpus_mask);

		ST->nohz.next_balance++;
		if (ilb < ST->nr_cpus && idle_cpu(ilb))
			rq->lb_kicked_ilb = (s16)ilb;
	}
}

/* SCHED_SOFTIRQ: this CPU's rebalance_domains(), then the kicked CPU's, for the tickless ones. */
void run_rebalance_legacy(struct rq *rq)
{
	int ilb = rq->lb_kicked_ilb;

	if (rq->lb_softirq)
		rebalance_domains(rq->cpu, rq, rq->lb_softirq_idle ? CPU_IDLE : CPU_NOT_IDLE,
				  MIGRATE_BALANCE);
	rq->lb_softirq = false;
	rq->lb_kicked_ilb = -1;
	/* the kick's IPI found it idle; its own softirq runs right after this one */
	if (ilb >= 0 && !cpu_rq(ilb)->need_resched)
		nohz_idle_balance(ilb);
}

/*
 * idle_balance(): pull before going idle, domain by domain, unless the CPU
 * has lately been idle for less than sysctl_sched_migration_cost on
 * average. > 0 when fair tasks are queued now.
 */
int idle_balance_legacy(struct rq *this_rq)
{
	u64 now = jiffies(), next_balance = now + E->sc->hz;
	const struct sched_domain *sd;
	int pulled_task = 0;

	this_rq->idle_stamp = rq_clock(this_rq);
	if (this_rq->avg_idle < sysctl(TUN_MIGRATION_COST))
		return 0;
	for_each_domain (this_rq->cpu, sd) {
		u64 interval = msecs_to_jiffies(sd_lb(sd)->balance_interval);
		bool balance = true;

		if (sd->flags & SD_BALANCE_NEWIDLE)
			pulled_task = load_balance(this_rq->cpu, this_rq, sd, CPU_NEWLY_IDLE, MIGRATE_NEWIDLE,
						   &balance);
		if (next_balance > sd_lb(sd)->last_balance + interval)
			next_balance = sd_lb(sd)->last_balance + interval;
		if (pulled_task) {
			this_rq->idle_stamp = 0;
			break;
		}
	}
	if (pulled_task || now > this_rq->next_balance)
		this_rq->next_balance = next_balance;
	return this_rq->cfs.h_nr_running ? 1 : pulled_task;
}

/*
 * active_load_balance_cpu_stop(): the stopper on the busiest CPU moves one
 * task (move_one_task()) to the CPU that asked, through the lowest domain
 * spanning both; cache hot tasks go only after cache_nice_tries failures.
 */
void active_load_balance_legacy(struct rq *busiest_rq)
{
	int target_cpu = busiest_rq->push_cpu;
	const struct sched_domain *sd;
	struct task_struct *p, *moved = NULL;
	struct lb_env env;

	busiest_rq->active_balance = false;
	/* 3.3 goes on when nr_running > 1, which counts the stopper: the engine does not queue it */
	if (!busiest_rq->nr_running)
		return;
	for_each_domain (target_cpu, sd)
		if (cpumask_test(&sd->span, busiest_rq->cpu))
			break;
	if (!sd)
		return;
	memset(&env, 0, sizeof(env));
	env.sd = sd;
	env.dst_cpu = target_cpu;
	env.dst_rq = cpu_rq(target_cpu);
	env.src_cpu = busiest_rq->cpu;
	env.src_rq = busiest_rq;
	env.this_rq = busiest_rq;
	env.idle = CPU_IDLE;
	env.reason = MIGRATE_ACTIVE;
	env.decision = busiest_rq->active_decision;
	env.nr_balance_failed = sd_lb(sd)->nr_balance_failed;
	env.found_imbalance = 1;
	env.migration_type = migrate_load;
	update_rq_clock(busiest_rq);
	/* queue by queue (children first), each most recently queued first */
	for (int g = ST->nr_groups - 1; g >= 0 && !moved; g--) {
		const struct task_group *tg = &ST->tg[g];

		for (p = busiest_rq->cfs_tasks_head; p; p = p->tasks_next) {
			bool hot;
			int why;

			if (p->sched_task_group != tg)
				continue;
			if (throttled_lb_pair(tg, busiest_rq->cpu, target_cpu))
				break;
			why = can_migrate_task(p, &env, &hot);
			if (why) {
				emit_task(&env, p, scale_load_down(p->se.load.weight), why);
				continue;
			}
			pull_task(p, &env, hot);
			moved = p;
			break;
		}
	}
	emit_outcome(&env, NULL, busiest_rq, moved != NULL, moved ? LB_ACTIVE_PUSHED : LB_ACTIVE_FAILED);
}
