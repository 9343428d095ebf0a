// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as what `sweep merge` reads (a part written
 * by `sweep --out`) and as a worker's report of one cell. Reading must fail
 * with a reason or give results whose statistics and table can be made;
 * everything is freed (ASan reports any leak).
 */
#include <stdint.h>
#include <stdio.h>

#include "src/analysis/sweep_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweep_results r;
	struct sweep_cell c;
	char err[1024];

	if (sweep_cell_read((const char *)data, size, &c, err, sizeof(err)) == 0)
		sweep_cell_free(&c);
	if (sweep_parse_json("fuzz.json", (const char *)data, size, &r, err, sizeof(err)) == 0) {
		struct sweep_variant *v;
		int n;
		FILE *null = fopen("/dev/null", "w");

		sweep_variants(&r, &v, &n);
		if (null) {
			sweep_table_text(null, &r, v, n);
			sweep_matrix_text(null, &r);
			sweep_write_csv(null, &r);
			fclose(null);
		}
		sweep_variants_free(v, n);
		sweep_results_free(&r);
	}
	return 0;
}
