// SPDX-License-Identifier: GPL-2.0
/* The JSON writer: exact bytes for structure, escaping and numbers. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

/* A writer into memory; out() finishes the FILE and returns what was written. */
struct capture {
	FILE *f;
	char *buf;
	size_t len;
	struct json_writer j;
};

static void capture_open(struct capture *c, int style)
{
	memset(c, 0, sizeof(*c));
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
	jw_init(&c->j, c->f, style);
}

static const char *capture_text(struct capture *c)
{
	fflush(c->f);
	return c->buf;
}

static void capture_close(struct capture *c)
{
	fclose(c->f);
	free(c->buf);
}

/* One string value as a whole document. */
static void check_string(const char *in, size_t n, const char *want)
{
	struct capture c;

	capture_open(&c, JW_COMPACT);
	jw_string_n(&c.j, in, n);
	assert_int_equal(jw_finish(&c.j), 0);
	assert_string_equal(capture_text(&c), want);
	capture_close(&c);
}

static void check_double(double v, const char *want)
{
	struct capture c;

	capture_open(&c, JW_COMPACT);
	jw_double(&c.j, v);
	assert_int_equal(jw_finish(&c.j), 0);
	assert_string_equal(capture_text(&c), want);
	capture_close(&c);
}

static void write_sample(struct json_writer *j)
{
	jw_begin_object(j);
	jw_kv_u64(j, "a", 1);
	jw_key(j, "b");
	jw_begin_array(j);
	jw_u64(j, 1);
	jw_s64(j, -2);
	jw_string(j, "x");
	jw_end_array(j);
	jw_key(j, "c");
	jw_begin_object(j);
	jw_end_object(j);
	jw_key(j, "d");
	jw_begin_array(j);
	jw_end_array(j);
	jw_kv_bool(j, "e", true);
	jw_key(j, "f");
	jw_null(j);
	jw_kv_double(j, "g", 0.25);
	jw_kv_s64(j, "h", -7);
	jw_kv_str(j, "i", NULL);
	jw_end_object(j);
}

static void test_compact(void **state)
{
	struct capture c;

	capture_open(&c, JW_COMPACT);
	write_sample(&c.j);
	assert_int_equal(jw_finish(&c.j), 0);
	assert_string_equal(capture_text(&c),
			    "{\"a\":1,\"b\":[1,-2,\"x\"],\"c\":{},\"d\":[],\"e\":true,\"f\":null,"
			    "\"g\":0.25,\"h\":-7,\"i\":null}");
	capture_close(&c);
}

static void test_pretty(void **state)
{
	struct capture c;

	capture_open(&c, JW_PRETTY);
	write_sample(&c.j);
	assert_int_equal(jw_finish(&c.j), 0);
	assert_string_equal(capture_text(&c),
			    "{\n"
			    "  \"a\": 1,\n"
			    "  \"b\": [\n"
			    "    1,\n"
			    "    -2,\n"
			    "    \"x\"\n"
			    "  ],\n"
			    "  \"c\": {},\n"
			    "  \"d\": [],\n"
			    "  \"e\": true,\n"
			    "  \"f\": null,\n"
			    "  \"g\": 0.25,\n"
			    "  \"h\": -7,\n"
			    "  \"i\": null\n"
			    "}\n");
	capture_close(&c);
}

static void test_escaping(void **state)
{
	check_string("plain", 5, "\"plain\"");
	check_string("q\"b\\s/", 6, "\"q\\\"b\\\\s/\"");
	check_string("\n\t\r\b\f", 5, "\"\\n\\t\\r\\b\\f\"");
	check_string("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
	check_string("a\0b", 3, "\"a\\u0000b\"");
	check_string("", 0, "\"\"");
}

static void test_utf8(void **state)
{
	/* well-formed sequences of 2, 3 and 4 bytes pass through */
	check_string("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 11, "\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* a stray byte, a cut sequence, an overlong '/', a surrogate, beyond U+10FFFF */
	check_string("\xff", 1, "\"\\u00ff\"");
	check_string("a\xc3", 2, "\"a\\u00c3\"");
	check_string("\xc0\xaf", 2, "\"\\u00c0\\u00af\"");
	check_string("\xe0\x80\xaf", 3, "\"\\u00e0\\u0080\\u00af\"");
	check_string("\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\"");
	check_string("\xf4\x90\x80\x80", 4, "\"\\u00f4\\u0090\\u0080\\u0080\"");
	/* the largest code point and the last one before the surrogates are fine */
	check_string("\xf4\x8f\xbf\xbf\xed\x9f\xbf", 7, "\"\xf4\x8f\xbf\xbf\xed\x9f\xbf\"");
	/* a lead byte followed by ASCII: the ASCII survives */
	check_string("\xe2x", 2, "\"\\u00e2x\"");
}

static void test_long_string_crosses_buffer(void **state)
{
	char in[1000], want[1000 * 2 + 3];
	size_t n = 0;

	want[n++] = '"';
	for (int i = 0; i < 500; i++) {
		in[2 * i] = 'a';
		in[2 * i + 1] = '"';
		want[n++] = 'a';
		want[n++] = '\\';
		want[n++] = '"';
	}
	want[n++] = '"';
	want[n] = '\0';
	check_string(in, sizeof(in), want);
}

static void test_integers(void **state)
{
	struct capture c;

	capture_open(&c, JW_COMPACT);
	jw_begin_array(&c.j);
	jw_u64(&c.j, 0);
	jw_u64(&c.j, UINT64_MAX);
	jw_s64(&c.j, INT64_MIN);
	jw_s64(&c.j, INT64_MAX);
	jw_end_array(&c.j);
	assert_int_equal(jw_finish(&c.j), 0);
	assert_string_equal(capture_text(&c),
			    "[0,18446744073709551615,-9223372036854775808,9223372036854775807]");
	capture_close(&c);
}

static void test_doubles(void **state)
{
	check_double(0.1, "0.1");
	check_double(0.5, "0.5");
	check_double(1.0 / 3, "0.3333333333333333");
	check_double(100.0, "100");
	check_double(1234567.0, "1234567");
	check_double(1e21, "1e+21");
	check_double(1.5e-7, "1.5e-07");
	check_double(-0.0, "-0");
	check_double(-2.75, "-2.75");
	check_double(1e-6, "0.000001");
	check_double(-1.25e-6, "-0.00000125");
	check_double(1e20, "100000000000000000000");
	check_double(12.5, "12.5");
	check_double(123456789012345678901.0, "123456789012345680000");
	check_double(9.999999999999999e22, "1e+23");	/* the same double as 1e23 */
	check_double(0.1 + 0.2, "0.30000000000000004");
	check_double(5e-324, "5e-324");
	check_double(1.7976931348623157e308, "1.7976931348623157e+308");
	check_double(NAN, "null");
	check_double(INFINITY, "null");
	check_double(-INFINITY, "null");
}

/* Any finite double, written and read back, is the same double. */
static void test_double_round_trip(void **state)
{
	enum { N = 4000 };
	static double in[N];
	struct capture c;
	u64 x = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < N; i++) {
		double d;

		do {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift64 */
			memcpy(&d, &x, sizeof(d));
			if (i % 2)	/* half of them in the everyday range */
				d = (double)(x >> 11) / (double)(1ULL << (x % 60));
		} while (!isfinite(d));
		in[i] = d;
	}
	capture_open(&c, JW_COMPACT);
	jw_begin_array(&c.j);
	for (int i = 0; i < N; i++)
		jw_double(&c.j, in[i]);
	jw_end_array(&c.j);
	assert_int_equal(jw_finish(&c.j), 0);

	const char *p = capture_text(&c) + 1;
	for (int i = 0; i < N; i++) {
		char *end;
		double d = strtod(p, &end);

		assert_true(end > p);
		assert_memory_equal(&d, &in[i], sizeof(d));
		assert_int_equal(*end, i == N - 1 ? ']' : ',');
		p = end + 1;
	}
	capture_close(&c);
}

static void test_fixed(void **state)
{
	struct capture c;

	capture_open(&c, JW_COMPACT);
	jw_begin_array(&c.j);
	jw_fixed(&c.j, 1234.5678, 3);
	jw_fixed(&c.j, 7.0, 0);
	jw_fixed(&c.j, 0.1, 20); /* clamped to 17 */
	jw_fixed(&c.j, NAN, 3);
	jw_end_array(&c.j);
	assert_int_equal(jw_finish(&c.j), 0);
	assert_string_equal(capture_text(&c), "[1234.568,7,0.10000000000000001,null]");
	capture_close(&c);
}

static void test_decimal_point_ignores_locale(void **state)
{
	static const char *const locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8" };
	const char *set = NULL;

	for (size_t i = 0; i < sizeof(locales) / sizeof(locales[0]) && !set; i++)
		set = setlocale(LC_NUMERIC, locales[i]);
	if (!set)
		skip();		/* no comma locale installed here */
	check_double(0.5, "0.5");
	check_double(1.5e-7, "1.5e-07");
	setlocale(LC_NUMERIC, "C");
}

static void test_misuse_is_reported(void **state)
{
	struct capture c;

	/* a value in an object without a key */
	capture_open(&c, JW_COMPACT);
	jw_begin_object(&c.j);
	jw_u64(&c.j, 1);
	jw_end_object(&c.j);
	assert_int_equal(jw_finish(&c.j), -1);
	capture_close(&c);

	/* a key in an array */
	capture_open(&c, JW_COMPACT);
	jw_begin_array(&c.j);
	jw_key(&c.j, "k");
	jw_end_array(&c.j);
	assert_int_equal(jw_finish(&c.j), -1);
	capture_close(&c);

	/* mismatched and missing ends */
	capture_open(&c, JW_COMPACT);
	jw_begin_object(&c.j);
	jw_end_array(&c.j);
	assert_int_equal(jw_finish(&c.j), -1);
	capture_close(&c);

	capture_open(&c, JW_COMPACT);
	jw_begin_array(&c.j);
	assert_int_equal(jw_finish(&c.j), -1);
	capture_close(&c);

	/* a key left without its value */
	capture_open(&c, JW_COMPACT);
	jw_begin_object(&c.j);
	jw_key(&c.j, "k");
	jw_end_object(&c.j);
	assert_int_equal(jw_finish(&c.j), -1);
	capture_close(&c);

	/* two top-level values; nothing at all */
	capture_open(&c, JW_COMPACT);
	jw_u64(&c.j, 1);
	jw_u64(&c.j, 2);
	assert_int_equal(jw_finish(&c.j), -1);
	assert_string_equal(capture_text(&c), "1");
	capture_close(&c);

	capture_open(&c, JW_COMPACT);
	assert_int_equal(jw_finish(&c.j), -1);
	capture_close(&c);
}

static void test_nesting_limit(void **state)
{
	struct capture c;

	capture_open(&c, JW_COMPACT);
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_begin_array(&c.j);
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_end_array(&c.j);
	assert_int_equal(jw_finish(&c.j), 0);
	capture_close(&c);

	capture_open(&c, JW_COMPACT);
	for (int i = 0; i < JW_MAX_DEPTH + 5; i++)
		jw_begin_array(&c.j);
	for (int i = 0; i < JW_MAX_DEPTH + 5; i++)
		jw_end_array(&c.j);
	assert_int_equal(jw_finish(&c.j), -1);
	capture_close(&c);
}

static void test_write_escaped_alone(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	jw_write_escaped(f, "a\"b", 3);
	fclose(f);
	assert_string_equal(buf, "\"a\\\"b\"");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_pretty),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_long_string_crosses_buffer),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_double_round_trip),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_decimal_point_ignores_locale),
		cmocka_unit_test(test_misuse_is_reported),
		cmocka_unit_test(test_nesting_limit),
		cmocka_unit_test(test_write_escaped_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
