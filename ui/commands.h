/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console's command interpreter. Every key is bound to one of these
 * command lines, `--commands FILE` runs them from a script, and the `:`
 * console reads them: one language for all three. A command that fails
 * sets an error message and changes nothing.
 */
#ifndef UI_COMMANDS_H
#define UI_COMMANDS_H

#include <stdarg.h>

#include "ui.h"

struct ui_command_info {
	const char *name;
	const char *args;	/* "[N]", "TIME|CHECKPOINT", ... */
	const char *help;
};

/* Run one command line; 0, or -1 with the error in ui->message. */
int ui_command(struct ui *ui, const char *line);
/* Run a script: one command per line, `#` starts a comment. Stops at the
 * first error: -1 with "FILE:LINE: message" in ui->message. */
int ui_command_file(struct ui *ui, const char *path);

int ui_nr_commands(void);
const struct ui_command_info *ui_command_get(int i);

/* The status line's message. */
void ui_message(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_error(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* `prompt TEXT` asks the loop to open the console with TEXT typed; NULL if not. */
const char *ui_take_prompt(struct ui *ui);
/* `redraw` asks for the whole screen to be sent again. */
bool ui_take_redraw(struct ui *ui);

/* The speed steps `speed up`/`speed down` move through; 0 = max. */
double ui_speed_step(double speed, int dir);
const char *ui_speed_text(double speed, char *buf, size_t len);
/* "2.500000s" */
const char *ui_time_text(u64 ns, char *buf, size_t len);

/* Breakpoints (`break EXPR`): does any hold for ev? index of the first, or -1. */
int ui_breaks_test(struct ui *ui, const struct sched_event *ev);
/* After a jump: breakpoints forget what they saw. */
void ui_breaks_reset(struct ui *ui);
/* The status message for the breakpoint ui_breaks_test() last hit, at ev of run. */
void ui_breaks_hit(struct ui *ui, const struct ui_run *run, const struct sched_event *ev);

/* Free what the commands keep (breakpoints). */
void ui_commands_fini(struct ui *ui);

#endif
