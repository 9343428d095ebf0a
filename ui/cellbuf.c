// SPDX-License-Identifier: GPL-2.0
/* The cell grid every view draws into, and its text/ANSI/HTML renderings. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "src/base/mem.h"
#include "cellbuf.h"

void cb_init(struct cellbuf *cb, int w, int h)
{
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	cb->w = w;
	cb->h = h;
	cb->cell = xcalloc((size_t)w * (size_t)h + 1, sizeof(*cb->cell));
	cb_clear(cb);
}

void cb_free(struct cellbuf *cb)
{
	free(cb->cell);
	cb->cell = NULL;
	cb->w = cb->h = 0;
}

void cb_clear(struct cellbuf *cb)
{
	for (int i = 0; i < cb->w * cb->h; i++)
		cb->cell[i] = (struct cell){ ' ', STYLE_PLAIN };
}

/*
 * Columns a code point takes: wcwidth() when the locale knows it, else a
 * small table of the East Asian wide ranges, so a "C" locale (tests, pipes)
 * still lays wide text out the same way.
 */
static int cb_wcwidth(u32 ch)
{
	static const u32 wide[][2] = {
		{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff }, { 0x3400, 0x4dbf },
		{ 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff },
		{ 0xfe30, 0xfe4f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
	};

	if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0))
		return -1;
	if (ch < 0x7f)
		return 1;
	int w = wcwidth((wchar_t)ch);
	if (w >= 0)
		return w;
	for (size_t i = 0; i < ARRAY_SIZE(wide); i++)
		if (ch >= wide[i][0] && ch <= wide[i][1])
			return 2;
	if ((ch >= 0x300 && ch <= 0x36f) || (ch >= 0x200b && ch <= 0x200f))
		return 0;	/* combining marks, zero-width spaces */
	return 1;
}

static struct cell *at(struct cellbuf *cb, int x, int y)
{
	return &cb->cell[y * cb->w + x];
}

/* Before overwriting cell x: break up a wide character it is part of. */
static void unsplit(struct cellbuf *cb, int x, int y)
{
	struct cell *c = at(cb, x, y);

	if (c->ch == 0 && x > 0)
		at(cb, x - 1, y)->ch = ' ';
	else if (c->ch && x + 1 < cb->w && at(cb, x + 1, y)->ch == 0)
		at(cb, x + 1, y)->ch = ' ';
}

/* Put ch (of width w: 1 or 2) at x; returns the columns used (0 if clipped). */
static int put_w(struct cellbuf *cb, int x, int y, u32 ch, int w, struct style st)
{
	if (y < 0 || y >= cb->h || x < 0 || x >= cb->w)
		return 0;
	if (w == 2 && x + 1 >= cb->w) {
		unsplit(cb, x, y);
		*at(cb, x, y) = (struct cell){ ' ', st };
		return 1;
	}
	unsplit(cb, x, y);
	*at(cb, x, y) = (struct cell){ ch, st };
	if (w == 2) {
		unsplit(cb, x + 1, y);
		*at(cb, x + 1, y) = (struct cell){ 0, st };
	}
	return w;
}

void cb_put(struct cellbuf *cb, int x, int y, u32 ch, struct style st)
{
	int w = cb_wcwidth(ch);

	if (w < 0) {
		ch = '?';
		w = 1;
	} else if (w == 0) {
		return;
	}
	put_w(cb, x, y, ch, w, st);
}

void cb_fill(struct cellbuf *cb, struct rect r, u32 ch, struct style st)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			cb_put(cb, x, y, ch, st);
}

/* Decode one UTF-8 sequence at *p; invalid bytes give U+FFFD. */
static u32 utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	u32 c = *s++, min;
	int n;

	if (c < 0x80) {
		*p = s;
		return c;
	} else if ((c & 0xe0) == 0xc0) {
		n = 1, c &= 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2, c &= 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3, c &= 0x07, min = 0x10000;
	} else {
		*p = s;
		return 0xfffd;
	}
	for (int i = 0; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*p = s + i;
			return 0xfffd;
		}
		c = (c << 6) | (s[i] & 0x3f);
	}
	*p = s + n;
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0xfffd;
	return c;
}

int cb_text_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0;

	while (*p) {
		int cw = cb_wcwidth(utf8_next(&p));

		w += cw > 0 ? cw : 0;
	}
	return w;
}

static bool is_digit(u32 c)
{
	return c >= '0' && c <= '9';
}

/*
 * Where to cut text that does not fit, keeping k characters before an
 * ellipsis: never inside a number, which would show another number
 * ("runtime=100" for 1000000). A word holding a digit goes whole, unless
 * it starts the text, when only its trailing digits go ("hog.…").
 */
static int cut_at(const u32 *cps, int len, int k)
{
	int s = k, e = k;

	if (k <= 0 || k >= len || cps[k - 1] == ' ' || cps[k] == ' ')
		goto trim;
	while (s > 0 && cps[s - 1] != ' ')
		s--;
	while (e < len && cps[e] != ' ')
		e++;
	bool digits = false;

	for (int i = s; i < e; i++)
		digits |= is_digit(cps[i]);
	if (!digits)
		goto trim;
	if (s > 0) {
		k = s;
	} else {
		while (k > 0 && (is_digit(cps[k - 1]) || cps[k - 1] == '.' || cps[k - 1] == ','))
			k--;
	}
trim:
	while (k > 0 && cps[k - 1] == ' ')
		k--;
	return k;
}

static int width_of(const signed char *ws, int k)
{
	int w = 0;

	for (int i = 0; i < k; i++)
		w += ws[i];
	return w;
}

static void put_cp(struct cellbuf *cb, int x, int y, u32 ch, int w, struct style st)
{
	if (w == 2 && x == -1)
		put_w(cb, 0, y, ' ', 1, st);
	else
		put_w(cb, x, y, ch, w, st);
}

int cb_print(struct cellbuf *cb, int x, int y, int max_w, struct style st, const char *fmt, ...)
{
	char small[512], *buf = small;
	u32 cps_small[512], *cps = cps_small;
	signed char ws_small[512], *ws = ws_small;
	va_list ap;
	int n, len = 0, total = 0, used = 0;

	/* the right edge counts as the end of the room: it must not cut a number either */
	if (x >= 0)
		max_w = MIN(max_w, cb->w - x);
	if (max_w <= 0)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	if ((size_t)n >= sizeof(small)) {
		buf = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if ((size_t)n >= ARRAY_SIZE(cps_small)) {
		cps = xmalloc((size_t)(n + 1) * sizeof(*cps));
		ws = xmalloc((size_t)n + 1);
	}
	/* the characters and their widths, as far as the word that does not fit */
	for (const unsigned char *p = (const unsigned char *)buf;
	     *p && (total <= max_w || cps[len - 1] != ' ');) {
		u32 ch = utf8_next(&p);
		int w = cb_wcwidth(ch);

		if (w == 0)
			continue;
		if (w < 0) {
			ch = ch == '\t' ? ' ' : '?';
			w = 1;
		}
		cps[len] = ch;
		ws[len++] = (signed char)w;
		total += w;
	}
	int keep = len;
	bool gap = false;

	if (total > max_w) {
		/* room for the ellipsis, then a cut that leaves every number whole */
		int room = 0;

		keep = 0;
		while (keep < len && room + ws[keep] <= max_w - 1)
			room += ws[keep++];
		keep = cut_at(cps, len, keep);
		/* a number just before the ellipsis keeps a blank from it: "864 …" is not 864-something */
		while (keep > 0 && is_digit(cps[keep - 1]) && width_of(ws, keep) + 2 > max_w)
			keep = cut_at(cps, len, keep - 1);
		gap = keep > 0 && is_digit(cps[keep - 1]);
	}
	for (int i = 0; i < keep; i++) {
		put_cp(cb, x + used, y, cps[i], ws[i], st);
		used += ws[i];
	}
	if (gap)
		put_w(cb, x + used++, y, ' ', 1, st);
	if (keep < len)
		put_w(cb, x + used++, y, 0x2026, 1, st); /* … */
	if (cps != cps_small)
		free(cps);
	if (ws != ws_small)
		free(ws);
	if (buf != small)
		free(buf);
	return used;
}

void cb_box(struct cellbuf *cb, struct rect r, struct style st, const char *title)
{
	if (r.w < 2 || r.h < 2)
		return;
	int x1 = r.x + r.w - 1, y1 = r.y + r.h - 1;

	for (int x = r.x + 1; x < x1; x++) {
		cb_put(cb, x, r.y, 0x2500, st);		/* ─ */
		cb_put(cb, x, y1, 0x2500, st);
	}
	for (int y = r.y + 1; y < y1; y++) {
		cb_put(cb, r.x, y, 0x2502, st);		/* │ */
		cb_put(cb, x1, y, 0x2502, st);
	}
	cb_put(cb, r.x, r.y, 0x250c, st);		/* ┌ ┐ └ ┘ */
	cb_put(cb, x1, r.y, 0x2510, st);
	cb_put(cb, r.x, y1, 0x2514, st);
	cb_put(cb, x1, y1, 0x2518, st);
	if (title && *title && r.w > 6) {
		struct style ts = st;

		ts.attr |= A_BOLD_;
		cb_print(cb, r.x + 2, r.y, r.w - 4, ts, " %s ", title);
	}
}

static size_t utf8_put(char *out, u32 c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	} else if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	} else if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

const char *cb_row(const struct cellbuf *cb, int y, char *buf, size_t len)
{
	size_t n = 0, keep = 0;

	if (!len)
		return buf;
	if (y >= 0 && y < cb->h) {
		for (int x = 0; x < cb->w; x++) {
			u32 c = cb->cell[y * cb->w + x].ch;
			char tmp[4];
			size_t k;

			if (!c)
				continue;
			k = utf8_put(tmp, c);
			if (n + k >= len)
				break;
			memcpy(buf + n, tmp, k);
			n += k;
			if (c != ' ')
				keep = n;
		}
	}
	buf[keep] = 0;
	return buf;
}

void cb_write_text(const struct cellbuf *cb, FILE *f)
{
	size_t len = (size_t)cb->w * 4 + 1;
	char *buf = xmalloc(len);

	for (int y = 0; y < cb->h; y++)
		fprintf(f, "%s\n", cb_row(cb, y, buf, len));
	free(buf);
}

/* ---- colours ---- */

static void color_rgb(int c, int rgb[3])
{
	static const u8 base[16][3] = {
		{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
		{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
		{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
		{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
	};
	static const u8 level[6] = { 0, 95, 135, 175, 215, 255 };

	if (c < 16) {
		for (int i = 0; i < 3; i++)
			rgb[i] = base[c][i];
	} else if (c < 232) {
		c -= 16;
		rgb[0] = level[c / 36];
		rgb[1] = level[(c / 6) % 6];
		rgb[2] = level[c % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
	}
}

int cb_color16(int c);
/* The nearest of the 16 ANSI colours to a 256-colour index. */
int cb_color16(int c)
{
	int rgb[3], best = 0;
	long best_d = -1;

	if (c < 16)
		return c;
	color_rgb(c, rgb);
	for (int i = 0; i < 16; i++) {
		int q[3];
		long d = 0;

		color_rgb(i, q);
		for (int k = 0; k < 3; k++)
			d += (long)(q[k] - rgb[k]) * (q[k] - rgb[k]);
		if (best_d < 0 || d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return best;
}

static bool style_eq(struct style a, struct style b)
{
	return a.fg == b.fg && a.bg == b.bg && a.attr == b.attr;
}

static void ansi_sgr(FILE *f, struct style st, int colors)
{
	fputs("\033[0", f);
	if (st.attr & A_BOLD_)
		fputs(";1", f);
	if (st.attr & A_DIM_)
		fputs(";2", f);
	if (st.attr & A_UNDERLINE_)
		fputs(";4", f);
	if (st.attr & A_REVERSE_)
		fputs(";7", f);
	if (colors == 256) {
		if (st.fg >= 0)
			fprintf(f, ";38;5;%d", st.fg);
		if (st.bg >= 0)
			fprintf(f, ";48;5;%d", st.bg);
	} else if (colors) {
		if (st.fg >= 0) {
			int c = cb_color16(st.fg);
			fprintf(f, ";%d", c < 8 ? 30 + c : 90 + c - 8);
		}
		if (st.bg >= 0) {
			int c = cb_color16(st.bg);
			fprintf(f, ";%d", c < 8 ? 40 + c : 100 + c - 8);
		}
	}
	fputc('m', f);
}

void cb_write_ansi(const struct cellbuf *cb, FILE *f, int colors)
{
	for (int y = 0; y < cb->h; y++) {
		struct style cur = STYLE_PLAIN;
		int last = cb->w - 1;

		/* trailing plain blanks are not written */
		while (last >= 0 && cb->cell[y * cb->w + last].ch == ' ' &&
		       style_eq(cb->cell[y * cb->w + last].st, STYLE_PLAIN))
			last--;
		for (int x = 0; x <= last; x++) {
			const struct cell *c = &cb->cell[y * cb->w + x];
			char tmp[4];

			if (!c->ch)
				continue;
			struct style st = c->st;
			if (!colors)
				st.fg = st.bg = COLOR_DEFAULT;
			if (!style_eq(st, cur)) {
				if (style_eq(st, STYLE_PLAIN))
					fputs("\033[0m", f);
				else
					ansi_sgr(f, st, colors);
				cur = st;
			}
			fwrite(tmp, 1, utf8_put(tmp, c->ch), f);
		}
		if (!style_eq(cur, STYLE_PLAIN))
			fputs("\033[0m", f);
		fputc('\n', f);
	}
}

#define HTML_FG 7	/* default colours of the page: light grey on black */
#define HTML_BG 0

static void html_color(FILE *f, const char *prop, int c)
{
	int rgb[3];

	color_rgb(c, rgb);
	fprintf(f, "%s:#%02x%02x%02x;", prop, rgb[0], rgb[1], rgb[2]);
}

void cb_write_html(const struct cellbuf *cb, FILE *f)
{
	fputs("<pre style=\"background:#000000;color:#e5e5e5;"
	      "font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;"
	      "line-height:1.2;padding:0.5em;display:inline-block\">", f);
	for (int y = 0; y < cb->h; y++) {
		bool open = false;
		struct style cur = STYLE_PLAIN;

		for (int x = 0; x < cb->w; x++) {
			const struct cell *c = &cb->cell[y * cb->w + x];
			char tmp[4];

			if (!c->ch)
				continue;
			if (!style_eq(c->st, cur)) {
				if (open)
					fputs("</span>", f);
				open = false;
				cur = c->st;
				if (!style_eq(cur, STYLE_PLAIN)) {
					int fg = cur.fg, bg = cur.bg;

					if (cur.attr & A_REVERSE_) {
						int t = fg < 0 ? HTML_FG : fg;
						fg = bg < 0 ? HTML_BG : bg;
						bg = t;
					}
					fputs("<span style=\"", f);
					if (fg >= 0)
						html_color(f, "color", fg);
					if (bg >= 0)
						html_color(f, "background", bg);
					if (cur.attr & A_BOLD_)
						fputs("font-weight:bold;", f);
					if (cur.attr & A_UNDERLINE_)
						fputs("text-decoration:underline;", f);
					if (cur.attr & A_DIM_)
						fputs("opacity:0.6;", f);
					fputs("\">", f);
					open = true;
				}
			}
			switch (c->ch) {
			case '<': fputs("&lt;", f); break;
			case '>': fputs("&gt;", f); break;
			case '&': fputs("&amp;", f); break;
			case '"': fputs("&quot;", f); break;
			default: fwrite(tmp, 1, utf8_put(tmp, c->ch), f);
			}
		}
		if (open)
			fputs("</span>", f);
		fputc('\n', f);
	}
	fputs("</pre>\n", f);
}
