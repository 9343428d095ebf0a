// SPDX-License-Identifier: GPL-2.0
/*
 * Comparing two runs: the variant (--vs, --vs-set), the first-divergence
 * finder on hand-built streams and on engines, and the per task and group
 * metrics against values computed by hand.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Before cmocka.h, which has a macro called expect_check. */
#include "sched/api/history.h"
#include "sched/api/sched.h"
#include "src/analysis/diverge.h"
#include "src/analysis/metrics.h"
#include "src/analysis/stats.h"
#include "src/analysis/welch.h"
#include "src/format/scenario_file.h"
#include "src/format/variant.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define MS 1000000ULL
#define SEC 1000000000ULL

static char err[1024];

/* ---- hand-built streams ---- */

static u64 seq;

static struct sched_event ev_at(u64 t, int type, int cpu)
{
	struct sched_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.time = t;
	ev.seq = seq++;
	ev.type = (u16)type;
	ev.cpu = (s16)cpu;
	return ev;
}

static struct sched_event sw(u64 t, int cpu, int prev, int next)
{
	struct sched_event ev = ev_at(t, EV_SCHED_SWITCH, cpu);

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_state = 'R';
	return ev;
}

static struct sched_event wakeup(u64 t, int cpu, int pid)
{
	struct sched_event ev = ev_at(t, EV_SCHED_WAKEUP, cpu);

	ev.wake.pid = pid;
	ev.wake.target_cpu = cpu;
	return ev;
}

static struct sched_event select_rq(u64 t, int cpu, int pid, int new_cpu)
{
	struct sched_event ev = ev_at(t, EV_SELECT_RQ, cpu);

	ev.select.pid = pid;
	ev.select.new_cpu = (s16)new_cpu;
	return ev;
}

static void feed(struct diverge *d, const struct sched_event *a, int na, const struct sched_event *b, int nb)
{
	for (int i = 0; i < na; i++)
		diverge_event_a(d, &a[i]);
	for (int i = 0; i < nb; i++)
		diverge_event_b(d, &b[i]);
	diverge_end(d, 0);
	diverge_end(d, 1);
}

static void test_same_streams(void **state)
{
	struct sched_event s[] = { wakeup(0, 0, 1), sw(0, 0, 0, 1), wakeup(5, 1, 2), sw(5, 1, 0, 2),
				   sw(9, 0, 1, 0) };
	struct diverge d;

	diverge_init(&d, 0, UINT64_MAX);
	feed(&d, s, 5, s, 5);
	assert_false(d.found);
	assert_int_equal(d.matched, 5);
	diverge_free(&d);
}

static void test_first_difference(void **state)
{
	struct sched_event a[] = { wakeup(0, 0, 1), sw(0, 0, 0, 1), wakeup(5, 0, 2), sw(7, 0, 1, 2) };
	struct sched_event b[] = { wakeup(0, 0, 1), sw(0, 0, 0, 1), wakeup(5, 0, 2), sw(6, 0, 1, 2) };
	struct diverge d;

	/* the same switch a nanosecond apart is a different decision */
	diverge_init(&d, 0, UINT64_MAX);
	feed(&d, a, 4, b, 4);
	assert_true(d.found);
	assert_int_equal(d.matched, 3);
	assert_int_equal(d.d.time, 6);
	assert_true(d.d.has[0] && d.d.has[1]);
	assert_int_equal(d.d.ev[0].time, 7);
	assert_int_equal(d.d.ev[1].time, 6);
	assert_int_equal(d.d.ev[0].seq, a[3].seq);
	diverge_free(&d);

	/* another task picked at the same instant */
	b[3] = sw(7, 0, 1, 3);
	diverge_init(&d, 0, UINT64_MAX);
	feed(&d, a, 4, b, 4);
	assert_true(d.found);
	assert_int_equal(d.d.time, 7);
	assert_int_equal(d.d.ev[0].sw.next_pid, 2);
	assert_int_equal(d.d.ev[1].sw.next_pid, 3);
	diverge_free(&d);

	/* the same task on another CPU */
	b[3] = sw(7, 1, 1, 2);
	diverge_init(&d, 0, UINT64_MAX);
	feed(&d, a, 4, b, 4);
	assert_true(d.found);
	assert_int_equal(d.d.ev[1].cpu, 1);
	diverge_free(&d);
}

/* The records that explain a decision and the fair server's budget are not compared. */
static void test_records_are_not_decisions(void **state)
{
	struct sched_event a[] = { select_rq(1, 0, 1, 0), wakeup(1, 0, 1), ev_at(2, EV_DL_THROTTLE, 0),
				   ev_at(3, EV_SCHED_STAT_RUNTIME, 0) };
	struct sched_event b[] = { select_rq(1, 1, 1, 3), wakeup(1, 0, 1) };
	struct diverge d;

	diverge_init(&d, 0, UINT64_MAX);
	feed(&d, a, 4, b, 2);
	assert_false(d.found);
	assert_int_equal(d.matched, 1);
	diverge_free(&d);

	/* a deadline task's throttle is */
	a[2].dl.pid = 4;
	diverge_init(&d, 0, UINT64_MAX);
	feed(&d, a, 4, b, 2);
	assert_true(d.found);
	assert_true(d.d.has[0]);
	assert_false(d.d.has[1]);
	assert_int_equal(d.d.ev[0].type, EV_DL_THROTTLE);
	assert_int_equal(d.d.time, 2);
	diverge_free(&d);
}

/* One side makes an extra decision: it is paired with the other's next one. */
static void test_extra_decision(void **state)
{
	struct sched_event a[] = { wakeup(0, 0, 1), sw(0, 0, 0, 1), sw(4, 0, 1, 0) };
	struct sched_event b[] = { wakeup(0, 0, 1), sw(0, 0, 0, 1), wakeup(2, 1, 2), sw(4, 0, 1, 0) };
	struct diverge d;

	diverge_init(&d, 0, UINT64_MAX);
	/* fed interleaved, as listeners on two engines would be */
	for (int i = 0; i < 4; i++) {
		if (i < 3)
			diverge_event_a(&d, &a[i]);
		diverge_event_b(&d, &b[i]);
	}
	assert_true(d.found);
	assert_int_equal(d.d.time, 2);
	assert_int_equal(d.d.ev[0].type, EV_SCHED_SWITCH);
	assert_int_equal(d.d.ev[1].type, EV_SCHED_WAKEUP);
	assert_int_equal(d.d.ev[1].wake.pid, 2);
	diverge_free(&d);
}

/* "The next divergence after T": the runs lined up again from T + 1. */
static void test_next_divergence(void **state)
{
	struct sched_event a[] = { wakeup(0, 0, 1), sw(0, 0, 0, 1), sw(5, 0, 1, 2),
				   sw(6, 0, 2, 1),  sw(8, 0, 1, 2), sw(9, 0, 2, 1) };
	struct sched_event b[] = { wakeup(0, 0, 1), sw(0, 0, 0, 1), sw(5, 0, 1, 3),
				   sw(6, 0, 3, 1),  sw(8, 0, 1, 2), sw(9, 0, 2, 3) };
	struct diverge d;

	diverge_init(&d, 0, UINT64_MAX);
	feed(&d, a, 6, b, 6);
	assert_true(d.found);
	assert_int_equal(d.d.time, 5);
	diverge_free(&d);

	diverge_init(&d, 6, UINT64_MAX);
	feed(&d, a, 6, b, 6);
	assert_true(d.found);
	assert_int_equal(d.d.time, 6);
	diverge_free(&d);

	diverge_init(&d, 7, UINT64_MAX);
	feed(&d, a, 6, b, 6);
	assert_true(d.found);
	assert_int_equal(d.d.time, 9);
	assert_int_equal(d.matched, 1);
	diverge_free(&d);

	/* none up to `until` */
	diverge_init(&d, 7, 8);
	feed(&d, a, 6, b, 6);
	assert_false(d.found);
	diverge_free(&d);
}

/* ---- engines ---- */

#define TWO_CPUS "topology packages=1 cores=2\nhz 1000\nduration 2s\n"
#define WORKLOAD                                     \
	"task hog count=2 program=\"run forever\"\n" \
	"task web count=2 program=\"loop { run 1ms; sleep 3ms }\"\n"

static void load(struct scenario_file *f, const char *text)
{
	assert_int_equal(scenario_parse("t.scn", text, strlen(text), f, err, sizeof(err)), 0);
}

static struct sched_engine *engine(const struct scenario_file *f)
{
	struct sched_engine *e = sched_engine_create(&f->sc, err, sizeof(err));

	assert_non_null(e);
	return e;
}

static void test_same_scenario_never_diverges(void **state)
{
	struct scenario_file f;
	struct divergence dv;

	load(&f, TWO_CPUS WORKLOAD);
	struct sched_engine *a = engine(&f), *b = engine(&f);
	assert_int_equal(diverge_engines(a, b, 0, SEC, &dv), 0);
	assert_true(sched_now(a) <= SEC && sched_now(b) <= SEC);
	assert_true(sched_now(a) > SEC - 10 * MS);
	sched_engine_destroy(a);
	sched_engine_destroy(b);
	scenario_free(&f);
}

/* A nice change at 300 ms: nothing differs before it, and the finder agrees
 * with a search over the two runs' logs. */
static void test_engines_and_logs_agree(void **state)
{
	struct scenario_file fa, fb;
	struct divergence dv, dl, next;

	load(&fa, TWO_CPUS WORKLOAD);
	load(&fb, TWO_CPUS WORKLOAD "at 300ms set nice web.0 10\n");
	struct sched_engine *a = engine(&fa), *b = engine(&fb);
	assert_int_equal(diverge_engines(a, b, 0, SEC, &dv), 1);
	/* the command itself is B's first different decision */
	assert_int_equal(dv.time, 300 * MS);
	assert_true(dv.has[1]);
	assert_int_equal(dv.ev[1].type, EV_COMMAND);
	sched_engine_destroy(a);
	sched_engine_destroy(b);

	a = engine(&fa);
	b = engine(&fb);
	struct sched_history *ha = history_create(a, HISTORY_DEFAULT_BUDGET);
	struct sched_history *hb = history_create(b, HISTORY_DEFAULT_BUDGET);
	history_run_until(ha, SEC);
	history_run_until(hb, SEC);
	assert_int_equal(diverge_logs(ha, hb, 0, SEC, &dl), 1);
	assert_int_equal(dl.time, dv.time);
	assert_int_equal(dl.ev[1].seq, dv.ev[1].seq);
	assert_int_equal(dl.ev[0].seq, dv.ev[0].seq);

	/* run in step by diverge_run_pair(): the same first divergence, both at the end */
	struct sched_engine *ra = engine(&fa), *rb = engine(&fb);
	struct diverge d;
	diverge_init(&d, 0, SEC);
	diverge_run_pair(ra, rb, SEC, &d, 7 * MS);
	assert_true(d.found);
	assert_int_equal(d.d.time, dv.time);
	assert_int_equal(d.d.ev[0].seq, dv.ev[0].seq);
	assert_int_equal(d.d.ev[1].seq, dv.ev[1].seq);
	assert_int_equal(sched_now(ra), SEC);
	assert_int_equal(sched_now(rb), SEC);
	diverge_free(&d);
	sched_engine_destroy(ra);
	sched_engine_destroy(rb);

	/* after the command, the heavier web.0 loses a pick: a later divergence */
	assert_int_equal(diverge_logs(ha, hb, dl.time + 1, SEC, &next), 1);
	assert_true(next.time > dl.time);
	assert_true(next.has[0] && next.has[1]);
	assert_false(diverge_same(&next.ev[0], &next.ev[1]));
	history_destroy(ha);
	history_destroy(hb);
	sched_engine_destroy(a);
	sched_engine_destroy(b);
	scenario_free(&fa);
	scenario_free(&fb);
}

/* ---- variants ---- */

static void test_variant_args(void **state)
{
	struct variant v = { 0 };

	assert_false(variant_given(&v));
	assert_int_equal(variant_add_set(&v, "kernel=6.1", err, sizeof(err)), 0);
	assert_true(variant_given(&v));
	assert_int_equal(variant_add_set(&v, "kernel", err, sizeof(err)), -1);
	assert_string_equal(err, "--vs-set: expected KEY=VALUE, got 'kernel'");
	assert_int_equal(variant_add_set(&v, "=6.1", err, sizeof(err)), -1);
	assert_int_equal(variant_add_file(&v, "b.scn", err, sizeof(err)), 0);
	assert_int_equal(variant_add_file(&v, "c.scn", err, sizeof(err)), -1);
	assert_string_equal(err, "--vs: given twice ('b.scn' and 'c.scn'); one run compares with one other");
	assert_string_equal(variant_path(&v, "a.scn"), "b.scn");
}

static void test_variant_apply(void **state)
{
	struct variant v = { 0 };
	struct scenario_file a, b;
	char la[VARIANT_LABEL_MAX], lb[VARIANT_LABEL_MAX];

	load(&a, TWO_CPUS "seed 42\n" WORKLOAD);
	/* B's file says another seed: B still runs with A's */
	load(&b, TWO_CPUS "seed 7\n" WORKLOAD);
	assert_int_equal(variant_add_set(&v, "kernel=6.1", err, sizeof(err)), 0);
	assert_int_equal(variant_add_set(&v, "feature=NO_PLACE_LAG", err, sizeof(err)), 0);
	assert_int_equal(variant_apply(&v, &a, &b, err, sizeof(err)), 0);
	assert_int_equal(b.sc.seed, 42);
	assert_int_equal(b.sc.kernel, KV(6, 1));
	assert_int_equal(b.sc.variant, SCHED_VARIANT_CFS);
	assert_int_equal(a.sc.kernel, KV_LATEST);
	variant_labels(&v, "dir/a.scn", la, lb);
	assert_string_equal(la, "A: stock");
	assert_string_equal(lb, "B: kernel 6.1, NO_PLACE_LAG");
	scenario_free(&b);

	/* unless told */
	load(&b, TWO_CPUS WORKLOAD);
	assert_int_equal(variant_add_set(&v, "seed=9", err, sizeof(err)), 0);
	assert_int_equal(variant_apply(&v, &a, &b, err, sizeof(err)), 0);
	assert_int_equal(b.sc.seed, 9);
	scenario_free(&b);

	/* a bad one names the option and leaves nothing half-applied */
	assert_int_equal(variant_add_set(&v, "hz=123", err, sizeof(err)), 0);
	load(&b, TWO_CPUS WORKLOAD);
	assert_int_equal(variant_apply(&v, &a, &b, err, sizeof(err)), -1);
	assert_string_equal(err, "--vs-set: hz '123' is not one of 100, 250, 300, 1000");
	assert_null(b.owned);
	assert_int_equal(b.sc.nr_tasks, 0);
	scenario_free(&a);

	struct variant w = { 0 };
	assert_int_equal(variant_add_file(&w, "scenarios/b.scn", err, sizeof(err)), 0);
	assert_int_equal(variant_add_set(&w, "base_slice_ns=3ms", err, sizeof(err)), 0);
	variant_labels(&w, "scenarios/a.scn", la, lb);
	assert_string_equal(la, "A: a.scn");
	assert_string_equal(lb, "B: b.scn, base_slice_ns 3ms");
}

/* A scenario's own side B and its expects on the difference. */
static void test_scenario_vs_lines(void **state)
{
	struct scenario_file a, b;
	struct variant v;
	char la[VARIANT_LABEL_MAX], lb[VARIANT_LABEL_MAX];

	load(&a, TWO_CPUS "param q=20ms\ngroup /g cpu.max=\"${q} 100ms\"\n" WORKLOAD
			  "vs set kernel=6.1\nvs param q=50ms\n"
			  "expect diff p99_latency(web*) < -20% over 1s..2s  # comment\n"
			  "expect diff throttled_time(/g) >= -3ms\n");
	assert_int_equal(a.nr_vs, 2);
	assert_string_equal(a.vs[0].text, "kernel=6.1");
	assert_false(a.vs[0].param);
	assert_int_equal(a.vs[0].line, 8);
	assert_int_equal(a.vs[0].col, 8);
	assert_true(a.vs[1].param);
	assert_int_equal(a.nr_diff_expects, 2);
	const struct diff_expect *d = &a.diff_expect[0];
	assert_int_equal(d->x.metric, MET_P99);
	assert_string_equal(d->x.pattern, "web*");
	assert_int_equal(d->x.op, DIFF_LT);
	assert_true(d->x.relative && d->x.value == -20);
	assert_true(d->has_window && d->from == SEC && d->to == 2 * SEC);
	assert_string_equal(d->x.text, "p99_latency(web*) < -20% over 1s..2s");
	assert_int_equal(d->col, 13);
	d = &a.diff_expect[1];
	assert_int_equal(d->x.metric, MET_THROTTLED);
	assert_true(d->x.group && !d->x.relative && d->x.value == -3e6 && d->x.op == DIFF_GE);
	assert_false(d->has_window);

	variant_from_file(&v, &a);
	assert_int_equal(v.nr_sets, 1);
	assert_int_equal(v.nr_params, 1);
	assert_string_equal(v.param[0], "q=50ms");
	variant_labels(&v, "t.scn", la, lb);
	assert_string_equal(lb, "B: kernel 6.1, q 50ms");
	/* B from the same text with the param, then the set: 6.1 is CFS */
	const char *params[] = { "q=50ms" };
	struct scenario_overrides ov = { NULL, 1, params, 0, NULL };
	const char *text = TWO_CPUS "param q=20ms\ngroup /g cpu.max=\"${q} 100ms\"\n" WORKLOAD;
	assert_int_equal(scenario_parse_with("t.scn", text, strlen(text), &ov, &b, err, sizeof(err)), 0);
	assert_int_equal(variant_apply(&v, &a, &b, err, sizeof(err)), 0);
	assert_int_equal(b.sc.variant, SCHED_VARIANT_CFS);
	assert_int_equal(b.sc.group[1].quota, 50 * MS);
	assert_int_equal(a.sc.group[1].quota, 20 * MS);
	scenario_free(&b);
	scenario_free(&a);

	/* diff expressions on their own */
	struct diff_expr x;
	u32 col;
	assert_int_equal(diff_expr_parse("share(db) < -0.05", 17, &x, &col, err, sizeof(err)), 0);
	assert_true(diff_expr_holds(&x, 0.5, 0.44));
	assert_false(diff_expr_holds(&x, 0.5, 0.46));
	assert_int_equal(diff_expr_parse("migrations(*) >= +100%", 22, &x, &col, err, sizeof(err)), 0);
	assert_true(diff_expr_holds(&x, 0, 1));	 /* from 0: an infinite change */
	assert_false(diff_expr_holds(&x, 0, 0)); /* none: 0 % */
	assert_true(diff_expr_holds(&x, 2, 4));
	assert_false(diff_expr_holds(&x, 2, 3.9));
	assert_int_equal(diff_expr_parse("wait(x) <= 2ms", 14, &x, &col, err, sizeof(err)), 0);
	assert_true(x.value == 2e6 && x.op == DIFF_LE);
	assert_int_equal(diff_expr_parse("p99_latency(x) = 2ms", 20, &x, &col, err, sizeof(err)), -1);
	assert_int_equal(col, 16);
	assert_string_equal(err, "expected <, <=, > or >= after the glob");
	assert_int_equal(diff_expr_parse("share(x > 1%", 12, &x, &col, err, sizeof(err)), -1);
	assert_int_equal(col, 6);
	assert_string_equal(err, "'(' is not closed");
}

/* ---- metrics ---- */

static void put(struct stats *st, struct sched_event ev)
{
	stats_event(st, &ev);
}

/*
 * One CPU, a 100 ns window, groups /g (x, y) and /h (z):
 *   0 x, y, z forked (wakeup_new)    0 idle -> x     20 x -> y (R)
 *  50 y -> z (S: y sleeps)          60 y woken       70 z -> y (S)
 *  90 y -> x (R)                   100 end
 * x: runs 0-20, 90-100 (30), waits 20-90 (70); latency 0
 * y: runs 20-50, 70-90 (50), waits 0-20, 60-70, 90-100 (40); latencies 20, 10
 * z: runs 50-70 (20), waits 0-50 (50); latency 50
 */
static void test_metrics(void **state)
{
	const char *text = "topology single\n"
			   "group /g\ngroup /h\n"
			   "task x group=/g program=\"run forever\"\n"
			   "task y group=/g program=\"run forever\"\n"
			   "task z group=/h program=\"run forever\"\n";
	struct scenario_file f;
	struct stats st;
	struct metrics m;

	load(&f, text);
	stats_init_scenario(&st, &f.sc, 0, 100);
	for (int pid = 1; pid <= 3; pid++) {
		struct sched_event ev = wakeup(0, 0, pid);

		ev.type = EV_SCHED_WAKEUP_NEW;
		put(&st, ev);
	}
	put(&st, sw(0, 0, 0, 1));
	put(&st, sw(20, 0, 1, 2));
	struct sched_event s = sw(50, 0, 2, 3);
	s.sw.prev_state = 'S';
	put(&st, s);
	put(&st, wakeup(60, 0, 2));
	s = sw(70, 0, 3, 2);
	s.sw.prev_state = 'S';
	put(&st, s);
	put(&st, sw(90, 0, 2, 1));
	stats_finish(&st, 100);

	metrics_from_stats(&m, &st, f.task_names);
	assert_int_equal(m.window, 100);
	assert_int_equal(m.nr_tasks, 3);
	assert_int_equal(m.nr_rows, 5);

	const struct metric_row *x = &m.row[0], *y = &m.row[1], *z = &m.row[2];
	assert_string_equal(x->name, "x");
	assert_true(x->v[MET_SHARE] == 0.30);
	assert_true(x->v[MET_WAIT] == 70);
	assert_true(y->v[MET_SHARE] == 0.50);
	assert_true(y->v[MET_WAIT] == 40);
	assert_true(y->v[MET_P99] == 20);
	assert_true(z->v[MET_P50] == 50);
	assert_false(x->has[MET_THROTTLED]);

	int g = metrics_find(&m, "/g", true), h = metrics_find(&m, "/h", true);
	assert_int_equal(g, 3);
	assert_int_equal(h, 4);
	assert_int_equal(metrics_find(&m, "/g", false), -1);
	assert_true(m.row[g].v[MET_SHARE] == 0.80);
	assert_true(m.row[g].v[MET_WAIT] == 110);
	/* /g's samples are x's and y's: 0, 20, 10 (the histogram is exact below 32 ns) */
	assert_true(m.row[g].v[MET_P50] == 10);
	assert_true(m.row[g].v[MET_P99] == 20);
	assert_true(m.row[h].v[MET_P99] == 50);
	assert_true(m.row[g].has[MET_THROTTLED]);
	assert_true(m.row[g].v[MET_THROTTLED] == 0);
	assert_true(m.row[h].v[MET_SHARE] == 0.20);
	assert_int_equal(metric_lookup("p99_latency", 11), MET_P99);
	assert_int_equal(metric_lookup("p99", 3), -1);
	metrics_free(&m);
	stats_free(&st);
	scenario_free(&f);
}

/* ---- statistics, against values worked out by hand ---- */

static void test_student_t(void **state)
{
	/* one degree of freedom is Cauchy: P(|T| >= 1) = 1/2 */
	assert_true(fabs(student_t_two_sided(1, 1) - 0.5) < 1e-12);
	/* two: P(|T| >= t) = 1 - t / sqrt(2 + t^2) */
	assert_true(fabs(student_t_two_sided(2, 2) - (1 - 2 / sqrt(6))) < 1e-12);
	/* four: 1 - (3/4) x (1 - t^2 / (12 (1 + t^2/4))), x = t / sqrt(1 + t^2/4); t = 2: 1 - 0.625 sqrt(2) */
	assert_true(fabs(student_t_two_sided(2, 4) - (1 - 0.625 * sqrt(2))) < 1e-12);
	assert_true(student_t_two_sided(0, 5) == 1);
	assert_true(student_t_two_sided(INFINITY, 5) == 0);
	/* the 95 % quantile with two degrees of freedom: t^2 = 0.9025 (2 + t^2) */
	assert_true(fabs(student_t_quantile(0.05, 2) - sqrt(1.805 / 0.0975)) < 1e-9);
	assert_true(fabs(student_t_quantile(0.5, 1) - 1) < 1e-9);
	/* the tables' t(0.975) for 8 and 30 degrees of freedom, to their 6 digits */
	assert_true(fabs(student_t_quantile(0.05, 8) - 2.306004) < 5e-7);
	assert_true(fabs(student_t_quantile(0.05, 30) - 2.042272) < 5e-7);
}

static void test_welch(void **state)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	struct sample_summary sa, sb;
	struct welch w;

	/* means 3 and 5, variances 2.5: se = sqrt(2.5/5 + 2.5/5) = 1, df = 1 / (2 * 0.25^2 / 4) = 8 */
	sample_summarize(a, 5, &sa);
	sample_summarize(b, 5, &sb);
	assert_true(sa.mean == 3 && sa.var == 2.5);
	welch_test(&sa, &sb, &w);
	assert_true(w.valid);
	assert_true(w.diff == 2 && fabs(w.se - 1) < 1e-12 && fabs(w.t - 2) < 1e-12);
	assert_true(fabs(w.df - 8) < 1e-12);
	assert_true(fabs(w.p - 0.0805) < 1e-4); /* the tables: between 0.10 (1.860) and 0.05 (2.306) */
	assert_true(w.p > WELCH_ALPHA);
	assert_true(fabs(w.lo - (2 - 2.306004)) < 1e-6 && fabs(w.hi - (2 + 2.306004)) < 1e-6);

	/* unequal variances 4 and 500/3 over 3 and 4 values: se^2 = 4/3 + 125/3 = 43,
	 * df = 43^2 / ((4/3)^2 / 2 + (125/3)^2 / 3) = 3.19017... */
	double c[] = { 10, 12, 14 }, d[] = { 20, 30, 40, 50 };
	sample_summarize(c, 3, &sa);
	sample_summarize(d, 4, &sb);
	welch_test(&sa, &sb, &w);
	assert_true(fabs(w.se - sqrt(43)) < 1e-12);
	assert_true(fabs(w.t - 23 / sqrt(43)) < 1e-12);
	assert_true(fabs(w.df - 1849 / (16.0 / 18 + 15625.0 / 27)) < 1e-9);
	assert_true(w.p < WELCH_ALPHA && w.p > 0.02);
	assert_true(w.lo > 0);

	/* the same value for every seed: no spread, a certain difference */
	double e[] = { 1, 1 }, f[] = { 2, 2 };
	sample_summarize(e, 2, &sa);
	sample_summarize(f, 2, &sb);
	welch_test(&sa, &sb, &w);
	assert_true(w.valid && w.p == 0 && w.lo == 1 && w.hi == 1);
	welch_test(&sa, &sa, &w);
	assert_true(w.p == 1 && w.diff == 0);

	/* one seed: no test */
	sample_summarize(e, 1, &sa);
	welch_test(&sa, &sb, &w);
	assert_false(w.valid);
	assert_true(w.diff == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_streams),
		cmocka_unit_test(test_first_difference),
		cmocka_unit_test(test_records_are_not_decisions),
		cmocka_unit_test(test_extra_decision),
		cmocka_unit_test(test_next_divergence),
		cmocka_unit_test(test_same_scenario_never_diverges),
		cmocka_unit_test(test_engines_and_logs_agree),
		cmocka_unit_test(test_variant_args),
		cmocka_unit_test(test_variant_apply),
		cmocka_unit_test(test_scenario_vs_lines),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
