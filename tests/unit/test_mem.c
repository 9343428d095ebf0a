// SPDX-License-Identifier: GPL-2.0
/*
 * The one out-of-memory policy (src/base/mem.c, and the engine's
 * sched/alloc.c, which the program hands the same policy) and the one way
 * arrays grow.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched/alloc.h"
#include "sched/api/sched.h"
#include "src/base/mem.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* A request no allocator can meet must come back as NULL for the policy to see it, ASan's too. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static void test_xgrow_doubles(void **state)
{
	int *a = NULL, *before;
	size_t cap = 0;

	(void)state;
	XGROW(a, cap, 0);
	assert_int_equal(cap, 16);
	for (int i = 0; i < 16; i++)
		a[i] = i;
	before = a;
	XGROW(a, cap, 15);
	assert_ptr_equal(a, before); /* room already: no realloc */
	XGROW(a, cap, 16);
	assert_int_equal(cap, 32);
	XGROW(a, cap, 100);
	assert_int_equal(cap, 128);
	for (int i = 0; i < 16; i++)
		assert_int_equal(a[i], i);
	a[127] = 1;
	free(a);
}

static void test_xstrndup(void **state)
{
	char *s;

	(void)state;
	s = xstrndup("schedule", 5);
	assert_string_equal(s, "sched");
	free(s);
	s = xstrndup("rq", 10); /* stops at the NUL */
	assert_string_equal(s, "rq");
	free(s);
}

#define CHILD_OUT 1024

/* Run fn in a child; its exit status (or 128 + signal) and the last line it wrote to stderr
 * (ASan warns of a failed allocation before it). */
static int in_child(void (*fn)(void), char line[static CHILD_OUT])
{
	char *last;
	int fd[2], status;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(fd[1], 2);
		fn();
		_exit(0);
	}
	close(fd[1]);
	while (len < CHILD_OUT - 1 && (got = read(fd[0], line + len, CHILD_OUT - 1 - len)) > 0)
		len += (size_t)got;
	line[len] = 0;
	close(fd[0]);
	last = line;
	for (char *p = line; *p; p++)
		if (*p == '\n' && p[1])
			last = p + 1;
	memmove(line, last, strlen(last) + 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void grow_past_size_max(void)
{
	size_t cap = 0;

	xgrow(NULL, &cap, SIZE_MAX / 2, 8, 16);
}

static void xmalloc_too_much(void)
{
	xmalloc(SIZE_MAX - 4096);
}

static void test_program_policy(void **state)
{
	char line[CHILD_OUT], want[128];

	(void)state;
	assert_int_equal(in_child(grow_past_size_max, line), 2);
	snprintf(want, sizeof(want), "schedscope: out of memory (%zu bytes for a growing array)\n", SIZE_MAX);
	assert_string_equal(line, want);
	assert_int_equal(in_child(xmalloc_too_much, line), 2);
	snprintf(want, sizeof(want), "schedscope: out of memory (%zu bytes for a buffer)\n", SIZE_MAX - 4096);
	assert_string_equal(line, want);
}

static void engine_alloc_too_much(void)
{
	sched_realloc(NULL, SIZE_MAX - 4096, "a checkpoint");
}

static void engine_calloc_overflow(void)
{
	sched_calloc(SIZE_MAX / 2, 4, "the sched domains");
}

static void test_engine_policy(void **state)
{
	char line[CHILD_OUT], want[128];

	(void)state;
	/* the program's: what main() sets */
	sched_set_oom_handler(oom_exit);
	assert_int_equal(in_child(engine_alloc_too_much, line), 2);
	snprintf(want, sizeof(want), "schedscope: out of memory (%zu bytes for a checkpoint)\n",
		 SIZE_MAX - 4096);
	assert_string_equal(line, want);
	/* n * size past SIZE_MAX is refused before it wraps into a small allocation */
	assert_int_equal(in_child(engine_calloc_overflow, line), 2);
	snprintf(want, sizeof(want), "schedscope: out of memory (%zu bytes for the sched domains)\n",
		 SIZE_MAX);
	assert_string_equal(line, want);
	/* none set: say what, then abort */
	sched_set_oom_handler(NULL);
	assert_int_equal(in_child(engine_alloc_too_much, line), 128 + SIGABRT);
	snprintf(want, sizeof(want), "sched: out of memory (%zu bytes for a checkpoint)\n", SIZE_MAX - 4096);
	assert_string_equal(line, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xgrow_doubles),
		cmocka_unit_test(test_xstrndup),
		cmocka_unit_test(test_program_policy),
		cmocka_unit_test(test_engine_policy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
