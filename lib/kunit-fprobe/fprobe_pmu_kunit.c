// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the fprobe perf PMU (kernel/trace/fprobe_pmu.c): in-kernel
 * perf events of the test task on the target functions below, called
 * through pointers, checked by the values of their records and counts.
 * The filter strings are passed as the ABI says, through user memory
 * (kunit_vm_mmap()).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/fprobe.h>
#include <linux/fprobe_pmu.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/mman.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#include <asm/fprobe.h>

#define TARGET_DELAY_US		2000
#define CAPTURE_MAX		32
#define CHAIN_MAX		16

static noinline int fprobe_pmu_kunit_add(int a, int b)
{
	return a + b;
}

static noinline int fprobe_pmu_kunit_delay(int us)
{
	udelay(us);
	return us;
}

static noinline int fprobe_pmu_kunit_sleep(int ms)
{
	msleep(ms);
	return ms;
}

/*
 * The timed targets read local_clock(), the clock of the records, at their
 * own start and end: a record's duration holds that inner span, and the
 * test's readings around the call hold the duration. No time is assumed
 * from udelay() or msleep(), which under emulation need not agree with the
 * clock (a delay loop calibrated on a busy host, a late timer).
 */
struct span {
	u64	start;
	u64	end;
};

static noinline int fprobe_pmu_kunit_timed(struct span *s, int us)
{
	s->start = local_clock();
	udelay(us);
	s->end = local_clock();
	return us;
}

/* Sleep until @ns have passed by local_clock(); return the span slept */
static noinline u64 fprobe_pmu_kunit_sleep_for(u64 ns)
{
	u64 start = local_clock(), span;

	while ((span = local_clock() - start) < ns)
		usleep_range(1000, 2000);
	return span;
}

/* A call the test holds in progress: entered, then released */
struct held_call {
	struct completion	entered;
	struct completion	release;
	struct completion	done;
};

static noinline int fprobe_pmu_kunit_held(struct held_call *h)
{
	complete(&h->entered);
	wait_for_completion(&h->release);
	return 1;
}

/* Return @v as an int and as a long, for the errors filter */
static noinline int fprobe_pmu_kunit_ret(long v)
{
	return v;
}

static noinline long fprobe_pmu_kunit_lret(long v)
{
	return v;
}

static noinline int fprobe_pmu_kunit_inner(int x)
{
	return x * 2;
}

/* Set at run time, so that the compiler cannot call the targets directly */
static int (*inner_ptr)(int);

static noinline int fprobe_pmu_kunit_outer(int x)
{
	return inner_ptr(x) + 1;
}

/* What the fetch arguments of fprobe_pmu_test_fetch() read */
struct fetch_obj {
	u32			a;
	const char		*name;
	struct fetch_obj	*next;
	char			tag[8];
};

static noinline int fprobe_pmu_kunit_fetch(struct fetch_obj *obj, const char *str,
					   long v, const char __user *ustr)
{
	return obj->a + v + !!str + !!ustr;
}

static int (*fetch_ptr)(struct fetch_obj *, const char *, long, const char __user *);
static int (*add_ptr)(int, int);
static int (*delay_ptr)(int);
static int (*sleep_ptr)(int);
static int (*timed_ptr)(struct span *, int);
static u64 (*sleep_for_ptr)(u64);
static int (*held_ptr)(struct held_call *);
static int (*outer_ptr)(int);
static int (*ret_ptr)(long);
static long (*lret_ptr)(long);

/* A record as the overflow handler saw it: rec and args, contiguous */
struct captured {
	struct fprobe_pmu_record	rec;
	u64				args[FPROBE_PMU_MAX_ARGS];
	u64				period;
	unsigned long			ip;
	bool				kernel_mode;	/* perf_misc_flags() */
	int				nr_chain;	/* kernel callchain */
	u64				chain[CHAIN_MAX];
};

struct capture {
	spinlock_t	lock;	/* protects the fields below */
	int		n;
	int		bad;
	struct captured	recs[CAPTURE_MAX];
};

struct fprobe_pmu_test {
	unsigned long	ubuf;	/* two pages of user memory */
	struct capture	*cap;
	u64		sample_type;	/* more for open_event() */
};

static void capture_handler(struct perf_event *event,
			    struct perf_sample_data *data,
			    struct pt_regs *regs)
{
	struct capture *cap = event->overflow_handler_context;
	struct perf_raw_frag *frag;
	struct captured *c;
	unsigned long flags;
	size_t len = 0;

	spin_lock_irqsave(&cap->lock, flags);
	if (!data->raw || cap->n >= CAPTURE_MAX) {
		cap->bad++;
		goto out_unlock;
	}
	c = &cap->recs[cap->n];
	/* The record, then its arguments, maybe in another fragment */
	for (frag = &data->raw->frag; ; frag = frag->next) {
		if (len + frag->size > sizeof(c->rec) + sizeof(c->args)) {
			cap->bad++;
			goto out_unlock;
		}
		/* rec comes first, args right after it */
		memcpy((char *)c + len, frag->data, frag->size);
		len += frag->size;
		if (perf_raw_frag_last(frag))
			break;
	}
	if (len < sizeof(c->rec) || c->rec.nargs > FPROBE_PMU_MAX_ARGS ||
	    c->rec.size != len || len != struct_size(&c->rec, args, c->rec.nargs) ||
	    c->rec.version != FPROBE_PMU_RECORD_VERSION || c->rec.fetch_flags) {
		cap->bad++;
		goto out_unlock;
	}
	cap->n++;
	c->period = data->period;
	c->ip = instruction_pointer(regs);
	c->kernel_mode = (perf_misc_flags(regs) & PERF_RECORD_MISC_CPUMODE_MASK) ==
			 PERF_RECORD_MISC_KERNEL;
	if (event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
		struct perf_callchain_entry *chain;

		/* What perf_callchain() unwinds for the sample */
		chain = get_perf_callchain(regs, true, false, CHAIN_MAX, false, false);
		if (chain) {
			c->nr_chain = min_t(u64, chain->nr, CHAIN_MAX);
			memcpy(c->chain, chain->ip, c->nr_chain * sizeof(u64));
		}
	}
out_unlock:
	spin_unlock_irqrestore(&cap->lock, flags);
}

static int fprobe_pmu_test_init(struct kunit *test)
{
	struct fprobe_pmu_test *t;

	if (fprobe_pmu_type() < 0)
		kunit_skip(test, "the fprobe PMU is not registered");

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->cap = kunit_kzalloc(test, sizeof(*t->cap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->cap);
	spin_lock_init(&t->cap->lock);

	t->ubuf = kunit_vm_mmap(test, NULL, 0, 2 * PAGE_SIZE,
				PROT_READ | PROT_WRITE,
				MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (!t->ubuf)
		kunit_skip(test, "no user memory for the filters");
	test->priv = t;
	return 0;
}

/* Copy @str (with its NUL) to user memory at offset @off, return its address */
static u64 user_string(struct kunit *test, unsigned long off, const char *str)
{
	struct fprobe_pmu_test *t = test->priv;
	unsigned long uaddr = t->ubuf + off;

	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)uaddr, str,
					   strlen(str) + 1), 0);
	return uaddr;
}

/*
 * Open an fprobe PMU event of the current task on @filter (and not on
 * @notfilter, if not NULL). @period 0 is a counting event.
 */
static struct perf_event *open_event_handler(struct kunit *test,
					     struct task_struct *task,
					     u64 config, const char *filter,
					     const char *notfilter, u64 period,
					     perf_overflow_handler_t handler)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.config		= config,
		.sample_period	= period,
		.sample_type	= PERF_SAMPLE_RAW | PERF_SAMPLE_PERIOD |
				  PERF_SAMPLE_IP | t->sample_type,
		.sample_max_stack = CHAIN_MAX,
	};
	struct perf_event *event;

	attr.type = fprobe_pmu_type();
	attr.config1 = user_string(test, 0, filter);
	if (notfilter)
		attr.config2 = user_string(test, PAGE_SIZE, notfilter);

	event = perf_event_create_kernel_counter(&attr, -1, task,
						 period ? handler : NULL, t->cap);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, event);
	return event;
}

static struct perf_event *open_event(struct kunit *test, u64 config,
				     const char *filter, const char *notfilter,
				     u64 period)
{
	return open_event_handler(test, current, config, filter, notfilter,
				  period, capture_handler);
}

/* Stop @event and return its count */
static u64 close_event(struct perf_event *event)
{
	u64 enabled, running, count;

	perf_event_disable(event);
	count = perf_event_read_value(event, &enabled, &running);
	perf_event_release_kernel(event);
	return count;
}

/* Try to open an event with @attr on the PMU and return the error */
static long open_error(struct perf_event_attr *attr)
{
	struct perf_event *event;

	attr->type = fprobe_pmu_type();
	attr->size = sizeof(*attr);
	event = perf_event_create_kernel_counter(attr, -1, current, NULL, NULL);
	if (IS_ERR(event))
		return PTR_ERR(event);
	perf_event_release_kernel(event);
	return 0;
}

static unsigned long entry_of(void *func)
{
	return ftrace_location((unsigned long)func);
}

/*
 * Keep the test's thread on the CPU it runs on, and return that CPU: the
 * clock of the records, local_clock(), is monotonic on one CPU only, and
 * the cases compare its readings. The thread of a case ends with it.
 */
static int pin_test(struct kunit *test)
{
	int cpu = raw_smp_processor_id();

	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	return cpu;
}

static void fprobe_pmu_test_count(struct kunit *test)
{
	struct perf_event *event;
	int i;

	event = open_event(test, 0, "fprobe_pmu_kunit_add", NULL, 0);
	for (i = 0; i < 5; i++)
		add_ptr(i, i);
	KUNIT_EXPECT_EQ(test, close_event(event), 5);

	/* The event is gone: more calls count nowhere and do not crash. */
	KUNIT_EXPECT_EQ(test, add_ptr(1, 2), 3);
}

static void fprobe_pmu_test_exit_records(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event *event;
	u64 before, after;
	int i;

	pin_test(test);
	event = open_event(test, 2, "fprobe_pmu_kunit_add", NULL, 1);
	before = local_clock();
	for (i = 1; i <= 3; i++)
		KUNIT_EXPECT_EQ(test, add_ptr(i, 10 * i), 11 * i);
	after = local_clock();
	KUNIT_EXPECT_EQ(test, close_event(event), 3);

	KUNIT_EXPECT_EQ(test, t->cap->bad, 0);
	KUNIT_ASSERT_EQ(test, t->cap->n, 3);
	for (i = 0; i < 3; i++) {
		struct captured *c = &t->cap->recs[i];

		KUNIT_EXPECT_EQ(test, c->rec.type, FPROBE_PMU_REC_EXIT);
		KUNIT_EXPECT_EQ(test, c->rec.nargs, 2);
		KUNIT_EXPECT_EQ(test, c->rec.func,
				entry_of(fprobe_pmu_kunit_add));
		KUNIT_EXPECT_EQ(test, c->ip, entry_of(fprobe_pmu_kunit_add));
		KUNIT_EXPECT_NE(test, c->rec.ret_ip, 0);
		KUNIT_EXPECT_EQ(test, c->rec.args[0], i + 1);
		KUNIT_EXPECT_EQ(test, c->rec.args[1], 10 * (i + 1));
		KUNIT_EXPECT_EQ(test, c->rec.retval, 11 * (i + 1));
		KUNIT_EXPECT_GE(test, c->rec.entry_time, before);
		KUNIT_EXPECT_LE(test, c->rec.entry_time + c->rec.duration,
				after);
		KUNIT_EXPECT_EQ(test, c->period, c->rec.duration);
		if (i)
			KUNIT_EXPECT_GE(test, c->rec.entry_time,
					c[-1].rec.entry_time + c[-1].rec.duration);
	}
}

static void fprobe_pmu_test_duration(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event *event;
	struct captured *c;
	struct span inner;
	u64 before, after;

	pin_test(test);
	event = open_event(test, 2, "fprobe_pmu_kunit_timed", NULL, 1);
	before = local_clock();
	KUNIT_EXPECT_EQ(test, timed_ptr(&inner, TARGET_DELAY_US),
			TARGET_DELAY_US);
	after = local_clock();
	KUNIT_EXPECT_EQ(test, close_event(event), 1);

	KUNIT_ASSERT_EQ(test, t->cap->n, 1);
	c = &t->cap->recs[0];
	KUNIT_EXPECT_EQ(test, c->rec.args[0], (u64)(unsigned long)&inner);
	KUNIT_EXPECT_EQ(test, c->rec.args[1], TARGET_DELAY_US);
	/* The call's span as the target saw it, and as the test saw it */
	KUNIT_EXPECT_GE(test, c->rec.entry_time, before);
	KUNIT_EXPECT_LE(test, c->rec.entry_time, inner.start);
	KUNIT_EXPECT_GE(test, c->rec.duration, inner.end - inner.start);
	KUNIT_EXPECT_LE(test, c->rec.entry_time + c->rec.duration, after);
	KUNIT_EXPECT_EQ(test, c->period, c->rec.duration);
}

/* Two globs in one filter; the inner call is one level deeper */
static void fprobe_pmu_test_depth(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct captured *inner, *outer;
	struct perf_event *event;

	pin_test(test);
	event = open_event(test, 1,
			   "fprobe_pmu_kunit_outer,fprobe_pmu_kunit_inner",
			   NULL, 1);
	KUNIT_EXPECT_EQ(test, outer_ptr(20), 41);
	KUNIT_EXPECT_EQ(test, close_event(event), 2);

	/* The inner call returns first. */
	KUNIT_ASSERT_EQ(test, t->cap->n, 2);
	inner = &t->cap->recs[0];
	outer = &t->cap->recs[1];
	KUNIT_EXPECT_EQ(test, inner->rec.func, entry_of(fprobe_pmu_kunit_inner));
	KUNIT_EXPECT_EQ(test, outer->rec.func, entry_of(fprobe_pmu_kunit_outer));
	KUNIT_EXPECT_EQ(test, inner->rec.depth, outer->rec.depth + 1);
	KUNIT_EXPECT_EQ(test, inner->rec.args[0], 20);
	KUNIT_EXPECT_EQ(test, inner->rec.retval, 40);
	KUNIT_EXPECT_EQ(test, outer->rec.retval, 41);
	KUNIT_EXPECT_GE(test, inner->rec.entry_time, outer->rec.entry_time);
	KUNIT_EXPECT_LE(test, inner->rec.entry_time + inner->rec.duration,
			outer->rec.entry_time + outer->rec.duration);
	/* The inner call returns into the outer function. */
	KUNIT_EXPECT_GT(test, inner->rec.ret_ip, outer->rec.func);
}

/*
 * A scope ('@' globs): only the calls made by a task inside a function of
 * the scope are seen, and those of the scope itself; a filter of scope
 * globs only, or a scope that matches nothing, is refused.
 */
static void fprobe_pmu_test_scope(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event_attr attr = {
		.config		= 1,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_RAW,
	};
	struct perf_event *event;

	event = open_event(test, 1,
			   "fprobe_pmu_kunit_inner,fprobe_pmu_kunit_outer @fprobe_pmu_kunit_outer",
			   NULL, 1);
	KUNIT_EXPECT_EQ(test, inner_ptr(5), 10);	/* out of the scope */
	KUNIT_EXPECT_EQ(test, outer_ptr(6), 13);	/* the scope, and inner(6) in it */
	KUNIT_EXPECT_EQ(test, inner_ptr(7), 14);
	KUNIT_EXPECT_EQ(test, close_event(event), 2);

	KUNIT_ASSERT_EQ(test, t->cap->n, 2);
	KUNIT_EXPECT_EQ(test, t->cap->recs[0].rec.func, entry_of(fprobe_pmu_kunit_inner));
	KUNIT_EXPECT_EQ(test, t->cap->recs[0].rec.args[0], 6);
	KUNIT_EXPECT_EQ(test, t->cap->recs[1].rec.func, entry_of(fprobe_pmu_kunit_outer));
	KUNIT_EXPECT_EQ(test, t->cap->recs[1].rec.args[0], 6);

	attr.config1 = user_string(test, 0, "@fprobe_pmu_kunit_outer");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_inner,@");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_inner,@no_such_function_xyz");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -ENOENT);
}

static int scope_test_entry(struct ftrace_graph_ent *trace,
			    struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	return 0;
}

/* A frame another user left at the index this one takes returns here */
static void scope_test_return(struct ftrace_graph_ret *trace,
			      struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
}

static struct fgraph_ops scope_test_gops = {
	.entryfunc	= scope_test_entry,
	.retfunc	= scope_test_return,
};

/*
 * Scopes share one function graph ops: more probes with a scope than the
 * function graph tracer has ops (16) are open at once, each sees its own
 * scope only, and another function graph user can still register. The
 * probes are entry-only (the exit ones of one function share a shadow
 * stack frame of FGRAPH_MAX_DATA_SIZE bytes, which twenty do not fit).
 */
static void fprobe_pmu_test_scopes_shared(struct kunit *test)
{
	enum { NR = 20 };
	const u64 entry_only = FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT;
	struct perf_event *events[NR], *other;
	char filter[128];
	unsigned long ip;
	int i;

	/* Distinct filter strings, distinct probes: trailing separators */
	for (i = 0; i < NR; i++) {
		snprintf(filter, sizeof(filter),
			 "fprobe_pmu_kunit_inner @fprobe_pmu_kunit_outer%*s", i, "");
		events[i] = open_event(test, entry_only, filter, NULL, 0);
	}
	/* A scope that never calls inner() */
	other = open_event(test, entry_only,
			   "fprobe_pmu_kunit_inner @fprobe_pmu_kunit_add", NULL, 0);

	ip = entry_of(fprobe_pmu_kunit_add);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ips(&scope_test_gops.ops, &ip,
						    1, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, register_ftrace_graph(&scope_test_gops), 0);
	unregister_ftrace_graph(&scope_test_gops);
	/* Its callbacks may still run on another CPU: wait before the filter goes */
	synchronize_rcu_tasks_rude();
	ftrace_free_filter(&scope_test_gops.ops);

	KUNIT_EXPECT_EQ(test, inner_ptr(5), 10);	/* out of every scope */
	KUNIT_EXPECT_EQ(test, add_ptr(1, 2), 3);	/* other's scope, no inner() */
	KUNIT_EXPECT_EQ(test, outer_ptr(6), 13);	/* inner(6) in 20 scopes */
	KUNIT_EXPECT_EQ(test, outer_ptr(7), 15);

	KUNIT_EXPECT_EQ(test, close_event(other), 0);
	for (i = 0; i < NR; i++)
		KUNIT_EXPECT_EQ(test, close_event(events[i]), 2);

	/* The last scope gone, a new one starts from no frame */
	events[0] = open_event(test, entry_only,
			       "fprobe_pmu_kunit_inner @fprobe_pmu_kunit_outer",
			       NULL, 0);
	KUNIT_EXPECT_EQ(test, inner_ptr(1), 2);
	KUNIT_EXPECT_EQ(test, outer_ptr(1), 3);
	KUNIT_EXPECT_EQ(test, close_event(events[0]), 1);
}

/* Whether @addr is in the function @func, after its first instruction */
static bool in_function(u64 addr, void *func)
{
	unsigned long size, offset;

	if (!kallsyms_lookup_size_offset((unsigned long)func, &size, &offset))
		return false;
	return addr > (unsigned long)func && addr < (unsigned long)func + size;
}

/*
 * The sample registers (fprobe_pmu_fill_regs()) on every architecture, at
 * the entry and at the exit of a call: kernel mode, the ip of the probed
 * function, and a kernel callchain which starts there and goes on up the
 * stack of the call to this test. The direct caller is in it with x86's
 * ORC unwinder only: the others start from the frame pointer, which is
 * still the caller's in the first instruction of a function, and do not
 * read the return address register, as for a kprobe there.
 */
static void fprobe_pmu_test_sample_regs(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event *event;
	int i, k, found;

	t->sample_type = PERF_SAMPLE_CALLCHAIN;
	event = open_event(test, FPROBE_PMU_CONFIG_ENTRY | 1,
			   "fprobe_pmu_kunit_inner", NULL, 1);
	KUNIT_EXPECT_EQ(test, outer_ptr(4), 9);
	KUNIT_EXPECT_EQ(test, close_event(event), 1);

	KUNIT_ASSERT_EQ(test, t->cap->n, 2);
	for (i = 0; i < 2; i++) {
		struct captured *c = &t->cap->recs[i];

		KUNIT_EXPECT_EQ(test, c->rec.type,
				i ? FPROBE_PMU_REC_EXIT : FPROBE_PMU_REC_ENTRY);
		KUNIT_EXPECT_TRUE(test, c->kernel_mode);
		KUNIT_EXPECT_EQ(test, c->ip, entry_of(fprobe_pmu_kunit_inner));
		KUNIT_ASSERT_GE(test, c->nr_chain, 2);
		KUNIT_EXPECT_EQ(test, c->chain[0], entry_of(fprobe_pmu_kunit_inner));
		if (IS_ENABLED(CONFIG_UNWINDER_ORC))
			KUNIT_EXPECT_TRUE(test, in_function(c->chain[1],
							    fprobe_pmu_kunit_outer));
		found = 0;
		for (k = 1; k < c->nr_chain; k++)
			found |= in_function(c->chain[k], fprobe_pmu_test_sample_regs);
		KUNIT_EXPECT_TRUE_MSG(test, found,
				      "%s record: no return into the test in the callchain",
				      i ? "exit" : "entry");
	}
}

static void fprobe_pmu_test_notfilter(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event *event;

	event = open_event(test, 0, "fprobe_pmu_kunit_outer fprobe_pmu_kunit_inner",
			   "fprobe_pmu_kunit_inner", 1);
	KUNIT_EXPECT_EQ(test, outer_ptr(1), 3);
	KUNIT_EXPECT_EQ(test, close_event(event), 1);
	KUNIT_ASSERT_EQ(test, t->cap->n, 1);
	KUNIT_EXPECT_EQ(test, t->cap->recs[0].rec.func,
			entry_of(fprobe_pmu_kunit_outer));
}

static void fprobe_pmu_test_entry_records(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct captured *entry, *exit;
	struct perf_event *event;
	int i;

	event = open_event(test, FPROBE_PMU_CONFIG_ENTRY | 2,
			   "fprobe_pmu_kunit_add", NULL, 1);
	for (i = 0; i < 2; i++)
		add_ptr(i, 7);
	/* Calls, not records, are counted. */
	KUNIT_EXPECT_EQ(test, close_event(event), 2);

	KUNIT_ASSERT_EQ(test, t->cap->n, 4);
	for (i = 0; i < 2; i++) {
		entry = &t->cap->recs[2 * i];
		exit = &t->cap->recs[2 * i + 1];
		KUNIT_EXPECT_EQ(test, entry->rec.type, FPROBE_PMU_REC_ENTRY);
		KUNIT_EXPECT_EQ(test, exit->rec.type, FPROBE_PMU_REC_EXIT);
		KUNIT_EXPECT_EQ(test, entry->rec.duration, 0);
		KUNIT_EXPECT_EQ(test, entry->rec.retval, 0);
		KUNIT_EXPECT_EQ(test, entry->period, 1);
		KUNIT_EXPECT_EQ(test, entry->rec.args[0], i);
		KUNIT_EXPECT_EQ(test, entry->rec.args[1], 7);
		KUNIT_EXPECT_EQ(test, entry->rec.entry_time, exit->rec.entry_time);
		KUNIT_EXPECT_EQ(test, entry->rec.depth, exit->rec.depth);
		KUNIT_EXPECT_EQ(test, entry->rec.ret_ip, exit->rec.ret_ip);
		KUNIT_EXPECT_EQ(test, exit->rec.retval, i + 7);
	}
}

/* The raw data of the records of fprobe_pmu_test_fetch(), as they came */
struct fetch_capture {
	spinlock_t	lock;	/* protects the fields below */
	int		n;
	u32		len[2];
	u8		raw[2][1024] __aligned(8);
};

static void fetch_handler(struct perf_event *event, struct perf_sample_data *data,
			  struct pt_regs *regs)
{
	struct fetch_capture *cap = event->overflow_handler_context;
	struct perf_raw_frag *frag;
	unsigned long flags;
	u32 len = 0;

	spin_lock_irqsave(&cap->lock, flags);
	if (data->raw && cap->n < 2) {
		for (frag = &data->raw->frag; ; frag = frag->next) {
			if (len + frag->size > sizeof(cap->raw[0]))
				break;
			memcpy(cap->raw[cap->n] + len, frag->data, frag->size);
			len += frag->size;
			if (perf_raw_frag_last(frag))
				break;
		}
		cap->len[cap->n++] = len;
	}
	spin_unlock_irqrestore(&cap->lock, flags);
}

/* The u32 at @off of the fetch area @area, which packs its fields */
static u32 area_u32(const u8 *area, size_t off)
{
	return get_unaligned((const u32 *)(area + off));
}

/*
 * Fetch arguments: members, a pointer followed, strings of the kernel and of
 * the user, one cut at FPROBE_PMU_STRING_MAX, a register's low byte, and
 * reads that fault, in the entry record's fetch area, laid out as an fprobe
 * event's fields; the exit record has none. Malformed ones, and fetch
 * arguments without entry records, are -EINVAL; a symbol not found is
 * -ENOENT.
 */
static void fprobe_pmu_test_fetch(struct kunit *test)
{
	static const char * const bad[] = {
		"fprobe_pmu_kunit_fetch;", "fprobe_pmu_kunit_fetch; ", ";$arg1:u8",
		"fprobe_pmu_kunit_fetch;$arg0:u8", "fprobe_pmu_kunit_fetch;$arg1:u7",
		"fprobe_pmu_kunit_fetch;$arg1:string", "fprobe_pmu_kunit_fetch;+0($arg1:u8",
		"fprobe_pmu_kunit_fetch;+0($arg1)):u8", "fprobe_pmu_kunit_fetch;+x($arg1):u8",
		"fprobe_pmu_kunit_fetch;$retval:u8", "fprobe_pmu_kunit_fetch;%ax:u64",
		"fprobe_pmu_kunit_fetch;obj->a:u32", "fprobe_pmu_kunit_fetch;x=$arg1 x=$arg2",
		"fprobe_pmu_kunit_fetch;$arg1:symstr",
		"fprobe_pmu_kunit_fetch;$arg1:u8 $arg1:u8 $arg1:u8 $arg1:u8 $arg1:u8 $arg1:u8 $arg1:u8 $arg1:u8 $arg1:u8",
		"fprobe_pmu_kunit_fetch;$arg1:q8", "fprobe_pmu_kunit_fetch;$arg1:u+8",
		"fprobe_pmu_kunit_fetch;$arg1:u08", "fprobe_pmu_kunit_fetch;$arg1:ustring",
		"fprobe_pmu_kunit_fetch;+u($arg1):u8", "fprobe_pmu_kunit_fetch;+uu0($arg1):u8",
		"fprobe_pmu_kunit_fetch;u0($arg1):u8", "fprobe_pmu_kunit_fetch;+0($arg1):ustr",
	};
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.config		= FPROBE_PMU_CONFIG_ENTRY | 1,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_RAW,
	};
	/*
	 * next.next faults where it is read: an ERR_PTR() value, which no
	 * architecture maps (a read at NULL did not fault on s390 here)
	 */
	struct fetch_obj next = { .a = 0x55, .next = ERR_PTR(-EFAULT) }, obj = {
		.a = 0xfeedf00d, .name = "member", .next = &next, .tag = "tag",
	};
	struct fetch_capture *cap;
	struct fprobe_pmu_record *rec;
	struct perf_event *event;
	char *filter, *longstr;
	const u8 *area;
	size_t i;

	cap = kunit_kzalloc(test, sizeof(*cap), GFP_KERNEL);
	filter = kunit_kzalloc(test, 512, GFP_KERNEL);
	longstr = kunit_kzalloc(test, 300, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, cap && filter && longstr);
	spin_lock_init(&cap->lock);
	memset(longstr, 'x', 299);
	user_string(test, PAGE_SIZE, "from user");

	/*
	 * obj->a, obj->name, obj->next->a, obj->tag, str (cut), $arg3's low
	 * byte, obj->next->next->name (a fault: ""), ustr (user memory)
	 */
	scnprintf(filter, 512,
		  "fprobe_pmu_kunit_fetch ; +%zu($arg1):u32 +0(+%zu($arg1)):string +%zu(+%zu($arg1)):x32 +%zu($arg1):string +0($arg2):string $arg3:u8 +0(+%zu(+%zu(+%zu($arg1)))):string +0($arg4):ustring",
		  offsetof(struct fetch_obj, a), offsetof(struct fetch_obj, name),
		  offsetof(struct fetch_obj, a), offsetof(struct fetch_obj, next),
		  offsetof(struct fetch_obj, tag), offsetof(struct fetch_obj, name),
		  offsetof(struct fetch_obj, next), offsetof(struct fetch_obj, next));
	attr.type = fprobe_pmu_type();
	attr.config1 = user_string(test, 0, filter);
	event = perf_event_create_kernel_counter(&attr, -1, current, fetch_handler, cap);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, event);
	fetch_ptr(&obj, longstr, -2, (const char __user *)(t->ubuf + PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, close_event(event), 1);

	KUNIT_ASSERT_EQ(test, cap->n, 2);
	rec = (void *)cap->raw[0];
	KUNIT_ASSERT_EQ(test, rec->type, FPROBE_PMU_REC_ENTRY);
	KUNIT_EXPECT_EQ(test, rec->version, FPROBE_PMU_RECORD_VERSION);
	KUNIT_ASSERT_LE(test, rec->size, cap->len[0]);
	KUNIT_ASSERT_EQ(test, rec->nargs, 1);
	/* the argument stays last */
	KUNIT_EXPECT_EQ(test, *(u64 *)(cap->raw[0] + rec->size - 8), (unsigned long)&obj);
	area = cap->raw[0] + sizeof(*rec);
	KUNIT_ASSERT_EQ(test, (rec->size - sizeof(*rec) - 8) % 8, 0);
	/*
	 * The fields, packed: u32 a, data_loc name, x32 next->a, data_loc
	 * tag, data_loc str, u8 $arg3, data_loc of the fault, data_loc ustr:
	 * 29 bytes, then the strings in their order.
	 */
	KUNIT_EXPECT_EQ(test, area_u32(area, 0), 0xfeedf00d);
	KUNIT_EXPECT_EQ(test, area_u32(area, 8), 0x55);
	KUNIT_EXPECT_EQ(test, area[20], 0xfe);
	KUNIT_EXPECT_EQ(test, rec->fetch_flags,
			FPROBE_PMU_FETCH_FAULT(6) | FPROBE_PMU_FETCH_CUT(4));
	/* strings: a data_loc, the length with the NUL, and the offset */
	KUNIT_EXPECT_EQ(test, area_u32(area, 4), 7 << 16 | 29);
	KUNIT_EXPECT_STREQ(test, (const char *)area + 29, "member");
	KUNIT_EXPECT_EQ(test, area_u32(area, 12), 4 << 16 | 36);
	KUNIT_EXPECT_STREQ(test, (const char *)area + 36, "tag");
	KUNIT_EXPECT_EQ(test, area_u32(area, 16), FPROBE_PMU_STRING_MAX << 16 | 40);
	KUNIT_EXPECT_EQ(test, strlen((const char *)area + 40), FPROBE_PMU_STRING_MAX - 1);
	/* a string behind a bad pointer: none, where the next one starts */
	KUNIT_EXPECT_EQ(test, area_u32(area, 21), 40 + FPROBE_PMU_STRING_MAX);
	KUNIT_EXPECT_EQ(test, area_u32(area, 25), 10 << 16 | (40 + FPROBE_PMU_STRING_MAX));
	KUNIT_EXPECT_STREQ(test, (const char *)area + 40 + FPROBE_PMU_STRING_MAX, "from user");
	KUNIT_EXPECT_EQ(test, rec->size - sizeof(*rec) - 8,
			ALIGN(50 + FPROBE_PMU_STRING_MAX, 8));

	/* the exit record: no fetch area */
	rec = (void *)cap->raw[1];
	KUNIT_EXPECT_EQ(test, rec->type, FPROBE_PMU_REC_EXIT);
	KUNIT_EXPECT_EQ(test, rec->version, FPROBE_PMU_RECORD_VERSION);
	KUNIT_EXPECT_EQ(test, rec->size, struct_size(rec, args, 1));
	KUNIT_EXPECT_EQ(test, rec->fetch_flags, 0);

	/*
	 * The memory read is trace_probe's, as an fprobe event's: '+u' and
	 * ustring read user memory, and a user read of the kernel object
	 * fails; a kernel read of a user address reads the user's where the
	 * two halves do not overlap (elsewhere, s390, it is a kernel address).
	 */
	memset(cap, 0, sizeof(*cap));
	spin_lock_init(&cap->lock);
	attr.config1 = user_string(test, 0,
				   "fprobe_pmu_kunit_fetch;+0($arg4):string +u0($arg1):u32 +u0($arg4):u8 +0($arg2):string");
	event = perf_event_create_kernel_counter(&attr, -1, current, fetch_handler, cap);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, event);
	fetch_ptr(&obj, "kernel", 0, (const char __user *)(t->ubuf + PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, close_event(event), 1);
	KUNIT_ASSERT_EQ(test, cap->n, 2);
	rec = (void *)cap->raw[0];
	KUNIT_ASSERT_EQ(test, rec->type, FPROBE_PMU_REC_ENTRY);
	area = cap->raw[0] + sizeof(*rec);
	/* data_loc, u32, u8, data_loc: 13 bytes */
	if (IS_ENABLED(CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE)) {
		KUNIT_EXPECT_EQ(test, rec->fetch_flags, FPROBE_PMU_FETCH_FAULT(1));
		KUNIT_EXPECT_EQ(test, area_u32(area, 0), 10 << 16 | 13);
		KUNIT_EXPECT_STREQ(test, (const char *)area + 13, "from user");
	} else {
		KUNIT_EXPECT_TRUE(test, rec->fetch_flags & FPROBE_PMU_FETCH_FAULT(1));
	}
	KUNIT_EXPECT_EQ(test, area_u32(area, 4), 0);
	KUNIT_EXPECT_EQ(test, area[8], 'f');
	KUNIT_EXPECT_EQ(test, area_u32(area, 9) >> 16, 7);
	KUNIT_EXPECT_STREQ(test, (const char *)area + (area_u32(area, 9) & 0xffff), "kernel");

	/*
	 * What trace_probe has beyond the reduced syntax: $comm, a symbol,
	 * an immediate, an array, a bitfield, a name.
	 */
	memset(cap, 0, sizeof(*cap));
	spin_lock_init(&cap->lock);
	scnprintf(filter, 512,
		  "fprobe_pmu_kunit_fetch;$comm @fprobe_pmu_kunit_outer:x64 \\0x1234:u16 +%zu($arg1):u8[3] +%zu($arg1):b4@0/32 tag=+%zu($arg1):string",
		  offsetof(struct fetch_obj, tag), offsetof(struct fetch_obj, a),
		  offsetof(struct fetch_obj, tag));
	attr.config1 = user_string(test, 0, filter);
	event = perf_event_create_kernel_counter(&attr, -1, current, fetch_handler, cap);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, event);
	fetch_ptr(&obj, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, close_event(event), 1);
	KUNIT_ASSERT_EQ(test, cap->n, 2);
	rec = (void *)cap->raw[0];
	KUNIT_ASSERT_EQ(test, rec->type, FPROBE_PMU_REC_ENTRY);
	KUNIT_EXPECT_EQ(test, rec->fetch_flags, 0);
	area = cap->raw[0] + sizeof(*rec);
	/* data_loc, x64, u16, u8[3], bitfield u32, data_loc: 25 bytes */
	KUNIT_EXPECT_EQ(test, area_u32(area, 0) >> 16, strlen(current->comm) + 1);
	KUNIT_EXPECT_STREQ(test, (const char *)area + (area_u32(area, 0) & 0xffff),
			   current->comm);
	/* @SYM: the memory at a function, which kallsyms always has */
	KUNIT_EXPECT_EQ(test, get_unaligned((const u64 *)(area + 4)),
			get_unaligned((const u64 *)(unsigned long)fprobe_pmu_kunit_outer));
	KUNIT_EXPECT_EQ(test, get_unaligned((const u16 *)(area + 12)), 0x1234);
	KUNIT_EXPECT_EQ(test, memcmp(area + 14, "tag", 3), 0);
	/* bits 0-3 of 0xfeedf00d */
	KUNIT_EXPECT_EQ(test, area_u32(area, 17), 0xd);
	KUNIT_EXPECT_EQ(test, area_u32(area, 21) >> 16, 4);
	KUNIT_EXPECT_STREQ(test, (const char *)area + (area_u32(area, 21) & 0xffff), "tag");

	memset(&attr, 0, sizeof(attr));
	attr.config = FPROBE_PMU_CONFIG_ENTRY;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		attr.config1 = user_string(test, 0, bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, open_error(&attr), -EINVAL, "%s", bad[i]);
	}
	/* without entry records */
	attr.config = 0;
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_fetch;$arg1:u8");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	/*
	 * An array whose elements cannot be read: 0, not what the CPU's area
	 * held from the record before, which read them
	 */
	memset(cap, 0, sizeof(*cap));
	spin_lock_init(&cap->lock);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = fprobe_pmu_type();
	attr.config = FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_fetch;+0($arg2):u8[4]");
	event = perf_event_create_kernel_counter(&attr, -1, current, fetch_handler, cap);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, event);
	fetch_ptr(&obj, "abcd", 0, NULL);
	fetch_ptr(&obj, NULL, 0, NULL);
	close_event(event);
	KUNIT_ASSERT_EQ(test, cap->n, 2);
	KUNIT_EXPECT_EQ(test, memcmp(cap->raw[0] + sizeof(*rec), "abcd", 4), 0);
	KUNIT_EXPECT_EQ(test, area_u32(cap->raw[1] + sizeof(*rec), 0), 0);

	/* a symbol that is not there */
	attr.config = FPROBE_PMU_CONFIG_ENTRY;
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_fetch;@fprobe_pmu_no_such_symbol:u8");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -ENOENT);
	/* fields over the area */
	attr.config1 = user_string(test, 0,
				   "fprobe_pmu_kunit_fetch;+0($arg1):u64[64] +0($arg1):u64[64] +0($arg1):u64[64] +0($arg1):u64[64] +0($arg1):u64[64]");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -E2BIG);
	/* nor in the not-filter */
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_fetch");
	attr.config2 = user_string(test, PAGE_SIZE, "x;$arg1:u8");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
}

/* The entry records of fprobe_pmu_test_fetch_race(), checked as they come */
struct fetch_race {
	atomic_t	records;
	atomic_t	bad;
	atomic_t	irqs;
	u8		raw[512] __aligned(8);
};

static void fetch_race_irq_handler(struct perf_event *event, struct perf_sample_data *data,
				   struct pt_regs *regs)
{
	struct fetch_race *fr = event->overflow_handler_context;

	atomic_inc(&fr->irqs);
}

static void fetch_race_handler(struct perf_event *event, struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct fetch_race *fr = event->overflow_handler_context;
	const struct fprobe_pmu_record *rec = (void *)fr->raw;
	struct perf_raw_frag *frag;
	const char *area;
	u32 len = 0;

	/* Called in the test's task context only: one record at a time */
	if (!data->raw)
		return;
	for (frag = &data->raw->frag; ; frag = frag->next) {
		if (len + frag->size > sizeof(fr->raw))
			break;
		memcpy(fr->raw + len, frag->data, frag->size);
		len += frag->size;
		if (perf_raw_frag_last(frag))
			break;
	}
	if (rec->type != FPROBE_PMU_REC_ENTRY)
		return;
	atomic_inc(&fr->records);
	/* One string, "member": its data_loc, then itself */
	area = fr->raw + sizeof(*rec);
	if (rec->size > len || rec->size < sizeof(*rec) + 4 + 7 ||
	    get_unaligned((const u32 *)area) != (7 << 16 | 4) ||
	    memcmp(area + 4, "member", 7))
		atomic_inc(&fr->bad);
}

/* An interrupt every 50 us on the test's CPU, while the race runs */
static enum hrtimer_restart fetch_race_tick(struct hrtimer *timer)
{
	hrtimer_forward_now(timer, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/*
 * The fetch area of an entry record is the CPU's, per interrupt context
 * level, from the fetch until the record is written. An interrupt's first
 * traced call (irq_enter_rcu(), before preempt_count() says hardirq, or
 * irq_enter() where it calls an inlined irq_enter_rcu(), as on powerpc) is
 * at the level of the task it interrupts: it must not fetch into the
 * area of the task's record in between, or the task's record carries the
 * interrupt's values. A stress case: the task makes entry records with a
 * string fetched, while a probe on both fetches a register in every
 * interrupt (a timer's every 50 us), for 2 seconds; every task record
 * must hold its own string.
 */
static void fprobe_pmu_test_fetch_race(struct kunit *test)
{
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.config		= FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_RAW,
	};
	struct fetch_obj obj = { .name = "member" };
	struct perf_event *event, *irq_event;
	struct hrtimer timer;
	struct fetch_race *fr;
	char *filter;
	unsigned long end;

	fr = kunit_kzalloc(test, sizeof(*fr), GFP_KERNEL);
	filter = kunit_kzalloc(test, 128, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, fr && filter);
	pin_test(test);
	scnprintf(filter, 128, "fprobe_pmu_kunit_fetch;+0(+%zu($arg1)):string",
		  offsetof(struct fetch_obj, name));
	attr.type = fprobe_pmu_type();
	attr.config1 = user_string(test, 0, filter);
	event = perf_event_create_kernel_counter(&attr, -1, current, fetch_race_handler, fr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, event);
	/* The interrupts' first calls, fetching at the task's level */
	attr.config1 = user_string(test, PAGE_SIZE,
				   "irq_enter_rcu irq_enter;$arg1:x64");
	irq_event = perf_event_create_kernel_counter(&attr, -1, current,
						     fetch_race_irq_handler, fr);
	if (IS_ERR(irq_event)) {
		close_event(event);
		kunit_skip(test, "no probe on irq_enter_rcu or irq_enter: %ld",
			   PTR_ERR(irq_event));
	}

	/*
	 * The interrupts of a timer of its own, not only the tick's: perf
	 * throttles the task's event for the rest of a tick once it made
	 * perf_event_max_sample_rate / HZ samples there, so that the tick
	 * itself comes while the task fetches nothing.
	 */
	hrtimer_init_on_stack(&timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	timer.function = fetch_race_tick;
	hrtimer_start(&timer, ns_to_ktime(50 * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED);
	end = jiffies + msecs_to_jiffies(2000);
	while (time_before(jiffies, end))
		fetch_ptr(&obj, NULL, 0, NULL);
	hrtimer_cancel(&timer);
	destroy_hrtimer_on_stack(&timer);
	close_event(irq_event);
	close_event(event);

	kunit_info(test, "%d entry records, %d of interrupts, %d wrong\n",
		   atomic_read(&fr->records), atomic_read(&fr->irqs),
		   atomic_read(&fr->bad));
	KUNIT_EXPECT_GT(test, atomic_read(&fr->records), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&fr->irqs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fr->bad), 0);
}

/*
 * Open an entry event with @filter under the credentials of the test with
 * CAP_PERFMON and, if @bpf, CAP_BPF, but no CAP_SYS_ADMIN: 0 or its error
 */
static long open_as_perfmon(struct kunit *test, const char *filter, bool bpf)
{
	struct perf_event_attr attr = {
		.config		= FPROBE_PMU_CONFIG_ENTRY | 1,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_RAW,
	};
	const struct cred *old;
	struct cred *cred;
	long ret;

	/* First: an assertion that fails in it leaks no credentials */
	attr.config1 = user_string(test, 0, filter);
	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_lower(cred->cap_effective, CAP_SYS_ADMIN);
	cap_raise(cred->cap_effective, CAP_PERFMON);
	if (bpf)
		cap_raise(cred->cap_effective, CAP_BPF);
	else
		cap_lower(cred->cap_effective, CAP_BPF);
	old = override_creds(cred);
	ret = open_error(&attr);
	revert_creds(old);
	put_cred(cred);
	return ret;
}

/*
 * Fetch arguments that read memory, kernel or user, need CAP_BPF beside
 * CAP_PERFMON, as bpf_probe_read_kernel() does: CAP_PERFMON alone opens
 * an event, with the arguments' registers, and is -EACCES for the rest.
 */
static void fprobe_pmu_test_fetch_caps(struct kunit *test)
{
	static const char * const mem[] = {
		"fprobe_pmu_kunit_fetch;+0($arg1):u32",
		"fprobe_pmu_kunit_fetch;$arg3:s64 +0($arg2):string",
		"fprobe_pmu_kunit_fetch;+u0($arg4):u8",
		"fprobe_pmu_kunit_fetch;+0($arg4):ustring",
		"fprobe_pmu_kunit_fetch;@fprobe_pmu_kunit_outer:x64",
		"fprobe_pmu_kunit_fetch;$stack1:x64",
		"fprobe_pmu_kunit_fetch;$arg7:x64",
	};
	size_t i;

	KUNIT_EXPECT_EQ(test, open_as_perfmon(test, "fprobe_pmu_kunit_fetch", false), 0);
	KUNIT_EXPECT_EQ(test, open_as_perfmon(test,
					      "fprobe_pmu_kunit_fetch;$arg3:s64 $arg1:x64 $stack:x64 $comm \\7:u8",
					      false), 0);
	for (i = 0; i < ARRAY_SIZE(mem); i++) {
		KUNIT_EXPECT_EQ_MSG(test, open_as_perfmon(test, mem[i], false), -EACCES,
				    "%s", mem[i]);
		KUNIT_EXPECT_EQ_MSG(test, open_as_perfmon(test, mem[i], true), 0, "%s", mem[i]);
	}
}

static void fprobe_pmu_test_noexit(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event *event;
	int i;

	event = open_event(test, FPROBE_PMU_CONFIG_ENTRY |
			   FPROBE_PMU_CONFIG_NOEXIT | 1,
			   "fprobe_pmu_kunit_delay", NULL, 1);
	for (i = 0; i < 3; i++)
		delay_ptr(i);
	KUNIT_EXPECT_EQ(test, close_event(event), 3);

	KUNIT_ASSERT_EQ(test, t->cap->n, 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, t->cap->recs[i].rec.type,
				FPROBE_PMU_REC_ENTRY);
		KUNIT_EXPECT_EQ(test, t->cap->recs[i].rec.args[0], i);
		/* Called from the test: the outermost traced call */
		KUNIT_EXPECT_EQ(test, t->cap->recs[i].rec.depth, 0);
	}
}

/* sample_period 3: every third call is sampled, every call counted */
static void fprobe_pmu_test_period(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event *event;
	int i;

	event = open_event(test, 1, "fprobe_pmu_kunit_add", NULL, 3);
	for (i = 1; i <= 7; i++)
		add_ptr(i, 0);
	KUNIT_EXPECT_EQ(test, close_event(event), 7);

	KUNIT_ASSERT_EQ(test, t->cap->n, 2);
	KUNIT_EXPECT_EQ(test, t->cap->recs[0].rec.args[0], 3);
	KUNIT_EXPECT_EQ(test, t->cap->recs[1].rec.args[0], 6);
}

/*
 * Capture the record, then call the probed function once more from the
 * overflow handler: a call made while the PMU delivers a record.
 */
static bool nesting;

static void nesting_handler(struct perf_event *event,
			    struct perf_sample_data *data, struct pt_regs *regs)
{
	capture_handler(event, data, regs);
	if (READ_ONCE(nesting))
		return;
	WRITE_ONCE(nesting, true);
	add_ptr(1, 1);
	WRITE_ONCE(nesting, false);
}

/*
 * An fprobe whose handler calls the PMU's target: fprobe's recursion lock
 * lets one call through from a handler (as for an interrupt not yet marked
 * as such), and misses the next. Two such fprobes nested in each other's
 * handlers, the inner one calling the target, make a call it misses.
 */
static int nester_one_entry(struct fprobe *fp, unsigned long entry_ip,
			    unsigned long ret_ip, struct ftrace_regs *fregs,
			    void *data)
{
	add_ptr(1, 1);
	return 0;
}

static int nester_outer_entry(struct fprobe *fp, unsigned long entry_ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	delay_ptr(0);
	return 0;
}

static int nester_inner_entry(struct fprobe *fp, unsigned long entry_ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	add_ptr(1, 1);
	return 0;
}

/*
 * Events opened with the same config and filter share one fprobe, the others
 * have their own; each event counts the calls it lost itself. A call made
 * while the PMU delivers a record (from a's overflow handler) is the PMU's
 * own: no event records it or counts it as lost, whether fprobe lets it
 * through to the handlers (a record made at the first level) or misses it
 * (a record made from another fprobe's handler, let through). A call
 * fprobe misses elsewhere (made two fprobe handlers deep) is lost for each
 * event it would have been delivered to.
 *
 * Where fprobe has two ftrace_ops (no arch_fprobe_return_address_ptr(), so
 * fprobe_graph_ops serves the events and fprobe_ftrace_ops the nesting
 * fprobes) and the architecture calls more than one ftrace_ops through
 * ftrace_ops_list_func() (powerpc), that function's own recursion lock
 * drops the call made two handlers deep before fprobe sees it: no event is
 * told of that call (fprobe-pmu.rst says so).
 */
static void fprobe_pmu_test_shared_lost(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct fprobe one = { .entry_handler = nester_one_entry };
	struct fprobe outer = { .entry_handler = nester_outer_entry };
	struct fprobe inner = { .entry_handler = nester_inner_entry };
	struct perf_event *a, *b, *c;
	int i, ret, lost;

#ifdef arch_fprobe_return_address_ptr
	lost = 3;
#else
	lost = 0;
#endif
	a = open_event_handler(test, current, 0, "fprobe_pmu_kunit_add", NULL,
			       1, nesting_handler);
	b = open_event(test, 0, "fprobe_pmu_kunit_add", NULL, 1);
	c = open_event(test, 1, "fprobe_pmu_kunit_add", NULL, 1);
	KUNIT_EXPECT_PTR_EQ(test, a->pmu_private, b->pmu_private);
	KUNIT_EXPECT_PTR_NE(test, a->pmu_private, c->pmu_private);

	for (i = 0; i < 5; i++)
		add_ptr(i, 2);
	KUNIT_ASSERT_EQ(test, register_fprobe(&one, "fprobe_pmu_kunit_ret",
					      NULL), 0);
	for (i = 0; i < 2; i++)
		ret_ptr(i);
	unregister_fprobe(&one);
	KUNIT_ASSERT_EQ(test, register_fprobe(&outer, "fprobe_pmu_kunit_inner",
					      NULL), 0);
	ret = register_fprobe(&inner, "fprobe_pmu_kunit_delay", NULL);
	if (ret)
		unregister_fprobe(&outer);
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (i = 0; i < 3; i++)
		inner_ptr(i);
	unregister_fprobe(&inner);
	unregister_fprobe(&outer);

	/*
	 * Each call of the loop, and the two made from one's handler, are
	 * recorded by the three events, and none of those made from a's
	 * handler; the three made two handlers deep are lost for each, where
	 * fprobe sees them.
	 */
	perf_event_disable(a);
	perf_event_disable(b);
	perf_event_disable(c);
	KUNIT_EXPECT_EQ(test, atomic64_read(&a->lost_samples), lost);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->lost_samples), lost);
	KUNIT_EXPECT_EQ(test, atomic64_read(&c->lost_samples), lost);
	KUNIT_EXPECT_EQ(test, close_event(a), 7);
	KUNIT_EXPECT_EQ(test, close_event(b), 7);
	KUNIT_EXPECT_EQ(test, close_event(c), 7);
	KUNIT_EXPECT_EQ(test, t->cap->n, 21);
	KUNIT_EXPECT_EQ(test, t->cap->bad, 0);
	for (i = 0; i < t->cap->n; i++)
		KUNIT_EXPECT_EQ(test, t->cap->recs[i].rec.retval,
				i < 15 ? (u64)(i / 3 + 2) : 2);
}

static atomic_t throttle_samples;

static void count_handler(struct perf_event *event,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	atomic_inc(&throttle_samples);
}

/*
 * The samples are throttled as a hardware PMU's interrupts: within one
 * tick (interrupts off, so that none comes), the calls up to the budget of
 * perf_event_max_sample_rate are sampled, the one that reaches it
 * included, and the next ones are lost, counted in lost_samples, while the
 * count goes on. Scheduled out and in again (a sleep), the event samples
 * again.
 */
static void fprobe_pmu_test_throttle(struct kunit *test)
{
	int budget = DIV_ROUND_UP(READ_ONCE(sysctl_perf_event_sample_rate), HZ);
	struct perf_event *event;
	unsigned long flags;
	int i;

	atomic_set(&throttle_samples, 0);
	pin_test(test);
	event = open_event_handler(test, current, 0, "fprobe_pmu_kunit_add",
				   NULL, 1, count_handler);
	local_irq_save(flags);
	for (i = 0; i < budget + 100; i++)
		add_ptr(i, 1);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, atomic_read(&throttle_samples), budget);
	KUNIT_EXPECT_EQ(test, atomic64_read(&event->lost_samples), 100);

	msleep(20);
	add_ptr(1, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&throttle_samples), budget + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&event->lost_samples), 100);
	KUNIT_EXPECT_EQ(test, close_event(event), budget + 101);
}

/*
 * While its events are throttled, a probe hooks no return: with entry and
 * exit records, the calls up to the budget make their two records until
 * the budget is reached, and each later call is lost once (not once per
 * record), the exit of a call that entered before the throttle included.
 * Each call is counted once.
 */
static void fprobe_pmu_test_throttle_drop(struct kunit *test)
{
	int budget = DIV_ROUND_UP(READ_ONCE(sysctl_perf_event_sample_rate), HZ);
	int calls = budget + 100;
	struct perf_event *event;
	unsigned long flags;
	int i;

	atomic_set(&throttle_samples, 0);
	pin_test(test);
	event = open_event_handler(test, current, FPROBE_PMU_CONFIG_ENTRY,
				   "fprobe_pmu_kunit_add", NULL, 1, count_handler);
	local_irq_save(flags);
	for (i = 0; i < calls; i++)
		add_ptr(i, 1);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, atomic_read(&throttle_samples), budget);
	/* Calls 1 to budget / 2 made both records; each later one is lost */
	KUNIT_EXPECT_EQ(test, atomic64_read(&event->lost_samples),
			calls - budget / 2);
	KUNIT_EXPECT_EQ(test, close_event(event), calls);
}

/* A call of the target from a hard interrupt */
static void add_irq_work_fn(struct irq_work *work)
{
	add_ptr(1, 1);
}

/*
 * exclude_opener leaves out the calls the opener makes in task context,
 * not those of an interrupt that comes while it runs (an irq_work raised
 * and waited for here, on this CPU: its hard interrupt runs while this
 * task is current).
 */
static void fprobe_pmu_test_exclude_opener(struct kunit *test)
{
	struct irq_work work = IRQ_WORK_INIT_HARD(add_irq_work_fn);
	struct perf_event *event;

	if (!arch_irq_work_has_interrupt())
		kunit_skip(test, "no irq_work interrupt on this machine");
	event = open_event(test, FPROBE_PMU_CONFIG_EXCLUDE_OPENER,
			   "fprobe_pmu_kunit_add", NULL, 0);
	add_ptr(1, 2);
	add_ptr(2, 2);
	irq_work_queue(&work);
	irq_work_sync(&work);
	KUNIT_EXPECT_EQ(test, close_event(event), 1);
}

/*
 * Probes freed and made again while a call is in flight: a kthread keeps
 * calling the sleeping target, for longer than closing an event and opening
 * the next one takes, and events on it with the same config are opened and
 * closed in turn, so that a new probe can reuse the memory of the one just
 * freed. No record may come from a call that started before its event was
 * opened (with the entry data of the old probe), and no duration may be
 * negative.
 */
#define RACE_SLEEP_MS	200

static int held_worker(void *arg)
{
	struct held_call *h = arg;

	held_ptr(h);
	held_ptr(h);
	complete(&h->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * Without a sampling event, calls are counted but not timed. A call that
 * starts then and returns once a sampling event shares the probe is
 * counted by the counting event only: the sampling event never saw it
 * start, and it has no entry time to record.
 */
static void fprobe_pmu_test_count_untimed(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event *counting, *sampling;
	struct task_struct *worker;
	struct held_call h;
	u64 opened;
	int cpu;

	init_completion(&h.entered);
	init_completion(&h.release);
	init_completion(&h.done);
	/* The worker's entry times are compared with the test's clock. */
	cpu = pin_test(test);
	worker = kthread_create(held_worker, &h, "fprobe_pmu_held");
	KUNIT_ASSERT_FALSE(test, IS_ERR(worker));
	kthread_bind(worker, cpu);
	get_task_struct(worker);
	counting = open_event_handler(test, worker, 0, "fprobe_pmu_kunit_held",
				      NULL, 0, NULL);
	wake_up_process(worker);
	wait_for_completion(&h.entered);

	/* The first call is in progress, untimed: now a sampling event. */
	opened = local_clock();
	sampling = open_event_handler(test, worker, 0, "fprobe_pmu_kunit_held",
				      NULL, 1, capture_handler);
	KUNIT_EXPECT_PTR_EQ(test, sampling->pmu_private, counting->pmu_private);
	complete(&h.release);
	wait_for_completion(&h.entered);
	complete(&h.release);
	wait_for_completion(&h.done);
	kthread_stop(worker);
	put_task_struct(worker);

	KUNIT_EXPECT_EQ(test, close_event(counting), 2);
	KUNIT_EXPECT_EQ(test, close_event(sampling), 1);
	KUNIT_EXPECT_EQ(test, t->cap->bad, 0);
	KUNIT_ASSERT_EQ(test, t->cap->n, 1);
	KUNIT_EXPECT_EQ(test, t->cap->recs[0].rec.func,
			entry_of(fprobe_pmu_kunit_held));
	KUNIT_EXPECT_EQ(test, t->cap->recs[0].rec.retval, 1);
	KUNIT_EXPECT_GE(test, t->cap->recs[0].rec.entry_time, opened);
}

static void read_local_clock(void *now)
{
	*(u64 *)now = local_clock();
}

/* local_clock() as @cpu reads it now */
static u64 clock_on(int cpu)
{
	u64 now;

	smp_call_function_single(cpu, read_local_clock, &now, 1);
	return now;
}

static int race_worker(void *arg)
{
	while (!kthread_should_stop())
		sleep_ptr(RACE_SLEEP_MS);
	return 0;
}

static void fprobe_pmu_test_reuse_race(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	unsigned long func = entry_of(fprobe_pmu_kunit_sleep);
	struct task_struct *worker;
	struct fprobe_pmu_record *rec;
	struct perf_event *event, *keeper;
	int i, j, cpu, recs = 0, reused = 0;
	unsigned long stale = 0;
	void *last = NULL;
	u64 opened;

	/*
	 * The worker runs on another CPU than the test, where there is one,
	 * so that its calls race with the opens and closes; the time an
	 * event is opened is read on the worker's CPU, whose clock times its
	 * records.
	 */
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu >= nr_cpu_ids)
		cpu = raw_smp_processor_id();
	/*
	 * Another probe with an exit handler keeps fprobe's fgraph_ops
	 * registered: the returns of the calls in flight reach fprobe.
	 */
	keeper = open_event(test, 1, "fprobe_pmu_kunit_add", NULL, 0);
	worker = kthread_create(race_worker, NULL, "fprobe_pmu_race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(worker));
	kthread_bind(worker, cpu);
	wake_up_process(worker);
	for (i = 0; i < 8; i++) {
		t->cap->n = 0;
		opened = clock_on(cpu);
		event = open_event_handler(test, worker, 0,
					   "fprobe_pmu_kunit_sleep", NULL, 1,
					   capture_handler);
		reused += event->pmu_private == last;
		last = event->pmu_private;
		msleep(2 * RACE_SLEEP_MS);
		/* The exits dropped for entry data of the probe before */
		stale += ((struct fprobe *)event->pmu_private)->nmissed;
		close_event(event);
		for (j = 0; j < t->cap->n; j++) {
			rec = &t->cap->recs[j].rec;
			KUNIT_EXPECT_EQ(test, rec->func, func);
			KUNIT_EXPECT_GE(test, rec->entry_time, opened);
			KUNIT_EXPECT_GE(test, (s64)rec->duration, 0);
		}
		recs += t->cap->n;
	}
	kthread_stop(worker);
	close_event(keeper);
	kunit_info(test, "%d records, %d probes at the address of the last one, %lu stale exits dropped",
		   recs, reused, stale);
	KUNIT_EXPECT_EQ(test, t->cap->bad, 0);
	KUNIT_EXPECT_GT(test, recs, 0);
	/* Without a probe made where the last one was, nothing was raced. */
	if (!reused)
		kunit_skip(test, "no probe was made at the address of the one before");
}

static void fprobe_pmu_test_errors(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event_attr attr = {};
	char *big;

	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_add");
	attr.config = 1ULL << 7;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	/* The kernel-side filters need a sampling event with exit records */
	attr.config = FPROBE_PMU_CONFIG_ERRORS;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config = 0;
	attr.config3 = 1000;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.sample_period = 1;
	attr.config = FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config3 = 0;
	attr.config |= FPROBE_PMU_CONFIG_ERRORS;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config = FPROBE_PMU_CONFIG_ERRORS;
	attr.config3 = 1000;
	KUNIT_EXPECT_EQ(test, open_error(&attr), 0);
	attr.config3 = 0;
	attr.sample_period = 0;
	attr.config = 1ULL << 63;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config = 7;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config = FPROBE_PMU_CONFIG_NOEXIT;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config = 6;
	KUNIT_EXPECT_EQ(test, open_error(&attr), 0);

	attr.config = 0;
	attr.config1 = 0;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EFAULT);
	attr.config1 = user_string(test, 0, "");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config1 = user_string(test, 0, " , ");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config1 = user_string(test, 0, "no_such_function_xyz");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -ENOENT);
	/* Every match excluded */
	attr.config2 = user_string(test, PAGE_SIZE, "fprobe_pmu_kunit_*");
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_add");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -ENOENT);
	attr.config2 = user_string(test, PAGE_SIZE, "");
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.config2 = 0;

	/* FPROBE_PMU_FILTER_MAX bytes with no NUL; then one less, valid */
	big = kunit_kmalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, 'x', 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)t->ubuf, big,
					   2 * PAGE_SIZE), 0);
	attr.config1 = t->ubuf;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -E2BIG);
	/* The string runs into the end of the mapping. */
	attr.config1 = t->ubuf + 2 * PAGE_SIZE - 8;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EFAULT);
	big[FPROBE_PMU_FILTER_MAX - 1] = '\0';
	memcpy(big, "fprobe_pmu_kunit_add ", 21);
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)t->ubuf, big,
					   FPROBE_PMU_FILTER_MAX), 0);
	attr.config1 = t->ubuf;
	/* The run of 'x' matches nothing, the first glob does. */
	KUNIT_EXPECT_EQ(test, open_error(&attr), 0);

	/* Not a tracing rate */
	attr.config1 = user_string(test, 0, "fprobe_pmu_kunit_add");
	attr.freq = 1;
	attr.sample_freq = 100;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
	attr.freq = 0;
	attr.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, open_error(&attr), -EINVAL);
}

/* Open a sampling event with kernel-side filters, its records to @cap */
static struct perf_event *open_filtered(struct kunit *test, u64 config,
					u64 min_duration, const char *filter,
					struct capture *cap)
{
	struct fprobe_pmu_test *t = test->priv;
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.config		= config,
		.config3	= min_duration,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_RAW | PERF_SAMPLE_PERIOD |
				  PERF_SAMPLE_IP | t->sample_type,
	};
	struct perf_event *event;

	attr.type = fprobe_pmu_type();
	attr.config1 = user_string(test, 0, filter);
	event = perf_event_create_kernel_counter(&attr, -1, current,
						 capture_handler, cap);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, event);
	return event;
}

/*
 * FPROBE_PMU_CONFIG_ERRORS: exit records of the calls returning an error
 * code, as an int or as a long, only; the event counts those calls. An
 * event on the same functions without the filter, sharing the probe, gets
 * every call.
 */
static void fprobe_pmu_test_filter_errors(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	const char *funcs = "fprobe_pmu_kunit_ret,fprobe_pmu_kunit_lret";
	struct perf_event *event, *all;
	struct capture *cap_all;
	struct captured *c;

	cap_all = kunit_kzalloc(test, sizeof(*cap_all), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cap_all);
	spin_lock_init(&cap_all->lock);

	event = open_filtered(test, 1 | FPROBE_PMU_CONFIG_ERRORS, 0, funcs,
			      t->cap);
	all = open_filtered(test, 1, 0, funcs, cap_all);
	KUNIT_EXPECT_PTR_EQ(test, event->pmu_private, all->pmu_private);

	KUNIT_EXPECT_EQ(test, ret_ptr(0), 0);
	KUNIT_EXPECT_EQ(test, ret_ptr(-EINVAL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ret_ptr(7), 7);
	/* Below -MAX_ERRNO: not an error code */
	KUNIT_EXPECT_EQ(test, ret_ptr(-FPROBE_PMU_MAX_ERRNO - 1),
			-FPROBE_PMU_MAX_ERRNO - 1);
	KUNIT_EXPECT_EQ(test, lret_ptr(-ENOENT), -ENOENT);
	KUNIT_EXPECT_EQ(test, lret_ptr(-FPROBE_PMU_MAX_ERRNO),
			-FPROBE_PMU_MAX_ERRNO);
	KUNIT_EXPECT_EQ(test, lret_ptr(1L << 40), 1L << 40);
	/* A long whose low 32 bits are -EINVAL passes, as documented */
	KUNIT_EXPECT_EQ(test, lret_ptr(0x1ffffffeaL), 0x1ffffffeaL);
	KUNIT_EXPECT_EQ(test, close_event(event), 4);
	KUNIT_EXPECT_EQ(test, close_event(all), 8);

	KUNIT_EXPECT_EQ(test, t->cap->bad, 0);
	KUNIT_ASSERT_EQ(test, t->cap->n, 4);
	c = t->cap->recs;
	KUNIT_EXPECT_EQ(test, c[0].rec.func, entry_of(fprobe_pmu_kunit_ret));
	KUNIT_EXPECT_EQ(test, (s32)c[0].rec.retval, -EINVAL);
	KUNIT_EXPECT_EQ(test, c[0].rec.args[0], (u64)-EINVAL);
	KUNIT_EXPECT_EQ(test, c[1].rec.func, entry_of(fprobe_pmu_kunit_lret));
	KUNIT_EXPECT_EQ(test, (s64)c[1].rec.retval, -ENOENT);
	KUNIT_EXPECT_EQ(test, (s64)c[2].rec.retval, -FPROBE_PMU_MAX_ERRNO);
	KUNIT_EXPECT_EQ(test, c[3].rec.retval, 0x1ffffffeaULL);
	KUNIT_EXPECT_EQ(test, cap_all->n, 8);
}

/*
 * config3: only calls that lasted at least that long make a record. Every
 * record is at least that long; a call that slept that long by the clock
 * of the records is recorded; a quick call is recorded only if the test's
 * own readings around it span that long too (a host stall under emulation).
 */
static void fprobe_pmu_test_filter_duration(struct kunit *test)
{
	struct fprobe_pmu_test *t = test->priv;
	const u64 min = 10 * NSEC_PER_MSEC;
	int i, n, slept = 0, adds = 0, long_adds = 0;
	struct perf_event *event;
	u64 before, span;

	pin_test(test);
	event = open_filtered(test, 1, min,
			      "fprobe_pmu_kunit_add,fprobe_pmu_kunit_sleep_for",
			      t->cap);
	for (i = 0; i < 10; i++) {
		before = local_clock();
		add_ptr(i, i);
		long_adds += local_clock() - before >= min;
	}
	span = sleep_for_ptr(min);
	n = close_event(event);

	KUNIT_EXPECT_GE(test, span, min);
	KUNIT_EXPECT_EQ(test, t->cap->bad, 0);
	KUNIT_EXPECT_EQ(test, n, t->cap->n);
	for (i = 0; i < t->cap->n; i++) {
		struct captured *c = &t->cap->recs[i];

		KUNIT_EXPECT_GE(test, c->rec.duration, min);
		if (c->rec.func == entry_of(fprobe_pmu_kunit_sleep_for)) {
			KUNIT_EXPECT_EQ(test, c->rec.retval, span);
			KUNIT_EXPECT_GE(test, c->rec.duration, span);
			slept++;
		} else {
			adds++;
		}
	}
	KUNIT_EXPECT_EQ(test, slept, 1);
	KUNIT_EXPECT_LE(test, adds, long_adds);
}

static int fprobe_pmu_suite_init(struct kunit_suite *suite)
{
	add_ptr = fprobe_pmu_kunit_add;
	fetch_ptr = fprobe_pmu_kunit_fetch;
	delay_ptr = fprobe_pmu_kunit_delay;
	sleep_ptr = fprobe_pmu_kunit_sleep;
	timed_ptr = fprobe_pmu_kunit_timed;
	sleep_for_ptr = fprobe_pmu_kunit_sleep_for;
	held_ptr = fprobe_pmu_kunit_held;
	inner_ptr = fprobe_pmu_kunit_inner;
	outer_ptr = fprobe_pmu_kunit_outer;
	ret_ptr = fprobe_pmu_kunit_ret;
	lret_ptr = fprobe_pmu_kunit_lret;
	return 0;
}

static struct kunit_case fprobe_pmu_test_cases[] = {
	KUNIT_CASE(fprobe_pmu_test_count),
	KUNIT_CASE(fprobe_pmu_test_count_untimed),
	KUNIT_CASE(fprobe_pmu_test_exit_records),
	KUNIT_CASE(fprobe_pmu_test_duration),
	KUNIT_CASE(fprobe_pmu_test_depth),
	KUNIT_CASE(fprobe_pmu_test_sample_regs),
	KUNIT_CASE(fprobe_pmu_test_notfilter),
	KUNIT_CASE(fprobe_pmu_test_entry_records),
	KUNIT_CASE(fprobe_pmu_test_fetch),
	KUNIT_CASE(fprobe_pmu_test_fetch_caps),
	KUNIT_CASE_SLOW(fprobe_pmu_test_fetch_race),
	KUNIT_CASE(fprobe_pmu_test_scope),
	KUNIT_CASE_SLOW(fprobe_pmu_test_scopes_shared),
	KUNIT_CASE(fprobe_pmu_test_noexit),
	KUNIT_CASE(fprobe_pmu_test_period),
	KUNIT_CASE(fprobe_pmu_test_shared_lost),
	KUNIT_CASE(fprobe_pmu_test_throttle),
	KUNIT_CASE(fprobe_pmu_test_throttle_drop),
	KUNIT_CASE(fprobe_pmu_test_exclude_opener),
	KUNIT_CASE_SLOW(fprobe_pmu_test_reuse_race),
	KUNIT_CASE(fprobe_pmu_test_filter_errors),
	KUNIT_CASE(fprobe_pmu_test_filter_duration),
	KUNIT_CASE(fprobe_pmu_test_errors),
	{}
};

static struct kunit_suite fprobe_pmu_test_suite = {
	.name		= "fprobe_pmu",
	.suite_init	= fprobe_pmu_suite_init,
	.init		= fprobe_pmu_test_init,
	.test_cases	= fprobe_pmu_test_cases,
};

kunit_test_suite(fprobe_pmu_test_suite);

MODULE_DESCRIPTION("KUnit tests for the fprobe perf PMU");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");
