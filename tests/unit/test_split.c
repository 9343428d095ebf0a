// SPDX-License-Identifier: GPL-2.0
/*
 * Branches and the split screen through the console's commands, on a real
 * engine and history, without a terminal: a change after a rewind keeps the
 * old future, `compare` splits the screen, and the two sides keep one clock.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/format/scenario_file.h"
#include "ui/commands.h"
#include "ui/loop.h"
#include "ui/split.h"
#include "src/analysis/metrics.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* the ideal machine: its ticks fall with other events, so each timer a step fires makes one */
static const char scn[] = "topology packages=1 cores=2 threads=1\n"
			  "hz 250\n"
			  "noise off\n"
			  "duration 3s\n"
			  "task hog count=2 program=\"run forever\"\n"
			  "task web count=2 program=\"loop { run 1ms; sleep 3ms }\"\n";

struct fixture {
	struct scenario_file f;
	struct ui ui;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char err[512];

	if (scenario_parse("t.scn", scn, strlen(scn), &fx->f, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	if (ui_setup(&fx->ui, &fx->f, HISTORY_DEFAULT_BUDGET, err, sizeof(err)))
		return -1;
	fx->ui.paused = true;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	ui_teardown(&fx->ui);
	scenario_free(&fx->f);
	free(fx);
	return 0;
}

static void run(struct ui *ui, const char *line)
{
	if (ui_command(ui, line))
		fail_msg("'%s': %s", line, ui->message);
}

static void run_fails(struct ui *ui, const char *line, const char *why)
{
	assert_int_equal(ui_command(ui, line), -1);
	assert_true(ui->message_is_error);
	if (!strstr(ui->message, why))
		fail_msg("'%s': '%s' does not say '%s'", line, ui->message, why);
}

static void assert_message_has(const struct ui *ui, const char *text)
{
	if (!strstr(ui->message, text))
		fail_msg("'%s' does not say '%s'", ui->message, text);
}

static const char *branch_name(const struct ui_run *run)
{
	static struct history_branch_info bi;

	history_branch_info(run->h, history_current_branch(run->h), &bi);
	return bi.name;
}

/* The example: goto 2s, checkpoint, goto 1s, renice: the checkpoint stays reachable. */
static void make_branch(struct ui *ui)
{
	run(ui, "goto 2s");
	run(ui, "checkpoint two");
	run(ui, "goto 1s");
	run(ui, "set nice web.0 10");
	assert_message_has(ui, "new branch b1; the old future is branch main");
}

static void test_branch_commands(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;
	struct cellbuf cb;
	char row[512];

	make_branch(ui);
	assert_string_equal(branch_name(&ui->run), "b1");
	run(ui, "branches");
	assert_message_has(ui, "main (parts at 1.000000s) 0 cmd, 1 cp");
	assert_message_has(ui, "*b1 1 cmd, 0 cp");
	cb_init(&cb, 120, 30);
	ui_draw_frame(ui, &cb);
	assert_non_null(strstr(cb_row(&cb, 29, row, sizeof(row)), "branch b1/2"));

	/* the old branch's checkpoint: goto follows main there */
	run(ui, "goto two");
	assert_string_equal(branch_name(&ui->run), "main");
	assert_int_equal(sched_now(ui->run.e), 2 * NSEC_PER_SEC);
	assert_message_has(ui, "on branch main");
	ui_draw_frame(ui, &cb);
	assert_non_null(strstr(cb_row(&cb, 29, row, sizeof(row)), "branch main/2"));
	cb_free(&cb);

	run(ui, "branch b1");
	assert_string_equal(branch_name(&ui->run), "b1");
	assert_int_equal(sched_now(ui->run.e), 2 * NSEC_PER_SEC);
	struct sched_task_info ti;
	sched_task_info(ui->run.e, 2, &ti);
	assert_int_equal(ti.nice, 10);

	run_fails(ui, "branch nope", "no branch 'nope'");
	run_fails(ui, "branch", "expected a branch NAME");
	run_fails(ui, "compare b1", "is the current branch");
	assert_false(ui->split.on);
	/* a refused command starts no branch */
	run(ui, "goto 0.5s");
	run_fails(ui, "set nice web.0 40", "");
	assert_int_equal(history_nr_branches(ui->run.h), 2);
}

/* The number of events a plain engine over the scenario has emitted at time t. */
static u64 plain_events(const struct scenario_file *f, u64 t)
{
	char err[256];
	struct sched_engine *e = sched_engine_create(&f->sc, err, sizeof(err));

	assert_non_null(e);
	sched_run_until(e, t);
	u64 n = sched_nr_events(e);
	sched_engine_destroy(e);
	return n;
}

static void assert_one_clock(const struct ui *ui)
{
	assert_int_equal(sched_now(ui->run.e), sched_now(ui->run_b.e));
}

static void test_compare_one_clock(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;

	make_branch(ui);
	run(ui, "goto 1.5s");
	run(ui, "compare main");
	assert_true(ui->split.on);
	assert_string_equal(ui->split.label[0], "b1: set nice web.0 10 at 1.000000s");
	assert_string_equal(ui->split.label[1], "main");
	/* both from the fork point */
	assert_int_equal(sched_now(ui->run.e), NSEC_PER_SEC);
	assert_one_clock(ui);
	/* B is main: the scenario without the renice */
	assert_int_equal(sched_nr_events(ui->run_b.e), plain_events(&fx->f, NSEC_PER_SEC));
	struct sched_task_info ti;
	sched_task_info(ui->run_b.e, 2, &ti);
	assert_int_equal(ti.nice, 0);

	/* a step: to the next event of either side, the other at that time */
	for (int i = 0; i < 20; i++) {
		u64 next = MIN(sched_next_time(ui->run.e), sched_next_time(ui->run_b.e));
		u64 na = sched_nr_events(ui->run.e), nb = sched_nr_events(ui->run_b.e);
		run(ui, "step");
		assert_one_clock(ui);
		assert_int_equal(sched_now(ui->run.e), next);
		assert_true(sched_nr_events(ui->run.e) > na || sched_nr_events(ui->run_b.e) > nb);
	}
	run(ui, "goto 2.5s");
	assert_int_equal(sched_now(ui->run_b.e), 2500 * NSEC_PER_MSEC);
	assert_int_equal(sched_nr_events(ui->run_b.e), plain_events(&fx->f, 2500 * NSEC_PER_MSEC));
	run(ui, "back 3");
	assert_one_clock(ui);
	assert_true(sched_now(ui->run.e) < 2500 * NSEC_PER_MSEC);
	run(ui, "checkpoint both");
	assert_int_equal(history_find_checkpoint(ui->run.h, "both"), (s64)sched_now(ui->run.e));
	assert_int_equal(history_find_checkpoint(ui->run_b.h, "both"), (s64)sched_now(ui->run.e));
	run(ui, "goto 1.2s");
	run(ui, "goto both");
	assert_one_clock(ui);
	assert_int_equal(history_find_checkpoint(ui->run.h, "both"), (s64)sched_now(ui->run_b.e));

	/* the focused side is B: commands move B, A follows */
	run(ui, "pane other");
	assert_int_equal(ui->split.focus, 1);
	run(ui, "goto 0.7s");
	assert_int_equal(sched_now(ui->run.e), 700 * NSEC_PER_MSEC);
	assert_one_clock(ui);
	/* views follow the focused pane, or not */
	run(ui, "view events");
	assert_string_equal(ui->pane.main_view->name, "events");
	run(ui, "select task web.1");
	assert_int_equal(ui->pane.sel_task, 3);
	run(ui, "follow off");
	run(ui, "view timeline");
	assert_string_equal(ui->pane_b.main_view->name, "timeline");
	assert_string_equal(ui->pane.main_view->name, "events");
	run_fails(ui, "split off", "o focuses it first");
	run_fails(ui, "compare b1", "branches are side A's");
	run_fails(ui, "split diagonal", "is not side, stacked");
	run_fails(ui, "pane c", "expected a, b or other");
	run(ui, "pane a");
	run(ui, "split off");
	assert_false(ui->split.on);
	run_fails(ui, "pane b", "no split");
	run_fails(ui, "split side", "no second run");
}

static void test_split_frame(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;
	struct cellbuf cb;
	char row[1024];

	make_branch(ui);
	run(ui, "compare main");
	/* wide: side by side, both labels on the first row of the panes */
	cb_init(&cb, 200, 50);
	ui_draw_frame(ui, &cb);
	cb_row(&cb, 1, row, sizeof(row));
	assert_non_null(strstr(row, "A: b1: set nice web.0 10"));
	assert_non_null(strstr(row, "B: main"));
	assert_non_null(strstr(cb_row(&cb, 49, row, sizeof(row)), "split: A"));
	assert_true(ui->split.drawn_side);
	cb_free(&cb);
	/* tall: stacked */
	cb_init(&cb, 130, 50);
	ui_draw_frame(ui, &cb);
	assert_non_null(strstr(cb_row(&cb, 1, row, sizeof(row)), "A: b1"));
	assert_null(strstr(row, "B: main"));
	assert_non_null(strstr(cb_row(&cb, 1 + 47 / 2, row, sizeof(row)), "B: main"));
	assert_false(ui->split.drawn_side);
	/* the key swaps the layout */
	run(ui, "split toggle");
	ui_draw_frame(ui, &cb);
	assert_true(ui->split.drawn_side);
	assert_non_null(strstr(cb_row(&cb, 1, row, sizeof(row)), "B: main"));
	cb_free(&cb);
	/* too small for either */
	cb_init(&cb, 90, 24);
	ui_draw_frame(ui, &cb);
	bool said = false;
	for (int y = 0; y < 24; y++)
		said |= strstr(cb_row(&cb, y, row, sizeof(row)), "terminal too small for the split") != NULL;
	assert_true(said);
	cb_free(&cb);
	/* the help explains the split */
	run(ui, "help");
	cb_init(&cb, 200, 50);
	ui_draw_frame(ui, &cb);
	said = false;
	for (int y = 0; y < 50; y++)
		said |= strstr(cb_row(&cb, y, row, sizeof(row)), "Two runs side by side") != NULL;
	assert_true(said);
	cb_free(&cb);
}

/* diverge: the renice is where b1 and main part; the next one comes after it. */
static void test_diverge(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;
	char err[256];

	run_fails(ui, "diverge", "needs two runs");
	make_branch(ui);
	run(ui, "compare main");
	run(ui, "goto 2.5s");
	run(ui, "diverge");
	assert_message_has(ui, "first divergence at 1.000000s: A schedscope_command");
	assert_int_equal(sched_now(ui->run.e), sched_now(ui->run_b.e));
	assert_true(sched_now(ui->run.e) >= NSEC_PER_SEC);
	assert_string_equal(ui->pane.main_view->name, "events");
	assert_string_equal(ui->pane_b.main_view->name, "events");
	const struct sched_event *a = history_event(ui->run.h, ui->pane.sel_event);
	assert_non_null(a);
	assert_int_equal(a->type, EV_COMMAND);
	assert_int_equal(a->time, NSEC_PER_SEC);
	const struct sched_event *b = history_event(ui->run_b.h, ui->pane_b.sel_event);
	assert_non_null(b);
	assert_true(b->time >= NSEC_PER_SEC);
	assert_true(b->seq < sched_nr_events(ui->run_b.e));
	/* the labels name both events while the clock stays there */
	struct cellbuf cb;
	char row[1024];
	cb_init(&cb, 200, 50);
	ui_draw_frame(ui, &cb);
	assert_non_null(strstr(cb_row(&cb, 1, row, sizeof(row)),
			       "A: b1: set nice web.0 10 at 1.000000s \u2502 schedscope_command"));
	run(ui, "step");
	ui_draw_frame(ui, &cb);
	assert_null(strstr(cb_row(&cb, 1, row, sizeof(row)), "schedscope_command"));
	run(ui, "back");
	cb_free(&cb);

	/* the next one is later, and each call moves on */
	u64 t = sched_now(ui->run.e);
	run(ui, "diverge next");
	assert_message_has(ui, "next divergence at");
	assert_true(sched_now(ui->run.e) > t);
	assert_one_clock(ui);
	run_fails(ui, "diverge sideways", "expected nothing, first or next");

	/* two runs of one scenario never part: A on main, B a second engine */
	ui_split_close(ui);
	run(ui, "branch main");
	assert_int_equal(ui_split_open(ui, &fx->f, -1, "one", "the same", err, sizeof(err)), 0);
	run(ui, "goto 0.5s");
	run_fails(ui, "diverge", "decide alike from 0.000000s to the end");
	assert_int_equal(sched_now(ui->run.e), 500 * NSEC_PER_MSEC);
	assert_one_clock(ui);
}

/* A plain engine's metrics over [from, to) at time t: the analysis library fed by a listener. */
static void plain_metrics(const struct scenario_file *f, u64 from, u64 to, u64 t, struct metrics *m)
{
	char err[256];
	struct sched_engine *e = sched_engine_create(&f->sc, err, sizeof(err));
	struct stats st;

	assert_non_null(e);
	stats_init_scenario(&st, &f->sc, from, to);
	sched_add_listener(e, stats_event, &st);
	sched_run_until(e, t);
	stats_finish(&st, sched_now(e));
	metrics_from_stats(m, &st, f->task_names);
	stats_free(&st);
	sched_engine_destroy(e);
}

static void assert_metrics_equal(const struct metrics *got, const struct metrics *want)
{
	assert_int_equal(got->nr_rows, want->nr_rows);
	assert_int_equal(got->window, want->window);
	for (int i = 0; i < want->nr_rows; i++) {
		assert_string_equal(got->row[i].name, want->row[i].name);
		for (int k = 0; k < NR_METRICS; k++) {
			assert_int_equal(got->row[i].has[k], want->row[i].has[k]);
			if (got->row[i].v[k] != want->row[i].v[k])
				fail_msg("%s %s: %g, want %g", want->row[i].name, metric_names[k],
					 got->row[i].v[k], want->row[i].v[k]);
		}
	}
}

/* The diff strip: each side's numbers are what the analysis library gives a run to that time. */
static void test_diff_strip(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;
	struct metrics want;
	struct cellbuf cb;
	char row[1024];

	run_fails(ui, "diff on", "needs two runs");
	make_branch(ui);
	run(ui, "compare main");
	run(ui, "goto 2.5s");
	run(ui, "diff on");
	diff_strip_update(ui);
	struct diff_strip *d = &ui->split.diff;
	assert_true(d->valid);
	/* B is main: the scenario as written */
	plain_metrics(&fx->f, 0, UINT64_MAX, 2500 * NSEC_PER_MSEC, &want);
	assert_metrics_equal(d->m[1], &want);
	metrics_free(&want);
	/* A has the renice: web.0 (nice 10) gets less CPU than on B */
	int a = metrics_find(d->m[0], "web.0", false), b = metrics_find(d->m[1], "web.0", false);
	assert_true(a >= 0 && b >= 0);
	assert_true(d->m[0]->row[a].v[MET_SHARE] < d->m[1]->row[b].v[MET_SHARE]);

	/* a window, and the numbers follow the clock */
	run(ui, "diff window 1s..2s");
	diff_strip_update(ui);
	plain_metrics(&fx->f, NSEC_PER_SEC, 2 * NSEC_PER_SEC, 2500 * NSEC_PER_MSEC, &want);
	assert_metrics_equal(d->m[1], &want);
	metrics_free(&want);
	run(ui, "diff window all");
	run(ui, "goto 1.7s");
	diff_strip_update(ui);
	plain_metrics(&fx->f, 0, UINT64_MAX, 1700 * NSEC_PER_MSEC, &want);
	assert_metrics_equal(d->m[1], &want);
	metrics_free(&want);

	/* sorted by |B - A| of the chosen metric, largest first */
	run(ui, "diff sort share");
	diff_strip_update(ui);
	const char *most = NULL;
	double most_d = -1;
	for (int i = 0; i < d->m[0]->nr_rows; i++) {
		int j = metrics_find(d->m[1], d->m[0]->row[i].name, d->m[0]->row[i].group);
		double dv = fabs(d->m[1]->row[j].v[MET_SHARE] - d->m[0]->row[i].v[MET_SHARE]);
		if (dv > most_d) {
			most_d = dv;
			most = d->m[0]->row[i].name;
		}
	}
	assert_true(most_d > 0);
	cb_init(&cb, 200, 50);
	ui_draw_frame(ui, &cb);
	int y0 = -1;
	for (int y = 0; y < 50 && y0 < 0; y++)
		if (strstr(cb_row(&cb, y, row, sizeof(row)), "diff B"))
			y0 = y;
	assert_true(y0 > 0);
	assert_non_null(strstr(cb_row(&cb, y0 + 1, row, sizeof(row)), "share"));
	assert_non_null(strstr(cb_row(&cb, y0 + 3, row, sizeof(row)), most));
	/* by name: the scenario's order, hog.0 first */
	run(ui, "diff sort name");
	ui_draw_frame(ui, &cb);
	assert_non_null(strstr(cb_row(&cb, y0 + 3, row, sizeof(row)), "hog.0"));
	cb_free(&cb);
	run_fails(ui, "diff sort colour", "is not share, wait");
	run_fails(ui, "diff window 2s..1s", "bad window");
	run(ui, "diff off");
	assert_false(d->on);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_branch_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_one_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_diverge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_diff_strip, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
