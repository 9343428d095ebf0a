// SPDX-License-Identifier: GPL-2.0
/* Checkpoints, the event log, rewind and replay: see history.h. */
#include <stdlib.h>
#include <string.h>

#include "history_impl.h"

#define CHUNK_SHIFT 14
#define CHUNK_MASK (HISTORY_CHUNK_EVENTS - 1)
#define CHUNK_BYTES ((size_t)HISTORY_CHUNK_EVENTS * (sizeof(struct sched_event) + sizeof(u64)))
_Static_assert(HISTORY_CHUNK_EVENTS == 1u << CHUNK_SHIFT, "a chunk is a power of two");

static size_t history_total(const struct sched_history *h)
{
	return h->cp_bytes + h->log_bytes + h->state_size;
}

/* Bytes were just taken (within the budget, make_room() saw to it): the high-water mark. */
static void note_peak(struct sched_history *h)
{
	h->peak = MAX(h->peak, history_total(h));
}

static void chunk_free(struct sched_history *h, struct log_chunk *c)
{
	if (!c->ev)
		return;
	free(c->ev);
	free(c->step);
	c->ev = NULL;
	c->step = NULL;
	h->log_bytes -= CHUNK_BYTES;
}

static bool pinned(const struct sched_history *h, u64 c)
{
	for (int i = 0; i < HISTORY_PINNED_CHUNKS; i++)
		if (h->pin[i] == c)
			return true;
	return false;
}

/* Give back the least recently used chunk; never the one being filled nor a pinned one. */
static bool evict_chunk(struct sched_history *h)
{
	struct log_chunk *best = NULL;

	for (u64 c = 0; c + 1 < h->nr_chunk; c++) {
		struct log_chunk *k = &h->chunk[c];

		if (k->ev && k != h->regen && !pinned(h, c) && (!best || k->used < best->used))
			best = k;
	}
	if (!best)
		return false;
	chunk_free(h, best);
	return true;
}

static void thin_checkpoints(struct sched_history *h, size_t limit);

/*
 * Room for `need` more bytes: checkpoints keep at most half the budget (the
 * old ones thin out first), events the rest (the least recently used chunk
 * is given back first); the checkpoints thin further only when no event is
 * left to give back.
 */
static void make_room(struct sched_history *h, size_t need)
{
	thin_checkpoints(h, h->budget / 2);
	while (history_total(h) + need > h->budget && evict_chunk(h))
		;
	if (history_total(h) + need > h->budget)
		thin_checkpoints(h, h->budget - MIN(h->budget, need + h->log_bytes + h->state_size));
}

static void chunk_alloc(struct sched_history *h, struct log_chunk *c)
{
	make_room(h, CHUNK_BYTES);
	c->ev = sched_realloc(NULL, (size_t)HISTORY_CHUNK_EVENTS * sizeof(*c->ev), "the event log");
	c->step = sched_realloc(NULL, (size_t)HISTORY_CHUNK_EVENTS * sizeof(*c->step), "the event log");
	h->log_bytes += CHUNK_BYTES;
	note_peak(h);
}

static void log_append(struct sched_history *h, const struct sched_event *ev)
{
	u64 c = h->nr_log >> CHUNK_SHIFT;

	if (c == h->nr_chunk) {
		if (h->nr_chunk == h->cap_chunk) {
			h->cap_chunk = h->cap_chunk ? h->cap_chunk * 2 : 64;
			h->chunk = sched_realloc(h->chunk, h->cap_chunk * sizeof(*h->chunk), "the event log");
		}
		h->chunk[h->nr_chunk++] = (struct log_chunk){ .first_time = ev->time };
		chunk_alloc(h, &h->chunk[c]);
	}
	h->chunk[c].used = ++h->clock;
	h->chunk[c].ev[h->nr_log & CHUNK_MASK] = *ev;
	h->chunk[c].step[h->nr_log & CHUNK_MASK] = sched_nr_steps(h->e);
	h->nr_log++;
}

/* Every event passes here: logged when new, compared when re-executed. */
static void history_on_event(void *ctx, const struct sched_event *ev)
{
	struct sched_history *h = ctx;

	if (h->regen) {
		u64 i = ev->seq - h->regen_start;

		if (ev->seq >= h->regen_start && i < HISTORY_CHUNK_EVENTS) {
			h->regen->ev[i] = *ev;
			h->regen->step[i] = sched_nr_steps(h->e);
		}
		return;
	}
	if (ev->seq < h->nr_log) {
		const struct log_chunk *c = &h->chunk[ev->seq >> CHUNK_SHIFT];

		/* a chunk given back has nothing to compare with */
		if (c->ev && memcmp(&c->ev[ev->seq & CHUNK_MASK], ev, sizeof(*ev)))
			h->mismatches++;
	} else {
		log_append(h, ev);
		h->in_listener = true;
		for (int i = 0; i < h->nr_listeners; i++)
			h->listener[i].fn(h->listener[i].ctx, ev);
		h->in_listener = false;
	}
	/* the predicate sees every event (it may keep state), the first hit counts */
	h->in_listener = true;
	if (h->stop_fn && h->stop_fn(h->stop_ctx, ev) && h->stop_seq < 0)
		h->stop_seq = (s64)ev->seq;
	h->in_listener = false;
}

static void history_checkpoint_free(struct checkpoint *c)
{
	free(c->data);
	free(c->name);
}

void history_take_checkpoint(struct sched_history *h, const char *name)
{
	/* the checkpoints' half of the budget holds this one too */
	thin_checkpoints(h, h->budget / 2 - MIN(h->budget / 2, h->state_size));
	make_room(h, h->state_size);

	struct checkpoint c = {
		.time = sched_now(h->e),
		.nr_events = sched_nr_events(h->e),
		.nr_steps = sched_nr_steps(h->e),
		.nr_cmd = h->cmd_next,
		.data = sched_realloc(NULL, h->state_size, "a checkpoint"),
		.name = name ? sched_strdup(name, "a checkpoint name") : NULL,
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
	h->cp_bytes += h->state_size;
	note_peak(h);
}

void history_drop_checkpoint(struct sched_history *h, int i)
{
	history_checkpoint_free(&h->cp[i]);
	memmove(&h->cp[i], &h->cp[i + 1], (size_t)(h->nr_cp - i - 1) * sizeof(*h->cp));
	h->nr_cp--;
	h->cp_bytes -= h->state_size;
}

/*
 * Checkpoints over `limit`: drop the automatic checkpoint whose removal
 * leaves the smallest gap relative to its age, so recent history stays
 * dense and old history thins out roughly exponentially. The first and the
 * newest are always kept.
 */
static void thin_checkpoints(struct sched_history *h, size_t limit)
{
	u64 now = sched_nr_events(h->e);

	while (h->cp_bytes > limit && h->nr_cp > 2) {
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

size_t history_min_budget(const struct sched_engine *e)
{
	/* the first and the newest checkpoint, the scratch state, the pinned chunks and the one being filled */
	return 3 * sched_state_size(e) + (HISTORY_PINNED_CHUNKS + 2) * CHUNK_BYTES;
}

struct sched_history *history_create(struct sched_engine *e, size_t budget_bytes)
{
	struct sched_history *h = sched_calloc(1, sizeof(*h), "the history");

	h->e = e;
	h->budget = MAX(budget_bytes, history_min_budget(e));
	h->interval = HISTORY_DEFAULT_INTERVAL;
	h->state_size = sched_state_size(e);
	h->stop_seq = -1;
	h->scratch = sched_realloc(NULL, h->state_size, "the history");
	for (int i = 0; i < HISTORY_PINNED_CHUNKS; i++)
		h->pin[i] = UINT64_MAX;
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
	for (u64 c = 0; c < h->nr_chunk; c++)
		chunk_free(h, &h->chunk[c]);
	free(h->chunk);
	free(h->scratch);
	free(h->cmd);
	history_branches_free(h);
	free(h);
}

struct sched_engine *history_engine(const struct sched_history *h)
{
	return h->e;
}

void history_set_interval(struct sched_history *h, u64 events)
{
	h->interval = MAX(events, 1);
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
	    sched_nr_steps(h->e) > h->cp[h->nr_cp - 1].nr_steps)
		history_take_checkpoint(h, NULL);
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

/*
 * Replay chunk c's events from the newest checkpoint before it, then put
 * the engine back as it was. Called from outside the engine only: a
 * listener reading a given-back event mid-step is a bug.
 */
static void regenerate(struct sched_history *h, u64 c)
{
	struct log_chunk *k = &h->chunk[c];
	u64 start = c << CHUNK_SHIFT, end = MIN(start + HISTORY_CHUNK_EVENTS, h->nr_log);
	int saved_cmd = h->cmd_next, i = h->nr_cp - 1;

	if (h->in_listener)
		abort();
	chunk_alloc(h, k);
	h->regenerated++;
	sched_state_save(h->e, h->scratch);
	while (i > 0 && h->cp[i].nr_events > start)
		i--;
	sched_state_restore(h->e, h->cp[i].data);
	h->cmd_next = h->cp[i].nr_cmd;
	h->regen = k;
	h->regen_start = start;
	while (sched_nr_events(h->e) < end) {
		u64 before = sched_nr_events(h->e);

		history_replay_commands(h, UINT64_MAX, INT32_MAX);
		if (sched_nr_events(h->e) < end)
			sched_step(h->e);
		/* the log says there is more: a replay that stops short is not deterministic */
		if (sched_nr_events(h->e) == before && sched_finished(h->e))
			abort();
	}
	h->regen = NULL;
	sched_state_restore(h->e, h->scratch);
	h->cmd_next = saved_cmd;
}

/*
 * Chunk c resident, and the newest of the pins (oldest first): a chunk read
 * again is pinned anew, else fewer than HISTORY_PINNED_CHUNKS other reads
 * could unpin it.
 */
static struct log_chunk *chunk_get(struct sched_history *h, u64 c)
{
	int i = 0;

	while (i < HISTORY_PINNED_CHUNKS && h->pin[i] != c)
		i++;
	if (i == HISTORY_PINNED_CHUNKS)
		i = 0;
	memmove(&h->pin[i], &h->pin[i + 1], (size_t)(HISTORY_PINNED_CHUNKS - 1 - i) * sizeof(h->pin[0]));
	h->pin[HISTORY_PINNED_CHUNKS - 1] = c;
	if (!h->chunk[c].ev)
		regenerate(h, c);
	h->chunk[c].used = ++h->clock;
	return &h->chunk[c];
}

void history_truncate_log(struct sched_history *h, u64 n)
{
	if (h->nr_log <= n)
		return;
	h->nr_log = n;
	while (h->nr_chunk > (n + CHUNK_MASK) >> CHUNK_SHIFT)
		chunk_free(h, &h->chunk[--h->nr_chunk]);
	for (int i = 0; i < HISTORY_PINNED_CHUNKS; i++)
		if (h->pin[i] != UINT64_MAX && h->pin[i] >= h->nr_chunk)
			h->pin[i] = UINT64_MAX;
	/* the new last chunk is filled further: it must hold what comes before */
	if (h->nr_chunk && !h->chunk[h->nr_chunk - 1].ev)
		chunk_get(h, h->nr_chunk - 1);
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
	history_truncate_log(h, sched_nr_events(h->e));
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
	/* named checkpoints are never thinned: one that does not fit is refused */
	make_room(h, h->state_size);
	if (history_total(h) + h->state_size > h->budget)
		return -1;
	history_take_checkpoint(h, name);
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
	return history_total(h);
}

void history_usage(const struct sched_history *h, struct history_usage *out)
{
	u64 resident = 0;

	for (u64 c = 0; c < h->nr_chunk; c++)
		if (h->chunk[c].ev)
			resident += MIN(HISTORY_CHUNK_EVENTS, h->nr_log - (c << CHUNK_SHIFT));
	*out = (struct history_usage){
		.budget = h->budget,
		.checkpoint_bytes = h->cp_bytes,
		.log_bytes = h->log_bytes,
		.total = history_total(h),
		.peak = MAX(h->peak, history_total(h)),
		.resident_events = resident,
		.regenerated_chunks = h->regenerated,
	};
}

u64 history_nr_logged(const struct sched_history *h)
{
	return h->nr_log;
}

const struct sched_event *history_event(struct sched_history *h, u64 seq)
{
	if (seq >= h->nr_log)
		return NULL;
	return &chunk_get(h, seq >> CHUNK_SHIFT)->ev[seq & CHUNK_MASK];
}

u64 history_event_step(struct sched_history *h, u64 seq)
{
	if (seq >= h->nr_log)
		return 0;
	return chunk_get(h, seq >> CHUNK_SHIFT)->step[seq & CHUNK_MASK];
}

u64 history_seq_at_time(struct sched_history *h, u64 t)
{
	u64 lo = 0, hi = h->nr_chunk, c;
	const struct log_chunk *k;

	/* the last chunk whose first event is before t holds the answer, or it is the next chunk's first */
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (h->chunk[mid].first_time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	c = lo - 1;
	k = chunk_get(h, c);
	lo = c << CHUNK_SHIFT;
	hi = MIN(lo + HISTORY_CHUNK_EVENTS, h->nr_log);
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (k->ev[mid & CHUNK_MASK].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

u64 history_mismatches(const struct sched_history *h)
{
	return h->mismatches;
}
