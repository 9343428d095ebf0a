/* Event names, as the kernel's tracepoints (and schedscope's own records) are called. */
#include "event.h"
#include "scenario.h"

const char *const sched_event_names[NR_SCHED_EVENTS] = {
	[EV_SCHED_SWITCH] = "sched_switch",
	[EV_SCHED_WAKING] = "sched_waking",
	[EV_SCHED_WAKEUP] = "sched_wakeup",
	[EV_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[EV_SCHED_MIGRATE_TASK] = "sched_migrate_task",
	[EV_SCHED_PROCESS_FORK] = "sched_process_fork",
	[EV_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[EV_SCHED_STAT_RUNTIME] = "sched_stat_runtime",
	[EV_SCHED_SET_NICE] = "schedscope_set_nice",
	[EV_SCHED_YIELD] = "schedscope_yield",
	[EV_COMMAND] = "schedscope_command",
	[EV_NOTE] = "schedscope_note",
	[EV_CFS_THROTTLE] = "schedscope_cfs_throttle",
	[EV_CFS_UNTHROTTLE] = "schedscope_cfs_unthrottle",
	[EV_CFS_PERIOD] = "schedscope_cfs_period",
	[EV_IRQ_ENTRY] = "irq_handler_entry",
	[EV_IRQ_EXIT] = "irq_handler_exit",
	[EV_STEAL] = "schedscope_steal",
	[EV_PROG_TIMER] = "schedscope_timer",
};

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
};
