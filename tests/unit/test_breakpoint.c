// SPDX-License-Identifier: GPL-2.0
/* Breakpoint expressions: parsing (exact messages) and which event of a hand-made stream hits. */
#include <stdio.h>
#include <string.h>

#include "src/format/breakpoint.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* pids 1..5 */
static const char *const names[] = { "hog.0", "hog.1", "web.0", "web.1", "batch" };
enum { HOG0 = 1, HOG1, WEB0, WEB1, BATCH };
#define NR_TASKS 5
#define NR_CPUS 4
#define MS NSEC_PER_MSEC
/* groups 0..3 */
static const char *const groups[] = { "/", "/web", "/web/api", "/batch" };
static const struct breakpoint_scope scope = { names, NR_TASKS, groups, 4, NR_CPUS };

static struct breakpoint *parse(const char *text)
{
	char err[512];
	struct breakpoint *bp = breakpoint_parse(text, &scope, err, sizeof(err));

	if (!bp)
		fail_msg("'%s': %s", text, err);
	return bp;
}

/* The error for text, with no breakpoint made. */
static const char *parse_err(const char *text)
{
	static char err[512];

	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = 0;
	struct breakpoint *bp = breakpoint_parse(text, &scope, err, sizeof(err));
	if (bp) {
		breakpoint_free(bp);
		fail_msg("'%s' parsed", text);
	}
	return err;
}

/* ---- building event streams ---- */

static struct sched_event evs[256];
static int nr_evs;

static struct sched_event *add(u64 t, int type, int cpu)
{
	struct sched_event *ev = &evs[nr_evs];

	memset(ev, 0, sizeof(*ev));
	ev->time = t;
	ev->seq = (u64)nr_evs++;
	ev->type = (u16)type;
	ev->cpu = (s16)cpu;
	return ev;
}

static void sw(u64 t, int cpu, int prev, char state, int next)
{
	struct sched_event *ev = add(t, EV_SCHED_SWITCH, cpu);

	ev->sw.prev_pid = prev;
	ev->sw.next_pid = next;
	ev->sw.prev_prio = ev->sw.next_prio = 120;
	ev->sw.prev_state = state;
}

static void wake_ev(u64 t, int type, int cpu, int pid, int target)
{
	struct sched_event *ev = add(t, type, cpu);

	ev->wake.pid = pid;
	ev->wake.prio = 120;
	ev->wake.target_cpu = target;
}

static void wake(u64 t, int cpu, int pid, int target)
{
	wake_ev(t, EV_SCHED_WAKING, cpu, pid, target);
	wake_ev(t, EV_SCHED_WAKEUP, cpu, pid, target);
}

static void fork_new(u64 t, int cpu, int pid)
{
	struct sched_event *ev = add(t, EV_SCHED_PROCESS_FORK, cpu);

	ev->fork.child_pid = pid;
	wake_ev(t, EV_SCHED_WAKEUP_NEW, cpu, pid, cpu);
}

static void migrate(u64 t, int pid, int from, int to)
{
	struct sched_event *ev = add(t, EV_SCHED_MIGRATE_TASK, from);

	ev->migrate.pid = pid;
	ev->migrate.orig_cpu = from;
	ev->migrate.dest_cpu = to;
}

static void task_exit(u64 t, int cpu, int pid)
{
	add(t, EV_SCHED_PROCESS_EXIT, cpu)->exit.pid = pid;
}

static void set_nice(u64 t, int cpu, int pid, int old_nice, int new_nice)
{
	struct sched_event *ev = add(t, EV_SET_NICE, cpu);

	ev->nice.pid = pid;
	ev->nice.old_nice = old_nice;
	ev->nice.new_nice = new_nice;
}

static void note(u64 t, unsigned index)
{
	add(t, EV_NOTE, 0)->note.index = index;
}

static void runtime(u64 t, int cpu, int pid)
{
	struct sched_event *ev = add(t, EV_SCHED_STAT_RUNTIME, cpu);

	ev->runtime.pid = pid;
	ev->runtime.runtime = 1 * MS;
}

/* The seqs of the events in [from, nr_evs) that hit, as "3,7,9". */
static const char *hits_from(struct breakpoint *bp, int from)
{
	static char out[1024];
	bool (*fn)(void *, const struct sched_event *) = breakpoint_test;	/* fits history */
	size_t k = 0;

	out[0] = 0;
	for (int i = from; i < nr_evs; i++)
		if (fn(bp, &evs[i]))
			k += (size_t)snprintf(out + k, sizeof(out) - k, "%s%d", k ? "," : "", i);
	return out;
}

static const char *hits(struct breakpoint *bp)
{
	return hits_from(bp, 0);
}

/* Parse, run the whole stream, free. */
static const char *run(const char *text)
{
	struct breakpoint *bp = parse(text);
	const char *h = hits(bp);

	breakpoint_free(bp);
	return h;
}

static int setup(void **state)
{
	nr_evs = 0;
	return 0;
}

/*
 * Two CPUs, a little of everything:
 *  0 fork hog.0 (cpu 0)        1 wakeup_new hog.0
 *  2 fork web.0 (cpu 1)        3 wakeup_new web.0
 *  4 @1ms cpu0 idle -> hog.0 (R)
 *  5 @3ms cpu1 idle -> web.0 (R)           web.0 waited 3ms
 *  6 @4ms cpu1 web.0 -> idle (S)
 *  7 @5ms waking web.0 -> cpu 1   8 wakeup
 *  9 @5ms migrate web.0 1 -> 0
 * 10 @6ms cpu0 hog.0 -> web.0 (R)          web.0 waited 1ms, hog.0 preempted
 * 11 @7ms cpu0 web.0 -> hog.0 (R)          web.0 preempted: no latency for hog.0
 * 12 @8ms nice web.0 0 -> 5
 * 13 @8ms note #2
 * 14 @9ms cpu0 hog.0 -> idle (X)  15 exit hog.0
 */
static void feed_mix(void)
{
	fork_new(0, 0, HOG0);
	fork_new(0, 1, WEB0);
	sw(1 * MS, 0, 0, 'R', HOG0);
	sw(3 * MS, 1, 0, 'R', WEB0);
	sw(4 * MS, 1, WEB0, 'S', 0);
	wake(5 * MS, 1, WEB0, 1);
	migrate(5 * MS, WEB0, 1, 0);
	sw(6 * MS, 0, HOG0, 'R', WEB0);
	sw(7 * MS, 0, WEB0, 'R', HOG0);
	set_nice(8 * MS, 0, WEB0, 0, 5);
	note(8 * MS, 2);
	sw(9 * MS, 0, HOG0, 'X', 0);
	task_exit(9 * MS, 0, HOG0);
}

/* ---- parsing ---- */

static void test_parse_good(void **state)
{
	static const char *const good[] = {
		"at 5s",
		"at 0",
		"at 1.5ms",
		"switch",
		"switch cpu=0-1,3 prev=hog.* next=web.0 task=batch",
		"wakeup task=web.? cpu=2",
		"migrate task=hog.0 from=0 to=1-3",
		"fork task=web.*",
		"exit",
		"preempt task=hog.* cpu=0",
		"wakeup_latency > 2ms",
		"wakeup_latency>=1us task=web.*",
		"wakeup_latency<5ms",
		"wakeup_latency <= 0",
		"wakeup_latency task=web.* > 2ms",
		"wakeup_latency = 3ms",
		"nice task=batch",
		"note",
		"event sched_stat_runtime",
		"event schedscope_command",
		"wakeup task=\"web.0\"",
		"at 1s and switch cpu=1 or note",
		"(wakeup task=web.0 or wakeup task=web.1) and at 1ms",
		"((note))",
		"(wakeup task=web.*)",
		"note or (switch task=hog.0)",
		"(switch cpu=0-1)and(note)",
		"balance",
		"balance cpu=0 level=NUMA moved >= 4",
		"herd",
		"balance level=MC and herd",
	};

	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		breakpoint_free(parse(good[i]));
}

static void test_text_is_kept(void **state)
{
	struct breakpoint *bp = parse("  wakeup_latency > 2ms task=web.*   # comment\n");

	assert_string_equal(breakpoint_text(bp), "wakeup_latency > 2ms task=web.*");
	breakpoint_free(bp);
	bp = parse("(at 1s)");
	assert_string_equal(breakpoint_text(bp), "(at 1s)");
	breakpoint_free(bp);
	bp = parse("(wakeup task=web.0)");
	assert_string_equal(breakpoint_text(bp), "(wakeup task=web.0)");
	breakpoint_free(bp);
	bp = parse("(switch cpu=0-1)and(wakeup task=web.*)or note");
	assert_string_equal(breakpoint_text(bp), "(switch cpu=0-1)and(wakeup task=web.*)or note");
	breakpoint_free(bp);
}

#define CONDS "at, switch, wakeup, migrate, fork, exit, preempt, wakeup_latency, nice, note, event, throttle, " \
	      "unthrottle, balance or herd"

static void test_parse_errors(void **state)
{
	assert_string_equal(parse_err(""), "col 1: missing a condition (expected " CONDS ")");
	assert_string_equal(parse_err("   "), "col 4: missing a condition (expected " CONDS ")");
	assert_string_equal(parse_err("foo"), "col 1: unknown condition 'foo' (expected " CONDS ")");
	assert_string_equal(parse_err("switch or bar"),
			    "col 11: unknown condition 'bar' (expected " CONDS ")");
	assert_string_equal(parse_err("at"), "col 3: missing a time after 'at'");
	assert_string_equal(parse_err("at 5x"),
			    "col 4: bad time '5x' (a number and a unit: ns, us, ms or s)");
	assert_string_equal(parse_err("at 1.5ns"),
			    "col 4: time '1.5ns' is not a whole number of nanoseconds");
	assert_string_equal(parse_err("at cpu=1"), "col 4: expected a time after 'at', got 'cpu=1'");
	assert_string_equal(parse_err("at 5s cpu=1"), "col 7: 'at' takes no KEY=VALUE, got 'cpu=1'");
	assert_string_equal(parse_err("switch cpu=9"), "col 12: CPU 9 does not exist (4 CPUs, 0-3)");
	assert_string_equal(parse_err("migrate to=2-1"), "col 12: CPU range '2-1' runs backwards");
	assert_string_equal(parse_err("wakeup cpu=x"), "col 12: bad CPU list 'x' (like 0-3,8,10)");
	assert_string_equal(parse_err("switch cpu="), "col 11: missing value after 'cpu='");
	assert_string_equal(parse_err("switch foo=1"),
			    "col 8: unknown key 'foo' for switch (expected cpu, prev, next or task)");
	assert_string_equal(parse_err("fork cpu=1"),
			    "col 6: unknown key 'cpu' for fork (expected task)");
	assert_string_equal(parse_err("wakeup task=nope"), "col 13: no task matches 'nope'");
	assert_string_equal(parse_err("wakeup task=web"), "col 13: no task matches 'web'");
	assert_string_equal(parse_err("switch prev=idle"), "col 13: no task matches 'idle'");
	assert_string_equal(parse_err("wakeup task=x*"), "col 13: no task matches 'x*'");
	assert_string_equal(parse_err("wakeup task=web.0 task=web.1"), "col 19: duplicate key 'task'");
	assert_string_equal(parse_err("wakeup_latency 5ms"),
			    "col 16: expected a comparison (> >= < <= =) after 'wakeup_latency', got '5ms'");
	assert_string_equal(parse_err("wakeup_latency"),
			    "col 15: missing a comparison (> >= < <= =) after 'wakeup_latency'");
	assert_string_equal(parse_err("wakeup_latency >"), "col 17: missing a duration after '>'");
	assert_string_equal(parse_err("wakeup_latency >= 5"),
			    "col 19: bad latency '5' (a number and a unit: ns, us, ms or s)");
	assert_string_equal(parse_err("wakeup_latency > = 5ms"),
			    "col 18: expected a duration after '>', got '='");
	assert_string_equal(parse_err("event"), "col 6: missing an event name after 'event'");
	/* the list of events grows with the engine: check how it starts */
	assert_true(!strncmp(parse_err("event sched_foo"),
			     "col 7: unknown event 'sched_foo' (expected sched_switch, sched_waking, ", 71));
	assert_string_equal(parse_err("switch and"), "col 11: missing a condition after 'and'");
	assert_string_equal(parse_err("switch or"), "col 10: missing a condition after 'or'");
	/* what could follow names the keys not given yet */
	assert_string_equal(parse_err("switch wakeup"),
			    "col 8: expected task=, prev=, next=, cpu=, 'and' or 'or' before 'wakeup'");
	assert_string_equal(parse_err("switch cpu=1 prev=web.0 wakeup"),
			    "col 25: expected task=, next=, 'and' or 'or' before 'wakeup'");
	assert_string_equal(parse_err("note \"x\""), "col 6: unexpected '\"x\"'");
	assert_string_equal(parse_err("= switch"), "col 1: expected a condition, got '='");
	assert_string_equal(parse_err("and"), "col 1: unknown condition 'and' (expected " CONDS ")");
	assert_string_equal(parse_err("(switch"), "col 1: unclosed '('");
	assert_string_equal(parse_err("note and (switch or (note)"), "col 10: unclosed '('");
	assert_string_equal(parse_err("()"), "col 2: expected a condition, got ')'");
	assert_string_equal(parse_err("("), "col 2: missing a condition after '('");
	assert_string_equal(parse_err("switch )"), "col 8: unexpected ')'");
	assert_string_equal(parse_err("wakeup task=web.0)"), "col 18: unexpected ')'");
	assert_string_equal(parse_err("(wakeup task=web.0)x)"), "col 20: expected 'and' or 'or' before 'x'");
	assert_string_equal(parse_err("(wakeup task=)"), "col 14: no task matches ')'");
	assert_string_equal(parse_err("(note note)"), "col 7: expected 'and', 'or' or ')' before 'note'");
	assert_string_equal(parse_err("note\nnote"), "col 1: one breakpoint per line");
	assert_string_equal(parse_err("note \x01"), "col 6: unexpected control character 0x01");
	assert_string_equal(parse_err("wakeup task=\"web.0"), "col 13: unterminated string");
}

static const char *value_for(const char *word)
{
	static const char *const v[][2] = {
		{ "task=", "web.*" }, { "prev=", "hog.0" }, { "next=", "web.1" },
		{ "cpu=", "0-3" },    { "from=", "1" },	    { "to=", "2" },
		{ "group=", "/*" },   { "level=", "MC" },   { "moved", " >= 1" }
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (!strcmp(word, v[i][0]))
			return v[i][1];
	fail_msg("no value for '%s'", word);
	return "";
}

/* What completion offers: each condition's keys, balance's `moved`, fixed values. */
static void test_completion_words(void **state)
{
	static const char *const balance[] = { "cpu=", "level=", "moved" };
	static const char *const migrate[] = { "task=", "from=", "to=" };

	for (int i = 0; i < 3; i++) {
		assert_string_equal(breakpoint_cond_word("balance", i), balance[i]);
		assert_string_equal(breakpoint_cond_word("migrate", i), migrate[i]);
	}
	assert_null(breakpoint_cond_word("balance", 3));
	assert_string_equal(breakpoint_cond_word("throttle", 0), "cpu=");
	assert_string_equal(breakpoint_cond_word("throttle", 1), "group=");
	assert_null(breakpoint_cond_word("herd", 0));
	assert_null(breakpoint_cond_word("nosuch", 0));
	assert_string_equal(breakpoint_key_value("level", 0), "SMT");
	assert_string_equal(breakpoint_key_value("level", 5), "NUMA");
	assert_null(breakpoint_key_value("level", 6));
	assert_null(breakpoint_key_value("task", 0));
	/* every word offered parses where it was offered */
	for (int k = 0; breakpoint_cond_name(k); k++)
		for (int i = 0; breakpoint_cond_word(breakpoint_cond_name(k), i); i++) {
			const char *w = breakpoint_cond_word(breakpoint_cond_name(k), i);
			char text[64], err[256];

			const char *kind = breakpoint_cond_name(k);

			snprintf(text, sizeof(text), "%s%s %s%s", kind,
				 !strcmp(kind, "wakeup_latency") ? " > 1ms" : "", w, value_for(w));
			struct breakpoint *bp = breakpoint_parse(text, &scope, err, sizeof(err));
			if (!bp)
				fail_msg("'%s': %s", text, err);
			breakpoint_free(bp);
		}
}

static void test_parse_limits(void **state)
{
	char text[2048];
	size_t k = 0;

	/* 64 conditions are fine, 65 are not */
	for (int i = 0; i < BREAKPOINT_MAX_CONDS; i++)
		k += (size_t)sprintf(text + k, "%snote", i ? " or " : "");
	breakpoint_free(parse(text));
	sprintf(text + k, " or exit");
	assert_string_equal(parse_err(text), "col 513: more than 64 conditions at 'exit'");

	/* 16 levels of parentheses are fine, 17 are not */
	k = 0;
	for (int i = 0; i < BREAKPOINT_MAX_DEPTH; i++)
		text[k++] = '(';
	k += (size_t)sprintf(text + k, "note");
	for (int i = 0; i < BREAKPOINT_MAX_DEPTH; i++)
		text[k++] = ')';
	text[k] = 0;
	breakpoint_free(parse(text));
	memmove(text + 1, text, k + 1);
	text[0] = '(';
	assert_string_equal(parse_err(text), "col 17: parentheses nested more than 16 deep");

	char longpat[400];
	memset(longpat, 'a', sizeof(longpat));
	strcpy(longpat + 300, "*");
	snprintf(text, sizeof(text), "wakeup task=%s", longpat);
	assert_string_equal(parse_err(text),
			    "col 13: task pattern 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is too long");
}

static void test_parse_without_tasks(void **state)
{
	char err[128];
	const struct breakpoint_scope none = { NULL, 0, NULL, 0, 1 };
	struct breakpoint *bp = breakpoint_parse("at 1s or switch cpu=0", &none, err, sizeof(err));

	assert_non_null(bp);
	breakpoint_free(bp);
	assert_null(breakpoint_parse("wakeup task=*", &none, err, sizeof(err)));
	assert_string_equal(err, "col 13: no task matches '*'");
	/* a tiny error buffer is filled as far as it goes */
	assert_null(breakpoint_parse("throttle group=/x", &none, err, sizeof(err)));
	assert_string_equal(err, "col 16: no group matches '/x'");
	assert_null(breakpoint_parse("nope", &scope, err, 8));
	assert_string_equal(err, "col 1: ");
}

static void test_parse_lex_in_a_file(void **state)
{
	const char *text = "break wakeup task=web.*  # a comment\nbreak at 2s\nbreak fork task=zz\n";
	char err[256];
	struct lexer lx;
	struct token t;

	lex_init(&lx, "x.scn", text, strlen(text), err, sizeof(err));
	assert_int_equal(lex_next(&lx, &t), TOK_WORD);
	struct breakpoint *bp = breakpoint_parse_lex(&lx, &scope);
	assert_non_null(bp);
	assert_string_equal(breakpoint_text(bp), "wakeup task=web.*");
	breakpoint_free(bp);
	/* the end of the line was consumed: the next line follows */
	assert_int_equal(lex_next(&lx, &t), TOK_WORD);
	bp = breakpoint_parse_lex(&lx, &scope);
	assert_string_equal(breakpoint_text(bp), "at 2s");
	breakpoint_free(bp);
	assert_int_equal(lex_next(&lx, &t), TOK_WORD);
	assert_null(breakpoint_parse_lex(&lx, &scope));
	assert_string_equal(err, "x.scn:3:17: no task matches 'zz'");
}

/* ---- hits ---- */

static void test_at(void **state)
{
	for (int i = 0; i < 4; i++)
		note((u64)i * MS, 0);				/* 0, 1, 2, 3 ms */
	assert_string_equal(run("at 2ms"), "2");
	assert_string_equal(run("at 1500us"), "2");
	assert_string_equal(run("at 0"), "0");
	assert_string_equal(run("at 4ms"), "");

	/* once per pass; a rewind (reset) before T re-arms, one past T does not */
	struct breakpoint *bp = parse("at 2ms");
	assert_string_equal(hits(bp), "2");
	assert_string_equal(hits(bp), "");
	breakpoint_reset(bp);
	assert_string_equal(hits_from(bp, 1), "2");
	breakpoint_reset(bp);
	assert_string_equal(hits_from(bp, 3), "");
	breakpoint_free(bp);

	/* made while the run is past T: never hits */
	bp = parse("at 500us");
	assert_string_equal(hits_from(bp, 1), "");
	breakpoint_free(bp);
}

static void bw_ev(u64 t, int type, int cpu, int group)
{
	add(t, type, cpu)->bw.group = group;
}

/* throttle/unthrottle by group path (a '*' stays within one level) and CPU */
static void test_throttle(void **state)
{
	bw_ev(1 * MS, EV_CFS_THROTTLE, 0, 3);		/* 0: /batch on cpu 0 */
	bw_ev(2 * MS, EV_CFS_THROTTLE, 1, 2);		/* 1: /web/api on cpu 1 */
	bw_ev(3 * MS, EV_CFS_UNTHROTTLE, 0, 3);		/* 2 */
	bw_ev(4 * MS, EV_CFS_PERIOD, 0, 3);		/* 3 */
	bw_ev(5 * MS, EV_CFS_THROTTLE, 2, 1);		/* 4: /web on cpu 2 */
	assert_string_equal(run("throttle"), "0,1,4");
	assert_string_equal(run("throttle group=/batch"), "0");
	assert_string_equal(run("throttle group=/web/*"), "1");
	assert_string_equal(run("throttle group=/web*"), "4");
	assert_string_equal(run("throttle cpu=1-2"), "1,4");
	assert_string_equal(run("unthrottle group=/batch cpu=0"), "2");
	assert_string_equal(run("event schedscope_cfs_period"), "3");
	assert_string_equal(parse_err("throttle group=/nope"), "col 16: no group matches '/nope'");
	assert_string_equal(parse_err("throttle task=hog.0"),
			    "col 10: unknown key 'task' for throttle (expected group or cpu)");
}

static void test_switch(void **state)
{
	feed_mix();
	assert_string_equal(run("switch"), "4,5,6,10,11,14");
	assert_string_equal(run("switch cpu=1"), "5,6");
	assert_string_equal(run("switch cpu=0,2-3"), "4,10,11,14");
	assert_string_equal(run("switch prev=hog.*"), "10,14");
	assert_string_equal(run("switch next=web.0"), "5,10");
	assert_string_equal(run("switch task=web.0"), "5,6,10,11");
	assert_string_equal(run("switch task=web.0 cpu=0 prev=hog.0"), "10");
	assert_string_equal(run("switch next=web.1"), "");
	assert_string_equal(run("event sched_switch"), "4,5,6,10,11,14");
}

static void test_wakeup(void **state)
{
	feed_mix();
	assert_string_equal(run("wakeup"), "1,3,8");
	assert_string_equal(run("wakeup task=web.*"), "3,8");
	assert_string_equal(run("wakeup cpu=0"), "1");
	assert_string_equal(run("wakeup cpu=1 task=web.0"), "3,8");
	assert_string_equal(run("event sched_wakeup_new"), "1,3");
	assert_string_equal(run("event sched_waking"), "7");
}

static void test_migrate_fork_exit_nice_note(void **state)
{
	feed_mix();
	assert_string_equal(run("migrate"), "9");
	assert_string_equal(run("migrate task=web.0 from=1 to=0"), "9");
	assert_string_equal(run("migrate from=0"), "");
	assert_string_equal(run("migrate to=1-3"), "");
	assert_string_equal(run("migrate task=hog.*"), "");
	assert_string_equal(run("fork"), "0,2");
	assert_string_equal(run("fork task=web.0"), "2");
	assert_string_equal(run("exit"), "15");
	assert_string_equal(run("exit task=web.*"), "");
	assert_string_equal(run("nice"), "12");
	assert_string_equal(run("nice task=hog.0"), "");
	assert_string_equal(run("note"), "13");
	assert_string_equal(run("event schedscope_note"), "13");
	assert_string_equal(run("event sched_stat_runtime"), "");
}

static void test_preempt(void **state)
{
	feed_mix();
	/* idle switched out is "R" but never a preemption; S and X are not */
	assert_string_equal(run("preempt"), "10,11");
	assert_string_equal(run("preempt task=web.0"), "11");
	assert_string_equal(run("preempt cpu=1"), "");
	assert_string_equal(run("preempt task=hog.* cpu=0"), "10");
}

static void test_wakeup_latency(void **state)
{
	feed_mix();
	/* web.0 waits 3ms (wakeup_new at 0, in at 3ms), then 1ms (woken 5ms, in 6ms);
	 * hog.0 waits 1ms; hog.0 back in at 7ms after a preemption is no wakeup */
	assert_string_equal(run("wakeup_latency >= 0"), "4,5,10");
	assert_string_equal(run("wakeup_latency > 2ms"), "5");
	assert_string_equal(run("wakeup_latency > 3ms"), "");
	assert_string_equal(run("wakeup_latency >= 3ms"), "5");
	assert_string_equal(run("wakeup_latency = 1ms"), "4,10");
	assert_string_equal(run("wakeup_latency < 1ms"), "");
	assert_string_equal(run("wakeup_latency <= 1ms"), "4,10");
	assert_string_equal(run("wakeup_latency <= 1ms task=web.*"), "10");
	assert_string_equal(run("wakeup_latency > 0 task=hog.1"), "");
}

static void test_wakeup_latency_rules(void **state)
{
	/* 0-1: web.0 new at 0;  2: in at 1ms (1ms)
	 * 3-4: woken at 2ms while still running (no wait);  5: blocks at 3ms
	 * 6-7: woken at 4ms;  8-9: woken again at 5ms (the first counts)
	 * 10: in at 6ms (2ms);  11: preempted at 7ms;  12: back at 9ms (no sample)
	 * 13: out (S) at 10ms;  14-15: woken at 11ms;  16: in at 11ms (0) */
	fork_new(0, 0, WEB0);
	sw(1 * MS, 0, 0, 'R', WEB0);
	wake(2 * MS, 0, WEB0, 0);
	sw(3 * MS, 0, WEB0, 'S', 0);
	wake(4 * MS, 0, WEB0, 0);
	wake(5 * MS, 0, WEB0, 0);
	sw(6 * MS, 0, 0, 'R', WEB0);
	sw(7 * MS, 0, WEB0, 'R', HOG0);
	sw(9 * MS, 0, HOG0, 'S', WEB0);
	sw(10 * MS, 0, WEB0, 'S', 0);
	wake(11 * MS, 0, WEB0, 0);
	sw(11 * MS, 0, 0, 'R', WEB0);
	assert_string_equal(run("wakeup_latency >= 0 task=web.0"), "2,10,16");
	assert_string_equal(run("wakeup_latency = 2ms"), "10");
	assert_string_equal(run("wakeup_latency = 0"), "16");
	assert_string_equal(run("wakeup_latency > 2ms"), "");

	/* a breakpoint made mid-run (or reset) does not know who is on a CPU:
	 * the first wakeup of a task not yet seen switching starts no wait */
	struct breakpoint *bp = parse("wakeup_latency >= 0");
	assert_string_equal(hits_from(bp, 3), "10,16");	/* web.0 first seen at 5 */
	breakpoint_reset(bp);
	assert_string_equal(hits_from(bp, 6), "16");
	breakpoint_reset(bp);
	assert_string_equal(hits_from(bp, 0), "2,10,16");
	breakpoint_free(bp);
}

static void test_wakeup_latency_missed_switch_in(void **state)
{
	/* The predicate may miss events (history stops at the first hit of a
	 * step): a task seen switched out has no pending wakeup any more. */
	fork_new(0, 0, WEB0);
	wake(3 * MS, 0, WEB0, 0);		/* 2-3: web.0 really running: missed */
	sw(4 * MS, 0, WEB0, 'S', 0);		/* 4 */
	wake(5 * MS, 0, WEB0, 0);		/* 5-6 */
	sw(6 * MS, 0, 0, 'R', WEB0);		/* 7: 1ms, not 6ms */
	assert_string_equal(run("wakeup_latency > 1ms"), "");
	assert_string_equal(run("wakeup_latency = 1ms"), "7");
}

static void test_and_or(void **state)
{
	feed_mix();
	assert_string_equal(run("wakeup task=hog.0 or wakeup_latency > 2ms"), "1,5");
	assert_string_equal(run("wakeup_latency >= 1ms and switch cpu=0"), "4,10");
	assert_string_equal(run("wakeup_latency >= 1ms and switch cpu=0 and switch prev=hog.0"), "10");
	/* and binds tighter: note or (switch and cpu=1) */
	assert_string_equal(run("note or switch cpu=1 and preempt"), "13");
	assert_string_equal(run("note or switch cpu=1 and switch next=web.0"), "5,13");
	assert_string_equal(run("(note or switch cpu=1) and switch next=web.0"), "5");
	assert_string_equal(run("(note or switch) and (switch task=hog.0 or note)"), "4,10,11,13,14");
	assert_string_equal(run("fork and exit"), "");
	assert_string_equal(run("migrate or nice or exit"), "9,12,15");

	/* at T with a condition: the first match at or after T, once */
	assert_string_equal(run("at 5ms and switch"), "10");
	assert_string_equal(run("at 5ms and preempt task=web.0"), "11");
	assert_string_equal(run("at 6500us or note"), "11,13");
	/* the at term held at the switch hit (7ms >= 6500us): spent there */
	assert_string_equal(run("switch task=web.0 or at 6500us"), "5,6,10,11");
	/* latency state is kept while the other side of `and` is false */
	assert_string_equal(run("at 5ms and wakeup_latency = 1ms task=web.0"), "10");
}

static void test_describe(void **state)
{
	char buf[256];

	feed_mix();
	runtime(10 * MS, 1, WEB1);
	struct breakpoint *bp = parse("wakeup_latency > 500us or at 8ms");

	for (int i = 0; i < nr_evs; i++) {
		bool hit = breakpoint_test(bp, &evs[i]);
		breakpoint_describe(bp, &evs[i], names, buf, sizeof(buf));
		switch (i) {
		case 1:
			assert_false(hit);
			assert_string_equal(buf, "sched_wakeup_new on cpu 0: hog.0 to cpu 0");
			break;
		case 4:
			assert_true(hit);
			assert_string_equal(buf, "sched_switch on cpu 0: idle -> hog.0; wakeup latency 1ms > 500us");
			break;
		case 8:
			assert_string_equal(buf, "sched_wakeup on cpu 1: web.0 to cpu 1");
			break;
		case 9:
			assert_string_equal(buf, "sched_migrate_task: web.0 cpu 1 -> cpu 0");
			break;
		case 11:
			assert_false(hit);
			assert_string_equal(buf, "sched_switch on cpu 0: web.0 -> hog.0 (web.0 preempted)");
			break;
		case 12:
			assert_true(hit);
			assert_string_equal(buf, "schedscope_set_nice on cpu 0: web.0 nice 0 -> 5; reached 8ms");
			break;
		case 13:
			assert_false(hit);
			assert_string_equal(buf, "schedscope_note #2");
			break;
		case 14:
			assert_string_equal(buf, "sched_switch on cpu 0: hog.0 -> idle");
			break;
		case 15:
			assert_string_equal(buf, "sched_process_exit on cpu 0: hog.0");
			break;
		case 16:
			assert_string_equal(buf, "sched_stat_runtime on cpu 1: web.1 ran 1ms");
			break;
		}
	}
	/* not the event last tested: no reason; no names: pids */
	breakpoint_describe(bp, &evs[4], NULL, buf, sizeof(buf));
	assert_string_equal(buf, "sched_switch on cpu 0: idle -> pid 1");
	breakpoint_describe(bp, &evs[0], names, buf, 12);
	assert_string_equal(buf, "sched_proce");
	struct sched_event odd = evs[10];
	odd.sw.prev_pid = 99;
	breakpoint_describe(bp, &odd, names, buf, sizeof(buf));
	assert_string_equal(buf, "sched_switch on cpu 0: pid 99 -> web.0 (pid 99 preempted)");
	odd.type = 999;
	breakpoint_describe(bp, &odd, names, buf, sizeof(buf));
	assert_string_equal(buf, "event on cpu 0");
	breakpoint_free(bp);
}

static void balance_ev(u64 t, int cpu, int level, int moved)
{
	struct sched_event *ev = add(t, EV_LOAD_BALANCE, cpu);

	ev->lb.level = (u8)level;
	ev->lb.nr_moved = (u16)moved;
}

/* balance cpu=... level=... moved OP N, and herd */
static void test_balance_and_herd(void **state)
{
	balance_ev(0, 0, SDL_NUMA, 4);	/* 0 */
	balance_ev(1, 0, SDL_NUMA, 3);	/* 1 */
	balance_ev(2, 1, SDL_NUMA, 5);	/* 2 */
	balance_ev(3, 0, SDL_MC, 6);	/* 3 */
	add(4, EV_HERD, 2);		/* 4 */
	assert_string_equal(run("balance cpu=0 level=NUMA moved >= 4"), "0");
	/* the keys in any order around the comparison (issue 15) */
	assert_string_equal(run("balance level=NUMA moved >= 4 cpu=0"), "0");
	assert_string_equal(run("balance moved >= 4 cpu=0 level=NUMA"), "0");
	assert_string_equal(parse_err("balance moved >= 4 cpu=0 cpu=1"), "col 26: duplicate key 'cpu'");
	/* the issue's example (the first line above) with one more moved: no stop */
	assert_string_equal(run("balance level=NUMA moved >= 5 cpu=0"), "");
	assert_string_equal(parse_err("balance cpu=0 moved >= 1 level=MC moved > 2"),
			    "col 35: 'moved' given twice");
	assert_string_equal(parse_err("balance cpu=0 frob"),
			    "col 15: expected level=, moved OP N, 'and' or 'or' before 'frob'");
	assert_string_equal(parse_err("balance moved 1"),
			    "col 15: expected a comparison (> >= < <= =) after 'moved'");
	assert_string_equal(parse_err("(balance level=MC moved = 1 x)"),
			    "col 29: expected cpu=, 'and', 'or' or ')' before 'x'");
	assert_string_equal(run("balance level=NUMA"), "0,1,2");
	assert_string_equal(run("balance moved < 4"), "1");
	assert_string_equal(run("balance cpu=0"), "0,1,3");
	assert_string_equal(run("herd"), "4");
	assert_string_equal(parse_err("balance level=FOO"),
			    "col 15: unknown level 'FOO' (expected SMT, CLS, MC, PKG, NODE or NUMA)");
	assert_string_equal(parse_err("balance moved >= x"), "col 18: bad count 'x' (a number of tasks)");
	assert_string_equal(parse_err("herd cpu=1"), "col 6: 'herd' takes no KEY=VALUE, got 'cpu=1'");
}

static void test_bad_events_are_ignored(void **state)
{
	/* pids and CPUs out of range, unknown types: no crash, no hit */
	sw(0, 9, 77, 'R', -3);
	wake_ev(0, EV_SCHED_WAKEUP, -1, 1000, 4096);
	migrate(0, -1, -5, 1 << 20);
	add(0, 999, 0);
	sw(1, 0, 0, 'R', WEB0);
	assert_string_equal(run("switch task=web.0 or wakeup task=* or migrate to=0 or "
				"wakeup_latency >= 0 or preempt task=*"), "4");
	assert_string_equal(run("switch cpu=0-3"), "4");
	assert_string_equal(run("switch"), "0,4");
	assert_string_equal(run("preempt"), "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_parse_good, setup),
		cmocka_unit_test_setup(test_text_is_kept, setup),
		cmocka_unit_test_setup(test_parse_errors, setup),
		cmocka_unit_test_setup(test_parse_limits, setup),
		cmocka_unit_test_setup(test_parse_without_tasks, setup),
		cmocka_unit_test_setup(test_parse_lex_in_a_file, setup),
		cmocka_unit_test_setup(test_at, setup),
		cmocka_unit_test_setup(test_throttle, setup),
		cmocka_unit_test_setup(test_switch, setup),
		cmocka_unit_test_setup(test_wakeup, setup),
		cmocka_unit_test_setup(test_migrate_fork_exit_nice_note, setup),
		cmocka_unit_test_setup(test_preempt, setup),
		cmocka_unit_test_setup(test_wakeup_latency, setup),
		cmocka_unit_test_setup(test_wakeup_latency_rules, setup),
		cmocka_unit_test_setup(test_wakeup_latency_missed_switch_in, setup),
		cmocka_unit_test_setup(test_and_or, setup),
		cmocka_unit_test_setup(test_describe, setup),
		cmocka_unit_test_setup(test_bad_events_are_ignored, setup),
		cmocka_unit_test_setup(test_balance_and_herd, setup),
		cmocka_unit_test_setup(test_completion_words, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
