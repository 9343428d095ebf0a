// SPDX-License-Identifier: GPL-2.0
/* One sweep cell's results (sweep_cell.h). */
#include <stdlib.h>
#include <string.h>

#include "src/base/json.h"
#include "src/base/mem.h"
#include "src/format/expect.h"
#include "sweep_cell.h"

const char *const sweep_status_names[NR_CELL_STATUS] = { "ok", "fail", "n/a", "error" };
const char *const sweep_metric_names[NR_SWEEP_METRICS] = {
	"share", "wait", "p50", "p99", "migrations", "throttled",
};
const char *const sweep_metric_units[NR_SWEEP_METRICS] = { "%", "ms", "ms", "ms", "", "ms" };

/* count= tasks are NAME.N (a task name has no other '.'): their row is NAME.* */
static void row_name(const char *task, char *out, size_t len)
{
	const char *dot = strrchr(task, '.');

	if (dot)
		snprintf(out, len, "%.*s.*", (int)(dot - task), task);
	else
		snprintf(out, len, "%s", task);
}

static void lat_hist_merge(struct lat_hist *to, const struct lat_hist *from)
{
	for (unsigned b = 0; b < LAT_OCTAVES * LAT_SUB; b++)
		to->bucket[b] += from->bucket[b];
	to->count += from->count;
	to->max = MAX(to->max, from->max);
}

/* A new row, zeroed. */
static struct sweep_row *add_row(struct sweep_side *s, size_t *cap)
{
	XGROW(s->row, *cap, s->nr_rows);
	memset(&s->row[s->nr_rows], 0, sizeof(s->row[0]));
	return &s->row[s->nr_rows++];
}

void sweep_side_from_run(struct sweep_side *s, const struct scenario_file *f, const struct run_stats *rs,
			 bool check)
{
	const struct stats *st = &rs->st[0];
	size_t cap = 0;
	char name[64];

	memset(s, 0, sizeof(*s));
	s->window_ns = st->end > st->from ? st->end - st->from : 0;
	for (int i = 0; i < st->nr_tasks; i++) {
		const struct task_stats *t = &st->task[i];
		struct sweep_row *r = NULL;

		row_name(f->task_names[i], name, sizeof(name));
		/* the tasks of a line are neighbours: look at the last row first */
		for (int k = s->nr_rows - 1; k >= 0 && !r; k--)
			if (!s->row[k].group && !strcmp(s->row[k].name, name))
				r = &s->row[k];
		if (!r) {
			r = add_row(s, &cap);
			snprintf(r->name, sizeof(r->name), "%s", name);
		}
		r->tasks++;
		r->cpu_ns += t->cpu_ns;
		r->wait_ns += t->wait_ns;
		r->migrations += t->migrations;
		lat_hist_merge(&r->lat, &t->lat);
	}
	/* the groups after the tasks */
	for (int g = 1; g < st->nr_groups; g++) {
		struct sweep_row *r = add_row(s, &cap);
		snprintf(r->name, sizeof(r->name), "%s", st->group_name[g]);
		r->group = true;
		r->cpu_ns = st->group[g].usage_ns;
		r->throttled_ns = st->group[g].throttled_ns;
	}
	if (!check)
		return;
	s->nr_expects = f->nr_expects;
	s->expect_msg = xcalloc((size_t)f->nr_expects + 1, sizeof(*s->expect_msg));
	s->expect_ok = xcalloc((size_t)f->nr_expects + 1, sizeof(*s->expect_ok));
	s->failed = run_stats_check(rs, f, s->expect_msg, s->expect_ok);
}

void sweep_cell_settle(struct sweep_cell *c)
{
	if (c->status == CELL_NA || c->status == CELL_ERROR)
		return;
	c->status = c->a.failed || (c->has_b && c->b.failed) ? CELL_FAIL : CELL_OK;
}

static void side_free(struct sweep_side *s)
{
	for (int i = 0; s->expect_msg && i < s->nr_expects; i++)
		free(s->expect_msg[i]);
	free(s->expect_msg);
	free(s->expect_ok);
	free(s->row);
	memset(s, 0, sizeof(*s));
}

void sweep_cell_free(struct sweep_cell *c)
{
	side_free(&c->a);
	side_free(&c->b);
	free(c->message);
	c->message = NULL;
}

/* ---- metrics ---- */

int sweep_metric_lookup(const char *name)
{
	for (int m = 0; m < NR_SWEEP_METRICS; m++)
		if (!strcmp(name, sweep_metric_names[m]))
			return m;
	return -1;
}

bool sweep_metric_applies(int metric, bool group)
{
	switch (metric) {
	case METRIC_SHARE:
		return true;
	case METRIC_THROTTLED:
		return group;
	default:
		return !group;
	}
}

double sweep_row_metric(const struct sweep_row *r, u64 window_ns, int metric)
{
	double per = r->tasks ? (double)r->tasks : 1.0;

	switch (metric) {
	case METRIC_SHARE:
		return window_ns ? (double)r->cpu_ns / (double)window_ns / per : 0.0;
	case METRIC_WAIT:
		return (double)r->wait_ns / 1e6 / per;
	case METRIC_P50:
		return (double)lat_hist_value(&r->lat, STAT_P50) / 1e6;
	case METRIC_P99:
		return (double)lat_hist_value(&r->lat, STAT_P99) / 1e6;
	case METRIC_MIGRATIONS:
		return (double)r->migrations / per;
	case METRIC_THROTTLED:
		return (double)r->throttled_ns / 1e6;
	}
	return 0.0;
}

const struct sweep_row *sweep_side_row(const struct sweep_side *s, const char *name)
{
	for (int i = 0; i < s->nr_rows; i++)
		if (!strcmp(s->row[i].name, name))
			return &s->row[i];
	return NULL;
}

/* ---- JSON ---- */

static void write_side(struct json_writer *j, const struct sweep_side *s)
{
	jw_begin_object(j);
	jw_kv_u64(j, "window_ns", s->window_ns);
	jw_key(j, "rows");
	jw_begin_array(j);
	for (int i = 0; i < s->nr_rows; i++) {
		const struct sweep_row *r = &s->row[i];

		jw_begin_object(j);
		jw_kv_str(j, "name", r->name);
		jw_kv_bool(j, "group", r->group);
		jw_kv_u64(j, "tasks", (u64)r->tasks);
		jw_kv_u64(j, "cpu_ns", r->cpu_ns);
		jw_kv_u64(j, "wait_ns", r->wait_ns);
		jw_kv_u64(j, "migrations", r->migrations);
		jw_kv_u64(j, "throttled_ns", r->throttled_ns);
		/* the histogram sparse: [bucket, count] pairs */
		jw_kv_u64(j, "lat_max_ns", r->lat.max);
		jw_key(j, "lat");
		jw_begin_array(j);
		for (unsigned b = 0; b < LAT_OCTAVES * LAT_SUB; b++) {
			if (!r->lat.bucket[b])
				continue;
			jw_begin_array(j);
			jw_u64(j, b);
			jw_u64(j, r->lat.bucket[b]);
			jw_end_array(j);
		}
		jw_end_array(j);
		jw_end_object(j);
	}
	jw_end_array(j);
	jw_key(j, "expects");
	jw_begin_array(j);
	for (int i = 0; i < s->nr_expects; i++) {
		jw_begin_object(j);
		jw_kv_bool(j, "ok", s->expect_ok[i]);
		jw_kv_str(j, "message", s->expect_msg[i] ? s->expect_msg[i] : "");
		jw_end_object(j);
	}
	jw_end_array(j);
	jw_end_object(j);
}

void sweep_cell_write(struct json_writer *j, const struct sweep_cell *c)
{
	jw_begin_object(j);
	jw_kv_u64(j, "cell", (u64)c->index);
	jw_kv_str(j, "status", sweep_status_names[c->status]);
	if (c->message)
		jw_kv_str(j, "message", c->message);
	if (c->status == CELL_OK || c->status == CELL_FAIL) {
		jw_key(j, "a");
		write_side(j, &c->a);
		if (c->has_b) {
			jw_key(j, "b");
			write_side(j, &c->b);
		}
	}
	jw_end_object(j);
}
