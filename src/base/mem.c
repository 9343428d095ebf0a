// SPDX-License-Identifier: GPL-2.0
/* Allocation with the program's out-of-memory policy: see mem.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

void oom_exit(const char *what, size_t size)
{
	fprintf(stderr, "schedscope: out of memory (%zu bytes for %s)\n", size, what);
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom_exit("a buffer", size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom_exit("an array", n * size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);

	if (!q)
		oom_exit("a growing array", size);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xstrndup(const char *s, size_t n)
{
	char *p;

	n = strnlen(s, n);
	p = memcpy(xmalloc(n + 1), s, n);
	p[n] = '\0';
	return p;
}

void *xgrow(void *arr, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;

	if (need < *cap)
		return arr;
	while (n <= need) {
		if (n > SIZE_MAX / 2 / size)
			oom_exit("a growing array", SIZE_MAX);
		n *= 2;
	}
	*cap = n;
	return xrealloc(arr, n * size);
}
