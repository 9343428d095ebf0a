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
#include "src/base/mem.h"
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
struct period_writer {
	FILE *f;
	const char *const *names;
};

#define PERIOD_LOG_HEADER                                                                            \
	"#%-15s %4s %8s %8s %8s %15s %15s %15s %10s %10s %10s %10s\n", "task", "idx", "perf", "run", \
		"period", "start", "end", "rel_st", "slack", "c_duration", "c_period", "wu_lat"

static void period_line(void *ctx, int task, const struct period_row *r)
{
	struct period_writer *w = ctx;

	fprintf(w->f,
		"%-16s %4d %8d %8" PRIu64 " %8" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %10" PRId64
		" %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n",
		w->names[task], task, 0, r->run / 1000, (r->end - r->start) / 1000, r->start / 1000,
		r->end / 1000, r->start / 1000, r->slack / 1000, r->c_duration / 1000, r->c_period / 1000,
		r->wu_lat / 1000);
}

/* --until, --window, --trace-window: 0 taken, 2 refused (printed), -1 not one of them. */
static int time_option(int c, struct run_opts *o)
{
	switch (c) {
	case 'u':
		if (parse_duration(optarg, strlen(optarg), &o->until) == PARSE_OVERFLOW)
			return cli_usage_error("--until: '%s' is too large (at most %llus)", optarg,
					       SCHED_TIME_MAX / NSEC_PER_SEC);
		if (parse_duration(optarg, strlen(optarg), &o->until) != PARSE_OK)
			return cli_usage_error("--until: '%s' is not a duration (e.g. 2.5s)", optarg);
		o->has_until = true;
		return 0;
	case 'w':
		if (cli_parse_window(optarg, &o->win_from, &o->win_to))
			return cli_usage_error("--window: '%s' is not A..B with A < B (e.g. 1s..10s)",
					       optarg);
		o->has_window = true;
		return 0;
	case 'W':
		if (cli_parse_window(optarg, &o->trace_from, &o->trace_to))
			return cli_usage_error("--trace-window: '%s' is not A..B with A < B (e.g. 1s..2s)",
					       optarg);
		return 0;
	}
	return -1;
}

/* What the run prints and writes: the same as time_option(). */
static int output_option(int c, struct run_opts *o)
{
	switch (c) {
	case 'r':
		if (strcmp(optarg, "text") && strcmp(optarg, "json"))
			return cli_usage_error("--report: '%s' is not text or json", optarg);
		o->report = optarg;
		return 0;
	case 'c':
		o->check = true;
		return 0;
	case 'd':
		if (strcmp(optarg, "text") && strcmp(optarg, "json"))
			return cli_usage_error("--dump-state: '%s' is not text or json", optarg);
		o->dump_state = optarg;
		return 0;
	case 't':
		o->trace = optarg;
		return 0;
	case 'T':
		o->trace_tasks = optarg;
		return 0;
	case 'P':
		o->periods = optarg;
		return 0;
	}
	return -1;
}

/* The checks, the breakpoint, then cli_scenario_option(): the same as time_option(). */
static int check_option(int c, struct run_opts *o)
{
	char *endp;
	long n;

	switch (c) {
	case 'I':
		o->check_invariants = true;
		return 0;
	case 'b':
		o->brk = optarg;
		return 0;
	case 'R':
		n = strtol(optarg, &endp, 10);
		if (*endp || n < 1 || n > 100000)
			return cli_usage_error("--rewind-check: '%s' is not a count 1..100000", optarg);
		o->rewind_check = (int)n;
		return 0;
	}
	return cli_scenario_option(c, optarg, &o->sets, &o->v, &o->history_budget);
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
		{ "dump-state", required_argument, NULL, 'd' },
		{ "break", required_argument, NULL, 'b' },
		{ "rewind-check", required_argument, NULL, 'R' },
		{ "check-invariants", no_argument, NULL, 'I' },
		CLI_SCENARIO_OPTIONS,
		{ "vs-param", required_argument, NULL, CLI_OPT_VS_PARAM },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		rc = time_option(c, o);
		if (rc < 0)
			rc = output_option(c, o);
		if (rc < 0)
			rc = check_option(c, o);
		if (rc < 0)
			return cli_usage_error("run: unknown option '%s'", argv[optind - 1]);
		if (rc)
			return rc;
	}
	if (optind != argc - 1)
		return cli_usage_error("run: expected one SCENARIO file");
	if (o->brk && o->rewind_check)
		return cli_usage_error("--break and --rewind-check do not go together");
	*path = argv[optind];

	return cli_load_scenario_sets(*path, &o->sets, f);
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

/* One headless run: what it was asked, what it runs, what it writes. */
struct run {
	struct run_opts o;
	const char *path;
	struct scenario_file f;
	u64 end, from, to; /* the run's end; the report's window */
	struct breakpoint *bp;
	struct sched_engine *e;
	struct sched_history *h; /* with time travel (--break, --rewind-check) */
	struct run_stats rs;
	struct run_vs *vs;
	struct outfile tf, pf; /* --trace, --periods */
	struct trace_ftrace *tw;
	struct trace_perfetto *pw;
	struct period_writer periods;
	u64 wall;
	bool hit;
	int failed;
};

/* --until and --break against the scenario; 2 (printed, the scenario freed) if refused. */
static int run_check(struct run *r)
{
	r->end = r->f.sc.duration;
	if (r->o.has_until && r->o.until > r->end) {
		char a[32], b[32];
		int rc = cli_usage_error(
			"--until %s is after the scenario's duration %s (use --set duration=)",
			format_duration(a, sizeof(a), r->o.until), format_duration(b, sizeof(b), r->end));
		scenario_free(&r->f);
		return rc;
	}
	if (r->o.has_until)
		r->end = r->o.until;
	if (r->o.brk && !(r->bp = parse_break(&r->f, r->o.brk))) {
		scenario_free(&r->f);
		return 2;
	}
	r->from = r->o.has_window ? r->o.win_from : 0;
	r->to = r->o.has_window ? r->o.win_to : r->end;
	return 0;
}

/* A listener on the history when there is one (so it sees each event once), else on the engine. */
static void run_listen(struct run *r, sched_event_fn fn, void *ctx)
{
	if (r->h)
		history_add_listener(r->h, fn, ctx);
	else
		sched_add_listener(r->e, fn, ctx);
}

/* The engine, its history and side B, with the statistics listening; 2 (printed) on error. */
static int run_setup(struct run *r)
{
	char err[512];

	r->e = sched_engine_create(&r->f.sc, err, sizeof(err));
	if (!r->e) {
		fprintf(stderr, "schedscope: %s: %s\n", r->path, err);
		return 2;
	}
	if (r->o.check_invariants)
		sched_set_invariant_check(r->e, invariant_violated, (void *)r->path);
	run_stats_init(&r->rs, &r->f, r->from, r->to, r->o.check);
	r->periods = (struct period_writer){ NULL, r->f.task_names };
	if (r->o.rewind_check || r->o.brk) {
		if (r->o.history_budget < history_min_budget(r->e)) {
			fprintf(stderr,
				"schedscope: %s: a history budget of %zu MiB is below the %zu MiB this "
				"scenario needs\n",
				r->path, r->o.history_budget >> 20,
				(history_min_budget(r->e) + (1 << 20) - 1) >> 20);
			return 2;
		}
		r->h = history_create(r->e, r->o.history_budget);
	}
	if (run_vs_start(&r->vs, r->path, &r->o.sets, &r->o.v, &r->f, r->from, r->to))
		return 2;
	run_listen(r, run_stats_event, &r->rs);
	if (r->vs)
		run_listen(r, run_vs_event_a, r->vs);
	return 0;
}

/* --trace as Perfetto JSON, side B in the same file on the same time axis. */
static void open_perfetto(struct run *r)
{
	struct trace_perfetto_opts po;

	trace_perfetto_opts_for(&po, r->e, true);
	po.from = r->o.trace_from;
	po.to = r->o.trace_to;
	po.tasks = r->o.trace_tasks;
	r->pw = trace_perfetto_open(r->tf.f, &po);
	run_listen(r, trace_perfetto_event, r->pw);
	if (r->vs)
		run_vs_trace(r->vs, r->pw, &po);
}

/* --periods and --trace, after every check; 2 (printed) on error. */
static int run_open_outputs(struct run *r)
{
	if (r->o.periods) {
		if (outfile_open(&r->pf, r->o.periods))
			return 2;
		r->periods.f = r->pf.f;
		fprintf(r->periods.f, PERIOD_LOG_HEADER);
		r->rs.st[0].period_fn = period_line;
		r->rs.st[0].period_ctx = &r->periods;
	}
	if (!r->o.trace)
		return 0;
	if (outfile_open(&r->tf, r->o.trace))
		return 2;
	if (trace_perfetto_wanted(r->o.trace)) {
		open_perfetto(r);
		return 0;
	}

	struct trace_ftrace_opts to_opts;

	trace_ftrace_opts_for(&to_opts, r->e);
	r->tw = trace_ftrace_open(r->tf.f, &to_opts);
	run_listen(r, trace_ftrace_event, r->tw);
	return 0;
}

/* --rewind-check, after the run: rewinds and replays must give the same events and state. */
static void run_rewind_check(struct run *r)
{
	struct rewind_check_result res;
	struct run_progress rp;

	run_progress_start(&rp, "rewind-check", r->e, r->end);
	rewind_check(r->h, r->end, r->o.rewind_check, r->f.sc.seed, &res, rewind_go_on, &rp);
	run_progress_end(&rp);
	fprintf(stderr,
		"rewind-check: %d targets, %llu mismatching events, %d final states differ; "
		"rewind wall time p50 %.3f ms, p99 %.3f ms, max %.3f ms; %d checkpoints, %zu KiB\n",
		res.targets, (unsigned long long)res.mismatches, res.state_diffs, (double)res.p50_ns / 1e6,
		(double)res.p99_ns / 1e6, (double)res.max_ns / 1e6, history_nr_checkpoints(r->h),
		history_bytes(r->h) >> 10);
	if (res.mismatches || res.state_diffs)
		r->failed++;
}

/* The run itself: to the end or the breakpoint, then the rewind check and side B. */
static void run_execute(struct run *r)
{
	u64 t0 = run_wall_ns();

	if (r->bp)
		run_to_break(r->h, &r->f, r->bp, r->o.brk, r->end, &r->hit);
	else
		run_progress_until("run", r->e, r->h, r->end);
	r->wall = run_wall_ns() - t0;
	if (r->o.rewind_check && !run_interrupts())
		run_rewind_check(r);
	run_stats_finish(&r->rs, sched_now(r->e));
	if (r->vs)
		run_vs_run(r->vs, run_interrupts() ? sched_now(r->e) : r->end, sched_now(r->e));
}

/* The report, the expects' verdicts, the state dump: on stdout. */
static void run_print(struct run *r)
{
	const struct scenario_file *f = &r->f;
	char **msg = xcalloc((size_t)f->nr_expects + 1, sizeof(*msg));
	bool *ok = xcalloc((size_t)f->nr_expects + 1, sizeof(*ok));

	if (r->o.check)
		r->failed += run_stats_check(&r->rs, f, msg, ok);

	struct report rep = {
		f, r->e, &r->rs.st[0], r->wall, r->o.check ? f->nr_expects : 0, (const char *const *)msg, ok
	};
	if (r->o.report && !strcmp(r->o.report, "json")) {
		report_json(stdout, &rep);
	} else if (r->o.report || (!r->o.check && !r->o.brk)) {
		report_text(stdout, &rep);
		if (r->vs)
			run_vs_report_text(r->vs, stdout, r->wall);
	} else if (r->o.check) {
		for (int i = 0; i < f->nr_expects; i++)
			printf("%s\n", msg[i]);
	}
	if (r->o.check && r->vs)
		r->failed += run_vs_check(r->vs, stdout);
	/* a breakpoint hit shows the state it stopped in */
	if (r->o.dump_state && !strcmp(r->o.dump_state, "json"))
		state_dump_json(stdout, r->e);
	else if (r->o.dump_state || r->hit)
		state_dump_text(stdout, r->e);
	for (int i = 0; i < f->nr_expects; i++)
		free(msg[i]);
	free(msg);
	free(ok);
}

/* Closes the outputs (committed, or given up after a failure or Ctrl-C) and frees; the exit status. */
static int run_close(struct run *r, int rc)
{
	/* a failed write shows in the FILE, where the commit prints it; other failures here.
	 * B's writes into A's document: it closes first. */
	if (run_vs_close_trace(r->vs) | (r->tw && trace_ftrace_close(r->tw)) |
		    (r->pw && trace_perfetto_close(r->pw, sched_now(r->e))) &&
	    !ferror(r->tf.f)) {
		fprintf(stderr, "schedscope: %s: cannot write: the trace writer failed\n", r->o.trace);
		rc = 2;
	}
	/* after a failure or Ctrl-C, no partial file replaces the old one */
	if (r->tf.f && (rc >= 2 ? (outfile_abort(&r->tf), 0) : outfile_commit(&r->tf)))
		rc = 2;
	if (r->pf.f && (rc >= 2 ? (outfile_abort(&r->pf), 0) : outfile_commit(&r->pf)))
		rc = 2;
	breakpoint_free(r->bp);
	run_vs_free(r->vs);
	run_stats_free(&r->rs);
	history_destroy(r->h);
	sched_engine_destroy(r->e);
	scenario_free(&r->f);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run r = { .o = { .check_invariants = CHECK_INVARIANTS_DEFAULT,
				.history_budget = HISTORY_DEFAULT_BUDGET },
			 .tf = { .slot = -1 },
			 .pf = { .slot = -1 } };
	int rc = parse_run_args(argc, argv, &r.o, &r.f, &r.path);

	if (rc || (rc = run_check(&r)))
		return rc;
	/* before any output is opened, so that its handler passes Ctrl-C on to ours */
	if ((rc = run_setup(&r)) || (run_catch_interrupt(), rc = run_open_outputs(&r)))
		return run_close(&r, rc);
	run_execute(&r);
	run_print(&r);
	rc = r.failed ? 1 : 0;
	if (run_interrupts()) {
		fprintf(stderr,
			"schedscope: %s: interrupted at %.3f s of %.3f s: the report is the run so far%s\n",
			r.path, (double)sched_now(r.e) / 1e9, (double)r.end / 1e9,
			r.tf.tmp || r.pf.tmp ? "; no file written (the old one kept)" : "");
		rc = 130;
	}
	return run_close(&r, rc);
}
