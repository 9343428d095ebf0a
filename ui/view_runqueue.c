// SPDX-License-Identifier: GPL-2.0
/*
 * The runqueue view: one cfs_rq of the selected CPU (the root one, or the
 * selected group's) on a number line of virtual time; a child group is one
 * entity here, as the pick sees it. EEVDF: every queued entity at its vruntime, V (the weighted
 * average vruntime) marked, eligibility (lag = V - vruntime >= 0), the
 * virtual deadline as a bracket, and what pick_eevdf() would take and why;
 * a table below with the numbers. Legacy CFS: vruntimes against min_vruntime,
 * the leftmost pick and each task's ideal slice (sched_slice()).
 */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "table.h"
#include "search.h"
#include "ui.h"

#define RQ_MAX 256
#define RQ_MIN_SPAN 1000LL		    /* 1 us of virtual time across the axis */
#define RQ_MAX_SPAN (1000LL * 1000000000LL) /* 1000 s */

/* Text over up to `rows` rows, broken at spaces; returns the rows used. */
static int print_wrapped(struct cellbuf *cb, int x, int y, int w, int rows, struct style st, const char *s)
{
	int used = 0;

	while (*s && used < rows && w > 0) {
		int len = (int)strlen(s), cut = len;

		if (len > w) {
			cut = w;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = w;
		}
		cb_print(cb, x, y + used, w, st, "%.*s", cut, s);
		s += cut;
		while (*s == ' ')
			s++;
		used++;
	}
	return used;
}

struct rq_ent {
	struct sched_task_info ti;	/* of the task, or filled in from the group's entity */
	int group;			/* the child group the entity stands for, -1 for a task */
	s64 rel_v;	/* vruntime - reference (V in EEVDF, min_vruntime in CFS) */
	s64 rel_d;	/* deadline - reference */
	s64 prot_rel;	/* curr's protection end (vprot) - reference */
	bool curr, protect;
	u64 ideal_slice;
};

/* ---- the number line ---- */

struct axis {
	s64 lo, hi;	/* virtual ns relative to the reference */
	int x0, w;
};

static int axis_x(const struct axis *ax, s64 v)
{
	if (ax->hi <= ax->lo || ax->w <= 1)
		return ax->x0;
	double f = (double)(v - ax->lo) / (double)(ax->hi - ax->lo);

	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return ax->x0 + (int)(f * (ax->w - 1) + 0.5);
}

/* A round tick step (1, 2, 5 x 10^k ns) giving about `cells` columns per tick. */
static s64 tick_step(const struct axis *ax, int cells)
{
	s64 span = ax->hi - ax->lo;
	s64 want = ax->w > 0 ? span * cells / ax->w : span;

	return want > 1 ? (s64)round_step((u64)want) : 1;
}

static void draw_axis(struct cellbuf *cb, const struct axis *ax, int y, const char *ref_name)
{
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	struct style bold = sty(C_BRIGHT_WHITE, COLOR_DEFAULT, A_BOLD_);
	s64 step = tick_step(ax, 12);
	char buf[48];

	for (int x = ax->x0; x < ax->x0 + ax->w; x++)
		cb_put(cb, x, y, 0x2500, dim);	/* ─ */
	/* ticks and labels under them, skipping those that would overlap the reference */
	s64 first = ax->lo / step * step;
	int ref_x = axis_x(ax, 0);
	int last_end = -1;

	for (s64 t = first; t <= ax->hi; t += step) {
		if (t < ax->lo)
			continue;
		int x = axis_x(ax, t);

		cb_put(cb, x, y, 0x253c, dim);	/* ┼ */
		if (t == 0)
			continue;
		fmt_dur_short(buf, sizeof(buf), t, true);
		int lw = (int)strlen(buf);
		int lx = x - lw / 2;

		if (lx <= last_end || abs(x - ref_x) < lw / 2 + 3 || lx + lw > ax->x0 + ax->w)
			continue;
		cb_print(cb, lx, y + 1, lw, dim, "%s", buf);
		last_end = lx + lw;
	}
	cb_put(cb, ref_x, y, 0x253c, bold);
	cb_print(cb, ref_x - (int)strlen(ref_name) / 2, y + 1, 16, bold, "%s", ref_name);
}

/* ---- the pick: the engine's answer (sched_cfs_rq_pick()), put in words ---- */

static void pick_words(const struct pane *pn, const struct rq_ent *ents, const struct sched_pick_info *pi,
		       bool cfs, char *why, size_t wn)
{
	const struct rq_ent *en = pi->index >= 0 ? &ents[pi->index] : NULL;
	const char *who = en ? en->ti.name : "";
	const char *curr = en && en->curr ? "curr " : "";
	char b1[32];
	int n = 0;

	switch (pi->why) {
	case PICK_IDLE:
		n = snprintf(why, wn, "nothing queued: the CPU runs its idle task");
		break;
	case PICK_ONLY:
		n = snprintf(why, wn, "%s is the only entity: %s takes it", who,
			     cfs ? "pick_next_entity()" : "pick_eevdf()");
		break;
	case PICK_NEXT_BUDDY:
		n = cfs ? snprintf(
				  why, wn,
				  "%s: the next buddy (the wakee), within wakeup_granularity of the leftmost",
				  who)
			: snprintf(why, wn,
				   "%s: the next buddy (the wakee) and eligible: PICK_BUDDY takes it first",
				   who);
		break;
	case PICK_PROTECTED:
		n = snprintf(why, wn,
			     "curr %s: eligible and its slice is protected (%s) until its vruntime reaches "
			     "V%s: it keeps "
			     "the CPU",
			     who, sched_kernel_version(pn->run->e) >= KV(6, 17) ? "vprot" : "RUN_TO_PARITY",
			     fmt_dur(b1, sizeof(b1), en->prot_rel, true));
		break;
	case PICK_EARLIEST:
		n = snprintf(why, wn, "%s%s: earliest deadline (V%s) among %d eligible (lag >= 0)", curr, who,
			     fmt_dur(b1, sizeof(b1), en->rel_d, true), pi->nr_eligible);
		break;
	case PICK_LEFTMOST:
		n = snprintf(why, wn,
			     "%s%s: leftmost (smallest vruntime, curr included); curr runs until its ideal "
			     "slice is used "
			     "(check_preempt_tick) or a wakeup preempts it",
			     curr, who);
		break;
	case PICK_SKIP_SECOND:
		n = snprintf(why, wn,
			     "%s: the leftmost yielded (skip buddy) and the runner-up is within "
			     "wakeup_granularity",
			     who);
		break;
	case PICK_LAST_BUDDY:
		n = snprintf(
			why, wn,
			"%s: the last buddy (the preempted task), within wakeup_granularity of the leftmost",
			who);
		break;
	default:
		n = snprintf(why, wn, "%s", who);
		break;
	}
	if (pi->delayed && n >= 0 && (size_t)n < wn)
		snprintf(why + n, wn - (size_t)n,
			 "; it is delayed: picking it dequeues it, and the pick runs again");
}

/*
 * The axis: a round span (1, 2, 5 x 10^k virtual ns) around the reference,
 * kept from frame to frame while the queue fits in it and is not lost in
 * it (a fifth of it), so that stepping does not re-scale what a teacher
 * is pointing at; locked, it is the user's (z, x) and entities past it are
 * drawn at its edge as « ». EEVDF: V in the middle; CFS: min_vruntime near
 * the left, since vruntimes are not below it.
 */
static void axis_fit(struct pane *pn, struct axis *ax, const struct rq_ent *ents, int n, bool cfs)
{
	s64 need = 1000;

	for (int i = 0; i < n; i++) {
		s64 v = ents[i].rel_v < 0 ? -ents[i].rel_v : ents[i].rel_v;
		s64 d = ents[i].rel_d < 0 ? -ents[i].rel_d : ents[i].rel_d;

		need = MAX(need, cfs ? (ents[i].rel_v < 0 ? 8 * v : v + v / 7) : 2 * MAX(v, d));
	}
	need += need / 10;
	if (!pn->rq_locked && (pn->rq_span < need || pn->rq_span > 5 * need))
		pn->rq_span = (s64)round_step((u64)(need + need / 4));
	pn->rq_span = MAX(pn->rq_span, RQ_MIN_SPAN);
	ax->lo = cfs ? -pn->rq_span / 8 : -pn->rq_span / 2;
	ax->hi = ax->lo + pn->rq_span;
}

static bool rq_key(struct pane *pn, int key)
{
	switch (key) {
	case 'z':
		pn->rq_locked = true;
		pn->rq_span = MAX(pn->rq_span / 2, RQ_MIN_SPAN);
		return true;
	case 'x':
		pn->rq_locked = true;
		pn->rq_span = MIN(pn->rq_span * 2, RQ_MAX_SPAN);
		return true;
	case 'a':
		pn->rq_locked = false;
		return true;
	case 'j':
		pn->rq_top++;
		return true;
	case 'k':
		pn->rq_top = MAX(pn->rq_top - 1, 0);
		return true;
	case KEY_NPAGE:
		pn->rq_top += 10;
		return true;
	case KEY_PPAGE:
		pn->rq_top = MAX(pn->rq_top - 10, 0);
		return true;
	case KEY_HOME:
		pn->rq_top = 0;
		return true;
	case KEY_END:
		pn->rq_top = RQ_MAX; /* the draw clamps it to the last page */
		return true;
	}
	return false;
}

/* One frame of the view: the queue shown, its entities, and how the room is shared. */
struct rq_frame {
	struct pane *pn;
	struct cellbuf *cb;
	struct rect a;
	int right, bottom, y;
	int cpu, group;
	bool cfs, wide;
	struct sched_cfs_rq_info qi;
	struct sched_group_info gi;
	struct rq_ent *ents;
	int n, pick;
	int top, lanes, table_rows, name_w;
	struct axis ax;
};

/* The next (dir 1) or previous (-1) task of the queue shown, from the
 * selected one, whose name holds the search: selected, and scrolled to. */
static enum search_step rq_find(struct pane *pn, struct search_scan *sc)
{
	int dir = sc->dir;
	struct sched_entity_info q[RQ_MAX];
	int cpu = pn->sel_cpu >= 0 && pn->sel_cpu < sched_nr_cpus(pn->run->e) ? pn->sel_cpu : 0;
	int group = pn->sel_group > 0 && pn->sel_group < sched_nr_groups(pn->run->e) ? pn->sel_group : 0;
	int n = sched_cfs_rq_entities(pn->run->e, cpu, group, q, RQ_MAX), at = dir > 0 ? -1 : n;

	for (int i = 0; i < n; i++)
		if (q[i].task >= 0 && q[i].task == pn->sel_task)
			at = i;
	for (int i = at + dir; i >= 0 && i < n; i += dir) {
		if (q[i].task < 0 || !search_match(pn->run->f->sc.task[q[i].task].name, pn->search))
			continue;
		pn->sel_task = q[i].task;
		pn->rq_top = i; /* the draw keeps the last page full */
		return SEARCH_HIT;
	}
	return SEARCH_NONE;
}

static const struct style rq_bold = { COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_ };
static const struct style rq_dim = { C_BRIGHT_BLACK, COLOR_DEFAULT, 0 };
static const struct style rq_elig = { C_GREEN, COLOR_DEFAULT, A_BOLD_ };
static const struct style rq_inel = { C_RED, COLOR_DEFAULT, A_BOLD_ };

/* The queue's entities (a child group as one), with their numbers relative to V or min_vruntime. */
static void rq_collect(struct rq_frame *f, const struct sched_entity_info *q)
{
	u64 ref = f->cfs ? f->qi.min_vruntime : f->qi.avg_vruntime;

	for (int i = 0; i < f->n; i++) {
		struct rq_ent *en = &f->ents[i];

		en->group = q[i].group;
		if (q[i].task >= 0) {
			sched_task_info(f->pn->run->e, q[i].task, &en->ti);
		} else {
			struct sched_group_info cg;

			sched_group_info(f->pn->run->e, q[i].group, &cg);
			en->ti = (struct sched_task_info){ .name = cg.path, .state = TASK_RUNNING };
		}
		/* the entity's own numbers, relative to this queue */
		en->ti.vruntime = q[i].vruntime;
		en->ti.deadline = q[i].deadline;
		en->ti.slice = q[i].slice;
		en->ti.vlag = q[i].vlag;
		en->ti.weight = q[i].weight;
		en->ti.eligible = f->cfs || q[i].eligible;
		en->ti.sched_delayed = q[i].sched_delayed;
		en->ti.sum_exec_runtime = q[i].sum_exec_runtime;
		en->rel_v = (s64)(en->ti.vruntime - ref);
		en->rel_d = (s64)(en->ti.deadline - ref);
		en->curr = q[i].curr;
		en->protect = q[i].protect;
		en->prot_rel = (s64)(q[i].vprot - ref);
		en->ideal_slice = q[i].ideal_slice;
	}
}

static void rq_header(struct rq_frame *f)
{
	struct cellbuf *cb = f->cb;
	struct sched_engine *e = f->pn->run->e;
	int x = f->a.x, y = f->y;
	char b1[32], b2[32], kname[16];

	sched_kernel_name(kname, sizeof(kname), sched_kernel_version(e), sched_kernel_stable(e));
	x += cb_print(cb, x, y, f->right - x, rq_bold,
		      "CPU %d runqueue %s \u00b7 %s (kernel %s) \u00b7 nr_running %d", f->cpu, f->gi.path,
		      f->cfs ? "CFS" : "EEVDF", kname, f->qi.nr_running);
	if (f->cfs)
		cb_print(cb, x, y, f->right - x, STYLE_PLAIN,
			 " \u00b7 min_vruntime %s (virtual) \u00b7 sched_latency %s",
			 fmt_dur(b1, sizeof(b1), (s64)f->qi.min_vruntime, false),
			 fmt_dur(b2, sizeof(b2), (s64)sched_tunable_value(e, TUN_LATENCY), false));
	else
		cb_print(cb, x, y, f->right - x, STYLE_PLAIN,
			 " \u00b7 V = avg_vruntime %s (virtual) \u00b7 base_slice %s%s",
			 fmt_dur(b1, sizeof(b1), (s64)f->qi.avg_vruntime, false),
			 fmt_dur(b2, sizeof(b2), (s64)sched_tunable_value(e, TUN_BASE_SLICE), false),
			 sched_feature_enabled(e, FEAT_RUN_TO_PARITY) ? " \u00b7 RUN_TO_PARITY" : "");
	f->y++;
}

/* The engine's pick, in words (up to two rows). */
static void rq_pick_line(struct rq_frame *f)
{
	struct sched_pick_info pi;
	char why[256];

	sched_cfs_rq_pick(f->pn->run->e, f->cpu, f->group, &pi);
	pick_words(f->pn, f->ents, &pi, f->cfs, why, sizeof(why));
	f->pick = pi.index;
	if (f->y < f->bottom) {
		int x = f->a.x;

		x += cb_print(f->cb, x, f->y, f->right - x, rq_bold, "%s ",
			      f->cfs ? "pick_next_entity():" : "pick_eevdf() \u2192");
		f->y += print_wrapped(f->cb, x, f->y, f->right - x, MIN(2, f->bottom - f->y), STYLE_PLAIN,
				      why);
	}
}

/* The rest of the room, split between the number line and the table; the scroll and the axis. */
static void rq_layout(struct rq_frame *f)
{
	int avail = f->bottom - f->y;

	f->table_rows = MIN(f->n + 1, MAX(avail / 2 - 1, 2));
	f->lanes = MIN(f->n, avail - f->table_rows - 3);
	if (f->lanes < 1) {
		f->lanes = MIN(f->n, MAX(avail - 4, 0));
		f->table_rows = 0;
	}
	f->name_w = MIN(14, MAX(f->a.w / 7, 6));
	f->wide = f->a.w >= 96;
	f->ax = (struct axis){ 0, 0, f->a.x + f->name_w + 2, f->a.w - f->name_w - 3 };
	/* the lanes and the table scroll together over every queued entity */
	f->top = CLAMP(f->pn->rq_top, 0, MAX(f->n - MAX(f->lanes, 1), 0));
	f->pn->rq_top = f->top;
	axis_fit(f->pn, &f->ax, f->ents, f->n, f->cfs);
}

/* A click on an entity's lane or row selects the task, or the group whose
 * queue it is; a search marks its name (drawn at name_x). */
static void rq_entity_hooks(const struct rq_frame *f, const struct rq_ent *en, int y, int name_x)
{
	struct pane *pn = f->pn;
	struct rect r = { f->a.x, y, f->a.w, 1 };

	if (en->group >= 0)
		ui_hit(pn, r, HIT_GROUP, en->group);
	else if (en->ti.pid > 0 && en->ti.pid <= pn->run->f->sc.nr_tasks)
		ui_hit(pn, r, HIT_TASK, en->ti.pid - 1);
	if (pn->search[0])
		search_mark(f->cb, name_x, y, f->name_w, pn->search);
}

/* Entity i's lane: its name, its vruntime on the axis, its request up to its deadline. */
static void rq_lane(const struct rq_frame *f, int i, int y, int ref_x)
{
	const struct rq_ent *en = &f->ents[i];
	const struct axis *ax = &f->ax;
	struct cellbuf *cb = f->cb;
	struct style ns =
		en->group >= 0 ? ui_group_style(f->pn->ui, en->group) : ui_task_style(f->pn->ui, en->ti.pid);
	int xv = axis_x(ax, en->rel_v);

	cb_put(cb, f->a.x, y, i == f->pick ? 0x25b6 : ' ', rq_bold); /* ▶ */
	cb_print(cb, f->a.x + 1, y, f->name_w, ns, "%s", en->ti.name);
	rq_entity_hooks(f, en, y, f->a.x + 1);
	if (en->curr)
		cb_put(cb, f->a.x + 1 + MIN((int)strlen(en->ti.name), f->name_w - 1), y, '*', rq_bold);
	for (int x = ax->x0; x < ax->x0 + ax->w; x++)
		cb_put(cb, x, y, x == ref_x ? 0x2502 : 0x00b7, rq_dim); /* │ · */
	if (!f->cfs) {
		int xd = axis_x(ax, en->rel_d);
		struct style span =
			en->ti.eligible ? sty(C_GREEN, COLOR_DEFAULT, 0) : sty(C_RED, COLOR_DEFAULT, 0);

		for (int x = xv + 1; x < xd; x++)
			cb_put(cb, x, y, 0x2500, span); /* ─ the request still to run */
		cb_put(cb, xd, y, en->rel_d > ax->hi ? 0x00bb : ']', rq_bold); /* » past the edge */
		if (en->protect && axis_x(ax, en->prot_rel) != xd)
			cb_put(cb, axis_x(ax, en->prot_rel), y, 0x2016, rq_bold); /* ‖ */
	}
	u32 mark = en->ti.sched_delayed ? 'd' : en->ti.eligible ? 0x25cf : 0x25cb; /* ● ○ */

	if (en->rel_v < ax->lo || en->rel_v > ax->hi)
		mark = en->rel_v < ax->lo ? 0x00ab : 0x00bb; /* « » off the axis */
	cb_put(cb, xv, y, mark, en->ti.eligible ? rq_elig : rq_inel);
}

/* What the marks mean, on one row. */
static void rq_legend(struct rq_frame *f)
{
	struct cellbuf *cb = f->cb;
	int x = f->a.x, y = f->y;

	x += cb_print(cb, x, y, f->right - x, rq_dim, "vruntime - %s (virtual ns)  ",
		      f->cfs ? "min_vruntime" : "V");
	if (!f->cfs) {
		cb_put(cb, x++, y, 0x25cf, rq_elig);
		x += cb_print(cb, x, y, f->right - x, rq_dim, " eligible  ");
		cb_put(cb, x++, y, 0x25cb, rq_inel);
		x += cb_print(cb, x, y, f->right - x, rq_dim, " not  ");
		x += cb_print(cb, x, y, f->right - x, rq_dim, "d delayed  ] deadline  \u2016 protected to  ");
	}
	cb_print(cb, x, y, f->right - x, rq_dim, "* running  \u25b6 pick");
	f->y++;
}

/* The number line: a lane per entity in view, what is scrolled off, the axis and its caption. */
static void rq_number_line(struct rq_frame *f)
{
	struct cellbuf *cb = f->cb;
	int lanes = f->lanes, ref_x = axis_x(&f->ax, 0);
	char b5[32];

	if (lanes <= 0 || f->ax.w <= 4)
		return;
	if (f->top > 0 && f->y < f->bottom) {
		cb_print(cb, f->a.x + 1, f->y++, f->a.w - 1, rq_dim, "... %d more above (k, PgUp, Home)",
			 f->top);
		lanes = MIN(lanes, MAX(f->bottom - f->y - 3, 1));
	}
	for (int i = f->top; i < MIN(f->top + lanes, f->n) && f->y < f->bottom; i++, f->y++)
		rq_lane(f, i, f->y, ref_x);
	if (f->top + lanes < f->n && f->y < f->bottom)
		cb_print(cb, f->a.x + 1, f->y++, f->a.w - 1, rq_dim, "... %d more below (j, PgDn, End)",
			 f->n - f->top - lanes);
	if (f->y + 1 < f->bottom) {
		draw_axis(cb, &f->ax, f->y, f->cfs ? "min_vruntime" : "V");
		f->y += 2;
	}
	if (f->y < f->bottom)
		cb_print(cb, f->a.x, f->y++, f->a.w, rq_dim, "axis %s of virtual time, %s (z/x zoom, a auto)",
			 fmt_dur(b5, sizeof(b5), f->ax.hi - f->ax.lo, false),
			 f->pn->rq_locked ? "locked" : "fitted to the queue, kept while it fits");
	if (f->y < f->bottom)
		rq_legend(f);
}

/* The table's columns: CFS's, or EEVDF's with the lag when the view is wide. */
#define RQ_COLS 9
static int rq_columns(const struct rq_frame *f, struct column *col)
{
	int n = 0;

	col[n++] = (struct column){ "entity", f->name_w, COL_LEFT };
	col[n++] = (struct column){ "state", 8, COL_LEFT };
	if (f->cfs) {
		col[n++] = (struct column){ "vrt-min_vrt", 14, COL_RIGHT };
		col[n++] = (struct column){ "sum_exec", 12, COL_RIGHT };
		col[n++] = (struct column){ "ideal slice", 12, COL_RIGHT };
		col[n++] = (struct column){ "weight", 8, COL_RIGHT };
		return n;
	}
	col[n++] = (struct column){ "vrt-V", 10, COL_RIGHT };
	if (f->wide)
		col[n++] = (struct column){ "lag", 10, COL_RIGHT };
	col[n++] = (struct column){ "deadline-V", 10, COL_RIGHT };
	col[n++] = (struct column){ "slice", 9, COL_RIGHT };
	col[n++] = (struct column){ "weight", 6, COL_RIGHT };
	col[n++] = (struct column){ "elig", 4, COL_RIGHT };
	col[n++] = (struct column){ "delayed", 7, COL_RIGHT };
	return n;
}

/* Entity i's row of the table, in the columns rq_columns() gives. */
static void rq_table_row(const struct rq_frame *f, const struct column *col, int nc, int i, int y)
{
	const struct rq_ent *en = &f->ents[i];
	char b[5][32];
	const char *cell[RQ_COLS];
	struct style st[RQ_COLS];
	int k = 0;

	cell[k++] = en->ti.name;
	cell[k++] = en->curr ? "running" : en->ti.sched_delayed ? "delayed" : "queued";
	if (f->cfs) {
		cell[k++] = fmt_dur(b[0], sizeof(b[0]), en->rel_v, true);
		cell[k++] = fmt_dur(b[1], sizeof(b[1]), (s64)en->ti.sum_exec_runtime, false);
		cell[k++] = fmt_dur(b[2], sizeof(b[2]), (s64)en->ideal_slice, false);
	} else {
		cell[k++] = fmt_dur(b[0], sizeof(b[0]), en->rel_v, true);
		if (f->wide)
			cell[k++] = fmt_dur(b[1], sizeof(b[1]), en->ti.vlag, true);
		cell[k++] = fmt_dur(b[2], sizeof(b[2]), en->rel_d, true);
		cell[k++] = fmt_dur(b[3], sizeof(b[3]), (s64)en->ti.slice, false);
	}
	snprintf(b[4], sizeof(b[4]), "%" PRIu64, en->ti.weight >> 10);
	cell[k++] = b[4];
	if (!f->cfs) {
		cell[k++] = en->ti.eligible ? "yes" : "no";
		cell[k++] = en->ti.sched_delayed ? "yes" : "no";
	}
	for (int c = 0; c < nc; c++)
		st[c] = i == f->pick ? rq_bold : STYLE_PLAIN;
	st[0] = en->group >= 0 ? ui_group_style(f->pn->ui, en->group) : ui_task_style(f->pn->ui, en->ti.pid);
	cb_put(f->cb, f->a.x, y, i == f->pick ? 0x25b6 : ' ', rq_bold);
	table_row(f->cb, f->a.x + 2, y, f->a.w - 2, col, nc, cell, st);
	rq_entity_hooks(f, en, y, f->a.x + 2);
}

/* The table: a row per entity from the scroll position, and what its units are. */
static void rq_table(struct rq_frame *f)
{
	struct column col[RQ_COLS];
	int nc = rq_columns(f, col);

	if (f->table_rows <= 0 || f->y >= f->bottom)
		return;
	cb_print(f->cb, f->a.x, f->y, 2, rq_bold, "  ");
	table_header(f->cb, f->a.x + 2, f->y, f->a.w - 2, col, nc, rq_bold);
	f->y++;
	for (int i = f->top; i < f->n && f->y < f->bottom; i++, f->y++) {
		if (i - f->top == f->table_rows - 2 && i + 1 < f->n) {
			cb_print(f->cb, f->a.x + 2, f->y, f->a.w - 2, rq_dim, "... %d more (j, PgDn, End)",
				 f->n - i);
			f->y++;
			break;
		}
		rq_table_row(f, col, nc, i, f->y);
	}
	if (f->y < f->bottom)
		cb_print(f->cb, f->a.x, f->y, f->a.w, rq_dim,
			 f->cfs ? "times in ns of virtual (vrt) or real time; weight: nice 0 = 1024"
				: "vrt (vruntime), lag = V - vruntime, deadline: virtual time; slice: real "
				  "time; weight: nice 0 = 1024");
}

static void rq_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	struct rq_ent ents[RQ_MAX]; /* one frame's worth: about 90 KB of stack with q */
	struct sched_entity_info q[RQ_MAX];
	struct rq_frame f = {
		.pn = pn, .cb = cb, .a = a, .right = a.x + a.w, .bottom = a.y + a.h, .y = a.y, .ents = ents
	};
	struct sched_ext_info xi;

	if (a.w <= 0 || a.h <= 0)
		return;
	f.cpu = pn->sel_cpu >= 0 && pn->sel_cpu < sched_nr_cpus(pn->run->e) ? pn->sel_cpu : 0;
	f.group = pn->sel_group > 0 && pn->sel_group < sched_nr_groups(pn->run->e) ? pn->sel_group : 0;
	f.cfs = sched_variant(pn->run->e) == SCHED_VARIANT_CFS;
	sched_cfs_rq_info(pn->run->e, f.cpu, f.group, &f.qi);
	sched_group_info(pn->run->e, f.group, &f.gi);
	f.n = sched_cfs_rq_entities(pn->run->e, f.cpu, f.group, q, RQ_MAX);

	/* an ext policy's queues first; they are the whole view when the fair class has nothing */
	sched_ext_info(pn->run->e, &xi);
	if (xi.loaded) {
		int rows = f.n || !xi.enabled ? MIN(xi.enabled ? 3 + xi.nr_dsqs : 1, a.h / 2) : a.h;

		f.y += ext_queues_draw(pn, cb, (struct rect){ a.x, f.y, a.w, rows }, f.cpu) + 1;
		if ((!f.n && xi.enabled) || f.y >= f.bottom)
			return;
	}
	rq_collect(&f, q);
	rq_header(&f);
	rq_pick_line(&f);
	if (f.n == 0 || f.y >= f.bottom)
		return;
	rq_layout(&f);
	rq_number_line(&f);
	rq_table(&f);
}

const struct view view_runqueue = {
	.name = "runqueue",
	.title = "Runqueue",
	.draw = rq_draw,
	.key = rq_key,
	.keys = "z x zoom (locks the axis), a fit the axis, j k scroll, PgUp PgDn ten, Home End; "
		"a click on a group's line shows its queue, / finds a queued task",
	.find = rq_find,
	.wheel_up = 'k',
	.wheel_down = 'j',
};
