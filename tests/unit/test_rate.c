// SPDX-License-Identifier: GPL-2.0
/* The status line's speed: the rate asked for and the one achieved (ui/rate.c). */
#include <string.h>

#include "ui/rate.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static char buf[64];

/* A window of wall time in frames of 16 ms, each moving the run by sim_per_frame. */
static void feed(struct rate_meter *m, u64 wall, u64 sim_per_frame)
{
	for (u64 w = 0; w < wall; w += 16 * NSEC_PER_MSEC)
		rate_add(m, 16 * NSEC_PER_MSEC, sim_per_frame);
}

static void test_keeping_up(void **state)
{
	struct rate_meter m = { 0 };

	(void)state;
	assert_string_equal(rate_status(&m, 1, buf, sizeof(buf)), "1x");
	feed(&m, NSEC_PER_SEC, 16 * NSEC_PER_MSEC);
	assert_true(m.known);
	assert_true(m.real > 0.99 && m.real < 1.01);
	assert_string_equal(rate_status(&m, 1, buf, sizeof(buf)), "1x");
	assert_string_equal(rate_status(&m, 0.001, buf, sizeof(buf)), "1/1000x asked, 1x real");
}

/* The 256-CPU case of issue 15: asked 1x, the engine does a fifth of it. */
static void test_falling_behind(void **state)
{
	struct rate_meter m = { 0 };

	(void)state;
	feed(&m, 400 * NSEC_PER_MSEC, 3200 * NSEC_PER_USEC);
	assert_false(m.known); /* less than a window: nothing said yet */
	assert_string_equal(rate_status(&m, 1, buf, sizeof(buf)), "1x");
	feed(&m, 200 * NSEC_PER_MSEC, 3200 * NSEC_PER_USEC);
	assert_true(m.known);
	assert_string_equal(rate_status(&m, 1, buf, sizeof(buf)), "1x asked, 0.2x real");
	/* within a tenth is keeping up */
	assert_string_equal(rate_status(&m, 0.21, buf, sizeof(buf)), "1/5x");
	assert_string_equal(rate_status(&m, 100, buf, sizeof(buf)), "100x asked, 0.2x real");
	m.real = 37.4;
	assert_string_equal(rate_status(&m, 1000, buf, sizeof(buf)), "1000x asked, 37x real");
	m.real = 1.0 / 520;
	assert_string_equal(rate_status(&m, 1, buf, sizeof(buf)), "1x asked, 1/520x real");
}

static void test_max_and_reset(void **state)
{
	struct rate_meter m = { 0 };

	(void)state;
	assert_string_equal(rate_status(&m, 0, buf, sizeof(buf)), "max");
	feed(&m, NSEC_PER_SEC, 160 * NSEC_PER_MSEC);
	assert_string_equal(rate_status(&m, 0, buf, sizeof(buf)), "max, 10x real");
	rate_reset(&m);
	assert_false(m.known);
	assert_string_equal(rate_status(&m, 0, buf, sizeof(buf)), "max");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keeping_up),
		cmocka_unit_test(test_falling_behind),
		cmocka_unit_test(test_max_and_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
