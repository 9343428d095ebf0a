// SPDX-License-Identifier: GPL-2.0
/*
 * The timeline: a Gantt chart of who ran on each CPU, built from the
 * sched_switch events of the history log. The window is pn->tl_span_ns wide
 * and ends at pn->tl_end_ns (0 follows the current time). Each cell shows
 * the task that ran most of the cell's time span; migrations are marked on
 * the destination CPU's lane; spans where a task group was throttled on the
 * CPU (cpu.max) are shaded; a cursor marks the current time.
 *
 * The log is searched by time (binary search), then walked backwards from
 * the window's end: the task running at the end is known (the engine's
 * current task when following, else the prev of each CPU's next switch), so
 * no scan from the start of the run is ever needed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "src/base/mem.h"
#include "format.h"
#include "ui.h"

#define TL_MAX_LANES 256
#define TL_MAX_COLS 1024
#define TL_SLOTS 4
#define TL_DEFAULT_SPAN (50 * NSEC_PER_MSEC)
#define TL_MIN_SPAN (10 * NSEC_PER_USEC)

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
	int col;	/* column being accumulated, -1 before any */
	s32 slot_pid[TL_SLOTS];
	u64 slot_ns[TL_SLOTS];
};

struct grid {
	u64 t0, t1, dt;	/* window [t0, t1), dt per column */
	int cols;
	int nr_lanes;
	s32 cell[TL_MAX_LANES][TL_MAX_COLS];	/* pid, -1 = nothing (future / before start) */
	u8 mig[TL_MAX_LANES][TL_MAX_COLS];	/* a migration arrived in this cell */
	u8 thr[TL_MAX_LANES][TL_MAX_COLS];	/* a group was throttled on the CPU in this cell */
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

static void slot_add(struct lane *l, s32 pid, u64 ns)
{
	int smallest = 0;

	for (int i = 0; i < TL_SLOTS; i++) {
		if (l->slot_pid[i] == pid && l->slot_ns[i]) {
			l->slot_ns[i] += ns;
			return;
		}
		if (l->slot_ns[i] < l->slot_ns[smallest])
			smallest = i;
	}
	if (l->slot_ns[smallest] < ns) {
		l->slot_pid[smallest] = pid;
		l->slot_ns[smallest] = ns;
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
	memset(l->slot_ns, 0, sizeof(l->slot_ns));
}

/* The lane ran pid over [from, l->edge): spread it over the columns. */
static void lane_span(struct grid *g, int li, struct lane *l, u64 from, s32 pid)
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
		slot_add(l, pid, to - a);
		to = a;
	}
	l->edge = from;
}

/* The pane's grid: one frame's worth, allocated once and reused. */
static struct grid *grid_of(struct pane *pn)
{
	if (!pn->tl_grid)
		pn->tl_grid = xmalloc(sizeof(struct grid));
	return pn->tl_grid;
}

static void build(struct pane *pn, struct grid *g, int first_lane, int nr_lanes, u64 t0, u64 t1, int cols)
{
	struct sched_history *h = pn->run->h;
	u64 now = sched_now(pn->run->e);
	u64 n = nr_visible(pn);
	struct lane lanes[TL_MAX_LANES];
	int lane_of_cpu_first = first_lane;

	g->t0 = t0;
	g->t1 = t1;
	g->cols = cols;
	g->dt = MAX((t1 - t0) / (u64)cols, 1);
	g->t1 = t0 + g->dt * (u64)cols;
	g->nr_lanes = nr_lanes;
	for (int i = 0; i < nr_lanes; i++) {
		for (int c = 0; c < cols; c++) {
			g->cell[i][c] = -1;
			g->mig[i][c] = 0;
			g->thr[i][c] = 0;
		}
	}

	/* the state at the right edge: the engine's now, or the next switch's prev */
	u64 end = MIN(g->t1, now);
	u64 end_seq = seq_at(h, n, end + 1);
	int unresolved = 0;

	for (int i = 0; i < nr_lanes; i++) {
		struct sched_cpu_info ci;

		lanes[i].cpu = first_lane + i;
		sched_cpu_info(pn->run->e, lanes[i].cpu, &ci);
		lanes[i].pid = ci.curr_pid;
		lanes[i].edge = end;
		lanes[i].col = -1;
		memset(lanes[i].slot_ns, 0, sizeof(lanes[i].slot_ns));
		memset(lanes[i].slot_pid, 0, sizeof(lanes[i].slot_pid));
	}
	if (end < now) {
		bool resolved[TL_MAX_LANES] = { false };

		unresolved = nr_lanes;
		for (u64 s = end_seq; s < n && unresolved; s++) {
			const struct sched_event *ev = history_event(h, s);
			int li = ev->cpu - lane_of_cpu_first;

			if (ev->type != EV_SCHED_SWITCH || li < 0 || li >= nr_lanes || resolved[li])
				continue;
			lanes[li].pid = ev->sw.prev_pid;
			resolved[li] = true;
			unresolved--;
		}
	}

	/*
	 * Throttled queues at the right edge: those now, less what changed
	 * after it (only scenarios with task groups pay for this scan).
	 */
	int thr[TL_MAX_LANES] = { 0 };
	u64 thr_edge[TL_MAX_LANES];

	for (int i = 0; i < nr_lanes; i++)
		thr_edge[i] = end;
	if (sched_nr_groups(pn->run->e) > 1) {
		for (int i = 0; i < nr_lanes; i++) {
			struct sched_cpu_info ci;

			sched_cpu_info(pn->run->e, lanes[i].cpu, &ci);
			thr[i] = ci.throttled_queues;
		}
		for (u64 s = end_seq; s < n; s++) {
			const struct sched_event *ev = history_event(h, s);
			int li = ev->cpu - first_lane;

			if (li >= 0 && li < nr_lanes)
				thr[li] -= (ev->type == EV_CFS_THROTTLE) - (ev->type == EV_CFS_UNTHROTTLE);
		}
	}

	/* walk back to the window's start */
	u64 start_seq = seq_at(h, n, t0);

	for (u64 s = end_seq; s-- > start_seq;) {
		const struct sched_event *ev = history_event(h, s);
		int li;

		if (ev->type == EV_CFS_THROTTLE || ev->type == EV_CFS_UNTHROTTLE) {
			li = ev->cpu - first_lane;
			if (li < 0 || li >= nr_lanes)
				continue;
			if (thr[li] > 0)
				mark_throttled(g, li, ev->time, thr_edge[li]);
			thr[li] += ev->type == EV_CFS_THROTTLE ? -1 : 1;
			thr_edge[li] = ev->time;
		} else if (ev->type == EV_SCHED_SWITCH) {
			li = ev->cpu - first_lane;
			if (li < 0 || li >= nr_lanes)
				continue;
			lane_span(g, li, &lanes[li], ev->time, ev->sw.next_pid);
			lanes[li].pid = ev->sw.prev_pid;
		} else if (ev->type == EV_SCHED_MIGRATE_TASK) {
			li = ev->migrate.dest_cpu - first_lane;
			if (li < 0 || li >= nr_lanes || ev->time < t0)
				continue;
			int c = (int)((ev->time - t0) / g->dt);

			if (c >= 0 && c < cols)
				g->mig[li][c] = 1;
		}
	}
	for (int i = 0; i < nr_lanes; i++) {
		lane_span(g, i, &lanes[i], t0, lanes[i].pid);
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

static void tl_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	struct grid *g = grid_of(pn);
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	char b1[48], b2[48], b3[48];
	int nr_cpus = sched_nr_cpus(pn->run->e);
	u64 now = sched_now(pn->run->e);
	u64 span = span_of(pn);
	u64 t1 = pn->tl_end_ns ? pn->tl_end_ns : now;
	int label_w = 7;

	if (a.w < label_w + 4 || a.h < 4)
		return;

	int cols = MIN(a.w - label_w, TL_MAX_COLS);
	/* follow: the current time sits in the last column */
	if (!pn->tl_end_ns)
		t1 = now + span / (u64)cols;
	u64 t0 = t1 > span ? t1 - span : 0;

	if (t1 < span)
		t1 = span;

	/* lanes: as many CPUs as fit, scrolled so the selected one shows */
	int rows = a.h - 3;
	int nr_lanes = MIN(MIN(nr_cpus, rows), TL_MAX_LANES);
	int sel = pn->sel_cpu >= 0 && pn->sel_cpu < nr_cpus ? pn->sel_cpu : 0;
	int first = 0;

	if (sel >= nr_lanes)
		first = MIN(sel - nr_lanes / 2, nr_cpus - nr_lanes);

	build(pn, g, first, nr_lanes, t0, t1, cols);

	/* header */
	fmt_time(b1, sizeof(b1), g->t0, 1);
	fmt_time(b2, sizeof(b2), g->t1, 1);
	fmt_dur_short(b3, sizeof(b3), (s64)g->dt, false);
	{
		char sp[32];

		fmt_dur_short(sp, sizeof(sp), (s64)span, false);
		cb_print(cb, a.x, a.y, a.w, bold, "Timeline %s .. %s  span %s, %s per cell%s%s", b1, b2, sp, b3,
			 pn->tl_end_ns ? "" : "  (following now)",
			 nr_lanes < nr_cpus ? "  [more CPUs: select one to scroll]" : "");
	}

	int cursor_col = now >= g->t0 && now < g->t1 ? (int)((now - g->t0) / g->dt) : -1;

	for (int i = 0; i < nr_lanes; i++) {
		int y = a.y + 1 + i, cpu = first + i;
		struct style ls = cpu == pn->sel_cpu ? sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_ | A_BOLD_) : dim;

		cb_print(cb, a.x, y, label_w - 1, ls, "CPU%-3d", cpu);
		ui_hit(pn, (struct rect){ a.x, y, a.w, 1 }, HIT_CPU, cpu); /* a task's span is on top */
		for (int c = 0; c < cols;) {
			s32 pid = g->cell[i][c];
			int run = 1;

			while (c + run < cols && g->cell[i][c + run] == pid && !g->mig[i][c + run] &&
			       g->thr[i][c + run] == g->thr[i][c])
				run++;
			int x = a.x + label_w + c;

			if (pid < 0) {
				/* future or before the log: leave blank */
			} else if (pid == 0) {
				for (int k = 0; k < run; k++)	/* · idle, ░ idle while a group is throttled */
					cb_put(cb, x + k, y, g->thr[i][c] ? 0x2591 : 0x00b7,
					       g->thr[i][c] ? sty(C_RED, COLOR_DEFAULT, 0) : dim);
			} else {
				struct style ts = ui_task_style(pn->ui, pid);

				if (ts.fg != COLOR_DEFAULT) {	/* a coloured bar, the name on it */
					ts.bg = ts.fg;
					ts.fg = C_BLACK;
				}
				if (g->thr[i][c])	/* another group is throttled meanwhile */
					ts.attr |= A_UNDERLINE_;
				const char *name = sched_comm(pn->run->e, pid, cpu);
				int len = (int)strlen(name);

				if (pid <= pn->run->f->sc.nr_tasks)
					ui_hit(pn, (struct rect){ x, y, run, 1 }, HIT_TASK, pid - 1);

				for (int k = 0; k < run; k++) {
					u32 ch = k < len ? (u32)(unsigned char)name[k]
							 : pn->ui->colors ? ' ' : (k == run - 1 ? '|' : '=');

					if (run < len && k == run - 1 && run > 2)
						ch = '~';	/* name cut short */
					cb_put(cb, x + k, y, ch, ts);
				}
			}
			for (int k = 0; k < run; k++)
				if (g->mig[i][c + k])
					cb_put(cb, x + k, y, 0x00bb, sty(C_BRIGHT_WHITE,
									 pid > 0 ? ui_task_style(pn->ui, pid).fg : COLOR_DEFAULT,
									 A_BOLD_));	/* » */
			c += run;
		}
		if (cursor_col >= 0) {
			struct cell *cl = &cb->cell[(size_t)y * (size_t)cb->w + (size_t)(a.x + label_w + cursor_col)];

			if (a.x + label_w + cursor_col < cb->w && y < cb->h)
				cl->st.attr |= A_UNDERLINE_ | A_BOLD_;
		}
	}

	/* time axis */
	int ay = a.y + 1 + nr_lanes;
	u64 step = round_step(g->dt * 14);
	int last_end = -1;

	for (int c = 0; c < cols; c++)
		cb_put(cb, a.x + label_w + c, ay, 0x2500, dim);
	for (u64 t = (g->t0 + step - 1) / step * step; t < g->t1; t += step) {
		int c = (int)((t - g->t0) / g->dt);
		int x = a.x + label_w + c;

		cb_put(cb, x, ay, 0x253c, dim);	/* ┼ */
		fmt_time(b1, sizeof(b1), t, step);
		int lw = (int)strlen(b1);

		if (x <= last_end || c + lw > cols)
			continue;
		cb_print(cb, x, ay + 1, lw, dim, "%s", b1);
		last_end = x + lw;
	}
	if (cursor_col >= 0) {
		cb_put(cb, a.x + label_w + cursor_col, ay, 0x25b2, sty(C_BRIGHT_YELLOW, COLOR_DEFAULT, A_BOLD_));	/* ▲ */
		cb_print(cb, a.x, ay, label_w, bold, "now");
	}
	if (ay + 2 < a.y + a.h)
		cb_print(cb, a.x, ay + 2, a.w, dim,
			 "cell = task that ran most of it  \u00b7 idle  \u00bb migrated in  \u2591/underline throttled  \u25b2 now   keys: < > scroll  z zoom in  x zoom out");
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
	}
	return false;
}

const struct view view_timeline = {
	.name = "timeline",
	.title = "Timeline",
	.draw = tl_draw,
	.key = tl_key,
	.keys = "z x zoom, < > scroll in time (while it is the main view), the wheel scrolls in time",
	.wheel_up = '<',
	.wheel_down = '>',
};
