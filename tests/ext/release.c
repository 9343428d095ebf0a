// SPDX-License-Identifier: GPL-2.0
/*
 * Test policy: a global FIFO whose ops.cpu_release() hands the CPU's local
 * queue back to ops.enqueue() (scx_bpf_reenqueue_local()), with counts.
 */
#include <schedscope/ext.h>

struct counts {
	u64 released, acquired, reenqueued, enqueued_reenq;
	s32 last_reason;
};

static struct counts *glob(void)
{
	return scx_global_data();
}

void BPF_STRUCT_OPS(rel_enqueue, struct scx_task *p, u64 enq_flags)
{
	if (enq_flags & SCX_ENQ_REENQ)
		glob()->enqueued_reenq++;
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(rel_cpu_release, s32 cpu, struct scx_cpu_release_args *args)
{
	glob()->released++;
	glob()->last_reason = args->reason;
	glob()->reenqueued += scx_bpf_reenqueue_local();
	bpf_printk("cpu %d released to %s", cpu, args->task ? args->task->comm : "-");
}

void BPF_STRUCT_OPS(rel_cpu_acquire, s32 cpu, struct scx_cpu_acquire_args *args)
{
	glob()->acquired++;
}

SCX_OPS_DEFINE(rel_ops, .enqueue = rel_enqueue, .cpu_release = rel_cpu_release,
	       .cpu_acquire = rel_cpu_acquire, .name = "release", .global_size = sizeof(struct counts));
