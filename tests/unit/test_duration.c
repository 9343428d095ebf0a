// SPDX-License-Identifier: GPL-2.0
/* The one duration formatter (src/base/duration.c), at its units' edges. */
#include <string.h>

#include "src/base/duration.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static void test_fmt_dur(void **state)
{
	static const struct {
		s64 ns;
		bool plus;
		const char *want;
	} cases[] = {
		{ 0, false, "0ns" },
		{ 0, true, "0ns" },
		{ 850, false, "850ns" },
		{ 999, true, "+999ns" },
		{ 1000, false, "1.0us" },
		{ 12500, false, "12.5us" },
		{ -12500, true, "-12.5us" },
		{ 999949, false, "999.9us" },
		{ 999950, false, "1.000ms" },
		{ 1234567, false, "1.235ms" },
		{ 999999999, false, "1.000s" },
		{ 2500000000LL, true, "+2.500s" },
		{ 1000000, true, "+1.000ms" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(fmt_dur(buf, sizeof(buf), cases[i].ns, cases[i].plus), cases[i].want);
}

static void test_fmt_dur_short(void **state)
{
	static const struct {
		s64 ns;
		bool plus;
		const char *want;
	} cases[] = {
		{ 0, true, "0ns" },	     { 10000000, true, "+10ms" }, { -500000, true, "-500us" },
		{ 1500000, true, "+1.5ms" }, { 1500000, false, "1.5ms" }, { 20000000, false, "20ms" },
		{ 999999600, false, "1s" },  { 7, false, "7ns" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(fmt_dur_short(buf, sizeof(buf), cases[i].ns, cases[i].plus),
				    cases[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_dur),
		cmocka_unit_test(test_fmt_dur_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
