// SPDX-License-Identifier: GPL-2.0
/* Progress and Ctrl-C of a long headless run: see run_progress.h. */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "run_progress.h"

static volatile sig_atomic_t nr_interrupts;

static void on_interrupt(int sig)
{
	if (nr_interrupts) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	nr_interrupts = 1;
}

void run_catch_interrupt(void)
{
	/* an ignored SIGINT (a background job of a script) stays ignored */
	if (signal(SIGINT, SIG_IGN) != SIG_IGN)
		signal(SIGINT, on_interrupt);
}

unsigned run_interrupts(void)
{
	return (unsigned)nr_interrupts;
}

u64 run_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

#define PROGRESS_AFTER (NSEC_PER_SEC) /* a run shorter than this shows nothing */
#define PROGRESS_EVERY (NSEC_PER_SEC / 4)
#define PROGRESS_STEPS 1024 /* steps between looks at the wall clock */

void run_progress_start(struct run_progress *p, const char *what, struct sched_engine *e, u64 end)
{
	*p = (struct run_progress){ .what = what,
				    .end = end,
				    .shown = isatty(STDERR_FILENO),
				    .start = run_wall_ns(),
				    .events0 = sched_nr_events(e),
				    .interrupts0 = run_interrupts() };
	p->last = p->start;
}

/* "run: 12.345 s of 600.000 s simulated (2.1%), 1.20M events/s, ETA 0:00:45" */
static void progress_line(struct run_progress *p, struct sched_engine *e)
{
	u64 wall = run_wall_ns(), now = sched_now(e);

	if (!p->shown || wall - p->start < PROGRESS_AFTER || wall - p->last < PROGRESS_EVERY)
		return;
	p->last = wall;
	double el = (double)(wall - p->start) / 1e9;
	double rate = (double)(sched_nr_events(e) - p->events0) / el;
	double eta = now ? el * (double)(p->end - now) / (double)now : 0;
	fprintf(stderr, "\r%s: %.3f s of %.3f s simulated (%.1f%%), %.2fM events/s, ETA ", p->what,
		(double)now / 1e9, (double)p->end / 1e9, 100.0 * (double)now / (double)p->end, rate / 1e6);
	if (eta < 360000)
		fprintf(stderr, "%d:%02d:%02d\033[K", (int)eta / 3600, (int)eta / 60 % 60, (int)eta % 60);
	else
		fprintf(stderr, "%.0f days\033[K", eta / 86400);
}

bool run_progress_step(struct run_progress *p, struct sched_engine *e)
{
	if (++p->steps % PROGRESS_STEPS == 0)
		progress_line(p, e);
	return run_interrupts() == p->interrupts0;
}

void run_progress_end(struct run_progress *p)
{
	if (p->shown && p->last != p->start)
		fprintf(stderr, "\r\033[K");
}

void run_progress_until(const char *what, struct sched_engine *e, struct sched_history *h, u64 end)
{
	struct run_progress p;
	bool go_on = true;

	run_progress_start(&p, what, e, end);
	while (go_on && !sched_finished(e) && sched_next_time(e) <= end) {
		if (h)
			history_step(h);
		else
			sched_step(e);
		go_on = run_progress_step(&p, e);
	}
	run_progress_end(&p);
	if (!go_on)
		return;
	if (h)
		history_run_until(h, end);
	else
		sched_run_until(e, end);
}
