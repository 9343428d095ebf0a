// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace text writer. The layout follows trace_print_context() and the
 * sched tracepoints' TP_printk() of kernel/trace and
 * include/trace/events/sched.h:
 *
 *	"%16s-%-7d [%03d] %5s %5lu.%06lu: %s: <fields>"
 *
 * with the timestamp rounded to the microsecond as ns2usecs() rounds it (the
 * trace file of Linux 6.18 prints 2837.743437774 s as 2837.743438: rounded,
 * not truncated; perf script truncates).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/features.h"
#include "sched/api/scenario.h"
#include "src/base/mem.h"
#include "trace_ftrace.h"

/* Kernel releases whose sched tracepoint formats changed. */
#define KV_STAT_RUNTIME_NO_VRUNTIME KV(6, 8)
#define KV_EXIT_GROUP_DEAD KV(6, 16)

/* The kernel's comm[TASK_COMM_LEN = 16], NUL included. */
#define KERNEL_COMM_MAX 15

struct trace_ftrace {
	FILE *f;
	struct trace_ftrace_opts o;
	long count_pos;		/* offset of the entries line, -1 if it cannot be patched */
	int count_width;	/* that line's fixed width, newline excluded */
	u64 entries;
	int nr_cpus;
	s32 curr[];		/* [nr_cpus] pid running on each CPU */
};

/*
 * irqs-off, need-resched, hardirq/softirq, preempt-depth, migrate-disable:
 * what the kernel shows for the context each tracepoint fires in.
 */
static const char *const event_flags[NR_SCHED_EVENTS] = {
	[EV_SCHED_SWITCH] = "d..2.",	   /* __schedule(): rq lock, irqs off */
	[EV_SCHED_WAKING] = "d..2.",	   /* try_to_wake_up(): pi_lock held */
	[EV_SCHED_WAKEUP] = "d..3.",	   /* ttwu_do_activate(): + rq lock */
	[EV_SCHED_WAKEUP_NEW] = "d..2.",   /* wake_up_new_task(): rq lock */
	[EV_SCHED_MIGRATE_TASK] = "d..2.", /* set_task_cpu() under rq locks */
	[EV_SCHED_PROCESS_FORK] = ".....",
	[EV_SCHED_PROCESS_EXIT] = ".....",
	[EV_SCHED_STAT_RUNTIME] = "d..2.", /* update_curr() at switch-out */
	[EV_SET_NICE] = "d..2.",
	[EV_YIELD] = "d..2.",
	[EV_COMMAND] = ".....",
	[EV_NOTE] = ".....",
	[EV_CFS_THROTTLE] = "d..2.", /* under the rq lock */
	[EV_CFS_UNTHROTTLE] = "d..2.",
	[EV_CFS_PERIOD] = "d.h1.", /* the period hrtimer */
	[EV_IRQ_ENTRY] = "d.h1.",  /* hardirq context */
	[EV_IRQ_EXIT] = "d.h1.",
	[EV_STEAL] = ".....",
	[EV_SELECT_RQ] = "d..2.", /* select_task_rq(): pi_lock held */
	[EV_LB_GROUP] = "..s1.",  /* SCHED_SOFTIRQ */
	[EV_LB_TASK] = "d.s2.",	  /* detach_tasks(): busiest's rq lock */
	[EV_LOAD_BALANCE] = "..s1.",
	[EV_HERD] = "d..2.", /* with the sched_migrate_task that completes it */
	[EV_PROG_TIMER] = ".....",
	[EV_PROG_LOG] = ".....",
	[EV_RT_THROTTLE] = "d..2.",   /* update_curr_rt() under the rq lock */
	[EV_RT_UNTHROTTLE] = "d.h2.", /* the period hrtimer, in hardirq */
	[EV_DL_THROTTLE] = "d..2.",   /* update_curr_dl_se() under the rq lock */
	[EV_DL_REPLENISH] = "d.h2.",  /* mostly from the dl_timer hrtimer */
	[EV_DL_MISS] = "d..2.",	      /* dequeue at the job's end */
	[EV_EXT_ENABLE] = ".....",    /* the ops helper kthread */
	[EV_EXT_DISPATCH] = "d..2.",  /* under the rq lock */
	[EV_EXT_KICK] = "d..2.",
	[EV_EXT_PRINTK] = "d..2.", /* bpf_printk() from an operation */
	[EV_EXT_EXIT] = ".....",   /* scx_ops_disable_workfn() */
};

/*
 * A sleep's timer wakes its task from hrtimer_wakeup(), in hardirq context:
 * the 'h' column tells an importer that no task was the waker.
 */
static const char *flags_of(const struct sched_event *ev)
{
	if ((ev->type == EV_SCHED_WAKING || ev->type == EV_SCHED_WAKEUP) && ev->wake.from_timer)
		return ev->type == EV_SCHED_WAKING ? "d.h2." : "d.h3.";
	return event_flags[ev->type];
}

/* ---- the header ---- */

static int format_count_line(char *buf, size_t cap, u64 entries, int nr_cpus)
{
	return snprintf(buf, cap, "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%d",
			entries, entries, nr_cpus);
}

/* The count line padded with spaces to the width of the largest count, newline included. */
static void write_count_line(struct trace_ftrace *w, u64 entries)
{
	char buf[128];
	int n = format_count_line(buf, sizeof(buf), entries, w->nr_cpus);

	fprintf(w->f, "%s%*s\n", buf, w->count_width - n, "");
}

/*
 * Where the count can be rewritten in place: a seekable stream not opened
 * for appending (an O_APPEND write would land at the end instead).
 */
static long patchable_position(FILE *f)
{
	int fd = fileno(f);

	if (fd >= 0) {
		int fl = fcntl(fd, F_GETFL);

		if (fl < 0 || (fl & O_APPEND))
			return -1;
	}
	return ftell(f);
}

static void write_header(struct trace_ftrace *w)
{
	char widest[128];

	w->count_width = format_count_line(widest, sizeof(widest), UINT64_MAX, w->nr_cpus);

	fputs("# tracer: nop\n#\n", w->f);
	w->count_pos = patchable_position(w->f);
	write_count_line(w, 0);
	fputs("#\n"
	      "#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n",
	      w->f);
}

struct trace_ftrace *trace_ftrace_open(FILE *f, const struct trace_ftrace_opts *o)
{
	int nr_cpus = o->nr_cpus > 0 ? o->nr_cpus : 0;
	struct trace_ftrace *w = xcalloc(1, sizeof(*w) + ((size_t)nr_cpus + 1) * sizeof(w->curr[0]));

	w->f = f;
	w->o = *o;
	if (!w->o.kernel)
		w->o.kernel = KV_LATEST;
	w->nr_cpus = nr_cpus;
	/* curr[] is zeroed: every CPU runs its idle task until the first switch. */
	write_header(w);
	return w;
}

u64 trace_ftrace_entries(const struct trace_ftrace *w)
{
	return w->entries;
}

int trace_ftrace_close(struct trace_ftrace *w)
{
	int ret = 0;

	if (!w)
		return 0;
	if (fflush(w->f) != 0)
		ret = -1;
	if (w->count_pos >= 0 && ret == 0) {
		long end = ftell(w->f);

		if (end >= 0 && fseek(w->f, w->count_pos, SEEK_SET) == 0) {
			write_count_line(w, w->entries);
			if (fseek(w->f, end, SEEK_SET) != 0)
				ret = -1;
		}
		if (fflush(w->f) != 0)
			ret = -1;
	}
	if (ferror(w->f))
		ret = -1;
	free(w);
	return ret;
}

/* ---- one line per event ---- */

/* A name as the kernel would print it: at most 15 characters, "<...>" when unknown. */
static const char *comm_of(struct trace_ftrace *w, int pid, int cpu, char buf[KERNEL_COMM_MAX + 1])
{
	const char *name = w->o.comm ? w->o.comm(w->o.ctx, pid, cpu) : NULL;

	if (!name)
		return "<...>";
	if (w->o.full_comm)
		return name;
	snprintf(buf, KERNEL_COMM_MAX + 1, "%s", name);
	return buf;
}

static bool cpu_valid(const struct trace_ftrace *w, int cpu)
{
	return cpu >= 0 && cpu < w->nr_cpus;
}

/* "          <idle>-0       [000] d..2.     0.004000: sched_switch: " */
static void put_context(struct trace_ftrace *w, const struct sched_event *ev, int pid)
{
	char buf[KERNEL_COMM_MAX + 1];
	/* ns2usecs(): to the nearest microsecond. */
	u64 us = ev->time / 1000 + (ev->time % 1000 >= 500);
	const char *comm = pid == 0 ? "<idle>" : comm_of(w, pid, ev->cpu, buf);

	fprintf(w->f, "%16s-%-7d [%03d] %s %5" PRIu64 ".%06" PRIu64 ": %s: ",
		comm, pid, ev->cpu, flags_of(ev), us / 1000000, us % 1000000,
		sched_event_names[ev->type]);
}

/*
 * prev_state as TP_printk() shows it: a preempted task is "R+". The idle
 * task leaves the CPU through schedule_idle(), never preempted: plain "R".
 */
static const char *prev_state_string(int pid, char state, char buf[2])
{
	switch (state) {
	case TASK_STATE_R:
		return pid == 0 ? "R" : "R+";
	case 0:
		return "R";
	default:
		buf[0] = state;
		buf[1] = '\0';
		return buf;
	}
}

static void put_switch(struct trace_ftrace *w, const struct sched_event *ev)
{
	char a[KERNEL_COMM_MAX + 1], b[KERNEL_COMM_MAX + 1], st[2];

	fprintf(w->f, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
		"next_comm=%s next_pid=%d next_prio=%d\n",
		comm_of(w, ev->sw.prev_pid, ev->cpu, a), ev->sw.prev_pid, ev->sw.prev_prio,
		prev_state_string(ev->sw.prev_pid, ev->sw.prev_state, st),
		comm_of(w, ev->sw.next_pid, ev->cpu, b), ev->sw.next_pid, ev->sw.next_prio);
}

/* A caption on one line: the text format has no way to continue a record. */
static void put_note_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static const char *text_of(const struct trace_ftrace *w, u32 id)
{
	const char *s = w->o.text ? w->o.text(w->o.ctx, id) : NULL;

	return s ? s : "";
}

static void put_fields(struct trace_ftrace *w, const struct sched_event *ev)
{
	char a[KERNEL_COMM_MAX + 1], b[KERNEL_COMM_MAX + 1];
	FILE *f = w->f;
	int cpu = ev->cpu;

	switch (ev->type) {
	case EV_SCHED_SWITCH:
		put_switch(w, ev);
		break;
	case EV_SCHED_WAKING:
	case EV_SCHED_WAKEUP:
	case EV_SCHED_WAKEUP_NEW:
		fprintf(f, "comm=%s pid=%d prio=%d target_cpu=%03d\n",
			comm_of(w, ev->wake.pid, cpu, a), ev->wake.pid, ev->wake.prio,
			ev->wake.target_cpu);
		break;
	case EV_SCHED_MIGRATE_TASK:
		fprintf(f, "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\n",
			comm_of(w, ev->migrate.pid, cpu, a), ev->migrate.pid, ev->migrate.prio,
			ev->migrate.orig_cpu, ev->migrate.dest_cpu);
		break;
	case EV_SCHED_PROCESS_FORK:
		fprintf(f, "comm=%s pid=%d child_comm=%s child_pid=%d\n",
			comm_of(w, ev->fork.parent_pid, cpu, a), ev->fork.parent_pid,
			comm_of(w, ev->fork.child_pid, cpu, b), ev->fork.child_pid);
		break;
	case EV_SCHED_PROCESS_EXIT:
		/* Every simulated task is a process of its own: its exit ends the group. */
		fprintf(f, "comm=%s pid=%d prio=%d%s\n",
			comm_of(w, ev->exit.pid, cpu, a), ev->exit.pid, ev->exit.prio,
			w->o.kernel >= KV_EXIT_GROUP_DEAD ? " group_dead=true" : "");
		break;
	case EV_SCHED_STAT_RUNTIME:
		fprintf(f, "comm=%s pid=%d runtime=%" PRIu64 " [ns]",
			comm_of(w, ev->runtime.pid, cpu, a), ev->runtime.pid, ev->runtime.runtime);
		if (w->o.kernel < KV_STAT_RUNTIME_NO_VRUNTIME)
			fprintf(f, " vruntime=%" PRIu64 " [ns]", ev->runtime.vruntime);
		fputc('\n', f);
		break;
	case EV_SET_NICE:
		fprintf(f, "comm=%s pid=%d old_nice=%d new_nice=%d policy=%d slice=%" PRIu64 "\n",
			comm_of(w, ev->nice.pid, cpu, a), ev->nice.pid, ev->nice.old_nice,
			ev->nice.new_nice, ev->nice.policy, ev->nice.slice);
		break;
	case EV_YIELD:
		fprintf(f, "comm=%s pid=%d", comm_of(w, ev->yield.pid, cpu, a), ev->yield.pid);
		if (ev->yield.to_pid)
			fprintf(f, " to_comm=%s to_pid=%d", comm_of(w, ev->yield.to_pid, cpu, a),
				ev->yield.to_pid);
		fputc('\n', f);
		break;
	case EV_COMMAND:
		/* index -1: typed at the console rather than a scenario `at` line. */
		fprintf(f, "index=%d kind=", ev->command.index == ~0u ? -1 : (int)ev->command.index);
		if (ev->command.kind < NR_SCHED_COMMANDS)
			fputs(sched_command_names[ev->command.kind], f);
		else
			fprintf(f, "%u", ev->command.kind);
		fprintf(f, " task=%d key=%d value=%" PRId64 "\n",
			ev->command.task, ev->command.key, ev->command.value);
		break;
	case EV_CFS_THROTTLE:
	case EV_CFS_UNTHROTTLE:
	case EV_CFS_PERIOD: {
		const char *path = w->o.group ? w->o.group(w->o.ctx, ev->bw.group) : NULL;

		if (path)
			fprintf(f, "group=%s", path);
		else
			fprintf(f, "group=%d", ev->bw.group);
		if (ev->type == EV_CFS_PERIOD)
			fprintf(f, " pool=%" PRId64 " throttled=%" PRIu64 " burst=%" PRIu64 "\n", ev->bw.pool,
				ev->bw.extra, ev->bw.burst);
		else if (ev->type == EV_CFS_THROTTLE)
			fprintf(f, " runtime_remaining=%" PRId64 " pool=%" PRId64 "\n",
				ev->bw.runtime_remaining, ev->bw.pool);
		else
			fprintf(f, " runtime_remaining=%" PRId64 " pool=%" PRId64 " throttled_ns=%" PRIu64 "\n",
				ev->bw.runtime_remaining, ev->bw.pool, ev->bw.extra);
		break;
	}
	case EV_SELECT_RQ:
		fprintf(f, "comm=%s pid=%d %s prev_cpu=%d target_cpu=%d new_cpu=%d affine=%s path=%s "
			"level=%d scanned=%d this_eff_load=%" PRId64 " prev_eff_load=%" PRId64 "\n",
			comm_of(w, ev->select.pid, cpu, a), ev->select.pid,
			ev->select.wake_flags & SELECT_WF_FORK ? "fork" :
			ev->select.wake_flags & SELECT_WF_SYNC ? "wakeup_sync" : "wakeup", ev->select.prev_cpu,
			ev->select.target, ev->select.new_cpu,
			sched_name_of(wake_affine_names, NR_WAKE_AFFINE_RESULTS, ev->select.affine),
			sched_name_of(select_path_names, NR_SELECT_PATHS, ev->select.path), ev->select.depth,
			ev->select.nr_scanned, ev->select.this_eff_load, ev->select.prev_eff_load);
		break;
	case EV_LB_GROUP:
		fprintf(f, "decision=%" PRIu64 " level=%d group_cpu=%d%s type=%s load=%u avg_load=%" PRIu64
			" util=%u capacity=%u nr_running=%u h_nr_running=%u idle_cpus=%u\n",
			ev->lb_group.decision, ev->lb_group.depth, ev->lb_group.first_cpu,
			ev->lb_group.local ? " local" : "",
			sched_name_of(group_type_names, NR_GROUP_TYPES, ev->lb_group.group_type),
			ev->lb_group.group_load, ev->lb_group.avg_load, ev->lb_group.group_util,
			ev->lb_group.group_capacity, ev->lb_group.sum_nr_running,
			ev->lb_group.sum_h_nr_running, ev->lb_group.idle_cpus);
		break;
	case EV_LB_TASK:
		fprintf(f,
			"decision=%" PRIu64 " level=%d comm=%s pid=%d result=%s migration_type=%s load=%u "
			"imbalance=%" PRId64 " nr_balance_failed=%u",
			ev->lb_task.decision, ev->lb_task.depth, comm_of(w, ev->lb_task.pid, cpu, a),
			ev->lb_task.pid,
			sched_name_of(lb_task_result_names, NR_LB_TASK_RESULTS, ev->lb_task.result),
			sched_name_of(migration_type_names, NR_MIGRATION_TYPES, ev->lb_task.migration_type),
			ev->lb_task.load, ev->lb_task.imbalance, ev->lb_task.nr_balance_failed);
		if (ev->lb_task.h_load_stale)
			fprintf(f, " h_load_stale load_fresh=%u", ev->lb_task.load_fresh);
		fputc('\n', f);
		break;
	case EV_LOAD_BALANCE:
		fprintf(f,
			"decision=%" PRIu64 " level=%d name=%s idle=%s outcome=%s why=%s busiest_group=%d "
			"busiest_cpu=%d migration_type=%s imbalance=%" PRId64 " moved=%u hot_moved=%u "
			"nr_balance_failed_before=%u nr_balance_failed=%u balance_interval=%u\n",
			ev->lb.decision, ev->lb.depth,
			sched_name_of(sd_level_names, NR_SD_LEVEL_NAMES, ev->lb.level),
			sched_name_of(cpu_idle_type_names, CPU_MAX_IDLE_TYPES, ev->lb.idle),
			sched_name_of(lb_outcome_names, NR_LB_OUTCOMES, ev->lb.outcome),
			sched_name_of(fbg_reason_names, NR_FBG_REASONS, ev->lb.why), ev->lb.busiest_group,
			ev->lb.busiest_cpu,
			sched_name_of(migration_type_names, NR_MIGRATION_TYPES, ev->lb.migration_type),
			ev->lb.imbalance, ev->lb.nr_moved, ev->lb.nr_hot_moved,
			ev->lb.nr_balance_failed_before, ev->lb.nr_balance_failed, ev->lb.balance_interval);
		break;
	case EV_HERD:
		fprintf(f, "cause=%s nr=%u src_cpus=%u dst_cpus=%u first_seq=%" PRIu64 " since=%" PRIu64 ".%06" PRIu64,
			sched_name_of(herd_cause_names, NR_HERD_CAUSES, ev->herd.cause), ev->herd.nr, ev->herd.nr_src,
			ev->herd.nr_dst, ev->herd.first_seq, ev->herd.first_time / 1000000000,
			ev->herd.first_time / 1000 % 1000000);
		for (int r = 0; r < NR_MIGRATE_REASONS; r++)
			if (ev->herd.by_reason[r])
				fprintf(f, " %s=%u", migrate_reason_names[r], ev->herd.by_reason[r]);
		fputc('\n', f);
		break;
	case EV_RT_THROTTLE:
	case EV_RT_UNTHROTTLE:
		fprintf(f, "rt_time=%" PRIu64 " [ns] rt_runtime=%" PRIu64 " [ns] rt_nr_running=%u\n",
			ev->rt_bw.rt_time, ev->rt_bw.rt_runtime, ev->rt_bw.nr_running);
		break;
	case EV_DL_THROTTLE:
	case EV_DL_REPLENISH:
	case EV_DL_MISS:
		/* pid 0 is the CPU's fair server */
		fprintf(f, "comm=%s pid=%d %s=%" PRId64 " [ns] deadline=%" PRIu64 " [ns]\n",
			ev->dl.pid ? comm_of(w, ev->dl.pid, cpu, a) : "fair_server", ev->dl.pid,
			ev->type == EV_DL_MISS ? "lateness" : "runtime", ev->dl.runtime, ev->dl.deadline);
		break;
	case EV_IRQ_ENTRY:
		fprintf(f, "irq=%d name=%s\n", ev->intr.irq, w->o.irq_name ? w->o.irq_name(w->o.ctx, ev->intr.source) : "irq");
		break;
	case EV_IRQ_EXIT:
		fprintf(f, "irq=%d ret=handled\n", ev->intr.irq);
		break;
	case EV_STEAL:
		fprintf(f, "steal_ns=%" PRIu64 " irq_ns=%" PRIu64 "\n", ev->intr.steal_ns, ev->intr.irq_ns);
		break;
	case EV_PROG_TIMER:
		fprintf(f, "comm=%s pid=%d expires=%" PRIu64 " slack=%" PRId64 " missed=%d\n",
			comm_of(w, ev->timer.pid, cpu, a), ev->timer.pid, ev->timer.expires,
			ev->timer.slack, ev->timer.missed);
		break;
	case EV_EXT_ENABLE:
		fprintf(f, "name=%s partial=%d\n", text_of(w, ev->ext_exit.text), ev->ext_exit.kind);
		break;
	case EV_EXT_DISPATCH: {
		char dsq[32];

		fprintf(f,
			"comm=%s pid=%d op=%s how=%s dsq=%s dest_cpu=%d slice=%" PRIu64 " vtime=%" PRIu64
			" enq_flags=0x%" PRIx64 "\n",
			comm_of(w, ev->ext_dsp.pid, cpu, a), ev->ext_dsp.pid,
			sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_dsp.op),
			sched_name_of(ext_dispatch_how_names, NR_EXT_DSP_HOWS, ev->ext_dsp.how),
			ext_dsq_format(dsq, sizeof(dsq), ev->ext_dsp.dsq_id), ev->ext_dsp.dest_cpu,
			ev->ext_dsp.slice, ev->ext_dsp.vtime, ev->ext_dsp.enq_flags);
		break;
	}
	case EV_EXT_KICK:
		fprintf(f, "op=%s target_cpu=%d flags=0x%" PRIx64 "\n",
			sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_kick.op), ev->ext_kick.target_cpu,
			ev->ext_kick.flags);
		break;
	case EV_EXT_PRINTK:
		fprintf(f, "op=%s comm=%s pid=%d text=",
			sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_print.op),
			ev->ext_print.pid ? comm_of(w, ev->ext_print.pid, cpu, a) : "-", ev->ext_print.pid);
		put_note_text(f, text_of(w, ev->ext_print.text));
		fputc('\n', f);
		break;
	case EV_EXT_EXIT:
		fprintf(f, "kind=%u reason=%s op=%s comm=%s pid=%d exit_code=%" PRId64 " msg=",
			ev->ext_exit.kind, ext_exit_reason(ev->ext_exit.kind),
			sched_name_of(ext_op_names, NR_EXT_OPS, ev->ext_exit.op),
			ev->ext_exit.pid ? comm_of(w, ev->ext_exit.pid, cpu, a) : "-", ev->ext_exit.pid,
			ev->ext_exit.exit_code);
		put_note_text(f, text_of(w, ev->ext_exit.text));
		fputc('\n', f);
		break;
	case EV_PROG_LOG:
		fprintf(f, "comm=%s pid=%d sum_exec=%" PRIu64 " run_wall=%" PRIu64 " run_asked=%" PRIu64 "\n",
			comm_of(w, ev->log.pid, cpu, a), ev->log.pid, ev->log.sum_exec, ev->log.run_wall,
			ev->log.run_asked);
		break;
	case EV_NOTE: {
		const char *text = w->o.note ? w->o.note(w->o.ctx, ev->note.index) : NULL;

		fprintf(f, "index=%u", ev->note.index);
		if (text) {
			fputs(" text=", f);
			put_note_text(f, text);
		}
		fputc('\n', f);
		break;
	}
	}
}

void trace_ftrace_fields(const struct trace_ftrace_opts *o, const struct sched_event *ev, char *buf,
			size_t n)
{
	struct trace_ftrace w = { .o = *o };
	size_t len;

	if (!n)
		return;
	buf[0] = 0;
	if (ev->type >= NR_SCHED_EVENTS || !(w.f = fmemopen(buf, n, "w")))
		return;
	put_fields(&w, ev);
	fclose(w.f);
	len = strnlen(buf, n - 1);
	buf[len] = 0;
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = 0;
}

void trace_ftrace_event(void *arg, const struct sched_event *ev)
{
	struct trace_ftrace *w = arg;
	int pid;

	if (ev->type >= NR_SCHED_EVENTS)
		return;
	/* TASK-PID is whoever runs on that CPU; sched_switch fires before the switch. */
	if (ev->type == EV_SCHED_SWITCH)
		pid = ev->sw.prev_pid;
	else
		pid = cpu_valid(w, ev->cpu) ? w->curr[ev->cpu] : 0;

	put_context(w, ev, pid);
	put_fields(w, ev);
	w->entries++;

	if (ev->type == EV_SCHED_SWITCH && cpu_valid(w, ev->cpu))
		w->curr[ev->cpu] = ev->sw.next_pid;
}
