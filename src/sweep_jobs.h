/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a sweep's cells, one process per cell (the engine is
 * single-threaded: the parallelism is across cells), at most `jobs` at a
 * time. Each worker reports its cell as one JSON object on a pipe; the
 * results land at their cell numbers, so nothing depends on which finished
 * first.
 */
#ifndef SRC_SWEEP_JOBS_H
#define SRC_SWEEP_JOBS_H

#include "src/analysis/sweep_file.h"

/* The CPUs this process may run on: the default number of jobs. */
int sweep_default_jobs(void);

/* Called in the parent as each cell lands in r->cell[cell]. */
typedef void (*sweep_done_fn)(void *ctx, const struct sweep_results *r, int cell, int running);

/* Run the cells of r's shard that are not in r yet. -1 (message printed) when
 * no worker could be started at all. */
int sweep_jobs_run(struct sweep_results *r, int jobs, sweep_done_fn done, void *ctx);

#endif
