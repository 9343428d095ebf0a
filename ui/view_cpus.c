// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs view: every CPU in topology order (package > LLC > core > SMT
 * sibling) with its current task, its queue, nr_running and PELT load/util
 * bars; when the CPUs do not fit, a heat strip: one cell per CPU coloured by
 * utilisation, a row per LLC, rolled up per package on one shared scale.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/api/ext.h"
#include "search.h"
#include "src/base/duration.h"
#include "ui.h"

#define MAX_QUEUE 64

/* ---- topology order ---- */

static int cmp_topo(const void *a, const void *b, void *arg)
{
	const struct sched_topology *t = arg;
	const struct sched_topo_cpu *x = &t->cpu[*(const int *)a], *y = &t->cpu[*(const int *)b];

	if (x->package != y->package)
		return x->package < y->package ? -1 : 1;
	if (x->llc != y->llc)
		return x->llc < y->llc ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* CPUs sorted by topology into order[]; returns how many. */
static int topo_order(const struct pane *pn, int *order)
{
	const struct sched_topology *t = sched_scenario_of(pn->run->e)->topo;
	int n = MIN(sched_nr_cpus(pn->run->e), SCHED_MAX_CPUS);

	for (int i = 0; i < n; i++)
		order[i] = i;
	if (t && t->cpu && t->nr_cpus >= n)
		qsort_r(order, (size_t)n, sizeof(int), cmp_topo, (void *)t);
	return n;
}

static const struct sched_topo_cpu *topo_cpu(const struct pane *pn, int cpu)
{
	static const struct sched_topo_cpu flat = { 0, 0, 0, 0, 0, 0, 1024 };
	const struct sched_topology *t = sched_scenario_of(pn->run->e)->topo;

	if (!t || !t->cpu || cpu >= t->nr_cpus)
		return &flat;
	return &t->cpu[cpu];
}

/* ---- utilisation colours: one scale for the whole view ---- */

static int util_level(u64 util, u32 cap)
{
	if (!cap)
		cap = 1024;
	u64 pct = util * 100 / cap;

	if (util == 0)
		return 0;
	if (pct < 25)
		return 1;
	if (pct < 50)
		return 2;
	if (pct < 75)
		return 3;
	return 4;
}

static const u32 level_ch[5] = { 0x00b7, 0x2591, 0x2592, 0x2593, 0x2588 };	/* · ░ ▒ ▓ █ */

static struct style level_style(const struct pane *pn, int level)
{
	static const int c256[5] = { 240, 34, 148, 214, 196 };
	static const int c16[5] = { C_BRIGHT_BLACK, C_GREEN, C_YELLOW, C_BRIGHT_YELLOW, C_RED };

	if (pn->ui->colors >= 256)
		return sty(c256[level], COLOR_DEFAULT, 0);
	if (pn->ui->colors > 0)
		return sty(c16[level], COLOR_DEFAULT, level == 4 ? A_BOLD_ : 0);
	return STYLE_PLAIN;
}

/* A bar of w cells for v out of max, with eighth blocks; saturates at max. */
static void draw_bar(struct cellbuf *cb, int x, int y, int w, u64 v, u64 max, struct style st)
{
	static const u32 part[8] = { ' ', 0x258f, 0x258e, 0x258d, 0x258c, 0x258b, 0x258a, 0x2589 };
	u64 eighths = max ? v * (u64)w * 8 / max : 0;
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);

	if (eighths > (u64)w * 8)
		eighths = (u64)w * 8;
	for (int i = 0; i < w; i++) {
		u64 full = eighths / 8;

		if ((u64)i < full)
			cb_put(cb, x + i, y, 0x2588, st);
		else if ((u64)i == full && eighths % 8)
			cb_put(cb, x + i, y, part[eighths % 8], st);
		else
			cb_put(cb, x + i, y, 0x2591, dim);	/* ░ track */
	}
}

/* ---- history graphs, as btop draws a core's ---- */

/* the span of the graphs: about the buckets the history keeps */
#define HIST_SPAN_NS NSEC_PER_SEC

/*
 * Values v[0..w) as columns of eighth blocks h rows high, 0..max bottom to
 * top, each in the style st(v) gives; a column never sampled stays blank,
 * a zero is a dim floor so that it is not taken for one.
 */
static void draw_graph(const struct pane *pn, struct cellbuf *cb, int x, int y, int w, int h, const u32 *v,
		       u32 max, struct style (*st)(const struct pane *pn, u32 v, u32 max))
{
	static const u32 part[9] = { ' ', 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588 };
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);

	for (int i = 0; i < w; i++) {
		if (v[i] == CPU_HIST_NONE)
			continue;
		/* eighths of the whole height, rounded up so that any load shows */
		u64 e = max ? MIN(((u64)v[i] * (u64)h * 8 + max - 1) / max, (u64)h * 8) : 0;

		if (!e) {
			cb_put(cb, x + i, y + h - 1, 0x2581, dim);
			continue;
		}
		for (int r = 0; r < h; r++) {
			u64 here = e > (u64)r * 8 ? MIN(e - (u64)r * 8, 8) : 0;

			if (here)
				cb_put(cb, x + i, y + h - 1 - r, part[here], st(pn, v[i], max));
		}
	}
}

static struct style util_graph_style(const struct pane *pn, u32 v, u32 max)
{
	return level_style(pn, util_level(v, max));
}

static struct style load_graph_style(const struct pane *pn, u32 v, u32 max)
{
	return pn->ui->colors ? sty(C_BLUE, COLOR_DEFAULT, 0) : STYLE_PLAIN;
}

/* ---- the detailed mode: one row per CPU ---- */

struct layout {
	int name_w;	/* current task column */
	int bar_w;	/* load and util bars */
	bool bars;
	int hist_w; /* the util history column, 0 for none */
};

/* The columns a row of w cells has room for. */
static struct layout layout_for(int w)
{
	return (struct layout){
		.name_w = w >= 100 ? 16 : 12,
		.bar_w = w >= 140   ? 16
			 : w >= 110 ? 10
				    : 6,
		.bars = w >= 70,
		.hist_w = w >= 150   ? 24
			  : w >= 120 ? 16
				     : 0,
	};
}

/* One CPU's row as it is drawn: where the next column goes, and the row's styles. */
struct row_ctx {
	struct pane *pn;
	struct cellbuf *cb;
	int x, y, right;
	int cpu;
	struct sched_cpu_info ci;
	struct style base, dim;
};

/* The selection mark, the core bracket, the CPU's name and what it runs. */
static void row_head(struct row_ctx *r, u32 core_mark, const struct layout *L)
{
	bool sel = r->cpu == r->pn->sel_cpu;
	const struct sched_cpu_info *ci = &r->ci;

	cb_put(r->cb, r->x, r->y, sel ? 0x25b6 : ' ', r->base); /* ▶ */
	cb_put(r->cb, r->x + 1, r->y, core_mark, r->base);
	r->x += 2;
	r->x += cb_print(r->cb, r->x, r->y, r->right - r->x, r->base, "CPU%-3d ", r->cpu);
	if (ci->idle) {
		cb_print(r->cb, r->x, r->y, MIN(L->name_w, r->right - r->x), sel ? r->base : r->dim, "%s",
			 ci->tick_stopped ? "idle nohz" : "idle");
	} else {
		struct style ts = ui_task_style(r->pn->ui, ci->curr_pid);

		cb_print(r->cb, r->x, r->y, MIN(L->name_w, r->right - r->x), ts, "%s",
			 sched_comm(r->pn->run->e, ci->curr_pid, r->cpu));
	}
	r->x += L->name_w + 1;
}

/* nr_running, tasks held off by throttled groups, the PELT bars, irq share and capacity. */
static void row_numbers(struct row_ctx *r, const struct layout *L)
{
	const struct sched_cpu_info *ci = &r->ci;
	const struct sched_topo_cpu *tc = topo_cpu(r->pn, r->cpu);
	struct cellbuf *cb = r->cb;
	int x = r->x, y = r->y, right = r->right;

	x += cb_print(cb, x, y, right - x, r->base, "%3d ", ci->nr_running);
	/* tasks held off this CPU by throttled groups (cpu.max) */
	int held = ci->throttled_tasks;

	if (held && x + 6 < right)
		x += cb_print(cb, x, y, right - x, sty(C_RED, COLOR_DEFAULT, A_BOLD_), "T%-3d ", held);

	if (L->bars && x + 2 * (L->bar_w + 9) <= right) {
		u32 cap = ci->capacity ? ci->capacity : 1024;

		x += cb_print(cb, x, y, right - x, r->base, "L");
		draw_bar(cb, x, y, L->bar_w, ci->avg.load_avg, cap, sty(C_BLUE, COLOR_DEFAULT, 0));
		x += L->bar_w;
		x += cb_print(cb, x, y, right - x, r->base, " %5llu ", (unsigned long long)ci->avg.load_avg);
		x += cb_print(cb, x, y, right - x, r->base, "U");
		draw_bar(cb, x, y, L->bar_w, ci->avg.util_avg, cap,
			 level_style(r->pn, util_level(ci->avg.util_avg, cap)));
		x += L->bar_w;
		x += cb_print(cb, x, y, right - x, r->base, " %5llu ", (unsigned long long)ci->avg.util_avg);
		if (L->hist_w && x + L->hist_w + 1 <= right) {
			u32 v[64];
			int w = MIN(L->hist_w, 64);

			cpu_history_series(&r->pn->run->cpu_hist, r->cpu, sched_now(r->pn->run->e),
					   HIST_SPAN_NS, w, v, NULL);
			draw_graph(r->pn, cb, x, y, w, 1, v, cap, util_graph_style);
			x += w + 1;
		}
	}
	/* the PELT share of interrupt and steal time, and an interruption under way */
	if ((ci->irq_util || ci->interrupted) && x + 9 < right)
		x += cb_print(
			cb, x, y, right - x, sty(C_YELLOW, COLOR_DEFAULT, ci->interrupted ? A_BOLD_ : 0),
			"%s%2llu%% ", ci->interrupted ? "IRQ" : "irq",
			(unsigned long long)(ci->irq_util * 100 / (ci->capacity ? ci->capacity : 1024)));
	if (tc->capacity && tc->capacity != 1024 && x + 9 < right)
		x += cb_print(cb, x, y, right - x, sty(C_CYAN, COLOR_DEFAULT, 0), "cap %-4u ",
			      ci->capacity ? ci->capacity : tc->capacity);
	r->x = x;
}

/* The queued tasks in the tree's order (the running one is listed first by the API). */
static void row_queue(struct row_ctx *r)
{
	struct pane *pn = r->pn;
	struct cellbuf *cb = r->cb;
	int q[MAX_QUEUE];
	int x = r->x, y = r->y, right = r->right;
	int n = sched_cpu_queue(pn->run->e, r->cpu, q, MAX_QUEUE);
	int shown = 0, queued = 0;

	for (int i = 0; i < n; i++) {
		struct sched_task_info ti;

		sched_task_info(pn->run->e, q[i], &ti);
		if (ti.on_cpu && ti.pid == r->ci.curr_pid)
			continue;
		queued++;
		const char *name = ti.name;
		int need = (int)strlen(name) + (ti.sched_delayed ? 2 : 1);

		if (x + need + 4 > right) {
			continue;
		}
		/* with task groups, queued tasks take their group's colour */
		x += cb_print(cb, x, y, right - x,
			      ti.group > 0 ? ui_group_style(pn->ui, ti.group) : ui_task_style(pn->ui, ti.pid), "%s", name);
		if (ti.sched_delayed)
			x += cb_print(cb, x, y, right - x, r->dim, "%s", "~");
		x += cb_print(cb, x, y, right - x, r->base, " ");
		shown++;
	}
	if (queued > shown && x < right)
		x += cb_print(cb, x, y, right - x, r->dim, "+%d ", queued - shown);
	else if (n >= MAX_QUEUE && x < right)
		x += cb_print(cb, x, y, right - x, r->dim, "+more ");
	r->x = x;
}

/* The ext class's local dispatch queue, head first. */
static void row_ext_local(struct row_ctx *r)
{
	struct pane *pn = r->pn;
	struct cellbuf *cb = r->cb;
	int q[MAX_QUEUE];
	int x = r->x, y = r->y, right = r->right, shown, n;

	if (!r->ci.ext_nr_local || x + 4 >= right)
		return;
	n = sched_ext_dsq_tasks(pn->run->e, -1 - r->cpu, q, MAX_QUEUE);
	x += cb_print(cb, x, y, right - x, r->dim, "\u2502 ");
	for (shown = 0; shown < n; shown++) {
		const char *comm = sched_comm(pn->run->e, q[shown] + 1, r->cpu);

		if (x + (int)strlen(comm) + 4 >= right)
			break;
		x += cb_print(cb, x, y, right - x, ui_task_style(pn->ui, q[shown] + 1), "%s ", comm);
	}
	if (r->ci.ext_nr_local > shown && x < right)
		cb_print(cb, x, y, right - x, r->dim, "+%d", r->ci.ext_nr_local - shown);
}

static void cpu_row(struct pane *pn, struct cellbuf *cb, struct rect a, int y, int cpu, u32 core_mark,
		    const struct layout *L)
{
	bool sel = cpu == pn->sel_cpu;
	struct row_ctx r = {
		.pn = pn,
		.cb = cb,
		.x = a.x,
		.y = y,
		.right = a.x + a.w,
		.cpu = cpu,
		.base = sel ? sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_) : STYLE_PLAIN,
		.dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0),
	};

	sched_cpu_info(pn->run->e, cpu, &r.ci);
	if (sel)
		cb_fill(cb, (struct rect){ a.x, y, a.w, 1 }, ' ', r.base);
	row_head(&r, core_mark, L);
	if (r.x >= r.right)
		return;
	row_numbers(&r, L);
	row_queue(&r);
	row_ext_local(&r);
}

/* A CPU's line: a click there selects it, a search marks what it finds on it. */
static void cpu_line(struct pane *pn, struct cellbuf *cb, struct rect a, int y, int cpu, u32 core_mark,
		     const struct layout *L)
{
	cpu_row(pn, cb, a, y, cpu, core_mark, L);
	ui_hit(pn, (struct rect){ a.x, y, a.w, 1 }, HIT_CPU, cpu);
	if (pn->search[0])
		search_mark(cb, a.x, y, a.w, pn->search);
}

static bool ext_enabled(const struct pane *pn)
{
	struct sched_ext_info xi;

	sched_ext_info(pn->run->e, &xi);
	return xi.enabled;
}

/* The ext policy's shared dispatch queues on one line: "ext simple: global 0 · 0x0 vtime 3". */
static void draw_ext_line(struct pane *pn, struct cellbuf *cb, int x, int y, int w)
{
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	struct sched_ext_info xi;
	int right = x + w;
	char id[32];

	sched_ext_info(pn->run->e, &xi);
	if (!xi.loaded)
		return;
	if (!xi.enabled) {
		cb_print(cb, x, y, w, xi.exit_kind ? sty(C_RED, COLOR_DEFAULT, 0) : dim, "ext %s %s", xi.name,
			 xi.exit_kind ? ext_exit_reason(xi.exit_kind) : "not enabled yet");
		return;
	}
	x += cb_print(cb, x, y, right - x, sty(C_CYAN, COLOR_DEFAULT, A_BOLD_), "ext %s:", xi.name);
	for (int i = 0; i < xi.nr_dsqs && x < right; i++) {
		struct sched_ext_dsq_info di;

		sched_ext_dsq(pn->run->e, i, &di);
		if (di.id == SCX_DSQ_GLOBAL)
			snprintf(id, sizeof(id), "global");
		else
			ext_dsq_format(id, sizeof(id), di.id);
		x += cb_print(cb, x, y, right - x, dim, "%s %s%s %d", i ? " \u00b7" : "", id,
			      di.vtime ? " vtime" : "", di.nr);
	}
}

static u32 core_mark(const int *order, int n, int i, const struct pane *pn)
{
	const struct sched_topo_cpu *c = topo_cpu(pn, order[i]);
	bool prev = i > 0 && topo_cpu(pn, order[i - 1])->core == c->core &&
		    topo_cpu(pn, order[i - 1])->llc == c->llc;
	bool next = i + 1 < n && topo_cpu(pn, order[i + 1])->core == c->core &&
		    topo_cpu(pn, order[i + 1])->llc == c->llc;

	if (prev && next)
		return 0x251c;	/* ├ */
	if (next)
		return 0x250c;	/* ┌ */
	if (prev)
		return 0x2514;	/* └ */
	return ' ';
}

static int count_groups(const struct pane *pn, const int *order, int n)
{
	int groups = 0;

	for (int i = 0; i < n; i++)
		if (i == 0 || topo_cpu(pn, order[i])->llc != topo_cpu(pn, order[i - 1])->llc ||
		    topo_cpu(pn, order[i])->package != topo_cpu(pn, order[i - 1])->package)
			groups++;
	return groups;
}

/* Range of CPUs in order[i..] sharing order[i]'s LLC: returns the count. */
static int llc_span(const struct pane *pn, const int *order, int n, int i)
{
	const struct sched_topo_cpu *c = topo_cpu(pn, order[i]);
	int j = i;

	while (j < n && topo_cpu(pn, order[j])->llc == c->llc &&
	       topo_cpu(pn, order[j])->package == c->package)
		j++;
	return j - i;
}

/* The selected CPU's util and load over the last second, three rows each, when h rows are spare. */
static void draw_selected_history(struct pane *pn, struct cellbuf *cb, int x, int y, int w, int h)
{
	struct style head = sty(C_CYAN, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	int cpu = pn->sel_cpu, label_w = 14, gw = MIN(w - label_w - 8, 200);
	u32 util[200], load[200], top = 0;
	struct sched_cpu_info ci;

	if (h < 8 || gw < 20 || cpu < 0 || cpu >= sched_nr_cpus(pn->run->e))
		return;
	sched_cpu_info(pn->run->e, cpu, &ci);
	u32 cap = ci.capacity ? ci.capacity : 1024;

	cpu_history_series(&pn->run->cpu_hist, cpu, sched_now(pn->run->e), HIST_SPAN_NS, gw, util, load);
	/* load has no ceiling: the graph's is the capacity or the highest load shown */
	for (int i = 0; i < gw; i++)
		if (load[i] != CPU_HIST_NONE)
			top = MAX(top, load[i]);
	top = MAX(top, cap);
	char col[32];

	cb_print(cb, x, y, w, head,
		 "CPU%d over the last 1s (PELT as the engine had it along the events; a column is %s)", cpu,
		 fmt_dur(col, sizeof(col), (s64)(HIST_SPAN_NS / (u64)gw), false));
	cb_print(cb, x, y + 1, label_w, STYLE_PLAIN, " util_avg");
	cb_print(cb, x, y + 2, label_w, dim, " 0..%u", cap);
	draw_graph(pn, cb, x + label_w, y + 1, gw, 3, util, cap, util_graph_style);
	cb_print(cb, x, y + 4, label_w, STYLE_PLAIN, " load_avg");
	cb_print(cb, x, y + 5, label_w, dim, " 0..%u", top);
	draw_graph(pn, cb, x + label_w, y + 4, gw, 3, load, top, load_graph_style);
	cb_print(cb, x + label_w, y + 7, gw, dim, "-1s%*s", gw - 3, "now");
}

static void draw_detailed(struct pane *pn, struct cellbuf *cb, struct rect a, const int *order, int n)
{
	struct layout L = layout_for(a.w);
	struct style hdr = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, A_BOLD_);
	struct style grp = sty(C_CYAN, COLOR_DEFAULT, A_BOLD_);
	int y = a.y;

	/* column header */
	{
		int x = a.x + 2;

		x += cb_print(cb, x, y, a.x + a.w - x, hdr, "%-7s", "CPU");
		x += cb_print(cb, x, y, a.x + a.w - x, hdr, "%-*s ", L.name_w, "running");
		x += cb_print(cb, x, y, a.x + a.w - x, hdr, "%3s ", "nr");
		if (L.bars && x + 2 * (L.bar_w + 12) <= a.x + a.w) {
			x += cb_print(cb, x, y, a.x + a.w - x, hdr, "%-*s ", L.bar_w + 7, "load_avg/cap");
			x += cb_print(cb, x, y, a.x + a.w - x, hdr, "%-*s ", L.bar_w + 7, "util_avg/cap");
			if (L.hist_w)
				x += cb_print(cb, x, y, a.x + a.w - x, hdr, "%-*s ", L.hist_w,
					      "util, last 1s");
		}
		cb_print(cb, x, y, a.x + a.w - x, hdr, "queued (tree order, ~ delayed%s)",
			 ext_enabled(pn) ? ", \u2502 ext local queue" : "");
		y++;
	}

	for (int i = 0; i < n && y < a.y + a.h; i++) {
		const struct sched_topo_cpu *c = topo_cpu(pn, order[i]);

		if (i == 0 || c->llc != topo_cpu(pn, order[i - 1])->llc ||
		    c->package != topo_cpu(pn, order[i - 1])->package) {
			int cnt = llc_span(pn, order, n, i);

			cb_print(cb, a.x, y, a.w, grp, "package %d \u00b7 node %d \u00b7 LLC %d  (%d CPU%s)",
				 c->package, c->node, c->llc, cnt, cnt == 1 ? "" : "s");
			y++;
			if (y >= a.y + a.h)
				break;
		}
		cpu_line(pn, cb, a, y, order[i], core_mark(order, n, i, pn), &L);
		y++;
	}
	if (y < a.y + a.h)
		draw_ext_line(pn, cb, a.x, y, a.w);
	draw_selected_history(pn, cb, a.x, y + 2, a.w, a.y + a.h - y - 2);
}

/* ---- the heat strip ---- */

struct rollup {
	u64 util_sum;	/* in per-mille of capacity */
	int nr, busy, max_pm;
	long nr_running;
};

static void roll(struct rollup *r, const struct sched_cpu_info *ci)
{
	u32 cap = ci->capacity ? ci->capacity : 1024;
	int pm = (int)MIN(ci->avg.util_avg * 1000 / cap, 1000);

	r->util_sum += (u64)pm;
	r->nr++;
	r->busy += !ci->idle;
	r->nr_running += ci->nr_running;
	if (pm > r->max_pm)
		r->max_pm = pm;
}

static int roll_avg_pct(const struct rollup *r)
{
	return r->nr ? (int)(r->util_sum / (u64)r->nr / 10) : 0;
}

/* Cells per strip row for w columns: groups of 8 CPUs with a gap between groups. */
static int strip_cells(int w)
{
	if (w < 17)
		return MAX(w, 1);
	return (w + 1) / 9 * 8;
}

static int strip_x(int k_in_row)
{
	return k_in_row + k_in_row / 8;
}

/* Cells for CPUs order[i..i+cnt) starting at (x, y), `per_row` cells per row;
 * returns the rows used (clipped to max_rows). */
static int draw_cells(struct pane *pn, struct cellbuf *cb, int x, int y, int per_row, int max_rows,
		      const int *order, int i, int cnt, struct rollup *r)
{
	int rows = 0;
	bool gaps = per_row >= 16;

	for (int k = 0; k < cnt; k++) {
		struct sched_cpu_info ci;
		int cpu = order[i + k];
		int row = k / per_row, col = k % per_row;

		sched_cpu_info(pn->run->e, cpu, &ci);
		if (r)
			roll(r, &ci);
		if (row >= max_rows)
			continue;
		rows = row + 1;

		int lvl = util_level(ci.avg.util_avg, ci.capacity);
		struct style st = level_style(pn, lvl);
		u32 ch = level_ch[lvl];

		if (lvl == 0 && !ci.idle)
			ch = '.';	/* running, but no utilisation built up yet */
		if (cpu == pn->sel_cpu) {
			st.attr |= A_REVERSE_ | A_BOLD_;
			if (pn->ui->colors == 0)
				ch = '@';
		}
		cb_put(cb, x + (gaps ? strip_x(col) : col), y + row, ch, st);
		ui_hit(pn, (struct rect){ x + (gaps ? strip_x(col) : col), y + row, 1, 1 }, HIT_CPU, cpu);
	}
	return rows;
}

static void draw_legend(struct pane *pn, struct cellbuf *cb, int x, int y, int w)
{
	static const char *const label[5] = { "0", "<25%", "<50%", "<75%", "\u226575%" };
	int right = x + w;

	x += cb_print(cb, x, y, right - x, STYLE_PLAIN, "util/capacity: ");
	for (int l = 0; l < 5 && x < right; l++) {
		cb_put(cb, x, y, level_ch[l], level_style(pn, l));
		x++;
		x += cb_print(cb, x, y, right - x, STYLE_PLAIN, "%s ", label[l]);
	}
	x += cb_print(cb, x, y, right - x, STYLE_PLAIN, " . busy, util 0  ");
	cb_print(cb, x, y, right - x, sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_),
		 pn->ui->colors ? "selected" : "@ selected");
}

static void draw_selected_line(struct pane *pn, struct cellbuf *cb, int x, int y, int w)
{
	struct sched_cpu_info ci;
	int cpu = pn->sel_cpu;

	if (cpu < 0 || cpu >= sched_nr_cpus(pn->run->e))
		cpu = 0;
	sched_cpu_info(pn->run->e, cpu, &ci);
	const struct sched_topo_cpu *c = topo_cpu(pn, cpu);
	int used = cb_print(cb, x, y, w, sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_),
			    "CPU%d (pkg %d llc %d core %d thread %d): ", cpu, c->package, c->llc,
			    c->core, c->thread);

	if (ci.idle)
		used += cb_print(cb, x + used, y, w - used, STYLE_PLAIN, "%s",
				 ci.tick_stopped ? "idle nohz" : "idle");
	else
		used += cb_print(cb, x + used, y, w - used, ui_task_style(pn->ui, ci.curr_pid), "%s",
				 sched_comm(pn->run->e, ci.curr_pid, cpu));
	cb_print(cb, x + used, y, w - used, STYLE_PLAIN,
		 "  nr_running %d  load_avg %llu  util_avg %llu/%u", ci.nr_running,
		 (unsigned long long)ci.avg.load_avg, (unsigned long long)ci.avg.util_avg,
		 ci.capacity ? ci.capacity : 1024);
}

/* The strip's geometry: a label column (" LLC 3"), the cells, a percentage. */
struct strip {
	int label_w, suffix_w, per_row, strip_w;
	bool per_llc; /* a row per LLC, else one strip per package */
};

static struct strip strip_geometry(int w)
{
	struct strip g = { .label_w = 9, .suffix_w = 6 };

	g.per_row = strip_cells(w - g.label_w - g.suffix_w);
	if (w - g.label_w - g.suffix_w < 8) {
		g.label_w = 0;
		g.suffix_w = 0;
		g.per_row = MAX(w, 1);
	}
	g.strip_w = g.per_row >= 16 ? strip_x(g.per_row - 1) + 1 : g.per_row;
	return g;
}

static int count_packages(const struct pane *pn, const int *order, int n)
{
	int nr_pkg = 0;

	for (int i = 0; i < n; i++)
		if (i == 0 || topo_cpu(pn, order[i])->package != topo_cpu(pn, order[i - 1])->package)
			nr_pkg++;
	return nr_pkg;
}

/* Rows per LLC when they fit in `room` rows, else one strip per package. */
static bool strip_fits_per_llc(const struct pane *pn, const int *order, int n, int per_row, int nr_pkg,
			       int room)
{
	int need = 0;

	for (int i = 0; i < n;) {
		int cnt = llc_span(pn, order, n, i);

		need += (cnt + per_row - 1) / per_row;
		i += cnt;
	}
	return need + nr_pkg <= room;
}

/* One package: its roll-up line, then its LLCs' strips (or one strip); returns the next row. */
static int heat_package(struct pane *pn, struct cellbuf *cb, struct rect a, const struct strip *g, int y,
			int bottom, const int *order, int n, int i, int pkg_end)
{
	struct style grp = sty(C_CYAN, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	const struct sched_topo_cpu *c = topo_cpu(pn, order[i]);
	/* the roll-up line's numbers are known after the cells */
	int pkg_y = y++;
	struct rollup pr = { 0 };

	if (g->per_llc) {
		for (int j = i; j < pkg_end;) {
			int cnt = llc_span(pn, order, n, j);
			struct rollup lr = { 0 };
			int rows = draw_cells(pn, cb, a.x + g->label_w, y, g->per_row, MAX(bottom - y, 0),
					      order, j, cnt, &lr);

			if (g->label_w && rows)
				cb_print(cb, a.x, y, g->label_w, dim, " LLC %-3d",
					 topo_cpu(pn, order[j])->llc);
			if (g->suffix_w && rows)
				cb_print(cb, a.x + g->label_w + g->strip_w + 1, y, g->suffix_w - 1, dim,
					 "%3d%%", roll_avg_pct(&lr));
			pr.util_sum += lr.util_sum;
			pr.nr += lr.nr;
			pr.busy += lr.busy;
			pr.nr_running += lr.nr_running;
			pr.max_pm = MAX(pr.max_pm, lr.max_pm);
			y += rows;
			j += cnt;
		}
	} else {
		int rows = draw_cells(pn, cb, a.x + g->label_w, y, g->per_row, MAX(bottom - y, 0), order, i,
				      pkg_end - i, &pr);

		if (g->label_w && rows)
			cb_print(cb, a.x, y, g->label_w, dim, " LLCs");
		y += rows;
	}
	cb_print(cb, a.x, pkg_y, a.w, grp,
		 "pkg %d node %d: %d CPUs, util avg %d%%, max %d%%, busy %d/%d, nr_running %ld", c->package,
		 c->node, pr.nr, roll_avg_pct(&pr), pr.max_pm / 10, pr.busy, pr.nr, pr.nr_running);
	return y;
}

/* Spare rows under the strips: the CPUs around the selected one, in detail. */
static void heat_neighbours(struct pane *pn, struct cellbuf *cb, struct rect a, int y, int bottom,
			    const int *order, int n)
{
	struct layout L = layout_for(a.w);
	int rows = bottom - y - 1, at = 0;

	if (bottom - y < 3 || a.w < 40)
		return;
	for (int i = 0; i < n; i++)
		if (order[i] == pn->sel_cpu)
			at = i;
	int first = MAX(0, MIN(at - rows / 2, n - rows));

	y++;
	for (int i = first; i < n && y < bottom; i++, y++)
		cpu_line(pn, cb, a, y, order[i], core_mark(order, n, i, pn), &L);
}

static void draw_heat(struct pane *pn, struct cellbuf *cb, struct rect a, const int *order, int n)
{
	struct strip g = strip_geometry(a.w);
	int y = a.y, bottom = a.y + a.h;
	int nr_llc = count_groups(pn, order, n), nr_pkg = count_packages(pn, order, n);

	cb_print(cb, a.x, y++, a.w, sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_),
		 "%d CPUs, %d package%s, %d LLC%s: heat strip, one cell per CPU in topology order", n, nr_pkg,
		 nr_pkg == 1 ? "" : "s", nr_llc, nr_llc == 1 ? "" : "s");
	if (y < bottom)
		draw_legend(pn, cb, a.x, y++, a.w);
	bottom--; /* the selected CPU's line */

	g.per_llc = strip_fits_per_llc(pn, order, n, g.per_row, nr_pkg, bottom - y);
	for (int i = 0; i < n && y < bottom;) {
		int pkg_end = i;

		while (pkg_end < n &&
		       topo_cpu(pn, order[pkg_end])->package == topo_cpu(pn, order[i])->package)
			pkg_end++;
		y = heat_package(pn, cb, a, &g, y, bottom, order, n, i, pkg_end);
		i = pkg_end;
	}
	heat_neighbours(pn, cb, a, y, bottom, order, n);
	draw_selected_line(pn, cb, a.x, a.y + a.h - 1, a.w);
}

static void cpus_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	int order[SCHED_MAX_CPUS];
	int n;

	if (a.w <= 0 || a.h <= 0 || !pn->run->e)
		return;
	n = topo_order(pn, order);
	if (n == 0)
		return;

	int rows = 1 + count_groups(pn, order, n) + n;

	if (rows <= a.h && a.w >= 40)
		draw_detailed(pn, cb, a, order, n);
	else
		draw_heat(pn, cb, a, order, n);
}

/* A CPU's words as a search sees them: CPU N, the running task, the queued ones. */
static void cpu_text(const struct pane *pn, int cpu, char *out, size_t len)
{
	int q[MAX_QUEUE], n = sched_cpu_queue(pn->run->e, cpu, q, MAX_QUEUE);
	size_t k = (size_t)snprintf(out, len, "CPU%d", cpu);

	for (int i = 0; i < n && k < len; i++) {
		struct sched_task_info ti;

		sched_task_info(pn->run->e, q[i], &ti);
		k += (size_t)snprintf(out + k, len - k, " %s", ti.name);
	}
}

/* The next (dir 1) or previous (-1) CPU in topology order whose line holds the search. */
static enum search_step cpus_find(struct pane *pn, struct search_scan *sc)
{
	int dir = sc->dir;
	int order[SCHED_MAX_CPUS], n = topo_order(pn, order), at = dir > 0 ? -1 : n;
	char text[1024];

	for (int i = 0; i < n; i++)
		if (order[i] == pn->sel_cpu)
			at = i;
	for (int i = at + dir; i >= 0 && i < n; i += dir) {
		cpu_text(pn, order[i], text, sizeof(text));
		if (search_match(text, pn->search)) {
			pn->sel_cpu = order[i];
			return SEARCH_HIT;
		}
	}
	return SEARCH_NONE;
}

const struct view view_cpus = {
	.name = "cpus",
	.title = "CPUs",
	.draw = cpus_draw,
	.key = NULL,
	.keys = "/ finds a CPU by its number or the tasks on it; a click selects a CPU",
	.find = cpus_find,
};
