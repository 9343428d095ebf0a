// SPDX-License-Identifier: GPL-2.0
/*
 * The ext class (kernel/sched/ext.c of Linux 6.12): scheduling decided by a
 * policy plug-in through struct sched_ext_ops, between fair and idle. A CPU
 * runs what its local dispatch queue holds; when that is empty it consumes
 * the global queue, then asks ops.dispatch(). Slices count down at the
 * tick. The queues are ext_dsq.c's, the idle tracking ext_idle.c's, what
 * the policy calls ext_kfunc.c's, its enable, watchdog and disable
 * ext_enable.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ext.h"
#include "balance.h"

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

s32 ops_sanitize_err(const char *ops_name, s32 err)
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

void clear_direct_dispatch(struct scx_entity *se)
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

void scx_ops_exit_task(struct task_struct *p)
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
	list_add_tail(&se->runnable_node, &srq->runnable_list);
	se->runnable = true;
}

static void clr_task_runnable(struct scx_entity *se, bool reset_runnable_at)
{
	if (se->runnable) {
		list_del_init(&se->runnable_node);
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
	if (sticky_cpu >= 0)
		se->sticky_cpu = -1;
	/* a running task put back after an attribute change must stay on its CPU's local DSQ */
	if ((enq_flags & ENQUEUE_RESTORE) && task_current(rq, p))
		sticky_cpu = rq->cpu;
	if (se->view.scx.flags & SCX_TASK_QUEUED)
		return;

	set_task_runnable(rq, se);
	se->view.scx.flags |= SCX_TASK_QUEUED;
	srq->nr_running++;
	rq->nr_running++;
	if (SCX_HAS_OP(runnable) && p->on_rq != TASK_ON_RQ_MIGRATING)
		SCX_CALL_OP(SCX_KF_REST, EXT_OP_RUNNABLE, se, s->ops->runnable(&se->view, enq_flags));
	do_enqueue_task(rq, p, enq_flags, sticky_cpu);
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

static void set_next_task_scx(struct rq *rq, struct task_struct *p, bool first)
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

/* set_cpus_allowed_scx(): the policy hears of every new affinity */
static void set_cpus_allowed_scx(struct task_struct *p)
{
	struct scx_entity *se = scx_ent(p);

	scx()->this_cpu = p->cpu;
	se->view.nr_cpus_allowed = p->nr_cpus_allowed;
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
	.set_cpus_allowed = set_cpus_allowed_scx,
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
