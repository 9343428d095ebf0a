// SPDX-License-Identifier: GPL-2.0
/*
 * Checking `expect` lines against the window statistics. Every task whose
 * name matches the glob must satisfy the relation on its own; the verdict
 * names the measured values so a failing scenario says what it saw.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "expect_check.h"
#include "stats.h"

/* Tasks listed by name in a verdict; the rest become "...". */
#define EXPECT_LIST_MAX 8

/* A bounded appender: once the buffer is full, further text is dropped. */
struct msgbuf {
	char *buf;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3))) msg_add(struct msgbuf *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->cap == 0 || m->len + 1 >= m->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, m->cap - m->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	m->len = MIN(m->len + (size_t)n, m->cap - 1);
}

static const char *const stat_names[] = { [STAT_P50] = "p50", [STAT_P99] = "p99", [STAT_MAX] = "max" };
static const char *const op_names[] = {
	[OP_EQ] = "=", [OP_LT] = "<", [OP_GT] = ">", [OP_LE] = "<=", [OP_GE] = ">=",
};


/* A duration the way scenario files write them: 1.234ms, 20us, 3s. */
static void msg_add_time(struct msgbuf *m, double ns)
{
	double a = fabs(ns);

	if (a < 1e3)
		msg_add(m, "%.0fns", ns);
	else if (a < 1e6)
		msg_add(m, "%.3fus", ns / 1e3);
	else if (a < 1e9)
		msg_add(m, "%.3fms", ns / 1e6);
	else
		msg_add(m, "%.3fs", ns / 1e9);
}

static void msg_add_value(struct msgbuf *m, int metric, double v)
{
	if (metric == EXPECT_SHARE)
		msg_add(m, "%.4f", v);
	else if (expect_metric_is_time(metric))
		msg_add_time(m, v);
	else
		msg_add(m, "%.0f", v);
}

/* The expect itself, as written when the parser kept it, rebuilt otherwise. */
static void msg_add_expect(struct msgbuf *m, const struct expect *x)
{
	if (x->text[0]) {
		msg_add(m, "%s%.*s", strncmp(x->text, "expect", 6) ? "expect " : "",
			(int)sizeof(x->text), x->text);
		return;
	}
	msg_add(m, "expect %s", x->metric >= 0 && x->metric < NR_EXPECT_METRICS ?
				       expect_metric_names[x->metric] : "?");
	if (x->metric == EXPECT_WAKEUP_LATENCY && x->stat >= 0 && x->stat <= STAT_MAX)
		msg_add(m, ".%s", stat_names[x->stat]);
	msg_add(m, "(%.*s) %s ", (int)sizeof(x->pattern), x->pattern,
		x->op >= 0 && x->op <= OP_GE ? op_names[x->op] : "?");
	if (expect_metric_is_time(x->metric))
		msg_add_time(m, x->value);
	else
		msg_add(m, "%g", x->value);
	if (x->op == OP_EQ && x->tol > 0) {
		msg_add(m, " +- ");
		if (expect_metric_is_time(x->metric))
			msg_add_time(m, x->tol);
		else
			msg_add(m, "%g", x->tol);
	}
	if (x->has_window) {
		msg_add(m, " over ");
		msg_add_time(m, (double)x->from);
		msg_add(m, "..");
		msg_add_time(m, (double)x->to);
	}
}

/*
 * The window the shares are fractions of: [from, to), cut short at the
 * time the statistics were closed when the run ended early.
 */
static u64 window_length(const struct stats *st)
{
	u64 end = st->to;

	if (st->end > st->from && st->end < end)
		end = st->end;
	return end > st->from ? end - st->from : 0;
}

static double measure(const struct expect *x, const struct stats *st, int task)
{
	const struct task_stats *ts = &st->task[task];
	u64 len;

	switch (x->metric) {
	case EXPECT_SHARE:
		len = window_length(st);
		return len ? (double)ts->cpu_ns / (double)len : 0.0;
	case EXPECT_CPU_TIME:
		return (double)ts->cpu_ns;
	case EXPECT_WAIT_TIME:
		return (double)ts->wait_ns;
	case EXPECT_WAKEUP_LATENCY:
		return (double)lat_hist_value(&ts->lat, x->stat);
	case EXPECT_MIGRATIONS:
		return (double)ts->migrations;
	case EXPECT_SWITCHES:
		return (double)ts->slices;
	case EXPECT_WAKEUPS:
		return (double)ts->wakeups;
	case EXPECT_PREEMPTIONS:
		return (double)ts->preemptions;
	case EXPECT_DL_THROTTLES:
		return (double)ts->dl_throttles;
	case EXPECT_DEADLINE_MISSES:
		return (double)ts->dl_misses;
	case EXPECT_MIGRATION_RATE:
		len = window_length(st);
		return len ? (double)ts->migrations * 1e9 / (double)len : 0.0;
	case EXPECT_RUNTIME:
		return (double)ts->runtime_ns;
	case EXPECT_PERIODS:
		return (double)ts->per.periods;
	case EXPECT_MISSED_PERIODS:
		return (double)ts->per.missed;
	case EXPECT_SLACK_MIN:
		/* no period, no slack to speak of */
		return ts->per.periods ? (double)ts->per.slack_min : NAN;
	case EXPECT_PERIOD_LATENCY:
		return (double)ts->per.wu_lat_max;
	default:
		return NAN;	/* a group or machine metric */
	}
}

/* A group's value; NAN for the metrics only tasks have. */
static double measure_group(const struct expect *x, const struct stats *st, int g)
{
	const struct group_stats *gs = &st->group[g];
	u64 len;

	switch (x->metric) {
	case EXPECT_SHARE:
		len = window_length(st);
		return len ? (double)gs->usage_ns / (double)len : 0.0;
	case EXPECT_CPU_TIME:
		return (double)gs->usage_ns;
	case EXPECT_NR_PERIODS:
		return (double)gs->nr_periods;
	case EXPECT_NR_THROTTLED:
		return (double)gs->nr_throttled;
	case EXPECT_THROTTLED_TIME:
		return (double)gs->throttled_ns;
	case EXPECT_NR_BURSTS:
		return (double)gs->nr_bursts;
	default:
		return NAN;
	}
}

static bool holds(const struct expect *x, double v)
{
	/*
	 * Shares are ratios of integers: 1/3 must pass "= 0.333 +- 0.0003...",
	 * so the bounds get a hair of slack for the rounding of the division.
	 */
	double slack = 1e-9 * MAX(1.0, fabs(x->value));

	if (isnan(v))
		return false;
	switch (x->op) {
	case OP_EQ:
		return fabs(v - x->value) <= x->tol + slack;
	case OP_LT:
		return v < x->value;
	case OP_GT:
		return v > x->value;
	case OP_LE:
		return v <= x->value + slack;
	case OP_GE:
		return v >= x->value - slack;
	}
	return false;
}

/*
 * herds(CAUSE), ext_dispatches(OP), ext_exits(KIND): one number for the
 * whole machine, the count of the names matching the glob.
 */
static bool check_machine(const struct expect *x, const struct stats *st, struct msgbuf *m)
{
	const char *const *names = herd_cause_names;
	const u64 *count = st->herds;
	int n = NR_HERD_CAUSES, matched = 0;
	const char *what = "herd cause";
	double v = 0;

	if (x->metric == EXPECT_EXT_DISPATCHES) {
		names = ext_op_names;
		count = st->ext_dispatches;
		n = NR_EXT_OPS;
		what = "ext operation";
	} else if (x->metric == EXPECT_EXT_EXITS) {
		names = ext_exit_kind_names;
		count = st->ext_exits;
		n = NR_EXT_EXIT_KINDS;
		what = "ext exit kind";
	}
	for (int c = 0; c < n; c++)
		if (fnmatch(x->pattern, names[c], 0) == 0) {
			v += (double)count[c];
			matched++;
		}
	if (!matched) {
		msg_add(m, ": FAILED: no %s matches %.*s (", what, (int)sizeof(x->pattern), x->pattern);
		for (int c = 0; c < n; c++)
			msg_add(m, "%s%s", c ? ", " : "", names[c]);
		msg_add(m, ")");
		return false;
	}
	msg_add(m, holds(x, v) ? ": ok (" : ": FAILED: measured ");
	msg_add_value(m, x->metric, v);
	if (holds(x, v))
		msg_add(m, ")");
	return holds(x, v);
}

/* The same for groups: every group whose path matches must satisfy it. */
static bool expect_check_groups(const struct expect *x, const struct stats *st, struct msgbuf *m)
{
	int matched = 0, failed = 0;

	for (int pass = 0; pass < 2; pass++) {
		int listed = 0;

		if (pass)
			msg_add(m, failed ? ": FAILED: " : ": ok (");
		for (int g = 0; g < st->nr_groups; g++) {
			double v;

			if (!st->group_name || fnmatch(x->pattern, st->group_name[g], FNM_PATHNAME) != 0)
				continue;
			v = measure_group(x, st, g);
			if (!pass) {
				matched++;
				failed += !holds(x, v);
				continue;
			}
			if (failed && holds(x, v))
				continue;
			if (listed++ == EXPECT_LIST_MAX) {
				msg_add(m, ", ...");
				break;
			}
			msg_add(m, "%s%s %s", listed > 1 ? ", " : "", st->group_name[g], failed ? "measured " : "");
			if (isnan(v))
				msg_add(m, "(a task metric)");
			else
				msg_add_value(m, x->metric, v);
		}
		if (!matched) {
			msg_add(m, ": FAILED: no group matches %.*s", (int)sizeof(x->pattern), x->pattern);
			return false;
		}
	}
	if (!failed)
		msg_add(m, ")");
	return failed == 0;
}

bool expect_check(const struct expect *x, const struct stats *st,
		  const char *const *names, char *msg, size_t msglen)
{
	struct msgbuf m = { .buf = msg, .cap = msglen };
	int matched = 0, failed = 0, listed = 0;

	if (msglen)
		msg[0] = '\0';
	msg_add_expect(&m, x);
	if (x->metric == EXPECT_HERDS || x->metric == EXPECT_EXT_DISPATCHES || x->metric == EXPECT_EXT_EXITS)
		return check_machine(x, st, &m);

	if (x->pattern[0] == '/')
		return expect_check_groups(x, st, &m);
	for (int i = 0; i < st->nr_tasks; i++)
		if (names[i] && fnmatch(x->pattern, names[i], 0) == 0) {
			matched++;
			if (!holds(x, measure(x, st, i)))
				failed++;
		}

	if (!matched) {
		msg_add(&m, ": FAILED: no task matches %.*s", (int)sizeof(x->pattern), x->pattern);
		return false;
	}

	/* Passing: every matching task's value. Failing: only the culprits. */
	msg_add(&m, failed ? ": FAILED: " : ": ok (");
	for (int i = 0; i < st->nr_tasks; i++) {
		if (!names[i] || fnmatch(x->pattern, names[i], 0) != 0)
			continue;
		double v = measure(x, st, i);

		if (failed && holds(x, v))
			continue;
		if (listed == EXPECT_LIST_MAX) {
			msg_add(&m, ", ...");
			break;
		}
		msg_add(&m, "%s%s %s", listed ? ", " : "", names[i], failed ? "measured " : "");
		msg_add_value(&m, x->metric, v);
		listed++;
	}
	if (!failed)
		msg_add(&m, ")");
	else if (failed > EXPECT_LIST_MAX)
		msg_add(&m, " (%d of %d tasks)", failed, matched);
	return failed == 0;
}
