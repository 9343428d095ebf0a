/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small tokenizer shared by the line-oriented files (.scn, .topo) and the
 * run-time command line. It knows words, KEY=VALUE, "strings", a little
 * punctuation and the end of each line; the value parsers below turn the
 * text of a token into durations, integers and CPU lists. Errors are
 * "file:line:col: message" with 1-based byte columns, and only the first
 * one is kept: after it every call returns TOK_EOF so parsers unwind.
 */
#ifndef SRC_LEX_H
#define SRC_LEX_H

#include <stdarg.h>

#include "sched/api/types.h"

#define LEX_MAX_LINE 4096		/* bytes in one line, without the newline */
#define LEX_MAX_FILE (16u << 20)	/* bytes in one file */

enum tok_type {
	TOK_EOF,	/* end of input, or after an error */
	TOK_NEWLINE,
	TOK_WORD,	/* a run of word characters */
	TOK_STRING,	/* "text": val is the raw text between the quotes */
	TOK_KEYVAL,	/* key=value or key="value" */
	TOK_PUNCT,	/* { } ( ) ; , = < > <= >= */
};

/* A piece of the source text and where it starts. */
struct lex_span {
	const char *p;
	size_t n;
	u32 line, col;
};

struct token {
	enum tok_type type;
	struct lex_span s;	/* the whole token as written */
	struct lex_span key;	/* KEYVAL: the key */
	struct lex_span val;	/* KEYVAL: the value; STRING: the text inside the quotes */
	bool quoted;		/* the value was a "string" (escapes not yet undone) */
};

/* A place in the text, to come back to later (lex_sub). */
struct lex_pos {
	size_t pos;	/* next byte to read */
	size_t bol;	/* first byte of the current line */
	u32 line;
};

struct lexer {
	const char *name;	/* for messages; NULL gives "col N: message" */
	const char *text;
	size_t end;		/* stop here (exclusive) */
	struct lex_pos at;
	bool raw;		/* words run up to whitespace or '#': no punctuation */
	bool quoted;		/* inside a "string" (a program): '#' is no comment but an error */
	bool nopos;		/* messages are "name: message" (one-line inputs like --set) */
	bool failed;
	char *err;
	size_t errlen;
};

/* Start reading text[0..len); checks the first line (length, NUL bytes). */
void lex_init(struct lexer *lx, const char *name, const char *text, size_t len,
	      char *err, size_t errlen);
/* A lexer over the part of parent's text from `from` up to byte `end` of the
 * same line, reporting into the parent's error buffer. */
void lex_sub(struct lexer *sub, const struct lexer *parent, const struct lex_pos *from, size_t end);
/* The same, over the raw text of a quoted value. */
void lex_sub_span(struct lexer *sub, const struct lexer *parent, const struct lex_span *s);
/* After a sub-lexer ran: carry its error (if any) back to the parent. */
void lex_join(struct lexer *parent, const struct lexer *sub);

enum tok_type lex_next(struct lexer *lx, struct token *t);
enum tok_type lex_peek(struct lexer *lx, struct token *t);
/* Offset of the end of the current line: its newline, or the end of the text. */
size_t lex_eol(const struct lexer *lx);
/* Require the end of the line here; "unexpected 'x'" otherwise. */
int lex_expect_eol(struct lexer *lx);

bool tok_is(const struct token *t, enum tok_type type, const char *text);
bool span_is(const struct lex_span *s, const char *text);

/* Record the first error at a place: "name:line:col: message". Returns -1. */
int lex_error(struct lexer *lx, const struct lex_span *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int lex_verror(struct lexer *lx, u32 line, u32 col, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* The text of a span made printable and short, for quoting in messages. */
#define LEX_SNIP_MAX 48
const char *lex_snip(char *buf, size_t size, const char *p, size_t n);
#define SNIP(sp) lex_snip((char[LEX_SNIP_MAX]){0}, LEX_SNIP_MAX, (sp)->p, (sp)->n)

/* Undo \" and \\ in the raw text of a quoted value. out must hold n + 1 bytes. */
void lex_unquote(const struct lex_span *raw, char *out);
/* Copy a span into a NUL-terminated buffer; false when it does not fit. */
bool span_copy(const struct lex_span *s, char *out, size_t size);

/* ---- value parsers: pure, no location; return a PARSE_* code ---- */

enum parse_result { PARSE_OK, PARSE_SYNTAX, PARSE_OVERFLOW, PARSE_FRACTION };

/* "10ms", "2.5s", "0.75ms", "750us", "0". Result is whole nanoseconds. */
int parse_duration(const char *p, size_t n, u64 *ns);
int parse_u64(const char *p, size_t n, u64 *v);
int parse_s64(const char *p, size_t n, s64 *v);
/* A plain non-negative decimal number, "0.333", "12"; no exponent, no locale. */
int parse_decimal(const char *p, size_t n, double *v);
/* Shortest exact text for a duration: "3ms", "2500us", "0". */
const char *format_duration(char *buf, size_t size, u64 ns);

/* ---- the same, reporting "file:line:col: ..." through the lexer ---- */

/* what names the value in messages ("slice", "duration"). */
int lex_duration(struct lexer *lx, const struct lex_span *s, const char *what, u64 *ns);
int lex_int(struct lexer *lx, const struct lex_span *s, const char *what, s64 min, s64 max, s64 *v);
int lex_u64(struct lexer *lx, const struct lex_span *s, const char *what, u64 *v);

/*
 * A CPU list: "0", "0-3", "0,2,4-7". Every CPU must be below limit; the error
 * names the element at fault ("CPU 9 does not exist (4 CPUs)").
 */
int lex_cpulist(struct lexer *lx, const struct lex_span *s, int limit, struct cpumask *mask);

/* Read a whole regular file (at most LEX_MAX_FILE); "path: why" on failure. */
int lex_read_file(const char *path, char **text, size_t *len, char *err, size_t errlen);

#endif
