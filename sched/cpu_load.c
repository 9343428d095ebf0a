// SPDX-License-Identifier: GPL-2.0
/*
 * rq->cpu_load[] of the releases before 3.8 (kernel/sched/core.c, 3.3): the
 * runqueue weight, sampled each tick into five averages of growing length
 * (index i keeps 1/2^i of the new sample), which the balancer of those
 * releases reads as source_load() and target_load(). A CPU in tickless idle
 * misses samples; the next update decays its averages for them in one step
 * (decay_load_missed()).
 */
#include "balance.h"

#define DEGRADE_SHIFT 7

/* Ticks after which index i has decayed to nothing, and (1 - 1/2^i)^(2^j) in 128ths. */
static const u8 degrade_zero_ticks[CPU_LOAD_IDX_MAX] = { 0, 8, 32, 64, 128 };
/* a row an index, as in the kernel */
/* clang-format off */
static const u8 degrade_factor[CPU_LOAD_IDX_MAX][DEGRADE_SHIFT + 1] = {
	{ 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 64, 32, 8, 0, 0, 0, 0, 0 },
	{ 96, 72, 40, 12, 1, 0, 0, 0 },
	{ 112, 98, 75, 43, 15, 1, 0, 0 },
	{ 120, 112, 98, 76, 45, 16, 2, 0 },
};
/* clang-format on */

unsigned long decay_load_missed(unsigned long load, unsigned long missed_updates, int idx)
{
	int j = 0;

	if (!missed_updates)
		return load;
	if (missed_updates >= degrade_zero_ticks[idx])
		return 0;
	if (idx == 1)
		return load >> missed_updates;
	/* one factor per set bit of missed_updates */
	while (missed_updates) {
		if (missed_updates % 2)
			load = (load * degrade_factor[idx][j]) >> DEGRADE_SHIFT;
		missed_updates >>= 1;
		j++;
	}
	return load;
}

/* The new sample this_load after pending_updates ticks (all but one missed). */
void __update_cpu_load(unsigned long *cpu_load, unsigned long this_load, unsigned long pending_updates)
{
	unsigned long scale = 2;

	cpu_load[0] = this_load;
	for (int i = 1; i < CPU_LOAD_IDX_MAX; i++, scale += scale) {
		unsigned long old_load = decay_load_missed(cpu_load[i], pending_updates - 1, i);
		unsigned long new_load = this_load;

		/* round up a rising load, or 10 would settle at 9 */
		if (new_load > old_load)
			new_load += scale - 1;
		cpu_load[i] = (old_load * (scale - 1) + new_load) >> i;
	}
}

/* update_cpu_load(): from the tick, and for the idle load balancer; once per jiffy. */
void update_cpu_load(struct rq *rq)
{
	u64 now = jiffies();

	if (now == rq->last_load_update_tick)
		return;
	__update_cpu_load(rq->cpu_load, weighted_cpuload(rq->cpu),
			  (unsigned long)(now - rq->last_load_update_tick));
	rq->last_load_update_tick = now;
}

/* A low guess at a migration source's load: the lesser of now and the average. */
unsigned long source_load(int cpu, int type)
{
	unsigned long total = weighted_cpuload(cpu);

	if (type == 0)
		return total;
	return MIN(cpu_rq(cpu)->cpu_load[type - 1], total);
}

/* A high guess at a migration target's load. */
unsigned long target_load(int cpu, int type)
{
	unsigned long total = weighted_cpuload(cpu);

	if (type == 0)
		return total;
	return MAX(cpu_rq(cpu)->cpu_load[type - 1], total);
}

unsigned long cpu_avg_load_per_task(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return rq->nr_running ? weighted_cpuload(cpu) / rq->nr_running : 0;
}

/*
 * power_orig_of(): SCHED_POWER_SCALE, or smt_gain shared by the threads of
 * an SMT domain (update_cpu_power()). power_of(): rq->cpu_power, that times
 * what RT, deadline and interrupt time left when update_cpu_power() last
 * ran (capacity.c).
 */
unsigned long power_orig_of(int cpu)
{
	const struct sched_domain *sd = lowest_sd(cpu);

	if (sd && (sd->flags & SD_SHARE_CPUCAPACITY) && sd->span_weight > 1)
		return SCHED_POWER_SCALE * (sd->smt_gain / sd->span_weight) >> SCHED_CAPACITY_SHIFT;
	return SCHED_POWER_SCALE;
}

unsigned long power_of(int cpu)
{
	return cpu_rq(cpu)->cpu_capacity;
}
