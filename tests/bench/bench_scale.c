// SPDX-License-Identifier: GPL-2.0
/*
 * The loads of the scale goals (`make bench`):
 *
 *   mixed     tests/bench/mixed-load.scn: 16 CPUs, four groups (one under
 *             cpu.max), hogs and short run/sleep loops, 60 s at HZ 250
 *   1024cpu   8 packages x 64 cores x 2 threads (8 NUMA nodes), 4000 hogs,
 *             2 s at HZ 250: balancing across many domains and CPUs
 *
 * Each is run from creation to the end with the stream consumer attached,
 * REPS times, the fastest counting (the engine is deterministic; the spread
 * is the host's). x_realtime is simulated seconds per wall second; cpu_sec
 * and x_realtime_cpu count the process's CPU time instead, which other work
 * on a shared machine disturbs less than the wall clock.
 *
 * Output: `bench: NAME VALUE UNIT` lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

static double cpu_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench_run(const char *name, const struct sched_scenario *sc)
{
	double best = 1e30, best_cpu = 1e30, sim = 0;
	u64 events = 0;

	for (int rep = 0; rep < bench_reps; rep++) {
		struct consumer c;
		struct sched_engine *e;
		double t0, t1, c0, c1;

		consumer_init(&c, sc->topo->nr_cpus, sc->nr_tasks);
		c0 = cpu_sec();
		t0 = now_sec();
		e = bench_engine_create(sc);
		sched_add_listener(e, consume, &c);
		while (sched_step(e))
			;
		t1 = now_sec();
		c1 = cpu_sec();
		consumer_finish(&c, sched_now(e));
		if (rep && c.nr_events != events) {
			fprintf(stderr, "bench: %s: run %d differs from run 0 (not deterministic)\n", name,
				rep);
			exit(1);
		}
		events = c.nr_events;
		sim = (double)sched_now(e) / 1e9;
		if (t1 - t0 < best)
			best = t1 - t0;
		if (c1 - c0 < best_cpu)
			best_cpu = c1 - c0;
		sched_engine_destroy(e);
		consumer_free(&c);
	}
	printf("bench: %s wall_sec %.3f s\n", name, best);
	printf("bench: %s x_realtime %.1f x\n", name, sim / best);
	printf("bench: %s events_per_sec %.0f ev/s\n", name, (double)events / best);
	printf("bench: %s cpu_sec %.3f s\n", name, best_cpu);
	printf("bench: %s x_realtime_cpu %.1f x\n", name, sim / best_cpu);
	fflush(stdout);
}

static void bench_mixed(void)
{
	struct scenario_file f;
	char err[512];

	if (scenario_load("tests/bench/mixed-load.scn", &f, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
	bench_run("mixed_16cpu_200tasks_groups_60s", &f.sc);
	scenario_free(&f);
}

static void bench_1024(void)
{
	static const char text[] = "topology packages=8 cores=64 threads=2 nodes=8\n"
				   "hz 250\nseed 1\nduration 2s\nsched eevdf\n"
				   "task hog count=4000 program=\"run forever\"\n";
	struct scenario_file f;

	bench_parse("1024cpu", text, &f);
	bench_run("h_1024cpu_4000hogs_2s", &f.sc);
	scenario_free(&f);
}

int main(int argc, char **argv)
{
	bench_args(argc, argv);
	bench_mixed();
	bench_1024();
	return 0;
}
