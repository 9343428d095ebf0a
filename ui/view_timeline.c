// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline: a Gantt chart of who ran on each CPU, built from the
 * sched_switch events of the history log. The window is pn->tl_span_ns wide
 * and ends at pn->tl_end_ns (0 follows the current time). Each cell shows
 * the task that ran most of the cell's time span; the cells of one task next
 * to each other make one block, which carries the task's name only when the
 * whole name fits (as Perfetto and KernelShark draw slices): otherwise its
 * colour and the legend under the axis say who it is. A click selects a
 * span (the sched_switch that began it): the info line gives its task,
 * times and duration. Migrations are marked on the destination CPU's lane;
 * spans where a task group was throttled on the CPU (cpu.max) are shaded; a
 * cursor marks the current time.
 *
 * The log is searched by time (binary search), then walked backwards from
 * the window's end: the task running at the end is known (the engine's
 * current task when following, else the prev of each CPU's next switch), so
 * no scan from the start of the run is ever needed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "format.h"
#include "search.h"
#include "ui.h"

#define TL_MAX_LANES 256
#define TL_MAX_COLS 1024
#define TL_SLOTS 4
#define TL_DEFAULT_SPAN (50 * NSEC_PER_MSEC)
#define TL_MIN_SPAN (10 * NSEC_PER_USEC)
#define TL_NO_SPAN (~0ULL)
/* How far the info line looks for the end of a span outside the window. */
#define TL_SPAN_SCAN (1u << 16)
/* The height from which the info line and the legend are drawn. */
#define TL_INFO_MIN_H 12

/* First seq in [0, n) whose event time is >= t (n when none). */
static u64 seq_at(struct sched_history *h, u64 n, u64 t)
{
	return MIN(history_seq_at_time(h, t), n);
}

/* Events this view may show: logged and not in the engine's future. */
static u64 nr_visible(const struct pane *pn)
{
	u64 n = history_nr_logged(pn->run->h), now = sched_nr_events(pn->run->e);

	return MIN(n, now);
}

/* Per-lane accumulation of the column being filled (columns go right to left). */
struct lane {
	int cpu;
	s32 pid;	/* running at `edge` */
	u64 edge;	/* everything after this time has been accounted */
	u64 after; /* when the window ends before now: the lane's next switch after it, else TL_NO_MARK */
	bool seen; /* the walk met a switch: edge is the time of one */
	int col;	/* column being accumulated, -1 before any */
	s32 slot_pid[TL_SLOTS];
	u64 slot_ns[TL_SLOTS];
	/* the slot's longest piece and the sched_switch that began it (TL_NO_SPAN: before the walk) */
	u64 slot_piece[TL_SLOTS], slot_seq[TL_SLOTS];
};

struct grid {
	u64 t0, t1, dt;	/* window [t0, t1), dt per column */
	int cols;
	int nr_lanes;
	s32 cell[TL_MAX_LANES][TL_MAX_COLS];	/* pid, -1 = nothing (future / before start) */
	u64 span[TL_MAX_LANES][TL_MAX_COLS];	/* the sched_switch that began the cell's task there */
	u8 mig[TL_MAX_LANES][TL_MAX_COLS];	/* a migration arrived in this cell */
	u8 thr[TL_MAX_LANES][TL_MAX_COLS];	/* a group was throttled on the CPU in this cell */
	/* one task's wakeups (0: none): sched_wakeup -> the switch that runs it, found on the same walk */
	struct wake_walk {
		s32 pid;
		u64 end,
			tw; /* going back: the switch-in (or the open edge) and the earliest wakeup before it */
		bool open; /* end is the window's edge: still waiting there */
		int nr;
		struct tl_wakeup {
			u64 tw, ts;
			bool open;
		} arrow[TL_MAX_COLS];
	} wk;
	/* the selected span (a sched_switch seq, TL_NO_SPAN for none) and, when the walk met it, its end */
	u64 sel, sel_end;
	bool sel_found, sel_running; /* sel_running: no switch ends it yet */
	/* the legend: cells per pid of the lanes drawn, and the pids counted */
	u32 *pid_cells;
	size_t cap_pid_cells;
	s32 *drawn;
	size_t nr_drawn, cap_drawn;
};

/* Mark the cells of [from, to) on lane li as throttled. */
static void mark_throttled(struct grid *g, int li, u64 from, u64 to)
{
	if (from < g->t0)
		from = g->t0;
	if (to > g->t1)
		to = g->t1;
	if (to <= from)
		return;
	for (u64 c = (from - g->t0) / g->dt; c <= (to - 1 - g->t0) / g->dt && c < (u64)g->cols; c++)
		g->thr[li][c] = 1;
}

/* A piece of pid's time in the column, begun by switch seq. */
static void slot_add(struct lane *l, s32 pid, u64 ns, u64 seq)
{
	int smallest = 0;

	for (int i = 0; i < TL_SLOTS; i++) {
		if (l->slot_pid[i] == pid && l->slot_ns[i]) {
			l->slot_ns[i] += ns;
			if (ns > l->slot_piece[i]) {
				l->slot_piece[i] = ns;
				l->slot_seq[i] = seq;
			}
			return;
		}
		if (l->slot_ns[i] < l->slot_ns[smallest])
			smallest = i;
	}
	if (l->slot_ns[smallest] < ns) {
		l->slot_pid[smallest] = pid;
		l->slot_ns[smallest] = ns;
		l->slot_piece[smallest] = ns;
		l->slot_seq[smallest] = seq;
	}
}

static void lane_flush(struct grid *g, int li, struct lane *l)
{
	int best = -1;

	if (l->col < 0 || l->col >= g->cols)
		return;
	for (int i = 0; i < TL_SLOTS; i++)
		if (l->slot_ns[i] && (best < 0 || l->slot_ns[i] > l->slot_ns[best]))
			best = i;
	g->cell[li][l->col] = best < 0 ? -1 : l->slot_pid[best];
	g->span[li][l->col] = best < 0 ? TL_NO_SPAN : l->slot_seq[best];
	memset(l->slot_ns, 0, sizeof(l->slot_ns));
}

/* The lane ran pid over [from, l->edge), from the switch seq on: spread it over the columns. */
static void lane_span(struct grid *g, int li, struct lane *l, u64 from, s32 pid, u64 seq)
{
	u64 to = l->edge;

	if (from < g->t0)
		from = g->t0;
	while (to > from) {
		int c = (int)((to - 1 - g->t0) / g->dt);
		u64 cstart = g->t0 + (u64)c * g->dt;
		u64 a = MAX(from, cstart);

		if (c != l->col) {
			lane_flush(g, li, l);
			l->col = c;
		}
		if (a == cstart && to == cstart + g->dt) {
			/* the whole column is this piece's: nothing to weigh (at wide spans, most are) */
			g->cell[li][c] = pid;
			g->span[li][c] = seq;
			l->col = -1;
		} else {
			slot_add(l, pid, to - a, seq);
		}
		to = a;
	}
	l->edge = from;
}

/* The pane's grid: one frame's worth, allocated once and reused. */
static struct grid *grid_of(struct pane *pn)
{
	struct grid *g = pn->tl_grid;

	if (!g) {
		g = pn->tl_grid = xcalloc(1, sizeof(struct grid));
		g->cap_pid_cells = (size_t)sched_nr_tasks(pn->run->e) + 1;
		g->pid_cells = xcalloc(g->cap_pid_cells, sizeof(*g->pid_cells));
	}
	return g;
}

void tl_grid_free(struct grid *g)
{
	if (!g)
		return;
	free(g->pid_cells);
	free(g->drawn);
	free(g);
}

/* An empty grid for the window [t0, t1) in cols columns (t1 rounded to whole columns). */
static void grid_reset(struct grid *g, int nr_lanes, u64 t0, u64 t1, int cols)
{
	g->t0 = t0;
	g->t1 = t1;
	g->cols = cols;
	g->dt = MAX((t1 - t0) / (u64)cols, 1);
	g->t1 = t0 + g->dt * (u64)cols;
	g->nr_lanes = nr_lanes;
	for (int i = 0; i < nr_lanes; i++) {
		for (int c = 0; c < cols; c++) {
			g->cell[i][c] = -1;
			g->span[i][c] = TL_NO_SPAN;
			g->mig[i][c] = 0;
			g->thr[i][c] = 0;
		}
	}
}

/*
 * Who runs on each lane at `end`: the engine's current task, or, when the
 * window ends before now, the prev of each CPU's next switch after it.
 */
static void lanes_at_edge(struct pane *pn, struct lane *lanes, int first_lane, int nr_lanes, u64 end,
			  u64 end_seq, u64 n)
{
	struct sched_history *h = pn->run->h;

	for (int i = 0; i < nr_lanes; i++) {
		struct sched_cpu_info ci;

		lanes[i].cpu = first_lane + i;
		sched_cpu_info(pn->run->e, lanes[i].cpu, &ci);
		lanes[i].pid = ci.curr_pid;
		lanes[i].edge = end;
		lanes[i].after = TL_NO_MARK;
		lanes[i].seen = false;
		lanes[i].col = -1;
		memset(lanes[i].slot_ns, 0, sizeof(lanes[i].slot_ns));
		memset(lanes[i].slot_pid, 0, sizeof(lanes[i].slot_pid));
	}
	if (end >= sched_now(pn->run->e))
		return;

	bool resolved[TL_MAX_LANES] = { false };
	int unresolved = nr_lanes;

	for (u64 s = end_seq; s < n && unresolved; s++) {
		const struct sched_event *ev = history_event(h, s);
		int li = ev->cpu - first_lane;

		if (ev->type != EV_SCHED_SWITCH || li < 0 || li >= nr_lanes || resolved[li])
			continue;
		lanes[li].pid = ev->sw.prev_pid;
		lanes[li].after = ev->time;
		resolved[li] = true;
		unresolved--;
	}
}

/*
 * Throttled queues at the right edge: those now, less what changed after it
 * (only scenarios with task groups pay for this scan).
 */
static void throttled_at_edge(struct pane *pn, int *thr, int first_lane, int nr_lanes, u64 end_seq, u64 n)
{
	struct sched_history *h = pn->run->h;

	if (sched_nr_groups(pn->run->e) <= 1)
		return;
	for (int i = 0; i < nr_lanes; i++) {
		struct sched_cpu_info ci;

		sched_cpu_info(pn->run->e, first_lane + i, &ci);
		thr[i] = ci.throttled_queues;
	}
	for (u64 s = end_seq; s < n; s++) {
		const struct sched_event *ev = history_event(h, s);
		int li = ev->cpu - first_lane;

		if (li >= 0 && li < nr_lanes)
			thr[li] -= (ev->type == EV_CFS_THROTTLE) - (ev->type == EV_CFS_UNTHROTTLE);
	}
}

/* The selected span, begun on lane l, ends at the lane's next switch: in the window, or after it, or not yet. */
static void note_sel_end(struct grid *g, const struct lane *l)
{
	g->sel_end = l->seen ? l->edge : l->after;
	g->sel_running = g->sel_end == TL_NO_MARK;
	g->sel_found = true;
}

/* One event of the walk back from the right edge: switches fill lanes, migrations and throttling mark cells. */
static void walk_event(struct grid *g, const struct sched_event *ev, struct lane *lanes, int first_lane,
		       int *thr, u64 *thr_edge)
{
	int li;

	if (ev->type == EV_CFS_THROTTLE || ev->type == EV_CFS_UNTHROTTLE) {
		li = ev->cpu - first_lane;
		if (li < 0 || li >= g->nr_lanes)
			return;
		if (thr[li] > 0)
			mark_throttled(g, li, ev->time, thr_edge[li]);
		thr[li] += ev->type == EV_CFS_THROTTLE ? -1 : 1;
		thr_edge[li] = ev->time;
	} else if (ev->type == EV_SCHED_SWITCH) {
		li = ev->cpu - first_lane;
		if (li < 0 || li >= g->nr_lanes)
			return;
		if (ev->seq == g->sel)
			note_sel_end(g, &lanes[li]);
		lane_span(g, li, &lanes[li], ev->time, ev->sw.next_pid, ev->seq);
		lanes[li].pid = ev->sw.prev_pid;
		lanes[li].seen = true;
	} else if (ev->type == EV_SCHED_MIGRATE_TASK) {
		li = ev->migrate.dest_cpu - first_lane;
		if (li < 0 || li >= g->nr_lanes || ev->time < g->t0)
			return;
		int c = (int)((ev->time - g->t0) / g->dt);

		if (c >= 0 && c < g->cols)
			g->mig[li][c] = 1;
	}
}

/*
 * The wakeup arrows of one task, walking back: a switch-in opens an arrow
 * at its time, the wakeups before it move its start back to the earliest,
 * the switch-out before them closes it (the first wakeup since the task
 * left the CPU counts, as the wakeup latency's). At the right edge the
 * arrow is open: woken and still waiting. True once nothing more can come.
 */
static bool wake_walk_event(struct wake_walk *w, const struct sched_event *ev)
{
	if ((ev->type == EV_SCHED_WAKEUP || ev->type == EV_SCHED_WAKEUP_NEW) && ev->wake.pid == w->pid) {
		if (w->end != TL_NO_MARK)
			w->tw = ev->time;
	} else if (ev->type == EV_SCHED_SWITCH && ev->sw.next_pid == w->pid) {
		/* running from here on: wakeups seen after it were of a running task */
		w->end = ev->time;
		w->open = false;
		w->tw = TL_NO_MARK;
	} else if (ev->type == EV_SCHED_SWITCH && ev->sw.prev_pid == w->pid) {
		if (w->end != TL_NO_MARK && w->tw != TL_NO_MARK && w->nr < TL_MAX_COLS)
			w->arrow[w->nr++] = (struct tl_wakeup){ w->tw, w->end, w->open };
		w->end = TL_NO_MARK;
		return true;
	}
	return false;
}

/* The arrow still being drawn at the window's start began before it: look back up to a span for its wakeup. */
static void wake_walk_finish(struct wake_walk *w, struct sched_history *h, u64 start_seq, u64 t0, u64 span)
{
	for (u64 s = start_seq; w->end != TL_NO_MARK && s-- > 0;) {
		const struct sched_event *ev = history_event(h, s);

		if (ev->time + span < t0 || wake_walk_event(w, ev))
			break;
	}
	if (w->end != TL_NO_MARK && w->tw != TL_NO_MARK && w->nr < TL_MAX_COLS)
		w->arrow[w->nr++] = (struct tl_wakeup){ w->tw, w->end, w->open };
}

/*
 * The switches that began the pieces open at the window's start: looked for
 * back from it, up to a window's span (a piece begun before that has no
 * span to select).
 */
static void open_spans(struct sched_history *h, const struct lane *lanes, u64 *seq, int first_lane,
		       int nr_lanes, u64 start_seq, u64 t0, u64 span)
{
	bool seen[TL_MAX_LANES] = { false };
	int unresolved = nr_lanes;

	for (int i = 0; i < nr_lanes; i++)
		seq[i] = TL_NO_SPAN;
	for (u64 s = start_seq; unresolved && s-- > 0;) {
		const struct sched_event *ev = history_event(h, s);
		int li = ev->cpu - first_lane;

		if (ev->time + span < t0)
			break;
		if (ev->type != EV_SCHED_SWITCH || li < 0 || li >= nr_lanes || seen[li])
			continue;
		/* the lane's last switch before the window: it began the piece open there */
		if (ev->sw.next_pid == lanes[li].pid)
			seq[li] = s;
		seen[li] = true;
		unresolved--;
	}
}

static void build(struct pane *pn, struct grid *g, int first_lane, int nr_lanes, u64 t0, u64 t1, int cols,
		  int wake_pid)
{
	struct sched_history *h = pn->run->h;
	u64 n = nr_visible(pn);
	struct lane lanes[TL_MAX_LANES];
	int thr[TL_MAX_LANES] = { 0 };
	u64 thr_edge[TL_MAX_LANES], open[TL_MAX_LANES];

	grid_reset(g, nr_lanes, t0, t1, cols);

	u64 end = MIN(g->t1, sched_now(pn->run->e));
	u64 end_seq = seq_at(h, n, end + 1);

	lanes_at_edge(pn, lanes, first_lane, nr_lanes, end, end_seq, n);
	for (int i = 0; i < nr_lanes; i++)
		thr_edge[i] = end;
	throttled_at_edge(pn, thr, first_lane, nr_lanes, end_seq, n);

	/* walk back to the window's start */
	u64 start_seq = seq_at(h, n, t0);

	g->wk = (struct wake_walk){ .pid = wake_pid, .end = end, .tw = TL_NO_MARK, .open = true };
	g->sel_found = false;
	/* a chunk of the log at a time: its events are consecutive (history.h) */
	for (u64 s = end_seq; s > start_seq;) {
		u64 first = MAX(start_seq, (s - 1) / HISTORY_CHUNK_EVENTS * HISTORY_CHUNK_EVENTS);
		const struct sched_event *run = history_event(h, first);

		for (const struct sched_event *ev = run + (s - first); ev-- > run;) {
			walk_event(g, ev, lanes, first_lane, thr, thr_edge);
			if (wake_pid)
				wake_walk_event(&g->wk, ev);
		}
		s = first;
	}
	if (wake_pid)
		wake_walk_finish(&g->wk, h, start_seq, t0, t1 - t0);
	open_spans(h, lanes, open, first_lane, nr_lanes, start_seq, t0, t1 - t0);
	for (int i = 0; i < nr_lanes; i++) {
		if (open[i] != TL_NO_SPAN && open[i] == g->sel)
			note_sel_end(g, &lanes[i]);
		lane_span(g, i, &lanes[i], t0, lanes[i].pid, open[i]);
		lane_flush(g, i, &lanes[i]);
		if (thr[i] > 0)
			mark_throttled(g, i, t0, thr_edge[i]);
	}
}

/* "1.234s", "12.5ms" at a precision fitting the tick step. */
static void fmt_time(char *buf, size_t n, u64 t, u64 step)
{
	if (step >= NSEC_PER_SEC)
		snprintf(buf, n, "%" PRIu64 "s", (u64)(t / NSEC_PER_SEC));
	else if (step >= 100 * NSEC_PER_MSEC)
		snprintf(buf, n, "%.1fs", (double)t / 1e9);
	else if (step >= 10 * NSEC_PER_MSEC)
		snprintf(buf, n, "%.2fs", (double)t / 1e9);
	else if (step >= NSEC_PER_MSEC)
		snprintf(buf, n, "%.3fs", (double)t / 1e9);
	else if (step >= 100 * NSEC_PER_USEC)
		snprintf(buf, n, "%.4fs", (double)t / 1e9);
	else if (step >= 10 * NSEC_PER_USEC)
		snprintf(buf, n, "%.5fs", (double)t / 1e9);
	else
		snprintf(buf, n, "%.6fs", (double)t / 1e9);
}

static u64 span_of(const struct pane *pn)
{
	return pn->tl_span_ns ? MAX(pn->tl_span_ns, TL_MIN_SPAN) : TL_DEFAULT_SPAN;
}

/* One frame: the window, the lanes shown and where they go. */
struct tl_frame {
	struct pane *pn;
	struct cellbuf *cb;
	struct rect a;
	struct grid *g;
	int label_w, cols;
	int first, nr_lanes, nr_cpus;
	u64 now, span;
	int cursor_col; /* the current time's column, -1 outside the window */
	int wake_pid;	/* the selected task, whose wakeups get a row of arrows; 0 for none */
	/* the rows shown: a CPU's lane, or (l) an LLC's CPUs in one row */
	int nr_rows;
	struct tl_row {
		int lane; /* the grid's lane of a CPU row, -1 for an LLC row */
		int llc;  /* an LLC row's id */
	} row[TL_MAX_LANES];
	int llc_lanes[TL_MAX_LANES]; /* the lanes by LLC: llc_first[k] .. llc_first[k + 1] */
	int llc_first[TL_MAX_LANES + 1], llc_id[TL_MAX_LANES], nr_llc;
};

/*
 * Rows for every CPU by LLC: the CPUs of each LLC (in CPU order, LLCs in
 * the order of their first CPU) make one row, but the selected CPU's LLC,
 * whose CPUs have a lane each; scrolled to keep it in view in `rows`.
 */
static void tl_llc_rows(struct tl_frame *f, int sel, int rows)
{
	const struct sched_topology *t = sched_scenario_of(f->pn->run->e)->topo;
	int n = f->nr_lanes, *id = f->llc_id, nr_rows = 0, sel_row = 0;

	f->nr_llc = 0;
	for (int i = 0; i < n; i++) {
		int llc = t && t->cpu && i < t->nr_cpus ? t->cpu[i].llc : 0, k;

		for (k = 0; k < f->nr_llc && id[k] != llc; k++)
			;
		if (k == f->nr_llc)
			id[f->nr_llc++] = llc;
	}
	/* the lanes grouped by LLC: a counting sort on the LLC's index */
	int cnt[TL_MAX_LANES + 1] = { 0 }, of[TL_MAX_LANES];

	for (int i = 0; i < n; i++) {
		int llc = t && t->cpu && i < t->nr_cpus ? t->cpu[i].llc : 0;

		for (of[i] = 0; id[of[i]] != llc; of[i]++)
			;
		cnt[of[i] + 1]++;
	}
	for (int k = 0; k < f->nr_llc; k++)
		cnt[k + 1] += cnt[k];
	memcpy(f->llc_first, cnt, sizeof(int) * (size_t)(f->nr_llc + 1));
	for (int i = 0; i < n; i++)
		f->llc_lanes[cnt[of[i]]++] = i;

	struct tl_row all[2 * TL_MAX_LANES];

	for (int k = 0; k < f->nr_llc; k++) {
		if (k != of[sel]) {
			all[nr_rows++] = (struct tl_row){ -1, k };
			continue;
		}
		for (int j = f->llc_first[k]; j < f->llc_first[k + 1]; j++) {
			if (f->llc_lanes[j] == sel)
				sel_row = nr_rows;
			all[nr_rows++] = (struct tl_row){ f->llc_lanes[j], k };
		}
	}
	int first = nr_rows > rows ? CLAMP(sel_row - rows / 2, 0, nr_rows - rows) : 0;

	f->nr_rows = MIN(nr_rows - first, MIN(rows, TL_MAX_LANES));
	memcpy(f->row, all + first, sizeof(*f->row) * (size_t)f->nr_rows);
}

/* The selected span: the selected event when it is a visible sched_switch (a click here, or the events view). */
static u64 selected_switch(struct pane *pn)
{
	u64 s = pn->sel_event;

	if (s == ~0ULL || s >= nr_visible(pn) || history_event(pn->run->h, s)->type != EV_SCHED_SWITCH)
		return TL_NO_SPAN;
	return s;
}

/* The window (following now, or where it was scrolled) and the lanes that fit, scrolled to the selected CPU. */
static bool tl_window(struct tl_frame *f)
{
	struct pane *pn = f->pn;
	u64 t1 = pn->tl_end_ns ? pn->tl_end_ns : f->now;

	if (f->a.w < f->label_w + 4 || f->a.h < 4)
		return false;
	f->cols = MIN(f->a.w - f->label_w, TL_MAX_COLS);
	/* follow: the current time sits in the last column */
	if (!pn->tl_end_ns)
		t1 = f->now + f->span / (u64)f->cols;
	u64 t0 = t1 > f->span ? t1 - f->span : 0;

	if (t1 < f->span)
		t1 = f->span;

	/* the header, the axis and its labels; the info line and the legend when there is room */
	int rows = f->a.h - (f->a.h >= TL_INFO_MIN_H ? 5 : 3);
	int sel = pn->sel_cpu >= 0 && pn->sel_cpu < f->nr_cpus ? pn->sel_cpu : 0;

	/* a row for the selected task's wakeup arrows, when there is room for it and a lane */
	f->wake_pid = 0;
	if (pn->sel_task >= 0 && pn->sel_task < sched_nr_tasks(pn->run->e) && rows >= 3) {
		struct sched_task_info ti;

		sched_task_info(pn->run->e, pn->sel_task, &ti);
		f->wake_pid = ti.pid;
		rows--;
	}

	if (pn->tl_llc) {
		/* every CPU, shown an LLC to a row but the selected CPU's */
		f->nr_lanes = MIN(f->nr_cpus, TL_MAX_LANES);
		f->first = 0;
		tl_llc_rows(f, sel, rows);
	} else {
		f->nr_lanes = MIN(MIN(f->nr_cpus, rows), TL_MAX_LANES);
		f->first = 0;
		if (sel >= f->nr_lanes)
			f->first = MIN(sel - f->nr_lanes / 2, f->nr_cpus - f->nr_lanes);
		f->nr_rows = f->nr_lanes;
		for (int i = 0; i < f->nr_rows; i++)
			f->row[i] = (struct tl_row){ i, -1 };
	}
	f->g->sel = selected_switch(pn);
	build(pn, f->g, f->first, f->nr_lanes, t0, t1, f->cols, f->wake_pid);
	f->cursor_col = f->now >= f->g->t0 && f->now < f->g->t1 ? (int)((f->now - f->g->t0) / f->g->dt) : -1;
	return true;
}

/* "1.234567s": a time on the info and legend lines */
static const char *fmt_at(char *buf, size_t n, u64 t)
{
	snprintf(buf, n, "%" PRIu64 ".%06" PRIu64 "s", (u64)(t / NSEC_PER_SEC),
		 (u64)(t % NSEC_PER_SEC / NSEC_PER_USEC));
	return buf;
}

/* ---- A/B markers, as KernelShark's: two times and the delta between them ---- */

static const struct style mark_st[2] = { { C_BLACK, C_BRIGHT_MAGENTA, A_BOLD_ },
					 { C_BLACK, C_BRIGHT_CYAN, A_BOLD_ } };

/* The marker's column in the window, -1 when unset or outside it. */
static int mark_col(const struct tl_frame *f, int m)
{
	u64 t = f->pn->tl_mark[m];

	if (t == TL_NO_MARK || t < f->g->t0 || t >= f->g->t1)
		return -1;
	return (int)((t - f->g->t0) / f->g->dt);
}

/* "A 1.234567s  B 1.250000s  B-A +15.433ms  " for the markers set, at (x, y); returns the columns used. */
static int tl_marks_text(const struct tl_frame *f, int x, int y, int w)
{
	const u64 *m = f->pn->tl_mark;
	char t[2][32], d[32];
	int used = 0;

	for (int i = 0; i < 2; i++) {
		if (m[i] == TL_NO_MARK)
			continue;
		fmt_at(t[i], sizeof(t[i]), m[i]);
		used += cb_print(f->cb, x + used, y, w - used, f->pn->ui->colors ? mark_st[i] : STYLE_PLAIN,
				 "%c", 'A' + i);
		used += cb_print(f->cb, x + used, y, w - used, STYLE_PLAIN, " %s  ", t[i]);
	}
	if (m[0] != TL_NO_MARK && m[1] != TL_NO_MARK)
		used += cb_print(f->cb, x + used, y, w - used, sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_),
				 "B-A %s  ", fmt_dur(d, sizeof(d), (s64)(m[1] - m[0]), true));
	return used;
}

/* The markers down every lane: a line over idle cells, reverse video over a task's. */
static void tl_marks_lanes(const struct tl_frame *f, int ay)
{
	for (int m = 0; m < 2; m++) {
		int c = mark_col(f, m), x = f->a.x + f->label_w + c;

		if (c < 0 || x >= f->cb->w)
			continue;
		for (int i = 0; i < f->nr_rows; i++) {
			struct cell *cl =
				&f->cb->cell[(size_t)(f->a.y + 1 + i) * (size_t)f->cb->w + (size_t)x];

			if (cl->ch == ' ' || cl->ch == 0x00b7 || cl->ch == 0x2591)
				cb_put(f->cb, x, f->a.y + 1 + i, 0x2502,
				       f->pn->ui->colors ? sty(mark_st[m].bg, COLOR_DEFAULT, A_BOLD_)
							 : STYLE_PLAIN); /* │ */
			else
				cl->st.attr ^= A_REVERSE_;
		}
		cb_put(f->cb, x, ay, 'A' + (u32)m,
		       f->pn->ui->colors ? mark_st[m] : sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_));
	}
}

/* ---- wakeup to switch-in arrows, as Perfetto's and KernelShark's ---- */

/* One arrow from tw to ts (the switch-in, or the edge when open) on row y, the latency on it when it fits. */
static void tl_arrow(const struct tl_frame *f, int y, const struct tl_wakeup *w, struct style st)
{
	const struct grid *g = f->g;
	int x0 = f->a.x + f->label_w;
	int cw = w->tw < g->t0 ? 0 : (int)((w->tw - g->t0) / g->dt);
	int cs = MIN((int)((w->ts - g->t0) / g->dt), f->cols - 1);
	char lat[32];

	for (int c = cw; c < cs; c++)
		cb_put(f->cb, x0 + c, y, c == cw && w->tw >= g->t0 ? 0x251c : 0x2500, st); /* ├ ─ */
	cb_put(f->cb, x0 + cs, y, w->open ? 0x2500 : 0x25b6, st);			   /* ▶ */
	fmt_dur_short(lat, sizeof(lat), (s64)(w->ts - w->tw), false);
	int lw = (int)strlen(lat);

	if (cs - cw - 1 >= lw + 2)
		cb_print(f->cb, x0 + cw + 1 + (cs - cw - 1 - lw) / 2, y, lw, st, "%s", lat);
}

/* The selected task's wakeups in the window, as arrows (found by build()'s walk). */
static void tl_wakeups(const struct tl_frame *f, int y)
{
	struct style st = ui_task_style(f->pn->ui, f->wake_pid);

	cb_print(f->cb, f->a.x, y, f->label_w - 1, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0), "wakeup");
	st.attr |= A_BOLD_;
	for (int i = 0; i < f->g->wk.nr; i++)
		tl_arrow(f, y, &f->g->wk.arrow[i], st);
}

static void tl_header(const struct tl_frame *f)
{
	const struct grid *g = f->g;
	char b1[48], b2[48], b3[48], sp[32];

	fmt_time(b1, sizeof(b1), g->t0, 1);
	fmt_time(b2, sizeof(b2), g->t1, 1);
	fmt_dur_short(b3, sizeof(b3), (s64)g->dt, false);
	fmt_dur_short(sp, sizeof(sp), (s64)f->span, false);
	cb_print(f->cb, f->a.x, f->a.y, f->a.w, sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_),
		 "Timeline %s .. %s  span %s, %s per cell%s%s", b1, b2, sp, b3,
		 f->pn->tl_end_ns ? "" : "  (following now)",
		 f->pn->tl_llc		    ? "  [an LLC a row, the selected CPU's expanded: l]"
		 : f->nr_lanes < f->nr_cpus ? "  [more CPUs: select one to scroll, l for an LLC a row]"
					    : "");
}

/* The first column of [0, run) where len cells free of migration marks start, -1 when none. */
static int name_at(const struct grid *g, int li, int c, int run, int len)
{
	for (int p = 0, free_run = 0; p < run; p++) {
		free_run = g->mig[li][c + p] ? 0 : free_run + 1;
		if (free_run == len)
			return p - len + 1;
	}
	return -1;
}

/* The legend's counts back to zero for the next frame. */
static void legend_clear(struct grid *g)
{
	for (size_t k = 0; k < g->nr_drawn; k++)
		g->pid_cells[g->drawn[k]] = 0;
	g->nr_drawn = 0;
}

/* Cells of pid counted for the legend. */
static void legend_add(struct grid *g, s32 pid, int cells)
{
	if (pid <= 0 || (size_t)pid >= g->cap_pid_cells)
		return;
	if (!g->pid_cells[pid]) {
		XGROW(g->drawn, g->cap_drawn, g->nr_drawn);
		g->drawn[g->nr_drawn++] = pid;
	}
	g->pid_cells[pid] += (u32)cells;
}

/*
 * A block: `run` cells of one task (pid > 0) from column c of lane li, a
 * coloured bar with the task's name on it when the whole name fits; the
 * selected span in reverse video; a click selects the span under it.
 */
static void tl_block(const struct tl_frame *f, int li, int c, int run, int y)
{
	const struct grid *g = f->g;
	s32 pid = g->cell[li][c];
	int cpu = f->first + li, x = f->a.x + f->label_w + c;
	struct style ts = ui_task_style(f->pn->ui, pid);
	const char *name = sched_comm(f->pn->run->e, pid, cpu);
	/* in monochrome the block's last cell is its end mark, between it and the next */
	int len = (int)strlen(name), room = f->pn->ui->colors ? run : run - 1;
	int at = len <= room ? name_at(g, li, c, room, len) : -1;

	if (ts.fg != COLOR_DEFAULT) { /* a coloured bar, the name on it */
		ts.bg = ts.fg;
		ts.fg = C_BLACK;
	}
	for (int k = 0; k < run; k++) {
		struct style st = ts;
		u32 ch = at >= 0 && k >= at && k < at + len ? (u32)(unsigned char)name[k - at]
			 : f->pn->ui->colors		    ? ' '
			 : k == run - 1			    ? '|'
							    : '=';

		if (g->thr[li][c + k]) /* another group is throttled meanwhile */
			st.attr |= A_UNDERLINE_;
		if (g->sel != TL_NO_SPAN && g->span[li][c + k] == g->sel)
			st.attr |= A_REVERSE_ | A_BOLD_;
		cb_put(f->cb, x + k, y, ch, st);
	}
	/* a click selects the span drawn there: the cells of one sched_switch at a time */
	for (int k = 0, n; k < run; k += n) {
		u64 seq = g->span[li][c + k];

		for (n = 1; k + n < run && g->span[li][c + k + n] == seq; n++)
			;
		if (seq != TL_NO_SPAN)
			ui_hit(f->pn, (struct rect){ x + k, y, n, 1 }, HIT_SPAN, (s64)seq);
		else if (pid <= f->pn->run->f->sc.nr_tasks)
			ui_hit(f->pn, (struct rect){ x + k, y, n, 1 }, HIT_TASK, pid - 1);
	}
}

/* Lane i on row y: its label, then its blocks, idle cells, migrations and the cursor over them. */
static void tl_lane(const struct tl_frame *f, int i, int y)
{
	const struct grid *g = f->g;
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	int cpu = f->first + i, x0 = f->a.x + f->label_w;
	struct style ls =
		cpu == f->pn->sel_cpu ? sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_ | A_BOLD_) : dim;

	cb_print(f->cb, f->a.x, y, f->label_w - 1, ls, "CPU%-3d", cpu);
	ui_hit(f->pn, (struct rect){ f->a.x, y, f->a.w, 1 }, HIT_CPU, cpu); /* a task's span is on top */
	for (int c = 0; c < f->cols;) {
		s32 pid = g->cell[i][c];
		int run = 1;

		/* one task's cells next to each other are one block, whatever marks they carry */
		while (c + run < f->cols && g->cell[i][c + run] == pid)
			run++;
		if (pid > 0) {
			tl_block(f, i, c, run, y);
			legend_add(f->g, pid, run);
		}
		for (int k = 0; k < run; k++) {
			int x = x0 + c + k;

			if (pid == 0) /* · idle, ░ idle while a group is throttled */
				cb_put(f->cb, x, y, g->thr[i][c + k] ? 0x2591 : 0x00b7,
				       g->thr[i][c + k] ? sty(C_RED, COLOR_DEFAULT, 0) : dim);
			if (g->mig[i][c + k])
				cb_put(f->cb, x, y, 0x00bb,
				       sty(C_BRIGHT_WHITE,
					   pid > 0 ? ui_task_style(f->pn->ui, pid).fg : COLOR_DEFAULT,
					   A_BOLD_)); /* » */
		}
		c += run;
	}
	if (f->cursor_col >= 0) {
		struct cell *cl = &f->cb->cell[(size_t)y * (size_t)f->cb->w + (size_t)(x0 + f->cursor_col)];

		if (x0 + f->cursor_col < f->cb->w && y < f->cb->h)
			cl->st.attr |= A_UNDERLINE_ | A_BOLD_;
	}
}

/* The busy share of an LLC's CPUs in each column, as the CPUs view's heat strip draws utilisation. */
static void tl_llc_row(const struct tl_frame *f, int k, int y)
{
	static const u32 level_ch[5] = { 0x00b7, 0x2591, 0x2592, 0x2593, 0x2588 }; /* · ░ ▒ ▓ █ */
	static const int c256[5] = { 240, 34, 148, 214, 196 };
	static const int c16[5] = { C_BRIGHT_BLACK, C_GREEN, C_YELLOW, C_BRIGHT_YELLOW, C_RED };
	const struct grid *g = f->g;
	int x0 = f->a.x + f->label_w, n = f->llc_first[k + 1] - f->llc_first[k];

	cb_print(f->cb, f->a.x, y, f->label_w - 1, sty(C_CYAN, COLOR_DEFAULT, A_BOLD_), "LLC%-3d",
		 f->llc_id[k]);
	for (int c = 0; c < f->cols; c++) {
		int busy = 0, known = 0;

		for (int j = f->llc_first[k]; j < f->llc_first[k + 1]; j++) {
			s32 pid = g->cell[f->llc_lanes[j]][c];

			known += pid >= 0;
			busy += pid > 0;
		}
		if (!known)
			continue;
		/* none, then by quarters of the LLC's CPUs running a task */
		int lvl = !busy ? 0 : MIN(1 + busy * 4 / (n + 1), 4);
		struct style st = f->pn->ui->colors >= 256 ? sty(c256[lvl], COLOR_DEFAULT, 0)
				  : f->pn->ui->colors	   ? sty(c16[lvl], COLOR_DEFAULT, 0)
							   : STYLE_PLAIN;

		cb_put(f->cb, x0 + c, y, level_ch[lvl], st);
	}
	if (f->cursor_col >= 0 && x0 + f->cursor_col < f->cb->w)
		f->cb->cell[(size_t)y * (size_t)f->cb->w + (size_t)(x0 + f->cursor_col)].st.attr |=
			A_UNDERLINE_ | A_BOLD_;
}

/* The time axis under the lanes: ticks at round times, labels where they fit, the cursor. */
static void tl_axis(const struct tl_frame *f, int ay)
{
	const struct grid *g = f->g;
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	int x0 = f->a.x + f->label_w, last_end = -1;
	u64 step = round_step(g->dt * 14);
	char b1[48];

	for (int c = 0; c < f->cols; c++)
		cb_put(f->cb, x0 + c, ay, 0x2500, dim);
	/* a click on the axis or its labels sets marker A there, a right click B */
	ui_hit_time(f->pn, (struct rect){ x0, ay, f->cols, MIN(2, f->a.y + f->a.h - ay) }, g->t0, g->dt);
	for (u64 t = (g->t0 + step - 1) / step * step; t < g->t1; t += step) {
		int c = (int)((t - g->t0) / g->dt);
		int x = x0 + c;

		cb_put(f->cb, x, ay, 0x253c, dim); /* ┼ */
		fmt_time(b1, sizeof(b1), t, step);
		int lw = (int)strlen(b1);

		if (x <= last_end || c + lw > f->cols)
			continue;
		cb_print(f->cb, x, ay + 1, lw, dim, "%s", b1);
		last_end = x + lw;
	}
	if (f->cursor_col >= 0) {
		cb_put(f->cb, x0 + f->cursor_col, ay, 0x25b2,
		       sty(C_BRIGHT_YELLOW, COLOR_DEFAULT, A_BOLD_)); /* ▲ */
		cb_print(f->cb, f->a.x, ay, f->label_w, sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_), "now");
	}
}

/* The end of the span begun by switch ev, when the walk did not meet it: the CPU's next switch, looked for ahead. */
static void span_end(struct pane *pn, const struct sched_event *ev, u64 *end, bool *running, bool *known)
{
	u64 n = nr_visible(pn), seq = ev->seq;
	int cpu = ev->cpu;

	*known = true;
	*running = false;
	for (u64 s = seq + 1; s < n; s++) {
		const struct sched_event *e = history_event(pn->run->h, s);

		if (e->type == EV_SCHED_SWITCH && e->cpu == cpu) {
			*end = e->time;
			return;
		}
		if (s - seq >= TL_SPAN_SCAN) {
			*end = e->time; /* it lasts at least until here */
			*known = false;
			return;
		}
	}
	*running = true;
}

/* The selected span's task, CPU, times and duration; a hint when none is selected. */
static void tl_info(const struct tl_frame *f, int y)
{
	const struct grid *g = f->g;
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	char t0[32], t1[32], d[32];

	if (g->sel == TL_NO_SPAN) {
		cb_print(f->cb, f->a.x, y, f->a.w, dim,
			 "a click on a block selects its span: task, CPU, times and duration here");
		return;
	}
	const struct sched_event *ev = history_event(f->pn->run->h, g->sel);
	s32 pid = ev->sw.next_pid;
	int cpu = ev->cpu;
	u64 start = ev->time, end = g->sel_end;
	bool running = g->sel_running, known = true;

	if (!g->sel_found)
		span_end(f->pn, ev, &end, &running, &known);
	if (running)
		end = f->now;
	struct style ts = ui_task_style(f->pn->ui, pid);
	int used =
		cb_print(f->cb, f->a.x, y, f->a.w, sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_), "CPU%d ", cpu);

	ts.attr |= A_BOLD_;
	used += cb_print(f->cb, f->a.x + used, y, f->a.w - used, ts, "%s",
			 sched_comm(f->pn->run->e, pid, cpu));
	cb_print(f->cb, f->a.x + used, y, f->a.w - used, STYLE_PLAIN, " (pid %d)  %s .. %s%s  %s%s%s", pid,
		 fmt_at(t0, sizeof(t0), start), known ? "" : "after ",
		 running ? "now" : fmt_at(t1, sizeof(t1), end), known ? "" : "more than ",
		 fmt_dur(d, sizeof(d), (s64)(end - start), false), running ? " so far, running" : "");
}

static int cmp_cells(const void *a, const void *b, void *ctx)
{
	const u32 *cells = ctx;
	s32 x = *(const s32 *)a, y = *(const s32 *)b;

	if (cells[x] != cells[y])
		return cells[x] < cells[y] ? 1 : -1;
	return (x > y) - (x < y);
}

/*
 * The legend: the markers' times, then the tasks drawn in the lanes, the
 * most cells first, each in its colour (names that did not fit on their
 * blocks are found here), then what the marks mean, as far as they fit.
 */
static void tl_legend(const struct tl_frame *f, int y)
{
	struct grid *g = f->g;
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	int x = f->a.x, w = f->a.w, used = tl_marks_text(f, x, y, w);
	size_t i;

	qsort_r(g->drawn, g->nr_drawn, sizeof(*g->drawn), cmp_cells, g->pid_cells);
	for (i = 0; i < g->nr_drawn; i++) {
		s32 pid = g->drawn[i];
		const char *name = sched_comm(f->pn->run->e, pid, -1);
		struct style ts = ui_task_style(f->pn->ui, pid);
		/* room for this one and a "+N more" after it */
		int need = 2 + cb_text_width(name) + (i + 1 < g->nr_drawn ? 9 : 0);

		if (used + need > w)
			break;
		if (f->pn->ui->colors)
			used += cb_print(f->cb, x + used, y, w - used, ts, "\u2588");
		used += cb_print(f->cb, x + used, y, w - used, STYLE_PLAIN, "%s  ", name);
	}
	if (i < g->nr_drawn)
		used += cb_print(f->cb, x + used, y, w - used, dim, "+%zu more  ", g->nr_drawn - i);
	cb_print(f->cb, x + used, y, w - used, dim,
		 "\u00b7 idle  \u00bb migrated in  \u2591/underline throttled  \u25b2 now   keys: < > scroll "
		 " z zoom in  "
		 "x zoom out  m M marks A B (or a click, a right click on the axis)  / finds a task");
}

static void tl_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	struct tl_frame f = {
		.pn = pn,
		.cb = cb,
		.a = a,
		.g = grid_of(pn),
		.label_w = 7,
		.nr_cpus = sched_nr_cpus(pn->run->e),
		.now = sched_now(pn->run->e),
		.span = span_of(pn),
	};

	if (!tl_window(&f))
		return;
	tl_header(&f);
	for (int r = 0; r < f.nr_rows; r++) {
		if (f.row[r].lane >= 0)
			tl_lane(&f, f.row[r].lane, a.y + 1 + r);
		else
			tl_llc_row(&f, f.row[r].llc, a.y + 1 + r);
		if (pn->search[0])
			search_mark(cb, a.x + f.label_w, a.y + 1 + r, f.cols, pn->search);
	}

	int ay = a.y + 1 + f.nr_rows;

	if (f.wake_pid)
		tl_wakeups(&f, ay++);
	tl_axis(&f, ay);
	tl_marks_lanes(&f, ay);
	if (ay + 3 < a.y + a.h) {
		tl_info(&f, ay + 2);
		tl_legend(&f, ay + 3);
	} else if (ay + 2 < a.y + a.h) {
		tl_legend(&f, ay + 2);
	}
	legend_clear(f.g);
}

static bool tl_key(struct pane *pn, int key)
{
	u64 now = sched_now(pn->run->e);
	u64 span = span_of(pn);
	u64 end = pn->tl_end_ns ? pn->tl_end_ns : now;

	switch (key) {
	case '<':
		pn->tl_end_ns = end > span / 2 + span / 4 ? end - span / 2 : span;
		return true;
	case '>':
		end += span / 2;
		pn->tl_end_ns = end >= now ? 0 : end;
		return true;
	case 'z':
		pn->tl_span_ns = MAX(span / 2, TL_MIN_SPAN);
		return true;
	case 'x':
		if (span < 1000 * NSEC_PER_SEC)
			pn->tl_span_ns = span * 2;
		return true;
	case 'l':
		pn->tl_llc = !pn->tl_llc;
		return true;
	case 'm':
	case 'M': {
		/* at the current position; again at the same time takes it away */
		u64 *m = &pn->tl_mark[key == 'M'];

		*m = *m == now ? TL_NO_MARK : now;
		return true;
	}
	}
	return false;
}

/* ---- search: the spans of the tasks whose name holds the text (or whose pid it is) ---- */

/* The switch-in at ev starts a span the search is after. */
static bool tl_span_match(const struct pane *pn, const struct sched_event *ev, int pid)
{
	int next = ev->sw.next_pid;

	return ev->type == EV_SCHED_SWITCH && next > 0 &&
	       (next == pid || search_match(sched_comm(pn->run->e, next, ev->cpu), pn->search));
}

/* Select the span that starts at event seq (as a click does) and bring it into the window. */
static void tl_show(struct pane *pn, const struct sched_event *ev, u64 seq, u64 t0, u64 t1)
{
	u64 now = sched_now(pn->run->e), span = span_of(pn);
	int task = sched_task_by_pid(pn->run->e, ev->sw.next_pid);

	pn->sel_event = seq;
	pn->sel_cpu = ev->cpu;
	if (task >= 0)
		pn->sel_task = task;
	if (ev->time < t0 || ev->time >= t1) /* in the middle of the window, or following now */
		pn->tl_end_ns = ev->time + span / 2 >= now ? 0 : ev->time + span / 2;
}

/*
 * The next (down: later) or previous span of a task the search names: from
 * the selected span while it is in the window, else from the window's
 * edge; a budget's worth of the log at a time.
 */
static enum search_step tl_find(struct pane *pn, struct search_scan *sc)
{
	struct sched_history *h = pn->run->h;
	u64 n = nr_visible(pn), span = span_of(pn), s;
	u64 t1 = pn->tl_end_ns ? pn->tl_end_ns : sched_now(pn->run->e), t0 = t1 > span ? t1 - span : 0;
	const char *p = pn->search;
	int pid = *p >= '0' && *p <= '9' && strspn(p, "0123456789") == strlen(p) ? atoi(p) : -1;

	if (!sc->begun) {
		u64 found = selected_switch(pn), from = seq_at(h, n, sc->dir > 0 ? t0 : t1);

		if (found < n && history_event(h, found)->time >= t0 && history_event(h, found)->time < t1)
			from = found + (sc->dir > 0);
		search_scan_begin(sc, from, n);
	}
	while (search_scan_next(sc, n, &s)) {
		const struct sched_event *ev = history_event(h, s);

		if (tl_span_match(pn, ev, pid)) {
			tl_show(pn, ev, s, t0, t1);
			return SEARCH_HIT;
		}
	}
	return search_scan_step(sc);
}

const struct view view_timeline = {
	.name = "timeline",
	.title = "Timeline",
	.draw = tl_draw,
	.key = tl_key,
	.keys = "z x zoom, < > scroll in time (while it is the main view), m M marker A B at now (again: "
		"off); the wheel scrolls in time, a click selects a CPU or a span (its task, times and "
		"duration on the info line), a click on the time axis sets marker A there and a right click "
		"B; / finds a task's spans (by name or pid), n N the next and previous",
	.find = tl_find,
	.wheel_up = '<',
	.wheel_down = '>',
};
