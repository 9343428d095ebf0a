// SPDX-License-Identifier: GPL-2.0
/* Test policy: tasks wait in a queue; ops.dispatch() never consumes it and kicks its own CPU. */
#include <schedscope/ext.h>

#define Q 7

void BPF_STRUCT_OPS(loop_enqueue, struct scx_task *p, u64 enq_flags)
{
	scx_bpf_dispatch(p, Q, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(loop_dispatch, s32 cpu, struct scx_task *prev)
{
	scx_bpf_kick_cpu(cpu, 0);
}

s32 BPF_STRUCT_OPS_SLEEPABLE(loop_init)
{
	return scx_bpf_create_dsq(Q, -1);
}

SCX_OPS_DEFINE(loop_ops, .enqueue = loop_enqueue, .dispatch = loop_dispatch, .init = loop_init,
	       .name = "kick_loop");
