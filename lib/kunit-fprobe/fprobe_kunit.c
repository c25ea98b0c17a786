// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for fprobe on the function graph tracer.
 *
 * The probed functions are the noinline fprobe_kunit_target*() below, always
 * called through pointers so that the compiler can neither inline nor fold
 * them. The handlers only record what they see; the test cases check the
 * records after the calls, so a handler never runs a KUnit assertion in a
 * context (another CPU, a kthread) where it could not stop the test.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/context_tracking.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/error-injection.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <asm/fprobe.h>

#define NR_CALLS	1000

/* The targets. Keep their names under the "fprobe_kunit_target*" glob. */
static noinline unsigned long fprobe_kunit_target(unsigned long v)
{
	return v * 3 + 1;
}

static noinline unsigned long fprobe_kunit_target2(unsigned long v)
{
	return v ^ 0x5a5a;
}

static noinline unsigned long
fprobe_kunit_target_args(unsigned long a, unsigned long b, unsigned long c,
			 unsigned long d, unsigned long e, unsigned long f)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}

/* Set by fprobe_suite_init(), so that the compiler cannot see the callee */
static unsigned long (*target)(unsigned long v);
static unsigned long (*target2)(unsigned long v);
static unsigned long (*target_args)(unsigned long a, unsigned long b,
				    unsigned long c, unsigned long d,
				    unsigned long e, unsigned long f);

static noinline unsigned long fprobe_kunit_target_nest(unsigned long v)
{
	return target(v + 1) + 1;
}

static unsigned long (*target_nest)(unsigned long v);

/*
 * The function which calls target_args, to check ret_ip against. It adds 1
 * to the result so that the call cannot become a tail call (a jump, whose
 * return address would be in our caller).
 */
static noinline unsigned long fprobe_kunit_call_args(unsigned long base)
{
	return target_args(base, base + 1, base + 2, base + 3, base + 4,
			   base + 5) + 1;
}

/* Is @ip the ftrace location of @func (after an ENDBR if there is one)? */
static bool ip_is_func(unsigned long ip, void *func)
{
	return ip >= (unsigned long)func && ip < (unsigned long)func + 16;
}

/* Is @ip inside the function named @name? */
static bool ip_in_func(unsigned long ip, const char *name)
{
	char buf[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(buf, ip);
	/* "name", "name.constprop.0" or "name [module]" */
	return !strncmp(buf, name, strlen(name)) &&
	       strchr(" .", buf[strlen(name)]);
}

/*
 * A probe which counts its handler calls and checks its entry data. The
 * entry handler fills the entry data with a pattern made of the probe and
 * the argument; the exit handler counts a mismatch if it finds anything
 * else there.
 */
struct test_probe {
	struct fprobe		fp;
	atomic_t		entries;
	atomic_t		exits;
	atomic_t		bad_data;
	atomic_t		bad_ip;
	/* The entry_ip of the last entry: the ftrace location of a target */
	unsigned long		ip;
	/* The entry handler returns non-zero (skips the exit) on odd calls */
	bool			skip_odd;
	atomic_t		calls;
	/* Handler order for the nesting test */
	unsigned long		*log;
	atomic_t		*log_pos;
	unsigned long		log_tag;
	/* The calls of the missed handler, and the entry_ip of the last one */
	atomic_t		missed;
	unsigned long		missed_ip;
};

#define to_test_probe(f)	container_of(f, struct test_probe, fp)

static u8 data_pattern(struct test_probe *tp, unsigned long arg, size_t i)
{
	return (u8)((unsigned long)tp >> 4) ^ (u8)arg ^ (u8)(i * 7 + 1);
}

static void log_event(struct test_probe *tp, unsigned long what)
{
	int pos;

	if (!tp->log)
		return;
	pos = atomic_inc_return(tp->log_pos) - 1;
	if (pos < 16)
		tp->log[pos] = tp->log_tag | what;
}

static notrace int tp_entry(struct fprobe *fp, unsigned long ip,
			    unsigned long ret_ip, struct ftrace_regs *fregs,
			    void *data)
{
	struct test_probe *tp = to_test_probe(fp);
	unsigned long arg = ftrace_regs_get_argument(fregs, 0);
	size_t i;

	atomic_inc(&tp->entries);
	WRITE_ONCE(tp->ip, ip);
	log_event(tp, ip);
	if (fp->entry_data_size) {
		if (!data || !IS_ALIGNED((unsigned long)data, sizeof(long)))
			atomic_inc(&tp->bad_data);
		else
			for (i = 0; i < fp->entry_data_size; i++)
				((u8 *)data)[i] = data_pattern(tp, arg, i);
	} else if (data) {
		atomic_inc(&tp->bad_data);
	}

	if (tp->skip_odd)
		return atomic_inc_return(&tp->calls) & 1;
	return 0;
}

static notrace void tp_exit(struct fprobe *fp, unsigned long ip,
			    unsigned long ret_ip, struct ftrace_regs *fregs,
			    void *data)
{
	struct test_probe *tp = to_test_probe(fp);
	size_t i;

	atomic_inc(&tp->exits);
	log_event(tp, ip);
	if (!fp->entry_data_size) {
		if (data)
			atomic_inc(&tp->bad_data);
		return;
	}
	if (!data) {
		atomic_inc(&tp->bad_data);
		return;
	}
	/*
	 * The argument register is gone at the exit: the pattern is checked
	 * against the one written for the first byte.
	 */
	for (i = 0; i < fp->entry_data_size; i++) {
		u8 first = ((u8 *)data)[0] ^ (u8)1;

		if ((((u8 *)data)[i] ^ (u8)(i * 7 + 1)) != first) {
			atomic_inc(&tp->bad_data);
			break;
		}
	}
}

static notrace void tp_missed(struct fprobe *fp, unsigned long ip)
{
	struct test_probe *tp = to_test_probe(fp);

	atomic_inc(&tp->missed);
	WRITE_ONCE(tp->missed_ip, ip);
}

static void tp_init(struct test_probe *tp, bool entry, bool exit,
		    size_t data_size)
{
	memset(tp, 0, sizeof(*tp));
	tp->fp.missed_handler = tp_missed;
	if (entry)
		tp->fp.entry_handler = tp_entry;
	if (exit)
		tp->fp.exit_handler = tp_exit;
	tp->fp.entry_data_size = data_size;
}

static void call_target(int n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		target(i);
}

/*
 * Arguments at entry, return value at exit, entry_ip and ret_ip, and the
 * stack pointer at both
 */

static unsigned long args_seen[6], retval_seen;
static unsigned long args_entry_ip, args_entry_ret_ip;
static unsigned long args_exit_ip, args_exit_ret_ip;
static unsigned long args_entry_sp, args_exit_sp;

static notrace int args_entry(struct fprobe *fp, unsigned long ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	int i;

	for (i = 0; i < 6; i++)
		args_seen[i] = ftrace_regs_get_argument(fregs, i);
	args_entry_ip = ip;
	args_entry_ret_ip = ret_ip;
	args_entry_sp = ftrace_regs_get_stack_pointer(fregs);
	return 0;
}

static notrace void args_exit(struct fprobe *fp, unsigned long ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	retval_seen = ftrace_regs_get_return_value(fregs);
	args_exit_ip = ip;
	args_exit_ret_ip = ret_ip;
	args_exit_sp = ftrace_regs_get_stack_pointer(fregs);
}

static void fprobe_test_args_retval(struct kunit *test)
{
	struct fprobe fp = {
		.entry_handler = args_entry,
		.exit_handler = args_exit,
	};
	unsigned long ret;
	int i;

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&fp, "fprobe_kunit_target_args", NULL));
	ret = fprobe_kunit_call_args(0x1000);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&fp));

	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ_MSG(test, args_seen[i], 0x1000UL + i, "argument %d", i);
	KUNIT_EXPECT_EQ(test, ret, 21 * 0x1000UL + 70 + 1);
	KUNIT_EXPECT_EQ(test, retval_seen + 1, ret);
	KUNIT_EXPECT_TRUE(test, ip_is_func(args_entry_ip, fprobe_kunit_target_args));
	KUNIT_EXPECT_EQ(test, args_exit_ip, args_entry_ip);
	KUNIT_EXPECT_TRUE_MSG(test, ip_in_func(args_entry_ret_ip, "fprobe_kunit_call_args"),
			      "ret_ip %pS", (void *)args_entry_ret_ip);
	KUNIT_EXPECT_EQ(test, args_exit_ret_ip, args_entry_ret_ip);
	/*
	 * The stack pointer the function returned with: the one it was
	 * called with, or one word above where the call pushed the return
	 * address (x86). Exit handlers read it ($stack of a %return event,
	 * the sp of a BPF kretprobe.multi program).
	 */
	KUNIT_EXPECT_TRUE_MSG(test, args_exit_sp == args_entry_sp ||
			      args_exit_sp == args_entry_sp + sizeof(long),
			      "sp %#lx at entry, %#lx at exit", args_entry_sp,
			      args_exit_sp);
	KUNIT_EXPECT_EQ(test, 0UL, fp.nmissed);
}

/*
 * A function that uses the stack below the stack pointer it was called
 * with: what an earlier frame left there (such as the ftrace_regs of its
 * own entry) is overwritten before it returns. Not under the
 * "fprobe_kunit_target*" glob.
 */
static noinline unsigned long fprobe_kunit_stack_user(unsigned long v)
{
	unsigned long buf[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(buf); i++)
		buf[i] = v + i;
	/* Every store is kept */
	barrier_data(buf);
	return buf[v % ARRAY_SIZE(buf)];
}

/*
 * The stack pointer of the return: that of the entry, or one word above it
 * where the call pushed the return address (x86). Read by exit handlers
 * ($stack of a %return event, the sp of a BPF kretprobe.multi program).
 * The function overwrites the stack below its entry, so a return handler
 * that does not set it reads what the function left there.
 */
static void fprobe_test_exit_stack_pointer(struct kunit *test)
{
	unsigned long (*fn)(unsigned long) = fprobe_kunit_stack_user;
	struct fprobe fp = {
		.entry_handler = args_entry,
		.exit_handler = args_exit,
	};
	unsigned long ret;

	/* A call the compiler cannot inline */
	OPTIMIZER_HIDE_VAR(fn);

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&fp, "fprobe_kunit_stack_user", NULL));
	ret = fn(0x100);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&fp));

	KUNIT_EXPECT_EQ(test, ret, 0x100UL);
	KUNIT_EXPECT_EQ(test, retval_seen, 0x100UL);
	KUNIT_EXPECT_TRUE_MSG(test, args_exit_sp == args_entry_sp ||
			      args_exit_sp == args_entry_sp + sizeof(long),
			      "sp %#lx at entry, %#lx at exit", args_entry_sp,
			      args_exit_sp);
	KUNIT_EXPECT_EQ(test, 0UL, fp.nmissed);
}

/*
 * An entry handler that makes the function return at once, as an error
 * injection does (bpf_override_return()): the function does not run, its
 * caller gets the value the handler set, the exit handlers of the call see
 * that value, and the call leaves no frame on the shadow stack. Where the
 * return address is in a register (arm64, riscv, powerpc, s390), fgraph or
 * fprobe hooks it after the entry handler ran; the override must return
 * through what the register holds then, not through the address the
 * handler saw. With the exit handler on another fprobe, each is registered
 * first in turn: where entry-only and exit fprobes are on two ftrace_ops
 * (s390), that decides which runs first. Not under the
 * "fprobe_kunit_target*" glob.
 */
#ifdef CONFIG_FUNCTION_ERROR_INJECTION
#define OVERRIDE_RETVAL	0xdeadUL

static int override_body_runs;
static int override_exits;
static unsigned long override_exit_ret;

static noinline unsigned long fprobe_kunit_override_me(unsigned long v)
{
	WRITE_ONCE(override_body_runs, override_body_runs + 1);
	return v + 1;
}

static notrace int override_entry(struct fprobe *fp, unsigned long ip,
				  unsigned long ret_ip, struct ftrace_regs *fregs,
				  void *data)
{
	ftrace_regs_set_return_value(fregs, OVERRIDE_RETVAL);
	ftrace_override_function_with_return(fregs);
	return 0;
}

static notrace void override_exit(struct fprobe *fp, unsigned long ip,
				  unsigned long ret_ip, struct ftrace_regs *fregs,
				  void *data)
{
	override_exits++;
	override_exit_ret = ftrace_regs_get_return_value(fregs);
}
#endif /* CONFIG_FUNCTION_ERROR_INJECTION */

/* Where the exit handler is, and which fprobe is registered first */
enum override_case {
	OVERRIDE_SAME,		/* on the overriding fprobe */
	OVERRIDE_OTHER_AFTER,	/* on another, registered after it */
	OVERRIDE_OTHER_BEFORE,	/* on another, registered before it */
};

static const enum override_case override_cases[] = {
	OVERRIDE_SAME, OVERRIDE_OTHER_AFTER, OVERRIDE_OTHER_BEFORE,
};

static void override_desc(const enum override_case *c, char *desc)
{
	static const char * const names[] = {
		[OVERRIDE_SAME]		= "same fprobe",
		[OVERRIDE_OTHER_AFTER]	= "another fprobe, registered after",
		[OVERRIDE_OTHER_BEFORE]	= "another fprobe, registered before",
	};

	strscpy(desc, names[*c], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(override, override_cases, override_desc);

static void fprobe_test_override(struct kunit *test)
{
#ifdef CONFIG_FUNCTION_ERROR_INJECTION
	unsigned long (*fn)(unsigned long) = fprobe_kunit_override_me;
	const enum override_case *c = test->param_value;
	struct fprobe over = { .entry_handler = override_entry };
	struct fprobe other = { .exit_handler = override_exit };
	struct fprobe *first = &over, *second = NULL;
	int depth_before, depth_after;
	unsigned long ret1, ret2;

	OPTIMIZER_HIDE_VAR(fn);
	if (*c == OVERRIDE_SAME) {
		over.exit_handler = override_exit;
	} else if (*c == OVERRIDE_OTHER_AFTER) {
		second = &other;
	} else {
		first = &other;
		second = &over;
	}
	override_body_runs = 0;
	override_exits = 0;
	override_exit_ret = 0;

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(first, "fprobe_kunit_override_me", NULL));
	if (second && register_fprobe(second, "fprobe_kunit_override_me", NULL)) {
		unregister_fprobe(first);
		KUNIT_FAIL_AND_ABORT(test, "registering the second fprobe failed");
	}
	depth_before = current->curr_ret_depth;
	ret1 = fn(1);
	depth_after = current->curr_ret_depth;
	ret2 = fn(2);
	if (second)
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(second));
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(first));

	KUNIT_EXPECT_EQ(test, ret1, OVERRIDE_RETVAL);
	KUNIT_EXPECT_EQ(test, ret2, OVERRIDE_RETVAL);
	KUNIT_EXPECT_EQ(test, 0, override_body_runs);
	KUNIT_EXPECT_EQ(test, 2, override_exits);
	KUNIT_EXPECT_EQ(test, override_exit_ret, OVERRIDE_RETVAL);
	KUNIT_EXPECT_EQ_MSG(test, depth_after, depth_before,
			    "the call left a frame on the shadow stack");
	KUNIT_EXPECT_EQ(test, 0UL, over.nmissed + other.nmissed);

	/* Unprobed, the function runs again */
	KUNIT_EXPECT_EQ(test, fn(3), 4UL);
	KUNIT_EXPECT_EQ(test, 1, override_body_runs);
#else
	kunit_skip(test, "needs CONFIG_FUNCTION_ERROR_INJECTION");
#endif
}

/*
 * The shared ops which should trace the functions of @fp: the one for the
 * fprobes with an exit handler, or the one for the entry-only fprobes.
 */
static unsigned int expected_ops(struct fprobe *fp)
{
#ifdef arch_fprobe_return_address_ptr
	/* The ftrace_ops hooks the returns itself: it serves them all. */
	return FPROBE_TRACED_BY_FTRACE;
#else
	return fp->exit_handler ? FPROBE_TRACED_BY_FGRAPH : FPROBE_TRACED_BY_FTRACE;
#endif
}

/*
 * An entry-only fprobe sees the same arguments, entry_ip and ret_ip, and no
 * entry data even if it asks for some: it has no exit handler to hand them
 * to, and it does not use the shadow stack.
 */
static void *args_entry_data;

static notrace int args_entry_save_data(struct fprobe *fp, unsigned long ip,
					unsigned long ret_ip,
					struct ftrace_regs *fregs, void *data)
{
	args_entry_data = data;
	return args_entry(fp, ip, ret_ip, fregs, data);
}

static void fprobe_test_entry_only_args(struct kunit *test)
{
	struct fprobe fp = {
		.entry_handler = args_entry_save_data,
		.entry_data_size = 4 * sizeof(long),
	};
	unsigned long ret;
	int i;

	args_entry_data = &fp;
	args_entry_ip = 0;
	args_entry_ret_ip = 0;
	memset(args_seen, 0, sizeof(args_seen));

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&fp, "fprobe_kunit_target_args", NULL));
	ret = fprobe_kunit_call_args(0x2000);
	KUNIT_EXPECT_EQ(test, expected_ops(&fp), fprobe_traced_by(args_entry_ip));
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&fp));

	KUNIT_EXPECT_EQ(test, ret, 21 * 0x2000UL + 70 + 1);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ_MSG(test, args_seen[i], 0x2000UL + i, "argument %d", i);
	KUNIT_EXPECT_PTR_EQ(test, args_entry_data, NULL);
	KUNIT_EXPECT_TRUE(test, ip_is_func(args_entry_ip, fprobe_kunit_target_args));
	KUNIT_EXPECT_TRUE_MSG(test, ip_in_func(args_entry_ret_ip, "fprobe_kunit_call_args"),
			      "ret_ip %pS", (void *)args_entry_ret_ip);
	KUNIT_EXPECT_EQ(test, 0UL, fp.nmissed);
	KUNIT_EXPECT_EQ(test, 0U, fprobe_traced_by(args_entry_ip));
}

/* Entry data of every size up to the limit, then past it */

static const size_t data_sizes[] = {
	0, 1, 4, sizeof(long) - 1, sizeof(long), sizeof(long) + 1,
	3 * sizeof(long), 7 * sizeof(long) + 3, 14 * sizeof(long) + 1,
	MAX_FPROBE_DATA_SIZE - 1, MAX_FPROBE_DATA_SIZE,
};

static void data_size_desc(const size_t *size, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "entry_data_size=%zu", *size);
}

KUNIT_ARRAY_PARAM(data_size, data_sizes, data_size_desc);

static void fprobe_test_entry_data(struct kunit *test)
{
	const size_t *size = test->param_value;
	struct test_probe *tp;

	tp = kunit_kzalloc(test, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp_init(tp, true, true, *size);

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp->fp, "fprobe_kunit_target", NULL));
	call_target(NR_CALLS);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp->fp));

	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp->entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp->exits));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp->bad_data));
	KUNIT_EXPECT_EQ(test, 0UL, tp->fp.nmissed);
}

static void fprobe_test_entry_data_too_big(struct kunit *test)
{
	struct test_probe tp;

	tp_init(&tp, true, true, MAX_FPROBE_DATA_SIZE + 1);
	KUNIT_EXPECT_EQ(test, -E2BIG, register_fprobe(&tp.fp, "fprobe_kunit_target", NULL));
	KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&tp.fp));

	tp_init(&tp, true, false, MAX_FPROBE_DATA_SIZE + sizeof(long));
	KUNIT_EXPECT_EQ(test, -E2BIG, register_fprobe(&tp.fp, "fprobe_kunit_target", NULL));

	/* The limit is the same for every way to register */
	tp_init(&tp, true, true, MAX_FPROBE_DATA_SIZE + 1);
	KUNIT_EXPECT_EQ(test, -E2BIG,
			register_fprobe_syms(&tp.fp, (const char *[]){ "fprobe_kunit_target" }, 1));

	call_target(10);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp.entries));
}

/*
 * Three fprobes with 12 longs of entry data each on one function: the block
 * reserved on the shadow stack (32 longs) holds only two of them, with
 * their headers (one long each where the architecture packs the header,
 * two elsewhere), so the third one is missed on every call (fprobe.rst,
 * "entry data limits").
 */
#define SHARED_BLOCK_DATA_SIZE	(12 * sizeof(long))

static void fprobe_test_entry_data_shared_block(struct kunit *test)
{
	struct test_probe *tp;
	int i, entries = 0, exits = 0;
	unsigned long missed = 0;

	tp = kunit_kcalloc(test, 3, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	for (i = 0; i < 3; i++) {
		tp_init(&tp[i], true, true, SHARED_BLOCK_DATA_SIZE);
		KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp[i].fp, "fprobe_kunit_target", NULL));
	}
	call_target(NR_CALLS);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp[i].fp));
		KUNIT_EXPECT_EQ(test, atomic_read(&tp[i].entries), atomic_read(&tp[i].exits));
		KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[i].bad_data));
		KUNIT_EXPECT_EQ(test, (unsigned long)(NR_CALLS - atomic_read(&tp[i].entries)),
				tp[i].fp.nmissed);
		/* The missed handler is called for each miss, with the address */
		KUNIT_EXPECT_EQ(test, (unsigned long)atomic_read(&tp[i].missed),
				tp[i].fp.nmissed);
		if (tp[i].fp.nmissed)
			KUNIT_EXPECT_EQ(test, tp[i].missed_ip, tp[(i + 1) % 3].ip);
		entries += atomic_read(&tp[i].entries);
		exits += atomic_read(&tp[i].exits);
		missed += tp[i].fp.nmissed;
	}
	KUNIT_EXPECT_EQ(test, 2 * NR_CALLS, entries);
	KUNIT_EXPECT_EQ(test, 2 * NR_CALLS, exits);
	KUNIT_EXPECT_EQ(test, (unsigned long)NR_CALLS, missed);
}

/* Exact handler counts: entry only, exit only, both */

static void fprobe_test_counts(struct kunit *test)
{
	struct test_probe *tp;
	int i;

	tp = kunit_kcalloc(test, 3, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp_init(&tp[0], true, false, 0);
	tp_init(&tp[1], false, true, 0);
	tp_init(&tp[2], true, true, sizeof(long));

	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp[i].fp, "fprobe_kunit_target", NULL));
		KUNIT_EXPECT_TRUE(test, fprobe_is_registered(&tp[i].fp));
	}
	call_target(NR_CALLS);
	/* A function no probe is on: no handler runs */
	for (i = 0; i < 10; i++)
		target2(i);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp[i].fp));
		KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&tp[i].fp));
		KUNIT_EXPECT_EQ(test, 0UL, tp[i].fp.nmissed);
		KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[i].bad_data));
	}
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[0].entries));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[0].exits));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[1].entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[1].exits));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[2].entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[2].exits));

	/* Nothing runs once they are all gone */
	call_target(10);
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[0].entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[2].exits));
}

/*
 * An fprobe on some 4,000 functions ("s*" and "p*", which include the
 * scheduler's and printk's) next to one on the target: with the address
 * table grown for them, the many are found when their functions are
 * called, and every call of the target is still found, before and while
 * the many are registered, and after they are gone.
 */
static void fprobe_test_many_addresses(struct kunit *test)
{
	struct test_probe tp, many;

	tp_init(&tp, true, true, sizeof(long));
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp.fp, "fprobe_kunit_target", NULL));
	call_target(NR_CALLS);

	tp_init(&many, true, false, 0);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&many.fp, "s* p*", NULL));
	KUNIT_EXPECT_GT(test, many.fp.hlist_array->size, 1000);
	/* printk() and the scheduler's functions are among the many */
	kunit_info(test, "%d addresses\n", many.fp.hlist_array->size);
	usleep_range(1000, 2000);
	call_target(NR_CALLS);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&many.fp));
	KUNIT_EXPECT_GT(test, atomic_read(&many.entries), 0);

	call_target(NR_CALLS);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));
	KUNIT_EXPECT_EQ(test, 3 * NR_CALLS, atomic_read(&tp.entries));
	KUNIT_EXPECT_EQ(test, 3 * NR_CALLS, atomic_read(&tp.exits));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp.bad_data));
	KUNIT_EXPECT_EQ(test, 0UL, tp.fp.nmissed);
}

/*
 * register_fprobe_syms() sorts the array it is given: pass it a
 * copy (the tests' tables are in .rodata)
 */
static int register_syms_copy(struct fprobe *fp, const char * const *syms, int num)
{
	const char *copy[4];

	if (num > ARRAY_SIZE(copy))
		return -E2BIG;
	memcpy(copy, syms, num * sizeof(*syms));
	return register_fprobe_syms(fp, copy, num);
}

/* Globs, not-filters, several patterns, symbol lists and their errors */

static void fprobe_test_filters(struct kunit *test)
{
	static const char * const syms[] = {
		"fprobe_kunit_target", "fprobe_kunit_target2",
	};
	static const char * const bad_syms[] = {
		"fprobe_kunit_target", "fprobe_kunit_no_such_function",
	};
	const char *two_patterns = "fprobe_kunit_target2, fprobe_kunit_target_args";
	const char *one_unmatched = "fprobe_kunit_target, fprobe_kunit_nothing*";
	struct test_probe tp;

	/* Glob minus a not-filter */
	tp_init(&tp, true, true, 0);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp.fp, "fprobe_kunit_target*",
						 "fprobe_kunit_target2 fprobe_kunit_target_*"));
	target(1);
	target2(1);
	target_args(1, 2, 3, 4, 5, 6);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&tp.entries));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&tp.exits));

	/* Several patterns, separated by commas and spaces */
	tp_init(&tp, true, true, 0);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp.fp, two_patterns, NULL));
	target(1);
	target2(1);
	target_args(1, 2, 3, 4, 5, 6);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));
	KUNIT_EXPECT_EQ(test, 2, atomic_read(&tp.entries));

	/* A symbol list */
	tp_init(&tp, true, true, 0);
	KUNIT_ASSERT_EQ(test, 0,
			register_syms_copy(&tp.fp, syms, ARRAY_SIZE(syms)));
	target(1);
	target2(1);
	target_args(1, 2, 3, 4, 5, 6);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));
	KUNIT_EXPECT_EQ(test, 2, atomic_read(&tp.exits));

	/* Errors */
	tp_init(&tp, true, true, 0);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			register_fprobe(&tp.fp, "fprobe_kunit_no_such_function", NULL));
	KUNIT_EXPECT_EQ(test, -ENOENT, register_fprobe(&tp.fp, one_unmatched, NULL));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			register_fprobe(&tp.fp, "fprobe_kunit_target2", "fprobe_kunit_target*"));
	KUNIT_EXPECT_EQ(test, -EINVAL, register_fprobe(&tp.fp, " ,", NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, register_fprobe(&tp.fp, NULL, NULL));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			register_syms_copy(&tp.fp, bad_syms, ARRAY_SIZE(bad_syms)));
	KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&tp.fp));
	KUNIT_EXPECT_NE(test, 0, unregister_fprobe(&tp.fp));

	/* A "!glob" in the filter removes what the globs before it added */
	tp_init(&tp, true, true, 0);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp.fp,
						 "fprobe_kunit_target*,!fprobe_kunit_target_*",
						 "fprobe_kunit_target2"));
	target(1);
	target2(1);
	target_args(1, 2, 3, 4, 5, 6);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&tp.entries));

	/* A glob of digits only, an index for set_ftrace_filter, is refused */
	KUNIT_EXPECT_EQ(test, -EINVAL, register_fprobe(&tp.fp, "12", NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			register_fprobe(&tp.fp, "fprobe_kunit_target", "!3"));

	/* An empty not-filter excludes nothing */
	tp_init(&tp, true, true, 0);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp.fp, "fprobe_kunit_target", ""));
	KUNIT_EXPECT_EQ(test, -EBUSY, register_fprobe(&tp.fp, "fprobe_kunit_target2", NULL));
	target(1);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&tp.entries));
}

/*
 * A symbol that does not exist is an error whatever the configuration:
 * kunit.py builds this suite without CONFIG_MODULES, the guest of make
 * check with it, and the lookup walks module symbols only in the latter.
 */

static void fprobe_test_syms_unknown(struct kunit *test)
{
	static const char * const missing_first[] = {
		"fprobe_kunit_no_such_function", "fprobe_kunit_target",
	};
	static const char * const missing_last[] = {
		"fprobe_kunit_target", "fprobe_kunit_target_zzz_no_such",
	};
	static const char * const only_missing[] = { "fprobe_kunit_no_such_function" };
	static const char * const known[] = { "fprobe_kunit_target" };
	struct test_probe tp;

	tp_init(&tp, true, true, 0);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			register_syms_copy(&tp.fp, missing_first, ARRAY_SIZE(missing_first)));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			register_syms_copy(&tp.fp, missing_last, ARRAY_SIZE(missing_last)));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			register_syms_copy(&tp.fp, only_missing, ARRAY_SIZE(only_missing)));
	KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&tp.fp));
	target(1);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp.entries));

	/* The same fprobe registers once every symbol exists */
	KUNIT_ASSERT_EQ(test, 0, register_syms_copy(&tp.fp, known, ARRAY_SIZE(known)));
	target(1);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&tp.entries));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&tp.exits));
}

/*
 * fprobe_ips_from_filter(), the walk register_fprobe(), fprobe events and
 * the fprobe PMU share: the ftrace locations, sorted, each once; the cap;
 * and whether every glob must match
 */
static void fprobe_test_ips_from_filter(struct kunit *test)
{
	unsigned long want[2], *addrs;
	int ret;

	want[0] = ftrace_location((unsigned long)fprobe_kunit_target);
	want[1] = ftrace_location((unsigned long)fprobe_kunit_target2);
	KUNIT_ASSERT_NE(test, 0UL, want[0]);
	KUNIT_ASSERT_NE(test, 0UL, want[1]);
	if (want[0] > want[1])
		swap(want[0], want[1]);

	ret = fprobe_ips_from_filter("fprobe_kunit_target2 fprobe_kunit_target",
				     "fprobe_kunit_target_*", 0, 0, &addrs);
	KUNIT_ASSERT_EQ(test, 2, ret);
	KUNIT_EXPECT_EQ(test, want[0], addrs[0]);
	KUNIT_EXPECT_EQ(test, want[1], addrs[1]);
	kvfree(addrs);

	/* A function named twice is listed once */
	ret = fprobe_ips_from_filter("fprobe_kunit_target,fprobe_kunit_targe?",
				     NULL, 0, 0, &addrs);
	KUNIT_ASSERT_EQ(test, 1, ret);
	KUNIT_EXPECT_EQ(test, ftrace_location((unsigned long)fprobe_kunit_target),
			addrs[0]);
	kvfree(addrs);

	/* Past the cap, nothing */
	KUNIT_EXPECT_EQ(test, -E2BIG,
			fprobe_ips_from_filter("fprobe_kunit_target fprobe_kunit_target2",
					       NULL, 1, 0, &addrs));

	/* A glob that matches nothing: an error only if each must match */
	ret = fprobe_ips_from_filter("fprobe_kunit_target fprobe_kunit_nothing*",
				     NULL, 0, 0, &addrs);
	KUNIT_ASSERT_EQ(test, 1, ret);
	kvfree(addrs);
	KUNIT_EXPECT_EQ(test, -ENOENT,
			fprobe_ips_from_filter("fprobe_kunit_target fprobe_kunit_nothing*",
					       NULL, 0, FPROBE_FILTER_EACH_GLOB,
					       &addrs));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			fprobe_ips_from_filter("fprobe_kunit_target",
					       "fprobe_kunit_targe?", 0, 0, &addrs));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			fprobe_ips_from_filter(" , ", NULL, 0, 0, &addrs));
}

/* The entry handler returning non-zero cancels the exit, not counted as missed */

static void fprobe_test_skip(struct kunit *test)
{
	struct test_probe tp;

	tp_init(&tp, true, true, 2 * sizeof(long));
	tp.skip_odd = true;
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp.fp, "fprobe_kunit_target", NULL));
	call_target(NR_CALLS);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));

	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp.entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS / 2, atomic_read(&tp.exits));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp.bad_data));
	KUNIT_EXPECT_EQ(test, 0UL, tp.fp.nmissed);
}

/* Soft disable and enable: no handler runs, nothing is missed */

static void fprobe_test_disable_enable(struct kunit *test)
{
	struct test_probe tp;

	tp_init(&tp, true, true, sizeof(long));
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp.fp, "fprobe_kunit_target", NULL));
	call_target(10);
	disable_fprobe(&tp.fp);
	KUNIT_EXPECT_TRUE(test, fprobe_disabled(&tp.fp));
	call_target(NR_CALLS);
	KUNIT_EXPECT_EQ(test, 10, atomic_read(&tp.entries));
	KUNIT_EXPECT_EQ(test, 10, atomic_read(&tp.exits));
	enable_fprobe(&tp.fp);
	KUNIT_EXPECT_FALSE(test, fprobe_disabled(&tp.fp));
	call_target(NR_CALLS);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));

	KUNIT_EXPECT_EQ(test, NR_CALLS + 10, atomic_read(&tp.entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS + 10, atomic_read(&tp.exits));
	KUNIT_EXPECT_EQ(test, 0UL, tp.fp.nmissed);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp.bad_data));
}

/*
 * Several fprobes on one function, registered in every order: an entry-only
 * one, an entry+exit one with entry data and an exit-only one. Each handler
 * runs exactly once per call, and removing any of them leaves the others
 * working.
 */

static const int multi_orders[][3] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
};

static void multi_order_desc(const int (*order)[3], char *desc)
{
	static const char * const names[] = { "entry", "entry+exit", "exit" };

	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, %s, %s", names[(*order)[0]],
		 names[(*order)[1]], names[(*order)[2]]);
}

KUNIT_ARRAY_PARAM(multi_order, multi_orders, multi_order_desc);

static void fprobe_test_multi(struct kunit *test)
{
	const int (*order)[3] = test->param_value;
	int expect_entries[3], expect_exits[3];
	struct test_probe *tp;
	int i, gone;

	tp = kunit_kcalloc(test, 3, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp_init(&tp[0], true, false, 0);
	tp_init(&tp[1], true, true, 3 * sizeof(long));
	tp_init(&tp[2], false, true, 0);

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp[(*order)[i]].fp,
							 "fprobe_kunit_target", NULL));
	call_target(NR_CALLS);

	/* Remove the one registered second, then call again */
	gone = (*order)[1];
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp[gone].fp));
	call_target(NR_CALLS);

	for (i = 0; i < 3; i++) {
		int calls = i == gone ? NR_CALLS : 2 * NR_CALLS;

		expect_entries[i] = tp[i].fp.entry_handler ? calls : 0;
		expect_exits[i] = tp[i].fp.exit_handler ? calls : 0;
	}
	for (i = 0; i < 3; i++) {
		if (i != gone)
			KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp[i].fp));
		KUNIT_EXPECT_EQ_MSG(test, expect_entries[i], atomic_read(&tp[i].entries),
				    "probe %d", i);
		KUNIT_EXPECT_EQ_MSG(test, expect_exits[i], atomic_read(&tp[i].exits),
				    "probe %d", i);
		KUNIT_EXPECT_EQ_MSG(test, 0, atomic_read(&tp[i].bad_data), "probe %d", i);
		KUNIT_EXPECT_EQ_MSG(test, 0UL, tp[i].fp.nmissed, "probe %d", i);
	}
}

/*
 * An entry-only fprobe and an entry+exit one on the same function: they are
 * served by different ops. Unregistering either one (both orders) takes the
 * function out of the filter of its ops only: the other one still runs once
 * per call, and its ops alone still traces the function. Once both are gone,
 * no handler runs and neither ops traces it.
 */
static const bool mixed_entry_only_first[] = { true, false };

/* Check that the handlers of @tp ran for @calls calls */
static void expect_calls(struct kunit *test, struct test_probe *tp, int calls)
{
	KUNIT_EXPECT_EQ_MSG(test, calls, atomic_read(&tp->entries), "%s",
			    tp->fp.exit_handler ? "entry+exit" : "entry-only");
	KUNIT_EXPECT_EQ_MSG(test, tp->fp.exit_handler ? calls : 0,
			    atomic_read(&tp->exits), "%s",
			    tp->fp.exit_handler ? "entry+exit" : "entry-only");
}

static void mixed_order_desc(const bool *entry_only_first, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s unregistered first",
		 *entry_only_first ? "entry-only" : "entry+exit");
}

KUNIT_ARRAY_PARAM(mixed_order, mixed_entry_only_first, mixed_order_desc);

static void fprobe_test_mixed_unregister(struct kunit *test)
{
	struct test_probe *tp, *first, *second;
	unsigned long addr;

	tp = kunit_kcalloc(test, 2, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp_init(&tp[0], true, false, 0);
	tp_init(&tp[1], true, true, 2 * sizeof(long));
	first = *(const bool *)test->param_value ? &tp[0] : &tp[1];
	second = first == &tp[0] ? &tp[1] : &tp[0];

	/* Registered in the order they are unregistered in */
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&first->fp, "fprobe_kunit_target", NULL));
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&second->fp, "fprobe_kunit_target", NULL));
	call_target(NR_CALLS);
	addr = READ_ONCE(tp[0].ip);
	KUNIT_ASSERT_TRUE(test, ip_is_func(addr, fprobe_kunit_target));
	KUNIT_EXPECT_EQ(test, expected_ops(&tp[0].fp) | expected_ops(&tp[1].fp),
			fprobe_traced_by(addr));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[0].entries));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[0].exits));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[1].entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS, atomic_read(&tp[1].exits));

	/* The second one alone */
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&first->fp));
	KUNIT_EXPECT_EQ(test, expected_ops(&second->fp), fprobe_traced_by(addr));
	call_target(NR_CALLS);
	expect_calls(test, first, NR_CALLS);
	expect_calls(test, second, 2 * NR_CALLS);

	/* None: nothing runs, nothing traces the function */
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&second->fp));
	KUNIT_EXPECT_EQ(test, 0U, fprobe_traced_by(addr));
	call_target(NR_CALLS);
	expect_calls(test, first, NR_CALLS);
	expect_calls(test, second, 2 * NR_CALLS);

	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[1].bad_data));
	KUNIT_EXPECT_EQ(test, 0UL, tp[0].fp.nmissed);
	KUNIT_EXPECT_EQ(test, 0UL, tp[1].fp.nmissed);
}

/*
 * One fprobe on two functions, one already traced by the ops of entry-only
 * fprobes (an entry-only fprobe on target) and the other by the ops of
 * fprobes with an exit handler (an entry+exit fprobe on target2). Whatever
 * its kind, the new fprobe runs on both, and unregistering it leaves each
 * function traced by the ops of the fprobe still on it, nothing more.
 */
static const bool span_has_exit[] = { false, true };

static void span_desc(const bool *has_exit, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "spanning fprobe %s",
		 *has_exit ? "entry+exit" : "entry-only");
}

KUNIT_ARRAY_PARAM(span, span_has_exit, span_desc);

static void fprobe_test_span_both_ops(struct kunit *test)
{
	bool has_exit = *(const bool *)test->param_value;
	struct test_probe *tp, *only1, *only2, *span;
	unsigned long addr1, addr2;
	int i;

	tp = kunit_kcalloc(test, 3, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	only1 = &tp[0];
	only2 = &tp[1];
	span = &tp[2];
	tp_init(only1, true, false, 0);
	tp_init(only2, true, true, sizeof(long));
	tp_init(span, true, has_exit, has_exit ? sizeof(long) : 0);

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&only1->fp, "fprobe_kunit_target", NULL));
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&only2->fp, "fprobe_kunit_target2", NULL));
	target(1);
	target2(1);
	addr1 = READ_ONCE(only1->ip);
	addr2 = READ_ONCE(only2->ip);
	KUNIT_ASSERT_TRUE(test, ip_is_func(addr1, fprobe_kunit_target));
	KUNIT_ASSERT_TRUE(test, ip_is_func(addr2, fprobe_kunit_target2));
	KUNIT_EXPECT_EQ(test, expected_ops(&only1->fp), fprobe_traced_by(addr1));
	KUNIT_EXPECT_EQ(test, expected_ops(&only2->fp), fprobe_traced_by(addr2));

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&span->fp,
						 "fprobe_kunit_target fprobe_kunit_target2",
						 NULL));
	KUNIT_EXPECT_EQ(test, expected_ops(&only1->fp) | expected_ops(&span->fp),
			fprobe_traced_by(addr1));
	KUNIT_EXPECT_EQ(test, expected_ops(&only2->fp) | expected_ops(&span->fp),
			fprobe_traced_by(addr2));
	for (i = 0; i < NR_CALLS; i++) {
		target(i);
		target2(i);
	}
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&span->fp));
	KUNIT_EXPECT_EQ(test, expected_ops(&only1->fp), fprobe_traced_by(addr1));
	KUNIT_EXPECT_EQ(test, expected_ops(&only2->fp), fprobe_traced_by(addr2));

	/* The others still run, and only they */
	target(1);
	target2(1);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&only1->fp));
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&only2->fp));
	KUNIT_EXPECT_EQ(test, 0U, fprobe_traced_by(addr1));
	KUNIT_EXPECT_EQ(test, 0U, fprobe_traced_by(addr2));

	KUNIT_EXPECT_EQ(test, 2 * NR_CALLS, atomic_read(&span->entries));
	KUNIT_EXPECT_EQ(test, has_exit ? 2 * NR_CALLS : 0, atomic_read(&span->exits));
	KUNIT_EXPECT_EQ(test, NR_CALLS + 2, atomic_read(&only1->entries));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&only1->exits));
	KUNIT_EXPECT_EQ(test, NR_CALLS + 2, atomic_read(&only2->entries));
	KUNIT_EXPECT_EQ(test, NR_CALLS + 2, atomic_read(&only2->exits));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ_MSG(test, 0, atomic_read(&tp[i].bad_data), "probe %d", i);
		KUNIT_EXPECT_EQ_MSG(test, 0UL, tp[i].fp.nmissed, "probe %d", i);
	}
}

/*
 * Nested probed calls: target_nest calls target. One fprobe on both sees
 * entry(nest), entry(target), exit(target), exit(nest), with nothing
 * missed, whatever nr_maxactive says.
 */
static void fprobe_test_nest(struct kunit *test)
{
	static const char * const syms[] = {
		"fprobe_kunit_target_nest", "fprobe_kunit_target",
	};
	unsigned long log[16] = {};
	atomic_t log_pos = ATOMIC_INIT(0);
	struct test_probe tp;
	unsigned long ret;

	tp_init(&tp, true, true, sizeof(long));
	tp.fp.nr_maxactive = 1;
	tp.log = log;
	tp.log_pos = &log_pos;
	KUNIT_ASSERT_EQ(test, 0,
			register_syms_copy(&tp.fp, syms, ARRAY_SIZE(syms)));
	ret = target_nest(10);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp.fp));

	KUNIT_EXPECT_EQ(test, ret, 35UL);
	KUNIT_EXPECT_EQ(test, 4, atomic_read(&log_pos));
	KUNIT_EXPECT_TRUE(test, ip_is_func(log[0], fprobe_kunit_target_nest));
	KUNIT_EXPECT_TRUE(test, ip_is_func(log[1], fprobe_kunit_target));
	KUNIT_EXPECT_EQ(test, log[2], log[1]);
	KUNIT_EXPECT_EQ(test, log[3], log[0]);
	KUNIT_EXPECT_EQ(test, 2, atomic_read(&tp.exits));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp.bad_data));
	KUNIT_EXPECT_EQ(test, 0UL, tp.fp.nmissed);
}

/*
 * A handler which calls a probed function: the call returns the right value,
 * and is probed once more at most, as in 6.12's fprobe: the ftrace recursion
 * lock lets one callback nest in the same context (its transition bit), and
 * no further. The direct calls of that function are probed.
 */
static struct test_probe *recursion_inner;
static unsigned long recursion_result;

static notrace int recursion_entry(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, struct ftrace_regs *fregs,
				   void *data)
{
	recursion_result = target2(ftrace_regs_get_argument(fregs, 0));
	return 0;
}

static void fprobe_test_handler_calls_probed(struct kunit *test)
{
	struct fprobe outer = { .entry_handler = recursion_entry };
	struct test_probe *inner;
	int i;

	inner = kunit_kzalloc(test, sizeof(*inner), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, inner);
	tp_init(inner, true, true, 0);
	recursion_inner = inner;

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&inner->fp, "fprobe_kunit_target2", NULL));
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&outer, "fprobe_kunit_target", NULL));
	for (i = 0; i < 100; i++)
		target(i);
	for (i = 0; i < 10; i++)
		target2(i);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&outer));
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&inner->fp));

	KUNIT_EXPECT_EQ(test, recursion_result, 99UL ^ 0x5a5a);
	/* The direct calls, and the 100 calls from the outer handler */
	KUNIT_EXPECT_EQ(test, 110, atomic_read(&inner->entries));
	KUNIT_EXPECT_EQ(test, 110, atomic_read(&inner->exits));
	KUNIT_EXPECT_EQ(test, 0UL, outer.nmissed);
}

/*
 * A handler which calls its own probed function: the nested call is probed
 * once (the transition bit of the recursion lock), the call made from that
 * one is a recursion, missed: nmissed counts it, and the missed handler is
 * called for it with the address of the function.
 */
static int recursing_depth;

static notrace int recursing_entry(struct fprobe *fp, unsigned long ip,
				   unsigned long ret_ip, struct ftrace_regs *fregs,
				   void *data)
{
	struct test_probe *tp = to_test_probe(fp);

	atomic_inc(&tp->entries);
	WRITE_ONCE(tp->ip, ip);
	if (recursing_depth < 2) {
		recursing_depth++;
		target2(recursing_depth);
		recursing_depth--;
	}
	return 0;
}

static void fprobe_test_recursion_missed(struct kunit *test)
{
	struct test_probe *tp;
	int i;

	tp = kunit_kzalloc(test, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp_init(tp, true, false, 0);
	tp->fp.entry_handler = recursing_entry;
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp->fp, "fprobe_kunit_target2", NULL));
	for (i = 0; i < 10; i++)
		target2(i);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp->fp));

	KUNIT_EXPECT_EQ(test, 20, atomic_read(&tp->entries));
	KUNIT_EXPECT_EQ(test, 10UL, tp->fp.nmissed);
	KUNIT_EXPECT_EQ(test, 10, atomic_read(&tp->missed));
	KUNIT_EXPECT_EQ(test, tp->missed_ip, tp->ip);
}

/*
 * A missed handler which calls the probed function itself: the call it
 * makes is a recursion too, which the path counting the first one stops
 * without counting it, instead of entering itself again. Each call of the
 * target: two entries, one miss, one call from the missed handler.
 */
static atomic_t missed_calls;

static notrace void calling_missed(struct fprobe *fp, unsigned long ip)
{
	tp_missed(fp, ip);
	atomic_inc(&missed_calls);
	target2(0);
}

static void fprobe_test_missed_handler_calls_probed(struct kunit *test)
{
	struct test_probe *tp;
	int i;

	tp = kunit_kzalloc(test, sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp_init(tp, true, false, 0);
	tp->fp.entry_handler = recursing_entry;
	tp->fp.missed_handler = calling_missed;
	atomic_set(&missed_calls, 0);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp->fp, "fprobe_kunit_target2", NULL));
	for (i = 0; i < 10; i++)
		target2(i);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp->fp));

	KUNIT_EXPECT_EQ(test, 20, atomic_read(&tp->entries));
	KUNIT_EXPECT_EQ(test, 10UL, tp->fp.nmissed);
	KUNIT_EXPECT_EQ(test, 10, atomic_read(&tp->missed));
	KUNIT_EXPECT_EQ(test, 10, atomic_read(&missed_calls));
}

/*
 * Functions that the probe path itself uses (preempt count, RCU): probing
 * them must neither loop nor deadlock. Those the config does not have out
 * of line are left out; if none is there, the case is skipped.
 */
static void fprobe_test_probe_path_functions(struct kunit *test)
{
	static const char * const candidates[] = {
		"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
		"__rcu_read_unlock", "rcu_read_unlock_strict", "rcu_is_watching",
		"_raw_spin_lock", "_raw_spin_unlock", "fgraph_reserve_data",
	};
	struct test_probe *tp, many;
	int i, nr = 0, round, ret;

	tp = kunit_kcalloc(test, ARRAY_SIZE(candidates), sizeof(*tp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tp);
	for (i = 0; i < ARRAY_SIZE(candidates); i++) {
		tp_init(&tp[i], true, true, sizeof(long));
		ret = register_fprobe(&tp[i].fp, candidates[i], NULL);
		if (ret == -ENOENT)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, 0, ret, "%s", candidates[i]);
		if (!ret) {
			kunit_info(test, "probing %s\n", candidates[i]);
			nr++;
		}
	}
	if (!nr)
		kunit_skip(test, "none of the probe path functions is traceable");

	call_target(NR_CALLS);
	/*
	 * Grow fprobe_ip_table past its default size, then shrink it, while
	 * those are probed: its resize calls some of them (preempt_count_sub()
	 * with DEBUG_PREEMPT), and must not while an entry it moves is in two
	 * chains, where their lookup would wait for ever. Each round's new
	 * tables hash differently.
	 */
	for (round = 0; round < 4; round++) {
		tp_init(&many, true, false, 0);
		ret = register_fprobe(&many.fp, "kunit_*", NULL);
		KUNIT_EXPECT_EQ(test, 0, ret);
		if (ret)
			break;
		KUNIT_EXPECT_GT(test, many.fp.hlist_array->size, 48);
		msleep(20);
		call_target(NR_CALLS);
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&many.fp));
		msleep(20);
	}
	for (i = 0; i < ARRAY_SIZE(candidates); i++) {
		if (!fprobe_is_registered(&tp[i].fp))
			continue;
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp[i].fp));
		KUNIT_EXPECT_EQ_MSG(test, 0, atomic_read(&tp[i].bad_data), "%s", candidates[i]);
		/* Calls may still have been in flight when it was removed */
		KUNIT_EXPECT_LE_MSG(test, atomic_read(&tp[i].exits),
				    atomic_read(&tp[i].entries), "%s", candidates[i]);
	}
}

/*
 * Calls made where RCU is not watching the CPU, which a grace period does
 * not wait for, run no handler and touch no fprobe (they would run after
 * unregister_fprobe() returned, on a freed fprobe): calls of the target
 * between ct_idle_enter() and ct_idle_exit(), and the return of a function
 * which enters that state itself, whose entry handler ran. Each round calls
 * the target once where RCU watches, which is probed in full. The test
 * enters the idle state's RCU side from a task, with interrupts off, around
 * nothing but those calls.
 */
static noinline unsigned long fprobe_kunit_rcu_unwatch(unsigned long v)
{
	ct_idle_enter();
	return v + 5;
}

static unsigned long (*rcu_unwatch)(unsigned long v);

static void fprobe_test_rcu_not_watching(struct kunit *test)
{
	struct test_probe tp[3];
	unsigned long flags, sum = 0;
	int i;

	if (!IS_ENABLED(CONFIG_CONTEXT_TRACKING_IDLE))
		kunit_skip(test, "RCU always watches with this config");
	/* They warn, rightly, of what this case does on purpose */
	if (IS_ENABLED(CONFIG_RCU_EQS_DEBUG) ||
	    IS_ENABLED(CONFIG_FTRACE_VALIDATE_RCU_IS_WATCHING))
		kunit_skip(test, "RCU_EQS_DEBUG or FTRACE_VALIDATE_RCU_IS_WATCHING");

	/* entry only, entry+exit on the target, entry+exit on rcu_unwatch */
	tp_init(&tp[0], true, false, 0);
	tp_init(&tp[1], true, true, sizeof(long));
	tp_init(&tp[2], true, true, 0);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp[0].fp, "fprobe_kunit_target", NULL));
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp[1].fp, "fprobe_kunit_target", NULL));
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&tp[2].fp, "fprobe_kunit_rcu_unwatch", NULL));

	for (i = 0; i < 100; i++) {
		sum += target(i);
		local_irq_save(flags);
		sum += rcu_unwatch(i);
		/* RCU is not watching this CPU from here... */
		sum += target(i);
		sum += target(i + 1);
		ct_idle_exit();
		/* ...to here */
		local_irq_restore(flags);
	}

	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&tp[i].fp));
		KUNIT_EXPECT_EQ(test, 0UL, tp[i].fp.nmissed);
		KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[i].missed));
		KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[i].bad_data));
	}
	/* Only the calls of the target where RCU watches */
	KUNIT_EXPECT_EQ(test, 100, atomic_read(&tp[0].entries));
	KUNIT_EXPECT_EQ(test, 100, atomic_read(&tp[1].entries));
	KUNIT_EXPECT_EQ(test, 100, atomic_read(&tp[1].exits));
	/* rcu_unwatch() is entered where RCU watches, and returns where not */
	KUNIT_EXPECT_EQ(test, 100, atomic_read(&tp[2].entries));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&tp[2].exits));
	/* The calls returned what they return unprobed */
	KUNIT_EXPECT_EQ(test, 4950UL * 10 + 100 * 11, sum);
}

/*
 * The handlers of an fprobe run from the return of its registration to the
 * call of its unregistration, not while its functions are being hooked or
 * unhooked: registering calls kvfree() and kvmalloc() after hooking them,
 * unregistering calls kvmalloc() before it takes the fprobe out of the
 * tables, and the task doing so runs no handler there. Counted per phase
 * for this task, in task context.
 */
enum { HOOK_NONE, HOOK_REGISTER, HOOK_PROBED, HOOK_UNREGISTER, NR_HOOK_PHASES };
static struct task_struct *hook_task;
static int hook_phase;
static atomic_t hook_calls[NR_HOOK_PHASES];

static notrace void hook_count(void)
{
	if (current == READ_ONCE(hook_task) && in_task())
		atomic_inc(&hook_calls[READ_ONCE(hook_phase)]);
}

static notrace int hook_entry(struct fprobe *fp, unsigned long ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	hook_count();
	return 0;
}

static notrace void hook_exit(struct fprobe *fp, unsigned long ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	hook_count();
}

static void fprobe_test_hooking(struct kunit *test)
{
	struct fprobe fp = {
		.entry_handler	= hook_entry,
		.exit_handler	= hook_exit,
	};
	unsigned long *addrs;
	int i, n;

	n = fprobe_ips_from_filter("kvfree __kvmalloc_node_noprof", NULL, 0,
				   FPROBE_FILTER_EACH_GLOB, &addrs);
	if (n == -ENOENT)
		kunit_skip(test, "kvfree() or __kvmalloc_node_noprof() is not traceable");
	KUNIT_ASSERT_GT(test, n, 0);
	if (n != 2)
		kvfree(addrs);
	KUNIT_ASSERT_EQ(test, 2, n);
	for (i = 0; i < NR_HOOK_PHASES; i++)
		atomic_set(&hook_calls[i], 0);
	WRITE_ONCE(hook_task, current);

	WRITE_ONCE(hook_phase, HOOK_REGISTER);
	KUNIT_EXPECT_EQ(test, 0, register_fprobe_ips(&fp, addrs, n));
	WRITE_ONCE(hook_phase, HOOK_PROBED);
	kvfree(kvmalloc(16, GFP_KERNEL));
	WRITE_ONCE(hook_phase, HOOK_UNREGISTER);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&fp));
	WRITE_ONCE(hook_phase, HOOK_NONE);
	kvfree(kvmalloc(16, GFP_KERNEL));
	WRITE_ONCE(hook_task, NULL);
	kvfree(addrs);

	KUNIT_EXPECT_EQ(test, 0, atomic_read(&hook_calls[HOOK_REGISTER]));
	/* The entry and the exit of each of the two calls */
	KUNIT_EXPECT_EQ(test, 4, atomic_read(&hook_calls[HOOK_PROBED]));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&hook_calls[HOOK_UNREGISTER]));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&hook_calls[HOOK_NONE]));
}

/*
 * Unregister means gone, on the functions the idle loop calls: an fprobe on
 * them (entry and exit handlers, the exit hooked on calls that can return
 * after the fprobe is gone) is allocated, registered while CPUs go idle,
 * unregistered, poisoned and freed, again and again. A handler reading a
 * freed fprobe reads the poison, and KASAN reports the read. The handlers
 * must have run, and never on a poisoned fprobe.
 */
#define IDLE_ROUNDS	20
#define IDLE_MAGIC	0x1d1e1d1eUL
#define IDLE_POISON	0xdeadbeefUL
/* do_idle() calls them around each idle period, on every architecture */
#define IDLE_FILTER	"arch_cpu_idle_*"

struct idle_probe {
	struct fprobe	fp;
	unsigned long	magic;
};

static atomic_t idle_calls;
static atomic_t idle_bad;

static notrace void idle_check(struct fprobe *fp)
{
	struct idle_probe *ip = container_of(fp, struct idle_probe, fp);

	if (READ_ONCE(ip->magic) != IDLE_MAGIC)
		atomic_inc(&idle_bad);
	atomic_inc(&idle_calls);
}

static notrace int idle_entry(struct fprobe *fp, unsigned long entry_ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	idle_check(fp);
	return 0;
}

static notrace void idle_exit(struct fprobe *fp, unsigned long entry_ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	idle_check(fp);
}

static void fprobe_test_unregister_idle(struct kunit *test)
{
	struct idle_probe *ip;
	int i, ret;

	atomic_set(&idle_calls, 0);
	atomic_set(&idle_bad, 0);
	for (i = 0; i < IDLE_ROUNDS; i++) {
		ip = kzalloc(sizeof(*ip), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ip);
		ip->magic = IDLE_MAGIC;
		ip->fp.entry_handler = idle_entry;
		ip->fp.exit_handler = idle_exit;
		ret = register_fprobe(&ip->fp, IDLE_FILTER, NULL);
		if (ret) {
			kfree(ip);
			KUNIT_ASSERT_EQ_MSG(test, ret, 0, "no idle function to probe");
		}
		/* Let the CPUs go idle, this one too */
		msleep(20);
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&ip->fp));
		WRITE_ONCE(ip->magic, IDLE_POISON);
		kfree(ip);
	}
	/* Calls returning now find their fprobes gone */
	msleep(20);
	kunit_info(test, "%d handler calls in %d rounds\n",
		   atomic_read(&idle_calls), IDLE_ROUNDS);
	KUNIT_EXPECT_GT(test, atomic_read(&idle_calls), 0);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&idle_bad));
}

/*
 * Unregistering while a probed call is in flight: the probed function is
 * sleeping in a kthread when its fprobe is unregistered and freed. When it
 * returns, the exit handler of the removed fprobe does not run; that of an
 * fprobe still registered on the same function does.
 */
static DECLARE_COMPLETION(sleeper_entered);
static DECLARE_COMPLETION(sleeper_release);

static noinline unsigned long fprobe_kunit_target_sleeper(unsigned long v)
{
	complete(&sleeper_entered);
	wait_for_completion(&sleeper_release);
	return v + 7;
}

static unsigned long (*target_sleeper)(unsigned long v);

static int sleeper_thread(void *arg)
{
	unsigned long *ret = arg;

	*ret = target_sleeper(35);
	return 0;
}

static void fprobe_test_unregister_in_flight(struct kunit *test)
{
	struct test_probe *removed, *kept;
	atomic_t *removed_exits;
	struct task_struct *task;
	unsigned long ret = 0;

	removed = kzalloc(sizeof(*removed), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, removed);
	kept = kunit_kzalloc(test, sizeof(*kept), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kept);
	/* Where the exit count of the removed probe goes after it is freed */
	removed_exits = kunit_kzalloc(test, sizeof(*removed_exits), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, removed_exits);

	tp_init(removed, true, true, 4 * sizeof(long));
	tp_init(kept, true, true, 2 * sizeof(long));
	KUNIT_ASSERT_EQ(test, 0,
			register_fprobe(&removed->fp, "fprobe_kunit_target_sleeper", NULL));
	KUNIT_ASSERT_EQ(test, 0,
			register_fprobe(&kept->fp, "fprobe_kunit_target_sleeper", NULL));

	reinit_completion(&sleeper_entered);
	reinit_completion(&sleeper_release);
	task = kthread_run(sleeper_thread, &ret, "fprobe_kunit_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	wait_for_completion(&sleeper_entered);

	KUNIT_EXPECT_EQ(test, 1, atomic_read(&removed->entries));
	/* Returns while the call is in flight; the caller may free the probe */
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&removed->fp));
	KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&removed->fp));
	atomic_set(removed_exits, atomic_read(&removed->exits));
	kfree(removed);

	complete(&sleeper_release);
	kthread_stop(task);
	put_task_struct(task);

	KUNIT_EXPECT_EQ(test, 42UL, ret);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(removed_exits));
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&kept->fp));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&kept->entries));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&kept->exits));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&kept->bad_data));
}

/*
 * Stress: one kthread per online CPU calls the targets in a loop, while
 * fprobes with entry data are registered and unregistered over and over.
 * No handler of an fprobe may run after its unregister_fprobe() returned:
 * each probe is poisoned before it is freed, and a handler which sees the
 * poison counts a violation.
 */
#define STRESS_ROUNDS		200
/*
 * A round registers and unregisters an fprobe while a thread on every CPU
 * calls the targets: 1.5 s a round on a lockdep and KASAN kernel under
 * QEMU TCG, past KUnit's 300 s timeout for 200 rounds. The rounds stop at
 * STRESS_ROUNDS or after STRESS_SECONDS, whichever comes first, and never
 * before STRESS_MIN_ROUNDS (each probe registered four times).
 */
#define STRESS_SECONDS		60
#define STRESS_MIN_ROUNDS	16
#define STRESS_ALIVE		0xa11fe0a11fe0UL
#define STRESS_DEAD		0xdeaddeaddeadUL

struct stress_probe {
	struct fprobe	fp;
	unsigned long	state;
};

static atomic_t stress_violations, stress_entries, stress_exits;
static atomic_t stress_bad_data;

static notrace int stress_entry(struct fprobe *fp, unsigned long ip,
				unsigned long ret_ip, struct ftrace_regs *fregs,
				void *data)
{
	struct stress_probe *sp = container_of(fp, struct stress_probe, fp);

	if (READ_ONCE(sp->state) != STRESS_ALIVE)
		atomic_inc(&stress_violations);
	atomic_inc(&stress_entries);
	if (data)
		*(unsigned long *)data = (unsigned long)sp ^ ip;
	return 0;
}

static notrace void stress_exit(struct fprobe *fp, unsigned long ip,
				unsigned long ret_ip, struct ftrace_regs *fregs,
				void *data)
{
	struct stress_probe *sp = container_of(fp, struct stress_probe, fp);

	if (READ_ONCE(sp->state) != STRESS_ALIVE)
		atomic_inc(&stress_violations);
	atomic_inc(&stress_exits);
	if (data && *(unsigned long *)data != ((unsigned long)sp ^ ip))
		atomic_inc(&stress_bad_data);
}

static int stress_thread(void *arg)
{
	unsigned long i = 0;

	while (!kthread_should_stop()) {
		target(i);
		target2(i);
		target_nest(i);
		if (!(++i % 256))
			cond_resched();
	}
	return 0;
}

static void fprobe_test_stress(struct kunit *test)
{
	static const char * const filters[] = {
		"fprobe_kunit_target", "fprobe_kunit_target2",
		"fprobe_kunit_target*", "fprobe_kunit_target_nest",
	};
	struct task_struct **tasks;
	struct stress_probe *sp[ARRAY_SIZE(filters)] = {};
	unsigned long deadline = jiffies + STRESS_SECONDS * HZ;
	int cpu, nr_tasks = 0, round, i;

	atomic_set(&stress_violations, 0);
	atomic_set(&stress_entries, 0);
	atomic_set(&stress_exits, 0);
	atomic_set(&stress_bad_data, 0);

	tasks = kunit_kcalloc(test, nr_cpu_ids, sizeof(*tasks), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tasks);
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		t = kthread_create(stress_thread, NULL, "fprobe_kunit_stress/%d", cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		kthread_bind(t, cpu);
		get_task_struct(t);
		wake_up_process(t);
		tasks[nr_tasks++] = t;
	}

	for (round = 0; round < STRESS_ROUNDS; round++) {
		if (round >= STRESS_MIN_ROUNDS && time_after(jiffies, deadline))
			break;
		i = round % ARRAY_SIZE(filters);
		if (sp[i]) {
			KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&sp[i]->fp));
			WRITE_ONCE(sp[i]->state, STRESS_DEAD);
			kfree(sp[i]);
			sp[i] = NULL;
		}
		sp[i] = kzalloc(sizeof(*sp[i]), GFP_KERNEL);
		if (!sp[i])
			break;
		sp[i]->state = STRESS_ALIVE;
		sp[i]->fp.entry_handler = stress_entry;
		sp[i]->fp.exit_handler = round & 1 ? stress_exit : NULL;
		sp[i]->fp.entry_data_size = round & 2 ? sizeof(long) : 0;
		KUNIT_EXPECT_EQ(test, 0, register_fprobe(&sp[i]->fp, filters[i], NULL));
		/* Each filter matches one of these at least: one call each round */
		target(round);
		target2(round);
		target_nest(round);
		usleep_range(200, 500);
	}
	for (i = 0; i < ARRAY_SIZE(filters); i++) {
		if (!sp[i])
			continue;
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&sp[i]->fp));
		WRITE_ONCE(sp[i]->state, STRESS_DEAD);
		kfree(sp[i]);
	}
	/* Let the threads run a little with no probe at all */
	usleep_range(1000, 2000);
	for (i = 0; i < nr_tasks; i++) {
		kthread_stop(tasks[i]);
		put_task_struct(tasks[i]);
	}

	kunit_info(test, "%d rounds, %d threads: %d entry and %d exit handler calls\n",
		   round, nr_tasks, atomic_read(&stress_entries),
		   atomic_read(&stress_exits));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&stress_violations));
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&stress_bad_data));
	/* At least the calls of this thread, whatever the others managed */
	KUNIT_EXPECT_GE(test, round, STRESS_MIN_ROUNDS);
	KUNIT_EXPECT_GE(test, atomic_read(&stress_entries), round);
	KUNIT_EXPECT_GE(test, atomic_read(&stress_exits), round / 2);
}

static struct kunit_case fprobe_test_cases[] = {
	KUNIT_CASE(fprobe_test_args_retval),
	KUNIT_CASE(fprobe_test_entry_only_args),
	KUNIT_CASE_PARAM(fprobe_test_entry_data, data_size_gen_params),
	KUNIT_CASE(fprobe_test_entry_data_too_big),
	KUNIT_CASE(fprobe_test_entry_data_shared_block),
	KUNIT_CASE(fprobe_test_counts),
	KUNIT_CASE(fprobe_test_many_addresses),
	KUNIT_CASE(fprobe_test_filters),
	KUNIT_CASE(fprobe_test_ips_from_filter),
	KUNIT_CASE(fprobe_test_syms_unknown),
	KUNIT_CASE(fprobe_test_skip),
	KUNIT_CASE(fprobe_test_disable_enable),
	KUNIT_CASE_PARAM(fprobe_test_multi, multi_order_gen_params),
	KUNIT_CASE_PARAM(fprobe_test_mixed_unregister, mixed_order_gen_params),
	KUNIT_CASE_PARAM(fprobe_test_span_both_ops, span_gen_params),
	KUNIT_CASE(fprobe_test_nest),
	KUNIT_CASE(fprobe_test_exit_stack_pointer),
	KUNIT_CASE_PARAM(fprobe_test_override, override_gen_params),
	KUNIT_CASE(fprobe_test_handler_calls_probed),
	KUNIT_CASE(fprobe_test_recursion_missed),
	KUNIT_CASE(fprobe_test_missed_handler_calls_probed),
	KUNIT_CASE_SLOW(fprobe_test_probe_path_functions),
	KUNIT_CASE(fprobe_test_rcu_not_watching),
	KUNIT_CASE(fprobe_test_hooking),
	KUNIT_CASE_SLOW(fprobe_test_unregister_idle),
	KUNIT_CASE(fprobe_test_unregister_in_flight),
	KUNIT_CASE_SLOW(fprobe_test_stress),
	{}
};

static int fprobe_suite_init(struct kunit_suite *suite)
{
	target = fprobe_kunit_target;
	target2 = fprobe_kunit_target2;
	target_args = fprobe_kunit_target_args;
	target_nest = fprobe_kunit_target_nest;
	target_sleeper = fprobe_kunit_target_sleeper;
	rcu_unwatch = fprobe_kunit_rcu_unwatch;
	return 0;
}

static struct kunit_suite fprobe_test_suite = {
	.name = "fprobe",
	.suite_init = fprobe_suite_init,
	.test_cases = fprobe_test_cases,
};

kunit_test_suite(fprobe_test_suite);

MODULE_DESCRIPTION("KUnit tests for fprobe");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");
