// SPDX-License-Identifier: GPL-2.0
/* The help screen: every key and command, generated from the keymap and
 * the command table so it cannot drift from them. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <limits.h>
#include <string.h>

#include "commands.h"
#include "input.h"
#include "loop.h"
#include "search.h"

/* Help lines: keys first, then commands. Returns the number of lines;
 * draws those in [top, top + h) at y. */
static const char *const split_help[] = {
	"Two runs side by side (or stacked) on one clock:",
	"play, pause, step, rewind, goto, checkpoints and",
	"breakpoints move both to the same simulated time.",
	"A step goes to the next event of either side.",
	"Keys and commands act on the focused pane, the one",
	"with the lit label: o switches it. set and move",
	"change the focused side only; breakpoints watch the",
	"focused side's events. | toggles side by side and",
	"stacked; :follow off lets each pane keep its own",
	"views; :split off shows side A alone. :diverge",
	"goes where the runs first decide differently,",
	"d to the next divergence. D: the diff strip,",
	"per task A, B and B-A (:diff sort, :diff window).",
};

static const char status_help[] =
	"The status line shows the simulated time, speed, paused/running, "
	"events and checkpoints; captions from the scenario's notes appear above it. "
	"/ searches the main view's list (n N the next and previous match); a long search goes on "
	"between frames, \"searching\" on the status line, and Escape gives it up.";

/* How much of s fits in w columns, cut at a blank (s is ASCII). */
static int wrap_len(const char *s, int w)
{
	int n = (int)strlen(s), cut = w;

	if (n <= w || w < 20)
		return n;
	while (cut > w / 2 && s[cut] != ' ')
		cut--;
	return s[cut] == ' ' ? cut : w;
}

static int help_lines(const struct ui *ui, struct cellbuf *cb, struct rect r, int top)
{
	const struct keymap *km = &ui->keymap;
	struct style head = { C_CYAN, COLOR_DEFAULT, A_BOLD_ };
	struct style key = { C_YELLOW, COLOR_DEFAULT, A_BOLD_ };
	struct style dim = { COLOR_DEFAULT, COLOR_DEFAULT, A_DIM_ };
	int line = 0, nk = km->nr;
#define ROW(...) do { int y_ = r.y + line - top; if (cb && line >= top && y_ < r.y + r.h) { __VA_ARGS__; } line++; } while (0)

	if (ui->split.on) {
		ROW(cb_print(cb, r.x, y_, r.w, head, "Split screen"));
		for (size_t i = 0; i < ARRAY_SIZE(split_help); i++)
			ROW(cb_print(cb, r.x + 2, y_, r.w - 2, STYLE_PLAIN, "%s", split_help[i]));
		for (int i = 0; i < 2; i++)
			ROW(cb_print(cb, r.x + 2, y_, r.w - 2, key, "%s: %s", i ? "B" : "A",
				     ui->split.label[i]));
		ROW((void)0);
	}
	ROW(cb_print(cb, r.x, y_, r.w, head, "Keys"));
	ROW(cb_print(cb, r.x, y_, r.w, dim,
		     "every key runs a console command; rebind with  :bind KEY COMMAND"));
	/* two columns of keys when there is room */
	int cols = r.w >= 84 ? 2 : 1, colw = r.w / cols;
	for (int i = 0; i < nk; i += cols) {
		ROW(for (int c = 0; c < cols && i + c < nk; c++) {
			const char *k, *cmd;
			keymap_get(km, i + c, &k, &cmd);
			cb_print(cb, r.x + c * colw + 2, y_, 12, key, "%s", k);
			cb_print(cb, r.x + c * colw + 14, y_, colw - 15, STYLE_PLAIN, "%s", cmd);
		});
	}
	ROW((void)0);
	ROW(cb_print(cb, r.x, y_, r.w, head, "Commands"));
	ROW(cb_print(cb, r.x, y_, r.w, dim,
		     "type : then a command; Tab completes; Up/Down recall; Escape cancels"));
	for (int i = 0; i < ui_nr_commands(); i++) {
		const struct ui_command_info *ci = ui_command_get(i);
		ROW({
			int n = cb_print(cb, r.x + 2, y_, r.w - 2, key, "%s", ci->name);
			n += cb_print(cb, r.x + 2 + n, y_, r.w - 2 - n, STYLE_PLAIN, " %s", ci->args);
			int col = n + 2 < 38 ? 40 : n + 4;
			cb_print(cb, r.x + col, y_, r.w - col, dim, "%s", ci->help);
		});
	}
	ROW((void)0);
	ROW(cb_print(cb, r.x, y_, r.w, head, "Views"));
	for (int i = 0; i < ui_nr_views; i++) {
		ROW(cb_print(cb, r.x + 2, y_, r.w - 2, STYLE_PLAIN, "%d  %-10s %s", i + 1,
			     ui_views[i]->name, ui_views[i]->title ? ui_views[i]->title : ""));
		/* the view's own keys, which the keymap above does not list, wrapped */
		for (const char *k = ui_views[i]->keys; k && *k;) {
			int n = wrap_len(k, r.w - 17);

			ROW(cb_print(cb, r.x + 17, y_, r.w - 17, key, "%.*s", n, k));
			k += n;
			k += strspn(k, " ");
		}
	}
	ROW((void)0);
	for (const char *t = status_help; *t;) {
		int n = wrap_len(t, r.w);

		ROW(cb_print(cb, r.x, y_, r.w, dim, "%.*s", n, t));
		t += n;
		t += strspn(t, " ");
	}
#undef ROW
	return line;
}

static void help_draw(struct pane *pn, struct cellbuf *cb, struct rect area)
{
	struct style frame = { C_CYAN, COLOR_DEFAULT, 0 };

	cb_box(cb, area, frame, "schedscope help");
	struct rect in = { area.x + 2, area.y + 1, area.w - 4, area.h - 2 };
	int total = help_lines(pn->ui, NULL, in, 0);
	if (pn->help_top > total - in.h)
		pn->help_top = total - in.h;
	if (pn->help_top < 0)
		pn->help_top = 0;
	help_lines(pn->ui, cb, in, pn->help_top);
	pn->help_w = in.w;
	for (int y = in.y; pn->search[0] && y < in.y + in.h; y++)
		search_mark(cb, in.x, y, in.w, pn->search);
	if (total > in.h)
		cb_print(cb, area.x + area.w - 22, area.y + area.h - 1, 20, frame,
			 " %d-%d of %d ", pn->help_top + 1, MIN(total, pn->help_top + in.h), total);
}

static bool help_key(struct pane *pn, int key)
{
	switch (key) {
	case KEY_UP:
	case 'k':
		pn->help_top--;
		return true;
	case KEY_DOWN:
	case 'j':
		pn->help_top++;
		return true;
	case KEY_PPAGE:
		pn->help_top -= 10;
		return true;
	case KEY_NPAGE:
	case ' ':
		pn->help_top += 10;
		return true;
	case KEY_HOME:
		pn->help_top = 0;
		return true;
	case KEY_END:
		pn->help_top = INT_MAX / 2; /* the draw clamps it to the last page */
		return true;
	case 'q':
	case 27:
		ui_command(pn->ui, "help");	/* closes it */
		return true;
	}
	return false;
}

/* The next (dir 1) or previous (-1) line below or above the top one that
 * holds the search text: it becomes the top line. */
static enum search_step help_find(struct pane *pn, struct search_scan *sc)
{
	int dir = sc->dir;
	struct cellbuf all;
	int w = MAX(pn->help_w, 20), total = help_lines(pn->ui, NULL, (struct rect){ 0, 0, w, 1 }, 0);
	char text[1024];
	bool found = false;

	cb_init(&all, w, total);
	help_lines(pn->ui, &all, (struct rect){ 0, 0, w, total }, 0);
	for (int y = pn->help_top + dir; y >= 0 && y < total && !found; y += dir) {
		if (search_match(cb_row(&all, y, text, sizeof(text)), pn->search)) {
			pn->help_top = y;
			found = true;
		}
	}
	cb_free(&all);
	return found ? SEARCH_HIT : SEARCH_NONE;
}

const struct view view_help = {
	.name = "help",
	.title = "every key and command",
	.draw = help_draw,
	.key = help_key,
	.find = help_find,
	.wheel_up = 'k',
	.wheel_down = 'j',
};
