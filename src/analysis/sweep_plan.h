/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep's matrix: scenarios times axes (topology, kernel, sched, each
 * --param NAME, each --set KEY, seed), every combination a cell. The cells
 * are numbered scenario by scenario, the last axis (seed) fastest, so the
 * seeds of one variant are neighbours; the numbering is the same on every
 * machine, which is what lets shards run apart and merge back.
 */
#ifndef SRC_ANALYSIS_SWEEP_PLAN_H
#define SRC_ANALYSIS_SWEEP_PLAN_H

#include "src/format/scenario_file.h"

#define SWEEP_MAX_AXES 16
#define SWEEP_MAX_VS 32
#define SWEEP_MAX_CELLS 1000000
/* An axis value meaning "as the scenario says": no override. */
#define SWEEP_OWN "own"

enum sweep_axis_kind {
	SWEEP_TOPOLOGY, /* --topology: the machine */
	SWEEP_KERNEL,	/* --kernel: --set kernel= */
	SWEEP_SCHED,	/* --sched: --set sched= */
	SWEEP_PARAM,	/* --param NAME: the scenario's `param` */
	SWEEP_SET,	/* --set KEY: a tunable, feature, hz, duration... */
	SWEEP_SEED,	/* --seeds A..B: --set seed= */
	NR_SWEEP_AXIS_KINDS
};

extern const char *const sweep_axis_kind_names[NR_SWEEP_AXIS_KINDS];

struct sweep_axis {
	int kind;
	char key[64]; /* PARAM: the name, SET: the key; else the kind's name */
};

/* One scenario and, per axis, the values its cells take. */
struct sweep_scenario {
	char *path;
	char *label; /* the file name without folder and .scn */
	int nr_values[SWEEP_MAX_AXES];
	char **value[SWEEP_MAX_AXES];
	char *own[SWEEP_MAX_AXES]; /* the scenario's own value (topology, kernel), or NULL */
	int first_cell, nr_cells;
};

struct sweep_plan {
	int nr_scenarios;
	size_t cap_scenarios;
	struct sweep_scenario *scen;
	int nr_axes;
	struct sweep_axis axis[SWEEP_MAX_AXES]; /* the seed axis, if any, last */
	int nr_vs;
	char *vs_set[SWEEP_MAX_VS]; /* --vs-set KEY=VALUE: each cell's B side */
	bool has_window;
	u64 from, to; /* --window */
	int nr_cells;
};

/* Where a cell sits: its scenario and the index of its value on each axis. */
struct sweep_coord {
	int scen;
	int value[SWEEP_MAX_AXES];
};

void sweep_plan_init(struct sweep_plan *p);
/* Append an axis; -1 when there are SWEEP_MAX_AXES. */
int sweep_plan_add_axis(struct sweep_plan *p, int kind, const char *key);
/* Append a scenario with its values on each axis (copied); -1 past
 * SWEEP_MAX_CELLS. Number the cells as it goes. */
int sweep_plan_add_scenario(struct sweep_plan *p, const char *path, const int *nr_values,
			    char *const *const *values);
void sweep_plan_free(struct sweep_plan *p);
/* Note the last scenario's own value on an axis (shown in the matrix). */
void sweep_plan_set_own(struct sweep_plan *p, int axis, const char *own);
/* Is the cell's value on the axis the scenario's own? */
bool sweep_is_own(const struct sweep_plan *p, const struct sweep_coord *c, int axis);

void sweep_coord(const struct sweep_plan *p, int cell, struct sweep_coord *c);
const char *sweep_value(const struct sweep_plan *p, const struct sweep_coord *c, int axis);
/* Shard i of n (1-based) runs the cells whose index is i - 1 modulo n: an
 * equal share, and each shard gets some of every scenario. */
bool sweep_in_shard(int cell, int shard, int nr_shards);
/* A variant is a cell less its seed: cells [first, first + n) share it. */
int sweep_seeds_per_variant(const struct sweep_plan *p, int scen);
/* "topology=dual kernel=6.12" (the axes with more than one value in the plan, seed left out). */
void sweep_variant_label(const struct sweep_plan *p, const struct sweep_coord *c, char *buf, size_t len);
/* Does some scenario take more than one value on the axis? */
bool sweep_axis_varies(const struct sweep_plan *p, int axis);

/* The overrides of one cell (side B adds the --vs-set ones). */
struct sweep_overrides {
	struct scenario_overrides ov;
	const char *set[SWEEP_MAX_AXES + SWEEP_MAX_VS];
	const char *param[SWEEP_MAX_AXES];
	char buf[SWEEP_MAX_AXES][256];
};

void sweep_cell_overrides(const struct sweep_plan *p, int cell, bool side_b, struct sweep_overrides *o);
/* The same without the machine (topology, kernel, sched): what a cell that
 * does not fit its machine is checked with, to tell "does not apply" from
 * a mistake. */
void sweep_cell_overrides_no_machine(const struct sweep_plan *p, int cell, bool side_b,
				     struct sweep_overrides *o);

#endif
