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

/* The next (dir 1) or previous (-1) task of the queue shown, from the
 * selected one, whose name holds the search: selected, and scrolled to. */
static bool rq_find(struct pane *pn, int dir)
{
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
		return true;
	}
	return false;
}

/* A click on an entity's lane or row selects the task, or the group whose queue it is. */
static void hit_entity(struct pane *pn, const struct rq_ent *en, struct rect r)
{
	if (en->group >= 0)
		ui_hit(pn, r, HIT_GROUP, en->group);
	else if (en->ti.pid > 0 && en->ti.pid <= pn->run->f->sc.nr_tasks)
		ui_hit(pn, r, HIT_TASK, en->ti.pid - 1);
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

static void rq_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	struct rq_ent ents[RQ_MAX];	/* one frame's worth: about 90 KB of stack with q */
	struct sched_entity_info q[RQ_MAX];
	struct sched_cfs_rq_info qi;
	struct sched_group_info gi;
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	struct style elig = sty(C_GREEN, COLOR_DEFAULT, A_BOLD_);
	struct style inel = sty(C_RED, COLOR_DEFAULT, A_BOLD_);
	char b1[32], b2[32], b3[32], b4[32], why[256];
	int cpu = pn->sel_cpu;
	bool cfs = sched_variant(pn->run->e) == SCHED_VARIANT_CFS;
	int right = a.x + a.w, bottom = a.y + a.h, y = a.y;

	if (a.w <= 0 || a.h <= 0)
		return;
	if (cpu < 0 || cpu >= sched_nr_cpus(pn->run->e))
		cpu = 0;
	int group = pn->sel_group > 0 && pn->sel_group < sched_nr_groups(pn->run->e) ? pn->sel_group : 0;

	sched_cfs_rq_info(pn->run->e, cpu, group, &qi);
	sched_group_info(pn->run->e, group, &gi);
	u64 ref = cfs ? qi.min_vruntime : qi.avg_vruntime;
	int n = sched_cfs_rq_entities(pn->run->e, cpu, group, q, RQ_MAX);
	struct sched_ext_info xi;

	/* an ext policy's queues first; they are the whole view when the fair class has nothing */
	sched_ext_info(pn->run->e, &xi);
	if (xi.loaded) {
		int rows = n || !xi.enabled ? MIN(xi.enabled ? 3 + xi.nr_dsqs : 1, a.h / 2) : a.h;

		y += ext_queues_draw(pn, cb, (struct rect){ a.x, y, a.w, rows }, cpu) + 1;
		if ((!n && xi.enabled) || y >= bottom)
			return;
	}

	for (int i = 0; i < n; i++) {
		struct rq_ent *en = &ents[i];

		en->group = q[i].group;
		if (q[i].task >= 0) {
			sched_task_info(pn->run->e, q[i].task, &en->ti);
		} else {
			struct sched_group_info cg;

			sched_group_info(pn->run->e, q[i].group, &cg);
			en->ti = (struct sched_task_info){ .name = cg.path, .state = TASK_RUNNING };
		}
		/* the entity's own numbers, relative to this queue */
		en->ti.vruntime = q[i].vruntime;
		en->ti.deadline = q[i].deadline;
		en->ti.slice = q[i].slice;
		en->ti.vlag = q[i].vlag;
		en->ti.weight = q[i].weight;
		en->ti.eligible = cfs || q[i].eligible;
		en->ti.sched_delayed = q[i].sched_delayed;
		en->ti.sum_exec_runtime = q[i].sum_exec_runtime;
		en->rel_v = (s64)(en->ti.vruntime - ref);
		en->rel_d = (s64)(en->ti.deadline - ref);
		en->curr = q[i].curr;
		en->protect = q[i].protect;
		en->prot_rel = (s64)(q[i].vprot - ref);
		en->ideal_slice = q[i].ideal_slice;
	}

	/* header */
	{
		int kv = sched_kernel_version(pn->run->e);
		int x = a.x;

		x += cb_print(cb, x, y, right - x, bold, "CPU %d runqueue %s \u00b7 %s (kernel %d.%d) \u00b7 nr_running %d",
			      cpu, gi.path, cfs ? "CFS" : "EEVDF", kv / 100, kv % 100, qi.nr_running);
		if (cfs)
			cb_print(cb, x, y, right - x, STYLE_PLAIN, " \u00b7 min_vruntime %s (virtual) \u00b7 sched_latency %s",
				 fmt_dur(b1, sizeof(b1), (s64)qi.min_vruntime, false),
				 fmt_dur(b2, sizeof(b2), (s64)sched_tunable_value(pn->run->e, TUN_LATENCY), false));
		else
			cb_print(cb, x, y, right - x, STYLE_PLAIN, " \u00b7 V = avg_vruntime %s (virtual) \u00b7 base_slice %s%s",
				 fmt_dur(b1, sizeof(b1), (s64)qi.avg_vruntime, false),
				 fmt_dur(b2, sizeof(b2), (s64)sched_tunable_value(pn->run->e, TUN_BASE_SLICE), false),
				 sched_feature_enabled(pn->run->e, FEAT_RUN_TO_PARITY) ? " \u00b7 RUN_TO_PARITY" : "");
		y++;
	}

	struct sched_pick_info pi;

	sched_cfs_rq_pick(pn->run->e, cpu, group, &pi);
	pick_words(pn, ents, &pi, cfs, why, sizeof(why));
	int pick = pi.index;

	if (y < bottom) {
		int x = a.x;

		x += cb_print(cb, x, y, right - x, bold, "%s ", cfs ? "pick_next_entity():" : "pick_eevdf() \u2192");
		y += print_wrapped(cb, x, y, right - x, MIN(2, bottom - y), STYLE_PLAIN, why);
	}
	if (n == 0 || y >= bottom)
		return;

	/* split the rest between the number line and the table */
	int avail = bottom - y;
	int table_rows = MIN(n + 1, MAX(avail / 2 - 1, 2));
	int lanes = MIN(n, avail - table_rows - 3);

	if (lanes < 1) {
		lanes = MIN(n, MAX(avail - 4, 0));
		table_rows = 0;
	}

	int name_w = MIN(14, MAX(a.w / 7, 6));
	bool wide = a.w >= 96;
	struct axis ax = { 0, 0, a.x + name_w + 2, a.w - name_w - 3 };
	/* the lanes and the table scroll together over every queued entity */
	int top = CLAMP(pn->rq_top, 0, MAX(n - MAX(lanes, 1), 0));

	pn->rq_top = top;
	axis_fit(pn, &ax, ents, n, cfs);

	if (lanes > 0 && ax.w > 4) {
		int ref_x = axis_x(&ax, 0);

		if (top > 0 && y < bottom) {
			cb_print(cb, a.x + 1, y++, a.w - 1, dim, "... %d more above (k, PgUp, Home)", top);
			lanes = MIN(lanes, MAX(bottom - y - 3, 1));
		}
		for (int i = top; i < MIN(top + lanes, n) && y < bottom; i++, y++) {
			const struct rq_ent *en = &ents[i];
			struct style ns = en->group >= 0 ? ui_group_style(pn->ui, en->group) : ui_task_style(pn->ui, en->ti.pid);
			int xv = axis_x(&ax, en->rel_v);

			cb_put(cb, a.x, y, i == pick ? 0x25b6 : ' ', bold);	/* ▶ */
			hit_entity(pn, en, (struct rect){ a.x, y, a.w, 1 });
			cb_print(cb, a.x + 1, y, name_w, ns, "%s", en->ti.name);
			if (pn->search[0])
				search_mark(cb, a.x + 1, y, name_w, pn->search);
			if (en->curr)
				cb_put(cb, a.x + 1 + MIN((int)strlen(en->ti.name), name_w - 1), y, '*', bold);
			for (int x = ax.x0; x < ax.x0 + ax.w; x++)
				cb_put(cb, x, y, x == ref_x ? 0x2502 : 0x00b7, dim);	/* │ · */
			if (!cfs) {
				int xd = axis_x(&ax, en->rel_d);
				struct style span = en->ti.eligible ? sty(C_GREEN, COLOR_DEFAULT, 0)
								   : sty(C_RED, COLOR_DEFAULT, 0);

				for (int x = xv + 1; x < xd; x++)
					cb_put(cb, x, y, 0x2500, span);	/* ─ the request still to run */
				cb_put(cb, xd, y, en->rel_d > ax.hi ? 0x00bb : ']',
				       bold); /* » past the edge */
				if (en->protect && axis_x(&ax, en->prot_rel) != xd)
					cb_put(cb, axis_x(&ax, en->prot_rel), y, 0x2016, bold); /* ‖ */
			}
			u32 mark = en->ti.sched_delayed ? 'd' : en->ti.eligible ? 0x25cf : 0x25cb;	/* ● ○ */

			if (en->rel_v < ax.lo || en->rel_v > ax.hi)
				mark = en->rel_v < ax.lo ? 0x00ab : 0x00bb; /* « » off the axis */
			cb_put(cb, xv, y, mark, en->ti.eligible ? elig : inel);
		}
		if (top + lanes < n && y < bottom)
			cb_print(cb, a.x + 1, y++, a.w - 1, dim, "... %d more below (j, PgDn, End)",
				 n - top - lanes);
		if (y + 1 < bottom) {
			draw_axis(cb, &ax, y, cfs ? "min_vruntime" : "V");
			y += 2;
		}
		if (y < bottom) {
			char b5[32];

			cb_print(cb, a.x, y++, a.w, dim, "axis %s of virtual time, %s (z/x zoom, a auto)",
				 fmt_dur(b5, sizeof(b5), ax.hi - ax.lo, false),
				 pn->rq_locked ? "locked" : "fitted to the queue, kept while it fits");
		}
		if (y < bottom) {
			int x = a.x;

			x += cb_print(cb, x, y, right - x, dim, "vruntime - %s (virtual ns)  ",
				      cfs ? "min_vruntime" : "V");
			if (!cfs) {
				cb_put(cb, x++, y, 0x25cf, elig);
				x += cb_print(cb, x, y, right - x, dim, " eligible  ");
				cb_put(cb, x++, y, 0x25cb, inel);
				x += cb_print(cb, x, y, right - x, dim, " not  ");
				x += cb_print(cb, x, y, right - x, dim,
					      "d delayed  ] deadline  \u2016 protected to  ");
			}
			cb_print(cb, x, y, right - x, dim, "* running  \u25b6 pick");
			y++;
		}
	}

	/* the table */
	if (table_rows <= 0 || y >= bottom)
		return;
	if (cfs)
		cb_print(cb, a.x, y, a.w, bold, "  %-*s %-8s %14s %12s %12s %8s", name_w, "entity", "state",
			 "vrt-min_vrt", "sum_exec", "ideal slice", "weight");
	else
		cb_print(cb, a.x, y, a.w, bold, "  %-*s %-8s %10s%s %10s %9s %6s %4s %7s", name_w, "entity",
			 "state", "vrt-V", wide ? "        lag" : "", "deadline-V", "slice", "weight", "elig", "delayed");
	y++;
	for (int i = top; i < n && y < bottom; i++, y++) {
		const struct rq_ent *en = &ents[i];
		const char *state = en->curr ? "running" : en->ti.sched_delayed ? "delayed" : "queued";
		struct style rs = i == pick ? bold : STYLE_PLAIN;

		if (i - top == table_rows - 2 && i + 1 < n) {
			cb_print(cb, a.x + 2, y, a.w - 2, dim, "... %d more (j, PgDn, End)", n - i);
			y++;
			break;
		}
		cb_put(cb, a.x, y, i == pick ? 0x25b6 : ' ', bold);
		hit_entity(pn, en, (struct rect){ a.x, y, a.w, 1 });
		cb_print(cb, a.x + 2, y, name_w, en->group >= 0 ? ui_group_style(pn->ui, en->group)
							   : ui_task_style(pn->ui, en->ti.pid), "%s", en->ti.name);
		if (pn->search[0])
			search_mark(cb, a.x + 2, y, name_w, pn->search);
		if (cfs) {
			cb_print(cb, a.x + 2 + name_w, y, a.w - 2 - name_w, rs,
				 " %-8s %14s %12s %12s %8" PRIu64, state,
				 fmt_dur(b1, sizeof(b1), en->rel_v, true),
				 fmt_dur(b2, sizeof(b2), (s64)en->ti.sum_exec_runtime, false),
				 fmt_dur(b3, sizeof(b3), (s64)en->ideal_slice, false), en->ti.weight >> 10);
		} else {
			char lag[40] = "";

			if (wide)
				snprintf(lag, sizeof(lag), " %10s", fmt_dur(b2, sizeof(b2), en->ti.vlag, true));
			cb_print(cb, a.x + 2 + name_w, y, a.w - 2 - name_w, rs, " %-8s %10s%s %10s %9s %6" PRIu64 " %4s %7s",
				 state, fmt_dur(b1, sizeof(b1), en->rel_v, true), lag,
				 fmt_dur(b3, sizeof(b3), en->rel_d, true),
				 fmt_dur(b4, sizeof(b4), (s64)en->ti.slice, false), en->ti.weight >> 10,
				 en->ti.eligible ? "yes" : "no", en->ti.sched_delayed ? "yes" : "no");
		}
	}
	if (y < bottom)
		cb_print(cb, a.x, y, a.w, dim, cfs ? "times in ns of virtual (vrt) or real time; weight: nice 0 = 1024"
					  : "vrt (vruntime), lag = V - vruntime, deadline: virtual time; slice: real time; weight: nice 0 = 1024");
}

const struct view view_runqueue = {
	.name = "runqueue",
	.title = "Runqueue",
	.draw = rq_draw,
	.key = rq_key,
	.keys = "z x zoom (locks the axis), a fit the axis, j k scroll, PgUp PgDn ten, Home End; "
		"a click on a group's line shows its queue",
	.find = rq_find,
	.wheel_up = 'k',
	.wheel_down = 'j',
};
