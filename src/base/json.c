// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming JSON writer. Once a misuse is seen the writer stops writing:
 * the document is wrong anyway, and jw_finish() says so.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

void jw_init(struct json_writer *j, FILE *f, int style)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->style = style;
}

int jw_finish(struct json_writer *j)
{
	if (j->error || j->depth != 0 || !j->done)
		return -1;
	if (j->style == JW_PRETTY)
		fputc('\n', j->f);
	if (fflush(j->f) != 0 || ferror(j->f))
		return -1;
	return 0;
}

static void newline_indent(struct json_writer *j)
{
	if (j->style != JW_PRETTY)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* The separator before a new member or element of the innermost container. */
static void next_item(struct json_writer *j)
{
	if (j->has_items[j->depth - 1])
		fputc(',', j->f);
	j->has_items[j->depth - 1] = true;
	newline_indent(j);
}

/* Called before every value; false when the value may not go here. */
static bool begin_value(struct json_writer *j)
{
	if (j->error)
		return false;
	if (j->depth == 0) {
		if (j->done) {
			j->error = true;	/* a second top-level value */
			return false;
		}
		return true;
	}
	if (j->in_object[j->depth - 1]) {
		if (!j->want_value) {
			j->error = true;	/* a member without a key */
			return false;
		}
		j->want_value = false;
		return true;
	}
	next_item(j);
	return true;
}

static void end_value(struct json_writer *j)
{
	if (j->depth == 0)
		j->done = true;
}

static void begin_container(struct json_writer *j, bool object)
{
	if (!begin_value(j))
		return;
	if (j->depth == JW_MAX_DEPTH) {
		j->error = true;
		return;
	}
	fputc(object ? '{' : '[', j->f);
	j->in_object[j->depth] = object;
	j->has_items[j->depth] = false;
	j->depth++;
}

static void end_container(struct json_writer *j, bool object)
{
	if (j->error)
		return;
	if (j->depth == 0 || j->in_object[j->depth - 1] != object || j->want_value) {
		j->error = true;
		return;
	}
	j->depth--;
	if (j->has_items[j->depth])
		newline_indent(j);
	fputc(object ? '}' : ']', j->f);
	end_value(j);
}

void jw_begin_object(struct json_writer *j)
{
	begin_container(j, true);
}

void jw_end_object(struct json_writer *j)
{
	end_container(j, true);
}

void jw_begin_array(struct json_writer *j)
{
	begin_container(j, false);
}

void jw_end_array(struct json_writer *j)
{
	end_container(j, false);
}

void jw_key(struct json_writer *j, const char *key)
{
	if (j->error)
		return;
	if (j->depth == 0 || !j->in_object[j->depth - 1] || j->want_value) {
		j->error = true;
		return;
	}
	next_item(j);
	jw_write_escaped(j->f, key, strlen(key));
	fputs(j->style == JW_PRETTY ? ": " : ":", j->f);
	j->want_value = true;
}

/* ---- strings ---- */

/* Length of the well-formed UTF-8 sequence at s (RFC 3629), 0 if there is none. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	unsigned char b = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;	/* bounds of the second byte */

	if (b >= 0xc2 && b <= 0xdf)
		len = 2;
	else if (b >= 0xe0 && b <= 0xef)
		len = 3;
	else if (b >= 0xf0 && b <= 0xf4)
		len = 4;
	else
		return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if (b == 0xe0)
		lo = 0xa0;
	else if (b == 0xed)
		hi = 0x9f;
	else if (b == 0xf0)
		lo = 0x90;
	else if (b == 0xf4)
		hi = 0x8f;
	if (len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void jw_write_escaped(FILE *f, const char *str, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	char buf[256];
	size_t len = 0;

	buf[len++] = '"';
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t seq;

		/* Room for the longest piece (\u00XX or a 4-byte sequence) plus the quote. */
		if (len + 8 > sizeof(buf)) {
			fwrite(buf, 1, len, f);
			len = 0;
		}
		if (c == '"' || c == '\\') {
			buf[len++] = '\\';
			buf[len++] = (char)c;
			i++;
		} else if (c >= 0x20 && c < 0x7f) {
			buf[len++] = (char)c;
			i++;
		} else if (c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f') {
			buf[len++] = '\\';
			buf[len++] = c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : c == '\b' ? 'b' : 'f';
			i++;
		} else if (c >= 0x80 && (seq = utf8_sequence(s + i, n - i)) != 0) {
			memcpy(buf + len, s + i, seq);
			len += seq;
			i += seq;
		} else {
			/* Control characters, DEL, and bytes that are not UTF-8 (read as Latin-1). */
			memcpy(buf + len, "\\u00", 4);
			buf[len + 4] = hex[c >> 4];
			buf[len + 5] = hex[c & 15];
			len += 6;
			i++;
		}
	}
	buf[len++] = '"';
	fwrite(buf, 1, len, f);
}

void jw_string_n(struct json_writer *j, const char *s, size_t n)
{
	if (!begin_value(j))
		return;
	jw_write_escaped(j->f, s, n);
	end_value(j);
}

void jw_string(struct json_writer *j, const char *s)
{
	if (!s) {
		jw_null(j);
		return;
	}
	jw_string_n(j, s, strlen(s));
}

/* ---- numbers and literals ---- */

static void write_literal(struct json_writer *j, const char *text)
{
	if (!begin_value(j))
		return;
	fputs(text, j->f);
	end_value(j);
}

void jw_u64(struct json_writer *j, u64 v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	write_literal(j, buf);
}

void jw_s64(struct json_writer *j, s64 v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	write_literal(j, buf);
}

/*
 * printf writes the locale's decimal point (a comma in de_DE, possibly
 * several bytes elsewhere), and the UI sets a locale for ncurses. JSON wants
 * '.', whatever the user's locale.
 */
static void c_decimal_point(char *s)
{
	char *out = s;
	bool in_point = false;

	for (; *s; s++) {
		bool numeric = (*s >= '0' && *s <= '9') || *s == '-' || *s == '+' || *s == 'e';

		if (numeric) {
			*out++ = *s;
			in_point = false;
		} else if (!in_point) {
			*out++ = '.';
			in_point = true;
		}
	}
	*out = '\0';
}

/*
 * The digits of the shortest round-trip form, laid out as JavaScript lays
 * them out: plain notation for 1e-6 <= |v| < 1e21, so 100 is "100" and
 * 1e21 is "1e+21".
 */
static void format_shortest(char *out, size_t cap, double v)
{
	char sci[40], digits[20];
	int prec, exp10, nd = 0;
	size_t n = 0;

	/* The fewest significant digits that read back exactly: 0.1, not 0.10000000000000001. */
	for (prec = 1; prec < 17; prec++) {
		snprintf(sci, sizeof(sci), "%.*e", prec - 1, v);
		if (strtod(sci, NULL) == v)
			break;
	}
	snprintf(sci, sizeof(sci), "%.*e", prec - 1, v);

	/* Only the digits: the mantissa's decimal point is the locale's. */
	char *e = strchr(sci, 'e');
	for (char *p = sci; p < e && nd < prec; p++)
		if (*p >= '0' && *p <= '9')
			digits[nd++] = *p;
	exp10 = atoi(e + 1);

	if (signbit(v))
		out[n++] = '-';
	if (exp10 < -6 || exp10 > 20) {
		out[n++] = digits[0];
		if (nd > 1) {
			out[n++] = '.';
			for (int i = 1; i < nd; i++)
				out[n++] = digits[i];
		}
		snprintf(out + n, cap - n, "e%+03d", exp10);
		return;
	}
	if (exp10 < 0) {
		out[n++] = '0';
		out[n++] = '.';
		for (int i = -1; i > exp10; i--)
			out[n++] = '0';
		for (int i = 0; i < nd; i++)
			out[n++] = digits[i];
	} else {
		for (int i = 0; i <= exp10; i++)
			out[n++] = i < nd ? digits[i] : '0';
		if (nd > exp10 + 1) {
			out[n++] = '.';
			for (int i = exp10 + 1; i < nd; i++)
				out[n++] = digits[i];
		}
	}
	out[n] = '\0';
}

void jw_double(struct json_writer *j, double v)
{
	char buf[48];	/* sign, 21 integer digits or "0." + 5 zeros + 17 digits */

	if (!isfinite(v)) {
		jw_null(j);
		return;
	}
	format_shortest(buf, sizeof(buf), v);
	write_literal(j, buf);
}

void jw_fixed(struct json_writer *j, double v, int decimals)
{
	char buf[360];	/* %.17f of DBL_MAX is 327 characters */

	if (!isfinite(v)) {
		jw_null(j);
		return;
	}
	decimals = decimals < 0 ? 0 : decimals > 17 ? 17 : decimals;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	c_decimal_point(buf);
	write_literal(j, buf);
}

void jw_bool(struct json_writer *j, bool v)
{
	write_literal(j, v ? "true" : "false");
}

void jw_null(struct json_writer *j)
{
	write_literal(j, "null");
}

/* ---- key + value ---- */

void jw_kv_str(struct json_writer *j, const char *key, const char *s)
{
	jw_key(j, key);
	jw_string(j, s);
}

void jw_kv_u64(struct json_writer *j, const char *key, u64 v)
{
	jw_key(j, key);
	jw_u64(j, v);
}

void jw_kv_s64(struct json_writer *j, const char *key, s64 v)
{
	jw_key(j, key);
	jw_s64(j, v);
}

void jw_kv_double(struct json_writer *j, const char *key, double v)
{
	jw_key(j, key);
	jw_double(j, v);
}

void jw_kv_bool(struct json_writer *j, const char *key, bool v)
{
	jw_key(j, key);
	jw_bool(j, v);
}
