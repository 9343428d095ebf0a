// SPDX-License-Identifier: GPL-2.0
/*
 * Time the CPU's tasks do not get: hardware interrupts and, under a
 * hypervisor, steal time. Each source fires `every` apart and takes `cost`;
 * while a CPU is interrupted its running task makes no progress, and an
 * arrival during an interruption is served right after it, as part of the
 * same stretch. With IRQ_TIME_ACCOUNTING (PARAVIRT_TIME_ACCOUNTING for
 * steal) the time is kept out of clock_task, so the task is not charged
 * for it (update_rq_clock_task() in core.c); without, it is. The kernel's
 * own work (noise.c's costs) stops the task the same way.
 */
#include "internal.h"

u64 rq_clock_work(const struct rq *rq)
{
	u64 taken = rq->irq_time + rq->steal_time + rq->cost_time;

	if (rq->intr_end)
		taken += ST->now - rq->intr_start;
	return ST->now + SCHED_CLOCK_BOOT - taken;
}

u64 rq_work_resumes(const struct rq *rq)
{
	return rq->intr_end ? rq->intr_end : ST->now;
}

static void emit_intr(int type, struct rq *rq)
{
	const struct sched_irq_spec *sp = &E->sc->irq[rq->intr_source];
	struct sched_event ev;

	sched_event_init(&ev, type, rq->cpu);
	ev.intr.source = rq->intr_source;
	ev.intr.irq = sp->steal ? -1 : sp->irq;
	if (type != EV_IRQ_ENTRY) {
		ev.intr.irq_ns = rq->intr_irq;
		ev.intr.steal_ns = rq->intr_steal;
	}
	sched_emit(&ev);
}

/* Open an interruption on rq's CPU unless one is under way; no source is in it yet. */
static void intr_open(struct rq *rq)
{
	if (rq->intr_end)
		return;
	rq->intr_start = ST->now;
	rq->intr_end = ST->now;
	rq->intr_irq = rq->intr_steal = rq->intr_cost = 0;
	rq->intr_source = -1;
}

/* The interruption under way takes ns more, counted in part (intr_irq, intr_steal or intr_cost). */
static void intr_take(struct rq *rq, u64 *part, u64 ns)
{
	rq->intr_end += ns;
	*part += ns;
	timer_arm(&ST->tq, &rq->intr_timer, rq->intr_end);
}

void irq_source_fire(int source)
{
	const struct sched_irq_spec *sp = &E->sc->irq[source];
	struct rq *rq = cpu_rq(sp->cpu);
	u64 cost = sched_sample_duration(&sp->cost);
	u64 every = sched_sample_duration(&sp->every);

	if (cost) {
		intr_open(rq);
		if (rq->intr_source < 0) {
			rq->intr_source = source;
			if (!sp->steal)
				emit_intr(EV_IRQ_ENTRY, rq);
		}
		intr_take(rq, sp->steal ? &rq->intr_steal : &rq->intr_irq, cost);
	}
	timer_arm(&ST->tq, &ST->irq_timer[source], ST->now + MAX(every, 1));
}

/* The interruption is over: its time is now the CPU's irq (or steal) time, as at irq_exit(). */
void irq_end(struct rq *rq)
{
	rq->irq_time += rq->intr_irq;
	rq->steal_time += rq->intr_steal;
	rq->cost_time += rq->intr_cost;
	if (rq->intr_source >= 0)
		emit_intr(E->sc->irq[rq->intr_source].steal ? EV_STEAL : EV_IRQ_EXIT, rq);
	rq->intr_end = 0;
	/* irq_exit() updates no clock: a wakeup asked __schedule() to keep its (RQCF_REQ_SKIP) */
	if (!(rq->clock_update_flags & RQCF_REQ_SKIP))
		update_rq_clock(rq);
	/* a preemption the interrupt asked for switches now, at irq_exit() */
	if (rq->need_resched)
		resched_pending(rq);
	else if (!is_idle_task(rq->curr))
		task_program_step(rq->curr); /* back to the task's own code */
}

/*
 * The kernel's own work on rq's CPU: its task makes no progress for ns. In
 * an interrupt (the tick, an IPI, the balance softirq) it is irq time, which
 * IRQ_TIME_ACCOUNTING keeps out of clock_task; in a task's context (the
 * switch, a wakeup by the waker) it is charged to whoever runs, as the kernel
 * charges it.
 */
void cpu_spend(struct rq *rq, u64 ns, bool irq)
{
	if (!ns)
		return;
	intr_open(rq);
	intr_take(rq, irq ? &rq->intr_irq : &rq->intr_cost, ns);
}
