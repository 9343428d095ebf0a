// SPDX-License-Identifier: GPL-2.0
/* One process per sweep cell, `jobs` at a time (sweep_jobs.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/analysis/sweep_run.h"
#include "src/base/json.h"
#include "src/base/mem.h"
#include "sweep_jobs.h"

/* after the engine's headers: <sched.h> makes SCHED_FIFO and friends macros of the same values */
#include <sched.h>

int sweep_default_jobs(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

struct worker {
	pid_t pid;
	int fd;
	int cell;
	char *buf;
	size_t len, cap;
};

/* The child: run the cell, write it, exit. */
static void worker_main(const struct sweep_plan *p, int cell, int fd)
{
	struct sweep_cell c;
	struct json_writer j;
	FILE *f = fdopen(fd, "w");
	int rc;

	if (!f)
		exit(3);
	sweep_run_cell(p, cell, &c);
	jw_init(&j, f, JW_COMPACT);
	sweep_cell_write(&j, &c);
	rc = jw_finish(&j);
	sweep_cell_free(&c);
	/* exit(), not _exit(): the sanitizers check the worker's leaks too */
	exit(fclose(f) || rc ? 3 : 0);
}

static int start(struct sweep_results *r, struct worker *w, int cell)
{
	int fds[2];

	if (pipe(fds) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		worker_main(&r->plan, cell, fds[1]);
	}
	close(fds[1]);
	*w = (struct worker){ pid, fds[0], cell, NULL, 0, 0 };
	return 0;
}

static void died(struct sweep_cell *c, int cell, const char *why)
{
	memset(c, 0, sizeof(*c));
	c->index = cell;
	c->status = CELL_ERROR;
	c->message = xstrdup(why);
}

/* The worker's pipe is closed: reap it and read its report. */
static void finish(struct sweep_results *r, struct worker *w)
{
	struct sweep_cell c;
	char err[512], why[600];
	int status;

	close(w->fd);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		snprintf(why, sizeof(why), "the run died (signal %d, %s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
		died(&c, w->cell, why);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, sizeof(why), "the run failed (exit status %d)", WEXITSTATUS(status));
		died(&c, w->cell, why);
	} else if (sweep_cell_read(w->buf, w->len, &c, err, sizeof(err)) < 0) {
		snprintf(why, sizeof(why), "the worker's report is unreadable: %s", err);
		died(&c, w->cell, why);
	} else if (c.index != w->cell) {
		sweep_cell_free(&c);
		died(&c, w->cell, "the worker reported another cell");
	}
	if (!c.message && (c.status == CELL_NA || c.status == CELL_ERROR))
		c.message = xstrdup("?");
	r->cell[w->cell] = c;
	r->have[w->cell] = true;
	free(w->buf);
}

/* Read what there is; 1 at end of file. */
static int drain(struct worker *w)
{
	for (;;) {
		w->buf = xgrow(w->buf, &w->cap, w->len, 1, 65536);
		ssize_t n = read(w->fd, w->buf + w->len, w->cap - w->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : 1;
		if (n == 0)
			return 1;
		w->len += (size_t)n;
		/* one read per wakeup: poll says when there is more */
		return 0;
	}
}

int sweep_jobs_run(struct sweep_results *r, int jobs, sweep_done_fn done, void *ctx)
{
	struct worker *w = xcalloc((size_t)jobs, sizeof(*w));
	struct pollfd *pf = xcalloc((size_t)jobs, sizeof(*pf));
	int next = 0, running = 0, started = 0;

	for (;;) {
		/* start cells in number order: the first cells' results come first */
		while (running < jobs && next < r->plan.nr_cells) {
			int cell = next;

			if (!sweep_in_shard(cell, r->shard, r->nr_shards) || r->have[cell]) {
				next++;
				continue;
			}
			if (start(r, &w[running], cell) < 0) {
				if (!running) {
					fprintf(stderr, "schedscope: sweep: cannot start a worker: %m\n");
					free(w);
					free(pf);
					return started ? 0 : -1;
				}
				break; /* wait for one to end */
			}
			next++;
			running++;
			started++;
		}
		if (!running)
			break;
		for (int i = 0; i < running; i++)
			pf[i] = (struct pollfd){ w[i].fd, POLLIN, 0 };
		if (poll(pf, (nfds_t)running, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "schedscope: sweep: poll: %m\n");
			break;
		}
		for (int i = 0; i < running; i++) {
			if (!pf[i].revents || drain(&w[i]) == 0)
				continue;
			finish(r, &w[i]);
			int cell = w[i].cell;
			w[i] = w[--running];
			pf[i] = pf[running];
			i--;
			if (done)
				done(ctx, r, cell, running);
		}
	}
	free(w);
	free(pf);
	return 0;
}
