// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's timer jitter, measured (`make costs`; root for the
 * SCHED_FIFO run): what noise's irq_jitter_ns default rests on.
 *
 *   timer     a SCHED_FIFO task on CPU 0 sleeps 1 ms with timer_slack 1 ns:
 *             how late it wakes (timer interrupt entry, hrtimer expiry,
 *             wakeup and switch to it; the spread is the entry jitter)
 *   slack     the same as a normal task with the default 50 us slack
 *
 * Prints p10, p50, p90 and p99 in ns for each.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define N 2000

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void print(const char *what, long long *d, int n)
{
	qsort(d, (size_t)n, sizeof(*d), cmp);
	printf("%-8s p10 %8lld p50 %8lld p90 %8lld p99 %8lld ns\n", what, d[n / 10], d[n / 2], d[n * 9 / 10],
	       d[n * 99 / 100]);
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void sleep_lateness(const char *what, int fifo, unsigned long slack)
{
	static long long d[N];
	struct sched_param sp = { .sched_priority = fifo ? 50 : 0 };

	sched_setscheduler(0, fifo ? SCHED_FIFO : SCHED_OTHER, &sp);
	prctl(PR_SET_TIMERSLACK, slack);
	for (int i = 0; i < N; i++) {
		struct timespec r = { 0, 1000000 };
		long long a = now_ns();

		nanosleep(&r, NULL);
		d[i] = now_ns() - a - 1000000;
	}
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	prctl(PR_SET_TIMERSLACK, 50000UL);
	print(what, d, N);
}

int main(void)
{
	FILE *la = fopen("/proc/loadavg", "r");
	char load[128] = "?";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (la && fgets(load, sizeof(load), la))
		fclose(la);
	printf("# %ld CPUs; load %s", sysconf(_SC_NPROCESSORS_ONLN), load);
	pin(0);
	sleep_lateness("timer", 1, 1);
	sleep_lateness("slack", 0, 50000);
	return 0;
}
