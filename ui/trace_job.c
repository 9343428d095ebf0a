// SPDX-License-Identifier: GPL-2.0
/* The console's `trace`, written in the background: see trace_job.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/base/mem.h"
#include "src/trace/trace_log.h"
#include "commands.h"
#include "trace_job.h"

struct trace_job {
	struct sched_engine *e;
	struct sched_history *h; /* replays the branch's commands */
	struct trace_stream *ts;
	u64 until; /* the last time written */
	bool done;
	char path[256];
};

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static void job_free(struct ui *ui)
{
	struct trace_job *j = ui->trace;

	history_destroy(j->h);
	sched_engine_destroy(j->e);
	free(j);
	ui->trace = NULL;
}

int ui_trace_start(struct ui *ui, struct ui_run *run, const char *path, u64 from, u64 to)
{
	struct trace_job *j;
	char err[512];

	/* one at a time: the one before is written to its end first */
	if (ui->trace) {
		ui_trace_finish(ui);
		if (ui->message_is_error)
			return -1;
	}
	j = xcalloc(1, sizeof(*j));
	ui->trace = j;
	snprintf(j->path, sizeof(j->path), "%s", path);
	j->until = to ? MIN(to - 1, sched_now(run->e)) : sched_now(run->e);
	j->e = sched_engine_create(&run->f->sc, err, sizeof(err));
	if (!j->e) {
		job_free(ui);
		ui_error(ui, "trace: %s", err);
		return -1;
	}
	j->h = history_create(j->e, history_min_budget(j->e));
	history_copy_branch(j->h, run->h, history_current_branch(run->h));
	j->ts = trace_stream_open(path, j->e, from, to, err, sizeof(err));
	if (!j->ts) {
		job_free(ui);
		ui_error(ui, "trace: %s", err);
		return -1;
	}
	history_add_listener(j->h, trace_stream_event, j->ts);
	ui_message(ui, "trace: writing %s in the background", path);
	return 0;
}

static void job_close(struct ui *ui)
{
	struct trace_job *j = ui->trace;
	u64 written, end = sched_now(j->e);
	char err[512], t[32];

	if (trace_stream_close(j->ts, end, &written, err, sizeof(err)))
		ui_error(ui, "trace: %s", err);
	else
		ui_message(ui, "trace: %llu records to %s (up to %s)", (unsigned long long)written, j->path,
			   ui_time_text(end, t, sizeof(t)));
	job_free(ui);
}

bool ui_trace_advance(struct ui *ui, u64 deadline_ns)
{
	struct trace_job *j = ui->trace;

	if (!j)
		return false;
	/* a millisecond of simulated time at a time, so the deadline is seen often */
	while (!j->done) {
		u64 t = MIN(j->until, sched_now(j->e) + NSEC_PER_MSEC);

		history_run_until(j->h, t);
		j->done = t == j->until || sched_finished(j->e);
		if (!j->done && wall_ns() >= deadline_ns)
			return true;
	}
	job_close(ui);
	return false;
}

void ui_trace_finish(struct ui *ui)
{
	while (ui_trace_advance(ui, UINT64_MAX))
		;
}

void ui_trace_abort(struct ui *ui)
{
	if (!ui->trace)
		return;
	trace_stream_abort(ui->trace->ts);
	job_free(ui);
}

int ui_trace_progress(const struct ui *ui)
{
	const struct trace_job *j = ui->trace;

	if (!j)
		return -1;
	return j->until ? (int)(MIN(sched_now(j->e), j->until) * 100 / j->until) : 0;
}
