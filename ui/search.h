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

#endif
