// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup and fork placement (kernel/sched/fair.c select_task_rq_fair() and
 * core.c select_task_rq(), Linux 6.12): wake_wide(), wake_affine(),
 * select_idle_sibling() with select_idle_cpu()'s SIS_UTIL scan depth, and
 * the find_idlest_cpu() slow path. Every call ends in one
 * EV_SELECT_RQ event naming the candidates and why the CPU won.
 * No energy model: EAS is never enabled, so the root domain counts as
 * overutilized and find_energy_efficient_cpu() is never consulted.
 */
#include "balance.h"
#include "ext.h"

/* The task running on this_cpu: the waker (`current`). */
static struct task_struct *current_on(int cpu)
{
	return cpu_rq(cpu)->curr;
}

/* ---- waker/wakee flips ---- */

static void record_wakee(struct task_struct *curr, struct task_struct *p)
{
	u64 now = jiffies();

	/* halve once per second; rare wakers never build up many flips */
	if (now > curr->wakee_flip_decay_ts + E->sc->hz) {
		curr->wakee_flips >>= 1;
		curr->wakee_flip_decay_ts = now;
	}
	if (curr->last_wakee != p) {
		curr->last_wakee = p;
		curr->wakee_flips++;
	}
}

/* A 1:N waker whose partners outnumber the LLC: spread rather than pull. */
static bool wake_wide(struct task_struct *curr, struct task_struct *p, int this_cpu)
{
	unsigned int master = curr->wakee_flips, slave = p->wakee_flips;
	unsigned int factor = (unsigned int)SDS()->percpu[this_cpu].sd_llc_size;

	if (master < slave) {
		unsigned int t = master;
		master = slave;
		slave = t;
	}
	return !(slave < factor || master < slave * factor);
}

/* ---- wake_affine ---- */

static int wake_affine_idle(int this_cpu, int prev_cpu, int sync, struct select_record *r)
{
	/* An idle waker CPU means an interrupt woke p: only move within the cache. */
	if (available_idle_cpu(this_cpu) && cpus_share_cache(this_cpu, prev_cpu)) {
		r->affine = available_idle_cpu(prev_cpu) ? WA_IDLE_PREV : WA_IDLE_THIS;
		return available_idle_cpu(prev_cpu) ? prev_cpu : this_cpu;
	}
	if (sync && cpu_rq(this_cpu)->nr_running - cpu_rq(this_cpu)->cfs.h_nr_delayed == 1) {
		r->affine = WA_SYNC_THIS;
		return this_cpu;
	}
	if (available_idle_cpu(prev_cpu)) {
		r->affine = WA_IDLE_PREV;
		return prev_cpu;
	}
	return -1;
}

static int wake_affine_weight(const struct sched_domain *sd, struct task_struct *curr,
			      struct task_struct *p, int this_cpu, int prev_cpu, int sync,
			      struct select_record *r)
{
	s64 this_eff_load = (s64)cpu_load(cpu_rq(this_cpu)), prev_eff_load;
	s64 task_load;

	if (sync) {
		s64 current_load = (s64)task_h_load(curr);

		if (current_load > this_eff_load) {
			r->affine = WA_WEIGHT_THIS;
			return this_cpu;
		}
		this_eff_load -= current_load;
	}
	task_load = (s64)task_h_load(p);
	this_eff_load += task_load;
	if (sched_feat(WA_BIAS))
		this_eff_load *= 100;
	this_eff_load *= (s64)capacity_of(prev_cpu);

	prev_eff_load = (s64)cpu_load(cpu_rq(prev_cpu)) - task_load;
	if (sched_feat(WA_BIAS))
		prev_eff_load *= 100 + (sd->imbalance_pct - 100) / 2;
	prev_eff_load *= (s64)capacity_of(this_cpu);
	/* equal loads on a sync wakeup: let select_idle_sibling() stack on the waker */
	if (sync)
		prev_eff_load += 1;

	r->this_eff_load = this_eff_load;
	r->prev_eff_load = prev_eff_load;
	r->affine = this_eff_load < prev_eff_load ? WA_WEIGHT_THIS : WA_WEIGHT_PREV;
	return this_eff_load < prev_eff_load ? this_cpu : -1;
}

static int wake_affine(const struct sched_domain *sd, struct task_struct *curr, struct task_struct *p,
		       int this_cpu, int prev_cpu, int sync, struct select_record *r)
{
	int target = -1;

	if (sched_feat(WA_IDLE))
		target = wake_affine_idle(this_cpu, prev_cpu, sync, r);
	if (sched_feat(WA_WEIGHT) && target == -1)
		target = wake_affine_weight(sd, curr, p, this_cpu, prev_cpu, sync, r);
	return target == this_cpu ? this_cpu : prev_cpu;
}

/* ---- the idle-CPU search ---- */

/*
 * choose_sched_idle_rq(): a CPU running only SCHED_IDLE tasks counts as
 * idle for a wakee that would preempt them. "sched/fair: Skip SCHED_IDLE rq
 * for SCHED_IDLE task" (fd54d81c2c0e, after 6.19; SKIP_SCHED_IDLE_RQ here):
 * not for a SCHED_IDLE wakee, which would only share the CPU with them.
 */
static bool choose_sched_idle_rq(int cpu, const struct task_struct *p)
{
	return sched_idle_cpu(cpu) && !(sched_feat(SKIP_SCHED_IDLE_RQ) && task_has_idle_policy(p));
}

/* choose_idle_cpu(): idle, or running only what the wakee would preempt */
static bool choose_idle_cpu(int cpu, const struct task_struct *p)
{
	return available_idle_cpu(cpu) || choose_sched_idle_rq(cpu, p);
}

/* cpu_smt_mask(): the CPUs of cpu's SMT domain, or cpu alone. */
static const struct cpumask *smt_mask(int cpu, struct cpumask *one)
{
	const struct sched_domain *sd = lowest_sd(cpu);

	if (sd && (sd->flags & SD_SHARE_CPUCAPACITY))
		return &sd->span;
	memset(one, 0, sizeof(*one));
	cpumask_set(one, cpu);
	return one;
}

static bool smt_active(void)
{
	return ST->smt_present;
}

/* __update_idle_core(): a CPU going idle may complete an idle core. */
void update_idle_core(struct rq *rq)
{
	struct cpumask one;
	const struct cpumask *m;
	int cpu;

	if (!lowest_sd(rq->cpu) || !smt_active() || llc_shared(rq->cpu)->has_idle_cores)
		return;
	m = smt_mask(rq->cpu, &one);
	for_each_cpu(cpu, m)
		if (cpu != rq->cpu && !available_idle_cpu(cpu))
			return;
	llc_shared(rq->cpu)->has_idle_cores = true;
}

static void cpumask_clear_cpus(struct cpumask *m, const struct cpumask *drop)
{
	for (int w = 0; w < CPUMASK_WORDS; w++)
		m->bits[w] &= ~drop->bits[w];
}

static int select_idle_core(const struct task_struct *p, int core, struct cpumask *cpus, int *idle_cpu)
{
	struct cpumask one;
	const struct cpumask *m = smt_mask(core, &one);
	bool idle = true;
	int cpu;

	for_each_cpu(cpu, m) {
		if (!available_idle_cpu(cpu)) {
			idle = false;
			if (*idle_cpu == -1) {
				if (choose_sched_idle_rq(cpu, p) && cpumask_test(cpus, cpu)) {
					*idle_cpu = cpu;
					break;
				}
				continue;
			}
			break;
		}
		if (*idle_cpu == -1 && cpumask_test(cpus, cpu))
			*idle_cpu = cpu;
	}
	if (idle)
		return core;
	cpumask_clear_cpus(cpus, m);
	return -1;
}

static int select_idle_smt(struct task_struct *p, const struct sched_domain *sd, int target)
{
	struct cpumask one;
	const struct cpumask *m = smt_mask(target, &one);
	int cpu;

	for_each_cpu(cpu, m) {
		if (cpu == target || !task_allowed_on_cpu(p, cpu) || !cpumask_test(&sd->span, cpu))
			continue;
		if (choose_idle_cpu(cpu, p))
			return cpu;
	}
	return -1;
}

/*
 * for_each_cpu_wrap(cpu, m, target + 1): the CPU of m after prev in the
 * order target+1, ..., last, 0, ..., target; prev = -1 starts; -1 at the end.
 */
static int next_wrap(const struct cpumask *m, int target, int prev)
{
	int start = (target + 1) % ST->nr_cpus, cpu;

	if (prev < 0) {
		cpu = cpumask_next_from(m, start);
		if (cpu < ST->nr_cpus)
			return cpu;
		cpu = cpumask_next_from(m, 0);
		return cpu < start ? cpu : -1;
	}
	if (prev >= start) {
		cpu = cpumask_next_from(m, prev + 1);
		if (cpu < ST->nr_cpus)
			return cpu;
		cpu = cpumask_next_from(m, 0);
	} else {
		cpu = cpumask_next_from(m, prev + 1);
	}
	return cpu < start ? cpu : -1;
}

/* One scan step over the LLC, from target + 1 with wrap-around. */
static int scan_one(const struct task_struct *p, int cpu, bool has_idle_core, struct cpumask *cpus,
		    int *idle_cpu, int *nr, struct select_record *r)
{
	r->nr_scanned++;
	if (has_idle_core)
		return select_idle_core(p, cpu, cpus, idle_cpu);
	if (--*nr <= 0)
		return -2;	/* scan budget spent */
	if (choose_idle_cpu(cpu, p)) {
		*idle_cpu = cpu;
		return cpu;
	}
	return -1;
}

static int select_idle_cpu(struct task_struct *p, const struct sched_domain *sd, bool has_idle_core,
			   int target, struct select_record *r)
{
	struct cpumask cpus;
	int idle_cpu = -1, nr = 1 << 30;

	if (sched_feat(SIS_UTIL)) {
		/* an LLC judged busy by the last periodic balance is not scanned */
		nr = llc_shared(target)->nr_idle_scan + 1;
		if (nr == 1)
			return -1;
	}

	/* the kernel's cpumask_and() comes first; nothing before this reads it */
	for (int w = 0; w < CPUMASK_WORDS; w++)
		cpus.bits[w] = sd->span.bits[w] & p->cpus_mask.bits[w];

	/* With clusters, target's own cluster is scanned first. */
	if (SDS()->cluster_active) {
		const struct sched_group *sg = sd_group(SDS(), sd, 0);

		if (sg->flags & SD_CLUSTER) {
			for (int cpu = next_wrap(&sg->span, target, -1); cpu >= 0;
			     cpu = next_wrap(&sg->span, target, cpu)) {
				int i;

				if (!cpumask_test(&cpus, cpu))
					continue;
				i = scan_one(p, cpu, has_idle_core, &cpus, &idle_cpu, &nr, r);
				if (i == -2)
					return -1;
				if (i >= 0)
					return i;
			}
			cpumask_clear_cpus(&cpus, &sg->span);
		}
	}

	for (int cpu = next_wrap(&cpus, target, -1); cpu >= 0; cpu = next_wrap(&cpus, target, cpu)) {
		int i = scan_one(p, cpu, has_idle_core, &cpus, &idle_cpu, &nr, r);

		if (i == -2)
			return -1;
		if (i >= 0)
			return i;
	}
	if (has_idle_core)
		llc_shared(target)->has_idle_cores = false;
	return idle_cpu;
}

/* The first idle CPU that fits p, else the idle one with the most capacity. */
static int select_idle_capacity(struct task_struct *p, const struct sched_domain *sd, int target)
{
	unsigned long best_cap = 0;
	int best_cpu = -1, n = ST->nr_cpus;

	for (int k = 0; k < n; k++) {
		int cpu = (target + k) % n;

		if (!cpumask_test(&sd->span, cpu) || !task_allowed_on_cpu(p, cpu) || !choose_idle_cpu(cpu, p))
			continue;
		if (task_fits_cpu(p, cpu))
			return cpu;
		if (capacity_of(cpu) > best_cap) {
			best_cap = capacity_of(cpu);
			best_cpu = cpu;
		}
	}
	return best_cpu;
}

static bool asym_fits_cpu(struct task_struct *p, int cpu)
{
	return !asym_cpucap_active() || task_fits_cpu(p, cpu);
}

static int select_idle_sibling(struct task_struct *p, int prev, int target, struct select_record *r)
{
	const struct sched_domain *sd;
	int i, recent_used_cpu, prev_aff = -1;
	bool has_idle_core = false;

	if (choose_idle_cpu(target, p) && asym_fits_cpu(p, target)) {
		r->path = SEL_IDLE_TARGET;
		return target;
	}
	if (prev != target && cpus_share_cache(prev, target) && choose_idle_cpu(prev, p) &&
	    asym_fits_cpu(p, prev)) {
		if (!SDS()->cluster_active || cpus_share_resources(prev, target)) {
			r->path = SEL_IDLE_PREV;
			return prev;
		}
		prev_aff = prev;
	}

	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent_used_cpu != prev && recent_used_cpu != target &&
	    cpus_share_cache(recent_used_cpu, target) && choose_idle_cpu(recent_used_cpu, p) &&
	    task_allowed_on_cpu(p, recent_used_cpu) && asym_fits_cpu(p, recent_used_cpu)) {
		if (!SDS()->cluster_active || cpus_share_resources(recent_used_cpu, target)) {
			r->path = SEL_IDLE_RECENT;
			return recent_used_cpu;
		}
	} else {
		recent_used_cpu = -1;
	}

	if (asym_cpucap_active()) {
		sd = sd_of(SDS()->percpu[target].sd_asym_cpucapacity);
		if (sd) {
			i = select_idle_capacity(p, sd, target);
			r->path = i >= 0 ? SEL_IDLE_CAPACITY : SEL_NO_IDLE;
			return i >= 0 ? i : target;
		}
	}

	sd = sd_of(SDS()->percpu[target].sd_llc);
	if (!sd) {
		r->path = SEL_NO_IDLE;
		return target;
	}
	if (smt_active()) {
		has_idle_core = llc_shared(target)->has_idle_cores;
		if (!has_idle_core && cpus_share_cache(prev, target)) {
			i = select_idle_smt(p, sd, prev);
			if (i >= 0) {
				r->path = SEL_IDLE_SMT;
				return i;
			}
		}
	}
	i = select_idle_cpu(p, sd, has_idle_core, target, r);
	if (i >= 0) {
		r->path = has_idle_core ? SEL_IDLE_CORE : SEL_IDLE_CPU;
		return i;
	}
	if (prev_aff >= 0) {
		r->path = SEL_IDLE_PREV;
		return prev_aff;
	}
	if (recent_used_cpu >= 0) {
		r->path = SEL_IDLE_RECENT;
		return recent_used_cpu;
	}
	r->path = SEL_NO_IDLE;
	return target;
}

/* ---- the slow path: find_idlest_group() / find_idlest_group_cpu() ---- */

/*
 * The CPU whose signals still hold p (task_cpu(p) once its load has been
 * attached, last_update_time set), whose figures the *_without() of the
 * kernel take p out of; -1 for a task not yet attached (a fork).
 */
static int counted_cpu(const struct task_struct *p)
{
	return p->se.avg.last_update_time ? p->cpu : -1;
}

static void update_sg_wakeup_stats(const struct sched_domain *sd, const struct sched_group *group,
				   struct sg_lb_stats *sgs, struct task_struct *p)
{
	int i, counted = counted_cpu(p);

	memset(sgs, 0, sizeof(*sgs));
	if (sd->flags & SD_ASYM_CPUCAPACITY)
		sgs->group_misfit_task_load = 1;

	for_each_cpu_and (i, &group->span, &p->cpus_mask) {
		struct rq *rq = cpu_rq(i);
		unsigned long load = cpu_load(rq), util = rq->cfs.avg.util_avg, runnable = cpu_runnable(rq);
		unsigned int local = 0, nr_running;

		/* cpu_load_without(), cpu_util_without(), cpu_runnable_without() */
		if (i == counted) {
			sub_positive_ul(&load, task_h_load(p));
			sub_positive_ul(&util, task_util(p));
			sub_positive_ul(&runnable, p->se.avg.runnable_avg);
			local = task_on_rq_queued(p);
		}
		sgs->group_load += load;
		sgs->group_util += MIN(util, (unsigned long)rq->cpu_capacity_orig);
		sgs->group_runnable += runnable;
		sgs->sum_h_nr_running += rq->cfs.h_nr_running - local;
		nr_running = rq->nr_running - local;
		sgs->sum_nr_running += nr_running;
		/* idle_cpu_without(): idle, or p alone on it */
		if (!nr_running && (rq->curr == rq->idle || rq->curr == p))
			sgs->idle_cpus++;
		if ((sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_misfit_task_load && task_fits_cpu(p, i))
			sgs->group_misfit_task_load = 0;
	}
	sgs->group_capacity = sgc_of(group)->capacity;
	sgs->group_weight = group->group_weight;
	sgs->group_type = group_classify(sd->imbalance_pct, group, sgs);
	if (sgs->group_type == group_fully_busy || sgs->group_type == group_overloaded)
		sgs->avg_load = sgs->group_load * SCHED_CAPACITY_SCALE / sgs->group_capacity;
}

static bool update_pick_idlest(const struct sched_group *idlest, const struct sg_lb_stats *idlest_sgs,
			       const struct sched_group *group, const struct sg_lb_stats *sgs)
{
	if (sgs->group_type != idlest_sgs->group_type)
		return sgs->group_type < idlest_sgs->group_type;

	switch (sgs->group_type) {
	case group_overloaded:
	case group_fully_busy:
		return idlest_sgs->avg_load > sgs->avg_load;
	case group_imbalanced:
	case group_asym_packing:
	case group_smt_balance:
		return false;
	case group_misfit_task:
		return sgc_of(idlest)->max_capacity < sgc_of(group)->max_capacity;
	case group_has_spare:
	default:
		if (idlest_sgs->idle_cpus > sgs->idle_cpus)
			return false;
		if (idlest_sgs->idle_cpus == sgs->idle_cpus && idlest_sgs->group_util <= sgs->group_util)
			return false;
		return true;
	}
}

static bool mask_allowed(const struct cpumask *m, struct task_struct *p)
{
	if (p->nr_cpus_allowed == ST->nr_cpus)
		return true;
	for (int w = 0; w < CPUMASK_WORDS; w++)
		if (m->bits[w] & p->cpus_mask.bits[w])
			return true;
	return false;
}

static const struct sched_group *find_idlest_group(const struct sched_domain *sd, struct task_struct *p,
						   int this_cpu)
{
	const struct sched_group *idlest = NULL, *local = NULL;
	struct sg_lb_stats local_sgs, tmp_sgs, idlest_sgs = {
		.avg_load = ~0U,
		.group_type = group_overloaded,
	};
	unsigned long imbalance;

	for (int k = 0; k < sd->nr_groups; k++) {
		const struct sched_group *group = sd_group(SDS(), sd, k);
		bool local_group;
		struct sg_lb_stats *sgs;

		if (!mask_allowed(&group->span, p))
			continue;
		local_group = cpumask_test(&group->span, this_cpu);
		if (local_group) {
			sgs = &local_sgs;
			local = group;
		} else {
			sgs = &tmp_sgs;
		}
		update_sg_wakeup_stats(sd, group, sgs, p);
		if (!local_group && update_pick_idlest(idlest, &idlest_sgs, group, sgs)) {
			idlest = group;
			idlest_sgs = *sgs;
		}
	}

	if (!idlest)
		return NULL;
	if (!local)
		return idlest;
	if (local_sgs.group_type < idlest_sgs.group_type)
		return NULL;
	if (local_sgs.group_type > idlest_sgs.group_type)
		return idlest;

	switch (local_sgs.group_type) {
	case group_overloaded:
	case group_fully_busy:
		/* move only for a clear gain: imbalance_pct of a nice-0 task's load */
		imbalance = scale_load_down(NICE_0_LOAD) * (sd->imbalance_pct - 100) / 100;
		if ((sd->flags & SD_NUMA) && idlest_sgs.avg_load + imbalance >= local_sgs.avg_load)
			return NULL;
		if (idlest_sgs.avg_load >= local_sgs.avg_load + imbalance)
			return NULL;
		if (100 * local_sgs.avg_load <= sd->imbalance_pct * idlest_sgs.avg_load)
			return NULL;
		break;
	case group_imbalanced:
	case group_asym_packing:
	case group_smt_balance:
		return NULL;
	case group_misfit_task:
		if (sgc_of(local)->max_capacity >= sgc_of(idlest)->max_capacity)
			return NULL;
		break;
	case group_has_spare:
		if (sd->flags & SD_NUMA) {
			int imb_numa_nr = (int)sd->imb_numa_nr, cpu, allowed = 0;

			if (p->nr_cpus_allowed < ST->nr_cpus) {
				for_each_cpu(cpu, &local->span)
					allowed += task_allowed_on_cpu(p, cpu);
				imb_numa_nr = MIN(allowed, imb_numa_nr);
			}
			imbalance = local_sgs.idle_cpus > idlest_sgs.idle_cpus ?
				    local_sgs.idle_cpus - idlest_sgs.idle_cpus :
				    idlest_sgs.idle_cpus - local_sgs.idle_cpus;
			/* a small imbalance keeps communicating tasks on one node */
			if (!adjust_numa_imbalance((int)imbalance, (int)local_sgs.sum_nr_running + 1, imb_numa_nr))
				return NULL;
		}
		if (local_sgs.idle_cpus >= idlest_sgs.idle_cpus)
			return NULL;
		break;
	}
	return idlest;
}

static int find_idlest_group_cpu(const struct sched_group *group, struct task_struct *p, int this_cpu)
{
	unsigned long load, min_load = ~0UL;
	u64 latest_idle_timestamp = 0;
	int least_loaded_cpu = this_cpu, shallowest_idle_cpu = -1, i;

	if (group->group_weight == 1)
		return cpumask_first(&group->span);

	for_each_cpu(i, &group->span) {
		if (!task_allowed_on_cpu(p, i))
			continue;
		if (choose_sched_idle_rq(i, p))
			return i;
		if (available_idle_cpu(i)) {
			/* no idle states: the most recently idled CPU has the warmest cache */
			if (shallowest_idle_cpu == -1 || cpu_rq(i)->idle_stamp > latest_idle_timestamp) {
				latest_idle_timestamp = cpu_rq(i)->idle_stamp;
				shallowest_idle_cpu = i;
			}
		} else if (shallowest_idle_cpu == -1) {
			load = cpu_load(cpu_rq(i));
			if (load < min_load) {
				min_load = load;
				least_loaded_cpu = i;
			}
		}
	}
	return shallowest_idle_cpu != -1 ? shallowest_idle_cpu : least_loaded_cpu;
}

static int find_idlest_cpu(const struct sched_domain *sd, struct task_struct *p, int cpu, int prev_cpu,
			   u32 sd_flag)
{
	int new_cpu = cpu;

	if (!mask_allowed(&sd->span, p))
		return prev_cpu;

	while (sd) {
		const struct sched_group *group;

		if (!(sd->flags & sd_flag)) {
			sd = child_sd(sd);
			continue;
		}
		group = find_idlest_group(sd, p, cpu);
		if (!group) {
			sd = child_sd(sd);
			continue;
		}
		new_cpu = find_idlest_group_cpu(group, p, cpu);
		if (new_cpu == cpu) {
			sd = child_sd(sd);
			continue;
		}
		/* go on below the current level, now from new_cpu's domains */
		cpu = new_cpu;
		sd = flagged_sd_below(cpu, sd->span_weight, sd_flag);
	}
	return new_cpu;
}

/* ---- select_task_rq_fair ---- */

static int select_task_rq_fair(struct task_struct *p, int prev_cpu, int wake_flags, int cpu,
			       struct select_record *r)
{
	struct task_struct *curr = current_on(cpu);
	const struct sched_domain *tmp, *sd = NULL;
	u32 sd_flag = (wake_flags & WF_FORK) ? SD_BALANCE_FORK : SD_BALANCE_WAKE;
	int new_cpu = prev_cpu;
	bool want_affine = false;
	int sync = !!(wake_flags & WF_SYNC);	/* `wake_sync`: the waker is about to sleep */

	if (wake_flags & WF_TTWU) {
		record_wakee(curr, p);
		want_affine = !wake_wide(curr, p, cpu) && task_allowed_on_cpu(p, cpu);
	}

	for_each_domain(cpu, tmp) {
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) && cpumask_test(&tmp->span, prev_cpu)) {
			if (cpu != prev_cpu)
				new_cpu = wake_affine(tmp, curr, p, cpu, prev_cpu, sync, r);
			r->depth = tmp->depth;
			sd = NULL;	/* wake_affine wins over the balance flags */
			break;
		}
		if (tmp->flags & sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}
	r->target = new_cpu;

	if (sd) {
		r->depth = sd->depth;
		r->path = SEL_IDLEST;
		new_cpu = find_idlest_cpu(sd, p, cpu, prev_cpu, sd_flag);
	} else if (wake_flags & WF_TTWU) {
		new_cpu = select_idle_sibling(p, prev_cpu, new_cpu, r);
	}
	return new_cpu;
}

/* select_fallback_rq(): the first allowed CPU. */
static int select_fallback_rq(struct task_struct *p)
{
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		if (task_allowed_on_cpu(p, cpu))
			return cpu;
	return p->cpu;
}

/*
 * select_task_rq() of core.c: this_cpu is where the waker (or the forking
 * parent) runs. The decision becomes one event on this_cpu.
 */
int select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags, int this_cpu)
{
	struct select_record r = { .target = prev_cpu, .affine = WA_NONE, .path = SEL_PINNED };
	struct sched_event ev;
	int cpu;

	/* the class's select_task_rq(); a deadline task is placed as the fair task it forked as */
	if (p->sched_class == &ext_sched_class) {
		cpu = select_task_rq_scx(p, prev_cpu, wake_flags, this_cpu);
		r.path = p->nr_cpus_allowed > 1 ? SEL_EXT : SEL_PINNED;
	} else if (p->nr_cpus_allowed > 1 && p->sched_class == &rt_sched_class) {
		cpu = select_task_rq_rt(p, prev_cpu);
		r.path = SEL_RT;
	} else if (p->nr_cpus_allowed > 1 && dl_task(p) && (wake_flags & WF_TTWU)) {
		cpu = prev_cpu;
		r.path = SEL_DL_PREV;
	} else if (p->nr_cpus_allowed > 1 && legacy_balance()) {
		cpu = select_task_rq_fair_legacy(p, prev_cpu, wake_flags, this_cpu, &r);
	} else if (p->nr_cpus_allowed > 1) {
		cpu = select_task_rq_fair(p, prev_cpu, wake_flags, this_cpu, &r);
	} else {
		cpu = select_fallback_rq(p);
	}
	if (!task_allowed_on_cpu(p, cpu)) {
		cpu = select_fallback_rq(p);
		r.path = SEL_FALLBACK;
	}

	sched_event_init(&ev, EV_SELECT_RQ, this_cpu);
	ev.select.pid = p->pid;
	ev.select.prev_cpu = (s16)prev_cpu;
	ev.select.target = (s16)r.target;
	ev.select.new_cpu = (s16)cpu;
	ev.select.nr_scanned = (s16)MIN(r.nr_scanned, 32767);
	ev.select.wake_flags = (u8)wake_flags;
	ev.select.affine = (u8)r.affine;
	ev.select.path = (u8)r.path;
	ev.select.depth = (u8)r.depth;
	ev.select.this_eff_load = r.this_eff_load;
	ev.select.prev_eff_load = r.prev_eff_load;
	sched_emit(&ev);
	return cpu;
}
