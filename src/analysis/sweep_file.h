/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's results: its plan and the cells that ran (all of them, or one
 * shard's), written as JSON by `sweep --out` and read back by `sweep merge`,
 * which joins the shards into what one run would have given.
 */
#ifndef SRC_ANALYSIS_SWEEP_FILE_H
#define SRC_ANALYSIS_SWEEP_FILE_H

#include <stdio.h>

#include "sweep_cell.h"
#include "sweep_plan.h"

#define SWEEP_FORMAT_VERSION 1

struct sweep_results {
	struct sweep_plan plan;
	int shard, nr_shards;	 /* 1 of 1: the whole matrix */
	struct sweep_cell *cell; /* [plan.nr_cells], by cell number */
	bool *have;		 /* [plan.nr_cells]: the cell is in these results */
};

/* The cells' arrays for the plan already in r->plan. */
void sweep_results_alloc(struct sweep_results *r);
void sweep_results_free(struct sweep_results *r);

/* 0, or -1 when the file could not be written. */
int sweep_write_json(FILE *out, const struct sweep_results *r);

/* Read a file that sweep_write_json() wrote; -1 with "path: why". */
int sweep_read_json(const char *path, struct sweep_results *r, char *err, size_t errlen);
/* The same from memory; name is for messages. */
int sweep_parse_json(const char *name, const char *text, size_t len, struct sweep_results *r, char *err,
		     size_t errlen);
/* One cell object (a worker's report); -1 with the reason (and *c empty). */
int sweep_cell_read(const char *text, size_t len, struct sweep_cell *c, char *err, size_t errlen);

/* Are these the same matrix (scenarios, axes, values, --vs-set, --window)? */
bool sweep_plan_equal(const struct sweep_plan *a, const struct sweep_plan *b);
/*
 * Move part's cells into into (same plan); a cell both hold is an error.
 * -1 with the reason in err.
 */
int sweep_merge(struct sweep_results *into, struct sweep_results *part, char *err, size_t errlen);
/* After merging: how many cells are missing, and the first few in err. */
int sweep_missing(const struct sweep_results *r, char *err, size_t errlen);

#endif
