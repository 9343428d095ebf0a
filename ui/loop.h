/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The visualizer's set-up and main loop: wait for input with a timeout,
 * advance the engine at the chosen speed in wall-clock terms, redraw at a
 * bounded frame rate; a paused program blocks in poll() and uses no CPU.
 */
#ifndef UI_LOOP_H
#define UI_LOOP_H

#include "ui.h"

#define UI_MAX_FPS 30
#define UI_DEFAULT_SPEED 0.1

/* Engine, history and defaults for f (which must outlive the ui). 0 or -1 with err. */
/* history_budget: the run's history (history_create()), at least history_min_budget(). */
int ui_setup(struct ui *ui, const struct scenario_file *f, size_t history_budget, char *err, size_t errlen);
void ui_teardown(struct ui *ui);

/* A run's engine and a history within budget over f; 0 or -1 with err. */
int ui_run_setup(struct ui_run *run, const struct scenario_file *f, size_t budget, char *err, size_t errlen);
void ui_run_teardown(struct ui_run *run);

/* A pane showing run, with the default views and nothing selected. */
void pane_init(struct pane *pane, struct ui *ui, struct ui_run *run);
void pane_fini(struct pane *pane);

/* The caption at the run's current position (the latest scenario note
 * reached), NULL if none; *time gets the note's time. */
const char *ui_caption(const struct ui_run *run, u64 *time);

/* The whole screen (header, views, caption, status) into cb, as the
 * terminal shows it; console_line, if not NULL, replaces the status line. */
void ui_draw_frame(struct ui *ui, struct cellbuf *cb);

/* Run interactively; `commands` is a script run first (NULL: none);
 * colors is 256, 16, 0 or -1 to detect. Returns the exit status. */
int ui_run(struct ui *ui, const char *commands, int colors);

#endif

/* The help screen (ui/help.c): every key and command, from the tables. */
extern const struct view view_help;
