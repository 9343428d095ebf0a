// SPDX-License-Identifier: GPL-2.0
/* Test policy, refused at load: it keeps a counter in writable global data. */
#include <schedscope/ext.h>

static u64 nr_enqueued;

void BPF_STRUCT_OPS(gd_enqueue, struct scx_task *p, u64 enq_flags)
{
	nr_enqueued++;
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

SCX_OPS_DEFINE(gd_ops, .enqueue = gd_enqueue, .name = "global_data");
