// SPDX-License-Identifier: GPL-2.0
/*
 * schedscope import INPUT [-o FILE]: a recorded trace or an rt-app workload
 * into a scenario. This file reads the options, tells the input's format,
 * and hands the text to that format's importer; the output is written whole
 * or not at all.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "src/base/mem.h"
#include "src/base/outfile.h"
#include "src/format/scenario_file.h"
#include "src/import/import_rtapp.h"
#include "src/import/import_trace.h"

enum input_format { IN_AUTO = -1, IN_FTRACE = TRACE_FTRACE, IN_TRACE_CMD = TRACE_TRACE_CMD, IN_PERF = TRACE_PERF, IN_JSON };

/*
 * The largest input import reads (the biggest real traces in tests/ are a
 * few MB; a day of a busy machine's sched events is well under it).
 */
#define IMPORT_MAX_INPUT ((size_t)1 << 30)

/*
 * The whole input ("-" is stdin), at most IMPORT_MAX_INPUT bytes of text:
 * a NUL byte (/dev/zero, /dev/urandom, a binary trace.dat) ends it at once.
 */
static int read_input(const char *path, char **text, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL, *nul;

	if (!f)
		goto fail;
	for (;;) {
		size_t got;

		buf = xrealloc(buf, cap);
		got = fread(buf + n, 1, cap - n - 1, f);
		nul = memchr(buf + n, '\0', got);
		n += got;
		if (nul) {
			fprintf(stderr,
				"schedscope: %s: byte %zu is NUL: not a text trace or JSON (a trace-cmd .dat "
				"file is read with `trace-cmd report` first)\n",
				path, (size_t)(nul - buf) + 1);
			goto refused;
		}
		if (n < cap - 1)
			break;
		if (n >= IMPORT_MAX_INPUT) {
			fprintf(stderr, "schedscope: %s: larger than %zu MiB, the most import reads\n", path,
				IMPORT_MAX_INPUT >> 20);
			goto refused;
		}
		cap = MIN(cap * 2, IMPORT_MAX_INPUT + 2);
	}
	if (ferror(f))
		goto fail;
	if (f != stdin)
		fclose(f);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
fail:
	fprintf(stderr, "schedscope: %s: %s\n", path, strerror(errno ? errno : EIO));
refused:
	if (f && f != stdin)
		fclose(f);
	free(buf);
	return 2;
}

static bool starts_with(const char *s, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - s) >= n && !memcmp(s, prefix, n);
}

/*
 * The format the first lines show: JSON opens with '{' or '[' (an rt-app
 * file maybe after comments); trace-cmd report opens with "cpus=N" (after
 * "version = N" in old releases); perf script names events "sched:...";
 * anything else is read as ftrace text.
 */
static enum input_format detect_format(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	/* rt-app files may open with a comment, as json-c allows */
	if (import_rtapp_detect(text, len))
		return IN_JSON;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p < end && (*p == '{' || *p == '['))
		return IN_JSON;
	for (int lines = 0; p < end && lines < 50; lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		if (starts_with(p, e, "cpus=") || starts_with(p, e, "version = "))
			return IN_TRACE_CMD;
		const char *ev = *p != '#' ? memmem(p, (size_t)(e - p), " sched:sched_", 13) : NULL;

		if (ev && ev > p && (ev[-1] == ':' || ev[-1] == ' '))
			return IN_PERF;
		p = e + 1;
	}
	return IN_FTRACE;
}

static int parse_format(const char *s)
{
	if (!strcmp(s, "rtapp"))
		return IN_JSON;
	for (int f = TRACE_FTRACE; f <= TRACE_PERF; f++)
		if (!strcmp(s, trace_format_names[f]))
			return f;
	return IN_AUTO;
}

/*
 * An rt-app workload: the scenario in *scn (NUL-terminated); its warnings
 * reach stderr only when the import succeeds. 0, or -1 with err set.
 */
static int import_json(const char *name, const char *text, size_t len, const struct import_rtapp_opts *ro,
		       char **scn, char *err, size_t errlen)
{
	char *warnings = NULL;
	size_t scn_len = 0, warn_len = 0;
	FILE *out = open_memstream(scn, &scn_len), *warn = open_memstream(&warnings, &warn_len);
	int r = -1;

	if (out && warn)
		r = import_rtapp(name, text, len, ro, out, warn, err, errlen);
	else
		snprintf(err, errlen, "%s: out of memory", name);
	if (out)
		fclose(out);
	if (warn)
		fclose(warn);
	if (r >= 0)
		fwrite(warnings, 1, warn_len, stderr);
	free(warnings);
	if (r < 0) {
		free(*scn);
		*scn = NULL;
		return -1;
	}
	return 0;
}

/* The scenario, whole or not at all (src/base/outfile.h). */
static int write_output(const char *path, const char *text)
{
	struct outfile o;

	if (outfile_open(&o, path))
		return 2;
	fputs(text, o.f);
	return outfile_commit(&o) ? 2 : 0;
}

struct import_opts {
	struct import_trace_opts t;
	struct import_rtapp_opts rt;
	const char *output, *input;
	int format;
};

/* 0 taken, 2 refused (printed). */
static int import_option(int c, struct import_opts *o)
{
	char *e;
	long h;

	switch (c) {
	case 'o':
		o->output = optarg;
		return 0;
	case 'F':
		o->format = parse_format(optarg);
		if (o->format == IN_AUTO)
			return cli_usage_error("--format: '%s' is not ftrace, trace-cmd, perf or rtapp",
					       optarg);
		return 0;
	case 'I':
		o->t.keep_idle = true;
		return 0;
	case 'T':
		o->t.keep_tracer = true;
		return 0;
	case 'P':
		o->t.pin = true;
		return 0;
	case 'W':
		o->rt.workgen = true;
		return 0;
	case 'L':
		o->t.leave_out = optarg;
		return 0;
	case 'C':
		h = strtol(optarg, &e, 10);
		if (!*optarg || *e || h < 0 || h > 65535)
			return cli_usage_error(
				"--cgroup-root: '%s' is not a hierarchy number (see /proc/cgroups)", optarg);
		o->t.has_cgroup_root = true;
		o->t.cgroup_root = (int)h;
		return 0;
	}
	return cli_usage_error("import: bad option");
}

static int parse_import_args(int argc, char **argv, struct import_opts *o)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "keep-idle", no_argument, NULL, 'I' },
		{ "keep-tracer", no_argument, NULL, 'T' },
		{ "pin", no_argument, NULL, 'P' },
		{ "cgroup-root", required_argument, NULL, 'C' },
		{ "workgen", no_argument, NULL, 'W' },
		{ "leave-out", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		rc = import_option(c, o);
		if (rc)
			return rc;
	}
	if (optind + 1 != argc)
		return cli_usage_error("import takes one input file (- for stdin)");
	o->input = argv[optind];
	return 0;
}

/* The input made into scenario text (*scn); 2 (printed) if it cannot be. */
static int import_convert(struct import_opts *o, char **scn)
{
	char *text, err[1024];
	size_t len;
	int rc;

	if (read_input(o->input, &text, &len))
		return 2;
	if (o->format == IN_AUTO)
		o->format = detect_format(text, len);
	if (o->format == IN_JSON)
		rc = import_json(o->input, text, len, &o->rt, scn, err, sizeof(err));
	else
		rc = import_trace(o->input, text, len, (enum trace_format)o->format, &o->t, scn, stderr, err,
				  sizeof(err));
	free(text);
	if (rc) {
		fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	return 0;
}

/* What we write, run must read: checked before anything is written. */
static int check_reads_back(const struct import_opts *o, const char *scn)
{
	struct scenario_file back;
	char err[1024];

	if (scenario_parse(strcmp(o->output, "-") ? o->output : "imported.scn", scn, strlen(scn), &back, err,
			   sizeof(err)) < 0) {
		fprintf(stderr, "schedscope: %s: the scenario made of it would not read back: %s\n", o->input,
			err);
		return 2;
	}
	scenario_free(&back);
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct import_opts o = { .output = "-", .format = IN_AUTO };
	char *scn = NULL;
	int rc = parse_import_args(argc, argv, &o);

	if (rc || (rc = import_convert(&o, &scn)))
		return rc;
	rc = check_reads_back(&o, scn);
	if (!rc)
		rc = write_output(o.output, scn);
	free(scn);
	return rc;
}
