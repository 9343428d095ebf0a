// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the engine itself: the bytes choose a random *valid*
 * scenario (a topology of 1 to 16 CPUs with SMT, clusters, LLCs, NUMA or
 * asymmetric capacity; a kernel release and features; groups with weights,
 * cpu.max, cpu.idle and nesting; tasks of every policy with affinities and
 * programs; run-time commands), run with the engine's invariant checks on,
 * under ASan and UBSan, and then rewound to a random time and replayed, as
 * --rewind-check does: a replay that differs aborts.
 *
 * The scenario is written as .scn text and read by the real parser, so the
 * parser is exercised on valid input too: parsing takes microseconds, the
 * run milliseconds. SCHEDSCOPE_FUZZ_PRINT=1 in the environment prints each
 * scenario, which turns a crashing input into a scenario file; =only prints
 * without running.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched/api/history.h"
#include "src/analysis/rewind_check.h"
#include "src/format/scenario_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A run stops early past this many events, or once the invariants have
 * checked this many run queues (every queue at every step: 16 CPUs, six
 * groups and programs of 100us runs, a step each without an event, took 9 s).
 */
#define MAX_EVENTS 30000
#define MAX_QUEUE_CHECKS 500000
#define MAX_TASK_LINES 8
#define MAX_GROUPS 6

/* ---- the bytes, read as choices (zeros once they run out) ---- */

struct bytes {
	const uint8_t *p;
	size_t n;
};

static unsigned take8(struct bytes *b)
{
	if (!b->n)
		return 0;
	b->n--;
	return *b->p++;
}

/* 0 .. n-1 */
static unsigned pick(struct bytes *b, unsigned n)
{
	unsigned v = take8(b) | take8(b) << 8;

	return n ? v % n : 0;
}

static bool chance(struct bytes *b, unsigned percent)
{
	return take8(b) * 100u < percent * 256u;
}

/* ---- the scenario text ---- */

struct text {
	char *s;
	size_t len, cap;
};

static void __attribute__((format(printf, 2, 3))) out(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if ((size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + (size_t)n + 1;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			abort();
	}
	t->len += (size_t)n;
}

/* ---- what the generator knows of the scenario so far ---- */

struct task_line {
	char name[8];
	int count;   /* 0: one task named `name`, else name.0 .. name.count-1 */
	bool pinned; /* has cpus= (may not become a deadline task) */
	bool forked; /* started by another task's `fork` (so no at=) */
	bool deadline;
};

struct gen {
	struct bytes *b;
	struct text *t;
	int nr_cpus;
	u64 duration;
	int nr_groups;
	char group[MAX_GROUPS + 1][64];	 /* [0] = "/" */
	bool group_idle[MAX_GROUPS + 1]; /* cpu.idle at some point: no cpu.weight writes */
	int nr_tasks;
	struct task_line task[MAX_TASK_LINES];
	int nr_dl; /* deadline task instances so far, declared or set */
};

static char topo_dir[] = "/tmp/schedscope-fuzz-engine.XXXXXX";

/* Shapes the inline form takes; the files add capacities and distances. */
static const struct shape {
	int packages, cores, threads;
	const char *extra;
} shapes[] = {
	{ 1, 1, 1, "" },
	{ 1, 2, 1, "" },
	{ 1, 1, 2, "" },
	{ 1, 2, 2, "" },
	{ 1, 3, 1, "" },
	{ 1, 4, 1, "" },
	{ 1, 4, 2, "" },
	{ 2, 1, 1, "" },
	{ 2, 2, 1, "" },
	{ 2, 2, 2, "" },
	{ 1, 8, 1, "llcs=2" },
	{ 1, 4, 1, "clusters=2" },
	{ 2, 4, 1, "nodes=2" },
	{ 4, 2, 1, "nodes=4" },
	{ 1, 8, 2, "llcs=2 nodes=2" },
	{ 4, 4, 1, "" },
	{ 1, 16, 1, "llcs=4" },
	{ 2, 4, 2, "numbering=smt-last" },
	{ 1, 6, 1, "llcs=3" },
	{ 1, 8, 1, "llcs=2 clusters=2" },
};

static const struct topo_file {
	const char *name, *text;
	int nr_cpus;
} topo_files[] = {
	{ "asym.topo", "packages 1\ncores 6\nclusters 2\ncapacity 0-2 446\ncapacity 3-5 1024\n", 6 },
	{ "numa3.topo",
	  "packages 3\ncores 2\nthreads 2\ndistance 10 16 32\ndistance 16 10 16\n"
	  "distance 32 16 10\n",
	  12 },
	{ "little.topo", "packages 1\ncores 2\nthreads 2\ncapacity 0-1 512\ncapacity 2-3 1024\n", 4 },
};

static void gen_topology(struct gen *g)
{
	unsigned n = sizeof(shapes) / sizeof(shapes[0]), f = sizeof(topo_files) / sizeof(topo_files[0]);
	unsigned i = pick(g->b, n + f);

	if (i < n) {
		const struct shape *s = &shapes[i];

		out(g->t, "topology packages=%d cores=%d threads=%d %s\n", s->packages, s->cores, s->threads,
		    s->extra);
		g->nr_cpus = s->packages * s->cores * s->threads;
	} else {
		out(g->t, "topology %s/%s\n", topo_dir, topo_files[i - n].name);
		g->nr_cpus = topo_files[i - n].nr_cpus;
	}
}

static void gen_kernel(struct gen *g)
{
	static const int minors[] = { 19, 20, 19, 19 }; /* 3.x, 4.x, 5.x, 6.x */
	int major = 3 + (int)pick(g->b, 4), minor;

	/* mostly the EEVDF releases, where most of the engine's rules differ */
	if (chance(g->b, 60))
		major = 6;
	minor = (int)pick(g->b, (unsigned)minors[major - 3] + 1);
	if (major == 6 && chance(g->b, 50))
		minor = 12 + (int)pick(g->b, 8);
	/* 6.18's stable updates from 6.18.33 carry backported wakeup rules */
	if (major == 6 && minor == 18 && chance(g->b, 50))
		out(g->t, "kernel 6.18.%u\n", 30 + (unsigned)pick(g->b, 20));
	else
		out(g->t, "kernel %d.%d\n", major, minor);
	/* the legacy CFS on a new release, as `sched cfs` allows */
	if (major == 6 && minor >= 6 && chance(g->b, 15))
		out(g->t, "sched cfs\n");
}

static void duration_text(char *buf, size_t len, u64 ns)
{
	snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000 ? ns / 1000 : 1));
}

/* A run or sleep length: mostly fixed, sometimes drawn. */
static void gen_dist(struct gen *g)
{
	static const unsigned us[] = { 100, 250, 500, 1000, 2000, 3000, 5000, 8000, 20000 };
	unsigned a = us[pick(g->b, 9)], b = us[pick(g->b, 9)];

	switch (pick(g->b, 8)) {
	case 0:
		out(g->t, "uniform(%uus,%uus)", a < b ? a : b, a < b ? b : a);
		break;
	case 1:
		out(g->t, "exp(%uus)", a);
		break;
	case 2:
		out(g->t, "normal(%uus,%uus)", a, b / 4 + 1);
		break;
	default:
		out(g->t, "%uus", a + pick(g->b, 64) * 37);
	}
}

/* A pattern that matches task line i (its one task, or all its instances). */
static const char *pattern(struct gen *g, int i)
{
	return g->task[i].name;
}

static void gen_statements(struct gen *g, int self, int depth, bool in_loop);

static void gen_statement(struct gen *g, int self, int depth)
{
	int other = (int)pick(g->b, (unsigned)g->nr_tasks);
	int r = (int)pick(g->b, 100);

	if (r < 30) {
		out(g->t, "run ");
		gen_dist(g);
	} else if (r < 50) {
		out(g->t, "sleep ");
		gen_dist(g);
	} else if (r < 58 && depth < 2) {
		if (chance(g->b, 50))
			out(g->t, "loop %u { ", 1 + pick(g->b, 20));
		else
			out(g->t, "loop { ");
		gen_statements(g, self, depth + 1, true);
		out(g->t, " }");
	} else if (r < 63) {
		out(g->t, "wait");
	} else if (r < 70) {
		out(g->t, "%s %s*", chance(g->b, 30) ? "wake_sync" : "wake", pattern(g, other));
	} else if (r < 73) {
		out(g->t, "yield");
	} else if (r < 76 && !g->task[other].count) {
		out(g->t, "yield_to %s", g->task[other].name);
	} else if (r < 80) {
		out(g->t, "nice %d", (int)pick(g->b, 40) - 20);
	} else if (r < 84) {
		unsigned m = pick(g->b, 2);
		out(g->t, "lock m%u; run ", m);
		gen_dist(g);
		out(g->t, "; unlock m%u", m);
	} else if (r < 87) {
		out(g->t, "cond_wait c%u m%u", pick(g->b, 2), pick(g->b, 2));
	} else if (r < 90) {
		out(g->t, "%s c%u", chance(g->b, 50) ? "signal" : "broadcast", pick(g->b, 2));
	} else if (r < 92) {
		out(g->t, "barrier b0");
	} else if (r < 95) {
		out(g->t, "timer %s %uus", chance(g->b, 50) ? "unique" : "tm0", 500 + pick(g->b, 20000));
	} else if (r < 97 && g->task[other].forked && other != self) {
		out(g->t, "fork %s", g->task[other].name);
	} else if (r < 99) {
		out(g->t, "%s c%u", chance(g->b, 50) ? "suspend" : "resume", pick(g->b, 2));
	} else {
		out(g->t, "exit");
	}
}

/* A loop body starts with a run or sleep that takes time, as the parser requires. */
static void gen_statements(struct gen *g, int self, int depth, bool in_loop)
{
	int n = 1 + (int)pick(g->b, 4);

	if (in_loop) {
		out(g->t, "%s ", chance(g->b, 60) ? "run" : "sleep");
		gen_dist(g);
		out(g->t, "; ");
	}
	for (int i = 0; i < n; i++) {
		if (i)
			out(g->t, "; ");
		gen_statement(g, self, depth);
	}
}

static void gen_cpus(struct gen *g)
{
	u32 mask = 0;
	bool first = true;

	while (!mask)
		mask = (u32)(take8(g->b) | take8(g->b) << 8 | 1u << pick(g->b, 16)) &
		       ((1u << g->nr_cpus) - 1);
	out(g->t, " cpus=");
	for (int c = 0; c < g->nr_cpus; c++) {
		if (!(mask >> c & 1))
			continue;
		out(g->t, "%s%d", first ? "" : ",", c);
		first = false;
	}
}

/* A SCHED_DEADLINE reservation of at most 1/16 of a CPU, so that four always fit. */
static void gen_dl_params(struct gen *g)
{
	static const unsigned period_us[] = { 1000, 5000, 10000, 33000, 100000 };
	unsigned period = period_us[pick(g->b, 5)];
	unsigned runtime = period / 16 / (1 + pick(g->b, 4));
	unsigned deadline = runtime + pick(g->b, period - runtime + 1);

	out(g->t, "runtime=%uus deadline=%uus period=%uus", runtime, deadline, period);
}

static void gen_task_line(struct gen *g, int i)
{
	struct task_line *tl = &g->task[i];
	int r = (int)pick(g->b, 100);
	int n = tl->count ? tl->count : 1;

	out(g->t, "task %s", tl->name);
	if (tl->count)
		out(g->t, " count=%d", tl->count);
	if (r < 55) {
		out(g->t, " nice=%d", (int)pick(g->b, 40) - 20);
	} else if (r < 65) {
		out(g->t, " policy=batch nice=%d", (int)pick(g->b, 40) - 20);
	} else if (r < 75) {
		out(g->t, " policy=idle");
	} else if (r < 90) {
		out(g->t, " policy=%s prio=%u", chance(g->b, 50) ? "fifo" : "rr", 1 + pick(g->b, 99));
	} else if (g->nr_dl + n <= 4 && !tl->pinned) {
		out(g->t, " policy=deadline ");
		gen_dl_params(g);
		g->nr_dl += n;
		tl->deadline = true;
	}
	if (tl->pinned)
		gen_cpus(g);
	if (chance(g->b, 15))
		out(g->t, " slice=%uus", 100 + pick(g->b, 20000));
	if (g->nr_groups && chance(g->b, 60))
		out(g->t, " group=%s", g->group[pick(g->b, (unsigned)g->nr_groups + 1)]);
	if (!tl->forked && chance(g->b, 40))
		out(g->t, " at=%lluus", (unsigned long long)(pick(g->b, 1000) * (g->duration / 1000) / 1000));
	out(g->t, " program=\"");
	/* a forked task line is started by the line before it */
	if (i + 1 < g->nr_tasks && g->task[i + 1].forked && chance(g->b, 80))
		out(g->t, "fork %s; ", g->task[i + 1].name);
	if (chance(g->b, 25)) {
		out(g->t, "loop { ");
		gen_statements(g, i, 1, true);
		out(g->t, " }");
	} else {
		gen_statements(g, i, 0, false);
		if (chance(g->b, 30))
			out(g->t, "; run forever");
	}
	out(g->t, "\"\n");
}

static void gen_cpu_max(struct gen *g)
{
	static const unsigned period_us[] = { 1000, 5000, 10000, 50000, 100000, 250000 };
	unsigned period = period_us[pick(g->b, 6)];
	unsigned quota = 1000 + pick(g->b, period * (unsigned)g->nr_cpus / 1000 + 1) * 1000;

	out(g->t, " cpu.max=\"%uus %uus\"", quota, period);
	if (chance(g->b, 30))
		out(g->t, " cpu.max.burst=%uus", pick(g->b, quota + 1));
}

static void gen_group_line(struct gen *g, int i)
{
	int parent = (int)pick(g->b, (unsigned)i + 1);

	snprintf(g->group[i + 1], sizeof(g->group[0]), "%s/g%d", parent ? g->group[parent] : "", i);
	out(g->t, "group %s", g->group[i + 1]);
	g->group_idle[i + 1] = chance(g->b, 20);
	if (g->group_idle[i + 1])
		out(g->t, " cpu.idle=1");
	else if (chance(g->b, 60))
		out(g->t, " cpu.weight=%u", 1 + pick(g->b, 10000));
	if (chance(g->b, 50))
		gen_cpu_max(g);
	out(g->t, "\n");
}

/* A tunable and a value in its range, in the units the files take. */
static void gen_tunable(struct gen *g)
{
	switch (pick(g->b, 10)) {
	case 0:
		out(g->t, "base_slice=%uus", 100 + pick(g->b, 10000));
		break;
	case 1:
		out(g->t, "migration_cost=%uus", pick(g->b, 2000));
		break;
	case 2:
		out(g->t, "nr_migrate=%u", 1 + pick(g->b, 64));
		break;
	case 3:
		out(g->t, "cfs_bandwidth_slice=%uus", 100 + pick(g->b, 10000));
		break;
	case 4:
		out(g->t, "sched_rt_runtime_us=%uus", 500000 + pick(g->b, 450) * 1000);
		break;
	case 5:
		out(g->t, "sched_rr_timeslice_ms=%ums", 1 + pick(g->b, 100));
		break;
	case 6:
		out(g->t, "latency=%uus", 1000 + pick(g->b, 30000));
		break;
	case 7:
		out(g->t, "min_granularity=%uus", 100 + pick(g->b, 5000));
		break;
	case 8:
		out(g->t, "wakeup_granularity=%uus", pick(g->b, 5000));
		break;
	default:
		out(g->t, "tunable_scaling=%u", pick(g->b, 3));
	}
}

static void gen_feature(struct gen *g)
{
	out(g->t, "%s%s", chance(g->b, 50) ? "NO_" : "", sched_feature_names[pick(g->b, NR_SCHED_FEATURES)]);
}

static void gen_action(struct gen *g)
{
	int i = (int)pick(g->b, (unsigned)g->nr_tasks), n;
	struct task_line *tl = &g->task[i];

	out(g->t, "at %lluus ", (unsigned long long)(pick(g->b, 1000) * (g->duration / 1000) / 1000));
	switch (pick(g->b, 10)) {
	case 0:
		out(g->t, "set nice %s* %d\n", tl->name, (int)pick(g->b, 40) - 20);
		break;
	case 1:
		if (chance(g->b, 30))
			out(g->t, "set slice %s* default\n", tl->name);
		else
			out(g->t, "set slice %s* %uus\n", tl->name, 100 + pick(g->b, 20000));
		break;
	case 2: {
		static const char *const pol[] = { "normal", "batch", "idle", "fifo prio=10", "rr prio=50" };

		n = tl->count ? tl->count : 1;

		if (!tl->pinned && !tl->deadline && g->nr_dl + n <= 4 && chance(g->b, 25)) {
			out(g->t, "set policy %s* deadline ", tl->name);
			gen_dl_params(g);
			out(g->t, "\n");
			g->nr_dl += n;
			tl->deadline = true;
		} else {
			out(g->t, "set policy %s* %s\n", tl->name, pol[pick(g->b, 5)]);
		}
		break;
	}
	case 3:
		out(g->t, "set tunable ");
		gen_tunable(g);
		out(g->t, "\n");
		break;
	case 4:
		out(g->t, "set feature ");
		gen_feature(g);
		out(g->t, "\n");
		break;
	case 5:
	case 6:
		if (!g->nr_groups) {
			out(g->t, "set nice %s* 5\n", tl->name);
			break;
		}
		n = 1 + (int)pick(g->b, (unsigned)g->nr_groups);
		out(g->t, "set group %s", g->group[n]);
		switch (pick(g->b, 4)) {
		case 0:
			/* the kernel refuses a weight for an idle group */
			if (!g->group_idle[n]) {
				out(g->t, " cpu.weight=%u\n", 1 + pick(g->b, 10000));
				break;
			}
			/* fall through */
		case 1:
			out(g->t, " cpu.idle=%u\n", pick(g->b, 2));
			g->group_idle[n] = true;
			break;
		case 2:
			out(g->t, " cpu.max=max\n");
			break;
		default:
			gen_cpu_max(g);
			out(g->t, "\n");
		}
		break;
	case 7:
		/* a deadline task may not be narrowed, nor a narrowed task become one */
		if (tl->deadline) {
			out(g->t, "set nice %s* 0\n", tl->name);
			break;
		}
		n = (int)pick(g->b, (unsigned)g->nr_cpus);
		out(g->t, "set cpus %s* %d-%d\n", tl->name, n,
		    n + (int)pick(g->b, (unsigned)(g->nr_cpus - n)));
		tl->pinned = true;
		break;
	default:
		out(g->t, "move task %s* to %s\n", tl->name,
		    g->group[pick(g->b, (unsigned)g->nr_groups + 1)]);
	}
}

static void gen_scenario(struct gen *g)
{
	static const unsigned hz[] = { 100, 250, 300, 1000 };
	static const unsigned ms[] = { 20, 50, 100, 200, 300, 500, 1000 };
	int n, instances = 0;

	gen_topology(g);
	out(g->t, "hz %u\nseed %u\n", hz[pick(g->b, 4)], take8(g->b));
	g->duration = (u64)ms[pick(g->b, 7)] * NSEC_PER_MSEC;
	out(g->t, "duration %llums\n", (unsigned long long)(g->duration / NSEC_PER_MSEC));
	gen_kernel(g);
	for (n = (int)pick(g->b, 4); n > 0; n--) {
		out(g->t, "feature ");
		gen_feature(g);
		out(g->t, "\n");
	}
	for (n = (int)pick(g->b, 3); n > 0; n--) {
		out(g->t, "tunable ");
		gen_tunable(g);
		out(g->t, "\n");
	}
	g->nr_groups = (int)pick(g->b, MAX_GROUPS + 1);
	strcpy(g->group[0], "/");
	for (int i = 0; i < g->nr_groups; i++)
		gen_group_line(g, i);
	if (chance(g->b, 15)) {
		char every[32], cost[32];

		duration_text(every, sizeof(every), (100 + pick(g->b, 5000)) * NSEC_PER_USEC);
		duration_text(cost, sizeof(cost), (1 + pick(g->b, 90)) * NSEC_PER_USEC);
		out(g->t, "%s cpu=%u every=%s cost=%s\n", chance(g->b, 70) ? "irq" : "steal",
		    pick(g->b, (unsigned)g->nr_cpus), every, cost);
	}
	/* the task lines' names and shapes first: programs name each other */
	g->nr_tasks = 1 + (int)pick(g->b, MAX_TASK_LINES);
	for (int i = 0; i < g->nr_tasks; i++) {
		struct task_line *tl = &g->task[i];

		snprintf(tl->name, sizeof(tl->name), "t%d", i);
		tl->count = instances < 12 && chance(g->b, 30) ? 2 + (int)pick(g->b, 2) : 0;
		instances += tl->count ? tl->count : 1;
		tl->pinned = chance(g->b, 35);
		tl->forked = i > 0 && chance(g->b, 10);
	}
	for (int i = 0; i < g->nr_tasks; i++)
		gen_task_line(g, i);
	for (n = (int)pick(g->b, 7); n > 0; n--)
		gen_action(g);
}

/* ---- running it ---- */

static const char *current_text;

static void invariant_violated(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "fuzz_engine: %s\n--- scenario ---\n%s--- end ---\n", msg, current_text);
}

static void remove_topo_dir(void)
{
	for (size_t i = 0; i < sizeof(topo_files) / sizeof(topo_files[0]); i++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/%s", topo_dir, topo_files[i].name);
		unlink(path);
	}
	rmdir(topo_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(topo_dir) || atexit(remove_topo_dir))
		abort();
	for (size_t i = 0; i < sizeof(topo_files) / sizeof(topo_files[0]); i++) {
		char path[256];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", topo_dir, topo_files[i].name);
		f = fopen(path, "w");
		if (!f || fputs(topo_files[i].text, f) < 0 || fclose(f))
			abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bytes b = { data, size };
	struct text t = { calloc(1, 256), 0, 256 };
	struct gen g = { .b = &b, .t = &t };
	struct scenario_file f;
	struct sched_engine *e;
	struct sched_history *h;
	struct rewind_check_result r;
	char err[512];
	const char *print;
	u64 end, queues;

	if (!t.s)
		abort();
	gen_scenario(&g);
	current_text = t.s;
	print = getenv("SCHEDSCOPE_FUZZ_PRINT");
	if (print)
		fprintf(stderr, "%s", t.s);
	if (print && !strcmp(print, "only")) {
		free(t.s);
		return 0;
	}
	if (scenario_parse("fuzz.scn", t.s, t.len, &f, err, sizeof(err)) < 0) {
		/* the generator means to write valid scenarios: say so when asked */
		if (print)
			fprintf(stderr, "refused: %s\n", err);
		free(t.s);
		return 0;
	}
	e = sched_engine_create(&f.sc, err, sizeof(err));
	if (!e)
		abort();
	sched_set_invariant_check(e, invariant_violated, NULL);
	h = history_create(e, 16u << 20);
	end = f.sc.duration;
	queues = (u64)sched_nr_cpus(e) * (u64)sched_nr_groups(e);
	while (!sched_finished(e) && sched_now(e) < end) {
		u64 next = sched_now(e) + 5 * NSEC_PER_MSEC;

		history_run_until(h, next < end ? next : end);
		if (sched_nr_events(e) > MAX_EVENTS || sched_nr_steps(e) * queues > MAX_QUEUE_CHECKS) {
			end = sched_now(e);
			break;
		}
	}
	/* the replay must reproduce the states just checked: compare them instead */
	sched_set_invariant_check(e, NULL, NULL);
	rewind_check(h, end, 1, f.sc.seed, &r, NULL, NULL);
	if (r.mismatches || r.state_diffs) {
		fprintf(stderr,
			"fuzz_engine: rewind-check: %llu mismatching events, %d final states differ\n"
			"--- scenario ---\n%s--- end ---\n",
			(unsigned long long)r.mismatches, r.state_diffs, t.s);
		abort();
	}
	history_destroy(h);
	sched_engine_destroy(e);
	scenario_free(&f);
	free(t.s);
	return 0;
}
