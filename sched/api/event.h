/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event stream: everything the engine does, in order. Names follow the
 * kernel's tracepoints; the engine's own records carry an sched_ prefix-free
 * name of their own. Views, reports, traces and breakpoints all read this.
 */
#ifndef SCHED_EVENT_H
#define SCHED_EVENT_H

#include "types.h"

enum sched_event_type {
	EV_SCHED_SWITCH,	/* sched:sched_switch */
	EV_SCHED_WAKING,	/* sched:sched_waking */
	EV_SCHED_WAKEUP,	/* sched:sched_wakeup */
	EV_SCHED_WAKEUP_NEW,	/* sched:sched_wakeup_new */
	EV_SCHED_MIGRATE_TASK,	/* sched:sched_migrate_task */
	EV_SCHED_PROCESS_FORK,	/* sched:sched_process_fork */
	EV_SCHED_PROCESS_EXIT,	/* sched:sched_process_exit */
	EV_SCHED_STAT_RUNTIME,	/* sched:sched_stat_runtime (at each switch-out) */
	EV_SET_NICE,		/* a nice/policy/slice change took effect */
	EV_YIELD,		/* do_sched_yield() or yield_to() */
	EV_COMMAND,		/* a run-time command was applied */
	EV_NOTE,		/* a scenario caption */
	EV_CFS_THROTTLE,	/* a group's queue ran out of runtime and left its CPU */
	EV_CFS_UNTHROTTLE,	/* it got runtime again */
	EV_CFS_PERIOD,		/* a group's bandwidth period ended: the pool is refilled */
	EV_IRQ_ENTRY,		/* irq:irq_handler_entry */
	EV_IRQ_EXIT,		/* irq:irq_handler_exit, with the time the interruption took */
	EV_STEAL,		/* the hypervisor gave the CPU back after stealing it */
	EV_SELECT_RQ,		/* a wakeup or fork placement: select_task_rq() */
	EV_LB_GROUP,		/* one sched_group's statistics in a balance attempt */
	EV_LB_TASK,		/* a task detach_tasks() considered, moved or not */
	EV_LOAD_BALANCE,	/* the outcome of one load_balance() attempt */
	EV_HERD,		/* a burst of migrations: herd_threshold within herd_window */
	EV_PROG_TIMER,		/* a task reached its `timer`: one rt-app period ends */
	EV_PROG_LOG,		/* a task reached its `log`: one loop of an rt-app phase ends */
	EV_RT_THROTTLE,		/* a CPU's rt_rq ran over sched_rt_runtime_us (<= 6.11) */
	EV_RT_UNTHROTTLE,	/* the period timer gave it runtime back */
	EV_DL_THROTTLE,		/* a deadline entity ran out of runtime (or yielded) */
	EV_DL_REPLENISH,	/* its replenishment: new runtime and deadline */
	EV_DL_MISS,		/* a SCHED_DEADLINE job ended after its absolute deadline */
	EV_EXT_ENABLE,		/* the ext policy was enabled (its name is a text) */
	EV_EXT_DISPATCH,	/* a task went into an ext dispatch queue, or moved to a local one */
	EV_EXT_KICK,		/* the policy kicked a CPU (scx_bpf_kick_cpu) */
	EV_EXT_PRINTK,		/* a line the policy wrote (bpf_printk) */
	EV_EXT_EXIT,		/* the policy was disabled: an error, the watchdog or its own exit */
	NR_SCHED_EVENTS
};

/* sched_migrate_task's cause: which decision moved the task. */
enum migrate_reason {
	MIGRATE_WAKEUP,		/* select_task_rq() at a wakeup */
	MIGRATE_FORK,		/* (forks are placed, not migrated: unused by the engine) */
	MIGRATE_BALANCE,	/* periodic load_balance() from the tick */
	MIGRATE_NEWIDLE,	/* newidle balance of a CPU going idle */
	MIGRATE_NOHZ,		/* NO_HZ idle balance run for an idle CPU */
	MIGRATE_ACTIVE,		/* active balance: the CPU stopper pushed a task */
	MIGRATE_RT_PUSH,	/* push_rt_tasks(): a waiting RT task to a CPU running lower */
	MIGRATE_RT_PULL,	/* pull_rt_task(): a CPU dropping in priority takes one */
	MIGRATE_EXT,		/* the ext class moved it to another CPU's local DSQ */
	MIGRATE_AFFINITY,	/* sched_setaffinity() left it on a CPU it may not use */
	NR_MIGRATE_REASONS
};

/* The kernel's WF_FORK, WF_TTWU and WF_SYNC bits, as select events carry them. */
enum { SELECT_WF_FORK = 0x04, SELECT_WF_TTWU = 0x08, SELECT_WF_SYNC = 0x10 };

/* select_task_rq() paths: how the chosen CPU won (select.c). */
enum select_path {
	SEL_PINNED,		/* one allowed CPU: no choice */
	SEL_IDLE_TARGET,	/* select_idle_sibling: the target is idle */
	SEL_IDLE_PREV,		/* ... the previous CPU is idle and shares the cache */
	SEL_IDLE_RECENT,	/* ... the recently used CPU is idle */
	SEL_IDLE_CAPACITY,	/* ... select_idle_capacity() on asymmetric capacity */
	SEL_IDLE_SMT,		/* ... an idle SMT sibling of prev */
	SEL_IDLE_CORE,		/* ... select_idle_cpu(): a fully idle core */
	SEL_IDLE_CPU,		/* ... select_idle_cpu(): an idle CPU in the LLC */
	SEL_NO_IDLE,		/* ... no idle CPU found: the target */
	SEL_IDLEST,		/* the slow path: find_idlest_cpu() */
	SEL_FALLBACK,		/* the choice was not allowed: select_fallback_rq() */
	SEL_RT,			/* select_task_rq_rt(): find_lowest_rq() or the CPU asked */
	SEL_DL_PREV,		/* a deadline task stays where it ran (no find_later_rq()) */
	SEL_EXT,		/* select_task_rq_scx(): the policy's ops.select_cpu() or the default */
	NR_SELECT_PATHS
};

/* wake_affine() outcome in a select_task_rq event. */
enum wake_affine_result {
	WA_NONE,		/* not tried (wide wakeup, fork, or this == prev) */
	WA_IDLE_THIS,		/* wake_affine_idle: this CPU */
	WA_IDLE_PREV,		/* wake_affine_idle: prev CPU */
	WA_SYNC_THIS,		/* wake_affine_idle: sync wakeup, waker alone */
	WA_WEIGHT_THIS,		/* wake_affine_weight: this_eff_load < prev_eff_load */
	WA_WEIGHT_PREV,		/* wake_affine_weight: prev stays */
	NR_WAKE_AFFINE_RESULTS
};

/* What drove a herd of migrations (herd.c). */
enum herd_cause {
	HERD_NEWIDLE,		/* several CPUs going idle pulled at once */
	HERD_WAKEUP,		/* wakers sent their wakees to the same idle CPU */
	HERD_IMBALANCE,		/* periodic, idle or active balancing of a group imbalance */
	HERD_AFFINITY,		/* a new affinity moved them (set cpus) */
	HERD_MIXED,		/* no single cause */
	NR_HERD_CAUSES
};

/* kernel/sched/fair.c enum group_type, in its "busier than" order. */
enum group_type {
	group_has_spare,
	group_fully_busy,
	group_misfit_task,
	group_smt_balance,
	group_asym_packing,
	group_imbalanced,
	group_overloaded,
	NR_GROUP_TYPES
};

enum migration_type { migrate_load, migrate_util, migrate_task, migrate_misfit, NR_MIGRATION_TYPES };

/* A domain's level name (sd->name) as events carry it. */
enum sd_level_name { SDL_SMT, SDL_CLS, SDL_MC, SDL_PKG, SDL_NODE, SDL_NUMA, NR_SD_LEVEL_NAMES };

/* enum cpu_idle_type */
enum cpu_idle_type { CPU_NOT_IDLE, CPU_IDLE, CPU_NEWLY_IDLE, CPU_MAX_IDLE_TYPES };

/* How one load_balance() attempt ended (EV_LOAD_BALANCE.outcome). */
enum lb_outcome {
	LB_BALANCED,		/* not this CPU's turn (should_we_balance) */
	LB_NOBUSYG,		/* find_busiest_group() found no imbalance (why says which) */
	LB_NOBUSYQ,		/* find_busiest_queue() found no queue */
	LB_MOVED,		/* tasks were pulled */
	LB_FAILED,		/* an imbalance, but nothing could be pulled */
	LB_ALL_PINNED,		/* ... because every task was pinned elsewhere */
	LB_ACTIVE_PUSHED,	/* active_load_balance_cpu_stop() moved a task */
	LB_ACTIVE_FAILED,	/* ... found none it could move */
	NR_LB_OUTCOMES
};

/* Why find_busiest_group() called it balanced (EV_LOAD_BALANCE.why), 0 otherwise. */
enum fbg_reason {
	FBG_FORCED,		/* not balanced */
	FBG_NO_BUSIEST,		/* no group with fair tasks to pull */
	FBG_LOCAL_BUSIER,	/* the local group's type is busier */
	FBG_AVG_LOAD,		/* both overloaded, loads within imbalance_pct */
	FBG_NOT_IDLE,		/* busiest not overloaded and this CPU is busy */
	FBG_IDLE_CPUS,		/* idle CPU counts within one */
	FBG_ONE_TASK,		/* busiest has a single task */
	FBG_NO_IMBALANCE,	/* calculate_imbalance() gave 0 */
	FBG_NOT_DESIGNATED,	/* should_we_balance(): another CPU balances for the group */
	NR_FBG_REASONS
};

/* What detach_tasks() did with one task (EV_LB_TASK.result). */
enum lb_task_result {
	LBT_MOVED,		/* detached and attached to this CPU */
	LBT_MOVED_HOT,		/* moved although cache hot: too many failures */
	LBT_PINNED,		/* dst not in its affinity */
	LBT_RUNNING,		/* it is the running task */
	LBT_HOT,		/* cache hot: ran within migration_cost */
	LBT_TOO_BIG,		/* its load exceeds what is left of the imbalance */
	LBT_FITS,		/* misfit migration, but it fits its CPU */
	LBT_THROTTLED,		/* its group is throttled on either CPU (before 6.18), on dst (6.18+) */
	LBT_DELAYED,		/* queued only by DELAY_DEQUEUE, not a load migration (6.14+) */
	LBT_INELIGIBLE,		/* not eligible, dst has queued tasks, no failed attempt (6.14+) */
	NR_LB_TASK_RESULTS
};

/* The ext policy's operations (struct sched_ext_ops), or the class itself (EXT_OP_CORE). */
enum ext_op {
	EXT_OP_CORE,
	EXT_OP_SELECT_CPU,
	EXT_OP_ENQUEUE,
	EXT_OP_DEQUEUE,
	EXT_OP_DISPATCH,
	EXT_OP_TICK,
	EXT_OP_RUNNABLE,
	EXT_OP_RUNNING,
	EXT_OP_STOPPING,
	EXT_OP_QUIESCENT,
	EXT_OP_YIELD,
	EXT_OP_SET_WEIGHT,
	EXT_OP_SET_CPUMASK,
	EXT_OP_UPDATE_IDLE,
	EXT_OP_CPU_ACQUIRE,
	EXT_OP_CPU_RELEASE,
	EXT_OP_INIT_TASK,
	EXT_OP_EXIT_TASK,
	EXT_OP_ENABLE,
	EXT_OP_DISABLE,
	EXT_OP_INIT,
	EXT_OP_EXIT,
	EXT_OP_TIMER, /* a bpf_timer callback */
	NR_EXT_OPS
};

/* How a task entered a dispatch queue (EV_EXT_DISPATCH.how). */
enum ext_dispatch_how {
	EXT_DSP_INSERT,	      /* FIFO: scx_bpf_dispatch(), or the class's own insert */
	EXT_DSP_INSERT_VTIME, /* by vtime: scx_bpf_dispatch_vtime() */
	EXT_DSP_MOVE,	      /* from dsq_id to dest_cpu's local DSQ: consumed */
	NR_EXT_DSP_HOWS
};

/* prev_state of sched_switch, as the kernel prints it. */
enum { TASK_STATE_R = 'R', TASK_STATE_S = 'S', TASK_STATE_X = 'X' };

struct sched_event {
	u64 time;		/* ns of simulated time */
	u64 seq;		/* position in the stream, from 0 */
	u16 type;		/* enum sched_event_type */
	s16 cpu;		/* the CPU it happened on */
	union {
		struct {
			s32 prev_pid, next_pid;
			s32 prev_prio, next_prio;
			char prev_state;
		} sw;
		struct {
			s32 pid, prio;
			s32 target_cpu;
			u8 from_timer;	/* a sleep's timer woke it, not a task */
		} wake;		/* waking, wakeup, wakeup_new */
		struct {
			s32 pid, prio;
			s32 orig_cpu, dest_cpu;
			u64 cause;	/* seq of the first event of the decision */
			u8 reason;	/* enum migrate_reason */
		} migrate;
		struct {
			s32 parent_pid, child_pid;
		} fork;
		struct {
			s32 pid, prio;
		} exit;
		struct {
			s32 pid;
			u64 runtime;	/* ns charged by this update_curr() run */
			u64 vruntime;
		} runtime;
		struct {
			s32 pid;
			s32 old_nice, new_nice;
			s32 policy;
			u64 slice;
		} nice;
		struct {
			s32 pid;
			s32 to_pid;	/* yield_to's target, 0 for sched_yield */
		} yield;
		struct {
			u32 index;	/* scenario action index, or ~0 for the console */
			u8 kind;	/* enum sched_cmd_kind */
			s32 task, key;
			s64 value;
		} command;
		struct {
			u32 index;	/* into scenario.note */
		} note;
		struct {
			s32 group;		/* index in scenario.group */
			s64 runtime_remaining;	/* the queue's, ns (throttle/unthrottle) */
			s64 pool;		/* runtime left in the group's pool, ns */
			u64 extra;		/* unthrottle: ns throttled; period: queues were throttled */
			u64 burst;		/* period: burst runtime used in the period that ended */
		} bw;
		struct {
			s32 pid;
			s16 prev_cpu;
			s16 target;	/* wake_affine()'s pick, prev_cpu when not tried */
			s16 new_cpu;
			s16 nr_scanned;	/* CPUs select_idle_cpu() looked at */
			u8 wake_flags;	/* SELECT_WF_TTWU [| SELECT_WF_SYNC] or SELECT_WF_FORK */
			u8 affine;	/* enum wake_affine_result */
			u8 path;	/* enum select_path */
			u8 depth;	/* domain level of the affine/slow-path domain */
			s64 this_eff_load, prev_eff_load;	/* wake_affine_weight() */
		} select;
		struct {
			u64 decision;	/* seq of the record's first event */
			u64 avg_load;
			u32 group_load, group_util, group_capacity;
			u16 sum_nr_running, sum_h_nr_running, idle_cpus;
			s16 first_cpu;	/* the group's first CPU */
			u8 group_type;	/* enum group_type */
			u8 local;	/* the balancing CPU's own group */
			u8 depth;
		} lb_group;
		struct {
			u64 decision;
			s32 pid;
			u32 load;	/* what it would take off the imbalance, in migration_type's unit */
			s64 imbalance;	/* left after it */
			u32 load_fresh; /* migrate_load: task_h_load() from an h_load computed now */
			u16 nr_balance_failed; /* the domain's, as the check read it */
			u8 result;	/* enum lb_task_result */
			u8 depth;
			u8 migration_type; /* enum migration_type: what load counts */
			u8 h_load_stale; /* migrate_load: h_load was cached earlier this jiffy and differs */
			u8 compared; /* load >> MIN(nr_balance_failed, 63) was held against the imbalance */
		} lb_task;
		struct {
			u64 decision;
			s64 imbalance;		/* as find_busiest_group() computed it */
			s16 busiest_group;	/* first CPU of the busiest group, -1 */
			s16 busiest_cpu;	/* busiest runqueue, -1 */
			u16 nr_moved;
			u16 nr_hot_moved;	/* moved although cache hot */
			u16 nr_balance_failed;	/* after this attempt */
			u16 nr_balance_failed_before; /* when it ran: what detach_tasks() checked */
			u8 depth;
			u8 idle;		/* enum cpu_idle_type */
			u8 migration_type;	/* enum migration_type */
			u8 outcome;		/* enum lb_outcome */
			u8 why;			/* enum fbg_reason */
			u8 active;		/* kicked an active balance on busiest_cpu */
			u8 level;		/* enum sd_level_name */
			u32 balance_interval;	/* ms, after this attempt */
		} lb;
		struct {
			u64 first_seq;		/* the burst's first sched_migrate_task */
			u64 first_time;
			u16 nr;			/* migrations in the window */
			u16 nr_src, nr_dst;	/* distinct CPUs they left and joined */
			u8 cause;		/* enum herd_cause */
			u8 by_reason[NR_MIGRATE_REASONS];
		} herd;
		struct {
			s32 source;		/* index in scenario.irq */
			s32 irq;		/* the irq number (-1 for steal) */
			u64 irq_ns, steal_ns;	/* exit: the interruption's time, by kind */
		} intr;
		struct {
			s32 pid;
			u8 missed;	/* the expiry had passed: no sleep */
			u64 expires;	/* the period's end the task waits for */
			s64 slack;	/* expires - now: negative when late */
			u64 sum_exec;	/* the task's CPU time so far */
			u64 period;	/* the timer's period */
		} timer;
		struct {
			s32 pid;
			u64 sum_exec;  /* the task's CPU time so far */
			u64 run_wall;  /* from the start to the end of each of its `run`s, summed */
			u64 run_asked; /* the durations its `run`s asked for, summed */
		} log;
		struct {
			u64 rt_time;	/* RT time charged this period */
			u64 rt_runtime;	/* the budget per period */
			u32 nr_running;	/* RT tasks held back or released */
		} rt_bw;
		struct {
			s32 pid;	/* the task; 0 for the CPU's fair server */
			s64 runtime;	/* budget left (throttle, replenish); lateness (miss) */
			u64 deadline;	/* absolute, ns of simulated time */
		} dl;
		struct {
			s32 pid;
			s16 dest_cpu; /* the local DSQ's CPU, -1 for a shared queue */
			u8 op;	      /* enum ext_op: the operation that made the dispatch */
			u8 how;	      /* enum ext_dispatch_how */
			u64 dsq_id;   /* the queue it went into (MOVE: the one it came from) */
			u64 slice;
			u64 vtime;
			u64 enq_flags;
		} ext_dsp;
		struct {
			s32 target_cpu;
			u8 op;
			u64 flags; /* SCX_KICK_* */
		} ext_kick;
		struct {
			s32 pid;  /* the task the operation was called for, 0 for none */
			u32 text; /* sched_text() */
			u8 op;
		} ext_print;
		struct {
			s32 pid;  /* the task the message names, 0 for none */
			u32 text; /* the message (exit) or the policy's name (enable) */
			u16 kind; /* enum scx_exit_kind (exit); 1 if SCX_OPS_SWITCH_PARTIAL (enable) */
			u8 op;	  /* the operation that failed */
			s64 exit_code;
		} ext_exit;
	};
};

_Static_assert(sizeof(struct sched_event) <= 64, "events stay one cache line");

extern const char *const sched_event_names[NR_SCHED_EVENTS];
extern const char *const migrate_reason_names[NR_MIGRATE_REASONS];
extern const char *const select_path_names[NR_SELECT_PATHS];
extern const char *const wake_affine_names[NR_WAKE_AFFINE_RESULTS];
extern const char *const group_type_names[NR_GROUP_TYPES];
extern const char *const migration_type_names[NR_MIGRATION_TYPES];
extern const char *const cpu_idle_type_names[CPU_MAX_IDLE_TYPES];
extern const char *const lb_outcome_names[NR_LB_OUTCOMES];
extern const char *const fbg_reason_names[NR_FBG_REASONS];
extern const char *const lb_task_result_names[NR_LB_TASK_RESULTS];
extern const char *const herd_cause_names[NR_HERD_CAUSES];
extern const char *const sd_level_names[NR_SD_LEVEL_NAMES];
extern const char *const ext_op_names[NR_EXT_OPS];
extern const char *const ext_dispatch_how_names[NR_EXT_DSP_HOWS];
/* scx_exit_reason(): the kernel's words for an exit kind. */
const char *ext_exit_reason(unsigned kind);
/* The exit kinds by the kernel's enum names, lowercased and without SCX_EXIT_ ("error_stall"). */
#define NR_EXT_EXIT_KINDS 7
extern const char *const ext_exit_kind_names[NR_EXT_EXIT_KINDS];
/* Index of a kind in ext_exit_kind_names, -1 for another value. */
int ext_exit_kind_index(unsigned kind);
/* A dispatch queue ID as traces and views show it: "global", "local", "local_on:3", "0x2a". */
const char *ext_dsq_format(char *buf, size_t len, u64 dsq_id);

/* names[i] of one of the tables above, "?" for a value it does not name. */
static inline const char *sched_name_of(const char *const *names, unsigned n, unsigned i)
{
	return i < n && names[i] ? names[i] : "?";
}

#endif
