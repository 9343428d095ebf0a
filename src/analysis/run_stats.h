/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of one run: one over the report's window, and one more for
 * each other window the expects name (`over A..B`), all fed by the same
 * event stream; then the expects checked against them. Expects over the
 * same window share its statistics: each one fed costs every event.
 */
#ifndef SRC_ANALYSIS_RUN_STATS_H
#define SRC_ANALYSIS_RUN_STATS_H

#include "sched/api/sched.h"
#include "src/format/scenario_file.h"
#include "stats.h"

struct run_stats {
	int n;
	struct stats *st; /* st[0]: the window; then the expects' other windows */
	int *expect_st;	  /* [nr_expects]: the index in st of expect i's (with expects) */
};

void run_stats_init(struct run_stats *rs, const struct scenario_file *f, u64 from, u64 to, bool expects);
/*
 * The listener that feeds rs, and its *ctx: the statistics themselves when
 * there is only one (a call less for every event).
 */
sched_event_fn run_stats_listener(struct run_stats *rs, void **ctx);
void run_stats_finish(struct run_stats *rs, u64 now);
/*
 * Check every expect of f (rs made with expects): msg[i] gets a malloc'd
 * verdict line, ok[i] whether it holds. Returns how many failed.
 */
int run_stats_check(const struct run_stats *rs, const struct scenario_file *f, char **msg, bool *ok);
void run_stats_free(struct run_stats *rs);

#endif
