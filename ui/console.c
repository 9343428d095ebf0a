// SPDX-License-Identifier: GPL-2.0
/* The `:` console: readline's callback interface inside the curses screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "commands.h"
#include "console.h"
#include "src/base/mem.h"
#include "src/format/breakpoint.h"

/*
 * readline is one per process and its callbacks take no context: the
 * console it serves is reached through this pointer, set while one is open
 * (terminal state, like the screen's). Its state lives in struct console.
 */
static struct console *rl_con;
static FILE *devnull;

static int con_getc(FILE *f)
{
	struct console *c = rl_con;

	if (c->q_head == c->q_tail)
		return EOF;
	return c->queue[c->q_head++ % sizeof(c->queue)];
}

static int con_available(void)
{
	return rl_con->q_head != rl_con->q_tail;
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
	struct console *c = rl_con;

	rl_callback_handler_remove();
	c->active = false;
	c->matches[0] = 0;
	if (!line)
		return;		/* C-d on an empty line */
	if (*line) {
		HIST_ENTRY *last = history_length ? history_get(history_base + history_length - 1) : NULL;
		if (!last || strcmp(last->line, line))
			add_history(line);
		ui_command(c->ui, line);
	}
	free(line);
}

/* ---- completion: readline asks a generator for one candidate at a time ---- */

static const char *cmd_name(int i)
{
	return i < ui_nr_commands() ? ui_command_get(i)->name : NULL;
}

static const char *task_name(int i)
{
	const struct ui_run *run = ui_focus(rl_con->ui)->run;

	return i < run->f->sc.nr_tasks ? run->f->sc.task[i].name : NULL;
}

static const char *group_path(int i)
{
	const struct ui_run *run = ui_focus(rl_con->ui)->run;

	return i < run->f->sc.nr_groups ? run->f->sc.group[i].path : NULL;
}

static const char *view_name(int i)
{
	if (i < ui_nr_views)
		return ui_views[i]->name;
	static const char *const more[] = { "next", "prev", "none", "help" };
	i -= ui_nr_views;
	return i < (int)ARRAY_SIZE(more) ? more[i] : NULL;
}

/* the breakpoint language's own list, so that completion offers every condition */
static const char *event_name(int i)
{
	return breakpoint_cond_name(i);
}

static const char *level_name(int i)
{
	return breakpoint_key_value("level", i);
}

/* After a condition: its keys, then what joins another condition. */
static const char *cond_word(int i)
{
	const char *w = breakpoint_cond_word(rl_con->cond, i);
	int n = 0;

	while (breakpoint_cond_word(rl_con->cond, n))
		n++;
	if (w)
		return w;
	return i - n == 0 ? "and" : i - n == 1 ? "or" : NULL;
}

/* The events filter's words: the event words it takes, then task names. */
static const char *filter_word(int i)
{
	int n = 0;

	while (events_filter_word(n))
		n++;
	return i < n ? events_filter_word(i) : task_name(i - n);
}

static const char *sched_event_name(int i)
{
	return i < NR_SCHED_EVENTS ? sched_event_names[i] : NULL;
}

/* The key of the KEY=VALUE whose value starts at `start`, as a completion of its values. */
static const char *(*value_gen(int start))(int)
{
	static const struct {
		const char *key;
		const char *(*gen)(int i);
	} keys[] = { { "level", level_name },
		     { "group", group_path },
		     { "task", task_name },
		     { "prev", task_name },
		     { "next", task_name } };
	int k = start - 1;

	while (k > 0 && rl_line_buffer[k - 1] != ' ' && rl_line_buffer[k - 1] != '(')
		k--;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if ((int)strlen(keys[i].key) == start - 1 - k &&
		    !strncmp(rl_line_buffer + k, keys[i].key, strlen(keys[i].key)))
			return keys[i].gen;
	return NULL;
}

/*
 * The breakpoint language (break, step-next): a condition first and after
 * `and`, `or` and `(`; after a condition its keys (then and, or); after
 * KEY= the key's values; after `event` the events' names.
 */
static void break_complete(struct console *c, int start)
{
	const char *p = rl_line_buffer, *end = rl_line_buffer + start;
	char last[32] = "";
	bool in_cond = false;

	p += strcspn(p, " "); /* the command */
	while (p < end) {
		p += strspn(p, " (");
		size_t n = MIN(strcspn(p, " ("), (size_t)(end - p));
		if (!n)
			break;
		snprintf(last, sizeof(last), "%.*s", (int)MIN(n, sizeof(last) - 1), p);
		if (!strcmp(last, "and") || !strcmp(last, "or"))
			in_cond = false;
		else if (!in_cond)
			in_cond = true, snprintf(c->cond, sizeof(c->cond), "%s", last);
		p += n;
	}
	if (start > 0 && rl_line_buffer[start - 1] == '=')
		c->gen_fn = value_gen(start);
	else if (in_cond && !strcmp(last, "event") && !strcmp(c->cond, "event"))
		c->gen_fn = sched_event_name;
	else
		c->gen_fn = in_cond ? cond_word : event_name;
}

static const char *cp_name(int i)
{
	const struct sched_history *h = ui_focus(rl_con->ui)->run->h;
	int n = history_nr_checkpoints(h), k = 0;

	for (int j = 0; j < n; j++) {
		struct history_checkpoint_info ci;

		history_checkpoint_info(h, j, &ci);
		if (ci.name && k++ == i)
			return ci.name;
	}
	return NULL;
}

static char *generator(const char *text, int state)
{
	struct console *c = rl_con;
	size_t len = strlen(text);

	if (!state)
		c->gen_idx = 0;
	for (;;) {
		const char *s;

		if (c->gen_list)
			s = c->gen_idx < c->gen_n ? c->gen_list[c->gen_idx] : NULL;
		else
			s = c->gen_fn(c->gen_idx);
		if (!s)
			return NULL;
		c->gen_idx++;
		if (!strncmp(s, text, len))
			return xstrdup(s);
	}
}

static char **complete(const char *text, int start, int end)
{
	char first[32] = "", second[32] = "";
	int nw = 0;

	struct console *c = rl_con;

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
	static const char *const set_what[] = { "nice",	 "slice",   "policy", "cpus",
						"group", "tunable", "feature" };
	static const char *const speeds[] = { "up", "down", "max", "1", "0.1", "0.01", "1/1000", "1/10000" };

	c->gen_list = NULL;
	c->gen_fn = NULL;
	if (nw == 0) {
		c->gen_fn = cmd_name;
	} else if (!strcmp(first, "view") || !strcmp(first, "side")) {
		c->gen_fn = view_name;
	} else if (!strcmp(first, "select") && nw == 1) {
		c->gen_list = select_what, c->gen_n = (int)ARRAY_SIZE(select_what);
	} else if (!strcmp(first, "select") && !strcmp(second, "task")) {
		c->gen_fn = task_name;
	} else if ((!strcmp(first, "select") || !strcmp(first, "set")) && !strcmp(second, "group")) {
		c->gen_fn = group_path;
	} else if (!strcmp(first, "move")) {
		/* move task PATTERN to PATH: a path follows "to" */
		c->gen_fn = nw >= 4 ? group_path : task_name;
	} else if (!strcmp(first, "set") && nw == 1) {
		c->gen_list = set_what, c->gen_n = (int)ARRAY_SIZE(set_what);
	} else if (!strcmp(first, "filter")) {
		c->gen_fn = filter_word;
	} else if (!strcmp(first, "set")) {
		c->gen_fn = task_name;
	} else if (!strcmp(first, "step-next") || !strcmp(first, "break")) {
		break_complete(c, start);
		if (!c->gen_fn)
			return NULL;
	} else if (!strcmp(first, "goto")) {
		c->gen_fn = cp_name;
	} else if (!strcmp(first, "speed")) {
		c->gen_list = speeds, c->gen_n = (int)ARRAY_SIZE(speeds);
	} else if (!strcmp(first, "help")) {
		c->gen_fn = cmd_name;
	} else {
		return NULL;
	}
	char **m = rl_completion_matches(text, generator);
	/* a key's '=' is followed by its value, not a blank */
	if (m && !m[1] && *m[0] && m[0][strlen(m[0]) - 1] == '=')
		rl_completion_suppress_append = 1;
	return m;
}

static void show_matches(char **m, int n, int max_len)
{
	char *out = rl_con->matches;
	size_t len = 0, cap = sizeof(rl_con->matches);

	out[0] = 0;
	for (int i = 1; i <= n && len + 2 < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s  ", m[i]);
}

void console_init(struct console *c, struct ui *ui)
{
	memset(c, 0, sizeof(*c));
	c->ui = ui;
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

void console_fini(struct console *c)
{
	if (c->active)
		rl_callback_handler_remove();
	c->active = false;
	rl_con = NULL;
}

void console_open(struct console *c, const char *text)
{
	c->q_head = c->q_tail = 0;
	c->matches[0] = 0;
	rl_con = c;
	rl_callback_handler_install(":", on_line);
	c->active = true;
	if (text && *text) {
		rl_insert_text(text);
		rl_point = rl_end;
	}
}

/* The longest line typed: ui_command() takes at most 1023 bytes. */
#define CONSOLE_MAX_LINE 1023

static void push(struct console *c, const char *s, size_t n)
{
	for (size_t i = 0; i < n && c->q_tail - c->q_head < sizeof(c->queue); i++)
		c->queue[c->q_tail++ % sizeof(c->queue)] = (unsigned char)s[i];
}

static void cancel(struct console *c)
{
	rl_replace_line("", 0);
	rl_point = rl_end = 0;
	rl_callback_handler_remove();
	c->active = false;
	c->matches[0] = 0;
}

void console_key(struct console *c, const struct input_key *k)
{
	static const struct {
		const char *name;
		const char *bytes;
	} map[] = {
		{ "Enter", "\r" }, { "Tab", "\t" }, { "Backspace", "\x7f" },
		{ "Left", "\x02" }, { "Right", "\x06" }, { "Up", "\x10" }, { "Down", "\x0e" },
		{ "Home", "\x01" }, { "End", "\x05" },
	};

	if (!c->active || k->mouse)
		return;
	if (!strcmp(k->name, "Escape") || !strcmp(k->name, "C-c") || !strcmp(k->name, "C-g")) {
		cancel(c);
		return;
	}
	if (!strcmp(k->name, "Delete")) {
		if (rl_point < rl_end)
			push(c, "\x04", 1);
	} else if (!strcmp(k->name, "Backspace") && rl_end == 0) {
		cancel(c);	/* backspace over the ':' closes, as in vim */
		return;
	} else if (k->utf8[0] && !k->ctrl && !k->alt) {
		/* a paste of 100 KB stops where ui_command() would refuse the line */
		if ((size_t)rl_end + c->q_tail - c->q_head + strlen(k->utf8) > CONSOLE_MAX_LINE)
			return;
		push(c, k->utf8, strlen(k->utf8));
	} else if (k->ctrl && !k->alt && k->code > 0 && k->code < 32) {
		char ch = (char)k->code;
		if (ch == 4 && rl_end == 0)
			return;
		push(c, &ch, 1);
	} else if (k->alt && k->utf8[0]) {
		push(c, "\033", 1);
		push(c, k->utf8, strlen(k->utf8));
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(map); i++)
			if (!strcmp(k->name, map[i].name))
				push(c, map[i].bytes, strlen(map[i].bytes));
	}
	if (strcmp(k->name, "Tab"))
		c->matches[0] = 0;
	while (c->active && c->q_head != c->q_tail)
		rl_callback_read_char();
	c->q_head = c->q_tail = 0;
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

int console_draw(const struct console *c, struct cellbuf *cb, int y)
{
	if (!c->active)
		return -1;
	const char *line = rl_line_buffer ? rl_line_buffer : "";
	int w = cb->w, len = rl_end, point = rl_point;
	int cur = 1 + columns(line, point);
	int skip = 0, skipped = 0; /* bytes and columns scrolled off the left */

	cb_fill(cb, (struct rect){ 0, y, w, 1 }, ' ', STYLE_PLAIN);
	/* counted as it goes: columns(line, skip) each time was quadratic in the line */
	while (cur - skipped >= w - 1 && skip < len) {
		skipped += ((unsigned char)line[skip] & 0xc0) != 0x80;
		skip++;
		while (skip < len && ((unsigned char)line[skip] & 0xc0) == 0x80)
			skip++;
	}
	cb_print(cb, 0, y, 1, (struct style){ C_YELLOW, COLOR_DEFAULT, A_BOLD_ }, ":");
	cb_print(cb, 1, y, w - 1, STYLE_PLAIN, "%.*s", len - skip, line + skip);
	return cur - skipped;
}
