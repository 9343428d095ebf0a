// SPDX-License-Identifier: GPL-2.0
/*
 * The ext class (kernel/sched/ext.c of Linux 6.12): scheduling decided by a
 * policy plug-in through struct sched_ext_ops, between fair and idle. A CPU
 * runs what its local dispatch queue holds; when that is empty it consumes
 * the global queue, then asks ops.dispatch(). Slices count down at the
 * tick. An error, a stalled task (the watchdog) or the policy's own exit
 * disables the policy at the next safe point and returns every task to the
 * fair class, as scx_ops_disable_workfn() does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ext.h"
#include "balance.h"

#define SCX_HAS_OP(op) (ST->scx->ops->op != NULL)
/* The class's own inserts that are part of moving a task, not decisions: no event. */
#define SCX_OP_QUIET 0xff

/* ---- calling the policy ---- */

void scx_call_begin(struct scx_call *c, u8 op, u32 mask, struct scx_entity *t0, struct scx_entity *t1)
{
	struct scx_sched *s = scx();

	c->saved_op = s->cur_op;
	c->saved_mask = s->kf_mask;
	c->saved_t0 = s->kf_tasks[0];
	c->saved_t1 = s->kf_tasks[1];
	s->cur_op = op;
	s->kf_mask |= mask;
	s->kf_tasks[0] = t0;
	s->kf_tasks[1] = t1;
}

void scx_call_end(struct scx_call *c)
{
	struct scx_sched *s = scx();

	s->cur_op = c->saved_op;
	s->kf_mask = c->saved_mask;
	s->kf_tasks[0] = c->saved_t0;
	s->kf_tasks[1] = c->saved_t1;
}

/* SCX_CALL_OP_TASK(): op runs with the kfuncs of mask, on task se (may be NULL). */
#define SCX_CALL_OP(mask, opnum, se, call)                   \
	do {                                                 \
		struct scx_call __c;                         \
		scx_call_begin(&__c, opnum, mask, se, NULL); \
		call;                                        \
		scx_call_end(&__c);                          \
	} while (0)

#define SCX_CALL_OP_RET(mask, opnum, se0, se1, call)         \
	({                                                   \
		struct scx_call __c;                         \
		__typeof__(call) __ret;                      \
		scx_call_begin(&__c, opnum, mask, se0, se1); \
		__ret = call;                                \
		scx_call_end(&__c);                          \
		__ret;                                       \
	})

static struct scx_task *view_of(struct task_struct *p)
{
	return p && p->idx >= 0 && ST->scx ? &scx_ent(p)->view : NULL;
}

/* ---- errors and exits: claimed at once, acted on at the next safe point ---- */

static void scx_claim_exit(u32 kind, s64 code, u8 op, const struct task_struct *p, const char *fmt,
			   va_list ap)
{
	struct scx_sched *s = scx();

	if (!s || s->exit_kind != SCX_EXIT_NONE || s->enable_state == SCX_OPS_DISABLED)
		return;
	s->exit_kind = kind;
	s->exit_code = code;
	s->exit_op = op;
	s->exit_pid = p ? p->pid : 0;
	s->exit_cpu = s->this_cpu;
	vsnprintf(s->exit_msg, sizeof(s->exit_msg), fmt, ap);
}

void scx_exit_op(u32 kind, s64 exit_code, u8 op, const struct task_struct *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	scx_claim_exit(kind, exit_code, op, p, fmt, ap);
	va_end(ap);
}

bool ops_cpu_valid(s32 cpu, const char *where)
{
	if (cpu >= 0 && cpu < ST->nr_cpus)
		return true;
	scx_ops_error("invalid CPU %d%s%s", cpu, where ? " " : "", where ? where : "");
	return false;
}

static s32 ops_sanitize_err(const char *ops_name, s32 err)
{
	if (err < 0 && err >= -4095)
		return err;
	scx_ops_error("ops.%s() returned an invalid errno %d", ops_name, err);
	return -71; /* -EPROTO */
}

void scx_emit_printk(const char *text)
{
	struct scx_sched *s = scx();
	struct sched_event ev;

	sched_event_init(&ev, EV_EXT_PRINTK, s->this_cpu);
	ev.ext_print.pid = s->kf_tasks[0] ? s->kf_tasks[0]->view.pid : 0;
	ev.ext_print.text = sched_text_intern(E, text);
	ev.ext_print.op = s->cur_op;
	sched_emit(&ev);
}

/* ---- task states: init, enable, disable, exit ---- */

static unsigned long sched_weight_to_cgroup(unsigned long weight)
{
	return CLAMP((weight * 100 + 512) / 1024, 1UL, 10000UL);
}

bool task_should_scx(int policy)
{
	if (!scx_enabled() || ST->scx->enable_state == SCX_OPS_DISABLING)
		return false;
	return ST->scx->switching_all || policy == SCHED_EXT;
}

static int scx_ops_init_task(struct task_struct *p, bool fork)
{
	struct scx_entity *se = scx_ent(p);

	se->view.scx.disallow = false;
	if (SCX_HAS_OP(init_task)) {
		struct scx_init_task_args args = { .fork = fork };
		s32 ret = SCX_CALL_OP_RET(SCX_KF_UNLOCKED, EXT_OP_INIT_TASK, se, NULL,
					  ST->scx->ops->init_task(&se->view, &args));

		if (ret)
			return ops_sanitize_err("init_task", ret);
	}
	se->state = SCX_TASK_INIT;
	if (se->view.scx.disallow && fork && p->policy == SCHED_EXT)
		scx_ops_error_op(EXT_OP_INIT_TASK, p,
				 "ops.init_task() set task->scx.disallow for %s[%d] during fork",
				 p->spec->name, p->pid);
	se->view.scx.flags |= SCX_TASK_RESET_RUNNABLE_AT;
	return 0;
}

static void scx_ops_enable_task(struct task_struct *p)
{
	struct scx_entity *se = scx_ent(p);
	unsigned long weight = task_has_idle_policy(p)
				       ? WEIGHT_IDLEPRIO
				       : (unsigned long)sched_prio_to_weight[p->static_prio - MAX_RT_PRIO];

	se->view.scx.weight = (u32)sched_weight_to_cgroup(weight);
	if (SCX_HAS_OP(enable))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_ENABLE, se, ST->scx->ops->enable(&se->view));
	se->state = SCX_TASK_ENABLED;
	if (SCX_HAS_OP(set_weight))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_SET_WEIGHT, se,
			    ST->scx->ops->set_weight(&se->view, se->view.scx.weight));
}

static void clear_direct_dispatch(struct scx_entity *se)
{
	se->ddsp_dsq_id = SCX_DSQ_INVALID;
	se->ddsp_enq_flags = 0;
}

static void scx_ops_disable_task(struct task_struct *p)
{
	struct scx_entity *se = scx_ent(p);

	clear_direct_dispatch(se);
	if (SCX_HAS_OP(disable))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_DISABLE, se, ST->scx->ops->disable(&se->view));
	se->state = SCX_TASK_READY;
	se->view.scx.flags |= SCX_TASK_RESET_RUNNABLE_AT;
}

static void scx_ops_exit_task(struct task_struct *p)
{
	struct scx_entity *se = scx_ent(p);
	struct scx_exit_task_args args = { .cancelled = false };

	switch (se->state) {
	case SCX_TASK_NONE:
		return;
	case SCX_TASK_INIT:
		args.cancelled = true;
		break;
	case SCX_TASK_ENABLED:
		scx_ops_disable_task(p);
		break;
	}
	if (SCX_HAS_OP(exit_task))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_EXIT_TASK, se, ST->scx->ops->exit_task(&se->view, &args));
	se->state = SCX_TASK_NONE;
}

/* scx_fork() and scx_post_fork(): a new task is initialised, and enabled if it runs on ext. */
void scx_fork(struct task_struct *p)
{
	struct scx_sched *s = scx();
	int ret;

	if (!scx_enabled() || s->enable_state == SCX_OPS_DISABLING)
		return;
	s->this_cpu = p->cpu;
	ret = scx_ops_init_task(p, true);
	if (ret) {
		scx_ops_error_op(EXT_OP_INIT_TASK, p, "ops.init_task() failed (%d) for %s[%d]", ret,
				 p->spec->name, p->pid);
		return;
	}
	scx_ent(p)->state = SCX_TASK_READY;
	if (task_on_scx(p))
		scx_ops_enable_task(p);
}

/* sched_ext_free(): a dead task leaves the policy once it is off its CPU. */
void scx_task_dead(struct task_struct *p)
{
	if (ST->scx && p->idx >= 0)
		scx_ops_exit_task(p);
}

/* ---- runnable tracking (rq->scx.runnable_list), what the watchdog walks ---- */

static void set_task_runnable(struct rq *rq, struct scx_entity *se)
{
	struct scx_rq *srq = scx_rq(rq);

	if (se->view.scx.flags & SCX_TASK_RESET_RUNNABLE_AT) {
		se->runnable_at = jiffies();
		se->view.scx.flags &= ~SCX_TASK_RESET_RUNNABLE_AT;
	}
	se->runnable_prev = srq->runnable_last;
	se->runnable_next = NULL;
	if (srq->runnable_last)
		srq->runnable_last->runnable_next = se;
	else
		srq->runnable_first = se;
	srq->runnable_last = se;
	se->runnable = true;
}

static void clr_task_runnable(struct scx_entity *se, bool reset_runnable_at)
{
	if (se->runnable) {
		struct scx_rq *srq = &ST->scx->rq[se->task->cpu];

		if (se->runnable_prev)
			se->runnable_prev->runnable_next = se->runnable_next;
		else
			srq->runnable_first = se->runnable_next;
		if (se->runnable_next)
			se->runnable_next->runnable_prev = se->runnable_prev;
		else
			srq->runnable_last = se->runnable_prev;
		se->runnable_prev = se->runnable_next = NULL;
		se->runnable = false;
	}
	if (reset_runnable_at)
		se->view.scx.flags |= SCX_TASK_RESET_RUNNABLE_AT;
}

/* ---- enqueue and dequeue ---- */

static void update_curr_scx(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	struct scx_entity *se;
	s64 delta_exec;

	if (!task_on_scx(curr))
		return;
	delta_exec = (s64)(rq_clock_task(rq) - curr->se.exec_start);
	if (delta_exec <= 0)
		return;
	curr->se.exec_start = rq_clock_task(rq);
	curr->se.sum_exec_runtime += (u64)delta_exec;
	se = scx_ent(curr);
	if (se->view.scx.slice != SCX_SLICE_INF)
		se->view.scx.slice -= MIN(se->view.scx.slice, (u64)delta_exec);
}

/* A task whose ops.select_cpu() or ops.enqueue() dispatched it goes where it asked. */
static void direct_dispatch(struct task_struct *p, u64 enq_flags)
{
	struct scx_entity *se = scx_ent(p);
	struct rq *rq = task_rq(p);
	struct scx_dispatch_q *dsq = find_dsq_for_dispatch(rq, se->ddsp_dsq_id, p, se->ddsp_op);
	u64 flags;
	u8 op = se->ddsp_op;

	se->ddsp_enq_flags |= enq_flags;
	/*
	 * SCX_DSQ_LOCAL_ON another CPU: the kernel cannot lock that rq in the
	 * enqueue path, so the insert waits until this operation is over.
	 */
	if (dsq->cpu >= 0 && dsq != &scx_rq(rq)->local_dsq) {
		struct scx_rq *srq = scx_rq(rq);

		if (se->ops_state == SCX_OPSS_QUEUEING)
			se->ops_state = SCX_OPSS_NONE;
		se->ddsp_next = NULL;
		if (srq->ddsp_last)
			srq->ddsp_last->ddsp_next = se;
		else
			srq->ddsp_first = se;
		srq->ddsp_last = se;
		se->ddsp_deferred = true;
		ST->scx->kicks_pending = true;
		return;
	}
	flags = se->ddsp_enq_flags;
	clear_direct_dispatch(se);
	dispatch_enqueue(dsq, p, flags | SCX_ENQ_CLEAR_OPSS, op);
}

void do_enqueue_task(struct rq *rq, struct task_struct *p, u64 enq_flags, int sticky_cpu)
{
	struct scx_sched *s = scx();
	struct scx_entity *se = scx_ent(p);

	if (sticky_cpu == rq->cpu)
		goto local_norefill;
	if (scx_rq_bypassing(rq))
		goto global;
	if (se->ddsp_dsq_id != SCX_DSQ_INVALID)
		goto direct;
	if (!SCX_HAS_OP(enqueue))
		goto global;

	/* QSEQ brands this ownership by the policy: a stale dispatch of an earlier one is ignored */
	se->ops_qseq = se->ops_qseq + 1 ? se->ops_qseq + 1 : 1;
	se->ops_state = SCX_OPSS_QUEUEING;
	s->ddsp_task = se;
	s->ddsp_done = false;
	SCX_CALL_OP(SCX_KF_ENQUEUE, EXT_OP_ENQUEUE, se, s->ops->enqueue(&se->view, enq_flags));
	s->ddsp_task = NULL;
	if (se->ddsp_dsq_id != SCX_DSQ_INVALID)
		goto direct;
	se->ops_state = SCX_OPSS_QUEUED;
	return;

direct:
	direct_dispatch(p, enq_flags);
	return;

local_norefill:
	clear_direct_dispatch(se);
	dispatch_enqueue(&scx_rq(rq)->local_dsq, p, enq_flags, SCX_OP_QUIET);
	return;

global:
	se->view.scx.slice = SCX_SLICE_DFL;
	clear_direct_dispatch(se);
	dispatch_enqueue(find_global_dsq(p), p, enq_flags, EXT_OP_CORE);
}

static void enqueue_task_scx(struct rq *rq, struct task_struct *p, int flags)
{
	struct scx_sched *s = scx();
	struct scx_entity *se = scx_ent(p);
	struct scx_rq *srq = scx_rq(rq);
	int sticky_cpu = se->sticky_cpu;
	u64 enq_flags = (u64)(unsigned)flags | srq->extra_enq_flags;

	if (flags & ENQUEUE_RESTORE && p->on_rq != TASK_ON_RQ_MIGRATING)
		s->this_cpu = rq->cpu;
	if (enq_flags & ENQUEUE_WAKEUP)
		srq->flags |= SCX_RQ_IN_WAKEUP;
	if (sticky_cpu >= 0)
		se->sticky_cpu = -1;
	/* a running task put back after an attribute change must stay on its CPU's local DSQ */
	if ((enq_flags & ENQUEUE_RESTORE) && task_current(rq, p))
		sticky_cpu = rq->cpu;
	if (se->view.scx.flags & SCX_TASK_QUEUED)
		goto out;

	set_task_runnable(rq, se);
	se->view.scx.flags |= SCX_TASK_QUEUED;
	srq->nr_running++;
	rq->nr_running++;
	if (SCX_HAS_OP(runnable) && p->on_rq != TASK_ON_RQ_MIGRATING)
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_RUNNABLE, se, s->ops->runnable(&se->view, enq_flags));
	do_enqueue_task(rq, p, enq_flags, sticky_cpu);
out:
	srq->flags &= ~SCX_RQ_IN_WAKEUP;
}

void ops_dequeue(struct task_struct *p, u64 deq_flags)
{
	struct scx_entity *se = scx_ent(p);

	/* the wait goes on across a temporary dequeue: runnable_at is kept */
	clr_task_runnable(se, false);
	if (se->ops_state == SCX_OPSS_QUEUED) {
		if (SCX_HAS_OP(dequeue))
			SCX_CALL_OP(SCX_KF_REST, EXT_OP_DEQUEUE, se,
				    ST->scx->ops->dequeue(&se->view, deq_flags));
		se->ops_state = SCX_OPSS_NONE;
	}
}

static bool dequeue_task_scx(struct rq *rq, struct task_struct *p, int flags)
{
	struct scx_sched *s = scx();
	struct scx_entity *se = scx_ent(p);
	u64 deq_flags = (u64)(unsigned)flags;

	if (!(se->view.scx.flags & SCX_TASK_QUEUED))
		return true;
	if (p->on_rq != TASK_ON_RQ_MIGRATING)
		s->this_cpu = rq->cpu;
	ops_dequeue(p, deq_flags);
	/* running <-> stopping stays inside runnable <-> quiescent: stop it before it goes */
	if (SCX_HAS_OP(stopping) && task_current(rq, p)) {
		update_curr_scx(rq);
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_STOPPING, se, s->ops->stopping(&se->view, false));
	}
	if (SCX_HAS_OP(quiescent) && p->on_rq != TASK_ON_RQ_MIGRATING)
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_QUIESCENT, se, s->ops->quiescent(&se->view, deq_flags));
	if (deq_flags & SCX_DEQ_SLEEP)
		se->view.scx.flags |= SCX_TASK_DEQD_FOR_SLEEP;
	else
		se->view.scx.flags &= ~SCX_TASK_DEQD_FOR_SLEEP;
	se->view.scx.flags &= ~SCX_TASK_QUEUED;
	scx_rq(rq)->nr_running--;
	rq->nr_running--;
	dispatch_dequeue(rq, p);
	clear_direct_dispatch(se);
	return true;
}

static void yield_task_scx(struct rq *rq)
{
	struct task_struct *p = rq->curr;
	struct scx_entity *se = scx_ent(p);

	scx()->this_cpu = rq->cpu;
	if (SCX_HAS_OP(yield))
		SCX_CALL_OP_RET(SCX_KF_REST, EXT_OP_YIELD, se, NULL, scx()->ops->yield(&se->view, NULL));
	else
		se->view.scx.slice = 0;
}

static bool yield_to_task_scx(struct rq *rq, struct task_struct *to)
{
	struct scx_entity *from = scx_ent(rq->curr), *t = scx_ent(to);

	scx()->this_cpu = rq->cpu;
	if (!SCX_HAS_OP(yield))
		return false;
	return SCX_CALL_OP_RET(SCX_KF_REST, EXT_OP_YIELD, from, t, scx()->ops->yield(&from->view, &t->view));
}

static void wakeup_preempt_scx(struct rq *rq, struct task_struct *p, int wake_flags)
{
}

/* ---- balance and pick ---- */

static bool scx_cpu_preempt_ops(void)
{
	return SCX_HAS_OP(cpu_acquire) || SCX_HAS_OP(cpu_release);
}

/* A CPU rescheduled this often at one instant is live-locked by its policy: stop it. */
static void scx_note_resched(struct rq *rq)
{
	struct scx_rq *srq = scx_rq(rq);

	if (srq->resched_at != ST->now) {
		srq->resched_at = ST->now;
		srq->resched_count = 0;
	}
	if (++srq->resched_count == SCX_MAX_RESCHED_PER_INSTANT)
		scx_ops_error_op(
			EXT_OP_DISPATCH, NULL,
			"CPU %d rescheduled %d times at one instant without time passing: the policy "
			"keeps kicking it or dispatching nothing it can run",
			rq->cpu, SCX_MAX_RESCHED_PER_INSTANT);
}

static int balance_one(struct rq *rq, struct task_struct *prev)
{
	struct scx_sched *s = scx();
	struct scx_rq *srq = scx_rq(rq);
	bool prev_on_scx = task_on_scx(prev);
	struct scx_entity *pse = prev_on_scx ? scx_ent(prev) : NULL;
	bool prev_on_rq = pse && (pse->view.scx.flags & SCX_TASK_QUEUED);
	int nr_loops = SCX_DSP_MAX_LOOPS;

	s->this_cpu = rq->cpu;
	srq->flags |= SCX_RQ_IN_BALANCE;
	srq->flags &= ~(SCX_RQ_BAL_PENDING | SCX_RQ_BAL_KEEP);
	scx_note_resched(rq);

	if (scx_cpu_preempt_ops() && srq->cpu_released) {
		/* the CPU comes back to the policy after a higher class had it */
		if (SCX_HAS_OP(cpu_acquire))
			SCX_CALL_OP(SCX_KF_REST, EXT_OP_CPU_ACQUIRE, NULL,
				    s->ops->cpu_acquire(rq->cpu, NULL));
		srq->cpu_released = false;
	}
	if (prev_on_scx) {
		update_curr_scx(rq);
		/* prev has slice left: fetching more would only add latency to what is fetched */
		if (prev_on_rq && pse->view.scx.slice && !scx_rq_bypassing(rq)) {
			srq->flags |= SCX_RQ_BAL_KEEP;
			goto has_tasks;
		}
	}
	if (srq->local_dsq.nr)
		goto has_tasks;
	if (consume_global_dsq(rq))
		goto has_tasks;
	if (!SCX_HAS_OP(dispatch) || scx_rq_bypassing(rq) || !(srq->flags & SCX_RQ_ONLINE))
		goto no_tasks;

	s->dsp_rq = rq;
	do {
		s->dsp_nr_tasks = 0;
		SCX_CALL_OP(SCX_KF_DISPATCH, EXT_OP_DISPATCH, NULL,
			    s->ops->dispatch(rq->cpu, prev_on_scx ? &pse->view : NULL));
		flush_dispatch_buf(rq);
		if (prev_on_rq && pse->view.scx.slice) {
			srq->flags |= SCX_RQ_BAL_KEEP;
			goto has_tasks;
		}
		if (srq->local_dsq.nr)
			goto has_tasks;
		if (consume_global_dsq(rq))
			goto has_tasks;
		/* a policy dispatching only what cannot run here: try again in a new cycle */
		if (!--nr_loops) {
			scx_kick_cpu(rq->cpu, 0);
			break;
		}
	} while (s->dsp_nr_tasks);

no_tasks:
	/* nothing else to run: keep prev unless SCX_OPS_ENQ_LAST asks to be told */
	if (prev_on_rq && (!(s->ops->flags & SCX_OPS_ENQ_LAST) || scx_rq_bypassing(rq))) {
		srq->flags |= SCX_RQ_BAL_KEEP;
		goto has_tasks;
	}
	srq->flags &= ~SCX_RQ_IN_BALANCE;
	return 0;

has_tasks:
	srq->flags &= ~SCX_RQ_IN_BALANCE;
	return 1;
}

static int balance_scx(struct rq *rq, struct task_struct *prev)
{
	return balance_one(rq, prev);
}

/* Set before every pick: cleared by balance_scx(), so pick_task_scx() can tell it was skipped. */
void scx_note_balance_pending(struct rq *rq)
{
	scx_rq(rq)->flags |= SCX_RQ_BAL_PENDING;
}

static struct task_struct *pick_task_scx(struct rq *rq)
{
	struct scx_sched *s = scx();
	struct scx_rq *srq = scx_rq(rq);
	struct task_struct *prev = rq->curr, *p;
	struct scx_entity *se;
	bool keep_prev = srq->flags & SCX_RQ_BAL_KEEP, kick_idle = false;

	s->this_cpu = rq->cpu;
	/*
	 * The kernel's workaround: fair's balance() said yes (a task of any
	 * class is queued) so balance_scx() did not run; keep prev if it can
	 * run, else see that the CPU gets a full cycle before idling.
	 */
	if (srq->flags & SCX_RQ_BAL_PENDING) {
		if (task_on_scx(prev) && (scx_ent(prev)->view.scx.flags & SCX_TASK_QUEUED)) {
			keep_prev = true;
		} else {
			keep_prev = false;
			kick_idle = true;
		}
	} else if (keep_prev && !task_on_scx(prev)) {
		keep_prev = false;
	}

	if (keep_prev) {
		p = prev;
		se = scx_ent(p);
		if (!se->view.scx.slice)
			se->view.scx.slice = SCX_SLICE_DFL;
		return p;
	}
	p = first_local_task(rq);
	if (!p) {
		if (kick_idle)
			scx_kick_cpu(rq->cpu, SCX_KICK_IDLE);
		return NULL;
	}
	se = scx_ent(p);
	if (!se->view.scx.slice) {
		if (!scx_rq_bypassing(rq) && !s->warned_zero_slice) {
			char line[128];

			snprintf(line, sizeof(line), "sched_ext: %s[%d] has zero slice in pick_task_scx()",
				 p->spec->name, p->pid);
			scx_emit_printk(line);
			s->warned_zero_slice = true;
		}
		se->view.scx.slice = SCX_SLICE_DFL;
	}
	return p;
}

static enum scx_cpu_preempt_reason preempt_reason_from_class(const struct sched_class *class)
{
	if (class == &dl_sched_class)
		return SCX_CPU_PREEMPT_DL;
	if (class == &rt_sched_class)
		return SCX_CPU_PREEMPT_RT;
	return SCX_CPU_PREEMPT_UNKNOWN;
}

/* A higher class takes the CPU: ops.cpu_release(), once until the policy has it back. */
static void switch_class(struct rq *rq, struct task_struct *next)
{
	struct scx_rq *srq = scx_rq(rq);

	if (!scx_cpu_preempt_ops())
		return;
	if (next && sched_class_above(&ext_sched_class, next->sched_class))
		return;
	if (!srq->cpu_released) {
		if (SCX_HAS_OP(cpu_release)) {
			struct scx_cpu_release_args args = {
				.reason = next ? preempt_reason_from_class(next->sched_class)
					       : SCX_CPU_PREEMPT_STOP,
				.task = view_of(next),
			};

			SCX_CALL_OP(SCX_KF_CPU_RELEASE, EXT_OP_CPU_RELEASE, NULL,
				    scx()->ops->cpu_release(rq->cpu, &args));
		}
		srq->cpu_released = true;
	}
}

static void put_prev_task_scx(struct rq *rq, struct task_struct *p, struct task_struct *next)
{
	struct scx_sched *s = scx();
	struct scx_entity *se = scx_ent(p);

	s->this_cpu = rq->cpu;
	update_curr_scx(rq);
	if (SCX_HAS_OP(stopping) && (se->view.scx.flags & SCX_TASK_QUEUED))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_STOPPING, se, s->ops->stopping(&se->view, true));

	if (se->view.scx.flags & SCX_TASK_QUEUED) {
		set_task_runnable(rq, se);
		/* slice left: preempted by a higher class, it stays first in line here */
		if (se->view.scx.slice && !scx_rq_bypassing(rq)) {
			dispatch_enqueue(&scx_rq(rq)->local_dsq, p, SCX_ENQ_HEAD, EXT_OP_CORE);
			goto out;
		}
		if (next && sched_class_above(&ext_sched_class, next->sched_class)) {
			/* about to go idle with p runnable: SCX_OPS_ENQ_LAST tells the policy so */
			do_enqueue_task(rq, p, SCX_ENQ_LAST, -1);
			/* put back on this local DSQ, it runs: the CPU picks again after the switch */
			if (se->dsq == &scx_rq(rq)->local_dsq)
				resched_curr(rq);
		} else {
			do_enqueue_task(rq, p, 0, -1);
		}
	}
out:
	if (!next || next->sched_class != &ext_sched_class)
		switch_class(rq, next);
}

static void set_next_task_scx(struct rq *rq, struct task_struct *p)
{
	struct scx_sched *s = scx();
	struct scx_entity *se = scx_ent(p);

	s->this_cpu = rq->cpu;
	if (se->view.scx.flags & SCX_TASK_QUEUED) {
		ops_dequeue(p, SCX_DEQ_CORE_SCHED_EXEC);
		dispatch_dequeue(rq, p);
	}
	p->se.exec_start = rq_clock_task(rq);
	p->se.prev_sum_exec_runtime = p->se.sum_exec_runtime;
	if (SCX_HAS_OP(running) && (se->view.scx.flags & SCX_TASK_QUEUED))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_RUNNING, se, s->ops->running(&se->view));
	clr_task_runnable(se, true);
}

/* ---- wakeup placement ---- */

int select_task_rq_scx(struct task_struct *p, int prev_cpu, int wake_flags, int this_cpu)
{
	struct scx_sched *s = scx();
	struct scx_entity *se = scx_ent(p);
	u64 flags = (u64)(wake_flags & (WF_FORK | WF_TTWU | WF_SYNC));
	bool found;
	s32 cpu;

	s->this_cpu = this_cpu;
	if (p->nr_cpus_allowed <= 1) {
		for (cpu = 0; cpu < ST->nr_cpus; cpu++)
			if (task_allowed_on_cpu(p, cpu))
				return cpu;
		return prev_cpu;
	}
	if (SCX_HAS_OP(select_cpu) && !scx_rq_bypassing(task_rq(p))) {
		s->ddsp_task = se;
		s->ddsp_done = false;
		cpu = SCX_CALL_OP_RET(SCX_KF_ENQUEUE | SCX_KF_SELECT_CPU, EXT_OP_SELECT_CPU, se, NULL,
				      s->ops->select_cpu(&se->view, prev_cpu, flags));
		s->ddsp_task = NULL;
		if (cpu >= 0 && cpu < ST->nr_cpus)
			return cpu;
		scx_ops_error_op(EXT_OP_SELECT_CPU, p, "invalid CPU %d from ops.select_cpu()", cpu);
		return prev_cpu;
	}
	cpu = scx_select_cpu_dfl(p, prev_cpu, flags, &found);
	if (found) {
		se->view.scx.slice = SCX_SLICE_DFL;
		se->ddsp_dsq_id = SCX_DSQ_LOCAL;
		se->ddsp_op = EXT_OP_CORE;
	}
	return cpu;
}

/* ---- the tick and the watchdog ---- */

static void task_tick_scx(struct rq *rq, struct task_struct *curr, int queued)
{
	struct scx_entity *se = scx_ent(curr);

	scx()->this_cpu = rq->cpu;
	update_curr_scx(rq);
	if (scx_rq_bypassing(rq))
		se->view.scx.slice = 0;
	else if (SCX_HAS_OP(tick))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_TICK, se, scx()->ops->tick(&se->view));
	if (!se->view.scx.slice)
		resched_curr(rq);
}

/* scx_tick(): the other classes' load averages, which fair's tick would keep up otherwise. */
void scx_tick(struct rq *rq)
{
	u64 now = rq_clock_pelt(rq);

	if (!scx_enabled())
		return;
	update_rt_rq_load_avg(now, rq, rq->curr->sched_class == &rt_sched_class);
	update_dl_rq_load_avg(now, rq, rq->curr->sched_class == &dl_sched_class);
	update_irq_load_avg(rq, 0);
}

static u64 watchdog_interval(void)
{
	return MAX(ST->scx->watchdog_timeout / 2, 1) * TICK_NSEC;
}

/* scx_watchdog_workfn(): a task runnable for longer than the timeout stalls the policy. */
static void scx_watchdog_workfn(void)
{
	struct scx_sched *s = scx();

	if (!scx_enabled())
		return;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		for (struct scx_entity *se = s->rq[cpu].runnable_first; se; se = se->runnable_next) {
			u64 waited = jiffies() - se->runnable_at;

			if ((s64)(jiffies() - (se->runnable_at + s->watchdog_timeout)) > 0) {
				u64 ms = waited * TICK_NSEC / NSEC_PER_MSEC;

				s->this_cpu = se->task->cpu;
				scx_exit_op(SCX_EXIT_ERROR_STALL, 0, EXT_OP_CORE, se->task,
					    "%s[%d] failed to run for %u.%03us", se->task->spec->name,
					    se->task->pid, (unsigned)(ms / 1000), (unsigned)(ms % 1000));
				return;
			}
		}
	}
	timer_arm(&ST->tq, &s->watchdog_timer, ST->now + watchdog_interval());
}

/* ---- joining and leaving the class ---- */

static void reweight_task_scx(struct rq *rq, struct task_struct *p, unsigned long weight, u32 inv)
{
	struct scx_entity *se = scx_ent(p);

	se->view.scx.weight = (u32)sched_weight_to_cgroup(scale_load_down(weight));
	if (SCX_HAS_OP(set_weight))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_SET_WEIGHT, se,
			    scx()->ops->set_weight(&se->view, se->view.scx.weight));
}

static void prio_changed_scx(struct rq *rq, struct task_struct *p, int oldprio)
{
}

static void switching_to_scx(struct rq *rq, struct task_struct *p)
{
	struct scx_entity *se = scx_ent(p);

	scx()->this_cpu = rq->cpu;
	scx_ops_enable_task(p);
	if (SCX_HAS_OP(set_cpumask))
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_SET_CPUMASK, se,
			    scx()->ops->set_cpumask(&se->view, se->view.cpus_ptr));
}

static void switched_from_scx(struct rq *rq, struct task_struct *p)
{
	scx_ops_disable_task(p);
}

static void switched_to_scx(struct rq *rq, struct task_struct *p)
{
}

const struct sched_class ext_sched_class = {
	.name = "ext",
	.enqueue_task = enqueue_task_scx,
	.dequeue_task = dequeue_task_scx,
	.yield_task = yield_task_scx,
	.yield_to_task = yield_to_task_scx,
	.wakeup_preempt = wakeup_preempt_scx,
	.balance = balance_scx,
	.pick_task = pick_task_scx,
	.put_prev_task = put_prev_task_scx,
	.set_next_task = set_next_task_scx,
	.task_tick = task_tick_scx,
	.reweight_task = reweight_task_scx,
	.switching_to = switching_to_scx,
	.switched_from = switched_from_scx,
	.switched_to = switched_to_scx,
	.prio_changed = prio_changed_scx,
};

/* ---- idle transitions ---- */

void scx_update_idle(struct rq *rq, bool idle, bool do_notify)
{
	struct scx_sched *s = ST->scx;

	if (!scx_enabled())
		return;
	if (SCX_HAS_OP(update_idle) && do_notify && !scx_rq_bypassing(rq)) {
		s->this_cpu = rq->cpu;
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_UPDATE_IDLE, NULL, s->ops->update_idle(rq->cpu, idle));
	}
	if (s->builtin_idle && (do_notify || is_idle_task(rq->curr)))
		update_builtin_idle(rq->cpu, idle);
}

/* ---- enabling at boot, disabling on error ---- */

size_t scx_arena_need(const struct sched_scenario *sc)
{
	const struct sched_ext_ops *ops = sc->ext_ops;
	size_t n = 0, cpus = (size_t)sc->topo->nr_cpus, tasks = (size_t)sc->nr_tasks;
	u32 batch;

	if (!ops)
		return 0;
	batch = ops->dispatch_max_batch ? ops->dispatch_max_batch : SCX_DSP_DFL_MAX_BATCH;
	n += sizeof(struct scx_sched) + 64;
	n += cpus * (sizeof(struct scx_rq) + sizeof(s32)) + 32;
	n += (size_t)sc->topo->nr_nodes * sizeof(struct scx_dispatch_q) + 16;
	n += (cpus * 4 + 64) * sizeof(struct scx_dispatch_q) + 16;
	n += tasks * sizeof(struct scx_entity) + 16;
	n += (size_t)batch * sizeof(struct scx_dsp_buf_ent) + 16;
	/* the policy's memory: each piece 16-byte aligned */
	n += ((size_t)ops->global_size + 15) + tasks * (((size_t)ops->task_size + 15) & ~(size_t)15) +
	     cpus * (((size_t)ops->cpu_size + 15) & ~(size_t)15) + 16;
	return n;
}

static void init_entity(struct scx_entity *se, struct task_struct *p, const struct cpumask *all)
{
	const struct sched_task_spec *spec = p->spec;

	se->task = p;
	se->view.pid = p->pid;
	snprintf(se->view.comm, sizeof(se->view.comm), "%s", spec->name);
	se->view.cpus_ptr = spec->has_cpus ? &spec->cpus : all;
	se->view.nr_cpus_allowed = p->nr_cpus_allowed;
	se->view.scx.slice = SCX_SLICE_DFL;
	se->sticky_cpu = -1;
	se->ddsp_dsq_id = SCX_DSQ_INVALID;
}

/* Policy memory pieces are 16-byte aligned, as malloc's would be. */
static size_t align16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

void scx_init(void *(*alloc)(struct sched_engine *, size_t))
{
	const struct sched_ext_ops *ops = E->sc->ext_ops;
	const struct sched_topology *topo = E->sc->topo;
	struct scx_sched *s;
	char *mem;
	int nr_cpus = ST->nr_cpus;

	if (!ops)
		return;
	s = ST->scx = alloc(E, sizeof(*s));
	s->ops = ops;
	s->enable_state = SCX_OPS_DISABLED;
	s->rq = alloc(E, (size_t)nr_cpus * sizeof(*s->rq));
	s->nr_nodes = MAX(topo->nr_nodes, 1);
	s->global = alloc(E, (size_t)s->nr_nodes * sizeof(*s->global));
	for (int n = 0; n < s->nr_nodes; n++)
		init_dsq(&s->global[n], SCX_DSQ_GLOBAL, -1, n);
	s->cap_user = nr_cpus * 4 + 64;
	s->user = alloc(E, (size_t)s->cap_user * sizeof(*s->user));
	s->ent = alloc(E, (size_t)ST->nr_tasks * sizeof(*s->ent));
	s->dsp_max_batch = ops->dispatch_max_batch ? ops->dispatch_max_batch : SCX_DSP_DFL_MAX_BATCH;
	s->dsp_buf = alloc(E, (size_t)s->dsp_max_batch * sizeof(*s->dsp_buf));
	s->cpu_llc = alloc(E, (size_t)nr_cpus * sizeof(*s->cpu_llc));
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		int llc = -1;

		cpumask_set(&s->possible, cpu);
		for (int c = 0; c < cpu && llc < 0; c++)
			if (topo->cpu[c].llc == topo->cpu[cpu].llc)
				llc = s->cpu_llc[c];
		s->cpu_llc[cpu] = llc >= 0 ? llc : (s32)s->nr_llcs++;
	}

	mem = alloc(E, align16(ops->global_size) + (size_t)ST->nr_tasks * align16(ops->task_size) +
			       (size_t)nr_cpus * align16(ops->cpu_size));
	s->global_data = mem;
	mem += align16(ops->global_size);
	for (int i = 0; i < ST->nr_tasks; i++) {
		init_entity(&s->ent[i], &ST->task[i], &s->possible);
		s->ent[i].data = mem;
		mem += align16(ops->task_size);
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct scx_rq *srq = &s->rq[cpu];

		init_dsq(&srq->local_dsq, SCX_DSQ_LOCAL, cpu, topo->cpu[cpu].node);
		srq->flags = SCX_RQ_ONLINE;
		srq->data = mem;
		mem += align16(ops->cpu_size);
	}
	s->mem_end = mem;
	s->watchdog_timer.kind = T_SCX_WATCHDOG;
	s->watchdog_timer.heap_idx = -1;
	for (int i = 0; i < SCX_NR_TIMERS; i++) {
		s->timer[i].timer.kind = T_SCX_TIMER;
		s->timer[i].timer.arg = i;
		s->timer[i].timer.heap_idx = -1;
	}
	/* the policy is loaded at boot, before any task: the first timer of time 0 */
	timer_arm(&ST->tq, &s->watchdog_timer, 0);
}

static void emit_enable(void)
{
	struct scx_sched *s = scx();
	struct sched_event ev;

	sched_event_init(&ev, EV_EXT_ENABLE, 0);
	ev.ext_exit.text = sched_text_intern(E, s->ops->name);
	ev.ext_exit.kind = !s->switching_all;
	sched_emit(&ev);
}

/* scx_ops_enable_workfn(), at time 0 with no task forked yet. */
static void scx_ops_enable(void)
{
	struct scx_sched *s = scx();
	const struct sched_ext_ops *ops = s->ops;
	u64 timeout_ns;

	s->enable_state = SCX_OPS_ENABLING;
	s->exit_kind = SCX_EXIT_NONE;
	s->this_cpu = 0;
	s->builtin_idle = !ops->update_idle || (ops->flags & SCX_OPS_KEEP_BUILTIN_IDLE);
	if (s->builtin_idle)
		scx_reset_idle_masks();
	s->switching_all = !(ops->flags & SCX_OPS_SWITCH_PARTIAL);
	emit_enable();
	if (ops->init) {
		s32 ret = SCX_CALL_OP_RET(SCX_KF_UNLOCKED, EXT_OP_INIT, NULL, NULL, ops->init());

		if (ret) {
			ret = ops_sanitize_err("init", ret);
			scx_ops_error_op(EXT_OP_INIT, NULL, "ops.init() failed (%d)", ret);
			return;
		}
	}
	if ((ops->flags & SCX_OPS_ENQ_LAST) && !ops->enqueue) {
		scx_ops_error_op(EXT_OP_CORE, NULL,
				 "SCX_OPS_ENQ_LAST requires ops.enqueue() to be implemented");
		return;
	}
	timeout_ns =
		ops->timeout_ms ? (u64)ops->timeout_ms * NSEC_PER_MSEC : sysctl(TUN_SCX_WATCHDOG_TIMEOUT);
	/* msecs_to_jiffies() rounds up */
	s->watchdog_timeout = (timeout_ns + TICK_NSEC - 1) / TICK_NSEC;
	timer_arm(&ST->tq, &s->watchdog_timer, ST->now + watchdog_interval());
	s->enable_state = SCX_OPS_ENABLED;
}

/* The watchdog timer's first firing, armed for time 0 before any fork, is the enable. */
void scx_watchdog_timer_fn(void)
{
	if (!ST->scx->loaded) {
		ST->scx->loaded = true;
		scx_ops_enable();
	} else {
		scx_watchdog_workfn();
	}
}

static void emit_exit(void)
{
	struct scx_sched *s = scx();
	struct sched_event ev;

	sched_event_init(&ev, EV_EXT_EXIT, s->exit_cpu);
	ev.ext_exit.pid = s->exit_pid;
	ev.ext_exit.text = sched_text_intern(E, s->exit_msg);
	ev.ext_exit.kind = (u16)s->exit_kind;
	ev.ext_exit.op = s->exit_op;
	ev.ext_exit.exit_code = s->exit_code;
	sched_emit(&ev);
}

/*
 * scx_ops_disable_workfn(): every task back to the fair class, the policy
 * told (ops.disable, ops.exit_task, then ops.exit), its queues destroyed.
 * Bypass mode first, so nothing of the policy's runs while tasks move.
 */
static void scx_ops_disable_workfn(void)
{
	struct scx_sched *s = scx();
	struct scx_exit_info ei;

	s->this_cpu = s->exit_cpu;
	emit_exit();
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		s->rq[cpu].flags |= SCX_RQ_BYPASSING;
	s->enable_state = SCX_OPS_DISABLING;
	s->switching_all = false;
	for (int i = 0; i < ST->nr_tasks; i++) {
		struct task_struct *p = &ST->task[i];

		if (p->state == TASK_NEW)
			continue;
		if (task_on_scx(p) && p->state != TASK_DEAD) {
			s->this_cpu = p->cpu;
			sched_change_class(p, &fair_sched_class);
		}
		scx_ops_exit_task(p);
	}
	timer_cancel(&ST->tq, &s->watchdog_timer);
	for (int i = 0; i < SCX_NR_TIMERS; i++) {
		timer_cancel(&ST->tq, &s->timer[i].timer);
		s->timer[i].used = false;
	}
	ei = (struct scx_exit_info){
		.kind = (enum scx_exit_kind)s->exit_kind,
		.exit_code = s->exit_code,
		.reason = ext_exit_reason(s->exit_kind),
		.msg = s->exit_msg,
	};
	s->this_cpu = s->exit_cpu;
	if (s->ops->exit)
		SCX_CALL_OP(SCX_KF_UNLOCKED, EXT_OP_EXIT, NULL, s->ops->exit(&ei));
	for (int i = 0; i < s->nr_user; i++)
		s->user[i].id = SCX_DSQ_INVALID;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++)
		s->rq[cpu].flags &= ~SCX_RQ_BYPASSING;
	s->enable_state = SCX_OPS_DISABLED;
}

/* Deferred dispatches to other CPUs' local DSQs (process_ddsp_deferred_locals()). */
static void process_ddsp_deferred_locals(struct rq *rq)
{
	struct scx_rq *srq = scx_rq(rq);
	struct scx_entity *se;

	while ((se = srq->ddsp_first)) {
		struct task_struct *p = se->task;
		struct scx_dispatch_q *dsq;
		u64 dsq_id = se->ddsp_dsq_id, enq_flags = se->ddsp_enq_flags;
		u8 op = se->ddsp_op;

		srq->ddsp_first = se->ddsp_next;
		if (!srq->ddsp_first)
			srq->ddsp_last = NULL;
		se->ddsp_next = NULL;
		se->ddsp_deferred = false;
		clear_direct_dispatch(se);
		dsq = find_dsq_for_dispatch(rq, dsq_id, p, op);
		if (dsq->cpu >= 0)
			dispatch_to_local_dsq(rq, dsq, p, enq_flags, op);
	}
}

/*
 * What the kernel runs once the operation that asked for it is over (irq
 * work and balance callbacks): deferred local dispatches, kicks, and a
 * disable that an error or the policy asked for.
 */
void scx_run_deferred(void)
{
	struct scx_sched *s = ST->scx;

	if (!s)
		return;
	if (s->exit_kind != SCX_EXIT_NONE && s->enable_state != SCX_OPS_DISABLED) {
		scx_ops_disable_workfn();
		return;
	}
	if (!s->kicks_pending)
		return;
	s->kicks_pending = false;
	for (int cpu = 0; cpu < ST->nr_cpus; cpu++) {
		if (s->rq[cpu].ddsp_first) {
			s->this_cpu = cpu;
			process_ddsp_deferred_locals(cpu_rq(cpu));
		}
	}
	scx_kick_cpus();
}

/* A policy's bpf_timer fired: its callback runs on the CPU that started it. */
void scx_timer_fn(int slot)
{
	struct scx_sched *s = scx();
	struct scx_timer_slot *t = &s->timer[slot];

	if (!scx_enabled() || !t->used || !t->callback)
		return;
	if (t->fired_at != ST->now) {
		t->fired_at = ST->now;
		t->fired_count = 0;
	}
	/* a callback that restarts itself with no delay would stop the clock */
	if (++t->fired_count > SCX_MAX_RESCHED_PER_INSTANT) {
		scx_ops_error_op(EXT_OP_TIMER, NULL,
				 "a bpf_timer fired %d times at one instant: restarted "
				 "with no delay",
				 SCX_MAX_RESCHED_PER_INSTANT);
		return;
	}
	s->this_cpu = t->cpu;
	SCX_CALL_OP(SCX_KF_UNLOCKED, EXT_OP_TIMER, NULL, t->callback(NULL, NULL, t->owner));
}
