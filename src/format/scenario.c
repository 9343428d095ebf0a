// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files (.scn): a machine, engine settings and a workload.
 *
 * One directive per line; '#' starts a comment (not inside "quotes").
 * Durations are a number and a unit: 750us, 2.5s, 0.75ms (whole ns).
 *
 *   param NAME=DEFAULT...         values the lines below use as ${NAME} (params.h)
 *   topology NAME | PATH | host | packages=2 cores=4 threads=2 ...   required, once
 *   hz 100|250|300|1000           CONFIG_HZ (default 250)
 *   seed N                        the engine's random seed (default 1)
 *   noise on|off                  the real machine's jitter, or the ideal machine (default on)
 *   duration D                    how long the run lasts (default 10s)
 *   sched eevdf|cfs|ext:PATH      the fair class (default eevdf; cfs implies kernel 6.1),
 *                                 or an ext policy plug-in over EEVDF (6.12+, ext_policy.h)
 *   kernel VERSION                3.0 .. 6.19 or latest: the release whose rules and
 *                                 defaults apply; without `sched`, < 6.6 means cfs
 *   feature [NO_]NAME...          a sched_feature on or off (later lines win)
 *   tunable KEY=VALUE...          base_slice=3ms, migration_cost=0, nr_migrate=8...
 *   program NAME {                a named program (lines or ';' between statements);
 *     loop 10 { run 1ms; sleep 2ms }   defined before the tasks that use it
 *   }
 *   group PATH [cpu.weight=N] [cpu.max="Q P"] ...   a task group (group_parse.h);
 *                                 parents first, before the tasks that join them
 *   task NAME [count=N] [nice=N] [policy=normal|batch|idle|ext] [slice=D] [cpus=LIST]
 *        [group=PATH] [at=T] [timer_slack=D] program="TEXT"|program=NAME
 *   irq|steal cpu=LIST every=D cost=D   interrupt or steal time (irq_parse.h)
 *        (or policy=fifo|rr prio=1..99, or policy=deadline runtime=D deadline=D [period=D])
 *   at T COMMAND                  a run-time command at time T (see command.h)
 *   note T "caption"              a caption shown from time T
 *   expect METRIC(PATTERN[, p50|p99|max]) OP VALUE [+- TOL] [over A..B]
 *
 * Tasks: NAME is [A-Za-z0-9_-]+; with count=N (1..100000) the tasks are
 * NAME.0 .. NAME.N-1. At most 200000 tasks. nice -20..19; slice 100us..100ms;
 * cpus like 0-3,8 (CPUs of the topology); at= is when the task is forked.
 * Task i has pid i + 1.
 *
 * Task programs are described in program_parse.h, expect lines in
 * expect_parse.c.
 *
 * All or nothing: the first error ("file:line:col: message") is reported
 * and nothing is kept. Errors that need the whole task list (cpus= beyond
 * the topology, wake and at patterns) are reported after the rest of the file
 * has been checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/base/mem.h"
#include "breakpoint.h"
#include "command.h"
#include "group_parse.h"
#include "host_topology.h"
#include "irq_parse.h"
#include "parse_util.h"
#include "program_parse.h"
#include "scenario_file.h"
#include "topology_file.h"

#define MAX_TASKS 200000
#define MAX_COUNT 100000
#define MAX_TASK_NAME 40		/* leaves room for ".99999" in TASK_COMM_LEN */
#define MAX_ACTIONS (1 << 20)
#define DEFAULT_HZ 250
#define DEFAULT_SEED 1
#define DEFAULT_DURATION (10 * NSEC_PER_SEC)
#define CFS_DEFAULT_KERNEL KV(6, 1)

/* Memory the scenario owns beyond the arrays in struct sched_scenario. */
struct scenario_owned {
	struct program_list progs;
};

/* One `task` line: count=N gives N task specs from `first`. */
struct task_line {
	int first, count;
	bool has_cpus;
	struct lex_span cpus;		/* checked against the topology at the end */
	struct lex_span policy_at;	/* policy=deadline: where admission errors point */
};

struct named_prog {
	struct lex_span name;
	struct sched_program *prog;
};

/* An `at T COMMAND` or `break EXPR` line, parsed once every task is known. */
struct pending_at {
	struct lex_pos from;
	size_t end;
	u64 time;
};

enum single {
	S_TOPOLOGY,
	S_HZ,
	S_SEED,
	S_NOISE,
	S_DURATION,
	S_SCHED,
	S_KERNEL,
	NR_SINGLE
};

struct parser {
	struct lexer lx;
	const char *name;
	struct scenario_file *f;
	struct scenario_owned *own;
	const struct scenario_overrides *ov;
	struct params params;
	u32 param_line[PARAM_MAX];	/* where each was declared */
	bool *param_given;		/* [ov->nr_params]: names a declaration */
	u32 seen_line[NR_SINGLE];	/* 0 = not seen */

	int nr_lines, nr_named, nr_ats, nr_breaks;
	size_t cap_lines, cap_named, cap_ats, cap_breaks, cap_brk, cap_tasks, cap_notes, cap_expects, cap_actions;
	size_t cap_vs, cap_diff_expects;
	size_t cap_groups, cap_irqs;
	struct task_line *line;
	struct named_prog *named;
	struct pending_at *at;
	struct pending_at *brk;		/* time unused */
	struct strmap task_names;	/* base name -> task_line index */
	struct strmap prog_names; /* program name -> named index: 4096 programs found in O(1), not a walk */
	struct program_parser programs;
};

/* ---- small helpers ---- */

/* Names of tasks and programs: [A-Za-z0-9_-]+; '.' is kept for NAME.N. */
static bool valid_name(const struct lex_span *s)
{
	if (!s->n)
		return false;
	for (size_t i = 0; i < s->n; i++) {
		char c = s->p[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

/* The next token must be a word: the value of directive `dir`. */
static int value_word(struct parser *ps, const struct token *dir, struct token *v)
{
	if (lex_next(&ps->lx, v) == TOK_WORD)
		return 0;
	if (ps->lx.failed)
		return -1;
	if (v->type == TOK_NEWLINE || v->type == TOK_EOF)
		return lex_error(&ps->lx, &v->s, "'%s' needs a value", SNIP(&dir->s));
	return lex_error(&ps->lx, &v->s, "unexpected '%s'", SNIP(&v->s));
}

static int once(struct parser *ps, enum single which, const struct token *dir)
{
	if (ps->seen_line[which])
		return lex_error(&ps->lx, &dir->s, "duplicate '%s' (first at line %u)", SNIP(&dir->s),
				 ps->seen_line[which]);
	ps->seen_line[which] = dir->s.line;
	return 0;
}

/* ---- values shared by directives and --set ---- */

static int parse_hz(struct lexer *lx, const struct lex_span *s, u32 *hz)
{
	s64 v;

	if (parse_s64(s->p, s->n, &v) != PARSE_OK || (v != 100 && v != 250 && v != 300 && v != 1000))
		return lex_error(lx, s, "hz '%s' is not one of 100, 250, 300, 1000", SNIP(s));
	*hz = (u32)v;
	return 0;
}

static int parse_noise(struct lexer *lx, const struct lex_span *s, bool *noise)
{
	if (span_is(s, "on"))
		*noise = true;
	else if (span_is(s, "off"))
		*noise = false;
	else
		return lex_error(lx, s, "noise '%s' is neither on nor off", SNIP(s));
	return 0;
}

#define KV_FIRST_EXT KV(6, 12)

static bool span_is_ext(const struct lex_span *s)
{
	return s->n >= 4 && !memcmp(s->p, "ext:", 4);
}

static int parse_sched(struct lexer *lx, const struct lex_span *s, int *variant)
{
	if (span_is(s, "eevdf") || span_is_ext(s))
		*variant = SCHED_VARIANT_EEVDF;
	else if (span_is(s, "cfs"))
		*variant = SCHED_VARIANT_CFS;
	else
		return lex_error(lx, s, "unknown scheduler '%s' (expected eevdf, cfs or ext:PATH)", SNIP(s));
	return 0;
}

static int ext_too_old(struct lexer *lx, const struct lex_span *at, int kv)
{
	return lex_error(lx, at, "sched_ext first appears in 6.12, not in kernel %d.%d", kv / 100, kv % 100);
}

/*
 * `sched ext:PATH`: load the policy (relative to base, the scenario's path)
 * in place of any earlier one; `sched eevdf|cfs` drops it.
 */
static int set_ext_policy(struct lexer *lx, const struct lex_span *s, const char *base,
			  struct scenario_file *f)
{
	char name[1024], path[2048], msg[1024];
	struct ext_policy pol;

	if (!span_is_ext(s)) {
		ext_policy_unload(&f->ext);
		f->sc.ext_ops = NULL;
		return 0;
	}
	if (s->n - 4 >= sizeof(name))
		return lex_error(lx, s, "policy path '%s' is too long", SNIP(s));
	memcpy(name, s->p + 4, s->n - 4);
	name[s->n - 4] = 0;
	if (ext_policy_resolve(name, base, path, sizeof(path), msg, sizeof(msg)) < 0 ||
	    ext_policy_load(path, &pol, msg, sizeof(msg)) < 0)
		return lex_error(lx, s, "%s", msg);
	ext_policy_unload(&f->ext);
	f->ext = pol;
	f->sc.ext_ops = pol.ops;
	return 0;
}

/*
 * "6.12" is KV(6, 12); "6.18.44" its 44th stable update (*stable 44, else 0);
 * "latest" the newest release the engine knows.
 */
static int parse_kernel(struct lexer *lx, const struct lex_span *s, int *kv, int *stable)
{
	const char *end = s->p + s->n, *dot = memchr(s->p, '.', s->n);
	const char *dot2 = dot ? memchr(dot + 1, '.', (size_t)(end - dot - 1)) : NULL;
	const char *mend = dot2 ? dot2 : end;
	u64 major, minor, z = 0;

	*stable = 0;
	if (span_is(s, "latest")) {
		*kv = KV_LATEST;
		return 0;
	}
	if (dot && dot - s->p <= 2 && mend - dot - 1 <= 2 &&
	    parse_u64(s->p, (size_t)(dot - s->p), &major) == PARSE_OK &&
	    parse_u64(dot + 1, (size_t)(mend - dot - 1), &minor) == PARSE_OK &&
	    (!dot2 ||
	     (end - dot2 - 1 <= 3 && parse_u64(dot2 + 1, (size_t)(end - dot2 - 1), &z) == PARSE_OK)) &&
	    sched_kernel_version_valid(KV((int)major, (int)minor))) {
		*kv = KV((int)major, (int)minor);
		*stable = (int)z;
		return 0;
	}
	return lex_error(
		lx, s,
		"unknown kernel '%s' (expected 3.0 .. %d.%d, a stable update such as 6.18.44, or latest)",
		SNIP(s), KV_LATEST / 100, KV_LATEST % 100);
}

static int eevdf_too_old(struct lexer *lx, const struct lex_span *at, int kv)
{
	return lex_error(lx, at, "EEVDF first appears in 6.6, not in kernel %d.%d (use sched cfs)",
			 kv / 100, kv % 100);
}

static void set_feature(struct sched_scenario *sc, int which, bool on)
{
	u64 bit = FEAT_BIT(which);

	if (on) {
		sc->features_set |= bit;
		sc->features_clear &= ~bit;
	} else {
		sc->features_clear |= bit;
		sc->features_set &= ~bit;
	}
}

/* ---- directives ---- */

/* ---- parameters ---- */

/* The --param NAME=VALUE for this name, or NULL; marks it used. */
static const char *param_override(struct parser *ps, const struct lex_span *name)
{
	const char *found = NULL;

	for (int i = 0; ps->ov && i < ps->ov->nr_params; i++) {
		const char *a = ps->ov->param[i], *eq = strchr(a, '=');
		if (eq && (size_t)(eq - a) == name->n && !memcmp(a, name->p, name->n)) {
			ps->param_given[i] = true;
			found = eq + 1; /* the last one given wins */
		}
	}
	return found;
}

/* param NAME=DEFAULT...: the value is the --param one if given, of the default's kind. */
static int do_param(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct token kv;
	int n = 0;

	while (lex_peek(lx, &kv) == TOK_KEYVAL) {
		const struct param *old;
		const char *v;
		size_t vn;

		lex_next(lx, &kv);
		if (!param_name_valid(kv.key.p, kv.key.n))
			return lex_error(lx, &kv.key,
					 "bad parameter name '%s' (a letter or '_', then letters, "
					 "digits and '_', up to %d)",
					 SNIP(&kv.key), PARAM_NAME_MAX - 1);
		if ((old = params_find(&ps->params, kv.key.p, kv.key.n)))
			return lex_error(lx, &kv.key, "duplicate parameter '%s' (first at line %u)",
					 old->name, ps->param_line[old - ps->params.p]);
		if (kv.quoted || memchr(kv.s.p, '$', kv.s.n) || !param_value_valid(kv.val.p, kv.val.n))
			return lex_error(lx, &kv.val,
					 "parameter '%s': the default must be one plain word "
					 "(no blanks, quotes, '$' or punctuation)",
					 SNIP(&kv.key));
		v = kv.val.p;
		vn = kv.val.n;
		const char *given = param_override(ps, &kv.key);
		if (given) {
			enum param_kind want = param_kind_of(v, vn);
			size_t gn = strlen(given);

			if (!param_value_valid(given, gn))
				return lex_error(lx, &kv.val,
						 "--param %s=%s: a value is one plain word (no blanks, "
						 "quotes, '$' or punctuation)",
						 SNIP(&kv.key), given);
			if (!param_fits(want, given, gn))
				return lex_error(lx, &kv.val,
						 "--param %s=%s: the parameter is %s (default %s), "
						 "not %s",
						 SNIP(&kv.key), given, param_kind_names[want], SNIP(&kv.val),
						 param_kind_names[param_kind_of(given, gn)]);
			v = given;
			vn = gn;
		}
		if (params_add(&ps->params, kv.key.p, kv.key.n, v, vn) < 0)
			return lex_error(lx, &kv.key, "more than %d parameters", PARAM_MAX);
		ps->param_line[ps->params.n - 1] = kv.key.line;
		n++;
	}
	if (!n) {
		lex_next(lx, &kv);
		if (lx->failed)
			return -1;
		return lex_error(lx, &kv.s, "'param' needs NAME=DEFAULT");
	}
	return lex_expect_eol(lx);
}

/* Every --param must name a declaration; keep the values used. */
static int finish_params(struct parser *ps)
{
	struct scenario_file *f = ps->f;

	for (int i = 0; ps->ov && i < ps->ov->nr_params; i++) {
		if (ps->param_given[i])
			continue;
		char list[512] = "";
		for (int k = 0, o = 0; k < ps->params.n && o < (int)sizeof(list); k++)
			o += snprintf(list + o, sizeof(list) - (size_t)o, "%s%s", k ? ", " : "",
				      ps->params.p[k].name);
		/* no line to point at: the name is the command line's */
		snprintf(ps->lx.err, ps->lx.errlen,
			 "%s: --param %s: the scenario declares no such parameter "
			 "(%s%s)",
			 ps->name, ps->ov->param[i],
			 ps->params.n ? "it declares " : "it has no `param` lines", list);
		ps->lx.failed = true;
		return -1;
	}
	if (!ps->params.n)
		return 0;
	f->param = xmalloc((size_t)ps->params.n * sizeof(*f->param));
	memcpy(f->param, ps->params.p, (size_t)ps->params.n * sizeof(*f->param));
	f->nr_params = ps->params.n;
	return 0;
}

/* A topology by name or path (not "host"), read into f->topo; errors at `at`. */
static int load_topology(struct parser *ps, const char *name, const struct lex_span *at, const char *what)
{
	struct lexer *lx = &ps->lx;
	char path[2048], msg[512];
	char *text;
	size_t len;

	if (topology_resolve(name, ps->name, path, sizeof(path), msg, sizeof(msg)) < 0 ||
	    lex_read_file(path, &text, &len, msg, sizeof(msg)) < 0)
		return lex_error(lx, at, "%s%s", what, msg);
	/* a mistake inside the .topo file is reported at its own file:line:col */
	int r = topology_parse(path, text, len, &ps->f->topo, lx->err, lx->errlen);
	free(text);
	if (r < 0)
		lx->failed = true;
	return r;
}

/* --topology: the line is read (and must be well formed) but the machine is the one given. */
static int override_topology(struct parser *ps)
{
	struct lexer *lx = &ps->lx;
	const char *name = ps->ov->topology;
	struct lex_span at;
	struct token t;
	char msg[512];

	if (lex_peek(lx, &t) == TOK_NEWLINE || t.type == TOK_EOF)
		return lex_error(lx, &t.s, "'topology' needs a name, a path or packages=N cores=N ...");
	at = t.s;
	while (lex_next(lx, &t) != TOK_NEWLINE && t.type != TOK_EOF)
		;
	if (lx->failed)
		return -1;
	if (!strcmp(name, "host")) {
		if (host_topology_read("/", &ps->f->topo, msg, sizeof(msg)) < 0)
			return lex_error(lx, &at, "--topology host: %s", msg);
		return 0;
	}
	char what[96];
	snprintf(what, sizeof(what), "--topology %.64s: ", name);
	return load_topology(ps, name, &at, what);
}

static int do_topology(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct scenario_file *f = ps->f;
	struct token v;
	char name[1024], msg[512];

	if (once(ps, S_TOPOLOGY, dir) < 0)
		return -1;
	if (ps->ov && ps->ov->topology)
		return override_topology(ps);
	switch (lex_next(lx, &v)) {
	case TOK_KEYVAL:
		return topology_parse_inline(lx, &v, &f->topo);
	case TOK_WORD:
		if (!span_copy(&v.s, name, sizeof(name)))
			return lex_error(lx, &v.s, "topology name '%s' is too long", SNIP(&v.s));
		break;
	case TOK_STRING:
		if (v.val.n >= sizeof(name))
			return lex_error(lx, &v.s, "topology name '%s' is too long", SNIP(&v.s));
		lex_unquote(&v.val, name);
		break;
	default:
		if (lx->failed)
			return -1;
		return lex_error(lx, &v.s, "'topology' needs a name, a path or packages=N cores=N ...");
	}
	if (lex_expect_eol(lx) < 0)
		return -1;
	if (!strcmp(name, "host")) {
		/* the machine we run on, from /sys (src/host_topology.c) */
		if (host_topology_read("/", &f->topo, msg, sizeof(msg)) < 0)
			return lex_error(lx, &v.s, "topology host: %s", msg);
		return 0;
	}
	return load_topology(ps, name, &v.s, "");
}

static int do_hz(struct parser *ps, const struct token *dir)
{
	struct token v;

	if (once(ps, S_HZ, dir) < 0 || value_word(ps, dir, &v) < 0 || parse_hz(&ps->lx, &v.s, &ps->f->sc.hz) < 0)
		return -1;
	return lex_expect_eol(&ps->lx);
}

static int do_seed(struct parser *ps, const struct token *dir)
{
	struct token v;

	if (once(ps, S_SEED, dir) < 0 || value_word(ps, dir, &v) < 0 ||
	    lex_u64(&ps->lx, &v.s, "seed", &ps->f->sc.seed) < 0)
		return -1;
	return lex_expect_eol(&ps->lx);
}

static int do_noise(struct parser *ps, const struct token *dir)
{
	struct token v;

	if (once(ps, S_NOISE, dir) < 0 || value_word(ps, dir, &v) < 0 ||
	    parse_noise(&ps->lx, &v.s, &ps->f->sc.noise) < 0)
		return -1;
	return lex_expect_eol(&ps->lx);
}

static int do_duration(struct parser *ps, const struct token *dir)
{
	struct token v;

	if (once(ps, S_DURATION, dir) < 0 || value_word(ps, dir, &v) < 0 ||
	    lex_duration(&ps->lx, &v.s, "duration", &ps->f->sc.duration) < 0)
		return -1;
	if (!ps->f->sc.duration)
		return lex_error(&ps->lx, &v.s, "duration must be above 0");
	return lex_expect_eol(&ps->lx);
}

static int do_sched(struct parser *ps, const struct token *dir)
{
	struct scenario_file *f = ps->f;
	struct token v;

	if (once(ps, S_SCHED, dir) < 0 || value_word(ps, dir, &v) < 0 ||
	    parse_sched(&ps->lx, &v.s, &f->sc.variant) < 0)
		return -1;
	if (f->sc.variant == SCHED_VARIANT_EEVDF && f->kernel_given && f->sc.kernel < KV_FIRST_EEVDF)
		return eevdf_too_old(&ps->lx, &v.s, f->sc.kernel);
	if (span_is_ext(&v.s) && f->kernel_given && f->sc.kernel < KV_FIRST_EXT)
		return ext_too_old(&ps->lx, &v.s, f->sc.kernel);
	if (lex_expect_eol(&ps->lx) < 0 || set_ext_policy(&ps->lx, &v.s, ps->name, f) < 0)
		return -1;
	f->sched_given = true;
	return 0;
}

static int do_kernel(struct parser *ps, const struct token *dir)
{
	struct scenario_file *f = ps->f;
	struct token v;

	if (once(ps, S_KERNEL, dir) < 0 || value_word(ps, dir, &v) < 0 ||
	    parse_kernel(&ps->lx, &v.s, &f->sc.kernel, &f->sc.kernel_stable) < 0)
		return -1;
	if (f->sched_given && f->sc.variant == SCHED_VARIANT_EEVDF && f->sc.kernel < KV_FIRST_EEVDF)
		return eevdf_too_old(&ps->lx, &v.s, f->sc.kernel);
	if (f->sc.ext_ops && f->sc.kernel < KV_FIRST_EXT)
		return ext_too_old(&ps->lx, &v.s, f->sc.kernel);
	f->kernel_given = true;
	return lex_expect_eol(&ps->lx);
}

static int do_feature(struct parser *ps, const struct token *dir)
{
	struct token v;
	int n = 0;

	while (lex_peek(&ps->lx, &v) == TOK_WORD) {
		int which;
		bool on;
		lex_next(&ps->lx, &v);
		if (command_feature(&ps->lx, &v.s, &which, &on) < 0)
			return -1;
		set_feature(&ps->f->sc, which, on);
		n++;
	}
	if (!n)
		return value_word(ps, dir, &v);
	return lex_expect_eol(&ps->lx);
}

/* sched_rt_handler(): the runtime may not exceed the period (EINVAL), checked at each write. */
static int check_rt_bandwidth(struct parser *ps, const struct token *kv)
{
	const struct sched_scenario *sc = &ps->f->sc;
	u64 period = sc->tunable_set[TUN_RT_PERIOD] ? sc->tunable[TUN_RT_PERIOD]
						    : sched_default_tunable(KV_LATEST, TUN_RT_PERIOD);
	u64 runtime = sc->tunable_set[TUN_RT_RUNTIME] ? sc->tunable[TUN_RT_RUNTIME]
						      : sched_default_tunable(KV_LATEST, TUN_RT_RUNTIME);
	char a[32], b[32];

	if (runtime == RUNTIME_INF || runtime <= period)
		return 0;
	return lex_error(&ps->lx, &kv->val, "sched_rt_runtime_us %s is longer than sched_rt_period_us "
			 "%s (EINVAL)", format_duration(a, sizeof(a), runtime),
			 format_duration(b, sizeof(b), period));
}

static int do_tunable(struct parser *ps, const struct token *dir)
{
	struct sched_scenario *sc = &ps->f->sc;
	struct token v;
	int n = 0;

	while (lex_peek(&ps->lx, &v) == TOK_KEYVAL) {
		int which;
		u64 value;
		lex_next(&ps->lx, &v);
		if (command_tunable(&ps->lx, &v, &which, &value) < 0)
			return -1;
		sc->tunable[which] = value;
		sc->tunable_set[which] = true;
		if (check_rt_bandwidth(ps, &v) < 0)
			return -1;
		n++;
	}
	if (!n) {
		lex_next(&ps->lx, &v);
		return lex_error(&ps->lx, &v.s, "'tunable' needs KEY=VALUE");
	}
	return lex_expect_eol(&ps->lx);
}

static struct named_prog *find_program(struct parser *ps, const struct lex_span *name)
{
	struct map_entry *e = strmap_find(&ps->prog_names, name->p, name->n);

	return e ? &ps->named[e->value] : NULL;
}

static int do_program(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct token name, open;
	struct named_prog *old;
	struct sched_program *p;

	if (value_word(ps, dir, &name) < 0)
		return -1;
	if (!valid_name(&name.s) || name.s.n > 63)
		return lex_error(lx, &name.s, "bad program name '%s' (up to 63 letters, digits, '_' and '-')",
				 SNIP(&name.s));
	if ((old = find_program(ps, &name.s)))
		return lex_error(lx, &name.s, "duplicate program '%s' (first at line %u)", SNIP(&name.s),
				 old->name.line);
	if (lex_next(lx, &open) != TOK_PUNCT || !span_is(&open.s, "{")) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &open.s, "expected '{' after 'program %s'", SNIP(&name.s));
	}
	if (!(p = program_compile(&ps->programs, lx, &open, &name.s)))
		return -1;
	XGROW(ps->named, ps->cap_named, ps->nr_named);
	strmap_add(&ps->prog_names, name.s.p, name.s.n, ps->nr_named);
	ps->named[ps->nr_named++] = (struct named_prog){ name.s, p };
	return lex_expect_eol(lx);
}

/* ---- task lines ---- */

/* ---- group lines ---- */

/* The root group "/" is always entry 0; it takes no attributes. */
static void ensure_root_group(struct parser *ps)
{
	struct sched_scenario *sc = &ps->f->sc;

	if (sc->nr_groups)
		return;
	XGROW(sc->group, ps->cap_groups, 0);
	sc->group[0] = (struct sched_group_spec){ "/", -1, 1024, false, RUNTIME_INF, CFS_PERIOD_DEFAULT,
						 0, 0 };
	sc->nr_groups = 1;
}

static int do_group(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct sched_scenario *sc = &ps->f->sc;
	struct sched_group_spec g;
	struct token path, kv;
	int parent;

	if (value_word(ps, dir, &path) < 0)
		return -1;
	ensure_root_group(ps);
	if (group_path_check(lx, sc, &path.s, &parent) < 0)
		return -1;
	if (sc->nr_groups >= MAX_GROUPS)
		return lex_error(lx, &path.s, "more than %d groups", MAX_GROUPS - 1);
	g = (struct sched_group_spec){ .parent = parent, .shares = 1024, .quota = RUNTIME_INF,
				       .period = CFS_PERIOD_DEFAULT, .line = dir->s.line };
	span_copy(&path.s, g.path, sizeof(g.path));
	while (lex_next(lx, &kv) == TOK_KEYVAL) {
		struct sched_command c = { 0 };
		if (group_attr_parse(lx, &kv, &c) < 0 || group_attr_apply(lx, &kv, &g, &c) < 0)
			return -1;
	}
	if (lx->failed)
		return -1;
	if (kv.type != TOK_NEWLINE && kv.type != TOK_EOF)
		return lex_error(lx, &kv.s, "expected cpu.ATTRIBUTE=VALUE, got '%s'", SNIP(&kv.s));
	XGROW(sc->group, ps->cap_groups, sc->nr_groups);
	sc->group[sc->nr_groups++] = g;
	return 0;
}

/* ---- irq and steal lines ---- */

static int do_irq(struct parser *ps, const struct token *dir)
{
	struct sched_scenario *sc = &ps->f->sc;

	if (!ps->seen_line[S_TOPOLOGY])
		return lex_error(&ps->lx, &dir->s, "'%s' comes after the topology line (it names CPUs)",
				 SNIP(&dir->s));
	return irq_parse(&ps->lx, dir, ps->f->topo.nr_cpus, &sc->irq, &sc->nr_irqs, &ps->cap_irqs);
}

/* ---- task lines ---- */

enum task_key {
	K_COUNT, K_NICE, K_POLICY, K_PRIO, K_RUNTIME, K_DEADLINE, K_PERIOD, K_SLICE, K_CPUS, K_GROUP,
	K_AT,
	K_PROGRAM,
	K_TIMER_SLACK,
	NR_TASK_KEYS
};

static const char *const task_keys[NR_TASK_KEYS] = {
	"count", "nice", "policy", "prio", "runtime", "deadline",    "period",
	"slice", "cpus", "group",  "at",   "program", "timer_slack",
};

/* What a task line says, for each of its count instances. */
struct task_template {
	struct sched_task_spec spec;
	int count;	/* 0: no count=, one task called NAME */
	struct lex_span count_at;
	bool has_cpus;
	struct lex_span cpus;
	struct policy_attr pa;
};

static int task_program(struct parser *ps, const struct token *kv, struct sched_task_spec *spec)
{
	if (kv->quoted) {
		struct lexer sub;
		lex_sub_span(&sub, &ps->lx, &kv->val);
		spec->prog = program_compile(&ps->programs, &sub, NULL, &kv->val);
		lex_join(&ps->lx, &sub);
		return spec->prog ? 0 : -1;
	}
	struct named_prog *np = find_program(ps, &kv->val);
	if (!np)
		return lex_error(&ps->lx, &kv->val, "unknown program '%s' (programs are defined "
				 "before the tasks that use them)", SNIP(&kv->val));
	spec->prog = np->prog;
	return 0;
}

static int task_key(struct parser *ps, const struct token *kv, int key, struct task_template *tt)
{
	struct lexer *lx = &ps->lx;
	s64 v;

	switch (key) {
	case K_COUNT:
		if (lex_int(lx, &kv->val, "count", 1, MAX_COUNT, &v) < 0)
			return -1;
		tt->count = (int)v;
		tt->count_at = kv->val;
		return 0;
	case K_NICE:
		if (lex_int(lx, &kv->val, "nice", -20, 19, &v) < 0)
			return -1;
		tt->spec.nice = (int)v;
		return 0;
	case K_POLICY:
		tt->pa.policy_at = kv->val;
		return command_policy(lx, &kv->val, &tt->pa.policy);
	case K_PRIO:
	case K_RUNTIME:
	case K_DEADLINE:
	case K_PERIOD:
		return command_policy_key(lx, kv, &tt->pa);
	case K_SLICE:
		return command_slice(lx, &kv->val, false, &tt->spec.slice);
	case K_CPUS:
		/* the form now; the CPUs against the topology at the end */
		tt->has_cpus = true;
		tt->cpus = kv->val;
		return lex_cpulist(lx, &kv->val, SCHED_MAX_CPUS, &tt->spec.cpus);
	case K_GROUP:
		tt->spec.group = group_find(lx, &ps->f->sc, &kv->val);
		return tt->spec.group < 0 ? -1 : 0;
	case K_AT:
		return lex_duration(lx, &kv->val, "start time", &tt->spec.start);
	case K_TIMER_SLACK:
		if (lex_duration(lx, &kv->val, "timer_slack", &tt->spec.timer_slack) < 0)
			return -1;
		if (tt->spec.timer_slack > NSEC_PER_SEC)
			return lex_error(lx, &kv->val, "timer_slack '%s' is above 1s", SNIP(&kv->val));
		tt->spec.timer_slack_set = true;
		return 0;
	default:
		return task_program(ps, kv, &tt->spec);
	}
}

static int add_tasks(struct parser *ps, const struct token *name, struct task_template *tt)
{
	struct sched_scenario *sc = &ps->f->sc;
	int n = tt->count ? tt->count : 1;

	if (sc->nr_tasks + n > MAX_TASKS)
		return lex_error(&ps->lx, tt->count ? &tt->count_at : &name->s,
				 "too many tasks: %d more make %d (the limit is %d)", n, sc->nr_tasks + n,
				 MAX_TASKS);
	XGROW(ps->line, ps->cap_lines, ps->nr_lines);
	strmap_add(&ps->task_names, name->s.p, name->s.n, ps->nr_lines);
	ps->line[ps->nr_lines++] = (struct task_line){ sc->nr_tasks, n, tt->has_cpus, tt->cpus,
						       tt->pa.policy_at };

	tt->spec.has_cpus = tt->has_cpus;
	tt->spec.line = name->s.line;
	for (int i = 0; i < n; i++) {
		XGROW(sc->task, ps->cap_tasks, sc->nr_tasks);
		struct sched_task_spec *t = &sc->task[sc->nr_tasks++];
		*t = tt->spec;
		if (tt->count)
			snprintf(t->name, sizeof(t->name), "%.*s.%d", (int)name->s.n, name->s.p, i);
		else
			snprintf(t->name, sizeof(t->name), "%.*s", (int)name->s.n, name->s.p);
	}
	return 0;
}

static int do_task(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct task_template tt = { .pa.policy = SCHED_NORMAL };
	struct lex_span seen[NR_TASK_KEYS] = { { 0 } };
	struct token name, kv;
	struct map_entry *dup;

	if (value_word(ps, dir, &name) < 0)
		return -1;
	if (!valid_name(&name.s))
		return lex_error(lx, &name.s, "bad task name '%s' (letters, digits, '_' and '-'; '.' is "
				 "kept for the NAME.N of count=)", SNIP(&name.s));
	if (name.s.n > MAX_TASK_NAME)
		return lex_error(lx, &name.s, "task name '%s' is longer than %d bytes", SNIP(&name.s),
				 MAX_TASK_NAME);
	if ((dup = strmap_find(&ps->task_names, name.s.p, name.s.n)))
		return lex_error(lx, &name.s, "duplicate task '%s' (first at line %u)", SNIP(&name.s),
				 ps->f->sc.task[ps->line[dup->value].first].line);

	while (lex_next(lx, &kv) == TOK_KEYVAL) {
		int key = 0;
		while (key < NR_TASK_KEYS && !span_is(&kv.key, task_keys[key]))
			key++;
		if (key == NR_TASK_KEYS)
			return lex_error(
				lx, &kv.key,
				"unknown key '%s' (expected count, nice, policy, prio, "
				"runtime, deadline, period, slice, cpus, group, at, program, timer_slack)",
				SNIP(&kv.key));
		if (seen[key].p)
			return lex_error(lx, &kv.key, "duplicate key '%s'", task_keys[key]);
		seen[key] = kv.key;
		if (task_key(ps, &kv, key, &tt) < 0)
			return -1;
	}
	if (lx->failed)
		return -1;
	if (kv.type != TOK_NEWLINE && kv.type != TOK_EOF)
		return lex_error(lx, &kv.s, "expected KEY=VALUE, got '%s'", SNIP(&kv.s));
	if (!tt.spec.prog)
		return lex_error(lx, &name.s, "task '%s' needs program=\"...\" or program=NAME",
				 SNIP(&name.s));
	if (command_policy_check(lx, &tt.pa) < 0)
		return -1;
	tt.spec.policy = tt.pa.policy;
	tt.spec.rt_priority = tt.pa.rt_priority;
	tt.spec.dl_runtime = tt.pa.runtime;
	tt.spec.dl_deadline = tt.pa.deadline;
	tt.spec.dl_period = tt.pa.period;
	return add_tasks(ps, &name, &tt);
}

/* ---- at, note, expect ---- */

static int do_at(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct token v, t;
	u64 time;

	if (value_word(ps, dir, &v) < 0 || lex_duration(lx, &v.s, "time", &time) < 0)
		return -1;
	if (lex_peek(lx, &t) == TOK_NEWLINE || t.type == TOK_EOF) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t.s, "'at %s' needs a command, like 'set nice web.* 5'", SNIP(&v.s));
	}
	XGROW(ps->at, ps->cap_ats, ps->nr_ats);
	ps->at[ps->nr_ats++] = (struct pending_at){ lx->at, lex_eol(lx), time };
	/* the tokens are read again once every task is known; skip them now */
	while (lex_next(lx, &t) != TOK_NEWLINE && t.type != TOK_EOF)
		;
	return lx->failed ? -1 : 0;
}

static int do_note(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct sched_scenario *sc = &ps->f->sc;
	struct token v, s;
	u64 time;

	if (value_word(ps, dir, &v) < 0 || lex_duration(lx, &v.s, "time", &time) < 0)
		return -1;
	if (lex_next(lx, &s) != TOK_STRING) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &s.s, "'note' needs a \"quoted caption\" after the time");
	}
	if (lex_expect_eol(lx) < 0)
		return -1;
	XGROW(sc->note, ps->cap_notes, sc->nr_notes);
	char *text = xmalloc(s.val.n + 1);
	lex_unquote(&s.val, text);
	sc->note[sc->nr_notes++] = (struct sched_note){ time, text };
	return 0;
}

static int do_break(struct parser *ps, const struct token *dir)
{
	struct lexer *lx = &ps->lx;
	struct token t;

	if (lex_peek(lx, &t) == TOK_NEWLINE || t.type == TOK_EOF) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t.s, "'break' needs an expression, like 'switch cpu=0'");
	}
	XGROW(ps->brk, ps->cap_breaks, ps->nr_breaks);
	ps->brk[ps->nr_breaks++] = (struct pending_at){ lx->at, lex_eol(lx), 0 };
	while (lex_next(lx, &t) != TOK_NEWLINE && t.type != TOK_EOF)
		;
	return lx->failed ? -1 : 0;
}

/*
 * vs set KEY=VALUE | vs param NAME=VALUE: side B is this scenario with that
 * --set or --param. A set is tried on a scratch scenario so that a bad one
 * is this line's error (an ext policy is loaded only when B is built).
 */
static int do_vs(struct parser *ps, const struct token *dir)
{
	struct scenario_file *f = ps->f;
	struct lexer *lx = &ps->lx;
	struct token w, kv;
	bool param;

	if (value_word(ps, dir, &w) < 0)
		return -1;
	param = span_is(&w.s, "param");
	if (!param && !span_is(&w.s, "set"))
		return lex_error(lx, &w.s,
				 "expected 'vs set KEY=VALUE' or 'vs param NAME=VALUE', got 'vs %s'",
				 SNIP(&w.s));
	if (lex_next(lx, &kv) != TOK_KEYVAL) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &kv.s, "expected %s=VALUE after 'vs %s'", param ? "NAME" : "KEY",
				 SNIP(&w.s));
	}
	if (lex_expect_eol(lx) < 0)
		return -1;
	if (param) {
		const struct param *p = params_find(&ps->params, kv.key.p, kv.key.n);

		if (!p)
			return lex_error(lx, &kv.key, "'vs param %s': no such parameter declared above",
					 SNIP(&kv.key));
		if (kv.quoted || !param_fits(param_kind_of(p->value, strlen(p->value)), kv.val.p, kv.val.n))
			return lex_error(lx, &kv.val, "'vs param %s': '%s' is not %s, as its default '%s' is",
					 p->name, SNIP(&kv.val),
					 param_kind_names[param_kind_of(p->value, strlen(p->value))],
					 p->value);
	} else if (!(span_is(&kv.key, "sched") && kv.val.n > 4 && !memcmp(kv.val.p, "ext:", 4))) {
		struct scenario_file scratch;
		char text[LEX_MAX_LINE + 1], msg[512];

		memset(&scratch, 0, sizeof(scratch));
		scratch.sc.kernel = KV_LATEST;
		snprintf(text, sizeof(text), "%.*s", (int)kv.s.n, kv.s.p);
		if (scenario_set_as(&scratch, "vs set", text, msg, sizeof(msg)) < 0)
			return lex_error(lx, &kv.s, "%s", msg);
	}
	XGROW(f->vs, ps->cap_vs, f->nr_vs);
	f->vs[f->nr_vs++] = (struct scenario_vs){ xstrndup(kv.s.p, kv.s.n), param, kv.s.line, kv.s.col };
	return 0;
}

/* expect diff METRIC(GLOB) OP CHANGE [over A..B]: read as diff_expr.h says, up to a comment. */
static int do_expect_diff(struct parser *ps, const struct token *diff)
{
	struct scenario_file *f = ps->f;
	struct lexer *lx = &ps->lx;
	struct diff_expect d = { .line = diff->s.line };
	size_t start = lx->at.pos, end = lex_eol(lx), n, full;
	const char *p = lx->text + start, *over;
	u32 col0 = (u32)(start - lx->at.bol + 1), col;
	char err[256];

	while (start < end && (lx->text[start] == ' ' || lx->text[start] == '\t'))
		start++, p++, col0++;
	n = end - start;
	if (memchr(p, '#', n))
		n = (size_t)((const char *)memchr(p, '#', n) - p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	d.col = col0;
	full = n;
	for (over = p; (over = memmem(over, n - (size_t)(over - p), " over ", 6)); over++) {
		const char *w = over + 6, *dots = memmem(w, n - (size_t)(w - p), "..", 2);

		if (!dots || parse_duration(w, (size_t)(dots - w), &d.from) != PARSE_OK ||
		    parse_duration(dots + 2, n - (size_t)(dots + 2 - p), &d.to) != PARSE_OK || d.from >= d.to)
			return lex_error(lx, &(struct lex_span){ w, 0, diff->s.line, col0 + (u32)(w - p) },
					 "expected 'over A..B' with durations and A < B");
		d.has_window = true;
		n = (size_t)(over - p);
		break;
	}
	if (diff_expr_parse(p, n, &d.x, &col, err, sizeof(err)) < 0)
		return lex_error(lx, &(struct lex_span){ p, 0, diff->s.line, col0 + col - 1 }, "%s", err);
	snprintf(d.x.text, sizeof(d.x.text), "%.*s", (int)full, p);
	lx->at.pos = end;
	XGROW(f->diff_expect, ps->cap_diff_expects, f->nr_diff_expects);
	f->diff_expect[f->nr_diff_expects++] = d;
	return 0;
}

static int do_expect(struct parser *ps, const struct token *dir)
{
	struct scenario_file *f = ps->f;
	struct expect x;
	struct token m;

	if (lex_peek(&ps->lx, &m) == TOK_WORD && span_is(&m.s, "diff")) {
		lex_next(&ps->lx, &m);
		return do_expect_diff(ps, &m);
	}
	if (value_word(ps, dir, &m) < 0 || expect_parse(&ps->lx, &m, &x) < 0)
		return -1;
	XGROW(f->expect, ps->cap_expects, f->nr_expects);
	f->expect[f->nr_expects++] = x;
	return 0;
}

/* ---- the whole file ---- */

static const struct {
	const char *name;
	int (*parse)(struct parser *ps, const struct token *dir);
} directives[] = {
	{ "topology", do_topology }, { "hz", do_hz },		{ "seed", do_seed },
	{ "duration", do_duration }, { "sched", do_sched },	{ "kernel", do_kernel },
	{ "feature", do_feature },   { "tunable", do_tunable }, { "program", do_program },
	{ "group", do_group },	     { "task", do_task },	{ "at", do_at },
	{ "irq", do_irq },	     { "steal", do_irq },	{ "note", do_note },
	{ "expect", do_expect },     { "break", do_break },	{ "param", do_param },
	{ "noise", do_noise },	     { "vs", do_vs },
};

static int parse_lines(struct parser *ps)
{
	struct lexer *lx = &ps->lx;
	struct token t;

	for (;;) {
		switch (lex_next(lx, &t)) {
		case TOK_EOF:
			return lx->failed ? -1 : 0;
		case TOK_NEWLINE:
			continue;
		case TOK_WORD:
			break;
		default:
			if (tok_is(&t, TOK_PUNCT, "}"))
				return lex_error(lx, &t.s, "unbalanced '}'");
			return lex_error(lx, &t.s, "unexpected '%s'", SNIP(&t.s));
		}
		size_t i = 0;
		while (i < ARRAY_SIZE(directives) && !span_is(&t.s, directives[i].name))
			i++;
		if (i == ARRAY_SIZE(directives))
			return lex_error(
				lx, &t.s,
				"unknown directive '%s' (expected topology, hz, seed, "
				"noise, duration, sched, kernel, feature, tunable, program, group, task, "
				"irq, steal, at, note, expect, break, param, vs)",
				SNIP(&t.s));
		if (directives[i].parse(ps, &t) < 0)
			return -1;
	}
}

static int check_cpus(struct parser *ps)
{
	struct cpumask m;

	for (int i = 0; i < ps->nr_lines; i++)
		if (ps->line[i].has_cpus &&
		    lex_cpulist(&ps->lx, &ps->line[i].cpus, ps->f->topo.nr_cpus, &m) < 0)
			return -1;
	return 0;
}

/* The line that declared task i. */
static const struct task_line *line_of_task(const struct parser *ps, int i)
{
	for (int l = 0; l < ps->nr_lines; l++)
		if (i >= ps->line[l].first && i < ps->line[l].first + ps->line[l].count)
			return &ps->line[l];
	return NULL;
}

/* Where the command of the `at` line that gave an action starts, for messages about it. */
static struct lex_span at_line_start(const struct parser *ps, u32 line)
{
	for (int i = 0; i < ps->nr_ats; i++)
		if (ps->at[i].from.line == line)
			return (struct lex_span){ ps->lx.text + ps->at[i].from.pos, 0, line,
						  (u32)(ps->at[i].from.pos - ps->at[i].from.bol + 1) };
	return (struct lex_span){ ps->lx.text, 0, line, 1 };
}

/*
 * SCHED_DEADLINE: the tasks must be allowed on every CPU of the root domain
 * (sched_setattr() fails with EPERM otherwise), and all of them together
 * must pass admission control, counted as if all lived at once.
 */
static int check_deadline_tasks(struct parser *ps)
{
	struct sched_scenario *sc = &ps->f->sc;
	int bad, bad_action;

	for (int l = 0; l < ps->nr_lines; l++) {
		const struct task_line *tl = &ps->line[l];
		const struct sched_task_spec *t = &sc->task[tl->first];

		if (t->policy != SCHED_DEADLINE || !t->has_cpus)
			continue;
		for (int cpu = 0; cpu < ps->f->topo.nr_cpus; cpu++)
			if (!cpumask_test(&t->cpus, cpu))
				return lex_error(&ps->lx, &tl->cpus, "a SCHED_DEADLINE task must be allowed on "
						 "every CPU (%d here): sched_setattr() refuses narrower "
						 "affinity with EPERM", ps->f->topo.nr_cpus);
	}
	sc->topo = &ps->f->topo;
	if (!sched_dl_admission_check(sc, &bad, &bad_action))
		return 0;
	if (bad >= 0) {
		const struct task_line *tl = line_of_task(ps, bad);
		return lex_error(&ps->lx, &tl->policy_at, "SCHED_DEADLINE admission failed at task '%s': "
				 "the deadline tasks%s need more than sched_rt_runtime_us/"
				 "sched_rt_period_us of the %d CPU(s) (EBUSY)", sc->task[bad].name,
				 sc->kernel >= KV(6, 12) ? " and the fair servers" : "",
				 ps->f->topo.nr_cpus);
	}
	struct lex_span at = at_line_start(ps, sc->action[bad_action].line);
	return lex_error(&ps->lx, &at,
			 "SCHED_DEADLINE admission failed for '%s' at this time: with the deadline "
			 "tasks%s it would need more than sched_rt_runtime_us/sched_rt_period_us of the "
			 "%d CPU(s) (EBUSY)", sc->task[sc->action[bad_action].cmd.task].name,
			 sc->kernel >= KV(6, 12) ? " and the fair servers" : "", ps->f->topo.nr_cpus);
}

static int resolve_ats(struct parser *ps)
{
	struct sched_scenario *sc = &ps->f->sc;
	int max = sc->nr_tasks + LEX_MAX_LINE;	/* one per task, or one per word */
	struct sched_command *cmd = xmalloc((size_t)max * sizeof(*cmd));

	for (int i = 0; i < ps->nr_ats; i++) {
		struct pending_at *a = &ps->at[i];
		struct lexer sub;
		int n;

		lex_sub(&sub, &ps->lx, &a->from, a->end);
		command_parse_lex(ps->f, &sub, cmd, max, &n);
		lex_join(&ps->lx, &sub);
		if (ps->lx.failed)
			break;
		struct lex_span where = { ps->lx.text + a->from.pos, 0, a->from.line,
					  (u32)(a->from.pos - a->from.bol + 1) };
		if (sc->nr_actions + n > MAX_ACTIONS) {
			lex_error(&ps->lx, &where, "more than %d actions in all", MAX_ACTIONS);
			break;
		}
		for (int k = 0; k < n; k++) {
			XGROW(sc->action, ps->cap_actions, sc->nr_actions);
			sc->action[sc->nr_actions++] = (struct sched_action){ a->time, cmd[k], a->from.line };
		}
	}
	free(cmd);
	return ps->lx.failed ? -1 : 0;
}

/* Check each `break` line against the tasks and CPUs, and keep its text. */
static int resolve_breaks(struct parser *ps)
{
	struct scenario_file *f = ps->f;
	struct breakpoint_scope scope;

	scenario_breakpoint_scope(f, &scope);
	for (int i = 0; i < ps->nr_breaks && !ps->lx.failed; i++) {
		struct pending_at *b = &ps->brk[i];
		struct lexer sub;
		struct breakpoint *bp;

		lex_sub(&sub, &ps->lx, &b->from, b->end);
		bp = breakpoint_parse_lex(&sub, &scope);
		lex_join(&ps->lx, &sub);
		if (!bp)
			break;
		breakpoint_free(bp);
		XGROW(f->brk, ps->cap_brk, f->nr_breaks);
		struct lex_span line = { ps->lx.text + b->from.pos, b->end - b->from.pos, b->from.line,
					 (u32)(b->from.pos - b->from.bol + 1) };
		if (ps->params.n && params_expand(&ps->lx, &line, &line) < 0)
			break;
		f->brk[f->nr_breaks].text = xstrndup(line.p, line.n);
		f->brk[f->nr_breaks++].line = b->from.line;
	}
	return ps->lx.failed ? -1 : 0;
}

static void list_task_names(struct parser *ps)
{
	struct scenario_file *f = ps->f;

	f->task_names = xmalloc(((size_t)f->sc.nr_tasks + 1) * sizeof(*f->task_names));
	for (int i = 0; i < f->sc.nr_tasks; i++)
		f->task_names[i] = f->sc.task[i].name;
	f->group_names = xmalloc(((size_t)f->sc.nr_groups + 1) * sizeof(*f->group_names));
	for (int g = 0; g < f->sc.nr_groups; g++)
		f->group_names[g] = f->sc.group[g].path;
}

void scenario_breakpoint_scope(const struct scenario_file *f, struct breakpoint_scope *out)
{
	*out = (struct breakpoint_scope){ f->task_names, f->sc.nr_tasks, f->group_names, f->sc.nr_groups,
					  f->topo.nr_cpus };
}

/* Sort by time, keeping file order among equal times. */
struct sort_key {
	u64 time;
	size_t index;
};

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void sort_by_time(void *base, size_t n, size_t size, size_t time_offset)
{
	struct sort_key *k;
	char *copy;

	if (n < 2)
		return;
	k = xmalloc(n * sizeof(*k));
	copy = xmalloc(n * size);
	for (size_t i = 0; i < n; i++) {
		memcpy(&k[i].time, (char *)base + i * size + time_offset, sizeof(u64));
		k[i].index = i;
	}
	qsort(k, n, sizeof(*k), cmp_key);
	memcpy(copy, base, n * size);
	for (size_t i = 0; i < n; i++)
		memcpy((char *)base + i * size, copy + k[i].index * size, size);
	free(k);
	free(copy);
}

static int finish(struct parser *ps)
{
	struct scenario_file *f = ps->f;
	struct sched_scenario *sc = &f->sc;

	struct lex_span start = { ps->lx.text, 0, 1, 1 };

	if (!ps->seen_line[S_TOPOLOGY])
		return lex_error(&ps->lx, &start, "missing 'topology' line");
	if (finish_params(ps) < 0)
		return -1;
	ensure_root_group(ps);
	if (check_cpus(ps) < 0 || program_resolve_wakes(&ps->programs, &ps->lx, sc) < 0 ||
	    resolve_ats(ps) < 0)
		return -1;
	list_task_names(ps);
	if (resolve_breaks(ps) < 0)
		return -1;
	sort_by_time(sc->action, (size_t)sc->nr_actions, sizeof(*sc->action),
		     offsetof(struct sched_action, time));
	sort_by_time(sc->note, (size_t)sc->nr_notes, sizeof(*sc->note), offsetof(struct sched_note, time));

	if (!f->kernel_given)
		sc->kernel = f->sched_given && sc->variant == SCHED_VARIANT_CFS ? CFS_DEFAULT_KERNEL : KV_LATEST;
	else if (!f->sched_given)
		sc->variant = sc->kernel < KV_FIRST_EEVDF ? SCHED_VARIANT_CFS : SCHED_VARIANT_EEVDF;
	sc->topo = &f->topo;
	return check_deadline_tasks(ps);
}

static void parser_free(struct parser *ps)
{
	free(ps->line);
	free(ps->named);
	free(ps->at);
	free(ps->brk);
	free(ps->task_names.e);
	free(ps->prog_names.e);
	free(ps->param_given);
	program_parser_free(&ps->programs);
	params_free(&ps->params);
}

/* --set KEY=VALUE overrides, after the file. */
static int apply_sets(struct scenario_file *f, const struct scenario_overrides *ov, char *err, size_t errlen)
{
	for (int i = 0; ov && i < ov->nr_sets; i++)
		if (scenario_set(f, ov->set[i], err, errlen) < 0)
			return -1;
	return 0;
}

int scenario_parse_with(const char *name, const char *text, size_t len, const struct scenario_overrides *ov,
			struct scenario_file *out, char *err, size_t errlen)
{
	struct parser ps = { .name = name, .f = out, .ov = ov };

	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", name);
	out->sc.hz = DEFAULT_HZ;
	out->sc.seed = DEFAULT_SEED;
	out->sc.noise = true;
	out->sc.duration = DEFAULT_DURATION;
	out->sc.variant = SCHED_VARIANT_EEVDF;
	out->sc.kernel = KV_LATEST;
	ps.own = xcalloc(1, sizeof(*ps.own));
	out->owned = ps.own;
	ps.programs.progs = &ps.own->progs;

	lex_init(&ps.lx, name, text, len, err, errlen);
	ps.lx.params = &ps.params;
	if (ov && ov->nr_params)
		ps.param_given = xcalloc((size_t)ov->nr_params, sizeof(bool));
	if (len > LEX_MAX_FILE) {
		struct lex_span start = { text, 0, 1, 1 };
		lex_error(&ps.lx, &start, "file is larger than %u MiB", LEX_MAX_FILE >> 20);
	}
	if (!ps.lx.failed && parse_lines(&ps) == 0)
		finish(&ps);
	parser_free(&ps);
	if (ps.lx.failed || apply_sets(out, ov, err, errlen) < 0) {
		scenario_free(out);
		return -1;
	}
	return 0;
}

int scenario_parse(const char *name, const char *text, size_t len, struct scenario_file *out, char *err,
		   size_t errlen)
{
	return scenario_parse_with(name, text, len, NULL, out, err, errlen);
}

int scenario_load_with(const char *path, const struct scenario_overrides *ov, struct scenario_file *out,
		       char *err, size_t errlen)
{
	char *text;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (lex_read_file(path, &text, &len, err, errlen) < 0)
		return -1;
	int r = scenario_parse_with(path, text, len, ov, out, err, errlen);
	free(text);
	return r;
}

int scenario_load(const char *path, struct scenario_file *out, char *err, size_t errlen)
{
	return scenario_load_with(path, NULL, out, err, errlen);
}

void scenario_free(struct scenario_file *f)
{
	struct scenario_owned *own = f->owned;
	struct sched_scenario *sc = &f->sc;

	if (own) {
		program_list_free(&own->progs);
		free(own);
	}
	for (int i = 0; i < sc->nr_notes; i++)
		free((char *)sc->note[i].text);
	free(sc->note);
	free(sc->group);
	free(sc->irq);
	free(sc->task);
	free(sc->wake_list);
	free(sc->sync);
	free(sc->action);
	free(f->expect);
	for (int i = 0; i < f->nr_vs; i++)
		free(f->vs[i].text);
	free(f->vs);
	free(f->diff_expect);
	free(f->param);
	free(f->task_names);
	free(f->group_names);
	for (int i = 0; i < f->nr_breaks; i++)
		free(f->brk[i].text);
	free(f->brk);
	topology_free(&f->topo);
	ext_policy_unload(&f->ext);
	memset(f, 0, sizeof(*f));
}

/* ---- --set KEY=VALUE ---- */

int scenario_set(struct scenario_file *f, const char *assignment, char *err, size_t errlen)
{
	return scenario_set_as(f, "--set", assignment, err, errlen);
}

int scenario_set_as(struct scenario_file *f, const char *what, const char *assignment, char *err,
		    size_t errlen)
{
	struct sched_scenario *sc = &f->sc;
	struct lexer lx;
	struct token t;
	u64 v;

	lex_init(&lx, what, assignment, strlen(assignment), err, errlen);
	lx.nopos = true;
	if (lex_next(&lx, &t) != TOK_KEYVAL) {
		if (!lx.failed)
			lex_error(&lx, &t.s, "expected KEY=VALUE, got '%s'", SNIP(&t.s));
		return -1;
	}
	if (lex_expect_eol(&lx) < 0)
		return -1;

	const struct lex_span *key = &t.key, *val = &t.val;
	if (span_is(key, "hz")) {
		u32 hz;
		if (parse_hz(&lx, val, &hz) < 0)
			return -1;
		sc->hz = hz;
	} else if (span_is(key, "seed")) {
		if (lex_u64(&lx, val, "seed", &v) < 0)
			return -1;
		sc->seed = v;
	} else if (span_is(key, "noise")) {
		if (parse_noise(&lx, val, &sc->noise) < 0)
			return -1;
	} else if (span_is(key, "duration")) {
		if (lex_duration(&lx, val, "duration", &v) < 0)
			return -1;
		if (!v)
			return lex_error(&lx, val, "duration must be above 0");
		sc->duration = v;
	} else if (span_is(key, "sched")) {
		int variant;
		if (parse_sched(&lx, val, &variant) < 0)
			return -1;
		if (variant == SCHED_VARIANT_EEVDF && f->kernel_given && sc->kernel < KV_FIRST_EEVDF)
			return eevdf_too_old(&lx, val, sc->kernel);
		if (span_is_ext(val) && f->kernel_given && sc->kernel < KV_FIRST_EXT)
			return ext_too_old(&lx, val, sc->kernel);
		if (set_ext_policy(&lx, val, "", f) < 0)
			return -1;
		sc->variant = variant;
		f->sched_given = true;
		if (!f->kernel_given) {
			sc->kernel = variant == SCHED_VARIANT_CFS ? CFS_DEFAULT_KERNEL : KV_LATEST;
			sc->kernel_stable = 0;
		}
	} else if (span_is(key, "kernel")) {
		int kv, stable;
		if (parse_kernel(&lx, val, &kv, &stable) < 0)
			return -1;
		if (f->sched_given && sc->variant == SCHED_VARIANT_EEVDF && kv < KV_FIRST_EEVDF)
			return eevdf_too_old(&lx, val, kv);
		if (sc->ext_ops && kv < KV_FIRST_EXT)
			return ext_too_old(&lx, val, kv);
		sc->kernel = kv;
		sc->kernel_stable = stable;
		f->kernel_given = true;
		if (!f->sched_given)
			sc->variant = kv < KV_FIRST_EEVDF ? SCHED_VARIANT_CFS : SCHED_VARIANT_EEVDF;
	} else if (span_is(key, "feature")) {
		int which;
		bool on;
		if (command_feature(&lx, val, &which, &on) < 0)
			return -1;
		set_feature(sc, which, on);
	} else {
		char name[64];
		int which;
		if (!span_copy(key, name, sizeof(name)) || sched_tunable_lookup(name) < 0)
			return lex_error(&lx, key,
					 "unknown key '%s' (expected a tunable, feature, hz, seed, "
					 "noise, duration, sched or kernel)",
					 SNIP(key));
		if (command_tunable(&lx, &t, &which, &v) < 0)
			return -1;
		sc->tunable[which] = v;
		sc->tunable_set[which] = true;
	}
	return 0;
}
