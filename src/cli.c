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
