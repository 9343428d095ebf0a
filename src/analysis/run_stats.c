// SPDX-License-Identifier: GPL-2.0
/* The statistics of one run and its expects (run_stats.h). */
#include <stdlib.h>

#include "src/base/mem.h"
#include "expect_check.h"
#include "run_stats.h"

#define VERDICT_LEN 512

/* The statistics over from..to: one already made, or a new one. */
static int stats_for_window(struct run_stats *rs, const struct scenario_file *f, u64 from, u64 to)
{
	for (int k = 0; k < rs->n; k++)
		if (rs->st[k].from == from && rs->st[k].to == to)
			return k;
	stats_init_scenario(&rs->st[rs->n], &f->sc, from, to);
	return rs->n++;
}

void run_stats_init(struct run_stats *rs, const struct scenario_file *f, u64 from, u64 to, bool expects)
{
	int nr_expects = expects ? f->nr_expects : 0;

	rs->n = 0;
	rs->st = xcalloc((size_t)1 + nr_expects, sizeof(*rs->st));
	rs->expect_st = xcalloc((size_t)nr_expects, sizeof(*rs->expect_st));
	stats_for_window(rs, f, from, to);
	for (int i = 0; i < nr_expects; i++) {
		const struct expect *x = &f->expect[i];

		rs->expect_st[i] = x->has_window ? stats_for_window(rs, f, x->from, x->to) : 0;
	}
}

static void run_stats_event(void *ctx, const struct sched_event *ev)
{
	struct run_stats *rs = ctx;

	for (int i = 0; i < rs->n; i++)
		stats_event(&rs->st[i], ev);
}

sched_event_fn run_stats_listener(struct run_stats *rs, void **ctx)
{
	if (rs->n == 1) {
		*ctx = &rs->st[0];
		return stats_event;
	}
	*ctx = rs;
	return run_stats_event;
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
		const struct stats *st = &rs->st[rs->expect_st[i]];

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
	free(rs->expect_st);
	rs->st = NULL;
	rs->expect_st = NULL;
	rs->n = 0;
}
