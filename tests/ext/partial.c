// SPDX-License-Identifier: GPL-2.0
/* Test policy: SCX_OPS_SWITCH_PARTIAL, the default operations: only SCHED_EXT tasks are ext's. */
#include <schedscope/ext.h>

SCX_OPS_DEFINE(partial_ops, .flags = SCX_OPS_SWITCH_PARTIAL, .name = "partial");
