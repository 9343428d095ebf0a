/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer over a FILE*: it tracks nesting and commas,
 * escapes strings, and formats numbers the same way on every machine and in
 * every locale, so a report or a Perfetto trace is byte-deterministic.
 *
 *	struct json j;
 *	json_init(&j, f, JSON_PRETTY);
 *	json_begin_object(&j);
 *	json_kv_str(&j, "scenario", "groups.scn");
 *	json_key(&j, "cpus");
 *	json_begin_array(&j);
 *	json_u64(&j, 4);
 *	json_end_array(&j);
 *	json_end_object(&j);
 *	if (json_finish(&j) < 0) ...
 *
 * Misuse (a value in an object without a key, unbalanced ends, nesting
 * deeper than JSON_MAX_DEPTH) is recorded and reported by json_finish();
 * the writer never reads or writes out of bounds.
 */
#ifndef SRC_JSON_H
#define SRC_JSON_H

#include <stdio.h>

#include "sched/api/types.h"

#define JSON_MAX_DEPTH 64

enum json_style {
	JSON_COMPACT,	/* {"a":1,"b":[1,2]} */
	JSON_PRETTY,	/* two-space indent, one member per line, final newline */
};

struct json {
	FILE *f;
	int style;
	int depth;
	bool error;		/* misuse seen */
	bool want_value;	/* a key was written; its value comes next */
	bool done;		/* the top-level value is complete */
	bool in_object[JSON_MAX_DEPTH];
	bool has_items[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f, int style);
/* 0 when the document is complete and well formed and the FILE saw no error. */
int json_finish(struct json *j);

void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_key(struct json *j, const char *key);

void json_string(struct json *j, const char *s);
/* n bytes, which may contain NULs (written as \u0000). */
void json_string_n(struct json *j, const char *s, size_t n);
void json_u64(struct json *j, u64 v);
void json_s64(struct json *j, s64 v);
/* Shortest text that reads back as the same double; NaN and infinities are null. */
void json_double(struct json *j, double v);
/* Exactly `decimals` digits after the point (0..17), e.g. microsecond timestamps. */
void json_fixed(struct json *j, double v, int decimals);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* key + value in one call. */
void json_kv_str(struct json *j, const char *key, const char *s);
void json_kv_u64(struct json *j, const char *key, u64 v);
void json_kv_s64(struct json *j, const char *key, s64 v);
void json_kv_double(struct json *j, const char *key, double v);
void json_kv_bool(struct json *j, const char *key, bool v);

/* The escaped string alone (quotes included), for writers that build lines by hand. */
void json_write_escaped(FILE *f, const char *s, size_t n);

#endif
