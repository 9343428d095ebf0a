/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Search in the list views (`/TEXT`, then n and N): the matcher and the
 * mark a match gets on the screen. A pattern is plain text; in lower case
 * it ignores case, with a capital it does not (less -i, vim's smartcase).
 */
#ifndef UI_SEARCH_H
#define UI_SEARCH_H

#include <stdbool.h>

#include "cellbuf.h"

/* Does pat occur in text? An empty pattern matches nothing. */
bool search_match(const char *text, const char *pat);
/* Restyle the cells of row y in [x, x + w) that spell pat, so the match stands out. */
void search_mark(struct cellbuf *cb, int x, int y, int w, const char *pat);

/*
 * A search under way in a view's list: the view's own cursor, so that a
 * long list (the event log) is looked through a slice at a time between
 * frames and the visualizer never waits for it (find.h runs it).
 */
struct search_scan {
	int dir;    /* 1: down the list (later), -1: up */
	bool begun; /* pos and end are set (search_scan_begin) */
	u64 pos;    /* going down the next item to look at, going up the one after it */
	u64 end;    /* the list's length when it began: a run going on adds nothing to it */
	u64 budget; /* items it may still look at in this slice */
	u64 looked; /* items looked at in all */
};

enum search_step {
	SEARCH_HIT,  /* the view selected the line found */
	SEARCH_NONE, /* no line further on holds the text */
	SEARCH_MORE  /* the slice's budget ran out first */
};

/* Start s at item pos of a list of n items. */
void search_scan_begin(struct search_scan *s, u64 pos, u64 n);
/* The next item for s to look at in a list now n long; false at its end or
 * when the slice's budget is spent (search_scan_step() tells which). */
bool search_scan_next(struct search_scan *s, u64 n, u64 *item);
/* What a view's find returns when search_scan_next() said no. */
enum search_step search_scan_step(const struct search_scan *s);

#endif
