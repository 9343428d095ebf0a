// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling domains and groups, built as Linux 6.12's kernel/sched/topology.c
 * builds them (see topology.h; kernel/sched/topology.c: build_sched_domains(), sd_init(), build_sched_groups()):
 *
 *   sched_init_numa()       the distinct node distances give the levels NODE
 *                           (local) and one NUMA level per further distance
 *   build_sched_domains()   per CPU, bottom-up over SMT, CLS, MC, PKG, NODE,
 *                           NUMA...; sd_init() sets the parameters and flags;
 *                           a CPU stops at the first level spanning every CPU
 *   build_sched_groups()    (non-NUMA) each group is one child domain's span,
 *   build_overlap_...()     (NUMA) the same with overlapping spans and
 *                           balance masks
 *   imb_numa_nr, init_sched_groups_capacity()
 *   cpu_attach_domain()     removes degenerate levels (sd_degenerate(),
 *                           sd_parent_degenerate()), then
 *                           update_top_cache_domain()
 *
 * The arch mask functions are modelled on arm64/x86: SMT = the core's
 * threads, CLS = the cluster when it is a strict subset of the LLC (else the
 * SMT mask, so the level degenerates, as arm64's cpu_clustergroup_mask()
 * does), MC = the LLC, PKG = cpu_cpu_mask() = the CPU's NUMA node.
 *
 * Before 3.8 (sched_domains_legacy()) the levels are 3.3's SIBLING, MC, CPU
 * (the node, named PKG here) and NODE (the SD_NODES_PER_DOMAIN = 16 nearest
 * nodes: the whole machine, as no topology has more), each with its
 * SD_*_INIT parameters, no cluster level, no SD_NUMA overlap and no
 * asymmetric capacities.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/event.h"
#include "api/topology.h"
#include "alloc.h"

const char *const sd_flag_name[__SD_FLAG_CNT] = {
	"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_BALANCE_WAKE",
	"SD_WAKE_AFFINE", "SD_ASYM_CPUCAPACITY", "SD_ASYM_CPUCAPACITY_FULL",
	"SD_SHARE_CPUCAPACITY", "SD_CLUSTER", "SD_SHARE_LLC", "SD_SERIALIZE",
	"SD_ASYM_PACKING", "SD_PREFER_SIBLING", "SD_OVERLAP", "SD_NUMA",
};

const char *const numa_topology_type_name[3] = { "NUMA_DIRECT", "NUMA_GLUELESS_MESH", "NUMA_BACKPLANE" };

/* sd_flags.h metaflags: SDF_SHARED_CHILD and SDF_NEEDS_GROUPS */
#define SD_SHARED_CHILD_MASK                                                                       \
	(SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_BALANCE_WAKE | SD_WAKE_AFFINE | \
	 SD_SHARE_CPUCAPACITY | SD_SHARE_LLC)
#define SD_DEGENERATE_GROUPS_MASK (((1u << __SD_FLAG_CNT) - 1) & ~SD_WAKE_AFFINE)

/* ---- cpumasks ---- */

unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int w = 0;
	for (int i = 0; i < CPUMASK_WORDS; i++)
		w += (unsigned int)__builtin_popcountll(m->bits[i]);
	return w;
}

int cpumask_first(const struct cpumask *m)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		if (m->bits[i])
			return i * 64 + __builtin_ctzll(m->bits[i]);
	return SCHED_MAX_CPUS;
}

bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}

bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		if (a->bits[i] & ~b->bits[i])
			return false;
	return true;
}

bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

static void mask_or(struct cpumask *d, const struct cpumask *a)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		d->bits[i] |= a->bits[i];
}

static void mask_and(struct cpumask *d, const struct cpumask *a)
{
	for (int i = 0; i < CPUMASK_WORDS; i++)
		d->bits[i] &= a->bits[i];
}

/* The first CPU at or after cpu in a and not in b, n when none: a word at a time. */
static int next_andnot_below(const struct cpumask *a, const struct cpumask *b, int cpu, int n)
{
	while (cpu < n) {
		u64 w = (a->bits[cpu >> 6] & ~b->bits[cpu >> 6]) >> (cpu & 63);

		if (w)
			return MIN(cpu + __builtin_ctzll(w), n);
		cpu = (cpu | 63) + 1;
	}
	return n;
}

/*
 * Each CPU of span not yet covered, in for_each_cpu_wrap() order from start:
 * covered may grow in the body (a CPU it takes in is not visited).
 */
#define for_each_uncovered_wrap(i, span, covered, start, n)                                                  \
	for (int __pass = 0; __pass < 2; __pass++)                                                           \
		for (i = next_andnot_below((span), (covered), __pass ? 0 : (start), __pass ? (start) : (n)); \
		     i < (__pass ? (start) : (n));                                                           \
		     i = next_andnot_below((span), (covered), i + 1, __pass ? (start) : (n)))

int cpumask_format_list(char *buf, size_t len, const struct cpumask *m)
{
	size_t n = 0;
	int cpu = 0;

	if (len)
		buf[0] = 0;
	while (cpu < SCHED_MAX_CPUS) {
		if (!cpumask_test(m, cpu)) {
			cpu++;
			continue;
		}
		int end = cpu;
		while (end + 1 < SCHED_MAX_CPUS && cpumask_test(m, end + 1))
			end++;
		char piece[32];
		int k = end == cpu ? snprintf(piece, sizeof(piece), "%s%d", n ? "," : "", cpu)
				   : snprintf(piece, sizeof(piece), "%s%d-%d", n ? "," : "", cpu, end);
		if (n + (size_t)k < len)
			memcpy(buf + n, piece, (size_t)k + 1);
		else if (len && n < len)
			buf[n] = 0;
		n += (size_t)k;
		cpu = end + 1;
	}
	return (int)n;
}

/* ---- topology levels (default_topology[] + sched_init_numa()) ---- */

enum tl_kind { TL_SMT, TL_CLS, TL_MC, TL_PKG, TL_NUMA };

struct tl {
	const char *name;
	int kind;
	u32 sd_flags;		/* tl->sd_flags() */
	bool overlap;		/* SDTL_OVERLAP */
	int numa_level;
};

/* A group's balance mask, by the level its CPUs' domains are built at and its span. */
struct balance_memo {
	int sl, first;
	struct cpumask span, mask;
};

struct builder {
	const struct sched_topology *t;
	bool legacy; /* sched_domains_legacy(): 3.3's SD_*_INIT */
	struct sched_domains *sds;
	int n, ntl;
	struct tl tl[4 + 256];
	struct cpumask cpu_map;
	struct cpumask *mask;		/* [ntl * n]: tl->mask(cpu) */
	struct sched_domain *d;		/* [ntl * n]: d[tl * n + cpu], before attach */
	bool *built;			/* [ntl * n] */
	int *shared;			/* [ntl * n]: group list of (tl, first CPU of span) */
	struct balance_memo *memo;	/* balance masks built so far, [nmemo] */
	int nmemo, capmemo;
	struct sched_group *sg;
	int nsg, capsg;
	int ncaps;
	u32 caps[SCHED_MAX_CPUS];	/* asym_cap_list: distinct capacities */
	char *err;
	size_t errlen;
};

#define D(b, tl, cpu) (&(b)->d[(tl) * (b)->n + (cpu)])

static u32 node_distance(const struct sched_topology *t, int a, int b)
{
	return t->distance ? t->distance[a * t->nr_nodes + b] : (a == b ? 10 : 20);
}

static int init_numa(struct builder *b)
{
	const struct sched_topology *t = b->t;
	struct sched_domains *sds = b->sds;
	bool seen[256] = { false };

	for (int i = 0; i < t->nr_nodes; i++)
		for (int j = 0; j < t->nr_nodes; j++) {
			u32 d = node_distance(t, i, j);
			if (d < 10 || d >= 256) {
				snprintf(b->err, b->errlen, "invalid node distance %u between nodes %d and %d",
					 d, i, j);
				return -1;
			}
			seen[d] = true;
		}
	sds->numa_levels = 0;
	for (int d = 0; d < 256; d++)
		if (seen[d])
			sds->numa_distance[sds->numa_levels++] = d;
	sds->max_numa_distance = sds->numa_distance[sds->numa_levels - 1];

	/* init_numa_topology_type() */
	sds->numa_topology_type = NUMA_DIRECT;
	if (sds->numa_levels > 2) {
		int n = sds->max_numa_distance;
		for (int x = 0; x < t->nr_nodes; x++)
			for (int y = 0; y < t->nr_nodes; y++) {
				if ((int)node_distance(t, x, y) < n)
					continue;
				sds->numa_topology_type = NUMA_BACKPLANE;
				for (int z = 0; z < t->nr_nodes; z++)
					if ((int)node_distance(t, x, z) < n && (int)node_distance(t, y, z) < n) {
						sds->numa_topology_type = NUMA_GLUELESS_MESH;
						break;
					}
				goto typed;
			}
	}
typed:;

	static const struct tl base[] = {
		{ "SMT", TL_SMT, SD_SHARE_CPUCAPACITY | SD_SHARE_LLC, false, -1 },	/* cpu_smt_flags */
		{ "CLS", TL_CLS, SD_CLUSTER | SD_SHARE_LLC, false, -1 },		/* cpu_cluster_flags */
		{ "MC", TL_MC, SD_SHARE_LLC, false, -1 },				/* cpu_core_flags */
		{ "PKG", TL_PKG, 0, false, -1 },
	};
	b->ntl = 0;
	for (size_t i = 0; i < ARRAY_SIZE(base); i++)
		b->tl[b->ntl++] = base[i];
	b->tl[b->ntl++] = (struct tl){ "NODE", TL_NUMA, 0, false, 0 };
	if (b->legacy) {
		if (t->nr_nodes > 16) {
			snprintf(b->err, b->errlen,
				 "kernel 3.x: %d NUMA nodes are more than one NODE domain spans "
				 "(SD_NODES_PER_DOMAIN, 16); ALLNODES is not modelled",
				 t->nr_nodes);
			return -1;
		}
		return 0;
	}
	for (int j = 1; j < sds->numa_levels; j++)
		b->tl[b->ntl++] = (struct tl){ "NUMA", TL_NUMA, SD_NUMA, true, j };	/* cpu_numa_flags */
	return 0;
}

/* The id that tl->mask() of a non-NUMA level compares: core, cluster, LLC or node. */
static s32 level_id(const struct sched_topo_cpu *c, int kind)
{
	switch (kind) {
	case TL_SMT:
		return c->core;
	case TL_CLS:
		return c->cluster;
	case TL_MC:
		return c->llc;
	default:
		return c->node;
	}
}

/*
 * mask[i] = the CPUs whose id equals CPU i's: each CPU is added to the mask
 * of the first CPU holding its id (found in a hash of the ids), which the
 * others of that id then copy; n masks, not n^2 comparisons.
 */
static void masks_by_id(struct builder *b, int kind, struct cpumask *mask, int *first, int *slot, int nslots)
{
	const struct sched_topology *t = b->t;

	for (int h = 0; h < nslots; h++)
		slot[h] = -1;
	for (int i = 0; i < b->n; i++) {
		s32 id = level_id(&t->cpu[i], kind);
		unsigned int h = ((u32)id * 2654435761u) & (unsigned int)(nslots - 1);

		while (slot[h] >= 0 && level_id(&t->cpu[slot[h]], kind) != id)
			h = (h + 1) & (unsigned int)(nslots - 1);
		if (slot[h] < 0)
			slot[h] = i;
		first[i] = slot[h];
		cpumask_set(&mask[first[i]], i);
	}
	for (int i = 0; i < b->n; i++)
		if (first[i] != i)
			mask[i] = mask[first[i]];
}

/* tl->mask(cpu) for every level and CPU */
static void compute_masks(struct builder *b)
{
	const struct sched_topology *t = b->t;
	int n = b->n, nslots = 1;
	int *first, *slot;
	struct cpumask *node_mask;

	while (nslots < 2 * n)
		nslots *= 2;
	first = sched_realloc(NULL, (size_t)n * sizeof(int), "the sched domains");
	slot = sched_realloc(NULL, (size_t)nslots * sizeof(int), "the sched domains");
	for (int kind = TL_SMT; kind <= TL_PKG; kind++)
		masks_by_id(b, kind, &b->mask[kind * n], first, slot, nslots);
	for (int i = 0; i < n; i++) {
		struct cpumask *smt = &b->mask[TL_SMT * n + i], *cls = &b->mask[TL_CLS * n + i];
		struct cpumask *mc = &b->mask[TL_MC * n + i];

		/* arm64's cpu_clustergroup_mask(): a cluster spanning the whole
		 * coregroup is no level of its own */
		if (!cpumask_subset(cls, mc) || cpumask_equal(cls, mc))
			*cls = *smt;
		/* 3.3 had no cluster level */
		if (b->legacy)
			*cls = *smt;
	}

	/* NUMA levels: the CPUs of every node within the level's distance */
	node_mask = sched_calloc((size_t)t->nr_nodes, sizeof(*node_mask), "the sched domains");
	for (int i = 0; i < n; i++)
		cpumask_set(&node_mask[t->cpu[i].node], i);
	for (int l = 4; l < b->ntl; l++) {
		int dl = b->sds->numa_distance[b->tl[l].numa_level];

		for (int i = 0; i < n; i++) {
			struct cpumask *m = &b->mask[l * n + i];

			for (int node = 0; node < t->nr_nodes; node++)
				if (b->legacy || (int)node_distance(t, t->cpu[i].node, node) <= dl)
					mask_or(m, &node_mask[node]);
		}
	}
	free(node_mask);
	free(slot);
	free(first);
}

/*
 * Every CPU j in CPU i's span has the same span: that is, i's span is its
 * first CPU's, and that CPU is also first in the span of each CPU in it.
 * One comparison of masks per CPU; only a failure walks every pair, to
 * name the first that overlap.
 */
static bool level_spans_partition(const struct builder *b, int l)
{
	for (int i = 0; i < b->n; i++) {
		const struct cpumask *m = &b->mask[l * b->n + i];
		int first = cpumask_next_below(m, 0, b->n), j;

		if (first == b->n || !cpumask_equal(m, &b->mask[l * b->n + first]))
			return false;
		/* the same span as its first CPU's, which walks it */
		if (i != first)
			continue;
		for_each_cpu_below (j, m, b->n)
			if (cpumask_next_below(&b->mask[l * b->n + j], 0, b->n) != first)
				return false;
	}
	return true;
}

/* topology_span_sane(): non-NUMA levels are equal or disjoint between CPUs */
static int spans_sane(struct builder *b)
{
	for (int l = 0; l < b->ntl; l++) {
		if (b->tl[l].overlap || level_spans_partition(b, l))
			continue;
		for (int i = 0; i < b->n; i++) {
			const struct cpumask *m = &b->mask[l * b->n + i];
			for (int j = 0; j < b->n; j++)
				if (cpumask_test(m, j) && !cpumask_equal(m, &b->mask[l * b->n + j])) {
					snprintf(b->err, b->errlen,
						 "the %s spans of CPUs %d and %d overlap without being equal",
						 b->tl[l].name, i, j);
					return -1;
				}
		}
	}
	return 0;
}

/* asym_cpu_capacity_classify() */
static u32 asym_classify(const struct builder *b, const struct cpumask *span)
{
	int count = 0, miss = 0;

	if (b->ncaps < 2)
		return 0;	/* one capacity: the list is empty */
	for (int k = 0; k < b->ncaps; k++) {
		bool in = false;
		for (int i = 0; i < b->n && !in; i++)
			in = cpumask_test(span, i) && b->t->cpu[i].capacity == b->caps[k];
		if (in)
			count++;
		else
			miss++;	/* every CPU is in cpu_map */
	}
	if (count < 2)
		return 0;
	if (miss)
		return SD_ASYM_CPUCAPACITY;
	return SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL;
}

static int sd_level_name_of(const char *name)
{
	for (int i = 0; i < NR_SD_LEVEL_NAMES; i++)
		if (!strcmp(name, sd_level_names[i]))
			return i;
	return SDL_NUMA;
}

/*
 * 3.3's SD_SIBLING_INIT, SD_MC_INIT, SD_CPU_INIT (include/linux/topology.h)
 * and x86-64's SD_NODE_INIT, with the default power-savings settings: MC and
 * CPU prefer siblings.  SD_LOAD_BALANCE, on at every level, is implied.
 */
static void sd_init_legacy(struct sched_domain *sd, int kind)
{
	const u32 lb = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE;

	sd->balance_interval = 1;
	sd->min_interval = 1;
	switch (kind) {
	case TL_SMT:
	case TL_CLS:
		sd->max_interval = 2;
		sd->busy_factor = 64;
		sd->imbalance_pct = 110;
		sd->flags = lb | SD_SHARE_CPUCAPACITY | SD_SHARE_LLC;
		sd->smt_gain = 1178; /* 15% */
		break;
	case TL_MC:
		sd->max_interval = 4;
		sd->busy_factor = 64;
		sd->imbalance_pct = 125;
		sd->cache_nice_tries = 1;
		sd->busy_idx = 2;
		sd->flags = lb | SD_SHARE_LLC | SD_PREFER_SIBLING;
		break;
	case TL_PKG:
		sd->max_interval = 4;
		sd->busy_factor = 64;
		sd->imbalance_pct = 125;
		sd->cache_nice_tries = 1;
		sd->busy_idx = 2;
		sd->idle_idx = 1;
		sd->flags = lb | SD_PREFER_SIBLING;
		break;
	default:
		sd->min_interval = 8;
		sd->max_interval = 32;
		sd->busy_factor = 32;
		sd->imbalance_pct = 125;
		sd->cache_nice_tries = 2;
		sd->busy_idx = 3;
		sd->idle_idx = 2;
		sd->flags = lb | SD_SERIALIZE;
		break;
	}
}

/* sd_init() + build_sched_domain() */
static void build_one(struct builder *b, int l, int cpu, struct sched_domain *child)
{
	const struct tl *tl = &b->tl[l];
	struct sched_domain *sd = D(b, l, cpu);
	const struct cpumask *m = &b->mask[l * b->n + cpu];
	unsigned int w = cpumask_weight(m);

	*sd = (struct sched_domain){
		.id = -1,
		.cpu = cpu,
		.parent = -1,
		.child = child ? (int)(child - b->d) : -1,
		.numa_level = tl->numa_level,
		.min_interval = w,
		.max_interval = 2 * w,
		.balance_interval = w,
		.busy_factor = 16,
		.imbalance_pct = 117,
		.cache_nice_tries = 0,
		.flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE |
			 SD_PREFER_SIBLING | tl->sd_flags,
	};
	snprintf(sd->name, sizeof(sd->name), "%s", tl->name);
	sd->level_name = sd_level_name_of(sd->name);
	sd->span = *m;
	mask_and(&sd->span, &b->cpu_map);
	if (b->legacy) {
		sd_init_legacy(sd, tl->kind);
		goto link;
	}
	sd->flags |= asym_classify(b, &sd->span);

	/* Don't attempt to spread across CPUs of different capacities. */
	if ((sd->flags & SD_ASYM_CPUCAPACITY) && child)
		child->flags &= ~SD_PREFER_SIBLING;

	if (sd->flags & SD_SHARE_CPUCAPACITY) {
		sd->imbalance_pct = 110;
	} else if (sd->flags & SD_SHARE_LLC) {
		sd->imbalance_pct = 117;
		sd->cache_nice_tries = 1;
	} else if (sd->flags & SD_NUMA) {
		sd->cache_nice_tries = 2;
		sd->flags &= ~SD_PREFER_SIBLING;
		sd->flags |= SD_SERIALIZE;
		if (b->sds->numa_distance[tl->numa_level] > NODE_RECLAIM_DISTANCE)
			sd->flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
	} else {
		sd->cache_nice_tries = 1;
	}

link:
	if (child) {
		sd->level = child->level + 1;
		if (sd->level > b->sds->level_max)
			b->sds->level_max = sd->level;
		child->parent = (int)(sd - b->d);
		/* "BUG: arch topology borken": ensure sd has at least child's CPUs */
		if (!cpumask_subset(&child->span, &sd->span))
			mask_or(&sd->span, &child->span);
	}
	sd->span_weight = cpumask_weight(&sd->span);
	b->built[l * b->n + cpu] = true;
}

static struct sched_group *new_group(struct builder *b)
{
	if (b->nsg == b->capsg) {
		int cap = b->capsg ? 2 * b->capsg : 256;
		b->sg = sched_realloc(b->sg, (size_t)cap * sizeof(*b->sg), "the sched groups");
		b->capsg = cap;
	}
	struct sched_group *sg = &b->sg[b->nsg];
	memset(sg, 0, sizeof(*sg));
	sg->id = b->nsg++;
	return sg;
}

/*
 * build_sched_groups() for (l, cpu): the kernel shares each group among
 * the CPUs of the domain (get_group()), so the list of the domain is built
 * once, in for_each_cpu_wrap() order from its first CPU, and each CPU's
 * sd->groups is the group holding it.
 */
static void build_groups(struct builder *b, int l, int cpu)
{
	struct sched_domain *sd = D(b, l, cpu);
	int first = cpumask_first(&sd->span);
	int key = l * b->n + first;

	if (b->shared[key] < 0) {
		struct cpumask covered = { { 0 } };
		int start = b->nsg, i;
		for_each_uncovered_wrap (i, &sd->span, &covered, first, b->n) {
			const struct sched_domain *si = D(b, l, i);
			struct sched_group *sg = new_group(b);
			if (si->child >= 0) {
				sg->span = b->d[si->child].span;
				sg->flags = b->d[si->child].flags;
			} else {
				cpumask_set(&sg->span, i);
			}
			sg->balance_mask = sg->span;
			mask_or(&covered, &sg->span);
		}
		b->shared[key] = start;
		/* the count is recovered below from the next list's start */
		D(b, l, first)->group_first = start;
		D(b, l, first)->nr_groups = b->nsg - start;
	}
	const struct sched_domain *owner = D(b, l, first);
	sd->group_first = owner->group_first;
	sd->nr_groups = owner->nr_groups;
	for (int k = 0; k < sd->nr_groups; k++)
		if (cpumask_test(&b->sg[sd->group_first + k].span, cpu))
			sd->group_local = k;
}

/* find_descended_sibling() */
static const struct sched_domain *descended_sibling(const struct builder *b, const struct sched_domain *sd,
						    const struct sched_domain *sib)
{
	while (sib->child >= 0 && !cpumask_subset(&b->d[sib->child].span, &sd->span))
		sib = &b->d[sib->child];
	while (sib->child >= 0 && cpumask_equal(&b->d[sib->child].span, &sib->span))
		sib = &b->d[sib->child];
	return sib;
}

/*
 * build_balance_mask(sib, sg): the CPUs that arrive at this group, those of
 * its span whose level-sl domain's child spans it. Every CPU of a NUMA
 * domain builds the same groups, so each (sl, span) is walked once.
 */
static void build_balance_mask(struct builder *b, int sl, struct sched_group *sg)
{
	int first = cpumask_first(&sg->span), j;
	struct balance_memo *m;

	for (int k = 0; k < b->nmemo; k++) {
		m = &b->memo[k];
		if (m->sl == sl && m->first == first && cpumask_equal(&m->span, &sg->span)) {
			sg->balance_mask = m->mask;
			return;
		}
	}
	for_each_cpu_below (j, &sg->span, b->n) {
		if (!b->built[sl * b->n + j])
			continue;
		const struct sched_domain *s2 = D(b, sl, j);
		if (s2->child >= 0 && cpumask_equal(&sg->span, &b->d[s2->child].span))
			cpumask_set(&sg->balance_mask, j);
	}
	if (b->nmemo == b->capmemo) {
		b->capmemo = b->capmemo ? 2 * b->capmemo : 16;
		b->memo = sched_realloc(b->memo, (size_t)b->capmemo * sizeof(*b->memo), "the sched domains");
	}
	b->memo[b->nmemo++] = (struct balance_memo){ sl, first, sg->span, sg->balance_mask };
}

/* build_overlap_sched_groups() for (l, cpu): groups of its own, starting at cpu */
static void build_overlap_groups(struct builder *b, int l, int cpu)
{
	struct sched_domain *sd = D(b, l, cpu);
	struct cpumask covered = { { 0 } };
	int start = b->nsg, i;

	for_each_uncovered_wrap (i, &sd->span, &covered, cpu, b->n) {
		if (!b->built[l * b->n + i])
			continue;	/* asymmetric trees: i stopped below this level */
		const struct sched_domain *sib = D(b, l, i);
		if (sib->child >= 0 && !cpumask_subset(&b->d[sib->child].span, &sd->span))
			sib = descended_sibling(b, sd, sib);

		struct sched_group *sg = new_group(b);
		/* build_group_from_child_sched_domain() */
		if (sib->child >= 0) {
			sg->span = b->d[sib->child].span;
			sg->flags = b->d[sib->child].flags;
		} else {
			sg->span = sib->span;
		}
		mask_or(&covered, &sg->span);

		build_balance_mask(b, (int)(sib - b->d) / b->n, sg);
	}
	sd->group_first = start;
	sd->nr_groups = b->nsg - start;
	sd->group_local = 0;
}

/* the imb_numa_nr pass of build_sched_domains() */
static void set_imb_numa_nr(struct builder *b, int cpu)
{
	unsigned int imb = 0, imb_span = 1;

	for (struct sched_domain *sd = D(b, 0, cpu); sd; sd = sd->parent >= 0 ? &b->d[sd->parent] : NULL) {
		const struct sched_domain *child = sd->child >= 0 ? &b->d[sd->child] : NULL;

		if (!(sd->flags & SD_SHARE_LLC) && child && (child->flags & SD_SHARE_LLC)) {
			unsigned int nr_llcs = sd->span_weight / child->span_weight;
			imb = nr_llcs == 1 ? sd->span_weight >> 3 : nr_llcs;
			if (imb < 1)
				imb = 1;
			sd->imb_numa_nr = imb;
			const struct sched_domain *top = sd->parent >= 0 ? &b->d[sd->parent] : NULL;
			while (top && !(top->flags & SD_NUMA))
				top = top->parent >= 0 ? &b->d[top->parent] : NULL;
			imb_span = top ? top->span_weight : sd->span_weight;
		} else {
			unsigned int factor = sd->span_weight / imb_span;
			sd->imb_numa_nr = imb * (factor ? factor : 1);
		}
	}
}

static int nr_groups_of(const struct builder *b, int idx)
{
	return b->d[idx].nr_groups;
}

/* The flags that need at least two groups; 3.3 listed them (and no others). */
static u32 degenerate_groups_mask(const struct builder *b)
{
	if (b->legacy)
		return SD_BALANCE_NEWIDLE | SD_BALANCE_FORK | SD_BALANCE_EXEC | SD_SHARE_CPUCAPACITY |
		       SD_SHARE_LLC;
	return SD_DEGENERATE_GROUPS_MASK;
}

static bool sd_degenerate(const struct builder *b, int idx)
{
	const struct sched_domain *sd = &b->d[idx];

	if (sd->span_weight == 1)
		return true;
	/* Following flags need at least 2 groups */
	if ((sd->flags & degenerate_groups_mask(b)) && nr_groups_of(b, idx) > 1)
		return false;
	/* Following flags don't use groups */
	if (sd->flags & SD_WAKE_AFFINE)
		return false;
	return true;
}

static bool sd_parent_degenerate(const struct builder *b, int idx, int pidx)
{
	u32 cflags = b->d[idx].flags, pflags = b->d[pidx].flags;

	if (sd_degenerate(b, pidx))
		return true;
	if (!cpumask_equal(&b->d[idx].span, &b->d[pidx].span))
		return false;
	/* Flags needing groups don't count if only 1 group in parent */
	if (nr_groups_of(b, pidx) == 1) {
		pflags &= ~degenerate_groups_mask(b);
		if (b->legacy && b->t->nr_nodes == 1)
			pflags &= ~SD_SERIALIZE;
	}
	return !(~cflags & pflags);
}

static struct sched_group *local_group(struct builder *b, int idx)
{
	const struct sched_domain *sd = &b->d[idx];
	return &b->sg[sd->group_first + sd->group_local];
}

/* cpu_attach_domain() without the root domain: returns the CPU's lowest domain */
static int attach_domain(struct builder *b, int cpu)
{
	int sd = (int)(D(b, 0, cpu) - b->d);

	for (int tmp = sd; tmp >= 0;) {
		int parent = b->d[tmp].parent;
		if (parent < 0)
			break;
		if (sd_parent_degenerate(b, tmp, parent)) {
			int pp = b->d[parent].parent;
			b->d[tmp].parent = pp;
			if (pp >= 0) {
				b->d[pp].child = tmp;
				local_group(b, pp)->flags = b->d[tmp].flags;
			}
			/* transfer SD_PREFER_SIBLING down from a degenerate parent (5.x) */
			if (!b->legacy && (b->d[parent].flags & SD_PREFER_SIBLING))
				b->d[tmp].flags |= SD_PREFER_SIBLING;
		} else {
			tmp = parent;
		}
	}
	if (sd >= 0 && sd_degenerate(b, sd)) {
		sd = b->d[sd].parent;
		if (sd >= 0) {
			/* the kernel's loop clears only sd->groups' flags */
			local_group(b, sd)->flags = 0;
			b->d[sd].child = -1;
		}
	}
	return sd;
}

static int highest_flag_domain(const struct sched_domains *sds, int cpu, u32 flag)
{
	int hsd = -1;
	for (int i = sds->percpu[cpu].sd; i >= 0; i = sds->sd[i].parent) {
		if (sds->sd[i].flags & flag) {
			hsd = i;
			continue;
		}
		if (flag & SD_SHARED_CHILD_MASK)
			break;
	}
	return hsd;
}

static int lowest_flag_domain(const struct sched_domains *sds, int cpu, u32 flag)
{
	int i;
	for (i = sds->percpu[cpu].sd; i >= 0; i = sds->sd[i].parent)
		if (sds->sd[i].flags & flag)
			break;
	return i;
}

/* update_top_cache_domain() */
static void top_cache_domain(struct sched_domains *sds, int cpu)
{
	struct sd_percpu *pc = &sds->percpu[cpu];
	int id = cpu, size = 1;

	pc->sd_llc = highest_flag_domain(sds, cpu, SD_SHARE_LLC);
	if (pc->sd_llc >= 0) {
		id = cpumask_first(&sds->sd[pc->sd_llc].span);
		size = (int)sds->sd[pc->sd_llc].span_weight;
	}
	pc->sd_llc_size = size;
	pc->sd_llc_id = id;
	int cls = lowest_flag_domain(sds, cpu, SD_CLUSTER);
	if (cls >= 0) {
		id = cpumask_first(&sds->sd[cls].span);
		sds->cluster_active = true;
	}
	pc->sd_share_id = id;
	pc->sd_numa = lowest_flag_domain(sds, cpu, SD_NUMA);
	pc->sd_asym_packing = highest_flag_domain(sds, cpu, SD_ASYM_PACKING);
	pc->sd_asym_cpucapacity = lowest_flag_domain(sds, cpu, SD_ASYM_CPUCAPACITY_FULL);
}

/*
 * For each CPU its nearest lower-numbered SMT sibling (same core id), -1 for
 * none: a group counts a core at its first CPU without walking the machine.
 */
static int *smt_prev_sibling(const struct sched_topology *t)
{
	int *prev = sched_realloc(NULL, (size_t)t->nr_cpus * sizeof(int), "the sched domains");

	for (int i = 0; i < t->nr_cpus; i++) {
		prev[i] = -1;
		for (int j = i - 1; j >= 0 && prev[i] < 0; j--)
			if (t->cpu[j].core == t->cpu[i].core)
				prev[i] = j;
	}
	return prev;
}

/* group_weight, cores and the capacities (init_sched_groups_capacity(),
 * update_group_capacity() with arch_scale_cpu_capacity() as capacity_of()) */
static void group_capacity(const struct sched_topology *t, const int *prev_sibling, struct sched_group *sg)
{
	sg->group_weight = cpumask_weight(&sg->span);
	sg->sgc_id = cpumask_first(&sg->balance_mask);
	sg->min_capacity = (unsigned long)-1;
	int i;
	for_each_cpu_below (i, &sg->span, t->nr_cpus) {
		unsigned long c = t->cpu[i].capacity;
		sg->capacity += c;
		if (c < sg->min_capacity)
			sg->min_capacity = c;
		if (c > sg->max_capacity)
			sg->max_capacity = c;
		/* cpu_smt_mask(): count each core once, at its first CPU in the span */
		bool dup = false;
		for (int j = prev_sibling[i]; j >= 0 && !dup; j = prev_sibling[j])
			dup = cpumask_test(&sg->span, j);
		if (!dup)
			sg->cores++;
	}
}

/*
 * The sched_group_capacity of each kept group: the kernel gives a group
 * the one of its topology level's balance CPU (per_cpu_ptr(sdd->sgc,
 * group_balance_cpu())), so NUMA groups built by several CPUs share it.
 */
static void share_capacity(struct builder *b, const int *base, const int *gmap)
{
	int *sgc = sched_realloc(NULL, (size_t)b->ntl * b->n * sizeof(int), "the sched domains");

	for (int i = 0; i < b->ntl * b->n; i++)
		sgc[i] = -1;
	b->sds->nr_sgc = 0;
	for (int cpu = 0; cpu < b->n; cpu++)
		for (int i = base[cpu]; i >= 0; i = b->d[i].parent)
			for (int k = 0; k < b->d[i].nr_groups; k++) {
				struct sched_group *sg = &b->sds->sg[gmap[b->d[i].group_first + k]];
				int *slot = &sgc[i / b->n * b->n + sg->sgc_id];

				if (*slot < 0)
					*slot = b->sds->nr_sgc++;
				sg->sgc = *slot;
			}
	free(sgc);
}

/* Keep the surviving domains, bottom-up per CPU, and the groups they use. */
static void pack(struct builder *b)
{
	struct sched_domains *sds = b->sds;
	int total = b->ntl * b->n;
	int *newid = sched_realloc(NULL, (size_t)total * sizeof(int), "the sched domains");
	int *base = sched_realloc(NULL, (size_t)b->n * sizeof(int), "the sched domains");
	int *gmap = sched_realloc(NULL, ((size_t)b->nsg + 1) * sizeof(int), "the sched domains");
	int *prev_sibling = smt_prev_sibling(b->t);

	for (int i = 0; i < total; i++)
		newid[i] = -1;
	for (int g = 0; g < b->nsg; g++)
		gmap[g] = -1;
	sds->nr_domains = 0;
	for (int cpu = 0; cpu < b->n; cpu++) {
		base[cpu] = attach_domain(b, cpu);
		for (int i = base[cpu]; i >= 0; i = b->d[i].parent) {
			newid[i] = sds->nr_domains++;
			for (int k = 0; k < b->d[i].nr_groups; k++)
				gmap[b->d[i].group_first + k] = 0;
		}
	}
	sds->nr_groups = 0;
	for (int g = 0; g < b->nsg; g++)
		if (!gmap[g])
			gmap[g] = sds->nr_groups++;
	sds->sd = sched_calloc((size_t)sds->nr_domains + 1, sizeof(*sds->sd), "the sched domains");
	sds->sg = sched_calloc((size_t)sds->nr_groups + 1, sizeof(*sds->sg), "the sched groups");
	for (int g = 0; g < b->nsg; g++)
		if (gmap[g] >= 0) {
			struct sched_group *sg = &sds->sg[gmap[g]];
			*sg = b->sg[g];
			sg->id = gmap[g];
			group_capacity(b->t, prev_sibling, sg);
		}
	for (int cpu = 0; cpu < b->n; cpu++) {
		int depth = 0;
		sds->percpu[cpu].sd = base[cpu] >= 0 ? newid[base[cpu]] : -1;
		for (int i = base[cpu]; i >= 0; i = b->d[i].parent) {
			struct sched_domain *sd = &sds->sd[newid[i]];
			*sd = b->d[i];
			sd->id = newid[i];
			sd->depth = depth++;
			sd->parent = sd->parent >= 0 ? newid[sd->parent] : -1;
			sd->child = sd->child >= 0 ? newid[sd->child] : -1;
			sd->group_first = gmap[sd->group_first];
		}
	}
	share_capacity(b, base, gmap);
	for (int cpu = 0; cpu < b->n; cpu++)
		top_cache_domain(sds, cpu);
	free(newid);
	free(base);
	free(gmap);
	free(prev_sibling);
}

/* The builder's scratch arrays go once the domains are packed, or given up. */
static void builder_free(struct builder *b)
{
	free(b->mask);
	free(b->d);
	free(b->built);
	free(b->shared);
	free(b->memo);
	free(b->sg);
	free(b);
}

struct sched_domains *sched_domains_build(const struct sched_topology *t, int kv, char *err, size_t errlen)
{
	struct builder *b = sched_calloc(1, sizeof(*b), "the sched domains");
	struct sched_domains *sds = sched_calloc(1, sizeof(*sds), "the sched domains");
	int n = t->nr_cpus;

	if (n < 1 || n > SCHED_MAX_CPUS || t->nr_nodes < 1) {
		snprintf(err, errlen, "a topology of %d CPUs and %d nodes has no sched domains", n, t->nr_nodes);
		goto fail;
	}
	b->t = t;
	b->legacy = sched_domains_legacy(kv);
	sds->legacy = b->legacy;
	b->sds = sds;
	b->n = n;
	b->err = err;
	b->errlen = errlen;
	sds->nr_cpus = n;
	if (init_numa(b) < 0)
		goto fail;

	size_t total = (size_t)b->ntl * (size_t)n;
	b->mask = sched_calloc(total, sizeof(*b->mask), "the sched domains");
	b->d = sched_calloc(total, sizeof(*b->d), "the sched domains");
	b->built = sched_calloc(total, sizeof(*b->built), "the sched domains");
	b->shared = sched_calloc(total, sizeof(*b->shared), "the sched domains");
	sds->percpu = sched_calloc((size_t)n, sizeof(*sds->percpu), "the sched domains");
	for (size_t i = 0; i < total; i++)
		b->shared[i] = -1;

	for (int i = 0; i < n; i++) {
		cpumask_set(&b->cpu_map, i);
		/* asym_cpu_capacity_scan() */
		int k = 0;
		while (k < b->ncaps && b->caps[k] != t->cpu[i].capacity)
			k++;
		if (k == b->ncaps)
			b->caps[b->ncaps++] = t->cpu[i].capacity;
	}
	compute_masks(b);
	if (spans_sane(b) < 0)
		goto fail;

	/* Set up domains for the CPUs */
	for (int i = 0; i < n; i++) {
		struct sched_domain *sd = NULL;
		for (int l = 0; l < b->ntl; l++) {
			build_one(b, l, i, sd);
			sd = D(b, l, i);
			if (sd->flags & SD_ASYM_CPUCAPACITY)
				sds->asym_cpucapacity = true;
			if (b->tl[l].overlap)
				sd->flags |= SD_OVERLAP;
			if (cpumask_equal(&b->cpu_map, &sd->span))
				break;
		}
	}
	/* Build the groups for the domains */
	for (int i = 0; i < n; i++)
		for (int l = 0; l < b->ntl && b->built[l * n + i]; l++) {
			if (D(b, l, i)->flags & SD_OVERLAP)
				build_overlap_groups(b, l, i);
			else
				build_groups(b, l, i);
		}
	for (int i = 0; i < n; i++)
		set_imb_numa_nr(b, i);
	pack(b);
	builder_free(b);
	return sds;

fail:
	builder_free(b);
	sched_domains_free(sds);
	return NULL;
}

void sched_domains_free(struct sched_domains *sds)
{
	if (!sds)
		return;
	free(sds->sd);
	free(sds->sg);
	free(sds->percpu);
	free(sds);
}
