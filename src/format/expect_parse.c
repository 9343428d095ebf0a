// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing `expect` lines, the checks a scenario makes about its own run:
 *
 *   expect METRIC(PATTERN[, p50|p99|max]) OP VALUE [+- TOL] [over A..B]
 *
 * METRIC is share, cpu_time, wait_time, wakeup_latency (with p50, p99 or
 * max), migrations, migration_rate (per second), switches, wakeups,
 * preemptions, dl_throttles, deadline_misses, or rt-app's periods,
 * missed_periods, slack_min, period_latency; PATTERN a task glob.
 * herds(CAUSE) counts the machine's herd
 * migrations whose cause matches the glob (newidle, wakeup, imbalance, affinity, mixed);
 * ext_dispatches(OP) the ext class's dispatches made by the operations
 * matching the glob (enqueue, dispatch, select_cpu, core...), ext_exits(KIND)
 * its policy's exits (error, error_stall, error_bpf, unreg_bpf...);
 * OP = < > <= >=; VALUE a duration for the time metrics, a fraction or a
 * percentage for share (0.333 or 33.3%), a number otherwise. `+- TOL` only
 * with `=`; `over A..B` limits the window (A < B).
 */
#include <string.h>

#include "expect.h"
#include "lex.h"
#include "parse_util.h"

const char *const expect_metric_names[NR_EXPECT_METRICS] = {
	[EXPECT_SHARE] = "share",
	[EXPECT_CPU_TIME] = "cpu_time",
	[EXPECT_WAIT_TIME] = "wait_time",
	[EXPECT_WAKEUP_LATENCY] = "wakeup_latency",
	[EXPECT_MIGRATIONS] = "migrations",
	[EXPECT_SWITCHES] = "switches",
	[EXPECT_WAKEUPS] = "wakeups",
	[EXPECT_PREEMPTIONS] = "preemptions",
	[EXPECT_MIGRATION_RATE] = "migration_rate",
	[EXPECT_HERDS] = "herds",
	[EXPECT_EXT_DISPATCHES] = "ext_dispatches",
	[EXPECT_EXT_EXITS] = "ext_exits",
	[EXPECT_RUNTIME] = "runtime",
	[EXPECT_NR_PERIODS] = "nr_periods",
	[EXPECT_NR_THROTTLED] = "nr_throttled",
	[EXPECT_THROTTLED_TIME] = "throttled_time",
	[EXPECT_NR_BURSTS] = "nr_bursts",
	[EXPECT_PERIODS] = "periods",
	[EXPECT_MISSED_PERIODS] = "missed_periods",
	[EXPECT_SLACK_MIN] = "slack_min",
	[EXPECT_PERIOD_LATENCY] = "period_latency",
	[EXPECT_DL_THROTTLES] = "dl_throttles",
	[EXPECT_DEADLINE_MISSES] = "deadline_misses",
};

bool expect_metric_is_time(int metric)
{
	return metric == EXPECT_CPU_TIME || metric == EXPECT_WAIT_TIME ||
	       metric == EXPECT_WAKEUP_LATENCY || metric == EXPECT_THROTTLED_TIME || metric == EXPECT_RUNTIME ||
	       metric == EXPECT_SLACK_MIN || metric == EXPECT_PERIOD_LATENCY;
}



/* A value in the metric's unit: ns for times, a fraction for share, a count. */
static int expect_value(struct lexer *lx, int metric, const struct token *t, double *v)
{
	struct lex_span s = t->s;
	bool percent = false;

	if (t->type != TOK_WORD) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t->s, "expected a value, got '%s'",
				 t->type == TOK_NEWLINE || t->type == TOK_EOF ? "end of line" : SNIP(&t->s));
	}
	if (expect_metric_is_time(metric)) {
		u64 ns;
		if (lex_duration(lx, &s, expect_metric_names[metric], &ns) < 0)
			return -1;
		*v = (double)ns;
		return 0;
	}
	if (metric == EXPECT_SHARE && s.n > 1 && s.p[s.n - 1] == '%') {
		s.n--;
		percent = true;
	}
	if (parse_decimal(s.p, s.n, v) != PARSE_OK)
		return lex_error(lx, &t->s, "bad %s value '%s' (a number%s)", expect_metric_names[metric],
				 SNIP(&t->s), metric == EXPECT_SHARE ? " like 0.5 or 50%" : "");
	if (percent)
		*v /= 100;
	return 0;
}

static int expect_call(struct lexer *lx, const struct token *m, struct expect *x)
{
	struct token t;

	if (require_punct(lx, "(", "after the metric") < 0 || lex_next(lx, &t) != TOK_WORD) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t.s, "expected a task name or pattern, got '%s'", SNIP(&t.s));
	}
	if (!span_copy(&t.s, x->pattern, sizeof(x->pattern)))
		return lex_error(lx, &t.s, "pattern '%s' is longer than %zu bytes", SNIP(&t.s),
				 sizeof(x->pattern) - 1);
	bool has_stat = lex_peek(lx, &t) == TOK_PUNCT && span_is(&t.s, ",");
	if (has_stat) {
		lex_next(lx, &t);
		if (lex_next(lx, &t) != TOK_WORD || !(span_is(&t.s, "p50") || span_is(&t.s, "p99") ||
						      span_is(&t.s, "max"))) {
			if (lx->failed)
				return -1;
			return lex_error(lx, &t.s, "expected p50, p99 or max, got '%s'", SNIP(&t.s));
		}
		if (x->metric != EXPECT_WAKEUP_LATENCY)
			return lex_error(lx, &t.s, "only wakeup_latency takes p50, p99 or max");
		x->stat = span_is(&t.s, "p50") ? STAT_P50 : span_is(&t.s, "p99") ? STAT_P99 : STAT_MAX;
	}
	if (require_punct(lx, ")", "after the pattern") < 0)
		return -1;
	if (x->metric == EXPECT_WAKEUP_LATENCY && !has_stat)
		return lex_error(lx, &m->s, "wakeup_latency needs p50, p99 or max, like "
				 "wakeup_latency(web.*, p99)");
	return 0;
}

static int expect_window(struct lexer *lx, const struct token *t, struct expect *x)
{
	const char *dots = NULL;

	for (size_t i = 0; i + 1 < t->s.n; i++)
		if (t->s.p[i] == '.' && t->s.p[i + 1] == '.') {
			dots = t->s.p + i;
			break;
		}
	if (t->type != TOK_WORD || !dots)
		return lex_error(lx, &t->s, "expected a window A..B after 'over', like 1s..10s");
	size_t na = (size_t)(dots - t->s.p);
	struct lex_span a = { t->s.p, na, t->s.line, t->s.col };
	struct lex_span b = { dots + 2, t->s.n - na - 2, t->s.line, t->s.col + (u32)na + 2 };
	if (lex_duration(lx, &a, "window start", &x->from) < 0 ||
	    lex_duration(lx, &b, "window end", &x->to) < 0)
		return -1;
	if (x->from >= x->to)
		return lex_error(lx, &t->s, "window '%s' is empty: its start must come before its end",
				 SNIP(&t->s));
	x->has_window = true;
	return 0;
}

int expect_parse(struct lexer *lx, const struct token *m, struct expect *x)
{
	static const char *const ops[] = { [OP_EQ] = "=", [OP_LT] = "<", [OP_GT] = ">",
					   [OP_LE] = "<=", [OP_GE] = ">=" };
	struct token t;
	const char *last;

	*x = (struct expect){ 0 };
	for (x->metric = 0; x->metric < NR_EXPECT_METRICS; x->metric++)
		if (span_is(&m->s, expect_metric_names[x->metric]))
			break;
	if (x->metric == NR_EXPECT_METRICS)
		return lex_error(
			lx, &m->s,
			"unknown metric '%s' (expected share, cpu_time, wait_time, "
			"wakeup_latency, migrations, migration_rate, switches, wakeups, preemptions, "
			"runtime, dl_throttles, deadline_misses, periods, missed_periods, slack_min, "
			"period_latency, herds, ext_dispatches, ext_exits; for groups also nr_periods, "
			"nr_throttled, "
			"throttled_time, nr_bursts)",
			SNIP(&m->s));
	x->line = m->s.line;
	x->col = m->s.col;
	if (expect_call(lx, m, x) < 0)
		return -1;

	lex_next(lx, &t);
	for (x->op = 0; x->op < (int)ARRAY_SIZE(ops); x->op++)
		if (tok_is(&t, TOK_PUNCT, ops[x->op]))
			break;
	if (x->op == (int)ARRAY_SIZE(ops)) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t.s, "expected =, <, >, <= or >=, got '%s'",
				 t.type == TOK_NEWLINE || t.type == TOK_EOF ? "end of line" : SNIP(&t.s));
	}
	lex_next(lx, &t);
	if (expect_value(lx, x->metric, &t, &x->value) < 0)
		return -1;
	/* ends of tokens in the text as written (a ${NAME}'s value is elsewhere) */
	last = lx->text + lx->at.pos;

	if (lex_peek(lx, &t) == TOK_WORD && span_is(&t.s, "+-")) {
		lex_next(lx, &t);
		if (x->op != OP_EQ)
			return lex_error(lx, &t.s, "'+-' goes only with '='");
		lex_next(lx, &t);
		if (expect_value(lx, x->metric, &t, &x->tol) < 0)
			return -1;
		last = lx->text + lx->at.pos;
	}
	if (lex_peek(lx, &t) == TOK_WORD && span_is(&t.s, "over")) {
		lex_next(lx, &t);
		lex_next(lx, &t);
		if (expect_window(lx, &t, x) < 0)
			return -1;
		last = lx->text + lx->at.pos;
	}
	const char *first = lx->text + lx->at.bol + (m->s.col - 1);
	if (lex_expect_eol(lx) < 0)
		return -1;

	/* the text as written, from the metric on, for messages */
	size_t n = MIN((size_t)(last - first), sizeof(x->text) - 1);
	memcpy(x->text, first, n);
	x->text[n] = 0;
	return 0;
}
