// SPDX-License-Identifier: GPL-2.0
/* The console's command interpreter: see commands.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "src/base/path.h"
#include "src/format/breakpoint.h"
#include "src/format/command.h"
#include "src/format/diff_expr.h"
#include "src/format/lex.h"
#include "commands.h"
#include "find.h"
#include "input.h"
#include "loop.h"
#include "split.h"
#include "trace_job.h"

#define MAX_WORDS 16

struct args {
	int n;
	char *w[MAX_WORDS];
	const char *rest[MAX_WORDS];	/* the line from word i on */
	const char *line;
};

struct cmd {
	struct ui_command_info info;
	int (*fn)(struct ui *ui, struct pane *pn, struct args *a);
};

static void breaks_free(struct ui_breaks *b);

static void set_message(struct ui *ui, bool error, const char *fmt, va_list ap)
{
	vsnprintf(ui->message, sizeof(ui->message), fmt, ap);
	ui->message_is_error = error;
}

void ui_message(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(ui, false, fmt, ap);
	va_end(ap);
}

void ui_error(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(ui, true, fmt, ap);
	va_end(ap);
}

const char *ui_take_prompt(struct ui *ui)
{
	if (!ui->prompt_pending)
		return NULL;
	ui->prompt_pending = false;
	return ui->prompt;
}

bool ui_take_redraw(struct ui *ui)
{
	bool r = ui->redraw_pending;

	ui->redraw_pending = false;
	return r;
}

void ui_commands_fini(struct ui *ui)
{
	breaks_free(&ui->breaks);
}

const char *ui_time_text(u64 ns, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llus", (unsigned long long)(ns / NSEC_PER_SEC),
		 (unsigned long long)(ns % NSEC_PER_SEC / NSEC_PER_USEC));
	return buf;
}

/* ---- speed ---- */

static const double speeds[] = {
	0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
	1, 2, 5, 10, 20, 50, 100,
};
#define SPEED_MIN 0.0001
#define SPEED_MAX 1000.0

double ui_speed_step(double speed, int dir)
{
	int n = (int)ARRAY_SIZE(speeds);

	if (speed <= 0)		/* max */
		return dir > 0 ? 0 : speeds[n - 1];
	if (dir > 0) {
		for (int i = 0; i < n; i++)
			if (speeds[i] > speed * 1.0001)
				return speeds[i];
		return 0;
	}
	for (int i = n - 1; i >= 0; i--)
		if (speeds[i] < speed * 0.9999)
			return speeds[i];
	return speeds[0];
}

const char *ui_speed_text(double speed, char *buf, size_t len)
{
	if (speed <= 0)
		snprintf(buf, len, "max");
	else if (speed >= 1)
		snprintf(buf, len, "%gx", speed);
	else
		snprintf(buf, len, "1/%gx", (double)(long)(1 / speed + 0.5));
	return buf;
}

/* "max", "2", "0.5", "10x", "1/100", "1/100x"; false if not a speed. */
static bool parse_speed(const char *s, double *out)
{
	char buf[64];
	size_t n = strlen(s);
	double num, den = 1;

	if (!strcmp(s, "max")) {
		*out = 0;
		return true;
	}
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == 'x' || buf[n - 1] == 'X')
		buf[--n] = 0;
	char *slash = strchr(buf, '/');
	if (slash) {
		*slash = 0;
		if (parse_decimal(slash + 1, strlen(slash + 1), &den) != PARSE_OK || den <= 0)
			return false;
	}
	if (parse_decimal(buf, strlen(buf), &num) != PARSE_OK)
		return false;
	*out = num / den;
	return true;
}

/* ---- helpers ---- */

static int task_by_name(const struct pane *pn, const char *name)
{
	int found = -1, nr = pn->run->f->sc.nr_tasks;

	for (int i = 0; i < nr; i++)
		if (!strcmp(pn->run->f->sc.task[i].name, name))
			return i;
	/* a unique prefix */
	for (int i = 0; i < nr; i++) {
		if (!strncmp(pn->run->f->sc.task[i].name, name, strlen(name))) {
			if (found >= 0)
				return -2;
			found = i;
		}
	}
	return found;
}

static bool parse_int(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return *s && !*end && !errno && *v >= lo && *v <= hi;
}

static bool parse_count(struct ui *ui, struct args *a, int i, long *n)
{
	*n = 1;
	if (a->n > i && !parse_int(a->w[i], 1, 1000000, n)) {
		ui_error(ui, "%s: '%s' is not a count 1..1000000", a->w[0], a->w[i]);
		return false;
	}
	if (a->n > i + 1) {
		ui_error(ui, "%s: unexpected '%s'", a->w[0], a->w[i + 1]);
		return false;
	}
	return true;
}

static bool any_event(void *ctx, const struct sched_event *ev)
{
	return true;
}

static void at_message(struct ui *ui, struct pane *pn, const char *what)
{
	char t[32];

	ui_message(ui, "%s: at %s, event %llu", what, ui_time_text(sched_now(pn->run->e), t, sizeof(t)),
		   (unsigned long long)sched_nr_events(pn->run->e));
}

/* ---- the commands ---- */

static int c_pause(struct ui *ui, struct pane *pn, struct args *a)
{
	ui->paused = true;
	ui_message(ui, "paused");
	return 0;
}

static int c_resume(struct ui *ui, struct pane *pn, struct args *a)
{
	if (sched_finished(pn->run->e)) {
		ui_error(ui, "resume: the run is over; , rewinds, g goes to a time");
		return -1;
	}
	ui->paused = false;
	ui_message(ui, "running");
	return 0;
}

static int c_toggle(struct ui *ui, struct pane *pn, struct args *a)
{
	return ui->paused ? c_resume(ui, pn, a) : c_pause(ui, pn, a);
}

static int c_step(struct ui *ui, struct pane *pn, struct args *a)
{
	long n;

	if (!parse_count(ui, a, 1, &n))
		return -1;
	ui->paused = true;
	for (long i = 0; i < n; i++) {
		/* split: the next event of either side, the other brought to its time */
		if (ui->split.on ? !ui_split_step(ui)
				 : history_run_until_event(pn->run->h, UINT64_MAX, any_event, NULL) < 0) {
			at_message(ui, pn, "end of the run");
			return 0;
		}
	}
	at_message(ui, pn, "step");
	return 0;
}

static int c_back(struct ui *ui, struct pane *pn, struct args *a)
{
	long n;

	if (!parse_count(ui, a, 1, &n))
		return -1;
	u64 ne = sched_nr_events(pn->run->e);
	if (ne == 0) {
		ui_error(ui, "back: already at the start");
		return -1;
	}
	/* go back n event-emitting steps: to the last event of the step before */
	u64 s = ne - 1;
	for (long i = 0; i < n; i++) {
		u64 g = history_event_step(pn->run->h, s), last = s;

		while (s > 0 && history_event_step(pn->run->h, s - 1) == g)
			s--;
		if (s == 0) {
			if (i == 0) {
				ui_error(ui, "back: already at the first step");
				return -1;
			}
			s = last;	/* stay after the first step */
			break;
		}
		s--;
	}
	ui->paused = true;
	history_goto_event(pn->run->h, s);
	at_message(ui, pn, "back");
	return 0;
}

/* ---- breakpoints and step-next: the breakpoint language (src/breakpoint.h) ---- */

static struct breakpoint *parse_break(struct ui *ui, struct pane *pn, const char *what, const char *text)
{
	char err[256];
	struct breakpoint_scope scope;

	scenario_breakpoint_scope(pn->run->f, &scope);
	struct breakpoint *bp = breakpoint_parse(text, &scope, err, sizeof(err));
	if (!bp)
		ui_error(ui, "%s: %s", what, err);
	return bp;
}

int ui_breaks_test(struct ui *ui, const struct sched_event *ev)
{
	struct ui_breaks *b = &ui->breaks;
	int hit = -1;

	/* every breakpoint sees every event: they keep state (wakeup times) */
	for (int i = 0; i < b->nr; i++)
		if (breakpoint_test(b->bp[i], ev) && hit < 0)
			hit = i;
	if (hit >= 0)
		b->last_hit = hit;
	return hit;
}

void ui_breaks_reset(struct ui *ui)
{
	for (int i = 0; i < ui->breaks.nr; i++)
		breakpoint_reset(ui->breaks.bp[i]);
}

void ui_breaks_hit(struct ui *ui, const struct ui_run *run, const struct sched_event *ev)
{
	const struct ui_breaks *b = &ui->breaks;
	char d[300], t[32];

	if (b->last_hit >= 0 && b->last_hit < b->nr)
		breakpoint_describe(b->bp[b->last_hit], ev, run->f->task_names, d, sizeof(d));
	else
		snprintf(d, sizeof(d), "%s", sched_event_names[ev->type]);
	ui_message(ui, "break %d at %s: %s", b->last_hit + 1, ui_time_text(ev->time, t, sizeof(t)), d);
}

static void breaks_free(struct ui_breaks *b)
{
	for (int i = 0; i < b->nr; i++)
		breakpoint_free(b->bp[i]);
	b->nr = 0;
	b->last_hit = -1;
}

static int c_break(struct ui *ui, struct pane *pn, struct args *a)
{
	if (a->n < 2) {
		ui_error(ui, "break: expected a condition (switch cpu=0, wakeup_latency > 4ms, at 2s, ...)");
		return -1;
	}
	struct ui_breaks *b = &ui->breaks;

	if (b->nr == UI_MAX_BREAKS) {
		ui_error(ui, "break: at most %d breakpoints", UI_MAX_BREAKS);
		return -1;
	}
	struct breakpoint *bp = parse_break(ui, pn, "break", a->rest[1]);
	if (!bp)
		return -1;
	b->bp[b->nr++] = bp;
	ui_message(ui, "breakpoint %d: %s", b->nr, breakpoint_text(bp));
	return 0;
}

static int c_delete(struct ui *ui, struct pane *pn, struct args *a)
{
	struct ui_breaks *b = &ui->breaks;
	long n;

	if (a->n == 2 && !strcmp(a->w[1], "all")) {
		breaks_free(b);
		ui_message(ui, "no breakpoints");
		return 0;
	}
	if (a->n != 2 || !parse_int(a->w[1], 1, b->nr, &n)) {
		if (!b->nr)
			ui_error(ui, "delete: there are no breakpoints");
		else
			ui_error(ui, "delete: expected a breakpoint number 1..%d or all", b->nr);
		return -1;
	}
	breakpoint_free(b->bp[n - 1]);
	memmove(&b->bp[n - 1], &b->bp[n], (size_t)(b->nr - n) * sizeof(b->bp[0]));
	b->nr--;
	b->last_hit = -1;
	ui_message(ui, "breakpoint %ld deleted", n);
	return 0;
}

static int c_breaks(struct ui *ui, struct pane *pn, struct args *a)
{
	const struct ui_breaks *b = &ui->breaks;
	char buf[480];
	size_t len = 0;

	if (!b->nr) {
		ui_message(ui, "no breakpoints (add one with :break)");
		return 0;
	}
	buf[0] = 0;
	for (int i = 0; i < b->nr && len < sizeof(buf) - 1; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d: %s", i ? "   " : "", i + 1,
					breakpoint_text(b->bp[i]));
	ui_message(ui, "%s", buf);
	return 0;
}

static int c_step_next(struct ui *ui, struct pane *pn, struct args *a)
{
	if (a->n < 2) {
		ui_error(ui, "step-next: which event? (switch, wakeup, migrate, fork, exit, note, ...)");
		return -1;
	}
	struct breakpoint *bp = parse_break(ui, pn, "step-next", a->rest[1]);
	if (!bp)
		return -1;
	u64 t0 = sched_now(pn->run->e), ne0 = sched_nr_events(pn->run->e);
	s64 seq = history_run_until_event(pn->run->h, UINT64_MAX, breakpoint_test, bp);
	if (seq < 0) {
		/* not found: back to where we were */
		if (ne0)
			history_goto_event(pn->run->h, ne0 - 1);
		if (sched_now(pn->run->e) < t0)
			history_run_until(pn->run->h, t0);
		ui_error(ui, "step-next: no '%s' before the end", breakpoint_text(bp));
		breakpoint_free(bp);
		return -1;
	}
	char d[300], t[32];
	const struct sched_event *ev = history_event(pn->run->h, (u64)seq);
	breakpoint_describe(bp, ev, pn->run->f->task_names, d, sizeof(d));
	breakpoint_free(bp);
	ui->paused = true;
	pn->sel_event = (u64)seq;
	if (ev->cpu >= 0)
		pn->sel_cpu = ev->cpu;
	ui_message(ui, "%s: %s", ui_time_text(ev->time, t, sizeof(t)), d);
	return 0;
}

static int c_goto(struct ui *ui, struct pane *pn, struct args *a)
{
	u64 t;
	s64 cp;
	const char *s;
	int sign = 0, br;

	if (a->n != 2) {
		ui_error(ui, "goto: expected TIME (2.5s, +10ms, -1ms) or a checkpoint name");
		return -1;
	}
	s = a->w[1];
	if (*s == '+' || *s == '-')
		sign = *s++ == '+' ? 1 : -1;
	int r = parse_duration(s, strlen(s), &t);
	/* beyond the longest time: past the end, or back to the start */
	if (r == PARSE_OVERFLOW) {
		r = PARSE_OK;
		t = sign < 0 ? SCHED_TIME_MAX : UINT64_MAX;
	}
	if (r == PARSE_OK) {
		u64 now = sched_now(pn->run->e);
		if (sign > 0)
			t = t > UINT64_MAX - now ? UINT64_MAX : now + t;
		else if (sign < 0)
			t = t > now ? 0 : now - t;
	} else if (!sign && (cp = history_find_checkpoint(pn->run->h, s)) >= 0) {
		t = (u64)cp;
	} else if (!sign && (br = history_checkpoint_branch(pn->run->h, s)) >= 0) {
		/* a checkpoint of another branch: follow that branch there */
		struct history_branch_info bi;

		history_switch_branch(pn->run->h, br, sched_now(pn->run->e));
		history_branch_info(pn->run->h, br, &bi);
		ui->paused = true;
		history_goto_time(pn->run->h, (u64)history_find_checkpoint(pn->run->h, s));
		char tb[32];
		ui_message(ui, "goto: on branch %s, at %s (%s)", bi.name,
			   ui_time_text(sched_now(pn->run->e), tb, sizeof(tb)), s);
		return 0;
	} else {
		ui_error(ui, "goto: '%s' is neither a time (2.5s) nor a checkpoint", a->w[1]);
		return -1;
	}
	if (t > pn->run->f->sc.duration) {
		char b1[32], b2[32];
		ui_error(ui, "goto: %s is past the end of the run (%s)",
			 t == UINT64_MAX ? a->w[1] : ui_time_text(t, b1, sizeof(b1)),
			 ui_time_text(pn->run->f->sc.duration, b2, sizeof(b2)));
		return -1;
	}
	ui->paused = true;
	history_goto_time(pn->run->h, t);
	at_message(ui, pn, "goto");
	return 0;
}

/* trace FILE [A..B]: the run so far (or the window) from the event log, as ftrace text or Perfetto JSON. */
static int c_trace(struct ui *ui, struct pane *pn, struct args *a)
{
	u64 from = 0, to = 0;
	char t[32], path[1024], err[512];

	if (a->n < 2 || a->n > 3) {
		ui_error(ui, "trace: expected FILE [FROM..TO] (FILE.json for Perfetto)");
		return -1;
	}
	if (a->n == 3) {
		const char *w = a->w[2], *dots = strstr(w, "..");

		if (!dots || parse_duration(w, (size_t)(dots - w), &from) != PARSE_OK ||
		    parse_duration(dots + 2, strlen(dots + 2), &to) != PARSE_OK || from >= to) {
			ui_error(ui, "trace: bad window '%s' (like 1s..2.5s)", w);
			return -1;
		}
	}
	/* stdout is the screen here */
	if (!strcmp(a->w[1], "-")) {
		ui_error(ui, "trace: '-' is the terminal here: name a file");
		return -1;
	}
	/* the run so far: not past the current position */
	if (from > sched_now(pn->run->e)) {
		ui_error(ui, "trace: the window starts after the current position (%s)",
			 ui_time_text(sched_now(pn->run->e), t, sizeof(t)));
		return -1;
	}
	/* no shell reads the console: ~ is expanded here */
	if (path_expand(a->w[1], path, sizeof(path), err, sizeof(err))) {
		ui_error(ui, "trace: %s", err);
		return -1;
	}
	return ui_trace_start(ui, pn->run, path, from, to);
}

static int c_checkpoint(struct ui *ui, struct pane *pn, struct args *a)
{
	char name[64];

	if (a->n > 2) {
		ui_error(ui, "checkpoint: expected one NAME");
		return -1;
	}
	if (a->n == 2) {
		snprintf(name, sizeof(name), "%s", a->w[1]);
		if (!isalpha((unsigned char)name[0]) && name[0] != '_') {
			ui_error(ui, "checkpoint: a name starts with a letter ('%s')", name);
			return -1;
		}
		if (history_find_checkpoint(pn->run->h, name) >= 0) {
			ui_error(ui, "checkpoint: '%s' exists already", name);
			return -1;
		}
	} else {
		for (int i = 1;; i++) {
			snprintf(name, sizeof(name), "cp%d", i);
			if (history_find_checkpoint(pn->run->h, name) < 0)
				break;
		}
	}
	struct pane *o = ui_split_other(ui);
	if (history_checkpoint(pn->run->h, name) || (o && history_checkpoint(o->run->h, name))) {
		ui_error(ui, "checkpoint: out of checkpoint memory");
		return -1;
	}
	char t[32];
	ui_message(ui, "checkpoint %s at %s (goto %s returns here)", name,
		   ui_time_text(sched_now(pn->run->e), t, sizeof(t)), name);
	return 0;
}

static int c_speed(struct ui *ui, struct pane *pn, struct args *a)
{
	double s;
	char b[32];

	if (a->n != 2) {
		ui_error(ui, "speed: expected up, down, max or a speed (1, 0.1, 1/1000)");
		return -1;
	}
	if (!strcmp(a->w[1], "up") || !strcmp(a->w[1], "down")) {
		s = ui_speed_step(ui->speed, a->w[1][0] == 'u' ? 1 : -1);
	} else if (!parse_speed(a->w[1], &s)) {
		ui_error(ui, "speed: '%s' is not a speed (1, 0.1, 1/1000, max)", a->w[1]);
		return -1;
	} else if (strcmp(a->w[1], "max") && !(s >= SPEED_MIN * 0.9999 && s <= SPEED_MAX)) {
		/* only the word max is max: 0, 0x, 0/1 are below the range */
		ui_error(ui, "speed: %s is out of range (1/10000 .. 1000, or max)", a->w[1]);
		return -1;
	}
	ui->speed = s;
	ui_message(ui, "speed %s", ui_speed_text(s, b, sizeof(b)));
	return 0;
}

static int view_index(const struct view *v)
{
	for (int i = 0; i < ui_nr_views; i++)
		if (ui_views[i] == v)
			return i;
	return -1;
}

static const struct view *cycle_view(const struct view *v, int dir)
{
	if (!ui_nr_views)
		return NULL;
	int i = view_index(v);
	if (i < 0)
		return ui_views[dir > 0 ? 0 : ui_nr_views - 1];
	return ui_views[(i + dir + ui_nr_views) % ui_nr_views];
}

static int set_side(struct ui *ui, struct pane *pn, const char *name, const struct view *main)
{
	if (!strcmp(name, "none") || !strcmp(name, "off")) {
		pn->side_view = NULL;
		return 0;
	}
	const struct view *v = strcmp(name, "next") ? ui_view_by_name(name) : cycle_view(pn->side_view, 1);
	if (!v) {
		ui_error(ui, "side: no view '%s'", name);
		return -1;
	}
	if (v == main) {
		v = cycle_view(v, 1);
		if (v == main)
			v = NULL;
	}
	pn->side_view = v;
	return 0;
}

static int c_view(struct ui *ui, struct pane *pn, struct args *a)
{
	const struct view *v;

	if (a->n < 2) {
		ui_error(ui, "view: expected a view name (or next, prev)");
		return -1;
	}
	char name[64], *comma;
	snprintf(name, sizeof(name), "%s", a->w[1]);
	comma = strchr(name, ',');
	if (comma)
		*comma++ = 0;
	if (!strcmp(name, "next") || !strcmp(name, "prev"))
		v = cycle_view(pn->main_view, name[0] == 'n' ? 1 : -1);
	else
		v = ui_view_by_name(name);
	if (!v) {
		ui_error(ui, "view: no view '%s'", name);
		return -1;
	}
	const char *side = comma;
	if (a->n == 4 && !strcmp(a->w[2], "side"))
		side = a->w[3];
	else if (a->n != 2) {
		ui_error(ui, "view: expected NAME [side NAME]");
		return -1;
	}
	if (side && strcmp(side, "none") && strcmp(side, "off") && strcmp(side, "next") &&
	    !ui_view_by_name(side)) {
		ui_error(ui, "view: no view '%s'", side);
		return -1;
	}
	if (v != pn->main_view && pn->main_view && strcmp(pn->main_view->name, "help"))
		pn->help_return = NULL;
	pn->main_view = v;
	if (side)
		set_side(ui, pn, side, v);
	else if (pn->side_view == v)
		pn->side_view = NULL;
	ui_message(ui, "view %s%s%s", v->name, pn->side_view ? " | " : "",
		   pn->side_view ? pn->side_view->name : "");
	return 0;
}

static int c_side(struct ui *ui, struct pane *pn, struct args *a)
{
	if (a->n != 2) {
		ui_error(ui, "side: expected a view name, next or none");
		return -1;
	}
	if (set_side(ui, pn, a->w[1], pn->main_view))
		return -1;
	ui_message(ui, "side view %s", pn->side_view ? pn->side_view->name : "off");
	return 0;
}

/* The group whose queue the runqueue view shows: a path, next/prev in the table, or up. */
static int select_group(struct ui *ui, struct pane *pn, const char *x)
{
	int nr = sched_nr_groups(pn->run->e), g = pn->sel_group;
	struct sched_group_info gi;

	if (!strcmp(x, "next"))
		g = (g + 1) % nr;
	else if (!strcmp(x, "prev"))
		g = g <= 0 ? nr - 1 : g - 1;
	else if (!strcmp(x, "up")) {
		sched_group_info(pn->run->e, g, &gi);
		g = gi.parent >= 0 ? gi.parent : 0;
	} else {
		for (g = 0; g < nr; g++) {
			sched_group_info(pn->run->e, g, &gi);
			if (!strcmp(gi.path, x))
				break;
		}
		if (g == nr) {
			ui_error(ui, "select: no group '%s'", x);
			return -1;
		}
	}
	pn->sel_group = g;
	sched_group_info(pn->run->e, g, &gi);
	ui_message(ui, "group %s", gi.path);
	return 0;
}

static int c_select(struct ui *ui, struct pane *pn, struct args *a)
{
	long v;

	if (a->n == 2 && !strcmp(a->w[1], "none")) {
		pn->sel_cpu = pn->sel_task = -1;
		pn->sel_group = 0;
		pn->sel_event = ~0ull;
		ui_message(ui, "selection cleared");
		return 0;
	}
	if (a->n != 3) {
		ui_error(ui, "select: expected cpu N|next|prev, task NAME|next|prev, group PATH|next|prev|up, "
			 "or none");
		return -1;
	}
	const char *what = a->w[1], *x = a->w[2];
	if (!strcmp(what, "cpu")) {
		int nr = sched_nr_cpus(pn->run->e);
		if (!strcmp(x, "next"))
			pn->sel_cpu = (pn->sel_cpu + 1) % nr;
		else if (!strcmp(x, "prev"))
			pn->sel_cpu = pn->sel_cpu <= 0 ? nr - 1 : pn->sel_cpu - 1;
		else if (parse_int(x, 0, nr - 1, &v))
			pn->sel_cpu = (int)v;
		else {
			ui_error(ui, "select: no CPU '%s' (0..%d)", x, nr - 1);
			return -1;
		}
		ui_message(ui, "cpu %d", pn->sel_cpu);
		return 0;
	}
	if (!strcmp(what, "task")) {
		int nr = pn->run->f->sc.nr_tasks, t;
		if (!nr) {
			ui_error(ui, "select: the scenario has no tasks");
			return -1;
		}
		if (!strcmp(x, "next"))
			t = (pn->sel_task + 1) % nr;
		else if (!strcmp(x, "prev"))
			t = pn->sel_task <= 0 ? nr - 1 : pn->sel_task - 1;
		else if ((t = task_by_name(pn, x)) < 0) {
			ui_error(ui, t == -2 ? "select: '%s' names more than one task" : "select: no task '%s'", x);
			return -1;
		}
		pn->sel_task = t;
		ui_message(ui, "task %s", pn->run->f->sc.task[t].name);
		return 0;
	}
	if (!strcmp(what, "group"))
		return select_group(ui, pn, x);
	ui_error(ui, "select: expected cpu, task, group or none, not '%s'", what);
	return -1;
}

static int c_set(struct ui *ui, struct pane *pn, struct args *a)
{
	struct sched_command cmds[256];
	char err[256];
	int n = 0;

	if (command_parse(pn->run->f, a->line, cmds, (int)ARRAY_SIZE(cmds), &n, err, sizeof(err))) {
		ui_error(ui, "%s", err);
		return -1;
	}
	const struct sched_history *h = pn->run->h;
	int nr_br = history_nr_branches(h), was = history_current_branch(h);
	for (int i = 0; i < n; i++) {
		if (history_apply_command(pn->run->h, &cmds[i], err, sizeof(err))) {
			ui_error(ui, "set: %s", err);
			return -1;
		}
	}
	char t[32];
	ui_time_text(sched_now(pn->run->e), t, sizeof(t));
	if (history_nr_branches(h) > nr_br) {
		struct history_branch_info now, old;

		history_branch_info(h, history_current_branch(h), &now);
		history_branch_info(h, was, &old);
		char why[96];
		snprintf(why, sizeof(why), "%s at %s", a->line, t);
		ui_branch_note(pn->run, history_current_branch(h), why);
		ui_message(ui,
			   "%s at %s: new branch %s; the old future is branch %s (:branch %s, :compare %s)",
			   a->line, t, now.name, old.name, old.name, old.name);
		return 0;
	}
	ui_message(ui, "%s (at %s)", a->line, t);
	return 0;
}

/* ---- branches ---- */

static int c_branches(struct ui *ui, struct pane *pn, struct args *a)
{
	const struct sched_history *h = pn->run->h;
	char buf[480], t[32];
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < history_nr_branches(h) && len < sizeof(buf) - 1; i++) {
		struct history_branch_info bi;
		u64 fork = history_branch_fork(h, i);

		history_branch_info(h, i, &bi);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s%s", i ? "   " : "",
					i == history_current_branch(h) ? "*" : "", bi.name);
		if (len < sizeof(buf) && fork != UINT64_MAX)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " (parts at %s)",
						ui_time_text(fork, t, sizeof(t)));
		if (len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %d cmd, %d cp",
						bi.nr_commands, bi.nr_checkpoints);
	}
	ui_message(ui, "branches: %s", buf);
	return 0;
}

static int branch_arg(struct ui *ui, struct pane *pn, struct args *a)
{
	if (a->n != 2) {
		ui_error(ui, "%s: expected a branch NAME (:branches lists them)", a->w[0]);
		return -1;
	}
	int i = history_find_branch(pn->run->h, a->w[1]);
	if (i < 0)
		ui_error(ui, "%s: no branch '%s' (:branches lists them)", a->w[0], a->w[1]);
	return i;
}

static int c_branch(struct ui *ui, struct pane *pn, struct args *a)
{
	int i = branch_arg(ui, pn, a);
	char t[32];

	if (i < 0)
		return -1;
	ui->paused = true;
	history_switch_branch(pn->run->h, i, sched_now(pn->run->e));
	ui_message(ui, "branch %s, at %s", a->w[1], ui_time_text(sched_now(pn->run->e), t, sizeof(t)));
	return 0;
}

static int c_compare(struct ui *ui, struct pane *pn, struct args *a)
{
	struct ui_run *run = &ui->run; /* branches are A's */
	char la[160], lb[160], err[256], t[32];
	int i = branch_arg(ui, &ui->pane, a);

	if (i < 0)
		return -1;
	if (ui->split.on && ui->split.focus) {
		ui_error(ui, "compare: branches are side A's (o focuses it)");
		return -1;
	}
	int cur = history_current_branch(run->h);
	if (i == cur) {
		ui_error(ui, "compare: %s is the current branch", a->w[1]);
		return -1;
	}
	u64 fork = history_branch_fork(run->h, i);
	ui_branch_label(run, cur, la, sizeof(la));
	ui_branch_label(run, i, lb, sizeof(lb));
	if (fork != UINT64_MAX)
		history_goto_time(run->h, fork);
	if (ui_split_open(ui, run->f, i, la, lb, err, sizeof(err))) {
		ui_error(ui, "compare: %s", err);
		return -1;
	}
	ui->paused = true;
	ui_message(ui, "compare: %s (A) and %s (B) from %s, where they part; o switches side, | the layout",
		   la, lb, ui_time_text(sched_now(run->e), t, sizeof(t)));
	return 0;
}

static int c_split(struct ui *ui, struct pane *pn, struct args *a)
{
	static const char *const names[] = { "auto", "side", "stacked" };
	const char *w = a->n > 1 ? a->w[1] : "toggle";

	if (!ui->split.on) {
		ui_error(ui, "split: no second run (ui A.scn --vs ..., or :compare BRANCH)");
		return -1;
	}
	if (a->n > 2) {
		ui_error(ui, "split: expected side, stacked, auto, toggle or off");
		return -1;
	}
	if (!strcmp(w, "off")) {
		/* the focused side stays */
		if (ui->split.focus) {
			ui_error(ui, "split off: shows side A alone; o focuses it first");
			return -1;
		}
		ui_split_close(ui);
		ui_message(ui, "split off");
		return 0;
	}
	if (!strcmp(w, "toggle")) {
		ui->split.layout = ui->split.drawn_side ? SPLIT_STACKED : SPLIT_SIDE;
	} else {
		int i;
		for (i = 0; i < (int)ARRAY_SIZE(names) && strcmp(w, names[i]); i++)
			;
		if (i == (int)ARRAY_SIZE(names)) {
			ui_error(ui, "split: '%s' is not side, stacked, auto, toggle or off", w);
			return -1;
		}
		ui->split.layout = (enum split_layout)i;
	}
	ui_message(ui, "split: %s", names[ui->split.layout]);
	return 0;
}

static int c_pane(struct ui *ui, struct pane *pn, struct args *a)
{
	const char *w = a->n > 1 ? a->w[1] : "other";

	if (!ui->split.on) {
		ui_error(ui, "pane: there is one pane (no split)");
		return -1;
	}
	if (a->n > 2 || (strcmp(w, "a") && strcmp(w, "b") && strcmp(w, "other"))) {
		ui_error(ui, "pane: expected a, b or other");
		return -1;
	}
	ui->split.focus = !strcmp(w, "other") ? !ui->split.focus : w[0] == 'b';
	ui_message(ui, "pane %s: %s", ui->split.focus ? "B" : "A", ui->split.label[ui->split.focus]);
	return 0;
}

static int c_follow(struct ui *ui, struct pane *pn, struct args *a)
{
	const char *w = a->n > 1 ? a->w[1] : "toggle";

	if (a->n > 2 || (strcmp(w, "on") && strcmp(w, "off") && strcmp(w, "toggle"))) {
		ui_error(ui, "follow: expected on, off or toggle");
		return -1;
	}
	ui->split.follow = !strcmp(w, "toggle") ? !ui->split.follow : !strcmp(w, "on");
	ui_message(ui, ui->split.follow ? "follow: both panes show the focused pane's views"
					: "follow off: each pane keeps its own views");
	return 0;
}

static int c_diverge(struct ui *ui, struct pane *pn, struct args *a)
{
	if (a->n > 2 || (a->n == 2 && strcmp(a->w[1], "next") && strcmp(a->w[1], "first"))) {
		ui_error(ui, "diverge: expected nothing, first or next");
		return -1;
	}
	return ui_diverge(ui, a->n == 2 && !strcmp(a->w[1], "next"));
}

/* diff [on|off|toggle], diff sort METRIC|name, diff window A..B|all */
static int c_diff(struct ui *ui, struct pane *pn, struct args *a)
{
	struct diff_strip *d = &ui->split.diff;
	const char *w = a->n > 1 ? a->w[1] : "toggle";

	if (!ui->split.on) {
		ui_error(ui, "diff: needs two runs (ui A.scn --vs ..., or :compare BRANCH)");
		return -1;
	}
	if (!strcmp(w, "sort") && a->n == 3) {
		const char *m = !strcmp(a->w[2], "p99") ? "p99_latency" : a->w[2];
		int k = metric_lookup(m, strlen(m));

		if (strcmp(m, "name") && k < 0) {
			ui_error(ui,
				 "diff sort: '%s' is not share, wait, p99_latency, p50_latency, migrations, "
				 "throttled or name",
				 a->w[2]);
			return -1;
		}
		d->sort = k < 0 ? DIFF_SORT_NAME : k;
		d->on = true;
	} else if (!strcmp(w, "window") && a->n == 3) {
		u64 from = 0, to = 0;
		const char *x = a->w[2], *dots = strstr(x, "..");

		if (strcmp(x, "all") &&
		    (!dots || parse_duration(x, (size_t)(dots - x), &from) != PARSE_OK ||
		     parse_duration(dots + 2, strlen(dots + 2), &to) != PARSE_OK || from >= to)) {
			ui_error(ui, "diff window: bad window '%s' (like 1s..2.5s, or all)", x);
			return -1;
		}
		d->from = from;
		d->to = to;
		d->valid = false;
		d->on = true;
	} else if (a->n == 2 && (!strcmp(w, "on") || !strcmp(w, "off") || !strcmp(w, "toggle"))) {
		d->on = !strcmp(w, "toggle") ? !d->on : !strcmp(w, "on");
	} else if (a->n > 1) {
		ui_error(ui, "diff: expected on, off, toggle, sort METRIC or window A..B");
		return -1;
	}
	ui_message(ui, d->on ? "diff strip: B - A per task and group" : "diff strip off");
	return 0;
}

static int c_filter(struct ui *ui, struct pane *pn, struct args *a)
{
	const char *text = a->n > 1 ? a->rest[1] : "";

	if (strlen(text) >= sizeof(pn->ev_filter)) {
		ui_error(ui, "filter: longer than %zu characters", sizeof(pn->ev_filter) - 1);
		return -1;
	}
	snprintf(pn->ev_filter, sizeof(pn->ev_filter), "%s", text);
	ui_message(ui, *text ? "filter: %s" : "filter off%s", text);
	return 0;
}

/* Look for the search text in the main view's list from its selection:
 * dir 1 down, -1 up, 0 a new search (find.h goes on between frames). */
static int find(struct ui *ui, struct pane *pn, int dir)
{
	const struct view *v = pn->main_view;

	if (!pn->search[0]) {
		ui_error(ui, "no search yet: / searches the list views");
		return -1;
	}
	if (!v || !v->find) {
		ui_error(ui, "search: the %s view has no list to search", v ? v->name : "");
		return -1;
	}
	find_begin(pn, dir);
	return 0;
}

static int c_search(struct ui *ui, struct pane *pn, struct args *a)
{
	const char *text = a->n > 1 ? a->rest[1] : "";

	if (strlen(text) >= sizeof(pn->search)) {
		ui_error(ui, "search: longer than %zu characters", sizeof(pn->search) - 1);
		return -1;
	}
	snprintf(pn->search, sizeof(pn->search), "%s", text);
	if (!*text) {
		pn->find.on = false;
		ui_message(ui, "search off");
		return 0;
	}
	return find(ui, pn, 0);
}

static int c_search_next(struct ui *ui, struct pane *pn, struct args *a)
{
	return find(ui, pn, 1);
}

static int c_search_prev(struct ui *ui, struct pane *pn, struct args *a)
{
	return find(ui, pn, -1);
}

static int c_help(struct ui *ui, struct pane *pn, struct args *a)
{
	const struct view *help = ui_view_by_name("help");

	if (!help)
		return 0;
	if (pn->main_view == help) {
		pn->main_view = pn->help_return ? pn->help_return : ui_nr_views ? ui_views[0] : NULL;
		pn->help_return = NULL;
		ui_message(ui, " ");
		return 0;
	}
	pn->help_return = pn->main_view;
	pn->main_view = help;
	ui_message(ui, "help: q or Escape closes it");
	return 0;
}

static int c_quit(struct ui *ui, struct pane *pn, struct args *a)
{
	ui->quit = true;
	return 0;
}

static int c_bind(struct ui *ui, struct pane *pn, struct args *a)
{
	char err[200];

	if (a->n < 3) {
		ui_error(ui, "bind: expected KEY COMMAND");
		return -1;
	}
	if (keymap_bind(&ui->keymap, a->w[1], a->rest[2], err, sizeof(err))) {
		ui_error(ui, "%s", err);
		return -1;
	}
	ui_message(ui, "%s: %s", a->w[1], a->rest[2]);
	return 0;
}

static int c_unbind(struct ui *ui, struct pane *pn, struct args *a)
{
	char err[200];

	if (a->n != 2) {
		ui_error(ui, "unbind: expected KEY");
		return -1;
	}
	if (keymap_bind(&ui->keymap, a->w[1], "", err, sizeof(err))) {
		ui_error(ui, "%s", err);
		return -1;
	}
	ui_message(ui, "%s unbound", a->w[1]);
	return 0;
}

static int c_prompt(struct ui *ui, struct pane *pn, struct args *a)
{
	const char *p = strchr(a->line, ' ');

	/* keep the text after "prompt " as typed, trailing space included */
	snprintf(ui->prompt, sizeof(ui->prompt), "%s", p ? p + 1 : "");
	ui->prompt_pending = true;
	return 0;
}

static int c_redraw(struct ui *ui, struct pane *pn, struct args *a)
{
	ui->redraw_pending = true;
	return 0;
}

static const struct cmd cmds[] = {
	{ { "pause", "", "stop the clock" }, c_pause },
	{ { "resume", "", "run at the chosen speed" }, c_resume },
	{ { "toggle-pause", "", "pause or resume" }, c_toggle },
	{ { "step", "[N]", "run to the next event (N times), paused" }, c_step },
	{ { "back", "[N]", "rewind N steps (default 1)" }, c_back },
	{ { "step-next", "EXPR", "run to the next event EXPR matches (as break)" }, c_step_next },
	{ { "goto", "TIME|CHECKPOINT", "jump to a time (2.5s, +10ms, -1ms) or a named checkpoint" }, c_goto },
	{ { "checkpoint", "[NAME]", "remember this moment under a name" }, c_checkpoint },
	{ { "trace", "FILE [FROM..TO]", "write the run so far as ftrace text (FILE.json: Perfetto)" },
	  c_trace },
	{ { "speed", "X|up|down|max", "simulated seconds per second: 1/10000 .. 1000, or max" }, c_speed },
	{ { "break", "EXPR", "pause when EXPR holds: switch cpu=0, at 2s, ..." }, c_break },
	{ { "delete", "N|all", "delete breakpoint N" }, c_delete },
	{ { "breaks", "", "list the breakpoints" }, c_breaks },
	{ { "view", "NAME [side NAME]", "show a view (and one beside it); next, prev" }, c_view },
	{ { "side", "NAME|next|none", "the view beside the main one" }, c_side },
	{ { "select", "cpu N|task NAME|group PATH|none",
	    "select a CPU, task or group (next, prev; group up)" },
	  c_select },
	{ { "set", "nice|slice|policy|group|tunable|feature ...", "change the run from now on" }, c_set },
	{ { "move", "task PATTERN to PATH", "move tasks to another group from now on" }, c_set },
	{ { "branches", "", "list the branches (a change after a rewind starts one)" }, c_branches },
	{ { "branch", "NAME", "follow another branch, at the same time" }, c_branch },
	{ { "compare", "BRANCH", "split screen: this branch against BRANCH, from where they part" },
	  c_compare },
	{ { "split", "side|stacked|auto|toggle|off", "the split screen's layout (or off)" }, c_split },
	{ { "pane", "a|b|other", "which side of the split the keys and commands act on" }, c_pane },
	{ { "diverge", "[first|next]",
	    "split screen: where the runs first decide differently (next: after now)" },
	  c_diverge },
	{ { "diff", "on|off|sort METRIC|window A..B",
	    "split screen: per task A, B and B - A (share, wait, p99, ...)" },
	  c_diff },
	{ { "follow", "on|off|toggle", "both panes show the same views (on), or each its own" }, c_follow },
	{ { "filter", "[TEXT]", "show only matching events in the events view" }, c_filter },
	{ { "search", "[TEXT]", "select the next line holding TEXT in a list view (none: search off)" },
	  c_search },
	{ { "search-next", "", "the next line holding the search text" }, c_search_next },
	{ { "search-prev", "", "the previous line holding the search text" }, c_search_prev },
	{ { "bind", "KEY COMMAND", "bind a key to a command" }, c_bind },
	{ { "unbind", "KEY", "remove a key's binding" }, c_unbind },
	{ { "prompt", "[TEXT]", "open the : console with TEXT typed" }, c_prompt },
	{ { "redraw", "", "repaint the whole screen" }, c_redraw },
	{ { "help", "", "this screen (again to close it)" }, c_help },
	{ { "quit", "", "leave schedscope" }, c_quit },
};

int ui_nr_commands(void)
{
	return (int)ARRAY_SIZE(cmds);
}

const struct ui_command_info *ui_command_get(int i)
{
	return &cmds[i].info;
}

int ui_command(struct ui *ui, const char *line)
{
	char buf[1024], *p;
	struct args a = { 0 };

	while (isspace((unsigned char)*line))
		line++;
	if (strlen(line) >= sizeof(buf)) {
		ui_error(ui, "command too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", line);
	/* trailing blanks off, except for `prompt` which keeps them */
	size_t n = strlen(buf);
	if (strncmp(buf, "prompt", 6))
		while (n && isspace((unsigned char)buf[n - 1]))
			buf[--n] = 0;
	if (!n)
		return 0;
	char copy[1024];
	memcpy(copy, buf, n + 1);
	a.line = copy;
	for (p = buf; *p && a.n < MAX_WORDS;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		a.rest[a.n] = copy + (p - buf);
		a.w[a.n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(a.w[0], cmds[i].info.name))
			continue;
		struct pane *pn = ui_focus(ui);
		u64 steps = sched_nr_steps(pn->run->e);
		int rc = cmds[i].fn(ui, pn, &a);
		/* breakpoints follow the stream: a jump starts them afresh */
		if (sched_nr_steps(pn->run->e) != steps)
			ui_breaks_reset(ui);
		/* one clock: the other side of a split to the same time */
		ui_split_sync(ui);
		return rc;
	}
	ui_error(ui, "unknown command '%s' (? lists them)", a.w[0]);
	return -1;
}

int ui_command_file(struct ui *ui, const char *path)
{
	char *text, err[512];
	size_t len;

	if (lex_read_file(path, &text, &len, err, sizeof(err))) {
		ui_error(ui, "%s", err);
		return -1;
	}
	char *z = xmalloc(len + 1);
	memcpy(z, text, len);
	z[len] = 0;
	free(text);
	text = z;
	int lineno = 0, rc = 0;
	for (char *p = text, *next; p < text + len && !ui->quit; p = next) {
		char *nl = memchr(p, '\n', (size_t)(text + len - p));
		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = 0;
		lineno++;
		/* a '#' outside "quotes" starts a comment */
		bool q = false;
		for (char *c = p; *c; c++) {
			if (*c == '"')
				q = !q;
			else if (*c == '#' && !q) {
				*c = 0;
				break;
			}
		}
		/* a script's next line may need what a search selects */
		if (ui_command(ui, p) || find_finish(ui)) {
			char m[512];
			snprintf(m, sizeof(m), "%s", ui->message);
			ui_error(ui, "%s:%d: %s", path, lineno, m);
			rc = -1;
			break;
		}
	}
	free(text);
	return rc;
}
