// SPDX-License-Identifier: GPL-2.0
/* Test policy, refused at load: built for another ABI of schedscope's ext interface. */
#include <schedscope/ext.h>

__attribute__((visibility("default"))) const struct sched_ext_ops schedscope_ext_ops = {
	.abi = SCHEDSCOPE_EXT_ABI + 1,
	.name = "bad_abi",
};
