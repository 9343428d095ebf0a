// SPDX-License-Identifier: GPL-2.0
/*
 * A policy to start from (schedscope-ext(7)): a global FIFO that counts,
 * per task, how often it was queued. Copy it, rename it, change it:
 *
 *	schedscope ext build mine.c
 *	schedscope ui SCENARIO --set sched=ext:./mine.so
 *
 * Every operation is optional; what is left out does what the kernel's
 * default does (a task goes to the global queue with a 20 ms slice, CPUs
 * take from it in order).
 */
#include <schedscope/ext.h>

/* The policy's memory: handed out zeroed by the engine, covered by checkpoints. */
struct my_global {
	u64 nr_enqueued;
};

struct my_task {
	u64 nr_enqueued;
};

static struct my_global *glob(void)
{
	return scx_global_data();
}

/* A task is ready to run: queue it. Here, at the tail of the global FIFO. */
void BPF_STRUCT_OPS(my_enqueue, struct scx_task *p, u64 enq_flags)
{
	struct my_task *t = scx_task_data(p);

	t->nr_enqueued++;
	glob()->nr_enqueued++;
	scx_bpf_dispatch(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

/*
 * A CPU has nothing in its local queue and the global one is empty: move
 * tasks from queues of your own here (scx_bpf_consume()). This policy
 * keeps none, so there is nothing to do.
 */
void BPF_STRUCT_OPS(my_dispatch, s32 cpu, struct scx_task *prev)
{
}

/* The policy goes away (the run ends it only on an error or scx_bpf_exit()). */
void BPF_STRUCT_OPS(my_exit, struct scx_exit_info *ei)
{
	bpf_printk("%s after %llu enqueues: %s", ei->reason, (unsigned long long)glob()->nr_enqueued,
		   ei->msg);
}

SCX_OPS_DEFINE(my_ops, .enqueue = my_enqueue, .dispatch = my_dispatch, .exit = my_exit, .name = "template",
	       .global_size = sizeof(struct my_global), .task_size = sizeof(struct my_task));
