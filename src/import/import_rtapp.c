// SPDX-License-Identifier: GPL-2.0
/*
 * rt-app JSON into a scenario (import_rtapp.h).
 *
 * rt-app reads its files with json-c, which takes comments and trailing
 * commas, and keeps one value per key: a repeated key's last value, at the
 * place of its first (json_object_object_add() replaces the value of the
 * entry it finds). Its workgen script first renames repeated keys so a
 * phase may list "run" twice, and fills a bare "suspend" with the task's
 * name. The text is first rewritten as strict JSON (every key gets a unique
 * mark "\u0001<n>", which also keeps where it was written for messages),
 * parsed with jansson, whose objects keep their keys in order, and then
 * the repeated keys are collapsed as json-c does unless workgen's reading
 * is asked for.
 *
 * Each task object becomes a `program` block and a `task` line:
 *   task loop (-1 forever) { phase loop { events } ... }
 * with events converted as rt-app runs them (see schedscope(1) IMPORT).
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/base/mem.h"
#include "src/format/command.h"
#include "src/format/group_parse.h"
#include "src/format/scenario_file.h"
#include "import_rtapp.h"

#define MAX_INPUT ((size_t)64 << 20)
#define MAX_DEPTH 64
#define MAX_WARNINGS 100
#define MAX_TASKS 4096
#define MAX_CPU (SCHED_MAX_CPUS - 1)	/* the topology line it writes must load */
#define FORK_POOL_MAX 16	/* instances declared for a task forked in a loop */
#define TASK_NAME_MAX 34	/* leaves room for "_fork" and ".NNNNN" */
#define OBJ_NAME_MAX 63		/* struct sched_sync's name */
#define DEFAULT_DURATION_S 10
#define SLICE_MIN_US ((long long)(SLICE_MIN / NSEC_PER_USEC))	/* the scenario's slice= range */
#define SLICE_MAX_US ((long long)(SLICE_MAX / NSEC_PER_USEC))
/* What `mem` and `iorun` cost when turned into run time (memset, write to /dev/null). */
#define MEM_BYTES_PER_NS 10
#define IO_BYTES_PER_NS 1
#define KEY_MARK '\001'
#define GROUP_PATH_MAX (SCHED_GROUP_PATH_LEN - 1)
#define GROUP_DEPTH_MAX (MAX_GROUP_DEPTH - 1)	/* below the root, as the scenario parser allows */
#define GROUPS_MAX (MAX_GROUPS - 1)

/* The input rewritten as strict JSON. */
struct relaxed {
	char *text;
	size_t len, cap, cap_src;
	size_t *src;		/* [len] the input offset each byte came from */
	size_t *key;		/* [nr_keys] input offset of each key's opening quote */
	size_t nr_keys, cap_keys;
};

/* One rt-app task object. */
struct rtask {
	char rtname[256];	/* as written (the suspend default) */
	char name[TASK_NAME_MAX + 1];	/* scenario task and program name */
	json_t *obj;
	int key;
	long instances;
	long forks;		/* how often `fork` starts it (saturates) */
	bool unbounded_forks;
};

/* The policies rt-app's "policy" takes (its string_to_policy()), as the engine's. */
static const struct {
	const char *name;
	int policy;
} rtapp_policies[] = {
	{ "SCHED_OTHER", SCHED_NORMAL }, { "SCHED_IDLE", SCHED_IDLE }, { "SCHED_BATCH", SCHED_BATCH },
	{ "SCHED_FIFO", SCHED_FIFO },	 { "SCHED_RR", SCHED_RR },     { "SCHED_DEADLINE", SCHED_DEADLINE },
};

struct importer {
	const char *name, *text;
	size_t len;
	bool workgen;
	struct relaxed r;
	FILE *warn;
	int nr_warnings;
	char *err;
	size_t errlen;
	bool failed;
	struct rtask *task;
	int nr_tasks;
	int default_policy;
	int max_cpu;
	FILE *groups;		/* `group` lines, each path once, parents first */
	char (*group)[GROUP_PATH_MAX + 1];
	int nr_groups;
	size_t cap_groups;
};

/* ---- places and messages ---- */

static void line_col(const struct importer *im, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < im->len; i++) {
		if (im->text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

static size_t key_offset(const struct importer *im, int key)
{
	return key >= 0 && (size_t)key < im->r.nr_keys ? im->r.key[key] : 0;
}

static int fail_at(struct importer *im, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct importer *im, size_t off, const char *fmt, ...)
{
	unsigned line, col;
	va_list ap;
	int n;

	if (im->failed)
		return -1;
	im->failed = true;
	line_col(im, off, &line, &col);
	n = snprintf(im->err, im->errlen, "%s:%u:%u: ", im->name, line, col);
	if (n >= 0 && (size_t)n < im->errlen) {
		va_start(ap, fmt);
		vsnprintf(im->err + n, im->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#define fail(im, key, ...) fail_at((im), key_offset((im), (key)), __VA_ARGS__)

static void warn(struct importer *im, int key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn(struct importer *im, int key, const char *fmt, ...)
{
	unsigned line, col;
	va_list ap;

	if (++im->nr_warnings > MAX_WARNINGS || !im->warn) {
		if (im->warn && im->nr_warnings == MAX_WARNINGS + 1)
			fprintf(im->warn, "%s: warning: more warnings not shown\n", im->name);
		return;
	}
	line_col(im, key_offset(im, key), &line, &col);
	fprintf(im->warn, "%s:%u:%u: warning: ", im->name, line, col);
	va_start(ap, fmt);
	vfprintf(im->warn, fmt, ap);
	va_end(ap);
	fputc('\n', im->warn);
}

/* ---- rewriting the input as strict JSON ---- */

static void put(struct importer *im, const char *s, size_t n, size_t from)
{
	struct relaxed *r = &im->r;

	if (!n)
		return;
	r->text = xgrow(r->text, &r->cap, r->len + n - 1, 1, 4096);
	r->src = xgrow(r->src, &r->cap_src, r->len + n - 1, sizeof(*r->src), 4096);
	memcpy(r->text + r->len, s, n);
	for (size_t i = 0; i < n; i++)
		r->src[r->len + i] = from;
	r->len += n;
}

/* Past a comment starting at i, or i when there is none; -1 when unterminated. */
static long skip_comment(const char *s, size_t n, size_t i)
{
	if (i + 1 >= n || s[i] != '/')
		return (long)i;
	if (s[i + 1] == '/') {
		while (i < n && s[i] != '\n')
			i++;
		return (long)i;
	}
	if (s[i + 1] == '*') {
		for (i += 2; i + 1 < n; i++)
			if (s[i] == '*' && s[i + 1] == '/')
				return (long)i + 2;
		return -1;
	}
	return (long)i;
}

/* The next byte that is neither blank nor in a comment. */
static size_t next_token(const char *s, size_t n, size_t i)
{
	while (i < n) {
		long j = skip_comment(s, n, i);
		if (j < 0)
			return n;
		if ((size_t)j != i) {
			i = (size_t)j;
			continue;
		}
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			break;
		i++;
	}
	return i;
}

/* The end of the string whose quote is at i (the closing quote's index, or n). */
static size_t string_end(const char *s, size_t n, size_t i)
{
	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i;
	}
	return n;
}

static void put_key(struct importer *im, size_t start, size_t end)
{
	struct relaxed *r = &im->r;
	char mark[32];

	XGROW(r->key, r->cap_keys, r->nr_keys);
	r->key[r->nr_keys] = start;
	snprintf(mark, sizeof(mark), "\\u0001%zu\"", r->nr_keys++);
	put(im, im->text + start, end - start, start);
	put(im, mark, strlen(mark), end);
	/* workgen's bare "suspend": a key with no value */
	size_t k = next_token(im->text, im->len, end + 1);
	if (k >= im->len || im->text[k] == ',' || im->text[k] == '}') {
		if (!im->workgen)
			warn(im, (int)r->nr_keys - 1,
			     "a key without a value is workgen's syntax, which rt-app "
			     "itself refuses: read as workgen reads it");
		put(im, ":null", 5, end);
	}
}

static int relax(struct importer *im)
{
	const char *s = im->text;
	size_t n = im->len, i = 0;
	char stack[MAX_DEPTH];
	int depth = 0;
	bool want_key = false;

	while (i < n && !im->failed) {
		long j = skip_comment(s, n, i);
		char c = s[i];

		if (j < 0)
			return fail_at(im, i, "unterminated comment");
		if ((size_t)j != i) {
			i = (size_t)j;
			continue;
		}
		if (c == '"') {
			size_t end = string_end(s, n, i);
			if (end >= n)
				return fail_at(im, i, "unterminated string");
			if (want_key) {
				want_key = false;
				put_key(im, i, end);
			} else {
				put(im, s + i, end + 1 - i, i);
			}
			i = end + 1;
			continue;
		}
		if (c == '{' || c == '[') {
			if (depth == MAX_DEPTH)
				return fail_at(im, i, "nested deeper than %d", MAX_DEPTH);
			stack[depth++] = c;
			want_key = c == '{';
		} else if (c == '}' || c == ']') {
			if (depth)
				depth--;
			want_key = false;
		} else if (c == ',') {
			size_t k = next_token(s, n, i + 1);
			if (k < n && (s[k] == '}' || s[k] == ']')) {
				i++;		/* a trailing comma, as json-c allows */
				continue;
			}
			want_key = depth && stack[depth - 1] == '{';
		}
		put(im, &c, 1, i);
		i++;
	}
	return im->failed ? -1 : 0;
}

/* ---- keys and values ---- */

/* A key as written: its text before the mark, and its number. */
static int key_id(const char *k, char *base, size_t n)
{
	const char *m = strchr(k, KEY_MARK);
	size_t len = m ? (size_t)(m - k) : strlen(k);

	if (len >= n)
		len = n - 1;
	memcpy(base, k, len);
	base[len] = 0;
	return m ? atoi(m + 1) : -1;
}

static bool prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/*
 * An integer as rt-app reads it: json-c's json_object_get_int() truncates
 * reals and saturates to 32 bits; other types are refused.
 */
static int get_int(struct importer *im, json_t *v, int key, const char *what, long long *out)
{
	double d;

	if (json_is_integer(v)) {
		*out = json_integer_value(v);
	} else if (json_is_real(v)) {
		d = json_real_value(v);
		*out = d >= INT32_MAX ? INT32_MAX : d <= INT32_MIN ? INT32_MIN : (long long)d;
		warn(im, key, "%s %g is not an integer: %lld", what, d, *out);
		return 0;
	} else {
		return fail(im, key, "%s needs an integer", what);
	}
	if (*out > INT32_MAX || *out < INT32_MIN) {
		long long c = *out > INT32_MAX ? INT32_MAX : INT32_MIN;
		warn(im, key, "%s %lld does not fit rt-app's 32-bit integers: %lld", what, *out, c);
		*out = c;
	}
	return 0;
}

static int get_string(struct importer *im, json_t *v, int key, const char *what, const char **out)
{
	if (!json_is_string(v))
		return fail(im, key, "%s needs a string", what);
	*out = json_string_value(v);
	return 0;
}

/* A member of an object by its name as written (the first one). */
static json_t *member(json_t *obj, const char *name, int *key)
{
	const char *k;
	json_t *v;
	char base[256];

	json_object_foreach(obj, k, v) {
		int id = key_id(k, base, sizeof(base));
		if (!strcmp(base, name)) {
			if (key)
				*key = id;
			return v;
		}
	}
	return NULL;
}

/* Object names (mutexes, conditions...) as scenario words: [A-Za-z0-9_.-]. */
static void object_name(const char *s, char *out)
{
	size_t i = 0;

	for (; s[i] && i < OBJ_NAME_MAX; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '_' || c == '.' || c == '-';
		out[i] = ok ? c : '_';
	}
	if (!i)
		out[i++] = '_';
	out[i] = 0;
}

static struct rtask *find_task(struct importer *im, const char *rtname)
{
	for (int i = 0; i < im->nr_tasks; i++)
		if (!strcmp(im->task[i].rtname, rtname))
			return &im->task[i];
	return NULL;
}

/* ---- scheduling attributes ---- */

static int parse_policy(struct importer *im, json_t *v, int key, int *pol)
{
	const char *s;

	if (get_string(im, v, key, "policy", &s) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(rtapp_policies) / sizeof(rtapp_policies[0]); i++) {
		if (!strcmp(s, rtapp_policies[i].name)) {
			*pol = rtapp_policies[i].policy;
			return 0;
		}
	}
	return fail(im, key, "unknown policy '%s' (SCHED_OTHER, SCHED_IDLE, SCHED_BATCH, SCHED_FIFO, "
		    "SCHED_RR or SCHED_DEADLINE)", s);
}

/*
 * SCHED_DEADLINE from dl-runtime, dl-deadline (default: the period) and
 * dl-period, in us; -1 with a warning when they are missing or break
 * __checkparam_dl(), and the task stays SCHED_OTHER.
 */
static int deadline_attrs(struct importer *im, struct rtask *t, int pk, FILE *f)
{
	static const char *const keys[] = { "dl-runtime", "dl-deadline", "dl-period" };
	long long us[3] = { 0, 0, 0 };

	for (int i = 0; i < 3; i++) {
		int key = t->key;
		json_t *v = member(t->obj, keys[i], &key);

		if (v && get_int(im, v, key, keys[i], &us[i]) < 0)
			return -1;
	}
	if (!us[1])
		us[1] = us[2];
	if (us[0] <= 0 || us[1] <= 0 || us[2] <= 0 ||
	    !sched_dl_params_valid((u64)us[0] * NSEC_PER_USEC, (u64)us[1] * NSEC_PER_USEC,
				   (u64)us[2] * NSEC_PER_USEC)) {
		warn(im, pk, "SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period, the period "
		     "within 100..4194304 us: task %s runs as SCHED_OTHER", t->name);
		return -1;
	}
	fprintf(f, " policy=%s runtime=%lldus deadline=%lldus period=%lldus",
		sched_policy_names[SCHED_DEADLINE], us[0], us[1], us[2]);
	return 0;
}

/* A "cpus" list into m; -1 (after fail()) when it is not one. */
static int cpus_list(struct importer *im, json_t *v, int key, struct cpumask *m)
{
	size_t i;
	json_t *c;

	if (!json_is_array(v) || !json_array_size(v))
		return fail(im, key, "cpus needs a list of CPU numbers");
	json_array_foreach(v, i, c)
	{
		long long cpu;

		if (get_int(im, c, key, "a CPU", &cpu) < 0)
			return -1;
		if (cpu < 0 || cpu > MAX_CPU)
			return fail(im, key, "CPU %lld is out of range 0..%d", cpu, MAX_CPU);
		if (cpu > im->max_cpu)
			im->max_cpu = (int)cpu;
		cpumask_set(m, (int)cpu);
	}
	return 0;
}

/*
 * cpus=: the task's "cpus", as written. rt-app sets a phase's own "cpus"
 * when the phase begins (the task's, or any CPU, for a phase without); a
 * scenario task has one affinity, so a task whose phases differ gets their
 * union, in every phase, with a warning that counts the phases it widens.
 */
static int task_cpus(struct importer *im, struct rtask *t, FILE *f)
{
	struct cpumask tm = { { 0 } }, all = { { 0 } };
	json_t *v = NULL, *phases = member(t->obj, "phases", NULL), *ph;
	bool any_phase = false, unpinned = false;
	int key = t->key, pkey = t->key, nr = 0, wider = 0;
	const char *k;

	if ((v = member(t->obj, "cpus", &key)) && cpus_list(im, v, key, &tm) < 0)
		return -1;
	if (json_is_object(phases)) {
		json_object_foreach(phases, k, ph)
		{
			json_t *pc = json_is_object(ph) ? member(ph, "cpus", &pkey) : NULL;
			struct cpumask m = { { 0 } };

			nr++;
			if (pc) {
				if (cpus_list(im, pc, pkey, &m) < 0)
					return -1;
				any_phase = true;
			} else if (v) {
				m = tm;
			} else {
				unpinned = true;
			}
			for (int w = 0; w < (int)(sizeof(m.bits) / sizeof(m.bits[0])); w++)
				all.bits[w] |= m.bits[w];
		}
	}
	if (!any_phase) {
		if (v) {
			size_t i;
			json_t *c;

			fputs(" cpus=", f);
			json_array_foreach(v, i, c)
				fprintf(f, "%s%lld", i ? "," : "", (long long)json_number_value(c));
		}
		return 0;
	}
	/* the phases that run on fewer CPUs than the union */
	json_object_foreach(phases, k, ph)
	{
		json_t *pc = json_is_object(ph) ? member(ph, "cpus", NULL) : NULL;
		struct cpumask m = { { 0 } };

		if (pc)
			cpus_list(im, pc, pkey, &m);
		else if (v)
			m = tm;
		else
			continue;
		wider += memcmp(&m, &all, sizeof(m)) != 0;
	}
	if (unpinned) {
		warn(im, pkey,
		     "task %s sets cpus in some phases, and runs anywhere in others: the scenario "
		     "has no per-phase affinity, it runs anywhere in all %d phases",
		     t->rtname, nr);
		return 0;
	}
	if (wider)
		warn(im, pkey,
		     "task %s changes its cpus from phase to phase: the scenario has no per-phase "
		     "affinity, it keeps their union in all %d phases (%d of them wider than written)",
		     t->rtname, nr, wider);
	fputs(" cpus=", f);
	for (int c = 0, sep = 0; c <= im->max_cpu; c++)
		if (cpumask_test(&all, c)) {
			fprintf(f, "%s%d", sep ? "," : "", c);
			sep = 1;
		}
	return 0;
}

/* The task line's attributes: policy=, prio=, runtime=, deadline=, period=, nice=, slice=, cpus=, at=. */
static int task_attrs(struct importer *im, struct rtask *t, FILE *f, bool forked)
{
	int pol = im->default_policy, key = t->key, pk = t->key;
	long long prio = 0, dl = 0, delay = 0;
	json_t *v;

	if ((v = member(t->obj, "policy", &pk)) && parse_policy(im, v, pk, &pol) < 0)
		return -1;
	if ((v = member(t->obj, "priority", &key)) && get_int(im, v, key, "priority", &prio) < 0)
		return -1;
	if (pol == SCHED_DEADLINE && deadline_attrs(im, t, pk, f) < 0) {
		pol = SCHED_NORMAL;
		prio = 0;
	}
	if (pol == SCHED_FIFO || pol == SCHED_RR) {
		/* rt-app's priority is the sched_priority of these two */
		if (prio < 1 || prio > 99) {
			long long c = prio < 1 ? 1 : 99;
			warn(im, key, "priority %lld is no real-time priority (1..99): %lld", prio, c);
			prio = c;
		}
		fprintf(f, " policy=%s prio=%lld", sched_policy_names[pol], prio);
		prio = 0;
	} else if (pol == SCHED_DEADLINE) {
		prio = 0;
	}
	if (pol == SCHED_IDLE || pol == SCHED_BATCH)
		fprintf(f, " policy=%s", sched_policy_names[pol]);
	if (prio < -20 || prio > 19) {
		warn(im, key, "priority %lld is no nice value: %d", prio, prio < -20 ? -20 : 19);
		prio = prio < -20 ? -20 : 19;
	}
	if (prio)
		fprintf(f, " nice=%lld", prio);

	key = t->key;
	if (pol != SCHED_DEADLINE && (v = member(t->obj, "dl-runtime", &key))) {
		if (get_int(im, v, key, "dl-runtime", &dl) < 0)
			return -1;
		/* sched_attr.sched_runtime on a fair task: its custom slice */
		if (dl && (dl < SLICE_MIN_US || dl > SLICE_MAX_US)) {
			long long c = dl < SLICE_MIN_US ? SLICE_MIN_US : SLICE_MAX_US;
			warn(im, key, "dl-runtime %lld us is outside the slice range 100us..100ms: %lld us", dl, c);
			dl = c;
		}
		if (dl)
			fprintf(f, " slice=%lldus", dl);
	}

	if (task_cpus(im, t, f) < 0)
		return -1;

	key = t->key;
	if ((v = member(t->obj, "delay", &key))) {
		if (get_int(im, v, key, "delay", &delay) < 0)
			return -1;
		/* a forked task starts when forked: the scenario has no at= for it */
		if (delay > 0 && forked)
			warn(im, key, "task %s is forked: its delay is left out", t->rtname);
		else if (delay > 0)
			fprintf(f, " at=%lldus", delay);
	}
	return 0;
}

/* ---- events ---- */

enum ev {
	E_RUN, E_RUNTIME, E_SLEEP, E_MEM, E_IORUN, E_LOCK, E_UNLOCK, E_SIGNAL, E_BROAD, E_WAIT,
	E_SYNC, E_BARRIER, E_TIMER, E_RESUME, E_SUSPEND, E_YIELD, E_FORK, E_NONE
};

/* rt-app's parse_task_event_data(): by prefix, "runtime" before "run". */
static enum ev classify(const char *k)
{
	static const struct {
		const char *prefix;
		enum ev ev;
	} tab[] = {
		{ "sleep", E_SLEEP }, { "runtime", E_RUNTIME }, { "run", E_RUN }, { "mem", E_MEM },
		{ "iorun", E_IORUN }, { "lock", E_LOCK }, { "unlock", E_UNLOCK }, { "signal", E_SIGNAL },
		{ "broad", E_BROAD }, { "wait", E_WAIT }, { "sync", E_SYNC }, { "barrier", E_BARRIER },
		{ "timer", E_TIMER }, { "resume", E_RESUME }, { "suspend", E_SUSPEND },
		{ "yield", E_YIELD }, { "fork", E_FORK },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (prefix(k, tab[i].prefix))
			return tab[i].ev;
	return E_NONE;
}

/* Keys of a phase (or a task without phases) that are no events. */
static bool phase_key(const char *k, bool task_level)
{
	static const char *const phase[] = {
		"loop", "cpus", "nodes_membind", "policy", "priority", "dl-runtime", "dl-period",
		"dl-deadline", "util_min", "util_max", "taskgroup",
	};
	static const char *const task[] = { "instance", "delay", "phases" };

	for (size_t i = 0; i < sizeof(phase) / sizeof(phase[0]); i++)
		if (!strcmp(k, phase[i]))
			return true;
	for (size_t i = 0; task_level && i < sizeof(task) / sizeof(task[0]); i++)
		if (!strcmp(k, task[i]))
			return true;
	return false;
}

/* "name" or {"ref": ..., "mutex": ...}'s member, with rt-app's default "unknown". */
static int ref_of(struct importer *im, json_t *v, int key, const char *field, char *out)
{
	const char *s = "unknown";
	json_t *m;

	if (!json_is_object(v))
		return fail(im, key, "this event needs an object {\"ref\": ..., \"%s\": ...}",
			    !strcmp(field, "ref") ? "mutex" : field);
	if ((m = member(v, field, NULL)) && get_string(im, m, key, field, &s) < 0)
		return -1;
	object_name(s, out);
	return 0;
}

struct emit {
	struct importer *im;
	struct rtask *t;
	FILE *f;
	int indent;
	bool takes_time;	/* the body can block or consume time */
	int stmts;		/* statements written (comments aside) */
};

static void line(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	fprintf(e->f, "%*s", e->indent * 8, "");
	e->stmts += fmt[0] != '#';
	va_start(ap, fmt);
	vfprintf(e->f, fmt, ap);
	va_end(ap);
	fputc('\n', e->f);
}

static int duration_event(struct emit *e, json_t *v, int key, const char *what, const char *stmt)
{
	long long us;

	if (get_int(e->im, v, key, what, &us) < 0)
		return -1;
	if (us < 0) {
		warn(e->im, key, "%s %lld is negative: left out", what, us);
		return 0;
	}
	if (us) {
		line(e, "%s %lldus", stmt, us);
		e->takes_time = true;
	}
	return 0;
}

/* mem and iorun: no memory or I/O model, so CPU time at a documented rate. */
static int bytes_event(struct emit *e, json_t *v, int key, const char *what, long long per_ns)
{
	long long bytes, ns;

	if (get_int(e->im, v, key, what, &bytes) < 0)
		return -1;
	if (bytes <= 0)
		return 0;
	ns = (bytes + per_ns - 1) / per_ns;
	warn(e->im, key, "%s %lld bytes cannot be modelled: run %lldns instead (%lld bytes/ns)", what,
	     bytes, ns, per_ns);
	line(e, "run %lldns  # %s %lld", ns, what, bytes);
	e->takes_time = true;
	return 0;
}

static int name_event(struct emit *e, json_t *v, int key, const char *what, const char *stmt)
{
	char name[OBJ_NAME_MAX + 1];
	const char *s;

	if (get_string(e->im, v, key, what, &s) < 0)
		return -1;
	object_name(s, name);
	line(e, "%s %s", stmt, name);
	return 0;
}

static int timer_event(struct emit *e, json_t *v, int key)
{
	char ref[OBJ_NAME_MAX + 1];
	long long period = 0;
	const char *mode = "relative";
	json_t *m;

	if (ref_of(e->im, v, key, "ref", ref) < 0)
		return -1;
	if ((m = member(v, "period", NULL)) && get_int(e->im, m, key, "timer period", &period) < 0)
		return -1;
	if ((m = member(v, "mode", NULL)) && get_string(e->im, m, key, "timer mode", &mode) < 0)
		return -1;
	if (period <= 0) {
		/* rt-app: the period never ends later than now, so the timer never sleeps */
		line(e, "# timer %s with period %lld: never sleeps, left out", ref, period);
		return 0;
	}
	line(e, "timer %s %lldus%s", ref, period, prefix(mode, "absolute") ? " absolute" : "");
	e->takes_time = true;
	return 0;
}

static int event(struct emit *e, enum ev ev, const char *k, json_t *v, int key)
{
	char c[OBJ_NAME_MAX + 1], m[OBJ_NAME_MAX + 1];
	struct rtask *target;
	const char *s;

	switch (ev) {
	case E_RUN:
	case E_RUNTIME:
		/* run: loops calibrated on the fastest CPU; runtime: wall time. Both task-clock here. */
		return duration_event(e, v, key, k, "run");
	case E_SLEEP:
		return duration_event(e, v, key, k, "sleep");
	case E_MEM:
		return bytes_event(e, v, key, "mem", MEM_BYTES_PER_NS);
	case E_IORUN:
		return bytes_event(e, v, key, "iorun", IO_BYTES_PER_NS);
	case E_LOCK:
		return name_event(e, v, key, k, "lock");
	case E_UNLOCK:
		return name_event(e, v, key, k, "unlock");
	case E_SIGNAL:
		return name_event(e, v, key, k, "signal");
	case E_BROAD:
		return name_event(e, v, key, k, "broadcast");
	case E_BARRIER:
		e->takes_time = true;
		return name_event(e, v, key, k, "barrier");
	case E_RESUME:
		return name_event(e, v, key, k, "resume");
	case E_WAIT:
	case E_SYNC:
		if (ref_of(e->im, v, key, "ref", c) < 0 || ref_of(e->im, v, key, "mutex", m) < 0)
			return -1;
		if (ev == E_SYNC)
			line(e, "signal %s", c);
		line(e, "cond_wait %s %s", c, m);
		e->takes_time = true;
		return 0;
	case E_TIMER:
		return timer_event(e, v, key);
	case E_SUSPEND:
		e->takes_time = true;
		if (json_is_null(v)) {
			/* workgen fills a bare "suspend" with the task's own name */
			object_name(e->t->rtname, c);
			line(e, "suspend %s", c);
			return 0;
		}
		return name_event(e, v, key, k, "suspend");
	case E_YIELD:
		line(e, "yield");
		return 0;
	case E_FORK:
		if (get_string(e->im, v, key, "fork", &s) < 0)
			return -1;
		if (!(target = find_task(e->im, s)))
			return fail(e->im, key, "fork '%s': no task of that name", s);
		line(e, "fork %s%s", target->name, target->instances ? "_fork" : "");
		return 0;
	case E_NONE:
		break;
	}
	return 0;
}

/* The events of a phase, in order, and warnings for what is not modelled. */
static int phase_events(struct emit *e, json_t *obj, bool task_level)
{
	const char *k;
	json_t *v;
	char base[256];
	int nr = 0;

	json_object_foreach(obj, k, v) {
		int key = key_id(k, base, sizeof(base));
		enum ev ev = classify(base);

		if (ev == E_NONE) {
			if (!phase_key(base, task_level))
				warn(e->im, key, "unknown key '%s' ignored", base);
			else if (!task_level && (!strcmp(base, "policy") || prefix(base, "dl-")))
				warn(e->im, key, "per-phase %s is not modelled", base);
			else if (!task_level && !strcmp(base, "taskgroup"))
				warn(e->im, key, "a per-phase taskgroup is not modelled: the task keeps its own");
			continue;
		}
		nr++;
		if (event(e, ev, base, v, key) < 0)
			return -1;
	}
	return nr;
}

/* Whether an event can block or consume time (a forever loop needs one). */
static bool event_takes_time(enum ev ev, json_t *v)
{
	json_t *p;

	switch (ev) {
	case E_RUN:
	case E_RUNTIME:
	case E_SLEEP:
	case E_MEM:
	case E_IORUN:
		return json_is_number(v) && json_number_value(v) >= 1;
	case E_WAIT:
	case E_SYNC:
	case E_SUSPEND:
	case E_BARRIER:
		return true;
	case E_TIMER:
		p = json_is_object(v) ? member(v, "period", NULL) : NULL;
		return p && json_is_number(p) && json_number_value(p) >= 1;
	default:
		return false;
	}
}

static bool phase_takes_time(json_t *obj)
{
	const char *k;
	json_t *v;
	char base[256];

	json_object_foreach(obj, k, v) {
		key_id(k, base, sizeof(base));
		if (event_takes_time(classify(base), v))
			return true;
	}
	return false;
}

/*
 * A phase's events inside `loop N {`, `loop {` (forever) or nothing for 1.
 * The body is written aside first: a loop around no statement at all (every
 * event left out) would be an empty loop.
 */
static int looped(struct emit *e, long long count, int key, const char *what, json_t *obj, bool task_level)
{
	struct emit body = *e;
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (count <= 0 && !phase_takes_time(obj)) {
		/* the program language refuses a forever loop that takes no time */
		warn(e->im, key, "%s repeats forever without taking time: once here", what);
		count = 1;
	}
	body.f = open_memstream(&buf, &len);
	if (!body.f)
		return fail(e->im, key, "out of memory");
	body.indent += count != 1;
	body.stmts = 0;
	body.takes_time = false;
	r = phase_events(&body, obj, task_level);
	if (r > 0)
		line(&body, "log"); /* rt-app logs each loop of a phase */
	fclose(body.f);
	if (r == 0)
		r = fail(e->im, key, "no events in this %s", what);
	if (r > 0) {
		bool wrap = count != 1 && body.stmts;
		if (wrap)
			line(e, count > 0 ? "loop %lld {" : "loop {", count);
		fwrite(buf, 1, len, e->f);
		if (wrap)
			line(e, "}");
		e->stmts += body.stmts;
		e->takes_time |= body.takes_time;
	}
	free(buf);
	return r;
}

static int loop_count(struct importer *im, json_t *obj, long long def, long long *count)
{
	int key = -1;
	json_t *v = member(obj, "loop", &key);

	*count = def;
	return v ? get_int(im, v, key, "loop", count) : 0;
}

/* The phases of a task, in order; false on error. */
static bool phases_body(struct emit *e, json_t *phases)
{
	const char *k;
	json_t *ph;
	char base[256];

	json_object_foreach(phases, k, ph) {
		int key = key_id(k, base, sizeof(base)), pk = key;
		long long prio, ploop;
		json_t *v;

		if (!json_is_object(ph))
			return fail(e->im, key, "phase '%s' needs an object", base), false;
		line(e, "# phase %s", base);
		if ((v = member(ph, "priority", &pk))) {
			if (get_int(e->im, v, pk, "priority", &prio) < 0)
				return false;
			if (prio >= -20 && prio <= 19)
				line(e, "nice %lld", prio);
			else
				warn(e->im, pk, "priority %lld is no nice value: left out", prio);
		}
		if (loop_count(e->im, ph, 1, &ploop) < 0 || looped(e, ploop, key, "phase", ph, false) < 0)
			return false;
	}
	return true;
}

/* The body of a task's program: its phases (or itself as the one phase) inside the task loop. */
static int task_program(struct importer *im, struct rtask *t, FILE *f)
{
	struct emit e = { im, t, f, 1, false, 0 };
	long long tloop;
	int pkey = t->key;
	json_t *phases = member(t->obj, "phases", &pkey);

	if (loop_count(im, t->obj, -1, &tloop) < 0)
		return -1;
	if (tloop == 0) {
		line(&e, "exit  # loop 0: rt-app runs none of it");
		return 0;
	}
	if (!phases) {
		if (looped(&e, tloop, t->key, "task", t->obj, true) < 0)
			return -1;
	} else {
		struct emit body = e;
		char *buf = NULL;
		size_t len = 0;
		bool ok;

		if (!json_is_object(phases) || !json_object_size(phases))
			return fail(im, pkey, "phases needs an object of phases");
		body.f = open_memstream(&buf, &len);
		if (!body.f)
			return fail(im, pkey, "out of memory");
		body.indent += tloop != 1;
		ok = phases_body(&body, phases);
		fclose(body.f);
		if (ok && tloop != 1 && body.stmts) {
			line(&e, tloop > 0 ? "loop %lld {" : "loop {", tloop);
			fwrite(buf, 1, len, f);
			if (tloop < 0 && !body.takes_time) {
				warn(im, t->key, "task %s repeats forever without taking time: ends after one "
				     "round", t->name);
				e.indent++;
				line(&e, "exit");
				e.indent--;
			}
			line(&e, "}");
		} else if (ok) {
			fwrite(buf, 1, len, f);
		}
		e.stmts += body.stmts;
		free(buf);
		if (!ok)
			return -1;
	}
	if (!e.stmts)
		line(&e, "exit  # every event was left out");
	return 0;
}

/* ---- the tasks ---- */

/* A unique scenario name for task i: [A-Za-z0-9_-], at most TASK_NAME_MAX bytes. */
static void task_name(struct importer *im, struct rtask *t)
{
	size_t i = 0;
	char base[TASK_NAME_MAX + 1];

	for (; t->rtname[i] && i < TASK_NAME_MAX - 4; i++) {
		char c = t->rtname[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '_' || c == '-';
		base[i] = ok ? c : '_';
	}
	if (!i)
		base[i++] = 't';
	base[i] = 0;
	snprintf(t->name, sizeof(t->name), "%s", base);
	for (int n = 2; ; n++) {
		bool clash = false;
		for (struct rtask *o = im->task; o < t; o++)
			clash |= !strcmp(o->name, t->name);
		if (!clash)
			return;
		snprintf(t->name, sizeof(t->name), "%s_%d", base, n);
	}
}

static int collect_tasks(struct importer *im, json_t *tasks, int tkey)
{
	const char *k;
	json_t *v;

	if (!json_is_object(tasks) || !json_object_size(tasks))
		return fail(im, tkey, "\"tasks\" needs an object of tasks");
	im->task = xcalloc(json_object_size(tasks), sizeof(*im->task));
	json_object_foreach(tasks, k, v) {
		struct rtask *t = &im->task[im->nr_tasks];
		int key = key_id(k, t->rtname, sizeof(t->rtname)), ik = key;
		long long inst = 1;
		json_t *n;

		if (im->nr_tasks == MAX_TASKS)
			return fail(im, key, "more than %d tasks", MAX_TASKS);
		if (!json_is_object(v))
			return fail(im, key, "task '%s' needs an object", t->rtname);
		if ((n = member(v, "instance", &ik)) && get_int(im, n, ik, "instance", &inst) < 0)
			return -1;
		if (inst < 0 || inst > 100000)
			return fail(im, ik, "instance %lld is out of range 0..100000", inst);
		t->obj = v;
		t->key = key;
		t->instances = (long)inst;
		im->nr_tasks++;
		task_name(im, t);
	}
	return 0;
}

/* How often each task is forked: fork events times their loops, up to FORK_POOL_MAX. */
static void count_forks_in(struct importer *im, json_t *obj, long long times)
{
	const char *k;
	json_t *v;
	char base[256];

	json_object_foreach(obj, k, v) {
		struct rtask *t;
		key_id(k, base, sizeof(base));
		if (classify(base) != E_FORK || !json_is_string(v) || !(t = find_task(im, json_string_value(v))))
			continue;
		if (times <= 0 || t->forks + times > FORK_POOL_MAX) {
			t->unbounded_forks = true;
			t->forks = FORK_POOL_MAX;
		} else {
			t->forks += times;
		}
	}
}

/* n * m, or -1 (unbounded) when either is <= 0 or the product passes the pool's size. */
static long long times(long long n, long long m)
{
	if (n <= 0 || m <= 0 || n > FORK_POOL_MAX || m > FORK_POOL_MAX)
		return -1;
	return n * m;
}

static void count_forks(struct importer *im)
{
	for (int i = 0; i < im->nr_tasks; i++) {
		json_t *obj = im->task[i].obj, *phases = member(obj, "phases", NULL), *ph;
		json_t *l = member(obj, "loop", NULL);
		long long tl = json_is_integer(l) ? json_integer_value(l) : -1, pl;
		long long inst = im->task[i].instances ? im->task[i].instances : 1;
		const char *k;

		if (!phases) {
			count_forks_in(im, obj, times(tl, inst));
			continue;
		}
		if (!json_is_object(phases))
			continue;
		json_object_foreach(phases, k, ph) {
			if (!json_is_object(ph))
				continue;
			l = member(ph, "loop", NULL);
			pl = json_is_integer(l) ? json_integer_value(l) : 1;
			count_forks_in(im, ph, times(times(tl, pl), inst));
		}
	}
}

/* ---- task groups ---- */

/* rt-app's "/a/b" as a scenario group path: [A-Za-z0-9_.-] components, no empty ones. */
static bool group_path(const char *in, char *out)
{
	size_t n = 0;
	int depth = 0;

	for (const char *c = in; *c && n < GROUP_PATH_MAX; c++) {
		if (*c == '/') {
			if (n && out[n - 1] != '/' && depth < GROUP_DEPTH_MAX) {
				out[n++] = '/';
				depth++;
			} else if (depth >= GROUP_DEPTH_MAX) {
				break;
			}
			if (!n)
				out[n++] = '/';
			continue;
		}
		if (!n)
			out[n++] = '/';
		bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
			  *c == '_' || *c == '.' || *c == '-';
		out[n++] = ok ? *c : '_';
	}
	while (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = 0;
	return n > 1;
}

/* Declare path and its ancestors (each once); false when there are too many groups. */
static bool add_group(struct importer *im, const char *path)
{
	char prefix[GROUP_PATH_MAX + 1];

	for (size_t i = 1; path[i - 1]; i++) {
		if (path[i] != '/' && path[i])
			continue;
		memcpy(prefix, path, i);
		prefix[i] = 0;
		bool known = false;
		for (int g = 0; g < im->nr_groups && !known; g++)
			known = !strcmp(im->group[g], prefix);
		if (known)
			continue;
		if (im->nr_groups == GROUPS_MAX)
			return false;
		XGROW(im->group, im->cap_groups, im->nr_groups);
		strcpy(im->group[im->nr_groups++], prefix);
		fprintf(im->groups, "group %s\n", prefix);
	}
	return true;
}

/* The task's taskgroup as ` group=PATH`, declaring the group. */
static int task_group(struct importer *im, struct rtask *t, FILE *f)
{
	char path[GROUP_PATH_MAX + 1];
	const char *g;
	int key = t->key;
	json_t *v = member(t->obj, "taskgroup", &key);

	if (!v)
		return 0;
	if (get_string(im, v, key, "taskgroup", &g) < 0)
		return -1;
	if (!*g)
		return 0;
	if (*g != '/')
		return fail(im, key, "taskgroup '%s' has to start with '/'", g);
	if (!group_path(g, path))
		return 0;	/* the root */
	if (strcmp(path, g))
		warn(im, key, "taskgroup %s is group %s here", g, path);
	if (!add_group(im, path)) {
		warn(im, key, "taskgroup %s: more than %d groups, left out", g, GROUPS_MAX);
		return 0;
	}
	fprintf(f, " group=%s", path);
	return 0;
}

static int task_line(struct importer *im, struct rtask *t, FILE *f, const char *suffix, long count,
		     bool forked)
{
	fprintf(f, "task %s%s", t->name, suffix);
	if (count > 1)
		fprintf(f, " count=%ld", count);
	if (task_attrs(im, t, f, forked) < 0 || task_group(im, t, f) < 0)
		return -1;
	fprintf(f, " program=%s\n", t->name);
	return 0;
}

static int emit_task(struct importer *im, struct rtask *t, FILE *f)
{
	fprintf(f, "\n# rt-app task \"%s\"\n", t->rtname);
	if (!t->instances && !t->forks) {
		warn(im, t->key, "task %s has instance 0 and nothing forks it: left out", t->rtname);
		fprintf(f, "# instance 0 and never forked: left out\n");
		return 0;
	}
	fprintf(f, "program %s {\n", t->name);
	if (task_program(im, t, f) < 0)
		return -1;
	fprintf(f, "}\n");
	if (t->instances && task_line(im, t, f, "", t->instances, false) < 0)
		return -1;
	if (t->forks) {
		if (t->unbounded_forks)
			warn(im, t->key, "task %s is forked forever or more than %d times: %d instances "
			     "are declared for it", t->rtname, FORK_POOL_MAX, FORK_POOL_MAX);
		if (task_line(im, t, f, t->instances ? "_fork" : "", t->forks, true) < 0)
			return -1;
	}
	return 0;
}

/* ---- global ---- */

static int global(struct importer *im, json_t *g, int gkey, FILE *f)
{
	long long duration = -1;
	int key = gkey, dkey = gkey;
	json_t *v;

	if (g && !json_is_object(g))
		return fail(im, gkey, "\"global\" needs an object");
	if (g && (v = member(g, "default_policy", &key)) && parse_policy(im, v, key, &im->default_policy) < 0)
		return -1;
	if (g && (v = member(g, "duration", &dkey)) && get_int(im, v, dkey, "duration", &duration) < 0)
		return -1;
	key = gkey;
	if (g && (v = member(g, "pi_enabled", &key)) && json_is_true(v))
		warn(im, key, "pi_enabled: mutexes have no priority inheritance here");
	if (duration <= 0) {
		warn(im, dkey, "no duration (rt-app runs until the tasks end): the scenario lasts %ds",
		     DEFAULT_DURATION_S);
		duration = DEFAULT_DURATION_S;
	}
	fprintf(f, "duration %llds\n", duration);
	return 0;
}

/* ---- repeated keys ---- */

/*
 * Every object as json-c builds it: one member per name, the last value at
 * the first one's place, a warning for each value dropped. The member keeps
 * the last key's mark, so that messages point at the value used.
 */
static int collapse(struct importer *im, json_t *v)
{
	const char *k, **key = NULL;
	json_t *m, *last = NULL, *out = NULL;
	char base[256];
	size_t i, n = 0;
	int r = -1;

	if (json_is_array(v)) {
		json_array_foreach(v, i, m) if (collapse(im, m) < 0) return -1;
		return 0;
	}
	if (!json_is_object(v))
		return 0;
	key = xmalloc((json_object_size(v) + 1) * sizeof(*key));
	last = json_object();
	out = json_object();
	if (!last || !out)
		goto out;
	/* the last member of each name; each earlier one is a value dropped */
	json_object_foreach(v, k, m)
	{
		json_t *prev;

		key_id(k, base, sizeof(base));
		if ((prev = json_object_get(last, base)))
			warn(im, key_id(key[json_integer_value(prev)], base, sizeof(base)),
			     "\"%s\" is repeated: "
			     "rt-app (json-c) keeps only its last value, at its first place (--workgen keeps "
			     "each)",
			     base);
		key[n] = k;
		if (json_object_set_new(last, base, json_integer((json_int_t)n++)) < 0)
			goto out;
	}
	for (i = 0; i < n; i++) {
		json_t *l;

		key_id(key[i], base, sizeof(base));
		l = json_object_get(last, base);
		if (!l)
			continue; /* written already, at its first place */
		k = key[json_integer_value(l)];
		m = json_object_get(v, k);
		if (collapse(im, m) < 0 || json_object_set(out, k, m) < 0 || json_object_del(last, base) < 0)
			goto out;
	}
	if (json_object_clear(v) < 0 || json_object_update(v, out) < 0)
		goto out;
	r = 0;
out:
	free(key);
	json_decref(last);
	json_decref(out);
	if (r < 0 && !im->failed)
		fail_at(im, 0, "out of memory");
	return r;
}

/* ---- the whole file ---- */

static int convert(struct importer *im, FILE *body, FILE *head)
{
	json_error_t je;
	json_t *root, *tasks = NULL, *g = NULL, *v;
	int tkey = -1, gkey = -1;
	const char *k;
	char base[256];
	int r = -1;

	if (relax(im) < 0)
		return -1;
	root = json_loadb(im->r.text ? im->r.text : "", im->r.len, 0, &je);
	if (!root) {
		size_t pos = je.position > 0 ? (size_t)je.position - 1 : 0;
		return fail_at(im, pos < im->r.len ? im->r.src[pos] : im->len, "%s", je.text);
	}
	if (!json_is_object(root)) {
		fail_at(im, 0, "an rt-app file is a JSON object");
		goto out;
	}
	if (!im->workgen && collapse(im, root) < 0)
		goto out;
	json_object_foreach(root, k, v) {
		int key = key_id(k, base, sizeof(base));
		if (!strcmp(base, "tasks") && !tasks) {
			tasks = v;
			tkey = key;
		} else if (!strcmp(base, "global") && !g) {
			g = v;
			gkey = key;
		} else if (strcmp(base, "resources")) {	/* kept by rt-app for old files, unused */
			warn(im, key, "unknown key '%s' ignored", base);
		}
	}
	if (!tasks) {
		fail_at(im, 0, "no \"tasks\" object");
		goto out;
	}
	if (global(im, g, gkey, head) < 0 || collect_tasks(im, tasks, tkey) < 0)
		goto out;
	count_forks(im);
	im->groups = head;	/* written before the tasks: declared before their first use */
	for (int i = 0; i < im->nr_tasks; i++)
		if (emit_task(im, &im->task[i], body) < 0)
			goto out;
	r = 0;
out:
	json_decref(root);
	return r;
}

int import_rtapp_detect(const char *text, size_t len)
{
	size_t i = next_token(text, len, 0);

	return i < len && text[i] == '{';
}

/*
 * What we write, run must read: a workload the scenario cannot hold (more
 * phases than a program's 65536 statements) is refused here, not by run.
 */
static int read_back(const char *name, const char *scn, size_t len, char *err, size_t errlen)
{
	struct scenario_file f;
	char why[512];

	if (scenario_parse("import.scn", scn, len, &f, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s:1:1: the workload does not fit a scenario: %s", name, why);
		return -1;
	}
	scenario_free(&f);
	return 0;
}

int import_rtapp(const char *name, const char *text, size_t len, const struct import_rtapp_opts *o, FILE *out,
		 FILE *warn_to, char *err, size_t errlen)
{
	struct importer im = { .name = name,
			       .text = text,
			       .len = len,
			       .warn = warn_to,
			       .workgen = o && o->workgen,
			       .err = err,
			       .errlen = errlen,
			       .default_policy = SCHED_NORMAL,
			       .max_cpu = -1 };
	char *head = NULL, *body = NULL;
	size_t head_len = 0, body_len = 0;
	FILE *hf, *bf;
	int r;

	if (len > MAX_INPUT) {
		snprintf(err, errlen, "%s: larger than %zu MiB", name, MAX_INPUT >> 20);
		return -1;
	}
	hf = open_memstream(&head, &head_len);
	bf = open_memstream(&body, &body_len);
	if (!hf || !bf) {
		snprintf(err, errlen, "%s: out of memory", name);
		if (hf)
			fclose(hf);
		if (bf)
			fclose(bf);
		return -1;
	}
	r = convert(&im, bf, hf);
	fclose(hf);
	fclose(bf);
	if (r == 0) {
		/* rt-app runs on the machine at hand: a flat one, as large as the cpus lists need */
		char *scn = NULL;
		size_t scn_len = 0;
		FILE *sf = open_memstream(&scn, &scn_len);

		if (!sf) {
			snprintf(err, errlen, "%s: out of memory", name);
			r = -1;
		} else {
			fprintf(sf, "# imported from %s (rt-app) by schedscope import\n", name);
			fprintf(sf, "# the machine to replay it on: edit this line (see "
				    "schedscope-topology(5))\n");
			fprintf(sf, "topology packages=1 cores=%d threads=1\n",
				im.max_cpu + 1 > 4 ? im.max_cpu + 1 : 4);
			fwrite(head, 1, head_len, sf);
			fwrite(body, 1, body_len, sf);
			fclose(sf);
			r = read_back(name, scn, scn_len, err, errlen);
			if (r == 0)
				fwrite(scn, 1, scn_len, out);
			free(scn);
		}
	}
	free(head);
	free(body);
	free(im.r.text);
	free(im.r.src);
	free(im.r.key);
	free(im.task);
	free(im.group);
	return r < 0 ? -1 : im.nr_warnings;
}
