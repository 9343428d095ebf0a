/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run-time commands: the text after `at T` in a scenario, and what the
 * console accepts. One parser for both, so they cannot drift apart.
 *
 *   set nice PATTERN N            nice -20..19 of every task matching PATTERN
 *   set slice PATTERN D|default   custom slice 100us..100ms, or the default
 *   set policy PATTERN normal|batch|idle
 *   set policy PATTERN fifo|rr prio=N                      rt priority 1..99
 *   set policy PATTERN deadline runtime=D deadline=D [period=D]
 *   set tunable KEY=VALUE...      a tunable (durations for the *_ns ones)
 *   set feature [NO_]NAME...      a sched_feature on or off
 *   set group PATH cpu.ATTR=V...  a task group's cpu.* attributes (group_parse.h)
 *   move task PATTERN to PATH     move tasks to another group
 *
 * PATTERN is a task name or an fnmatch() glob (`web.*`, `hog.?`); a pattern
 * gives one command per matching task, in task order.
 */
#ifndef SRC_COMMAND_H
#define SRC_COMMAND_H

#include "lex.h"
#include "scenario_file.h"

/*
 * Parse text into out[0..*n) (at most max commands). On error returns -1
 * with "col N: message" in err and *n = 0.
 */
int command_parse(const struct scenario_file *f, const char *text, struct sched_command *out,
		  int max, int *n, char *err, size_t errlen);
/* The same from the tokens of one line of lx (to its end); errors through lx. */
int command_parse_lex(const struct scenario_file *f, struct lexer *lx, struct sched_command *out,
		      int max, int *n);

/* Pieces shared with the scenario's `tunable`, `feature` and `task` lines. */
int command_tunable(struct lexer *lx, const struct token *kv, int *which, u64 *value);
int command_feature(struct lexer *lx, const struct lex_span *word, int *which, bool *on);
int command_policy(struct lexer *lx, const struct lex_span *word, int *policy);
/*
 * A policy and the keys that go with it: prio= for fifo and rr, runtime=,
 * deadline= and period= for deadline. Spans record where each was written
 * (p == NULL when absent) so the cross-checks can point at the culprit.
 */
struct policy_attr {
	int policy;
	unsigned int rt_priority;
	u64 runtime, deadline, period;
	struct lex_span policy_at, prio_at, runtime_at, deadline_at, period_at;
};

/* The keys policy_attr understands: prio, runtime, deadline, period. */
bool command_is_policy_key(const struct lex_span *key);
int command_policy_key(struct lexer *lx, const struct token *kv, struct policy_attr *a);
/* After all keys: the ones the policy needs, none it does not, and
 * __checkparam_dl()'s rules for deadline. */
int command_policy_check(struct lexer *lx, const struct policy_attr *a);

/* A custom slice within the kernel's 100us..100ms clamp; or, with allow_default,
 * "default" or 0 for the default slice. */
int command_slice(struct lexer *lx, const struct lex_span *word, bool allow_default, u64 *slice);

#define SLICE_MIN (100 * NSEC_PER_USEC)
#define SLICE_MAX (100 * NSEC_PER_MSEC)

#endif
