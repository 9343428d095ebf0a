/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scheduling domains and groups (kernel/sched/topology.c's counterpart),
 * built from a struct sched_topology the way build_sched_domains() builds
 * them in Linux 6.12: the default topology levels SMT, CLS, MC and PKG, then
 * NODE and one NUMA level per further distinct node distance
 * (sched_init_numa()), sd_init()'s parameters and flags, build_sched_groups()
 * and build_overlap_sched_groups(), imb_numa_nr, group capacities, and the
 * removal of degenerate levels in cpu_attach_domain().
 *
 * The result is immutable once built and lives outside the engine's arena
 * (like the scenario it comes from). It holds no pointers into itself:
 * domains and groups refer to each other by index, so the load balancer's
 * mutable per-domain state (balance_interval, last_balance,
 * nr_balance_failed...) can live in the arena as arrays indexed by
 * sched_domain.id and sched_group.id.
 */
#ifndef SCHED_TOPOLOGY_H
#define SCHED_TOPOLOGY_H

#include "features.h"
#include "scenario.h"
#include "types.h"

/* include/linux/sched/sd_flags.h, in its order (so bit values match the kernel's) */
enum {
	__SD_BALANCE_NEWIDLE,
	__SD_BALANCE_EXEC,
	__SD_BALANCE_FORK,
	__SD_BALANCE_WAKE,
	__SD_WAKE_AFFINE,
	__SD_ASYM_CPUCAPACITY,
	__SD_ASYM_CPUCAPACITY_FULL,
	__SD_SHARE_CPUCAPACITY,
	__SD_CLUSTER,
	__SD_SHARE_LLC,
	__SD_SERIALIZE,
	__SD_ASYM_PACKING,
	__SD_PREFER_SIBLING,
	__SD_OVERLAP,
	__SD_NUMA,
	__SD_FLAG_CNT,
};

#define SD_BALANCE_NEWIDLE	 (1u << __SD_BALANCE_NEWIDLE)
#define SD_BALANCE_EXEC		 (1u << __SD_BALANCE_EXEC)
#define SD_BALANCE_FORK		 (1u << __SD_BALANCE_FORK)
#define SD_BALANCE_WAKE		 (1u << __SD_BALANCE_WAKE)
#define SD_WAKE_AFFINE		 (1u << __SD_WAKE_AFFINE)
#define SD_ASYM_CPUCAPACITY	 (1u << __SD_ASYM_CPUCAPACITY)
#define SD_ASYM_CPUCAPACITY_FULL (1u << __SD_ASYM_CPUCAPACITY_FULL)
#define SD_SHARE_CPUCAPACITY	 (1u << __SD_SHARE_CPUCAPACITY)
#define SD_CLUSTER		 (1u << __SD_CLUSTER)
#define SD_SHARE_LLC		 (1u << __SD_SHARE_LLC)
#define SD_SERIALIZE		 (1u << __SD_SERIALIZE)
#define SD_ASYM_PACKING		 (1u << __SD_ASYM_PACKING)
#define SD_PREFER_SIBLING	 (1u << __SD_PREFER_SIBLING)
#define SD_OVERLAP		 (1u << __SD_OVERLAP)
#define SD_NUMA			 (1u << __SD_NUMA)

/* "SD_BALANCE_NEWIDLE"... indexed by bit number */
extern const char *const sd_flag_name[__SD_FLAG_CNT];

/* The kernel's RECLAIM_DISTANCE default (node_reclaim_distance). */
#define NODE_RECLAIM_DISTANCE 30

enum numa_topology_type { NUMA_DIRECT, NUMA_GLUELESS_MESH, NUMA_BACKPLANE };
extern const char *const numa_topology_type_name[3];

/*
 * A sched_group with its sched_group_capacity's figures at build time
 * (arch_scale_cpu_capacity()); the engine keeps the running ones, which
 * update_group_capacity() refreshes, in its sched_group_capacity number
 * sgc. Groups of non-NUMA domains are shared by every CPU of the domain,
 * as the kernel shares them.
 */
struct sched_group {
	int id;				/* index in sched_domains.sg */
	struct cpumask span;		/* sched_group_span() */
	struct cpumask balance_mask;	/* group_balance_mask() */
	unsigned int group_weight;	/* CPUs in span */
	unsigned int cores;		/* SMT cores in span */
	u32 flags;			/* the child domain's flags (0 at the bottom) */
	int sgc_id;			/* sgc->id: the first CPU of balance_mask */
	int sgc;			/* its sched_group_capacity, shared by the groups
					 * of a level with the same sgc_id */
	unsigned long capacity;		/* sum of arch_scale_cpu_capacity() over span */
	unsigned long min_capacity, max_capacity;
};

struct sched_domain {
	int id;				/* index in sched_domains.sd */
	int cpu;			/* the CPU whose tree this is */
	int parent, child;		/* ids, -1 for none (after degenerate levels went) */
	char name[8];			/* SMT, CLS, MC, PKG, NODE, NUMA */
	int level_name;			/* enum sd_level_name of name, for the events */
	int level;			/* sd->level: topology level index as built, before
					 * degenerate levels were removed */
	int depth;			/* position in this CPU's tree: "domain-<depth>" */
	int numa_level;			/* tl->numa_level; -1 below NODE */
	u32 flags;
	struct cpumask span;
	unsigned int span_weight;
	unsigned int min_interval;	/* ms */
	unsigned int max_interval;	/* ms */
	unsigned int balance_interval;	/* ms, initial value (= min_interval) */
	unsigned int busy_factor;
	unsigned int imbalance_pct;
	unsigned int cache_nice_tries;
	unsigned int imb_numa_nr;
	/* Before 3.8 (see sched_domains_legacy()): which rq->cpu_load[] each kind
	 * of balance reads, and SD_SIBLING_INIT's smt_gain. */
	unsigned int busy_idx, idle_idx, newidle_idx, wake_idx, forkexec_idx;
	unsigned int smt_gain;
	/*
	 * The circular group list: sg[group_first .. group_first + nr_groups)
	 * in the kernel's order, and sd->groups (this CPU's own group) at
	 * offset group_local; see sd_group().
	 */
	int group_first, nr_groups, group_local;
};

/* update_top_cache_domain()'s per-CPU shortcuts; domains are ids, -1 for none. */
struct sd_percpu {
	int sd;				/* rq->sd: the lowest domain */
	int sd_llc;
	int sd_llc_size;
	int sd_llc_id;
	int sd_share_id;
	int sd_numa;
	int sd_asym_packing;
	int sd_asym_cpucapacity;
};

struct sched_domains {
	int nr_cpus;
	int nr_domains;
	struct sched_domain *sd;	/* [nr_domains], grouped by CPU, bottom-up */
	int nr_groups;
	struct sched_group *sg;		/* [nr_groups] */
	int nr_sgc;			/* sched_group_capacity structures */
	struct sd_percpu *percpu;	/* [nr_cpus] */
	/* sched_init_numa() */
	int numa_levels;		/* distinct distances, incl. the local one */
	int numa_distance[256];		/* sched_domains_numa_distance[], ascending */
	int max_numa_distance;
	int numa_topology_type;		/* enum numa_topology_type */
	int level_max;			/* sched_domain_level_max */
	bool asym_cpucapacity;		/* static key sched_asym_cpucapacity */
	bool cluster_active;		/* static key sched_cluster_active */
	bool legacy;			/* built as before 3.8: see sched_domains_legacy() */
};

/*
 * Build the domains of every CPU of t as release kv (KV(3, 3)) does. Returns
 * NULL with a message in err when t cannot be built (out of memory, or
 * spans that overlap partially at a non-NUMA level, as
 * topology_span_sane() refuses).
 */
struct sched_domains *sched_domains_build(const struct sched_topology *t, int kv, char *err, size_t errlen);
/*
 * Releases before 3.8 built SD_SIBLING/MC/CPU/NODE_INIT domains, whose
 * balancer compares rq->load.weight and its cpu_load[] averages.
 */
static inline bool sched_domains_legacy(int kv)
{
	return kv < KV(3, 8);
}
void sched_domains_free(struct sched_domains *sds);

/* The k-th group of sd's circular list, starting at sd->groups (k = 0). */
static inline const struct sched_group *sd_group(const struct sched_domains *sds,
						 const struct sched_domain *sd, int k)
{
	return &sds->sg[sd->group_first + (sd->group_local + k) % sd->nr_groups];
}

/* The lowest domain of cpu (rq->sd), NULL when it has none. */
static inline const struct sched_domain *cpu_sd(const struct sched_domains *sds, int cpu)
{
	int i = sds->percpu[cpu].sd;
	return i >= 0 ? &sds->sd[i] : NULL;
}

static inline const struct sched_domain *sd_parent(const struct sched_domains *sds,
						   const struct sched_domain *sd)
{
	return sd->parent >= 0 ? &sds->sd[sd->parent] : NULL;
}

/* update_max_interval(): max_load_balance_interval in jiffies. */
static inline unsigned long sched_max_load_balance_interval(u32 hz, int nr_cpus)
{
	return (unsigned long)hz * (unsigned long)nr_cpus / 10;
}

/* cpumask helpers */
unsigned int cpumask_weight(const struct cpumask *m);
int cpumask_first(const struct cpumask *m);	/* SCHED_MAX_CPUS when empty */
bool cpumask_equal(const struct cpumask *a, const struct cpumask *b);
bool cpumask_subset(const struct cpumask *a, const struct cpumask *b);
bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b);
/*
 * Format m as a CPU list ("0-3,8,10-11", "" when empty), the kernel's %*pbl.
 * Returns the length it needs (snprintf-style); 6 * SCHED_MAX_CPUS bytes is
 * always enough.
 */
int cpumask_format_list(char *buf, size_t len, const struct cpumask *m);

#endif
