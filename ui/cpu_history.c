// SPDX-License-Identifier: GPL-2.0
/* Per-CPU PELT history sampled along the event stream: see cpu_history.h. */
#include <stdlib.h>

#include "src/base/mem.h"
#include "cpu_history.h"

void cpu_history_init(struct cpu_history *h, struct sched_engine *e)
{
	size_t n = (size_t)sched_nr_cpus(e) * CPU_HIST_LEN;

	*h = (struct cpu_history){ .e = e, .nr_cpus = sched_nr_cpus(e) };
	h->s = xmalloc(n * sizeof(*h->s));
	for (size_t i = 0; i < n; i++)
		h->s[i] = (struct cpu_sample){ CPU_HIST_NONE, CPU_HIST_NONE };
}

void cpu_history_free(struct cpu_history *h)
{
	free(h->s);
	h->s = NULL;
}

static struct cpu_sample *slot(const struct cpu_history *h, int cpu, u64 bucket)
{
	return &h->s[(size_t)cpu * CPU_HIST_LEN + bucket % CPU_HIST_LEN];
}

static void sample(struct cpu_history *h, int cpu, u64 bucket)
{
	struct sched_cpu_info ci;

	sched_cpu_info(h->e, cpu, &ci);
	*slot(h, cpu, bucket) = (struct cpu_sample){ (u32)MIN(ci.avg.util_avg, (u64)CPU_HIST_NONE - 1),
						     (u32)MIN(ci.avg.load_avg, (u64)CPU_HIST_NONE - 1) };
}

void cpu_history_event(void *ctx, const struct sched_event *ev)
{
	struct cpu_history *h = ctx;
	u64 b = ev->time / CPU_HIST_BUCKET_NS;

	if (h->any && b == h->newest)
		return;
	/*
	 * A new bucket: every CPU as the engine has it now. The ticks update PELT
	 * without an event, so buckets no event fell in hold the last sample, as a
	 * counter track does between its samples.
	 */
	if (h->any && b > h->newest) {
		/* the ring holds the last CPU_HIST_LEN buckets: older gap buckets are never read */
		u64 from = b - h->newest > CPU_HIST_LEN ? b - CPU_HIST_LEN : h->newest;

		for (int c = 0; c < h->nr_cpus; c++) {
			struct cpu_sample last = *slot(h, c, h->newest);

			for (u64 k = from + 1; k < b; k++)
				*slot(h, c, k) = last;
		}
	}
	for (int c = 0; c < h->nr_cpus; c++)
		sample(h, c, b);
	h->newest = b;
	h->any = true;
}

void cpu_history_series(const struct cpu_history *h, int cpu, u64 to, u64 span, int n, u32 *util, u32 *load)
{
	u64 last = to / CPU_HIST_BUCKET_NS; /* the bucket of `to`, partly covered */
	u64 oldest = h->newest >= CPU_HIST_LEN ? h->newest - CPU_HIST_LEN + 1 : 0;
	s64 from = (s64)to - (s64)span;

	for (int i = 0; i < n; i++) {
		/* column i covers [t0, t1); before the run's start it has nothing */
		s64 t0 = from + (s64)(span * (u64)i / (u64)n),
		    t1 = from + (s64)(span * (u64)(i + 1) / (u64)n);
		u64 su = 0, sl = 0, cnt = 0;

		if (t1 > 0 && h->any) {
			u64 b0 = (u64)MAX(t0, 0) / CPU_HIST_BUCKET_NS,
			    b1 = MAX((u64)t1 / CPU_HIST_BUCKET_NS, b0 + 1);

			for (u64 b = MAX(b0, oldest); b < b1 && b <= MIN(h->newest, last); b++) {
				const struct cpu_sample *s = slot(h, cpu, b);

				if (s->util == CPU_HIST_NONE)
					continue;
				su += s->util;
				sl += s->load;
				cnt++;
			}
		}
		if (util)
			util[i] = cnt ? (u32)(su / cnt) : CPU_HIST_NONE;
		if (load)
			load[i] = cnt ? (u32)(sl / cnt) : CPU_HIST_NONE;
	}
}
