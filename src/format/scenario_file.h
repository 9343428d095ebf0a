/* SPDX-License-Identifier: GPL-2.0 */
/* Reading .scn scenario files into the engine's sched_scenario. */
#ifndef SRC_SCENARIO_FILE_H
#define SRC_SCENARIO_FILE_H

#include "sched/api/scenario.h"
#include "expect.h"
#include "params.h"
#include "ext_policy.h"
#include "diff_expr.h"

/* A parsed scenario and everything it owns. */
struct scenario_file {
	char path[1024];
	struct sched_scenario sc;
	struct sched_topology topo;	/* sc.topo points here */
	const char **task_names;	/* [sc.nr_tasks]: task i's name, for glob matching */
	const char **group_names;	/* [sc.nr_groups]: the groups' paths */
	int nr_expects;
	struct expect *expect;
	int nr_breaks;
	struct scenario_break {
		char *text;		/* the breakpoint expression (src/breakpoint.h) */
		u32 line;
	} *brk;			/* where the visualizer pauses */
	int nr_params;
	struct param *param;		/* [nr_params]: the `param`s with the values used */
	void *owned;			/* allocations freed by scenario_free() */
	/* `sched` / `kernel` were given (in the file or by --set): the other
	 * one then follows the rule "cfs implies 6.1, < 6.6 implies cfs". */
	bool sched_given, kernel_given;
	struct ext_policy ext; /* `sched ext:PATH`: sc.ext_ops is ext.ops */
	/* `vs set KEY=VALUE` and `vs param NAME=VALUE`: the side B it is compared
	 * with (schedscope compare, run --check), and its `expect diff` lines */
	int nr_vs;
	struct scenario_vs {
		char *text; /* KEY=VALUE */
		bool param;
		u32 line, col;
	} * vs;
	int nr_diff_expects;
	struct diff_expect *diff_expect;
};

/*
 * Parse a scenario. `name` is used in messages (file:line:col) and to resolve
 * relative topology paths; the text need not be NUL-terminated. On error
 * returns -1 with "file:line:col: message" in err and leaves *out empty.
 */
int scenario_parse(const char *name, const char *text, size_t len,
		   struct scenario_file *out, char *err, size_t errlen);
/* Read and parse a file (errors as above; an unreadable file is "path: why"). */
int scenario_load(const char *path, struct scenario_file *out, char *err, size_t errlen);

/* What the command line changes in a scenario (run --set, sweep's axes). */
struct scenario_overrides {
	const char *topology; /* instead of the file's `topology` line: a name or path */
	int nr_params;
	const char *const *param; /* NAME=VALUE: values of the file's `param` declarations */
	int nr_sets;
	const char *const *set; /* KEY=VALUE for scenario_set(), applied in order */
};

/* scenario_parse() and scenario_load() with overrides (NULL: none). A --param
 * the file does not declare, or of another kind than its default, is an error. */
int scenario_parse_with(const char *name, const char *text, size_t len, const struct scenario_overrides *ov,
			struct scenario_file *out, char *err, size_t errlen);
int scenario_load_with(const char *path, const struct scenario_overrides *ov, struct scenario_file *out,
		       char *err, size_t errlen);
void scenario_free(struct scenario_file *f);

struct breakpoint_scope;
/* The tasks, groups and CPUs a breakpoint on this scenario can name. */
void scenario_breakpoint_scope(const struct scenario_file *f, struct breakpoint_scope *out);

/* Apply a `--set KEY=VALUE` override (tunable, feature, hz, seed, duration,
 * sched, kernel) after parsing; -1 with a message on a bad key or value.
 * sched=ext:PATH loads a policy (PATH relative to the current directory),
 * sched=eevdf or cfs drops the scenario's. */
int scenario_set(struct scenario_file *f, const char *assignment, char *err, size_t errlen);
/* The same, with messages naming `what` (the option) instead of --set. */
int scenario_set_as(struct scenario_file *f, const char *what, const char *assignment, char *err,
		    size_t errlen);

#endif
