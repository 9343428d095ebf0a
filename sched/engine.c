// SPDX-License-Identifier: GPL-2.0
/*
 * The engine instance: its arena, the event loop that fires timers in
 * order, run-time commands, listeners and checkpoints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "balance.h"
#include "ext.h"
#include "api/topology.h"

struct sched_engine *cur_engine;

/* ---- the arena: all mutable state, so a checkpoint is one memcpy ---- */

static void *arena_alloc_aligned(struct sched_engine *e, size_t size, size_t align)
{
	size_t off = (e->arena_used + align - 1) & ~(align - 1);
	void *p = (char *)e->arena + off;

	/* arena_need() sized it: running past the end is a bug in that sum */
	if (off + size > e->arena_size)
		abort();
	e->arena_used = off + size;
	return p;
}

static void *arena_alloc(struct sched_engine *e, size_t size)
{
	return arena_alloc_aligned(e, size, 16);
}

/* Timers that can be queued at once: per CPU, per task, per action, note, group and irq source. */
static int nr_timer_slots(const struct sched_scenario *sc)
{
	return sc->topo->nr_cpus * 7 + sc->nr_tasks * 3 + sc->nr_actions + sc->nr_notes + 2 +
	       (sc->nr_groups ? sc->nr_groups : 1) * 2 + sc->nr_irqs + (sc->ext_ops ? 1 + SCX_NR_TIMERS : 0);
}

static size_t arena_need(const struct sched_scenario *sc, const struct sched_domains *sds)
{
	size_t n = sizeof(struct sched_state) + 64;
	size_t timers = (size_t)nr_timer_slots(sc);

	n += (size_t)sc->topo->nr_cpus * (sizeof(struct rq) + sizeof(struct task_struct) + 32);
	n += (size_t)sc->nr_tasks * (sizeof(struct task_struct) + 16);
	n += 2 * SMP_CACHE_BYTES; /* the two arrays of tasks start a cache line */
	for (int i = 0; i < sc->nr_tasks; i++)
		n += (size_t)sc->task[i].prog->nr_loops * sizeof(u32) + 16;
	n += (size_t)sc->nr_tasks * ((size_t)sc->nr_local_timers * sizeof(struct prog_timer) + 16);
	n += (size_t)sc->nr_sync * sizeof(struct sync_state) + 16;
	n += ((size_t)sc->nr_actions + sc->nr_notes + sc->nr_irqs) * (sizeof(struct sched_timer) + 16);
	n += (size_t)(sc->nr_groups ? sc->nr_groups : 1) * (sizeof(struct task_group) + 48 +
		(size_t)sc->topo->nr_cpus * (2 * sizeof(void *) + sizeof(struct sched_entity) +
					      sizeof(struct cfs_rq) + 32));
	n += timers * sizeof(struct timer_slot) + 16;
	n += balance_arena_need(sds, sc->topo->nr_cpus) + herd_arena_need();
	n += scx_arena_need(sc);
	return n;
}

/* ---- setup ---- */

static void init_timer(struct sched_timer *t, int kind, int arg)
{
	t->kind = (u8)kind;
	t->arg = arg;
	t->heap_idx = -1;
}

static void init_tunables(struct sched_engine *e)
{
	const struct sched_scenario *sc = e->sc;
	struct sched_state *st = e->st;
	unsigned int factor;

	for (int t = 0; t < NR_SCHED_TUNABLES; t++)
		st->tunable[t] = sched_default_tunable(e->kernel, t);
	if (sc->tunable_set[TUN_TUNABLE_SCALING])
		st->tunable[TUN_TUNABLE_SCALING] = sc->tunable[TUN_TUNABLE_SCALING];

	/* update_sysctl(): the latency-type knobs grow with log2 of the CPU count */
	factor = sched_sysctl_factor(st->nr_cpus, st->tunable[TUN_TUNABLE_SCALING]);
	st->tunable[TUN_BASE_SLICE] *= factor;
	st->tunable[TUN_LATENCY] *= factor;
	st->tunable[TUN_MIN_GRANULARITY] *= factor;
	st->tunable[TUN_WAKEUP_GRANULARITY] *= factor;

	for (int i = 0; i < NR_SCHED_COSTS; i++)
		if (sc->topo->cost_set[i])
			st->tunable[TUN_COST_FIRST + i] = sc->topo->cost[i];
	for (int t = 0; t < NR_SCHED_TUNABLES; t++)
		if (sc->tunable_set[t])
			st->tunable[t] = sc->tunable[t];
	/* sched_update_scaling(): a written value back-computes the normalized one */
	st->normalized_base_slice = st->tunable[TUN_BASE_SLICE] / factor;
}

static void init_rq(struct rq *rq, int cpu, struct task_struct *idle, u32 capacity)
{
	rq->cpu = cpu;
	rq->cpu_capacity_orig = capacity;
	rq->clock = rq->clock_task = rq->clock_pelt = SCHED_CLOCK_BOOT;
	init_cfs_rq(&rq->cfs, rq);
	init_rt_rq(&rq->rt, sysctl(TUN_RT_RUNTIME));
	init_dl_rq(&rq->dl);
	fair_server_init(rq);
	idle->pid = 0;
	idle->idx = -1;
	idle->cpu = cpu;
	idle->state = TASK_RUNNING;
	idle->on_cpu = true;
	idle->prio = NICE_TO_PRIO(0);	/* swapper shows prio 120 in traces */
	idle->se.exec_start = rq->clock_task;	/* idle since boot, for the fair server */
	idle->sched_class = &idle_sched_class;
	rq->idle = rq->curr = idle;
	rq->tick_stopped = true;	/* boots idle, and an idle CPU has no tick */
	rq->lb_kicked_ilb = -1;
	init_timer(&rq->tick.timer, T_TICK, cpu);
	init_timer(&rq->hrtick, T_HRTICK, cpu);
	init_timer(&rq->work, T_WORK, cpu);
	init_timer(&rq->intr_timer, T_IRQ_END, cpu);
	init_timer(&rq->ipi_timer, T_IPI, cpu);
	init_timer(&rq->stop_timer, T_STOP, cpu);
	INIT_LIST_HEAD(&rq->slack_list);
	INIT_LIST_HEAD(&rq->cfs_tasks);
	INIT_LIST_HEAD(&rq->migration_queue);
}

/*
 * The group table: the root's queues are the rq's own; every other group
 * gets an entity and a queue per CPU, attached below its parent's.
 */
static void init_task_groups(struct sched_engine *e)
{
	const struct sched_scenario *sc = e->sc;
	struct sched_state *st = e->st;
	int nr_cpus = st->nr_cpus;

	st->nr_groups = sc->nr_groups ? sc->nr_groups : 1;
	st->tg = arena_alloc(e, (size_t)st->nr_groups * sizeof(struct task_group));
	for (int g = 0; g < st->nr_groups; g++) {
		const struct sched_group_spec *spec = sc->nr_groups ? &sc->group[g] : NULL;
		struct task_group *tg = &st->tg[g];
		struct cfs_rq *queues = NULL;
		struct sched_entity *ses = NULL;

		tg->id = g;
		tg->parent = g ? &st->tg[spec->parent] : NULL;
		tg->shares = scale_load(!spec ? 1024 : spec->idle ? WEIGHT_IDLEPRIO : spec->shares);
		tg->idle = spec ? spec->idle : 0;
		tg->cfs_rq = arena_alloc(e, (size_t)nr_cpus * sizeof(*tg->cfs_rq));
		if (g) {
			tg->se = arena_alloc(e, (size_t)nr_cpus * sizeof(*tg->se));
			queues = arena_alloc(e, (size_t)nr_cpus * sizeof(*queues));
			ses = arena_alloc(e, (size_t)nr_cpus * sizeof(*ses));
		}
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			struct cfs_rq *cfs_rq = g ? &queues[cpu] : &st->rq[cpu].cfs;

			tg->cfs_rq[cpu] = cfs_rq;
			if (g)
				tg->se[cpu] = &ses[cpu];
			init_tg_cfs_entry(tg, cfs_rq, g ? &ses[cpu] : NULL, cpu,
					  tg->parent && tg->parent->se ? tg->parent->se[cpu] : NULL);
			cfs_rq->idle = tg->idle;
			if (g)
				attach_entity_cfs_rq(&ses[cpu]);
		}
		if (g)
			init_cfs_bandwidth(tg, spec->period, spec->quota, spec->burst);
	}
}

static void init_task(struct sched_engine *e, struct task_struct *p, int idx)
{
	const struct sched_task_spec *spec = &e->sc->task[idx];

	p->pid = idx + 1;
	p->idx = idx;
	p->state = TASK_NEW;
	p->spec = spec;
	p->prog = spec->prog;
	p->cpu = 0;
	for (int cpu = 0; cpu < e->st->nr_cpus; cpu++)
		if (!spec->has_cpus || cpumask_test(&spec->cpus, cpu))
			cpumask_set(&p->cpus_mask, cpu);
	p->nr_cpus_allowed = (int)cpumask_weight(&p->cpus_mask);
	p->policy = spec->policy;
	p->static_prio = p->prio = NICE_TO_PRIO(spec->nice);
	p->rt_priority = spec->rt_priority;
	if (rt_policy(spec->policy))
		p->prio = MAX_RT_PRIO - 1 - (int)spec->rt_priority;
	else if (dl_policy(spec->policy))
		p->prio = MAX_DL_PRIO - 1;
	if (dl_policy(spec->policy))
		__setparam_dl(p, spec->dl_runtime, spec->dl_deadline, spec->dl_period);
	p->se.slice = spec->slice;
	p->se.custom_slice = spec->slice != 0;
	p->sched_class = &fair_sched_class;
	p->sched_task_group = &e->st->tg[spec->group];
	p->loop_count = arena_alloc(e, (size_t)spec->prog->nr_loops * sizeof(u32));
	p->timer = arena_alloc(e, (size_t)e->sc->nr_local_timers * sizeof(struct prog_timer));
	p->blocked_on = p->relock = -1;
	init_timer(&p->wake_timer.timer, T_WAKE, idx);
	INIT_LIST_HEAD(&p->slack_node);
	INIT_LIST_HEAD(&p->group_node);
	INIT_LIST_HEAD(&p->migration_node);
	init_timer(&p->fork_timer, T_FORK, idx);
	init_timer(&p->dl.dl_timer, T_DL_TIMER, idx);
}

struct sched_engine *sched_engine_create(const struct sched_scenario *sc, char *err, size_t errlen)
{
	struct sched_engine *e = sched_calloc(1, sizeof(*e), "an engine");
	struct sched_state *st;
	int nr_cpus = sc->topo->nr_cpus;

	/* the parsers refuse longer times; a caller building a scenario by hand is told too */
	if (sc->duration > SCHED_TIME_MAX) {
		snprintf(err, errlen, "duration %lluns is beyond the longest time, %llus",
			 (unsigned long long)sc->duration, SCHED_TIME_MAX / NSEC_PER_SEC);
		free(e);
		return NULL;
	}
	e->sc = sc;
	e->kernel = sc->kernel;
	e->kernel_stable = sc->kernel_stable;
	e->variant = sc->variant;
	e->sds = sched_domains_build(sc->topo, e->kernel, err, errlen);
	if (!e->sds) {
		free(e);
		return NULL;
	}
	e->arena_size = arena_need(sc, e->sds);
	e->arena = sched_calloc_aligned(e->arena_size, SMP_CACHE_BYTES, "the engine's state");
	e->idle_comm = sched_calloc((size_t)nr_cpus, sizeof(*e->idle_comm), "the engine's state");
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		snprintf(e->idle_comm[cpu], sizeof(e->idle_comm[cpu]), "swapper/%d", cpu);
	sched_enter(e);
	st = e->st = arena_alloc(e, sizeof(*st));
	st->nr_cpus = nr_cpus;
	st->nr_tasks = sc->nr_tasks;
	st->features = (sched_default_features(e->kernel, e->kernel_stable, e->variant) | sc->features_set) &
		       ~sc->features_clear;
	st->tick_nsec = (NSEC_PER_SEC + sc->hz / 2) / sc->hz;
	init_tunables(e);
	sched_rand_seed(sc->seed);

	timer_queue_init(&st->tq, arena_alloc(e, (size_t)nr_timer_slots(sc) * sizeof(struct timer_slot)),
			 nr_timer_slots(sc));

	st->rq = arena_alloc(e, (size_t)nr_cpus * sizeof(struct rq));
	st->idle_task = arena_alloc_aligned(e, (size_t)nr_cpus * sizeof(struct task_struct),
					    _Alignof(struct task_struct));
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		init_rq(&st->rq[cpu], cpu, &st->idle_task[cpu], sc->topo->cpu[cpu].capacity);
	balance_init(arena_alloc);
	herd_init(arena_alloc);

	init_task_groups(e);

	dl_init_bandwidth();
	init_timer(&st->rt_period_timer, T_RT_PERIOD, 0);
	init_timer(&st->end_timer, T_END, 0);
	timer_arm(&st->tq, &st->end_timer, sc->duration);
	/* LinSched's freshly booted machine (before 3.8): every CPU takes its first
	 * tick, an idle one stops it there (tick_nohz_idle_enter()) */
	if (sched_domains_legacy(e->kernel))
		for (int cpu = 0; cpu < sc->topo->nr_cpus; cpu++) {
			st->rq[cpu].tick_stopped = false;
			timer_arm(&st->tq, &st->rq[cpu].tick.timer, st->tick_nsec);
		}

	st->sync = arena_alloc(e, (size_t)sc->nr_sync * sizeof(struct sync_state));
	st->task = arena_alloc_aligned(e, (size_t)sc->nr_tasks * sizeof(struct task_struct),
				       _Alignof(struct task_struct));
	for (int i = 0; i < sc->nr_tasks; i++)
		init_task(e, &st->task[i], i);
	/* a policy is loaded at boot: its enable is the first thing at time 0, before any fork */
	scx_init(arena_alloc);
	for (int i = 0; i < sc->nr_tasks; i++) {
		/* a task another one forks waits for that `fork` */
		if (!sc->task[i].forked)
			timer_arm(&st->tq, &st->task[i].fork_timer, sc->task[i].start);
	}
	st->action_timer = arena_alloc(e, (size_t)sc->nr_actions * sizeof(struct sched_timer));
	for (int i = 0; i < sc->nr_actions; i++) {
		init_timer(&st->action_timer[i], T_ACTION, i);
		timer_arm(&st->tq, &st->action_timer[i], sc->action[i].time);
	}
	st->irq_timer = arena_alloc(e, (size_t)sc->nr_irqs * sizeof(struct sched_timer));
	for (int i = 0; i < sc->nr_irqs; i++) {
		init_timer(&st->irq_timer[i], T_IRQ, i);
		timer_arm(&st->tq, &st->irq_timer[i], MAX(sched_sample_duration(&sc->irq[i].every), 1));
	}
	st->note_timer = arena_alloc(e, (size_t)sc->nr_notes * sizeof(struct sched_timer));
	for (int i = 0; i < sc->nr_notes; i++) {
		init_timer(&st->note_timer[i], T_NOTE, i);
		timer_arm(&st->tq, &st->note_timer[i], sc->note[i].time);
	}
	return e;
}

void sched_engine_destroy(struct sched_engine *e)
{
	if (!e)
		return;
	if (cur_engine == e)
		cur_engine = NULL;
	sched_texts_free(&e->texts);
	sched_domains_free(e->sds);
	free(e->invariant_sums);
	free(e->idle_comm);
	free(e->arena);
	free(e);
}

/* ---- events ---- */

int sched_add_listener(struct sched_engine *e, sched_event_fn fn, void *ctx)
{
	if (e->nr_listeners == SCHED_MAX_LISTENERS)
		return -1;
	e->listener[e->nr_listeners].fn = fn;
	e->listener[e->nr_listeners].ctx = ctx;
	e->nr_listeners++;
	return 0;
}

void sched_remove_listener(struct sched_engine *e, sched_event_fn fn, void *ctx)
{
	for (int i = 0; i < e->nr_listeners; i++) {
		if (e->listener[i].fn == fn && e->listener[i].ctx == ctx) {
			memmove(&e->listener[i], &e->listener[i + 1],
				(size_t)(e->nr_listeners - i - 1) * sizeof(e->listener[0]));
			e->nr_listeners--;
			return;
		}
	}
}

void sched_emit(struct sched_event *ev)
{
	struct sched_engine *e = cur_engine;

	ev->seq = e->st->nr_events++;
	for (int i = 0; i < e->nr_listeners; i++)
		e->listener[i].fn(e->listener[i].ctx, ev);
}

/* ---- commands ---- */

/*
 * sched_rt_handler(): the RT runtime may not exceed the period, and a
 * smaller limit must still hold the admitted deadline bandwidth.
 */
static int check_rt_tunables(const struct sched_command *c, char *err, size_t errlen)
{
	u64 period = c->key == TUN_RT_PERIOD ? (u64)c->value : sysctl(TUN_RT_PERIOD);
	u64 runtime = c->key == TUN_RT_RUNTIME ? (u64)c->value : sysctl(TUN_RT_RUNTIME);

	if (c->key != TUN_RT_PERIOD && c->key != TUN_RT_RUNTIME)
		return 0;
	if (runtime != RUNTIME_INF && runtime > period) {
		snprintf(err, errlen, "sched_rt_runtime_us may not exceed sched_rt_period_us (EINVAL)");
		return -1;
	}
	if (__dl_overflow(dl_bw_limit(period, runtime), dl_bw_capacity(), ST->dl_total_bw, 0, 0)) {
		snprintf(err, errlen, "the admitted SCHED_DEADLINE bandwidth would no longer fit (EBUSY)");
		return -1;
	}
	return 0;
}

static int check_policy(const struct sched_command *c, char *err, size_t errlen)
{
	struct task_struct *p = &ST->task[c->task];

	switch (c->key) {
	case SCHED_NORMAL:
	case SCHED_BATCH:
	case SCHED_IDLE:
	case SCHED_EXT:
		break;
	case SCHED_FIFO:
	case SCHED_RR:
		if (c->value < 1 || c->value > 99) {
			snprintf(err, errlen, "rt priority %lld is outside 1..99", (long long)c->value);
			return -1;
		}
		break;
	case SCHED_DEADLINE:
		if (!sched_dl_params_valid(c->dl.runtime, c->dl.deadline, c->dl.period)) {
			snprintf(err, errlen, "bad SCHED_DEADLINE parameters: need 1024ns <= runtime <= "
				 "deadline <= period, period 100us..4.194304s");
			return -1;
		}
		if (p->nr_cpus_allowed < ST->nr_cpus) {
			snprintf(err, errlen,
				 "%s: a deadline task must be allowed on all %d CPUs (EPERM); "
				 "nothing changed",
				 p->spec->name, ST->nr_cpus);
			return -1;
		}
		break;
	default:
		snprintf(err, errlen, "unknown policy %d", c->key);
		return -1;
	}
	if (p->state != TASK_NEW && p->state != TASK_DEAD &&
	    sched_dl_overflow(p, c->key, c->dl.runtime, c->dl.period ? c->dl.period : c->dl.deadline, false)) {
		snprintf(err, errlen, "%s: SCHED_DEADLINE admission failed: the deadline tasks would need "
			 "more than sched_rt_runtime_us/sched_rt_period_us of the CPUs (EBUSY); "
			 "nothing changed", p->spec->name);
		return -1;
	}
	return 0;
}

/* sched_setaffinity()'s refusals: no CPU of the machine (EINVAL), a deadline task narrowed (EBUSY). */
static int check_affinity(const struct task_struct *p, const struct cpumask *m, char *err, size_t errlen)
{
	int allowed = 0;

	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		allowed += cpumask_test(m, cpu);
	if (!allowed) {
		snprintf(err, errlen,
			 "%s: the new affinity has no CPU of the machine (EINVAL); nothing changed",
			 p->spec->name);
		return -1;
	}
	if (dl_task(p) && allowed < ST->nr_cpus) {
		snprintf(err, errlen,
			 "%s: a deadline task's affinity must span its root domain, all %d CPUs "
			 "(EBUSY); nothing changed",
			 p->spec->name, ST->nr_cpus);
		return -1;
	}
	return 0;
}

static int check_command(const struct sched_command *c, char *err, size_t errlen)
{
	switch (c->kind) {
	case CMD_SET_TUNABLE:
		if (c->key < 0 || c->key >= NR_SCHED_TUNABLES)
			break;
		if ((u64)c->value < sched_tunable_descs[c->key].min ||
		    (u64)c->value > sched_tunable_descs[c->key].max) {
			snprintf(err, errlen, "%s=%lld is out of range", sched_tunable_descs[c->key].name,
				 (long long)c->value);
			return -1;
		}
		return check_rt_tunables(c, err, errlen);
	case CMD_SET_FEATURE:
		return c->key >= 0 && c->key < NR_SCHED_FEATURES ? 0 : (snprintf(err, errlen, "unknown feature"), -1);
	case CMD_SET_NICE:
	case CMD_SET_POLICY:
		if (c->task < 0 || c->task >= ST->nr_tasks)
			break;
		if (c->kind == CMD_SET_NICE && (c->value < -20 || c->value > 19)) {
			snprintf(err, errlen, "nice %lld is outside -20..19", (long long)c->value);
			return -1;
		}
		if (c->kind == CMD_SET_POLICY)
			return check_policy(c, err, errlen);
		return 0;
	case CMD_SET_SLICE:
		if (c->task < 0 || c->task >= ST->nr_tasks)
			break;
		if (c->value && (c->value < 100000 || c->value > 100000000)) {
			snprintf(err, errlen, "slice must be 0 (default) or 100us..100ms");
			return -1;
		}
		return 0;
	case CMD_MOVE_TASK:
		if (c->task < 0 || c->task >= ST->nr_tasks || c->key < 0 || c->key >= ST->nr_groups)
			break;
		return 0;
	case CMD_SET_CPUS:
		if (c->task < 0 || c->task >= ST->nr_tasks)
			break;
		return check_affinity(&ST->task[c->task], &c->cpus, err, errlen);
	case CMD_SET_GROUP_SHARES:
	case CMD_SET_GROUP_IDLE:
	case CMD_SET_GROUP_MAX:
	case CMD_SET_GROUP_BURST:
		if (c->key <= 0 || c->key >= ST->nr_groups)
			break;
		return check_group_command(&ST->tg[c->key], c, err, errlen);
	}
	snprintf(err, errlen, "malformed command");
	return -1;
}

static void reschedule_cpu(int cpu);

static void apply_command(const struct sched_command *c, u32 index)
{
	struct sched_event ev;
	struct task_struct *p = c->task >= 0 && c->task < ST->nr_tasks ? &ST->task[c->task] : NULL;
	struct sched_attr attr;
	int cpu;

	sched_event_init(&ev, EV_COMMAND, p ? p->cpu : 0);
	ev.command.index = index;
	ev.command.kind = c->kind;
	ev.command.task = c->task;
	ev.command.key = c->key;
	ev.command.value = c->value;
	sched_emit(&ev);

	switch (c->kind) {
	case CMD_SET_TUNABLE:
		ST->tunable[c->key] = (u64)c->value;
		if (c->key == TUN_BASE_SLICE)
			ST->normalized_base_slice = (u64)c->value /
				sched_sysctl_factor(ST->nr_cpus, ST->tunable[TUN_TUNABLE_SCALING]);
		break;
	case CMD_SET_FEATURE:
		if (c->value)
			ST->features |= FEAT_BIT(c->key);
		else
			ST->features &= ~FEAT_BIT(c->key);
		break;
	case CMD_SET_NICE:
		set_user_nice(p, (int)c->value);
		break;
	case CMD_SET_POLICY:	/* keeps the nice it has now */
		sched_getattr(p, &attr);
		attr.policy = c->key;
		attr.rt_priority = rt_policy(c->key) ? (unsigned int)c->value : 0;
		attr.dl_runtime = c->dl.runtime;
		attr.dl_deadline = c->dl.deadline;
		attr.dl_period = c->dl.period;
		/* a set that fails admission changes nothing (the scenario's check makes it rare) */
		__sched_setscheduler(p, &attr);
		break;
	case CMD_SET_SLICE:
		sched_getattr(p, &attr);
		attr.slice = (u64)c->value;
		__sched_setscheduler(p, &attr);
		break;
	case CMD_MOVE_TASK:
		sched_move_task(p, &ST->tg[c->key]);
		break;
	case CMD_SET_CPUS:
		/* sched_setaffinity() waits for the stopper's move (stop_one_cpu()); a refusal changes nothing */
		if (!check_affinity(p, &c->cpus, NULL, 0) && (cpu = set_cpus_allowed_ptr(p, &c->cpus)) >= 0)
			reschedule_cpu(cpu);
		break;
	case CMD_SET_GROUP_SHARES:
	case CMD_SET_GROUP_IDLE:
	case CMD_SET_GROUP_MAX:
	case CMD_SET_GROUP_BURST:
		apply_group_command(&ST->tg[c->key], c);
		break;
	}
}

/* ---- the event loop ---- */

static void clear_resched_pending(int cpu)
{
	u64 *word = &ST->resched_pending[cpu >> 6];

	*word &= ~(1ULL << (cpu & 63));
	if (!*word)
		ST->resched_pending_words &= ~(1ULL << (cpu >> 6));
}

/*
 * Run schedule() on every CPU that asked for it, lowest CPU first, until
 * none does. The summary word finds the lowest without scanning the
 * machine's mask on every pass.
 */
static void run_pending_reschedules(void)
{
	for (;;) {
		int w, cpu;

		/* what the ext class deferred to the end of the operation that asked for it */
		if (ST->scx)
			scx_run_deferred();
		if (!ST->resched_pending_words)
			return;
		w = __builtin_ctzll(ST->resched_pending_words);
		cpu = w * 64 + __builtin_ctzll(ST->resched_pending[w]);
		clear_resched_pending(cpu);
		if (rq_switch_due(cpu_rq(cpu)))
			__schedule(cpu_rq(cpu));
	}
}

static void fire_timer(struct sched_timer *t)
{
	struct rq *rq;
	struct sched_event ev;

	switch (t->kind) {
	case T_TICK:
		sched_tick(cpu_rq(t->arg));
		break;
	case T_HRTICK:
		rq = cpu_rq(t->arg);
		update_rq_clock(rq);
		rq->curr->sched_class->task_tick(rq, rq->curr, 1);
		break;
	case T_WORK:
		rq = cpu_rq(t->arg);
		update_rq_clock(rq);
		task_account_work(rq, rq->curr);
		if (rq->curr->work_left)
			task_arm_work(rq, rq->curr);
		else
			task_program_step(rq->curr);
		break;
	case T_WAKE:
		hrtimer_sleep_over(&ST->task[t->arg]);
		hrtimer_wakeup_irq(&ST->task[t->arg]);
		try_to_wake_up(&ST->task[t->arg], 0);
		break;
	case T_FORK:
		wake_up_new_task(&ST->task[t->arg], NULL);
		break;
	case T_ACTION:
		apply_command(&E->sc->action[t->arg].cmd, (u32)t->arg);
		break;
	case T_CFS_PERIOD:
		sched_cfs_period_timer(&ST->tg[t->arg]);
		break;
	case T_CFS_SLACK:
		sched_cfs_slack_timer(&ST->tg[t->arg]);
		break;
	case T_IRQ:
		irq_source_fire(t->arg);
		break;
	case T_IRQ_END:
		irq_end(cpu_rq(t->arg));
		break;
	case T_NOTE:
		sched_event_init(&ev, EV_NOTE, 0);
		ev.note.index = (u32)t->arg;
		sched_emit(&ev);
		break;
	case T_END:
		ST->finished = true;
		break;
	case T_RT_PERIOD:
		sched_rt_period_timer();
		break;
	case T_DL_TIMER:
		dl_task_timer(t->arg >= 0 ? &ST->task[t->arg].dl : &cpu_rq(-1 - t->arg)->fair_server);
		break;
	case T_SCX_WATCHDOG:
		scx_watchdog_timer_fn();
		break;
	case T_SCX_TIMER:
		scx_timer_fn(t->arg);
		break;
	case T_IPI:
		break;
	case T_STOP:
		linsched_wake_stop(cpu_rq(t->arg));
		break;
	}
}

/* schedule() on cpu while it asks for it (another CPU's request included). */
static void reschedule_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	while (rq_switch_due(rq)) {
		clear_resched_pending(cpu);
		__schedule(rq);
	}
}

/*
 * A reschedule asked of a CPU from another one's interrupt, which that CPU
 * has not met by the instant's end: on LinSched's machine it waits for its
 * IPI timer (linsched.c); else it is met then.
 */
static void send_pending_reschedules(int kind)
{
	/* the boot's forks and the harness's commands ran before the machine started */
	if (!linsched_machine() || kind == T_FORK || kind == T_ACTION) {
		run_pending_reschedules();
		return;
	}
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		if (cpu_rq(cpu)->need_resched)
			linsched_trigger_cpu(cpu_rq(cpu));
}

/*
 * Before 3.8, LinSched's order at one instant: CPU by CPU, each CPU's
 * timers (the tick's hard interrupt part, wakeups), then its softirq
 * (rebalance_domains(), the NO_HZ kick), then its running task's program,
 * then its schedule(). A reschedule asked of a CPU that has nothing due at
 * that instant waits for the instant's end (send_pending_reschedules()).
 */
static void after_timer_legacy(int cpu, int kind)
{
	struct sched_timer *n = timer_peek(&ST->tq);
	bool same_instant = n && n->expires == ST->now;
	bool same_cpu = same_instant && timer_cpu(n) == cpu;

	/* LinSched's harness schedules its CPU after each task it creates
	 * (linsched_check_resched()): the next fork's parent is the task running there */
	if (kind == T_FORK)
		reschedule_cpu(FORK_CPU);
	if (cpu >= 0 && kind != T_WORK) {
		struct rq *rq = cpu_rq(cpu);

		/* more of this CPU's timers first */
		if (same_cpu && n->kind != T_WORK)
			return;
		run_rebalance_legacy(rq);
		/* an idle CPU's event ends in tick_nohz_idle_enter(): its tick stops */
		if (rq->curr == rq->idle && !rq->nr_running && !rq->need_resched && !rq->tick_stopped)
			tick_stop(rq);
		/* its task's program next */
		if (same_cpu)
			return;
	}
	if (cpu >= 0)
		reschedule_cpu(cpu);
	if (!same_instant)
		send_pending_reschedules(kind);
}

bool sched_step(struct sched_engine *e)
{
	struct sched_timer *t;
	int cpu;

	sched_enter(e);
	if (e->st->finished)
		return false;
	t = timer_pop(&e->st->tq);
	if (!t) {
		e->st->finished = true;
		return false;
	}
	e->st->now = t->expires;
	e->st->nr_steps++;
	cpu = legacy_balance() ? timer_cpu(t) : -1;
	fire_timer(t);
	if (legacy_balance())
		after_timer_legacy(cpu, t->kind);
	else
		run_pending_reschedules();
	if (e->invariant_fn)
		sched_check_invariants(e);
	return !e->st->finished;
}

void sched_run_until(struct sched_engine *e, u64 t)
{
	while (!e->st->finished && sched_next_time(e) <= t)
		sched_step(e);
	if (!e->st->finished && e->st->now < t)
		e->st->now = t;
}

int sched_check_command(struct sched_engine *e, const struct sched_command *c, char *err, size_t errlen)
{
	cur_engine = e;
	return check_command(c, err, errlen);
}

int sched_apply_command(struct sched_engine *e, const struct sched_command *c, char *err, size_t errlen)
{
	sched_enter(e);
	if (check_command(c, err, errlen))
		return -1;
	apply_command(c, ~0U);
	run_pending_reschedules();
	if (e->invariant_fn)
		sched_check_invariants(e);
	return 0;
}

u64 sched_now(const struct sched_engine *e)
{
	return e->st->now;
}

u64 sched_next_time(const struct sched_engine *e)
{
	struct sched_timer *t = timer_peek(&e->st->tq);

	return t ? t->expires : UINT64_MAX;
}

bool sched_finished(const struct sched_engine *e)
{
	return e->st->finished;
}

u64 sched_nr_events(const struct sched_engine *e)
{
	return e->st->nr_events;
}

u64 sched_nr_steps(const struct sched_engine *e)
{
	return e->st->nr_steps;
}

/* ---- checkpoints ---- */

size_t sched_state_size(const struct sched_engine *e)
{
	return e->arena_used;
}

void sched_state_save(const struct sched_engine *e, void *buf)
{
	memcpy(buf, e->arena, e->arena_used);
}

void sched_state_restore(struct sched_engine *e, const void *buf)
{
	memcpy(e->arena, buf, e->arena_used);
}
