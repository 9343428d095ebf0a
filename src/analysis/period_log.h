/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt-app's per-thread logs, as rt-app writes them (one file per thread,
 * `<log_basename>-<thread>-<idx>.log`) and as `schedscope run --periods`
 * writes them (every thread in one file, its name first), read into
 * columns per thread to compare a real run with a simulated one.
 */
#ifndef SRC_ANALYSIS_PERIOD_LOG_H
#define SRC_ANALYSIS_PERIOD_LOG_H

#include <stddef.h>

/* rt-app's columns, in the order of its log_timing() (rt-app.c); all in us. */
enum period_col {
	PC_IDX,
	PC_PERF,
	PC_RUN,
	PC_PERIOD,
	PC_START,
	PC_END,
	PC_REL_ST,
	PC_SLACK,
	PC_C_DURATION,
	PC_C_PERIOD,
	PC_WU_LAT,
	NR_PERIOD_COLS
};

extern const char *const period_col_names[NR_PERIOD_COLS];

/* The lines of one thread, column by column. */
struct period_thread {
	char name[64]; /* as a scenario task name: [A-Za-z0-9_-] */
	size_t n, cap;
	double *col[NR_PERIOD_COLS];
};

struct period_log {
	struct period_thread *thread;
	int nr;
	size_t cap;
};

/*
 * Add the lines of text (named `file` in messages). A line of 11 numbers
 * is rt-app's, of the thread `thread` (NULL: refused); a name then 11
 * numbers is schedscope's. Lines starting with '#' and blank ones are
 * skipped. 0, or -1 with "file:line:col: message" in err.
 */
int period_log_read(struct period_log *l, const char *file, const char *thread, const char *text, size_t len,
		    char *err, size_t errlen);

/* The thread of an rt-app log file's name: "mp3-mp3.decoder-3.log" with prefix "mp3-" is "mp3_decoder". */
void period_log_thread_name(const char *file, size_t prefix, char *out, size_t len);

struct period_thread *period_log_find(const struct period_log *l, const char *name);

/* The q-quantile (0..1) of thread t's column c, nearest rank; NAN without lines. */
double period_quantile(const struct period_thread *t, enum period_col c, double q);

void period_log_free(struct period_log *l);

#endif
