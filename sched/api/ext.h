/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedscope-ext: scheduling policies written in C against the interface of
 * sched_ext (Linux 6.12's struct sched_ext_ops and scx_bpf_* kfuncs), built
 * into a shared object and run by the simulator's ext class. See
 * schedscope-ext(7). Installed as <schedscope/ext.h>; a policy includes
 * only this.
 *
 * Porting a BPF scheduler: `struct task_struct` is `struct scx_task`, BPF
 * globals become fields of the memory scx_global_data() returns, task
 * storage scx_task_data(), per-CPU arrays scx_cpu_data(). A policy may keep
 * no writable global data of its own: the loader refuses it, because
 * checkpoints and rewind only cover memory the engine hands out.
 */
#ifndef SCHEDSCOPE_EXT_H
#define SCHEDSCOPE_EXT_H

#include "types.h"

/* Bumped whenever struct sched_ext_ops or struct scx_task change. */
#define SCHEDSCOPE_EXT_ABI 1

#define SCX_OPS_NAME_LEN 128
#define SCX_SLICE_DFL (20ULL * 1000000) /* 20 ms */
#define SCX_SLICE_INF (~0ULL)		/* never expires: only a kick ends it */

/* Dispatch queue IDs: bit 63 marks the built-in ones, LOCAL_ON carries a CPU. */
#define SCX_DSQ_FLAG_BUILTIN (1ULL << 63)
#define SCX_DSQ_FLAG_LOCAL_ON (1ULL << 62)
#define SCX_DSQ_INVALID (SCX_DSQ_FLAG_BUILTIN | 0)
#define SCX_DSQ_GLOBAL (SCX_DSQ_FLAG_BUILTIN | 1)
#define SCX_DSQ_LOCAL (SCX_DSQ_FLAG_BUILTIN | 2)
#define SCX_DSQ_LOCAL_ON (SCX_DSQ_FLAG_BUILTIN | SCX_DSQ_FLAG_LOCAL_ON)
#define SCX_DSQ_LOCAL_CPU_MASK 0xffffffffULL

/* sched_ext_ops.flags */
#define SCX_OPS_KEEP_BUILTIN_IDLE (1ULL << 0)
#define SCX_OPS_ENQ_LAST (1ULL << 1)
#define SCX_OPS_ENQ_EXITING (1ULL << 2)
#define SCX_OPS_SWITCH_PARTIAL (1ULL << 3)
#define SCX_OPS_ALL_FLAGS \
	(SCX_OPS_KEEP_BUILTIN_IDLE | SCX_OPS_ENQ_LAST | SCX_OPS_ENQ_EXITING | SCX_OPS_SWITCH_PARTIAL)

/* ops.select_cpu() wake_flags */
#define SCX_WAKE_FORK 0x04ULL
#define SCX_WAKE_TTWU 0x08ULL
#define SCX_WAKE_SYNC 0x10ULL

/* enq_flags: the core's ENQUEUE_* bits in the low word, sched_ext's above */
#define SCX_ENQ_WAKEUP 0x01ULL
#define SCX_ENQ_HEAD 0x10ULL
#define SCX_ENQ_CPU_SELECTED 0x400ULL
#define SCX_ENQ_PREEMPT (1ULL << 32)
#define SCX_ENQ_REENQ (1ULL << 40)
#define SCX_ENQ_LAST (1ULL << 41)
#define __SCX_ENQ_INTERNAL_MASK (0xffULL << 56)

/* deq_flags */
#define SCX_DEQ_SLEEP 0x01ULL

/* scx_bpf_pick_idle_cpu() flags */
#define SCX_PICK_IDLE_CORE (1ULL << 0)

/* scx_bpf_kick_cpu() flags */
#define SCX_KICK_IDLE (1ULL << 0)
#define SCX_KICK_PREEMPT (1ULL << 1)
#define SCX_KICK_WAIT (1ULL << 2)

/* p->scx.flags (read only) */
#define SCX_TASK_QUEUED (1U << 0)
#define SCX_TASK_RESET_RUNNABLE_AT (1U << 2)
#define SCX_TASK_DEQD_FOR_SLEEP (1U << 3)

/* scx_exit_info.kind */
enum scx_exit_kind {
	SCX_EXIT_NONE,
	SCX_EXIT_DONE,
	SCX_EXIT_UNREG = 64, /* user-space initiated unregistration */
	SCX_EXIT_UNREG_BPF,  /* the policy called scx_bpf_exit() */
	SCX_EXIT_UNREG_KERN, /* the simulator unloaded it */
	SCX_EXIT_SYSRQ,
	SCX_EXIT_ERROR = 1024, /* runtime error: the message says what */
	SCX_EXIT_ERROR_BPF,    /* the policy called scx_bpf_error() */
	SCX_EXIT_ERROR_STALL,  /* the watchdog found a runnable task that did not run */
};

enum scx_cpu_preempt_reason {
	SCX_CPU_PREEMPT_RT,
	SCX_CPU_PREEMPT_DL,
	SCX_CPU_PREEMPT_STOP,
	SCX_CPU_PREEMPT_UNKNOWN,
};

struct scx_exit_info {
	enum scx_exit_kind kind;
	s64 exit_code;
	const char *reason; /* the kind in words */
	const char *msg;    /* what went wrong, or the policy's own words */
};

struct scx_init_task_args {
	bool fork; /* called at the task's fork (always, in schedscope) */
};

struct scx_exit_task_args {
	bool cancelled; /* the task left before it ever ran on ext */
};

struct scx_cpu_acquire_args {
	int unused;
};

struct scx_cpu_release_args {
	enum scx_cpu_preempt_reason reason;
	struct scx_task *task; /* what will run instead */
};

/* The part of a task the class keeps for the policy (the kernel's p->scx). */
struct sched_ext_entity {
	u32 flags;     /* SCX_TASK_*: read only */
	u32 weight;    /* 1..10000, 100 for nice 0: read only */
	u64 slice;     /* ns left to run; set by dispatch, may be written */
	u64 dsq_vtime; /* order in a vtime DSQ; may be written */
	bool disallow; /* set in ops.init_task(): keep the task off ext */
};

#define SCX_TASK_COMM_LEN 48

/* A task as a policy sees it (the kernel's struct task_struct). */
struct scx_task {
	s32 pid;
	char comm[SCX_TASK_COMM_LEN];
	u32 flags;	 /* PF_* (none are set by schedscope yet) */
	s32 policy;	 /* SCHED_NORMAL 0, BATCH 3, IDLE 5, EXT 7 */
	s32 static_prio; /* 120 + nice */
	s32 prio;
	s32 nr_cpus_allowed;
	const struct cpumask *cpus_ptr;
	struct sched_ext_entity scx;
};

/* A BPF timer: lives in the policy's state, started with bpf_timer_start(). */
struct bpf_timer {
	u64 opaque[2];
};

#define BPF_F_TIMER_ABS (1ULL << 0)
#define BPF_F_TIMER_CPU_PIN (1ULL << 1)

/*
 * The operations table, as struct sched_ext_ops of Linux 6.12 (the
 * cgroup, core-sched, hotplug and dump operations are left out: the
 * simulator has none of those). Every operation is optional.
 */
struct sched_ext_ops {
	s32 (*select_cpu)(struct scx_task *p, s32 prev_cpu, u64 wake_flags);
	void (*enqueue)(struct scx_task *p, u64 enq_flags);
	void (*dequeue)(struct scx_task *p, u64 deq_flags);
	void (*dispatch)(s32 cpu, struct scx_task *prev);
	void (*tick)(struct scx_task *p);
	void (*runnable)(struct scx_task *p, u64 enq_flags);
	void (*running)(struct scx_task *p);
	void (*stopping)(struct scx_task *p, bool runnable);
	void (*quiescent)(struct scx_task *p, u64 deq_flags);
	bool (*yield)(struct scx_task *from, struct scx_task *to);
	void (*set_weight)(struct scx_task *p, u32 weight);
	void (*set_cpumask)(struct scx_task *p, const struct cpumask *cpumask);
	void (*update_idle)(s32 cpu, bool idle);
	void (*cpu_acquire)(s32 cpu, struct scx_cpu_acquire_args *args);
	void (*cpu_release)(s32 cpu, struct scx_cpu_release_args *args);
	s32 (*init_task)(struct scx_task *p, struct scx_init_task_args *args);
	void (*exit_task)(struct scx_task *p, struct scx_exit_task_args *args);
	void (*enable)(struct scx_task *p);
	void (*disable)(struct scx_task *p);
	s32 (*init)(void);
	void (*exit)(struct scx_exit_info *info);

	u32 dispatch_max_batch; /* 0: 32 */
	u64 flags;		/* SCX_OPS_* */
	u32 timeout_ms;		/* watchdog, at most 30000; 0: the scx_watchdog_timeout tunable */
	char name[SCX_OPS_NAME_LEN];

	/* schedscope's: the memory the engine hands out, zeroed at load */
	u32 global_size; /* scx_global_data() */
	u32 task_size;	 /* scx_task_data(p), one per task */
	u32 cpu_size;	 /* scx_cpu_data(cpu), one per CPU */
	u32 abi;	 /* SCHEDSCOPE_EXT_ABI, set by SCX_OPS_DEFINE() */
};

/* The policy's one exported symbol: SCX_OPS_DEFINE(simple_ops, .enqueue = ..., .name = "simple"); */
#define SCX_OPS_SYMBOL schedscope_ext_ops
#define SCX_OPS_DEFINE(__name, ...)            \
	__attribute__((visibility("default"))) \
	const struct sched_ext_ops SCX_OPS_SYMBOL = { .abi = SCHEDSCOPE_EXT_ABI, __VA_ARGS__ }

/* BPF_STRUCT_OPS(name, args...) as the kernel's tools/sched_ext write it: a plain function here. */
#define BPF_STRUCT_OPS(name, args...) name(args)
#define BPF_STRUCT_OPS_SLEEPABLE(name, args...) name(args)

/* ---- kfuncs, by their Linux 6.12 names ---- */

s32 scx_bpf_select_cpu_dfl(struct scx_task *p, s32 prev_cpu, u64 wake_flags, bool *is_idle);
void scx_bpf_dispatch(struct scx_task *p, u64 dsq_id, u64 slice, u64 enq_flags);
void scx_bpf_dispatch_vtime(struct scx_task *p, u64 dsq_id, u64 slice, u64 vtime, u64 enq_flags);
u32 scx_bpf_dispatch_nr_slots(void);
void scx_bpf_dispatch_cancel(void);
bool scx_bpf_consume(u64 dsq_id);
u32 scx_bpf_reenqueue_local(void);
s32 scx_bpf_create_dsq(u64 dsq_id, s32 node);
void scx_bpf_destroy_dsq(u64 dsq_id);
void scx_bpf_kick_cpu(s32 cpu, u64 flags);
s32 scx_bpf_dsq_nr_queued(u64 dsq_id);
void scx_bpf_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void scx_bpf_exit(s64 exit_code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
u32 scx_bpf_nr_cpu_ids(void);
const struct cpumask *scx_bpf_get_possible_cpumask(void);
const struct cpumask *scx_bpf_get_online_cpumask(void);
void scx_bpf_put_cpumask(const struct cpumask *cpumask);
const struct cpumask *scx_bpf_get_idle_cpumask(void);
const struct cpumask *scx_bpf_get_idle_smtmask(void);
void scx_bpf_put_idle_cpumask(const struct cpumask *cpumask);
bool scx_bpf_test_and_clear_cpu_idle(s32 cpu);
s32 scx_bpf_pick_idle_cpu(const struct cpumask *cpus_allowed, u64 flags);
s32 scx_bpf_pick_any_cpu(const struct cpumask *cpus_allowed, u64 flags);
bool scx_bpf_task_running(const struct scx_task *p);
s32 scx_bpf_task_cpu(const struct scx_task *p);

/* 6.13 renamed the dispatch kfuncs; both spellings work. */
static inline void scx_bpf_dsq_insert(struct scx_task *p, u64 dsq_id, u64 slice, u64 enq_flags)
{
	scx_bpf_dispatch(p, dsq_id, slice, enq_flags);
}
static inline void scx_bpf_dsq_insert_vtime(struct scx_task *p, u64 dsq_id, u64 slice, u64 vtime,
					    u64 enq_flags)
{
	scx_bpf_dispatch_vtime(p, dsq_id, slice, vtime, enq_flags);
}
static inline bool scx_bpf_dsq_move_to_local(u64 dsq_id)
{
	return scx_bpf_consume(dsq_id);
}

/* Later kernels' (scx_bpf_now() 6.14, the node ones 6.15). */
u64 scx_bpf_now(void);
s32 scx_bpf_cpu_node(s32 cpu);
u32 scx_bpf_nr_node_ids(void);

/* ---- BPF helpers a scheduler uses ---- */

u64 bpf_ktime_get_ns(void);
u32 bpf_get_smp_processor_id(void);
struct scx_task *bpf_task_from_pid(s32 pid);
void bpf_task_release(struct scx_task *p);
bool bpf_cpumask_test_cpu(u32 cpu, const struct cpumask *cpumask);
u32 bpf_cpumask_weight(const struct cpumask *cpumask);
u32 bpf_cpumask_first(const struct cpumask *cpumask);
/* A line on the event stream (schedscope_ext_printk), naming the callback that wrote it. */
int bpf_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
long bpf_timer_init(struct bpf_timer *timer, void *map, u64 flags);
long bpf_timer_set_callback(struct bpf_timer *timer,
			    int (*callback)(void *map, int *key, struct bpf_timer *timer));
long bpf_timer_start(struct bpf_timer *timer, u64 nsecs, u64 flags);
long bpf_timer_cancel(struct bpf_timer *timer);

/* ---- schedscope's own: the policy's memory and the machine's shape ---- */

void *scx_global_data(void);
void *scx_task_data(const struct scx_task *p);
void *scx_cpu_data(s32 cpu);
/* The last-level cache a CPU belongs to (0..scx_nr_llc_ids()-1): a BPF
 * scheduler reads this from sysfs in its loader. */
s32 scx_cpu_llc(s32 cpu);
u32 scx_nr_llc_ids(void);

#endif
