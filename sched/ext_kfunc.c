// SPDX-License-Identifier: GPL-2.0
/*
 * What a policy calls: the scx_bpf_* kfuncs of Linux 6.12 (with their
 * rules on which operation may call which), the BPF helpers schedulers
 * use (printk, timers, task lookup, cpumask tests), and schedscope's
 * accessors for the policy's memory. The executable exports these names
 * for the shared object to bind to. A misuse the kernel would catch
 * becomes an error that disables the policy, never a crash.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ext.h"
#include "balance.h"

static const struct cpumask cpumask_none;

/* "ops.enqueue()", or what else was running when a kfunc was called. */
static const char *op_where(u8 op, char *buf, size_t len)
{
	if (op == EXT_OP_CORE)
		return "outside any operation";
	if (op == EXT_OP_TIMER)
		return "a bpf_timer callback";
	snprintf(buf, len, "ops.%s()", sched_name_of(ext_op_names, NR_EXT_OPS, op));
	return buf;
}

static u32 highest_bit(u32 flags)
{
	return flags ? 1u << (31 - __builtin_clz(flags)) : 0;
}

static u32 higher_bits(u32 flags)
{
	return flags ? ~((highest_bit(flags) << 1) - 1) : ~0u;
}

/* scx_kf_allowed(): may the running operation call a kfunc of this mask? */
static bool scx_kf_allowed(u32 mask, const char *kfunc, const char *allowed)
{
	struct scx_sched *s = scx();
	char where[48];

	if (!(s->kf_mask & mask)) {
		scx_ops_error("%s() called from %s: only %s may call it", kfunc,
			      op_where(s->cur_op, where, sizeof(where)), allowed);
		return false;
	}
	if (highest_bit(mask) == SCX_KF_CPU_RELEASE && (s->kf_mask & higher_bits(SCX_KF_CPU_RELEASE))) {
		scx_ops_error("cpu_release kfunc called from a nested operation");
		return false;
	}
	if (highest_bit(mask) == SCX_KF_DISPATCH && (s->kf_mask & higher_bits(SCX_KF_DISPATCH))) {
		scx_ops_error("dispatch kfunc called from a nested operation");
		return false;
	}
	return true;
}

/* The class's entity behind a task pointer the policy passed, or an error if it is none. */
static struct scx_entity *ent_of(const struct scx_task *v, const char *kfunc)
{
	struct scx_sched *s = scx();
	const char *base = (const char *)s->ent, *at = (const char *)v;

	if (!v) {
		scx_ops_error("%s() called with NULL task", kfunc);
		return NULL;
	}
	if (at < base || at >= base + (size_t)ST->nr_tasks * sizeof(*s->ent) ||
	    (size_t)(at - base) % sizeof(*s->ent) != offsetof(struct scx_entity, view)) {
		scx_ops_error("%s() called with a pointer that is not a task", kfunc);
		return NULL;
	}
	return scx_ent_of_view(v);
}

/* ---- select_cpu ---- */

s32 scx_bpf_select_cpu_dfl(struct scx_task *v, s32 prev_cpu, u64 wake_flags, bool *is_idle)
{
	struct scx_entity *se = ent_of(v, __func__);

	*is_idle = false;
	if (!se || !ops_cpu_valid(prev_cpu, NULL))
		return prev_cpu;
	if (!scx()->builtin_idle) {
		scx_ops_error("built-in idle tracking is disabled");
		return prev_cpu;
	}
	if (!scx_kf_allowed(SCX_KF_SELECT_CPU, __func__, "ops.select_cpu()"))
		return prev_cpu;
	return scx_select_cpu_dfl(se->task, prev_cpu, wake_flags, is_idle);
}

/* ---- dispatch ---- */

static struct scx_entity *dispatch_preamble(struct scx_task *v, u64 enq_flags, const char *kfunc)
{
	struct scx_entity *se;

	if (!scx_kf_allowed(SCX_KF_ENQUEUE | SCX_KF_DISPATCH, kfunc,
			    "ops.select_cpu(), ops.enqueue() and ops.dispatch()"))
		return NULL;
	se = ent_of(v, kfunc);
	if (se && (enq_flags & __SCX_ENQ_INTERNAL_MASK)) {
		scx_ops_error("invalid enq_flags 0x%llx", (unsigned long long)enq_flags);
		return NULL;
	}
	return se;
}

/* Inside select_cpu or enqueue: a direct dispatch of the task being placed, once. */
static void mark_direct_dispatch(struct scx_entity *se, u64 dsq_id, u64 enq_flags)
{
	struct scx_sched *s = scx();
	struct task_struct *p = se->task;
	bool done = s->ddsp_done;

	s->ddsp_done = true;
	if (done) {
		scx_ops_error_op(s->cur_op, p, "%s[%d] already direct-dispatched", p->spec->name, p->pid);
		return;
	}
	if (se != s->ddsp_task) {
		scx_ops_error_op(s->cur_op, p, "scheduling for %s[%d] but trying to direct-dispatch %s[%d]",
				 s->ddsp_task->task->spec->name, s->ddsp_task->task->pid, p->spec->name,
				 p->pid);
		return;
	}
	se->ddsp_dsq_id = dsq_id;
	se->ddsp_enq_flags = enq_flags;
	se->ddsp_op = s->cur_op;
}

static void dispatch_commit(struct scx_entity *se, u64 dsq_id, u64 enq_flags)
{
	struct scx_sched *s = scx();

	if (s->ddsp_task) {
		mark_direct_dispatch(se, dsq_id, enq_flags);
		return;
	}
	if (s->dsp_cursor >= s->dsp_max_batch) {
		scx_ops_error("dispatch buffer overflow");
		return;
	}
	s->dsp_buf[s->dsp_cursor++] = (struct scx_dsp_buf_ent){
		.task = se,
		.qseq = se->ops_state == SCX_OPSS_QUEUED ? se->ops_qseq : 0,
		.op = s->cur_op,
		.dsq_id = dsq_id,
		.enq_flags = enq_flags,
	};
}

void scx_bpf_dispatch(struct scx_task *v, u64 dsq_id, u64 slice, u64 enq_flags)
{
	struct scx_entity *se = dispatch_preamble(v, enq_flags, __func__);

	if (!se)
		return;
	se->view.scx.slice = slice ? slice : se->view.scx.slice ? se->view.scx.slice : 1;
	dispatch_commit(se, dsq_id, enq_flags);
}

void scx_bpf_dispatch_vtime(struct scx_task *v, u64 dsq_id, u64 slice, u64 vtime, u64 enq_flags)
{
	struct scx_entity *se = dispatch_preamble(v, enq_flags, __func__);

	if (!se)
		return;
	se->view.scx.slice = slice ? slice : se->view.scx.slice ? se->view.scx.slice : 1;
	se->view.scx.dsq_vtime = vtime;
	dispatch_commit(se, dsq_id, enq_flags | SCX_ENQ_DSQ_PRIQ);
}

/*
 * finish_dispatch(): an insert recorded by ops.dispatch(), done once the
 * operation returned, if the policy still owns the task as it did then
 * (a task dispatched twice, or dequeued meanwhile, is skipped).
 */
static void finish_dispatch(struct rq *rq, const struct scx_dsp_buf_ent *ent)
{
	struct scx_entity *se = ent->task;
	struct task_struct *p = se->task;
	struct scx_dispatch_q *dsq;

	if (se->ops_state != SCX_OPSS_QUEUED || se->ops_qseq != ent->qseq)
		return;
	se->ops_state = SCX_OPSS_DISPATCHING;
	dsq = find_dsq_for_dispatch(rq, ent->dsq_id, p, ent->op);
	if (dsq->cpu >= 0)
		dispatch_to_local_dsq(rq, dsq, p, ent->enq_flags, ent->op);
	else
		dispatch_enqueue(dsq, p, ent->enq_flags | SCX_ENQ_CLEAR_OPSS, ent->op);
}

void flush_dispatch_buf(struct rq *rq)
{
	struct scx_sched *s = scx();

	for (u32 i = 0; i < s->dsp_cursor; i++)
		finish_dispatch(rq, &s->dsp_buf[i]);
	s->dsp_nr_tasks += s->dsp_cursor;
	s->dsp_cursor = 0;
}

u32 scx_bpf_dispatch_nr_slots(void)
{
	if (!scx_kf_allowed(SCX_KF_DISPATCH, __func__, "ops.dispatch()"))
		return 0;
	return scx()->dsp_max_batch - scx()->dsp_cursor;
}

void scx_bpf_dispatch_cancel(void)
{
	struct scx_sched *s = scx();

	if (!scx_kf_allowed(SCX_KF_DISPATCH, __func__, "ops.dispatch()"))
		return;
	if (s->dsp_cursor > 0)
		s->dsp_cursor--;
	else
		scx_ops_error("dispatch buffer underflow");
}

bool scx_bpf_consume(u64 dsq_id)
{
	struct scx_sched *s = scx();
	struct scx_dispatch_q *dsq;

	if (!scx_kf_allowed(SCX_KF_DISPATCH, __func__, "ops.dispatch()"))
		return false;
	flush_dispatch_buf(s->dsp_rq);
	dsq = find_user_dsq(dsq_id);
	if (!dsq) {
		scx_ops_error("invalid DSQ ID 0x%016llx", (unsigned long long)dsq_id);
		return false;
	}
	if (!consume_dispatch_q(s->dsp_rq, dsq, s->cur_op))
		return false;
	/* a consumed task may still leave before it runs: balance retries on an empty local DSQ */
	s->dsp_nr_tasks++;
	return true;
}

u32 scx_bpf_reenqueue_local(void)
{
	struct scx_sched *s = scx();
	struct scx_entity *list = NULL, **tail = &list, *se;
	struct rq *rq;
	u32 nr = 0;

	if (!scx_kf_allowed(SCX_KF_CPU_RELEASE, __func__, "ops.cpu_release()"))
		return 0;
	rq = cpu_rq(s->this_cpu);
	/* off the local DSQ first: the policy may dispatch them straight back there */
	while ((se = dsq_first(&s->rq[rq->cpu].local_dsq))) {
		dispatch_dequeue(rq, se->task);
		se->ddsp_next = NULL;
		*tail = se;
		tail = &se->ddsp_next;
	}
	while ((se = list)) {
		list = se->ddsp_next;
		se->ddsp_next = NULL;
		do_enqueue_task(rq, se->task, SCX_ENQ_REENQ, -1);
		nr++;
	}
	return nr;
}

/* ---- queues ---- */

s32 scx_bpf_create_dsq(u64 dsq_id, s32 node)
{
	if (node >= (s32)scx()->nr_nodes || (node < 0 && node != -1))
		return -22; /* -EINVAL */
	return create_dsq(dsq_id, node);
}

void scx_bpf_destroy_dsq(u64 dsq_id)
{
	destroy_dsq(dsq_id);
}

s32 scx_bpf_dsq_nr_queued(u64 dsq_id)
{
	struct scx_sched *s = scx();
	struct scx_dispatch_q *dsq;

	if (dsq_id == SCX_DSQ_LOCAL)
		return (s32)s->rq[s->this_cpu].local_dsq.nr;
	if ((dsq_id & SCX_DSQ_LOCAL_ON) == SCX_DSQ_LOCAL_ON) {
		s64 cpu = (s64)(dsq_id & SCX_DSQ_LOCAL_CPU_MASK);

		if (ops_cpu_valid((s32)MIN(cpu, (s64)ST->nr_cpus), NULL))
			return (s32)s->rq[cpu].local_dsq.nr;
		return -2; /* -ENOENT */
	}
	dsq = find_user_dsq(dsq_id);
	return dsq ? (s32)dsq->nr : -2;
}

/* ---- kicks ---- */

/* A CPU that will go through a full scheduling cycle before idling anyway need not be kicked. */
static bool can_skip_idle_kick(struct rq *rq)
{
	return !is_idle_task(rq->curr) && !(scx_rq(rq)->flags & SCX_RQ_IN_BALANCE);
}

void scx_kick_cpu(s32 cpu, u64 flags)
{
	struct scx_sched *s = scx();

	if (scx_rq_bypassing(cpu_rq(s->this_cpu)))
		return;
	if (flags & SCX_KICK_IDLE) {
		if (flags & (SCX_KICK_PREEMPT | SCX_KICK_WAIT))
			scx_ops_error("PREEMPT/WAIT cannot be used with SCX_KICK_IDLE");
		if (can_skip_idle_kick(cpu_rq(cpu)))
			return;
		cpumask_set(&s->kick_if_idle, cpu);
	} else {
		cpumask_set(&s->kick, cpu);
		if (flags & SCX_KICK_PREEMPT)
			cpumask_set(&s->kick_preempt, cpu);
	}
	/* SCX_KICK_WAIT needs nothing more: the kicked CPU reschedules before time moves on */
	s->kicks_pending = true;
}

void scx_bpf_kick_cpu(s32 cpu, u64 flags)
{
	struct scx_sched *s = scx();
	struct sched_event ev;

	if (!ops_cpu_valid(cpu, NULL))
		return;
	sched_event_init(&ev, EV_EXT_KICK, s->this_cpu);
	ev.ext_kick.target_cpu = cpu;
	ev.ext_kick.op = s->cur_op;
	ev.ext_kick.flags = flags;
	sched_emit(&ev);
	scx_kick_cpu(cpu, flags);
}

/* kick_cpus_irq_workfn(): the kicks asked for during the operation that just ended. */
void scx_kick_cpus(void)
{
	struct scx_sched *s = scx();
	int cpu;

	for_each_cpu (cpu, &s->kick) {
		struct rq *rq = cpu_rq(cpu);

		if (cpumask_test(&s->kick_preempt, cpu) && task_on_scx(rq->curr))
			scx_ent(rq->curr)->view.scx.slice = 0;
		resched_curr(rq);
	}
	for_each_cpu (cpu, &s->kick_if_idle)
		if (!cpumask_test(&s->kick, cpu) && !can_skip_idle_kick(cpu_rq(cpu)))
			resched_curr(cpu_rq(cpu));
	s->kick = s->kick_if_idle = s->kick_preempt = cpumask_none;
}

/* ---- exits ---- */

void scx_bpf_error(const char *fmt, ...)
{
	struct scx_sched *s = scx();
	char msg[SCX_EXIT_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	scx_exit_op(SCX_EXIT_ERROR_BPF, 0, s->cur_op, s->kf_tasks[0] ? s->kf_tasks[0]->task : NULL, "%s",
		    msg);
}

void scx_bpf_exit(s64 exit_code, const char *fmt, ...)
{
	char msg[SCX_EXIT_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	scx_exit_op(SCX_EXIT_UNREG_BPF, exit_code, scx()->cur_op, NULL, "%s", msg);
}

/* ---- CPUs and tasks ---- */

u32 scx_bpf_nr_cpu_ids(void)
{
	return (u32)ST->nr_cpus;
}

const struct cpumask *scx_bpf_get_possible_cpumask(void)
{
	return &scx()->possible;
}

const struct cpumask *scx_bpf_get_online_cpumask(void)
{
	return &scx()->possible;
}

void scx_bpf_put_cpumask(const struct cpumask *cpumask)
{
}

const struct cpumask *scx_bpf_get_idle_cpumask(void)
{
	if (!scx()->builtin_idle) {
		scx_ops_error("built-in idle tracking is disabled");
		return &cpumask_none;
	}
	return &scx()->idle_cpu;
}

const struct cpumask *scx_bpf_get_idle_smtmask(void)
{
	if (!scx()->builtin_idle) {
		scx_ops_error("built-in idle tracking is disabled");
		return &cpumask_none;
	}
	return ST->smt_present ? &scx()->idle_smt : &scx()->idle_cpu;
}

void scx_bpf_put_idle_cpumask(const struct cpumask *cpumask)
{
}

bool scx_bpf_test_and_clear_cpu_idle(s32 cpu)
{
	if (!scx()->builtin_idle) {
		scx_ops_error("built-in idle tracking is disabled");
		return false;
	}
	return ops_cpu_valid(cpu, NULL) && test_and_clear_cpu_idle(cpu);
}

s32 scx_bpf_pick_idle_cpu(const struct cpumask *cpus_allowed, u64 flags)
{
	if (!scx()->builtin_idle) {
		scx_ops_error("built-in idle tracking is disabled");
		return -16; /* -EBUSY */
	}
	return scx_pick_idle_cpu(cpus_allowed, flags);
}

s32 scx_bpf_pick_any_cpu(const struct cpumask *cpus_allowed, u64 flags)
{
	s32 cpu;

	if (scx()->builtin_idle) {
		cpu = scx_pick_idle_cpu(cpus_allowed, flags);
		if (cpu >= 0)
			return cpu;
	}
	cpu = cpumask_any_and_distribute(cpus_allowed, &scx()->possible, &scx()->distribute_prev);
	return cpu < ST->nr_cpus ? cpu : -16;
}

bool scx_bpf_task_running(const struct scx_task *v)
{
	struct scx_entity *se = ent_of(v, __func__);

	return se && task_rq(se->task)->curr == se->task;
}

s32 scx_bpf_task_cpu(const struct scx_task *v)
{
	struct scx_entity *se = ent_of(v, __func__);

	return se ? se->task->cpu : -1;
}

u64 scx_bpf_now(void)
{
	return ST->now + SCHED_CLOCK_BOOT;
}

s32 scx_bpf_cpu_node(s32 cpu)
{
	return ops_cpu_valid(cpu, NULL) ? E->sc->topo->cpu[cpu].node : 0;
}

u32 scx_bpf_nr_node_ids(void)
{
	return (u32)scx()->nr_nodes;
}

s32 scx_cpu_llc(s32 cpu)
{
	return ops_cpu_valid(cpu, NULL) ? scx()->cpu_llc[cpu] : 0;
}

u32 scx_nr_llc_ids(void)
{
	return scx()->nr_llcs;
}

/* ---- BPF helpers ---- */

u64 bpf_ktime_get_ns(void)
{
	return ST->now + SCHED_CLOCK_BOOT;
}

u32 bpf_get_smp_processor_id(void)
{
	return (u32)scx()->this_cpu;
}

struct scx_task *bpf_task_from_pid(s32 pid)
{
	struct task_struct *p;

	if (pid < 1 || pid > ST->nr_tasks)
		return NULL;
	p = &ST->task[pid - 1];
	return p->state == TASK_NEW || p->state == TASK_DEAD ? NULL : &scx_ent(p)->view;
}

void bpf_task_release(struct scx_task *p)
{
}

bool bpf_cpumask_test_cpu(u32 cpu, const struct cpumask *cpumask)
{
	return cpumask && cpu < (u32)ST->nr_cpus && cpumask_test(cpumask, (int)cpu);
}

u32 bpf_cpumask_weight(const struct cpumask *cpumask)
{
	u32 n = 0;

	for (int w = 0; cpumask && w * 64 < ST->nr_cpus; w++)
		n += (u32)__builtin_popcountll(cpumask->bits[w]);
	return n;
}

u32 bpf_cpumask_first(const struct cpumask *cpumask)
{
	return cpumask ? (u32)cpumask_next_from(cpumask, 0) : (u32)ST->nr_cpus;
}

int bpf_printk(const char *fmt, ...)
{
	char line[SCX_EXIT_MSG_LEN];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	scx_emit_printk(line);
	return n;
}

/* ---- timers ---- */

/* A bpf_timer must live in memory the engine handed out: then checkpoints cover it. */
static bool in_policy_memory(const struct bpf_timer *timer, const char *kfunc)
{
	struct scx_sched *s = scx();

	if ((const char *)timer >= (const char *)s->global_data && (const char *)(timer + 1) <= s->mem_end)
		return true;
	scx_ops_error("%s(): the timer is not in the policy's memory (scx_global_data(), scx_task_data(), "
		      "scx_cpu_data())",
		      kfunc);
	return false;
}

static struct scx_timer_slot *timer_slot(struct bpf_timer *timer)
{
	struct scx_sched *s = scx();
	u64 i = timer->opaque[0];

	if (!i || i > SCX_NR_TIMERS || s->timer[i - 1].owner != timer || !s->timer[i - 1].used)
		return NULL;
	return &s->timer[i - 1];
}

long bpf_timer_init(struct bpf_timer *timer, void *map, u64 flags)
{
	struct scx_sched *s = scx();

	if (!in_policy_memory(timer, __func__))
		return -22; /* -EINVAL */
	if (timer_slot(timer))
		return -16; /* -EBUSY: initialised already */
	for (int i = 0; i < SCX_NR_TIMERS; i++) {
		if (!s->timer[i].used) {
			s->timer[i].used = true;
			s->timer[i].owner = timer;
			s->timer[i].callback = NULL;
			timer->opaque[0] = (u64)i + 1;
			return 0;
		}
	}
	return -12; /* -ENOMEM: all SCX_NR_TIMERS in use */
}

long bpf_timer_set_callback(struct bpf_timer *timer,
			    int (*callback)(void *map, int *key, struct bpf_timer *timer))
{
	struct scx_timer_slot *t = in_policy_memory(timer, __func__) ? timer_slot(timer) : NULL;

	if (!t)
		return -22;
	t->callback = callback;
	return 0;
}

long bpf_timer_start(struct bpf_timer *timer, u64 nsecs, u64 flags)
{
	struct scx_timer_slot *t = in_policy_memory(timer, __func__) ? timer_slot(timer) : NULL;
	u64 expires;

	if (!t || !t->callback)
		return -22;
	if (flags & BPF_F_TIMER_ABS)
		expires = nsecs > SCHED_CLOCK_BOOT + ST->now ? nsecs - SCHED_CLOCK_BOOT : ST->now;
	else
		expires = ST->now + nsecs;
	t->cpu = scx()->this_cpu;
	timer_arm(&ST->tq, &t->timer, expires);
	return 0;
}

long bpf_timer_cancel(struct bpf_timer *timer)
{
	struct scx_timer_slot *t = in_policy_memory(timer, __func__) ? timer_slot(timer) : NULL;
	bool active;

	if (!t)
		return -22;
	active = timer_queued(&t->timer);
	timer_cancel(&ST->tq, &t->timer);
	return active;
}

/* ---- the policy's memory ---- */

void *scx_global_data(void)
{
	return scx()->global_data;
}

void *scx_task_data(const struct scx_task *v)
{
	struct scx_entity *se = ent_of(v, __func__);

	return se ? se->data : NULL;
}

void *scx_cpu_data(s32 cpu)
{
	return ops_cpu_valid(cpu, NULL) ? scx()->rq[cpu].data : NULL;
}
