// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a breakpoint expression, against a fixed
 * set of task names and CPUs. Parsing must fail cleanly with a message, or
 * succeed; a parsed breakpoint then runs over a small event stream derived
 * from the same bytes, is described, reset and freed (ASan reports leaks).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/format/breakpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "hog.0", "hog.1", "web.0", "web.1", "web.2", "batch",
					     "a-b_c" };
	static const char *const groups[] = { "/", "/web", "/web/a", "/batch" };
	const struct breakpoint_scope scope = { names, (int)(sizeof(names) / sizeof(names[0])), groups, 4, 4 };
	char err[256], desc[160];

	/* the text stops at the first NUL, as a C string from argv or readline would */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;

	struct breakpoint *bp = breakpoint_parse(text, &scope, err, sizeof(err));
	if (!bp) {
		if (!err[0] || strncmp(err, "col ", 4))
			abort();	/* every failure says where */
		free(text);
		return 0;
	}
	if (!breakpoint_text(bp))
		abort();

	/* events made of the input bytes: types, pids and CPUs in and out of range */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i + 4 <= size && i < 256; i += 4) {
			struct sched_event ev;
			memset(&ev, 0, sizeof(ev));
			ev.time = (u64)i * 1000 + data[i];
			ev.seq = i / 4;
			ev.type = (u16)(data[i] % (NR_SCHED_EVENTS + 1));
			ev.cpu = (s16)((int)data[i + 1] % 6 - 1);
			ev.sw.prev_pid = (s32)(data[i + 2] % 10) - 1;
			ev.sw.next_pid = (s32)(data[i + 3] % 10) - 1;
			ev.sw.prev_state = (data[i + 1] & 1) ? 'R' : 'S';
			breakpoint_test(bp, &ev);
			breakpoint_describe(bp, &ev, names, desc, sizeof(desc));
		}
		breakpoint_reset(bp);
	}
	breakpoint_free(bp);
	free(text);
	return 0;
}
