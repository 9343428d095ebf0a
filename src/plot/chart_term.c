// SPDX-License-Identifier: GPL-2.0
/*
 * Charts in a terminal: each panel a grid of braille characters (2 x 4
 * dots a cell), lines drawn dot by dot, the band as a bar at each point,
 * and each point marked with its series' number so the lines stay apart
 * without color. With colors, each series has its ANSI color too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "chart.h"

static const char *const ansi[] = { "34", "31", "32", "35", "33", "36", "90", "37" };

struct canvas {
	int cols, rows;
	u8 *dots;	    /* [rows][cols] braille bits */
	char *mark;	    /* [rows][cols] a series' number, or 0 */
	signed char *color; /* [rows][cols] the series last drawn there, -1 none */
	double xlo, xhi, ylo, yhi;
	bool log_x;
};

static double fx(const struct canvas *c, double x)
{
	double t = c->log_x ? (log10(x) - log10(c->xlo)) / (log10(c->xhi) - log10(c->xlo))
			    : (x - c->xlo) / (c->xhi - c->xlo);
	return t * (c->cols * 2 - 1);
}

static double fy(const struct canvas *c, double y)
{
	return (1 - (y - c->ylo) / (c->yhi - c->ylo)) * (c->rows * 4 - 1);
}

static void dot(struct canvas *c, int x, int y, int color)
{
	static const u8 bit[4][2] = { { 0x01, 0x08 }, { 0x02, 0x10 }, { 0x04, 0x20 }, { 0x40, 0x80 } };

	if (x < 0 || y < 0 || x >= c->cols * 2 || y >= c->rows * 4)
		return;
	int k = (y / 4) * c->cols + x / 2;
	c->dots[k] |= bit[y % 4][x % 2];
	c->color[k] = (signed char)color;
}

static void line(struct canvas *c, double x0, double y0, double x1, double y1, int color)
{
	int steps = (int)fmax(fabs(x1 - x0), fabs(y1 - y0)) + 1;

	for (int i = 0; i <= steps; i++) {
		double t = (double)i / steps;
		dot(c, (int)lround(x0 + (x1 - x0) * t), (int)lround(y0 + (y1 - y0) * t), color);
	}
}

static void put_utf8(FILE *out, unsigned cp)
{
	if (cp < 0x80) {
		fputc((int)cp, out);
	} else if (cp < 0x800) {
		fputc((int)(0xc0 | (cp >> 6)), out);
		fputc((int)(0x80 | (cp & 0x3f)), out);
	} else {
		fputc((int)(0xe0 | (cp >> 12)), out);
		fputc((int)(0x80 | ((cp >> 6) & 0x3f)), out);
		fputc((int)(0x80 | (cp & 0x3f)), out);
	}
}

static void range(const struct chart_panel *p, struct canvas *c)
{
	chart_data_range(p, &c->xlo, &c->xhi, &c->ylo, &c->yhi);
	double first, step;
	int n;
	chart_ticks(c->ylo, c->yhi, 5, &first, &step, &n);
	c->ylo = first;
	c->yhi = fmax(first + step * (n - 1), c->yhi);
	if (p->nr_categories) {
		c->xlo = -0.5;
		c->xhi = p->nr_categories - 0.5;
	} else if (p->log_x) {
		c->xlo = pow(10, floor(log10(c->xlo)));
		c->xhi = fmax(pow(10, ceil(log10(c->xhi))), c->xlo * 10);
	} else if (!(c->xhi > c->xlo)) {
		c->xlo -= 1;
		c->xhi += 1;
	}
}

/* The x axis's labels, each centred under its place where there is room. */
static void x_labels(FILE *out, const struct chart_panel *p, const struct canvas *c)
{
	int cols = c->cols, used = 0, n = p->nr_categories;
	char *xl = xmalloc((size_t)cols + 64), label[64];
	double xs = 0, xstep = 0;

	memset(xl, ' ', (size_t)cols + 63);
	xl[cols + 63] = 0;
	if (!n && p->log_x)
		n = (int)lround(log10(c->xhi / c->xlo)) + 1;
	else if (!n)
		chart_ticks(c->xlo, c->xhi, 6, &xs, &xstep, &n);
	for (int t = 0; t < n; t++) {
		double v = p->nr_categories ? t : p->log_x ? c->xlo * pow(10, t) : xs + xstep * t;

		if (!p->nr_categories && !p->log_x && (v < c->xlo - 1e-9 || v > c->xhi + 1e-9))
			continue;
		if (p->nr_categories)
			snprintf(label, sizeof(label), "%s", p->category[t]);
		else
			chart_tick_label(label, sizeof(label), v, p->log_x ? v : xstep);
		int len = (int)strlen(label), at = (int)lround(fx(c, v)) / 2 - len / 2;
		at = at < used ? used : at;
		if (at + len > cols + 63)
			break;
		memcpy(xl + at, label, (size_t)len);
		used = at + len + 1;
	}
	int end = cols + 62;
	while (end > 0 && xl[end] == ' ')
		end--;
	xl[end + 1] = 0;
	fprintf(out, "%11s%s\n", "", xl);
	free(xl);
}

static void panel(FILE *out, const struct chart_panel *p, int cols, int rows, bool colors)
{
	struct canvas c = { cols,
			    rows,
			    xcalloc((size_t)(cols * rows), 1),
			    xcalloc((size_t)(cols * rows), 1),
			    xmalloc((size_t)(cols * rows)),
			    0,
			    0,
			    0,
			    0,
			    p->log_x };
	char label[64];

	memset(c.color, -1, (size_t)(cols * rows));
	range(p, &c);
	for (int s = 0; s < p->nr_series; s++) {
		const struct chart_series *se = &p->series[s];

		double d =
			p->nr_categories ? (s - (p->nr_series - 1) / 2.0) * MIN(0.5 / p->nr_series, 0.12) : 0;

		for (int i = 0; i < se->n; i++) {
			double x = fx(&c, se->x[i] + d), y = fy(&c, se->y[i]);

			if (se->lo && se->hi)
				line(&c, x, fy(&c, se->lo[i]), x, fy(&c, se->hi[i]), se->color);
			/* categories are not a scale: their points are not joined */
			if (i && !p->nr_categories) {
				double x0 = fx(&c, se->x[i - 1]), y0 = fy(&c, se->y[i - 1]);
				if (p->steps) {
					line(&c, x0, y0, x, y0, se->color);
					line(&c, x, y0, x, y, se->color);
				} else {
					line(&c, x0, y0, x, y, se->color);
				}
			}
			dot(&c, (int)lround(x), (int)lround(y), se->color);
		}
	}
	/* the points' marks last, over every line */
	for (int s = 0; !p->steps && s < p->nr_series; s++) {
		const struct chart_series *se = &p->series[s];
		double d =
			p->nr_categories ? (s - (p->nr_series - 1) / 2.0) * MIN(0.5 / p->nr_series, 0.12) : 0;
		for (int i = 0; i < se->n; i++) {
			int cx = (int)lround(fx(&c, se->x[i] + d)) / 2,
			    cy = (int)lround(fy(&c, se->y[i])) / 4;
			if (cx >= 0 && cy >= 0 && cx < cols && cy < rows) {
				c.mark[cy * cols + cx] = (char)('1' + s);
				c.color[cy * cols + cx] = (signed char)se->color;
			}
		}
	}

	fprintf(out, "%s\n%11s%s\n", p->title, "", p->ylabel);
	double first, step;
	int nt;
	chart_ticks(c.ylo, c.yhi, 5, &first, &step, &nt);
	for (int r = 0; r < rows; r++) {
		/* a y label on the rows nearest each tick */
		label[0] = 0;
		for (int t = 0; t < nt; t++) {
			double v = first + step * t;
			if ((int)lround(fy(&c, v)) / 4 == r) {
				chart_tick_label(label, sizeof(label), v, step);
				break;
			}
		}
		fprintf(out, "%9s %s", label, label[0] ? "┤" : "│");
		for (int k = 0; k < cols; k++) {
			int i = r * cols + k;
			bool col = colors && c.color[i] >= 0;

			if (col)
				fprintf(out, "\033[%sm", ansi[c.color[i] % 8]);
			if (c.mark[i])
				fputc(c.mark[i], out);
			else
				put_utf8(out, 0x2800 + c.dots[i]);
			if (col)
				fputs("\033[0m", out);
		}
		fputc('\n', out);
	}
	fprintf(out, "%9s └", "");
	for (int k = 0; k < cols; k++)
		fputs("─", out);
	fputc('\n', out);
	/* x labels: each centred under its place, where there is room */
	x_labels(out, p, &c);
	fprintf(out, "%11s%s\n", "", p->xlabel);
	free(c.dots);
	free(c.mark);
	free(c.color);
}

int chart_term(FILE *out, const struct chart *c, int cols, int rows, bool colors)
{
	fprintf(out, "%s\n%s\n\n", c->title, c->subtitle);
	for (int i = 0; i < c->nr_panels; i++) {
		const struct chart_panel *p = &c->panel[i];

		if (i == 1)
			fprintf(out, "%s\n\n", c->below);
		panel(out, p, cols, i ? rows * 2 / 3 : rows, colors);
		for (int s = 0; s < p->nr_series; s++) {
			fputs(s ? "   " : "           ", out);
			if (colors)
				fprintf(out, "\033[%sm", ansi[p->series[s].color % 8]);
			fprintf(out, "%d %s", s + 1, p->series[s].label);
			if (colors)
				fputs("\033[0m", out);
		}
		fputs("\n\n", out);
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}
