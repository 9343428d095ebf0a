// SPDX-License-Identifier: GPL-2.0
/*
 * The task's workload: a small program (run, sleep, loop, wait, wake,
 * yield, nice, exit, and rt-app's lock, cond_wait, signal, barrier, timer,
 * fork, log) interpreted in the task's own context. `run` consumes task-clock
 * time on a CPU; everything else takes no time.
 */
#include "internal.h"

/*
 * A task that executes this many statements at one instant of simulated
 * time is stopped (it exits): a loop that takes no time, or tasks that wake
 * each other and block again at once, forever, would stop the clock.
 */
#define PROG_ZERO_TIME_BUDGET 10000

/* Charge the running task's work for the time it has run since the last call (interruptions excluded). */
void task_account_work(struct rq *rq, struct task_struct *p)
{
	u64 ran;

	if (is_idle_task(p) || p->run_forever)
		return;
	ran = rq_clock_work(rq) - p->work_start;
	p->work_start = rq_clock_work(rq);
	if (p->work_left && ran >= p->work_left)
		p->run_wall += ST->now - p->run_began; /* the `run` ends now, preemptions and all */
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

/* ---- rt-app's resources: every block and wakeup goes through try_to_wake_up() ---- */

static void sync_enqueue(struct sync_state *s, struct task_struct *p, int obj)
{
	p->blocked_on = obj;
	p->wait_next = NULL;
	if (s->tail)
		s->tail->wait_next = p;
	else
		s->head = p;
	s->tail = p;
}

static struct task_struct *sync_dequeue(struct sync_state *s)
{
	struct task_struct *p = s->head;

	if (p) {
		s->head = p->wait_next;
		if (!s->head)
			s->tail = NULL;
		p->wait_next = NULL;
		p->blocked_on = -1;
	}
	return p;
}

/* A task left an object's queue with what it waited for: it runs again, woken by `waker`. */
static void sync_wake(struct task_struct *p, struct task_struct *waker)
{
	ST->waker_cpu = waker->cpu;
	try_to_wake_up(p, WF_IN_TASK);
}

/* Take mutex m for p, or queue p behind the holder. True when p has it. */
static bool mutex_acquire(int m, struct task_struct *p)
{
	struct sync_state *s = &ST->sync[m];

	if (!s->owner) {
		s->owner = p;
		return true;
	}
	sync_enqueue(s, p, m);
	return false;
}

/* Unlock hands the mutex to the first waiter, in FIFO order, and wakes it. */
static void mutex_release(int m, struct task_struct *p)
{
	struct sync_state *s = &ST->sync[m];
	struct task_struct *next;

	if (s->owner != p)
		return;		/* not the holder: like an error-checking mutex, nothing happens */
	next = sync_dequeue(s);
	s->owner = next;
	if (next)
		sync_wake(next, p);
}

/* A signalled waiter takes its mutex again before it runs (pthread_cond_wait's return). */
static void cond_wake_one(struct task_struct *w, struct task_struct *waker)
{
	int m = w->relock;

	w->relock = -1;
	if (m < 0 || mutex_acquire(m, w))
		sync_wake(w, waker);
}

/* Wake one (signal) or all (broadcast) of c's waiters; with none, the signal is lost. */
static void cond_signal(int c, struct task_struct *waker, bool all)
{
	struct sync_state *s = &ST->sync[c];
	struct task_struct *w;

	while ((w = sync_dequeue(s))) {
		cond_wake_one(w, waker);
		if (!all)
			break;
	}
}

/* The last of a barrier's users to arrive releases the others and goes on. */
static bool barrier_arrive(int b, struct task_struct *p)
{
	struct sync_state *s = &ST->sync[b];
	struct task_struct *w;

	if (s->arrived + 1 < E->sc->sync[b].users) {
		s->arrived++;
		sync_enqueue(s, p, b);
		return false;
	}
	s->arrived = 0;
	while ((w = sync_dequeue(s)))
		sync_wake(w, p);
	return true;
}

/* The task's CPU time up to now, without touching the accounting. */
static u64 task_sum_exec(struct task_struct *p)
{
	struct rq *rq = task_rq(p);

	return p->se.sum_exec_runtime + (rq_clock_task(rq) - MIN(p->se.exec_start, rq_clock_task(rq)));
}

/*
 * rt-app's timer: the period ends `period` after the previous end (the
 * user's start at first use). Before it, sleep until then; after it, go on
 * at once, and a relative timer counts the next period from now.
 */
static bool prog_timer(struct task_struct *p, const struct prog_insn *in)
{
	const struct sched_sync *def = &E->sc->sync[in->arg];
	struct prog_timer *t = def->local >= 0 ? &p->timer[def->local] : &ST->sync[in->arg].timer;
	u64 period = in->dur.a, now = ST->now;
	struct sched_event ev;
	bool missed;

	if (!t->started) {
		t->started = true;
		t->next = p->start_time;
	}
	t->next += period;
	missed = now >= t->next;

	sched_event_init(&ev, EV_PROG_TIMER, p->cpu);
	ev.timer.pid = p->pid;
	ev.timer.missed = missed;
	ev.timer.expires = t->next;
	ev.timer.slack = (s64)(t->next - now);
	ev.timer.sum_exec = task_sum_exec(p);
	ev.timer.period = period;
	sched_emit(&ev);

	if (missed) {
		if (!def->absolute)
			t->next = now;
		return false;
	}
	hrtimer_sleep(p, t->next);
	return true;
}

/* `log`: rt-app writes a line of its log when a loop of a phase ends. */
static void prog_log(struct task_struct *p)
{
	struct sched_event ev;

	sched_event_init(&ev, EV_PROG_LOG, p->cpu);
	ev.log.pid = p->pid;
	ev.log.sum_exec = task_sum_exec(p);
	ev.log.run_wall = p->run_wall;
	ev.log.run_asked = p->run_asked;
	sched_emit(&ev);
}

/* `fork TASK`: start the first of its instances not started yet; none left, nothing happens. */
static void prog_fork(struct task_struct *p, const struct prog_insn *in)
{
	for (u32 i = 0; i < in->wake_count; i++) {
		struct task_struct *c = &ST->task[E->sc->wake_list[in->wake_first + i]];
		if (c->state == TASK_NEW && !timer_queued(&c->fork_timer)) {
			wake_up_new_task(c, p);
			return;
		}
	}
}

/*
 * Run the program from pc until it needs CPU time, blocks or ends. Called
 * for the current task of its CPU, with no work left.
 */
void task_program_step(struct task_struct *p)
{
	const struct sched_program *prog = p->prog;
	struct rq *rq = task_rq(p);

	/* a task about to be preempted waits to run its program; before 3.8 it goes
	 * on, as LinSched runs the current task's program before schedule(). In an
	 * interrupt or the kernel's own work (a switch's) it goes on at irq_end(). */
	if (p->state != TASK_RUNNING || p->work_left || p->run_forever || rq->intr_end ||
	    (rq->need_resched && !legacy_balance()))
		return;

	if (p->budget_time != ST->now) {
		p->budget_time = ST->now;
		p->budget_used = 0;
	}
	while (p->budget_used++ < PROG_ZERO_TIME_BUDGET) {
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
				/* rt-app reads the clock once its code runs: after the switch to it */
				p->run_began = rq_work_resumes(rq);
				p->run_asked += d;
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
				hrtimer_sleep(p, ST->now + d);
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
		case PROG_LOCK:
			p->pc++;
			if (!mutex_acquire(in->arg, p)) {
				task_block(p, false);
				return;
			}
			break;
		case PROG_UNLOCK:
			p->pc++;
			mutex_release(in->arg, p);
			if (rq->need_resched)
				return;
			break;
		case PROG_COND_WAIT:
			p->pc++;
			/* drops the mutex it holds, and takes it again once signalled */
			p->relock = in->target >= 0 && ST->sync[in->target].owner == p ? in->target : -1;
			if (p->relock >= 0)
				mutex_release(p->relock, p);
			sync_enqueue(&ST->sync[in->arg], p, in->arg);
			task_block(p, false);
			return;
		case PROG_SIGNAL:
		case PROG_BROADCAST:
			p->pc++;
			cond_signal(in->arg, p, in->op == PROG_BROADCAST);
			if (rq->need_resched)
				return;
			break;
		case PROG_BARRIER:
			p->pc++;
			if (!barrier_arrive(in->arg, p)) {
				task_block(p, false);
				return;
			}
			if (rq->need_resched)
				return;
			break;
		case PROG_TIMER:
			p->pc++;
			if (prog_timer(p, in)) {
				task_block(p, false);
				return;
			}
			break;
		case PROG_FORK:
			p->pc++;
			prog_fork(p, in);
			if (rq->need_resched)
				return;
			break;
		case PROG_LOG:
			p->pc++;
			prog_log(p);
			break;
		}
	}
	task_exit(p);
}
