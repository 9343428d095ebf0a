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

/* The console of ui (struct ui holds its state); readline set up once. */
void console_init(struct console *c, struct ui *ui);
void console_fini(struct console *c);
/* Open the console with `text` already typed. */
void console_open(struct console *c, const char *text);
/* Feed a key; Enter runs the line through ui_command(). */
void console_key(struct console *c, const struct input_key *k);
/* Draw ":" and the line on row y; returns the cursor column. */
int console_draw(const struct console *c, struct cellbuf *cb, int y);

#endif
