/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A long headless run: a progress line on a terminal, and Ctrl-C. The
 * engine knows no signals and no wall clock, so every loop that drives it
 * for long (run, --break, side B, --rewind-check) steps it itself and asks
 * here after each step whether to go on.
 */
#ifndef SRC_RUN_PROGRESS_H
#define SRC_RUN_PROGRESS_H

#include <stdbool.h>

#include "sched/api/history.h"
#include "sched/api/sched.h"

struct run_progress {
	const char *what; /* "run", "side B", "rewind-check" */
	u64 end;	  /* the simulated time it runs to */
	bool shown;	  /* stderr is a terminal */
	u64 start, last;  /* wall clock: the start, the last line */
	u64 events0;
	unsigned steps;
	unsigned interrupts0; /* Ctrl-Cs before it started: they do not stop it */
};

/* The first Ctrl-C ends what runs (run_progress_step() says so); a second one kills. */
void run_catch_interrupt(void);
/* How many times Ctrl-C was pressed since run_catch_interrupt(). */
unsigned run_interrupts(void);

/* The wall clock (CLOCK_MONOTONIC), in ns. */
u64 run_wall_ns(void);

void run_progress_start(struct run_progress *p, const char *what, struct sched_engine *e, u64 end);
/*
 * After each step of e: every so many steps, the line on a terminal. False
 * once a Ctrl-C came after run_progress_start(): stop there.
 */
bool run_progress_step(struct run_progress *p, struct sched_engine *e);
/* Clears the line, if one was shown. */
void run_progress_end(struct run_progress *p);

/*
 * e (through h, if not NULL) run to end, as sched_run_until() and
 * history_run_until() do it: the same events, but the progress line and
 * Ctrl-C between steps. `what` names it on the line.
 */
void run_progress_until(const char *what, struct sched_engine *e, struct sched_history *h, u64 end);

#endif
