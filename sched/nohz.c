// SPDX-License-Identifier: GPL-2.0
/*
 * NO_HZ idle balancing (kernel/sched/fair.c, Linux 6.12): an idle CPU has
 * no tick, so it cannot balance for itself. CPUs entering tickless idle join
 * nohz.idle_cpus_mask; a busy CPU's tick (nohz_balancer_kick()) decides
 * whether the idle ones need balancing and kicks one of them, the idle load
 * balancer, which runs sched_balance_domains() on behalf of every idle CPU
 * whose rq->next_balance is due (_nohz_idle_balance()). The kick's IPI and
 * softirq run at the kicking tick's time. Blocked-load refreshes (the stats
 * kick) are not modelled: idle CPUs' PELT ages when they are next touched.
 */
#include "balance.h"

/* The LLC's count of busy CPUs; before 3.8, each of the CPU's groups' (sgp->nr_busy_cpus). */
static void set_cpu_sd_state_busy(int cpu, bool busy)
{
	const struct sched_domain *sd;

	llc_shared(cpu)->nr_busy_cpus += busy ? 1 : -1;
	if (legacy_balance())
		for_each_domain (cpu, sd)
			sgc_of(sd_group(SDS(), sd, 0))->nr_busy_cpus += busy ? 1 : -1;
}

/* The tick stopped: this CPU is balanced for by the idle load balancer. */
void nohz_balance_enter_idle(struct rq *rq)
{
	if (rq->nohz_tick_stopped || !lowest_sd(rq->cpu))
		return;
	rq->nohz_tick_stopped = true;
	cpumask_set(&ST->nohz.idle_cpus_mask, rq->cpu);
	ST->nohz.nr_cpus++;
	set_cpu_sd_state_busy(rq->cpu, false);
}

/* The first busy tick after idle takes it out again. */
void nohz_balance_exit_idle(struct rq *rq)
{
	if (!rq->nohz_tick_stopped)
		return;
	rq->nohz_tick_stopped = false;
	cpumask_clear(&ST->nohz.idle_cpus_mask, rq->cpu);
	ST->nohz.nr_cpus--;
	set_cpu_sd_state_busy(rq->cpu, true);
}

/* find_new_ilb(): the first tickless CPU that is still idle, not the kicker. */
static int find_new_ilb(int this_cpu)
{
	int cpu;

	for_each_cpu(cpu, &ST->nohz.idle_cpus_mask)
		if (cpu != this_cpu && idle_cpu(cpu))
			return cpu;
	return -1;
}

/* _nohz_idle_balance(): balance each idle CPU that is due, the ILB itself last. */
static void nohz_idle_balance(int ilb_cpu)
{
	u64 next_balance = jiffies() + 60 * E->sc->hz;
	bool update_next = false;
	int n = ST->nr_cpus;

	for (int k = 1; k <= n; k++) {
		int cpu = (ilb_cpu + k) % n;
		struct rq *rq = cpu_rq(cpu);

		if (!cpumask_test(&ST->nohz.idle_cpus_mask, cpu) || !idle_cpu(cpu))
			continue;
		/* work arrived for the balancer itself: stop */
		if (!idle_cpu(ilb_cpu))
			break;
		if (jiffies() >= rq->next_balance) {
			update_blocked_averages(cpu);
			sched_balance_domains(rq, CPU_IDLE, MIGRATE_NOHZ);
		}
		if (next_balance > rq->next_balance) {
			next_balance = rq->next_balance;
			update_next = true;
		}
	}
	if (update_next)
		ST->nohz.next_balance = next_balance;
}

static void kick_ilb(int this_cpu)
{
	int ilb = find_new_ilb(this_cpu);

	ST->nohz.next_balance = jiffies() + 1;
	if (ilb >= 0)
		nohz_idle_balance(ilb);
}

/* nohz_balancer_kick(): from every busy tick, whether the idle CPUs need a balancer. */
void nohz_balancer_kick(struct rq *rq)
{
	const struct sched_domain *sd;
	bool kick = false;

	nohz_balance_exit_idle(rq);
	if (!ST->nohz.nr_cpus || jiffies() < ST->nohz.next_balance)
		return;
	if (rq->nr_running >= 2) {
		kick = true;
	} else if (rq->cfs.h_nr_running >= 1 && (sd = lowest_sd(rq->cpu)) && check_cpu_capacity(rq, sd)) {
		/* interrupts took part of this CPU: an idle one may run its task better */
		kick = true;
	} else if ((sd = sd_of(SDS()->percpu[rq->cpu].sd_asym_cpucapacity))) {
		/* a misfit task here wants a bigger idle CPU */
		kick = rq->misfit_task_load != 0;
	} else if (SDS()->percpu[rq->cpu].sd_llc >= 0) {
		/* more than one busy CPU in this LLC: someone may want to spread */
		kick = llc_shared(rq->cpu)->nr_busy_cpus > 1;
	}
	if (kick)
		kick_ilb(rq->cpu);
}
