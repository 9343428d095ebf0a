// SPDX-License-Identifier: GPL-2.0
/* Checkpoints, the event log, rewind and replay: see history.h. */
#include <stdlib.h>
#include <string.h>

#include "history_impl.h"

/* Every event passes here: logged when new, compared when re-executed. */
static void history_on_event(void *ctx, const struct sched_event *ev)
{
	struct sched_history *h = ctx;

	if (ev->seq < h->nr_log) {
		if (memcmp(&h->log[ev->seq], ev, sizeof(*ev)))
			h->mismatches++;
	} else {
		if (h->nr_log == h->cap_log) {
			h->cap_log = h->cap_log ? h->cap_log * 2 : 4096;
			h->log = sched_realloc(h->log, h->cap_log * sizeof(*h->log), "the event log");
		}
		h->log[h->nr_log++] = *ev;
		for (int i = 0; i < h->nr_listeners; i++)
			h->listener[i].fn(h->listener[i].ctx, ev);
	}
	/* the predicate sees every event (it may keep state), the first hit counts */
	if (h->stop_fn && h->stop_fn(h->stop_ctx, ev) && h->stop_seq < 0)
		h->stop_seq = (s64)ev->seq;
}

static void history_checkpoint_free(struct checkpoint *c)
{
	free(c->data);
	free(c->name);
}

void history_take_checkpoint(struct sched_history *h, const char *name)
{
	struct checkpoint c = {
		.time = sched_now(h->e),
		.nr_events = sched_nr_events(h->e),
		.nr_steps = sched_nr_steps(h->e),
		.nr_cmd = h->cmd_next,
		.data = sched_realloc(NULL, h->state_size, "a checkpoint"),
		.name = name ? strdup(name) : NULL,
	};
	int i = h->nr_cp;

	sched_state_save(h->e, c.data);
	if (h->nr_cp == h->cap_cp) {
		h->cap_cp = h->cap_cp ? h->cap_cp * 2 : 64;
		h->cp = sched_realloc(h->cp, (size_t)h->cap_cp * sizeof(*h->cp), "the checkpoints");
	}
	/* kept in step order; a named one may land between automatic ones */
	while (i > 0 && h->cp[i - 1].nr_steps > c.nr_steps)
		i--;
	memmove(&h->cp[i + 1], &h->cp[i], (size_t)(h->nr_cp - i) * sizeof(*h->cp));
	h->cp[i] = c;
	h->nr_cp++;
	h->bytes += h->state_size;
}

void history_drop_checkpoint(struct sched_history *h, int i)
{
	history_checkpoint_free(&h->cp[i]);
	memmove(&h->cp[i], &h->cp[i + 1], (size_t)(h->nr_cp - i - 1) * sizeof(*h->cp));
	h->nr_cp--;
	h->bytes -= h->state_size;
}

/*
 * Over budget: drop the automatic checkpoint whose removal leaves the
 * smallest gap relative to its age, so recent history stays dense and old
 * history thins out roughly exponentially. The first one is always kept.
 */
static void thin_checkpoints(struct sched_history *h)
{
	u64 now = sched_nr_events(h->e);

	while (h->bytes > h->budget && h->nr_cp > 2) {
		int best = -1;
		double best_cost = 0;

		for (int i = 1; i < h->nr_cp - 1; i++) {
			if (h->cp[i].name)
				continue;
			double gap = (double)(h->cp[i + 1].nr_events - h->cp[i - 1].nr_events);
			double age = (double)(now - h->cp[i].nr_events) + 1;
			double cost = gap / age;
			if (best < 0 || cost < best_cost) {
				best = i;
				best_cost = cost;
			}
		}
		if (best < 0)
			return;
		history_drop_checkpoint(h, best);
	}
}

struct sched_history *history_create(struct sched_engine *e, size_t budget_bytes)
{
	struct sched_history *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->e = e;
	h->budget = budget_bytes;
	h->interval = HISTORY_DEFAULT_INTERVAL;
	h->state_size = sched_state_size(e);
	h->stop_seq = -1;
	sched_add_listener(e, history_on_event, h);
	history_take_checkpoint(h, NULL);
	history_branches_init(h);
	return h;
}

void history_destroy(struct sched_history *h)
{
	if (!h)
		return;
	sched_remove_listener(h->e, history_on_event, h);
	for (int i = 0; i < h->nr_cp; i++)
		history_checkpoint_free(&h->cp[i]);
	free(h->cp);
	free(h->log);
	free(h->cmd);
	history_branches_free(h);
	free(h);
}

struct sched_engine *history_engine(const struct sched_history *h)
{
	return h->e;
}

int history_add_listener(struct sched_history *h, sched_event_fn fn, void *ctx)
{
	if (h->nr_listeners == (int)(sizeof(h->listener) / sizeof(h->listener[0])))
		return -1;
	h->listener[h->nr_listeners].fn = fn;
	h->listener[h->nr_listeners].ctx = ctx;
	h->nr_listeners++;
	return 0;
}

/*
 * Replay: re-apply the recorded commands due at this step whose time is at
 * most `limit`, each with the clock at the time it was first applied (no
 * timer lies between the step and that time, or it would be a later step).
 */
void history_replay_commands(struct sched_history *h, u64 limit, int max_cmd)
{
	u64 steps = sched_nr_steps(h->e);
	char err[128];

	while (h->cmd_next < MIN(h->nr_cmd, max_cmd) && h->cmd[h->cmd_next].nr_steps == steps &&
	       h->cmd[h->cmd_next].time <= limit) {
		const struct logged_command *lc = &h->cmd[h->cmd_next++];

		sched_run_until(h->e, lc->time);
		sched_apply_command(h->e, &lc->cmd, err, sizeof(err));
	}
}

bool history_step(struct sched_history *h)
{
	bool more;
	u64 last = h->nr_cp ? h->cp[h->nr_cp - 1].nr_events : 0;

	/* commands given after the current step come before the next one */
	history_replay_commands(h, UINT64_MAX, INT32_MAX);
	more = sched_step(h->e);
	/* a new automatic checkpoint only on ground not yet covered */
	if (sched_nr_events(h->e) >= last + h->interval &&
	    sched_nr_steps(h->e) > h->cp[h->nr_cp - 1].nr_steps) {
		history_take_checkpoint(h, NULL);
		thin_checkpoints(h);
	}
	return more;
}

void history_run_until(struct sched_history *h, u64 t)
{
	while (!sched_finished(h->e) && sched_next_time(h->e) <= t)
		history_step(h);
	history_replay_commands(h, t, INT32_MAX);
	/* let the clock read t, as sched_run_until does */
	sched_run_until(h->e, t);
}

s64 history_run_until_event(struct sched_history *h, u64 until,
			    bool (*fn)(void *ctx, const struct sched_event *ev), void *ctx)
{
	s64 seq;

	h->stop_fn = fn;
	h->stop_ctx = ctx;
	h->stop_seq = -1;
	while (h->stop_seq < 0 && !sched_finished(h->e) && sched_next_time(h->e) <= until)
		history_step(h);
	seq = h->stop_seq;
	h->stop_fn = NULL;
	return seq;
}

/* Restore the newest checkpoint satisfying `before`. */
static void restore_before(struct sched_history *h, u64 time, u64 seq, bool by_time)
{
	int i = h->nr_cp - 1;

	while (i > 0 && (by_time ? h->cp[i].time > time : h->cp[i].nr_events > seq))
		i--;
	/* going forward from here is cheaper than restoring an older state */
	if (by_time ? (sched_now(h->e) <= time && sched_now(h->e) >= h->cp[i].time)
		    : (sched_nr_events(h->e) <= seq && sched_nr_events(h->e) >= h->cp[i].nr_events))
		return;
	sched_state_restore(h->e, h->cp[i].data);
	h->cmd_next = h->cp[i].nr_cmd;
}

void history_goto_time(struct sched_history *h, u64 t)
{
	restore_before(h, t, 0, true);
	history_run_until(h, t);
}

void history_goto_event(struct sched_history *h, u64 seq)
{
	restore_before(h, 0, seq, false);
	while (sched_nr_events(h->e) <= seq && history_step(h))
		;
}

bool history_checkpoint_beyond(const struct sched_history *h, int i)
{
	return h->cp[i].nr_steps > sched_nr_steps(h->e) || h->cp[i].nr_cmd > h->cmd_next ||
	       h->cp[i].time > sched_now(h->e);
}

/* A change behind the newest point reached: the old future becomes a branch. */
static void truncate_future(struct sched_history *h)
{
	history_keep_future(h);
	while (h->nr_cp > 1 && history_checkpoint_beyond(h, h->nr_cp - 1))
		history_drop_checkpoint(h, h->nr_cp - 1);
	/* the commands not applied in the current state are the old future's */
	h->nr_cmd = h->cmd_next;
	if (h->nr_log > sched_nr_events(h->e))
		h->nr_log = sched_nr_events(h->e);
}

int history_apply_command(struct sched_history *h, const struct sched_command *c, char *err,
			  size_t errlen)
{
	struct sched_command probe = *c;

	/* a command that cannot apply changes nothing, the future included */
	if (sched_check_command(h->e, c, err, errlen))
		return -1;
	truncate_future(h);
	if (sched_apply_command(h->e, &probe, err, errlen))
		return -1;
	if (h->nr_cmd == h->cap_cmd) {
		h->cap_cmd = h->cap_cmd ? h->cap_cmd * 2 : 16;
		h->cmd = sched_realloc(h->cmd, (size_t)h->cap_cmd * sizeof(*h->cmd), "the commands");
	}
	h->cmd[h->nr_cmd].nr_steps = sched_nr_steps(h->e);
	h->cmd[h->nr_cmd].time = sched_now(h->e);
	h->cmd[h->nr_cmd].cmd = *c;
	h->cmd_next = ++h->nr_cmd;
	return 0;
}

int history_checkpoint(struct sched_history *h, const char *name)
{
	for (int i = 0; i < h->nr_cp; i++)
		if (h->cp[i].name && !strcmp(h->cp[i].name, name))
			history_drop_checkpoint(h, i--);
	history_take_checkpoint(h, name);
	thin_checkpoints(h);
	return 0;
}

s64 history_find_checkpoint(const struct sched_history *h, const char *name)
{
	for (int i = 0; i < h->nr_cp; i++)
		if (h->cp[i].name && !strcmp(h->cp[i].name, name))
			return (s64)h->cp[i].time;
	return -1;
}

int history_nr_checkpoints(const struct sched_history *h)
{
	return h->nr_cp;
}

void history_checkpoint_info(const struct sched_history *h, int i, struct history_checkpoint_info *out)
{
	out->time = h->cp[i].time;
	out->nr_events = h->cp[i].nr_events;
	out->nr_steps = h->cp[i].nr_steps;
	out->bytes = h->state_size;
	out->name = h->cp[i].name;
}

size_t history_bytes(const struct sched_history *h)
{
	return h->bytes;
}

u64 history_nr_logged(const struct sched_history *h)
{
	return h->nr_log;
}

const struct sched_event *history_event(const struct sched_history *h, u64 seq)
{
	return seq < h->nr_log ? &h->log[seq] : NULL;
}

u64 history_mismatches(const struct sched_history *h)
{
	return h->mismatches;
}
