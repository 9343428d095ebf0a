// SPDX-License-Identifier: GPL-2.0
/* struct ui: set-up, captions, task colours. */
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "src/format/diff_expr.h"
#include "src/format/lex.h"
#include "commands.h"
#include "input.h"
#include "loop.h"
#include "split.h"
#include "trace_job.h"

static void note_listener(void *ctx, const struct sched_event *ev)
{
	struct ui_run *run = ctx;

	if (ev->type != EV_NOTE)
		return;
	/* after a branch the log is re-emitted from an earlier point */
	while (run->nr_notes && run->notes[run->nr_notes - 1].seq >= ev->seq)
		run->nr_notes--;
	XGROW(run->notes, run->cap_notes, run->nr_notes);
	run->notes[run->nr_notes++] = (struct ui_note){ ev->seq, ev->note.index };
}

const char *ui_caption(const struct ui_run *run, u64 *time)
{
	u64 pos = sched_nr_events(run->e);
	size_t lo = 0, hi = run->nr_notes;

	/* the last note with seq < pos */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (run->notes[mid].seq < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	u32 i = run->notes[lo - 1].idx;
	if (i >= (u32)run->f->sc.nr_notes)
		return NULL;
	if (time)
		*time = run->f->sc.note[i].time;
	return run->f->sc.note[i].text;
}

int ui_run_setup(struct ui_run *run, const struct scenario_file *f, size_t budget, char *err, size_t errlen)
{
	memset(run, 0, sizeof(*run));
	run->f = f;
	run->e = sched_engine_create(&f->sc, err, errlen);
	if (!run->e)
		return -1;
	if (budget < history_min_budget(run->e)) {
		snprintf(err, errlen, "a history budget of %zu MiB is below the %zu MiB this scenario needs",
			 budget >> 20, (history_min_budget(run->e) + (1 << 20) - 1) >> 20);
		sched_engine_destroy(run->e);
		run->e = NULL;
		return -1;
	}
	run->h = history_create(run->e, budget);
	history_add_listener(run->h, note_listener, run);
	cpu_history_init(&run->cpu_hist, run->e);
	history_add_listener(run->h, cpu_history_event, &run->cpu_hist);
	history_add_listener(run->h, mig_index_event, &run->migs);
	return 0;
}

void ui_run_teardown(struct ui_run *run)
{
	history_destroy(run->h);
	sched_engine_destroy(run->e);
	free(run->notes);
	free(run->why);
	cpu_history_free(&run->cpu_hist);
	mig_index_free(&run->migs);
	memset(run, 0, sizeof(*run));
}

void pane_init(struct pane *pane, struct ui *ui, struct ui_run *run)
{
	memset(pane, 0, sizeof(*pane));
	pane->ui = ui;
	pane->run = run;
	pane->sel_cpu = -1;
	pane->sel_task = -1;
	pane->sel_event = ~0ull;
	pane->tl_span_ns = 100 * NSEC_PER_MSEC;
	pane->tl_mark[0] = pane->tl_mark[1] = TL_NO_MARK;
	pane->task_sw_sel = ~0ULL;
	pane->main_view = ui_nr_views ? ui_views[0] : NULL;
}

int ui_setup(struct ui *ui, const struct scenario_file *f, size_t history_budget, char *err, size_t errlen)
{
	memset(ui, 0, sizeof(*ui));
	if (ui_run_setup(&ui->run, f, history_budget, err, errlen))
		return -1;
	pane_init(&ui->pane, ui, &ui->run);
	ui->speed = UI_DEFAULT_SPEED;
	ui->history_budget = history_budget;
	ui->split.follow = true;
	ui->split.diff.sort = MET_SHARE;
	ui->colors = 256;
	ui->breaks.last_hit = -1;
	keymap_reset(&ui->keymap);
	/* the scenario's `break` lines: where a guided scenario pauses */
	for (int i = 0; i < f->nr_breaks; i++) {
		char line[LEX_MAX_LINE + 8];

		snprintf(line, sizeof(line), "break %s", f->brk[i].text);
		ui_command(ui, line);
	}
	ui->message[0] = 0;
	return 0;
}

void pane_fini(struct pane *pane)
{
	tl_grid_free(pane->tl_grid);
	pane->tl_grid = NULL;
	task_lat_free(pane->task_lat);
	pane->task_lat = NULL;
}

void ui_teardown(struct ui *ui)
{
	ui_trace_abort(ui);
	ui_split_close(ui);
	pane_fini(&ui->pane);
	ui_commands_fini(ui);
	keymap_free(&ui->keymap);
	ui_run_teardown(&ui->run);
	free(ui->hits);
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
