// SPDX-License-Identifier: GPL-2.0
/*
 * The ext class: policies loaded from build/ext (the examples) and
 * build/tests/ext (the policies of tests/ext), run on hand-built scenarios. Queue
 * semantics, slices and the tick, the callbacks a task sees, the
 * watchdog, every error that disables a policy (naming the callback),
 * the refusal at load of global state and of what escapes checkpoints,
 * and rewind over a policy's memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixture.h"
#include "sched/ext.h"
#include "sched/api/history.h"
#include "src/analysis/rewind_check.h"
#include "src/base/mem.h"
#include "src/format/ext_policy.h"

#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

/* ---- what every test needs: a policy loaded, an engine, its events ---- */

static struct ext_policy pol;
static struct sched_event *evs;
static size_t nr_evs, cap_evs;

static void record(void *ctx, const struct sched_event *ev)
{
	XGROW(evs, cap_evs, nr_evs);
	evs[nr_evs++] = *ev;
}

static int teardown(void **state)
{
	fx_cleanup(state);
	ext_policy_unload(&pol);
	free(evs);
	evs = NULL;
	nr_evs = cap_evs = 0;
	return 0;
}

/* Load build/<dir>/<name>.so as the scenario's policy. */
static void use_policy(struct fx *f, const char *dir, const char *name)
{
	char path[256], err[1024];

	snprintf(path, sizeof(path), "build/%s/%s.so", dir, name);
	if (ext_policy_load(path, &pol, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	f->sc.ext_ops = pol.ops;
}

static struct sched_engine *start(struct fx *f)
{
	struct sched_engine *e = fx_start(f);

	sched_add_listener(e, record, NULL);
	return e;
}

static const struct sched_event *find_event(int type, size_t from)
{
	for (size_t i = from; i < nr_evs; i++)
		if (evs[i].type == type)
			return &evs[i];
	return NULL;
}

/* The policy's exit: its event, with the message checked to contain `msg`. */
static const struct sched_event *expect_exit(struct sched_engine *e, unsigned kind, int op, const char *msg)
{
	const struct sched_event *ev = find_event(EV_EXT_EXIT, 0);

	assert_non_null(ev);
	assert_int_equal(ev->ext_exit.kind, kind);
	assert_int_equal(ev->ext_exit.op, op);
	if (!strstr(sched_text(e, ev->ext_exit.text), msg))
		fail_msg("exit message '%s' lacks '%s'", sched_text(e, ev->ext_exit.text), msg);
	return ev;
}

static void expect_all_fair(struct sched_engine *e)
{
	sched_enter(e);
	assert_false(scx_enabled());
	for (int i = 0; i < sched_nr_tasks(e); i++)
		if (T(e, i)->state != TASK_NEW && T(e, i)->state != TASK_DEAD)
			assert_ptr_equal(T(e, i)->sched_class, &fair_sched_class);
}

static void expect_refused(const char *path, const char *want)
{
	char err[1024];

	assert_int_equal(ext_policy_load(path, &pol, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s' lacks '%s'", err, want);
	assert_null(pol.handle);
}

/* ---- refused at load ---- */

static void test_refuse_global_data(void **state)
{
	/* the variable, where it is, and what to use instead */
	expect_refused("build/tests/ext/global_data.so",
		       "writable global data of its own in .bss (nr_enqueued)");
	expect_refused("build/tests/ext/global_data.so", "scx_global_data()");
}

static void test_refuse_escapes(void **state)
{
	expect_refused("build/tests/ext/malloc_call.so", "calls malloc()");
}

static void test_refuse_bad_files(void **state)
{
	expect_refused("build/tests/ext/no-such.so", "No such file or directory");
	expect_refused("Makefile", "not an ELF shared object");
	expect_refused("build/tests/ext/bad_abi.so", "built against ext ABI 2, this schedscope has 1");
	expect_refused("build/tests/ext/no_ops.so", "no schedscope_ext_ops");
	expect_refused("build/tests/ext/big_timeout.so", "above the watchdog's 30000 ms limit");
}

/* ---- queues and slices ---- */

/*
 * One CPU, three hogs, a global FIFO of 3 ms slices at HZ 250: a slice
 * ends at the first tick after it ran out, so each runs 4 ms, in FIFO order.
 */
static void test_fifo_slices_end_at_tick(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_engine *e;
	int order[9], n = 0;
	u64 at[9];

	f->sc.hz = 250;
	for (int i = 0; i < 3; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	use_policy(f, "tests/ext", "short_slice");
	e = start(f);
	sched_run_until(e, 100 * MS);
	for (size_t i = 0; i < nr_evs && n < 9; i++) {
		if (evs[i].type != EV_SCHED_SWITCH)
			continue;
		order[n] = evs[i].sw.next_pid;
		at[n++] = evs[i].time;
	}
	assert_int_equal(n, 9);
	for (int i = 0; i < 9; i++) {
		assert_int_equal(order[i], i % 3 + 1);
		assert_int_equal(at[i], (u64)i * 4 * MS);
	}
}

/* The callbacks a task sees, counted in its task data by the policy. */
struct counts {
	u64 runnable, running, stopping, quiescent, enable, set_weight, init_task, exit_task;
	u64 last_enq_flags;
};

static void test_callbacks_and_enq_last(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_engine *e;
	struct counts *c;
	u64 switches = 0;

	f->sc.hz = 250;
	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	use_policy(f, "tests/ext", "short_slice");
	e = start(f);
	sched_run_until(e, 100 * MS);
	c = scx_task_data(&scx_ent(T(e, 0))->view);
	for (size_t i = 0; i < nr_evs; i++)
		switches += evs[i].type == EV_SCHED_SWITCH;
	assert_int_equal(c->init_task, 1);
	assert_int_equal(c->enable, 1);
	assert_int_equal(c->set_weight, 1);
	assert_int_equal(c->runnable, 1);
	assert_int_equal(c->quiescent, 0);
	/* alone on its CPU: every expired slice goes back through ops.enqueue() as the last task,
	 * which the policy puts back on the local queue: a slice each 4 ms at HZ 250, 0 to 100 ms */
	assert_true(c->last_enq_flags & SCX_ENQ_LAST);
	assert_int_equal(c->running, 26);
	assert_true(c->running >= 20);
	assert_int_equal(c->stopping, c->running - 1);
	assert_true(switches >= 1);
	assert_int_equal(scx_ent(T(e, 0))->view.scx.weight, 100);
}

/* A vtime queue keeps vtime order, equal vtimes in arrival order; FIFO and vtime do not mix. */
static void test_vtime_queue_order(void **state)
{
	static const u64 vt[5] = { 50, 10, 30, 10, 20 };
	static const int want[5] = { 1, 3, 4, 2, 0 };
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct scx_dispatch_q *dsq;
	struct scx_entity *se;
	struct sched_engine *e;
	int i = 0;

	for (int t = 0; t < 5; t++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, NULL)->start = 50 * SEC;
	use_policy(f, "ext", "scx_simple");
	e = start(f);
	sched_run_until(e, 1);
	dsq = find_user_dsq(0);
	assert_non_null(dsq);
	for (int t = 0; t < 5; t++) {
		scx_ent(T(e, t))->view.scx.dsq_vtime = vt[t];
		dispatch_enqueue(dsq, T(e, t), SCX_ENQ_DSQ_PRIQ, EXT_OP_CORE);
	}
	assert_int_equal(scx_bpf_dsq_nr_queued(0), 5);
	list_for_each_entry (se, &dsq->list, dsq_node)
		assert_int_equal(se->task->idx, want[i++]);
	assert_int_equal(i, 5);
	assert_false(find_event(EV_EXT_EXIT, 0));
	for (int t = 0; t < 5; t++)
		dispatch_dequeue(task_rq(T(e, t)), T(e, t));
	assert_int_equal(dsq->nr, 0);
	assert_true(list_empty(&dsq->list));

	/* a FIFO insert into a queue that has vtime tasks is the policy's error */
	dispatch_enqueue(dsq, T(e, 0), SCX_ENQ_DSQ_PRIQ, EXT_OP_DISPATCH);
	dispatch_enqueue(dsq, T(e, 1), 0, EXT_OP_DISPATCH);
	dispatch_dequeue(task_rq(T(e, 0)), T(e, 0));
	dispatch_dequeue(task_rq(T(e, 1)), T(e, 1));
	/* the disable waits for the engine's next safe point */
	sched_step(e);
	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_DISPATCH,
		    "DSQ ID 0x0000000000000000 already had PRIQ-enqueued tasks");
}

/* An RT task takes the CPU: the ext task waits first in its local queue with the slice it had left. */
static void test_higher_class_keeps_slice(void **state)
{
	struct prog_insn rt_prog[] = {
		{ .op = PROG_LOOP, .target = 4 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 1 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 9 * MS, 0 } },
		{ .op = PROG_END_LOOP },
	};
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_task_spec *rt;
	struct sched_engine *e;
	bool head = false;

	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	rt = fx_add_task(f, 0, SCHED_FIFO, -1, fx_program(f, 0, rt_prog, 4, 1));
	rt->rt_priority = 50;
	rt->start = 5 * MS;
	use_policy(f, "ext", "scx_simple");
	e = start(f);
	sched_run_until(e, 50 * MS);
	for (size_t i = 0; i < nr_evs; i++)
		if (evs[i].type == EV_EXT_DISPATCH && evs[i].ext_dsp.pid == 1 &&
		    evs[i].ext_dsp.op == EXT_OP_CORE && (evs[i].ext_dsp.enq_flags & SCX_ENQ_HEAD)) {
			head = true;
			/* preempted at 5 ms with 15 ms of its 20 ms slice left */
			assert_int_equal(evs[i].time, 5 * MS);
			assert_int_equal(evs[i].ext_dsp.slice, 15 * MS);
			break;
		}
	assert_true(head);
}

/* An RT task takes the CPU: ops.cpu_release() once, reenqueue_local() hands the queue back, then cpu_acquire(). */
struct release_counts {
	u64 released, acquired, reenqueued, enqueued_reenq;
	s32 last_reason;
};

static void test_cpu_release_and_acquire(void **state)
{
	struct prog_insn rt_prog[] = {
		{ .op = PROG_LOOP, .target = 4 },
		{ .op = PROG_RUN, .dur = { DIST_CONST, 1 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_CONST, 9 * MS, 0 } },
		{ .op = PROG_END_LOOP },
	};
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	const struct sched_event *ev;
	struct release_counts *c;
	struct sched_task_spec *rt;
	struct sched_engine *e;

	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	rt = fx_add_task(f, 0, SCHED_FIFO, -1, fx_program(f, 0, rt_prog, 4, 1));
	rt->rt_priority = 50;
	rt->start = 5 * MS;
	use_policy(f, "tests/ext", "release");
	e = start(f);
	sched_run_until(e, 50 * MS);
	c = scx_global_data();
	/* RT ran at 5, 15, 25, 35 and 45 ms (1 ms each): released and acquired back each time */
	assert_int_equal(c->released, 5);
	assert_int_equal(c->acquired, 5);
	assert_int_equal(c->reenqueued, 5);
	assert_int_equal(c->enqueued_reenq, 5);
	assert_int_equal(c->last_reason, SCX_CPU_PREEMPT_RT);
	ev = find_event(EV_EXT_PRINTK, 0);
	assert_non_null(ev);
	assert_int_equal(ev->time, 5 * MS);
	assert_int_equal(ev->ext_print.op, EXT_OP_CPU_RELEASE);
	assert_string_equal(sched_text(e, ev->ext_print.text), "cpu 0 released to t1");
	assert_false(find_event(EV_EXT_EXIT, 0));
}

/* With SCX_OPS_SWITCH_PARTIAL only SCHED_EXT tasks are ext's. */
static void test_switch_partial(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_engine *e;

	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	fx_add_task(f, 0, SCHED_EXT, -1, NULL);
	use_policy(f, "tests/ext", "partial");
	e = start(f);
	sched_run_until(e, 100 * MS);
	assert_ptr_equal(T(e, 0)->sched_class, &fair_sched_class);
	assert_ptr_equal(T(e, 1)->sched_class, &ext_sched_class);
	assert_true(T(e, 0)->se.sum_exec_runtime > 90 * MS);
	assert_true(T(e, 1)->se.sum_exec_runtime > 90 * MS);
}

/* ---- the watchdog ---- */

static void test_watchdog_tunable(void **state)
{
	struct fx *f = fx_new(2, KV(6, 12), SCHED_VARIANT_EEVDF);
	const struct sched_event *ev;
	struct sched_engine *e;

	f->sc.hz = 250;
	f->sc.tunable[TUN_SCX_WATCHDOG_TIMEOUT] = 2 * SEC;
	f->sc.tunable_set[TUN_SCX_WATCHDOG_TIMEOUT] = true;
	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	snprintf(fx_add_task(f, 0, SCHED_NORMAL, -1, NULL)->name, TASK_COMM_LEN, "starved");
	use_policy(f, "tests/ext", "stall");
	e = start(f);
	sched_run_until(e, 5 * SEC);
	/* checked every second: runnable since 0, found at 3 s */
	ev = expect_exit(e, SCX_EXIT_ERROR_STALL, EXT_OP_CORE, "starved[3] failed to run for 3.000s");
	assert_int_equal(ev->time, 3 * SEC);
	assert_int_equal(ev->ext_exit.pid, 3);
	/* ops.exit() was told, after the tasks left */
	ev = find_event(EV_EXT_PRINTK, (size_t)(ev - evs));
	assert_non_null(ev);
	assert_int_equal(ev->ext_print.op, EXT_OP_EXIT);
	assert_string_equal(
		sched_text(e, ev->ext_print.text),
		"exit kind=1026 reason=runnable task stall msg=starved[3] failed to run for 3.000s");
	expect_all_fair(e);
	assert_true(T(e, 2)->se.sum_exec_runtime > 1 * SEC);
}

static void test_watchdog_ops_timeout(void **state)
{
	struct fx *f = fx_new(1, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_engine *e;

	f->sc.hz = 250;
	fx_add_task(f, 0, SCHED_NORMAL, -1, NULL);
	snprintf(fx_add_task(f, 0, SCHED_NORMAL, -1, NULL)->name, TASK_COMM_LEN, "starved");
	use_policy(f, "tests/ext", "stall_timeout");
	e = start(f);
	sched_run_until(e, 3 * SEC);
	/* ops.timeout_ms = 1000: checked every 0.5 s, found at 1.5 s */
	assert_int_equal(
		expect_exit(e, SCX_EXIT_ERROR_STALL, EXT_OP_CORE, "starved[2] failed to run for 1.500s")
			->time,
		1500 * MS);
}

/* ---- errors: each disables the policy, naming the callback ---- */

static struct sched_engine *run_policy(const char *name, int ncpus, int ntasks, int pin)
{
	struct fx *f = fx_new(ncpus, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_engine *e;

	for (int i = 0; i < ntasks; i++)
		fx_add_task(f, 0, SCHED_NORMAL, pin, NULL);
	use_policy(f, "tests/ext", name);
	e = start(f);
	sched_run_until(e, 200 * MS);
	return e;
}

static void test_error_missing_dsq(void **state)
{
	struct sched_engine *e = run_policy("bad_dsq", 2, 3, -1);

	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_ENQUEUE, "non-existent DSQ 0x2a for t");
	expect_all_fair(e);
	for (int i = 0; i < 3; i++)
		assert_true(T(e, i)->se.sum_exec_runtime > 50 * MS);
}

static void test_error_cpu_outside_affinity(void **state)
{
	struct sched_engine *e = run_policy("bad_cpu", 2, 1, 0);

	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_ENQUEUE,
		    "SCX_DSQ_LOCAL[_ON] target CPU 1 not allowed for t0[1]");
	expect_all_fair(e);
}

static void test_error_dispatched_twice(void **state)
{
	struct sched_engine *e = run_policy("double_dispatch", 1, 2, -1);

	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_ENQUEUE, "already direct-dispatched");
}

static void test_error_kick_loop(void **state)
{
	struct sched_engine *e = run_policy("kick_loop", 1, 2, -1);

	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_DISPATCH, "CPU 0 rescheduled 10000 times at one instant");
	expect_all_fair(e);
}

static void test_error_kfunc_context(void **state)
{
	struct sched_engine *e = run_policy("wrong_context", 1, 1, -1);

	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_ENQUEUE,
		    "scx_bpf_consume() called from ops.enqueue(): only ops.dispatch() may call it");
}

static void test_error_timer_on_stack(void **state)
{
	struct sched_engine *e = run_policy("stack_timer", 1, 1, -1);

	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_INIT,
		    "bpf_timer_init(): the timer is not in the policy's memory");
}

static void test_error_invalid_select_cpu(void **state)
{
	struct sched_engine *e = run_policy("bad_select", 2, 2, -1);

	expect_exit(e, SCX_EXIT_ERROR, EXT_OP_SELECT_CPU, "invalid CPU -5 from ops.select_cpu()");
}

static void test_error_init(void **state)
{
	struct sched_engine *e = run_policy("init_fail", 1, 1, -1);

	assert_int_equal(expect_exit(e, SCX_EXIT_ERROR, EXT_OP_INIT, "ops.init() failed (-12)")->time, 0);
	expect_all_fair(e);
}

static void test_bpf_error_and_exit(void **state)
{
	struct sched_engine *e = run_policy("bpf_error", 1, 1, -1);

	expect_exit(e, SCX_EXIT_ERROR_BPF, EXT_OP_TICK, "giving up after 10 ticks on t0");
	teardown(state);
	e = run_policy("bpf_exit", 1, 1, -1);
	assert_int_equal(
		expect_exit(e, SCX_EXIT_UNREG_BPF, EXT_OP_TICK, "done after 10 ticks")->ext_exit.exit_code,
		7);
	expect_all_fair(e);
}

/* ---- determinism and rewind over the policy's memory ---- */

static void central_scenario(struct fx *f)
{
	struct prog_insn loop[] = {
		{ .op = PROG_LOOP, .target = 4 },
		{ .op = PROG_RUN, .dur = { DIST_EXP, 2 * MS, 0 } },
		{ .op = PROG_SLEEP, .dur = { DIST_EXP, 5 * MS, 0 } },
		{ .op = PROG_END_LOOP },
	};

	for (int i = 0; i < 6; i++)
		fx_add_task(f, 0, SCHED_NORMAL, -1, i < 3 ? NULL : fx_program(f, 0, loop, 4, 1));
	use_policy(f, "ext", "scx_central");
}

static void test_deterministic(void **state)
{
	struct fx *f = fx_new(4, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct sched_event *first;
	size_t n;

	central_scenario(f);
	sched_run_until(start(f), 500 * MS);
	n = nr_evs;
	first = evs;
	evs = NULL;
	nr_evs = cap_evs = 0;
	f->e2 = fx_engine(f);
	sched_add_listener(f->e2, record, NULL);
	sched_run_until(f->e2, 500 * MS);
	assert_int_equal(nr_evs, n);
	assert_memory_equal(first, evs, n * sizeof(*evs));
	free(first);
}

static void test_rewind_covers_policy_memory(void **state)
{
	struct fx *f = fx_new(4, KV(6, 12), SCHED_VARIANT_EEVDF);
	struct rewind_check_result r;
	struct sched_history *h;

	central_scenario(f);
	fx_start(f);
	h = history_create(f->e, 64u << 20);
	history_run_until(h, 2 * SEC);
	rewind_check(h, 2 * SEC, 8, 1, &r, NULL, NULL);
	history_destroy(h);
	assert_int_equal(r.targets, 8);
	assert_int_equal(r.mismatches, 0);
	assert_int_equal(r.state_diffs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_refuse_global_data, teardown),
		cmocka_unit_test_teardown(test_refuse_escapes, teardown),
		cmocka_unit_test_teardown(test_refuse_bad_files, teardown),
		cmocka_unit_test_teardown(test_fifo_slices_end_at_tick, teardown),
		cmocka_unit_test_teardown(test_callbacks_and_enq_last, teardown),
		cmocka_unit_test_teardown(test_vtime_queue_order, teardown),
		cmocka_unit_test_teardown(test_higher_class_keeps_slice, teardown),
		cmocka_unit_test_teardown(test_cpu_release_and_acquire, teardown),
		cmocka_unit_test_teardown(test_switch_partial, teardown),
		cmocka_unit_test_teardown(test_watchdog_tunable, teardown),
		cmocka_unit_test_teardown(test_watchdog_ops_timeout, teardown),
		cmocka_unit_test_teardown(test_error_missing_dsq, teardown),
		cmocka_unit_test_teardown(test_error_cpu_outside_affinity, teardown),
		cmocka_unit_test_teardown(test_error_dispatched_twice, teardown),
		cmocka_unit_test_teardown(test_error_kick_loop, teardown),
		cmocka_unit_test_teardown(test_error_kfunc_context, teardown),
		cmocka_unit_test_teardown(test_error_timer_on_stack, teardown),
		cmocka_unit_test_teardown(test_error_invalid_select_cpu, teardown),
		cmocka_unit_test_teardown(test_error_init, teardown),
		cmocka_unit_test_teardown(test_bpf_error_and_exit, teardown),
		cmocka_unit_test_teardown(test_deterministic, teardown),
		cmocka_unit_test_teardown(test_rewind_covers_policy_memory, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
