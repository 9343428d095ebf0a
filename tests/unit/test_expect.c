// SPDX-License-Identifier: GPL-2.0
/* expect_check(): verdicts and their one-line messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Before cmocka.h, which has a macro of the same name (undefined below). */
#include "src/analysis/expect_check.h"
#include "src/analysis/run_stats.h"
#include "src/analysis/stats.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#undef expect_check

#define MS 1000000ULL
#define SEC 1000000000ULL

static struct expect make(int metric, const char *pattern, int op, double value, double tol,
			  const char *text)
{
	struct expect x;

	memset(&x, 0, sizeof(x));
	x.metric = metric;
	snprintf(x.pattern, sizeof(x.pattern), "%s", pattern);
	x.op = op;
	x.value = value;
	x.tol = tol;
	snprintf(x.text, sizeof(x.text), "%s", text);
	return x;
}

static const char *const names4[] = { "hog.0", "hog.1", "hog.2", "web.0" };

/* Three hogs and a web task over a 1 s window. */
static void hogs(struct stats *st, u64 c0, u64 c1, u64 c2)
{
	assert_int_equal(stats_init(st, 4, 1, 0, SEC), 0);
	st->task[0].cpu_ns = c0;
	st->task[1].cpu_ns = c1;
	st->task[2].cpu_ns = c2;
	st->task[3].cpu_ns = 1 * MS;
	st->end = SEC;
}

static void test_share_ok(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_SHARE, "hog.*", OP_EQ, 0.333, 0.01, "share(hog.*) = 0.333 +- 0.01");
	char msg[256];

	hogs(&st, 333100 * 1000, 333400 * 1000, 333500 * 1000);
	assert_true(expect_check(&x, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect share(hog.*) = 0.333 +- 0.01: ok "
				 "(hog.0 0.3331, hog.1 0.3334, hog.2 0.3335)");
	stats_free(&st);
}

static void test_share_failed_names_only_the_culprit(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_SHARE, "hog.*", OP_EQ, 0.333, 0.01, "share(hog.*) = 0.333 +- 0.01");
	char msg[256];

	hogs(&st, 333100 * 1000, 333400 * 1000, 290 * MS);
	assert_false(expect_check(&x, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect share(hog.*) = 0.333 +- 0.01: FAILED: hog.2 measured 0.2900");
	stats_free(&st);
}

static void test_no_task_matches(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_SHARE, "db.*", OP_GT, 0.5, 0, "expect share(db.*) > 0.5");
	char msg[256];

	hogs(&st, 0, 0, 0);
	assert_false(expect_check(&x, &st, names4, msg, sizeof(msg)));
	/* a text that already starts with "expect" is not prefixed twice */
	assert_string_equal(msg, "expect share(db.*) > 0.5: FAILED: no task matches db.*");
	stats_free(&st);
}

static void test_exact_name_and_question_mark_glob(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_CPU_TIME, "hog.?", OP_GE, 300 * MS, 0, "cpu_time(hog.?) >= 300ms");
	struct expect y = make(EXPECT_CPU_TIME, "web.0", OP_LT, 2 * MS, 0, "cpu_time(web.0) < 2ms");
	char msg[256];

	hogs(&st, 300 * MS, 1234567, 400 * MS);
	assert_false(expect_check(&x, &st, names4, msg, sizeof(msg)));
	/* times carry units */
	assert_string_equal(msg, "expect cpu_time(hog.?) >= 300ms: FAILED: hog.1 measured 1.235ms");
	assert_true(expect_check(&y, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect cpu_time(web.0) < 2ms: ok (web.0 1.000ms)");
	stats_free(&st);
}

static void test_message_rebuilt_without_text(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_WAKEUP_LATENCY, "web.*", OP_LT, 2 * MS, 0, "");
	char msg[256];

	hogs(&st, 0, 0, 0);
	x.stat = STAT_MAX;
	x.has_window = true;
	x.from = 1 * SEC;
	x.to = 10 * SEC;
	st.task[3].lat.count = 1;
	st.task[3].lat.max = 1234000;
	assert_true(expect_check(&x, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect wakeup_latency.max(web.*) < 2.000ms over 1.000s..10.000s: "
				 "ok (web.0 1.234ms)");

	x.value = 1 * MS;
	assert_false(expect_check(&x, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect wakeup_latency.max(web.*) < 1.000ms over 1.000s..10.000s: "
				 "FAILED: web.0 measured 1.234ms");
	stats_free(&st);
}

static void test_counts_and_exact_equality(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_MIGRATIONS, "hog.*", OP_EQ, 0, 0, "migrations(hog.*) = 0");
	struct expect y = make(EXPECT_PREEMPTIONS, "web.0", OP_LE, 3, 0, "preemptions(web.0) <= 3");
	struct expect z = make(EXPECT_WAKEUPS, "web.0", OP_GT, 3, 0, "wakeups(web.0) > 3");
	char msg[256];

	hogs(&st, 0, 0, 0);
	st.task[1].migrations = 1;
	st.task[3].preemptions = 3;
	st.task[3].wakeups = 3;
	assert_false(expect_check(&x, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect migrations(hog.*) = 0: FAILED: hog.1 measured 1");
	assert_true(expect_check(&y, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect preemptions(web.0) <= 3: ok (web.0 3)");
	assert_false(expect_check(&z, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect wakeups(web.0) > 3: FAILED: web.0 measured 3");
	stats_free(&st);
}

static void test_share_of_a_third(void **state)
{
	struct stats st;
	/* 1/3 - 0.333 exceeds 0.000333333333 by 3e-13: within the 1e-9 slack for rounding */
	struct expect x = make(EXPECT_SHARE, "hog.0", OP_EQ, 0.333, 0.000333333333, "share(hog.0) = 1/3");
	char msg[256];

	assert_int_equal(stats_init(&st, 1, 1, 0, 3 * SEC), 0);
	st.task[0].cpu_ns = SEC;
	st.end = 3 * SEC;
	assert_true(expect_check(&x, &st, names4, msg, sizeof(msg)));
	x.tol = 0.0003;
	assert_false(expect_check(&x, &st, names4, msg, sizeof(msg)));
	stats_free(&st);
}

static void test_share_of_a_run_cut_short(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_SHARE, "hog.0", OP_EQ, 0.5, 0.001, "share(hog.0) = 0.5 +- 0.001");
	char msg[256];

	/* window [1s, 10s) but the run ended at 3s: 1s of 2s measured */
	assert_int_equal(stats_init(&st, 1, 1, 1 * SEC, 10 * SEC), 0);
	st.task[0].cpu_ns = SEC;
	st.end = 3 * SEC;
	assert_true(expect_check(&x, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect share(hog.0) = 0.5 +- 0.001: ok (hog.0 0.5000)");
	stats_free(&st);
}

static void test_long_lists_are_cut(void **state)
{
	static const char *const names[] = {
		"w.0", "w.1", "w.2", "w.3", "w.4", "w.5", "w.6", "w.7", "w.8", "w.9",
	};
	struct stats st;
	struct expect x = make(EXPECT_SWITCHES, "w.*", OP_GE, 1, 0, "switches(w.*) >= 1");
	char msg[256];

	assert_int_equal(stats_init(&st, 10, 1, 0, SEC), 0);
	for (int i = 0; i < 10; i++)
		st.task[i].slices = (u64)i + 1;
	assert_true(expect_check(&x, &st, names, msg, sizeof(msg)));
	assert_string_equal(msg, "expect switches(w.*) >= 1: ok (w.0 1, w.1 2, w.2 3, w.3 4, "
				 "w.4 5, w.5 6, w.6 7, w.7 8, ...)");

	x = make(EXPECT_SWITCHES, "w.*", OP_GE, 100, 0, "switches(w.*) >= 100");
	assert_false(expect_check(&x, &st, names, msg, sizeof(msg)));
	assert_string_equal(msg, "expect switches(w.*) >= 100: FAILED: w.0 measured 1, w.1 measured 2, "
				 "w.2 measured 3, w.3 measured 4, w.4 measured 5, w.5 measured 6, "
				 "w.6 measured 7, w.7 measured 8, ... (10 of 10 tasks)");
	stats_free(&st);
}

static void test_small_message_buffer(void **state)
{
	struct stats st;
	struct expect x = make(EXPECT_SHARE, "hog.*", OP_EQ, 0.333, 0.01, "share(hog.*) = 0.333 +- 0.01");
	char msg[16];

	hogs(&st, 333 * MS, 333 * MS, 333 * MS);
	memset(msg, 'x', sizeof(msg));
	assert_true(expect_check(&x, &st, names4, msg, sizeof(msg)));
	assert_string_equal(msg, "expect share(ho");
	/* a zero-sized buffer is never written */
	assert_true(expect_check(&x, &st, names4, msg, 0));
	stats_free(&st);
}

/*
 * A run's statistics: expects over the same window share one (each costs
 * every event), and every verdict is the one statistics of its own window give.
 */
static const char windows_scn[] = "topology packages=1 cores=2 threads=1\n"
				  "hz 250\nseed 1\nduration 2s\nsched eevdf\n"
				  "task hog count=3 program=\"run forever\"\n"
				  "task io program=\"loop { run 1ms; sleep 3ms }\"\n"
				  "expect share(hog.*) = 0.6 +- 0.15\n"
				  "expect share(hog.0) > 0.45 over 0s..1s\n"
				  "expect wakeup_latency(io, max) < 20ms over 0s..1s\n"
				  "expect share(hog.1) > 0.4 over 1s..2s\n"
				  "expect wakeups(io) > 100 over 0s..2s\n";

static void test_expects_share_windows(void **state)
{
	struct scenario_file f;
	struct run_stats rs;
	struct stats own[5];
	struct sched_engine *e;
	sched_event_fn fn;
	void *ctx;
	char err[256], *msg[5];
	bool ok[5];

	(void)state;
	assert_int_equal(
		scenario_parse("windows.scn", windows_scn, strlen(windows_scn), &f, err, sizeof(err)), 0);
	assert_int_equal(f.nr_expects, 5);
	run_stats_init(&rs, &f, 0, f.sc.duration, true);
	/* the run's window (also the last expect's), 0..1s, 1..2s */
	assert_int_equal(rs.n, 3);
	assert_int_equal(rs.expect_st[0], 0);
	assert_int_equal(rs.expect_st[1], rs.expect_st[2]);
	assert_int_not_equal(rs.expect_st[1], rs.expect_st[3]);
	assert_int_equal(rs.expect_st[4], 0);
	for (int i = 0; i < 5; i++) {
		const struct expect *x = &f.expect[i];

		stats_init_scenario(&own[i], &f.sc, x->has_window ? x->from : 0,
				    x->has_window ? x->to : f.sc.duration);
	}
	e = sched_engine_create(&f.sc, err, sizeof(err));
	assert_non_null(e);
	fn = run_stats_listener(&rs, &ctx);
	sched_add_listener(e, fn, ctx);
	for (int i = 0; i < 5; i++)
		sched_add_listener(e, stats_event, &own[i]);
	sched_run_until(e, f.sc.duration);
	run_stats_finish(&rs, sched_now(e));
	assert_int_equal(run_stats_check(&rs, &f, msg, ok), 0);
	for (int i = 0; i < 5; i++) {
		char want[512];

		stats_finish(&own[i], sched_now(e));
		assert_true(expect_check(&f.expect[i], &own[i], f.task_names, want, sizeof(want)));
		assert_true(ok[i]);
		assert_string_equal(msg[i], want);
		free(msg[i]);
		stats_free(&own[i]);
	}
	sched_engine_destroy(e);
	run_stats_free(&rs);
	scenario_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_ok),
		cmocka_unit_test(test_share_failed_names_only_the_culprit),
		cmocka_unit_test(test_no_task_matches),
		cmocka_unit_test(test_exact_name_and_question_mark_glob),
		cmocka_unit_test(test_message_rebuilt_without_text),
		cmocka_unit_test(test_counts_and_exact_equality),
		cmocka_unit_test(test_share_of_a_third),
		cmocka_unit_test(test_share_of_a_run_cut_short),
		cmocka_unit_test(test_long_lists_are_cut),
		cmocka_unit_test(test_small_message_buffer),
		cmocka_unit_test(test_expects_share_windows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
