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
 * must not change what either sees, nor must a kretprobe on it; and an
 * fgraph_ops which takes the index of fprobe's, gone while a call fprobe
 * hooked was in flight, is not called at the return of that call. Stack
 * traces taken in a probed function, and perf callchains taken in
 * interrupts that land in return_to_handler, find the caller or stop, and
 * never follow a wrong frame.
 */
#include <kunit/test.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/completion.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/perf_event.h>
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

/*
 * A kretprobe and an fgraph_ops on one function, each registered first in
 * turn: where the kprobe sits on the ftrace call (KPROBE_FLAG_FTRACE),
 * ftrace calls the newest ftrace_ops first, and the function graph tracer
 * must hook the return address as the kretprobe's left it, so that both
 * return handlers run, each once. (The order holds when neither fgraph's
 * nor the kprobes' ftrace_ops was registered before the case, as in a
 * KUnit boot; elsewhere the kprobe traps first.)
 */
static const bool kretprobe_first[] = { false, true };

static void kretprobe_first_desc(const bool *first, char *desc)
{
	strscpy(desc, *first ? "kretprobe first" : "fgraph_ops first",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kretprobe_order, kretprobe_first, kretprobe_first_desc);

#ifdef CONFIG_KRETPROBES
static int kretprobe_returns;
static unsigned long kretprobe_retval;

static int fgraph_regs_kretprobe_handler(struct kretprobe_instance *ri,
					 struct pt_regs *regs)
{
	kretprobe_returns++;
	kretprobe_retval = regs_return_value(regs);
	return 0;
}

static void fgraph_regs_test_kretprobe(struct kunit *test)
{
	const bool *krp_first = test->param_value;
	struct kretprobe krp = {
		.kp.symbol_name	= "fgraph_regs_kunit_target",
		.handler	= fgraph_regs_kretprobe_handler,
		.maxactive	= 4,
	};
	unsigned long addr = (unsigned long)fgraph_regs_kunit_target;
	struct fgraph_regs_record *rec;
	unsigned long ret;
	int err;

	/* As kprobes' check_ftrace_location() refuses it */
	if (!IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) && ftrace_location(addr) == addr)
		kunit_skip(test, "no kprobe on the ftrace call at the function's entry");

	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	kretprobe_returns = 0;
	kretprobe_retval = 0;

	if (*krp_first)
		KUNIT_ASSERT_EQ(test, 0, register_kretprobe(&krp));
	err = fgraph_regs_start(rec);
	if (err) {
		if (*krp_first)
			unregister_kretprobe(&krp);
		KUNIT_FAIL_AND_ABORT(test, "registering the fgraph_ops: %d", err);
	}
	if (!*krp_first) {
		err = register_kretprobe(&krp);
		if (err) {
			fgraph_regs_stop(rec);
			KUNIT_FAIL_AND_ABORT(test, "register_kretprobe(): %d", err);
		}
	}

	ret = target(5, 6, 7, 8);

	unregister_kretprobe(&krp);
	fgraph_regs_stop(rec);

	KUNIT_EXPECT_EQ(test, 1, rec->entries);
	KUNIT_EXPECT_EQ(test, 1, rec->returns);
	KUNIT_EXPECT_EQ(test, ret, rec->retval);
	KUNIT_EXPECT_EQ_MSG(test, 1, kretprobe_returns,
			    "the kretprobe's return handler");
	KUNIT_EXPECT_EQ(test, ret, kretprobe_retval);
	KUNIT_EXPECT_EQ(test, 0, krp.nmissed);
}
#else
static void fgraph_regs_test_kretprobe(struct kunit *test)
{
	kunit_skip(test, "CONFIG_KRETPROBES is not set");
}
#endif

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

/*
 * Probed: its return address is return_to_handler while it runs.
 *
 * powerpc's arch_stack_walk(), under stack_trace_save(), gives the saved
 * link registers as they are, return_to_handler included, for the frames
 * of the function graph tracer as for fprobe's: its reliable walk (and
 * show_stack()) look them up, so the key of fprobe's frames is tested
 * there.
 */
static noinline unsigned long fgraph_regs_kunit_unwound(unsigned long v)
{
	int nr;

	if (IS_ENABLED(CONFIG_PPC) &&
	    IS_ENABLED(CONFIG_HAVE_RELIABLE_STACKTRACE)) {
		nr = stack_trace_save_tsk_reliable(current, unwound,
						   UNWIND_ENTRIES);
		nr_unwound = nr > 0 ? nr : 0;
	} else {
		nr_unwound = stack_trace_save(unwound, UNWIND_ENTRIES, 0);
	}
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

#ifdef CONFIG_PERF_EVENTS
#define RTH_SAMPLES	16
#define RTH_HITS	64
#define RTH_CHAIN	16
#define RTH_MAX_CALLS	4000000UL

/* Perf callchains taken in interrupts that landed in return_to_handler */
static struct rth_state {
	unsigned long	ret;		/* where the probed calls return to */
	unsigned long	start;		/* return_to_handler */
	unsigned long	end;
	unsigned int	overflows;	/* of the CPU clock event */
	atomic_t	hits;		/* samples in return_to_handler */
	atomic_t	n;		/* of them kept: one per address */
	struct {
		unsigned long	at;	/* where the sample landed */
		unsigned int	nr;
		u64		ip[RTH_CHAIN];
	} s[RTH_SAMPLES];
} *rth;

/* Probed with an exit handler: returns where it returns to */
static noinline unsigned long fgraph_regs_kunit_rth_callee(void)
{
	return (unsigned long)__builtin_return_address(0);
}

static unsigned long (*rth_callee)(void);

/* The function the probed calls return to, in the loop */
static noinline unsigned long fgraph_regs_kunit_rth_caller(unsigned long max)
{
	unsigned long i;

	for (i = 0; i < max && atomic_read(&rth->hits) < RTH_HITS; i++)
		if (rth_callee() != rth->ret)
			break;
	return i;
}

static notrace void rth_exit(struct fprobe *fp, unsigned long ip,
			     unsigned long ret_ip, struct ftrace_regs *fregs,
			     void *data)
{
}

static void rth_overflow(struct perf_event *event,
			 struct perf_sample_data *data, struct pt_regs *regs)
{
	unsigned long ip = instruction_pointer(regs);
	struct perf_callchain_entry *chain;
	int i, n = atomic_read(&rth->n);

	rth->overflows++;
	if (ip < rth->start || ip >= rth->end)
		return;
	atomic_inc(&rth->hits);
	for (i = 0; i < n; i++)
		if (rth->s[i].at == ip)
			return;
	if (n >= RTH_SAMPLES)
		return;
	/* What perf record -g takes for the sample, under RCU as perf does */
	rcu_read_lock();
	chain = get_perf_callchain(regs, true, false, RTH_CHAIN, false, false);
	if (chain) {
		rth->s[n].at = ip;
		rth->s[n].nr = min_t(u64, chain->nr, RTH_CHAIN);
		memcpy(rth->s[n].ip, chain->ip, rth->s[n].nr * sizeof(u64));
		atomic_set(&rth->n, n + 1);
	}
	rcu_read_unlock();
}

static bool in_rth(u64 ip)
{
	return ip >= rth->start && ip < rth->end;
}

/*
 * A perf callchain taken in an interrupt that lands in return_to_handler,
 * on the return of a call whose return fprobe hooked: the CPU clock samples
 * the task every 100us while it calls a probed function in a loop, and keeps
 * the callchain of each address in return_to_handler where a sample stopped
 * the task.
 * Every address of each is kernel text, and the unwinder either stops in
 * return_to_handler (the return address is in no place it can describe) or
 * goes on through the function being returned to, or past it, up to this
 * case: it never follows a wrong frame. How many name the function being
 * returned to, which return_to_handler holds only on the shadow stack until
 * ftrace_return_to_handler() hands it back, is told.
 */
static void fgraph_regs_test_unwind_return_to_handler(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.config		= PERF_COUNT_SW_CPU_CLOCK,
		.size		= sizeof(attr),
		.sample_period	= 100000,
		/* Allocates the buffers get_perf_callchain() takes */
		.sample_type	= PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN,
		.sample_max_stack = RTH_CHAIN,
		.exclude_user	= 1,
	};
	unsigned int i, k, stopped = 0, caller = 0;
	unsigned long size, offset, calls;
	struct perf_event *event;
	struct fprobe *fp;

	rth = kunit_kzalloc(test, sizeof(*rth), GFP_KERNEL);
	fp = kunit_kzalloc(test, sizeof(*fp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rth);
	KUNIT_ASSERT_NOT_NULL(test, fp);
	fp->exit_handler = rth_exit;
	rth_callee = fgraph_regs_kunit_rth_callee;

	KUNIT_ASSERT_EQ(test, 0, register_fprobe(fp, "fgraph_regs_kunit_rth_callee",
						 NULL));
	/* Where the probed function returns to, while probed */
	rth->ret = rth_callee();
	if (!ip_in_func(rth->ret, "return_to_handler") ||
	    !kallsyms_lookup_size_offset(rth->ret, &size, &offset)) {
		unregister_fprobe(fp);
		KUNIT_FAIL(test, "the probed function returns to %pS",
			   (void *)rth->ret);
		return;
	}
	rth->start = rth->ret - offset;
	rth->end = rth->start + size;

	event = perf_event_create_kernel_counter(&attr, -1, current,
						 rth_overflow, NULL);
	if (IS_ERR(event)) {
		unregister_fprobe(fp);
		KUNIT_FAIL(test, "no CPU clock event: %ld", PTR_ERR(event));
		return;
	}
	calls = fgraph_regs_kunit_rth_caller(RTH_MAX_CALLS);
	perf_event_disable(event);
	perf_event_release_kernel(event);
	KUNIT_EXPECT_EQ(test, 0, unregister_fprobe(fp));

	kunit_info(test, "%lu calls, %u samples, %d in return_to_handler at %d addresses\n",
		   calls, rth->overflows, atomic_read(&rth->hits),
		   atomic_read(&rth->n));
	/* Each call returned to return_to_handler: the loop ran to its end */
	KUNIT_EXPECT_TRUE(test, calls == RTH_MAX_CALLS ||
			  atomic_read(&rth->hits) >= RTH_HITS);
	KUNIT_ASSERT_GT_MSG(test, atomic_read(&rth->n), 0,
			    "no interrupt landed in return_to_handler");
	for (i = 0; i < atomic_read(&rth->n); i++) {
		bool bad = false, reached = false, named = false;
		unsigned int nr = rth->s[i].nr;
		u64 *ip = rth->s[i].ip;

		/*
		 * The first address is where the sample landed, or the
		 * function returned to where the unwinder recovers it
		 * (arm64's does, from the shadow stack, until the frame is
		 * popped).
		 */
		KUNIT_EXPECT_GT(test, nr, 0U);
		if (!nr)
			continue;
		for (k = 0; k < nr; k++) {
			/* powerpc's unwinder stores 0 for a doubtful caller */
			if (ip[k] && !kernel_text_address(ip[k]))
				bad = true;
			if (ip_in_func(ip[k], "fgraph_regs_kunit_rth_caller"))
				named = true;
			if (ip_in_func(ip[k], "fgraph_regs_test_unwind_return_to_handler"))
				reached = true;
		}
		/* Stopped: all of it in return_to_handler */
		for (k = 0; k < nr && in_rth(ip[k]); k++)
			;
		if (k == nr)
			stopped++;
		else if (!reached)
			bad = true;
		if (named)
			caller++;
		KUNIT_EXPECT_FALSE(test, bad);
		kunit_info(test, "sample at %pS%s:\n", (void *)rth->s[i].at,
			   bad ? " (wrong)" : "");
		for (k = 0; k < nr; k++)
			kunit_info(test, "  %pS\n", (void *)ip[k]);
	}
	kunit_info(test, "of those addresses, %u stopped in return_to_handler, %u name the function returned to\n",
		   stopped, caller);
}
#else
static void fgraph_regs_test_unwind_return_to_handler(struct kunit *test)
{
	kunit_skip(test, "CONFIG_PERF_EVENTS is not set");
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

static void fgraph_regs_test_unwind_return_to_handler(struct kunit *test)
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
	KUNIT_CASE_PARAM(fgraph_regs_test_kretprobe, kretprobe_order_gen_params),
	KUNIT_CASE(fgraph_regs_test_with_fprobe),
	KUNIT_CASE(fgraph_regs_test_index_reused_in_flight),
	KUNIT_CASE(fgraph_regs_test_unwind_own_frame),
	KUNIT_CASE(fgraph_regs_test_unwind_return_to_handler),
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
