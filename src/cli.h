/* SPDX-License-Identifier: GPL-2.0 */
/* Shared pieces of the command-line front end. */
#ifndef SRC_CLI_H
#define SRC_CLI_H

#include "src/format/scenario_file.h"

/* Print "schedscope: message" and a hint; returns 2 (usage error). */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Load a scenario file, or the built-in demo for DEMO_SCENARIO_NAME; prints
 * the error and returns 2 on failure. */
int cli_load_scenario(const char *path, struct scenario_file *f);

/* --seed N and --set KEY=VALUE, kept in order and applied after loading. */
struct cli_sets {
	int n;
	const char *arg[256];
	bool seed[256];
};

int cli_add_set(struct cli_sets *s, const char *arg, bool seed);
/* cli_load_scenario, then the --seed/--set overrides; 2 (printed) on error. */
int cli_load_scenario_sets(const char *path, const struct cli_sets *s, struct scenario_file *f);

#define DEMO_SCENARIO_NAME "demo"

extern const char demo_scenario_text[];

int cmd_run(int argc, char **argv);
int cmd_view(int, char **);
int cmd_ui(int, char **);
int cmd_topology(int, char **);
int cmd_import(int, char **);
int cmd_ext(int, char **);
int cmd_compare_log(int, char **);

#endif
