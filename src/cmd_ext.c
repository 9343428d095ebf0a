// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope ext build SOURCE.c [-o OUT.so] [CFLAGS...]`: compile an ext
 * policy with the flags a plug-in needs and check it as the loader will.
 * `schedscope ext check FILE.so`: only the check.
 * `schedscope ext cflags`: the flags, for a Makefile rule.
 * See schedscope-ext(7).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched/api/ext.h"
#include "cli.h"
#include "src/base/mem.h"
#include "src/base/outfile.h"
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

/* Checks the object at path as the loader will; messages name it `shown`. */
static int ext_check_as(const char *path, const char *shown)
{
	struct ext_policy pol;
	char err[1024];
	size_t n = strlen(path);

	if (ext_policy_load(path, &pol, err, sizeof(err)) < 0) {
		/* the loader names the file it read: say the user's name for it */
		if (!strncmp(err, path, n))
			fprintf(stderr, "schedscope: %s%s\n", shown, err + n);
		else
			fprintf(stderr, "schedscope: %s\n", err);
		return 2;
	}
	fprintf(stderr, "schedscope: %s: policy \"%s\" loads\n", shown, pol.ops->name);
	ext_policy_unload(&pol);
	return 0;
}

static int ext_check(const char *path)
{
	return ext_check_as(path, path);
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

/* Run argv, return its exit status (127 if it could not start, 128 + N if signal N ended it). */
static int run(char **argv, const sigset_t *child_mask)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 127;
	if (!pid) {
		sigprocmask(SIG_SETMASK, child_mask, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "schedscope: cannot run %s\n", argv[0]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The object's bytes, from the scratch file into the output. -1 after printing why. */
static int copy_object(const char *from, struct outfile *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb");
	size_t n;

	if (!in) {
		fprintf(stderr, "schedscope: %s: %s\n", from, strerror(errno));
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, to->f);
	n = (size_t)ferror(in);
	fclose(in);
	if (n) {
		fprintf(stderr, "schedscope: %s: cannot read it back\n", from);
		return -1;
	}
	return 0;
}

/* What ext build takes: SOURCE.c, -o OUT, and what goes to the compiler. */
struct ext_build_args {
	const char *src, *out;
	char outbuf[PATH_MAX];
	char inc[PATH_MAX + 2];
};

static int parse_build_args(int argc, char **argv, struct ext_build_args *a)
{
	/* SOURCE.c is the first argument not an option; -o OUT; the rest goes to the compiler */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			a->out = argv[++i];
		else if (!a->src && argv[i][0] != '-')
			a->src = argv[i];
	}
	if (!a->src)
		return cli_usage_error("ext build needs a SOURCE.c");
	if (!a->out) {
		size_t len = strlen(a->src);

		snprintf(a->outbuf, sizeof(a->outbuf), "%.*s.so",
			 (int)(len > 2 && !strcmp(a->src + len - 2, ".c") ? len - 2 : len), a->src);
		a->out = a->outbuf;
	}
	strcpy(a->inc, "-I");
	return include_dir(a->inc + 2, sizeof(a->inc) - 2) < 0 ? 2 : 0;
}

/* The compiler's command line, printed, writing the object to `obj`. */
static char **compile_command(int argc, char **argv, struct ext_build_args *a, const char *obj)
{
	const char *cc = getenv("CC");
	char **cmd = xcalloc((size_t)argc + 32, sizeof(*cmd));
	int n = 0;

	cmd[n++] = (char *)(cc && *cc ? cc : "cc");
	for (size_t i = 0; i < sizeof(ext_cflags) / sizeof(ext_cflags[0]); i++)
		cmd[n++] = (char *)ext_cflags[i];
	cmd[n++] = a->inc;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			i++;
		else if (argv[i] != a->src)
			cmd[n++] = argv[i];
	}
	cmd[n++] = "-o";
	cmd[n++] = (char *)a->out; /* printed as the user named it */
	cmd[n++] = (char *)a->src;
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? " " : "", cmd[i]);
	fputc('\n', stderr);
	cmd[n - 2] = (char *)obj;
	return cmd;
}

/*
 * The compiler writes a scratch folder's object; only one that passes the
 * check goes to OUT, through the one output writer (a temporary file
 * renamed into place, the old mode kept, a symlink followed, a device
 * written in place): a failed build or check leaves the old OUT whole.
 */
static int ext_build(int argc, char **argv)
{
	struct ext_build_args a = { 0 };
	struct outfile of;
	const char *tmpdir = getenv("TMPDIR");
	char dir[PATH_MAX], obj[PATH_MAX + 16];
	sigset_t stop, old;
	char **cmd;
	int rc = parse_build_args(argc, argv, &a);

	if (rc)
		return rc;
	if (outfile_open(&of, a.out))
		return 2;
	snprintf(dir, sizeof(dir), "%s/schedscope-ext.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "schedscope: %s: %s\n", dir, strerror(errno));
		outfile_abort(&of);
		return 2;
	}
	snprintf(obj, sizeof(obj), "%s/policy.so", dir);
	/* a Ctrl-C (which the compiler sees too) waits until the scratch folder is gone */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	cmd = compile_command(argc, argv, &a, obj);
	rc = run(cmd, &old);
	free(cmd);
	if (!rc)
		rc = ext_check_as(obj, a.out);
	if (!rc && copy_object(obj, &of))
		rc = 2;
	unlink(obj);
	rmdir(dir);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		outfile_abort(&of);
		return rc;
	}
	return outfile_commit(&of) ? 2 : 0;
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
