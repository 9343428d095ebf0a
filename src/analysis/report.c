// SPDX-License-Identifier: GPL-2.0
/* The end-of-run report: per task, per CPU and totals, over the chosen window. */
#include <string.h>

#include "src/format/group_parse.h"
#include "src/base/json.h"
#include "src/format/lex.h"
#include "report.h"

static u64 window_ns(const struct stats *st)
{
	u64 end = st->end < st->to ? st->end : st->to;

	return end > st->from ? end - st->from : 0;
}

static double ms(u64 ns)
{
	return (double)ns / 1e6;
}

/* SCHED_FIFO/RR priorities and SCHED_DEADLINE reservations, when the run has any. */
static void report_text_rt_dl(FILE *out, const struct report *r)
{
	const struct stats *st = r->st;
	bool header = false;
	char a[32], b[32], c[32];

	for (int i = 0; i < st->nr_tasks; i++) {
		const struct task_stats *t = &st->task[i];
		struct sched_task_info ti;

		sched_task_info(r->e, i, &ti);
		if (ti.policy != SCHED_FIFO && ti.policy != SCHED_RR && ti.policy != SCHED_DEADLINE)
			continue;
		if (!header)
			fprintf(out, "\n%-16s %-8s %11s %10s %10s %10s %12s %9s\n", "rt/dl task", "policy",
				"rt_priority", "runtime", "deadline", "period", "dl_throttles", "dl_misses");
		header = true;
		if (ti.policy == SCHED_DEADLINE)
			fprintf(out, "%-16s %-8s %11s %10s %10s %10s %12llu %9llu\n", ti.name,
				sched_policy_names[ti.policy], "-",
				format_duration(a, sizeof(a), ti.dl_runtime),
				format_duration(b, sizeof(b), ti.dl_deadline),
				format_duration(c, sizeof(c), ti.dl_period),
				(unsigned long long)t->dl_throttles, (unsigned long long)t->dl_misses);
		else
			fprintf(out, "%-16s %-8s %11u %10s %10s %10s %12s %9s\n", ti.name,
				sched_policy_names[ti.policy], ti.rt_priority, "-", "-", "-", "-", "-");
	}
}

static double avg_ms(double sum, u64 n)
{
	return n ? sum / (double)n / 1e6 : 0.0;
}

/* rt-app's per-period view, for the tasks that use a `timer`. */
static void report_periods_text(FILE *out, const struct report *r)
{
	const struct stats *st = r->st;
	bool header = false;

	for (int i = 0; i < st->nr_tasks; i++) {
		const struct period_stats *p = &st->task[i].per;
		struct sched_task_info ti;

		if (!p->periods)
			continue;
		if (!header) {
			fprintf(out, "\n%-16s %7s %6s %10s %10s %9s %9s %10s %10s %9s %9s\n", "periods (ms)",
				"periods", "missed", "period_avg", "period_max", "run_avg", "run_max",
				"slack_avg", "slack_min", "wu_avg", "wu_max");
			header = true;
		}
		sched_task_info(r->e, i, &ti);
		fprintf(out, "%-16s %7llu %6llu %10.3f %10.3f %9.3f %9.3f %10.3f %10.3f %9.3f %9.3f\n", ti.name,
			(unsigned long long)p->periods, (unsigned long long)p->missed,
			avg_ms((double)p->period_sum, p->periods), ms(p->period_max),
			avg_ms((double)p->run_sum, p->periods), ms(p->run_max),
			avg_ms((double)p->slack_sum, p->periods), (double)p->slack_min / 1e6,
			avg_ms((double)p->wu_lat_sum, p->periods), ms(p->wu_lat_max));
	}
}

static u64 sum_idle(const u64 *v)
{
	u64 s = 0;

	for (int i = 0; i < CPU_MAX_IDLE_TYPES; i++)
		s += v[i];
	return s;
}

static u64 total_migrations(const struct stats *st)
{
	u64 n = 0;

	for (int i = 0; i < NR_MIGRATE_REASONS; i++)
		n += st->migrations[i];
	return n;
}

static u64 total_herds(const struct stats *st)
{
	u64 n = 0;

	for (int i = 0; i < NR_HERD_CAUSES; i++)
		n += st->herds[i];
	return n;
}

/* Placement and balancing counters: only on machines where they happen. */
static void report_balance_text(FILE *out, const struct report *r)
{
	const struct stats *st = r->st;
	u64 win = window_ns(st);
	bool header = false;

	if (st->nr_cpus < 2)
		return;
	fprintf(out, "\nmigrations %llu (%.2f/s):", (unsigned long long)total_migrations(st),
		win ? (double)total_migrations(st) * 1e9 / (double)win : 0.0);
	for (int i = 0; i < NR_MIGRATE_REASONS; i++)
		fprintf(out, " %s %llu", migrate_reason_names[i], (unsigned long long)st->migrations[i]);
	fputc('\n', out);
	fprintf(out, "herds %llu:", (unsigned long long)total_herds(st));
	for (int i = 0; i < NR_HERD_CAUSES; i++)
		fprintf(out, " %s %llu", herd_cause_names[i], (unsigned long long)st->herds[i]);
	fputc('\n', out);

	for (int c = 0; c < st->nr_cpus; c++) {
		const struct cpu_stats *cs = &st->cpu[c];

		for (int d = 0; d < cs->nr_levels; d++) {
			const struct lb_level_stats *l = &cs->lb[d];
			const char *name = sched_domain_name(r->e, c, d);

			if (!header) {
				fprintf(out, "\n%-4s %-5s %9s %9s %7s %12s %7s %10s %8s %8s %9s %10s\n", "cpu",
					"level", "lb_count", "balanced", "failed", "imbalance", "gained",
					"hot_gained", "nobusyq", "nobusyg", "alb_count", "alb_pushed");
				header = true;
			}
			fprintf(out, "%-4d %-5s %9llu %9llu %7llu %12llu %7llu %10llu %8llu %8llu %9llu %10llu\n", c,
				name ? name : "?", (unsigned long long)sum_idle(l->lb_count),
				(unsigned long long)sum_idle(l->lb_balanced),
				(unsigned long long)sum_idle(l->lb_failed),
				(unsigned long long)sum_idle(l->lb_imbalance),
				(unsigned long long)sum_idle(l->lb_gained),
				(unsigned long long)sum_idle(l->lb_hot_gained),
				(unsigned long long)sum_idle(l->lb_nobusyq),
				(unsigned long long)sum_idle(l->lb_nobusyg), (unsigned long long)l->alb_count,
				(unsigned long long)l->alb_pushed);
		}
	}
	fprintf(out, "\n%-4s %10s %10s %16s %16s\n", "cpu", "ttwu_count", "ttwu_local", "ttwu_wake_remote",
		"ttwu_move_affine");
	for (int c = 0; c < st->nr_cpus; c++) {
		const struct cpu_stats *cs = &st->cpu[c];
		fprintf(out, "%-4d %10llu %10llu %16llu %16llu\n", c, (unsigned long long)cs->ttwu_count,
			(unsigned long long)cs->ttwu_local, (unsigned long long)cs->ttwu_wake_remote,
			(unsigned long long)cs->ttwu_move_affine);
	}
}

static void json_by_idle(struct json_writer *j, const char *key, const u64 *v)
{
	jw_key(j, key);
	jw_begin_object(j);
	for (int i = 0; i < CPU_MAX_IDLE_TYPES; i++)
		jw_kv_u64(j, cpu_idle_type_names[i], v[i]);
	jw_end_object(j);
}

static void json_cpu_balance(struct json_writer *j, const struct report *r, int c)
{
	const struct cpu_stats *cs = &r->st->cpu[c];

	jw_kv_u64(j, "ttwu_count", cs->ttwu_count);
	jw_kv_u64(j, "ttwu_local", cs->ttwu_local);
	jw_kv_u64(j, "ttwu_wake_remote", cs->ttwu_wake_remote);
	jw_kv_u64(j, "ttwu_move_affine", cs->ttwu_move_affine);
	jw_key(j, "domains");
	jw_begin_array(j);
	for (int d = 0; d < cs->nr_levels; d++) {
		const struct lb_level_stats *l = &cs->lb[d];
		const char *name = sched_domain_name(r->e, c, d);

		jw_begin_object(j);
		jw_kv_s64(j, "depth", d);
		jw_kv_str(j, "level", name ? name : "?");
		json_by_idle(j, "lb_count", l->lb_count);
		json_by_idle(j, "lb_balanced", l->lb_balanced);
		json_by_idle(j, "lb_failed", l->lb_failed);
		json_by_idle(j, "lb_imbalance", l->lb_imbalance);
		json_by_idle(j, "lb_gained", l->lb_gained);
		json_by_idle(j, "lb_hot_gained", l->lb_hot_gained);
		json_by_idle(j, "lb_nobusyq", l->lb_nobusyq);
		json_by_idle(j, "lb_nobusyg", l->lb_nobusyg);
		jw_kv_u64(j, "alb_count", l->alb_count);
		jw_kv_u64(j, "alb_failed", l->alb_failed);
		jw_kv_u64(j, "alb_pushed", l->alb_pushed);
		jw_end_object(j);
	}
	jw_end_array(j);
}

/* Depth-first from g: children in declaration order, each line indented by its depth. */
static void group_tree_line(FILE *out, const struct report *r, int g, u64 win)
{
	const struct group_stats *gs = &r->st->group[g];
	struct sched_group_info gi;
	char name[SCHED_GROUP_PATH_LEN + 64], quota[48];
	const char *leaf;

	sched_group_info(r->e, g, &gi);
	leaf = g ? strrchr(gi.path, '/') + 1 : "/";
	snprintf(name, sizeof(name), "%*s%s", 2 * gi.depth, "", leaf);
	if (!g)
		snprintf(quota, sizeof(quota), "-");
	else if (gi.quota == RUNTIME_INF)
		snprintf(quota, sizeof(quota), "max %.0fms", ms(gi.period));
	else
		snprintf(quota, sizeof(quota), "%gms %.0fms", ms(gi.quota), ms(gi.period));
	fprintf(out, "%-24s %7llu %5s %-16s %10.3f %7.2f%% %8llu %9llu %12.3f %7llu %10.3f\n", name,
		(unsigned long long)gi.shares, gi.idle ? "idle" : "-", quota, ms(gs->usage_ns),
		win ? 100.0 * (double)gs->usage_ns / (double)win : 0.0,
		(unsigned long long)gs->nr_periods, (unsigned long long)gs->nr_throttled,
		ms(gs->throttled_ns), (unsigned long long)gs->nr_bursts, ms(gs->burst_ns));
	for (int c = g + 1; c < r->st->nr_groups; c++)
		if (r->st->group[c].parent == g)
			group_tree_line(out, r, c, win);
}

static void report_groups_text(FILE *out, const struct report *r, u64 win)
{
	fprintf(out, "\n%-24s %7s %5s %-16s %10s %8s %8s %9s %12s %7s %10s\n", "group", "shares", "idle",
		"cpu.max", "usage_ms", "cpus", "periods", "throttled", "throttled_ms", "bursts",
		"burst_ms");
	group_tree_line(out, r, 0, win);

	u64 calcs, visits;
	sched_shares_cost(r->e, &calcs, &visits);
	fprintf(out, "group weights cost: %llu calc_group_shares() calls, %llu cfs_rq visits by "
		"tg_shares_up walks (whole run)\n", (unsigned long long)calcs, (unsigned long long)visits);
}

/* The ext policy: how it ended if it did, and which operations dispatched how much. */
static void report_ext_text(FILE *out, const struct report *r)
{
	const struct stats *st = r->st;
	struct sched_ext_info xi;

	sched_ext_info(r->e, &xi);
	if (!xi.loaded)
		return;
	if (xi.exit_kind)
		fprintf(out, "\next policy \"%s\": disabled (%s): %s\n", xi.name,
			ext_exit_reason(xi.exit_kind), xi.exit_msg);
	else
		fprintf(out, "\next policy \"%s\"%s: %s\n", xi.name,
			xi.partial ? " (SCHED_EXT tasks only)" : "", xi.enabled ? "enabled" : "not enabled");
	fprintf(out, "dispatches by operation:");
	for (int op = 0; op < NR_EXT_OPS; op++)
		if (st->ext_dispatches[op])
			fprintf(out, " %s %llu", ext_op_names[op],
				(unsigned long long)st->ext_dispatches[op]);
	fputc('\n', out);
}

static void report_ext_json(struct json_writer *j, const struct report *r)
{
	struct sched_ext_info xi;

	sched_ext_info(r->e, &xi);
	if (!xi.loaded)
		return;
	jw_key(j, "ext");
	jw_begin_object(j);
	jw_kv_str(j, "name", xi.name);
	jw_kv_bool(j, "partial", xi.partial);
	jw_kv_bool(j, "enabled", xi.enabled);
	if (xi.exit_kind) {
		jw_kv_u64(j, "exit_kind", xi.exit_kind);
		jw_kv_str(j, "exit_reason", ext_exit_reason(xi.exit_kind));
		jw_kv_str(j, "exit_msg", xi.exit_msg);
	}
	jw_key(j, "dispatches");
	jw_begin_object(j);
	for (int op = 0; op < NR_EXT_OPS; op++)
		jw_kv_u64(j, ext_op_names[op], r->st->ext_dispatches[op]);
	jw_end_object(j);
	jw_end_object(j);
}

/* The real machine's jitter and the kernel's costs the run had (sched/noise.c). */
static const enum sched_tunable noise_tunables[] = {
	TUN_TIMER_SLACK, TUN_IRQ_JITTER,   TUN_COST_SWITCH,  TUN_COST_WAKEUP,  TUN_COST_IPI,
	TUN_COST_TICK,	 TUN_COST_BALANCE, TUN_COST_MIGRATE, TUN_COST_HRTIMER,
};

static void noise_line(FILE *out, const struct sched_engine *e)
{
	fprintf(out, "noise");
	for (size_t i = 0; i < ARRAY_SIZE(noise_tunables); i++) {
		const char *name = sched_tunable_descs[noise_tunables[i]].name;

		fprintf(out, " %.*s=%lluns", (int)(strlen(name) - 3), name,
			(unsigned long long)sched_tunable_value(e, noise_tunables[i]));
	}
	fputc('\n', out);
}

void report_text(FILE *out, const struct report *r)
{
	const struct sched_scenario *sc = &r->f->sc;
	const struct stats *st = r->st;
	u64 win = window_ns(st);
	char kbuf[16];

	fprintf(out, "scenario %s: %s, kernel %s, topology %s (%d CPUs), hz %u, seed %llu, %s\n", r->f->path,
		sc->variant == SCHED_VARIANT_CFS ? "cfs" : "eevdf",
		sched_kernel_name(kbuf, sizeof(kbuf), sc->kernel, sc->kernel_stable), sc->topo->name,
		sc->topo->nr_cpus, sc->hz, (unsigned long long)sc->seed,
		sc->noise ? "noise on (a real machine)" : "noise off (the ideal machine)");
	if (sc->noise)
		noise_line(out, r->e);
	for (int i = 0; i < r->f->nr_params; i++)
		fprintf(out, "%s%s=%s%s", i ? " " : "params ", r->f->param[i].name, r->f->param[i].value,
			i == r->f->nr_params - 1 ? "\n" : "");
	fprintf(out, "window %.3f s .. %.3f s (%.3f s simulated), %llu events\n\n",
		(double)st->from / 1e9, (double)(st->from + win) / 1e9, (double)win / 1e9,
		(unsigned long long)st->events);

	fprintf(out, "%-16s %6s %-8s %4s %4s %4s %10s %7s %10s %7s %7s %9s %9s %9s %5s %6s\n", "task",
		"pid", "policy", "prio", "nice", "cpu", "cpu_ms", "share", "wait_ms", "slices", "wakeups",
		"lat_p50", "lat_p99", "lat_max", "migr", "preempt");
	for (int i = 0; i < st->nr_tasks; i++) {
		const struct task_stats *t = &st->task[i];
		struct sched_task_info ti;

		sched_task_info(r->e, i, &ti);
		fprintf(out,
			"%-16s %6d %-8s %4d %4d %4d %10.3f %6.2f%% %10.3f %7llu %7llu %7.3fms %7.3fms "
			"%7.3fms %5llu %6llu\n",
			ti.name, ti.pid, sched_policy_names[ti.policy], ti.prio, ti.nice, ti.cpu,
			ms(t->cpu_ns), win ? 100.0 * (double)t->cpu_ns / (double)win : 0.0, ms(t->wait_ns),
			(unsigned long long)t->slices, (unsigned long long)t->wakeups,
			ms(lat_hist_value(&t->lat, 0)), ms(lat_hist_value(&t->lat, 1)),
			ms(lat_hist_value(&t->lat, 2)), (unsigned long long)t->migrations,
			(unsigned long long)t->preemptions);
	}

	report_text_rt_dl(out, r);

	report_periods_text(out, r);
	if (st->nr_groups > 1)
		report_groups_text(out, r, win);

	fprintf(out, "\n%-4s %10s %7s %10s %10s %10s %9s %9s\n", "cpu", "busy_ms", "busy", "switches",
		"irq_ms", "steal_ms", "rt_thrott", "fair_srv");
	for (int c = 0; c < st->nr_cpus; c++) {
		const struct cpu_stats *cs = &st->cpu[c];
		fprintf(out, "%-4d %10.3f %6.2f%% %10llu %10.3f %10.3f %9llu %9llu\n", c, ms(cs->busy_ns),
			win ? 100.0 * (double)cs->busy_ns / (double)win : 0.0,
			(unsigned long long)cs->switches, ms(cs->irq_ns), ms(cs->steal_ns),
			(unsigned long long)cs->rt_throttles, (unsigned long long)cs->fair_server_throttles);
	}
	report_balance_text(out, r);
	report_ext_text(out, r);
	for (int i = 0; i < r->nr_checks; i++)
		fprintf(out, "%s%s\n", i ? "" : "\n", r->check_msg[i]);
}

static void json_latency(struct json_writer *j, const struct lat_hist *h)
{
	jw_key(j, "wakeup_latency");
	jw_begin_object(j);
	jw_kv_u64(j, "p50_ns", lat_hist_value(h, 0));
	jw_kv_u64(j, "p99_ns", lat_hist_value(h, 1));
	jw_kv_u64(j, "max_ns", lat_hist_value(h, 2));
	jw_kv_u64(j, "samples", h->count);
	jw_end_object(j);
}

/* The run's identity: what was simulated, on what, over which window. */
static void json_header(struct json_writer *j, const struct report *r)
{
	const struct sched_scenario *sc = &r->f->sc;
	char kbuf[16];

	jw_kv_str(j, "scenario", r->f->path);
	jw_kv_str(j, "sched", sc->variant == SCHED_VARIANT_CFS ? "cfs" : "eevdf");
	jw_kv_str(j, "kernel", sched_kernel_name(kbuf, sizeof(kbuf), sc->kernel, sc->kernel_stable));
	jw_kv_str(j, "topology", sc->topo->name);
	jw_kv_u64(j, "hz", sc->hz);
	jw_kv_u64(j, "seed", sc->seed);
	jw_kv_str(j, "noise", sc->noise ? "on" : "off");
	if (sc->noise) {
		jw_key(j, "noise_ns");
		jw_begin_object(j);
		for (size_t i = 0; i < ARRAY_SIZE(noise_tunables); i++) {
			const char *name = sched_tunable_descs[noise_tunables[i]].name;
			char key[32];

			snprintf(key, sizeof(key), "%.*s", (int)(strlen(name) - 3), name);
			jw_kv_u64(j, key, sched_tunable_value(r->e, noise_tunables[i]));
		}
		jw_end_object(j);
	}
	if (r->f->nr_params) {
		jw_key(j, "params");
		jw_begin_object(j);
		for (int i = 0; i < r->f->nr_params; i++)
			jw_kv_str(j, r->f->param[i].name, r->f->param[i].value);
		jw_end_object(j);
	}
	jw_key(j, "window");
	jw_begin_object(j);
	jw_kv_u64(j, "from_ns", r->st->from);
	jw_kv_u64(j, "to_ns", r->st->from + window_ns(r->st));
	jw_end_object(j);
}

static void json_periods(struct json_writer *j, const struct period_stats *p)
{
	jw_key(j, "periods");
	jw_begin_object(j);
	jw_kv_u64(j, "count", p->periods);
	jw_kv_u64(j, "missed", p->missed);
	jw_kv_u64(j, "period_sum_ns", p->period_sum);
	jw_kv_u64(j, "period_max_ns", p->period_max);
	jw_kv_u64(j, "run_sum_ns", p->run_sum);
	jw_kv_u64(j, "run_max_ns", p->run_max);
	jw_kv_s64(j, "slack_sum_ns", p->slack_sum);
	jw_kv_s64(j, "slack_min_ns", p->slack_min);
	jw_kv_u64(j, "wakeup_latency_sum_ns", p->wu_lat_sum);
	jw_kv_u64(j, "wakeup_latency_max_ns", p->wu_lat_max);
	jw_end_object(j);
}

/* What the kernel itself keeps for the task (schedstat, /proc/PID/sched). */
static void json_kernel_stats(struct json_writer *j, const struct sched_task_info *ti)
{
	jw_key(j, "kernel_stats");
	jw_begin_object(j);
	jw_kv_u64(j, "sum_exec_runtime", ti->sum_exec_runtime);
	jw_kv_u64(j, "run_delay", ti->run_delay);
	jw_kv_u64(j, "pcount", ti->pcount);
	jw_kv_u64(j, "nr_wakeups", ti->nr_wakeups);
	jw_kv_u64(j, "nr_migrations", ti->nr_migrations);
	jw_kv_u64(j, "nvcsw", ti->nvcsw);
	jw_kv_u64(j, "nivcsw", ti->nivcsw);
	jw_end_object(j);
}

static void json_task(struct json_writer *j, const struct report *r, int i)
{
	const struct sched_scenario *sc = &r->f->sc;
	const struct task_stats *t = &r->st->task[i];
	struct sched_task_info ti;

	sched_task_info(r->e, i, &ti);
	jw_begin_object(j);
	jw_kv_str(j, "name", ti.name);
	jw_kv_s64(j, "pid", ti.pid);
	jw_kv_str(j, "group", sc->nr_groups ? sc->group[ti.group].path : "/");
	jw_kv_str(j, "policy", sched_policy_names[ti.policy]);
	jw_kv_s64(j, "prio", ti.prio);
	jw_kv_u64(j, "rt_priority", ti.rt_priority);
	jw_kv_s64(j, "nice", ti.nice);
	if (ti.policy == SCHED_DEADLINE) {
		jw_key(j, "deadline");
		jw_begin_object(j);
		jw_kv_u64(j, "runtime_ns", ti.dl_runtime);
		jw_kv_u64(j, "deadline_ns", ti.dl_deadline);
		jw_kv_u64(j, "period_ns", ti.dl_period);
		jw_kv_u64(j, "throttles", t->dl_throttles);
		jw_kv_u64(j, "misses", t->dl_misses);
		jw_end_object(j);
	}
	jw_kv_s64(j, "cpu", ti.cpu);
	jw_kv_u64(j, "cpu_ns", t->cpu_ns);
	jw_kv_u64(j, "wait_ns", t->wait_ns);
	jw_kv_u64(j, "runtime_ns", t->runtime_ns);
	jw_kv_u64(j, "slices", t->slices);
	jw_kv_u64(j, "wakeups", t->wakeups);
	json_latency(j, &t->lat);
	jw_kv_u64(j, "migrations", t->migrations);
	jw_kv_u64(j, "preemptions", t->preemptions);
	if (t->per.periods)
		json_periods(j, &t->per);
	json_kernel_stats(j, &ti);
	jw_end_object(j);
}

static void json_cpus(struct json_writer *j, const struct report *r)
{
	jw_key(j, "cpus");
	jw_begin_array(j);
	for (int c = 0; c < r->st->nr_cpus; c++) {
		const struct cpu_stats *cs = &r->st->cpu[c];

		jw_begin_object(j);
		jw_kv_s64(j, "cpu", c);
		jw_kv_u64(j, "busy_ns", cs->busy_ns);
		jw_kv_u64(j, "idle_ns", cs->idle_ns);
		jw_kv_u64(j, "switches", cs->switches);
		jw_kv_u64(j, "irq_ns", cs->irq_ns);
		jw_kv_u64(j, "steal_ns", cs->steal_ns);
		jw_kv_u64(j, "rt_throttles", cs->rt_throttles);
		jw_kv_u64(j, "fair_server_throttles", cs->fair_server_throttles);
		jw_kv_u64(j, "capacity", r->f->sc.topo->cpu[c].capacity);
		json_cpu_balance(j, r, c);
		jw_end_object(j);
	}
	jw_end_array(j);
}

static void json_shares_cost(struct json_writer *j, const struct report *r)
{
	u64 calcs, visits;

	sched_shares_cost(r->e, &calcs, &visits);
	jw_key(j, "shares_cost");
	jw_begin_object(j);
	jw_kv_u64(j, "calc_group_shares", calcs);
	jw_kv_u64(j, "walk_visits", visits);
	jw_end_object(j);
}

/* A group as its cgroup files show it (cpu.weight, cpu.max, cpu.stat). */
static void json_group(struct json_writer *j, const struct report *r, int g)
{
	const struct sched_scenario *sc = &r->f->sc;
	const struct group_stats *gs = &r->st->group[g];
	struct sched_group_info gi;

	sched_group_info(r->e, g, &gi);
	jw_begin_object(j);
	jw_kv_str(j, "path", gi.path);
	jw_kv_str(j, "parent", gi.parent >= 0 ? sc->group[gi.parent].path : "");
	jw_kv_u64(j, "shares", gi.shares);
	jw_kv_u64(j, "weight", sched_weight_to_cgroup(gi.shares));
	jw_kv_bool(j, "idle", gi.idle);
	if (gi.quota == RUNTIME_INF)
		jw_kv_str(j, "quota_ns", "max");
	else
		jw_kv_u64(j, "quota_ns", gi.quota);
	jw_kv_u64(j, "period_ns", gi.period);
	jw_kv_u64(j, "burst_ns", gi.burst);
	jw_kv_u64(j, "cpu_ns", gs->usage_ns);
	jw_key(j, "cpu.stat");
	jw_begin_object(j);
	jw_kv_u64(j, "usage_usec", gs->usage_ns / 1000);
	jw_kv_u64(j, "nr_periods", gs->nr_periods);
	jw_kv_u64(j, "nr_throttled", gs->nr_throttled);
	jw_kv_u64(j, "throttled_usec", gs->throttled_ns / 1000);
	jw_kv_u64(j, "nr_bursts", gs->nr_bursts);
	jw_kv_u64(j, "burst_usec", gs->burst_ns / 1000);
	jw_end_object(j);
	jw_kv_u64(j, "throttle_events", gs->throttles);
	jw_end_object(j);
}

static void json_expects(struct json_writer *j, const struct report *r)
{
	if (!r->nr_checks)
		return;
	jw_key(j, "expects");
	jw_begin_array(j);
	for (int i = 0; i < r->nr_checks; i++) {
		jw_begin_object(j);
		jw_kv_bool(j, "ok", r->check_ok[i]);
		jw_kv_str(j, "message", r->check_msg[i]);
		jw_end_object(j);
	}
	jw_end_array(j);
}

static void json_totals(struct json_writer *j, const struct report *r)
{
	const struct stats *st = r->st;

	jw_key(j, "totals");
	jw_begin_object(j);
	jw_kv_u64(j, "sim_ns", window_ns(st));
	jw_kv_u64(j, "events", st->events);
	jw_key(j, "migrations");
	jw_begin_object(j);
	for (int i = 0; i < NR_MIGRATE_REASONS; i++)
		jw_kv_u64(j, migrate_reason_names[i], st->migrations[i]);
	jw_end_object(j);
	jw_key(j, "herds");
	jw_begin_object(j);
	for (int i = 0; i < NR_HERD_CAUSES; i++)
		jw_kv_u64(j, herd_cause_names[i], st->herds[i]);
	jw_end_object(j);
	jw_kv_u64(j, "wall_ns", r->wall_ns);
	jw_end_object(j);
}

void report_json(FILE *out, const struct report *r)
{
	struct json_writer j;

	jw_init(&j, out, JW_PRETTY);
	jw_begin_object(&j);
	json_header(&j, r);
	jw_key(&j, "tasks");
	jw_begin_array(&j);
	for (int i = 0; i < r->st->nr_tasks; i++)
		json_task(&j, r, i);
	jw_end_array(&j);
	json_cpus(&j, r);
	json_shares_cost(&j, r);
	jw_key(&j, "groups");
	jw_begin_array(&j);
	for (int g = 0; g < r->st->nr_groups; g++)
		json_group(&j, r, g);
	jw_end_array(&j);
	json_expects(&j, r);
	report_ext_json(&j, r);
	json_totals(&j, r);
	jw_end_object(&j);
	jw_finish(&j);
}
