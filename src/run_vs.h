/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `run`'s side B (--vs, --vs-set, --vs-param, or the scenario's `vs`
 * lines): a second engine run to the same end, its report after A's, its
 * trace in the same Perfetto file, and the `expect diff` lines checked on
 * the two.
 */
#ifndef SRC_RUN_VS_H
#define SRC_RUN_VS_H

#include "sched/api/history.h"
#include "cli.h"
#include "src/trace/trace_perfetto.h"

struct run_vs;

/*
 * Side B of scenario a (read from a_path with the command line's sets), or
 * NULL in *out when there is none. Statistics over [from, to) and each
 * `expect diff` window. 2 (printed) on error.
 */
int run_vs_start(struct run_vs **out, const char *a_path, const struct cli_sets *sets,
		 const struct variant *v, const struct scenario_file *a, u64 from, u64 to);
/* "A: stock", "B: kernel 6.1" (side 0, 1). */
const char *run_vs_label(const struct run_vs *vs, int side);
/* A's events, for the difference: a sched_event_fn on A's engine or history. */
void run_vs_event_a(void *vs, const struct sched_event *ev);
/* Write B into a's Perfetto document (run_vs_close_trace() before a is closed). */
void run_vs_trace(struct run_vs *vs, struct trace_perfetto *a, const struct trace_perfetto_opts *ao);
/*
 * Run B to `end` (where A stopped, after a Ctrl-C) and close both sides'
 * statistics (A's at a_now). A Ctrl-C while B runs stops it there.
 */
void run_vs_run(struct run_vs *vs, u64 end, u64 a_now);
/* The `expect diff` verdicts, printed; how many failed. */
int run_vs_check(struct run_vs *vs, FILE *out);
/* B's text report, under its label. */
void run_vs_report_text(struct run_vs *vs, FILE *out, u64 wall_ns);
/* -1 when writing B's trace failed. */
int run_vs_close_trace(struct run_vs *vs);
void run_vs_free(struct run_vs *vs);

#endif
