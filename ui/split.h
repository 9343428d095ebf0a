/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The split screen (struct split in ui.h): two runs on one clock, each in
 * its pane. The focused side is driven by the commands; the other one is
 * brought to the same simulated time after each.
 */
#ifndef UI_SPLIT_H
#define UI_SPLIT_H

#include "ui.h"

/* Split the screen: B runs fb from its start (with the commands of branch
 * `branch` of A's history when >= 0) and stands at A's time. Labels say what
 * each side is. 0, or -1 with err (and no split). */
int ui_split_open(struct ui *ui, const struct scenario_file *fb, int branch, const char *label_a,
		  const char *label_b, char *err, size_t errlen);
void ui_split_close(struct ui *ui);

/* The pane not focused (NULL without a split). */
struct pane *ui_split_other(struct ui *ui);
/* The other side at the focused side's time (forward or back), and its pane
 * on the focused pane's views when they follow. */
void ui_split_sync(struct ui *ui);
/* Both sides to the next event of either (the other brought to that time);
 * false at the end of both runs. */
bool ui_split_step(struct ui *ui);

/* `diverge [next]`: both sides to the first divergence (after the current
 * time with next), each pane's events view on its event and the record
 * that explains it. 0, or -1 with the message. */
int ui_diverge(struct ui *ui, bool next);

/* The diff strip: its numbers for the sides' current positions (worked
 * out again only when a side moved), its rows of the split area's h, and
 * its drawing into r. */
void diff_strip_update(struct ui *ui);
int diff_strip_height(const struct ui *ui, int h);
void diff_strip_draw(struct ui *ui, struct cellbuf *cb, struct rect r);
void diff_strip_fini(struct diff_strip *d);

/* Where the two panes go in r (A's first); false when they do not fit. */
bool ui_split_rects(const struct ui *ui, struct rect r, struct rect *a, struct rect *b);
/* The smallest terminal that holds the split, for the "too small" message. */
#define SPLIT_MIN_PANE_W 60
#define SPLIT_MIN_PANE_H 11

/* "b1: set nice web.0 10 at 1.000000s": a branch's name and what started it. */
void ui_branch_label(const struct ui_run *run, int branch, char *buf, size_t len);
/* Remember the command line that started branch i (see ui_run.why). */
void ui_branch_note(struct ui_run *run, int branch, const char *text);

#endif
