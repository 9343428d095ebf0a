// SPDX-License-Identifier: GPL-2.0
/*
 * LinSched's machine (before 3.8, noise off): how its host delivers what a
 * real machine sends as an IPI. Its smp_send_reschedule()
 * (linsched_trigger_cpu()) and stop_one_cpu_nowait() arm a 1 ns hrtimer on
 * the target CPU, and its clock event device programs nothing closer than
 * min_delta_ns, 5 us (tools/linsched/hrtimer.c): the target acts 5 us
 * later, unless an interrupt due on it at this instant comes first.
 * And its CPUs take their turns at an instant one by one, so jiffies are as
 * the do_timer CPU's tick last advanced them.
 */
#include "internal.h"

#define LINSCHED_MIN_DELTA_NS (5 * NSEC_PER_USEC)

/* linsched_trigger_cpu(): one trigger timer per CPU, armed unless already pending. */
void linsched_trigger_cpu(struct rq *rq)
{
	if (!timer_queued(&rq->ipi_timer))
		timer_arm(&ST->tq, &rq->ipi_timer, ST->now + LINSCHED_MIN_DELTA_NS);
}

/* stop_one_cpu_nowait(): the stopper sleeps until its own timer wakes it (wake_stop()). */
void linsched_stop_one_cpu_nowait(struct rq *rq)
{
	rq->stop_queued = true;
	timer_arm(&ST->tq, &rq->stop_timer, ST->now + LINSCHED_MIN_DELTA_NS);
}

/* wake_stop(): its timer wakes the stopper, which preempts the CPU's task. */
void linsched_wake_stop(struct rq *rq)
{
	rq->stop_queued = false;
	resched_curr(rq);
}

/*
 * tick_sched_timer(): the do_timer CPU's tick advances jiffies, so a CPU
 * whose turn at an instant comes before its turn sees the previous jiffy.
 * The boot CPU has the duty; a CPU that stops its tick drops it, and the
 * next CPU to tick takes it.
 */
void linsched_do_timer(struct rq *rq)
{
	if (ST->do_timer_cpu < 0)
		ST->do_timer_cpu = rq->cpu;
	if (ST->do_timer_cpu == rq->cpu)
		linsched_jiffies_update();
}

/* tick_nohz_stop_sched_tick() */
void linsched_drop_do_timer(struct rq *rq)
{
	if (ST->do_timer_cpu == rq->cpu)
		ST->do_timer_cpu = -1;
}

/* tick_do_update_jiffies64(): also where a CPU leaves tickless idle (tick_nohz_idle_exit()) */
void linsched_jiffies_update(void)
{
	ST->jiffies = ST->now / TICK_NSEC;
}
