// SPDX-License-Identifier: GPL-2.0
/* Breakpoint expressions over the event stream: see breakpoint.h. */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakpoint.h"
#include "src/base/mem.h"

#define MAX_PATTERN 256
#define NO_WAKEUP (~0ULL)

enum cond_kind {
	C_AT, C_SWITCH, C_WAKEUP, C_MIGRATE, C_FORK, C_EXIT, C_PREEMPT, C_LATENCY, C_NICE, C_NOTE,
	C_EVENT, C_THROTTLE, C_UNTHROTTLE, C_BALANCE, C_HERD, NR_COND_KINDS
};

/* The keys a condition may take; each names a task set, a group set, a CPU list or a level. */
enum cond_key { K_TASK, K_PREV, K_NEXT, K_CPU, K_FROM, K_TO, K_GROUP, K_LEVEL, NR_KEYS };

/* as completion offers them: the key and its '=' */
static const char *const key_names[NR_KEYS] = { "task=", "prev=", "next=",  "cpu=",
						"from=", "to=",	  "group=", "level=" };

static bool key_is(const struct lex_span *s, int k)
{
	return s->n + 1 == strlen(key_names[k]) && !strncmp(s->p, key_names[k], s->n);
}

static const struct {
	const char *name;
	unsigned keys;		/* 1 << enum cond_key */
	const char *expected;	/* for "unknown key" messages */
} kinds[NR_COND_KINDS] = {
	[C_AT] = { "at", 0, NULL },
	[C_SWITCH] = { "switch", 1 << K_CPU | 1 << K_PREV | 1 << K_NEXT | 1 << K_TASK,
		       "cpu, prev, next or task" },
	[C_WAKEUP] = { "wakeup", 1 << K_TASK | 1 << K_CPU, "task or cpu" },
	[C_MIGRATE] = { "migrate", 1 << K_TASK | 1 << K_FROM | 1 << K_TO, "task, from or to" },
	[C_FORK] = { "fork", 1 << K_TASK, "task" },
	[C_EXIT] = { "exit", 1 << K_TASK, "task" },
	[C_PREEMPT] = { "preempt", 1 << K_TASK | 1 << K_CPU, "task or cpu" },
	[C_LATENCY] = { "wakeup_latency", 1 << K_TASK, "task" },
	[C_NICE] = { "nice", 1 << K_TASK, "task" },
	[C_NOTE] = { "note", 0, NULL },
	[C_EVENT] = { "event", 0, NULL },
	[C_THROTTLE] = { "throttle", 1 << K_GROUP | 1 << K_CPU, "group or cpu" },
	[C_UNTHROTTLE] = { "unthrottle", 1 << K_GROUP | 1 << K_CPU, "group or cpu" },
	[C_BALANCE] = { "balance", 1 << K_CPU | 1 << K_LEVEL, "cpu or level" },
	[C_HERD] = { "herd", 0, NULL },
};

static const char cond_names[] = "at, switch, wakeup, migrate, fork, exit, preempt, "
				 "wakeup_latency, nice, note, event, throttle, unthrottle, "
				 "balance or herd";

enum cmp_op { OP_GT, OP_GE, OP_LT, OP_LE, OP_EQ };
static const char *const op_names[] = { ">", ">=", "<", "<=", "=" };

enum at_state { AT_UNSEEN, AT_ARMED, AT_SPENT };

struct cond {
	u8 kind;		/* enum cond_kind */
	u8 op;			/* C_LATENCY: enum cmp_op */
	u8 at;			/* C_AT: enum at_state */
	bool has_cmp;		/* C_BALANCE: `moved OP N` given */
	u16 ev_type;		/* C_EVENT */
	u64 ns;			/* C_AT: the time; C_LATENCY: the duration; C_BALANCE: N */
	s32 set[NR_KEYS];	/* task and group keys: word offset into bp->bits; CPU keys:
				   index into bp->masks; level: enum sd_level_name; -1
				   when not given (anything) */
};

/* The expression in postfix: condition indices, and the two operators. */
enum { PROG_AND = 0xfe, PROG_OR = 0xff };

/* Per-task state of the wakeup latency tracker. */
enum { TS_UNKNOWN, TS_RUNNING, TS_OFF };

struct breakpoint {
	char *text;
	int nr_tasks, nr_cpus, nr_groups;
	int words;			/* u64 words in one task bitmap (pids 0..nr_tasks) */
	int gwords;			/* u64 words in one group bitmap */

	struct cond cond[BREAKPOINT_MAX_CONDS];
	int nr_cond;
	u8 prog[2 * BREAKPOINT_MAX_CONDS];
	int nr_prog;
	bool has_at, has_latency;

	u64 *bits;			/* task bitmaps, `words` each */
	int nr_bits;			/* words used */
	size_t cap_bits;
	struct cpumask *masks;
	int nr_masks;
	size_t cap_masks;

	/* wakeup latency tracker, indexed by pid (has_latency only) */
	u64 *woken_at;
	u8 *state;

	/* the last event tested: which conditions held, the latency it measured */
	bool tested;
	u64 last_seq;
	u64 last_true;			/* bit i: cond[i] held */
	bool lat_valid;
	u64 lat;
};

/* ---- parsing ---- */

struct parser {
	struct lexer *lx;
	struct breakpoint *bp;
	const char *const *names;
	const char *const *group_names;
	struct token t;		/* the current token */
	const char *first;	/* start of the first token */
	const char *last;	/* end of the last token consumed */
	int depth;
	const struct cond *last_cond; /* the condition parsed last, for "expected ..." */
};

static bool at_end(const struct token *t)
{
	return t->type == TOK_EOF || t->type == TOK_NEWLINE;
}

/* Move to the next token. The lexer runs an unquoted value of key=value to
 * the next blank; a ')' in it closes a group and is left for the next token
 * (task names and CPU lists never hold one). */
static void advance(struct parser *p)
{
	/* the end of the token in the text as written (a ${NAME}'s value is elsewhere) */
	if (!at_end(&p->t) && p->t.s.n)
		p->last = p->lx->text + p->lx->at.pos;
	lex_next(p->lx, &p->t);

	struct token *t = &p->t;
	if (t->type != TOK_KEYVAL || t->quoted)
		return;
	const char *close = memchr(t->val.p, ')', t->val.n);
	if (!close || close == t->val.p)
		return;
	size_t cut = t->val.n - (size_t)(close - t->val.p);
	t->val.n -= cut;
	t->s.n -= cut;
	p->lx->at.pos -= cut;
}

/* A task pattern into a new bitmap of pids; returns its offset, -1 on error. */
/*
 * A name pattern (task or group) into a new bitmap of `words` words: the
 * pattern text is unquoted into pat, the zeroed bitmap returned at *set.
 * Returns its offset in bp->bits, -1 on error.
 */
static s32 new_pattern_set(struct parser *p, const struct token *kv, const char *what, int words,
			   char pat[MAX_PATTERN], u64 **set)
{
	struct breakpoint *bp = p->bp;
	const struct lex_span *v = &kv->val;

	if (v->n >= MAX_PATTERN)
		return lex_error(p->lx, v, "%s pattern '%s' is too long", what, SNIP(v));
	if (kv->quoted)
		lex_unquote(v, pat);
	else
		span_copy(v, pat, MAX_PATTERN);

	XGROW(bp->bits, bp->cap_bits, bp->nr_bits + words - 1);
	s32 off = bp->nr_bits;
	*set = bp->bits + off;
	memset(*set, 0, (size_t)words * sizeof(u64));
	bp->nr_bits += words;
	return off;
}

/* A task pattern into a new bitmap of pids; returns its offset, -1 on error. */
static s32 parse_pattern(struct parser *p, const struct token *kv)
{
	struct breakpoint *bp = p->bp;
	char pat[MAX_PATTERN];
	u64 *set;
	s32 off = new_pattern_set(p, kv, "task", bp->words, pat, &set);
	int found = 0;

	if (off < 0)
		return -1;
	bool glob = strpbrk(pat, "*?[\\") != NULL;
	for (int i = 0; i < bp->nr_tasks; i++) {
		const char *name = p->names[i];
		if (!name || (glob ? fnmatch(pat, name, 0) != 0 : strcmp(pat, name) != 0))
			continue;
		int pid = i + 1;
		set[pid / 64] |= 1ULL << (pid % 64);
		found++;
	}
	if (!found)
		return lex_error(p->lx, &kv->val, "no task matches '%s'", SNIP(&kv->val));
	return off;
}

/* A group path glob (a '*' stays within one level) into a new bitmap of group indices. */
static s32 parse_group_pattern(struct parser *p, const struct token *kv)
{
	struct breakpoint *bp = p->bp;
	char pat[MAX_PATTERN];
	u64 *set;
	s32 off = new_pattern_set(p, kv, "group", bp->gwords, pat, &set);
	int found = 0;

	if (off < 0)
		return -1;
	for (int g = 0; g < bp->nr_groups; g++) {
		if (!p->group_names[g] || fnmatch(pat, p->group_names[g], FNM_PATHNAME) != 0)
			continue;
		set[g / 64] |= 1ULL << (g % 64);
		found++;
	}
	if (!found)
		return lex_error(p->lx, &kv->val, "no group matches '%s'", SNIP(&kv->val));
	return off;
}

static s32 parse_cpus(struct parser *p, const struct token *kv)
{
	struct breakpoint *bp = p->bp;
	struct cpumask mask;

	if (lex_cpulist(p->lx, &kv->val, bp->nr_cpus, &mask) < 0)
		return -1;
	XGROW(bp->masks, bp->cap_masks, bp->nr_masks);
	bp->masks[bp->nr_masks] = mask;
	return bp->nr_masks++;
}

/* The current token must be a word: what the condition needs next. */
static int need_word(struct parser *p, const char *what, const char *after)
{
	if (p->t.type == TOK_WORD)
		return 0;
	if (p->lx->failed)
		return -1;
	if (at_end(&p->t))
		return lex_error(p->lx, &p->t.s, "missing %s after '%s'", what, after);
	return lex_error(p->lx, &p->t.s, "expected %s after '%s', got '%s'", what, after,
			 SNIP(&p->t.s));
}

/* A domain level name (SMT, CLS, MC, PKG, NODE, NUMA): its enum sd_level_name. */
static s32 parse_level(struct parser *p, const struct token *kv)
{
	for (int i = 0; i < NR_SD_LEVEL_NAMES; i++)
		if (span_is(&kv->val, sd_level_names[i]))
			return i;
	return lex_error(p->lx, &kv->val, "unknown level '%s' (expected SMT, CLS, MC, PKG, NODE or NUMA)",
			 SNIP(&kv->val));
}

/* `moved OP N` after balance's keys: how many tasks the attempt moved. */
static int parse_moved(struct parser *p, struct cond *c)
{
	int op = -1;
	u64 n = 0;

	if (c->has_cmp)
		return lex_error(p->lx, &p->t.s, "'moved' given twice");
	advance(p);
	if (p->t.type == TOK_PUNCT)
		for (int i = 0; i < (int)ARRAY_SIZE(op_names); i++)
			if (span_is(&p->t.s, op_names[i]))
				op = i;
	if (op < 0) {
		if (p->lx->failed)
			return -1;
		return lex_error(p->lx, &p->t.s, "expected a comparison (> >= < <= =) after 'moved'");
	}
	advance(p);
	if (need_word(p, "a count", op_names[op]) < 0)
		return -1;
	for (size_t i = 0; i < p->t.s.n; i++) {
		if (p->t.s.p[i] < '0' || p->t.s.p[i] > '9' || n > 100000)
			return lex_error(p->lx, &p->t.s, "bad count '%s' (a number of tasks)", SNIP(&p->t.s));
		n = n * 10 + (u64)(p->t.s.p[i] - '0');
	}
	c->op = (u8)op;
	c->ns = n;
	c->has_cmp = true;
	advance(p);
	return 0;
}

static int parse_keys(struct parser *p, struct cond *c, const struct token *word)
{
	unsigned allowed = kinds[c->kind].keys;

	while (p->t.type == TOK_KEYVAL) {
		const struct token kv = p->t;
		int k = 0;

		while (k < NR_KEYS && !key_is(&kv.key, k))
			k++;
		if (k == NR_KEYS || !(allowed & 1u << k)) {
			if (!allowed)
				return lex_error(p->lx, &kv.s, "'%s' takes no KEY=VALUE, got '%s'",
						 kinds[c->kind].name, SNIP(&kv.s));
			return lex_error(p->lx, &kv.key, "unknown key '%s' for %s (expected %s)",
					 SNIP(&kv.key), kinds[c->kind].name, kinds[c->kind].expected);
		}
		if (c->set[k] >= 0)
			return lex_error(p->lx, &kv.key, "duplicate key '%s'", SNIP(&kv.key));
		s32 r = k <= K_NEXT ? parse_pattern(p, &kv) : k == K_GROUP ? parse_group_pattern(p, &kv)
			: k == K_LEVEL ? parse_level(p, &kv) : parse_cpus(p, &kv);
		if (r < 0)
			return -1;
		c->set[k] = r;
		advance(p);
	}
	return 0;
}

static int emit(struct parser *p, u8 op)
{
	/* at most 2 * BREAKPOINT_MAX_CONDS - 1 entries: conditions are counted first */
	p->bp->prog[p->bp->nr_prog++] = op;
	return 0;
}

static int parse_cond(struct parser *p)
{
	struct breakpoint *bp = p->bp;
	const struct token word = p->t;
	int kind = 0;

	while (kind < NR_COND_KINDS && !span_is(&word.s, kinds[kind].name))
		kind++;
	if (kind == NR_COND_KINDS)
		return lex_error(p->lx, &word.s, "unknown condition '%s' (expected %s)", SNIP(&word.s),
				 cond_names);
	if (bp->nr_cond == BREAKPOINT_MAX_CONDS)
		return lex_error(p->lx, &word.s, "more than %d conditions at '%s'",
				 BREAKPOINT_MAX_CONDS, SNIP(&word.s));

	struct cond *c = &bp->cond[bp->nr_cond];
	memset(c, 0, sizeof(*c));
	c->kind = (u8)kind;
	for (int k = 0; k < NR_KEYS; k++)
		c->set[k] = -1;
	advance(p);

	switch (kind) {
	case C_AT:
		if (need_word(p, "a time", "at") < 0 || lex_duration(p->lx, &p->t.s, "time", &c->ns) < 0)
			return -1;
		advance(p);
		bp->has_at = true;
		break;
	case C_LATENCY: {
		int op = -1;
		/* KEY=VALUE may come before the comparison as well as after it */
		if (parse_keys(p, c, &word) < 0)
			return -1;
		if (p->t.type == TOK_PUNCT)
			for (int i = 0; i < (int)ARRAY_SIZE(op_names); i++)
				if (span_is(&p->t.s, op_names[i]))
					op = i;
		if (op < 0) {
			if (p->lx->failed)
				return -1;
			if (at_end(&p->t))
				return lex_error(p->lx, &p->t.s,
						 "missing a comparison (> >= < <= =) after 'wakeup_latency'");
			return lex_error(p->lx, &p->t.s, "expected a comparison (> >= < <= =) after "
					 "'wakeup_latency', got '%s'", SNIP(&p->t.s));
		}
		c->op = (u8)op;
		advance(p);
		if (need_word(p, "a duration", op_names[op]) < 0 ||
		    lex_duration(p->lx, &p->t.s, "latency", &c->ns) < 0)
			return -1;
		advance(p);
		bp->has_latency = true;
		break;
	}
	case C_EVENT: {
		int i = 0;
		if (need_word(p, "an event name", "event") < 0)
			return -1;
		while (i < NR_SCHED_EVENTS && !span_is(&p->t.s, sched_event_names[i]))
			i++;
		if (i == NR_SCHED_EVENTS) {
			char list[512];
			size_t k = 0;
			for (int e = 0; e < NR_SCHED_EVENTS && k < sizeof(list); e++)
				k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s",
						      e ? ", " : "", sched_event_names[e]);
			return lex_error(p->lx, &p->t.s, "unknown event '%s' (expected %s)",
					 SNIP(&p->t.s), list);
		}
		c->ev_type = (u16)i;
		advance(p);
		break;
	}
	default:
		break;
	}
	if (parse_keys(p, c, &word) < 0)
		return -1;
	/* balance's keys come before 'moved OP N', after it, or both */
	while (kind == C_BALANCE && tok_is(&p->t, TOK_WORD, "moved"))
		if (parse_moved(p, c) < 0 || parse_keys(p, c, &word) < 0)
			return -1;
	p->last_cond = c;
	bp->nr_cond++;
	return emit(p, (u8)(bp->nr_cond - 1));
}

/* The words that may follow a condition of this kind: its keys, then "moved" for balance. */
static const char *cond_word(int kind, int i)
{
	for (int k = 0; k < NR_KEYS; k++)
		if (kinds[kind].keys & 1u << k && i-- == 0)
			return key_names[k];
	return kind == C_BALANCE && i == 0 ? "moved" : NULL;
}

/* "cpu=, level=, moved, 'and'" : what could have come after the last
 * condition (the keys it has not had yet), for "expected ..." messages. */
static const char *expected_after(const struct parser *p, const char *end, char *buf, size_t len)
{
	const struct cond *c = p->last_cond;
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; c && cond_word(c->kind, i); i++) {
		const char *w = cond_word(c->kind, i);
		int k = 0;

		while (k < NR_KEYS && w != key_names[k])
			k++;
		if (k < NR_KEYS ? c->set[k] >= 0 : c->has_cmp)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k < NR_KEYS ? w : "moved OP N", ", ");
		if (n >= len)
			break;
	}
	snprintf(buf + MIN(n, len - 1), len - MIN(n, len - 1), "%s", end);
	return buf;
}

static int parse_or(struct parser *p);

static int parse_primary(struct parser *p, const char *after)
{
	if (p->lx->failed)
		return -1;
	if (p->t.type == TOK_WORD)
		return parse_cond(p);
	if (p->t.type == TOK_PUNCT && span_is(&p->t.s, "(")) {
		const struct token open = p->t;
		if (p->depth == BREAKPOINT_MAX_DEPTH)
			return lex_error(p->lx, &open.s, "parentheses nested more than %d deep",
					 BREAKPOINT_MAX_DEPTH);
		p->depth++;
		advance(p);
		if (parse_or(p) < 0)
			return -1;
		if (!(p->t.type == TOK_PUNCT && span_is(&p->t.s, ")"))) {
			if (p->lx->failed)
				return -1;
			if (at_end(&p->t))
				return lex_error(p->lx, &open.s, "unclosed '('");
			char exp[128];
			if (p->t.type == TOK_WORD)
				return lex_error(p->lx, &p->t.s, "expected %s before '%s'",
						 expected_after(p, "'and', 'or' or ')'", exp, sizeof(exp)),
						 SNIP(&p->t.s));
			return lex_error(p->lx, &p->t.s, "unexpected '%s'", SNIP(&p->t.s));
		}
		p->depth--;
		p->last_cond = NULL; /* nothing of it can follow its ')' */
		advance(p);
		return 0;
	}
	if (at_end(&p->t)) {
		if (after)
			return lex_error(p->lx, &p->t.s, "missing a condition after '%s'", after);
		return lex_error(p->lx, &p->t.s, "missing a condition (expected %s)", cond_names);
	}
	return lex_error(p->lx, &p->t.s, "expected a condition, got '%s'", SNIP(&p->t.s));
}

static int parse_and(struct parser *p, const char *after)
{
	if (parse_primary(p, after) < 0)
		return -1;
	while (tok_is(&p->t, TOK_WORD, "and")) {
		advance(p);
		if (parse_primary(p, "and") < 0 || emit(p, PROG_AND) < 0)
			return -1;
	}
	return 0;
}

static int parse_or(struct parser *p)
{
	if (parse_and(p, p->depth ? "(" : NULL) < 0)
		return -1;
	while (tok_is(&p->t, TOK_WORD, "or")) {
		advance(p);
		if (parse_and(p, "or") < 0 || emit(p, PROG_OR) < 0)
			return -1;
	}
	return 0;
}

const char *breakpoint_cond_name(int i)
{
	return i >= 0 && i < NR_COND_KINDS ? kinds[i].name : NULL;
}

const char *breakpoint_cond_word(const char *kind, int i)
{
	for (int k = 0; k < NR_COND_KINDS; k++)
		if (!strcmp(kind, kinds[k].name))
			return i >= 0 ? cond_word(k, i) : NULL;
	return NULL;
}

const char *breakpoint_key_value(const char *key, int i)
{
	if (strcmp(key, "level") || i < 0 || i >= NR_SD_LEVEL_NAMES)
		return NULL;
	return sd_level_names[i];
}

void breakpoint_free(struct breakpoint *bp)
{
	if (!bp)
		return;
	free(bp->text);
	free(bp->bits);
	free(bp->masks);
	free(bp->woken_at);
	free(bp->state);
	free(bp);
}

struct breakpoint *breakpoint_parse_lex(struct lexer *lx, const struct breakpoint_scope *scope)
{
	struct breakpoint *bp = xcalloc(1, sizeof(*bp));
	struct parser p = { .lx = lx, .bp = bp, .names = scope->task_names, .group_names = scope->group_names };
	const char *const *task_names = scope->task_names;
	int nr_tasks = scope->nr_tasks, nr_cpus = scope->nr_cpus;

	if (nr_tasks < 0 || !task_names)
		nr_tasks = 0;
	bp->nr_tasks = nr_tasks;
	bp->nr_cpus = MAX(0, MIN(nr_cpus, SCHED_MAX_CPUS));
	bp->words = nr_tasks / 64 + 1;
	bp->nr_groups = scope->group_names ? MAX(0, scope->nr_groups) : 0;
	bp->gwords = bp->nr_groups / 64 + 1;

	p.first = lx->text + lx->at.pos;
	advance(&p);
	while (p.first < lx->text + lx->end && (*p.first == ' ' || *p.first == '\t'))
		p.first++;
	p.last = p.first;
	if (parse_or(&p) < 0)
		goto fail;
	if (!at_end(&p.t)) {
		char exp[128];
		if (p.t.type == TOK_WORD)
			lex_error(lx, &p.t.s, "expected %s before '%s'",
				  expected_after(&p, "'and' or 'or'", exp, sizeof(exp)), SNIP(&p.t.s));
		else
			lex_error(lx, &p.t.s, "unexpected '%s'", SNIP(&p.t.s));
		goto fail;
	}
	if (lx->failed)
		goto fail;

	size_t n = (size_t)(p.last - p.first);
	bp->text = xmalloc(n + 1);
	memcpy(bp->text, p.first, n);
	bp->text[n] = 0;

	if (bp->has_latency) {
		bp->woken_at = xmalloc(((size_t)nr_tasks + 1) * sizeof(*bp->woken_at));
		bp->state = xmalloc((size_t)nr_tasks + 1);
	}
	breakpoint_reset(bp);
	return bp;
fail:
	breakpoint_free(bp);
	return NULL;
}

struct breakpoint *breakpoint_parse(const char *text, const struct breakpoint_scope *scope, char *err,
				    size_t errlen)
{
	struct lexer lx;

	lex_init(&lx, NULL, text, strlen(text), err, errlen);
	if (lx.failed)
		return NULL;
	struct breakpoint *bp = breakpoint_parse_lex(&lx, scope);
	if (!bp)
		return NULL;
	struct token t;
	if (lex_next(&lx, &t) != TOK_EOF || lx.failed) {
		lex_error(&lx, &t.s, "one breakpoint per line");
		breakpoint_free(bp);
		return NULL;
	}
	return bp;
}

/* ---- testing events ---- */

void breakpoint_reset(struct breakpoint *bp)
{
	for (int i = 0; i < bp->nr_cond; i++)
		bp->cond[i].at = AT_UNSEEN;
	if (bp->has_latency) {
		for (int pid = 0; pid <= bp->nr_tasks; pid++) {
			bp->woken_at[pid] = NO_WAKEUP;
			bp->state[pid] = TS_UNKNOWN;
		}
	}
	bp->tested = false;
	bp->lat_valid = false;
}

const char *breakpoint_text(const struct breakpoint *bp)
{
	return bp->text;
}

static inline bool valid_pid(const struct breakpoint *bp, s32 pid)
{
	return pid >= 1 && pid <= bp->nr_tasks;
}

static inline bool task_in(const struct breakpoint *bp, s32 set, s32 pid)
{
	if (set < 0)
		return true;
	if (!valid_pid(bp, pid))
		return false;
	return (bp->bits[set + pid / 64] >> (pid % 64)) & 1;
}

static inline bool group_in(const struct breakpoint *bp, s32 set, s32 g)
{
	if (set < 0)
		return true;
	if (g < 0 || g >= bp->nr_groups)
		return false;
	return (bp->bits[set + g / 64] >> (g % 64)) & 1;
}

static inline bool cpu_in(const struct breakpoint *bp, s32 set, s32 cpu)
{
	if (set < 0)
		return true;
	if (cpu < 0 || cpu >= bp->nr_cpus)
		return false;
	return cpumask_test(&bp->masks[set], cpu);
}

/*
 * The latency tracker, as src/stats.c measures it: a wakeup of a task that
 * is off its CPU starts a wait (the first one counts), the switch-in ends it.
 * A task never seen since the breakpoint was made or reset might still be
 * on its CPU, so only sched_wakeup_new (a new task) starts a wait for it.
 */
static void track_latency(struct breakpoint *bp, const struct sched_event *ev)
{
	s32 pid;

	bp->lat_valid = false;
	switch (ev->type) {
	case EV_SCHED_WAKEUP_NEW:
		pid = ev->wake.pid;
		if (valid_pid(bp, pid)) {
			bp->state[pid] = TS_OFF;
			if (bp->woken_at[pid] == NO_WAKEUP)
				bp->woken_at[pid] = ev->time;
		}
		break;
	case EV_SCHED_WAKEUP:
		pid = ev->wake.pid;
		if (valid_pid(bp, pid) && bp->state[pid] == TS_OFF && bp->woken_at[pid] == NO_WAKEUP)
			bp->woken_at[pid] = ev->time;
		break;
	case EV_SCHED_SWITCH:
		pid = ev->sw.prev_pid;
		if (valid_pid(bp, pid)) {
			/* off its CPU now; a wakeup while it ran started no wait */
			bp->state[pid] = TS_OFF;
			bp->woken_at[pid] = NO_WAKEUP;
		}
		pid = ev->sw.next_pid;
		if (valid_pid(bp, pid)) {
			u64 w = bp->woken_at[pid];
			if (w != NO_WAKEUP && ev->time >= w) {
				bp->lat_valid = true;
				bp->lat = ev->time - w;
			}
			bp->state[pid] = TS_RUNNING;
			bp->woken_at[pid] = NO_WAKEUP;
		}
		break;
	case EV_SCHED_PROCESS_EXIT:
		pid = ev->exit.pid;
		if (valid_pid(bp, pid)) {
			bp->state[pid] = TS_OFF;
			bp->woken_at[pid] = NO_WAKEUP;
		}
		break;
	default:
		break;
	}
}

static bool compare(u64 a, int op, u64 b)
{
	switch (op) {
	case OP_GT:
		return a > b;
	case OP_GE:
		return a >= b;
	case OP_LT:
		return a < b;
	case OP_LE:
		return a <= b;
	default:
		return a == b;
	}
}

static bool cond_holds(const struct breakpoint *bp, const struct cond *c,
		       const struct sched_event *ev)
{
	const s32 *s = c->set;

	switch (c->kind) {
	case C_AT:
		return c->at == AT_ARMED && ev->time >= c->ns;
	case C_SWITCH:
		return ev->type == EV_SCHED_SWITCH && cpu_in(bp, s[K_CPU], ev->cpu) &&
		       task_in(bp, s[K_PREV], ev->sw.prev_pid) && task_in(bp, s[K_NEXT], ev->sw.next_pid) &&
		       (s[K_TASK] < 0 || task_in(bp, s[K_TASK], ev->sw.prev_pid) ||
			task_in(bp, s[K_TASK], ev->sw.next_pid));
	case C_WAKEUP:
		return (ev->type == EV_SCHED_WAKEUP || ev->type == EV_SCHED_WAKEUP_NEW) &&
		       task_in(bp, s[K_TASK], ev->wake.pid) && cpu_in(bp, s[K_CPU], ev->wake.target_cpu);
	case C_MIGRATE:
		return ev->type == EV_SCHED_MIGRATE_TASK && task_in(bp, s[K_TASK], ev->migrate.pid) &&
		       cpu_in(bp, s[K_FROM], ev->migrate.orig_cpu) &&
		       cpu_in(bp, s[K_TO], ev->migrate.dest_cpu);
	case C_FORK:
		return ev->type == EV_SCHED_PROCESS_FORK && task_in(bp, s[K_TASK], ev->fork.child_pid);
	case C_EXIT:
		return ev->type == EV_SCHED_PROCESS_EXIT && task_in(bp, s[K_TASK], ev->exit.pid);
	case C_PREEMPT:
		return ev->type == EV_SCHED_SWITCH && ev->sw.prev_state == TASK_STATE_R &&
		       ev->sw.prev_pid > 0 && task_in(bp, s[K_TASK], ev->sw.prev_pid) &&
		       cpu_in(bp, s[K_CPU], ev->cpu);
	case C_LATENCY:
		return ev->type == EV_SCHED_SWITCH && bp->lat_valid &&
		       task_in(bp, s[K_TASK], ev->sw.next_pid) && compare(bp->lat, c->op, c->ns);
	case C_NICE:
		return ev->type == EV_SET_NICE && task_in(bp, s[K_TASK], ev->nice.pid);
	case C_NOTE:
		return ev->type == EV_NOTE;
	case C_EVENT:
		return ev->type == c->ev_type;
	case C_THROTTLE:
	case C_UNTHROTTLE:
		return ev->type == (c->kind == C_THROTTLE ? EV_CFS_THROTTLE : EV_CFS_UNTHROTTLE) &&
		       group_in(bp, s[K_GROUP], ev->bw.group) && cpu_in(bp, s[K_CPU], ev->cpu);
	case C_BALANCE:
		return ev->type == EV_LOAD_BALANCE && cpu_in(bp, s[K_CPU], ev->cpu) &&
		       (s[K_LEVEL] < 0 || ev->lb.level == s[K_LEVEL]) &&
		       (!c->has_cmp || compare(ev->lb.nr_moved, c->op, c->ns));
	case C_HERD:
		return ev->type == EV_HERD;
	}
	return false;
}

bool breakpoint_test(void *arg, const struct sched_event *ev)
{
	struct breakpoint *bp = arg;
	u64 held = 0;

	if (bp->has_at)
		for (int i = 0; i < bp->nr_cond; i++) {
			struct cond *c = &bp->cond[i];
			/* armed only if the run was before T when we started watching */
			if (c->kind == C_AT && c->at == AT_UNSEEN)
				c->at = ev->time <= c->ns ? AT_ARMED : AT_SPENT;
		}
	if (bp->has_latency)
		track_latency(bp, ev);

	/* every condition is evaluated: `at` ones that held are spent by a hit */
	for (int i = 0; i < bp->nr_cond; i++)
		if (cond_holds(bp, &bp->cond[i], ev))
			held |= 1ULL << i;

	bool stack[BREAKPOINT_MAX_CONDS + 1];
	int sp = 0;
	for (int i = 0; i < bp->nr_prog; i++) {
		u8 op = bp->prog[i];
		if (op == PROG_AND) {
			sp--;
			stack[sp - 1] = stack[sp - 1] && stack[sp];
		} else if (op == PROG_OR) {
			sp--;
			stack[sp - 1] = stack[sp - 1] || stack[sp];
		} else {
			stack[sp++] = (held >> op) & 1;
		}
	}
	bool hit = sp == 1 && stack[0];

	if (hit && bp->has_at)
		for (int i = 0; i < bp->nr_cond; i++)
			if (bp->cond[i].kind == C_AT && ((held >> i) & 1))
				bp->cond[i].at = AT_SPENT;
	bp->tested = true;
	bp->last_seq = ev->seq;
	bp->last_true = held;
	return hit;
}

/* ---- describing a hit ---- */

struct out {
	char *buf;
	size_t len, k;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->k >= o->len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->k, o->len - o->k, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->k = MIN(o->k + (size_t)n, o->len);
}

static const char *task_name(const struct breakpoint *bp, const char *const *names, s32 pid,
			     char *buf, size_t size)
{
	if (pid == 0)
		return "idle";
	if (names && bp && valid_pid(bp, pid) && names[pid - 1])
		return names[pid - 1];
	snprintf(buf, size, "pid %d", (int)pid);
	return buf;
}

void breakpoint_describe(const struct breakpoint *bp, const struct sched_event *ev,
			 const char *const *task_names, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	char a[32], b[32], d[32], e[32];
	const char *name = ev->type < NR_SCHED_EVENTS ? sched_event_names[ev->type] : "event";
#define TN(pid, tmp) task_name(bp, task_names, (pid), (tmp), sizeof(tmp))

	if (!len)
		return;
	buf[0] = 0;
	put(&o, "%s", name);
	if (ev->type != EV_SCHED_MIGRATE_TASK && ev->type != EV_NOTE && ev->type != EV_COMMAND)
		put(&o, " on cpu %d", ev->cpu);
	switch (ev->type) {
	case EV_SCHED_SWITCH:
		put(&o, ": %s -> %s", TN(ev->sw.prev_pid, a), TN(ev->sw.next_pid, b));
		if (ev->sw.prev_state == TASK_STATE_R && ev->sw.prev_pid > 0)
			put(&o, " (%s preempted)", TN(ev->sw.prev_pid, a));
		break;
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		put(&o, ": %s to cpu %d", TN(ev->wake.pid, a), (int)ev->wake.target_cpu);
		break;
	case EV_SCHED_MIGRATE_TASK:
		put(&o, ": %s cpu %d -> cpu %d", TN(ev->migrate.pid, a), (int)ev->migrate.orig_cpu,
		    (int)ev->migrate.dest_cpu);
		break;
	case EV_SCHED_PROCESS_FORK:
		put(&o, ": %s", TN(ev->fork.child_pid, a));
		break;
	case EV_SCHED_PROCESS_EXIT:
		put(&o, ": %s", TN(ev->exit.pid, a));
		break;
	case EV_SCHED_STAT_RUNTIME:
		put(&o, ": %s ran %s", TN(ev->runtime.pid, a),
		    format_duration(d, sizeof(d), ev->runtime.runtime));
		break;
	case EV_SET_NICE:
		put(&o, ": %s nice %d -> %d", TN(ev->nice.pid, a), (int)ev->nice.old_nice,
		    (int)ev->nice.new_nice);
		break;
	case EV_YIELD:
		put(&o, ": %s", TN(ev->yield.pid, a));
		break;
	case EV_COMMAND:
		if (ev->command.index == ~0u)
			put(&o, " from the console");
		else
			put(&o, " #%u", ev->command.index);
		break;
	case EV_NOTE:
		put(&o, " #%u", ev->note.index);
		break;
	case EV_LOAD_BALANCE:
		put(&o, ": %s %s, %s, %u moved", sched_name_of(sd_level_names, NR_SD_LEVEL_NAMES, ev->lb.level),
		    sched_name_of(cpu_idle_type_names, CPU_MAX_IDLE_TYPES, ev->lb.idle),
		    sched_name_of(lb_outcome_names, NR_LB_OUTCOMES, ev->lb.outcome), ev->lb.nr_moved);
		break;
	case EV_HERD:
		put(&o, ": %u migrations to %u CPUs (%s)", ev->herd.nr, ev->herd.nr_dst,
		    sched_name_of(herd_cause_names, NR_HERD_CAUSES, ev->herd.cause));
		break;
	case EV_RT_THROTTLE:
	case EV_RT_UNTHROTTLE:
		put(&o, ": rt_time %s of %s", format_duration(d, sizeof(d), ev->rt_bw.rt_time),
		    format_duration(e, sizeof(e), ev->rt_bw.rt_runtime));
		break;
	case EV_DL_THROTTLE:
	case EV_DL_REPLENISH:
	case EV_DL_MISS:
		put(&o, ": %s", ev->dl.pid ? TN(ev->dl.pid, a) : "fair server");
		if (ev->type == EV_DL_MISS)
			put(&o, " %s late", format_duration(d, sizeof(d), (u64)ev->dl.runtime));
		else
			put(&o, " deadline %s", format_duration(d, sizeof(d), ev->dl.deadline));
		break;
	default:
		break;
	}
#undef TN

	/* why, when the event alone does not say: only for the event last tested */
	if (!bp || !bp->tested || bp->last_seq != ev->seq)
		return;
	for (int i = 0; i < bp->nr_cond; i++) {
		const struct cond *c = &bp->cond[i];
		if (!((bp->last_true >> i) & 1))
			continue;
		if (c->kind == C_AT)
			put(&o, "; reached %s", format_duration(d, sizeof(d), c->ns));
		else if (c->kind == C_LATENCY)
			put(&o, "; wakeup latency %s %s %s", format_duration(d, sizeof(d), bp->lat),
			    op_names[c->op], format_duration(e, sizeof(e), c->ns));
	}
}
