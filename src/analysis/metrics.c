// SPDX-License-Identifier: GPL-2.0
/* Per task and per group metrics of a run over a window (metrics.h). */
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "src/format/expect.h"
#include "metrics.h"

static u64 window_ns(const struct stats *st)
{
	u64 end = st->end < st->to ? st->end : st->to;

	return end > st->from ? end - st->from : 0;
}

static void set(struct metric_row *r, int metric, double v)
{
	r->v[metric] = v;
	r->has[metric] = true;
}

static void latencies(struct metric_row *r, const struct lat_hist *h)
{
	if (!h->count)
		return;
	set(r, MET_P50, (double)lat_hist_value(h, STAT_P50));
	set(r, MET_P99, (double)lat_hist_value(h, STAT_P99));
}

static void merge_hist(struct lat_hist *into, const struct lat_hist *h)
{
	into->count += h->count;
	if (h->max > into->max)
		into->max = h->max;
	for (size_t b = 0; b < sizeof(h->bucket) / sizeof(h->bucket[0]); b++)
		into->bucket[b] += h->bucket[b];
}

/* Is task i in group g or below it? */
static bool task_under(const struct stats *st, int i, int g)
{
	for (int k = st->task_group[i]; k >= 0; k = st->group[k].parent)
		if (k == g)
			return true;
	return false;
}

static void group_row(struct metric_row *r, const struct stats *st, int g, double win)
{
	const struct group_stats *gs = &st->group[g];
	struct lat_hist *h = xcalloc(1, sizeof(*h));
	u64 wait = 0, migrations = 0;

	r->name = st->group_name[g];
	r->group = true;
	for (int i = 0; i < st->nr_tasks; i++) {
		if (!task_under(st, i, g))
			continue;
		wait += st->task[i].wait_ns;
		migrations += st->task[i].migrations;
		merge_hist(h, &st->task[i].lat);
	}
	set(r, MET_SHARE, win ? (double)gs->usage_ns / win : 0);
	set(r, MET_WAIT, (double)wait);
	latencies(r, h);
	set(r, MET_MIGRATIONS, (double)migrations);
	set(r, MET_THROTTLED, (double)gs->throttled_ns);
	free(h);
}

void metrics_from_stats(struct metrics *m, const struct stats *st, const char *const *task_names)
{
	/* the root group alone is the whole machine: rows for groups only when there are some */
	int nr_groups = st->nr_groups > 1 ? st->nr_groups - 1 : 0;
	double win;

	memset(m, 0, sizeof(*m));
	m->window = window_ns(st);
	m->nr_tasks = st->nr_tasks;
	m->nr_rows = st->nr_tasks + nr_groups;
	m->row = xcalloc((size_t)m->nr_rows + 1, sizeof(*m->row));
	win = (double)m->window;
	for (int i = 0; i < st->nr_tasks; i++) {
		const struct task_stats *ts = &st->task[i];
		struct metric_row *r = &m->row[i];

		r->name = task_names[i];
		set(r, MET_SHARE, win ? (double)ts->cpu_ns / win : 0);
		set(r, MET_WAIT, (double)ts->wait_ns);
		latencies(r, &ts->lat);
		set(r, MET_MIGRATIONS, (double)ts->migrations);
	}
	for (int g = 0; g < nr_groups; g++)
		group_row(&m->row[st->nr_tasks + g], st, g + 1, win);
}

void metrics_free(struct metrics *m)
{
	free(m->row);
	memset(m, 0, sizeof(*m));
}

int metrics_find(const struct metrics *m, const char *name, bool group)
{
	for (int i = 0; i < m->nr_rows; i++)
		if (m->row[i].group == group && !strcmp(m->row[i].name, name))
			return i;
	return -1;
}
