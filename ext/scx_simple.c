// SPDX-License-Identifier: GPL-2.0
/*
 * scx_simple for schedscope: tools/sched_ext/scx_simple.bpf.c of Linux
 * 6.12, ported. A global weighted-vtime scheduler (build with
 * -DFIFO_SCHED=1, as scx_simple_fifo.c does, for global FIFO).
 *
 * A waking task that finds an idle CPU (the default selection) goes
 * straight to that CPU's local queue; everything else waits in one shared
 * queue that every CPU consumes. In vtime mode a task is charged the time
 * it ran scaled by 100 / weight, and one that slept for long comes back
 * at most one slice behind the queue's clock.
 *
 * What changed from the BPF source: `struct task_struct` is `struct
 * scx_task`; the globals (vtime_now, the local/global statistics) live in
 * struct simple_global, which the engine hands out (.global_size).
 */
#include <schedscope/ext.h>

#ifndef FIFO_SCHED
#define FIFO_SCHED 0
#define SIMPLE_NAME "simple"
#else
#define SIMPLE_NAME "simple_fifo"
#endif

/*
 * Built-in DSQs such as SCX_DSQ_GLOBAL cannot be used as priority queues;
 * a DSQ with ID 0 is created for dispatching and consuming.
 */
#define SHARED_DSQ 0

struct simple_global {
	u64 vtime_now;
	u64 nr_local, nr_global; /* the BPF version's stats map: [local, global] */
};

static struct simple_global *glob(void)
{
	return scx_global_data();
}

static bool vtime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

s32 BPF_STRUCT_OPS(simple_select_cpu, struct scx_task *p, s32 prev_cpu, u64 wake_flags)
{
	bool is_idle = false;
	s32 cpu;

	cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &is_idle);
	if (is_idle) {
		glob()->nr_local++; /* count local queueing */
		scx_bpf_dispatch(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
	}
	return cpu;
}

void BPF_STRUCT_OPS(simple_enqueue, struct scx_task *p, u64 enq_flags)
{
	glob()->nr_global++; /* count global queueing */

	if (FIFO_SCHED) {
		scx_bpf_dispatch(p, SHARED_DSQ, SCX_SLICE_DFL, enq_flags);
	} else {
		u64 vtime = p->scx.dsq_vtime;

		/* limit the budget an idling task can accumulate to one slice */
		if (vtime_before(vtime, glob()->vtime_now - SCX_SLICE_DFL))
			vtime = glob()->vtime_now - SCX_SLICE_DFL;
		scx_bpf_dispatch_vtime(p, SHARED_DSQ, SCX_SLICE_DFL, vtime, enq_flags);
	}
}

void BPF_STRUCT_OPS(simple_dispatch, s32 cpu, struct scx_task *prev)
{
	scx_bpf_consume(SHARED_DSQ);
}

void BPF_STRUCT_OPS(simple_running, struct scx_task *p)
{
	if (FIFO_SCHED)
		return;
	/* global vtime always progresses forward as tasks start executing */
	if (vtime_before(glob()->vtime_now, p->scx.dsq_vtime))
		glob()->vtime_now = p->scx.dsq_vtime;
}

void BPF_STRUCT_OPS(simple_stopping, struct scx_task *p, bool runnable)
{
	if (FIFO_SCHED)
		return;
	/*
	 * Scale the execution time by the inverse of the weight and charge.
	 * A yield sets the slice to zero: it is charged a whole slice.
	 */
	p->scx.dsq_vtime += (SCX_SLICE_DFL - p->scx.slice) * 100 / p->scx.weight;
}

void BPF_STRUCT_OPS(simple_enable, struct scx_task *p)
{
	p->scx.dsq_vtime = glob()->vtime_now;
}

s32 BPF_STRUCT_OPS_SLEEPABLE(simple_init)
{
	return scx_bpf_create_dsq(SHARED_DSQ, -1);
}

void BPF_STRUCT_OPS(simple_exit, struct scx_exit_info *ei)
{
	/* what the user-space half prints: local=N global=N */
	bpf_printk("local=%llu global=%llu", (unsigned long long)glob()->nr_local,
		   (unsigned long long)glob()->nr_global);
}

SCX_OPS_DEFINE(simple_ops, .select_cpu = simple_select_cpu, .enqueue = simple_enqueue,
	       .dispatch = simple_dispatch, .running = simple_running, .stopping = simple_stopping,
	       .enable = simple_enable, .init = simple_init, .exit = simple_exit, .name = SIMPLE_NAME,
	       .global_size = sizeof(struct simple_global));
