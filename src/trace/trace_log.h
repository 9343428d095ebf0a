/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traces of an engine's run: the writers' options filled in for an engine
 * (names of tasks, notes, groups and interrupts from its scenario), and a
 * trace written from the event log of a history (the console's `trace`).
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
 * Write the logged events with time in [from, to) to path (Perfetto JSON if
 * it ends in .json, ftrace text otherwise). 0 with *written set, or -1 with
 * a message in err.
 */
int trace_write_log(const char *path, struct sched_engine *e, struct sched_history *h, u64 from, u64 to,
		    u64 *written, char *err, size_t errlen);

#endif
