// SPDX-License-Identifier: GPL-2.0
/* The migrations and herds of the log, in order: see mig_index.h. */
#include <stdlib.h>

#include "src/base/mem.h"
#include "mig_index.h"

void mig_index_free(struct mig_index *x)
{
	free(x->e);
	*x = (struct mig_index){ 0 };
}

/*
 * A branch emits the log again from an earlier point: what was kept from
 * there on is gone, and so are the marks its herds left on older lines.
 */
static void forget_from(struct mig_index *x, u64 seq)
{
	while (x->nr && x->e[x->nr - 1].seq >= seq)
		x->nr--;
	for (size_t i = 0; i < x->nr; i++)
		if (x->e[i].herd != MIG_NO_HERD && x->e[i].herd >= seq)
			x->e[i].herd = MIG_NO_HERD;
}

void mig_index_event(void *ctx, const struct sched_event *ev)
{
	struct mig_index *x = ctx;

	if (x->nr && x->e[x->nr - 1].seq >= ev->seq)
		forget_from(x, ev->seq);
	if (ev->type != EV_SCHED_MIGRATE_TASK && ev->type != EV_HERD)
		return;
	/* a herd names the migrations since its first: they come right before it */
	if (ev->type == EV_HERD)
		for (size_t i = x->nr; i-- > 0 && x->e[i].seq >= ev->herd.first_seq;)
			if (x->e[i].herd == MIG_NO_HERD)
				x->e[i].herd = ev->seq;
	XGROW(x->e, x->cap, x->nr);
	x->e[x->nr++] = (struct mig_entry){ ev->seq, ev->type == EV_HERD ? ev->seq : MIG_NO_HERD };
}

size_t mig_index_before(const struct mig_index *x, u64 seq)
{
	size_t lo = 0, hi = x->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->e[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
