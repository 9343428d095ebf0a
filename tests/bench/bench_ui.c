// SPDX-License-Identifier: GPL-2.0
/*
 * Visualizer benchmark (`make bench`): the figures issue 6 asks for.
 *
 * A struct ui is set up with no terminal exactly as `schedscope view` does
 * it (src/cmd_view.c): ui_setup() on a parsed scenario, the engine run under
 * its history to a mid point, then frames drawn with ui_draw_frame() into a
 * 200x60 cellbuf. Two loads:
 *   16 CPUs:  4 packages x 4 cores, 100 hogs + 100 `loop { run 1ms; sleep 9ms }`
 *   256 CPUs: 2 packages x 64 cores x 2 threads, 1000 hogs + 1000 periodic
 * both HZ 250, EEVDF, 10 s long, paused at 5 s, CPU 0 and task loop.0
 * selected (so the runqueue and task views have something to show).
 *
 * Frame time: for every entry of ui_views, `view NAME` (the console command)
 * makes it the main view, and whole frames (header, view, caption, status:
 * what the terminal is sent) are drawn until at least MIN_BATCH_SEC have
 * passed; the mean per frame of the best of REPS batches, in µs.
 *
 * Bytes per frame: ui/screen.c draws only through ncurses on a real
 * terminal (newterm on stdout) and has no way to render into memory or to
 * count its output, so this reports the size of cb_write_ansi(cb, f, 256)
 * (the `schedscope view --format ansi` writer) for one frame of the default
 * view, and for the frame after one more engine step (history_step). That is
 * the ANSI writer's size of a whole frame, an upper bound: curses' diff
 * sends only the cells that changed since the previous frame.
 *
 * Split-screen frame time: the same, with the screen split (ui_split_open)
 * and B a second engine over the same scenario brought to the same time;
 * both panes follow the view (split_frame_NAME); the cpus view with the diff
 * strip under the panes (split_diff_frame_cpus), and the strip working its
 * numbers out from both logs, as it does when a side has moved
 * (diff_strip_update).
 *
 * The timeline with an LLC a row (frame_timeline_llc); the run to the mid
 * point under a history without and with the CPUs view's PELT history
 * listener (run_to_mid_point, run_to_mid_point_with_cpu_history).
 *
 * Output: `bench: NAME VALUE UNIT`.
 *
 * Usage: bench_ui [-q]   (-q: one batch per figure instead of REPS)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/commands.h"
#include "ui/cpu_history.h"
#include "ui/loop.h"
#include "ui/split.h"
#include "bench_util.h"

#define MIN_BATCH_SEC 0.05
#define MIN_BATCH_FRAMES 5
#define SCREEN_W 200
#define SCREEN_H 60

static const char load16_text[] = BENCH_LOAD_16CPU("10s");
static const char load256_text[] = BENCH_LOAD_256CPU("10s");

#define MID_POINT (5 * NSEC_PER_SEC)

static void command(struct ui *ui, const char *line)
{
	if (ui_command(ui, line)) {
		fprintf(stderr, "bench: '%s': %s\n", line, ui->message);
		exit(1);
	}
}

/* ---- counting what a FILE is sent ---- */

static ssize_t count_write(void *cookie, const char *buf, size_t size)
{
	*(u64 *)cookie += size;
	return (ssize_t)size;
}

static u64 ansi_bytes(const struct cellbuf *cb)
{
	cookie_io_functions_t io = { .write = count_write };
	u64 n = 0;
	FILE *f = fopencookie(&n, "w", io);

	if (!f) {
		fprintf(stderr, "bench: fopencookie failed\n");
		exit(1);
	}
	cb_write_ansi(cb, f, 256);
	if (fclose(f)) {
		fprintf(stderr, "bench: writing the ANSI frame failed\n");
		exit(1);
	}
	return n;
}

/* ---- the figures ---- */

/* Mean µs per whole frame with the main view `v`, best of `bench_reps` batches. */
static double frame_us(struct ui *ui, struct cellbuf *cb, const struct view *v)
{
	char cmd[128];
	double best = 1e30;

	snprintf(cmd, sizeof(cmd), "view %s", v->name);
	command(ui, cmd);
	if (ui->pane.main_view != v) {
		fprintf(stderr, "bench: '%s' did not show view %s\n", cmd, v->name);
		exit(1);
	}
	ui->message[0] = 0;
	ui_draw_frame(ui, cb);	/* warm up: first-use allocations, caches */
	for (int rep = 0; rep < bench_reps; rep++) {
		double t0 = now_sec(), dt;
		int n = 0;

		do {
			ui_draw_frame(ui, cb);
			n++;
			dt = now_sec() - t0;
		} while (n < MIN_BATCH_FRAMES || dt < MIN_BATCH_SEC);
		if (dt / n < best)
			best = dt / n;
	}
	return best * 1e6;
}

static void fig(const char *name, const char *text)
{
	struct scenario_file f;
	struct cellbuf cb;
	struct ui ui;
	char err[512];

	bench_parse(name, text, &f);
	if (ui_setup(&ui, &f, HISTORY_DEFAULT_BUDGET, err, sizeof(err))) {
		fprintf(stderr, "bench: %s: %s\n", name, err);
		exit(1);
	}
	cb_init(&cb, SCREEN_W, SCREEN_H);
	ui.colors = 256;
	ui.paused = true;
	history_run_until(ui.run.h, MID_POINT);
	command(&ui, "select cpu 0");
	command(&ui, "select task loop.0");

	for (int i = 0; i < ui_nr_views; i++) {
		const struct view *v = ui_views[i];

		printf("bench: ui_%s_%dx%d frame_%s %.1f us\n", name, SCREEN_W, SCREEN_H, v->name,
		       frame_us(&ui, &cb, v));
		fflush(stdout);
	}

	/* the timeline with an LLC a row (its `l`), the selected CPU's expanded */
	for (int i = 0; i < ui_nr_views; i++) {
		if (strcmp(ui_views[i]->name, "timeline"))
			continue;
		ui.pane.tl_llc = true;
		printf("bench: ui_%s_%dx%d frame_timeline_llc %.1f us\n", name, SCREEN_W, SCREEN_H,
		       frame_us(&ui, &cb, ui_views[i]));
		ui.pane.tl_llc = false;
	}
	fflush(stdout);

	/* the ANSI writer's bytes: one frame of the default view, then after a step */
	ui.pane.main_view = ui_views[0];	/* as ui_setup leaves it */
	ui.message[0] = 0;
	ui_draw_frame(&ui, &cb);
	u64 first = ansi_bytes(&cb);
	history_step(ui.run.h);
	ui_draw_frame(&ui, &cb);
	u64 stepped = ansi_bytes(&cb);
	printf("bench: ui_%s_%dx%d ansi_bytes_frame %llu B\n", name, SCREEN_W, SCREEN_H,
	       (unsigned long long)first);
	printf("bench: ui_%s_%dx%d ansi_bytes_after_step %llu B\n", name, SCREEN_W, SCREEN_H,
	       (unsigned long long)stepped);
	fflush(stdout);

	/* the split screen: B a second engine over the same scenario, at the same time */
	if (ui_split_open(&ui, &f, -1, "stock", "the same, a second engine", err, sizeof(err))) {
		fprintf(stderr, "bench: split: %s\n", err);
		exit(1);
	}
	command(&ui, "select cpu 0");
	command(&ui, "select task loop.0");
	for (int i = 0; i < ui_nr_views; i++) {
		const struct view *v = ui_views[i];

		printf("bench: ui_%s_%dx%d split_frame_%s %.1f us\n", name, SCREEN_W, SCREEN_H, v->name,
		       frame_us(&ui, &cb, v));
		fflush(stdout);
	}
	/* with the diff strip: a frame once its numbers are worked out, and working them out */
	command(&ui, "diff on");
	printf("bench: ui_%s_%dx%d split_diff_frame_cpus %.1f us\n", name, SCREEN_W, SCREEN_H,
	       frame_us(&ui, &cb, ui_views[0]));
	double best = 1e30;
	for (int rep = 0; rep < bench_reps; rep++) {
		double t0 = now_sec();
		ui.split.diff.valid = false;
		diff_strip_update(&ui);
		best = MIN(best, now_sec() - t0);
	}
	printf("bench: ui_%s diff_strip_update %.1f ms (%llu + %llu events)\n", name, best * 1e3,
	       (unsigned long long)sched_nr_events(ui.run.e),
	       (unsigned long long)sched_nr_events(ui.run_b.e));
	fflush(stdout);

	cb_free(&cb);
	ui_teardown(&ui);
	scenario_free(&f);
}

/* The run to the mid point under a history, ms: alone, and with the CPUs view's history listener. */
static void history_cost(const char *name, const char *text)
{
	struct scenario_file f;
	double ms[2];

	bench_parse(name, text, &f);
	for (int with = 0; with < 2; with++) {
		char err[512];
		struct sched_engine *e = sched_engine_create(&f.sc, err, sizeof(err));
		struct sched_history *h;
		struct cpu_history ch;

		if (!e) {
			fprintf(stderr, "bench: %s: %s\n", name, err);
			exit(1);
		}
		h = history_create(e, HISTORY_DEFAULT_BUDGET);
		cpu_history_init(&ch, e);
		if (with)
			history_add_listener(h, cpu_history_event, &ch);
		double t0 = now_sec();

		history_run_until(h, MID_POINT);
		ms[with] = (now_sec() - t0) * 1e3;
		cpu_history_free(&ch);
		history_destroy(h);
		sched_engine_destroy(e);
	}
	printf("bench: ui_%s run_to_mid_point %.1f ms\n", name, ms[0]);
	printf("bench: ui_%s run_to_mid_point_with_cpu_history %.1f ms\n", name, ms[1]);
	fflush(stdout);
	scenario_free(&f);
}

int main(int argc, char **argv)
{
	bench_args(argc, argv);
	fig("16cpu", load16_text);
	fig("256cpu", load256_text);
	history_cost("256cpu", load256_text);
	return 0;
}
