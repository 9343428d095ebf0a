/*
 * The task's workload: a small program (run, sleep, loop, wait, wake,
 * yield, nice, exit) interpreted in the task's own context. `run` consumes
 * task-clock time on a CPU; everything else takes no time.
 */
#include "internal.h"

/* A program that loops this long without running or blocking is stopped (it exits). */
#define PROG_ZERO_TIME_BUDGET 10000

/* Charge the running task's work for the time it has run since the last call (interruptions excluded). */
void task_account_work(struct rq *rq, struct task_struct *p)
{
	u64 ran;

	if (is_idle_task(p) || p->run_forever)
		return;
	ran = rq_clock_work(rq) - p->work_start;
	p->work_start = rq_clock_work(rq);
	p->work_left -= MIN(ran, p->work_left);
}

/* Program the end of the current `run` stint on this CPU: later if it is interrupted now. */
void task_arm_work(struct rq *rq, struct task_struct *p)
{
	p->work_start = rq_clock_work(rq);
	if (p->work_left && !p->run_forever)
		timer_arm(&ST->tq, &rq->work, rq_work_resumes(rq) + p->work_left);
	else
		timer_cancel(&ST->tq, &rq->work);
}

static void task_block(struct task_struct *p, bool waiting)
{
	p->state = TASK_INTERRUPTIBLE;
	p->waiting = waiting;
	resched_curr(task_rq(p));
}

/* `wake` only ends a `wait`; otherwise it is kept, like a completion's count. */
static void task_wake_target(struct task_struct *p, int cpu, bool sync)
{
	if (p->state == TASK_INTERRUPTIBLE && p->waiting) {
		p->waiting = false;
		ST->waker_cpu = cpu;
		try_to_wake_up(p, WF_IN_TASK | (sync ? WF_SYNC : 0));
	} else if (p->state != TASK_DEAD) {
		p->wake_pending++;
	}
}

static void task_exit(struct task_struct *p)
{
	do_task_dead(task_rq(p));
}

/*
 * Run the program from pc until it needs CPU time, blocks or ends. Called
 * for the current task of its CPU, with no work left.
 */
void task_program_step(struct task_struct *p)
{
	const struct sched_program *prog = p->spec->prog;
	struct rq *rq = task_rq(p);
	int budget = PROG_ZERO_TIME_BUDGET;

	if (p->state != TASK_RUNNING || p->work_left || p->run_forever || rq->need_resched)
		return;

	while (budget-- > 0) {
		const struct prog_insn *in;
		u64 d;

		if (p->pc >= prog->nr_insns) {
			task_exit(p);
			return;
		}
		in = &prog->insn[p->pc];
		switch (in->op) {
		case PROG_RUN:
			p->pc++;
			d = sched_sample_duration(&in->dur);
			if (d) {
				p->work_left = d;
				task_arm_work(rq, p);
				return;
			}
			break;
		case PROG_RUN_FOREVER:
			p->run_forever = true;
			task_arm_work(rq, p);
			return;
		case PROG_SLEEP:
			p->pc++;
			d = sched_sample_duration(&in->dur);
			if (d) {
				timer_arm(&ST->tq, &p->wake_timer, ST->now + d);
				task_block(p, false);
				return;
			}
			break;
		case PROG_LOOP:
			p->loop_count[in->loop_slot] = (u32)in->arg;
			p->pc++;
			break;
		case PROG_END_LOOP: {
			const struct prog_insn *head = &prog->insn[in->target];
			u32 *left = &p->loop_count[in->loop_slot];

			/* 0 = forever; otherwise count the iteration just finished */
			if (head->arg == 0 || --*left > 0)
				p->pc = in->target + 1;
			else
				p->pc++;
			break;
		}
		case PROG_WAIT:
			p->pc++;
			if (p->wake_pending) {
				p->wake_pending--;
				break;
			}
			task_block(p, true);
			return;
		case PROG_WAKE:
			p->pc++;
			for (u32 i = 0; i < in->wake_count; i++) {
				int t = E->sc->wake_list[in->wake_first + i];
				if (&ST->task[t] != p)
					task_wake_target(&ST->task[t], p->cpu, in->arg);
			}
			if (rq->need_resched)
				return;	/* preempted by what it woke: continue when back */
			break;
		case PROG_YIELD:
			p->pc++;
			do_sched_yield(rq);
			return;
		case PROG_YIELD_TO:
			p->pc++;
			ST->waker_cpu = p->cpu;
			if (yield_to(&ST->task[E->sc->wake_list[in->wake_first]]))
				return;
			break;
		case PROG_EXIT:
			task_exit(p);
			return;
		case PROG_NICE:
			p->pc++;
			set_user_nice(p, in->arg);
			if (rq->need_resched)
				return;
			break;
		}
	}
	task_exit(p);
}
