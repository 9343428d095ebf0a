/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event stream as Chrome/Perfetto JSON (the "Trace Event Format"), which
 * ui.perfetto.dev and chrome://tracing open directly:
 *
 *	{"traceEvents":[
 *	{"ph":"M","cat":"__metadata","name":"process_name","pid":1000000,"tid":1000000,"args":{"name":"CPUs"}},
 *	...
 *	{"ph":"X","cat":"sched","name":"hog.0","pid":1000000,"tid":1000001,"ts":4000.000,"dur":2500.125,"args":{...}},
 *	...
 *	],"otherData":{...}}
 *
 * One event per line. Two processes:
 *   "CPUs"  (pid TRACE_PERFETTO_CPUS_PID): a thread per CPU, "CPU N" (tid
 *           TRACE_PERFETTO_CPUS_PID + 1 + N), with a complete slice (ph X) per
 *           running interval of a task, named after the task; idle is not drawn.
 *           Counters "CPU N nr_running", "CPU N load_avg", "CPU N util_avg".
 *           Migrations: an instant "migrate" on the source CPU at the migration
 *           and a flow arrow (ph s, there) to the task's next switch-in on the
 *           destination CPU (ph f, no bp: it binds to the slice starting there).
 *   "Tasks" (pid TRACE_PERFETTO_TASKS_PID): a thread per task (tid = its pid)
 *           with "Running on CPU N" and "Runnable" slices, wakeup and exit
 *           instants, and for the selected tasks counters "NAME vruntime",
 *           "NAME lag" and "NAME deadline" sampled at each of their switches.
 * Scenario notes and commands are global instants (s "g").
 *
 * ts and dur are microseconds with three decimals: nanoseconds are kept.
 * Slices are written when they end, so the array is in stream order and
 * not sorted by ts (the format allows it). Only what lies in the window
 * [from, to) is written; slices crossing its edges are clipped, and every
 * counter gets its value at `from`.
 *
 * Like the ftrace writer, it needs no engine: names, and the CPU and task
 * state for the counters, come from callbacks. Without cpu_info, nr_running
 * is counted from the events (a task counts from its wakeup to the switch
 * that blocks it) and load/util are not written. The output depends only on
 * the events, the options and what the callbacks return.
 */
#ifndef SRC_TRACE_PERFETTO_H
#define SRC_TRACE_PERFETTO_H

#include <stdio.h>

#include "sched/api/sched.h"

#define TRACE_PERFETTO_CPUS_PID 1000000
#define TRACE_PERFETTO_TASKS_PID 2000000
/* load_avg/util_avg: at most one sample per CPU per this much simulated time. */
#define TRACE_PERFETTO_SAMPLE_NS 1000000ull

struct trace_perfetto_opts {
	int nr_cpus;
	u64 from, to;		/* the window [from, to); to == 0: no end */
	/* Tasks whose vruntime/lag/deadline to chart: globs, comma-separated; NULL = none. */
	const char *tasks;
	/* Name of a task; NULL writes "pid N". */
	const char *(*comm)(void *ctx, int pid, int cpu);
	/* Text of scenario note `index`, optional. */
	const char *(*note)(void *ctx, u32 index);
	/* Path of task group `index`, optional (without it the index is printed). */
	const char *(*group)(void *ctx, int index);
	/* A text an ext event refers to (sched_text()), optional. */
	const char *(*text)(void *ctx, u32 id);
	/* The state now, optional: called while the event is being delivered. */
	void (*cpu_info)(void *ctx, int cpu, struct sched_cpu_info *out);
	bool (*task_info)(void *ctx, int pid, struct sched_task_info *out);
	void *ctx;
	/*
	 * Two runs on one time axis (run --vs): the second writer puts its events
	 * into the document of `share` (which opened it and closes it, after this
	 * one is closed), under processes of its own: every pid and tid shifted by
	 * pid_offset, the process names followed by " (label)".
	 */
	struct trace_perfetto *share;
	int pid_offset;
	const char *label;
};

/* pid_offset of run --vs's side B. */
#define TRACE_PERFETTO_SIDE_B_OFFSET 4000000

struct trace_perfetto;

/* Write the opening and the CPU metadata to f. */
struct trace_perfetto *trace_perfetto_open(FILE *f, const struct trace_perfetto_opts *o);
/* A sched_event_fn. */
void trace_perfetto_event(void *w, const struct sched_event *ev);
/* Trace events written so far. */
u64 trace_perfetto_entries(const struct trace_perfetto *w);
/*
 * End the slices still open at `end` (the run's last time), close the
 * document, flush, and free the writer (f stays open).
 * 0, or -1 when writing to f failed at any point.
 */
int trace_perfetto_close(struct trace_perfetto *w, u64 end);

/* Does the trace file name ask for this format (ends in ".json")? */
bool trace_perfetto_wanted(const char *path);

#endif
