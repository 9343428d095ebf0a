/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one cell of a sweep keeps of its run: per task line (NAME.* for
 * count=, else NAME) and per task group, the sums of the per-task
 * statistics (stats.h) and the merged wakeup-latency histogram; and the
 * verdict of each expect. Only integers, so a cell reads back from JSON
 * bit for bit and every table made from cells is the same whatever ran
 * them, in whatever order.
 */
#ifndef SRC_ANALYSIS_SWEEP_CELL_H
#define SRC_ANALYSIS_SWEEP_CELL_H

#include "src/format/scenario_file.h"
#include "run_stats.h"
#include "stats.h"

struct sweep_row {
	char name[64]; /* "hog.*", "web", or a group's path */
	bool group;
	int tasks;  /* tasks the line has (groups: 0) */
	u64 cpu_ns; /* tasks: summed over them; groups: cpu.stat usage */
	u64 wait_ns;
	u64 migrations;
	u64 throttled_ns;    /* groups: cpu.stat throttled time */
	struct lat_hist lat; /* tasks: all their wakeup latencies */
};

/* One run: A, or the B side of --vs-set. */
struct sweep_side {
	u64 window_ns;
	int nr_rows;
	struct sweep_row *row;
	int nr_expects;
	char **expect_msg; /* [nr_expects] verdict lines */
	bool *expect_ok;
	int failed; /* expects that do not hold */
};

enum sweep_status {
	CELL_OK,    /* ran; every expect holds */
	CELL_FAIL,  /* ran; an expect does not hold */
	CELL_NA,    /* the scenario does not fit this machine or release */
	CELL_ERROR, /* bad input (or the run died): exit status 2 */
	NR_CELL_STATUS
};

extern const char *const sweep_status_names[NR_CELL_STATUS]; /* ok, fail, n/a, error */

struct sweep_cell {
	int index;
	int status;    /* enum sweep_status */
	char *message; /* NA and ERROR: why */
	bool has_b;
	struct sweep_side a, b;
};

/* Fill a side from a finished run: rows from the window statistics
 * rs->st[0], expects checked against rs when check. */
void sweep_side_from_run(struct sweep_side *s, const struct scenario_file *f, const struct run_stats *rs,
			 bool check);
/* The cell's status from its sides' expects (both sides checked). */
void sweep_cell_settle(struct sweep_cell *c);
void sweep_cell_free(struct sweep_cell *c);

/* One row's figures: share (of one CPU per task, or CPUs for a group), ms per task... */
enum sweep_metric {
	METRIC_SHARE,
	METRIC_WAIT,
	METRIC_P50,
	METRIC_P99,
	METRIC_MIGRATIONS,
	METRIC_THROTTLED,
	NR_SWEEP_METRICS
};
extern const char *const sweep_metric_names[NR_SWEEP_METRICS]; /* share, wait, p50, p99, ... */
extern const char *const sweep_metric_units[NR_SWEEP_METRICS];
/* The value of a metric for a row: share as a fraction, times in ms, migrations per task. */
double sweep_row_metric(const struct sweep_row *r, u64 window_ns, int metric);
/* Does the metric mean anything for this kind of row? */
bool sweep_metric_applies(int metric, bool group);
int sweep_metric_lookup(const char *name);
const struct sweep_row *sweep_side_row(const struct sweep_side *s, const char *name);

struct json_writer;
/* The cell as one JSON object (the format of --out and of the workers' pipes). */
void sweep_cell_write(struct json_writer *j, const struct sweep_cell *c);

#endif
