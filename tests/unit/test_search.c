// SPDX-License-Identifier: GPL-2.0
/* The list views' search: the matcher and the mark it leaves on the screen. */
#include <string.h>

#include "ui/search.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static void test_match(void **state)
{
	assert_true(search_match("comm=hog.14 pid=30", "hog.14"));
	assert_true(search_match("comm=hog.14 pid=30", "comm=hog.14 pid=30"));
	assert_false(search_match("comm=hog.1 pid=17", "hog.14"));
	assert_false(search_match("comm=hog.1", "comm=hog.1 "));
	/* lower case ignores case, a capital does not */
	assert_true(search_match("name=NUMA idle=busy", "numa"));
	assert_true(search_match("name=NUMA idle=busy", "NUMA"));
	assert_false(search_match("name=numa", "NUMA"));
	assert_false(search_match("name=Numa", "NUma"));
	/* nothing to find, nowhere to find it */
	assert_false(search_match("anything", ""));
	assert_false(search_match("", "a"));
	assert_true(search_match("a", "a"));
}

static void put_text(struct cellbuf *cb, int y, const char *s)
{
	cb_print(cb, 0, y, cb->w, STYLE_PLAIN, "%s", s);
}

/* The columns of row y whose style is the mark's, as '^' (else ' '). */
static void marks(const struct cellbuf *cb, int y, char *out)
{
	int n = 0;

	for (int x = 0; x < cb->w; x++)
		out[n++] = cb->cell[y * cb->w + x].st.bg == C_YELLOW ? '^' : ' ';
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = 0;
}

static void test_mark(void **state)
{
	struct cellbuf cb;
	char m[64];

	cb_init(&cb, 40, 3);
	put_text(&cb, 0, "hog.1 -> hog.14 HOG.1");
	search_mark(&cb, 0, 0, 40, "hog.1");
	marks(&cb, 0, m);
	assert_string_equal(m, "^^^^^    ^^^^^  ^^^^^");
	/* a capital: exact case; only within [x, x + w) */
	put_text(&cb, 1, "hog.1 HOG.1 HOG.1");
	search_mark(&cb, 0, 1, 12, "HOG.1");
	marks(&cb, 1, m);
	assert_string_equal(m, "      ^^^^^");
	/* a pattern beyond ASCII: by code points, as the cells hold them */
	put_text(&cb, 2, "a \u00ab b \u00ab");
	search_mark(&cb, 0, 2, 40, "\u00ab b");
	marks(&cb, 2, m);
	assert_string_equal(m, "  ^^^");
	/* rows off the buffer are no error */
	search_mark(&cb, 0, 3, 40, "a");
	search_mark(&cb, -5, -1, 40, "a");
	cb_free(&cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_mark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
