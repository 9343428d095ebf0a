// SPDX-License-Identifier: GPL-2.0
/*
 * scx_llc: a topology-aware policy for schedscope, one weighted-vtime
 * dispatch queue per last-level cache, as scx_rusty keeps one per cache
 * domain (without its load balancer). A waking task stays in its LLC:
 * its previous CPU if idle, else another idle CPU of the same cache. A CPU
 * consumes its own LLC's queue first and steals from the others (those of
 * its NUMA node first) only when that is empty; a task queued while some
 * CPU elsewhere idles kicks that CPU, so no CPU idles while work waits.
 */
#include <schedscope/ext.h>

#define MAX_LLCS 64

struct llc_global {
	u32 nr_llcs;
	s32 llc_node[MAX_LLCS];	 /* the NUMA node of each LLC */
	u64 vtime_now[MAX_LLCS]; /* each queue's clock, as scx_simple's vtime_now */
	u64 nr_direct, nr_queued, nr_stolen;
};

static struct llc_global *glob(void)
{
	return scx_global_data();
}

static bool vtime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* The dispatch queue of an LLC is the LLC's id. */
static u64 llc_dsq(s32 llc)
{
	return (u64)llc;
}

static s32 task_llc(struct scx_task *p)
{
	return scx_cpu_llc(scx_bpf_task_cpu(p));
}

/* prev_cpu if idle, else an idle CPU of the same LLC; -1 when the LLC is busy. */
static s32 pick_idle_in_llc(struct scx_task *p, s32 prev_cpu)
{
	const struct cpumask *idle = scx_bpf_get_idle_cpumask();
	s32 llc = scx_cpu_llc(prev_cpu), cpu = -1;
	u32 nr_cpus = scx_bpf_nr_cpu_ids();

	if (bpf_cpumask_test_cpu(prev_cpu, p->cpus_ptr) && scx_bpf_test_and_clear_cpu_idle(prev_cpu)) {
		cpu = prev_cpu;
		goto out;
	}
	for (u32 c = 0; c < nr_cpus; c++) {
		if (scx_cpu_llc((s32)c) != llc || !bpf_cpumask_test_cpu(c, idle) ||
		    !bpf_cpumask_test_cpu(c, p->cpus_ptr))
			continue;
		if (scx_bpf_test_and_clear_cpu_idle((s32)c)) {
			cpu = (s32)c;
			break;
		}
	}
out:
	scx_bpf_put_idle_cpumask(idle);
	return cpu;
}

s32 BPF_STRUCT_OPS(llc_select_cpu, struct scx_task *p, s32 prev_cpu, u64 wake_flags)
{
	s32 cpu = pick_idle_in_llc(p, prev_cpu);

	if (cpu < 0)
		return prev_cpu;
	glob()->nr_direct++;
	scx_bpf_dispatch(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
	return cpu;
}

void BPF_STRUCT_OPS(llc_enqueue, struct scx_task *p, u64 enq_flags)
{
	struct llc_global *g = glob();
	s32 llc = task_llc(p), idle;
	u64 vtime = p->scx.dsq_vtime;

	g->nr_queued++;
	/* one slice of credit at most for a task that slept */
	if (vtime_before(vtime, g->vtime_now[llc] - SCX_SLICE_DFL))
		vtime = g->vtime_now[llc] - SCX_SLICE_DFL;
	scx_bpf_dispatch_vtime(p, llc_dsq(llc), SCX_SLICE_DFL, vtime, enq_flags);
	/* an idle CPU anywhere would otherwise sleep through this: wake it to steal */
	idle = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
	if (idle >= 0)
		scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
}

void BPF_STRUCT_OPS(llc_dispatch, s32 cpu, struct scx_task *prev)
{
	struct llc_global *g = glob();
	s32 llc = scx_cpu_llc(cpu), node = g->llc_node[llc];

	if (scx_bpf_consume(llc_dsq(llc)))
		return;
	/* steal: the caches of this node first, then the rest */
	for (int pass = 0; pass < 2; pass++) {
		for (u32 other = 0; other < g->nr_llcs; other++) {
			if ((s32)other == llc || (g->llc_node[other] == node) != (pass == 0))
				continue;
			if (scx_bpf_consume(llc_dsq((s32)other))) {
				g->nr_stolen++;
				return;
			}
		}
	}
}

void BPF_STRUCT_OPS(llc_running, struct scx_task *p)
{
	u64 *now = &glob()->vtime_now[task_llc(p)];

	if (vtime_before(*now, p->scx.dsq_vtime))
		*now = p->scx.dsq_vtime;
}

void BPF_STRUCT_OPS(llc_stopping, struct scx_task *p, bool runnable)
{
	p->scx.dsq_vtime += (SCX_SLICE_DFL - p->scx.slice) * 100 / p->scx.weight;
}

void BPF_STRUCT_OPS(llc_enable, struct scx_task *p)
{
	p->scx.dsq_vtime = glob()->vtime_now[task_llc(p)];
}

s32 BPF_STRUCT_OPS_SLEEPABLE(llc_init)
{
	struct llc_global *g = glob();
	u32 nr_cpus = scx_bpf_nr_cpu_ids();

	g->nr_llcs = scx_nr_llc_ids();
	if (g->nr_llcs > MAX_LLCS) {
		scx_bpf_error("%u LLCs, more than the %d this policy keeps queues for", g->nr_llcs, MAX_LLCS);
		return -7; /* -E2BIG */
	}
	for (u32 cpu = nr_cpus; cpu-- > 0;)
		g->llc_node[scx_cpu_llc((s32)cpu)] = scx_bpf_cpu_node((s32)cpu);
	for (u32 llc = 0; llc < g->nr_llcs; llc++) {
		s32 ret = scx_bpf_create_dsq(llc_dsq((s32)llc), g->llc_node[llc]);

		if (ret)
			return ret;
	}
	return 0;
}

void BPF_STRUCT_OPS(llc_exit, struct scx_exit_info *ei)
{
	struct llc_global *g = glob();

	bpf_printk("direct=%llu queued=%llu stolen=%llu", (unsigned long long)g->nr_direct,
		   (unsigned long long)g->nr_queued, (unsigned long long)g->nr_stolen);
}

SCX_OPS_DEFINE(llc_ops, .select_cpu = llc_select_cpu, .enqueue = llc_enqueue, .dispatch = llc_dispatch,
	       .running = llc_running, .stopping = llc_stopping, .enable = llc_enable, .init = llc_init,
	       .exit = llc_exit, .name = "llc", .global_size = sizeof(struct llc_global));
