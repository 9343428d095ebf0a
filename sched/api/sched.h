/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's public API: create an engine for a scenario, drive it, read
 * its state. Users (src/, ui/, tests) include only this header.
 */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include "event.h"
#include "features.h"
#include "scenario.h"
#include "types.h"

struct sched_engine;

/* nice -20..19 -> load weight (kernel/sched/core.c's table) */
extern const int sched_prio_to_weight[40];

/* Called for every event, in stream order. The event is valid during the call. */
typedef void (*sched_event_fn)(void *ctx, const struct sched_event *ev);

/* NULL on failure, with a message in err (for example a scenario that needs
 * more memory than allowed). */
struct sched_engine *sched_engine_create(const struct sched_scenario *sc,
					 char *err, size_t errlen);
void sched_engine_destroy(struct sched_engine *e);

/* A text an event refers to by id (EV_EXT_*'s text): "" for an unknown id.
 * Valid while the engine lives. */
const char *sched_text(const struct sched_engine *e, u32 id);

/* The program's out-of-memory policy, for every allocation the engine makes
 * (sched/alloc.c): fn does not return. Until one is set the engine prints
 * what it could not have and aborts. Process-wide. */
void sched_set_oom_handler(void (*fn)(const char *what, size_t size));

/* Listeners are called in the order they were added; at most 8. */
int sched_add_listener(struct sched_engine *e, sched_event_fn fn, void *ctx);
void sched_remove_listener(struct sched_engine *e, sched_event_fn fn, void *ctx);

/* ---- SCHED_DEADLINE bandwidth (dl_bw.c: pure, shared with the parsers) ---- */

/* __checkparam_dl(): 1024 ns <= runtime <= deadline <= period (0 = deadline),
 * period in 100 us .. 2^22 us. */
bool sched_dl_params_valid(u64 runtime, u64 deadline, u64 period);
/* Admission control over the whole scenario: every SCHED_DEADLINE task's
 * bandwidth (and 6.12's fair servers) against sched_rt_runtime_us /
 * sched_rt_period_us of every CPU's capacity, counted as if all lived at
 * once, then each `set policy` action (sorted by time) in turn. 1 with the
 * index of the first task or action that does not fit in *bad_task or
 * *bad_action (the other -1); 0 when all fit. */
int sched_dl_admission_check(const struct sched_scenario *sc, int *bad_task, int *bad_action);

/* ---- driving ---- */

u64 sched_now(const struct sched_engine *e);
/* Time of the next pending timer, or U64_MAX when nothing is left. */
u64 sched_next_time(const struct sched_engine *e);
/* Process every timer due at the earliest pending time; false at the end
 * (duration reached or nothing left to happen). */
bool sched_step(struct sched_engine *e);
/* Process every timer due at or before t; the clock then reads t. */
void sched_run_until(struct sched_engine *e, u64 t);
bool sched_finished(const struct sched_engine *e);
/* Number of events emitted so far (= seq of the next one). */
u64 sched_nr_events(const struct sched_engine *e);
/* Number of sched_step() calls that fired a timer: a position in the run. */
u64 sched_nr_steps(const struct sched_engine *e);
/* Apply a command now; it becomes an EV_COMMAND event. 0 or -1 with err. */
int sched_apply_command(struct sched_engine *e, const struct sched_command *c,
			char *err, size_t errlen);

/*
 * Invariant checks (invariants.c): with a handler, the whole state is
 * checked after every step and command, as the kernel's SCHED_WARN_ON
 * checks would; a violation is passed to fn as "invariant NAME violated on
 * CPU N at T ns: ..." and then aborts. NULL turns them off (the default).
 */
typedef void (*sched_invariant_fn)(void *ctx, const char *msg);
void sched_set_invariant_check(struct sched_engine *e, sched_invariant_fn fn, void *ctx);

/* ---- checkpoints: the whole mutable state is one arena ---- */

size_t sched_state_size(const struct sched_engine *e);
void sched_state_save(const struct sched_engine *e, void *buf);
void sched_state_restore(struct sched_engine *e, const void *buf);

/* ---- reading ---- */

const struct sched_scenario *sched_scenario_of(const struct sched_engine *e);
int sched_nr_cpus(const struct sched_engine *e);
int sched_nr_tasks(const struct sched_engine *e);
/* Task index from pid, -1 for the idle task or an unknown pid. */
int sched_task_by_pid(const struct sched_engine *e, int pid);
/* "swapper/N" for pid 0, the task's name otherwise; valid as long as the engine. */
const char *sched_comm(const struct sched_engine *e, int pid, int cpu);

enum sched_task_state {
	TASK_NEW,		/* not forked yet */
	TASK_RUNNING,		/* running or runnable (on a runqueue) */
	TASK_INTERRUPTIBLE,	/* sleeping or waiting */
	TASK_DEAD,
};

struct sched_avg_info {
	u64 load_avg, runnable_avg, util_avg;
};

struct sched_task_info {
	int pid;
	const char *name;
	int state;		/* enum sched_task_state */
	bool on_cpu;		/* currently running */
	bool on_rq;		/* queued (including delayed dequeue) */
	bool sched_delayed;	/* DELAY_DEQUEUE: blocked but still queued */
	int cpu;
	int policy, nice, prio;
	unsigned int rt_priority;	/* SCHED_FIFO/RR */
	u64 dl_runtime, dl_deadline, dl_period;	/* SCHED_DEADLINE reservation */
	s64 dl_runtime_left;		/* its budget now */
	u64 dl_abs_deadline;		/* its absolute deadline, ns of simulated time */
	bool dl_throttled;
	u64 weight;		/* se->load.weight, scaled (nice 0 = 1048576) */
	u64 vruntime, deadline, slice;
	s64 vlag;		/* V - vruntime now (queued) or as saved */
	bool eligible;
	u64 sum_exec_runtime;
	u64 run_delay;		/* sched_info.run_delay */
	u64 pcount;		/* sched_info.pcount: times it got a CPU */
	u64 nr_wakeups, nr_migrations;
	u64 nvcsw, nivcsw;	/* voluntary / involuntary switches */
	int group;		/* index in scenario.group, 0 = root */
	struct sched_avg_info avg;
	/* the ext class (schedscope-ext(7)), when the task is on it */
	bool ext;
	u64 ext_slice;	/* p->scx.slice: ns left */
	u64 ext_vtime;	/* p->scx.dsq_vtime */
	u32 ext_weight; /* p->scx.weight: 1..10000, 100 for nice 0 */
	u64 ext_dsq;	/* the queue it waits in (SCX_DSQ_LOCAL_ON | cpu for a local one), or
				   SCX_DSQ_INVALID: running, or held by the policy itself */
};

void sched_task_info(const struct sched_engine *e, int task, struct sched_task_info *out);

struct sched_cpu_info {
	int cpu;
	int curr_pid;		/* 0 when idle */
	int nr_running;
	bool idle;
	bool tick_stopped;	/* NO_HZ: no tick while idle */
	u64 clock, clock_task;	/* rq clocks: from boot, 1 s before time 0 */
	u64 min_vruntime;	/* CFS: min_vruntime; EEVDF: the reference v0 */
	u64 avg_vruntime;	/* EEVDF: V */
	u64 load_weight;	/* cfs_rq->load.weight, scaled */
	struct sched_avg_info avg;	/* cfs_rq PELT */
	u32 capacity;
	u64 nr_switches;
	u64 irq_time, steal_time;	/* interruptions that ended so far, ns */
	bool interrupted;		/* in an interrupt or stolen right now */
	u64 irq_util;			/* avg_irq.util_avg: the PELT share of interrupt and steal time */
	int throttled_queues;		/* task groups' queues throttled on this CPU (cpu.max) */
	int throttled_tasks;		/* the tasks they hold off it */
	int rt_nr_running;	/* RT tasks queued (throttled or not) */
	bool rt_throttled;
	u64 rt_time;		/* RT time charged this period (<= 6.11) */
	int dl_nr_running;	/* deadline entities queued, the fair server included */
	bool fair_server_active;
	s64 fair_server_runtime;	/* its budget left */
	int ext_nr_local;		/* tasks on the ext class's local dispatch queue */
};

void sched_cpu_info(const struct sched_engine *e, int cpu, struct sched_cpu_info *out);

/* Tasks queued on a CPU (the running one first, then the queued ones in
 * each queue's order, a group's queue expanded where its entity stands).
 * Returns how many were written (at most max). */
int sched_cpu_queue(const struct sched_engine *e, int cpu, int *tasks, int max);

/* A task group now: its cgroup settings and its bandwidth state. */
struct sched_group_info {
	const char *path;
	int parent;		/* -1 for the root */
	int depth;		/* 0 for the root */
	u64 shares;		/* tg->shares unscaled (cpu.shares; cpu.weight 100 = 1024) */
	bool idle;		/* cpu.idle */
	u64 quota, period, burst;	/* cpu.max (quota RUNTIME_INF = max), cpu.max.burst */
	u64 runtime;		/* left in the pool this period */
	long load_avg;		/* tg->load_avg: Σ of its queues' load contributions */
	u64 nr_periods, nr_throttled, throttled_time, nr_bursts, burst_time;	/* cpu.stat */
	u64 period_expires;	/* next refill, ns (0 when the period timer is idle) */
};
void sched_group_info(const struct sched_engine *e, int group, struct sched_group_info *out);

/* A group on one CPU: its entity on the parent's queue and its own queue. */
struct sched_group_cpu_info {
	u64 weight;		/* the group entity's load.weight, scaled: calc_group_shares() */
	bool on_rq, curr;	/* the entity is queued / running on the parent's queue */
	u64 vruntime, deadline, slice;
	s64 vlag;
	bool eligible;
	int nr_running, h_nr_running;	/* the group's queue */
	u64 load_avg, util_avg;		/* the queue's PELT */
	u64 tg_load_avg_contrib;
	u64 h_load;			/* as the balancer would compute it now */
	bool throttled;			/* the queue (cfs_rq_throttled) */
	int nr_throttled_tasks;		/* tasks held off the CPU by this queue's throttle (to 6.17: all
					   below it; 6.18+: those taken off to its limbo list) */
	int throttle_count;		/* it or an ancestor is throttled */
	s64 runtime_remaining;
};
void sched_group_cpu_info(const struct sched_engine *e, int group, int cpu, struct sched_group_cpu_info *out);
int sched_nr_groups(const struct sched_engine *e);
/* What group weights cost so far: calc_group_shares() calls (the modern
 * scheme) and cfs_rq visits by tg_shares_up() walks (TG_SHARES_UP_WALK). */
void sched_shares_cost(const struct sched_engine *e, u64 *calc_group_shares, u64 *walk_visits);

/* One entity queued on a group's queue on a CPU: a task, or a child group. */
struct sched_entity_info {
	int task;		/* task index, or -1 for a group entity */
	int group;		/* the child group it stands for, or -1 for a task */
	bool curr;		/* the queue's running entity */
	bool sched_delayed;
	bool eligible;
	u64 weight;		/* load.weight, scaled */
	u64 vruntime, deadline, slice;
	s64 vlag;		/* V - vruntime (EEVDF) */
	u64 sum_exec_runtime;
	int h_nr_running;	/* a group's tasks below it */
	/* EEVDF: curr's slice is protected (protect_slice(), RUN_TO_PARITY before
	 * 6.17) until its vruntime reaches vprot: its deadline before 6.17, the
	 * shortest slice queued from 6.17 on. */
	bool protect;
	u64 vprot;
	/* the real time it may run before the tick preempts it: se->slice
	 * (EEVDF), sched_slice() (CFS) */
	u64 ideal_slice;
	bool buddy_next, buddy_last, buddy_skip; /* cfs_rq->next, ->last, ->skip */
};
/* The queue of `group` on `cpu` (group 0: the CPU's root cfs_rq): the running
 * entity first, then the waiting ones in the tree's order. Returns how many. */
int sched_cfs_rq_entities(const struct sched_engine *e, int cpu, int group, struct sched_entity_info *out,
			  int max);
/* That queue's V (EEVDF), min_vruntime and load weight. */
struct sched_cfs_rq_info {
	u64 min_vruntime, avg_vruntime, load_weight;
	int nr_running, h_nr_running;
};
void sched_cfs_rq_info(const struct sched_engine *e, int cpu, int group, struct sched_cfs_rq_info *out);

/* Which rule decided the pick (sched_cfs_rq_pick()). */
enum sched_pick_why {
	PICK_IDLE,	  /* nothing queued */
	PICK_ONLY,	  /* the only entity */
	PICK_NEXT_BUDDY,  /* EEVDF (PICK_BUDDY): the eligible next buddy; CFS: the wakee, within
				   wakeup_granularity of the leftmost */
	PICK_PROTECTED,	  /* EEVDF: curr, eligible, keeps its protected slice */
	PICK_EARLIEST,	  /* EEVDF: the earliest virtual deadline among the eligible */
	PICK_LEFTMOST,	  /* CFS: the smallest vruntime, curr included */
	PICK_SKIP_SECOND, /* CFS: the leftmost yielded; the runner-up is close enough */
	PICK_LAST_BUDDY,  /* CFS: the preempted task, within wakeup_granularity */
	NR_PICK_WHYS
};

/* What pick_next_entity() would take from this queue now, and why. */
struct sched_pick_info {
	int index;	 /* in sched_cfs_rq_entities()'s order; -1 when nothing is queued */
	int why;	 /* enum sched_pick_why */
	bool delayed;	 /* a delayed entity: picking it dequeues it, and the pick runs again */
	int nr_eligible; /* EEVDF: entities with lag >= 0 */
};
/* Asks the engine's own pick, changing nothing: curr's vruntime is as last
 * charged (the engine runs update_curr() first when it schedules). */
void sched_cfs_rq_pick(const struct sched_engine *e, int cpu, int group, struct sched_pick_info *out);

/* ---- the ext class: a policy plug-in (schedscope-ext(7)) ---- */

struct sched_ext_info {
	bool loaded;	      /* the scenario loads a policy */
	bool enabled;	      /* it schedules now (false before time 0 and after its exit) */
	bool partial;	      /* SCX_OPS_SWITCH_PARTIAL: only SCHED_EXT tasks are its */
	const char *name;     /* ops.name */
	unsigned exit_kind;   /* enum scx_exit_kind, SCX_EXIT_NONE while it runs */
	const char *exit_msg; /* what the exit said */
	int nr_dsqs;	      /* shared queues: the global ones (one per node), then the policy's */
};
void sched_ext_info(const struct sched_engine *e, struct sched_ext_info *out);

struct sched_ext_dsq_info {
	u64 id; /* SCX_DSQ_GLOBAL, or the ID the policy created it with */
	int node;
	int nr;	    /* tasks queued */
	bool vtime; /* ordered by p->scx.dsq_vtime */
};
/* Shared queue i (0 .. nr_dsqs - 1): destroyed ones are left out of the count. */
void sched_ext_dsq(const struct sched_engine *e, int i, struct sched_ext_dsq_info *out);
/* Task indexes queued on shared queue i, or on cpu's local queue (i = -1 - cpu),
 * head first; returns how many were written (at most max). */
int sched_ext_dsq_tasks(const struct sched_engine *e, int i, int *tasks, int max);

/* Effective tunable and feature values now. */
u64 sched_tunable_value(const struct sched_engine *e, enum sched_tunable t);
bool sched_feature_enabled(const struct sched_engine *e, enum sched_feature f);
int sched_kernel_version(const struct sched_engine *e);
int sched_kernel_stable(const struct sched_engine *e);
int sched_variant(const struct sched_engine *e);

/* The name (SMT, MC, PKG, NUMA...) of cpu's domain at depth, NULL past the top. */
const char *sched_domain_name(const struct sched_engine *e, int cpu, int depth);

#endif
