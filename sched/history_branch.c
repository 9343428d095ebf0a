// SPDX-License-Identifier: GPL-2.0
/*
 * Branches of the history (see history.h): a change behind the newest point
 * reached keeps the old future as a branch, which is its commands and its
 * named checkpoints; switching to it restores the newest checkpoint both
 * branches share and replays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_impl.h"

struct point {
	u64 nr_steps, time;
};

static bool point_before(struct point a, struct point b)
{
	return a.nr_steps < b.nr_steps || (a.nr_steps == b.nr_steps && a.time < b.time);
}

static bool same_command(const struct logged_command *a, const struct logged_command *b)
{
	return a->nr_steps == b->nr_steps && a->time == b->time && !memcmp(&a->cmd, &b->cmd, sizeof(a->cmd));
}

/*
 * Where two lists of commands part: *k commands in common, then the first
 * point where either applies one the other does not. False if they are the same.
 */
static bool fork_point(const struct logged_command *a, int na, const struct logged_command *b, int nb, int *k,
		       struct point *p)
{
	int i = 0;

	while (i < na && i < nb && same_command(&a[i], &b[i]))
		i++;
	*k = i;
	if (i == na && i == nb)
		return false;
	struct point pa = { UINT64_MAX, UINT64_MAX }, pb = pa;
	if (i < na)
		pa = (struct point){ a[i].nr_steps, a[i].time };
	if (i < nb)
		pb = (struct point){ b[i].nr_steps, b[i].time };
	*p = point_before(pb, pa) ? pb : pa;
	return true;
}

static const struct logged_command *branch_commands(const struct sched_history *h, int i, int *n)
{
	if (i == h->cur) {
		*n = h->nr_cmd;
		return h->cmd;
	}
	*n = h->br[i].nr_cmd;
	return h->br[i].cmd;
}

static struct logged_command *copy_commands(const struct logged_command *c, int n)
{
	if (!n)
		return NULL;
	struct logged_command *copy = sched_realloc(NULL, (size_t)n * sizeof(*c), "a branch");
	memcpy(copy, c, (size_t)n * sizeof(*c));
	return copy;
}

static void keep_point(struct branch *b, const struct checkpoint *c)
{
	b->cp = sched_realloc(b->cp, (size_t)(b->nr_cp + 1) * sizeof(*b->cp), "a branch");
	b->cp[b->nr_cp++] = (struct branch_point){
		.name = sched_strdup(c->name, "a checkpoint name"),
		.nr_steps = c->nr_steps,
		.time = c->time,
		.nr_cmd = c->nr_cmd,
	};
}

static struct branch *new_branch(struct sched_history *h, const char *name)
{
	if (h->nr_br == h->cap_br) {
		h->cap_br = h->cap_br ? 2 * h->cap_br : 4;
		h->br = sched_realloc(h->br, (size_t)h->cap_br * sizeof(*h->br), "the branches");
	}
	struct branch *b = &h->br[h->nr_br++];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	return b;
}

void history_branches_init(struct sched_history *h)
{
	new_branch(h, "main");
	h->cur = 0;
}

static void free_points(struct branch *b)
{
	for (int j = 0; j < b->nr_cp; j++)
		free(b->cp[j].name);
	free(b->cp);
	b->cp = NULL;
	b->nr_cp = 0;
}

void history_branches_free(struct sched_history *h)
{
	for (int i = 0; i < h->nr_br; i++) {
		free(h->br[i].cmd);
		free_points(&h->br[i]);
	}
	free(h->br);
}

void history_keep_future(struct sched_history *h)
{
	bool future = h->nr_log > sched_nr_events(h->e) || h->nr_cmd > h->cmd_next;

	for (int i = 0; i < h->nr_cp && !future; i++)
		future = history_checkpoint_beyond(h, i);
	if (!future)
		return;
	char name[HISTORY_BRANCH_NAME];
	snprintf(name, sizeof(name), "b%d", ++h->branches_made);
	struct branch *nb = new_branch(h, name), *old = &h->br[h->cur];

	nb->fork_time = sched_now(h->e);
	old->cmd = copy_commands(h->cmd, h->nr_cmd);
	old->nr_cmd = h->nr_cmd;
	for (int i = 0; i < h->nr_cp; i++)
		if (h->cp[i].name && history_checkpoint_beyond(h, i))
			keep_point(old, &h->cp[i]);
	h->cur = h->nr_br - 1;
}

int history_nr_branches(const struct sched_history *h)
{
	return h->nr_br;
}

int history_current_branch(const struct sched_history *h)
{
	return h->cur;
}

void history_branch_info(const struct sched_history *h, int i, struct history_branch_info *out)
{
	const struct branch *b = &h->br[i];

	out->name = b->name;
	out->fork_time = b->fork_time;
	branch_commands(h, i, &out->nr_commands);
	out->nr_checkpoints = b->nr_cp;
	if (i == h->cur)
		for (int j = 0; j < h->nr_cp; j++)
			out->nr_checkpoints += h->cp[j].name != NULL;
}

int history_find_branch(const struct sched_history *h, const char *name)
{
	for (int i = 0; i < h->nr_br; i++)
		if (!strcmp(h->br[i].name, name))
			return i;
	return -1;
}

u64 history_branch_fork(const struct sched_history *h, int i)
{
	const struct logged_command *a, *b;
	int na, nb, k;
	struct point p;

	a = branch_commands(h, h->cur, &na);
	b = branch_commands(h, i, &nb);
	return fork_point(a, na, b, nb, &k, &p) ? p.time : UINT64_MAX;
}

int history_checkpoint_branch(const struct sched_history *h, const char *name)
{
	if (history_find_checkpoint(h, name) >= 0)
		return h->cur;
	for (int i = 0; i < h->nr_br; i++)
		for (int j = 0; j < h->br[i].nr_cp; j++)
			if (!strcmp(h->br[i].cp[j].name, name))
				return i;
	return -1;
}

/* A checkpoint both branches share: before their k-th command and the fork point p. */
static bool shared(const struct checkpoint *c, int k, struct point p)
{
	return c->nr_cmd <= k && !point_before(p, (struct point){ c->nr_steps, c->time });
}

static int cmp_points(const void *x, const void *y)
{
	const struct branch_point *a = x, *b = y;

	if (a->nr_steps != b->nr_steps)
		return a->nr_steps < b->nr_steps ? -1 : 1;
	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->nr_cmd - b->nr_cmd;
}

/* Forward to where a named checkpoint was taken, as the run that took it got there. */
static void run_to_point(struct sched_history *h, const struct branch_point *bp)
{
	while (sched_nr_steps(h->e) < bp->nr_steps && !sched_finished(h->e))
		history_step(h);
	history_replay_commands(h, bp->time, bp->nr_cmd);
	sched_run_until(h->e, bp->time);
}

void history_switch_branch(struct sched_history *h, int i, u64 t)
{
	if (i != h->cur) {
		struct branch *from = &h->br[h->cur], *to = &h->br[i];
		struct point p = { UINT64_MAX, UINT64_MAX };
		int k = h->nr_cmd;

		fork_point(h->cmd, h->nr_cmd, to->cmd, to->nr_cmd, &k, &p);
		/* the branch left keeps its commands and named checkpoints past the fork */
		free(from->cmd);
		from->cmd = copy_commands(h->cmd, h->nr_cmd);
		from->nr_cmd = h->nr_cmd;
		for (int j = h->nr_cp - 1; j > 0; j--) {
			if (shared(&h->cp[j], k, p))
				continue;
			if (h->cp[j].name)
				keep_point(from, &h->cp[j]);
			history_drop_checkpoint(h, j);
		}
		const struct checkpoint *base = &h->cp[h->nr_cp - 1];
		sched_state_restore(h->e, base->data);
		h->cmd_next = base->nr_cmd;
		history_truncate_log(h, base->nr_events);
		free(h->cmd);
		h->cmd = to->cmd;
		h->nr_cmd = h->cap_cmd = to->nr_cmd;
		to->cmd = NULL;
		to->nr_cmd = 0;
		h->cur = i;
		/* its named checkpoints again, in the order they come */
		if (to->nr_cp)
			qsort(to->cp, (size_t)to->nr_cp, sizeof(*to->cp), cmp_points);
		for (int j = 0; j < to->nr_cp; j++) {
			run_to_point(h, &to->cp[j]);
			if (sched_nr_steps(h->e) == to->cp[j].nr_steps)
				history_take_checkpoint(h, to->cp[j].name);
		}
		free_points(to);
	}
	history_goto_time(h, t);
}

void history_copy_branch(struct sched_history *dst, const struct sched_history *src, int i)
{
	int n;
	const struct logged_command *c = branch_commands(src, i, &n);

	free(dst->cmd);
	dst->cmd = copy_commands(c, n);
	dst->nr_cmd = dst->cap_cmd = n;
	dst->cmd_next = 0;
	snprintf(dst->br[0].name, sizeof(dst->br[0].name), "%s", src->br[i].name);
}
