// SPDX-License-Identifier: GPL-2.0
/*
 * The mouse: a click selects what the views said was drawn there (a CPU, a
 * task, a group, an event, a span of the timeline; a tab shows its view),
 * the wheel scrolls the view under the pointer.
 */
#include <stdio.h>

#include "src/base/duration.h"
#include "src/base/mem.h"
#include "commands.h"
#include "mouse.h"

/* wheel notches are this many lines */
#define WHEEL_LINES 3

void ui_hit(struct pane *pane, struct rect r, enum hit_kind kind, s64 v)
{
	struct ui *ui = pane->ui;

	XGROW(ui->hits, ui->cap_hits, ui->nr_hits);
	ui->hits[ui->nr_hits++] = (struct ui_hit){ r, pane, kind, v, 0 };
}

void ui_hit_time(struct pane *pane, struct rect r, u64 t0, u64 dt)
{
	ui_hit(pane, r, HIT_TIME, (s64)t0);
	pane->ui->hits[pane->ui->nr_hits - 1].dt = dt;
}

void ui_area(struct pane *pane, struct rect r, const struct view *v)
{
	struct ui *ui = pane->ui;

	if (ui->nr_areas < (int)ARRAY_SIZE(ui->areas))
		ui->areas[ui->nr_areas++] = (struct ui_area){ r, pane, v };
}

static bool inside(struct rect r, int x, int y)
{
	return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

/* The pane clicked takes the keys (a split's other side too). */
static void focus(struct ui *ui, struct pane *pn)
{
	if (ui->split.on)
		ui->split.focus = pn == &ui->pane_b;
}

/* A click on the timeline's axis at x: marker A there, or B with the right button. */
static void set_marker(struct ui *ui, const struct ui_hit *h, int x, int m)
{
	u64 *mark = h->pane->tl_mark, t = (u64)h->v + (u64)(x - h->r.x) * h->dt;
	char ts[32], d[32];

	mark[m] = t;
	if (mark[0] != TL_NO_MARK && mark[1] != TL_NO_MARK)
		ui_message(ui, "marker %c at %s  B-A %s", 'A' + m, ui_time_text(t, ts, sizeof(ts)),
			   fmt_dur(d, sizeof(d), (s64)(mark[1] - mark[0]), true));
	else
		ui_message(ui, "marker %c at %s", 'A' + m, ui_time_text(t, ts, sizeof(ts)));
}

static void select_hit(struct ui *ui, const struct ui_hit *h, int x)
{
	struct pane *pn = h->pane;
	struct sched_group_info gi;

	focus(ui, pn);
	switch (h->kind) {
	case HIT_TIME:
		set_marker(ui, h, x, 0);
		break;
	case HIT_CPU:
		pn->sel_cpu = (int)h->v;
		ui_message(ui, "cpu %d", pn->sel_cpu);
		break;
	case HIT_TASK:
		pn->sel_task = (int)h->v;
		ui_message(ui, "task %s", pn->run->f->sc.task[pn->sel_task].name);
		break;
	case HIT_GROUP:
		pn->sel_group = (int)h->v;
		sched_group_info(pn->run->e, pn->sel_group, &gi);
		ui_message(ui, "group %s", gi.path);
		break;
	case HIT_EVENT:
		pn->sel_event = (u64)h->v;
		ui_message(ui, "event #%llu", (unsigned long long)h->v);
		break;
	case HIT_SPAN: {
		/* the span's switch, and its CPU and task with it */
		const struct sched_event *ev = history_event(pn->run->h, (u64)h->v);
		int task = sched_task_by_pid(pn->run->e, ev->sw.next_pid);

		pn->sel_event = (u64)h->v;
		pn->sel_cpu = ev->cpu;
		if (task >= 0)
			pn->sel_task = task;
		ui_message(ui, "task %s on cpu %d", sched_comm(pn->run->e, ev->sw.next_pid, ev->cpu),
			   ev->cpu);
		break;
	}
	}
}

static bool wheel(struct ui *ui, int x, int y, bool up)
{
	for (int i = ui->nr_areas; i-- > 0;) {
		const struct ui_area *a = &ui->areas[i];
		int key = up ? a->view->wheel_up : a->view->wheel_down;

		if (!inside(a->r, x, y))
			continue;
		focus(ui, a->pane);
		for (int n = 0; key && a->view->key && n < WHEEL_LINES; n++)
			a->view->key(a->pane, key);
		return true;
	}
	return false;
}

bool ui_mouse(struct ui *ui, const struct input_key *k, int h)
{
	if (k->button == 4 || k->button == 5)
		return wheel(ui, k->x, k->y, k->button == 4);
	/* the right button: marker B on the timeline's axis, nothing elsewhere */
	for (size_t i = ui->nr_hits; k->button == 3 && i-- > 0;) {
		if (ui->hits[i].kind == HIT_TIME && inside(ui->hits[i].r, k->x, k->y)) {
			focus(ui, ui->hits[i].pane);
			set_marker(ui, &ui->hits[i], k->x, 1);
			return true;
		}
	}
	if (k->button != 1)
		return false;
	/* the status line toggles pause */
	if (k->y == h - 1) {
		ui_command(ui, "toggle-pause");
		return true;
	}
	/* a view's tab in the header shows it */
	for (int i = 0; k->y == 0 && i < ui_nr_views && i < (int)ARRAY_SIZE(ui->tab_x0); i++) {
		if (k->x >= ui->tab_x0[i] && k->x < ui->tab_x1[i]) {
			char cmd[64];
			snprintf(cmd, sizeof(cmd), "view %s", ui_views[i]->name);
			ui_command(ui, cmd);
			return true;
		}
	}
	for (size_t i = ui->nr_hits; i-- > 0;) {
		if (inside(ui->hits[i].r, k->x, k->y)) {
			select_hit(ui, &ui->hits[i], k->x);
			return true;
		}
	}
	for (int i = ui->nr_areas; i-- > 0;)
		if (inside(ui->areas[i].r, k->x, k->y))
			focus(ui, ui->areas[i].pane);
	return false;
}
