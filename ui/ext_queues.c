// SPDX-License-Identifier: GPL-2.0
/*
 * The ext class's dispatch queues, for the runqueue view: the policy and
 * its state (or why it exited), the selected CPU's local queue with the
 * task running there, then every shared queue (the global ones and those
 * the policy created) with its order and the tasks on it, head first.
 */
#include <inttypes.h>
#include <string.h>

#include "sched/api/ext.h"
#include "format.h"
#include "ui.h"

#define EXT_ROW_MAX 64

/* "name (slice 12.0ms)" or, in a vtime queue, "name (vt 1.234ms)"; returns the cells used. */
static int task_cell(struct pane *pn, struct cellbuf *cb, int x, int y, int w, int task, bool vtime)
{
	struct sched_task_info ti;
	char b[32];
	int used;

	sched_task_info(pn->run->e, task, &ti);
	used = cb_print(cb, x, y, w, ui_task_style(pn->ui, ti.pid), "%s", ti.name);
	if (vtime)
		used += cb_print(cb, x + used, y, w - used, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0), " vt %s",
				 fmt_dur(b, sizeof(b), (s64)ti.ext_vtime, false));
	else if (ti.ext_slice != SCX_SLICE_INF)
		used += cb_print(cb, x + used, y, w - used, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0), " %s",
				 fmt_dur(b, sizeof(b), (s64)ti.ext_slice, false));
	return used;
}

/* One queue on one row: its label, then as many of its tasks as fit. */
static void queue_row(struct pane *pn, struct cellbuf *cb, struct rect a, int y, const char *label, int nr,
		      bool vtime, int which)
{
	int tasks[EXT_ROW_MAX], n = sched_ext_dsq_tasks(pn->run->e, which, tasks, EXT_ROW_MAX);
	int x = a.x, right = a.x + a.w, shown = 0;
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);

	x += cb_print(cb, x, y, right - x, STYLE_PLAIN, "  %-14s %-5s %3d  ", label, vtime ? "vtime" : "fifo",
		      nr);
	for (int i = 0; i < n && x < right - 8; i++, shown++) {
		x += task_cell(pn, cb, x, y, right - x - 6, tasks[i], vtime);
		x += cb_print(cb, x, y, right - x, STYLE_PLAIN, "  ");
	}
	if (nr > shown && x < right)
		cb_print(cb, x, y, right - x, dim, "+%d", nr - shown);
}

int ext_queues_draw(struct pane *pn, struct cellbuf *cb, struct rect a, int cpu)
{
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	struct sched_ext_info xi;
	struct sched_cpu_info ci;
	int y = a.y, bottom = a.y + a.h, right = a.x + a.w;
	char label[32];

	sched_ext_info(pn->run->e, &xi);
	if (!xi.loaded || a.h <= 0)
		return 0;
	if (!xi.enabled) {
		if (xi.exit_kind)
			y += cb_print(cb, a.x, y, a.w, sty(C_RED, COLOR_DEFAULT, A_BOLD_),
				      "ext policy \"%s\" disabled (%s): %s; every task is back in the fair "
				      "class",
				      xi.name, ext_exit_reason(xi.exit_kind), xi.exit_msg) > 0;
		else
			y += cb_print(cb, a.x, y, a.w, dim, "ext policy \"%s\" is loaded at time 0",
				      xi.name) > 0;
		return y - a.y;
	}
	sched_cpu_info(pn->run->e, cpu, &ci);
	{
		int x = a.x;

		x += cb_print(cb, x, y, right - x, bold, "ext policy \"%s\"%s \u00b7 CPU %d runs ", xi.name,
			      xi.partial ? " (SCHED_EXT tasks only)" : "", cpu);
		if (ci.idle) {
			cb_print(cb, x, y, right - x, dim, "idle");
		} else {
			struct sched_task_info ti;

			sched_task_info(pn->run->e, sched_task_by_pid(pn->run->e, ci.curr_pid), &ti);
			if (ti.ext)
				task_cell(pn, cb, x, y, right - x, sched_task_by_pid(pn->run->e, ci.curr_pid),
					  false);
			else
				cb_print(cb, x, y, right - x, ui_task_style(pn->ui, ci.curr_pid),
					 "%s (not ext)", ti.name);
		}
		y++;
	}
	if (y < bottom)
		cb_print(cb, a.x, y++, a.w, dim, "  %-14s %-5s %3s  %s", "dispatch queue", "order", "nr",
			 "tasks, head first (slice left, or vtime)");
	if (y < bottom) {
		snprintf(label, sizeof(label), "local CPU %d", cpu);
		queue_row(pn, cb, a, y++, label, ci.ext_nr_local, false, -1 - cpu);
	}
	for (int i = 0; i < xi.nr_dsqs && y < bottom; i++) {
		struct sched_ext_dsq_info di;

		sched_ext_dsq(pn->run->e, i, &di);
		if (di.id == SCX_DSQ_GLOBAL)
			snprintf(label, sizeof(label), "global node %d", di.node);
		else
			ext_dsq_format(label, sizeof(label), di.id);
		queue_row(pn, cb, a, y++, label, di.nr, di.vtime, i);
	}
	return y - a.y;
}
