// SPDX-License-Identifier: GPL-2.0
/* The cell buffer: clipping, wide characters, and the exact bytes of its
 * text, ANSI and HTML renderings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/cellbuf.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static char *render(const struct cellbuf *cb, int kind, int colors)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (kind == 0)
		cb_write_text(cb, f);
	else if (kind == 1)
		cb_write_ansi(cb, f, colors);
	else
		cb_write_html(cb, f);
	fclose(f);
	return buf;
}

static const char *row(const struct cellbuf *cb, int y)
{
	static char buf[256];

	return cb_row(cb, y, buf, sizeof(buf));
}

static void test_clipping(void **state)
{
	struct cellbuf cb;

	cb_init(&cb, 5, 2);
	/* out of range: nothing happens, nothing crashes */
	cb_put(&cb, -1, 0, 'x', STYLE_PLAIN);
	cb_put(&cb, 5, 0, 'x', STYLE_PLAIN);
	cb_put(&cb, 0, 2, 'x', STYLE_PLAIN);
	cb_put(&cb, 0, -1, 'x', STYLE_PLAIN);
	assert_string_equal(row(&cb, 0), "");
	/* max_w and the right edge both clip, with an ellipsis, and never inside a number */
	assert_int_equal(cb_print(&cb, 0, 0, 3, STYLE_PLAIN, "abcdef"), 3);
	assert_string_equal(row(&cb, 0), "ab\u2026");
	cb_print(&cb, 3, 1, 10, STYLE_PLAIN, "%d", 12345);
	assert_string_equal(row(&cb, 1), "   \u2026");
	/* starting left of the buffer: the visible tail is drawn */
	cb_clear(&cb);
	cb_print(&cb, -2, 0, 10, STYLE_PLAIN, "abcdefg");
	assert_string_equal(row(&cb, 0), "cdefg");
	/* fill and box clip too */
	cb_fill(&cb, (struct rect){ 3, 0, 10, 10 }, '#', STYLE_PLAIN);
	assert_string_equal(row(&cb, 0), "cde##");
	assert_string_equal(row(&cb, 1), "   ##");
	cb_box(&cb, (struct rect){ -3, -3, 100, 100 }, STYLE_PLAIN, "t");
	assert_string_equal(row(&cb, 1), "   ##");
	assert_string_equal(row(&cb, 5), "");
	cb_free(&cb);
}

/* The texts issue 15 found cut into other numbers, at the widths it saw. */
static void test_cut_keeps_numbers(void **state)
{
	static const struct {
		int w;
		const char *text, *want;
	} cases[] = {
		{ 20, "runqueue runtime=1000000 ns", "runqueue\u2026" },
		{ 18, "weights 1024 and 110", "weights 1024 and\u2026" },
		{ 19, "weights 1024 and 110", "weights 1024 and\u2026" },
		{ 10, "\u00b7 Events 1625", "\u00b7 Events\u2026" },
		{ 6, "hog.12", "hog.12" },
		{ 5, "hog.12", "hog\u2026" },
		{ 12, "util=864 capacity=1024", "util=864 \u2026" },
		{ 9, "util=864 capacity=1024", "util=\u2026" },
		{ 14, "trace: wrote /tmp/x.json", "trace: wrote\u2026" },
		{ 8, "12.5us", "12.5us" },
		{ 5, "12.5us", "\u2026" },
	};
	struct cellbuf cb;

	(void)state;
	cb_init(&cb, 40, 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cb_clear(&cb);
		cb_print(&cb, 0, 0, cases[i].w, STYLE_PLAIN, "%s", cases[i].text);
		if (strcmp(row(&cb, 0), cases[i].want))
			fail_msg("%d columns of '%s': '%s', not '%s'", cases[i].w, cases[i].text, row(&cb, 0),
				 cases[i].want);
	}
	cb_free(&cb);
}

static void test_wide_chars(void **state)
{
	struct cellbuf cb;

	cb_init(&cb, 6, 1);
	/* 漢 and 字 take two columns each; é one */
	assert_int_equal(cb_print(&cb, 0, 0, 6, STYLE_PLAIN, "漢é字"), 5);
	assert_int_equal(cb.cell[0].ch, 0x6f22);
	assert_int_equal(cb.cell[1].ch, 0);	/* continuation */
	assert_int_equal(cb.cell[2].ch, 0xe9);
	assert_int_equal(cb.cell[3].ch, 0x5b57);
	assert_string_equal(row(&cb, 0), "漢é字");
	/* a wide character that does not fit in max_w becomes a blank */
	cb_clear(&cb);
	assert_int_equal(cb_print(&cb, 0, 0, 4, STYLE_PLAIN, "a漢漢"), 4);
	assert_string_equal(row(&cb, 0), "a漢\u2026");
	cb_clear(&cb);
	assert_int_equal(cb_print(&cb, 0, 0, 3, STYLE_PLAIN, "a漢x"), 2);
	assert_string_equal(row(&cb, 0), "a\u2026");
	/* nor at the right edge */
	cb_clear(&cb);
	cb_print(&cb, 5, 0, 4, STYLE_PLAIN, "漢");
	assert_int_equal(cb.cell[5].ch, 0x2026);
	/* overwriting half of a wide character blanks the other half */
	cb_clear(&cb);
	cb_print(&cb, 0, 0, 6, STYLE_PLAIN, "漢字");
	cb_put(&cb, 1, 0, 'x', STYLE_PLAIN);
	assert_string_equal(row(&cb, 0), " x字");
	cb_put(&cb, 2, 0, 'y', STYLE_PLAIN);
	assert_string_equal(row(&cb, 0), " xy");
	/* bad UTF-8 and control characters do not break the grid */
	cb_clear(&cb);
	assert_int_equal(cb_print(&cb, 0, 0, 6, STYLE_PLAIN, "a\xff" "b\x01"), 4);
	assert_string_equal(row(&cb, 0), "a\xef\xbf\xbd" "b?");
	cb_free(&cb);
}

static void test_box(void **state)
{
	struct cellbuf cb;

	cb_init(&cb, 12, 3);
	cb_box(&cb, (struct rect){ 0, 0, 12, 3 }, STYLE_PLAIN, "cpu");
	assert_string_equal(row(&cb, 0), "┌─ cpu ────┐");
	assert_string_equal(row(&cb, 1), "│          │");
	assert_string_equal(row(&cb, 2), "└──────────┘");
	cb_free(&cb);
}

static void test_text_output(void **state)
{
	struct cellbuf cb;

	cb_init(&cb, 4, 3);
	cb_print(&cb, 1, 0, 4, (struct style){ C_RED, COLOR_DEFAULT, A_BOLD_ }, "hi");
	cb_print(&cb, 0, 2, 4, STYLE_PLAIN, "漢");
	char *s = render(&cb, 0, 0);
	assert_string_equal(s, " hi\n\n漢\n");
	free(s);
	cb_free(&cb);
}

static void test_ansi_output(void **state)
{
	struct cellbuf cb;
	struct style red = { C_RED, COLOR_DEFAULT, A_BOLD_ };
	struct style orange = { 208, 17, 0 };
	struct style rev = { COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_ };

	cb_init(&cb, 6, 2);
	cb_print(&cb, 0, 0, 6, red, "ab");
	cb_print(&cb, 2, 0, 6, orange, "c");
	cb_print(&cb, 0, 1, 6, rev, "d");
	cb_print(&cb, 1, 1, 6, STYLE_PLAIN, "e");

	char *s = render(&cb, 1, 256);
	assert_string_equal(s, "\033[0;1;38;5;1mab\033[0;38;5;208;48;5;17mc\033[0m\n"
			       "\033[0;7md\033[0me\n");
	free(s);
	/* 16 colours: the nearest ANSI colour (orange 208 is yellow) */
	s = render(&cb, 1, 16);
	assert_string_equal(s, "\033[0;1;31mab\033[0;33;40mc\033[0m\n"
			       "\033[0;7md\033[0me\n");
	free(s);
	/* no colour: attributes only */
	s = render(&cb, 1, 0);
	assert_string_equal(s, "\033[0;1mab\033[0mc\n"
			       "\033[0;7md\033[0me\n");
	free(s);
	cb_free(&cb);
}

static void test_html_output(void **state)
{
	struct cellbuf cb;

	cb_init(&cb, 5, 1);
	cb_print(&cb, 0, 0, 5, STYLE_PLAIN, "<&");
	cb_print(&cb, 2, 0, 5, (struct style){ 196, COLOR_DEFAULT, A_BOLD_ | A_UNDERLINE_ }, "\"x");
	char *s = render(&cb, 2, 256);
	const char *body = strchr(s, '>');
	assert_non_null(body);
	assert_true(!strncmp(s, "<pre style=\"", 12));
	assert_string_equal(body + 1,
			    "&lt;&amp;<span style=\"color:#ff0000;font-weight:bold;"
			    "text-decoration:underline;\">&quot;x</span> \n</pre>\n");
	free(s);
	/* reverse video swaps the page's colours */
	cb_clear(&cb);
	cb_put(&cb, 0, 0, 'r', (struct style){ COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_ });
	s = render(&cb, 2, 256);
	assert_non_null(strstr(s, "<span style=\"color:#000000;background:#e5e5e5;\">r</span>"));
	free(s);
	cb_free(&cb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clipping),	  cmocka_unit_test(test_wide_chars),
		cmocka_unit_test(test_cut_keeps_numbers), cmocka_unit_test(test_box),
		cmocka_unit_test(test_text_output),	  cmocka_unit_test(test_ansi_output),
		cmocka_unit_test(test_html_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
