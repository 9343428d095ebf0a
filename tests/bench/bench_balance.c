// SPDX-License-Identifier: GPL-2.0
/*
 * Load-balancing cost as the machine grows (`make bench`).
 *
 * For 16, 64, 256 and 1024 CPUs (8-core packages, one NUMA node each, all
 * nodes at distance 20: MC and one NUMA level), with two hogs and two
 * `loop { run 1ms; sleep 9ms }` tasks per CPU:
 *
 *   pass_ns     wall time of one sched_balance_domains() pass on one CPU
 *               with every level due, averaged over all CPUs; the state is
 *               restored from a checkpoint before each round, so every
 *               round does the same work
 *   attempt_ns  the same per load_balance() attempt (one per level)
 *   sim_ratio   simulated seconds per wall second of the whole run (the
 *               first 200 ms), balancing and placement included
 *   lb_per_sim_sec  load_balance() attempts per simulated second
 *
 * Output: `bench: NAME VALUE UNIT` lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sched/balance.h"

static u64 nr_lb;

static void count_lb(void *ctx, const struct sched_event *ev)
{
	(void)ctx;
	nr_lb += ev->type == EV_LOAD_BALANCE;
}

static void bench_size(int nr_cpus)
{
	char text[1024], name[64];
	struct scenario_file f;
	struct sched_engine *e;
	double t0, t1, best = 1e30;
	u64 lb_run, lb_pass = 0;
	void *cp;

	snprintf(text, sizeof(text),
		 "topology packages=%d cores=8 threads=1 nodes=%d\n"
		 "hz 250\nseed 1\nduration 200ms\nkernel 6.12\n"
		 "task hog count=%d program=\"run forever\"\n"
		 "task loop count=%d program=\"loop { run 1ms; sleep 9ms }\"\n",
		 nr_cpus / 8, nr_cpus / 8, 2 * nr_cpus, 2 * nr_cpus);
	snprintf(name, sizeof(name), "balance_%dcpu", nr_cpus);
	bench_parse(name, text, &f);

	e = bench_engine_create(&f.sc);
	sched_add_listener(e, count_lb, NULL);
	nr_lb = 0;
	t0 = now_sec();
	while (sched_step(e))
		;
	t1 = now_sec();
	lb_run = nr_lb;

	cp = xcalloc(1, sched_state_size(e));
	sched_state_save(e, cp);
	sched_enter(e);
	for (int rep = 0; rep < bench_reps; rep++) {
		sched_state_restore(e, cp);
		nr_lb = 0;
		double a = now_sec();
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			const struct sched_domain *sd;

			/* every level due now: a 1 ms interval, last run at jiffy 0 */
			for_each_domain(cpu, sd) {
				e->st->sd_lb[sd->id].last_balance = 0;
				e->st->sd_lb[sd->id].balance_interval = 1;
			}
			sched_balance_domains(cpu_rq(cpu), idle_cpu(cpu) ? CPU_IDLE : CPU_NOT_IDLE,
					      MIGRATE_BALANCE);
		}
		double b = now_sec();
		if (b - a < best)
			best = b - a;
		lb_pass = nr_lb;
	}

	printf("bench: %s pass_ns %.0f ns\n", name, best * 1e9 / nr_cpus);
	printf("bench: %s attempt_ns %.0f ns\n", name, lb_pass ? best * 1e9 / (double)lb_pass : 0.0);
	printf("bench: %s sim_ratio %.3f sim-s/s\n", name, 0.2 / (t1 - t0));
	printf("bench: %s lb_per_sim_sec %.0f /s\n", name, (double)lb_run / 0.2);
	fflush(stdout);
	free(cp);
	sched_engine_destroy(e);
	scenario_free(&f);
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 16, 64, 256, 1024 };

	bench_args(argc, argv);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		bench_size(sizes[i]);
	return 0;
}
