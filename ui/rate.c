// SPDX-License-Identifier: GPL-2.0
/* The achieved simulation rate: see rate.h. */
#include <stdio.h>

#include "commands.h"
#include "rate.h"

void rate_add(struct rate_meter *m, u64 wall_dt, u64 sim_dt)
{
	m->wall += wall_dt;
	m->sim += sim_dt;
	if (m->wall >= RATE_WINDOW_NS) {
		m->real = (double)m->sim / (double)m->wall;
		m->known = true;
		m->wall = m->sim = 0;
	}
}

void rate_reset(struct rate_meter *m)
{
	*m = (struct rate_meter){ 0 };
}

/* "370x", "37x", "0.21x" or "1/520x" (the asked rates' form below 1/100). */
static const char *real_text(double r, char *buf, size_t len)
{
	if (r >= 10)
		snprintf(buf, len, "%.0fx", r);
	else if (r >= 0.01 || r <= 0)
		snprintf(buf, len, "%.2gx", r);
	else
		snprintf(buf, len, "1/%.0fx", 1 / r);
	return buf;
}

const char *rate_status(const struct rate_meter *m, double asked, char *buf, size_t len)
{
	char a[32], r[32];

	ui_speed_text(asked, a, sizeof(a));
	if (!m->known || (asked > 0 && m->real >= asked * 0.9 && m->real <= asked * 1.1))
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s%s, %s real", a, asked > 0 ? " asked" : "",
			 real_text(m->real, r, sizeof(r)));
	return buf;
}
