// SPDX-License-Identifier: GPL-2.0
/* Helpers the .scn parsers share: see parse_util.h. */
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "parse_util.h"

static u64 hash(const char *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
	return h;
}

struct map_entry *strmap_find(struct strmap *m, const char *p, size_t n)
{
	if (!m->size)
		return NULL;
	for (size_t i = hash(p, n) & (m->size - 1);; i = (i + 1) & (m->size - 1)) {
		struct map_entry *e = &m->e[i];
		if (!e->key)
			return NULL;
		if (e->n == n && !memcmp(e->key, p, n))
			return e;
	}
}

void strmap_add(struct strmap *m, const char *p, size_t n, int value)
{
	if (2 * (m->used + 1) > m->size) {
		size_t size = m->size ? m->size * 2 : 64;
		struct strmap bigger = { xcalloc(size, sizeof(struct map_entry)), size, 0 };

		for (size_t i = 0; i < m->size; i++)
			if (m->e[i].key)
				strmap_add(&bigger, m->e[i].key, m->e[i].n, m->e[i].value);
		free(m->e);
		*m = bigger;
	}
	size_t i = hash(p, n) & (m->size - 1);
	while (m->e[i].key)
		i = (i + 1) & (m->size - 1);
	m->e[i] = (struct map_entry){ p, n, value };
	m->used++;
}

int require_punct(struct lexer *lx, const char *what, const char *after)
{
	struct token t;

	if (lex_next(lx, &t) == TOK_PUNCT && span_is(&t.s, what))
		return 0;
	if (lx->failed)
		return -1;
	if (t.type == TOK_NEWLINE || t.type == TOK_EOF)
		return lex_error(lx, &t.s, "expected '%s' %s, got the end of the line", what, after);
	return lex_error(lx, &t.s, "expected '%s' %s, got '%s'", what, after, SNIP(&t.s));
}
