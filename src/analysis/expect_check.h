/* SPDX-License-Identifier: GPL-2.0 */
/* Checking `expect` lines against a run's window statistics. */
#ifndef SRC_ANALYSIS_EXPECT_CHECK_H
#define SRC_ANALYSIS_EXPECT_CHECK_H

#include "src/format/expect.h"

struct stats;

/*
 * Check one expect against the statistics (names[i] is task i's name): each
 * task matching the pattern
 * must satisfy it (a pattern matching no task fails). Writes a one-line
 * verdict naming the measured value(s) into msg. Returns true when it holds.
 */
bool expect_check(const struct expect *x, const struct stats *st,
		  const char *const *names, char *msg, size_t msglen);

#endif
