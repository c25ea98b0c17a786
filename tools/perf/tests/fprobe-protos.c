// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of where perf fprobe takes the parameters of a kernel function
 * from: the calling conventions it places parameters by, the DWARF and
 * the BTF of one vmlinux telling the same registers for them, and those
 * registers being the ones the compiler's location lists give at the
 * entry wherever they give one.
 *
 * The second test reads the running kernel's vmlinux (as perf fprobe
 * finds it) or the one PERF_TEST_FPROBE_VMLINUX names, its DWARF and
 * its .BTF section; it is skipped when either is missing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

#include "tests.h"
#include "util/debug.h"
#include "util/fprobe-btf.h"
#include "util/fprobe-dwarf.h"
#include "util/strlist.h"

struct abi_case {
	enum fprobe_type_kind	kind;
	int			full_size;
	int			x86_64;		/* expected register, -1: none */
	int			aarch64;
};

/*
 * A prototype that walks the rules: after a struct of 16 bytes (two
 * registers) and one of 24 (x86-64: on the stack, taking no register;
 * AAPCS64: by reference, taking one), the scalars go on in the registers
 * left until they are used up; a float takes no integer register.
 */
static const struct abi_case abi_cases[] = {
	{ FPROBE_TYPE_POINTER,	 8,  0,  0 },
	{ FPROBE_TYPE_OTHER,	16, -1, -1 },	/* two registers: 1, 2 */
	{ FPROBE_TYPE_SIGNED,	 4,  3,  3 },
	{ FPROBE_TYPE_OTHER,	24, -1, -1 },	/* aarch64: its address in 4 */
	{ FPROBE_TYPE_FLOAT,	 8, -1, -1 },
	{ FPROBE_TYPE_OTHER,	 8,  4,  5 },	/* a small struct, one register */
	{ FPROBE_TYPE_UNSIGNED,	 8,  5,  6 },
	{ FPROBE_TYPE_OTHER,	16, -1, -1 },	/* aarch64: one left, on the stack */
	{ FPROBE_TYPE_BOOL,	 1, -1, -1 },	/* x86-64: six used; aarch64: NGRN 8 */
};

static int test__fprobe_protos_abi(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	static const unsigned int machines[] = { EM_X86_64, EM_AARCH64, EM_RISCV };
	size_t m, i;

	for (m = 0; m < ARRAY_SIZE(machines); m++) {
		int next = 0;

		for (i = 0; i < ARRAY_SIZE(abi_cases); i++) {
			const struct abi_case *c = &abi_cases[i];
			struct fprobe_type type = {
				.kind = c->kind,
				.size = min(c->full_size, 8),
				.full_size = c->full_size,
			};
			const char *why = NULL;
			int want = machines[m] == EM_X86_64 ? c->x86_64 : c->aarch64;
			int got = fprobe_abi__place(machines[m], &type, &next, &why);

			if (got != want || (got < 0 && !why) || (got >= 0 && why)) {
				pr_debug("machine %u, parameter %zu: register %d, expected %d (%s)\n",
					 machines[m], i, got, want, why ?: "no reason");
				return TEST_FAIL;
			}
		}
	}

	/* a struct returned in memory: x86-64 and RISC-V pass its address first */
	for (m = 0; m < ARRAY_SIZE(machines); m++) {
		struct fprobe_type ret = { .kind = FPROBE_TYPE_OTHER, .size = 8 };
		int big = machines[m] != EM_AARCH64;

		ret.full_size = 16;
		if (fprobe_abi__first_arg(machines[m], &ret) != 0)
			return TEST_FAIL;
		ret.full_size = 36;
		if (fprobe_abi__first_arg(machines[m], &ret) != big)
			return TEST_FAIL;
		ret.kind = FPROBE_TYPE_POINTER;
		ret.full_size = 8;
		if (fprobe_abi__first_arg(machines[m], &ret) != 0)
			return TEST_FAIL;
	}
	return TEST_OK;
}

struct protos_stats {
	int	funcs;		/* in both */
	int	params;
	int	captured;	/* in a register by both */
	int	differ;		/* in registers or kinds */
	int	other;		/* BTF's prototype is another function's */
	int	located;	/* placed where a DWARF location list says */
	int	misplaced;	/* elsewhere */
};

/* Whether @d (DWARF) and @b (BTF) place the parameters of one function alike */
static bool protos_agree(const struct fprobe_func *d, const struct fprobe_func *b,
			 struct protos_stats *st)
{
	int i;

	/*
	 * pahole keeps one prototype per name: that of a static function of
	 * the name elsewhere, inlined there (kmem_cache_release() of
	 * slab_common.c and of slub.c), may stand for the one in the
	 * symbol table. Told by the number of parameters, counted apart.
	 */
	if (d->nr_params != b->nr_params) {
		pr_debug("%s: %d parameters in DWARF, %d in BTF: another function of the name\n",
			 d->name, d->nr_params, b->nr_params);
		st->other++;
		return true;
	}
	for (i = 0; i < d->nr_params; i++) {
		const struct fprobe_param *dp = &d->params[i], *bp = &b->params[i];

		st->params++;
		if (dp->arg != bp->arg || dp->type.kind != bp->type.kind) {
			pr_debug("%s: parameter %d (%s): register %d, kind %d in DWARF (%s); %d, %d in BTF (%s)\n",
				 d->name, i + 1, dp->name, dp->arg, dp->type.kind,
				 dp->no_arg ?: "-", bp->arg, bp->type.kind,
				 bp->no_arg ?: "-");
			return false;
		}
		st->captured += dp->arg >= 0;
		/*
		 * The compiler's own word, independent of fprobe_abi__place():
		 * a location list that has the parameter in an argument
		 * register at the entry.
		 */
		if (dp->loc_arg >= 0 && dp->arg >= 0 && !strchr(d->name, '.')) {
			if (dp->loc_arg == dp->arg) {
				st->located++;
			} else {
				st->misplaced++;
				pr_debug("%s: parameter %d (%s) placed in register %d, its location list says %d\n",
					 d->name, i + 1, dp->name, dp->arg, dp->loc_arg);
			}
		}
	}
	return true;
}

struct protos_ctx {
	struct fprobe_reader	*dwarf;
	struct fprobe_reader	*btf;
	struct protos_stats	st;
};

static int protos_check_func(const char *name, void *arg)
{
	struct protos_ctx *ctx = arg;
	struct fprobe_func *d, *b;

	b = fprobe_reader__find_func(ctx->btf, name);
	if (!b)
		return errno == ENOMEM ? -ENOMEM : 0;
	/* NULL for a name of several functions, or one DWARF lacks */
	d = fprobe_reader__find_func(ctx->dwarf, name);
	if (!d && errno == ENOMEM) {
		fprobe_func__delete(b);
		return -ENOMEM;
	}
	if (d) {
		ctx->st.funcs++;
		ctx->st.differ += !protos_agree(d, b, &ctx->st);
	}
	fprobe_func__delete(d);
	fprobe_func__delete(b);
	return 0;
}

static int test__fprobe_protos_agree(struct test_suite *test __maybe_unused,
				     int subtest __maybe_unused)
{
	struct protos_ctx ctx = {};
	struct strlist *names = NULL;
	const char *vmlinux = getenv("PERF_TEST_FPROBE_VMLINUX");
	int ret;

	if (!vmlinux)
		vmlinux = fprobe_dwarf__default_vmlinux();
	if (!vmlinux)
		return TEST_SKIP;
	ctx.dwarf = fprobe_dwarf__new(vmlinux);
	ctx.btf = fprobe_btf__new(vmlinux);
	if (!ctx.dwarf || !ctx.btf) {
		pr_debug("%s: %s\n", vmlinux, !ctx.dwarf ? "no DWARF" : "no BTF");
		ret = TEST_SKIP;
		goto out;
	}
	/* each format's own call refuses a reader of the other */
	names = strlist__new(NULL, NULL);
	if (!names || fprobe_btf__walk_funcs(ctx.dwarf, protos_check_func, &ctx) != -EINVAL ||
	    fprobe_dwarf__find_inlined(ctx.btf, names, names) != -EINVAL) {
		pr_debug("%s\n", names ? "a reader of the other format was not refused" :
			 "out of memory");
		ret = TEST_FAIL;
		goto out;
	}
	ret = fprobe_btf__walk_funcs(ctx.btf, protos_check_func, &ctx);
	pr_debug("%s: %d functions in both, %d parameters, %d captured, %d functions differ, %d of another function in BTF; %d parameters where a location list says, %d elsewhere\n",
		 vmlinux, ctx.st.funcs, ctx.st.params, ctx.st.captured, ctx.st.differ,
		 ctx.st.other, ctx.st.located, ctx.st.misplaced);
	/* a vmlinux of a few functions would prove nothing */
	ret = !ret && ctx.st.funcs >= 1000 && ctx.st.captured >= ctx.st.params / 2 &&
	      ctx.st.located >= 1000 && !ctx.st.misplaced &&
	      !ctx.st.differ && ctx.st.other * 100 < ctx.st.funcs ? TEST_OK : TEST_FAIL;
out:
	strlist__delete(names);
	fprobe_reader__delete(ctx.dwarf);
	fprobe_reader__delete(ctx.btf);
	return ret;
}

static struct test_case tests__fprobe_protos[] = {
	TEST_CASE("fprobe prototypes: calling convention placement", fprobe_protos_abi),
	TEST_CASE("fprobe prototypes: DWARF and BTF place parameters alike", fprobe_protos_agree),
	{	.name = NULL, }
};

struct test_suite suite__fprobe_protos = {
	.desc = "fprobe prototypes",
	.test_cases = tests__fprobe_protos,
};
