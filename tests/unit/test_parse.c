// SPDX-License-Identifier: GPL-2.0
/* The file parsers: scenarios, topologies, run-time commands, and their errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Before cmocka.h, which has a macro called expect_check. */
#include "src/format/command.h"
#include "src/format/lex.h"
#include "src/format/scenario_file.h"
#include "src/format/topology_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL

/* A 4-CPU machine without a file, for scenarios that do not care. */
#define TOPO4 "topology packages=1 cores=4\n"

static char err[1024];

static int parse(const char *text, struct scenario_file *f)
{
	return scenario_parse("t.scn", text, strlen(text), f, err, sizeof(err));
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* text must fail with a message starting with prefix, leaving *out zeroed. */
static void check_scn_error(const char *text, size_t len, const char *prefix)
{
	struct scenario_file f;

	memset(&f, 0xa5, sizeof(f));
	err[0] = 0;
	int r = scenario_parse("bad.scn", text, len, &f, err, sizeof(err));
	if (r != -1 || strncmp(err, prefix, strlen(prefix)))
		fail_msg("input:\n%.300s\nexpected error starting '%s', got %d '%s'", text, prefix, r, err);
	assert_true(all_zero(&f, sizeof(f)));
}

#define SCN_ERROR(text, prefix) check_scn_error(text, strlen(text), prefix)

static void check_topo_error(const char *text, const char *prefix)
{
	struct sched_topology t;

	err[0] = 0;
	int r = topology_parse("bad.topo", text, strlen(text), &t, err, sizeof(err));
	if (r != -1 || strncmp(err, prefix, strlen(prefix)))
		fail_msg("input:\n%s\nexpected error starting '%s', got %d '%s'", text, prefix, r, err);
	assert_true(all_zero(&t, sizeof(t)));
}

/* ---- a good scenario, down to the instructions ---- */

static const char good[] =
	"# a scenario using most of the grammar\n"
	"topology  quad-socket-quad-core   # from topologies/\n"
	"hz        1000\n"
	"seed      42\n"
	"duration  2.5s\n"
	"feature   NO_PLACE_LAG\n"
	"feature   PLACE_LAG RUN_TO_PARITY\n"
	"feature   NO_RUN_TO_PARITY\n"
	"tunable   base_slice=3ms nr_migrate=8\n"
	"\n"
	"program pinger {\n"
	"  loop 10 {\n"
	"    run uniform(1ms, 3ms); wake pong\n"
	"    sleep exp(5ms)\n"
	"  }\n"
	"  exit\n"
	"}\n"
	"task hog  count=3 nice=-5 cpus=0,2-3 program=\"run forever\"\n"
	"task web  count=2 policy=batch slice=0.75ms at=1s program=\"loop { run 2ms; sleep normal(8ms, 1ms) }\"\n"
	"task ping program=pinger\n"
	"task pong program=\"loop { wait; run 100us; wake ping; yield }\"\n"
	"at 2s set nice web.* 5\n"
	"at 1s set tunable migration_cost=0\n"
	"at 1s set feature NO_WAKEUP_PREEMPTION\n"
	"at 2s set policy hog.1 idle\n"
	"note 2s \"second \\\"note\\\"\"\n"
	"note 1s \"first note\"   # sorted by time\n"
	"expect share(hog.*) = 0.333 +- 0.01 over 1s..2s\n"
	"expect wakeup_latency(web.*, p99) < 2ms\n"
	"expect share(pong) >= 10%\n"
	"expect migrations(ping) <= 3\n";

static void test_good_scenario(void **state)
{
	struct scenario_file f;
	const struct sched_scenario *sc = &f.sc;

	if (parse(good, &f) < 0)
		fail_msg("%s", err);
	assert_ptr_equal(sc->topo, &f.topo);
	assert_int_equal(f.topo.nr_cpus, 16);
	assert_int_equal(sc->hz, 1000);
	assert_int_equal(sc->seed, 42);
	assert_int_equal(sc->duration, 2500 * MS);
	assert_int_equal(sc->variant, SCHED_VARIANT_EEVDF);
	assert_int_equal(sc->kernel, KV_LATEST);
	assert_int_equal(sc->features_set, FEAT_BIT(FEAT_PLACE_LAG));
	assert_int_equal(sc->features_clear, FEAT_BIT(FEAT_RUN_TO_PARITY));
	assert_true(sc->tunable_set[TUN_BASE_SLICE]);
	assert_int_equal(sc->tunable[TUN_BASE_SLICE], 3 * MS);
	assert_int_equal(sc->tunable[TUN_NR_MIGRATE], 8);
	assert_false(sc->tunable_set[TUN_LATENCY]);

	/* tasks: hog.0-2, web.0-1, ping, pong; pid = index + 1 is the engine's */
	assert_int_equal(sc->nr_tasks, 7);
	const char *names[] = { "hog.0", "hog.1", "hog.2", "web.0", "web.1", "ping", "pong" };
	for (int i = 0; i < 7; i++)
		assert_string_equal(sc->task[i].name, names[i]);
	assert_int_equal(sc->task[1].nice, -5);
	assert_true(sc->task[2].has_cpus);
	assert_true(cpumask_test(&sc->task[2].cpus, 0));
	assert_false(cpumask_test(&sc->task[2].cpus, 1));
	assert_true(cpumask_test(&sc->task[2].cpus, 3));
	assert_false(sc->task[3].has_cpus);
	assert_int_equal(sc->task[3].policy, SCHED_BATCH);
	assert_int_equal(sc->task[4].slice, 750 * US);
	assert_int_equal(sc->task[4].start, SEC);
	assert_int_equal(sc->task[0].line, 18);
	/* an inline program is compiled once per task line and shared */
	assert_ptr_equal(sc->task[0].prog, sc->task[2].prog);
	assert_ptr_equal(sc->task[3].prog, sc->task[4].prog);

	const struct sched_program *hog = sc->task[0].prog;
	assert_int_equal(hog->nr_insns, 1);
	assert_int_equal(hog->insn[0].op, PROG_RUN_FOREVER);

	const struct sched_program *web = sc->task[3].prog;
	assert_int_equal(web->nr_insns, 4);
	assert_int_equal(web->nr_loops, 1);
	assert_int_equal(web->insn[0].op, PROG_LOOP);
	assert_int_equal(web->insn[0].arg, 0);
	assert_int_equal(web->insn[0].target, 4);
	assert_int_equal(web->insn[1].op, PROG_RUN);
	assert_int_equal(web->insn[1].dur.kind, DIST_CONST);
	assert_int_equal(web->insn[1].dur.a, 2 * MS);
	assert_int_equal(web->insn[2].dur.kind, DIST_NORMAL);
	assert_int_equal(web->insn[2].dur.a, 8 * MS);
	assert_int_equal(web->insn[2].dur.b, 1 * MS);
	assert_int_equal(web->insn[3].op, PROG_END_LOOP);
	assert_int_equal(web->insn[3].target, 0);
	/* line:col of a statement inside program="...": `run` of line 19 */
	assert_int_equal(web->insn[1].line, 19);
	assert_int_equal(web->insn[1].col, 67);

	const struct sched_program *ping = sc->task[5].prog;
	assert_int_equal(ping->nr_insns, 6);
	assert_int_equal(ping->insn[0].op, PROG_LOOP);
	assert_int_equal(ping->insn[0].arg, 10);
	assert_int_equal(ping->insn[0].target, 5);
	assert_int_equal(ping->insn[1].dur.kind, DIST_UNIFORM);
	assert_int_equal(ping->insn[1].dur.a, MS);
	assert_int_equal(ping->insn[1].dur.b, 3 * MS);
	assert_int_equal(ping->insn[2].op, PROG_WAKE);
	assert_int_equal(ping->insn[3].dur.kind, DIST_EXP);
	assert_int_equal(ping->insn[4].op, PROG_END_LOOP);
	assert_int_equal(ping->insn[5].op, PROG_EXIT);
	assert_int_equal(ping->insn[2].line, 13);
	assert_int_equal(ping->insn[2].col, 28);

	/* wake pong -> [6], wake ping -> [5] */
	const struct prog_insn *w1 = &ping->insn[2];
	assert_int_equal(w1->wake_count, 1);
	assert_int_equal(sc->wake_list[w1->wake_first], 6);
	const struct sched_program *pong = sc->task[6].prog;
	assert_int_equal(pong->insn[1].op, PROG_WAIT);
	assert_int_equal(pong->insn[3].op, PROG_WAKE);
	assert_int_equal(pong->insn[4].op, PROG_YIELD);
	assert_int_equal(sc->wake_list[pong->insn[3].wake_first], 5);
	assert_int_equal(sc->nr_wake_list, 2);

	/* actions sorted by time, file order kept among equals */
	assert_int_equal(sc->nr_actions, 5);
	assert_int_equal(sc->action[0].time, SEC);
	assert_int_equal(sc->action[0].cmd.kind, CMD_SET_TUNABLE);
	assert_int_equal(sc->action[0].cmd.key, TUN_MIGRATION_COST);
	assert_int_equal(sc->action[0].cmd.value, 0);
	assert_int_equal(sc->action[1].cmd.kind, CMD_SET_FEATURE);
	assert_int_equal(sc->action[1].cmd.key, FEAT_WAKEUP_PREEMPTION);
	assert_int_equal(sc->action[1].cmd.value, 0);
	assert_int_equal(sc->action[2].time, 2 * SEC);
	assert_int_equal(sc->action[2].cmd.kind, CMD_SET_NICE);
	assert_int_equal(sc->action[2].cmd.task, 3);
	assert_int_equal(sc->action[2].cmd.value, 5);
	assert_int_equal(sc->action[2].line, 22);
	assert_int_equal(sc->action[3].cmd.task, 4);
	assert_int_equal(sc->action[4].cmd.kind, CMD_SET_POLICY);
	assert_int_equal(sc->action[4].cmd.task, 1);
	assert_int_equal(sc->action[4].cmd.key, SCHED_IDLE);
	assert_int_equal(sc->action[4].cmd.value, 0);	/* the task keeps its nice */

	assert_int_equal(sc->nr_notes, 2);
	assert_int_equal(sc->note[0].time, SEC);
	assert_string_equal(sc->note[0].text, "first note");
	assert_string_equal(sc->note[1].text, "second \"note\"");

	assert_int_equal(f.nr_expects, 4);
	const struct expect *x = &f.expect[0];
	assert_int_equal(x->metric, EXPECT_SHARE);
	assert_string_equal(x->pattern, "hog.*");
	assert_int_equal(x->op, OP_EQ);
	assert_true(x->value > 0.3329 && x->value < 0.3331);
	assert_true(x->tol > 0.0099 && x->tol < 0.0101);
	assert_true(x->has_window);
	assert_int_equal(x->from, SEC);
	assert_int_equal(x->to, 2 * SEC);
	assert_int_equal(x->line, 28);
	assert_int_equal(x->col, 8);
	assert_string_equal(x->text, "share(hog.*) = 0.333 +- 0.01 over 1s..2s");
	x = &f.expect[1];
	assert_int_equal(x->metric, EXPECT_WAKEUP_LATENCY);
	assert_int_equal(x->stat, STAT_P99);
	assert_int_equal(x->op, OP_LT);
	assert_true(x->value == 2e6);
	assert_false(x->has_window);
	assert_true(f.expect[2].value > 0.0999 && f.expect[2].value < 0.1001);
	assert_int_equal(f.expect[2].op, OP_GE);
	assert_int_equal(f.expect[3].metric, EXPECT_MIGRATIONS);
	assert_true(f.expect[3].value == 3);

	scenario_free(&f);
	assert_true(all_zero(&f, sizeof(f)));
}

/* Defaults, and how sched and kernel imply each other. */
static void test_defaults_and_kernel(void **state)
{
	struct scenario_file f;
	char name[16];

	assert_int_equal(parse(TOPO4 "task a program=\"run 1ms\"", &f), 0);
	assert_int_equal(f.sc.hz, 250);
	assert_int_equal(f.sc.seed, 1);
	assert_int_equal(f.sc.duration, 10 * SEC);
	assert_int_equal(f.sc.variant, SCHED_VARIANT_EEVDF);
	assert_int_equal(f.sc.kernel, KV_LATEST);
	assert_int_equal(f.sc.nr_actions, 0);
	assert_string_equal(f.topo.name, "1p4c1t");
	scenario_free(&f);

	assert_int_equal(parse(TOPO4 "sched cfs\n", &f), 0);
	assert_int_equal(f.sc.variant, SCHED_VARIANT_CFS);
	assert_int_equal(f.sc.kernel, KV(6, 1));
	scenario_free(&f);

	assert_int_equal(parse(TOPO4 "kernel 5.15\n", &f), 0);
	assert_int_equal(f.sc.variant, SCHED_VARIANT_CFS);
	assert_int_equal(f.sc.kernel, KV(5, 15));
	scenario_free(&f);

	assert_int_equal(parse(TOPO4 "kernel 6.6\n", &f), 0);
	assert_int_equal(f.sc.variant, SCHED_VARIANT_EEVDF);
	scenario_free(&f);

	assert_int_equal(parse(TOPO4 "kernel latest\nsched eevdf\n", &f), 0);
	assert_int_equal(f.sc.kernel, KV_LATEST);
	assert_int_equal(f.sc.kernel_stable, 0);
	scenario_free(&f);

	/* a stable update: the release's rules and the backports the engine models */
	assert_int_equal(parse(TOPO4 "kernel 6.18.44\n", &f), 0);
	assert_int_equal(f.sc.kernel, KV(6, 18));
	assert_int_equal(f.sc.kernel_stable, 44);
	/* the name reports, sweeps and the runqueue view print */
	assert_string_equal(sched_kernel_name(name, sizeof(name), f.sc.kernel, f.sc.kernel_stable),
			    "6.18.44");
	assert_int_equal(scenario_set(&f, "kernel=6.18", err, sizeof(err)), 0);
	assert_int_equal(f.sc.kernel_stable, 0);
	assert_string_equal(sched_kernel_name(name, sizeof(name), f.sc.kernel, f.sc.kernel_stable), "6.18");
	scenario_free(&f);
}

static void test_scenario_set(void **state)
{
	struct scenario_file f;

	assert_int_equal(parse(TOPO4 "task a program=\"run 1ms\"", &f), 0);
	assert_int_equal(scenario_set(&f, "hz=1000", err, sizeof(err)), 0);
	assert_int_equal(f.sc.hz, 1000);
	assert_int_equal(scenario_set(&f, "base_slice_ns=2ms", err, sizeof(err)), 0);
	assert_int_equal(f.sc.tunable[TUN_BASE_SLICE], 2 * MS);
	assert_int_equal(scenario_set(&f, "feature=NO_PLACE_LAG", err, sizeof(err)), 0);
	assert_int_equal(f.sc.features_clear, FEAT_BIT(FEAT_PLACE_LAG));
	assert_int_equal(scenario_set(&f, "sched=cfs", err, sizeof(err)), 0);
	assert_int_equal(f.sc.kernel, KV(6, 1));
	assert_int_equal(scenario_set(&f, "kernel=6.12", err, sizeof(err)), 0);
	assert_int_equal(f.sc.variant, SCHED_VARIANT_CFS);
	assert_int_equal(scenario_set(&f, "seed=7", err, sizeof(err)), 0);
	assert_int_equal(f.sc.seed, 7);
	assert_int_equal(scenario_set(&f, "duration=1s", err, sizeof(err)), 0);
	assert_int_equal(f.sc.duration, SEC);

	assert_int_equal(scenario_set(&f, "x=1", err, sizeof(err)), -1);
	assert_string_equal(err, "--set: unknown key 'x' (expected a tunable, feature, hz, seed, "
				 "noise, duration, sched or kernel)");
	/* the real machine by default; noise=off is the ideal one */
	assert_true(f.sc.noise);
	assert_int_equal(scenario_set(&f, "noise=off", err, sizeof(err)), 0);
	assert_false(f.sc.noise);
	assert_int_equal(scenario_set(&f, "noise=loud", err, sizeof(err)), -1);
	assert_string_equal(err, "--set: noise 'loud' is neither on nor off");
	assert_int_equal(scenario_set(&f, "hz=123", err, sizeof(err)), -1);
	assert_string_equal(err, "--set: hz '123' is not one of 100, 250, 300, 1000");
	assert_int_equal(scenario_set(&f, "duration=5", err, sizeof(err)), -1);
	assert_true(!strncmp(err, "--set: bad duration '5'", 23));
	assert_int_equal(scenario_set(&f, "nonsense", err, sizeof(err)), -1);
	assert_string_equal(err, "--set: expected KEY=VALUE, got 'nonsense'");
	assert_int_equal(f.sc.hz, 1000);
	scenario_free(&f);

	/* an explicit `sched eevdf` and an older kernel do not mix */
	assert_int_equal(parse(TOPO4 "sched eevdf\n", &f), 0);
	assert_int_equal(scenario_set(&f, "kernel=6.1", err, sizeof(err)), -1);
	assert_true(!strncmp(err, "--set: EEVDF first appears in 6.6", 33));
	assert_int_equal(f.sc.kernel, KV_LATEST);
	scenario_free(&f);
}

static void test_commands(void **state)
{
	struct scenario_file f;
	struct sched_command cmd[8];
	int n;

	assert_int_equal(parse(TOPO4 "task web count=3 nice=2 program=\"run 1ms\"\n"
			       "task db program=\"run 1ms\"\n", &f), 0);
	assert_int_equal(command_parse(&f, "set nice web.* 5", cmd, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(cmd[2].kind, CMD_SET_NICE);
	assert_int_equal(cmd[2].task, 2);
	assert_int_equal(cmd[2].value, 5);
	assert_int_equal(command_parse(&f, "set slice db default", cmd, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cmd[0].kind, CMD_SET_SLICE);
	assert_int_equal(cmd[0].task, 3);
	assert_int_equal(cmd[0].value, 0);
	assert_int_equal(command_parse(&f, "set policy web.1 batch", cmd, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(cmd[0].key, SCHED_BATCH);
	assert_int_equal(cmd[0].value, 0);
	assert_int_equal(command_parse(&f, "set tunable base_slice=1ms latency_ns=6ms", cmd, 8, &n, err,
				       sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(cmd[1].key, TUN_LATENCY);
	assert_int_equal(cmd[1].value, 6 * MS);
	assert_int_equal(command_parse(&f, "set feature NO_HRTICK", cmd, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(cmd[0].kind, CMD_SET_FEATURE);
	assert_int_equal(cmd[0].key, FEAT_HRTICK);
	assert_int_equal(cmd[0].value, 0);

	assert_int_equal(command_parse(&f, "set nice web.* 50", cmd, 8, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "col 16: nice '50' is out of range (-20..19)");
	assert_int_equal(n, 0);
	assert_int_equal(command_parse(&f, "set nice nobody 1", cmd, 8, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "col 10: no task matches 'nobody'");
	assert_int_equal(command_parse(&f, "set nice web.* 1", cmd, 2, &n, err, sizeof(err)), -1);
	assert_int_equal(command_parse(&f, "sett nice web 1", cmd, 8, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "col 1: unknown command 'sett' (expected set or move)");
	assert_int_equal(command_parse(&f, "set tunable bogus=1", cmd, 8, &n, err, sizeof(err)), -1);
	assert_true(!strncmp(err, "col 13: unknown tunable 'bogus'", 31));
	assert_int_equal(command_parse(&f, "set slice db 10us", cmd, 8, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "col 14: slice '10us' is out of range (100us..100ms)");
	assert_int_equal(command_parse(&f, "", cmd, 8, &n, err, sizeof(err)), -1);
	scenario_free(&f);
}

/* ---- task groups ---- */

static void test_groups(void **state)
{
	struct scenario_file f;
	struct sched_command cmd[8];
	int n;

	assert_int_equal(parse(TOPO4 "group /a cpu.weight=300\n"
			       "group /a/b cpu.shares=512 cpu.max=\"20ms 50ms\" cpu.max.burst=10ms\n"
			       "group /c cpu.weight.nice=-5\n"
			       "group /i cpu.idle=1\n"
			       "group /u cpu.max=\"25000 100000\"\n"
			       "task t group=/a/b program=\"run 1ms\"\n"
			       "task r program=\"run 1ms\"\n", &f), 0);
	assert_int_equal(f.sc.nr_groups, 6);
	assert_string_equal(f.sc.group[0].path, "/");
	/* cgroup v2: weight 300 -> 300 * 1024 / 100 = 3072 shares */
	assert_int_equal(f.sc.group[1].shares, 3072);
	assert_int_equal(f.sc.group[2].parent, 1);
	assert_int_equal(f.sc.group[2].shares, 512);
	assert_int_equal(f.sc.group[2].quota, 20 * MS);
	assert_int_equal(f.sc.group[2].period, 50 * MS);
	assert_int_equal(f.sc.group[2].burst, 10 * MS);
	/* nice -5 weighs 3121 (sched_prio_to_weight) */
	assert_int_equal(f.sc.group[3].shares, 3121);
	assert_true(f.sc.group[4].idle);
	assert_int_equal(f.sc.group[1].quota, RUNTIME_INF);
	assert_int_equal(f.sc.group[1].period, 100 * MS);
	/* bare numbers are microseconds, as in the cgroup file */
	assert_int_equal(f.sc.group[5].quota, 25 * MS);
	assert_int_equal(f.sc.task[0].group, 2);
	assert_int_equal(f.sc.task[1].group, 0);

	assert_int_equal(command_parse(&f, "set group /a cpu.weight=50 cpu.max=\"max 10ms\"", cmd, 8, &n,
				       err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(cmd[0].kind, CMD_SET_GROUP_SHARES);
	assert_int_equal(cmd[0].key, 1);
	assert_int_equal(cmd[0].value, 512);
	assert_int_equal(cmd[1].kind, CMD_SET_GROUP_MAX);
	assert_int_equal(cmd[1].value, -1);
	assert_int_equal(cmd[1].value2, 10 * MS);
	assert_int_equal(command_parse(&f, "move task t to /c", cmd, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(cmd[0].kind, CMD_MOVE_TASK);
	assert_int_equal(cmd[0].task, 0);
	assert_int_equal(cmd[0].key, 3);
	assert_int_equal(command_parse(&f, "move task t to /nope", cmd, 8, &n, err, sizeof(err)), -1);
	assert_true(!strncmp(err, "col 16: no group '/nope'", 24));
	assert_int_equal(command_parse(&f, "set group /i cpu.weight=10", cmd, 8, &n, err, sizeof(err)), -1);
	assert_true(!strncmp(err, "col 14: cpu.weight cannot be set on a cpu.idle group", 52));
	assert_int_equal(command_parse(&f, "set group / cpu.weight=10", cmd, 8, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "col 11: the root group has no cpu.* attributes");
	scenario_free(&f);

	SCN_ERROR(TOPO4 "group a\n", "bad.scn:2:7: bad group path 'a'");
	SCN_ERROR(TOPO4 "group /a/\n", "bad.scn:2:7: bad group path '/a/'");
	SCN_ERROR(TOPO4 "group /a//b\n", "bad.scn:2:7: empty component in group path '/a//b'");
	SCN_ERROR(TOPO4 "group /a/b\n", "bad.scn:2:7: group '/a/b' needs its parent '/a' declared first");
	SCN_ERROR(TOPO4 "group /a\ngroup /a\n", "bad.scn:3:7: duplicate group '/a'");
	SCN_ERROR(TOPO4 "group /a cpu.weight=0\n", "bad.scn:2:21: cpu.weight '0' is out of range (1..10000)");
	SCN_ERROR(TOPO4 "group /a cpu.shares=1\n", "bad.scn:2:21: cpu.shares '1' is out of range (2..262144)");
	SCN_ERROR(TOPO4 "group /a cpu.idle=1 cpu.weight=5\n",
		  "bad.scn:2:21: cpu.weight cannot be set on a cpu.idle group");
	SCN_ERROR(TOPO4 "group /a cpu.max=\"500us 100ms\"\n",
		  "bad.scn:2:19: cpu.max quota '500us' is below the kernel's minimum of 1ms");
	SCN_ERROR(TOPO4 "group /a cpu.max=\"10ms 2s\"\n",
		  "bad.scn:2:24: cpu.max period '2s' is out of range (1ms..1s)");
	SCN_ERROR(TOPO4 "group /a cpu.max=\"10ms\" cpu.max.burst=20ms\n",
		  "bad.scn:2:39: cpu.max.burst is larger than the quota of cpu.max");
	SCN_ERROR(TOPO4 "group /a cpu.speed=1\n", "bad.scn:2:10: unknown group attribute 'cpu.speed'");
	SCN_ERROR(TOPO4 "task t group=/x program=\"run 1ms\"\n", "bad.scn:2:14: no group '/x'");
	SCN_ERROR(TOPO4 "task t program=\"run 1ms\"\nat 1s move task t to /x\n",
		  "bad.scn:3:22: no group '/x'");
	SCN_ERROR(TOPO4 "group /a\nat 1s set group /a cpu.max=\"10ms 10ms\" cpu.max.burst=1s\n",
		  "bad.scn:3:54: cpu.max.burst is larger than the quota of cpu.max");
}

/* ---- irq and steal lines ---- */

static void test_irqs(void **state)
{
	struct scenario_file f;

	assert_int_equal(parse(TOPO4 "irq cpu=0-1 every=100us cost=uniform(2us,8us) irq=24 name=eth0\n"
			       "steal cpu=3 every=exp(10ms) cost=2ms\n"
			       "task t program=\"run 1ms\"\n", &f), 0);
	assert_int_equal(f.sc.nr_irqs, 3);
	assert_int_equal(f.sc.irq[1].cpu, 1);
	assert_int_equal(f.sc.irq[1].irq, 24);
	assert_string_equal(f.sc.irq[1].name, "eth0");
	assert_int_equal(f.sc.irq[1].every.kind, DIST_CONST);
	assert_int_equal(f.sc.irq[1].every.a, 100 * US);
	assert_int_equal(f.sc.irq[1].cost.kind, DIST_UNIFORM);
	assert_int_equal(f.sc.irq[1].cost.b, 8 * US);
	assert_true(f.sc.irq[2].steal);
	assert_int_equal(f.sc.irq[2].cpu, 3);
	assert_int_equal(f.sc.irq[2].every.kind, DIST_EXP);
	scenario_free(&f);

	SCN_ERROR("irq cpu=0 every=1ms cost=1us\n" TOPO4,
		  "bad.scn:1:1: 'irq' comes after the topology line (it names CPUs)");
	SCN_ERROR(TOPO4 "irq cpu=9 every=1ms cost=1us\n", "bad.scn:2:9: CPU 9 does not exist");
	SCN_ERROR(TOPO4 "irq cpu=0 cost=1us\n", "bad.scn:2:1: 'irq' needs cpu=, every= and cost=");
	SCN_ERROR(TOPO4 "irq cpu=0 every=500ns cost=1us\n", "bad.scn:2:17: every '500ns' is shorter than 1us");
	SCN_ERROR(TOPO4 "irq cpu=0 every=1ms cost=gauss(1us)\n", "bad.scn:2:26: bad cost 'gauss(1us)'");
	SCN_ERROR(TOPO4 "irq cpu=0 every=1ms cost=uniform(1us)\n",
		  "bad.scn:2:26: uniform() takes 2 durations");
	SCN_ERROR(TOPO4 "steal cpu=0 every=1ms cost=1us name=x\n",
		  "bad.scn:2:32: unknown key 'name' (expected cpu, every, cost)");
}

/* ---- value parsers ---- */

static void test_durations(void **state)
{
	static const struct {
		const char *text;
		int r;
		u64 ns;
	} cases[] = {
		{ "0", PARSE_OK, 0 },
		{ "1ns", PARSE_OK, 1 },
		{ "10us", PARSE_OK, 10 * US },
		{ "3ms", PARSE_OK, 3 * MS },
		{ "2.5s", PARSE_OK, 2500 * MS },
		{ "0.75ms", PARSE_OK, 750 * US },
		{ "1.000000001s", PARSE_OK, SEC + 1 },
		{ "1.5000s", PARSE_OK, 1500 * MS },
		/* SCHED_TIME_MAX, 10^9 s, and no further */
		{ "1000000000s", PARSE_OK, SCHED_TIME_MAX },
		{ "1000000000000000000ns", PARSE_OK, SCHED_TIME_MAX },
		{ "1000000000000000001ns", PARSE_OVERFLOW, 0 },
		{ "1000000000.000000001s", PARSE_OVERFLOW, 0 },
		{ "18446744073709551615ns", PARSE_OVERFLOW, 0 },
		{ "18446744073709551616ns", PARSE_OVERFLOW, 0 },
		{ "18446744074s", PARSE_OVERFLOW, 0 },
		{ "99999999999999999999s", PARSE_OVERFLOW, 0 },
		{ "1.5ns", PARSE_FRACTION, 0 },
		{ "0.0000000001s", PARSE_FRACTION, 0 },
		{ "5", PARSE_SYNTAX, 0 },
		{ "-1ms", PARSE_SYNTAX, 0 },
		{ "1.ms", PARSE_SYNTAX, 0 },
		{ ".5ms", PARSE_SYNTAX, 0 },
		{ "1m", PARSE_SYNTAX, 0 },
		{ "1 ms", PARSE_SYNTAX, 0 },
		{ "", PARSE_SYNTAX, 0 },
		{ "ms", PARSE_SYNTAX, 0 },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u64 ns = 12345;
		int r = parse_duration(cases[i].text, strlen(cases[i].text), &ns);
		if (r != cases[i].r || (r == PARSE_OK && ns != cases[i].ns))
			fail_msg("'%s': got %d %llu", cases[i].text, r, (unsigned long long)ns);
	}
	assert_string_equal(format_duration(buf, sizeof(buf), 2500 * MS), "2500ms");
	assert_string_equal(format_duration(buf, sizeof(buf), 100 * US), "100us");
	assert_string_equal(format_duration(buf, sizeof(buf), 3 * SEC), "3s");
}

static void test_numbers_and_lists(void **state)
{
	struct lexer lx;
	struct cpumask m;
	s64 v;
	double d;
	struct lex_span s = { "0,2,4-7", 7, 1, 1 };

	assert_int_equal(parse_s64("-20", 3, &v), PARSE_OK);
	assert_int_equal(v, -20);
	assert_int_equal(parse_s64("-9223372036854775808", 20, &v), PARSE_OK);
	assert_int_equal(parse_s64("9223372036854775808", 19, &v), PARSE_OVERFLOW);
	assert_int_equal(parse_s64("1x", 2, &v), PARSE_SYNTAX);
	assert_int_equal(parse_decimal("0.333", 5, &d), PARSE_OK);
	assert_true(d > 0.3329 && d < 0.3331);
	assert_int_equal(parse_decimal("1e3", 3, &d), PARSE_SYNTAX);

	lex_init(&lx, "x", s.p, s.n, err, sizeof(err));
	assert_int_equal(lex_cpulist(&lx, &s, 8, &m), 0);
	assert_true(cpumask_test(&m, 0) && !cpumask_test(&m, 1) && cpumask_test(&m, 2) &&
		    cpumask_test(&m, 7) && !cpumask_test(&m, 8));
	assert_int_equal(lex_cpulist(&lx, &s, 6, &m), -1);
	assert_string_equal(err, "x:1:5: CPU 7 does not exist (6 CPUs, 0-5)");

	struct lex_span bad = { "3-1", 3, 1, 1 };
	lex_init(&lx, "x", bad.p, bad.n, err, sizeof(err));
	assert_int_equal(lex_cpulist(&lx, &bad, 8, &m), -1);
	assert_string_equal(err, "x:1:1: CPU range '3-1' runs backwards");
}

/* ---- topologies ---- */

static void test_shipped_topologies(void **state)
{
	static const struct {
		const char *file;
		int cpus, packages, llcs, nodes, smallest;
		u32 remote;
	} topo[] = {
		{ "single", 1, 1, 1, 1, 1024, 0 },
		{ "dual", 2, 1, 1, 1, 1024, 0 },
		{ "laptop-4c8t", 8, 1, 1, 1, 1024, 0 },
		{ "quad-socket-quad-core", 16, 4, 4, 4, 1024, 20 },
		{ "numa-2s-32c64t", 64, 2, 2, 2, 1024, 21 },
		{ "big-little-4-4", 8, 1, 1, 1, 446, 0 },
		{ "server-256", 256, 2, 16, 2, 1024, 32 },
	};

	for (size_t i = 0; i < sizeof(topo) / sizeof(topo[0]); i++) {
		struct sched_topology t;
		char path[256];
		int max_pkg = -1, max_llc = -1, max_node = -1, smallest = 1024;

		snprintf(path, sizeof(path), "topologies/%s.topo", topo[i].file);
		if (topology_load(path, &t, err, sizeof(err)) < 0)
			fail_msg("%s", err);
		assert_string_equal(t.name, topo[i].file);
		assert_int_equal(t.nr_cpus, topo[i].cpus);
		assert_int_equal(t.nr_nodes, topo[i].nodes);
		for (int c = 0; c < t.nr_cpus; c++) {
			max_pkg = t.cpu[c].package > max_pkg ? t.cpu[c].package : max_pkg;
			max_llc = t.cpu[c].llc > max_llc ? t.cpu[c].llc : max_llc;
			max_node = t.cpu[c].node > max_node ? t.cpu[c].node : max_node;
			smallest = (int)t.cpu[c].capacity < smallest ? (int)t.cpu[c].capacity : smallest;
		}
		assert_int_equal(max_pkg + 1, topo[i].packages);
		assert_int_equal(max_llc + 1, topo[i].llcs);
		assert_int_equal(max_node + 1, topo[i].nodes);
		assert_int_equal(smallest, topo[i].smallest);
		assert_int_equal(t.distance[0], 10);
		if (t.nr_nodes > 1)
			assert_int_equal(t.distance[1], topo[i].remote);
		topology_free(&t);
	}
}

static void test_topology_layout(void **state)
{
	struct sched_topology t;

	/* smt-last: CPU 0's sibling is CPU 32 on the 2x16x2 box */
	assert_int_equal(topology_load("topologies/numa-2s-32c64t.topo", &t, err, sizeof(err)), 0);
	assert_int_equal(t.cpu[0].core, t.cpu[32].core);
	assert_int_equal(t.cpu[32].thread, 1);
	assert_int_equal(t.cpu[16].package, 1);
	assert_int_equal(t.cpu[16].node, 1);
	assert_int_equal(t.cpu[48].package, 1);
	topology_free(&t);

	/* linear: siblings adjacent */
	assert_int_equal(topology_load("topologies/laptop-4c8t.topo", &t, err, sizeof(err)), 0);
	assert_int_equal(t.cpu[0].core, t.cpu[1].core);
	assert_int_equal(t.cpu[2].core, 1);
	topology_free(&t);

	/* big.LITTLE: two clusters in one LLC */
	assert_int_equal(topology_load("topologies/big-little-4-4.topo", &t, err, sizeof(err)), 0);
	assert_int_equal(t.cpu[3].cluster, 0);
	assert_int_equal(t.cpu[4].cluster, 1);
	assert_int_equal(t.cpu[3].capacity, 446);
	assert_int_equal(t.cpu[4].capacity, 1024);
	assert_int_equal(t.cpu[3].llc, t.cpu[4].llc);
	topology_free(&t);

	/* 8 LLCs of 8 cores per package on the 256-CPU server */
	assert_int_equal(topology_load("topologies/server-256.topo", &t, err, sizeof(err)), 0);
	assert_int_equal(t.cpu[7].llc, 0);
	assert_int_equal(t.cpu[8].llc, 1);
	assert_int_equal(t.cpu[64].llc, 8);
	assert_int_equal(t.cpu[128].core, 0);
	topology_free(&t);

	/* nodes split a package; a node splits across packages */
	const char *split = "packages 2\ncores 8\nllcs 2\nnodes 4\n";
	assert_int_equal(topology_parse("s.topo", split, strlen(split), &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "s");
	assert_int_equal(t.cpu[3].node, 0);
	assert_int_equal(t.cpu[4].node, 1);
	assert_int_equal(t.cpu[8].node, 2);
	assert_int_equal(t.distance[1 * 4 + 2], 20);
	topology_free(&t);
	const char *joined = "name two\npackages 4\ncores 2\nnodes 2\n";
	assert_int_equal(topology_parse("j.topo", joined, strlen(joined), &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "two");
	assert_int_equal(t.cpu[3].node, 0);
	assert_int_equal(t.cpu[4].node, 1);
	topology_free(&t);
}

static void test_topology_resolve(void **state)
{
	char path[1024];

	assert_int_equal(topology_resolve("dual", "scenarios/x.scn", path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, "scenarios/../topologies/dual.topo");
	assert_int_equal(topology_resolve("dual", "x.scn", path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, "./topologies/dual.topo");
	assert_int_equal(topology_resolve("my.topo", "a/b/x.scn", path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, "a/b/my.topo");
	assert_int_equal(topology_resolve("/etc/m.topo", "a/x.scn", path, sizeof(path), err, sizeof(err)), 0);
	assert_string_equal(path, "/etc/m.topo");
	assert_int_equal(topology_resolve("host", "x.scn", path, sizeof(path), err, sizeof(err)), -1);
	assert_true(!strncmp(err, "topology host: the host is read from /sys", 41));
	assert_int_equal(topology_resolve("nope", "x.scn", path, sizeof(path), err, sizeof(err)), -1);
	assert_true(!strncmp(err, "topology 'nope' not found", 25));
}

/* ---- bad scenarios: each error names its place ---- */

static void test_scenario_errors(void **state)
{
	char line[6000], nest[2000];

	SCN_ERROR(TOPO4 "duration 99999999999999999999s\n",
		  "bad.scn:2:10: duration '99999999999999999999s' is too large");
	SCN_ERROR(TOPO4 "duration 1.5ns\n", "bad.scn:2:10: duration '1.5ns' is not a whole number");
	SCN_ERROR(TOPO4 "duration 0\n", "bad.scn:2:10: duration must be above 0");
	SCN_ERROR(TOPO4 "task a count=0 program=\"run 1ms\"\n", "bad.scn:2:14: count '0' is out of range (1..100000)");
	SCN_ERROR(TOPO4 "task a nice=20 program=\"run 1ms\"\n", "bad.scn:2:13: nice '20' is out of range (-20..19)");
	SCN_ERROR(TOPO4 "task a cpus=99 program=\"run 1ms\"\n", "bad.scn:2:13: CPU 99 does not exist (4 CPUs, 0-3)");
	SCN_ERROR(TOPO4 "task a cpus=0,2-9 program=\"run 1ms\"\n", "bad.scn:2:15: CPU 9 does not exist");
	SCN_ERROR(TOPO4 "task a cpus=0,,1 program=\"run 1ms\"\n", "bad.scn:2:15: bad CPU list '0,,1'");
	SCN_ERROR(TOPO4 "task a program=\"run 1ms\"\ntask a program=\"run 1ms\"\n",
		  "bad.scn:3:6: duplicate task 'a' (first at line 2)");
	SCN_ERROR(TOPO4 "task a nicee=1 program=\"run 1ms\"\n",
		  "bad.scn:2:8: unknown key 'nicee' (expected count, nice, policy, prio, runtime, deadline, "
		  "period, slice, cpus, group, at, program, timer_slack)");
	SCN_ERROR(TOPO4 "noise off\nnoise on\n", "bad.scn:3:1: duplicate 'noise' (first at line 2)");
	SCN_ERROR(TOPO4 "noise maybe\n", "bad.scn:2:7: noise 'maybe' is neither on nor off");
	SCN_ERROR(TOPO4 "task a timer_slack=2s program=\"run 1ms\"\n",
		  "bad.scn:2:20: timer_slack '2s' is above 1s");
	SCN_ERROR(TOPO4 "task a nice=1 nice=2 program=\"run 1ms\"\n", "bad.scn:2:15: duplicate key 'nice'");
	SCN_ERROR(TOPO4 "task a.b program=\"run 1ms\"\n", "bad.scn:2:6: bad task name 'a.b'");
	SCN_ERROR(TOPO4 "task a nice=1\n", "bad.scn:2:6: task 'a' needs program=");
	SCN_ERROR(TOPO4 "task a program=nosuch\n", "bad.scn:2:16: unknown program 'nosuch'");
	SCN_ERROR(TOPO4 "task a slice=10us program=\"run 1ms\"\n",
		  "bad.scn:2:14: slice '10us' is out of range (100us..100ms)");
	SCN_ERROR(TOPO4 "task a policy=fifo program=\"run 1ms\"\n", "bad.scn:2:15: policy fifo needs prio=1..99");
	SCN_ERROR(TOPO4 "task a policy=other program=\"run 1ms\"\n", "bad.scn:2:15: unknown policy 'other'");
	SCN_ERROR(TOPO4 "grou /web\n", "bad.scn:2:1: unknown directive 'grou'");
	SCN_ERROR(TOPO4 "hz 123\n", "bad.scn:2:4: hz '123' is not one of 100, 250, 300, 1000");
	SCN_ERROR(TOPO4 "hz 250\nhz 250\n", "bad.scn:3:1: duplicate 'hz' (first at line 2)");
	SCN_ERROR(TOPO4 "kernel 9.9\n", "bad.scn:2:8: unknown kernel '9.9'");
	SCN_ERROR(TOPO4 "kernel 6.18.1000\n", "bad.scn:2:8: unknown kernel '6.18.1000'");
	SCN_ERROR(TOPO4 "kernel 6.18.\n", "bad.scn:2:8: unknown kernel '6.18.'");
	SCN_ERROR(TOPO4 "sched eevdf\nkernel 6.1\n", "bad.scn:3:8: EEVDF first appears in 6.6");
	SCN_ERROR(TOPO4 "kernel 5.4\nsched eevdf\n", "bad.scn:3:7: EEVDF first appears in 6.6");
	SCN_ERROR(TOPO4 "feature NO_SUCH\n", "bad.scn:2:9: unknown feature 'NO_SUCH'");
	SCN_ERROR(TOPO4 "tunable base_slice=1us\n", "bad.scn:2:20: base_slice_ns '1us' is out of range (100us..100ms)");
	SCN_ERROR(TOPO4 "tunable bogus=1\n", "bad.scn:2:9: unknown tunable 'bogus'");
	SCN_ERROR("hz 250\n", "bad.scn:1:1: missing 'topology' line");
	SCN_ERROR(TOPO4 TOPO4, "bad.scn:2:1: duplicate 'topology' (first at line 1)");
	SCN_ERROR("topology nosuch\n", "bad.scn:1:10: topology 'nosuch' not found");
	SCN_ERROR("topology packages=2 cores=3 llcs=2\n", "bad.scn:1:34: llcs 2 does not divide the 3 cores");
	SCN_ERROR("topology packages=2 corez=3\n", "bad.scn:1:21: unknown key 'corez'");
	SCN_ERROR("topology cores=3\n", "bad.scn:1:10: missing 'packages'");

	/* braces and quotes */
	SCN_ERROR(TOPO4 "program p {\n  run 1ms\n", "bad.scn:2:11: unclosed '{'");
	SCN_ERROR(TOPO4 "program p {\n  loop { run 1ms\n}\n", "bad.scn:2:11: unclosed '{'");
	SCN_ERROR(TOPO4 "}\n", "bad.scn:2:1: unbalanced '}'");
	SCN_ERROR(TOPO4 "task a program=\"loop { run 1ms\"\n", "bad.scn:2:22: unclosed '{'");
	SCN_ERROR(TOPO4 "task a program=\"run 1ms }\"\n", "bad.scn:2:25: unbalanced '}'");
	SCN_ERROR(TOPO4 "task a program=\"run 1ms\n", "bad.scn:2:16: unterminated string");
	SCN_ERROR(TOPO4 "note 1s \"abc\n", "bad.scn:2:9: unterminated string");
	SCN_ERROR(TOPO4 "task a program=\"run 1ms # why\"\n", "bad.scn:2:25: '#' inside quotes");
	SCN_ERROR(TOPO4 "note 1s \"a\\qb\"\n", "bad.scn:2:11: unknown escape '\\q'");
	check_scn_error(TOPO4 "hz 2\0" "50\n", strlen(TOPO4) + 9, "bad.scn:2:5: NUL byte");
	SCN_ERROR(TOPO4 "hz\x01 250\n", "bad.scn:2:3: unexpected control character 0x01");

	memset(line, 'x', 5000);
	memcpy(line, TOPO4 "# ", strlen(TOPO4) + 2);
	line[5000] = '\n';
	line[5001] = 0;
	SCN_ERROR(line, "bad.scn:2:1: line is 4972 bytes long (the limit is 4096)");

	/* programs */
	snprintf(nest, sizeof(nest), TOPO4 "task a program=\"");
	for (int i = 0; i < 20; i++)
		strcat(nest, "loop 2 { ");
	strcat(nest, "run 1ms");
	for (int i = 0; i < 20; i++)
		strcat(nest, " }");
	strcat(nest, "\"\n");
	SCN_ERROR(nest, "bad.scn:2:161: loops nest deeper than 16");
	SCN_ERROR(TOPO4 "task a program=\"wake nobody\"\n", "bad.scn:2:22: wake 'nobody': no task matches");
	SCN_ERROR(TOPO4 "task a program=\"run 1ms sleep 1ms\"\n",
		  "bad.scn:2:25: expected ';' or a new line before 'sleep'");
	SCN_ERROR(TOPO4 "task a program=\"loop { yield }\"\n",
		  "bad.scn:2:17: a loop without a count repeats forever");
	SCN_ERROR(TOPO4 "task a program=\"loop 3 { }\"\n", "bad.scn:2:17: empty loop");
	SCN_ERROR(TOPO4 "task a program=\"loop 0 { run 1ms }\"\n", "bad.scn:2:22: loop count '0' is out of range");
	SCN_ERROR(TOPO4 "task a program=\"run uniform(3ms, 1ms)\"\n", "bad.scn:2:21: uniform(A, B) needs A <= B");
	SCN_ERROR(TOPO4 "task a program=\"run exp(1ms\"\n", "bad.scn:2:28: expected ')' after the durations, got the end");
	SCN_ERROR(TOPO4 "task a program=\"spin 1ms\"\n", "bad.scn:2:17: unknown statement 'spin'");
	SCN_ERROR(TOPO4 "task a program=\"run\"\n", "bad.scn:2:20: 'run' needs a duration");
	SCN_ERROR(TOPO4 "task a program=\"\"\n", "bad.scn:2:17: empty program");
	SCN_ERROR(TOPO4 "program p {\n}\n", "bad.scn:2:9: empty program");
	SCN_ERROR(TOPO4 "program p { run 1ms }\nprogram p { run 1ms }\n",
		  "bad.scn:3:9: duplicate program 'p' (first at line 2)");

	/* at, note, expect */
	SCN_ERROR(TOPO4 "task a program=\"run 1ms\"\nat 1s set nice b 1\n", "bad.scn:3:16: no task matches 'b'");
	SCN_ERROR(TOPO4 "at 1s\n", "bad.scn:2:6: 'at 1s' needs a command");
	SCN_ERROR(TOPO4 "at 1s set nicety a 1\n", "bad.scn:2:11: cannot set 'nicety'");
	SCN_ERROR(TOPO4 "note 1s caption\n", "bad.scn:2:9: 'note' needs a \"quoted caption\"");
	SCN_ERROR(TOPO4 "expect share(a) < 0.5 +- 0.1\n", "bad.scn:2:23: '+-' goes only with '='");
	SCN_ERROR(TOPO4 "expect wakeup_latency(a) < 1ms\n", "bad.scn:2:8: wakeup_latency needs p50, p99 or max");
	SCN_ERROR(TOPO4 "expect share(a, p99) < 1\n", "bad.scn:2:17: only wakeup_latency takes p50");
	SCN_ERROR(TOPO4 "expect cpu_time(a) > 5\n", "bad.scn:2:22: bad cpu_time '5'");
	SCN_ERROR(TOPO4 "expect share(a) = 0.5 over 5s..1s\n", "bad.scn:2:28: window '5s..1s' is empty");
	SCN_ERROR(TOPO4 "expect speed(a) > 1\n", "bad.scn:2:8: unknown metric 'speed'");
	SCN_ERROR(TOPO4 "expect share(a) ~ 1\n", "bad.scn:2:17: expected =, <, >, <= or >=, got '~'");
}

/* ---- bad topologies ---- */

static void test_topology_errors(void **state)
{
	check_topo_error("packages 2\ncores 2\nnodes 3\n", "bad.topo:3:7: nodes 3 is neither a multiple nor");
	check_topo_error("packages 2\ncores 2\nnodes 2\ndistance 10 20\ndistance 20 12\n",
			 "bad.topo:5:13: distance of node 1 to itself must be 10, not '12'");
	check_topo_error("packages 2\ncores 2\nnodes 2\ndistance 10 10\ndistance 20 10\n",
			 "bad.topo:4:13: distance of node 0 to node 1 must be above 10");
	check_topo_error("packages 2\ncores 2\nnodes 2\ndistance 10 20 30\ndistance 20 10\n",
			 "bad.topo:4:16: distance line of node 0 has 3 values for 2 nodes");
	check_topo_error("packages 2\ncores 2\nnodes 2\ndistance 10 20\n",
			 "bad.topo:4:1: 1 distance lines for 2 nodes");
	check_topo_error("packages 1\ncores 4\ncapacity 512\n",
			 "bad.topo:3:10: no CPU has capacity 1024");
	check_topo_error("packages 1\ncores 4\ncapacity 0-3 512\n",
			 "bad.topo:3:14: no CPU has capacity 1024");
	check_topo_error("packages 1\ncores 4\ncapacity 2-5 512\n", "bad.topo:3:10: CPU 5 does not exist");
	check_topo_error("packages 1\ncores 4\ncapacity 2000\n", "bad.topo:3:10: capacity '2000' is out of range (1..1024)");
	check_topo_error("packages 1\ncores 4\nllcs 3\n", "bad.topo:3:6: llcs 3 does not divide the 4 cores");
	check_topo_error("packages 1\ncores 4\nclusters 3\n", "bad.topo:3:10: clusters 3 does not divide");
	check_topo_error("packages 1\ncores 4\nnodes 2\n", "bad.topo:3:7: 2 nodes per package need llcs");
	check_topo_error("packages 8\ncores 64\nthreads 4\n", "bad.topo:2:7: 8 packages x 64 cores x 4 threads is 2048 CPUs");
	check_topo_error("packages 0\n", "bad.topo:1:10: packages '0' is out of range (1..1024)");
	check_topo_error("packages 1\npackages 1\n", "bad.topo:2:1: duplicate 'packages' (first at line 1)");
	check_topo_error("packages 1\nsockets 1\n", "bad.topo:2:1: unknown directive 'sockets'");
	check_topo_error("cores 2\n", "bad.topo:1:1: missing 'packages'");
	check_topo_error("packages 1\ncores\n", "bad.topo:2:6: 'cores' needs a value");
	check_topo_error("packages 1\ncores 2 3\n", "bad.topo:2:9: unexpected '3'");
	check_topo_error("packages 1\ncores 2\nnumbering zigzag\n", "bad.topo:3:11: unknown numbering 'zigzag'");
}

static void test_topology_inline_names(void **state)
{
	struct scenario_file f;

	assert_int_equal(parse("topology packages=2 cores=4 threads=2 nodes=2 numbering=smt-last\n", &f), 0);
	assert_int_equal(f.topo.nr_cpus, 16);
	assert_int_equal(f.topo.nr_nodes, 2);
	assert_int_equal(f.topo.cpu[8].core, f.topo.cpu[0].core);
	assert_string_equal(f.topo.name, "2p4c2t");
	scenario_free(&f);

	/* a topology found next to the scenario file, by path */
	assert_int_equal(parse("topology topologies/dual.topo\n", &f), 0);
	assert_string_equal(f.topo.name, "dual");
	scenario_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_scenario),
		cmocka_unit_test(test_defaults_and_kernel),
		cmocka_unit_test(test_scenario_set),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_irqs),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_numbers_and_lists),
		cmocka_unit_test(test_shipped_topologies),
		cmocka_unit_test(test_topology_layout),
		cmocka_unit_test(test_topology_resolve),
		cmocka_unit_test(test_scenario_errors),
		cmocka_unit_test(test_topology_errors),
		cmocka_unit_test(test_topology_inline_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
