/* SPDX-License-Identifier: GPL-2.0 */
/* --rewind-check: rewinding and running forward again must reproduce the run exactly. */
#ifndef SRC_REWIND_CHECK_H
#define SRC_REWIND_CHECK_H

#include "sched/api/history.h"

struct rewind_check_result {
	int targets;
	u64 mismatches;		/* re-executed events that differ from the log */
	int state_diffs;	/* targets after which the final state differed */
	u64 p50_ns, p99_ns, max_ns;	/* wall time of the rewinds themselves */
};

/*
 * The history must have run to `end` already. Rewinds to n times drawn from
 * a generator seeded with `seed`, runs forward to `end` after each, and
 * compares the events and the final state with the first run. go_on (if
 * not NULL) is asked after each step of a replay: false stops the check
 * there, with the targets done so far counted.
 */
void rewind_check(struct sched_history *h, u64 end, int n, u64 seed, struct rewind_check_result *r,
		  bool (*go_on)(void *ctx, struct sched_engine *e), void *ctx);

#endif
