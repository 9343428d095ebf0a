// SPDX-License-Identifier: GPL-2.0
/* Tables in the cell buffer: see table.h. */
#include "table.h"

/* One cell: right-aligned text starts where it ends flush with the column. */
static void cell(struct cellbuf *cb, int x, int y, int width, enum col_align align, struct style st,
		 const char *text)
{
	int pad = align == COL_RIGHT ? width - cb_text_width(text) : 0;

	if (pad < 0)
		pad = 0;
	cb_print(cb, x + pad, y, width - pad, st, "%s", text);
}

int table_row(struct cellbuf *cb, int x, int y, int w, const struct column *col, int n,
	      const char *const *cells, const struct style *st)
{
	int cx = x;

	for (int i = 0; i < n && cx < x + w; i++) {
		int width = col[i].width ? MIN(col[i].width, x + w - cx) : x + w - cx;

		cell(cb, cx, y, width, col[i].align, st ? st[i] : STYLE_PLAIN, cells[i]);
		cx += width + 1;
	}
	return MIN(cx, x + w) - x;
}

int table_header(struct cellbuf *cb, int x, int y, int w, const struct column *col, int n, struct style st)
{
	const char *titles[16];
	struct style sts[16];

	n = MIN(n, 16);
	for (int i = 0; i < n; i++) {
		titles[i] = col[i].title;
		sts[i] = st;
	}
	return table_row(cb, x, y, w, col, n, titles, sts);
}
