/*
 * `schedscope import FILE [-o OUT] [--format rtapp]`: turn a workload
 * written for another tool into a scenario. The format comes from --format,
 * else from the content; each format is one importer with the same shape.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "import_rtapp.h"

/* The importers: how to recognise a format and convert it. */
static const struct importer_fmt {
	const char *name;
	int (*detect)(const char *text, size_t len);
	int (*convert)(const char *name, const char *text, size_t len, FILE *out, FILE *warn,
		       char *err, size_t errlen);
} formats[] = {
	{ "rtapp", import_rtapp_detect, import_rtapp },
};

static char *read_all(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!b) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				break;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

int cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out_path = "-", *format = NULL;
	const struct importer_fmt *fmt = NULL;
	char err[1024];
	size_t len;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:f:", opts, NULL)) != -1) {
		if (c == 'o')
			out_path = optarg;
		else if (c == 'f')
			format = optarg;
		else
			return cli_usage_error("import: bad option");
	}
	if (optind != argc - 1)
		return cli_usage_error("import needs one input file");
	for (size_t i = 0; format && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(format, formats[i].name))
			fmt = &formats[i];
	if (format && !fmt)
		return cli_usage_error("import: unknown format '%s' (rtapp)", format);

	const char *in = argv[optind];
	char *text = read_all(in, &len);
	if (!text) {
		fprintf(stderr, "schedscope: %s: %s\n", in, strerror(errno));
		return 2;
	}
	for (size_t i = 0; !fmt && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].detect(text, len))
			fmt = &formats[i];
	if (!fmt) {
		fprintf(stderr, "schedscope: %s: unknown input format (rt-app JSON is supported)\n", in);
		free(text);
		return 2;
	}

	/* written to memory first: a failed import leaves no half file and no stray warnings */
	char *scn = NULL, *warnings = NULL;
	size_t scn_len = 0, warn_len = 0;
	FILE *mem = open_memstream(&scn, &scn_len), *wmem = open_memstream(&warnings, &warn_len);
	if (!mem || !wmem) {
		free(text);
		fprintf(stderr, "schedscope: out of memory\n");
		return 2;
	}
	r = fmt->convert(in, text, len, mem, wmem, err, sizeof(err));
	fclose(mem);
	fclose(wmem);
	free(text);
	if (r < 0) {
		fprintf(stderr, "schedscope: %s\n", err);
		free(scn);
		free(warnings);
		return 2;
	}
	fwrite(warnings, 1, warn_len, stderr);
	free(warnings);
	FILE *out = strcmp(out_path, "-") ? fopen(out_path, "w") : stdout;
	if (!out || fwrite(scn, 1, scn_len, out) != scn_len || (out != stdout ? fclose(out) : fflush(out))) {
		fprintf(stderr, "schedscope: %s: %s\n", out_path, strerror(errno));
		free(scn);
		return 2;
	}
	free(scn);
	return 0;
}
