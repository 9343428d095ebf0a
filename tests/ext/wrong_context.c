// SPDX-License-Identifier: GPL-2.0
/* Test policy: ops.enqueue() calls scx_bpf_consume(), which only ops.dispatch() may call. */
#include <schedscope/ext.h>

void BPF_STRUCT_OPS(wrong_enqueue, struct scx_task *p, u64 enq_flags)
{
	scx_bpf_consume(0);
}

s32 BPF_STRUCT_OPS_SLEEPABLE(wrong_init)
{
	return scx_bpf_create_dsq(0, -1);
}

SCX_OPS_DEFINE(wrong_ops, .enqueue = wrong_enqueue, .init = wrong_init, .name = "wrong_context");
