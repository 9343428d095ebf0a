// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app JSON import rules one by one: what rt-app and workgen accept, how
 * each construct is written, warnings and errors with their places. The
 * whole-file outputs are checked by tests/run-import.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/import/import_rtapp.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static char *out, *warns, err[512];
static struct import_rtapp_opts opts; /* rt-app's own reading unless a test asks for workgen's */
static int rc;

/* Import text; out/warns hold what was written (freed by the next call). */
static void import(const char *text)
{
	size_t olen = 0, wlen = 0;
	FILE *o, *w;

	free(out);
	free(warns);
	out = warns = NULL;
	o = open_memstream(&out, &olen);
	w = open_memstream(&warns, &wlen);
	assert_non_null(o);
	assert_non_null(w);
	err[0] = 0;
	rc = import_rtapp("t.json", text, strlen(text), &opts, o, w, err, sizeof(err));
	fclose(o);
	fclose(w);
}

/* a, then b, appear in s in this order. */
static void in_order(const char *s, const char *a, const char *b)
{
	const char *pa = strstr(s, a);

	if (!pa || !strstr(pa + strlen(a), b))
		fail_msg("expected '%s' then '%s' in:\n%s", a, b, s);
}

static void has(const char *s, const char *what)
{
	if (!strstr(s, what))
		fail_msg("expected '%s' in:\n%s", what, s);
}

#define G "\"global\": { \"duration\": 1 }, "

/* json-c's comments and trailing commas, workgen's duplicate keys and bare suspend */
static void test_leniency(void **state)
{
	const char *t = "{ // line comment\n" G "\"tasks\": { \"t x\": { /* block */ \"loop\": 2,\n"
			"  \"run\": 1, \"sleep\": 2, \"run\": 3, \"suspend\", \"run\": 4, }, }, }";

	opts.workgen = true;
	import(t);
	opts.workgen = false;
	assert_int_equal(rc, 0);
	in_order(out, "run 1us", "sleep 2us");
	in_order(out, "sleep 2us", "run 3us");
	in_order(out, "run 3us", "suspend t_x");	/* the bare suspend: the task's own name */
	in_order(out, "suspend t_x", "run 4us");
	has(out, "program t_x {\n        loop 2 {\n");
	assert_string_equal(warns, "");

	/* rt-app itself (json-c): one "run", the last value at the first one's place */
	import(t);
	assert_int_equal(rc, 3);
	has(warns,
	    "t.json:3:35: warning: a key without a value is workgen's syntax, which rt-app itself refuses: "
	    "read as workgen reads it\n");
	has(out, "        loop 2 {\n                run 4us\n                sleep 2us\n"
		 "                suspend t_x\n                log\n        }\n");
	assert_null(strstr(out, "run 1us"));
	assert_null(strstr(out, "run 3us"));
	has(warns,
	    "t.json:3:3: warning: \"run\" is repeated: rt-app (json-c) keeps only its last value, at its "
	    "first place (--workgen keeps each)\n");
	has(warns, "t.json:3:25: warning: \"run\" is repeated");
}

/*
 * mp3-short.json's AudioOut as Debian's rt-app runs it: its log shows
 * c_duration 4725 per loop, and AudioTrack woken after the run.
 */
static void test_repeated_keys_as_rtapp_runs_them(void **state)
{
	import("{" G "\"tasks\": { \"AudioOut\": { \"loop\": -1, \"run\": 275, \"resume\": \"AudioTrack\",\n"
	       "\"run\": 4725, \"suspend\": \"AudioOut\" } } }");
	assert_int_equal(rc, 1);
	has(out, "        loop {\n                run 4725us\n                resume AudioTrack\n"
		 "                suspend AudioOut\n                log\n        }\n");
	has(warns, "t.json:1:68: warning: \"run\" is repeated");
}

/* Event keys by prefix, as rt-app matches them: "runtime" before "run", "run2" is a run. */
static void test_prefixes(void **state)
{
	import("{" G "\"tasks\": { \"a\": { \"loop\": 1, \"run2\": 5, \"runtime_x\": 6, \"sleeping\": 7,"
	       " \"broadcast\": \"c\", \"locked\": \"m\", \"unlock9\": \"m\", \"yield\": \"\" } } }");
	assert_int_equal(rc, 0);
	in_order(out, "run 5us", "run 6us");
	in_order(out, "sleep 7us", "broadcast c");
	in_order(out, "lock m", "unlock m");
	has(out, "yield");
	/* with loop 1, no loop is written */
	assert_null(strstr(out, "loop"));
}

/* instance 0 tasks are started by fork: as many as the forks in their loops, at most 16. */
static void test_fork_pools(void **state)
{
	opts.workgen = true; /* two "fork" keys */
	import("{" G "\"tasks\": { \"p\": { \"loop\": 3, \"fork\": \"c\", \"fork\": \"d\", \"sleep\": 1 },"
	       " \"c\": { \"instance\": 0, \"loop\": 1, \"run\": 1 },"
	       " \"d\": { \"instance\": 2, \"loop\": 1, \"run\": 1 } } }");
	assert_int_equal(rc, 0);
	has(out, "fork c\n");
	has(out, "fork d_fork\n");
	has(out, "task c count=3 program=c\n");
	has(out, "task d count=2 program=d\n");
	has(out, "task d_fork count=3 program=d\n");

	import("{" G "\"tasks\": { \"p\": { \"fork\": \"c\", \"sleep\": 1 },"
	       " \"c\": { \"instance\": 0, \"loop\": 1, \"run\": 1 } } }");
	assert_int_equal(rc, 1);
	opts.workgen = false;
	has(out, "task c count=16 program=c\n");
	has(warns, "t.json:1:76: warning: task c is forked forever or more than 16 times: 16 instances are declared for it");
}

/*
 * rt-app sets each phase's cpus as the phase begins; a scenario task has
 * one affinity: the same set in every phase is exact, different ones give
 * their union with a warning.
 */
static void test_phase_cpus(void **state)
{
	import("{" G "\"tasks\": { \"a\": { \"phases\": { \"p1\": { \"cpus\": [1], \"run\": 1 },"
	       " \"p2\": { \"cpus\": [1], \"run\": 2 } } } } }");
	assert_int_equal(rc, 0);
	has(out, "task a cpus=1 program=a\n");
	import("{" G
	       "\"tasks\": { \"a\": { \"cpus\": [2], \"phases\": { \"p1\": { \"cpus\": [0], \"run\": 1 },"
	       " \"p2\": { \"run\": 2 }, \"p3\": { \"cpus\": [0, 2], \"run\": 3 } } } } }");
	assert_int_equal(rc, 1);
	has(out, "task a cpus=0,2 program=a\n");
	has(warns,
	    "warning: task a changes its cpus from phase to phase: the scenario has no per-phase affinity, "
	    "it keeps their union in all 3 phases (2 of them wider than written)\n");
}

/* Attributes: priority, dl-runtime as a slice (clamped), cpus, delay, every policy rt-app takes. */
static void test_attributes(void **state)
{
	import("{" G "\"tasks\": {\n"
	       "\"a\": { \"priority\": -5, \"dl-runtime\": 20, \"cpus\": [3, 1], \"delay\": 1500, \"run\": 1 },\n"
	       "\"b\": { \"policy\": \"SCHED_RR\", \"priority\": 50, \"run\": 1 },\n"
	       "\"c\": { \"policy\": \"SCHED_IDLE\", \"priority\": 40, \"run\": 1 },\n"
	       "\"d\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 10000, \"dl-period\": 100000, \"run\": 1 },\n"
	       "\"e\": { \"policy\": \"SCHED_FIFO\", \"run\": 1 },\n"
	       "\"f\": { \"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 20000, \"dl-deadline\": 10000, "
	       "\"dl-period\": 100000, \"run\": 1 } } }");
	assert_int_equal(rc, 4);
	has(out, "topology packages=1 cores=4 threads=1\n");
	has(out, "task a nice=-5 slice=100us cpus=3,1 at=1500us program=a\n");
	has(out, "task b policy=rr prio=50 program=b\n");
	has(out, "task c policy=idle nice=19 program=c\n");
	/* dl-deadline defaults to the period; dl-runtime is the runtime, not a slice */
	has(out, "task d policy=deadline runtime=10000us deadline=100000us period=100000us program=d\n");
	has(out, "task e policy=fifo prio=1 program=e\n");
	/* back to SCHED_OTHER, its dl-runtime is a slice again */
	has(out, "task f slice=20000us program=f\n");
	has(warns, "t.json:2:24: warning: dl-runtime 20 us is outside the slice range 100us..100ms: 100 us\n");
	has(warns, "t.json:4:32: warning: priority 40 is no nice value: 19\n");
	has(warns, "warning: priority 0 is no real-time priority (1..99): 1\n");
	has(warns, "warning: SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period, the period within "
		   "100..4194304 us: task f runs as SCHED_OTHER\n");
	import("{" G "\"tasks\": { \"g\": { \"policy\": \"SCHED_BATCH\", \"run\": 1 } } }");
	has(out, "task g policy=batch program=g\n");
}

/* Timers, mem/iorun, taskgroup and unknown keys. */
static void test_conversions(void **state)
{
	import("{" G "\"tasks\": { \"a\": { \"taskgroup\": \"/g/h i\", \"frob\": 1,\n"
	       "\"timer\": { \"ref\": \"unique1\", \"period\": 1000, \"mode\": \"absolute\" },\n"
	       "\"timer2\": { \"ref\": \"s\", \"period\": 2000 }, \"mem\": 21, \"iorun\": 3 },\n"
	       "\"b\": { \"taskgroup\": \"/g\", \"run\": 1 } } }");
	assert_int_equal(rc, 4);
	in_order(out, "timer unique1 1000us absolute", "timer s 2000us\n");
	in_order(out, "run 3ns  # mem 21", "run 3ns  # iorun 3");
	/* groups are declared once each, parents first, before the tasks */
	in_order(out, "group /g\ngroup /g/h_i\n", "task a group=/g/h_i program=a\n");
	has(out, "task b group=/g program=b\n");
	has(warns, "t.json:1:49: warning: taskgroup /g/h i is group /g/h_i here\n");
	has(warns, "t.json:1:72: warning: unknown key 'frob' ignored\n");
	has(warns, "t.json:3:43: warning: mem 21 bytes cannot be modelled: run 3ns instead");
}

/* Errors name the place and write nothing. */
static void test_errors(void **state)
{
	import("{" G "\"tasks\": { \"a\": { \"loop\": 1,\n  \"wait\": \"c\" } } }");
	assert_int_equal(rc, -1);
	assert_string_equal(err, "t.json:2:3: this event needs an object {\"ref\": ..., \"mutex\": ...}");
	assert_string_equal(out, "");

	import("[1, 2]");
	assert_int_equal(rc, -1);
	assert_string_equal(err, "t.json:1:1: an rt-app file is a JSON object");

	import("{ \"tasks\": { \"a\": { \"instance\": -1, \"run\": 1 } } }");
	assert_string_equal(err, "t.json:1:21: instance -1 is out of range 0..100000");

	import("{ \"tasks\": { \"a\": { \"run\": 1 }, \"b\": 3 } }");
	assert_string_equal(err, "t.json:1:33: task 'b' needs an object");
}

/* Whatever was imported reads back as a scenario. */
static void test_reads_back(void **state)
{
	struct scenario_file f;
	char e[512];

	import("{" G "\"tasks\": { \"a.b\": { \"instance\": 3, \"lock\": \"m\", \"run\": 10, \"unlock\": \"m\","
	       " \"barrier\": \"x\", \"timer\": { \"ref\": \"t\", \"period\": 100 } },"
	       " \"a_b\": { \"loop\": 2, \"resume\": \"a.b\", \"sleep\": 5 } } }");
	assert_int_equal(rc, 0);
	has(out, "task a_b count=3 program=a_b\n");
	has(out, "task a_b_2 program=a_b_2\n");	/* the clash gets a suffix */
	if (scenario_parse("t.scn", out, strlen(out), &f, e, sizeof(e)) < 0)
		fail_msg("%s\n%s", e, out);
	assert_int_equal(f.sc.nr_tasks, 4);
	assert_int_equal(f.sc.nr_sync, 4);	/* m, x, t, and the condition a.b */
	scenario_free(&f);
}

static int teardown(void **state)
{
	free(out);
	free(warns);
	out = warns = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leniency),    cmocka_unit_test(test_repeated_keys_as_rtapp_runs_them),
		cmocka_unit_test(test_prefixes),    cmocka_unit_test(test_fork_pools),
		cmocka_unit_test(test_attributes),  cmocka_unit_test(test_phase_cpus),
		cmocka_unit_test(test_conversions), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_reads_back),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
