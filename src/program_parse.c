/*
 * Compiling task programs (the language is in program_parse.h). A program
 * is a flat list of instructions: a loop is a PROG_LOOP / PROG_END_LOOP pair
 * that point at each other and share a counter slot, and each `wake` waits
 * in the parser's pending list until the task list is complete.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "program_parse.h"

#define MAX_PROG_INSNS 65536
#define MAX_WAKE_TARGETS (1 << 22)

struct compiler {
	struct program_parser *pp;
	struct lexer *lx;
	struct sched_program *prog;
	size_t cap;
	int depth;
};

static struct sched_program *new_program(struct program_parser *pp, struct lexer *lx,
					 const struct lex_span *at)
{
	struct program_list *l = pp->progs;
	struct sched_program *p;

	if (RESERVE(lx, l->prog, l->cap, l->nr) < 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		out_of_memory(lx, at);
		return NULL;
	}
	l->prog[l->nr++] = p;
	return p;
}

/* Append an instruction; returns its index or -1. */
static int emit(struct compiler *c, const struct token *at, enum prog_op op)
{
	struct sched_program *p = c->prog;

	if (p->nr_insns >= MAX_PROG_INSNS)
		return lex_error(c->lx, &at->s, "program is longer than %d statements", MAX_PROG_INSNS);
	if (RESERVE(c->lx, p->insn, c->cap, p->nr_insns) < 0)
		return -1;
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
				 op == PROG_WAKE ? " or pattern" : "");
	}
	int i = emit(c, kw, op);
	if (i < 0 || RESERVE(c->lx, pp->wake, pp->cap_wakes, pp->nr_wakes) < 0)
		return -1;
	pp->wake[pp->nr_wakes++] = (struct pending_wake){ c->prog, i, t.s };
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
	} else if (span_is(&kw->s, "wake") || span_is(&kw->s, "wake_sync")) {
		if (compile_wake(c, kw, PROG_WAKE) < 0)
			return -1;
		/* arg 1: WF_SYNC, the waker is about to sleep (pipes, sockets) */
		c->prog->insn[c->prog->nr_insns - 1].arg = span_is(&kw->s, "wake_sync");
		return 0;
	} else if (span_is(&kw->s, "yield_to")) {
		return compile_wake(c, kw, PROG_YIELD_TO);
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
	} else {
		return lex_error(lx, &kw->s, "unknown statement '%s' (expected run, sleep, loop, wait, wake, "
				 "yield, yield_to, exit, nice)", SNIP(&kw->s));
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
	struct compiler c = { pp, lx, new_program(pp, lx, where), 0, 0 };
	bool tt = false;

	if (!c.prog || compile_seq(&c, open, &tt) < 0)
		return NULL;
	if (!c.prog->nr_insns) {
		lex_error(lx, where, "empty program");
		return NULL;
	}
	return c.prog;
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
		if (glob ? fnmatch(pat, sc->task[i].name, 0) != 0 : strcmp(pat, sc->task[i].name) != 0)
			continue;
		if (sc->nr_wake_list >= MAX_WAKE_TARGETS)
			return lex_error(lx, &pw->pattern, "wake targets exceed %d in all", MAX_WAKE_TARGETS);
		if (RESERVE(lx, sc->wake_list, *cap_wake_list, sc->nr_wake_list) < 0)
			return -1;
		sc->wake_list[sc->nr_wake_list++] = i;
	}
	insn->wake_count = (u32)sc->nr_wake_list - insn->wake_first;
	if (!insn->wake_count)
		return lex_error(lx, &pw->pattern, "%s '%s': no task matches",
				 insn->op == PROG_WAKE ? "wake" : "yield_to", SNIP(&pw->pattern));
	if (strmap_add(&pp->wake_patterns, pw->pattern.p, pw->pattern.n, w) < 0)
		return out_of_memory(lx, &pw->pattern);
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
	}
	return 0;
}
void program_parser_free(struct program_parser *pp)
{
	free(pp->wake);
	free(pp->wake_patterns.e);
}

void program_list_free(struct program_list *l)
{
	for (int i = 0; i < l->nr; i++) {
		free(l->prog[i]->insn);
		free(l->prog[i]);
	}
	free(l->prog);
}
