// SPDX-License-Identifier: GPL-2.0
/*
 * scx_central for schedscope: tools/sched_ext/scx_central.bpf.c of Linux
 * 6.12, ported. One CPU (the central one, CPU 0) makes every scheduling
 * decision: runnable tasks wait in one FIFO, and the central CPU's
 * dispatch() hands them to the other CPUs' local queues (SCX_DSQ_LOCAL_ON),
 * with infinite slices. A CPU that runs out of work asks the central CPU
 * for more by kicking it. A 1 ms timer on the central CPU preempts a CPU
 * whose task has run a whole slice while others wait.
 *
 * What changed from the BPF source: `struct task_struct` is `struct
 * scx_task`; the BPF_MAP_TYPE_QUEUE of pids is a ring in the global data,
 * the per-CPU arrays (gimme, started_at) per-CPU data, the counters and
 * the bpf_timer global data. There are no kthreads to push first.
 */
#include <schedscope/ext.h>

enum {
	FALLBACK_DSQ_ID = 0,
	MS_TO_NS = 1000LLU * 1000,
	TIMER_INTERVAL_NS = 1 * MS_TO_NS,
	QUEUE_LEN = 4096,    /* central_q's max_entries */
	MAX_LOOPS = 8388608, /* BPF_MAX_LOOPS */
};

static const s32 central_cpu = 0;
static const u64 slice_ns = SCX_SLICE_DFL;

struct central_global {
	s32 q[QUEUE_LEN]; /* central_q: pids in FIFO order */
	u32 q_head, q_len;
	struct bpf_timer timer;
	bool timer_pinned;
	u64 nr_total, nr_queued, nr_lost_pids;
	u64 nr_timers, nr_dispatches, nr_mismatches, nr_retries, nr_overflows;
};

struct central_cpu {
	bool gimme_task; /* the CPU has asked the central one for a task */
	u64 started_at;	 /* when its task started, 0 when idle */
};

static struct central_global *glob(void)
{
	return scx_global_data();
}

static struct central_cpu *cpu_ctx(s32 cpu)
{
	return scx_cpu_data(cpu);
}

static bool vtime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* bpf_map_push_elem() / bpf_map_pop_elem() on central_q */
static int queue_push(s32 pid)
{
	struct central_global *g = glob();

	if (g->q_len == QUEUE_LEN)
		return -1;
	g->q[(g->q_head + g->q_len++) % QUEUE_LEN] = pid;
	return 0;
}

static int queue_pop(s32 *pid)
{
	struct central_global *g = glob();

	if (!g->q_len)
		return -1;
	*pid = g->q[g->q_head];
	g->q_head = (g->q_head + 1) % QUEUE_LEN;
	g->q_len--;
	return 0;
}

s32 BPF_STRUCT_OPS(central_select_cpu, struct scx_task *p, s32 prev_cpu, u64 wake_flags)
{
	/*
	 * Steer wakeups to the central CPU to avoid disturbing the others:
	 * only a hint, a task that cannot run there gets a fallback CPU.
	 */
	return central_cpu;
}

void BPF_STRUCT_OPS(central_enqueue, struct scx_task *p, u64 enq_flags)
{
	struct central_global *g = glob();

	g->nr_total++;
	if (queue_push(p->pid)) {
		g->nr_overflows++;
		scx_bpf_dispatch(p, FALLBACK_DSQ_ID, SCX_SLICE_INF, enq_flags);
		return;
	}
	g->nr_queued++;
	if (!scx_bpf_task_running(p))
		scx_bpf_kick_cpu(central_cpu, SCX_KICK_PREEMPT);
}

static bool dispatch_to_cpu(s32 cpu)
{
	struct central_global *g = glob();
	struct scx_task *p;
	s32 pid;

	for (int i = 0; i < MAX_LOOPS; i++) {
		if (queue_pop(&pid))
			break;
		g->nr_queued--;
		p = bpf_task_from_pid(pid);
		if (!p) {
			g->nr_lost_pids++;
			continue;
		}
		/* the task at the top cannot run here: bounce it to the fallback DSQ */
		if (!bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
			g->nr_mismatches++;
			scx_bpf_dispatch(p, FALLBACK_DSQ_ID, SCX_SLICE_INF, 0);
			bpf_task_release(p);
			/* out of dispatch slots without one for cpu: stop, the next dispatch would fail */
			if (!scx_bpf_dispatch_nr_slots())
				break;
			continue;
		}
		/* dispatch to local and mark that cpu doesn't need more */
		scx_bpf_dispatch(p, SCX_DSQ_LOCAL_ON | cpu, SCX_SLICE_INF, 0);
		if (cpu != central_cpu)
			scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		bpf_task_release(p);
		return true;
	}
	return false;
}

void BPF_STRUCT_OPS(central_dispatch, s32 cpu, struct scx_task *prev)
{
	struct central_global *g = glob();

	if (cpu == central_cpu) {
		u32 nr_cpus = scx_bpf_nr_cpu_ids();

		/* dispatch for all other CPUs first */
		g->nr_dispatches++;
		for (cpu = 0; cpu < (s32)nr_cpus; cpu++) {
			struct central_cpu *c = cpu_ctx(cpu);

			if (!scx_bpf_dispatch_nr_slots())
				break;
			/* central's gimme is never set */
			if (!c->gimme_task)
				continue;
			if (dispatch_to_cpu(cpu))
				c->gimme_task = false;
		}
		/*
		 * Out of slots, maybe with CPUs skipped: the core retries only
		 * for an empty local DSQ of this CPU, so kick self to retry.
		 */
		if (!scx_bpf_dispatch_nr_slots()) {
			g->nr_retries++;
			scx_bpf_kick_cpu(central_cpu, SCX_KICK_PREEMPT);
			return;
		}
		/* look for a task to run on the central CPU */
		if (scx_bpf_consume(FALLBACK_DSQ_ID))
			return;
		dispatch_to_cpu(central_cpu);
	} else {
		if (scx_bpf_consume(FALLBACK_DSQ_ID))
			return;
		cpu_ctx(cpu)->gimme_task = true;
		/* force dispatch on the central CPU so that it finds a task for us */
		scx_bpf_kick_cpu(central_cpu, SCX_KICK_PREEMPT);
	}
}

void BPF_STRUCT_OPS(central_running, struct scx_task *p)
{
	u64 now = bpf_ktime_get_ns();

	cpu_ctx(scx_bpf_task_cpu(p))->started_at = now ? now : 1; /* 0 indicates idle */
}

void BPF_STRUCT_OPS(central_stopping, struct scx_task *p, bool runnable)
{
	cpu_ctx(scx_bpf_task_cpu(p))->started_at = 0;
}

static int central_timerfn(void *map, int *key, struct bpf_timer *timer)
{
	struct central_global *g = glob();
	u64 now = bpf_ktime_get_ns(), nr_to_kick = g->nr_queued;
	u32 nr_cpus = scx_bpf_nr_cpu_ids();
	s32 curr_cpu = bpf_get_smp_processor_id();

	if (g->timer_pinned && curr_cpu != central_cpu) {
		scx_bpf_error("Central timer ran on CPU %d, not central CPU %d", curr_cpu, central_cpu);
		return 0;
	}
	for (u32 i = 0; i < nr_cpus; i++) {
		s32 cpu = (s32)((g->nr_timers + i) % nr_cpus);
		struct central_cpu *c = cpu_ctx(cpu);

		if (cpu == central_cpu)
			continue;
		/* kick iff the current one exhausted its slice */
		if (c->started_at && vtime_before(now, c->started_at + slice_ns))
			continue;
		/* and there's something pending */
		if (scx_bpf_dsq_nr_queued(FALLBACK_DSQ_ID) || scx_bpf_dsq_nr_queued(SCX_DSQ_LOCAL_ON | cpu))
			;
		else if (nr_to_kick)
			nr_to_kick--;
		else
			continue;
		scx_bpf_kick_cpu(cpu, SCX_KICK_PREEMPT);
	}
	if (bpf_timer_start(timer, TIMER_INTERVAL_NS, g->timer_pinned ? BPF_F_TIMER_CPU_PIN : 0))
		scx_bpf_error("bpf_timer_start failed");
	g->nr_timers++;
	return 0;
}

s32 BPF_STRUCT_OPS_SLEEPABLE(central_init)
{
	struct central_global *g = glob();
	int ret;

	ret = scx_bpf_create_dsq(FALLBACK_DSQ_ID, -1);
	if (ret)
		return ret;
	if (bpf_get_smp_processor_id() != (u32)central_cpu) {
		scx_bpf_error("init from non-central CPU");
		return -22;
	}
	g->timer_pinned = true;
	bpf_timer_init(&g->timer, NULL, 1 /* CLOCK_MONOTONIC */);
	bpf_timer_set_callback(&g->timer, central_timerfn);
	ret = bpf_timer_start(&g->timer, TIMER_INTERVAL_NS, BPF_F_TIMER_CPU_PIN);
	if (ret)
		scx_bpf_error("bpf_timer_start failed (%d)", ret);
	return ret;
}

void BPF_STRUCT_OPS(central_exit, struct scx_exit_info *ei)
{
	struct central_global *g = glob();

	bpf_printk(
		"total=%llu local=0 queued=%llu lost=%llu timer=%llu dispatch=%llu mismatch=%llu retry=%llu",
		(unsigned long long)g->nr_total, (unsigned long long)g->nr_queued,
		(unsigned long long)g->nr_lost_pids, (unsigned long long)g->nr_timers,
		(unsigned long long)g->nr_dispatches, (unsigned long long)g->nr_mismatches,
		(unsigned long long)g->nr_retries);
}

SCX_OPS_DEFINE(central_ops,
	       /*
		* Every decision is made on the central CPU, so being the last task
		* on a CPU means nothing special: enqueue it like any other.
		*/
	       .flags = SCX_OPS_ENQ_LAST, .select_cpu = central_select_cpu, .enqueue = central_enqueue,
	       .dispatch = central_dispatch, .running = central_running, .stopping = central_stopping,
	       .init = central_init, .exit = central_exit, .name = "central",
	       .global_size = sizeof(struct central_global), .cpu_size = sizeof(struct central_cpu));
