/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What wakeup placement (select.c) and the load balancer (balance.c) share:
 * the group statistics and classification of kernel/sched/fair.c, the
 * per-domain and per-LLC state the kernel keeps in struct sched_domain and
 * struct sched_domain_shared (here arrays in the arena indexed by domain id
 * and LLC id, since the domains themselves are immutable), and the small
 * CPU-state predicates both use.
 */
#ifndef SCHED_BALANCE_H
#define SCHED_BALANCE_H

#include "internal.h"
#include "api/topology.h"

/* The mutable half of a struct sched_domain. */
struct sd_lb_state {
	u64 last_balance;		/* jiffies */
	unsigned int balance_interval;	/* ms */
	unsigned int nr_balance_failed;
	u64 max_newidle_lb_cost;	/* ns */
	u64 last_decay_max_lb_cost;	/* jiffies */
	/* NI_RANDOM (6.19): newidle attempts and successes, per 1024 */
	unsigned int newidle_call, newidle_success, newidle_ratio;
};

/*
 * The running half of a struct sched_group_capacity (ST->sgc[sg->sgc]):
 * what update_group_capacity() found when it last ran for the group, which
 * the balancer and find_idlest_group() read until it runs again.
 */
struct sched_group_capacity {
	unsigned long capacity; /* 3.3: sgp->power */
	unsigned long min_capacity, max_capacity;
	u64 next_update; /* jiffies */
	/* Kept here, so shared by the groups of one span at one level across the CPUs' domains. */
	int imbalance;	  /* sgc->imbalance: affinity kept a balance below from evening out */
	int nr_busy_cpus; /* before 3.8, sgp->nr_busy_cpus: the group's CPUs not in tickless idle */
};

/* struct sched_domain_shared, one per LLC (indexed by sd_llc_id). */
struct sd_llc_shared {
	int nr_idle_scan;
	int nr_busy_cpus;		/* CPUs not in tickless idle */
	bool has_idle_cores;
};

struct sg_lb_stats {
	unsigned long avg_load;
	unsigned long group_load;
	unsigned long group_capacity;
	unsigned long group_util;
	unsigned long group_runnable;
	unsigned int sum_nr_running;
	unsigned int sum_h_nr_running;
	unsigned int idle_cpus;
	unsigned int group_weight;
	int group_type; /* enum group_type */
	unsigned int group_asym_packing;
	unsigned int group_smt_balance;
	unsigned long group_misfit_task_load;
};

/* lb_env flags */
#define LBF_ALL_PINNED 0x01
#define LBF_NEED_BREAK 0x02
#define LBF_DST_PINNED 0x04
#define LBF_SOME_PINNED 0x08
#define LBF_ACTIVE_LB 0x10

#define SCHED_NR_MIGRATE_BREAK 32
#define MAX_PINNED_INTERVAL 512

struct lb_env {
	const struct sched_domain *sd;
	int src_cpu, dst_cpu;
	struct rq *src_rq, *dst_rq;
	struct rq *this_rq; /* legacy: the CPU doing the work (this_rq()) */
	const struct cpumask *dst_grpmask;
	int new_dst_cpu;
	enum cpu_idle_type idle;
	int reason; /* enum migrate_reason of what it moves */
	long imbalance;
	struct cpumask cpus;
	unsigned int flags;
	unsigned int loop, loop_break, loop_max;
	enum migration_type migration_type;
	bool dst_core_idle;
	bool sg_overloaded; /* some CPU of the domain has more than one task */
	/* the decision record */
	u64 decision;
	long found_imbalance;		/* what find_busiest_group() asked for */
	unsigned int nr_balance_failed; /* the domain's when the attempt began, as its checks read it */
	bool compared;			/* the task now looked at was held against the imbalance */
	int why;			/* enum fbg_reason */
	unsigned int nr_hot_moved;
	bool active; /* kicked an active balance */
};

/* The record of one placement (EV_SELECT_RQ). */
struct select_record {
	int target;
	int affine; /* enum wake_affine_result */
	int path;   /* enum select_path */
	int depth;
	int nr_scanned;
	s64 this_eff_load, prev_eff_load;
};

static inline const struct sched_domains *SDS(void) { return E->sds; }
static inline const struct sched_domain *sd_of(int id) { return id >= 0 ? &E->sds->sd[id] : NULL; }
static inline struct sd_lb_state *sd_lb(const struct sched_domain *sd) { return &ST->sd_lb[sd->id]; }
static inline struct sd_llc_shared *llc_shared(int cpu) { return &ST->llc_shared[E->sds->percpu[cpu].sd_llc_id]; }
static inline const struct sched_domain *lowest_sd(int cpu) { return cpu_sd(E->sds, cpu); }
static inline const struct sched_domain *parent_sd(const struct sched_domain *sd) { return sd_parent(E->sds, sd); }
static inline const struct sched_domain *child_sd(const struct sched_domain *sd) { return sd_of(sd->child); }
#define for_each_domain(cpu, sd) for (sd = lowest_sd(cpu); sd; sd = parent_sd(sd))

/*
 * Where find_idlest_cpu() goes on after choosing new_cpu at a level of
 * span_weight weight: the highest of new_cpu's domains below that size that
 * has sd_flag, or NULL.
 */
static inline const struct sched_domain *flagged_sd_below(int cpu, unsigned int weight, u32 sd_flag)
{
	const struct sched_domain *sd = NULL, *tmp;

	for_each_domain (cpu, tmp) {
		if (weight <= tmp->span_weight)
			break;
		if (tmp->flags & sd_flag)
			sd = tmp;
	}
	return sd;
}

static inline u64 msecs_to_jiffies(u64 ms) { return (ms * E->sc->hz + 999) / 1000; }

static inline struct sched_group_capacity *sgc_of(const struct sched_group *sg)
{
	return &ST->sgc[sg->sgc];
}
/*
 * What fair tasks may use of the CPU as the balancer last measured it
 * (update_cpu_capacity() from a pass over the CPU's lowest domain), not as
 * it is now: RT time that began since shows only at the next pass.
 */
static inline unsigned long capacity_of(int cpu)
{
	return cpu_rq(cpu)->cpu_capacity;
}
unsigned long scale_rt_capacity(int cpu);
void update_group_capacity(const struct sched_domain *sd, int cpu);
void update_local_group_capacity(const struct lb_env *env, const struct sched_group *local);
void init_sched_groups_capacity(void);
static inline unsigned long cpu_load(struct rq *rq) { return rq->cfs.avg.load_avg; }
static inline unsigned long cpu_runnable(struct rq *rq) { return rq->cfs.avg.runnable_avg; }
/* cpu_util_cfs(): clamped at the CPU's full capacity, not at what RT left of it */
static inline unsigned long cpu_util_cfs(int cpu)
{
	unsigned long util = cpu_rq(cpu)->cfs.avg.util_avg;
	return MIN(util, (unsigned long)cpu_rq(cpu)->cpu_capacity_orig);
}
static inline unsigned long task_util(struct task_struct *p) { return p->se.avg.util_avg; }
/* fits_capacity(): 20 % headroom. */
static inline bool fits_capacity(unsigned long util, unsigned long cap) { return util * 1280 < cap * 1024; }
/* check_cpu_capacity(): interrupt time has taken a noticeable part of the CPU. */
static inline bool check_cpu_capacity(const struct rq *rq, const struct sched_domain *sd)
{
	return capacity_of(rq->cpu) * sd->imbalance_pct < rq->cpu_capacity_orig * 100;
}
static inline bool task_fits_cpu(struct task_struct *p, int cpu) { return fits_capacity(task_util(p), capacity_of(cpu)); }

static inline bool idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	return rq->curr == rq->idle && !rq->nr_running;
}
static inline bool available_idle_cpu(int cpu) { return idle_cpu(cpu); }
/* Only SCHED_IDLE tasks queued. */
static inline bool sched_idle_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	return rq->nr_running && rq->nr_running == rq->cfs.idle_h_nr_running;
}
/* A balance pass: cost_balance_ns and NEWIDLE_COST_PER_CPU ns for each CPU of the domain. */
#define NEWIDLE_COST_PER_CPU 50
static inline u64 balance_pass_cost(const struct sched_domain *sd)
{
	return sysctl(TUN_COST_BALANCE) + NEWIDLE_COST_PER_CPU * sd->span_weight;
}
/* Its CPU time (noise on): the periodic and NO_HZ passes run in SCHED_SOFTIRQ, newidle in __schedule(). */
static inline void balance_pass_spend(struct rq *rq, const struct sched_domain *sd, enum cpu_idle_type idle)
{
	if (sched_cost(TUN_COST_BALANCE))
		cpu_spend(rq, balance_pass_cost(sd), idle != CPU_NEWLY_IDLE);
}
static inline bool cpus_share_cache(int a, int b)
{
	return E->sds->percpu[a].sd_llc_id == E->sds->percpu[b].sd_llc_id;
}
static inline bool cpus_share_resources(int a, int b)
{
	return E->sds->percpu[a].sd_share_id == E->sds->percpu[b].sd_share_id;
}
static inline bool task_allowed_on_cpu(const struct task_struct *p, int cpu)
{
	return cpumask_test(&p->cpus_mask, cpu);
}
static inline void cpumask_clear(struct cpumask *m, int cpu) { m->bits[cpu >> 6] &= ~(1ULL << (cpu & 63)); }
static inline bool asym_cpucap_active(void) { return E->sds->asym_cpucapacity; }
/* The first CPU of m at or after cpu, nr_cpus when none. */
static inline int cpumask_next_from(const struct cpumask *m, int cpu)
{
	return cpumask_next_below(m, cpu, ST->nr_cpus);
}
#define for_each_cpu(cpu, m) for_each_cpu_below (cpu, m, ST->nr_cpus)
/* The first CPU of both a and b at or after cpu, nr_cpus when none: a word at a time. */
static inline int cpumask_and_next_from(const struct cpumask *a, const struct cpumask *b, int cpu)
{
	while (cpu < ST->nr_cpus) {
		u64 w = (a->bits[cpu >> 6] & b->bits[cpu >> 6]) >> (cpu & 63);

		if (w)
			return MIN(cpu + __builtin_ctzll(w), ST->nr_cpus);
		cpu = (cpu | 63) + 1;
	}
	return ST->nr_cpus;
}
#define for_each_cpu_and(cpu, a, b)                                       \
	for (cpu = cpumask_and_next_from((a), (b), 0); cpu < ST->nr_cpus; \
	     cpu = cpumask_and_next_from((a), (b), cpu + 1))

void sched_balance_domains(struct rq *rq, enum cpu_idle_type idle, int reason);
void emit_group(const struct lb_env *env, const struct sched_group *sg, const struct sg_lb_stats *sgs,
		bool local);
void emit_task(const struct lb_env *env, struct task_struct *p, unsigned long load, int result);
void emit_outcome(const struct lb_env *env, const struct sched_group *busiest_group, const struct rq *busiest,
		  int moved, int outcome);
bool throttled_lb_pair(const struct task_group *tg, int src_cpu, int dst_cpu);
void detach_task(struct task_struct *p, struct lb_env *env);
void attach_task(struct rq *rq, struct task_struct *p, enum cpu_idle_type idle);

/* ---- before 3.8 (sched_domains_legacy()): cpu_load.c and balance_legacy.c ---- */

/* weighted_cpuload(): the runqueue's weight in the units of the day (nice 0 = 1024) */
static inline unsigned long weighted_cpuload(int cpu)
{
	return scale_load_down(cpu_rq(cpu)->cfs.load.weight);
}
unsigned long decay_load_missed(unsigned long load, unsigned long missed_updates, int idx);
void __update_cpu_load(unsigned long *cpu_load, unsigned long this_load, unsigned long pending_updates);
unsigned long source_load(int cpu, int type);
unsigned long target_load(int cpu, int type);
unsigned long cpu_avg_load_per_task(int cpu);
/* 3.3 names the capacity scale cpu_power */
#define SCHED_POWER_SCALE SCHED_CAPACITY_SCALE
unsigned long power_orig_of(int cpu);
unsigned long power_of(int cpu);
void nohz_balance_exit_idle(struct rq *rq);
int idle_balance_legacy(struct rq *this_rq);
void active_load_balance_legacy(struct rq *busiest_rq);
int select_task_rq_fair_legacy(struct task_struct *p, int prev_cpu, int wake_flags, int cpu,
			       struct select_record *r);
enum group_type group_classify(unsigned int imbalance_pct, const struct sched_group *group,
			       struct sg_lb_stats *sgs);
int adjust_numa_imbalance(int imbalance, int dst_running, int imb_numa_nr);

#endif
