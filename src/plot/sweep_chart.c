// SPDX-License-Identifier: GPL-2.0
/* A sweep's results as a chart (sweep_chart.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/base/mem.h"
#include "src/base/outfile.h"
#include "src/format/lex.h"
#include "sweep_chart.h"

static const char *const metric_title[NR_SWEEP_METRICS] = {
	"CPU share", "wait", "p50 wakeup latency", "p99 wakeup latency", "migrations", "throttled time",
};
static const char *const metric_axis[NR_SWEEP_METRICS] = {
	"CPU share per task (%)",  "runnable, not running (ms per task)",
	"p50 wakeup latency (ms)", "p99 wakeup latency (ms)",
	"migrations per task",	   "throttled (ms, summed over CPUs)",
};

/* The row to draw: the one asked for, or the task line that woke up most (in the first variant). */
static const struct sweep_vrow *find_row(const struct sweep_variant *v, int nv, const char *name, bool *group)
{
	const struct sweep_vrow *best = NULL;

	for (int i = 0; i < nv && name; i++)
		for (int k = 0; k < v[i].nr_rows; k++)
			if (!strcmp(v[i].row[k].name, name))
				best = &v[i].row[k];
	for (int k = 0; !name && nv && k < v[0].nr_rows; k++) {
		const struct sweep_vrow *r = &v[0].row[k];
		if (!best || (!r->group && (best->group || r->lat[0].count > best->lat[0].count)))
			best = r;
	}
	if (best)
		*group = best->group;
	return best;
}

static const struct sweep_vrow *row_of(const struct sweep_variant *v, const char *name)
{
	for (int k = 0; k < v->nr_rows; k++)
		if (!strcmp(v->row[k].name, name))
			return &v->row[k];
	return NULL;
}

/* A number, or a duration shown in ms: the x of a numeric axis. */
static bool numeric(const char *s, double *x)
{
	u64 ns;

	if (parse_decimal(s, strlen(s), x) == PARSE_OK)
		return true;
	if (s[0] == '-' && parse_decimal(s + 1, strlen(s + 1), x) == PARSE_OK) {
		*x = -*x;
		return true;
	}
	if (parse_duration(s, strlen(s), &ns) == PARSE_OK) {
		*x = (double)ns / 1e6;
		return true;
	}
	return false;
}

static bool has_unit(const char *s)
{
	double x;
	return parse_decimal(s, strlen(s), &x) != PARSE_OK;
}

/* The x axis: a varying --param or --set whose values are numbers, else the first varying axis. */
static int pick_x(const struct sweep_plan *p, bool *is_numeric)
{
	int first = -1;

	for (int a = 0; a < p->nr_axes; a++) {
		if (p->axis[a].kind == SWEEP_SEED || !sweep_axis_varies(p, a))
			continue;
		if (first < 0)
			first = a;
		if (p->axis[a].kind != SWEEP_PARAM && p->axis[a].kind != SWEEP_SET)
			continue;
		bool all = true;
		for (int s = 0; s < p->nr_scenarios && all; s++)
			for (int k = 0; k < p->scen[s].nr_values[a] && all; k++) {
				double x;
				all = numeric(p->scen[s].value[a][k], &x);
			}
		if (all) {
			*is_numeric = true;
			return a;
		}
	}
	*is_numeric = false;
	return first;
}

/* A variant's line: its scenario (when there are several) and its values on the axes other than x. */
static void line_key(const struct sweep_plan *p, const struct sweep_variant *v, int xa, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	if (p->nr_scenarios > 1)
		k += (size_t)snprintf(buf, n, "%s", p->scen[v->scen].label);
	for (int a = 0; a < p->nr_axes && k < n; a++) {
		if (a == xa || p->axis[a].kind == SWEEP_SEED || !sweep_axis_varies(p, a))
			continue;
		int w = snprintf(buf + k, n - k, "%s%s=%s", k ? " " : "", p->axis[a].key,
				 sweep_value(p, &v->coord, a));
		k += w > 0 ? (size_t)w : 0;
	}
}

struct line {
	char key[128];
	int side;
};

/* The row of the variant on a line at an x value, or NULL. */
static const struct sweep_vrow *at(const struct sweep_plan *p, const struct sweep_variant *v, int nv, int xa,
				   const struct line *l, const char *x, const char *rowname)
{
	for (int i = 0; i < nv; i++) {
		char key[128];

		line_key(p, &v[i], xa, key, sizeof(key));
		if (!strcmp(key, l->key) && (xa < 0 || !strcmp(sweep_value(p, &v[i].coord, xa), x)))
			return row_of(&v[i], rowname);
	}
	return NULL;
}

/* Latencies below 1 us are drawn at 1 us: a log axis needs a floor. */
#define CDF_FLOOR_MS 0.001

/* The CDF of a latency histogram: at each bucket's top, the share of wakeups at or below it (%). */
static void cdf_series(struct chart_series *se, const struct lat_hist *h)
{
	int n = 0, k = 0;
	u64 seen = 0;

	for (unsigned b = 0; b < LAT_OCTAVES * LAT_SUB; b++)
		n += h->bucket[b] != 0;
	chart_series_alloc(se, n + 1, false);
	for (unsigned b = 0; b < LAT_OCTAVES * LAT_SUB; b++) {
		if (!h->bucket[b])
			continue;
		if (!k) {
			se->x[k] = fmax((double)lat_bucket_lower(b) / 1e6, CDF_FLOOR_MS);
			se->y[k++] = 0;
		}
		seen += h->bucket[b];
		u64 top = b + 1 < LAT_OCTAVES * LAT_SUB ? lat_bucket_lower(b + 1) : h->max;
		se->x[k] = fmax((double)MIN(top, h->max) / 1e6, CDF_FLOOR_MS);
		se->y[k++] = 100.0 * (double)seen / (double)h->count;
	}
	se->n = k;
}

/* What one chart is drawn from: the row, the x axis and its values, the lines. */
struct chart_build {
	const struct sweep_plan *p;
	const struct sweep_variant *v;
	int nv;
	const char *rowname;
	bool group, xnum, has_b;
	int metric, xa, seeds;
	const char **xv; /* the x values, in order */
	int nx;
	struct line *lines;
	int nl;
};

/* The x values (as they first come) and the lines (each key on each side) of the variants. */
static void collect(struct chart_build *b)
{
	b->xv = xcalloc((size_t)b->nv + 1, sizeof(*b->xv));
	b->lines = xcalloc((size_t)b->nv * 2 + 2, sizeof(*b->lines));
	for (int i = 0; i < b->nv; i++) {
		const char *val = b->xa >= 0 ? sweep_value(b->p, &b->v[i].coord, b->xa) : "";
		bool seen = false;
		for (int k = 0; k < b->nx && !seen; k++)
			seen = !strcmp(b->xv[k], val);
		if (!seen)
			b->xv[b->nx++] = val;
		char key[128];
		line_key(b->p, &b->v[i], b->xa, key, sizeof(key));
		for (int side = 0; side < 1 + b->has_b; side++) {
			seen = false;
			for (int k = 0; k < b->nl && !seen; k++)
				seen = !strcmp(b->lines[k].key, key) && b->lines[k].side == side;
			if (!seen) {
				snprintf(b->lines[b->nl].key, sizeof(b->lines[b->nl].key), "%s", key);
				b->lines[b->nl++].side = side;
			}
		}
	}
}

/* Numeric x values sorted: a small insertion sort keeps equal values in order. */
static void sort_x(struct chart_build *b)
{
	for (int i = 1; i < b->nx; i++)
		for (int k = i; k > 0; k--) {
			double x0, x1;
			numeric(b->xv[k - 1], &x0);
			numeric(b->xv[k], &x1);
			if (x0 <= x1)
				break;
			const char *t = b->xv[k];
			b->xv[k] = b->xv[k - 1];
			b->xv[k - 1] = t;
		}
}

/* The title, the subtitle (seeds, side B, lines left out) and the caption below. */
static void titles(struct chart_build *b, struct chart *c)
{
	const struct sweep_plan *p = b->p;

	snprintf(c->below, sizeof(c->below),
		 "Wakeup latency CDF of %.60s, every wakeup of every seed (log scale, "
		 "from 1 us)",
		 b->rowname);
	snprintf(c->title, sizeof(c->title), "%s of %s%s%s", metric_title[b->metric], b->rowname,
		 p->nr_scenarios == 1 ? " in " : "", p->nr_scenarios == 1 ? p->scen[0].label : "");
	if (b->seeds > 1)
		snprintf(c->subtitle, sizeof(c->subtitle),
			 "%d seeds a point: the mean, and from the lowest to the "
			 "highest as the %s",
			 b->seeds, b->xnum ? "band" : "bar");
	else
		snprintf(c->subtitle, sizeof(c->subtitle), "one seed a point");
	if (b->has_b) {
		size_t k = strlen(c->subtitle);
		k += (size_t)snprintf(c->subtitle + k, sizeof(c->subtitle) - k, "; B:");
		for (int i = 0; i < p->nr_vs && k < sizeof(c->subtitle); i++)
			k += (size_t)snprintf(c->subtitle + k, sizeof(c->subtitle) - k, " %s", p->vs_set[i]);
	}
	if (b->nl > CHART_MAX_SERIES) {
		size_t k = strlen(c->subtitle);
		snprintf(c->subtitle + k, sizeof(c->subtitle) - k, " (the first %d of %d lines)",
			 CHART_MAX_SERIES, b->nl);
		b->nl = CHART_MAX_SERIES;
	}
}

/* The main panel's axes: the metric up, the swept key (or the categories) across. */
static void main_axes(const struct chart_build *b, struct chart_panel *m)
{
	snprintf(m->ylabel, sizeof(m->ylabel), "%s", metric_axis[b->metric]);
	if (b->group && b->metric == METRIC_SHARE)
		snprintf(m->ylabel, sizeof(m->ylabel), "CPU share of the group (%% of one CPU)");
	if (b->xa >= 0)
		snprintf(m->xlabel, sizeof(m->xlabel), "%s%s", b->p->axis[b->xa].key,
			 b->xnum && b->nx && has_unit(b->xv[0]) ? " (ms)" : "");
	m->y_from_zero = true;
	if (!b->xnum) {
		m->nr_categories = b->nx;
		m->category = xcalloc((size_t)b->nx + 1, sizeof(char *));
		for (int k = 0; k < b->nx; k++)
			m->category[k] = xstrdup(b->xa >= 0 ? b->xv[k] : b->p->scen[0].label);
	}
}

/* Line l of the main panel: the metric's mean (and min..max) at each x value. */
static void main_series(const struct chart_build *b, struct chart_series *se, int l)
{
	const struct line *ln = &b->lines[l];
	int n = 0;

	chart_series_alloc(se, b->nx, b->seeds > 1);
	se->color = l;
	if (!snprintf(se->label, sizeof(se->label), "%s%s%s", ln->key,
		      b->has_b ? (ln->key[0] ? " " : "") : "", b->has_b ? (ln->side ? "B" : "A") : ""))
		snprintf(se->label, sizeof(se->label), "%s", b->rowname);
	for (int k = 0; k < b->nx; k++) {
		const struct sweep_vrow *vr = at(b->p, b->v, b->nv, b->xa, ln, b->xv[k], b->rowname);
		const struct sweep_stat *st = vr ? &vr->m[ln->side][b->metric] : NULL;
		double scale = b->metric == METRIC_SHARE ? 100.0 : 1.0, x = k;

		if (!st || !st->n)
			continue;
		if (b->xnum)
			numeric(b->xv[k], &x);
		se->x[n] = x;
		se->y[n] = st->mean * scale;
		if (se->lo) {
			se->lo[n] = st->min * scale;
			se->hi[n] = st->max * scale;
		}
		n++;
	}
	se->n = n;
}

/* Two lines: their latency CDFs, at up to four x values. */
static void cdf_panels(const struct chart_build *b, struct chart *c)
{
	const struct chart_panel *m = &c->panel[0];
	int picks = MIN(b->nx, CHART_MAX_PANELS - 1);

	for (int q = 0; q < picks; q++) {
		int k = picks == 1 ? 0 : q * (b->nx - 1) / (picks - 1);
		struct chart_panel *cp = &c->panel[c->nr_panels++];

		snprintf(cp->title, sizeof(cp->title), "%s%s%s", b->xa >= 0 ? b->p->axis[b->xa].key : "all",
			 b->xa >= 0 ? "=" : "", b->xa >= 0 ? b->xv[k] : "");
		snprintf(cp->xlabel, sizeof(cp->xlabel), "wakeup latency (ms)");
		snprintf(cp->ylabel, sizeof(cp->ylabel), "wakeups at or below (%%)");
		cp->log_x = cp->steps = cp->y_from_zero = true;
		cp->nr_series = 2;
		for (int l = 0; l < 2; l++) {
			struct chart_series *se = &cp->series[l];
			se->color = l;
			snprintf(se->label, sizeof(se->label), "%s", m->series[l].label);
			const struct sweep_vrow *vr =
				at(b->p, b->v, b->nv, b->xa, &b->lines[l], b->xv[k], b->rowname);
			if (vr)
				cdf_series(se, &vr->lat[b->lines[l].side]);
		}
	}
}

int sweep_chart_build(const struct sweep_results *r, const struct sweep_variant *v, int nv,
		      const struct chart_opts *o, struct chart *c, char *err, size_t errlen)
{
	struct chart_build b = {
		.p = &r->plan, .v = v, .nv = nv, .has_b = r->plan.nr_vs > 0, .metric = o->metric
	};
	const struct sweep_vrow *row0 = find_row(v, nv, o->row, &b.group);

	memset(c, 0, sizeof(*c));
	if (!nv || !row0) {
		snprintf(err, errlen,
			 o->row ? "--row %s: no such task line or group in the results"
				: "nothing ran: no chart to draw%s",
			 o->row ? o->row : "");
		return -1;
	}
	if (b.metric < 0)
		b.metric = b.group ? METRIC_SHARE : METRIC_P99;
	if (!sweep_metric_applies(b.metric, b.group)) {
		snprintf(err, errlen, "--metric %s does not apply to %s '%s'", sweep_metric_names[b.metric],
			 b.group ? "the group" : "the task line", row0->name);
		return -1;
	}
	b.rowname = row0->name;
	b.xa = pick_x(b.p, &b.xnum);
	collect(&b);
	if (b.xnum)
		sort_x(&b);
	c->nr_panels = 1;
	b.seeds = sweep_seeds_per_variant(b.p, v[0].scen);
	titles(&b, c);
	main_axes(&b, &c->panel[0]);
	c->panel[0].nr_series = b.nl;
	for (int l = 0; l < b.nl; l++)
		main_series(&b, &c->panel[0].series[l], l);
	if (b.nl == 2 && !b.group)
		cdf_panels(&b, c);
	free(b.xv);
	free(b.lines);
	return 0;
}

int sweep_chart_write(const char *path, const struct sweep_results *r, const struct sweep_variant *v, int nv,
		      const struct chart_opts *o)
{
	struct chart c;
	struct outfile out;
	char err[512];
	int rc;

	if (sweep_chart_build(r, v, nv, o, &c, err, sizeof(err)) < 0) {
		fprintf(stderr, "schedscope: --plot: %s\n", err);
		return -1;
	}
	if (!strcmp(path, "-")) {
		fputc('\n', stdout);
		rc = chart_term(stdout, &c, 72, 18, isatty(STDOUT_FILENO));
		chart_free(&c);
		return rc;
	}
	/* an existing chart is replaced whole or kept (src/base/outfile.h) */
	if (outfile_open(&out, path)) {
		chart_free(&c);
		return -1;
	}
	rc = chart_svg(out.f, &c);
	chart_free(&c);
	if (rc && !ferror(out.f)) {
		fprintf(stderr, "schedscope: %s: cannot write: the chart is incomplete\n", path);
		outfile_abort(&out);
		return -1;
	}
	return outfile_commit(&out);
}
