// SPDX-License-Identifier: GPL-2.0
/*
 * The real machine's own jitter (`noise on`): a timer interrupt enters a
 * little late, by a seeded amount, so that CPUs whose ticks are aligned do
 * not act in lockstep; and a task's sleep ends anywhere its timer slack
 * allows, as the hrtimer range rule decides; and the kernel's own work
 * (switch, wakeup, IPI, tick, balance pass, migration) takes CPU time. With
 * noise off (the ideal machine) all are zero and a sleep ends at its expiry.
 */
#include "internal.h"

static bool noise(void)
{
	return cur_engine->sc->noise;
}

/* What a piece of the kernel's own work takes on this machine (cost_*_ns), none on the ideal one. */
u64 sched_cost(enum sched_tunable t)
{
	return noise() ? sysctl(t) : 0;
}

/* How late a timer interrupt enters: uniform in [0, irq_jitter_ns]. */
u64 irq_entry_delay(void)
{
	return noise() ? sched_rand_upto(sysctl(TUN_IRQ_JITTER)) : 0;
}

/*
 * current->timer_slack_ns as hrtimer_nanosleep() uses it: inherited from
 * init (50 us) or set by prctl(PR_SET_TIMERSLACK); none for RT and deadline
 * tasks (__setscheduler_params() zeroes it for them).
 */
static u64 timer_slack_ns(const struct task_struct *p)
{
	if (!noise() || rt_policy(p->policy) || dl_policy(p->policy))
		return 0;
	return p->spec->timer_slack_set ? p->spec->timer_slack : sysctl(TUN_TIMER_SLACK);
}

/*
 * Sleep on an hrtimer with the range [expires, expires + slack]
 * (hrtimer_set_expires_range_ns()): the CPU's timer hardware is programmed
 * for the hard end, which enters up to irq_jitter_ns late; a timer
 * interrupt on that CPU inside the range (the tick) expires the sleeper
 * too, as __hrtimer_run_queues() compares the soft expiry.
 */
void hrtimer_sleep(struct task_struct *p, u64 expires)
{
	u64 hard = expires + timer_slack_ns(p) + irq_entry_delay();

	list_del_init(&p->slack_node);
	p->wake_soft = expires;
	p->wake_in_tick = false;
	if (hard > expires)
		list_add(&p->slack_node, &task_rq(p)->slack_list);
	timer_arm(&ST->tq, &p->wake_timer.timer, hard);
}

/* The sleep's timer fired or is gone: off its CPU's list. */
void hrtimer_sleep_over(struct task_struct *p)
{
	list_del_init(&p->slack_node);
}

/*
 * The sleep's end: hrtimer_interrupt() on the sleeper's CPU, irq time
 * before the wakeup it runs; none of its own when the tick's interrupt
 * expired the sleep (that one is cost_tick_ns).
 */
void hrtimer_wakeup_irq(struct task_struct *p)
{
	if (!p->wake_in_tick)
		cpu_spend(task_rq(p), sched_cost(TUN_COST_HRTIMER), true);
}

/* A tick on rq: the sleepers whose range has begun wake in the same interrupt, after it. */
void hrtimer_expire_ranges(struct rq *rq)
{
	struct list_head *pos, *n;

	list_for_each_safe (pos, n, &rq->slack_list) {
		struct task_struct *p = list_entry(pos, struct task_struct, slack_node);

		if (p->wake_soft <= ST->now) {
			list_del_init(&p->slack_node);
			p->wake_in_tick = true;
			timer_arm_after(&ST->tq, &p->wake_timer.timer, ST->now);
		}
	}
}
