// SPDX-License-Identifier: GPL-2.0
/* Interned texts for events (struct sched_texts in internal.h). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static u32 text_hash(const char *s)
{
	u32 h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

static void texts_grow(struct sched_texts *t)
{
	u32 nr_slots = t->nr_slots ? t->nr_slots * 2 : 64;
	u32 *slot = sched_realloc(NULL, nr_slots * sizeof(*slot), "event texts");

	memset(slot, 0, nr_slots * sizeof(*slot));
	for (u32 id = 1; id < t->nr; id++) {
		u32 i = text_hash(t->text[id]) & (nr_slots - 1);

		while (slot[i])
			i = (i + 1) & (nr_slots - 1);
		slot[i] = id;
	}
	free(t->slot);
	t->slot = slot;
	t->nr_slots = nr_slots;
}

u32 sched_text_intern(struct sched_engine *e, const char *s)
{
	struct sched_texts *t = &e->texts;
	u32 i;

	if (!t->nr) {
		t->cap = 16;
		t->text = sched_realloc(NULL, t->cap * sizeof(*t->text), "event texts");
		t->text[t->nr++] = NULL; /* id 0: none */
	}
	if ((t->nr + 1) * 2 > t->nr_slots)
		texts_grow(t);
	for (i = text_hash(s) & (t->nr_slots - 1); t->slot[i]; i = (i + 1) & (t->nr_slots - 1))
		if (!strcmp(t->text[t->slot[i]], s))
			return t->slot[i];
	if (t->nr == t->cap) {
		t->cap *= 2;
		t->text = sched_realloc(t->text, t->cap * sizeof(*t->text), "event texts");
	}
	t->text[t->nr] = sched_strdup(s, "event texts");
	t->slot[i] = t->nr;
	return t->nr++;
}

const char *sched_text(const struct sched_engine *e, u32 id)
{
	return id && id < e->texts.nr ? e->texts.text[id] : "";
}

void sched_texts_free(struct sched_texts *t)
{
	for (u32 id = 1; id < t->nr; id++)
		free(t->text[id]);
	free(t->text);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
