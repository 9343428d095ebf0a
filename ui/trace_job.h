/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console's `trace` (struct trace_job in ui.h): a second engine over
 * the same scenario, with the commands of the branch being followed,
 * replays the run from its start in the background, between frames, into
 * a trace stream (src/trace/trace_log.h). That is the path `run --trace`
 * takes: the Perfetto counters are there, and memory does not grow with
 * the trace (the second engine's history keeps only its smallest budget).
 */
#ifndef UI_TRACE_JOB_H
#define UI_TRACE_JOB_H

#include "ui.h"

/* Start writing run's events with time in [from, to) (to 0: no end) up to
 * its current position to path, after finishing the one being written if
 * any. 0, or -1 after ui_error() (the file untouched). */
int ui_trace_start(struct ui *ui, struct ui_run *run, const char *path, u64 from, u64 to);
/* Write on until the wall clock (CLOCK_MONOTONIC) reads deadline_ns or the
 * trace is done (ui_message() then); true while one is being written. */
bool ui_trace_advance(struct ui *ui, u64 deadline_ns);
/* Write the one being written to its end (scripts, quitting). */
void ui_trace_finish(struct ui *ui);
/* Give up the one being written; the old file stays. */
void ui_trace_abort(struct ui *ui);
/* How far the one being written is, 0..100; -1 when none is. */
int ui_trace_progress(const struct ui *ui);

#endif
