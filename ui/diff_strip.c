// SPDX-License-Identifier: GPL-2.0
/*
 * The diff strip (struct diff_strip in ui.h): the split's two runs side by
 * side in numbers. Each side's metrics come from src/analysis (the
 * statistics of its event log up to its position, then metrics.h's rows),
 * as `schedscope compare` reports them; here they are only laid out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/analysis/metrics.h"
#include "src/base/mem.h"
#include "commands.h"
#include "format.h"
#include "split.h"

/* The metrics the strip shows, in column order. */
static const int shown[] = { MET_SHARE, MET_WAIT, MET_P99, MET_MIGRATIONS };
#define COL_W 10
#define NAME_W 16
#define DIFF_PLAY_GAP (500 * NSEC_PER_MSEC)

static struct metrics *side_metrics(const struct ui_run *run, u64 from, u64 to)
{
	struct metrics *m = xcalloc(1, sizeof(*m));
	u64 n = MIN(sched_nr_events(run->e), history_nr_logged(run->h)), now = sched_now(run->e);
	struct stats st;

	stats_init_scenario(&st, &run->f->sc, from, to ? to : UINT64_MAX);
	for (u64 s = 0; s < n; s++)
		stats_event(&st, history_event(run->h, s));
	stats_finish(&st, now);
	metrics_from_stats(m, &st, run->f->task_names);
	stats_free(&st);
	return m;
}

static void drop(struct diff_strip *d)
{
	for (int i = 0; i < 2; i++) {
		if (d->m[i])
			metrics_free(d->m[i]);
		free(d->m[i]);
		d->m[i] = NULL;
	}
	d->valid = false;
}

void diff_strip_fini(struct diff_strip *d)
{
	drop(d);
}

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

void diff_strip_update(struct ui *ui)
{
	struct diff_strip *d = &ui->split.diff;
	const struct ui_run *r[2] = { &ui->run, &ui->run_b };

	if (!ui->split.on || !d->on)
		return;
	u64 ev[2] = { sched_nr_events(r[0]->e), sched_nr_events(r[1]->e) };
	u64 now = sched_now(ui_focus(ui)->run->e);
	if (d->valid && ev[0] == d->key_events[0] && ev[1] == d->key_events[1] && now == d->key_now)
		return;
	/*
	 * Working the numbers out reads both logs from the start: while the
	 * run plays, at most once per DIFF_PLAY_GAP (or ten times its cost)
	 * of wall time; the header says the time they are for.
	 */
	u64 t0 = wall_ns();
	if (d->valid && !ui->paused && t0 - d->wall_at < MAX(DIFF_PLAY_GAP, 10 * d->cost))
		return;
	drop(d);
	for (int i = 0; i < 2; i++) {
		d->m[i] = side_metrics(r[i], d->from, d->to);
		d->key_events[i] = ev[i];
	}
	d->key_now = now;
	d->valid = true;
	d->wall_at = wall_ns();
	d->cost = d->wall_at - t0;
}

/* A row: A's index and B's (-1 where that side has no such task or group). */
struct pair {
	int a, b;
	double key;
};

static double value(const struct metrics *m, int row, int metric, bool *has)
{
	*has = row >= 0 && m->row[row].has[metric];
	return *has ? m->row[row].v[metric] : 0;
}

static int by_key(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->key != q->key)
		return p->key > q->key ? -1 : 1;
	return p->a != q->a ? p->a - q->a : p->b - q->b;
}

/* The row of `to` for row i of `from`: the same index when the sides have
 * the same tasks (a variant of one scenario), else a search by name. */
static int same_row(const struct metrics *from, int i, const struct metrics *to)
{
	const struct metric_row *r = &from->row[i];

	if (i < to->nr_rows && to->row[i].group == r->group && !strcmp(to->row[i].name, r->name))
		return i;
	return metrics_find(to, r->name, r->group);
}

/* The rows in the strip's order; *n of them (caller frees). */
static struct pair *pairs(const struct diff_strip *d, int *n)
{
	const struct metrics *a = d->m[0], *b = d->m[1];
	struct pair *p = xcalloc((size_t)(a->nr_rows + b->nr_rows) + 1, sizeof(*p));
	int k = 0;

	for (int i = 0; i < a->nr_rows; i++)
		p[k++] = (struct pair){ i, same_row(a, i, b), 0 };
	for (int j = 0; j < b->nr_rows; j++)
		if (same_row(b, j, a) < 0)
			p[k++] = (struct pair){ -1, j, 0 };
	if (d->sort != DIFF_SORT_NAME) {
		for (int i = 0; i < k; i++) {
			bool ha, hb;
			double va = value(a, p[i].a, d->sort, &ha), vb = value(b, p[i].b, d->sort, &hb);
			p[i].key = ha && hb ? fabs(vb - va) : -1;
		}
		qsort(p, (size_t)k, sizeof(*p), by_key);
	}
	*n = k;
	return p;
}

static void text(char *buf, size_t len, int metric, double v, bool plus)
{
	if (metric_is_time(metric))
		fmt_dur(buf, len, (s64)llround(v), plus);
	else if (metric == MET_SHARE)
		snprintf(buf, len, plus ? "%+.3f" : "%.3f", v);
	else
		snprintf(buf, len, plus ? "%+.0f" : "%.0f", v);
}

/* B - A: for waits, latencies and migrations more is worse (red); for a share, yellow up, cyan down. */
static struct style delta_style(const struct ui *ui, int metric, double dv)
{
	if (!ui->colors || dv == 0)
		return STYLE_PLAIN;
	if (metric == MET_SHARE)
		return sty(dv > 0 ? C_YELLOW : C_CYAN, COLOR_DEFAULT, A_BOLD_);
	return sty(dv > 0 ? C_BRIGHT_RED : C_BRIGHT_GREEN, COLOR_DEFAULT, A_BOLD_);
}

int diff_strip_height(const struct ui *ui, int h)
{
	const struct diff_strip *d = &ui->split.diff;

	if (!ui->split.on || !d->on)
		return 0;
	return MAX(5, MIN(h / 3, 16));
}

void diff_strip_draw(struct ui *ui, struct cellbuf *cb, struct rect r)
{
	struct diff_strip *d = &ui->split.diff;
	struct style head = sty(C_CYAN, COLOR_DEFAULT, A_BOLD_),
		     dim = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_DIM_);
	char b1[32], b2[32];
	int n, ncols = 0, x;

	diff_strip_update(ui);
	if (!d->valid || r.h < 4)
		return;
	cb_fill(cb, (struct rect){ r.x, r.y, r.w, 1 }, 0x2500, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0));
	x = cb_print(cb, r.x + 1, r.y, r.w - 2, head, " diff B\u2212A over %s..%s ",
		     ui_time_text(d->from, b1, sizeof(b1)),
		     ui_time_text(d->to ? d->to : d->key_now, b2, sizeof(b2)));
	cb_print(cb, r.x + 1 + x, r.y, r.w - 2 - x, dim,
		 " sorted by %s (:diff sort NAME, :diff window A..B) ",
		 d->sort == DIFF_SORT_NAME ? "name" : metric_names[d->sort]);

	/* as many metrics as the width takes, the sorted one first */
	int cols[ARRAY_SIZE(shown)];
	if (d->sort != DIFF_SORT_NAME)
		cols[ncols++] = d->sort;
	for (size_t i = 0; i < ARRAY_SIZE(shown); i++)
		if (shown[i] != d->sort && NAME_W + (ncols + 1) * (3 * COL_W + 2) <= r.w)
			cols[ncols++] = shown[i];

	/* two header rows: the metric over its three columns, then A, B and B - A */
	x = r.x + NAME_W;
	for (int c = 0; c < ncols; c++, x += 3 * COL_W + 2) {
		int len = (int)strlen(metric_names[cols[c]]);
		cb_print(cb, x + (3 * COL_W + 2 - len) / 2, r.y + 1, len, head, "%s", metric_names[cols[c]]);
		cb_print(cb, x, r.y + 2, 3 * COL_W + 2, head, "%*s%*s%*s", COL_W, "A", COL_W, "B", COL_W + 1,
			 "B\u2212A");
	}
	struct pair *p = pairs(d, &n);
	int rows = r.h - 3;
	for (int i = 0; i < n && i < rows; i++) {
		int y = r.y + 3 + i;
		const struct metric_row *mr = p[i].a >= 0 ? &d->m[0]->row[p[i].a] : &d->m[1]->row[p[i].b];

		if (i == rows - 1 && n > rows) {
			cb_print(cb, r.x + 1, y, r.w - 1, dim, "... %d more rows", n - rows + 1);
			break;
		}
		cb_print(cb, r.x + 1, y, NAME_W - 2,
			 mr->group ? sty(C_MAGENTA, COLOR_DEFAULT, A_BOLD_) : STYLE_PLAIN, "%s", mr->name);
		x = r.x + NAME_W;
		for (int c = 0; c < ncols; c++, x += 3 * COL_W + 2) {
			bool ha, hb;
			double va = value(d->m[0], p[i].a, cols[c], &ha),
			       vb = value(d->m[1], p[i].b, cols[c], &hb);

			if (ha)
				text(b1, sizeof(b1), cols[c], va, false);
			cb_print(cb, x, y, COL_W, STYLE_PLAIN, "%*s", COL_W, ha ? b1 : "-");
			if (hb)
				text(b1, sizeof(b1), cols[c], vb, false);
			cb_print(cb, x + COL_W, y, COL_W, STYLE_PLAIN, "%*s", COL_W, hb ? b1 : "-");
			if (ha && hb)
				text(b1, sizeof(b1), cols[c], vb - va, true);
			cb_print(cb, x + 2 * COL_W, y, COL_W + 2,
				 ha && hb ? delta_style(ui, cols[c], vb - va) : dim, "%*s", COL_W + 1,
				 ha && hb ? b1 : "-");
		}
	}
	free(p);
}
