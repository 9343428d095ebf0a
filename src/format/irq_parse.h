/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenario's `irq` and `steal` lines:
 *
 *   irq   cpu=LIST every=DIST cost=DIST [irq=N] [name=NAME]
 *   steal cpu=LIST every=DIST cost=DIST
 *
 * DIST is a duration (100us), exp(MEAN), uniform(A,B) or normal(MEAN,SD),
 * written without blanks; every must be at least 1us on average. One source
 * per CPU of LIST.
 */
#ifndef SRC_IRQ_PARSE_H
#define SRC_IRQ_PARSE_H

#include "lex.h"
#include "scenario_file.h"

#define MAX_IRQ_SOURCES 4096

/* Parse the rest of the line after `irq` or `steal` (dir); new sources go to
 * *out / *n (reallocated, capacity *cap). CPUs are checked against nr_cpus. */
int irq_parse(struct lexer *lx, const struct token *dir, int nr_cpus, struct sched_irq_spec **out, int *n,
	      size_t *cap);

#endif
