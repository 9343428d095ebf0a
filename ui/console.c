// SPDX-License-Identifier: GPL-2.0
/* The `:` console: readline's callback interface inside the curses screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "commands.h"
#include "console.h"

static struct ui *cui;
static bool active;
static unsigned char queue[256];
static size_t q_head, q_tail;
static char matches_text[512];
static FILE *devnull;

static int con_getc(FILE *f)
{
	if (q_head == q_tail)
		return EOF;
	return queue[q_head++ % sizeof(queue)];
}

static int con_available(void)
{
	return q_head != q_tail;
}

static void con_redisplay(void)
{
	/* the loop draws rl_line_buffer on its next frame */
}

static void con_prep(int meta)
{
}

static void con_deprep(void)
{
}

static void on_line(char *line)
{
	rl_callback_handler_remove();
	active = false;
	matches_text[0] = 0;
	if (!line)
		return;		/* C-d on an empty line */
	if (*line) {
		HIST_ENTRY *last = history_length ? history_get(history_base + history_length - 1) : NULL;
		if (!last || strcmp(last->line, line))
			add_history(line);
		ui_command(cui, line);
	}
	free(line);
}

/* ---- completion ---- */

static const char *const *gen_list;
static const char *(*gen_fn)(int i);
static int gen_n;

static const char *cmd_name(int i)
{
	return i < ui_nr_commands() ? ui_command_get(i)->name : NULL;
}

static const char *task_name(int i)
{
	return i < cui->f->sc.nr_tasks ? cui->f->sc.task[i].name : NULL;
}

static const char *group_path(int i)
{
	return i < cui->f->sc.nr_groups ? cui->f->sc.group[i].path : NULL;
}

static const char *view_name(int i)
{
	if (i < ui_nr_views)
		return ui_views[i]->name;
	static const char *const more[] = { "next", "prev", "none", "help" };
	i -= ui_nr_views;
	return i < (int)ARRAY_SIZE(more) ? more[i] : NULL;
}

static const char *event_name(int i)
{
	return ui_event_kind_names()[i];
}

static const char *cp_name(int i)
{
	int n = history_nr_checkpoints(cui->h), k = 0;

	for (int j = 0; j < n; j++) {
		struct history_checkpoint_info ci;

		history_checkpoint_info(cui->h, j, &ci);
		if (ci.name && k++ == i)
			return ci.name;
	}
	return NULL;
}

static char *generator(const char *text, int state)
{
	static int idx;
	size_t len = strlen(text);

	if (!state)
		idx = 0;
	for (;;) {
		const char *s;

		if (gen_list)
			s = idx < gen_n ? gen_list[idx] : NULL;
		else
			s = gen_fn(idx);
		if (!s)
			return NULL;
		idx++;
		if (!strncmp(s, text, len))
			return strdup(s);
	}
}

static char **complete(const char *text, int start, int end)
{
	char first[32] = "", second[32] = "";
	int nw = 0;

	rl_attempted_completion_over = 1;
	/* the words before the one being completed */
	for (const char *p = rl_line_buffer; p < rl_line_buffer + start;) {
		while (*p == ' ')
			p++;
		if (p >= rl_line_buffer + start)
			break;
		const char *w = p;
		while (*p && *p != ' ')
			p++;
		char *dst = nw == 0 ? first : second;
		if (nw < 2)
			snprintf(dst, 32, "%.*s", (int)MIN(p - w, 31), w);
		nw++;
	}
	static const char *const select_what[] = { "cpu", "task", "group", "none" };
	static const char *const set_what[] = { "nice", "slice", "policy", "group", "tunable", "feature" };
	static const char *const speeds[] = { "up", "down", "max", "1", "0.1", "0.01", "1/1000", "1/10000" };

	gen_list = NULL;
	gen_fn = NULL;
	if (nw == 0) {
		gen_fn = cmd_name;
	} else if (!strcmp(first, "view") || !strcmp(first, "side")) {
		gen_fn = view_name;
	} else if (!strcmp(first, "select") && nw == 1) {
		gen_list = select_what, gen_n = (int)ARRAY_SIZE(select_what);
	} else if (!strcmp(first, "select") && !strcmp(second, "task")) {
		gen_fn = task_name;
	} else if ((!strcmp(first, "select") || !strcmp(first, "set")) && !strcmp(second, "group")) {
		gen_fn = group_path;
	} else if (!strcmp(first, "move")) {
		/* move task PATTERN to PATH: a path follows "to" */
		gen_fn = nw >= 4 ? group_path : task_name;
	} else if (!strcmp(first, "set") && nw == 1) {
		gen_list = set_what, gen_n = (int)ARRAY_SIZE(set_what);
	} else if (!strcmp(first, "set") || !strcmp(first, "filter")) {
		gen_fn = task_name;
	} else if ((!strcmp(first, "step-next") || !strcmp(first, "break")) && nw >= 1 &&
		   !strchr(text, '=')) {
		gen_fn = event_name;
	} else if (!strcmp(first, "goto")) {
		gen_fn = cp_name;
	} else if (!strcmp(first, "speed")) {
		gen_list = speeds, gen_n = (int)ARRAY_SIZE(speeds);
	} else if (!strcmp(first, "help")) {
		gen_fn = cmd_name;
	} else {
		return NULL;
	}
	return rl_completion_matches(text, generator);
}

static void show_matches(char **m, int n, int max_len)
{
	size_t len = 0;

	matches_text[0] = 0;
	for (int i = 1; i <= n && len + 2 < sizeof(matches_text); i++)
		len += (size_t)snprintf(matches_text + len, sizeof(matches_text) - len, "%s  ", m[i]);
}

const char *console_matches(void)
{
	return matches_text;
}

void console_init(struct ui *ui)
{
	cui = ui;
	if (devnull)
		return;
	devnull = fopen("/dev/null", "w");
	rl_readline_name = "schedscope";
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	rl_change_environment = 0;
	rl_instream = stdin;
	rl_outstream = devnull;
	rl_getc_function = con_getc;
	rl_input_available_hook = con_available;
	rl_redisplay_function = con_redisplay;
	rl_prep_term_function = con_prep;
	rl_deprep_term_function = con_deprep;
	rl_attempted_completion_function = complete;
	rl_completion_display_matches_hook = show_matches;
	rl_completion_append_character = ' ';
	rl_initialize();
	rl_variable_bind("bell-style", "none");
	rl_variable_bind("enable-bracketed-paste", "off");
	using_history();
	stifle_history(500);
}

void console_fini(void)
{
	if (active)
		rl_callback_handler_remove();
	active = false;
}

bool console_active(void)
{
	return active;
}

void console_open(const char *text)
{
	q_head = q_tail = 0;
	matches_text[0] = 0;
	rl_callback_handler_install(":", on_line);
	active = true;
	if (text && *text) {
		rl_insert_text(text);
		rl_point = rl_end;
	}
}

static void push(const char *s, size_t n)
{
	for (size_t i = 0; i < n && q_tail - q_head < sizeof(queue); i++)
		queue[q_tail++ % sizeof(queue)] = (unsigned char)s[i];
}

static void cancel(void)
{
	rl_replace_line("", 0);
	rl_point = rl_end = 0;
	rl_callback_handler_remove();
	active = false;
	matches_text[0] = 0;
}

void console_key(const struct input_key *k)
{
	static const struct {
		const char *name;
		const char *bytes;
	} map[] = {
		{ "Enter", "\r" }, { "Tab", "\t" }, { "Backspace", "\x7f" },
		{ "Left", "\x02" }, { "Right", "\x06" }, { "Up", "\x10" }, { "Down", "\x0e" },
		{ "Home", "\x01" }, { "End", "\x05" },
	};

	if (!active || k->mouse)
		return;
	if (!strcmp(k->name, "Escape") || !strcmp(k->name, "C-c") || !strcmp(k->name, "C-g")) {
		cancel();
		return;
	}
	if (!strcmp(k->name, "Delete")) {
		if (rl_point < rl_end)
			push("\x04", 1);
	} else if (!strcmp(k->name, "Backspace") && rl_end == 0) {
		cancel();	/* backspace over the ':' closes, as in vim */
		return;
	} else if (k->utf8[0] && !k->ctrl && !k->alt) {
		push(k->utf8, strlen(k->utf8));
	} else if (k->ctrl && !k->alt && k->code > 0 && k->code < 32) {
		char c = (char)k->code;
		if (c == 4 && rl_end == 0)
			return;
		push(&c, 1);
	} else if (k->alt && k->utf8[0]) {
		push("\033", 1);
		push(k->utf8, strlen(k->utf8));
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(map); i++)
			if (!strcmp(k->name, map[i].name))
				push(map[i].bytes, strlen(map[i].bytes));
	}
	if (strcmp(k->name, "Tab"))
		matches_text[0] = 0;
	while (active && q_head != q_tail)
		rl_callback_read_char();
	q_head = q_tail = 0;
}

/* Columns of the UTF-8 text s[0..n). */
static int columns(const char *s, int n)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

int console_draw(struct cellbuf *cb, int y)
{
	if (!active)
		return -1;
	const char *line = rl_line_buffer ? rl_line_buffer : "";
	int w = cb->w, len = rl_end, point = rl_point;
	int cur = 1 + columns(line, point);
	int skip = 0;	/* bytes scrolled off the left */

	cb_fill(cb, (struct rect){ 0, y, w, 1 }, ' ', STYLE_PLAIN);
	while (cur - columns(line, skip) >= w - 1 && skip < len) {
		skip++;
		while (skip < len && ((unsigned char)line[skip] & 0xc0) == 0x80)
			skip++;
	}
	cb_print(cb, 0, y, 1, (struct style){ C_YELLOW, COLOR_DEFAULT, A_BOLD_ }, ":");
	cb_print(cb, 1, y, w - 1, STYLE_PLAIN, "%.*s", len - skip, line + skip);
	return cur - columns(line, skip);
}
