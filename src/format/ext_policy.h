/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading an ext policy plug-in (schedscope-ext(7)): a shared object built
 * against <schedscope/ext.h>. Before dlopen() its ELF file is checked: a
 * policy may keep no writable global data (checkpoints and rewind cover
 * only the memory the engine hands out) and may not call what would break
 * that or determinism (malloc, time, rand...). Then its operations table
 * is found and checked as the kernel checks a struct sched_ext_ops.
 */
#ifndef SRC_EXT_POLICY_H
#define SRC_EXT_POLICY_H

#include <stddef.h>

struct sched_ext_ops;

struct ext_policy {
	void *handle;			 /* dlopen()'s, NULL when none is loaded */
	const struct sched_ext_ops *ops; /* in the loaded object */
	char path[1024];
};

/*
 * Where `sched ext:NAME` points: a path with a '/' or ending in ".so" is
 * taken relative to the scenario's directory; a bare name is NAME.so in
 * that directory, in build/ext or ../build/ext from there (a source tree),
 * in $SCHEDSCOPE_DATADIR/ext and in the installed data directory's ext/.
 * -1 with a message if none exists.
 */
int ext_policy_resolve(const char *name, const char *scenario_path, char *path, size_t pathlen, char *err,
		       size_t errlen);
/* Check and load; -1 with a message saying what is wrong and what to do. */
int ext_policy_load(const char *path, struct ext_policy *out, char *err, size_t errlen);
void ext_policy_unload(struct ext_policy *p);
/* The ELF checks alone (the loader's first step), on a file or on its bytes. */
int ext_policy_check_elf(const char *path, char *err, size_t errlen);
int ext_policy_check_elf_data(const void *data, size_t size, const char *path, char *err, size_t errlen);

#endif
