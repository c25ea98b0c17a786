// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of how perf fprobe records (util/fprobe-record.c): the fprobe PMU
 * event of a probe, the fprobe events of the tracefs fallback and the perf
 * record command line that records them. What the kernel then does with
 * them, the perf fprobe shell tests check in a guest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/fprobe_pmu.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>

#include "tests.h"
#include "util/debug.h"
#include "util/fprobe-call.h"
#include "util/fprobe-dwarf.h"
#include "util/fprobe-probe.h"
#include "util/fprobe-record.h"

static int test__fprobe_record_pmu(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct fprobe_record_opts opts = {
		.pmu_type		= 42,
		.pmu_filters		= true,
		.pmu_exclude_opener	= true,
		.errors			= true,
		.min_latency		= 5000,
	};
	struct fprobe_protos protos = { .vmlinux = NULL, };
	struct fprobe_probe *read, *ksys, *big;
	struct perf_event_attr attr;
	struct fprobe_probes probes;
	char *name = NULL, *glob = NULL;
	int ret = TEST_FAIL;

	fprobe_probes__init(&probes, &protos);
	probes.notrace = "ksys_write";
	glob = malloc(FPROBE_PMU_FILTER_MAX + 1);
	if (!glob || fprobe_probes__add(&probes, "vfs_read count buf") ||
	    fprobe_probes__add(&probes, "ksys_*") || fprobe_pmu__set_filters(&probes))
		goto out;
	memset(glob, 'a', FPROBE_PMU_FILTER_MAX);
	glob[FPROBE_PMU_FILTER_MAX] = '\0';
	/* -N globs and a filter the PMU would refuse: refused before it sees them */
	probes.notrace = glob;
	if (fprobe_pmu__set_filters(&probes) != -1)
		goto out;
	probes.notrace = "ksys_write";
	if (fprobe_probes__add(&probes, glob) || fprobe_pmu__set_filters(&probes) != -1)
		goto out;
	read = list_first_entry(&probes.list, struct fprobe_probe, list);
	ksys = list_next_entry(read, list);
	big = list_next_entry(ksys, list);
	/* as fprobe_probes__prepare() sets them: up to the last parameter */
	read->nargs = 3;

	/* the ABI of include/uapi/linux/fprobe_pmu.h */
	if (fprobe_pmu__attr(read, &probes, &opts, &attr) ||
	    attr.type != 42 || attr.size != sizeof(attr) || attr.sample_period != 1 ||
	    attr.config != (3 | FPROBE_PMU_CONFIG_ERRORS | FPROBE_PMU_CONFIG_EXCLUDE_OPENER) ||
	    strcmp((const char *)(uintptr_t)attr.config1, "vfs_read") ||
	    attr.config2 != (u64)(uintptr_t)probes.notrace || attr.config3 != 5000) {
		pr_debug("vfs_read: config %#llx config1 %#llx config3 %llu\n",
			 (unsigned long long)attr.config, (unsigned long long)attr.config1,
			 (unsigned long long)attr.config3);
		goto out;
	}
	/* without the PMU's filters, no filter bits: user space filters */
	opts.pmu_filters = false;
	opts.pmu_exclude_opener = false;
	if (fprobe_pmu__attr(ksys, &probes, &opts, &attr) || attr.config || attr.config3 ||
	    strcmp((const char *)(uintptr_t)attr.config1, "ksys_*"))
		goto out;
	/* a filter the PMU would refuse */
	if (fprobe_pmu__attr(big, &probes, &opts, &attr) != -E2BIG)
		goto out;

	/* the parameters named are in the event name, for the report */
	name = fprobe_pmu__event_name(read);
	if (!name || strcmp(name, "fprobe:vfs_read(count,buf)"))
		goto out;
	free(name);
	name = fprobe_pmu__event_name(ksys);
	if (!name || strcmp(name, "fprobe:ksys_*"))
		goto out;
	ret = TEST_OK;
out:
	if (ret != TEST_OK)
		pr_debug("event name: %s\n", name ?: "(none)");
	free(name);
	free(glob);
	fprobe_probes__exit(&probes);
	fprobe_protos__exit(&protos);
	return ret;
}

static int check_defs(const struct fprobe_target_func *f, const char *entry,
		      const char *exit, const char *exit_noret)
{
	char e[256], x[256];
	size_t len;

	fprobe_tracefs__event_defs(f, e, x, &len, sizeof(e));
	if (strcmp(e, entry) || strcmp(x, exit) || strncmp(x, exit_noret, len) ||
	    len != strlen(exit_noret)) {
		pr_debug("expected\n%s\n%s\n%s\ngot\n%s\n%s\n%.*s\n", entry, exit,
			 exit_noret, e, x, (int)len, x);
		return TEST_FAIL;
	}
	return TEST_OK;
}

static int test__fprobe_record_tracefs(struct test_suite *test __maybe_unused,
				       int subtest __maybe_unused)
{
	char *params[2];
	struct fprobe_param protos[] = {
		{ .name = (char *)"file", .arg = 0,
		  .type = { .kind = FPROBE_TYPE_POINTER, .size = 8, }, },
		{ .name = (char *)"buf", .arg = 1,
		  .type = { .kind = FPROBE_TYPE_POINTER, .size = 8, }, },
		{ .name = (char *)"count", .arg = 2,
		  .type = { .kind = FPROBE_TYPE_UNSIGNED, .size = 8, }, },
	};
	struct fprobe_func func = {
		.name = (char *)"vfs_read",
		.ret = { .kind = FPROBE_TYPE_SIGNED, .size = 8, },
		.nr_params = ARRAY_SIZE(protos),
		.params = protos,
	};
	struct fprobe_probe probe = {
		.glob = (char *)"vfs_read",
		.nr_params = ARRAY_SIZE(params),
		.params = params,
	};
	struct fprobe_target_func f = {
		.name = (char *)"vfs_read",
		.probe = &probe,
		.proto = &func,
		.param_idx = { 2, 0 },
		.event = (char *)"vfs_read",
	};

	params[0] = (char *)"count";
	params[1] = (char *)"file";
	/* the parameters by name, in their registers, with their types */
	if (check_defs(&f, "f:perf_fprobe/vfs_read vfs_read count=$arg3:u64 file=$arg1:x64",
		       "f:perf_fprobe/vfs_read__return vfs_read%return retval=$retval:s64",
		       "f:perf_fprobe/vfs_read__return vfs_read%return"))
		return TEST_FAIL;
	/* a parameter the function does not have is left out */
	f.param_idx[0] = -1;
	func.ret.kind = FPROBE_TYPE_VOID;
	if (check_defs(&f, "f:perf_fprobe/vfs_read vfs_read file=$arg1:x64",
		       "f:perf_fprobe/vfs_read__return vfs_read%return",
		       "f:perf_fprobe/vfs_read__return vfs_read%return"))
		return TEST_FAIL;
	/* no prototype: no parameter, the return value as a 64-bit word */
	probe.nr_params = 0;
	f.proto = NULL;
	f.name = (char *)"foo.isra.0";
	f.event = (char *)"foo_isra_0";
	if (check_defs(&f, "f:perf_fprobe/foo_isra_0 foo.isra.0",
		       "f:perf_fprobe/foo_isra_0__return foo.isra.0%return retval=$retval:x64",
		       "f:perf_fprobe/foo_isra_0__return foo.isra.0%return"))
		return TEST_FAIL;

	TEST_ASSERT_VAL("exit", fprobe_tracefs__is_exit("vfs_read__return"));
	TEST_ASSERT_VAL("entry", !fprobe_tracefs__is_exit("vfs_read"));
	TEST_ASSERT_VAL("short", !fprobe_tracefs__is_exit("return"));
	return TEST_OK;
}

static int test__fprobe_record_argv(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	static const char * const want[] = {
		"record", "-e", "perf_fprobe:vfs_read", "-e", "perf_fprobe:vfs_read__return",
		"-e", "perf_fprobe:ksys_read", "-e", "perf_fprobe:ksys_read__return",
		"--period", "--sample-cpu", "-g", "--kernel-callchains", "-o", "fp.data",
		"-C", "0-1", "-m", "64", "-p", "12", "-t", "13", "--", "dd", "count=1",
	};
	static const char * const cmd[] = { "dd", "count=1" };
	struct fprobe_target_func funcs[] = {
		{ .name = (char *)"vfs_read", .event = (char *)"vfs_read", },
		{ .name = (char *)"ksys_read", .event = (char *)"ksys_read", },
	};
	struct fprobe_probes probes = {
		.nr_funcs = ARRAY_SIZE(funcs),
		.funcs = funcs,
	};
	struct fprobe_record_opts opts = {
		.target = { .cpu_list = "0-1", .pid = "12", },
		.tid_target = "13",
		.mmap_pages = 64,
	};
	const char **argv;
	int argc = 0, i, ret = TEST_OK;

	argv = fprobe_tracefs__record_argv(&probes, &opts, "fp.data", ARRAY_SIZE(cmd),
					   (const char **)cmd, &argc);
	TEST_ASSERT_VAL("argv", argv);
	if (argc != (int)ARRAY_SIZE(want) || argv[argc])
		ret = TEST_FAIL;
	for (i = 0; i < argc; i++) {
		if (ret == TEST_OK && (size_t)i < ARRAY_SIZE(want) && strcmp(argv[i], want[i])) {
			pr_debug("word %d: '%s', expected '%s'\n", i, argv[i], want[i]);
			ret = TEST_FAIL;
		}
		free((char *)argv[i]);
	}
	free(argv);
	if (ret != TEST_OK)
		pr_debug("%d words, expected %zu\n", argc, ARRAY_SIZE(want));
	return ret;
}

/* @c printed by fprobe_call__fprintf() as @want */
static int check_line(const struct fprobe_call *c, u32 arg_mask, const struct fprobe_func *proto,
		      const char *comm, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int ret = TEST_OK;

	if (!fp)
		return TEST_FAIL;
	fprobe_call__fprintf(c, arg_mask, proto, comm, fp);
	fclose(fp);
	if (!buf || strcmp(buf, want)) {
		pr_debug("expected\n%sgot\n%s", want, buf ?: "(none)\n");
		ret = TEST_FAIL;
	}
	free(buf);
	return ret;
}

/* A call of ksys_read listed by --calls, and printed by perf fprobe trace */
static const char want_calls[] =
	"      12.345678901      42   1      2.500 us    ksys_read(fd=3, count=1) = -14\n";
static const char want_trace[] =
	"    12.345678901   1               dd/42          2.500 us  ksys_read(arg1=0x3) = 0x5\n";

static int test__fprobe_record_print(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct fprobe_param params[] = {
		{ .name = (char *)"fd", .arg = 0,
		  .type = { .kind = FPROBE_TYPE_UNSIGNED, .size = 4, }, },
		{ .name = (char *)"buf", .arg = 1,
		  .type = { .kind = FPROBE_TYPE_POINTER, .size = 8, }, },
		{ .name = (char *)"count", .arg = 2,
		  .type = { .kind = FPROBE_TYPE_UNSIGNED, .size = 8, }, },
	};
	struct fprobe_func proto = {
		.name = (char *)"ksys_read",
		.ret = { .kind = FPROBE_TYPE_SIGNED, .size = 8, },
		.nr_params = ARRAY_SIZE(params),
		.params = params,
	};
	struct fprobe_call c = {
		.name = "ksys_read",
		.entry_time = 12345678901ULL,
		.duration = 2500,
		.retval = (u64)-14,
		.args = { 3, 0x7ffd1000, 1 },
		.nargs = 3,
		.depth = 1,
		.flags = FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT,
		.tid = 42,
		.cpu = 1,
	};

	/* --calls: time tid cpu duration, then the call by the prototype */
	if (check_line(&c, 0x5, &proto, NULL, want_calls))
		return TEST_FAIL;
	/* trace: time cpu comm/tid; no prototype: argN= and hex */
	c.depth = 0;
	c.retval = 5;
	if (check_line(&c, 0x1, NULL, "dd", want_trace))
		return TEST_FAIL;
	/* no exit: no duration, no return value; void: no '= ret' */
	c.flags = FPROBE_CALL_ENTRY;
	if (check_line(&c, 0, &proto, NULL,
		       "      12.345678901      42   1     (no exit)  ksys_read()\n"))
		return TEST_FAIL;
	c.flags = FPROBE_CALL_EXIT;
	proto.ret.kind = FPROBE_TYPE_VOID;
	if (check_line(&c, 0, &proto, NULL,
		       "      12.345678901      42   1    (no entry)  ksys_read()\n"))
		return TEST_FAIL;
	return TEST_OK;
}

static struct test_case tests__fprobe_record[] = {
	/* "fprobe record" in each, so that perf test 'fprobe record' runs them all */
	TEST_CASE("fprobe record: the fprobe PMU event of a probe", fprobe_record_pmu),
	TEST_CASE("fprobe record: the fprobe events of tracefs", fprobe_record_tracefs),
	TEST_CASE("fprobe record: perf record on the tracefs events", fprobe_record_argv),
	TEST_CASE("fprobe record: a call as perf fprobe trace and --calls print it",
		  fprobe_record_print),
	{	.name = NULL, }
};

struct test_suite suite__fprobe_record = {
	.desc = "fprobe record",
	.test_cases = tests__fprobe_record,
};
