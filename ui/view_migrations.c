// SPDX-License-Identifier: GPL-2.0
/*
 * The migrations view: who moved where, newest last, from the event log
 * up to the current position: time, task, from -> to, the reason
 * (wakeup, fork, balance, newidle, nohz_idle, active) and the outcome of
 * the decision that caused it; migrations that belong to a herd
 * (schedscope_herd) are marked and the herd's line says why it was one.
 * The selected migration's decision record is drawn below ("why").
 * The lines come from the run's index of them (mig_index.h), never from
 * a walk of the log.
 */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "search.h"
#include "ui.h"

#define MIG_MAX_ROWS 512

static u64 visible(const struct pane *pn)
{
	return MIN(history_nr_logged(pn->run->h), sched_nr_events(pn->run->e));
}

static bool listed(const struct sched_event *ev)
{
	return ev->type == EV_SCHED_MIGRATE_TASK || ev->type == EV_HERD;
}

/* The line's text as a search sees it. */
static void mig_text(const struct pane *pn, const struct sched_event *ev, char *out, size_t n)
{
	if (ev->type == EV_HERD) {
		snprintf(out, n, "%.6f HERD: %u migrations from %u CPUs to %u, cause %s",
			 (double)ev->time / 1e9, ev->herd.nr, ev->herd.nr_src, ev->herd.nr_dst,
			 sched_name_of(herd_cause_names, NR_HERD_CAUSES, ev->herd.cause));
		return;
	}
	snprintf(out, n, "%.6f %s CPU %d -> %d %s decision #%" PRIu64, (double)ev->time / 1e9,
		 sched_comm(pn->run->e, ev->migrate.pid, ev->cpu), ev->migrate.orig_cpu, ev->migrate.dest_cpu,
		 sched_name_of(migrate_reason_names, NR_MIGRATE_REASONS, ev->migrate.reason),
		 ev->migrate.cause);
}

static void mig_line(struct pane *pn, struct cellbuf *cb, int x, int y, int w, const struct sched_event *ev,
		     bool sel, bool in_herd)
{
	struct style base = sel ? sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_) : STYLE_PLAIN;
	char t[32];

	if (sel)
		cb_fill(cb, (struct rect){ x, y, w, 1 }, ' ', base);
	snprintf(t, sizeof(t), "%.6f", (double)ev->time / 1e9);
	if (ev->type == EV_HERD) {
		cb_print(cb, x, y, w, sty(C_RED, COLOR_DEFAULT, A_BOLD_ | (sel ? A_REVERSE_ : 0)),
			 "%c%s  HERD: %u migrations from %u CPUs to %u since %.6f, cause %s", sel ? '>' : ' ', t,
			 ev->herd.nr, ev->herd.nr_src, ev->herd.nr_dst, (double)ev->herd.first_time / 1e9,
			 sched_name_of(herd_cause_names, NR_HERD_CAUSES, ev->herd.cause));
		return;
	}
	int used = cb_print(cb, x, y, w, base, "%c%s %s", sel ? '>' : ' ', t, in_herd ? "H" : " ");
	used += cb_print(cb, x + used, y, MIN(16, w - used), ui_task_style(pn->ui, ev->migrate.pid), " %-15s",
			 sched_comm(pn->run->e, ev->migrate.pid, ev->cpu));
	cb_print(cb, x + used, y, w - used, base, " CPU %3d -> %-3d %-9s decision #%" PRIu64, ev->migrate.orig_cpu,
		 ev->migrate.dest_cpu, ev->migrate.reason < NR_MIGRATE_REASONS ? migrate_reason_names[ev->migrate.reason]
									    : "?",
		 ev->migrate.cause);
}

static void mig_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	const struct mig_index *x = &pn->run->migs;
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	u64 limit = visible(pn), sel = pn->sel_event, end = limit;
	const struct sched_event *sel_ev = NULL;
	int list_h, n;
	size_t last;

	if (a.w <= 0 || a.h < 4)
		return;
	if (sel != ~0ULL && (sel >= limit || !listed(history_event(pn->run->h, sel))))
		sel = ~0ULL;
	if (sel != ~0ULL) {
		sel_ev = history_event(pn->run->h, sel);
		end = sel + 1;
	}
	/* the list takes the top half when a record is shown, else all of it */
	list_h = (sel_ev ? a.h / 2 : a.h) - 2;
	list_h = MAX(1, MIN(list_h, MIG_MAX_ROWS));
	/* the lines before `end`, the last list_h of them */
	last = mig_index_before(x, end);
	n = (int)MIN(last, (size_t)list_h);
	cb_print(cb, a.x, a.y, a.w, bold, "Migrations \u00b7 newest last%s \u00b7 H: part of a herd",
		 sel_ev ? " (up to the selected one)" : "");
	for (int i = 0; i < n; i++) {
		const struct mig_entry *me = &x->e[last - (size_t)n + (size_t)i];
		const struct sched_event *ev = history_event(pn->run->h, me->seq);

		/* a herd still in the future does not count */
		mig_line(pn, cb, a.x, a.y + 1 + i, a.w, ev, ev->seq == sel,
			 ev->type == EV_SCHED_MIGRATE_TASK && me->herd < limit);
		ui_hit(pn, (struct rect){ a.x, a.y + 1 + i, a.w, 1 }, HIT_EVENT, (s64)ev->seq);
		if (pn->search[0])
			search_mark(cb, a.x, a.y + 1 + i, a.w, pn->search);
	}
	if (!n)
		cb_print(cb, a.x + 1, a.y + 1, a.w - 1, dim, "no migrations yet");
	if (sel_ev)
		sel_ev = history_event(pn->run->h, sel); /* the lines' reads may have moved it */
	if (sel_ev && sel_ev->type == EV_SCHED_MIGRATE_TASK) {
		struct rect r = { a.x, a.y + 2 + list_h, a.w, a.h - list_h - 3 };

		if (!decision_draw(pn, cb, r, sel_ev))
			cb_print(cb, r.x, r.y, r.w, dim, "why: no decision record (a move by affinity or a class change)");
	}
	cb_print(cb, a.x, a.y + a.h - 1, a.w, dim,
		 "Up/Down select (the record of the selected one below)  End follow  / search");
}

static bool mig_key(struct pane *pn, int key)
{
	const struct mig_index *x = &pn->run->migs;
	u64 limit = visible(pn);
	size_t i;

	switch (key) {
	case KEY_UP:
	case 'k':
		i = mig_index_before(x,
				     pn->sel_event == ~0ULL || pn->sel_event > limit ? limit : pn->sel_event);
		if (i)
			pn->sel_event = x->e[i - 1].seq;
		return true;
	case KEY_DOWN:
	case 'j':
		if (pn->sel_event == ~0ULL)
			return true;
		i = mig_index_before(x, pn->sel_event + 1);
		pn->sel_event = i < x->nr && x->e[i].seq < limit ? x->e[i].seq : ~0ULL;
		return true;
	case KEY_END:
		pn->sel_event = ~0ULL;
		return true;
	}
	return false;
}

/*
 * The next (down) or previous (up) migration or herd holding the search
 * text: the scan goes over the index's lines, a budget's worth at a time.
 */
static enum search_step mig_find(struct pane *pn, struct search_scan *sc)
{
	const struct mig_index *x = &pn->run->migs;
	u64 limit = visible(pn), sel = pn->sel_event, i;
	u64 n = mig_index_before(x, limit), from = n; /* following the newest: nothing below */
	char text[256];

	if (sel != ~0ULL && sel < limit)
		from = mig_index_before(x, sel + (sc->dir > 0));
	if (!sc->begun)
		search_scan_begin(sc, from, n);
	while (search_scan_next(sc, n, &i)) {
		u64 seq = x->e[i].seq;

		mig_text(pn, history_event(pn->run->h, seq), text, sizeof(text));
		if (search_match(text, pn->search)) {
			pn->sel_event = seq;
			return SEARCH_HIT;
		}
	}
	return search_scan_step(sc);
}

const struct view view_migrations = {
	.name = "migrations",
	.title = "Migrations",
	.draw = mig_draw,
	.key = mig_key,
	.keys = "Up/k Down/j select, End follow the newest; a click selects, the wheel scrolls",
	.find = mig_find,
	.wheel_up = KEY_UP,
	.wheel_down = KEY_DOWN,
};
