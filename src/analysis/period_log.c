// SPDX-License-Identifier: GPL-2.0
/*
 * Reading rt-app's per-thread logs (period_log.h). rt-app 1.0 writes
 *
 *	"%4d %8lu %8lu %8lu %15llu %15llu %15llu %10ld %10lu %10lu %10lu"
 *
 * under "# Policy : ..." and "#idx perf run ..." lines; `schedscope run
 * --periods` writes the same after the task's name.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "period_log.h"
#include "src/base/mem.h"

const char *const period_col_names[NR_PERIOD_COLS] = {
	[PC_IDX] = "idx",	    [PC_PERF] = "perf",	    [PC_RUN] = "run",
	[PC_PERIOD] = "period",	    [PC_START] = "start",   [PC_END] = "end",
	[PC_REL_ST] = "rel_st",	    [PC_SLACK] = "slack",   [PC_C_DURATION] = "c_duration",
	[PC_C_PERIOD] = "c_period", [PC_WU_LAT] = "wu_lat",
};

__attribute__((format(printf, 5, 6))) static int fail(char *err, size_t errlen, const char *file,
						      unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%u:", file, line);

	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A name as a scenario task name, as the rt-app importer makes it: [A-Za-z0-9_-], others '_'. */
static void task_word(const char *s, size_t n, char *out, size_t len)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < len; i++) {
		char c = s[i];

		out[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
					   c == '_' || c == '-'
				   ? c
				   : '_';
	}
	out[k] = '\0';
}

void period_log_thread_name(const char *file, size_t prefix, char *out, size_t len)
{
	const char *base = strrchr(file, '/');
	const char *s, *e;
	size_t n;

	base = base ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".log"))
		n -= 4;
	s = base + (prefix < n ? prefix : 0);
	e = base + n;
	/* "-<idx>" */
	for (const char *p = e; p > s; p--) {
		if (p[-1] == '-') {
			if (p < e && p[0] >= '0' && p[0] <= '9' && strspn(p, "0123456789") == (size_t)(e - p))
				e = p - 1;
			break;
		}
		if (p[-1] < '0' || p[-1] > '9')
			break;
	}
	task_word(s, (size_t)(e - s), out, len);
}

struct period_thread *period_log_find(const struct period_log *l, const char *name)
{
	for (int i = 0; i < l->nr; i++)
		if (!strcmp(l->thread[i].name, name))
			return &l->thread[i];
	return NULL;
}

static struct period_thread *thread_get(struct period_log *l, const char *name)
{
	struct period_thread *t = period_log_find(l, name);

	if (t)
		return t;
	XGROW(l->thread, l->cap, l->nr);
	t = &l->thread[l->nr++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	return t;
}

static void add_row(struct period_thread *t, const double *v)
{
	size_t cap = t->cap;

	/* the columns share one capacity: each grows from it alike */
	for (int c = 0; c < NR_PERIOD_COLS; c++) {
		cap = t->cap;
		t->col[c] = xgrow(t->col[c], &cap, t->n, sizeof(*t->col[c]), 256);
		t->col[c][t->n] = v[c];
	}
	t->cap = cap;
	t->n++;
}

int period_log_read(struct period_log *l, const char *file, const char *thread, const char *text, size_t len,
		    char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	unsigned line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *q = p;
		char name[64], buf[512];
		double v[NR_PERIOD_COLS];
		int k = 0;

		line++;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		p = nl ? nl + 1 : end;
		if (q == e || *q == '#')
			continue;
		if ((size_t)(e - q) >= sizeof(buf))
			return fail(err, errlen, file, line, "1: a line longer than %zu bytes",
				    sizeof(buf) - 1);
		memcpy(buf, q, (size_t)(e - q));
		buf[e - q] = '\0';
		/* a name first: schedscope's file */
		char *s = buf, *tok;
		bool named = !((*s >= '0' && *s <= '9') || *s == '-');

		if (named) {
			size_t n = strcspn(s, " \t");

			task_word(s, n, name, sizeof(name));
			s += n;
		} else if (!thread) {
			return fail(err, errlen, file, line,
				    "1: an rt-app log line, but the file's name does not "
				    "say whose");
		} else {
			snprintf(name, sizeof(name), "%s", thread);
		}
		while ((tok = strtok(k ? NULL : s, " \t"))) {
			char *te;

			if (k == NR_PERIOD_COLS)
				return fail(err, errlen, file, line, "%d: more than %d columns",
					    (int)(tok - buf) + 1, NR_PERIOD_COLS);
			v[k] = strtod(tok, &te);
			if (*te || te == tok)
				return fail(err, errlen, file, line, "%d: '%s' is not a number",
					    (int)(tok - buf) + 1, tok);
			k++;
		}
		if (k != NR_PERIOD_COLS)
			return fail(err, errlen, file, line, "1: %d columns, rt-app's log has %d (%s)", k,
				    NR_PERIOD_COLS,
				    "idx perf run period start end rel_st slack c_duration c_period "
				    "wu_lat");
		add_row(thread_get(l, name), v);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double period_quantile(const struct period_thread *t, enum period_col c, double q)
{
	double *v, r;
	size_t k;

	if (!t || !t->n)
		return NAN;
	v = xmalloc(t->n * sizeof(*v));
	memcpy(v, t->col[c], t->n * sizeof(*v));
	qsort(v, t->n, sizeof(*v), cmp_double);
	/* nearest rank: the smallest value with at least q of the lines at or below it */
	k = (size_t)ceil(q * (double)t->n);
	r = v[k ? k - 1 : 0];
	free(v);
	return r;
}

void period_log_free(struct period_log *l)
{
	for (int i = 0; i < l->nr; i++)
		for (int c = 0; c < NR_PERIOD_COLS; c++)
			free(l->thread[i].col[c]);
	free(l->thread);
	l->thread = NULL;
	l->nr = 0;
	l->cap = 0;
}
