// SPDX-License-Identifier: GPL-2.0
/*
 * Task-group benchmarks (`make bench`):
 *
 *   depth   events per second of the 16-CPU reference load (100 hogs, 100
 *           `loop { run 1ms; sleep 9ms }`, 10 s) with every task in a group
 *           nested 1, 3 and 6 levels deep (4 chains, tasks dealt round robin)
 *   shares  the cost of one group-weight update as the CPU count grows (16,
 *           64, 256): one update_cfs_group() of today's scheme, against one
 *           tg_shares_up walk of 2.6.3x (TG_SHARES_UP_WALK), with 8 groups
 *           each holding a hog on every CPU
 *
 * Output: `bench: NAME VALUE UNIT` lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/internal.h"
#include "bench_util.h"

#define SEC NSEC_PER_SEC

/* Scenario text: 4 chains /cN/l1/l2/... of `depth` levels, the tasks dealt over the leaves. */
static char *depth_scenario(int depth)
{
	size_t cap = 1 << 16, n = 0;
	char *s = xcalloc(cap, 1);

	n += (size_t)snprintf(s + n, cap - n, "topology packages=4 cores=4 threads=1\nhz 250\nseed 1\n"
			      "duration 10s\nsched eevdf\n");
	for (int c = 0; c < 4; c++) {
		char path[256] = "";
		size_t pl = 0;

		for (int l = 0; l < depth; l++) {
			pl += (size_t)snprintf(path + pl, sizeof(path) - pl, l ? "/l%d" : "/c%d", l ? l : c);
			n += (size_t)snprintf(s + n, cap - n, "group %s\n", path);
		}
		n += (size_t)snprintf(s + n, cap - n,
				      "task hog%d count=25 group=%s program=\"run forever\"\n"
				      "task loop%d count=25 group=%s program=\"loop { run 1ms; sleep 9ms }\"\n",
				      c, path, c, path);
	}
	return s;
}

static void bench_depth(int depth)
{
	struct scenario_file f;
	char *text = depth_scenario(depth), name[64];
	double best = 1e30;
	u64 events = 0;

	snprintf(name, sizeof(name), "groups_depth%d", depth);
	bench_parse(name, text, &f);
	for (int rep = 0; rep < bench_reps; rep++) {
		struct consumer c;
		struct sched_engine *e;
		double t0;

		consumer_init(&c, f.sc.topo->nr_cpus, f.sc.nr_tasks);
		t0 = now_sec();
		e = bench_engine_create(&f.sc);
		sched_add_listener(e, consume, &c);
		while (sched_step(e))
			;
		if (now_sec() - t0 < best)
			best = now_sec() - t0;
		events = c.nr_events;
		sched_engine_destroy(e);
		consumer_free(&c);
	}
	printf("bench: %s_16cpu_200tasks_10s events_per_sec %.0f ev/s\n", name, (double)events / best);
	printf("bench: %s_16cpu_200tasks_10s sim_sec_per_wall_sec %.1f sim-s/s\n", name, 10.0 / best);
	fflush(stdout);
	scenario_free(&f);
	free(text);
}

/* 8 groups, a hog of each on every CPU of a packages x 16 cores machine, run 1 s. */
static struct sched_engine *shares_engine(struct scenario_file *f, int nr_cpus, bool walk)
{
	size_t cap = 256 + 96 * (size_t)(8 * nr_cpus + 8), n = 0;
	char *s = xcalloc(cap, 1);
	struct sched_engine *e;

	n += (size_t)snprintf(s + n, cap - n, "topology packages=%d cores=16 threads=1\nhz 1000\n"
			      "duration 2s\n%s", nr_cpus / 16, walk ? "feature TG_SHARES_UP_WALK\n" : "");
	for (int g = 0; g < 8; g++)
		n += (size_t)snprintf(s + n, cap - n, "group /g%d\n", g);
	for (int g = 0; g < 8; g++)
		for (int cpu = 0; cpu < nr_cpus; cpu++)
			n += (size_t)snprintf(s + n, cap - n, "task h%d_%d group=/g%d cpus=%d program=\"run forever\"\n",
					      g, cpu, g, cpu);
	bench_parse("shares", s, f);
	free(s);
	e = bench_engine_create(&f->sc);
	sched_run_until(e, SEC);
	return e;
}

static void bench_shares(int nr_cpus)
{
	struct scenario_file f;
	struct sched_engine *e;
	const int calls = 200000, walks = 2000;
	double t0, modern, walk;

	e = shares_engine(&f, nr_cpus, false);
	sched_enter(e);
	t0 = now_sec();
	for (int i = 0; i < calls; i++)
		update_cfs_group(e->st->tg[1 + i % 8].se[i % nr_cpus]);
	modern = (now_sec() - t0) / calls;
	sched_engine_destroy(e);
	scenario_free(&f);

	e = shares_engine(&f, nr_cpus, true);
	sched_enter(e);
	t0 = now_sec();
	for (int i = 0; i < walks; i++) {
		cpu_rq(0)->shares_walk_last = 0;
		tg_shares_up_walk(cpu_rq(0));
	}
	walk = (now_sec() - t0) / walks;
	sched_engine_destroy(e);
	scenario_free(&f);

	printf("bench: shares_update_%dcpu update_cfs_group_ns %.0f ns\n", nr_cpus, modern * 1e9);
	printf("bench: shares_update_%dcpu tg_shares_up_walk_ns %.0f ns (8 groups x %d cfs_rq)\n", nr_cpus,
	       walk * 1e9, nr_cpus);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	bench_args(argc, argv);
	bench_depth(1);
	bench_depth(3);
	bench_depth(6);
	bench_shares(16);
	bench_shares(64);
	bench_shares(256);
	return 0;
}
