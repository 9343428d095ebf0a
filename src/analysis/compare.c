// SPDX-License-Identifier: GPL-2.0
/* Two runs' metrics side by side over seeds (compare.h). */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "compare.h"

void compare_init(struct compare *c, int nr_seeds)
{
	memset(c, 0, sizeof(*c));
	c->nr_seeds = nr_seeds;
}

void compare_free(struct compare *c)
{
	for (int r = 0; r < c->nr_rows; r++) {
		free(c->row[r].name);
		for (int s = 0; s < 2; s++)
			for (int m = 0; m < NR_METRICS; m++)
				free(c->row[r].v[s][m]);
	}
	free(c->row);
	memset(c, 0, sizeof(*c));
}

static int row_of(struct compare *c, const struct metric_row *mr)
{
	struct compare_row *r;

	for (int i = 0; i < c->nr_rows; i++)
		if (c->row[i].group == mr->group && !strcmp(c->row[i].name, mr->name))
			return i;
	XGROW(c->row, c->cap, c->nr_rows);
	r = &c->row[c->nr_rows];
	r->name = xstrdup(mr->name);
	r->group = mr->group;
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < NR_METRICS; m++) {
			r->v[s][m] = xmalloc((size_t)c->nr_seeds * sizeof(double));
			for (int k = 0; k < c->nr_seeds; k++)
				r->v[s][m][k] = NAN;
		}
	return c->nr_rows++;
}

void compare_add(struct compare *c, int seed, const struct metrics *a, const struct metrics *b)
{
	const struct metrics *side[2] = { a, b };

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < side[s]->nr_rows; i++) {
			const struct metric_row *mr = &side[s]->row[i];
			int k = row_of(c, mr); /* before taking c->row: it may move */
			struct compare_row *r = &c->row[k];

			for (int m = 0; m < NR_METRICS; m++)
				if (mr->has[m])
					r->v[s][m][seed] = mr->v[m];
		}
}

/* The values a side has (a run without a wakeup has no latency). */
static void summarize(const double *v, int n, struct sample_summary *out)
{
	double *x = xmalloc((size_t)n * sizeof(*x) + 1);
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			x[k++] = v[i];
	sample_summarize(x, k, out);
	free(x);
}

void compare_cell(const struct compare *c, int row, int metric, struct compare_cell *out)
{
	const struct compare_row *r = &c->row[row];

	memset(out, 0, sizeof(*out));
	summarize(r->v[0][metric], c->nr_seeds, &out->s[0]);
	summarize(r->v[1][metric], c->nr_seeds, &out->s[1]);
	out->has = out->s[0].n && out->s[1].n;
	if (!out->has)
		return;
	welch_test(&out->s[0], &out->s[1], &out->w);
	out->significant = out->w.valid && out->w.p < WELCH_ALPHA;
	if (out->s[0].mean)
		out->rel = out->w.diff / fabs(out->s[0].mean) * 100;
	else
		out->rel = out->w.diff ? copysign(INFINITY, out->w.diff) : 0;
}

int compare_match(const struct compare *c, const struct diff_expr *x, int from)
{
	for (int i = from; i < c->nr_rows; i++) {
		const struct compare_row *r = &c->row[i];
		struct compare_cell cell;

		if (r->group != x->group || fnmatch(x->pattern, r->name, x->group ? FNM_PATHNAME : 0))
			continue;
		compare_cell(c, i, x->metric, &cell);
		if (cell.has)
			return i;
	}
	return -1;
}

bool compare_holds(const struct compare *c, const struct diff_expr *x, int row)
{
	struct compare_cell cell;

	compare_cell(c, row, x->metric, &cell);
	return diff_expr_holds(x, cell.s[0].mean, cell.s[1].mean);
}

int compare_find(const struct compare *c, const struct diff_expr *x, int from)
{
	for (int i = compare_match(c, x, from); i >= 0; i = compare_match(c, x, i + 1))
		if (compare_holds(c, x, i))
			return i;
	return -1;
}
