// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: any bytes as a .topo topology file. */
#include <stdint.h>
#include <stdlib.h>

#include "src/format/topology_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sched_topology t;
	char err[512];

	if (topology_parse("fuzz.topo", (const char *)data, size, &t, err, sizeof(err)) == 0)
		topology_free(&t);
	return 0;
}
