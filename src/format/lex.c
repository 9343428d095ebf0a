// SPDX-License-Identifier: GPL-2.0
/* The shared tokenizer and value parsers of the line-oriented files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/base/mem.h"
#include "lex.h"
#include "params.h"

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Control characters would garble messages and the terminal; tab is a space. */
static bool is_ctl(unsigned char c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool is_punct(char c)
{
	return c && strchr("{}();,=<>", c);
}

static bool is_word(const struct lexer *lx, unsigned char c)
{
	if (c <= ' ' || c == 0x7f || c == '#' || c == '"')
		return false;
	return lx->raw || !is_punct((char)c);
}

static u32 col_of(const struct lexer *lx, size_t pos)
{
	if (lx->expansion)
		return params_text_col(lx->expansion, pos);
	return (u32)(pos - lx->at.bol + 1);
}

static struct lex_span span_at(const struct lexer *lx, size_t pos, size_t n)
{
	return (struct lex_span){ lx->text + pos, n, lx->at.line, col_of(lx, pos) };
}

int lex_verror(struct lexer *lx, u32 line, u32 col, const char *fmt, va_list ap)
{
	if (lx->failed)
		return -1;
	lx->failed = true;
	if (!lx->err || !lx->errlen)
		return -1;

	int k;
	if (lx->name && lx->nopos)
		k = snprintf(lx->err, lx->errlen, "%s: ", lx->name);
	else if (lx->name)
		k = snprintf(lx->err, lx->errlen, "%s:%u:%u: ", lx->name, line, col);
	else
		k = snprintf(lx->err, lx->errlen, "col %u: ", col);
	if (k >= 0 && (size_t)k < lx->errlen)
		vsnprintf(lx->err + k, lx->errlen - (size_t)k, fmt, ap);
	return -1;
}

int lex_error(struct lexer *lx, const struct lex_span *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lex_verror(lx, at->line, at->col, fmt, ap);
	va_end(ap);
	return -1;
}

static int error_at(struct lexer *lx, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int error_at(struct lexer *lx, size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lex_verror(lx, lx->at.line, col_of(lx, pos), fmt, ap);
	va_end(ap);
	return -1;
}

const char *lex_snip(char *buf, size_t size, const char *p, size_t n)
{
	size_t take = n, k = 0;
	bool cut = n > size - 1;

	if (cut) {
		take = size - 4;
		/* do not split a UTF-8 sequence */
		while (take > 0 && ((unsigned char)p[take] & 0xc0) == 0x80)
			take--;
	}
	for (size_t i = 0; i < take; i++) {
		unsigned char c = (unsigned char)p[i];
		buf[k++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (cut)
		for (int i = 0; i < 3; i++)
			buf[k++] = '.';
	buf[k] = 0;
	return buf;
}

/* Each line is checked once, when the lexer first enters it. */
static void check_line(struct lexer *lx)
{
	const char *p = lx->text + lx->at.bol;
	size_t rest = lx->end - lx->at.bol;
	const char *nl = memchr(p, '\n', rest);
	size_t n = nl ? (size_t)(nl - p) : rest;

	if (n > LEX_MAX_LINE) {
		error_at(lx, lx->at.bol, "line is %zu bytes long (the limit is %d)", n, LEX_MAX_LINE);
		return;
	}
	const char *z = memchr(p, 0, n);
	if (z)
		error_at(lx, lx->at.bol + (size_t)(z - p), "NUL byte in the text");
}

void lex_init(struct lexer *lx, const char *name, const char *text, size_t len,
	      char *err, size_t errlen)
{
	*lx = (struct lexer){ .name = name, .text = text, .end = len, .err = err, .errlen = errlen };
	lx->at.line = 1;
	if (err && errlen)
		err[0] = 0;
	check_line(lx);
}

void lex_sub(struct lexer *sub, const struct lexer *parent, const struct lex_pos *from, size_t end)
{
	*sub = *parent;
	sub->at = *from;
	sub->end = end;
}

void lex_sub_span(struct lexer *sub, const struct lexer *parent, const struct lex_span *s)
{
	if (s->p >= parent->text && s->p + s->n <= parent->text + parent->end) {
		size_t pos = (size_t)(s->p - parent->text);
		struct lex_pos from = { pos, pos - (s->col - 1), s->line };

		lex_sub(sub, parent, &from, pos + s->n);
	} else {
		/* an expansion: its own text, with the columns of the place it stands for */
		*sub = *parent;
		sub->text = s->p;
		sub->end = s->n;
		sub->at = (struct lex_pos){ 0, 0, s->line };
		sub->expansion = params_text_of(parent->params, s->p);
	}
	sub->quoted = true;
}

void lex_join(struct lexer *parent, const struct lexer *sub)
{
	if (sub->failed)
		parent->failed = true;
}

size_t lex_eol(const struct lexer *lx)
{
	const char *p = lx->text + lx->at.pos;
	const char *nl = memchr(p, '\n', lx->end - lx->at.pos);

	return nl ? (size_t)(nl - lx->text) : lx->end;
}

/* A "string" starting at q: sets *close to its closing quote. */
static int scan_string(struct lexer *lx, size_t q, size_t *close)
{
	const char *s = lx->text;

	for (size_t k = q + 1; k < lx->end; k++) {
		unsigned char c = (unsigned char)s[k];
		if (c == '"') {
			*close = k;
			return 0;
		}
		if (c == '\n')
			break;
		if (c == '\\') {
			if (k + 1 < lx->end && (s[k + 1] == '"' || s[k + 1] == '\\')) {
				k++;
				continue;
			}
			if (k + 1 >= lx->end || s[k + 1] == '\n')
				break;
			return error_at(lx, k, "unknown escape '%s' in a string (only \\\" and \\\\)",
					lex_snip((char[8]){0}, 8, s + k, 2));
		}
		if (is_ctl(c))
			return error_at(lx, k, "control character 0x%02x in a string", c);
	}
	return error_at(lx, q, "unterminated string");
}

/* With parameters, "${" starts a reference whose braces are part of the word. */
static bool param_ref(const struct lexer *lx, size_t j)
{
	return lx->params && lx->text[j] == '$' && j + 1 < lx->end && lx->text[j + 1] == '{';
}

/* Past the '}' of the reference at j; without one, the rest of the line (params_expand() says so). */
static size_t param_ref_end(const struct lexer *lx, size_t j)
{
	size_t k = j + 2;

	while (k < lx->end && lx->text[k] != '}' && lx->text[k] != '\n')
		k++;
	return k < lx->end && lx->text[k] == '}' ? k + 1 : k;
}

/* Replace the ${NAME}s in a token's text by their values. */
static int expand(struct lexer *lx, struct lex_span *s)
{
	if (!lx->params || !memmem(s->p, s->n, "${", 2))
		return 0;
	return params_expand(lx, s, s);
}

enum tok_type lex_next(struct lexer *lx, struct token *t)
{
	const char *s = lx->text;
	size_t i = lx->at.pos;

	memset(t, 0, sizeof(*t));
	if (lx->failed)
		return t->type = TOK_EOF;

	while (i < lx->end && is_space(s[i]))
		i++;
	if (i < lx->end && s[i] == '#' && lx->quoted) {
		error_at(lx, i, "'#' inside quotes: a comment goes after the closing quote");
		return t->type = TOK_EOF;
	}
	if (i < lx->end && s[i] == '#')
		while (i < lx->end && s[i] != '\n')
			i++;
	lx->at.pos = i;
	t->s = span_at(lx, i, 0);
	if (i >= lx->end)
		return t->type = TOK_EOF;

	unsigned char c = (unsigned char)s[i];
	if (c == '\n') {
		t->s.n = 1;
		lx->at.pos = i + 1;
		lx->at.bol = i + 1;
		lx->at.line++;
		check_line(lx);
		return t->type = lx->failed ? TOK_EOF : TOK_NEWLINE;
	}
	if (c == '"') {
		size_t close;
		if (scan_string(lx, i, &close) < 0)
			return t->type = TOK_EOF;
		t->s.n = close + 1 - i;
		t->val = span_at(lx, i + 1, close - i - 1);
		t->quoted = true;
		lx->at.pos = close + 1;
		if (expand(lx, &t->val) < 0)
			return t->type = TOK_EOF;
		return t->type = TOK_STRING;
	}
	if (!lx->raw && is_punct((char)c)) {
		size_t n = 1;
		if ((c == '<' || c == '>') && i + 1 < lx->end && s[i + 1] == '=')
			n = 2;
		t->s.n = n;
		lx->at.pos = i + n;
		return t->type = TOK_PUNCT;
	}
	if (is_ctl(c)) {
		error_at(lx, i, "unexpected control character 0x%02x", c);
		return t->type = TOK_EOF;
	}

	size_t j = i;
	while (j < lx->end && (is_word(lx, (unsigned char)s[j]) || param_ref(lx, j)))
		j = param_ref(lx, j) ? param_ref_end(lx, j) : j + 1;
	t->s.n = j - i;
	lx->at.pos = j;
	if (lx->raw || j >= lx->end || s[j] != '=')
		return expand(lx, &t->s) < 0 ? (t->type = TOK_EOF) : (t->type = TOK_WORD);

	/* key=value: the value is a "string" or runs to the next blank */
	t->key = t->s;
	size_t k = j + 1;
	if (k < lx->end && s[k] == '"') {
		size_t close;
		if (scan_string(lx, k, &close) < 0)
			return t->type = TOK_EOF;
		t->val = span_at(lx, k + 1, close - k - 1);
		t->quoted = true;
		lx->at.pos = close + 1;
	} else {
		size_t e = k;
		while (e < lx->end && !is_space(s[e]) && s[e] != '\n' && s[e] != '#' && s[e] != '"' &&
		       (!strchr("{};", s[e]) || param_ref(lx, e)) && !is_ctl((unsigned char)s[e]))
			e = param_ref(lx, e) ? param_ref_end(lx, e) : e + 1;
		if (e == k) {
			error_at(lx, j, "missing value after '%s='", SNIP(&t->key));
			return t->type = TOK_EOF;
		}
		t->val = span_at(lx, k, e - k);
		lx->at.pos = e;
	}
	t->s.n = lx->at.pos - i;
	if (expand(lx, &t->val) < 0)
		return t->type = TOK_EOF;
	return t->type = TOK_KEYVAL;
}

enum tok_type lex_peek(struct lexer *lx, struct token *t)
{
	struct lex_pos save = lx->at;
	enum tok_type type = lex_next(lx, t);

	lx->at = save;
	return type;
}

int lex_expect_eol(struct lexer *lx)
{
	struct token t;

	switch (lex_next(lx, &t)) {
	case TOK_NEWLINE:
		return 0;
	case TOK_EOF:
		return lx->failed ? -1 : 0;
	default:
		return lex_error(lx, &t.s, "unexpected '%s'", SNIP(&t.s));
	}
}

bool span_is(const struct lex_span *s, const char *text)
{
	return s->n == strlen(text) && !memcmp(s->p, text, s->n);
}

bool tok_is(const struct token *t, enum tok_type type, const char *text)
{
	return t->type == type && span_is(&t->s, text);
}

void lex_unquote(const struct lex_span *raw, char *out)
{
	size_t k = 0;

	for (size_t i = 0; i < raw->n; i++) {
		if (raw->p[i] == '\\' && i + 1 < raw->n)
			i++;
		out[k++] = raw->p[i];
	}
	out[k] = 0;
}

bool span_copy(const struct lex_span *s, char *out, size_t size)
{
	if (s->n >= size)
		return false;
	memcpy(out, s->p, s->n);
	out[s->n] = 0;
	return true;
}

/* ---- value parsers ---- */

int parse_u64(const char *p, size_t n, u64 *v)
{
	u64 x = 0;
	bool over = false;

	if (n == 0)
		return PARSE_SYNTAX;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return PARSE_SYNTAX;
		unsigned d = (unsigned)(p[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			over = true;
		else
			x = x * 10 + d;
	}
	if (over)
		return PARSE_OVERFLOW;
	*v = x;
	return PARSE_OK;
}

int parse_s64(const char *p, size_t n, s64 *v)
{
	bool neg = n > 0 && p[0] == '-';
	u64 x;

	if (n > 0 && (p[0] == '-' || p[0] == '+')) {
		p++;
		n--;
	}
	int r = parse_u64(p, n, &x);
	if (r != PARSE_OK)
		return r;
	if (x > (u64)INT64_MAX + neg)
		return PARSE_OVERFLOW;
	*v = neg ? (s64)(0 - x) : (s64)x;
	return PARSE_OK;
}

int parse_decimal(const char *p, size_t n, double *v)
{
	size_t i = 0, nf = 0;
	u64 ip = 0, f = 0;
	double scale = 1;

	if (n == 0 || !is_digit(p[0]))
		return PARSE_SYNTAX;
	for (; i < n && is_digit(p[i]); i++) {
		if (i >= 18)
			return PARSE_OVERFLOW;
		ip = ip * 10 + (u64)(p[i] - '0');
	}
	if (i < n && p[i] == '.') {
		for (i++; i < n && is_digit(p[i]); i++, nf++) {
			if (nf < 18) {	/* further digits are below double precision */
				f = f * 10 + (u64)(p[i] - '0');
				scale *= 10;
			}
		}
		if (!nf)
			return PARSE_SYNTAX;
	}
	if (i != n)
		return PARSE_SYNTAX;
	*v = (double)ip + (double)f / scale;
	return PARSE_OK;
}

int parse_duration(const char *p, size_t n, u64 *ns)
{
	static const struct { const char *unit; u64 mult; unsigned digits; } units[] = {
		{ "ns", 1, 0 }, { "us", NSEC_PER_USEC, 3 }, { "ms", NSEC_PER_MSEC, 6 }, { "s", NSEC_PER_SEC, 9 },
	};
	size_t i = 0, nf = 0;
	const char *frac = NULL;
	u64 ip = 0;
	bool over = false, frac_zero = true;

	if (n == 0 || !is_digit(p[0]))
		return PARSE_SYNTAX;
	for (; i < n && is_digit(p[i]); i++) {
		unsigned d = (unsigned)(p[i] - '0');
		if (ip > (UINT64_MAX - d) / 10)
			over = true;
		else
			ip = ip * 10 + d;
	}
	if (i < n && p[i] == '.') {
		frac = p + ++i;
		for (; i < n && is_digit(p[i]); i++, nf++)
			frac_zero &= p[i] == '0';
		if (!nf)
			return PARSE_SYNTAX;
	}

	size_t un = n - i;
	if (un == 0) {
		/* a bare zero needs no unit */
		if (!over && ip == 0 && frac_zero) {
			*ns = 0;
			return PARSE_OK;
		}
		return PARSE_SYNTAX;
	}
	for (size_t u = 0; u < ARRAY_SIZE(units); u++) {
		if (un != strlen(units[u].unit) || memcmp(p + i, units[u].unit, un))
			continue;
		if (over)
			return PARSE_OVERFLOW;
		u64 f = 0;
		for (size_t k = 0; k < nf; k++) {
			if (k < units[u].digits)
				f = f * 10 + (u64)(frac[k] - '0');
			else if (frac[k] != '0')
				return PARSE_FRACTION;
		}
		for (size_t k = nf; k < units[u].digits; k++)
			f *= 10;
		if (ip > (SCHED_TIME_MAX - f) / units[u].mult)
			return PARSE_OVERFLOW;
		*ns = ip * units[u].mult + f;
		return PARSE_OK;
	}
	return PARSE_SYNTAX;
}

const char *format_duration(char *buf, size_t size, u64 ns)
{
	if (ns == 0)
		snprintf(buf, size, "0");
	else if (ns % NSEC_PER_SEC == 0)
		snprintf(buf, size, "%llus", (unsigned long long)(ns / NSEC_PER_SEC));
	else if (ns % NSEC_PER_MSEC == 0)
		snprintf(buf, size, "%llums", (unsigned long long)(ns / NSEC_PER_MSEC));
	else if (ns % NSEC_PER_USEC == 0)
		snprintf(buf, size, "%lluus", (unsigned long long)(ns / NSEC_PER_USEC));
	else
		snprintf(buf, size, "%lluns", (unsigned long long)ns);
	return buf;
}

/* ---- value parsers with messages ---- */

int lex_duration(struct lexer *lx, const struct lex_span *s, const char *what, u64 *ns)
{
	switch (parse_duration(s->p, s->n, ns)) {
	case PARSE_OK:
		return 0;
	case PARSE_OVERFLOW:
		return lex_error(lx, s, "%s '%s' is too large (at most %llus)", what, SNIP(s),
				 SCHED_TIME_MAX / NSEC_PER_SEC);
	case PARSE_FRACTION:
		return lex_error(lx, s, "%s '%s' is not a whole number of nanoseconds", what, SNIP(s));
	default:
		return lex_error(lx, s, "bad %s '%s' (a number and a unit: ns, us, ms or s)", what, SNIP(s));
	}
}

int lex_int(struct lexer *lx, const struct lex_span *s, const char *what, s64 min, s64 max, s64 *v)
{
	int r = parse_s64(s->p, s->n, v);

	if (r == PARSE_SYNTAX)
		return lex_error(lx, s, "%s '%s' is not an integer", what, SNIP(s));
	if (r != PARSE_OK || *v < min || *v > max)
		return lex_error(lx, s, "%s '%s' is out of range (%lld..%lld)", what, SNIP(s),
				 (long long)min, (long long)max);
	return 0;
}

int lex_u64(struct lexer *lx, const struct lex_span *s, const char *what, u64 *v)
{
	int r = parse_u64(s->p, s->n, v);

	if (r == PARSE_SYNTAX)
		return lex_error(lx, s, "%s '%s' is not a non-negative integer", what, SNIP(s));
	if (r != PARSE_OK)
		return lex_error(lx, s, "%s '%s' is too large", what, SNIP(s));
	return 0;
}

static struct lex_span subspan(const struct lex_span *s, size_t off, size_t n)
{
	return (struct lex_span){ s->p + off, n, s->line, s->col + (u32)off };
}

/* One CPU number at s->p[*i]; large values saturate so "CPU 99999..." still reads well. */
static int cpulist_number(const struct lex_span *s, size_t *i, long *v)
{
	size_t start = *i;

	*v = 0;
	while (*i < s->n && is_digit(s->p[*i])) {
		if (*v < 100000000)
			*v = *v * 10 + (s->p[*i] - '0');
		(*i)++;
	}
	return *i > start ? 0 : -1;
}

int lex_cpulist(struct lexer *lx, const struct lex_span *s, int limit, struct cpumask *mask)
{
	size_t i = 0;

	memset(mask, 0, sizeof(*mask));
	for (;;) {
		size_t e = i;
		long a, b;

		if (cpulist_number(s, &i, &a) < 0)
			goto syntax;
		b = a;
		if (i < s->n && s->p[i] == '-') {
			i++;
			if (cpulist_number(s, &i, &b) < 0)
				goto syntax;
		}
		struct lex_span el = subspan(s, e, i - e);
		if (a > b)
			return lex_error(lx, &el, "CPU range '%s' runs backwards", SNIP(&el));
		if (b >= limit)
			return lex_error(lx, &el, "CPU %ld does not exist (%d CPUs, 0-%d)",
					 a >= limit ? a : b, limit, limit - 1);
		for (long c = a; c <= b; c++)
			cpumask_set(mask, (int)c);
		if (i == s->n)
			return 0;
		if (s->p[i] != ',')
			goto syntax;
		i++;
	}
syntax:
	{
		struct lex_span at = subspan(s, i, s->n - i);
		return lex_error(lx, &at, "bad CPU list '%s' (like 0-3,8,10)", SNIP(s));
	}
}

int lex_read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	/* O_NONBLOCK: a FIFO named by mistake must fail, not hang */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t n = 0, cap;

	*text = NULL;
	*len = 0;
	if (fd < 0)
		goto fail;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		goto out;
	}
	if (st.st_size > (off_t)LEX_MAX_FILE)
		goto too_big;
	/* st_size is a hint only (procfs says 0): read until EOF */
	cap = (size_t)st.st_size + 1;
	if (cap < 4096)
		cap = 4096;
	buf = xmalloc(cap);
	for (;;) {
		if (n == cap) {
			if (cap > LEX_MAX_FILE)
				goto too_big;
			cap = MIN(cap * 2, (size_t)LEX_MAX_FILE + 1);
			buf = xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > LEX_MAX_FILE)
		goto too_big;
	close(fd);
	*text = buf;
	*len = n;
	return 0;

too_big:
	snprintf(err, errlen, "%s: larger than %u MiB", path, LEX_MAX_FILE >> 20);
	goto out;
fail:
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return -1;
}
