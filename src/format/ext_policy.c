// SPDX-License-Identifier: GPL-2.0
/* Checking and loading ext policy plug-ins: see ext_policy.h. */
#include <dlfcn.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sched/api/ext.h"
#include "ext_policy.h"
#include "lex.h"

#ifndef SCHEDSCOPE_DATADIR
#define SCHEDSCOPE_DATADIR "/usr/local/share/schedscope"
#endif

/* Limits that keep the engine's arena sane; far above what a policy needs. */
#define MAX_GLOBAL_SIZE (256u << 20)
#define MAX_PER_TASK_OR_CPU (1u << 20)
#define MAX_DISPATCH_BATCH (1u << 16)

int ext_policy_resolve(const char *name, const char *scenario_path, char *path, size_t pathlen, char *err,
		       size_t errlen)
{
	const char *slash = strrchr(scenario_path, '/');
	const char *env = getenv("SCHEDSCOPE_DATADIR");
	size_t n = strlen(name);
	char dir[1024];

	if (!n) {
		snprintf(err, errlen, "sched ext: needs the policy's shared object (ext:PATH or ext:NAME)");
		return -1;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == scenario_path ? 1 : (int)(slash - scenario_path),
			 scenario_path);
	if (strchr(name, '/') || (n > 3 && !strcmp(name + n - 3, ".so"))) {
		int k = name[0] == '/' ? snprintf(path, pathlen, "%s", name)
				       : snprintf(path, pathlen, "%s/%s", dir, name);

		if (k < 0 || (size_t)k >= pathlen) {
			snprintf(err, errlen, "policy path '%.64s...' is too long", name);
			return -1;
		}
		return 0;
	}
	const char *const where[][2] = {
		{ dir, "" },	 { dir, "/build/ext" },		 { dir, "/../build/ext" },
		{ env, "/ext" }, { SCHEDSCOPE_DATADIR, "/ext" },
	};
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		int k;

		if (!where[i][0] || !where[i][0][0])
			continue;
		k = snprintf(path, pathlen, "%s%s/%s.so", where[i][0], where[i][1], name);
		if (k > 0 && (size_t)k < pathlen && access(path, F_OK) == 0)
			return 0;
	}
	snprintf(err, errlen,
		 "no policy '%.64s' (looked for %.64s.so next to the scenario, in build/ext and "
		 "../build/ext from there, and in %s/ext)",
		 name, name, SCHEDSCOPE_DATADIR);
	return -1;
}

/* ---- the ELF checks ---- */

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#elif defined(__riscv)
#define HOST_MACHINE EM_RISCV
#endif

/* Writable sections the toolchain makes and the loader protects or owns. */
static bool linker_section(const char *name)
{
	static const char *const names[] = {
		".got",	       ".got.plt",	 ".dynamic",	 ".init_array",
		".fini_array", ".preinit_array", ".data.rel.ro", ".tm_clone_table",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* What crtbeginS.o puts in .data and .bss when a plug-in is linked with the start files. */
static bool toolchain_symbol(const char *name)
{
	return !strcmp(name, "completed.0") || !strcmp(name, "__dso_handle") || !strcmp(name, "__TMC_END__");
}

/* Library calls a policy may not make, and why. */
static const char *forbidden_call(const char *name)
{
	static const char *const alloc[] = {
		"malloc",	  "calloc",   "realloc", "reallocarray", "aligned_alloc",
		"posix_memalign", "memalign", "valloc",	 "pvalloc",	 "mmap",
		"mmap64",	  "sbrk",     "brk",	 "strdup",	 "strndup",
	};
	static const char *const nondet[] = {
		"time",	     "clock_gettime", "gettimeofday", "clock",		"rand",	   "random",
		"rand_r",    "srand",	      "srandom",      "drand48",	"lrand48", "mrand48",
		"getrandom", "arc4random",    "getpid",	      "pthread_create",
	};

	for (size_t i = 0; i < sizeof(alloc) / sizeof(alloc[0]); i++)
		if (!strcmp(name, alloc[i]))
			return "memory it allocates lies outside the engine's arena, so checkpoints and "
			       "rewind "
			       "would not cover it: size .global_size, .task_size or .cpu_size instead";
	for (size_t i = 0; i < sizeof(nondet) / sizeof(nondet[0]); i++)
		if (!strcmp(name, nondet[i]))
			return "the simulation must give the same result every run: use bpf_ktime_get_ns() "
			       "for the (simulated) time, and derive anything random from the task or time";
	return NULL;
}

struct elf_file {
	const unsigned char *data;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *shstr;
	size_t shstr_size;
};

static bool in_file(const struct elf_file *f, u64 off, u64 len)
{
	return off <= f->size && len <= f->size - off;
}

static const char *str_at(const char *tab, size_t size, u32 off)
{
	if (off >= size || !memchr(tab + off, 0, size - off))
		return "?";
	return tab + off;
}

static const char *section_name(const struct elf_file *f, int i)
{
	return str_at(f->shstr, f->shstr_size, f->sh[i].sh_name);
}

/* Append ", name" to list (bounded). */
static void list_add(char *list, size_t len, const char *name)
{
	size_t n = strlen(list);

	if (n + 8 >= len)
		return;
	snprintf(list + n, len - n, "%s%s", n ? ", " : "", name);
	if (strlen(list) + 4 >= len)
		snprintf(list + len - 5, 5, "...");
}

/* A symbol table we can walk, with its strings. */
struct symtab {
	const unsigned char *syms;
	u64 entsize, nr;
	const char *strs;
	u64 strsize;
};

/* Opens section idx as a symbol table: in the file, aligned, entries the size of a symbol. */
static bool symtab_open(const struct elf_file *f, int idx, struct symtab *t)
{
	const Elf64_Shdr *s = &f->sh[idx], *strs;

	if (s->sh_link >= f->eh->e_shnum || s->sh_entsize < sizeof(Elf64_Sym) || s->sh_entsize % 8 ||
	    s->sh_offset % 8 || !in_file(f, s->sh_offset, s->sh_size))
		return false;
	strs = &f->sh[s->sh_link];
	if (!in_file(f, strs->sh_offset, strs->sh_size))
		return false;
	t->syms = f->data + s->sh_offset;
	t->entsize = s->sh_entsize;
	/* by count: a huge sh_entsize must not wrap an offset back into the file */
	t->nr = s->sh_size / s->sh_entsize;
	t->strs = (const char *)f->data + strs->sh_offset;
	t->strsize = strs->sh_size;
	return true;
}

static const Elf64_Sym *symtab_sym(const struct symtab *t, u64 i, const char **name)
{
	const Elf64_Sym *sym = (const Elf64_Sym *)(t->syms + i * t->entsize);

	*name = str_at(t->strs, t->strsize, sym->st_name);
	return sym;
}

/*
 * Symbols defined in section sec of a symbol table: the user's (not the
 * toolchain's) go in list; returns how many there were.
 */
static int symbols_in(const struct elf_file *f, int symtab, int sec, char *list, size_t len)
{
	struct symtab t;
	int nr = 0;

	if (!symtab_open(f, symtab, &t))
		return 0;
	for (u64 i = 0; i < t.nr; i++) {
		const char *name;
		const Elf64_Sym *sym = symtab_sym(&t, i, &name);
		int type = ELF64_ST_TYPE(sym->st_info);

		if (sym->st_shndx != sec || (type != STT_OBJECT && type != STT_TLS) || toolchain_symbol(name))
			continue;
		if (!sym->st_size && type == STT_OBJECT)
			continue;
		list_add(list, len, name);
		nr++;
	}
	return nr;
}

static int find_section(const struct elf_file *f, u32 type)
{
	for (int i = 0; i < f->eh->e_shnum; i++)
		if (f->sh[i].sh_type == type)
			return i;
	return -1;
}

/* Refuse writable global data; say what holds it and what to use instead. */
static int check_writable(const struct elf_file *f, const char *path, char *err, size_t errlen)
{
	int symtab = find_section(f, SHT_SYMTAB);
	char list[256] = "", secs[128] = "";
	u64 bytes = 0;
	int nr = 0;

	for (int i = 1; i < f->eh->e_shnum; i++) {
		const Elf64_Shdr *s = &f->sh[i];
		const char *name = section_name(f, i);
		int here;

		if (!(s->sh_flags & SHF_ALLOC) || !(s->sh_flags & SHF_WRITE) || !s->sh_size ||
		    linker_section(name))
			continue;
		here = symtab >= 0 ? symbols_in(f, symtab, i, list, sizeof(list)) : 1;
		if (!here)
			continue;
		nr += here;
		bytes += s->sh_size;
		list_add(secs, sizeof(secs), name);
	}
	if (!nr)
		return 0;
	if (symtab < 0)
		snprintf(err, errlen,
			 "%s: writable global data in %s (%llu bytes, stripped: whose cannot be "
			 "told)",
			 path, secs, (unsigned long long)bytes);
	else
		snprintf(err, errlen, "%s: writable global data of its own in %s (%s)", path, secs, list);
	snprintf(err + strlen(err), errlen - strlen(err),
		 ": a policy's state must live in memory schedscope hands out, so checkpoints and rewind "
		 "cover it; put it in the struct .global_size sizes (scx_global_data()), per task "
		 "(.task_size, scx_task_data()) or per CPU (.cpu_size, scx_cpu_data()); constants may "
		 "stay as static const");
	return -1;
}

/* Refuse calls into the C library that escape the arena or determinism. */
static int check_calls(const struct elf_file *f, const char *path, char *err, size_t errlen)
{
	int dynsym = find_section(f, SHT_DYNSYM);
	struct symtab t;

	if (dynsym < 0 || !symtab_open(f, dynsym, &t))
		return 0;
	for (u64 i = 0; i < t.nr; i++) {
		const char *name;
		const Elf64_Sym *sym = symtab_sym(&t, i, &name);
		const char *why;

		if (sym->st_shndx != SHN_UNDEF || !(why = forbidden_call(name)))
			continue;
		snprintf(err, errlen, "%s: the policy calls %s(): %s", path, name, why);
		return -1;
	}
	return 0;
}

static int check_elf(const struct elf_file *f, const char *path, char *err, size_t errlen)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->data;

	if (f->size < EI_NIDENT || memcmp(f->data, ELFMAG, SELFMAG)) {
		snprintf(err, errlen,
			 "%s: not an ELF shared object (build the policy with `schedscope ext "
			 "build`)",
			 path);
		return -1;
	}
	if (f->data[EI_CLASS] != ELFCLASS64 || f->size < sizeof(*eh)) {
		snprintf(err, errlen, "%s: not a 64-bit ELF object: this schedscope loads 64-bit policies",
			 path);
		return -1;
	}
	if (eh->e_type != ET_DYN) {
		snprintf(err, errlen,
			 "%s: an ELF file but not a shared object (build it with -shared -fPIC, "
			 "or with `schedscope ext build`)",
			 path);
		return -1;
	}
#ifdef HOST_MACHINE
	if (eh->e_machine != HOST_MACHINE) {
		snprintf(err, errlen,
			 "%s: built for another machine (ELF machine %u, this one is %u): rebuild "
			 "it here",
			 path, eh->e_machine, HOST_MACHINE);
		return -1;
	}
#endif
	if (!eh->e_shoff || eh->e_shoff % 8 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(f, eh->e_shoff, (u64)eh->e_shnum * sizeof(Elf64_Shdr)) ||
	    eh->e_shstrndx >= eh->e_shnum) {
		snprintf(err, errlen, "%s: its section headers are missing or damaged", path);
		return -1;
	}
	return 0;
}

int ext_policy_check_elf_data(const void *data, size_t size, const char *path, char *err, size_t errlen)
{
	struct elf_file f = { .data = data, .size = size };
	int r = check_elf(&f, path, err, errlen);

	if (r)
		return r;
	f.eh = (const Elf64_Ehdr *)f.data;
	f.sh = (const Elf64_Shdr *)(f.data + f.eh->e_shoff);
	if (in_file(&f, f.sh[f.eh->e_shstrndx].sh_offset, f.sh[f.eh->e_shstrndx].sh_size)) {
		f.shstr = (const char *)f.data + f.sh[f.eh->e_shstrndx].sh_offset;
		f.shstr_size = f.sh[f.eh->e_shstrndx].sh_size;
	}
	r = check_writable(&f, path, err, errlen);
	return r ? r : check_calls(&f, path, err, errlen);
}

int ext_policy_check_elf(const char *path, char *err, size_t errlen)
{
	char *text;
	size_t len;
	int r;

	if (lex_read_file(path, &text, &len, err, errlen) < 0)
		return -1;
	r = ext_policy_check_elf_data(text, len, path, err, errlen);
	free(text);
	return r;
}

/* ---- the operations table ---- */

static int check_ops(const struct sched_ext_ops *ops, const char *path, char *err, size_t errlen)
{
	if (ops->abi != SCHEDSCOPE_EXT_ABI) {
		snprintf(err, errlen,
			 "%s: built against ext ABI %u, this schedscope has %u: rebuild it "
			 "(schedscope ext build)",
			 path, ops->abi, SCHEDSCOPE_EXT_ABI);
		return -1;
	}
	if (!memchr(ops->name, 0, sizeof(ops->name)) || !ops->name[0]) {
		snprintf(err, errlen, "%s: the policy has no name (.name is required, as ops.name is)", path);
		return -1;
	}
	for (const char *c = ops->name; *c; c++) {
		if (!(*c == '_' || *c == '.' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z'))) {
			snprintf(err, errlen, "%s: .name '%s' may hold only letters, digits, '_' and '.'",
				 path, ops->name);
			return -1;
		}
	}
	if (ops->flags & ~SCX_OPS_ALL_FLAGS) {
		snprintf(err, errlen, "%s: unknown .flags 0x%llx", path,
			 (unsigned long long)(ops->flags & ~SCX_OPS_ALL_FLAGS));
		return -1;
	}
	if (ops->timeout_ms > 30000) {
		snprintf(err, errlen, "%s: .timeout_ms %u is above the watchdog's 30000 ms limit (E2BIG)",
			 path, ops->timeout_ms);
		return -1;
	}
	if (ops->global_size > MAX_GLOBAL_SIZE || ops->task_size > MAX_PER_TASK_OR_CPU ||
	    ops->cpu_size > MAX_PER_TASK_OR_CPU || ops->dispatch_max_batch > MAX_DISPATCH_BATCH) {
		snprintf(err, errlen,
			 "%s: the policy asks for too much: .global_size at most %u, .task_size "
			 "and .cpu_size at most %u, .dispatch_max_batch at most %u",
			 path, MAX_GLOBAL_SIZE, MAX_PER_TASK_OR_CPU, MAX_DISPATCH_BATCH);
		return -1;
	}
	return 0;
}

int ext_policy_load(const char *path, struct ext_policy *out, char *err, size_t errlen)
{
	const struct sched_ext_ops *ops;
	void *h;

	memset(out, 0, sizeof(*out));
	if (ext_policy_check_elf(path, err, errlen) < 0)
		return -1;
	/* a path without a slash would be searched for in the library path */
	snprintf(out->path, sizeof(out->path), "%s%s", strchr(path, '/') ? "" : "./", path);
	dlerror();
	h = dlopen(out->path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();

		snprintf(err, errlen, "%s: cannot load: %s%s", path, why ? why : "dlopen failed",
			 why && strstr(why, "undefined symbol")
				 ? " (a kfunc or helper schedscope does not have: "
				   "see schedscope-ext(7))"
				 : "");
		return -1;
	}
	ops = dlsym(h, "schedscope_ext_ops");
	if (!ops) {
		snprintf(err, errlen, "%s: no schedscope_ext_ops: define the policy with SCX_OPS_DEFINE()",
			 path);
		dlclose(h);
		return -1;
	}
	if (check_ops(ops, path, err, errlen) < 0) {
		dlclose(h);
		return -1;
	}
	out->handle = h;
	out->ops = ops;
	return 0;
}

void ext_policy_unload(struct ext_policy *p)
{
	if (p->handle)
		dlclose(p->handle);
	memset(p, 0, sizeof(*p));
}
