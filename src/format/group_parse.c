// SPDX-License-Identifier: GPL-2.0
/* Task-group paths and cpu.* attributes: see group_parse.h. */
#include <string.h>

#include "sched/api/sched.h"
#include "group_parse.h"

u64 sched_weight_from_cgroup(u64 weight)
{
	return (weight * 1024 + 50) / 100;
}

u64 sched_weight_to_cgroup(u64 shares)
{
	return CLAMP((shares * 100 + 512) / 1024, (u64)1, (u64)10000);
}

int group_lookup(const struct sched_scenario *sc, const struct lex_span *path)
{
	if (span_is(path, "/"))
		return 0;
	for (int g = 1; g < sc->nr_groups; g++)
		if (span_is(path, sc->group[g].path))
			return g;
	return -1;
}

int group_find(struct lexer *lx, const struct sched_scenario *sc, const struct lex_span *path)
{
	int g = group_lookup(sc, path);

	if (g < 0)
		lex_error(lx, path, "no group '%s' (groups are declared with 'group PATH' before use)",
			  SNIP(path));
	return g;
}

int group_path_check(struct lexer *lx, const struct sched_scenario *sc, const struct lex_span *path,
		     int *parent)
{
	size_t last = 0;
	int depth = 0;

	if (path->n < 2 || path->p[0] != '/' || path->p[path->n - 1] == '/')
		return lex_error(lx, path, "bad group path '%s' (like /a or /a/b; '/' is the root and "
				 "has no attributes)", SNIP(path));
	if (path->n >= SCHED_GROUP_PATH_LEN)
		return lex_error(lx, path, "group path '%s' is longer than %d bytes", SNIP(path),
				 SCHED_GROUP_PATH_LEN - 1);
	for (size_t i = 1; i < path->n; i++) {
		char c = path->p[i];
		if (c == '/') {
			if (path->p[i - 1] == '/')
				return lex_error(lx, path, "empty component in group path '%s'", SNIP(path));
			last = i;
			depth++;
		} else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			     c == '_' || c == '-' || c == '.')) {
			return lex_error(lx, path, "bad character '%c' in group path '%s' (letters, digits, "
					 "'_', '-', '.')", c, SNIP(path));
		}
	}
	if (depth + 1 > MAX_GROUP_DEPTH)
		return lex_error(lx, path, "group '%s' is nested deeper than %d levels", SNIP(path),
				 MAX_GROUP_DEPTH);
	if (group_lookup(sc, path) >= 0)
		return lex_error(lx, path, "duplicate group '%s'", SNIP(path));
	struct lex_span up = { path->p, last ? last : 1, path->line, path->col };
	*parent = group_lookup(sc, &up);
	if (*parent < 0)
		return lex_error(lx, path, "group '%s' needs its parent '%s' declared first", SNIP(path),
				 SNIP(&up));
	return 0;
}

/* A cpu.max time: a duration with a unit, or bare microseconds as cgroupfs takes them. */
static int bandwidth_time(struct lexer *lx, const struct lex_span *s, const char *what, u64 *ns)
{
	u64 us;

	if (parse_u64(s->p, s->n, &us) == PARSE_OK) {
		if (us > (u64)1 << 40)
			return lex_error(lx, s, "%s '%s' is too large", what, SNIP(s));
		*ns = us * NSEC_PER_USEC;
		return 0;
	}
	return lex_duration(lx, s, what, ns);
}

/* "QUOTA [PERIOD]" with QUOTA "max" for no limit. */
static int parse_cpu_max(struct lexer *lx, const struct lex_span *v, struct sched_command *c)
{
	struct lex_span q = *v, per = { 0 };
	u64 quota = 0, period = 0;
	size_t i = 0;

	while (i < v->n && v->p[i] != ' ')
		i++;
	q.n = i;
	while (i < v->n && v->p[i] == ' ')
		i++;
	if (i < v->n)
		per = (struct lex_span){ v->p + i, v->n - i, v->line, v->col + (u32)i };
	if (!q.n)
		return lex_error(lx, v, "cpu.max needs \"QUOTA PERIOD\" or \"max PERIOD\"");
	if (per.n && memchr(per.p, ' ', per.n))
		return lex_error(lx, &per, "cpu.max takes two values, QUOTA and PERIOD");
	if (per.n) {
		if (bandwidth_time(lx, &per, "cpu.max period", &period) < 0)
			return -1;
		if (period < CFS_PERIOD_MIN || period > CFS_PERIOD_MAX)
			return lex_error(lx, &per, "cpu.max period '%s' is out of range (1ms..1s)", SNIP(&per));
	}
	if (span_is(&q, "max")) {
		c->value = -1;
	} else {
		if (bandwidth_time(lx, &q, "cpu.max quota", &quota) < 0)
			return -1;
		if (quota < CFS_QUOTA_MIN)
			return lex_error(lx, &q, "cpu.max quota '%s' is below the kernel's minimum of 1ms",
					 SNIP(&q));
		c->value = (s64)quota;
	}
	c->value2 = (s64)period;	/* 0: keep the period */
	return 0;
}

int group_attr_parse(struct lexer *lx, const struct token *kv, struct sched_command *c)
{
	s64 v;

	if (span_is(&kv->key, "cpu.weight")) {
		if (lex_int(lx, &kv->val, "cpu.weight", 1, 10000, &v) < 0)
			return -1;
		c->kind = CMD_SET_GROUP_SHARES;
		c->value = (s64)sched_weight_from_cgroup((u64)v);
	} else if (span_is(&kv->key, "cpu.weight.nice")) {
		if (lex_int(lx, &kv->val, "cpu.weight.nice", -20, 19, &v) < 0)
			return -1;
		c->kind = CMD_SET_GROUP_SHARES;
		c->value = sched_prio_to_weight[v + 20];
	} else if (span_is(&kv->key, "cpu.shares")) {
		if (lex_int(lx, &kv->val, "cpu.shares", (s64)MIN_SHARES, (s64)MAX_SHARES, &v) < 0)
			return -1;
		c->kind = CMD_SET_GROUP_SHARES;
		c->value = v;
	} else if (span_is(&kv->key, "cpu.idle")) {
		if (lex_int(lx, &kv->val, "cpu.idle", 0, 1, &v) < 0)
			return -1;
		c->kind = CMD_SET_GROUP_IDLE;
		c->value = v;
	} else if (span_is(&kv->key, "cpu.max")) {
		c->kind = CMD_SET_GROUP_MAX;
		return parse_cpu_max(lx, &kv->val, c);
	} else if (span_is(&kv->key, "cpu.max.burst")) {
		u64 burst;
		if (bandwidth_time(lx, &kv->val, "cpu.max.burst", &burst) < 0)
			return -1;
		c->kind = CMD_SET_GROUP_BURST;
		c->value = (s64)burst;
	} else {
		return lex_error(lx, &kv->key, "unknown group attribute '%s' (expected cpu.weight, "
				 "cpu.weight.nice, cpu.shares, cpu.idle, cpu.max, cpu.max.burst)",
				 SNIP(&kv->key));
	}
	return 0;
}

int group_attr_apply(struct lexer *lx, const struct token *kv, struct sched_group_spec *g,
		     const struct sched_command *c)
{
	switch (c->kind) {
	case CMD_SET_GROUP_SHARES:
		if (g->idle)
			return lex_error(lx, &kv->key, "%s cannot be set on a cpu.idle group (the kernel "
					 "refuses it)", SNIP(&kv->key));
		g->shares = (u64)c->value;
		return 0;
	case CMD_SET_GROUP_IDLE:
		g->idle = c->value != 0;
		return 0;
	case CMD_SET_GROUP_MAX:
		g->quota = c->value < 0 ? RUNTIME_INF : (u64)c->value;
		if (c->value2)
			g->period = (u64)c->value2;
		break;
	case CMD_SET_GROUP_BURST:
		g->burst = (u64)c->value;
		break;
	}
	/* the kernel checks burst against a finite quota only */
	if (g->quota != RUNTIME_INF && g->burst > g->quota)
		return lex_error(lx, &kv->val, "cpu.max.burst is larger than the quota of cpu.max");
	return 0;
}
