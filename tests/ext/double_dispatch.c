// SPDX-License-Identifier: GPL-2.0
/* Test policy: ops.enqueue() inserts the task twice. */
#include <schedscope/ext.h>

void BPF_STRUCT_OPS(double_enqueue, struct scx_task *p, u64 enq_flags)
{
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

SCX_OPS_DEFINE(double_ops, .enqueue = double_enqueue, .name = "double_dispatch");
