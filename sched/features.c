// SPDX-License-Identifier: GPL-2.0
/* sched_features, tunables and per-release defaults. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api/features.h"

const char *const sched_feature_names[NR_SCHED_FEATURES] = {
	[FEAT_PLACE_LAG] = "PLACE_LAG",
	[FEAT_PLACE_DEADLINE_INITIAL] = "PLACE_DEADLINE_INITIAL",
	[FEAT_PLACE_REL_DEADLINE] = "PLACE_REL_DEADLINE",
	[FEAT_RUN_TO_PARITY] = "RUN_TO_PARITY",
	[FEAT_PREEMPT_SHORT] = "PREEMPT_SHORT",
	[FEAT_NEXT_BUDDY] = "NEXT_BUDDY",
	[FEAT_PICK_BUDDY] = "PICK_BUDDY",
	[FEAT_CACHE_HOT_BUDDY] = "CACHE_HOT_BUDDY",
	[FEAT_DELAY_DEQUEUE] = "DELAY_DEQUEUE",
	[FEAT_DELAY_ZERO] = "DELAY_ZERO",
	[FEAT_WAKEUP_PREEMPTION] = "WAKEUP_PREEMPTION",
	[FEAT_HRTICK] = "HRTICK",
	[FEAT_NONTASK_CAPACITY] = "NONTASK_CAPACITY",
	[FEAT_UTIL_EST] = "UTIL_EST",
	[FEAT_ATTACH_AGE_LOAD] = "ATTACH_AGE_LOAD",
	[FEAT_WA_IDLE] = "WA_IDLE",
	[FEAT_WA_WEIGHT] = "WA_WEIGHT",
	[FEAT_WA_BIAS] = "WA_BIAS",
	[FEAT_SIS_UTIL] = "SIS_UTIL",
	[FEAT_NI_RANDOM] = "NI_RANDOM",
	[FEAT_LB_MIN] = "LB_MIN",
	[FEAT_GENTLE_FAIR_SLEEPERS] = "GENTLE_FAIR_SLEEPERS",
	[FEAT_START_DEBIT] = "START_DEBIT",
	[FEAT_LAST_BUDDY] = "LAST_BUDDY",
	[FEAT_ALT_PERIOD] = "ALT_PERIOD",
	[FEAT_BASE_SLICE] = "BASE_SLICE",
	[FEAT_TG_SHARES_UP_WALK] = "TG_SHARES_UP_WALK",
	[FEAT_IRQ_TIME_ACCOUNTING] = "IRQ_TIME_ACCOUNTING",
	[FEAT_PARAVIRT_TIME_ACCOUNTING] = "PARAVIRT_TIME_ACCOUNTING",
	[FEAT_SKIP_SCHED_IDLE_RQ] = "SKIP_SCHED_IDLE_RQ",
};

const struct sched_tunable_desc sched_tunable_descs[NR_SCHED_TUNABLES] = {
	[TUN_BASE_SLICE] = { "base_slice_ns", true, 100 * NSEC_PER_USEC, 100 * NSEC_PER_MSEC },
	[TUN_LATENCY] = { "latency_ns", true, 100 * NSEC_PER_USEC, NSEC_PER_SEC },
	[TUN_MIN_GRANULARITY] = { "min_granularity_ns", true, 100 * NSEC_PER_USEC, NSEC_PER_SEC },
	[TUN_WAKEUP_GRANULARITY] = { "wakeup_granularity_ns", true, 0, NSEC_PER_SEC },
	[TUN_IDLE_MIN_GRANULARITY] = { "idle_min_granularity_ns", true, 100 * NSEC_PER_USEC, NSEC_PER_SEC },
	[TUN_MIGRATION_COST] = { "migration_cost_ns", true, 0, NSEC_PER_SEC },
	[TUN_NR_MIGRATE] = { "nr_migrate", false, 1, 1024 },
	[TUN_TUNABLE_SCALING] = { "tunable_scaling", false, 0, 2 },
	[TUN_CFS_BANDWIDTH_SLICE] = { "cfs_bandwidth_slice", true, NSEC_PER_USEC, NSEC_PER_SEC },
	[TUN_SHARES_RATELIMIT] = { "shares_ratelimit_ns", true, 0, NSEC_PER_SEC },
	[TUN_SHARES_THRESH] = { "shares_thresh", false, 0, 1024 },
	[TUN_HERD_THRESHOLD] = { "herd_threshold", false, 2, 64 },
	[TUN_HERD_WINDOW] = { "herd_window_ns", true, NSEC_PER_USEC, NSEC_PER_SEC },
	[TUN_RT_PERIOD] = { "sched_rt_period_us", true, NSEC_PER_USEC, 2147483647ULL * NSEC_PER_USEC },
	[TUN_RT_RUNTIME] = { "sched_rt_runtime_us", true, 0, RUNTIME_INF },
	[TUN_RR_TIMESLICE] = { "sched_rr_timeslice_ms", true, 0, 2147483647ULL * NSEC_PER_MSEC },
	[TUN_FAIR_SERVER_RUNTIME] = { "fair_server_runtime", true, 0, 2147483647ULL * NSEC_PER_USEC },
	[TUN_FAIR_SERVER_PERIOD] = { "fair_server_period", true, 100 * NSEC_PER_USEC,
				     4194304ULL * NSEC_PER_USEC },
	[TUN_SCX_WATCHDOG_TIMEOUT] = { "scx_watchdog_timeout", true, NSEC_PER_MSEC, 30 * NSEC_PER_SEC },
	[TUN_TIMER_SLACK] = { "timer_slack_ns", true, 0, NSEC_PER_SEC },
	[TUN_IRQ_JITTER] = { "irq_jitter_ns", true, 0, NSEC_PER_MSEC },
	[TUN_COST_SWITCH] = { "cost_switch_ns", true, 0, NSEC_PER_MSEC },
	[TUN_COST_WAKEUP] = { "cost_wakeup_ns", true, 0, NSEC_PER_MSEC },
	[TUN_COST_IPI] = { "cost_ipi_ns", true, 0, NSEC_PER_MSEC },
	[TUN_COST_TICK] = { "cost_tick_ns", true, 0, NSEC_PER_MSEC },
	[TUN_COST_BALANCE] = { "cost_balance_ns", true, 0, NSEC_PER_MSEC },
	[TUN_COST_MIGRATE] = { "cost_migrate_ns", true, 0, NSEC_PER_MSEC },
	[TUN_COST_HRTIMER] = { "cost_hrtimer_ns", true, 0, NSEC_PER_MSEC },
};

int sched_feature_lookup(const char *name)
{
	for (int i = 0; i < NR_SCHED_FEATURES; i++)
		if (!strcasecmp(name, sched_feature_names[i]))
			return i;
	return -1;
}

/* Accepts the debugfs or sysctl name, without "_ns", and with a "sched_" prefix. */
int sched_tunable_lookup(const char *name)
{
	for (int i = 0; i < NR_SCHED_TUNABLES; i++)
		if (!strcasecmp(name, sched_tunable_descs[i].name))
			return i;
	if (!strncasecmp(name, "sched_", 6))
		name += 6;
	size_t n = strlen(name);
	for (int i = 0; i < NR_SCHED_TUNABLES; i++) {
		const char *t = sched_tunable_descs[i].name;
		size_t tn = strlen(t);
		if (!strcasecmp(name, t))
			return i;
		if (tn > 3 && !strcmp(t + tn - 3, "_ns") && n == tn - 3 && !strncasecmp(name, t, n))
			return i;
	}
	return -1;
}

/* Releases that existed: 3.0-3.19, 4.0-4.20, 5.0-5.19, 6.0 up to the newest modelled. */
bool sched_kernel_version_valid(int kv)
{
	static const int last_minor[] = { [3] = 19, [4] = 20, [5] = 19, [6] = 19 };
	int major = kv / 100, minor = kv % 100;

	if (kv < KV(3, 0) || kv > KV_LATEST)
		return false;
	return minor <= last_minor[major];
}

const char *sched_kernel_name(char *buf, size_t n, int kv, int stable)
{
	if (stable)
		snprintf(buf, n, "%d.%d.%d", kv / 100, kv % 100, stable);
	else
		snprintf(buf, n, "%d.%d", kv / 100, kv % 100);
	return buf;
}

u64 sched_default_features(int kv, int stable, enum sched_variant variant)
{
	/* Debian's kernels are built with CONFIG_IRQ_TIME_ACCOUNTING and PARAVIRT_TIME_ACCOUNTING */
	u64 f = FEAT_BIT(FEAT_CACHE_HOT_BUDDY) | FEAT_BIT(FEAT_WAKEUP_PREEMPTION) |
		FEAT_BIT(FEAT_NONTASK_CAPACITY) | FEAT_BIT(FEAT_IRQ_TIME_ACCOUNTING) |
		FEAT_BIT(FEAT_PARAVIRT_TIME_ACCOUNTING);

	if (kv >= KV(3, 11))		/* wake_affine's idle/weight split came later */
		f |= FEAT_BIT(FEAT_WA_IDLE) | FEAT_BIT(FEAT_WA_WEIGHT) | FEAT_BIT(FEAT_WA_BIAS);
	if (kv >= KV(4, 17))
		f |= FEAT_BIT(FEAT_UTIL_EST);
	if (kv >= KV(4, 4))
		f |= FEAT_BIT(FEAT_ATTACH_AGE_LOAD);
	if (kv >= KV(5, 19))
		f |= FEAT_BIT(FEAT_SIS_UTIL);

	if (variant == SCHED_VARIANT_CFS) {
		f |= FEAT_BIT(FEAT_GENTLE_FAIR_SLEEPERS) | FEAT_BIT(FEAT_START_DEBIT) |
		     FEAT_BIT(FEAT_LAST_BUDDY);
		if (kv >= KV(5, 13))
			f |= FEAT_BIT(FEAT_ALT_PERIOD) | FEAT_BIT(FEAT_BASE_SLICE);
		return f;
	}

	f |= FEAT_BIT(FEAT_PLACE_LAG) | FEAT_BIT(FEAT_PLACE_DEADLINE_INITIAL) |
	     FEAT_BIT(FEAT_RUN_TO_PARITY);
	if (kv >= KV(6, 12))
		f |= FEAT_BIT(FEAT_PLACE_REL_DEADLINE) | FEAT_BIT(FEAT_PREEMPT_SHORT) |
		     FEAT_BIT(FEAT_PICK_BUDDY) | FEAT_BIT(FEAT_DELAY_DEQUEUE) |
		     FEAT_BIT(FEAT_DELAY_ZERO);
	/* proportional newidle balancing: 33cf66d88306, 6.18.5 */
	if (kv >= KV(6, 19) || (kv == KV(6, 18) && stable >= 5))
		f |= FEAT_BIT(FEAT_NI_RANDOM);
	return f;
}

u64 sched_default_tunable(int kv, enum sched_tunable t)
{
	switch (t) {
	case TUN_BASE_SLICE:
		return kv >= KV(6, 15) ? 700000 : 750000;
	case TUN_LATENCY:
		return 6 * NSEC_PER_MSEC;
	case TUN_MIN_GRANULARITY:
		return 750000;
	case TUN_WAKEUP_GRANULARITY:
		return 1 * NSEC_PER_MSEC;
	case TUN_IDLE_MIN_GRANULARITY:
		return 750000;
	case TUN_MIGRATION_COST:
		return 500000;
	case TUN_NR_MIGRATE:
		return 32;
	case TUN_TUNABLE_SCALING:
		return SCHED_TUNABLESCALING_LOG;
	case TUN_CFS_BANDWIDTH_SLICE:
		return 5 * NSEC_PER_MSEC;
	case TUN_SHARES_RATELIMIT:
		return 250 * NSEC_PER_USEC;
	case TUN_SHARES_THRESH:
		return 4;
	case TUN_HERD_THRESHOLD:
		return 4;
	case TUN_HERD_WINDOW:
		return 1 * NSEC_PER_MSEC;
	case TUN_RT_PERIOD:
		return NSEC_PER_SEC;
	case TUN_RT_RUNTIME:
		return 950 * NSEC_PER_MSEC;
	case TUN_RR_TIMESLICE:
		return 100 * NSEC_PER_MSEC;
	case TUN_FAIR_SERVER_RUNTIME:
		return 50 * NSEC_PER_MSEC;
	case TUN_FAIR_SERVER_PERIOD:
		return NSEC_PER_SEC;
	case TUN_SCX_WATCHDOG_TIMEOUT:
		return 30 * NSEC_PER_SEC;
	case TUN_TIMER_SLACK:
		return 50 * NSEC_PER_USEC; /* INIT_TIMER_SLACK in init_task */
	case TUN_IRQ_JITTER:
		return 10 * NSEC_PER_USEC;
	/*
	 * The medians of 7 `make costs` runs on a 2-CPU VM, Linux 6.18
	 * (tests/kernel/results/costs-linux-6.18.txt; test_costs checks them)
	 */
	case TUN_COST_SWITCH:
		return 794;
	case TUN_COST_WAKEUP:
		return 1612;
	case TUN_COST_IPI:
		return 11668;
	case TUN_COST_TICK:
		return 17284;
	/* not measurable there (the migrate median is below zero): balance.c's model */
	case TUN_COST_BALANCE:
		return 1 * NSEC_PER_USEC;
	case TUN_COST_MIGRATE:
		return 1002;
	/* the hrtimer median (17609 ns) less the wakeup inside it */
	case TUN_COST_HRTIMER:
		return 17609 - 1612;
	default:
		return 0;
	}
}

static unsigned int ilog2_u(unsigned int v)
{
	unsigned int r = 0;
	while (v >>= 1)
		r++;
	return r;
}

unsigned int sched_sysctl_factor(int ncpus, enum sched_tunable_scaling scaling)
{
	unsigned int cpus = ncpus < 8 ? (unsigned int)ncpus : 8;

	switch (scaling) {
	case SCHED_TUNABLESCALING_NONE:
		return 1;
	case SCHED_TUNABLESCALING_LINEAR:
		return cpus;
	case SCHED_TUNABLESCALING_LOG:
	default:
		return 1 + ilog2_u(cpus);
	}
}
