// SPDX-License-Identifier: GPL-2.0
/*
 * The group weights of 2.6.29-2.6.35 (feature TG_SHARES_UP_WALK): instead of
 * calc_group_shares() at every enqueue, dequeue and tick, load balancing
 * walked every task group bottom up (tg_shares_up() through walk_tg_tree())
 * and split each group's shares across the CPUs of the domain in proportion
 * to the instantaneous weight queued there:
 *
 *   shares_i = tg->shares * rq_weight_i / Σ_j rq_weight_j
 *
 * an empty CPU counting as one nice-0 task. That is O(groups x CPUs) per
 * walk, on every CPU: the cost LinSched's authors complained about. The
 * engine walks the whole machine (the top domain, which gets all of
 * tg->shares) from each CPU's tick, at most once per shares_ratelimit.
 */
#include "internal.h"

static void update_group_shares_cpu(struct task_group *tg, int cpu, unsigned long sd_shares,
				    unsigned long sd_rq_weight)
{
	struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];
	struct sched_entity *se = tg->se[cpu];
	unsigned long rq_weight = cfs_rq->load.weight, shares;
	bool boost = !rq_weight;
	long diff;

	if (boost)
		rq_weight = NICE_0_LOAD;
	shares = (unsigned long)((u64)sd_shares * rq_weight / sd_rq_weight);
	shares = CLAMP(shares, scale_load(MIN_SHARES), scale_load(MAX_SHARES));
	diff = (long)shares - (long)se->load.weight;
	/* shares_thresh: small changes are not worth the remote rq locks */
	if ((diff < 0 ? -diff : diff) > (long)scale_load(sysctl(TUN_SHARES_THRESH))) {
		cfs_rq->shares = boost ? 0 : shares;
		reweight_entity(cfs_rq_of(se), se, shares);
	}
}

static void tg_shares_up(struct task_group *tg)
{
	unsigned long rq_weight = 0;

	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		unsigned long w = tg->cfs_rq[cpu]->load.weight;

		/* an empty CPU counts as one average task, so a newcomer there is not starved */
		rq_weight += w ? w : NICE_0_LOAD;
	}
	ST->nr_shares_walk_visits += (u64)ST->nr_cpus;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		update_group_shares_cpu(tg, cpu, tg->shares, rq_weight);
}

void tg_shares_up_walk(struct rq *rq)
{
	if (ST->now - rq->shares_walk_last < sysctl(TUN_SHARES_RATELIMIT) && rq->shares_walk_last)
		return;
	rq->shares_walk_last = ST->now;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		update_rq_clock(cpu_rq(cpu));
	/* children before parents: a parent's queue weight depends on its children's shares */
	for (int g = ST->nr_groups - 1; g > 0; g--)
		tg_shares_up(&ST->tg[g]);
}
