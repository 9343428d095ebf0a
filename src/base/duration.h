/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Durations as people read them: the one formatter of nanoseconds with a
 * unit, for every view and every line a person reads.
 */
#ifndef SRC_BASE_DURATION_H
#define SRC_BASE_DURATION_H

#include <stdbool.h>
#include <stddef.h>

#include "sched/api/types.h"

/* "850ns", "12.5us", "1.234ms", "2.500s" (fixed decimals per unit); signed when plus. */
const char *fmt_dur(char *buf, size_t n, s64 ns, bool plus);

/* The same without trailing zeros: "10ms", "-500us", "+1.5ms" (signed when plus), "0ns". */
const char *fmt_dur_short(char *buf, size_t n, s64 ns, bool plus);

#endif
