// SPDX-License-Identifier: GPL-2.0
/* Test policy: ops.init() fails with -ENOMEM. */
#include <schedscope/ext.h>

s32 BPF_STRUCT_OPS_SLEEPABLE(fail_init)
{
	return -12;
}

SCX_OPS_DEFINE(fail_ops, .init = fail_init, .name = "init_fail");
