/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A condition on the difference between two runs, B against A:
 * `p99_latency(web*) > +10%` (the relative change of B from A), or in the
 * metric's own unit: `wait(/batch) > +5ms`, `migrations(hog.*) >= +3`,
 * `share(db) < -0.05`. It holds when it holds for any task (or group, for
 * a glob starting with '/') the glob matches. compare --fail-if and the
 * scenario's `expect diff` read it.
 */
#ifndef SRC_FORMAT_DIFF_EXPR_H
#define SRC_FORMAT_DIFF_EXPR_H

#include <stddef.h>

#include "sched/api/types.h"

/* The metrics a comparison puts side by side (src/analysis/metrics.h). */
enum metric_kind {
	MET_SHARE, /* CPU time / window: 1.0 is one CPU */
	MET_WAIT,  /* runnable but not running, ns */
	MET_P50,   /* wakeup latency, ns */
	MET_P99,
	MET_MIGRATIONS,
	MET_THROTTLED, /* cpu.stat throttled_usec (groups), ns */
	NR_METRICS
};

/* As written: share, wait, p50_latency, p99_latency, migrations, throttled. */
extern const char *const metric_names[NR_METRICS];
/* Index in metric_names, -1 for another name. */
int metric_lookup(const char *name, size_t len);
/* Is the metric a time (ns)? */
bool metric_is_time(int metric);

enum diff_op {
	DIFF_LT,
	DIFF_LE,
	DIFF_GT,
	DIFF_GE
};

struct diff_expr {
	int metric;	  /* enum metric_kind */
	char pattern[64]; /* a task name glob, or a group path glob */
	bool group;	  /* the pattern starts with '/' */
	int op;		  /* enum diff_op */
	bool relative;	  /* value is a percentage of A's */
	double value;	  /* percent, or ns for times, the fraction for share, a count */
	char text[160];	  /* as written, for messages */
};

/* A scenario's `expect diff EXPR [over A..B]` line. */
struct diff_expect {
	struct diff_expr x;
	bool has_window;
	u64 from, to;
	u32 line, col;
};

/*
 * Parse s[0..n). -1 with the message in err and the 1-based column of
 * what is wrong in *col.
 */
int diff_expr_parse(const char *s, size_t n, struct diff_expr *out, u32 *col, char *err, size_t errlen);
/* Does it hold for a change from a to b? (From 0 to anything above, the
 * relative change is infinite.) */
bool diff_expr_holds(const struct diff_expr *x, double a, double b);
/* The change the expression measures: b - a, or the percentage. */
double diff_expr_change(const struct diff_expr *x, double a, double b);

#endif
