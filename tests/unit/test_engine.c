// SPDX-License-Identifier: GPL-2.0
/*
 * The engine as a whole (DESIGN.md "The engine"): determinism, checkpoint
 * round trips, the event stream's order and numbering, clocks, CPU time
 * accounting against sched_switch, and wait/wake hand-offs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US NSEC_PER_USEC
#define MS NSEC_PER_MSEC
#define SEC NSEC_PER_SEC

/* ---- recording the event stream in a canonical form ---- */

/* Every field an event carries, copied field by field (no union padding). */
struct canon {
	u64 time, seq;
	int type, cpu;
	s64 f[6];
};

struct rec {
	struct canon *ev;
	size_t nr, cap;
};

static void canon_of(const struct sched_event *ev, struct canon *c)
{
	memset(c, 0, sizeof(*c));
	c->time = ev->time;
	c->seq = ev->seq;
	c->type = ev->type;
	c->cpu = ev->cpu;
	switch (ev->type) {
	case EV_SCHED_SWITCH:
		c->f[0] = ev->sw.prev_pid;
		c->f[1] = ev->sw.next_pid;
		c->f[2] = ev->sw.prev_prio;
		c->f[3] = ev->sw.next_prio;
		c->f[4] = ev->sw.prev_state;
		break;
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		c->f[0] = ev->wake.pid;
		c->f[1] = ev->wake.prio;
		c->f[2] = ev->wake.target_cpu;
		break;
	case EV_SCHED_MIGRATE_TASK:
		c->f[0] = ev->migrate.pid;
		c->f[1] = ev->migrate.prio;
		c->f[2] = ev->migrate.orig_cpu;
		c->f[3] = ev->migrate.dest_cpu;
		c->f[4] = (s64)ev->migrate.cause;
		c->f[5] = ev->migrate.reason;
		break;
	case EV_SCHED_PROCESS_FORK:
		c->f[0] = ev->fork.parent_pid;
		c->f[1] = ev->fork.child_pid;
		break;
	case EV_SCHED_PROCESS_EXIT:
		c->f[0] = ev->exit.pid;
		c->f[1] = ev->exit.prio;
		break;
	case EV_SCHED_STAT_RUNTIME:
		c->f[0] = ev->runtime.pid;
		c->f[1] = (s64)ev->runtime.runtime;
		c->f[2] = (s64)ev->runtime.vruntime;
		break;
	case EV_SET_NICE:
		c->f[0] = ev->nice.pid;
		c->f[1] = ev->nice.old_nice;
		c->f[2] = ev->nice.new_nice;
		c->f[3] = ev->nice.policy;
		c->f[4] = (s64)ev->nice.slice;
		break;
	case EV_YIELD:
		c->f[0] = ev->yield.pid;
		break;
	case EV_COMMAND:
		c->f[0] = ev->command.index;
		c->f[1] = ev->command.kind;
		c->f[2] = ev->command.task;
		c->f[3] = ev->command.key;
		c->f[4] = ev->command.value;
		break;
	case EV_NOTE:
		c->f[0] = ev->note.index;
		break;
	case EV_PROG_TIMER:
		c->f[0] = ev->timer.pid;
		c->f[1] = ev->timer.missed;
		c->f[2] = (s64)ev->timer.expires;
		c->f[3] = ev->timer.slack;
		c->f[4] = (s64)ev->timer.sum_exec;
		c->f[5] = (s64)ev->timer.period;
		break;
	}
}

static void record(void *ctx, const struct sched_event *ev)
{
	struct rec *r = ctx;

	if (r->nr == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 4096;
		r->ev = realloc(r->ev, r->cap * sizeof(*r->ev));
		assert_non_null(r->ev);
	}
	canon_of(ev, &r->ev[r->nr++]);
}

static void rec_free(struct rec *r)
{
	free(r->ev);
	memset(r, 0, sizeof(*r));
}

static void assert_same_events(const struct rec *a, const struct rec *b)
{
	size_t n = MIN(a->nr, b->nr);

	for (size_t i = 0; i < n; i++)
		if (memcmp(&a->ev[i], &b->ev[i], sizeof(a->ev[i])))
			fail_msg("event %zu differs: %s at %llu vs %s at %llu", i,
				 sched_event_names[a->ev[i].type], (unsigned long long)a->ev[i].time,
				 sched_event_names[b->ev[i].type], (unsigned long long)b->ev[i].time);
	assert_int_equal(a->nr, b->nr);
}

static bool same_events(const struct rec *a, const struct rec *b)
{
	return a->nr == b->nr && !memcmp(a->ev, b->ev, a->nr * sizeof(*a->ev));
}

/* ---- a scenario with a bit of everything ---- */

/* What a test records, and the states it saves: freed by the teardown. */
static struct rec rec1, rec2;
static void *state_buf[3];

/* The fixture with this file's seed and length. */
static struct fx *fx_alloc(int ncpus, int kernel, int variant)
{
	struct fx *f = fx_new(ncpus, kernel, variant);

	f->sc.seed = 42;
	f->sc.duration = 10 * SEC;
	return f;
}

/* A NORMAL task running a copy of insn[0..ninsn); pin < 0 = any CPU. */
static struct sched_task_spec *fx_prog_task(struct fx *f, int nice, int pin, int ninsn,
					    const struct prog_insn *insn, int nr_loops)
{
	const struct sched_program *p = fx_program(f, f->sc.nr_tasks, insn, ninsn, nr_loops);

	return fx_add_task(f, nice, SCHED_NORMAL, pin, p);
}

#define DUR(k, x, y) { .kind = (k), .a = (x), .b = (y) }
#define LOOP(end) { .op = PROG_LOOP, .arg = 0, .target = (end) + 1, .loop_slot = 0 }
#define LOOPN(n, end) { .op = PROG_LOOP, .arg = (n), .target = (end) + 1, .loop_slot = 0 }
#define END(head) { .op = PROG_END_LOOP, .target = (head), .loop_slot = 0 }
#define RUN(k, x, y) { .op = PROG_RUN, .dur = DUR(k, x, y) }
#define SLEEP(k, x, y) { .op = PROG_SLEEP, .dur = DUR(k, x, y) }
#define WAKE(first) { .op = PROG_WAKE, .wake_first = (first), .wake_count = 1 }
#define WAIT { .op = PROG_WAIT }
#define YIELD { .op = PROG_YIELD }
#define FOREVER { .op = PROG_RUN_FOREVER }

/* Two CPUs; random run/sleep lengths, yield, wait/wake across CPUs, exits, commands. */
static struct fx *fx_busy(int kernel, int variant, u64 seed)
{
	struct fx *f = fx_alloc(2, kernel, variant);

	f->sc.seed = seed;
	const struct prog_insn p0[] = { LOOP(3), RUN(DIST_UNIFORM, 100 * US, 3 * MS),
					SLEEP(DIST_EXP, 2 * MS, 0), END(0) };
	const struct prog_insn p1[] = { LOOP(4), RUN(DIST_NORMAL, 1 * MS, 300 * US), YIELD,
					SLEEP(DIST_UNIFORM, 500 * US, 1500 * US), END(0) };
	const struct prog_insn p2[] = { LOOP(4), RUN(DIST_UNIFORM, 200 * US, 900 * US), WAKE(0), WAIT,
					END(0) };
	const struct prog_insn p3[] = { LOOP(4), WAIT, RUN(DIST_UNIFORM, 200 * US, 800 * US), WAKE(1),
					END(0) };
	const struct prog_insn p4[] = { FOREVER };
	const struct prog_insn p5[] = { LOOPN(40, 3), RUN(DIST_CONST, 1 * MS, 0),
					SLEEP(DIST_UNIFORM, 1 * MS, 4 * MS), END(0),
					{ .op = PROG_NICE, .arg = 3 }, RUN(DIST_CONST, 5 * MS, 0),
					{ .op = PROG_EXIT } };

	fx_prog_task(f, 0, -1, 4, p0, 1);
	fx_prog_task(f, 2, -1, 5, p1, 1);
	fx_prog_task(f, 0, 0, 5, p2, 1);
	fx_prog_task(f, -2, 1, 5, p3, 1);
	fx_prog_task(f, 5, -1, 1, p4, 0);
	fx_prog_task(f, 0, -1, 7, p5, 1);
	fx_prog_task(f, 10, -1, 4, p0, 1)->start = 30 * MS + 7;
	fx_prog_task(f, 0, 1, 1, p4, 0)->policy = SCHED_IDLE;
	f->wake_list[0] = 3;	/* t2 wakes t3 */
	f->wake_list[1] = 2;	/* t3 wakes t2 */
	f->sc.nr_wake_list = 2;

	f->action[0] = (struct sched_action){ 100 * MS, { .kind = CMD_SET_NICE, .task = 4, .key = 0, .value = -3 }, 0 };
	f->action[1] = (struct sched_action){ 150 * MS, { .kind = CMD_SET_SLICE, .task = 1, .key = 0, .value = 300 * US }, 0 };
	f->action[2] = (struct sched_action){ 200 * MS, { .kind = CMD_SET_TUNABLE, .task = -1, .key = TUN_BASE_SLICE, .value = 3 * MS }, 0 };
	f->action[3] = (struct sched_action){ 300 * MS, { .kind = CMD_SET_FEATURE, .task = -1, .key = FEAT_RUN_TO_PARITY, .value = 0 }, 0 };
	f->action[4] = (struct sched_action){ 350 * MS, { .kind = CMD_SET_POLICY, .task = 0, .key = SCHED_BATCH, .value = 1 }, 0 };
	f->sc.nr_actions = 5;
	f->note[0] = (struct sched_note){ 250 * MS, "a note" };
	f->sc.nr_notes = 1;
	return f;
}

static int cleanup(void **state)
{
	rec_free(&rec1);
	rec_free(&rec2);
	for (int i = 0; i < 3; i++) {
		free(state_buf[i]);
		state_buf[i] = NULL;
	}
	return fx_cleanup(state);
}

/* ---- determinism ---- */

static void check_determinism(int kernel, int variant)
{
	struct fx *f = fx_busy(kernel, variant, 42);

	f->e = fx_engine(f);
	f->e2 = fx_engine(f);
	sched_add_listener(f->e, record, &rec1);
	sched_add_listener(f->e2, record, &rec2);
	/* interleave the two engines' steps: they must not share any state */
	for (;;) {
		bool more1 = sched_step(f->e);
		bool more2 = sched_step(f->e2);

		if (!(more1 || more2) || (sched_now(f->e) > 1 * SEC && sched_now(f->e2) > 1 * SEC))
			break;
	}
	sched_run_until(f->e, 1500 * MS);
	sched_run_until(f->e2, 1500 * MS);
	assert_true(rec1.nr > 1000);
	assert_same_events(&rec1, &rec2);
	for (int i = 0; i < f->sc.nr_tasks; i++) {
		struct sched_task_info a, b;
		sched_task_info(f->e, i, &a);
		sched_task_info(f->e2, i, &b);
		assert_int_equal(a.sum_exec_runtime, b.sum_exec_runtime);
		assert_int_equal(a.vruntime, b.vruntime);
		assert_int_equal(a.nr_wakeups, b.nr_wakeups);
		assert_int_equal(a.avg.util_avg, b.avg.util_avg);
	}
	cleanup(NULL);

	/* another seed: the uniform/exp/normal durations differ, and so does the stream */
	f = fx_busy(kernel, variant, 42);
	f->e = fx_engine(f);
	sched_add_listener(f->e, record, &rec1);
	sched_run_until(f->e, 500 * MS);
	f->sc.seed = 43;
	f->e2 = fx_engine(f);
	sched_add_listener(f->e2, record, &rec2);
	sched_run_until(f->e2, 500 * MS);
	assert_false(same_events(&rec1, &rec2));
	cleanup(NULL);
}

static void test_determinism(void **state)
{
	check_determinism(KV_LATEST, SCHED_VARIANT_EEVDF);
	check_determinism(KV(6, 12), SCHED_VARIANT_EEVDF);
	check_determinism(KV(6, 1), SCHED_VARIANT_CFS);
}

/* The same seed with only constant durations does not depend on the seed at all. */
static void test_seed_unused_without_random(void **state)
{
	struct fx *f = fx_alloc(1, KV_LATEST, SCHED_VARIANT_EEVDF);
	const struct prog_insn p[] = { LOOP(3), RUN(DIST_CONST, 700 * US, 0), SLEEP(DIST_CONST, 1300 * US, 0),
				       END(0) };
	const struct prog_insn h[] = { FOREVER };

	fx_prog_task(f, 0, 0, 4, p, 1);
	fx_prog_task(f, 3, 0, 1, h, 0);
	f->e = fx_engine(f);
	sched_add_listener(f->e, record, &rec1);
	sched_run_until(f->e, 300 * MS);
	f->sc.seed = 987654321;
	f->e2 = fx_engine(f);
	sched_add_listener(f->e2, record, &rec2);
	sched_run_until(f->e2, 300 * MS);
	assert_same_events(&rec1, &rec2);
}

/* ---- checkpoints ---- */

static void check_checkpoint(int kernel, int variant)
{
	struct fx *f = fx_busy(kernel, variant, 7);
	const u64 T1 = 400 * MS + 123, T2 = 900 * MS;

	f->e = fx_engine(f);
	sched_run_until(f->e, T1);
	size_t n = sched_state_size(f->e);
	for (int i = 0; i < 3; i++) {
		state_buf[i] = calloc(1, n);
		assert_non_null(state_buf[i]);
	}
	sched_state_save(f->e, state_buf[0]);
	u64 nev = sched_nr_events(f->e);

	sched_add_listener(f->e, record, &rec1);
	sched_run_until(f->e, T2);
	assert_int_equal(sched_state_size(f->e), n);
	sched_state_save(f->e, state_buf[1]);
	sched_remove_listener(f->e, record, &rec1);
	assert_true(rec1.nr > 200);

	sched_state_restore(f->e, state_buf[0]);
	assert_int_equal(sched_now(f->e), T1);
	assert_int_equal(sched_nr_events(f->e), nev);
	sched_add_listener(f->e, record, &rec2);
	sched_run_until(f->e, T2);
	sched_state_save(f->e, state_buf[2]);

	assert_same_events(&rec1, &rec2);
	assert_int_equal(rec1.ev[0].seq, nev);
	if (memcmp(state_buf[1], state_buf[2], n)) {
		size_t i = 0;
		while (((char *)state_buf[1])[i] == ((char *)state_buf[2])[i])
			i++;
		fail_msg("state bytes differ after the replay, first at offset %zu of %zu", i, n);
	}

	/* restoring the later state and going on gives what a straight run gives */
	struct rec straight = { 0 };
	f->e2 = fx_engine(f);
	sched_run_until(f->e2, T2);
	sched_add_listener(f->e2, record, &straight);
	sched_run_until(f->e2, T2 + 300 * MS);
	rec_free(&rec1);
	sched_remove_listener(f->e, record, &rec2);
	sched_add_listener(f->e, record, &rec1);
	sched_state_restore(f->e, state_buf[1]);
	sched_run_until(f->e, T2 + 300 * MS);
	assert_same_events(&rec1, &straight);
	rec_free(&straight);
	cleanup(NULL);
}

static void test_checkpoint_round_trip(void **state)
{
	check_checkpoint(KV_LATEST, SCHED_VARIANT_EEVDF);
	check_checkpoint(KV(6, 6), SCHED_VARIANT_EEVDF);
	check_checkpoint(KV(6, 1), SCHED_VARIANT_CFS);
}

/* ---- the stream: order, numbering, clocks, CPU time ---- */

struct audit {
	u64 nr;			/* events seen */
	u64 last_time;
	u64 now_at_step;	/* sched_now() when the step began */
	u64 cpu_time[FX_MAX_TASKS + 1];	/* from sched_switch */
	u64 since[FX_MAX_TASKS + 1];	/* switched in at */
	int running[4];		/* pid on each CPU per the stream */
	u64 switches;
	bool bad;
	char why[160];
};

static void audit_event(void *ctx, const struct sched_event *ev)
{
	struct audit *a = ctx;

	if (a->bad)
		return;
	if (ev->seq != a->nr) {
		snprintf(a->why, sizeof(a->why), "seq %llu, expected %llu", (unsigned long long)ev->seq,
			 (unsigned long long)a->nr);
		a->bad = true;
	} else if (ev->time < a->last_time) {
		snprintf(a->why, sizeof(a->why), "event %llu at %llu after one at %llu",
			 (unsigned long long)ev->seq, (unsigned long long)ev->time,
			 (unsigned long long)a->last_time);
		a->bad = true;
	} else if (ev->time < a->now_at_step) {
		snprintf(a->why, sizeof(a->why), "event %llu at %llu before the step's start %llu",
			 (unsigned long long)ev->seq, (unsigned long long)ev->time,
			 (unsigned long long)a->now_at_step);
		a->bad = true;
	}
	a->nr++;
	a->last_time = ev->time;
	if (ev->type == EV_SCHED_SWITCH) {
		int prev = ev->sw.prev_pid, next = ev->sw.next_pid;
		if (a->running[ev->cpu] != prev) {
			snprintf(a->why, sizeof(a->why), "switch from pid %d on cpu %d running %d", prev,
				 ev->cpu, a->running[ev->cpu]);
			a->bad = true;
		}
		if (prev)
			a->cpu_time[prev] += ev->time - a->since[prev];
		if (next)
			a->since[next] = ev->time;
		a->running[ev->cpu] = next;
		a->switches++;
	}
}

static void check_stream(int kernel, int variant)
{
	struct fx *f = fx_busy(kernel, variant, 3);
	struct audit a;
	u64 clock[2] = { 0, 0 }, clock_task[2] = { 0, 0 }, prev_now = 0;

	memset(&a, 0, sizeof(a));
	f->e = fx_engine(f);
	sched_add_listener(f->e, audit_event, &a);
	/* rq clocks may count from some boot time before time 0: take it as the origin */
	u64 boot[2], boot_task[2];
	for (int c = 0; c < 2; c++) {
		struct sched_cpu_info ci;
		sched_cpu_info(f->e, c, &ci);
		boot[c] = ci.clock;
		boot_task[c] = ci.clock_task;
		clock[c] = ci.clock;
		clock_task[c] = ci.clock_task;
		assert_true(ci.clock_task <= ci.clock);
	}
	while (sched_now(f->e) < 2 * SEC) {
		a.now_at_step = sched_now(f->e);
		if (!sched_step(f->e))
			break;
		if (a.bad)
			fail_msg("%s", a.why);
		u64 now = sched_now(f->e);
		/* the clock never goes backwards, globally or per CPU */
		assert_true(now >= prev_now);
		assert_true(a.last_time <= now);
		prev_now = now;
		for (int c = 0; c < 2; c++) {
			struct sched_cpu_info ci;
			sched_cpu_info(f->e, c, &ci);
			if (ci.clock < clock[c] || ci.clock - boot[c] > now)
				fail_msg("cpu %d: clock %llu after %llu (boot %llu), now %llu", c,
					 (unsigned long long)ci.clock, (unsigned long long)clock[c],
					 (unsigned long long)boot[c], (unsigned long long)now);
			assert_true(ci.clock_task >= clock_task[c] && ci.clock_task <= ci.clock);
			clock[c] = ci.clock;
			clock_task[c] = ci.clock_task;
			/* the stream and the state agree on who runs */
			assert_int_equal(ci.curr_pid, a.running[c]);
		}
		/* CPU time from sched_switch = sum_exec_runtime, exactly */
		sched_enter(f->e);
		for (int i = 0; i < f->sc.nr_tasks; i++) {
			struct task_struct *p = &f->e->st->task[i];
			struct sched_task_info ti;
			sched_task_info(f->e, i, &ti);
			if (!ti.on_cpu) {
				if (ti.sum_exec_runtime != a.cpu_time[i + 1])
					fail_msg("t=%llu task %d: sum_exec_runtime %llu, switches say %llu",
						 (unsigned long long)now, i,
						 (unsigned long long)ti.sum_exec_runtime,
						 (unsigned long long)a.cpu_time[i + 1]);
			} else {
				/* running: charged up to exec_start (task clock), the rest since
				 * then; it was switched in at task clock boot_task + since */
				u64 rq_now = cpu_rq(p->cpu)->clock_task;
				assert_int_equal(ti.sum_exec_runtime + (rq_now - p->se.exec_start),
						 a.cpu_time[i + 1] + (rq_now - boot_task[p->cpu] - a.since[i + 1]));
			}
		}
	}
	assert_int_equal(sched_nr_events(f->e), a.nr);
	assert_true(a.switches > 1000);
	assert_true(sched_now(f->e) >= 2 * SEC);
	cleanup(NULL);
}

static void test_event_stream(void **state)
{
	check_stream(KV_LATEST, SCHED_VARIANT_EEVDF);
	check_stream(KV(6, 12), SCHED_VARIANT_EEVDF);
	check_stream(KV(6, 1), SCHED_VARIANT_CFS);
}

/* A task that exits has its final CPU time in the stream; the run ends at duration. */
static void test_exit_and_end(void **state)
{
	struct fx *f = fx_alloc(1, KV_LATEST, SCHED_VARIANT_EEVDF);
	const struct prog_insn p[] = { RUN(DIST_CONST, 3 * MS, 0), SLEEP(DIST_CONST, 2 * MS, 0),
				       RUN(DIST_CONST, 4 * MS, 0) };
	const struct prog_insn h[] = { FOREVER };
	struct audit a;

	memset(&a, 0, sizeof(a));
	fx_prog_task(f, 0, 0, 3, p, 0);
	fx_prog_task(f, 0, 0, 1, h, 0);
	f->sc.duration = 100 * MS;
	f->e = fx_engine(f);
	sched_add_listener(f->e, audit_event, &a);
	sched_add_listener(f->e, record, &rec1);
	sched_run_until(f->e, 1 * SEC);
	assert_false(a.bad);
	assert_true(sched_finished(f->e));
	assert_false(sched_step(f->e));
	assert_int_equal(sched_now(f->e), 100 * MS);

	struct sched_task_info ti;
	sched_task_info(f->e, 0, &ti);
	assert_int_equal(ti.state, TASK_DEAD);
	assert_int_equal(ti.sum_exec_runtime, 7 * MS);	/* 3 + 4 ms of work */
	assert_int_equal(a.cpu_time[1], 7 * MS);
	/* one exit event, and its last switch-out says X */
	int exits = 0;
	char last_state = 0;
	for (size_t i = 0; i < rec1.nr; i++) {
		if (rec1.ev[i].type == EV_SCHED_PROCESS_EXIT && rec1.ev[i].f[0] == 1)
			exits++;
		if (rec1.ev[i].type == EV_SCHED_SWITCH && rec1.ev[i].f[0] == 1)
			last_state = (char)rec1.ev[i].f[4];
	}
	assert_int_equal(exits, 1);
	assert_int_equal(last_state, 'X');
}

/* ---- wait / wake ---- */

/*
 * Ping-pong on one CPU: A runs 1 ms, wakes B and waits; B (waiting) runs
 * 1 ms, wakes A and waits. Switches alternate strictly A, B, A, B with no
 * idle in between, one hand-off of the CPU every millisecond.
 */
static void check_ping_pong(int kernel, int variant)
{
	struct fx *f = fx_alloc(1, kernel, variant);
	const struct prog_insn a[] = { LOOP(4), RUN(DIST_CONST, 1 * MS, 0), WAKE(0), WAIT, END(0) };
	const struct prog_insn b[] = { LOOP(4), WAIT, RUN(DIST_CONST, 1 * MS, 0), WAKE(1), END(0) };

	fx_prog_task(f, 0, 0, 5, a, 1);
	fx_prog_task(f, 0, 0, 5, b, 1);
	f->wake_list[0] = 1;
	f->wake_list[1] = 0;
	f->sc.nr_wake_list = 2;
	f->e = fx_engine(f);
	sched_add_listener(f->e, record, &rec1);
	sched_run_until(f->e, 1 * SEC);

	int n = 0, turns = 0, last_next = -1;
	u64 last_t = 0;
	for (size_t i = 0; i < rec1.nr; i++) {
		const struct canon *c = &rec1.ev[i];
		if (c->type != EV_SCHED_SWITCH || c->time < 10 * MS)
			continue;
		int prev = (int)c->f[0], next = (int)c->f[1];
		if (next == 0 || prev == 0)
			fail_msg("t=%llu: idle in the hand-off (%d -> %d)", (unsigned long long)c->time,
				 prev, next);
		if (last_next >= 0) {
			if (prev != last_next || next == prev)
				fail_msg("t=%llu: switch %d -> %d after one to %d",
					 (unsigned long long)c->time, prev, next, last_next);
			/* every turn is the 1 ms run: a `run` that ends on a tick
			 * finishes before the tick, so no 0 ns turns */
			u64 d = c->time - last_t;
			if (d != 1 * MS)
				fail_msg("t=%llu: a turn of %llu ns", (unsigned long long)c->time,
					 (unsigned long long)d);
			turns++;
		}
		last_next = next;
		last_t = c->time;
		n++;
	}
	assert_true(n >= 980);
	assert_true(turns >= 980);	/* one hand-off per millisecond */
	/* each ran half the time */
	struct sched_task_info ta, tb;
	sched_task_info(f->e, 0, &ta);
	sched_task_info(f->e, 1, &tb);
	assert_true(ta.sum_exec_runtime >= 495 * MS && ta.sum_exec_runtime <= 505 * MS);
	assert_true(tb.sum_exec_runtime >= 495 * MS && tb.sum_exec_runtime <= 505 * MS);
	/* a hand-off wakes the waiter, or leaves a pending wake when the other
	 * was preempted between its `wake` and its `wait` */
	assert_true(ta.nr_wakeups + tb.nr_wakeups >= 490);
	cleanup(NULL);
}

static void test_ping_pong(void **state)
{
	check_ping_pong(KV_LATEST, SCHED_VARIANT_EEVDF);
	check_ping_pong(KV(6, 12), SCHED_VARIANT_EEVDF);
	check_ping_pong(KV(6, 6), SCHED_VARIANT_EEVDF);
	check_ping_pong(KV(6, 1), SCHED_VARIANT_CFS);
}

/* A `wake` that arrives before the `wait` is kept: the waiter does not block. */
static void test_wake_before_wait(void **state)
{
	struct fx *f = fx_alloc(1, KV_LATEST, SCHED_VARIANT_EEVDF);
	/* A wakes B at once, then exits; B runs 5 ms first, then waits: no block */
	const struct prog_insn a[] = { WAKE(0), { .op = PROG_EXIT } };
	const struct prog_insn b[] = { RUN(DIST_CONST, 5 * MS, 0), WAIT, RUN(DIST_CONST, 2 * MS, 0),
				       { .op = PROG_EXIT } };

	fx_prog_task(f, 0, 0, 4, b, 0);
	fx_prog_task(f, 0, 0, 2, a, 0);
	f->wake_list[0] = 0;
	f->sc.nr_wake_list = 1;
	f->e = fx_engine(f);
	sched_run_until(f->e, 100 * MS);
	struct sched_task_info tb;
	sched_task_info(f->e, 0, &tb);
	assert_int_equal(tb.state, TASK_DEAD);
	assert_int_equal(tb.sum_exec_runtime, 7 * MS);
	assert_int_equal(tb.nr_wakeups, 0);	/* it never slept */
	assert_int_equal(tb.nvcsw, 1);		/* only its exit switched it out voluntarily */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_determinism, cleanup),
		cmocka_unit_test_teardown(test_seed_unused_without_random, cleanup),
		cmocka_unit_test_teardown(test_checkpoint_round_trip, cleanup),
		cmocka_unit_test_teardown(test_event_stream, cleanup),
		cmocka_unit_test_teardown(test_exit_and_end, cleanup),
		cmocka_unit_test_teardown(test_ping_pong, cleanup),
		cmocka_unit_test_teardown(test_wake_before_wait, cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
