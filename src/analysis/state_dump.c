// SPDX-License-Identifier: GPL-2.0
/*
 * --dump-state: what the kernel would show in /proc/sched_debug for each
 * CPU: the cfs_rq's V (or min_vruntime) and every queued task's vruntime,
 * lag, deadline, slice and weight (each against its own group's queue);
 * then each task group: its weight and cpu.max state, and on every CPU its
 * entity and its queue's runtime and throttling.
 */
#include <stdlib.h>

#include "src/base/json.h"
#include "src/base/mem.h"
#include "report.h"
#include "state_dump.h"

static const char *state_name(int state)
{
	switch (state) {
	case TASK_NEW:
		return "new";
	case TASK_RUNNING:
		return "running";
	case TASK_INTERRUPTIBLE:
		return "sleeping";
	default:
		return "dead";
	}
}

static const char *group_path(const struct sched_engine *e, int g)
{
	const struct sched_scenario *sc = sched_scenario_of(e);

	return sc->nr_groups ? sc->group[g].path : "/";
}

void state_dump_text(FILE *out, const struct sched_engine *e)
{
	int nr = sched_nr_tasks(e);
	int *q = xmalloc(((size_t)nr + 1) * sizeof(*q));
	bool eevdf = sched_variant(e) == SCHED_VARIANT_EEVDF;

	fprintf(out, "state at %.9f s\n", (double)sched_now(e) / 1e9);
	for (int cpu = 0; cpu < sched_nr_cpus(e); cpu++) {
		struct sched_cpu_info ci;
		int n;

		sched_cpu_info(e, cpu, &ci);
		n = sched_cpu_queue(e, cpu, q, nr);
		if (!n && ci.idle)
			continue;
		fprintf(out, "cpu%d: curr=%s nr_running=%d load=%llu %s=%lld load_avg=%llu util_avg=%llu\n",
			cpu, ci.idle ? "idle" : sched_comm(e, ci.curr_pid, cpu), ci.nr_running,
			(unsigned long long)(ci.load_weight >> 10), eevdf ? "V" : "min_vruntime",
			(long long)(eevdf ? ci.avg_vruntime : ci.min_vruntime),
			(unsigned long long)ci.avg.load_avg, (unsigned long long)ci.avg.util_avg);
		fprintf(out, "  %-16s %6s %-12s %20s %12s %20s %10s %7s %s\n", "task", "pid", "group", "vruntime",
			"lag", "deadline", "slice", "weight", "flags");
		for (int i = 0; i < n; i++) {
			struct sched_task_info ti;

			sched_task_info(e, q[i], &ti);
			/* signed, as /proc/sched_debug prints them: they start just below 0 */
			fprintf(out, "  %-16s %6d %-12s %20lld %12lld %20lld %10llu %7llu %s%s%s\n", ti.name, ti.pid,
				group_path(e, ti.group), (long long)ti.vruntime, (long long)ti.vlag, (long long)ti.deadline, (unsigned long long)ti.slice,
				(unsigned long long)(ti.weight >> 10), ti.on_cpu ? "R " : "",
				eevdf && ti.eligible ? "eligible " : "", ti.sched_delayed ? "delayed" : "");
		}
	}
	free(q);
	for (int g = 1; g < sched_nr_groups(e); g++) {
		struct sched_group_info gi;

		sched_group_info(e, g, &gi);
		fprintf(out, "group %s: shares=%llu idle=%d", gi.path, (unsigned long long)gi.shares, gi.idle);
		if (gi.quota == RUNTIME_INF)
			fprintf(out, " quota=max");
		else
			fprintf(out, " quota=%llu period=%llu burst=%llu runtime=%llu", (unsigned long long)gi.quota,
				(unsigned long long)gi.period, (unsigned long long)gi.burst,
				(unsigned long long)gi.runtime);
		fprintf(out, " load_avg=%ld nr_periods=%llu nr_throttled=%llu throttled_time=%llu\n", gi.load_avg,
			(unsigned long long)gi.nr_periods, (unsigned long long)gi.nr_throttled,
			(unsigned long long)gi.throttled_time);
		for (int cpu = 0; cpu < sched_nr_cpus(e); cpu++) {
			struct sched_group_cpu_info c;

			sched_group_cpu_info(e, g, cpu, &c);
			if (!c.on_rq && !c.h_nr_running && !c.throttled && !c.load_avg)
				continue;
			fprintf(out, "  cpu%d: weight=%llu %s h_nr_running=%d load_avg=%llu h_load=%llu "
				"runtime_remaining=%lld%s\n", cpu, (unsigned long long)(c.weight >> 10),
				c.curr ? "running" : c.on_rq ? "queued" : "dequeued", c.h_nr_running,
				(unsigned long long)c.load_avg, (unsigned long long)c.h_load,
				(long long)c.runtime_remaining, c.throttled ? " THROTTLED" : "");
		}
	}
}

/* One queued or running task: its EEVDF and PELT state. */
static void json_entity(struct json_writer *j, const struct sched_engine *e, int task)
{
	struct sched_task_info ti;

	sched_task_info(e, task, &ti);
	jw_begin_object(j);
	jw_kv_str(j, "name", ti.name);
	jw_kv_s64(j, "pid", ti.pid);
	jw_kv_str(j, "state", state_name(ti.state));
	jw_kv_str(j, "policy", sched_policy_names[ti.policy]);
	jw_kv_str(j, "group", group_path(e, ti.group));
	jw_kv_s64(j, "nice", ti.nice);
	jw_kv_bool(j, "running", ti.on_cpu);
	jw_kv_u64(j, "weight", ti.weight);
	jw_kv_u64(j, "vruntime", ti.vruntime);
	jw_kv_s64(j, "lag", ti.vlag);
	jw_kv_bool(j, "eligible", ti.eligible);
	jw_kv_u64(j, "deadline", ti.deadline);
	jw_kv_u64(j, "slice", ti.slice);
	jw_kv_bool(j, "delayed", ti.sched_delayed);
	jw_kv_u64(j, "load_avg", ti.avg.load_avg);
	jw_kv_u64(j, "util_avg", ti.avg.util_avg);
	jw_end_object(j);
}

/* A CPU's runqueue and the entities on it (q: room for every task). */
static void json_cpu(struct json_writer *j, const struct sched_engine *e, int cpu, int *q)
{
	struct sched_cpu_info ci;
	int n = sched_cpu_queue(e, cpu, q, sched_nr_tasks(e));

	sched_cpu_info(e, cpu, &ci);
	jw_begin_object(j);
	jw_kv_s64(j, "cpu", cpu);
	jw_kv_s64(j, "curr_pid", ci.curr_pid);
	jw_kv_s64(j, "nr_running", ci.nr_running);
	jw_kv_u64(j, "load_weight", ci.load_weight);
	jw_kv_u64(j, "min_vruntime", ci.min_vruntime);
	jw_kv_u64(j, "avg_vruntime", ci.avg_vruntime);
	jw_kv_u64(j, "load_avg", ci.avg.load_avg);
	jw_kv_u64(j, "runnable_avg", ci.avg.runnable_avg);
	jw_kv_u64(j, "util_avg", ci.avg.util_avg);
	jw_key(j, "entities");
	jw_begin_array(j);
	for (int i = 0; i < n; i++)
		json_entity(j, e, q[i]);
	jw_end_array(j);
	jw_end_object(j);
}

/* A group's cpu.max state and, below the root, its entity on each CPU. */
static void json_group(struct json_writer *j, const struct sched_engine *e, int g)
{
	struct sched_group_info gi;

	sched_group_info(e, g, &gi);
	jw_begin_object(j);
	jw_kv_str(j, "path", gi.path);
	jw_kv_u64(j, "shares", gi.shares);
	jw_kv_bool(j, "idle", gi.idle);
	if (g && gi.quota != RUNTIME_INF) {
		jw_kv_u64(j, "quota_ns", gi.quota);
		jw_kv_u64(j, "period_ns", gi.period);
		jw_kv_u64(j, "burst_ns", gi.burst);
		jw_kv_u64(j, "runtime_ns", gi.runtime);
		jw_kv_u64(j, "next_refill_ns", gi.period_expires);
	} else {
		jw_kv_str(j, "quota_ns", "max");
	}
	jw_kv_s64(j, "load_avg", gi.load_avg);
	jw_kv_u64(j, "nr_periods", gi.nr_periods);
	jw_kv_u64(j, "nr_throttled", gi.nr_throttled);
	jw_kv_u64(j, "throttled_time_ns", gi.throttled_time);
	jw_key(j, "cpus");
	jw_begin_array(j);
	for (int cpu = 0; g && cpu < sched_nr_cpus(e); cpu++) {
		struct sched_group_cpu_info c;

		sched_group_cpu_info(e, g, cpu, &c);
		jw_begin_object(j);
		jw_kv_s64(j, "cpu", cpu);
		jw_kv_u64(j, "weight", c.weight);
		jw_kv_bool(j, "on_rq", c.on_rq);
		jw_kv_bool(j, "running", c.curr);
		jw_kv_s64(j, "h_nr_running", c.h_nr_running);
		jw_kv_u64(j, "load_avg", c.load_avg);
		jw_kv_u64(j, "h_load", c.h_load);
		jw_kv_s64(j, "runtime_remaining_ns", c.runtime_remaining);
		jw_kv_bool(j, "throttled", c.throttled);
		jw_end_object(j);
	}
	jw_end_array(j);
	jw_end_object(j);
}

void state_dump_json(FILE *out, const struct sched_engine *e)
{
	int *q = xmalloc(((size_t)sched_nr_tasks(e) + 1) * sizeof(*q));
	struct json_writer j;

	jw_init(&j, out, JW_PRETTY);
	jw_begin_object(&j);
	jw_kv_u64(&j, "time_ns", sched_now(e));
	jw_key(&j, "cpus");
	jw_begin_array(&j);
	for (int cpu = 0; cpu < sched_nr_cpus(e); cpu++)
		json_cpu(&j, e, cpu, q);
	jw_end_array(&j);
	jw_key(&j, "groups");
	jw_begin_array(&j);
	for (int g = 0; g < sched_nr_groups(e); g++)
		json_group(&j, e, g);
	jw_end_array(&j);
	jw_end_object(&j);
	jw_finish(&j);
	free(q);
}
