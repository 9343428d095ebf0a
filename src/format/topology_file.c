// SPDX-License-Identifier: GPL-2.0
/*
 * Topology files (.topo): the machine a scenario runs on.
 *
 * One directive per line; '#' starts a comment. Every count is >= 1.
 *
 *   name quad-socket-quad-core  # shown in the UI; default: the file name less .topo
 *   packages 4            # physical packages (sockets); required
 *   cores 4               # cores per package; required
 *   threads 1             # SMT threads per core, 1..1024; default 1
 *   llcs 1                # last-level caches per package (cores split evenly); default 1
 *   clusters 1            # clusters per LLC (cores split evenly); default 1
 *   nodes 4               # NUMA nodes in total: a multiple or a divisor of packages;
 *                         # default = packages. A package split into several nodes
 *                         # must split into whole LLCs (llcs a multiple of nodes per package).
 *   distance 10 20 20 20  # one line per node, in node order: the node_distance() matrix.
 *                         # A node's distance to itself is 10, to any other node 11..255
 *                         # (it need not be symmetric). Default: 10 local, 20 remote.
 *   capacity 1024         # arch CPU capacity 1..1024 of every CPU; or, with a CPU list,
 *   capacity 0-3 446      # of those CPUs (like 0-3,8,10-11); later lines win. Default 1024.
 *                         # At least one CPU must have 1024: capacities are relative
 *                         # to the biggest CPU.
 *   numbering smt-last    # CPU ids: `linear` (default): siblings adjacent, 0/1 share a core;
 *                         # `smt-last`: all first threads, then all second threads, as on x86
 *   cost switch 1us       # what the kernel's own work takes on this machine (noise on):
 *                         # switch, wakeup, ipi, tick, balance, migrate; each sets the
 *                         # tunable cost_NAME_ns unless the scenario sets it. Default:
 *                         # the engine's, measured on a 2-CPU VM (tests/kernel/README.md)
 *
 * The machine has packages * cores * threads CPUs (at most 1024). In linear
 * numbering CPU = (package * cores + core) * threads + thread; in smt-last,
 * CPU = thread * packages * cores + package * cores + core. LLC, cluster and
 * core ids are unique machine-wide and numbered in package order; nodes too.
 *
 * Or, for a machine the counts cannot describe (the host, read from sysfs by
 * src/host_topology.c), one line per CPU instead of packages..numbering:
 *
 *   cpu 0 package=0 core=0 thread=0 llc=0 cluster=0 node=0 capacity=446
 *
 * CPUs 0..n-1 each once, in any order; package and core are required; thread
 * defaults to 0 (unique within a core, 0..7), llc to the package, cluster to
 * the llc, node to 0, capacity to 1024. Ids are 0..1023, unique machine-wide,
 * and nest: a core lies in one cluster, a cluster in one LLC, an LLC in one
 * package and one node. Nodes are 0..N-1 without gaps, each with a CPU.
 * `distance` and `capacity` lines apply as above (capacity after cpu lines).
 *
 * A scenario can also describe a machine inline, without a file:
 *   topology packages=2 cores=4 threads=2 [llcs=N] [clusters=N] [nodes=N] [numbering=smt-last]
 * (default distances and capacities).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/base/mem.h"
#include "topology_file.h"

#ifndef SCHEDSCOPE_DATADIR
#define SCHEDSCOPE_DATADIR "/usr/local/share/schedscope"
#endif

#define LOCAL_DISTANCE 10
#define REMOTE_DISTANCE 20
#define MAX_DISTANCE 255	/* the ACPI SLIT stores distances in a byte */
#define MAX_CAPACITY 1024	/* SCHED_CAPACITY_SCALE */

enum topo_count { TC_PACKAGES, TC_CORES, TC_THREADS, TC_LLCS, TC_CLUSTERS, TC_NODES, NR_TC };

static const struct {
	const char *name;
	int max;
} counts[NR_TC] = {
	[TC_PACKAGES] = { "packages", SCHED_MAX_CPUS },
	[TC_CORES] = { "cores", SCHED_MAX_CPUS },
	/* no SMT width in the kernel: whatever the host says (--host) reads back */
	[TC_THREADS] = { "threads", SCHED_MAX_CPUS },
	[TC_LLCS] = { "llcs", SCHED_MAX_CPUS },
	[TC_CLUSTERS] = { "clusters", SCHED_MAX_CPUS },
	[TC_NODES] = { "nodes", SCHED_MAX_CPUS },
};

/* One `distance` line, kept with the place of each value for messages. */
struct topo_distance {
	u32 v;
	struct lex_span at;
};

struct topo_row {
	int n;
	size_t cap;
	struct topo_distance *val;
	struct lex_span where;
};

/* One `capacity` line; its CPU list is checked once the CPU count is known. */
struct topo_cap {
	bool all;
	struct lex_span list;
	u32 value;
	struct lex_span value_at;
};

/* One `cpu` line. */
enum cpu_key { CK_PACKAGE, CK_CORE, CK_THREAD, CK_LLC, CK_CLUSTER, CK_NODE, CK_CAPACITY, NR_CK };

static const struct {
	const char *name;
	int min, max;
} cpu_keys[NR_CK] = {
	[CK_PACKAGE] = { "package", 0, SCHED_MAX_CPUS - 1 }, [CK_CORE] = { "core", 0, SCHED_MAX_CPUS - 1 },
	[CK_THREAD] = { "thread", 0, SCHED_MAX_CPUS - 1 },   [CK_LLC] = { "llc", 0, SCHED_MAX_CPUS - 1 },
	[CK_CLUSTER] = { "cluster", 0, SCHED_MAX_CPUS - 1 }, [CK_NODE] = { "node", 0, SCHED_MAX_CPUS - 1 },
	[CK_CAPACITY] = { "capacity", 1, MAX_CAPACITY },
};

struct topo_cpuline {
	int cpu;
	s32 v[NR_CK];
	bool given[NR_CK];
	struct lex_span at;		/* the CPU number */
	struct lex_span key_at[NR_CK];	/* each KEY=VALUE word */
};

/* What the directives said, before it is turned into CPUs. */
struct topo_desc {
	char name[64];
	int count[NR_TC];
	bool given[NR_TC];
	struct lex_span at[NR_TC];
	bool smt_last, have_numbering, have_name;
	struct lex_span numbering_at, name_at;
	int nr_rows, nr_caps;
	size_t cap_rows, cap_caps;
	struct topo_row *row;
	struct topo_cap *cap;
	int nr_cpul;
	size_t cap_cpul;
	struct topo_cpuline *cpul;
	struct lex_span where;	/* for "missing 'packages'" */
	u64 cost[NR_SCHED_COSTS];
	bool cost_given[NR_SCHED_COSTS];
	struct lex_span cost_at[NR_SCHED_COSTS];
};

static void desc_free(struct topo_desc *d)
{
	for (int i = 0; i < d->nr_rows; i++)
		free(d->row[i].val);
	free(d->row);
	free(d->cap);
	free(d->cpul);
}

void topology_free(struct sched_topology *t)
{
	free(t->cpu);
	free(t->distance);
	memset(t, 0, sizeof(*t));
}

static int take_value(struct lexer *lx, const struct token *dir, struct token *v)
{
	if (lex_next(lx, v) == TOK_WORD)
		return 0;
	if (v->type == TOK_NEWLINE || v->type == TOK_EOF)
		return lex_error(lx, &v->s, "'%s' needs a value", SNIP(&dir->s));
	return lex_error(lx, &v->s, "unexpected '%s'", SNIP(&v->s));
}

static int find_count(const struct lex_span *key)
{
	for (int i = 0; i < NR_TC; i++)
		if (span_is(key, counts[i].name))
			return i;
	return -1;
}

static int set_count(struct lexer *lx, struct topo_desc *d, int which, const struct lex_span *key,
		     const struct lex_span *val)
{
	s64 v;

	if (d->given[which])
		return lex_error(lx, key, "duplicate '%s' (first at line %u)", counts[which].name,
				 d->at[which].line);
	if (lex_int(lx, val, counts[which].name, 1, counts[which].max, &v) < 0)
		return -1;
	d->given[which] = true;
	d->count[which] = (int)v;
	d->at[which] = *val;
	return 0;
}

static int set_numbering(struct lexer *lx, struct topo_desc *d, const struct lex_span *key,
			 const struct lex_span *val)
{
	if (d->have_numbering)
		return lex_error(lx, key, "duplicate 'numbering' (first at line %u)", d->numbering_at.line);
	if (span_is(val, "linear"))
		d->smt_last = false;
	else if (span_is(val, "smt-last"))
		d->smt_last = true;
	else
		return lex_error(lx, val, "unknown numbering '%s' (expected linear or smt-last)", SNIP(val));
	d->have_numbering = true;
	d->numbering_at = *val;
	return 0;
}

static int set_name(struct lexer *lx, struct topo_desc *d, const struct lex_span *key,
		    const struct lex_span *val)
{
	if (d->have_name)
		return lex_error(lx, key, "duplicate 'name' (first at line %u)", d->name_at.line);
	if (!span_copy(val, d->name, sizeof(d->name)))
		return lex_error(lx, val, "name '%s' is longer than %zu bytes", SNIP(val), sizeof(d->name) - 1);
	d->have_name = true;
	d->name_at = *val;
	return 0;
}

static int parse_distance(struct lexer *lx, struct topo_desc *d, const struct token *dir)
{
	struct topo_row r = { .where = dir->s };
	struct token v;

	while (lex_peek(lx, &v) == TOK_WORD) {
		s64 x;
		lex_next(lx, &v);
		if (lex_int(lx, &v.s, "distance", 1, MAX_DISTANCE, &x) < 0)
			goto fail;
		XGROW(r.val, r.cap, r.n);
		r.val[r.n++] = (struct topo_distance){ (u32)x, v.s };
	}
	if (!r.n) {
		lex_next(lx, &v);
		lex_error(lx, &v.s, "'distance' needs one value per node");
		goto fail;
	}
	if (lex_expect_eol(lx) < 0)
		goto fail;
	XGROW(d->row, d->cap_rows, d->nr_rows);
	d->row[d->nr_rows++] = r;
	return 0;
fail:
	free(r.val);
	return -1;
}

static int parse_capacity(struct lexer *lx, struct topo_desc *d, const struct token *dir)
{
	struct topo_cap c = { .all = true };
	struct token a, b;
	struct cpumask syntax_only;
	s64 v;

	if (take_value(lx, dir, &a) < 0)
		return -1;
	if (lex_peek(lx, &b) == TOK_WORD) {
		lex_next(lx, &b);
		/* check the list's form now; CPUs that do not exist once the count is known */
		if (lex_cpulist(lx, &a.s, SCHED_MAX_CPUS, &syntax_only) < 0)
			return -1;
		c.all = false;
		c.list = a.s;
		a = b;
	}
	if (lex_int(lx, &a.s, "capacity", 1, MAX_CAPACITY, &v) < 0 || lex_expect_eol(lx) < 0)
		return -1;
	c.value = (u32)v;
	c.value_at = a.s;
	XGROW(d->cap, d->cap_caps, d->nr_caps);
	d->cap[d->nr_caps++] = c;
	return 0;
}

/* `cost NAME DURATION`: NAME is the tunable cost_NAME_ns. */
static int parse_cost(struct lexer *lx, struct topo_desc *d, const struct token *dir)
{
	struct token name, v;
	int which = -1;

	if (take_value(lx, dir, &name) < 0)
		return -1;
	for (int i = 0; i < NR_SCHED_COSTS; i++) {
		const char *t = sched_tunable_descs[TUN_COST_FIRST + i].name + strlen("cost_");

		if (name.s.n == strlen(t) - strlen("_ns") && !strncmp(name.s.p, t, name.s.n))
			which = i;
	}
	if (which < 0)
		return lex_error(lx, &name.s,
				 "unknown cost '%s' (expected switch, wakeup, ipi, tick, balance, "
				 "migrate, hrtimer)",
				 SNIP(&name.s));
	if (d->cost_given[which])
		return lex_error(lx, &name.s, "duplicate cost '%s' (first at line %u)", SNIP(&name.s),
				 d->cost_at[which].line);
	if (take_value(lx, &name, &v) < 0 || lex_duration(lx, &v.s, "cost", &d->cost[which]) < 0)
		return -1;
	if (d->cost[which] > sched_tunable_descs[TUN_COST_FIRST + which].max)
		return lex_error(lx, &v.s, "cost '%s' is more than 1ms", SNIP(&v.s));
	d->cost_given[which] = true;
	d->cost_at[which] = name.s;
	return 0;
}

/* `cpu N KEY=VALUE...`: raw words, split at their '='. */
static int parse_cpu(struct lexer *lx, struct topo_desc *d, const struct token *dir)
{
	struct topo_cpuline c = { 0 };
	struct token v;
	s64 x;

	if (take_value(lx, dir, &v) < 0 || lex_int(lx, &v.s, "CPU", 0, SCHED_MAX_CPUS - 1, &x) < 0)
		return -1;
	c.cpu = (int)x;
	c.at = v.s;
	while (lex_peek(lx, &v) == TOK_WORD) {
		lex_next(lx, &v);
		const char *eq = memchr(v.s.p, '=', v.s.n);
		if (!eq)
			return lex_error(lx, &v.s, "expected KEY=VALUE, got '%s'", SNIP(&v.s));
		struct lex_span key = v.s, val = v.s;
		key.n = (size_t)(eq - v.s.p);
		val.p = eq + 1;
		val.n = v.s.n - key.n - 1;
		val.col += (u32)key.n + 1;
		int k = 0;
		while (k < NR_CK && !span_is(&key, cpu_keys[k].name))
			k++;
		if (k == NR_CK)
			return lex_error(lx, &key, "unknown key '%s' (expected package, core, thread, llc, "
					 "cluster, node, capacity)", SNIP(&key));
		if (c.given[k])
			return lex_error(lx, &key, "duplicate key '%s'", cpu_keys[k].name);
		if (lex_int(lx, &val, cpu_keys[k].name, cpu_keys[k].min, cpu_keys[k].max, &x) < 0)
			return -1;
		c.given[k] = true;
		c.v[k] = (s32)x;
		c.key_at[k] = v.s;
	}
	for (int k = CK_PACKAGE; k <= CK_CORE; k++)
		if (!c.given[k])
			return lex_error(lx, &c.at, "cpu %d needs %s=", c.cpu, cpu_keys[k].name);
	if (lex_expect_eol(lx) < 0)
		return -1;
	XGROW(d->cpul, d->cap_cpul, d->nr_cpul);
	if (!c.given[CK_LLC])
		c.v[CK_LLC] = c.v[CK_PACKAGE];
	if (!c.given[CK_CLUSTER])
		c.v[CK_CLUSTER] = c.v[CK_LLC];
	if (!c.given[CK_CAPACITY])
		c.v[CK_CAPACITY] = MAX_CAPACITY;
	d->cpul[d->nr_cpul++] = c;
	return 0;
}

/* One line of a .topo file: 1 to go on, 0 at the end, -1 on error. */
static int parse_line(struct lexer *lx, struct topo_desc *d)
{
	struct token t, v;

	switch (lex_next(lx, &t)) {
	case TOK_EOF:
		return lx->failed ? -1 : 0;
	case TOK_NEWLINE:
		return 1;
	case TOK_WORD:
		break;
	default:
		return lex_error(lx, &t.s, "unexpected '%s'", SNIP(&t.s));
	}

	int which = find_count(&t.s);
	if (which >= 0) {
		if (take_value(lx, &t, &v) < 0 || set_count(lx, d, which, &t.s, &v.s) < 0)
			return -1;
	} else if (span_is(&t.s, "name")) {
		if (take_value(lx, &t, &v) < 0 || set_name(lx, d, &t.s, &v.s) < 0)
			return -1;
	} else if (span_is(&t.s, "numbering")) {
		if (take_value(lx, &t, &v) < 0 || set_numbering(lx, d, &t.s, &v.s) < 0)
			return -1;
	} else if (span_is(&t.s, "distance")) {
		return parse_distance(lx, d, &t) < 0 ? -1 : 1;
	} else if (span_is(&t.s, "capacity")) {
		return parse_capacity(lx, d, &t) < 0 ? -1 : 1;
	} else if (span_is(&t.s, "cpu")) {
		return parse_cpu(lx, d, &t) < 0 ? -1 : 1;
	} else if (span_is(&t.s, "cost")) {
		if (parse_cost(lx, d, &t) < 0)
			return -1;
	} else {
		return lex_error(lx, &t.s,
				 "unknown directive '%s' (expected name, packages, cores, threads, "
				 "llcs, clusters, nodes, distance, capacity, numbering, cpu, cost)",
				 SNIP(&t.s));
	}
	return lex_expect_eol(lx) < 0 ? -1 : 1;
}

/* The counts must nest: clusters in LLCs in packages, nodes over whole LLCs. */
static int check_counts(struct lexer *lx, struct topo_desc *d)
{
	int P = d->count[TC_PACKAGES], C = d->count[TC_CORES], T = d->count[TC_THREADS];
	int L = d->count[TC_LLCS], K = d->count[TC_CLUSTERS], N = d->count[TC_NODES];
	long nr = (long)P * C * T;

	if (nr > SCHED_MAX_CPUS)
		return lex_error(lx, &d->at[TC_CORES], "%d packages x %d cores x %d threads is %ld CPUs "
				 "(the limit is %d)", P, C, T, nr, SCHED_MAX_CPUS);
	if (C % L)
		return lex_error(lx, &d->at[TC_LLCS], "llcs %d does not divide the %d cores of a package", L, C);
	if ((C / L) % K)
		return lex_error(lx, &d->at[TC_CLUSTERS], "clusters %d does not divide the %d cores of an LLC",
				 K, C / L);
	if (N >= P) {
		if (N % P)
			goto not_multiple;
		if (L % (N / P))
			return lex_error(lx, &d->at[TC_NODES], "%d nodes per package need llcs to be a multiple "
					 "of %d (an LLC lies in one node); llcs is %d", N / P, N / P, L);
	} else if (P % N) {
		goto not_multiple;
	}
	return 0;
not_multiple:
	return lex_error(lx, &d->at[TC_NODES], "nodes %d is neither a multiple nor a divisor of "
			 "packages %d", N, P);
}

static void place_cpus(const struct topo_desc *d, struct sched_topology *t)
{
	int P = d->count[TC_PACKAGES], C = d->count[TC_CORES], T = d->count[TC_THREADS];
	int L = d->count[TC_LLCS], K = d->count[TC_CLUSTERS], N = d->count[TC_NODES];
	int per_llc = C / L, per_cluster = per_llc / K;

	for (int p = 0; p < P; p++) {
		for (int c = 0; c < C; c++) {
			for (int th = 0; th < T; th++) {
				int id = d->smt_last ? th * P * C + p * C + c : (p * C + c) * T + th;
				struct sched_topo_cpu *cpu = &t->cpu[id];
				cpu->package = p;
				cpu->llc = p * L + c / per_llc;
				cpu->cluster = cpu->llc * K + (c % per_llc) / per_cluster;
				cpu->core = p * C + c;
				cpu->thread = th;
				if (N >= P)
					cpu->node = p * (N / P) + c / (C / (N / P));
				else
					cpu->node = p / (P / N);
				cpu->capacity = MAX_CAPACITY;
			}
		}
	}
}

static int set_capacities(struct lexer *lx, const struct topo_desc *d, struct sched_topology *t)
{
	struct cpumask m;
	bool biggest = false;

	for (int i = 0; i < d->nr_caps; i++) {
		const struct topo_cap *c = &d->cap[i];
		if (!c->all && lex_cpulist(lx, &c->list, t->nr_cpus, &m) < 0)
			return -1;
		for (int cpu = 0; cpu < t->nr_cpus; cpu++)
			if (c->all || cpumask_test(&m, cpu))
				t->cpu[cpu].capacity = c->value;
	}
	for (int cpu = 0; cpu < t->nr_cpus; cpu++)
		biggest |= t->cpu[cpu].capacity == MAX_CAPACITY;
	if (!biggest)
		return lex_error(lx, d->nr_caps ? &d->cap[0].value_at : d->nr_cpul ? &d->cpul[0].at : &d->where,
				 "no CPU has capacity %d: capacities are relative "
				 "to the biggest CPU, which has %d", MAX_CAPACITY, MAX_CAPACITY);
	return 0;
}

static int set_distances(struct lexer *lx, const struct topo_desc *d, struct sched_topology *t)
{
	int N = t->nr_nodes;

	if (!d->nr_rows) {
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				t->distance[i * N + j] = i == j ? LOCAL_DISTANCE : REMOTE_DISTANCE;
		return 0;
	}
	if (d->nr_rows != N)
		return lex_error(lx, &d->row[MIN(d->nr_rows, N + 1) - 1].where,
				 "%d distance lines for %d nodes (one line per node)", d->nr_rows, N);
	for (int i = 0; i < N; i++) {
		const struct topo_row *r = &d->row[i];
		if (r->n > N)
			return lex_error(lx, &r->val[N].at,
					 "distance line of node %d has %d values for %d nodes", i, r->n, N);
		if (r->n < N)
			return lex_error(lx, &r->where, "distance line of node %d has %d values for %d nodes",
					 i, r->n, N);
		for (int j = 0; j < N; j++) {
			u32 v = r->val[j].v;
			if (i == j && v != LOCAL_DISTANCE)
				return lex_error(lx, &r->val[j].at,
						 "distance of node %d to itself must be %d, "
						 "not '%s'",
						 i, LOCAL_DISTANCE, SNIP(&r->val[j].at));
			if (i != j && v <= LOCAL_DISTANCE)
				return lex_error(lx, &r->val[j].at,
						 "distance of node %d to node %d must be above "
						 "%d (local), not '%s'",
						 i, j, LOCAL_DISTANCE, SNIP(&r->val[j].at));
			t->distance[i * N + j] = v;
		}
	}
	return 0;
}

/* Two CPUs in the same `inner` (core, cluster, LLC) must share `outer`. */
static int check_nest(struct lexer *lx, const struct topo_cpuline *a, const struct topo_cpuline *b,
		      int inner, int outer)
{
	if (a->v[inner] != b->v[inner] || a->v[outer] == b->v[outer])
		return 0;
	return lex_error(lx, b->given[outer] ? &b->key_at[outer] : &b->at, "cpu %d is in %s %d with cpu %d "
			 "but in %s %d, not %d (a %s lies in one %s)", b->cpu, cpu_keys[inner].name, b->v[inner],
			 a->cpu, cpu_keys[outer].name, b->v[outer], a->v[outer], cpu_keys[inner].name,
			 cpu_keys[outer].name);
}

/* The machine from `cpu` lines: every CPU once, ids that nest, nodes without gaps. */
static int build_cpus(struct lexer *lx, struct topo_desc *d, struct sched_topology *t)
{
	static const int nest[][2] = {
		{ CK_CORE, CK_CLUSTER }, { CK_CLUSTER, CK_LLC }, { CK_LLC, CK_PACKAGE }, { CK_LLC, CK_NODE },
	};
	int n = d->nr_cpul, nodes = 0;

	for (int i = 0; i < NR_TC; i++)
		if (d->given[i])
			return lex_error(lx, &d->at[i], "'%s' cannot be used with 'cpu' lines", counts[i].name);
	if (d->have_numbering)
		return lex_error(lx, &d->numbering_at, "'numbering' cannot be used with 'cpu' lines");
	t->cpu = xcalloc((size_t)n, sizeof(*t->cpu));
	const struct topo_cpuline **by = xcalloc((size_t)n, sizeof(*by));
	int r = 0;
	for (int i = 0; i < n && !r; i++) {
		const struct topo_cpuline *c = &d->cpul[i];
		if (c->cpu >= n)
			r = lex_error(lx, &c->at, "cpu %d: the %d cpu lines must number the CPUs 0-%d",
				      c->cpu, n, n - 1);
		else if (by[c->cpu])
			r = lex_error(lx, &c->at, "duplicate 'cpu %d' (first at line %u)", c->cpu,
				      by[c->cpu]->at.line);
		else
			by[c->cpu] = c;
		nodes = c->v[CK_NODE] >= nodes ? c->v[CK_NODE] + 1 : nodes;
	}
	for (int i = 0; i < n && !r; i++) {
		const struct topo_cpuline *b = &d->cpul[i];
		for (int j = 0; j < i && !r; j++) {
			const struct topo_cpuline *a = &d->cpul[j];
			if (a->v[CK_CORE] == b->v[CK_CORE] && a->v[CK_THREAD] == b->v[CK_THREAD])
				r = lex_error(lx, b->given[CK_THREAD] ? &b->key_at[CK_THREAD] : &b->at,
					      "cpu %d is thread %d of core %d, as cpu %d is", b->cpu,
					      b->v[CK_THREAD], b->v[CK_CORE], a->cpu);
			for (size_t k = 0; k < ARRAY_SIZE(nest) && !r; k++)
				r = check_nest(lx, a, b, nest[k][0], nest[k][1]);
		}
	}
	for (int node = 0; node < nodes && !r; node++) {
		int i = 0;
		while (i < n && d->cpul[i].v[CK_NODE] != node)
			i++;
		if (i == n)
			r = lex_error(lx, &d->cpul[n - 1].at, "no cpu line is in node %d (nodes are numbered "
				      "0-%d without gaps)", node, nodes - 1);
	}
	if (!r) {
		t->nr_cpus = n;
		t->nr_nodes = nodes;
		for (int i = 0; i < n; i++) {
			const struct topo_cpuline *c = &d->cpul[i];
			t->cpu[c->cpu] = (struct sched_topo_cpu){ c->v[CK_PACKAGE], c->v[CK_NODE], c->v[CK_LLC],
				c->v[CK_CLUSTER], c->v[CK_CORE], c->v[CK_THREAD], (u32)c->v[CK_CAPACITY] };
		}
		t->distance = xcalloc((size_t)nodes * (size_t)nodes, sizeof(*t->distance));
	}
	free(by);
	if (r < 0)
		return -1;
	snprintf(t->name, sizeof(t->name), "%s", d->name);
	if (set_capacities(lx, d, t) < 0 || set_distances(lx, d, t) < 0)
		return -1;
	return 0;
}

/* Turn the directives into CPUs; on error *t may hold partial allocations. */
static int build(struct lexer *lx, struct topo_desc *d, struct sched_topology *t)
{
	static const int defaults[NR_TC] = { 0, 0, 1, 1, 1, 0 };

	if (d->nr_cpul)
		return build_cpus(lx, d, t);

	for (int i = 0; i < NR_TC; i++) {
		if (d->given[i])
			continue;
		if (i == TC_PACKAGES || i == TC_CORES)
			return lex_error(lx, &d->where, "missing '%s'", counts[i].name);
		d->count[i] = i == TC_NODES ? d->count[TC_PACKAGES] : defaults[i];
		d->at[i] = d->where;
	}
	if (check_counts(lx, d) < 0)
		return -1;

	t->nr_cpus = d->count[TC_PACKAGES] * d->count[TC_CORES] * d->count[TC_THREADS];
	t->nr_nodes = d->count[TC_NODES];
	t->cpu = xcalloc((size_t)t->nr_cpus, sizeof(*t->cpu));
	t->distance = xcalloc((size_t)t->nr_nodes * (size_t)t->nr_nodes, sizeof(*t->distance));
	snprintf(t->name, sizeof(t->name), "%s", d->name);
	place_cpus(d, t);
	if (set_capacities(lx, d, t) < 0 || set_distances(lx, d, t) < 0)
		return -1;
	return 0;
}

/* "topologies/numa.topo" is called "numa" unless it says otherwise. */
static void default_name(char *out, size_t size, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && !strcmp(base + n - 5, ".topo"))
		n -= 5;
	snprintf(out, size, "%.*s", (int)MIN(n, size - 1), base);
}

int topology_parse(const char *name, const char *text, size_t len,
		   struct sched_topology *out, char *err, size_t errlen)
{
	struct topo_desc d = { 0 };
	struct lexer lx;
	int r;

	memset(out, 0, sizeof(*out));
	lex_init(&lx, name, text, len, err, errlen);
	lx.raw = true;		/* CPU lists like 0,2-3 are single words here */
	d.where = (struct lex_span){ text, 0, 1, 1 };
	default_name(d.name, sizeof(d.name), name);

	do
		r = lx.failed ? -1 : parse_line(&lx, &d);
	while (r > 0);
	if (r == 0 && build(&lx, &d, out) == 0) {
		memcpy(out->cost, d.cost, sizeof(out->cost));
		memcpy(out->cost_set, d.cost_given, sizeof(out->cost_set));
	}
	desc_free(&d);
	if (lx.failed) {
		topology_free(out);
		return -1;
	}
	return 0;
}

int topology_parse_inline(struct lexer *lx, const struct token *first, struct sched_topology *out)
{
	struct topo_desc d = { 0 };
	struct token t = *first;

	memset(out, 0, sizeof(*out));
	d.where = first->s;
	while (!lx->failed) {
		if (t.type == TOK_NEWLINE || t.type == TOK_EOF)
			break;
		if (t.type != TOK_KEYVAL) {
			lex_error(lx, &t.s, "expected KEY=VALUE, got '%s'", SNIP(&t.s));
			break;
		}
		int which = find_count(&t.key);
		if (which >= 0)
			set_count(lx, &d, which, &t.key, &t.val);
		else if (span_is(&t.key, "numbering"))
			set_numbering(lx, &d, &t.key, &t.val);
		else if (span_is(&t.key, "name"))
			set_name(lx, &d, &t.key, &t.val);
		else
			lex_error(lx, &t.key, "unknown key '%s' (expected packages, cores, threads, llcs, "
				  "clusters, nodes, numbering, name)", SNIP(&t.key));
		lex_next(lx, &t);
	}
	if (!lx->failed) {
		if (!d.have_name)
			snprintf(d.name, sizeof(d.name), "%dp%dc%dt", d.count[TC_PACKAGES],
				 d.count[TC_CORES], d.given[TC_THREADS] ? d.count[TC_THREADS] : 1);
		build(lx, &d, out);
	}
	desc_free(&d);
	if (lx->failed) {
		topology_free(out);
		return -1;
	}
	return 0;
}

int topology_load(const char *path, struct sched_topology *out, char *err, size_t errlen)
{
	char *text;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (lex_read_file(path, &text, &len, err, errlen) < 0)
		return -1;
	int r = topology_parse(path, text, len, out, err, errlen);
	free(text);
	return r;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder of a scenario's file. */
static void scenario_dir(const char *scenario_path, char *dir, size_t len)
{
	const char *slash = strrchr(scenario_path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", slash == scenario_path ? 1 : (int)(slash - scenario_path),
			 scenario_path);
}

/* The folder of the running program (empty if unknown), so that an install
 * moved as a whole (DESTDIR, a tarball) finds its own share/ folder. */
static void exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);

	if (n <= 0 || (size_t)n >= len - 1) {
		dir[0] = 0;
		return;
	}
	dir[n] = 0;
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		dir[0] = 0;
}

/* The folders a topology name is looked up in, in order. */
static int search_dirs(const char *scenario_path, char dirs[][1100])
{
	const char *env = getenv("SCHEDSCOPE_DATADIR");
	char dir[1024], exe[1024];
	int n = 0;

	scenario_dir(scenario_path, dir, sizeof(dir));
	exe_dir(exe, sizeof(exe));
	/* the install target's layout: BINDIR/schedscope, BINDIR/../share/schedscope/topologies */
	const char *const where[][2] = {
		{ dir, "" },
		{ dir, "/topologies" },
		{ dir, "/../topologies" },
		{ env, "/topologies" },
		{ SCHEDSCOPE_DATADIR, "/topologies" },
		{ exe, "/../share/schedscope/topologies" },
		{ "topologies", "" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(where); i++)
		if (where[i][0] && where[i][0][0])
			snprintf(dirs[n++], 1100, "%s%s", where[i][0], where[i][1]);
	return n;
}

int topology_resolve(const char *name, const char *scenario_path, char *path, size_t pathlen, char *err,
		     size_t errlen)
{
	size_t n = strlen(name);
	char dirs[8][1100], dir[1024];

	if (!strcmp(name, "host")) {
		/* a scenario's `topology host` reads /sys itself (src/host_topology.c) */
		snprintf(err, errlen, "topology host: the host is read from /sys, not a file "
			 "(schedscope topology --host prints it)");
		return -1;
	}
	if (!n) {
		snprintf(err, errlen, "empty topology name");
		return -1;
	}
	if (strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".topo"))) {
		scenario_dir(scenario_path, dir, sizeof(dir));
		int k = name[0] == '/' ? snprintf(path, pathlen, "%s", name)
				       : snprintf(path, pathlen, "%s/%s", dir, name);
		if (k < 0 || (size_t)k >= pathlen) {
			snprintf(err, errlen, "topology path '%.64s...' is too long", name);
			return -1;
		}
		return 0;
	}
	int nd = search_dirs(scenario_path, dirs);
	for (int i = 0; i < nd; i++) {
		int k = snprintf(path, pathlen, "%s/%s.topo", dirs[i], name);
		if (k > 0 && (size_t)k < pathlen && is_file(path))
			return 0;
	}
	snprintf(err, errlen,
		 "topology '%.64s' not found (no %.64s.topo in the scenario's folder, its "
		 "topologies/ or ../topologies/, $SCHEDSCOPE_DATADIR/topologies, %s/topologies, "
		 "../share/schedscope/topologies beside the program or ./topologies)",
		 name, name, SCHEDSCOPE_DATADIR);
	return -1;
}

struct listed {
	char *name;
	int nr_cpus;
};

static int by_size(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;

	if (x->nr_cpus != y->nr_cpus)
		return x->nr_cpus < y->nr_cpus ? -1 : 1;
	return strcmp(x->name, y->name);
}

void topology_list(const char *scenario_path, char ***names, int *count)
{
	char dirs[8][1100];
	int nd = search_dirs(scenario_path, dirs);

	*names = NULL;
	*count = 0;
	for (int i = 0; i < nd && !*count; i++) {
		DIR *d = opendir(dirs[i]);
		struct listed *l = NULL;
		struct dirent *e;
		size_t cap = 0;
		int n = 0;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			char path[1400], err[256];
			struct sched_topology t;

			if (len <= 5 || strcmp(e->d_name + len - 5, ".topo"))
				continue;
			snprintf(path, sizeof(path), "%.1099s/%.255s", dirs[i], e->d_name);
			if (topology_load(path, &t, err, sizeof(err)) < 0)
				continue;
			XGROW(l, cap, n);
			l[n].name = xmalloc(len - 4);
			snprintf(l[n].name, len - 4, "%s", e->d_name);
			l[n++].nr_cpus = t.nr_cpus;
			topology_free(&t);
		}
		closedir(d);
		if (n)
			qsort(l, (size_t)n, sizeof(*l), by_size);
		*names = n ? xcalloc((size_t)n, sizeof(char *)) : NULL;
		for (int k = 0; k < n; k++)
			(*names)[k] = l[k].name;
		*count = n;
		free(l);
	}
}
