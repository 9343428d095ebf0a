// SPDX-License-Identifier: GPL-2.0
/* ncurses output of a cellbuf, terminal set-up and restore, signals. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "screen.h"

volatile sig_atomic_t screen_quit_requested;
volatile sig_atomic_t screen_resized;

static SCREEN *scr;
static bool active;
static int ncolors;
static struct cellbuf prev;
static struct termios orig_tio;
static bool have_tio;
/* What a fatal signal writes to leave the terminal usable: prepared in
 * advance, because a signal handler may only write(2) and tcsetattr(3). */
static char reset_seq[256];
static size_t reset_len;

static void emergency_restore(void)
{
	if (!active)
		return;
	if (reset_len && write(STDOUT_FILENO, reset_seq, reset_len) < 0) {
		/* nothing left to do about it */
	}
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &orig_tio);
}

static void on_quit(int sig)
{
	screen_quit_requested = sig;
}

static void on_winch(int sig)
{
	screen_resized = 1;
}

static void on_fatal(int sig)
{
	emergency_restore();
	active = false;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void handle(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: a signal wakes the input wait */
	sigaction(sig, &sa, NULL);
}

static void add_reset(const char *cap)
{
	char *s = tigetstr((char *)cap);

	if (s && s != (char *)-1 && reset_len + strlen(s) < sizeof(reset_seq)) {
		memcpy(reset_seq + reset_len, s, strlen(s));
		reset_len += strlen(s);
	}
}

static void at_exit(void)
{
	screen_fini();
}

int screen_init(int colors)
{
	static bool registered;

	if (active)
		return ncolors;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -1;
	setlocale(LC_CTYPE, "");
	have_tio = tcgetattr(STDIN_FILENO, &orig_tio) == 0;

	/* ours first: ncurses then leaves these signals alone */
	handle(SIGINT, on_quit);
	handle(SIGTERM, on_quit);
	handle(SIGHUP, on_quit);
	handle(SIGWINCH, on_winch);
	handle(SIGSEGV, on_fatal);
	handle(SIGBUS, on_fatal);
	handle(SIGFPE, on_fatal);
	handle(SIGILL, on_fatal);
	handle(SIGABRT, on_fatal);

	scr = newterm(NULL, stdout, stdin);
	if (!scr)
		return -1;
	set_term(scr);
	raw();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	leaveok(stdscr, FALSE);
	curs_set(0);

	const char *nc = getenv("NO_COLOR");
	if (colors < 0) {
		if ((nc && *nc) || !has_colors())
			colors = 0;
		else {
			start_color();
			colors = COLORS >= 256 ? 256 : COLORS >= 8 ? 16 : 0;
		}
	} else if (colors && has_colors()) {
		start_color();
		if (colors == 256 && COLORS < 256)
			colors = 16;
		if (COLORS < 8)
			colors = 0;
	} else {
		colors = 0;
	}
	if (colors)
		use_default_colors();
	ncolors = colors;

	reset_len = 0;
	const char *mouse_off = "\033[?1006l\033[?1000l";
	memcpy(reset_seq, mouse_off, strlen(mouse_off));
	reset_len = strlen(mouse_off);
	add_reset("sgr0");
	add_reset("cnorm");
	add_reset("rmcup");

	if (!registered) {
		atexit(at_exit);
		registered = true;
	}
	active = true;
	screen_invalidate();
	return ncolors;
}

void screen_fini(void)
{
	if (!active)
		return;
	screen_raw("\033[?1006l\033[?1000l");
	curs_set(1);
	endwin();
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSANOW, &orig_tio);
	delscreen(scr);
	scr = NULL;
	active = false;
	cb_free(&prev);
	fflush(stdout);
}

bool screen_active(void)
{
	return active;
}

void screen_size(int *w, int *h)
{
	*w = COLS;
	*h = LINES;
}

bool screen_handle_resize(void)
{
	struct winsize ws;

	screen_resized = 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col || !ws.ws_row)
		return false;
	if (ws.ws_col == COLS && ws.ws_row == LINES)
		return false;
	resize_term(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
	screen_invalidate();
	return true;
}

void screen_invalidate(void)
{
	cb_free(&prev);
}

void screen_raw(const char *s)
{
	fflush(stdout);
	if (write(STDOUT_FILENO, s, strlen(s)) < 0) {
		/* the terminal is gone; nothing to do */
	}
}

static int pair_for(int fg, int bg, attr_t *attr)
{
	if (!ncolors || (fg < 0 && bg < 0))
		return 0;
	if (ncolors == 16) {
		if (fg >= 0)
			fg = cb_color16(fg);
		if (bg >= 0)
			bg = cb_color16(bg);
		if (COLORS < 16) {
			if (fg >= 8) {
				fg -= 8;
				*attr |= A_BOLD;
			}
			if (bg >= 8)
				bg -= 8;
		}
	}
	int p = alloc_pair(fg, bg);
	return p < 0 ? 0 : p;
}

static bool cell_eq(const struct cell *a, const struct cell *b)
{
	return a->ch == b->ch && a->st.fg == b->st.fg && a->st.bg == b->st.bg &&
	       a->st.attr == b->st.attr;
}

void screen_blit(const struct cellbuf *cb, int cx, int cy)
{
	if (!active)
		return;
	if (!prev.cell || prev.w != cb->w || prev.h != cb->h) {
		cb_free(&prev);
		cb_init(&prev, cb->w, cb->h);
		for (int i = 0; i < prev.w * prev.h; i++)
			prev.cell[i].ch = 0xffffffffu;	/* differs from everything */
		clearok(curscr, TRUE);
	}
	for (int y = 0; y < cb->h && y < LINES; y++) {
		for (int x = 0; x < cb->w && x < COLS; x++) {
			const struct cell *c = &cb->cell[y * cb->w + x];
			struct cell *p = &prev.cell[y * cb->w + x];

			if (cell_eq(c, p))
				continue;
			*p = *c;
			if (!c->ch)
				continue;	/* the right half of a wide character */
			attr_t a = 0;
			if (c->st.attr & A_BOLD_)
				a |= A_BOLD;
			if (c->st.attr & A_REVERSE_)
				a |= A_REVERSE;
			if (c->st.attr & A_UNDERLINE_)
				a |= A_UNDERLINE;
			if (c->st.attr & A_DIM_)
				a |= A_DIM;
			int pair = pair_for(c->st.fg, c->st.bg, &a);
			wchar_t wc[2] = { (wchar_t)c->ch, 0 };
			cchar_t cc;

			setcchar(&cc, wc, a, 0, &pair);
			mvadd_wch(y, x, &cc);
			/* a wide character redrawn: its right half is current too */
			if (x + 1 < cb->w && !cb->cell[y * cb->w + x + 1].ch)
				prev.cell[y * cb->w + x + 1] = cb->cell[y * cb->w + x + 1];
		}
	}
	if (cx >= 0 && cy >= 0 && cx < COLS && cy < LINES) {
		curs_set(1);
		move(cy, cx);
	} else {
		curs_set(0);
	}
	refresh();
}

void screen_draw_too_small(struct cellbuf *cb)
{
	static const char msg[] = "terminal too small: need 80x24";
	struct style st = { C_YELLOW, COLOR_DEFAULT, A_BOLD_ };
	int y = cb->h / 2 - 1;

	cb_clear(cb);
	if (y < 0)
		y = 0;
	int x = (cb->w - (int)strlen(msg)) / 2;
	cb_print(cb, x < 0 ? 0 : x, y, cb->w, st, "%s", msg);
	char now[40];
	snprintf(now, sizeof(now), "now %dx%d", cb->w, cb->h);
	x = (cb->w - (int)strlen(now)) / 2;
	cb_print(cb, x < 0 ? 0 : x, y + 1, cb->w, STYLE_PLAIN, "%s", now);
}
