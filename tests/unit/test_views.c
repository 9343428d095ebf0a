// SPDX-License-Identifier: GPL-2.0
/* The views drawn into a cell buffer for a known state, checked by their text. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Before cmocka.h: cmocka has a macro named expect_check. */
#include "src/analysis/timehist.h"
#include "src/format/scenario_file.h"
#include "ui/commands.h"
#include "ui/find.h"
#include "ui/format.h"
#include "ui/loop.h"
#include "ui/mouse.h"

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

extern const struct view view_cpus, view_runqueue, view_timeline, view_events, view_task, view_migrations;

static const char two_cpus[] =
	"topology packages=1 cores=2 threads=1\n"
	"hz 1000\n"
	"seed 1\n"
	"duration 1s\n"
	"sched eevdf\n"
	"task alpha cpus=0 program=\"run forever\"\n"
	"task beta cpus=0 nice=5 program=\"run forever\"\n"
	"task sleeper cpus=1 program=\"loop { run 1ms; sleep 2ms }\"\n";

static const char big[] =
	"topology packages=2 cores=64 threads=2\n"
	"duration 1s\n"
	"task hog count=300 program=\"loop { run 3ms; sleep 1ms }\"\n";

struct fx {
	struct scenario_file f;
	struct sched_engine *e;
	struct sched_history *h;
	struct ui ui;
	struct pane *pane;	/* the ui's one pane */
	struct cellbuf cb;
};

static struct fx *fx_new(const char *text, u64 until, int w, int h)
{
	struct fx *x = calloc(1, sizeof(*x));
	char err[256];

	assert_non_null(x);
	if (scenario_parse("test.scn", text, strlen(text), &x->f, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	if (ui_setup(&x->ui, &x->f, HISTORY_DEFAULT_BUDGET, err, sizeof(err)))
		fail_msg("%s", err);
	x->e = x->ui.run.e;
	x->h = x->ui.run.h;
	x->pane = ui_focus(&x->ui);
	history_run_until(x->h, until);
	x->pane->sel_cpu = 0;
	x->pane->sel_task = 0;
	x->pane->tl_span_ns = 20 * NSEC_PER_MSEC;
	cb_init(&x->cb, w, h);
	return x;
}

static void fx_free(struct fx *x)
{
	cb_free(&x->cb);
	ui_teardown(&x->ui);
	scenario_free(&x->f);
	free(x);
}

static void draw(struct fx *x, const struct view *v)
{
	cb_clear(&x->cb);
	v->draw(x->pane, &x->cb, (struct rect){ 0, 0, x->cb.w, x->cb.h });
}

static char rowbuf[4096];

static const char *row(struct fx *x, int y)
{
	return cb_row(&x->cb, y, rowbuf, sizeof(rowbuf));
}

/* The first row containing s, -1 if none. */
static int find_row(struct fx *x, const char *s)
{
	for (int y = 0; y < x->cb.h; y++)
		if (strstr(row(x, y), s))
			return y;
	return -1;
}

static bool screen_has(struct fx *x, const char *s)
{
	return find_row(x, s) >= 0;
}

/* ---- CPUs ---- */

static void test_cpus_rows(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 40);
	struct sched_cpu_info ci;
	char cpu0[4096];

	draw(x, &view_cpus);
	assert_true(screen_has(x, "package 0"));
	int y0 = find_row(x, "CPU0");

	assert_true(y0 >= 0);
	snprintf(cpu0, sizeof(cpu0), "%s", row(x, y0));
	/* both tasks of CPU 0 on its row: one running, one queued */
	assert_non_null(strstr(cpu0, "alpha"));
	assert_non_null(strstr(cpu0, "beta"));
	assert_null(strstr(cpu0, "sleeper"));
	sched_cpu_info(x->e, 0, &ci);
	assert_int_equal(ci.nr_running, 2);
	assert_non_null(strstr(cpu0, sched_comm(x->e, ci.curr_pid, 0)));
	/* the selected CPU is marked */
	assert_non_null(strstr(cpu0, "\u25b6"));

	int y1 = find_row(x, "CPU1");

	assert_true(y1 > y0);
	sched_cpu_info(x->e, 1, &ci);
	assert_non_null(strstr(row(x, y1), ci.idle ? "idle" : "sleeper"));
	assert_null(strstr(row(x, y1), "alpha"));
	fx_free(x);
}

/* The util history column and the selected CPU's graphs: the engine's samples, drawn as blocks. */
static void test_cpus_history(void **state)
{
	static const u32 block[9] = { ' ', 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588 };
	struct fx *x = fx_new(two_cpus, 700 * NSEC_PER_MSEC, 160, 40);
	u32 util[24];

	x->pane->sel_cpu = 0;
	draw(x, &view_cpus);
	assert_true(screen_has(x, "util, last 1s"));
	assert_true(screen_has(x, "CPU0 over the last 1s"));
	int yh = find_row(x, "util, last 1s"), y0 = find_row(x, "CPU0 ");

	assert_true(yh >= 0 && y0 > yh);
	/* the header is ASCII: its bytes are its columns */
	int hx = (int)(strstr(row(x, yh), "util, last 1s") - row(x, yh));
	/* 1s in 24 cells at 700 ms: the first cells are before the run, blank */
	cpu_history_series(&x->pane->run->cpu_hist, 0, 700 * NSEC_PER_MSEC, NSEC_PER_SEC, 24, util, NULL);
	assert_int_equal(util[0], CPU_HIST_NONE);
	assert_int_not_equal(util[23], CPU_HIST_NONE);
	for (int i = 0; i < 24; i++) {
		u32 want = util[i] == CPU_HIST_NONE ? ' '
			   : util[i] == 0	    ? block[1]
						    : block[MIN((util[i] * 8 + 1023) / 1024, 8)];

		assert_int_equal(x->cb.cell[y0 * x->cb.w + hx + i].ch, want);
	}
	/* CPU 0 runs two hogs: its util_avg is near its capacity by now */
	assert_true(util[23] > 1000);

	/* 100 columns: no room for the history column */
	fx_free(x);
	x = fx_new(two_cpus, 700 * NSEC_PER_MSEC, 100, 40);
	x->pane->sel_cpu = 0;
	draw(x, &view_cpus);
	assert_false(screen_has(x, "util, last 1s"));
	assert_true(screen_has(x, "CPU0 over the last 1s"));
	fx_free(x);
}

/* ---- runqueue ---- */

static const char groups_wakers[] =
	"topology single\n"
	"hz 1000\n"
	"duration 1s\n"
	"group /a cpu.weight=200\n"
	"group /b\n"
	"task hog count=2 group=/a program=\"run forever\"\n"
	"task short slice=100us group=/b program=\"loop { run 300us; sleep exp(3ms) }\"\n"
	"task web count=2 program=\"loop { run uniform(200us, 2ms); sleep exp(5ms) }\"\n";

/* The table's ▶ row is the entity sched_cfs_rq_pick() names, at each step. */
static void check_view_pick(const char *release)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s%s", release, groups_wakers);
	struct fx *x = fx_new(text, 0, 160, 48);
	int checked = 0;

	for (int step = 0; step < 400 && history_step(x->h); step++) {
		struct sched_entity_info q[16];
		struct sched_pick_info pi;
		const char *name;
		int y;

		for (int group = 0; group < 3; group++) {
			x->pane->sel_group = group;
			sched_cfs_rq_pick(x->e, 0, group, &pi);
			int n = sched_cfs_rq_entities(x->e, 0, group, q, 16);

			draw(x, &view_runqueue);
			y = find_row(x, "entity ");
			if (pi.index < 0 || y < 0 || n > 8)
				continue;
			struct sched_group_info gi;
			struct sched_task_info ti;

			if (q[pi.index].task >= 0) {
				sched_task_info(x->e, q[pi.index].task, &ti);
				name = ti.name;
			} else {
				sched_group_info(x->e, q[pi.index].group, &gi);
				name = gi.path;
			}
			int marked = -1;

			for (int r = y + 1; r < x->cb.h; r++)
				if (!strncmp(row(x, r), "\u25b6", 3))
					marked = r;
			assert_true(marked > y);
			assert_non_null(strstr(row(x, marked), name));
			checked++;
		}
	}
	x->pane->sel_group = 0;
	assert_true(checked > 200);
	fx_free(x);
}

static void test_runqueue_pick_is_engines(void **state)
{
	(void)state;
	check_view_pick("kernel 6.12\n");
	check_view_pick("kernel 6.17\n");
	check_view_pick("sched cfs\nkernel 6.1\n");
}

static void test_runqueue_eevdf(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 40);
	int q[8];
	int n = sched_cpu_queue(x->e, 0, q, 8);

	assert_int_equal(n, 2);
	draw(x, &view_runqueue);
	assert_true(screen_has(x, "V = avg_vruntime"));
	assert_true(screen_has(x, "pick_eevdf()"));
	/* the axis has the V mark under it */
	int ya = find_row(x, "\u253c");

	assert_true(ya >= 0);
	assert_true(strstr(row(x, ya + 1), "V") != NULL);

	/* table rows: eligibility as the engine says, and the lane marker agrees */
	int yt = find_row(x, "deadline-V");

	assert_true(yt > ya);
	for (int i = 0; i < n; i++) {
		struct sched_task_info ti;
		bool found = false;

		sched_task_info(x->e, q[i], &ti);
		for (int y = yt + 1; y < x->cb.h; y++) {
			const char *r = row(x, y);

			if (!strstr(r, ti.name))
				continue;
			const char *elig = ti.sched_delayed ? NULL : ti.eligible ? " yes " : "  no ";

			if (elig)
				assert_non_null(strstr(r, elig));
			found = true;
			break;
		}
		assert_true(found);
		/* the lane: eligible entities are a filled dot */
		for (int y = find_row(x, "\u2192") + 1; y < ya; y++) {
			const char *r = row(x, y);

			if (strstr(r, ti.name)) {
				assert_non_null(strstr(r, ti.eligible ? "\u25cf" : "\u25cb"));
				break;
			}
		}
	}
	/* some entity is eligible: lag >= 0 for at least one */
	assert_true(screen_has(x, "\u25cf"));
	fx_free(x);
}

static void test_runqueue_cfs(void **state)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s", two_cpus);
	char *p = strstr(text, "sched eevdf");

	memcpy(p, "sched cfs  ", 11);
	struct fx *x = fx_new(text, 100 * NSEC_PER_MSEC, 120, 40);

	draw(x, &view_runqueue);
	assert_true(screen_has(x, "CFS"));
	assert_true(screen_has(x, "min_vruntime"));
	assert_true(screen_has(x, "ideal slice"));
	assert_true(screen_has(x, "alpha"));
	fx_free(x);
}

/* An ext policy (build/ext/scx_simple.so): the runqueue view shows its dispatch queues, the CPUs
 * view its local queues and the shared ones on one line. */
static const char ext_cpus[] = "topology packages=1 cores=2 threads=1\n"
			       "hz 1000\n"
			       "seed 1\n"
			       "duration 1s\n"
			       "sched ext:build/ext/scx_simple.so\n"
			       "task alpha cpus=0 program=\"run forever\"\n"
			       "task beta cpus=0 program=\"run forever\"\n"
			       "task gamma cpus=0 program=\"run forever\"\n";

static void test_runqueue_ext(void **state)
{
	struct fx *x = fx_new(ext_cpus, 100 * NSEC_PER_MSEC, 120, 40);
	struct sched_cpu_info ci;

	draw(x, &view_runqueue);
	assert_true(screen_has(x, "ext policy \"simple\""));
	assert_true(screen_has(x, "local CPU 0"));
	assert_true(screen_has(x, "global node 0"));
	/* the two tasks not running wait in the policy's queues, named in the view */
	sched_cpu_info(x->e, 0, &ci);
	assert_true(screen_has(x, "alpha"));
	assert_true(screen_has(x, "beta"));
	assert_true(screen_has(x, "gamma"));
	assert_non_null(strstr(row(x, find_row(x, "ext policy")), sched_comm(x->e, ci.curr_pid, 0)));

	draw(x, &view_cpus);
	assert_true(screen_has(x, "ext simple:"));
	assert_true(screen_has(x, "CPU0"));
	fx_free(x);
}

/* ---- timeline ---- */

/* pid running on cpu at time t, from the log (the state after all events at or before t) */
static int running_at(struct fx *x, int cpu, u64 t)
{
	int pid = 0;
	u64 n = sched_nr_events(x->e);

	for (u64 s = 0; s < n; s++) {
		const struct sched_event *ev = history_event(x->h, s);

		if (ev->time > t)
			break;
		if (ev->type == EV_SCHED_SWITCH && ev->cpu == cpu)
			pid = ev->sw.next_pid;
	}
	return pid;
}

static void test_timeline_lane(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 20);
	int label_w = 7, cols = 120 - label_w;
	int checked = 0;

	x->ui.colors = 256;
	x->pane->tl_end_ns = 90 * NSEC_PER_MSEC;	/* a window in the past: 70ms .. 90ms */
	draw(x, &view_timeline);
	int y0 = find_row(x, "CPU0");

	assert_true(y0 >= 0);
	u64 t0 = 70 * NSEC_PER_MSEC, dt = 20 * NSEC_PER_MSEC / (u64)cols;

	for (int c = 1; c < cols - 1; c += 7) {
		u64 a = t0 + (u64)c * dt, b = a + dt - 1;
		int pa = running_at(x, 0, a), pb = running_at(x, 0, b);

		if (pa != pb || pa <= 0)
			continue;	/* a switch inside the cell: skip */
		const struct cell *cl = &x->cb.cell[(size_t)y0 * (size_t)x->cb.w + (size_t)(label_w + c)];

		assert_int_equal(cl->st.bg, ui_task_style(&x->ui, pa).fg);
		checked++;
	}
	assert_true(checked > 5);

	/* following: the time cursor is in the last column, the lane shows who runs now */
	x->pane->tl_end_ns = 0;
	x->ui.colors = 0;
	draw(x, &view_timeline);
	assert_true(screen_has(x, "\u25b2"));
	assert_true(screen_has(x, "following now"));
	fx_free(x);
}

static void test_timeline_keys(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 20);

	assert_true(view_timeline.key(x->pane, 'z'));
	assert_int_equal(x->pane->tl_span_ns, 10 * NSEC_PER_MSEC);
	assert_true(view_timeline.key(x->pane, 'x'));
	assert_int_equal(x->pane->tl_span_ns, 20 * NSEC_PER_MSEC);
	assert_true(view_timeline.key(x->pane, '<'));
	assert_int_equal(x->pane->tl_end_ns, 90 * NSEC_PER_MSEC);
	assert_true(view_timeline.key(x->pane, '>'));
	assert_int_equal(x->pane->tl_end_ns, 0);	/* back to following */
	assert_false(view_timeline.key(x->pane, 'q'));
	fx_free(x);
}

/* m and M put markers A and B at the current time: the header gives both and B - A, the axis their columns. */
static void test_timeline_marks(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 20);
	u64 dt = 20 * NSEC_PER_MSEC / (120 - 7); /* the span over the columns after the labels */

	assert_true(view_timeline.key(x->pane, 'm'));
	assert_int_equal(x->pane->tl_mark[0], 100 * NSEC_PER_MSEC);
	history_run_until(x->h, 110 * NSEC_PER_MSEC);
	assert_true(view_timeline.key(x->pane, 'M'));
	assert_int_equal(x->pane->tl_mark[1], sched_now(x->e));
	draw(x, &view_timeline);
	assert_true(screen_has(x, "A 0.100000s  B 0.110000s  B-A +10.000ms"));
	int ay = -1, ca = -1, cb = -1;

	for (int y = 0; y < x->cb.h && ay < 0; y++)
		if (!strncmp(row(x, y), "now", 3))
			ay = y; /* the axis: "now" labels it while the current time is in the window */
	assert_true(ay > 0);

	for (int c = 7; c < x->cb.w; c++) {
		if (x->cb.cell[ay * x->cb.w + c].ch == 'A')
			ca = c;
		if (x->cb.cell[ay * x->cb.w + c].ch == 'B')
			cb = c;
	}
	assert_true(ca > 0 && cb > ca);
	int want = (int)(10 * NSEC_PER_MSEC / dt);

	assert_true(cb - ca >= want - 1 && cb - ca <= want + 1);
	/* again at the same time: off */
	assert_true(view_timeline.key(x->pane, 'M'));
	assert_int_equal(x->pane->tl_mark[1], TL_NO_MARK);
	draw(x, &view_timeline);
	assert_true(screen_has(x, "A 0.100000s"));
	assert_false(screen_has(x, "B-A"));
	fx_free(x);
}

/* The selected task's wakeups: a ▶ in the wakeup row at the column of each switch-in that follows one. */
static void test_timeline_wakeups(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 20);
	struct sched_task_info ti;
	int cols = 120 - 7;
	u64 span = 20 * NSEC_PER_MSEC, now = sched_now(x->e);
	/* following now: the current time in the last column */
	u64 dt = span / (u64)cols, t1 = now + dt, t0 = t1 - span;
	bool want[128] = { false };
	int nr_want = 0;

	x->pane->sel_task = 2; /* sleeper: loop { run 1ms; sleep 2ms } alone on CPU 1 */
	sched_task_info(x->e, 2, &ti);
	bool woken = false;

	for (u64 i = 0; i < history_nr_logged(x->h); i++) {
		const struct sched_event *ev = history_event(x->h, i);

		if (ev->type == EV_SCHED_WAKEUP && ev->wake.pid == ti.pid)
			woken = true;
		if (ev->type == EV_SCHED_SWITCH && ev->sw.next_pid == ti.pid) {
			if (woken && ev->time >= t0 && ev->time < t0 + dt * (u64)cols &&
			    !want[(ev->time - t0) / dt]) {
				want[(ev->time - t0) / dt] = true;
				nr_want++;
			}
			woken = false;
		}
	}
	assert_true(nr_want >= 5);
	draw(x, &view_timeline);
	int yw = find_row(x, "wakeup");

	assert_true(yw > 0);
	for (int c = 0; c < cols; c++)
		assert_int_equal(x->cb.cell[yw * x->cb.w + 7 + c].ch == 0x25b6, want[c]);
	fx_free(x);
}

/*
 * l shows an LLC a row but the selected CPU's: each LLC row's cell is the
 * share of its CPUs running a task there, from the very cells the lanes
 * of its CPUs have when every lane is shown.
 */
static void test_timeline_llc(void **state)
{
	static const char llcs[] = "topology packages=2 cores=64 threads=2 llcs=8\n"
				   "duration 1s\n"
				   "task hog count=300 program=\"loop { run 3ms; sleep 1ms }\"\n";
	static const u32 level_ch[5] = { 0x00b7, 0x2591, 0x2592, 0x2593, 0x2588 };
	struct fx *x = fx_new(llcs, 50 * NSEC_PER_MSEC, 120, 300);
	const struct sched_topology *t = sched_scenario_of(x->e)->topo;
	int cols = 120 - 7, checked = 0;
	static bool busy[256][128], known[256][128], moved[256][128];

	x->ui.colors = 0;
	x->pane->sel_cpu = 0;
	draw(x, &view_timeline);
	for (int cpu = 0; cpu < 256; cpu++) {
		char label[16];
		int y;

		snprintf(label, sizeof(label), "CPU%-3d ", cpu);
		for (y = 1; y < x->cb.h && strncmp(row(x, y), label, strlen(label)); y++)
			;
		assert_true(y < x->cb.h);
		for (int c = 0; c < cols; c++) {
			u32 ch = x->cb.cell[y * x->cb.w + 7 + c].ch;

			known[cpu][c] = ch != ' ' && ch != 0;
			busy[cpu][c] = known[cpu][c] && ch != 0x00b7;
			moved[cpu][c] = ch == 0x00bb; /* » over the cell: idle or busy under it */
		}
	}
	cb_free(&x->cb);
	cb_init(&x->cb, 120, 40);
	assert_true(view_timeline.key(x->pane, 'l'));
	draw(x, &view_timeline);
	/* CPU 0's LLC (0) in lanes, the other fifteen a row each */
	assert_true(screen_has(x, "CPU0 "));
	assert_false(screen_has(x, "LLC0 "));
	int llc_rows = 0;

	for (int y = 1; y < x->cb.h; y++) {
		int id;

		if (sscanf(row(x, y), "LLC%d", &id) != 1)
			continue;
		llc_rows++;
		for (int c = 0; c < cols; c++) {
			int n = 0, b = 0, k = 0, m = 0;

			for (int cpu = 0; cpu < 256; cpu++) {
				if (t->cpu[cpu].llc != id)
					continue;
				n++;
				k += known[cpu][c];
				b += busy[cpu][c];
				m += moved[cpu][c];
			}
			if (!k || m)
				continue;
			int lvl = !b ? 0 : MIN(1 + b * 4 / (n + 1), 4);

			assert_int_equal(x->cb.cell[y * x->cb.w + 7 + c].ch, level_ch[lvl]);
			checked++;
		}
	}
	assert_int_equal(llc_rows, 15);
	assert_true(checked > 1000);
	assert_true(view_timeline.key(x->pane, 'l'));
	draw(x, &view_timeline);
	assert_false(screen_has(x, "LLC1 "));
	fx_free(x);
}

/* ---- events ---- */

static double line_time(const char *r)
{
	return atof(r + 1);
}

static void test_events_order_and_filter(void **state)
{
	struct fx *x = fx_new(two_cpus, 50 * NSEC_PER_MSEC, 120, 30);
	u64 n = sched_nr_events(x->e);
	const struct sched_event *last = history_event(x->h, n - 1);
	char want[64];

	draw(x, &view_events);
	/* in order, the newest at the bottom */
	double prev = -1;
	int lines = 0, y_last = -1;

	for (int y = 1; y < x->cb.h - 1; y++) {
		const char *r = row(x, y);

		if (!strchr(r, '['))
			continue;
		assert_true(line_time(r) >= prev);
		prev = line_time(r);
		lines++;
		y_last = y;
	}
	assert_int_equal(lines, x->cb.h - 2);
	snprintf(want, sizeof(want), "%s", sched_event_names[last->type]);
	assert_non_null(strstr(row(x, y_last), want));
	assert_true(line_time(row(x, y_last)) * 1e9 > (double)last->time - 1000.0);

	/* filtered by event name */
	snprintf(x->pane->ev_filter, sizeof(x->pane->ev_filter), "sched_wakeup");
	draw(x, &view_events);
	for (int y = 1; y < x->cb.h - 1; y++) {
		const char *r = row(x, y);

		if (strchr(r, '['))
			assert_non_null(strstr(r, "sched_wakeup "));
	}
	/* filtered by a task glob */
	snprintf(x->pane->ev_filter, sizeof(x->pane->ev_filter), "sleep*");
	draw(x, &view_events);
	lines = 0;
	for (int y = 1; y < x->cb.h - 1; y++) {
		const char *r = row(x, y);

		/* at 120 columns a switch line's next_comm is cut: "sleepe…" */
		if (strchr(r, '[')) {
			assert_non_null(strstr(r, "comm=sleep"));
			lines++;
		}
	}
	assert_true(lines > 0);
	/* several words: event names (any tail after an underscore) and task globs */
	snprintf(x->pane->ev_filter, sizeof(x->pane->ev_filter), "switch stat_runtime sleep*");
	draw(x, &view_events);
	lines = 0;
	for (int y = 1; y < x->cb.h - 1; y++) {
		const char *r = row(x, y);

		if (!strchr(r, '['))
			continue;
		assert_true(strstr(r, "sched_switch ") || strstr(r, "sched_stat_runtime "));
		assert_non_null(strstr(r, "comm=sleep"));
		lines++;
	}
	assert_true(lines > 0);
	assert_true(screen_has(x, "(events of tasks)"));

	/* selecting: up selects the newest matching, then moves back */
	x->pane->ev_filter[0] = '\0';
	assert_true(view_events.key(x->pane, KEY_UP));
	assert_int_equal(x->pane->sel_event, n - 1);
	assert_true(view_events.key(x->pane, KEY_UP));
	assert_int_equal(x->pane->sel_event, n - 2);
	draw(x, &view_events);
	assert_true(screen_has(x, "selected"));
	int ys = find_row(x, ">");

	assert_true(ys > 0);
	fx_free(x);
}

/* A view's search in one go from the selection (dir 1 down, -1 up): true if it selected a line. */
static bool find_once(const struct view *v, struct pane *pn, int dir)
{
	struct search_scan sc = { .dir = dir, .budget = UINT64_MAX };

	return v->find(pn, &sc) == SEARCH_HIT;
}

/* The row of the selected line (it starts with '>'). */
static int selected_row(struct fx *x)
{
	for (int y = 0; y < x->cb.h; y++)
		if (row(x, y)[0] == '>')
			return y;
	fail_msg("no line is selected");
	return -1;
}

/* Search: n and N walk the lines that hold the text, the match is marked;
 * h and l hide fields, never part of one. */
static void test_events_search_and_sideways(void **state)
{
	struct fx *x = fx_new(two_cpus, 50 * NSEC_PER_MSEC, 160, 30);
	struct pane *pn = x->pane;
	u64 seen[3];

	draw(x, &view_events);
	snprintf(pn->search, sizeof(pn->search), "next_comm=sleeper");
	/* following the newest: up finds the newest match */
	for (int i = 0; i < 3; i++) {
		assert_true(find_once(&view_events, pn, -1));
		seen[i] = pn->sel_event;
		const struct sched_event *ev = history_event(x->h, seen[i]);

		assert_int_equal(ev->type, EV_SCHED_SWITCH);
		assert_string_equal(sched_comm(x->e, ev->sw.next_pid, ev->cpu), "sleeper");
		assert_true(i == 0 || seen[i] < seen[i - 1]);
	}
	/* no switch to the sleeper between two matches, nor after the newest */
	assert_false(find_once(&view_events, pn, 1) && find_once(&view_events, pn, 1) &&
		     find_once(&view_events, pn, 1));
	pn->sel_event = seen[2];
	for (u64 s = seen[1] + 1; s < sched_nr_events(x->e); s++) {
		if (s == seen[0])
			continue;
		const struct sched_event *ev = history_event(x->h, s);

		assert_false(ev->type == EV_SCHED_SWITCH &&
			     !strcmp(sched_comm(x->e, ev->sw.next_pid, ev->cpu), "sleeper"));
	}
	assert_true(find_once(&view_events, pn, 1));
	assert_int_equal(pn->sel_event, seen[1]);
	draw(x, &view_events);
	int y = selected_row(x);
	const char *r = row(x, y), *m = strstr(r, "next_comm=sleeper");

	assert_non_null(m);
	int col = (int)(m - r);
	assert_int_equal(x->cb.cell[y * x->cb.w + col].st.bg, C_YELLOW);
	assert_int_not_equal(x->cb.cell[y * x->cb.w + col - 1].st.bg, C_YELLOW);

	/* sideways: the first fields go, the time, CPU and event stay */
	assert_true(strstr(r, "prev_comm="));
	assert_true(view_events.key(pn, 'l'));
	assert_true(view_events.key(pn, 'l'));
	draw(x, &view_events);
	r = row(x, selected_row(x));
	assert_null(strstr(r, "prev_comm="));
	assert_null(strstr(r, "prev_pid="));
	assert_non_null(strstr(r, "sched_switch        \u00ab prev_prio="));
	assert_true(screen_has(x, "2 fields hidden (h)"));
	for (int i = 0; i < 40; i++)
		view_events.key(pn, 'h');
	assert_int_equal(pn->ev_hscroll, 0);
	fx_free(x);
}

/* ---- the mouse ---- */

static struct input_key mouse_at(int x, int y, int button)
{
	return (struct input_key){ .mouse = true, .button = button, .x = x, .y = y };
}

/* ---- the timeline at wide spans: whole names or none, a legend, the selected span ---- */

static const char names[] = "topology packages=1 cores=2 threads=1\n"
			    "hz 1000\n"
			    "seed 1\n"
			    "duration 3s\n"
			    "sched eevdf\n"
			    "task a_task_with_a_long_name cpus=0 program=\"run forever\"\n"
			    "task b cpus=0 program=\"run forever\"\n"
			    "task sleepy_worker cpus=1 program=\"loop { run 1ms; sleep 2ms }\"\n"
			    "task c cpus=1 program=\"loop { run 300us; sleep 5ms }\"\n";

static bool is_task_name(struct fx *x, const char *s, size_t n)
{
	for (int i = 0; i < x->f.sc.nr_tasks; i++)
		if (strlen(x->f.sc.task[i].name) == n && !strncmp(x->f.sc.task[i].name, s, n))
			return true;
	return false;
}

/*
 * Lane y's text from the label on, cut where the cells' background changes
 * (a block's colour) and at blanks and marks: every piece is a whole task
 * name. Returns the pieces found.
 */
static int lane_names(struct fx *x, int y, int label_w)
{
	const struct cell *cl = &x->cb.cell[(size_t)y * (size_t)x->cb.w];
	char tok[64];
	int n = 0, pieces = 0;

	for (int c = label_w; c <= x->cb.w; c++) {
		u32 ch = c < x->cb.w ? cl[c].ch : ' ';
		bool letter = ch < 0x80 && ch != ' ' && ch != '=' && ch != '|';

		assert_true(ch != '~');
		if (n && (!letter || cl[c].st.bg != cl[c - 1].st.bg)) {
			tok[n] = 0;
			if (!is_task_name(x, tok, (size_t)n))
				fail_msg("row %d: '%s' is not a whole task name", y, tok);
			pieces++;
			n = 0;
		}
		if (letter && n < (int)sizeof(tok) - 1)
			tok[n++] = (char)ch;
	}
	return pieces;
}

/* The switch on cpu after seq (its time), or 0 when none is logged. */
static u64 next_switch(struct fx *x, u64 seq, int cpu)
{
	for (u64 s = seq + 1; s < history_nr_logged(x->h); s++) {
		const struct sched_event *ev = history_event(x->h, s);

		if (ev->type == EV_SCHED_SWITCH && ev->cpu == cpu)
			return ev->time;
	}
	return 0;
}

/* The last switch to pid on cpu in [from, to) whose span ends before `to`, or ~0. */
static u64 span_in(struct fx *x, int cpu, int pid, u64 from, u64 to)
{
	u64 found = ~0ULL;

	for (u64 s = 0; s < history_nr_logged(x->h); s++) {
		const struct sched_event *ev = history_event(x->h, s);

		if (ev->time >= to)
			break;
		if (ev->time >= from && ev->type == EV_SCHED_SWITCH && ev->cpu == cpu &&
		    ev->sw.next_pid == pid && next_switch(x, s, cpu) < to && next_switch(x, s, cpu))
			found = s;
	}
	return found;
}

/* The info line the timeline should print for the span begun by switch seq, ending at end (0: running). */
static void span_text(struct fx *x, u64 seq, u64 end, char *out, size_t n)
{
	const struct sched_event *ev = history_event(x->h, seq);
	char d[32], e[32];

	if (end)
		snprintf(e, sizeof(e), "%" PRIu64 ".%06" PRIu64 "s", (u64)(end / NSEC_PER_SEC),
			 (u64)(end % NSEC_PER_SEC / NSEC_PER_USEC));
	snprintf(out, n, "CPU%d %s (pid %d)  %" PRIu64 ".%06" PRIu64 "s .. %s  %s%s", ev->cpu,
		 sched_comm(x->e, ev->sw.next_pid, ev->cpu), ev->sw.next_pid, (u64)(ev->time / NSEC_PER_SEC),
		 (u64)(ev->time % NSEC_PER_SEC / NSEC_PER_USEC), end ? e : "now",
		 fmt_dur(d, sizeof(d), (s64)((end ? end : sched_now(x->e)) - ev->time), false),
		 end ? "" : " so far, running");
}

static void test_timeline_wide_spans(void **state)
{
	const u64 spans[] = { 100 * NSEC_PER_MSEC, NSEC_PER_SEC };
	struct fx *x = fx_new(names, 2500 * NSEC_PER_MSEC, 120, 20);
	int label_w = 7, cols = 120 - label_w;
	char want[256];

	x->pane->sel_task = -1;
	for (size_t i = 0; i < ARRAY_SIZE(spans); i++) {
		for (int colors = 0; colors <= 256; colors += 256) {
			int pieces = 0;

			x->ui.colors = colors;
			x->pane->tl_span_ns = spans[i];
			x->pane->tl_end_ns = 2400 * NSEC_PER_MSEC;
			draw(x, &view_timeline);
			pieces += lane_names(x, find_row(x, "CPU0"), label_w);
			pieces += lane_names(x, find_row(x, "CPU1"), label_w);
			assert_true(pieces > 0);
			/* the long name never fits its blocks: the legend names it */
			assert_false(strstr(row(x, find_row(x, "CPU0")), "a_task_with"));
			assert_true(screen_has(x, "a_task_with_a_long_name  "));
		}
	}

	/* a span in the window: its task, times and duration, and its cells in reverse video */
	x->ui.colors = 256;
	x->pane->tl_span_ns = 100 * NSEC_PER_MSEC;
	x->pane->tl_end_ns = 2400 * NSEC_PER_MSEC;
	u64 t0 = 2300 * NSEC_PER_MSEC, dt = 100 * NSEC_PER_MSEC / (u64)cols;
	u64 s = span_in(x, 0, 1, t0, t0 + 100 * NSEC_PER_MSEC);

	assert_true(s != ~0ULL);
	x->pane->sel_event = s;
	draw(x, &view_timeline);
	u64 end = next_switch(x, s, 0), mid = (history_event(x->h, s)->time + end) / 2;

	span_text(x, s, end, want, sizeof(want));
	assert_true(screen_has(x, want));
	assert_true(x->cb.cell[(size_t)find_row(x, "CPU0") * (size_t)x->cb.w + (size_t)label_w +
			       (size_t)((mid - t0) / dt)]
			    .st.attr &
		    A_REVERSE_);

	/* one before the window: the same line, found by looking ahead */
	s = span_in(x, 1, 3, 1000 * NSEC_PER_MSEC, 1100 * NSEC_PER_MSEC);
	assert_true(s != ~0ULL);
	x->pane->sel_event = s;
	draw(x, &view_timeline);
	span_text(x, s, next_switch(x, s, 1), want, sizeof(want));
	assert_true(screen_has(x, want));

	/* the one running now, following */
	x->pane->tl_end_ns = 0;
	for (s = history_nr_logged(x->h); s-- > 0;)
		if (history_event(x->h, s)->type == EV_SCHED_SWITCH && history_event(x->h, s)->cpu == 0)
			break;
	x->pane->sel_event = s;
	draw(x, &view_timeline);
	span_text(x, s, 0, want, sizeof(want));
	assert_true(screen_has(x, want));
	fx_free(x);
}

/* What a frame says is where, and what a click there selects. */
static void test_clicks(void **state)
{
	struct fx *x = fx_new(two_cpus, 50 * NSEC_PER_MSEC, 120, 30);
	struct pane *pn = x->pane;
	struct input_key k;
	int cpus = 0, tasks = 0, events = 0;

	pn->main_view = &view_timeline;
	pn->side_view = NULL;
	ui_draw_frame(&x->ui, &x->cb);
	for (size_t i = 0; i < x->ui.nr_hits; i++) {
		const struct ui_hit *h = &x->ui.hits[i];
		const char *r = row(x, h->r.y);

		assert_ptr_equal(h->pane, pn);
		if (h->kind == HIT_CPU) {
			char lane[16];

			snprintf(lane, sizeof(lane), "CPU%-3d", (int)h->v);
			assert_int_equal(strncmp(r, lane, strlen(lane)), 0);
			cpus++;
		} else if (h->kind == HIT_SPAN) {
			/* a span's hit is the switch that began it, on its lane's CPU */
			const struct sched_event *ev = history_event(x->h, (u64)h->v);
			char lane[16];

			assert_int_equal(ev->type, EV_SCHED_SWITCH);
			snprintf(lane, sizeof(lane), "CPU%-3d", ev->cpu);
			assert_int_equal(strncmp(r, lane, strlen(lane)), 0);
			tasks++;
		}
	}
	assert_int_equal(cpus, 2);
	assert_true(tasks > 3);
	/* a click on a span selects it, its CPU and its task; on the label the CPU */
	for (size_t i = 0; i < x->ui.nr_hits; i++) {
		const struct ui_hit *h = &x->ui.hits[i];
		const struct sched_event *ev = history_event(x->h, (u64)h->v);

		if (h->kind != HIT_SPAN || ev->cpu != 1)
			continue;
		k = mouse_at(h->r.x, h->r.y, 1);
		assert_true(ui_mouse(&x->ui, &k, x->cb.h));
		assert_int_equal(pn->sel_event, (u64)h->v);
		assert_int_equal(pn->sel_task, sched_task_by_pid(x->e, ev->sw.next_pid));
		assert_int_equal(pn->sel_cpu, 1);
		break;
	}
	k = mouse_at(1, find_row(x, "CPU0"), 1);
	assert_true(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->sel_cpu, 0);
	/* the wheel scrolls the timeline back, then forward to following */
	k = mouse_at(30, 5, 4);
	assert_true(ui_mouse(&x->ui, &k, x->cb.h));
	assert_true(pn->tl_end_ns > 0);
	k.button = 5;
	assert_true(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->tl_end_ns, 0);

	/* the events view: each line's hit is its event */
	pn->main_view = &view_events;
	ui_draw_frame(&x->ui, &x->cb);
	for (size_t i = 0; i < x->ui.nr_hits; i++) {
		const struct ui_hit *h = &x->ui.hits[i];
		const struct sched_event *ev = history_event(x->h, (u64)h->v);
		char cpu[16];

		assert_int_equal(h->kind, HIT_EVENT);
		snprintf(cpu, sizeof(cpu), "[%03d]", ev->cpu);
		assert_non_null(strstr(row(x, h->r.y), cpu));
		assert_non_null(strstr(row(x, h->r.y), sched_event_names[ev->type]));
		events++;
	}
	assert_int_equal(events, x->cb.h - 3 - 2);
	k = mouse_at(40, x->ui.hits[3].r.y, 1);
	assert_true(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->sel_event, (u64)x->ui.hits[3].v);
	/* the wheel moves the selection three lines a notch */
	k.button = 4;
	assert_true(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->sel_event, (u64)x->ui.hits[0].v);
	/* nothing there: no selection changes */
	k = mouse_at(40, x->cb.h - 2, 1);
	assert_false(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->sel_event, (u64)x->ui.hits[0].v);
	fx_free(x);
}

/* ---- task ---- */

static void test_task_numbers(void **state)
{
	struct fx *x = fx_new(two_cpus, 200 * NSEC_PER_MSEC, 120, 40);
	struct sched_task_info ti;
	char want[128];

	x->pane->sel_task = 2;	/* sleeper: it has wakeups */
	sched_task_info(x->e, 2, &ti);
	draw(x, &view_task);
	assert_true(screen_has(x, "sleeper"));
	snprintf(want, sizeof(want), "sum_exec_runtime %" PRIu64 " ns", ti.sum_exec_runtime);
	assert_true(screen_has(x, want));
	snprintf(want, sizeof(want), "run_delay %" PRIu64 " ns", ti.run_delay);
	assert_true(screen_has(x, want));
	snprintf(want, sizeof(want), "pcount %" PRIu64, ti.pcount);
	assert_true(screen_has(x, want));
	snprintf(want, sizeof(want), "nr_wakeups %" PRIu64 "   nr_migrations %" PRIu64, ti.nr_wakeups,
		 ti.nr_migrations);
	assert_true(screen_has(x, want));
	snprintf(want, sizeof(want), "nvcsw %" PRIu64 "   nivcsw %" PRIu64, ti.nvcsw, ti.nivcsw);
	assert_true(screen_has(x, want));
	snprintf(want, sizeof(want), "vruntime %" PRIu64 " ns", ti.vruntime);
	assert_true(screen_has(x, want));
	snprintf(want, sizeof(want), "slice %" PRIu64 " ns", ti.slice);
	assert_true(screen_has(x, want));
	snprintf(want, sizeof(want), "util_avg %" PRIu64, ti.avg.util_avg);
	assert_true(screen_has(x, want));
	assert_true(ti.nr_wakeups > 10);
	assert_true(screen_has(x, "wakeup latency"));
	assert_true(screen_has(x, "p50"));
	assert_true(screen_has(x, "p99"));
	assert_true(screen_has(x, "max"));

	/* its switches as perf sched timehist: the last row is its last switch-out */
	const struct sched_event *out = NULL;

	for (u64 i = 0; i < history_nr_logged(x->h); i++) {
		const struct sched_event *ev = history_event(x->h, i);

		if (ev->type == EV_SCHED_SWITCH && ev->sw.prev_pid == ti.pid)
			out = ev;
	}
	assert_non_null(out);
	assert_true(screen_has(x, "switches (perf sched timehist, ms): "));
	assert_true(screen_has(x, "time  cpu  wait time  sch delay   run time state"));
	snprintf(want, sizeof(want), "%" PRIu64 ".%06" PRIu64 "  [%d]", (u64)(out->time / NSEC_PER_SEC),
		 (u64)(out->time % NSEC_PER_SEC / NSEC_PER_USEC), out->cpu);
	int yr = find_row(x, want), yh = find_row(x, "wakeup latency");
	assert_true(yr > 0 && yr < yh);
	assert_true(strstr(row(x, yr), "S") != NULL);

	/* k scrolls the switches back: the last row shown is then the fourth newest */
	u64 outs[512], nr_out = 0;

	for (u64 i = 0; i < history_nr_logged(x->h) && nr_out < 512; i++) {
		const struct sched_event *ev = history_event(x->h, i);

		if (ev->type == EV_SCHED_SWITCH && ev->sw.prev_pid == ti.pid)
			outs[nr_out++] = ev->time;
	}
	assert_true(nr_out > 20 && nr_out <= 256);
	for (int i = 0; i < 3; i++)
		assert_true(view_task.key(x->pane, 'k'));
	draw(x, &view_task);
	assert_true(screen_has(x, "... 3 newer below (j, PgDn, End)"));
	int yb = find_row(x, "newer below");
	u64 t4 = outs[nr_out - 4];

	snprintf(want, sizeof(want), "%" PRIu64 ".%06" PRIu64 "  [", (u64)(t4 / NSEC_PER_SEC),
		 (u64)(t4 % NSEC_PER_SEC / NSEC_PER_USEC));
	assert_non_null(strstr(row(x, yb - 1), want));
	/* Home: the oldest kept first; End: back to the newest */
	assert_true(view_task.key(x->pane, KEY_HOME));
	draw(x, &view_task);
	int yt = find_row(x, "time  cpu  wait time");

	snprintf(want, sizeof(want), "%" PRIu64 ".%06" PRIu64 "  [", (u64)(outs[0] / NSEC_PER_SEC),
		 (u64)(outs[0] % NSEC_PER_SEC / NSEC_PER_USEC));
	assert_non_null(strstr(row(x, yt + 1), want));
	assert_true(view_task.key(x->pane, KEY_END));
	assert_int_equal(x->pane->task_sw_back, 0);
	draw(x, &view_task);
	assert_false(screen_has(x, "newer below"));
	assert_false(view_task.key(x->pane, 'q'));

	/* another task, then back: the histogram follows the selection */
	x->pane->sel_task = 0;
	draw(x, &view_task);
	assert_true(screen_has(x, "alpha"));
	fx_free(x);
}

/* A sleeping task is not queued: its lag is the one kept for placement. */
static void test_task_saved_lag(void **state)
{
	struct fx *x = fx_new(two_cpus, 200 * NSEC_PER_MSEC, 120, 40);
	struct sched_task_info ti;
	char want[128];
	u64 t = 200 * NSEC_PER_MSEC;

	x->pane->sel_task = 2; /* sleeper */
	for (sched_task_info(x->e, 2, &ti); ti.on_rq && t < 300 * NSEC_PER_MSEC;
	     sched_task_info(x->e, 2, &ti))
		history_run_until(x->h, t += 100 * NSEC_PER_USEC);
	assert_false(ti.on_rq);
	draw(x, &view_task);
	snprintf(want, sizeof(want), "saved lag (not queued) %" PRId64 " ns", ti.vlag);
	assert_true(screen_has(x, want));
	assert_true(screen_has(x, "eligible: not queued"));
	assert_false(screen_has(x, "eligible: no "));

	/* a queued one has a lag and an eligibility */
	x->pane->sel_task = 1; /* beta */
	sched_task_info(x->e, 1, &ti);
	assert_true(ti.on_rq);
	draw(x, &view_task);
	snprintf(want, sizeof(want), "  lag %" PRId64 " ns", ti.vlag);
	assert_true(screen_has(x, want));
	assert_false(screen_has(x, "saved lag"));
	assert_true(screen_has(x, ti.eligible ? "eligible: yes " : "eligible: no "));
	fx_free(x);
}

/* ---- every view, small and big ---- */

static void all_views(struct fx *x)
{
	const struct view *v[] = { &view_cpus, &view_runqueue, &view_timeline, &view_events, &view_task };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		for (int colors = 0; colors <= 256; colors += 256) {
			x->ui.colors = colors;
			draw(x, v[i]);
			assert_true(screen_has(x, ""));
		}
	}
}

static void test_small_screen(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 80, 24);

	all_views(x);
	x->pane->sel_cpu = -1;
	x->pane->sel_task = -1;
	all_views(x);
	fx_free(x);

	/* tiny areas must not crash either */
	x = fx_new(two_cpus, 10 * NSEC_PER_MSEC, 10, 3);
	all_views(x);
	fx_free(x);
}

/* ---- migrations ---- */

static const char herds[] =
	"topology packages=1 cores=8 threads=1\n"
	"noise off\n"
	"hz 250\n"
	"kernel 6.12\n"
	"tunable herd_threshold=3\n"
	"duration 1s\n"
	"task p1 cpus=1 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task p2 cpus=2 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task p3 cpus=3 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task p4 cpus=4 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task p5 cpus=5 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task p6 cpus=6 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task p7 cpus=7 program=\"loop { run 5ms; sleep 5ms }\"\n"
	"task disp cpus=0 program=\"sleep 2ms; loop { run 100us; wake w.*; sleep 9900us }\"\n"
	"task w count=7 at=6ms program=\"loop { wait; run 1ms }\"\n";

/* The index against a walk of the log: every migration and herd, each migration's first herd. */
static void check_mig_index(struct fx *x)
{
	const struct mig_index *mi = &x->ui.run.migs;
	u64 n = history_nr_logged(x->h);
	size_t k = 0, nr_herds = 0, nr_in_herd = 0;

	for (u64 s = 0; s < n; s++) {
		const struct sched_event *ev = history_event(x->h, s);
		u64 herd = ev->type == EV_HERD ? s : MIG_NO_HERD;

		if (ev->type != EV_SCHED_MIGRATE_TASK && ev->type != EV_HERD)
			continue;
		for (u64 t = s + 1; ev->type == EV_SCHED_MIGRATE_TASK && t < n && herd == MIG_NO_HERD; t++) {
			const struct sched_event *h = history_event(x->h, t);

			if (h->type == EV_HERD && h->herd.first_seq <= s)
				herd = t;
		}
		assert_true(k < mi->nr);
		assert_int_equal(mi->e[k].seq, s);
		assert_int_equal(mi->e[k].herd, herd);
		assert_int_equal(mig_index_before(mi, s), k);
		assert_int_equal(mig_index_before(mi, s + 1), k + 1);
		nr_herds += ev->type == EV_HERD;
		nr_in_herd += ev->type == EV_SCHED_MIGRATE_TASK && herd != MIG_NO_HERD;
		k++;
	}
	assert_int_equal(mi->nr, k);
	assert_true(nr_herds >= 2);
	assert_true(nr_in_herd > nr_herds);
}

static void test_migrations_index(void **state)
{
	struct fx *x = fx_new(herds, 700 * NSEC_PER_MSEC, 120, 40);

	check_mig_index(x);
	/* a new branch inside a herd (its migrations before, its record after): herds of two come */
	assert_int_equal(ui_command(&x->ui, "goto 552500us"), 0);
	assert_int_equal(ui_command(&x->ui, "set tunable herd_threshold=2"), 0);
	history_run_until(x->h, 900 * NSEC_PER_MSEC);
	check_mig_index(x);

	/* the view lists the newest lines, H on those a herd took in */
	const struct mig_index *mi = &x->ui.run.migs;
	const struct mig_entry *me;

	draw(x, &view_migrations);
	for (me = &mi->e[mi->nr - 1]; history_event(x->h, me->seq)->type != EV_SCHED_MIGRATE_TASK; me--)
		;
	char want[64];
	const struct sched_event *ev = history_event(x->h, me->seq);

	snprintf(want, sizeof(want), "%c %-15s CPU %3d -> %-3d",
		 me->herd < history_nr_logged(x->h) ? 'H' : ' ', sched_comm(x->e, ev->migrate.pid, ev->cpu),
		 ev->migrate.orig_cpu, ev->migrate.dest_cpu);
	assert_true(screen_has(x, want));
	fx_free(x);
}

static void test_256_cpus(void **state)
{
	struct fx *x = fx_new(big, 50 * NSEC_PER_MSEC, 80, 24);

	assert_int_equal(sched_nr_cpus(x->e), 256);
	x->pane->sel_cpu = 200;
	all_views(x);
	x->ui.colors = 0;
	draw(x, &view_cpus);
	assert_true(screen_has(x, "heat strip"));
	assert_true(screen_has(x, "pkg 1"));
	assert_true(screen_has(x, "@"));	/* the selected CPU in monochrome */
	assert_true(screen_has(x, "CPU200"));
	draw(x, &view_timeline);
	assert_true(screen_has(x, "CPU200"));
	fx_free(x);

	x = fx_new(big, 50 * NSEC_PER_MSEC, 200, 60);
	all_views(x);
	draw(x, &view_cpus);
	assert_true(screen_has(x, "heat strip"));
	fx_free(x);
}

/* ---- search a slice at a time (find.h) ---- */

/* Slices of `items` until the search is done, the run going on between them by
 * `run_ns`; each looks at no more than it is given. Returns the slices. */
static int slices(struct fx *x, u64 items, u64 run_ns)
{
	struct pane *pn = x->pane;
	u64 looked = pn->find.scan.looked;
	int n = 0;

	while (pn->find.on) {
		find_slice(&x->ui, items);
		assert_true(pn->find.scan.looked - looked <= items);
		looked = pn->find.scan.looked;
		n++;
		if (run_ns)
			history_run_until(x->h, sched_now(x->e) + run_ns);
	}
	return n;
}

/* A search that finds nothing looks at the whole log, a slice at a time,
 * and says so at the end; one that finds a line finds the one a search in
 * one go finds while the run goes on; Esc and another view end it. */
static void test_search_in_slices(void **state)
{
	struct fx *x = fx_new(two_cpus, 500 * NSEC_PER_MSEC, 160, 30);
	struct pane *pn = x->pane;
	u64 n = sched_nr_events(x->e), top, from, want;

	pn->main_view = &view_events;
	draw(x, &view_events);
	top = pn->ev_top;
	assert_true(n > 1000 && top > 0 && top < n);
	/* a new search: down from the top of the page, then up from the newest */
	assert_int_equal(ui_command(&x->ui, "search nosuchthing"), 0);
	assert_true(pn->find.on && find_pending(&x->ui));
	assert_true(slices(x, 10, 0) > 100);
	assert_int_equal(pn->find.scan.looked, (n - top) + n);
	assert_true(x->ui.message_is_error);
	assert_string_equal(x->ui.message, "search: no line holds 'nosuchthing'");
	assert_int_equal(pn->sel_event, ~0ULL);
	assert_false(find_pending(&x->ui));

	/* n from a match past the middle, an event a slice while the run goes on: the next found in one go */
	snprintf(pn->search, sizeof(pn->search), "next_comm=sleeper");
	pn->sel_event = n / 2;
	assert_true(find_once(&view_events, pn, 1));
	from = pn->sel_event;
	assert_true(find_once(&view_events, pn, 1));
	want = pn->sel_event;
	assert_true(want > from + 1);
	pn->sel_event = from;
	assert_int_equal(ui_command(&x->ui, "search-next"), 0);
	assert_int_equal(slices(x, 1, NSEC_PER_MSEC), want - from);
	assert_int_equal(pn->sel_event, want);
	assert_string_equal(x->ui.message, "/next_comm=sleeper");

	/* down looks only at what was logged when it began, however far the run goes */
	n = sched_nr_events(x->e);
	snprintf(pn->search, sizeof(pn->search), "nosuchthing");
	pn->sel_event = 0;
	assert_int_equal(ui_command(&x->ui, "search-next"), 0);
	slices(x, 1000, 5 * NSEC_PER_MSEC);
	assert_true(sched_nr_events(x->e) > n);
	assert_int_equal(pn->find.scan.looked, n - 1);
	assert_string_equal(x->ui.message, "/nosuchthing: no more matches below");

	/* Esc ends it where it got to; so does another view */
	pn->sel_event = n - 1;
	assert_int_equal(ui_command(&x->ui, "search-prev"), 0);
	find_slice(&x->ui, 10);
	assert_true(find_cancel(pn));
	assert_false(pn->find.on);
	assert_string_equal(x->ui.message, "/nosuchthing: search cancelled after 10 events");
	assert_false(find_cancel(pn));
	pn->sel_event = n - 1;
	assert_int_equal(ui_command(&x->ui, "search-prev"), 0);
	pn->main_view = &view_cpus;
	assert_false(find_slice(&x->ui, 10));
	assert_int_equal(pn->sel_event, n - 1);
	assert_non_null(strstr(x->ui.message, "the view changed"));
	fx_free(x);
}

/* The switch-in of the sleeper's next span in the log from seq on, in the
 * direction dir (the spans the timeline draws). */
static u64 sleeper_span(struct fx *x, u64 seq, int dir)
{
	for (u64 s = seq; s < sched_nr_events(x->e); s += (u64)dir) {
		const struct sched_event *ev = history_event(x->h, s);

		if (ev->type == EV_SCHED_SWITCH && ev->sw.next_pid == 3)
			return s;
		if (!s)
			break;
	}
	return ~0ULL;
}

/* In the timeline a search goes from span to span of the tasks it names
 * (by name or pid): it selects the task and its CPU, the window moves to
 * show the span, which is drawn in reverse video. */
static void test_timeline_search(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 20);
	struct pane *pn = x->pane;
	u64 span = pn->tl_span_ns, s, prev;

	pn->main_view = &view_timeline;
	pn->sel_task = pn->sel_cpu = 0;
	assert_int_equal(ui_command(&x->ui, "search sleeper"), 0);
	assert_int_equal(find_finish(&x->ui), 0);
	/* the first span in the window: from 80ms on */
	s = sleeper_span(x, history_seq_at_time(x->h, 100 * NSEC_PER_MSEC - span), 1);
	assert_int_equal(pn->sel_event, s);
	assert_int_equal(pn->sel_task, 2);
	assert_int_equal(pn->sel_cpu, 1);
	assert_int_equal(pn->tl_end_ns, 0); /* in the window: it stays */
	assert_string_equal(x->ui.message, "/sleeper  (n next, N previous)");
	/* n: the next one; N from there, back; a new search by pid: the same task's next */
	assert_int_equal(ui_command(&x->ui, "search-next"), 0);
	find_finish(&x->ui);
	assert_int_equal(pn->sel_event, sleeper_span(x, s + 1, 1));
	assert_int_equal(ui_command(&x->ui, "search-prev"), 0);
	find_finish(&x->ui);
	assert_int_equal(pn->sel_event, s);
	assert_int_equal(ui_command(&x->ui, "search 3"), 0);
	find_finish(&x->ui);
	assert_int_equal(pn->sel_event, sleeper_span(x, s + 1, 1));
	/* back out of the window: it moves there */
	for (int i = 0; i < 12; i++) {
		prev = pn->sel_event;
		assert_int_equal(ui_command(&x->ui, "search-prev"), 0);
		find_finish(&x->ui);
		assert_int_equal(pn->sel_event, sleeper_span(x, prev - 1, -1));
	}
	u64 t = history_event(x->h, pn->sel_event)->time;

	assert_true(pn->tl_end_ns > 0 && t < 100 * NSEC_PER_MSEC - span);
	assert_true(t >= pn->tl_end_ns - span && t < pn->tl_end_ns);
	draw(x, &view_timeline);
	int y = find_row(x, "CPU1"), c = (int)((t - (pn->tl_end_ns - span)) / (span / (120 - 7)));

	assert_true(y > 0);
	/* from the cell it starts in, or the next when the cell was mostly another's */
	assert_true((x->cb.cell[y * x->cb.w + 7 + c].st.attr | x->cb.cell[y * x->cb.w + 8 + c].st.attr) &
		    A_REVERSE_);
	assert_false(x->cb.cell[y * x->cb.w + 7 + c - 2].st.attr & A_REVERSE_);
	/* no span of a task that does not exist */
	assert_int_equal(ui_command(&x->ui, "search nobody"), 0);
	assert_int_equal(find_finish(&x->ui), -1);
	fx_free(x);
}

/* The task view searches its switches table: the row found is selected (>)
 * and scrolled into view. */
static void test_task_search(void **state)
{
	struct fx *x = fx_new(two_cpus, 300 * NSEC_PER_MSEC, 120, 50);
	struct pane *pn = x->pane;
	char t[32];

	pn->main_view = &view_task;
	pn->sel_task = 2; /* the sleeper: a switch every 3ms */
	draw(x, &view_task);
	/* the sleeper's switches as perf sched timehist gives them */
	struct timehist th;

	timehist_init(&th, 3, sched_nr_cpus(x->e));
	for (u64 s = 0; s < sched_nr_events(x->e); s++)
		timehist_feed(&th, history_event(x->h, s));
	assert_true(th.nr > 50 && th.nr < TIMEHIST_ROWS);
	const struct timehist_row *r = timehist_row(&th, th.nr - 40); /* far above the rows shown */

	snprintf(t, sizeof(t), "%llu.%06llu", (unsigned long long)(r->time / NSEC_PER_SEC),
		 (unsigned long long)(r->time % NSEC_PER_SEC / NSEC_PER_USEC));
	assert_int_equal(find_row(x, t), -1);
	assert_int_equal(ui_command(&x->ui, "search-next"), -1); /* no search yet */
	snprintf(pn->search, sizeof(pn->search), "%s", t);
	assert_int_equal(ui_command(&x->ui, "search-prev"), 0);
	assert_int_equal(find_finish(&x->ui), 0);
	assert_int_equal(pn->task_sw_sel, r->time);
	draw(x, &view_task);
	int y = find_row(x, t);

	assert_true(y > 0);
	assert_int_equal(row(x, y)[0], '>');
	assert_true(x->cb.cell[y * x->cb.w + 3].st.attr & A_REVERSE_);
	assert_false(x->cb.cell[(y - 1) * x->cb.w + 3].st.attr & A_REVERSE_);
	/* the time is its row's alone */
	assert_int_equal(ui_command(&x->ui, "search-next"), 0);
	find_finish(&x->ui);
	assert_non_null(strstr(x->ui.message, "no more matches below"));
	/* a field in many rows: n goes down them, newer each time */
	assert_int_equal(ui_command(&x->ui, "search [1]"), 0);
	find_finish(&x->ui);
	u64 a = pn->task_sw_sel;

	assert_true(a > r->time);

	assert_int_equal(ui_command(&x->ui, "search-next"), 0);
	find_finish(&x->ui);
	assert_true(pn->task_sw_sel > a);
	timehist_free(&th);
	fx_free(x);
}

/* A click on the timeline's axis puts marker A at that column's time, a right click B. */
static void test_axis_clicks(void **state)
{
	struct fx *x = fx_new(two_cpus, 100 * NSEC_PER_MSEC, 120, 30);
	struct pane *pn = x->pane;
	struct ui_hit axis = { .r.w = 0 };
	struct input_key k;

	pn->main_view = &view_timeline;
	pn->side_view = NULL;
	pn->tl_end_ns = 90 * NSEC_PER_MSEC;
	ui_draw_frame(&x->ui, &x->cb);
	for (size_t i = 0; i < x->ui.nr_hits; i++)
		if (x->ui.hits[i].kind == HIT_TIME)
			axis = x->ui.hits[i]; /* a copy: drawing again moves the hits */
	assert_true(axis.r.w > 0);
	u64 dt = pn->tl_span_ns / (u64)axis.r.w, t0 = 90 * NSEC_PER_MSEC - pn->tl_span_ns;

	assert_int_equal(axis.r.x, 7);
	assert_int_equal(axis.r.w, 120 - 7);
	assert_int_equal(axis.r.h, 2); /* the axis and its labels */
	assert_non_null(strstr(row(x, axis.r.y), "\u2500\u2500"));
	k = mouse_at(axis.r.x + 10, axis.r.y + 1, 1);
	assert_true(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->tl_mark[0], t0 + 10 * dt);
	assert_int_equal(pn->tl_mark[1], TL_NO_MARK);
	k = mouse_at(axis.r.x + 60, axis.r.y, 3);
	assert_true(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->tl_mark[1], t0 + 60 * dt);
	assert_non_null(strstr(x->ui.message, "marker B at "));
	assert_non_null(strstr(x->ui.message, "B-A +"));
	draw(x, &view_timeline);
	assert_true(screen_has(x, "B-A +"));
	/* a right click elsewhere does nothing */
	k = mouse_at(axis.r.x + 20, find_row(x, "CPU0"), 3);
	assert_false(ui_mouse(&x->ui, &k, x->cb.h));
	assert_int_equal(pn->tl_mark[1], t0 + 60 * dt);
	fx_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpus_rows),
		cmocka_unit_test(test_cpus_history),
		cmocka_unit_test(test_runqueue_eevdf),
		cmocka_unit_test(test_runqueue_cfs),
		cmocka_unit_test(test_runqueue_pick_is_engines),
		cmocka_unit_test(test_runqueue_ext),
		cmocka_unit_test(test_timeline_lane),
		cmocka_unit_test(test_timeline_keys),
		cmocka_unit_test(test_timeline_marks),
		cmocka_unit_test(test_timeline_wakeups),
		cmocka_unit_test(test_timeline_llc),
		cmocka_unit_test(test_timeline_wide_spans),
		cmocka_unit_test(test_events_order_and_filter),
		cmocka_unit_test(test_task_numbers),
		cmocka_unit_test(test_small_screen),
		cmocka_unit_test(test_task_saved_lag),
		cmocka_unit_test(test_256_cpus),
		cmocka_unit_test(test_events_search_and_sideways),
		cmocka_unit_test(test_clicks),
		cmocka_unit_test(test_migrations_index),
		cmocka_unit_test(test_search_in_slices),
		cmocka_unit_test(test_timeline_search),
		cmocka_unit_test(test_task_search),
		cmocka_unit_test(test_axis_clicks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
