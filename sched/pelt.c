// SPDX-License-Identifier: GPL-2.0
/*
 * Per-entity load tracking (kernel/sched/pelt.c): geometric sums over
 * 1024 us periods with y^32 = 1/2, in the kernel's integer arithmetic.
 */
#include "internal.h"

/* runnable_avg_yN_inv[n] = floor((2^32 - 1) * y^n), sched-pelt.h */
static const u32 runnable_avg_yN_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

static u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

/*
 * y^n as decay_load() applies it: whole half-lives as a shift, the rest
 * from the table; beyond 63 half-lives nothing is left. An update decays
 * its three sums and its segments by the same n: the factor is found once.
 */
struct pelt_decay {
	unsigned int shift;
	u32 mul; /* 0 when nothing is left */
};

static inline struct pelt_decay pelt_decay_of(u64 n)
{
	if (n > LOAD_AVG_PERIOD * 63)
		return (struct pelt_decay){ 0, 0 };
	return (struct pelt_decay){ (unsigned int)n / LOAD_AVG_PERIOD,
				    runnable_avg_yN_inv[(unsigned int)n % LOAD_AVG_PERIOD] };
}

static inline u64 decay_by(u64 val, struct pelt_decay d)
{
	return mul_u64_u32_shr(val >> d.shift, d.mul, 32);
}

/* val * y^n */
u64 decay_load(u64 val, u64 n)
{
	return decay_by(val, pelt_decay_of(n));
}

/* d1 (tail of the old period, decayed p times) + p-1 full periods + d3. */
static u32 __accumulate_pelt_segments(struct pelt_decay d, u32 d1, u32 d3)
{
	u32 c1, c2, c3 = d3;

	c1 = (u32)decay_by((u64)d1, d);
	c2 = LOAD_AVG_MAX - (u32)decay_by(LOAD_AVG_MAX, d) - 1024;
	return c1 + c2 + c3;
}

static inline u64 accumulate_sum(u64 delta, struct sched_avg *sa, unsigned long load, unsigned long runnable,
				 int running)
{
	u32 contrib = (u32)delta;
	u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;

	if (periods) {
		struct pelt_decay d = pelt_decay_of(periods);

		sa->load_sum = decay_by(sa->load_sum, d);
		sa->runnable_sum = decay_by(sa->runnable_sum, d);
		sa->util_sum = (u32)decay_by((u64)sa->util_sum, d);

		delta %= 1024;
		/* Without load nothing is added, so skip the segment math. */
		if (load)
			contrib = __accumulate_pelt_segments(d, 1024 - sa->period_contrib, (u32)delta);
	}
	sa->period_contrib = (u32)delta;

	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += runnable * contrib << SCHED_CAPACITY_SHIFT;
	if (running)
		sa->util_sum += contrib << SCHED_CAPACITY_SHIFT;

	return periods;
}

/*
 * Inlined into each caller, which passes its own signals' constants: about a
 * third of the calls end at the first test (no whole microsecond since the
 * last update), where the call itself was most of the cost.
 */
static inline __attribute__((always_inline)) int
___update_load_sum(u64 now, struct sched_avg *sa, unsigned long load, unsigned long runnable, int running)
{
	u64 delta = now - sa->last_update_time;

	if ((s64)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}
	/* Units of 1024 ns (~1 us); the remainder waits for the next update. */
	delta >>= 10;
	if (!delta)
		return 0;
	sa->last_update_time += delta << 10;

	/* Not queued means neither runnable nor running. */
	if (!load)
		runnable = running = 0;

	return accumulate_sum(delta, sa, load, runnable, running) ? 1 : 0;
}

static void ___update_load_avg(struct sched_avg *sa, unsigned long load)
{
	u32 divider = get_pelt_divider(sa);

	sa->load_avg = load * sa->load_sum / divider;
	sa->runnable_avg = sa->runnable_sum / divider;
	sa->util_avg = sa->util_sum / divider;
}

static unsigned long se_weight(struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
}

/* A task is runnable or not; a group entity counts the runnable tasks below it. */
static unsigned long se_runnable(struct sched_entity *se)
{
	if (se->sched_delayed)
		return 0;
	if (entity_is_task(se))
		return !!se->on_rq;
	return se->runnable_weight;
}

int __update_load_avg_blocked_se(u64 now, struct sched_entity *se)
{
	if (___update_load_sum(now, &se->avg, 0, 0, 0)) {
		___update_load_avg(&se->avg, se_weight(se));
		return 1;
	}
	return 0;
}

int __update_load_avg_se(u64 now, struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (___update_load_sum(now, &se->avg, !!se->on_rq, se_runnable(se),
			       cfs_rq->curr == se)) {
		___update_load_avg(&se->avg, se_weight(se));
		return 1;
	}
	return 0;
}

int __update_load_avg_cfs_rq(u64 now, struct cfs_rq *cfs_rq)
{
	if (___update_load_sum(now, &cfs_rq->avg, scale_load_down(cfs_rq->load.weight),
			       cfs_rq->h_nr_running - cfs_rq->h_nr_delayed,
			       cfs_rq->curr != NULL)) {
		___update_load_avg(&cfs_rq->avg, 1);
		return 1;
	}
	return 0;
}

static void _update_idle_rq_clock_pelt(struct rq *rq)
{
	rq->clock_pelt = rq_clock_task(rq);
}

/*
 * A CPU of lower capacity needs longer for the same work, so its PELT
 * clock runs slower while busy and catches up with clock_task when idle.
 */
void update_rq_clock_pelt(struct rq *rq, s64 delta)
{
	if (is_idle_task(rq->curr)) {
		_update_idle_rq_clock_pelt(rq);
		return;
	}
	delta = (s64)(((u64)delta * rq->cpu_capacity_orig) >> SCHED_CAPACITY_SHIFT);
	rq->clock_pelt += (u64)delta;
}

/* Going idle: if the CPU was saturated the time it could not give back is lost. */
void update_idle_rq_clock_pelt(struct rq *rq)
{
	u32 divider = ((LOAD_AVG_MAX - 1024) << SCHED_CAPACITY_SHIFT) - LOAD_AVG_MAX;
	u32 util_sum = rq->cfs.avg.util_sum;

	if (util_sum >= divider)
		rq->lost_idle_time += rq_clock_task(rq) - rq->clock_pelt;
	_update_idle_rq_clock_pelt(rq);
}

/* The RT and deadline classes' utilisation of the CPU: a running / not running signal. */
int update_rt_rq_load_avg(u64 now, struct rq *rq, int running)
{
	if (___update_load_sum(now, &rq->avg_rt, running, running, running)) {
		___update_load_avg(&rq->avg_rt, 1);
		return 1;
	}
	return 0;
}

int update_dl_rq_load_avg(u64 now, struct rq *rq, int running)
{
	if (___update_load_sum(now, &rq->avg_dl, running, running, running)) {
		___update_load_avg(&rq->avg_dl, 1);
		return 1;
	}
	return 0;
}

/*
 * The CPU's interrupt (and steal) load. Its time is known but not when it
 * came: assume it ended just now, decaying the rest of the interval as
 * time not taken first.
 */
int update_irq_load_avg(struct rq *rq, u64 running)
{
	int ret;

	running = (running * rq->cpu_capacity_orig) >> SCHED_CAPACITY_SHIFT;
	ret = ___update_load_sum(rq->clock - running, &rq->avg_irq, 0, 0, 0);
	ret += ___update_load_sum(rq->clock, &rq->avg_irq, 1, 1, 1);
	if (ret)
		___update_load_avg(&rq->avg_irq, 1);
	return ret;
}
