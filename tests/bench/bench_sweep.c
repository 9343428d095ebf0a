// SPDX-License-Identifier: GPL-2.0
/*
 * Sweep throughput: `schedscope sweep` over the 16-CPU reference load
 * (bench_util.h, 10 s simulated a cell), one cell per seed, with --jobs 1
 * and --jobs 2. Cells per second of wall time for each, the speed-up of two
 * jobs over one (the goal on a 2-core machine is 1.8x), and cells per CPU
 * second (user + system of every worker), which other load on the machine
 * does not change. The 1-minute load average is printed with them: on a
 * shared machine the wall-clock figures mean little.
 *
 * Runs ./schedscope (make bench builds it) from the source folder.
 * Usage: bench_sweep [-q]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#define CELLS 16

struct result {
	double wall, cpu;
};

/* One sweep, its output to /dev/null; wall and CPU time of it and its workers. */
static struct result run_sweep(const char *scn, int jobs)
{
	char seeds[32], njobs[16];
	char *argv[] = { "./schedscope", "sweep", (char *)scn, "--seeds", seeds, "--jobs", njobs, NULL };
	struct rusage before, after;
	struct result r;
	pid_t pid;
	int status;

	snprintf(seeds, sizeof(seeds), "1..%d", CELLS);
	snprintf(njobs, sizeof(njobs), "%d", jobs);
	getrusage(RUSAGE_CHILDREN, &before);
	double t0 = now_sec();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(null, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "bench: cannot run ./schedscope\n");
		exit(1);
	}
	r.wall = now_sec() - t0;
	getrusage(RUSAGE_CHILDREN, &after);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "bench: the sweep failed (status %d; is ./schedscope built?)\n", status);
		exit(1);
	}
	r.cpu = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec + after.ru_stime.tv_sec -
			 before.ru_stime.tv_sec) +
		(double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec + after.ru_stime.tv_usec -
			 before.ru_stime.tv_usec) *
			1e-6;
	return r;
}

/* The fastest of bench_reps runs. */
static struct result best(const char *scn, int jobs)
{
	struct result b = { 1e30, 1e30 };

	for (int i = 0; i < bench_reps; i++) {
		struct result r = run_sweep(scn, jobs);
		if (r.wall < b.wall)
			b.wall = r.wall;
		if (r.cpu < b.cpu)
			b.cpu = r.cpu;
	}
	return b;
}

int main(int argc, char **argv)
{
	char scn[] = "/tmp/schedscope-bench-sweep-XXXXXX.scn";
	const char *text = BENCH_LOAD_16CPU("10s");
	double load[1] = { 0 };
	int fd;

	bench_args(argc, argv);
	fd = mkstemps(scn, 4);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || close(fd)) {
		fprintf(stderr, "bench: cannot write %s\n", scn);
		return 1;
	}
	getloadavg(load, 1);
	struct result one = best(scn, 1), two = best(scn, 2);
	unlink(scn);
	printf("bench: sweep_16cpu_10s cells_per_sec_jobs1 %.2f cells/s\n", CELLS / one.wall);
	printf("bench: sweep_16cpu_10s cells_per_sec_jobs2 %.2f cells/s\n", CELLS / two.wall);
	printf("bench: sweep_16cpu_10s speedup_jobs2 %.2f x\n", one.wall / two.wall);
	printf("bench: sweep_16cpu_10s cells_per_cpu_sec %.2f cells/s\n", CELLS / one.cpu);
	printf("bench: sweep_16cpu_10s load_avg_at_start %.2f\n", load[0]);
	return 0;
}
