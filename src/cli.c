// SPDX-License-Identifier: GPL-2.0
/* Shared pieces of the command-line front end: errors and loading scenarios. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("schedscope: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'schedscope --help'.\n", stderr);
	return 2;
}

int cli_load_scenario(const char *path, struct scenario_file *f)
{
	char err[1024];
	int rc;

	if (!strcmp(path, DEMO_SCENARIO_NAME) && access(path, F_OK))
		rc = scenario_parse("demo.scn", demo_scenario_text, strlen(demo_scenario_text), f, err,
				    sizeof(err));
	else
		rc = scenario_load(path, f, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	return 0;
}

int cli_add_set(struct cli_sets *s, const char *arg, bool seed)
{
	if (s->n == (int)(sizeof(s->arg) / sizeof(s->arg[0])))
		return cli_usage_error("too many --set options");
	s->seed[s->n] = seed;
	s->arg[s->n++] = arg;
	return 0;
}

int cli_load_scenario_sets(const char *path, const struct cli_sets *s, struct scenario_file *f)
{
	char err[512];

	if (cli_load_scenario(path, f))
		return 2;
	for (int i = 0; i < s->n; i++) {
		char kv[300];

		/* --seed N is --set seed=N */
		snprintf(kv, sizeof(kv), "%s%s", s->seed[i] ? "seed=" : "", s->arg[i]);
		if (scenario_set(f, kv, err, sizeof(err))) {
			fprintf(stderr, "schedscope: %s\n", err);
			scenario_free(f);
			return 2;
		}
	}
	return 0;
}
