// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs view's history (ui/cpu_history.c): the engine's PELT values at
 * the events, bucket by bucket, against a recorder of its own; a hog's
 * util_avg climbing as PELT's does; an idle CPU flat at 0; a rewind shows
 * nothing past now, a new branch re-samples.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/history.h"
#include "sched/api/sched.h"
#include "src/format/command.h"
#include "src/format/scenario_file.h"
#include "ui/cpu_history.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC
#define NB 400 /* buckets recorded by the test's own listener */

static const char text[] = "topology packages=1 cores=2 threads=1\n"
			   "noise off\n"
			   "duration 2s\n"
			   "task hog cpus=0 program=\"run forever\"\n"
			   "task half cpus=1 at=100ms program=\"loop { run 2ms; sleep 2ms }\"\n";

/* The test's own record: both CPUs' values at the first event of each bucket. */
struct rec {
	struct sched_engine *e;
	u32 util[2][NB], load[2][NB];
	bool seen[NB];
	u64 last_seq;
};

static void rec_event(void *ctx, const struct sched_event *ev)
{
	struct rec *r = ctx;
	u64 b = ev->time / CPU_HIST_BUCKET_NS;

	/* after a branch the events come again, from an earlier seq: the buckets from there start afresh */
	if (r->last_seq && ev->seq <= r->last_seq)
		for (u64 k = b; k < NB; k++)
			r->seen[k] = false;
	/* the first event of a bucket */
	if (b < NB && !r->seen[b]) {
		for (int cpu = 0; cpu < 2; cpu++) {
			struct sched_cpu_info ci;

			sched_cpu_info(r->e, cpu, &ci);
			r->util[cpu][b] = (u32)ci.avg.util_avg;
			r->load[cpu][b] = (u32)ci.avg.load_avg;
		}
		r->seen[b] = true;
	}
	r->last_seq = ev->seq;
}

struct run {
	struct scenario_file f;
	struct sched_engine *e;
	struct sched_history *h;
	struct cpu_history ch;
	struct rec rec;
};

static struct run *run_new(void)
{
	struct run *r = calloc(1, sizeof(*r));
	char err[256];

	assert_non_null(r);
	if (scenario_parse("test.scn", text, strlen(text), &r->f, err, sizeof(err)))
		fail_msg("%s", err);
	r->e = sched_engine_create(&r->f.sc, err, sizeof(err));
	assert_non_null(r->e);
	r->h = history_create(r->e, HISTORY_DEFAULT_BUDGET);
	cpu_history_init(&r->ch, r->e);
	r->rec.e = r->e;
	history_add_listener(r->h, cpu_history_event, &r->ch);
	history_add_listener(r->h, rec_event, &r->rec);
	return r;
}

static void run_free(struct run *r)
{
	cpu_history_free(&r->ch);
	history_destroy(r->h);
	sched_engine_destroy(r->e);
	scenario_free(&r->f);
	free(r);
}

/*
 * One column per bucket: a bucket with an event holds both CPUs' values at
 * its first; one without, the bucket before's.
 */
static void test_buckets_are_the_engines(void **state)
{
	struct run *r = run_new();
	u32 util[NB], load[NB];
	int checked = 0, held = 0;

	(void)state;
	history_run_until(r->h, NB * MS);
	for (int cpu = 0; cpu < 2; cpu++) {
		u32 last_u = CPU_HIST_NONE, last_l = CPU_HIST_NONE;

		cpu_history_series(&r->ch, cpu, NB * MS, NB * MS, NB, util, load);
		for (int b = 0; b < NB; b++) {
			if (r->rec.seen[b]) {
				last_u = r->rec.util[cpu][b];
				last_l = r->rec.load[cpu][b];
				checked++;
			} else {
				held++;
			}
			if (util[b] != last_u || load[b] != last_l)
				fail_msg("cpu %d bucket %d: history %u/%u, engine %u/%u", cpu, b, util[b],
					 load[b], last_u, last_l);
		}
	}
	assert_true(checked > 300 && held > 0);
	run_free(r);
}

/*
 * CPU 0 runs a hog from 0: its util_avg climbs as PELT's geometric series
 * (half of the way in 32 ms), never falls, and is near 1024 after 300 ms;
 * CPU 1 has nothing until 100 ms.
 */
static void test_pelt_shapes(void **state)
{
	struct run *r = run_new();
	u32 util[10], load[10];

	(void)state;
	history_run_until(r->h, 300 * MS);
	/* ten columns of 30 ms */
	cpu_history_series(&r->ch, 0, 300 * MS, 300 * MS, 10, util, load);
	for (int i = 1; i < 10; i++)
		assert_true(util[i] >= util[i - 1]);
	/* sampled at its start: at most the half of the idle capacity a new task gets (post_init_entity_util_avg()) */
	assert_true(util[0] < 600);
	/*
	 * Once CPU 1's events sample it often (from 100 ms): running all along,
	 * util_avg = 1024 - 512 * y^p over p periods of 1024 us, y^32 = 1/2, at
	 * the column's middle, within what PELT's integer steps and the column's
	 * mean move it.
	 */
	for (int i = 4; i < 10; i++) {
		double p = (30.0 * i + 15) * 1e6 / 1024 / 1000, want = 1024 - 512 * pow(0.5, p / 32);

		if (fabs(util[i] - want) > 10)
			fail_msg("column %d: util_avg %u, PELT's %.1f", i, util[i], want);
	}
	/* a nice-0 hog's load_avg is its weight, 1024, from its start */
	assert_int_equal(load[9], 1024);
	cpu_history_series(&r->ch, 1, 300 * MS, 300 * MS, 10, util, NULL);
	for (int i = 0; i < 3; i++)
		assert_int_equal(util[i], 0);
	assert_true(util[9] > 0);
	/* before the run: nothing */
	cpu_history_series(&r->ch, 0, 300 * MS, 600 * MS, 2, util, NULL);
	assert_int_equal(util[0], CPU_HIST_NONE);
	assert_int_not_equal(util[1], CPU_HIST_NONE);
	run_free(r);
}

/*
 * Rewound, the buckets past now are not shown; a change there starts a
 * branch whose events take the buckets back: renicing the sleeper to 19
 * (weight 15) brings CPU 1's load_avg down from then on, its util_avg not.
 */
static void test_rewind_and_branch(void **state)
{
	struct run *r = run_new();
	struct sched_command c[1];
	u32 old_load[4], new_load[4], util[4];
	char err[256];
	int n;

	(void)state;
	history_run_until(r->h, 400 * MS);
	cpu_history_series(&r->ch, 1, 400 * MS, 100 * MS, 4, NULL, old_load);
	history_goto_time(r->h, 200 * MS);
	cpu_history_series(&r->ch, 1, 200 * MS, 400 * MS, 4, util, NULL);
	assert_int_not_equal(util[3], CPU_HIST_NONE);

	if (command_parse(&r->f, "set nice half 19", c, 1, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(history_apply_command(r->h, &c[0], err, sizeof(err)), 0);
	history_run_until(r->h, 400 * MS);
	cpu_history_series(&r->ch, 1, 400 * MS, 100 * MS, 4, NULL, new_load);
	for (int i = 0; i < 4; i++)
		assert_true(new_load[i] * 4 < old_load[i]);
	/* every bucket with an event again holds the engine's values at its first one */
	u32 load[NB];

	cpu_history_series(&r->ch, 1, NB * MS, NB * MS, NB, NULL, load);
	for (int b = 201; b < NB; b++)
		if (r->rec.seen[b] && load[b] != r->rec.load[1][b])
			fail_msg("bucket %d after the branch: history %u, engine %u", b, load[b],
				 r->rec.load[1][b]);
	run_free(r);
}

/* A gap longer than the ring: the buckets in it hold the last sample, as a shorter gap's do. */
static void test_long_gap_holds_last(void **state)
{
	struct run *r = run_new();
	struct cpu_history ch;
	struct sched_event ev = { .type = EV_SCHED_SWITCH };
	u32 util[1], want;

	(void)state;
	history_run_until(r->h, 300 * MS);
	cpu_history_init(&ch, r->e);
	ev.time = 5 * MS;
	cpu_history_event(&ch, &ev);
	cpu_history_series(&ch, 0, 6 * MS, MS, 1, util, NULL);
	want = util[0];
	assert_int_not_equal(want, CPU_HIST_NONE);
	ev.time = 5 * MS + 3 * CPU_HIST_LEN * CPU_HIST_BUCKET_NS / 2;
	cpu_history_event(&ch, &ev);
	cpu_history_series(&ch, 0, ev.time, (CPU_HIST_LEN - 1) * CPU_HIST_BUCKET_NS, 1, util, NULL);
	assert_int_equal(util[0], want);
	cpu_history_free(&ch);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_are_the_engines),
		cmocka_unit_test(test_pelt_shapes),
		cmocka_unit_test(test_rewind_and_branch),
		cmocka_unit_test(test_long_gap_holds_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
