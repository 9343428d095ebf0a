/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rate the run really goes at, next to the one asked for: on a big
 * machine the engine cannot keep up with `:speed 1`, and the status line
 * must not claim it does.
 */
#ifndef UI_RATE_H
#define UI_RATE_H

#include <stdbool.h>
#include <stddef.h>

#include "sched/api/types.h"

/* the achieved rate is measured over this much wall time */
#define RATE_WINDOW_NS (500 * NSEC_PER_MSEC)

struct rate_meter {
	u64 wall, sim; /* this window's wall and simulated time so far */
	double real;   /* simulated seconds per wall second over the last window */
	bool known;    /* a whole window has been measured since the last reset */
};

/* wall_dt of wall time moved the simulation by sim_dt. */
void rate_add(struct rate_meter *m, u64 wall_dt, u64 sim_dt);
/* Paused, or the clock jumped: what came before says nothing of what follows. */
void rate_reset(struct rate_meter *m);
/* "1x", or "1x asked, 0.21x real" when the real rate is known and more than
 * a tenth away; "max" (asked 0) with its real rate once known. */
const char *rate_status(const struct rate_meter *m, double asked, char *buf, size_t len);

#endif
