// SPDX-License-Identifier: GPL-2.0
/*
 * `diverge`: the first instant the split screen's two runs decide
 * differently (src/analysis/diverge.h finds it in their logs), both sides
 * put there, each pane's events view on its side's event and the decision
 * record that explains it.
 */
#include <stdio.h>
#include <string.h>

#include "src/analysis/diverge.h"
#include "commands.h"
#include "split.h"

/* The first search window; it doubles while nothing is found. */
#define DIVERGE_CHUNK (20 * NSEC_PER_MSEC)

static const char *task_name(const struct ui_run *run, int pid, char *buf, size_t len)
{
	if (pid == 0)
		return "idle";
	if (pid > 0 && pid <= run->f->sc.nr_tasks)
		return run->f->sc.task[pid - 1].name;
	snprintf(buf, len, "pid %d", pid);
	return buf;
}

/* "sched_switch cpu 1: hog.0 -> web.2", what the message line says of a decision. */
static void brief(const struct ui_run *run, const struct sched_event *ev, char *buf, size_t len)
{
	char b1[32], b2[32];
	int n = snprintf(buf, len, "%s cpu %d", sched_event_names[ev->type], ev->cpu);

	if (n < 0 || (size_t)n >= len)
		return;
	buf += n;
	len -= (size_t)n;
	switch (ev->type) {
	case EV_SCHED_SWITCH:
		snprintf(buf, len, ": %s -> %s", task_name(run, ev->sw.prev_pid, b1, sizeof(b1)),
			 task_name(run, ev->sw.next_pid, b2, sizeof(b2)));
		break;
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		snprintf(buf, len, ": %s on cpu %d", task_name(run, ev->wake.pid, b1, sizeof(b1)),
			 ev->wake.target_cpu);
		break;
	case EV_SCHED_MIGRATE_TASK:
		snprintf(buf, len, ": %s cpu %d -> %d", task_name(run, ev->migrate.pid, b1, sizeof(b1)),
			 ev->migrate.orig_cpu, ev->migrate.dest_cpu);
		break;
	case EV_SCHED_PROCESS_EXIT:
		snprintf(buf, len, ": %s", task_name(run, ev->exit.pid, b1, sizeof(b1)));
		break;
	default:
		break;
	}
}

/*
 * The event a pane selects to explain ev: ev itself when it points at a
 * record (a migration's cause), else the placement just before a wakeup
 * (select_task_rq() runs before the wakeup is traced), else ev.
 */
static u64 explaining(const struct ui_run *run, const struct sched_event *ev)
{
	if (ev->type != EV_SCHED_WAKEUP && ev->type != EV_SCHED_WAKEUP_NEW)
		return ev->seq;
	for (u64 s = ev->seq, n = 0; s-- > 0 && n < 64; n++) {
		const struct sched_event *p = history_event(run->h, s);

		if (p->time != ev->time)
			break;
		if (p->type == EV_SELECT_RQ && p->select.pid == ev->wake.pid)
			return s;
	}
	return ev->seq;
}

/* Make both logs reach `until` (a log that stops short reads as a side that did nothing). */
static void cover(struct ui_run *run, u64 until)
{
	u64 n = history_nr_logged(run->h);

	until = MIN(until, run->f->sc.duration);
	if (n && history_event(run->h, n - 1)->time > until)
		return;
	if (sched_now(run->e) < until)
		history_run_until(run->h, until);
}

int ui_diverge(struct ui *ui, bool next)
{
	struct ui_run *r[2] = { &ui->run, &ui->run_b };
	struct pane *pn[2] = { &ui->pane, &ui->pane_b };
	struct divergence d;
	char t[32], what[2][160];
	int found;

	if (!ui->split.on) {
		ui_error(ui, "diverge: needs two runs (ui A.scn --vs ..., or :compare BRANCH)");
		return -1;
	}
	u64 now = sched_now(ui_focus(ui)->run->e), from = next ? now + 1 : 0;
	u64 end = MAX(r[0]->f->sc.duration, r[1]->f->sc.duration), chunk = DIVERGE_CHUNK, until = from;
	do {
		until = MIN(end, until + chunk);
		chunk *= 2;
		cover(r[0], until);
		cover(r[1], until);
		found = diverge_logs(r[0]->h, r[1]->h, from, until, &d);
	} while (found == 0 && until < end);
	ui->paused = true;
	if (found != 1) {
		history_goto_time(ui_focus(ui)->run->h, now);
		ui_split_sync(ui);
		ui_error(ui, "diverge: the runs decide alike from %s to the end",
			 ui_time_text(from, t, sizeof(t)));
		return -1;
	}
	/* both sides at the later of the two events, so that each has its own */
	u64 at = d.time;
	for (int i = 0; i < 2; i++)
		if (d.has[i])
			at = MAX(at, d.ev[i].time);
	history_goto_time(ui_focus(ui)->run->h, at);
	ui_split_sync(ui);
	ui_command(ui, "view events");
	for (int i = 0; i < 2; i++) {
		if (d.has[i]) {
			pn[i]->sel_event = explaining(r[i], &d.ev[i]);
			brief(r[i], &d.ev[i], what[i], sizeof(what[i]));
		} else {
			pn[i]->sel_event = ~0ull;
			snprintf(what[i], sizeof(what[i]), "nothing more");
		}
	}
	for (int i = 0; i < 2; i++)
		snprintf(ui->split.diverged[i], sizeof(ui->split.diverged[i]), "%s", what[i]);
	ui->split.diverged_at = at;
	ui_message(ui, "%s at %s: A %s | B %s (d: the next one)",
		   next ? "next divergence" : "first divergence", ui_time_text(d.time, t, sizeof(t)), what[0],
		   what[1]);
	return 0;
}
