// SPDX-License-Identifier: GPL-2.0
/* Sweeps: the cross product, shards, cells as JSON, merging, the table's statistics, chart ticks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Before cmocka.h, which has a macro called expect_check. */
#include "src/analysis/sweep_table.h"
#include "src/base/json.h"
#include "src/plot/chart.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static char err[1024];

/* Two scenarios: a with topology x 2, kernel x 3, seed x 2; b with topology x 1, kernel x 2, seed x 2. */
static void make_plan(struct sweep_plan *p)
{
	char *topo_a[] = { "dual", "own" }, *kern_a[] = { "6.1", "6.6", "6.12" }, *seed[] = { "1", "2" };
	char *topo_b[] = { "single" }, *kern_b[] = { "6.12", "6.19" };
	char *const *va[] = { topo_a, kern_a, seed }, *const * vb[] = { topo_b, kern_b, seed };

	sweep_plan_init(p);
	assert_int_equal(sweep_plan_add_axis(p, SWEEP_TOPOLOGY, NULL), 0);
	assert_int_equal(sweep_plan_add_axis(p, SWEEP_KERNEL, NULL), 0);
	assert_int_equal(sweep_plan_add_axis(p, SWEEP_SEED, NULL), 0);
	assert_int_equal(sweep_plan_add_scenario(p, "dir/a.scn", (int[]){ 2, 3, 2 }, va), 0);
	sweep_plan_set_own(p, 0, "quad");
	assert_int_equal(sweep_plan_add_scenario(p, "b.scn", (int[]){ 1, 2, 2 }, vb), 0);
}

static void test_cross_product(void **state)
{
	struct sweep_plan p;
	struct sweep_coord c;
	struct sweep_overrides o;
	char label[256];

	make_plan(&p);
	assert_int_equal(p.nr_cells, 2 * 3 * 2 + 1 * 2 * 2);
	assert_string_equal(p.scen[0].label, "a");
	assert_int_equal(p.scen[1].first_cell, 12);
	/* the seed fastest, then the kernel, then the topology */
	sweep_coord(&p, 0, &c);
	assert_int_equal(c.scen, 0);
	assert_string_equal(sweep_value(&p, &c, 0), "dual");
	assert_string_equal(sweep_value(&p, &c, 1), "6.1");
	assert_string_equal(sweep_value(&p, &c, 2), "1");
	sweep_coord(&p, 7, &c); /* 7 = 1*6 + 0*2 + 1 */
	assert_string_equal(sweep_value(&p, &c, 0), "own");
	assert_string_equal(sweep_value(&p, &c, 1), "6.1");
	assert_string_equal(sweep_value(&p, &c, 2), "2");
	assert_true(sweep_is_own(&p, &c, 0));
	sweep_coord(&p, 15, &c);
	assert_int_equal(c.scen, 1);
	assert_string_equal(sweep_value(&p, &c, 1), "6.19");
	assert_string_equal(sweep_value(&p, &c, 2), "2");
	/* every cell once, in order */
	for (int i = 0; i < p.nr_cells; i++) {
		int back;
		sweep_coord(&p, i, &c);
		back = p.scen[c.scen].first_cell;
		for (int a = 0, mul = 1; a < 3; a++) {
			int k = 2 - a;
			back += c.value[k] * mul;
			mul *= p.scen[c.scen].nr_values[k];
		}
		assert_int_equal(back, i);
	}
	assert_int_equal(sweep_seeds_per_variant(&p, 0), 2);
	sweep_coord(&p, 9, &c);
	sweep_variant_label(&p, &c, label, sizeof(label));
	assert_string_equal(label, "topology=own kernel=6.6");

	/* a cell's overrides: own is no override, the seed and the kernel are --set */
	sweep_cell_overrides(&p, 9, false, &o);
	assert_null(o.ov.topology);
	assert_int_equal(o.ov.nr_sets, 2);
	assert_string_equal(o.ov.set[0], "kernel=6.6");
	assert_string_equal(o.ov.set[1], "seed=2");
	sweep_cell_overrides(&p, 0, false, &o);
	assert_string_equal(o.ov.topology, "dual");
	sweep_cell_overrides_no_machine(&p, 0, false, &o);
	assert_null(o.ov.topology);
	assert_int_equal(o.ov.nr_sets, 1);
	assert_string_equal(o.ov.set[0], "seed=1");
	p.vs_set[p.nr_vs++] = strdup("feature=NO_PLACE_LAG");
	sweep_cell_overrides(&p, 0, true, &o);
	assert_int_equal(o.ov.nr_sets, 3);
	assert_string_equal(o.ov.set[2], "feature=NO_PLACE_LAG");
	sweep_plan_free(&p);
}

static void test_shards(void **state)
{
	for (int n = 1; n <= 7; n++) {
		int count[8] = { 0 };

		for (int cell = 0; cell < 40; cell++) {
			int in = 0;
			for (int s = 1; s <= n; s++)
				if (sweep_in_shard(cell, s, n)) {
					in++;
					count[s]++;
				}
			assert_int_equal(in, 1); /* each cell in exactly one shard */
		}
		for (int s = 1; s <= n; s++) /* equal shares, to one cell */
			assert_true(count[s] == 40 / n || count[s] == 40 / n + 1);
	}
}

/* A cell with made-up results: rows of tasks and a group, two expects. */
static void fake_cell(struct sweep_cell *c, int index, u64 cpu, bool ok)
{
	struct sweep_side *s = &c->a;

	memset(c, 0, sizeof(*c));
	c->index = index;
	s->window_ns = 1000000000;
	s->nr_rows = 2;
	s->row = calloc(2, sizeof(*s->row));
	strcpy(s->row[0].name, "hog.*");
	s->row[0].tasks = 2;
	s->row[0].cpu_ns = cpu;
	s->row[0].wait_ns = 3000000;
	s->row[0].migrations = 4;
	lat_hist_add(&s->row[0].lat, 1000);
	lat_hist_add(&s->row[0].lat, 2000000);
	strcpy(s->row[1].name, "/g");
	s->row[1].group = true;
	s->row[1].cpu_ns = cpu;
	s->row[1].throttled_ns = 5000000;
	s->nr_expects = 1;
	s->expect_msg = calloc(1, sizeof(char *));
	s->expect_ok = calloc(1, sizeof(bool));
	s->expect_msg[0] = strdup(ok ? "expect x: ok" : "expect x: FAILED");
	s->expect_ok[0] = ok;
	s->failed = !ok;
	sweep_cell_settle(c);
}

static void test_cell_json(void **state)
{
	struct sweep_cell c, back;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer j;

	fake_cell(&c, 5, 1500000000, false);
	assert_int_equal(c.status, CELL_FAIL);
	jw_init(&j, f, JW_COMPACT);
	sweep_cell_write(&j, &c);
	assert_int_equal(jw_finish(&j), 0);
	fclose(f);
	assert_int_equal(sweep_cell_read(buf, len, &back, err, sizeof(err)), 0);
	assert_int_equal(back.index, 5);
	assert_int_equal(back.status, CELL_FAIL);
	assert_int_equal(back.a.nr_rows, 2);
	assert_string_equal(back.a.row[0].name, "hog.*");
	assert_int_equal(back.a.row[0].cpu_ns, 1500000000);
	assert_int_equal(back.a.row[0].lat.count, 2);
	assert_int_equal(back.a.row[0].lat.max, 2000000);
	assert_memory_equal(back.a.row[0].lat.bucket, c.a.row[0].lat.bucket, sizeof(c.a.row[0].lat.bucket));
	assert_true(back.a.row[1].group);
	assert_string_equal(back.a.expect_msg[0], "expect x: FAILED");
	/* per task: 1.5 s of 2 tasks in 1 s is 0.75 each */
	assert_true(fabs(sweep_row_metric(&back.a.row[0], back.a.window_ns, METRIC_SHARE) - 0.75) < 1e-12);
	assert_true(fabs(sweep_row_metric(&back.a.row[0], back.a.window_ns, METRIC_MIGRATIONS) - 2) < 1e-12);
	assert_true(fabs(sweep_row_metric(&back.a.row[1], back.a.window_ns, METRIC_THROTTLED) - 5) < 1e-12);
	sweep_cell_free(&back);
	sweep_cell_free(&c);
	free(buf);

	/* damaged reports are refused with a reason, not read half */
	static const char *const bad[] = {
		"{",
		"[]",
		"{\"cell\":1}",
		"{\"cell\":1,\"status\":\"maybe\"}",
		"{\"cell\":1,\"status\":\"n/a\"}",
		"{\"cell\":1,\"status\":\"ok\",\"a\":{\"window_ns\":1,\"rows\":[{\"name\":\"x\"}],"
		"\"expects\":[]}}",
		"{\"cell\":1,\"status\":\"ok\",\"a\":{\"window_ns\":1,\"rows\":[],\"expects\":[{\"ok\":false,"
		"\"message\":\"m\"}]}}",
		"{\"cell\":1,\"status\":\"ok\",\"a\":{\"window_ns\":1,\"rows\":[{\"name\":\"x\",\"group\":"
		"false,\"tasks\":1,"
		"\"cpu_ns\":1,\"wait_ns\":1,\"migrations\":1,\"throttled_ns\":0,\"lat_max_ns\":1,\"lat\":[["
		"9999,1]]}],"
		"\"expects\":[]}}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		if (sweep_cell_read(bad[i], strlen(bad[i]), &back, err, sizeof(err)) == 0)
			fail_msg("accepted '%s'", bad[i]);
		assert_true(err[0] != 0);
	}
}

static void results_of(struct sweep_results *r, int shard, int nr_shards)
{
	memset(r, 0, sizeof(*r));
	make_plan(&r->plan);
	r->shard = shard;
	r->nr_shards = nr_shards;
	sweep_results_alloc(r);
	for (int i = 0; i < r->plan.nr_cells; i++) {
		if (!sweep_in_shard(i, shard, nr_shards))
			continue;
		fake_cell(&r->cell[i], i, 1000000000 + (u64)i * 1000000, i % 3 != 0);
		r->have[i] = true;
	}
}

static char *write_to_string(const struct sweep_results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(sweep_write_json(f, r), 0);
	fclose(f);
	return buf;
}

static void test_merge(void **state)
{
	struct sweep_results whole, parts[3], merged, back;
	char path[3][64];

	results_of(&whole, 1, 1);
	for (int s = 0; s < 3; s++) {
		FILE *f;
		char *text;

		results_of(&parts[s], s + 1, 3);
		snprintf(path[s], sizeof(path[s]), "/tmp/schedscope-test-part%d-%d.json", s, (int)getpid());
		f = fopen(path[s], "w");
		text = write_to_string(&parts[s]);
		fputs(text, f);
		fclose(f);
		free(text);
		sweep_results_free(&parts[s]);
	}
	/* read back in another order; merged, they are the whole sweep, byte for byte */
	assert_int_equal(sweep_read_json(path[2], &merged, err, sizeof(err)), 0);
	assert_int_equal(merged.shard, 3);
	assert_true(sweep_missing(&merged, err, sizeof(err)) > 0);
	for (int s = 0; s < 2; s++) {
		assert_int_equal(sweep_read_json(path[s], &back, err, sizeof(err)), 0);
		assert_int_equal(sweep_merge(&merged, &back, err, sizeof(err)), 0);
		sweep_results_free(&back);
	}
	assert_int_equal(sweep_missing(&merged, err, sizeof(err)), 0);
	merged.shard = merged.nr_shards = 1;
	char *a = write_to_string(&whole), *b = write_to_string(&merged);
	assert_string_equal(a, b);
	free(a);
	free(b);

	/* the same shard twice, and a sweep of another plan, are refused */
	assert_int_equal(sweep_read_json(path[0], &back, err, sizeof(err)), 0);
	assert_int_equal(sweep_merge(&merged, &back, err, sizeof(err)), -1);
	assert_string_equal(err, "cell 0 is in two parts (the same shard twice?)");
	sweep_results_free(&back);
	assert_int_equal(sweep_read_json(path[1], &back, err, sizeof(err)), 0);
	free(back.plan.scen[1].value[1][0]);
	back.plan.scen[1].value[1][0] = strdup("6.6");
	assert_int_equal(sweep_merge(&merged, &back, err, sizeof(err)), -1);
	assert_true(!strncmp(err, "not the same sweep", 18));
	sweep_results_free(&back);

	/* missing cells are named */
	struct sweep_results one;
	assert_int_equal(sweep_read_json(path[1], &one, err, sizeof(err)), 0);
	assert_int_equal(sweep_missing(&one, err, sizeof(err)), 11);
	assert_string_equal(err, "0, 2, 3, 5, 6, 8, 9, 11, ...");
	sweep_results_free(&one);

	/* not a sweep file */
	FILE *f = fopen(path[0], "w");
	fputs("{\"something\":1}\n", f);
	fclose(f);
	assert_int_equal(sweep_read_json(path[0], &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a schedscope sweep result"));
	for (int s = 0; s < 3; s++)
		unlink(path[s]);
	sweep_results_free(&merged);
	sweep_results_free(&whole);
}

static void test_variant_stats(void **state)
{
	struct sweep_results r;
	struct sweep_variant *v;
	int n;

	results_of(&r, 1, 1);
	sweep_variants(&r, &v, &n);
	assert_int_equal(n, 8); /* 6 of a, 2 of b: the seeds folded */
	assert_int_equal(v[0].nr_cells, 2);
	assert_int_equal(v[0].count[CELL_FAIL] + v[0].count[CELL_OK], 2);
	/* cells 0 and 1: 1.000 s and 1.001 s of 2 tasks: shares 0.5 and 0.5005 */
	const struct sweep_stat *st = &v[0].row[0].m[SIDE_A][METRIC_SHARE];
	assert_int_equal(st->n, 2);
	assert_true(fabs(st->mean - 0.50025) < 1e-12);
	assert_true(fabs(st->sd - sqrt(2 * 0.00025 * 0.00025)) < 1e-12);
	assert_true(fabs(st->min - 0.5) < 1e-12 && fabs(st->max - 0.5005) < 1e-12);
	/* every wakeup of both seeds */
	assert_int_equal(v[0].row[0].lat[0].count, 4);
	assert_int_equal(v[0].row[1].m[SIDE_A][METRIC_WAIT].n, 0); /* no wait for a group */
	sweep_variants_free(v, n);
	sweep_results_free(&r);
}

static void test_ticks(void **state)
{
	double first, step;
	int n;
	char buf[32];

	chart_ticks(0, 8.9, 6, &first, &step, &n);
	assert_true(first == 0 && step == 2 && n == 6); /* 0 2 4 6 8 10 */
	chart_ticks(0.013, 0.047, 5, &first, &step, &n);
	assert_true(fabs(step - 0.01) < 1e-15 && fabs(first - 0.01) < 1e-15 && n == 5);
	chart_ticks(5, 5, 5, &first, &step, &n); /* one value: a range around it */
	assert_true(first <= 5 && first + step * (n - 1) >= 5);
	chart_tick_label(buf, sizeof(buf), 0.30000000000000004, 0.1);
	assert_string_equal(buf, "0.3");
	chart_tick_label(buf, sizeof(buf), 2500, 500);
	assert_string_equal(buf, "2500");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cross_product), cmocka_unit_test(test_shards),
		cmocka_unit_test(test_cell_json),     cmocka_unit_test(test_merge),
		cmocka_unit_test(test_variant_stats), cmocka_unit_test(test_ticks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
