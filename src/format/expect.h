/* SPDX-License-Identifier: GPL-2.0 */
/* `expect` lines: checks a scenario makes about its own run. */
#ifndef SRC_EXPECT_H
#define SRC_EXPECT_H

#include "sched/api/types.h"

struct lexer;
struct token;

enum expect_metric {
	EXPECT_SHARE,		/* cpu_ns / window: fraction of one CPU */
	EXPECT_CPU_TIME,	/* ns on a CPU */
	EXPECT_WAIT_TIME,	/* ns runnable but not running */
	EXPECT_WAKEUP_LATENCY,	/* ns from sched_wakeup to running; stat picks p50/p99/max */
	EXPECT_MIGRATIONS,	/* sched_migrate_task count */
	EXPECT_SWITCHES,	/* times switched in (slices) */
	EXPECT_WAKEUPS,		/* sched_wakeup count */
	EXPECT_PREEMPTIONS,	/* switched out while still runnable */
	EXPECT_DL_THROTTLES,	/* SCHED_DEADLINE runtime exhaustions (schedscope_dl_throttle) */
	EXPECT_DEADLINE_MISSES,	/* SCHED_DEADLINE jobs ending past their deadline */
	EXPECT_MIGRATION_RATE,	/* sched_migrate_task per second of the window */
	EXPECT_HERDS,		/* schedscope_herd count; the pattern names causes, not tasks */
	EXPECT_EXT_DISPATCHES,	/* schedscope_ext_dispatch count; the pattern names operations */
	EXPECT_EXT_EXITS,	/* schedscope_ext_exit count; the pattern names exit kinds */
	EXPECT_RUNTIME,		/* ns the scheduler charged (sched_stat_runtime): without interrupt time when accounted */
	/* groups only (a pattern starting with '/'): cpu.stat */
	EXPECT_NR_PERIODS,	/* bandwidth periods that ended */
	EXPECT_NR_THROTTLED,	/* periods in which a queue of the group was throttled */
	EXPECT_THROTTLED_TIME,	/* Σ over CPUs of the time its queues were throttled */
	EXPECT_NR_BURSTS,	/* periods that used burst runtime */
	/* tasks only: rt-app's per-period view */
	EXPECT_PERIODS,		/* timer periods completed (rt-app's log rows) */
	EXPECT_MISSED_PERIODS,	/* of those, timers reached after their expiry */
	EXPECT_SLACK_MIN,	/* ns: the smallest slack of a period (< 0 when late) */
	EXPECT_PERIOD_LATENCY,	/* ns: the largest wakeup latency after a timer */
	NR_EXPECT_METRICS
};

enum expect_stat { STAT_P50, STAT_P99, STAT_MAX };

/* Names as written in scenarios: share, cpu_time, ... */
extern const char *const expect_metric_names[NR_EXPECT_METRICS];
/* Is the metric a duration (written with units, held in ns)? */
bool expect_metric_is_time(int metric);
enum expect_op { OP_EQ, OP_LT, OP_GT, OP_LE, OP_GE };

struct expect {
	int metric;		/* enum expect_metric */
	char pattern[64];	/* task name glob: `hog.*`, `web.?`, `hog`; or a group path glob: `/batch/x*` */
	int stat;		/* enum expect_stat, for WAKEUP_LATENCY */
	int op;			/* enum expect_op */
	double value;		/* ns for times, fraction for share, count otherwise */
	double tol;		/* `+- X` (same unit), with OP_EQ; 0 = exact */
	bool has_window;
	u64 from, to;		/* `over A..B` */
	u32 line, col;
	char text[160];		/* the expect as written, for messages */
};

/*
 * Parse the rest of an `expect` line into *x: the metric is the token m,
 * already read after the word `expect` (expect_parse.c has the syntax).
 * Reads up to the end of the line; -1 with the error in lx.
 */
int expect_parse(struct lexer *lx, const struct token *m, struct expect *x);

#endif
