/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_features and tunables, with the kernel's names and defaults, and the
 * kernel release whose rules the engine follows.
 */
#ifndef SCHED_FEATURES_H
#define SCHED_FEATURES_H

#include "types.h"

/* One bit per SCHED_FEAT() of kernel/sched/features.h (and 6.1's legacy CFS ones). */
enum sched_feature {
	FEAT_PLACE_LAG,
	FEAT_PLACE_DEADLINE_INITIAL,
	FEAT_PLACE_REL_DEADLINE,
	FEAT_RUN_TO_PARITY,
	FEAT_PREEMPT_SHORT,
	FEAT_NEXT_BUDDY,
	FEAT_PICK_BUDDY,
	FEAT_CACHE_HOT_BUDDY,
	FEAT_DELAY_DEQUEUE,
	FEAT_DELAY_ZERO,
	FEAT_WAKEUP_PREEMPTION,
	FEAT_HRTICK,
	FEAT_NONTASK_CAPACITY,
	FEAT_UTIL_EST,
	FEAT_ATTACH_AGE_LOAD,
	FEAT_WA_IDLE,
	FEAT_WA_WEIGHT,
	FEAT_WA_BIAS,
	FEAT_SIS_UTIL,
	FEAT_NI_RANDOM,
	FEAT_LB_MIN,
	/* legacy CFS (<= 6.5) */
	FEAT_GENTLE_FAIR_SLEEPERS,
	FEAT_START_DEBIT,
	FEAT_LAST_BUDDY,
	FEAT_ALT_PERIOD,
	FEAT_BASE_SLICE,
	/* schedscope's own: 2.6.29-2.6.35's group weights by a periodic walk */
	FEAT_TG_SHARES_UP_WALK,
	/* kernel configs: interrupt / steal time kept out of clock_task */
	FEAT_IRQ_TIME_ACCOUNTING,
	FEAT_PARAVIRT_TIME_ACCOUNTING,
	/* schedscope's flag for a patch after the newest release modelled: "sched/fair: Skip
	 * SCHED_IDLE rq for SCHED_IDLE task" (fd54d81c2c0e) */
	FEAT_SKIP_SCHED_IDLE_RQ,
	NR_SCHED_FEATURES
};

#define FEAT_BIT(f) (1ULL << (f))

/* Kernel release as a comparable number: KV(6, 12) = 612. */
#define KV(major, minor) ((major) * 100 + (minor))
#define KV_LATEST KV(6, 19)
#define KV_FIRST_EEVDF KV(6, 6)

enum sched_variant { SCHED_VARIANT_EEVDF, SCHED_VARIANT_CFS };

enum sched_tunable_scaling {
	SCHED_TUNABLESCALING_NONE,
	SCHED_TUNABLESCALING_LOG,
	SCHED_TUNABLESCALING_LINEAR,
};

/*
 * The sysctl/debugfs knobs. A value of 0 in a scenario's override means
 * "not overridden"; the engine then scales the release's normalized default
 * by the CPU-count factor as update_sysctl() does.
 */
enum sched_tunable {
	TUN_BASE_SLICE,		/* sysctl_sched_base_slice (EEVDF) */
	TUN_LATENCY,		/* sysctl_sched_latency (CFS) */
	TUN_MIN_GRANULARITY,	/* sysctl_sched_min_granularity (CFS) */
	TUN_WAKEUP_GRANULARITY,	/* sysctl_sched_wakeup_granularity (CFS) */
	TUN_IDLE_MIN_GRANULARITY, /* sysctl_sched_idle_min_granularity (CFS, 5.15+) */
	TUN_MIGRATION_COST,	/* sysctl_sched_migration_cost */
	TUN_NR_MIGRATE,		/* sysctl_sched_nr_migrate */
	TUN_TUNABLE_SCALING,	/* sysctl_sched_tunable_scaling */
	TUN_CFS_BANDWIDTH_SLICE, /* sysctl_sched_cfs_bandwidth_slice (kernel.sched_cfs_bandwidth_slice_us) */
	TUN_SHARES_RATELIMIT,	/* sysctl_sched_shares_ratelimit (2.6.29-2.6.35) */
	TUN_SHARES_THRESH,	/* sysctl_sched_shares_thresh (2.6.29-2.6.35) */
	TUN_HERD_THRESHOLD,	/* schedscope: migrations that make a herd */
	TUN_HERD_WINDOW,	/* schedscope: ... within this long */
	TUN_RT_PERIOD,		/* sysctl_sched_rt_period (µs in the kernel; ns here) */
	TUN_RT_RUNTIME,		/* sysctl_sched_rt_runtime; RUNTIME_INF for -1 */
	TUN_RR_TIMESLICE,	/* sysctl_sched_rr_timeslice_ms; 0 = RR_TIMESLICE */
	TUN_FAIR_SERVER_RUNTIME, /* debugfs fair_server/cpuN/runtime (6.12+; 0 disables) */
	TUN_FAIR_SERVER_PERIOD,	/* debugfs fair_server/cpuN/period (6.12+) */
	TUN_SCX_WATCHDOG_TIMEOUT, /* schedscope: the ext watchdog when ops.timeout_ms is 0 (30 s) */
	TUN_TIMER_SLACK,	  /* init's timer_slack_ns, which tasks inherit (noise on) */
	TUN_IRQ_JITTER,		  /* schedscope: a timer interrupt enters up to this late (noise on) */
	/* schedscope: the kernel's own work, in CPU time (noise on; the topology's defaults) */
	TUN_COST_SWITCH,  /* __schedule()'s pick and context switch, charged to next */
	TUN_COST_WAKEUP,  /* try_to_wake_up() by the waker, charged to it */
	TUN_COST_IPI,	  /* a wake-list or reschedule IPI on the target CPU (irq time) */
	TUN_COST_TICK,	  /* the tick's interrupt (irq time) */
	TUN_COST_BALANCE, /* one sched_balance_rq() pass over a 2-CPU domain */
	TUN_COST_MIGRATE, /* detaching and attaching one task */
	TUN_COST_HRTIMER, /* a sleep's end in its own hrtimer interrupt, less its wakeup (irq time) */
	NR_SCHED_TUNABLES
};

/* The costs, in the tunables' order: a topology's `cost NAME` lines set them. */
#define TUN_COST_FIRST TUN_COST_SWITCH
#define NR_SCHED_COSTS (TUN_COST_HRTIMER - TUN_COST_SWITCH + 1)

/* No limit: cpu.max "max", sched_rt_runtime_us = -1 (RT bandwidth and DL admission). */
#define RUNTIME_INF ((u64)~0ULL)

struct sched_tunable_desc {
	const char *name;	/* debugfs name, e.g. "base_slice_ns" */
	bool is_time;		/* value is a duration in ns */
	u64 min, max;
};

extern const char *const sched_feature_names[NR_SCHED_FEATURES];
extern const struct sched_tunable_desc sched_tunable_descs[NR_SCHED_TUNABLES];

/* Name lookups for the parsers; -1 when unknown. */
int sched_feature_lookup(const char *name);
int sched_tunable_lookup(const char *name);

/* Is this release one the engine knows? Accepts 3.0 .. 6.19. */
bool sched_kernel_version_valid(int kv);
/* Its name as scenarios write it: "6.12", or "6.18.44" for a stable update (stable > 0). */
const char *sched_kernel_name(char *buf, size_t n, int kv, int stable);
/* sched_features defaults of that release and variant. */
/* stable: the release's stable update (6.18.5 took NI_RANDOM), 0 for none */
u64 sched_default_features(int kv, int stable, enum sched_variant variant);
/* The release's normalized (one-CPU) default for a tunable. */
u64 sched_default_tunable(int kv, enum sched_tunable t);
/* get_update_sysctl_factor(): 1 + ilog2(min(ncpus, 8)) for LOG scaling. */
unsigned int sched_sysctl_factor(int ncpus, enum sched_tunable_scaling scaling);

#endif
