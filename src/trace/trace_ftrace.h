/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event stream as ftrace text, laid out as /sys/kernel/tracing/trace
 * prints it on a current kernel (nop tracer, sched events enabled), so the
 * tools that read such text (trace-cmd-style scripts, Perfetto's text
 * importer, perf-free eyeballing) read a simulated run too:
 *
 *	# tracer: nop
 *	#
 *	# entries-in-buffer/entries-written: 2/2   #P:2
 *	...
 *	          <idle>-0       [000] d..2.     0.004000: sched_switch: prev_comm=swapper/0 ...
 *
 * Tracepoint fields follow the TP_printk() of the kernel release the
 * scenario simulates (sched_stat_runtime lost vruntime in 6.8,
 * sched_process_exit gained group_dead in 6.16). The flags column is
 * nominal: the simulator has no interrupts, so it shows the context the
 * kernel emits each tracepoint from (irqs off and the preempt depth under
 * the runqueue lock for sched_switch, and so on). Names are cut to 15
 * characters as the kernel's comm[16] cuts them, unless full_comm is set.
 *
 * The writer needs no engine: names come from a callback. The output
 * depends only on the events and the options (no clock, no pointers).
 */
#ifndef SRC_TRACE_FTRACE_H
#define SRC_TRACE_FTRACE_H

#include <stdio.h>

#include "sched/api/event.h"

struct trace_ftrace_opts {
	int nr_cpus;		/* the #P: of the header; CPUs outside it show <idle> */
	int kernel;		/* KV(major, minor) whose formats to print; 0 = the latest */
	bool full_comm;		/* print names longer than the kernel's 15 characters */
	/* Name of a task ("swapper/N" for pid 0 on cpu N); NULL prints "<...>". */
	const char *(*comm)(void *ctx, int pid, int cpu);
	/* Text of scenario note `index`, optional (without it only the index is printed). */
	const char *(*note)(void *ctx, u32 index);
	/* Path of task group `index`, optional (without it the index is printed). */
	const char *(*group)(void *ctx, int index);
	/* Name of interrupt source `index` (irq_handler_entry's name=), optional. */
	const char *(*irq_name)(void *ctx, int index);
	/* A text an ext event refers to (sched_text()), optional. */
	const char *(*text)(void *ctx, u32 id);
	void *ctx;
};

struct trace_ftrace;

/*
 * Write the header to f and return a writer, NULL when out of memory. The
 * entry count in the header is patched in by trace_ftrace_close() when f is
 * seekable; on a pipe it stays 0/0 (padded with spaces to a fixed width).
 */
struct trace_ftrace *trace_ftrace_open(FILE *f, const struct trace_ftrace_opts *o);
/* A sched_event_fn: one line per event. */
void trace_ftrace_event(void *w, const struct sched_event *ev);
/* One event's fields as a trace line prints them (what follows "name: "), into buf. */
void trace_ftrace_fields(const struct trace_ftrace_opts *o, const struct sched_event *ev, char *buf,
			size_t n);
/* Lines written so far. */
u64 trace_ftrace_entries(const struct trace_ftrace *w);
/* Patch the entry count, flush, and free the writer (f stays open).
 * 0, or -1 when writing to f failed at any point. */
int trace_ftrace_close(struct trace_ftrace *w);

#endif
