/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tables in the cell buffer: columns of a given width, left or right
 * aligned, one blank between them, each cell cut as cb_print() cuts (an
 * ellipsis, never inside a number). As tig's view_column_draw(): the views
 * say what a column is once and draw rows of strings.
 */
#ifndef UI_TABLE_H
#define UI_TABLE_H

#include "cellbuf.h"

enum col_align {
	COL_LEFT,
	COL_RIGHT
};

struct column {
	const char *title;
	int width; /* cells; 0 for the last column: the rest of the row */
	enum col_align align;
};

/* Row y of a table at x, w wide: cells[i] in column i, in style st[i] (or
 * plain when st is NULL). Returns the columns used. */
int table_row(struct cellbuf *cb, int x, int y, int w, const struct column *col, int n,
	      const char *const *cells, const struct style *st);
/* The columns' titles, aligned as their cells, in one style. */
int table_header(struct cellbuf *cb, int x, int y, int w, const struct column *col, int n, struct style st);

#endif
