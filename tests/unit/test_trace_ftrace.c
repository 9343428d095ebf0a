// SPDX-License-Identifier: GPL-2.0
/* The ftrace text writer: the exact bytes of the header and of each kind of line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched/api/features.h"
#include "sched/api/scenario.h"
#include "src/trace/trace_ftrace.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"

/* ---- a fake engine: names by pid ---- */

static const char *const task_names[] = { "hog.0", "a_very_long_task_name.1" };

static const char *test_comm(void *ctx, int pid, int cpu)
{
	static char swapper[32];

	if (pid == 0) {
		snprintf(swapper, sizeof(swapper), "swapper/%d", cpu);
		return swapper;
	}
	if (pid >= 1 && pid <= 2)
		return task_names[pid - 1];
	return NULL;
}

static const char *test_note(void *ctx, u32 index)
{
	return index == 0 ? "32 web\ntasks wake" : NULL;
}

static const struct trace_ftrace_opts opts = {
	.nr_cpus = 2, .comm = test_comm, .note = test_note,
};

static struct sched_event ev_switch(u64 t, int cpu, int prev, char state, int next)
{
	struct sched_event ev = fx_event(t, EV_SCHED_SWITCH, cpu);

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = 120;
	ev.sw.next_prio = prev ? 120 : 100;
	ev.sw.prev_state = state;
	return ev;
}

#define LEGEND                                                                 \
	"#\n"                                                                  \
	"#                                _-----=> irqs-off/BH-disabled\n"     \
	"#                               / _----=> need-resched\n"             \
	"#                              | / _---=> hardirq/softirq\n"          \
	"#                              || / _--=> preempt-depth\n"            \
	"#                              ||| / _-=> migrate-disable\n"          \
	"#                              |||| /     delay\n"                    \
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"          \
	"#              | |         |   |||||     |         |\n"

/* The width of "...: 18446744073709551615/18446744073709551615   #P:2" */
#define PAD36 "                                    "

static void test_header_empty_trace(void **state)
{
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	char *text;

	assert_non_null(f);
	w = trace_ftrace_open(f, &opts);
	assert_non_null(w);
	assert_int_equal(trace_ftrace_close(w), 0);
	text = fx_read_all(f);
	assert_string_equal(text, "# tracer: nop\n"
				  "#\n"
				  "# entries-in-buffer/entries-written: 0/0   #P:2" PAD36 "  \n"
				  LEGEND);
	free(text);
	fclose(f);
}

static void feed(struct trace_ftrace *w)
{
	struct sched_event ev;

	ev = fx_event(0, EV_SCHED_PROCESS_FORK, 0);
	ev.fork.parent_pid = 0;
	ev.fork.child_pid = 1;
	trace_ftrace_event(w, &ev);
	ev = fx_wake_event(0, EV_SCHED_WAKEUP_NEW, 0, 1, 0);
	trace_ftrace_event(w, &ev);
	ev = ev_switch(1500, 0, 0, 'R', 1);		/* 1.5 us: rounds up */
	trace_ftrace_event(w, &ev);
	ev = fx_wake_event(1000499, EV_SCHED_WAKING, 1, 2, 1);	/* rounds down */
	trace_ftrace_event(w, &ev);
	ev = fx_wake_event(1000499, EV_SCHED_WAKEUP, 1, 2, 1);
	trace_ftrace_event(w, &ev);
	ev = fx_event(2000000, EV_SCHED_MIGRATE_TASK, 0);
	ev.migrate.pid = 2;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = 1;
	ev.migrate.dest_cpu = 0;
	trace_ftrace_event(w, &ev);
	ev = fx_event(3000000, EV_SCHED_STAT_RUNTIME, 0);
	ev.runtime.pid = 1;
	ev.runtime.runtime = 2998500;
	ev.runtime.vruntime = 12345;
	trace_ftrace_event(w, &ev);
	ev = ev_switch(3000000, 0, 1, 'R', 2);
	trace_ftrace_event(w, &ev);
	ev = fx_event(4000000, EV_SCHED_PROCESS_EXIT, 0);
	ev.exit.pid = 2;
	ev.exit.prio = 120;
	trace_ftrace_event(w, &ev);
	ev = ev_switch(4000000, 0, 2, 'X', 1);
	trace_ftrace_event(w, &ev);
	ev = ev_switch(4500000, 0, 1, 'S', 0);
	trace_ftrace_event(w, &ev);
}

#define BODY                                                                                                  \
	"          <idle>-0       [000] .....     0.000000: sched_process_fork: comm=swapper/0 pid=0 "        \
	"child_comm=hog.0 child_pid=1\n"                                                                      \
	"          <idle>-0       [000] d..2.     0.000000: sched_wakeup_new: comm=hog.0 pid=1 prio=120 "    \
	"target_cpu=000\n"                                                                                    \
	"          <idle>-0       [000] d..2.     0.000002: sched_switch: prev_comm=swapper/0 prev_pid=0 "   \
	"prev_prio=120 prev_state=R ==> next_comm=hog.0 next_pid=1 next_prio=100\n"                          \
	"          <idle>-0       [001] d..2.     0.001000: sched_waking: comm=a_very_long_tas pid=2 "       \
	"prio=120 target_cpu=001\n"                                                                           \
	"          <idle>-0       [001] d..3.     0.001000: sched_wakeup: comm=a_very_long_tas pid=2 "       \
	"prio=120 target_cpu=001\n"                                                                           \
	"           hog.0-1       [000] d..2.     0.002000: sched_migrate_task: comm=a_very_long_tas pid=2 " \
	"prio=120 orig_cpu=1 dest_cpu=0\n"                                                                    \
	"           hog.0-1       [000] d..2.     0.003000: sched_stat_runtime: comm=hog.0 pid=1 "          \
	"runtime=2998500 [ns]" RUNTIME_TAIL "\n"                                                             \
	"           hog.0-1       [000] d..2.     0.003000: sched_switch: prev_comm=hog.0 prev_pid=1 "       \
	"prev_prio=120 prev_state=R+ ==> next_comm=a_very_long_tas next_pid=2 next_prio=120\n"               \
	" a_very_long_tas-2       [000] .....     0.004000: sched_process_exit: comm=a_very_long_tas pid=2 " \
	"prio=120" EXIT_TAIL "\n"                                                                             \
	" a_very_long_tas-2       [000] d..2.     0.004000: sched_switch: prev_comm=a_very_long_tas "        \
	"prev_pid=2 prev_prio=120 prev_state=X ==> next_comm=hog.0 next_pid=1 next_prio=120\n"                \
	"           hog.0-1       [000] d..2.     0.004500: sched_switch: prev_comm=hog.0 prev_pid=1 "       \
	"prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"

static void test_lines_latest_kernel(void **state)
{
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	char *text;

	assert_non_null(f);
	w = trace_ftrace_open(f, &opts);
	feed(w);
	assert_int_equal(trace_ftrace_entries(w), 11);
	assert_int_equal(trace_ftrace_close(w), 0);
	text = fx_read_all(f);
#define RUNTIME_TAIL ""
#define EXIT_TAIL " group_dead=true"
	assert_string_equal(text, "# tracer: nop\n"
				  "#\n"
				  "# entries-in-buffer/entries-written: 11/11   #P:2" PAD36 "\n"
				  LEGEND BODY);
#undef RUNTIME_TAIL
#undef EXIT_TAIL
	free(text);
	fclose(f);
}

/* 6.1: sched_stat_runtime still had vruntime, sched_process_exit no group_dead. */
static void test_lines_kernel_6_1(void **state)
{
	struct trace_ftrace_opts o = opts;
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	char *text;

	assert_non_null(f);
	o.kernel = KV(6, 1);
	w = trace_ftrace_open(f, &o);
	feed(w);
	assert_int_equal(trace_ftrace_close(w), 0);
	text = fx_read_all(f);
#define RUNTIME_TAIL " vruntime=12345 [ns]"
#define EXIT_TAIL ""
	assert_string_equal(text, "# tracer: nop\n"
				  "#\n"
				  "# entries-in-buffer/entries-written: 11/11   #P:2" PAD36 "\n"
				  LEGEND BODY);
#undef RUNTIME_TAIL
#undef EXIT_TAIL
	free(text);
	fclose(f);
}

static void test_schedscope_events(void **state)
{
	struct trace_ftrace_opts o = opts;
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	struct sched_event ev;
	char *text;

	assert_non_null(f);
	o.full_comm = true;
	w = trace_ftrace_open(f, &o);

	ev = ev_switch(1000, 1, 0, 'R', 2);
	trace_ftrace_event(w, &ev);
	ev = fx_event(1234567890123ULL, EV_NOTE, 1);
	ev.note.index = 0;
	trace_ftrace_event(w, &ev);
	ev.note.index = 1;				/* no text for it */
	trace_ftrace_event(w, &ev);
	ev = fx_event(1234567890123ULL, EV_COMMAND, 1);
	ev.command.index = ~0u;
	ev.command.kind = CMD_SET_NICE;
	ev.command.task = 1;
	ev.command.value = -5;
	trace_ftrace_event(w, &ev);
	ev = fx_event(1234567890123ULL, EV_SET_NICE, 1);
	ev.nice.pid = 2;
	ev.nice.old_nice = 0;
	ev.nice.new_nice = -5;
	ev.nice.slice = 3000000;
	trace_ftrace_event(w, &ev);
	ev = fx_event(1234567890123ULL, EV_YIELD, 1);
	ev.yield.pid = 2;
	trace_ftrace_event(w, &ev);
	ev = fx_event(1234567890123ULL, EV_YIELD, 1);
	ev.yield.pid = 77;				/* no name: "<...>" */
	trace_ftrace_event(w, &ev);
	ev = fx_event(1234567890123ULL, NR_SCHED_EVENTS, 1);	/* not an event: skipped */
	trace_ftrace_event(w, &ev);
	assert_int_equal(trace_ftrace_close(w), 0);

	text = fx_read_all(f);
	assert_string_equal(text,
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: 7/7   #P:2" PAD36 "  \n"
		LEGEND
		"          <idle>-0       [001] d..2.     0.000001: sched_switch: prev_comm=swapper/1 prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=a_very_long_task_name.1 next_pid=2 next_prio=100\n"
		"a_very_long_task_name.1-2       [001] .....  1234.567890: schedscope_note: index=0 "
		"text=32 web tasks wake\n"
		"a_very_long_task_name.1-2       [001] .....  1234.567890: schedscope_note: index=1\n"
		"a_very_long_task_name.1-2       [001] .....  1234.567890: schedscope_command: index=-1 "
		"kind=set_nice task=1 key=0 value=-5\n"
		"a_very_long_task_name.1-2       [001] d..2.  1234.567890: schedscope_set_nice: "
		"comm=a_very_long_task_name.1 pid=2 old_nice=0 new_nice=-5 policy=0 slice=3000000\n"
		"a_very_long_task_name.1-2       [001] d..2.  1234.567890: schedscope_yield: "
		"comm=a_very_long_task_name.1 pid=2\n"
		"a_very_long_task_name.1-2       [001] d..2.  1234.567890: schedscope_yield: comm=<...> pid=77\n");
	free(text);
	fclose(f);
}

/* The RT throttling and SCHED_DEADLINE records: the CPU's, the task's, the fair server's. */
static void test_rt_dl_events(void **state)
{
	struct trace_ftrace_opts o = opts;
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	struct sched_event ev;
	char *text;

	assert_non_null(f);
	o.full_comm = true;
	w = trace_ftrace_open(f, &o);
	ev = fx_event(952000000, EV_RT_THROTTLE, 0);
	ev.rt_bw.rt_time = 952000000;
	ev.rt_bw.rt_runtime = 950000000;
	ev.rt_bw.nr_running = 1;
	trace_ftrace_event(w, &ev);
	ev = fx_event(1000000000, EV_DL_THROTTLE, 0);
	ev.dl.pid = 1;
	ev.dl.runtime = -2000000;
	ev.dl.deadline = 1100000000;
	trace_ftrace_event(w, &ev);
	ev.type = EV_DL_REPLENISH;
	ev.dl.pid = 0;				/* the fair server */
	ev.dl.runtime = 50000000;
	trace_ftrace_event(w, &ev);
	ev.type = EV_DL_MISS;
	ev.dl.pid = 1;
	ev.dl.runtime = 93000000;
	trace_ftrace_event(w, &ev);
	assert_int_equal(trace_ftrace_close(w), 0);

	text = fx_read_all(f);
	assert_non_null(strstr(text, "[000] d..2.     0.952000: schedscope_rt_throttle: rt_time=952000000 [ns] "
				      "rt_runtime=950000000 [ns] rt_nr_running=1\n"));
	assert_non_null(strstr(text, "[000] d..2.     1.000000: schedscope_dl_throttle: comm=hog.0 pid=1 "
				      "runtime=-2000000 [ns] deadline=1100000000 [ns]\n"));
	assert_non_null(strstr(text, "[000] d.h2.     1.000000: schedscope_dl_replenish: comm=fair_server "
				      "pid=0 runtime=50000000 [ns] deadline=1100000000 [ns]\n"));
	assert_non_null(strstr(text, "schedscope_dl_miss: comm=hog.0 pid=1 lateness=93000000 [ns] "
				      "deadline=1100000000 [ns]\n"));
	free(text);
	fclose(f);
}

static const char *test_text(void *ctx, u32 id)
{
	static const char *const texts[] = { "", "simple", "local=4 global=10",
					     "hog.0[1] failed to run for 30.004s" };

	return id < 4 ? texts[id] : NULL;
}

/* The ext class's events: a dispatch naming its operation and queue, a kick, a printk line, the exit. */
static void test_ext_events(void **state)
{
	struct trace_ftrace_opts o = opts;
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	struct sched_event ev;
	char *text;

	assert_non_null(f);
	o.text = test_text;
	w = trace_ftrace_open(f, &o);
	ev = fx_event(0, EV_EXT_ENABLE, 0);
	ev.ext_exit.text = 1;
	trace_ftrace_event(w, &ev);
	ev = fx_event(20000000, EV_EXT_DISPATCH, 1);
	ev.ext_dsp.pid = 1;
	ev.ext_dsp.dest_cpu = -1;
	ev.ext_dsp.op = EXT_OP_ENQUEUE;
	ev.ext_dsp.how = EXT_DSP_INSERT_VTIME;
	ev.ext_dsp.dsq_id = 0x2a;
	ev.ext_dsp.slice = 20000000;
	ev.ext_dsp.vtime = 123;
	ev.ext_dsp.enq_flags = 1;
	trace_ftrace_event(w, &ev);
	ev.ext_dsp.op = EXT_OP_DISPATCH;
	ev.ext_dsp.how = EXT_DSP_MOVE;
	ev.ext_dsp.dest_cpu = 1;
	ev.ext_dsp.dsq_id = 1ULL << 63 | 1; /* SCX_DSQ_GLOBAL */
	ev.ext_dsp.enq_flags = 0;
	trace_ftrace_event(w, &ev);
	ev = fx_event(21000000, EV_EXT_KICK, 0);
	ev.ext_kick.target_cpu = 1;
	ev.ext_kick.op = EXT_OP_TIMER;
	ev.ext_kick.flags = 2;
	trace_ftrace_event(w, &ev);
	ev = fx_event(30004000000, EV_EXT_PRINTK, 0);
	ev.ext_print.text = 2;
	ev.ext_print.op = EXT_OP_EXIT;
	trace_ftrace_event(w, &ev);
	ev = fx_event(30004000000, EV_EXT_EXIT, 1);
	ev.ext_exit.pid = 1;
	ev.ext_exit.text = 3;
	ev.ext_exit.kind = 1026;
	trace_ftrace_event(w, &ev);
	assert_int_equal(trace_ftrace_close(w), 0);

	text = fx_read_all(f);
	assert_non_null(strstr(text,
			       "          <idle>-0       [000] .....     0.000000: schedscope_ext_enable: "
			       "name=simple partial=0\n"));
	assert_non_null(strstr(
		text, "[001] d..2.     0.020000: schedscope_ext_dispatch: comm=hog.0 pid=1 op=enqueue "
		      "how=insert_vtime dsq=0x2a dest_cpu=-1 slice=20000000 vtime=123 enq_flags=0x1\n"));
	assert_non_null(strstr(text,
			       "schedscope_ext_dispatch: comm=hog.0 pid=1 op=dispatch how=move dsq=global "
			       "dest_cpu=1 slice=20000000 vtime=123 enq_flags=0x0\n"));
	assert_non_null(strstr(
		text, "[000] d..2.     0.021000: schedscope_ext_kick: op=timer target_cpu=1 flags=0x2\n"));
	assert_non_null(strstr(text, "schedscope_ext_printk: op=exit comm=- pid=0 text=local=4 global=10\n"));
	assert_non_null(strstr(
		text, "[001] .....    30.004000: schedscope_ext_exit: kind=1026 reason=runnable task "
		      "stall op=core comm=hog.0 pid=1 exit_code=0 msg=hog.0[1] failed to run for 30.004s\n"));
	free(text);
	fclose(f);
}

/* CPUs outside #P and a pipe that cannot be patched. */
/* A sleep's timer wakes from hardirq context: 'h' in the third flag column, as hrtimer_wakeup() shows. */
static void test_timer_wakeup_flags(void **state)
{
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	struct sched_event ev;
	char *text;

	assert_non_null(f);
	w = trace_ftrace_open(f, &opts);
	ev = fx_wake_event(2000000, EV_SCHED_WAKING, 0, 1, 0);
	ev.wake.from_timer = 1;
	trace_ftrace_event(w, &ev);
	ev.type = EV_SCHED_WAKEUP;
	trace_ftrace_event(w, &ev);
	assert_int_equal(trace_ftrace_close(w), 0);
	text = fx_read_all(f);
	fclose(f);
	assert_non_null(strstr(text,
		"          <idle>-0       [000] d.h2.     0.002000: sched_waking: comm=hog.0 pid=1 prio=120 "
		"target_cpu=000\n"
		"          <idle>-0       [000] d.h3.     0.002000: sched_wakeup: comm=hog.0 pid=1 prio=120 "
		"target_cpu=000\n"));
	free(text);
}

/*
 * Timestamps as Linux prints them: ns2usecs() adds 500 ns before dividing,
 * so /sys/kernel/tracing/trace rounds to the nearest microsecond. The pairs
 * are one recording on Linux 6.18 read twice: the trace file's text, and
 * `trace-cmd report -t` of the same buffer (the nanoseconds). Truncating
 * would print 5 of these 8 a microsecond early.
 */
static void test_timestamps_as_linux_prints_them(void **state)
{
	static const struct {
		u64 ns;
		const char *text;
	} pairs[] = {
		{ 2837743437774ull, "2837.743438" }, { 2837743452631ull, "2837.743453" },
		{ 2837743503448ull, "2837.743503" }, { 2837747436427ull, "2837.747436" },
		{ 2837750795967ull, "2837.750796" }, { 2837756680502ull, "2837.756681" },
		{ 2837756923994ull, "2837.756924" }, { 2837760745892ull, "2837.760746" },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		FILE *f = tmpfile();
		struct trace_ftrace *w;
		struct sched_event ev;
		char *text, want[64];

		assert_non_null(f);
		w = trace_ftrace_open(f, &opts);
		ev = fx_wake_event(pairs[i].ns, EV_SCHED_WAKING, 0, 1, 0);
		trace_ftrace_event(w, &ev);
		assert_int_equal(trace_ftrace_close(w), 0);
		text = fx_read_all(f);
		fclose(f);
		snprintf(want, sizeof(want), " %s: sched_waking:", pairs[i].text);
		if (!strstr(text, want))
			fail_msg("%" PRIu64 " ns: expected '%s' in\n%s", pairs[i].ns, want, text);
		free(text);
	}
}

static void test_pipe_keeps_placeholder(void **state)
{
	int fds[2];
	FILE *f;
	struct trace_ftrace *w;
	struct sched_event ev;
	char buf[4096];
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	f = fdopen(fds[1], "w");
	assert_non_null(f);
	w = trace_ftrace_open(f, &opts);
	ev = ev_switch(0, 5, 0, 'R', 1);		/* cpu 5 of 2: printed, not tracked */
	trace_ftrace_event(w, &ev);
	ev = fx_wake_event(0, EV_SCHED_WAKING, 5, 1, 5);
	trace_ftrace_event(w, &ev);
	assert_int_equal(trace_ftrace_close(w), 0);
	fclose(f);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf,
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: 0/0   #P:2" PAD36 "  \n"
		LEGEND
		"          <idle>-0       [005] d..2.     0.000000: sched_switch: prev_comm=swapper/5 prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=hog.0 next_pid=1 next_prio=100\n"
		"          <idle>-0       [005] d..2.     0.000000: sched_waking: comm=hog.0 pid=1 prio=120 "
		"target_cpu=005\n");
}

/* Written after other text: the count is patched where the header is, not at 0. */
static void test_patch_after_preamble(void **state)
{
	FILE *f = tmpfile();
	struct trace_ftrace *w;
	struct sched_event ev = fx_wake_event(0, EV_SCHED_WAKING, 0, 1, 0);
	char *text;

	assert_non_null(f);
	fputs("preamble\n", f);
	w = trace_ftrace_open(f, &opts);
	trace_ftrace_event(w, &ev);
	assert_int_equal(trace_ftrace_close(w), 0);
	fputs("after\n", f);		/* the position is back at the end */
	text = fx_read_all(f);
	assert_non_null(strstr(text, "preamble\n# tracer: nop\n#\n"
				     "# entries-in-buffer/entries-written: 1/1   #P:2" PAD36 "  \n#\n"));
	assert_int_equal(strcmp(text + strlen(text) - 6, "after\n"), 0);
	free(text);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_empty_trace),
		cmocka_unit_test(test_lines_latest_kernel),
		cmocka_unit_test(test_lines_kernel_6_1),
		cmocka_unit_test(test_schedscope_events),
		cmocka_unit_test(test_timer_wakeup_flags),
		cmocka_unit_test(test_rt_dl_events),
		cmocka_unit_test(test_ext_events),
		cmocka_unit_test(test_pipe_keeps_placeholder),
		cmocka_unit_test(test_timestamps_as_linux_prints_them),
		cmocka_unit_test(test_patch_after_preamble),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
