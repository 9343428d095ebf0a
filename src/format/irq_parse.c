// SPDX-License-Identifier: GPL-2.0
/* `irq` and `steal` lines: see irq_parse.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/mem.h"
#include "irq_parse.h"
#include "parse_util.h"

/* D, exp(M), uniform(A,B) or normal(M,S) from one key=value word. */
static int parse_dist(struct lexer *lx, const struct lex_span *v, const char *what, struct sched_duration *d)
{
	static const struct { const char *name; u8 kind; int args; } fns[] = {
		{ "exp", DIST_EXP, 1 }, { "uniform", DIST_UNIFORM, 2 }, { "normal", DIST_NORMAL, 2 },
	};
	const char *open = memchr(v->p, '(', v->n);

	*d = (struct sched_duration){ DIST_CONST, 0, 0 };
	if (!open)
		return lex_duration(lx, v, what, &d->a);
	size_t fn = (size_t)(open - v->p), i = 0;
	while (i < ARRAY_SIZE(fns) && !(strlen(fns[i].name) == fn && !memcmp(fns[i].name, v->p, fn)))
		i++;
	if (i == ARRAY_SIZE(fns) || v->p[v->n - 1] != ')')
		return lex_error(lx, v, "bad %s '%s' (a duration, exp(MEAN), uniform(A,B) or normal(MEAN,SD))",
				 what, SNIP(v));
	struct lex_span in = { open + 1, v->n - fn - 2, v->line, v->col + (u32)fn + 1 };
	const char *comma = memchr(in.p, ',', in.n);
	if ((fns[i].args == 2) != (comma != NULL))
		return lex_error(lx, v, "%s() takes %d duration%s", fns[i].name, fns[i].args,
				 fns[i].args == 2 ? "s" : "");
	d->kind = fns[i].kind;
	if (!comma)
		return lex_duration(lx, &in, what, &d->a);
	struct lex_span a = { in.p, (size_t)(comma - in.p), in.line, in.col };
	struct lex_span b = { comma + 1, in.n - a.n - 1, in.line, in.col + (u32)a.n + 1 };
	if (lex_duration(lx, &a, what, &d->a) < 0 || lex_duration(lx, &b, what, &d->b) < 0)
		return -1;
	if (d->kind == DIST_UNIFORM && d->a > d->b)
		return lex_error(lx, v, "uniform(A,B) needs A <= B");
	return 0;
}

int irq_parse(struct lexer *lx, const struct token *dir, int nr_cpus, struct sched_irq_spec **out, int *n,
	      size_t *cap)
{
	struct sched_irq_spec proto = { .steal = span_is(&dir->s, "steal"), .line = dir->s.line };
	struct cpumask cpus = { { 0 } };
	bool has_cpus = false, has_every = false, has_cost = false;
	struct token kv;
	s64 v;

	snprintf(proto.name, sizeof(proto.name), "%s", proto.steal ? "steal" : "irq");
	while (lex_next(lx, &kv) == TOK_KEYVAL) {
		if (span_is(&kv.key, "cpu")) {
			if (lex_cpulist(lx, &kv.val, nr_cpus, &cpus) < 0)
				return -1;
			has_cpus = true;
		} else if (span_is(&kv.key, "every")) {
			if (parse_dist(lx, &kv.val, "every", &proto.every) < 0)
				return -1;
			/* the mean must leave the CPU some time: at least 1us */
			if ((proto.every.kind == DIST_UNIFORM ? proto.every.b : proto.every.a) < NSEC_PER_USEC)
				return lex_error(lx, &kv.val, "every '%s' is shorter than 1us", SNIP(&kv.val));
			has_every = true;
		} else if (span_is(&kv.key, "cost")) {
			if (parse_dist(lx, &kv.val, "cost", &proto.cost) < 0)
				return -1;
			has_cost = true;
		} else if (span_is(&kv.key, "irq") && !proto.steal) {
			if (lex_int(lx, &kv.val, "irq", 0, 65535, &v) < 0)
				return -1;
			proto.irq = (int)v;
		} else if (span_is(&kv.key, "name") && !proto.steal) {
			if (kv.val.n >= sizeof(proto.name))
				return lex_error(lx, &kv.val, "name '%s' is longer than %zu bytes", SNIP(&kv.val),
						 sizeof(proto.name) - 1);
			span_copy(&kv.val, proto.name, sizeof(proto.name));
		} else {
			return lex_error(lx, &kv.key, "unknown key '%s' (expected cpu, every, cost%s)", SNIP(&kv.key),
					 proto.steal ? "" : ", irq, name");
		}
	}
	if (lx->failed)
		return -1;
	if (kv.type != TOK_NEWLINE && kv.type != TOK_EOF)
		return lex_error(lx, &kv.s, "expected KEY=VALUE, got '%s'", SNIP(&kv.s));
	if (!has_cpus || !has_every || !has_cost)
		return lex_error(lx, &dir->s, "'%s' needs cpu=, every= and cost=", SNIP(&dir->s));
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		if (!cpumask_test(&cpus, cpu))
			continue;
		if (*n >= MAX_IRQ_SOURCES)
			return lex_error(lx, &dir->s, "more than %d interrupt and steal sources", MAX_IRQ_SOURCES);
		XGROW(*out, *cap, *n);
		proto.cpu = cpu;
		(*out)[(*n)++] = proto;
	}
	return 0;
}
