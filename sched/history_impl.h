/* SPDX-License-Identifier: GPL-2.0 */
/* The history's own state, shared by history.c and history_branch.c. */
#ifndef SCHED_HISTORY_IMPL_H
#define SCHED_HISTORY_IMPL_H

#include "internal.h"
#include "api/history.h"

struct checkpoint {
	u64 time, nr_events, nr_steps;
	int nr_cmd; /* commands already applied in this state */
	void *data;
	char *name;
};

struct logged_command {
	u64 nr_steps; /* applied after this many steps */
	u64 time;     /* ... with the clock reading this (it may be past the step) */
	struct sched_command cmd;
};

/* A named checkpoint of a branch not followed now: where to take it again. */
struct branch_point {
	char *name;
	u64 nr_steps, time;
	int nr_cmd;
};

/*
 * A line of history: its commands and its own named checkpoints. The
 * engine is deterministic, so that is all it takes to regenerate it by
 * replay. The branch being followed keeps them in struct sched_history.
 */
struct branch {
	char name[HISTORY_BRANCH_NAME];
	struct logged_command *cmd;
	int nr_cmd;
	struct branch_point *cp;
	int nr_cp;
	u64 fork_time; /* where it left the branch it came from */
};

struct sched_history {
	struct sched_engine *e;
	size_t budget, bytes, state_size;
	u64 interval;

	struct checkpoint *cp;
	int nr_cp, cap_cp;

	struct sched_event *log;
	u64 nr_log, cap_log;
	u64 mismatches;

	struct logged_command *cmd; /* in the order they were applied */
	int nr_cmd, cap_cmd;
	int cmd_next; /* the first one not applied in the current state */

	struct {
		sched_event_fn fn;
		void *ctx;
	} listener[8];
	int nr_listeners;

	struct branch *br; /* br[cur] is the one followed */
	int nr_br, cap_br, cur;
	int branches_made; /* names the next one */

	/* the predicate of history_run_until_event while it runs */
	bool (*stop_fn)(void *ctx, const struct sched_event *ev);
	void *stop_ctx;
	s64 stop_seq;
};

void history_take_checkpoint(struct sched_history *h, const char *name);
void history_drop_checkpoint(struct sched_history *h, int i);
/* Re-apply the recorded commands due at this step, up to time `limit`
 * and below index `max_cmd`. */
void history_replay_commands(struct sched_history *h, u64 limit, int max_cmd);

/* Branch bookkeeping (history_branch.c). */
void history_branches_init(struct sched_history *h);
void history_branches_free(struct sched_history *h);
/* Before a change at the current point drops the future: keep that future
 * (the commands and the named checkpoints beyond this point) as a branch,
 * and follow a new one. Nothing when there is no future. */
void history_keep_future(struct sched_history *h);
/* A checkpoint beyond the current point (a change here drops it). */
bool history_checkpoint_beyond(const struct sched_history *h, int i);

#endif
