// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as an rt-app JSON file. The import must fail
 * with "name:line:col: message", or succeed with a scenario that the
 * scenario parser accepts (the importer never writes what cannot be read
 * back); a small accepted scenario is then run for a few thousand steps.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/api/sched.h"
#include "src/import/import_rtapp.h"
#include "src/format/scenario_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], *scn = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&scn, &len);
	FILE *warn = fopen("/dev/null", "w");
	struct scenario_file f;
	int r;

	if (!out || !warn)
		abort();
	err[0] = 0;
	/* the last byte picks the reading of repeated keys: '\n' rt-app's, '}' workgen's */
	struct import_rtapp_opts o = { .workgen = size && (data[size - 1] & 1) };

	r = import_rtapp("fuzz.json", (const char *)data, size, &o, out, warn, err, sizeof(err));
	fclose(out);
	fclose(warn);
	if (r < 0) {
		unsigned line, col;
		if (len || sscanf(err, "fuzz.json:%u:%u:", &line, &col) != 2)
			abort();	/* every failure says where, and writes nothing */
		free(scn);
		return 0;
	}
	if (scenario_parse("import.scn", scn, len, &f, err, sizeof(err)) < 0) {
		fprintf(stderr, "the imported scenario is refused: %s\n%s", err, scn);
		abort();
	}
	if (f.sc.nr_tasks <= 64) {
		struct sched_engine *e = sched_engine_create(&f.sc, err, sizeof(err));
		if (!e)
			abort();
		for (int i = 0; i < 5000 && sched_step(e); i++)
			;
		sched_engine_destroy(e);
	}
	scenario_free(&f);
	free(scn);
	return 0;
}
