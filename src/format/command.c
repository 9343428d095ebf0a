// SPDX-License-Identifier: GPL-2.0
/* Run-time commands (`at` lines and the console): see command.h. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "group_parse.h"
#include "sched/api/sched.h"
#include "sched/api/topology.h"

#define MAX_PATTERN 256

static const char tunable_names[] = "base_slice, latency, min_granularity, wakeup_granularity, "
				    "idle_min_granularity, migration_cost, nr_migrate, tunable_scaling, "
				    "cfs_bandwidth_slice, shares_ratelimit, shares_thresh, sched_rt_period_us, sched_rt_runtime_us, sched_rr_timeslice_ms, "
				    "fair_server_runtime, fair_server_period, herd_threshold, herd_window";

int command_tunable(struct lexer *lx, const struct token *kv, int *which, u64 *value)
{
	static const char *const scaling[] = { "none", "log", "linear" };
	char key[64];
	int i = -1;

	if (span_copy(&kv->key, key, sizeof(key)))
		i = sched_tunable_lookup(key);
	if (i < 0)
		return lex_error(lx, &kv->key, "unknown tunable '%s' (expected %s)", SNIP(&kv->key),
				 tunable_names);

	const struct sched_tunable_desc *d = &sched_tunable_descs[i];
	u64 v = 0;
	bool named = false;
	/* sched_rt_runtime_us=-1 lifts the RT (and DL admission) limit */
	if (i == TUN_RT_RUNTIME && span_is(&kv->val, "-1")) {
		v = RUNTIME_INF;
		named = true;
	}
	if (i == TUN_TUNABLE_SCALING)
		for (u64 k = 0; k < ARRAY_SIZE(scaling); k++)
			if (span_is(&kv->val, scaling[k])) {
				v = k;
				named = true;
			}
	if (!named && (d->is_time ? lex_duration(lx, &kv->val, d->name, &v)
				  : lex_u64(lx, &kv->val, d->name, &v)) < 0)
		return -1;
	if (v < d->min || v > d->max) {
		char lo[32], hi[32];
		if (d->is_time) {
			format_duration(lo, sizeof(lo), d->min);
			format_duration(hi, sizeof(hi), d->max);
		} else {
			snprintf(lo, sizeof(lo), "%llu", (unsigned long long)d->min);
			snprintf(hi, sizeof(hi), "%llu", (unsigned long long)d->max);
		}
		return lex_error(lx, &kv->val, "%s '%s' is out of range (%s..%s)", d->name,
				 SNIP(&kv->val), lo, hi);
	}
	*which = i;
	*value = v;
	return 0;
}

int command_feature(struct lexer *lx, const struct lex_span *word, int *which, bool *on)
{
	struct lex_span name = *word;
	char buf[64];
	int i = -1;

	*on = !(name.n > 3 && !memcmp(name.p, "NO_", 3));
	if (!*on) {
		name.p += 3;
		name.n -= 3;
	}
	if (span_copy(&name, buf, sizeof(buf)))
		i = sched_feature_lookup(buf);
	if (i < 0)
		return lex_error(lx, word, "unknown feature '%s'", SNIP(word));
	*which = i;
	return 0;
}

int command_policy(struct lexer *lx, const struct lex_span *word, int *policy)
{
	*policy = sched_policy_lookup(word->p, word->n);
	if (*policy < 0)
		return lex_error(lx, word,
				 "unknown policy '%s' (expected normal, batch, idle, fifo, rr, "
				 "deadline or ext)",
				 SNIP(word));
	return 0;
}

static const char *const policy_keys[] = { "prio", "runtime", "deadline", "period" };

bool command_is_policy_key(const struct lex_span *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(policy_keys); i++)
		if (span_is(key, policy_keys[i]))
			return true;
	return false;
}

int command_policy_key(struct lexer *lx, const struct token *kv, struct policy_attr *a)
{
	s64 prio;

	if (span_is(&kv->key, "prio")) {
		if (lex_int(lx, &kv->val, "prio", 1, 99, &prio) < 0)
			return -1;
		a->rt_priority = (unsigned int)prio;
		a->prio_at = kv->key;
		return 0;
	}
	if (span_is(&kv->key, "runtime")) {
		a->runtime_at = kv->key;
		return lex_duration(lx, &kv->val, "runtime", &a->runtime);
	}
	if (span_is(&kv->key, "deadline")) {
		a->deadline_at = kv->key;
		return lex_duration(lx, &kv->val, "deadline", &a->deadline);
	}
	a->period_at = kv->key;
	return lex_duration(lx, &kv->val, "period", &a->period);
}

int command_policy_check(struct lexer *lx, const struct policy_attr *a)
{
	bool rt = a->policy == SCHED_FIFO || a->policy == SCHED_RR, dl = a->policy == SCHED_DEADLINE;
	const struct lex_span *at = a->policy_at.p ? &a->policy_at : NULL;
	char d1[32], d2[32];

	if (a->prio_at.p && !rt)
		return lex_error(lx, &a->prio_at, "prio= goes with policy fifo or rr (a fair task's "
				 "priority is its nice)");
	if (rt && !a->prio_at.p)
		return lex_error(lx, at, "policy %s needs prio=1..99", sched_policy_names[a->policy]);
	if (!dl) {
		const struct lex_span *k = a->runtime_at.p ? &a->runtime_at : a->deadline_at.p ? &a->deadline_at
					 : a->period_at.p ? &a->period_at : NULL;
		if (k)
			return lex_error(lx, k, "%s= goes with policy deadline", SNIP(k));
		return 0;
	}
	if (!a->runtime_at.p || !a->deadline_at.p)
		return lex_error(lx, at, "policy deadline needs runtime= and deadline= (and period=, "
				 "which defaults to the deadline)");
	if (a->runtime < 1024)
		return lex_error(lx, &a->runtime_at, "runtime must be at least 1024ns (2^DL_SCALE)");
	if (a->runtime > a->deadline) {
		format_duration(d1, sizeof(d1), a->runtime);
		format_duration(d2, sizeof(d2), a->deadline);
		return lex_error(lx, &a->runtime_at, "runtime %s is longer than the deadline %s "
				 "(need runtime <= deadline <= period)", d1, d2);
	}
	if (a->period_at.p && a->deadline > a->period) {
		format_duration(d1, sizeof(d1), a->deadline);
		format_duration(d2, sizeof(d2), a->period);
		return lex_error(lx, &a->deadline_at, "deadline %s is longer than the period %s "
				 "(need runtime <= deadline <= period)", d1, d2);
	}
	if (!sched_dl_params_valid(a->runtime, a->deadline, a->period))
		return lex_error(lx, a->period_at.p ? &a->period_at : &a->deadline_at,
				 "the period must be within 100us..4.194304s (sched_deadline_period_min_us.."
				 "sched_deadline_period_max_us)");
	return 0;
}

int command_slice(struct lexer *lx, const struct lex_span *word, bool allow_default, u64 *slice)
{
	if (allow_default && span_is(word, "default")) {
		*slice = 0;
		return 0;
	}
	if (lex_duration(lx, word, "slice", slice) < 0)
		return -1;
	if (allow_default && *slice == 0)
		return 0;
	if (*slice < SLICE_MIN || *slice > SLICE_MAX)
		return lex_error(lx, word, "slice '%s' is out of range (100us..100ms)", SNIP(word));
	return 0;
}

/* The next token must be a word: what the command needs next. */
static int need_word(struct lexer *lx, const char *what, struct token *t)
{
	if (lex_next(lx, t) == TOK_WORD)
		return 0;
	if (lx->failed)
		return -1;
	if (t->type == TOK_NEWLINE || t->type == TOK_EOF)
		return lex_error(lx, &t->s, "missing %s", what);
	return lex_error(lx, &t->s, "expected %s, got '%s'", what, SNIP(&t->s));
}

static int push(struct lexer *lx, const struct lex_span *at, struct sched_command *out, int max,
		int *n, struct sched_command c)
{
	if (*n >= max)
		return lex_error(lx, at, "'%s' makes more than %d commands", SNIP(at), max);
	out[(*n)++] = c;
	return 0;
}

/* One command per task matching the pattern, in task order. */
static int per_task(const struct scenario_file *f, struct lexer *lx, const struct lex_span *pat,
		    struct sched_command proto, struct sched_command *out, int max, int *n)
{
	char p[MAX_PATTERN];
	int found = 0;

	if (!span_copy(pat, p, sizeof(p)))
		return lex_error(lx, pat, "task pattern '%s' is too long", SNIP(pat));
	bool glob = strpbrk(p, "*?[\\") != NULL;
	for (int i = 0; i < f->sc.nr_tasks; i++) {
		const char *name = f->sc.task[i].name;
		if (glob ? fnmatch(p, name, 0) != 0 : strcmp(p, name) != 0)
			continue;
		proto.task = i;
		if (push(lx, pat, out, max, n, proto) < 0)
			return -1;
		found++;
	}
	if (!found)
		return lex_error(lx, pat, "no task matches '%s'", SNIP(pat));
	return 0;
}

/* A CPU list as the task line's cpus= takes it; commas are punctuation here, so 0-3,8 is three tokens. */
static int cpu_list(const struct scenario_file *f, struct lexer *lx, const struct token *first,
		    struct sched_command *c)
{
	struct token t = *first, comma;

	for (;;) {
		struct cpumask m;

		if (lex_cpulist(lx, &t.s, f->topo.nr_cpus, &m) < 0)
			return -1;
		for (int w = 0; w < CPUMASK_WORDS; w++)
			c->cpus.bits[w] |= m.bits[w];
		if (lex_peek(lx, &comma) != TOK_PUNCT || !span_is(&comma.s, ","))
			break;
		lex_next(lx, &comma);
		if (need_word(lx, "a CPU or range after ','", &t) < 0)
			return -1;
	}
	c->value = cpumask_weight(&c->cpus);
	return 0;
}

static int set_task(const struct scenario_file *f, struct lexer *lx, const struct token *what,
		    struct sched_command *out, int max, int *n)
{
	struct sched_command c = { 0 };
	struct token pat, v;
	s64 nice;

	if (need_word(lx, "a task name or pattern", &pat) < 0 || need_word(lx, "a value", &v) < 0)
		return -1;
	if (span_is(&what->s, "nice")) {
		c.kind = CMD_SET_NICE;
		if (lex_int(lx, &v.s, "nice", -20, 19, &nice) < 0)
			return -1;
		c.value = nice;
	} else if (span_is(&what->s, "slice")) {
		u64 slice;
		c.kind = CMD_SET_SLICE;
		if (command_slice(lx, &v.s, true, &slice) < 0)
			return -1;
		c.value = (s64)slice;
	} else if (span_is(&what->s, "cpus")) {
		c.kind = CMD_SET_CPUS;
		if (cpu_list(f, lx, &v, &c) < 0)
			return -1;
	} else {
		struct policy_attr a = { .policy_at = v.s };
		struct token kv;

		c.kind = CMD_SET_POLICY;
		if (command_policy(lx, &v.s, &a.policy) < 0)
			return -1;
		while (lex_peek(lx, &kv) == TOK_KEYVAL) {
			lex_next(lx, &kv);
			if (!command_is_policy_key(&kv.key))
				return lex_error(lx, &kv.key, "unknown key '%s' (expected prio, runtime, "
						 "deadline or period)", SNIP(&kv.key));
			if (command_policy_key(lx, &kv, &a) < 0)
				return -1;
		}
		if (lx->failed || command_policy_check(lx, &a) < 0)
			return -1;
		c.key = a.policy;
		c.value = a.rt_priority;
		c.dl.runtime = a.runtime;
		c.dl.deadline = a.deadline;
		c.dl.period = a.period;
	}
	int first = *n;

	if (per_task(f, lx, &pat.s, c, out, max, n) < 0)
		return -1;
	/* sched_setaffinity() fails with EBUSY for a deadline task not allowed everywhere */
	for (int i = first; c.kind == CMD_SET_CPUS && i < *n; i++)
		if (f->sc.task[out[i].task].policy == SCHED_DEADLINE && c.value < f->topo.nr_cpus)
			return lex_error(lx, &pat.s,
					 "'%s' is a deadline task: its affinity must include "
					 "every CPU (sched_setaffinity() fails with EBUSY)",
					 f->sc.task[out[i].task].name);
	return 0;
}

static int set_tunables(struct lexer *lx, struct sched_command *out, int max, int *n)
{
	struct token t;
	int count = 0;

	while (lex_peek(lx, &t) == TOK_KEYVAL) {
		int which;
		u64 v;
		lex_next(lx, &t);
		if (command_tunable(lx, &t, &which, &v) < 0 ||
		    push(lx, &t.s, out, max, n, (struct sched_command){
				.kind = CMD_SET_TUNABLE, .task = -1, .key = which,
				.value = (s64)v }) < 0)
			return -1;
		count++;
	}
	if (!count) {
		lex_next(lx, &t);
		return lex_error(lx, &t.s, "expected KEY=VALUE after 'set tunable'");
	}
	return 0;
}

static int set_features(struct lexer *lx, struct sched_command *out, int max, int *n)
{
	struct token t;
	int count = 0;

	while (lex_peek(lx, &t) == TOK_WORD) {
		int which;
		bool on;
		lex_next(lx, &t);
		if (command_feature(lx, &t.s, &which, &on) < 0 ||
		    push(lx, &t.s, out, max, n, (struct sched_command){
				.kind = CMD_SET_FEATURE, .task = -1, .key = which, .value = on }) < 0)
			return -1;
		count++;
	}
	if (!count) {
		lex_next(lx, &t);
		return lex_error(lx, &t.s, "expected a feature name after 'set feature'");
	}
	return 0;
}

/* set group PATH cpu.ATTR=VALUE...: one command per attribute, checked as the scenario's. */
static int set_group(const struct scenario_file *f, struct lexer *lx, struct sched_command *out,
		     int max, int *n)
{
	struct token path, t;
	struct sched_group_spec g;
	int group, count = 0;

	if (need_word(lx, "a group path", &path) < 0 || (group = group_find(lx, &f->sc, &path.s)) < 0)
		return -1;
	if (group == 0)
		return lex_error(lx, &path.s, "the root group has no cpu.* attributes");
	g = f->sc.group[group];
	while (lex_peek(lx, &t) == TOK_KEYVAL) {
		struct sched_command c = { .task = -1, .key = group };
		lex_next(lx, &t);
		if (group_attr_parse(lx, &t, &c) < 0 || group_attr_apply(lx, &t, &g, &c) < 0 ||
		    push(lx, &t.s, out, max, n, c) < 0)
			return -1;
		count++;
	}
	if (!count) {
		lex_next(lx, &t);
		return lex_error(lx, &t.s, "expected cpu.ATTRIBUTE=VALUE after 'set group %s'", SNIP(&path.s));
	}
	return 0;
}

/* move task PATTERN to PATH */
static int move_task(const struct scenario_file *f, struct lexer *lx, struct sched_command *out,
		     int max, int *n)
{
	struct token what, pat, to, path;
	int group;

	if (need_word(lx, "'task'", &what) < 0)
		return -1;
	if (!span_is(&what.s, "task"))
		return lex_error(lx, &what.s, "expected 'move task PATTERN to PATH'");
	if (need_word(lx, "a task name or pattern", &pat) < 0 || need_word(lx, "'to'", &to) < 0)
		return -1;
	if (!span_is(&to.s, "to"))
		return lex_error(lx, &to.s, "expected 'to' before the group path");
	if (need_word(lx, "a group path", &path) < 0 || (group = group_find(lx, &f->sc, &path.s)) < 0)
		return -1;
	return per_task(f, lx, &pat.s, (struct sched_command){ .kind = CMD_MOVE_TASK, .key = group },
			out, max, n);
}

int command_parse_lex(const struct scenario_file *f, struct lexer *lx, struct sched_command *out,
		      int max, int *n)
{
	struct token verb, what;
	int r;

	*n = 0;
	if (need_word(lx, "a command", &verb) < 0)
		goto fail;
	if (span_is(&verb.s, "move")) {
		r = move_task(f, lx, out, max, n);
		goto end;
	}
	if (!span_is(&verb.s, "set")) {
		lex_error(lx, &verb.s, "unknown command '%s' (expected set or move)", SNIP(&verb.s));
		goto fail;
	}
	if (need_word(lx, "what to set", &what) < 0)
		goto fail;
	if (span_is(&what.s, "nice") || span_is(&what.s, "slice") || span_is(&what.s, "policy") ||
	    span_is(&what.s, "cpus"))
		r = set_task(f, lx, &what, out, max, n);
	else if (span_is(&what.s, "tunable"))
		r = set_tunables(lx, out, max, n);
	else if (span_is(&what.s, "feature"))
		r = set_features(lx, out, max, n);
	else if (span_is(&what.s, "group"))
		r = set_group(f, lx, out, max, n);
	else
		r = lex_error(lx, &what.s,
			      "cannot set '%s' (expected nice, slice, policy, cpus, group, "
			      "tunable or feature)",
			      SNIP(&what.s));
end:
	if (r < 0 || lex_expect_eol(lx) < 0)
		goto fail;
	return 0;
fail:
	*n = 0;
	return -1;
}

int command_parse(const struct scenario_file *f, const char *text, struct sched_command *out,
		  int max, int *n, char *err, size_t errlen)
{
	struct lexer lx;

	*n = 0;
	lex_init(&lx, NULL, text, strlen(text), err, errlen);
	if (lx.failed || command_parse_lex(f, &lx, out, max, n) < 0)
		return -1;
	struct token t;
	if (lex_next(&lx, &t) != TOK_EOF || lx.failed) {
		lex_error(&lx, &t.s, "one command per line");
		*n = 0;
		return -1;
	}
	return 0;
}
