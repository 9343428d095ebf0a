/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's internal state (kernel/sched/sched.h's counterpart). Every
 * struct here lives in the engine's arena; pointers between them stay valid
 * across checkpoint/restore because the arena is restored at its address.
 */
#ifndef SCHED_INTERNAL_H
#define SCHED_INTERNAL_H

#include <string.h>

#include "api/sched.h"
#include "alloc.h"
#include "list.h"

/* the cache line, which hot fields share (include/linux/cache.h) */
#define SMP_CACHE_BYTES 64

/* ---- weights (kernel/sched/sched.h) ---- */

#define SCHED_FIXEDPOINT_SHIFT 10
#define NICE_0_LOAD_SHIFT (SCHED_FIXEDPOINT_SHIFT + SCHED_FIXEDPOINT_SHIFT)
#define NICE_0_LOAD (1UL << NICE_0_LOAD_SHIFT)
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1UL << SCHED_CAPACITY_SHIFT)
#define WEIGHT_IDLEPRIO 3
#define WMULT_IDLEPRIO 1431655765
#define MAX_RT_PRIO 100
#define NICE_TO_PRIO(n) ((n) + 120)
#define PRIO_TO_NICE(p) ((p) - 120)

static inline unsigned long scale_load(unsigned long w) { return w << SCHED_FIXEDPOINT_SHIFT; }
static inline unsigned long scale_load_down(unsigned long w)
{
	if (w) {
		unsigned long d = w >> SCHED_FIXEDPOINT_SHIFT;
		return d > 2 ? d : 2;
	}
	return 0;
}

struct load_weight {
	unsigned long weight;
	u32 inv_weight;
};

extern const u32 sched_prio_to_wmult[40];

u64 __calc_delta(u64 delta_exec, unsigned long weight, struct load_weight *lw);
u64 calc_delta_mine(u64 delta_exec, unsigned long weight, const struct load_weight *lw);
void update_load_add(struct load_weight *lw, unsigned long inc);
void update_load_sub(struct load_weight *lw, unsigned long dec);
void update_load_set(struct load_weight *lw, unsigned long w);

/* ---- PELT (struct sched_avg) ---- */

#define LOAD_AVG_PERIOD 32
#define LOAD_AVG_MAX 47742
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)

struct sched_avg {
	u64 last_update_time;
	u64 load_sum;
	u64 runnable_sum;
	u32 util_sum;
	u32 period_contrib;
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
};

static inline u32 get_pelt_divider(const struct sched_avg *avg)
{
	return PELT_MIN_DIVIDER + avg->period_contrib;
}

/* The kernel's sub_positive()/add_positive(): clamp at zero instead of wrapping. */
static inline void sub_positive_ul(unsigned long *p, unsigned long v) { *p = *p > v ? *p - v : 0; }
static inline void sub_positive_u64(u64 *p, u64 v) { *p = *p > v ? *p - v : 0; }
static inline void sub_positive_u32(u32 *p, u64 v) { *p = *p > v ? (u32)(*p - v) : 0; }
static inline void add_positive_ul(unsigned long *p, long v)
{
	*p = v < 0 && (unsigned long)-v > *p ? 0 : *p + (unsigned long)v;
}
static inline void add_positive_u64(u64 *p, s64 v) { *p = v < 0 && (u64)-v > *p ? 0 : *p + (u64)v; }
static inline void add_positive_u32(u32 *p, long v)
{
	*p = v < 0 && (u64)-v > *p ? 0 : (u32)(*p + v);
}

/* ---- timers: the discrete-event queue ---- */

enum timer_kind {
	T_TICK,		/* sched_tick() on cpu */
	T_HRTICK,	/* hrtick: end of the current slice on cpu */
	T_WORK,		/* the running task's `run` segment ends on cpu */
	T_WAKE,		/* a sleeping task's timer expires */
	T_FORK,		/* a task is created */
	T_ACTION,	/* a scenario `at` command */
	T_NOTE,		/* a scenario caption */
	T_END,		/* the scenario's duration is reached */
	T_CFS_PERIOD,	/* a group's bandwidth period ends: refill */
	T_CFS_SLACK,	/* returned slack is handed to throttled queues */
	T_IRQ,		/* an interrupt or steal source fires */
	T_IRQ_END,	/* the CPU's interruption ends */
	T_RT_PERIOD,	/* def_rt_bandwidth's period timer (<= 6.11) */
	T_DL_TIMER,	/* a deadline entity's dl_timer: arg = task index, or -1 - cpu for a fair server */
	T_SCX_WATCHDOG, /* the ext class's watchdog work */
	T_SCX_TIMER,	/* a policy's bpf_timer: arg = its slot */
	T_IPI,		/* LinSched's machine: a reschedule IPI's timer on cpu (linsched.c) */
	T_STOP,		/* LinSched's machine: the timer that wakes cpu's stopper */
};

struct sched_timer {
	u64 expires;
	s32 heap_idx;	/* -1 when not queued */
	u8 kind;	/* enum timer_kind */
	u8 lane;	/* 1 + the queue's lane it waits in (struct lane_timer), or 0 */
	s32 arg;	/* cpu, task index or action/note index */
};

/*
 * A CPU's tick, a task's sleep. Ticks are armed in the order they fire (a
 * period on, CPU after CPU), and so are sleeps of one length: one armed
 * after the last of a lane of its kind is linked behind it, in O(1), and
 * leaves it in O(1) when it fires; none waits in the heap, the queue keeps
 * the earliest of the lanes' heads. Sleeps have three lanes, for three lengths.
 */
struct lane_timer {
	struct sched_timer timer;
	u64 order;	       /* its key's second word (struct timer_slot) */
	struct list_head node; /* in the lane */
};

/* The lanes of a timer of this kind: ticks 0, sleeps 1 to 3 (struct lane_timer). */
#define TIMER_NR_LANES 4
static inline int timer_first_lane(const struct sched_timer *t)
{
	return t->kind == T_TICK ? 0 : t->kind == T_WAKE ? 1 : -1;
}
static inline int timer_last_lane(const struct sched_timer *t)
{
	return t->kind == T_TICK ? 0 : TIMER_NR_LANES - 1;
}

struct timer_slot {
	u64 expires;
	/*
	 * Ties at equal expiry, as one number so that the heap compares two
	 * words: bit 63 clear for a timer that fires before the others due then
	 * (a task's `run` end); then the rank (bits 47-62): before 3.8,
	 * LinSched's order at one instant, CPU by CPU (cpu + 1, so not a CPU's
	 * first); since, with noise on, a CPU's timer draws a random rank from
	 * the engine's generator, so that CPUs whose interrupts come at the same
	 * instant act in a seeded order, never CPU 0 first (0: a timer on no
	 * CPU, fired before them in arming order); then bit 46 for a timer that
	 * goes last (before 3.8 the running task's `run` end, on its CPU); then
	 * the arming order (bits 0-45: 7e13 arms, days of simulation at any
	 * speed).
	 */
	u64 order;
	struct sched_timer *t;
};

struct timer_queue {
	struct timer_slot *heap;
	int nr, cap;
	u64 next_seq;
	/*
	 * A timer armed to fire before everything in the heap (an interrupt's
	 * end, mostly) waits here rather than rising to the heap's root only to
	 * be taken out again: it fires first. .t is NULL when empty.
	 */
	struct timer_slot first;
	struct timer_lane {
		struct list_head list; /* in the order they fire */
	} lane[TIMER_NR_LANES];
	/* the earliest of the lanes' heads (.t NULL: the lanes are empty), which stay out of the heap */
	struct timer_slot lane_first;
};

/* heap_idx of the timer in the queue's first slot, and of one in a lane */
#define TIMER_IDX_FIRST INT32_MAX
#define TIMER_IDX_LANE (INT32_MAX - 1)

/* One 128-bit comparison of (expires, order), without a branch to mispredict. */
static inline bool timer_slot_before(const struct timer_slot *a, const struct timer_slot *b)
{
	unsigned __int128 ka = (unsigned __int128)a->expires << 64 | a->order;
	unsigned __int128 kb = (unsigned __int128)b->expires << 64 | b->order;

	return ka < kb;
}

/* An empty queue whose heap holds up to cap slots. */
void timer_queue_init(struct timer_queue *q, struct timer_slot *heap, int cap);
void timer_arm(struct timer_queue *q, struct sched_timer *t, u64 expires);
void timer_arm_after(struct timer_queue *q, struct sched_timer *t, u64 expires);
void timer_cancel(struct timer_queue *q, struct sched_timer *t);
static inline bool timer_queued(const struct sched_timer *t) { return t->heap_idx >= 0; }
struct sched_timer *timer_pop(struct timer_queue *q);
/*
 * A 4-ary heap: half a binary heap's levels to walk down and up, for two
 * more comparisons a level; fewer instructions at every size measured
 * (130 to 2,300 timers queued).
 */
#define TIMER_HEAP_ARITY 4
static inline int timer_heap_parent(int i)
{
	return (i - 1) / TIMER_HEAP_ARITY;
}
static inline struct sched_timer *timer_peek(const struct timer_queue *q)
{
	if (q->first.t)
		return q->first.t;
	if (!q->nr || (q->lane_first.t && timer_slot_before(&q->lane_first, &q->heap[0])))
		return q->lane_first.t;
	return q->heap[0].t;
}

/* ---- entities and runqueues ---- */

struct cfs_rq;
struct task_group;

struct sched_entity {
	struct load_weight load;
	/* in cfs_rq->tl_list: ordered by deadline (EEVDF) or vruntime (CFS) */
	struct list_head tl_node;
	/* the same order as a search tree, to find an insertion point (timeline.c) */
	struct sched_entity *tl_left, *tl_right, *tl_parent;
	u64 deadline;
	u64 vruntime;
	u64 slice;
	s64 vlag;		/* saved lag; 6.6-6.16: protection marker while curr */
	u64 vprot;		/* 6.17+: protected until this vruntime */
	u64 exec_start;
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime;
	u64 nr_migrations;
	u8 on_rq;
	u8 sched_delayed;
	u8 rel_deadline;
	u8 custom_slice;
	struct cfs_rq *cfs_rq;	/* the queue it is (to be) queued on */
	struct sched_avg avg;
	/* the group hierarchy: a group's entity stands for its cfs_rq (my_q) on the parent's */
	int depth;
	struct sched_entity *parent;
	struct cfs_rq *my_q;		/* NULL for a task */
	unsigned long runnable_weight;	/* group: my_q's runnable tasks */
};

/* A cached extremum of the timeline, how many entities hold it, and whether it needs a rescan. */
struct tl_extremum {
	u64 val;
	unsigned int nr, stale;
};

struct cfs_rq {
	struct load_weight load;
	unsigned int nr_running;	/* entities queued here, incl. curr and delayed */
	unsigned int h_nr_running;	/* tasks below (h_nr_queued) */
	unsigned int h_nr_delayed;
	unsigned int idle_h_nr_running;	/* SCHED_IDLE tasks below */
	s64 avg_vruntime;		/* Σ key_i * w_i over the timeline (not curr) */
	u64 avg_load;			/* Σ w_i over the timeline */
	u64 min_vruntime;		/* v0: min_vruntime (<6.19) or zero_vruntime */
	struct list_head tl_list;	/* the timeline (timeline.c) */
	struct sched_entity *tl_root;
	/*
	 * The rbtree's min_vruntime/min_slice/max_slice augmentation: an
	 * entity's vruntime and slice do not change while it waits in the
	 * timeline (set_entity_slice() says when one does), so an extremum and
	 * how many share it is enough. When the last holder leaves, it is stale
	 * until someone asks for it (timeline_min_vruntime(), ...): from 6.19
	 * nothing asks for the vruntime one, before 6.18.17 for the max_slice.
	 */
	struct tl_extremum tl_min_vruntime, tl_min_slice, tl_max_slice;
	struct sched_entity *curr, *next, *last, *skip;
	struct sched_avg avg;
	struct {
		unsigned long load_avg, util_avg, runnable_avg;
		int nr;
	} removed;
	struct rq *rq;

	/* task groups */
	struct task_group *tg;
	int idle;			/* the group is cpu.idle */
	unsigned long tg_load_avg_contrib;	/* what this queue last added to tg->load_avg */
	u64 last_update_tg_load_avg;
	long propagate;			/* PELT to hand up to the group entity */
	long prop_runnable_sum;
	unsigned long h_load;		/* this queue's share of the CPU's load (for the balancer) */
	unsigned long shares;		/* TG_SHARES_UP_WALK: the weight the last walk gave (0: empty) */
	u64 last_h_load_update;
	struct sched_entity *h_load_next;

	/* CFS bandwidth: runtime handed out from the group's pool in slices */
	bool runtime_enabled;
	bool throttled;
	s64 runtime_remaining;
	int throttle_count;		/* this queue or an ancestor is throttled */
	u64 throttled_clock;		/* when this queue was throttled (for throttled_time) */
	u64 throttled_clock_pelt, throttled_clock_pelt_time;	/* PELT stands still while throttled */
	u64 throttled_clock_self, throttled_clock_self_time;
	struct cfs_rq *throttled_next;	/* the group's list of throttled queues, in throttle order */
	bool on_throttled_list;
	bool pelt_clock_throttled;	/* 6.18+: throttled and empty: PELT stands still */
	struct task_struct *limbo;	/* 6.18+: tasks taken off by the throttle (throttled_limbo_list) */
	int nr_limbo;
};

/* A group's cpu.max (struct cfs_bandwidth) and its cpu.stat counters. */
struct cfs_bandwidth {
	u64 period, quota, burst;	/* ns; quota RUNTIME_INF: no limit */
	u64 runtime;			/* left in the pool this period */
	u64 runtime_snap;		/* the pool after the last refill: burst use is measured from it */
	bool period_active, idle, slack_started;
	struct cfs_rq *throttled_first, *throttled_last;
	struct sched_timer period_timer, slack_timer;
	u64 nr_periods, nr_throttled, throttled_time, nr_burst, burst_time;
};

/*
 * A task group (struct task_group): one entity and one cfs_rq per CPU; the
 * root group's queues are the rq's own and it has no entities.
 */
struct task_group {
	int id;				/* index in scenario.group */
	struct task_group *parent;
	unsigned long shares;		/* scale_load(cpu.shares) */
	int idle;
	long load_avg;			/* Σ cfs_rq->tg_load_avg_contrib */
	struct sched_entity **se;	/* [nr_cpus], NULL for the root */
	struct cfs_rq **cfs_rq;		/* [nr_cpus] */
	struct cfs_bandwidth cfs_bandwidth;
};

struct task_struct;

/* ---- rt and dl entities and runqueues (rt.c, deadline.c) ---- */

#define MAX_DL_PRIO 0
#define RT_PRIO_WORDS ((MAX_RT_PRIO + 63) / 64)

struct sched_rt_entity {
	struct list_head run_list;	/* in its priority's rt_rq->queue */
	unsigned int time_slice;	/* SCHED_RR: ticks left */
	u8 on_rq;
};

/* rt_prio_array: one FIFO ring per priority and a bitmap of the non-empty ones. */
struct rt_rq {
	struct list_head queue[MAX_RT_PRIO]; /* each priority's, in the order they run */
	u64 bitmap[RT_PRIO_WORDS];
	unsigned int rt_nr_running;
	bool rt_queued;			/* counted in rq->nr_running (not throttled) */
	bool rt_throttled;
	u64 rt_time;			/* RT execution in this period */
	u64 rt_runtime;			/* RUNTIME_INF when unlimited */
};

struct sched_dl_entity {
	u64 dl_runtime, dl_deadline, dl_period;	/* the reservation Q, D, P */
	u64 dl_bw, dl_density;			/* Q/P and Q/D << BW_SHIFT */
	s64 runtime;				/* budget left */
	u64 deadline;				/* absolute */
	u8 dl_throttled, dl_yielded, dl_server, dl_server_active;
	u8 dl_defer, dl_defer_armed, dl_defer_running, on_dl_rq;
	struct list_head dl_node; /* in the dl_rq, by deadline */
	struct rq *rq;
	struct sched_timer dl_timer;
	/* job bookkeeping for deadline-miss reports */
	u64 job_deadline;			/* absolute deadline of the running job */
};

struct dl_rq {
	struct list_head queue; /* by deadline, earliest (the rbtree's leftmost) first */
	unsigned int dl_nr_running;
};

/* The earliest deadline, or NULL. */
static inline struct sched_dl_entity *pick_next_dl_entity(struct dl_rq *dl_rq)
{
	return list_first_entry_or_null(&dl_rq->queue, struct sched_dl_entity, dl_node);
}

#define CPU_LOAD_IDX_MAX 5

struct rq {
	int cpu;
	unsigned int nr_running;
	u64 clock;
	u64 clock_task;
	u64 clock_pelt;
	u64 lost_idle_time;
	unsigned int clock_update_flags; /* RQCF_REQ_SKIP, RQCF_ACT_SKIP */
	struct cfs_rq cfs;
	struct task_struct *curr;
	struct task_struct *idle;
	bool need_resched;
	bool tick_stopped;		/* NO_HZ idle */
	u32 cpu_capacity_orig;		/* arch_scale_cpu_capacity() */
	unsigned long cpu_capacity;	/* capacity_of() (3.3: cpu_power), as the last
					 * update_cpu_capacity() left it */
	u64 nr_switches;
	u64 shares_walk_last;		/* TG_SHARES_UP_WALK: when this CPU last walked */
	/* time taken by interrupts and by the hypervisor (steal), ns */
	u64 irq_time, steal_time;	/* completed interruptions, by kind */
	u64 prev_irq_time, prev_steal_time_rq;	/* the parts already kept out of clock_task */
	u64 intr_start, intr_end;	/* the interruption under way: [start, end) in ns of ST->now */
	u64 intr_irq, intr_steal;	/* its parts, by kind */
	u64 intr_cost, cost_time;	/* the kernel's work charged to tasks: in it, completed */
	int intr_source;		/* the source in it, -1: only the kernel's work (cpu_spend()) */
	struct sched_avg avg_irq;	/* PELT of the time taken (NONTASK_CAPACITY) */
	struct sched_avg avg_rt, avg_dl;	/* PELT of the RT and deadline classes' running */
	struct lane_timer tick;
	struct sched_timer hrtick, work, intr_timer, ipi_timer, stop_timer;
	struct list_head slack_list; /* tasks asleep here in a slack range, the latest first (noise.c) */
	/* load balancing (balance.c) */
	u64 next_balance;		/* jiffies */
	u64 idle_stamp;			/* rq_clock when it went idle, 0 while busy */
	unsigned long misfit_task_load;	/* the running task's load if it does not fit */
	u64 avg_idle;			/* EWMA of idle periods, ns */
	u64 max_idle_balance_cost;	/* ns */
	bool active_balance;		/* the CPU stopper is to push a task to push_cpu */
	bool stop_queued;		/* ... once its timer wakes it (LinSched's machine) */
	int push_cpu;
	u64 active_decision;		/* seq of the balance record that asked for it */
	/* sched_setaffinity(): the stopper's queue of tasks to move (migration_cpu_stop()),
	 * first asked first, through their migration_node */
	struct list_head migration_queue;
	u32 distribute_cpu_mask_prev;	/* cpumask_any_and_distribute() called on this CPU */
	bool nohz_tick_stopped;		/* in nohz.idle_cpus_mask */
	/* before 3.8: what this tick's trigger_load_balance() left to its softirq */
	bool lb_softirq;      /* rebalance_domains() is due */
	bool lb_softirq_idle; /* ... as CPU_IDLE (rq->idle_balance) */
	s16 lb_kicked_ilb;    /* the CPU kicked to balance for the tickless ones, or -1 */
	/* before 3.8: the runqueue weight averaged per tick over 1, 2, 4, 8 and 16 ticks */
	unsigned long cpu_load[CPU_LOAD_IDX_MAX];
	u64 last_load_update_tick;				/* jiffies */
	struct list_head cfs_tasks; /* queued fair tasks, most recently run first */
	struct rt_rq rt;
	struct dl_rq dl;
	struct sched_dl_entity fair_server;	/* 6.12+: fair tasks' 50 ms per 1 s */
};

/* ---- tasks ---- */

enum { TASK_ON_RQ_QUEUED = 1, TASK_ON_RQ_MIGRATING = 2 };

struct sched_info {
	u64 pcount;
	u64 run_delay;
	u64 last_arrival;
	u64 last_queued;
};

struct sched_class;

/*
 * A wakeup, a switch and a program step touch the fields up to
 * cpus_mask; they come first, together, from the start of a cache
 * line: 10,000 tasks outgrow the caches, and each line touched is a miss.
 */
struct task_struct {
	int pid;
	int idx;			/* index in the scenario, -1 for idle tasks */
	int state;			/* enum sched_task_state */
	int on_rq;
	bool on_cpu;
	int cpu;
	int policy;
	int static_prio, prio;
	int nr_cpus_allowed; /* weight of cpus_mask */
	const struct sched_class *sched_class;
	struct sched_entity se;
	/* program state */
	const struct sched_program *prog; /* spec->prog, beside what steps it */
	int pc;
	u32 budget_used;
	u64 budget_time;		/* the instant budget_used counts statements at */
	u64 work_left;			/* task-clock ns left in the current `run` */
	bool run_forever;
	bool waiting;			/* blocked in `wait` (vs a timed sleep) */
	bool throttled;			/* 6.18+: on its queue's limbo list */
	u32 wake_pending;		/* `wake`s not yet consumed by `wait` */
	u32 *loop_count;		/* [prog->nr_loops] iterations left */
	u64 work_start;			/* clock_task when the current run stint began */
	u64 run_began;			/* when the current `run` began */
	u64 run_wall, run_asked;	/* rt-app's log: time in `run`s start to end, and asked for */
	struct sched_info sched_info;
	u64 nr_wakeups;
	u64 nvcsw, nivcsw;
	struct lane_timer wake_timer;
	u64 wake_soft;			       /* its hrtimer's range starts here (noise.c) */
	bool wake_in_tick;		       /* the tick's interrupt expired it (noise.c) */
	struct list_head slack_node;	       /* in its CPU's rq->slack_list, or empty */
	/* wakeup placement (select.c) */
	unsigned int wakee_flips;
	u64 wakee_flip_decay_ts;	/* jiffies */
	struct task_struct *last_wakee;
	int recent_used_cpu;
	/* in rq->cfs_tasks (balance.c); the kernel's se.group_node */
	struct list_head group_node;
	struct task_group *sched_task_group;
	/* its affinity: the scenario's cpus=, then sched_setaffinity(); a wakeup tests
	 * a bit of its first words, in the last hot line (CPUs 0-319) */
	struct cpumask cpus_mask;
	/* in a CPU's stopper queue (rq->migration_queue) while it waits to go to migration_dest */
	struct list_head migration_node;
	int migration_dest;
	/* the rest: other classes, blocking, creation */
	unsigned int rt_priority; /* 1..99 for SCHED_FIFO/RR */
	struct sched_rt_entity rt;
	struct sched_dl_entity dl;
	const struct sched_task_spec *spec;
	struct task_struct *throttle_next;
	s32 blocked_on;		       /* scenario.sync index it waits in, -1 when none */
	s32 relock;		       /* cond_wait: the mutex to take again once signalled, or -1 */
	struct task_struct *wait_next; /* next in that object's FIFO of waiters */
	u64 start_time;		       /* when it was forked: its timers count from here */
	struct prog_timer *timer;      /* [scenario.nr_local_timers] its "unique" timers */
	struct sched_timer fork_timer;
} __attribute__((aligned(SMP_CACHE_BYTES)));

/* A periodic timer's state (rt-app's timer resource). */
struct prog_timer {
	u64 next;		/* the end of the current period */
	bool started;		/* first use done: next counts from the user's start */
};

/* The run-time state of one scenario.sync object. */
struct sync_state {
	struct task_struct *owner;		/* mutex: holder, NULL when free */
	struct task_struct *head, *tail;	/* FIFO of blocked tasks */
	u32 arrived;				/* barrier: tasks waiting at it now */
	struct prog_timer timer;		/* shared timer */
};

/* ---- scheduling classes (kernel/sched/sched.h struct sched_class) ---- */

enum {
	ENQUEUE_WAKEUP = 0x01,
	ENQUEUE_RESTORE = 0x02,
	ENQUEUE_MOVE = 0x04,
	ENQUEUE_HEAD = 0x10,
	ENQUEUE_REPLENISH = 0x20,
	ENQUEUE_MIGRATED = 0x40,
	ENQUEUE_INITIAL = 0x80,
	ENQUEUE_DELAYED = 0x200,
	ENQUEUE_RQ_SELECTED = 0x400, /* the class's select_task_rq() was called */
};
enum {
	DEQUEUE_SLEEP = 0x01,
	DEQUEUE_SAVE = 0x02,
	DEQUEUE_MOVE = 0x04,
	DEQUEUE_SPECIAL = 0x10,
	DEQUEUE_DELAYED = 0x200,
};
enum { WF_TTWU = 0x08, WF_FORK = 0x04, WF_SYNC = 0x10 };
/* The engine's stand-in for in_task(): the wakeup comes from a running task's
 * program, not from a timer interrupt. */
#define WF_IN_TASK 0x1000

struct sched_class {
	const char *name;
	void (*enqueue_task)(struct rq *rq, struct task_struct *p, int flags);
	bool (*dequeue_task)(struct rq *rq, struct task_struct *p, int flags);
	void (*yield_task)(struct rq *rq);
	bool (*yield_to_task)(struct rq *rq, struct task_struct *p);
	void (*wakeup_preempt)(struct rq *rq, struct task_struct *p, int flags);
	struct task_struct *(*pick_task)(struct rq *rq);
	/* optional: picks and does put_prev/set_next itself (the fair class's cheap group switch) */
	struct task_struct *(*pick_next_task)(struct rq *rq, struct task_struct *prev);
	/* next: what the pick chose instead, NULL when p is put for a change of its attributes */
	void (*put_prev_task)(struct rq *rq, struct task_struct *p, struct task_struct *next);
	/* first: p was just picked; false in the change pattern (put_prev_task() ... set_next_task()) */
	void (*set_next_task)(struct rq *rq, struct task_struct *p, bool first);
	void (*task_tick)(struct rq *rq, struct task_struct *p, int queued);
	void (*reweight_task)(struct rq *rq, struct task_struct *p, unsigned long weight, u32 inv);
	void (*task_fork)(struct task_struct *p);
	/* optional: the task moved to another task group (only the fair class has group queues) */
	void (*task_change_group)(struct task_struct *p);
	/* check_class_changed(): leaving or joining the class, or a new prio within it */
	void (*switched_from)(struct rq *rq, struct task_struct *p);
	void (*switched_to)(struct rq *rq, struct task_struct *p);
	void (*prio_changed)(struct rq *rq, struct task_struct *p, int oldprio);
	/* optional (ext): joining the class, before the task is queued on it */
	void (*switching_to)(struct rq *rq, struct task_struct *p);
	/* optional (ext): before a pick, may this class find a task to run (prev_balance()) */
	int (*balance)(struct rq *rq, struct task_struct *prev);
	/* optional (ext): after set_cpus_allowed_common(), tell the class the new mask */
	void (*set_cpus_allowed)(struct task_struct *p);
};

extern const struct sched_class dl_sched_class;
extern const struct sched_class rt_sched_class;
extern const struct sched_class fair_sched_class;
extern const struct sched_class ext_sched_class;
extern const struct sched_class idle_sched_class;

/* ---- the whole state: the arena starts with this ---- */

struct sched_state {
	u64 now;
	/* LinSched's machine: jiffies as the do_timer CPU's tick last advanced them (linsched.c) */
	s32 do_timer_cpu; /* tick_do_timer_cpu, -1: none */
	u64 jiffies;
	u64 nr_events;
	u64 nr_steps;			/* timers fired: positions commands in history */
	u64 rng[4];			/* xoshiro256** */
	bool finished;
	int nr_cpus, nr_tasks;
	u64 features;
	u64 tunable[NR_SCHED_TUNABLES];	/* effective (scaled) values */
	u64 tick_nsec;
	u64 normalized_base_slice;	/* base slice / CPU-count factor */
	struct rq *rq;			/* [nr_cpus] */
	struct task_struct *task;	/* [nr_tasks] */
	struct task_struct *idle_task;	/* [nr_cpus] */
	int nr_groups;
	struct task_group *tg;		/* [nr_groups]; [0] is the root */
	struct sched_timer *action_timer;	/* [nr_actions] */
	struct sched_timer *note_timer;		/* [nr_notes] */
	struct sched_timer *irq_timer;		/* [nr_irqs] */
	struct sync_state *sync;		/* [scenario.nr_sync] */
	struct sched_timer end_timer;
	struct timer_queue tq;
	u64 resched_pending[CPUMASK_WORDS];	/* CPUs whose need_resched awaits schedule() */
	u64 resched_pending_words;		/* bit w: resched_pending[w] is not empty */
	u64 nr_calc_group_shares;	/* cost of group weights: calc_group_shares() calls */
	u64 nr_shares_walk_visits;	/* cfs_rq visits by TG_SHARES_UP_WALK walks */
	struct sched_timer rt_period_timer;	/* def_rt_bandwidth (<= 6.11) */
	u64 dl_total_bw;		/* root domain's admitted DL bandwidth (dl_bw->total_bw) */
	int waker_cpu;			/* CPU of the task executing `wake` now */
	struct sd_lb_state *sd_lb;	/* [sds->nr_domains] */
	struct sd_llc_shared *llc_shared;	/* [nr_cpus], by sd_llc_id */
	struct sched_group_capacity *sgc;	/* [sds->nr_sgc] */
	bool smt_present;		/* sched_smt_present: some CPU has SMT siblings */
	bool rd_overloaded;		/* root domain: some CPU has more than one task */
	struct herd_window *herd;
	struct scx_sched *scx; /* the ext class, NULL unless a policy is loaded */
	struct {
		struct cpumask idle_cpus_mask;
		int nr_cpus;
		u64 next_balance;	/* jiffies */
	} nohz;
};

#define SCHED_MAX_LISTENERS 8

struct sched_domains;

struct cfs_rq_sum;

struct sched_engine {
	const struct sched_scenario *sc;
	struct sched_domains *sds;	/* built from sc->topo at creation, immutable */
	int kernel;			/* KV() of the modelled release */
	int kernel_stable;		/* its stable update, 0 for the release itself */
	int variant;
	void *arena;
	size_t arena_size, arena_used;
	struct sched_state *st;
	char (*idle_comm)[24]; /* "swapper/N" per CPU, immutable */
	struct {
		sched_event_fn fn;
		void *ctx;
	} listener[SCHED_MAX_LISTENERS];
	int nr_listeners;
	/* invariants.c: on when a handler is set; scratch sums per cfs_rq */
	sched_invariant_fn invariant_fn;
	void *invariant_ctx;
	struct cfs_rq_sum *invariant_sums;
	/*
	 * Texts events refer to (the ext policy's printk lines and messages),
	 * interned: the same text always gets the same id, so a replay after a
	 * rewind emits byte-identical events. Output only, never read by the
	 * simulation, hence outside the arena.
	 */
	struct sched_texts {
		char **text; /* [nr], text[0] = "" */
		u32 nr, cap;
		u32 *slot; /* [nr_slots] open-addressing index of text ids, 0 = empty */
		u32 nr_slots;
	} texts;
};

/* The id of a text (sched_text() gives it back). */
u32 sched_text_intern(struct sched_engine *e, const char *s);
void sched_texts_free(struct sched_texts *t);

/*
 * The engine is single-threaded and the kernel's functions take no engine
 * argument, so the instance being driven is reached through this pointer,
 * set on entry to every public call (compare mode switches it between
 * engines, never concurrently).
 */
extern struct sched_engine *cur_engine;

/* Every public call, and a white-box test before it calls a kernel function, names its instance. */
static inline void sched_enter(const struct sched_engine *e)
{
	cur_engine = (struct sched_engine *)e;
}
#define E (cur_engine)
#define ST (cur_engine->st)

/* Whether c would apply (sched_apply_command's check), changing nothing. */
int sched_check_command(struct sched_engine *e, const struct sched_command *c, char *err, size_t errlen);

static inline bool sched_feat_on(enum sched_feature f) { return (ST->features >> f) & 1; }
#define sched_feat(x) sched_feat_on(FEAT_##x)
static inline u64 sysctl(enum sched_tunable t) { return ST->tunable[t]; }
static inline bool kernel_at_least(int major, int minor) { return E->kernel >= KV(major, minor); }
static inline bool sched_legacy_cfs(void) { return E->variant == SCHED_VARIANT_CFS; }
/* X.Y.Z and later updates of X.Y: a stable update with backports the engine models */
static inline bool stable_at_least(int major, int minor, int sub)
{
	return E->kernel == KV(major, minor) && E->kernel_stable >= sub;
}
/*
 * Wakeup preemption as 6.19 reworked it (e837456fdca8), with PICK_BUDDY in the pick and
 * without forcing out an ineligible waker (15257cc2f905, 6.19-rc7); 6.18.33 took both.
 */
static inline bool wakeup_preempt_rework(void)
{
	return kernel_at_least(6, 19) || stable_at_least(6, 18, 33);
}
/*
 * 6.18's stable updates took more of 6.19's rules, each named by its mainline commit.
 * yield_task_fair() forfeits the rest of an eligible task's request: 79104becf42b, 6.18.2.
 */
static inline bool yield_forfeits_request(void)
{
	return kernel_at_least(6, 19) || stable_at_least(6, 18, 2);
}
/*
 * The vruntime keys' reference follows V (zero_vruntime): 79f3f9bedd14, 6.18.4; moved to V
 * by __enqueue_entity() and __dequeue_entity() (update_zero_vruntime()).
 */
static inline bool zero_vruntime_follows_v(void)
{
	return kernel_at_least(6, 19) || stable_at_least(6, 18, 4);
}
/*
 * avg_vruntime() moves zero_vruntime itself, and the tick calls it, instead of
 * __{en,de}queue_entity(): "Fix zero_vruntime tracking" (b3d99f43c72b, after 6.19; 6.18.17).
 */
static inline bool avg_vruntime_moves_zero(void)
{
	return stable_at_least(6, 18, 17);
}
/*
 * The end of a slice pulls zero_vruntime along, not the tick, and yield_task_fair() ends
 * the request through update_deadline(): "Fix zero_vruntime tracking fix" (1319ea57529e,
 * 7.0; 6.18.22).
 */
static inline bool zero_vruntime_at_slice_end(void)
{
	return stable_at_least(6, 18, 22);
}
/*
 * __sched_fork() clears rel_deadline (3da56dc063cd, after 7.0; 6.18.33, 6.12.91): before, a
 * child kept its parent's, and with it the parent's deadline as its relative one.
 */
static inline bool fork_clears_rel_deadline(void)
{
	return stable_at_least(6, 18, 33) || stable_at_least(6, 12, 91);
}
/*
 * update_entity_lag() clamps the lag to the longest slice queued (an augmented max_slice)
 * plus a tick, not to twice the entity's own slice: "Fix lag clamp" (6e3c0a4e1ad1, 7.0; 6.18.17).
 */
static inline bool lag_clamp_max_slice(void)
{
	return stable_at_least(6, 18, 17);
}
/*
 * Slice protection is set when a task is picked, not again when the change pattern puts it
 * back (bcd74b2ffdd0, 7.0; 6.18.17).
 */
static inline bool protect_slice_at_pick_only(void)
{
	return stable_at_least(6, 18, 17);
}
/*
 * reweight_entity() keeps the running entity's slice protection relative to its
 * vruntime, scaled as its deadline is (ff38424030f9, 7.0; 6.18.17): before, vprot stayed
 * where it was while the weight moved vruntime.
 */
static inline bool reweight_scales_vprot(void)
{
	return stable_at_least(6, 18, 17);
}
/*
 * reweight_entity() takes a queued entity out with its lag and relative deadline, scales
 * both, and puts it back with place_entity(), whose V and PLACE_LAG load count the entity
 * itself when it is curr: 6d71a9c61604 (6.13; c70fc32f4443's nr_queued, 6.16), reverted
 * by 101f3498b4bd (7.1; 6.18.45) to keeping w*lag about V. 6.12.y took neither.
 */
static inline bool reweight_places_entity(void)
{
	return kernel_at_least(6, 13) && !stable_at_least(6, 18, 45);
}
/* Before 3.8 the balancer compared runqueue weights (sched_domains_legacy()). */
static inline bool legacy_balance(void)
{
	return !kernel_at_least(3, 8);
}
/* 6.12's EEVDF: fair tasks' custom slices (sched_attr.sched_runtime), and group entities asking
 * for the shortest slice below them. */
static inline bool custom_slice_supported(void) { return !sched_legacy_cfs() && kernel_at_least(6, 12); }
#define TICK_NSEC (ST->tick_nsec)

static inline struct rq *cpu_rq(int cpu) { return &ST->rq[cpu]; }
static inline struct rq *rq_of(struct cfs_rq *cfs_rq) { return cfs_rq->rq; }
static inline struct rq *task_rq(struct task_struct *p) { return cpu_rq(p->cpu); }
static inline struct cfs_rq *cfs_rq_of(struct sched_entity *se) { return se->cfs_rq; }
static inline struct cfs_rq *group_cfs_rq(struct sched_entity *se) { return se->my_q; }
static inline bool entity_is_task(const struct sched_entity *se) { return !se->my_q; }
static inline struct sched_entity *parent_entity(const struct sched_entity *se) { return se->parent; }
#define for_each_sched_entity(se) for (; se; se = se->parent)
static inline struct task_group *root_task_group(void) { return &ST->tg[0]; }
static inline struct task_struct *task_of(struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}
static inline struct task_struct *rt_task_of(struct sched_rt_entity *rt_se)
{
	return container_of(rt_se, struct task_struct, rt);
}
/*
 * The runqueue clocks count from boot, which is this long before the
 * scenario's time 0: as in the kernel they are never 0, which PELT relies
 * on (last_update_time == 0 means "not attached yet").
 */
#define SCHED_CLOCK_BOOT NSEC_PER_SEC

static inline u64 rq_clock(struct rq *rq) { return rq->clock; }
static inline u64 rq_clock_task(struct rq *rq) { return rq->clock_task; }
static inline bool task_has_idle_policy(const struct task_struct *p) { return p->policy == SCHED_IDLE; }
static inline bool cfs_rq_is_idle(const struct cfs_rq *cfs_rq) { return cfs_rq->idle > 0; }
/* A task entity is idle when its task is SCHED_IDLE, a group's when the group is cpu.idle. */
static inline bool se_is_idle(struct sched_entity *se)
{
	if (entity_is_task(se))
		return task_has_idle_policy(task_of(se));
	return cfs_rq_is_idle(group_cfs_rq(se));
}
static inline bool normal_policy(int policy) { return policy == SCHED_NORMAL; }
static inline bool rt_policy(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR; }
static inline bool dl_policy(int policy) { return policy == SCHED_DEADLINE; }
static inline bool rt_prio(int prio) { return prio < MAX_RT_PRIO; }
static inline bool dl_prio(int prio) { return prio < MAX_DL_PRIO; }
static inline bool rt_task(const struct task_struct *p) { return rt_prio(p->prio); }
static inline bool dl_task(const struct task_struct *p) { return dl_prio(p->prio); }
static inline bool task_on_rq_queued(const struct task_struct *p) { return p->on_rq == TASK_ON_RQ_QUEUED; }
static inline bool task_current(struct rq *rq, struct task_struct *p) { return rq->curr == p; }
static inline bool is_idle_task(const struct task_struct *p) { return p->pid == 0; }

/* ---- invariants.c ---- */
void sched_check_invariants(struct sched_engine *e);
void sched_warn(const char *cond, const char *file, int line);
/*
 * The kernel's SCHED_WARN_ON(): the engine goes on as the kernel does, and
 * with the invariant checks on it is a violation like theirs.
 */
#define SCHED_WARN_ON(x)                                    \
	({                                                  \
		bool __warned = !!(x);                      \
		if (__warned)                               \
			sched_warn(#x, __FILE__, __LINE__); \
		__warned;                                   \
	})

/* ---- core.c ---- */
/* rq->clock_update_flags: __schedule() skips the clock update a wakeup's preemption asked it to skip */
#define RQCF_REQ_SKIP 0x01
#define RQCF_ACT_SKIP 0x02
/* Before 4.1 (rq->skip_clock_update) that skip holds every clock update from the wakeup to the pick. */
static inline bool clock_skip_to_pick(void)
{
	return !kernel_at_least(4, 1);
}
void update_rq_clock(struct rq *rq);
void resched_curr(struct rq *rq);
void resched_pending(struct rq *rq);
void __schedule(struct rq *rq);
void sched_tick(struct rq *rq);
int try_to_wake_up(struct task_struct *p, int wake_flags);
void wake_up_new_task(struct task_struct *p, struct task_struct *parent);
void set_user_nice(struct task_struct *p, int nice);
void set_load_weight(struct task_struct *p, bool update_load);
void do_sched_yield(struct rq *rq);
bool yield_to(struct task_struct *p);
void do_task_dead(struct rq *rq);
void move_queued_task(struct task_struct *p, int dst_cpu, int event_cpu, int reason);
int cpumask_any_and_distribute(const struct cpumask *a, const struct cpumask *b, u32 *prev);
int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask);
void migration_cpu_stop(struct rq *rq);
void hrtick_start(struct rq *rq, u64 delay);
struct sched_attr {
	int policy, nice;
	unsigned int rt_priority;
	u64 slice;				/* fair: custom slice, 0 = default */
	u64 dl_runtime, dl_deadline, dl_period;
};
int __sched_setscheduler(struct task_struct *p, const struct sched_attr *attr);
/* sched_class_above(): a's tasks run before b's. */
bool sched_class_above(const struct sched_class *a, const struct sched_class *b);
/* Move p to another class as sched_ext's enable and disable paths do (dequeue, put, switch, back). */
void sched_change_class(struct task_struct *p, const struct sched_class *class);
void sched_getattr(const struct task_struct *p, struct sched_attr *attr);

/* ---- rt.c ---- */
void init_rt_rq(struct rt_rq *rt_rq, u64 rt_runtime);
void sched_rt_period_timer(void);
unsigned int sched_rr_timeslice(void);
int select_task_rq_rt(struct task_struct *p, int cpu);
void task_woken_rt(struct rq *rq, struct task_struct *p);
void balance_rt(struct rq *rq, struct task_struct *prev);
void push_rt_tasks(struct rq *rq);

/* ---- dl_bw.c: SCHED_DEADLINE bandwidth arithmetic ---- */
#define BW_SHIFT 20
#define BW_UNIT (1ULL << BW_SHIFT)
#define DL_SCALE 10

/* runtime / period << BW_SHIFT; BW_UNIT for RUNTIME_INF. */
u64 to_ratio(u64 period, u64 runtime);
/* dl_bw->bw: sched_rt_runtime_us / sched_rt_period_us, or RUNTIME_INF (no limit). */
u64 dl_bw_limit(u64 rt_period, u64 rt_runtime);
/* __dl_overflow(): would total - old + new exceed bw times capacity (cap / 1024 CPUs)? */
bool __dl_overflow(u64 bw, u64 cap, u64 total_bw, u64 old_bw, u64 new_bw);
/* What the fair servers of nr_cpus CPUs reserve (6.12+; 0 before). */
u64 fair_servers_bw(int kv, int nr_cpus, u64 runtime, u64 period);

/* ---- deadline.c ---- */
void init_dl_rq(struct dl_rq *dl_rq);
void fair_server_init(struct rq *rq);
void dl_task_timer(struct sched_dl_entity *dl_se);
void dl_server_start(struct sched_dl_entity *dl_se);
void dl_server_update(struct sched_dl_entity *dl_se, s64 delta_exec);
void dl_server_update_idle_time(struct rq *rq, struct task_struct *p);
void __setparam_dl(struct task_struct *p, u64 runtime, u64 deadline, u64 period);
int sched_dl_overflow(struct task_struct *p, int policy, u64 runtime, u64 period, bool commit);
void dl_init_bandwidth(void);
u64 dl_bw_capacity(void);

/* The kernel's launcher: tasks of the scenario are forked from this CPU. */
#define FORK_CPU 0
void set_task_cpu(struct task_struct *p, int cpu, int event_cpu, u64 cause, int reason);
void activate_task(struct rq *rq, struct task_struct *p, int flags);
void deactivate_task(struct rq *rq, struct task_struct *p, int flags);
void wakeup_preempt(struct rq *rq, struct task_struct *p, int flags);

/* ---- select.c: wakeup and fork placement ---- */
int select_task_rq(struct task_struct *p, int prev_cpu, int wake_flags, int this_cpu);
void update_idle_core(struct rq *rq);

/* ---- migrate.c ---- */
void migrate_task_rq_fair(struct task_struct *p, int new_cpu);

/* ---- balance.c ---- */
void cfs_tasks_add(struct rq *rq, struct task_struct *p);
void cfs_tasks_del(struct rq *rq, struct task_struct *p);
void cfs_tasks_move_head(struct rq *rq, struct task_struct *p);
void sched_balance_trigger(struct rq *rq);
int sched_balance_newidle(struct rq *rq);
void update_cpu_load(struct rq *rq);
int timer_cpu(const struct sched_timer *t);
void tick_stop(struct rq *rq);
void trigger_load_balance_legacy(struct rq *rq);
void run_rebalance_legacy(struct rq *rq);
void active_load_balance_cpu_stop(struct rq *rq);
void update_avg_idle(struct rq *rq);

/* ---- herd.c ---- */
void herd_note_migration(const struct sched_event *migrate);
size_t herd_arena_need(void);
void herd_init(void *(*alloc)(struct sched_engine *, size_t));

/* ---- nohz.c ---- */
void nohz_balance_enter_idle(struct rq *rq);
void nohz_balancer_kick(struct rq *rq);
size_t balance_arena_need(const struct sched_domains *sds, int nr_cpus);
void balance_init(void *(*alloc)(struct sched_engine *, size_t));

/* ---- irq.c: interrupts and steal time ---- */
void irq_source_fire(int source);
void irq_end(struct rq *rq);
void cpu_spend(struct rq *rq, u64 ns, bool irq);
/* The time the CPU has given to work, not interruptions: what `run D` consumes. */
u64 rq_clock_work(const struct rq *rq);
/* When the running task can next make progress: the end of an interruption under way, or now. */
u64 rq_work_resumes(const struct rq *rq);
/* A preemption is asked for and due: a CPU in an interruption switches at its end (irq_end()). */
static inline bool rq_switch_due(const struct rq *rq)
{
	return rq->need_resched && !rq->intr_end;
}

/* ---- pelt.c ---- */
int update_irq_load_avg(struct rq *rq, u64 running);
int update_rt_rq_load_avg(u64 now, struct rq *rq, int running);
int update_dl_rq_load_avg(u64 now, struct rq *rq, int running);
int __update_load_avg_blocked_se(u64 now, struct sched_entity *se);
int __update_load_avg_se(u64 now, struct cfs_rq *cfs_rq, struct sched_entity *se);
int __update_load_avg_cfs_rq(u64 now, struct cfs_rq *cfs_rq);
u64 decay_load(u64 val, u64 n);
void update_rq_clock_pelt(struct rq *rq, s64 delta);
void update_idle_rq_clock_pelt(struct rq *rq);
static inline u64 rq_clock_pelt(struct rq *rq) { return rq->clock_pelt - rq->lost_idle_time; }

/* ---- fair.c (shared by both pick variants) ---- */
/* update_load_avg() flags */
#define UPDATE_TG 0x1
#define SKIP_AGE_LOAD 0x2
#define DO_ATTACH 0x4
#define DO_DETACH 0x8
u64 calc_delta_fair(u64 delta, struct sched_entity *se);
void init_entity_runnable_average(struct sched_entity *se);
void post_init_entity_util_avg(struct task_struct *p);
void update_curr(struct cfs_rq *cfs_rq);
void update_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
void init_cfs_rq(struct cfs_rq *cfs_rq, struct rq *rq);
void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se);
void set_task_rq(struct task_struct *p, int cpu);
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
bool dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
bool dequeue_task_fair(struct rq *rq, struct task_struct *p, int flags);
void enqueue_task_fair(struct rq *rq, struct task_struct *p, int flags);
void se_update_runnable(struct sched_entity *se);
void set_next_buddy(struct sched_entity *se);
void set_last_buddy(struct sched_entity *se);
void clear_delayed(struct sched_entity *se);
void find_matching_se(struct sched_entity **se, struct sched_entity **pse);
void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight);
int update_cfs_rq_load_avg(u64 now, struct cfs_rq *cfs_rq);
void enqueue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void dequeue_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void attach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);
void detach_entity_load_avg(struct cfs_rq *cfs_rq, struct sched_entity *se);

/* ---- group.c: task groups, their weights and PELT across levels ---- */
void init_tg_cfs_entry(struct task_group *tg, struct cfs_rq *cfs_rq, struct sched_entity *se,
		       int cpu, struct sched_entity *parent);
long calc_group_shares(struct cfs_rq *cfs_rq);
void update_cfs_group(struct sched_entity *se);
void update_tg_load_avg(struct cfs_rq *cfs_rq);
void add_tg_cfs_propagate(struct cfs_rq *cfs_rq, long runnable_sum);
int propagate_entity_load_avg(struct sched_entity *se);
void attach_entity_cfs_rq(struct sched_entity *se);
void detach_entity_cfs_rq(struct sched_entity *se);
void update_blocked_averages(int cpu);
void update_cfs_rq_h_load(struct cfs_rq *cfs_rq);
unsigned long task_h_load(struct task_struct *p);
unsigned long h_load_now(struct cfs_rq *q);
unsigned long task_h_load_now(struct task_struct *p);
void task_change_group_fair(struct task_struct *p);
void sched_group_set_shares(struct task_group *tg, unsigned long shares);
void sched_group_set_idle(struct task_group *tg, int idle);
void sched_move_task(struct task_struct *p, struct task_group *tg);
void tg_shares_up_walk(struct rq *rq);
int check_group_command(struct task_group *tg, const struct sched_command *c, char *err, size_t errlen);
void apply_group_command(struct task_group *tg, const struct sched_command *c);
/* LinSched's host, simulated: before 3.8 (its balancer) with noise off (its lockstep machine). */
static inline bool linsched_machine(void)
{
	return legacy_balance() && !cur_engine->sc->noise;
}
/* The tick count, as the balancer's intervals and h_load's cache count time (on LinSched's
 * machine, as the do_timer CPU's tick last advanced it). */
static inline u64 jiffies(void)
{
	return linsched_machine() ? ST->jiffies : ST->now / TICK_NSEC;
}

/* ---- bandwidth.c: CFS bandwidth control ---- */
void init_cfs_bandwidth(struct task_group *tg, u64 period, u64 quota, u64 burst);
void tg_set_cfs_bandwidth(struct task_group *tg, u64 period, u64 quota, u64 burst);
void account_cfs_rq_runtime(struct cfs_rq *cfs_rq, u64 delta_exec);
bool check_cfs_rq_runtime(struct cfs_rq *cfs_rq);
void check_enqueue_throttle(struct cfs_rq *cfs_rq);
void return_cfs_rq_runtime(struct cfs_rq *cfs_rq);
void sched_cfs_period_timer(struct task_group *tg);
void sched_cfs_slack_timer(struct task_group *tg);
static inline bool cfs_rq_throttled(const struct cfs_rq *cfs_rq) { return cfs_rq->throttled; }
/* 6.18+: a throttled queue stays queued; its tasks leave one by one when picked. */
static inline bool task_based_throttle(void) { return kernel_at_least(6, 18); }
/* Before 6.18 a throttled queue's entity is off the CPU: walks up stop there. */
static inline bool throttle_stops_walk(const struct cfs_rq *cfs_rq)
{
	return cfs_rq->throttled && !task_based_throttle();
}
bool throttle_task_at_pick(struct rq *rq, struct task_struct *p);
void throttled_queue_emptied(struct cfs_rq *cfs_rq);
bool enqueue_throttled_task(struct task_struct *p);
void dequeue_throttled_task(struct task_struct *p);
static inline bool throttled_hierarchy(const struct cfs_rq *cfs_rq) { return cfs_rq->throttle_count; }
/* A throttled queue's PELT clock stops: its tasks do not decay while they cannot run
 * (6.18+: once the queue is empty, since its tasks leave one by one). */
static inline u64 cfs_rq_clock_pelt(struct cfs_rq *cfs_rq)
{
	if (task_based_throttle() ? cfs_rq->pelt_clock_throttled : cfs_rq->throttle_count)
		return cfs_rq->throttled_clock_pelt - cfs_rq->throttled_clock_pelt_time;
	return rq_clock_pelt(rq_of(cfs_rq)) - cfs_rq->throttled_clock_pelt_time;
}

/* ---- timeline.c: the ordered queue of waiting entities ---- */
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
u64 timeline_min_vruntime(struct cfs_rq *cfs_rq);
u64 timeline_min_slice(struct cfs_rq *cfs_rq);
u64 timeline_max_slice(struct cfs_rq *cfs_rq);
const char *timeline_tree_error(struct cfs_rq *cfs_rq);
void set_entity_slice(struct cfs_rq *cfs_rq, struct sched_entity *se, u64 slice);
static inline struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	return list_first_entry_or_null(&cfs_rq->tl_list, struct sched_entity, tl_node);
}
/* The next in its queue's timeline; NULL after the last. */
static inline struct sched_entity *__pick_next_entity(struct sched_entity *se)
{
	return list_is_last(&se->tl_node, &cfs_rq_of(se)->tl_list) ? NULL : list_next_entry(se, tl_node);
}
static inline s64 entity_key(const struct cfs_rq *cfs_rq, const struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs_rq->min_vruntime);
}

/* ---- eevdf.c ---- */
u64 avg_vruntime(struct cfs_rq *cfs_rq);
u64 cfs_rq_min_slice(struct cfs_rq *cfs_rq);
u64 cfs_rq_max_slice(struct cfs_rq *cfs_rq);
u64 avg_vruntime_peek(const struct cfs_rq *cfs_rq);
int entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se);
bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se);
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq, bool protect);
struct sched_entity *pick_next_entity(struct rq *rq, struct cfs_rq *cfs_rq, bool protect);
struct sched_entity *pick_eevdf_why(struct cfs_rq *cfs_rq, int *why);
struct sched_entity *pick_next_entity_why(struct cfs_rq *cfs_rq, int *why);
void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se);
bool protect_slice(struct sched_entity *se);
void cancel_protect_slice(struct sched_entity *se);
bool did_preempt_short(struct cfs_rq *cfs_rq, struct sched_entity *curr);
void check_preempt_wakeup_eevdf(struct rq *rq, struct task_struct *p, int wake_flags);
void yield_entity_eevdf(struct cfs_rq *cfs_rq, struct sched_entity *se);
void reweight_eevdf(struct sched_entity *se, u64 avruntime, unsigned long weight);
s64 reweight_scale(s64 v, unsigned long old_weight, unsigned long weight);
void update_min_vruntime(struct cfs_rq *cfs_rq);
void update_zero_vruntime(struct cfs_rq *cfs_rq);
void requeue_delayed_entity(struct sched_entity *se);

/* ---- cfs_legacy.c: the pre-6.6 fair class ---- */
u64 sched_nr_latency(void);
u64 sched_slice(struct cfs_rq *cfs_rq, struct sched_entity *se);
void place_entity_legacy(struct cfs_rq *cfs_rq, struct sched_entity *se, int initial);
u64 cfs_calc_delta_fair(u64 delta, struct sched_entity *se);
void check_preempt_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr);
struct sched_entity *pick_next_entity_legacy(struct cfs_rq *cfs_rq, struct sched_entity *curr, int *why);
void check_preempt_wakeup_legacy(struct rq *rq, struct task_struct *p, int wake_flags);
void update_min_vruntime_legacy(struct cfs_rq *cfs_rq);
void task_fork_legacy(struct task_struct *p);

/* ---- program.c: the task's workload ---- */
void task_program_step(struct task_struct *p);
void task_account_work(struct rq *rq, struct task_struct *p);
void task_arm_work(struct rq *rq, struct task_struct *p);

/* ---- rand.c ---- */
void sched_rand_seed(u64 seed);
u64 sched_rand(void);
u64 sched_rand_upto(u64 hi);

/* ---- linsched.c ---- */
void linsched_trigger_cpu(struct rq *rq);
void linsched_stop_one_cpu_nowait(struct rq *rq);
void linsched_wake_stop(struct rq *rq);
void linsched_do_timer(struct rq *rq);
void linsched_drop_do_timer(struct rq *rq);
void linsched_jiffies_update(void);

/* ---- noise.c ---- */
u64 irq_entry_delay(void);
u64 sched_cost(enum sched_tunable t);
void hrtimer_sleep(struct task_struct *p, u64 expires);
void hrtimer_sleep_over(struct task_struct *p);
void hrtimer_wakeup_irq(struct task_struct *p);
void hrtimer_expire_ranges(struct rq *rq);
u64 sched_sample_duration(const struct sched_duration *d);

/* ---- events ---- */
void sched_emit(struct sched_event *ev);
static inline void sched_event_init(struct sched_event *ev, int type, int cpu)
{
	/* zeroed whole, padding included, so events compare and hash as bytes */
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->cpu = cpu;
	ev->time = ST->now;
}

#endif
