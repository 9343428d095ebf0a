// SPDX-License-Identifier: GPL-2.0
/* Shared pieces of the command-line front end: errors and loading scenarios. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "src/base/mem.h"
#include "src/format/lex.h"

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

int cli_load_scenario_with(const char *path, const struct scenario_overrides *ov, struct scenario_file *f,
			   char *err, size_t errlen)
{
	int rc;

	if (!strcmp(path, DEMO_SCENARIO_NAME) && access(path, F_OK))
		rc = scenario_parse_with("demo.scn", demo_scenario_text, strlen(demo_scenario_text), ov, f,
					 err, errlen);
	else
		rc = scenario_load_with(path, ov, f, err, errlen);
	return rc ? 2 : 0;
}

int cli_load_scenario(const char *path, struct scenario_file *f)
{
	char err[1024];

	if (cli_load_scenario_with(path, NULL, f, err, sizeof(err))) {
		fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	return 0;
}

int cli_parse_window(const char *s, u64 *from, u64 *to)
{
	const char *dots = strstr(s, "..");

	if (!dots || parse_duration(s, (size_t)(dots - s), from) != PARSE_OK ||
	    parse_duration(dots + 2, strlen(dots + 2), to) != PARSE_OK || *from >= *to)
		return -1;
	return 0;
}

int cli_parse_size(const char *s, size_t *out)
{
	static const char *const units[] = { "", "K", "M", "G", "T" };
	char *end;
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return -1;
	n = strtoull(s, &end, 10);
	for (int i = 0; i < (int)(sizeof(units) / sizeof(units[0])); i++) {
		size_t len = strlen(units[i]);

		if (strncasecmp(end, units[i], len))
			continue;
		/* 512M, 512MB and 512MiB are all 512 x 2^20 */
		if (end[len] && strcasecmp(end + len, "B") && (!i || strcasecmp(end + len, "iB")))
			continue;
		if (n > (SIZE_MAX >> (10 * i)))
			return -1;
		*out = (size_t)n << (10 * i);
		return 0;
	}
	return -1;
}

int cli_history_budget(const char *arg, size_t *out)
{
	if (cli_parse_size(arg, out) || !*out)
		return cli_usage_error("--history-budget: '%s' is not a size (e.g. 512M, 2G)", arg);
	return 0;
}

int cli_scenario_option(int c, const char *arg, struct cli_sets *sets, struct variant *v, size_t *budget)
{
	switch (c) {
	case CLI_OPT_SEED:
	case CLI_OPT_SET:
		return cli_add_set(sets, arg, c == CLI_OPT_SEED) ? 2 : 0;
	case CLI_OPT_PARAM:
		return cli_add_param(sets, arg) ? 2 : 0;
	case CLI_OPT_VS:
	case CLI_OPT_VS_SET:
		return cli_add_variant(v, arg, c == CLI_OPT_VS) ? 2 : 0;
	case CLI_OPT_VS_PARAM:
		return cli_add_vs_param(v, arg) ? 2 : 0;
	case CLI_OPT_HISTORY_BUDGET:
		return cli_history_budget(arg, budget) ? 2 : 0;
	}
	return -1;
}

int cli_add_set(struct cli_sets *s, const char *arg, bool seed)
{
	if (s->n == CLI_MAX_SETS)
		return cli_usage_error("too many --set options");
	/* --seed N is --set seed=N */
	snprintf(s->kv[s->n], sizeof(s->kv[s->n]), "%s%s", seed ? "seed=" : "", arg);
	s->n++;
	return 0;
}

int cli_add_param(struct cli_sets *s, const char *arg)
{
	if (s->nr_params == CLI_MAX_SETS)
		return cli_usage_error("too many --param options");
	if (!strchr(arg, '=') || arg[0] == '=')
		return cli_usage_error("--param: '%s' is not NAME=VALUE", arg);
	s->param[s->nr_params++] = arg;
	return 0;
}

int cli_load_scenario_sets(const char *path, const struct cli_sets *s, struct scenario_file *f)
{
	const char *set[CLI_MAX_SETS];
	struct scenario_overrides ov = { NULL, s->nr_params, s->param, s->n, set };
	char err[1024];

	for (int i = 0; i < s->n; i++)
		set[i] = s->kv[i];
	if (cli_load_scenario_with(path, &ov, f, err, sizeof(err))) {
		fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	return 0;
}

int cli_add_variant(struct variant *v, const char *arg, bool vs_file)
{
	char err[512];

	if ((vs_file ? variant_add_file : variant_add_set)(v, arg, err, sizeof(err)) < 0)
		return cli_usage_error("%s", err);
	return 0;
}

int cli_add_vs_param(struct variant *v, const char *arg)
{
	char err[512];

	if (variant_add_param(v, arg, err, sizeof(err)) < 0)
		return cli_usage_error("%s", err);
	return 0;
}

int cli_load_variant(const char *a_path, const struct cli_sets *s, const struct variant *v,
		     const struct scenario_file *a, struct scenario_file *b)
{
	struct cli_sets *bs = xmalloc(sizeof(*bs));
	char err[1024];
	int rc;

	/* B's --param: A's, then the variant's (the last one given wins) */
	*bs = *s;
	for (int i = 0; i < v->nr_params; i++)
		if (cli_add_param(bs, v->param[i])) {
			free(bs);
			return 2;
		}
	rc = cli_load_scenario_sets(variant_path(v, a_path), bs, b);
	free(bs);
	if (rc)
		return 2;
	if (variant_apply(v, a, b, err, sizeof(err)) < 0) {
		fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	return 0;
}
