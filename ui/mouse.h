/* SPDX-License-Identifier: GPL-2.0 */
/* The mouse: clicks select what the views drew, the wheel scrolls (mouse.c). */
#ifndef UI_MOUSE_H
#define UI_MOUSE_H

#include "input.h"
#include "ui.h"

/* The frame being drawn shows view v at r in pane (the wheel scrolls it there). */
void ui_area(struct pane *pane, struct rect r, const struct view *v);
/* A mouse press in a frame of h rows; true if it did something. */
bool ui_mouse(struct ui *ui, const struct input_key *k, int h);

#endif
