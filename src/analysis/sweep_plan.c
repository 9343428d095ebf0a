// SPDX-License-Identifier: GPL-2.0
/* A sweep's matrix of cells (sweep_plan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "sweep_plan.h"

const char *const sweep_axis_kind_names[NR_SWEEP_AXIS_KINDS] = {
	"topology", "kernel", "sched", "param", "set", "seed",
};

void sweep_plan_init(struct sweep_plan *p)
{
	memset(p, 0, sizeof(*p));
}

int sweep_plan_add_axis(struct sweep_plan *p, int kind, const char *key)
{
	if (p->nr_axes == SWEEP_MAX_AXES)
		return -1;
	struct sweep_axis *a = &p->axis[p->nr_axes++];
	a->kind = kind;
	snprintf(a->key, sizeof(a->key), "%s", key ? key : sweep_axis_kind_names[kind]);
	return 0;
}

static char *label_of(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".scn"))
		n -= 4;
	char *l = xmalloc(n + 1);
	memcpy(l, base, n);
	l[n] = 0;
	return l;
}

int sweep_plan_add_scenario(struct sweep_plan *p, const char *path, const int *nr_values,
			    char *const *const *values)
{
	struct sweep_scenario *s;
	long long cells = 1;

	XGROW(p->scen, p->cap_scenarios, p->nr_scenarios);
	s = &p->scen[p->nr_scenarios++]; /* from here sweep_plan_free() owns it */
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->label = label_of(path);
	for (int a = 0; a < p->nr_axes; a++) {
		s->nr_values[a] = nr_values[a];
		s->value[a] = xcalloc((size_t)nr_values[a] + 1, sizeof(char *));
		for (int v = 0; v < nr_values[a]; v++)
			s->value[a][v] = xstrdup(values[a][v]);
		cells *= nr_values[a];
	}
	if (cells < 1 || p->nr_cells + cells > SWEEP_MAX_CELLS)
		return -1;
	s->first_cell = p->nr_cells;
	s->nr_cells = (int)cells;
	p->nr_cells += (int)cells;
	return 0;
}

void sweep_plan_free(struct sweep_plan *p)
{
	for (int i = 0; i < p->nr_scenarios; i++) {
		struct sweep_scenario *s = &p->scen[i];

		for (int a = 0; a < p->nr_axes; a++) {
			for (int v = 0; s->value[a] && v < s->nr_values[a]; v++)
				free(s->value[a][v]);
			free(s->value[a]);
			free(s->own[a]);
		}
		free(s->path);
		free(s->label);
	}
	free(p->scen);
	for (int i = 0; i < p->nr_vs; i++)
		free(p->vs_set[i]);
	memset(p, 0, sizeof(*p));
}

void sweep_plan_set_own(struct sweep_plan *p, int axis, const char *own)
{
	struct sweep_scenario *s = &p->scen[p->nr_scenarios - 1];

	free(s->own[axis]);
	s->own[axis] = xstrdup(own);
}

bool sweep_is_own(const struct sweep_plan *p, const struct sweep_coord *c, int axis)
{
	const char *own = p->scen[c->scen].own[axis], *v = sweep_value(p, c, axis);

	return !strcmp(v, SWEEP_OWN) || (own && !strcmp(v, own));
}

void sweep_coord(const struct sweep_plan *p, int cell, struct sweep_coord *c)
{
	int s = 0;

	while (s + 1 < p->nr_scenarios && cell >= p->scen[s + 1].first_cell)
		s++;
	c->scen = s;
	/* mixed radix, the last axis fastest */
	int rest = cell - p->scen[s].first_cell;
	for (int a = p->nr_axes - 1; a >= 0; a--) {
		int n = p->scen[s].nr_values[a];
		c->value[a] = rest % n;
		rest /= n;
	}
}

const char *sweep_value(const struct sweep_plan *p, const struct sweep_coord *c, int axis)
{
	return p->scen[c->scen].value[axis][c->value[axis]];
}

bool sweep_in_shard(int cell, int shard, int nr_shards)
{
	return cell % nr_shards == shard - 1;
}

int sweep_seeds_per_variant(const struct sweep_plan *p, int scen)
{
	int a = p->nr_axes - 1;

	return a >= 0 && p->axis[a].kind == SWEEP_SEED ? p->scen[scen].nr_values[a] : 1;
}

bool sweep_axis_varies(const struct sweep_plan *p, int axis)
{
	for (int s = 0; s < p->nr_scenarios; s++)
		if (p->scen[s].nr_values[axis] > 1)
			return true;
	return false;
}

void sweep_variant_label(const struct sweep_plan *p, const struct sweep_coord *c, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = 0;
	for (int a = 0; a < p->nr_axes && k < len; a++) {
		if (p->axis[a].kind == SWEEP_SEED || !sweep_axis_varies(p, a))
			continue;
		int w = snprintf(buf + k, len - k, "%s%s=%s", k ? " " : "", p->axis[a].key,
				 sweep_value(p, c, a));
		if (w < 0)
			break;
		k += (size_t)w;
	}
}

static void overrides(const struct sweep_plan *p, int cell, bool side_b, bool machine,
		      struct sweep_overrides *o)
{
	struct sweep_coord c;
	int nb = 0;

	memset(o, 0, sizeof(*o));
	sweep_coord(p, cell, &c);
	o->ov.set = o->set;
	o->ov.param = o->param;
	for (int a = 0; a < p->nr_axes; a++) {
		const char *v = sweep_value(p, &c, a);
		const struct sweep_axis *ax = &p->axis[a];
		bool is_machine =
			ax->kind == SWEEP_TOPOLOGY || ax->kind == SWEEP_KERNEL || ax->kind == SWEEP_SCHED;

		if (!strcmp(v, SWEEP_OWN) || (is_machine && !machine))
			continue;
		if (ax->kind == SWEEP_TOPOLOGY) {
			o->ov.topology = v;
			continue;
		}
		snprintf(o->buf[nb], sizeof(o->buf[nb]), "%s=%s", ax->key, v);
		if (ax->kind == SWEEP_PARAM)
			o->param[o->ov.nr_params++] = o->buf[nb];
		else
			o->set[o->ov.nr_sets++] = o->buf[nb];
		nb++;
	}
	for (int i = 0; side_b && i < p->nr_vs; i++)
		o->set[o->ov.nr_sets++] = p->vs_set[i];
}

void sweep_cell_overrides(const struct sweep_plan *p, int cell, bool side_b, struct sweep_overrides *o)
{
	overrides(p, cell, side_b, true, o);
}

void sweep_cell_overrides_no_machine(const struct sweep_plan *p, int cell, bool side_b,
				     struct sweep_overrides *o)
{
	overrides(p, cell, side_b, false, o);
}
