// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the fprobe PMU record decoding and of the 'perf fprobe' report:
 * call-graph tree, histograms, folded stacks, SVG flame graph and Chrome
 * trace, on a synthetic recording whose values are known.
 *
 * With PERF_FPROBE_REPORT_OUTPUT=DIR in the environment, the SVG and the
 * Chrome trace of the recording are also written to DIR/fprobe-report.svg
 * and DIR/fprobe-report.json, for a validator outside perf to check.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/fprobe_pmu.h>
#include <linux/kernel.h>

#include "tests.h"
#include "util/debug.h"
#include "util/fprobe-call.h"
#include "util/fprobe-decode.h"
#include "util/fprobe-report.h"
#include "util/time-utils.h"

/* A call of the synthetic recording */
struct test_call {
	const char	*name;
	int		tid;
	u64		entry;
	u64		duration;
	u32		depth;
	u32		flags;
};

#define BOTH	(FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT)

/*
 * tid 100: ksys_read [1000, 11000) around vfs_read [2000, 8000) (around
 *          touch_atime [2500, 3000)) and vfs_read [8500, 10500);
 *          ksys_read [20000, 24000) around vfs_read [21000, 24000) (same end)
 * tid 200: ksys_read and vfs_read on the same interval [1500, 4500), told
 *          apart by their depth; vfs_read [10000, 11000) alone.
 * Plus one vfs_read and one ksys_read without exit, one vfs_read without
 * entry. Given out of order on purpose.
 */
static const struct test_call test_calls[] = {
	{ "vfs_read",		100,  2000,  6000, 1, BOTH },
	{ "ksys_read",		100,  1000, 10000, 0, BOTH },
	{ "touch_atime",	100,  2500,   500, 2, BOTH },
	{ "vfs_read",		100,  8500,  2000, 1, BOTH },
	{ "ksys_read",		100, 20000,  4000, 0, BOTH },
	{ "vfs_read",		100, 21000,  3000, 1, BOTH },
	{ "vfs_read",		200,  1500,  3000, 1, BOTH },
	{ "ksys_read",		200,  1500,  3000, 0, BOTH },
	{ "vfs_read",		200, 10000,  1000, 0, BOTH },
	{ "vfs_read",		100, 30000,  7777, 0, FPROBE_CALL_ENTRY },
	{ "ksys_read",		200, 40000,     0, 0, FPROBE_CALL_ENTRY },
	{ "vfs_read",		200,     0,   500, 0, FPROBE_CALL_EXIT },
};

/* Add test_calls[@i] to @rep, its cookie i + 1 */
static int add_test_call(struct fprobe_report *rep, size_t i)
{
	const struct test_call *t = &test_calls[i];
	struct fprobe_call call = {
		.func		= 0xffffffff81000000ULL + i,
		.name		= t->name,
		.ret_ip		= 0xffffffff81100000ULL + i,
		.entry_time	= t->entry,
		.duration	= t->duration,
		.retval		= t->duration / 1000,
		.args		= { i },
		.nargs		= 1,
		.depth		= t->depth,
		.flags		= t->flags,
		.pid		= 100,
		.tid		= t->tid,
		.nr_stack	= 2,
		.stack		= (const char *[]){ "entry_SYSCALL_64", "do_syscall_64" },
		.cookie		= i + 1,
	};

	return fprobe_report__add(rep, &call);
}

static struct fprobe_report *test_report(const struct fprobe_report_opts *opts)
{
	struct fprobe_report *rep = fprobe_report__new(opts);
	size_t i;

	if (!rep)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(test_calls); i++) {
		if (add_test_call(rep, i))
			goto out_delete;
	}
	fprobe_report__add_lost(rep, 3);
	if (fprobe_report__finish(rep))
		goto out_delete;
	return rep;
out_delete:
	fprobe_report__delete(rep);
	return NULL;
}

typedef int (*report_output_fn)(struct fprobe_report *rep, FILE *fp);

static int write_svg(struct fprobe_report *rep, FILE *fp)
{
	return fprobe_report__write_svg(rep, fp, "vfs <&> \"test\"");
}

/* The output of FN as a string to free, NULL on failure */
static char *report_output(struct fprobe_report *rep, report_output_fn fn)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int err;

	if (!fp)
		return NULL;
	err = fn(rep, fp);
	fclose(fp);
	if (err) {
		pr_debug("report output failed: %d\n", err);
		free(buf);
		return NULL;
	}
	return buf;
}

static int check_output(struct fprobe_report *rep, report_output_fn fn, const char *expected)
{
	char *out = report_output(rep, fn);
	int ret = TEST_OK;

	if (!out)
		return TEST_FAIL;
	if (strcmp(out, expected)) {
		pr_debug("expected:\n%s\ngot:\n%s\n", expected, out);
		ret = TEST_FAIL;
	}
	free(out);
	return ret;
}

static int check_report(const struct fprobe_report_opts *opts, report_output_fn fn,
			const char *expected)
{
	struct fprobe_report *rep = test_report(opts);
	int ret;

	TEST_ASSERT_VAL("recording", rep);
	ret = check_output(rep, fn, expected);
	fprobe_report__delete(rep);
	return ret;
}

/* Set the u16 field at OFFSET of the record at BUF + 4 */
static void set_u16(char *buf, size_t offset, u16 val)
{
	memcpy(buf + 4 + offset, &val, sizeof(val));
}

/* A record of NARGS arguments at BUF + 4 (raw data is not u64 aligned) */
static u32 make_record(char *buf, u16 type, u16 nargs)
{
	struct fprobe_pmu_record rec = {
		.size		= sizeof(rec) + nargs * sizeof(u64),
		.version	= FPROBE_PMU_RECORD_VERSION,
		.type		= type,
		.nargs		= nargs,
		.depth		= 2,
		.func		= 0xffffffff81234560ULL,
		.ret_ip		= 0xffffffff81234999ULL,
		.entry_time	= 123456789,
		.duration	= 4321,
		.retval		= (u64)-22,
	};
	u64 arg;
	u16 i;

	memcpy(buf + 4, &rec, sizeof(rec));
	for (i = 0; i < nargs; i++) {
		arg = 0x1000 + i;
		memcpy(buf + 4 + sizeof(rec) + i * sizeof(u64), &arg, sizeof(arg));
	}
	return sizeof(rec) + nargs * sizeof(u64);
}

/*
 * The fetch area of an entry record, laid out as an fprobe event's fields:
 * a value, a string, a string cut, a value that faulted and an empty
 * string; then the argument, still last
 */
static int test__fprobe_report_fetched(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	static const char * const types[] = { "s16", "string", "string", "x64", "ustring" };
	static const char * const names[] = { "mode", "name", "long", "ptr", "empty" };
	static const char * const bad_types[] = { "" };
	struct fprobe_pmu_record rec = {
		.version	= FPROBE_PMU_RECORD_VERSION,
		.type		= FPROBE_PMU_REC_ENTRY,
		.nargs		= 1,
		.fetch_flags	= FPROBE_PMU_FETCH_CUT(2) | FPROBE_PMU_FETCH_FAULT(3),
		.func		= 0xffffffff81234560ULL,
	};
	u64 raw[32], arg = 0x77, fault = 0;
	char *area = (char *)&raw[sizeof(rec) / 8];
	struct fprobe_fetched v[FPROBE_CALL_MAX_FETCH];
	u16 mode = 0xfffe;
	u32 dl[3] = { 6 << 16 | 22, 3 << 16 | 28, 0 << 16 | 31 };
	struct fprobe_call call;

	memset(raw, 0, sizeof(raw));
	/* fields: s16 at 0, data_loc at 2 and 6, x64 at 10, data_loc at 18 */
	memcpy(area, &mode, sizeof(mode));
	memcpy(area + 2, &dl[0], sizeof(u32));
	memcpy(area + 6, &dl[1], sizeof(u32));
	memcpy(area + 10, &fault, sizeof(fault));
	memcpy(area + 18, &dl[2], sizeof(u32));
	memcpy(area + 22, "hello", 6);
	memcpy(area + 28, "ab", 3);
	/* 31 bytes of the area, padded to 32 */
	rec.size = sizeof(rec) + 32 + sizeof(u64);
	memcpy(raw, &rec, sizeof(rec));
	memcpy(area + 32, &arg, sizeof(arg));

	TEST_ASSERT_VAL("decode", !fprobe_pmu_record__decode(raw, rec.size, &call));
	TEST_ASSERT_VAL("arg last", call.nargs == 1 && call.args[0] == 0x77);
	TEST_ASSERT_VAL("fetched",
			!fprobe_pmu_record__fetched(raw, rec.size, types, names, 5, v));
	TEST_ASSERT_VAL("value", v[0].kind == FPROBE_FETCH_SIGNED && v[0].size == 2 &&
			v[0].val == 0xfffe && !strcmp(v[0].name, "mode") && !v[0].flags);
	TEST_ASSERT_VAL("string", v[1].kind == FPROBE_FETCH_STRING &&
			!strcmp(v[1].str, "hello") && !v[1].flags);
	TEST_ASSERT_VAL("cut", !strcmp(v[2].str, "ab") && v[2].flags == FPROBE_FETCHED_CUT);
	TEST_ASSERT_VAL("fault", v[3].kind == FPROBE_FETCH_HEX && v[3].size == 8 &&
			v[3].flags == FPROBE_FETCHED_FAULT);
	TEST_ASSERT_VAL("empty", v[4].kind == FPROBE_FETCH_STRING && !strcmp(v[4].str, "") &&
			!v[4].flags);

	/* more fields than the area holds */
	TEST_ASSERT_VAL("too few",
			fprobe_pmu_record__fetched(raw, rec.size, types, names, 7, v) == -EINVAL);
	/* a type that is none, as an event name can have one */
	TEST_ASSERT_VAL("bad type", fprobe_pmu_record__fetched(raw, rec.size, bad_types,
							       names, 1, v) == -EINVAL);
	dl[0] = 6 << 16 | 28;
	memcpy(area + 2, &dl[0], sizeof(u32));
	TEST_ASSERT_VAL("string out",
			fprobe_pmu_record__fetched(raw, rec.size, types, names, 5, v) == -EINVAL);
	dl[0] = 6 << 16 | 4;
	memcpy(area + 2, &dl[0], sizeof(u32));
	TEST_ASSERT_VAL("string in the fields",
			fprobe_pmu_record__fetched(raw, rec.size, types, names, 5, v) == -EINVAL);
	dl[0] = 5 << 16 | 22;
	memcpy(area + 2, &dl[0], sizeof(u32));
	TEST_ASSERT_VAL("no NUL",
			fprobe_pmu_record__fetched(raw, rec.size, types, names, 5, v) == -EINVAL);
	/* an exit record has no area */
	rec.size = sizeof(rec) + sizeof(u64);
	memcpy(raw, &rec, sizeof(rec));
	TEST_ASSERT_VAL("no area",
			fprobe_pmu_record__fetched(raw, rec.size, types, names, 5, v) == -ENODATA);
	return TEST_OK;
}

static int test__fprobe_report_decode(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	char buf[4 + sizeof(struct fprobe_pmu_record) + 8 * sizeof(u64)];
	struct fprobe_call call;
	u32 size;

	memset(buf, 0, sizeof(buf));
	size = make_record(buf, FPROBE_PMU_REC_EXIT, 2);
	memset(&call, 0xaa, sizeof(call));
	TEST_ASSERT_VAL("exit record", !fprobe_pmu_record__decode(buf + 4, size, &call));
	TEST_ASSERT_VAL("flags", call.flags == (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT));
	TEST_ASSERT_VAL("func", call.func == 0xffffffff81234560ULL);
	TEST_ASSERT_VAL("ret_ip", call.ret_ip == 0xffffffff81234999ULL);
	TEST_ASSERT_VAL("entry_time", call.entry_time == 123456789);
	TEST_ASSERT_VAL("duration", call.duration == 4321);
	TEST_ASSERT_VAL("retval", call.retval == (u64)-22);
	TEST_ASSERT_VAL("depth", call.depth == 2);
	TEST_ASSERT_VAL("nargs", call.nargs == 2);
	TEST_ASSERT_VAL("args", call.args[0] == 0x1000 && call.args[1] == 0x1001);
	TEST_ASSERT_VAL("unused args", call.args[2] == 0 && call.args[5] == 0);

	/* perf pads the raw data: up to 7 more bytes are fine, 8 are not */
	TEST_ASSERT_VAL("padded", !fprobe_pmu_record__decode(buf + 4, size + 4, &call));
	TEST_ASSERT_VAL("padded 7", !fprobe_pmu_record__decode(buf + 4, size + 7, &call));
	TEST_ASSERT_VAL("padded nargs", call.nargs == 2 && call.args[1] == 0x1001);
	TEST_ASSERT_VAL("oversized",
			fprobe_pmu_record__decode(buf + 4, size + 8, &call) == -EINVAL);

	size = make_record(buf, FPROBE_PMU_REC_ENTRY, 1);
	TEST_ASSERT_VAL("entry record", !fprobe_pmu_record__decode(buf + 4, size, &call));
	TEST_ASSERT_VAL("entry flags", call.flags == FPROBE_CALL_ENTRY);
	TEST_ASSERT_VAL("entry duration", call.duration == 0 && call.retval == 0);
	TEST_ASSERT_VAL("entry args", call.nargs == 1 && call.args[0] == 0x1000);

	size = make_record(buf, FPROBE_PMU_REC_EXIT, 3);
	TEST_ASSERT_VAL("truncated args",
			fprobe_pmu_record__decode(buf + 4, size - 1, &call) == -EINVAL);
	TEST_ASSERT_VAL("truncated header",
			fprobe_pmu_record__decode(buf + 4, sizeof(struct fprobe_pmu_record) - 1,
						  &call) == -EINVAL);
	TEST_ASSERT_VAL("empty", fprobe_pmu_record__decode(buf + 4, 0, &call) == -EINVAL);
	TEST_ASSERT_VAL("NULL", fprobe_pmu_record__decode(NULL, size, &call) == -EINVAL);

	size = make_record(buf, FPROBE_PMU_REC_EXIT, 7);
	TEST_ASSERT_VAL("nargs > 6", fprobe_pmu_record__decode(buf + 4, size, &call) == -EINVAL);

	/* The size is that of the header, a fetch area of whole words and the arguments */
	size = make_record(buf, FPROBE_PMU_REC_EXIT, 2);
	set_u16(buf, offsetof(struct fprobe_pmu_record, size), size + 4);
	TEST_ASSERT_VAL("size", fprobe_pmu_record__decode(buf + 4, size + 4, &call) == -EINVAL);
	set_u16(buf, offsetof(struct fprobe_pmu_record, size), size - 8);
	TEST_ASSERT_VAL("size < args", fprobe_pmu_record__decode(buf + 4, size, &call) == -EINVAL);
	set_u16(buf, offsetof(struct fprobe_pmu_record, size), size + 8);
	TEST_ASSERT_VAL("fetch area", !fprobe_pmu_record__decode(buf + 4, size + 8, &call));
	set_u16(buf, offsetof(struct fprobe_pmu_record, size), size);
	TEST_ASSERT_VAL("fetch, no area", !fprobe_pmu_record__decode(buf + 4, size, &call));

	/* A version this perf does not know is refused, and told */
	size = make_record(buf, FPROBE_PMU_REC_EXIT, 2);
	set_u16(buf, offsetof(struct fprobe_pmu_record, version), 2);
	TEST_ASSERT_VAL("version 2",
			fprobe_pmu_record__decode(buf + 4, size, &call) == -EPROTONOSUPPORT);
	TEST_ASSERT_VAL("version told", fprobe_pmu_record__version(buf + 4, size) == 2);
	set_u16(buf, offsetof(struct fprobe_pmu_record, version), 0);
	TEST_ASSERT_VAL("version 0",
			fprobe_pmu_record__decode(buf + 4, size, &call) == -EPROTONOSUPPORT);
	TEST_ASSERT_VAL("no version", fprobe_pmu_record__version(buf + 4, 3) == 0);

	size = make_record(buf, 0, 0);
	TEST_ASSERT_VAL("type 0", fprobe_pmu_record__decode(buf + 4, size, &call) == -EINVAL);
	size = make_record(buf, 3, 0);
	TEST_ASSERT_VAL("type 3", fprobe_pmu_record__decode(buf + 4, size, &call) == -EINVAL);
	return TEST_OK;
}

static const char expected_tree[] =
"# fprobe call graph: 9 calls of 3 functions in 2 threads, total 18.000 us\n"
"# lost records: 3 (their calls are missing, or counted below without latency: the counts and times below are those of a sample; perf fprobe -b counts every call)\n"
"# calls without exit: 2 (ksys_read 1, vfs_read 1)\n"
"# calls without entry: 1 (vfs_read 1)\n"
"#\n"
"#    count       total        self         avg         max         p99  call path\n"
"         4   18.000 us           -           -           -           -  entry_SYSCALL_64\n"
"         4   18.000 us           -           -           -           -    do_syscall_64\n"
"         3   17.000 us    3.000 us    5.666 us   10.000 us   10.000 us      ksys_read\n"
"         4   14.000 us   13.500 us    3.500 us    6.000 us    6.000 us        vfs_read\n"
"         1      500 ns      500 ns      500 ns      500 ns      500 ns          touch_atime\n"
"         1    1.000 us    1.000 us    1.000 us    1.000 us    1.000 us      vfs_read\n";

static const char expected_p99[] =
"# fprobe call graph: 101 calls of 1 functions in 1 threads, total 5.151 ms\n"
"# lost records: 0\n"
"# calls without exit: 0\n"
"# calls without entry: 0\n"
"#\n"
"#    count       total        self         avg         max         p99  call path\n"
"       101    5.151 ms    5.151 ms   51.000 us  101.000 us  100.000 us  f\n";

static int test__fprobe_report_tree(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fprobe_report_opts opts = { .max_depth = 0, };
	struct fprobe_report *rep;
	int ret;

	if (check_report(&opts, fprobe_report__print_tree, expected_tree))
		return TEST_FAIL;

	/* the order of the children follows --sort; "total" is the default */
	opts.sort = "total";
	if (check_report(&opts, fprobe_report__print_tree, expected_tree))
		return TEST_FAIL;

	/* p99 by nearest rank: 100 calls of 1..100 us give 99 us, 101 give 100 us */
	rep = fprobe_report__new(NULL);
	TEST_ASSERT_VAL("new", rep);
	for (int i = 1; i <= 101; i++) {
		struct fprobe_call call = {
			.name = "f", .entry_time = i * 1000000ULL, .duration = i * 1000ULL,
			.flags = BOTH, .tid = 1,
		};

		TEST_ASSERT_VAL("add", !fprobe_report__add(rep, &call));
	}
	TEST_ASSERT_VAL("finish", !fprobe_report__finish(rep));
	ret = check_output(rep, fprobe_report__print_tree, expected_p99);
	fprobe_report__delete(rep);
	return ret;
}

static const char expected_hist[] =
"# fprobe latency histograms: 9 calls of 3 functions in 2 threads, total 18.000 us\n"
"# lost records: 3 (their calls are missing, or counted below without latency: the counts and times below are those of a sample; perf fprobe -b counts every call)\n"
"# calls without exit: 2 (ksys_read 1, vfs_read 1)\n"
"# calls without entry: 1 (vfs_read 1)\n"
"\n"
"# ksys_read: 3 calls, total 17.000 us, avg 5.666 us, max 10.000 us, p99 10.000 us;"
" 1 without exit\n"
"#       DURATION        |      COUNT | GRAPH                                          |\n"
"    2.05 us - 4.10 us   |          2 | ##############################                 |\n"
"    4.10 us - 8.19 us   |          0 |                                                |\n"
"    8.19 us - 16.4 us   |          1 | ###############                                |\n"
"\n"
"# vfs_read: 5 calls, total 15.000 us, avg 3.000 us, max 6.000 us, p99 6.000 us;"
" 1 without exit; 1 without entry\n"
"#       DURATION        |      COUNT | GRAPH                                          |\n"
"     512 ns - 1.02 us   |          1 | #########                                      |\n"
"    1.02 us - 2.05 us   |          1 | #########                                      |\n"
"    2.05 us - 4.10 us   |          2 | ##################                             |\n"
"    4.10 us - 8.19 us   |          1 | #########                                      |\n"
"\n"
"# touch_atime: 1 calls, total 500 ns, avg 500 ns, max 500 ns, p99 500 ns\n"
"#       DURATION        |      COUNT | GRAPH                                          |\n"
"     256 ns - 512 ns    |          1 | ############################################## |\n";

static const char expected_buckets[] =
"# g: 8 calls, total 3.081 us, avg 385 ns, max 1.024 us, p99 1.024 us\n"
"#       DURATION        |      COUNT | GRAPH                                          |\n"
"       0 ns - 1 ns      |          1 | #####                                          |\n"
"       1 ns - 2 ns      |          1 | #####                                          |\n"
"       2 ns - 4 ns      |          2 | ###########                                    |\n"
"       4 ns - 8 ns      |          1 | #####                                          |\n"
"       8 ns - 16 ns     |          0 |                                                |\n"
"      16 ns - 32 ns     |          0 |                                                |\n"
"      32 ns - 64 ns     |          0 |                                                |\n"
"      64 ns - 128 ns    |          0 |                                                |\n"
"     128 ns - 256 ns    |          0 |                                                |\n"
"     256 ns - 512 ns    |          0 |                                                |\n"
"     512 ns - 1.02 us   |          1 | #####                                          |\n"
"    1.02 us - 2.05 us   |          2 | ###########                                    |\n";

static int test__fprobe_report_hist(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	static const u64 durations[] = { 0, 1, 2, 3, 4, 1023, 1024, 1024 };
	struct fprobe_report_opts opts = { .sort = "name", };
	struct fprobe_report *rep;
	char *out;
	size_t i;
	int ret;

	opts.sort = NULL;
	if (check_report(&opts, fprobe_report__print_hist, expected_hist))
		return TEST_FAIL;

	/* bucket edges: [0, 1), [1, 2), [2, 4), ..., [512, 1024), [1024, 2048) ns */
	rep = fprobe_report__new(NULL);
	TEST_ASSERT_VAL("new", rep);
	for (i = 0; i < ARRAY_SIZE(durations); i++) {
		struct fprobe_call call = {
			.name = "g", .entry_time = i * 10000ULL, .duration = durations[i],
			.flags = BOTH, .tid = 7,
		};

		TEST_ASSERT_VAL("add", !fprobe_report__add(rep, &call));
	}
	TEST_ASSERT_VAL("finish", !fprobe_report__finish(rep));
	out = report_output(rep, fprobe_report__print_hist);
	fprobe_report__delete(rep);
	TEST_ASSERT_VAL("output", out);
	ret = strstr(out, expected_buckets) ? TEST_OK : TEST_FAIL;
	if (ret)
		pr_debug("got:\n%s\n", out);
	free(out);
	if (ret)
		return ret;

	/* functions come in --sort order */
	opts.sort = "name";
	rep = test_report(&opts);
	TEST_ASSERT_VAL("recording", rep);
	out = report_output(rep, fprobe_report__print_hist);
	fprobe_report__delete(rep);
	TEST_ASSERT_VAL("output", out);
	ret = strstr(out, "# ksys_read: 3 calls") < strstr(out, "# touch_atime: 1 calls") &&
	      strstr(out, "# touch_atime: 1 calls") < strstr(out, "# vfs_read: 5 calls")
	      ? TEST_OK : TEST_FAIL;
	free(out);
	return ret;
}

static const char expected_folded[] =
"entry_SYSCALL_64;do_syscall_64;ksys_read 3000\n"
"entry_SYSCALL_64;do_syscall_64;ksys_read;vfs_read 13500\n"
"entry_SYSCALL_64;do_syscall_64;ksys_read;vfs_read;touch_atime 500\n"
"entry_SYSCALL_64;do_syscall_64;vfs_read 1000\n";

static int test__fprobe_report_folded(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fprobe_report_opts opts = { .max_depth = 0, };
	struct fprobe_call call = {
		.name = "odd name;x", .duration = 42, .flags = BOTH,
		.nr_stack = 2, .stack = (const char *[]){ "a b", "c;d" },
	};
	struct fprobe_report *rep;
	int ret;

	if (check_report(&opts, fprobe_report__write_folded, expected_folded))
		return TEST_FAIL;

	/* ';' separates frames and a blank the value: neither stays in a name */
	rep = fprobe_report__new(NULL);
	TEST_ASSERT_VAL("new", rep);
	TEST_ASSERT_VAL("add", !fprobe_report__add(rep, &call));
	TEST_ASSERT_VAL("finish", !fprobe_report__finish(rep));
	ret = check_output(rep, fprobe_report__write_folded, "a_b;c:d;odd_name:x 42\n");
	fprobe_report__delete(rep);
	return ret;
}

static const char expected_csv[] =
"function,count,total_ns,self_ns,avg_ns,max_ns,p99_ns,no_exit,no_entry\n"
"ksys_read,3,17000,3000,5666,10000,10000,1,0\n"
"vfs_read,5,15000,14500,3000,6000,6000,1,1\n"
"touch_atime,1,500,500,500,500,500,0,0\n";

static int test__fprobe_report_csv(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct fprobe_report_opts opts = { .max_depth = 0, };
	struct fprobe_call call = {
		.name = "a,\"b\"", .duration = 42, .flags = BOTH,
	};
	struct fprobe_report *rep;
	int ret;

	if (check_report(&opts, fprobe_report__write_csv, expected_csv))
		return TEST_FAIL;

	/* a comma or a quote in a name: the field is quoted, its quotes doubled */
	rep = fprobe_report__new(NULL);
	TEST_ASSERT_VAL("new", rep);
	TEST_ASSERT_VAL("add", !fprobe_report__add(rep, &call));
	TEST_ASSERT_VAL("finish", !fprobe_report__finish(rep));
	ret = check_output(rep, fprobe_report__write_csv,
			   "function,count,total_ns,self_ns,avg_ns,max_ns,p99_ns,no_exit,no_entry\n"
			   "\"a,\"\"b\"\"\",1,42,42,42,42,42,0,0\n");
	fprobe_report__delete(rep);
	return ret;
}

static int count_str(const char *s, const char *what)
{
	int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

/* With PERF_FPROBE_REPORT_OUTPUT=DIR, writes OUT to DIR/NAME */
static int save_output(const char *out, const char *name)
{
	const char *dir = getenv("PERF_FPROBE_REPORT_OUTPUT");
	char path[4096];
	FILE *fp;
	int ret = 0;

	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp) {
		pr_debug("cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fputs(out, fp) < 0)
		ret = -1;
	if (fclose(fp))
		ret = -1;
	return ret;
}

static int test__fprobe_report_svg(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	/* total 18000 ns over 1180 px from x = 10, the root at the bottom */
	static const char * const frames[] = {
		"<g class=\"f\" data-s=\"0\" data-w=\"18000\" data-l=\"0\" data-n=\"all\">",
		"<title>all (4 traced calls, 18.000 us, 100.00%)</title>",
		"<rect x=\"10.00\" y=\"144\" width=\"1180.00\" height=\"15\"",
		"data-s=\"0\" data-w=\"18000\" data-l=\"1\" data-n=\"entry_SYSCALL_64\">",
		"<rect x=\"10.00\" y=\"128\" width=\"1180.00\" height=\"15\"",
		"data-s=\"0\" data-w=\"18000\" data-l=\"2\" data-n=\"do_syscall_64\">",
		"<rect x=\"10.00\" y=\"112\" width=\"1180.00\" height=\"15\"",
		"data-s=\"0\" data-w=\"17000\" data-l=\"3\" data-n=\"ksys_read\">",
		"<title>ksys_read (3 calls, total 17.000 us, self 3.000 us, 94.44%)</title>",
		"<rect x=\"10.00\" y=\"96\" width=\"1114.44\" height=\"15\"",
		"data-s=\"0\" data-w=\"14000\" data-l=\"4\" data-n=\"vfs_read\">",
		"<title>vfs_read (4 calls, total 14.000 us, self 13.500 us, 77.78%)</title>",
		"<rect x=\"10.00\" y=\"80\" width=\"917.78\" height=\"15\"",
		"data-s=\"0\" data-w=\"500\" data-l=\"5\" data-n=\"touch_atime\">",
		"<title>touch_atime (1 calls, total 500 ns, self 500 ns, 2.78%)</title>",
		"<rect x=\"10.00\" y=\"64\" width=\"32.78\" height=\"15\"",
		"data-s=\"17000\" data-w=\"1000\" data-l=\"3\" data-n=\"vfs_read\">",
		"<title>vfs_read (1 calls, total 1.000 us, self 1.000 us, 5.56%)</title>",
		"<rect x=\"1124.44\" y=\"96\" width=\"65.56\" height=\"15\"",
		"<text id=\"title\" x=\"600\" y=\"24\">vfs &lt;&amp;&gt; &quot;test&quot;</text>",
		"9 calls, 18.000 us traced; lost records: 3; calls without exit: 2; without entry: 1",
	};
	static const char svg_start[] = "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg ";
	struct fprobe_report *rep = test_report(NULL);
	int ret = TEST_OK;
	char *out;
	size_t i;

	TEST_ASSERT_VAL("recording", rep);
	out = report_output(rep, write_svg);
	fprobe_report__delete(rep);
	TEST_ASSERT_VAL("output", out);

	if (strncmp(out, svg_start, strlen(svg_start)) ||
	    strcmp(out + strlen(out) - 7, "</svg>\n")) {
		pr_debug("not an SVG document\n");
		ret = TEST_FAIL;
	}
	for (i = 0; i < ARRAY_SIZE(frames); i++) {
		if (!strstr(out, frames[i])) {
			pr_debug("missing: %s\n", frames[i]);
			ret = TEST_FAIL;
		}
	}
	if (count_str(out, "<g class=\"f\"") != 7 || count_str(out, "<g ") != 7 ||
	    count_str(out, "</g>") != 7 || count_str(out, "<rect ") != 8 ||
	    count_str(out, "<script") != 1 || count_str(out, "</script>") != 1) {
		pr_debug("unbalanced or extra elements\n");
		ret = TEST_FAIL;
	}
	/* self-contained: nothing to fetch */
	if (strstr(out, "href") || strstr(out, "src=") || strstr(out, "@import") ||
	    strstr(out, "url(")) {
		pr_debug("refers to something outside\n");
		ret = TEST_FAIL;
	}
	if (save_output(out, "fprobe-report.svg"))
		ret = TEST_FAIL;
	if (ret)
		pr_debug("got:\n%s\n", out);
	free(out);
	return ret;
}

/* JSON with ' for ", to be readable here */
static const char expected_chrome[] =
"{'traceEvents':[\n"
"{'name':'ksys_read','cat':'fprobe','ph':'X','ts':20.000,'dur':4.000,'pid':10,'tid':11,'args':{"
"'level':1,'ret_ip':'0x10','retval':'0x10','arg1':'0x3','arg2':'0xffffffffffffffff'}},\n"
"{'name':'a\\'b\\\\\\u0009<fn>','cat':'fprobe','ph':'X','ts':21.001,'dur':2.999,'pid':10,'tid':11,'args':{"
"'level':2,'ret_ip':'0x0','retval':'0xfffffffffffffff2'}}\n"
"],'displayTimeUnit':'ns'}\n";

/* EXPECTED with its ' turned into " */
static char *json_quotes(const char *expected)
{
	char *s = strdup(expected), *p;

	for (p = s; p && *p; p++) {
		if (*p == '\'')
			*p = '"';
	}
	return s;
}

static int test__fprobe_report_chrome(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fprobe_call calls[] = {
		{
			.name = "a\"b\\\t<fn>", .entry_time = 21001, .duration = 2999,
			.retval = (u64)-14, .depth = 1, .flags = BOTH, .pid = 10, .tid = 11,
		}, {
			.name = "ksys_read", .ret_ip = 0x10,
			.entry_time = 20000, .duration = 4000, .retval = 16,
			.args = { 3, (u64)-1 }, .nargs = 2, .flags = BOTH, .pid = 10, .tid = 11,
		}, {
			.name = "ksys_read", .entry_time = 30000, .flags = FPROBE_CALL_ENTRY,
			.pid = 10, .tid = 11,
		},
	};
	struct fprobe_report *rep = fprobe_report__new(NULL);
	char *out, *expected;
	size_t i;
	int ret;

	TEST_ASSERT_VAL("new", rep);
	for (i = 0; i < ARRAY_SIZE(calls); i++)
		TEST_ASSERT_VAL("add", !fprobe_report__add(rep, &calls[i]));
	TEST_ASSERT_VAL("finish", !fprobe_report__finish(rep));
	expected = json_quotes(expected_chrome);
	ret = expected ? check_output(rep, fprobe_report__write_chrome, expected) : TEST_FAIL;
	free(expected);
	fprobe_report__delete(rep);
	if (ret)
		return ret;

	rep = test_report(NULL);
	TEST_ASSERT_VAL("recording", rep);
	out = report_output(rep, fprobe_report__write_chrome);
	fprobe_report__delete(rep);
	TEST_ASSERT_VAL("output", out);
	/* the 9 complete calls, none of those without entry or exit */
	ret = count_str(out, "\"ph\":\"X\"") == 9 && !strstr(out, "\"ts\":30.000") &&
	      !save_output(out, "fprobe-report.json") ? TEST_OK : TEST_FAIL;
	free(out);
	return ret;
}

static const char expected_partial[] =
"# fprobe latency histograms: 1 calls of 1 functions in 1 threads, total 10 ns\n"
"# lost records: 7 (their calls are missing, or counted below without latency: the counts and times below are those of a sample; perf fprobe -b counts every call)\n"
"# calls without exit: 2 (f 2)\n"
"# calls without entry: 1 (f 1)\n"
"\n"
"# g: 1 calls, total 10 ns, avg 10 ns, max 10 ns, p99 10 ns\n"
"#       DURATION        |      COUNT | GRAPH                                          |\n"
"       8 ns - 16 ns     |          1 | ############################################## |\n"
"\n"
"# f: 0 calls; 2 without exit; 1 without entry\n";

static int test__fprobe_report_partial(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	struct fprobe_report_opts opts = { .sort = "p50", };
	struct fprobe_call call = { .name = "f", .flags = BOTH, .duration = 10, };
	struct fprobe_report *rep;
	char *out;
	int ret;

	/* an entry without exit and an exit without entry get no latency */
	rep = fprobe_report__new(NULL);
	TEST_ASSERT_VAL("new", rep);
	call.flags = FPROBE_CALL_ENTRY;
	call.duration = 5000;
	TEST_ASSERT_VAL("entry only", !fprobe_report__add(rep, &call));
	TEST_ASSERT_VAL("entry only", !fprobe_report__add(rep, &call));
	call.flags = FPROBE_CALL_EXIT;
	TEST_ASSERT_VAL("exit only", !fprobe_report__add(rep, &call));
	call.name = "g";
	call.flags = BOTH;
	call.duration = 10;
	TEST_ASSERT_VAL("both", !fprobe_report__add(rep, &call));
	fprobe_report__add_lost(rep, 2);
	fprobe_report__add_lost(rep, 5);
	TEST_ASSERT_VAL("finish", !fprobe_report__finish(rep));
	ret = check_output(rep, fprobe_report__print_hist, expected_partial);
	if (!ret) {
		out = report_output(rep, fprobe_report__print_tree);
		ret = out && strstr(out, "  g\n") && !strstr(out, "  f\n") ? TEST_OK : TEST_FAIL;
		free(out);
	}

	/* bad calls and bad use */
	TEST_ASSERT_VAL("add after finish", fprobe_report__add(rep, &call) == -EINVAL);
	TEST_ASSERT_VAL("finish twice", fprobe_report__finish(rep) == -EINVAL);
	fprobe_report__delete(rep);
	if (ret)
		return ret;

	rep = fprobe_report__new(NULL);
	TEST_ASSERT_VAL("new", rep);
	TEST_ASSERT_VAL("output before finish",
			fprobe_report__print_tree(rep, stdout) == -EINVAL);
	call.flags = 0;
	TEST_ASSERT_VAL("no flags", fprobe_report__add(rep, &call) == -EINVAL);
	call.flags = 4;
	TEST_ASSERT_VAL("unknown flag", fprobe_report__add(rep, &call) == -EINVAL);
	call.flags = BOTH;
	call.nargs = FPROBE_CALL_MAX_ARGS + 1;
	TEST_ASSERT_VAL("nargs", fprobe_report__add(rep, &call) == -EINVAL);
	call.nargs = 0;
	call.nr_stack = 1;
	TEST_ASSERT_VAL("no stack", fprobe_report__add(rep, &call) == -EINVAL);
	call.nr_stack = 65536;
	call.stack = (const char *[]){ "deep" };
	TEST_ASSERT_VAL("stack too deep", fprobe_report__add(rep, &call) == -EINVAL);
	call.nr_stack = 0;
	call.entry_time = ~0ULL - 5;
	TEST_ASSERT_VAL("past the end of time", fprobe_report__add(rep, &call) == -EINVAL);
	fprobe_report__delete(rep);

	errno = 0;
	TEST_ASSERT_VAL("bad sort key", !fprobe_report__new(&opts) && errno == EINVAL);
	TEST_ASSERT_VAL("sort key", !fprobe_report__sort_key_valid("p50"));
	TEST_ASSERT_VAL("sort key", fprobe_report__sort_key_valid("p99"));
	TEST_ASSERT_VAL("sort keys", !strcmp(fprobe_report__sort_keys(),
					     "total, self, avg, max, count, p99, name"));
	opts.sort = NULL;
	opts.max_depth = -1;
	TEST_ASSERT_VAL("bad max_depth", !fprobe_report__new(&opts) && errno == EINVAL);
	opts.max_depth = 0;
	opts.nr_tids = 1;
	TEST_ASSERT_VAL("tids NULL", !fprobe_report__new(&opts) && errno == EINVAL);
	opts.nr_tids = 0;
	opts.nr_times = 1;
	TEST_ASSERT_VAL("times NULL", !fprobe_report__new(&opts) && errno == EINVAL);
	return TEST_OK;
}

static const char expected_min_latency[] =
"entry_SYSCALL_64;do_syscall_64;ksys_read 5000\n"
"entry_SYSCALL_64;do_syscall_64;ksys_read;vfs_read 12000\n";

static const char expected_depth_folded[] =
"entry_SYSCALL_64;do_syscall_64;ksys_read 17000\n"
"entry_SYSCALL_64;do_syscall_64;vfs_read 1000\n";

static const char expected_depth_tree[] =
"# fprobe call graph: 9 calls of 3 functions in 2 threads, total 18.000 us\n"
"# lost records: 3 (their calls are missing, or counted below without latency: the counts and times below are those of a sample; perf fprobe -b counts every call)\n"
"# calls without exit: 2 (ksys_read 1, vfs_read 1)\n"
"# calls without entry: 1 (vfs_read 1)\n"
"#\n"
"#    count       total        self         avg         max         p99  call path\n"
"         4   18.000 us           -           -           -           -  entry_SYSCALL_64\n"
"         4   18.000 us           -           -           -           -    do_syscall_64\n"
"         3   17.000 us    3.000 us    5.666 us   10.000 us   10.000 us      ksys_read\n"
"         1    1.000 us    1.000 us    1.000 us    1.000 us    1.000 us      vfs_read\n";

static const char expected_tid_tree[] =
"# fprobe call graph: 3 calls of 2 functions in 1 threads, total 4.000 us\n"
"# lost records: 3 (their calls are missing, or counted below without latency: the counts and times below are those of a sample; perf fprobe -b counts every call)\n"
"# calls without exit: 1 (ksys_read 1)\n"
"# calls without entry: 1 (vfs_read 1)\n"
"#\n"
"#    count       total        self         avg         max         p99  call path\n"
"         2    4.000 us           -           -           -           -  entry_SYSCALL_64\n"
"         2    4.000 us           -           -           -           -    do_syscall_64\n"
"         1    3.000 us        0 ns    3.000 us    3.000 us    3.000 us      ksys_read\n"
"         1    3.000 us    3.000 us    3.000 us    3.000 us    3.000 us        vfs_read\n"
"         1    1.000 us    1.000 us    1.000 us    1.000 us    1.000 us      vfs_read\n";

/* the calls of the ranges 0-1.5 us and from 20 us on */
static const char expected_time_tree[] =
"# fprobe call graph: 2 calls of 2 functions in 1 threads, total 4.000 us\n"
"# lost records: 3 (their calls are missing, or counted below without latency: the counts and times below are those of a sample; perf fprobe -b counts every call)\n"
"# calls without exit: 2 (ksys_read 1, vfs_read 1)\n"
"# calls without entry: 1 (vfs_read 1)\n"
"#\n"
"#    count       total        self         avg         max         p99  call path\n"
"         1    4.000 us           -           -           -           -  entry_SYSCALL_64\n"
"         1    4.000 us           -           -           -           -    do_syscall_64\n"
"         1    4.000 us    1.000 us    4.000 us    4.000 us    4.000 us      ksys_read\n"
"         1    3.000 us    3.000 us    3.000 us    3.000 us    3.000 us        vfs_read\n";

/* fprobe_report__walk_calls(): "cookie:level " for each call */
static int print_cookie(u64 cookie, int level, void *arg)
{
	return fprintf(arg, "%llu:%d ", (unsigned long long)cookie, level) < 0;
}

static int write_cookies(struct fprobe_report *rep, FILE *fp)
{
	return fprobe_report__walk_calls(rep, print_cookie, fp);
}

static int test__fprobe_report_filters(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	static const struct perf_time_interval mid[] = { { 2000, 9000 } };
	static const struct perf_time_interval ends[] = { { 0, 1500 }, { 20000, 0 } };
	static const int tids[] = { 100, 300 }, tid200[] = { 200 };
	struct fprobe_report_opts opts = { .min_latency = 2500, };

	/* the calls kept, by thread and time, with their level (cookie: test_calls[] + 1) */
	opts.min_latency = 0;
	if (check_report(&opts, write_cookies, "2:1 1:2 3:3 4:2 5:1 6:2 8:1 7:2 9:1 "))
		return TEST_FAIL;

	/*
	 * --time: the calls that end in the ranges (those without exit: that
	 * begin), nested among themselves; the exit without entry at 500 ns
	 * and the entries at 30 and 40 us are kept but not walked
	 */
	opts.times = mid;
	opts.nr_times = ARRAY_SIZE(mid);
	if (check_report(&opts, write_cookies, "1:1 3:2 8:1 7:2 "))
		return TEST_FAIL;
	opts.times = ends;
	opts.nr_times = ARRAY_SIZE(ends);
	if (check_report(&opts, write_cookies, "5:1 6:2 ") ||
	    check_report(&opts, fprobe_report__print_tree, expected_time_tree))
		return TEST_FAIL;
	/* --tid: a list, of which thread 300 made no call */
	opts.times = NULL;
	opts.nr_times = 0;
	opts.tids = tids;
	opts.nr_tids = ARRAY_SIZE(tids);
	if (check_report(&opts, write_cookies, "2:1 1:2 3:3 4:2 5:1 6:2 "))
		return TEST_FAIL;
	opts.tids = NULL;
	opts.nr_tids = 0;

	opts.max_depth = 2;
	if (check_report(&opts, write_cookies, "2:1 1:2 4:2 5:1 6:2 8:1 7:2 9:1 "))
		return TEST_FAIL;
	opts.min_latency = 2500;
	if (check_report(&opts, write_cookies, "2:1 1:2 5:1 6:2 8:1 7:2 "))
		return TEST_FAIL;
	opts.max_depth = 0;

	/* touch_atime (500 ns), a vfs_read of 2 us and one of 1 us go */
	if (check_report(&opts, fprobe_report__write_folded, expected_min_latency))
		return TEST_FAIL;

	/* one level of traced calls: the time nested deeper widens its ancestor */
	opts.min_latency = 0;
	opts.max_depth = 1;
	if (check_report(&opts, fprobe_report__write_folded, expected_depth_folded) ||
	    check_report(&opts, fprobe_report__print_tree, expected_depth_tree))
		return TEST_FAIL;

	/* one thread */
	opts.max_depth = 0;
	opts.tids = tid200;
	opts.nr_tids = ARRAY_SIZE(tid200);
	opts.sort = "count";
	return check_report(&opts, fprobe_report__print_tree, expected_tid_tree);
}

/*
 * @n calls of vfs_read, of 100 us + 100 ns * i, in shuffled order; the
 * tree's vfs_read line
 */
static char *p99_tree_line(int n)
{
	struct fprobe_report_opts opts = { .max_depth = 0, };
	struct fprobe_report *rep = fprobe_report__new(&opts);
	char *out = NULL, *line = NULL, *end;
	int i;

	if (!rep)
		return NULL;
	for (i = 0; i < n; i++) {
		/* i * 7 mod n visits every i once: n is not a multiple of 7 */
		u64 k = (u64)i * 7 % n;
		struct fprobe_call call = {
			.func		= 0xffffffff81000000ULL,
			.name		= "vfs_read",
			.entry_time	= 1000000 * (u64)i,
			.duration	= 100000 + 100 * k,
			.flags		= FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT,
			.pid		= 100,
			.tid		= 100,
		};

		if (fprobe_report__add(rep, &call))
			goto out;
	}
	if (fprobe_report__finish(rep))
		goto out;
	out = report_output(rep, fprobe_report__print_tree);
	line = out ? strstr(out, "\n  ") : NULL;
	while (line && !strstr(line, "vfs_read"))
		line = strstr(line + 1, "\n  ");
	if (line) {
		end = strchr(line + 1, '\n');
		line = strndup(line + 1, end ? (size_t)(end - line - 1) : strlen(line + 1));
	}
out:
	free(out);
	fprobe_report__delete(rep);
	return line;
}

static int test__fprobe_report_p99(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	/* total (and self: no nested calls), avg, max and p99 */
	static const struct {
		int		n;
		const char	*total, *avg, *max, *p99;
	} cases[] = {
		/* 256 calls: exact, the 254th smallest */
		{ 256,  "28.864 ms",  "112.750 us", "125.500 us", "125.300 us" },
		/*
		 * 1000: from the buckets. The exact p99, the 990th smallest, is
		 * 198.900 us; its bucket (1024 ns wide from 131.072 us, 1/128
		 * of it) ends at 195 * 1024 - 1 ns.
		 */
		{ 1000, "149.950 ms", "149.950 us", "199.900 us", "199.679 us" },
		/* 101: exact, the 100th smallest */
		{ 101,  "10.605 ms",  "105.000 us", "110.000 us", "109.900 us" },
		/* 257: the first in buckets; the 255th smallest, 125.400 us, ends 125.439 */
		{ 257,  "28.990 ms",  "112.800 us", "125.600 us", "125.439 us" },
		/* 1003: the 993rd smallest, 199.200 us, ends 199.679 */
		{ 1003, "150.550 ms", "150.100 us", "200.200 us", "199.679 us" },
	};
	char want[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *line = p99_tree_line(cases[i].n);

		snprintf(want, sizeof(want), "%10d %11s %11s %11s %11s %11s  vfs_read",
			 cases[i].n, cases[i].total, cases[i].total, cases[i].avg,
			 cases[i].max, cases[i].p99);
		if (!line || strcmp(line, want)) {
			pr_debug("%d calls: expected\n%s\ngot\n%s\n", cases[i].n,
				 want, line ?: "(none)");
			free(line);
			return TEST_FAIL;
		}
		free(line);
	}
	return TEST_OK;
}

/*
 * test_calls in the order a recording gives them, by the end of each call
 * (its entry for a call without exit), a call before the calls around it:
 * their index in test_calls, and whether the thread is out of every call
 * after it (depth 0, with its exit), where the reader settles the thread.
 */
static const struct {
	int	idx;
	bool	settle;
} recorded_order[] = {
	{ 11, false }, { 6, false }, { 7, true }, { 2, false }, { 0, false },
	{ 3, false }, { 1, true }, { 8, true }, { 5, false }, { 4, true },
	{ 9, false }, { 10, false },
};

/* test_calls as a recording gives them, the threads settled, with @opts */
static struct fprobe_report *settled_report(const struct fprobe_report_opts *opts)
{
	struct fprobe_report *rep = fprobe_report__new(opts);
	size_t i;

	if (!rep)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(recorded_order); i++) {
		int idx = recorded_order[i].idx;

		if (add_test_call(rep, idx) ||
		    (recorded_order[i].settle &&
		     fprobe_report__settle(rep, test_calls[idx].tid)))
			goto out_delete;
	}
	fprobe_report__add_lost(rep, 3);
	if (fprobe_report__finish(rep))
		goto out_delete;
	return rep;
out_delete:
	fprobe_report__delete(rep);
	return NULL;
}

/* Whether @fn writes the same for the report of test_calls and @rep */
static bool same_output(const struct fprobe_report_opts *opts, struct fprobe_report *rep,
			report_output_fn fn)
{
	struct fprobe_report *all = test_report(opts);
	char *want = all ? report_output(all, fn) : NULL;
	char *got = report_output(rep, fn);
	bool same = want && got && !strcmp(want, got);

	if (!same)
		pr_debug("expected:\n%s\ngot:\n%s\n", want ?: "(none)", got ?: "(none)");
	free(want);
	free(got);
	fprobe_report__delete(all);
	return same;
}

/* The tree of 30000 ksys_reads of 5 us around two vfs_reads of 1 us each */
static const char many_header[] =
	"# fprobe call graph: 90000 calls of 2 functions in 1 threads, total 150.000 ms\n";
static const char many_ksys_read[] =
	"\n     30000  150.000 ms   90.000 ms    5.000 us    5.000 us    5.000 us  ksys_read\n";
static const char many_vfs_read[] =
	"\n     60000   60.000 ms   60.000 ms    1.000 us    1.000 us    1.000 us    vfs_read\n";

/*
 * A settled thread's calls are nested and summed when settled, and kept
 * only with keep_calls: every output is the same as when all are nested at
 * the end, and a recording of many calls keeps none of them.
 */
/* perf fprobe -b: ksys_read, and vfs_read in it, counted in the kernel */
static const char *const sum_stack[] = { "entry_SYSCALL_64", "do_syscall_64" };
static const char *const sum_path[] = { "ksys_read" };
static const struct fprobe_report_bucket ksys_buckets[] = { { 4095, 2 }, { 8191, 8 } };
static const struct fprobe_report_bucket vfs_buckets[] = {
	{ 1023, 4 }, { 1151, 5 }, { 2047, 1 },
};

static const char expected_sums[] =
"# fprobe call graph: 20 calls of 2 functions, total 50.000 us, each counted in the kernel\n"
"# calls not counted: 2 (missing below)\n"
"#\n"
"#    count       total        self         avg         max         p99  call path\n"
"        10   50.000 us           -           -           -           -  entry_SYSCALL_64\n"
"        10   50.000 us           -           -           -           -    do_syscall_64\n"
"        10   50.000 us   40.000 us    5.000 us    8.000 us    8.000 us      ksys_read\n"
"        10   10.000 us   10.000 us    1.000 us    2.000 us    2.000 us        vfs_read\n";

/* The buckets of vfs_read: 4 calls < 1024 ns, 5 more < 2048 ns, one over */
static const char expected_sums_hist[] =
"# fprobe latency histograms: 20 calls of 2 functions, total 50.000 us, each counted in the kernel\n"
"# calls not counted: 2 (missing below)\n"
"\n"
"# ksys_read: 10 calls, total 50.000 us, avg 5.000 us, max 8.000 us, p99 8.000 us\n"
"#       DURATION        |      COUNT | GRAPH                                          |\n"
"    2.05 us - 4.10 us   |          2 | #########                                      |\n"
"    4.10 us - 8.19 us   |          8 | ####################################           |\n"
"\n"
"# vfs_read: 10 calls, total 10.000 us, avg 1.000 us, max 2.000 us, p99 2.000 us\n"
"#       DURATION        |      COUNT | GRAPH                                          |\n"
"     512 ns - 1.02 us   |          4 | ##################                             |\n"
"    1.02 us - 2.05 us   |          6 | ###########################                    |\n";

static struct fprobe_report *sums_report(const struct fprobe_report_opts *opts)
{
	struct fprobe_report_sum ksys = {
		.name = "ksys_read", .nr_stack = 2, .stack = (const char **)sum_stack,
		.count = 10, .total = 50000, .self = 40000, .max = 8000,
		.nr_buckets = ARRAY_SIZE(ksys_buckets), .buckets = ksys_buckets,
	};
	struct fprobe_report_sum vfs = {
		.name = "vfs_read", .nr_stack = 2, .stack = (const char **)sum_stack,
		.nr_path = 1, .path = (const char **)sum_path,
		.count = 10, .total = 10000, .self = 10000, .max = 2000,
		.nr_buckets = ARRAY_SIZE(vfs_buckets), .buckets = vfs_buckets,
	};
	struct fprobe_report_sum bad = vfs;
	struct fprobe_report *rep = fprobe_report__new(opts);

	if (!rep)
		return NULL;
	bad.self = bad.total + 1;
	if (fprobe_report__add_sum(rep, &bad) != -EINVAL ||
	    fprobe_report__add_sum(rep, &vfs) || fprobe_report__add_sum(rep, &ksys)) {
		fprobe_report__delete(rep);
		return NULL;
	}
	fprobe_report__add_uncounted(rep, 2);
	if (fprobe_report__finish(rep)) {
		fprobe_report__delete(rep);
		return NULL;
	}
	return rep;
}

static int test__fprobe_report_sums(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct fprobe_report_opts opts = { .max_depth = 1, };
	struct fprobe_report *rep = sums_report(NULL);
	int ret;

	TEST_ASSERT_VAL("sums", rep);
	ret = check_output(rep, fprobe_report__print_tree, expected_sums);
	if (ret == TEST_OK)
		ret = check_output(rep, fprobe_report__print_hist, expected_sums_hist);
	TEST_ASSERT_VAL("calls", fprobe_report__nr_calls(rep) == 20);
	fprobe_report__delete(rep);
	if (ret != TEST_OK)
		return ret;

	/* --max-depth 1: vfs_read, nested in ksys_read, is in its function only */
	rep = sums_report(&opts);
	TEST_ASSERT_VAL("sums, max depth", rep);
	ret = check_output(rep, fprobe_report__print_hist, expected_sums_hist);
	if (ret == TEST_OK) {
		char *out = report_output(rep, fprobe_report__print_tree);

		ret = out && strstr(out, "ksys_read\n") && !strstr(out, "vfs_read") ?
		      TEST_OK : TEST_FAIL;
		free(out);
	}
	fprobe_report__delete(rep);
	return ret;
}

static int test__fprobe_report_settle(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	struct fprobe_report_opts opts = { .max_depth = 0, };
	static const report_output_fn outputs[] = {
		fprobe_report__print_tree, fprobe_report__print_hist,
		fprobe_report__write_folded, write_svg,
	};
	struct fprobe_report *rep;
	char *out = NULL;
	size_t i;
	int n;

	rep = settled_report(&opts);
	TEST_ASSERT_VAL("settled", rep);
	n = 1;
	for (i = 0; i < ARRAY_SIZE(outputs); i++)
		n = n && same_output(&opts, rep, outputs[i]);
	/* the calls of the threads settled are gone, not walked */
	n = n && fprobe_report__nr_kept_calls(rep) == 0 &&
	    fprobe_report__walk_calls(rep, NULL, NULL) == -EINVAL &&
	    !report_output(rep, fprobe_report__write_chrome) &&
	    fprobe_report__settle(rep, 100) == -EINVAL;
	fprobe_report__delete(rep);
	TEST_ASSERT_VAL("settled: outputs, calls gone, settle after finish", n);

	/* kept, they are walked as when nested at the end; filters apply */
	opts.keep_calls = true;
	opts.max_depth = 2;
	opts.min_latency = 1000;
	rep = settled_report(&opts);
	TEST_ASSERT_VAL("settled, kept", rep);
	n = fprobe_report__nr_kept_calls(rep) == 8 &&
	    same_output(&opts, rep, fprobe_report__write_chrome) &&
	    same_output(&opts, rep, write_cookies) &&
	    same_output(&opts, rep, fprobe_report__print_tree);
	fprobe_report__delete(rep);
	TEST_ASSERT_VAL("kept calls", n);

	/*
	 * 30000 ksys_reads around two vfs_reads each: settled after each, no
	 * call is kept, and the sums are those of every call
	 */
	opts.keep_calls = false;
	opts.max_depth = 0;
	opts.min_latency = 0;
	rep = fprobe_report__new(&opts);
	TEST_ASSERT_VAL("many", rep);
	for (n = 0; n < 30000; n++) {
		struct fprobe_call call = {
			.name = "vfs_read", .entry_time = 10000ULL * n + 100, .duration = 1000,
			.flags = FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT, .pid = 7, .tid = 7,
			.depth = 2,
		};

		if (fprobe_report__add(rep, &call))
			break;
		call.entry_time += 2000;
		if (fprobe_report__add(rep, &call))
			break;
		call.name = "ksys_read";
		call.entry_time = 10000ULL * n;
		call.duration = 5000;
		call.depth = 1;
		if (fprobe_report__add(rep, &call) ||
		    fprobe_report__nr_kept_calls(rep) != 3 * (size_t)(n % 2 + 1) ||
		    (n % 2 && fprobe_report__settle(rep, 7)) ||
		    fprobe_report__nr_kept_calls(rep) != (n % 2 ? 0 : 3))
			break;
	}
	if (n == 30000 && !fprobe_report__finish(rep))
		out = report_output(rep, fprobe_report__print_tree);
	fprobe_report__delete(rep);
	TEST_ASSERT_VAL("many calls", out);
	n = strstr(out, many_header) && strstr(out, many_ksys_read) && strstr(out, many_vfs_read);
	if (!n)
		pr_debug("tree of 90000 calls:\n%s\n", out);
	free(out);
	return n ? TEST_OK : TEST_FAIL;
}

static struct test_case tests__fprobe_report[] = {
	/* "fprobe report" in each, so that perf test 'fprobe report' runs them all */
	TEST_CASE("fprobe report: PMU record decoding", fprobe_report_decode),
	TEST_CASE("fprobe report: the fetch area of entry records", fprobe_report_fetched),
	TEST_CASE("fprobe report: call nesting and tree values", fprobe_report_tree),
	TEST_CASE("fprobe report: latency histograms", fprobe_report_hist),
	TEST_CASE("fprobe report: folded stacks", fprobe_report_folded),
	TEST_CASE("fprobe report: per-function CSV", fprobe_report_csv),
	TEST_CASE("fprobe report: SVG flame graph", fprobe_report_svg),
	TEST_CASE("fprobe report: Chrome trace events", fprobe_report_chrome),
	TEST_CASE("fprobe report: calls without entry or exit", fprobe_report_partial),
	TEST_CASE("fprobe report: latency, depth, thread and time filters", fprobe_report_filters),
	TEST_CASE("fprobe report: p99 exact, then from log-linear buckets", fprobe_report_p99),
	TEST_CASE("fprobe report: threads settled as the recording is read", fprobe_report_settle),
	TEST_CASE("fprobe report: calls counted in the kernel, by call path", fprobe_report_sums),
	{	.name = NULL, }
};

struct test_suite suite__fprobe_report = {
	.desc = "fprobe report",
	.test_cases = tests__fprobe_report,
};
