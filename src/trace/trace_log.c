// SPDX-License-Identifier: GPL-2.0
/* Traces of an engine's run: see trace_log.h. */
#include <errno.h>
#include <string.h>

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

int trace_write_log(const char *path, struct sched_engine *e, struct sched_history *h, u64 from, u64 to,
		    u64 *written, char *err, size_t errlen)
{
	u64 n = history_nr_logged(h), last = from;
	struct outfile out;
	FILE *f;
	int r;

	*written = 0;
	if (outfile_open_quiet(&out, path, err, errlen))
		return -1;
	f = out.f;
	struct trace_perfetto *pw = NULL;
	struct trace_ftrace *tw = NULL;

	if (trace_perfetto_wanted(path)) {
		struct trace_perfetto_opts po;

		trace_perfetto_opts_for(&po, e, false);
		po.from = from;
		po.to = to;
		pw = trace_perfetto_open(f, &po);
	} else {
		struct trace_ftrace_opts to_opts;

		trace_ftrace_opts_for(&to_opts, e);
		tw = trace_ftrace_open(f, &to_opts);
	}
	if (!pw && !tw) {
		outfile_abort(&out);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* the Perfetto writer clips to its window itself (it needs the state before it) */
	for (u64 seq = 0; seq < n; seq++) {
		const struct sched_event *ev = history_event(h, seq);

		if (ev->time >= to)
			break;
		if (pw)
			trace_perfetto_event(pw, ev);
		else if (ev->time >= from)
			trace_ftrace_event(tw, ev);
		last = ev->time;
	}
	if (pw) {
		*written = trace_perfetto_entries(pw);
		r = trace_perfetto_close(pw, MAX(last, MIN(to, sched_now(e))));
	} else {
		*written = trace_ftrace_entries(tw);
		r = trace_ftrace_close(tw);
	}
	if (r && !ferror(f)) {
		outfile_abort(&out);
		snprintf(err, errlen, "%s: cannot write: the trace writer failed", path);
		return -1;
	}
	return outfile_commit_quiet(&out, err, errlen);
}
