// SPDX-License-Identifier: GPL-2.0
/*
 * sched_cfs_rq_pick(), the question the runqueue view asks, against what
 * the engine then picks: at every step of scenarios with groups, buddies,
 * yields, short slices and delayed tasks, under EEVDF releases and legacy
 * CFS, each CPU is made to schedule on a copy of the state and the task it
 * runs must be the one the query named (walking down through the groups
 * as pick_task_fair() does). The query must also change nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/internal.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

struct agree {
	int compared, delayed, by_why[NR_PICK_WHYS];
};

/* The task the queries name for cpu, walking down from the root queue; -1 when a
 * delayed entity would be dequeued first (the pick then runs again): that
 * entity's task or group in *delayed. */
static int query_task(struct sched_engine *e, int cpu, int *why_root, struct sched_entity_info *delayed)
{
	int group = 0;

	for (;;) {
		struct sched_entity_info ents[64];
		struct sched_pick_info pi;
		int n = sched_cfs_rq_entities(e, cpu, group, ents, 64);

		sched_cfs_rq_pick(e, cpu, group, &pi);
		assert_true(pi.index >= 0 && pi.index < n);
		if (!group)
			*why_root = pi.why;
		assert_int_equal(pi.delayed, ents[pi.index].sched_delayed);
		if (pi.delayed) {
			*delayed = ents[pi.index];
			return -1;
		}
		if (ents[pi.index].task >= 0)
			return ents[pi.index].task;
		group = ents[pi.index].group;
	}
}

/* Whether cpu's next pick is the fair class's alone (no RT, deadline, ext or stopper). */
static bool fair_decides(struct sched_engine *e, int cpu)
{
	struct rq *rq;

	sched_enter(e);
	rq = cpu_rq(cpu);
	return rq->cfs.nr_running && !rq->rt.rt_nr_running && !rq->dl.dl_nr_running && !rq->active_balance &&
	       rq->curr->sched_class != &rt_sched_class && rq->curr->sched_class != &dl_sched_class;
}

/* cpu's state is saved by the caller, which restores it afterwards. */
static void check_cpu(const char *path, struct sched_engine *e, int cpu, void *charged, void *again,
		      struct agree *a)
{
	size_t size = sched_state_size(e);
	struct rq *rq;
	int want, why = PICK_IDLE;
	struct sched_entity_info delayed;

	sched_enter(e);
	rq = cpu_rq(cpu);
	/* __schedule() reads the clock, and pick_task_fair() charges curr at every level, before the pick */
	update_rq_clock(rq);
	if (rq->curr->sched_class == &fair_sched_class && rq->curr->on_rq)
		for (struct sched_entity *se = &rq->curr->se; se; se = se->parent)
			update_curr(cfs_rq_of(se));
	sched_state_save(e, charged);
	want = query_task(e, cpu, &why, &delayed);
	/* the query changed nothing */
	sched_state_save(e, again);
	assert_memory_equal(again, charged, size);
	sched_enter(e);
	rq->need_resched = true;
	__schedule(rq);
	if (want < 0) {
		/* picking it dequeued it */
		struct sched_entity *se =
			delayed.task >= 0 ? &ST->task[delayed.task].se : ST->tg[delayed.group].se[cpu];

		assert_false(se->on_rq);
		a->delayed++;
		return;
	}
	if (rq->curr->idx != want)
		print_message(
			"%s: at %llu ns on CPU %d the query named task %d (why %d), the engine ran %d\n",
			path, (unsigned long long)ST->now, cpu, want, why, rq->curr->idx);
	assert_int_equal(rq->curr->idx, want);
	a->compared++;
	a->by_why[why]++;
}

static void run(const char *path, const char *const *sets, struct agree *a)
{
	struct scenario_file sf;
	struct sched_engine *e;
	char err[512];
	void *before, *charged, *again;
	int steps = 0;

	assert_int_equal(scenario_load(path, &sf, err, sizeof(err)), 0);
	for (; *sets; sets++)
		assert_int_equal(scenario_set(&sf, *sets, err, sizeof(err)), 0);
	e = sched_engine_create(&sf.sc, err, sizeof(err));
	assert_non_null(e);
	before = malloc(sched_state_size(e));
	charged = malloc(sched_state_size(e));
	again = malloc(sched_state_size(e));
	assert_true(before && charged && again);
	while (sched_step(e) && steps++ < 20000) {
		for (int cpu = 0; cpu < sched_nr_cpus(e); cpu++) {
			if (!fair_decides(e, cpu))
				continue;
			sched_state_save(e, before);
			check_cpu(path, e, cpu, charged, again, a);
			sched_state_restore(e, before);
		}
	}
	free(before);
	free(charged);
	free(again);
	sched_engine_destroy(e);
	scenario_free(&sf);
}

static void agree_on(const char *const *sets, const char *name, bool cfs)
{
	static const char *const scenarios[] = {
		"scenarios/groups-nested.scn", "scenarios/latency-mix.scn", "scenarios/yield-to.scn",
		"scenarios/custom-slice.scn",  "scenarios/sched-idle.scn",  "scenarios/periodic-eevdf.scn",
	};
	struct agree a = { 0 };

	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		run(scenarios[i], sets, &a);
	print_message("%s: %d picks agreed (%d only, %d next buddy, %d protected, %d earliest deadline, "
		      "%d leftmost, %d skip, %d last buddy), %d delayed dequeued first\n",
		      name, a.compared, a.by_why[PICK_ONLY], a.by_why[PICK_NEXT_BUDDY],
		      a.by_why[PICK_PROTECTED], a.by_why[PICK_EARLIEST], a.by_why[PICK_LEFTMOST],
		      a.by_why[PICK_SKIP_SECOND], a.by_why[PICK_LAST_BUDDY], a.delayed);
	assert_true(a.compared > 1000);
	if (cfs) {
		assert_true(a.by_why[PICK_LEFTMOST] > 0);
	} else {
		assert_true(a.by_why[PICK_EARLIEST] > 0);
		assert_true(a.by_why[PICK_PROTECTED] > 0);
	}
}

static void test_pick_eevdf_6_6(void **state)
{
	static const char *const sets[] = { "kernel=6.6", "duration=1s", NULL };

	(void)state;
	agree_on(sets, "6.6", false);
}

static void test_pick_eevdf_6_12(void **state)
{
	static const char *const sets[] = { "kernel=6.12", "feature=NEXT_BUDDY", "duration=1s", NULL };

	(void)state;
	agree_on(sets, "6.12", false);
}

static void test_pick_eevdf_6_17(void **state)
{
	static const char *const sets[] = { "kernel=6.17", "duration=1s", NULL };

	(void)state;
	agree_on(sets, "6.17", false);
}

static void test_pick_eevdf_6_19(void **state)
{
	static const char *const sets[] = { "kernel=6.19", "duration=1s", NULL };

	(void)state;
	agree_on(sets, "6.19", false);
}

static void test_pick_cfs(void **state)
{
	static const char *const sets[] = { "sched=cfs", "kernel=6.1", "feature=NEXT_BUDDY", "duration=1s",
					    NULL };

	(void)state;
	agree_on(sets, "CFS 6.1", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_eevdf_6_6),	cmocka_unit_test(test_pick_eevdf_6_12),
		cmocka_unit_test(test_pick_eevdf_6_17), cmocka_unit_test(test_pick_eevdf_6_19),
		cmocka_unit_test(test_pick_cfs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
