// SPDX-License-Identifier: GPL-2.0
/* Load weights: the nice table, its inverse, and __calc_delta() (kernel/sched/core.c, fair.c). */
#include <limits.h>

#include "internal.h"

/* Adjacent nice levels differ by ~1.25x, so one step moves ~10% of CPU. */
const int sched_prio_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548, 7620, 6100, 4904, 3906,
	/*  -5 */ 3121, 2501, 1991, 1586, 1277,
	/*   0 */ 1024, 820, 655, 526, 423,
	/*   5 */ 335, 272, 215, 172, 137,
	/*  10 */ 110, 87, 70, 56, 45,
	/*  15 */ 36, 29, 23, 18, 15,
};

/* 2^32 / weight, precomputed so __calc_delta() needs no division. */
const u32 sched_prio_to_wmult[40] = {
	/* -20 */ 48388, 59856, 76040, 92818, 118348,
	/* -15 */ 147320, 184698, 229616, 287308, 360437,
	/* -10 */ 449829, 563644, 704093, 875809, 1099582,
	/*  -5 */ 1376151, 1717300, 2157191, 2708050, 3363326,
	/*   0 */ 4194304, 5237765, 6557202, 8165337, 10153587,
	/*   5 */ 12820798, 15790321, 19976592, 24970740, 31350126,
	/*  10 */ 39045157, 49367440, 61356676, 76695844, 95443717,
	/*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

#define WMULT_CONST (~0U)
#define WMULT_SHIFT 32

void update_load_add(struct load_weight *lw, unsigned long inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

void update_load_sub(struct load_weight *lw, unsigned long dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

void update_load_set(struct load_weight *lw, unsigned long w)
{
	lw->weight = w;
	lw->inv_weight = 0;
}

/* The inverse is recomputed lazily, from 2^32-1 rather than 2^32. */
static void __update_inv_weight(struct load_weight *lw)
{
	unsigned long w;

	if (lw->inv_weight)
		return;
	w = scale_load_down(lw->weight);
	if (w >= WMULT_CONST)
		lw->inv_weight = 1;
	else if (!w)
		lw->inv_weight = WMULT_CONST;
	else
		lw->inv_weight = WMULT_CONST / w;
}

static int fls32(u32 x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

/* SRR(): shift right and round, as the 3.x fair.c did. */
static u64 srr(u64 x, unsigned int y)
{
	return (x + (1ULL << (y - 1))) >> y;
}

/*
 * calc_delta_mine(), the formula until 3.13: an inverse from 2^32 (not
 * 2^32 - 1) and a rounded product, so 6 ms over two nice-0 tasks is exactly
 * 3 ms, where __calc_delta() gives 2999998 ns.  A weight of one counts as
 * none, and the inverse is not cached here (it would not fit the u32).
 */
u64 calc_delta_mine(u64 delta_exec, unsigned long weight, const struct load_weight *lw)
{
	unsigned long w = scale_load_down(lw->weight), fact = scale_load_down(weight);
	u64 inv = w >= (1ULL << WMULT_SHIFT) ? 1 : !w ? 1ULL << WMULT_SHIFT : (1ULL << WMULT_SHIFT) / w;
	u64 tmp = fact > 1 ? delta_exec * fact : delta_exec;

	if (tmp > (1ULL << WMULT_SHIFT))
		tmp = srr(srr(tmp, WMULT_SHIFT / 2) * inv, WMULT_SHIFT / 2);
	else
		tmp = srr(tmp * inv, WMULT_SHIFT);
	return MIN(tmp, (u64)LONG_MAX);
}

/*
 * delta_exec * weight / lw->weight, in the kernel's fixed point: the
 * truncated inverse makes results for nice != 0 a hair smaller than the
 * exact ratio, and a faithful simulator must reproduce that.
 */
u64 __calc_delta(u64 delta_exec, unsigned long weight, struct load_weight *lw)
{
	u64 fact = scale_load_down(weight);
	u32 fact_hi = (u32)(fact >> 32);
	int shift = WMULT_SHIFT;
	int fs;

	__update_inv_weight(lw);

	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}

	fact = (u64)(u32)fact * lw->inv_weight;

	fact_hi = (u32)(fact >> 32);
	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}

	return mul_u64_u32_shr(delta_exec, (u32)fact, shift);
}
