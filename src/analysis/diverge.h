/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where two runs first decide differently. The decisions are the events a
 * scheduler change shows in: switches, wakeups and their placement,
 * migrations, forks and exits, throttling, commands. Bookkeeping and the
 * records that explain a decision (select_task_rq, load_balance, runtime
 * updates) are not compared; they say why, and a caller finds them from
 * the decision's seq. Two decisions are the same when their time, kind, CPU
 * and task(s) are. The runs are lined up at `from`: the first decision of
 * each at or after it, then pair by pair until two differ or a side has
 * none left, so "the next divergence after T" is a search from T + 1.
 */
#ifndef SRC_ANALYSIS_DIVERGE_H
#define SRC_ANALYSIS_DIVERGE_H

#include "sched/api/history.h"
#include "sched/api/sched.h"

struct divergence {
	u64 time;		  /* the earlier of the two events */
	bool has[2];		  /* false: that side made no decision at or after it */
	struct sched_event ev[2]; /* A's and B's (valid where has[]) */
};

struct diverge_queue {
	struct sched_event *e;
	size_t head, n, cap;
};

/* The comparison of two streams fed as they come (listeners on two engines). */
struct diverge {
	u64 from, until;	   /* decisions compared: from <= time <= until */
	struct diverge_queue q[2]; /* one side's decisions the other has not matched yet */
	bool ended[2];
	bool found;
	struct divergence d;
	u64 matched; /* pairs that were the same */
};

/* Is ev a decision the comparison looks at? */
bool diverge_is_decision(const struct sched_event *ev);
/* Are two decisions the same: time, kind, CPU and the task(s) they move? */
bool diverge_same(const struct sched_event *a, const struct sched_event *b);

void diverge_init(struct diverge *d, u64 from, u64 until);
void diverge_free(struct diverge *d);
/* sched_event_fns for side A and B; ctx is the struct diverge. */
void diverge_event_a(void *ctx, const struct sched_event *ev);
void diverge_event_b(void *ctx, const struct sched_event *ev);
/* Side 0 (A) or 1 (B) will send nothing more at or before `until`. */
void diverge_end(struct diverge *d, int side);

/*
 * Run two engines forward together (each a step when the comparison waits
 * for it) from where they stand, until the first divergence at or after
 * `from`, or both pass `until`. 1 with *out filled, 0 when none, -1 when
 * an engine has no room for another listener.
 */
int diverge_engines(struct sched_engine *a, struct sched_engine *b, u64 from, u64 until,
		    struct divergence *out);
/*
 * Run both engines to `end` (listeners already on them do the rest), in
 * step while d, fed by their events, has not found the first divergence:
 * each runs lockstep_ns ahead, then the other catches up, so the queue
 * holds that much of one side's decisions at most. d is ended.
 */
void diverge_run_pair(struct sched_engine *a, struct sched_engine *b, u64 end, struct diverge *d,
		      u64 lockstep_ns);
/* The same over what two histories have logged: both must have run to
 * `until` (a log that stops short reads as a side that did nothing). */
int diverge_logs(struct sched_history *a, struct sched_history *b, u64 from, u64 until,
		 struct divergence *out);

#endif
