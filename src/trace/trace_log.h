/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traces of an engine's run: the writers' options filled in for an engine
 * (names of tasks, notes, groups and interrupts from its scenario), and a
 * trace streamed to a file as a run goes (the console's `trace`).
 */
#ifndef SRC_TRACE_LOG_H
#define SRC_TRACE_LOG_H

#include "sched/api/history.h"
#include "trace_ftrace.h"
#include "trace_perfetto.h"

void trace_ftrace_opts_for(struct trace_ftrace_opts *o, struct sched_engine *e);
/* With live: the counters that need the engine's state now (load, util,
 * vruntime) are read from it, which only a trace written as the run goes can do. */
void trace_perfetto_opts_for(struct trace_perfetto_opts *o, struct sched_engine *e, bool live);

/*
 * A trace written as a run goes, the way `run --trace` writes one: Perfetto
 * JSON if path ends in .json (with the counters read from e's state as
 * each event is delivered), ftrace text otherwise; events with time in
 * [from, to), to 0 for no end. The file is written whole or not at all (src/base/outfile.h).
 * Memory does not grow with the trace.
 */
struct trace_stream;

/* NULL with a message in err ("PATH: cannot write: REASON"). */
struct trace_stream *trace_stream_open(const char *path, struct sched_engine *e, u64 from, u64 to, char *err,
				       size_t errlen);
/* A sched_event_fn for e's events, or its history's. */
void trace_stream_event(void *ts, const struct sched_event *ev);
/* Finish at time `end` (the run's last) and put the file in place: 0 with
 * *written (the records), or -1 with a message in err. Frees ts. */
int trace_stream_close(struct trace_stream *ts, u64 end, u64 *written, char *err, size_t errlen);
/* Give up: the old file stays. Frees ts. */
void trace_stream_abort(struct trace_stream *ts);

#endif
