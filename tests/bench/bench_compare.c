// SPDX-License-Identifier: GPL-2.0
/*
 * Comparison benchmark (`make bench`): what issue 11 asks, two runs side
 * by side (schedscope compare) against one run, on the reference 16-CPU
 * load (bench_util.h: 100 hogs and 100 `loop { run 1ms; sleep 9ms }`
 * tasks, HZ 250, EEVDF) for 20 s.
 *
 *   one:        one engine with the window statistics (what `run` keeps)
 *   diverging:  A and B (NO_PLACE_LAG), each with its statistics, run in step
 *               by diverge_run_pair() until their first divergence, then apart
 *   identical:  B the same as A: the finder compares every decision to the end
 *
 * The goal is two runs at no more than 2.2 times one; the ratios are printed,
 * not asserted. Checked (exit 1): identical sides never diverge, and the
 * NO_PLACE_LAG side does. Best of REPS. Output: `bench: NAME VALUE UNIT`.
 *
 * Usage: bench_compare [-q]
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "src/analysis/diverge.h"
#include "src/analysis/stats.h"

#define END (20 * 1000000000ULL)
#define LOCKSTEP_NS 10000000ULL

static const char load_text[] = BENCH_LOAD_16CPU("20s");

struct side {
	struct sched_engine *e;
	struct stats st;
};

static void side_start(struct side *s, const struct scenario_file *f)
{
	s->e = bench_engine_create(&f->sc);
	stats_init_scenario(&s->st, &f->sc, 0, END);
	sched_add_listener(s->e, stats_event, &s->st);
}

static void side_end(struct side *s)
{
	stats_finish(&s->st, sched_now(s->e));
	stats_free(&s->st);
	sched_engine_destroy(s->e);
}

static double one_run(const struct scenario_file *f)
{
	struct side s;
	double t0;

	side_start(&s, f);
	t0 = now_sec();
	sched_run_until(s.e, END);
	t0 = now_sec() - t0;
	side_end(&s);
	return t0;
}

static double two_runs(const struct scenario_file *a, const struct scenario_file *b, bool *found)
{
	struct side s[2];
	struct diverge d;
	double t0;

	side_start(&s[0], a);
	side_start(&s[1], b);
	diverge_init(&d, 0, END);
	t0 = now_sec();
	diverge_run_pair(s[0].e, s[1].e, END, &d, LOCKSTEP_NS);
	t0 = now_sec() - t0;
	*found = d.found;
	diverge_free(&d);
	side_end(&s[0]);
	side_end(&s[1]);
	return t0;
}

int main(int argc, char **argv)
{
	struct scenario_file a, b;
	double one = 1e9, diverging = 1e9, identical = 1e9;
	char err[256];
	bool found;

	bench_args(argc, argv);
	bench_parse("compare-a", load_text, &a);
	bench_parse("compare-b", load_text, &b);
	if (scenario_set(&b, "feature=NO_PLACE_LAG", err, sizeof(err)) < 0) {
		fprintf(stderr, "bench: %s\n", err);
		return 1;
	}
	for (int r = 0; r < bench_reps; r++) {
		double t = one_run(&a);

		one = t < one ? t : one;
		t = two_runs(&a, &b, &found);
		diverging = t < diverging ? t : diverging;
		if (!found) {
			fprintf(stderr, "bench: compare: NO_PLACE_LAG did not diverge\n");
			return 1;
		}
		t = two_runs(&a, &a, &found);
		identical = t < identical ? t : identical;
		if (found) {
			fprintf(stderr, "bench: compare: identical sides diverged\n");
			return 1;
		}
	}
	printf("bench: compare_one_run_16cpu_20s %.3f s\n", one);
	printf("bench: compare_two_runs_diverging %.3f s\n", diverging);
	printf("bench: compare_two_runs_identical %.3f s\n", identical);
	printf("bench: compare_cost_diverging %.2f x\n", diverging / one);
	printf("bench: compare_cost_identical %.2f x\n", identical / one);
	scenario_free(&a);
	scenario_free(&b);
	return 0;
}
