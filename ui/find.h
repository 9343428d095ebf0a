/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The search under way (`/TEXT`, n, N): a view's find looks through its
 * list a slice at a time, between frames, so a search through millions of
 * events never holds the visualizer up; the status line counts what it has
 * looked at, Esc gives it up, the result comes as the message.
 */
#ifndef UI_FIND_H
#define UI_FIND_H

#include "ui.h"

/* Lines a slice looks at before the loop reads the clock again. */
#define FIND_SLICE (1u << 12)

/* Look for pn->search in pn's main view from its selection: dir 1 down,
 * -1 up, 0 for a new search (down, else up). Replaces the one under way. */
void find_begin(struct pane *pn, int dir);
/* Look at up to `items` more lines of each search under way; true while one goes on. */
bool find_slice(struct ui *ui, u64 items);
/* Is a search under way (in a pane shown)? */
bool find_pending(const struct ui *ui);
/* Look on to the end (scripts). -1 if a new search found nothing (ui_error() said so). */
int find_finish(struct ui *ui);
/* Give up pn's search under way (Esc); true if there was one. */
bool find_cancel(struct pane *pn);

#endif
