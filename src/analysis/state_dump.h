/* SPDX-License-Identifier: GPL-2.0 */
/* The engine's state at one moment, for --dump-state: per-CPU runqueues and their entities. */
#ifndef SRC_STATE_DUMP_H
#define SRC_STATE_DUMP_H

#include <stdio.h>

#include "sched/api/sched.h"

void state_dump_text(FILE *out, const struct sched_engine *e);
void state_dump_json(FILE *out, const struct sched_engine *e);

#endif
