// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope topology FILE|NAME|KEY=VALUE... [--format text|json] [--hz N] [--cpu N]
 * [--kernel X.Y]`: build the sched domains of a machine (sched/topology.c), as
 * that release does, and print them,
 * per CPU as the kernel's sched_domain debug output does ("CPU0 attaching
 * sched-domain(s): domain-0: span=0-3 level=MC ..."), with flags, balance
 * parameters and groups, after a summary of the levels.
 *
 * `schedscope topology --host [--sysroot DIR]` prints this machine's topology,
 * read from DIR/sys (default /sys), as a .topo file (src/host_topology.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/topology.h"
#include "cli.h"
#include "src/format/host_topology.h"
#include "src/base/json.h"
#include "src/base/mem.h"
#include "src/format/lex.h"
#include "src/format/topology_file.h"

#define CPULIST_MAX (6 * SCHED_MAX_CPUS + 1)

static const char *cpulist(const struct cpumask *m)
{
	static char buf[CPULIST_MAX];
	cpumask_format_list(buf, sizeof(buf), m);
	return buf;
}

static void print_flags(FILE *f, u32 flags, const char *sep)
{
	bool first = true;
	for (int i = 0; i < __SD_FLAG_CNT; i++)
		if (flags & (1u << i)) {
			fprintf(f, "%s%s", first ? "" : sep, sd_flag_name[i]);
			first = false;
		}
	if (first)
		fputs("none", f);
}

static void json_flags(struct json_writer *j, u32 flags)
{
	jw_begin_array(j);
	for (int i = 0; i < __SD_FLAG_CNT; i++)
		if (flags & (1u << i))
			jw_string(j, sd_flag_name[i]);
	jw_end_array(j);
}

/* One line per topology level (sd->level) that survived on some CPU. */
struct level_sum {
	int level;
	const struct sched_domain *first;	/* CPU-lowest instance */
	int domains;				/* distinct spans */
	unsigned int wmin, wmax;		/* span weights */
	int gmin, gmax;				/* groups per domain */
	bool flags_vary;
};

static int summarize(const struct sched_domains *sds, struct level_sum *out, int max)
{
	int n = 0;

	for (int i = 0; i < sds->nr_domains; i++) {
		const struct sched_domain *sd = &sds->sd[i];
		int k = 0;
		while (k < n && out[k].level != sd->level)
			k++;
		if (k == n) {
			if (n == max)
				continue;
			/* keep the list ordered by level */
			while (k > 0 && out[k - 1].level > sd->level) {
				out[k] = out[k - 1];
				k--;
			}
			out[k] = (struct level_sum){ sd->level, sd, 0, sd->span_weight, sd->span_weight,
						     sd->nr_groups, sd->nr_groups, false };
			n++;
		}
		struct level_sum *s = &out[k];
		bool dup = false;
		/* a span already counted at this level (another CPU's copy)? */
		for (int c = 0; c < sd->cpu && !dup; c++) {
			if (!cpumask_test(&sd->span, c))
				continue;
			for (int d = sds->percpu[c].sd; d >= 0; d = sds->sd[d].parent)
				if (sds->sd[d].level == sd->level) {
					dup = cpumask_equal(&sds->sd[d].span, &sd->span);
					break;
				}
		}
		if (!dup)
			s->domains++;
		if (sd->span_weight < s->wmin)
			s->wmin = sd->span_weight;
		if (sd->span_weight > s->wmax)
			s->wmax = sd->span_weight;
		if (sd->nr_groups < s->gmin)
			s->gmin = sd->nr_groups;
		if (sd->nr_groups > s->gmax)
			s->gmax = sd->nr_groups;
		if (sd->flags != s->first->flags)
			s->flags_vary = true;
	}
	return n;
}

static void print_range(FILE *f, const char *what, long a, long b)
{
	if (a == b)
		fprintf(f, " %s=%ld", what, a);
	else
		fprintf(f, " %s=%ld..%ld", what, a, b);
}

static void print_group(FILE *f, const struct sched_domain *sd, const struct sched_group *sg)
{
	fprintf(f, " %d:{ span=%s", sg->sgc_id, cpulist(&sg->span));
	if ((sd->flags & SD_OVERLAP) && !cpumask_equal(&sg->balance_mask, &sg->span))
		fprintf(f, " mask=%s", cpulist(&sg->balance_mask));
	fprintf(f, " cap=%lu", sg->capacity);
	if (sg->min_capacity != sg->max_capacity)
		fprintf(f, " min=%lu max=%lu", sg->min_capacity, sg->max_capacity);
	fputs(" }", f);
}

static const char *sd_name(const struct sched_domains *sds, int id)
{
	return id >= 0 ? sds->sd[id].name : "-";
}

static void print_text(FILE *f, const struct sched_topology *t, const struct sched_domains *sds, u32 hz,
		       int only_cpu)
{
	struct level_sum sum[300];
	int nl = summarize(sds, sum, (int)ARRAY_SIZE(sum));

	fprintf(f, "topology %s: %d CPUs, %d node%s%s\n", t->name, t->nr_cpus, t->nr_nodes,
		t->nr_nodes == 1 ? "" : "s", sds->legacy ? " (3.3's SD_*_INIT domains, before 3.8)" : "");
	fprintf(f, "numa distances:");
	for (int i = 0; i < sds->numa_levels; i++)
		fprintf(f, " %d", sds->numa_distance[i]);
	if (sds->legacy)
		fprintf(f, " (one NODE level over every node)\n");
	else
		fprintf(f, " (NODE + %d NUMA level%s, %s)\n", sds->numa_levels - 1,
			sds->numa_levels == 2 ? "" : "s", numa_topology_type_name[sds->numa_topology_type]);
	fprintf(f, "max_load_balance_interval: %lu jiffies (HZ=%u x %d CPUs / 10)\n",
		sched_max_load_balance_interval(hz, t->nr_cpus), hz, t->nr_cpus);
	if (sds->asym_cpucapacity)
		fprintf(f, "asymmetric CPU capacity: yes\n");
	fprintf(f, "levels (bottom-up, degenerate ones removed): %d\n", nl);
	if (!nl)
		fprintf(f, "  none: every CPU attaches a NULL sched-domain\n");
	for (int i = 0; i < nl; i++) {
		const struct level_sum *s = &sum[i];
		const struct sched_domain *sd = s->first;
		fprintf(f, "  %-4s level=%d domains=%d", sd->name, s->level, s->domains);
		print_range(f, "span_weight", s->wmin, s->wmax);
		print_range(f, "groups", s->gmin, s->gmax);
		fprintf(f, " interval=%u..%ums busy_factor=%u imbalance_pct=%u cache_nice_tries=%u imb_numa_nr=%u\n",
			sd->min_interval, sd->max_interval, sd->busy_factor, sd->imbalance_pct,
			sd->cache_nice_tries, sd->imb_numa_nr);
		fprintf(f, "       flags%s: ", s->flags_vary ? " (on CPU0's first domain here; they vary)" : "");
		print_flags(f, sd->flags, "|");
		fputc('\n', f);
	}

	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (only_cpu >= 0 && cpu != only_cpu)
			continue;
		const struct sd_percpu *pc = &sds->percpu[cpu];
		fputc('\n', f);
		if (pc->sd < 0) {
			fprintf(f, "CPU%d attaching NULL sched-domain.\n", cpu);
			continue;
		}
		fprintf(f, "CPU%d attaching sched-domain(s):\n", cpu);
		for (const struct sched_domain *sd = cpu_sd(sds, cpu); sd; sd = sd_parent(sds, sd)) {
			int lv = sd->depth;
			fprintf(f, "%*s domain-%d: span=%s level=%s\n", lv, "", lv, cpulist(&sd->span), sd->name);
			fprintf(f, "%*s flags: ", lv + 1, "");
			print_flags(f, sd->flags, "|");
			fprintf(f, "\n%*s min_interval=%u max_interval=%u busy_factor=%u imbalance_pct=%u "
				"cache_nice_tries=%u imb_numa_nr=%u\n",
				lv + 1, "", sd->min_interval, sd->max_interval, sd->busy_factor, sd->imbalance_pct,
				sd->cache_nice_tries, sd->imb_numa_nr);
			if (sds->legacy)
				fprintf(f,
					"%*s busy_idx=%u idle_idx=%u newidle_idx=%u wake_idx=%u "
					"forkexec_idx=%u "
					"smt_gain=%u\n",
					lv + 1, "", sd->busy_idx, sd->idle_idx, sd->newidle_idx, sd->wake_idx,
					sd->forkexec_idx, sd->smt_gain);
			fprintf(f, "%*s groups:", lv + 1, "");
			for (int k = 0; k < sd->nr_groups; k++) {
				print_group(f, sd, sd_group(sds, sd, k));
				if (k + 1 < sd->nr_groups)
					fputc(',', f);
			}
			fputc('\n', f);
		}
		fprintf(f, " sd_llc=%s sd_llc_size=%d sd_llc_id=%d sd_share_id=%d sd_numa=%s "
			"sd_asym_cpucapacity=%s\n",
			sd_name(sds, pc->sd_llc), pc->sd_llc_size, pc->sd_llc_id, pc->sd_share_id,
			sd_name(sds, pc->sd_numa), sd_name(sds, pc->sd_asym_cpucapacity));
	}
}

static void json_domain(struct json_writer *j, const struct sched_domains *sds, const struct sched_domain *sd)
{
	jw_begin_object(j);
	jw_kv_str(j, "name", sd->name);
	jw_kv_s64(j, "level", sd->level);
	jw_kv_s64(j, "depth", sd->depth);
	jw_kv_str(j, "span", cpulist(&sd->span));
	jw_kv_u64(j, "span_weight", sd->span_weight);
	jw_key(j, "flags");
	json_flags(j, sd->flags);
	jw_kv_u64(j, "min_interval", sd->min_interval);
	jw_kv_u64(j, "max_interval", sd->max_interval);
	jw_kv_u64(j, "busy_factor", sd->busy_factor);
	jw_kv_u64(j, "imbalance_pct", sd->imbalance_pct);
	jw_kv_u64(j, "cache_nice_tries", sd->cache_nice_tries);
	jw_kv_u64(j, "imb_numa_nr", sd->imb_numa_nr);
	if (sds->legacy) {
		jw_kv_u64(j, "busy_idx", sd->busy_idx);
		jw_kv_u64(j, "idle_idx", sd->idle_idx);
		jw_kv_u64(j, "newidle_idx", sd->newidle_idx);
		jw_kv_u64(j, "wake_idx", sd->wake_idx);
		jw_kv_u64(j, "forkexec_idx", sd->forkexec_idx);
		jw_kv_u64(j, "smt_gain", sd->smt_gain);
	}
	jw_key(j, "groups");
	jw_begin_array(j);
	for (int k = 0; k < sd->nr_groups; k++) {
		const struct sched_group *sg = sd_group(sds, sd, k);
		jw_begin_object(j);
		jw_kv_s64(j, "id", sg->sgc_id);
		jw_kv_str(j, "span", cpulist(&sg->span));
		jw_kv_str(j, "balance_mask", cpulist(&sg->balance_mask));
		jw_kv_u64(j, "weight", sg->group_weight);
		jw_kv_u64(j, "cores", sg->cores);
		jw_kv_u64(j, "capacity", sg->capacity);
		jw_kv_u64(j, "min_capacity", sg->min_capacity);
		jw_kv_u64(j, "max_capacity", sg->max_capacity);
		jw_key(j, "flags");
		json_flags(j, sg->flags);
		jw_end_object(j);
	}
	jw_end_array(j);
	jw_end_object(j);
}

static void json_sd_ref(struct json_writer *j, const char *key, const struct sched_domains *sds, int id)
{
	jw_key(j, key);
	if (id < 0)
		jw_null(j);
	else
		jw_s64(j, sds->sd[id].depth);
}

static int print_json(FILE *f, const struct sched_topology *t, const struct sched_domains *sds, u32 hz,
		      int only_cpu)
{
	struct level_sum sum[300];
	int nl = summarize(sds, sum, (int)ARRAY_SIZE(sum));
	struct json_writer j;

	jw_init(&j, f, JW_PRETTY);
	jw_begin_object(&j);
	jw_kv_str(&j, "topology", t->name);
	jw_kv_s64(&j, "nr_cpus", t->nr_cpus);
	jw_kv_s64(&j, "nr_nodes", t->nr_nodes);
	jw_kv_u64(&j, "hz", hz);
	jw_kv_u64(&j, "max_load_balance_interval", sched_max_load_balance_interval(hz, t->nr_cpus));
	jw_key(&j, "numa");
	jw_begin_object(&j);
	jw_key(&j, "distances");
	jw_begin_array(&j);
	for (int i = 0; i < sds->numa_levels; i++)
		jw_s64(&j, sds->numa_distance[i]);
	jw_end_array(&j);
	jw_kv_str(&j, "type", numa_topology_type_name[sds->numa_topology_type]);
	jw_end_object(&j);
	jw_kv_bool(&j, "asym_cpucapacity", sds->asym_cpucapacity);
	jw_kv_bool(&j, "legacy", sds->legacy);
	jw_key(&j, "levels");
	jw_begin_array(&j);
	for (int i = 0; i < nl; i++) {
		const struct sched_domain *sd = sum[i].first;
		jw_begin_object(&j);
		jw_kv_str(&j, "name", sd->name);
		jw_kv_s64(&j, "level", sum[i].level);
		jw_kv_s64(&j, "domains", sum[i].domains);
		jw_kv_u64(&j, "span_weight_min", sum[i].wmin);
		jw_kv_u64(&j, "span_weight_max", sum[i].wmax);
		jw_kv_s64(&j, "groups_min", sum[i].gmin);
		jw_kv_s64(&j, "groups_max", sum[i].gmax);
		jw_key(&j, "flags");
		json_flags(&j, sd->flags);
		jw_kv_bool(&j, "flags_vary", sum[i].flags_vary);
		jw_kv_u64(&j, "imbalance_pct", sd->imbalance_pct);
		jw_kv_u64(&j, "cache_nice_tries", sd->cache_nice_tries);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_key(&j, "cpus");
	jw_begin_array(&j);
	for (int cpu = 0; cpu < t->nr_cpus; cpu++) {
		if (only_cpu >= 0 && cpu != only_cpu)
			continue;
		const struct sd_percpu *pc = &sds->percpu[cpu];
		jw_begin_object(&j);
		jw_kv_s64(&j, "cpu", cpu);
		jw_kv_u64(&j, "capacity", t->cpu[cpu].capacity);
		/* the shortcuts name a domain by its depth in this CPU's list */
		json_sd_ref(&j, "sd_llc", sds, pc->sd_llc);
		jw_kv_s64(&j, "sd_llc_size", pc->sd_llc_size);
		jw_kv_s64(&j, "sd_llc_id", pc->sd_llc_id);
		jw_kv_s64(&j, "sd_share_id", pc->sd_share_id);
		json_sd_ref(&j, "sd_numa", sds, pc->sd_numa);
		json_sd_ref(&j, "sd_asym_cpucapacity", sds, pc->sd_asym_cpucapacity);
		jw_key(&j, "domains");
		jw_begin_array(&j);
		for (const struct sched_domain *sd = cpu_sd(sds, cpu); sd; sd = sd_parent(sds, sd))
			json_domain(&j, sds, sd);
		jw_end_array(&j);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_end_object(&j);
	return jw_finish(&j);
}

/* The machine: KEY=VALUE words inline, or a .topo path or shipped name. */
static int load(int nargs, char **args, struct sched_topology *t)
{
	char err[1024];

	if (strchr(args[0], '=')) {
		size_t len = 0;
		for (int i = 0; i < nargs; i++)
			len += strlen(args[i]) + 1;
		char *text = xmalloc(len + 1);
		text[0] = 0;
		for (int i = 0; i < nargs; i++) {
			strcat(text, args[i]);
			strcat(text, i + 1 < nargs ? " " : "");
		}
		struct lexer lx;
		struct token first;
		lex_init(&lx, "inline", text, strlen(text), err, sizeof(err));
		int r = lx.failed ? -1 : 0;
		if (!r && lex_next(&lx, &first) != TOK_KEYVAL)
			r = lex_error(&lx, &first.s, "expected KEY=VALUE, got '%s'", SNIP(&first.s));
		if (!r)
			r = topology_parse_inline(&lx, &first, t);
		if (!r && lx.failed)
			r = -1;
		free(text);
		if (r < 0) {
			fprintf(stderr, "schedscope: %s\n", err);
			return 2;
		}
		return 0;
	}
	if (nargs != 1)
		return cli_usage_error("topology: expected one FILE or NAME, or KEY=VALUE words");

	char path[2048];
	if (topology_resolve(args[0], "", path, sizeof(path), err, sizeof(err)) < 0 ||
	    topology_load(path, t, err, sizeof(err)) < 0) {
		fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	return 0;
}

struct topology_opts {
	const char *format, *sysroot;
	bool host;
	u32 hz;
	int only_cpu, kv;
};

/* --kernel MAJOR.MINOR or latest: 0, or 2 (printed). */
static int parse_kernel(const char *arg, int *kv)
{
	int major, minor, n = 0;

	if (!strcmp(arg, "latest"))
		return 0;
	if (sscanf(arg, "%d.%d%n", &major, &minor, &n) != 2 || arg[n] ||
	    !sched_kernel_version_valid(KV(major, minor)))
		return cli_usage_error("--kernel: '%s' is not a release from 3.0 to %d.%d, or latest", arg,
				       KV_LATEST / 100, KV_LATEST % 100);
	*kv = KV(major, minor);
	return 0;
}

static int topology_option(int c, struct topology_opts *o)
{
	char *end;
	long v;

	switch (c) {
	case 'F':
		if (strcmp(optarg, "text") && strcmp(optarg, "json"))
			return cli_usage_error("--format: '%s' is not text or json", optarg);
		o->format = optarg;
		return 0;
	case 'h':
		if (strcmp(optarg, "100") && strcmp(optarg, "250") && strcmp(optarg, "300") &&
		    strcmp(optarg, "1000"))
			return cli_usage_error("--hz: '%s' is not one of 100, 250, 300, 1000", optarg);
		o->hz = (u32)atoi(optarg);
		return 0;
	case 'c':
		v = strtol(optarg, &end, 10);
		if (!*optarg || *end || v < 0 || v >= SCHED_MAX_CPUS)
			return cli_usage_error("--cpu: '%s' is not a CPU number", optarg);
		o->only_cpu = (int)v;
		return 0;
	case 'k':
		return parse_kernel(optarg, &o->kv);
	case 'H':
		o->host = true;
		return 0;
	case 'S':
		o->sysroot = optarg;
		return 0;
	}
	return -1;
}

static int parse_topology_args(int argc, char **argv, struct topology_opts *o)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "hz", required_argument, NULL, 'h' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "host", no_argument, NULL, 'H' },
		{ "sysroot", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		rc = topology_option(c, o);
		if (rc < 0)
			return cli_usage_error("topology: unknown option '%s'", argv[optind - 1]);
		if (rc)
			return rc;
	}
	if (o->sysroot && !o->host)
		return cli_usage_error("topology: --sysroot goes with --host");
	if (o->host && optind < argc)
		return cli_usage_error("topology: --host takes no FILE, NAME or KEY=VALUE words");
	if (!o->host && optind >= argc)
		return cli_usage_error("topology: expected a FILE, a NAME or KEY=VALUE words");
	return 0;
}

/* --host: this machine's topology from sysfs, written as a .topo file. */
static int host_topology(const struct topology_opts *o)
{
	struct sched_topology ht;
	char herr[1024];
	int rc;

	if (host_topology_read(o->sysroot ? o->sysroot : "/", &ht, herr, sizeof(herr)) < 0) {
		fprintf(stderr, "schedscope: topology --host: %s\n", herr);
		return 2;
	}
	rc = host_topology_write(stdout, &ht) < 0 ? 1 : 0;
	topology_free(&ht);
	return rc;
}

/* The sched domains the kernel would build on t, printed; t is freed. */
static int print_domains(const struct topology_opts *o, struct sched_topology *t)
{
	struct sched_domains *sds;
	char err[512];
	int rc = 0;

	if (o->only_cpu >= t->nr_cpus) {
		topology_free(t);
		return cli_usage_error("--cpu: CPU %d does not exist (%d CPUs)", o->only_cpu, t->nr_cpus);
	}
	sds = sched_domains_build(t, o->kv, err, sizeof(err));
	if (!sds) {
		fprintf(stderr, "schedscope: %s: %s\n", t->name, err);
		topology_free(t);
		return 2;
	}
	if (!strcmp(o->format, "json"))
		rc = print_json(stdout, t, sds, o->hz, o->only_cpu) < 0 ? 1 : 0;
	else
		print_text(stdout, t, sds, o->hz, o->only_cpu);
	sched_domains_free(sds);
	topology_free(t);
	return rc;
}

int cmd_topology(int argc, char **argv)
{
	struct topology_opts o = { .format = "text", .hz = 250, .only_cpu = -1, .kv = KV_LATEST };
	struct sched_topology t;
	int rc = parse_topology_args(argc, argv, &o);

	if (rc)
		return rc;
	if (o.host)
		return host_topology(&o);
	rc = load(argc - optind, argv + optind, &t);
	return rc ? rc : print_domains(&o, &t);
}
