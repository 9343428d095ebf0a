// SPDX-License-Identifier: GPL-2.0
/*
 * One task of a ground-truth experiment (tests/kernel/truth.py): spins
 * forever (worker 0 0), or loops "run RUN_NS of CPU time; sleep SLEEP_NS"
 * as a scenario's `loop { run R; sleep S }` does. CPU time is the thread's
 * own clock, so time spent waiting for the CPU does not count as running.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long long run, sleep_ns;

	if (argc != 3) {
		fprintf(stderr, "usage: worker RUN_NS SLEEP_NS (0 0: spin forever)\n");
		return 2;
	}
	run = atoll(argv[1]);
	sleep_ns = atoll(argv[2]);
	for (;;) {
		long long end = thread_ns() + run;

		while (!run || thread_ns() < end)
			;
		struct timespec ts = { sleep_ns / 1000000000LL, sleep_ns % 1000000000LL };
		nanosleep(&ts, NULL);
	}
}
