// SPDX-License-Identifier: GPL-2.0
/*
 * The ext class's dispatch queues (DSQs, kernel/sched/ext.c of 6.12): one
 * local queue per CPU, whose head that CPU runs; the global queue (one per
 * NUMA node, as 6.12 splits it); and the queues a policy creates, each
 * either FIFO or ordered by p->scx.dsq_vtime, never both. Every insert and
 * every move to a local queue is an event naming the operation that made it.
 */
#include "ext.h"
#include "balance.h"

void init_dsq(struct scx_dispatch_q *dsq, u64 id, s32 cpu, s32 node)
{
	*dsq = (struct scx_dispatch_q){ .id = id, .cpu = cpu, .node = node };
	INIT_LIST_HEAD(&dsq->list);
}

static void emit_dispatch(struct task_struct *p, const struct scx_dispatch_q *dsq, u64 dsq_id, int how, u8 op,
			  u64 enq_flags)
{
	struct scx_entity *se = scx_ent(p);
	struct sched_event ev;

	sched_event_init(&ev, EV_EXT_DISPATCH, scx()->this_cpu);
	ev.ext_dsp.pid = p->pid;
	ev.ext_dsp.dest_cpu = (s16)dsq->cpu;
	ev.ext_dsp.op = op;
	ev.ext_dsp.how = (u8)how;
	ev.ext_dsp.dsq_id = dsq_id;
	ev.ext_dsp.slice = se->view.scx.slice;
	ev.ext_dsp.vtime = se->view.scx.dsq_vtime;
	ev.ext_dsp.enq_flags = enq_flags & ~(SCX_ENQ_CLEAR_OPSS | SCX_ENQ_DSQ_PRIQ);
	sched_emit(&ev);
}

/* The ID a policy would use for this queue: a local one as SCX_DSQ_LOCAL_ON | cpu. */
static u64 dsq_public_id(const struct scx_dispatch_q *dsq)
{
	return dsq->cpu >= 0 ? SCX_DSQ_LOCAL_ON | (u64)dsq->cpu : dsq->id;
}

struct scx_dispatch_q *find_global_dsq(struct task_struct *p)
{
	struct scx_sched *s = scx();
	int node = E->sc->topo->cpu[p->cpu].node;

	return &s->global[node < s->nr_nodes ? node : 0];
}

struct scx_dispatch_q *find_user_dsq(u64 dsq_id)
{
	struct scx_sched *s = scx();

	if (dsq_id & SCX_DSQ_FLAG_BUILTIN)
		return NULL;
	for (int i = 0; i < s->nr_user; i++)
		if (s->user[i].id == dsq_id)
			return &s->user[i];
	return NULL;
}

/* ---- linking ---- */

/* FIFO: at the tail, or at the head for SCX_ENQ_HEAD and SCX_ENQ_PREEMPT */
static void dsq_insert(struct scx_dispatch_q *dsq, struct scx_entity *se, u64 enq_flags)
{
	if (enq_flags & (SCX_ENQ_HEAD | SCX_ENQ_PREEMPT))
		list_add(&se->dsq_node, &dsq->list);
	else
		list_add_tail(&se->dsq_node, &dsq->list);
}

static void task_unlink_from_dsq(struct scx_entity *se, struct scx_dispatch_q *dsq)
{
	if (se->on_priq) {
		se->on_priq = false;
		dsq->nr_priq--;
	}
	list_del_init(&se->dsq_node);
	dsq->nr--;
}

static bool vtime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* A local DSQ got a task: preempt for SCX_ENQ_PREEMPT, or wake the CPU if a lower class runs. */
static void local_dsq_post_enq(struct scx_dispatch_q *dsq, struct task_struct *p, u64 enq_flags)
{
	struct rq *rq = cpu_rq(dsq->cpu);
	bool preempt = false;

	/* a CPU in balance is already looking for its next task */
	if (scx_rq(rq)->flags & SCX_RQ_IN_BALANCE)
		return;
	if ((enq_flags & SCX_ENQ_PREEMPT) && p != rq->curr && task_on_scx(rq->curr)) {
		scx_ent(rq->curr)->view.scx.slice = 0;
		preempt = true;
	}
	if (preempt || sched_class_above(&ext_sched_class, rq->curr->sched_class))
		resched_curr(rq);
}

void dispatch_enqueue(struct scx_dispatch_q *dsq, struct task_struct *p, u64 enq_flags, u8 op)
{
	struct scx_entity *se = scx_ent(p);
	bool is_local = dsq->cpu >= 0;

	if (!is_local && dsq->id == SCX_DSQ_INVALID) {
		scx_ops_error_op(op, p, "attempting to dispatch to a destroyed dsq");
		dsq = find_global_dsq(p);
	}
	if ((dsq->id & SCX_DSQ_FLAG_BUILTIN) && (enq_flags & SCX_ENQ_DSQ_PRIQ)) {
		/* built-in queues are FIFO: a vtime task could starve behind FIFO ones */
		scx_ops_error_op(op, p, "cannot use vtime ordering for built-in DSQs");
		enq_flags &= ~SCX_ENQ_DSQ_PRIQ;
	}
	if (enq_flags & SCX_ENQ_DSQ_PRIQ) {
		struct list_head *prev;

		if (!dsq->nr_priq && dsq->nr)
			scx_ops_error_op(op, p, "DSQ ID 0x%016llx already had FIFO-enqueued tasks",
					 (unsigned long long)dsq->id);
		/* after every task not later than it: equal vtimes stay in FIFO order */
		list_for_each_prev (prev, &dsq->list)
			if (!vtime_before(se->view.scx.dsq_vtime,
					  list_entry(prev, struct scx_entity, dsq_node)->view.scx.dsq_vtime))
				break;
		list_add(&se->dsq_node, prev);
		se->on_priq = true;
		dsq->nr_priq++;
	} else {
		if (dsq->nr_priq)
			scx_ops_error_op(op, p, "DSQ ID 0x%016llx already had PRIQ-enqueued tasks",
					 (unsigned long long)dsq->id);
		dsq_insert(dsq, se, enq_flags);
	}
	dsq->nr++;
	se->dsq = dsq;
	if (enq_flags & SCX_ENQ_CLEAR_OPSS)
		se->ops_state = SCX_OPSS_NONE;
	if (op != SCX_OP_QUIET)
		emit_dispatch(p, dsq, dsq_public_id(dsq),
			      enq_flags & SCX_ENQ_DSQ_PRIQ ? EXT_DSP_INSERT_VTIME : EXT_DSP_INSERT, op,
			      enq_flags);
	if (is_local)
		local_dsq_post_enq(dsq, p, enq_flags);
}

void dispatch_dequeue(struct rq *rq, struct task_struct *p)
{
	struct scx_entity *se = scx_ent(p);

	if (!se->dsq) {
		/* not on a queue but maybe on rq's deferred local dispatches: unlinking cancels it */
		if (se->ddsp_deferred) {
			struct scx_rq *srq = scx_rq(rq);
			struct scx_entity **pp = &srq->ddsp_first, *last = NULL;

			while (*pp && *pp != se) {
				last = *pp;
				pp = &(*pp)->ddsp_next;
			}
			if (*pp) {
				*pp = se->ddsp_next;
				if (srq->ddsp_last == se)
					srq->ddsp_last = last;
			}
			se->ddsp_next = NULL;
			se->ddsp_deferred = false;
		}
		return;
	}
	task_unlink_from_dsq(se, se->dsq);
	se->dsq = NULL;
}

struct scx_dispatch_q *find_dsq_for_dispatch(struct rq *rq, u64 dsq_id, struct task_struct *p, u8 op)
{
	struct scx_dispatch_q *dsq;

	if (dsq_id == SCX_DSQ_LOCAL)
		return &scx_rq(rq)->local_dsq;
	if ((dsq_id & SCX_DSQ_LOCAL_ON) == SCX_DSQ_LOCAL_ON) {
		s64 cpu = (s64)(dsq_id & SCX_DSQ_LOCAL_CPU_MASK);

		if (cpu >= ST->nr_cpus) {
			scx_ops_error_op(op, p, "invalid CPU %lld in SCX_DSQ_LOCAL_ON dispatch verdict",
					 (long long)cpu);
			return find_global_dsq(p);
		}
		return &ST->scx->rq[cpu].local_dsq;
	}
	dsq = dsq_id == SCX_DSQ_GLOBAL ? find_global_dsq(p) : find_user_dsq(dsq_id);
	if (!dsq) {
		scx_ops_error_op(op, p, "non-existent DSQ 0x%llx for %s[%d]", (unsigned long long)dsq_id,
				 p->spec->name, p->pid);
		return find_global_dsq(p);
	}
	return dsq;
}

/* ---- moving tasks to local DSQs ---- */

/* May the policy move p to rq's CPU? Outside its affinity is an error when asked to report. */
static bool task_can_run_on_remote_rq(struct task_struct *p, struct rq *rq, bool trigger_error, u8 op)
{
	if (!task_allowed_on_cpu(p, rq->cpu)) {
		if (trigger_error)
			scx_ops_error_op(op, p, "SCX_DSQ_LOCAL[_ON] target CPU %d not allowed for %s[%d]",
					 rq->cpu, p->spec->name, p->pid);
		return false;
	}
	return scx_rq(rq)->flags & SCX_RQ_ONLINE;
}

static void move_local_task_to_local_dsq(struct task_struct *p, u64 enq_flags, struct rq *dst_rq)
{
	struct scx_entity *se = scx_ent(p);
	struct scx_dispatch_q *dst = &scx_rq(dst_rq)->local_dsq;

	dsq_insert(dst, se, enq_flags);
	dst->nr++;
	se->dsq = dst;
	local_dsq_post_enq(dst, p, enq_flags);
}

/* p, queued on src_rq but on no DSQ, moves to dst_rq's local DSQ (it is migrated). */
static void move_remote_task_to_local_dsq(struct task_struct *p, u64 enq_flags, struct rq *src_rq,
					  struct rq *dst_rq)
{
	struct scx_rq *dst = scx_rq(dst_rq);

	update_rq_clock(src_rq);
	deactivate_task(src_rq, p, 0);
	set_task_cpu(p, dst_rq->cpu, scx()->this_cpu, ST->nr_events, MIGRATE_EXT);
	scx_ent(p)->sticky_cpu = dst_rq->cpu;
	update_rq_clock(dst_rq);
	/* activate_task() would truncate the scx flags: they ride on the rq */
	dst->extra_enq_flags = enq_flags;
	activate_task(dst_rq, p, 0);
	dst->extra_enq_flags = 0;
}

void dispatch_to_local_dsq(struct rq *rq, struct scx_dispatch_q *dst_dsq, struct task_struct *p,
			   u64 enq_flags, u8 op)
{
	struct rq *src_rq = task_rq(p), *dst_rq = cpu_rq(dst_dsq->cpu);
	struct scx_entity *se = scx_ent(p);

	if (rq == src_rq && rq == dst_rq) {
		dispatch_enqueue(dst_dsq, p, enq_flags | SCX_ENQ_CLEAR_OPSS, op);
		return;
	}
	if (src_rq != dst_rq && !task_can_run_on_remote_rq(p, dst_rq, true, op)) {
		dispatch_enqueue(find_global_dsq(p), p, enq_flags | SCX_ENQ_CLEAR_OPSS, op);
		return;
	}
	se->ops_state = SCX_OPSS_NONE;
	if (src_rq == dst_rq) {
		dispatch_enqueue(dst_dsq, p, enq_flags, op);
	} else {
		emit_dispatch(p, dst_dsq, dsq_public_id(dst_dsq), EXT_DSP_INSERT, op, enq_flags);
		move_remote_task_to_local_dsq(p, enq_flags, src_rq, dst_rq);
	}
	/* if the destination CPU runs a lower class (idle), wake it */
	if (sched_class_above(p->sched_class, dst_rq->curr->sched_class))
		resched_curr(dst_rq);
}

/* Take the first task of dsq that can run on rq's CPU into rq's local DSQ. */
bool consume_dispatch_q(struct rq *rq, struct scx_dispatch_q *dsq, u8 op)
{
	struct scx_entity *se;

	list_for_each_entry (se, &dsq->list, dsq_node) {
		struct task_struct *p = se->task;
		struct rq *src_rq = task_rq(p);

		if (rq == src_rq) {
			emit_dispatch(p, &scx_rq(rq)->local_dsq, dsq->id, EXT_DSP_MOVE, op, 0);
			task_unlink_from_dsq(se, dsq);
			move_local_task_to_local_dsq(p, 0, rq);
			return true;
		}
		if (task_can_run_on_remote_rq(p, rq, false, op)) {
			emit_dispatch(p, &scx_rq(rq)->local_dsq, dsq->id, EXT_DSP_MOVE, op, 0);
			task_unlink_from_dsq(se, dsq);
			se->dsq = NULL;
			move_remote_task_to_local_dsq(p, 0, src_rq, rq);
			return true;
		}
	}
	return false;
}

bool consume_global_dsq(struct rq *rq)
{
	struct scx_sched *s = scx();
	int node = E->sc->topo->cpu[rq->cpu].node;

	return consume_dispatch_q(rq, &s->global[node < s->nr_nodes ? node : 0], EXT_OP_CORE);
}

/* ---- queues a policy creates ---- */

s32 create_dsq(u64 dsq_id, s32 node)
{
	struct scx_sched *s = scx();
	struct scx_dispatch_q *dsq = NULL;

	if (dsq_id & SCX_DSQ_FLAG_BUILTIN)
		return -22; /* -EINVAL */
	if (find_user_dsq(dsq_id))
		return -17; /* -EEXIST */
	for (int i = 0; i < s->nr_user && !dsq; i++)
		if (s->user[i].id == SCX_DSQ_INVALID && !s->user[i].nr)
			dsq = &s->user[i];
	if (!dsq) {
		if (s->nr_user == s->cap_user)
			return -12; /* -ENOMEM */
		dsq = &s->user[s->nr_user++];
	}
	init_dsq(dsq, dsq_id, -1, node);
	return 0;
}

void destroy_dsq(u64 dsq_id)
{
	struct scx_dispatch_q *dsq = find_user_dsq(dsq_id);

	if (!dsq)
		return;
	if (dsq->nr) {
		scx_ops_error("attempting to destroy in-use dsq 0x%016llx (nr=%u)",
			      (unsigned long long)dsq->id, dsq->nr);
		return;
	}
	dsq->id = SCX_DSQ_INVALID;
}
