/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a comparison puts side by side: per task and per task group, the CPU
 * share, wait time, p50/p99 wakeup latency, migrations and throttled time
 * over a window, taken from the run's statistics (stats.h). A group's row
 * covers the tasks in it and below it at the window's end.
 */
#ifndef SRC_ANALYSIS_METRICS_H
#define SRC_ANALYSIS_METRICS_H

#include "src/format/diff_expr.h"
#include "stats.h"

struct metric_row {
	const char *name; /* a task's name or a group's path: valid as long as the scenario */
	bool group;
	bool has[NR_METRICS]; /* latencies need a wakeup; throttled time is a group's */
	double v[NR_METRICS];
};

struct metrics {
	u64 window;	       /* ns the statistics covered */
	int nr_rows, nr_tasks; /* rows: the tasks, then the groups (none without groups) */
	struct metric_row *row;
};

/* The metrics of closed statistics (stats_finish() done). */
void metrics_from_stats(struct metrics *m, const struct stats *st, const char *const *task_names);
void metrics_free(struct metrics *m);
/* The row of that task (group false) or group, -1 when there is none. */
int metrics_find(const struct metrics *m, const char *name, bool group);

#endif
