/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Breakpoints: conditions on the event stream that stop a run. One parser
 * serves the command line (--break EXPR), the console (:break EXPR) and
 * scenario files (break EXPR), so the three cannot drift apart.
 *
 * Grammar
 *
 *   at T                 the run reaches simulated time T: true on the first
 *                        event with time >= T. It hits once; it is armed again
 *                        by breakpoint_reset() (a rewind) only if the run is
 *                        then still before T.
 *   switch [cpu=LIST] [prev=PAT] [next=PAT] [task=PAT]
 *                        a sched_switch on a CPU of LIST; task= matches the
 *                        task switched out or the one switched in
 *   wakeup [task=PAT] [cpu=LIST]
 *                        sched_wakeup or sched_wakeup_new; cpu= is the CPU the
 *                        task was woken onto (the target CPU)
 *   migrate [task=PAT] [from=LIST] [to=LIST]
 *                        sched_migrate_task
 *   fork [task=PAT]      sched_process_fork; task= is the child
 *   exit [task=PAT]      sched_process_exit
 *   preempt [task=PAT] [cpu=LIST]
 *                        a sched_switch whose prev_state is R: a task switched
 *                        out while still runnable (the idle task never counts)
 *   wakeup_latency OP D [task=PAT]
 *                        a task is switched in and the time since its wakeup
 *                        compares to the duration D; OP is one of > >= < <= =.
 *                        As in the latency report: of several wakeups before
 *                        a switch-in the first counts, a wakeup of a task that
 *                        is still on its CPU starts no wait, and a task put
 *                        back after a preemption has no wakeup latency.
 *                        A task not yet seen switching since the breakpoint
 *                        was made (or reset) may be on a CPU: only its
 *                        sched_wakeup_new starts a wait, not a sched_wakeup.
 *   nice [task=PAT]      schedscope_set_nice (a nice, policy or slice change)
 *   note                 a scenario caption (schedscope_note)
 *   throttle [group=GPAT] [cpu=LIST]
 *                        a group's queue on a CPU of LIST ran out of cpu.max
 *                        runtime (schedscope_cfs_throttle)
 *   unthrottle [group=GPAT] [cpu=LIST]
 *                        it got runtime again (schedscope_cfs_unthrottle)
 *   event NAME           any event of that name (sched_event_names: sched_switch,
 *                        sched_waking, ..., schedscope_cfs_period)
 *
 *   COND and COND        both hold for the same event
 *   COND or COND         either holds; `and` binds tighter than `or`
 *   ( EXPR )             grouping
 *
 * Each key is given at most once per condition; a missing key matches
 * anything. PAT is a task name or an fnmatch() glob (`web.*`, `hog.?`),
 * quoted if it holds blanks (task="a b"); it is resolved when the breakpoint
 * is made, and a pattern that matches no task is an error. Patterns never
 * match the idle task. GPAT is a group path or a glob of one, `*` staying
 * within one level (`/batch`, `/web/api*`). LIST is a CPU list: 0, 0-3, 0,2,4-7. T and D are
 * durations with a unit: 500us, 2ms, 1.5s (0 needs none). At most
 * BREAKPOINT_MAX_CONDS conditions, nested at most BREAKPOINT_MAX_DEPTH deep.
 *
 * Examples
 *   --break 'at 2s'
 *   --break 'wakeup_latency > 4ms task=web.*'
 *   --break 'migrate task=hog.* to=4-7 or preempt task=web.0 cpu=0'
 *   --break 'at 1s and switch cpu=3 next=batch.*'
 *
 * Errors name the column and quote the text at fault, like
 * "col 8: no task matches 'wbe.*'", and make no breakpoint.
 */
#ifndef SRC_BREAKPOINT_H
#define SRC_BREAKPOINT_H

#include <stdbool.h>
#include <stddef.h>

#include "sched/api/event.h"
#include "lex.h"

#define BREAKPOINT_MAX_CONDS 64
#define BREAKPOINT_MAX_DEPTH 16

struct breakpoint;

/* What the names in a breakpoint can refer to. */
struct breakpoint_scope {
	const char *const *task_names;	/* [nr_tasks]: task i has pid i + 1 */
	int nr_tasks;
	const char *const *group_names;	/* [nr_groups]: task-group paths, NULL for none */
	int nr_groups;
	int nr_cpus;			/* CPU lists must name CPUs below this */
};

/*
 * Parse one breakpoint against a scope. On error returns NULL with
 * "col N: message 'text'" in err.
 */
struct breakpoint *breakpoint_parse(const char *text, const struct breakpoint_scope *scope, char *err,
				    size_t errlen);
/* The same from the tokens of lx up to the end of its line, which it
 * consumes (a scenario's `break` line); errors go through lx
 * ("file:line:col: ..."). */
struct breakpoint *breakpoint_parse_lex(struct lexer *lx, const struct breakpoint_scope *scope);

/*
 * Does the breakpoint hit at this event? bp is a struct breakpoint; the
 * signature fits history_run_until_event(). Feed it every event in stream
 * order: it keeps per-task wakeup times (wakeup_latency) and the state of
 * `at` conditions. O(number of conditions) per event, no allocation.
 */
bool breakpoint_test(void *bp, const struct sched_event *ev);
/*
 * Forget the wakeup times and re-arm `at` conditions: after a rewind, or
 * before feeding events that do not follow the last one tested. To know
 * again who is waiting since when, test the logged events from a little
 * before the new position (history_event()) and ignore the results; `at`
 * conditions then also know whether T is behind.
 */
void breakpoint_reset(struct breakpoint *bp);
/* The text as given, without surrounding blanks. */
const char *breakpoint_text(const struct breakpoint *bp);
/* The language's condition words (switch, balance, herd, ...): the i-th, NULL past the last. */
const char *breakpoint_cond_name(int i);
/* What may follow condition `kind` (completion): its keys as "cpu=", then
 * "moved" after balance; the i-th, NULL past the last or for no such kind. */
const char *breakpoint_cond_word(const char *kind, int i);
/* The values of a key with a fixed set (level: SMT ... NUMA): the i-th, NULL
 * past the last or when the values are names from the scope or CPU lists. */
const char *breakpoint_key_value(const char *key, int i);
void breakpoint_free(struct breakpoint *bp);

/*
 * One line on the event, e.g. "sched_switch on cpu 3: hog.1 -> web.0".
 * Given the event that breakpoint_test() last hit on, it adds why when the
 * event alone does not say: "...; wakeup latency 6ms > 4ms", "...; reached 2s".
 * task_names may be NULL (pids are printed).
 */
void breakpoint_describe(const struct breakpoint *bp, const struct sched_event *ev,
			 const char *const *task_names, char *buf, size_t len);

#endif
