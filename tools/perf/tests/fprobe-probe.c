// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the probes of perf fprobe (util/fprobe-probe.c): how a probe
 * 'FUNC|GLOB [PARAM...]' is read, and how it is expanded to traceable
 * functions, here those of a list given in place of the running kernel's
 * available_filter_functions.
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
		"vfs_* a b c d e f g",
	};
	struct fprobe_protos protos = { .vmlinux = NULL, };
	struct fprobe_probes probes;
	struct fprobe_probe *probe;
	int ret = TEST_FAIL;
	size_t i;

	fprobe_probes__init(&probes, &protos);
	if (fprobe_probes__add(&probes, "vfs_read  file\tcount") ||
	    fprobe_probes__add(&probes, "vfs_[rw]* a b c d e f"))
		goto out;
	probe = list_first_entry(&probes.list, struct fprobe_probe, list);
	if (strcmp(probe->glob, "vfs_read") || probe->nr_params != 2 ||
	    strcmp(probe->params[0], "file") || strcmp(probe->params[1], "count") ||
	    strcmp(probe->spec, "vfs_read  file\tcount") || fprobe_probe__is_glob(probe))
		goto out;
	probe = list_next_entry(probe, list);
	if (strcmp(probe->glob, "vfs_[rw]*") || probe->nr_params != 6 ||
	    !fprobe_probe__is_glob(probe))
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

/*
 * The functions the probes @specs (apart by '|') trace less those of
 * @notrace (none: ""), apart by ',', as "name,name"; "error" if they
 * are refused
 */
static int expand(const char *specs, const char *notrace, char *buf, size_t size)
{
	struct fprobe_protos protos = { .vmlinux = NULL, };
	struct fprobe_probes probes;
	char *copy = strdup(specs), *spec, *saveptr = NULL;
	char avail[] = AVAIL;	/* strlist__new() writes in it */
	size_t len = 0;
	int i, err = -1;

	fprobe_probes__init(&probes, &protos);
	if (*notrace)
		probes.notrace = notrace;
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
	err = 0;
out:
	free(copy);
	fprobe_probes__exit(&probes);
	fprobe_protos__exit(&protos);
	return err;
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
		/* matched twice, excluded, no match, unknown */
		{ "vfs_read|vfs_*",		"",			"error" },
		{ "vfs_read",			"vfs_*",		"error" },
		{ "vfs_*",			"*",			"error" },
		{ "nomatch_*",			"",			"error" },
		{ "fprobe_test_no_such_function", "",			"error" },
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

static struct test_case tests__fprobe_probe[] = {
	TEST_CASE("fprobe probes: FUNC|GLOB [PARAM...]", fprobe_probe_specs),
	TEST_CASE("fprobe probes: globs and the not-filter", fprobe_probe_expand),
	{	.name = NULL, }
};

struct test_suite suite__fprobe_probe = {
	.desc = "fprobe probes",
	.test_cases = tests__fprobe_probe,
};
