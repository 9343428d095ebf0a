/* SPDX-License-Identifier: GPL-2.0 */
/* Running one cell of a sweep: load with its overrides, run, keep what the table needs. */
#ifndef SRC_ANALYSIS_SWEEP_RUN_H
#define SRC_ANALYSIS_SWEEP_RUN_H

#include "sweep_cell.h"
#include "sweep_plan.h"

/*
 * Run cell `index` of the plan (and its B side with --vs-set) into *c. A
 * cell whose scenario loads without the cell's machine (topology, kernel,
 * sched) but not with it does not apply (CELL_NA); any other failure to
 * load is bad input (CELL_ERROR); both say why in c->message.
 */
void sweep_run_cell(const struct sweep_plan *p, int index, struct sweep_cell *c);

#endif
