/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Importing a recorded scheduler trace as a scenario: ftrace text (as
 * /sys/kernel/tracing/trace prints it), `trace-cmd report` text (plugin and
 * raw -R forms) and `perf script` output of the sched tracepoints.
 *
 * import_trace_line.c reads one line into a trace_rec; import_trace.c
 * replays the records per task and writes the task programs.
 */
#ifndef SRC_IMPORT_TRACE_H
#define SRC_IMPORT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sched/api/scenario.h"
#include "sched/api/types.h"

enum trace_format { TRACE_FTRACE, TRACE_TRACE_CMD, TRACE_PERF };

extern const char *const trace_format_names[];

/* The events the importer uses; every other line is a TREC_SKIP. */
enum trace_rec_type {
	TREC_SKIP,		/* header, comment, another tracepoint */
	TREC_LOST,		/* a "lost events" / "buffer started" marker: cpu */
	TREC_SWITCH,
	TREC_WAKING,
	TREC_WAKEUP,
	TREC_WAKEUP_NEW,
	TREC_MIGRATE,
	TREC_FORK,
	TREC_EXIT,
	TREC_CGROUP, /* cgroup:cgroup_attach_task: pid moved to path in hierarchy root */
	/* the buffer statistics `trace-cmd report --stat` prints (and per_cpu/cpuN/stats) */
	TREC_STAT_CPU,	/* "CPU: N": the statistics below are CPU N's */
	TREC_STAT_NOW,	/* "now ts: S.F": when they were taken, the recording's end */
	TREC_STAT_LOST, /* "overrun: N", "dropped events: N": N events lost */
};

/* The kernel's comm is 15 bytes; perf and tools may print a little more. */
#define TRACE_COMM_MAX 64

/* What a sched_switch's prev_state says of the task leaving the CPU. */
enum { TSTATE_RUNNABLE = 'R', TSTATE_BLOCKED = 'S', TSTATE_DEAD = 'X' };

struct trace_rec {
	int type;		/* enum trace_rec_type */
	int cpu;		/* the CPU the event was recorded on */
	u64 ts;			/* ns */
	int ts_col;		/* where the timestamp starts, from 1 */
	int ctx_pid;		/* who ran on that CPU when it fired */
	char ctx_comm[TRACE_COMM_MAX];
	bool irq;		/* fired in hardirq/softirq/NMI context (flags column) */
	/* switch: prev; fork: parent; the others: the task the event names */
	int pid, prio;
	char comm[TRACE_COMM_MAX];
	char state;		/* switch: TSTATE_* */
	/* switch: next; fork: child */
	int pid2, prio2;
	char comm2[TRACE_COMM_MAX];
	int target_cpu;		/* wakeups: target_cpu; migrate: dest_cpu */
	int nr_cpus;		/* a header's CPU count (#P:N, cpus=N), else 0 */
	int root;		/* cgroup: the hierarchy (dst_root) */
	char path[SCHED_GROUP_PATH_LEN]; /* cgroup: dst_path, cut to what a scenario holds */
	bool path_cut;			 /* ... and it was longer */
	u64 nr_lost;			 /* TREC_STAT_LOST */
};

/*
 * Read one line (without its newline) of a trace in format fmt. Returns 1
 * with *r filled for an event, 0 for a line to skip (r->type TREC_SKIP, or
 * TREC_LOST / r->nr_cpus for the headers that say so), or -1 with the byte
 * column (from 1) in *col and the reason in err.
 */
int trace_parse_line(enum trace_format fmt, const char *line, size_t len, struct trace_rec *r,
		     int *col, char *err, size_t errlen);

struct import_trace_opts {
	bool keep_idle;		/* each CPU's idle task (pid 0) as a task */
	bool keep_tracer;	/* trace-cmd and perf threads */
	bool pin;		/* cpus= the CPUs each task was seen running on */
	const char *leave_out;	/* comm globs, separated by commas: tasks left out like the tracer's */
	bool has_cgroup_root;	/* cgroup_root given; else it is told from the trace */
	int cgroup_root;	/* the cpu controller's cgroup hierarchy (/proc/cgroups) */
};

/*
 * Turn the trace `text` (named `name` in messages) into scenario text,
 * returned in *out (malloc'd, NUL-terminated). Repairs are reported on
 * `warn` (may be NULL) as "name:line: warning: ...". Returns 0, or -1 with
 * "name:line:col: message" in err and *out NULL.
 */
int import_trace(const char *name, const char *text, size_t len, enum trace_format fmt,
		 const struct import_trace_opts *o, char **out, FILE *warn, char *err,
		 size_t errlen);

#endif
