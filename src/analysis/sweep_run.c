// SPDX-License-Identifier: GPL-2.0
/* One cell of a sweep (sweep_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/base/mem.h"
#include "src/format/topology_file.h"
#include "sweep_run.h"

#define MSG_LEN 1024

static void set_message(struct sweep_cell *c, int status, const char *msg)
{
	c->status = status;
	free(c->message);
	c->message = xstrdup(msg);
}

/* Is the cell's --topology one that loads? "" when it does, else why not. */
static void check_topology(const char *name, const char *scenario, char *why, size_t len)
{
	struct sched_topology t;
	char path[2048];

	why[0] = 0;
	if (!name || !strcmp(name, "host"))
		return;
	if (topology_resolve(name, scenario, path, sizeof(path), why, len) == 0 &&
	    topology_load(path, &t, why, len) == 0) {
		topology_free(&t);
		why[0] = 0;
	}
}

/* Load one side; 0, or the cell's status set with the reason. */
static int load_side(const struct sweep_plan *p, int index, bool side_b, struct scenario_file *f,
		     struct sweep_cell *c)
{
	const char *path;
	struct sweep_overrides o;
	struct sweep_coord co;
	char err[MSG_LEN], why[MSG_LEN];

	sweep_coord(p, index, &co);
	path = p->scen[co.scen].path;
	sweep_cell_overrides(p, index, side_b, &o);
	if (scenario_load_with(path, &o.ov, f, err, sizeof(err)) == 0)
		return 0;
	check_topology(o.ov.topology, path, why, sizeof(why));
	if (why[0]) {
		snprintf(err, sizeof(err), "--topology %s: %s", o.ov.topology, why);
		set_message(c, CELL_ERROR, err);
		return -1;
	}
	/* without the machine: a scenario that is fine on its own does not apply here */
	sweep_cell_overrides_no_machine(p, index, side_b, &o);
	if (scenario_load_with(path, &o.ov, f, why, sizeof(why)) == 0) {
		scenario_free(f);
		set_message(c, CELL_NA, err);
		return -1;
	}
	set_message(c, CELL_ERROR, why);
	return -1;
}

static int run_side(const struct sweep_plan *p, const struct scenario_file *f, struct sweep_side *s,
		    struct sweep_cell *c)
{
	struct run_stats rs;
	sched_event_fn fn;
	void *ctx;
	char err[MSG_LEN];
	u64 end = f->sc.duration;
	u64 from = p->has_window ? p->from : 0, to = p->has_window ? p->to : end;
	struct sched_engine *e = sched_engine_create(&f->sc, err, sizeof(err));

	if (!e) {
		char msg[MSG_LEN + 1100];
		snprintf(msg, sizeof(msg), "%s: %s", f->path, err);
		set_message(c, CELL_ERROR, msg);
		return -1;
	}
	run_stats_init(&rs, f, from, to, true);
	fn = run_stats_listener(&rs, &ctx);
	sched_add_listener(e, fn, ctx);
	sched_run_until(e, end);
	run_stats_finish(&rs, sched_now(e));
	sweep_side_from_run(s, f, &rs, true);
	run_stats_free(&rs);
	sched_engine_destroy(e);
	return 0;
}

void sweep_run_cell(const struct sweep_plan *p, int index, struct sweep_cell *c)
{
	struct scenario_file f;

	memset(c, 0, sizeof(*c));
	c->index = index;
	c->has_b = p->nr_vs > 0;
	for (int side = 0; side < 1 + c->has_b; side++) {
		if (load_side(p, index, side, &f, c) < 0)
			return;
		int r = run_side(p, &f, side ? &c->b : &c->a, c);
		scenario_free(&f);
		if (r < 0)
			return;
	}
	sweep_cell_settle(c);
}
