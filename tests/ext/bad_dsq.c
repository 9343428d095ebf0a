// SPDX-License-Identifier: GPL-2.0
/* Test policy: ops.enqueue() dispatches into a queue that was never created. */
#include <schedscope/ext.h>

void BPF_STRUCT_OPS(bad_dsq_enqueue, struct scx_task *p, u64 enq_flags)
{
	scx_bpf_dispatch(p, 42, SCX_SLICE_DFL, enq_flags);
}

SCX_OPS_DEFINE(bad_dsq_ops, .enqueue = bad_dsq_enqueue, .name = "bad_dsq");
