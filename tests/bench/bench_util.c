// SPDX-License-Identifier: GPL-2.0
/* What the benchmarks share (see bench_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

int bench_reps = REPS;

double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_parse(const char *name, const char *text, struct scenario_file *f)
{
	char err[512];

	if (scenario_parse(name, text, strlen(text), f, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		exit(1);
	}
}

struct sched_engine *bench_engine_create(const struct sched_scenario *sc)
{
	char err[256];
	struct sched_engine *e = sched_engine_create(sc, err, sizeof(err));

	if (!e) {
		fprintf(stderr, "bench: sched_engine_create: %s\n", err);
		exit(1);
	}
	return e;
}

void bench_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q")) {
			bench_reps = 1;
			continue;
		}
		fprintf(stderr, "usage: %s [-q]\n", argv[0]);
		exit(2);
	}
}

/* ---- the listener ---- */

void consumer_init(struct consumer *c, int nr_cpus, int nr_tasks)
{
	memset(c, 0, sizeof(*c));
	c->nr_cpus = nr_cpus;
	c->nr_pids = nr_tasks + 1;
	c->last_switch = xcalloc((size_t)nr_cpus, sizeof(u64));
	c->curr_pid = xcalloc((size_t)nr_cpus, sizeof(s32));
	c->cpu_time = xcalloc((size_t)c->nr_pids, sizeof(u64));
}

void consumer_free(struct consumer *c)
{
	free(c->last_switch);
	free(c->curr_pid);
	free(c->cpu_time);
}

void consume(void *ctx, const struct sched_event *ev)
{
	struct consumer *c = ctx;

	c->nr_events++;
	c->by_type[ev->type]++;
	if (ev->type == EV_SCHED_SWITCH && ev->cpu >= 0 && ev->cpu < c->nr_cpus) {
		int prev = ev->sw.prev_pid;

		if (prev >= 0 && prev < c->nr_pids)
			c->cpu_time[prev] += ev->time - c->last_switch[ev->cpu];
		c->last_switch[ev->cpu] = ev->time;
		c->curr_pid[ev->cpu] = ev->sw.next_pid;
	}
}

void consumer_finish(struct consumer *c, u64 end)
{
	u64 total = 0;

	for (int cpu = 0; cpu < c->nr_cpus; cpu++) {
		int pid = c->curr_pid[cpu];
		if (pid >= 0 && pid < c->nr_pids)
			c->cpu_time[pid] += end - c->last_switch[cpu];
	}
	for (int pid = 0; pid < c->nr_pids; pid++)
		total += c->cpu_time[pid];
	if (total != (u64)c->nr_cpus * end || c->by_type[EV_SCHED_SWITCH] == 0) {
		fprintf(stderr, "bench: accounting mismatch: %llu ns over %d CPUs x %llu ns, %llu switches\n",
			(unsigned long long)total, c->nr_cpus, (unsigned long long)end,
			(unsigned long long)c->by_type[EV_SCHED_SWITCH]);
		exit(1);
	}
}
