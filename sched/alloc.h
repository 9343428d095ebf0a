/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's one allocator. The engine may not include src/, so the
 * program hands it its out-of-memory policy (sched_set_oom_handler());
 * every allocation in sched/ goes through here and none reports failure.
 */
#ifndef SCHED_ALLOC_H
#define SCHED_ALLOC_H

#include <stddef.h>

/* realloc(), or the out-of-memory policy: never NULL. */
void *sched_realloc(void *p, size_t size, const char *what);
/* n zeroed elements of size bytes, through sched_realloc(). */
void *sched_calloc(size_t n, size_t size, const char *what);
/* size zeroed bytes at a multiple of align (a power of two); free() frees them. */
void *sched_calloc_aligned(size_t size, size_t align, const char *what);
/* A copy of s, through sched_realloc(). */
char *sched_strdup(const char *s, const char *what);

#endif
