// SPDX-License-Identifier: GPL-2.0
/* Tilde expansion of the console's paths (src/base/path.c). */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/base/path.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static char out[256], err[256];

static const char *expand(const char *in)
{
	err[0] = 0;
	return path_expand(in, out, sizeof(out), err, sizeof(err)) ? NULL : out;
}

static void test_home(void **state)
{
	(void)state;
	setenv("HOME", "/home/teacher", 1);
	assert_string_equal(expand("~"), "/home/teacher");
	assert_string_equal(expand("~/x.json"), "/home/teacher/x.json");
	assert_string_equal(expand("~/a/b.trace"), "/home/teacher/a/b.trace");
}

static void test_untouched(void **state)
{
	(void)state;
	setenv("HOME", "/home/teacher", 1);
	assert_string_equal(expand("x.json"), "x.json");
	assert_string_equal(expand("/tmp/~/x"), "/tmp/~/x");
	assert_string_equal(expand("./~"), "./~");
	assert_string_equal(expand(""), "");
}

static void test_user(void **state)
{
	struct passwd *pw = getpwuid(0);
	char want[512];

	(void)state;
	assert_non_null(pw);
	snprintf(want, sizeof(want), "%s/x.json", pw->pw_dir);
	char in[300];
	snprintf(in, sizeof(in), "~%s/x.json", pw->pw_name);
	assert_string_equal(expand(in), want);
	assert_null(expand("~no-such-user-here/x.json"));
	assert_string_equal(err, "~no-such-user-here/x.json: no user 'no-such-user-here' to expand "
				 "'~no-such-user-here' for");
}

/* No $HOME: the password file's home for this user, as sh does. */
static void test_no_home(void **state)
{
	struct passwd *pw = getpwuid(getuid());
	char want[512];

	(void)state;
	unsetenv("HOME");
	assert_non_null(pw);
	snprintf(want, sizeof(want), "%s/x", pw->pw_dir);
	assert_string_equal(expand("~/x"), want);
}

static void test_too_long(void **state)
{
	char in[400];

	(void)state;
	setenv("HOME", "/h", 1);
	memset(in, 'a', sizeof(in) - 1);
	in[0] = '~', in[1] = '/', in[sizeof(in) - 1] = 0;
	assert_null(expand(in));
	assert_non_null(strstr(err, "the path is too long"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_home),	cmocka_unit_test(test_untouched), cmocka_unit_test(test_user),
		cmocka_unit_test(test_no_home), cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
