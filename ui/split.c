// SPDX-License-Identifier: GPL-2.0
/* The split screen's state and its one clock: see split.h. */
#include <stdio.h>
#include <string.h>

#include "src/base/mem.h"
#include "loop.h"
#include "split.h"

int ui_split_open(struct ui *ui, const struct scenario_file *fb, int branch, const char *label_a,
		  const char *label_b, char *err, size_t errlen)
{
	ui_split_close(ui);
	if (ui_run_setup(&ui->run_b, fb, ui->history_budget, err, errlen))
		return -1;
	if (branch >= 0)
		history_copy_branch(ui->run_b.h, ui->run.h, branch);
	pane_init(&ui->pane_b, ui, &ui->run_b);
	ui->pane_b.main_view = ui->pane.main_view;
	ui->pane_b.side_view = ui->pane.side_view;
	ui->pane_b.tl_span_ns = ui->pane.tl_span_ns;
	ui->split.on = true;
	ui->split.focus = 0;
	snprintf(ui->split.label[0], sizeof(ui->split.label[0]), "%s", label_a);
	snprintf(ui->split.label[1], sizeof(ui->split.label[1]), "%s", label_b);
	ui_split_sync(ui);
	return 0;
}

void ui_split_close(struct ui *ui)
{
	if (!ui->split.on)
		return;
	pane_fini(&ui->pane_b);
	ui_run_teardown(&ui->run_b);
	diff_strip_fini(&ui->split.diff);
	ui->split.on = false;
	ui->split.focus = 0;
}

struct pane *ui_split_other(struct ui *ui)
{
	if (!ui->split.on)
		return NULL;
	return ui->split.focus ? &ui->pane : &ui->pane_b;
}

/* The other pane's task of the same name as the focused pane's, -1 if none. */
static int same_task(const struct pane *from, const struct pane *to)
{
	if (from->sel_task < 0)
		return -1;
	const char *name = from->run->f->sc.task[from->sel_task].name;
	for (int i = 0; i < to->run->f->sc.nr_tasks; i++)
		if (!strcmp(to->run->f->sc.task[i].name, name))
			return i;
	return -1;
}

void ui_split_sync(struct ui *ui)
{
	struct pane *pn = ui_focus(ui), *o = ui_split_other(ui);

	if (!o)
		return;
	u64 t = MIN(sched_now(pn->run->e), o->run->f->sc.duration);
	if (sched_now(o->run->e) != t)
		history_goto_time(o->run->h, t);
	if (!ui->split.follow)
		return;
	o->main_view = pn->main_view;
	o->side_view = pn->side_view;
	o->help_return = pn->help_return;
	o->help_top = pn->help_top;
	o->tl_span_ns = pn->tl_span_ns;
	o->tl_end_ns = pn->tl_end_ns;
	o->sel_cpu = pn->sel_cpu < sched_nr_cpus(o->run->e) ? pn->sel_cpu : -1;
	o->sel_task = same_task(pn, o);
	snprintf(o->ev_filter, sizeof(o->ev_filter), "%s", pn->ev_filter);
	snprintf(o->search, sizeof(o->search), "%s", pn->search);
	o->ev_hscroll = pn->ev_hscroll;
}

bool ui_split_step(struct ui *ui)
{
	struct ui_run *r[2] = { &ui->run, &ui->run_b };

	for (;;) {
		u64 t = UINT64_MAX, n0 = sched_nr_events(r[0]->e), n1 = sched_nr_events(r[1]->e);

		for (int i = 0; i < 2; i++)
			if (!sched_finished(r[i]->e) && sched_next_time(r[i]->e) <= r[i]->f->sc.duration)
				t = MIN(t, sched_next_time(r[i]->e));
		if (t == UINT64_MAX)
			return false;
		for (int i = 0; i < 2; i++)
			history_run_until(r[i]->h, MIN(t, r[i]->f->sc.duration));
		if (sched_nr_events(r[0]->e) != n0 || sched_nr_events(r[1]->e) != n1)
			return true;
	}
}

bool ui_split_rects(const struct ui *ui, struct rect r, struct rect *a, struct rect *b)
{
	bool side_fits = (r.w - 1) / 2 >= SPLIT_MIN_PANE_W && r.h >= SPLIT_MIN_PANE_H;
	bool stack_fits = r.w >= SPLIT_MIN_PANE_W && r.h / 2 >= SPLIT_MIN_PANE_H;
	bool side;

	switch (ui->split.layout) {
	case SPLIT_SIDE:
		side = side_fits;
		break;
	case SPLIT_STACKED:
		side = !stack_fits;
		break;
	default:
		/* a cell is about twice as tall as wide: halves shaped like a terminal */
		side = r.w >= 3 * r.h ? side_fits || !stack_fits : !stack_fits;
		break;
	}
	if (side ? !side_fits : !stack_fits)
		return false;
	if (side) {
		/* equal widths: the timelines then cover the same span per cell */
		int wa = (r.w - 1) / 2;
		*a = (struct rect){ r.x, r.y, wa, r.h };
		*b = (struct rect){ r.x + wa + 1, r.y, wa, r.h };
	} else {
		int ha = r.h / 2;
		*a = (struct rect){ r.x, r.y, r.w, ha };
		*b = (struct rect){ r.x, r.y + ha, r.w, r.h - ha };
	}
	return true;
}

void ui_branch_note(struct ui_run *run, int branch, const char *text)
{
	size_t old = run->cap_why;

	XGROW(run->why, run->cap_why, (size_t)branch);
	memset(run->why + old, 0, (run->cap_why - old) * sizeof(*run->why));
	snprintf(run->why[branch].text, sizeof(run->why[branch].text), "%s", text);
}

void ui_branch_label(const struct ui_run *run, int branch, char *buf, size_t len)
{
	struct history_branch_info bi;

	history_branch_info(run->h, branch, &bi);
	if ((size_t)branch < run->cap_why && run->why[branch].text[0])
		snprintf(buf, len, "%s: %s", bi.name, run->why[branch].text);
	else
		snprintf(buf, len, "%s", bi.name);
}
