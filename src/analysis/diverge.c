// SPDX-License-Identifier: GPL-2.0
/* Where two runs first decide differently (diverge.h). */
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "diverge.h"

bool diverge_is_decision(const struct sched_event *ev)
{
	switch (ev->type) {
	case EV_SCHED_SWITCH:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
	case EV_SCHED_MIGRATE_TASK:
	case EV_SCHED_PROCESS_FORK:
	case EV_SCHED_PROCESS_EXIT:
	case EV_SET_NICE:
	case EV_YIELD:
	case EV_COMMAND:
	case EV_CFS_THROTTLE:
	case EV_CFS_UNTHROTTLE:
	case EV_RT_THROTTLE:
	case EV_RT_UNTHROTTLE:
	case EV_EXT_DISPATCH:
	case EV_EXT_EXIT:
		return true;
	case EV_DL_THROTTLE:
	case EV_DL_MISS:
		/* the fair server (pid 0, 6.12+) is budget bookkeeping, not a task's fate */
		return ev->dl.pid != 0;
	default:
		return false;
	}
}

bool diverge_same(const struct sched_event *a, const struct sched_event *b)
{
	if (a->time != b->time || a->type != b->type || a->cpu != b->cpu)
		return false;
	switch (a->type) {
	case EV_SCHED_SWITCH:
		return a->sw.prev_pid == b->sw.prev_pid && a->sw.next_pid == b->sw.next_pid;
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		return a->wake.pid == b->wake.pid && a->wake.target_cpu == b->wake.target_cpu;
	case EV_SCHED_MIGRATE_TASK:
		return a->migrate.pid == b->migrate.pid && a->migrate.orig_cpu == b->migrate.orig_cpu &&
		       a->migrate.dest_cpu == b->migrate.dest_cpu;
	case EV_SCHED_PROCESS_FORK:
		return a->fork.parent_pid == b->fork.parent_pid && a->fork.child_pid == b->fork.child_pid;
	case EV_SCHED_PROCESS_EXIT:
		return a->exit.pid == b->exit.pid;
	case EV_SET_NICE:
		return a->nice.pid == b->nice.pid;
	case EV_YIELD:
		return a->yield.pid == b->yield.pid && a->yield.to_pid == b->yield.to_pid;
	case EV_COMMAND:
		return a->command.kind == b->command.kind && a->command.task == b->command.task;
	case EV_CFS_THROTTLE:
	case EV_CFS_UNTHROTTLE:
		return a->bw.group == b->bw.group;
	case EV_DL_THROTTLE:
	case EV_DL_MISS:
		return a->dl.pid == b->dl.pid;
	case EV_EXT_DISPATCH:
		return a->ext_dsp.pid == b->ext_dsp.pid && a->ext_dsp.dest_cpu == b->ext_dsp.dest_cpu;
	case EV_EXT_EXIT:
		return a->ext_exit.pid == b->ext_exit.pid;
	default:
		return true;
	}
}

void diverge_init(struct diverge *d, u64 from, u64 until)
{
	memset(d, 0, sizeof(*d));
	d->from = from;
	d->until = until;
}

void diverge_free(struct diverge *d)
{
	free(d->q[0].e);
	free(d->q[1].e);
	memset(d, 0, sizeof(*d));
}

static void found(struct diverge *d, const struct sched_event *a, const struct sched_event *b)
{
	d->found = true;
	d->d.has[0] = a;
	d->d.has[1] = b;
	if (a)
		d->d.ev[0] = *a;
	if (b)
		d->d.ev[1] = *b;
	d->d.time = a && b ? (a->time < b->time ? a->time : b->time) : a ? a->time : b->time;
}

static const struct sched_event *head(const struct diverge_queue *q)
{
	return q->n ? &q->e[q->head] : NULL;
}

static void pop(struct diverge_queue *q)
{
	q->head++;
	if (--q->n == 0)
		q->head = 0;
}

/* Pair up the heads while both sides have one; a side that ended pairs with nothing. */
static void match(struct diverge *d)
{
	while (!d->found) {
		const struct sched_event *a = head(&d->q[0]), *b = head(&d->q[1]);

		if (a && b) {
			if (!diverge_same(a, b)) {
				found(d, a, b);
				return;
			}
			pop(&d->q[0]);
			pop(&d->q[1]);
			d->matched++;
		} else if ((a && d->ended[1]) || (b && d->ended[0])) {
			found(d, a, b);
		} else {
			return;
		}
	}
}

static void feed(struct diverge *d, int side, const struct sched_event *ev)
{
	struct diverge_queue *q = &d->q[side];

	if (d->found || d->ended[side] || ev->time < d->from || !diverge_is_decision(ev))
		return;
	if (ev->time > d->until) {
		diverge_end(d, side);
		return;
	}
	/* the other side is ahead: pair with its oldest decision, no copy */
	if (!q->n && d->q[!side].n) {
		const struct sched_event *o = head(&d->q[!side]);

		if (!diverge_same(o, ev)) {
			found(d, side ? o : ev, side ? ev : o);
			return;
		}
		pop(&d->q[!side]);
		d->matched++;
		return;
	}
	if (q->head + q->n == q->cap && q->head) {
		memmove(q->e, q->e + q->head, q->n * sizeof(*q->e));
		q->head = 0;
	}
	if (q->head + q->n == q->cap)
		XGROW(q->e, q->cap, q->head + q->n);
	q->e[q->head + q->n++] = *ev;
	match(d);
}

void diverge_event_a(void *ctx, const struct sched_event *ev)
{
	feed(ctx, 0, ev);
}

void diverge_event_b(void *ctx, const struct sched_event *ev)
{
	feed(ctx, 1, ev);
}

void diverge_end(struct diverge *d, int side)
{
	d->ended[side] = true;
	match(d);
}

static int result(struct diverge *d, struct divergence *out)
{
	int r = d->found;

	if (r)
		*out = d->d;
	diverge_free(d);
	return r;
}

int diverge_engines(struct sched_engine *a, struct sched_engine *b, u64 from, u64 until,
		    struct divergence *out)
{
	struct sched_engine *e[2] = { a, b };
	struct diverge d;

	diverge_init(&d, from, until);
	if (sched_add_listener(a, diverge_event_a, &d) < 0)
		return -1;
	if (sched_add_listener(b, diverge_event_b, &d) < 0) {
		sched_remove_listener(a, diverge_event_a, &d);
		return -1;
	}
	/* step the side the other waits for: the queues hold one instant's lead at most */
	while (!d.found && !(d.ended[0] && d.ended[1])) {
		int s = d.ended[0] || (!d.ended[1] && d.q[0].n > d.q[1].n) ? 1 : 0;

		if (sched_next_time(e[s]) > until || !sched_step(e[s]))
			diverge_end(&d, s);
	}
	sched_remove_listener(a, diverge_event_a, &d);
	sched_remove_listener(b, diverge_event_b, &d);
	return result(&d, out);
}

void diverge_run_pair(struct sched_engine *a, struct sched_engine *b, u64 end, struct diverge *d,
		      u64 lockstep_ns)
{
	bool listening = sched_add_listener(a, diverge_event_a, d) == 0;

	if (listening && sched_add_listener(b, diverge_event_b, d) < 0) {
		sched_remove_listener(a, diverge_event_a, d);
		listening = false;
	}
	for (u64 t = 0; listening && !d->found && t < end;) {
		t = end - t > lockstep_ns ? t + lockstep_ns : end;
		sched_run_until(a, t);
		sched_run_until(b, t);
	}
	if (listening) {
		diverge_end(d, 0);
		diverge_end(d, 1);
		sched_remove_listener(a, diverge_event_a, d);
		sched_remove_listener(b, diverge_event_b, d);
	}
	/* the rest needs no comparison */
	sched_run_until(a, end);
	sched_run_until(b, end);
}

int diverge_logs(struct sched_history *a, struct sched_history *b, u64 from, u64 until,
		 struct divergence *out)
{
	struct sched_history *h[2] = { a, b };
	u64 next[2] = { history_seq_at_time(a, from), history_seq_at_time(b, from) };
	struct diverge d;

	diverge_init(&d, from, until);
	while (!d.found && !(d.ended[0] && d.ended[1])) {
		int s = d.ended[0] || (!d.ended[1] && d.q[0].n > d.q[1].n) ? 1 : 0;

		if (next[s] == history_nr_logged(h[s]))
			diverge_end(&d, s);
		else
			feed(&d, s, history_event(h[s], next[s]++));
	}
	return result(&d, out);
}
