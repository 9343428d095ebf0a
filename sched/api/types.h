/* SPDX-License-Identifier: GPL-2.0 */
/* Basic types and time units shared by the engine and its users. */
#ifndef SCHED_TYPES_H
#define SCHED_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint16_t u16;
typedef int16_t s16;
typedef uint8_t u8;

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/*
 * The longest simulated time, 10^9 s (31.7 years): every time a scenario or
 * a command gives is at most this, so the engine's sums of two (the clock
 * plus a delay, a deadline plus a period) stay far below 2^64 and the
 * clock never wraps.
 */
#define SCHED_TIME_MAX (1000000000ULL * NSEC_PER_SEC)

/* The largest simulated machine; cpumasks are fixed-size bitmaps. */
#define SCHED_MAX_CPUS 1024
#define CPUMASK_WORDS (SCHED_MAX_CPUS / 64)

struct cpumask {
	u64 bits[CPUMASK_WORDS];
};

static inline bool cpumask_test(const struct cpumask *m, int cpu)
{
	return (m->bits[cpu >> 6] >> (cpu & 63)) & 1;
}

static inline void cpumask_set(struct cpumask *m, int cpu)
{
	m->bits[cpu >> 6] |= 1ULL << (cpu & 63);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CLAMP(v, lo, hi) MIN(MAX((v), (lo)), (hi))

/* The first CPU of m at or after cpu, n (the CPU count) when none: a word at a time. */
static inline int cpumask_next_below(const struct cpumask *m, int cpu, int n)
{
	while (cpu < n) {
		u64 w = m->bits[cpu >> 6] >> (cpu & 63);

		if (w)
			return MIN(cpu + __builtin_ctzll(w), n);
		cpu = (cpu | 63) + 1;
	}
	return n;
}

/* Each CPU of m below n, in ascending order. */
#define for_each_cpu_below(cpu, m, n) \
	for (cpu = cpumask_next_below((m), 0, (n)); cpu < (n); cpu = cpumask_next_below((m), cpu + 1, (n)))

#endif
