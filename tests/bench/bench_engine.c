// SPDX-License-Identifier: GPL-2.0
/*
 * Engine throughput and memory benchmark (`make bench`).
 *
 * Every scenario is built in C (no files, no parser), so this measures the
 * engine alone: timers, schedule(), the fair class, PELT and the event
 * stream. Each run attaches a listener that does what a consumer of the
 * stream does (counts events and accumulates per-task CPU time from
 * sched_switch), so the stream is always "on" and emitting is not free.
 *
 * Each figure is run REPS times and the best (fastest) run is reported:
 * the engine is deterministic, so all runs do identical work and the
 * spread is only noise from the host. Wall time is taken here with
 * CLOCK_MONOTONIC, never inside the engine.
 *
 * Output: one line per figure, `bench: NAME VALUE UNIT`.
 *
 * (g) is (b) scheduled by the scx_simple example policy (ext/scx_simple.c,
 * built in build/ext), to compare a plug-in's cost with the built-in class's.
 *
 * Usage: bench_engine [-q] [-v] [-k M.N] [a|b|c|d|e|f|g ...]
 *   -q      one run per figure instead of REPS (for profiling)
 *   -v      also print each run's events by type and CPU share, on stderr
 *   -k M.N  model kernel M.N in the EEVDF figures (a, b, c) instead of the
 *           latest release; the reported figures are for the default
 *   letters run only those figures (default: all); f reports the state
 *           of b and c only when they ran
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_util.h"
#include "src/format/ext_policy.h"

/* ---- topology ---- */

struct topo_holder {
	struct sched_topology topo;
	struct sched_topo_cpu *cpu;
	u32 *distance;
};

/*
 * packages x cores x threads; one NUMA node and one LLC per package,
 * no separate clusters, all CPUs of capacity 1024.
 */
static void make_topo(struct topo_holder *h, const char *name, int packages, int cores,
		      int threads)
{
	int n = packages * cores * threads, cpu = 0;

	memset(h, 0, sizeof(*h));
	h->cpu = xcalloc((size_t)n, sizeof(*h->cpu));
	h->distance = xcalloc((size_t)packages * packages, sizeof(*h->distance));
	/* Linux numbering: all first threads, then all second threads. */
	for (int t = 0; t < threads; t++) {
		for (int p = 0; p < packages; p++) {
			for (int c = 0; c < cores; c++, cpu++) {
				h->cpu[cpu] = (struct sched_topo_cpu){
					.package = p,
					.node = p,
					.llc = p,
					.cluster = p,
					.core = p * cores + c,
					.thread = t,
					.capacity = 1024,
				};
			}
		}
	}
	for (int a = 0; a < packages; a++)
		for (int b = 0; b < packages; b++)
			h->distance[a * packages + b] = a == b ? 10 : 20;
	snprintf(h->topo.name, sizeof(h->topo.name), "%s", name);
	h->topo.nr_cpus = n;
	h->topo.cpu = h->cpu;
	h->topo.nr_nodes = packages;
	h->topo.distance = h->distance;
}

static void free_topo(struct topo_holder *h)
{
	free(h->cpu);
	free(h->distance);
}

/* ---- programs ---- */

/* run forever */
static struct prog_insn hog_insn[] = {
	{ .op = PROG_RUN_FOREVER },
};
static const struct sched_program hog_prog = { .nr_insns = 1, .insn = hog_insn, .nr_loops = 0 };

/* loop { run R; sleep S } */
struct loop_prog {
	struct prog_insn insn[4];
	struct sched_program prog;
};

static void make_loop_prog(struct loop_prog *lp, u64 run_ns, u64 sleep_ns)
{
	memset(lp, 0, sizeof(*lp));
	lp->insn[0] = (struct prog_insn){ .op = PROG_LOOP, .arg = 0, .target = 4, .loop_slot = 0 };
	lp->insn[1] = (struct prog_insn){ .op = PROG_RUN, .dur = { .kind = DIST_CONST, .a = run_ns } };
	lp->insn[2] = (struct prog_insn){ .op = PROG_SLEEP, .dur = { .kind = DIST_CONST, .a = sleep_ns } };
	lp->insn[3] = (struct prog_insn){ .op = PROG_END_LOOP, .target = 0, .loop_slot = 0 };
	lp->prog = (struct sched_program){ .nr_insns = 4, .insn = lp->insn, .nr_loops = 1 };
}

/* ---- scenario ---- */

struct scen_holder {
	struct sched_scenario sc;
	struct sched_task_spec *task;
};

/* nr_hogs hogs, then nr_loop tasks running `loop`; all forked at time 0, unpinned. */
static void make_scenario(struct scen_holder *h, const struct sched_topology *topo, int kernel,
			  int variant, u32 hz, u64 duration, int nr_hogs, int nr_loop,
			  const struct sched_program *loop)
{
	int n = nr_hogs + nr_loop;

	memset(h, 0, sizeof(*h));
	h->task = xcalloc((size_t)n, sizeof(*h->task));
	for (int i = 0; i < n; i++) {
		struct sched_task_spec *t = &h->task[i];
		bool hog = i < nr_hogs;

		snprintf(t->name, sizeof(t->name), "%s.%d", hog ? "hog" : "loop", hog ? i : i - nr_hogs);
		t->policy = SCHED_NORMAL;
		t->prog = hog ? &hog_prog : loop;
	}
	h->sc = (struct sched_scenario){
		.topo = topo,
		.kernel = kernel,
		.variant = variant,
		.hz = hz,
		.seed = 1,
		.duration = duration,
		.nr_tasks = n,
		.task = h->task,
	};
}

/* ---- running ---- */

struct result {
	double wall;		/* seconds, best of the runs */
	u64 events;		/* events per run (identical in every run) */
	double sim;		/* simulated seconds */
	size_t state_bytes;	/* sched_state_size() */
	int nr_tasks;
	u64 busy_ns;		/* CPU time of all non-idle tasks (a determinism check) */
};

static int eevdf_kernel = KV_LATEST;
static bool verbose;

static void print_breakdown(const struct sched_scenario *sc, const struct consumer *c, u64 end)
{
	fprintf(stderr, "  %llu events:", (unsigned long long)c->nr_events);
	for (int t = 0; t < NR_SCHED_EVENTS; t++)
		if (c->by_type[t])
			fprintf(stderr, " %s=%llu", sched_event_names[t], (unsigned long long)c->by_type[t]);
	fprintf(stderr, "\n  idle %.1f%% of CPU time", 100.0 * (double)c->cpu_time[0] /
		((double)end * c->nr_cpus));
	for (int pid = 1; pid < c->nr_pids; pid += MAX(1, (c->nr_pids - 1) / 4))
		fprintf(stderr, ", %s %.1f%%", sc->task[pid - 1].name,
			100.0 * (double)c->cpu_time[pid] / (double)end);
	fprintf(stderr, "\n");
}

/* Run a scenario `bench_reps` times from creation to the end; the fastest run wins. */
static struct result run_best(const struct sched_scenario *sc)
{
	struct result r = { .wall = 1e30 };

	for (int rep = 0; rep < bench_reps; rep++) {
		struct consumer c;
		struct sched_engine *e;
		double t0, t1;
		u64 busy = 0;

		consumer_init(&c, sc->topo->nr_cpus, sc->nr_tasks);
		t0 = now_sec();
		e = bench_engine_create(sc);
		sched_add_listener(e, consume, &c);
		while (sched_step(e))
			;
		t1 = now_sec();

		consumer_finish(&c, sched_now(e));
		if (verbose && rep == 0)
			print_breakdown(sc, &c, sched_now(e));
		for (int pid = 1; pid < c.nr_pids; pid++)
			busy += c.cpu_time[pid];
		if (rep && (c.nr_events != r.events || busy != r.busy_ns)) {
			fprintf(stderr, "bench: run %d differs from run 0 (not deterministic)\n", rep);
			exit(1);
		}
		r.events = c.nr_events;
		r.busy_ns = busy;
		r.sim = (double)sched_now(e) / 1e9;
		r.state_bytes = sched_state_size(e);
		r.nr_tasks = sched_nr_tasks(e);
		if (t1 - t0 < r.wall)
			r.wall = t1 - t0;
		sched_engine_destroy(e);
		consumer_free(&c);
	}
	return r;
}

static void print_rate(const char *name, const struct result *r)
{
	printf("bench: %s events_per_sec %.0f ev/s\n", name, (double)r->events / r->wall);
	printf("bench: %s sim_sec_per_wall_sec %.1f sim-s/s\n", name, r->sim / r->wall);
	fflush(stdout);
}

/* ---- the figures ---- */

#define SEC NSEC_PER_SEC
#define MS NSEC_PER_MSEC

static struct result res_b, res_c;
static bool have_b, have_c;

/* (a) 1 CPU, 3 hogs, 60 s, HZ 250, EEVDF */
static void fig_a(void)
{
	struct topo_holder t;
	struct scen_holder s;
	struct result r;

	make_topo(&t, "1cpu", 1, 1, 1);
	make_scenario(&s, &t.topo, eevdf_kernel, SCHED_VARIANT_EEVDF, 250, 60 * SEC, 3, 0, NULL);
	r = run_best(&s.sc);
	print_rate("a_1cpu_3hogs_60s", &r);
	free(s.task);
	free_topo(&t);
}

/* (b) 16 CPUs (4 packages x 4 cores), 100 hogs + 100 `loop { run 1ms; sleep 9ms }`, 60 s */
static void fig_b(void)
{
	struct topo_holder t;
	struct scen_holder s;
	struct loop_prog lp;

	make_topo(&t, "4x4", 4, 4, 1);
	make_loop_prog(&lp, 1 * MS, 9 * MS);
	make_scenario(&s, &t.topo, eevdf_kernel, SCHED_VARIANT_EEVDF, 250, 60 * SEC, 100, 100, &lp.prog);
	res_b = run_best(&s.sc);
	have_b = true;
	print_rate("b_16cpu_200tasks_60s", &res_b);
	free(s.task);
	free_topo(&t);
}

/* (c) 256 CPUs (2 packages x 64 cores x 2 threads), 5000 hogs + 5000 periodic, 10 s */
static void fig_c(void)
{
	struct topo_holder t;
	struct scen_holder s;
	struct loop_prog lp;

	make_topo(&t, "2x64x2", 2, 64, 2);
	make_loop_prog(&lp, 1 * MS, 9 * MS);
	make_scenario(&s, &t.topo, eevdf_kernel, SCHED_VARIANT_EEVDF, 250, 10 * SEC, 5000, 5000, &lp.prog);
	res_c = run_best(&s.sc);
	have_c = true;
	print_rate("c_256cpu_10000tasks_10s", &res_c);
	free(s.task);
	free_topo(&t);
}

/* (d) 16 CPUs, HZ 1000, legacy CFS of 6.1, 100 hogs, 60 s (LinSched 3.3: ~0.45 s) */
static void fig_d(void)
{
	struct topo_holder t;
	struct scen_holder s;
	struct result r;

	make_topo(&t, "4x4", 4, 4, 1);
	make_scenario(&s, &t.topo, KV(6, 1), SCHED_VARIANT_CFS, 1000, 60 * SEC, 100, 0, NULL);
	r = run_best(&s.sc);
	printf("bench: d_cfs_16cpu_100hogs_hz1000_60s wall_sec %.3f s\n", r.wall);
	printf("bench: d_cfs_16cpu_100hogs_hz1000_60s events_per_sec %.0f ev/s\n",
	       (double)r.events / r.wall);
	fflush(stdout);
	free(s.task);
	free_topo(&t);
}

/* (e) as (d) with 200 tasks `loop { run 20ms; sleep 10ms }` (LinSched 3.3: ~0.94 s) */
static void fig_e(void)
{
	struct topo_holder t;
	struct scen_holder s;
	struct loop_prog lp;
	struct result r;

	make_topo(&t, "4x4", 4, 4, 1);
	make_loop_prog(&lp, 20 * MS, 10 * MS);
	make_scenario(&s, &t.topo, KV(6, 1), SCHED_VARIANT_CFS, 1000, 60 * SEC, 0, 200, &lp.prog);
	r = run_best(&s.sc);
	printf("bench: e_cfs_16cpu_200loop_hz1000_60s wall_sec %.3f s\n", r.wall);
	printf("bench: e_cfs_16cpu_200loop_hz1000_60s events_per_sec %.0f ev/s\n",
	       (double)r.events / r.wall);
	fflush(stdout);
	free(s.task);
	free_topo(&t);
}

/* (g) (b) under the scx_simple policy: events per second against the built-in EEVDF's */
static void fig_g(void)
{
	struct topo_holder t;
	struct scen_holder s;
	struct loop_prog lp;
	struct ext_policy pol;
	struct result r;
	char err[1024];

	if (ext_policy_load("build/ext/scx_simple.so", &pol, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench: %s (make ext-examples builds it)\n", err);
		exit(1);
	}
	make_topo(&t, "4x4", 4, 4, 1);
	make_loop_prog(&lp, 1 * MS, 9 * MS);
	make_scenario(&s, &t.topo, KV(6, 12), SCHED_VARIANT_EEVDF, 250, 60 * SEC, 100, 100, &lp.prog);
	s.sc.ext_ops = pol.ops;
	r = run_best(&s.sc);
	print_rate("g_ext_simple_16cpu_200tasks_60s", &r);
	if (have_b)
		printf("bench: g_vs_b events_per_sec_ratio %.2f x\n",
		       ((double)res_b.events / res_b.wall) / ((double)r.events / r.wall));
	fflush(stdout);
	free(s.task);
	free_topo(&t);
	ext_policy_unload(&pol);
}

/*
 * (f) engine state per task for (b) and (c): the arena's used bytes (what a
 * checkpoint copies) over the task count; and the process's peak RSS, which
 * covers every figure run so far (so with all figures it is (c)'s peak:
 * arena, scenario specs and the listener's arrays).
 */
static void print_state(const char *name, const struct result *r)
{
	printf("bench: %s state_bytes %zu B\n", name, r->state_bytes);
	printf("bench: %s state_bytes_per_task %.0f B\n", name, (double)r->state_bytes / r->nr_tasks);
}

static void fig_f(void)
{
	struct rusage ru;

	if (have_b)
		print_state("f_b_16cpu_200tasks", &res_b);
	if (have_c)
		print_state("f_c_256cpu_10000tasks", &res_c);
	/* ru_maxrss is in KiB on Linux */
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		printf("bench: f_process max_rss %ld KiB\n", ru.ru_maxrss);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const struct {
		char name;
		void (*fn)(void);
	} figs[] = {
		{ 'a', fig_a }, { 'b', fig_b }, { 'c', fig_c }, { 'd', fig_d },
		{ 'e', fig_e }, { 'f', fig_f }, { 'g', fig_g },
	};
	bool want[ARRAY_SIZE(figs)] = { 0 };
	bool any = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q")) {
			bench_reps = 1;
			continue;
		}
		if (!strcmp(argv[i], "-k") && i + 1 < argc) {
			int major, minor;

			if (sscanf(argv[++i], "%d.%d", &major, &minor) != 2 ||
			    KV(major, minor) < KV_FIRST_EEVDF || !sched_kernel_version_valid(KV(major, minor))) {
				fprintf(stderr, "%s: -k wants an EEVDF release, 6.6 or later\n", argv[0]);
				return 2;
			}
			eevdf_kernel = KV(major, minor);
			continue;
		}
		if (!strcmp(argv[i], "-v")) {
			verbose = true;
			continue;
		}
		for (size_t f = 0; f < ARRAY_SIZE(figs); f++) {
			if (argv[i][0] == figs[f].name && !argv[i][1]) {
				want[f] = any = true;
				goto next;
			}
		}
		fprintf(stderr, "usage: %s [-q] [-v] [-k M.N] [a|b|c|d|e|f|g ...]\n", argv[0]);
		return 2;
next:;
	}
	for (size_t f = 0; f < ARRAY_SIZE(figs); f++)
		if (!any || want[f])
			figs[f].fn();
	return 0;
}
