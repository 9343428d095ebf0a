// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope ext build SOURCE.c [-o OUT.so] [CFLAGS...]`: compile an ext
 * policy with the flags a plug-in needs and check it as the loader will.
 * `schedscope ext check FILE.so`: only the check.
 * `schedscope ext cflags`: the flags, for a Makefile rule.
 * See schedscope-ext(7).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched/api/ext.h"
#include "cli.h"
#include "src/base/mem.h"
#include "src/format/ext_policy.h"

#ifndef SCHEDSCOPE_INCLUDEDIR
#define SCHEDSCOPE_INCLUDEDIR "/usr/local/include"
#endif

/* What every policy is built with: a shared object without start files (so no data of their own). */
static const char *const ext_cflags[] = {
	"-std=gnu11",
	"-O2",
	"-g",
	"-Wall",
	"-Wextra",
	"-Wno-unused-parameter",
	"-fPIC",
	"-shared",
	"-nostartfiles",
	"-fvisibility=hidden",
};

static bool has_header(const char *dir)
{
	char path[PATH_MAX + 64];
	int k = snprintf(path, sizeof(path), "%.*s/schedscope/ext.h", PATH_MAX, dir);

	return k > 0 && (size_t)k < sizeof(path) && access(path, R_OK) == 0;
}

/*
 * Where <schedscope/ext.h> is: next to this program in a build tree
 * (build/include), above it when installed (bin/../include), or the
 * configured include directory.
 */
static int include_dir(char *out, size_t len)
{
	char exe[PATH_MAX], dir[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *const rel[] = { "/include", "/build/include", "/../include" };

	if (n > 0) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(dir, sizeof(dir), "%s%s", exe, rel[i]);
			if (has_header(dir) && realpath(dir, out))
				return 0;
		}
	}
	if (has_header(SCHEDSCOPE_INCLUDEDIR)) {
		snprintf(out, len, "%s", SCHEDSCOPE_INCLUDEDIR);
		return 0;
	}
	fprintf(stderr,
		"schedscope: <schedscope/ext.h> not found next to this program nor in %s "
		"(make install puts it there)\n",
		SCHEDSCOPE_INCLUDEDIR);
	return -1;
}

static int ext_check(const char *path)
{
	struct ext_policy pol;
	char err[1024];

	if (ext_policy_load(path, &pol, err, sizeof(err)) < 0) {
		fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	fprintf(stderr, "schedscope: %s: policy \"%s\" loads\n", path, pol.ops->name);
	ext_policy_unload(&pol);
	return 0;
}

static int ext_cflags_cmd(void)
{
	char inc[PATH_MAX];

	if (include_dir(inc, sizeof(inc)) < 0)
		return 2;
	for (size_t i = 0; i < sizeof(ext_cflags) / sizeof(ext_cflags[0]); i++)
		printf("%s ", ext_cflags[i]);
	printf("-I%s\n", inc);
	return 0;
}

/* Run argv, return its exit status (127 if it could not start). */
static int run(char **argv)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 127;
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "schedscope: cannot run %s\n", argv[0]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int ext_build(int argc, char **argv)
{
	const char *src = NULL, *out = NULL, *cc = getenv("CC");
	char inc[PATH_MAX + 2], outbuf[PATH_MAX];
	char **cmd = xcalloc((size_t)argc + 32, sizeof(*cmd));
	int n = 0, rc;

	/* SOURCE.c is the first argument not an option; -o OUT; the rest goes to the compiler */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!src && argv[i][0] != '-')
			src = argv[i];
	}
	if (!src) {
		free(cmd);
		return cli_usage_error("ext build needs a SOURCE.c");
	}
	if (!out) {
		size_t len = strlen(src);

		snprintf(outbuf, sizeof(outbuf), "%.*s.so",
			 (int)(len > 2 && !strcmp(src + len - 2, ".c") ? len - 2 : len), src);
		out = outbuf;
	}
	strcpy(inc, "-I");
	if (include_dir(inc + 2, sizeof(inc) - 2) < 0) {
		free(cmd);
		return 2;
	}
	cmd[n++] = (char *)(cc && *cc ? cc : "cc");
	for (size_t i = 0; i < sizeof(ext_cflags) / sizeof(ext_cflags[0]); i++)
		cmd[n++] = (char *)ext_cflags[i];
	cmd[n++] = inc;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			i++;
		else if (argv[i] != src)
			cmd[n++] = argv[i];
	}
	cmd[n++] = "-o";
	cmd[n++] = (char *)out;
	cmd[n++] = (char *)src;
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? " " : "", cmd[i]);
	fputc('\n', stderr);
	rc = run(cmd);
	free(cmd);
	if (rc)
		return rc;
	return ext_check(out);
}

int cmd_ext(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("ext needs build, check or cflags");
	if (!strcmp(argv[1], "build"))
		return ext_build(argc - 2, argv + 2);
	if (!strcmp(argv[1], "check")) {
		if (argc != 3)
			return cli_usage_error("ext check needs one FILE.so");
		return ext_check(argv[2]);
	}
	if (!strcmp(argv[1], "cflags"))
		return argc == 2 ? ext_cflags_cmd() : cli_usage_error("ext cflags takes no arguments");
	return cli_usage_error("unknown ext command '%s' (expected build, check or cflags)", argv[1]);
}
