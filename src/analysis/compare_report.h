/* SPDX-License-Identifier: GPL-2.0 */
/* The report of `schedscope compare`: the sides, the first divergence, the
 * metrics of A and B with the difference, and the --fail-if verdicts. */
#ifndef SRC_ANALYSIS_COMPARE_REPORT_H
#define SRC_ANALYSIS_COMPARE_REPORT_H

#include <stdio.h>

#include "compare.h"

struct compare_report {
	const char *label[2]; /* "A: stock", "B: kernel 6.1" */
	const char *path[2];
	u64 seed_first, seed_last;
	u64 from, to; /* the window, ns */
	const struct compare *c;
	/* the first seed's first divergence; event[s] is its line (NULL: that side made none) */
	bool diverged;
	u64 div_time;
	const char *event[2];
	int nr_fail_if;
	const struct diff_expr *fail_if;
};

void compare_report_text(FILE *out, const struct compare_report *r);
void compare_report_json(FILE *out, const struct compare_report *r);
/* How many --fail-if conditions hold. */
int compare_report_failed(const struct compare_report *r);

#endif
