// SPDX-License-Identifier: GPL-2.0
/*
 * The events view: the history log as ftrace-like text lines (time, CPU,
 * event, fields with task names), newest at the bottom while following,
 * filtered by pn->ev_filter (an event name such as "sched_switch" or
 * "switch", or a task glob such as "web*" or "hog.1"), scrollable with the
 * selected event highlighted. Only events up to the engine's current
 * position are shown (after a rewind the log holds a future too).
 */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "search.h"
#include "src/trace/trace_log.h"
#include "ui.h"

#define NO_EVENT (~0ULL)
/* Scans for matching events give up after this many (a filter matching nothing). */
#define EV_SCAN_BUDGET (1u << 21)

#define FILTER_MAX_GLOBS 8
/* narrower than this, lines take a compact form */
#define EV_NARROW_W 110
/* h and l hide one field more or less, up to this many (more than any event has) */
#define EV_HSCROLL_MAX 32

/*
 * The filter's words: event names ("sched_switch", or any tail after an
 * underscore: "switch", "throttle" for cfs_throttle, "lb_task") are one
 * set, task globs ("web*", "hog.1") another; an event shows when its type
 * is in the first (if any) and a task it names matches the second (if any).
 */
struct filter {
	bool any_type; /* no event name given */
	bool type[NR_SCHED_EVENTS];
	int nr_globs;
	const char *glob[FILTER_MAX_GLOBS]; /* task name globs */
	bool plain[FILTER_MAX_GLOBS];	    /* no wildcard: also match "glob.N" */
	char words[64];			    /* the filter, cut into words */
};

static bool event_word(const char *w, int t)
{
	const char *n = sched_event_names[t];

	if (!strcmp(w, n))
		return true;
	for (const char *u = strchr(n, '_'); u; u = strchr(u + 1, '_'))
		if (!strcmp(w, u + 1))
			return true;
	return false;
}

/* The event words of the filter, as completion offers them: each name, then its tails (duplicates too). */
const char *events_filter_word(int i)
{
	for (int t = 0; t < NR_SCHED_EVENTS; t++)
		for (const char *w = sched_event_names[t]; w; w = strchr(w, '_') ? strchr(w, '_') + 1 : NULL)
			if (!i--)
				return w;
	return NULL;
}

static void parse_filter(const struct pane *pn, struct filter *f)
{
	char *save = NULL;

	f->any_type = true;
	f->nr_globs = 0;
	memset(f->type, 0, sizeof(f->type));
	snprintf(f->words, sizeof(f->words), "%s", pn->ev_filter);
	for (char *w = strtok_r(f->words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		bool event = false;

		for (int t = 0; t < NR_SCHED_EVENTS; t++)
			if (event_word(w, t))
				f->type[t] = event = true;
		if (event) {
			f->any_type = false;
		} else if (f->nr_globs < FILTER_MAX_GLOBS) {
			f->plain[f->nr_globs] = !strpbrk(w, "*?[");
			f->glob[f->nr_globs++] = w;
		}
	}
}

static bool name_match(const struct filter *f, const char *name)
{
	if (!name)
		return false;
	for (int i = 0; i < f->nr_globs; i++) {
		size_t n = strlen(f->glob[i]);

		if (!fnmatch(f->glob[i], name, 0) ||
		    (f->plain[i] && !strncmp(name, f->glob[i], n) && name[n] == '.'))
			return true;
	}
	return false;
}

static bool pid_match(const struct pane *pn, const struct filter *f, int pid)
{
	return pid > 0 && name_match(f, sched_comm(pn->run->e, pid, 0));
}

static bool ev_match(const struct pane *pn, const struct filter *f, const struct sched_event *ev)
{
	if (!f->any_type && (ev->type >= NR_SCHED_EVENTS || !f->type[ev->type]))
		return false;
	if (!f->nr_globs)
		return true;
	switch (ev->type) {
	case EV_SCHED_SWITCH:
		return pid_match(pn, f, ev->sw.prev_pid) || pid_match(pn, f, ev->sw.next_pid);
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		return pid_match(pn, f, ev->wake.pid);
	case EV_SCHED_MIGRATE_TASK:
		return pid_match(pn, f, ev->migrate.pid);
	case EV_SCHED_PROCESS_FORK:
		return pid_match(pn, f, ev->fork.parent_pid) || pid_match(pn, f, ev->fork.child_pid);
	case EV_SCHED_PROCESS_EXIT:
		return pid_match(pn, f, ev->exit.pid);
	case EV_SCHED_STAT_RUNTIME:
		return pid_match(pn, f, ev->runtime.pid);
	case EV_SET_NICE:
		return pid_match(pn, f, ev->nice.pid);
	case EV_YIELD:
		return pid_match(pn, f, ev->yield.pid);
	case EV_PROG_TIMER:
		return pid_match(pn, f, ev->timer.pid);
	case EV_PROG_LOG:
		return pid_match(pn, f, ev->log.pid);
	case EV_COMMAND:
		return ev->command.task >= 0 && pid_match(pn, f, ev->command.task + 1);
	case EV_EXT_DISPATCH:
		return pid_match(pn, f, ev->ext_dsp.pid);
	case EV_EXT_PRINTK:
		return pid_match(pn, f, ev->ext_print.pid);
	case EV_EXT_EXIT:
		return pid_match(pn, f, ev->ext_exit.pid);
	default:
		return false;
	}
}

/* Events the view may show: [0, limit). */
static u64 ev_limit(const struct pane *pn)
{
	return MIN(history_nr_logged(pn->run->h), sched_nr_events(pn->run->e));
}

/* The matching event before `seq` (NO_EVENT when none within the budget). */
static u64 prev_match(const struct pane *pn, const struct filter *f, u64 seq)
{
	u32 budget = EV_SCAN_BUDGET;

	while (seq > 0 && budget--) {
		seq--;
		if (ev_match(pn, f, history_event(pn->run->h, seq)))
			return seq;
	}
	return NO_EVENT;
}

/* The matching event at or after `seq`, before limit. */
static u64 next_match(const struct pane *pn, const struct filter *f, u64 seq, u64 limit)
{
	u32 budget = EV_SCAN_BUDGET;

	for (; seq < limit && budget--; seq++)
		if (ev_match(pn, f, history_event(pn->run->h, seq)))
			return seq;
	return NO_EVENT;
}

/* ---- one line ---- */

/*
 * The fields as the ftrace text prints them (one formatter for both), but a
 * switch in a narrow window gets a compact form.
 */
static void fields(const struct pane *pn, const struct sched_event *ev, char *out, size_t n, bool narrow)
{
	struct trace_ftrace_opts o;

	if (narrow && ev->type == EV_SCHED_SWITCH) {
		snprintf(out, n, "%s:%d %s ==> %s:%d", sched_comm(pn->run->e, ev->sw.prev_pid, ev->cpu),
			 ev->sw.prev_pid, ev->sw.prev_state == TASK_STATE_R ? "R" : ev->sw.prev_state == TASK_STATE_X ? "X" : "S",
			 sched_comm(pn->run->e, ev->sw.next_pid, ev->cpu), ev->sw.next_pid);
		return;
	}
	trace_ftrace_opts_for(&o, pn->run->e);
	o.full_comm = true;
	trace_ftrace_fields(&o, ev, out, n);
}

static struct style event_style(int type)
{
	switch (type) {
	case EV_SCHED_SWITCH:
		return sty(C_CYAN, COLOR_DEFAULT, 0);
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		return sty(C_GREEN, COLOR_DEFAULT, 0);
	case EV_SCHED_MIGRATE_TASK:
		return sty(C_MAGENTA, COLOR_DEFAULT, A_BOLD_);
	case EV_COMMAND:
	case EV_NOTE:
		return sty(C_YELLOW, COLOR_DEFAULT, A_BOLD_);
	default:
		return sty(COLOR_DEFAULT, COLOR_DEFAULT, 0);
	}
}

/* The line's text as a search sees it: time, CPU, event and fields. */
static void line_text(const struct pane *pn, const struct sched_event *ev, char *out, size_t n)
{
	u64 us = ev->time / 1000;
	int k = snprintf(out, n, "%6" PRIu64 ".%06" PRIu64 " [%03d] %s ", us / 1000000, us % 1000000, ev->cpu,
			 sched_event_names[ev->type]);

	if (k > 0 && (size_t)k < n)
		fields(pn, ev, out + k, n - (size_t)k, pn->ev_narrow);
}

/* s after its first n blank-separated fields (never a cut inside a number). */
static const char *skip_fields(const char *s, int n)
{
	while (n-- > 0 && *s) {
		s += strcspn(s, " ");
		s += strspn(s, " ");
	}
	return s;
}

static void draw_line(struct pane *pn, struct cellbuf *cb, int x, int y, int w,
		      const struct sched_event *ev, bool sel)
{
	char text[320];
	u64 us = ev->time / 1000;
	struct style base = sel ? sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_) : STYLE_PLAIN;
	struct style es = event_style(ev->type);
	int used;

	if (sel) {
		cb_fill(cb, (struct rect){ x, y, w, 1 }, ' ', base);
		es.attr |= A_REVERSE_;
	}
	used = cb_print(cb, x, y, w, base, "%c%6" PRIu64 ".%06" PRIu64 " [%03d] ", sel ? '>' : ' ',
			us / 1000000, us % 1000000, ev->cpu);
	const char *name = sched_event_names[ev->type];

	if (pn->ev_narrow && !strncmp(name, "sched_", 6))
		name += 6;	/* narrow: "switch", "wakeup", ... */
	used += cb_print(cb, x + used, y, w - used, es, "%-*s", pn->ev_narrow ? 14 : 19, name);
	fields(pn, ev, text, sizeof(text), pn->ev_narrow);
	/* scrolled sideways: the fields move, time, CPU and event stay */
	if (pn->ev_hscroll > 0)
		cb_print(cb, x + used, y, w - used, base, " \u00ab %s", skip_fields(text, pn->ev_hscroll));
	else
		cb_print(cb, x + used, y, w - used, base, " %s", text);
	if (pn->search[0])
		search_mark(cb, x, y, w, pn->search);
}

/* ---- draw and keys ---- */

static void reverse(u64 *seqs, int n)
{
	for (int i = 0; i < n / 2; i++) {
		u64 t = seqs[i];

		seqs[i] = seqs[n - 1 - i];
		seqs[n - 1 - i] = t;
	}
}

/* Following: the newest `rows` matches. */
static int page_newest(struct pane *pn, const struct filter *f, u64 limit, u64 *seqs, int rows)
{
	u64 s = limit;
	int n = 0;

	while (n < rows && (s = prev_match(pn, f, s)) != NO_EVENT)
		seqs[n++] = s;
	reverse(seqs, n);
	pn->ev_top = n ? seqs[0] : limit;
	return n;
}

/* A page that shows the selected event: from ev_top on, else one that ends with it. */
static int page_selected(struct pane *pn, const struct filter *f, u64 limit, u64 *seqs, int rows)
{
	u64 sel = pn->sel_event, s = pn->ev_top;
	bool seen = false;
	int n = 0;

	if (pn->ev_top > sel)
		pn->ev_top = s = sel;
	while (n < rows && (s = next_match(pn, f, s, limit)) != NO_EVENT) {
		seqs[n++] = s;
		seen |= s == sel;
		if (s >= sel && !seen)
			break;
		s++;
	}
	if (seen)
		return n;
	n = 0;
	s = sel + 1;
	while (n < rows && (s = prev_match(pn, f, s)) != NO_EVENT)
		seqs[n++] = s;
	reverse(seqs, n);
	pn->ev_top = n ? seqs[0] : sel;
	/* fill below sel */
	s = sel + 1;
	while (n < rows && (s = next_match(pn, f, s, limit)) != NO_EVENT)
		seqs[n++] = s++;
	return n;
}

static void draw_header(const struct pane *pn, struct cellbuf *cb, struct rect a, const struct filter *f,
			u64 limit)
{
	int x = a.x;
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style yellow = sty(C_YELLOW, COLOR_DEFAULT, A_BOLD_);

	x += cb_print(cb, x, a.y, a.w, bold, "Events %" PRIu64 " so far", limit);
	if (pn->ev_filter[0])
		x += cb_print(cb, x, a.y, a.x + a.w - x, yellow, "  filter: %s (%s)", pn->ev_filter,
			      f->any_type   ? "tasks"
			      : f->nr_globs ? "events of tasks"
					    : "events");
	if (pn->search[0])
		x += cb_print(cb, x, a.y, a.x + a.w - x, yellow, "  /%s", pn->search);
	if (pn->ev_hscroll)
		x += cb_print(cb, x, a.y, a.x + a.w - x, STYLE_PLAIN, "  \u00ab %d field%s hidden (h)",
			      pn->ev_hscroll, pn->ev_hscroll > 1 ? "s" : "");
	if (pn->sel_event == NO_EVENT)
		cb_print(cb, x, a.y, a.x + a.w - x, STYLE_PLAIN, "  following the newest");
	else
		cb_print(cb, x, a.y, a.x + a.w - x, STYLE_PLAIN, "  event #%" PRIu64 " selected",
			 pn->sel_event);
}

static void ev_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	struct filter f;
	u64 limit = ev_limit(pn);
	int rows = a.h - 2;
	u64 seqs[512];
	int n;
	bool why;

	if (a.w <= 0 || a.h < 3)
		return;
	pn->ev_narrow = a.w < EV_NARROW_W;
	parse_filter(pn, &f);
	if (pn->sel_event != NO_EVENT && pn->sel_event >= limit)
		pn->sel_event = NO_EVENT;
	if (pn->sel_event != NO_EVENT && !ev_match(pn, &f, history_event(pn->run->h, pn->sel_event)))
		pn->sel_event = next_match(pn, &f, pn->sel_event, limit);
	/* a selected balance, placement or migration opens its decision record below */
	why = pn->sel_event != NO_EVENT && decision_of(history_event(pn->run->h, pn->sel_event)) != ~0ULL &&
	      a.h >= 16;
	if (why)
		rows = a.h / 2 - 1;
	rows = MIN(rows, (int)ARRAY_SIZE(seqs));
	n = pn->sel_event == NO_EVENT ? page_newest(pn, &f, limit, seqs, rows)
				      : page_selected(pn, &f, limit, seqs, rows);

	draw_header(pn, cb, a, &f, limit);
	if (n == 0)
		cb_print(cb, a.x + 1, a.y + 1, a.w - 1, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0), "%s",
			 pn->ev_filter[0] ? "no event matches the filter" : "no events yet");
	for (int i = 0; i < n; i++) {
		draw_line(pn, cb, a.x, a.y + 1 + i, a.w, history_event(pn->run->h, seqs[i]), seqs[i] == pn->sel_event);
		ui_hit(pn, (struct rect){ a.x, a.y + 1 + i, a.w, 1 }, HIT_EVENT, (s64)seqs[i]);
	}
	if (why)
		decision_draw(pn, cb, (struct rect){ a.x, a.y + 2 + rows, a.w, a.h - rows - 3 },
			      history_event(pn->run->h, pn->sel_event));
	cb_print(cb, a.x, a.y + a.h - 1, a.w, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0),
		 "Up/Down PgUp/PgDn select  Home first  End follow  h l sideways  / search   times in s, "
		 "[CPU]; "
		 "a selected balance, placement or migration shows its record");
}

/* The next (down) or previous (up) event from the selected one that passes
 * the filter and holds the search text, a budget's worth at a time. */
static enum search_step ev_find(struct pane *pn, struct search_scan *sc)
{
	struct filter f;
	u64 limit = ev_limit(pn), sel = pn->sel_event, s;
	char text[400];

	/* from the selected event; following, from the top of the page or the newest */
	if (!sc->begun && sel != NO_EVENT)
		search_scan_begin(sc, sel + (sc->dir > 0), limit);
	else if (!sc->begun)
		search_scan_begin(sc, sc->dir > 0 ? pn->ev_top : limit, limit);
	parse_filter(pn, &f);
	while (search_scan_next(sc, limit, &s)) {
		const struct sched_event *ev = history_event(pn->run->h, s);

		if (!ev_match(pn, &f, ev))
			continue;
		line_text(pn, ev, text, sizeof(text));
		if (search_match(text, pn->search)) {
			pn->sel_event = s;
			return SEARCH_HIT;
		}
	}
	return search_scan_step(sc);
}

static bool ev_key(struct pane *pn, int key)
{
	struct filter f;
	u64 limit = ev_limit(pn);
	int steps = 1;

	parse_filter(pn, &f);
	switch (key) {
	case KEY_PPAGE:
		steps = 20;
		/* fall through */
	case KEY_UP:
	case 'k':
		for (int i = 0; i < steps; i++) {
			u64 from = pn->sel_event == NO_EVENT ? limit : pn->sel_event;
			u64 p = prev_match(pn, &f, from);

			if (p == NO_EVENT)
				break;
			pn->sel_event = p;
		}
		return true;
	case KEY_NPAGE:
		steps = 20;
		/* fall through */
	case KEY_DOWN:
	case 'j':
		for (int i = 0; i < steps && pn->sel_event != NO_EVENT; i++)
			pn->sel_event = next_match(pn, &f, pn->sel_event + 1, limit);
		return true;
	case KEY_HOME:
		pn->sel_event = next_match(pn, &f, 0, limit);
		pn->ev_top = 0;
		return true;
	case KEY_END:
		pn->sel_event = NO_EVENT;
		return true;
	case 'h':
		pn->ev_hscroll = MAX(0, pn->ev_hscroll - 1);
		return true;
	case 'l':
		pn->ev_hscroll = MIN(pn->ev_hscroll + 1, EV_HSCROLL_MAX);
		return true;
	}
	return false;
}

const struct view view_events = {
	.name = "events",
	.title = "Events",
	.draw = ev_draw,
	.key = ev_key,
	.keys = "Up/k Down/j select, PgUp PgDn a page, Home first, End follow the newest, "
		"h l hide one field less or more (scroll sideways)",
	.find = ev_find,
	.wheel_up = KEY_UP,
	.wheel_down = KEY_DOWN,
};
