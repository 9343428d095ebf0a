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
 *   switch    two processes on CPU 1 calling sched_yield() in turn, less one
 *             process yielding alone: the context switch (__schedule()'s pick
 *             and switch, both tasks normal)
 *   wakeup    two processes on CPU 1 passing a byte through two pipes, less a
 *             process writing and reading its own pipe, halved, less switch:
 *             a local try_to_wake_up() (enqueue and wakeup preemption)
 *   ipi       the same pair across CPUs 0 and 1: a remote wakeup (the
 *             reschedule IPI, or the wake list's to an idle CPU, with its
 *             idle exit), less the syscalls, switch and wakeup
 *   tick      a process spinning on CPU 1 reading the clock: the gaps of
 *             1-100 us in its time (a longer one is the host's, steal)
 *             that start from 20 us before a tick to 60 us after it
 *             (every CPU's tick comes at multiples of 1/HZ of the monotonic
 *             clock; on a VM its interrupt may arrive a few us early): what
 *             the tick takes from the running task; their mean is the cost
 *             (the p10 of every short gap, the first version's, was 1.7 us:
 *             other interrupts' gaps, not the tick's; the second's window
 *             opened 1 us before the tick and caught a quarter of them)
 *   hrtimer   a SCHED_FIFO task on CPU 1 (priority 60) sleeping to an
 *             absolute time halfway between two ticks, every other tick,
 *             preempts one spinning there (priority 50): the mean of the
 *             gaps of 1-100 us in the spinner's time that start within 60 us
 *             after those times, less two switches: what a sleep's end takes
 *             from the CPU (the hrtimer interrupt's entry and exit, expiry,
 *             try_to_wake_up(), and the sleeper's clock_nanosleep() arming
 *             the next one, which the engine charges nothing for), where the
 *             engine charges cost_wakeup; `wakeup` above is the same call
 *             made by a task, without the interrupt
 *   migrate   a process moving itself between CPUs 0 and 1 with
 *             sched_setaffinity(), less a call that keeps it where it is,
 *             less two switches (to the stopper and on the other CPU), a
 *             wakeup and ipi
 *
 * From switch on the processes are SCHED_FIFO (priority 50), so that other
 * sessions' tasks on a shared machine do not stand between them (a
 * CPU's sched_yield() alone, with nothing else of its class, does not
 * switch); the tick's spinner too, whose gaps are then interrupts only.
 *
 * Prints p10, p50, p90 and p99 in ns for each (for the differences, of the
 * first term); the line `cost` gives the differences of the p10s (the
 * tick and hrtimer: the means of their gaps), the
 * engine's defaults cost_*_ns: on a shared machine the slower runs are
 * other sessions' tasks in the way, not the kernel's own work.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Prints the percentiles; returns p10, the work without other sessions' load in its way. */
static long long print(const char *what, long long *d, int n)
{
	qsort(d, (size_t)n, sizeof(*d), cmp);
	printf("%-8s p10 %8lld p50 %8lld p90 %8lld p99 %8lld ns\n", what, d[n / 10], d[n / 2], d[n * 9 / 10],
	       d[n * 99 / 100]);
	return d[n / 10];
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

#define ROUNDS 200 /* operations per sample: a sample is their mean */

/* Per operation, ROUNDS at a time: sched_yield() alone or in a pair on CPU 1. */
static long long yield_cost(const char *what, int pair)
{
	static long long d[N / 4];
	pid_t other = -1;

	pin(1);
	if (pair) {
		other = fork();
		if (!other)
			for (;;)
				sched_yield();
	}
	for (int i = 0; i < N / 4; i++) {
		long long a = now_ns();

		for (int r = 0; r < ROUNDS; r++)
			sched_yield();
		/* with a pair, each of ours is followed by the other's: two switches */
		d[i] = (now_ns() - a) / ROUNDS / (pair ? 2 : 1);
	}
	if (pair) {
		kill(other, SIGKILL);
		waitpid(other, NULL, 0);
	}
	return print(what, d, N / 4);
}

/* One byte there and back through two pipes, the partner on cpu_b (-1: ourselves). */
static long long pipe_trip(const char *what, int cpu_a, int cpu_b)
{
	static long long d[N / 4];
	int ab[2], ba[2];
	pid_t other = -1;
	char c = 0;

	if (pipe(ab) || pipe(ba))
		return -1;
	pin(cpu_a);
	if (cpu_b >= 0) {
		other = fork();
		if (!other) {
			close(ab[1]); /* so that our parent's close ends the loop */
			pin(cpu_b);
			while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
				;
			_exit(0);
		}
	}
	for (int i = 0; i < N / 4; i++) {
		long long a = now_ns();

		for (int r = 0; r < ROUNDS; r++) {
			if (write(ab[1], &c, 1) != 1)
				return -1;
			if (read(cpu_b >= 0 ? ba[0] : ab[0], &c, 1) != 1)
				return -1;
		}
		d[i] = (now_ns() - a) / ROUNDS;
	}
	close(ab[1]);
	if (other > 0)
		waitpid(other, NULL, 0);
	close(ab[0]);
	close(ba[0]);
	close(ba[1]);
	return print(what, d, N / 4);
}

/*
 * The gaps of 1..100 us in a spinning process's time on cpu over two seconds
 * that start within 60 us after a multiple of the tick period: the ticks.
 * Their mean (ticks are cheap or dear, a few us or 15-30 us on a VM, in
 * proportions that vary: the median jumps between the two), or 0 with too
 * few.
 */
static long long tick_gaps(int cpu, long long period, int quiet)
{
	static long long d[N * 10];
	long long start = now_ns(), last = start, t;
	int n = 0;

	pin(cpu);
	while ((t = now_ns()) - start < 2000000000LL) {
		long long gap = t - last, phase = last % period;

		if (gap >= 1000 && gap <= 100000 && (phase < 60000 || phase > period - 20000) && n < N * 10)
			d[n++] = gap;
		last = t;
	}
	if (n < 10)
		return 0;
	long long sum = 0;

	for (int i = 0; i < n; i++)
		sum += d[i];
	if (!quiet) {
		printf("# tick: %d gaps at the tick in two seconds, mean %lld ns\n", n, sum / n);
		print("tick", d, n);
	}
	return sum / n;
}

/*
 * The gaps a spinner on CPU 1 sees when a higher-priority sleeper there
 * wakes by its hrtimer, halfway between ticks (away from the tick's own
 * gap): their mean, whole (interrupt, wakeup, switch to the sleeper, its
 * loop, switch back).
 */
static long long hrtimer_gaps(long long period)
{
	static long long d[N];
	long long start = now_ns(), last = start, t, at = period / 2;
	struct sched_param hi = { .sched_priority = 60 };
	int n = 0;
	pid_t sleeper;

	pin(1);
	sleeper = fork();
	if (!sleeper) {
		struct timespec ts;

		for (;;) {
			long long now = now_ns(), next = (now / period + 2) * period + at;

			ts.tv_sec = next / 1000000000LL;
			ts.tv_nsec = next % 1000000000LL;
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	/* raised from here: at our priority it would never run to raise itself */
	sched_setscheduler(sleeper, SCHED_FIFO, &hi);
	while ((t = now_ns()) - start < 2000000000LL) {
		long long gap = t - last, phase = last % period;

		if (gap >= 1000 && gap <= 100000 && phase >= at - 1000 && phase < at + 60000 && n < N)
			d[n++] = gap;
		last = t;
	}
	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
	if (n < 10)
		return 0;
	long long sum = 0;

	for (int i = 0; i < n; i++)
		sum += d[i];
	printf("# hrtimer: %d gaps at the sleeper's wakeups in two seconds, mean %lld ns\n", n, sum / n);
	print("hrtimer", d, n);
	return sum / n;
}

/* sched_setaffinity() to the other CPU (move) or the same one (stay). */
static long long affinity_cost(const char *what, int move)
{
	static long long d[N];

	pin(0);
	for (int i = 0; i < N; i++) {
		cpu_set_t s;
		int to = move ? !sched_getcpu() : sched_getcpu();
		long long a;

		CPU_ZERO(&s);
		CPU_SET(to, &s);
		a = now_ns();
		sched_setaffinity(0, sizeof(s), &s);
		d[i] = now_ns() - a;
	}
	return print(what, d, N);
}

int main(int argc, char **argv)
{
	FILE *la = fopen("/proc/loadavg", "r");
	char load[128] = "?";
	long long period = argc > 1 ? 1000000000LL / atoi(argv[1]) : 0;

	if (period <= 0 || argc > 3 || (argc == 3 && strcmp(argv[2], "tick"))) {
		fprintf(stderr,
			"usage: costs HZ [tick]   (tick: only the tick's mean cost on CPU 0, in ns)\n");
		return 2;
	}
	if (argc == 3) {
		/* for truth.py: a normal task on CPU 0, the experiments' CPU */
		printf("%lld\n", tick_gaps(0, period, 1));
		return 0;
	}

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (la && fgets(load, sizeof(load), la))
		fclose(la);
	printf("# %ld CPUs; load %s", sysconf(_SC_NPROCESSORS_ONLN), load);
	pin(0);
	sleep_lateness("timer", 1, 1);
	sleep_lateness("slack", 0, 50000);

	/* SCHED_FIFO from here on (children inherit it): other sessions' tasks do not get in the way */
	struct sched_param fifo = { .sched_priority = 50 };

	sched_setscheduler(0, SCHED_FIFO, &fifo);
	long long y1 = yield_cost("yield1", 0), y2 = yield_cost("yield2", 1);
	long long self = pipe_trip("pipe1", 1, -1), local = pipe_trip("pipe-l", 1, 1);
	long long remote = pipe_trip("pipe-r", 0, 1);
	long long tick = tick_gaps(1, period, 0);
	long long timer = hrtimer_gaps(period);
	long long stay = affinity_cost("aff-stay", 0), move = affinity_cost("aff-move", 1);
	long long sw = y2 - y1, wake = (local - self) / 2 - sw, ipi = (remote - self) / 2 - sw - wake;

	printf("cost switch %lld wakeup %lld hrtimer %lld ipi %lld tick %lld migrate %lld ns\n", sw, wake,
	       timer - 2 * sw, ipi, tick, move - stay - 2 * sw - wake - ipi);
	return 0;
}
