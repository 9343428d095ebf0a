/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of one run: one over the report's window, and one more for
 * each expect that names its own (`over A..B`), all fed by the same event
 * stream; then the expects checked against them.
 */
#ifndef SRC_ANALYSIS_RUN_STATS_H
#define SRC_ANALYSIS_RUN_STATS_H

#include "src/format/scenario_file.h"
#include "stats.h"

struct run_stats {
	int n;
	struct stats *st; /* st[0]: the window; st[1 + i]: expect i's (with expects) */
};

void run_stats_init(struct run_stats *rs, const struct scenario_file *f, u64 from, u64 to, bool expects);
/* A sched_event_fn; ctx is the run_stats. */
void run_stats_event(void *ctx, const struct sched_event *ev);
void run_stats_finish(struct run_stats *rs, u64 now);
/*
 * Check every expect of f (rs made with expects): msg[i] gets a malloc'd
 * verdict line, ok[i] whether it holds. Returns how many failed.
 */
int run_stats_check(const struct run_stats *rs, const struct scenario_file *f, char **msg, bool *ok);
void run_stats_free(struct run_stats *rs);

#endif
