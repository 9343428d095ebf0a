// SPDX-License-Identifier: GPL-2.0
/* Writing a sweep's results and merging shards (sweep_file.h); reading is sweep_read.c. */
#include <stdlib.h>
#include <string.h>

#include "src/base/json.h"
#include "src/base/mem.h"
#include "sweep_file.h"

void sweep_results_alloc(struct sweep_results *r)
{
	size_t n = (size_t)r->plan.nr_cells + 1;

	r->cell = xcalloc(n, sizeof(*r->cell));
	r->have = xcalloc(n, sizeof(*r->have));
	if (!r->shard)
		r->shard = r->nr_shards = 1;
}

void sweep_results_free(struct sweep_results *r)
{
	for (int i = 0; r->cell && i < r->plan.nr_cells; i++)
		sweep_cell_free(&r->cell[i]);
	free(r->cell);
	free(r->have);
	sweep_plan_free(&r->plan);
	memset(r, 0, sizeof(*r));
}

static void write_plan(struct json_writer *j, const struct sweep_plan *p)
{
	jw_key(j, "axes");
	jw_begin_array(j);
	for (int a = 0; a < p->nr_axes; a++) {
		jw_begin_object(j);
		jw_kv_str(j, "kind", sweep_axis_kind_names[p->axis[a].kind]);
		jw_kv_str(j, "key", p->axis[a].key);
		jw_end_object(j);
	}
	jw_end_array(j);
	jw_key(j, "scenarios");
	jw_begin_array(j);
	for (int s = 0; s < p->nr_scenarios; s++) {
		jw_begin_object(j);
		jw_kv_str(j, "path", p->scen[s].path);
		jw_key(j, "values");
		jw_begin_array(j);
		for (int a = 0; a < p->nr_axes; a++) {
			jw_begin_array(j);
			for (int v = 0; v < p->scen[s].nr_values[a]; v++)
				jw_string(j, p->scen[s].value[a][v]);
			jw_end_array(j);
		}
		jw_end_array(j);
		jw_key(j, "own");
		jw_begin_array(j);
		for (int a = 0; a < p->nr_axes; a++) {
			if (p->scen[s].own[a])
				jw_string(j, p->scen[s].own[a]);
			else
				jw_null(j);
		}
		jw_end_array(j);
		jw_end_object(j);
	}
	jw_end_array(j);
	jw_key(j, "vs_set");
	jw_begin_array(j);
	for (int i = 0; i < p->nr_vs; i++)
		jw_string(j, p->vs_set[i]);
	jw_end_array(j);
	jw_key(j, "window");
	if (p->has_window) {
		jw_begin_array(j);
		jw_u64(j, p->from);
		jw_u64(j, p->to);
		jw_end_array(j);
	} else {
		jw_null(j);
	}
}

/* The top level by hand, so that each cell is a line of its own (grep and head work). */
int sweep_write_json(FILE *out, const struct sweep_results *r)
{
	struct json_writer j;
	int bad = 0, n = 0;

	fprintf(out, "{\"schedscope_sweep\":%d,\"plan\":", SWEEP_FORMAT_VERSION);
	jw_init(&j, out, JW_COMPACT);
	jw_begin_object(&j);
	write_plan(&j, &r->plan);
	jw_end_object(&j);
	bad |= jw_finish(&j);
	fprintf(out, ",\"cells_total\":%d,\"shard\":[%d,%d],\"cells\":[", r->plan.nr_cells, r->shard,
		r->nr_shards);
	for (int i = 0; i < r->plan.nr_cells; i++) {
		if (!r->have[i])
			continue;
		fputs(n++ ? ",\n" : "\n", out);
		jw_init(&j, out, JW_COMPACT);
		sweep_cell_write(&j, &r->cell[i]);
		bad |= jw_finish(&j);
	}
	fputs("\n]}\n", out);
	return bad || fflush(out) || ferror(out) ? -1 : 0;
}

bool sweep_plan_equal(const struct sweep_plan *a, const struct sweep_plan *b)
{
	if (a->nr_axes != b->nr_axes || a->nr_scenarios != b->nr_scenarios || a->nr_vs != b->nr_vs ||
	    a->has_window != b->has_window || (a->has_window && (a->from != b->from || a->to != b->to)) ||
	    a->nr_cells != b->nr_cells)
		return false;
	for (int x = 0; x < a->nr_axes; x++)
		if (a->axis[x].kind != b->axis[x].kind || strcmp(a->axis[x].key, b->axis[x].key))
			return false;
	for (int i = 0; i < a->nr_vs; i++)
		if (strcmp(a->vs_set[i], b->vs_set[i]))
			return false;
	for (int s = 0; s < a->nr_scenarios; s++) {
		const struct sweep_scenario *x = &a->scen[s], *y = &b->scen[s];

		if (strcmp(x->path, y->path))
			return false;
		for (int ax = 0; ax < a->nr_axes; ax++) {
			if (x->nr_values[ax] != y->nr_values[ax] || !x->own[ax] != !y->own[ax] ||
			    (x->own[ax] && strcmp(x->own[ax], y->own[ax])))
				return false;
			for (int v = 0; v < x->nr_values[ax]; v++)
				if (strcmp(x->value[ax][v], y->value[ax][v]))
					return false;
		}
	}
	return true;
}

int sweep_merge(struct sweep_results *into, struct sweep_results *part, char *err, size_t errlen)
{
	if (!sweep_plan_equal(&into->plan, &part->plan)) {
		snprintf(err, errlen,
			 "not the same sweep (scenarios, axes, values, --vs-set or --window differ)");
		return -1;
	}
	for (int i = 0; i < part->plan.nr_cells; i++) {
		if (!part->have[i])
			continue;
		if (into->have[i]) {
			snprintf(err, errlen, "cell %d is in two parts (the same shard twice?)", i);
			return -1;
		}
		into->cell[i] = part->cell[i];
		into->have[i] = true;
		memset(&part->cell[i], 0, sizeof(part->cell[i]));
		part->have[i] = false;
	}
	return 0;
}

int sweep_missing(const struct sweep_results *r, char *err, size_t errlen)
{
	int missing = 0;
	size_t k = 0;

	err[0] = 0;
	for (int i = 0; i < r->plan.nr_cells; i++) {
		if (r->have[i])
			continue;
		if (missing < 8 && k < errlen) {
			int w = snprintf(err + k, errlen - k, "%s%d", missing ? ", " : "", i);
			k += w > 0 ? (size_t)w : 0;
		} else if (missing == 8 && k < errlen) {
			snprintf(err + k, errlen - k, ", ...");
		}
		missing++;
	}
	return missing;
}
