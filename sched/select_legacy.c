// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup and fork placement of the releases before 3.8, as Linux 3.3's
 * select_task_rq_fair() does it (sched_domains_legacy()):
 *
 *   wakeups   the lowest SD_WAKE_AFFINE domain spanning the waker's CPU and
 *             the wakee's previous one; wake_affine() pulls the wakee to the
 *             waker's CPU when their loads (wake_idx) are within half of
 *             imbalance_pct, or when the waker's CPU is the lighter by a
 *             task; then select_idle_sibling() keeps an idle target, or takes
 *             the first wholly idle group of the target's LLC domain and
 *             below.
 *   forks     find_idlest_group() and find_idlest_cpu() down from the highest
 *             SD_BALANCE_FORK domain, by forkexec_idx loads: the local group
 *             wins unless another is lighter by half of imbalance_pct.
 */
#include "balance.h"

/*
 * effective_load(): how the root's load moves when wl joins tg's queue on
 * cpu and the group's total weight changes by wg. A group's total weight is
 * the sum of its queues' weights now (3.3 averaged it over
 * sysctl_sched_shares_window).
 */
static long effective_load(const struct task_group *tg, int cpu, long wl, long wg)
{
	const struct sched_entity *se;

	if (!tg->parent)
		return wl;
	for (se = tg->se[cpu]; se; se = se->parent) {
		const struct task_group *g = se->my_q->tg;
		long w, W = wg, shares = (long)scale_load_down(g->shares);

		for (int i = 0; i < ST->nr_cpus; i++)
			W += (long)scale_load_down(g->cfs_rq[i]->load.weight);
		w = (long)scale_load_down(se->my_q->load.weight) + wl;
		wl = W > 0 && w < W ? w * shares / W : shares;
		if (wl < 2) /* MIN_SHARES */
			wl = 2;
		wl -= (long)scale_load_down(se->load.weight);
		wg = 0;
	}
	return wl;
}

static int wake_affine(const struct sched_domain *sd, struct task_struct *p, int this_cpu, int prev_cpu,
		       int sync, struct select_record *r)
{
	int idx = (int)sd->wake_idx;
	s64 load = (s64)source_load(prev_cpu, idx), this_load = (s64)target_load(this_cpu, idx);
	long weight;
	bool balanced;

	/* a sync waker is about to sleep: take its weight off its CPU */
	if (sync && !is_idle_task(cpu_rq(this_cpu)->curr)) {
		struct task_struct *curr = cpu_rq(this_cpu)->curr;

		weight = (long)scale_load_down(curr->se.load.weight);
		this_load += effective_load(curr->sched_task_group, this_cpu, -weight, -weight);
		load += effective_load(curr->sched_task_group, prev_cpu, 0, -weight);
	}
	weight = (long)scale_load_down(p->se.load.weight);
	if (this_load > 0) {
		s64 this_eff_load = 100, prev_eff_load = 100 + (sd->imbalance_pct - 100) / 2;

		this_eff_load *= (s64)power_of(prev_cpu);
		this_eff_load *= this_load + effective_load(p->sched_task_group, this_cpu, weight, weight);
		prev_eff_load *= (s64)power_of(this_cpu);
		prev_eff_load *= load + effective_load(p->sched_task_group, prev_cpu, 0, weight);
		r->this_eff_load = this_eff_load;
		r->prev_eff_load = prev_eff_load;
		balanced = this_eff_load <= prev_eff_load;
	} else {
		balanced = true;
	}
	if (sync && balanced) {
		r->affine = WA_SYNC_THIS;
		return 1;
	}
	if (balanced || (this_load <= load && this_load + (s64)target_load(prev_cpu, idx) <=
						      (s64)cpu_avg_load_per_task(this_cpu))) {
		r->affine = WA_WEIGHT_THIS;
		return 1;
	}
	r->affine = WA_WEIGHT_PREV;
	return 0;
}

/* The target if idle, else the first group of idle CPUs in its LLC domain or below. */
static int select_idle_sibling(struct task_struct *p, int this_cpu, int prev_cpu, int target,
			       struct select_record *r)
{
	const struct sched_domain *sd;
	int i;

	r->target = target;
	if (target == this_cpu && idle_cpu(this_cpu)) {
		r->path = SEL_IDLE_TARGET;
		return this_cpu;
	}
	if (target == prev_cpu && idle_cpu(prev_cpu)) {
		r->path = SEL_IDLE_PREV;
		return prev_cpu;
	}
	r->path = SEL_NO_IDLE;
	for (sd = sd_of(SDS()->percpu[target].sd_llc); sd; sd = child_sd(sd)) {
		for (int k = 0; k < sd->nr_groups; k++) {
			const struct sched_group *sg = sd_group(SDS(), sd, k);
			bool allowed = false, all_idle = true;

			for_each_cpu (i, &sg->span) {
				allowed |= task_allowed_on_cpu(p, i);
				all_idle &= idle_cpu(i);
			}
			r->nr_scanned += (int)sg->group_weight;
			if (!allowed || !all_idle)
				continue;
			for_each_cpu (i, &sg->span)
				if (task_allowed_on_cpu(p, i)) {
					r->path = sg->group_weight > 1 ? SEL_IDLE_CORE : SEL_IDLE_CPU;
					return i;
				}
		}
	}
	return target;
}

/* The least loaded group by load_idx, unless the local one is within imbalance_pct / 2. */
static const struct sched_group *find_idlest_group(const struct sched_domain *sd, struct task_struct *p,
						   int this_cpu, int load_idx)
{
	const struct sched_group *idlest = NULL;
	unsigned long min_load = ~0UL, this_load = 0;
	unsigned int imbalance = 100 + (sd->imbalance_pct - 100) / 2;
	int i;

	for (int k = 0; k < sd->nr_groups; k++) {
		const struct sched_group *group = sd_group(SDS(), sd, k);
		bool local_group = cpumask_test(&group->span, this_cpu), allowed = false;
		unsigned long avg_load = 0;

		for_each_cpu (i, &group->span)
			allowed |= task_allowed_on_cpu(p, i);
		if (!allowed)
			continue;
		/* bias balancing toward the CPUs of our domain */
		for_each_cpu (i, &group->span)
			avg_load += local_group ? source_load(i, load_idx) : target_load(i, load_idx);
		avg_load = avg_load * SCHED_POWER_SCALE / sgc_of(group)->capacity;
		if (local_group) {
			this_load = avg_load;
		} else if (avg_load < min_load) {
			min_load = avg_load;
			idlest = group;
		}
	}
	if (!idlest || 100 * this_load < imbalance * min_load)
		return NULL;
	return idlest;
}

static int find_idlest_cpu(const struct sched_group *group, struct task_struct *p, int this_cpu)
{
	unsigned long load, min_load = ~0UL;
	int idlest = -1, i;

	for_each_cpu (i, &group->span) {
		if (!task_allowed_on_cpu(p, i))
			continue;
		load = weighted_cpuload(i);
		if (load < min_load || (load == min_load && i == this_cpu)) {
			min_load = load;
			idlest = i;
		}
	}
	return idlest;
}

int select_task_rq_fair_legacy(struct task_struct *p, int prev_cpu, int wake_flags, int cpu,
			       struct select_record *r)
{
	u32 sd_flag = (wake_flags & WF_FORK) ? SD_BALANCE_FORK : SD_BALANCE_WAKE;
	const struct sched_domain *tmp, *affine_sd = NULL, *sd = NULL;
	int new_cpu = cpu, sync = !!(wake_flags & WF_SYNC);
	bool want_affine = false;

	if (sd_flag == SD_BALANCE_WAKE) {
		want_affine = task_allowed_on_cpu(p, cpu);
		new_cpu = prev_cpu;
	}
	for_each_domain (cpu, tmp) {
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) && cpumask_test(&tmp->span, prev_cpu)) {
			affine_sd = tmp;
			want_affine = false;
		}
		if (tmp->flags & sd_flag)
			sd = tmp;
	}
	if (affine_sd) {
		r->depth = affine_sd->depth;
		if (cpu == prev_cpu || wake_affine(affine_sd, p, cpu, prev_cpu, sync, r))
			prev_cpu = cpu;
		return select_idle_sibling(p, cpu, p->cpu, prev_cpu, r);
	}
	if (sd) {
		r->depth = sd->depth;
		r->path = SEL_IDLEST;
	}
	while (sd) {
		int load_idx = (int)(sd_flag == SD_BALANCE_WAKE ? sd->wake_idx : sd->forkexec_idx);
		const struct sched_group *group;

		if (!(sd->flags & sd_flag)) {
			sd = child_sd(sd);
			continue;
		}
		group = find_idlest_group(sd, p, cpu, load_idx);
		if (!group) {
			sd = child_sd(sd);
			continue;
		}
		new_cpu = find_idlest_cpu(group, p, cpu);
		if (new_cpu == -1 || new_cpu == cpu) {
			sd = child_sd(sd);
			continue;
		}
		/* go on below that level, from new_cpu's domains */
		cpu = new_cpu;
		sd = flagged_sd_below(cpu, sd->span_weight, sd_flag);
	}
	return new_cpu;
}
