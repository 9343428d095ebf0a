// SPDX-License-Identifier: GPL-2.0
/* Scenario parameters (`param`, ${NAME}, --param) and the overrides sweep and run apply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Before cmocka.h, which has a macro called expect_check. */
#include "src/format/group_parse.h"
#include "src/format/scenario_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define MS 1000000ULL

static char err[1024];

static int parse_ov(const char *text, const struct scenario_overrides *ov, struct scenario_file *f)
{
	return scenario_parse_with("t.scn", text, strlen(text), ov, f, err, sizeof(err));
}

/* The text with these --param values must fail with exactly this message. */
static void check_error(const char *text, int nr, const char *const *param, const char *want)
{
	struct scenario_overrides ov = { NULL, nr, param, 0, NULL };
	struct scenario_file f;

	err[0] = 0;
	if (parse_ov(text, &ov, &f) != -1 || strcmp(err, want))
		fail_msg("input:\n%s\nexpected '%s', got '%s'", text, want, err);
}

static const char family[] =
	"param tasks=3 slice=2ms\n"
	"param quota=20ms weight=200 first=1 label=hogs\n"
	"topology packages=1 cores=4\n"
	"group /lim cpu.max=\"${quota} 100ms\" cpu.weight=${weight}\n"
	"task hog count=${tasks} cpus=${first}-3 group=/lim program=\"loop { run ${slice}; sleep 1ms }\"\n"
	"at ${slice} set nice hog.${first} 5\n"
	"note 1s \"${tasks} ${label}\"\n"
	"expect share(hog.${first}) > 0.${first}\n"
	"break switch next=hog.${first}\n";

static void test_expansion(void **state)
{
	struct scenario_file f;

	if (parse_ov(family, NULL, &f) < 0)
		fail_msg("%s", err);
	assert_int_equal(f.sc.nr_tasks, 3);
	assert_string_equal(f.sc.task[2].name, "hog.2");
	assert_false(cpumask_test(&f.sc.task[0].cpus, 0));
	assert_true(cpumask_test(&f.sc.task[0].cpus, 1));
	assert_int_equal(f.sc.group[1].quota, 20 * MS);
	assert_int_equal(f.sc.group[1].shares, sched_weight_from_cgroup(200));
	assert_int_equal(f.sc.task[0].prog->insn[1].dur.a, 2 * MS); /* run 2ms */
	assert_int_equal(f.sc.nr_actions, 1);
	assert_int_equal(f.sc.action[0].time, 2 * MS);
	assert_string_equal(f.sc.note[0].text, "3 hogs");
	assert_string_equal(f.expect[0].pattern, "hog.1");
	/* messages quote the expect as written */
	assert_string_equal(f.expect[0].text, "share(hog.${first}) > 0.${first}");
	assert_true(f.expect[0].value > 0.09 && f.expect[0].value < 0.11);
	assert_string_equal(f.brk[0].text, " switch next=hog.1");
	assert_int_equal(f.nr_params, 6);
	assert_string_equal(f.param[0].name, "tasks");
	assert_string_equal(f.param[0].value, "3");
	scenario_free(&f);

	/* --param replaces defaults, the last one given wins, of the default's kind */
	const char *const p[] = {
		"tasks=5", "slice=750us", "weight=50", "label=x-y", "quota=5ms", "tasks=6"
	};
	struct scenario_overrides ov = { NULL, 6, p, 0, NULL };
	if (parse_ov(family, &ov, &f) < 0)
		fail_msg("%s", err);
	assert_int_equal(f.sc.nr_tasks, 6);
	assert_int_equal(f.sc.task[0].prog->insn[1].dur.a, 750000);
	assert_string_equal(f.sc.note[0].text, "6 x-y");
	assert_string_equal(f.param[0].value, "6");
	scenario_free(&f);
}

static void test_errors(void **state)
{
	static const char use[] = "param n=2\ntopology single\ntask a count=${m} program=\"run 1ms\"\n";
	static const char prog[] =
		"param s=2ms\ntopology single\ntask a program=\"loop { run ${s}; slep 1ms }\"\n";

	check_error(use, 0, NULL,
		    "t.scn:3:14: undeclared parameter 'm' (declare it before its use: param m=DEFAULT)");
	check_error("topology single\ntask a count=${n} program=\"run 1ms\"\nparam n=2\n", 0, NULL,
		    "t.scn:2:14: undeclared parameter 'n' (declare it before its use: param n=DEFAULT)");
	check_error("param n=2\ntopology single\ntask a count=${n program=\"run 1ms\"\n", 0, NULL,
		    "t.scn:3:14: unterminated '${' (a parameter is ${NAME})");
	check_error(use, 1, (const char *const[]){ "n=2ms" },
		    "t.scn:1:9: --param n=2ms: the parameter is an integer (default 2), not a duration");
	check_error("param n=2\ntopology single\n", 1, (const char *const[]){ "m=2" },
		    "t.scn: --param m=2: the scenario declares no such parameter (it declares n)");
	check_error("topology single\n", 1, (const char *const[]){ "m=2" },
		    "t.scn: --param m=2: the scenario declares no such parameter (it has no `param` lines)");
	check_error("param n=2\nparam n=3\n", 0, NULL,
		    "t.scn:2:7: duplicate parameter 'n' (first at line 1)");
	check_error("param 9n=2\n", 0, NULL,
		    "t.scn:1:7: bad parameter name '9n' (a letter or '_', then letters, digits and '_', up "
		    "to 31)");
	check_error("param n=2\nparam k=${n}\n", 0, NULL,
		    "t.scn:2:9: parameter 'k': the default must be one plain word (no blanks, quotes, '$' or "
		    "punctuation)");
	check_error("param n\n", 0, NULL, "t.scn:1:7: 'param' needs NAME=DEFAULT");
	check_error(use, 1, (const char *const[]){ "n=a;b" },
		    "t.scn:1:9: --param n=a;b: a value is one plain word (no blanks, quotes, '$' or "
		    "punctuation)");
	/* a value of the right kind can still be wrong where it is used: the error is there */
	check_error("param n=2\ntopology single\ntask a count=${n} program=\"run 1ms\"\n", 1,
		    (const char *const[]){ "n=0" }, "t.scn:3:14: count '0' is out of range (1..100000)");
	/* inside a program the columns are those of the text as written, up to the reference */
	check_error(prog, 1, (const char *const[]){ "s=3ms" },
		    "t.scn:3:34: unknown statement 'slep' (expected run, sleep, loop, wait, wake, yield, "
		    "yield_to, exit, nice, lock, unlock, "
		    "cond_wait, signal, broadcast, suspend, resume, barrier, timer, fork, log)");
	check_error(prog, 1, (const char *const[]){ "s=3" },
		    "t.scn:1:9: --param s=3: the parameter is a duration (default 2ms), not an integer");
}

static void test_overrides(void **state)
{
	static const char pinned[] =
		"topology single\ntask a cpus=0 program=\"run 1ms\"\ntask b cpus=3 program=\"run 1ms\"\n";
	struct scenario_overrides ov = { "quad-socket-quad-core", 0, NULL, 0, NULL };
	const char *const set[] = { "kernel=6.1", "seed=9", "hz=1000" };
	struct scenario_file f;

	/* the file's topology is replaced; its CPU lists are checked against the new one */
	if (scenario_parse_with("scenarios/t.scn", pinned, strlen(pinned), &ov, &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(f.topo.nr_cpus, 16);
	scenario_free(&f);
	ov.topology = "dual";
	assert_int_equal(
		scenario_parse_with("scenarios/t.scn", pinned, strlen(pinned), &ov, &f, err, sizeof(err)),
		-1);
	assert_string_equal(err, "scenarios/t.scn:3:13: CPU 3 does not exist (2 CPUs, 0-1)");
	ov.topology = "nowhere";
	assert_int_equal(
		scenario_parse_with("scenarios/t.scn", pinned, strlen(pinned), &ov, &f, err, sizeof(err)),
		-1);
	assert_true(
		!strncmp(err, "scenarios/t.scn:1:10: --topology nowhere: topology 'nowhere' not found", 70));

	/* --set values after the file, in order */
	ov = (struct scenario_overrides){ "quad-socket-quad-core", 0, NULL, 3, set };
	if (scenario_parse_with("scenarios/t.scn", pinned, strlen(pinned), &ov, &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(f.sc.kernel, KV(6, 1));
	assert_int_equal(f.sc.variant, SCHED_VARIANT_CFS);
	assert_int_equal(f.sc.seed, 9);
	assert_int_equal(f.sc.hz, 1000);
	scenario_free(&f);
	const char *const bad[] = { "hz=7" };
	ov = (struct scenario_overrides){ NULL, 0, NULL, 1, bad };
	assert_int_equal(parse_ov("topology single\n", &ov, &f), -1);
	assert_string_equal(err, "--set: hz '7' is not one of 100, 250, 300, 1000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expansion),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_overrides),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
