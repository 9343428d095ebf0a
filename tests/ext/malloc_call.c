// SPDX-License-Identifier: GPL-2.0
/* Test policy, refused at load: it keeps per-task state in memory it allocates itself. */
#include <stdlib.h>
#include <schedscope/ext.h>

struct task_ctx {
	u64 *history;
};

s32 BPF_STRUCT_OPS(mc_init_task, struct scx_task *p, struct scx_init_task_args *args)
{
	struct task_ctx *c = scx_task_data(p);

	c->history = malloc(64 * sizeof(u64));
	return c->history ? 0 : -12;
}

SCX_OPS_DEFINE(mc_ops, .init_task = mc_init_task, .name = "malloc_call",
	       .task_size = sizeof(struct task_ctx));
