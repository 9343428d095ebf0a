/* SPDX-License-Identifier: GPL-2.0 */
/* Reading .topo hardware descriptions into the engine's sched_topology. */
#ifndef SRC_TOPOLOGY_FILE_H
#define SRC_TOPOLOGY_FILE_H

#include "sched/api/scenario.h"
#include "lex.h"

/*
 * Parse a .topo text; `name` is used in messages and, without a `name` line,
 * gives the topology its name (basename, less ".topo"). On error returns -1
 * with "file:line:col: message" in err and leaves *out empty.
 */
int topology_parse(const char *name, const char *text, size_t len,
		   struct sched_topology *out, char *err, size_t errlen);
/* Read and parse a file; an unreadable one is "path: why". */
int topology_load(const char *path, struct sched_topology *out, char *err, size_t errlen);

/*
 * The inline form of a scenario's `topology` line: `first` and the tokens
 * after it on the line (read from lx) are KEY=VALUE words: packages, cores,
 * threads, llcs, clusters, nodes, numbering. Errors go through lx.
 */
int topology_parse_inline(struct lexer *lx, const struct token *first, struct sched_topology *out);

/*
 * Find the file a scenario's `topology NAME` means. A NAME with a '/' or
 * ending in ".topo" is a path relative to the scenario's folder. Otherwise
 * NAME.topo is looked up in: the scenario's folder, its topologies/, its
 * ../topologies/, $SCHEDSCOPE_DATADIR/topologies, the installed data folder,
 * and ./topologies. Returns -1 with a message (no location) when none exists.
 */
int topology_resolve(const char *name, const char *scenario_path, char *path, size_t pathlen,
		     char *err, size_t errlen);

void topology_free(struct sched_topology *t);

#endif
