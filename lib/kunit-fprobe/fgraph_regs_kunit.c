// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ftrace_regs which the function graph tracer hands to
 * its entry and return callbacks.
 *
 * Two fgraph_ops trace one noinline target (called through a pointer): the
 * entry callbacks read the arguments from the entry ftrace_regs, the return
 * callbacks read the return value from the return ftrace_regs, and both are
 * compared with what the caller passed and got. The return callbacks also
 * see the call and return times, as long as one fgraph_ops asks for them.
 * An fprobe on the same target, whose frames fgraph returns by another path,
 * must not change what either sees; and an fgraph_ops which takes the index
 * of fprobe's, gone while a call fprobe hooked was in flight, is not called
 * at the return of that call.
 */
#include <kunit/test.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/completion.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <asm/fprobe.h>

static noinline unsigned long
fgraph_regs_kunit_target(unsigned long a, unsigned long b, unsigned long c,
			 unsigned long d)
{
	return (a << 3) ^ (b * 5) ^ (c + 11) ^ ~d;
}

/* Set by the suite init, so that the compiler cannot see the callee */
static unsigned long (*target)(unsigned long a, unsigned long b,
			       unsigned long c, unsigned long d);

/*
 * The function which calls the target, to check the return address against.
 * It adds 1 to the result so that the call cannot become a tail call.
 */
static noinline unsigned long fgraph_regs_kunit_call(unsigned long a)
{
	return target(a, a + 1, a + 2, a + 3) + 1;
}

/* Is @ip inside the function named @name? */
static bool ip_in_func(unsigned long ip, const char *name)
{
	char buf[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(buf, ip);
	/* "name", or "name.constprop.0" and the like */
	return !strncmp(buf, name, strlen(name)) &&
	       strchr(".", buf[strlen(name)]);
}

struct fgraph_regs_record {
	struct fgraph_ops	gops;
	unsigned long		args[4];
	unsigned long		entry_func;
	unsigned long		retval;
	unsigned long		ret_func;
	unsigned long		ret_ip;		/* the return address */
	unsigned long		graph_retval;	/* ftrace_graph_ret::retval */
	unsigned long long	calltime;	/* ftrace_graph_ret::calltime */
	unsigned long long	rettime;	/* ftrace_graph_ret::rettime */
	int			entries;
	int			returns;
	int			no_regs;
};

#define to_record(g)	container_of(g, struct fgraph_regs_record, gops)

static notrace int fgraph_regs_entry(struct ftrace_graph_ent *trace,
				     struct fgraph_ops *gops,
				     struct ftrace_regs *fregs)
{
	struct fgraph_regs_record *rec = to_record(gops);
	int i;

	/* Other tasks may run the target while the test is not looking */
	if (current != gops->private)
		return 0;
	if (!fregs) {
		rec->no_regs++;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(rec->args); i++)
		rec->args[i] = ftrace_regs_get_argument(fregs, i);
	rec->entry_func = trace->func;
	rec->entries++;
	/* Non-zero: trace the return of this call */
	return 1;
}

static notrace void fgraph_regs_return(struct ftrace_graph_ret *trace,
				       struct fgraph_ops *gops,
				       struct ftrace_regs *fregs)
{
	struct fgraph_regs_record *rec = to_record(gops);

	if (current != gops->private)
		return;
	if (!fregs) {
		rec->no_regs++;
		return;
	}
	rec->retval = ftrace_regs_get_return_value(fregs);
	rec->ret_ip = ftrace_regs_get_instruction_pointer(fregs);
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	rec->graph_retval = trace->retval;
#endif
	rec->ret_func = trace->func;
	rec->calltime = trace->calltime;
	rec->rettime = trace->rettime;
	rec->returns++;
}

/* Register the fgraph_ops of @rec on @func alone */
static int fgraph_regs_register(struct fgraph_regs_record *rec, void *func)
{
	int ret;

	ret = ftrace_set_filter_ip(&rec->gops.ops, (unsigned long)func, 0, 0);
	if (ret)
		return ret;
	ret = register_ftrace_graph(&rec->gops);
	if (ret)
		ftrace_free_filter(&rec->gops.ops);
	return ret;
}

static int fgraph_regs_start_flags(struct fgraph_regs_record *rec,
				   unsigned long flags)
{
	memset(rec, 0, sizeof(*rec));
	rec->gops.flags = flags;
	rec->gops.entryfunc = fgraph_regs_entry;
	rec->gops.retfunc = fgraph_regs_return;
	rec->gops.private = current;
	return fgraph_regs_register(rec, target);
}

static int fgraph_regs_start(struct fgraph_regs_record *rec)
{
	return fgraph_regs_start_flags(rec, 0);
}

static void fgraph_regs_stop(struct fgraph_regs_record *rec)
{
	unregister_ftrace_graph(&rec->gops);
	ftrace_free_filter(&rec->gops.ops);
}

static void fgraph_regs_test_args_retval(struct kunit *test)
{
	struct fgraph_regs_record *rec;
	unsigned long ret[3];
	int i, j;

	rec = kunit_kcalloc(test, 2, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_EQ(test, 0, fgraph_regs_start(&rec[0]));
	if (fgraph_regs_start(&rec[1])) {
		fgraph_regs_stop(&rec[0]);
		KUNIT_FAIL(test, "cannot register a second fgraph_ops");
		return;
	}

	ret[0] = target(1, 2, 3, 4);
	ret[1] = target(~0UL, LONG_MIN, 0, 77);
	ret[2] = target(0xdead, 0xbeef, 0xcafe, 0xf00d);

	fgraph_regs_stop(&rec[1]);
	fgraph_regs_stop(&rec[0]);

	/* Both fgraph_ops saw every call, with the same registers */
	for (j = 0; j < 2; j++) {
		KUNIT_EXPECT_EQ(test, 0, rec[j].no_regs);
		KUNIT_EXPECT_EQ(test, 3, rec[j].entries);
		KUNIT_EXPECT_EQ(test, 3, rec[j].returns);
		/* The last call is the one left in the record */
		KUNIT_EXPECT_EQ(test, 0xdeadUL, rec[j].args[0]);
		KUNIT_EXPECT_EQ(test, 0xbeefUL, rec[j].args[1]);
		KUNIT_EXPECT_EQ(test, 0xcafeUL, rec[j].args[2]);
		KUNIT_EXPECT_EQ(test, 0xf00dUL, rec[j].args[3]);
		KUNIT_EXPECT_EQ(test, ret[2], rec[j].retval);
		if (IS_ENABLED(CONFIG_FUNCTION_GRAPH_RETVAL))
			KUNIT_EXPECT_EQ(test, ret[2], rec[j].graph_retval);
		KUNIT_EXPECT_EQ(test, rec[j].entry_func, rec[j].ret_func);
		KUNIT_EXPECT_GE(test, rec[j].entry_func, (unsigned long)target);
		KUNIT_EXPECT_LT(test, rec[j].entry_func, (unsigned long)target + 16);
	}
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_NE(test, 0UL, ret[i]);
}

/* Many calls with different arguments: each one read back exactly */
static void fgraph_regs_test_many_calls(struct kunit *test)
{
	struct fgraph_regs_record *rec;
	unsigned long i, bad = 0, ret;

	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_EQ(test, 0, fgraph_regs_start(rec));
	for (i = 0; i < 1000; i++) {
		ret = target(i, i * 3, i ^ 0x55, ~i);
		if (rec->args[0] != i || rec->args[1] != i * 3 ||
		    rec->args[2] != (i ^ 0x55) || rec->args[3] != ~i ||
		    rec->retval != ret)
			bad++;
	}
	fgraph_regs_stop(rec);

	KUNIT_EXPECT_EQ(test, 0UL, bad);
	KUNIT_EXPECT_EQ(test, 1000, rec->entries);
	KUNIT_EXPECT_EQ(test, 1000, rec->returns);
}

/*
 * The clock is read at function entry and return only while an fgraph_ops
 * asks for it with FGRAPH_FL_TIMESTAMPS: then every fgraph_ops sees the
 * times; before and after, calltime and rettime are 0. (Nothing else may
 * trace with timestamps meanwhile, e.g. the function_graph tracer.)
 */
static void fgraph_regs_test_timestamps(struct kunit *test)
{
	struct fgraph_regs_record *rec;
	int j;

	rec = kunit_kcalloc(test, 2, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_EQ(test, 0, fgraph_regs_start(&rec[0]));

	target(1, 2, 3, 4);
	KUNIT_EXPECT_EQ(test, 1, rec[0].returns);
	KUNIT_EXPECT_EQ(test, 0ULL, rec[0].calltime);
	KUNIT_EXPECT_EQ(test, 0ULL, rec[0].rettime);

	if (fgraph_regs_start_flags(&rec[1], FGRAPH_FL_TIMESTAMPS)) {
		fgraph_regs_stop(&rec[0]);
		KUNIT_FAIL(test, "cannot register a second fgraph_ops");
		return;
	}
	target(5, 6, 7, 8);
	for (j = 0; j < 2; j++) {
		KUNIT_EXPECT_EQ(test, j ? 1 : 2, rec[j].returns);
		KUNIT_EXPECT_NE(test, 0ULL, rec[j].calltime);
		KUNIT_EXPECT_GE(test, rec[j].rettime, rec[j].calltime);
	}
	fgraph_regs_stop(&rec[1]);

	/* The last user of the timestamps is gone: no more clock reads */
	target(9, 10, 11, 12);
	KUNIT_EXPECT_EQ(test, 3, rec[0].returns);
	KUNIT_EXPECT_EQ(test, 0ULL, rec[0].calltime);
	KUNIT_EXPECT_EQ(test, 0ULL, rec[0].rettime);
	fgraph_regs_stop(&rec[0]);
}

#ifdef CONFIG_FPROBE
/* What an fprobe with an exit handler on the target sees */
struct fgraph_regs_fprobe {
	struct fprobe		fp;
	struct task_struct	*task;
	unsigned long		args[4];
	unsigned long		entry_ip, entry_ret_ip;
	unsigned long		exit_ip, exit_ret_ip;
	unsigned long		retval;
	int			entries;
	int			exits;
	int			bad_data;
};

#define to_fprobe_record(f)	container_of(f, struct fgraph_regs_fprobe, fp)
#define FPROBE_COOKIE		0x5eed5eedUL

static notrace int fgraph_regs_fprobe_entry(struct fprobe *fp, unsigned long ip,
					    unsigned long ret_ip,
					    struct ftrace_regs *fregs,
					    void *data)
{
	struct fgraph_regs_fprobe *rec = to_fprobe_record(fp);
	int i;

	if (current != rec->task)
		return 1;	/* no exit handler for this call */
	for (i = 0; i < ARRAY_SIZE(rec->args); i++)
		rec->args[i] = ftrace_regs_get_argument(fregs, i);
	rec->entry_ip = ip;
	rec->entry_ret_ip = ret_ip;
	*(unsigned long *)data = rec->args[0] ^ FPROBE_COOKIE;
	rec->entries++;
	return 0;
}

static notrace void fgraph_regs_fprobe_exit(struct fprobe *fp, unsigned long ip,
					    unsigned long ret_ip,
					    struct ftrace_regs *fregs,
					    void *data)
{
	struct fgraph_regs_fprobe *rec = to_fprobe_record(fp);

	if (current != rec->task)
		return;
	if (*(unsigned long *)data != (rec->args[0] ^ FPROBE_COOKIE))
		rec->bad_data++;
	rec->exit_ip = ip;
	rec->exit_ret_ip = ret_ip;
	rec->retval = ftrace_regs_get_return_value(fregs);
	rec->exits++;
}

/*
 * An fgraph_ops and an fprobe with an exit handler on one function, each
 * registered first in turn (so that either frame is the top one at the
 * return): both see the arguments, the return value, and the return address
 * in the caller, not return_to_handler; the fprobe gets its entry data.
 */
static void fgraph_regs_test_with_fprobe(struct kunit *test)
{
	struct fgraph_regs_fprobe *fpr;
	struct fgraph_regs_record *rec;
	unsigned long ret;
	int order, i, err;

	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	fpr = kunit_kzalloc(test, sizeof(*fpr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_NOT_NULL(test, fpr);

	for (order = 0; order < 2; order++) {
		memset(fpr, 0, sizeof(*fpr));
		fpr->fp.entry_handler = fgraph_regs_fprobe_entry;
		fpr->fp.exit_handler = fgraph_regs_fprobe_exit;
		fpr->fp.entry_data_size = sizeof(long);
		fpr->task = current;

		if (order == 0)
			KUNIT_ASSERT_EQ(test, 0, fgraph_regs_start(rec));
		err = register_fprobe(&fpr->fp, "fgraph_regs_kunit_target", NULL);
		if (err) {
			if (order == 0)
				fgraph_regs_stop(rec);
			KUNIT_FAIL(test, "register_fprobe: %d", err);
			return;
		}
		if (order == 1 && fgraph_regs_start(rec)) {
			unregister_fprobe(&fpr->fp);
			KUNIT_FAIL(test, "cannot register the fgraph_ops after the fprobe");
			return;
		}

		ret = fgraph_regs_kunit_call(0x100 * (order + 1));

		fgraph_regs_stop(rec);
		KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&fpr->fp));

		KUNIT_EXPECT_EQ(test, 1, rec->entries);
		KUNIT_EXPECT_EQ(test, 1, rec->returns);
		KUNIT_EXPECT_EQ(test, 0, rec->no_regs);
		KUNIT_EXPECT_EQ(test, ret, rec->retval + 1);
		KUNIT_EXPECT_EQ(test, rec->entry_func, rec->ret_func);
		KUNIT_EXPECT_TRUE_MSG(test, ip_in_func(rec->ret_ip, "fgraph_regs_kunit_call"),
				      "order %d: fgraph_ops return ip %pS", order,
				      (void *)rec->ret_ip);

		KUNIT_EXPECT_EQ(test, 1, fpr->entries);
		KUNIT_EXPECT_EQ(test, 1, fpr->exits);
		KUNIT_EXPECT_EQ(test, 0, fpr->bad_data);
		KUNIT_EXPECT_EQ(test, 0UL, fpr->fp.nmissed);
		for (i = 0; i < ARRAY_SIZE(fpr->args); i++)
			KUNIT_EXPECT_EQ(test, 0x100UL * (order + 1) + i, fpr->args[i]);
		KUNIT_EXPECT_EQ(test, ret, fpr->retval + 1);
		KUNIT_EXPECT_EQ(test, fpr->entry_ip, fpr->exit_ip);
		KUNIT_EXPECT_EQ(test, fpr->entry_ip, rec->entry_func);
		KUNIT_EXPECT_TRUE_MSG(test, ip_in_func(fpr->exit_ret_ip, "fgraph_regs_kunit_call"),
				      "order %d: fprobe ret_ip %pS", order,
				      (void *)fpr->exit_ret_ip);
		KUNIT_EXPECT_EQ(test, fpr->entry_ret_ip, fpr->exit_ret_ip);
	}
}

/*
 * Where fprobe hooks the returns from its ftrace_ops (as kernel/trace/fprobe.c
 * decides), the frames it pushes are function_graph_enter_ops() frames,
 * whose bitmap word names no fgraph_ops.
 */
#if defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS) && defined(arch_fprobe_return_address_ptr)
static DECLARE_COMPLETION(sleeper_entered);
static DECLARE_COMPLETION(sleeper_release);

static noinline unsigned long fgraph_regs_kunit_sleeper(unsigned long v)
{
	complete(&sleeper_entered);
	wait_for_completion(&sleeper_release);
	return v + 7;
}

/* Set by the case, so that the compiler cannot see the callee */
static unsigned long (*sleeper)(unsigned long v);

static int sleeper_thread(void *arg)
{
	unsigned long *ret = arg;

	*ret = sleeper(35);
	return 0;
}

/* Counts every call of the sleeper, from any task */
static notrace int fgraph_regs_count_entry(struct ftrace_graph_ent *trace,
					   struct fgraph_ops *gops,
					   struct ftrace_regs *fregs)
{
	to_record(gops)->entries++;
	return 1;
}

static notrace void fgraph_regs_count_return(struct ftrace_graph_ret *trace,
					     struct fgraph_ops *gops,
					     struct ftrace_regs *fregs)
{
	to_record(gops)->ret_func = trace->func;
	to_record(gops)->returns++;
}

static int fgraph_regs_count_start(struct fgraph_regs_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->gops.entryfunc = fgraph_regs_count_entry;
	rec->gops.retfunc = fgraph_regs_count_return;
	return fgraph_regs_register(rec, sleeper);
}

/* More than fgraph_array holds */
#define NR_FILLERS	17

/*
 * The last fprobe with an exit handler is unregistered while a call it
 * probes sleeps, so fprobe's fgraph_ops goes, and an fgraph_ops registered
 * next takes its index: every other index is taken before, by fgraph_ops on
 * the same function. When the call returns, fgraph pops fprobe's frame,
 * whose user is gone: no retfunc may be called for the call, which none of
 * them saw enter (one was, when the frame's bitmap word named fprobe's
 * index).
 */
static void fgraph_regs_test_index_reused_in_flight(struct kunit *test)
{
	struct fgraph_regs_record *rec;
	struct fgraph_regs_fprobe *fpr;
	struct task_struct *task;
	int entries = 0, returns = 0;
	int i, nr;
	unsigned long ret = 0;
	int err = 0;

	rec = kunit_kcalloc(test, NR_FILLERS, sizeof(*rec), GFP_KERNEL);
	fpr = kunit_kzalloc(test, sizeof(*fpr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_NOT_NULL(test, fpr);
	sleeper = fgraph_regs_kunit_sleeper;

	fpr->fp.entry_handler = fgraph_regs_fprobe_entry;
	fpr->fp.exit_handler = fgraph_regs_fprobe_exit;
	fpr->fp.entry_data_size = sizeof(long);
	KUNIT_ASSERT_EQ(test, 0, register_fprobe(&fpr->fp, "fgraph_regs_kunit_sleeper", NULL));

	reinit_completion(&sleeper_entered);
	reinit_completion(&sleeper_release);
	task = kthread_create(sleeper_thread, &ret, "fgraph_regs_sleeper");
	if (IS_ERR(task)) {
		unregister_fprobe(&fpr->fp);
		KUNIT_FAIL(test, "kthread_create: %ld", PTR_ERR(task));
		return;
	}
	get_task_struct(task);
	/* The fprobe takes the calls of this task only */
	fpr->task = task;
	wake_up_process(task);
	wait_for_completion(&sleeper_entered);
	KUNIT_EXPECT_EQ(test, 1, fpr->entries);

	/* Take every free index */
	for (nr = 0; nr < NR_FILLERS - 1; nr++) {
		err = fgraph_regs_count_start(&rec[nr]);
		if (err)
			break;
	}
	KUNIT_EXPECT_EQ_MSG(test, -ENOSPC, err, "%d fgraph_ops registered", nr);

	/* fprobe's fgraph_ops goes with its last fprobe, and frees its index */
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(&fpr->fp));
	err = fgraph_regs_count_start(&rec[nr]);
	KUNIT_EXPECT_EQ_MSG(test, 0, err, "the index of fprobe's fgraph_ops is not free");
	if (!err)
		nr++;

	complete(&sleeper_release);
	kthread_stop(task);
	put_task_struct(task);

	for (i = 0; i < nr; i++) {
		fgraph_regs_stop(&rec[i]);
		entries += rec[i].entries;
		returns += rec[i].returns;
		KUNIT_EXPECT_EQ_MSG(test, 0, rec[i].returns,
				    "index %d: retfunc called for %pS, which was never entered",
				    rec[i].gops.idx, (void *)rec[i].ret_func);
	}
	KUNIT_EXPECT_EQ(test, 42UL, ret);
	/* The fprobe was gone by the return */
	KUNIT_EXPECT_EQ(test, 0, fpr->exits);
	KUNIT_EXPECT_EQ(test, 0, entries);
	KUNIT_EXPECT_EQ(test, 0, returns);
}

#define UNWIND_ENTRIES	32
static unsigned long unwound[UNWIND_ENTRIES];
static unsigned int nr_unwound;
static int unwind_exits;

/* Probed: its return address is return_to_handler while it runs */
static noinline unsigned long fgraph_regs_kunit_unwound(unsigned long v)
{
	nr_unwound = stack_trace_save(unwound, UNWIND_ENTRIES, 0);
	return v + nr_unwound;
}

/* Set by the case, so that the compiler cannot see the callee */
static unsigned long (*unwound_fn)(unsigned long v);

static noinline unsigned long fgraph_regs_kunit_unwind_caller(unsigned long v)
{
	/* Not a tail call: the caller is on the stack */
	return unwound_fn(v) + 1;
}

static notrace void fgraph_regs_unwind_exit(struct fprobe *fp, unsigned long ip,
					    unsigned long ret_ip,
					    struct ftrace_regs *fregs, void *data)
{
	unwind_exits++;
}

/*
 * A stack trace taken inside a function whose return fprobe hooked from its
 * ftrace_ops: where the stack holds return_to_handler, the unwinder finds
 * the frame fprobe pushed (under ftrace_regs_graph_retp()) and shows the
 * caller, as for a frame of the function graph tracer.
 */
static void fgraph_regs_test_unwind_own_frame(struct kunit *test)
{
	struct fprobe *fp;
	bool caller = false;
	unsigned long ret;
	unsigned int i;
	int handler = 0;

	fp = kunit_kzalloc(test, sizeof(*fp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fp);
	fp->exit_handler = fgraph_regs_unwind_exit;
	unwound_fn = fgraph_regs_kunit_unwound;
	nr_unwound = 0;
	unwind_exits = 0;

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(fp, "fgraph_regs_kunit_unwound", NULL));
	/* The result used, so that the call stays a call and not a jump */
	ret = fgraph_regs_kunit_unwind_caller(1);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(fp));
	KUNIT_EXPECT_EQ(test, 1, unwind_exits);
	KUNIT_EXPECT_EQ(test, ret, 2UL + nr_unwound);

	KUNIT_ASSERT_GT(test, nr_unwound, 0U);
	for (i = 0; i < nr_unwound; i++) {
		if (ip_in_func(unwound[i], "fgraph_regs_kunit_unwind_caller"))
			caller = true;
		if (ip_in_func(unwound[i], "return_to_handler"))
			handler++;
	}
	KUNIT_EXPECT_TRUE_MSG(test, caller, "the caller is not in the %u entries",
			      nr_unwound);
	KUNIT_EXPECT_EQ(test, 0, handler);
	if (!caller || handler) {
		for (i = 0; i < nr_unwound; i++)
			kunit_info(test, "  %pS\n", (void *)unwound[i]);
	}
}
#else
static void fgraph_regs_test_index_reused_in_flight(struct kunit *test)
{
	kunit_skip(test, "fprobe pushes no frames of its own here");
}

static void fgraph_regs_test_unwind_own_frame(struct kunit *test)
{
	kunit_skip(test, "fprobe pushes no frames of its own here");
}
#endif
#else
static void fgraph_regs_test_with_fprobe(struct kunit *test)
{
	kunit_skip(test, "CONFIG_FPROBE is not set");
}

static void fgraph_regs_test_index_reused_in_flight(struct kunit *test)
{
	kunit_skip(test, "CONFIG_FPROBE is not set");
}

static void fgraph_regs_test_unwind_own_frame(struct kunit *test)
{
	kunit_skip(test, "CONFIG_FPROBE is not set");
}
#endif

static int fgraph_regs_suite_init(struct kunit_suite *suite)
{
	target = fgraph_regs_kunit_target;
	return 0;
}

static struct kunit_case fgraph_regs_test_cases[] = {
	KUNIT_CASE(fgraph_regs_test_args_retval),
	KUNIT_CASE(fgraph_regs_test_many_calls),
	KUNIT_CASE(fgraph_regs_test_timestamps),
	KUNIT_CASE(fgraph_regs_test_with_fprobe),
	KUNIT_CASE(fgraph_regs_test_index_reused_in_flight),
	KUNIT_CASE(fgraph_regs_test_unwind_own_frame),
	{}
};

static struct kunit_suite fgraph_regs_test_suite = {
	.name = "fgraph_regs",
	.suite_init = fgraph_regs_suite_init,
	.test_cases = fgraph_regs_test_cases,
};

kunit_test_suite(fgraph_regs_test_suite);

MODULE_DESCRIPTION("KUnit tests for ftrace_regs in function graph callbacks");
MODULE_LICENSE("GPL");
