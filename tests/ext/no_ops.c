// SPDX-License-Identifier: GPL-2.0
/* Test policy, refused at load: it defines no operations table. */
#include <schedscope/ext.h>

__attribute__((visibility("default"))) s32 not_a_policy(void)
{
	return 0;
}
