// SPDX-License-Identifier: GPL-2.0
/* Search in the list views: see search.h. */
#include <string.h>

#include "search.h"

#define SEARCH_MAX 64 /* code points of a pattern that count */

/* ASCII only: the C library's tolower() goes through the locale for every byte */
static u32 lower(u32 c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool fold(const char *pat)
{
	for (const char *p = pat; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			return false;
	return true;
}

/* The pattern as code points; returns their number. */
static int decode(const char *s, u32 *out, int max)
{
	int n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p && n < max;) {
		int len = *p < 0x80 ? 1 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
		u32 c = len == 1 ? *p : *p & (0x3f >> (len - 1));

		for (int i = 1; i < len && p[i]; i++)
			c = c << 6 | (p[i] & 0x3f);
		out[n++] = c;
		while (len-- && *p)
			p++;
	}
	return n;
}

bool search_match(const char *text, const char *pat)
{
	if (!*pat)
		return false;
	if (!fold(pat))
		return strstr(text, pat) != NULL;
	/* pat has no capitals: lower the text only */
	for (const char *t = text; *t; t++) {
		size_t i = 0;

		while (pat[i] && lower((unsigned char)t[i]) == (unsigned char)pat[i])
			i++;
		if (!pat[i])
			return true;
	}
	return false;
}

void search_mark(struct cellbuf *cb, int x, int y, int w, const char *pat)
{
	const struct style hit = { C_BLACK, C_YELLOW, A_BOLD_ | A_UNDERLINE_ };
	u32 p[SEARCH_MAX];
	int n = decode(pat, p, SEARCH_MAX);
	bool f = fold(pat);

	if (!n || y < 0 || y >= cb->h)
		return;
	x = MAX(x, 0);
	w = MIN(w, cb->w - x);
	struct cell *row = cb->cell + (size_t)y * (size_t)cb->w + x;
	for (int i = 0; i + n <= w; i++) {
		int k = 0;

		while (k < n && (f ? lower(row[i + k].ch) : row[i + k].ch) == p[k])
			k++;
		if (k < n)
			continue;
		for (k = 0; k < n; k++)
			row[i + k].st = hit;
		i += n - 1;
	}
}

void search_scan_begin(struct search_scan *s, u64 pos, u64 n)
{
	s->pos = MIN(pos, n);
	s->end = n;
	s->begun = true;
}

bool search_scan_next(struct search_scan *s, u64 n, u64 *item)
{
	/* a rewind may have cut the list since the last slice */
	n = MIN(n, s->end);
	s->pos = MIN(s->pos, n);
	if (!s->budget || (s->dir > 0 ? s->pos >= n : s->pos == 0))
		return false;
	s->budget--;
	s->looked++;
	*item = s->dir > 0 ? s->pos++ : --s->pos;
	return true;
}

enum search_step search_scan_step(const struct search_scan *s)
{
	return s->budget ? SEARCH_NONE : SEARCH_MORE;
}
