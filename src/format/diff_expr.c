// SPDX-License-Identifier: GPL-2.0
/* Conditions on the difference between two runs (diff_expr.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diff_expr.h"
#include "lex.h"

const char *const metric_names[NR_METRICS] = {
	[MET_SHARE] = "share",		 [MET_WAIT] = "wait",
	[MET_P50] = "p50_latency",	 [MET_P99] = "p99_latency",
	[MET_MIGRATIONS] = "migrations", [MET_THROTTLED] = "throttled",
};

/* The expect lines' names for the same metrics. */
static const char *const metric_aliases[NR_METRICS] = {
	[MET_WAIT] = "wait_time",
	[MET_THROTTLED] = "throttled_time",
};

int metric_lookup(const char *name, size_t len)
{
	for (int i = 0; i < NR_METRICS; i++)
		if ((strlen(metric_names[i]) == len && !memcmp(metric_names[i], name, len)) ||
		    (metric_aliases[i] && strlen(metric_aliases[i]) == len &&
		     !memcmp(metric_aliases[i], name, len)))
			return i;
	return -1;
}

bool metric_is_time(int metric)
{
	return metric != MET_SHARE && metric != MET_MIGRATIONS;
}

struct cursor {
	const char *s;
	size_t n, i;
	u32 *col;
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4))) fail_at(struct cursor *c, size_t at, const char *fmt, ...)
{
	va_list ap;

	*c->col = (u32)at + 1;
	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_blanks(struct cursor *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t'))
		c->i++;
}

static int parse_metric(struct cursor *c, struct diff_expr *x)
{
	size_t start = c->i;

	while (c->i < c->n && (c->s[c->i] == '_' || (c->s[c->i] >= 'a' && c->s[c->i] <= 'z') ||
			       (c->s[c->i] >= '0' && c->s[c->i] <= '9')))
		c->i++;
	x->metric = metric_lookup(c->s + start, c->i - start);
	if (x->metric < 0)
		return fail_at(c, start,
			       "unknown metric '%.*s' (expected share, wait, p50_latency, p99_latency, "
			       "migrations or throttled)",
			       (int)(c->i - start), c->s + start);
	return 0;
}

static int parse_pattern(struct cursor *c, struct diff_expr *x)
{
	size_t start;

	if (c->i == c->n || c->s[c->i] != '(')
		return fail_at(c, c->i, "expected '(' and a task or group glob after %s",
			       metric_names[x->metric]);
	start = ++c->i;
	while (c->i < c->n && c->s[c->i] != ')')
		c->i++;
	if (c->i == c->n)
		return fail_at(c, start - 1, "'(' is not closed");
	if (c->i == start)
		return fail_at(c, start, "expected a task or group glob");
	if (c->i - start >= sizeof(x->pattern))
		return fail_at(c, start, "glob longer than %zu characters", sizeof(x->pattern) - 1);
	memcpy(x->pattern, c->s + start, c->i - start);
	x->pattern[c->i - start] = 0;
	x->group = x->pattern[0] == '/';
	if (x->metric == MET_THROTTLED && !x->group)
		return fail_at(c, start, "throttled time is a group's: the glob must start with '/'");
	c->i++;
	return 0;
}

static int parse_op(struct cursor *c, struct diff_expr *x)
{
	size_t start = c->i;

	if (c->i < c->n && (c->s[c->i] == '<' || c->s[c->i] == '>')) {
		bool lt = c->s[c->i++] == '<';
		bool eq = c->i < c->n && c->s[c->i] == '=';

		c->i += eq;
		x->op = lt ? (eq ? DIFF_LE : DIFF_LT) : (eq ? DIFF_GE : DIFF_GT);
		return 0;
	}
	return fail_at(c, start, "expected <, <=, > or >= after the glob");
}

/* [+-]N% | [+-]DURATION (times) | [+-]N */
static int parse_value(struct cursor *c, struct diff_expr *x)
{
	size_t start = c->i, end = c->n;
	double sign = 1;
	u64 ns;

	while (end > c->i && (c->s[end - 1] == ' ' || c->s[end - 1] == '\t'))
		end--;
	if (c->i < end && (c->s[c->i] == '+' || c->s[c->i] == '-'))
		sign = c->s[c->i++] == '-' ? -1 : 1;
	if (c->i == end)
		return fail_at(c, start, "expected a change: +10%%, -5ms, +3");
	x->relative = c->s[end - 1] == '%';
	if (x->relative) {
		if (parse_decimal(c->s + c->i, end - 1 - c->i, &x->value) != PARSE_OK)
			return fail_at(c, start, "'%.*s' is not a percentage", (int)(end - start),
				       c->s + start);
	} else if (metric_is_time(x->metric)) {
		if (parse_duration(c->s + c->i, end - c->i, &ns) != PARSE_OK)
			return fail_at(c, start,
				       "'%.*s' is not a duration (e.g. 2ms) or a percentage (e.g. 10%%)",
				       (int)(end - start), c->s + start);
		x->value = (double)ns;
	} else if (parse_decimal(c->s + c->i, end - c->i, &x->value) != PARSE_OK) {
		return fail_at(c, start, "'%.*s' is not a number or a percentage (e.g. 10%%)",
			       (int)(end - start), c->s + start);
	}
	x->value *= sign;
	c->i = c->n;
	return 0;
}

int diff_expr_parse(const char *s, size_t n, struct diff_expr *out, u32 *col, char *err, size_t errlen)
{
	struct cursor c = { s, n, 0, col, err, errlen };

	memset(out, 0, sizeof(*out));
	snprintf(out->text, sizeof(out->text), "%.*s", (int)n, s);
	skip_blanks(&c);
	if (parse_metric(&c, out) < 0)
		return -1;
	skip_blanks(&c);
	if (parse_pattern(&c, out) < 0)
		return -1;
	skip_blanks(&c);
	if (parse_op(&c, out) < 0)
		return -1;
	skip_blanks(&c);
	return parse_value(&c, out);
}

double diff_expr_change(const struct diff_expr *x, double a, double b)
{
	if (!x->relative)
		return b - a;
	if (a == 0)
		return b == 0 ? 0 : copysign(INFINITY, b);
	return (b - a) / fabs(a) * 100;
}

bool diff_expr_holds(const struct diff_expr *x, double a, double b)
{
	double d = diff_expr_change(x, a, b);

	switch (x->op) {
	case DIFF_LT:
		return d < x->value;
	case DIFF_LE:
		return d <= x->value;
	case DIFF_GT:
		return d > x->value;
	default:
		return d >= x->value;
	}
}
