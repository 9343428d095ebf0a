/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's circular doubly linked list (include/linux/list.h), under its
 * names: a struct list_head embedded in each member and one as the head.
 * An empty head points at itself, so a head must be INIT_LIST_HEAD()ed
 * before use; a head or member must not be copied while linked (its
 * neighbours point at the old address).
 */
#ifndef SCHED_LIST_H
#define SCHED_LIST_H

#include <stdbool.h>
#include <stddef.h>

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void __list_add(struct list_head *new, struct list_head *prev, struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}

/* new right after head: a stack's push */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* new right before head: at a list's tail, or before the member head */
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

/* Unlinked and pointing at itself, so list_empty() on it says so. */
static inline void list_del_init(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
	INIT_LIST_HEAD(entry);
}

static inline void list_move(struct list_head *list, struct list_head *head)
{
	__list_del(list->prev, list->next);
	list_add(list, head);
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline bool list_is_last(const struct list_head *list, const struct list_head *head)
{
	return list->next == head;
}

/* list's members, in order, at the front of head's (list is left empty) */
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	if (list_empty(list))
		return;
	list->next->prev = head;
	list->prev->next = head->next;
	head->next->prev = list->prev;
	head->next = list->next;
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member) \
	(list_empty(ptr) ? NULL : list_first_entry(ptr, type, member))
#define list_next_entry(pos, member) list_entry((pos)->member.next, __typeof__(*(pos)), member)
/*
 * The walks step through the links and make an entry only of a member: the
 * kernel's compare container_of(head) with pos, which is not an object of
 * pos's type (UBSan rejects it where the type is aligned more than a link).
 * __LIST_UNIQ() names each walk's cursor, so that walks nest.
 */
#define __LIST_CAT(a, b) a##b
#define __LIST_UNIQ(n) __LIST_CAT(__list_cursor_, n)

#define list_for_each(pos, head) for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_prev(pos, head) for (pos = (head)->prev; pos != (head); pos = pos->prev)
/* pos may be unlinked (or moved to another list) by the body: n is the link after it */
#define list_for_each_safe(pos, n, head) \
	for (pos = (head)->next, n = pos->next; pos != (head); pos = n, n = pos->next)

#define __list_for_each_entry(pos, head, member, c, dir) \
	for (struct list_head *c = (head)->dir;          \
	     c != (head) && ((pos) = list_entry(c, __typeof__(*(pos)), member), 1); c = c->dir)
#define list_for_each_entry(pos, head, member) \
	__list_for_each_entry(pos, head, member, __LIST_UNIQ(__COUNTER__), next)
#define list_for_each_entry_reverse(pos, head, member) \
	__list_for_each_entry(pos, head, member, __LIST_UNIQ(__COUNTER__), prev)

/* from the member after pos on */
#define __list_for_each_entry_continue(pos, head, member, c) \
	for (struct list_head *c = (pos)->member.next;       \
	     c != (head) && ((pos) = list_entry(c, __typeof__(*(pos)), member), 1); c = c->next)
#define list_for_each_entry_continue(pos, head, member) \
	__list_for_each_entry_continue(pos, head, member, __LIST_UNIQ(__COUNTER__))

#endif
