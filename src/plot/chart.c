// SPDX-License-Identifier: GPL-2.0
/* Chart storage and axis ticks (chart.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "chart.h"

void chart_series_alloc(struct chart_series *s, int n, bool band)
{
	s->n = n;
	s->x = xcalloc((size_t)n + 1, sizeof(double));
	s->y = xcalloc((size_t)n + 1, sizeof(double));
	if (band) {
		s->lo = xcalloc((size_t)n + 1, sizeof(double));
		s->hi = xcalloc((size_t)n + 1, sizeof(double));
	}
}

void chart_free(struct chart *c)
{
	for (int p = 0; p < c->nr_panels; p++) {
		struct chart_panel *pn = &c->panel[p];

		for (int s = 0; s < pn->nr_series; s++) {
			free(pn->series[s].x);
			free(pn->series[s].y);
			free(pn->series[s].lo);
			free(pn->series[s].hi);
		}
		for (int k = 0; k < pn->nr_categories; k++)
			free(pn->category[k]);
		free(pn->category);
	}
	memset(c, 0, sizeof(*c));
}

void chart_data_range(const struct chart_panel *p, double *xlo, double *xhi, double *ylo, double *yhi)
{
	bool any = false;

	*xlo = *ylo = INFINITY;
	*xhi = *yhi = -INFINITY;
	for (int s = 0; s < p->nr_series; s++) {
		const struct chart_series *se = &p->series[s];

		for (int i = 0; i < se->n; i++) {
			if (!isfinite(se->y[i]) || (p->log_x && !(se->x[i] > 0)))
				continue;
			any = true;
			*xlo = fmin(*xlo, se->x[i]);
			*xhi = fmax(*xhi, se->x[i]);
			*ylo = fmin(*ylo, se->lo ? se->lo[i] : se->y[i]);
			*yhi = fmax(*yhi, se->hi ? se->hi[i] : se->y[i]);
		}
	}
	if (!any) {
		*xlo = p->log_x ? 0.001 : 0;
		*xhi = 1;
		*ylo = 0;
		*yhi = 1;
	}
	if (p->y_from_zero)
		*ylo = fmin(*ylo, 0);
}

void chart_ticks(double lo, double hi, int max_ticks, double *first, double *step, int *n)
{
	double span = hi - lo, raw, mag, norm;

	if (!(span > 0)) {
		/* one value: a range around it */
		double d = lo ? fabs(lo) * 0.5 : 1.0;
		lo -= d;
		hi += d;
		span = hi - lo;
	}
	raw = span / (max_ticks > 1 ? max_ticks - 1 : 1);
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	*step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
	*first = floor(lo / *step) * *step;
	*n = (int)ceil((hi - *first) / *step - 1e-9) + 1;
}

void chart_tick_label(char *buf, size_t n, double v, double step)
{
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) < step * 1e-6)
		v = 0;
	snprintf(buf, n, "%.*f", decimals, v);
}
