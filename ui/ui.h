/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The visualizer's shared state and the interface every view implements.
 * ui/ only asks the engine (sched/sched.h, sched/history.h); it never
 * reaches into engine structs.
 */
#ifndef UI_UI_H
#define UI_UI_H

#include "sched/api/history.h"
#include "src/format/scenario_file.h"
#include "cellbuf.h"

struct ui;

struct view {
	const char *name;	/* "cpus", "runqueue", "timeline", "events", "task", ... */
	const char *title;
	void (*draw)(struct ui *ui, struct cellbuf *cb, struct rect area);
	/* a key the view handles itself (scroll, zoom, select); true if used */
	bool (*key)(struct ui *ui, int key);
};

/* All views, in the order the view keys (1..9) select them. */
extern const struct view *const ui_views[];
extern const int ui_nr_views;
const struct view *ui_view_by_name(const char *name);

struct ui {
	const struct scenario_file *f;
	struct sched_engine *e;
	struct sched_history *h;

	/* what the user has selected */
	int sel_cpu;		/* -1: none */
	int sel_task;		/* task index, -1: none */
	int sel_group;		/* the group whose queue the runqueue view shows; 0: the root */
	u64 sel_event;		/* seq of the selected event in the log, ~0: none */

	/* timeline: the visible span */
	u64 tl_span_ns;		/* width of the window */
	u64 tl_end_ns;		/* right edge; 0 = follow the current time */

	/* events view */
	u64 ev_top;		/* first visible seq */
	char ev_filter[64];	/* event name or task glob, "" = all */

	/* run control */
	bool paused;
	double speed;		/* simulated seconds per wall second; 0 = as fast as it goes */
	const char *message;	/* last status message (errors from commands) */

	/* layout */
	const struct view *main_view, *side_view;	/* side_view may be NULL */
	int colors;		/* 256, 16 or 0 (monochrome, NO_COLOR) */
	bool quit;
};

/* A stable colour per task (by pid) from the palette available. */
struct style ui_task_style(const struct ui *ui, int pid);
/* The first event of the decision record ev belongs to (a placement or a
 * load_balance() attempt; a migration's cause), ~0 when none. */
u64 decision_of(const struct sched_event *ev);
/* Draw that record ("why") in a; returns the rows used, 0 when there is none. */
int decision_draw(struct ui *ui, struct cellbuf *cb, struct rect a, const struct sched_event *ev);

/* The ext class's queues (the runqueue view's top part): rows used, 0 without a policy. */
int ext_queues_draw(struct ui *ui, struct cellbuf *cb, struct rect a, int cpu);

/* A stable colour per task group, bold so groups stand out from tasks. */
struct style ui_group_style(const struct ui *ui, int group);

#endif
