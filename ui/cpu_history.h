/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each CPU's PELT utilisation and load over time, for the CPUs view's
 * graphs (as btop draws a core's history). The values are the engine's
 * (sched_cpu_info()), sampled as the events are first emitted: every CPU
 * at the first event of each bucket of simulated time (once a bucket, not
 * at every event: at 256 CPUs that would cost the run a fifth more); a
 * bucket no event fell in keeps the one before (PELT moves at ticks, which
 * are not events). Events emitted again from an earlier point (a new
 * branch) take the buckets from there back.
 */
#ifndef UI_CPU_HISTORY_H
#define UI_CPU_HISTORY_H

#include "sched/api/sched.h"

#define CPU_HIST_BUCKET_NS NSEC_PER_MSEC
#define CPU_HIST_LEN 1024 /* buckets kept per CPU: the last second or so */
#define CPU_HIST_NONE UINT32_MAX

struct cpu_sample {
	u32 util, load; /* util_avg and load_avg; CPU_HIST_NONE when not sampled */
};

struct cpu_history {
	struct sched_engine *e;
	int nr_cpus;
	bool any;
	u64 newest;	      /* the newest bucket (time / CPU_HIST_BUCKET_NS) */
	struct cpu_sample *s; /* [cpu * CPU_HIST_LEN + bucket % CPU_HIST_LEN] */
};

void cpu_history_init(struct cpu_history *h, struct sched_engine *e);
void cpu_history_free(struct cpu_history *h);
/* A history listener (history_add_listener()). */
void cpu_history_event(void *ctx, const struct sched_event *ev);
/*
 * cpu's history over [to - span, to) in n columns (each the mean of the
 * buckets it covers), into util[] and load[] (either may be NULL);
 * CPU_HIST_NONE where nothing was sampled (before the run, or older than
 * the buckets kept).
 */
void cpu_history_series(const struct cpu_history *h, int cpu, u64 to, u64 span, int n, u32 *util, u32 *load);

#endif
