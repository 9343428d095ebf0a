// SPDX-License-Identifier: GPL-2.0
/*
 * Test policy: a global FIFO that parks every task whose name starts with
 * "starved" in a queue nobody consumes, for the watchdog to find.
 */
#include <schedscope/ext.h>

#ifndef TIMEOUT_MS
#define TIMEOUT_MS 0
#endif

#define PARKED_DSQ 1

void BPF_STRUCT_OPS(stall_enqueue, struct scx_task *p, u64 enq_flags)
{
	bool starved = p->comm[0] == 's' && p->comm[1] == 't' && p->comm[2] == 'a' && p->comm[3] == 'r';

	scx_bpf_dispatch(p, starved ? PARKED_DSQ : SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

s32 BPF_STRUCT_OPS_SLEEPABLE(stall_init)
{
	return scx_bpf_create_dsq(PARKED_DSQ, -1);
}

void BPF_STRUCT_OPS(stall_exit, struct scx_exit_info *ei)
{
	bpf_printk("exit kind=%d reason=%s msg=%s", ei->kind, ei->reason, ei->msg);
}

SCX_OPS_DEFINE(stall_ops, .enqueue = stall_enqueue, .init = stall_init, .exit = stall_exit,
	       .timeout_ms = TIMEOUT_MS, .name = "stall");
