// SPDX-License-Identifier: GPL-2.0
/*
 * A decision record, drawn: why a task was placed where it was (one
 * schedscope_select_rq event) or what one load_balance() attempt compared
 * and did (its schedscope_lb_group, schedscope_lb_task and
 * schedscope_load_balance events, which share the seq of the first as
 * `decision`). The events view and the migrations view show it for the
 * selected event; a migration points at its record through `cause`.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "ui.h"

/* A record's events follow its first one closely; stop looking after this many. */
#define RECORD_SCAN 4096

static const char *nm(const char *const *names, unsigned n, unsigned i)
{
	return i < n && names[i] ? names[i] : "?";
}

/* The first event of the record the event at seq belongs to, or ~0. */
u64 decision_of(const struct sched_event *ev)
{
	switch (ev->type) {
	case EV_SELECT_RQ:
		return ev->seq;
	case EV_LB_GROUP:
		return ev->lb_group.decision;
	case EV_LB_TASK:
		return ev->lb_task.decision;
	case EV_LOAD_BALANCE:
		return ev->lb.decision;
	case EV_SCHED_MIGRATE_TASK:
		return ev->migrate.cause;
	default:
		return ~0ULL;
	}
}

static int draw_select(struct pane *pn, struct cellbuf *cb, struct rect a, const struct sched_event *ev)
{
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	int y = a.y, bottom = a.y + a.h;

	cb_print(cb, a.x, y++, a.w, bold, "why: %s of %s placed on CPU %d (select_task_rq_fair)",
		 ev->select.wake_flags & SELECT_WF_FORK ? "fork" : "wakeup",
		 sched_comm(pn->run->e, ev->select.pid, ev->cpu), ev->select.new_cpu);
	if (y < bottom)
		cb_print(cb, a.x + 2, y++, a.w - 2, STYLE_PLAIN,
			 "prev_cpu %d, waker's CPU %d; wake_affine(): %s -> target CPU %d", ev->select.prev_cpu,
			 ev->cpu, nm(wake_affine_names, NR_WAKE_AFFINE_RESULTS, ev->select.affine), ev->select.target);
	if (y < bottom && (ev->select.this_eff_load || ev->select.prev_eff_load))
		cb_print(cb, a.x + 2, y++, a.w - 2, STYLE_PLAIN,
			 "wake_affine_weight(): this_eff_load %" PRId64 " vs prev_eff_load %" PRId64
			 " (the smaller side wins)", ev->select.this_eff_load, ev->select.prev_eff_load);
	if (y < bottom)
		cb_print(cb, a.x + 2, y++, a.w - 2, STYLE_PLAIN,
			 "search: %s at domain level %d, %d CPUs scanned -> CPU %d",
			 nm(select_path_names, NR_SELECT_PATHS, ev->select.path), ev->select.depth,
			 ev->select.nr_scanned, ev->select.new_cpu);
	return y - a.y;
}

/*
 * One task detach_tasks() looked at, in its migration type's unit: the
 * check as it ran (load >> nr_balance_failed against what was left of the
 * imbalance), and a task_h_load() from an h_load cached earlier this jiffy.
 */
static int draw_task(struct pane *pn, struct cellbuf *cb, struct rect a, const struct sched_event *ev)
{
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	bool moved = ev->lb_task.result <= LBT_MOVED_HOT;
	unsigned type = ev->lb_task.migration_type;
	char check[96] = "", stale[64] = "";
	int x = a.x;

	if (ev->lb_task.compared) {
		unsigned shift = MIN(ev->lb_task.nr_balance_failed, 63u);
		s64 before = ev->lb_task.imbalance + (moved ? (s64)ev->lb_task.load : 0);

		snprintf(check, sizeof(check), " (>> %u = %u %s %" PRId64 ")", shift,
			 ev->lb_task.load >> shift, moved ? "<=" : ">", before);
	}
	if (ev->lb_task.h_load_stale)
		snprintf(stale, sizeof(stale), ", h_load cached this jiffy: fresh %u",
			 ev->lb_task.load_fresh);
	x += cb_print(cb, x, a.y, a.w, moved ? bold : STYLE_PLAIN, "tried %-14s %-6s %6u%s%s -> %s",
		      sched_comm(pn->run->e, ev->lb_task.pid, ev->cpu),
		      type == migrate_task   ? "tasks"
		      : type == migrate_load ? "load"
					     : "util",
		      ev->lb_task.load, check, stale,
		      nm(lb_task_result_names, NR_LB_TASK_RESULTS, ev->lb_task.result));
	cb_print(cb, x, a.y, a.x + a.w - x, STYLE_PLAIN, ", imbalance left %" PRId64, ev->lb_task.imbalance);
	return 1;
}

/* One load_balance() attempt: its summary, the groups it compared, the tasks it tried. */
static int draw_balance(struct pane *pn, struct cellbuf *cb, struct rect a, u64 first)
{
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	u64 limit = MIN(history_nr_logged(pn->run->h), sched_nr_events(pn->run->e));
	const struct sched_event *sum = NULL;
	int y = a.y, bottom = a.y + a.h;

	for (u64 s = first; s < limit && s < first + RECORD_SCAN; s++) {
		const struct sched_event *ev = history_event(pn->run->h, s);

		if (ev->type == EV_LOAD_BALANCE && ev->lb.decision == first) {
			sum = ev;
			break;
		}
	}
	if (!sum) {
		cb_print(cb, a.x, y, a.w, dim, "why: the record of decision #%" PRIu64 " is not complete yet", first);
		return 1;
	}
	cb_print(cb, a.x, y++, a.w, bold, "why: load_balance() on CPU %d at %s (level %d), %s: %s%s%s",
		 sum->cpu, nm(sd_level_names, NR_SD_LEVEL_NAMES, sum->lb.level), sum->lb.depth,
		 nm(cpu_idle_type_names, CPU_MAX_IDLE_TYPES, sum->lb.idle),
		 nm(lb_outcome_names, NR_LB_OUTCOMES, sum->lb.outcome),
		 sum->lb.outcome == LB_NOBUSYG ? " because " : "",
		 sum->lb.outcome == LB_NOBUSYG ? nm(fbg_reason_names, NR_FBG_REASONS, sum->lb.why) : "");
	/* two lines, so that at 80 columns the counters are not cut off */
	if (y < bottom)
		cb_print(cb, a.x + 2, y++, a.w - 2, STYLE_PLAIN,
			 "imbalance %" PRId64
			 " (%s), busiest group CPU %d.., busiest rq CPU %d; moved %u (%u cache hot)",
			 sum->lb.imbalance,
			 nm(migration_type_names, NR_MIGRATION_TYPES, sum->lb.migration_type),
			 sum->lb.busiest_group, sum->lb.busiest_cpu, sum->lb.nr_moved, sum->lb.nr_hot_moved);
	if (y < bottom)
		cb_print(cb, a.x + 2, y++, a.w - 2, STYLE_PLAIN,
			 "nr_balance_failed %u when checked (%u after), balance_interval %ums%s",
			 sum->lb.nr_balance_failed_before, sum->lb.nr_balance_failed,
			 sum->lb.balance_interval, sum->lb.active ? ", active balance kicked" : "");
	if (y < bottom)
		cb_print(cb, a.x + 2, y++, a.w - 2, bold, "%-10s %-13s %9s %9s %7s %8s %6s %6s", "group", "type",
			 "avg_load", "load", "util", "capacity", "nr", "idle");
	for (u64 s = first; s < sum->seq && y < bottom; s++) {
		const struct sched_event *ev = history_event(pn->run->h, s);

		if (ev->type != EV_LB_GROUP || ev->lb_group.decision != first)
			continue;
		cb_print(cb, a.x + 2, y++, a.w - 2, ev->lb_group.first_cpu == sum->lb.busiest_group ? bold : STYLE_PLAIN,
			 "CPU %-3d%-3s %-13s %9" PRIu64 " %9u %7u %8u %6u %6u", ev->lb_group.first_cpu,
			 ev->lb_group.local ? " *" : "", nm(group_type_names, NR_GROUP_TYPES, ev->lb_group.group_type),
			 ev->lb_group.avg_load, ev->lb_group.group_load, ev->lb_group.group_util,
			 ev->lb_group.group_capacity, ev->lb_group.sum_h_nr_running, ev->lb_group.idle_cpus);
	}
	for (u64 s = first; s < sum->seq && y < bottom; s++) {
		const struct sched_event *ev = history_event(pn->run->h, s);

		if (ev->type != EV_LB_TASK || ev->lb_task.decision != first)
			continue;
		y += draw_task(pn, cb, (struct rect){ a.x + 2, y, a.w - 2, 1 }, ev);
	}
	if (y < bottom)
		cb_print(cb, a.x + 2, y++, a.w - 2, dim, "* the balancing CPU's own group; bold: the busiest group, the tasks moved");
	return y - a.y;
}

int decision_draw(struct pane *pn, struct cellbuf *cb, struct rect a, const struct sched_event *ev)
{
	u64 first = decision_of(ev);
	const struct sched_event *head;

	if (a.h <= 0 || first == ~0ULL || first >= history_nr_logged(pn->run->h))
		return 0;
	head = history_event(pn->run->h, first);
	if (head->type == EV_SELECT_RQ)
		return draw_select(pn, cb, a, head);
	return draw_balance(pn, cb, a, first);
}
