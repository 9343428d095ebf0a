// SPDX-License-Identifier: GPL-2.0
/*
 * The trace importer: each format's line parser on lines of real traces
 * (Linux 6.18 on this project's test machine, recorded with ftrace,
 * trace-cmd 3.1.6 and perf 6.1) and of older layouts, then the programs the
 * importer writes for small traces whose answer is worked out by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/import/import_trace.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static struct trace_rec rec;
static int col;
static char err[512];

static int parse(enum trace_format fmt, const char *line)
{
	return trace_parse_line(fmt, line, strlen(line), &rec, &col, err, sizeof(err));
}

/* ---- ftrace ---- */

static void test_ftrace_switch_6_18(void **state)
{
	assert_int_equal(parse(TRACE_FTRACE,
		"           mandb-10495   [001] d..2. 19438.579207: sched_switch: prev_comm=mandb prev_pid=10495 "
		"prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120"), 1);
	assert_int_equal(rec.type, TREC_SWITCH);
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(rec.ts, 19438579207000ull);
	assert_int_equal(rec.ctx_pid, 10495);
	assert_string_equal(rec.ctx_comm, "mandb");
	assert_false(rec.irq);
	assert_string_equal(rec.comm, "mandb");
	assert_int_equal(rec.pid, 10495);
	assert_int_equal(rec.prio, 120);
	assert_int_equal(rec.state, TSTATE_BLOCKED);	/* D */
	assert_string_equal(rec.comm2, "swapper/1");
	assert_int_equal(rec.pid2, 0);
	assert_int_equal(rec.prio2, 120);
}

static void test_ftrace_waking_in_softirq(void **state)
{
	/* 's' in the third flag column: a softirq woke it, not the idle task */
	assert_int_equal(parse(TRACE_FTRACE,
		"          <idle>-0       [001] d.s4. 19438.579232: sched_waking: comm=mandb pid=10495 prio=120 "
		"target_cpu=001"), 1);
	assert_int_equal(rec.type, TREC_WAKING);
	assert_true(rec.irq);
	assert_int_equal(rec.ctx_pid, 0);
	assert_int_equal(rec.pid, 10495);
	assert_int_equal(rec.target_cpu, 1);
	assert_int_equal(parse(TRACE_FTRACE,
		"             hog-1       [000] d.h2.     0.014300: sched_waking: comm=normal pid=2 prio=120 "
		"target_cpu=000"), 1);
	assert_true(rec.irq);
	assert_int_equal(parse(TRACE_FTRACE,
		"              sh-10581   [001] d..2. 19438.579767: sched_switch: prev_comm=bash prev_pid=10581 "
		"prev_prio=120 prev_state=R+ ==> next_comm=mandb next_pid=10495 next_prio=120"), 1);
	assert_int_equal(rec.state, TSTATE_RUNNABLE);
}

static void test_ftrace_old_layout_tgid_spaces_dashes(void **state)
{
	/* 4.x: pid %-5d, the record-tgid column, four flag columns, a comm with a blank */
	assert_int_equal(parse(TRACE_FTRACE,
		"     Web Content-4242  ( 4200) [002] d..3   100.001100: sched_switch: prev_comm=Web Content "
		"prev_pid=4242 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120"), 1);
	assert_int_equal(rec.ctx_pid, 4242);
	assert_string_equal(rec.ctx_comm, "Web Content");
	assert_int_equal(rec.cpu, 2);
	assert_int_equal(rec.ts, 100001100000ull);
	assert_string_equal(rec.comm, "Web Content");
	assert_int_equal(rec.pid, 4242);
	/* dashes in the comm: the pid is after the last "-N [" that fits */
	assert_int_equal(parse(TRACE_FTRACE,
		" kworker/u8:2-ev-77    (   77) [001] d..4   100.001210: sched_wakeup: comm=Web Content pid=4242 "
		"prio=120 success=1 target_cpu=002"), 1);
	assert_string_equal(rec.ctx_comm, "kworker/u8:2-ev");
	assert_int_equal(rec.ctx_pid, 77);
	assert_string_equal(rec.comm, "Web Content");
	assert_int_equal(rec.target_cpu, 2);
	assert_int_equal(parse(TRACE_FTRACE,
		"          <idle>-0     (-------) [003] d..3   100.003700: sched_switch: prev_comm=swapper/3 "
		"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=Web Content next_pid=4301 next_prio=120"), 1);
	assert_int_equal(rec.pid2, 4301);
}

static void test_ftrace_without_flags(void **state)
{
	assert_int_equal(parse(TRACE_FTRACE,
		"            ping-10    [000]    50.000200: sched_wakeup: comm=pong pid=11 prio=120 success=1 "
		"target_cpu=001"), 1);
	assert_false(rec.irq);
	assert_int_equal(rec.ts, 50000200000ull);
	assert_int_equal(rec.pid, 11);
	assert_int_equal(rec.target_cpu, 1);
}

static void test_ftrace_fork_exit_migrate(void **state)
{
	assert_int_equal(parse(TRACE_FTRACE,
		"            bash-10578   [000] ..... 19438.579360: sched_process_fork: comm=bash pid=10578 "
		"child_comm=bash child_pid=10581"), 1);
	assert_int_equal(rec.type, TREC_FORK);
	assert_int_equal(rec.pid, 10578);
	assert_int_equal(rec.pid2, 10581);
	assert_string_equal(rec.comm2, "bash");
	assert_int_equal(parse(TRACE_FTRACE,
		"              dd-10796 [000] ..... 19448.492481: sched_process_exit: comm=dd pid=10796 prio=120 "
		"group_dead=true"), 1);
	assert_int_equal(rec.type, TREC_EXIT);
	assert_int_equal(rec.pid, 10796);
	assert_int_equal(parse(TRACE_FTRACE,
		"     migration/0-18    [000] d..2. 19456.511420: sched_migrate_task: comm=perf pid=10854 prio=120 "
		"orig_cpu=0 dest_cpu=1"), 1);
	assert_int_equal(rec.type, TREC_MIGRATE);
	assert_int_equal(rec.target_cpu, 1);
}

static void test_ftrace_headers_and_other_events(void **state)
{
	assert_int_equal(parse(TRACE_FTRACE, "# entries-in-buffer/entries-written: 3323/3323   #P:2"), 0);
	assert_int_equal(rec.nr_cpus, 2);
	assert_int_equal(parse(TRACE_FTRACE, "##### CPU 3 buffer started ####"), 0);
	assert_int_equal(rec.type, TREC_LOST);
	assert_int_equal(rec.cpu, 3);
	assert_int_equal(parse(TRACE_FTRACE, ""), 0);
	assert_int_equal(parse(TRACE_FTRACE,
		"          normal-2       [000] d..2.     0.005000: sched_stat_runtime: comm=normal pid=2 "
		"runtime=1000000 [ns]"), 0);
	assert_int_equal(rec.type, TREC_SKIP);
}

static void test_ftrace_errors_have_columns(void **state)
{
	/*           1         2         3         4
	 *  1234567890123456789012345678901234567890123 */
	assert_int_equal(parse(TRACE_FTRACE, "   a-5   [000] d..2.   100: sched_switch: x"), -1);
	assert_int_equal(col, 24);	/* the timestamp has no fraction */
	assert_string_equal(err, "expected a timestamp SECONDS.FRACTION");
	assert_int_equal(parse(TRACE_FTRACE, "hello world"), -1);
	assert_int_equal(col, 1);
	assert_int_equal(parse(TRACE_FTRACE,
		"   a-5   [000] d..2.   1.000001: sched_waking: comm=b pid=x prio=120 target_cpu=000"), -1);
	assert_int_equal(col, 59);	/* the x after pid= */
	assert_string_equal(err, "expected a number after 'pid='");
}

/* ---- trace-cmd report ---- */

static void test_tracecmd_plugin(void **state)
{
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"            bash-10791 [000] 19448.482261: sched_switch:         bash:10791 [120] S ==> "
		"swapper/0:0 [120]"), 1);
	assert_int_equal(rec.type, TREC_SWITCH);
	assert_int_equal(rec.ts, 19448482261000ull);
	assert_string_equal(rec.comm, "bash");
	assert_int_equal(rec.pid, 10791);
	assert_int_equal(rec.prio, 120);
	assert_int_equal(rec.state, TSTATE_BLOCKED);
	assert_string_equal(rec.comm2, "swapper/0");
	assert_int_equal(rec.pid2, 0);
	/* a comm holding a colon and a dash; rcu's W state (trace-cmd's name for I) */
	assert_int_equal(parse(TRACE_TRACE_CMD,
		" memfd:sealed-91-8257  [001] 19448.494000: sched_switch:         memfd:sealed-91:8257 [120] W "
		"==> cat:10797 [110]"), 1);
	assert_string_equal(rec.comm, "memfd:sealed-91");
	assert_int_equal(rec.pid, 8257);
	assert_int_equal(rec.prio2, 110);
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"            bash-10791 [000] 19448.481549: sched_wakeup_new:     bash:10795 [120] CPU:001"), 1);
	assert_int_equal(rec.type, TREC_WAKEUP_NEW);
	assert_int_equal(rec.pid, 10795);
	assert_int_equal(rec.target_cpu, 1);
	/* before 4.x the plugin printed success= */
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"            pong-11    [000]    50.000300: sched_wakeup:         ping:10 [120] success=1 CPU:000"), 1);
	assert_string_equal(rec.comm, "ping");
	assert_int_equal(rec.pid, 10);
	assert_int_equal(rec.target_cpu, 0);
	/* the events without a plugin print TP_printk()'s form */
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"             cat-10797 [001] 19448.488300: sched_waking:         comm=rcu_preempt pid=15 prio=120 "
		"target_cpu=001"), 1);
	assert_int_equal(rec.pid, 15);
}

static void test_tracecmd_raw(void **state)
{
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"            bash-10791 [000] 19448.482261: sched_switch:          prev_comm=bash prev_pid=10791 "
		"prev_prio=120 prev_state=1 next_comm=swapper/0 next_pid=0 next_prio=120"), 1);
	assert_int_equal(rec.state, TSTATE_BLOCKED);	/* 1: TASK_INTERRUPTIBLE */
	assert_int_equal(rec.pid2, 0);
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"          <idle>-0     [000] 19448.483138: sched_switch:          prev_comm=swapper/0 prev_pid=0 "
		"prev_prio=120 prev_state=0 next_comm=bash next_pid=10796 next_prio=120"), 1);
	assert_int_equal(rec.state, TSTATE_RUNNABLE);
	/* 0x100: TASK_REPORT_MAX, the preemption mark of 4.14 and later */
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"             cat-10797 [001] 1.000000: sched_switch: prev_comm=cat prev_pid=10797 prev_prio=120 "
		"prev_state=256 next_comm=b next_pid=3 next_prio=120"), 1);
	assert_int_equal(rec.state, TSTATE_RUNNABLE);
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"             cat-10797 [001] 1.000000: sched_switch: prev_comm=cat prev_pid=10797 prev_prio=120 "
		"prev_state=16 next_comm=b next_pid=3 next_prio=120"), 1);
	assert_int_equal(rec.state, TSTATE_DEAD);	/* 0x10: EXIT_DEAD */
	assert_int_equal(parse(TRACE_TRACE_CMD,
		"            bash-10791 [000] 19448.481542: sched_process_fork:    parent_comm=bash parent_pid=10791 "
		"child_comm=bash child_pid=10795"), 1);
	assert_int_equal(rec.pid, 10791);
	assert_int_equal(rec.pid2, 10795);
}

static void test_tracecmd_headers(void **state)
{
	assert_int_equal(parse(TRACE_TRACE_CMD, "cpus=2"), 0);
	assert_int_equal(rec.nr_cpus, 2);
	assert_int_equal(parse(TRACE_TRACE_CMD, "version = 6"), 0);
	assert_int_equal(parse(TRACE_TRACE_CMD, "CPU 0 is empty"), 0);
	assert_int_equal(parse(TRACE_TRACE_CMD, "CPU:1 [LOST 12 EVENTS]"), 0);
	assert_int_equal(rec.type, TREC_LOST);
	assert_int_equal(rec.cpu, 1);
	/* ftrace has no such lines */
	assert_int_equal(parse(TRACE_FTRACE, "cpus=2"), -1);
}

/* ---- perf script ---- */

static void test_perf(void **state)
{
	assert_int_equal(parse(TRACE_PERF,
		" memfd:sealed-91  8240 [000] 19456.521688:       sched:sched_switch: prev_comm=memfd:sealed-91 "
		"prev_pid=8240 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"), 1);
	assert_int_equal(rec.type, TREC_SWITCH);
	assert_string_equal(rec.ctx_comm, "memfd:sealed-91");
	assert_int_equal(rec.ctx_pid, 8240);
	assert_int_equal(rec.ts, 19456521688000ull);
	assert_string_equal(rec.comm, "memfd:sealed-91");
	assert_int_equal(rec.state, TSTATE_BLOCKED);
	assert_int_equal(parse(TRACE_PERF,
		"         swapper     0 [000] 19456.511738:       sched:sched_wakeup: comm=perf-exec pid=10856 "
		"prio=120 target_cpu=000"), 1);
	assert_int_equal(rec.type, TREC_WAKEUP);
	assert_int_equal(rec.ctx_pid, 0);
	assert_string_equal(rec.comm, "perf-exec");
	/* pid/tid (perf script -F +tid), nanoseconds (--ns), a comm with a blank */
	assert_int_equal(parse(TRACE_PERF,
		"     Web Content 4200/4242 [002] 100.001100123: sched:sched_waking: comm=x pid=9 prio=120 "
		"target_cpu=002"), 1);
	assert_string_equal(rec.ctx_comm, "Web Content");
	assert_int_equal(rec.ctx_pid, 4242);
	assert_int_equal(rec.ts, 100001100123ull);
	assert_int_equal(parse(TRACE_PERF,
		"            perf 10854 [000] 19456.511411: sched:sched_stat_runtime: comm=perf pid=1 runtime=5"), 0);
	assert_int_equal(parse(TRACE_PERF, "perf 1 [000] 1.5 sched:sched_switch:"), -1);
	assert_string_equal(err, "expected ':' after the timestamp");
}

/* ---- the importer ---- */

static const struct import_trace_opts no_opts;
static char *scn;

static int import(const char *text, const struct import_trace_opts *o)
{
	free(scn);
	scn = NULL;
	return import_trace("t.txt", text, strlen(text), TRACE_FTRACE, o ? o : &no_opts, &scn, NULL, err,
			    sizeof(err));
}

/* The imported text parses as a scenario. */
static void assert_scenario(void)
{
	struct scenario_file f;
	char perr[512];

	assert_non_null(scn);
	if (scenario_parse("t.scn", scn, strlen(scn), &f, perr, sizeof(perr)))
		fail_msg("%s\n%s", perr, scn);
	scenario_free(&f);
}

static void assert_contains(const char *needle)
{
	if (!strstr(scn, needle))
		fail_msg("no '%s' in\n%s", needle, scn);
}

#define SW(c, t, a, ap, st, b, bp)                                                            \
	"  " a "-" #ap " [00" #c "] d..2. " t ": sched_switch: prev_comm=" a " prev_pid=" #ap \
	" prev_prio=120 "                                                                     \
	"prev_state=" st " ==> next_comm=" b " next_pid=" #bp " next_prio=120\n"

static void test_wake_edge_and_preemption(void **state)
{
	/*
	 * a runs 1.000 -> 1.001 (1 ms), is preempted by b, runs again
	 * 1.0015 -> 1.002 and wakes c (task context): run 1500us; wake c.
	 * c, asleep since the start (1.000), waits for that wake.
	 */
	assert_int_equal(import(
		SW(0, "1.000000", "swapper/0", 0, "R", "a", 1)
		SW(0, "1.001000", "a", 1, "R+", "b", 2)
		SW(0, "1.001500", "b", 2, "S", "a", 1)
		"  a-1 [000] d..2. 1.002000: sched_waking: comm=c pid=3 prio=120 target_cpu=001\n"
		SW(1, "1.002100", "swapper/1", 0, "R", "c", 3)
		SW(1, "1.002600", "c", 3, "S", "swapper/1", 0)
		SW(0, "1.003000", "a", 1, "S", "swapper/0", 0), NULL), 0);
	assert_scenario();
	assert_contains("program a-1 {\n\trun 1500us\n\twake c-3\n\trun 1ms\n}\n");
	assert_contains("program b-2 {\n\trun 500us\n\tsleep 1500us\n}\n");
	assert_contains("program c-3 {\n\twait\n\trun 500us\n\tsleep 400us\n}\n");
	assert_contains("topology packages=1 cores=2 threads=1\nduration 3ms\n");
}

static void test_irq_wake_is_a_sleep(void **state)
{
	/* woken in hardirq context 2 ms after blocking: sleep 2ms, even though a ran */
	assert_int_equal(import(
		SW(0, "1.000000", "swapper/0", 0, "R", "s", 5)
		SW(0, "1.001000", "s", 5, "S", "a", 1)
		"  a-1 [000] d.h2. 1.003000: sched_waking: comm=s pid=5 prio=120 target_cpu=000\n"
		SW(0, "1.003000", "a", 1, "R+", "s", 5), NULL), 0);
	assert_scenario();
	assert_contains("program s-5 {\n\trun 1ms\n\tsleep 2ms\n}\n");
	assert_contains("program a-1 {\n\trun 2ms\n}\n");
}

static void test_prio_and_fork(void **state)
{
	/* prio 115 is nice -5; 125 later is `nice 5`; a fork at 1.0005 starts the child at 500us */
	assert_int_equal(import(
		"  x-1 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
		"prev_state=R ==> next_comm=p next_pid=7 next_prio=115\n"
		"  p-7 [000] ..... 1.000500: sched_process_fork: comm=p pid=7 child_comm=p child_pid=8\n"
		"  p-7 [000] d..2. 1.000500: sched_wakeup_new: comm=p pid=8 prio=120 target_cpu=001\n"
		"  p-7 [000] d..2. 1.001000: sched_switch: prev_comm=p prev_pid=7 prev_prio=125 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		SW(1, "1.002000", "swapper/1", 0, "R", "p", 8)
		SW(1, "1.002500", "p", 8, "S", "swapper/1", 0), NULL), 0);
	assert_scenario();
	assert_contains("program p-7 {\n\trun 1ms\n\tnice 5\n\tsleep 1500us\n}\ntask p-7 nice=-5 program=p-7\n");
	assert_contains("program p-8 {\n\trun 500us\n}\ntask p-8 at=500us program=p-8\n");
}

static void test_pid_reuse_and_repairs(void **state)
{
	FILE *w = tmpfile();
	char log[2048] = "";

	assert_non_null(w);
	free(scn);
	scn = NULL;
	/*
	 * pid 5 exits (X) and is forked again: two tasks, the second "b-5-2"
	 * starting at 2 ms. Line 4's clock goes back 10 us: taken as 1.002000.
	 * Line 6: b switched out on CPU 1 where nothing switched it in: it ran
	 * since its fork (2 ms), 1 ms.
	 */
	const char *t =
		SW(0, "1.000000", "swapper/0", 0, "R", "a", 5)
		SW(0, "1.001000", "a", 5, "X", "swapper/0", 0)
		"  x-1 [000] ..... 1.002000: sched_process_fork: comm=z pid=9 child_comm=b child_pid=5\n"
		"  x-1 [000] ..... 1.001990: sched_process_fork: comm=z pid=9 child_comm=q child_pid=6\n"
		SW(0, "1.002500", "swapper/0", 0, "R", "q", 6)
		SW(1, "1.003000", "b", 5, "S", "swapper/1", 0);
	assert_int_equal(import_trace("t.txt", t, strlen(t), TRACE_FTRACE, &no_opts, &scn, w, err, sizeof(err)),
			 0);
	rewind(w);
	log[fread(log, 1, sizeof(log) - 1, w)] = '\0';
	fclose(w);
	assert_scenario();
	assert_contains("program a-5 {\n\trun 1ms\n}\n");
	assert_contains("program b-5-2 {\n\trun 1ms\n}\ntask b-5-2 at=2ms program=b-5-2\n");
	assert_non_null(strstr(log, "t.txt:4: warning: the clock steps back by 10000 ns"));
	assert_non_null(strstr(log, "t.txt:6: warning: b-5 switched out of CPU 1 without being switched in"));
}

/* prio 49 in sched_switch is SCHED_FIFO/RR at sched_priority 50; a later change is not followed */
static void test_rt_task_imported_as_fifo(void **state)
{
	assert_int_equal(import(
		"  x-1 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
		"prev_state=R ==> next_comm=r next_pid=7 next_prio=49\n"
		"  x-1 [000] d..2. 1.002000: sched_switch: prev_comm=r prev_pid=7 prev_prio=59 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", NULL), 0);
	assert_scenario();
	assert_contains("task r-7 policy=fifo prio=50 ");
	assert_null(strstr(scn, "nice"));
}

static void test_missing_wakeup_is_a_timer(void **state)
{
	assert_int_equal(import(
		SW(0, "1.000000", "swapper/0", 0, "R", "a", 5)
		SW(0, "1.001000", "a", 5, "S", "swapper/0", 0)
		SW(0, "1.004000", "swapper/0", 0, "R", "a", 5), NULL), 0);
	assert_contains("program a-5 {\n\trun 1ms\n\tsleep 3ms\n}\n");
}

static void test_tracer_and_idle_options(void **state)
{
	struct import_trace_opts o = { .keep_idle = true, .keep_tracer = true };
	const char *t = SW(0, "1.000000", "swapper/0", 0, "R", "trace-cmd",
			   40) "  trace-cmd-40 [000] d..2. 1.001000: sched_waking: comm=w pid=41 prio=120 "
			       "target_cpu=000\n" SW(0, "1.002000", "trace-cmd", 40, "S", "w", 41)
				       SW(0, "1.003000", "w", 41, "S", "swapper/0",
					  0) "  <idle>-0 [000] d.h2. 1.004000: sched_waking: comm=z pid=99 "
					     "prio=120 target_cpu=000\n";

	/* left out: its wakeup of w is a sleep from the start (1.000) */
	assert_int_equal(import(t, NULL), 0);
	assert_scenario();
	assert_null(strstr(scn, "trace-cmd"));
	assert_null(strstr(scn, "swapper"));
	assert_contains("program w-41 {\n\tsleep 1ms\n\trun 1ms\n\tsleep 1ms\n}\n");
	/* kept: a wake edge, and the idle task of CPU 0 */
	assert_int_equal(import(t, &o), 0);
	assert_scenario();
	assert_contains("program trace-cmd-40 {\n\trun 1ms\n\twake w-41\n\trun 1ms\n\tsleep 2ms\n}\n");
	assert_contains("program w-41 {\n\twait\n\trun 1ms\n\tsleep 1ms\n}\n");
	/* CPU 0 idle from 1.003 to the end, 1.004 */
	assert_contains("program swapper_0-0 {\n\trun 1ms\n}\n");
	assert_contains("task swapper_0-0 policy=idle cpus=0 program=swapper_0-0\n");
}

static void test_affinity(void **state)
{
	struct import_trace_opts o = { .pin = true };
	const char *t =
		"# entries-in-buffer/entries-written: 4/4   #P:4\n"
		SW(2, "1.000000", "swapper/2", 0, "R", "ksoftirqd/2", 20)
		SW(2, "1.001000", "ksoftirqd/2", 20, "S", "m", 30)
		SW(2, "1.002000", "m", 30, "R+", "swapper/2", 0)
		SW(3, "1.003000", "swapper/3", 0, "R", "m", 30);

	/* a per-CPU thread's name shows its CPU; the four CPUs come from #P:4 */
	assert_int_equal(import(t, NULL), 0);
	assert_contains("topology packages=1 cores=4 threads=1\n");
	assert_contains("task ksoftirqd_2-20 cpus=2 program=");
	assert_contains("task m-30 program=");
	/* --pin: the CPUs each task ran on */
	assert_int_equal(import(t, &o), 0);
	assert_contains("task m-30 cpus=2-3 program=");
}

static void test_refusals_leave_nothing(void **state)
{
	assert_int_equal(import(SW(0, "5.000000", "swapper/0", 0, "R", "a", 5)
				SW(0, "3.000000", "a", 5, "S", "swapper/0", 0), NULL), -1);
	assert_null(scn);
	/* "  x-1 [000] d..2. " is 18 bytes: the timestamp is at column 19 */
	assert_string_equal(err, "t.txt:2:19: the clock steps back by 2000000000 ns (more than 1000000 ns): "
				 "not one recording?");
	assert_int_equal(import("# tracer: nop\n", NULL), -1);
	assert_null(scn);
	/* a broken line in the middle is refused; the same line cut short at the end is dropped */
	assert_int_equal(import(SW(0, "1.000000", "swapper/0", 0, "R", "a", 5) "  a-5 [000] d..2. 1.0\n"
				SW(0, "1.000100", "a", 5, "S", "swapper/0", 0), NULL), -1);
	assert_string_equal(err, "t.txt:2:22: expected ':' after the timestamp");
	assert_int_equal(import(SW(0, "1.000000", "swapper/0", 0, "R", "a", 5)
				SW(0, "1.000100", "a", 5, "S", "swapper/0", 0) "  a-5 [000] d..2. 1.0", NULL), 0);
	assert_contains("program a-5 {\n\trun 100us\n}\n");
}

static void test_repeats_become_loops(void **state)
{
	char text[4096];
	size_t k = 0;

	/*
	 * p runs 1 ms and sleeps 1 ms (a timer wakes it) four times, then
	 * runs 2 ms: loop 4 { run 1ms; sleep 1ms } and the last run. (Only
	 * three repeats or more become a loop.)
	 */
	for (int i = 0; i < 4; i++) {
		k += (size_t)snprintf(text + k, sizeof(text) - k,
			"  x-1 [000] d..2. 1.%03d000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
			"prev_state=R ==> next_comm=p next_pid=3 next_prio=120\n"
			"  p-3 [000] d..2. 1.%03d000: sched_switch: prev_comm=p prev_pid=3 prev_prio=120 "
			"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
			"  x-0 [000] d.h2. 1.%03d000: sched_waking: comm=p pid=3 prio=120 target_cpu=000\n",
			2 * i, 2 * i + 1, 2 * i + 2);
	}
	snprintf(text + k, sizeof(text) - k, "%s",
		 SW(0, "1.008000", "swapper/0", 0, "R", "p", 3)
		 SW(0, "1.010000", "p", 3, "S", "swapper/0", 0));
	assert_int_equal(import(text, NULL), 0);
	assert_scenario();
	assert_contains("program p-3 {\n\tloop 4 {\n\t\trun 1ms\n\t\tsleep 1ms\n\t}\n\trun 2ms\n}\n");
}

/* Import with the warnings caught in log. */
static int import_log(const char *text, const struct import_trace_opts *o, char *log, size_t n)
{
	FILE *w = tmpfile();
	int rc;

	assert_non_null(w);
	free(scn);
	scn = NULL;
	rc = import_trace("t.txt", text, strlen(text), TRACE_FTRACE, o ? o : &no_opts, &scn, w, err,
			  sizeof(err));
	rewind(w);
	log[fread(log, 1, n - 1, w)] = '\0';
	fclose(w);
	return rc;
}

/*
 * The trace loses tok's switch to the idle task (as CPU 1 of the test
 * machine loses tokio's): the idle task's next switch, 900 ms later, shows
 * tok gone. It ran to its last event (100 us), then a timer woke it at 1.5:
 * it slept. No CPU hog.
 */
static void test_lost_switch_out_to_idle(void **state)
{
	char log[2048];

	assert_int_equal(
		import_log(SW(1, "1.000000", "swapper/1", 0, "R", "tok",
			      81) "  tok-81 [001] d.h2. 1.000100: sched_waking: comm=a pid=5 prio=120 "
				  "target_cpu=000\n"
				  "  <idle>-0 [000] d.h2. 1.500000: sched_waking: comm=tok pid=81 prio=120 "
				  "target_cpu=001\n" SW(1, "1.900000", "swapper/1", 0, "R", "b", 6)
					  SW(1, "1.900500", "b", 6, "S", "swapper/1", 0),
			   NULL, log, sizeof(log)),
		0);
	assert_scenario();
	assert_contains("program tok-81 {\n\trun 100us\n\tsleep 499900us\n}\n");
	assert_non_null(strstr(log,
			       "t.txt:4: warning: tok-81 was still running on CPU 1: its switch-out was not "
			       "recorded, taken at its last event there\n"));
	assert_non_null(strstr(log, "t.txt: warning: 1 repairs:\n"));
	assert_non_null(strstr(log, "t.txt: warning:        1 switch-outs not recorded"));
	assert_non_null(strstr(log,
			       "t.txt: warning: tok-81: 1 switch-outs not recorded, taken at its last event "
			       "on the CPU; 1 of them followed by a wakeup (it slept)\n"));
}

/* A wakeup while t runs, then another task's event on its CPU: t had blocked before the wakeup. */
static void test_wakeup_then_lost_switch_out(void **state)
{
	char log[2048];

	assert_int_equal(import_log(SW(0, "1.000000", "swapper/0", 0, "R", "t",
				       7) "  t-7 [000] d.h2. 1.001000: sched_waking: comm=z pid=9 prio=120 "
					  "target_cpu=001\n"
					  "  <idle>-0 [001] d.h2. 1.002000: sched_waking: comm=t pid=7 "
					  "prio=120 target_cpu=000\n" SW(0, "1.004000", "u", 8, "S", "t", 7)
						  SW(0, "1.005000", "t", 7, "S", "swapper/0", 0),
				    NULL, log, sizeof(log)),
			 0);
	assert_scenario();
	/* t: 1 ms to its last event, asleep to the wakeup, runnable until u gives it the CPU */
	assert_contains("program t-7 {\n\trun 1ms\n\tsleep 1ms\n\trun 1ms\n}\n");
	/* u came in after t's last event (1.001), first seen then: no warning of its own */
	assert_contains("program u-8 {\n\trun 3ms\n");
	assert_non_null(strstr(log, "t.txt:4: warning: t-7 was still running on CPU 0"));
}

/* A wakeup of a task still on its CPU that goes on running is the race with its blocking: no repair. */
static void test_wakeup_while_running_is_no_evidence(void **state)
{
	char log[2048];

	assert_int_equal(import_log(SW(0, "1.000000", "swapper/0", 0, "R", "t",
				       7) "  <idle>-0 [001] d.h2. 1.001000: sched_waking: comm=t pid=7 "
					  "prio=120 target_cpu=000\n"
					  "  t-7 [000] d.h2. 1.002000: sched_waking: comm=z pid=9 prio=120 "
					  "target_cpu=001\n" SW(0, "1.003000", "t", 7, "S", "swapper/0", 0),
				    NULL, log, sizeof(log)),
			 0);
	assert_contains("program t-7 {\n\trun 3ms\n}\n");
	assert_string_equal(log, "");
}

/* Seen switched in on CPU 1 while running on CPU 0: it left CPU 0 at its last event there. */
static void test_switch_in_elsewhere(void **state)
{
	char log[2048];

	assert_int_equal(import_log(SW(0, "1.000000", "swapper/0", 0, "R", "t",
				       7) "  t-7 [000] d.h2. 1.001000: sched_waking: comm=z pid=9 prio=120 "
					  "target_cpu=001\n" SW(1, "1.003000", "swapper/1", 0, "R", "t", 7)
						  SW(1, "1.004000", "t", 7, "S", "swapper/1", 0),
				    NULL, log, sizeof(log)),
			 0);
	assert_contains("program t-7 {\n\trun 2ms\n}\n");
	assert_non_null(strstr(log, "t.txt:3: warning: t-7 was still running on CPU 0"));
}

/*
 * cgroup_attach_task in the unified hierarchy (0): a child forked before its
 * parent moves starts in the parent's group of the time; a task that ran
 * before its move moves at that time. Moves in another hierarchy (1) are
 * not followed.
 */
static void test_cgroup_moves(void **state)
{
	const char *t =
		SW(0, "1.000000", "swapper/0", 0, "R", "sh",
		   10) "  sh-10 [000] ..... 1.000100: cgroup_attach_task: dst_root=0 dst_id=5 dst_level=1 "
		       "dst_path=/web "
		       "pid=10 comm=sh\n"
		       "  sh-10 [000] ..... 1.000100: cgroup_attach_task: dst_root=1 dst_id=5 dst_level=1 "
		       "dst_path=/other "
		       "pid=10 comm=sh\n"
		       "  sh-10 [000] ..... 1.000200: sched_process_fork: comm=sh pid=10 child_comm=sh "
		       "child_pid=11\n"
		       "  sh-10 [000] ..... 1.000300: cgroup_attach_task: dst_root=0 dst_id=6 dst_level=2 "
		       "dst_path=/web/a b@1 pid=11 comm=sh\n" SW(0, "1.001000", "sh", 10, "S", "sh", 11)
			       SW(0, "1.002000", "sh", 11, "S", "swapper/0", 0);

	assert_int_equal(import(t, NULL), 0);
	assert_scenario();
	assert_contains("\ngroup /web\ngroup /web/a_b_1\n");
	assert_contains("task sh-11 at=200us group=/web/a_b_1 program=sh-11\n");
	assert_contains("task sh-10 program=sh-10\n");
	assert_contains("at 100us move task sh-10 to /web\n");
	assert_null(strstr(scn, "/other"));
}

/*
 * prio -1 is SCHED_DEADLINE: woken every 10 ms, jobs of 1 ms and 2 ms, so
 * runtime 2ms, period and deadline 10ms.
 */
static void test_deadline_reservation_inferred(void **state)
{
	char text[4096], log[2048];
	size_t k = 0;

	for (int i = 0; i < 4; i++)
		k += (size_t)snprintf(
			text + k, sizeof(text) - k,
			"  <idle>-0 [000] d.h2. 1.%03d000: sched_waking: comm=d pid=3 prio=-1 "
			"target_cpu=000\n"
			"  <idle>-0 [000] d..2. 1.%03d000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
			"prev_prio=120 "
			"prev_state=R ==> next_comm=d next_pid=3 next_prio=-1\n"
			"  d-3 [000] d..2. 1.%03d000: sched_switch: prev_comm=d prev_pid=3 prev_prio=-1 "
			"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n",
			10 * i, 10 * i, 10 * i + 1 + (i == 2));
	assert_int_equal(import_log(text, NULL, log, sizeof(log)), 0);
	assert_scenario();
	assert_contains("task d-3 policy=deadline runtime=2ms deadline=10ms period=10ms program=d-3\n");
	assert_non_null(strstr(log, "t.txt: warning: d-3 is a SCHED_DEADLINE task: runtime 2000000 ns per "
				    "10000000 ns, inferred from its 4 jobs"));
}

/*
 * `trace-cmd report --stat` before the events: the recording ended at
 * "now ts" (1.010), so the duration and the last sleep reach it; CPU 1's
 * overrun is a warning.
 */
static void test_buffer_statistics(void **state)
{
	char log[2048];
	const char *t =
		"cpus=2\n"
		"\n"
		"Kernel buffer statistics:\n"
		"  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
		"        recorded in the trace data. They should all be zero.\n"
		"\n"
		"CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\noldest event ts:     1.000000\n"
		"now ts:     1.010000\ndropped events: 0\nread events: 3\n\n"
		"CPU: 1\nentries: 0\noverrun: 12\ncommit overrun: 0\nbytes: 0\noldest event ts:     "
		"1.000000\n"
		"now ts:     1.010002\ndropped events: 0\nread events: 0\n\n"
		"CPU0 data recorded at offset=0x1000\n    8192 bytes in size (0 uncompressed)\n"
		"          <idle>-0     [000]     1.000000: sched_switch:         swapper/0:0 [120] R ==> "
		"a:5 [120]\n"
		"               a-5     [000]     1.001000: sched_switch:         a:5 [120] S ==> "
		"swapper/0:0 [120]\n";

	FILE *w = tmpfile();

	assert_non_null(w);
	free(scn);
	scn = NULL;
	assert_int_equal(
		import_trace("t.txt", t, strlen(t), TRACE_TRACE_CMD, &no_opts, &scn, w, err, sizeof(err)), 0);
	rewind(w);
	log[fread(log, 1, sizeof(log) - 1, w)] = '\0';
	fclose(w);
	assert_scenario();
	assert_contains("duration 11ms\n");
	assert_contains("program a-5 {\n\trun 1ms\n\tsleep 9002us\n}\n");
	assert_non_null(strstr(log, "t.txt:19: warning: the buffer statistics say CPU 1 lost 12 events\n"));
}

static int teardown(void **state)
{
	free(scn);
	scn = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ftrace_switch_6_18),
		cmocka_unit_test(test_ftrace_waking_in_softirq),
		cmocka_unit_test(test_ftrace_old_layout_tgid_spaces_dashes),
		cmocka_unit_test(test_ftrace_without_flags),
		cmocka_unit_test(test_ftrace_fork_exit_migrate),
		cmocka_unit_test(test_ftrace_headers_and_other_events),
		cmocka_unit_test(test_ftrace_errors_have_columns),
		cmocka_unit_test(test_tracecmd_plugin),
		cmocka_unit_test(test_tracecmd_raw),
		cmocka_unit_test(test_tracecmd_headers),
		cmocka_unit_test(test_perf),
		cmocka_unit_test_teardown(test_wake_edge_and_preemption, teardown),
		cmocka_unit_test_teardown(test_irq_wake_is_a_sleep, teardown),
		cmocka_unit_test_teardown(test_prio_and_fork, teardown),
		cmocka_unit_test_teardown(test_pid_reuse_and_repairs, teardown),
		cmocka_unit_test_teardown(test_rt_task_imported_as_fifo, teardown),
		cmocka_unit_test_teardown(test_missing_wakeup_is_a_timer, teardown),
		cmocka_unit_test_teardown(test_tracer_and_idle_options, teardown),
		cmocka_unit_test_teardown(test_affinity, teardown),
		cmocka_unit_test_teardown(test_refusals_leave_nothing, teardown),
		cmocka_unit_test_teardown(test_repeats_become_loops, teardown),
		cmocka_unit_test_teardown(test_lost_switch_out_to_idle, teardown),
		cmocka_unit_test_teardown(test_wakeup_then_lost_switch_out, teardown),
		cmocka_unit_test_teardown(test_wakeup_while_running_is_no_evidence, teardown),
		cmocka_unit_test_teardown(test_switch_in_elsewhere, teardown),
		cmocka_unit_test_teardown(test_cgroup_moves, teardown),
		cmocka_unit_test_teardown(test_deadline_reservation_inferred, teardown),
		cmocka_unit_test_teardown(test_buffer_statistics, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
