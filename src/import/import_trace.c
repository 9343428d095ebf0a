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
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/base/mem.h"
#include "src/format/group_parse.h"
#include "import_trace.h"

/* Leaves room under the scenario's 65536 statements for the closing ones. */
#define MAX_STMTS 65000
/* A clock going back by at most this much is per-CPU skew, repaired; more is refused. */
#define MAX_CLOCK_SKEW_NS 1000000ull
/* Repairs of one kind printed with their line; the rest are counted, and summed up by kind. */
#define MAX_SHOWN_PER_KIND 3
/* Tasks whose lost switch-outs are listed one by one. */
#define MAX_TASKS_LISTED 10
/* The scenario parser's own limit on a file. */
#define MAX_SCENARIO_BYTES (16u << 20)

/* TS_LEFT: off its CPU by a switch the trace lost, preempted or blocked, which is not known yet. */
enum {
	TS_UNSEEN,
	TS_RUNNING,
	TS_RUNNABLE,
	TS_BLOCKED,
	TS_DEAD,
	TS_LEFT
};
enum { ST_RUN, ST_SLEEP, ST_WAIT, ST_WAKE, ST_NICE };

struct stmt {
	u8 kind;
	int arg;		/* wake: task index; nice: the value */
	u64 ns;			/* run, sleep */
};

/* What a repair is about: each kind is counted and summed up at the end. */
enum repair_kind {
	R_LOST_OUT,
	R_LOST_IN,
	R_NO_WAKEUP,
	R_PID_REUSE,
	R_CLOCK,
	R_LOST_EVENTS,
	R_CUT_LINE,
	R_CLIPPED,
	R_RT_PRIO,
	R_PRIO,
	R_DEADLINE,
	R_GROUP,
	NR_REPAIR_KINDS
};

static const char *const repair_what[NR_REPAIR_KINDS] = {
	[R_LOST_OUT] = "switch-outs not recorded, inferred from what followed (by task below)",
	[R_LOST_IN] = "switch-ins not recorded, taken at the task's wakeup or the CPU's previous event",
	[R_NO_WAKEUP] = "blocked tasks switched in without a wakeup, taken as woken by a timer",
	[R_PID_REUSE] = "pids used again by a new task",
	[R_CLOCK] = "steps back of the clock, taken as the previous event's time",
	[R_LOST_EVENTS] = "reports of lost events",
	[R_CUT_LINE] = "last lines cut short",
	[R_CLIPPED] = "tasks with more statements than a program holds",
	[R_RT_PRIO] = "RT tasks whose later prio changes are not followed",
	[R_PRIO] = "tasks with a prio outside 0..139",
	[R_DEADLINE] = "SCHED_DEADLINE tasks whose reservation is inferred or unknown",
	[R_GROUP] = "task groups not followed",
};

struct itask {
	int pid, gen;
	int idle_cpu;		/* the CPU of an idle task (pid 0), else -1 */
	char comm[TRACE_COMM_MAX];
	int state;		/* TS_* */
	int cpu;		/* running on, when TS_RUNNING */
	u64 since;		/* running, runnable or blocked since */
	u64 seen;		/* running: its last sign of running on that CPU */
	u64 woken_at;		/* running: a wakeup since `seen` (0: none), the sign it had blocked */
	unsigned lost_outs;	/* switch-outs the trace lost */
	unsigned lost_slept;	/* ... of them followed by a wakeup: it had blocked */
	u64 run;		/* CPU time not yet written as a `run` */
	u64 dl_period;		/* SCHED_DEADLINE: the inferred period (dl_runtime the runtime) */
	u64 start;		/* fork time, or the trace's start */
	int nice0, nice;
	int rt_priority;		/* first seen as an RT task: its sched_priority, else 0 */
	bool nice_known, rt_noted, clipped;
	bool born;		/* forked and not yet run: its wakeup_new is no news */
	bool written;		/* goes into the scenario (task_written()) */
	/* SCHED_DEADLINE (prio -1): its jobs, from wakeup to block, give the reservation */
	bool deadline;
	u64 dl_job_run, dl_runtime; /* CPU time of the current job, of the longest */
	u64 dl_last_wake;
	u64 *dl_gap; /* times between activations */
	size_t dl_n, dl_cap;
	/* its task groups, index in importer.group (0 the root): at its start, now */
	int group0, group;
	/* known once moved or forked in the trace */
	bool group_known;
	struct cpumask ran_on;
	struct stmt *st;
	size_t n, cap;
};

struct cpu_slot {
	bool known;		/* pid is what runs there */
	int pid;
	u64 since;		/* its last sched_switch, or the trace's start */
	u64 seen;		/* its last event (whoever ran then) */
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
	/* task groups from cgroup_attach_task in the chosen hierarchy: paths, then the moves */
	int cgroup_root; /* -1: none followed */
	char (*group)[SCHED_GROUP_PATH_LEN];
	int nr_groups;
	size_t cap_groups;
	struct move {
		u64 ts;
		int task, group;
	} * move;
	size_t nr_moves, cap_moves;
	int nr_cpus, header_cpus;
	u64 t0, tlast;
	u64 end;      /* the recording's end as its statistics say ("now ts:"), 0 if unknown */
	int stat_cpu; /* the CPU of the statistics lines being read */
	bool started;
	unsigned line, nr_events, nr_repairs;
	unsigned kinds[NR_REPAIR_KINDS];
};

/* ---- reporting ---- */

/* A repair of this kind at the current line: the first few are shown, all are counted. */
__attribute__((format(printf, 3, 4))) static void repair(struct importer *im, enum repair_kind kind,
							 const char *fmt, ...)
{
	va_list ap;

	if (im->warn && im->kinds[kind] < MAX_SHOWN_PER_KIND) {
		if (im->line)
			fprintf(im->warn, "%s:%u: warning: ", im->name, im->line);
		else
			fprintf(im->warn, "%s: warning: ", im->name);
		va_start(ap, fmt);
		vfprintf(im->warn, fmt, ap);
		va_end(ap);
		fputc('\n', im->warn);
	}
	im->kinds[kind]++;
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

/*
 * A time ts from the first event: the scenario lasts the span rounded up to
 * a millisecond, which must be a duration the scenario parser takes.
 */
static int check_span(struct importer *im, u64 ts, int col)
{
	if (ts - im->t0 <= SCHED_TIME_MAX - NSEC_PER_MSEC)
		return 0;
	return refuse(im, col, "%.3f s after the first event: a scenario lasts at most %llu s",
		      (double)(ts - im->t0) / 1e9, SCHED_TIME_MAX / NSEC_PER_SEC);
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

static void map_grow(struct importer *im)
{
	struct slot *old = im->map;
	size_t n = im->map_size;

	im->map_size = n ? n * 2 : 256;
	im->map = xmalloc(im->map_size * sizeof(*im->map));
	for (size_t i = 0; i < im->map_size; i++)
		im->map[i].idx = -1;
	for (size_t i = 0; i < n; i++)
		if (old[i].idx >= 0)
			im->map[map_find(im, old[i].key)] = old[i];
	free(old);
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

	if ((im->map_used + 1) * 2 > im->map_size)
		map_grow(im);
	XGROW(im->t, im->cap, im->nr);
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

/* One of the comma-separated globs of list matches comm. */
static bool comm_listed(const char *list, const char *comm)
{
	char glob[TRACE_COMM_MAX * 2];

	while (list && *list) {
		size_t n = strcspn(list, ",");

		if (n < sizeof(glob)) {
			memcpy(glob, list, n);
			glob[n] = '\0';
			if (!fnmatch(glob, comm, 0))
				return true;
		}
		list += n + (list[n] == ',');
	}
	return false;
}

static bool task_left_out(const struct importer *im, const struct itask *t)
{
	return (!im->o->keep_tracer && is_tracer(t->comm)) || comm_listed(im->o->leave_out, t->comm);
}

static void emit(struct importer *im, struct itask *t, int kind, int arg, u64 ns)
{
	struct stmt *s;

	if ((kind == ST_RUN || kind == ST_SLEEP) && !ns)
		return;
	if (t->n >= MAX_STMTS) {
		if (!t->clipped)
			repair(im, R_CLIPPED,
			       "%s-%d has more than %d statements: the rest of its trace is dropped", t->comm,
			       t->pid, MAX_STMTS);
		t->clipped = true;
		return;
	}
	XGROW(t->st, t->cap, t->n);
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
		if (t->deadline)
			t->dl_job_run += ts - t->since;
		t->since = ts;
	}
}

/* A deadline task's job ended (it blocked): the longest job is the runtime it needs. */
static void dl_job_end(struct itask *t)
{
	if (t->deadline && t->dl_job_run > t->dl_runtime)
		t->dl_runtime = t->dl_job_run;
	t->dl_job_run = 0;
}

/* A deadline task's job began (it was woken): the gaps between activations give its period. */
static void dl_job_start(struct itask *t, u64 ts)
{
	if (!t->deadline)
		return;
	if (t->dl_last_wake && ts > t->dl_last_wake) {
		XGROW(t->dl_gap, t->dl_cap, t->dl_n);
		t->dl_gap[t->dl_n++] = ts - t->dl_last_wake;
	}
	t->dl_last_wake = ts;
}

static void set_prio(struct importer *im, struct itask *t, int prio, u64 ts)
{
	int nice;

	/* the idle task is kept as SCHED_IDLE, whatever prio a damaged trace gives it */
	if (t->idle_cpu >= 0)
		return;
	if (!t->nice_known && prio == -1) {
		/* SCHED_DEADLINE shows prio -1 (MAX_DL_PRIO - 1); its reservation is inferred at the end */
		t->deadline = true;
		t->nice_known = true;
		return;
	}
	if (!t->nice_known && prio >= 0 && prio < 99) {
		/* SCHED_FIFO or SCHED_RR show prio 99 - sched_priority; a trace cannot tell which */
		t->rt_priority = 99 - prio;
		t->nice_known = true;
		return;
	}
	if (t->rt_priority || t->deadline) {
		int first = t->deadline ? -1 : 99 - t->rt_priority;

		if (prio != first && !t->rt_noted)
			repair(im, R_RT_PRIO,
			       "%s-%d changes prio from %d to %d: a real-time or deadline task "
			       "keeps its first policy",
			       t->comm, t->pid, first, prio);
		t->rt_noted = t->rt_noted || prio != first;
		return;
	}
	if (prio >= 100 && prio <= 139) {
		nice = prio - 120;
	} else {
		nice = prio < 100 ? -20 : 19;
		if (!t->rt_noted)
			repair(im, R_PRIO, "%s-%d has prio %d, outside 0..139: imported as nice %d", t->comm,
			       t->pid, prio, nice);
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
	dl_job_end(t);
	t->state = TS_DEAD;
}

/* A fresh generation, named comm, for a pid whose task has ended (or is ended now). */
static int task_reborn(struct importer *im, int i, int cpu, const char *comm, u64 ts)
{
	struct itask *t = &im->t[i];
	char name[TRACE_COMM_MAX];
	int group = t->group;

	if (t->state != TS_DEAD)
		end_task(im, t, ts);
	snprintf(name, sizeof(name), "%s", comm[0] && strcmp(comm, "<...>") ? comm : t->comm);
	i = task_new(im, t->pid, cpu, name);
	im->t[i].group0 = im->t[i].group = group;
	return i;
}

static void cpu_mark(struct importer *im, int cpu)
{
	if (cpu >= im->nr_cpus)
		im->nr_cpus = cpu + 1;
}

/*
 * Task t was running on its CPU, but what followed shows it gone: another
 * task's event on that CPU, or its own switch-in elsewhere. Its switch-out
 * was not recorded. It is taken at t's last sign of running there; a
 * wakeup of t since then shows it had blocked (a sleep until the wakeup),
 * else whether it blocked or was preempted is left open (TS_LEFT) until
 * its next wakeup or switch-in says.
 */
static void lost_switch_out(struct importer *im, struct itask *t)
{
	struct cpu_slot *cs = &im->cpu[t->cpu];
	u64 at = t->seen > t->since ? t->seen : t->since;

	repair(im, R_LOST_OUT,
	       "%s-%d was still running on CPU %d: its switch-out was not recorded, "
	       "taken at its last event there",
	       t->comm, t->pid, t->cpu);
	account(t, at);
	t->lost_outs++;
	if (cs->known && cs->pid == t->pid)
		cs->known = false;
	if (t->woken_at > at) {
		flush_run(im, t);
		dl_job_end(t);
		emit(im, t, ST_SLEEP, 0, t->woken_at - at);
		dl_job_start(t, t->woken_at);
		t->lost_slept++;
		t->state = TS_RUNNABLE;
		t->since = t->woken_at;
	} else {
		t->state = TS_LEFT;
		t->since = at;
	}
	t->woken_at = 0;
}

/* Task i (comm) gets CPU cpu at ts. Returns its index (a new one after PID reuse). */
static int switch_in(struct importer *im, int i, const char *comm, int cpu, u64 ts)
{
	struct itask *t = &im->t[i];

	switch (t->state) {
	case TS_UNSEEN:
	case TS_RUNNABLE:
	case TS_LEFT: /* it was preempted, then */
		break;
	case TS_BLOCKED:
		repair(im, R_NO_WAKEUP, "%s-%d switched in without a wakeup: taken as woken by a timer",
		       t->comm, t->pid);
		emit(im, t, ST_SLEEP, 0, ts > t->since ? ts - t->since : 0);
		dl_job_start(t, ts);
		break;
	case TS_RUNNING:
		/* still running elsewhere (or here) by the record: that switch-out was lost */
		lost_switch_out(im, t);
		break;
	case TS_DEAD:
		repair(im, R_PID_REUSE, "pid %d switched in after %s-%d exited: a new task (pid reuse)",
		       t->pid, t->comm, t->pid);
		i = task_reborn(im, i, cpu, comm, ts);
		if (i < 0)
			return -1;
		t = &im->t[i];
		t->start = ts;
		break;
	}
	if (ts < t->since)
		ts = t->since;
	t->state = TS_RUNNING;
	t->cpu = cpu;
	t->since = t->seen = ts;
	t->woken_at = 0;
	t->born = false;
	cpumask_set(&t->ran_on, cpu);
	return i;
}

/*
 * The context column names the task running on r's CPU. When it is not
 * the one the trace put there, switches were lost: the one believed there
 * left (lost_switch_out), and the one named came in since the CPU's last
 * event, or since its own wakeup if that is later (a lost switch-in).
 * pid 0 is the idle task. A sched_switch's context is its prev.
 */
static void check_context(struct importer *im, const struct trace_rec *r)
{
	struct cpu_slot *cs = &im->cpu[r->cpu];
	int pid = r->type == TREC_SWITCH ? r->pid : r->ctx_pid;
	const char *comm = r->type == TREC_SWITCH ? r->comm : r->ctx_comm;
	int i;

	if (pid < 0)
		return;
	if (cs->known && cs->pid != pid) {
		int old = task_lookup(im, cs->pid, r->cpu);

		if (old >= 0 && im->t[old].state == TS_RUNNING && im->t[old].cpu == r->cpu)
			lost_switch_out(im, &im->t[old]);
		cs->known = false;
	}
	/* the context's comm is the tracer's memory of the pid: a name only for a stranger */
	i = r->type == TREC_SWITCH ? task_get(im, pid, r->cpu, comm) : task_lookup(im, pid, r->cpu);
	if (i < 0 && r->type != TREC_SWITCH && (pid || im->o->keep_idle))
		i = task_new(im, pid, r->cpu, comm);
	if (i >= 0 && !(im->t[i].state == TS_RUNNING && im->t[i].cpu == r->cpu)) {
		struct itask *t = &im->t[i];
		/* the switch-in was lost: it came after the CPU's previous event and its own wakeup */
		u64 at = (t->state == TS_RUNNABLE || t->state == TS_LEFT) && t->since > cs->seen ? t->since
												 : cs->seen;

		if (t->state != TS_UNSEEN && t->state != TS_DEAD)
			repair(im, R_LOST_IN,
			       "%s-%d %s CPU %d without being switched in: taken as running "
			       "there since its wakeup or the CPU's previous event",
			       t->comm, t->pid, r->type == TREC_SWITCH ? "switched out of" : "ran on",
			       r->cpu);
		if (t->state == TS_BLOCKED)
			t->state = TS_LEFT; /* woken by a wakeup the trace lost: no timer */
		i = switch_in(im, i, comm, r->cpu, at < r->ts ? at : r->ts);
	}
	if (i >= 0) {
		im->t[i].seen = r->ts;
		/* a wakeup while it ran, and it still runs: the wakeup came before it could block */
		if (im->t[i].woken_at && im->t[i].woken_at < r->ts)
			im->t[i].woken_at = 0;
	}
	cs->known = true;
	cs->pid = pid;
	cs->seen = r->ts;
}

static void on_switch(struct importer *im, const struct trace_rec *r)
{
	struct cpu_slot *cs = &im->cpu[r->cpu];
	int p = task_lookup(im, r->pid, r->cpu);
	int n;

	if (p >= 0 && im->t[p].state == TS_RUNNING && im->t[p].cpu == r->cpu) {
		struct itask *t = &im->t[p];

		account(t, r->ts);
		t->woken_at = 0;
		/* an exiting task may still be preempted or block; prev_state X ends it */
		if (r->state == TSTATE_RUNNABLE) {
			t->state = TS_RUNNABLE;
			t->since = r->ts;
		} else if (r->state == TSTATE_BLOCKED) {
			flush_run(im, t);
			dl_job_end(t);
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
	cs->since = cs->seen = r->ts;
}

/* The task running on r's CPU, as the context column says; -1 if none of ours. */
static int waker_of(struct importer *im, const struct trace_rec *r)
{
	int w;

	if (r->irq || r->ctx_pid <= 0)
		return -1;
	w = task_lookup(im, r->ctx_pid, r->cpu);
	/* room for its `run` and `wake`, or the wakee would wait forever */
	if (w < 0 || task_left_out(im, &im->t[w]) || im->t[w].state != TS_RUNNING ||
	    im->t[w].n + 2 > MAX_STMTS)
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
	if (t->state == TS_RUNNING) {
		/* it may be about to block, or its switch-out was lost: what follows tells */
		if (!t->woken_at)
			t->woken_at = r->ts;
		return;
	}
	if (t->state != TS_BLOCKED && t->state != TS_LEFT)
		return; /* the second record of one wakeup, or a wakeup of a runnable task */
	t->lost_slept += t->state == TS_LEFT;
	w = waker_of(im, r);
	t = &im->t[x];
	flush_run(im, t);
	dl_job_end(t);
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
	dl_job_start(t, r->ts);
}

/* A child is born at ts (fork, or wakeup_new when the fork was not traced), in its parent's group. */
static void on_birth(struct importer *im, int parent, int pid, int cpu, const char *comm, u64 ts)
{
	int c = task_get(im, pid, cpu, comm);

	if (c < 0)
		return;
	if (im->t[c].born)
		return;		/* the wakeup_new after its fork */
	if (im->t[c].state != TS_UNSEEN) {
		if (im->t[c].state != TS_DEAD)
			repair(im, R_PID_REUSE,
			       "pid %d forked while %s-%d had not exited: that task ends here "
			       "(pid reuse)",
			       pid, im->t[c].comm, pid);
		c = task_reborn(im, c, cpu, comm, ts);
		if (c < 0)
			return;
	}
	im->t[c].state = TS_RUNNABLE;
	im->t[c].start = im->t[c].since = ts;
	im->t[c].born = true;
	if (parent >= 0) {
		im->t[c].group0 = im->t[c].group = im->t[parent].group;
		im->t[c].group_known = im->t[parent].group_known;
	}
}

/*
 * A cgroup path as a scenario group path: what a component may not hold
 * ([A-Za-z0-9_.-]) as '_', at most MAX_GROUP_DEPTH - 1 levels. "" for the root.
 */
static void group_path(const char *in, char *out, size_t len)
{
	size_t n = 0;
	int depth = 0;

	for (const char *c = in; *c && n + 2 < len; c++) {
		if (*c == '/') {
			if (n && out[n - 1] == '/')
				continue;
			if (++depth >= MAX_GROUP_DEPTH)
				break;
			out[n++] = '/';
			continue;
		}
		if (!n) {
			out[n++] = '/';
			depth = 1;
		}
		out[n++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
					   *c == '_' || *c == '.' || *c == '-'
				   ? *c
				   : '_';
	}
	while (n && out[n - 1] == '/')
		n--;
	out[n] = '\0';
}

/* The index of group path (declared with its parents, each once); 0, the root, when there is no room. */
static int group_intern(struct importer *im, const char *path)
{
	int g = 0;

	for (size_t i = 1; path[0] && path[i - 1]; i++) {
		char prefix[SCHED_GROUP_PATH_LEN];

		if (path[i] && path[i] != '/')
			continue;
		memcpy(prefix, path, i);
		prefix[i] = '\0';
		for (g = 1; g < im->nr_groups && strcmp(im->group[g], prefix); g++)
			;
		if (g < im->nr_groups)
			continue;
		if (im->nr_groups == MAX_GROUPS) {
			repair(im, R_GROUP,
			       "more than %d task groups: %s and the tasks in it stay in the root",
			       MAX_GROUPS - 1, path);
			return 0;
		}
		XGROW(im->group, im->cap_groups, im->nr_groups);
		snprintf(im->group[g], sizeof(im->group[g]), "%s", prefix);
		im->nr_groups++;
	}
	return g;
}

/* cgroup_attach_task: a task moved into a group of the hierarchy followed; before it runs, it starts there. */
static void on_cgroup(struct importer *im, const struct trace_rec *r)
{
	char path[SCHED_GROUP_PATH_LEN];
	int i = task_get(im, r->pid, r->cpu, r->comm), g;
	struct itask *t;

	if (i < 0 || r->root != im->cgroup_root)
		return;
	if (r->path_cut) {
		repair(im, R_GROUP, "the cgroup path of %s-%d is longer than %d bytes: it stays where it was",
		       im->t[i].comm, r->pid, SCHED_GROUP_PATH_LEN - 1);
		return;
	}
	group_path(r->path, path, sizeof(path));
	g = group_intern(im, path);
	t = &im->t[i];
	if (!t->n && !t->run && (t->born || t->state == TS_UNSEEN) && (t->born || r->ts == im->t0)) {
		t->group0 = t->group = g;
	} else if (g != t->group) {
		XGROW(im->move, im->cap_moves, im->nr_moves);
		im->move[im->nr_moves++] = (struct move){ r->ts, i, g };
		t->group = g;
	}
	t->group_known = true;
}

static void on_record(struct importer *im, const struct trace_rec *r)
{
	int i;

	check_context(im, r);
	switch (r->type) {
	case TREC_SWITCH:
		on_switch(im, r);
		break;
	case TREC_WAKING:
	case TREC_WAKEUP:
		on_wake(im, r);
		break;
	case TREC_WAKEUP_NEW:
		on_birth(im, -1, r->pid, r->cpu, r->comm, r->ts);
		if ((i = task_lookup(im, r->pid, r->cpu)) >= 0)
			set_prio(im, &im->t[i], r->prio, r->ts);
		break;
	case TREC_FORK:
		on_birth(im, task_get(im, r->pid, r->cpu, r->comm), r->pid2, r->cpu, r->comm2, r->ts);
		break;
	case TREC_CGROUP:
		on_cgroup(im, r);
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
			im->cpu[c].since = im->cpu[c].seen = r->ts;
		return 0;
	}
	if (r->ts < im->tlast) {
		u64 back = im->tlast - r->ts;

		if (back > MAX_CLOCK_SKEW_NS)
			return refuse(im, r->ts_col, "the clock steps back by %" PRIu64 " ns (more than %llu ns): "
				      "not one recording?", back, MAX_CLOCK_SKEW_NS);
		repair(im, R_CLOCK,
		       "the clock steps back by %" PRIu64 " ns: taken as the previous event's time", back);
		r->ts = im->tlast;
	}
	im->tlast = r->ts;
	return check_span(im, r->ts, r->ts_col);
}

/*
 * Events of cpu were lost (nr of them, 0 if not told): the task believed
 * running there may have left in them, and what runs there is unknown
 * until its next event.
 */
static void lost_events(struct importer *im, int cpu, u64 nr)
{
	struct cpu_slot *cs = &im->cpu[cpu];

	if (nr)
		repair(im, R_LOST_EVENTS, "the buffer statistics say CPU %d lost %" PRIu64 " events", cpu,
		       nr);
	else
		repair(im, R_LOST_EVENTS,
		       "events of CPU %d were lost: what ran there is unknown until its next "
		       "event",
		       cpu);
	if (cs->known) {
		int i = task_lookup(im, cs->pid, cpu);

		if (i >= 0 && im->t[i].state == TS_RUNNING && im->t[i].cpu == cpu)
			lost_switch_out(im, &im->t[i]);
	}
	cs->known = false;
}

/*
 * The hierarchy whose cgroup_attach_task events are followed: the one asked
 * for, else the unified one (0) if the trace moves tasks there, else the
 * only one it moves tasks in. Several cgroup v1 hierarchies and none asked
 * for: none (a warning lists them).
 */
static void choose_cgroup_root(struct importer *im, const char *text, size_t len, enum trace_format fmt)
{
	static const char ev[] = "cgroup_attach_task";
	const char *p = text, *end = text + len;
	u64 roots = 0; /* hierarchies 0..63 seen */
	struct trace_rec r;
	char msg[64];
	int col;

	im->cgroup_root = im->o->has_cgroup_root ? im->o->cgroup_root : -1;
	if (im->o->has_cgroup_root)
		return;
	while ((p = memmem(p, (size_t)(end - p), ev, sizeof(ev) - 1))) {
		const char *s = p, *nl = memchr(p, '\n', (size_t)(end - p));

		while (s > text && s[-1] != '\n')
			s--;
		if (trace_parse_line(fmt, s, (size_t)((nl ? nl : end) - s), &r, &col, msg, sizeof(msg)) ==
			    1 &&
		    r.type == TREC_CGROUP && r.root >= 0 && r.root < 64)
			roots |= 1ull << r.root;
		p = nl ? nl : end;
	}
	if (roots & 1)
		im->cgroup_root = 0;
	else if (roots && !(roots & (roots - 1)))
		im->cgroup_root = __builtin_ctzll(roots);
	else if (roots && im->warn) {
		fprintf(im->warn, "%s: warning: tasks move in cgroup hierarchies", im->name);
		for (int h = 0; h < 64; h++)
			if (roots & (1ull << h))
				fprintf(im->warn, " %d", h);
		fprintf(im->warn, ": give the cpu controller's with --cgroup-root (see /proc/cgroups); "
				  "task groups are left out\n");
	}
}

static int read_trace(struct importer *im, const char *text, size_t len, enum trace_format fmt)
{
	const char *p = text, *end = text + len;

	choose_cgroup_root(im, text, len, fmt);
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
				repair(im, R_CUT_LINE, "the last line is cut short (%s): dropped", msg);
				break;
			}
			return refuse(im, col, "%s", msg);
		}
		if (r.nr_cpus > im->header_cpus && r.nr_cpus <= SCHED_MAX_CPUS)
			im->header_cpus = r.nr_cpus;
		if (r.type == TREC_LOST && r.cpu < SCHED_MAX_CPUS)
			lost_events(im, r.cpu, 0);
		else if (r.type == TREC_STAT_CPU)
			im->stat_cpu = r.cpu;
		else if (r.type == TREC_STAT_LOST && r.nr_lost && im->stat_cpu < SCHED_MAX_CPUS)
			lost_events(im, im->stat_cpu, r.nr_lost);
		else if (r.type == TREC_STAT_NOW && r.ts > im->end) {
			im->end = r.ts;
			if (im->started && check_span(im, r.ts, 1))
				return -1;
		}
		if (rc == 1) {
			if (check_record(im, &r))
				return -1;
			on_record(im, &r);
			im->nr_events++;
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
};

__attribute__((format(printf, 2, 3)))
static void out(struct obuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* room for the terminating NUL, then for what vsnprintf() says the line needs */
	b->p = xgrow(b->p, &b->cap, b->n, 1, 4096);
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort(); /* only wide strings fail to format, and there are none */
		if ((size_t)n < b->cap - b->n)
			break;
		b->p = xgrow(b->p, &b->cap, b->n + (size_t)n, 1, 4096);
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
static void unique_names(struct importer *im, char (*names)[48])
{
	size_t size = 64;
	int *set;

	while (size < im->nr * 2)
		size *= 2;
	set = xmalloc(size * sizeof(*set));
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

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The kernel's to_ratio(): runtime / period in 1 << BW_SHIFT units. */
static u64 dl_ratio(u64 runtime, u64 period)
{
	return (runtime << 20) / period;
}

/*
 * A SCHED_DEADLINE task's reservation, which no sched tracepoint carries,
 * from its jobs: runtime the longest job's CPU time, period (and deadline)
 * the median time between activations, both up to a microsecond. It must
 * pass __checkparam_dl() and, with the others, admission (95 % of each
 * CPU); otherwise it runs as SCHED_FIFO 99, with a warning.
 */
static void dl_infer(struct importer *im, struct itask *t, u64 *bw_left)
{
	u64 runtime, period;

	if (t->dl_n < 2) {
		repair(im, R_DEADLINE,
		       "%s-%d is a SCHED_DEADLINE task (prio -1) with fewer than 3 activations: "
		       "its reservation cannot be told, imported as SCHED_FIFO 99",
		       t->comm, t->pid);
		t->deadline = false;
		t->rt_priority = 99;
		return;
	}
	qsort(t->dl_gap, t->dl_n, sizeof(*t->dl_gap), cmp_u64);
	period = (t->dl_gap[t->dl_n / 2] + 999) / 1000 * 1000;
	runtime = (t->dl_runtime + 999) / 1000 * 1000;
	if (runtime < 1024)
		runtime = 1024;
	if (!sched_dl_params_valid(runtime, period, period) || dl_ratio(runtime, period) > *bw_left) {
		repair(im, R_DEADLINE,
		       "%s-%d is a SCHED_DEADLINE task: runtime %" PRIu64 " ns per %" PRIu64
		       " ns, inferred from its jobs, %s: imported as SCHED_FIFO 99",
		       t->comm, t->pid, runtime, period,
		       dl_ratio(runtime, period) > *bw_left ? "fails admission" : "is no valid reservation");
		t->deadline = false;
		t->rt_priority = 99;
		return;
	}
	repair(im, R_DEADLINE,
	       "%s-%d is a SCHED_DEADLINE task: runtime %" PRIu64 " ns per %" PRIu64 " ns, "
	       "inferred from its %zu jobs (a trace does not carry its sched_attr)",
	       t->comm, t->pid, runtime, period, t->dl_n + 1);
	*bw_left -= dl_ratio(runtime, period);
	t->dl_runtime = runtime;
	t->dl_period = period;
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
	if (t->deadline) {
		out(b, " policy=deadline runtime=");
		out_duration(b, t->dl_runtime);
		out(b, " deadline=");
		out_duration(b, t->dl_period);
		out(b, " period=");
		out_duration(b, t->dl_period);
	}
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
	if (t->group0)
		out(b, " group=%s", im->group[t->group0]);
	out(b, " program=%s\n", name);
}

/*
 * What is still open at the recording's end (its statistics' "now ts:", or
 * the last event): runs are written, a running task runs to the end, a
 * sleep lasts to the end.
 */
static void finish_tasks(struct importer *im, u64 end)
{
	for (size_t i = 0; i < im->nr; i++) {
		struct itask *t = &im->t[i];

		if (t->state == TS_BLOCKED) {
			flush_run(im, t);
			emit(im, t, ST_SLEEP, 0, end - t->since);
		} else if (t->state == TS_RUNNING || t->state == TS_RUNNABLE || t->state == TS_LEFT) {
			account(t, end);
			flush_run(im, t);
		}
	}
}

/* The repairs by kind, and the tasks whose switch-outs were lost, most first. */
static void summary(struct importer *im)
{
	unsigned listed = 0;

	if (!im->warn || !im->nr_repairs)
		return;
	fprintf(im->warn, "%s: warning: %u repairs:\n", im->name, im->nr_repairs);
	for (int k = 0; k < NR_REPAIR_KINDS; k++)
		if (im->kinds[k])
			fprintf(im->warn, "%s: warning: %8u %s\n", im->name, im->kinds[k], repair_what[k]);
	for (;;) {
		struct itask *top = NULL;

		for (size_t i = 0; i < im->nr; i++)
			if (im->t[i].lost_outs && (!top || im->t[i].lost_outs > top->lost_outs))
				top = &im->t[i];
		if (!top)
			break;
		if (listed++ < MAX_TASKS_LISTED)
			fprintf(im->warn,
				"%s: warning: %s-%d: %u switch-outs not recorded, taken at its last event "
				"on the CPU; %u of them followed by a wakeup (it slept)\n",
				im->name, top->comm, top->pid, top->lost_outs, top->lost_slept);
		top->lost_outs = 0;
	}
	if (listed > MAX_TASKS_LISTED)
		fprintf(im->warn, "%s: warning: and %u more tasks with switch-outs not recorded\n", im->name,
			listed - MAX_TASKS_LISTED);
}

/* Deadline reservations, and the tasks whose group the trace does not tell. */
static void infer_attributes(struct importer *im, int nr_cpus)
{
	u64 bw_left = (u64)nr_cpus * dl_ratio(950000, 1000000);
	unsigned unknown = 0;

	for (size_t i = 0; i < im->nr; i++) {
		struct itask *t = &im->t[i];

		if (!t->written)
			continue;
		if (t->deadline)
			dl_infer(im, t, &bw_left);
		unknown += !t->group_known && t->idle_cpu < 0;
	}
	if (im->nr_groups > 1 && unknown)
		repair(im, R_GROUP,
		       "%u tasks were neither moved nor forked in the recording: their task "
		       "groups are not known, they stay in the root",
		       unknown);
}

static int write_scenario(struct importer *im, enum trace_format fmt, struct obuf *b)
{
	char(*names)[48] = xcalloc(im->nr, sizeof(*names));
	u64 span = (im->end > im->tlast ? im->end : im->tlast) - im->t0;
	/* up to a whole millisecond, at least one */
	u64 duration = span ? (span + 999999) / 1000000 * 1000000 : 1000000;
	int nr_cpus = im->header_cpus > im->nr_cpus ? im->header_cpus : im->nr_cpus;
	unsigned nr_tasks = 0;

	im->nr_cpus = nr_cpus;
	for (size_t i = 0; i < im->nr; i++) {
		task_name(&im->t[i], names[i], sizeof(names[i]));
		im->t[i].written = task_written(im, &im->t[i]);
		nr_tasks += im->t[i].written;
	}
	unique_names(im, names);
	im->line = 0; /* what follows is about the whole trace */
	infer_attributes(im, nr_cpus);
	out(b, "# Imported by `schedscope import` from %s (%s text):\n", im->name, trace_format_names[fmt]);
	out(b, "# %u events over %" PRIu64 " ns on %d CPUs, %u tasks, %u repairs", im->nr_events, span,
	    nr_cpus, nr_tasks, im->nr_repairs);
	out(b, " (see IMPORTING TRACES in schedscope(1)).\n");
	out(b, "topology packages=1 cores=%d threads=1\nduration ", nr_cpus);
	out_duration(b, duration);
	out(b, "\n# The recorded runs hold the kernel's own work already: no costs on top.\n"
	       "tunable cost_switch=0 cost_wakeup=0 cost_ipi=0 cost_tick=0 cost_migrate=0 "
	       "cost_hrtimer=0\n");
	if (im->nr_groups > 1)
		out(b, "\n");
	for (int g = 1; g < im->nr_groups; g++)
		out(b, "group %s\n", im->group[g]);
	for (size_t i = 0; i < im->nr; i++)
		if (im->t[i].written)
			write_task(im, b, &im->t[i], names);
	if (im->nr_moves)
		out(b, "\n");
	for (size_t i = 0; i < im->nr_moves; i++) {
		if (!im->t[im->move[i].task].written)
			continue;
		out(b, "at ");
		out_duration(b, im->move[i].ts - im->t0);
		out(b, " move task %s to %s\n", names[im->move[i].task], im->group[im->move[i].group]);
	}
	free(names);
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
	struct importer *im = xcalloc(1, sizeof(*im));
	struct obuf b = { 0 };
	int rc;

	*result = NULL;
	im->name = name;
	im->o = o;
	im->warn = warn;
	im->err = err;
	im->errlen = errlen;
	XGROW(im->group, im->cap_groups, 0);
	strcpy(im->group[0], "/");
	im->nr_groups = 1;
	rc = read_trace(im, text, len, fmt);
	if (!rc) {
		finish_tasks(im, im->end > im->tlast ? im->end : im->tlast);
		rc = write_scenario(im, fmt, &b);
	}
	summary(im);
	if (rc)
		free(b.p);
	else
		*result = b.p;
	for (size_t i = 0; i < im->nr; i++) {
		free(im->t[i].st);
		free(im->t[i].dl_gap);
	}
	free(im->t);
	free(im->map);
	free(im->group);
	free(im->move);
	free(im);
	return rc;
}
