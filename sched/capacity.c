// SPDX-License-Identifier: GPL-2.0
/*
 * The capacity the balancer holds (kernel/sched/fair.c, 6.12; 3.3's
 * update_cpu_power() and update_group_power()): rq->cpu_capacity and each
 * group's sched_group_capacity are measured when update_group_capacity()
 * runs for the local group of a balance pass (always, except a newidle
 * pass that comes before sgc->next_update), and read as they were left
 * until then. RT, deadline and interrupt time show in them only so.
 */
#include <limits.h>

#include "balance.h"

/*
 * scale_rt_capacity(): what the RT and deadline classes (avg_rt, avg_dl) and
 * interrupt and steal time (avg_irq, NONTASK_CAPACITY) leave of the CPU for
 * fair tasks. 3.3's scale_rt_power() read rq->rt_avg; here the same averages.
 */
unsigned long scale_rt_capacity(int cpu)
{
	const struct rq *rq = cpu_rq(cpu);
	unsigned long max = rq->cpu_capacity_orig, irq = rq->avg_irq.util_avg;
	unsigned long used = rq->avg_rt.util_avg + rq->avg_dl.util_avg;

	if (irq >= max || used >= max)
		return 1;
	return (max - used) * (max - irq) / max;
}

/* update_cpu_capacity() [3.3: update_cpu_power(), from SMT's share of the core] */
static void update_cpu_capacity(const struct sched_domain *sd, int cpu)
{
	unsigned long capacity = scale_rt_capacity(cpu);
	struct sched_group_capacity *sgc = sgc_of(sd_group(SDS(), sd, 0));

	if (legacy_balance())
		capacity = power_orig_of(cpu) * capacity / cpu_rq(cpu)->cpu_capacity_orig;
	/* never 0: it divides */
	if (!capacity)
		capacity = 1;
	cpu_rq(cpu)->cpu_capacity = capacity;
	sgc->capacity = sgc->min_capacity = sgc->max_capacity = capacity;
}

void update_group_capacity(const struct sched_domain *sd, int cpu)
{
	const struct sched_domain *child = child_sd(sd);
	struct sched_group_capacity *sgc = sgc_of(sd_group(SDS(), sd, 0));
	u64 interval = msecs_to_jiffies(sd_lb(sd)->balance_interval);
	u64 max = sched_max_load_balance_interval(E->sc->hz, ST->nr_cpus);
	unsigned long capacity = 0, min_capacity = ULONG_MAX, max_capacity = 0;

	sgc->next_update = jiffies() + MAX(MIN(interval, max), 1);
	if (!child) {
		update_cpu_capacity(sd, cpu);
		return;
	}
	if ((child->flags & SD_OVERLAP) && !legacy_balance()) {
		/* a NUMA child's groups need not span this group (3.3 summed them anyway) */
		int i;

		for_each_cpu (i, &sd_group(SDS(), sd, 0)->span) {
			capacity += capacity_of(i);
			min_capacity = MIN(capacity_of(i), min_capacity);
			max_capacity = MAX(capacity_of(i), max_capacity);
		}
	} else {
		for (int k = 0; k < child->nr_groups; k++) {
			const struct sched_group_capacity *c = sgc_of(sd_group(SDS(), child, k));

			capacity += c->capacity;
			min_capacity = MIN(c->min_capacity, min_capacity);
			max_capacity = MAX(c->max_capacity, max_capacity);
		}
	}
	sgc->capacity = capacity;
	sgc->min_capacity = min_capacity;
	sgc->max_capacity = max_capacity;
}

/*
 * update_sd_lb_stats() [3.3: update_sg_lb_stats()]: the local group's
 * capacity is measured again at every pass, a newidle pass's only when due.
 */
void update_local_group_capacity(const struct lb_env *env, const struct sched_group *local)
{
	if (env->idle != CPU_NEWLY_IDLE || jiffies() >= sgc_of(local)->next_update)
		update_group_capacity(env->sd, env->dst_cpu);
}

/*
 * sched_init() starts every CPU at SCHED_CAPACITY_SCALE; build_sched_domains()
 * then runs init_sched_groups_capacity() from the last CPU down, each CPU's
 * domains bottom-up, where the CPU is its group's balance CPU.
 */
void init_sched_groups_capacity(void)
{
	const struct sched_domain *sd;

	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		cpu_rq(cpu)->cpu_capacity = SCHED_CAPACITY_SCALE;
	for (int cpu = ST->nr_cpus - 1; cpu >= 0; cpu--)
		for_each_domain (cpu, sd) {
			const struct sched_group *sg = sd_group(SDS(), sd, 0);

			if (sg->sgc_id != cpu)
				continue;
			update_group_capacity(sd, cpu);
			/* 3.3's init_sched_groups_power(): every CPU of the group counts as busy at first */
			sgc_of(sg)->nr_busy_cpus = (int)sg->group_weight;
		}
}
