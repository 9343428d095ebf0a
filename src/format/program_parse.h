/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task programs: the statements of `program NAME { ... }` blocks and of
 * task program="..." values in .scn files, compiled into sched_program.
 *
 *   run D | run forever | sleep D | loop [N] { ... } | wait |
 *   wake PATTERN | yield | exit | nice N |
 *   lock M | unlock M | cond_wait C M | signal C | broadcast C |
 *   suspend C | resume C | barrier B | timer REF PERIOD [relative|absolute] |
 *   fork TASK
 *
 * separated by ';' or new lines, where D is a duration or uniform(A, B),
 * exp(MEAN), normal(MEAN, SD). A loop without a count repeats forever, so
 * its body must take time (run, sleep, wait or exit). Loops nest at most
 * 16 deep. A task whose program ends exits.
 *
 * `wake PATTERN` may name tasks declared further down the file, so its
 * targets are looked up once every task is known.
 *
 * The rt-app statements name shared objects (mutex M, condition C, barrier
 * B, timer REF), created by first use; a kind's names are its own, so a
 * mutex and a condition may share one. `suspend C` is `cond_wait` without
 * a mutex and `resume C` a broadcast. Timers whose name starts with
 * "unique" are private to each task. A task named by `fork` starts only
 * when forked, once per `fork` and instance.
 */
#ifndef SRC_PROGRAM_PARSE_H
#define SRC_PROGRAM_PARSE_H

#include "sched/api/scenario.h"
#include "lex.h"
#include "parse_util.h"

/* The compiled programs of a scenario; its tasks point into them. */
struct program_list {
	int nr;
	size_t cap;
	struct sched_program **prog;
};

/* A `wake PATTERN` statement, resolved once every task is known. */
struct pending_wake {
	struct sched_program *prog;
	int insn;
	struct lex_span pattern;
};

/* Compiling the programs of one file. */
struct program_parser {
	struct program_list *progs;	/* where compiled programs are kept */
	int nr_wakes;
	size_t cap_wakes;
	struct pending_wake *wake;
	struct strmap wake_patterns;	/* pattern -> pending_wake index already resolved */
	int nr_sync;
	size_t cap_sync;
	struct sched_sync *sync;	/* handed to the scenario by program_resolve_wakes() */
	struct strmap sync_names[4];	/* per enum sched_sync_kind: name -> sync index */
	int nr_local_timers;
};

/*
 * Compile one program from lx, up to the '}' matching `open`, or to the end
 * of lx when open is NULL (the text of a program="..." value). `where`
 * places the "empty program" error. NULL on error, with the message in lx.
 */
struct sched_program *program_compile(struct program_parser *pp, struct lexer *lx,
				      const struct token *open, const struct lex_span *where);

/*
 * Give each `wake PATTERN` (and `yield_to`, `fork`) its range of
 * sc->wake_list: the tasks whose name is PATTERN, or matches it as a glob.
 * Equal patterns share one range. Mark forked tasks, count each barrier's
 * users and hand the shared objects to sc. Call once, after the last task;
 * errors (a pattern no task matches) go to lx.
 */
int program_resolve_wakes(struct program_parser *pp, struct lexer *lx, struct sched_scenario *sc);

/* Free what compiling kept for program_resolve_wakes(); the programs stay. */
void program_parser_free(struct program_parser *pp);
void program_list_free(struct program_list *l);

#endif
