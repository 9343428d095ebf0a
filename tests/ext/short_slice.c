// SPDX-License-Identifier: GPL-2.0
/*
 * Test policy: a global FIFO with 3 ms slices (each ends at the tick after
 * it runs out), SCX_OPS_ENQ_LAST, and a record of the callbacks a task sees.
 */
#include <schedscope/ext.h>

struct counts {
	u64 runnable, running, stopping, quiescent, enable, set_weight, init_task, exit_task;
	u64 last_enq_flags;
};

static struct counts *cnt(struct scx_task *p)
{
	return scx_task_data(p);
}

/* The last task of its CPU stays there: put anywhere else, the CPU would go idle without it. */
void BPF_STRUCT_OPS(ss_enqueue, struct scx_task *p, u64 enq_flags)
{
	cnt(p)->last_enq_flags = enq_flags;
	scx_bpf_dispatch(p, enq_flags & SCX_ENQ_LAST ? SCX_DSQ_LOCAL : SCX_DSQ_GLOBAL, 3000000, enq_flags);
}

void BPF_STRUCT_OPS(ss_runnable, struct scx_task *p, u64 enq_flags)
{
	cnt(p)->runnable++;
}
void BPF_STRUCT_OPS(ss_running, struct scx_task *p)
{
	cnt(p)->running++;
}
void BPF_STRUCT_OPS(ss_stopping, struct scx_task *p, bool runnable)
{
	cnt(p)->stopping++;
}
void BPF_STRUCT_OPS(ss_quiescent, struct scx_task *p, u64 deq_flags)
{
	cnt(p)->quiescent++;
}
void BPF_STRUCT_OPS(ss_enable, struct scx_task *p)
{
	cnt(p)->enable++;
}
void BPF_STRUCT_OPS(ss_set_weight, struct scx_task *p, u32 weight)
{
	cnt(p)->set_weight++;
}
s32 BPF_STRUCT_OPS(ss_init_task, struct scx_task *p, struct scx_init_task_args *args)
{
	cnt(p)->init_task++;
	return 0;
}
void BPF_STRUCT_OPS(ss_exit_task, struct scx_task *p, struct scx_exit_task_args *args)
{
	cnt(p)->exit_task++;
}

SCX_OPS_DEFINE(ss_ops, .flags = SCX_OPS_ENQ_LAST, .enqueue = ss_enqueue, .runnable = ss_runnable,
	       .running = ss_running, .stopping = ss_stopping, .quiescent = ss_quiescent, .enable = ss_enable,
	       .set_weight = ss_set_weight, .init_task = ss_init_task, .exit_task = ss_exit_task,
	       .name = "short_slice", .task_size = sizeof(struct counts));
