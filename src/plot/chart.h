/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A chart as data: panels of series (lines with an optional band), drawn
 * either as SVG for a browser or a slide (chart_svg.c), or with braille
 * characters in a terminal (chart_term.c). The output depends on the data
 * alone: the same chart gives the same bytes.
 */
#ifndef SRC_PLOT_CHART_H
#define SRC_PLOT_CHART_H

#include <stdio.h>

#include "sched/api/types.h"

#define CHART_MAX_SERIES 8
#define CHART_MAX_PANELS 5

struct chart_series {
	char label[128];
	int n;
	double *x, *y;	 /* [n]; x is a category's index on a category axis */
	double *lo, *hi; /* [n] the band, or NULL */
	int color;	 /* the same series keeps its color in every panel */
};

struct chart_panel {
	char title[160];
	char xlabel[96], ylabel[96];
	int nr_categories; /* > 0: x is categorical, labelled by category[]: points with
				 * their band as a bar, side by side, not joined */
	char **category;
	bool log_x;	  /* a logarithmic x axis (latency CDFs) */
	bool steps;	  /* draw as a staircase (a CDF) without markers */
	bool y_from_zero; /* the y axis starts at 0 */
	int nr_series;
	struct chart_series series[CHART_MAX_SERIES];
};

struct chart {
	char title[200];
	char subtitle[300];
	char below[200]; /* the heading of the row of panels below the main one */
	int nr_panels;	 /* panel 0 is the main one, the others a row below it */
	struct chart_panel panel[CHART_MAX_PANELS];
};

/* Room for n points (and their band). */
void chart_series_alloc(struct chart_series *s, int n, bool band);
void chart_free(struct chart *c);

/* The data's range on both axes, bands included (0..1 when empty; from 0 for y_from_zero). */
void chart_data_range(const struct chart_panel *p, double *xlo, double *xhi, double *ylo, double *yhi);
/* Round axis limits and the steps between ticks (1, 2 or 5 times a power of ten). */
void chart_ticks(double lo, double hi, int max_ticks, double *first, double *step, int *n);
/* A tick label: as few digits as the step needs. */
void chart_tick_label(char *buf, size_t n, double v, double step);

/* 0, or -1 on a write error. */
int chart_svg(FILE *out, const struct chart *c);
/* cols x rows characters per panel; colors: ANSI escapes for the series. */
int chart_term(FILE *out, const struct chart *c, int cols, int rows, bool colors);

#endif
