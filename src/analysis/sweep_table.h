/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's results as people read them: per variant (a cell less its
 * seed), each row's metrics as the mean and spread over the seeds; the
 * expects that failed; the pass/fail matrix; and a CSV for spreadsheets.
 * Everything is computed from the cells in cell order, so it is the same
 * however the cells were run.
 */
#ifndef SRC_ANALYSIS_SWEEP_TABLE_H
#define SRC_ANALYSIS_SWEEP_TABLE_H

#include <stdio.h>

#include "sweep_file.h"

/* Over the seeds of a variant: the cells that ran. */
struct sweep_stat {
	int n;
	double mean, sd, min, max; /* sd: the sample standard deviation (0 for one seed) */
};

enum {
	SIDE_A,
	SIDE_B,
	SIDE_DIFF,
	NR_SIDES
}; /* B - A, seed by seed */

struct sweep_vrow {
	char name[64];
	bool group;
	struct sweep_stat m[NR_SIDES][NR_SWEEP_METRICS];
	struct lat_hist lat[2]; /* A and B: every wakeup of every seed */
};

struct sweep_variant {
	int scen;
	int first_cell, nr_cells; /* its cells: one per seed */
	struct sweep_coord coord; /* its first cell's */
	char label[256];	  /* the swept values, seed left out */
	int count[NR_CELL_STATUS];
	int nr_rows;
	size_t cap_rows;
	struct sweep_vrow *row;
};

/* The variants of the cells present, in cell order. */
void sweep_variants(const struct sweep_results *r, struct sweep_variant **out, int *n);
void sweep_variants_free(struct sweep_variant *v, int n);

/* The table, then the expects that failed and the cells that did not run. */
void sweep_table_text(FILE *out, const struct sweep_results *r, const struct sweep_variant *v, int n);
/* Pass/fail: a line per scenario and kernel, a column per topology. */
void sweep_matrix_text(FILE *out, const struct sweep_results *r);
/* One line per cell, side and row. 0, or -1 when the file could not be written. */
int sweep_write_csv(FILE *out, const struct sweep_results *r);
/* Totals by status, of the cells present. */
void sweep_count(const struct sweep_results *r, int count[NR_CELL_STATUS]);

#endif
