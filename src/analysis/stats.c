// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task and per-CPU statistics over a window, computed the way a tracer
 * would from sched_switch/sched_wakeup: every interval is clipped to
 * [from, to), every count is taken only for events inside it.
 *
 * This listener sees every event of every run (benchmarks included), so the
 * per-event work is O(1) with no allocation: a switch on the type, two array
 * lookups and a few additions.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/api/scenario.h"
#include "src/base/mem.h"
#include "src/format/expect.h"
#include "stats.h"

#define NO_WAKEUP (~0ULL)

enum { TS_SLEEPING, TS_WAITING, TS_RUNNING };

int stats_init(struct stats *st, int nr_tasks, int nr_cpus, u64 from, u64 to)
{
	memset(st, 0, sizeof(*st));
	if (nr_tasks < 0 || nr_cpus < 0 || from > to)
		return -1;
	st->task = xcalloc((size_t)nr_tasks, sizeof(*st->task));
	st->cpu = xcalloc((size_t)nr_cpus, sizeof(*st->cpu));
	st->nr_tasks = nr_tasks;
	st->nr_cpus = nr_cpus;
	st->from = from;
	st->to = to;

	for (int i = 0; i < nr_tasks; i++) {
		st->task[i].state = TS_SLEEPING;
		st->task[i].woken_at = NO_WAKEUP;
		st->task[i].cpu = -1;
	}
	/* A CPU is idle from time 0 until its first switch: curr_pid 0, since 0. */
	return 0;
}

void stats_init_scenario(struct stats *st, const struct sched_scenario *sc, u64 from, u64 to)
{
	int nr = sc->nr_groups ? sc->nr_groups : 1;

	/* a scenario's counts are sane and its windows were checked where they were parsed */
	if (stats_init(st, sc->nr_tasks, sc->topo->nr_cpus, from, to) < 0)
		abort();
	st->group = xcalloc((size_t)nr, sizeof(*st->group));
	st->group_name = xcalloc((size_t)nr, sizeof(*st->group_name));
	st->task_group = xcalloc((size_t)sc->nr_tasks, sizeof(*st->task_group));
	st->nr_groups = nr;
	for (int g = 0; g < nr; g++) {
		st->group[g].parent = g ? sc->group[g].parent : -1;
		st->group_name[g] = sc->nr_groups ? sc->group[g].path : "/";
	}
	for (int i = 0; i < sc->nr_tasks; i++) {
		const struct sched_program *prog = sc->task[i].prog;

		st->task_group[i] = sc->task[i].group;
		for (int k = 0; prog && k < prog->nr_insns && !st->task[i].logs; k++)
			st->task[i].logs = prog->insn[k].op == PROG_LOG;
	}
}

void stats_free(struct stats *st)
{
	free(st->task);
	free(st->cpu);
	free(st->group);
	free(st->group_name);
	free(st->task_group);
	memset(st, 0, sizeof(*st));
}

/* Length of [a, b) that falls inside the window. */
static inline u64 window_overlap(const struct stats *st, u64 a, u64 b)
{
	u64 lo = MAX(a, st->from), hi = MIN(b, st->to);

	return hi > lo ? hi - lo : 0;
}

static inline bool in_window(const struct stats *st, u64 t)
{
	return t >= st->from && t < st->to;
}

static inline struct task_stats *task_of(struct stats *st, s32 pid)
{
	return pid >= 1 && pid <= st->nr_tasks ? &st->task[pid - 1] : NULL;
}

/* ---- the latency histogram ---- */

/*
 * Values below LAT_SUB get a bucket each; above, octave k >= 1 covers
 * [2^(k+3), 2^(k+4)) in LAT_SUB equal steps, so a bucket is never wider
 * than 1/16 of its lower bound.
 */
static inline unsigned lat_bucket(u64 v)
{
	if (v < LAT_SUB)
		return (unsigned)v;

	unsigned msb = 63 - (unsigned)__builtin_clzll(v);
	unsigned octave = msb - 3;

	if (octave >= LAT_OCTAVES)
		return LAT_OCTAVES * LAT_SUB - 1;
	return octave * LAT_SUB + (unsigned)((v >> (msb - 4)) & (LAT_SUB - 1));
}

u64 lat_bucket_lower(unsigned b)
{
	unsigned octave = b / LAT_SUB, sub = b % LAT_SUB;

	if (octave == 0)
		return sub;
	return (1ULL << (octave + 3)) + (u64)sub * (1ULL << (octave - 1));
}

/* The largest value that lands in bucket b (the last one takes everything above). */
static u64 lat_bucket_upper(unsigned b)
{
	if (b == LAT_OCTAVES * LAT_SUB - 1)
		return UINT64_MAX;
	return lat_bucket_lower(b + 1) - 1;
}

void lat_hist_add(struct lat_hist *h, u64 v)
{
	h->bucket[lat_bucket(v)]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

/* Nearest rank: the smallest sample with at least pct % of samples at or below it. */
static u64 lat_hist_percentile(const struct lat_hist *h, unsigned pct)
{
	u64 rank = (h->count * pct + 99) / 100;
	u64 seen = 0;

	if (rank == 0)
		rank = 1;
	for (unsigned b = 0; b < LAT_OCTAVES * LAT_SUB; b++) {
		seen += h->bucket[b];
		if (seen >= rank)
			return MIN(lat_bucket_upper(b), h->max);
	}
	return h->max;
}

u64 lat_hist_value(const struct lat_hist *h, int stat)
{
	if (!h->count)
		return 0;
	switch (stat) {
	case STAT_P50:
		return lat_hist_percentile(h, 50);
	case STAT_P99:
		return lat_hist_percentile(h, 99);
	case STAT_MAX:
		return h->max;
	}
	return 0;
}

/* ---- task state: sleeping -> waiting -> running ---- */

/* Account the interval the task has spent in its current state up to t. */
static inline void task_close(struct stats *st, struct task_stats *ts, u64 t)
{
	if (t <= ts->since)
		return;
	if (ts->state == TS_RUNNING) {
		u64 ran = window_overlap(st, ts->since, t);

		ts->cpu_ns += ran;
		/* cpu.stat usage counts every level the task is below */
		if (st->nr_groups)
			for (int g = st->task_group[ts - st->task]; g >= 0; g = st->group[g].parent)
				st->group[g].usage_ns += ran;
	} else if (ts->state == TS_WAITING)
		ts->wait_ns += window_overlap(st, ts->since, t);
	ts->since = t;
}

static inline void task_set_state(struct stats *st, struct task_stats *ts, int state, u64 t)
{
	task_close(st, ts, t);
	ts->state = state;
	ts->since = t;
}

static void on_wakeup(struct stats *st, const struct sched_event *ev)
{
	struct task_stats *ts = task_of(st, ev->wake.pid);

	if (!ts)
		return;
	if (in_window(st, ev->time))
		ts->wakeups++;
	/*
	 * A wakeup of a task that is still on its CPU (woken before it got to
	 * block) starts no wait, and must not leave a pending sample that its
	 * next preemption would turn into a bogus latency. Of several wakeups
	 * before a switch-in, the first one counts: that is when it began to
	 * wait.
	 */
	if (ts->state == TS_RUNNING)
		return;
	if (ts->state == TS_SLEEPING)
		task_set_state(st, ts, TS_WAITING, ev->time);
	if (ts->woken_at == NO_WAKEUP)
		ts->woken_at = ev->time;
	if (ev->wake.target_cpu >= 0)
		ts->cpu = ev->wake.target_cpu;
}

/* ---- rt-app's periods ---- */

static void period_close(struct stats *st, struct task_stats *ts, u64 t)
{
	struct period_stats *ps = &ts->per;
	struct period_row *r = &ps->row;

	r->end = t;
	r->wu_lat = r->missed ? 0 : t - ps->expires;
	ps->pending = false;
	if (in_window(st, t)) {
		u64 period = r->end - r->start;

		if (!ps->periods || r->slack < ps->slack_min)
			ps->slack_min = r->slack;
		ps->periods++;
		ps->missed += r->missed;
		ps->period_sum += period;
		ps->period_max = MAX(ps->period_max, period);
		ps->run_sum += r->run;
		ps->run_max = MAX(ps->run_max, r->run);
		ps->slack_sum += r->slack;
		ps->wu_lat_sum += r->wu_lat;
		ps->wu_lat_max = MAX(ps->wu_lat_max, r->wu_lat);
		if (st->period_fn && !ts->logs)
			st->period_fn(st->period_ctx, (int)(ts - st->task), r);
	}
	/* a loop of a phase sums its timers */
	ts->loop.slack = r->slack;
	ts->loop.c_period += r->c_period;
	ts->loop.wu_lat += r->wu_lat;
	r->start = t;
}

/* A `log`: one loop of an rt-app phase ended; the next begins. */
static void on_log(struct stats *st, const struct sched_event *ev)
{
	struct task_stats *ts = task_of(st, ev->log.pid);
	struct loop_row *l;

	if (!ts)
		return;
	l = &ts->loop;
	if (st->period_fn && in_window(st, ev->time)) {
		struct period_row r = {
			.start = l->start,
			.end = ev->time,
			.run = ev->log.run_wall - l->run_wall,
			.slack = l->slack,
			.wu_lat = l->wu_lat,
			.c_period = l->c_period,
			.c_duration = ev->log.run_asked - l->run_asked,
		};

		st->period_fn(st->period_ctx, (int)(ts - st->task), &r);
	}
	*l = (struct loop_row){ .started = true,
				.start = ev->time,
				.run_wall = ev->log.run_wall,
				.run_asked = ev->log.run_asked };
}

/* A task reached its timer: the period's run and slack are known; it ends when the task runs again. */
static void on_timer(struct stats *st, const struct sched_event *ev)
{
	struct task_stats *ts = task_of(st, ev->timer.pid);
	struct period_stats *ps;

	if (!ts)
		return;
	ps = &ts->per;
	ps->row.run = ev->timer.sum_exec - MIN(ps->last_exec, ev->timer.sum_exec);
	ps->last_exec = ev->timer.sum_exec;
	ps->row.slack = ev->timer.slack;
	ps->row.c_period = ev->timer.period;
	ps->row.missed = ev->timer.missed;
	ps->expires = ev->timer.expires;
	if (ev->timer.missed)
		period_close(st, ts, ev->time);
	else
		ps->pending = true;
}

static void on_switch(struct stats *st, const struct sched_event *ev)
{
	u64 t = ev->time;
	bool inside = in_window(st, t);
	struct task_stats *prev = task_of(st, ev->sw.prev_pid);
	struct task_stats *next = task_of(st, ev->sw.next_pid);

	if (prev) {
		bool runnable = ev->sw.prev_state == TASK_STATE_R;

		task_set_state(st, prev, runnable ? TS_WAITING : TS_SLEEPING, t);
		if (runnable && inside)
			prev->preemptions++;
	}
	if (next) {
		if (!next->loop.started) {
			next->loop.started = true;
			next->loop.start = t;
		}
		if (next->per.pending)
			period_close(st, next, t);
		task_set_state(st, next, TS_RUNNING, t);
		if (inside) {
			next->slices++;
			if (next->woken_at != NO_WAKEUP)
				lat_hist_add(&next->lat, t - next->woken_at);
		}
		next->woken_at = NO_WAKEUP;
		next->cpu = ev->cpu;
	}
	if (ev->cpu >= 0 && ev->cpu < st->nr_cpus) {
		struct cpu_stats *cs = &st->cpu[ev->cpu];

		if (t > cs->since) {
			if (cs->curr_pid > 0)
				cs->busy_ns += window_overlap(st, cs->since, t);
			else
				cs->idle_ns += window_overlap(st, cs->since, t);
			cs->since = t;
		}
		cs->curr_pid = ev->sw.next_pid;
		if (inside)
			cs->switches++;
	}
}

/* A wakeup placement: ttwu_stat()'s counters, on the waker's CPU. */
static void on_select(struct stats *st, const struct sched_event *ev)
{
	struct cpu_stats *cs;

	if (!(ev->select.wake_flags & SELECT_WF_TTWU) || ev->cpu < 0 || ev->cpu >= st->nr_cpus)
		return;		/* forks are not ttwu */
	cs = &st->cpu[ev->cpu];
	cs->ttwu_count++;
	if (ev->select.new_cpu == ev->cpu)
		cs->ttwu_local++;
	else
		cs->ttwu_wake_remote++;
	if (ev->select.affine == WA_IDLE_THIS || ev->select.affine == WA_SYNC_THIS ||
	    ev->select.affine == WA_WEIGHT_THIS)
		cs->ttwu_move_affine++;
}

/* One load_balance() outcome, counted as the kernel's schedstats count it. */
static void on_balance(struct stats *st, const struct sched_event *ev)
{
	struct lb_level_stats *l;
	int idle = ev->lb.idle, d = ev->lb.depth;

	if (ev->cpu < 0 || ev->cpu >= st->nr_cpus || d >= STATS_MAX_LEVELS || idle >= CPU_MAX_IDLE_TYPES)
		return;
	l = &st->cpu[ev->cpu].lb[d];
	st->cpu[ev->cpu].nr_levels = MAX(st->cpu[ev->cpu].nr_levels, d + 1);
	if (ev->lb.outcome == LB_ACTIVE_PUSHED || ev->lb.outcome == LB_ACTIVE_FAILED) {
		l->alb_count++;
		if (ev->lb.outcome == LB_ACTIVE_PUSHED)
			l->alb_pushed++;
		else
			l->alb_failed++;
		return;
	}
	l->lb_count[idle]++;
	switch (ev->lb.outcome) {
	case LB_NOBUSYG:
		l->lb_nobusyg[idle]++;
		l->lb_balanced[idle]++;
		break;
	case LB_NOBUSYQ:
		l->lb_nobusyq[idle]++;
		l->lb_balanced[idle]++;
		break;
	case LB_BALANCED:
		l->lb_balanced[idle]++;
		break;
	case LB_ALL_PINNED:
		l->lb_imbalance[idle] += (u64)ev->lb.imbalance;
		l->lb_balanced[idle]++;
		break;
	case LB_FAILED:
		l->lb_imbalance[idle] += (u64)ev->lb.imbalance;
		l->lb_failed[idle]++;
		break;
	case LB_MOVED:
		l->lb_imbalance[idle] += (u64)ev->lb.imbalance;
		l->lb_gained[idle] += ev->lb.nr_moved;
		l->lb_hot_gained[idle] += ev->lb.nr_hot_moved;
		break;
	default:
		break;
	}
}

/* cpu.stat: periods and bursts from the refills, throttled time from the unthrottles. */
static void on_bandwidth(struct stats *st, const struct sched_event *ev)
{
	struct group_stats *gs;

	if (!in_window(st, ev->time) || ev->bw.group < 0 || ev->bw.group >= st->nr_groups)
		return;
	gs = &st->group[ev->bw.group];
	switch (ev->type) {
	case EV_CFS_THROTTLE:
		gs->throttles++;
		break;
	case EV_CFS_UNTHROTTLE:
		gs->throttled_ns += ev->bw.extra;
		break;
	default:
		gs->nr_periods++;
		if (ev->bw.extra)
			gs->nr_throttled++;
		if (ev->bw.burst) {
			gs->nr_bursts++;
			gs->burst_ns += ev->bw.burst;
		}
		break;
	}
}

void stats_event(void *arg, const struct sched_event *ev)
{
	struct stats *st = arg;
	struct task_stats *ts;

	if (in_window(st, ev->time))
		st->events++;

	switch (ev->type) {
	case EV_SCHED_SWITCH:
		on_switch(st, ev);
		break;
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		on_wakeup(st, ev);
		/* a new task's first period starts when it is forked */
		if (ev->type == EV_SCHED_WAKEUP_NEW && (ts = task_of(st, ev->wake.pid)))
			ts->per.row.start = ev->time;
		break;
	case EV_PROG_TIMER:
		on_timer(st, ev);
		break;
	case EV_PROG_LOG:
		on_log(st, ev);
		break;
	case EV_SELECT_RQ:
		if (in_window(st, ev->time))
			on_select(st, ev);
		break;
	case EV_LOAD_BALANCE:
		if (in_window(st, ev->time))
			on_balance(st, ev);
		break;
	case EV_HERD:
		if (in_window(st, ev->time) && ev->herd.cause < NR_HERD_CAUSES)
			st->herds[ev->herd.cause]++;
		break;
	case EV_EXT_DISPATCH:
		if (in_window(st, ev->time) && ev->ext_dsp.op < NR_EXT_OPS)
			st->ext_dispatches[ev->ext_dsp.op]++;
		break;
	case EV_EXT_EXIT:
		if (in_window(st, ev->time) && ext_exit_kind_index(ev->ext_exit.kind) >= 0)
			st->ext_exits[ext_exit_kind_index(ev->ext_exit.kind)]++;
		break;
	case EV_SCHED_MIGRATE_TASK:
		if (in_window(st, ev->time) && ev->migrate.reason < NR_MIGRATE_REASONS)
			st->migrations[ev->migrate.reason]++;
		ts = task_of(st, ev->migrate.pid);
		if (ts) {
			if (in_window(st, ev->time))
				ts->migrations++;
			ts->cpu = ev->migrate.dest_cpu;
		}
		break;
	case EV_SCHED_PROCESS_FORK:
		ts = task_of(st, ev->fork.child_pid);
		if (ts)
			ts->cpu = ev->cpu;
		break;
	case EV_COMMAND:
		/* a task changing group charges its past time to the old one first */
		if (ev->command.kind == CMD_MOVE_TASK && st->nr_groups && ev->command.task >= 0 &&
		    ev->command.task < st->nr_tasks && ev->command.key >= 0 && ev->command.key < st->nr_groups) {
			task_close(st, &st->task[ev->command.task], ev->time);
			st->task_group[ev->command.task] = ev->command.key;
		}
		break;
	case EV_CFS_THROTTLE:
	case EV_CFS_UNTHROTTLE:
	case EV_CFS_PERIOD:
		on_bandwidth(st, ev);
		break;
	case EV_RT_THROTTLE:
		if (in_window(st, ev->time) && ev->cpu >= 0 && ev->cpu < st->nr_cpus)
			st->cpu[ev->cpu].rt_throttles++;
		break;
	case EV_DL_THROTTLE:
	case EV_DL_MISS:
		if (!in_window(st, ev->time))
			break;
		if (ev->dl.pid == 0) {
			if (ev->type == EV_DL_THROTTLE && ev->cpu >= 0 && ev->cpu < st->nr_cpus)
				st->cpu[ev->cpu].fair_server_throttles++;
		} else if ((ts = task_of(st, ev->dl.pid))) {
			if (ev->type == EV_DL_THROTTLE)
				ts->dl_throttles++;
			else
				ts->dl_misses++;
		}
		break;
	case EV_SCHED_STAT_RUNTIME:
		ts = task_of(st, ev->runtime.pid);
		if (ts && in_window(st, ev->time))
			ts->runtime_ns += ev->runtime.runtime;
		break;
	case EV_IRQ_EXIT:
	case EV_STEAL:
		if (in_window(st, ev->time) && ev->cpu >= 0 && ev->cpu < st->nr_cpus) {
			st->cpu[ev->cpu].irq_ns += ev->intr.irq_ns;
			st->cpu[ev->cpu].steal_ns += ev->intr.steal_ns;
		}
		break;
	default:
		/* sched_waking changes nothing until the wakeup lands. */
		break;
	}
}

void stats_finish(struct stats *st, u64 now)
{
	u64 end = MIN(now, st->to);

	/* Moving `since` forward makes a second call (or later events) count nothing twice. */
	for (int i = 0; i < st->nr_tasks; i++)
		task_close(st, &st->task[i], end);
	for (int c = 0; c < st->nr_cpus; c++) {
		struct cpu_stats *cs = &st->cpu[c];

		if (end <= cs->since)
			continue;
		if (cs->curr_pid > 0)
			cs->busy_ns += window_overlap(st, cs->since, end);
		else
			cs->idle_ns += window_overlap(st, cs->since, end);
		cs->since = end;
	}
	st->end = end;
}
