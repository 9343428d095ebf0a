// SPDX-License-Identifier: GPL-2.0
/* Test policy: the default scheduling, and scx_bpf_error() (or scx_bpf_exit()) at the 10th tick. */
#include <schedscope/ext.h>

struct ticks {
	u32 n;
};

void BPF_STRUCT_OPS(err_tick, struct scx_task *p)
{
	struct ticks *t = scx_global_data();

	if (++t->n == 10) {
#ifdef USE_EXIT
		scx_bpf_exit(7, "done after %u ticks", t->n);
#else
		scx_bpf_error("giving up after %u ticks on %s", t->n, p->comm);
#endif
	}
}

SCX_OPS_DEFINE(err_ops, .tick = err_tick, .name = "bpf_error", .global_size = sizeof(struct ticks));
