/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migrations view's lines, kept as the log grows: the seq of every
 * sched_migrate_task and schedscope_herd in log order, and for each
 * migration the first herd record that took it in. A history listener
 * fills it as events are first emitted, so a frame reads only the lines it
 * draws instead of walking the log back to them.
 */
#ifndef UI_MIG_INDEX_H
#define UI_MIG_INDEX_H

#include "sched/api/sched.h"

#define MIG_NO_HERD (~0ULL)

struct mig_index {
	struct mig_entry {
		u64 seq;
		u64 herd; /* a migration's first herd record (MIG_NO_HERD: none); a herd's own seq */
	} * e;
	size_t nr, cap;
};

void mig_index_free(struct mig_index *x);
/* A history listener (history_add_listener()). */
void mig_index_event(void *ctx, const struct sched_event *ev);
/* How many lines lie before seq (the index of the first at or after it). */
size_t mig_index_before(const struct mig_index *x, u64 seq);

#endif
