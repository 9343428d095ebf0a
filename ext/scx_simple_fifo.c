// SPDX-License-Identifier: GPL-2.0
/* scx_simple in FIFO mode (scx_simple -f): one global FIFO. */
#define FIFO_SCHED 1
#include "scx_simple.c"
