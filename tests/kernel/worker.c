// SPDX-License-Identifier: GPL-2.0
/*
 * One task of a ground-truth experiment (tests/kernel/truth.py): spins
 * forever (worker 0 0), or loops "run RUN_NS of CPU time; sleep SLEEP_NS"
 * as a scenario's `loop { run R; sleep S }` does: R of CPU time, spent in
 * user space only, as a scenario's `run` is.
 *
 * The thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) is not read while
 * running: it is a system call, and its task_sched_runtime() calls the
 * class's update_curr(), so a task polling it has its slice checked every
 * few microseconds and is preempted the moment its request or protection
 * ends, where a task that only computes waits for the next tick. Instead
 * the monotonic clock (the vDSO's: no kernel entry) is summed over steps
 * short enough that the task cannot have left the CPU in between.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* A longer step between two reads: the task was off the CPU (preempted, or an interrupt). */
#define OFF_CPU_NS 5000

static long long mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void spin(long long run)
{
	long long done = 0, last = mono_ns();

	while (!run || done < run) {
		long long now = mono_ns();

		if (now - last < OFF_CPU_NS)
			done += now - last;
		last = now;
	}
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
		spin(run);
		struct timespec ts = { sleep_ns / 1000000000LL, sleep_ns % 1000000000LL };
		nanosleep(&ts, NULL);
	}
}
