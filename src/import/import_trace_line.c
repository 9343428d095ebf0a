// SPDX-License-Identifier: GPL-2.0
/*
 * One line of a recorded trace into a trace_rec. The three formats share
 * the events' TP_printk() bodies (include/trace/events/sched.h) and differ
 * in the context before them:
 *
 *   ftrace     "<comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <s>.<us>: <event>: <body>"
 *   trace-cmd  "<comm>-<pid> [<cpu>] [<flags>] <s>.<us>: <event>: <body>", and the
 *              plugin bodies of sched_switch / sched_wakeup ("bash:42 [120] S ==> ...")
 *   perf       "<comm> <pid>[/<tid>] [<cpu>] <s>.<frac>: [<period>] sched:<event>: <body>"
 *
 * A comm may hold spaces, dashes and colons, so the context is found from
 * the "-<pid> [<cpu>]" (or " <pid> [<cpu>]") that follows it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "import_trace.h"

const char *const trace_format_names[] = {
	[TRACE_FTRACE] = "ftrace",
	[TRACE_TRACE_CMD] = "trace-cmd",
	[TRACE_PERF] = "perf",
};

struct lp {
	const char *line, *end;
	int *col;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct lp *lp, const char *at, const char *fmt, ...)
{
	va_list ap;

	*lp->col = (int)(at - lp->line) + 1;
	va_start(ap, fmt);
	vsnprintf(lp->err, lp->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_blanks(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Digits at p into *v (at most 9 of them, plenty for pids, CPUs, prios). */
static const char *digits(const char *p, const char *e, int *v)
{
	int n = 0, k = 0;

	while (p < e && is_digit(*p) && k < 9) {
		n = n * 10 + (*p++ - '0');
		k++;
	}
	if (!k || (p < e && is_digit(*p)))
		return NULL;
	*v = n;
	return p;
}

/* An optionally negative integer ending at a blank or the end. */
static const char *integer(const char *p, const char *e, int *v)
{
	bool neg = p < e && *p == '-';
	const char *q = digits(p + neg, e, v);

	if (!q || (q < e && *q != ' ' && *q != '\t'))
		return NULL;
	if (neg)
		*v = -*v;
	return q;
}

static void copy_comm(char *dst, const char *p, const char *e)
{
	size_t n = (size_t)(e - p);

	if (n >= TRACE_COMM_MAX)
		n = TRACE_COMM_MAX - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

/* "<s>.<frac>:" into ns; the fraction has 1 to 9 digits (us in ftrace, ns with perf --ns). */
static const char *timestamp(struct lp *lp, const char *p, u64 *ns)
{
	const char *start = p;
	u64 s = 0, frac = 0;
	int k = 0;

	while (p < lp->end && is_digit(*p)) {
		if (s > 18000000000ull)	/* beyond 5e9 hours: not a clock */
			return fail(lp, start, "timestamp out of range"), NULL;
		s = s * 10 + (u64)(*p++ - '0');
		k++;
	}
	if (!k || p >= lp->end || *p != '.')
		return fail(lp, start, "expected a timestamp SECONDS.FRACTION"), NULL;
	p++;
	for (k = 0; p < lp->end && is_digit(*p); k++, p++) {
		if (k == 9)
			return fail(lp, p, "more than 9 digits after the point"), NULL;
		frac = frac * 10 + (u64)(*p - '0');
	}
	if (!k)
		return fail(lp, p, "expected digits after the point"), NULL;
	for (; k < 9; k++)
		frac *= 10;
	if (p >= lp->end || *p != ':')
		return fail(lp, p, "expected ':' after the timestamp"), NULL;
	*ns = s * 1000000000ull + frac;
	return p + 1;
}

/* "[<cpu>]" */
static const char *cpu_field(const char *p, const char *e, int *cpu)
{
	if (p >= e || *p != '[')
		return NULL;
	p = digits(p + 1, e, cpu);
	if (!p || p >= e || *p != ']')
		return NULL;
	return p + 1;
}

/*
 * After "<comm>-": "<pid> [(<tgid>)] [<cpu>]", the tgid column being the
 * record-tgid option's "(  1234)" or "(-------)". NULL if this '-' is not it.
 */
static const char *dash_context_tail(const char *p, const char *e, int *pid, int *cpu)
{
	p = digits(p, e, pid);
	if (!p || p >= e || *p != ' ')
		return NULL;
	p = skip_blanks(p, e);
	if (p < e && *p == '(') {
		while (p < e && *p != ')')
			if (!(*p == '(' || *p == ' ' || *p == '-' || is_digit(*p)))
				return NULL;
			else
				p++;
		if (p >= e)
			return NULL;
		p = skip_blanks(p + 1, e);
	}
	return cpu_field(p, e, cpu);
}

/* After "<comm> ": "<pid>[/<tid>] [<cpu>]" (perf script); the tid is the kernel's pid. */
static const char *perf_context_tail(const char *p, const char *e, int *pid, int *cpu)
{
	p = digits(p, e, pid);
	if (p && p < e && *p == '/')
		p = digits(p + 1, e, pid);
	if (!p || p >= e || *p != ' ')
		return NULL;
	return cpu_field(skip_blanks(p, e), e, cpu);
}

/* The comm, pid and CPU at the start of an event line; NULL if there are none. */
static const char *context(struct lp *lp, enum trace_format fmt, struct trace_rec *r)
{
	const char *s = skip_blanks(lp->line, lp->end);

	for (const char *p = s; p < lp->end; p++) {
		const char *q;

		if (fmt == TRACE_PERF ? *p != ' ' : *p != '-')
			continue;
		q = fmt == TRACE_PERF ? perf_context_tail(skip_blanks(p, lp->end), lp->end, &r->ctx_pid, &r->cpu)
				      : dash_context_tail(p + 1, lp->end, &r->ctx_pid, &r->cpu);
		if (q) {
			copy_comm(r->ctx_comm, s, p);
			return q;
		}
	}
	return NULL;
}

/* The hardirq/softirq column of the latency flags ("d.h2.", "dNs5.", old "d.s3"). */
static bool flags_say_irq(const char *f, size_t n)
{
	return n >= 3 && f[2] != '.';
}

/* The text at p (up to e) starts with prefix. */
static bool starts(const char *p, const char *e, const char *prefix)
{
	size_t n = strlen(prefix);

	return p && (size_t)(e - p) >= n && !memcmp(p, prefix, n);
}

static const char *token_end(const char *p, const char *e)
{
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* ---- bodies ---- */

/* The value of `key=`, a key at the start of the body or after a blank; NULL if absent. */
static const char *find_key(const char *b, const char *e, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = b; p + n < e; p++) {
		if ((p == b || p[-1] == ' ') && !memcmp(p, key, n) && p[n] == '=')
			return p + n + 1;
	}
	return NULL;
}

/* key=<int>, required. */
static int int_key(struct lp *lp, const char *b, const char *e, const char *key, int *v)
{
	const char *p = find_key(b, e, key);

	if (!p)
		return fail(lp, e, "expected '%s='", key);
	if (!integer(p, e, v))
		return fail(lp, p, "expected a number after '%s='", key);
	/* a prio may be negative (-1 for SCHED_DEADLINE), a pid never */
	size_t n = strlen(key);
	if (*v < 0 && n >= 3 && !strcmp(key + n - 3, "pid"))
		return fail(lp, p, "'%s=%d': a pid is never negative", key, *v);
	return 0;
}

/* key=<comm>, the comm running up to " <next>=" (a comm may hold blanks). */
static int comm_key(struct lp *lp, const char *b, const char *e, const char *key,
		    const char *next, char *dst)
{
	const char *p = find_key(b, e, key);
	const char *q;

	if (!p)
		return fail(lp, b, "expected '%s='", key);
	q = find_key(p, e, next);
	if (!q)
		return fail(lp, p, "expected '%s=' after '%s='", next, key);
	q -= strlen(next) + 1;		/* the next key; the blank before it ends the comm */
	copy_comm(dst, p, q > p ? q - 1 : p);
	return 0;
}

/*
 * prev_state: "R" or "R+" (preempted: still runnable), "X"/"Z"/"x" (dead),
 * any other letters blocked; trace-cmd -R prints the number, 0 runnable,
 * 0x10/0x20 EXIT_DEAD/EXIT_ZOMBIE, bits from 0x100 up only the preemption mark.
 */
static int prev_state(struct lp *lp, const char *p, const char *e, char *state)
{
	const char *q = token_end(p, e);
	int v;

	if (p == q)
		return fail(lp, p, "empty prev_state");
	if (is_digit(*p)) {
		if (!integer(p, e, &v))
			return fail(lp, p, "bad prev_state");
		*state = !(v & 0xff) ? TSTATE_RUNNABLE : (v & 0x30) ? TSTATE_DEAD : TSTATE_BLOCKED;
		return 0;
	}
	if (*p == 'R')
		*state = TSTATE_RUNNABLE;
	else if (*p == 'X' || *p == 'Z' || *p == 'x')
		*state = TSTATE_DEAD;
	else
		*state = TSTATE_BLOCKED;
	return 0;
}

static int switch_tp(struct lp *lp, const char *b, const char *e, struct trace_rec *r)
{
	const char *st;

	if (comm_key(lp, b, e, "prev_comm", "prev_pid", r->comm) ||
	    int_key(lp, b, e, "prev_pid", &r->pid) || int_key(lp, b, e, "prev_prio", &r->prio) ||
	    comm_key(lp, b, e, "next_comm", "next_pid", r->comm2) ||
	    int_key(lp, b, e, "next_pid", &r->pid2) || int_key(lp, b, e, "next_prio", &r->prio2))
		return -1;
	st = find_key(b, e, "prev_state");
	if (!st)
		return fail(lp, e, "expected 'prev_state='");
	return prev_state(lp, st, e, &r->state);
}

/* Backwards from e: "<comm>:<pid> [<prio>]"; returns where the comm starts. */
static int comm_pid_prio(struct lp *lp, const char *b, const char *e, char *comm, int *pid, int *prio)
{
	const char *p = e, *colon;

	while (p > b && p[-1] == ' ')
		p--;
	if (p == b || p[-1] != ']')
		return fail(lp, p, "expected '[PRIO]'");
	p--;
	e = p;
	while (p > b && (is_digit(p[-1]) || p[-1] == '-'))
		p--;
	if (p == b || p[-1] != '[' || !integer(p, e, prio))
		return fail(lp, p, "expected '[PRIO]'");
	p -= 2;
	if (p < b || *p != ' ')
		return fail(lp, p < b ? b : p, "expected 'COMM:PID [PRIO]'");
	e = p;
	while (p > b && is_digit(p[-1]))
		p--;
	colon = p - 1;
	if (p == e || colon < b || *colon != ':' || !digits(p, e, pid))
		return fail(lp, p, "expected 'COMM:PID'");
	copy_comm(comm, b, colon);
	return 0;
}

/* trace-cmd's plugin: "bash:10791 [120] S ==> swapper/0:0 [120]" */
static int switch_plugin(struct lp *lp, const char *b, const char *e, struct trace_rec *r)
{
	const char *arrow = NULL, *st;

	for (const char *p = b; p + 5 <= e; p++)
		if (!memcmp(p, " ==> ", 5))
			arrow = p;
	if (!arrow)
		return fail(lp, b, "expected '==>' in sched_switch");
	st = arrow;
	while (st > b && st[-1] != ' ')
		st--;
	if (st == arrow || prev_state(lp, st, arrow, &r->state))
		return fail(lp, st, "expected the prev_state before '==>'");
	return comm_pid_prio(lp, b, st, r->comm, &r->pid, &r->prio) ||
	       comm_pid_prio(lp, skip_blanks(arrow + 5, e), e, r->comm2, &r->pid2, &r->prio2);
}

static int wake_tp(struct lp *lp, const char *b, const char *e, struct trace_rec *r)
{
	const char *p;

	if (comm_key(lp, b, e, "comm", "pid", r->comm) || int_key(lp, b, e, "pid", &r->pid) ||
	    int_key(lp, b, e, "prio", &r->prio))
		return -1;
	r->target_cpu = -1;
	p = find_key(b, e, "target_cpu");	/* since 2.6.32 */
	if (p && !integer(p, e, &r->target_cpu))
		return fail(lp, p, "expected a number after 'target_cpu='");
	return 0;
}

/* trace-cmd's plugin: "bash:10795 [120] CPU:001", before 4.x also "success=1 ". */
static int wake_plugin(struct lp *lp, const char *b, const char *e, struct trace_rec *r)
{
	const char *cpu = NULL;

	for (const char *p = b; p + 5 <= e; p++)
		if (!memcmp(p, " CPU:", 5))
			cpu = p;
	if (!cpu || !integer(cpu + 5, e, &r->target_cpu))
		return fail(lp, cpu ? cpu + 5 : e, "expected 'CPU:N' in the wakeup");
	/* the word before "CPU:" may be "success=1" */
	const char *t = cpu;

	while (t > b && t[-1] != ' ')
		t--;
	if (cpu - t > 8 && starts(t, cpu, "success="))
		cpu = t > b ? t - 1 : t;
	return comm_pid_prio(lp, b, cpu, r->comm, &r->pid, &r->prio);
}

/* "dst_root=1 dst_id=17 dst_level=1 dst_path=/a b pid=42 comm=sh": the path runs up to " pid=". */
static int cgroup_tp(struct lp *lp, const char *b, const char *e, struct trace_rec *r)
{
	const char *p, *q;
	size_t n;

	if (int_key(lp, b, e, "dst_root", &r->root) || int_key(lp, b, e, "pid", &r->pid))
		return -1;
	p = find_key(b, e, "dst_path");
	if (!p)
		return fail(lp, e, "expected 'dst_path='");
	q = find_key(p, e, "pid");
	if (!q)
		return fail(lp, p, "expected 'pid=' after 'dst_path='");
	q -= strlen("pid") + 1; /* the blank before "pid=" ends the path */
	n = q > p ? (size_t)(q - 1 - p) : 0;
	r->path_cut = n >= sizeof(r->path);
	if (r->path_cut)
		n = sizeof(r->path) - 1;
	memcpy(r->path, p, n);
	r->path[n] = '\0';
	p = find_key(b, e, "comm");
	if (p)
		copy_comm(r->comm, p, e);
	return 0;
}

static int body(struct lp *lp, enum trace_format fmt, const char *b, struct trace_rec *r)
{
	const char *e = lp->end;
	bool tp = find_key(b, e, "comm") || find_key(b, e, "prev_comm") || find_key(b, e, "parent_comm");

	switch (r->type) {
	case TREC_SWITCH:
		return fmt == TRACE_TRACE_CMD && !find_key(b, e, "prev_comm") ? switch_plugin(lp, b, e, r)
									      : switch_tp(lp, b, e, r);
	case TREC_WAKING:
	case TREC_WAKEUP:
	case TREC_WAKEUP_NEW:
		return fmt == TRACE_TRACE_CMD && !tp ? wake_plugin(lp, b, e, r) : wake_tp(lp, b, e, r);
	case TREC_MIGRATE:
		if (comm_key(lp, b, e, "comm", "pid", r->comm) || int_key(lp, b, e, "pid", &r->pid) ||
		    int_key(lp, b, e, "prio", &r->prio))
			return -1;
		return int_key(lp, b, e, "dest_cpu", &r->target_cpu);
	case TREC_FORK:
		/* trace-cmd -R names the parent's fields parent_comm and parent_pid */
		if (find_key(b, e, "parent_comm")) {
			if (comm_key(lp, b, e, "parent_comm", "parent_pid", r->comm) ||
			    int_key(lp, b, e, "parent_pid", &r->pid))
				return -1;
		} else if (comm_key(lp, b, e, "comm", "pid", r->comm) || int_key(lp, b, e, "pid", &r->pid)) {
			return -1;
		}
		return comm_key(lp, b, e, "child_comm", "child_pid", r->comm2) ||
		       int_key(lp, b, e, "child_pid", &r->pid2);
	case TREC_EXIT:
		return comm_key(lp, b, e, "comm", "pid", r->comm) || int_key(lp, b, e, "pid", &r->pid) ||
		       int_key(lp, b, e, "prio", &r->prio);
	case TREC_CGROUP:
		return cgroup_tp(lp, b, e, r);
	}
	return 0;
}

static const struct {
	const char *name;
	int type;
} events[] = {
	{ "sched_switch", TREC_SWITCH },	{ "sched_waking", TREC_WAKING },
	{ "sched_wakeup", TREC_WAKEUP },	{ "sched_wakeup_new", TREC_WAKEUP_NEW },
	{ "sched_migrate_task", TREC_MIGRATE }, { "sched_process_fork", TREC_FORK },
	{ "sched_process_exit", TREC_EXIT },	{ "cgroup_attach_task", TREC_CGROUP },
};

static int event_type(const char *p, const char *e)
{
	size_t n = (size_t)(e - p);

	if (n > 6 && !memcmp(p, "sched:", 6)) {
		p += 6;
		n -= 6;
	} else if (n > 7 && !memcmp(p, "cgroup:", 7)) {
		p += 7;
		n -= 7;
	}
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (strlen(events[i].name) == n && !memcmp(events[i].name, p, n))
			return events[i].type;
	return TREC_SKIP;
}

/* "<s>.<us>" of a statistics line into ns; NULL if it is not one. */
static const char *stat_time(const char *p, const char *e, u64 *ns)
{
	u64 s = 0, us = 0;
	int k = 0;

	for (; p < e && is_digit(*p) && k < 11; k++)
		s = s * 10 + (u64)(*p++ - '0');
	if (!k || p >= e || *p != '.')
		return NULL;
	for (p++, k = 0; p < e && is_digit(*p) && k < 6; k++)
		us = us * 10 + (u64)(*p++ - '0');
	if (k != 6)
		return NULL;
	*ns = s * 1000000000ull + us * 1000;
	return p;
}

/* A u64 count ending the line. */
static bool stat_count(const char *p, const char *e, u64 *v)
{
	int k = 0;

	*v = 0;
	p = skip_blanks(p, e);
	for (; p < e && is_digit(*p) && k < 19; k++)
		*v = *v * 10 + (u64)(*p++ - '0');
	return k && p == e;
}

/*
 * The ring buffer's statistics, as per_cpu/cpuN/stats and `trace-cmd report
 * --stat` print them: "CPU: N" (trace-cmd) names the CPU of the lines below,
 * "now ts:" is when they were read (the recording's end), "overrun:" and
 * "dropped events:" count lost events. 1 for such a line (r->type says
 * which), 0 for another.
 */
static int stat_line(const char *s, const char *e, struct trace_rec *r)
{
	static const char *const skip[] = {
		"Kernel buffer statistics:",
		"Note: ",
		"recorded in the trace data.",
		"entries:",
		"commit overrun:",
		"bytes:",
		"oldest event ts:",
		"read events:",
	};
	const char *p;
	int v;

	if (starts(s, e, "CPU: ") && digits(s + 5, e, &v) == e) {
		r->type = TREC_STAT_CPU;
		r->cpu = v;
		return 1;
	}
	if (starts(s, e, "now ts:") && (p = stat_time(skip_blanks(s + 7, e), e, &r->ts)) &&
	    skip_blanks(p, e) == e) {
		r->type = TREC_STAT_NOW;
		return 1;
	}
	if ((starts(s, e, "overrun:") && stat_count(s + 8, e, &r->nr_lost)) ||
	    (starts(s, e, "dropped events:") && stat_count(s + 15, e, &r->nr_lost))) {
		r->type = TREC_STAT_LOST;
		return 1;
	}
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (starts(s, e, skip[i]))
			return 1;
	/* "CPU0 data recorded at offset=0x1000", "    8192 bytes in size (0 uncompressed)" */
	if (starts(s, e, "CPU") && (p = digits(s + 3, e, &v)) && starts(p, e, " data recorded at offset="))
		return 1;
	if ((p = digits(s, e, &v)) && starts(p, e, " bytes in size"))
		return 1;
	return 0;
}

/* Lines without an event: headers, comments, markers of lost events. */
static int header_line(enum trace_format fmt, const char *s, const char *e, struct trace_rec *r)
{
	const char *p;
	int v;

	if (s == e)
		return 1;
	if (stat_line(s, e, r))
		return 1;
	if (*s == '#') {
		/* "# entries-in-buffer/entries-written: 3323/3323   #P:2" */
		for (p = s; p + 3 < e; p++)
			if (!memcmp(p, "#P:", 3) && digits(p + 3, e, &v))
				r->nr_cpus = v;
		/* "##### CPU 1 buffer started ####": what came before was overwritten */
		if (starts(s, e, "##### CPU ") && starts(digits(s + 10, e, &r->cpu), e, " buffer started"))
			r->type = TREC_LOST;
		return 1;
	}
	if (fmt != TRACE_TRACE_CMD)
		return 0;
	/* trace-cmd report: "cpus=2", "version = 6", "CPU 0 is empty", "CPU:1 [LOST 12 EVENTS]" */
	if (starts(s, e, "cpus=") && digits(s + 5, e, &v) == e) {
		r->nr_cpus = v;
		return 1;
	}
	if (starts(s, e, "version"))
		return 1;
	if (starts(s, e, "CPU ") && starts(digits(s + 4, e, &v), e, " is empty"))
		return 1;
	if (starts(s, e, "CPU:") && starts(digits(s + 4, e, &r->cpu), e, " [LOST")) {
		r->type = TREC_LOST;
		return 1;
	}
	return 0;
}

int trace_parse_line(enum trace_format fmt, const char *line, size_t len, struct trace_rec *r,
		     int *col, char *err, size_t errlen)
{
	struct lp lp = { .line = line, .end = line + len, .col = col, .err = err, .errlen = errlen };
	const char *p, *q, *s;

	memset(r, 0, sizeof(*r));
	r->type = TREC_SKIP;
	if (len && line[len - 1] == '\r')
		lp.end--;
	s = skip_blanks(line, lp.end);
	if (header_line(fmt, s, lp.end, r))
		return 0;

	p = context(&lp, fmt, r);
	if (!p)
		return fail(&lp, s, "not a %s event line: expected '%s'", trace_format_names[fmt],
			    fmt == TRACE_PERF ? "COMM PID [CPU] TIME: EVENT:" : "COMM-PID [CPU] TIME: EVENT:");
	p = skip_blanks(p, lp.end);
	q = token_end(p, lp.end);
	/* the latency flags column, when the irq-info option shows it (never in perf) */
	if (fmt != TRACE_PERF && q > p && q[-1] != ':') {
		r->irq = flags_say_irq(p, (size_t)(q - p));
		p = skip_blanks(q, lp.end);
	}
	r->ts_col = (int)(p - line) + 1;
	p = timestamp(&lp, p, &r->ts);
	if (!p)
		return -1;
	p = skip_blanks(p, lp.end);
	/* perf script may print the sample period before the event */
	if (fmt == TRACE_PERF && p < lp.end && is_digit(*p)) {
		int period;

		q = integer(p, lp.end, &period);
		if (q)
			p = skip_blanks(q, lp.end);
	}
	q = p;
	while (q < lp.end && *q != ' ' && !(*q == ':' && (q + 1 == lp.end || q[1] == ' ')))
		q++;
	if (q == p || q >= lp.end || *q != ':')
		return fail(&lp, p, "expected 'EVENT:' after the timestamp");
	r->type = event_type(p, q);
	if (r->type == TREC_SKIP)
		return 0;
	if (body(&lp, fmt, skip_blanks(q + 1, lp.end), r))
		return -1;
	return 1;
}
