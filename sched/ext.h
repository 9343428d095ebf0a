/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ext class's state (kernel/sched/ext.c of Linux 6.12): dispatch
 * queues, per-task and per-CPU bookkeeping, and the loaded policy. All of
 * it lives in the engine's arena, allocated only when the scenario loads a
 * policy; the policy's own memory (global, per task, per CPU) is carved
 * from the same arena, so checkpoints and rewind cover it.
 *
 * The engine is single-threaded, so the kernel's cross-CPU protocols
 * (holding_cpu, the QUEUEING and DISPATCHING waits, irq_work bounces) are
 * not needed; what they guarantee still holds: a dispatch of a task the
 * policy does not own is ignored, kicks and deferred dispatches run after
 * the operation that asked for them, and a disable happens at a safe point.
 */
#ifndef SCHED_EXT_INTERNAL_H
#define SCHED_EXT_INTERNAL_H

#include "internal.h"
#include "api/ext.h"

enum scx_consts {
	SCX_DSP_DFL_MAX_BATCH = 32,
	SCX_DSP_MAX_LOOPS = 32,
	SCX_WATCHDOG_MAX_TIMEOUT_MS = 30 * 1000,
	SCX_EXIT_MSG_LEN = 1024,
	SCX_NR_TIMERS = 16, /* bpf_timers a policy may start */
	/* schedule() runs on one CPU at one instant before the policy counts as live-locked */
	SCX_MAX_RESCHED_PER_INSTANT = 10000,
};

/* enq_flags the class adds internally, above the policy's */
#define SCX_ENQ_CLEAR_OPSS (1ULL << 56)
#define SCX_ENQ_DSQ_PRIQ (1ULL << 57)
#define SCX_DEQ_CORE_SCHED_EXEC (1ULL << 32)
/* dispatch_enqueue()'s op for the class's own inserts that only move a task: no event */
#define SCX_OP_QUIET 0xff

enum scx_ops_enable_state {
	SCX_OPS_ENABLING,
	SCX_OPS_ENABLED,
	SCX_OPS_DISABLING,
	SCX_OPS_DISABLED
};

/* sched_ext_entity.ops_state: who owns the task (no QUEUEING/DISPATCHING waits here) */
enum scx_ops_state {
	SCX_OPSS_NONE,
	SCX_OPSS_QUEUEING,
	SCX_OPSS_QUEUED,
	SCX_OPSS_DISPATCHING
};

enum scx_task_state {
	SCX_TASK_NONE,
	SCX_TASK_INIT,
	SCX_TASK_READY,
	SCX_TASK_ENABLED
};

/* scx_rq.flags */
enum {
	SCX_RQ_ONLINE = 1 << 0,
	SCX_RQ_BAL_PENDING = 1 << 2,
	SCX_RQ_BAL_KEEP = 1 << 3,
	SCX_RQ_BYPASSING = 1 << 4,
	SCX_RQ_IN_BALANCE = 1 << 17,
};

/* scx_kf_mask: which kfuncs the running operation may call */
enum {
	SCX_KF_UNLOCKED = 0,
	SCX_KF_CPU_RELEASE = 1 << 0,
	SCX_KF_DISPATCH = 1 << 1,
	SCX_KF_ENQUEUE = 1 << 2,
	SCX_KF_SELECT_CPU = 1 << 3,
	SCX_KF_REST = 1 << 4,
};

struct scx_entity;

/* struct scx_dispatch_q: a FIFO, or a vtime-ordered queue (then the list is kept in vtime order). */
struct scx_dispatch_q {
	u64 id; /* SCX_DSQ_INVALID once destroyed */
	struct list_head list; /* its tasks, in the order they are consumed */
	u32 nr;
	u32 nr_priq; /* tasks queued by vtime */
	s32 cpu;     /* a local DSQ's CPU, -1 otherwise */
	s32 node;
};

/* A task's part of the class (the kernel's sched_ext_entity). */
struct scx_entity {
	struct scx_task view; /* what the policy sees: its pointers point here */
	struct task_struct *task;
	struct scx_dispatch_q *dsq;
	struct list_head dsq_node; /* in dsq->list (the kernel's dsq_list.node) */
	bool on_priq;
	u8 state;     /* enum scx_task_state */
	u8 ops_state; /* enum scx_ops_state */
	u8 ddsp_op;   /* the operation that direct-dispatched it */
	u32 ops_qseq;
	s32 sticky_cpu;
	struct list_head runnable_node; /* in rq->scx.runnable_list */
	bool runnable;
	u64 runnable_at; /* jiffies */
	u64 ddsp_dsq_id, ddsp_enq_flags;
	bool ddsp_deferred; /* on its rq's deferred local dispatch list */
	struct scx_entity *ddsp_next;
	void *data; /* ops.task_size bytes */
};

/* struct scx_rq */
struct scx_rq {
	struct scx_dispatch_q local_dsq;
	struct list_head runnable_list; /* runnable tasks, in the order they became so */
	struct scx_entity *ddsp_first, *ddsp_last;
	u64 extra_enq_flags;
	u32 nr_running;
	u32 flags;
	bool cpu_released;
	u64 resched_at; /* the instant resched_count counts schedules at */
	u32 resched_count;
	void *data; /* ops.cpu_size bytes */
};

/* One scx_bpf_dispatch() inside ops.dispatch(), finished when the operation returns. */
struct scx_dsp_buf_ent {
	struct scx_entity *task;
	u32 qseq;
	u8 op;
	u64 dsq_id;
	u64 enq_flags;
};

struct scx_timer_slot {
	struct sched_timer timer;
	int (*callback)(void *map, int *key, struct bpf_timer *timer);
	struct bpf_timer *owner;
	s32 cpu; /* the CPU that started it: the callback runs there */
	bool used;
	u64 fired_at; /* the instant fired_count counts callbacks at */
	u32 fired_count;
};

/* Everything of the class: ST->scx, NULL when the scenario loads no policy. */
struct scx_sched {
	const struct sched_ext_ops *ops;
	u8 enable_state;
	bool loaded; /* scx_ops_enable() has run */
	bool switching_all;
	bool builtin_idle;
	/* exit: set by the first error (scx_claim_exit), acted on at the next safe point */
	u32 exit_kind;
	s64 exit_code;
	u8 exit_op;
	s32 exit_pid;
	s32 exit_cpu;
	char exit_msg[SCX_EXIT_MSG_LEN];
	u64 watchdog_timeout; /* jiffies */
	struct sched_timer watchdog_timer;
	/* the operation being called, what it may call, and on which CPU it runs */
	u8 cur_op;
	u32 kf_mask;
	struct scx_entity *kf_tasks[2];
	s32 this_cpu;
	struct scx_entity *ddsp_task; /* the task being enqueued or selected (direct dispatch) */
	bool ddsp_done;		      /* ... and it was direct-dispatched already */
	/* queues */
	struct scx_rq *rq;	       /* [nr_cpus] */
	struct scx_dispatch_q *global; /* [nr_nodes]: 6.12 splits the global DSQ per node */
	int nr_nodes;
	struct scx_dispatch_q *user; /* [cap_user] */
	int nr_user, cap_user;
	struct scx_entity *ent; /* [nr_tasks] */
	/* dispatch buffer of ops.dispatch() */
	struct rq *dsp_rq;
	u32 dsp_cursor, dsp_nr_tasks, dsp_max_batch;
	struct scx_dsp_buf_ent *dsp_buf; /* [dsp_max_batch] */
	/* idle tracking (idle_masks), pending kicks, CPU masks handed to the policy */
	struct cpumask idle_cpu, idle_smt;
	struct cpumask kick, kick_if_idle, kick_preempt;
	bool kicks_pending;
	struct cpumask possible;
	s32 *cpu_llc; /* [nr_cpus] dense LLC ids */
	u32 nr_llcs;
	struct scx_timer_slot timer[SCX_NR_TIMERS];
	void *global_data; /* the policy's memory: global, then per task, then per CPU */
	char *mem_end;
	bool warned_zero_slice;
	u32 distribute_prev; /* cpumask_any_and_distribute()'s last pick */
};

static inline struct scx_sched *scx(void)
{
	return ST->scx;
}
static inline bool scx_enabled(void)
{
	return ST->scx && ST->scx->enable_state != SCX_OPS_DISABLED;
}
static inline bool scx_switched_all(void)
{
	return scx_enabled() && ST->scx->switching_all;
}
static inline struct scx_rq *scx_rq(const struct rq *rq)
{
	return &ST->scx->rq[rq->cpu];
}
static inline struct scx_entity *scx_ent(const struct task_struct *p)
{
	return &ST->scx->ent[p->idx];
}
static inline struct scx_entity *scx_ent_of_view(const struct scx_task *v)
{
	return container_of(v, struct scx_entity, view);
}
static inline bool task_on_scx(const struct task_struct *p)
{
	return p->sched_class == &ext_sched_class;
}
static inline bool scx_rq_bypassing(const struct rq *rq)
{
	return scx_rq(rq)->flags & SCX_RQ_BYPASSING;
}

#define SCX_HAS_OP(op) (ST->scx->ops->op != NULL)

/* SCX_CALL_OP_TASK(): op runs with the kfuncs of mask, on task se (may be NULL). */
#define SCX_CALL_OP(mask, opnum, se, call)                   \
	do {                                                 \
		struct scx_call __c;                         \
		scx_call_begin(&__c, opnum, mask, se, NULL); \
		call;                                        \
		scx_call_end(&__c);                          \
	} while (0)

#define SCX_CALL_OP_RET(mask, opnum, se0, se1, call)         \
	({                                                   \
		struct scx_call __c;                         \
		__typeof__(call) __ret;                      \
		scx_call_begin(&__c, opnum, mask, se0, se1); \
		__ret = call;                                \
		scx_call_end(&__c);                          \
		__ret;                                       \
	})

/* ---- ext.c: the class; ext_enable.c: the policy's life ---- */
/* what the rest of the engine calls */
size_t scx_arena_need(const struct sched_scenario *sc);
void scx_init(void *(*alloc)(struct sched_engine *, size_t));
bool task_should_scx(int policy);
int select_task_rq_scx(struct task_struct *p, int prev_cpu, int wake_flags, int this_cpu);
void scx_fork(struct task_struct *p);
void scx_task_dead(struct task_struct *p);
void scx_tick(struct rq *rq);
void scx_update_idle(struct rq *rq, bool idle, bool do_notify);
void scx_note_balance_pending(struct rq *rq);
void scx_run_deferred(void);
void scx_watchdog_timer_fn(void);
void scx_timer_fn(int slot);
void scx_task_info(const struct task_struct *p, struct sched_task_info *out);
/* inside the class */
/* scx_ops_exit_kind(): the first exit claimed wins; op is the operation to blame, p the task named. */
void scx_exit_op(u32 kind, s64 exit_code, u8 op, const struct task_struct *p, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
#define scx_ops_error_op(op, p, fmt, ...) scx_exit_op(SCX_EXIT_ERROR, 0, op, p, fmt, ##__VA_ARGS__)
#define scx_ops_error(fmt, ...) scx_ops_error_op(ST->scx->cur_op, NULL, fmt, ##__VA_ARGS__)
void do_enqueue_task(struct rq *rq, struct task_struct *p, u64 enq_flags, int sticky_cpu);
void ops_dequeue(struct task_struct *p, u64 deq_flags);
bool ops_cpu_valid(s32 cpu, const char *where);
void scx_emit_printk(const char *text);
s32 ops_sanitize_err(const char *ops_name, s32 err);
void clear_direct_dispatch(struct scx_entity *se);
void scx_ops_exit_task(struct task_struct *p);
/* Call an operation of the policy with the kfuncs `mask` allows, on tasks t0, t1. */
struct scx_call {
	u8 op;
	u32 mask;
	struct scx_entity *t0, *t1;
	u8 saved_op;
	u32 saved_mask;
	struct scx_entity *saved_t0, *saved_t1;
};
void scx_call_begin(struct scx_call *c, u8 op, u32 mask, struct scx_entity *t0, struct scx_entity *t1);
void scx_call_end(struct scx_call *c);

/* ---- ext_dsq.c: dispatch queues ---- */
void init_dsq(struct scx_dispatch_q *dsq, u64 id, s32 cpu, s32 node);
/* The task consumed first, or NULL. */
static inline struct scx_entity *dsq_first(struct scx_dispatch_q *dsq)
{
	return list_first_entry_or_null(&dsq->list, struct scx_entity, dsq_node);
}
struct scx_dispatch_q *find_global_dsq(struct task_struct *p);
struct scx_dispatch_q *find_user_dsq(u64 dsq_id);
struct scx_dispatch_q *find_dsq_for_dispatch(struct rq *rq, u64 dsq_id, struct task_struct *p, u8 op);
void dispatch_enqueue(struct scx_dispatch_q *dsq, struct task_struct *p, u64 enq_flags, u8 op);
void dispatch_dequeue(struct rq *rq, struct task_struct *p);
void dispatch_to_local_dsq(struct rq *rq, struct scx_dispatch_q *dst_dsq, struct task_struct *p,
			   u64 enq_flags, u8 op);
bool consume_dispatch_q(struct rq *rq, struct scx_dispatch_q *dsq, u8 op);
bool consume_global_dsq(struct rq *rq);
s32 create_dsq(u64 dsq_id, s32 node);
void destroy_dsq(u64 dsq_id);
static inline struct task_struct *first_local_task(struct rq *rq)
{
	struct scx_entity *se = dsq_first(&scx_rq(rq)->local_dsq);
	return se ? se->task : NULL;
}

/* ---- ext_idle.c: built-in idle tracking and the default CPU selection ---- */
void scx_reset_idle_masks(void);
void update_builtin_idle(int cpu, bool idle);
bool test_and_clear_cpu_idle(int cpu);
s32 scx_pick_idle_cpu(const struct cpumask *cpus_allowed, u64 flags);
s32 scx_select_cpu_dfl(struct task_struct *p, s32 prev_cpu, u64 wake_flags, bool *found);

/* ---- ext_kfunc.c: what the policy calls ---- */
void flush_dispatch_buf(struct rq *rq);
/* scx_bpf_kick_cpu() without its checks: what the class asks for itself */
void scx_kick_cpu(s32 cpu, u64 flags);
void scx_kick_cpus(void);

#endif
