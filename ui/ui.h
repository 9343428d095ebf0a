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
#include "cpu_history.h"
#include "mig_index.h"
#include "rate.h"
#include "search.h"

struct breakpoint;
struct grid;
struct key_binding;

struct ui;
struct pane;
struct task_lat;
struct metrics;

struct view {
	const char *name;	/* "cpus", "runqueue", "timeline", "events", "task", ... */
	const char *title;
	void (*draw)(struct pane *pane, struct cellbuf *cb, struct rect area);
	/* a key the view handles itself (scroll, zoom, select); true if used */
	bool (*key)(struct pane *pane, int key);
	const char *keys; /* what those keys do, for the help screen; NULL: none */
	/* a list view: select the next (s->dir 1) or previous (-1) line holding
	 * pane->search after the selected one, looking at s->budget lines at
	 * most (search.h; a short list may look at all of them) */
	enum search_step (*find)(struct pane *pane, struct search_scan *s);
	int wheel_up, wheel_down; /* the keys the mouse wheel sends it, 0: none */
};

/* All views, in the order the view keys (1..9) select them. */
extern const struct view *const ui_views[];
extern const int ui_nr_views;
const struct view *ui_view_by_name(const char *name);

/*
 * One run the visualizer follows: its scenario, engine and history, and what
 * ui/ keeps from its event stream (listeners fill these in, replays too).
 */
struct ui_run {
	const struct scenario_file *f;
	struct sched_engine *e;
	struct sched_history *h;
	/* scenario notes reached so far, in log order */
	struct ui_note {
		u64 seq;	/* of its EV_NOTE */
		u32 idx;	/* in scenario.note */
	} *notes;
	size_t nr_notes, cap_notes;
	/* by branch index: the command line that started it, "" for main */
	struct ui_branch_why {
		char text[96];
	} * why;
	size_t cap_why;
	struct cpu_history cpu_hist; /* each CPU's util and load over time, for the CPUs view */
	struct mig_index migs;	     /* the migrations and herds, for the migrations view */
};

/* How one pane looks at its run: what is selected, where lists are scrolled,
 * which views it shows. */
struct pane {
	struct ui *ui;		/* the visualizer it belongs to */
	struct ui_run *run;

	/* what the user has selected */
	int sel_cpu;		/* -1: none */
	int sel_task;		/* task index, -1: none */
	int sel_group;		/* the group whose queue the runqueue view shows; 0: the root */
	u64 sel_event;		/* seq of the selected event in the log, ~0: none */

	/* timeline: the visible span */
	u64 tl_span_ns;		/* width of the window */
	u64 tl_end_ns;		/* right edge; 0 = follow the current time */
	struct grid *tl_grid;	/* its frame's cells, allocated on first use */
	u64 tl_mark[2];		/* the A and B markers (m, M), TL_NO_MARK when unset */
	bool tl_llc;		/* a row per LLC but the selected CPU's (l) */

	/* runqueue view: the number line's span (virtual ns), kept or locked, and the first lane */
	s64 rq_span;
	bool rq_locked;
	int rq_top;

	/* task view: its wakeup-latency histogram, fed from the log as it grows */
	struct task_lat *task_lat;
	int task_sw_back; /* the switches table: rows scrolled back from the newest */
	u64 task_sw_top;  /* ... the first row it showed (of those kept), where a search starts */
	u64 task_sw_sel;  /* ... the row a search selected, by its time; ~0: none */

	/* events view */
	u64 ev_top;		/* first visible seq */
	char ev_filter[64];	/* event name or task glob, "" = all */
	int ev_hscroll;		/* fields scrolled off to the left */
	bool ev_narrow;		/* the last frame's lines were the narrow form (search matches what shows) */

	char search[64];  /* the list views' search (`/`), "" = none */
	struct find_job { /* the search under way (find.h) */
		bool on;
		bool first; /* a new search: down from the selection, then up */
		const struct view *view;
		struct search_scan scan;
	} find;

	/* help view */
	int help_top;		/* first line shown */
	int help_w;		/* the width its lines were drawn in last (search finds them there) */
	const struct view *help_return;	/* the view `help` came from */

	const struct view *main_view, *side_view;	/* side_view may be NULL */
};

#define TL_NO_MARK (~0ULL)

/* Breakpoints (`break EXPR`): they keep state (wakeup times), so each sees every event. */
#define UI_MAX_BREAKS 32
struct ui_breaks {
	struct breakpoint *bp[UI_MAX_BREAKS];
	int nr;
	int last_hit;		/* index of the one that stopped the run, -1 */
};

/* The keymap: every key is bound to a console command line. */
struct keymap {
	struct key_binding *map;
	int nr;
	size_t cap;
};

/* The `:` console's line editor state (readline runs in callback mode). */
struct console {
	struct ui *ui;			/* runs the lines, completes its names */
	bool active;
	unsigned char queue[256];	/* keys waiting for readline */
	size_t q_head, q_tail;
	char matches[512];		/* the candidates the last Tab found, "" if none */
	/* the completion under way: a fixed list of gen_n names, or a function */
	const char *const *gen_list;
	const char *(*gen_fn)(int i);
	int gen_n, gen_idx;
	char cond[32]; /* a breakpoint's condition being completed */
};

/*
 * The split screen: run A (struct ui's run and pane) beside run B, another
 * scenario, a variant or another branch. One clock: commands move the
 * focused side and the other follows to the same simulated time.
 */
enum split_layout {
	SPLIT_AUTO,
	SPLIT_SIDE,
	SPLIT_STACKED
};

/*
 * The diff strip under the split: per task and group, A's and B's metrics
 * (src/analysis/metrics.h) and B - A, over the run so far or a window.
 * They are worked out from each side's event log when a side's position
 * changed, not every frame.
 */
#define DIFF_SORT_NAME (-1)
struct diff_strip {
	bool on;
	int sort;     /* a metric (enum metric_kind): by |B - A|, largest first; or DIFF_SORT_NAME */
	u64 from, to; /* the window; to == 0: up to the current time */
	/* what the numbers were worked out for */
	bool valid;
	u64 key_events[2], key_now;
	u64 wall_at, cost; /* when they were (wall ns), and what it took */
	struct metrics *m[2];
};

struct split {
	bool on;
	int focus; /* 0: A, 1: B */
	enum split_layout layout;
	bool follow;	    /* the other pane shows the focused pane's views */
	char label[2][160]; /* what each side is, naming what differs */
	/* after `diverge`: each side's event there, shown while the clock stays */
	char diverged[2][160];
	u64 diverged_at;
	bool drawn_side; /* the last frame put them side by side (else stacked) */
	struct diff_strip diff;
};

/* What a click on a frame's cell selects: views say so as they draw. */
enum hit_kind {
	HIT_CPU,
	HIT_TASK,
	HIT_GROUP,
	HIT_EVENT,
	HIT_SPAN, /* a task's span in the timeline: the sched_switch that began it */
	HIT_TIME  /* the timeline's axis: a click sets marker A, a right click B */
};
struct ui_hit {
	struct rect r;
	struct pane *pane;
	enum hit_kind kind;
	s64 v;	/* the CPU, task index, group or event seq; the time at r.x */
	u64 dt; /* a time axis: the time a column stands for */
};

struct ui {
	struct ui_run run; /* side A, the only one without a split */
	struct pane pane;
	struct ui_run run_b; /* side B, while split.on */
	struct pane pane_b;
	struct split split;

	/* run control */
	bool paused;
	double speed;		/* simulated seconds per wall second; 0 = as fast as it goes */
	struct rate_meter rate; /* the speed achieved, for the status line */
	size_t history_budget;	/* each run's (--history-budget) */
	bool quit;
	int colors;		/* 256, 16 or 0 (monochrome, NO_COLOR) */

	/* the status line's message (errors from commands), and requests to the loop */
	char message[512];
	bool message_is_error;
	char prompt[256];	/* `prompt TEXT`: open the console with TEXT typed */
	bool prompt_pending, redraw_pending;

	struct ui_breaks breaks;
	struct trace_job *trace; /* the console's `trace` being written (trace_job.h) */
	struct keymap keymap;
	struct console console;
	int tab_x0[16], tab_x1[16];	/* the header's view tabs, for mouse clicks */
	struct ui_hit *hits;		/* the last frame's clickable things, later ones on top */
	size_t nr_hits, cap_hits;
	struct ui_area { /* the last frame's views, for the wheel */
		struct rect r;
		struct pane *pane;
		const struct view *view;
	} areas[4];
	int nr_areas;
};

/* A click at r in the frame being drawn selects v (a CPU, task, ...) in pane. */
void ui_hit(struct pane *pane, struct rect r, enum hit_kind kind, s64 v);
/* A click at column x of r picks the time t0 + (x - r.x) * dt. */
void ui_hit_time(struct pane *pane, struct rect r, u64 t0, u64 dt);
/* The events filter's words for an event (view_events.c): the i-th name or
 * tail of one after an underscore, NULL past the last. */
const char *events_filter_word(int i);
/* The task view's state of a pane (view_task.c). */
void task_lat_free(struct task_lat *lat);
/* The timeline's frame of a pane (view_timeline.c). */
void tl_grid_free(struct grid *g);

/* The pane keys and commands act on. */
static inline struct pane *ui_focus(struct ui *ui)
{
	return ui->split.on && ui->split.focus ? &ui->pane_b : &ui->pane;
}

/* A stable colour per task (by pid) from the palette available. */
struct style ui_task_style(const struct ui *ui, int pid);
/* The first event of the decision record ev belongs to (a placement or a
 * load_balance() attempt; a migration's cause), ~0 when none. */
u64 decision_of(const struct sched_event *ev);
/* Draw that record ("why") in a; returns the rows used, 0 when there is none. */
int decision_draw(struct pane *pane, struct cellbuf *cb, struct rect a, const struct sched_event *ev);

/* The ext class's queues (the runqueue view's top part): rows used, 0 without a policy. */
int ext_queues_draw(struct pane *pn, struct cellbuf *cb, struct rect a, int cpu);

/* A stable colour per task group, bold so groups stand out from tasks. */
struct style ui_group_style(const struct ui *ui, int group);

#endif
