// SPDX-License-Identifier: GPL-2.0
/* `run`'s side B (run_vs.h). */
#include <stdlib.h>
#include <string.h>

#include "run_progress.h"
#include "run_vs.h"
#include "src/analysis/compare.h"
#include "src/analysis/report.h"
#include "src/base/mem.h"
#include "src/trace/trace_log.h"

struct run_vs {
	const struct scenario_file *a;
	struct scenario_file f; /* B's */
	struct sched_engine *e;
	int n; /* statistics per side: the run's window, then each `expect diff`'s */
	struct stats *st[2];
	struct trace_perfetto *pw;
	char label[2][VARIANT_LABEL_MAX];
};

static void stats_for(struct run_vs *vs, int side, const struct scenario_file *f, u64 from, u64 to)
{
	vs->st[side] = xcalloc((size_t)vs->n, sizeof(struct stats));
	for (int i = 0; i < vs->n; i++) {
		const struct diff_expect *d = i ? &vs->a->diff_expect[i - 1] : NULL;
		bool own = d && d->has_window;

		stats_init_scenario(&vs->st[side][i], &f->sc, own ? d->from : from, own ? d->to : to);
	}
}

static void event_b(void *ctx, const struct sched_event *ev)
{
	struct run_vs *vs = ctx;

	for (int i = 0; i < vs->n; i++)
		stats_event(&vs->st[1][i], ev);
}

int run_vs_start(struct run_vs **out, const char *a_path, const struct cli_sets *sets,
		 const struct variant *v, const struct scenario_file *a, u64 from, u64 to)
{
	struct variant fv = *v;
	struct run_vs *vs;
	char err[512];

	*out = NULL;
	if (!variant_choose(&fv, a))
		return 0;
	v = &fv;
	vs = xcalloc(1, sizeof(*vs));
	vs->a = a;
	if (cli_load_variant(a_path, sets, v, a, &vs->f)) {
		free(vs);
		return 2;
	}
	vs->e = sched_engine_create(&vs->f.sc, err, sizeof(err));
	if (!vs->e) {
		fprintf(stderr, "schedscope: %s: %s\n", variant_path(v, a_path), err);
		scenario_free(&vs->f);
		free(vs);
		return 2;
	}
	variant_labels(v, a_path, vs->label[0], vs->label[1]);
	vs->n = 1 + a->nr_diff_expects;
	stats_for(vs, 0, a, from, to);
	stats_for(vs, 1, &vs->f, from, to);
	sched_add_listener(vs->e, event_b, vs);
	*out = vs;
	return 0;
}

const char *run_vs_label(const struct run_vs *vs, int side)
{
	return vs->label[side];
}

void run_vs_event_a(void *ctx, const struct sched_event *ev)
{
	struct run_vs *vs = ctx;

	for (int i = 0; i < vs->n; i++)
		stats_event(&vs->st[0][i], ev);
}

void run_vs_trace(struct run_vs *vs, struct trace_perfetto *a, const struct trace_perfetto_opts *ao)
{
	struct trace_perfetto_opts po;

	trace_perfetto_opts_for(&po, vs->e, true);
	po.from = ao->from;
	po.to = ao->to;
	po.tasks = ao->tasks;
	po.share = a;
	po.pid_offset = TRACE_PERFETTO_SIDE_B_OFFSET;
	po.label = vs->label[1];
	vs->pw = trace_perfetto_open(NULL, &po);
	sched_add_listener(vs->e, trace_perfetto_event, vs->pw);
}

void run_vs_run(struct run_vs *vs, u64 end, u64 a_now)
{
	run_progress_until("side B", vs->e, NULL, end);
	for (int i = 0; i < vs->n; i++) {
		stats_finish(&vs->st[0][i], a_now);
		stats_finish(&vs->st[1][i], sched_now(vs->e));
	}
}

/* One `expect diff` on the statistics of its window: it must hold for every task or group its glob matches. */
static bool check_one(struct run_vs *vs, int i, FILE *out)
{
	const struct diff_expect *d = &vs->a->diff_expect[i];
	const struct diff_expr *x = &d->x;
	struct metrics m[2];
	struct compare c;
	bool ok = true;
	int n = 0;

	metrics_from_stats(&m[0], &vs->st[0][1 + i], vs->a->task_names);
	metrics_from_stats(&m[1], &vs->st[1][1 + i], vs->f.task_names);
	compare_init(&c, 1);
	compare_add(&c, 0, &m[0], &m[1]);
	fprintf(out, "expect diff %s:", x->text);
	for (int r = compare_match(&c, x, 0); r >= 0; r = compare_match(&c, x, r + 1), n++) {
		struct compare_cell cell;
		double change;

		compare_cell(&c, r, x->metric, &cell);
		change = diff_expr_change(x, cell.s[0].mean, cell.s[1].mean);
		ok &= compare_holds(&c, x, r);
		fprintf(out, " %s%s ", compare_holds(&c, x, r) ? "" : "NOT ", c.row[r].name);
		if (x->relative)
			fprintf(out, "%+.1f%%", change);
		else if (metric_is_time(x->metric))
			fprintf(out, "%+.3fms", change / 1e6);
		else
			fprintf(out, "%+.4g", change);
	}
	if (!n) {
		ok = false;
		fprintf(out, " no %s matches '%s'", x->group ? "group" : "task", x->pattern);
	}
	fprintf(out, "%s\n", ok ? ": ok" : ": FAILED");
	compare_free(&c);
	metrics_free(&m[0]);
	metrics_free(&m[1]);
	return ok;
}

int run_vs_check(struct run_vs *vs, FILE *out)
{
	int failed = 0;

	for (int i = 0; i < vs->a->nr_diff_expects; i++)
		failed += !check_one(vs, i, out);
	return failed;
}

void run_vs_report_text(struct run_vs *vs, FILE *out, u64 wall_ns)
{
	struct report r = { &vs->f, vs->e, &vs->st[1][0], wall_ns, 0, NULL, NULL };

	fprintf(out, "\n%s, against %s\n", vs->label[1], vs->label[0]);
	report_text(out, &r);
}

int run_vs_close_trace(struct run_vs *vs)
{
	int r = vs && vs->pw ? trace_perfetto_close(vs->pw, sched_now(vs->e)) : 0;

	if (vs)
		vs->pw = NULL;
	return r;
}

void run_vs_free(struct run_vs *vs)
{
	if (!vs)
		return;
	run_vs_close_trace(vs);
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < vs->n; i++)
			stats_free(&vs->st[s][i]);
		free(vs->st[s]);
	}
	sched_engine_destroy(vs->e);
	scenario_free(&vs->f);
	free(vs);
}
