// SPDX-License-Identifier: GPL-2.0
/* Traces of an engine's run: see trace_log.h. */
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "src/base/outfile.h"
#include "trace_log.h"

static const char *trace_comm(void *ctx, int pid, int cpu)
{
	return sched_comm(ctx, pid, cpu);
}

static const char *trace_note(void *ctx, u32 index)
{
	const struct sched_scenario *sc = sched_scenario_of(ctx);

	return index < (u32)sc->nr_notes ? sc->note[index].text : NULL;
}

static const char *trace_group(void *ctx, int index)
{
	const struct sched_scenario *sc = sched_scenario_of(ctx);

	return index >= 0 && index < sc->nr_groups ? sc->group[index].path : NULL;
}

static const char *trace_irq_name(void *ctx, int index)
{
	const struct sched_scenario *sc = sched_scenario_of(ctx);

	return index >= 0 && index < sc->nr_irqs ? sc->irq[index].name : NULL;
}

static const char *trace_text(void *ctx, u32 id)
{
	return sched_text(ctx, id);
}

static void trace_cpu_info(void *ctx, int cpu, struct sched_cpu_info *out)
{
	sched_cpu_info(ctx, cpu, out);
}

static bool trace_task_info(void *ctx, int pid, struct sched_task_info *out)
{
	int task = sched_task_by_pid(ctx, pid);

	if (task < 0)
		return false;
	sched_task_info(ctx, task, out);
	return true;
}

void trace_ftrace_opts_for(struct trace_ftrace_opts *o, struct sched_engine *e)
{
	*o = (struct trace_ftrace_opts){
		.nr_cpus = sched_nr_cpus(e),
		.kernel = sched_kernel_version(e),
		.comm = trace_comm,
		.note = trace_note,
		.group = trace_group,
		.irq_name = trace_irq_name,
		.text = trace_text,
		.ctx = e,
	};
}

void trace_perfetto_opts_for(struct trace_perfetto_opts *o, struct sched_engine *e, bool live)
{
	*o = (struct trace_perfetto_opts){
		.nr_cpus = sched_nr_cpus(e),
		.comm = trace_comm,
		.note = trace_note,
		.group = trace_group,
		.text = trace_text,
		.cpu_info = live ? trace_cpu_info : NULL,
		.task_info = live ? trace_task_info : NULL,
		.ctx = e,
	};
}

struct trace_stream {
	struct outfile out;
	struct trace_perfetto *pw;
	struct trace_ftrace *tw;
	u64 from, to, last;
};

struct trace_stream *trace_stream_open(const char *path, struct sched_engine *e, u64 from, u64 to, char *err,
				       size_t errlen)
{
	struct trace_stream *ts = xcalloc(1, sizeof(*ts));

	ts->from = ts->last = from;
	ts->to = to ? to : UINT64_MAX;
	if (outfile_open_quiet(&ts->out, path, err, errlen)) {
		free(ts);
		return NULL;
	}
	if (trace_perfetto_wanted(path)) {
		struct trace_perfetto_opts po;

		trace_perfetto_opts_for(&po, e, true);
		po.from = from;
		po.to = to;
		ts->pw = trace_perfetto_open(ts->out.f, &po);
	} else {
		struct trace_ftrace_opts fo;

		trace_ftrace_opts_for(&fo, e);
		ts->tw = trace_ftrace_open(ts->out.f, &fo);
	}
	return ts;
}

void trace_stream_event(void *ctx, const struct sched_event *ev)
{
	struct trace_stream *ts = ctx;

	if (ev->time >= ts->to)
		return;
	/* the Perfetto writer clips to its window itself (it needs the state before it) */
	if (ts->pw)
		trace_perfetto_event(ts->pw, ev);
	else if (ev->time >= ts->from)
		trace_ftrace_event(ts->tw, ev);
	ts->last = ev->time;
}

int trace_stream_close(struct trace_stream *ts, u64 end, u64 *written, char *err, size_t errlen)
{
	bool pw = ts->pw;
	int r;

	if (pw) {
		*written = trace_perfetto_entries(ts->pw);
		r = trace_perfetto_close(ts->pw, MAX(ts->last, MIN(ts->to, end)));
	} else {
		*written = trace_ftrace_entries(ts->tw);
		r = trace_ftrace_close(ts->tw);
	}
	if (r && !ferror(ts->out.f)) {
		snprintf(err, errlen, "%s: cannot write: the trace writer failed", ts->out.path);
		outfile_abort(&ts->out);
		free(ts);
		return -1;
	}
	r = outfile_commit_quiet(&ts->out, err, errlen);
	free(ts);
	return r;
}

void trace_stream_abort(struct trace_stream *ts)
{
	if (!ts)
		return;
	if (ts->pw)
		trace_perfetto_close(ts->pw, ts->last);
	else
		trace_ftrace_close(ts->tw);
	outfile_abort(&ts->out);
	free(ts);
}
