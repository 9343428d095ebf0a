// SPDX-License-Identifier: GPL-2.0
/* A task's per-switch wait, scheduling delay and run time, as perf sched timehist: see timehist.h. */
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "timehist.h"

void timehist_init(struct timehist *th, int pid, int nr_cpus)
{
	memset(th, 0, sizeof(*th));
	th->pid = pid;
	th->nr_cpus = nr_cpus;
	th->cpu_last = xmalloc((size_t)nr_cpus * sizeof(*th->cpu_last));
	for (int i = 0; i < nr_cpus; i++)
		th->cpu_last[i] = TIMEHIST_NONE;
	th->last_time = th->ready_to_run = TIMEHIST_NONE;
}

void timehist_free(struct timehist *th)
{
	free(th->cpu_last);
	th->cpu_last = NULL;
}

/* timehist_update_runtime_stats(): t is the switch-out, tprev the CPU's switch before it. */
static void add_row(struct timehist *th, const struct sched_event *ev, u64 tprev)
{
	struct timehist_row *r = &th->row[th->nr % TIMEHIST_ROWS];
	u64 t = ev->time;

	*r = (struct timehist_row){ .time = t, .cpu = ev->cpu, .state = ev->sw.prev_state };
	if (tprev != TIMEHIST_NONE) {
		r->run = t - tprev;
		if (th->ready_to_run != TIMEHIST_NONE && th->ready_to_run <= tprev)
			r->delay = tprev - th->ready_to_run;
		if (th->last_time != TIMEHIST_NONE && th->last_time <= tprev)
			r->wait = tprev - th->last_time;
	}
	th->nr++;
	th->total_wait += r->wait;
	th->total_delay += r->delay;
	th->total_run += r->run;
	th->max_delay = MAX(th->max_delay, r->delay);
}

void timehist_feed(struct timehist *th, const struct sched_event *ev)
{
	switch (ev->type) {
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		if (ev->wake.pid == th->pid && th->ready_to_run == TIMEHIST_NONE)
			th->ready_to_run = ev->time;
		break;
	case EV_SCHED_SWITCH:
		if (ev->cpu < 0 || ev->cpu >= th->nr_cpus)
			break;
		if (ev->sw.prev_pid == th->pid && th->pid != 0) {
			add_row(th, ev, th->cpu_last[ev->cpu]);
			th->last_time = ev->time;
			th->ready_to_run = ev->sw.prev_state == TASK_STATE_R ? ev->time : TIMEHIST_NONE;
		}
		th->cpu_last[ev->cpu] = ev->time;
		break;
	}
}

const struct timehist_row *timehist_row(const struct timehist *th, u64 i)
{
	u64 first = th->nr > TIMEHIST_ROWS ? th->nr - TIMEHIST_ROWS : 0;

	return &th->row[(first + i) % TIMEHIST_ROWS];
}
