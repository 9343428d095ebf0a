// SPDX-License-Identifier: GPL-2.0
/*
 * LinSched's machine (before 3.8, noise off): how its host delivers what a
 * real machine sends as an IPI. Its smp_send_reschedule()
 * (linsched_trigger_cpu()) and stop_one_cpu_nowait() arm a 1 ns hrtimer on
 * the target CPU, and its clock event device programs nothing closer than
 * min_delta_ns, 5 us (tools/linsched/hrtimer.c): the target acts 5 us
 * later, unless an interrupt due on it at this instant comes first.
 */
#include "internal.h"

#define LINSCHED_MIN_DELTA_NS (5 * NSEC_PER_USEC)

bool linsched_machine(void)
{
	return legacy_balance() && !cur_engine->sc->noise;
}

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
