// SPDX-License-Identifier: GPL-2.0
/* Scenario parameters and their ${NAME} expansion (params.h). */
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "lex.h"
#include "params.h"

const char *const param_kind_names[] = {
	[PARAM_INTEGER] = "an integer",
	[PARAM_DURATION] = "a duration",
	[PARAM_DECIMAL] = "a decimal number",
	[PARAM_WORD] = "a word",
};

/* One expansion: spans point into text, so each stays where it was made. */
struct params_text {
	struct params_text *next;
	size_t len;
	u32 col; /* of text[0] in the file */
	int nr_refs;
	struct text_ref {
		size_t at, n;	   /* the value's bytes in text */
		size_t was, was_n; /* the ${NAME}'s offset and length as written */
	} * ref;
	char text[];
};

static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

bool param_name_valid(const char *p, size_t n)
{
	if (!n || n >= PARAM_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!name_char(p[i], i == 0))
			return false;
	return true;
}

bool param_value_valid(const char *p, size_t n)
{
	if (!n || n >= PARAM_VALUE_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c <= ' ' || c == 0x7f || strchr("\"#$\\{}();=<>", c))
			return false;
	}
	return true;
}

enum param_kind param_kind_of(const char *p, size_t n)
{
	s64 i;
	u64 ns;
	double d;

	if (parse_s64(p, n, &i) == PARSE_OK)
		return PARAM_INTEGER;
	if (parse_duration(p, n, &ns) == PARSE_OK)
		return PARAM_DURATION;
	if (parse_decimal(p, n, &d) == PARSE_OK)
		return PARAM_DECIMAL;
	return PARAM_WORD;
}

bool param_fits(enum param_kind want, const char *p, size_t n)
{
	s64 i;
	u64 ns;
	double d;

	switch (want) {
	case PARAM_INTEGER:
		return parse_s64(p, n, &i) == PARSE_OK;
	case PARAM_DURATION:
		return parse_duration(p, n, &ns) == PARSE_OK;
	case PARAM_DECIMAL:
		return parse_decimal(p, n, &d) == PARSE_OK;
	default:
		return true;
	}
}

const struct param *params_find(const struct params *ps, const char *name, size_t n)
{
	for (int i = 0; i < ps->n; i++)
		if (strlen(ps->p[i].name) == n && !memcmp(ps->p[i].name, name, n))
			return &ps->p[i];
	return NULL;
}

int params_add(struct params *ps, const char *name, size_t n, const char *value, size_t vn)
{
	if (ps->n == PARAM_MAX || n >= PARAM_NAME_MAX || vn >= PARAM_VALUE_MAX)
		return -1;
	struct param *p = &ps->p[ps->n++];
	memcpy(p->name, name, n);
	p->name[n] = 0;
	memcpy(p->value, value, vn);
	p->value[vn] = 0;
	return 0;
}

void params_free(struct params *ps)
{
	while (ps->texts) {
		struct params_text *t = ps->texts;
		ps->texts = t->next;
		free(t->ref);
		free(t);
	}
}

int params_expand(struct lexer *lx, const struct lex_span *s, struct lex_span *out)
{
	struct params *ps = lx->params;
	size_t len = 0;
	int refs = 0;

	/* two passes: measure, then copy */
	for (int pass = 0; pass < 2; pass++) {
		struct params_text *t = NULL;
		size_t k = 0;

		if (pass) {
			t = xmalloc(sizeof(*t) + len + 1);
			*t = (struct params_text){ ps->texts, len, s->col, 0,
						   xcalloc((size_t)refs, sizeof(*t->ref)) };
			ps->texts = t;
		}
		for (size_t i = 0; i < s->n;) {
			if (s->p[i] != '$' || i + 1 >= s->n || s->p[i + 1] != '{') {
				if (pass)
					t->text[k] = s->p[i];
				k++;
				i++;
				continue;
			}
			struct lex_span at = { s->p + i, 2, s->line, s->col + (u32)i };
			const char *close = memchr(s->p + i, '}', s->n - i);
			if (!close)
				return lex_error(lx, &at, "unterminated '${' (a parameter is ${NAME})");
			const char *name = s->p + i + 2;
			size_t n = (size_t)(close - name);
			at.n = n + 3;
			const struct param *p = params_find(ps, name, n);
			if (!p) {
				if (!param_name_valid(name, n))
					return lex_error(
						lx, &at,
						"bad parameter reference '%s' (a parameter is ${NAME})",
						SNIP(&at));
				return lex_error(lx, &at,
						 "undeclared parameter '%.*s' (declare it before its use: "
						 "param %.*s=DEFAULT)",
						 (int)n, name, (int)n, name);
			}
			size_t vn = strlen(p->value);
			if (pass) {
				memcpy(t->text + k, p->value, vn);
				t->ref[t->nr_refs++] = (struct text_ref){ k, vn, i, n + 3 };
			} else {
				refs++;
			}
			k += vn;
			i += n + 3;
		}
		if (pass) {
			t->text[k] = 0;
			*out = (struct lex_span){ t->text, k, s->line, s->col };
		}
		len = k;
	}
	return 0;
}

const struct params_text *params_text_of(const struct params *ps, const char *p)
{
	for (const struct params_text *t = ps ? ps->texts : NULL; t; t = t->next)
		if (p >= t->text && p <= t->text + t->len)
			return t;
	return NULL;
}

u32 params_text_col(const struct params_text *t, size_t off)
{
	size_t shift = 0; /* written bytes minus expanded bytes before off */

	for (int i = 0; i < t->nr_refs; i++) {
		const struct text_ref *r = &t->ref[i];

		if (off < r->at)
			break;
		if (off < r->at + r->n)
			return t->col + (u32)r->was;
		shift = r->was + r->was_n - (r->at + r->n);
	}
	return t->col + (u32)(off + shift);
}
