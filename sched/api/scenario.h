/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's input: an immutable description of a machine and a workload.
 * src/ builds it from .scn and .topo files; the engine only reads it, so a
 * checkpoint never needs to copy it.
 */
#ifndef SCHED_SCENARIO_H
#define SCHED_SCENARIO_H

#include "features.h"
#include "types.h"

/* ---- hardware ---- */

struct sched_topo_cpu {
	s32 package;	/* physical package (socket) */
	s32 node;	/* NUMA node */
	s32 llc;	/* last-level cache id, unique machine-wide */
	s32 cluster;	/* cluster (CLS) id, unique machine-wide; = llc when none */
	s32 core;	/* core id, unique machine-wide */
	s32 thread;	/* SMT sibling index within the core */
	u32 capacity;	/* arch_scale_cpu_capacity(), 1..1024 */
};

struct sched_topology {
	char name[64];
	int nr_cpus;
	struct sched_topo_cpu *cpu;	/* [nr_cpus] */
	int nr_nodes;
	u32 *distance;			/* [nr_nodes * nr_nodes], node_distance() */
	/* what the kernel's own work takes on this machine (TUN_COST_FIRST + i);
	 * else the engine's defaults, measured on a 2-CPU VM */
	u64 cost[NR_SCHED_COSTS];
	bool cost_set[NR_SCHED_COSTS];
};

/* ---- task programs ---- */

enum sched_dist { DIST_CONST, DIST_UNIFORM, DIST_EXP, DIST_NORMAL };

/* A duration, fixed or drawn from the engine's seeded generator. */
struct sched_duration {
	u8 kind;	/* enum sched_dist */
	u64 a;		/* CONST: value; UNIFORM: low; EXP: mean; NORMAL: mean */
	u64 b;		/* UNIFORM: high; NORMAL: standard deviation */
};

enum prog_op {
	PROG_RUN,		/* run D (task-clock time) */
	PROG_RUN_FOREVER,	/* run forever */
	PROG_SLEEP,		/* sleep D */
	PROG_LOOP,		/* loop [N] { : arg = N (0 = forever), target = insn after END_LOOP */
	PROG_END_LOOP,		/* } : target = its PROG_LOOP */
	PROG_WAIT,		/* block until woken by `wake` */
	PROG_WAKE,		/* wake[_sync] TASK: wake_first/wake_count index scenario.wake_list; arg 1 = sync */
	PROG_YIELD,		/* sched_yield() */
	PROG_YIELD_TO,		/* yield_to(TASK): wake_first names the one task */
	PROG_EXIT,		/* exit */
	PROG_NICE,		/* nice N: set_user_nice(arg) */
	PROG_LOCK,		/* lock M: arg = mutex (scenario.sync index) */
	PROG_UNLOCK,		/* unlock M */
	PROG_COND_WAIT,		/* cond_wait C M / suspend C: arg = cond, target = mutex or -1 */
	PROG_SIGNAL,		/* signal C: wake the first waiter */
	PROG_BROADCAST,		/* broadcast C / resume C: wake every waiter */
	PROG_BARRIER,		/* barrier B: arg = barrier */
	PROG_TIMER,		/* timer REF PERIOD: arg = timer, dur.a = period */
	PROG_FORK,		/* fork TASK: wake_first/wake_count list the instances */
	PROG_LOG,		/* log: one loop of an rt-app phase ends (a line of its per-loop log) */
};

/*
 * Named objects task programs share (rt-app's resources): mutexes,
 * condition variables (also `suspend`/`resume` points), barriers and
 * periodic timers. A timer whose name starts with "unique" is private to
 * each task, as in rt-app: `local` is then its slot in the task's own array.
 */
enum sched_sync_kind { SYNC_MUTEX, SYNC_COND, SYNC_BARRIER, SYNC_TIMER };

struct sched_sync {
	char name[64];
	u8 kind;		/* enum sched_sync_kind */
	bool absolute;		/* timer: the next expiry never moves to "now" after a miss */
	s32 local;		/* timer: slot in each task's private timers, -1 when shared */
	u32 users;		/* barrier: task instances whose program uses it */
};

struct prog_insn {
	u8 op;			/* enum prog_op */
	s32 arg;
	s32 target;
	u32 loop_slot;		/* PROG_LOOP/END_LOOP: index of the loop counter */
	u32 wake_first, wake_count;
	struct sched_duration dur;
	u32 line, col;		/* where it was written, for messages */
};

/* Loops nest at most this deep; the parser refuses deeper programs. */
#define PROG_MAX_LOOP_DEPTH 16

struct sched_program {
	int nr_insns;
	struct prog_insn *insn;	/* [nr_insns] */
	int nr_loops;		/* loop counters a task running it needs */
	int nr_barriers;
	s32 *barrier;		/* [nr_barriers] the distinct barriers it uses */
};

/* ---- task groups (cgroup v2 cpu controller, v1's cpu.shares) ---- */

#define SCHED_GROUP_PATH_LEN 128
#define MIN_SHARES 2UL
#define MAX_SHARES (1UL << 18)

/* One group; index 0 is the root ("/"), parents come before children. */
struct sched_group_spec {
	char path[SCHED_GROUP_PATH_LEN];	/* "/", "/a", "/a/b" */
	int parent;			/* index of the parent, -1 for the root */
	u64 shares;			/* tg->shares unscaled: MIN_SHARES..MAX_SHARES */
	bool idle;			/* cpu.idle */
	u64 quota;			/* cpu.max quota in ns, RUNTIME_INF for "max" */
	u64 period;			/* cpu.max period in ns */
	u64 burst;			/* cpu.max.burst in ns */
	u32 line;
};

/* ---- tasks ---- */

enum sched_policy {
	SCHED_NORMAL = 0,
	SCHED_FIFO = 1,
	SCHED_RR = 2,
	SCHED_BATCH = 3,
	SCHED_IDLE = 5,
	SCHED_DEADLINE = 6,
	SCHED_EXT = 7, /* the ext class when a policy is loaded, SCHED_NORMAL otherwise */
	NR_SCHED_POLICIES
};

/* The policies' names as scenarios, reports and commands write them ("normal",
 * "fifo", ...); NULL for the value no policy has (4). */
extern const char *const sched_policy_names[NR_SCHED_POLICIES];
/* The policy named by the len bytes at name, -1 if none. */
int sched_policy_lookup(const char *name, size_t len);

#define TASK_COMM_LEN 48

/* One task instance (count=N is expanded by the parser into N specs). */
struct sched_task_spec {
	char name[TASK_COMM_LEN];	/* "hog" or "web.3" */
	int nice;			/* -20..19 */
	int policy;			/* enum sched_policy */
	unsigned int rt_priority;	/* SCHED_FIFO/RR: 1..99 */
	u64 dl_runtime, dl_deadline, dl_period;	/* SCHED_DEADLINE; period 0 = deadline */
	u64 slice;			/* custom slice (sched_attr.sched_runtime), 0 = default */
	u64 start;			/* when it is forked, ns */
	u64 timer_slack;		/* prctl(PR_SET_TIMERSLACK) when timer_slack_set */
	bool timer_slack_set;		/* else init's default, the timer_slack tunable */
	bool forked;			/* started by another task's `fork`, not at `start` */
	bool has_cpus;
	struct cpumask cpus;		/* affinity when has_cpus */
	const struct sched_program *prog;
	int group;			/* index in scenario.group, 0 = root */
	u32 line;			/* declaring line, for messages */
};

/* ---- interrupts and steal time ---- */

/*
 * A source of time taken from a CPU's tasks: hardware interrupts (`irq`) or
 * a hypervisor running another guest (`steal`). Arrivals are `every` apart
 * (a constant or drawn), each takes `cost`.
 */
struct sched_irq_spec {
	int cpu;
	bool steal;
	int irq;			/* the number traces print (irq) */
	char name[16];
	struct sched_duration every, cost;
	u32 line;
};

/* ---- run-time commands (scenario `at` lines and the console) ---- */

enum sched_cmd_kind {
	CMD_SET_TUNABLE,	/* key = enum sched_tunable, value */
	CMD_SET_FEATURE,	/* key = enum sched_feature, value = 0/1 */
	CMD_SET_NICE,		/* task, value = nice */
	CMD_SET_SLICE,		/* task, value = custom slice ns (0 = default) */
	CMD_SET_POLICY,		/* task, key = policy, value = rt priority (nice is kept);
				 * dl = the SCHED_DEADLINE reservation */
	CMD_SET_GROUP_SHARES,	/* key = group, value = shares (MIN_SHARES..MAX_SHARES) */
	CMD_SET_GROUP_IDLE,	/* key = group, value = 0/1 */
	CMD_SET_GROUP_MAX,	/* key = group, value = quota ns or -1 (max), value2 = period ns */
	CMD_SET_GROUP_BURST,	/* key = group, value = burst ns */
	CMD_MOVE_TASK,		/* task, key = destination group */
	CMD_SET_CPUS,		/* task, cpus = the new affinity */
	NR_SCHED_COMMANDS
};

/* "set_tunable", "set_nice", ...: how traces name them. */
extern const char *const sched_command_names[NR_SCHED_COMMANDS];

struct sched_command {
	u8 kind;
	s32 task;		/* task index for per-task commands, -1 otherwise */
	s32 key;
	s64 value;
	s64 value2;
	struct {
		u64 runtime, deadline, period;
	} dl;
	struct cpumask cpus; /* CMD_SET_CPUS */
};

struct sched_action {
	u64 time;
	struct sched_command cmd;
	u32 line;
};

struct sched_note {
	u64 time;
	const char *text;
};

/* ---- the whole scenario ---- */

struct sched_ext_ops;

struct sched_scenario {
	const struct sched_topology *topo;
	/* `sched ext:PATH`: the loaded policy's operations (src/ loads the shared
	 * object; its code and this table stay mapped while the engine lives) */
	const struct sched_ext_ops *ext_ops;
	int kernel;			/* KV(major, minor) whose rules apply */
	int kernel_stable;		/* its stable update (the Z of X.Y.Z); 0: the release itself */
	int variant;			/* enum sched_variant */
	u32 hz;				/* CONFIG_HZ: 100, 250, 300, 1000 */
	u64 seed;
	/*
	 * The real machine's own jitter (`noise on`, a scenario's default):
	 * CPUs' simultaneous interrupts in a seeded order, timer slack,
	 * interrupt-entry jitter. Off (zero) is the ideal machine.
	 */
	bool noise;
	u64 duration;			/* ns; the run ends here */
	u64 features_set, features_clear; /* `feature X` / `feature NO_X` */
	u64 tunable[NR_SCHED_TUNABLES];	/* overrides; 0 = release default */
	bool tunable_set[NR_SCHED_TUNABLES];

	int nr_groups;			/* >= 1: the root is always there */
	struct sched_group_spec *group;	/* [nr_groups] */
	int nr_tasks;
	struct sched_task_spec *task;	/* [nr_tasks] */
	int nr_wake_list;
	s32 *wake_list;			/* task indices named by PROG_WAKE */
	int nr_sync;
	struct sched_sync *sync;	/* objects named by lock, cond_wait, barrier, timer... */
	int nr_local_timers;		/* "unique" timers: slots each task keeps */

	int nr_irqs;
	struct sched_irq_spec *irq;	/* [nr_irqs], one per CPU it runs on */

	int nr_actions;
	struct sched_action *action;	/* sorted by time, stable */
	int nr_notes;
	struct sched_note *note;	/* sorted by time, stable */
};

#endif
