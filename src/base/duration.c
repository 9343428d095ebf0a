// SPDX-License-Identifier: GPL-2.0
/* Durations as people read them (see duration.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duration.h"

static const struct {
	u64 div;
	const char *unit, *fmt;
} units[] = {
	{ 1000000000, "s", "%.3f" },
	{ 1000000, "ms", "%.3f" },
	{ 1000, "us", "%.1f" },
	{ 1, "ns", "%.0f" },
};

static int unit_of(u64 a)
{
	int i = 0;

	while (units[i].div > 1 && a < units[i].div)
		i++;
	return i;
}

/* a in unit i with the unit's decimals; 999.96us rounds to 1.000ms, not 1000.0us */
static int format_in(char *num, size_t n, u64 a, int i)
{
	for (;;) {
		if (units[i].div == 1)
			snprintf(num, n, "%" PRIu64, a);
		else
			snprintf(num, n, units[i].fmt, (double)a / (double)units[i].div);
		if (i == 0 || strtod(num, NULL) < 1000)
			return i;
		i--;
	}
}

const char *fmt_dur(char *buf, size_t n, s64 ns, bool plus)
{
	u64 a = ns < 0 ? (u64)0 - (u64)ns : (u64)ns;
	const char *sign = ns < 0 ? "-" : plus && ns > 0 ? "+" : "";
	char num[32];
	int i = format_in(num, sizeof(num), a, unit_of(a));

	snprintf(buf, n, "%s%s%s", sign, num, units[i].unit);
	return buf;
}

const char *fmt_dur_short(char *buf, size_t n, s64 ns, bool plus)
{
	u64 a = ns < 0 ? (u64)0 - (u64)ns : (u64)ns;
	int i = unit_of(a);
	char num[32];

	snprintf(num, sizeof(num), "%.3f", (double)a / (double)units[i].div);
	if (i > 0 && strtod(num, NULL) >= 1000)
		snprintf(num, sizeof(num), "%.3f", (double)a / (double)units[--i].div);
	char *end = num + strlen(num) - 1;

	while (end > num && *end == '0')
		*end-- = '\0';
	if (*end == '.')
		*end = '\0';
	snprintf(buf, n, "%s%s%s", ns < 0 ? "-" : plus && ns > 0 ? "+" : "", num, units[i].unit);
	return buf;
}
