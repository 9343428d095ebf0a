// SPDX-License-Identifier: GPL-2.0
/* The scheduling policies' names (include/uapi/linux/sched.h's SCHED_*, in lower case). */
#include <string.h>

#include "api/scenario.h"

const char *const sched_policy_names[NR_SCHED_POLICIES] = {
	[SCHED_NORMAL] = "normal", [SCHED_FIFO] = "fifo", [SCHED_RR] = "rr",
	[SCHED_BATCH] = "batch",   [SCHED_IDLE] = "idle", [SCHED_DEADLINE] = "deadline",
	[SCHED_EXT] = "ext",
};

int sched_policy_lookup(const char *name, size_t len)
{
	for (int i = 0; i < NR_SCHED_POLICIES; i++)
		if (sched_policy_names[i] && strlen(sched_policy_names[i]) == len &&
		    !memcmp(sched_policy_names[i], name, len))
			return i;
	return -1;
}
