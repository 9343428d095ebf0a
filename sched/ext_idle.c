// SPDX-License-Identifier: GPL-2.0
/*
 * The ext class's built-in idle tracking (idle_masks in 6.12's ext.c): a
 * mask of idle CPUs and, with SMT, of CPUs whose whole core is idle; a CPU
 * is claimed by clearing its bit. scx_select_cpu_dfl() is the default
 * ops.select_cpu(): the waker's CPU for a sync wakeup when the machine has
 * spare CPUs, a wholly idle core, the previous CPU, any idle CPU.
 */
#include <string.h>

#include "ext.h"
#include "balance.h"

static bool smt_active(void)
{
	return ST->smt_present;
}

/* cpu_smt_mask(): the CPUs of cpu's SMT domain, or cpu alone. */
static void smt_mask(int cpu, struct cpumask *out)
{
	const struct sched_domain *sd = lowest_sd(cpu);

	if (sd && (sd->flags & SD_SHARE_CPUCAPACITY)) {
		*out = sd->span;
		return;
	}
	memset(out, 0, sizeof(*out));
	cpumask_set(out, cpu);
}

static void cpumask_andnot(struct cpumask *dst, const struct cpumask *m)
{
	for (int w = 0; w * 64 < ST->nr_cpus; w++)
		dst->bits[w] &= ~m->bits[w];
}

static void cpumask_or(struct cpumask *dst, const struct cpumask *m)
{
	for (int w = 0; w * 64 < ST->nr_cpus; w++)
		dst->bits[w] |= m->bits[w];
}

void scx_reset_idle_masks(void)
{
	struct scx_sched *s = scx();

	/* all CPUs count as idle: it converges to the truth within a schedule each */
	s->idle_cpu = s->possible;
	s->idle_smt = s->possible;
}

void update_builtin_idle(int cpu, bool idle)
{
	struct scx_sched *s = scx();
	struct cpumask smt;

	if (idle)
		cpumask_set(&s->idle_cpu, cpu);
	else
		cpumask_clear(&s->idle_cpu, cpu);
	if (!smt_active())
		return;
	smt_mask(cpu, &smt);
	if (idle) {
		int c;

		for_each_cpu (c, &smt)
			if (!cpumask_test(&s->idle_cpu, c))
				return;
		cpumask_or(&s->idle_smt, &smt);
	} else {
		cpumask_andnot(&s->idle_smt, &smt);
	}
}

bool test_and_clear_cpu_idle(int cpu)
{
	struct scx_sched *s = scx();
	bool was;

	/* the core is not wholly idle either way, and a claimed CPU must leave idle_smt */
	if (smt_active()) {
		struct cpumask smt;

		smt_mask(cpu, &smt);
		if (cpumask_intersects(&smt, &s->idle_smt))
			cpumask_andnot(&s->idle_smt, &smt);
		else if (cpumask_test(&s->idle_smt, cpu))
			cpumask_clear(&s->idle_smt, cpu);
	}
	was = cpumask_test(&s->idle_cpu, cpu);
	cpumask_clear(&s->idle_cpu, cpu);
	return was;
}

s32 scx_pick_idle_cpu(const struct cpumask *cpus_allowed, u64 flags)
{
	struct scx_sched *s = scx();
	int cpu;

	for (;;) {
		if (smt_active()) {
			cpu = cpumask_any_and_distribute(&s->idle_smt, cpus_allowed, &s->distribute_prev);
			if (cpu < ST->nr_cpus)
				goto found;
			if (flags & SCX_PICK_IDLE_CORE)
				return -16; /* -EBUSY */
		}
		cpu = cpumask_any_and_distribute(&s->idle_cpu, cpus_allowed, &s->distribute_prev);
		if (cpu >= ST->nr_cpus)
			return -16;
found:
		if (test_and_clear_cpu_idle(cpu))
			return cpu;
	}
}

s32 scx_select_cpu_dfl(struct task_struct *p, s32 prev_cpu, u64 wake_flags, bool *found)
{
	struct scx_sched *s = scx();
	const struct cpumask *allowed = scx_ent(p)->view.cpus_ptr;
	s32 cpu = s->this_cpu;
	bool any_idle = false;

	*found = false;
	for (int w = 0; w * 64 < ST->nr_cpus; w++)
		any_idle |= s->idle_cpu.bits[w] != 0;
	/*
	 * A sync wakeup with the waker's local DSQ empty and some CPU idle:
	 * the wakee goes to the waker's CPU.
	 */
	if ((wake_flags & SCX_WAKE_SYNC) && any_idle && !s->rq[cpu].local_dsq.nr &&
	    cpumask_test(allowed, cpu))
		goto cpu_found;
	/* with SMT, a wholly idle core beats a partly idle prev_cpu */
	if (smt_active()) {
		if (cpumask_test(&s->idle_smt, prev_cpu) && test_and_clear_cpu_idle(prev_cpu)) {
			cpu = prev_cpu;
			goto cpu_found;
		}
		cpu = scx_pick_idle_cpu(allowed, SCX_PICK_IDLE_CORE);
		if (cpu >= 0)
			goto cpu_found;
	}
	if (test_and_clear_cpu_idle(prev_cpu)) {
		cpu = prev_cpu;
		goto cpu_found;
	}
	cpu = scx_pick_idle_cpu(allowed, 0);
	if (cpu >= 0)
		goto cpu_found;
	return prev_cpu;

cpu_found:
	*found = true;
	return cpu;
}
