/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics computed from the event stream over a window of simulated
 * time: what the report and the expects measure. The engine keeps the
 * kernel's own counters; these are what a tracer would compute from
 * sched_switch/sched_wakeup, clipped to the window.
 */
#ifndef SRC_STATS_H
#define SRC_STATS_H

#include "sched/api/event.h"

/* Log-linear latency histogram: 16 sub-buckets per power of two (error < 6.25 %),
 * plus the exact maximum. */
#define LAT_SUB 16
#define LAT_OCTAVES 48
struct lat_hist {
	u64 count;
	u64 max;
	u32 bucket[LAT_OCTAVES * LAT_SUB];
};

/*
 * rt-app's per-period log, one period per `timer` the task reaches: from
 * the task's return from one timer to its return from the next (its fork
 * for the first). rt-app's log columns: run (CPU time in the period),
 * period, slack (expiry - time the timer was reached, < 0 when late),
 * wu_lat (running again - expiry; 0 when the expiry had passed).
 *
 * A task whose program has `log` statements (rt-app's phases, imported)
 * gets one row per `log` instead, one loop of a phase as rt-app logs it:
 * from the previous `log` (its first run for the first) to this one; run
 * is the time from the start to the end of each of its `run`s (rt-app
 * times its run events by the clock, so preemptions count), c_duration
 * what they asked for, and the timers' columns summed over the loop
 * (slack the last one's).
 */
struct period_row {
	u64 start, end;		/* end - start = period */
	u64 run;
	s64 slack;
	u64 wu_lat;
	u64 c_period;	/* the timers' periods as written */
	u64 c_duration; /* the `run`s as written (log rows; 0 in timer rows) */
	bool missed;
};

/* A loop of an rt-app phase in progress (tasks with `log` statements). */
struct loop_row {
	bool started;
	u64 start;
	u64 run_wall, run_asked; /* the task's counts at the loop's start */
	s64 slack;
	u64 c_period, wu_lat;
};

struct period_stats {
	u64 periods, missed;	/* periods ending inside the window */
	u64 period_sum, period_max;
	u64 run_sum, run_max;
	s64 slack_sum, slack_min;
	u64 wu_lat_sum, wu_lat_max;
	/* tracking, not results */
	struct period_row row;	/* the period in progress */
	bool pending;		/* waiting to run again after its timer */
	u64 expires;
	u64 last_exec;		/* the task's CPU time at its previous timer */
};

struct task_stats {
	u64 cpu_ns;		/* running, inside the window */
	u64 wait_ns;		/* runnable but not running, inside the window */
	u64 slices;		/* switched in */
	u64 wakeups;		/* sched_wakeup (+ wakeup_new) */
	u64 migrations;
	u64 preemptions;	/* switched out with prev_state R */
	u64 runtime_ns;		/* what the scheduler charged it (sched_stat_runtime) */
	u64 dl_throttles;	/* SCHED_DEADLINE: runtime ran out (or yielded) */
	u64 dl_misses;		/* SCHED_DEADLINE: jobs that ended past their deadline */
	struct lat_hist lat;	/* sched_wakeup -> switched in */
	struct period_stats per;	/* rt-app's per-period view */
	bool logs;			/* its program has `log` statements: period_fn gets one row per log */
	struct loop_row loop;
	/* tracking, not results */
	int state;		/* 0 not runnable, 1 runnable waiting, 2 running */
	u64 since;		/* when the current state began */
	u64 woken_at;		/* pending wakeup, ~0 when none */
	int cpu;		/* last CPU it was seen on, -1 before */
};

/* /proc/schedstat's per-domain load-balance counters, by enum cpu_idle_type. */
struct lb_level_stats {
	u64 lb_count[CPU_MAX_IDLE_TYPES];
	u64 lb_balanced[CPU_MAX_IDLE_TYPES];	/* no imbalance, not our turn, or all pinned */
	u64 lb_failed[CPU_MAX_IDLE_TYPES];	/* imbalance found, nothing moved */
	u64 lb_imbalance[CPU_MAX_IDLE_TYPES];	/* sum of the imbalances found */
	u64 lb_gained[CPU_MAX_IDLE_TYPES];	/* tasks pulled */
	u64 lb_hot_gained[CPU_MAX_IDLE_TYPES];	/* ... of them cache hot */
	u64 lb_nobusyq[CPU_MAX_IDLE_TYPES];
	u64 lb_nobusyg[CPU_MAX_IDLE_TYPES];
	u64 alb_count, alb_failed, alb_pushed;	/* active balance pushes to this CPU */
};

#define STATS_MAX_LEVELS 8

struct cpu_stats {
	u64 busy_ns, idle_ns;
	u64 irq_ns, steal_ns;	/* interruptions that ended in the window */
	u64 switches;
	/* wakeups this CPU issued, and where they went (schedstat's ttwu_*) */
	u64 ttwu_count, ttwu_local, ttwu_wake_remote, ttwu_move_affine;
	struct lb_level_stats lb[STATS_MAX_LEVELS];	/* by domain depth */
	int nr_levels;		/* depths seen + 1 */
	u64 rt_throttles;	/* times the CPU's rt_rq was throttled (<= 6.11) */
	u64 fair_server_throttles;	/* times the fair server used up its runtime (6.12+) */
	int curr_pid;
	u64 since;
};

/* A task group's cpu.stat over the window. */
struct group_stats {
	u64 usage_ns;		/* CPU time of its tasks and its descendants' */
	u64 nr_periods;		/* bandwidth periods that ended */
	u64 nr_throttled;	/* of those, periods with a throttled queue */
	u64 throttled_ns;	/* Σ over CPUs of the time its queues were throttled */
	u64 nr_bursts, burst_ns;
	u64 throttles;		/* throttle events (a queue left its CPU) */
	int parent;		/* -1 for the root */
};

struct stats {
	u64 from, to;		/* window [from, to) in ns */
	int nr_tasks, nr_cpus, nr_groups;
	struct task_stats *task;	/* [nr_tasks]; pid = index + 1 */
	struct cpu_stats *cpu;		/* [nr_cpus] */
	struct group_stats *group;	/* [nr_groups] */
	const char **group_name;	/* [nr_groups]: paths, for expects */
	int *task_group;		/* [nr_tasks]: the group each task is in now */
	u64 events;		/* events inside the window */
	u64 migrations[NR_MIGRATE_REASONS];	/* sched_migrate_task, by cause */
	u64 herds[NR_HERD_CAUSES];		/* schedscope_herd, by cause */
	u64 ext_dispatches[NR_EXT_OPS];		/* schedscope_ext_dispatch, by the operation that made it */
	u64 ext_exits[NR_EXT_EXIT_KINDS];	/* schedscope_ext_exit, by kind */
	u64 end;		/* time the statistics were closed at */
	/* called for each period ending inside the window (task index), when set */
	void (*period_fn)(void *ctx, int task, const struct period_row *row);
	void *period_ctx;
};

/* -1 for negative counts or a window that ends before it starts. */
int stats_init(struct stats *st, int nr_tasks, int nr_cpus, u64 from, u64 to);
struct sched_scenario;
/* stats_init() plus group accounting: the groups' parents and each task's starting group. */
void stats_init_scenario(struct stats *st, const struct sched_scenario *sc, u64 from, u64 to);
void stats_free(struct stats *st);
/* A sched_event_fn: feed every event of the stream, in order. */
void stats_event(void *st, const struct sched_event *ev);
/* Close open intervals at `now` (clipped to the window). */
void stats_finish(struct stats *st, u64 now);
/* Count a sample of v ns. */
void lat_hist_add(struct lat_hist *h, u64 v);
/* p50/p99/max wakeup latency in ns (enum expect_stat), 0 without samples. */
u64 lat_hist_value(const struct lat_hist *h, int stat);
/* The smallest value that lands in bucket b. */
u64 lat_bucket_lower(unsigned b);

#endif
