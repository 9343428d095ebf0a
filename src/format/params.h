/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenario parameters. `param NAME=DEFAULT` declares a value that the lines
 * after it use as ${NAME} wherever the lexer reads a value (counts,
 * durations, group attributes, programs, captions...), so one scenario can
 * describe a family of workloads. --param NAME=VALUE replaces the default;
 * the replacement must be of the default's kind: an integer, a duration, a
 * decimal, or (for any other default) a word.
 */
#ifndef SRC_FORMAT_PARAMS_H
#define SRC_FORMAT_PARAMS_H

#include <stddef.h>

#include "sched/api/types.h"

#define PARAM_MAX 64
#define PARAM_NAME_MAX 32 /* bytes, with the NUL */
#define PARAM_VALUE_MAX 128

enum param_kind {
	PARAM_INTEGER,
	PARAM_DURATION,
	PARAM_DECIMAL,
	PARAM_WORD
};

extern const char *const param_kind_names[]; /* "an integer", "a duration", ... */

struct param {
	char name[PARAM_NAME_MAX];
	char value[PARAM_VALUE_MAX];
};

struct params_text;

struct params {
	int n;
	struct param p[PARAM_MAX];
	struct params_text *texts; /* expanded text handed out; params_free() frees it */
};

/* [A-Za-z_][A-Za-z0-9_]*, shorter than PARAM_NAME_MAX. */
bool param_name_valid(const char *p, size_t n);
/* A value is one word: printable, no blank and none of "#$\{}();=<> */
bool param_value_valid(const char *p, size_t n);
enum param_kind param_kind_of(const char *p, size_t n);
/* Does the value read as the kind (a duration may be a bare 0, a decimal an integer)? */
bool param_fits(enum param_kind want, const char *p, size_t n);

const struct param *params_find(const struct params *ps, const char *name, size_t n);
/* Add a declaration (name and value already checked); -1 when PARAM_MAX are declared. */
int params_add(struct params *ps, const char *name, size_t n, const char *value, size_t vn);
void params_free(struct params *ps);

struct lexer;
struct lex_span;

/*
 * Replace each ${NAME} of s (one line of text) by its value. *out is the
 * result, kept by lx->params until params_free(), with s's line and column.
 * An undeclared name is an error at its '${'. Returns 0 or -1.
 */
int params_expand(struct lexer *lx, const struct lex_span *s, struct lex_span *out);
/* The expansion holding p, or NULL when p is the file's own text. */
const struct params_text *params_text_of(const struct params *ps, const char *p);
/* The column in the file of byte off of an expansion: a substituted value
 * is at its '${', the text around it where it was written. */
u32 params_text_col(const struct params_text *t, size_t off);

#endif
