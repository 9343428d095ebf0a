/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rt-app workloads (JSON, as rt-app and its workgen front end read them)
 * into scenario text. Accepted as rt-app accepts them: C and C++ comments,
 * trailing commas, duplicate keys (as `rt-app FILE` reads them with json-c,
 * the last value at the first key's place; or, with workgen, each kept in
 * order), a bare "suspend" meaning the task's own name. Events are matched
 * by key prefix in rt-app's order; see schedscope(1) IMPORT for the rules.
 */
#ifndef SRC_IMPORT_RTAPP_H
#define SRC_IMPORT_RTAPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct import_rtapp_opts {
	bool workgen; /* repeated keys as rt-app's workgen keeps them: each one, in order */
};

/*
 * Convert the rt-app JSON in text[0..len) (called `name` in messages) and
 * write the scenario to out; o may be NULL (rt-app's own reading). What cannot be modelled is converted by the
 * documented rule with a "name:line:col: warning: ..." line on warn (NULL:
 * silent). Returns the number of warnings, or -1 with "name:line:col:
 * message" in err and nothing written to out.
 */
int import_rtapp(const char *name, const char *text, size_t len, const struct import_rtapp_opts *o, FILE *out,
		 FILE *warn, char *err, size_t errlen);

/* Whether text looks like JSON (its first non-blank byte opens an object). */
int import_rtapp_detect(const char *text, size_t len);

#endif
