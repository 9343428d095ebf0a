/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One task's switches as `perf sched timehist` prints them, from the event
 * stream: at each sched_switch that takes the task off a CPU, its wait time
 * (off the CPU since it last left one), scheduling delay (from the wakeup,
 * or from being preempted, to the switch-in) and run time. The rules are
 * tools/perf/builtin-sched.c's (timehist_update_runtime_stats() and
 * timehist_sched_change_event()): tprev is the time of the CPU's previous
 * sched_switch; a switch-out in state R makes the task ready to run at once,
 * a sched_wakeup only when it was not ready already.
 */
#ifndef SRC_ANALYSIS_TIMEHIST_H
#define SRC_ANALYSIS_TIMEHIST_H

#include "sched/api/event.h"

/* the last rows are kept; the totals cover them all */
#define TIMEHIST_ROWS 256

struct timehist_row {
	u64 time; /* the sched_switch that took the task off the CPU */
	int cpu;
	u64 wait;   /* dt_wait: tprev - the task's previous switch-out */
	u64 delay;  /* dt_delay: tprev - ready_to_run */
	u64 run;    /* dt_run: time - tprev */
	char state; /* prev_state of the switch-out */
};

/* perf keeps "none" as time 0, which a real trace never has; a run starts at 0 */
#define TIMEHIST_NONE (~0ULL)

struct timehist {
	int pid;
	int nr_cpus;
	u64 *cpu_last;				/* per CPU, perf's evsel__get_time(): its last sched_switch */
	u64 last_time;				/* the task's last switch-out */
	u64 ready_to_run;			/* woken or preempted at */
	struct timehist_row row[TIMEHIST_ROWS]; /* a ring: row[(nr - 1) % TIMEHIST_ROWS] is the last */
	u64 nr;					/* rows so far */
	u64 total_wait, total_delay, total_run, max_delay;
};

void timehist_init(struct timehist *th, int pid, int nr_cpus);
void timehist_free(struct timehist *th);
void timehist_feed(struct timehist *th, const struct sched_event *ev);
/* The i-th of the rows kept, oldest first (i < MIN(nr, TIMEHIST_ROWS)). */
const struct timehist_row *timehist_row(const struct timehist *th, u64 i);

#endif
