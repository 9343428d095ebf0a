// SPDX-License-Identifier: GPL-2.0
/* Test policy: ops.enqueue() sends every task to the last CPU's local queue, allowed there or not. */
#include <schedscope/ext.h>

void BPF_STRUCT_OPS(bad_cpu_enqueue, struct scx_task *p, u64 enq_flags)
{
	scx_bpf_dispatch(p, SCX_DSQ_LOCAL_ON | (scx_bpf_nr_cpu_ids() - 1), SCX_SLICE_DFL, enq_flags);
}

SCX_OPS_DEFINE(bad_cpu_ops, .enqueue = bad_cpu_enqueue, .name = "bad_cpu");
