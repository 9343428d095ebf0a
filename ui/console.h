/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `:` console: GNU readline in callback mode, drawn on the bottom line
 * inside the curses screen. Keys arrive from the input loop; readline never
 * touches the terminal itself. History, and Tab completion of command
 * names, view names, task names, event kinds and checkpoints.
 */
#ifndef UI_CONSOLE_H
#define UI_CONSOLE_H

#include "input.h"
#include "ui.h"

void console_init(struct ui *ui);
void console_fini(void);
bool console_active(void);
/* Open the console with `text` already typed. */
void console_open(const char *text);
/* Feed a key; Enter runs the line through ui_command(). */
void console_key(const struct input_key *k);
/* Draw ":" and the line on row y; returns the cursor column. */
int console_draw(struct cellbuf *cb, int y);
/* Completion candidates shown by the last Tab, "" if none. */
const char *console_matches(void);

#endif
