// SPDX-License-Identifier: GPL-2.0
/* Event names, as the kernel's tracepoints (and schedscope's own records) are called. */
#include <stdio.h>

#include "api/event.h"
#include "api/ext.h"
#include "api/scenario.h"

const char *const sched_event_names[NR_SCHED_EVENTS] = {
	[EV_SCHED_SWITCH] = "sched_switch",
	[EV_SCHED_WAKING] = "sched_waking",
	[EV_SCHED_WAKEUP] = "sched_wakeup",
	[EV_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[EV_SCHED_MIGRATE_TASK] = "sched_migrate_task",
	[EV_SCHED_PROCESS_FORK] = "sched_process_fork",
	[EV_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[EV_SCHED_STAT_RUNTIME] = "sched_stat_runtime",
	[EV_SET_NICE] = "schedscope_set_nice",
	[EV_YIELD] = "schedscope_yield",
	[EV_COMMAND] = "schedscope_command",
	[EV_NOTE] = "schedscope_note",
	[EV_CFS_THROTTLE] = "schedscope_cfs_throttle",
	[EV_CFS_UNTHROTTLE] = "schedscope_cfs_unthrottle",
	[EV_CFS_PERIOD] = "schedscope_cfs_period",
	[EV_IRQ_ENTRY] = "irq_handler_entry",
	[EV_IRQ_EXIT] = "irq_handler_exit",
	[EV_STEAL] = "schedscope_steal",
	[EV_SELECT_RQ] = "schedscope_select_rq",
	[EV_LB_GROUP] = "schedscope_lb_group",
	[EV_LB_TASK] = "schedscope_lb_task",
	[EV_LOAD_BALANCE] = "schedscope_load_balance",
	[EV_HERD] = "schedscope_herd",
	[EV_PROG_TIMER] = "schedscope_timer",
	[EV_PROG_LOG] = "schedscope_log",
	[EV_RT_THROTTLE] = "schedscope_rt_throttle",
	[EV_RT_UNTHROTTLE] = "schedscope_rt_unthrottle",
	[EV_DL_THROTTLE] = "schedscope_dl_throttle",
	[EV_DL_REPLENISH] = "schedscope_dl_replenish",
	[EV_DL_MISS] = "schedscope_dl_miss",
	[EV_EXT_ENABLE] = "schedscope_ext_enable",
	[EV_EXT_DISPATCH] = "schedscope_ext_dispatch",
	[EV_EXT_KICK] = "schedscope_ext_kick",
	[EV_EXT_PRINTK] = "schedscope_ext_printk",
	[EV_EXT_EXIT] = "schedscope_ext_exit",
};

const char *const ext_op_names[NR_EXT_OPS] = {
	[EXT_OP_CORE] = "core",
	[EXT_OP_SELECT_CPU] = "select_cpu",
	[EXT_OP_ENQUEUE] = "enqueue",
	[EXT_OP_DEQUEUE] = "dequeue",
	[EXT_OP_DISPATCH] = "dispatch",
	[EXT_OP_TICK] = "tick",
	[EXT_OP_RUNNABLE] = "runnable",
	[EXT_OP_RUNNING] = "running",
	[EXT_OP_STOPPING] = "stopping",
	[EXT_OP_QUIESCENT] = "quiescent",
	[EXT_OP_YIELD] = "yield",
	[EXT_OP_SET_WEIGHT] = "set_weight",
	[EXT_OP_SET_CPUMASK] = "set_cpumask",
	[EXT_OP_UPDATE_IDLE] = "update_idle",
	[EXT_OP_CPU_ACQUIRE] = "cpu_acquire",
	[EXT_OP_CPU_RELEASE] = "cpu_release",
	[EXT_OP_INIT_TASK] = "init_task",
	[EXT_OP_EXIT_TASK] = "exit_task",
	[EXT_OP_ENABLE] = "enable",
	[EXT_OP_DISABLE] = "disable",
	[EXT_OP_INIT] = "init",
	[EXT_OP_EXIT] = "exit",
	[EXT_OP_TIMER] = "timer",
};

const char *const ext_dispatch_how_names[NR_EXT_DSP_HOWS] = {
	[EXT_DSP_INSERT] = "insert",
	[EXT_DSP_INSERT_VTIME] = "insert_vtime",
	[EXT_DSP_MOVE] = "move",
};

const char *const ext_exit_kind_names[NR_EXT_EXIT_KINDS] = {
	"unreg", "unreg_bpf", "unreg_kern", "sysrq", "error", "error_bpf", "error_stall",
};

int ext_exit_kind_index(unsigned kind)
{
	if (kind >= SCX_EXIT_UNREG && kind <= SCX_EXIT_SYSRQ)
		return (int)(kind - SCX_EXIT_UNREG);
	if (kind >= SCX_EXIT_ERROR && kind <= SCX_EXIT_ERROR_STALL)
		return 4 + (int)(kind - SCX_EXIT_ERROR);
	return -1;
}

/* kernel/sched/ext.c's scx_exit_reason() */
const char *ext_exit_reason(unsigned kind)
{
	switch (kind) {
	case SCX_EXIT_UNREG:
		return "unregistered from user space";
	case SCX_EXIT_UNREG_BPF:
		return "unregistered from BPF";
	case SCX_EXIT_UNREG_KERN:
		return "unregistered from the main kernel";
	case SCX_EXIT_SYSRQ:
		return "disabled by sysrq-S";
	case SCX_EXIT_ERROR:
		return "runtime error";
	case SCX_EXIT_ERROR_BPF:
		return "scx_bpf_error";
	case SCX_EXIT_ERROR_STALL:
		return "runnable task stall";
	default:
		return "<UNKNOWN>";
	}
}

const char *const herd_cause_names[NR_HERD_CAUSES] = {
	[HERD_NEWIDLE] = "newidle",   [HERD_WAKEUP] = "wakeup", [HERD_IMBALANCE] = "imbalance",
	[HERD_AFFINITY] = "affinity", [HERD_MIXED] = "mixed",
};

const char *const sd_level_names[NR_SD_LEVEL_NAMES] = {
	[SDL_SMT] = "SMT", [SDL_CLS] = "CLS", [SDL_MC] = "MC", [SDL_PKG] = "PKG", [SDL_NODE] = "NODE",
	[SDL_NUMA] = "NUMA",
};

const char *const migrate_reason_names[NR_MIGRATE_REASONS] = {
	[MIGRATE_WAKEUP] = "wakeup",	 [MIGRATE_FORK] = "fork",	[MIGRATE_BALANCE] = "balance",
	[MIGRATE_NEWIDLE] = "newidle",	 [MIGRATE_NOHZ] = "nohz_idle",	[MIGRATE_ACTIVE] = "active",
	[MIGRATE_RT_PUSH] = "rt_push",	 [MIGRATE_RT_PULL] = "rt_pull", [MIGRATE_EXT] = "ext",
	[MIGRATE_AFFINITY] = "affinity",
};

const char *const select_path_names[NR_SELECT_PATHS] = {
	[SEL_PINNED] = "pinned",
	[SEL_IDLE_TARGET] = "idle_target",
	[SEL_IDLE_PREV] = "idle_prev",
	[SEL_IDLE_RECENT] = "idle_recent",
	[SEL_IDLE_CAPACITY] = "idle_capacity",
	[SEL_IDLE_SMT] = "idle_smt",
	[SEL_IDLE_CORE] = "idle_core",
	[SEL_IDLE_CPU] = "idle_cpu",
	[SEL_NO_IDLE] = "no_idle",
	[SEL_IDLEST] = "idlest",
	[SEL_FALLBACK] = "fallback",
	[SEL_RT] = "rt",
	[SEL_DL_PREV] = "dl_prev",
	[SEL_EXT] = "ext",
};

const char *const wake_affine_names[NR_WAKE_AFFINE_RESULTS] = {
	[WA_NONE] = "none",
	[WA_IDLE_THIS] = "idle_this",
	[WA_IDLE_PREV] = "idle_prev",
	[WA_SYNC_THIS] = "sync_this",
	[WA_WEIGHT_THIS] = "weight_this",
	[WA_WEIGHT_PREV] = "weight_prev",
};

const char *const group_type_names[NR_GROUP_TYPES] = {
	[group_has_spare] = "has_spare",
	[group_fully_busy] = "fully_busy",
	[group_misfit_task] = "misfit_task",
	[group_smt_balance] = "smt_balance",
	[group_asym_packing] = "asym_packing",
	[group_imbalanced] = "imbalanced",
	[group_overloaded] = "overloaded",
};

const char *const migration_type_names[NR_MIGRATION_TYPES] = {
	[migrate_load] = "load", [migrate_util] = "util", [migrate_task] = "task", [migrate_misfit] = "misfit",
};

const char *const cpu_idle_type_names[CPU_MAX_IDLE_TYPES] = {
	[CPU_NOT_IDLE] = "busy", [CPU_IDLE] = "idle", [CPU_NEWLY_IDLE] = "newidle",
};

const char *const lb_outcome_names[NR_LB_OUTCOMES] = {
	[LB_BALANCED] = "balanced",
	[LB_NOBUSYG] = "nobusyg",
	[LB_NOBUSYQ] = "nobusyq",
	[LB_MOVED] = "moved",
	[LB_FAILED] = "failed",
	[LB_ALL_PINNED] = "all_pinned",
	[LB_ACTIVE_PUSHED] = "active_pushed",
	[LB_ACTIVE_FAILED] = "active_failed",
};

const char *const fbg_reason_names[NR_FBG_REASONS] = {
	[FBG_FORCED] = "forced",
	[FBG_NO_BUSIEST] = "no_busiest",
	[FBG_LOCAL_BUSIER] = "local_busier",
	[FBG_AVG_LOAD] = "avg_load",
	[FBG_NOT_IDLE] = "not_idle",
	[FBG_IDLE_CPUS] = "idle_cpus",
	[FBG_ONE_TASK] = "one_task",
	[FBG_NO_IMBALANCE] = "no_imbalance",
	[FBG_NOT_DESIGNATED] = "not_designated",
};

/* clang-format off */
const char *const lb_task_result_names[NR_LB_TASK_RESULTS] = {
	[LBT_MOVED] = "moved",
	[LBT_MOVED_HOT] = "moved_hot",
	[LBT_PINNED] = "pinned",
	[LBT_RUNNING] = "running",
	[LBT_HOT] = "hot",
	[LBT_TOO_BIG] = "too_big",
	[LBT_FITS] = "fits",
	[LBT_THROTTLED] = "throttled",
	[LBT_DELAYED] = "delayed",
	[LBT_INELIGIBLE] = "ineligible",
};
/* clang-format on */

const char *const sched_command_names[NR_SCHED_COMMANDS] = {
	[CMD_SET_TUNABLE] = "set_tunable",
	[CMD_SET_FEATURE] = "set_feature",
	[CMD_SET_NICE] = "set_nice",
	[CMD_SET_SLICE] = "set_slice",
	[CMD_SET_POLICY] = "set_policy",
	[CMD_SET_GROUP_SHARES] = "set_group_shares",
	[CMD_SET_GROUP_IDLE] = "set_group_idle",
	[CMD_SET_GROUP_MAX] = "set_group_max",
	[CMD_SET_GROUP_BURST] = "set_group_burst",
	[CMD_MOVE_TASK] = "move_task",
	[CMD_SET_CPUS] = "set_cpus",
};

const char *ext_dsq_format(char *buf, size_t len, u64 dsq_id)
{
	if (dsq_id == SCX_DSQ_GLOBAL)
		snprintf(buf, len, "global");
	else if (dsq_id == SCX_DSQ_LOCAL)
		snprintf(buf, len, "local");
	else if ((dsq_id & SCX_DSQ_LOCAL_ON) == SCX_DSQ_LOCAL_ON)
		snprintf(buf, len, "local_on:%llu", (unsigned long long)(dsq_id & SCX_DSQ_LOCAL_CPU_MASK));
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)dsq_id);
	return buf;
}
