/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A comparison's second side. B is another scenario file (--vs B.scn) or
 * A's own, and either way A's overrides then --vs-set KEY=VALUE (anything
 * --set takes). B runs with A's seed unless a --vs-set names one, so that a
 * difference comes from what was changed and not from the random draws.
 */
#ifndef SRC_FORMAT_VARIANT_H
#define SRC_FORMAT_VARIANT_H

#include <stddef.h>

#include "scenario_file.h"

#define VARIANT_MAX_SETS 64
#define VARIANT_LABEL_MAX 128

struct variant {
	const char *path; /* --vs B.scn; NULL: A's scenario */
	int nr_sets;
	const char *set[VARIANT_MAX_SETS]; /* --vs-set KEY=VALUE, in order */
	int nr_params;
	const char *param[VARIANT_MAX_SETS]; /* --vs-param NAME=VALUE: after A's --param */
	/* the scenario whose `vs` lines these are (variant_from_file), for messages; NULL: the command line */
	const char *file;
	u32 line[VARIANT_MAX_SETS], col[VARIANT_MAX_SETS];
};

/* Was a second side asked for? */
bool variant_given(const struct variant *v);
/* --vs FILE (once) and --vs-set KEY=VALUE; -1 with a message naming the option. */
int variant_add_file(struct variant *v, const char *path, char *err, size_t errlen);
int variant_add_set(struct variant *v, const char *assignment, char *err, size_t errlen);
int variant_add_param(struct variant *v, const char *assignment, char *err, size_t errlen);
/* The scenario's own `vs` lines (valid while f is), when the command line gave none. */
void variant_from_file(struct variant *v, const struct scenario_file *f);
/*
 * Side B as every command takes it: the command line's if it gave one
 * (it replaces the scenario's), else the scenario's own `vs` lines. Whether
 * there is a side B.
 */
bool variant_choose(struct variant *v, const struct scenario_file *f);
/* The file side B reads: the --vs file, else A's. */
const char *variant_path(const struct variant *v, const char *a_path);
/*
 * Make b (B's file, loaded with A's overrides) side B: the --vs-sets in
 * order, then A's seed unless one of them set it. A kernel without a sched
 * picks that kernel's scheduler (6.1: CFS) over the file's `sched`. -1 with "--vs-set: ..."
 * in err; b is then freed, as a failed load leaves it.
 */
int variant_apply(const struct variant *v, const struct scenario_file *a, struct scenario_file *b, char *err,
		  size_t errlen);
/* "A: stock" / "B: kernel 6.1, NO_PLACE_LAG": what tells the sides apart. */
void variant_labels(const struct variant *v, const char *a_path, char *a, char *b);

#endif
