/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task-group paths and cgroup attributes, shared by the scenario's `group`
 * lines, task `group=` keys and the run-time `set group` / `move task`
 * commands:
 *
 *   cpu.weight=1..10000        cgroup v2 weight (100 = 1024 shares)
 *   cpu.weight.nice=-20..19    the same as a nice value
 *   cpu.shares=2..262144       cgroup v1 shares
 *   cpu.idle=0|1               SCHED_IDLE-like group (weight 3)
 *   cpu.max="QUOTA PERIOD"     quota or max; period 1ms..1s (durations, or
 *                              bare microseconds as the cgroup file takes them)
 *   cpu.max.burst=D            0..quota
 */
#ifndef SRC_GROUP_PARSE_H
#define SRC_GROUP_PARSE_H

#include "lex.h"
#include "scenario_file.h"

#define MAX_GROUPS 4096
#define MAX_GROUP_DEPTH 32
#define CFS_PERIOD_DEFAULT (100 * NSEC_PER_MSEC)
#define CFS_PERIOD_MIN NSEC_PER_MSEC
#define CFS_PERIOD_MAX NSEC_PER_SEC
#define CFS_QUOTA_MIN NSEC_PER_MSEC

/* The group at path, or -1. "/" is always group 0. */
int group_lookup(const struct sched_scenario *sc, const struct lex_span *path);
/* As group_lookup, with an error naming the path when it is missing. */
int group_find(struct lexer *lx, const struct sched_scenario *sc, const struct lex_span *path);
/* Check a new group's path and find its parent (declared before it). */
int group_path_check(struct lexer *lx, const struct sched_scenario *sc, const struct lex_span *path,
		     int *parent);

/* One cpu.* attribute as a command (kind, value, value2; key and task unset). */
int group_attr_parse(struct lexer *lx, const struct token *kv, struct sched_command *c);
/* Apply a parsed attribute to a declared group; -1 with an error at kv when the
 * combination is one the kernel refuses (weight on an idle group, burst > quota). */
int group_attr_apply(struct lexer *lx, const struct token *kv, struct sched_group_spec *g,
		     const struct sched_command *c);

/* cgroup v2 weight <-> shares, as kernel/sched/sched.h converts them. */
u64 sched_weight_from_cgroup(u64 weight);
u64 sched_weight_to_cgroup(u64 shares);

#endif
