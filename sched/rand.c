// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's only source of randomness: xoshiro256** seeded through
 * splitmix64, and integer-only samplers so a seed gives the same durations
 * on every machine and libm.
 */
#include "internal.h"

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sched_rand_seed(u64 seed)
{
	for (int i = 0; i < 4; i++)
		ST->rng[i] = splitmix64(&seed);
}

static u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 sched_rand(void)
{
	u64 *s = ST->rng;
	u64 result = rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in [lo, hi] by multiply-shift (bias below 2^-64 per value). */
static u64 rand_range(u64 lo, u64 hi)
{
	u64 span = hi - lo + 1;

	if (!span)	/* the whole u64 range */
		return sched_rand();
	return lo + (u64)(((unsigned __int128)sched_rand() * span) >> 64);
}

/* -ln(u) in Q32 fixed point for u = x / 2^62, x in [1, 2^62]. */
/* Uniform in [0, hi]. */
u64 sched_rand_upto(u64 hi)
{
	return rand_range(0, hi);
}

static u64 neg_ln_q32(u64 x)
{
	const u64 ln2_q32 = 2977044472ULL;	/* ln 2 * 2^32 */
	int msb = 63 - __builtin_clzll(x);
	/* y = x / 2^msb in [1, 2), as Q62 */
	u64 y = msb <= 62 ? x << (62 - msb) : x >> (msb - 62);
	u64 frac = 0;

	/* log2(y) bit by bit: square, and halve whenever y reaches 2 */
	for (int i = 0; i < 32; i++) {
		y = (u64)(((unsigned __int128)y * y) >> 62);
		frac <<= 1;
		if (y >= (2ULL << 62)) {
			y >>= 1;
			frac |= 1;
		}
	}
	/* log2(u) = msb + frac/2^32 - 62 <= 0 */
	u64 neg_log2_q32 = ((u64)(62 - msb) << 32) - frac;
	return (u64)(((unsigned __int128)neg_log2_q32 * ln2_q32) >> 32);
}

static u64 sample_exp(u64 mean)
{
	u64 x = (sched_rand() >> 2) + 1;	/* (0, 2^62] */
	unsigned __int128 v = ((unsigned __int128)mean * neg_ln_q32(x)) >> 32;

	return v > SCHED_TIME_MAX ? SCHED_TIME_MAX : (u64)v;
}

/* Irwin-Hall: twelve uniforms minus six is close to N(0,1), bounded at ±6σ. */
static u64 sample_normal(u64 mean, u64 sd)
{
	s64 z = 0;

	for (int i = 0; i < 12; i++)
		z += (s64)(sched_rand() >> 32);
	z -= 6LL << 32;
	s64 v = (s64)mean + (s64)(((__int128)sd * z) >> 32);
	return v > 0 ? (u64)v : 0;
}

/* At most SCHED_TIME_MAX: an exponential's tail reaches 43 times its mean. */
u64 sched_sample_duration(const struct sched_duration *d)
{
	u64 v;

	switch (d->kind) {
	case DIST_UNIFORM:
		v = rand_range(d->a, d->b);
		break;
	case DIST_EXP:
		v = sample_exp(d->a);
		break;
	case DIST_NORMAL:
		v = sample_normal(d->a, d->b);
		break;
	case DIST_CONST:
	default:
		v = d->a;
		break;
	}
	return MIN(v, SCHED_TIME_MAX);
}
