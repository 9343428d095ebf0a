// SPDX-License-Identifier: GPL-2.0
/*
 * The ext policy's life (kernel/sched/ext.c of 6.12): its memory carved
 * from the arena, the enable at boot (ops.init()), the watchdog, the
 * disable that an error, a stall or the policy's own exit asks for
 * (scx_ops_disable_workfn()), and the work the kernel defers to the end of
 * an operation: dispatches to other CPUs' local queues, kicks, bpf_timers.
 */
#include <stdio.h>

#include "ext.h"
#include "balance.h"

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
		struct scx_entity *se;

		list_for_each_entry (se, &s->rq[cpu].runnable_list, runnable_node) {
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

static void init_entity(struct scx_entity *se, struct task_struct *p)
{
	const struct sched_task_spec *spec = p->spec;

	se->task = p;
	se->view.pid = p->pid;
	snprintf(se->view.comm, sizeof(se->view.comm), "%s", spec->name);
	se->view.cpus_ptr = &p->cpus_mask;
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
		init_entity(&s->ent[i], &ST->task[i]);
		s->ent[i].data = mem;
		mem += align16(ops->task_size);
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct scx_rq *srq = &s->rq[cpu];

		init_dsq(&srq->local_dsq, SCX_DSQ_LOCAL, cpu, topo->cpu[cpu].node);
		INIT_LIST_HEAD(&srq->runnable_list);
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
 * disable that an error or the policy asked for. With a policy loaded only.
 */
void scx_run_deferred(void)
{
	struct scx_sched *s = ST->scx;

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
