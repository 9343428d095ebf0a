// SPDX-License-Identifier: GPL-2.0
/*
 * Trace import benchmark (`make bench`): how fast `schedscope import` reads
 * ftrace text.
 *
 * The trace is the ftrace export of the reference load (bench_util.h: 16
 * CPUs, 100 hogs and 100 `loop { run 1ms; sleep 9ms }` tasks, HZ 250,
 * EEVDF) run for 10 s, written to memory as `schedscope run --trace` writes
 * it. import_trace() turns it into a scenario, best of REPS; the figures are
 * lines and megabytes read per second and the size of the scenario. What is
 * checked (exit 1): the import succeeds, every task of the load comes back,
 * and the scenario it writes parses.
 *
 * Usage: bench_import [-q]   (-q: one run instead of REPS)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/import/import_trace.h"
#include "src/trace/trace_ftrace.h"
#include "bench_util.h"

static const char load_text[] = BENCH_LOAD_16CPU("10s");

static const char *comm(void *ctx, int pid, int cpu)
{
	return sched_comm(ctx, pid, cpu);
}

/* The load's ftrace text, in a malloc'd buffer. */
static char *export_load(size_t *len)
{
	struct scenario_file f;
	struct sched_engine *e;
	struct trace_ftrace *w;
	char *text = NULL;
	FILE *mem = open_memstream(&text, len);

	if (!mem) {
		fprintf(stderr, "bench: open_memstream failed\n");
		exit(1);
	}
	bench_parse("bench_import", load_text, &f);
	e = bench_engine_create(&f.sc);
	struct trace_ftrace_opts o = { .nr_cpus = f.sc.topo->nr_cpus, .kernel = f.sc.kernel, .comm = comm, .ctx = e };

	w = trace_ftrace_open(mem, &o);
	if (!w) {
		fprintf(stderr, "bench: trace_ftrace_open failed\n");
		exit(1);
	}
	sched_add_listener(e, trace_ftrace_event, w);
	sched_run_until(e, f.sc.duration);
	if (trace_ftrace_close(w) || fclose(mem)) {
		fprintf(stderr, "bench: writing the trace failed\n");
		exit(1);
	}
	sched_engine_destroy(e);
	scenario_free(&f);
	return text;
}

int main(int argc, char **argv)
{
	const struct import_trace_opts o = { 0 };
	double best = 1e30;
	size_t len, lines = 0, out_len = 0;
	char *text, *scn = NULL, err[1024];
	struct scenario_file f;

	bench_args(argc, argv);
	text = export_load(&len);
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';

	for (int r = 0; r < bench_reps; r++) {
		double t0 = now_sec();

		free(scn);
		if (import_trace("bench.txt", text, len, TRACE_FTRACE, &o, &scn, NULL, err, sizeof(err))) {
			fprintf(stderr, "bench: import failed: %s\n", err);
			return 1;
		}
		double dt = now_sec() - t0;

		if (dt < best)
			best = dt;
	}
	out_len = strlen(scn);
	if (scenario_parse("bench.scn", scn, out_len, &f, err, sizeof(err))) {
		fprintf(stderr, "bench: the imported scenario does not parse: %s\n", err);
		return 1;
	}
	if (f.sc.nr_tasks != 200) {
		fprintf(stderr, "bench: %d tasks imported, the load has 200\n", f.sc.nr_tasks);
		return 1;
	}
	printf("bench: import_trace_lines %zu lines\n", lines);
	printf("bench: import_lines_per_sec %.0f lines/s\n", lines / best);
	printf("bench: import_mb_per_sec %.1f MB/s\n", len / best / 1e6);
	printf("bench: import_scenario_bytes %zu bytes\n", out_len);
	scenario_free(&f);
	free(scn);
	free(text);
	return 0;
}
