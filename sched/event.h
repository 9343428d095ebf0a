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
	EV_SCHED_SET_NICE,	/* a nice/policy/slice change took effect */
	EV_SCHED_YIELD,		/* do_sched_yield() or yield_to() */
	EV_COMMAND,		/* a run-time command was applied */
	EV_NOTE,		/* a scenario caption */
	EV_CFS_THROTTLE,	/* a group's queue ran out of runtime and left its CPU */
	EV_CFS_UNTHROTTLE,	/* it got runtime again */
	EV_CFS_PERIOD,		/* a group's bandwidth period ended: the pool is refilled */
	EV_IRQ_ENTRY,		/* irq:irq_handler_entry */
	EV_IRQ_EXIT,		/* irq:irq_handler_exit, with the time the interruption took */
	EV_STEAL,		/* the hypervisor gave the CPU back after stealing it */
	EV_PROG_TIMER,		/* a task reached its `timer`: one rt-app period ends */
	NR_SCHED_EVENTS
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
	};
};

extern const char *const sched_event_names[NR_SCHED_EVENTS];

#endif
