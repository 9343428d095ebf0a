// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope run SCENARIO`: run a scenario headless, then print its report,
 * check its expects, or write its trace.
 */
#include <getopt.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/base/outfile.h"
#include "src/format/breakpoint.h"
#include "cli.h"
#include "run_progress.h"
#include "run_vs.h"
#include "src/format/lex.h"
#include "src/analysis/report.h"
#include "src/analysis/rewind_check.h"
#include "src/analysis/run_stats.h"
#include "src/format/scenario_file.h"
#include "src/analysis/state_dump.h"
#include "src/analysis/stats.h"
#include "src/trace/trace_log.h"
#include "src/trace/trace_perfetto.h"

struct run_opts {
	u64 until;
	bool has_until;
	u64 win_from, win_to;
	bool has_window;
	const char *report;	/* NULL: text unless --check */
	bool check;
	const char *trace;
	u64 trace_from, trace_to;	/* --trace-window; to == 0: no end */
	const char *trace_tasks;	/* --trace-tasks GLOB[,GLOB] */
	const char *periods;	/* --periods FILE: rt-app's per-period log */
	const char *dump_state;	/* text|json: print the state where the run stopped */
	const char *brk;	/* --break EXPR */
	int rewind_check;	/* targets for --rewind-check */
	size_t history_budget;	/* --history-budget, for --break and --rewind-check */
	bool check_invariants;	/* --check-invariants */
	struct cli_sets sets;	/* --seed, --set, --param: side B's too */
	struct variant v;	/* --vs, --vs-set, --vs-param */
};

/*
 * The sanitizer build checks the engine's invariants on every run, so that
 * every scenario `make test` runs there is checked too.
 */
#ifdef SCHEDSCOPE_CHECK_INVARIANTS
#define CHECK_INVARIANTS_DEFAULT true
#else
#define CHECK_INVARIANTS_DEFAULT false
#endif

/*
 * The run to end, step by step, as sched_run_until() and history_run_until()
 * do it: the same events, but a progress line and Ctrl-C between steps.
 */
static void run_to_end(struct sched_engine *e, struct sched_history *h, u64 end)
{
	struct run_progress p;
	bool go_on = true;

	run_progress_start(&p, "run", e, end);
	while (go_on && !sched_finished(e) && sched_next_time(e) <= end) {
		if (h)
			history_step(h);
		else
			sched_step(e);
		go_on = run_progress_step(&p, e);
	}
	run_progress_end(&p);
	if (!go_on)
		return;
	if (h)
		history_run_until(h, end);
	else
		sched_run_until(e, end);
}

/* --rewind-check's replays: the progress line, and Ctrl-C. */
static bool rewind_go_on(void *ctx, struct sched_engine *e)
{
	return run_progress_step(ctx, e);
}

/* --check-invariants: the engine aborts after this message. */
static void invariant_violated(void *ctx, const char *msg)
{
	fprintf(stderr, "schedscope: %s: %s\n", (const char *)ctx, msg);
}

/*
 * --periods: rt-app's per-thread log, every thread in one file: the task's
 * name, then rt-app's columns in its unit (us) and layout (log_timing() of
 * rt-app.c). One line per loop of a phase (a `log` statement), or per timer
 * period in a program without them. perf, rt-app's count of calibrated
 * loops, has no counterpart here: 0. rel_st is start, the run starting at 0.
 */
struct period_log {
	FILE *f;
	const char *const *names;
};

#define PERIOD_LOG_HEADER                                                                            \
	"#%-15s %4s %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s\n", "task", "idx", "perf", "run", \
		"period", "start", "end", "rel_st", "slack", "c_duration", "c_period", "wu_lat"

static void period_line(void *ctx, int task, const struct period_row *r)
{
	struct period_log *l = ctx;

	fprintf(l->f,
		"%-16s %4d %8d %8" PRIu64 " %8" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %10" PRId64
		" %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n",
		l->names[task], task, 0, r->run / 1000, (r->end - r->start) / 1000, r->start / 1000,
		r->end / 1000, r->start / 1000, r->slack / 1000, r->c_duration / 1000, r->c_period / 1000,
		r->wu_lat / 1000);
}

static int parse_run_args(int argc, char **argv, struct run_opts *o, struct scenario_file *f,
			  const char **path)
{
	static const struct option opts[] = {
		{ "until", required_argument, NULL, 'u' },
		{ "window", required_argument, NULL, 'w' },
		{ "report", required_argument, NULL, 'r' },
		{ "check", no_argument, NULL, 'c' },
		{ "trace", required_argument, NULL, 't' },
		{ "trace-window", required_argument, NULL, 'W' },
		{ "trace-tasks", required_argument, NULL, 'T' },
		{ "periods", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 's' },
		{ "param", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 'S' },
		{ "dump-state", required_argument, NULL, 'd' },
		{ "break", required_argument, NULL, 'b' },
		{ "rewind-check", required_argument, NULL, 'R' },
		{ "check-invariants", no_argument, NULL, 'I' },
		{ "history-budget", required_argument, NULL, 'H' },
		{ "vs", required_argument, NULL, 'v' },
		{ "vs-set", required_argument, NULL, 'V' },
		{ "vs-param", required_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_sets *sets = &o->sets;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			if (parse_duration(optarg, strlen(optarg), &o->until) == PARSE_OVERFLOW)
				return cli_usage_error("--until: '%s' is too large (at most %llus)", optarg,
						       SCHED_TIME_MAX / NSEC_PER_SEC);
			if (parse_duration(optarg, strlen(optarg), &o->until) != PARSE_OK)
				return cli_usage_error("--until: '%s' is not a duration (e.g. 2.5s)", optarg);
			o->has_until = true;
			break;
		case 'w':
			if (cli_parse_window(optarg, &o->win_from, &o->win_to))
				return cli_usage_error("--window: '%s' is not A..B with A < B (e.g. 1s..10s)", optarg);
			o->has_window = true;
			break;
		case 'r':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_usage_error("--report: '%s' is not text or json", optarg);
			o->report = optarg;
			break;
		case 'c':
			o->check = true;
			break;
		case 'I':
			o->check_invariants = true;
			break;
		case 'H':
			if (cli_history_budget(optarg, &o->history_budget))
				return 2;
			break;
		case 'b':
			o->brk = optarg;
			break;
		case 'd':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_usage_error("--dump-state: '%s' is not text or json", optarg);
			o->dump_state = optarg;
			break;
		case 'R': {
			char *endp;
			long n = strtol(optarg, &endp, 10);
			if (*endp || n < 1 || n > 100000)
				return cli_usage_error("--rewind-check: '%s' is not a count 1..100000", optarg);
			o->rewind_check = (int)n;
			break;
		}
		case 't':
			o->trace = optarg;
			break;
		case 'W':
			if (cli_parse_window(optarg, &o->trace_from, &o->trace_to))
				return cli_usage_error("--trace-window: '%s' is not A..B with A < B (e.g. 1s..2s)", optarg);
			break;
		case 'T':
			o->trace_tasks = optarg;
			break;
		case 'P':
			o->periods = optarg;
			break;
		case 's':
		case 'S':
			if (cli_add_set(sets, optarg, c == 's'))
				return 2;
			break;
		case 'p':
			if (cli_add_param(sets, optarg))
				return 2;
			break;
		case 'v':
		case 'V':
		case 'X':
			if (c == 'X' ? cli_add_vs_param(&o->v, optarg)
				     : cli_add_variant(&o->v, optarg, c == 'v'))
				return 2;
			break;
		default:
			return cli_usage_error("run: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("run: expected one SCENARIO file");
	if (o->brk && o->rewind_check)
		return cli_usage_error("--break and --rewind-check do not go together");
	*path = argv[optind];

	return cli_load_scenario_sets(*path, sets, f);
}

/* --break: the expression, checked before any output is opened. NULL after printing why. */
static struct breakpoint *parse_break(const struct scenario_file *f, const char *expr)
{
	struct breakpoint_scope scope;
	struct breakpoint *bp;
	char err[512];

	scenario_breakpoint_scope(f, &scope);
	bp = breakpoint_parse(expr, &scope, err, sizeof(err));
	if (!bp)
		fprintf(stderr, "schedscope: --break: %s\n", err);
	return bp;
}

/* --break: run until the expression holds, then say when, on which event and why. */
static void run_to_break(struct sched_history *h, const struct scenario_file *f, struct breakpoint *bp,
			 const char *expr, u64 end, bool *hit)
{
	const char *const *names = f->task_names;
	struct sched_engine *e = history_engine(h);
	struct run_progress p;
	s64 seq = -1;
	bool go_on = true;

	/* one instant at a time, so that Ctrl-C and the progress line get a look in */
	run_progress_start(&p, "run", e, end);
	while (go_on && seq < 0 && !sched_finished(e) && sched_next_time(e) <= end) {
		seq = history_run_until_event(h, sched_next_time(e), breakpoint_test, bp);
		go_on = run_progress_step(&p, e);
	}
	run_progress_end(&p);
	*hit = seq >= 0;
	if (*hit) {
		const struct sched_event *ev = history_event(h, (u64)seq);
		char why[256];

		breakpoint_describe(bp, ev, names, why, sizeof(why));
		printf("break: '%s' hit at %.9f s, event %lld: %s\n", expr, (double)ev->time / 1e9,
		       (long long)seq, why);
	} else {
		printf("break: '%s' did not hit before %.9f s\n", expr, (double)sched_now(history_engine(h)) / 1e9);
	}
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { .check_invariants = CHECK_INVARIANTS_DEFAULT,
			      .history_budget = HISTORY_DEFAULT_BUDGET };
	struct scenario_file f;
	struct run_stats rs = { 0 };
	struct trace_ftrace *tw = NULL;
	struct trace_perfetto *pw = NULL;
	struct outfile tf = { .slot = -1 }, pf = { .slot = -1 };
	struct breakpoint *bp = NULL;
	struct run_vs *vs = NULL;
	const char *path = NULL;
	char err[512];
	int rc, failed = 0;

	rc = parse_run_args(argc, argv, &o, &f, &path);
	if (rc)
		return rc;

	u64 end = f.sc.duration;
	if (o.has_until && o.until > end) {
		char a[32], b[32];
		rc = cli_usage_error("--until %s is after the scenario's duration %s (use --set duration=)",
				     format_duration(a, sizeof(a), o.until), format_duration(b, sizeof(b), end));
		scenario_free(&f);
		return rc;
	}
	if (o.has_until)
		end = o.until;
	if (o.brk && !(bp = parse_break(&f, o.brk))) {
		scenario_free(&f);
		return 2;
	}
	u64 from = o.has_window ? o.win_from : 0, to = o.has_window ? o.win_to : end;

	struct sched_engine *e = sched_engine_create(&f.sc, err, sizeof(err));
	if (!e) {
		fprintf(stderr, "schedscope: %s: %s\n", path, err);
		breakpoint_free(bp);
		scenario_free(&f);
		return 2;
	}
	if (o.check_invariants && sched_set_invariant_check(e, invariant_violated, (void *)path)) {
		fprintf(stderr, "schedscope: %s: out of memory for --check-invariants\n", path);
		sched_engine_destroy(e);
		breakpoint_free(bp);
		scenario_free(&f);
		return 2;
	}

	run_stats_init(&rs, &f, from, to, o.check);
	struct period_log plog = { NULL, f.task_names };
	/* with time travel, listeners hang on the history so they see each event once */
	struct sched_history *h = NULL;
	if (o.rewind_check || o.brk) {
		if (o.history_budget < history_min_budget(e)) {
			fprintf(stderr,
				"schedscope: %s: a history budget of %zu MiB is below the %zu MiB this "
				"scenario needs\n",
				path, o.history_budget >> 20, (history_min_budget(e) + (1 << 20) - 1) >> 20);
			rc = 2;
			goto out;
		}
		h = history_create(e, o.history_budget);
	}
	if (run_vs_start(&vs, path, &o.sets, &o.v, &f, from, to)) {
		rc = 2;
		goto out;
	}
	if (h)
		history_add_listener(h, run_stats_event, &rs);
	else
		sched_add_listener(e, run_stats_event, &rs);
	if (vs && h)
		history_add_listener(h, run_vs_event_a, vs);
	else if (vs)
		sched_add_listener(e, run_vs_event_a, vs);

	/* before any output is opened, so that its handler passes Ctrl-C on to ours */
	run_catch_interrupt();
	if (o.periods) {
		if (outfile_open(&pf, o.periods)) {
			rc = 2;
			goto out;
		}
		plog.f = pf.f;
		fprintf(plog.f, PERIOD_LOG_HEADER);
		rs.st[0].period_fn = period_line;
		rs.st[0].period_ctx = &plog;
	}
	if (o.trace) {
		if (outfile_open(&tf, o.trace)) {
			rc = 2;
			goto out;
		}
		if (trace_perfetto_wanted(o.trace)) {
			struct trace_perfetto_opts po;

			trace_perfetto_opts_for(&po, e, true);
			po.from = o.trace_from;
			po.to = o.trace_to;
			po.tasks = o.trace_tasks;
			pw = trace_perfetto_open(tf.f, &po);
			if (!pw) {
				fprintf(stderr, "schedscope: %s: out of memory\n", o.trace);
				rc = 2;
				goto out;
			}
			if (h)
				history_add_listener(h, trace_perfetto_event, pw);
			else
				sched_add_listener(e, trace_perfetto_event, pw);
			/* side B in the same file, on the same time axis */
			if (vs && run_vs_trace(vs, pw, &po)) {
				fprintf(stderr, "schedscope: %s: out of memory\n", o.trace);
				rc = 2;
				goto out;
			}
		} else {
			struct trace_ftrace_opts to_opts;

			trace_ftrace_opts_for(&to_opts, e);
			tw = trace_ftrace_open(tf.f, &to_opts);
			if (h)
				history_add_listener(h, trace_ftrace_event, tw);
			else
				sched_add_listener(e, trace_ftrace_event, tw);
		}
	}

	u64 t0 = run_wall_ns();
	bool hit = false;
	if (bp)
		run_to_break(h, &f, bp, o.brk, end, &hit);
	else
		run_to_end(e, h, end);
	u64 wall = run_wall_ns() - t0;

	if (o.rewind_check && !run_interrupts()) {
		struct rewind_check_result rc_res;
		struct run_progress rp;

		run_progress_start(&rp, "rewind-check", e, end);
		rewind_check(h, end, o.rewind_check, f.sc.seed, &rc_res, rewind_go_on, &rp);
		run_progress_end(&rp);
		fprintf(stderr, "rewind-check: %d targets, %llu mismatching events, %d final states differ; "
			"rewind wall time p50 %.3f ms, p99 %.3f ms, max %.3f ms; %d checkpoints, %zu KiB\n",
			rc_res.targets, (unsigned long long)rc_res.mismatches, rc_res.state_diffs,
			(double)rc_res.p50_ns / 1e6, (double)rc_res.p99_ns / 1e6,
			(double)rc_res.max_ns / 1e6, history_nr_checkpoints(h), history_bytes(h) >> 10);
		if (rc_res.mismatches || rc_res.state_diffs)
			failed++;
	}

	run_stats_finish(&rs, sched_now(e));
	if (vs)
		run_vs_run(vs, run_interrupts() ? sched_now(e) : end, sched_now(e));

	char **msg = calloc((size_t)f.nr_expects + 1, sizeof(*msg));
	bool *ok = calloc((size_t)f.nr_expects + 1, sizeof(*ok));
	if (o.check)
		failed += run_stats_check(&rs, &f, msg, ok);

	struct report r = { &f, e, &rs.st[0], wall, o.check ? f.nr_expects : 0,
			    (const char *const *)msg, ok };
	if (o.report && !strcmp(o.report, "json")) {
		report_json(stdout, &r);
	} else if (o.report || (!o.check && !o.brk)) {
		report_text(stdout, &r);
		if (vs)
			run_vs_report_text(vs, stdout, wall);
	} else if (o.check) {
		for (int i = 0; i < f.nr_expects; i++)
			printf("%s\n", msg[i]);
	}
	if (o.check && vs)
		failed += run_vs_check(vs, stdout);
	/* a breakpoint hit shows the state it stopped in */
	if (o.dump_state && !strcmp(o.dump_state, "json"))
		state_dump_json(stdout, e);
	else if (o.dump_state || hit)
		state_dump_text(stdout, e);

	for (int i = 0; i < f.nr_expects; i++)
		free(msg[i]);
	free(msg);
	free(ok);
	rc = failed ? 1 : 0;
	if (run_interrupts()) {
		fprintf(stderr,
			"schedscope: %s: interrupted at %.3f s of %.3f s: the report is the run so far%s\n",
			path, (double)sched_now(e) / 1e9, (double)end / 1e9,
			tf.tmp || pf.tmp ? "; no file written (the old one kept)" : "");
		rc = 130;
	}
out:
	/* a failed write shows in the FILE, where the commit prints it; other failures here.
	 * B's writes into A's document: it closes first. */
	if (run_vs_close_trace(vs) | (tw && trace_ftrace_close(tw)) |
		    (pw && trace_perfetto_close(pw, sched_now(e))) &&
	    !ferror(tf.f)) {
		fprintf(stderr, "schedscope: %s: cannot write: the trace writer failed\n", o.trace);
		rc = 2;
	}
	/* after a failure or Ctrl-C, no partial file replaces the old one */
	if (tf.f && (rc >= 2 ? (outfile_abort(&tf), 0) : outfile_commit(&tf)))
		rc = 2;
	if (pf.f && (rc >= 2 ? (outfile_abort(&pf), 0) : outfile_commit(&pf)))
		rc = 2;
	breakpoint_free(bp);
	run_vs_free(vs);
	run_stats_free(&rs);
	history_destroy(h);
	sched_engine_destroy(e);
	scenario_free(&f);
	return rc;
}
