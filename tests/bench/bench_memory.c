// SPDX-License-Identifier: GPL-2.0
/*
 * Memory benchmark (`make bench`): the peak resident memory of the
 * visualizer on long runs, the figures issue 16 asks for. Each figure runs
 * `./schedscope view` (the visualizer with no terminal, as a script drives
 * it) as a child process and reads its peak RSS from wait4()'s rusage:
 *
 *   ui_mixed_600s: tests/bench/mixed-load.scn (16 CPUs, four groups) for
 *     600 s with the default history budget (512 MiB); then, as a user
 *     looking back would, the events view at 30 s (a rewind, and events
 *     given back long ago regenerated) and the timeline at 45 s;
 *   ui_256cpu_60s: the 256-CPU reference load (2 packages x 64 cores x 2
 *     threads, 1000 hogs + 1000 periodic tasks) for 60 s, the same way.
 *
 * The goal is under 600 MB for the first. One run per figure (a
 * peak does not need the best of several); also the wall time it took.
 * Output: `bench: NAME VALUE UNIT`.
 *
 * Usage: bench_memory [-q]   (-q is accepted; each figure is one run anyway)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

static const char load256_text[] = BENCH_LOAD_256CPU("60s");

static const char look_back[] = "view events\n"
				"goto 30s\n"
				"view timeline\n"
				"goto 45s\n";

/* A file holding text, in $TMPDIR; its name in path. */
static void temp_file(char *path, size_t len, const char *suffix, const char *text)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd;

	snprintf(path, len, "%s/bench-memory-XXXXXX%s", dir, suffix);
	fd = mkstemps(path, (int)strlen(suffix));
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd)) {
		fprintf(stderr, "bench: cannot write %s\n", path);
		exit(1);
	}
}

/* Run `./schedscope view SCENARIO --at AT [--set duration=AT] --commands ...`; peak RSS in KiB. */
static long view_peak(const char *name, const char *scenario, const char *at, const char *commands)
{
	char duration[64],
		*argv[] = { "./schedscope", "view",   (char *)scenario, "--at",		  (char *)at,
			    "--set",	    duration, "--commands",	(char *)commands, NULL };
	struct rusage ru;
	double t0 = now_sec();
	int status;
	pid_t pid;

	snprintf(duration, sizeof(duration), "duration=%s", at);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("bench: fork");
		exit(1);
	}
	if (!pid) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(argv[0], argv);
		perror("bench: ./schedscope");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench: %s: schedscope view failed\n", name);
		exit(1);
	}
	printf("bench: %s wall %.1f s\n", name, now_sec() - t0);
	printf("bench: %s peak_rss %.0f MB\n", name, (double)ru.ru_maxrss * 1024 / 1e6);
	fflush(stdout);
	return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
	char cmds[256], load256[256];

	bench_args(argc, argv);
	temp_file(cmds, sizeof(cmds), ".cmd", look_back);
	temp_file(load256, sizeof(load256), ".scn", load256_text);
	view_peak("ui_mixed_600s", "tests/bench/mixed-load.scn", "600s", cmds);
	view_peak("ui_256cpu_60s", load256, "60s", cmds);
	unlink(cmds);
	unlink(load256);
	return 0;
}
