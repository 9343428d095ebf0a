// SPDX-License-Identifier: GPL-2.0
/*
 * Task groups (kernel/sched/fair.c's CONFIG_FAIR_GROUP_SCHED parts and
 * core.c's cgroup hooks): a group's weight per CPU from calc_group_shares(),
 * the differential tg->load_avg, PELT handed from a group's queue up to its
 * entity, h_load for the balancer, and moving tasks between groups.
 */
#include <stdio.h>

#include "internal.h"

void init_tg_cfs_entry(struct task_group *tg, struct cfs_rq *cfs_rq, struct sched_entity *se,
		       int cpu, struct sched_entity *parent)
{
	struct rq *rq = cpu_rq(cpu);

	cfs_rq->tg = tg;
	cfs_rq->rq = rq;
	if (!se)
		return;
	init_cfs_rq(cfs_rq, rq);
	se->cfs_rq = parent ? parent->my_q : &rq->cfs;
	se->depth = parent ? parent->depth + 1 : 0;
	se->my_q = cfs_rq;
	se->parent = parent;
	/* a group entity always has weight, even before anything runs in it */
	update_load_set(&se->load, NICE_0_LOAD);
	se->slice = sysctl(TUN_BASE_SLICE);
	init_entity_runnable_average(se);
}

/* ---- the group's weight on each CPU ---- */

/*
 * ge->load.weight = tg->shares * grq_load / tg_load, where this queue's own
 * part of tg->load_avg is replaced by its current value, so a queue that
 * just got busy is not starved while the average catches up.
 */
long calc_group_shares(struct cfs_rq *cfs_rq)
{
	struct task_group *tg = cfs_rq->tg;
	long tg_shares = (long)tg->shares;
	long load = (long)MAX(scale_load_down(cfs_rq->load.weight), cfs_rq->avg.load_avg);
	long tg_weight = tg->load_avg - (long)cfs_rq->tg_load_avg_contrib + load;
	long shares = tg_shares * load;

	if (tg_weight)
		shares /= tg_weight;
	/* MIN_SHARES unscaled: a floor, so a tiny group can still split across CPUs */
	return CLAMP(shares, (long)MIN_SHARES, tg_shares);
}

void update_cfs_group(struct sched_entity *se)
{
	struct cfs_rq *gcfs_rq = group_cfs_rq(se);
	long shares;

	/* an emptied group keeps its weight (DELAY_DEQUEUE relies on it) */
	if (!gcfs_rq || !gcfs_rq->load.weight || throttled_hierarchy(gcfs_rq))
		return;
	/* the old scheme sets group weights in its periodic walk only */
	if (sched_feat(TG_SHARES_UP_WALK))
		return;
	ST->nr_calc_group_shares++;
	shares = calc_group_shares(gcfs_rq);
	if (se->load.weight != (unsigned long)shares)
		reweight_entity(cfs_rq_of(se), se, (unsigned long)shares);
}

/*
 * tg->load_avg = Σ cfs_rq->avg.load_avg, updated by differences and only
 * when this queue's changed by more than 1/64, at most once per ms.
 */
void update_tg_load_avg(struct cfs_rq *cfs_rq)
{
	u64 now = rq_clock(rq_of(cfs_rq));
	long delta;

	if (cfs_rq->tg == root_task_group())
		return;
	if (now - cfs_rq->last_update_tg_load_avg < NSEC_PER_MSEC)
		return;
	delta = (long)cfs_rq->avg.load_avg - (long)cfs_rq->tg_load_avg_contrib;
	if ((delta < 0 ? -delta : delta) > (long)(cfs_rq->tg_load_avg_contrib / 64)) {
		cfs_rq->tg->load_avg += delta;
		cfs_rq->tg_load_avg_contrib = cfs_rq->avg.load_avg;
		cfs_rq->last_update_tg_load_avg = now;
	}
}

/* ---- PELT propagation from a group's queue to its entity ---- */

void add_tg_cfs_propagate(struct cfs_rq *cfs_rq, long runnable_sum)
{
	cfs_rq->propagate = 1;
	cfs_rq->prop_runnable_sum += runnable_sum;
}

/* The entity's utilisation is its queue's. */
static void update_tg_cfs_util(struct cfs_rq *cfs_rq, struct sched_entity *se, struct cfs_rq *gcfs_rq)
{
	long delta_avg = (long)gcfs_rq->avg.util_avg - (long)se->avg.util_avg;
	u32 divider, new_sum;
	long delta_sum;

	if (!delta_avg)
		return;
	divider = get_pelt_divider(&cfs_rq->avg);
	se->avg.util_avg = gcfs_rq->avg.util_avg;
	new_sum = (u32)(se->avg.util_avg * divider);
	delta_sum = (long)new_sum - (long)se->avg.util_sum;
	se->avg.util_sum = new_sum;
	add_positive_ul(&cfs_rq->avg.util_avg, delta_avg);
	add_positive_u32(&cfs_rq->avg.util_sum, delta_sum);
	cfs_rq->avg.util_sum = MAX(cfs_rq->avg.util_sum, (u32)(cfs_rq->avg.util_avg * PELT_MIN_DIVIDER));
}

static void update_tg_cfs_runnable(struct cfs_rq *cfs_rq, struct sched_entity *se,
				   struct cfs_rq *gcfs_rq)
{
	long delta_avg = (long)gcfs_rq->avg.runnable_avg - (long)se->avg.runnable_avg;
	u64 new_sum;
	u32 divider;
	long delta_sum;

	if (!delta_avg)
		return;
	divider = get_pelt_divider(&cfs_rq->avg);
	se->avg.runnable_avg = gcfs_rq->avg.runnable_avg;
	new_sum = (u64)se->avg.runnable_avg * divider;
	delta_sum = (long)new_sum - (long)se->avg.runnable_sum;
	se->avg.runnable_sum = new_sum;
	add_positive_ul(&cfs_rq->avg.runnable_avg, delta_avg);
	add_positive_u64(&cfs_rq->avg.runnable_sum, delta_sum);
	cfs_rq->avg.runnable_sum = MAX((u32)cfs_rq->avg.runnable_sum,
				       (u32)(cfs_rq->avg.runnable_avg * PELT_MIN_DIVIDER));
}

/*
 * Load is the delicate one: tasks joining add their runnable time
 * (clipped at the maximum); tasks leaving are assumed as runnable as the
 * rest; never below the running time.
 */
static void update_tg_cfs_load(struct cfs_rq *cfs_rq, struct sched_entity *se, struct cfs_rq *gcfs_rq)
{
	long runnable_sum = gcfs_rq->prop_runnable_sum, running_sum, delta_avg;
	unsigned long load_avg;
	u64 load_sum = 0;
	s64 delta_sum;
	u32 divider;

	if (!runnable_sum)
		return;
	gcfs_rq->prop_runnable_sum = 0;
	divider = get_pelt_divider(&cfs_rq->avg);

	if (runnable_sum >= 0) {
		runnable_sum += (long)se->avg.load_sum;
		runnable_sum = MIN(runnable_sum, (long)divider);
	} else {
		if (scale_load_down(gcfs_rq->load.weight))
			load_sum = gcfs_rq->avg.load_sum / scale_load_down(gcfs_rq->load.weight);
		runnable_sum = (long)MIN(se->avg.load_sum, load_sum);
	}
	running_sum = (long)(se->avg.util_sum >> SCHED_CAPACITY_SHIFT);
	runnable_sum = MAX(runnable_sum, running_sum);

	load_sum = scale_load_down(se->load.weight) * (u64)runnable_sum;
	load_avg = load_sum / divider;
	delta_avg = (long)load_avg - (long)se->avg.load_avg;
	if (!delta_avg)
		return;
	delta_sum = (s64)load_sum - (s64)(scale_load_down(se->load.weight) * se->avg.load_sum);
	se->avg.load_sum = (u64)runnable_sum;
	se->avg.load_avg = load_avg;
	add_positive_ul(&cfs_rq->avg.load_avg, delta_avg);
	add_positive_u64(&cfs_rq->avg.load_sum, delta_sum);
	cfs_rq->avg.load_sum = MAX((u32)cfs_rq->avg.load_sum, (u32)(cfs_rq->avg.load_avg * PELT_MIN_DIVIDER));
}

int propagate_entity_load_avg(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq, *gcfs_rq;

	if (entity_is_task(se))
		return 0;
	gcfs_rq = group_cfs_rq(se);
	if (!gcfs_rq->propagate)
		return 0;
	gcfs_rq->propagate = 0;
	cfs_rq = cfs_rq_of(se);
	add_tg_cfs_propagate(cfs_rq, gcfs_rq->prop_runnable_sum);
	update_tg_cfs_util(cfs_rq, se, gcfs_rq);
	update_tg_cfs_runnable(cfs_rq, se, gcfs_rq);
	update_tg_cfs_load(cfs_rq, se, gcfs_rq);
	return 1;
}

/* After an attach or detach below, refresh every level up to the root. */
static void propagate_entity_cfs_rq(struct sched_entity *se)
{
	for (se = se->parent; se; se = se->parent)
		update_load_avg(cfs_rq_of(se), se, UPDATE_TG);
}

void attach_entity_cfs_rq(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	update_load_avg(cfs_rq, se, sched_feat(ATTACH_AGE_LOAD) ? 0 : SKIP_AGE_LOAD);
	attach_entity_load_avg(cfs_rq, se);
	update_tg_load_avg(cfs_rq);
	propagate_entity_cfs_rq(se);
}

void detach_entity_cfs_rq(struct sched_entity *se)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);

	/* never attached: forked but not woken yet */
	if (!se->avg.last_update_time)
		return;
	update_load_avg(cfs_rq, se, 0);
	detach_entity_load_avg(cfs_rq, se);
	update_tg_load_avg(cfs_rq);
	propagate_entity_cfs_rq(se);
}

static bool skip_blocked_update(struct sched_entity *se)
{
	if (se->avg.load_avg || se->avg.util_avg)
		return false;
	return !group_cfs_rq(se)->propagate;
}

/*
 * Decay the load left by tasks that went to sleep (the balancer calls this
 * before it reads loads). Children come after parents in the group table,
 * so walking it backwards goes leaf first.
 */
void update_blocked_averages(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	const struct sched_class *curr_class;

	update_rq_clock(rq);
	/* __update_blocked_others(): the other classes' and the interrupts' signals decay too */
	curr_class = rq->curr->sched_class;
	update_rt_rq_load_avg(rq_clock_pelt(rq), rq, curr_class == &rt_sched_class);
	update_dl_rq_load_avg(rq_clock_pelt(rq), rq, curr_class == &dl_sched_class);
	update_irq_load_avg(rq, 0);
	for (int g = ST->nr_groups - 1; g >= 0; g--) {
		struct task_group *tg = &ST->tg[g];
		struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];
		struct sched_entity *se;

		if (update_cfs_rq_load_avg(cfs_rq_clock_pelt(cfs_rq), cfs_rq))
			update_tg_load_avg(cfs_rq);
		se = tg->se ? tg->se[cpu] : NULL;
		if (se && !skip_blocked_update(se))
			update_load_avg(cfs_rq_of(se), se, UPDATE_TG);
	}
}

/* ---- h_load: a queue's share of its CPU's load, top down ---- */

static unsigned long cfs_rq_load_avg(struct cfs_rq *cfs_rq)
{
	return cfs_rq->avg.load_avg;
}

void update_cfs_rq_h_load(struct cfs_rq *cfs_rq)
{
	struct rq *rq = rq_of(cfs_rq);
	struct sched_entity *se = cfs_rq->tg->se ? cfs_rq->tg->se[rq->cpu] : NULL;
	u64 now = jiffies();

	if (cfs_rq->last_h_load_update == now)
		return;
	cfs_rq->h_load_next = NULL;
	for_each_sched_entity(se) {
		cfs_rq = cfs_rq_of(se);
		cfs_rq->h_load_next = se;
		if (cfs_rq->last_h_load_update == now)
			break;
	}
	if (!se) {
		cfs_rq->h_load = cfs_rq_load_avg(cfs_rq);
		cfs_rq->last_h_load_update = now;
	}
	while ((se = cfs_rq->h_load_next) != NULL) {
		unsigned long load = cfs_rq->h_load;

		load = load * se->avg.load_avg / (cfs_rq_load_avg(cfs_rq) + 1);
		cfs_rq = group_cfs_rq(se);
		cfs_rq->h_load = load;
		cfs_rq->last_h_load_update = now;
	}
}

/* update_cfs_rq_h_load() without its per-jiffy cache: reading must not change what the balancer sees. */
unsigned long h_load_now(struct cfs_rq *q)
{
	struct sched_entity *se = q->tg->se ? q->tg->se[rq_of(q)->cpu] : NULL;

	if (!se)
		return cfs_rq_load_avg(q);
	return h_load_now(cfs_rq_of(se)) * se->avg.load_avg / (cfs_rq_load_avg(cfs_rq_of(se)) + 1);
}

/* What task_h_load() would give with an h_load computed now; it changes nothing. */
unsigned long task_h_load_now(struct task_struct *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	return p->se.avg.load_avg * h_load_now(cfs_rq) / (cfs_rq_load_avg(cfs_rq) + 1);
}

unsigned long task_h_load(struct task_struct *p)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(&p->se);

	update_cfs_rq_h_load(cfs_rq);
	return p->se.avg.load_avg * cfs_rq->h_load / (cfs_rq_load_avg(cfs_rq) + 1);
}

/* ---- cgroup writes ---- */

/* cpu.weight / cpu.shares; the caller refuses it on an idle group as the kernel does. */
void sched_group_set_shares(struct task_group *tg, unsigned long shares)
{
	shares = CLAMP(shares, scale_load(MIN_SHARES), scale_load(MAX_SHARES));
	if (tg->shares == shares)
		return;
	tg->shares = shares;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		struct sched_entity *se = tg->se[cpu];

		update_rq_clock(cpu_rq(cpu));
		for_each_sched_entity(se) {
			update_load_avg(cfs_rq_of(se), se, UPDATE_TG);
			update_cfs_group(se);
		}
	}
}

/* cpu.idle: the group's entities become SCHED_IDLE-like, with the idle weight. */
void sched_group_set_idle(struct task_group *tg, int idle)
{
	if (tg->idle == idle)
		return;
	tg->idle = idle;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		struct sched_entity *se = tg->se[cpu];
		struct cfs_rq *grp = tg->cfs_rq[cpu];
		long delta;

		grp->idle = idle;
		if (!se->on_rq)
			continue;
		/* the levels above now count this group's non-idle tasks as idle, or back */
		delta = (long)grp->h_nr_running - (long)grp->idle_h_nr_running;
		if (!idle)
			delta = -delta;
		for_each_sched_entity(se) {
			struct cfs_rq *cfs_rq = cfs_rq_of(se);

			if (!se->on_rq)
				break;
			cfs_rq->idle_h_nr_running += delta;
			if (cfs_rq_is_idle(cfs_rq))
				break;
		}
	}
	sched_group_set_shares(tg, idle ? scale_load(WEIGHT_IDLEPRIO) : NICE_0_LOAD);
}

void task_change_group_fair(struct task_struct *p)
{
	struct sched_entity *se = &p->se;

	if (sched_legacy_cfs() && !p->on_rq && se->sum_exec_runtime) {
		/* a sleeper's vruntime moves relative to the queue it leaves */
		place_entity_legacy(cfs_rq_of(se), se, 0);
		se->vruntime -= cfs_rq_of(se)->min_vruntime;
	}
	detach_entity_cfs_rq(se);
	se->avg.last_update_time = 0;	/* its queue changed, as after a migration */
	set_task_rq(p, p->cpu);
	attach_entity_cfs_rq(se);
	if (sched_legacy_cfs() && !p->on_rq && se->sum_exec_runtime)
		se->vruntime += cfs_rq_of(se)->min_vruntime;
}

/* ---- run-time cgroup writes: refused (with why) where the kernel returns -EINVAL ---- */

/* err may be NULL with errlen 0: apply_group_command() needs only the verdict */
int check_group_command(struct task_group *tg, const struct sched_command *c, char *err, size_t errlen)
{
	struct cfs_bandwidth *b = &tg->cfs_bandwidth;
	u64 quota = b->quota, period = b->period, burst = b->burst;

	switch (c->kind) {
	case CMD_SET_GROUP_SHARES:
		if (c->value < (s64)MIN_SHARES || c->value > (s64)MAX_SHARES) {
			snprintf(err, errlen, "shares %lld are outside %lu..%lu", (long long)c->value,
				 MIN_SHARES, MAX_SHARES);
			return -1;
		}
		if (tg->idle) {
			snprintf(err, errlen, "the group is cpu.idle: its weight cannot be set");
			return -1;
		}
		return 0;
	case CMD_SET_GROUP_IDLE:
		return c->value == 0 || c->value == 1 ? 0 : (snprintf(err, errlen, "cpu.idle is 0 or 1"), -1);
	case CMD_SET_GROUP_MAX:
		quota = c->value < 0 ? RUNTIME_INF : (u64)c->value;
		if (c->value2)
			period = (u64)c->value2;
		break;
	case CMD_SET_GROUP_BURST:
		burst = (u64)c->value;
		break;
	}
	if (period < NSEC_PER_MSEC || period > NSEC_PER_SEC) {
		snprintf(err, errlen, "cpu.max period must be 1ms..1s");
		return -1;
	}
	if (quota != RUNTIME_INF && quota < NSEC_PER_MSEC) {
		snprintf(err, errlen, "cpu.max quota must be at least 1ms");
		return -1;
	}
	if (quota != RUNTIME_INF && burst > quota) {
		snprintf(err, errlen, "cpu.max.burst must not exceed the quota");
		return -1;
	}
	return 0;
}

/* Scenario actions were checked against the file; a state that makes one invalid leaves it unapplied. */
void apply_group_command(struct task_group *tg, const struct sched_command *c)
{
	struct cfs_bandwidth *b = &tg->cfs_bandwidth;

	if (check_group_command(tg, c, NULL, 0))
		return;
	switch (c->kind) {
	case CMD_SET_GROUP_SHARES:
		sched_group_set_shares(tg, scale_load((unsigned long)c->value));
		break;
	case CMD_SET_GROUP_IDLE:
		sched_group_set_idle(tg, (int)c->value);
		break;
	case CMD_SET_GROUP_MAX:
		tg_set_cfs_bandwidth(tg, c->value2 ? (u64)c->value2 : b->period,
				     c->value < 0 ? RUNTIME_INF : (u64)c->value, b->burst);
		break;
	case CMD_SET_GROUP_BURST:
		tg_set_cfs_bandwidth(tg, b->period, b->quota, (u64)c->value);
		break;
	}
}
