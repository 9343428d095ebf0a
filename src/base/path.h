/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paths as a shell would read them where no shell does: the console's file
 * arguments (`:trace ~/x.json`) get the tilde expansion the command line
 * gets from the shell.
 */
#ifndef SRC_BASE_PATH_H
#define SRC_BASE_PATH_H

#include <stddef.h>

/*
 * `~` and `~/...` become $HOME (or the password file's home), `~user` and
 * `~user/...` that user's home; anything else is copied. 0, or -1 with the
 * reason in err (no such user, no home, too long).
 */
int path_expand(const char *in, char *out, size_t len, char *err, size_t errlen);

#endif
