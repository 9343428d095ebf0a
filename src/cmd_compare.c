// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope compare A.scn [B.scn] [--vs-set KEY=VALUE]...`: run A and B
 * (once, or once per seed), each its own engine, and report their metrics
 * side by side with the difference, where they first decide differently,
 * and whether --fail-if conditions on the difference hold.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "cli.h"
#include "src/analysis/compare_report.h"
#include "src/analysis/diverge.h"
#include "src/analysis/metrics.h"
#include "src/analysis/stats.h"
#include "src/base/mem.h"
#include "src/format/lex.h"
#include "src/trace/trace_ftrace.h"
#include "src/trace/trace_log.h"

#define MAX_FAIL_IF 32
/* The two engines advance together this far at a time while their first
 * divergence is sought, so that neither gets far ahead of the other. */
#define LOCKSTEP_NS 10000000ULL

struct compare_opts {
	struct cli_sets sets;
	struct variant v;
	const char *path;
	u64 from, to;
	bool has_window;
	u64 seed_first, seed_last;
	bool has_seeds;
	bool json;
	int nr_fail_if;
	struct diff_expr fail_if[MAX_FAIL_IF];
};

static int parse_seeds(const char *s, struct compare_opts *o)
{
	const char *dots = strstr(s, "..");

	if (!dots || parse_u64(s, (size_t)(dots - s), &o->seed_first) != PARSE_OK ||
	    parse_u64(dots + 2, strlen(dots + 2), &o->seed_last) != PARSE_OK ||
	    o->seed_first > o->seed_last || o->seed_last - o->seed_first >= 10000)
		return cli_usage_error("--seeds: '%s' is not FIRST..LAST with FIRST <= LAST (e.g. 1..10), "
				       "at most 10000 seeds",
				       s);
	o->has_seeds = true;
	return 0;
}

static int add_fail_if(const char *s, struct compare_opts *o)
{
	char err[256];
	u32 col;

	if (o->nr_fail_if == MAX_FAIL_IF)
		return cli_usage_error("--fail-if: more than %d", MAX_FAIL_IF);
	if (diff_expr_parse(s, strlen(s), &o->fail_if[o->nr_fail_if], &col, err, sizeof(err)) < 0) {
		fprintf(stderr, "schedscope: --fail-if:1:%u: %s\n  %s\n  %*s^\n", col, err, s, (int)col - 1,
			"");
		return 2;
	}
	o->nr_fail_if++;
	return 0;
}

static int parse_compare_args(int argc, char **argv, struct compare_opts *o)
{
	static const struct option opts[] = {
		{ "vs", required_argument, NULL, 'v' },
		{ "vs-set", required_argument, NULL, 'V' },
		{ "window", required_argument, NULL, 'w' },
		{ "seeds", required_argument, NULL, 'N' },
		{ "report", required_argument, NULL, 'r' },
		{ "fail-if", required_argument, NULL, 'f' },
		{ "seed", required_argument, NULL, 's' },
		{ "set", required_argument, NULL, 'S' },
		{ "param", required_argument, NULL, 'p' },
		{ "vs-param", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		int rc = 0;

		switch (c) {
		case 'v':
		case 'V':
		case 'P':
			rc = c == 'P' ? cli_add_vs_param(&o->v, optarg)
				      : cli_add_variant(&o->v, optarg, c == 'v');
			break;
		case 'w':
			if (cli_parse_window(optarg, &o->from, &o->to))
				return cli_usage_error("--window: '%s' is not A..B with A < B (e.g. 1s..10s)",
						       optarg);
			o->has_window = true;
			break;
		case 'N':
			rc = parse_seeds(optarg, o);
			break;
		case 'r':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cli_usage_error("--report: '%s' is not text or json", optarg);
			o->json = !strcmp(optarg, "json");
			break;
		case 'f':
			rc = add_fail_if(optarg, o);
			break;
		case 's':
		case 'S':
			rc = cli_add_set(&o->sets, optarg, c == 's');
			break;
		case 'p':
			rc = cli_add_param(&o->sets, optarg);
			break;
		default:
			return cli_usage_error("compare: unknown option '%s'", argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	if (optind == argc || argc - optind > 2)
		return cli_usage_error("compare: expected A.scn and at most one B.scn");
	o->path = argv[optind];
	if (argc - optind == 2 && cli_add_variant(&o->v, argv[optind + 1], true))
		return 2;
	return 0;
}

/* One side of one seed's comparison. */
struct side {
	struct scenario_file f;
	struct sched_engine *e;
	struct stats st;
	struct metrics m;
	struct trace_ftrace_opts fo;
};

static void side_free(struct side *s)
{
	metrics_free(&s->m);
	stats_free(&s->st);
	if (s->e)
		sched_engine_destroy(s->e);
	scenario_free(&s->f);
}

/* "[001] sched_switch: prev_comm=..." as the trace would show the event. */
static char *event_line(const struct side *s, const struct sched_event *ev)
{
	char fields[512];
	char *line = xmalloc(600);

	trace_ftrace_fields(&s->fo, ev, fields, sizeof(fields));
	snprintf(line, 600, "[%03d] %.9f %s: %s", ev->cpu, (double)ev->time / 1e9,
		 sched_name_of(sched_event_names, NR_SCHED_EVENTS, ev->type), fields);
	return line;
}

static int side_start(struct side *s, const char *path, u64 from, u64 to)
{
	char err[512];

	s->e = sched_engine_create(&s->f.sc, err, sizeof(err));
	if (!s->e) {
		fprintf(stderr, "schedscope: %s: %s\n", path, err);
		return 2;
	}
	stats_init_scenario(&s->st, &s->f.sc, from, to);
	sched_add_listener(s->e, stats_event, &s->st);
	trace_ftrace_opts_for(&s->fo, s->e);
	s->fo.full_comm = true;
	return 0;
}

/*
 * Run both sides to `end`, in step while the first divergence is sought
 * (first seed only: div NULL for the others).
 */
static void run_pair(struct side *sd, u64 end, struct diverge *div)
{
	if (div) {
		diverge_run_pair(sd[0].e, sd[1].e, end, div, LOCKSTEP_NS);
	} else {
		sched_run_until(sd[0].e, end);
		sched_run_until(sd[1].e, end);
	}
	for (int s = 0; s < 2; s++) {
		stats_finish(&sd[s].st, sched_now(sd[s].e));
		metrics_from_stats(&sd[s].m, &sd[s].st, sd[s].f.task_names);
	}
}

/* A comparison over every seed: what was asked, the sums so far, the first divergence. */
struct compare_run {
	struct compare_opts o;
	struct compare c;
	struct compare_report r;
	char la[VARIANT_LABEL_MAX], lb[VARIANT_LABEL_MAX];
	char *line[2]; /* the first divergence's events, as text */
	bool file_vs;  /* side B is the scenario's own `vs` lines */
};

/* Both sides' scenarios for seed k; 2 (printed, nothing left loaded) on error. */
static int load_sides(struct compare_run *cr, int k, struct side sd[2])
{
	struct compare_opts *o = &cr->o;
	struct cli_sets sets = o->sets;

	if (o->has_seeds) {
		char seed[32];

		snprintf(seed, sizeof(seed), "%llu", (unsigned long long)(o->seed_first + (u64)k));
		if (cli_add_set(&sets, seed, true))
			return 2;
	}
	if (cli_load_scenario_sets(o->path, &sets, &sd[0].f))
		return 2;
	/* the scenario's own `vs` lines, unless the command line says what B is */
	if (k == 0 && !variant_given(&o->v)) {
		cr->file_vs = true;
		if (!sd[0].f.nr_vs) {
			side_free(&sd[0]);
			return cli_usage_error("compare: nothing to compare %s with (give B.scn, --vs, "
					       "--vs-set or --vs-param, or `vs` lines in the scenario)",
					       o->path);
		}
	}
	if (cr->file_vs)
		variant_from_file(&o->v, &sd[0].f);
	if (cli_load_variant(o->path, &sets, &o->v, &sd[0].f, &sd[1].f)) {
		side_free(&sd[0]);
		return 2;
	}
	return 0;
}

/* The first seed sets the labels, the seeds and the window every seed uses. */
static void first_seed(struct compare_run *cr, const struct scenario_file *a)
{
	struct compare_opts *o = &cr->o;
	struct compare_report *r = &cr->r;

	/* now: with the file's `vs` lines, v points into A's scenario */
	variant_labels(&o->v, o->path, cr->la, cr->lb);
	r->seed_first = a->sc.seed;
	r->seed_last = r->seed_first + (u64)cr->c.nr_seeds - 1;
	r->from = o->has_window ? o->from : 0;
	/* A's run ends at its duration: a window past it ends there too */
	r->to = o->has_window && o->to < a->sc.duration ? o->to : a->sc.duration;
}

/* Seed k: both sides run and added up; the first divergence looked for on the first. */
static int compare_seed(struct compare_run *cr, int k)
{
	struct compare_report *r = &cr->r;
	struct side sd[2];
	struct diverge div;
	int rc;

	memset(sd, 0, sizeof(sd));
	rc = load_sides(cr, k, sd);
	if (rc)
		return rc;
	if (k == 0)
		first_seed(cr, &sd[0].f);
	if (side_start(&sd[0], cr->o.path, r->from, r->to) ||
	    side_start(&sd[1], variant_path(&cr->o.v, cr->o.path), r->from, r->to)) {
		side_free(&sd[0]);
		side_free(&sd[1]);
		return 2;
	}
	if (k == 0)
		diverge_init(&div, 0, r->to);
	run_pair(sd, r->to, k == 0 ? &div : NULL);
	if (k == 0 && div.found) {
		r->diverged = true;
		r->div_time = div.d.time;
		for (int s = 0; s < 2; s++)
			if (div.d.has[s])
				cr->line[s] = event_line(&sd[s], &div.d.ev[s]);
	}
	if (k == 0)
		diverge_free(&div);
	compare_add(&cr->c, k, &sd[0].m, &sd[1].m);
	side_free(&sd[0]);
	side_free(&sd[1]);
	return 0;
}

/* The table, text or JSON; 1 if a --fail-if holds. */
static int compare_print(struct compare_run *cr)
{
	struct compare_report *r = &cr->r;

	r->label[0] = cr->la;
	r->label[1] = cr->lb;
	r->path[0] = cr->o.path;
	r->path[1] = variant_path(&cr->o.v, cr->o.path);
	r->c = &cr->c;
	r->event[0] = cr->line[0];
	r->event[1] = cr->line[1];
	r->nr_fail_if = cr->o.nr_fail_if;
	r->fail_if = cr->o.fail_if;
	if (cr->o.json)
		compare_report_json(stdout, r);
	else
		compare_report_text(stdout, r);
	return compare_report_failed(r) ? 1 : 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_run cr = { 0 };
	int rc = parse_compare_args(argc, argv, &cr.o);

	if (rc)
		return rc;
	compare_init(&cr.c, cr.o.has_seeds ? (int)(cr.o.seed_last - cr.o.seed_first + 1) : 1);
	for (int k = 0; k < cr.c.nr_seeds && !rc; k++)
		rc = compare_seed(&cr, k);
	if (!rc)
		rc = compare_print(&cr);
	free(cr.line[0]);
	free(cr.line[1]);
	compare_free(&cr.c);
	return rc;
}
