// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a trace to import. The first byte picks the
 * format and the options; whatever the importer accepts must be a scenario
 * the scenario parser accepts too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/import/import_trace.h"
#include "src/format/scenario_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_trace_opts o = { 0 };
	struct scenario_file f;
	char err[1024], perr[1024];
	char *scn;

	if (!size)
		return 0;
	o.keep_idle = data[0] & 4;
	o.keep_tracer = data[0] & 8;
	o.pin = data[0] & 16;
	o.has_cgroup_root = data[0] & 32;
	o.cgroup_root = 1;
	o.leave_out = data[0] & 64 ? "sh,kworker/*" : NULL;
	if (import_trace("fuzz.txt", (const char *)data + 1, size - 1, (enum trace_format)(data[0] % 3), &o,
			 &scn, NULL, err, sizeof(err)))
		return 0;
	if (scenario_parse("fuzz.scn", scn, strlen(scn), &f, perr, sizeof(perr))) {
		fprintf(stderr, "imported scenario refused: %s\n%s", perr, scn);
		abort();
	}
	scenario_free(&f);
	free(scn);
	return 0;
}
