// SPDX-License-Identifier: GPL-2.0
/*
 * Reading sweep results back (sweep_file.h): the files `sweep --out` wrote,
 * for `sweep merge`, and the cells the workers report through their pipes.
 * Parsed with jansson; every field is checked, so a damaged or foreign file
 * is an error naming what is wrong, never a crash.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "sweep_file.h"

struct reader {
	char *err;
	size_t errlen;
	bool failed;
};

static int bad(struct reader *rd, const char *fmt, const char *what)
{
	if (!rd->failed)
		snprintf(rd->err, rd->errlen, fmt, what);
	rd->failed = true;
	return -1;
}

static int get_u64(struct reader *rd, json_t *o, const char *key, u64 max, u64 *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_integer(x) || json_integer_value(x) < 0 || (u64)json_integer_value(x) > max)
		return bad(rd, "'%s' is missing or not a count", key);
	*v = (u64)json_integer_value(x);
	return 0;
}

static const char *get_str(struct reader *rd, json_t *o, const char *key)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_string(x)) {
		bad(rd, "'%s' is missing or not a string", key);
		return NULL;
	}
	return json_string_value(x);
}

static int read_row(struct reader *rd, json_t *o, struct sweep_row *r)
{
	const char *name = get_str(rd, o, "name");
	json_t *g = json_object_get(o, "group"), *lat = json_object_get(o, "lat");
	u64 tasks;
	size_t i;
	json_t *pair;

	if (!name || !json_is_boolean(g) || !json_is_array(lat) ||
	    get_u64(rd, o, "tasks", 200000, &tasks) < 0 ||
	    get_u64(rd, o, "cpu_ns", UINT64_MAX >> 1, &r->cpu_ns) < 0 ||
	    get_u64(rd, o, "wait_ns", UINT64_MAX >> 1, &r->wait_ns) < 0 ||
	    get_u64(rd, o, "migrations", UINT64_MAX >> 1, &r->migrations) < 0 ||
	    get_u64(rd, o, "throttled_ns", UINT64_MAX >> 1, &r->throttled_ns) < 0 ||
	    get_u64(rd, o, "lat_max_ns", UINT64_MAX >> 1, &r->lat.max) < 0)
		return bad(rd, "a row is damaged (%s)",
			   "name, group, tasks, cpu_ns, wait_ns, migrations, "
			   "throttled_ns, lat_max_ns, lat");
	if (strlen(name) >= sizeof(r->name))
		return bad(rd, "row name '%.40s...' is too long", name);
	strcpy(r->name, name);
	r->group = json_is_true(g);
	r->tasks = (int)tasks;
	json_array_foreach(lat, i, pair)
	{
		json_t *b = json_array_get(pair, 0), *n = json_array_get(pair, 1);

		if (json_array_size(pair) != 2 || !json_is_integer(b) || !json_is_integer(n) ||
		    json_integer_value(b) < 0 || json_integer_value(b) >= LAT_OCTAVES * LAT_SUB ||
		    json_integer_value(n) < 0 || json_integer_value(n) > UINT32_MAX)
			return bad(rd, "row '%s': a latency bucket is not [bucket, count]", r->name);
		r->lat.bucket[json_integer_value(b)] = (u32)json_integer_value(n);
		r->lat.count += (u64)json_integer_value(n);
	}
	return 0;
}

static int read_side(struct reader *rd, json_t *o, struct sweep_side *s)
{
	json_t *rows = json_object_get(o, "rows"), *ex = json_object_get(o, "expects"), *x;
	size_t i;

	if (!json_is_object(o) || !json_is_array(rows) || !json_is_array(ex) ||
	    get_u64(rd, o, "window_ns", UINT64_MAX >> 1, &s->window_ns) < 0)
		return bad(rd, "a cell's %s is damaged", "run");
	s->row = xcalloc(json_array_size(rows) + 1, sizeof(*s->row));
	s->expect_msg = xcalloc(json_array_size(ex) + 1, sizeof(*s->expect_msg));
	s->expect_ok = xcalloc(json_array_size(ex) + 1, sizeof(*s->expect_ok));
	json_array_foreach(rows, i, x)
	{
		if (!json_is_object(x) || read_row(rd, x, &s->row[i]) < 0)
			return bad(rd, "a %s is damaged", "row");
		s->nr_rows++;
	}
	json_array_foreach(ex, i, x)
	{
		json_t *ok = json_object_get(x, "ok");
		const char *msg = get_str(rd, x, "message");

		if (!json_is_boolean(ok) || !msg)
			return bad(rd, "an %s is damaged", "expect");
		s->expect_msg[i] = xstrdup(msg);
		s->expect_ok[i] = json_is_true(ok);
		s->failed += !s->expect_ok[i];
		s->nr_expects++;
	}
	return 0;
}

static int read_cell(struct reader *rd, json_t *o, int nr_cells, struct sweep_cell *c)
{
	const char *status = get_str(rd, o, "status");
	json_t *msg = json_object_get(o, "message"), *b = json_object_get(o, "b");
	u64 index;

	memset(c, 0, sizeof(*c));
	if (!json_is_object(o) || !status || get_u64(rd, o, "cell", (u64)nr_cells - 1, &index) < 0)
		return bad(rd, "a %s is damaged (cell, status)", "cell");
	c->index = (int)index;
	c->status = -1;
	for (int s = 0; s < NR_CELL_STATUS; s++)
		if (!strcmp(status, sweep_status_names[s]))
			c->status = s;
	if (c->status < 0)
		return bad(rd, "unknown cell status '%.20s'", status);
	if (msg && !json_is_string(msg))
		return bad(rd, "a cell's %s is not a string", "message");
	if (msg)
		c->message = xstrdup(json_string_value(msg));
	if (c->status == CELL_NA || c->status == CELL_ERROR)
		return c->message ? 0 : bad(rd, "a cell that did not run says %s", "not why");
	if (read_side(rd, json_object_get(o, "a"), &c->a) < 0)
		return -1;
	if (b) {
		c->has_b = true;
		if (read_side(rd, b, &c->b) < 0)
			return -1;
	}
	/* the status must be what the expects say */
	int was = c->status;
	sweep_cell_settle(c);
	return was == c->status ? 0 : bad(rd, "a cell's status '%s' does not match its expects", status);
}

int sweep_cell_read(const char *text, size_t len, struct sweep_cell *c, char *err, size_t errlen)
{
	struct reader rd = { err, errlen, false };
	json_error_t je;
	json_t *o = json_loadb(text, len, 0, &je);

	memset(c, 0, sizeof(*c));
	if (!o) {
		snprintf(err, errlen, "bad JSON at line %d: %s", je.line, je.text);
		return -1;
	}
	int r = read_cell(&rd, o, SWEEP_MAX_CELLS, c);
	json_decref(o);
	if (r < 0)
		sweep_cell_free(c);
	return r;
}

static int read_values(struct reader *rd, json_t *arr, int nr_axes, int *nr, char ***vals)
{
	json_t *a, *v;
	size_t i, k;

	if (!json_is_array(arr) || (int)json_array_size(arr) != nr_axes)
		return bad(rd, "a scenario's %s do not match the axes", "values");
	json_array_foreach(arr, i, a)
	{
		if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > SWEEP_MAX_CELLS)
			return bad(rd, "an axis has %s", "no values");
		nr[i] = (int)json_array_size(a);
		vals[i] = xcalloc(json_array_size(a) + 1, sizeof(char *));
		json_array_foreach(a, k, v)
		{
			if (!json_is_string(v))
				return bad(rd, "an axis value is %s", "not a string");
			vals[i][k] = xstrdup(json_string_value(v));
		}
	}
	return 0;
}

static int read_plan(struct reader *rd, json_t *o, struct sweep_plan *p)
{
	json_t *axes = json_object_get(o, "axes"), *scen = json_object_get(o, "scenarios");
	json_t *vs = json_object_get(o, "vs_set"), *win = json_object_get(o, "window"), *x;
	size_t i;

	sweep_plan_init(p);
	if (!json_is_object(o) || !json_is_array(axes) || !json_is_array(scen) || !json_is_array(vs) ||
	    json_array_size(axes) > SWEEP_MAX_AXES || json_array_size(vs) > SWEEP_MAX_VS)
		return bad(rd, "the %s is damaged", "plan");
	json_array_foreach(axes, i, x)
	{
		const char *kind = get_str(rd, x, "kind"), *key = get_str(rd, x, "key");
		int k = 0;

		while (kind && k < NR_SWEEP_AXIS_KINDS && strcmp(kind, sweep_axis_kind_names[k]))
			k++;
		if (!kind || !key || k == NR_SWEEP_AXIS_KINDS || strlen(key) >= sizeof(p->axis[0].key))
			return bad(rd, "an %s is damaged", "axis");
		sweep_plan_add_axis(p, k, key);
	}
	json_array_foreach(vs, i, x)
	{
		if (!json_is_string(x))
			return bad(rd, "a --vs-set is %s", "damaged");
		p->vs_set[p->nr_vs++] = xstrdup(json_string_value(x));
	}
	if (json_is_array(win) && json_array_size(win) == 2 && json_is_integer(json_array_get(win, 0)) &&
	    json_is_integer(json_array_get(win, 1))) {
		p->has_window = true;
		p->from = (u64)json_integer_value(json_array_get(win, 0));
		p->to = (u64)json_integer_value(json_array_get(win, 1));
	} else if (!json_is_null(win)) {
		return bad(rd, "the %s is damaged", "window");
	}
	json_array_foreach(scen, i, x)
	{
		int nr[SWEEP_MAX_AXES] = { 0 };
		char **vals[SWEEP_MAX_AXES] = { 0 };
		const char *path = get_str(rd, x, "path");
		int r = path ? read_values(rd, json_object_get(x, "values"), p->nr_axes, nr, vals) : -1;

		if (r == 0 && sweep_plan_add_scenario(p, path, nr, (char *const *const *)vals) < 0)
			r = bad(rd, "more than %s cells", "a million");
		json_t *own = json_object_get(x, "own"), *ov;
		size_t k;
		if (r == 0 && (!json_is_array(own) || (int)json_array_size(own) != p->nr_axes))
			r = bad(rd, "a scenario's %s values are damaged", "own");
		json_array_foreach(own, k, ov)
		{
			if (r < 0 || json_is_null(ov))
				continue;
			if (!json_is_string(ov))
				r = bad(rd, "a scenario's %s values are damaged", "own");
			else
				sweep_plan_set_own(p, (int)k, json_string_value(ov));
		}
		for (int a = 0; a < p->nr_axes; a++) {
			for (int v = 0; vals[a] && v < nr[a]; v++)
				free(vals[a][v]);
			free(vals[a]);
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

/* The whole file, parsed by jansson into o (which this releases). */
static int read_root(const char *path, json_t *o, json_error_t *je, struct sweep_results *r, char *err,
		     size_t errlen)
{
	struct reader rd = { err, errlen, false };
	json_t *cells, *x, *shard;
	u64 version, total;
	size_t i;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (!o) {
		snprintf(err, errlen, "%s: %s (line %d)", path, je->text, je->line);
		return -1;
	}
	cells = json_object_get(o, "cells");
	shard = json_object_get(o, "shard");
	if (!json_is_object(o) || !json_is_integer(json_object_get(o, "schedscope_sweep")) ||
	    get_u64(&rd, o, "schedscope_sweep", 1000, &version) < 0)
		bad(&rd, "not a schedscope sweep result (no '%s')", "schedscope_sweep");
	else if (version != SWEEP_FORMAT_VERSION)
		bad(&rd, "format %s is not the one this schedscope reads", "version");
	else if (read_plan(&rd, json_object_get(o, "plan"), &r->plan) < 0 ||
		 get_u64(&rd, o, "cells_total", SWEEP_MAX_CELLS, &total) < 0)
		;
	else if (total != (u64)r->plan.nr_cells || !json_is_array(cells) || json_array_size(shard) != 2 ||
		 json_integer_value(json_array_get(shard, 0)) < 1 ||
		 json_integer_value(json_array_get(shard, 0)) > json_integer_value(json_array_get(shard, 1)))
		bad(&rd, "the %s do not match the plan", "cells or the shard");
	else {
		sweep_results_alloc(r);
		r->shard = (int)json_integer_value(json_array_get(shard, 0));
		r->nr_shards = (int)json_integer_value(json_array_get(shard, 1));
		rc = 0;
		json_array_foreach(cells, i, x)
		{
			struct sweep_cell c;

			if (read_cell(&rd, x, r->plan.nr_cells, &c) < 0) {
				sweep_cell_free(&c);
				rc = -1;
				break;
			}
			if (r->have[c.index]) {
				sweep_cell_free(&c);
				rc = bad(&rd, "a cell appears twice%s", "");
				break;
			}
			r->cell[c.index] = c;
			r->have[c.index] = true;
		}
	}
	json_decref(o);
	if (rd.failed) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: %s", path, why);
		rc = -1;
	}
	if (rc < 0)
		sweep_results_free(r);
	return rc;
}

int sweep_parse_json(const char *name, const char *text, size_t len, struct sweep_results *r, char *err,
		     size_t errlen)
{
	json_error_t je;

	return read_root(name, json_loadb(text, len, 0, &je), &je, r, err, errlen);
}

int sweep_read_json(const char *path, struct sweep_results *r, char *err, size_t errlen)
{
	json_error_t je;

	/* no size limit: a big sweep's file runs to many megabytes */
	return read_root(path, json_load_file(path, 0, &je), &je, r, err, errlen);
}
