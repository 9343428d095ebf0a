// SPDX-License-Identifier: GPL-2.0
/*
 * Chrome/Perfetto JSON writer (the Trace Event Format). Every trace event is
 * one compact JSON object written by src/json.c on a line of its own; the
 * surrounding object and the separators are the only bytes written by hand.
 *
 * Binding of the migration arrows, as the importers do it: a flow start
 * (ph s) binds to the slice enclosing it on its thread (the one running on
 * the source CPU; Chrome's viewer also takes an event of the same cat, pid,
 * tid and ts: the "migrate" instant written with it); a flow end (ph f)
 * without "bp":"e" binds to the next slice that begins on its thread at or
 * after its ts: the task's slice from that switch-in. With "bp":"e" it
 * would take the enclosing slice, which at the switch-in instant can be the
 * previous task's slice ending there.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json.h"
#include "trace_perfetto.h"
#include "src/base/mem.h"

#define CAT "sched"
#define NO_END UINT64_MAX

struct cpu_state {
	s32 curr, curr_prio;	/* running task (0: idle) and its prio */
	u64 since;		/* when it got the CPU */
	int nr;			/* nr_running counted from the events */
	s64 nr_written;		/* last value written, -1 for none */
	s64 nr_pending;		/* value at nr_pending_t, written once time moves on */
	u64 nr_pending_t;
	bool nr_dirty;
	bool sampled;		/* load/util sampled at least once */
	u64 last_sample;
	u64 load_written, util_written;
};

struct task_state {
	bool seen;
	bool selected;		/* chart vruntime/lag/deadline */
	bool queued;		/* counted in cpu[qcpu].nr */
	bool running;
	bool waiting;		/* runnable, not running: a "Runnable" slice is open */
	s32 qcpu;
	u64 waiting_since;
	u64 flow_id;		/* migration arrow waiting for its end, 0 for none */
	s32 flow_dest;
};

struct trace_perfetto {
	FILE *f;
	struct trace_perfetto_opts o;
	u64 from, to;
	bool error;
	bool window_started;
	u64 last_time;		/* of the last event */
	bool any_dirty;		/* some CPU has an nr_running value pending */
	u64 entries;
	u64 nr_written, *written; /* in the document: written points to the sharing writer's */
	u64 flow_seq, *flows;	  /* flow ids, unique in the document */
	int nr_cpus;
	struct cpu_state *cpu;
	size_t cap_tasks; /* slots in task[], indexed by pid */
	struct task_state *task;
	char *globs;		/* o.tasks with ',' turned into NULs */
	size_t globs_len;
	struct json_writer j;
	bool shared; /* writing into another writer's document */
};

/* ---- writing one trace event ---- */

static int cpu_tid(int cpu)
{
	return TRACE_PERFETTO_CPUS_PID + 1 + cpu;
}

static void put_time(struct trace_perfetto *w, const char *key, u64 ns)
{
	jw_key(&w->j, key);
	/* microseconds; exact to the nanosecond below 2^53 ns */
	jw_fixed(&w->j, (double)ns / 1000.0, 3);
}

static struct json_writer *ev_begin(struct trace_perfetto *w, const char *ph, const char *name, int pid,
				    int tid, u64 ts)
{
	if (*w->written)
		fputs(",\n", w->f);
	pid += w->o.pid_offset;
	tid += w->o.pid_offset;
	jw_init(&w->j, w->f, JW_COMPACT);
	jw_begin_object(&w->j);
	jw_kv_str(&w->j, "ph", ph);
	/* Chrome files its metadata events under "__metadata" */
	jw_kv_str(&w->j, "cat", ph[0] == 'M' ? "__metadata" : CAT);
	jw_kv_str(&w->j, "name", name);
	jw_kv_s64(&w->j, "pid", pid);
	jw_kv_s64(&w->j, "tid", tid);
	put_time(w, "ts", ts);
	return &w->j;
}

/* "args":{}, which Chrome writes on every event and consumers may expect */
static void put_no_args(struct trace_perfetto *w)
{
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	jw_end_object(&w->j);
}

static void ev_end(struct trace_perfetto *w)
{
	jw_end_object(&w->j);
	if (w->j.error || w->j.depth || !w->j.done)
		w->error = true;
	w->entries++;
	(*w->written)++;
}

static void put_metadata(struct trace_perfetto *w, const char *what, int pid, int tid,
			 const char *name, s64 sort_index)
{
	struct json_writer *j = ev_begin(w, "M", what, pid, tid, 0);

	jw_key(j, "args");
	jw_begin_object(j);
	if (name)
		jw_kv_str(j, "name", name);
	else
		jw_kv_s64(j, "sort_index", sort_index);
	jw_end_object(j);
	ev_end(w);
}

static bool in_window(const struct trace_perfetto *w, u64 t)
{
	return t >= w->from && t < w->to;
}

/* A counter track of one series, "value". */
static void put_counter(struct trace_perfetto *w, int pid, const char *name, u64 t, bool is_signed,
			u64 v)
{
	struct json_writer *j = ev_begin(w, "C", name, pid, pid, t);

	jw_key(j, "args");
	jw_begin_object(j);
	if (is_signed)
		jw_kv_s64(j, "value", (s64)v);
	else
		jw_kv_u64(j, "value", v);
	jw_end_object(j);
	ev_end(w);
}

/* ---- names ---- */

static const char *task_name(struct trace_perfetto *w, int pid, int cpu, char *buf, size_t cap)
{
	const char *name = w->o.comm ? w->o.comm(w->o.ctx, pid, cpu) : NULL;

	if (name)
		return name;
	snprintf(buf, cap, "pid %d", pid);
	return buf;
}

static bool selected(const struct trace_perfetto *w, const char *name)
{
	for (size_t i = 0; w->globs && i < w->globs_len; i += strlen(w->globs + i) + 1)
		if (w->globs[i] && fnmatch(w->globs + i, name, 0) == 0)
			return true;
	return false;
}

/* The state of a task, its row named on first sight; NULL for idle or a bad pid. */
static struct task_state *task_of(struct trace_perfetto *w, int pid, int cpu)
{
	if (pid <= 0 || pid >= TRACE_PERFETTO_CPUS_PID)
		return NULL;
	if ((size_t)pid >= w->cap_tasks) {
		size_t old = w->cap_tasks;

		XGROW(w->task, w->cap_tasks, pid);
		memset(w->task + old, 0, (w->cap_tasks - old) * sizeof(*w->task));
	}

	struct task_state *ts = &w->task[pid];

	if (!ts->seen) {
		char buf[32];
		const char *name = task_name(w, pid, cpu, buf, sizeof(buf));

		ts->seen = true;
		ts->selected = selected(w, name);
		put_metadata(w, "thread_name", TRACE_PERFETTO_TASKS_PID, pid, name, 0);
		put_metadata(w, "thread_sort_index", TRACE_PERFETTO_TASKS_PID, pid, NULL, pid);
	}
	return ts;
}

static struct cpu_state *cpu_of(struct trace_perfetto *w, int cpu)
{
	return cpu >= 0 && cpu < w->nr_cpus ? &w->cpu[cpu] : NULL;
}

/* ---- open and close ---- */

struct trace_perfetto *trace_perfetto_open(FILE *f, const struct trace_perfetto_opts *o)
{
	struct trace_perfetto *w = xcalloc(1, sizeof(*w));
	char name[32], pname[160];

	w->f = o->share ? o->share->f : f;
	w->o = *o;
	w->nr_cpus = o->nr_cpus > 0 ? o->nr_cpus : 0;
	w->from = o->from;
	w->to = o->to ? o->to : NO_END;
	w->cpu = xcalloc((size_t)w->nr_cpus + 1, sizeof(*w->cpu));
	if (o->tasks && *o->tasks) {
		w->globs_len = strlen(o->tasks) + 1;
		w->globs = xstrdup(o->tasks);
		for (char *p = w->globs; *p; p++)
			if (*p == ',')
				*p = '\0';
	}
	w->o.tasks = NULL;	/* not kept: the caller's string */
	for (int c = 0; c < w->nr_cpus; c++)
		w->cpu[c].nr_written = -1;

	w->o.share = NULL; /* not kept: its writer may be closed first by mistake */
	w->written = o->share ? o->share->written : &w->nr_written;
	w->flows = o->share ? o->share->flows : &w->flow_seq;
	w->shared = o->share != NULL;
	if (!o->share)
		/* ts and dur in microseconds, as the format has them; no displayTimeUnit, as Chrome writes none */
		fputs("{\"traceEvents\":[\n", f);
	snprintf(pname, sizeof(pname), o->label ? "CPUs (%s)" : "CPUs", o->label);
	put_metadata(w, "process_name", TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, pname, 0);
	put_metadata(w, "process_sort_index", TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, NULL,
		     w->shared ? 2 : 0);
	for (int c = 0; c < w->nr_cpus; c++) {
		snprintf(name, sizeof(name), "CPU %d", c);
		put_metadata(w, "thread_name", TRACE_PERFETTO_CPUS_PID, cpu_tid(c), name, 0);
		put_metadata(w, "thread_sort_index", TRACE_PERFETTO_CPUS_PID, cpu_tid(c), NULL, c);
	}
	snprintf(pname, sizeof(pname), o->label ? "Tasks (%s)" : "Tasks", o->label);
	put_metadata(w, "process_name", TRACE_PERFETTO_TASKS_PID, TRACE_PERFETTO_TASKS_PID, pname, 0);
	put_metadata(w, "process_sort_index", TRACE_PERFETTO_TASKS_PID, TRACE_PERFETTO_TASKS_PID, NULL,
		     w->shared ? 3 : 1);
	return w;
}

u64 trace_perfetto_entries(const struct trace_perfetto *w)
{
	return w->entries;
}

bool trace_perfetto_wanted(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 5 && strcmp(path + n - 5, ".json") == 0;
}

/* ---- slices ---- */

/* A complete slice of [start, end) clipped to the window; false when nothing is left. */
static bool slice_begin(struct trace_perfetto *w, const char *name, int pid, int tid, u64 start,
			u64 end)
{
	if (start < w->from)
		start = w->from;
	if (end > w->to)
		end = w->to;
	if (end <= start)
		return false;
	ev_begin(w, "X", name, pid, tid, start);
	put_time(w, "dur", end - start);
	return true;
}

static const char *state_string(char state, char buf[2])
{
	if (state == TASK_STATE_R || state == 0)
		return "R+";	/* preempted, as ftrace prints it */
	buf[0] = state;
	buf[1] = '\0';
	return buf;
}

/*
 * The running interval of `pid` on `cpu` that ends at `end`: a slice on the
 * CPU's row and one on the task's. state 0: cut by the end of the trace.
 */
static void put_running(struct trace_perfetto *w, int cpu, int pid, int prio, char state,
			u64 start, u64 end)
{
	char buf[32], row[32], st[2];
	const char *name = task_name(w, pid, cpu, buf, sizeof(buf));

	for (int pass = 0; pass < 2; pass++) {
		bool on_cpu = pass == 0;

		if (!on_cpu)
			snprintf(row, sizeof(row), "Running on CPU %d", cpu);
		if (!slice_begin(w, on_cpu ? name : row,
				 on_cpu ? TRACE_PERFETTO_CPUS_PID : TRACE_PERFETTO_TASKS_PID,
				 on_cpu ? cpu_tid(cpu) : pid, start, end))
			return;
		jw_key(&w->j, "args");
		jw_begin_object(&w->j);
		jw_kv_s64(&w->j, "pid", pid);
		jw_kv_s64(&w->j, "prio", prio);
		if (state)
			jw_kv_str(&w->j, "prev_state", state_string(state, st));
		jw_kv_s64(&w->j, "cpu", cpu);
		jw_end_object(&w->j);
		ev_end(w);
	}
}

static void put_runnable(struct trace_perfetto *w, int pid, u64 start, u64 end, int cpu)
{
	if (!slice_begin(w, "Runnable", TRACE_PERFETTO_TASKS_PID, pid, start, end))
		return;
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	if (cpu >= 0)
		jw_kv_s64(&w->j, "cpu", cpu);
	jw_end_object(&w->j);
	ev_end(w);
}

/* ---- counters ---- */

static void put_cpu_counter(struct trace_perfetto *w, int cpu, const char *what, u64 t, u64 v)
{
	char name[48];

	snprintf(name, sizeof(name), "CPU %d %s", cpu, what);
	put_counter(w, TRACE_PERFETTO_CPUS_PID, name, t, false, v);
}

/*
 * nr_running values pending from an earlier time: only the last value of
 * an instant is written (a wakeup and a block at the same ns cancel out).
 */
static void flush_nr_running(struct trace_perfetto *w)
{
	for (int c = 0; w->any_dirty && c < w->nr_cpus; c++) {
		struct cpu_state *cs = &w->cpu[c];

		if (cs->nr_dirty && cs->nr_pending != cs->nr_written) {
			put_cpu_counter(w, c, "nr_running", cs->nr_pending_t, (u64)cs->nr_pending);
			cs->nr_written = cs->nr_pending;
		}
		cs->nr_dirty = false;
	}
	w->any_dirty = false;
}

/*
 * nr_running (when it changed) and load/util (at most once per
 * TRACE_PERFETTO_SAMPLE_NS) of a CPU the event touched. `force`: write
 * them all, at the window's start.
 */
static void update_cpu_counters(struct trace_perfetto *w, int cpu, u64 t, bool force)
{
	struct cpu_state *cs = cpu_of(w, cpu);
	struct sched_cpu_info ci;
	s64 nr;

	if (!cs || !w->window_started || !in_window(w, t))
		return;
	if (w->o.cpu_info)
		w->o.cpu_info(w->o.ctx, cpu, &ci);
	nr = w->o.cpu_info ? ci.nr_running : cs->nr;
	if (force) {
		put_cpu_counter(w, cpu, "nr_running", t, (u64)nr);
		cs->nr_written = nr;
		cs->nr_dirty = false;
	} else {
		cs->nr_pending = nr;
		cs->nr_pending_t = t;
		cs->nr_dirty = true;
		w->any_dirty = true;
	}
	if (!w->o.cpu_info || (!force && cs->sampled && t - cs->last_sample < TRACE_PERFETTO_SAMPLE_NS))
		return;
	if (force || !cs->sampled || ci.avg.load_avg != cs->load_written)
		put_cpu_counter(w, cpu, "load_avg", t, ci.avg.load_avg);
	if (force || !cs->sampled || ci.avg.util_avg != cs->util_written)
		put_cpu_counter(w, cpu, "util_avg", t, ci.avg.util_avg);
	cs->sampled = true;
	cs->last_sample = t;
	cs->load_written = ci.avg.load_avg;
	cs->util_written = ci.avg.util_avg;
}

static void update_task_counters(struct trace_perfetto *w, int pid, int cpu, u64 t)
{
	struct task_state *ts = task_of(w, pid, cpu);
	struct sched_task_info ti;
	char buf[32], name[96];
	const char *comm;

	if (!ts || !ts->selected || !w->o.task_info || !in_window(w, t) ||
	    !w->o.task_info(w->o.ctx, pid, &ti))
		return;
	comm = task_name(w, pid, cpu, buf, sizeof(buf));
	snprintf(name, sizeof(name), "%s vruntime", comm);
	put_counter(w, TRACE_PERFETTO_TASKS_PID, name, t, false, ti.vruntime);
	snprintf(name, sizeof(name), "%s lag", comm);
	put_counter(w, TRACE_PERFETTO_TASKS_PID, name, t, true, (u64)ti.vlag);
	snprintf(name, sizeof(name), "%s deadline", comm);
	put_counter(w, TRACE_PERFETTO_TASKS_PID, name, t, false, ti.deadline);
}

/* ---- events ---- */

static void put_instant(struct trace_perfetto *w, const char *name, int pid, int tid, u64 t,
			const char *scope)
{
	ev_begin(w, "i", name, pid, tid, t);
	jw_kv_str(&w->j, "s", scope);
}

static void on_switch(struct trace_perfetto *w, const struct sched_event *ev)
{
	struct cpu_state *cs = cpu_of(w, ev->cpu);
	int prev = ev->sw.prev_pid, next = ev->sw.next_pid;
	struct task_state *tp = task_of(w, prev, ev->cpu), *tn = task_of(w, next, ev->cpu);
	u64 t = ev->time;

	if (!cs)
		return;
	if (tp) {
		if (cs->curr == prev && tp->running)
			put_running(w, ev->cpu, prev, ev->sw.prev_prio, ev->sw.prev_state ? ev->sw.prev_state : 'R',
				    cs->since, t);
		tp->running = false;
		if (ev->sw.prev_state == TASK_STATE_R) {
			tp->waiting = true;	/* preempted: runnable again at once */
			tp->waiting_since = t;
		} else if (tp->queued) {
			tp->queued = false;
			if (cpu_of(w, tp->qcpu))
				w->cpu[tp->qcpu].nr--;
		}
		update_task_counters(w, prev, ev->cpu, t);
	}
	cs->curr = next;
	cs->curr_prio = ev->sw.next_prio;
	cs->since = t;
	if (tn) {
		if (tn->waiting)
			put_runnable(w, next, tn->waiting_since, t, ev->cpu);
		tn->waiting = false;
		tn->running = true;
		if (tn->flow_id && tn->flow_dest == ev->cpu && in_window(w, t)) {
			/* no "bp": binds to the next slice on this row, the one starting here */
			ev_begin(w, "f", "migrate", TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), t);
			jw_kv_u64(&w->j, "id", tn->flow_id);
			put_no_args(w);
			ev_end(w);
		}
		tn->flow_id = 0;
		update_task_counters(w, next, ev->cpu, t);
	}
}

static void on_wakeup(struct trace_perfetto *w, const struct sched_event *ev)
{
	struct task_state *ts = task_of(w, ev->wake.pid, ev->cpu);
	u64 t = ev->time;

	if (!ts)
		return;
	if (in_window(w, t)) {
		put_instant(w, ev->type == EV_SCHED_WAKEUP_NEW ? "wakeup_new" : "wakeup",
			    TRACE_PERFETTO_TASKS_PID, ev->wake.pid, t, "t");
		jw_key(&w->j, "args");
		jw_begin_object(&w->j);
		jw_kv_s64(&w->j, "target_cpu", ev->wake.target_cpu);
		jw_kv_s64(&w->j, "waker_cpu", ev->cpu);
		jw_kv_s64(&w->j, "prio", ev->wake.prio);
		jw_end_object(&w->j);
		ev_end(w);
	}
	if (!ts->running && !ts->waiting) {
		ts->waiting = true;
		ts->waiting_since = t;
	}
	if (!ts->queued && cpu_of(w, ev->wake.target_cpu)) {
		ts->queued = true;
		ts->qcpu = ev->wake.target_cpu;
		w->cpu[ts->qcpu].nr++;
	}
}

static void on_migrate(struct trace_perfetto *w, const struct sched_event *ev)
{
	struct task_state *ts = task_of(w, ev->migrate.pid, ev->cpu);
	int orig = ev->migrate.orig_cpu, dest = ev->migrate.dest_cpu;
	u64 t = ev->time;

	if (!ts)
		return;
	ts->flow_id = 0;
	if (in_window(w, t) && cpu_of(w, orig) && cpu_of(w, dest)) {
		char buf[32];

		put_instant(w, "migrate", TRACE_PERFETTO_CPUS_PID, cpu_tid(orig), t, "t");
		jw_key(&w->j, "args");
		jw_begin_object(&w->j);
		jw_kv_s64(&w->j, "pid", ev->migrate.pid);
		jw_kv_str(&w->j, "comm", task_name(w, ev->migrate.pid, orig, buf, sizeof(buf)));
		jw_kv_s64(&w->j, "prio", ev->migrate.prio);
		jw_kv_s64(&w->j, "orig_cpu", orig);
		jw_kv_s64(&w->j, "dest_cpu", dest);
		if (ev->migrate.reason < NR_MIGRATE_REASONS)
			jw_kv_str(&w->j, "reason", migrate_reason_names[ev->migrate.reason]);
		jw_kv_u64(&w->j, "decision", ev->migrate.cause);
		jw_end_object(&w->j);
		ev_end(w);

		ts->flow_id = ++*w->flows;
		ts->flow_dest = dest;
		ev_begin(w, "s", "migrate", TRACE_PERFETTO_CPUS_PID, cpu_tid(orig), t);
		jw_kv_u64(&w->j, "id", ts->flow_id);
		put_no_args(w);
		ev_end(w);
	}
	if (ts->queued && cpu_of(w, dest)) {
		if (cpu_of(w, ts->qcpu))
			w->cpu[ts->qcpu].nr--;
		ts->qcpu = dest;
		w->cpu[dest].nr++;
	}
}

static void on_command(struct trace_perfetto *w, const struct sched_event *ev)
{
	const char *kind = ev->command.kind < NR_SCHED_COMMANDS ? sched_command_names[ev->command.kind] : NULL;
	char name[64], buf[32];
	int key = ev->command.key;

	snprintf(name, sizeof(name), "command %s", kind ? kind : "?");
	put_instant(w, name, TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, ev->time, "g");
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	/* -1: typed at the console rather than a scenario `at` line */
	jw_kv_s64(&w->j, "index", ev->command.index == ~0u ? -1 : (s64)ev->command.index);
	if (kind)
		jw_kv_str(&w->j, "kind", kind);
	else
		jw_kv_s64(&w->j, "kind", ev->command.kind);
	switch (ev->command.kind) {
	case CMD_SET_TUNABLE:
		if (key >= 0 && key < NR_SCHED_TUNABLES)
			jw_kv_str(&w->j, "tunable", sched_tunable_descs[key].name);
		break;
	case CMD_SET_FEATURE:
		if (key >= 0 && key < NR_SCHED_FEATURES)
			jw_kv_str(&w->j, "feature", sched_feature_names[key]);
		break;
	default:
		/* per-task commands: task is an index, pids are index + 1 */
		jw_kv_s64(&w->j, "pid", ev->command.task + 1);
		jw_kv_str(&w->j, "task", task_name(w, ev->command.task + 1, ev->cpu, buf, sizeof(buf)));
		break;
	}
	jw_kv_s64(&w->j, "key", key);
	jw_kv_s64(&w->j, "value", ev->command.value);
	jw_end_object(&w->j);
	ev_end(w);
}

/* Throttle and unthrottle as instants on the CPU's track; each group's pool as a counter. */
static void on_bandwidth(struct trace_perfetto *w, const struct sched_event *ev)
{
	const char *path = w->o.group ? w->o.group(w->o.ctx, ev->bw.group) : NULL;
	char name[SCHED_GROUP_PATH_LEN + 32], gbuf[16];

	if (!path) {
		snprintf(gbuf, sizeof(gbuf), "group %d", ev->bw.group);
		path = gbuf;
	}
	if (ev->type != EV_CFS_PERIOD) {
		snprintf(name, sizeof(name), "%s %s", ev->type == EV_CFS_THROTTLE ? "throttle" : "unthrottle",
			 path);
		put_instant(w, name, TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), ev->time, "t");
		jw_key(&w->j, "args");
		jw_begin_object(&w->j);
		jw_kv_str(&w->j, "group", path);
		jw_kv_s64(&w->j, "runtime_remaining_ns", ev->bw.runtime_remaining);
		jw_kv_s64(&w->j, "pool_ns", ev->bw.pool);
		if (ev->type == EV_CFS_UNTHROTTLE)
			jw_kv_u64(&w->j, "throttled_ns", ev->bw.extra);
		jw_end_object(&w->j);
		ev_end(w);
	}
	snprintf(name, sizeof(name), "runtime left %s", path);
	put_counter(w, TRACE_PERFETTO_CPUS_PID, name, ev->time, true, (u64)ev->bw.pool);
}

static void on_note(struct trace_perfetto *w, const struct sched_event *ev)
{
	const char *text = w->o.note ? w->o.note(w->o.ctx, ev->note.index) : NULL;
	char buf[32];

	snprintf(buf, sizeof(buf), "note %u", ev->note.index);
	put_instant(w, text ? text : buf, TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, ev->time, "g");
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	jw_kv_u64(&w->j, "index", ev->note.index);
	jw_end_object(&w->j);
	ev_end(w);
}

static void on_exit_event(struct trace_perfetto *w, const struct sched_event *ev)
{
	if (!task_of(w, ev->exit.pid, ev->cpu) || !in_window(w, ev->time))
		return;
	put_instant(w, "exit", TRACE_PERFETTO_TASKS_PID, ev->exit.pid, ev->time, "t");
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	jw_kv_s64(&w->j, "cpu", ev->cpu);
	jw_kv_s64(&w->j, "prio", ev->exit.prio);
	jw_end_object(&w->j);
	ev_end(w);
}

/* RT throttling of a CPU: a global instant, like commands. */
static void on_rt_throttle(struct trace_perfetto *w, const struct sched_event *ev)
{
	char name[48];

	snprintf(name, sizeof(name), "%s cpu %d", ev->type == EV_RT_THROTTLE ? "rt_throttle" : "rt_unthrottle",
		 ev->cpu);
	put_instant(w, name, TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, ev->time, "g");
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	jw_kv_s64(&w->j, "cpu", ev->cpu);
	jw_kv_u64(&w->j, "rt_time_ns", ev->rt_bw.rt_time);
	jw_kv_u64(&w->j, "rt_runtime_ns", ev->rt_bw.rt_runtime);
	jw_end_object(&w->j);
	ev_end(w);
}

/*
 * Decision records as instants on the deciding CPU's track, linked by their
 * `decision` arg (the seq of the record's first event, which a migration
 * names too): a placement, each group a balance attempt compared, each
 * task it tried, its outcome; herds are global.
 */
static void on_decision(struct trace_perfetto *w, const struct sched_event *ev)
{
	struct json_writer *j = &w->j;
	char name[64], buf[32];

	switch (ev->type) {
	case EV_SELECT_RQ:
		put_instant(w, "select_rq", TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), ev->time, "t");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_u64(j, "decision", ev->seq);
		jw_kv_str(j, "comm", task_name(w, ev->select.pid, ev->cpu, buf, sizeof(buf)));
		jw_kv_str(j, "why", ev->select.wake_flags & SELECT_WF_FORK ? "fork" : "wakeup");
		jw_kv_s64(j, "prev_cpu", ev->select.prev_cpu);
		jw_kv_s64(j, "target_cpu", ev->select.target);
		jw_kv_s64(j, "new_cpu", ev->select.new_cpu);
		jw_kv_str(j, "wake_affine",
			  sched_name_of(wake_affine_names, NR_WAKE_AFFINE_RESULTS, ev->select.affine));
		jw_kv_str(j, "path", sched_name_of(select_path_names, NR_SELECT_PATHS, ev->select.path));
		jw_kv_s64(j, "scanned", ev->select.nr_scanned);
		jw_kv_s64(j, "this_eff_load", ev->select.this_eff_load);
		jw_kv_s64(j, "prev_eff_load", ev->select.prev_eff_load);
		jw_end_object(j);
		break;
	case EV_LB_GROUP:
		put_instant(w, "lb_group", TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), ev->time, "t");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_u64(j, "decision", ev->lb_group.decision);
		jw_kv_s64(j, "level", ev->lb_group.depth);
		jw_kv_s64(j, "group_cpu", ev->lb_group.first_cpu);
		jw_kv_bool(j, "local", ev->lb_group.local);
		jw_kv_str(j, "group_type",
			  sched_name_of(group_type_names, NR_GROUP_TYPES, ev->lb_group.group_type));
		jw_kv_u64(j, "avg_load", ev->lb_group.avg_load);
		jw_kv_u64(j, "group_load", ev->lb_group.group_load);
		jw_kv_u64(j, "group_util", ev->lb_group.group_util);
		jw_kv_u64(j, "group_capacity", ev->lb_group.group_capacity);
		jw_kv_u64(j, "nr_running", ev->lb_group.sum_nr_running);
		jw_kv_u64(j, "h_nr_running", ev->lb_group.sum_h_nr_running);
		jw_kv_u64(j, "idle_cpus", ev->lb_group.idle_cpus);
		jw_end_object(j);
		break;
	case EV_LB_TASK:
		put_instant(w, "lb_task", TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), ev->time, "t");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_u64(j, "decision", ev->lb_task.decision);
		jw_kv_str(j, "comm", task_name(w, ev->lb_task.pid, ev->cpu, buf, sizeof(buf)));
		jw_kv_str(j, "result",
			  sched_name_of(lb_task_result_names, NR_LB_TASK_RESULTS, ev->lb_task.result));
		jw_kv_str(
			j, "migration_type",
			sched_name_of(migration_type_names, NR_MIGRATION_TYPES, ev->lb_task.migration_type));
		jw_kv_u64(j, "load", ev->lb_task.load);
		jw_kv_s64(j, "imbalance_left", ev->lb_task.imbalance);
		jw_kv_u64(j, "nr_balance_failed", ev->lb_task.nr_balance_failed);
		if (ev->lb_task.h_load_stale)
			jw_kv_u64(j, "load_fresh", ev->lb_task.load_fresh);
		jw_end_object(j);
		break;
	case EV_LOAD_BALANCE:
		snprintf(name, sizeof(name), "load_balance %s %s", sched_name_of(sd_level_names, NR_SD_LEVEL_NAMES, ev->lb.level),
			 sched_name_of(lb_outcome_names, NR_LB_OUTCOMES, ev->lb.outcome));
		put_instant(w, name, TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), ev->time, "t");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_u64(j, "decision", ev->lb.decision);
		jw_kv_s64(j, "level", ev->lb.depth);
		jw_kv_str(j, "idle", sched_name_of(cpu_idle_type_names, CPU_MAX_IDLE_TYPES, ev->lb.idle));
		jw_kv_str(j, "outcome", sched_name_of(lb_outcome_names, NR_LB_OUTCOMES, ev->lb.outcome));
		jw_kv_str(j, "why", sched_name_of(fbg_reason_names, NR_FBG_REASONS, ev->lb.why));
		jw_kv_s64(j, "imbalance", ev->lb.imbalance);
		jw_kv_str(j, "migration_type",
			  sched_name_of(migration_type_names, NR_MIGRATION_TYPES, ev->lb.migration_type));
		jw_kv_s64(j, "busiest_group", ev->lb.busiest_group);
		jw_kv_s64(j, "busiest_cpu", ev->lb.busiest_cpu);
		jw_kv_u64(j, "moved", ev->lb.nr_moved);
		jw_kv_u64(j, "hot_moved", ev->lb.nr_hot_moved);
		jw_kv_u64(j, "nr_balance_failed_before", ev->lb.nr_balance_failed_before);
		jw_kv_u64(j, "nr_balance_failed", ev->lb.nr_balance_failed);
		jw_kv_u64(j, "balance_interval_ms", ev->lb.balance_interval);
		jw_kv_bool(j, "active", ev->lb.active);
		jw_end_object(j);
		break;
	default: /* EV_HERD */
		snprintf(name, sizeof(name), "herd %s", sched_name_of(herd_cause_names, NR_HERD_CAUSES, ev->herd.cause));
		put_instant(w, name, TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, ev->time, "g");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_u64(j, "migrations", ev->herd.nr);
		jw_kv_u64(j, "src_cpus", ev->herd.nr_src);
		jw_kv_u64(j, "dst_cpus", ev->herd.nr_dst);
		jw_kv_u64(j, "first_seq", ev->herd.first_seq);
		jw_kv_u64(j, "first_ns", ev->herd.first_time);
		for (int r = 0; r < NR_MIGRATE_REASONS; r++)
			if (ev->herd.by_reason[r])
				jw_kv_u64(j, migrate_reason_names[r], ev->herd.by_reason[r]);
		jw_end_object(j);
		break;
	}
	ev_end(w);
}

/* A deadline task's throttle, replenishment or miss, on its own track (the fair server's globally). */
static void on_dl(struct trace_perfetto *w, const struct sched_event *ev)
{
	static const char *const what[] = { "dl_throttle", "dl_replenish", "dl_miss" };
	const char *name = what[ev->type - EV_DL_THROTTLE];
	char buf[48];

	if (ev->dl.pid == 0) {
		snprintf(buf, sizeof(buf), "fair_server %s cpu %d", name + 3, ev->cpu);
		put_instant(w, buf, TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, ev->time, "g");
	} else {
		if (!task_of(w, ev->dl.pid, ev->cpu))
			return;
		put_instant(w, name, TRACE_PERFETTO_TASKS_PID, ev->dl.pid, ev->time, "t");
	}
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	jw_kv_s64(&w->j, "cpu", ev->cpu);
	jw_kv_s64(&w->j, ev->type == EV_DL_MISS ? "lateness_ns" : "runtime_ns", ev->dl.runtime);
	jw_kv_u64(&w->j, "deadline_ns", ev->dl.deadline);
	jw_end_object(&w->j);
	ev_end(w);
}

/* A task reached its rt-app timer: an instant on its track with the period's end and slack. */
static void on_timer(struct trace_perfetto *w, const struct sched_event *ev)
{
	if (!task_of(w, ev->timer.pid, ev->cpu) || !in_window(w, ev->time))
		return;
	put_instant(w, ev->timer.missed ? "timer missed" : "timer", TRACE_PERFETTO_TASKS_PID,
		    ev->timer.pid, ev->time, "t");
	jw_key(&w->j, "args");
	jw_begin_object(&w->j);
	jw_kv_u64(&w->j, "expires_ns", ev->timer.expires);
	jw_kv_s64(&w->j, "slack_ns", ev->timer.slack);
	jw_kv_u64(&w->j, "period_ns", ev->timer.period);
	jw_end_object(&w->j);
	ev_end(w);
}

static const char *text_of(const struct trace_perfetto *w, u32 id)
{
	const char *s = w->o.text ? w->o.text(w->o.ctx, id) : NULL;

	return s ? s : "";
}

/*
 * The ext class: each dispatch an instant on its task's track naming the
 * operation that made it; kicks and the policy's printk lines on the CPU's
 * track; enable and disable (with the message) global.
 */
static void on_ext(struct trace_perfetto *w, const struct sched_event *ev)
{
	struct json_writer *j = &w->j;
	char name[96], dsq[32];
	const char *op;

	switch (ev->type) {
	case EV_EXT_DISPATCH:
		if (!task_of(w, ev->ext_dsp.pid, ev->cpu))
			return;
		op = sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_dsp.op);
		ext_dsq_format(dsq, sizeof(dsq), ev->ext_dsp.dsq_id);
		snprintf(name, sizeof(name), "ext %s %s (%s)",
			 sched_name_of(ext_dispatch_how_names, NR_EXT_DSP_HOWS, ev->ext_dsp.how), dsq, op);
		put_instant(w, name, TRACE_PERFETTO_TASKS_PID, ev->ext_dsp.pid, ev->time, "t");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_str(j, "op", op);
		jw_kv_str(j, "dsq", dsq);
		jw_kv_s64(j, "dest_cpu", ev->ext_dsp.dest_cpu);
		jw_kv_s64(j, "cpu", ev->cpu);
		jw_kv_u64(j, "slice_ns", ev->ext_dsp.slice);
		jw_kv_u64(j, "vtime", ev->ext_dsp.vtime);
		jw_kv_u64(j, "enq_flags", ev->ext_dsp.enq_flags);
		jw_end_object(j);
		break;
	case EV_EXT_KICK:
		snprintf(name, sizeof(name), "ext kick cpu %d", ev->ext_kick.target_cpu);
		put_instant(w, name, TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), ev->time, "t");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_str(j, "op", sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_kick.op));
		jw_kv_u64(j, "flags", ev->ext_kick.flags);
		jw_end_object(j);
		break;
	case EV_EXT_PRINTK:
		snprintf(name, sizeof(name), "printk: %.80s", text_of(w, ev->ext_print.text));
		put_instant(w, name, TRACE_PERFETTO_CPUS_PID, cpu_tid(ev->cpu), ev->time, "t");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_str(j, "op", sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_print.op));
		jw_kv_s64(j, "pid", ev->ext_print.pid);
		jw_kv_str(j, "text", text_of(w, ev->ext_print.text));
		jw_end_object(j);
		break;
	case EV_EXT_ENABLE:
		snprintf(name, sizeof(name), "ext policy %s enabled", text_of(w, ev->ext_exit.text));
		put_instant(w, name, TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, ev->time, "g");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_bool(j, "partial", ev->ext_exit.kind);
		jw_end_object(j);
		break;
	case EV_EXT_EXIT:
		snprintf(name, sizeof(name), "ext policy disabled (%s)", ext_exit_reason(ev->ext_exit.kind));
		put_instant(w, name, TRACE_PERFETTO_CPUS_PID, TRACE_PERFETTO_CPUS_PID, ev->time, "g");
		jw_key(j, "args");
		jw_begin_object(j);
		jw_kv_str(j, "op", sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_exit.op));
		jw_kv_s64(j, "pid", ev->ext_exit.pid);
		jw_kv_s64(j, "exit_code", ev->ext_exit.exit_code);
		jw_kv_str(j, "msg", text_of(w, ev->ext_exit.text));
		jw_end_object(j);
		break;
	}
	ev_end(w);
}

/* Every counter's value at the window's start, once the stream reaches it. */
static void start_window(struct trace_perfetto *w, u64 t)
{
	if (w->window_started || t < w->from || w->from >= w->to)
		return;
	w->window_started = true;
	for (int c = 0; c < w->nr_cpus; c++)
		update_cpu_counters(w, c, w->from, true);
}

void trace_perfetto_event(void *arg, const struct sched_event *ev)
{
	struct trace_perfetto *w = arg;
	int touched[2] = { -1, -1 };

	if (ev->type >= NR_SCHED_EVENTS)
		return;
	if (ev->time > w->last_time)
		flush_nr_running(w);
	w->last_time = ev->time;
	start_window(w, ev->time);
	switch (ev->type) {
	case EV_SCHED_SWITCH:
		on_switch(w, ev);
		touched[0] = ev->cpu;
		break;
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		on_wakeup(w, ev);
		touched[0] = ev->wake.target_cpu;
		break;
	case EV_SCHED_MIGRATE_TASK:
		on_migrate(w, ev);
		touched[0] = ev->migrate.orig_cpu;
		touched[1] = ev->migrate.dest_cpu;
		break;
	case EV_SCHED_PROCESS_FORK:
		task_of(w, ev->fork.child_pid, ev->cpu);
		break;
	case EV_SCHED_PROCESS_EXIT:
		on_exit_event(w, ev);
		touched[0] = ev->cpu;
		break;
	case EV_COMMAND:
		if (in_window(w, ev->time))
			on_command(w, ev);
		break;
	case EV_NOTE:
		if (in_window(w, ev->time))
			on_note(w, ev);
		break;
	case EV_RT_THROTTLE:
	case EV_RT_UNTHROTTLE:
		if (in_window(w, ev->time))
			on_rt_throttle(w, ev);
		break;
	case EV_DL_THROTTLE:
	case EV_DL_REPLENISH:
	case EV_DL_MISS:
		if (in_window(w, ev->time))
			on_dl(w, ev);
		break;
	case EV_SELECT_RQ:
	case EV_LB_GROUP:
	case EV_LB_TASK:
	case EV_LOAD_BALANCE:
	case EV_HERD:
		if (in_window(w, ev->time))
			on_decision(w, ev);
		break;
	case EV_PROG_TIMER:
		on_timer(w, ev);
		break;
	case EV_CFS_THROTTLE:
	case EV_CFS_UNTHROTTLE:
	case EV_CFS_PERIOD:
		if (in_window(w, ev->time))
			on_bandwidth(w, ev);
		break;
	case EV_EXT_ENABLE:
	case EV_EXT_DISPATCH:
	case EV_EXT_KICK:
	case EV_EXT_PRINTK:
	case EV_EXT_EXIT:
		if (in_window(w, ev->time))
			on_ext(w, ev);
		break;
	default:
		/* waking, stat_runtime, set_nice, yield: seen through the others */
		touched[0] = ev->cpu;
		break;
	}
	for (int i = 0; i < 2; i++)
		if (touched[i] >= 0)
			update_cpu_counters(w, touched[i], ev->time, false);
}

/* ---- the end ---- */

int trace_perfetto_close(struct trace_perfetto *w, u64 end)
{
	int ret;

	if (!w)
		return 0;
	flush_nr_running(w);
	start_window(w, end);
	for (int c = 0; c < w->nr_cpus; c++) {
		struct cpu_state *cs = &w->cpu[c];

		if (cs->curr > 0 && end > cs->since)
			put_running(w, c, cs->curr, cs->curr_prio, 0, cs->since, end);
	}
	for (int pid = 1; (size_t)pid < w->cap_tasks; pid++) {
		struct task_state *ts = &w->task[pid];

		if (ts->waiting && end > ts->waiting_since)
			put_runnable(w, pid, ts->waiting_since, end, -1);
	}
	if (w->shared)
		goto out;

	fputs("\n],\"otherData\":", w->f);
	jw_init(&w->j, w->f, JW_COMPACT);
	jw_begin_object(&w->j);
	jw_kv_str(&w->j, "generator", "schedscope");
	jw_kv_str(&w->j, "clock", "simulated time from the start of the run");
	jw_kv_u64(&w->j, "window_from_ns", w->from);
	if (w->to != NO_END)
		jw_kv_u64(&w->j, "window_to_ns", w->to);
	jw_kv_u64(&w->j, "end_ns", end);
	jw_end_object(&w->j);
	if (w->j.error || w->j.depth || !w->j.done)
		w->error = true;
	fputs("}\n", w->f);
out:
	ret = w->error || fflush(w->f) != 0 || ferror(w->f) ? -1 : 0;
	free(w->task);
	free(w->cpu);
	free(w->globs);
	free(w);
	return ret;
}
