// SPDX-License-Identifier: GPL-2.0
/*
 * The host's topology from sysfs (Documentation/ABI/stable/sysfs-devices-system-cpu,
 * Documentation/ABI/testing/sysfs-devices-system-cpu, .../sysfs-devices-node):
 *
 *   devices/system/cpu/online                      CPU list; missing: every cpuN dir
 *   devices/system/cpu/cpuN/topology/physical_package_id   missing or -1: package 0
 *   devices/system/cpu/cpuN/topology/core_cpus_list        (older kernels:
 *   devices/system/cpu/cpuN/topology/thread_siblings_list)  the SMT siblings
 *   devices/system/cpu/cpuN/topology/core_id                without a sibling list
 *   devices/system/cpu/cpuN/topology/cluster_id            missing or -1: no clusters
 *   devices/system/cpu/cpuN/cache/indexK/{level,type,shared_cpu_list}
 *                                    the LLC: the highest-level Unified or Data cache;
 *                                    none: one LLC per package
 *   devices/system/cpu/cpuN/cpu_capacity            arm/riscv; missing (x86): 1024
 *   devices/system/node/nodeN/{cpulist,distance}    missing: one node, distance 10
 *
 * Only online CPUs are kept (an offline CPU has no topology/ directory and
 * cannot run tasks); they are renumbered densely in ascending order, so on
 * a host with CPU 2 offline the simulated CPU 2 is the host's CPU 3. Nodes
 * without online CPUs (memory-only or CXL nodes, or nodes of offline CPUs)
 * are dropped and the rest renumbered densely in ascending order.
 *
 * The ids nest as the scheduler's levels do: an LLC lies in one package and
 * one node (as x86 splits a package-wide LLC by node under Sub-NUMA
 * Clustering), a cluster in one LLC, a core in one cluster.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_topology.h"
#include "src/base/mem.h"
#include "topology_file.h"

#define ID_LIMIT 65536		/* sysfs CPU and node numbers we accept */
#define MAX_CACHES 32		/* cache/indexK directories looked at */
#define LOCAL_DISTANCE 10
#define REMOTE_DISTANCE 20
#define MAX_DISTANCE 255
#define MAX_CAPACITY 1024

struct reader {
	char root[1024];	/* sysroot + "/sys/devices/system", no trailing '/' */
	char *err;
	size_t errlen;
};

/* The text of root/rel (at most size - 1 bytes, trailing blanks cut); -1 when unreadable. */
static int read_text(const struct reader *r, char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int read_text(const struct reader *r, char *buf, size_t size, const char *fmt, ...)
{
	char rel[256], path[1400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", r->root, rel);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = 0;
	while (n + 1 < size) {
		ssize_t k = read(fd, buf + n, size - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	close(fd);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = 0;
	return 0;
}

static int read_long(const struct reader *r, long *v, const char *fmt, int a, int b)
{
	char buf[64], *end;

	if (read_text(r, buf, sizeof(buf), fmt, a, b) < 0 || !buf[0])
		return -1;
	errno = 0;
	long x = strtol(buf, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

/*
 * Call fn on every number of a kernel CPU/node list ("0-3,8,10-11"); ids at
 * or above ID_LIMIT are skipped. -1 on a malformed list.
 */
static int each_in_list(const char *s, void (*fn)(void *, int), void *arg)
{
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s || a < 0)
			return -1;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		for (long i = a; i <= b && i < ID_LIMIT; i++)
			fn(arg, (int)i);
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

static void mark(void *arg, int id)
{
	((bool *)arg)[id] = true;
}

struct first_online {
	const int *dense;	/* [ID_LIMIT]: sysfs CPU -> our CPU, -1 offline */
	int first;
};

static void first_online_fn(void *arg, int id)
{
	struct first_online *f = arg;
	if (f->first < 0 && f->dense[id] >= 0)
		f->first = f->dense[id];
}

/* Our number of the first online CPU of a list file; -1 when missing or none online. */
static int list_first(const struct reader *r, const int *dense, const char *fmt, int a, int b)
{
	char buf[8192];
	struct first_online f = { dense, -1 };

	if (read_text(r, buf, sizeof(buf), fmt, a, b) < 0 || each_in_list(buf, first_online_fn, &f) < 0)
		return -1;
	return f.first;
}

/* Mark the numbered entries (cpuN, nodeN) of a directory; -1 when it cannot be read. */
static int scan_dir(const struct reader *r, const char *sub, const char *prefix, bool *seen)
{
	char path[1400];
	size_t pl = strlen(prefix);

	snprintf(path, sizeof(path), "%s/%s", r->root, sub);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));) {
		const char *p = e->d_name;
		char *end;
		if (strncmp(p, prefix, pl) || p[pl] < '0' || p[pl] > '9')
			continue;
		long id = strtol(p + pl, &end, 10);
		if (!*end && id < ID_LIMIT)
			seen[id] = true;
	}
	closedir(d);
	return 0;
}

/* What sysfs says of one online CPU, before ids are assigned. */
struct raw_cpu {
	int sysid;
	long package;		/* physical_package_id */
	long cluster;		/* cluster_id, -1 none */
	int core_rep;		/* first online CPU of its core, by our numbering */
	int llc_rep;		/* first online CPU sharing its LLC, -1 unknown */
	int node;		/* our node number */
	long capacity;		/* cpu_capacity as read */
};

/* The LLC's first online CPU: shared_cpu_list of the highest-level Unified/Data cache. */
static int read_llc(const struct reader *r, const int *dense, int sysid)
{
	long best = -1;
	int rep = -1;

	for (int k = 0; k < MAX_CACHES; k++) {
		char type[32];
		long level;
		if (read_text(r, type, sizeof(type), "cpu/cpu%d/cache/index%d/type", sysid, k) < 0)
			break;
		if (strcmp(type, "Unified") && strcmp(type, "Data"))
			continue;
		if (read_long(r, &level, "cpu/cpu%d/cache/index%d/level", sysid, k) < 0 || level <= best)
			continue;
		int f = list_first(r, dense, "cpu/cpu%d/cache/index%d/shared_cpu_list", sysid, k);
		if (f >= 0) {
			best = level;
			rep = f;
		}
	}
	return rep;
}

/* Densely number the CPUs by a key: CPUs with equal keys share an id, in order of first appearance. */
static void number_by(struct sched_topology *t, const long (*key)[4], s32 *(*field)(struct sched_topo_cpu *))
{
	int next = 0;

	for (int i = 0; i < t->nr_cpus; i++) {
		int j = 0;
		while (j < i && memcmp(key[j], key[i], sizeof(key[i])))
			j++;
		*field(&t->cpu[i]) = j < i ? *field(&t->cpu[j]) : next++;
	}
}

static s32 *f_package(struct sched_topo_cpu *c) { return &c->package; }
static s32 *f_llc(struct sched_topo_cpu *c) { return &c->llc; }
static s32 *f_cluster(struct sched_topo_cpu *c) { return &c->cluster; }
static s32 *f_core(struct sched_topo_cpu *c) { return &c->core; }

/* Nodes: cpu -> node, and the distance matrix of the nodes that have online CPUs. */
static void read_nodes(const struct reader *r, struct raw_cpu *raw, int n, struct sched_topology *t)
{
	bool *has = xcalloc(ID_LIMIT, sizeof(*has));
	int *ids, nr = 0, kept = 0;
	char *buf = xmalloc(65536);

	for (int i = 0; i < n; i++)
		raw[i].node = -1;
	if (read_text(r, buf, 65536, "node/online") < 0 || each_in_list(buf, mark, has) < 0) {
		memset(has, 0, ID_LIMIT * sizeof(*has));
		scan_dir(r, "node", "node", has);
	}
	for (int id = 0; id < ID_LIMIT; id++)
		nr += has[id];
	ids = xcalloc((size_t)nr + 1, sizeof(*ids));
	nr = 0;
	for (int id = 0; id < ID_LIMIT; id++)
		if (has[id])
			ids[nr++] = id;

	/* which CPUs each node has; a node keeps its place only if it has one */
	int *keep = xcalloc((size_t)nr + 1, sizeof(*keep));
	for (int k = 0; k < nr; k++) {
		bool *in = has;		/* reused as the node's CPU set */
		bool any = false;
		memset(in, 0, ID_LIMIT * sizeof(*in));
		keep[k] = -1;
		if (read_text(r, buf, 65536, "node/node%d/cpulist", ids[k]) < 0 ||
		    each_in_list(buf, mark, in) < 0)
			continue;
		for (int i = 0; i < n; i++)
			if (in[raw[i].sysid] && raw[i].node < 0) {
				raw[i].node = kept;
				any = true;
			}
		if (any)
			keep[k] = kept++;
	}
	/* no node information (or none with our CPUs): one node */
	if (!kept)
		kept = 1;
	for (int i = 0; i < n; i++)
		if (raw[i].node < 0)
			raw[i].node = 0;	/* a CPU no node lists: the first node */

	t->nr_nodes = kept;
	t->distance = xcalloc((size_t)kept * (size_t)kept, sizeof(*t->distance));
	for (int i = 0; i < kept; i++)
		for (int j = 0; j < kept; j++)
			t->distance[i * kept + j] = i == j ? LOCAL_DISTANCE : REMOTE_DISTANCE;
	for (int k = 0; k < nr; k++) {
		if (keep[k] < 0 || read_text(r, buf, 65536, "node/node%d/distance", ids[k]) < 0)
			continue;
		/* one value per online node, in node order */
		long v[ID_LIMIT / 64];
		int nv = 0;
		char *p = buf, *end;
		while (nv < (int)ARRAY_SIZE(v)) {
			long x = strtol(p, &end, 10);
			if (end == p)
				break;
			v[nv++] = x;
			p = end;
		}
		if (nv != nr)
			continue;	/* not what we expect: keep the defaults */
		for (int m = 0; m < nr; m++) {
			if (keep[m] < 0)
				continue;
			int i = keep[k], j = keep[m];
			long d = v[m];
			/* the SLIT's rules, which firmware sometimes breaks: 10 to
			 * itself, above 10 to another node, at most 255 */
			if (i == j)
				d = LOCAL_DISTANCE;
			else if (d <= LOCAL_DISTANCE)
				d = LOCAL_DISTANCE + 1;
			else if (d > MAX_DISTANCE)
				d = MAX_DISTANCE;
			t->distance[i * kept + j] = (u32)d;
		}
	}
	free(keep);
	free(has);
	free(ids);
	free(buf);
}

/*
 * The online CPUs (cpu/online, else the cpuN folders) numbered densely in
 * dense[sysfs id]; how many, or -1 with err set.
 */
static int online_cpus(const struct reader *r, bool *online, int *dense, char *buf, size_t size)
{
	int n = 0;

	if (read_text(r, buf, size, "cpu/online") < 0 || each_in_list(buf, mark, online) < 0) {
		memset(online, 0, ID_LIMIT * sizeof(*online));
		if (scan_dir(r, "cpu", "cpu", online) < 0) {
			snprintf(r->err, r->errlen, "%s/cpu: %s", r->root, strerror(errno));
			return -1;
		}
	}
	for (int id = 0; id < ID_LIMIT; id++) {
		dense[id] = online[id] ? n : -1;
		n += online[id];
	}
	if (!n) {
		snprintf(r->err, r->errlen, "%s/cpu: no online CPUs", r->root);
		return -1;
	}
	if (n > SCHED_MAX_CPUS) {
		snprintf(r->err, r->errlen, "%s/cpu: %d online CPUs (the limit is %d)", r->root, n,
			 SCHED_MAX_CPUS);
		return -1;
	}
	return n;
}

/* The first CPU of sysfs CPU id's core: its sibling list, else the package's CPU with its core_id. */
static int core_rep(const struct reader *r, const int *dense, const struct raw_cpu *raw, int id)
{
	int rep = list_first(r, dense, "cpu/cpu%d/topology/core_cpus_list", id, 0);
	long v, cj;

	if (rep < 0)
		rep = list_first(r, dense, "cpu/cpu%d/topology/thread_siblings_list", id, 0);
	if (rep >= 0)
		return rep;
	if (read_long(r, &v, "cpu/cpu%d/topology/core_id", id, 0) == 0)
		for (int j = 0; j < dense[id]; j++)
			if (raw[j].package == raw[dense[id]].package &&
			    read_long(r, &cj, "cpu/cpu%d/topology/core_id", raw[j].sysid, 0) == 0 && cj == v)
				return j;
	return dense[id];
}

/* What sysfs says of the online CPU id: its package, cluster, core, LLC and capacity. */
static void read_cpu(const struct reader *r, const int *dense, struct raw_cpu *raw, int id)
{
	struct raw_cpu *c = &raw[dense[id]];
	long v;

	c->sysid = id;
	c->package = read_long(r, &v, "cpu/cpu%d/topology/physical_package_id", id, 0) < 0 || v < 0 ? 0 : v;
	c->cluster = read_long(r, &v, "cpu/cpu%d/topology/cluster_id", id, 0) < 0 || v < 0 ? -1 : v;
	c->core_rep = core_rep(r, dense, raw, id);
	c->llc_rep = read_llc(r, dense, id);
	if (read_long(r, &v, "cpu/cpu%d/cpu_capacity", id, 0) < 0 || v < 1)
		v = MAX_CAPACITY;
	c->capacity = v;
}

/* Capacities scaled so that the biggest CPU has SCHED_CAPACITY_SCALE, as the kernel does. */
static void scale_capacities(const struct raw_cpu *raw, int n, struct sched_topology *out)
{
	long big = 1;

	for (int i = 0; i < n; i++) {
		big = raw[i].capacity > big ? raw[i].capacity : big;
		out->cpu[i].node = raw[i].node;
	}
	for (int i = 0; i < n; i++) {
		/* in 128 bits: a fake tree's capacity may be LONG_MAX (issue 19) */
		long cap = (long)(((__int128)raw[i].capacity * MAX_CAPACITY + big / 2) / big);
		out->cpu[i].capacity = (u32)(cap < 1 ? 1 : cap > MAX_CAPACITY ? MAX_CAPACITY : cap);
	}
}

/* Package, LLC, cluster, core and thread ids from 0: each level's key holds the level above it, so the ids nest. */
static void number_levels(const struct raw_cpu *raw, int n, struct sched_topology *out)
{
	long(*key)[4] = xcalloc((size_t)n, sizeof(*key));

	for (int i = 0; i < n; i++)
		memcpy(key[i], (long[4]){ raw[i].package }, sizeof(key[i]));
	number_by(out, (const long (*)[4])key, f_package);
	for (int i = 0; i < n; i++)
		memcpy(key[i], (long[4]){ out->cpu[i].package, raw[i].node, raw[i].llc_rep }, sizeof(key[i]));
	number_by(out, (const long (*)[4])key, f_llc);
	for (int i = 0; i < n; i++)
		memcpy(key[i], (long[4]){ out->cpu[i].llc, raw[i].cluster }, sizeof(key[i]));
	number_by(out, (const long (*)[4])key, f_cluster);
	for (int i = 0; i < n; i++)
		memcpy(key[i], (long[4]){ out->cpu[i].cluster, raw[raw[i].core_rep].core_rep }, sizeof(key[i]));
	number_by(out, (const long (*)[4])key, f_core);
	for (int i = 0; i < n; i++) {
		int th = 0;
		for (int j = 0; j < i; j++)
			th += out->cpu[j].core == out->cpu[i].core;
		out->cpu[i].thread = th;
	}
	free(key);
}

int host_topology_read(const char *sysroot, struct sched_topology *out, char *err, size_t errlen)
{
	struct reader r = { .err = err, .errlen = errlen };
	bool *online = xcalloc(ID_LIMIT, sizeof(*online));
	int *dense = xmalloc(ID_LIMIT * sizeof(*dense));
	struct raw_cpu *raw = NULL;
	char *buf = xmalloc(65536);
	int n, rc = -1;

	memset(out, 0, sizeof(*out));
	if (!sysroot || !*sysroot)
		sysroot = "/";
	size_t sl = strlen(sysroot);
	if ((size_t)snprintf(r.root, sizeof(r.root), "%.*s/sys/devices/system",
			     (int)(sysroot[sl - 1] == '/' ? sl - 1 : sl), sysroot) >= sizeof(r.root)) {
		snprintf(err, errlen, "%.64s...: path too long", sysroot);
		goto out;
	}
	n = online_cpus(&r, online, dense, buf, 65536);
	if (n < 0)
		goto out;
	raw = xcalloc((size_t)n, sizeof(*raw));
	out->cpu = xcalloc((size_t)n, sizeof(*out->cpu));
	out->nr_cpus = n;
	snprintf(out->name, sizeof(out->name), "host");
	for (int id = 0; id < ID_LIMIT; id++)
		if (dense[id] >= 0)
			read_cpu(&r, dense, raw, id);
	read_nodes(&r, raw, n, out);
	scale_capacities(raw, n, out);
	number_levels(raw, n, out);
	rc = 0;
out:
	if (rc < 0)
		topology_free(out);
	free(online);
	free(dense);
	free(raw);
	free(buf);
	return rc;
}

/* ---- writing a .topo ---- */

/* "0-3,8": the CPUs whose capacity is cap. */
static void print_cap_list(FILE *f, const struct sched_topology *t, u32 cap)
{
	bool first = true;

	for (int i = 0; i < t->nr_cpus; i++) {
		if (t->cpu[i].capacity != cap)
			continue;
		int j = i;
		while (j + 1 < t->nr_cpus && t->cpu[j + 1].capacity == cap)
			j++;
		fprintf(f, "%s%d", first ? "" : ",", i);
		if (j > i)
			fprintf(f, "-%d", j);
		first = false;
		i = j;
	}
}

static int count_distinct(const struct sched_topology *t, s32 *(*field)(struct sched_topo_cpu *))
{
	int n = 0;

	for (int i = 0; i < t->nr_cpus; i++) {
		int j = 0;
		while (j < i && *field(&t->cpu[j]) != *field(&t->cpu[i]))
			j++;
		n += j == i;
	}
	return n;
}

static s32 *f_thread(struct sched_topo_cpu *c) { return &c->thread; }

/* numbering: 0 linear, 1 smt-last, -1 per-CPU lines */
static void emit(FILE *f, const struct sched_topology *t, int numbering)
{
	int P = count_distinct(t, f_package), C = count_distinct(t, f_core) / P;
	int T = count_distinct(t, f_thread), L = count_distinct(t, f_llc) / P;
	int K = count_distinct(t, f_cluster) / (L * P), N = t->nr_nodes;

	fprintf(f, "# %d CPUs, read from /sys by schedscope topology --host\n", t->nr_cpus);
	if (t->name[0])
		fprintf(f, "name %s\n", t->name);
	if (numbering >= 0) {
		fprintf(f, "packages %d\ncores %d\nthreads %d\nllcs %d\nclusters %d\nnodes %d\n", P, C, T, L, K, N);
		if (numbering)
			fprintf(f, "numbering smt-last\n");
	}
	for (int i = 0; i < N && N > 1; i++) {
		fprintf(f, "distance");
		for (int j = 0; j < N; j++)
			fprintf(f, " %u", t->distance[i * N + j]);
		fputc('\n', f);
	}
	if (numbering < 0) {
		for (int i = 0; i < t->nr_cpus; i++) {
			const struct sched_topo_cpu *c = &t->cpu[i];
			fprintf(f, "cpu %d package=%d core=%d thread=%d llc=%d cluster=%d node=%d capacity=%u\n",
				i, c->package, c->core, c->thread, c->llc, c->cluster, c->node, c->capacity);
		}
		return;
	}
	for (int i = 0; i < t->nr_cpus; i++) {
		u32 cap = t->cpu[i].capacity;
		int j = 0;
		while (j < i && t->cpu[j].capacity != cap)
			j++;
		if (j < i || cap == MAX_CAPACITY)
			continue;
		fprintf(f, "capacity ");
		print_cap_list(f, t, cap);
		fprintf(f, " %u\n", cap);
	}
}

static bool same(const struct sched_topology *a, const struct sched_topology *b)
{
	return a->nr_cpus == b->nr_cpus && a->nr_nodes == b->nr_nodes && !strcmp(a->name, b->name) &&
	       !memcmp(a->cpu, b->cpu, (size_t)a->nr_cpus * sizeof(*a->cpu)) &&
	       !memcmp(a->distance, b->distance, (size_t)a->nr_nodes * (size_t)a->nr_nodes * sizeof(*a->distance));
}

int host_topology_write(FILE *f, const struct sched_topology *t)
{
	/* the short form when it describes this machine exactly: try it on the parser */
	for (int numbering = 0; numbering < 2; numbering++) {
		char *text = NULL, err[256];
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);
		if (!m)
			break;
		emit(m, t, numbering);
		if (fclose(m)) {
			free(text);
			break;
		}
		struct sched_topology back;
		bool ok = topology_parse("host.topo", text, len, &back, err, sizeof(err)) == 0 && same(&back, t);
		if (ok)
			fwrite(text, 1, len, f);
		topology_free(&back);
		free(text);
		if (ok)
			return ferror(f) ? -1 : 0;
	}
	emit(f, t, -1);
	return ferror(f) ? -1 : 0;
}
