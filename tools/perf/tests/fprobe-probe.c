// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the probes of perf fprobe (util/fprobe-probe.c): how a probe
 * 'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]' is read, and how it is expanded to
 * traceable functions, here those of a list given in place of the running
 * kernel's available_filter_functions: which are traced, which skipped and
 * why, and the filter of the fprobe PMU event past its cap.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

#include "tests.h"
#include "util/debug.h"
#include "util/fprobe-probe.h"
#include "util/strlist.h"

/* The traceable functions of the tests */
#define AVAIL	"ksys_read,vfs_read,vfs_readv,vfs_write"

static int test__fprobe_probe_specs(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	static const char * const bad[] = {
		"", "   ", "vfs_read;", "vfs read!", "vfs_read 1count", "vfs_read count-1",
		"vfs_* a b c d e f g", "vfs_read,", ",vfs_read", "vfs_read,,vfs_write",
		"vfs_read,vfs;write", "vfs_*,!vfs_read", "!vfs_read", "vfs_read count,ksys_read",
	};
	struct fprobe_protos protos = { .vmlinux = NULL, };
	struct fprobe_probes probes;
	struct fprobe_probe *probe;
	int ret = TEST_FAIL;
	size_t i;

	fprobe_probes__init(&probes, &protos);
	if (fprobe_probes__add(&probes, "vfs_read  file\tcount") ||
	    fprobe_probes__add(&probes, "vfs_[rw]* a b c d e f") ||
	    fprobe_probes__add(&probes, "vfs_write,ksys_* count"))
		goto out;
	probe = list_first_entry(&probes.list, struct fprobe_probe, list);
	if (strcmp(probe->glob, "vfs_read") || probe->nr_params != 2 ||
	    strcmp(probe->params[0], "file") || strcmp(probe->params[1], "count") ||
	    strcmp(probe->spec, "vfs_read  file\tcount") || fprobe_probe__is_glob(probe))
		goto out;
	if (probe->nr_globs != 1 || strcmp(probe->globs[0].glob, "vfs_read") ||
	    fprobe_probe__is_multi(probe))
		goto out;
	probe = list_next_entry(probe, list);
	if (strcmp(probe->glob, "vfs_[rw]*") || probe->nr_params != 6 ||
	    !fprobe_probe__is_glob(probe) || !fprobe_probe__is_multi(probe))
		goto out;
	/* a list: several functions, parameters as for a glob */
	probe = list_next_entry(probe, list);
	if (strcmp(probe->glob, "vfs_write,ksys_*") || probe->nr_globs != 2 ||
	    strcmp(probe->globs[0].glob, "vfs_write") || strcmp(probe->globs[1].glob, "ksys_*") ||
	    probe->nr_params != 1 || !fprobe_probe__is_multi(probe))
		goto out;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (fprobe_probes__add(&probes, bad[i]) != -EINVAL) {
			pr_debug("'%s' accepted\n", bad[i]);
			goto out;
		}
	}
	/* the bad ones add nothing */
	ret = list_is_last(&probe->list, &probes.list) ? TEST_OK : TEST_FAIL;
out:
	fprobe_probes__exit(&probes);
	fprobe_protos__exit(&protos);
	return ret;
}

static const char * const skip_tags[FPROBE_SKIP__MAX] = {
	[FPROBE_SKIP_UNKNOWN]	= "unknown",
	[FPROBE_SKIP_NOTRACE]	= "notrace",
	[FPROBE_SKIP_INLINED]	= "inlined",
	[FPROBE_SKIP_AMBIGUOUS]	= "ambiguous",
	[FPROBE_SKIP_EXCLUDED]	= "excluded",
	[FPROBE_SKIP_CAP]	= "cap",
};

/*
 * The functions the probes @specs (apart by '|') trace less those of
 * @notrace (none: ""), apart by ',', as "name,name", then those skipped as
 * " -name:why"; "error" if they are refused. With @max_funcs >= 0, the
 * cap of the fprobe PMU (@per_probe) or of the tracefs fallback; @filter,
 * if not NULL, gets the filter of the first probe.
 */
static int expand_capped(const char *specs, const char *notrace, int max_funcs,
			 bool per_probe, char *buf, size_t size, char *filter, size_t fsize)
{
	/* BTF: no walk of the DWARF of the running kernel's vmlinux for an unknown name */
	struct fprobe_protos protos = { .vmlinux = NULL, .use_btf = true, };
	struct fprobe_probes probes;
	char *copy = strdup(specs), *spec, *saveptr = NULL;
	char avail[] = AVAIL;	/* strlist__new() writes in it */
	size_t len = 0;
	int i, err = -1;

	fprobe_probes__init(&probes, &protos);
	if (*notrace)
		probes.notrace = notrace;
	probes.max_funcs = max_funcs;
	probes.max_per_probe = per_probe;
	probes.avail = strlist__new(avail, NULL);
	if (!copy || !probes.avail)
		goto out;
	for (spec = strtok_r(copy, "|", &saveptr); spec; spec = strtok_r(NULL, "|", &saveptr)) {
		if (fprobe_probes__add(&probes, spec))
			goto out;
	}
	if (fprobe_probes__prepare(&probes, NULL) < 0) {
		scnprintf(buf, size, "error");
		err = 0;
		goto out;
	}
	buf[0] = '\0';
	for (i = 0; i < probes.nr_funcs; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? "," : "",
				 probes.funcs[i].name);
	for (i = 0; i < probes.nr_skipped; i++)
		len += scnprintf(buf + len, size - len, " -%s:%s", probes.skipped[i].name,
				 skip_tags[probes.skipped[i].reason]);
	if (filter) {
		struct fprobe_probe *probe = list_first_entry(&probes.list, struct fprobe_probe,
							      list);

		scnprintf(filter, fsize, "%s", probe->filter ?: "(none)");
	}
	err = 0;
out:
	free(copy);
	fprobe_probes__exit(&probes);
	fprobe_protos__exit(&protos);
	return err;
}

static int expand(const char *specs, const char *notrace, char *buf, size_t size)
{
	return expand_capped(specs, notrace, -1, false, buf, size, NULL, 0);
}

static int test__fprobe_probe_expand(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	static const struct {
		const char *specs, *notrace, *funcs;
	} cases[] = {
		{ "vfs_read",			"",			"vfs_read" },
		{ "vfs_read*",			"",			"vfs_read,vfs_readv" },
		{ "*read*",		"",		"ksys_read,vfs_read,vfs_readv" },
		{ "vfs_*|ksys_read",		"",	"vfs_read,vfs_readv,vfs_write,ksys_read" },
		{ "vfs_*",			"vfs_readv, vfs_w*",	"vfs_read" },
		{ "*",				"vfs_*",		"ksys_read" },
		/* lists: in their order, a function matched twice traced once */
		{ "vfs_write,vfs_read*",	"",	"vfs_write,vfs_read,vfs_readv" },
		{ "vfs_read,vfs_read*",		"",		"vfs_read,vfs_readv" },
		/* a function named that cannot be traced is skipped, and why */
		{ "vfs_read,fprobe_test_no_such_function", "",
		  "vfs_read -fprobe_test_no_such_function:unknown" },
		{ "vfs_read,vfs_write",		"vfs_w*",	"vfs_read -vfs_write:excluded" },
		{ "fprobe_test_no_such_function|ksys_read", "",
		  "ksys_read -fprobe_test_no_such_function:unknown" },
		/* a glob that matches none adds nothing, and is no error */
		{ "nomatch_*,ksys_read",	"",			"ksys_read" },
		/* matched by two probes: traced by the one naming it, else the first */
		{ "vfs_read|vfs_*",		"",	"vfs_read,vfs_readv,vfs_write" },
		{ "vfs_*|vfs_read",		"",	"vfs_read,vfs_readv,vfs_write" },
		{ "vfs_read*|vfs_*",		"",	"vfs_read,vfs_readv,vfs_write" },
		/* nothing left to trace */
		{ "vfs_read",			"vfs_*",		"error" },
		{ "vfs_*",			"*",			"error" },
		{ "nomatch_*",			"",			"error" },
		{ "fprobe_test_no_such_function", "",			"error" },
		{ "fprobe_test_no_such_function,nomatch_*", "",		"error" },
	};
	char buf[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (expand(cases[i].specs, cases[i].notrace, buf, sizeof(buf)) < 0)
			return TEST_FAIL;
		if (strcmp(buf, cases[i].funcs)) {
			pr_debug("-a \"%s\" -N \"%s\": %s, expected %s\n", cases[i].specs,
				 cases[i].notrace, buf, cases[i].funcs);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

/*
 * The cap on the functions attached: the tracefs fallback's on the run, in
 * the order of the probes; the fprobe PMU's on each probe's event, the
 * first functions by name kept, and the filter cut where they end
 */
static int test__fprobe_probe_cap(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	static const struct {
		const char *specs;
		int max_funcs;
		bool per_probe;
		const char *funcs, *filter;
	} cases[] = {
		{ "vfs_write|vfs_read*", 2, false, "vfs_write,vfs_read -vfs_readv:cap",
		  "vfs_write" },
		{ "vfs_write|vfs_read*", 2, true, "vfs_write,vfs_read,vfs_readv",
		  "vfs_write" },
		{ "vfs_write,vfs_read*", 3, true, "vfs_write,vfs_read,vfs_readv",
		  "vfs_write,vfs_read*" },
		/* ksys_read first by name; every name from vfs_read on left out */
		{ "*read*", 1, true, "ksys_read -vfs_read:cap -vfs_readv:cap",
		  "*read*,!vfs_read*,![w-~]*,!v[g-~]*,!vf[t-~]*,!vfs[`-~]*,!vfs_[s-~]*,!vfs_r[f-~]*,!vfs_re[b-~]*,!vfs_rea[e-~]*",
		},
		/* a list: the globs that attach nothing are left out */
		{ "vfs_readv,nomatch_*,vfs_read", 1, true, "vfs_read -vfs_readv:cap",
		  "vfs_read,!vfs_readv*,![w-~]*,!v[g-~]*,!vf[t-~]*,!vfs[`-~]*,!vfs_[s-~]*,!vfs_r[f-~]*,!vfs_re[b-~]*,!vfs_rea[e-~]*,!vfs_read[w-~]*",
		},
		{ "vfs_*", 0, true, "error", "" },
		/* what another probe traces is left out of the filter */
		{ "vfs_*|vfs_read", -1, true, "vfs_read,vfs_readv,vfs_write", "vfs_*,!vfs_read" },
		{ "vfs_read*|vfs_*", -1, true, "vfs_read,vfs_readv,vfs_write", "vfs_read*" },
	};
	char buf[256], filter[512];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (expand_capped(cases[i].specs, "", cases[i].max_funcs, cases[i].per_probe,
				  buf, sizeof(buf), filter, sizeof(filter)) < 0)
			return TEST_FAIL;
		if (strcmp(buf, cases[i].funcs) ||
		    (strcmp(buf, "error") && strcmp(filter, cases[i].filter))) {
			pr_debug("-a \"%s\", cap %d (per probe: %d): %s, filter %s; expected %s, filter %s\n",
				 cases[i].specs, cases[i].max_funcs, cases[i].per_probe, buf,
				 filter, cases[i].funcs, cases[i].filter);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

/*
 * The fetch arguments of member paths and types, from the BTF of the
 * running kernel: struct open_how is uapi, so its offsets are known; a
 * struct file's are not, only the shape of what reads them.
 */
static int test__fprobe_probe_fetch(struct test_suite *test __maybe_unused,
				    int subtest __maybe_unused)
{
	static const struct {
		const char *spec, *filter;
	} cases[] = {
		{ "do_sys_openat2 filename:string", "do_sys_openat2;+0($arg2):string" },
		{ "do_sys_openat2 filename:ustring", "do_sys_openat2;+0($arg2):ustring" },
		{ "do_sys_openat2 dfd how->flags name=filename:ustring how->mode:x32",
		  "do_sys_openat2;+0($arg3):u64 +0($arg2):ustring +8($arg3):x32" },
		{ "do_sys_openat2 how->resolve dfd:u8", "do_sys_openat2;+16($arg3):u64 $arg1:u8" },
		{ "do_sys_openat2 how[1].mode", "do_sys_openat2;+32($arg3):u64" },
		/* each an error naming the part that is wrong */
		{ "do_sys_openat2 how->nope", "error" },
		{ "do_sys_openat2 dfd->x", "error" },
		{ "do_sys_openat2 how:string", "error" },
		{ "do_sys_openat2 how->flags:ustring", "error" },
		{ "do_sys_openat2 how.flags", "error" },
		{ "do_sys_openat2 how->flags:string", "error" },
		{ "do_sys_openat2 filename->x", "error" },
		{ "do_sys_openat2 nope->x", "error" },
		{ "do_sys_openat2 how->flags how->flags", "error" },
		{ "do_sys_openat2 dfd dfd=how->flags", "error" },
		{ "do_sys_openat2 retval=dfd:u32", "error" },
		/* a field named as a parameter is read back as that parameter */
		{ "do_sys_openat2 how=how->flags", "error" },
	};
	struct fprobe_protos protos = { .vmlinux = NULL, .use_btf = true, };
	int ret = TEST_OK;
	size_t i;

	if (!fprobe_protos__have(&protos, "the test")) {
		fprobe_protos__exit(&protos);
		return TEST_SKIP;
	}
	for (i = 0; i < ARRAY_SIZE(cases) && ret == TEST_OK; i++) {
		char avail[] = "do_sys_openat2,vfs_read";
		struct fprobe_probes probes;
		const char *filter = "error";

		fprobe_probes__init(&probes, &protos);
		probes.avail = strlist__new(avail, NULL);
		if (!probes.avail) {
			ret = TEST_FAIL;
			break;
		}
		if (!fprobe_probes__add(&probes, cases[i].spec) &&
		    !fprobe_probes__prepare(&probes, NULL))
			filter = list_first_entry(&probes.list, struct fprobe_probe, list)->filter;
		if (strcmp(filter, cases[i].filter)) {
			pr_debug("-a '%s': filter %s, expected %s\n", cases[i].spec, filter,
				 cases[i].filter);
			ret = TEST_FAIL;
		}
		fprobe_probes__exit(&probes);
	}
	fprobe_protos__exit(&protos);
	return ret;
}

static struct test_case tests__fprobe_probe[] = {
	TEST_CASE("fprobe probes: FUNC|GLOB[,FUNC|GLOB...] [PARAM...]", fprobe_probe_specs),
	TEST_CASE("fprobe probes: globs, lists and the not-filter", fprobe_probe_expand),
	TEST_CASE("fprobe probes: the cap on the functions attached", fprobe_probe_cap),
	TEST_CASE("fprobe probes: member paths and types, from BTF", fprobe_probe_fetch),
	{	.name = NULL, }
};

struct test_suite suite__fprobe_probe = {
	.desc = "fprobe probes",
	.test_cases = tests__fprobe_probe,
};
