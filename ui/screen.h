/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The terminal: ncurses (wide characters) showing a cellbuf. Only cells that
 * changed since the last frame are sent. The terminal is restored on quit,
 * on SIGINT/SIGTERM (they set screen_quit_requested) and on a fatal signal.
 */
#ifndef UI_SCREEN_H
#define UI_SCREEN_H

#include <signal.h>

#include "cellbuf.h"

#define SCREEN_MIN_W 80
#define SCREEN_MIN_H 24

extern volatile sig_atomic_t screen_quit_requested;	/* the signal: SIGINT, SIGTERM, SIGHUP */
extern volatile sig_atomic_t screen_resized;		/* SIGWINCH */

/* Colours in use: `colors` is 256, 16 or 0 to force, -1 to detect (NO_COLOR
 * gives 0). Returns the colours chosen, or -1 with no terminal. */
int screen_init(int colors);
void screen_fini(void);
bool screen_active(void);
/* Current size (after a resize, call screen_handle_resize first). */
void screen_size(int *w, int *h);
/* Read the new size after SIGWINCH; true when it changed. */
bool screen_handle_resize(void);
/* Show cb; the cursor at (cx, cy), hidden when cx < 0. */
void screen_blit(const struct cellbuf *cb, int cx, int cy);
/* Forget the last frame: the next blit redraws every cell. */
void screen_invalidate(void);
/* Write raw bytes to the terminal (mouse modes). */
void screen_raw(const char *s);

/* The nearest ANSI colour to a 256-colour index (cellbuf.c). */
int cb_color16(int c);

/* "terminal too small: need 80x24" in cb. */
void screen_draw_too_small(struct cellbuf *cb);

#endif
