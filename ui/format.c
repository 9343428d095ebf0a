// SPDX-License-Identifier: GPL-2.0
/* Text for the views (see format.h). */
#include <inttypes.h>
#include <stdio.h>

#include "format.h"

const char *fmt_dur(char *buf, size_t n, s64 ns, bool plus)
{
	u64 a = ns < 0 ? (u64)0 - (u64)ns : (u64)ns;
	const char *sign = ns < 0 ? "-" : plus && ns > 0 ? "+" : "";

	if (a < 1000)
		snprintf(buf, n, "%s%" PRIu64 "ns", sign, a);
	else if (a < 1000000)
		snprintf(buf, n, "%s%.1fus", sign, (double)a / 1e3);
	else if (a < 1000000000)
		snprintf(buf, n, "%s%.3fms", sign, (double)a / 1e6);
	else
		snprintf(buf, n, "%s%.3fs", sign, (double)a / 1e9);
	return buf;
}

u64 round_step(u64 want)
{
	u64 step = 1;

	while (step < want) {
		if (step * 2 >= want)
			return step * 2;
		if (step * 5 >= want)
			return step * 5;
		step *= 10;
	}
	return step;
}
