// SPDX-License-Identifier: GPL-2.0
/* Test policy: ops.select_cpu() returns a CPU that does not exist. */
#include <schedscope/ext.h>

s32 BPF_STRUCT_OPS(bad_select_cpu, struct scx_task *p, s32 prev_cpu, u64 wake_flags)
{
	return -5;
}

SCX_OPS_DEFINE(bad_select_ops, .select_cpu = bad_select_cpu, .name = "bad_select");
