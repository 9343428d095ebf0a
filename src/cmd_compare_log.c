// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope compare-log REAL SIMULATED`: rt-app's own per-thread logs of
 * a real run against those of a replay (`run --periods`): the median and
 * the 95th percentile of each column per thread, side by side.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/mem.h"
#include "cli.h"
#include "src/analysis/period_log.h"

/* The columns that do not depend on when the run happened. */
static const enum period_col default_cols[] = { PC_RUN,	       PC_PERIOD,   PC_SLACK,
						PC_C_DURATION, PC_C_PERIOD, PC_WU_LAT };

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		buf = xgrow(buf, &cap, n + 4095, 1, 8192); /* room for 4 KiB more */
		size_t k = fread(buf + n, 1, cap - n, f);

		n += k;
		if (!k)
			break;
	}
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int read_file(struct period_log *l, const char *path, const char *thread)
{
	char err[512];
	size_t len;
	char *text = slurp(path, &len);
	int rc;

	if (!text) {
		fprintf(stderr, "schedscope: %s: %s\n", path, strerror(errno ? errno : EIO));
		return 2;
	}
	rc = period_log_read(l, path, thread, text, len, err, sizeof(err));
	free(text);
	if (rc)
		fprintf(stderr, "schedscope: %s\n", err);
	return rc ? 2 : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A folder is rt-app's logdir: each *.log a thread, named after what its
 * file name holds between the log_basename common to all and "-<idx>.log".
 * A file is one rt-app log (its thread after the first '-') or schedscope's.
 */
static int read_path(struct period_log *l, const char *path)
{
	struct stat st;
	char name[64];

	if (stat(path, &st)) {
		fprintf(stderr, "schedscope: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (!S_ISDIR(st.st_mode)) {
		const char *base = strrchr(path, '/'), *dash;

		base = base ? base + 1 : path;
		dash = strchr(base, '-');
		period_log_thread_name(path, dash ? (size_t)(dash - base) + 1 : 0, name, sizeof(name));
		return read_file(l, path, name);
	}

	DIR *d = opendir(path);
	char **files = NULL;
	size_t n = 0, cap = 0, prefix = 0;
	struct dirent *de;
	int rc = 0;

	if (!d) {
		fprintf(stderr, "schedscope: %s: %s\n", path, strerror(errno));
		return 2;
	}
	while ((de = readdir(d))) {
		size_t k = strlen(de->d_name);

		if (k < 5 || strcmp(de->d_name + k - 4, ".log"))
			continue;
		XGROW(files, cap, n);
		files[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "schedscope: %s: no rt-app log (*.log) in this folder\n", path);
		rc = 2;
	}
	if (!rc) {
		qsort(files, n, sizeof(*files), by_name);
		/* the log_basename and its '-': the prefix all share, up to its last '-' */
		prefix = strlen(files[0]);
		for (size_t i = 1; i < n; i++) {
			size_t k = 0;

			while (k < prefix && files[i][k] == files[0][k])
				k++;
			prefix = k;
		}
		if (n == 1)
			prefix = strchr(files[0], '-') ? (size_t)(strchr(files[0], '-') - files[0]) + 1 : 0;
		while (prefix && files[0][prefix - 1] != '-')
			prefix--;
	}
	for (size_t i = 0; !rc && i < n; i++) {
		char full[4096];

		snprintf(full, sizeof(full), "%s/%s", path, files[i]);
		period_log_thread_name(files[i], prefix, name, sizeof(name));
		rc = read_file(l, full, name);
	}
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return rc;
}

static int parse_columns(const char *s, enum period_col *cols, int *nr)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	*nr = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int c = 0;

		while (c < NR_PERIOD_COLS && strcmp(period_col_names[c], tok))
			c++;
		if (c == NR_PERIOD_COLS || *nr == NR_PERIOD_COLS)
			return -1;
		cols[(*nr)++] = (enum period_col)c;
	}
	return *nr ? 0 : -1;
}

/* (sim - real) / real in %, against 1 us when real is 0. */
static double diff_pct(double real, double sim)
{
	return (sim - real) / fmax(fabs(real), 1.0) * 100.0;
}

int cmd_compare_log(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "columns", required_argument, NULL, 'c' },
		{ "max-diff", required_argument, NULL, 'm' },
		{ "min-lines", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	enum period_col cols[NR_PERIOD_COLS];
	int nr_cols = (int)(sizeof(default_cols) / sizeof(default_cols[0])), c, rc, failed = 0;
	double max_diff = -1;
	long min_lines = 1;
	struct period_log real = { 0 }, sim = { 0 };

	memcpy(cols, default_cols, sizeof(default_cols));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		char *e;

		switch (c) {
		case 'c':
			if (parse_columns(optarg, cols, &nr_cols))
				return cli_usage_error(
					"--columns: '%s' is not a list of rt-app's log columns "
					"(run,period,slack,c_duration,c_period,wu_lat,...)",
					optarg);
			break;
		case 'm':
			max_diff = strtod(optarg, &e);
			if (e == optarg || (*e && strcmp(e, "%")) || max_diff < 0)
				return cli_usage_error("--max-diff: '%s' is not a percentage (e.g. 10%%)",
						       optarg);
			break;
		case 'n':
			min_lines = strtol(optarg, &e, 10);
			if (e == optarg || *e || min_lines < 1)
				return cli_usage_error("--min-lines: '%s' is not a count of 1 or more",
						       optarg);
			break;
		default:
			return cli_usage_error("compare-log: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 2 != argc)
		return cli_usage_error(
			"compare-log takes two logs: REAL SIMULATED (rt-app's logdir or files, "
			"or `run --periods` files)");
	rc = read_path(&real, argv[optind]);
	if (!rc)
		rc = read_path(&sim, argv[optind + 1]);
	if (rc)
		goto out;
	printf("%-16s %-10s %11s %10s %10s %8s %10s %10s %8s\n", "thread", "column", "lines", "real p50",
	       "sim p50", "diff", "real p95", "sim p95", "diff");
	for (int i = 0; i < real.nr; i++) {
		const struct period_thread *r = &real.thread[i], *s = period_log_find(&sim, r->name);

		if (!s) {
			printf("%-16s not in %s\n", r->name, argv[optind + 1]);
			failed += max_diff >= 0;
			continue;
		}
		for (int k = 0; k < nr_cols; k++) {
			double r50 = period_quantile(r, cols[k], 0.5), s50 = period_quantile(s, cols[k], 0.5);
			double r95 = period_quantile(r, cols[k], 0.95),
			       s95 = period_quantile(s, cols[k], 0.95);
			double d50 = diff_pct(r50, s50);
			/* a median of too few loops is not judged */
			bool judged = (long)r->n >= min_lines;
			bool bad = judged && max_diff >= 0 && fabs(d50) > max_diff;
			char lines[32];

			snprintf(lines, sizeof(lines), "%zu/%zu", r->n, s->n);
			printf("%-16s %-10s %11s %10.0f %10.0f %7.1f%% %10.0f %10.0f %7.1f%%%s\n",
			       k ? "" : r->name, period_col_names[cols[k]], lines, r50, s50, d50, r95, s95,
			       diff_pct(r95, s95),
			       bad	? "  > max"
			       : judged ? ""
					: "  (too few lines)");
			failed += bad;
		}
	}
	if (max_diff >= 0)
		printf("%d median%s differ by more than %g%%\n", failed, failed == 1 ? "" : "s", max_diff);
	rc = failed ? 1 : 0;
out:
	period_log_free(&real);
	period_log_free(&sim);
	return rc;
}
