// SPDX-License-Identifier: GPL-2.0
/* Test policy: ops.init() starts a bpf_timer on its stack, outside the memory checkpoints cover. */
#include <schedscope/ext.h>

static int never(void *map, int *key, struct bpf_timer *timer)
{
	return 0;
}

s32 BPF_STRUCT_OPS_SLEEPABLE(stack_init)
{
	struct bpf_timer t = { { 0 } };

	if (bpf_timer_init(&t, 0, 1))
		return 0;
	bpf_timer_set_callback(&t, never);
	return 0;
}

SCX_OPS_DEFINE(stack_ops, .init = stack_init, .name = "stack_timer");
