// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt and steal time: what clock_task keeps out with and without the
 * accounting, that `run D` still gets D of work, and the CPU's avg_irq.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"

#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

/* 100us of interrupt every 1ms for 1 s: 100 ms of irq time, kept out of clock_task. */
static void test_irq_time_accounted(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct rq *rq;

	fx_irq(f, 0, false, 1 * MS, 100 * US);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	fx_start(f);
	sched_run_until(f->e, NSEC_PER_SEC);
	rq = cpu_rq(0);
	update_rq_clock(rq);
	/* arrivals at 1, 2, ... 1000 ms: the one at 1 s is still under way */
	assert_int_equal(rq->irq_time, 999 * 100 * US);
	assert_int_equal(rq->clock - rq->clock_task, rq->irq_time);
	/* the hog was charged only for the rest */
	update_curr(cfs_rq_of(&T(f->e, 0)->se));
	assert_int_equal(T(f->e, 0)->se.sum_exec_runtime, NSEC_PER_SEC - 999 * 100 * US);
	/* avg_irq settles near 10 % of the capacity (PELT of a 10 % duty cycle) */
	assert_in_range(rq->avg_irq.util_avg, 95, 110);
}

/* Without IRQ_TIME_ACCOUNTING the task is charged for the interrupts too. */
static void test_irq_time_not_accounted(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);

	fx_irq(f, 0, false, 1 * MS, 100 * US);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	f->sc.features_clear = FEAT_BIT(FEAT_IRQ_TIME_ACCOUNTING);
	fx_start(f);
	sched_run_until(f->e, NSEC_PER_SEC);
	update_rq_clock(cpu_rq(0));
	assert_int_equal(cpu_rq(0)->clock, cpu_rq(0)->clock_task);
	update_curr(cfs_rq_of(&T(f->e, 0)->se));
	assert_int_equal(T(f->e, 0)->se.sum_exec_runtime, NSEC_PER_SEC);
	assert_int_equal(cpu_rq(0)->avg_irq.util_avg, 0);
}

/* `run 9ms` with 100us interrupts at 1, 2, ... 9 ms takes 9.9 ms of wall time, accounted or not. */
static void test_work_waits_out_interrupts(void **state)
{
	for (int accounted = 0; accounted < 2; accounted++) {
		struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
		struct prog_insn p[2] = {
			{ .op = PROG_RUN, .dur = { DIST_CONST, 9 * MS, 0 } },
			{ .op = PROG_EXIT },
		};

		fx_irq(f, 0, false, 1 * MS, 100 * US);
		fx_task(f, 0, SCHED_NORMAL, 0, 0, fx_program(f, 0, p, 2, 0));
		if (!accounted)
			f->sc.features_clear = FEAT_BIT(FEAT_IRQ_TIME_ACCOUNTING);
		fx_start(f);
		sched_run_until(f->e, 9899 * US);
		assert_int_equal(T(f->e, 0)->state, TASK_RUNNING);
		sched_run_until(f->e, 9900 * US);
		assert_int_equal(T(f->e, 0)->state, TASK_DEAD);
		fx_free(f);
	}
}

/* Steal time is kept out under PARAVIRT_TIME_ACCOUNTING, interrupts' under IRQ_TIME_ACCOUNTING. */
static void test_steal_time(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);

	fx_irq(f, 0, true, 10 * MS, 2 * MS);
	fx_task(f, 0, SCHED_NORMAL, 0, 0, NULL);
	f->sc.features_clear = FEAT_BIT(FEAT_IRQ_TIME_ACCOUNTING);
	fx_start(f);
	sched_run_until(f->e, 105 * MS);
	update_rq_clock(cpu_rq(0));
	assert_int_equal(cpu_rq(0)->steal_time, 10 * 2 * MS);
	assert_int_equal(cpu_rq(0)->irq_time, 0);
	assert_int_equal(cpu_rq(0)->clock - cpu_rq(0)->clock_task, 10 * 2 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_irq_time_accounted, fx_cleanup),
		cmocka_unit_test_teardown(test_irq_time_not_accounted, fx_cleanup),
		cmocka_unit_test_teardown(test_work_waits_out_interrupts, fx_cleanup),
		cmocka_unit_test_teardown(test_steal_time, fx_cleanup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
