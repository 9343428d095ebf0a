/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time travel over one engine: automatic and named checkpoints within a
 * memory budget, the log of every event emitted so far, rewind to any time
 * (restore the newest checkpoint at or before it, replay deterministically),
 * and run-time commands kept as part of the history.
 *
 * Going forward again after a rewind re-executes the engine; its events are
 * checked against the log instead of being delivered twice. Applying a
 * command at a point behind the newest one reached starts a new branch: the
 * old future leaves the log and the checkpoints, and is kept as a named
 * branch (its commands and named checkpoints: the engine is deterministic,
 * so switching back regenerates it by replay).
 */
#ifndef SCHED_HISTORY_H
#define SCHED_HISTORY_H

#include "sched.h"

#define HISTORY_DEFAULT_BUDGET (256u << 20)
/* An automatic checkpoint after this many events bounds the replay of a rewind. */
#define HISTORY_DEFAULT_INTERVAL (1u << 16)
#define HISTORY_BRANCH_NAME 32

struct sched_history;

struct history_checkpoint_info {
	u64 time, nr_events, nr_steps;
	size_t bytes;
	const char *name;	/* NULL for automatic ones */
};

struct sched_history *history_create(struct sched_engine *e, size_t budget_bytes);
void history_destroy(struct sched_history *h);
struct sched_engine *history_engine(const struct sched_history *h);

/* Listeners see each event once: when it is first emitted, never on replay. */
int history_add_listener(struct sched_history *h, sched_event_fn fn, void *ctx);

/* One timer forward (sched_step); false at the end of the run. */
bool history_step(struct sched_history *h);
/* Forward until time t (sched_run_until). */
void history_run_until(struct sched_history *h, u64 t);
/* Forward until fn(ctx, ev) holds for an event emitted by a step, or time
 * `until` is passed, or the end; returns the seq of that event, or -1. */
s64 history_run_until_event(struct sched_history *h, u64 until,
			    bool (*fn)(void *ctx, const struct sched_event *ev), void *ctx);

/* Put the engine at time t: the state after every timer due at or before t. */
void history_goto_time(struct sched_history *h, u64 t);
/* Put the engine just after the step that emitted event seq. */
void history_goto_event(struct sched_history *h, u64 seq);

/* Apply a command now, as part of the history (see the branch rule above). */
int history_apply_command(struct sched_history *h, const struct sched_command *c,
			  char *err, size_t errlen);

int history_checkpoint(struct sched_history *h, const char *name);
/* Time of a named checkpoint, -1 if there is none of that name. */
s64 history_find_checkpoint(const struct sched_history *h, const char *name);
int history_nr_checkpoints(const struct sched_history *h);
void history_checkpoint_info(const struct sched_history *h, int i, struct history_checkpoint_info *out);
size_t history_bytes(const struct sched_history *h);	/* checkpoint memory in use */

/*
 * Branches: the first is "main", later ones b1, b2, ... in the order they
 * start. Index i is stable until history_destroy().
 */
struct history_branch_info {
	const char *name;
	u64 fork_time;	    /* where it left the branch it started from */
	int nr_commands;    /* run-time commands, from the start */
	int nr_checkpoints; /* named checkpoints of its own, away from it */
};
int history_nr_branches(const struct sched_history *h);
int history_current_branch(const struct sched_history *h);
void history_branch_info(const struct sched_history *h, int i, struct history_branch_info *out);
int history_find_branch(const struct sched_history *h, const char *name);
/* The first time the current branch and branch i differ (a command applied
 * in one and not the other); UINT64_MAX if they do not. */
u64 history_branch_fork(const struct sched_history *h, int i);
/* The branch holding a named checkpoint (the current one first), -1 if none. */
int history_checkpoint_branch(const struct sched_history *h, const char *name);
/* Follow branch i, with the engine at time t on it (its named checkpoints
 * are taken again on the way, by replay). */
void history_switch_branch(struct sched_history *h, int i, u64 t);
/* Give dst, a history of a new engine over the same scenario that has not
 * run yet, branch i of src's commands: it then runs as that branch. */
void history_copy_branch(struct sched_history *dst, const struct sched_history *src, int i);

/* The event log: every event up to the furthest point reached. */
u64 history_nr_logged(const struct sched_history *h);
const struct sched_event *history_event(const struct sched_history *h, u64 seq);
/* Events re-executed after a rewind that differed from the log (should stay 0). */
u64 history_mismatches(const struct sched_history *h);

#endif
