// SPDX-License-Identifier: GPL-2.0
/*
 * Sched domains (kernel/sched/topology.c, 6.12):
 * for every shipped topology the levels that survive, their spans, flags,
 * intervals, imbalance_pct, cache_nice_tries, imb_numa_nr, groups and group
 * capacities; the NUMA levels of an 8-node machine with two remote
 * distances; the three NUMA examples drawn in topology.c's comments (ring,
 * line, partial mesh); asymmetric capacity; the kernel's own debug checks
 * as invariants over every CPU.
 *
 * Expected values are derived by hand from sd_init(), sched_init_numa(),
 * build_sched_groups()/build_overlap_sched_groups(), the imb_numa_nr pass
 * and cpu_attach_domain(); the derivation is written next to each case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/topology.h"
#include "src/format/topology_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* sd_init()'s defaults and the topology flags functions */
#define BEHAVIOUR (SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE)
#define F_SMT (BEHAVIOUR | SD_SHARE_CPUCAPACITY | SD_SHARE_LLC | SD_PREFER_SIBLING)
#define F_CLS (BEHAVIOUR | SD_CLUSTER | SD_SHARE_LLC | SD_PREFER_SIBLING)
#define F_MC (BEHAVIOUR | SD_SHARE_LLC | SD_PREFER_SIBLING)
#define F_PKG (BEHAVIOUR | SD_PREFER_SIBLING)
#define F_NUMA (BEHAVIOUR | SD_SERIALIZE | SD_OVERLAP | SD_NUMA)
/* a NUMA level beyond node_reclaim_distance (30) */
#define F_NUMA_FAR (SD_BALANCE_NEWIDLE | SD_SERIALIZE | SD_OVERLAP | SD_NUMA)

struct built {
	struct sched_topology t;
	struct sched_domains *sds;
};

static void build_from(struct built *b, int rc, const char *err)
{
	if (rc)
		fail_msg("topology: %s", err);
	char e[256];
	b->sds = sched_domains_build(&b->t, KV_LATEST, e, sizeof(e));
	if (!b->sds)
		fail_msg("build: %s", e);
}

static void load(struct built *b, const char *name)
{
	char path[256], err[512];
	snprintf(path, sizeof(path), "topologies/%s.topo", name);
	build_from(b, topology_load(path, &b->t, err, sizeof(err)), err);
}

static void parse(struct built *b, const char *text)
{
	char err[512];
	build_from(b, topology_parse("test.topo", text, strlen(text), &b->t, err, sizeof(err)), err);
}

static void done(struct built *b)
{
	sched_domains_free(b->sds);
	topology_free(&b->t);
}

static const char *list(const struct cpumask *m)
{
	static char buf[4][6 * SCHED_MAX_CPUS + 1];
	static int k;
	k = (k + 1) % 4;
	cpumask_format_list(buf[k], sizeof(buf[k]), m);
	return buf[k];
}

/* The domain at `depth` in cpu's list. */
static const struct sched_domain *dom(const struct built *b, int cpu, int depth)
{
	const struct sched_domain *sd = cpu_sd(b->sds, cpu);
	for (int i = 0; sd && i < depth; i++)
		sd = sd_parent(b->sds, sd);
	if (!sd)
		fail_msg("CPU%d has no domain-%d", cpu, depth);
	return sd;
}

/* "SMT,MC,NUMA": the names of cpu's levels, bottom-up */
static void check_levels(const struct built *b, int cpu, const char *names)
{
	char got[128] = "";
	for (const struct sched_domain *sd = cpu_sd(b->sds, cpu); sd; sd = sd_parent(b->sds, sd)) {
		if (got[0])
			strcat(got, ",");
		strcat(got, sd->name);
	}
	assert_string_equal(got, names);
}

struct want {
	const char *name;
	int level;
	const char *span;
	u32 flags;
	unsigned int interval_min, interval_max, imbalance_pct, cache_nice_tries, imb_numa_nr;
	const char *groups;	/* "span/capacity span/capacity ...", in order from sd->groups */
};

static void check_dom(const struct built *b, int cpu, int depth, const struct want *w)
{
	const struct sched_domain *sd = dom(b, cpu, depth);
	char groups[4096] = "";

	assert_string_equal(sd->name, w->name);
	assert_int_equal(sd->level, w->level);
	assert_int_equal(sd->depth, depth);
	assert_int_equal(sd->cpu, cpu);
	assert_string_equal(list(&sd->span), w->span);
	if (sd->flags != w->flags)
		fail_msg("CPU%d %s flags %#x, want %#x", cpu, sd->name, sd->flags, w->flags);
	assert_int_equal(sd->min_interval, w->interval_min);
	assert_int_equal(sd->max_interval, w->interval_max);
	assert_int_equal(sd->balance_interval, w->interval_min);
	assert_int_equal(sd->busy_factor, 16);
	assert_int_equal(sd->imbalance_pct, w->imbalance_pct);
	assert_int_equal(sd->cache_nice_tries, w->cache_nice_tries);
	assert_int_equal(sd->imb_numa_nr, w->imb_numa_nr);
	for (int k = 0; k < sd->nr_groups; k++) {
		const struct sched_group *sg = sd_group(b->sds, sd, k);
		char one[256];
		snprintf(one, sizeof(one), "%s%s/%lu", k ? " " : "", list(&sg->span), sg->capacity);
		strcat(groups, one);
	}
	assert_string_equal(groups, w->groups);
}

/* The checks sched_domain_debug_one() makes, on every domain of every CPU. */
/*
 * One sched_group_capacity per (topology level, balance CPU), as the
 * kernel's per_cpu_ptr(sdd->sgc, group_balance_cpu()) hands them out.
 */
static void check_sgc_shared(const struct built *b)
{
	const struct sched_domains *sds = b->sds;
	int nkeys = (sds->level_max + 1) * b->t.nr_cpus;
	int *sgc_of_key = malloc((size_t)nkeys * sizeof(int));
	int *key_of_sgc = malloc((size_t)sds->nr_sgc * sizeof(int));

	for (int i = 0; i < nkeys; i++)
		sgc_of_key[i] = -1;
	for (int i = 0; i < sds->nr_sgc; i++)
		key_of_sgc[i] = -1;
	for (int d = 0; d < sds->nr_domains; d++)
		for (int k = 0; k < sds->sd[d].nr_groups; k++) {
			const struct sched_group *sg = sd_group(sds, &sds->sd[d], k);
			int key = sds->sd[d].level * b->t.nr_cpus + sg->sgc_id;

			assert_in_range(sg->sgc, 0, sds->nr_sgc - 1);
			if (sgc_of_key[key] < 0)
				sgc_of_key[key] = sg->sgc;
			if (key_of_sgc[sg->sgc] < 0)
				key_of_sgc[sg->sgc] = key;
			assert_int_equal(sgc_of_key[key], sg->sgc);
			assert_int_equal(key_of_sgc[sg->sgc], key);
		}
	free(sgc_of_key);
	free(key_of_sgc);
}

static void check_invariants(const struct built *b)
{
	const struct sched_domains *sds = b->sds;

	check_sgc_shared(b);

	for (int cpu = 0; cpu < b->t.nr_cpus; cpu++) {
		int depth = 0;
		for (const struct sched_domain *sd = cpu_sd(sds, cpu); sd; sd = sd_parent(sds, sd), depth++) {
			const struct sched_domain *p = sd_parent(sds, sd);
			struct cpumask cover = { { 0 } };

			assert_int_equal(sd->depth, depth);
			assert_true(cpumask_test(&sd->span, cpu));
			assert_int_equal(sd->span_weight, cpumask_weight(&sd->span));
			assert_true(sd->span_weight > 1);
			assert_true(sd->nr_groups >= 1);
			assert_int_equal(sd->min_interval, sd->span_weight);
			assert_int_equal(sd->max_interval, 2 * sd->span_weight);
			/* the first group holds the CPU and is the child's span */
			const struct sched_group *g0 = sd_group(sds, sd, 0);
			assert_true(cpumask_test(&g0->span, cpu));
			if (sd->child >= 0)
				assert_true(cpumask_equal(&g0->span, &sds->sd[sd->child].span));
			for (int k = 0; k < sd->nr_groups; k++) {
				const struct sched_group *sg = sd_group(sds, sd, k);
				unsigned long cap = 0, mn = ~0UL, mx = 0;
				assert_false(cpumask_weight(&sg->span) == 0);
				if (!(sd->flags & SD_OVERLAP))
					assert_false(cpumask_intersects(&cover, &sg->span));	/* repeated CPUs */
				for (int i = 0; i < SCHED_MAX_CPUS; i++)
					if (cpumask_test(&sg->span, i)) {
						cover.bits[i / 64] |= 1ULL << (i % 64);
						unsigned long c = b->t.cpu[i].capacity;
						cap += c;
						mn = c < mn ? c : mn;
						mx = c > mx ? c : mx;
					}
				assert_int_equal(sg->capacity, cap);
				assert_int_equal(sg->min_capacity, mn);
				assert_int_equal(sg->max_capacity, mx);
				assert_int_equal(sg->group_weight, cpumask_weight(&sg->span));
				assert_true(cpumask_subset(&sg->balance_mask, &sg->span));
				assert_int_equal(sg->sgc_id, cpumask_first(&sg->balance_mask));
			}
			assert_true(cpumask_equal(&cover, &sd->span));	/* groups span the domain */
			if (p) {
				assert_true(cpumask_subset(&sd->span, &p->span));
				assert_false(cpumask_equal(&sd->span, &p->span));
				assert_int_equal(p->child, sd->id);
				assert_true(p->level > sd->level);
			}
			/* SDF_SHARED_PARENT flags (ASYM_CPUCAPACITY, SERIALIZE, NUMA) go up */
			if (p)
				assert_int_equal(sd->flags & p->flags & (SD_ASYM_CPUCAPACITY | SD_SERIALIZE | SD_NUMA),
						 sd->flags & (SD_ASYM_CPUCAPACITY | SD_SERIALIZE | SD_NUMA));
		}
	}
}

static void test_cpulist_format(void **state)
{
	struct cpumask m = { { 0 } };
	char buf[64];

	assert_int_equal(cpumask_format_list(buf, sizeof(buf), &m), 0);
	assert_string_equal(buf, "");
	cpumask_set(&m, 0);
	cpumask_set(&m, 2);
	cpumask_set(&m, 3);
	cpumask_set(&m, 4);
	cpumask_set(&m, 63);
	cpumask_set(&m, 64);
	cpumask_set(&m, 1023);
	assert_int_equal(cpumask_format_list(buf, sizeof(buf), &m), 16);
	assert_string_equal(buf, "0,2-4,63-64,1023");
	assert_int_equal(cpumask_weight(&m), 7);
	assert_int_equal(cpumask_first(&m), 0);
	/* too small: cut, but the needed length is returned */
	assert_int_equal(cpumask_format_list(buf, 5, &m), 16);
	assert_true(strlen(buf) < 5);
}

static void test_max_interval(void **state)
{
	/* update_max_interval(): HZ * num_online_cpus() / 10 */
	assert_int_equal(sched_max_load_balance_interval(250, 16), 400);
	assert_int_equal(sched_max_load_balance_interval(1000, 256), 25600);
	assert_int_equal(sched_max_load_balance_interval(100, 1), 10);
	assert_int_equal(sched_max_load_balance_interval(250, 1), 25);
}

/* One CPU: every level spans one CPU and is degenerate: a NULL sched-domain. */
static void test_single(void **state)
{
	struct built b;
	load(&b, "single");
	assert_int_equal(b.sds->nr_domains, 0);
	assert_int_equal(b.sds->nr_groups, 0);
	assert_null(cpu_sd(b.sds, 0));
	assert_int_equal(b.sds->percpu[0].sd_llc, -1);
	assert_int_equal(b.sds->percpu[0].sd_llc_size, 1);
	assert_int_equal(b.sds->percpu[0].sd_llc_id, 0);
	assert_int_equal(b.sds->numa_levels, 1);
	done(&b);
}

/*
 * dual: SMT {0} and CLS {0} (cluster = LLC, so CLS is the SMT mask) span one
 * CPU; MC {0-1} spans every CPU, so PKG is never built. Left: MC, level 2.
 */
static void test_dual(void **state)
{
	struct built b;
	load(&b, "dual");
	for (int cpu = 0; cpu < 2; cpu++)
		check_levels(&b, cpu, "MC");
	check_dom(&b, 0, 0, &(struct want){ "MC", 2, "0-1", F_MC, 2, 4, 117, 1, 0, "0/1024 1/1024" });
	check_dom(&b, 1, 0, &(struct want){ "MC", 2, "0-1", F_MC, 2, 4, 117, 1, 0, "1/1024 0/1024" });
	assert_int_equal(b.sds->nr_domains, 2);
	assert_int_equal(b.sds->nr_groups, 2);	/* shared by both CPUs */
	assert_int_equal(b.sds->percpu[1].sd_llc, dom(&b, 1, 0)->id);
	assert_int_equal(b.sds->percpu[1].sd_llc_size, 2);
	assert_int_equal(b.sds->percpu[1].sd_llc_id, 0);
	assert_int_equal(b.sds->percpu[1].sd_numa, -1);
	check_invariants(&b);
	done(&b);
}

/*
 * laptop-4c8t: SMT {0-1} (110, cache_nice_tries 0), CLS = SMT mask with one
 * group: degenerate parent; MC {0-7} with the 4 cores as groups of 2048.
 */
static void test_laptop(void **state)
{
	struct built b;
	load(&b, "laptop-4c8t");
	for (int cpu = 0; cpu < 8; cpu++)
		check_levels(&b, cpu, "SMT,MC");
	check_dom(&b, 0, 0, &(struct want){ "SMT", 0, "0-1", F_SMT, 2, 4, 110, 0, 0, "0/1024 1/1024" });
	check_dom(&b, 0, 1, &(struct want){ "MC", 2, "0-7", F_MC, 8, 16, 117, 1, 0,
					    "0-1/2048 2-3/2048 4-5/2048 6-7/2048" });
	check_dom(&b, 5, 0, &(struct want){ "SMT", 0, "4-5", F_SMT, 2, 4, 110, 0, 0, "5/1024 4/1024" });
	check_dom(&b, 5, 1, &(struct want){ "MC", 2, "0-7", F_MC, 8, 16, 117, 1, 0,
					    "4-5/2048 6-7/2048 0-1/2048 2-3/2048" });
	assert_int_equal(b.sds->percpu[5].sd_llc, dom(&b, 5, 1)->id);
	assert_int_equal(b.sds->percpu[5].sd_llc_size, 8);
	/* group cores: a pair of SMT siblings is one core */
	assert_int_equal(sd_group(b.sds, dom(&b, 0, 1), 0)->cores, 1);
	assert_int_equal(sd_group(b.sds, dom(&b, 0, 1), 0)->group_weight, 2);
	check_invariants(&b);
	done(&b);
}

/*
 * quad-socket-quad-core: distances {10, 20}: NODE + one NUMA level. MC
 * {0-3}; PKG (= the node) and NODE have MC's span and one group:
 * degenerate. NUMA (20 <= 30 keeps EXEC/FORK/WAKE_AFFINE) spans all 16 CPUs
 * with the 4 nodes as groups. imb_numa_nr: PKG is the first level above the
 * LLC, one LLC per node: max(1, 4 >> 3) = 1; NUMA: 1 * (16 / 16) = 1.
 */
static void test_quad_socket(void **state)
{
	struct built b;
	load(&b, "quad-socket-quad-core");
	assert_int_equal(b.sds->numa_levels, 2);
	assert_int_equal(b.sds->numa_distance[0], 10);
	assert_int_equal(b.sds->numa_distance[1], 20);
	assert_int_equal(b.sds->numa_topology_type, NUMA_DIRECT);
	for (int cpu = 0; cpu < 16; cpu++)
		check_levels(&b, cpu, "MC,NUMA");
	check_dom(&b, 0, 0, &(struct want){ "MC", 2, "0-3", F_MC, 4, 8, 117, 1, 0,
					    "0/1024 1/1024 2/1024 3/1024" });
	check_dom(&b, 0, 1, &(struct want){ "NUMA", 5, "0-15", F_NUMA, 16, 32, 117, 2, 1,
					    "0-3/4096 4-7/4096 8-11/4096 12-15/4096" });
	check_dom(&b, 9, 0, &(struct want){ "MC", 2, "8-11", F_MC, 4, 8, 117, 1, 0,
					    "9/1024 10/1024 11/1024 8/1024" });
	check_dom(&b, 9, 1, &(struct want){ "NUMA", 5, "0-15", F_NUMA, 16, 32, 117, 2, 1,
					    "8-11/4096 12-15/4096 0-3/4096 4-7/4096" });
	assert_int_equal(b.sds->percpu[9].sd_numa, dom(&b, 9, 1)->id);
	assert_int_equal(b.sds->percpu[9].sd_llc_id, 8);
	assert_int_equal(b.sds->percpu[9].sd_llc_size, 4);
	assert_int_equal(sd_group(b.sds, dom(&b, 9, 1), 1)->sgc_id, 12);
	assert_int_equal(b.sds->level_max, 5);
	check_invariants(&b);
	done(&b);
}

/*
 * numa-2s-32c64t, smt-last: CPU c's sibling is c + 32; package 0 = CPUs
 * 0-15,32-47. SMT, MC (the package's LLC, 16 core groups), NUMA (21 <= 30).
 * imb_numa_nr: one LLC per node: 32 >> 3 = 4, and 4 * 64/64 at NUMA.
 */
static void test_numa_2s(void **state)
{
	struct built b;
	load(&b, "numa-2s-32c64t");
	for (int cpu = 0; cpu < 64; cpu++)
		check_levels(&b, cpu, "SMT,MC,NUMA");
	check_dom(&b, 33, 0, &(struct want){ "SMT", 0, "1,33", F_SMT, 2, 4, 110, 0, 0, "33/1024 1/1024" });
	check_dom(&b, 33, 1, &(struct want){ "MC", 2, "0-15,32-47", F_MC, 32, 64, 117, 1, 0,
		"1,33/2048 2,34/2048 3,35/2048 4,36/2048 5,37/2048 6,38/2048 7,39/2048 8,40/2048 "
		"9,41/2048 10,42/2048 11,43/2048 12,44/2048 13,45/2048 14,46/2048 15,47/2048 0,32/2048" });
	check_dom(&b, 33, 2, &(struct want){ "NUMA", 5, "0-63", F_NUMA, 64, 128, 117, 2, 4,
					     "0-15,32-47/32768 16-31,48-63/32768" });
	check_dom(&b, 16, 2, &(struct want){ "NUMA", 5, "0-63", F_NUMA, 64, 128, 117, 2, 4,
					     "16-31,48-63/32768 0-15,32-47/32768" });
	assert_int_equal(sd_group(b.sds, dom(&b, 0, 1), 0)->cores, 1);
	assert_int_equal(sd_group(b.sds, dom(&b, 0, 2), 0)->cores, 16);
	check_invariants(&b);
	done(&b);
}

/*
 * big-little-4-4: clusters 0-3 (446) and 4-7 (1024) in one LLC. CLS {0-3}
 * is a strict subset of MC, so it is a level. MC spans both capacities and
 * every one there is: SD_ASYM_CPUCAPACITY|_FULL, and it clears
 * SD_PREFER_SIBLING in its child CLS. sd_asym_cpucapacity = MC.
 */
static void test_big_little(void **state)
{
	struct built b;
	load(&b, "big-little-4-4");
	assert_true(b.sds->asym_cpucapacity);
	assert_true(b.sds->cluster_active);
	for (int cpu = 0; cpu < 8; cpu++)
		check_levels(&b, cpu, "CLS,MC");
	u32 cls = F_CLS & ~SD_PREFER_SIBLING;
	u32 mc = F_MC | SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL;
	check_dom(&b, 0, 0, &(struct want){ "CLS", 1, "0-3", cls, 4, 8, 117, 1, 0,
					    "0/446 1/446 2/446 3/446" });
	check_dom(&b, 0, 1, &(struct want){ "MC", 2, "0-7", mc, 8, 16, 117, 1, 0, "0-3/1784 4-7/4096" });
	check_dom(&b, 6, 0, &(struct want){ "CLS", 1, "4-7", cls, 4, 8, 117, 1, 0,
					    "6/1024 7/1024 4/1024 5/1024" });
	check_dom(&b, 6, 1, &(struct want){ "MC", 2, "0-7", mc, 8, 16, 117, 1, 0, "4-7/4096 0-3/1784" });
	for (int cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(b.sds->percpu[cpu].sd_asym_cpucapacity, dom(&b, cpu, 1)->id);
		assert_int_equal(b.sds->percpu[cpu].sd_share_id, cpu < 4 ? 0 : 4);
		assert_int_equal(b.sds->percpu[cpu].sd_llc_id, 0);
	}
	const struct sched_group *little = sd_group(b.sds, dom(&b, 0, 1), 0);
	assert_int_equal(little->min_capacity, 446);
	assert_int_equal(little->max_capacity, 446);
	check_invariants(&b);
	done(&b);
}

/*
 * server-256: 8 LLCs of 8 cores (16 CPUs) per package, one node per package,
 * remote distance 32 > node_reclaim_distance: the NUMA level loses
 * SD_BALANCE_EXEC, SD_BALANCE_FORK and SD_WAKE_AFFINE. PKG (= the node) has
 * 8 LLC groups and stays. imb_numa_nr: PKG has 128/16 = 8 LLCs: 8; NUMA:
 * 8 * (256 / 256) = 8.
 */
static void test_server_256(void **state)
{
	struct built b;
	load(&b, "server-256");
	for (int cpu = 0; cpu < 256; cpu++)
		check_levels(&b, cpu, "SMT,MC,PKG,NUMA");
	check_dom(&b, 0, 0, &(struct want){ "SMT", 0, "0,128", F_SMT, 2, 4, 110, 0, 0, "0/1024 128/1024" });
	check_dom(&b, 0, 1, &(struct want){ "MC", 2, "0-7,128-135", F_MC, 16, 32, 117, 1, 0,
		"0,128/2048 1,129/2048 2,130/2048 3,131/2048 4,132/2048 5,133/2048 6,134/2048 7,135/2048" });
	check_dom(&b, 0, 2, &(struct want){ "PKG", 3, "0-63,128-191", F_PKG, 128, 256, 117, 1, 8,
		"0-7,128-135/16384 8-15,136-143/16384 16-23,144-151/16384 24-31,152-159/16384 "
		"32-39,160-167/16384 40-47,168-175/16384 48-55,176-183/16384 56-63,184-191/16384" });
	check_dom(&b, 0, 3, &(struct want){ "NUMA", 5, "0-255", F_NUMA_FAR, 256, 512, 117, 2, 8,
					    "0-63,128-191/131072 64-127,192-255/131072" });
	check_dom(&b, 200, 1, &(struct want){ "MC", 2, "72-79,200-207", F_MC, 16, 32, 117, 1, 0,
		"72,200/2048 73,201/2048 74,202/2048 75,203/2048 76,204/2048 77,205/2048 78,206/2048 79,207/2048" });
	assert_int_equal(b.sds->percpu[200].sd_llc_size, 16);
	assert_int_equal(b.sds->percpu[200].sd_llc_id, 72);
	/* 256 CPUs x 4 levels; groups shared: 256 + 16*8 + 2*8 SMT/MC/PKG, 256*2 NUMA */
	assert_int_equal(b.sds->nr_domains, 1024);
	assert_int_equal(b.sds->nr_groups, 256 + 128 + 16 + 512);
	check_invariants(&b);
	done(&b);
}

/*
 * numa-8node.topo: distances {10, 20, 40}: NODE and two NUMA levels, type
 * NUMA_BACKPLANE (nodes 0 and 4 are 40 apart with no node nearer to both).
 * NUMA(20) = the board (4 node groups), NUMA(40) = the machine (2 board
 * groups) without EXEC/FORK/WAKE_AFFINE. imb_numa_nr: PKG max(1, 4>>3) = 1,
 * span of the first NUMA level 16: NUMA(20) 1 * 16/16 = 1, NUMA(40) 1 * 32/16 = 2.
 */
static void test_numa_8node(void **state)
{
	struct built b;
	load(&b, "numa-8node");
	assert_int_equal(b.sds->numa_levels, 3);
	assert_int_equal(b.sds->numa_distance[1], 20);
	assert_int_equal(b.sds->numa_distance[2], 40);
	assert_int_equal(b.sds->max_numa_distance, 40);
	assert_int_equal(b.sds->numa_topology_type, NUMA_BACKPLANE);
	for (int cpu = 0; cpu < 32; cpu++)
		check_levels(&b, cpu, "MC,NUMA,NUMA");
	check_dom(&b, 17, 0, &(struct want){ "MC", 2, "16-19", F_MC, 4, 8, 117, 1, 0,
					     "17/1024 18/1024 19/1024 16/1024" });
	check_dom(&b, 17, 1, &(struct want){ "NUMA", 5, "16-31", F_NUMA, 16, 32, 117, 2, 1,
					     "16-19/4096 20-23/4096 24-27/4096 28-31/4096" });
	check_dom(&b, 17, 2, &(struct want){ "NUMA", 6, "0-31", F_NUMA_FAR, 32, 64, 117, 2, 2,
					     "16-31/16384 0-15/16384" });
	check_dom(&b, 0, 2, &(struct want){ "NUMA", 6, "0-31", F_NUMA_FAR, 32, 64, 117, 2, 2,
					    "0-15/16384 16-31/16384" });
	assert_int_equal(b.sds->percpu[17].sd_numa, dom(&b, 17, 1)->id);
	check_invariants(&b);
	done(&b);
}

#define ONE_CPU_PER_NODE(d0, d1, d2, d3)                                                       \
	"packages 4\ncores 1\ndistance " d0 "\ndistance " d1 "\ndistance " d2 "\ndistance " d3 "\n"

/*
 * The 4-node ring drawn in kernel/sched/topology.c:
 *   NUMA-2  0-3: groups {0-1,3},{1-3}  {0-2},{0,2-3}  {1-3},{0-1,3}  {0,2-3},{0-2}
 *   NUMA-1  0-1,3: {0},{1},{3}  0-2: {0},{1},{2} ...
 * "Node-0 NUMA-2 would only get groups: 0-1,3 and 1-3"; the group 1-3 is
 * reached only from CPU 2 (balance mask {2}).
 */
static void test_numa_ring(void **state)
{
	struct built b;
	parse(&b, ONE_CPU_PER_NODE("10 20 30 20", "20 10 20 30", "30 20 10 20", "20 30 20 10"));
	assert_int_equal(b.sds->numa_topology_type, NUMA_GLUELESS_MESH);
	for (int cpu = 0; cpu < 4; cpu++)
		check_levels(&b, cpu, "NUMA,NUMA");
	check_dom(&b, 0, 0, &(struct want){ "NUMA", 5, "0-1,3", F_NUMA, 3, 6, 117, 2, 1, "0/1024 1/1024 3/1024" });
	check_dom(&b, 0, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1,
					    "0-1,3/3072 1-3/3072" });
	check_dom(&b, 1, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1, "0-2/3072 0,2-3/3072" });
	check_dom(&b, 2, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1, "1-3/3072 0-1,3/3072" });
	check_dom(&b, 3, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1, "0,2-3/3072 0-2/3072" });
	const struct sched_group *g = sd_group(b.sds, dom(&b, 0, 1), 1);
	assert_string_equal(list(&g->balance_mask), "2");
	assert_int_equal(g->sgc_id, 2);
	/* CPU 2 builds its own 1-3 group, with CPU 2's sched_group_capacity: the same one */
	const struct sched_group *g2 = sd_group(b.sds, dom(&b, 2, 1), 0);
	assert_string_equal(list(&g2->span), "1-3");
	assert_int_not_equal(g2->id, g->id);
	assert_int_equal(g2->sgc, g->sgc);
	check_invariants(&b);
	done(&b);
}

/*
 * The diameter-3 line 0 - 1 - 2 - 3 of topology.c's comment. CPU 0's NUMA(30)
 * domain {0-2}: the sibling of CPU 2 has child {1-3}, not inside {0-2}, so
 * find_descended_sibling() steps down and the group is {2} (the comment's
 * "obviously buggered" {1-3} is what the kernel did before). CPUs 1 and 2
 * reach 0-3 at NUMA(30) and stop: trees of unequal depth.
 */
static void test_numa_line(void **state)
{
	struct built b;
	parse(&b, ONE_CPU_PER_NODE("10 20 30 40", "20 10 20 30", "30 20 10 20", "40 30 20 10"));
	check_levels(&b, 0, "NUMA,NUMA,NUMA");
	check_levels(&b, 1, "NUMA,NUMA");
	check_levels(&b, 2, "NUMA,NUMA");
	check_levels(&b, 3, "NUMA,NUMA,NUMA");
	check_dom(&b, 0, 0, &(struct want){ "NUMA", 5, "0-1", F_NUMA, 2, 4, 117, 2, 1, "0/1024 1/1024" });
	check_dom(&b, 0, 1, &(struct want){ "NUMA", 6, "0-2", F_NUMA, 3, 6, 117, 2, 1, "0-1/2048 2/1024" });
	check_dom(&b, 0, 2, &(struct want){ "NUMA", 7, "0-3", F_NUMA_FAR, 4, 8, 117, 2, 2, "0-2/3072 1-3/3072" });
	check_dom(&b, 1, 0, &(struct want){ "NUMA", 5, "0-2", F_NUMA, 3, 6, 117, 2, 1, "1/1024 2/1024 0/1024" });
	check_dom(&b, 1, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1, "0-2/3072 2-3/2048" });
	check_dom(&b, 2, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1, "1-3/3072 0-1/2048" });
	check_dom(&b, 3, 2, &(struct want){ "NUMA", 7, "0-3", F_NUMA_FAR, 4, 8, 117, 2, 2, "1-3/3072 0-2/3072" });
	check_invariants(&b);
	done(&b);
}

/* The partial mesh of the comment: NUMA-1 is 0-2, 0-3, 0-3, 1-3; only CPUs 0
 * and 3 have a NUMA-2 domain, with groups {0-2},{1-3} and {1-3},{0-2}. */
static void test_numa_mesh(void **state)
{
	struct built b;
	parse(&b, ONE_CPU_PER_NODE("10 20 20 30", "20 10 20 20", "20 20 10 20", "30 20 20 10"));
	check_levels(&b, 0, "NUMA,NUMA");
	check_levels(&b, 1, "NUMA");
	check_levels(&b, 2, "NUMA");
	check_levels(&b, 3, "NUMA,NUMA");
	check_dom(&b, 1, 0, &(struct want){ "NUMA", 5, "0-3", F_NUMA, 4, 8, 117, 2, 1,
					    "1/1024 2/1024 3/1024 0/1024" });
	check_dom(&b, 0, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1, "0-2/3072 1-3/3072" });
	check_dom(&b, 3, 1, &(struct want){ "NUMA", 6, "0-3", F_NUMA, 4, 8, 117, 2, 1, "1-3/3072 0-2/3072" });
	check_invariants(&b);
	done(&b);
}

/*
 * Clusters: 8 cores x 2 threads, one LLC of 2 clusters: SMT, CLS {4 CPUs},
 * MC all stay. Without clusters CLS is the SMT mask and goes.
 */
static void test_clusters(void **state)
{
	struct built b;
	parse(&b, "packages 1\ncores 8\nthreads 2\nclusters 2\n");
	check_levels(&b, 0, "SMT,CLS,MC");
	check_dom(&b, 0, 0, &(struct want){ "SMT", 0, "0-1", F_SMT, 2, 4, 110, 0, 0, "0/1024 1/1024" });
	check_dom(&b, 0, 1, &(struct want){ "CLS", 1, "0-7", F_CLS, 8, 16, 117, 1, 0,
					    "0-1/2048 2-3/2048 4-5/2048 6-7/2048" });
	check_dom(&b, 0, 2, &(struct want){ "MC", 2, "0-15", F_MC, 16, 32, 117, 1, 0, "0-7/8192 8-15/8192" });
	assert_int_equal(b.sds->percpu[9].sd_share_id, 8);
	assert_int_equal(b.sds->percpu[9].sd_llc_id, 0);
	assert_true(b.sds->cluster_active);
	check_invariants(&b);
	done(&b);

	/* 2 LLCs per package, no clusters: SMT, MC; PKG (2 LLC groups) stays */
	parse(&b, "packages 1\ncores 8\nthreads 1\nllcs 2\n");
	check_levels(&b, 5, "MC,PKG");
	check_dom(&b, 5, 1, &(struct want){ "PKG", 3, "0-7", F_PKG, 8, 16, 117, 1, 2, "4-7/4096 0-3/4096" });
	assert_false(b.sds->cluster_active);
	check_invariants(&b);
	done(&b);
}

/*
 * Three capacities over two nodes: node 0 sees 400 and 700, not 1024: its
 * levels get SD_ASYM_CPUCAPACITY without _FULL; the NUMA level sees all
 * three: _FULL, and it is sd_asym_cpucapacity. Each ASYM level clears its
 * child's SD_PREFER_SIBLING (MC under PKG, PKG under NODE, NODE under NUMA),
 * so none is left to transfer down when PKG and NODE degenerate.
 */
static void test_asym_partial(void **state)
{
	struct built b;
	parse(&b, "packages 2\ncores 2\nnodes 2\ncapacity 0 400\ncapacity 1-2 700\ncapacity 3 1024\n");
	check_levels(&b, 0, "MC,NUMA");
	check_dom(&b, 0, 0, &(struct want){ "MC", 2, "0-1", (F_MC & ~SD_PREFER_SIBLING) | SD_ASYM_CPUCAPACITY,
					    2, 4, 117, 1, 0, "0/400 1/700" });
	check_dom(&b, 0, 1, &(struct want){ "NUMA", 5, "0-3",
					    F_NUMA | SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL, 4, 8, 117, 2, 1,
					    "0-1/1100 2-3/1724" });
	assert_int_equal(b.sds->percpu[0].sd_asym_cpucapacity, dom(&b, 0, 1)->id);
	const struct sched_group *g = sd_group(b.sds, dom(&b, 0, 1), 1);
	assert_int_equal(g->min_capacity, 700);
	assert_int_equal(g->max_capacity, 1024);
	check_invariants(&b);
	done(&b);
}

/* Every shipped topology, every CPU: the kernel's debug checks hold. */
static void test_invariants_all(void **state)
{
	static const char *const names[] = {
		"single", "dual", "laptop-4c8t", "quad-socket-quad-core", "numa-2s-32c64t",
		"big-little-4-4", "server-256", "numa-8node",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct built b;
		load(&b, names[i]);
		check_invariants(&b);
		/* domain ids are indices, grouped by CPU, bottom-up */
		for (int k = 0; k < b.sds->nr_domains; k++)
			assert_int_equal(b.sds->sd[k].id, k);
		for (int k = 0; k < b.sds->nr_groups; k++)
			assert_int_equal(b.sds->sg[k].id, k);
		done(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_format),
		cmocka_unit_test(test_max_interval),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_dual),
		cmocka_unit_test(test_laptop),
		cmocka_unit_test(test_quad_socket),
		cmocka_unit_test(test_numa_2s),
		cmocka_unit_test(test_big_little),
		cmocka_unit_test(test_server_256),
		cmocka_unit_test(test_numa_8node),
		cmocka_unit_test(test_numa_ring),
		cmocka_unit_test(test_numa_line),
		cmocka_unit_test(test_numa_mesh),
		cmocka_unit_test(test_clusters),
		cmocka_unit_test(test_asym_partial),
		cmocka_unit_test(test_invariants_all),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
