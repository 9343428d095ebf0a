/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two runs' metrics side by side over one or more seeds: each task and
 * group of either side (matched by name), each metric's values per seed,
 * and per cell the means, the difference and Welch's t-test (welch.h).
 */
#ifndef SRC_ANALYSIS_COMPARE_H
#define SRC_ANALYSIS_COMPARE_H

#include "src/format/diff_expr.h"
#include "metrics.h"
#include "welch.h"

struct compare_row {
	char *name;
	bool group;
	double *v[2][NR_METRICS]; /* [side][metric][seed]: NAN where that run had no value */
};

struct compare {
	int nr_seeds;
	int nr_rows;
	size_t cap;
	struct compare_row *row;
};

void compare_init(struct compare *c, int nr_seeds);
void compare_free(struct compare *c);
/* Seed number `seed` (0 .. nr_seeds - 1) of side A and side B. */
void compare_add(struct compare *c, int seed, const struct metrics *a, const struct metrics *b);

struct compare_cell {
	bool has;		    /* both sides have a value for some seed */
	struct sample_summary s[2]; /* A's and B's values over the seeds */
	struct welch w;		    /* B - A */
	double rel;		    /* the change in percent of A's mean (infinite from 0) */
	bool significant;	    /* p < WELCH_ALPHA (needs two seeds on each side) */
};

void compare_cell(const struct compare *c, int row, int metric, struct compare_cell *out);

/* The first row at or after `from` that the condition's glob matches and
 * both sides have its metric for; -1 when none. */
int compare_match(const struct compare *c, const struct diff_expr *x, int from);
/* Does the condition hold for that row (on the means)? */
bool compare_holds(const struct compare *c, const struct diff_expr *x, int row);
/* The first row the condition holds for (on the means), at or after row
 * `from`; -1 when none. */
int compare_find(const struct compare *c, const struct diff_expr *x, int from);

#endif
