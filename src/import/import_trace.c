// SPDX-License-Identifier: GPL-2.0
/*
 * A recorded trace into a scenario: the records are replayed per task, in
 * file order, and each task's life becomes its program.
 *
 *   run D     CPU time between a switch-in and the switch-out that blocks
 *             (preemptions in between only add up: run is task-clock time)
 *   wait      blocked until another task woke it; the waker's program gets
 *             `wake NAME` at the point of its own run where it did so
 *   sleep D   blocked until a wakeup from interrupt or timer context, the
 *             idle task, or a thread left out of the scenario
 *   nice N    the task's prio changed (prio 100..139 is nice -20..19)
 *
 * A task forked in the trace starts at its fork; the others at 0. The
 * repairs of inconsistent traces follow the rules in schedscope(1),
 * IMPORTING TRACES, and each is reported with its line.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "import_trace.h"

/* Leaves room under the scenario's 65536 statements for the closing ones. */
#define MAX_STMTS 65000
/* A clock going back by at most this much is per-CPU skew, repaired; more is refused. */
#define MAX_CLOCK_SKEW_NS 1000000ull
/* Repairs printed one by one; the rest are counted. */
#define MAX_WARNINGS_SHOWN 20
/* The scenario parser's own limit on a file. */
#define MAX_SCENARIO_BYTES (16u << 20)

enum { TS_UNSEEN, TS_RUNNING, TS_RUNNABLE, TS_BLOCKED, TS_DEAD };
enum { ST_RUN, ST_SLEEP, ST_WAIT, ST_WAKE, ST_NICE };

struct stmt {
	u8 kind;
	int arg;		/* wake: task index; nice: the value */
	u64 ns;			/* run, sleep */
};

struct itask {
	int pid, gen;
	int idle_cpu;		/* the CPU of an idle task (pid 0), else -1 */
	char comm[TRACE_COMM_MAX];
	int state;		/* TS_* */
	int cpu;		/* running on, when TS_RUNNING */
	u64 since;		/* running, runnable or blocked since */
	u64 run;		/* CPU time not yet written as a `run` */
	u64 start;		/* fork time, or the trace's start */
	int nice0, nice;
	int rt_priority;		/* first seen as an RT task: its sched_priority, else 0 */
	bool nice_known, rt_noted, clipped;
	bool born;		/* forked and not yet run: its wakeup_new is no news */
	bool written;		/* goes into the scenario (task_written()) */
	struct cpumask ran_on;
	struct stmt *st;
	size_t n, cap;
};

struct cpu_slot {
	bool known;		/* pid is what runs there */
	int pid;
	u64 since;		/* its last sched_switch, or the trace's start */
};

struct importer {
	const char *name;
	const struct import_trace_opts *o;
	FILE *warn;
	char *err;
	size_t errlen;

	struct itask *t;
	size_t nr, cap;
	/* open addressing: pid (or -1 - cpu for an idle task) -> index of its latest task */
	struct slot {
		int key, idx;
	} *map;
	size_t map_size, map_used;

	struct cpu_slot cpu[SCHED_MAX_CPUS];
	int nr_cpus, header_cpus;
	u64 t0, tlast;
	bool started;
	unsigned line, nr_events, nr_repairs;
	bool oom;
};

/* ---- reporting ---- */

__attribute__((format(printf, 2, 3)))
static void repair(struct importer *im, const char *fmt, ...)
{
	va_list ap;

	if (im->warn && im->nr_repairs < MAX_WARNINGS_SHOWN) {
		fprintf(im->warn, "%s:%u: warning: ", im->name, im->line);
		va_start(ap, fmt);
		vfprintf(im->warn, fmt, ap);
		va_end(ap);
		fputc('\n', im->warn);
	}
	im->nr_repairs++;
}

__attribute__((format(printf, 3, 4)))
static int refuse(struct importer *im, int col, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(im->err, im->errlen, "%s:%u:%d: ", im->name, im->line, col);

	if (n < 0 || (size_t)n >= im->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(im->err + n, im->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- tasks ---- */

static bool is_tracer(const char *comm)
{
	return !strcmp(comm, "trace-cmd") || !strcmp(comm, "perf");
}

static size_t map_find(const struct importer *im, int key)
{
	size_t i = (size_t)(u32)key * 2654435761u & (im->map_size - 1);

	while (im->map[i].idx >= 0 && im->map[i].key != key)
		i = (i + 1) & (im->map_size - 1);
	return i;
}

static int map_grow(struct importer *im)
{
	struct slot *old = im->map;
	size_t n = im->map_size;

	im->map_size = n ? n * 2 : 256;
	im->map = malloc(im->map_size * sizeof(*im->map));
	if (!im->map) {
		im->map = old;
		im->map_size = n;
		return -1;
	}
	for (size_t i = 0; i < im->map_size; i++)
		im->map[i].idx = -1;
	for (size_t i = 0; i < n; i++)
		if (old[i].idx >= 0)
			im->map[map_find(im, old[i].key)] = old[i];
	free(old);
	return 0;
}

static int task_key(int pid, int cpu)
{
	return pid ? pid : -1 - cpu;
}

/* The task pid is now, or -1 when idle tasks are left out. */
static int task_lookup(const struct importer *im, int pid, int cpu)
{
	if (pid == 0 && !im->o->keep_idle)
		return -1;
	if (!im->map_size)
		return -1;
	return im->map[map_find(im, task_key(pid, cpu))].idx;
}

/* A new task for pid (a new generation when the pid was used before). */
static int task_new(struct importer *im, int pid, int cpu, const char *comm)
{
	struct itask *t;
	size_t i;
	int gen = 1, old;

	if ((im->map_used + 1) * 2 > im->map_size && map_grow(im))
		return im->oom = true, -1;
	if (im->nr == im->cap) {
		size_t cap = im->cap ? im->cap * 2 : 64;
		struct itask *n = realloc(im->t, cap * sizeof(*n));

		if (!n)
			return im->oom = true, -1;
		im->t = n;
		im->cap = cap;
	}
	i = map_find(im, task_key(pid, cpu));
	old = im->map[i].idx;
	if (old >= 0)
		gen = im->t[old].gen + 1;
	else
		im->map_used++;
	t = &im->t[im->nr];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->gen = gen;
	t->idle_cpu = pid ? -1 : cpu;
	t->start = im->t0;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	im->map[i].key = task_key(pid, cpu);
	im->map[i].idx = (int)im->nr;
	return (int)im->nr++;
}

/* The task a record names, made on first sight; -1 for a left-out idle task. */
static int task_get(struct importer *im, int pid, int cpu, const char *comm)
{
	int i = task_lookup(im, pid, cpu);

	if (pid == 0 && !im->o->keep_idle)
		return -1;
	if (i < 0)
		return task_new(im, pid, cpu, comm);
	/* the name after an exec; "<...>" is a name the tracer did not know; a dead task keeps its own */
	if (comm[0] && strcmp(comm, "<...>") && im->t[i].state != TS_DEAD)
		snprintf(im->t[i].comm, sizeof(im->t[i].comm), "%s", comm);
	return i;
}

static bool task_left_out(const struct importer *im, const struct itask *t)
{
	return !im->o->keep_tracer && is_tracer(t->comm);
}

static void emit(struct importer *im, struct itask *t, int kind, int arg, u64 ns)
{
	struct stmt *s;

	if ((kind == ST_RUN || kind == ST_SLEEP) && !ns)
		return;
	if (t->n >= MAX_STMTS) {
		if (!t->clipped)
			repair(im, "%s-%d has more than %d statements: the rest of its trace is dropped",
			       t->comm, t->pid, MAX_STMTS);
		t->clipped = true;
		return;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;

		s = realloc(t->st, cap * sizeof(*s));
		if (!s) {
			im->oom = true;
			return;
		}
		t->st = s;
		t->cap = cap;
	}
	s = &t->st[t->n++];
	s->kind = (u8)kind;
	s->arg = arg;
	s->ns = ns;
}

/* Write the CPU time gathered so far as one `run`. */
static void flush_run(struct importer *im, struct itask *t)
{
	emit(im, t, ST_RUN, 0, t->run);
	t->run = 0;
}

/* Count a running task's time up to ts. */
static void account(struct itask *t, u64 ts)
{
	if (t->state == TS_RUNNING && ts > t->since) {
		t->run += ts - t->since;
		t->since = ts;
	}
}

static void set_prio(struct importer *im, struct itask *t, int prio, u64 ts)
{
	int nice;

	/* the idle task is kept as SCHED_IDLE, whatever prio a damaged trace gives it */
	if (t->idle_cpu >= 0)
		return;
	if (!t->nice_known && prio >= 0 && prio < 99) {
		/* SCHED_FIFO or SCHED_RR show prio 99 - sched_priority; a trace cannot tell which */
		t->rt_priority = 99 - prio;
		t->nice_known = true;
		return;
	}
	if (t->rt_priority) {
		if (prio != 99 - t->rt_priority && !t->rt_noted)
			repair(im, "%s-%d changes prio from %d to %d: an RT task keeps its first priority",
			       t->comm, t->pid, 99 - t->rt_priority, prio);
		t->rt_noted = t->rt_noted || prio != 99 - t->rt_priority;
		return;
	}
	if (prio >= 100 && prio <= 139) {
		nice = prio - 120;
	} else {
		/* deadline tasks (prio -1) carry no reservation in a trace */
		nice = prio < 100 ? -20 : 19;
		if (!t->rt_noted)
			repair(im, "%s-%d has prio %d, outside 0..139: imported as nice %d",
			       t->comm, t->pid, prio, nice);
		t->rt_noted = true;
	}
	if (!t->nice_known) {
		t->nice0 = t->nice = nice;
		t->nice_known = true;
		return;
	}
	if (nice == t->nice)
		return;
	account(t, ts);
	flush_run(im, t);
	emit(im, t, ST_NICE, nice, 0);
	t->nice = nice;
}

static void end_task(struct importer *im, struct itask *t, u64 ts)
{
	account(t, ts);
	flush_run(im, t);
	t->state = TS_DEAD;
}

/* A fresh generation, named comm, for a pid whose task has ended (or is ended now). */
static int task_reborn(struct importer *im, int i, int cpu, const char *comm, u64 ts)
{
	struct itask *t = &im->t[i];
	char name[TRACE_COMM_MAX];

	if (t->state != TS_DEAD)
		end_task(im, t, ts);
	snprintf(name, sizeof(name), "%s", comm[0] && strcmp(comm, "<...>") ? comm : t->comm);
	return task_new(im, t->pid, cpu, name);
}

static void cpu_mark(struct importer *im, int cpu)
{
	if (cpu >= im->nr_cpus)
		im->nr_cpus = cpu + 1;
}

/* Task i (comm) gets CPU cpu at ts. Returns its index (a new one after PID reuse). */
static int switch_in(struct importer *im, int i, const char *comm, int cpu, u64 ts)
{
	struct itask *t = &im->t[i];

	switch (t->state) {
	case TS_UNSEEN:
	case TS_RUNNABLE:
		break;
	case TS_BLOCKED:
		repair(im, "%s-%d switched in without a wakeup: taken as woken by a timer", t->comm, t->pid);
		emit(im, t, ST_SLEEP, 0, ts > t->since ? ts - t->since : 0);
		break;
	case TS_RUNNING:
		repair(im, "%s-%d switched in on CPU %d while running on CPU %d: it left CPU %d now",
		       t->comm, t->pid, cpu, t->cpu, t->cpu);
		account(t, ts);
		if (t->cpu != cpu)
			im->cpu[t->cpu].known = false;
		break;
	case TS_DEAD:
		repair(im, "pid %d switched in after %s-%d exited: a new task (pid reuse)", t->pid,
		       t->comm, t->pid);
		i = task_reborn(im, i, cpu, comm, ts);
		if (i < 0)
			return -1;
		t = &im->t[i];
		t->start = ts;
		break;
	}
	t->state = TS_RUNNING;
	t->cpu = cpu;
	t->since = ts;
	t->born = false;
	cpumask_set(&t->ran_on, cpu);
	return i;
}

static void on_switch(struct importer *im, const struct trace_rec *r)
{
	struct cpu_slot *cs = &im->cpu[r->cpu];
	int p = task_get(im, r->pid, r->cpu, r->comm);
	int n;

	if (p >= 0 && !(im->t[p].state == TS_RUNNING && im->t[p].cpu == r->cpu)) {
		struct itask *t = &im->t[p];
		/* the switch-in was lost: it came after the CPU's previous switch and its own wakeup */
		u64 at = t->state == TS_RUNNABLE && t->since > cs->since ? t->since : cs->since;

		if (t->state != TS_UNSEEN)
			repair(im, "%s-%d switched out of CPU %d without being switched in: taken as "
			       "running there since its wakeup or the CPU's previous sched_switch",
			       t->comm, t->pid, r->cpu);
		if (cs->known && cs->pid != r->pid) {
			int other = task_lookup(im, cs->pid, r->cpu);

			if (other >= 0 && im->t[other].state == TS_RUNNING && im->t[other].cpu == r->cpu) {
				account(&im->t[other], at);
				im->t[other].state = TS_RUNNABLE;
			}
		}
		p = switch_in(im, p, r->comm, r->cpu, at < r->ts ? at : r->ts);
	}
	if (p >= 0) {
		struct itask *t = &im->t[p];

		account(t, r->ts);
		/* an exiting task may still be preempted or block; prev_state X ends it */
		if (r->state == TSTATE_RUNNABLE) {
			t->state = TS_RUNNABLE;
			t->since = r->ts;
		} else if (r->state == TSTATE_BLOCKED) {
			flush_run(im, t);
			t->state = TS_BLOCKED;
			t->since = r->ts;
		} else {
			end_task(im, t, r->ts);
		}
		set_prio(im, t, r->prio, r->ts);
	}
	n = task_get(im, r->pid2, r->cpu, r->comm2);
	if (n >= 0) {
		n = switch_in(im, n, r->comm2, r->cpu, r->ts);
		if (n >= 0)
			set_prio(im, &im->t[n], r->prio2, r->ts);
	}
	cs->known = true;
	cs->pid = r->pid2;
	cs->since = r->ts;
}

/* The task running on r's CPU, as the context column says; -1 if none of ours. */
static int waker_of(struct importer *im, const struct trace_rec *r)
{
	struct cpu_slot *cs = &im->cpu[r->cpu];
	int w;

	if (r->irq || r->ctx_pid <= 0)
		return -1;
	/* the context's comm is the tracer's memory of the pid: a name only for a stranger */
	w = task_lookup(im, r->ctx_pid, r->cpu);
	if (w < 0)
		w = task_new(im, r->ctx_pid, r->cpu, r->ctx_comm);
	if (w < 0)
		return -1;
	if (im->t[w].state == TS_UNSEEN) {
		/* running since the trace began: its first sight */
		im->t[w].state = TS_RUNNING;
		im->t[w].cpu = r->cpu;
		im->t[w].since = cs->known ? cs->since : im->t0;
		cpumask_set(&im->t[w].ran_on, r->cpu);
		cs->known = true;
		cs->pid = r->ctx_pid;
	}
	/* room for its `run` and `wake`, or the wakee would wait forever */
	if (task_left_out(im, &im->t[w]) || im->t[w].state == TS_DEAD || im->t[w].n + 2 > MAX_STMTS)
		return -1;
	return w;
}

static void on_wake(struct importer *im, const struct trace_rec *r)
{
	int x = task_get(im, r->pid, r->cpu, r->comm);
	int w;
	struct itask *t;

	if (x < 0)
		return;
	t = &im->t[x];
	if (t->state == TS_UNSEEN) {
		/* asleep since before the trace began */
		t->state = TS_BLOCKED;
		t->since = im->t0;
	}
	if (t->state != TS_BLOCKED)
		return;		/* the second record of one wakeup, or a wakeup of a running task */
	w = waker_of(im, r);
	t = &im->t[x];		/* waker_of() may have grown the table */
	if (w >= 0 && w != x) {
		struct itask *wt = &im->t[w];

		account(wt, r->ts);
		flush_run(im, wt);
		emit(im, wt, ST_WAKE, x, 0);
		emit(im, t, ST_WAIT, 0, 0);
	} else {
		emit(im, t, ST_SLEEP, 0, r->ts - t->since);
	}
	t->state = TS_RUNNABLE;
	t->since = r->ts;
	set_prio(im, t, r->prio, r->ts);
}

/* A child is born at ts (fork, or wakeup_new when the fork was not traced). */
static void on_birth(struct importer *im, int pid, int cpu, const char *comm, u64 ts)
{
	int c = task_get(im, pid, cpu, comm);

	if (c < 0)
		return;
	if (im->t[c].born)
		return;		/* the wakeup_new after its fork */
	if (im->t[c].state != TS_UNSEEN) {
		if (im->t[c].state != TS_DEAD)
			repair(im, "pid %d forked while %s-%d had not exited: that task ends here (pid reuse)",
			       pid, im->t[c].comm, pid);
		c = task_reborn(im, c, cpu, comm, ts);
		if (c < 0)
			return;
	}
	im->t[c].state = TS_RUNNABLE;
	im->t[c].start = im->t[c].since = ts;
	im->t[c].born = true;
}

static void on_record(struct importer *im, const struct trace_rec *r)
{
	int i;

	switch (r->type) {
	case TREC_SWITCH:
		on_switch(im, r);
		break;
	case TREC_WAKING:
	case TREC_WAKEUP:
		on_wake(im, r);
		break;
	case TREC_WAKEUP_NEW:
		on_birth(im, r->pid, r->cpu, r->comm, r->ts);
		if ((i = task_lookup(im, r->pid, r->cpu)) >= 0)
			set_prio(im, &im->t[i], r->prio, r->ts);
		break;
	case TREC_FORK:
		task_get(im, r->pid, r->cpu, r->comm);
		on_birth(im, r->pid2, r->cpu, r->comm2, r->ts);
		break;
	case TREC_EXIT:		/* the task runs on to its last switch, prev_state X */
	case TREC_MIGRATE:
		task_get(im, r->pid, r->cpu, r->comm);
		break;
	}
}

/* ---- reading the text ---- */

static int check_record(struct importer *im, struct trace_rec *r)
{
	if (r->cpu >= SCHED_MAX_CPUS)
		return refuse(im, 1, "CPU %d: schedscope simulates at most %d CPUs", r->cpu, SCHED_MAX_CPUS);
	if (r->target_cpu >= SCHED_MAX_CPUS)
		return refuse(im, 1, "target CPU %d: schedscope simulates at most %d CPUs", r->target_cpu,
			      SCHED_MAX_CPUS);
	cpu_mark(im, r->cpu);
	if (r->target_cpu > 0)
		cpu_mark(im, r->target_cpu);
	if (!im->started) {
		im->started = true;
		im->t0 = im->tlast = r->ts;
		for (int c = 0; c < SCHED_MAX_CPUS; c++)
			im->cpu[c].since = r->ts;
		return 0;
	}
	if (r->ts < im->tlast) {
		u64 back = im->tlast - r->ts;

		if (back > MAX_CLOCK_SKEW_NS)
			return refuse(im, r->ts_col, "the clock steps back by %" PRIu64 " ns (more than %llu ns): "
				      "not one recording?", back, MAX_CLOCK_SKEW_NS);
		repair(im, "the clock steps back by %" PRIu64 " ns: taken as the previous event's time", back);
		r->ts = im->tlast;
	}
	im->tlast = r->ts;
	return 0;
}

static int read_trace(struct importer *im, const char *text, size_t len, enum trace_format fmt)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct trace_rec r;
		char msg[256];
		int col, rc;

		im->line++;
		if (memchr(p, '\0', n))
			return refuse(im, (int)((const char *)memchr(p, '\0', n) - p) + 1, "NUL byte in the trace");
		rc = trace_parse_line(fmt, p, n, &r, &col, msg, sizeof(msg));
		if (rc < 0) {
			/* a last line cut short: the recording was interrupted */
			if (!nl) {
				repair(im, "the last line is cut short (%s): dropped", msg);
				break;
			}
			return refuse(im, col, "%s", msg);
		}
		if (r.nr_cpus > im->header_cpus && r.nr_cpus <= SCHED_MAX_CPUS)
			im->header_cpus = r.nr_cpus;
		if (r.type == TREC_LOST && r.cpu < SCHED_MAX_CPUS) {
			repair(im, "events of CPU %d were lost: what ran there is unknown until its next switch",
			       r.cpu);
			im->cpu[r.cpu].known = false;
		}
		if (rc == 1) {
			if (check_record(im, &r))
				return -1;
			on_record(im, &r);
			im->nr_events++;
			if (im->oom)
				return refuse(im, 1, "out of memory");
		}
		p = nl ? nl + 1 : end;
	}
	if (!im->nr_events) {
		im->line = 1;
		return refuse(im, 1, "no sched_switch, sched_waking, sched_wakeup or fork events in this %s trace",
			      trace_format_names[fmt]);
	}
	return 0;
}

/* ---- writing the scenario ---- */

struct obuf {
	char *p;
	size_t n, cap;
	bool oom;
};

__attribute__((format(printf, 2, 3)))
static void out(struct obuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!b->oom && !b->p) {
		b->cap = 4096;
		b->p = malloc(b->cap);
		b->oom = !b->p;
	}
	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < b->cap - b->n)
			break;
		size_t cap = (b->cap + (size_t)n + 1) * 2;
		char *q = realloc(b->p, cap);

		if (!q) {
			b->oom = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	b->n += (size_t)n;
}

static void out_duration(struct obuf *b, u64 ns)
{
	if (ns && ns % 1000000000 == 0)
		out(b, "%" PRIu64 "s", ns / 1000000000);
	else if (ns % 1000000 == 0)
		out(b, "%" PRIu64 "ms", ns / 1000000);
	else if (ns % 1000 == 0)
		out(b, "%" PRIu64 "us", ns / 1000);
	else
		out(b, "%" PRIu64 "ns", ns);
}

/* "0-3,8" */
static void out_cpus(struct obuf *b, const struct cpumask *m, int nr_cpus)
{
	const char *sep = "";

	for (int c = 0; c < nr_cpus; c++) {
		int e = c;

		if (!cpumask_test(m, c))
			continue;
		while (e + 1 < nr_cpus && cpumask_test(m, e + 1))
			e++;
		out(b, e > c ? "%s%d-%d" : "%s%d", sep, c, e);
		sep = ",";
		c = e;
	}
}

/* comm-pid, with what a name may not hold as '_': "kworker_0_1-24", "swapper_1-0" */
static void task_name(const struct itask *t, char *buf, size_t len)
{
	char comm[21];	/* with "-PID-GEN", within the 40 bytes of a task name */
	size_t k = 0;

	for (const char *s = t->comm; *s && k + 1 < sizeof(comm); s++) {
		char c = *s;

		comm[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			    c == '-' ? c : '_';
	}
	comm[k] = '\0';
	if (t->pid == 0)
		snprintf(buf, len, "%s-0", k ? comm : "idle");
	else if (t->gen > 1)
		snprintf(buf, len, "%s-%d-%d", k ? comm : "task", t->pid, t->gen);
	else
		snprintf(buf, len, "%s-%d", k ? comm : "task", t->pid);
}

/* A per-CPU kernel thread shows its CPU in its name: migration/3, ksoftirqd/3, kworker/3:1. */
static int named_cpu(const char *comm)
{
	static const char *const per_cpu[] = { "migration/", "ksoftirqd/", "cpuhp/", "watchdog/", "rcuc/",
					       "kworker/", "idle_inject/" };

	for (size_t i = 0; i < sizeof(per_cpu) / sizeof(per_cpu[0]); i++) {
		size_t n = strlen(per_cpu[i]);
		const char *p = comm + n;
		int cpu = 0, k = 0;

		if (strncmp(comm, per_cpu[i], n))
			continue;
		for (; *p >= '0' && *p <= '9' && k < 5; p++, k++)
			cpu = cpu * 10 + (*p - '0');
		if (k && k < 5 && (*p == '\0' || (i == 5 && *p == ':')))
			return cpu;
	}
	return -1;
}

/* In the file: not left out, and more to do than wake others (wakes of tasks not in the file drop). */
static bool task_written(const struct importer *im, const struct itask *t)
{
	if (task_left_out(im, t))
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (t->st[i].kind != ST_WAKE)
			return true;
	return false;
}

static u32 name_hash(const char *s)
{
	u32 h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h;
}

/*
 * Make the names unique: comm-pid already is, but a sanitized comm may end
 * like another's pid ("a-1" of pid 2 and "a" of pid 1... gen 2), and idle
 * tasks share pid 0. A clash gets "-dN" until it is unique.
 */
static int unique_names(struct importer *im, char (*names)[48])
{
	size_t size = 64;
	int *set;

	while (size < im->nr * 2)
		size *= 2;
	set = malloc(size * sizeof(*set));
	if (!set)
		return -1;
	for (size_t i = 0; i < size; i++)
		set[i] = -1;
	for (size_t i = 0; i < im->nr; i++) {
		char base[48];
		int k = 1;

		if (!im->t[i].written)
			continue;
		memcpy(base, names[i], sizeof(base));
		for (;;) {
			size_t h = name_hash(names[i]) & (size - 1);

			while (set[h] >= 0 && strcmp(names[set[h]], names[i]))
				h = (h + 1) & (size - 1);
			if (set[h] < 0) {
				set[h] = (int)i;
				break;
			}
			/* 40 bytes at most: the base loses its tail if it must */
			snprintf(names[i], sizeof(names[i]), "%.*s-d%d", 32, base, k++);
		}
	}
	free(set);
	return 0;
}

static bool cpus_any(const struct cpumask *m, int nr_cpus)
{
	for (int c = 0; c < nr_cpus; c++)
		if (cpumask_test(m, c))
			return true;
	return false;
}

/* Drop the wakes of tasks left out of the file, then join the runs nothing separates any more. */
static void tidy_program(struct importer *im, struct itask *t)
{
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct stmt *s = &t->st[i];

		if (s->kind == ST_WAKE && !im->t[s->arg].written)
			continue;
		if (s->kind == ST_RUN && k && t->st[k - 1].kind == ST_RUN)
			t->st[k - 1].ns += s->ns;
		else
			t->st[k++] = *s;
	}
	t->n = k;
}

static bool stmts_equal(const struct stmt *a, const struct stmt *b, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (a[i].kind != b[i].kind || a[i].arg != b[i].arg || a[i].ns != b[i].ns)
			return false;
	return true;
}

static void write_stmt(struct obuf *b, const struct stmt *s, char (*names)[48], const char *indent)
{
	switch (s->kind) {
	case ST_RUN:
	case ST_SLEEP:
		out(b, "%s%s ", indent, s->kind == ST_RUN ? "run" : "sleep");
		out_duration(b, s->ns);
		out(b, "\n");
		break;
	case ST_WAIT:
		out(b, "%swait\n", indent);
		break;
	case ST_WAKE:
		out(b, "%swake %s\n", indent, names[s->arg]);
		break;
	case ST_NICE:
		out(b, "%snice %d\n", indent, s->arg);
		break;
	}
}

/* The longest body of statements a repeat becomes a loop of. */
#define MAX_LOOP_BODY 8

/*
 * A block of up to MAX_LOOP_BODY statements repeated back to back three
 * times or more is written as `loop N { ... }` (never more statements than
 * unrolled): a periodic task reads as its period.
 */
static void write_program(struct obuf *b, const struct itask *t, char (*names)[48])
{
	const struct stmt *v = t->st;
	size_t i = 0;

	while (i < t->n) {
		size_t best_k = 1, best_r = 1;

		for (size_t k = 1; k <= MAX_LOOP_BODY && i + 2 * k <= t->n; k++) {
			size_t r = 1;

			while (i + (r + 1) * k <= t->n && stmts_equal(v + i, v + i + r * k, k))
				r++;
			if (r >= 3 && r * k > best_r * best_k) {
				best_k = k;
				best_r = r;
			}
		}
		if (best_r == 1) {
			write_stmt(b, &v[i++], names, "\t");
			continue;
		}
		out(b, "\tloop %zu {\n", best_r);
		for (size_t j = 0; j < best_k; j++)
			write_stmt(b, &v[i + j], names, "\t\t");
		out(b, "\t}\n");
		i += best_r * best_k;
	}
}

static void write_task(struct importer *im, struct obuf *b, struct itask *t, char (*names)[48])
{
	const char *name = names[t - im->t];
	struct cpumask cpus = { { 0 } };
	int cpu = named_cpu(t->comm);

	out(b, "\nprogram %s {\n", name);
	tidy_program(im, t);
	write_program(b, t, names);
	out(b, "}\ntask %s", name);
	if (t->rt_priority)
		out(b, " policy=fifo prio=%d", t->rt_priority);
	if (t->nice0)
		out(b, " nice=%d", t->nice0);
	if (t->idle_cpu >= 0)
		out(b, " policy=idle");
	if (t->start > im->t0) {
		out(b, " at=");
		out_duration(b, t->start - im->t0);
	}
	if (t->idle_cpu >= 0)
		cpumask_set(&cpus, t->idle_cpu);
	else if (cpu >= 0 && cpu < im->nr_cpus)
		cpumask_set(&cpus, cpu);
	else if (im->o->pin)
		cpus = t->ran_on;
	if (cpus_any(&cpus, im->nr_cpus)) {
		out(b, " cpus=");
		out_cpus(b, &cpus, im->nr_cpus);
	}
	out(b, " program=%s\n", name);
}

/* What is still open at the trace's end: runs are written, a sleep lasts to the end. */
static void finish_tasks(struct importer *im)
{
	for (size_t i = 0; i < im->nr; i++) {
		struct itask *t = &im->t[i];

		if (t->state == TS_BLOCKED) {
			flush_run(im, t);
			emit(im, t, ST_SLEEP, 0, im->tlast - t->since);
		} else if (t->state == TS_RUNNING || t->state == TS_RUNNABLE) {
			account(t, im->tlast);
			flush_run(im, t);
		}
	}
}

static int write_scenario(struct importer *im, enum trace_format fmt, struct obuf *b)
{
	char (*names)[48] = calloc(im->nr ? im->nr : 1, sizeof(*names));
	u64 span = im->tlast - im->t0;
	/* up to a whole millisecond, at least one */
	u64 duration = span ? (span + 999999) / 1000000 * 1000000 : 1000000;
	int nr_cpus = im->header_cpus > im->nr_cpus ? im->header_cpus : im->nr_cpus;
	unsigned nr_tasks = 0;

	if (!names)
		return refuse(im, 1, "out of memory");
	im->nr_cpus = nr_cpus;
	for (size_t i = 0; i < im->nr; i++) {
		task_name(&im->t[i], names[i], sizeof(names[i]));
		im->t[i].written = task_written(im, &im->t[i]);
		nr_tasks += im->t[i].written;
	}
	if (unique_names(im, names)) {
		free(names);
		return refuse(im, 1, "out of memory");
	}
	out(b, "# Imported by `schedscope import` from %s (%s text):\n", im->name, trace_format_names[fmt]);
	out(b, "# %u events over %" PRIu64 " ns on %d CPUs, %u tasks, %u repairs", im->nr_events, span,
	    nr_cpus, nr_tasks, im->nr_repairs);
	out(b, " (see IMPORTING TRACES in schedscope(1)).\n");
	out(b, "topology packages=1 cores=%d threads=1\nduration ", nr_cpus);
	out_duration(b, duration);
	out(b, "\n");
	for (size_t i = 0; i < im->nr; i++)
		if (im->t[i].written)
			write_task(im, b, &im->t[i], names);
	free(names);
	if (b->oom)
		return refuse(im, 1, "out of memory");
	if (!nr_tasks)
		return refuse(im, 1, "no task of this trace ran or slept (idle and tracer threads are left out)");
	if (b->n > MAX_SCENARIO_BYTES)
		return refuse(im, 1, "the scenario would be %zu bytes, more than a scenario may hold (%u): "
			      "import a shorter trace", b->n, MAX_SCENARIO_BYTES);
	return 0;
}

int import_trace(const char *name, const char *text, size_t len, enum trace_format fmt,
		 const struct import_trace_opts *o, char **result, FILE *warn, char *err, size_t errlen)
{
	struct importer *im = calloc(1, sizeof(*im));
	struct obuf b = { 0 };
	int rc;

	*result = NULL;
	if (!im) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	im->name = name;
	im->o = o;
	im->warn = warn;
	im->err = err;
	im->errlen = errlen;
	rc = read_trace(im, text, len, fmt);
	if (!rc) {
		finish_tasks(im);
		rc = im->oom ? refuse(im, 1, "out of memory") : write_scenario(im, fmt, &b);
	}
	if (warn && im->nr_repairs > MAX_WARNINGS_SHOWN)
		fprintf(warn, "%s: warning: %u more repairs\n", name, im->nr_repairs - MAX_WARNINGS_SHOWN);
	if (rc)
		free(b.p);
	else
		*result = b.p;
	for (size_t i = 0; i < im->nr; i++)
		free(im->t[i].st);
	free(im->t);
	free(im->map);
	free(im);
	return rc;
}
