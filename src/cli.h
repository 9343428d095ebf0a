/* SPDX-License-Identifier: GPL-2.0 */
/* Shared pieces of the command-line front end. */
#ifndef SRC_CLI_H
#define SRC_CLI_H

#include "src/format/scenario_file.h"
#include "src/format/variant.h"

/* Print "schedscope: message" and a hint; returns 2 (usage error). */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Load a scenario file, or the built-in demo for DEMO_SCENARIO_NAME; prints
 * the error and returns 2 on failure. */
int cli_load_scenario(const char *path, struct scenario_file *f);

/* --seed N, --set KEY=VALUE (kept in order, applied after loading) and --param NAME=VALUE. */
#define CLI_MAX_SETS 256
struct cli_sets {
	int n;
	char kv[CLI_MAX_SETS][300]; /* the KEY=VALUE each means (--seed N is seed=N) */
	int nr_params;
	const char *param[CLI_MAX_SETS];
};

int cli_add_set(struct cli_sets *s, const char *arg, bool seed);
/* "A..B" with durations on both sides and A < B (--window, --trace-window); -1 when not. */
int cli_parse_window(const char *s, u64 *from, u64 *to);
/* A byte count with an optional binary unit: 4096, 64K, 512M, 2GiB; -1 if not one. */
int cli_parse_size(const char *s, size_t *out);
/* --history-budget's argument into *out, or 2 (printed). */
int cli_history_budget(const char *arg, size_t *out);
int cli_add_param(struct cli_sets *s, const char *arg);
/* Load a scenario with the overrides: the built-in demo for DEMO_SCENARIO_NAME,
 * else the file; 2 on error with the message in err. */
int cli_load_scenario_with(const char *path, const struct scenario_overrides *ov, struct scenario_file *f,
			   char *err, size_t errlen);
/* cli_load_scenario, then the --seed/--set/--param overrides; 2 (printed) on error. */
int cli_load_scenario_sets(const char *path, const struct cli_sets *s, struct scenario_file *f);

/* --vs FILE (vs_file true) or --vs-set KEY=VALUE into v; 2 (printed) on error. */
int cli_add_variant(struct variant *v, const char *arg, bool vs_file);
/* --vs-param NAME=VALUE into v; 2 (printed) on error. */
int cli_add_vs_param(struct variant *v, const char *arg);
/* Side B of a comparison: variant_path()'s file with A's --seed/--set/--param,
 * then variant_apply(); 2 (printed, naming the file or option) on error. */
int cli_load_variant(const char *a_path, const struct cli_sets *s, const struct variant *v,
		     const struct scenario_file *a, struct scenario_file *b);

/*
 * The options of every command that runs a scenario (run, view, ui): the
 * scenario's --seed, --set and --param, side B's --vs and --vs-set, and
 * --history-budget. Long options only, above any letter. --vs-param
 * (CLI_OPT_VS_PARAM) is run's alone: it adds it to its own table.
 */
enum {
	CLI_OPT_SEED = 256,
	CLI_OPT_SET,
	CLI_OPT_PARAM,
	CLI_OPT_VS,
	CLI_OPT_VS_SET,
	CLI_OPT_VS_PARAM,
	CLI_OPT_HISTORY_BUDGET,
};
#define CLI_SCENARIO_OPTIONS                                                                                \
	{ "seed", required_argument, NULL, CLI_OPT_SEED }, { "set", required_argument, NULL, CLI_OPT_SET }, \
		{ "param", required_argument, NULL, CLI_OPT_PARAM },                                        \
		{ "vs", required_argument, NULL, CLI_OPT_VS },                                              \
		{ "vs-set", required_argument, NULL, CLI_OPT_VS_SET },                                      \
	{                                                                                                   \
		"history-budget", required_argument, NULL, CLI_OPT_HISTORY_BUDGET                           \
	}
/* One of them (getopt_long's c and optarg): 0 taken, 2 refused (printed), -1 not one of them. */
int cli_scenario_option(int c, const char *arg, struct cli_sets *sets, struct variant *v, size_t *budget);

#define DEMO_SCENARIO_NAME "demo"

extern const char demo_scenario_text[];

int cmd_run(int argc, char **argv);
int cmd_view(int, char **);
int cmd_ui(int, char **);
int cmd_topology(int, char **);
int cmd_import(int, char **);
int cmd_ext(int, char **);
int cmd_compare(int, char **);
int cmd_compare_log(int, char **);
int cmd_sweep(int, char **);

#endif
