/* SPDX-License-Identifier: GPL-2.0 */
/* The end-of-run report, as text for people or as one JSON object for tools. */
#ifndef SRC_REPORT_H
#define SRC_REPORT_H

#include <stdio.h>

#include "sched/api/sched.h"
#include "src/format/scenario_file.h"
#include "stats.h"

struct report {
	const struct scenario_file *f;
	const struct sched_engine *e;
	const struct stats *st;		/* over the report window */
	u64 wall_ns;			/* host time the run took: the one non-deterministic field */
	int nr_checks;			/* expects evaluated (with --check) */
	const char *const *check_msg;	/* [nr_checks] verdict lines */
	const bool *check_ok;		/* [nr_checks] */
};

void report_text(FILE *out, const struct report *r);
void report_json(FILE *out, const struct report *r);

#endif
