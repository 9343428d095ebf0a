// SPDX-License-Identifier: GPL-2.0
/* Window statistics from hand-made event streams, checked against hand-computed values. */
#include <string.h>

/* Before cmocka.h: cmocka has a macro named expect_check. */
#include "src/format/expect.h"
#include "src/analysis/stats.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* ---- building events ---- */

static u64 seq;

static struct sched_event ev_at(u64 t, int type, int cpu)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time = t;
	ev.seq = seq++;
	ev.type = (u16)type;
	ev.cpu = (s16)cpu;
	return ev;
}

static void fork_new(struct stats *st, u64 t, int cpu, int pid)
{
	struct sched_event ev = ev_at(t, EV_SCHED_PROCESS_FORK, cpu);

	ev.fork.parent_pid = 0;
	ev.fork.child_pid = pid;
	stats_event(st, &ev);
	ev = ev_at(t, EV_SCHED_WAKEUP_NEW, cpu);
	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = cpu;
	stats_event(st, &ev);
}

static void wake(struct stats *st, u64 t, int cpu, int pid)
{
	struct sched_event ev = ev_at(t, EV_SCHED_WAKING, cpu);

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = cpu;
	stats_event(st, &ev);
	ev.type = EV_SCHED_WAKEUP;
	ev.seq = seq++;
	stats_event(st, &ev);
}

static void sw(struct stats *st, u64 t, int cpu, int prev, char state, int next)
{
	struct sched_event ev = ev_at(t, EV_SCHED_SWITCH, cpu);

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_state = state;
	stats_event(st, &ev);
}

static void migrate(struct stats *st, u64 t, int pid, int from, int to)
{
	struct sched_event ev = ev_at(t, EV_SCHED_MIGRATE_TASK, from);

	ev.migrate.pid = pid;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = from;
	ev.migrate.dest_cpu = to;
	stats_event(st, &ev);
}

/*
 * One CPU, two tasks:
 *   0  pid 1 forked + wakeup_new        5  pid 2 forked + wakeup_new
 *  10  idle -> 1                        30  1 -> 2 (R, preempted)
 *  50  2 -> 1 (S, blocks)               70  pid 2 woken
 *  80  1 -> 2 (R, preempted)           100  end
 */
static void feed_two_tasks(struct stats *st)
{
	fork_new(st, 0, 0, 1);
	fork_new(st, 5, 0, 2);
	sw(st, 10, 0, 0, 'R', 1);
	sw(st, 30, 0, 1, 'R', 2);
	sw(st, 50, 0, 2, 'S', 1);
	wake(st, 70, 0, 2);
	sw(st, 80, 0, 1, 'R', 2);
	stats_finish(st, 100);
}

static void test_whole_run(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, 2, 1, 0, 1000), 0);
	feed_two_tasks(&st);

	/* pid 1: wait 0-10, run 10-30, wait 30-50, run 50-80, wait 80-100 */
	assert_int_equal(st.task[0].cpu_ns, 50);
	assert_int_equal(st.task[0].wait_ns, 50);
	assert_int_equal(st.task[0].slices, 2);
	assert_int_equal(st.task[0].wakeups, 1);
	assert_int_equal(st.task[0].preemptions, 2);
	/* only the first switch-in follows a wakeup: 10 - 0 */
	assert_int_equal(st.task[0].lat.count, 1);
	assert_int_equal(lat_hist_value(&st.task[0].lat, STAT_MAX), 10);

	/* pid 2: wait 5-30, run 30-50, sleep 50-70, wait 70-80, run 80-100 */
	assert_int_equal(st.task[1].cpu_ns, 40);
	assert_int_equal(st.task[1].wait_ns, 35);
	assert_int_equal(st.task[1].slices, 2);
	assert_int_equal(st.task[1].wakeups, 2);
	assert_int_equal(st.task[1].preemptions, 0);
	/* latencies 25 (5 -> 30) and 10 (70 -> 80); below 32 buckets are exact */
	assert_int_equal(st.task[1].lat.count, 2);
	assert_int_equal(lat_hist_value(&st.task[1].lat, STAT_P50), 10);
	assert_int_equal(lat_hist_value(&st.task[1].lat, STAT_P99), 25);
	assert_int_equal(lat_hist_value(&st.task[1].lat, STAT_MAX), 25);

	/* the CPU: idle 0-10, busy 10-100, four switches */
	assert_int_equal(st.cpu[0].idle_ns, 10);
	assert_int_equal(st.cpu[0].busy_ns, 90);
	assert_int_equal(st.cpu[0].switches, 4);
	assert_int_equal(st.cpu[0].curr_pid, 2);
	/* 2 forks + 2 wakeup_new + waking + wakeup + 4 switches */
	assert_int_equal(st.events, 10);
	assert_int_equal(st.end, 100);
	stats_free(&st);
}

static void test_window_clipping(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, 2, 1, 20, 75), 0);
	feed_two_tasks(&st);

	/* pid 1 inside [20, 75): run 20-30, wait 30-50, run 50-75 */
	assert_int_equal(st.task[0].cpu_ns, 35);
	assert_int_equal(st.task[0].wait_ns, 20);
	assert_int_equal(st.task[0].slices, 1);		/* 50 in, 10 out */
	assert_int_equal(st.task[0].wakeups, 0);	/* wakeup_new at 0 */
	assert_int_equal(st.task[0].preemptions, 1);	/* 30 in, 80 out */
	assert_int_equal(st.task[0].lat.count, 0);	/* its switch-in at 10 is outside */

	/* pid 2: wait 20-30, run 30-50, wait 70-75 */
	assert_int_equal(st.task[1].cpu_ns, 20);
	assert_int_equal(st.task[1].wait_ns, 15);
	assert_int_equal(st.task[1].slices, 1);
	assert_int_equal(st.task[1].wakeups, 1);
	/* woken at 5 (outside) but switched in at 30 (inside): the sample counts */
	assert_int_equal(st.task[1].lat.count, 1);
	assert_int_equal(lat_hist_value(&st.task[1].lat, STAT_MAX), 25);

	assert_int_equal(st.cpu[0].busy_ns, 55);
	assert_int_equal(st.cpu[0].idle_ns, 0);
	assert_int_equal(st.cpu[0].switches, 2);
	/* switch 30, switch 50, waking 70, wakeup 70 */
	assert_int_equal(st.events, 4);
	assert_int_equal(st.end, 75);
	stats_free(&st);
}

static void test_finish_is_idempotent_and_resumable(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, 1, 1, 0, 1000), 0);
	fork_new(&st, 0, 0, 1);
	sw(&st, 100, 0, 0, 'R', 1);
	stats_finish(&st, 300);
	stats_finish(&st, 300);
	assert_int_equal(st.task[0].cpu_ns, 200);
	assert_int_equal(st.task[0].wait_ns, 100);
	assert_int_equal(st.cpu[0].idle_ns, 100);
	assert_int_equal(st.cpu[0].busy_ns, 200);

	/* the run goes on after a mid-run report */
	sw(&st, 400, 0, 1, 'S', 0);
	stats_finish(&st, 500);
	assert_int_equal(st.task[0].cpu_ns, 300);
	assert_int_equal(st.cpu[0].busy_ns, 300);
	assert_int_equal(st.cpu[0].idle_ns, 200);
	stats_free(&st);
}

static void test_idle_cpu_counts_from_zero(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, 1, 2, 10, 1000), 0);
	fork_new(&st, 0, 1, 1);
	sw(&st, 40, 1, 0, 'R', 1);
	stats_finish(&st, 60);
	/* cpu 0 never switched: idle over the whole window [10, 60) */
	assert_int_equal(st.cpu[0].idle_ns, 50);
	assert_int_equal(st.cpu[0].busy_ns, 0);
	assert_int_equal(st.cpu[0].switches, 0);
	/* cpu 1: idle 10-40, busy 40-60 */
	assert_int_equal(st.cpu[1].idle_ns, 30);
	assert_int_equal(st.cpu[1].busy_ns, 20);
	assert_int_equal(st.task[0].wait_ns, 30);	/* 10-40, clipped at 10 */
	stats_free(&st);
}

static void test_migrations(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, 2, 2, 100, 1000), 0);
	fork_new(&st, 0, 0, 1);
	migrate(&st, 0, 1, 0, 1);		/* before the window: not counted */
	assert_int_equal(st.task[0].cpu, 1);
	sw(&st, 10, 1, 0, 'R', 1);
	sw(&st, 150, 1, 1, 'R', 0);		/* preempted, stays runnable */
	migrate(&st, 160, 1, 1, 0);		/* pulled by the balancer */
	sw(&st, 170, 0, 0, 'R', 1);
	assert_int_equal(st.task[0].cpu, 0);
	sw(&st, 200, 0, 1, 'S', 0);
	wake(&st, 300, 1, 1);
	migrate(&st, 300, 1, 0, 1);		/* wakeup placement */
	sw(&st, 320, 1, 0, 'R', 1);
	stats_finish(&st, 400);

	assert_int_equal(st.task[0].migrations, 2);
	/* run 100-150, 170-200, 320-400 */
	assert_int_equal(st.task[0].cpu_ns, 50 + 30 + 80);
	/* wait 150-170, 300-320 */
	assert_int_equal(st.task[0].wait_ns, 40);
	assert_int_equal(st.task[0].preemptions, 1);
	assert_int_equal(st.task[0].slices, 2);	/* 170 and 320; 10 is outside */
	/* a preempted task has no pending wakeup: only 300 -> 320 is a sample */
	assert_int_equal(st.task[0].lat.count, 1);
	assert_int_equal(lat_hist_value(&st.task[0].lat, STAT_MAX), 20);
	/* cpu 1: busy 100-150, idle 150-320, busy 320-400 */
	assert_int_equal(st.cpu[1].busy_ns, 130);
	assert_int_equal(st.cpu[1].idle_ns, 170);
	/* cpu 0: idle 100-170, busy 170-200, idle 200-400 */
	assert_int_equal(st.cpu[0].busy_ns, 30);
	assert_int_equal(st.cpu[0].idle_ns, 270);
	stats_free(&st);
}

static void test_wakeup_of_running_task_leaves_no_sample(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, 1, 1, 0, 1000), 0);
	fork_new(&st, 0, 0, 1);
	sw(&st, 5, 0, 0, 'R', 1);		/* latency 5 */
	wake(&st, 20, 0, 1);			/* woken while still running */
	sw(&st, 50, 0, 1, 'R', 0);
	sw(&st, 90, 0, 0, 'R', 1);		/* back after a preemption: no sample */
	stats_finish(&st, 100);
	assert_int_equal(st.task[0].wakeups, 2);
	assert_int_equal(st.task[0].lat.count, 1);
	assert_int_equal(lat_hist_value(&st.task[0].lat, STAT_MAX), 5);
	assert_int_equal(st.task[0].cpu_ns, 55);
	assert_int_equal(st.task[0].wait_ns, 45);
	stats_free(&st);
}

static void test_percentiles(void **state)
{
	struct stats st;
	u64 t = 0;

	assert_int_equal(stats_init(&st, 1, 1, 0, UINT64_MAX), 0);
	fork_new(&st, 0, 0, 1);
	sw(&st, 0, 0, 0, 'R', 1);
	sw(&st, 1, 0, 1, 'S', 0);
	/* latencies 1us, 2us, ..., 100us */
	for (u64 i = 1; i <= 100; i++) {
		t += 1000000;
		wake(&st, t, 0, 1);
		sw(&st, t + i * 1000, 0, 0, 'R', 1);
		sw(&st, t + i * 1000 + 1, 0, 1, 'S', 0);
	}
	const struct lat_hist *h = &st.task[0].lat;

	/* 101 samples: the first one (0 ns) plus 1..100 us */
	assert_int_equal(h->count, 101);
	/*
	 * p50: rank ceil(101 * 0.5) = 51 -> the 51st sample is 50 us = 50000 ns;
	 * 50000 is in octave [32768, 65536) of step 2048, bucket [49152, 51199].
	 */
	assert_int_equal(lat_hist_value(h, STAT_P50), 51199);
	/*
	 * p99: rank ceil(101 * 0.99) = 100 -> 99 us = 99000 ns, bucket
	 * [98304, 102399] of step 4096, clamped to the maximum 100000.
	 */
	assert_int_equal(lat_hist_value(h, STAT_P99), 100000);
	assert_int_equal(lat_hist_value(h, STAT_MAX), 100000);
	stats_free(&st);
}

static void test_histogram_edges(void **state)
{
	struct stats st;
	const u64 huge = 1ULL << 60;

	assert_int_equal(stats_init(&st, 1, 1, 0, UINT64_MAX), 0);
	assert_int_equal(lat_hist_value(&st.task[0].lat, STAT_P50), 0);
	assert_int_equal(lat_hist_value(&st.task[0].lat, STAT_MAX), 0);

	/* beyond the last octave: the value lands in the last bucket, reported exactly */
	fork_new(&st, 0, 0, 1);
	sw(&st, huge, 0, 0, 'R', 1);
	assert_int_equal(lat_hist_value(&st.task[0].lat, STAT_P50), huge);
	assert_int_equal(lat_hist_value(&st.task[0].lat, STAT_P99), huge);
	assert_int_equal(st.task[0].lat.bucket[LAT_OCTAVES * LAT_SUB - 1], 1);

	/* 0 ns and 15 ns have buckets of their own */
	sw(&st, huge + 1, 0, 1, 'S', 0);
	wake(&st, huge + 2, 0, 1);
	sw(&st, huge + 2, 0, 0, 'R', 1);
	assert_int_equal(st.task[0].lat.bucket[0], 1);
	stats_free(&st);
}

static void test_bad_pids_and_cpus_are_ignored(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, 2, 1, 0, 1000), 0);
	fork_new(&st, 0, 0, 3);			/* pid 3: no such task */
	fork_new(&st, 0, 0, -4);
	wake(&st, 1, 0, 1000000);
	migrate(&st, 2, -1, 0, 5);
	sw(&st, 3, 7, 0, 'R', 9);		/* cpu 7 of 1 */
	sw(&st, 4, -1, 3, 'S', 0);
	sw(&st, 5, 0, 0, 'R', 2);		/* task 2, never woken: still counted as running */
	stats_finish(&st, 10);
	assert_int_equal(st.task[0].cpu_ns + st.task[0].wait_ns, 0);
	assert_int_equal(st.task[1].cpu_ns, 5);
	assert_int_equal(st.task[1].wait_ns, 0);
	assert_int_equal(st.cpu[0].busy_ns, 5);
	assert_int_equal(st.cpu[0].idle_ns, 5);
	stats_free(&st);
}

static void test_init_rejects_bad_arguments(void **state)
{
	struct stats st;

	assert_int_equal(stats_init(&st, -1, 1, 0, 1), -1);
	assert_int_equal(stats_init(&st, 1, 1, 10, 5), -1);
	assert_int_equal(stats_init(&st, 0, 0, 0, 0), 0);
	stats_finish(&st, 100);
	assert_int_equal(st.end, 0);
	stats_free(&st);
	stats_free(&st);			/* freeing twice is harmless */
}

/* ---- rt-app's periods ---- */

#define MS NSEC_PER_MSEC

static void timer_at(struct stats *st, u64 t, int pid, u64 expires, u64 sum_exec)
{
	struct sched_event ev = ev_at(t, EV_PROG_TIMER, 0);

	ev.timer.pid = pid;
	ev.timer.expires = expires;
	ev.timer.slack = (s64)(expires - t);
	ev.timer.missed = t >= expires;
	ev.timer.sum_exec = sum_exec;
	ev.timer.period = 10 * MS;
	stats_event(st, &ev);
}

static struct period_row rows[4];
static int nr_rows;

static void keep_row(void *ctx, int task, const struct period_row *r)
{
	assert_int_equal(task, 0);
	if (nr_rows < 4)
		rows[nr_rows++] = *r;
}

/*
 * A 10 ms timer, pid 1 on CPU 0, forked at 0:
 *   runs 0..3 ms, timer at 3 (expires 10, slack +7), sleeps; back on the CPU
 *   at 12 ms: period 1 = 0..12, run 3, wu_lat 2.
 *   runs 12..25 ms (13 ms), timer at 25 (expires 20, slack -5): missed, so
 *   period 2 = 12..25 at once, wu_lat 0.
 * Window 0..20 ms keeps only period 1 (period 2 ends at 25).
 */
static void test_periods(void **state)
{
	struct stats st, win;

	assert_int_equal(stats_init(&st, 1, 1, 0, 1000 * MS), 0);
	assert_int_equal(stats_init(&win, 1, 1, 0, 20 * MS), 0);
	st.period_fn = keep_row;
	nr_rows = 0;
	for (int k = 0; k < 2; k++) {
		struct stats *s = k ? &win : &st;
		fork_new(s, 0, 0, 1);
		sw(s, 0, 0, 0, 'R', 1);
		timer_at(s, 3 * MS, 1, 10 * MS, 3 * MS);
		sw(s, 3 * MS, 0, 1, 'S', 0);
		wake(s, 10 * MS, 0, 1);
		sw(s, 12 * MS, 0, 0, 'R', 1);
		timer_at(s, 25 * MS, 1, 20 * MS, 16 * MS);
	}
	const struct period_stats *p = &st.task[0].per;
	assert_int_equal(p->periods, 2);
	assert_int_equal(p->missed, 1);
	assert_int_equal(p->period_sum, 25 * MS);
	assert_int_equal(p->period_max, 13 * MS);
	assert_int_equal(p->run_sum, 16 * MS);
	assert_int_equal(p->run_max, 13 * MS);
	assert_int_equal(p->slack_sum, 2 * (s64)MS);
	assert_int_equal(p->slack_min, -5 * (s64)MS);
	assert_int_equal(p->wu_lat_sum, 2 * MS);
	assert_int_equal(p->wu_lat_max, 2 * MS);
	assert_int_equal(nr_rows, 2);
	assert_int_equal(rows[0].start, 0);
	assert_int_equal(rows[0].end, 12 * MS);
	assert_int_equal(rows[1].start, 12 * MS);
	assert_int_equal(rows[1].end, 25 * MS);
	assert_true(rows[1].missed);

	assert_int_equal(win.task[0].per.periods, 1);
	assert_int_equal(win.task[0].per.slack_min, 7 * (s64)MS);
	stats_free(&st);
	stats_free(&win);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_run),
		cmocka_unit_test(test_periods),
		cmocka_unit_test(test_window_clipping),
		cmocka_unit_test(test_finish_is_idempotent_and_resumable),
		cmocka_unit_test(test_idle_cpu_counts_from_zero),
		cmocka_unit_test(test_migrations),
		cmocka_unit_test(test_wakeup_of_running_task_leaves_no_sample),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_histogram_edges),
		cmocka_unit_test(test_bad_pids_and_cpus_are_ignored),
		cmocka_unit_test(test_init_rejects_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
