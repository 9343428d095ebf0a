// SPDX-License-Identifier: GPL-2.0
/* A sweep's table, matrix and CSV (sweep_table.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "sweep_table.h"

/* ---- variants ---- */

static struct sweep_vrow *vrow(struct sweep_variant *v, const struct sweep_row *r)
{
	for (int i = 0; i < v->nr_rows; i++)
		if (!strcmp(v->row[i].name, r->name) && v->row[i].group == r->group)
			return &v->row[i];
	struct sweep_vrow *nr;

	XGROW(v->row, v->cap_rows, v->nr_rows);
	nr = &v->row[v->nr_rows++];
	memset(nr, 0, sizeof(*nr));
	snprintf(nr->name, sizeof(nr->name), "%s", r->name);
	nr->group = r->group;
	return nr;
}

static void lat_add(struct lat_hist *to, const struct lat_hist *from)
{
	for (unsigned b = 0; b < LAT_OCTAVES * LAT_SUB; b++)
		to->bucket[b] += from->bucket[b];
	to->count += from->count;
	to->max = MAX(to->max, from->max);
}

/* Mean, spread and range of n values, summed in the order given. */
static void stat_of(const double *x, int n, struct sweep_stat *s)
{
	double sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	s->min = s->max = x[0];
	for (int i = 0; i < n; i++) {
		sum += x[i];
		s->min = MIN(s->min, x[i]);
		s->max = MAX(s->max, x[i]);
	}
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(sq / (n - 1)) : 0.0;
}

static bool ran(const struct sweep_results *r, int cell)
{
	return r->have[cell] && (r->cell[cell].status == CELL_OK || r->cell[cell].status == CELL_FAIL);
}

static void fill_variant(const struct sweep_results *r, struct sweep_variant *v)
{
	double *x = xcalloc((size_t)v->nr_cells + 1, sizeof(*x));

	for (int c = v->first_cell; c < v->first_cell + v->nr_cells; c++) {
		const struct sweep_cell *cell = &r->cell[c];

		if (!r->have[c])
			continue;
		v->count[cell->status]++;
		if (!ran(r, c))
			continue;
		for (int side = 0; side < 1 + cell->has_b; side++) {
			const struct sweep_side *s = side ? &cell->b : &cell->a;
			for (int i = 0; i < s->nr_rows; i++) {
				struct sweep_vrow *vr = vrow(v, &s->row[i]);
				lat_add(&vr->lat[side], &s->row[i].lat);
			}
		}
	}
	for (int i = 0; i < v->nr_rows; i++) {
		struct sweep_vrow *vr = &v->row[i];

		for (int m = 0; m < NR_SWEEP_METRICS; m++) {
			if (!sweep_metric_applies(m, vr->group))
				continue;
			for (int side = 0; side < NR_SIDES; side++) {
				int n = 0;

				for (int c = v->first_cell; c < v->first_cell + v->nr_cells; c++) {
					const struct sweep_cell *cell = &r->cell[c];
					const struct sweep_row *a, *b;

					if (!ran(r, c) || (side != SIDE_A && !cell->has_b))
						continue;
					a = sweep_side_row(&cell->a, vr->name);
					b = cell->has_b ? sweep_side_row(&cell->b, vr->name) : NULL;
					if (side == SIDE_A && a)
						x[n++] = sweep_row_metric(a, cell->a.window_ns, m);
					else if (side == SIDE_B && b)
						x[n++] = sweep_row_metric(b, cell->b.window_ns, m);
					else if (side == SIDE_DIFF && a && b)
						x[n++] = sweep_row_metric(b, cell->b.window_ns, m) -
							 sweep_row_metric(a, cell->a.window_ns, m);
				}
				stat_of(x, n, &vr->m[side][m]);
			}
		}
	}
	free(x);
}

void sweep_variants(const struct sweep_results *r, struct sweep_variant **out, int *n)
{
	const struct sweep_plan *p = &r->plan;
	struct sweep_variant *v = NULL;
	size_t cap = 0;
	int nv = 0;

	for (int s = 0; s < p->nr_scenarios; s++) {
		int seeds = sweep_seeds_per_variant(p, s);

		for (int first = p->scen[s].first_cell; first < p->scen[s].first_cell + p->scen[s].nr_cells;
		     first += seeds) {
			bool any = false;

			for (int c = first; c < first + seeds; c++)
				any |= r->have[c];
			if (!any)
				continue;
			XGROW(v, cap, nv);
			struct sweep_variant *w = &v[nv++];
			memset(w, 0, sizeof(*w));
			w->scen = s;
			w->first_cell = first;
			w->nr_cells = seeds;
			sweep_coord(p, first, &w->coord);
			sweep_variant_label(p, &w->coord, w->label, sizeof(w->label));
			fill_variant(r, w);
		}
	}
	*out = v;
	*n = nv;
}

void sweep_variants_free(struct sweep_variant *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].row);
	free(v);
}

void sweep_count(const struct sweep_results *r, int count[NR_CELL_STATUS])
{
	memset(count, 0, NR_CELL_STATUS * sizeof(*count));
	for (int c = 0; c < r->plan.nr_cells; c++)
		if (r->have[c])
			count[r->cell[c].status]++;
}

/* ---- the table ---- */

#define COL 18

/* A figure with as many decimals as its size deserves. */
static int fmt_num(char *buf, size_t n, double v)
{
	double a = fabs(v);

	if (v == 0)
		return snprintf(buf, n, "0");
	if (a >= 1000)
		return snprintf(buf, n, "%.0f", v);
	if (a >= 100)
		return snprintf(buf, n, "%.1f", v);
	if (a >= 10)
		return snprintf(buf, n, "%.2f", v);
	return snprintf(buf, n, "%.3f", v);
}

/* Share is shown in %. */
static double shown(int metric, double v)
{
	return metric == METRIC_SHARE ? 100.0 * v : v;
}

static void print_stat(FILE *out, const struct sweep_stat *s, int metric)
{
	char buf[64], sd[32];
	int k;

	if (!s->n) {
		fprintf(out, " %-*s", COL - 1, "-");
		return;
	}
	k = fmt_num(buf, sizeof(buf), shown(metric, s->mean));
	if (s->n > 1) {
		fmt_num(sd, sizeof(sd), shown(metric, s->sd));
		snprintf(buf + k, sizeof(buf) - (size_t)k, " ±%s", sd);
	}
	/* ± is two bytes and one column */
	fprintf(out, " %-*s", COL - 1 + (s->n > 1), buf);
}

static void print_header(FILE *out, bool has_b)
{
	fprintf(out, "  %-20s%s", "row", has_b ? " side" : "");
	for (int m = 0; m < NR_SWEEP_METRICS; m++) {
		char h[32];
		snprintf(h, sizeof(h), "%s%s%s", sweep_metric_names[m], sweep_metric_units[m][0] ? " " : "",
			 sweep_metric_units[m]);
		fprintf(out, " %-*s", COL - 1, h);
	}
	fputc('\n', out);
}

/* The seed of a cell, when seeds are swept ("seed 3"), for lists of cells. */
static void cell_name(const struct sweep_results *r, int cell, char *buf, size_t n)
{
	const struct sweep_plan *p = &r->plan;
	struct sweep_coord c;
	int a = p->nr_axes - 1;

	sweep_coord(p, cell, &c);
	if (a >= 0 && p->axis[a].kind == SWEEP_SEED)
		snprintf(buf, n, "%s", sweep_value(p, &c, a));
	else
		snprintf(buf, n, "cell %d", cell);
}

/* Which expects failed, and in how many of the variant's cells. */
static void print_failures(FILE *out, const struct sweep_results *r, const struct sweep_variant *v)
{
	const struct sweep_plan *p = &r->plan;
	bool seeds = p->nr_axes && p->axis[p->nr_axes - 1].kind == SWEEP_SEED;

	for (int side = 0; side < 2; side++) {
		for (int x = 0;; x++) {
			int fails = 0, n = 0, first = -1;
			char list[256] = "";
			size_t k = 0;

			for (int c = v->first_cell; c < v->first_cell + v->nr_cells; c++) {
				const struct sweep_cell *cell = &r->cell[c];
				const struct sweep_side *s = side ? &cell->b : &cell->a;

				if (!ran(r, c) || (side && !cell->has_b) || x >= s->nr_expects)
					continue;
				n++;
				if (s->expect_ok[x])
					continue;
				if (first < 0)
					first = c;
				char name[64];
				cell_name(r, c, name, sizeof(name));
				if (k < sizeof(list) - 8) {
					int w = snprintf(list + k, sizeof(list) - k, "%s%s",
							 fails ? ", " : "", name);
					k += w > 0 ? (size_t)w : 0;
				}
				fails++;
			}
			if (!n)
				break;
			if (!fails)
				continue;
			const struct sweep_cell *fc = &r->cell[first];
			fprintf(out, "  %s%s\n", side ? "B: " : "", (side ? &fc->b : &fc->a)->expect_msg[x]);
			if (n > 1)
				fprintf(out, "    fails in %d of %d %s: %s\n", fails, n,
					seeds ? "seeds" : "cells", list);
		}
	}
	/* cells that did not run: each reason once */
	for (int c = v->first_cell; c < v->first_cell + v->nr_cells; c++) {
		const struct sweep_cell *cell = &r->cell[c];
		bool seen = false;
		int same = 0;

		if (!r->have[c] || ran(r, c))
			continue;
		for (int d = v->first_cell; d < c && !seen; d++)
			seen = r->have[d] && !ran(r, d) && r->cell[d].status == cell->status &&
			       !strcmp(r->cell[d].message, cell->message);
		if (seen)
			continue;
		for (int d = c; d < v->first_cell + v->nr_cells; d++)
			same += r->have[d] && !ran(r, d) && r->cell[d].status == cell->status &&
				!strcmp(r->cell[d].message, cell->message);
		fprintf(out, "  %s", cell->status == CELL_NA ? "does not apply" : "ERROR");
		if (v->nr_cells > 1)
			fprintf(out, " (%d of %d)", same, v->nr_cells);
		fprintf(out, ": %s\n", cell->message);
	}
}

void sweep_table_text(FILE *out, const struct sweep_results *r, const struct sweep_variant *v, int n)
{
	const struct sweep_plan *p = &r->plan;
	bool has_b = p->nr_vs > 0;

	if (has_b) {
		fprintf(out, "B is A with");
		for (int i = 0; i < p->nr_vs; i++)
			fprintf(out, " %s", p->vs_set[i]);
		fprintf(out, "; B-A is taken seed by seed\n\n");
	}
	for (int i = 0; i < n; i++) {
		const struct sweep_variant *w = &v[i];
		int total = 0;

		for (int s = 0; s < NR_CELL_STATUS; s++)
			total += w->count[s];
		fprintf(out, "%s%s%s%s: %d %s:", i ? "\n" : "", p->scen[w->scen].label,
			w->label[0] ? "  " : "", w->label, total, w->nr_cells > 1 ? "seeds" : "cell");
		for (int s = 0, k = 0; s < NR_CELL_STATUS; s++)
			if (w->count[s])
				fprintf(out, "%s %d %s", k++ ? "," : "", w->count[s], sweep_status_names[s]);
		fputc('\n', out);
		if (w->nr_rows)
			print_header(out, has_b);
		for (int k = 0; k < w->nr_rows; k++) {
			const struct sweep_vrow *vr = &w->row[k];
			static const char *const side_name[NR_SIDES] = { "A", "B", "B-A" };

			for (int side = 0; side < (has_b ? NR_SIDES : 1); side++) {
				fprintf(out, "  %-20s", side ? "" : vr->name);
				if (has_b)
					fprintf(out, " %-4s", side_name[side]);
				for (int m = 0; m < NR_SWEEP_METRICS; m++)
					print_stat(out, &vr->m[side][m], m);
				fputc('\n', out);
			}
		}
		print_failures(out, r, w);
	}
}

/* ---- the matrix ---- */

static int axis_of(const struct sweep_plan *p, int kind)
{
	for (int a = 0; a < p->nr_axes; a++)
		if (p->axis[a].kind == kind)
			return a;
	return -1;
}

/* The verdict of the cells of one scenario, kernel value and topology value. */
static void matrix_cell(const struct sweep_results *r, int scen, int ka, const char *kv, int ta,
			const char *tv, char *buf, size_t n)
{
	const struct sweep_plan *p = &r->plan;
	const struct sweep_scenario *s = &p->scen[scen];
	int count[NR_CELL_STATUS] = { 0 }, total = 0;
	bool own = false;

	for (int c = s->first_cell; c < s->first_cell + s->nr_cells; c++) {
		struct sweep_coord co;

		if (!r->have[c])
			continue;
		sweep_coord(p, c, &co);
		if ((ka >= 0 && strcmp(sweep_value(p, &co, ka), kv)) ||
		    (ta >= 0 && strcmp(sweep_value(p, &co, ta), tv)))
			continue;
		count[r->cell[c].status]++;
		total++;
		own = ta >= 0 && sweep_is_own(p, &co, ta);
	}
	if (!total)
		snprintf(buf, n, "%s", "");
	else if (count[CELL_ERROR])
		snprintf(buf, n, "ERROR");
	else if (count[CELL_FAIL] && !count[CELL_OK])
		snprintf(buf, n, "FAIL%s", own ? "*" : "");
	else if (count[CELL_FAIL])
		snprintf(buf, n, "%d/%dF%s", count[CELL_FAIL], count[CELL_FAIL] + count[CELL_OK],
			 own ? "*" : "");
	else if (count[CELL_OK])
		snprintf(buf, n, "ok%s", own ? "*" : "");
	else
		snprintf(buf, n, "n/a");
}

#define MATRIX_COL 8

/* A piece of a column's name that fits its width: up to a '-', or cut. */
static int name_piece(const char *name, int from)
{
	int n = 0, fit = 0;

	while (name[from + n] && n < MATRIX_COL) {
		n++;
		if (name[from + n - 1] == '-')
			fit = n;
	}
	return !name[from + n] || !fit ? n : fit;
}

/* The column names stacked in as many lines as the longest needs, broken at its '-'s. */
static void matrix_header(FILE *out, const char **col, int ncol, int width, const char *first)
{
	int *at = xcalloc((size_t)ncol + 1, sizeof(*at));
	bool more = true;

	for (int line = 0; more; line++) {
		more = false;
		fprintf(out, "%-*s", width, line ? "" : first);
		for (int c = 0; c < ncol; c++) {
			int n = name_piece(col[c], at[c]);

			fprintf(out, " %-*.*s", MATRIX_COL, n, col[c] + at[c]);
			at[c] += n;
			more |= col[c][at[c]] != 0;
		}
		fputc('\n', out);
	}
	free(at);
}

void sweep_matrix_text(FILE *out, const struct sweep_results *r)
{
	const struct sweep_plan *p = &r->plan;
	int ta = axis_of(p, SWEEP_TOPOLOGY), ka = axis_of(p, SWEEP_KERNEL);
	const char **col = NULL;
	size_t cap_col = 0;
	int ncol = 0, width = 24;

	/* the columns: every topology value, in the order they first appear, `own` first */
	for (int s = 0; s < p->nr_scenarios && ta >= 0; s++)
		for (int v = 0; v < p->scen[s].nr_values[ta] && !ncol; v++)
			if (!strcmp(p->scen[s].value[ta][v], SWEEP_OWN)) {
				XGROW(col, cap_col, ncol);
				col[ncol++] = SWEEP_OWN;
			}
	for (int s = 0; s < p->nr_scenarios; s++) {
		int nv = ta >= 0 ? p->scen[s].nr_values[ta] : 1;

		for (int v = 0; v < nv; v++) {
			const char *name = ta >= 0 ? p->scen[s].value[ta][v] : SWEEP_OWN;
			bool seen = false;

			for (int c = 0; c < ncol && !seen; c++)
				seen = !strcmp(col[c], name);
			if (seen)
				continue;
			XGROW(col, cap_col, ncol);
			col[ncol++] = name;
		}
		width = MAX(width, (int)strlen(p->scen[s].label) + 8);
	}
	matrix_header(out, col, ncol, width, ka >= 0 ? "scenario  kernel" : "scenario");
	for (int s = 0; s < p->nr_scenarios; s++) {
		int nk = ka >= 0 ? p->scen[s].nr_values[ka] : 1;

		for (int k = 0; k < nk; k++) {
			const char *kv = ka >= 0 ? p->scen[s].value[ka][k] : NULL;
			const char *own = ka >= 0 ? p->scen[s].own[ka] : NULL;
			char row[128];

			snprintf(row, sizeof(row), "%s  %s%s", p->scen[s].label, kv ? kv : "",
				 kv && own && !strcmp(kv, own) ? "*" : "");
			fprintf(out, "%-*s", width, row);
			for (int c = 0; c < ncol; c++) {
				bool has = ta < 0;
				char v[32];

				for (int t = 0; ta >= 0 && t < p->scen[s].nr_values[ta] && !has; t++)
					has = !strcmp(p->scen[s].value[ta][t], col[c]);
				if (has)
					matrix_cell(r, s, ka, kv, ta, col[c], v, sizeof(v));
				else
					snprintf(v, sizeof(v), "-");
				fprintf(out, " %-*s", MATRIX_COL, v);
			}
			fputc('\n', out);
		}
	}
	free(col);
	fprintf(out,
		"\n* the scenario's own topology or kernel; n/a: the scenario does not fit that machine "
		"or release;\nFAIL: an expect does not hold (K/NF: in K of N cells); - not in this sweep\n");
	/* what went wrong where it was not the scenario's expects */
	for (int c = 0; c < p->nr_cells; c++) {
		char label[256];
		struct sweep_coord co;

		if (!r->have[c] || r->cell[c].status != CELL_ERROR)
			continue;
		sweep_coord(p, c, &co);
		sweep_variant_label(p, &co, label, sizeof(label));
		fprintf(out, "%s %s: ERROR: %s\n", p->scen[co.scen].label, label, r->cell[c].message);
	}
}

/* ---- CSV ---- */

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

int sweep_write_csv(FILE *out, const struct sweep_results *r)
{
	const struct sweep_plan *p = &r->plan;

	fputs("cell,scenario", out);
	for (int a = 0; a < p->nr_axes; a++) {
		fputc(',', out);
		csv_field(out, p->axis[a].key);
	}
	fputs(",status,side,row,tasks,share,wait_ms,p50_ms,p99_ms,migrations,throttled_ms,message\n", out);
	for (int c = 0; c < p->nr_cells; c++) {
		const struct sweep_cell *cell = &r->cell[c];
		struct sweep_coord co;

		if (!r->have[c])
			continue;
		sweep_coord(p, c, &co);
		for (int side = 0; side < 1 + cell->has_b; side++) {
			const struct sweep_side *s = side ? &cell->b : &cell->a;
			int nrows = ran(r, c) ? s->nr_rows : 0;

			for (int i = 0; i < MAX(nrows, 1); i++) {
				fprintf(out, "%d,", c);
				csv_field(out, p->scen[co.scen].path);
				for (int a = 0; a < p->nr_axes; a++) {
					fputc(',', out);
					csv_field(out, sweep_value(p, &co, a));
				}
				fprintf(out, ",%s,%s,", sweep_status_names[cell->status], side ? "B" : "A");
				if (!nrows) {
					fputs(",,,,,,,,", out);
					csv_field(out, cell->message ? cell->message : "");
					fputc('\n', out);
					continue;
				}
				const struct sweep_row *row = &s->row[i];
				csv_field(out, row->name);
				fprintf(out, ",%d", row->tasks);
				for (int m = 0; m < NR_SWEEP_METRICS; m++) {
					if (sweep_metric_applies(m, row->group))
						fprintf(out, ",%.9g", sweep_row_metric(row, s->window_ns, m));
					else
						fputc(',', out);
				}
				fputs(",\n", out);
			}
		}
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}
