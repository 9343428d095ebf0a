// SPDX-License-Identifier: GPL-2.0
/* A comparison's second side (variant.h). */
#include <stdio.h>
#include <string.h>

#include "variant.h"

bool variant_given(const struct variant *v)
{
	return v->path || v->nr_sets || v->nr_params;
}

int variant_add_file(struct variant *v, const char *path, char *err, size_t errlen)
{
	if (v->path) {
		snprintf(err, errlen, "--vs: given twice ('%s' and '%s'); one run compares with one other",
			 v->path, path);
		return -1;
	}
	if (!*path) {
		snprintf(err, errlen, "--vs: expected a scenario file");
		return -1;
	}
	v->path = path;
	return 0;
}

static int add(const char *what, const char *key, const char **list, int *n, const char *assignment,
	       char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');

	if (!eq || eq == assignment || !eq[1]) {
		snprintf(err, errlen, "%s: expected %s=VALUE, got '%s'", what, key, assignment);
		return -1;
	}
	if (*n == VARIANT_MAX_SETS) {
		snprintf(err, errlen, "%s: more than %d", what, VARIANT_MAX_SETS);
		return -1;
	}
	list[(*n)++] = assignment;
	return 0;
}

int variant_add_set(struct variant *v, const char *assignment, char *err, size_t errlen)
{
	return add("--vs-set", "KEY", v->set, &v->nr_sets, assignment, err, errlen);
}

int variant_add_param(struct variant *v, const char *assignment, char *err, size_t errlen)
{
	return add("--vs-param", "NAME", v->param, &v->nr_params, assignment, err, errlen);
}

void variant_from_file(struct variant *v, const struct scenario_file *f)
{
	memset(v, 0, sizeof(*v));
	v->file = f->path;
	for (int i = 0; i < f->nr_vs && i < VARIANT_MAX_SETS; i++) {
		if (f->vs[i].param) {
			v->param[v->nr_params++] = f->vs[i].text;
			continue;
		}
		v->line[v->nr_sets] = f->vs[i].line;
		v->col[v->nr_sets] = f->vs[i].col;
		v->set[v->nr_sets++] = f->vs[i].text;
	}
}

bool variant_choose(struct variant *v, const struct scenario_file *f)
{
	if (!variant_given(v) && f->nr_vs)
		variant_from_file(v, f);
	return variant_given(v);
}

const char *variant_path(const struct variant *v, const char *a_path)
{
	return v->path ? v->path : a_path;
}

static bool sets_key(const struct variant *v, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; i < v->nr_sets; i++)
		if (!strncmp(v->set[i], key, n) && v->set[i][n] == '=')
			return true;
	return false;
}

int variant_apply(const struct variant *v, const struct scenario_file *a, struct scenario_file *b, char *err,
		  size_t errlen)
{
	/* "B: kernel 6.1" is that kernel's own scheduler, whatever `sched` A's file names */
	if (sets_key(v, "kernel") && !sets_key(v, "sched"))
		b->sched_given = false;
	for (int i = 0; i < v->nr_sets; i++) {
		char where[1100];

		if (v->file)
			snprintf(where, sizeof(where), "%s:%u:%u: vs set", v->file, v->line[i], v->col[i]);
		else
			snprintf(where, sizeof(where), "--vs-set");
		if (scenario_set_as(b, where, v->set[i], err, errlen) < 0) {
			scenario_free(b);
			return -1;
		}
	}
	if (!sets_key(v, "seed"))
		b->sc.seed = a->sc.seed;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Append s to the label, ending it with "..." when it does not fit. */
static void label_add(char *label, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n >= VARIANT_LABEL_MAX) {
		strcpy(label + VARIANT_LABEL_MAX - 4, "...");
		*len = VARIANT_LABEL_MAX - 1;
		return;
	}
	memcpy(label + *len, s, n + 1);
	*len += n;
}

void variant_labels(const struct variant *v, const char *a_path, char *a, char *b)
{
	size_t len;

	snprintf(a, VARIANT_LABEL_MAX, "A: %s", v->path ? base_name(a_path) : "stock");
	strcpy(b, "B: ");
	len = 3;
	if (v->path)
		label_add(b, &len, base_name(v->path));
	for (int i = 0; i < v->nr_sets + v->nr_params; i++) {
		const char *kv = i < v->nr_sets ? v->set[i] : v->param[i - v->nr_sets], *eq = strchr(kv, '=');
		char item[VARIANT_LABEL_MAX];

		/* a feature's name says it all; other keys read "kernel 6.1" */
		if (!strncmp(kv, "feature=", 8))
			snprintf(item, sizeof(item), "%s", eq + 1);
		else
			snprintf(item, sizeof(item), "%.*s %s", (int)(eq - kv), kv, eq + 1);
		if (len > 3)
			label_add(b, &len, ", ");
		label_add(b, &len, item);
	}
}
