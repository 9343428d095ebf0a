/* SPDX-License-Identifier: GPL-2.0 */
/* Text for the views: durations as the visualizer shows them. */
#ifndef UI_FORMAT_H
#define UI_FORMAT_H

#include "sched/api/types.h"
#include "src/base/duration.h"

/* The smallest 1, 2 or 5 x 10^k that is at least `want` (axis tick steps). */
u64 round_step(u64 want);

#endif
