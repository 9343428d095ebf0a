// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a .scn scenario. Parsing must fail cleanly
 * or succeed; a parsed scenario then takes a few --set overrides and a
 * console command, and is freed (ASan reports any leak).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/format/command.h"
#include "src/format/scenario_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const sets[] = { "kernel=6.1", "sched=eevdf", "feature=NO_PLACE_LAG",
					    "base_slice=1ms", "hz=1000" };
	struct scenario_file f;
	char err[512];

	if (scenario_parse("fuzz.scn", (const char *)data, size, &f, err, sizeof(err)) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		scenario_set(&f, sets[i], err, sizeof(err));

	struct sched_command cmd[64];
	int n;
	command_parse(&f, "set nice * 1", cmd, 64, &n, err, sizeof(err));
	scenario_free(&f);
	return 0;
}
