/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory: the program's one out-of-memory policy (print what could not be
 * had and exit 2, as for any input the program cannot handle) and the one
 * way arrays grow.
 */
#ifndef SRC_BASE_MEM_H
#define SRC_BASE_MEM_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* The first n bytes of s (fewer at a NUL), terminated. */
char *xstrndup(const char *s, size_t n);
/* Prints "schedscope: out of memory (SIZE bytes for WHAT)" and exits 2. */
void __attribute__((noreturn)) oom_exit(const char *what, size_t size);
/* Also the engine's policy (sched_set_oom_handler()). */

/*
 * Make room for index `need` in an array of `*cap` elements of `size` bytes:
 * doubles the capacity (at least `first`), so appends cost O(1) on average.
 */
void *xgrow(void *arr, size_t *cap, size_t need, size_t size, size_t first);
/* XGROW(arr, cap, i): arr[i] may be written afterwards. */
#define XGROW(arr, cap, i) ((arr) = xgrow((arr), &(cap), (size_t)(i), sizeof(*(arr)), 16))

#endif
