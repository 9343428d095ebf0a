// SPDX-License-Identifier: GPL-2.0
/*
 * The groups view: the task-group hierarchy as a tree with each group's
 * weight, cpu.max, the runtime left in its pool, how many of its queues are
 * throttled and its cpu.stat counters; then, on the selected CPU, each
 * group's entity there (the weight calc_group_shares() gave it, its h_load,
 * its queue's runtime and throttle state); then the selected group's entity
 * weight on every CPU, which is how its shares are split.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "search.h"
#include "src/base/mem.h"
#include "ui.h"

static int throttled_cpus(const struct pane *pn, int g)
{
	struct sched_group_cpu_info c;
	int n = 0;

	for (int cpu = 0; cpu < sched_nr_cpus(pn->run->e); cpu++) {
		sched_group_cpu_info(pn->run->e, g, cpu, &c);
		n += c.throttled;
	}
	return n;
}

static const char *leaf_name(char *buf, size_t n, const struct sched_group_info *gi)
{
	const char *leaf = gi->parent < 0 ? "/" : strrchr(gi->path, '/') + 1;

	snprintf(buf, n, "%*s%s", 2 * gi->depth, "", leaf);
	return buf;
}

static int draw_tree(struct pane *pn, struct cellbuf *cb, struct rect a, int y, int g)
{
	struct sched_group_info gi;
	char name[80], q[40], left[24], b1[24], b2[24];
	int bottom = a.y + a.h, nr = sched_nr_groups(pn->run->e);
	struct style st;

	if (y >= bottom)
		return y;
	sched_group_info(pn->run->e, g, &gi);
	st = g == pn->sel_group ? sty(COLOR_DEFAULT, COLOR_DEFAULT, A_REVERSE_) : STYLE_PLAIN;
	if (!g)
		snprintf(q, sizeof(q), "-");
	else if (gi.quota == RUNTIME_INF)
		snprintf(q, sizeof(q), "max %s", fmt_dur(b1, sizeof(b1), (s64)gi.period, false));
	else
		snprintf(q, sizeof(q), "%s/%s", fmt_dur(b1, sizeof(b1), (s64)gi.quota, false),
			 fmt_dur(b2, sizeof(b2), (s64)gi.period, false));
	if (g && gi.quota != RUNTIME_INF)
		fmt_dur(left, sizeof(left), (s64)gi.runtime, false);
	else
		snprintf(left, sizeof(left), "-");
	ui_hit(pn, (struct rect){ a.x, y, a.w, 1 }, HIT_GROUP, g);
	cb_print(cb, a.x, y, 22, g ? ui_group_style(pn->ui, g) : STYLE_PLAIN, "%s", leaf_name(name, sizeof(name), &gi));
	if (pn->search[0]) /* on the name drawn: marked before it, nothing matched */
		search_mark(cb, a.x, y, 22, pn->search);
	cb_print(cb, a.x + 22, y, a.w - 22, st, " %6" PRIu64 " %4s %-16s %9s %5d %8" PRIu64 " %9" PRIu64 " %11s %7ld",
		 gi.shares, gi.idle ? "idle" : "", q, left, g ? throttled_cpus(pn, g) : 0, gi.nr_periods,
		 gi.nr_throttled, fmt_dur(b2, sizeof(b2), (s64)gi.throttled_time, false), gi.load_avg);
	y++;
	for (int c = g + 1; c < nr; c++) {
		struct sched_group_info ci;

		sched_group_info(pn->run->e, c, &ci);
		if (ci.parent == g)
			y = draw_tree(pn, cb, a, y, c);
	}
	return y;
}

static void groups_draw(struct pane *pn, struct cellbuf *cb, struct rect a)
{
	struct style bold = sty(COLOR_DEFAULT, COLOR_DEFAULT, A_BOLD_);
	struct style dim = sty(C_BRIGHT_BLACK, COLOR_DEFAULT, 0);
	int nr = sched_nr_groups(pn->run->e), nr_cpus = sched_nr_cpus(pn->run->e);
	int cpu = pn->sel_cpu >= 0 && pn->sel_cpu < nr_cpus ? pn->sel_cpu : 0;
	int y = a.y, bottom = a.y + a.h;
	char b1[24], b2[24];

	if (a.w <= 0 || a.h <= 0)
		return;
	cb_print(cb, a.x, y++, a.w, bold, "Task groups \u00b7 %d groups \u00b7 selected %s (n/N/u to move, "
		 "the runqueue view shows its queue)", nr - 1,
		 pn->run->f->sc.nr_groups ? pn->run->f->sc.group[pn->sel_group < nr ? pn->sel_group : 0].path : "/");
	if (nr <= 1) {
		cb_print(cb, a.x, y, a.w, dim, "no task groups: every task is in the root group "
			 "(declare them with `group PATH ...` in the scenario)");
		return;
	}
	if (y < bottom)
		cb_print(cb, a.x, y++, a.w, bold, "%-22s %6s %4s %-16s %9s %5s %8s %9s %11s %7s", "group", "shares",
			 "", "cpu.max", "left", "thrtl", "periods", "throttled", "thrtl time", "load");
	y = draw_tree(pn, cb, a, y, 0);
	y++;

	/* each group's entity on the selected CPU */
	if (y < bottom)
		cb_print(cb, a.x, y++, a.w, bold, "on CPU %d: %-13s %8s %5s %6s %8s %8s %8s %9s %s", cpu, "group",
			 "weight", "state", "tasks", "load", "contrib", "h_load", "runtime", "");
	for (int g = 1; g < nr && y < bottom; g++, y++) {
		struct sched_group_info gi;
		struct sched_group_cpu_info c;
		const char *state;

		sched_group_info(pn->run->e, g, &gi);
		sched_group_cpu_info(pn->run->e, g, cpu, &c);
		state = c.curr ? "run" : c.on_rq ? "queued" : "-";
		ui_hit(pn, (struct rect){ a.x, y, a.w, 1 }, HIT_GROUP, g);
		cb_print(cb, a.x + 10, y, 14, ui_group_style(pn->ui, g), "%s", gi.path);
		cb_print(cb, a.x + 24, y, a.w - 24, STYLE_PLAIN, "%8" PRIu64 " %5s %6d %8" PRIu64 " %8" PRIu64
			 " %8" PRIu64 " %9s %s", c.weight >> 10, state, c.h_nr_running, c.load_avg,
			 c.tg_load_avg_contrib, c.h_load,
			 gi.quota == RUNTIME_INF ? "-" : fmt_dur(b1, sizeof(b1), c.runtime_remaining, false),
			 c.throttled ? "THROTTLED" : c.throttle_count ? "(parent throttled)" : "");
		if (c.nr_throttled_tasks)
			cb_print(cb, a.x + a.w - 16, y, 16, sty(C_RED, COLOR_DEFAULT, 0), "%3d tasks held", c.nr_throttled_tasks);
	}
	y++;

	/* how the selected group's shares are split over the CPUs */
	if (pn->sel_group > 0 && pn->sel_group < nr && y < bottom) {
		struct sched_group_info gi;
		int x = a.x;

		sched_group_info(pn->run->e, pn->sel_group, &gi);
		x += cb_print(cb, x, y, a.w, bold, "%s weight per CPU (Σ ~ shares %" PRIu64 "): ", gi.path, gi.shares);
		for (int c = 0; c < nr_cpus && x < a.x + a.w; c++) {
			struct sched_group_cpu_info ci;

			sched_group_cpu_info(pn->run->e, pn->sel_group, c, &ci);
			x += cb_print(cb, x, y, a.x + a.w - x, ci.on_rq ? STYLE_PLAIN : dim, "%d:%" PRIu64 " ", c,
				      ci.weight >> 10);
		}
		y++;
	}
	if (y < bottom)
		cb_print(cb, a.x, y, a.w, dim, "weight: the group entity's, from calc_group_shares(); load, contrib, "
			 "h_load: PELT; runtime: the queue's from cpu.max slices (%s)",
			 fmt_dur(b2, sizeof(b2), (s64)sched_tunable_value(pn->run->e, TUN_CFS_BANDWIDTH_SLICE), false));
}

/* The groups below g in the tree's order (as drawn) into out from n on; returns the new n. */
static int tree_order(const struct pane *pn, int g, int *out, int n)
{
	int nr = sched_nr_groups(pn->run->e);

	out[n++] = g;
	for (int c = g + 1; c < nr; c++) {
		struct sched_group_info ci;

		sched_group_info(pn->run->e, c, &ci);
		if (ci.parent == g)
			n = tree_order(pn, c, out, n);
	}
	return n;
}

/* The next (dir 1) or previous (-1) group in the tree whose path holds the search. */
static enum search_step groups_find(struct pane *pn, struct search_scan *sc)
{
	int dir = sc->dir;
	int nr = sched_nr_groups(pn->run->e), *order = xmalloc((size_t)nr * sizeof(*order));
	int n = tree_order(pn, 0, order, 0), at = dir > 0 ? -1 : n;
	bool found = false;

	for (int i = 0; i < n; i++)
		if (order[i] == pn->sel_group)
			at = i;
	for (int i = at + dir; i >= 0 && i < n && !found; i += dir) {
		struct sched_group_info gi;

		sched_group_info(pn->run->e, order[i], &gi);
		if (search_match(gi.path, pn->search)) {
			pn->sel_group = order[i];
			found = true;
		}
	}
	free(order);
	return found ? SEARCH_HIT : SEARCH_NONE;
}

const struct view view_groups = {
	.name = "groups",
	.title = "Groups",
	.draw = groups_draw,
	.key = NULL,
	.keys = "/ finds a group by its path; a click selects a group",
	.find = groups_find,
};
