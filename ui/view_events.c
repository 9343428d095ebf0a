/*
 * The events view: the history log as ftrace-like text lines (time, CPU,
 * event, fields with task names), newest at the bottom while following,
 * filtered by ui->ev_filter (an event name such as "sched_switch" or
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

#include "ui.h"

#define NO_EVENT (~0ULL)
/* Scans for matching events give up after this many (a filter matching nothing). */
#define EV_SCAN_BUDGET (1u << 21)

struct filter {
	int type;		/* event type, -1 for any */
	const char *glob;	/* task name glob, NULL for any */
	bool plain;		/* glob has no wildcard: also match "glob.N" */
};

static void parse_filter(const struct ui *ui, struct filter *f)
{
	const char *s = ui->ev_filter;

	f->type = -1;
	f->glob = NULL;
	f->plain = false;
	if (!s[0])
		return;
	for (int t = 0; t < NR_SCHED_EVENTS; t++) {
		const char *n = sched_event_names[t];
		const char *u = strchr(n, '_');

		if (!strcmp(s, n) || (u && !strcmp(s, u + 1))) {
			f->type = t;
			return;
		}
	}
	f->glob = s;
	f->plain = !strpbrk(s, "*?[");
}

static bool name_match(const struct filter *f, const char *name)
{
	size_t n;

	if (!name)
		return false;
	if (!fnmatch(f->glob, name, 0))
		return true;
	n = strlen(f->glob);
	return f->plain && !strncmp(name, f->glob, n) && name[n] == '.';
}

static bool pid_match(const struct ui *ui, const struct filter *f, int pid)
{
	return pid > 0 && name_match(f, sched_comm(ui->e, pid, 0));
}

static bool ev_match(const struct ui *ui, const struct filter *f, const struct sched_event *ev)
{
	if (f->type >= 0)
		return ev->type == f->type;
	if (!f->glob)
		return true;
	switch (ev->type) {
	case EV_SCHED_SWITCH:
		return pid_match(ui, f, ev->sw.prev_pid) || pid_match(ui, f, ev->sw.next_pid);
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		return pid_match(ui, f, ev->wake.pid);
	case EV_SCHED_MIGRATE_TASK:
		return pid_match(ui, f, ev->migrate.pid);
	case EV_SCHED_PROCESS_FORK:
		return pid_match(ui, f, ev->fork.parent_pid) || pid_match(ui, f, ev->fork.child_pid);
	case EV_SCHED_PROCESS_EXIT:
		return pid_match(ui, f, ev->exit.pid);
	case EV_SCHED_STAT_RUNTIME:
		return pid_match(ui, f, ev->runtime.pid);
	case EV_SCHED_SET_NICE:
		return pid_match(ui, f, ev->nice.pid);
	case EV_SCHED_YIELD:
		return pid_match(ui, f, ev->yield.pid);
	case EV_COMMAND:
		return ev->command.task >= 0 && pid_match(ui, f, ev->command.task + 1);
	case EV_SCHED_SELECT_RQ:
		return pid_match(ui, f, ev->select.pid);
	case EV_SCHED_LB_TASK:
		return pid_match(ui, f, ev->lb_task.pid);
	default:
		return false;
	}
}

/* Events the view may show: [0, limit). */
static u64 ev_limit(const struct ui *ui)
{
	return MIN(history_nr_logged(ui->h), sched_nr_events(ui->e));
}

/* The matching event before `seq` (NO_EVENT when none within the budget). */
static u64 prev_match(const struct ui *ui, const struct filter *f, u64 seq)
{
	u32 budget = EV_SCAN_BUDGET;

	while (seq > 0 && budget--) {
		seq--;
		if (ev_match(ui, f, history_event(ui->h, seq)))
			return seq;
	}
	return NO_EVENT;
}

/* The matching event at or after `seq`, before limit. */
static u64 next_match(const struct ui *ui, const struct filter *f, u64 seq, u64 limit)
{
	u32 budget = EV_SCAN_BUDGET;

	for (; seq < limit && budget--; seq++)
		if (ev_match(ui, f, history_event(ui->h, seq)))
			return seq;
	return NO_EVENT;
}

/* ---- one line ---- */

static const char *comm(const struct ui *ui, int pid, int cpu, char *buf, size_t n)
{
	snprintf(buf, n, "%s", sched_comm(ui->e, pid, cpu));
	return buf;
}

static const char *state_str(int pid, char st)
{
	if (st == TASK_STATE_R)
		return pid == 0 ? "R" : "R+";
	if (st == TASK_STATE_S)
		return "S";
	if (st == TASK_STATE_X)
		return "X";
	return "R";
}

static void fields(const struct ui *ui, const struct sched_event *ev, char *out, size_t n, bool narrow)
{
	char a[64], b[64];
	int cpu = ev->cpu;
	const struct sched_scenario *sc = sched_scenario_of(ui->e);

	switch (ev->type) {
	case EV_SCHED_SWITCH:
		if (narrow) {
			snprintf(out, n, "%s:%d %s ==> %s:%d", comm(ui, ev->sw.prev_pid, cpu, a, sizeof(a)),
				 ev->sw.prev_pid, state_str(ev->sw.prev_pid, ev->sw.prev_state),
				 comm(ui, ev->sw.next_pid, cpu, b, sizeof(b)), ev->sw.next_pid);
			break;
		}
		snprintf(out, n, "prev_comm=%s prev_pid=%d prev_state=%s ==> next_comm=%s next_pid=%d",
			 comm(ui, ev->sw.prev_pid, cpu, a, sizeof(a)), ev->sw.prev_pid,
			 state_str(ev->sw.prev_pid, ev->sw.prev_state),
			 comm(ui, ev->sw.next_pid, cpu, b, sizeof(b)), ev->sw.next_pid);
		break;
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		snprintf(out, n, "comm=%s pid=%d prio=%d target_cpu=%03d",
			 comm(ui, ev->wake.pid, cpu, a, sizeof(a)), ev->wake.pid, ev->wake.prio,
			 ev->wake.target_cpu);
		break;
	case EV_SCHED_MIGRATE_TASK:
		snprintf(out, n, "comm=%s pid=%d orig_cpu=%d dest_cpu=%d",
			 comm(ui, ev->migrate.pid, cpu, a, sizeof(a)), ev->migrate.pid,
			 ev->migrate.orig_cpu, ev->migrate.dest_cpu);
		break;
	case EV_SCHED_PROCESS_FORK:
		snprintf(out, n, "comm=%s pid=%d child_comm=%s child_pid=%d",
			 comm(ui, ev->fork.parent_pid, cpu, a, sizeof(a)), ev->fork.parent_pid,
			 comm(ui, ev->fork.child_pid, cpu, b, sizeof(b)), ev->fork.child_pid);
		break;
	case EV_SCHED_PROCESS_EXIT:
		snprintf(out, n, "comm=%s pid=%d prio=%d", comm(ui, ev->exit.pid, cpu, a, sizeof(a)),
			 ev->exit.pid, ev->exit.prio);
		break;
	case EV_SCHED_STAT_RUNTIME:
		snprintf(out, n, "comm=%s pid=%d runtime=%" PRIu64 " [ns] vruntime=%" PRIu64 " [ns]",
			 comm(ui, ev->runtime.pid, cpu, a, sizeof(a)), ev->runtime.pid,
			 ev->runtime.runtime, ev->runtime.vruntime);
		break;
	case EV_SCHED_SET_NICE:
		snprintf(out, n, "comm=%s pid=%d old_nice=%d new_nice=%d policy=%d slice=%" PRIu64 " [ns]",
			 comm(ui, ev->nice.pid, cpu, a, sizeof(a)), ev->nice.pid, ev->nice.old_nice,
			 ev->nice.new_nice, ev->nice.policy, ev->nice.slice);
		break;
	case EV_SCHED_YIELD:
		if (ev->yield.to_pid)
			snprintf(out, n, "comm=%s pid=%d to_comm=%s to_pid=%d",
				 comm(ui, ev->yield.pid, cpu, a, sizeof(a)), ev->yield.pid,
				 comm(ui, ev->yield.to_pid, cpu, b, sizeof(b)), ev->yield.to_pid);
		else
			snprintf(out, n, "comm=%s pid=%d", comm(ui, ev->yield.pid, cpu, a, sizeof(a)),
				 ev->yield.pid);
		break;
	case EV_COMMAND: {
		const char *kind = ev->command.kind < NR_SCHED_COMMANDS ? sched_command_names[ev->command.kind] : "?";
		const char *what = "";

		if (ev->command.kind == CMD_SET_TUNABLE && ev->command.key >= 0 &&
		    ev->command.key < NR_SCHED_TUNABLES)
			what = sched_tunable_descs[ev->command.key].name;
		else if (ev->command.kind == CMD_SET_FEATURE && ev->command.key >= 0 &&
			 ev->command.key < NR_SCHED_FEATURES)
			what = sched_feature_names[ev->command.key];
		else if (ev->command.task >= 0)
			what = comm(ui, ev->command.task + 1, cpu, a, sizeof(a));
		snprintf(out, n, "%s %s key=%d value=%" PRId64 " (%s)", kind, what, ev->command.key,
			 ev->command.value, ev->command.index == ~0u ? "console" : "scenario");
		break;
	}
	case EV_NOTE:
		snprintf(out, n, "\"%s\"", ev->note.index < (u32)sc->nr_notes && sc->note[ev->note.index].text
					      ? sc->note[ev->note.index].text : "?");
		break;
	case EV_SCHED_SELECT_RQ:
		snprintf(out, n, "comm=%s pid=%d %s prev_cpu=%d target=%d new_cpu=%d affine=%s path=%s",
			 comm(ui, ev->select.pid, cpu, a, sizeof(a)), ev->select.pid,
			 ev->select.wake_flags & SELECT_WF_FORK ? "fork" : "wakeup", ev->select.prev_cpu,
			 ev->select.target, ev->select.new_cpu,
			 ev->select.affine < NR_WAKE_AFFINE_RESULTS ? wake_affine_names[ev->select.affine] : "?",
			 ev->select.path < NR_SELECT_PATHS ? select_path_names[ev->select.path] : "?");
		break;
	case EV_SCHED_LB_GROUP:
		snprintf(out, n, "#%" PRIu64 " group_cpu=%d%s %s load=%u util=%u nr=%u idle=%u",
			 ev->lb_group.decision, ev->lb_group.first_cpu, ev->lb_group.local ? " local" : "",
			 ev->lb_group.group_type < NR_GROUP_TYPES ? group_type_names[ev->lb_group.group_type] : "?",
			 ev->lb_group.group_load, ev->lb_group.group_util, ev->lb_group.sum_nr_running,
			 ev->lb_group.idle_cpus);
		break;
	case EV_SCHED_LB_TASK:
		snprintf(out, n, "#%" PRIu64 " comm=%s pid=%d %s load=%u imbalance=%" PRId64,
			 ev->lb_task.decision, comm(ui, ev->lb_task.pid, cpu, a, sizeof(a)), ev->lb_task.pid,
			 ev->lb_task.result < NR_LB_TASK_RESULTS ? lb_task_result_names[ev->lb_task.result] : "?",
			 ev->lb_task.load, ev->lb_task.imbalance);
		break;
	case EV_SCHED_LB:
		snprintf(out, n, "#%" PRIu64 " %s %s %s why=%s busiest=%d %s imbalance=%" PRId64 " moved=%u",
			 ev->lb.decision, ev->lb.level < NR_SD_LEVEL_NAMES ? sd_level_names[ev->lb.level] : "?",
			 ev->lb.idle < CPU_MAX_IDLE_TYPES ? cpu_idle_type_names[ev->lb.idle] : "?",
			 ev->lb.outcome < NR_LB_OUTCOMES ? lb_outcome_names[ev->lb.outcome] : "?",
			 ev->lb.why < NR_FBG_REASONS ? fbg_reason_names[ev->lb.why] : "?", ev->lb.busiest_cpu,
			 ev->lb.migration_type < NR_MIGRATION_TYPES ? migration_type_names[ev->lb.migration_type] : "?",
			 ev->lb.imbalance, ev->lb.nr_moved);
		break;
	case EV_SCHED_HERD:
		snprintf(out, n, "%s: %u migrations from %u to %u CPUs since event #%" PRIu64,
			 ev->herd.cause < NR_HERD_CAUSES ? herd_cause_names[ev->herd.cause] : "?", ev->herd.nr,
			 ev->herd.nr_src, ev->herd.nr_dst, ev->herd.first_seq);
		break;
	default:
		snprintf(out, n, "type=%u", ev->type);
	}
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
	case EV_SCHED_HERD:
		return sty(C_MAGENTA, COLOR_DEFAULT, A_BOLD_);
	case EV_SCHED_LB:
		return sty(C_MAGENTA, COLOR_DEFAULT, 0);
	case EV_COMMAND:
	case EV_NOTE:
		return sty(C_YELLOW, COLOR_DEFAULT, A_BOLD_);
	default:
		return sty(COLOR_DEFAULT, COLOR_DEFAULT, 0);
	}
}

static void draw_line(struct ui *ui, struct cellbuf *cb, int x, int y, int w,
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

	if (w < 110 && !strncmp(name, "sched_", 6))
		name += 6;	/* narrow: "switch", "wakeup", ... */
	used += cb_print(cb, x + used, y, w - used, es, "%-*s", w < 110 ? 14 : 19, name);
	fields(ui, ev, text, sizeof(text), w < 110);
	cb_print(cb, x + used, y, w - used, base, " %s", text);
}

/* ---- draw and keys ---- */

static void ev_draw(struct ui *ui, struct cellbuf *cb, struct rect a)
{
	struct filter f;
	u64 limit = ev_limit(ui);
	int rows = a.h - 2;
	u64 seqs[512];
	int n = 0;

	if (a.w <= 0 || a.h < 3)
		return;
	rows = MIN(rows, (int)ARRAY_SIZE(seqs));
	parse_filter(ui, &f);

	if (ui->sel_event != NO_EVENT && ui->sel_event >= limit)
		ui->sel_event = NO_EVENT;
	if (ui->sel_event != NO_EVENT && !ev_match(ui, &f, history_event(ui->h, ui->sel_event)))
		ui->sel_event = next_match(ui, &f, ui->sel_event, limit);

	if (ui->sel_event == NO_EVENT) {
		/* following: the newest `rows` matches */
		u64 s = limit;

		while (n < rows && (s = prev_match(ui, &f, s)) != NO_EVENT)
			seqs[n++] = s;
		for (int i = 0; i < n / 2; i++) {
			u64 t = seqs[i];

			seqs[i] = seqs[n - 1 - i];
			seqs[n - 1 - i] = t;
		}
		ui->ev_top = n ? seqs[0] : limit;
	} else {
		u64 sel = ui->sel_event;

		if (ui->ev_top > sel)
			ui->ev_top = sel;
		/* from ev_top forward; if sel falls off the bottom, end the page at sel */
		u64 s = ui->ev_top;
		bool seen = false;

		while (n < rows && (s = next_match(ui, &f, s, limit)) != NO_EVENT) {
			seqs[n++] = s;
			seen |= s == sel;
			if (s >= sel && !seen)
				break;
			s++;
		}
		if (!seen) {
			n = 0;
			s = sel + 1;
			while (n < rows && (s = prev_match(ui, &f, s)) != NO_EVENT)
				seqs[n++] = s;
			for (int i = 0; i < n / 2; i++) {
				u64 t = seqs[i];

				seqs[i] = seqs[n - 1 - i];
				seqs[n - 1 - i] = t;
			}
			ui->ev_top = n ? seqs[0] : sel;
			/* fill below sel */
			s = sel + 1;
			while (n < rows && (s = next_match(ui, &f, s, limit)) != NO_EVENT)
				seqs[n++] = s++;
		}
	}

	/* header */
	{
		int x = a.x;
		struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);

		x += cb_print(cb, x, a.y, a.w, bold, "Events %" PRIu64 " so far", limit);
		if (ui->ev_filter[0])
			x += cb_print(cb, x, a.y, a.x + a.w - x, sty(C_YELLOW, COLOR_DEFAULT, A_BOLD_),
				      "  filter: %s (%s)", ui->ev_filter, f.type >= 0 ? "event" : "task glob");
		if (ui->sel_event == NO_EVENT)
			cb_print(cb, x, a.y, a.x + a.w - x, STYLE_PLAIN, "  following the newest");
		else
			cb_print(cb, x, a.y, a.x + a.w - x, STYLE_PLAIN, "  event #%" PRIu64 " selected",
				 ui->sel_event);
	}
	if (n == 0)
		cb_print(cb, a.x + 1, a.y + 1, a.w - 1, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0), "%s",
			 ui->ev_filter[0] ? "no event matches the filter" : "no events yet");
	for (int i = 0; i < n; i++)
		draw_line(ui, cb, a.x, a.y + 1 + i, a.w, history_event(ui->h, seqs[i]), seqs[i] == ui->sel_event);
	cb_print(cb, a.x, a.y + a.h - 1, a.w, sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0),
		 "Up/Down PgUp/PgDn select  Home first  End follow   times in s, [CPU]; "
		 "#N: the balance decision a record belongs to");
}

static bool ev_key(struct ui *ui, int key)
{
	struct filter f;
	u64 limit = ev_limit(ui);
	int steps = 1;

	parse_filter(ui, &f);
	switch (key) {
	case KEY_PPAGE:
		steps = 20;
		/* fall through */
	case KEY_UP:
	case 'k':
		for (int i = 0; i < steps; i++) {
			u64 from = ui->sel_event == NO_EVENT ? limit : ui->sel_event;
			u64 p = prev_match(ui, &f, from);

			if (p == NO_EVENT)
				break;
			ui->sel_event = p;
		}
		return true;
	case KEY_NPAGE:
		steps = 20;
		/* fall through */
	case KEY_DOWN:
	case 'j':
		for (int i = 0; i < steps && ui->sel_event != NO_EVENT; i++)
			ui->sel_event = next_match(ui, &f, ui->sel_event + 1, limit);
		return true;
	case KEY_HOME:
		ui->sel_event = next_match(ui, &f, 0, limit);
		ui->ev_top = 0;
		return true;
	case KEY_END:
		ui->sel_event = NO_EVENT;
		return true;
	}
	return false;
}

const struct view view_events = {
	.name = "events",
	.title = "Events",
	.draw = ev_draw,
	.key = ev_key,
};
