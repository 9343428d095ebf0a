// SPDX-License-Identifier: GPL-2.0
/* The statistics of one run and its expects (run_stats.h). */
#include <stdlib.h>

#include "src/base/mem.h"
#include "expect_check.h"
#include "run_stats.h"

#define VERDICT_LEN 512

void run_stats_init(struct run_stats *rs, const struct scenario_file *f, u64 from, u64 to, bool expects)
{
	rs->n = 1 + (expects ? f->nr_expects : 0);
	rs->st = xcalloc((size_t)rs->n, sizeof(*rs->st));
	for (int i = 0; i < rs->n; i++) {
		const struct expect *x = i ? &f->expect[i - 1] : NULL;
		bool own = x && x->has_window;

		stats_init_scenario(&rs->st[i], &f->sc, own ? x->from : from, own ? x->to : to);
	}
}

void run_stats_event(void *ctx, const struct sched_event *ev)
{
	struct run_stats *rs = ctx;

	for (int i = 0; i < rs->n; i++)
		stats_event(&rs->st[i], ev);
}

void run_stats_finish(struct run_stats *rs, u64 now)
{
	for (int i = 0; i < rs->n; i++)
		stats_finish(&rs->st[i], now);
}

int run_stats_check(const struct run_stats *rs, const struct scenario_file *f, char **msg, bool *ok)
{
	int failed = 0;

	for (int i = 0; i < f->nr_expects; i++) {
		const struct expect *x = &f->expect[i];
		const struct stats *st = x->has_window ? &rs->st[1 + i] : &rs->st[0];

		msg[i] = xmalloc(VERDICT_LEN);
		ok[i] = expect_check(x, st, f->task_names, msg[i], VERDICT_LEN);
		failed += !ok[i];
	}
	return failed;
}

void run_stats_free(struct run_stats *rs)
{
	for (int i = 0; rs->st && i < rs->n; i++)
		stats_free(&rs->st[i]);
	free(rs->st);
	rs->st = NULL;
	rs->n = 0;
}
