/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scenario built by hand for the engine tests (test_cfs, test_eevdf,
 * test_engine, test_pelt): ncpus CPUs of capacity 1024 on one node, tasks
 * with programs kept in the fixture, and the engine(s) made from it.
 *
 * One fixture lives at a time; fx_cleanup() (a cmocka teardown) frees it
 * even when an assertion failed half-way through a test.
 */
#ifndef SCHEDSCOPE_TESTS_FIXTURE_H
#define SCHEDSCOPE_TESTS_FIXTURE_H

#include <stdio.h>

#include "sched/internal.h"

#define FX_MAX_CPUS 16
#define FX_MAX_TASKS 24
#define FX_MAX_INSNS 8
#define FX_MAX_GROUPS 8

struct fx {
	struct sched_topo_cpu cpu[FX_MAX_CPUS];
	u32 dist;
	struct sched_topology topo;
	struct prog_insn forever_insn;
	struct sched_program forever;
	struct prog_insn insn[FX_MAX_TASKS][FX_MAX_INSNS];
	struct sched_program prog[FX_MAX_TASKS];
	struct sched_task_spec task[FX_MAX_TASKS];
	s32 wake_list[FX_MAX_TASKS];
	struct sched_action action[8];
	struct sched_note note[2];
	struct sched_group_spec group[FX_MAX_GROUPS];
	struct sched_irq_spec irq[4];
	struct sched_scenario sc;
	struct sched_engine *e, *e2;	/* freed with the fixture */
};

/* ncpus CPUs, HZ 1000, seed 1, 60 s; no tasks yet. */
struct fx *fx_new(int ncpus, int kernel, int variant);

/* The next task, "t<i>": prog NULL = run forever; pin < 0 = any CPU. */
struct sched_task_spec *fx_add_task(struct fx *f, int nice, int policy, int pin,
				    const struct sched_program *prog);

/* A task pinned to CPU 0; prog NULL = run forever. Returns its index. */
int fx_task(struct fx *f, int nice, int policy, u64 slice, u64 start,
	    const struct sched_program *prog);

/* A task group below `parent` (0 = the root, created with the first group):
 * shares unscaled, quota RUNTIME_INF for none. Returns its index. */
int fx_group(struct fx *f, int parent, u64 shares, u64 quota, u64 period, u64 burst);

/* An interrupt (or, with steal, steal-time) source on cpu: every and cost constant. */
void fx_irq(struct fx *f, int cpu, bool steal, u64 every, u64 cost);

/* Program slot `slot`: a copy of insn[0..n). */
const struct sched_program *fx_program(struct fx *f, int slot, const struct prog_insn *insn,
				       int n, int nr_loops);

/* An engine for the scenario as it stands (fails the test if refused). */
struct sched_engine *fx_engine(struct fx *f);

/* f->e = fx_engine(f), made the current engine. */
struct sched_engine *fx_start(struct fx *f);

/* fx_start(), run to `until`; run[i] = task i's CPU time (i < n). Returns their sum. */
u64 fx_run_times(struct fx *f, int n, u64 until, u64 *run);

void fx_free(struct fx *f);

/* Teardown: frees the fixture in use, if any. */
int fx_cleanup(void **state);

/* Task i's task_struct (for the engine's internals). */
struct task_struct *T(struct sched_engine *e, int i);

/* ---- synthetic events, for the tests of what reads the stream ---- */

/* A zeroed event of this type at time t on cpu. */
struct sched_event fx_event(u64 t, int type, int cpu);
/* sched_waking / sched_wakeup / sched_wakeup_new of pid, prio 120. */
struct sched_event fx_wake_event(u64 t, int type, int cpu, int pid, int target_cpu);
/* Everything written to f so far, NUL-terminated (caller frees). */
char *fx_read_all(FILE *f);

#endif
