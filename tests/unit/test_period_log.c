// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app's per-loop log: the rows `run --periods` writes for a program's
 * `log` statements (run timed by the clock, as rt-app times its run
 * events), and reading rt-app's own log files (lines of a real run of
 * Debian's rt-app 1.0) to compare them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/analysis/period_log.h"
#include "src/analysis/stats.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US 1000ull
#define MS 1000000ull

static struct period_row rows[64];
static int nr_rows, row_task[64];

static void keep_row(void *ctx, int task, const struct period_row *r)
{
	if (nr_rows < 64) {
		row_task[nr_rows] = task;
		rows[nr_rows++] = *r;
	}
}

/* Run the scenario text to its end with the per-loop rows in rows[]. */
static void run_text(const char *text)
{
	struct scenario_file f;
	struct stats st;
	char err[512];
	struct sched_engine *e;

	if (scenario_parse("log.scn", text, strlen(text), &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);
	stats_init_scenario(&st, &f.sc, 0, f.sc.duration);
	st.period_fn = keep_row;
	nr_rows = 0;
	sched_add_listener(e, stats_event, &st);
	sched_run_until(e, f.sc.duration);
	stats_free(&st);
	sched_engine_destroy(e);
	scenario_free(&f);
}

/* Alone on its CPU: each loop is its run and its sleep; run is the 3 ms asked for. */
static void test_log_rows_alone(void **state)
{
	run_text("topology packages=1 cores=1 threads=1\nnoise off\nduration 20ms\n"
		 "program p {\n\tloop {\n\t\trun 3ms\n\t\tsleep 2ms\n\t\tlog\n\t}\n}\ntask a program=p\n");
	/* the statistics' window is [0, 20ms): the loop ending at 20 ms is past it */
	assert_int_equal(nr_rows, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(rows[i].start, (u64)i * 5 * MS);
		assert_int_equal(rows[i].end - rows[i].start, 5 * MS);
		assert_int_equal(rows[i].run, 3 * MS);
		assert_int_equal(rows[i].c_duration, 3 * MS);
		assert_int_equal(rows[i].c_period, 0);
	}
}

/*
 * Sharing its CPU with a hog of the same weight: the 3 ms run takes longer
 * by the clock, and rt-app's run column counts it all (the task is always
 * inside a run here: run = period), while c_duration stays what it asked.
 */
static void test_log_rows_preempted(void **state)
{
	run_text("topology packages=1 cores=1 threads=1\nnoise off\nduration 60ms\n"
		 "program p {\n\tloop {\n\t\trun 3ms\n\t\tlog\n\t}\n}\n"
		 "task a program=p\ntask hog program=\"run forever\"\n");
	assert_true(nr_rows >= 5);
	for (int i = 0; i < nr_rows; i++) {
		assert_int_equal(row_task[i], 0);
		assert_int_equal(rows[i].c_duration, 3 * MS);
		assert_int_equal(rows[i].run, rows[i].end - rows[i].start);
	}
	assert_true(rows[1].run > 3 * MS);
}

/* A loop with a timer: c_period and slack come from it, one row per loop. */
static void test_log_rows_with_timer(void **state)
{
	run_text("topology packages=1 cores=1 threads=1\nnoise off\nduration 40ms\n"
		 "program p {\n\tloop {\n\t\trun 1ms\n\t\ttimer tick 10ms\n\t\tlog\n\t}\n}\ntask a "
		 "program=p\n");
	assert_int_equal(nr_rows, 3);
	assert_int_equal(rows[1].end - rows[1].start, 10 * MS);
	assert_int_equal(rows[1].run, 1 * MS);
	assert_int_equal(rows[1].c_period, 10 * MS);
	assert_int_equal(rows[1].slack, (s64)(9 * MS));
}

/* Lines of mp3-short.json's AudioOut and AudioTick, as Debian's rt-app 1.0 wrote them. */
static const char audio_out[] = "# Policy : SCHED_OTHER priority : -19\n"
				"#idx     perf      run   period           start             end          "
				"rel_st      slack c_duration   c_period     wu_lat\n"
				"   1   277941    45081    69738      2384866513      2384936252           "
				"14106          0       4725          0          0\n"
				"   1   277941     2933    96263      2384936261      2385032524           "
				"83854          0       4725          0          0\n"
				"   1   277941     2954    83701      2385032534      2385116235          "
				"180127          0       4725          0          0\n";

static void test_read_rtapp_log(void **state)
{
	struct period_log l = { 0 };
	char err[256], name[64];
	const struct period_thread *t;

	period_log_thread_name("logs/mp3-mp3.decoder-3.log", 4, name, sizeof(name));
	assert_string_equal(name, "mp3_decoder");
	period_log_thread_name("web-Binder-display-5.log", 4, name, sizeof(name));
	assert_string_equal(name, "Binder-display");
	assert_int_equal(period_log_read(&l, "mp3-AudioOut-1.log", "AudioOut", audio_out, strlen(audio_out),
					 err, sizeof(err)),
			 0);
	/* schedscope's own: the name first */
	const char *sim = "AudioOut 1 0 4725 30000 0 30000 0 0 4725 0 0\n";

	assert_int_equal(period_log_read(&l, "sim.log", NULL, sim, strlen(sim), err, sizeof(err)), 0);
	assert_int_equal(l.nr, 1);
	t = period_log_find(&l, "AudioOut");
	assert_non_null(t);
	assert_int_equal(t->n, 4);
	assert_true(period_quantile(t, PC_RUN, 0.5) == 2954);
	assert_true(period_quantile(t, PC_RUN, 0.95) == 45081);
	assert_true(period_quantile(t, PC_C_DURATION, 0.5) == 4725);
	assert_true(isnan(period_quantile(NULL, PC_RUN, 0.5)));
	assert_int_equal(period_log_read(&l, "x.log", "x", "1 2 3\n", 6, err, sizeof(err)), -1);
	assert_string_equal(err, "x.log:1:1: 3 columns, rt-app's log has 11 (idx perf run period start end "
				 "rel_st slack c_duration c_period wu_lat)");
	assert_int_equal(period_log_read(&l, "x.log", "x", "1 2 3 x\n", 8, err, sizeof(err)), -1);
	assert_string_equal(err, "x.log:1:7: 'x' is not a number");
	period_log_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_rows_alone),
		cmocka_unit_test(test_log_rows_preempted),
		cmocka_unit_test(test_log_rows_with_timer),
		cmocka_unit_test(test_read_rtapp_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
