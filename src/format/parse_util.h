/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the .scn parsers share (scenario.c, program_parse.c,
 * expect_parse.c). Their errors go through the lexer like any other
 * mistake, so even "out of memory" reads "file:line:col: message" and
 * stops the parse.
 */
#ifndef SRC_PARSE_UTIL_H
#define SRC_PARSE_UTIL_H

#include <stddef.h>

#include "lex.h"

/* A string-keyed hash table (open addressing); keys point into the scenario text. */
struct map_entry {
	const char *key;
	size_t n;
	int value;
};

struct strmap {
	struct map_entry *e;	/* free(e) when done */
	size_t size, used;
};

struct map_entry *strmap_find(struct strmap *m, const char *p, size_t n);
/* Add a key the caller has looked up and not found. */
void strmap_add(struct strmap *m, const char *p, size_t n, int value);

/* The next token must be the punctuation `what`: "expected ')' after the durations, got 'x'". */
int require_punct(struct lexer *lx, const char *what, const char *after);

#endif
