/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer over a FILE*: it tracks nesting and commas,
 * escapes strings, and formats numbers the same way on every machine and in
 * every locale, so a report or a Perfetto trace is byte-deterministic.
 *
 *	struct json_writer j;
 *	jw_init(&j, f, JW_PRETTY);
 *	jw_begin_object(&j);
 *	jw_kv_str(&j, "scenario", "groups.scn");
 *	jw_key(&j, "cpus");
 *	jw_begin_array(&j);
 *	jw_u64(&j, 4);
 *	jw_end_array(&j);
 *	jw_end_object(&j);
 *	if (jw_finish(&j) < 0) ...
 *
 * Misuse (a value in an object without a key, unbalanced ends, nesting
 * deeper than JW_MAX_DEPTH) is recorded and reported by jw_finish();
 * the writer never reads or writes out of bounds.
 */
#ifndef SRC_JSON_H
#define SRC_JSON_H

#include <stdio.h>

#include "sched/api/types.h"

#define JW_MAX_DEPTH 64

enum jw_style {
	JW_COMPACT, /* {"a":1,"b":[1,2]} */
	JW_PRETTY,  /* two-space indent, one member per line, final newline */
};

struct json_writer {
	FILE *f;
	int style;
	int depth;
	bool error;		/* misuse seen */
	bool want_value;	/* a key was written; its value comes next */
	bool done;		/* the top-level value is complete */
	bool in_object[JW_MAX_DEPTH];
	bool has_items[JW_MAX_DEPTH];
};

void jw_init(struct json_writer *j, FILE *f, int style);
/* 0 when the document is complete and well formed and the FILE saw no error. */
int jw_finish(struct json_writer *j);

void jw_begin_object(struct json_writer *j);
void jw_end_object(struct json_writer *j);
void jw_begin_array(struct json_writer *j);
void jw_end_array(struct json_writer *j);
void jw_key(struct json_writer *j, const char *key);

void jw_string(struct json_writer *j, const char *s);
/* n bytes, which may contain NULs (written as \u0000). */
void jw_string_n(struct json_writer *j, const char *s, size_t n);
void jw_u64(struct json_writer *j, u64 v);
void jw_s64(struct json_writer *j, s64 v);
/* Shortest text that reads back as the same double; NaN and infinities are null. */
void jw_double(struct json_writer *j, double v);
/* Exactly `decimals` digits after the point (0..17), e.g. microsecond timestamps. */
void jw_fixed(struct json_writer *j, double v, int decimals);
void jw_bool(struct json_writer *j, bool v);
void jw_null(struct json_writer *j);

/* key + value in one call. */
void jw_kv_str(struct json_writer *j, const char *key, const char *s);
void jw_kv_u64(struct json_writer *j, const char *key, u64 v);
void jw_kv_s64(struct json_writer *j, const char *key, s64 v);
void jw_kv_double(struct json_writer *j, const char *key, double v);
void jw_kv_bool(struct json_writer *j, const char *key, bool v);

/* The escaped string alone (quotes included), for writers that build lines by hand. */
void jw_write_escaped(FILE *f, const char *s, size_t n);

#endif
