// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as an ext policy's shared object, through the
 * loader's ELF checks (headers, sections, symbol tables). They must accept
 * or refuse it with a message, never read outside it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/format/ext_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the loader reads a file into malloc()ed memory: aligned as that is */
	void *copy = malloc(size ? size : 1);
	char err[1024];

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	ext_policy_check_elf_data(copy, size, "fuzz.so", err, sizeof(err));
	free(copy);
	return 0;
}
