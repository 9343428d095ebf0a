// SPDX-License-Identifier: GPL-2.0
/* struct ui: set-up, captions, task colours. */
#include <stdlib.h>
#include <string.h>

#include "src/format/lex.h"
#include "commands.h"
#include "loop.h"

/* Scenario notes reached so far: seq of each EV_NOTE in the log, in order. */
static u64 *note_seq;
static u32 *note_idx;
static size_t nr_notes, cap_notes;

/* For every event, the engine step that emitted it (sched_nr_steps() then):
 * an engine listener, so replays after a rewind fill it in as well. */
static u64 *step_of;
static u64 cap_steps;

static void step_listener(void *ctx, const struct sched_event *ev)
{
	const struct ui *ui = ctx;

	if (ev->seq >= cap_steps) {
		u64 n = cap_steps ? cap_steps : 4096;
		while (n <= ev->seq)
			n *= 2;
		step_of = realloc(step_of, n * sizeof(*step_of));
		if (!step_of)
			abort();
		cap_steps = n;
	}
	step_of[ev->seq] = sched_nr_steps(ui->e);
}

u64 ui_event_step(u64 seq)
{
	return seq < cap_steps ? step_of[seq] : 0;
}

static void note_listener(void *ctx, const struct sched_event *ev)
{
	if (ev->type != EV_NOTE)
		return;
	/* after a branch the log is re-emitted from an earlier point */
	while (nr_notes && note_seq[nr_notes - 1] >= ev->seq)
		nr_notes--;
	if (nr_notes == cap_notes) {
		cap_notes = cap_notes ? cap_notes * 2 : 16;
		note_seq = realloc(note_seq, cap_notes * sizeof(*note_seq));
		note_idx = realloc(note_idx, cap_notes * sizeof(*note_idx));
		if (!note_seq || !note_idx)
			abort();
	}
	note_seq[nr_notes] = ev->seq;
	note_idx[nr_notes++] = ev->note.index;
}

const char *ui_caption(const struct ui *ui, u64 *time)
{
	u64 pos = sched_nr_events(ui->e);
	size_t lo = 0, hi = nr_notes;

	/* the last note with seq < pos */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (note_seq[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	u32 i = note_idx[lo - 1];
	if (i >= (u32)ui->f->sc.nr_notes)
		return NULL;
	if (time)
		*time = ui->f->sc.note[i].time;
	return ui->f->sc.note[i].text;
}

int ui_setup(struct ui *ui, const struct scenario_file *f, char *err, size_t errlen)
{
	memset(ui, 0, sizeof(*ui));
	ui->f = f;
	ui->e = sched_engine_create(&f->sc, err, errlen);
	if (!ui->e)
		return -1;
	ui->h = history_create(ui->e, HISTORY_DEFAULT_BUDGET);
	if (!ui->h) {
		snprintf(err, errlen, "out of memory for the history");
		sched_engine_destroy(ui->e);
		ui->e = NULL;
		return -1;
	}
	nr_notes = 0;
	sched_add_listener(ui->e, step_listener, ui);
	history_add_listener(ui->h, note_listener, ui);
	ui->sel_cpu = -1;
	ui->sel_task = -1;
	ui->sel_event = ~0ull;
	ui->tl_span_ns = 100 * NSEC_PER_MSEC;
	ui->tl_end_ns = 0;
	ui->speed = UI_DEFAULT_SPEED;
	ui->main_view = ui_nr_views ? ui_views[0] : NULL;
	ui->side_view = NULL;
	ui->colors = 256;
	ui->message = "";
	ui_commands_reset();
	/* the scenario's `break` lines: where a guided scenario pauses */
	for (int i = 0; i < f->nr_breaks; i++) {
		char line[LEX_MAX_LINE + 8];

		snprintf(line, sizeof(line), "break %s", f->brk[i].text);
		ui_command(ui, line);
	}
	ui->message = "";
	return 0;
}

void ui_teardown(struct ui *ui)
{
	history_destroy(ui->h);
	sched_engine_destroy(ui->e);
	ui->h = NULL;
	ui->e = NULL;
	free(step_of);
	step_of = NULL;
	cap_steps = 0;
	free(note_seq);
	free(note_idx);
	note_seq = NULL;
	note_idx = NULL;
	nr_notes = cap_notes = 0;
}

struct style ui_group_style(const struct ui *ui, int group)
{
	struct style st = ui_task_style(ui, group + 1);

	st.attr |= A_BOLD_;
	return st;
}

struct style ui_task_style(const struct ui *ui, int pid)
{
	/* well separated hues that read on black and on white */
	static const s16 pal256[] = {
		39, 208, 76, 170, 220, 45, 203, 141, 118, 33, 214, 168,
		50, 99, 184, 160, 75, 130, 84, 205, 69, 178, 37, 197,
	};
	static const s16 pal16[] = {
		C_GREEN, C_YELLOW, C_BLUE, C_MAGENTA, C_CYAN, C_RED,
		C_BRIGHT_GREEN, C_BRIGHT_YELLOW, C_BRIGHT_BLUE, C_BRIGHT_MAGENTA, C_BRIGHT_CYAN,
		C_BRIGHT_RED,
	};
	struct style st = STYLE_PLAIN;

	if (pid <= 0) {
		st.attr = A_DIM_;
		return st;
	}
	/* pids are handed out in order: neighbours get far-apart entries */
	u32 h = (u32)(pid - 1);
	if (ui->colors >= 256)
		st.fg = pal256[h % ARRAY_SIZE(pal256)];
	else if (ui->colors)
		st.fg = pal16[h % ARRAY_SIZE(pal16)];
	return st;
}
