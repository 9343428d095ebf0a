// SPDX-License-Identifier: GPL-2.0
/* The hand-built scenario shared by the engine tests (see fixture.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static struct fx *live_fx;

struct fx *fx_new(int ncpus, int kernel, int variant)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_null(live_fx);
	assert_in_range(ncpus, 1, FX_MAX_CPUS);
	live_fx = f;
	f->dist = 10;
	f->topo.nr_cpus = ncpus;
	f->topo.cpu = f->cpu;
	f->topo.nr_nodes = 1;
	f->topo.distance = &f->dist;
	snprintf(f->topo.name, sizeof(f->topo.name), "cpus%d", ncpus);
	for (int i = 0; i < ncpus; i++)
		f->cpu[i] = (struct sched_topo_cpu){ .core = i, .capacity = 1024 };
	f->forever_insn.op = PROG_RUN_FOREVER;
	f->forever.nr_insns = 1;
	f->forever.insn = &f->forever_insn;
	f->sc.topo = &f->topo;
	f->sc.kernel = kernel;
	f->sc.variant = variant;
	f->sc.hz = 1000;
	f->sc.seed = 1;
	f->sc.duration = 60 * NSEC_PER_SEC;
	f->sc.task = f->task;
	f->sc.wake_list = f->wake_list;
	f->sc.action = f->action;
	f->sc.note = f->note;
	return f;
}

struct sched_task_spec *fx_add_task(struct fx *f, int nice, int policy, int pin,
				    const struct sched_program *prog)
{
	assert_in_range(f->sc.nr_tasks, 0, FX_MAX_TASKS - 1);

	int i = f->sc.nr_tasks++;
	struct sched_task_spec *t = &f->task[i];

	snprintf(t->name, sizeof(t->name), "t%d", i);
	t->nice = nice;
	t->policy = policy;
	t->prog = prog ? prog : &f->forever;
	if (pin >= 0) {
		t->has_cpus = true;
		cpumask_set(&t->cpus, pin);
	}
	return t;
}

int fx_task(struct fx *f, int nice, int policy, u64 slice, u64 start,
	    const struct sched_program *prog)
{
	struct sched_task_spec *t = fx_add_task(f, nice, policy, 0, prog);

	t->slice = slice;
	t->start = start;
	return (int)(t - f->task);
}

int fx_group(struct fx *f, int parent, u64 shares, u64 quota, u64 period, u64 burst)
{
	if (!f->sc.nr_groups) {
		f->group[0] = (struct sched_group_spec){ "/", -1, 1024, false, RUNTIME_INF,
							 100 * NSEC_PER_MSEC, 0, 0 };
		f->sc.group = f->group;
		f->sc.nr_groups = 1;
	}
	assert_in_range(f->sc.nr_groups, 1, FX_MAX_GROUPS - 1);
	int g = f->sc.nr_groups++;
	f->group[g] = (struct sched_group_spec){ .parent = parent, .shares = shares, .quota = quota,
						 .period = period, .burst = burst };
	snprintf(f->group[g].path, sizeof(f->group[g].path), "/g%d", g);
	return g;
}

void fx_irq(struct fx *f, int cpu, bool steal, u64 every, u64 cost)
{
	assert_in_range(f->sc.nr_irqs, 0, 3);
	f->irq[f->sc.nr_irqs] = (struct sched_irq_spec){ .cpu = cpu, .steal = steal, .irq = 24, .name = "t",
							 .every = { DIST_CONST, every, 0 },
							 .cost = { DIST_CONST, cost, 0 } };
	f->sc.irq = f->irq;
	f->sc.nr_irqs++;
}

const struct sched_program *fx_program(struct fx *f, int slot, const struct prog_insn *insn,
				       int n, int nr_loops)
{
	assert_in_range(slot, 0, FX_MAX_TASKS - 1);
	assert_in_range(n, 1, FX_MAX_INSNS);
	memcpy(f->insn[slot], insn, (size_t)n * sizeof(*insn));
	f->prog[slot] = (struct sched_program){ .nr_insns = n, .insn = f->insn[slot],
						.nr_loops = nr_loops };
	return &f->prog[slot];
}

#ifdef SCHEDSCOPE_CHECK_INVARIANTS
/* The sanitizer build checks the engine's invariants in every test. */
static void fx_invariant_violated(void *ctx, const char *msg)
{
	(void)ctx;
	fail_msg("%s", msg);
}
#endif

struct sched_engine *fx_engine(struct fx *f)
{
	char err[256];
	struct sched_engine *e = sched_engine_create(&f->sc, err, sizeof(err));

	if (!e)
		fail_msg("sched_engine_create: %s", err);
#ifdef SCHEDSCOPE_CHECK_INVARIANTS
	sched_set_invariant_check(e, fx_invariant_violated, NULL);
#endif
	return e;
}

struct sched_engine *fx_start(struct fx *f)
{
	f->e = fx_engine(f);
	sched_enter(f->e);
	return f->e;
}

u64 fx_run_times(struct fx *f, int n, u64 until, u64 *run)
{
	struct sched_engine *e = fx_start(f);
	u64 tot = 0;

	sched_run_until(e, until);
	for (int i = 0; i < n; i++) {
		struct sched_task_info ti;
		sched_task_info(e, i, &ti);
		run[i] = ti.sum_exec_runtime;
		tot += run[i];
	}
	return tot;
}

void fx_free(struct fx *f)
{
	sched_engine_destroy(f->e);
	sched_engine_destroy(f->e2);
	free(f);
	if (live_fx == f)
		live_fx = NULL;
}

int fx_cleanup(void **state)
{
	if (live_fx)
		fx_free(live_fx);
	return 0;
}

struct task_struct *T(struct sched_engine *e, int i)
{
	return &e->st->task[i];
}

struct sched_event fx_event(u64 t, int type, int cpu)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time = t;
	ev.type = (u16)type;
	ev.cpu = (s16)cpu;
	return ev;
}

struct sched_event fx_wake_event(u64 t, int type, int cpu, int pid, int target_cpu)
{
	struct sched_event ev = fx_event(t, type, cpu);

	ev.wake.pid = pid;
	ev.wake.prio = 120;
	ev.wake.target_cpu = target_cpu;
	return ev;
}

char *fx_read_all(FILE *f)
{
	long n;
	char *buf;

	fflush(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	assert_true(n >= 0);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	return buf;
}
