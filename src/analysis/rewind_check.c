// SPDX-License-Identifier: GPL-2.0
/* --rewind-check: see rewind_check.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/base/mem.h"
#include "rewind_check.h"

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

/* Its own generator: the targets must not disturb the engine's. */
static u64 next_rand(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* history_run_until(h, end), asking go_on after each step; false if it said stop. */
static bool replay_to(struct sched_history *h, u64 end, bool (*go_on)(void *ctx, struct sched_engine *e),
		      void *ctx)
{
	struct sched_engine *e = history_engine(h);

	while (!sched_finished(e) && sched_next_time(e) <= end) {
		history_step(h);
		if (go_on && !go_on(ctx, e))
			return false;
	}
	history_run_until(h, end);
	return true;
}

void rewind_check(struct sched_history *h, u64 end, int n, u64 seed, struct rewind_check_result *r,
		  bool (*go_on)(void *ctx, struct sched_engine *e), void *ctx)
{
	struct sched_engine *e = history_engine(h);
	size_t size = sched_state_size(e);
	void *final = xmalloc(size), *again = xmalloc(size);
	u64 *lat = xcalloc((size_t)n + 1, sizeof(*lat));
	u64 x = seed * 2654435761u + 1, before = history_mismatches(h);

	memset(r, 0, sizeof(*r));
	sched_state_save(e, final);
	for (r->targets = 0; r->targets < n; r->targets++) {
		u64 t = end ? next_rand(&x) % end : 0;
		u64 t0 = wall_ns();

		history_goto_time(h, t);
		lat[r->targets] = wall_ns() - t0;
		if (!replay_to(h, end, go_on, ctx)) {
			sched_state_restore(e, final); /* the state the run ended in, for the report */
			break;
		}
		sched_state_save(e, again);
		if (memcmp(final, again, size))
			r->state_diffs++;
	}
	n = r->targets;
	r->mismatches = history_mismatches(h) - before;
	if (n) {
		qsort(lat, (size_t)n, sizeof(*lat), cmp_u64);
		r->p50_ns = lat[(n - 1) / 2];
		r->p99_ns = lat[(n * 99 + 99) / 100 - 1];
		r->max_ns = lat[n - 1];
	}
	free(lat);
	free(final);
	free(again);
}
