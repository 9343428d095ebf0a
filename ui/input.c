// SPDX-License-Identifier: GPL-2.0
/* Keys and mouse through libtermkey; the keymap. */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termkey.h>

#include "src/base/mem.h"
#include "input.h"
#include "screen.h"
#include "ui.h"


static TermKey *tk;

int input_init(void)
{
	tk = termkey_new(0, TERMKEY_FLAG_CTRLC | TERMKEY_FLAG_SPACESYMBOL);
	if (!tk)
		return -1;
	/* clicks, SGR coordinates (no 223-column limit) */
	screen_raw("\033[?1000h\033[?1006h");
	return 0;
}

void input_fini(void)
{
	if (!tk)
		return;
	screen_raw("\033[?1006l\033[?1000l");
	termkey_destroy(tk);
	tk = NULL;
}

static const struct {
	TermKeySym sym;
	const char *name;
	int code;
} syms[] = {
	{ TERMKEY_SYM_SPACE, "Space", ' ' },
	{ TERMKEY_SYM_TAB, "Tab", '\t' },
	{ TERMKEY_SYM_ENTER, "Enter", '\n' },
	{ TERMKEY_SYM_ESCAPE, "Escape", 27 },
	{ TERMKEY_SYM_BACKSPACE, "Backspace", KEY_BACKSPACE },
	{ TERMKEY_SYM_DEL, "Backspace", KEY_BACKSPACE },
	{ TERMKEY_SYM_DELETE, "Delete", KEY_DC },
	{ TERMKEY_SYM_UP, "Up", KEY_UP },
	{ TERMKEY_SYM_DOWN, "Down", KEY_DOWN },
	{ TERMKEY_SYM_LEFT, "Left", KEY_LEFT },
	{ TERMKEY_SYM_RIGHT, "Right", KEY_RIGHT },
	{ TERMKEY_SYM_PAGEUP, "PageUp", KEY_PPAGE },
	{ TERMKEY_SYM_PAGEDOWN, "PageDown", KEY_NPAGE },
	{ TERMKEY_SYM_HOME, "Home", KEY_HOME },
	{ TERMKEY_SYM_END, "End", KEY_END },
	{ TERMKEY_SYM_INSERT, "Insert", KEY_IC },
	{ TERMKEY_SYM_KPENTER, "Enter", '\n' },
};

static void mod_prefix(char *out, size_t len, const struct input_key *k, const char *base)
{
	snprintf(out, len, "%s%s%s%s", k->ctrl ? "C-" : "", k->alt ? "M-" : "",
		 k->shift ? "S-" : "", base);
}

/* TermKeyKey to input_key; false for keys we ignore. */
static bool convert(const TermKeyKey *tkk, struct input_key *k)
{
	memset(k, 0, sizeof(*k));
	k->ctrl = tkk->modifiers & TERMKEY_KEYMOD_CTRL;
	k->alt = tkk->modifiers & TERMKEY_KEYMOD_ALT;
	k->shift = tkk->modifiers & TERMKEY_KEYMOD_SHIFT;
	switch (tkk->type) {
	case TERMKEY_TYPE_UNICODE: {
		long cp = tkk->code.codepoint;

		k->shift = false;	/* already in the character */
		if (k->ctrl && cp < 128) {
			char c = (char)(cp >= 'A' && cp <= 'Z' ? cp - 'A' + 'a' : cp);
			char b[2] = { c, 0 };
			mod_prefix(k->name, sizeof(k->name), k, b);
			k->code = (int)(cp & 0x1f);
			return true;
		}
		k->code = (int)cp;
		memcpy(k->utf8, tkk->utf8, sizeof(k->utf8) - 1);
		mod_prefix(k->name, sizeof(k->name), k, tkk->utf8);
		return true;
	}
	case TERMKEY_TYPE_FUNCTION: {
		char b[8];
		snprintf(b, sizeof(b), "F%d", tkk->code.number);
		mod_prefix(k->name, sizeof(k->name), k, b);
		k->code = KEY_F(tkk->code.number);
		return true;
	}
	case TERMKEY_TYPE_KEYSYM:
		for (size_t i = 0; i < ARRAY_SIZE(syms); i++) {
			if (syms[i].sym == tkk->code.sym) {
				mod_prefix(k->name, sizeof(k->name), k, syms[i].name);
				k->code = syms[i].code;
				if (tkk->code.sym == TERMKEY_SYM_SPACE && !k->ctrl && !k->alt)
					strcpy(k->utf8, " ");
				return true;
			}
		}
		return false;
	case TERMKEY_TYPE_MOUSE: {
		TermKeyMouseEvent ev;
		int button, line, col;

		termkey_interpret_mouse(tk, tkk, &ev, &button, &line, &col);
		if (ev != TERMKEY_MOUSE_PRESS)
			return false;
		k->mouse = true;
		k->button = button;
		k->x = col - 1;
		k->y = line - 1;
		k->code = KEY_MOUSE;
		snprintf(k->name, sizeof(k->name), "Mouse%d", button);
		return true;
	}
	default:
		return false;
	}
}

int input_wait(struct input_key *k, int timeout_ms)
{
	TermKeyKey key;

	if (!tk)
		return -1;
	for (;;) {
		TermKeyResult r = termkey_getkey(tk, &key);

		if (r == TERMKEY_RES_KEY) {
			if (convert(&key, k))
				return 1;
			continue;
		}
		if (r == TERMKEY_RES_EOF)
			return -1;
		int t = timeout_ms;
		if (r == TERMKEY_RES_AGAIN) {
			int wt = termkey_get_waittime(tk);
			if (t < 0 || wt < t)
				t = wt;
		}
		struct pollfd pfd = { .fd = termkey_get_fd(tk), .events = POLLIN };
		int n = poll(&pfd, 1, t);
		if (n < 0)
			return errno == EINTR ? 0 : -1;
		if (n == 0) {
			if (r == TERMKEY_RES_AGAIN && termkey_getkey_force(tk, &key) == TERMKEY_RES_KEY &&
			    convert(&key, k))
				return 1;
			return 0;
		}
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL) && !(pfd.revents & POLLIN))
			return -1;
		termkey_advisereadable(tk);
		if (termkey_getkey(tk, &key) == TERMKEY_RES_KEY && convert(&key, k))
			return 1;
		/* a partial sequence: go round; a lone ESC is forced out after waittime */
		if (termkey_getkey(tk, &key) == TERMKEY_RES_NONE)
			return 0;
	}
}

/* ---- keymap ---- */

struct key_binding {
	char key[32];
	char *cmd;
};

static const char *const special[] = {
	"Space", "Tab", "Enter", "Escape", "Backspace", "Delete", "Up", "Down", "Left", "Right",
	"PageUp", "PageDown", "Home", "End", "Insert",
};

bool keymap_canon(const char *in, char *out, size_t len)
{
	char buf[64], mods[16] = "";
	const char *p = in;
	size_t n = strlen(in);

	if (n >= 2 && in[0] == '<' && in[n - 1] == '>' && n - 2 < sizeof(buf)) {
		memcpy(buf, in + 1, n - 2);
		buf[n - 2] = 0;
		p = buf;
	}
	if (p[0] == '^' && p[1] && !p[2]) {
		snprintf(out, len, "C-%c", p[1] >= 'A' && p[1] <= 'Z' ? p[1] - 'A' + 'a' : p[1]);
		return true;
	}
	/* modifiers: C- M- S- (also Ctrl-, Alt-, Shift-) */
	for (;;) {
		if (!strncasecmp(p, "C-", 2) && p[2]) {
			strcat(mods, "C-"), p += 2;
		} else if (!strncasecmp(p, "Ctrl-", 5) && p[5]) {
			strcat(mods, "C-"), p += 5;
		} else if (!strncasecmp(p, "M-", 2) && p[2]) {
			strcat(mods, "M-"), p += 2;
		} else if (!strncasecmp(p, "Alt-", 4) && p[4]) {
			strcat(mods, "M-"), p += 4;
		} else if (!strncasecmp(p, "S-", 2) && p[2]) {
			strcat(mods, "S-"), p += 2;
		} else if (!strncasecmp(p, "Shift-", 6) && p[6]) {
			strcat(mods, "S-"), p += 6;
		} else {
			break;
		}
		if (strlen(mods) > 8)
			return false;
	}
	/* one character (a UTF-8 sequence counts as one) */
	size_t cl = strlen(p);
	if (cl == 1 || (cl <= 4 && (unsigned char)p[0] >= 0xc0 &&
			(cl == (size_t)(1 + ((unsigned char)p[0] >= 0xe0) + ((unsigned char)p[0] >= 0xf0))))) {
		if (p[0] == ' ') {
			snprintf(out, len, "%sSpace", mods);
			return true;
		}
		if (strchr(mods, 'C') && p[0] >= 'A' && p[0] <= 'Z') {
			snprintf(out, len, "%s%c", mods, p[0] - 'A' + 'a');
			return true;
		}
		snprintf(out, len, "%s%s", mods, p);
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(special); i++)
		if (!strcasecmp(p, special[i])) {
			snprintf(out, len, "%s%s", mods, special[i]);
			return true;
		}
	if (!strcasecmp(p, "Esc")) {
		snprintf(out, len, "%sEscape", mods);
		return true;
	}
	if (!strcasecmp(p, "Return") || !strcasecmp(p, "CR")) {
		snprintf(out, len, "%sEnter", mods);
		return true;
	}
	if ((p[0] == 'F' || p[0] == 'f') && p[1]) {
		char *end;
		long f = strtol(p + 1, &end, 10);
		if (!*end && f >= 1 && f <= 24) {
			snprintf(out, len, "%sF%ld", mods, f);
			return true;
		}
	}
	return false;
}

static struct key_binding *find(struct keymap *km, const char *key)
{
	for (int i = 0; i < km->nr; i++)
		if (!strcmp(km->map[i].key, key))
			return &km->map[i];
	return NULL;
}

static void set(struct keymap *km, const char *key, const char *cmd)
{
	struct key_binding *b = find(km, key);

	if (b) {
		free(b->cmd);
	} else {
		XGROW(km->map, km->cap, km->nr);
		b = &km->map[km->nr++];
		snprintf(b->key, sizeof(b->key), "%s", key);
	}
	b->cmd = xstrdup(cmd);
}

static void unset(struct keymap *km, const char *key)
{
	struct key_binding *b = find(km, key);

	if (!b)
		return;
	free(b->cmd);
	int i = (int)(b - km->map);
	memmove(&km->map[i], &km->map[i + 1], (size_t)(km->nr - i - 1) * sizeof(*km->map));
	km->nr--;
}

void keymap_free(struct keymap *km)
{
	for (int i = 0; i < km->nr; i++)
		free(km->map[i].cmd);
	free(km->map);
	memset(km, 0, sizeof(*km));
}

void keymap_reset(struct keymap *km)
{
	static const char *const defaults[][2] = {
		{ "Space", "toggle-pause" },
		{ ".", "step" },
		{ ",", "back" },
		{ ">", "step 10" },
		{ "<", "back 10" },
		{ "]", "step-next switch" },
		{ "}", "step-next migrate" },
		{ "w", "step-next wakeup" },
		{ "+", "speed up" },
		{ "=", "speed up" },
		{ "-", "speed down" },
		{ "g", "prompt goto " },
		{ "b", "prompt break " },
		{ "f", "prompt filter " },
		{ "/", "prompt search " },
		{ "c", "checkpoint" },
		{ ":", "prompt" },
		{ "Up", "select task prev" },
		{ "Down", "select task next" },
		{ "Left", "select cpu prev" },
		{ "Right", "select cpu next" },
		{ "Tab", "view next" },
		{ "S-Tab", "view prev" },
		{ "s", "side next" },
		{ "Escape", "select none" },
		{ "n", "select group next" },
		{ "N", "select group prev" },
		{ "u", "select group up" },
		{ "o", "pane other" },
		{ "|", "split toggle" },
		{ "d", "diverge next" },
		{ "D", "diff toggle" },
		{ "?", "help" },
		{ "F1", "help" },
		{ "q", "quit" },
		{ "C-c", "quit" },
		{ "C-l", "redraw" },
	};

	keymap_free(km);
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++)
		set(km, defaults[i][0], defaults[i][1]);
	for (int i = 0; i < ui_nr_views && i < 9; i++) {
		char key[2] = { (char)('1' + i), 0 }, cmd[64];

		snprintf(cmd, sizeof(cmd), "view %s", ui_views[i]->name);
		set(km, key, cmd);
	}
}

const char *keymap_lookup(struct keymap *km, const char *key)
{
	struct key_binding *b = find(km, key);

	return b ? b->cmd : NULL;
}

int keymap_bind(struct keymap *km, const char *key, const char *command, char *err, size_t errlen)
{
	char canon[32];

	if (!keymap_canon(key, canon, sizeof(canon))) {
		snprintf(err, errlen, "bind: unknown key '%s' (e.g. x, C-x, F5, Space, PageUp)", key);
		return -1;
	}
	if (!*command)
		unset(km, canon);
	else
		set(km, canon, command);
	return 0;
}

void keymap_get(const struct keymap *km, int i, const char **key, const char **command)
{
	*key = km->map[i].key;
	*command = km->map[i].cmd;
}
