// SPDX-License-Identifier: GPL-2.0
/*
 * Compiling task programs (the language is in program_parse.h). A program
 * is a flat list of instructions: a loop is a PROG_LOOP / PROG_END_LOOP pair
 * that point at each other and share a counter slot, and each `wake` waits
 * in the parser's pending list until the task list is complete.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "program_parse.h"

#define MAX_PROG_INSNS 65536
#define MAX_WAKE_TARGETS (1 << 22)
#define MAX_SYNC_OBJECTS 65536
#define MAX_LOCAL_TIMERS 64

struct compiler {
	struct program_parser *pp;
	struct lexer *lx;
	struct sched_program *prog;
	size_t cap;
	int depth;
	size_t cap_barriers;
};

static struct sched_program *new_program(struct program_parser *pp)
{
	struct program_list *l = pp->progs;

	XGROW(l->prog, l->cap, l->nr);
	return l->prog[l->nr++] = xcalloc(1, sizeof(struct sched_program));
}

/* Append an instruction; returns its index or -1. */
static int emit(struct compiler *c, const struct token *at, enum prog_op op)
{
	struct sched_program *p = c->prog;

	if (p->nr_insns >= MAX_PROG_INSNS)
		return lex_error(c->lx, &at->s, "program is longer than %d statements", MAX_PROG_INSNS);
	XGROW(p->insn, c->cap, p->nr_insns);
	p->insn[p->nr_insns] = (struct prog_insn){ .op = op, .line = at->s.line, .col = at->s.col };
	return p->nr_insns++;
}

static int duration_word(struct lexer *lx, const struct lex_span *fn, u64 *ns)
{
	struct token t;

	if (lex_next(lx, &t) != TOK_WORD) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t.s, "expected a duration for '%s', got '%s'", SNIP(fn),
				 t.type == TOK_NEWLINE || t.type == TOK_EOF ? "end of line" : SNIP(&t.s));
	}
	return lex_duration(lx, &t.s, "duration", ns);
}

/* D: a constant, uniform(A, B), exp(MEAN) or normal(MEAN, SD). */
static int compile_duration(struct compiler *c, const struct token *kw, struct sched_duration *d,
			    bool *takes_time)
{
	struct lexer *lx = c->lx;
	struct token t, p;

	if (lex_peek(lx, &t) == TOK_WORD && lex_next(lx, &t) == TOK_WORD &&
	    (span_is(&t.s, "uniform") || span_is(&t.s, "exp") || span_is(&t.s, "normal")) &&
	    lex_peek(lx, &p) == TOK_PUNCT && span_is(&p.s, "(")) {
		bool two = !span_is(&t.s, "exp");
		lex_next(lx, &p);
		d->kind = span_is(&t.s, "uniform") ? DIST_UNIFORM : two ? DIST_NORMAL : DIST_EXP;
		if (duration_word(lx, &t.s, &d->a) < 0 ||
		    (two && (require_punct(lx, ",", "between the two durations") < 0 ||
			     duration_word(lx, &t.s, &d->b) < 0)) ||
		    require_punct(lx, ")", "after the durations") < 0)
			return -1;
		if (d->kind == DIST_UNIFORM && d->a > d->b)
			return lex_error(lx, &t.s, "uniform(A, B) needs A <= B");
		*takes_time = d->kind == DIST_UNIFORM ? d->b > 0 : d->a > 0 || d->b > 0;
		return 0;
	}
	if (t.type != TOK_WORD) {
		if (lx->failed)
			return -1;
		if (t.type != TOK_EOF)
			lex_next(lx, &t);
		return lex_error(lx, &t.s, "'%s' needs a duration", SNIP(&kw->s));
	}
	d->kind = DIST_CONST;
	if (lex_duration(lx, &t.s, "duration", &d->a) < 0)
		return -1;
	*takes_time = d->a > 0;
	return 0;
}

static int compile_seq(struct compiler *c, const struct token *open, bool *takes_time);

static int compile_loop(struct compiler *c, const struct token *kw, bool *takes_time)
{
	struct lexer *lx = c->lx;
	struct token t;
	s64 count = 0;
	bool body_time = false;

	if (c->depth >= PROG_MAX_LOOP_DEPTH)
		return lex_error(lx, &kw->s, "loops nest deeper than %d", PROG_MAX_LOOP_DEPTH);
	if (lex_peek(lx, &t) == TOK_WORD) {
		lex_next(lx, &t);
		if (lex_int(lx, &t.s, "loop count", 1, INT32_MAX, &count) < 0)
			return -1;
	}
	if (lex_next(lx, &t) != TOK_PUNCT || !span_is(&t.s, "{")) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t.s, "expected '{' after 'loop'");
	}

	int head = emit(c, kw, PROG_LOOP);
	if (head < 0)
		return -1;
	u32 slot = (u32)c->prog->nr_loops++;
	c->prog->insn[head].arg = (s32)count;
	c->prog->insn[head].loop_slot = slot;

	c->depth++;
	int r = compile_seq(c, &t, &body_time);
	c->depth--;
	if (r < 0)
		return -1;
	if (c->prog->nr_insns == head + 1)
		return lex_error(lx, &kw->s, "empty loop");
	if (!count && !body_time)
		return lex_error(lx, &kw->s, "a loop without a count repeats forever, so its body must "
				 "take time (run, sleep, wait or exit)");

	int end = emit(c, kw, PROG_END_LOOP);
	if (end < 0)
		return -1;
	c->prog->insn[end].target = head;
	c->prog->insn[end].loop_slot = slot;
	c->prog->insn[head].target = end + 1;
	*takes_time |= body_time;
	return 0;
}

/* `wake PATTERN` and `yield_to TASK`: the task names are resolved at the end. */
static int compile_wake(struct compiler *c, const struct token *kw, int op)
{
	struct program_parser *pp = c->pp;
	struct token t;

	if (lex_next(c->lx, &t) != TOK_WORD) {
		if (c->lx->failed)
			return -1;
		return lex_error(c->lx, &t.s, "'%s' needs a task name%s", SNIP(&kw->s),
				 op == PROG_YIELD_TO ? "" : " or pattern");
	}
	int i = emit(c, kw, op);
	if (i < 0)
		return -1;
	XGROW(pp->wake, pp->cap_wakes, pp->nr_wakes);
	pp->wake[pp->nr_wakes++] = (struct pending_wake){ c->prog, i, t.s };
	return 0;
}

static const char *const sync_kind_names[] = { "mutex", "condition", "barrier", "timer" };

/* The object a statement names, created at its first use. Returns its index or -1. */
static int sync_object(struct compiler *c, const struct token *kw, enum sched_sync_kind kind)
{
	struct program_parser *pp = c->pp;
	struct lexer *lx = c->lx;
	struct map_entry *e;
	struct token t;

	if (lex_next(lx, &t) != TOK_WORD) {
		if (lx->failed)
			return -1;
		return lex_error(lx, &t.s, "'%s' needs a %s name", SNIP(&kw->s), sync_kind_names[kind]);
	}
	if ((e = strmap_find(&pp->sync_names[kind], t.s.p, t.s.n)))
		return e->value;
	if (t.s.n >= sizeof(pp->sync[0].name))
		return lex_error(lx, &t.s, "%s name '%s' is longer than %zu bytes", sync_kind_names[kind],
				 SNIP(&t.s), sizeof(pp->sync[0].name) - 1);
	if (pp->nr_sync >= MAX_SYNC_OBJECTS)
		return lex_error(lx, &t.s, "more than %d mutexes, conditions, barriers and timers",
				 MAX_SYNC_OBJECTS);
	XGROW(pp->sync, pp->cap_sync, pp->nr_sync);
	strmap_add(&pp->sync_names[kind], t.s.p, t.s.n, pp->nr_sync);
	struct sched_sync *o = &pp->sync[pp->nr_sync];
	*o = (struct sched_sync){ .kind = (u8)kind, .local = -1 };
	memcpy(o->name, t.s.p, t.s.n);
	if (kind == SYNC_TIMER && t.s.n >= 6 && !memcmp(t.s.p, "unique", 6)) {
		if (pp->nr_local_timers >= MAX_LOCAL_TIMERS)
			return lex_error(lx, &t.s, "more than %d \"unique\" timers", MAX_LOCAL_TIMERS);
		o->local = pp->nr_local_timers++;
	}
	return pp->nr_sync++;
}

/* Remember each barrier a program uses once, to count the barrier's users. */
static void note_barrier(struct compiler *c, int b)
{
	struct sched_program *p = c->prog;

	for (int i = 0; i < p->nr_barriers; i++)
		if (p->barrier[i] == b)
			return;
	XGROW(p->barrier, c->cap_barriers, p->nr_barriers);
	p->barrier[p->nr_barriers++] = b;
}

/* lock, unlock, cond_wait, signal, broadcast, suspend, resume, barrier, timer. */
static int compile_sync(struct compiler *c, const struct token *kw, bool *takes_time)
{
	static const struct {
		const char *word;
		u8 op, kind;
		bool blocks;
	} stmts[] = {
		{ "lock", PROG_LOCK, SYNC_MUTEX, false },
		{ "unlock", PROG_UNLOCK, SYNC_MUTEX, false },
		{ "cond_wait", PROG_COND_WAIT, SYNC_COND, true },
		{ "suspend", PROG_COND_WAIT, SYNC_COND, true },
		{ "signal", PROG_SIGNAL, SYNC_COND, false },
		{ "broadcast", PROG_BROADCAST, SYNC_COND, false },
		{ "resume", PROG_BROADCAST, SYNC_COND, false },
		{ "barrier", PROG_BARRIER, SYNC_BARRIER, true },
		{ "timer", PROG_TIMER, SYNC_TIMER, true },
	};
	struct lexer *lx = c->lx;
	size_t k = 0;
	int i, obj;

	while (k < ARRAY_SIZE(stmts) && !span_is(&kw->s, stmts[k].word))
		k++;
	if (k == ARRAY_SIZE(stmts))
		return 1;
	if ((i = emit(c, kw, stmts[k].op)) < 0 || (obj = sync_object(c, kw, stmts[k].kind)) < 0)
		return -1;
	c->prog->insn[i].arg = obj;
	c->prog->insn[i].target = -1;
	*takes_time |= stmts[k].blocks;
	if (span_is(&kw->s, "cond_wait")) {
		int m = sync_object(c, kw, SYNC_MUTEX);
		if (m < 0)
			return -1;
		c->prog->insn[i].target = m;
	} else if (stmts[k].op == PROG_BARRIER) {
		note_barrier(c, obj);
	} else if (stmts[k].op == PROG_TIMER) {
		struct token t;
		u64 period;

		if (duration_word(lx, &kw->s, &period) < 0)
			return -1;
		if (!period)
			return lex_error(lx, &kw->s, "a timer's period must be longer than 0");
		c->prog->insn[i].dur = (struct sched_duration){ .kind = DIST_CONST, .a = period };
		if (lex_peek(lx, &t) == TOK_WORD && (span_is(&t.s, "absolute") || span_is(&t.s, "relative"))) {
			lex_next(lx, &t);
			if (span_is(&t.s, "absolute"))
				c->pp->sync[obj].absolute = true;
		}
	}
	return 0;
}

static int compile_stmt(struct compiler *c, const struct token *kw, bool *takes_time, bool *braced)
{
	struct lexer *lx = c->lx;
	struct token t;
	bool tt = false;
	int i;

	*braced = false;
	if (span_is(&kw->s, "run")) {
		if (lex_peek(lx, &t) == TOK_WORD && span_is(&t.s, "forever")) {
			lex_next(lx, &t);
			*takes_time = true;
			return emit(c, kw, PROG_RUN_FOREVER) < 0 ? -1 : 0;
		}
		if ((i = emit(c, kw, PROG_RUN)) < 0 || compile_duration(c, kw, &c->prog->insn[i].dur, &tt) < 0)
			return -1;
		*takes_time |= tt;
	} else if (span_is(&kw->s, "sleep")) {
		if ((i = emit(c, kw, PROG_SLEEP)) < 0 || compile_duration(c, kw, &c->prog->insn[i].dur, &tt) < 0)
			return -1;
		*takes_time |= tt;
	} else if (span_is(&kw->s, "loop")) {
		*braced = true;
		return compile_loop(c, kw, takes_time);
	} else if (span_is(&kw->s, "wait") || span_is(&kw->s, "exit")) {
		*takes_time = true;	/* blocks, or ends the task */
		return emit(c, kw, span_is(&kw->s, "wait") ? PROG_WAIT : PROG_EXIT) < 0 ? -1 : 0;
	} else if (span_is(&kw->s, "yield")) {
		return emit(c, kw, PROG_YIELD) < 0 ? -1 : 0;
	} else if (span_is(&kw->s, "log")) {
		return emit(c, kw, PROG_LOG) < 0 ? -1 : 0;
	} else if (span_is(&kw->s, "wake") || span_is(&kw->s, "wake_sync")) {
		if (compile_wake(c, kw, PROG_WAKE) < 0)
			return -1;
		/* arg 1: WF_SYNC, the waker is about to sleep (pipes, sockets) */
		c->prog->insn[c->prog->nr_insns - 1].arg = span_is(&kw->s, "wake_sync");
		return 0;
	} else if (span_is(&kw->s, "yield_to")) {
		return compile_wake(c, kw, PROG_YIELD_TO);
	} else if (span_is(&kw->s, "fork")) {
		return compile_wake(c, kw, PROG_FORK);
	} else if (span_is(&kw->s, "nice")) {
		s64 nice;
		if (lex_next(lx, &t) != TOK_WORD) {
			if (lx->failed)
				return -1;
			return lex_error(lx, &t.s, "'nice' needs a value -20..19");
		}
		if (lex_int(lx, &t.s, "nice", -20, 19, &nice) < 0 || (i = emit(c, kw, PROG_NICE)) < 0)
			return -1;
		c->prog->insn[i].arg = (s32)nice;
	} else if ((i = compile_sync(c, kw, takes_time)) <= 0) {
		return i;
	} else {
		return lex_error(lx, &kw->s,
				 "unknown statement '%s' (expected run, sleep, loop, wait, wake, "
				 "yield, yield_to, exit, nice, lock, unlock, cond_wait, signal, broadcast, "
				 "suspend, resume, barrier, timer, fork, log)",
				 SNIP(&kw->s));
	}
	return 0;
}

/* Statements up to the '}' matching `open`, or to the end of the text when open is NULL. */
static int compile_seq(struct compiler *c, const struct token *open, bool *takes_time)
{
	struct lexer *lx = c->lx;
	bool need_sep = false;

	for (;;) {
		struct token t;
		bool braced;

		lex_next(lx, &t);
		if (lx->failed)
			return -1;
		if (t.type == TOK_NEWLINE || tok_is(&t, TOK_PUNCT, ";")) {
			need_sep = false;
			continue;
		}
		if (tok_is(&t, TOK_PUNCT, "}")) {
			if (open)
				return 0;
			return lex_error(lx, &t.s, "unbalanced '}'");
		}
		if (t.type == TOK_EOF) {
			if (open)
				return lex_error(lx, &open->s, "unclosed '{'");
			return 0;
		}
		if (need_sep)
			return lex_error(lx, &t.s, "expected ';' or a new line before '%s'", SNIP(&t.s));
		if (t.type != TOK_WORD)
			return lex_error(lx, &t.s, "unexpected '%s' in a program", SNIP(&t.s));
		if (compile_stmt(c, &t, takes_time, &braced) < 0)
			return -1;
		need_sep = !braced;
	}
}

struct sched_program *program_compile(struct program_parser *pp, struct lexer *lx,
				      const struct token *open, const struct lex_span *where)
{
	struct compiler c = { pp, lx, new_program(pp), 0, 0, 0 };
	bool tt = false;

	if (!c.prog || compile_seq(&c, open, &tt) < 0)
		return NULL;
	if (!c.prog->nr_insns) {
		lex_error(lx, where, "empty program");
		return NULL;
	}
	return c.prog;
}

/* `fork NAME` also names the instances NAME.0, NAME.1... of a count= line. */
static bool names_task(const char *pat, const char *name, int op)
{
	size_t n = strlen(pat);

	return !strcmp(pat, name) || (op == PROG_FORK && !strncmp(pat, name, n) && name[n] == '.');
}

/* The tasks a pattern names, appended to the scenario's wake_list. */
static int resolve_pattern(struct program_parser *pp, struct lexer *lx, struct sched_scenario *sc,
			   struct pending_wake *pw, int w, size_t *cap_wake_list)
{
	struct prog_insn *insn = &pw->prog->insn[pw->insn];
	char pat[256];

	if (!span_copy(&pw->pattern, pat, sizeof(pat)))
		return lex_error(lx, &pw->pattern, "pattern '%s' is too long", SNIP(&pw->pattern));
	bool glob = strpbrk(pat, "*?[\\") != NULL;
	insn->wake_first = (u32)sc->nr_wake_list;
	for (int i = 0; i < sc->nr_tasks; i++) {
		if (glob ? fnmatch(pat, sc->task[i].name, 0) != 0 : !names_task(pat, sc->task[i].name, insn->op))
			continue;
		if (sc->nr_wake_list >= MAX_WAKE_TARGETS)
			return lex_error(lx, &pw->pattern, "wake targets exceed %d in all", MAX_WAKE_TARGETS);
		XGROW(sc->wake_list, *cap_wake_list, sc->nr_wake_list);
		sc->wake_list[sc->nr_wake_list++] = i;
	}
	insn->wake_count = (u32)sc->nr_wake_list - insn->wake_first;
	if (!insn->wake_count)
		return lex_error(lx, &pw->pattern, "%s '%s': no task matches",
				 insn->op == PROG_WAKE ? "wake" : insn->op == PROG_FORK ? "fork" : "yield_to",
				 SNIP(&pw->pattern));
	strmap_add(&pp->wake_patterns, pw->pattern.p, pw->pattern.n, w);
	return 0;
}

/* The tasks `fork` names wait for it: they have no start time of their own. */
static int mark_forked(struct lexer *lx, struct sched_scenario *sc, const struct pending_wake *pw,
		       const struct prog_insn *insn)
{
	for (u32 i = 0; i < insn->wake_count; i++) {
		struct sched_task_spec *t = &sc->task[sc->wake_list[insn->wake_first + i]];
		if (t->start)
			return lex_error(lx, &pw->pattern, "fork '%s': task %s has at=, but a forked task "
					 "starts when forked", SNIP(&pw->pattern), t->name);
		t->forked = true;
	}
	return 0;
}

int program_resolve_wakes(struct program_parser *pp, struct lexer *lx, struct sched_scenario *sc)
{
	size_t cap_wake_list = 0;

	for (int w = 0; w < pp->nr_wakes; w++) {
		struct pending_wake *pw = &pp->wake[w];
		struct prog_insn *insn = &pw->prog->insn[pw->insn];
		struct map_entry *e = strmap_find(&pp->wake_patterns, pw->pattern.p, pw->pattern.n);

		if (e) {
			const struct pending_wake *first = &pp->wake[e->value];
			insn->wake_first = first->prog->insn[first->insn].wake_first;
			insn->wake_count = first->prog->insn[first->insn].wake_count;
		} else if (resolve_pattern(pp, lx, sc, pw, w, &cap_wake_list) < 0) {
			return -1;
		}
		if (insn->op == PROG_YIELD_TO && insn->wake_count != 1)
			return lex_error(lx, &pw->pattern, "yield_to '%s' names %u tasks; it takes one",
					 SNIP(&pw->pattern), insn->wake_count);
		if (insn->op == PROG_FORK && mark_forked(lx, sc, pw, insn) < 0)
			return -1;
	}
	/* as rt-app counts a barrier's users: the tasks started with the scenario, not forked ones */
	for (int i = 0; i < sc->nr_tasks; i++) {
		const struct sched_program *prog = sc->task[i].prog;
		for (int b = 0; !sc->task[i].forked && b < prog->nr_barriers; b++)
			pp->sync[prog->barrier[b]].users++;
	}
	sc->sync = pp->sync;
	sc->nr_sync = pp->nr_sync;
	sc->nr_local_timers = pp->nr_local_timers;
	pp->sync = NULL;
	pp->nr_sync = 0;
	return 0;
}
void program_parser_free(struct program_parser *pp)
{
	free(pp->wake);
	free(pp->wake_patterns.e);
	free(pp->sync);
	for (size_t k = 0; k < ARRAY_SIZE(pp->sync_names); k++)
		free(pp->sync_names[k].e);
}

void program_list_free(struct program_list *l)
{
	for (int i = 0; i < l->nr; i++) {
		free(l->prog[i]->insn);
		free(l->prog[i]->barrier);
		free(l->prog[i]);
	}
	free(l->prog);
}
