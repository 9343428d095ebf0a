// SPDX-License-Identifier: GPL-2.0
/* The console's command interpreter on a real engine and history. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/format/scenario_file.h"
#include "src/trace/trace_log.h"
#include "ui/commands.h"
#include "ui/input.h"
#include "ui/loop.h"
#include "ui/trace_job.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static const char scn[] =
	"topology packages=1 cores=2 threads=1\n"
	"hz 250\n"
	"duration 3s\n"
	"task hog count=2 cpus=0 program=\"run forever\"\n"
	"task web cpus=1 program=\"loop { run 1ms; sleep 3ms }\"\n"
	"note 1s \"one second in\"\n";

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

struct pos {
	u64 now, events;
	double speed;
	bool paused;
	int sel_cpu, sel_task;
	const struct view *main_view;
};

static struct pos pos(const struct ui *ui)
{
	return (struct pos){ sched_now(ui->run.e), sched_nr_events(ui->run.e), ui->speed, ui->paused,
			     ui->pane.sel_cpu, ui->pane.sel_task, ui->pane.main_view };
}

static void assert_same(struct pos a, struct pos b)
{
	assert_int_equal(a.now, b.now);
	assert_int_equal(a.events, b.events);
	assert_true(a.speed == b.speed);
	assert_int_equal(a.paused, b.paused);
	assert_int_equal(a.sel_cpu, b.sel_cpu);
	assert_int_equal(a.sel_task, b.sel_task);
	assert_ptr_equal(a.main_view, b.main_view);
}

static void test_step_and_back(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;

	assert_int_equal(ui_command(ui, "goto 10ms"), 0);
	struct pos p0 = pos(ui);
	assert_int_equal(ui_command(ui, "step"), 0);
	struct pos p1 = pos(ui);
	assert_true(p1.events > p0.events);
	assert_true(ui->paused);
	assert_int_equal(ui_command(ui, "step 5"), 0);
	assert_true(sched_nr_events(ui->run.e) > p1.events);
	/* back 5 undoes step 5 */
	assert_int_equal(ui_command(ui, "back 5"), 0);
	assert_int_equal(sched_nr_events(ui->run.e), p1.events);
	assert_int_equal(sched_now(ui->run.e), p1.now);
	/* and back once more lands before the first step's events */
	assert_int_equal(ui_command(ui, "back"), 0);
	assert_true(sched_nr_events(ui->run.e) <= p0.events);
	assert_int_equal(history_mismatches(ui->run.h), 0);
}

static void test_goto_and_checkpoint(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;

	assert_int_equal(ui_command(ui, "goto 2s"), 0);
	assert_int_equal(sched_now(ui->run.e), 2 * NSEC_PER_SEC);
	assert_int_equal(ui_command(ui, "checkpoint here"), 0);
	assert_int_equal(ui_command(ui, "goto 500ms"), 0);
	assert_int_equal(sched_now(ui->run.e), 500 * NSEC_PER_MSEC);
	assert_int_equal(ui_command(ui, "goto +1.5ms"), 0);
	assert_int_equal(sched_now(ui->run.e), 501500 * NSEC_PER_USEC);
	assert_int_equal(ui_command(ui, "goto -1500us"), 0);
	assert_int_equal(sched_now(ui->run.e), 500 * NSEC_PER_MSEC);
	/* back past the start is the start */
	assert_int_equal(ui_command(ui, "goto -18446744073709551615ns"), 0);
	assert_int_equal(sched_now(ui->run.e), 0);
	assert_int_equal(ui_command(ui, "goto 500ms"), 0);
	assert_int_equal(ui_command(ui, "goto here"), 0);
	assert_int_equal(sched_now(ui->run.e), 2 * NSEC_PER_SEC);
	/* a caption once its note is reached */
	u64 t;
	assert_string_equal(ui_caption(&ui->run, &t), "one second in");
	assert_int_equal(t, NSEC_PER_SEC);
	assert_int_equal(ui_command(ui, "goto 999ms"), 0);
	assert_null(ui_caption(&ui->run, NULL));

	/* errors change nothing */
	struct pos p = pos(ui);
	assert_int_equal(ui_command(ui, "goto 4s"), -1);
	assert_true(ui->message_is_error);
	assert_non_null(strstr(ui->message, "past the end"));
	/* beyond the longest time is past the end too, not a wrapped clock (issue 19) */
	assert_int_equal(ui_command(ui, "goto +18446744073709551615ns"), -1);
	assert_non_null(strstr(ui->message, "past the end"));
	assert_int_equal(ui_command(ui, "goto 18446744073709551615ns"), -1);
	assert_non_null(strstr(ui->message, "past the end"));
	assert_int_equal(ui_command(ui, "goto +1000000000s"), -1);
	assert_non_null(strstr(ui->message, "past the end"));
	assert_int_equal(ui_command(ui, "goto nowhere"), -1);
	assert_int_equal(ui_command(ui, "goto"), -1);
	assert_int_equal(ui_command(ui, "checkpoint here"), -1);
	assert_non_null(strstr(ui->message, "exists"));
	assert_int_equal(ui_command(ui, "checkpoint 9lives"), -1);
	assert_same(p, pos(ui));
	/* an unnamed checkpoint gets a name */
	assert_int_equal(ui_command(ui, "checkpoint"), 0);
	assert_non_null(strstr(ui->message, "cp1"));
}

static void test_speed_limits(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;
	char b[32];

	assert_int_equal(ui_command(ui, "speed 1/10000"), 0);
	assert_true(ui->speed == 0.0001);
	assert_string_equal(ui_speed_text(ui->speed, b, sizeof(b)), "1/10000x");
	assert_int_equal(ui_command(ui, "speed down"), 0);	/* stays at the slowest */
	assert_true(ui->speed == 0.0001);
	struct pos p = pos(ui);
	assert_int_equal(ui_command(ui, "speed 1/100000"), -1);
	assert_int_equal(ui_command(ui, "speed 5000"), -1);
	assert_int_equal(ui_command(ui, "speed fast"), -1);
	assert_int_equal(ui_command(ui, "speed -1"), -1);
	assert_int_equal(ui_command(ui, "speed"), -1);
	/* only the word is max; a zero is below 1/10000 (issue 19) */
	assert_int_equal(ui_command(ui, "speed 0"), -1);
	assert_non_null(strstr(ui->message, "out of range"));
	assert_int_equal(ui_command(ui, "speed 0x"), -1);
	assert_int_equal(ui_command(ui, "speed 0/1"), -1);
	assert_int_equal(ui_command(ui, "speed 0.0"), -1);
	assert_int_equal(ui_command(ui, "speed 0.00001"), -1);
	assert_same(p, pos(ui));
	assert_int_equal(ui_command(ui, "speed 2x"), 0);
	assert_true(ui->speed == 2);
	assert_int_equal(ui_command(ui, "speed up"), 0);
	assert_true(ui->speed == 5);
	assert_int_equal(ui_command(ui, "speed max"), 0);
	assert_true(ui->speed == 0);
	assert_string_equal(ui_speed_text(ui->speed, b, sizeof(b)), "max");
	assert_int_equal(ui_command(ui, "speed up"), 0);	/* stays at max */
	assert_true(ui->speed == 0);
	assert_int_equal(ui_command(ui, "speed down"), 0);
	assert_true(ui->speed == 100);
}

static void test_bad_commands_change_nothing(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;
	static const char *const bad[] = {
		"bogus", "step x", "step 0", "step 1 2", "back -1", "step-next", "step-next nothing",
		"step-next switch cpu=7", "step-next switch task=nobody", "select task nobody",
		"select cpu 2", "select gpu 1", "view nosuch", "set nice nobody 5", "set nice hog.0 99",
		"bind NotAKey quit", "side nosuch",
	};

	assert_int_equal(ui_command(ui, "goto 1s"), 0);
	struct pos p = pos(ui);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (ui_command(ui, bad[i]) != -1)
			fail_msg("'%s' did not fail", bad[i]);
		assert_true(ui->message_is_error);
		assert_same(p, pos(ui));
	}
	/* empty lines and blanks are no command at all */
	assert_int_equal(ui_command(ui, "   "), 0);
	/* back at the very start is an error too */
	assert_int_equal(ui_command(ui, "goto 0"), 0);
	while (sched_nr_events(ui->run.e) && ui_command(ui, "back") == 0)
		;
	p = pos(ui);
	assert_int_equal(ui_command(ui, "back"), -1);
	assert_same(p, pos(ui));
}

static void test_step_next_select_set(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;

	assert_int_equal(ui_command(ui, "step-next switch cpu=1"), 0);
	const struct sched_event *ev = history_event(ui->run.h, ui->pane.sel_event);
	assert_int_equal(ev->type, EV_SCHED_SWITCH);
	assert_int_equal(ev->cpu, 1);
	assert_int_equal(ui_command(ui, "step-next wakeup task=web"), 0);
	ev = history_event(ui->run.h, ui->pane.sel_event);
	assert_int_equal(ev->type, EV_SCHED_WAKEUP);
	/* nothing later: an error, and the position is kept */
	struct pos p = pos(ui);
	assert_int_equal(ui_command(ui, "step-next exit"), -1);
	assert_same(p, pos(ui));

	assert_int_equal(ui_command(ui, "select task hog.1"), 0);
	assert_int_equal(ui->pane.sel_task, 1);
	assert_int_equal(ui_command(ui, "select task next"), 0);
	assert_int_equal(ui->pane.sel_task, 2);
	assert_int_equal(ui_command(ui, "select cpu 1"), 0);
	assert_int_equal(ui->pane.sel_cpu, 1);
	assert_int_equal(ui_command(ui, "select cpu next"), 0);
	assert_int_equal(ui->pane.sel_cpu, 0);
	assert_int_equal(ui_command(ui, "select none"), 0);
	assert_int_equal(ui->pane.sel_cpu, -1);

	u64 ne = sched_nr_events(ui->run.e);
	assert_int_equal(ui_command(ui, "set nice hog.0 -5"), 0);
	assert_true(sched_nr_events(ui->run.e) > ne);
	struct sched_task_info ti;
	sched_task_info(ui->run.e, 0, &ti);
	assert_int_equal(ti.nice, -5);

	assert_int_equal(ui_command(ui, "filter sched_switch"), 0);
	assert_string_equal(ui->pane.ev_filter, "sched_switch");
	assert_int_equal(ui_command(ui, "filter"), 0);
	assert_string_equal(ui->pane.ev_filter, "");
	assert_int_equal(ui_command(ui, "help"), 0);
	assert_string_equal(ui->pane.main_view->name, "help");
	assert_int_equal(ui_command(ui, "help"), 0);
	assert_true(ui->pane.main_view == NULL || strcmp(ui->pane.main_view->name, "help"));
	assert_int_equal(ui_command(ui, "quit"), 0);
	assert_true(ui->quit);
}

static void test_breakpoints(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;

	assert_int_equal(ui->breaks.nr, 0);
	assert_int_equal(ui_command(ui, "break switch cpu=1"), 0);
	assert_int_equal(ui_command(ui, "break wakeup task=web"), 0);
	assert_int_equal(ui->breaks.nr, 2);
	assert_int_equal(ui_command(ui, "breaks"), 0);
	assert_non_null(strstr(ui->message, "1: switch cpu=1"));
	assert_non_null(strstr(ui->message, "2: wakeup task=web"));
	/* errors make no breakpoint */
	assert_int_equal(ui_command(ui, "break frobnicate"), -1);
	assert_int_equal(ui_command(ui, "break switch cpu=9"), -1);
	assert_int_equal(ui_command(ui, "break"), -1);
	assert_int_equal(ui_command(ui, "delete 3"), -1);
	assert_int_equal(ui->breaks.nr, 2);
	/* the stream hits them */
	struct sched_event ev = { .time = 5, .type = EV_SCHED_SWITCH, .cpu = 1 };
	ev.sw.prev_pid = 0;
	ev.sw.next_pid = 3;
	assert_int_equal(ui_breaks_test(ui, &ev), 0);
	ev.cpu = 0;
	assert_int_equal(ui_breaks_test(ui, &ev), -1);
	assert_int_equal(ui_command(ui, "delete 1"), 0);
	assert_int_equal(ui->breaks.nr, 1);
	assert_int_equal(ui_command(ui, "delete all"), 0);
	assert_int_equal(ui->breaks.nr, 0);
}

static void test_bind_and_script(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;

	assert_string_equal(keymap_lookup(&ui->keymap, "Space"), "toggle-pause");
	assert_string_equal(keymap_lookup(&ui->keymap, "."), "step");
	assert_int_equal(ui_command(ui, "bind x goto 1s"), 0);
	assert_string_equal(keymap_lookup(&ui->keymap, "x"), "goto 1s");
	assert_int_equal(ui_command(ui, "bind <space> step 3"), 0);
	assert_string_equal(keymap_lookup(&ui->keymap, "Space"), "step 3");
	assert_int_equal(ui_command(ui, "bind ctrl-X quit"), 0);
	assert_string_equal(keymap_lookup(&ui->keymap, "C-x"), "quit");
	assert_int_equal(ui_command(ui, "unbind x"), 0);
	assert_null(keymap_lookup(&ui->keymap, "x"));

	char path[] = "/tmp/schedscope-cmdsXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *script = "# a script\n"
			     "goto 1500ms   # a comment\n"
			     "\n"
			     "checkpoint mid\n"
			     "step\n"
			     "frobnicate\n"
			     "goto 0\n";
	assert_int_equal(write(fd, script, strlen(script)), (ssize_t)strlen(script));
	close(fd);
	assert_int_equal(ui_command_file(ui, path), -1);
	/* stopped at line 6, after the lines before it ran */
	char want[64];
	snprintf(want, sizeof(want), "%s:6: unknown command", path);
	assert_non_null(strstr(ui->message, want));
	assert_true(sched_now(ui->run.e) >= 1500 * NSEC_PER_MSEC);
	assert_int_equal(history_find_checkpoint(ui->run.h, "mid"), 1500 * NSEC_PER_MSEC);
	unlink(path);
	assert_int_equal(ui_command_file(ui, "/nonexistent/script"), -1);
}

static void test_frame(void **state)
{
	struct fixture *fx = *state;
	struct ui *ui = &fx->ui;
	struct cellbuf cb;
	char row[512];

	assert_int_equal(ui_command(ui, "goto 1.25s"), 0);
	cb_init(&cb, 100, 30);
	ui_draw_frame(ui, &cb);
	assert_non_null(strstr(cb_row(&cb, 29, row, sizeof(row)), "PAUSED  1.250000s / 3.000000s"));
	assert_non_null(strstr(cb_row(&cb, 28, row, sizeof(row)), "one second in"));
	assert_non_null(strstr(cb_row(&cb, 0, row, sizeof(row)), "schedscope"));
	cb_free(&cb);
	cb_init(&cb, 79, 24);
	ui_draw_frame(ui, &cb);
	assert_non_null(strstr(cb_row(&cb, 11, row, sizeof(row)), "terminal too small: need 80x24"));
	cb_free(&cb);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 22);
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, (1 << 22) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The Perfetto trace `run --trace` writes up to 500ms, with `set nice` on task 0 at time 0. */
static char *run_trace(struct fixture *fx, const char *path)
{
	struct sched_command c = { .kind = CMD_SET_NICE, .task = 0, .value = 5 };
	char err[256];
	struct sched_engine *e = sched_engine_create(&fx->f.sc, err, sizeof(err));
	FILE *f = fopen(path, "w");
	struct trace_perfetto_opts po;
	struct trace_perfetto *pw = NULL;

	assert_non_null(e);
	assert_non_null(f);
	trace_perfetto_opts_for(&po, e, true);
	pw = trace_perfetto_open(f, &po);
	sched_add_listener(e, trace_perfetto_event, pw);
	sched_run_until(e, 0);
	assert_int_equal(sched_apply_command(e, &c, err, sizeof(err)), 0);
	sched_run_until(e, 500 * NSEC_PER_MSEC);
	assert_int_equal(trace_perfetto_close(pw, sched_now(e)), 0);
	fclose(f);
	sched_engine_destroy(e);
	return slurp(path);
}

/* `trace` writes the run up to now in the background, as a trace written as the run went. */
static void test_trace_from_the_log(void **state)
{
	struct fixture *fx = *state;
	char live[] = "/tmp/schedscope-live-XXXXXX", logged[] = "/tmp/schedscope-log-XXXXXX";
	char cmd[128], err[256];
	struct sched_engine *e;
	struct trace_ftrace_opts o;
	struct trace_ftrace *w;
	FILE *f;

	assert_true(mkstemp(live) >= 0 && mkstemp(logged) >= 0);
	/* there and back: the log runs ahead of the position, the trace stops at now */
	assert_int_equal(ui_command(&fx->ui, "goto 800ms"), 0);
	assert_int_equal(ui_command(&fx->ui, "goto 500ms"), 0);
	snprintf(cmd, sizeof(cmd), "trace %s", logged);
	assert_int_equal(ui_command(&fx->ui, cmd), 0);
	/* in the background: nothing is in place until it is done */
	assert_int_equal(ui_trace_progress(&fx->ui), 0);
	assert_true(ui_trace_advance(&fx->ui, 0));
	assert_true(ui_trace_progress(&fx->ui) >= 0 && ui_trace_progress(&fx->ui) < 100);
	char *none = slurp(logged);
	assert_string_equal(none, "");
	free(none);
	ui_trace_finish(&fx->ui);
	assert_int_equal(ui_trace_progress(&fx->ui), -1);
	assert_false(fx->ui.message_is_error);

	e = sched_engine_create(&fx->f.sc, err, sizeof(err));
	assert_non_null(e);
	f = fopen(live, "w");
	trace_ftrace_opts_for(&o, e);
	w = trace_ftrace_open(f, &o);
	sched_add_listener(e, trace_ftrace_event, w);
	sched_run_until(e, 500 * NSEC_PER_MSEC);
	assert_int_equal(trace_ftrace_close(w), 0);
	fclose(f);
	sched_engine_destroy(e);

	char *a = slurp(live), *b = slurp(logged);
	assert_true(strlen(a) > 1000);
	assert_string_equal(a, b);
	free(a);
	free(b);

	/* a branch's command is in its trace, and Perfetto's counters read the replaying engine */
	char json[] = "/tmp/schedscope-log-XXXXXX.json";
	assert_true(mkstemps(json, 5) >= 0);
	assert_int_equal(ui_command(&fx->ui, "goto 0s"), 0);
	assert_int_equal(ui_command(&fx->ui, "set nice hog.0 5"), 0);
	assert_int_equal(ui_command(&fx->ui, "goto 500ms"), 0);
	snprintf(cmd, sizeof(cmd), "trace %s", json);
	assert_int_equal(ui_command(&fx->ui, cmd), 0);
	ui_trace_finish(&fx->ui);
	assert_false(fx->ui.message_is_error);
	a = run_trace(fx, live);
	b = slurp(json);
	assert_non_null(strstr(a, " load_avg\""));
	assert_string_equal(a, b);
	free(a);
	free(b);

	snprintf(cmd, sizeof(cmd), "trace %s 2s..1s", logged);
	assert_int_equal(ui_command(&fx->ui, cmd), -1);
	snprintf(cmd, sizeof(cmd), "trace %s 600ms..1s", logged);
	assert_int_equal(ui_command(&fx->ui, cmd), -1);
	assert_int_equal(ui_command(&fx->ui, "trace /nonexistent-dir/x.txt"), -1);
	unlink(live);
	unlink(logged);
	unlink(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_step_and_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_goto_and_checkpoint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_speed_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_commands_change_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_step_next_select_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_breakpoints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bind_and_script, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_from_the_log, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
