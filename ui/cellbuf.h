/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A grid of character cells. Every view draws here first; the terminal,
 * `schedscope view --format text|ansi|html` and the tests all read it, so
 * no picture depends on a terminal.
 */
#ifndef UI_CELLBUF_H
#define UI_CELLBUF_H

#include <stdio.h>

#include "sched/api/types.h"

/* Colours: 0-15 are the ANSI colours, 16-255 the xterm cube and greys. */
enum {
	COLOR_DEFAULT = -1,
	C_BLACK = 0, C_RED, C_GREEN, C_YELLOW, C_BLUE, C_MAGENTA, C_CYAN, C_WHITE,
	C_BRIGHT_BLACK, C_BRIGHT_RED, C_BRIGHT_GREEN, C_BRIGHT_YELLOW, C_BRIGHT_BLUE,
	C_BRIGHT_MAGENTA, C_BRIGHT_CYAN, C_BRIGHT_WHITE,
};

enum { A_BOLD_ = 1, A_REVERSE_ = 2, A_UNDERLINE_ = 4, A_DIM_ = 8 };

struct style {
	s16 fg, bg;	/* colour index or COLOR_DEFAULT */
	u8 attr;	/* A_*_ bits */
};

#define STYLE_PLAIN ((struct style){ COLOR_DEFAULT, COLOR_DEFAULT, 0 })

/* A style from a colour pair and A_*_ bits, as the views write them. */
static inline struct style sty(int fg, int bg, int attr)
{
	return (struct style){ (s16)fg, (s16)bg, (u8)attr };
}

struct cell {
	u32 ch;		/* Unicode code point; 0 = continuation of a wide char */
	struct style st;
};

struct rect {
	int x, y, w, h;
};

struct cellbuf {
	int w, h;
	struct cell *cell;	/* [w * h], row-major */
};

void cb_init(struct cellbuf *cb, int w, int h);
void cb_free(struct cellbuf *cb);
void cb_clear(struct cellbuf *cb);
/* Out-of-range writes are clipped, never an error. */
void cb_put(struct cellbuf *cb, int x, int y, u32 ch, struct style st);
void cb_fill(struct cellbuf *cb, struct rect r, u32 ch, struct style st);
/* Print UTF-8 text in max_w columns; returns the columns used. Text that
 * does not fit ends in an ellipsis, cut between words where the cut would
 * fall inside a number, so that no number shows as another. */
int cb_print(struct cellbuf *cb, int x, int y, int max_w, struct style st, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The columns text takes (control characters none). */
int cb_text_width(const char *s);
void cb_box(struct cellbuf *cb, struct rect r, struct style st, const char *title);
/* The text of row y (no trailing blanks), for tests. */
const char *cb_row(const struct cellbuf *cb, int y, char *buf, size_t len);

/* Renderings of the whole buffer. */
void cb_write_text(const struct cellbuf *cb, FILE *f);
void cb_write_ansi(const struct cellbuf *cb, FILE *f, int colors);	/* colors: 256, 16 or 0 */
void cb_write_html(const struct cellbuf *cb, FILE *f);

#endif
