// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target of the fprobe PMU record decoding and of the perf fprobe
 * report: no input may crash them or make them read or write out of bounds.
 *
 * Build, from tools/, naming the entry point as libFuzzer wants it and
 * linking the C string perf's build makes of util/fprobe-flamegraph.js
 * (util/Build) in the perf build directory $O:
 *	clang -fsanitize=fuzzer,address,undefined -Iinclude -Iinclude/uapi \
 *		-Dfprobe_report_fuzz_one=LLVMFuzzerTestOneInput \
 *		perf/tests/fuzz/fprobe-report-fuzz.c perf/util/fprobe-decode.c \
 *		perf/util/fprobe-report.c perf/util/fprobe-flamegraph.c \
 *		lib/vsprintf.c $O/util/fprobe-flamegraph-js.c
 *
 * Input: 4 bytes of report options (keep_calls: bit 5 of the first), then
 * entries of a 4-byte header
 *
 *	u8 op, u8 tid, u8 stack, u8 len
 *
 * followed by len bytes. op & 3 says what the bytes are:
 *	0: a raw PMU record, decoded and added
 *	1: the same, added as an exit without its entry (as after lost records)
 *	2: len lost records; with op & 4, the thread tid & 7 settled instead
 *	3: a struct fprobe_call's numbers, added as they are
 * With op & 4, the last byte of the bytes is the length of a function name
 * (any bytes) just before it, else the name comes from a table (op >> 3);
 * stack picks the callchain: its low 3 bits the number of frames, the
 * others where they start in a table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "../../util/fprobe-call.h"
#include "../../util/fprobe-decode.h"
#include "../../util/fprobe-report.h"
#include "../../util/time-utils.h"

int fprobe_report_fuzz_one(const uint8_t *data, size_t size);

static const char * const fuzz_sorts[] = {
	NULL, "total", "self", "avg", "max", "count", "p99", "name",
};

static const char * const fuzz_names[] = {
	"vfs_read", "ksys_read", "rw_verify_area", "", "a;b c", "<&\"'>",
	"do_syscall_64", "entry_SYSCALL_64",
};

static FILE *fuzz_null(void)
{
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}

static void fuzz_call(struct fprobe_report *rep, const uint8_t *hdr, const uint8_t *bytes)
{
	const char *stack[8];
	char name[256];
	struct fprobe_call call;
	u8 op = hdr[0], len = hdr[3];
	u32 i;

	memset(&call, 0, sizeof(call));
	call.name = fuzz_names[(op >> 3) & 7];
	if (op & 4) {
		u8 n = len ? bytes[len - 1] : 0;

		if (!len || n > len - 1)
			return;
		len -= n + 1;
		memcpy(name, bytes + len, n);
		name[n] = '\0';
		call.name = name;
	}

	switch (op & 3) {
	case 0:
	case 1:
		if (fprobe_pmu_record__decode(bytes, len, &call))
			return;
		if ((op & 3) == 1)
			call.flags = FPROBE_CALL_EXIT;
		break;
	case 3:
		memcpy(&call, bytes, len < sizeof(call) ? len : sizeof(call));
		call.name = op & 4 ? name : fuzz_names[(op >> 3) & 7];
		break;
	default:
		return;
	}
	call.tid = hdr[1] & 7;
	call.pid = hdr[1] >> 3;
	call.nr_stack = hdr[2] & 7;
	for (i = 0; i < call.nr_stack; i++)
		stack[i] = fuzz_names[((hdr[2] >> 3) + i) & 7];
	call.stack = call.nr_stack ? stack : NULL;
	fprobe_report__add(rep, &call);
}

int fprobe_report_fuzz_one(const uint8_t *data, size_t size)
{
	struct fprobe_report_opts opts = { .max_depth = 0, };
	struct perf_time_interval times[1] = { { 0, 0 } };
	int tid;
	struct fprobe_report *rep;
	FILE *null = fuzz_null();
	size_t pos = 4;

	if (size < 4 || !null)
		return 0;
	opts.sort = fuzz_sorts[data[0] & 7];
	opts.max_depth = (data[0] >> 3) & 3;
	opts.keep_calls = (data[0] >> 5) & 1;
	/* data[1] < 8: the calls of that thread only, and of some time */
	if (data[1] < 8) {
		tid = data[1];
		opts.tids = &tid;
		opts.nr_tids = 1;
		times[0].start = data[1] * 1000;
		opts.times = times;
		opts.nr_times = 1;
	}
	opts.min_latency = data[2] | (u64)data[3] << 8;
	rep = fprobe_report__new(&opts);
	if (!rep)
		return 0;

	while (pos + 4 <= size) {
		const uint8_t *hdr = data + pos;
		uint8_t h[4] = { hdr[0], hdr[1], hdr[2], hdr[3] };
		uint8_t *bytes;

		pos += 4;
		if (h[3] > size - pos)
			h[3] = size - pos;
		/* the bytes alone, so that ASan sees any read past them */
		bytes = malloc(h[3] ? h[3] : 1);
		if (!bytes)
			break;
		memcpy(bytes, data + pos, h[3]);
		pos += h[3];
		if ((h[0] & 7) == 6)
			fprobe_report__settle(rep, h[1] & 7);
		else if ((h[0] & 3) == 2)
			fprobe_report__add_lost(rep, h[3]);
		else
			fuzz_call(rep, h, bytes);
		free(bytes);
	}

	if (!fprobe_report__finish(rep)) {
		fprobe_report__print_tree(rep, null);
		fprobe_report__print_hist(rep, null);
		fprobe_report__write_folded(rep, null);
		fprobe_report__write_svg(rep, null, "fuzz <&>");
		fprobe_report__write_chrome(rep, null);
		fprobe_report__write_csv(rep, null);
	}
	fprobe_report__delete(rep);
	return 0;
}
