/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine schedscope runs on, read from sysfs: `schedscope topology
 * --host` and a scenario's `topology host`.
 */
#ifndef SRC_HOST_TOPOLOGY_H
#define SRC_HOST_TOPOLOGY_H

#include <stddef.h>
#include <stdio.h>

#include "sched/api/scenario.h"

/*
 * Read sysroot/sys/devices/system/cpu and sysroot/sys/devices/system/node
 * (sysroot is "/" normally; tests point it at a fake tree). Online CPUs only,
 * numbered densely in ascending order; nodes without online CPUs are
 * dropped and the rest numbered densely. Package, core, LLC, cluster and
 * node ids are numbered in order of first appearance; capacities scaled so
 * the biggest CPU has 1024. The topology is called "host". On error returns
 * -1 with "path: why" in err and leaves *out empty (free with topology_free).
 */
int host_topology_read(const char *sysroot, struct sched_topology *out, char *err, size_t errlen);

/*
 * Print t as a .topo file that topology_parse() reads back to the same
 * struct: the shorthand counts when they describe t exactly, per-CPU `cpu`
 * lines otherwise. Returns -1 on a write error.
 */
int host_topology_write(FILE *f, const struct sched_topology *t);

#endif
