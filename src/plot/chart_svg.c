// SPDX-License-Identifier: GPL-2.0
/*
 * Charts as SVG, written directly: a 16:9 picture with a title, the main
 * panel and its legend, and a row of smaller panels below (CDFs). Colors
 * are the Okabe-Ito palette, which stays apart for color-blind readers.
 */
#include <math.h>
#include <string.h>

#include "chart.h"

static const char *const palette[] = {
	"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
};

#define W 1200
#define FONT "DejaVu Sans, Helvetica, Arial, sans-serif"

struct frame {
	double x0, y0, w, h;	   /* plot area in the picture */
	double xlo, xhi, ylo, yhi; /* data range shown */
	bool log_x;
};

static void text_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

static void text(FILE *out, double x, double y, int size, const char *anchor, const char *extra,
		 const char *s)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\"%s>", x, y, size, anchor,
		extra);
	text_escaped(out, s);
	fputs("</text>\n", out);
}

static double px(const struct frame *f, double x)
{
	if (f->log_x)
		return f->x0 + (log10(x) - log10(f->xlo)) / (log10(f->xhi) - log10(f->xlo)) * f->w;
	return f->x0 + (x - f->xlo) / (f->xhi - f->xlo) * f->w;
}

static double py(const struct frame *f, double y)
{
	return f->y0 + f->h - (y - f->ylo) / (f->yhi - f->ylo) * f->h;
}

static void axes(FILE *out, const struct chart_panel *p, struct frame *f)
{
	double xlo, xhi, ylo, yhi, first, step;
	char label[64];
	int n;

	chart_data_range(p, &xlo, &xhi, &ylo, &yhi);
	chart_ticks(ylo, yhi, 6, &first, &step, &n);
	f->ylo = first;
	f->yhi = first + step * (n - 1);
	if (f->yhi < yhi)
		f->yhi += step, n++;
	/* y grid and labels */
	for (int i = 0; i < n; i++) {
		double v = first + step * i, y = py(f, v);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>\n",
			f->x0, y, f->x0 + f->w, y);
		chart_tick_label(label, sizeof(label), v, step);
		text(out, f->x0 - 8, y + 4, 12, "end", " fill=\"#444\"", label);
	}
	/* x: categories, decades, or round steps */
	if (p->nr_categories) {
		f->xlo = -0.5;
		f->xhi = p->nr_categories - 0.5;
		for (int i = 0; i < p->nr_categories; i++)
			text(out, px(f, i), f->y0 + f->h + 20, 12, "middle", " fill=\"#444\"",
			     p->category[i]);
	} else if (f->log_x) {
		f->xlo = pow(10, floor(log10(xlo)));
		f->xhi = pow(10, ceil(log10(xhi)));
		if (f->xhi <= f->xlo)
			f->xhi = f->xlo * 10;
		for (double v = f->xlo; v <= f->xhi * 1.001; v *= 10) {
			double x = px(f, v);
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#e6e6e6\"/>\n",
				x, f->y0, x, f->y0 + f->h);
			chart_tick_label(label, sizeof(label), v, v);
			text(out, x, f->y0 + f->h + 20, 12, "middle", " fill=\"#444\"", label);
		}
	} else {
		chart_ticks(xlo, xhi, 8, &first, &step, &n);
		f->xlo = first;
		f->xhi = first + step * (n - 1);
		for (int i = 0; i < n; i++) {
			double v = first + step * i, x = px(f, v);
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#e6e6e6\"/>\n",
				x, f->y0, x, f->y0 + f->h);
			chart_tick_label(label, sizeof(label), v, step);
			text(out, x, f->y0 + f->h + 20, 12, "middle", " fill=\"#444\"", label);
		}
	}
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#888\"/>\n",
		f->x0, f->y0, f->w, f->h);
	text(out, f->x0 + f->w / 2, f->y0 + f->h + 44, 13, "middle", " fill=\"#222\"", p->xlabel);
	if (p->ylabel[0]) {
		fprintf(out,
			"<text transform=\"translate(%.1f %.1f) rotate(-90)\" font-size=\"13\" "
			"text-anchor=\"middle\" fill=\"#222\">",
			f->x0 - 58, f->y0 + f->h / 2);
		text_escaped(out, p->ylabel);
		fputs("</text>\n", out);
	}
	text(out, f->x0, f->y0 - 10, 14, "start", " font-weight=\"bold\" fill=\"#222\"", p->title);
}

/* Side by side on a category axis: series s of n is this far from the category's middle. */
static double dodge(const struct chart_panel *p, int s)
{
	return p->nr_categories ? (s - (p->nr_series - 1) / 2.0) * MIN(0.5 / p->nr_series, 0.12) : 0;
}

static void series(FILE *out, const struct chart_panel *p, const struct frame *f)
{
	for (int s = 0; s < p->nr_series; s++) {
		const struct chart_series *se = &p->series[s];
		const char *col = palette[se->color % 8];
		double d = dodge(p, s);

		if (!se->n)
			continue;
		if (p->nr_categories) {
			/* categories are not a scale: each point alone, its band a bar with caps */
			for (int i = 0; i < se->n; i++) {
				double x = px(f, se->x[i] + d);
				if (se->lo && se->hi) {
					double lo = py(f, se->lo[i]), hi = py(f, se->hi[i]);
					fprintf(out,
						"<path stroke=\"%s\" stroke-width=\"2\" fill=\"none\" "
						"d=\"M%.1f %.1f V%.1f "
						"M%.1f %.1f H%.1f M%.1f %.1f H%.1f\"/>\n",
						col, x, lo, hi, x - 6, lo, x + 6, x - 6, hi, x + 6);
				}
				fprintf(out,
					"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"%s\" "
					"stroke=\"white\" "
					"stroke-width=\"1.5\"/>\n",
					x, py(f, se->y[i]), col);
			}
			continue;
		}
		if (se->lo && se->hi) {
			fprintf(out, "<path fill=\"%s\" fill-opacity=\"0.18\" stroke=\"none\" d=\"", col);
			for (int i = 0; i < se->n; i++)
				fprintf(out, "%s%.1f %.1f ", i ? "L" : "M", px(f, se->x[i]),
					py(f, se->hi[i]));
			for (int i = se->n - 1; i >= 0; i--)
				fprintf(out, "L%.1f %.1f ", px(f, se->x[i]), py(f, se->lo[i]));
			fputs("Z\"/>\n", out);
		}
		fprintf(out,
			"<path fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" stroke-linejoin=\"round\" "
			"d=\"",
			col);
		for (int i = 0; i < se->n; i++) {
			if (p->steps && i)
				fprintf(out, "H%.1f ", px(f, se->x[i]));
			fprintf(out, "%s%.1f %.1f ", i ? "L" : "M", px(f, se->x[i]), py(f, se->y[i]));
		}
		fputs("\"/>\n", out);
		for (int i = 0; !p->steps && i < se->n; i++)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n",
				px(f, se->x[i]), py(f, se->y[i]), col);
	}
}

static void legend(FILE *out, const struct chart_panel *p, double x, double y, bool band)
{
	for (int s = 0; s < p->nr_series; s++, y += 24) {
		const char *col = palette[p->series[s].color % 8];

		if (p->nr_categories) {
			/* as drawn: a point, and its bar when there is one */
			if (band)
				fprintf(out,
					"<path stroke=\"%s\" stroke-width=\"2\" d=\"M%.1f %.1f V%.1f\"/>\n",
					col, x + 13, y - 12, y + 4);
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"%s\"/>\n", x + 13,
				y - 4, col);
		} else {
			if (band)
				fprintf(out,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"26\" height=\"12\" fill=\"%s\" "
					"fill-opacity=\"0.18\"/>\n",
					x, y - 10, col);
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				"stroke-width=\"2.5\"/>\n",
				x, y - 4, x + 26, y - 4, col);
		}
		text(out, x + 34, y, 13, "start", " fill=\"#222\"", p->series[s].label);
	}
}

int chart_svg(FILE *out, const struct chart *c)
{
	bool below = c->nr_panels > 1;
	int h = below ? 900 : 600;
	struct frame main = { 100, 110, W - 100 - 300, below ? 400 : 410, 0, 0, 0, 0, c->panel[0].log_x };
	bool band = false;

	for (int s = 0; s < c->panel[0].nr_series; s++)
		band |= c->panel[0].series[s].lo != NULL;
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"%s\">\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		W, h, W, h, FONT, W, h);
	text(out, 40, 40, 22, "start", " font-weight=\"bold\" fill=\"#111\"", c->title);
	text(out, 40, 66, 14, "start", " fill=\"#555\"", c->subtitle);
	axes(out, &c->panel[0], &main);
	series(out, &c->panel[0], &main);
	legend(out, &c->panel[0], main.x0 + main.w + 30, main.y0 + 14, band);

	int n = c->nr_panels - 1;
	double gap = 50, w = n ? (W - 100 - 40 - gap * (n - 1)) / n : 0, top = main.y0 + main.h + 130;
	if (n)
		text(out, 40, top - 44, 16, "start", " font-weight=\"bold\" fill=\"#222\"", c->below);
	for (int i = 0; i < n; i++) {
		struct chart_panel p = c->panel[1 + i];
		struct frame f = { 100 + i * (w + gap), top, w, h - top - 70, 0, 0, 0, 0, p.log_x };

		/* one y label for the row */
		if (i)
			p.ylabel[0] = 0;
		axes(out, &p, &f);
		series(out, &p, &f);
	}
	fputs("</svg>\n", out);
	return fflush(out) || ferror(out) ? -1 : 0;
}
