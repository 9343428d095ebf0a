/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keys and mouse from the terminal (libtermkey), and the keymap: every key
 * is bound to a console command string, rebindable with `bind KEY COMMAND`.
 *
 * Key names: a printable character is itself ("q", ".", "?"), and the
 * special keys are "Space", "Tab", "Enter", "Escape", "Backspace",
 * "Delete", "Up", "Down", "Left", "Right", "PageUp", "PageDown", "Home",
 * "End", "Insert", "F1".."F12"; "C-x" is Ctrl, "M-x" Alt, "S-Tab" Shift.
 */
#ifndef UI_INPUT_H
#define UI_INPUT_H

#include <stdbool.h>
#include <stddef.h>

struct input_key {
	char name[32];		/* as above: the keymap's key */
	int code;		/* for views: the code point, or an ncurses KEY_* */
	char utf8[8];		/* the text a printable key types, "" otherwise */
	bool ctrl, alt, shift;
	bool mouse;		/* a mouse press: x, y are the cell (0-based) */
	int button;		/* 1 left, 2 middle, 3 right, 4/5 wheel up/down */
	int x, y;
};

int input_init(void);
void input_fini(void);
/*
 * Wait up to timeout_ms (-1: forever, blocking: no CPU) for a key.
 * 1: *k holds a key; 0: timeout or a signal arrived; -1: input closed.
 */
int input_wait(struct input_key *k, int timeout_ms);

/* ---- the keymap ---- */

struct keymap;

/* The default bindings; view keys 1..9 follow the view table. */
void keymap_reset(struct keymap *km);
void keymap_free(struct keymap *km);
/* The command of a key, NULL when unbound. */
const char *keymap_lookup(struct keymap *km, const char *key);
/* Bind (an empty command unbinds); -1 with a message on a bad key name. */
int keymap_bind(struct keymap *km, const char *key, const char *command, char *err, size_t errlen);
/* Binding i of km->nr. */
void keymap_get(const struct keymap *km, int i, const char **key, const char **command);
/* A key name made canonical ("space" -> "Space", "^C" -> "C-c"); false if unknown. */
bool keymap_canon(const char *in, char *out, size_t len);

#endif
