// SPDX-License-Identifier: GPL-2.0
/*
 * Invariant checks: what the kernel asserts with SCHED_WARN_ON (and what its
 * data structures imply), checked over the whole engine state after every
 * step when enabled (`schedscope run --check-invariants`, the sanitizer
 * build's tests, the engine fuzzer). Off, they cost one test per step.
 *
 * Each check names itself, the CPU and the simulated time; a violation goes
 * to the handler and then aborts, since the state is no longer the kernel's.
 *
 * Checked: the counts of every cfs_rq (nr_running, h_nr_running,
 * h_nr_delayed, idle_h_nr_running) and load.weight against the entities
 * queued on it; the timeline's order, links, avg_vruntime/avg_load sums and
 * cached minima; curr and the buddies; rq->nr_running against the classes;
 * rq->cfs_tasks; PELT bounds; tg->load_avg; bandwidth throttling
 * (throttle_count, the throttled lists, runtime, 6.18's limbo lists); the
 * rt priority array and the deadline queue; task states; the nohz mask;
 * the clocks; the timer heap.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "api/topology.h"
#include "ext.h"

/* What the entities queued on one cfs_rq add up to. */
struct cfs_rq_sum {
	unsigned int nr, h_nr, h_delayed, idle_h;
	unsigned long load;
	unsigned int tasks; /* the root's: fair tasks queued on its CPU (rq->cfs_tasks) */
};

static struct sched_engine *chk;

static void __attribute__((format(printf, 3, 4), noreturn))
violated(const char *what, int cpu, const char *fmt, ...)
{
	char msg[512];
	int n;
	va_list ap;

	n = snprintf(msg, sizeof(msg), "invariant %s violated on CPU %d at %llu ns: ", what, cpu,
		     (unsigned long long)ST->now);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	chk->invariant_fn(chk->invariant_ctx, msg);
	abort();
}

#define CHECK(cond, what, cpu, ...)                       \
	do {                                              \
		if (!(cond))                              \
			violated(what, cpu, __VA_ARGS__); \
	} while (0)

static const char *group_path(const struct task_group *tg)
{
	return E->sc->nr_groups ? E->sc->group[tg->id].path : "/";
}

static const char *task_name(const struct task_struct *p)
{
	return p->spec ? p->spec->name : "swapper";
}

static struct cfs_rq_sum *sum_of(const struct cfs_rq *cfs_rq)
{
	return &chk->invariant_sums[(size_t)cfs_rq->tg->id * (size_t)ST->nr_cpus +
				    (size_t)rq_of((struct cfs_rq *)cfs_rq)->cpu];
}

/* ---- PELT: the bounds ___update_load_avg() and the removal clamps keep ---- */

static void check_sched_avg(const struct sched_avg *sa, int cpu, const char *who)
{
	CHECK(sa->period_contrib < 1024, "pelt.period_contrib", cpu, "%s: %u", who, sa->period_contrib);
	/* sum >= avg * PELT_MIN_DIVIDER, where the kernel's u32 max_t() does not truncate */
	CHECK((u64)sa->util_avg * PELT_MIN_DIVIDER > 0xffffffffULL ||
		      sa->util_sum >= (u64)sa->util_avg * PELT_MIN_DIVIDER,
	      "pelt.util_sum", cpu, "%s: util_sum %u below util_avg %lu x %d", who, sa->util_sum,
	      sa->util_avg, PELT_MIN_DIVIDER);
	CHECK((u64)sa->runnable_avg * PELT_MIN_DIVIDER > 0xffffffffULL ||
		      sa->runnable_sum >= (u64)sa->runnable_avg * PELT_MIN_DIVIDER,
	      "pelt.runnable_sum", cpu, "%s: runnable_sum %llu below runnable_avg %lu x %d", who,
	      (unsigned long long)sa->runnable_sum, sa->runnable_avg, PELT_MIN_DIVIDER);
}

/*
 * A task's util and runnable signals are fractions of one CPU. decay_load()
 * rounds down while the segment sums round up, so a task that never stops
 * can end a little above LOAD_AVG_MAX: allow 1/64 (the drift is ~0.2 %).
 * Its load is not bounded by its weight: a switch from RT or deadline to
 * fair sets the weight without rescaling load_avg (set_load_weight() with
 * the old class), in the kernel too.
 */
#define PELT_SLACK(x) ((x) + (x) / 64 + 1)

static void check_task_avg(const struct task_struct *p, int cpu)
{
	const struct sched_avg *sa = &p->se.avg;

	CHECK(sa->period_contrib < 1024, "pelt.period_contrib", cpu, "%s: %u", task_name(p),
	      sa->period_contrib);
	CHECK(sa->util_sum <= PELT_SLACK((u64)LOAD_AVG_MAX << SCHED_CAPACITY_SHIFT), "pelt.util_sum", cpu,
	      "%s: %u > LOAD_AVG_MAX << 10", task_name(p), sa->util_sum);
	CHECK(sa->util_avg <= PELT_SLACK(SCHED_CAPACITY_SCALE), "pelt.util_avg", cpu, "%s: %lu > 1024",
	      task_name(p), sa->util_avg);
	CHECK(sa->runnable_avg <= PELT_SLACK(SCHED_CAPACITY_SCALE), "pelt.runnable_avg", cpu,
	      "%s: %lu > 1024", task_name(p), sa->runnable_avg);
}

/* ---- what each queued entity adds to its cfs_rq ---- */

static void add_entity(struct sched_entity *se, int cpu)
{
	struct cfs_rq *cfs_rq = cfs_rq_of(se);
	struct cfs_rq_sum *s;

	if (!se->on_rq)
		return;
	CHECK(rq_of(cfs_rq)->cpu == cpu, "se.cfs_rq", cpu, "queued on CPU %d's queue", rq_of(cfs_rq)->cpu);
	CHECK(se->load.weight > 0, "se.load", cpu, "a queued entity of weight 0");
	s = sum_of(cfs_rq);
	s->nr++;
	s->load += se->load.weight;
	if (entity_is_task(se)) {
		s->h_nr++;
		s->h_delayed += se->sched_delayed;
		s->idle_h += task_has_idle_policy(task_of(se));
	} else {
		struct cfs_rq *my_q = group_cfs_rq(se);

		s->h_nr += my_q->h_nr_running;
		s->h_delayed += my_q->h_nr_delayed;
		s->idle_h += cfs_rq_is_idle(my_q) ? my_q->h_nr_running : my_q->idle_h_nr_running;
	}
}

/* ---- one cfs_rq ---- */

/* The timeline's value v counted into its extremum x: `wins` when v beats x's. */
static void count_extremum(struct tl_extremum *x, u64 v, bool first, bool wins)
{
	if (first || wins) {
		x->val = v;
		x->nr = 1;
	} else if (v == x->val) {
		x->nr++;
	}
}

static void check_extremum(const struct tl_extremum *cached, const struct tl_extremum *seen, const char *what,
			   int cpu, const char *path)
{
	if (!cached->stale)
		CHECK(cached->val == seen->val && cached->nr == seen->nr, what, cpu,
		      "%s: cached %llu x%u, timeline %llu x%u", path, (unsigned long long)cached->val,
		      cached->nr, (unsigned long long)seen->val, seen->nr);
}

static void check_timeline(struct cfs_rq *cfs_rq, int cpu, const char *path)
{
	struct tl_extremum min_v = { 0 }, min_s = { 0 }, max_s = { 0 };
	unsigned int n = 0;
	s64 avg = 0;
	u64 load = 0;
	struct sched_entity *prev = NULL, *se;
	const char *tree_err;

	list_for_each_entry (se, &cfs_rq->tl_list, tl_node) {
		unsigned long w = scale_load_down(se->load.weight);

		CHECK(se->tl_node.prev == (prev ? &prev->tl_node : &cfs_rq->tl_list), "timeline.links", cpu,
		      "%s: tl_node.prev broken", path);
		CHECK(se->on_rq && cfs_rq_of(se) == cfs_rq && se != cfs_rq->curr, "timeline.member", cpu,
		      "%s: an entity in the timeline is %s", path,
		      !se->on_rq	   ? "not queued"
		      : se == cfs_rq->curr ? "curr"
					   : "of another queue");
		if (prev) {
			u64 a = sched_legacy_cfs() ? prev->vruntime : prev->deadline;
			u64 b = sched_legacy_cfs() ? se->vruntime : se->deadline;

			CHECK((s64)(b - a) >= 0, "timeline.order", cpu, "%s: key %llu after %llu", path,
			      (unsigned long long)b, (unsigned long long)a);
		}
		avg += entity_key(cfs_rq, se) * (s64)w;
		load += w;
		count_extremum(&min_v, se->vruntime, !n, (s64)(se->vruntime - min_v.val) < 0);
		count_extremum(&min_s, se->slice, !n, se->slice < min_s.val);
		count_extremum(&max_s, se->slice, !n, se->slice > max_s.val);
		n++;
		prev = se;
	}
	CHECK(cfs_rq->tl_list.prev == (prev ? &prev->tl_node : &cfs_rq->tl_list), "timeline.links", cpu,
	      "%s: the list's tail is not the last entity", path);
	tree_err = timeline_tree_error(cfs_rq);
	CHECK(!tree_err, "timeline.tree", cpu, "%s: the search tree: %s", path, tree_err);
	CHECK(n == cfs_rq->nr_running - (cfs_rq->curr && cfs_rq->curr->on_rq), "timeline.count", cpu,
	      "%s: %u in the timeline, nr_running %u", path, n, cfs_rq->nr_running);
	/* a stale extremum is rescanned when asked for */
	if (n) {
		check_extremum(&cfs_rq->tl_min_vruntime, &min_v, "timeline.min_vruntime", cpu, path);
		check_extremum(&cfs_rq->tl_min_slice, &min_s, "timeline.min_slice", cpu, path);
		check_extremum(&cfs_rq->tl_max_slice, &max_s, "timeline.max_slice", cpu, path);
	}
	if (sched_legacy_cfs())
		return;
	CHECK(cfs_rq->avg_load == load, "cfs_rq.avg_load", cpu, "%s: %llu, the timeline weighs %llu", path,
	      (unsigned long long)cfs_rq->avg_load, (unsigned long long)load);
	CHECK(cfs_rq->avg_vruntime == avg, "cfs_rq.avg_vruntime", cpu, "%s: %lld, the timeline sums to %lld",
	      path, (long long)cfs_rq->avg_vruntime, (long long)avg);
}

static void check_buddy(struct cfs_rq *cfs_rq, struct sched_entity *b, const char *name, int cpu,
			const char *path)
{
	if (b)
		CHECK(b->on_rq && cfs_rq_of(b) == cfs_rq, name, cpu, "%s: the buddy is %s", path,
		      b->on_rq ? "on another queue" : "not queued");
}

static void check_bandwidth(struct task_group *tg, struct cfs_rq *cfs_rq, int cpu, const char *path)
{
	const struct cfs_rq *parent = tg->parent ? tg->parent->cfs_rq[cpu] : NULL;
	int n = 0;

	CHECK(cfs_rq->throttle_count == (int)cfs_rq->throttled + (parent ? parent->throttle_count : 0),
	      "cfs_rq.throttle_count", cpu, "%s: %d, throttled %d, the parent's %d", path,
	      cfs_rq->throttle_count, cfs_rq->throttled, parent ? parent->throttle_count : 0);
	CHECK(cfs_rq->runtime_enabled == (tg->parent && tg->cfs_bandwidth.quota != RUNTIME_INF),
	      "cfs_rq.runtime_enabled", cpu, "%s: %d for a quota of %llu", path, cfs_rq->runtime_enabled,
	      (unsigned long long)tg->cfs_bandwidth.quota);
	CHECK(cfs_rq->throttled == cfs_rq->on_throttled_list, "cfs_b.throttled_list", cpu,
	      "%s: throttled %d, on the group's list %d", path, cfs_rq->throttled, cfs_rq->on_throttled_list);
	if (cfs_rq->throttled) {
		CHECK(cfs_rq->runtime_enabled && cfs_rq->runtime_remaining <= 0, "cfs_rq.runtime_remaining",
		      cpu, "%s: throttled with %lld ns left", path, (long long)cfs_rq->runtime_remaining);
		/* before 6.18 a throttled queue's entity is off its parent's queue */
		CHECK(task_based_throttle() || !tg->se[cpu]->on_rq, "cfs_rq.throttled", cpu,
		      "%s: throttled but its entity is queued", path);
	}
	if (!cfs_rq->runtime_enabled)
		CHECK(cfs_rq->runtime_remaining == 0, "cfs_rq.runtime_remaining", cpu,
		      "%s: %lld ns without a quota", path, (long long)cfs_rq->runtime_remaining);
	for (struct task_struct *p = cfs_rq->limbo; p; p = p->throttle_next, n++)
		CHECK(p->throttled && !p->se.on_rq && cfs_rq_of(&p->se) == cfs_rq &&
			      throttled_hierarchy(cfs_rq),
		      "cfs_rq.limbo", cpu, "%s: %s on the limbo list is %s", path, task_name(p),
		      !p->throttled		    ? "not throttled"
		      : p->se.on_rq		    ? "queued"
		      : cfs_rq_of(&p->se) != cfs_rq ? "of another queue"
						    : "in an unthrottled hierarchy");
	CHECK(n == cfs_rq->nr_limbo, "cfs_rq.nr_limbo", cpu, "%s: %d, the list holds %d", path,
	      cfs_rq->nr_limbo, n);
}

static void check_cfs_rq(struct task_group *tg, int cpu)
{
	struct cfs_rq *cfs_rq = tg->cfs_rq[cpu];
	const struct cfs_rq_sum *s = sum_of(cfs_rq);
	const char *path = group_path(tg);

	CHECK(cfs_rq->tg == tg && rq_of(cfs_rq) == cpu_rq(cpu), "cfs_rq.owner", cpu, "%s: wrong tg or rq",
	      path);
	CHECK(cfs_rq->nr_running == s->nr, "cfs_rq.nr_running", cpu, "%s: %u, %u entities queued", path,
	      cfs_rq->nr_running, s->nr);
	CHECK(cfs_rq->load.weight == s->load, "cfs_rq.load", cpu, "%s: %lu, the queued entities weigh %lu",
	      path, cfs_rq->load.weight, s->load);
	CHECK(cfs_rq->h_nr_running == s->h_nr, "cfs_rq.h_nr_running", cpu, "%s: %u, the entities hold %u",
	      path, cfs_rq->h_nr_running, s->h_nr);
	CHECK(cfs_rq->h_nr_delayed == s->h_delayed, "cfs_rq.h_nr_delayed", cpu,
	      "%s: %u, the entities hold %u", path, cfs_rq->h_nr_delayed, s->h_delayed);
	CHECK(cfs_rq->idle_h_nr_running == s->idle_h, "cfs_rq.idle_h_nr_running", cpu,
	      "%s: %u, the entities hold %u", path, cfs_rq->idle_h_nr_running, s->idle_h);
	CHECK(cfs_rq->h_nr_delayed <= cfs_rq->h_nr_running, "cfs_rq.h_nr_delayed", cpu,
	      "%s: %u delayed of %u", path, cfs_rq->h_nr_delayed, cfs_rq->h_nr_running);
	if (cfs_rq->curr)
		CHECK(cfs_rq_of(cfs_rq->curr) == cfs_rq, "cfs_rq.curr", cpu, "%s: curr of another queue",
		      path);
	check_buddy(cfs_rq, cfs_rq->next, "cfs_rq.next", cpu, path);
	check_buddy(cfs_rq, cfs_rq->last, "cfs_rq.last", cpu, path);
	check_buddy(cfs_rq, cfs_rq->skip, "cfs_rq.skip", cpu, path);
	check_timeline(cfs_rq, cpu, path);
	check_sched_avg(&cfs_rq->avg, cpu, path);
	/* _avg must be null when _sum are null (cfs_rq_is_decayed()) */
	CHECK(cfs_rq->avg.load_sum || !cfs_rq->avg.load_avg, "pelt.load_sum", cpu,
	      "%s: load_avg %lu with load_sum 0", path, cfs_rq->avg.load_avg);
	CHECK(cfs_rq->idle == tg->idle, "cfs_rq.idle", cpu, "%s: %d, the group's %d", path, cfs_rq->idle,
	      tg->idle);
	check_bandwidth(tg, cfs_rq, cpu, path);
	if (tg->parent) {
		struct sched_entity *se = tg->se[cpu];
		struct sched_entity *pse = tg->parent->parent ? tg->parent->se[cpu] : NULL;

		CHECK(se->my_q == cfs_rq && cfs_rq_of(se) == tg->parent->cfs_rq[cpu] && se->parent == pse &&
			      se->depth == (pse ? pse->depth + 1 : 0),
		      "se.hierarchy", cpu, "%s: the group entity's links", path);
		/* its load_sum may pass LOAD_AVG_MAX: update_tg_cfs_load() lifts it to util_sum >> 10 */
		CHECK(se->avg.period_contrib < 1024, "pelt.period_contrib", cpu, "%s's entity: %u", path,
		      se->avg.period_contrib);
	}
}

/* The kernel keeps the root throttle-free, and tg->load_avg the sum of what each queue added. */
static void check_task_group(struct task_group *tg)
{
	long load = 0;
	int n = 0;
	const struct cfs_bandwidth *b = &tg->cfs_bandwidth;
	const struct cfs_rq *last = NULL;

	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		check_cfs_rq(tg, cpu);
		load += (long)tg->cfs_rq[cpu]->tg_load_avg_contrib;
		n += tg->cfs_rq[cpu]->on_throttled_list;
	}
	if (tg->parent)
		CHECK(tg->load_avg == load, "tg.load_avg", 0, "%s: %ld, the queues added %ld", group_path(tg),
		      tg->load_avg, load);
	for (const struct cfs_rq *c = b->throttled_first; c; last = c, c = c->throttled_next, n--)
		CHECK(c->tg == tg && c->on_throttled_list && n > 0, "cfs_b.throttled_list",
		      rq_of((struct cfs_rq *)c)->cpu, "%s: the list holds %s", group_path(tg),
		      c->tg != tg	      ? "another group's queue"
		      : !c->on_throttled_list ? "an unlisted queue"
					      : "a loop");
	CHECK(!n && b->throttled_last == last, "cfs_b.throttled_list", 0,
	      "%s: %d queues marked and not listed", group_path(tg), n);
}

/* ---- tasks ---- */

static void check_task(struct task_struct *p)
{
	int cpu = p->cpu;
	const char *name = task_name(p);
	/* __setscheduler_class(): ext takes the fair policies while a policy is loaded */
	const struct sched_class *want = dl_prio(p->prio)	      ? &dl_sched_class
					 : rt_prio(p->prio)	      ? &rt_sched_class
					 : task_should_scx(p->policy) ? &ext_sched_class
								      : &fair_sched_class;

	CHECK(cpu >= 0 && cpu < ST->nr_cpus, "task.cpu", 0, "%s on CPU %d", name, cpu);
	CHECK(p->on_cpu == (cpu_rq(cpu)->curr == p), "task.on_cpu", cpu, "%s: on_cpu %d, curr is %s", name,
	      p->on_cpu, task_name(cpu_rq(cpu)->curr));
	CHECK(p->on_rq == 0 || p->on_rq == TASK_ON_RQ_QUEUED, "task.on_rq", cpu, "%s: %d between steps", name,
	      p->on_rq);
	/* one that blocked or exited stays current until its CPU's interrupt or cost ends, then leaves */
	bool leaving = p->on_cpu && cpu_rq(cpu)->need_resched && !rq_switch_due(cpu_rq(cpu));

	if ((p->state == TASK_NEW || p->state == TASK_DEAD) && !leaving)
		CHECK(!p->on_rq && !p->on_cpu, "task.state", cpu, "%s: %s yet on_rq %d on_cpu %d", name,
		      p->state == TASK_NEW ? "new" : "dead", p->on_rq, p->on_cpu);
	if (p->state == TASK_RUNNING)
		CHECK(p->on_rq, "task.state", cpu, "%s: running but not queued", name);
	if (p->on_rq && !leaving)
		CHECK(p->state == TASK_RUNNING || p->se.sched_delayed, "task.state", cpu,
		      "%s: queued in state %d", name, p->state);
	int allowed = (int)cpumask_weight(&p->cpus_mask);

	CHECK(allowed && p->nr_cpus_allowed == allowed, "task.nr_cpus_allowed", cpu,
	      "%s: nr_cpus_allowed %d, %d CPUs in its mask", name, p->nr_cpus_allowed, allowed);
	/* a move for a new affinity is done before the command returns, or by the CPU's stopper
	 * once its interrupt or cost ends; a sleeper waits for its wakeup */
	if (p->on_rq && list_empty(&p->migration_node))
		CHECK(cpumask_test(&p->cpus_mask, cpu), "task.cpus_mask", cpu,
		      "%s: queued on CPU %d, outside its affinity", name, cpu);
	if (p->state == TASK_NEW)
		return;
	CHECK(p->sched_class == want, "task.sched_class", cpu, "%s: class %s for prio %d", name,
	      p->sched_class->name, p->prio);
	if (p->sched_class == &fair_sched_class) {
		CHECK(p->se.on_rq == (p->on_rq && !p->throttled), "task.se.on_rq", cpu,
		      "%s: se.on_rq %d, on_rq %d, throttled %d", name, p->se.on_rq, p->on_rq, p->throttled);
		if (p->on_rq)
			CHECK(cfs_rq_of(&p->se) == p->sched_task_group->cfs_rq[cpu], "task.se.cfs_rq", cpu,
			      "%s: queued outside its group %s on its CPU", name,
			      group_path(p->sched_task_group));
		CHECK(!p->se.sched_delayed || p->se.on_rq, "task.sched_delayed", cpu,
		      "%s: delayed, not queued", name);
	} else {
		CHECK(!p->se.on_rq, "task.se.on_rq", cpu, "%s: a %s task with a queued fair entity", name,
		      p->sched_class->name);
	}
	if (p->sched_class == &rt_sched_class)
		CHECK(p->rt.on_rq == !!p->on_rq, "task.rt.on_rq", cpu, "%s: rt.on_rq %d, on_rq %d", name,
		      p->rt.on_rq, p->on_rq);
	else
		CHECK(!p->rt.on_rq, "task.rt.on_rq", cpu, "%s: a %s task on the rt queue", name,
		      p->sched_class->name);
	if (p->sched_class == &dl_sched_class)
		CHECK(p->dl.on_dl_rq ? p->on_rq : !p->on_rq || p->dl.dl_throttled, "task.dl.on_dl_rq", cpu,
		      "%s: on_dl_rq %d, on_rq %d, dl_throttled %d", name, p->dl.on_dl_rq, p->on_rq,
		      p->dl.dl_throttled);
	else
		CHECK(!p->dl.on_dl_rq, "task.dl.on_dl_rq", cpu, "%s: a %s task on the dl queue", name,
		      p->sched_class->name);
	check_task_avg(p, cpu);
	if (p->se.on_rq) {
		add_entity(&p->se, cpu);
		sum_of(&cpu_rq(cpu)->cfs)->tasks++;
	}
}

/* ---- one rq ---- */

static unsigned int check_rt_rq(struct rq *rq)
{
	struct rt_rq *rt_rq = &rq->rt;
	unsigned int n = 0;

	for (int prio = 0; prio < MAX_RT_PRIO; prio++) {
		struct list_head *queue = &rt_rq->queue[prio];
		struct sched_rt_entity *rt_se;
		bool bit = (rt_rq->bitmap[prio / 64] >> (prio % 64)) & 1;

		CHECK(bit == !list_empty(queue), "rt_rq.bitmap", rq->cpu, "prio %d: bit %d, queue %s", prio,
		      bit, list_empty(queue) ? "empty" : "non-empty");
		list_for_each_entry (rt_se, queue, run_list) {
			struct task_struct *p = rt_task_of(rt_se);

			CHECK(rt_se->on_rq && p->prio == prio && p->cpu == rq->cpu &&
				      rt_se->run_list.next->prev == &rt_se->run_list &&
				      n < (unsigned int)ST->nr_tasks,
			      "rt_rq.queue", rq->cpu, "prio %d holds %s (prio %d, CPU %d)", prio,
			      task_name(p), p->prio, p->cpu);
			n++;
		}
	}
	CHECK(n == rt_rq->rt_nr_running, "rt_rq.rt_nr_running", rq->cpu, "%u, the queues hold %u",
	      rt_rq->rt_nr_running, n);
	CHECK(!rt_rq->rt_queued || rt_rq->rt_nr_running, "rt_rq.rt_queued", rq->cpu, "queued with no task");
	CHECK(rt_rq->rt_queued || !rt_rq->rt_nr_running || rt_rq->rt_throttled, "rt_rq.rt_queued", rq->cpu,
	      "%u tasks neither counted nor throttled", rt_rq->rt_nr_running);
	return rt_rq->rt_queued ? rt_rq->rt_nr_running : 0;
}

/* Returns the deadline tasks (not servers) queued. */
static unsigned int check_dl_rq(struct rq *rq)
{
	unsigned int n = 0, tasks = 0;
	struct sched_dl_entity *prev = NULL, *dl;

	list_for_each_entry (dl, &rq->dl.queue, dl_node) {
		CHECK(dl->on_dl_rq && dl->rq == rq &&
			      dl->dl_node.prev == (prev ? &prev->dl_node : &rq->dl.queue) &&
			      n <= (unsigned int)ST->nr_tasks,
		      "dl_rq.queue", rq->cpu, "entity %u: on_dl_rq %d, links or CPU wrong", n, dl->on_dl_rq);
		if (prev)
			CHECK((s64)(dl->deadline - prev->deadline) >= 0, "dl_rq.order", rq->cpu,
			      "deadline %llu after %llu", (unsigned long long)dl->deadline,
			      (unsigned long long)prev->deadline);
		n++;
		tasks += !dl->dl_server;
		prev = dl;
	}
	CHECK(n == rq->dl.dl_nr_running, "dl_rq.dl_nr_running", rq->cpu, "%u, the queue holds %u",
	      rq->dl.dl_nr_running, n);
	return tasks;
}

static void check_cfs_tasks(struct rq *rq)
{
	unsigned int n = 0, queued = sum_of(&rq->cfs)->tasks;
	struct list_head *before = &rq->cfs_tasks;
	struct task_struct *p;

	list_for_each_entry (p, &rq->cfs_tasks, group_node) {
		CHECK(p->group_node.prev == before && p->se.on_rq && p->cpu == rq->cpu &&
			      n < (unsigned int)ST->nr_tasks,
		      "rq.cfs_tasks", rq->cpu, "%s: %s", task_name(p),
		      p->group_node.prev != before ? "links broken"
		      : !p->se.on_rq		   ? "not queued"
						   : "on another CPU");
		n++;
		before = &p->group_node;
	}
	CHECK(rq->cfs_tasks.prev == before, "rq.cfs_tasks", rq->cpu, "the tail is not the last task");
	CHECK(n == queued, "rq.cfs_tasks", rq->cpu, "%u listed, %u fair tasks queued", n, queued);
}

static void check_rq(struct rq *rq)
{
	int cpu = rq->cpu;
	unsigned int rt = check_rt_rq(rq), dl = check_dl_rq(rq);
	struct task_struct *curr = rq->curr;
	unsigned int levels = 0, currs = 0;

	unsigned int ext = ST->scx ? scx_rq(rq)->nr_running : 0;

	CHECK(rq->nr_running == rq->cfs.h_nr_running + rt + dl + ext, "rq.nr_running", cpu,
	      "%u; fair %u, rt %u, deadline %u, ext %u", rq->nr_running, rq->cfs.h_nr_running, rt, dl, ext);
	CHECK(rq->clock <= SCHED_CLOCK_BOOT + ST->now && rq->clock_task <= rq->clock &&
		      rq_clock_pelt(rq) <= rq->clock_task,
	      "rq.clock", cpu, "clock %llu, clock_task %llu, clock_pelt %llu", (unsigned long long)rq->clock,
	      (unsigned long long)rq->clock_task, (unsigned long long)rq_clock_pelt(rq));
	CHECK(curr && curr->cpu == cpu && curr->on_cpu, "rq.curr", cpu, "curr %s is not running here",
	      curr ? task_name(curr) : "NULL");
	CHECK(rq->nohz_tick_stopped == cpumask_test(&ST->nohz.idle_cpus_mask, cpu), "nohz.idle_cpus_mask",
	      cpu, "nohz_tick_stopped %d", rq->nohz_tick_stopped);
	check_cfs_tasks(rq);
	/* the running fair task's entity is curr at every level, and only it */
	if (curr->sched_class == &fair_sched_class && curr->se.on_rq) {
		for (struct sched_entity *se = &curr->se; se; se = parent_entity(se), levels++)
			CHECK(cfs_rq_of(se)->curr == se, "cfs_rq.curr", cpu, "%s: not curr at depth %d",
			      task_name(curr), se->depth);
	}
	for (int g = 0; g < ST->nr_groups; g++)
		currs += ST->tg[g].cfs_rq[cpu]->curr != NULL;
	CHECK(currs == levels, "cfs_rq.curr", cpu, "%u queues have a curr while %s runs", currs,
	      task_name(curr));
}

/* ---- the timer heap and lanes ---- */

/* Linked both ways, in the order they fire, none in the heap; lane_first, the earliest head. */
static void check_lanes(const struct timer_queue *q)
{
	const struct sched_timer *earliest = NULL;
	struct timer_slot best = { 0 };

	for (int l = 0; l < TIMER_NR_LANES; l++) {
		const struct list_head *lane = &q->lane[l].list;
		const struct lane_timer *prev = NULL, *k;

		list_for_each_entry (k, lane, node) {
			const struct sched_timer *t = &k->timer;
			struct timer_slot a = { prev ? prev->timer.expires : 0, prev ? prev->order : 0,
						NULL };
			struct timer_slot b = { t->expires, k->order, NULL };

			CHECK(t->lane == l + 1 && timer_first_lane(t) <= l && l <= timer_last_lane(t) &&
				      k->node.prev == (prev ? &prev->node : lane) &&
				      t->heap_idx == TIMER_IDX_LANE,
			      "timer.lane", 0, "lane %d: kind %d arg %d in slot %d", l, t->kind, t->arg,
			      t->heap_idx);
			CHECK(!prev || timer_slot_before(&a, &b), "timer.lane", 0,
			      "lane %d: kind %d arg %d fires before the one ahead of it", l, t->kind, t->arg);
			if (!prev && (!earliest || timer_slot_before(&b, &best))) {
				earliest = t;
				best = b;
			}
			prev = k;
		}
		CHECK(lane->prev == (prev ? &prev->node : lane), "timer.lane", 0,
		      "lane %d: its tail is not its last", l);
	}
	CHECK(q->lane_first.t == earliest && (!earliest || (q->lane_first.expires == best.expires &&
							    q->lane_first.order == best.order)),
	      "timer.lane", 0, "lane_first is not the earliest of the lanes' heads");
}

static void check_timers(void)
{
	const struct timer_queue *q = &ST->tq;

	check_lanes(q);

	CHECK(q->nr >= 0 && q->nr <= q->cap, "timer.nr", 0, "%d of %d", q->nr, q->cap);
	for (int i = 0; i < q->nr; i++) {
		const struct timer_slot *s = &q->heap[i], *up = &q->heap[timer_heap_parent(i)];

		CHECK(s->t->heap_idx == i && s->t->expires == s->expires, "timer.slot", 0,
		      "slot %d: timer kind %d says slot %d", i, s->t->kind, s->t->heap_idx);
		CHECK(s->expires >= ST->now, "timer.past", 0, "kind %d arg %d due at %llu", s->t->kind,
		      s->t->arg, (unsigned long long)s->expires);
		CHECK(!i || !timer_slot_before(s, up), "timer.heap", 0, "slot %d fires before its parent", i);
	}
	if (!q->first.t)
		return;
	CHECK(q->first.t->heap_idx == TIMER_IDX_FIRST && q->first.t->expires == q->first.expires,
	      "timer.slot", 0, "first slot: timer kind %d says slot %d", q->first.t->kind,
	      q->first.t->heap_idx);
	CHECK(q->first.expires >= ST->now, "timer.past", 0, "kind %d arg %d due at %llu", q->first.t->kind,
	      q->first.t->arg, (unsigned long long)q->first.expires);
	CHECK(!q->nr || timer_slot_before(&q->first, &q->heap[0]), "timer.heap", 0,
	      "the first slot fires after the heap's root");
	CHECK(!q->lane_first.t || timer_slot_before(&q->first, &q->lane_first), "timer.lane", 0,
	      "the first slot fires after a lane's head");
}

/* ---- entry points ---- */

void sched_check_invariants(struct sched_engine *e)
{
	size_t nr_queues = (size_t)e->st->nr_groups * (size_t)e->st->nr_cpus;
	int idle = 0;

	cur_engine = chk = e;
	memset(e->invariant_sums, 0, nr_queues * sizeof(*e->invariant_sums));
	for (int g = 1; g < ST->nr_groups; g++)
		for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
			add_entity(ST->tg[g].se[cpu], cpu);
	for (int i = 0; i < ST->nr_tasks; i++)
		check_task(&ST->task[i]);
	for (int g = 0; g < ST->nr_groups; g++)
		check_task_group(&ST->tg[g]);
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		check_rq(cpu_rq(cpu));
		idle += cpumask_test(&ST->nohz.idle_cpus_mask, cpu);
	}
	CHECK(ST->nohz.nr_cpus == idle, "nohz.nr_cpus", 0, "%d, the mask holds %d", ST->nohz.nr_cpus, idle);
	CHECK(root_task_group()->cfs_rq[0]->throttle_count == 0, "cfs_rq.throttle_count", 0,
	      "the root throttled");
	check_timers();
	for (int w = 0; w < CPUMASK_WORDS; w++)
		CHECK(!ST->resched_pending[w] == !(ST->resched_pending_words & 1ULL << w), "resched.words",
		      w * 64, "word %d of the pending reschedules is%s empty", w,
		      ST->resched_pending[w] ? " not" : "");
}

void sched_warn(const char *cond, const char *file, int line)
{
	chk = E;
	if (chk->invariant_fn)
		violated("SCHED_WARN_ON", -1, "%s at %s:%d", cond, file, line);
}

void sched_set_invariant_check(struct sched_engine *e, sched_invariant_fn fn, void *ctx)
{
	size_t nr_queues = (size_t)e->st->nr_groups * (size_t)e->st->nr_cpus;

	free(e->invariant_sums);
	e->invariant_sums = NULL;
	e->invariant_fn = fn;
	e->invariant_ctx = ctx;
	if (fn)
		e->invariant_sums =
			sched_calloc(nr_queues, sizeof(*e->invariant_sums), "the invariant checks");
}
