// SPDX-License-Identifier: GPL-2.0
/* The report of `schedscope compare` (compare_report.h). */
#include <math.h>
#include <stdio.h>

#include "src/base/json.h"
#include "compare_report.h"

/* A metric's value as the report prints it: share in percent, times in ms. */
static const char *value_text(char *buf, size_t n, int metric, double v, bool sign)
{
	const char *fmt = metric == MET_SHARE	   ? (sign ? "%+.2f%%" : "%.2f%%")
			  : metric_is_time(metric) ? (sign ? "%+.3fms" : "%.3fms")
						   : (sign ? "%+.1f" : "%.1f");
	double scaled = metric == MET_SHARE ? v * 100 : metric_is_time(metric) ? v / 1e6 : v;

	snprintf(buf, n, fmt, scaled);
	return buf;
}

static const char *change_text(char *buf, size_t n, double rel)
{
	if (isinf(rel))
		snprintf(buf, n, "%s", rel > 0 ? "+inf%" : "-inf%");
	else
		snprintf(buf, n, "%+.1f%%", rel);
	return buf;
}

static bool many_seeds(const struct compare_report *r)
{
	return r->c->nr_seeds > 1;
}

static void row_text(FILE *out, const struct compare_report *r, int row, int metric)
{
	const struct compare_row *cr = &r->c->row[row];
	struct compare_cell cell;
	char a[32], b[32], d[32], ch[32], lo[32], hi[32], ci[80];

	compare_cell(r->c, row, metric, &cell);
	if (!cell.s[0].n && !cell.s[1].n)
		return;
	fprintf(out, "%-16s %-12s %12s %12s", cr->name, metric_names[metric],
		cell.s[0].n ? value_text(a, sizeof(a), metric, cell.s[0].mean, false) : "-",
		cell.s[1].n ? value_text(b, sizeof(b), metric, cell.s[1].mean, false) : "-");
	if (!cell.has) {
		fputc('\n', out);
		return;
	}
	fprintf(out, " %12s %9s", value_text(d, sizeof(d), metric, cell.w.diff, true),
		change_text(ch, sizeof(ch), cell.rel));
	if (many_seeds(r) && cell.w.valid) {
		snprintf(ci, sizeof(ci), "[%s, %s]", value_text(lo, sizeof(lo), metric, cell.w.lo, true),
			 value_text(hi, sizeof(hi), metric, cell.w.hi, true));
		fprintf(out, "  %-27s %7.4f %s", ci, cell.w.p,
			cell.significant ? "significant" : "not significant");
	}
	fputc('\n', out);
}

static void fail_if_text(FILE *out, const struct compare_report *r)
{
	for (int i = 0; i < r->nr_fail_if; i++) {
		const struct diff_expr *x = &r->fail_if[i];
		int row = compare_find(r->c, x, 0);

		fprintf(out, "fail-if '%s': %s", x->text, row < 0 ? "does not hold" : "holds for");
		for (; row >= 0; row = compare_find(r->c, x, row + 1)) {
			struct compare_cell cell;
			char ch[32];

			compare_cell(r->c, row, x->metric, &cell);
			if (x->relative)
				change_text(ch, sizeof(ch), cell.rel);
			else
				value_text(ch, sizeof(ch), x->metric, cell.w.diff, true);
			fprintf(out, " %s (%s)", r->c->row[row].name, ch);
		}
		fputc('\n', out);
	}
}

void compare_report_text(FILE *out, const struct compare_report *r)
{
	fprintf(out, "%s (%s)\n%s (%s)\n", r->label[0], r->path[0], r->label[1], r->path[1]);
	if (r->seed_first == r->seed_last)
		fprintf(out, "seed %llu", (unsigned long long)r->seed_first);
	else
		fprintf(out, "seeds %llu..%llu: means, Welch's t-test on B - A",
			(unsigned long long)r->seed_first, (unsigned long long)r->seed_last);
	fprintf(out, ", window %.3f s .. %.3f s\n\n", (double)r->from / 1e9, (double)r->to / 1e9);
	if (r->diverged) {
		fprintf(out, "first divergence (seed %llu) at %.9f s:\n", (unsigned long long)r->seed_first,
			(double)r->div_time / 1e9);
		for (int s = 0; s < 2; s++)
			fprintf(out, "  %c: %s\n", "AB"[s],
				r -> event[s] ? r -> event[s] : "(no more decisions)");
	} else {
		fprintf(out, "no divergence (seed %llu): both runs decide the same to %.3f s\n",
			(unsigned long long)r->seed_first, (double)r->to / 1e9);
	}
	fprintf(out, "\n%-16s %-12s %12s %12s %12s %9s", "task/group", "metric", "A", "B", "diff", "change");
	if (many_seeds(r))
		fprintf(out, "  %-27s %7s %s", "[95% CI of diff]", "p", "verdict");
	fputc('\n', out);
	for (int row = 0; row < r->c->nr_rows; row++)
		for (int m = 0; m < NR_METRICS; m++)
			row_text(out, r, row, m);
	if (r->nr_fail_if)
		fputc('\n', out);
	fail_if_text(out, r);
}

static void cell_json(struct json_writer *j, const struct compare_report *r, int row, int metric)
{
	struct compare_cell cell;

	compare_cell(r->c, row, metric, &cell);
	if (!cell.s[0].n && !cell.s[1].n)
		return;
	jw_key(j, metric_names[metric]);
	jw_begin_object(j);
	for (int s = 0; s < 2; s++) {
		jw_key(j, s ? "b" : "a");
		if (cell.s[s].n)
			jw_double(j, cell.s[s].mean);
		else
			jw_null(j);
	}
	if (cell.has) {
		jw_kv_double(j, "diff", cell.w.diff);
		jw_kv_double(j, "change_pct", cell.rel);
		if (many_seeds(r) && cell.w.valid) {
			jw_key(j, "ci95");
			jw_begin_array(j);
			jw_double(j, cell.w.lo);
			jw_double(j, cell.w.hi);
			jw_end_array(j);
			jw_kv_double(j, "p", cell.w.p);
			jw_kv_bool(j, "significant", cell.significant);
		}
	}
	jw_end_object(j);
}

void compare_report_json(FILE *out, const struct compare_report *r)
{
	struct json_writer j;

	jw_init(&j, out, JW_PRETTY);
	jw_begin_object(&j);
	for (int s = 0; s < 2; s++) {
		jw_key(&j, s ? "b" : "a");
		jw_begin_object(&j);
		jw_kv_str(&j, "label", r->label[s] + 3);
		jw_kv_str(&j, "scenario", r->path[s]);
		jw_end_object(&j);
	}
	jw_key(&j, "seeds");
	jw_begin_array(&j);
	jw_u64(&j, r->seed_first);
	jw_u64(&j, r->seed_last);
	jw_end_array(&j);
	jw_kv_str(&j, "test", many_seeds(r) ? "welch" : "none");
	jw_key(&j, "window");
	jw_begin_object(&j);
	jw_kv_u64(&j, "from_ns", r->from);
	jw_kv_u64(&j, "to_ns", r->to);
	jw_end_object(&j);
	jw_key(&j, "divergence");
	if (r->diverged) {
		jw_begin_object(&j);
		jw_kv_u64(&j, "seed", r->seed_first);
		jw_kv_u64(&j, "time_ns", r->div_time);
		for (int s = 0; s < 2; s++) {
			jw_key(&j, s ? "b" : "a");
			if (r->event[s])
				jw_string(&j, r->event[s]);
			else
				jw_null(&j);
		}
		jw_end_object(&j);
	} else {
		jw_null(&j);
	}
	jw_key(&j, "rows");
	jw_begin_array(&j);
	for (int row = 0; row < r->c->nr_rows; row++) {
		jw_begin_object(&j);
		jw_kv_str(&j, r->c->row[row].group ? "group" : "task", r->c->row[row].name);
		for (int m = 0; m < NR_METRICS; m++)
			cell_json(&j, r, row, m);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_key(&j, "fail_if");
	jw_begin_array(&j);
	for (int i = 0; i < r->nr_fail_if; i++) {
		const struct diff_expr *x = &r->fail_if[i];

		jw_begin_object(&j);
		jw_kv_str(&j, "expr", x->text);
		jw_key(&j, "holds_for");
		jw_begin_array(&j);
		for (int row = compare_find(r->c, x, 0); row >= 0; row = compare_find(r->c, x, row + 1))
			jw_string(&j, r->c->row[row].name);
		jw_end_array(&j);
		jw_end_object(&j);
	}
	jw_end_array(&j);
	jw_end_object(&j);
	jw_finish(&j);
}

int compare_report_failed(const struct compare_report *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_fail_if; i++)
		n += compare_find(r->c, &r->fail_if[i], 0) >= 0;
	return n;
}
