// SPDX-License-Identifier: GPL-2.0
/*
 * The task view: one task's scheduling state (policy, weight, vruntime,
 * lag, deadline, slice, eligibility), PELT averages, the kernel's counters,
 * its last switches as perf sched timehist prints them, and a wakeup-latency
 * histogram (sched_wakeup -> switched in), both computed from the event log. The histogram is kept incrementally: each frame feeds only
 * the events logged since the last one; a rewind or another task restarts it.
 */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "src/analysis/report.h"
#include "src/analysis/stats.h"
#include "src/analysis/timehist.h"
#include "format.h"
#include "search.h"
#include "sched/api/ext.h"
#include "table.h"
#include "ui.h"

/* The histogram's state, one per pane (each pane has its own run and task). */
struct task_lat {
	const struct sched_history *h;
	int pid;
	u64 fed;		/* events fed: [0, fed) */
	struct sched_event last;	/* the event at fed - 1, to notice another log */
	u64 woken_at;		/* pending wakeup, ~0 when none */
	bool running;
	struct lat_hist hist;
	struct timehist th; /* its switches, as perf sched timehist */
};

static void lat_reset(struct task_lat *lat, const struct sched_history *h, int pid, int nr_cpus)
{
	timehist_free(&lat->th);
	memset(lat, 0, sizeof(*lat));
	lat->h = h;
	lat->pid = pid;
	lat->woken_at = ~0ULL;
	timehist_init(&lat->th, pid, nr_cpus);
}

void task_lat_free(struct task_lat *lat)
{
	if (lat)
		timehist_free(&lat->th);
	free(lat);
}

static void lat_feed(struct task_lat *lat, const struct sched_event *ev)
{
	int pid = lat->pid;

	switch (ev->type) {
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		/* the first wakeup before a switch-in counts; none while still on the CPU */
		if (ev->wake.pid == pid && !lat->running && lat->woken_at == ~0ULL)
			lat->woken_at = ev->time;
		break;
	case EV_SCHED_SWITCH:
		if (ev->sw.prev_pid == pid)
			lat->running = false;
		if (ev->sw.next_pid == pid) {
			if (lat->woken_at != ~0ULL) {
				lat_hist_add(&lat->hist, ev->time - lat->woken_at);
			}
			lat->woken_at = ~0ULL;
			lat->running = true;
		}
		break;
	}
}

static void lat_update(struct pane *pn, int pid)
{
	if (!pn->task_lat)
		pn->task_lat = xcalloc(1, sizeof(*pn->task_lat));
	struct task_lat *lat = pn->task_lat;

	u64 upto = MIN(history_nr_logged(pn->run->h), sched_nr_events(pn->run->e));
	const struct sched_event *last = lat->fed ? history_event(pn->run->h, lat->fed - 1) : NULL;

	if (lat->h != pn->run->h || lat->pid != pid || lat->fed > upto ||
	    (lat->fed && (!last || last->time != lat->last.time || last->type != lat->last.type ||
			  last->cpu != lat->last.cpu)))
		lat_reset(lat, pn->run->h, pid, sched_nr_cpus(pn->run->e));
	for (; lat->fed < upto; lat->fed++) {
		const struct sched_event *ev = history_event(pn->run->h, lat->fed);

		lat_feed(lat, ev);
		timehist_feed(&lat->th, ev);
	}
	if (lat->fed)
		lat->last = *history_event(pn->run->h, lat->fed - 1);
}

static void draw_hist(struct pane *pn, struct cellbuf *cb, int x, int y, int w, int h)
{
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	char b1[32], b2[32], b3[32];
	const struct task_lat *lat = pn->task_lat;
	u64 p50 = lat_hist_value(&lat->hist, 0), p99 = lat_hist_value(&lat->hist, 1);
	u64 max = lat_hist_value(&lat->hist, 2);

	if (h < 1)
		return;
	cb_print(cb, x, y, w, bold, "wakeup latency (sched_wakeup \u2192 switched in): %" PRIu64 " samples",
		 lat->hist.count);
	y++;
	h--;
	if (lat->hist.count && h > 0) {
		cb_print(cb, x + 2, y, w - 2, bold, "p50 %s   p99 %s   max %s",
			 fmt_dur(b1, sizeof(b1), (s64)p50, false), fmt_dur(b2, sizeof(b2), (s64)p99, false),
			 fmt_dur(b3, sizeof(b3), (s64)max, false));
		y++;
		h--;
	}
	if (!lat->hist.count || h < 1) {
		if (h >= 1)
			cb_print(cb, x + 2, y, w - 2, dim, "no wakeups yet");
		return;
	}

	/* rows: powers of two from the smallest sample's octave up to the max */
	u64 bins[64] = { 0 };
	int lo = 63, hi = 0;

	for (unsigned b = 0; b < LAT_OCTAVES * LAT_SUB; b++) {
		if (!lat->hist.bucket[b])
			continue;
		u64 v = lat_bucket_lower(b);
		int k = v ? 63 - __builtin_clzll(v) : 0;

		if (k < 10)
			k = 9;	/* everything under 1.0us in one row */

		bins[k] += lat->hist.bucket[b];
		lo = MIN(lo, k);
		hi = MAX(hi, k);
	}
	/* too many rows: merge the low ones into the first */
	while (hi - lo + 1 > h && lo < hi) {
		bins[lo + 1] += bins[lo];
		lo++;
	}
	u64 top = 1;

	for (int k = lo; k <= hi; k++)
		top = MAX(top, bins[k]);

	int label_w = 22, count_w = 8;
	int bar_w = MAX(w - label_w - count_w - 18, 4);
	int p50k = p50 ? 63 - __builtin_clzll(p50) : 0, p99k = p99 ? 63 - __builtin_clzll(p99) : 0;
	int maxk = max ? 63 - __builtin_clzll(max) : 0;

	p50k = MAX(p50k, 9);
	p99k = MAX(p99k, 9);
	maxk = MAX(maxk, 9);

	for (int k = lo; k <= hi && h > 0; k++, y++, h--) {
		u64 from = k == lo ? 0 : (1ULL << k);
		int cells = (int)(bins[k] * (u64)bar_w / top);

		cb_print(cb, x + 2, y, label_w - 2, dim, "%9s..%-9s", fmt_dur(b1, sizeof(b1), (s64)from, false),
			 fmt_dur(b2, sizeof(b2), (s64)(2ULL << k), false));
		for (int c = 0; c < cells; c++)
			cb_put(cb, x + label_w + c, y, 0x2588, sty(C_GREEN, COLOR_DEFAULT, 0));
		if (bins[k] && !cells)
			cb_put(cb, x + label_w, y, 0x258f, sty(C_GREEN, COLOR_DEFAULT, 0));
		int cx = x + label_w + MAX(cells, 1) + 1;

		cx += cb_print(cb, cx, y, x + w - cx, STYLE_PLAIN, "%" PRIu64, bins[k]);
		if (k == MIN(MAX(p50k, lo), hi))
			cx += cb_print(cb, cx, y, x + w - cx, sty(C_CYAN, COLOR_DEFAULT, A_BOLD_), "  \u2190 p50 %s",
				       fmt_dur(b1, sizeof(b1), (s64)p50, false));
		if (k == MIN(MAX(p99k, lo), hi))
			cx += cb_print(cb, cx, y, x + w - cx, sty(C_YELLOW, COLOR_DEFAULT, A_BOLD_), "  \u2190 p99 %s",
				       fmt_dur(b1, sizeof(b1), (s64)p99, false));
		if (k == MIN(MAX(maxk, lo), hi))
			cb_print(cb, cx, y, x + w - cx, sty(C_RED, COLOR_DEFAULT, A_BOLD_), "  \u2190 max %s",
				 fmt_dur(b1, sizeof(b1), (s64)max, false));
	}
}

static const char *state_name(const struct sched_task_info *ti)
{
	switch (ti->state) {
	case TASK_NEW:
		return "not forked yet";
	case TASK_RUNNING:
		return ti->on_cpu ? "running" : "runnable (queued)";
	case TASK_INTERRUPTIBLE:
		return ti->sched_delayed ? "sleeping (delayed dequeue)" : "sleeping";
	case TASK_DEAD:
		return "dead";
	}
	return "?";
}

/* the switches shown: the last ten, as a screenful of perf sched timehist's tail */
#define TASK_TIMEHIST_ROWS 10

/* perf sched timehist's columns: time, cpu, then milliseconds with three decimals. */
static const struct column timehist_cols[] = {
	{ "time", 15, COL_RIGHT },	{ "cpu", 4, COL_RIGHT },       { "wait time", 10, COL_RIGHT },
	{ "sch delay", 10, COL_RIGHT }, { "run time", 10, COL_RIGHT }, { "state", 5, COL_RIGHT },
};

static const char *msec(char *buf, size_t len, u64 ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, (u64)(ns / NSEC_PER_MSEC),
		 (u64)(ns % NSEC_PER_MSEC / NSEC_PER_USEC));
	return buf;
}

/* A switches row's cells, as the table shows them (and the search reads them). */
struct timehist_text {
	char t[32], cpu[16], wait[32], delay[32], run[32], state[4];
};

static void timehist_text(const struct timehist_row *r, struct timehist_text *x)
{
	snprintf(x->t, sizeof(x->t), "%" PRIu64 ".%06" PRIu64, (u64)(r->time / NSEC_PER_SEC),
		 (u64)(r->time % NSEC_PER_SEC / NSEC_PER_USEC));
	snprintf(x->cpu, sizeof(x->cpu), "[%d]", r->cpu);
	snprintf(x->state, sizeof(x->state), "%c", r->state);
	msec(x->wait, sizeof(x->wait), r->wait);
	msec(x->delay, sizeof(x->delay), r->delay);
	msec(x->run, sizeof(x->run), r->run);
}

/*
 * The task's switches off a CPU, newest at the bottom, in h rows: the last
 * ones, or pn->task_sw_back rows further back (clamped to the rows kept);
 * the row a search selected marked.
 */
static void draw_timehist(struct pane *pn, const struct timehist *th, struct cellbuf *cb, int x, int y, int w,
			  int h)
{
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	struct style rev[ARRAY_SIZE(timehist_cols)];
	char b1[32], b2[32], b3[32];
	int n = (int)ARRAY_SIZE(timehist_cols), *back = &pn->task_sw_back;

	if (h < 1)
		return;
	cb_print(cb, x, y++, w, bold,
		 "switches (perf sched timehist, ms): %" PRIu64 "   wait %s   sch delay %s (max %s)", th->nr,
		 fmt_dur(b1, sizeof(b1), (s64)th->total_wait, false),
		 fmt_dur(b2, sizeof(b2), (s64)th->total_delay, false),
		 fmt_dur(b3, sizeof(b3), (s64)th->max_delay, false));
	if (--h < 1)
		return;
	table_header(cb, x + 2, y++, w - 2, timehist_cols, n, dim);
	h--;

	u64 kept = MIN(th->nr, (u64)TIMEHIST_ROWS), room = MIN(kept, (u64)MAX(h, 0)), shown = room;

	/* scrolled back, the last row says what is below it */
	if (*back > 0 && room > 1)
		shown = room - 1;
	*back = (int)MIN((u64)MAX(*back, 0), kept - shown);
	if (!*back)
		shown = room;
	else if (shown < room)
		cb_print(cb, x + 2, y + (int)shown, w - 2, dim, "... %d newer below (j, PgDn, End)", *back);
	u64 end = kept - (u64)*back;

	pn->task_sw_top = end - shown;
	for (int i = 0; i < n; i++)
		rev[i] = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_);
	for (u64 i = end - shown; i < end; i++, y++) {
		const struct timehist_row *r = timehist_row(th, i);
		struct timehist_text tx;
		const char *cells[] = { tx.t, tx.cpu, tx.wait, tx.delay, tx.run, tx.state };
		bool sel = r->time == pn->task_sw_sel;

		timehist_text(r, &tx);
		if (sel) {
			cb_fill(cb, (struct rect){ x, y, w, 1 }, ' ', rev[0]);
			cb_print(cb, x, y, 1, rev[0], ">");
		}
		table_row(cb, x + 2, y, w - 2, timehist_cols, n, cells, sel ? rev : NULL);
		if (pn->search[0])
			search_mark(cb, x + 2, y, w - 2, pn->search);
	}
}

/* What one frame of the view draws from, and where it has got to. */
struct task_frame {
	struct pane *pn;
	struct cellbuf *cb;
	int x, y, w, bottom;
	int t, nr; /* the task shown (index) of nr */
	struct sched_task_info ti;
	struct sched_cpu_info ci; /* of the task's CPU */
	bool cfs;
};

static const struct style head_st = { C_CYAN, COLOR_DEFAULT, A_BOLD_ };

/* A line at the frame's row if there is room; returns false when there is none. */
static bool room(const struct task_frame *f)
{
	return f->y < f->bottom;
}

/* Name, pid, state and CPU; policy, nice, prio and weight; RT and deadline parameters. */
static void draw_identity(struct task_frame *f)
{
	const struct sched_task_info *ti = &f->ti;
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	char b1[32], b2[32], b3[32], b4[32], b5[32];
	int used = cb_print(f->cb, f->x, f->y, f->w, ui_task_style(f->pn->ui, ti->pid), "%s", ti->name);

	cb_print(f->cb, f->x + used, f->y, f->w - used, bold, " (pid %d, task %d of %d): %s on CPU %d",
		 ti->pid, f->t + 1, f->nr, state_name(ti), ti->cpu);
	f->y++;
	if (room(f))
		cb_print(f->cb, f->x, f->y++, f->w, STYLE_PLAIN,
			 "policy %s  nice %d  prio %d  weight %" PRIu64 " (nice 0 = 1024)",
			 sched_policy_names[ti->policy], ti->nice, ti->prio, ti->weight >> 10);
	if (room(f) && (ti->policy == SCHED_FIFO || ti->policy == SCHED_RR))
		cb_print(f->cb, f->x, f->y++, f->w, STYLE_PLAIN, "rt_priority %u (prio = 99 - rt_priority)",
			 ti->rt_priority);
	if (room(f) && ti->policy == SCHED_DEADLINE)
		cb_print(f->cb, f->x, f->y++, f->w, STYLE_PLAIN,
			 "runtime %s / deadline %s / period %s;  left %s, "
			 "deadline at %s%s",
			 fmt_dur(b1, sizeof(b1), (s64)ti->dl_runtime, false),
			 fmt_dur(b2, sizeof(b2), (s64)ti->dl_deadline, false),
			 fmt_dur(b3, sizeof(b3), (s64)ti->dl_period, false),
			 fmt_dur(b4, sizeof(b4), ti->dl_runtime_left, false),
			 fmt_dur(b5, sizeof(b5), (s64)ti->dl_abs_deadline, false),
			 ti->dl_throttled ? "  (throttled)" : "");
	f->y++;
}

/* The ext class: what the policy set, and where the task waits. */
static void draw_ext(struct task_frame *f)
{
	const struct sched_task_info *ti = &f->ti;
	char b1[32], dsq[32];

	if (!ti->ext || f->y + 1 >= f->bottom)
		return;
	cb_print(f->cb, f->x, f->y++, f->w, head_st, "ext (the policy's task)");
	cb_print(f->cb, f->x + 2, f->y++, f->w - 2, STYLE_PLAIN,
		 "slice left %s   dsq_vtime %" PRIu64 "   weight %u   %s%s",
		 ti->ext_slice == SCX_SLICE_INF ? "infinite"
						: fmt_dur(b1, sizeof(b1), (s64)ti->ext_slice, false),
		 ti->ext_vtime, ti->ext_weight, ti->ext_dsq == SCX_DSQ_INVALID ? "on no queue" : "queued on ",
		 ti->ext_dsq == SCX_DSQ_INVALID ? "" : ext_dsq_format(dsq, sizeof(dsq), ti->ext_dsq));
	f->y++;
}

/* The fair class, EEVDF or CFS: vruntime against V or min_vruntime, lag, deadline, slice. */
static void draw_fair(struct task_frame *f)
{
	const struct sched_task_info *ti = &f->ti;
	bool cfs = f->cfs;
	char b1[32], b2[32];

	if (room(f))
		cb_print(f->cb, f->x, f->y++, f->w, head_st, "%s", cfs ? "CFS" : "EEVDF");
	if (room(f)) {
		u64 ref = cfs ? f->ci.min_vruntime : f->ci.avg_vruntime;

		cb_print(f->cb, f->x + 2, f->y++, f->w - 2, STYLE_PLAIN, "vruntime %" PRIu64 " ns (%s %s)",
			 ti->vruntime, fmt_dur(b1, sizeof(b1), (s64)(ti->vruntime - ref), true),
			 cfs ? "vs min_vruntime" : "vs V");
	}
	/* a task not queued has no lag of its own: the one kept to place it at its wakeup */
	if (!cfs && room(f))
		cb_print(f->cb, f->x + 2, f->y++, f->w - 2, STYLE_PLAIN,
			 "%s %" PRId64 " ns (%s)   deadline %" PRIu64 " ns (%s vs V)",
			 ti->on_rq ? "lag" : "saved lag (not queued)", ti->vlag,
			 fmt_dur(b1, sizeof(b1), ti->vlag, true), ti->deadline,
			 fmt_dur(b2, sizeof(b2), (s64)(ti->deadline - f->ci.avg_vruntime), true));
	if (room(f))
		cb_print(f->cb, f->x + 2, f->y++, f->w - 2, STYLE_PLAIN, "slice %" PRIu64 " ns (%s)%s%s",
			 ti->slice, fmt_dur(b1, sizeof(b1), (s64)ti->slice, false),
			 cfs		? ""
			 : !ti->on_rq	? "   eligible: not queued"
			 : ti->eligible ? "   eligible: yes"
					: "   eligible: no",
			 cfs		     ? ""
			 : ti->sched_delayed ? "   delayed: yes"
					     : "   delayed: no");
	f->y++;
}

/* PELT's averages and the kernel's counters (as /proc/PID/sched). */
static void draw_counters(struct task_frame *f)
{
	const struct sched_task_info *ti = &f->ti;
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	char b1[32], b2[32], b3[32];

	if (room(f))
		cb_print(f->cb, f->x, f->y++, f->w, head_st, "PELT (0..1024 scale)");
	if (room(f))
		cb_print(f->cb, f->x + 2, f->y++, f->w - 2, STYLE_PLAIN,
			 "load_avg %" PRIu64 "   runnable_avg %" PRIu64 "   util_avg %" PRIu64,
			 ti->avg.load_avg, ti->avg.runnable_avg, ti->avg.util_avg);
	f->y++;

	if (room(f))
		cb_print(f->cb, f->x, f->y++, f->w, head_st, "statistics (as /proc/PID/sched)");
	if (room(f))
		cb_print(f->cb, f->x + 2, f->y++, f->w - 2, STYLE_PLAIN,
			 "sum_exec_runtime %" PRIu64 " ns (%s)   run_delay %" PRIu64
			 " ns (%s)   pcount %" PRIu64,
			 ti->sum_exec_runtime, fmt_dur(b1, sizeof(b1), (s64)ti->sum_exec_runtime, false),
			 ti->run_delay, fmt_dur(b2, sizeof(b2), (s64)ti->run_delay, false), ti->pcount);
	if (room(f))
		cb_print(f->cb, f->x + 2, f->y++, f->w - 2, STYLE_PLAIN,
			 "nr_wakeups %" PRIu64 "   nr_migrations %" PRIu64 "   nvcsw %" PRIu64
			 "   nivcsw %" PRIu64,
			 ti->nr_wakeups, ti->nr_migrations, ti->nvcsw, ti->nivcsw);
	if (room(f) && ti->pcount)
		cb_print(f->cb, f->x + 2, f->y++, f->w - 2, dim, "avg wait per run %s",
			 fmt_dur(b3, sizeof(b3), (s64)(ti->run_delay / ti->pcount), false));
	f->y++;
}

/* The task shown: the selected one, else the first. */
static int shown_task(const struct pane *pn)
{
	return pn->sel_task >= 0 && pn->sel_task < sched_nr_tasks(pn->run->e) ? pn->sel_task : 0;
}

static void task_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	struct task_frame f = { .pn = pn, .cb = cb, .x = a.x, .y = a.y, .w = a.w, .bottom = a.y + a.h };

	if (a.w <= 0 || a.h <= 0)
		return;
	f.nr = sched_nr_tasks(pn->run->e);
	if (f.nr == 0) {
		cb_print(cb, f.x, f.y, f.w, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0), "no tasks");
		return;
	}
	f.t = shown_task(pn);
	f.cfs = sched_variant(pn->run->e) == SCHED_VARIANT_CFS;
	sched_task_info(pn->run->e, f.t, &f.ti);
	sched_cpu_info(pn->run->e, f.ti.cpu >= 0 && f.ti.cpu < sched_nr_cpus(pn->run->e) ? f.ti.cpu : 0,
		       &f.ci);

	draw_identity(&f);
	draw_ext(&f);
	draw_fair(&f);
	draw_counters(&f);
	if (room(&f)) {
		/* the switches table takes up to half of what is left, the histogram the rest */
		int left = f.bottom - f.y, rows = MAX(MIN(left - 2, TASK_TIMEHIST_ROWS + 2), left / 2);

		lat_update(pn, f.ti.pid);
		draw_timehist(pn, &pn->task_lat->th, cb, f.x, f.y, f.w, rows);
		f.y += rows + 1;
		if (room(&f))
			draw_hist(pn, cb, f.x, f.y, f.w, f.bottom - f.y);
	}
}

/* The switches table scrolls back from the newest row (the draw clamps it to the rows kept). */
static bool task_key(struct pane *pn, int key)
{
	switch (key) {
	case 'k':
		pn->task_sw_back++;
		return true;
	case 'j':
		pn->task_sw_back = MAX(pn->task_sw_back - 1, 0);
		return true;
	case KEY_PPAGE:
		pn->task_sw_back += TASK_TIMEHIST_ROWS;
		return true;
	case KEY_NPAGE:
		pn->task_sw_back = MAX(pn->task_sw_back - TASK_TIMEHIST_ROWS, 0);
		return true;
	case KEY_HOME:
		pn->task_sw_back = TIMEHIST_ROWS;
		return true;
	case KEY_END:
		pn->task_sw_back = 0;
		return true;
	}
	return false;
}

/*
 * The next (down: newer) or previous switches row holding the search text,
 * from the one selected, else from the top of the rows shown: it is
 * selected, and the table scrolls back to show it.
 */
static enum search_step task_find(struct pane *pn, struct search_scan *sc)
{
	struct sched_task_info ti;
	u64 s;

	if (!sched_nr_tasks(pn->run->e))
		return SEARCH_NONE;
	sched_task_info(pn->run->e, shown_task(pn), &ti);
	lat_update(pn, ti.pid);
	const struct timehist *th = &pn->task_lat->th;
	u64 kept = MIN(th->nr, (u64)TIMEHIST_ROWS);

	if (!sc->begun) {
		u64 from = sc->dir > 0 ? pn->task_sw_top : kept - MIN(kept, (u64)pn->task_sw_back);

		for (u64 i = 0; i < kept; i++)
			if (timehist_row(th, i)->time == pn->task_sw_sel)
				from = i + (sc->dir > 0);
		search_scan_begin(sc, from, kept);
	}
	while (search_scan_next(sc, kept, &s)) {
		const struct timehist_row *r = timehist_row(th, s);
		struct timehist_text tx;
		char text[160];

		timehist_text(r, &tx);
		snprintf(text, sizeof(text), "%s %s %s %s %s %s", tx.t, tx.cpu, tx.wait, tx.delay, tx.run,
			 tx.state);
		if (!search_match(text, pn->search))
			continue;
		pn->task_sw_sel = r->time;
		if (s < pn->task_sw_top || s >= kept - (u64)pn->task_sw_back)
			pn->task_sw_back = (int)(kept - 1 - s); /* the bottom row */
		return SEARCH_HIT;
	}
	return search_scan_step(sc);
}

const struct view view_task = {
	.name = "task",
	.title = "Task",
	.draw = task_draw,
	.key = task_key,
	.keys = "k j scroll the switches back and forward, PgUp PgDn ten, Home the oldest kept, End the "
		"newest; / finds a switch by its fields",
	.find = task_find,
};
