/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's chart: one metric of one row against a swept setting, one line
 * per variant of the other settings, the spread over seeds as a band; and
 * when there are two lines (two variants, or A and B of --vs-set), their
 * wakeup-latency CDFs below.
 */
#ifndef SRC_PLOT_SWEEP_CHART_H
#define SRC_PLOT_SWEEP_CHART_H

#include "src/analysis/sweep_table.h"
#include "chart.h"

struct chart_opts {
	int metric;	 /* enum sweep_metric, -1: p99 for tasks, share for groups */
	const char *row; /* NULL: the first task line with wakeups */
};

/* -1 with the reason in err. */
int sweep_chart_build(const struct sweep_results *r, const struct sweep_variant *v, int nv,
		      const struct chart_opts *o, struct chart *c, char *err, size_t errlen);
/* Build and write: FILE.svg, or "-" for the terminal. -1 (message printed) on failure. */
int sweep_chart_write(const char *path, const struct sweep_results *r, const struct sweep_variant *v, int nv,
		      const struct chart_opts *o);

#endif
