// SPDX-License-Identifier: GPL-2.0
/* The engine's allocator and its out-of-memory policy: see alloc.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "api/sched.h"

/* The program's policy, set once at start (a process-wide setting, not engine state). */
static void (*oom_handler)(const char *what, size_t size);

void sched_set_oom_handler(void (*fn)(const char *what, size_t size))
{
	oom_handler = fn;
}

static void __attribute__((noreturn)) out_of_memory(const char *what, size_t size)
{
	if (oom_handler)
		oom_handler(what, size);
	/* no policy set (a test, a fuzzer, a library user): say what, then stop */
	fprintf(stderr, "sched: out of memory (%zu bytes for %s)\n", size, what);
	abort();
}

void *sched_realloc(void *p, size_t size, const char *what)
{
	/* realloc(p, 0) may free p and return NULL: ask for one byte instead */
	void *q = realloc(p, size ? size : 1);

	if (!q)
		out_of_memory(what, size);
	return q;
}

void *sched_calloc(size_t n, size_t size, const char *what)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory(what, SIZE_MAX);
	return memset(sched_realloc(NULL, n * size, what), 0, n * size);
}

void *sched_calloc_aligned(size_t size, size_t align, const char *what)
{
	void *p;

	if (posix_memalign(&p, align, size ? size : 1))
		out_of_memory(what, size);
	return memset(p, 0, size);
}

char *sched_strdup(const char *s, const char *what)
{
	size_t len = strlen(s) + 1;

	return memcpy(sched_realloc(NULL, len, what), s, len);
}
