/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmarks (tests/bench/bench_*.c) share: the clock, the
 * repetition count and its -q switch, the reference loads, and the stream
 * consumer every run attaches. A failure prints "bench: ..." and exits 1.
 */
#ifndef TESTS_BENCH_UTIL_H
#define TESTS_BENCH_UTIL_H

#include "sched/api/sched.h"
#include "src/base/mem.h"
#include "src/format/scenario_file.h"

/* Each figure is run bench_reps times (REPS, or 1 with -q); the best counts. */
#define REPS 3
extern int bench_reps;

/* CLOCK_MONOTONIC in seconds. */
double now_sec(void);


/*
 * The reference loads, as scenario text: 4 packages x 4 cores with 100 hogs
 * and 100 `loop { run 1ms; sleep 9ms }` tasks, and a server-256-like machine
 * (2 packages x 64 cores x 2 threads) with 1000 + 1000; HZ 250, EEVDF.
 * dur is a string literal ("60s").
 */
#define BENCH_LOAD_TEXT(topology, count, dur)					\
	"topology " topology "\n"						\
	"hz       250\n"							\
	"seed     1\n"								\
	"duration " dur "\n"							\
	"sched    eevdf\n"							\
	"task hog  count=" count " program=\"run forever\"\n"			\
	"task loop count=" count " program=\"loop { run 1ms; sleep 9ms }\"\n"
#define BENCH_LOAD_16CPU(dur) BENCH_LOAD_TEXT("packages=4 cores=4 threads=1", "100", dur)
#define BENCH_LOAD_256CPU(dur) BENCH_LOAD_TEXT("packages=2 cores=64 threads=2", "1000", dur)

/* scenario_parse() the text, or fail. */
void bench_parse(const char *name, const char *text, struct scenario_file *f);

/* sched_engine_create(), or fail. */
struct sched_engine *bench_engine_create(const struct sched_scenario *sc);

/* The command line of a benchmark with no option but -q; else usage, exit 2. */
void bench_args(int argc, char **argv);

/* ---- the listener: a typical stream consumer ---- */

/* Counts events (by type) and accumulates per-task CPU time from sched_switch. */
struct consumer {
	u64 nr_events;
	u64 by_type[NR_SCHED_EVENTS];
	int nr_cpus, nr_pids;
	u64 *last_switch;	/* [nr_cpus] time of the CPU's last sched_switch */
	s32 *curr_pid;		/* [nr_cpus] */
	u64 *cpu_time;		/* [nr_pids] ns on a CPU, by pid (0 = idle) */
};

void consumer_init(struct consumer *c, int nr_cpus, int nr_tasks);
void consumer_free(struct consumer *c);
/* A sched_event_fn; ctx is the consumer. */
void consume(void *ctx, const struct sched_event *ev);
/* Charge what is running at `end`, and check the books balance. */
void consumer_finish(struct consumer *c, u64 end);

#endif
