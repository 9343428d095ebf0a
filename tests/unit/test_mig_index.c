// SPDX-License-Identifier: GPL-2.0
/* The migrations view's index (ui/mig_index.c) fed events by hand: herds, overlaps, a branch. */
#include "ui/mig_index.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static void feed(struct mig_index *x, u64 seq, int type, u64 first_seq)
{
	struct sched_event ev = { .seq = seq, .type = type };

	if (type == EV_HERD)
		ev.herd.first_seq = first_seq;
	mig_index_event(x, &ev);
}

static void expect_lines(const struct mig_index *x, const u64 (*want)[2], size_t n)
{
	assert_int_equal(x->nr, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(x->e[i].seq, want[i][0]);
		assert_int_equal(x->e[i].herd, want[i][1]);
	}
}

static void test_herds_and_branches(void **state)
{
	struct mig_index x = { 0 };
	const u64 N = MIG_NO_HERD;

	feed(&x, 5, EV_SCHED_SWITCH, 0);
	feed(&x, 10, EV_SCHED_MIGRATE_TASK, 0);
	feed(&x, 20, EV_SCHED_MIGRATE_TASK, 0);
	feed(&x, 30, EV_SCHED_MIGRATE_TASK, 0);
	feed(&x, 31, EV_HERD, 20);
	feed(&x, 40, EV_SCHED_MIGRATE_TASK, 0);
	/* a second herd over the first one's migrations: they keep the first */
	feed(&x, 41, EV_HERD, 30);
	expect_lines(
		&x, (const u64[][2]){ { 10, N }, { 20, 31 }, { 30, 31 }, { 31, 31 }, { 40, 41 }, { 41, 41 } },
		6);
	assert_int_equal(mig_index_before(&x, 0), 0);
	assert_int_equal(mig_index_before(&x, 30), 2);
	assert_int_equal(mig_index_before(&x, 31), 3);
	assert_int_equal(mig_index_before(&x, 35), 4);
	assert_int_equal(mig_index_before(&x, 100), 6);

	/* a branch from 35 on: any event from there takes the lines after it */
	feed(&x, 35, EV_SCHED_SWITCH, 0);
	expect_lines(&x, (const u64[][2]){ { 10, N }, { 20, 31 }, { 30, 31 }, { 31, 31 } }, 4);
	/* one from 25 on: the herd at 31 goes, and its marks on 20 */
	feed(&x, 25, EV_SCHED_MIGRATE_TASK, 0);
	expect_lines(&x, (const u64[][2]){ { 10, N }, { 20, N }, { 25, N } }, 3);
	feed(&x, 26, EV_HERD, 10);
	expect_lines(&x, (const u64[][2]){ { 10, 26 }, { 20, 26 }, { 25, 26 }, { 26, 26 } }, 4);
	mig_index_free(&x);
	assert_null(x.e);
	assert_int_equal(x.nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_herds_and_branches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
