// SPDX-License-Identifier: GPL-2.0
/* schedscope: the command line. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sched/api/sched.h"
#include "src/base/mem.h"
#include "src/base/outfile.h"
#include "cli.h"

#define SCHEDSCOPE_VERSION "0.1"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: schedscope                      open the visualizer on the built-in demo\n"
		"       schedscope ui [SCENARIO] [--commands FILE] [--colors 256|16|0] [--speed X] "
		"[--paused]\n"
		"       schedscope view SCENARIO --at T [--size WxH] [--view NAME[,SIDE]]\n"
		"                       [--format text|ansi|html] [--select task=NAME|cpu=N]\n"
		"       schedscope run SCENARIO [options]\n"
		"       schedscope topology FILE|NAME|KEY=VALUE... [--format text|json] [--hz N] [--cpu N]\n"
		"       schedscope import TRACE|WORKLOAD.json [-o FILE] [--format "
		"ftrace|trace-cmd|perf|rtapp]\n"
		"                       [--keep-idle] [--keep-tracer] [--pin] [--cgroup-root N] [--workgen]\n"
		"       schedscope compare A.scn [B.scn] [--vs B.scn] [--vs-set KEY=VALUE]...\n"
		"                       [--window A..B] [--seeds A..B] [--report text|json]\n"
		"                       [--fail-if EXPR]...\n"
		"       schedscope compare-log REAL SIMULATED [--columns LIST] [--max-diff PCT] [--min-lines "
		"N]\n"
		"       schedscope sweep SCENARIO... [--topology LIST] [--kernel LIST] [--sched LIST]\n"
		"                       [--seeds A..B] [--set KEY=V1,V2]... [--param NAME=V1,V2]...\n"
		"                       [--vs-set KEY=VALUE]... [--window A..B] [--jobs N] [--shard I/N]\n"
		"                       [--out FILE.json|FILE.csv] [--plot FILE.svg|-]\n"
		"                       [--metric M] [--row R] [--matrix]\n"
		"       schedscope sweep merge PART.json... [--out ...] [--plot ...] [--matrix]\n"
		"       schedscope ext build SOURCE.c [-o OUT.so] [CFLAGS...] | ext check FILE.so | ext "
		"cflags\n"
		"\n"
		"run options:\n"
		"  --until T           stop at simulated time T (default: the scenario's duration)\n"
		"  --window A..B       limit every statistic to simulated time A..B\n"
		"  --report text|json  print the report in this form\n"
		"  --check             check the scenario's expect lines (exit 1 if one fails)\n"
		"  --trace FILE        write the event stream as ftrace text (- for stdout),\n"
		"                      or as Chrome/Perfetto JSON when FILE ends in .json\n"
		"  --trace-window A..B write only simulated time A..B to the trace (.json)\n"
		"  --trace-tasks GLOB[,GLOB]  chart these tasks' vruntime, lag, deadline (.json)\n"
		"  --seed N            override the scenario's seed\n"
		"  --set KEY=VALUE     override a tunable, feature, hz, seed, noise, duration, sched\n"
		"                      or kernel\n"
		"  --param NAME=VALUE  a value for the scenario's `param NAME=DEFAULT`\n"
		"                      (sched=ext:POLICY.so runs an ext policy, schedscope-ext(7))\n"
		"  --break EXPR        stop where EXPR holds (e.g. 'switch cpu=0 next=hog.1'), show the "
		"state\n"
		"  --dump-state text|json  print every runqueue where the run stopped\n"
		"  --rewind-check N    rewind to N random times, run on, and compare with the first run\n"
		"  --history-budget SIZE  memory for --break's and --rewind-check's history (512M)\n"
		"  --vs B.scn, --vs-set KEY=VALUE, --vs-param NAME=VALUE\n"
		"                      run a side B beside it (see compare); its report follows, a .json\n"
		"                      trace holds both, --check checks the `expect diff` lines\n"
		"  --check-invariants  check the engine's invariants at every step; abort if one fails\n"
		"  --periods FILE      write rt-app's per-thread log columns, every thread (- for stdout)\n"
		"\n"
		"ui and view also take --seed, --set, --param and --history-budget; view takes --colors\n"
		"and --commands.\n"
		"\n"
		"SCENARIO may be `%s` for the built-in demo. See schedscope(1).\n",
		DEMO_SCENARIO_NAME);
}

static bool opens_visualizer(int argc, char **argv)
{
	/* without a terminal, no arguments run the demo headless */
	if (argc < 2)
		return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	return !strcmp(argv[1], "ui");
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		char *demo[] = { argv[0], DEMO_SCENARIO_NAME, NULL };

		if (!opens_visualizer(argc, argv))
			return cmd_run(2, demo);
		return cmd_ui(2, demo);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("schedscope %s\n", SCHEDSCOPE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "view"))
		return cmd_view(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ui"))
		return cmd_ui(argc - 1, argv + 1);
	if (!strcmp(argv[1], "topology"))
		return cmd_topology(argc - 1, argv + 1);
	if (!strcmp(argv[1], "import"))
		return cmd_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ext"))
		return cmd_ext(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare-log"))
		return cmd_compare_log(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	return cli_usage_error("unknown command '%s'", argv[1]);
}

int main(int argc, char **argv)
{
	sched_set_oom_handler(oom_exit);
	/* the visualizer's terminal is ncurses', which wants stdout's file descriptor */
	if (!opens_visualizer(argc, argv))
		outfile_track_stdout();
	/* a report to a full disk is a failure like any other, not exit 0 */
	return outfile_close_stdout(dispatch(argc, argv));
}
