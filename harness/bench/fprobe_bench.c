// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe_bench: the per-call cost of function probes, for make bench.
 *
 * A noinline target is called in a tight loop, for a given time or a given
 * number of calls, with one kind of probe on it: none, an ftrace_ops, an
 * fprobe (entry, entry+exit, or one of each: "mixed"), a kprobe, a kretprobe,
 * or whatever userspace
 * attached ("external": an fprobe event in tracefs, an fprobe PMU event).
 * The scale cases register one entry+exit fprobe on the target and on a
 * list of other functions (or on every traceable function) and time the
 * registration too.
 *
 * Built out of tree against the patched and the base kernel alike (the
 * fprobe handlers take ftrace_regs on one and pt_regs on the other).
 *
 * /sys/kernel/debug/fprobe_bench/
 *   syms	write: function names, one per line, for "scale" (appends;
 *		opening with O_TRUNC empties the list); read: the count
 *   run	write "CASE MS [CALLS [CTX]]": run CASE for MS milliseconds, or
 *		with CALLS (rounded up to a whole chunk of 1000 calls) until
 *		it made CALLS calls, MS still bounding the run, the calls made
 *		in the context CTX; read the result "case=.. calls=.. ns=..
 *		hits=.. missed=.. reg_ns=.. unreg_ns=.. ctx=.."
 *
 * ns is the guest's ktime: wall time, or with QEMU's -icount shift=0 (make
 * bench's default) the instructions the guest executed in the loop, on
 * either vCPU. The loop runs in chunks of 1000 calls with interrupts
 * disabled, and ns sums the time of the chunks alone: the timer ticks and
 * other interrupts that would land in the loop are left out, as they run
 * probed functions too when many are probed (every one, in scale-all):
 * their cost is that of the other probes, not of the target's. A fixed
 * CALLS makes every run of a case execute the same code. Between attaching the probe and the loop, the run waits for RCU
 * callbacks and BENCH_SETTLE_MS for the work registration deferred (hash
 * table resizing, frees): probed, that work would otherwise be counted in
 * the loop, by a different amount each time. The loop stays on one CPU.
 *
 * CASE: none ftrace fprobe-entry fprobe-exit fprobe-mixed kprobe kretprobe
 *	 external
 *	 scale (the target and the syms list) scale-all (every function)
 *
 * CTX: where each chunk of calls runs, for the code that tests the context
 * (recursion locks, trace_ctx): task (the default), bh (a task with bottom
 * halves disabled), softirq (a work item of the BH workqueue, run while a
 * softirq is served) or hardirq (a hard irq_work, run from the interrupt
 * that irq_work_queue() raises on the CPU). Only the chunks are timed, as
 * in task context: the softirq and the interrupt that run them are not.
 * NMI context cannot be entered on demand, and is not measured.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#ifdef FPROBE_HANDLER_FREGS
#define FPROBE_REGS	struct ftrace_regs
#else
#define FPROBE_REGS	struct pt_regs
#endif

#define BENCH_CHUNK	1000
#define BENCH_MAX_MS	10000
#define BENCH_MAX_CALLS	1000000000ULL
#define BENCH_MAX_SYMS	200000
#define BENCH_SETTLE_MS	200

static DEFINE_PER_CPU(unsigned long, bench_hits);
static DEFINE_MUTEX(bench_lock);
static char bench_result[256];
static char **bench_syms;
static unsigned int bench_nsyms, bench_syms_cap;
static char bench_partial[KSYM_NAME_LEN];
static size_t bench_partial_len;
static struct dentry *bench_dir;

/* The probed function: traceable, out of line, and not folded away */
static noinline int fprobe_bench_target(int x)
{
	asm volatile("" : "+r" (x));
	return x + 1;
}

static notrace void bench_hit(void)
{
	this_cpu_inc(bench_hits);
}

static notrace unsigned long bench_hits_sum(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(bench_hits, cpu);
	return sum;
}

static notrace void bench_ftrace_func(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	bench_hit();
}

static notrace int bench_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
				      unsigned long ret_ip, FPROBE_REGS *regs,
				      void *data)
{
	bench_hit();
	return 0;
}

static notrace void bench_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
				      unsigned long ret_ip, FPROBE_REGS *regs,
				      void *data)
{
	bench_hit();
}

static notrace int bench_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	bench_hit();
	return 0;
}

static notrace int bench_kretprobe_ret(struct kretprobe_instance *ri,
				       struct pt_regs *regs)
{
	bench_hit();
	return 0;
}

static struct ftrace_ops bench_ops = {
	.func = bench_ftrace_func,
};
static struct fprobe bench_fp;
/* fprobe-mixed: bench_fp has the entry handler only, bench_fp2 both */
static struct fprobe bench_fp2;
static struct kprobe bench_kp;
static struct kretprobe bench_krp;

enum bench_case {
	CASE_NONE, CASE_FTRACE, CASE_FPROBE_ENTRY, CASE_FPROBE_EXIT,
	CASE_KPROBE, CASE_KRETPROBE, CASE_EXTERNAL, CASE_SCALE, CASE_SCALE_ALL,
	CASE_FPROBE_MIXED,
};

static const char * const bench_case_names[] = {
	"none", "ftrace", "fprobe-entry", "fprobe-exit", "kprobe", "kretprobe",
	"external", "scale", "scale-all", "fprobe-mixed",
};

/* Register the probe of @c on the target; 0 or -errno */
static int bench_attach(enum bench_case c)
{
	unsigned long addr = (unsigned long)fprobe_bench_target;
	const char **syms;
	int ret;

	switch (c) {
	case CASE_NONE:
	case CASE_EXTERNAL:
		return 0;
	case CASE_FTRACE:
		memset(&bench_ops, 0, sizeof(bench_ops));
		bench_ops.func = bench_ftrace_func;
		ret = ftrace_set_filter_ip(&bench_ops, addr, 0, 0);
		if (!ret)
			ret = register_ftrace_function(&bench_ops);
		if (ret)
			ftrace_free_filter(&bench_ops);
		return ret;
	case CASE_FPROBE_ENTRY:
	case CASE_FPROBE_EXIT:
		memset(&bench_fp, 0, sizeof(bench_fp));
		bench_fp.entry_handler = bench_fprobe_entry;
		if (c == CASE_FPROBE_EXIT)
			bench_fp.exit_handler = bench_fprobe_exit;
		return register_fprobe_ips(&bench_fp, &addr, 1);
	case CASE_FPROBE_MIXED:
		memset(&bench_fp, 0, sizeof(bench_fp));
		memset(&bench_fp2, 0, sizeof(bench_fp2));
		bench_fp.entry_handler = bench_fprobe_entry;
		bench_fp2.entry_handler = bench_fprobe_entry;
		bench_fp2.exit_handler = bench_fprobe_exit;
		ret = register_fprobe_ips(&bench_fp, &addr, 1);
		if (ret)
			return ret;
		ret = register_fprobe_ips(&bench_fp2, &addr, 1);
		if (ret)
			unregister_fprobe(&bench_fp);
		return ret;
	case CASE_KPROBE:
		memset(&bench_kp, 0, sizeof(bench_kp));
		bench_kp.addr = (kprobe_opcode_t *)addr;
		bench_kp.pre_handler = bench_kprobe_pre;
		return register_kprobe(&bench_kp);
	case CASE_KRETPROBE:
		memset(&bench_krp, 0, sizeof(bench_krp));
		bench_krp.kp.addr = (kprobe_opcode_t *)addr;
		bench_krp.handler = bench_kretprobe_ret;
		return register_kretprobe(&bench_krp);
	case CASE_SCALE:
		memset(&bench_fp, 0, sizeof(bench_fp));
		bench_fp.entry_handler = bench_fprobe_entry;
		bench_fp.exit_handler = bench_fprobe_exit;
		syms = kvmalloc_array(bench_nsyms + 1, sizeof(*syms), GFP_KERNEL);
		if (!syms)
			return -ENOMEM;
		syms[0] = "fprobe_bench_target";
		memcpy(syms + 1, bench_syms, bench_nsyms * sizeof(*syms));
		ret = register_fprobe_syms(&bench_fp, syms, bench_nsyms + 1);
		kvfree(syms);
		return ret;
	case CASE_SCALE_ALL:
		memset(&bench_fp, 0, sizeof(bench_fp));
		bench_fp.entry_handler = bench_fprobe_entry;
		bench_fp.exit_handler = bench_fprobe_exit;
		return register_fprobe(&bench_fp, "*", NULL);
	}
	return -EINVAL;
}

/* Unregister the probe of @c; returns the calls its probe missed */
static unsigned long bench_detach(enum bench_case c)
{
	switch (c) {
	case CASE_FTRACE:
		unregister_ftrace_function(&bench_ops);
		ftrace_free_filter(&bench_ops);
		return 0;
	case CASE_FPROBE_ENTRY:
	case CASE_FPROBE_EXIT:
	case CASE_SCALE:
	case CASE_SCALE_ALL:
		unregister_fprobe(&bench_fp);
		return bench_fp.nmissed;
	case CASE_FPROBE_MIXED:
		unregister_fprobe(&bench_fp2);
		unregister_fprobe(&bench_fp);
		return bench_fp.nmissed + bench_fp2.nmissed;
	case CASE_KPROBE:
		unregister_kprobe(&bench_kp);
		return bench_kp.nmissed;
	case CASE_KRETPROBE:
		unregister_kretprobe(&bench_krp);
		return bench_krp.nmissed;
	default:
		return 0;
	}
}

enum bench_ctx { CTX_TASK, CTX_BH, CTX_SOFTIRQ, CTX_HARDIRQ };

static const char * const bench_ctx_names[] = {
	"task", "bh", "softirq", "hardirq",
};

/* One chunk of calls, made in the context asked for */
static struct bench_chunk {
	struct work_struct work;
	struct irq_work irq_work;
	struct completion done;
	u64 busy;
	int sum;
} bench_chunk;

/*
 * Only the calls are timed (see the top of this file), with the notrace
 * clock: ktime_get() is probed in scale-all. Inline, as is
 * bench_chunk_run(): in task context the target is called from the
 * function that runs the case, with no frame between, so that the PMU
 * cases unwind the same callchain on every kernel and in every version
 * of this module.
 */
static __always_inline void bench_chunk_calls(struct bench_chunk *ch)
{
	unsigned long flags;
	u64 t;
	int i;

	local_irq_save(flags);
	t = ktime_get_mono_fast_ns();
	for (i = 0; i < BENCH_CHUNK; i++)
		ch->sum += fprobe_bench_target(i);
	ch->busy += ktime_get_mono_fast_ns() - t;
	local_irq_restore(flags);
}

static void bench_chunk_work(struct work_struct *work)
{
	struct bench_chunk *ch = container_of(work, struct bench_chunk, work);

	/* A splat fails make bench: the calls were not where they claim */
	WARN_ON_ONCE(!in_serving_softirq());
	bench_chunk_calls(ch);
	complete(&ch->done);
}

static void bench_chunk_irq_work(struct irq_work *work)
{
	struct bench_chunk *ch = container_of(work, struct bench_chunk, irq_work);

	WARN_ON_ONCE(!in_hardirq());
	bench_chunk_calls(ch);
	complete(&ch->done);
}

/*
 * Make a chunk of calls in @ctx, on this CPU (migration is disabled), with
 * interrupts disabled in every context: 0, or -EBUSY if the work of the
 * previous chunk is somehow still queued.
 */
static __always_inline int bench_chunk_run(struct bench_chunk *ch,
					   enum bench_ctx ctx)
{
	switch (ctx) {
	case CTX_TASK:
		bench_chunk_calls(ch);
		break;
	case CTX_BH:
		local_bh_disable();
		bench_chunk_calls(ch);
		local_bh_enable();
		break;
	case CTX_SOFTIRQ:
		reinit_completion(&ch->done);
		if (WARN_ON_ONCE(!queue_work_on(raw_smp_processor_id(),
						system_bh_wq, &ch->work)))
			return -EBUSY;
		wait_for_completion(&ch->done);
		break;
	case CTX_HARDIRQ:
		reinit_completion(&ch->done);
		if (WARN_ON_ONCE(!irq_work_queue(&ch->irq_work)))
			return -EBUSY;
		wait_for_completion(&ch->done);
		break;
	}
	return 0;
}

/*
 * Sleep until a timer tick: what follows starts at the same point of the
 * tick period every time, so that waits ending on a tick (RCU grace
 * periods) last the same guest time under icount.
 */
static void bench_tick_align(void)
{
	schedule_timeout_uninterruptible(1);
}

/* Run @c for @ms milliseconds, or until @ncalls calls if not 0, in @ctx */
static int bench_run(enum bench_case c, unsigned int ms, u64 ncalls,
		     enum bench_ctx ctx)
{
	struct bench_chunk *ch = &bench_chunk;
	u64 t0, t1, t3, deadline, calls = 0;
	unsigned long hits0, hits, missed;
	int ret;

	bench_tick_align();
	t0 = ktime_get_ns();
	ret = bench_attach(c);
	t1 = ktime_get_ns();
	if (ret)
		return ret;

	rcu_barrier();
	kvfree_rcu_barrier();
	msleep(BENCH_SETTLE_MS);
	ch->busy = 0;
	ch->sum = 0;
	migrate_disable();
	hits0 = bench_hits_sum();
	deadline = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	do {
		ret = bench_chunk_run(ch, ctx);
		if (ret)
			break;
		calls += BENCH_CHUNK;
		cond_resched();
		t3 = ktime_get_ns();
	} while (t3 < deadline && (!ncalls || calls < ncalls));
	hits = bench_hits_sum() - hits0;
	migrate_enable();
	if (ret) {
		bench_detach(c);
		return ret;
	}

	t0 = t1 - t0;
	bench_tick_align();
	t1 = ktime_get_ns();
	missed = bench_detach(c);
	t1 = ktime_get_ns() - t1;
	if (c == CASE_NONE || c == CASE_EXTERNAL)
		t0 = t1 = 0;

	snprintf(bench_result, sizeof(bench_result),
		 "case=%s calls=%llu ns=%llu hits=%lu missed=%lu reg_ns=%llu unreg_ns=%llu nsyms=%u sum=%d ctx=%s\n",
		 bench_case_names[c], calls, ch->busy, hits, missed, t0, t1,
		 c == CASE_SCALE ? bench_nsyms + 1 : 0, ch->sum,
		 bench_ctx_names[ctx]);
	return 0;
}

static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char buf[64], name[24], ctxname[16] = "task";
	unsigned long long ncalls = 0;
	unsigned int ms;
	int c, ctx, n, ret;

	if (count >= sizeof(buf))
		return -E2BIG;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	n = sscanf(buf, "%23s %u %llu %15s", name, &ms, &ncalls, ctxname);
	if (n < 2 || !ms || ms > BENCH_MAX_MS || ncalls > BENCH_MAX_CALLS)
		return -EINVAL;
	c = match_string(bench_case_names, ARRAY_SIZE(bench_case_names), name);
	if (c < 0)
		return c;
	ctx = match_string(bench_ctx_names, ARRAY_SIZE(bench_ctx_names), ctxname);
	if (ctx < 0)
		return ctx;
	mutex_lock(&bench_lock);
	bench_result[0] = '\0';
	ret = bench_run(c, ms, ncalls, ctx);
	mutex_unlock(&bench_lock);
	return ret ? ret : count;
}

static ssize_t run_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, bench_result,
				      strlen(bench_result));
	mutex_unlock(&bench_lock);
	return ret;
}

static void bench_syms_clear(void)
{
	while (bench_nsyms)
		kfree(bench_syms[--bench_nsyms]);
	bench_partial_len = 0;
}

static int bench_syms_add(const char *name, size_t len)
{
	char **n;

	if (!len)
		return 0;
	if (bench_nsyms >= BENCH_MAX_SYMS)
		return -E2BIG;
	if (bench_nsyms == bench_syms_cap) {
		n = kvrealloc(bench_syms, (bench_syms_cap + 1024) * sizeof(*n),
			      GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		bench_syms = n;
		bench_syms_cap += 1024;
	}
	bench_syms[bench_nsyms] = kmemdup_nul(name, len, GFP_KERNEL);
	if (!bench_syms[bench_nsyms])
		return -ENOMEM;
	bench_nsyms++;
	return 0;
}

static int syms_open(struct inode *inode, struct file *file)
{
	if (file->f_flags & O_TRUNC) {
		mutex_lock(&bench_lock);
		bench_syms_clear();
		mutex_unlock(&bench_lock);
	}
	return 0;
}

/* Names may be split across writes: keep the tail until its newline */
static ssize_t syms_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char *buf, *p, *nl;
	ssize_t ret = count;

	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&bench_lock);
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			size_t len = strlen(p);

			if (bench_partial_len + len >= KSYM_NAME_LEN) {
				ret = -ENAMETOOLONG;
				break;
			}
			memcpy(bench_partial + bench_partial_len, p, len);
			bench_partial_len += len;
			break;
		}
		if (bench_partial_len) {
			if (bench_partial_len + (nl - p) >= KSYM_NAME_LEN) {
				ret = -ENAMETOOLONG;
				break;
			}
			memcpy(bench_partial + bench_partial_len, p, nl - p);
			ret = bench_syms_add(bench_partial,
					     bench_partial_len + (nl - p));
			bench_partial_len = 0;
		} else {
			ret = bench_syms_add(p, nl - p);
		}
		if (ret < 0)
			break;
		ret = count;
	}
	mutex_unlock(&bench_lock);
	kfree(buf);
	return ret;
}

static ssize_t syms_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n", bench_nsyms);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.write = run_write,
	.read = run_read,
	.llseek = default_llseek,
};

static const struct file_operations syms_fops = {
	.owner = THIS_MODULE,
	.open = syms_open,
	.write = syms_write,
	.read = syms_read,
	.llseek = default_llseek,
};

static int __init fprobe_bench_init(void)
{
	INIT_WORK(&bench_chunk.work, bench_chunk_work);
	bench_chunk.irq_work = IRQ_WORK_INIT_HARD(bench_chunk_irq_work);
	init_completion(&bench_chunk.done);
	bench_dir = debugfs_create_dir("fprobe_bench", NULL);
	debugfs_create_file("run", 0600, bench_dir, NULL, &run_fops);
	debugfs_create_file("syms", 0600, bench_dir, NULL, &syms_fops);
	return 0;
}

static void __exit fprobe_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	flush_work(&bench_chunk.work);
	irq_work_sync(&bench_chunk.irq_work);
	bench_syms_clear();
	kvfree(bench_syms);
}

module_init(fprobe_bench_init);
module_exit(fprobe_bench_exit);
MODULE_DESCRIPTION("The per-call cost of function probes, for make bench");
MODULE_LICENSE("GPL");
