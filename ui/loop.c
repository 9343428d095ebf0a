// SPDX-License-Identifier: GPL-2.0
/* The main loop and the frame around the views: header, caption, status. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "console.h"
#include "find.h"
#include "input.h"
#include "loop.h"
#include "mouse.h"
#include "screen.h"
#include "split.h"
#include "trace_job.h"

#define FRAME_NS (NSEC_PER_SEC / UI_MAX_FPS)
/* at most this much wall time per frame goes to the engine */
#define ENGINE_BUDGET_NS (20 * NSEC_PER_MSEC)
/* ... and this much to a trace being written in the background */
#define TRACE_BUDGET_NS (15 * NSEC_PER_MSEC)
/* ... and this much to a search under way */
#define FIND_BUDGET_NS (15 * NSEC_PER_MSEC)
/* a stall (a long rewind, a suspended terminal) is not caught up */
#define MAX_WALL_STEP_NS (100 * NSEC_PER_MSEC)

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

/* ---- drawing ---- */

static const struct style st_bar = { C_BLACK, C_CYAN, 0 };
static const struct style st_bar_key = { C_BLACK, C_CYAN, A_BOLD_ };
static const struct style st_bar_sel = { C_BRIGHT_WHITE, C_BLUE, A_BOLD_ };

static void draw_header(struct ui *ui, struct cellbuf *cb)
{
	struct style bar = st_bar, key = st_bar_key, sel = st_bar_sel;
	const struct pane *pn = ui_focus(ui);
	const char *path = pn->run->f->path, *name = strrchr(path, '/');

	if (!ui->colors) {
		bar = key = (struct style){ COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_ };
		key.attr |= A_BOLD_;
		sel = (struct style){ COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_ | A_UNDERLINE_ };
	}
	name = name ? name + 1 : path[0] ? path : "demo";
	cb_fill(cb, (struct rect){ 0, 0, cb->w, 1 }, ' ', bar);
	int x = cb_print(cb, 0, 0, cb->w, key, " schedscope ");
	x += cb_print(cb, x, 0, cb->w - x, bar, "%s  ", name);
	for (int i = 0; i < ui_nr_views && x < cb->w; i++) {
		bool on = pn->main_view == ui_views[i] || pn->side_view == ui_views[i];
		int x0 = x;
		x += cb_print(cb, x, 0, cb->w - x, on ? sel : bar, " %d %s ", i + 1, ui_views[i]->name);
		if (i < (int)ARRAY_SIZE(ui->tab_x0)) {
			ui->tab_x0[i] = x0;
			ui->tab_x1[i] = x;
		}
	}
	const char *right = " ? help  : command  q quit ";
	int rw = (int)strlen(right);
	if (cb->w - rw > x)
		cb_print(cb, cb->w - rw, 0, rw, bar, "%s", right);
}

static const struct style st_rule = { C_BRIGHT_BLACK, COLOR_DEFAULT, 0 };

/* A vertical rule between panes at column x, rows [y, y + h). */
static void draw_rule(struct cellbuf *cb, int x, int y, int h)
{
	for (int i = y; i < y + h; i++)
		cb_put(cb, x, i, 0x2502, st_rule);
}

static void draw_view(struct pane *pn, const struct view *v, struct cellbuf *cb, struct rect r)
{
	ui_area(pn, r, v);
	v->draw(pn, cb, r);
}

static void draw_views(struct pane *pn, struct cellbuf *cb, struct rect r)
{
	if (pn->side_view && pn->side_view != pn->main_view && r.w >= 60) {
		int mw = r.w * 3 / 5;
		draw_view(pn, pn->main_view, cb, (struct rect){ r.x, r.y, mw, r.h });
		draw_rule(cb, r.x + mw, r.y, r.h);
		draw_view(pn, pn->side_view, cb, (struct rect){ r.x + mw + 1, r.y, r.w - mw - 1, r.h });
	} else {
		draw_view(pn, pn->main_view, cb, r);
	}
}

static void draw_caption(struct ui *ui, struct cellbuf *cb, int y)
{
	u64 t;
	const char *cap = ui_caption(ui_focus(ui)->run, &t);
	const char *msg = *ui->message ? ui->message : NULL;
	int mw = 0;

	cb_fill(cb, (struct rect){ 0, y, cb->w, 1 }, ' ', STYLE_PLAIN);
	if (ui->console.active && *ui->console.matches) {
		cb_print(cb, 1, y, cb->w - 2, (struct style){ C_CYAN, COLOR_DEFAULT, 0 }, "%s",
			 ui->console.matches);
		return;
	}
	if (msg) {
		bool err = ui->message_is_error;
		struct style st = err ? (struct style){ C_BRIGHT_RED, COLOR_DEFAULT, A_BOLD_ }
				      : (struct style){ C_GREEN, COLOR_DEFAULT, 0 };
		char tmp[600];
		snprintf(tmp, sizeof(tmp), "%s%s ", err ? "error: " : "", msg);
		/* the message on the right, after the caption (captions explain the
		 * scenario, so they keep their width); an error may take the line */
		int len = (int)strlen(tmp);
		int capw = cap ? 16 + (int)strlen(cap) : 0;
		mw = MIN(len, cap && !err ? MAX(24, cb->w - 2 - capw) : cb->w - 1);
		cb_print(cb, cb->w - mw, y, mw, st, "%s", tmp);
	}
	if (cap && cb->w - mw - 2 > 10) {
		char ts[32];
		struct style cs = { C_YELLOW, COLOR_DEFAULT, A_BOLD_ };
		int x = cb_print(cb, 1, y, cb->w - mw - 2, cs, "\u25b8 ");
		x += cb_print(cb, 1 + x, y, cb->w - mw - 2 - x, (struct style){ C_YELLOW, COLOR_DEFAULT, 0 },
			      "%s  ", ui_time_text(t, ts, sizeof(ts)));
		cb_print(cb, 1 + x, y, cb->w - mw - 2 - x, cs, "%s", cap);
	}
}

static void draw_status(struct ui *ui, struct cellbuf *cb, int y)
{
	struct style bar = st_bar, key = st_bar_key;
	const struct pane *pn = ui_focus(ui);
	const struct ui_run *run = pn->run;
	char t[32], sp[64];
	const char *state;
	struct style sst;

	if (!ui->colors)
		bar = key = (struct style){ COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_ };
	if (sched_finished(run->e) || sched_now(run->e) >= run->f->sc.duration) {
		state = " \u25a0 END    ";
		sst = (struct style){ C_BRIGHT_WHITE, C_MAGENTA, A_BOLD_ };
	} else if (ui->paused) {
		state = " \u275a\u275a PAUSED ";
		sst = (struct style){ C_BLACK, C_YELLOW, A_BOLD_ };
	} else {
		state = " \u25b6 RUNNING ";
		sst = (struct style){ C_BLACK, C_GREEN, A_BOLD_ };
	}
	if (!ui->colors)
		sst = (struct style){ COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_ };
	cb_fill(cb, (struct rect){ 0, y, cb->w, 1 }, ' ', bar);
	int x = cb_print(cb, 0, y, cb->w, sst, "%s", state);
	x += cb_print(cb, x, y, cb->w - x, key, " %s", ui_time_text(sched_now(run->e), t, sizeof(t)));
	x += cb_print(cb, x, y, cb->w - x, bar, " / %s", ui_time_text(run->f->sc.duration, t, sizeof(t)));
	x += cb_print(cb, x, y, cb->w - x, bar, "  speed %s",
		      ui->paused ? ui_speed_text(ui->speed, sp, sizeof(sp))
				 : rate_status(&ui->rate, ui->speed, sp, sizeof(sp)));
	x += cb_print(cb, x, y, cb->w - x, bar, "  events %llu",
		      (unsigned long long)sched_nr_events(run->e));
	x += cb_print(cb, x, y, cb->w - x, bar, "  cp %d", history_nr_checkpoints(run->h));
	if (history_nr_branches(run->h) > 1) {
		struct history_branch_info bi;

		history_branch_info(run->h, history_current_branch(run->h), &bi);
		x += cb_print(cb, x, y, cb->w - x, key, "  branch %s/%d", bi.name,
			      history_nr_branches(run->h));
	}
	if (ui->breaks.nr)
		x += cb_print(cb, x, y, cb->w - x, bar, "  breaks %d", ui->breaks.nr);
	if (ui->trace)
		x += cb_print(cb, x, y, cb->w - x, key, "  trace %d%%", ui_trace_progress(ui));
	if (pn->find.on)
		x += cb_print(cb, x, y, cb->w - x, key, "  searching\u2026 %llu events (Esc cancels)",
			      (unsigned long long)pn->find.scan.looked);
	if (ui->split.on)
		x += cb_print(cb, x, y, cb->w - x, key, "  split: %s%s", ui->split.focus ? "B" : "A",
			      ui->split.follow ? "" : " own views");
	if (pn->main_view)
		x += cb_print(cb, x, y, cb->w - x, bar, "  [%s%s%s]", pn->main_view->name,
			      pn->side_view ? "|" : "", pn->side_view ? pn->side_view->name : "");
	if (pn->sel_cpu >= 0)
		x += cb_print(cb, x, y, cb->w - x, bar, "  cpu %d", pn->sel_cpu);
	if (pn->sel_task >= 0)
		x += cb_print(cb, x, y, cb->w - x, bar, "  task %s", run->f->sc.task[pn->sel_task].name);
}

/* A pane's label: which side, what it runs, its own counts; the focused one lit. */
static void draw_label(struct ui *ui, struct cellbuf *cb, struct rect r, int side)
{
	struct pane *pn = side ? &ui->pane_b : &ui->pane;
	bool on = ui->split.focus == side;
	struct style st = on ? st_bar_sel : (struct style){ C_BLACK, C_WHITE, 0 };
	char t[32];

	if (!ui->colors)
		st = (struct style){ COLOR_DEFAULT, COLOR_DEFAULT, on ? A_REVERSE_ | A_BOLD_ : A_REVERSE_ };
	cb_fill(cb, (struct rect){ r.x, r.y, r.w, 1 }, ' ', st);
	int x = cb_print(cb, r.x, r.y, r.w, st, " %s: %s ", side ? "B" : "A", ui->split.label[side]);
	const struct ui_run *run = pn->run;
	char right[96];
	bool diverged =
		ui->split.diverged[side][0] && ui->split.diverged_at == sched_now(ui_focus(ui)->run->e);
	snprintf(right, sizeof(right), " events %llu  cp %d%s%s ",
		 (unsigned long long)sched_nr_events(run->e), history_nr_checkpoints(run->h),
		 sched_now(run->e) >= run->f->sc.duration ? "  end " : "",
		 sched_now(run->e) < sched_now(ui_focus(ui)->run->e)
			 ? ui_time_text(sched_now(run->e), t, sizeof(t))
			 : "");
	int rw = (int)strlen(right);
	if (diverged) {
		struct style dst = st;
		dst.attr |= A_BOLD_;
		x += cb_print(cb, r.x + x, r.y, MAX(0, r.w - x - (r.w - x > rw + 20 ? rw : 0)), dst,
			      "\u2502 %s ", ui->split.diverged[side]);
	}
	if (r.w - rw > x)
		cb_print(cb, r.x + r.w - rw, r.y, rw, st, "%s", right);
}

static void draw_split(struct ui *ui, struct cellbuf *cb, struct rect r)
{
	struct rect ra, rb;
	int sh = diff_strip_height(ui, r.h);

	if (sh) {
		/* the strip gives way to the panes down to its smallest */
		bool side = (r.w - 1) / 2 >= SPLIT_MIN_PANE_W;
		sh = MAX(5, MIN(sh, r.h - (side ? 1 : 2) * SPLIT_MIN_PANE_H));
		diff_strip_draw(ui, cb, (struct rect){ r.x, r.y + r.h - sh, r.w, sh });
		r.h -= sh;
	}

	if (!ui_split_rects(ui, r, &ra, &rb)) {
		struct style st = { C_YELLOW, COLOR_DEFAULT, A_BOLD_ };
		int y = r.y + r.h / 2 - 1;
		cb_print(cb, 1, y, cb->w - 2, st, "terminal too small for the split: need %dx%d or %dx%d",
			 2 * SPLIT_MIN_PANE_W + 1, SPLIT_MIN_PANE_H + 3, SPLIT_MIN_PANE_W,
			 2 * SPLIT_MIN_PANE_H + 3);
		cb_print(cb, 1, y + 1, cb->w - 2, STYLE_PLAIN,
			 "now %dx%d; :split off shows the focused side alone%s", cb->w, cb->h,
			 sh ? ", D hides the diff strip" : "");
		return;
	}
	struct rect pr[2] = { ra, rb };
	ui->split.drawn_side = rb.x > ra.x;
	for (int i = 0; i < 2; i++) {
		draw_label(ui, cb, pr[i], i);
		draw_views(i ? &ui->pane_b : &ui->pane, cb,
			   (struct rect){ pr[i].x, pr[i].y + 1, pr[i].w, pr[i].h - 1 });
	}
	if (rb.x > ra.x) /* side by side: a rule between them */
		draw_rule(cb, rb.x - 1, r.y, r.h);
}

void ui_draw_frame(struct ui *ui, struct cellbuf *cb)
{
	cb_clear(cb);
	ui->nr_hits = ui->nr_areas = 0;
	if (cb->w < SCREEN_MIN_W || cb->h < SCREEN_MIN_H) {
		screen_draw_too_small(cb);
		return;
	}
	draw_header(ui, cb);
	if (ui->split.on)
		draw_split(ui, cb, (struct rect){ 0, 1, cb->w, cb->h - 3 });
	else
		draw_views(ui_focus(ui), cb, (struct rect){ 0, 1, cb->w, cb->h - 3 });
	draw_caption(ui, cb, cb->h - 2);
	draw_status(ui, cb, cb->h - 1);
}

/* ---- running ---- */

static bool stop_at_break(void *ctx, const struct sched_event *ev)
{
	return ui_breaks_test(ctx, ev) >= 0;
}

/* Move the engine forward by wall_dt of wall time at the chosen speed,
 * within a wall-time budget. */
static void advance(struct ui *ui, u64 wall_dt)
{
	struct pane *pn = ui_focus(ui);
	struct ui_run *run = pn->run;
	u64 deadline = wall_ns() + ENGINE_BUDGET_NS, end = run->f->sc.duration;
	u64 now = sched_now(run->e), target, asked = wall_dt;

	if (wall_dt > MAX_WALL_STEP_NS)
		wall_dt = MAX_WALL_STEP_NS;
	target = ui->speed > 0 ? now + (u64)((double)wall_dt * ui->speed) : end;
	if (target > end)
		target = end;
	while (sched_now(run->e) < target && !sched_finished(run->e)) {
		u64 chunk = MIN(target, sched_now(run->e) + NSEC_PER_MSEC);

		if (ui->breaks.nr) {
			s64 seq = history_run_until_event(run->h, chunk, stop_at_break, ui);
			if (seq >= 0) {
				const struct sched_event *ev = history_event(run->h, (u64)seq);

				ui->paused = true;
				pn->sel_event = (u64)seq;
				if (ev->cpu >= 0)
					pn->sel_cpu = ev->cpu;
				ui_breaks_hit(ui, run, ev);
				ui_split_sync(ui);
				return;
			}
		}
		history_run_until(run->h, chunk);
		if (wall_ns() > deadline)
			break;
	}
	rate_add(&ui->rate, asked, sched_now(run->e) - now);
	ui_split_sync(ui);
	if (sched_finished(run->e) || sched_now(run->e) >= end) {
		ui->paused = true;
		ui_message(ui, "end of the run: , rewinds, g goes to a time");
	}
}

/* A key: the view's own first, then the keymap; the console takes all. */
static void handle_key(struct ui *ui, const struct input_key *k, int h)
{
	struct pane *pn = ui_focus(ui);

	if (ui->console.active) {
		console_key(&ui->console, k);
		return;
	}
	if (k->mouse) {
		ui_mouse(ui, k, h);
		return;
	}
	if (!strcmp(k->name, "Escape") && find_cancel(pn))
		return;
	/* after a search, n and N go to the list's next and previous match */
	if (pn->search[0] && pn->main_view->find && (k->code == 'n' || k->code == 'N') && !k->ctrl &&
	    !k->alt) {
		ui_command(ui, k->code == 'n' ? "search-next" : "search-prev");
		return;
	}
	if (pn->main_view->key && pn->main_view->key(pn, k->code))
		return;
	/* the side view gets only keys the keymap leaves free: < and > step, not scroll it */
	if (pn->side_view && pn->side_view->key && !keymap_lookup(&ui->keymap, k->name) &&
	    pn->side_view->key(pn, k->code))
		return;
	const char *cmd = keymap_lookup(&ui->keymap, k->name);
	if (cmd) {
		char copy[512];
		snprintf(copy, sizeof(copy), "%s", cmd);	/* bind may replace it */
		ui_command(ui, copy);
	}
	const char *p = ui_take_prompt(ui);
	if (p)
		console_open(&ui->console, p);
}

/* The terminal, its keys and the console; then the script. 0, or 2 with a message. */
static int ui_start(struct ui *ui, const char *commands, int colors)
{
	ui->colors = screen_init(colors);
	if (ui->colors < 0) {
		fprintf(stderr, "schedscope: the visualizer needs a terminal (try `schedscope view`)\n");
		return 2;
	}
	if (input_init()) {
		screen_fini();
		fprintf(stderr, "schedscope: cannot read the terminal's keys\n");
		return 2;
	}
	console_init(&ui->console, ui);
	ui_message(ui, "space pauses, . steps, , rewinds, ? lists every key");
	if (commands)
		ui_command_file(ui, commands);
	return 0;
}

/* What is due before a frame: a resize, a redraw or prompt asked for, the
 * engine's time, a trace in the background. True when the frame changed. */
static bool tick(struct ui *ui, u64 now, u64 *last_adv)
{
	bool dirty = false;

	if (screen_resized && screen_handle_resize())
		dirty = true;
	if (ui_take_redraw(ui)) {
		screen_invalidate();
		dirty = true;
	}
	const char *p = ui_take_prompt(ui);
	if (p) {
		console_open(&ui->console, p);
		dirty = true;
	}
	if (!ui->paused) {
		advance(ui, now - *last_adv);
		dirty = true;
	} else {
		rate_reset(&ui->rate);
	}
	*last_adv = now;
	/* a trace in the background: its progress in the status line, then its message */
	if (ui->trace) {
		ui_trace_advance(ui, wall_ns() + TRACE_BUDGET_NS);
		dirty = true;
	}
	/* a search under way: slices until its budget is spent, then the frame and the keys */
	if (find_pending(ui)) {
		u64 deadline = wall_ns() + FIND_BUDGET_NS;

		while (find_slice(ui, FIND_SLICE) && wall_ns() < deadline)
			;
		dirty = true;
	}
	return dirty;
}

/* Draw the frame and the console's line into cb (sized to the terminal) and show it. */
static void show_frame(struct ui *ui, struct cellbuf *cb, int w, int h)
{
	if (cb->w != w || cb->h != h) {
		cb_free(cb);
		cb_init(cb, w, h);
	}
	ui_draw_frame(ui, cb);
	int cx = -1;
	if (ui->console.active && w >= SCREEN_MIN_W && h >= SCREEN_MIN_H)
		cx = console_draw(&ui->console, cb, h - 1);
	screen_blit(cb, cx, h - 1);
}

/* How long to wait for a key: until the next frame while running or while
 * one is owed; paused with the frame up to date, until a key or a signal. */
static int key_timeout(const struct ui *ui, bool dirty, u64 last_frame)
{
	/* the clock is read once: MIN() evaluates its arguments twice, and a
	 * second, later reading past FRAME_NS wrapped the wait to forever */
	u64 since_frame = wall_ns() - last_frame;
	int left = (int)((FRAME_NS - MIN(FRAME_NS, since_frame)) / NSEC_PER_MSEC);

	/* a search takes the time between frames: keys are only looked for */
	if (find_pending(ui))
		return 0;
	if (!ui->paused)
		return left;
	if (dirty || ui->trace)
		return left + 1;
	return -1;
}

/* Wait for a key, then take every key already typed. 1: keys, 0: none, -1: input closed. */
static int take_keys(struct ui *ui, int timeout, int h)
{
	struct input_key k;
	int r = input_wait(&k, timeout);

	if (r <= 0)
		return r;
	handle_key(ui, &k, h);
	while (!ui->quit && input_wait(&k, 0) > 0)
		handle_key(ui, &k, h);
	return 1;
}

/* The terminal back; a trace asked for is written whole, unless a signal ended the visualizer. */
static int ui_stop(struct ui *ui, int rc)
{
	console_fini(&ui->console);
	input_fini();
	screen_fini();
	if (ui->trace && !screen_quit_requested) {
		fprintf(stderr, "schedscope: finishing the trace %d%% written\n", ui_trace_progress(ui));
		ui_trace_finish(ui);
		if (ui->message_is_error)
			fprintf(stderr, "schedscope: %s\n", ui->message);
	}
	/* ended by a signal: say so in the status, as the shell would */
	if (screen_quit_requested)
		rc = 128 + screen_quit_requested;
	return rc;
}

int ui_run(struct ui *ui, const char *commands, int colors)
{
	struct cellbuf cb = { 0 };
	u64 last_adv = wall_ns(), last_frame = 0;
	bool dirty = true;
	int rc = ui_start(ui, commands, colors);

	if (rc)
		return rc;
	while (!ui->quit && !screen_quit_requested) {
		u64 now = wall_ns();
		int w, h;

		dirty |= tick(ui, now, &last_adv);
		screen_size(&w, &h);
		if (dirty && now - last_frame >= FRAME_NS) {
			show_frame(ui, &cb, w, h);
			last_frame = now;
			dirty = false;
		}
		int r = take_keys(ui, key_timeout(ui, dirty, last_frame), h);
		if (r < 0) {
			rc = 1;
			break;
		}
		dirty |= r > 0;
	}
	cb_free(&cb);
	return ui_stop(ui, rc);
}
