// SPDX-License-Identifier: GPL-2.0
/*
 * SCHED_DEADLINE bandwidth arithmetic (kernel/sched/deadline.c, core.c):
 * parameter checks and admission control as pure functions of their
 * inputs, so the scenario parser refuses a deadline set that does not fit
 * with the same rules the engine applies at run time.
 */
#include <stdlib.h>

#include "internal.h"

#define DL_PERIOD_MIN (100 * NSEC_PER_USEC)		/* sysctl_sched_dl_period_min */
#define DL_PERIOD_MAX ((1ULL << 22) * NSEC_PER_USEC)	/* sysctl_sched_dl_period_max */
#define CAPACITY_SHIFT 10

u64 to_ratio(u64 period, u64 runtime)
{
	if (runtime == RUNTIME_INF)
		return BW_UNIT;
	if (!period)
		return 0;
	return (runtime << BW_SHIFT) / period;
}

u64 dl_bw_limit(u64 rt_period, u64 rt_runtime)
{
	return rt_runtime == RUNTIME_INF ? RUNTIME_INF : to_ratio(rt_period, rt_runtime);
}

bool __dl_overflow(u64 bw, u64 cap, u64 total_bw, u64 old_bw, u64 new_bw)
{
	return bw != RUNTIME_INF && ((bw * cap) >> CAPACITY_SHIFT) < total_bw - old_bw + new_bw;
}

u64 fair_servers_bw(int kv, int nr_cpus, u64 runtime, u64 period)
{
	return kv >= KV(6, 12) && runtime ? to_ratio(period, runtime) * (u64)nr_cpus : 0;
}

bool sched_dl_params_valid(u64 runtime, u64 deadline, u64 period)
{
	if (!period)
		period = deadline;
	if (!deadline || runtime < (1ULL << DL_SCALE))
		return false;
	if ((deadline | period) & (1ULL << 63))
		return false;
	if (runtime > deadline || deadline > period)
		return false;
	return period >= DL_PERIOD_MIN && period <= DL_PERIOD_MAX;
}

static u64 scenario_tunable(const struct sched_scenario *sc, enum sched_tunable t)
{
	return sc->tunable_set[t] ? sc->tunable[t] : sched_default_tunable(sc->kernel, t);
}

/*
 * The admission checks over the whole scenario: every SCHED_DEADLINE task
 * as if all lived at once, then each `set policy` action in time order,
 * changing its task's bandwidth. The first that does not fit.
 */
int sched_dl_admission_check(const struct sched_scenario *sc, int *bad_task, int *bad_action)
{
	u64 bw = dl_bw_limit(scenario_tunable(sc, TUN_RT_PERIOD), scenario_tunable(sc, TUN_RT_RUNTIME));
	u64 cap = 0, total;
	u64 *task_bw = sched_calloc((size_t)sc->nr_tasks + 1, sizeof(*task_bw), "the admission check");
	int ret = 0;

	*bad_task = *bad_action = -1;
	for (int cpu = 0; cpu < sc->topo->nr_cpus; cpu++)
		cap += sc->topo->cpu[cpu].capacity;
	total = fair_servers_bw(sc->kernel, sc->topo->nr_cpus, scenario_tunable(sc, TUN_FAIR_SERVER_RUNTIME),
				scenario_tunable(sc, TUN_FAIR_SERVER_PERIOD));
	for (int i = 0; i < sc->nr_tasks && *bad_task < 0; i++) {
		const struct sched_task_spec *t = &sc->task[i];

		if (t->policy != SCHED_DEADLINE)
			continue;
		task_bw[i] = to_ratio(t->dl_period ? t->dl_period : t->dl_deadline, t->dl_runtime);
		if (__dl_overflow(bw, cap, total, 0, task_bw[i]))
			*bad_task = i;
		total += task_bw[i];
	}
	for (int a = 0; a < sc->nr_actions && *bad_task < 0 && *bad_action < 0; a++) {
		const struct sched_command *c = &sc->action[a].cmd;
		u64 new_bw;

		if (c->kind != CMD_SET_POLICY || c->task < 0 || c->task >= sc->nr_tasks)
			continue;
		new_bw = c->key == SCHED_DEADLINE ? to_ratio(c->dl.period ? c->dl.period : c->dl.deadline,
							      c->dl.runtime) : 0;
		if (new_bw && __dl_overflow(bw, cap, total, task_bw[c->task], new_bw))
			*bad_action = a;
		total += new_bw - task_bw[c->task];
		task_bw[c->task] = new_bw;
	}
	if (*bad_task >= 0 || *bad_action >= 0)
		ret = 1;
	free(task_bw);
	return ret;
}
