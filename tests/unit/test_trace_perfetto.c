// SPDX-License-Identifier: GPL-2.0
/*
 * The Chrome/Perfetto JSON writer: the document parses, the metadata names
 * the rows, slices have hand-computed ts/dur, a migration is a flow pair,
 * the window clips slices and keeps counters inside it, and a run through
 * the engine gives well-formed, byte-identical output twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/format/scenario_file.h"
#include "src/trace/trace_perfetto.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"

/* ---- a small JSON syntax checker (RFC 8259 grammar, no semantics) ---- */

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *parse_value(const char *p, int depth);

static const char *parse_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *parse_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		if (!(*++p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > s ? p : NULL;
}

static const char *parse_container(const char *p, int depth, bool object)
{
	char close = object ? '}' : ']';

	p = skip_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = parse_string(skip_ws(p));
			if (!p)
				return NULL;
			p = skip_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = parse_value(p, depth + 1);
		if (!p)
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *parse_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = skip_ws(p);
	switch (*p) {
	case '{':
		return parse_container(p, depth, true);
	case '[':
		return parse_container(p, depth, false);
	case '"':
		return parse_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return parse_number(p);
	}
}

static bool json_valid(const char *text)
{
	const char *end = parse_value(text, 0);

	return end && *skip_ws(end) == '\0';
}

static void test_checker_itself(void **state)
{
	assert_true(json_valid("{\"a\":[1,-2.5e3,true,null,\"x\\u00e9\"]}\n"));
	assert_false(json_valid("{\"a\":[1,]}"));
	assert_false(json_valid("{\"a\":01}"));
	assert_false(json_valid("[1] [2]"));
	assert_false(json_valid("{\"a\" 1}"));
}

/* ---- a fake engine ---- */

static const char *const names[] = { "hog.0", "web.1", "web.2" };

static const char *test_comm(void *ctx, int pid, int cpu)
{
	return pid >= 1 && pid <= 3 ? names[pid - 1] : NULL;
}

static const char *test_note(void *ctx, u32 index)
{
	return index == 0 ? "two \"hogs\"\nshare CPU 0" : NULL;
}

static struct sched_event ev_switch(u64 t, int cpu, int prev, char state, int next)
{
	struct sched_event ev = fx_event(t, EV_SCHED_SWITCH, cpu);

	ev.sw.prev_pid = prev;
	ev.sw.next_pid = next;
	ev.sw.prev_prio = prev ? 120 : 120;
	ev.sw.next_prio = 120;
	ev.sw.prev_state = state;
	return ev;
}

/*
 * Two CPUs. hog.0 runs on CPU 0 from 0 to 2.5 us, is preempted by web.1
 * (woken at 1 us), migrates to CPU 1 at 3 us and runs there from 3.5 us to
 * 7.123 us; web.1 runs on CPU 0 from 2.5 to 5 us. A note at 100 ns.
 */
static void feed(struct trace_perfetto *w)
{
	struct sched_event ev;

	ev = fx_wake_event(0, EV_SCHED_WAKEUP_NEW, 0, 1, 0);
	trace_perfetto_event(w, &ev);
	ev = ev_switch(0, 0, 0, 'R', 1);
	trace_perfetto_event(w, &ev);
	ev = fx_event(100, EV_NOTE, 0);
	ev.note.index = 0;
	trace_perfetto_event(w, &ev);
	ev = fx_wake_event(1000, EV_SCHED_WAKEUP_NEW, 0, 2, 0);
	trace_perfetto_event(w, &ev);
	ev = ev_switch(2500, 0, 1, 'R', 2);
	trace_perfetto_event(w, &ev);
	ev = fx_event(3000, EV_SCHED_MIGRATE_TASK, 1);
	ev.migrate.pid = 1;
	ev.migrate.prio = 120;
	ev.migrate.orig_cpu = 0;
	ev.migrate.dest_cpu = 1;
	ev.migrate.reason = MIGRATE_BALANCE;
	ev.migrate.cause = 7;
	trace_perfetto_event(w, &ev);
	ev = ev_switch(3500, 1, 0, 'R', 1);
	trace_perfetto_event(w, &ev);
	ev = ev_switch(5000, 0, 2, 'S', 0);
	trace_perfetto_event(w, &ev);
	ev = ev_switch(7123, 1, 1, 'S', 0);
	trace_perfetto_event(w, &ev);
	/* web.1 reaches its rt-app timer 500 ns late */
	ev = fx_event(7200, EV_PROG_TIMER, 0);
	ev.timer.pid = 2;
	ev.timer.missed = 1;
	ev.timer.expires = 6700;
	ev.timer.slack = -500;
	ev.timer.period = 2000;
	trace_perfetto_event(w, &ev);
}

static char *export(u64 from, u64 to)
{
	struct trace_perfetto_opts o = {
		.nr_cpus = 2, .from = from, .to = to, .comm = test_comm, .note = test_note,
	};
	FILE *f = tmpfile();
	struct trace_perfetto *w;
	char *text;

	assert_non_null(f);
	w = trace_perfetto_open(f, &o);
	assert_non_null(w);
	feed(w);
	assert_int_equal(trace_perfetto_close(w, 10000), 0);
	text = fx_read_all(f);
	fclose(f);
	assert_true(json_valid(text));
	return text;
}

#define CPUS "\"pid\":1000000"
#define TASKS "\"pid\":2000000"

static void test_document_and_metadata(void **state)
{
	char *t = export(0, 0);

	/* no displayTimeUnit: ts in microseconds, as the format says and Chrome writes it */
	assert_memory_equal(t, "{\"traceEvents\":[\n", 17);
	assert_non_null(strstr(t, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"process_name\"," CPUS
				  ",\"tid\":1000000,\"ts\":0.000,\"args\":{\"name\":\"CPUs\"}},\n"));
	assert_non_null(strstr(t, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_name\"," CPUS
				  ",\"tid\":1000001,\"ts\":0.000,\"args\":{\"name\":\"CPU 0\"}},\n"));
	assert_non_null(strstr(t, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_name\"," CPUS
				  ",\"tid\":1000002,\"ts\":0.000,\"args\":{\"name\":\"CPU 1\"}},\n"));
	assert_non_null(strstr(t, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_sort_index\"," CPUS
				  ",\"tid\":1000002,\"ts\":0.000,\"args\":{\"sort_index\":1}},\n"));
	assert_non_null(strstr(t, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"process_name\"," TASKS
				  ",\"tid\":2000000,\"ts\":0.000,\"args\":{\"name\":\"Tasks\"}},\n"));
	assert_non_null(strstr(t, "{\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_name\"," TASKS
				  ",\"tid\":2,\"ts\":0.000,\"args\":{\"name\":\"web.1\"}},\n"));
	/* the caption, escaped, as a global instant */
	assert_non_null(strstr(t, "{\"ph\":\"i\",\"cat\":\"sched\",\"name\":\"two \\\"hogs\\\"\\nshare CPU 0\"," CPUS
				  ",\"tid\":1000000,\"ts\":0.100,\"s\":\"g\",\"args\":{\"index\":0}},\n"));
	/* an rt-app timer: an instant on the task's track */
	assert_non_null(strstr(t, "{\"ph\":\"i\",\"cat\":\"sched\",\"name\":\"timer missed\"," TASKS
				  ",\"tid\":2,\"ts\":7.200,\"s\":\"t\",\"args\":{\"expires_ns\":6700,"
				  "\"slack_ns\":-500,\"period_ns\":2000}}"));
	assert_non_null(strstr(t, "\n],\"otherData\":{\"generator\":\"schedscope\","));
	assert_string_equal(t + strlen(t) - 3, "}}\n");
	free(t);
}

static void test_slices(void **state)
{
	char *t = export(0, 0);

	/* CPU rows: hog.0 0..2.5 us preempted, then 3.5..7.123 us on CPU 1; web.1 2.5..5 us */
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"hog.0\"," CPUS ",\"tid\":1000001,"
				  "\"ts\":0.000,\"dur\":2.500,\"args\":{\"pid\":1,\"prio\":120,\"prev_state\":\"R+\",\"cpu\":0}}"));
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"web.1\"," CPUS ",\"tid\":1000001,"
				  "\"ts\":2.500,\"dur\":2.500,\"args\":{\"pid\":2,\"prio\":120,\"prev_state\":\"S\",\"cpu\":0}}"));
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"hog.0\"," CPUS ",\"tid\":1000002,"
				  "\"ts\":3.500,\"dur\":3.623,\"args\":{\"pid\":1,\"prio\":120,\"prev_state\":\"S\",\"cpu\":1}}"));
	/* the task rows: running and runnable */
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"Running on CPU 1\"," TASKS ",\"tid\":1,"
				  "\"ts\":3.500,\"dur\":3.623,"));
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"Runnable\"," TASKS ",\"tid\":1,"
				  "\"ts\":2.500,\"dur\":1.000,\"args\":{\"cpu\":1}}"));
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"cat\":\"sched\",\"name\":\"Runnable\"," TASKS ",\"tid\":2,"
				  "\"ts\":1.000,\"dur\":1.500,\"args\":{\"cpu\":0}}"));
	assert_non_null(strstr(t, "{\"ph\":\"i\",\"cat\":\"sched\",\"name\":\"wakeup_new\"," TASKS ",\"tid\":2,"
				  "\"ts\":1.000,\"s\":\"t\",\"args\":{\"target_cpu\":0,\"waker_cpu\":0,\"prio\":120}}"));
	/* idle is not drawn */
	assert_null(strstr(t, "\"name\":\"pid 0\""));
	free(t);
}

static void test_migration_flow(void **state)
{
	char *t = export(0, 0);
	const char *s = strstr(t, "{\"ph\":\"s\",\"cat\":\"sched\",\"name\":\"migrate\"," CPUS
				  ",\"tid\":1000001,\"ts\":3.000,\"id\":1,\"args\":{}}");
	const char *f = strstr(t, "{\"ph\":\"f\",\"cat\":\"sched\",\"name\":\"migrate\"," CPUS
				  ",\"tid\":1000002,\"ts\":3.500,\"id\":1,\"args\":{}}");

	assert_non_null(s);
	assert_non_null(f);
	assert_true(s < f);
	assert_non_null(strstr(t, "{\"ph\":\"i\",\"cat\":\"sched\",\"name\":\"migrate\"," CPUS ",\"tid\":1000001,\"ts\":3.000,\"s\":\"t\","
				  "\"args\":{\"pid\":1,\"comm\":\"hog.0\",\"prio\":120,\"orig_cpu\":0,\"dest_cpu\":1,"
				  "\"reason\":\"balance\",\"decision\":7}}"));
	free(t);
}

/* The counters in order, from the events alone (no cpu_info callback). */
static void test_nr_running_counted(void **state)
{
	char *t = export(0, 0);
	static const char *const want[] = {
		"\"name\":\"CPU 0 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":0.000,\"args\":{\"value\":0}",
		"\"name\":\"CPU 1 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":0.000,\"args\":{\"value\":0}",
		"\"name\":\"CPU 0 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":0.000,\"args\":{\"value\":1}",
		"\"name\":\"CPU 0 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":1.000,\"args\":{\"value\":2}",
		"\"name\":\"CPU 0 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":3.000,\"args\":{\"value\":1}",
		"\"name\":\"CPU 1 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":3.000,\"args\":{\"value\":1}",
		"\"name\":\"CPU 0 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":5.000,\"args\":{\"value\":0}",
		"\"name\":\"CPU 1 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":7.123,\"args\":{\"value\":0}",
	};
	const char *p = t;
	int n = 0;

	for (const char *c = strstr(p, "{\"ph\":\"C\""); c; c = strstr(c + 1, "{\"ph\":\"C\"")) {
		assert_true(n < (int)ARRAY_SIZE(want));
		assert_non_null(strstr(c, want[n]));
		assert_true(strstr(c, want[n]) < strchr(c, '\n'));
		n++;
	}
	assert_int_equal(n, (int)ARRAY_SIZE(want));
	free(t);
}

/* Every "ts" of a ph C/i/s/f event lies in [from, to). */
static void check_times_inside(const char *t, double from, double to)
{
	for (const char *line = strstr(t, "\n{"); line; line = strstr(line + 1, "\n{")) {
		const char *ph = line + 8;	/* \n{"ph":" */
		const char *ts;

		if (strchr("Cisf", *ph) == NULL)
			continue;
		ts = strstr(line, "\"ts\":");
		assert_non_null(ts);
		double v = strtod(ts + 5, NULL);
		assert_true(v >= from && v < to);
	}
}

static void test_window(void **state)
{
	char *t = export(2000, 4000);

	/* clipped at both edges */
	assert_non_null(strstr(t, "\"name\":\"hog.0\"," CPUS ",\"tid\":1000001,\"ts\":2.000,\"dur\":0.500,"));
	assert_non_null(strstr(t, "\"name\":\"web.1\"," CPUS ",\"tid\":1000001,\"ts\":2.500,\"dur\":1.500,"));
	assert_non_null(strstr(t, "\"name\":\"hog.0\"," CPUS ",\"tid\":1000002,\"ts\":3.500,\"dur\":0.500,"));
	assert_non_null(strstr(t, "\"name\":\"Runnable\"," TASKS ",\"tid\":2,\"ts\":2.000,\"dur\":0.500,"));
	/* counters start at the window with the values then */
	assert_non_null(strstr(t, "\"name\":\"CPU 0 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":2.000,\"args\":{\"value\":2}"));
	assert_non_null(strstr(t, "\"name\":\"CPU 1 nr_running\"," CPUS ",\"tid\":1000000,\"ts\":2.000,\"args\":{\"value\":0}"));
	assert_null(strstr(t, "\"ts\":5.000"));
	assert_null(strstr(t, "\"ts\":7.123"));
	assert_null(strstr(t, "\"s\":\"g\""));		/* the note at 100 ns is outside */
	/* the migration lies inside: its arrow too */
	assert_non_null(strstr(t, "{\"ph\":\"s\""));
	assert_non_null(strstr(t, "{\"ph\":\"f\""));
	check_times_inside(t, 2.0, 4.0);
	free(t);

	/* a window after the migration: no half arrow */
	t = export(3200, 4000);
	assert_null(strstr(t, "{\"ph\":\"s\""));
	assert_null(strstr(t, "{\"ph\":\"f\""));
	check_times_inside(t, 3.2, 4.0);
	free(t);
}

/* ---- through the engine ---- */

static const char scenario[] =
	"topology packages=1 cores=2 threads=1\n"
	"hz 250\n"
	"seed 1\n"
	"duration 50ms\n"
	"task hog count=2 cpus=0 program=\"run forever\"\n"
	"task web cpus=1 program=\"loop { run 1ms; sleep 2ms }\"\n"
	"note 10ms \"halfway\"\n";

static const char *engine_comm(void *ctx, int pid, int cpu)
{
	return sched_comm(ctx, pid, cpu);
}

static const char *engine_note(void *ctx, u32 index)
{
	const struct sched_scenario *sc = sched_scenario_of(ctx);

	return index < (u32)sc->nr_notes ? sc->note[index].text : NULL;
}

static void engine_cpu_info(void *ctx, int cpu, struct sched_cpu_info *out)
{
	sched_cpu_info(ctx, cpu, out);
}

static bool engine_task_info(void *ctx, int pid, struct sched_task_info *out)
{
	int task = sched_task_by_pid(ctx, pid);

	if (task < 0)
		return false;
	sched_task_info(ctx, task, out);
	return true;
}

static char *run_engine(u64 from, u64 to)
{
	struct scenario_file sf;
	struct sched_engine *e;
	struct trace_perfetto *w;
	char err[256];
	FILE *f = tmpfile();
	char *text;

	assert_non_null(f);
	assert_int_equal(scenario_parse("t.scn", scenario, sizeof(scenario) - 1, &sf, err, sizeof(err)), 0);
	e = sched_engine_create(&sf.sc, err, sizeof(err));
	assert_non_null(e);
	struct trace_perfetto_opts o = {
		.nr_cpus = 2, .from = from, .to = to, .tasks = "hog.1,nomatch*",
		.comm = engine_comm, .note = engine_note, .cpu_info = engine_cpu_info, .task_info = engine_task_info, .ctx = e,
	};
	w = trace_perfetto_open(f, &o);
	assert_non_null(w);
	sched_add_listener(e, trace_perfetto_event, w);
	sched_run_until(e, sf.sc.duration);
	assert_int_equal(trace_perfetto_close(w, sched_now(e)), 0);
	sched_engine_destroy(e);
	scenario_free(&sf);
	text = fx_read_all(f);
	fclose(f);
	assert_true(json_valid(text));
	return text;
}

/* A PELT counter: at most once per ms, only inside the window (values repeat unwritten). */
static void check_sampling(const char *t, const char *name, double from, double to)
{
	double last = -1e9;
	int n = 0;

	for (const char *c = strstr(t, name); c; c = strstr(c + 1, name)) {
		const char *ts = strstr(c, "\"ts\":");
		double v = strtod(ts + 5, NULL);

		assert_true(v >= from && v < to);
		if (n)
			assert_true(v - last >= 1000.0);
		last = v;
		n++;
	}
	assert_true(n >= 3);
}

static void test_engine_run(void **state)
{
	char *a = run_engine(0, 0), *b = run_engine(0, 0);

	assert_string_equal(a, b);	/* deterministic bytes */
	check_sampling(a, "\"name\":\"CPU 1 load_avg\"", 0, 50000);
	check_sampling(a, "\"name\":\"CPU 1 util_avg\"", 0, 50000);
	assert_non_null(strstr(a, "\"name\":\"hog.1 vruntime\"," TASKS));
	assert_non_null(strstr(a, "\"name\":\"hog.1 lag\"," TASKS));
	assert_non_null(strstr(a, "\"name\":\"hog.1 deadline\"," TASKS));
	assert_null(strstr(a, "\"name\":\"hog.0 vruntime\""));
	assert_non_null(strstr(a, "\"name\":\"halfway\""));
	free(a);
	free(b);

	a = run_engine(20000000, 30000000);
	check_sampling(a, "\"name\":\"CPU 1 util_avg\"", 20000, 30000);
	check_times_inside(a, 20000, 30000);
	assert_null(strstr(a, "\"name\":\"halfway\""));
	free(a);
}

static void test_wanted(void **state)
{
	assert_true(trace_perfetto_wanted("out.json"));
	assert_true(trace_perfetto_wanted("/tmp/a.b.json"));
	assert_false(trace_perfetto_wanted(".json"));
	assert_false(trace_perfetto_wanted("out.json.txt"));
	assert_false(trace_perfetto_wanted("-"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker_itself),
		cmocka_unit_test(test_document_and_metadata),
		cmocka_unit_test(test_slices),
		cmocka_unit_test(test_migration_flow),
		cmocka_unit_test(test_nr_running_counted),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_engine_run),
		cmocka_unit_test(test_wanted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
