// SPDX-License-Identifier: GPL-2.0
/* Tilde expansion for paths typed where no shell reads them: see path.h. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path.h"

/* The home of `user` (the empty name: this user's, $HOME first, as sh does). */
static const char *home_of(const char *user, size_t n)
{
	struct passwd *pw;
	char name[256];

	if (!n) {
		const char *home = getenv("HOME");

		if (home && *home)
			return home;
		pw = getpwuid(getuid());
	} else {
		if (n >= sizeof(name))
			return NULL;
		memcpy(name, user, n);
		name[n] = 0;
		pw = getpwnam(name);
	}
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

int path_expand(const char *in, char *out, size_t len, char *err, size_t errlen)
{
	const char *rest = in;
	const char *home = "";
	int k;

	if (in[0] == '~') {
		rest = strchr(in, '/');
		if (!rest)
			rest = in + strlen(in);
		home = home_of(in + 1, (size_t)(rest - in - 1));
		if (!home) {
			if (rest == in + 1)
				snprintf(err, errlen, "%s: no home folder to expand '~' to (HOME is not set)",
					 in);
			else
				snprintf(err, errlen, "%s: no user '%.*s' to expand '~%.*s' for", in,
					 (int)(rest - in - 1), in + 1, (int)(rest - in - 1), in + 1);
			return -1;
		}
	}
	k = snprintf(out, len, "%s%s", home, rest);
	if (k < 0 || (size_t)k >= len) {
		snprintf(err, errlen, "%.64s...: the path is too long", in);
		return -1;
	}
	return 0;
}
