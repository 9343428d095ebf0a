// SPDX-License-Identifier: GPL-2.0
/* Test policy, refused at load: a watchdog timeout above the kernel's 30 s limit. */
#include <schedscope/ext.h>

SCX_OPS_DEFINE(big_ops, .timeout_ms = 60000, .name = "big_timeout");
