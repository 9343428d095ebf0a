// SPDX-License-Identifier: GPL-2.0
/* Test policy: stall.c with its own watchdog timeout (ops.timeout_ms). */
#define TIMEOUT_MS 1000
#include "stall.c"
