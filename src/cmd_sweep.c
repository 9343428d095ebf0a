// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope sweep SCENARIO... [axes] [--jobs N] [--shard I/N] [--out FILE]
 * [--plot FILE]`: run every cell of a matrix of scenarios, machines, kernel
 * releases, settings and seeds, one process per cell, then print the table
 * (or the pass/fail matrix). `schedscope sweep merge PART.json...` joins
 * the shards that batch jobs ran into the same table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "src/analysis/sweep_table.h"
#include "src/base/mem.h"
#include "src/base/outfile.h"
#include "src/format/lex.h"
#include "src/format/topology_file.h"
#include "src/plot/sweep_chart.h"
#include "sweep_jobs.h"

#define MAX_LIST 4096
#define MAX_OUTS 8

/* The releases `--kernel all` runs, by fair class: LTS releases and the newest. */
static const char *const cfs_releases[] = { "4.19", "5.15", "6.1" };
static const char *const eevdf_releases[] = { "6.6", "6.12", "6.19" };

/* One axis as given on the command line. */
struct axis_arg {
	int kind;
	char key[64];
	int n;
	char *value[MAX_LIST];
	char *text; /* the list, split in place */
};

struct sweep_opts {
	int nr_axes;
	struct axis_arg axis[SWEEP_MAX_AXES - 1]; /* the seeds come last, apart */
	struct axis_arg seeds;
	int nr_vs;
	const char *vs[SWEEP_MAX_VS];
	bool has_window;
	u64 from, to;
	int jobs;
	int shard, nr_shards;
	int nr_outs;
	const char *out[MAX_OUTS];
	const char *plot;
	struct chart_opts chart;
	bool matrix;
};

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* Is KEY=VALUE something --set takes? Checked on a scratch scenario. */
static int check_set(const char *opt, const char *kv)
{
	static const char scratch[] = "topology packages=1 cores=1\n";
	struct scenario_file f;
	char err[512];

	if (scenario_parse("--set", scratch, sizeof(scratch) - 1, &f, err, sizeof(err)) < 0)
		return cli_usage_error("%s", err);
	int r = scenario_set(&f, kv, err, sizeof(err));
	scenario_free(&f);
	if (r < 0)
		return cli_usage_error("%s %s: %s", opt, kv, err);
	return 0;
}

static struct axis_arg *add_axis(struct sweep_opts *o, int kind, const char *key, size_t keylen,
				 const char *list)
{
	struct axis_arg *a;

	if (o->nr_axes == SWEEP_MAX_AXES - 1) {
		cli_usage_error("sweep: more than %d swept settings", SWEEP_MAX_AXES - 1);
		return NULL;
	}
	a = &o->axis[o->nr_axes++];
	a->kind = kind;
	snprintf(a->key, sizeof(a->key), "%.*s", (int)keylen, key);
	a->text = xstrdup(list);
	for (char *save = NULL, *v = strtok_r(a->text, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (a->n == MAX_LIST) {
			cli_usage_error("sweep: more than %d values in '%.40s...'", MAX_LIST, list);
			return NULL;
		}
		a->value[a->n++] = v;
	}
	if (!a->n) {
		cli_usage_error("sweep: '%s' lists no values", list);
		return NULL;
	}
	return a;
}

/* KEY=V1,V2 (for --set and --param). */
static int add_keyed(struct sweep_opts *o, int kind, const char *opt, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct axis_arg *a;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(a->key))
		return cli_usage_error("%s: '%s' is not %s=V1,V2,...", opt, arg,
				       kind == SWEEP_SET ? "KEY" : "NAME");
	if (!(a = add_axis(o, kind, arg, (size_t)(eq - arg), eq + 1)))
		return 2;
	for (int i = 0; i < a->n; i++) {
		char kv[300];

		if (kind == SWEEP_PARAM) {
			if (!param_name_valid(arg, (size_t)(eq - arg)))
				return cli_usage_error("--param: bad parameter name '%s'", a->key);
			if (!param_value_valid(a->value[i], strlen(a->value[i])))
				return cli_usage_error("--param %s: '%s' is not one plain word", a->key,
						       a->value[i]);
			continue;
		}
		snprintf(kv, sizeof(kv), "%s=%s", a->key, a->value[i]);
		if (check_set(opt, kv))
			return 2;
	}
	return 0;
}

static int add_machine(struct sweep_opts *o, int kind, const char *arg)
{
	struct axis_arg *a =
		add_axis(o, kind, sweep_axis_kind_names[kind], strlen(sweep_axis_kind_names[kind]), arg);

	if (!a)
		return 2;
	for (int i = 0; i < a->n && kind != SWEEP_TOPOLOGY; i++) {
		char kv[300];

		if (!strcmp(a->value[i], SWEEP_OWN) || (kind == SWEEP_KERNEL && !strcmp(a->value[i], "all")))
			continue;
		snprintf(kv, sizeof(kv), "%s=%s", a->key, a->value[i]);
		if (check_set(kind == SWEEP_KERNEL ? "--kernel" : "--sched", kv))
			return 2;
	}
	return 0;
}

/* "A..B" of seeds, or one seed. */
static int add_seeds(struct sweep_opts *o, const char *arg)
{
	char *end;
	unsigned long long a = strtoull(arg, &end, 10), b = a;
	char list[64];

	if (end != arg && !strncmp(end, "..", 2)) {
		const char *s = end + 2;
		b = strtoull(s, &end, 10);
		if (end == s)
			end = (char *)"x";
	}
	if (end == arg || *end || arg[0] == '-' || b < a || b - a >= MAX_LIST)
		return cli_usage_error("--seeds: '%s' is not A..B with A <= B (at most %d seeds)", arg,
				       MAX_LIST);
	struct axis_arg *x = &o->seeds;
	if (x->n)
		return cli_usage_error("--seeds: given twice");
	x->kind = SWEEP_SEED;
	snprintf(x->key, sizeof(x->key), "seed");
	x->text = xmalloc((size_t)(b - a + 1) * 24);
	size_t k = 0;
	for (unsigned long long s = a; s <= b; s++) {
		snprintf(list, sizeof(list), "%llu", s);
		x->value[x->n++] = strcpy(x->text + k, list);
		k += strlen(list) + 1;
	}
	return 0;
}

static int add_out(struct sweep_opts *o, const char *path)
{
	size_t n = strlen(path);

	if (o->nr_outs == MAX_OUTS)
		return cli_usage_error("--out: at most %d files", MAX_OUTS);
	if (!(n > 5 && !strcmp(path + n - 5, ".json")) && !(n > 4 && !strcmp(path + n - 4, ".csv")))
		return cli_usage_error("--out: '%s' is neither FILE.json nor FILE.csv", path);
	o->out[o->nr_outs++] = path;
	return 0;
}

static void free_opts(struct sweep_opts *o)
{
	for (int i = 0; i < o->nr_axes; i++)
		free(o->axis[i].text);
	free(o->seeds.text);
}

enum {
	O_TOPOLOGY = 256,
	O_KERNEL,
	O_SCHED,
	O_SEEDS,
	O_SET,
	O_PARAM,
	O_VS_SET,
	O_WINDOW,
	O_JOBS,
	O_OUT,
	O_SHARD,
	O_PLOT,
	O_METRIC,
	O_ROW,
	O_MATRIX,
};

/* Options sweep and merge share: outputs. Returns 0, 2, or 1 when not one of them. */
static int output_option(struct sweep_opts *o, int c)
{
	switch (c) {
	case O_OUT:
		return add_out(o, optarg);
	case O_PLOT:
		o->plot = optarg;
		return 0;
	case O_METRIC:
		if ((o->chart.metric = sweep_metric_lookup(optarg)) < 0)
			return cli_usage_error(
				"--metric: '%s' is not share, wait, p50, p99, migrations or throttled",
				optarg);
		return 0;
	case O_ROW:
		o->chart.row = optarg;
		return 0;
	case O_MATRIX:
		o->matrix = true;
		return 0;
	}
	return 1;
}

static const struct option sweep_options[] = {
	{ "topology", required_argument, NULL, O_TOPOLOGY }, { "kernel", required_argument, NULL, O_KERNEL },
	{ "sched", required_argument, NULL, O_SCHED },	     { "seeds", required_argument, NULL, O_SEEDS },
	{ "set", required_argument, NULL, O_SET },	     { "param", required_argument, NULL, O_PARAM },
	{ "vs-set", required_argument, NULL, O_VS_SET },     { "window", required_argument, NULL, O_WINDOW },
	{ "jobs", required_argument, NULL, O_JOBS },	     { "out", required_argument, NULL, O_OUT },
	{ "shard", required_argument, NULL, O_SHARD },	     { "plot", required_argument, NULL, O_PLOT },
	{ "metric", required_argument, NULL, O_METRIC },     { "row", required_argument, NULL, O_ROW },
	{ "matrix", no_argument, NULL, O_MATRIX },	     { NULL, 0, NULL, 0 },
};

static int parse_sweep_args(int argc, char **argv, struct sweep_opts *o)
{
	int c, rc;

	o->jobs = sweep_default_jobs();
	o->shard = o->nr_shards = 1;
	o->chart.metric = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", sweep_options, NULL)) != -1) {
		rc = output_option(o, c);
		if (rc != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		switch (c) {
		case O_TOPOLOGY:
			rc = add_machine(o, SWEEP_TOPOLOGY, optarg);
			break;
		case O_KERNEL:
			rc = add_machine(o, SWEEP_KERNEL, optarg);
			break;
		case O_SCHED:
			rc = add_machine(o, SWEEP_SCHED, optarg);
			break;
		case O_SEEDS:
			rc = add_seeds(o, optarg);
			break;
		case O_SET:
			rc = add_keyed(o, SWEEP_SET, "--set", optarg);
			break;
		case O_PARAM:
			rc = add_keyed(o, SWEEP_PARAM, "--param", optarg);
			break;
		case O_VS_SET:
			if (o->nr_vs == SWEEP_MAX_VS)
				return cli_usage_error("--vs-set: at most %d", SWEEP_MAX_VS);
			rc = check_set("--vs-set", optarg);
			o->vs[o->nr_vs++] = optarg;
			break;
		case O_WINDOW:
			if (cli_parse_window(optarg, &o->from, &o->to))
				return cli_usage_error("--window: '%s' is not A..B with A < B (e.g. 1s..10s)",
						       optarg);
			o->has_window = true;
			break;
		case O_JOBS: {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 1024)
				return cli_usage_error("--jobs: '%s' is not a count 1..1024", optarg);
			o->jobs = (int)n;
			break;
		}
		case O_SHARD: {
			char *end;
			long i = strtol(optarg, &end, 10), n = 0;
			if (*end == '/')
				n = strtol(end + 1, &end, 10);
			if (*end || n < 1 || i < 1 || i > n || n > SWEEP_MAX_CELLS)
				return cli_usage_error("--shard: '%s' is not I/N with 1 <= I <= N", optarg);
			o->shard = (int)i;
			o->nr_shards = (int)n;
			break;
		}
		default:
			return cli_usage_error("sweep: unknown option '%s'", argv[optind - 1]);
		}
		if (rc)
			return rc;
	}
	if (optind == argc)
		return cli_usage_error("sweep: expected SCENARIO files");
	return 0;
}

/* ---- the plan ---- */

/* What the plan needs to know of a scenario: its own machine and release. */
struct scenario_info {
	bool loaded;
	char topology[64];
	char kernel[16];
	bool cfs;
};

static void scenario_info(const char *path, struct scenario_info *si)
{
	struct scenario_file f;
	char err[1024];

	memset(si, 0, sizeof(*si));
	if (scenario_load(path, &f, err, sizeof(err)) < 0)
		return; /* its cells say why */
	si->loaded = true;
	snprintf(si->topology, sizeof(si->topology), "%s", f.topo.name);
	sched_kernel_name(si->kernel, sizeof(si->kernel), f.sc.kernel, f.sc.kernel_stable);
	si->cfs = f.sc.variant == SCHED_VARIANT_CFS;
	scenario_free(&f);
}

static int kernel_cmp(const void *a, const void *b)
{
	unsigned x1 = 0, y1 = 0, x2 = 0, y2 = 0;

	sscanf(*(char *const *)a, "%u.%u", &x1, &y1);
	sscanf(*(char *const *)b, "%u.%u", &x2, &y2);
	return x1 != x2 ? (x1 < x2 ? -1 : 1) : (y1 < y2 ? -1 : y1 > y2);
}

/* Add a value unless the list has it. */
static void push(const char **list, int *n, const char *v)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(list[i], v))
			return;
	if (*n < MAX_LIST)
		list[(*n)++] = v;
}

/* One axis's values for one scenario: `own` and `all` made concrete. */
static int expand_values(const struct axis_arg *a, const struct scenario_info *si, char **shipped,
			 int nr_shipped, const char **out)
{
	int n = 0;

	for (int i = 0; i < a->n; i++) {
		const char *v = a->value[i];

		if (a->kind == SWEEP_TOPOLOGY && !strcmp(v, "all")) {
			bool own_shipped = false;
			for (int k = 0; k < nr_shipped; k++)
				own_shipped |= si->loaded && !strcmp(shipped[k], si->topology);
			/* the scenario's own machine first when it is none of the shipped ones */
			if (!own_shipped)
				push(out, &n, SWEEP_OWN);
			for (int k = 0; k < nr_shipped; k++)
				push(out, &n, shipped[k]);
		} else if (a->kind == SWEEP_TOPOLOGY && !strcmp(v, SWEEP_OWN) && si->loaded) {
			/* own is the file's name when that name is in the list too */
			bool listed = false;
			for (int k = 0; k < a->n; k++)
				listed |= !strcmp(a->value[k], si->topology);
			if (!listed)
				push(out, &n, SWEEP_OWN);
		} else if (a->kind == SWEEP_KERNEL && !strcmp(v, "all")) {
			const char *const *rel = si->cfs ? cfs_releases : eevdf_releases;
			int first = n;
			for (int k = 0; k < 3; k++)
				push(out, &n, rel[k]);
			if (si->loaded)
				push(out, &n, si->kernel);
			qsort(out + first, (size_t)(n - first), sizeof(*out), kernel_cmp);
		} else if (a->kind == SWEEP_KERNEL && !strcmp(v, SWEEP_OWN) && si->loaded) {
			push(out, &n, si->kernel);
		} else {
			push(out, &n, v);
		}
	}
	return n;
}

static int build_plan(struct sweep_opts *o, char **paths, int nr_paths, struct sweep_plan *p)
{
	const struct axis_arg *axes[SWEEP_MAX_AXES];
	const char **vals[SWEEP_MAX_AXES] = { 0 };
	int nr_axes = 0, rc = 0;

	sweep_plan_init(p);
	for (int a = 0; a < o->nr_axes; a++)
		axes[nr_axes++] = &o->axis[a];
	if (o->seeds.n)
		axes[nr_axes++] = &o->seeds;
	for (int a = 0; a < nr_axes; a++) {
		sweep_plan_add_axis(p, axes[a]->kind, axes[a]->key);
		vals[a] = xcalloc(MAX_LIST, sizeof(*vals[a]));
	}
	for (int i = 0; i < o->nr_vs; i++)
		p->vs_set[p->nr_vs++] = xstrdup(o->vs[i]);
	p->has_window = o->has_window;
	p->from = o->from;
	p->to = o->to;
	for (int s = 0; s < nr_paths && !rc; s++) {
		struct scenario_info si;
		char **shipped = NULL;
		int nr_shipped = 0, nr[SWEEP_MAX_AXES];
		char *const *pv[SWEEP_MAX_AXES];

		scenario_info(paths[s], &si);
		topology_list(paths[s], &shipped, &nr_shipped);
		for (int a = 0; a < nr_axes && !rc; a++) {
			nr[a] = expand_values(axes[a], &si, shipped, nr_shipped, vals[a]);
			pv[a] = (char *const *)vals[a];
		}
		if (!rc && sweep_plan_add_scenario(p, paths[s], nr, pv) < 0)
			rc = cli_usage_error("sweep: more than %d cells", SWEEP_MAX_CELLS);
		for (int a = 0; a < nr_axes && !rc && si.loaded; a++) {
			if (axes[a]->kind == SWEEP_TOPOLOGY)
				sweep_plan_set_own(p, a, si.topology);
			else if (axes[a]->kind == SWEEP_KERNEL)
				sweep_plan_set_own(p, a, si.kernel);
		}
		for (int k = 0; k < nr_shipped; k++)
			free(shipped[k]);
		free(shipped);
	}
	for (int a = 0; a < nr_axes; a++)
		free(vals[a]);
	return rc ? 2 : 0;
}

/* ---- progress ---- */

struct progress {
	bool tty;
	int total, done;
	int count[NR_CELL_STATUS];
	u64 start;
};

static void progress_done(void *ctx, const struct sweep_results *r, int cell, int running)
{
	struct progress *pg = ctx;
	const struct sweep_cell *c = &r->cell[cell];
	const struct sweep_plan *p = &r->plan;

	pg->done++;
	pg->count[c->status]++;
	if (!pg->tty) {
		struct sweep_coord co;
		char label[256];

		sweep_coord(p, cell, &co);
		sweep_variant_label(p, &co, label, sizeof(label));
		int a = p->nr_axes - 1;
		fprintf(stderr, "sweep: %d/%d %s%s%s%s%s: %s%s%s\n", pg->done, pg->total,
			p->scen[co.scen].label, label[0] ? " " : "", label,
			a >= 0 && p->axis[a].kind == SWEEP_SEED ? " seed=" : "",
			a >= 0 && p->axis[a].kind == SWEEP_SEED ? sweep_value(p, &co, a) : "",
			sweep_status_names[c->status], c->message ? ": " : "", c->message ? c->message : "");
		return;
	}
	double el = (double)(now_ns() - pg->start) / 1e9;
	double eta = el / pg->done * (pg->total - pg->done);
	fprintf(stderr, "\rsweep: %d/%d cells, %d failed, %d n/a, %d errors, %d running, ETA %d:%02d\033[K",
		pg->done, pg->total, pg->count[CELL_FAIL], pg->count[CELL_NA], pg->count[CELL_ERROR], running,
		(int)eta / 60, (int)eta % 60);
	if (pg->done == pg->total)
		fprintf(stderr, "\r\033[K");
}

/* ---- outputs and the exit status ---- */

/*
 * Tries every --out before the work, so a path that cannot be written is
 * refused first. Only a try (opened, then given up): the cells run in
 * forked workers, whose exit would remove a temporary file held open.
 * A FIFO or device is not tried: opening it twice would end its reader.
 */
static int check_outputs(const struct sweep_opts *o)
{
	for (int i = 0; i < o->nr_outs; i++) {
		struct outfile f;
		struct stat st;

		if (!stat(o->out[i], &st) && !S_ISREG(st.st_mode))
			continue;
		if (outfile_open(&f, o->out[i]))
			return 2;
		outfile_abort(&f);
	}
	return 0;
}

static int write_outputs(const struct sweep_opts *o, const struct sweep_results *r)
{
	struct sweep_variant *v = NULL;
	int nv = 0, count[NR_CELL_STATUS], rc = 0;

	sweep_variants(r, &v, &nv);
	/* the matrix instead of the table: the details are in --out */
	if (o->matrix)
		sweep_matrix_text(stdout, r);
	else
		sweep_table_text(stdout, r, v, nv);
	for (int i = 0; i < o->nr_outs; i++) {
		const char *path = o->out[i];
		size_t n = strlen(path);
		struct outfile f;

		/* an existing file is replaced whole or not at all (src/base/outfile.h) */
		if (outfile_open(&f, path)) {
			rc = 2;
			continue;
		}
		int bad = n > 4 && !strcmp(path + n - 4, ".csv") ? sweep_write_csv(f.f, r)
								 : sweep_write_json(f.f, r);
		if (bad && !ferror(f.f)) {
			fprintf(stderr, "schedscope: %s: cannot write: the results are incomplete\n", path);
			outfile_abort(&f);
			rc = 2;
		} else if (outfile_commit(&f)) {
			rc = 2;
		}
	}
	if (o->plot && sweep_chart_write(o->plot, r, v, nv, &o->chart) < 0)
		rc = 2;
	sweep_variants_free(v, nv);

	sweep_count(r, count);
	int total = count[0] + count[1] + count[2] + count[3];
	printf("\nsweep: %d cell%s%s:", total, total == 1 ? "" : "s", r->nr_shards > 1 ? " (one shard)" : "");
	for (int s = 0, k = 0; s < NR_CELL_STATUS; s++)
		if (count[s] || s == CELL_OK)
			printf("%s %d %s", k++ ? "," : "", count[s],
			       s == CELL_FAIL ? "failed" : sweep_status_names[s]);
	printf("\n");
	fflush(stdout);
	if (rc || count[CELL_ERROR])
		return 2;
	return count[CELL_FAIL] ? 1 : 0;
}

static int cmd_sweep_merge(int argc, char **argv)
{
	struct sweep_opts o = { .chart.metric = -1 };
	struct sweep_results all = { 0 };
	char err[1024];
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", sweep_options, NULL)) != -1) {
		rc = output_option(&o, c);
		if (rc == 1)
			return cli_usage_error(
				"sweep merge: '%s' is not an option of merge (--out, --plot, --metric, "
				"--row, --matrix)",
				argv[optind - 1]);
		if (rc)
			return rc;
	}
	if (optind == argc)
		return cli_usage_error("sweep merge: expected PART.json files");
	if (check_outputs(&o))
		return 2;
	for (int i = optind; i < argc; i++) {
		struct sweep_results part;

		if (sweep_read_json(argv[i], i == optind ? &all : &part, err, sizeof(err)) < 0) {
			fprintf(stderr, "schedscope: %s\n", err);
			sweep_results_free(&all);
			return 2;
		}
		if (i == optind)
			continue;
		rc = sweep_merge(&all, &part, err, sizeof(err));
		sweep_results_free(&part);
		if (rc < 0) {
			fprintf(stderr, "schedscope: %s: %s\n", argv[i], err);
			sweep_results_free(&all);
			return 2;
		}
	}
	int missing = sweep_missing(&all, err, sizeof(err));
	if (missing) {
		fprintf(stderr,
			"schedscope: sweep merge: %d of %d cells are missing (%s): is a shard left out?\n",
			missing, all.plan.nr_cells, err);
		sweep_results_free(&all);
		return 2;
	}
	all.shard = all.nr_shards = 1;
	rc = write_outputs(&o, &all);
	sweep_results_free(&all);
	return rc;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_opts o = { 0 };
	struct sweep_results r = { 0 };
	int rc;

	if (argc > 1 && !strcmp(argv[1], "merge"))
		return cmd_sweep_merge(argc - 1, argv + 1);
	rc = parse_sweep_args(argc, argv, &o);
	if (!rc)
		rc = build_plan(&o, argv + optind, argc - optind, &r.plan);
	free_opts(&o);
	if (rc) {
		sweep_plan_free(&r.plan);
		return rc;
	}
	if (check_outputs(&o)) {
		sweep_plan_free(&r.plan);
		return 2;
	}
	r.shard = o.shard;
	r.nr_shards = o.nr_shards;
	sweep_results_alloc(&r);
	struct progress pg = { isatty(STDERR_FILENO), 0, 0, { 0 }, now_ns() };
	for (int c = 0; c < r.plan.nr_cells; c++)
		pg.total += sweep_in_shard(c, r.shard, r.nr_shards);
	if (sweep_jobs_run(&r, o.jobs, progress_done, &pg) < 0) {
		sweep_results_free(&r);
		return 2;
	}
	rc = write_outputs(&o, &r);
	sweep_results_free(&r);
	return rc;
}
