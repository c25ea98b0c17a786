// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of how perf fprobe reads a recording back (util/fprobe-session.c):
 * the samples of the fprobe PMU as calls, and the entry and exit events of
 * the tracefs fallback paired per thread, each call the session hands on
 * checked field by field.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/fprobe_pmu.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <traceevent/event-parse.h>

#include "tests.h"
#include "util/debug.h"
#include "util/evsel.h"
#include "util/machine.h"
#include "util/sample.h"
#include "util/fprobe-call.h"
#include "util/fprobe-probe.h"
#include "util/fprobe-record.h"
#include "util/fprobe-report.h"
#include "util/fprobe-session.h"

/* The calls a session handed on */
struct got_calls {
	int			nr;
	struct fprobe_call	calls[4];
	u32			masks[4];
	char			str[4][16];	/* the first string fetched */
};

static int got_call(const struct fprobe_call *call, u32 arg_mask,
		    const struct fprobe_func *proto __maybe_unused, void *arg)
{
	struct got_calls *got = arg;

	if (got->nr == (int)ARRAY_SIZE(got->calls))
		return -E2BIG;
	got->masks[got->nr] = arg_mask;
	got->str[got->nr][0] = '\0';
	if (call->nr_fetch && call->fetch[0].str)
		snprintf(got->str[got->nr], sizeof(got->str[0]), "%s", call->fetch[0].str);
	got->calls[got->nr++] = *call;
	return 0;
}

/* An fprobe PMU record of @nargs arguments, 3, 4, 5...: its size */
static u32 make_pmu_record(u64 *buf, u16 type, u16 nargs, u64 duration)
{
	struct fprobe_pmu_record rec = {
		.size		= sizeof(rec) + nargs * sizeof(u64),
		.version	= FPROBE_PMU_RECORD_VERSION,
		.type		= type,
		.nargs		= nargs,
		.func		= 0xffffffff81234560ULL,
		.ret_ip		= 0xffffffff81234999ULL,
		.entry_time	= 123456789,
		.duration	= duration,
		.retval		= (u64)-22,
	};
	u16 i;

	memcpy(buf, &rec, sizeof(rec));
	for (i = 0; i < nargs; i++)
		buf[sizeof(rec) / sizeof(u64) + i] = 3 + i;
	return rec.size;
}

static int test__fprobe_session_pmu(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_MAX + 1,
		.sample_type	= PERF_SAMPLE_RAW,
	};
	struct fprobe_report_opts ropts = { .min_latency = 1000, };
	struct fprobe_protos protos = { .vmlinux = NULL, };
	struct got_calls got = { .nr = 0, };
	struct fprobe_session_opts opts = {
		.protos		= &protos,
		.ropts		= &ropts,
		.call		= got_call,
		.call_arg	= &got,
	};
	const struct fprobe_session_stats *st;
	struct fprobe_session *fs = NULL;
	struct perf_sample sample;
	struct fprobe_call *c;
	struct machine machine;
	struct evsel *evsel;
	u64 buf[16];
	u16 version;
	int ret = TEST_FAIL;

	machine__init(&machine, "", HOST_KERNEL_ID);
	evsel = evsel__new(&attr);
	if (!evsel)
		goto out;
	evsel->name = strdup(FPROBE_PMU_EVSEL ":vfs_*");
	fs = fprobe_session__new(&opts);
	if (!evsel->name || !fs)
		goto out;

	memset(&sample, 0, sizeof(sample));
	sample.pid = 41;
	sample.tid = 42;
	sample.cpu = 1;
	sample.raw_data = buf;

	/* a call: all its fields, every argument captured shown */
	sample.raw_size = make_pmu_record(buf, FPROBE_PMU_REC_EXIT, 3, 4321);
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr != 1)
		goto out;
	c = &got.calls[0];
	if (c->func != 0xffffffff81234560ULL || c->ret_ip != 0xffffffff81234999ULL ||
	    c->entry_time != 123456789 || c->duration != 4321 || c->retval != (u64)-22 ||
	    c->flags != (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT) || c->nargs != 3 ||
	    c->args[0] != 3 || c->args[1] != 4 || c->args[2] != 5 || got.masks[0] != 0x7 ||
	    c->pid != 41 || c->tid != 42 || c->cpu != 1 || c->name || c->nr_stack) {
		pr_debug("call: func %#" PRIx64 " duration %" PRIu64 " nargs %u mask %#x\n",
			 c->func, c->duration, c->nargs, got.masks[0]);
		goto out;
	}

	/* shorter than ropts.min_latency: not handed on, not counted */
	sample.raw_size = make_pmu_record(buf, FPROBE_PMU_REC_EXIT, 0, 999);
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr != 1)
		goto out;

	/* an entry whose exit was lost: no latency, counted apart */
	sample.raw_size = make_pmu_record(buf, FPROBE_PMU_REC_ENTRY, 1, 0);
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr != 2 ||
	    got.calls[1].flags != FPROBE_CALL_ENTRY || got.masks[1] != 0x1)
		goto out;

	/* a record cut short is counted and skipped */
	sample.raw_size -= 1;
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr != 2)
		goto out;

	/* a record of a version this perf does not read stops the reading */
	sample.raw_size = make_pmu_record(buf, FPROBE_PMU_REC_EXIT, 0, 4321);
	version = FPROBE_PMU_RECORD_VERSION + 1;
	memcpy((char *)buf + offsetof(struct fprobe_pmu_record, version), &version,
	       sizeof(version));
	if (fprobe_session__sample(fs, evsel, &sample, &machine) != -EPROTONOSUPPORT ||
	    got.nr != 2)
		goto out;

	st = fprobe_session__stats(fs);
	if (st->nr_calls != 1 || st->nr_incomplete != 1 || st->nr_bad != 1 || st->nr_lost) {
		pr_debug("calls %" PRIu64 " incomplete %" PRIu64 " bad %" PRIu64 "\n",
			 st->nr_calls, st->nr_incomplete, st->nr_bad);
		goto out;
	}
	ret = TEST_OK;
out:
	fprobe_session__delete(fs);
	if (evsel) {
		fprobe_session__evsel_delete(evsel);
		evsel__delete(evsel);
	}
	machine__exit(&machine);
	return ret;
}

/*
 * An event that fetches a string at entry: its entry record waits for the
 * exit record of the call, which gets the string; an exit whose entry
 * record was lost has none
 */
/* An entry record at @time fetching the string @str (under 8 bytes): its size */
static u32 make_fetch_entry(u64 *buf, u64 time, const char *str)
{
	struct fprobe_pmu_record *rec = (void *)buf;

	u32 dl = (strlen(str) + 1) << 16 | 4;
	char *area = (char *)&buf[sizeof(*rec) / 8];

	make_pmu_record(buf, FPROBE_PMU_REC_ENTRY, 1, 0);
	rec->entry_time = time;
	/* the argument after the area: the data_loc, then the string at 4 */
	memmove(&buf[sizeof(*rec) / 8 + 2], &buf[sizeof(*rec) / 8], sizeof(u64));
	memset(area, 0, 16);
	memcpy(area, &dl, sizeof(dl));
	memcpy(area + 4, str, strlen(str) + 1);
	rec->size += 16;
	return rec->size;
}

static int test__fprobe_session_fetched(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_MAX + 1,
		.sample_type	= PERF_SAMPLE_RAW,
	};
	struct fprobe_report_opts ropts = { .min_latency = 0, };
	struct fprobe_protos protos = { .vmlinux = NULL, };
	struct got_calls got = { .nr = 0, };
	struct fprobe_session_opts opts = {
		.protos		= &protos,
		.ropts		= &ropts,
		.call		= got_call,
		.call_arg	= &got,
	};
	struct fprobe_session *fs = NULL;
	struct perf_sample sample;
	struct machine machine;
	struct evsel *evsel;
	u64 buf[16], time2 = 2000;
	int ret = TEST_FAIL;

	machine__init(&machine, "", HOST_KERNEL_ID);
	evsel = evsel__new(&attr);
	if (!evsel)
		goto out;
	evsel->name = strdup(FPROBE_PMU_EVSEL ":do_sys_openat2(dfd,name:string)");
	fs = fprobe_session__new(&opts);
	if (!evsel->name || !fs)
		goto out;

	memset(&sample, 0, sizeof(sample));
	sample.tid = 42;
	sample.raw_data = buf;

	/* an entry whose exit the kernel-side filters left out, then another */
	sample.raw_size = make_fetch_entry(buf, 1000, "/etc");
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr)
		goto out;
	sample.raw_size = make_fetch_entry(buf, 2000, "/tmp");
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr)
		goto out;
	/* the exit of the second (same function, depth and entry time) */
	sample.raw_size = make_pmu_record(buf, FPROBE_PMU_REC_EXIT, 1, 4321);
	memcpy((char *)buf + offsetof(struct fprobe_pmu_record, entry_time), &time2,
	       sizeof(time2));
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr != 1)
		goto out;
	if (got.calls[0].nr_fetch != 1 || got.calls[0].args[0] != 3 ||
	    strcmp(got.str[0], "/tmp")) {
		pr_debug("nr_fetch %u, %s\n", got.calls[0].nr_fetch, got.str[0]);
		goto out;
	}

	/* an exit without its entry record */
	if (fprobe_session__sample(fs, evsel, &sample, &machine) || got.nr != 2 ||
	    got.calls[1].nr_fetch)
		goto out;
	ret = TEST_OK;
out:
	fprobe_session__delete(fs);
	if (evsel) {
		fprobe_session__evsel_delete(evsel);
		evsel__delete(evsel);
	}
	machine__exit(&machine);
	return ret;
}

/* A u64 field of a tracefs event, at @offset of its raw data */
#define TP_FIELD(_name, _offset, _next) {	\
	.next	= _next,			\
	.name	= (char *)_name,		\
	.offset	= _offset,			\
	.size	= sizeof(u64),			\
}

static int tp_sample(struct fprobe_session *fs, struct evsel *evsel,
		     struct machine *machine, s32 tid, u64 time, u64 a, u64 b, u64 c)
{
	u64 raw[4] = { 0, a, b, c };
	struct perf_sample sample = {
		.pid		= tid,
		.tid		= tid,
		.cpu		= 2,
		.time		= time,
		.raw_data	= raw,
		.raw_size	= sizeof(raw),
	};

	return fprobe_session__sample(fs, evsel, &sample, machine);
}

static int test__fprobe_session_tracefs(struct test_suite *test __maybe_unused,
					int subtest __maybe_unused)
{
	struct tep_format_field entry_fields[] = {
		TP_FIELD("__probe_ip", 8, &entry_fields[1]),
		TP_FIELD("count", 16, NULL),
	};
	struct tep_format_field exit_fields[] = {
		TP_FIELD("__probe_func", 8, &exit_fields[1]),
		TP_FIELD("__probe_ret_ip", 16, &exit_fields[2]),
		TP_FIELD("retval", 24, NULL),
	};
	struct tep_event entry_tp = {
		.name	= (char *)"vfs_read",
		.system	= (char *)"perf_fprobe",
		.format	= { .fields = entry_fields, },
	};
	struct tep_event exit_tp = {
		.name	= (char *)"vfs_read__return",
		.system	= (char *)"perf_fprobe",
		.format	= { .fields = exit_fields, },
	};
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT, };
	struct fprobe_report_opts ropts = { .min_latency = 0, };
	struct fprobe_protos protos = { .vmlinux = NULL, };
	struct got_calls got = { .nr = 0, };
	struct fprobe_session_opts opts = {
		.protos		= &protos,
		.ropts		= &ropts,
		.call		= got_call,
		.call_arg	= &got,
	};
	struct evsel *entry = evsel__new(&attr), *exit = evsel__new(&attr);
	const struct fprobe_session_stats *st;
	struct fprobe_session *fs = fprobe_session__new(&opts);
	const struct fprobe_call *a, *b;
	struct machine machine;
	int ret = TEST_FAIL;

	machine__init(&machine, "", HOST_KERNEL_ID);
	if (!entry || !exit || !fs)
		goto out;
	entry->tp_format = &entry_tp;
	exit->tp_format = &exit_tp;

	/* thread 42: A(count=5) calls B(count=9), and A returns 7 */
	if (tp_sample(fs, entry, &machine, 42, 100, 0x1000, 5, 0) ||
	    tp_sample(fs, entry, &machine, 42, 110, 0x2000, 9, 0) || got.nr ||
	    tp_sample(fs, exit, &machine, 42, 150, 0x1000, 0xabc, 7) || got.nr != 2)
		goto out;
	/* B's exit never came: it is handed on first, without one */
	b = &got.calls[0];
	a = &got.calls[1];
	if (b->func != 0x2000 || b->flags != FPROBE_CALL_ENTRY || b->entry_time != 110 ||
	    b->depth != 1 || b->nargs != 1 || b->args[0] != 9 || got.masks[0] != 0x1) {
		pr_debug("B: func %#" PRIx64 " flags %#x depth %u\n", b->func, b->flags, b->depth);
		goto out;
	}
	if (a->func != 0x1000 || a->flags != (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT) ||
	    a->entry_time != 100 || a->duration != 50 || a->retval != 7 ||
	    a->ret_ip != 0xabc || a->depth != 0 || a->nargs != 1 || a->args[0] != 5 ||
	    got.masks[1] != 0x1 || a->pid != 42 || a->tid != 42 || a->cpu != 2) {
		pr_debug("A: func %#" PRIx64 " duration %" PRIu64 " retval %" PRIu64 "\n",
			 a->func, a->duration, a->retval);
		goto out;
	}

	/* thread 43: an exit of a call begun before the recording, not shown */
	if (tp_sample(fs, exit, &machine, 43, 160, 0x3000, 0xdef, 0) || got.nr != 2)
		goto out;
	/* thread 44: an entry still open, not handed on */
	if (tp_sample(fs, entry, &machine, 44, 170, 0x1000, 1, 0) || got.nr != 2)
		goto out;

	st = fprobe_session__stats(fs);
	if (st->nr_calls != 1 || st->nr_incomplete != 1 || st->nr_begun_before != 1) {
		pr_debug("calls %" PRIu64 " incomplete %" PRIu64 " begun before %" PRIu64 "\n",
			 st->nr_calls, st->nr_incomplete, st->nr_begun_before);
		goto out;
	}
	ret = TEST_OK;
out:
	fprobe_session__delete(fs);
	if (entry) {
		fprobe_session__evsel_delete(entry);
		entry->tp_format = NULL;
		evsel__delete(entry);
	}
	if (exit) {
		fprobe_session__evsel_delete(exit);
		exit->tp_format = NULL;
		evsel__delete(exit);
	}
	machine__exit(&machine);
	return ret;
}

static struct test_case tests__fprobe_session[] = {
	/* "fprobe session" in each, so that perf test 'fprobe session' runs them all */
	TEST_CASE("fprobe session: fprobe PMU samples as calls", fprobe_session_pmu),
	TEST_CASE("fprobe session: PMU entry records' fetched values at exit",
		  fprobe_session_fetched),
	TEST_CASE("fprobe session: tracefs entries and exits paired per thread",
		  fprobe_session_tracefs),
	{	.name = NULL, }
};

struct test_suite suite__fprobe_session = {
	.desc = "fprobe session",
	.test_cases = tests__fprobe_session,
};
