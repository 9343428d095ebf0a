// SPDX-License-Identifier: GPL-2.0
/*
 * src/host_topology.c: fake sysfs trees (an x86 two-socket SMT machine with
 * two nodes, the same with a CPU offline, an Arm big.LITTLE phone) read into
 * the struct, written as .topo, parsed back and compared; the `cpu` lines of
 * the .topo grammar and their errors; this machine's own /sys.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/format/host_topology.h"
#include "src/format/scenario_file.h"
#include "src/format/topology_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static char root[256], err[1024];

/* root/rel with its folders; content as given. */
static void put(const char *content, const char *fmt, ...)
{
	char rel[512], path[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static void cache(int cpu, int k, int level, const char *type, const char *shared)
{
	char v[16];

	snprintf(v, sizeof(v), "%d\n", level);
	put(v, "sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, k);
	put(type, "sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, k);
	put(shared, "sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, k);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p);
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/schedscope-host-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * 2 packages x 2 cores x 2 threads, numbered as x86 firmware does (CPU n's
 * sibling is n + 4); L1d, L1i and L2 per core, an L3 per package, cluster_id
 * the L2 (one per core, as on most x86), one node per package, distance 21.
 */
static void make_x86(void)
{
	static const char *const sib[] = { "0,4", "1,5", "2,6", "3,7" };
	char v[32];

	put("0-7\n", "sys/devices/system/cpu/online");
	for (int cpu = 0; cpu < 8; cpu++) {
		int core = cpu % 4, pkg = core / 2;
		snprintf(v, sizeof(v), "%d\n", pkg);
		put(v, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		snprintf(v, sizeof(v), "%d\n", core % 2);
		put(v, "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		snprintf(v, sizeof(v), "%d\n", core * 8);
		put(v, "sys/devices/system/cpu/cpu%d/topology/cluster_id", cpu);
		put(sib[core], "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		put(sib[core], "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		cache(cpu, 0, 1, "Data\n", sib[core]);
		cache(cpu, 1, 1, "Instruction\n", sib[core]);
		cache(cpu, 2, 2, "Unified\n", sib[core]);
		cache(cpu, 3, 3, "Unified\n", pkg ? "2-3,6-7\n" : "0-1,4-5\n");
	}
	put("0-1\n", "sys/devices/system/node/online");
	put("0-1,4-5\n", "sys/devices/system/node/node0/cpulist");
	put("2-3,6-7\n", "sys/devices/system/node/node1/cpulist");
	put("10 21\n", "sys/devices/system/node/node0/distance");
	put("21 10\n", "sys/devices/system/node/node1/distance");
}

/* One package, 4 little (446) + 4 big (1024) cores in two clusters, one L3, no node folder. */
static void make_arm(void)
{
	char v[32];

	put("0-7\n", "sys/devices/system/cpu/online");
	for (int cpu = 0; cpu < 8; cpu++) {
		put("0\n", "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		snprintf(v, sizeof(v), "%d\n", cpu / 4);
		put(v, "sys/devices/system/cpu/cpu%d/topology/cluster_id", cpu);
		snprintf(v, sizeof(v), "%d\n", cpu);
		put(v, "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		put(v, "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		put(v, "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		cache(cpu, 0, 1, "Data\n", v);
		cache(cpu, 1, 1, "Instruction\n", v);
		cache(cpu, 2, 2, "Unified\n", v);
		cache(cpu, 3, 3, "Unified\n", "0-7\n");
		put(cpu < 4 ? "446\n" : "1024\n", "sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	}
}

/* Write t as .topo, parse it back, expect the same struct; returns the text. */
static char *round_trip(const struct sched_topology *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sched_topology back;

	assert_non_null(f);
	assert_int_equal(host_topology_write(f, t), 0);
	assert_int_equal(fclose(f), 0);
	if (topology_parse("host.topo", text, len, &back, err, sizeof(err)) < 0)
		fail_msg("%s\n%s", err, text);
	assert_string_equal(back.name, t->name);
	assert_int_equal(back.nr_cpus, t->nr_cpus);
	assert_int_equal(back.nr_nodes, t->nr_nodes);
	assert_memory_equal(back.cpu, t->cpu, (size_t)t->nr_cpus * sizeof(*t->cpu));
	assert_memory_equal(back.distance, t->distance,
			    (size_t)t->nr_nodes * (size_t)t->nr_nodes * sizeof(*t->distance));
	topology_free(&back);
	return text;
}

#define CPU(p, n, l, k, c, th, cap) ((struct sched_topo_cpu){ p, n, l, k, c, th, cap })

static void check_cpus(const struct sched_topology *t, const struct sched_topo_cpu *want, int n)
{
	assert_int_equal(t->nr_cpus, n);
	for (int i = 0; i < n; i++) {
		const struct sched_topo_cpu *g = &t->cpu[i], *w = &want[i];
		if (memcmp(g, w, sizeof(*g)))
			fail_msg("cpu %d: package %d node %d llc %d cluster %d core %d thread %d capacity %u; "
				 "want %d %d %d %d %d %d %u", i, g->package, g->node, g->llc, g->cluster, g->core,
				 g->thread, g->capacity, w->package, w->node, w->llc, w->cluster, w->core,
				 w->thread, w->capacity);
	}
}

static void test_x86(void **state)
{
	struct sched_topology t;
	const struct sched_topo_cpu want[8] = {
		CPU(0, 0, 0, 0, 0, 0, 1024), CPU(0, 0, 0, 1, 1, 0, 1024),
		CPU(1, 1, 1, 2, 2, 0, 1024), CPU(1, 1, 1, 3, 3, 0, 1024),
		CPU(0, 0, 0, 0, 0, 1, 1024), CPU(0, 0, 0, 1, 1, 1, 1024),
		CPU(1, 1, 1, 2, 2, 1, 1024), CPU(1, 1, 1, 3, 3, 1, 1024),
	};

	make_x86();
	if (host_topology_read(root, &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_string_equal(t.name, "host");
	check_cpus(&t, want, 8);
	assert_int_equal(t.nr_nodes, 2);
	assert_int_equal(t.distance[0], 10);
	assert_int_equal(t.distance[1], 21);
	assert_int_equal(t.distance[2], 21);
	assert_int_equal(t.distance[3], 10);
	char *text = round_trip(&t);
	/* a regular machine: the short form */
	assert_non_null(strstr(text, "packages 2\ncores 2\nthreads 2\nllcs 1\nclusters 2\nnodes 2\n"));
	assert_non_null(strstr(text, "numbering smt-last\n"));
	assert_non_null(strstr(text, "distance 10 21\ndistance 21 10\n"));
	assert_null(strstr(text, "\ncpu "));
	free(text);
	topology_free(&t);
}

/* CPU 3 offline: the host's CPUs 4-7 become 3-6, and the machine is irregular. */
static void test_x86_offline(void **state)
{
	struct sched_topology t;
	const struct sched_topo_cpu want[7] = {
		CPU(0, 0, 0, 0, 0, 0, 1024), CPU(0, 0, 0, 1, 1, 0, 1024), CPU(1, 1, 1, 2, 2, 0, 1024),
		CPU(0, 0, 0, 0, 0, 1, 1024), CPU(0, 0, 0, 1, 1, 1, 1024),
		CPU(1, 1, 1, 2, 2, 1, 1024), CPU(1, 1, 1, 3, 3, 0, 1024),
	};
	char path[512];

	make_x86();
	put("0-2,4-7\n", "sys/devices/system/cpu/online");
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu3", root);
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	put("", "sys/devices/system/cpu/cpu3/online");	/* what an offline CPU keeps */
	if (host_topology_read(root, &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	check_cpus(&t, want, 7);
	assert_int_equal(t.nr_nodes, 2);
	char *text = round_trip(&t);
	assert_non_null(strstr(text, "\ncpu 6 package=1 core=3 thread=0 llc=1 cluster=3 node=1 capacity=1024\n"));
	assert_null(strstr(text, "packages"));
	free(text);
	topology_free(&t);
}

static void test_arm(void **state)
{
	struct sched_topology t;
	struct sched_topo_cpu want[8];

	for (int i = 0; i < 8; i++)
		want[i] = CPU(0, 0, 0, i / 4, i, 0, i < 4 ? 446 : 1024);
	make_arm();
	if (host_topology_read(root, &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	check_cpus(&t, want, 8);
	assert_int_equal(t.nr_nodes, 1);
	assert_int_equal(t.distance[0], 10);
	char *text = round_trip(&t);
	assert_non_null(strstr(text, "packages 1\ncores 8\nthreads 1\nllcs 1\nclusters 2\nnodes 1\n"));
	assert_non_null(strstr(text, "capacity 0-3 446\n"));
	free(text);
	topology_free(&t);

	/* capacities scale so the biggest is 1024; no online file: the cpuN folders */
	for (int cpu = 0; cpu < 8; cpu++)
		put(cpu < 4 ? "223\n" : "512\n", "sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	char path[512];
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", root);
	unlink(path);
	if (host_topology_read(root, &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	check_cpus(&t, want, 8);
	topology_free(&t);

	/* the largest a sysfs file can say scales without overflow (UBSan watches) */
	for (int cpu = 0; cpu < 8; cpu++)
		put(cpu < 4 ? "4026531839\n" : "9223372036854775807\n",
		    "sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	for (int i = 0; i < 8; i++)
		want[i].capacity = i < 4 ? 1 : 1024;
	if (host_topology_read(root, &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	check_cpus(&t, want, 8);
	topology_free(&t);
}

/* 16 threads in one core (issue 19): what --host writes, the .topo parser reads back. */
static void test_wide_smt(void **state)
{
	struct sched_topo_cpu want[16];

	put("0-15\n", "sys/devices/system/cpu/online");
	for (int cpu = 0; cpu < 16; cpu++) {
		put("0\n", "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		put("0\n", "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		put("0-15\n", "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		put("0-15\n", "sys/devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		want[cpu] = CPU(0, 0, 0, 0, 0, cpu, 1024);
	}
	struct sched_topology t;
	if (host_topology_read(root, &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	check_cpus(&t, want, 16);
	char *text = round_trip(&t);
	assert_non_null(strstr(text, "threads 16\n"));
	free(text);
	topology_free(&t);
}

static void test_missing(void **state)
{
	struct sched_topology t;

	assert_int_equal(host_topology_read(root, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/sys/devices/system/cpu: "));
	assert_int_equal(t.nr_cpus, 0);
	assert_null(t.cpu);

	/* only the online list: a core per CPU, package 0, one LLC and node */
	put("0-1\n", "sys/devices/system/cpu/online");
	if (host_topology_read(root, &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	const struct sched_topo_cpu want[2] = { CPU(0, 0, 0, 0, 0, 0, 1024), CPU(0, 0, 0, 0, 1, 0, 1024) };
	check_cpus(&t, want, 2);
	free(round_trip(&t));
	topology_free(&t);
}

static void test_real_sys(void **state)
{
	struct sched_topology t;

	if (host_topology_read("/", &t, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_true(t.nr_cpus >= 1);
	assert_true(t.nr_nodes >= 1);
	free(round_trip(&t));
	topology_free(&t);

	struct scenario_file f;
	const char scn[] = "topology host\nduration 1ms\n";
	if (scenario_parse("host.scn", scn, sizeof(scn) - 1, &f, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_true(f.topo.nr_cpus >= 1);
	assert_string_equal(f.topo.name, "host");
	scenario_free(&f);
}

/* ---- the `cpu` lines of the .topo grammar ---- */

#define TOPO_ERROR(text, msg) do { \
		struct sched_topology t_; \
		assert_int_equal(topology_parse("x.topo", text, strlen(text), &t_, err, sizeof(err)), -1); \
		assert_string_equal(err, msg); \
		assert_null(t_.cpu); \
	} while (0)

static void test_cpu_lines(void **state)
{
	struct sched_topology t;
	const char *ok = "cpu 1 package=0 core=1 capacity=512\n"
			 "cpu 0 package=0 core=0 thread=0 llc=3 cluster=4 node=1 capacity=1024\n"
			 "cpu 2 package=1 core=2 llc=5 node=0\n"
			 "distance 10 30\ndistance 30 10\n";

	assert_int_equal(topology_parse("x.topo", ok, strlen(ok), &t, err, sizeof(err)), 0);
	const struct sched_topo_cpu want[3] = {
		CPU(0, 1, 3, 4, 0, 0, 1024), CPU(0, 0, 0, 0, 1, 0, 512), CPU(1, 0, 5, 5, 2, 0, 1024),
	};
	check_cpus(&t, want, 3);
	assert_string_equal(t.name, "x");
	assert_int_equal(t.nr_nodes, 2);
	assert_int_equal(t.distance[1], 30);
	topology_free(&t);

	TOPO_ERROR("cpu 0 package=0\n", "x.topo:1:5: cpu 0 needs core=");
	TOPO_ERROR("cpu 0 package=0 core=0 sock=1\n",
		   "x.topo:1:24: unknown key 'sock' (expected package, core, thread, llc, cluster, node, capacity)");
	TOPO_ERROR("cpu 0 package=0 core=0 core=1\n", "x.topo:1:24: duplicate key 'core'");
	TOPO_ERROR("cpu 0 package=0 core=x\n", "x.topo:1:22: core 'x' is not an integer");
	TOPO_ERROR("cpu 0 package=0 core=0 thread=1024\n",
		   "x.topo:1:31: thread '1024' is out of range (0..1023)");
	TOPO_ERROR("cpu 0 package=0 core\n", "x.topo:1:17: expected KEY=VALUE, got 'core'");
	TOPO_ERROR("cpu 1024 package=0 core=0\n", "x.topo:1:5: CPU '1024' is out of range (0..1023)");
	TOPO_ERROR("cpu 1 package=0 core=0\n", "x.topo:1:5: cpu 1: the 1 cpu lines must number the CPUs 0-0");
	TOPO_ERROR("cpu 0 package=0 core=0\ncpu 0 package=0 core=1\n",
		   "x.topo:2:5: duplicate 'cpu 0' (first at line 1)");
	TOPO_ERROR("cpu 0 package=0 core=0\ncpu 1 package=0 core=0\n",
		   "x.topo:2:5: cpu 1 is thread 0 of core 0, as cpu 0 is");
	TOPO_ERROR("cpu 0 package=0 core=0\ncpu 1 package=0 core=0 thread=1 cluster=1\n",
		   "x.topo:2:33: cpu 1 is in core 0 with cpu 0 but in cluster 1, not 0 (a core lies in one cluster)");
	TOPO_ERROR("cpu 0 package=0 core=0 llc=0\ncpu 1 package=1 core=1 llc=0\n",
		   "x.topo:2:7: cpu 1 is in llc 0 with cpu 0 but in package 1, not 0 (a llc lies in one package)");
	TOPO_ERROR("cpu 0 package=0 core=0 node=1\n",
		   "x.topo:1:5: no cpu line is in node 0 (nodes are numbered 0-1 without gaps)");
	TOPO_ERROR("packages 1\ncpu 0 package=0 core=0\n", "x.topo:1:10: 'packages' cannot be used with 'cpu' lines");
	TOPO_ERROR("cpu 0 package=0 core=0 capacity=5\n",
		   "x.topo:1:5: no CPU has capacity 1024: capacities are relative to the biggest CPU, which has 1024");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_x86, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x86_offline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wide_smt, setup, teardown),
		cmocka_unit_test(test_real_sys),
		cmocka_unit_test(test_cpu_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
