// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe PMU - perf events on kernel function entries and exits, fed by
 * fprobe. The ABI is include/uapi/linux/fprobe_pmu.h, described in
 * Documentation/trace/fprobe-pmu.rst.
 *
 * The events opened with the same config and the same filter and
 * not-filter strings share one fprobe on the functions the filter names,
 * and so do the events inherited from them (attr.inherit): perf opens an
 * event per CPU for one task (or for the whole system), and they all use
 * one probe, whatever the number of CPUs and tasks:
 *
 *   perf event (CPU 0) ----+
 *   perf event (CPU 1) ----+--> fprobe_pmu_probe --> fprobe on f1, f2, ...
 *   inherited event -------+      active: per-CPU list of the events
 *                                         added (scheduled in) on the CPU
 *
 * The fprobe fires for every task. pmu->add puts an event on the active
 * list of its CPU when it is scheduled in (for a task event, when its task
 * runs there) and pmu->del takes it off, so the handlers deliver a record
 * only to the events on the list of the CPU they run on: the events of the
 * current task and the CPU-wide events of that CPU. A call that starts on
 * one CPU and returns on another is delivered at its return, to the events
 * active on the CPU it returns on: with an event on every CPU, as perf
 * opens them, no call is lost to a migration.
 *
 * A call fprobe misses (recursion, a full shadow stack) is counted as lost
 * by each event it would have been delivered to, from the fprobe's missed
 * handler on the CPU of the call: the lost count of an event is its own.
 * A record that finds perf's recursion context of its context taken (see
 * fprobe_pmu_sample_event()) is counted as lost by that event alone.
 *
 * The PMU does not trace its own writes, as ftrace does not trace its ring
 * buffer: while this CPU writes records in a context (perf's ring buffer,
 * the callchain unwinder, an overflow handler or BPF program of the event,
 * all of which can be probed), the calls made there in that context are
 * neither recorded nor counted, nor counted as lost, by any event of the
 * PMU (see fprobe_pmu_in_write()). Nor are the calls that the threads of
 * the process that opened an event with FPROBE_PMU_CONFIG_EXCLUDE_OPENER
 * make in task context.
 *
 * At entry, the entry handler saves the entry time, the depth and the
 * arguments as the fprobe entry data (on the task's function graph shadow
 * stack); at return, the exit handler makes one record of the completed
 * call from them. Each record is counted and sampled by perf
 * (perf_event_trace_count(), perf_event_trace_sample()), with the registers
 * of the probed function (fprobe_pmu_fill_regs()), so PERF_SAMPLE_CALLCHAIN
 * unwinds the stack of the probed call, with the function address as their
 * instruction pointer.
 */
#define pr_fmt(fmt) "fprobe_pmu: " fmt

#include <linux/capability.h>
#include <linux/err.h>
#include <linux/fprobe.h>
#include <linux/fprobe_pmu.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <asm/fprobe.h>

#include "trace.h"
#include "trace_probe.h"

/**
 * struct fprobe_pmu_probe - the fprobe of the events of one config and filter
 * @fp: The fprobe, on the functions of the filter.
 * @ref: One reference per perf event (opened or inherited) using @fp.
 * @list: In fprobe_pmu_probes, under fprobe_pmu_mutex.
 * @config: The attr.config of the events.
 * @filter: The filter string of the events (attr.config1).
 * @notfilter: Their not-filter string (attr.config2), or NULL.
 * @opener: The thread group whose calls the events leave out
 *	(FPROBE_PMU_CONFIG_EXCLUDE_OPENER), held; NULL without it. Events
 *	of different openers do not share a probe.
 * @gen: The generation of the probe, tagging its entry data.
 * @mod_gen: fprobe_pmu_mod_gen when its filter was expanded: a probe made
 *	before the last module came is not shared with the events opened
 *	after, whose filters may match functions of that module.
 * @nr_sampling: The number of sampling events using @fp: without any, the
 *	calls are counted, not timed nor recorded.
 * @nr_filtered: The number of events using @fp with a filter of their own
 *	(FPROBE_PMU_CONFIG_ERRORS, config3): without any, no exit record is
 *	checked against one.
 * @nargs: The number of arguments to capture at entry.
 * @fetch: The fetch arguments of the entry records, from the filter,
 *	parsed and read by trace_probe's code as an fprobe event's; NULL
 *	for none.
 * @nr_scope: The number of functions of the scope ('@' globs of the filter),
 *	0 for none: then every call is seen.
 * @scope_ips: Their ftrace locations, sorted.
 * @scope_gen: fprobe_pmu_scope_gen when the scope was added: the calls of
 *	the scope that began before do not count.
 * @scope_list: On fprobe_pmu_scoped, with a scope.
 * @selective: @opener or @nr_scope is set: some calls are left out.
 * @entry: Emit entry records.
 * @exit: Emit exit records (@fp has an exit handler).
 * @active: Per-CPU list of the events added on the CPU.
 */
struct fprobe_pmu_probe {
	struct fprobe			fp;
	refcount_t			ref;
	struct list_head		list;
	u64				config;
	char				*filter;
	char				*notfilter;
	struct pid			*opener;
	u32				gen;
	u32				mod_gen;
	atomic_t			nr_sampling;
	atomic_t			nr_filtered;
	unsigned int			nargs;
	struct trace_probe		*fetch;
	unsigned int			nr_scope;
	unsigned long			*scope_ips;
	u32				scope_gen;
	struct list_head		scope_list;
	bool				selective;
	bool				entry;
	bool				exit;
	struct hlist_head __percpu	*active;
};

/*
 * The probes in use, for the events opened with the same attributes. The
 * mutex is held for looking them up and changing the list, not while a
 * probe is registered or unregistered.
 */
static LIST_HEAD(fprobe_pmu_probes);
static DEFINE_MUTEX(fprobe_pmu_mutex);
/* The generation of the last probe made, under fprobe_pmu_mutex */
static u32 fprobe_pmu_gen;
/* The number of modules that came, up to this one (fprobe_pmu_module_cb()) */
static atomic_t fprobe_pmu_mod_gen;

/*
 * The most functions one event (or its scope) may attach to: a filter that
 * matches more is -E2BIG. A fixed bound, as kprobe_multi's
 * MAX_KPROBE_MULTI_CNT is, on what an event can make fprobe and ftrace
 * allocate for its functions (the PMU's own memory is charged to the
 * opener's memory cgroup, their tables are not). Read in caps/max_funcs.
 */
#define FPROBE_PMU_MAX_FUNCS	1048576	/* 2^20 */

/*
 * Scopes. One function graph ops, registered while a probe has a scope, on
 * the functions of every scope: a call of one pushes a frame whose data
 * (struct fprobe_pmu_scope_frame) links to the task's previous such frame,
 * from the task variable of the ops. A probe looks for a call of its own
 * scope along that chain. So the PMU takes one of the function graph
 * tracer's 16 ops however many scopes there are.
 */
struct fprobe_pmu_scope_frame {
	struct fprobe_pmu_scope_frame	*prev;
	unsigned long			func;
	u32				gen;
};

static struct fgraph_ops fprobe_pmu_scope_ops;
/* The probes with a scope, under fprobe_pmu_scope_mutex */
static LIST_HEAD(fprobe_pmu_scoped);
static DEFINE_MUTEX(fprobe_pmu_scope_mutex);
/*
 * Bumped when a scope is added and when the ops is registered, under the
 * mutex: a frame carries the value it had when it was pushed.
 */
static u32 fprobe_pmu_scope_gen;
static bool fprobe_pmu_scope_registered;

/*
 * The fprobe entry data: what the exit record needs from the entry, saved
 * on the shadow stack of the task for the duration of the call. Without a
 * sampling event at entry, the call is only counted at exit: @timed is
 * false, and @entry_time, @depth and @args are not set.
 */
struct fprobe_pmu_call {
	u64	entry_time;
	u32	gen;
	u16	depth;
	u16	timed;
	u64	args[];
};

/*
 * Sample registers, one set per perf recursion context. Only the fields
 * fprobe_pmu_fill_regs() sets are ever written, the same ones every time:
 * the others stay 0.
 */
static DEFINE_PER_CPU(struct pt_regs, fprobe_pmu_regs[PERF_NR_CONTEXTS]);

/*
 * The context (fprobe_pmu_context()) in which this CPU writes records, 0
 * when it writes none: see fprobe_pmu_in_write().
 */
static DEFINE_PER_CPU(unsigned int, fprobe_pmu_writing_ctx);

/*
 * Per CPU and interrupt context level, the fetch area of the entry record
 * being made (its fields, then its strings), used while the CPU is marked
 * as writing in that context (fprobe_pmu_writing_ctx): a call made
 * meanwhile in the same context, which fprobe's recursion lock may let
 * through once, records nothing. Allocated for the first probe with fetch
 * arguments, then kept.
 */
struct fprobe_pmu_fetch_buf {
	u64	area[FPROBE_PMU_FETCH_SIZE_MAX / sizeof(u64)];
};

struct fprobe_pmu_fetch_bufs {
	struct fprobe_pmu_fetch_buf	ctx[PERF_NR_CONTEXTS];
};

static struct fprobe_pmu_fetch_bufs __percpu *fprobe_pmu_fetch_bufs;

static __always_inline struct fprobe_pmu_fetch_buf *fprobe_pmu_fetch_buf(void)
{
	return &this_cpu_ptr(fprobe_pmu_fetch_bufs)->ctx[interrupt_context_level()];
}

static struct pmu fprobe_pmu;
static bool fprobe_pmu_registered;

static inline struct fprobe_pmu_probe *to_probe(struct fprobe *fp)
{
	return container_of(fp, struct fprobe_pmu_probe, fp);
}

static __always_inline bool fprobe_pmu_has_filter(struct perf_event *event)
{
	return (event->attr.config & FPROBE_PMU_CONFIG_FILTERS) ||
	       event->attr.config3;
}

/*
 * An error code in the low 32 bits of the return value, where an int is
 * returned: a long error code has it there too.
 */
static __always_inline bool fprobe_pmu_is_error(u64 retval)
{
	s32 val = retval;

	/* The ABI's copy of the kernel's limit, which uapi cannot include */
	BUILD_BUG_ON(FPROBE_PMU_MAX_ERRNO != MAX_ERRNO);
	return val < 0 && val >= -FPROBE_PMU_MAX_ERRNO;
}

/*
 * Whether the filters of the sampling @event let @rec through. They apply
 * to exit records only.
 */
static __always_inline bool fprobe_pmu_passes(struct perf_event *event,
					      const struct fprobe_pmu_record *rec)
{
	if (rec->type != FPROBE_PMU_REC_EXIT)
		return true;
	if (rec->duration < event->attr.config3)
		return false;
	return !(event->attr.config & FPROBE_PMU_CONFIG_ERRORS) ||
	       fprobe_pmu_is_error(rec->retval);
}

/*
 * A call of @probe was missed on this CPU: count it as lost for the events
 * it would have been delivered to, those whose filters @rec passes when its
 * record is known (else all). Called with preemption disabled, also where
 * the ftrace recursion lock could not be taken (the missed handler of the
 * fprobe): only inline code from here.
 *
 * Interrupts are disabled for the walk, as for a record: an event leaves
 * this CPU's list only in pmu->del, on this CPU with interrupts disabled,
 * before it can be freed: none on the list goes away during the walk.
 */
static __always_inline void fprobe_pmu_lost(struct fprobe_pmu_probe *probe,
					    const struct fprobe_pmu_record *rec)
{
	struct perf_event *event;
	unsigned long flags;

	local_irq_save(flags);
	hlist_for_each_entry_rcu(event, this_cpu_ptr(probe->active), hlist_entry,
				 true) {
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		if (rec && is_sampling_event(event) && !fprobe_pmu_passes(event, rec))
			continue;
		atomic64_inc(&(event->parent ?: event)->lost_samples);
	}
	local_irq_restore(flags);
}

/*
 * A call while the events of @probe on this CPU are throttled
 * (perf_event_throttled()): if every one is throttled or stopped, at least
 * one throttled, and none would treat the call otherwise (a counting event,
 * one sampling one record in several, one with a filter that could leave
 * the call out), each counts the call and loses it once, as a call fprobe
 * missed (fprobe_pmu_lost()), even if it would have made an entry and an
 * exit record, and true is returned. Such a call costs this, with no
 * argument read, no clock and no exit hooked: so the throttle bounds the
 * work of a recording that takes every call of the kernel, and not only
 * its records, until the next tick. Interrupts are disabled, as in
 * fprobe_pmu_lost(), and the tick cannot unthrottle an event between the
 * test and the count.
 */
static noinline bool fprobe_pmu_drop(struct fprobe_pmu_probe *probe)
{
	struct hlist_head *active = this_cpu_ptr(probe->active);
	struct perf_event *event;
	bool throttled = false;
	unsigned long flags;

	local_irq_save(flags);
	hlist_for_each_entry_rcu(event, active, hlist_entry, true) {
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		if (!perf_event_throttled(event) ||
		    event->hw.sample_period > 1 || fprobe_pmu_has_filter(event))
			goto out;
		throttled = true;
	}
	if (throttled) {
		hlist_for_each_entry_rcu(event, active, hlist_entry, true) {
			if (event->hw.state & PERF_HES_STOPPED)
				continue;
			local64_inc(&event->count);
			atomic64_inc(&(event->parent ?: event)->lost_samples);
		}
	}
out:
	local_irq_restore(flags);
	return throttled;
}

NOKPROBE_SYMBOL(fprobe_pmu_drop);

/*
 * Whether the first event of @probe on this CPU is throttled: then
 * fprobe_pmu_drop() sees whether the call can be dropped. A test of one
 * field on the way of every call.
 */
static __always_inline bool fprobe_pmu_maybe_throttled(struct fprobe_pmu_probe *probe)
{
	struct hlist_node *first;

	first = rcu_dereference_raw(hlist_first_rcu(this_cpu_ptr(probe->active)));
	return unlikely(first &&
			perf_event_throttled(hlist_entry(first, struct perf_event,
							 hlist_entry)));
}

/*
 * The interrupt bits of preempt_count(), plus one (never 0): two calls in
 * the same context of fprobe's recursion lock (interrupt_context_level())
 * have the same value, and nested hardirqs or NMIs differ.
 */
static __always_inline unsigned int fprobe_pmu_context(void)
{
	return (preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)) + 1;
}

/*
 * Whether this call is made while this CPU writes a record in this context:
 * by perf's ring buffer or callchain code, or by an overflow handler or BPF
 * program of the event. The PMU's own work: neither recorded, nor counted,
 * nor lost. fprobe's recursion lock lets the first such call through (as
 * it would the first call of an interrupt not yet marked in preempt_count)
 * to the entry handler, and misses the deeper ones (the missed handler).
 */
static __always_inline bool fprobe_pmu_in_write(void)
{
	unsigned int writing = __this_cpu_read(fprobe_pmu_writing_ctx);

	return unlikely(writing) && writing == fprobe_pmu_context();
}

/*
 * Whether @probe leaves out the current call: one made in task context (an
 * interrupt's calls are not those of the task it interrupts) by a thread
 * of the process that opened its events. The thread group's pid is
 * cleared when its leader is reaped, possibly while another of its
 * threads still runs: then nothing is left out.
 */
static __always_inline bool fprobe_pmu_excluded(struct fprobe_pmu_probe *probe)
{
	return unlikely(probe->opener) && in_task() &&
	       READ_ONCE(current->signal->pids[PIDTYPE_TGID]) == probe->opener;
}

/* Whether @ip is a function of the scope of @probe */
static bool fprobe_pmu_scope_has(struct fprobe_pmu_probe *probe,
				 unsigned long ip)
{
	unsigned int lo = 0, hi = probe->nr_scope;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (probe->scope_ips[mid] == ip)
			return true;
		if (probe->scope_ips[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

NOKPROBE_SYMBOL(fprobe_pmu_scope_has);

/*
 * Whether the call of @ip is out of the scope of @probe, which has one:
 * made in an interrupt, or by a task in no call of the scope that began
 * since the scope was added, and not a call of the scope itself (whose
 * own frame may not be pushed yet: the ftrace callbacks run in no set
 * order).
 */
static noinline bool fprobe_pmu_scope_miss(struct fprobe_pmu_probe *probe,
					   unsigned long ip)
{
	struct fprobe_pmu_scope_frame *frame;
	unsigned long low, high;

	if (!in_task() || !current->ret_stack)
		return true;
	/*
	 * The frames are in the task's shadow stack, each below the one
	 * pushed after it. A link that is not is no frame of the chain: a
	 * value a task kept from an earlier registration of the ops, which
	 * the clearing of the task variables missed (a task exiting then),
	 * where the walk stops.
	 */
	low = (unsigned long)current->ret_stack;
	high = (unsigned long)(current->ret_stack + current->curr_ret_stack);
	frame = (void *)*fgraph_get_task_var(&fprobe_pmu_scope_ops);
	while (frame) {
		if ((unsigned long)frame < low ||
		    (unsigned long)(frame + 1) > high)
			break;
		/* Wrapping u32 generations: "pushed since the scope came" */
		if ((s32)(frame->gen - probe->scope_gen) >= 0 &&
		    fprobe_pmu_scope_has(probe, frame->func))
			return false;
		high = (unsigned long)frame;
		frame = frame->prev;
	}
	return !fprobe_pmu_scope_has(probe, ip);
}

NOKPROBE_SYMBOL(fprobe_pmu_scope_miss);

static __always_inline bool fprobe_pmu_out_of_scope(struct fprobe_pmu_probe *probe,
						    unsigned long ip)
{
	return probe->nr_scope && fprobe_pmu_scope_miss(probe, ip);
}

/*
 * Whether @probe leaves out the current call, of @ip: one of the process
 * that opened its events (fprobe_pmu_excluded()), or one out of its scope.
 * A probe with neither pays one test.
 */
static __always_inline bool fprobe_pmu_left_out(struct fprobe_pmu_probe *probe,
						unsigned long ip)
{
	return unlikely(probe->selective) &&
	       (fprobe_pmu_excluded(probe) || fprobe_pmu_out_of_scope(probe, ip));
}

/*
 * A call of a function of a scope begins, in task context: its frame goes
 * on the task's chain. The calls made in interrupts are never in a scope.
 */
static int fprobe_pmu_scope_entry(struct ftrace_graph_ent *trace,
				  struct fgraph_ops *gops,
				  struct ftrace_regs *fregs)
{
	unsigned long *chain = fgraph_get_task_var(gops);
	struct fprobe_pmu_scope_frame *frame;

	if (!in_task())
		return 0;
	frame = fgraph_reserve_data(gops->idx, sizeof(*frame));
	if (!frame)
		return 0;
	frame->prev = (void *)*chain;
	frame->func = trace->func;
	frame->gen = READ_ONCE(fprobe_pmu_scope_gen);
	*chain = (unsigned long)frame;
	return 1;
}

NOKPROBE_SYMBOL(fprobe_pmu_scope_entry);

/*
 * It returns: off the chain. A frame pushed while the ops was registered
 * before, or by another user with the same index, is not on it: the task
 * variable was cleared when the ops was registered again.
 */
static void fprobe_pmu_scope_return(struct ftrace_graph_ret *trace,
				    struct fgraph_ops *gops,
				    struct ftrace_regs *fregs)
{
	unsigned long *chain = fgraph_get_task_var(gops);
	struct fprobe_pmu_scope_frame *frame;
	int size;

	frame = fgraph_retrieve_data(gops->idx, &size);
	if (frame && size >= sizeof(*frame) && *chain == (unsigned long)frame)
		*chain = (unsigned long)frame->prev;
}

NOKPROBE_SYMBOL(fprobe_pmu_scope_return);

static void fprobe_pmu_missed(struct fprobe *fp, unsigned long entry_ip)
{
	struct fprobe_pmu_probe *probe = to_probe(fp);

	/* A call made while this context writes a record: not lost */
	if (fprobe_pmu_in_write())
		return;
	if (!fprobe_pmu_left_out(probe, entry_ip))
		fprobe_pmu_lost(probe, NULL);
}

NOKPROBE_SYMBOL(fprobe_pmu_missed);

#ifndef arch_fprobe_perf_regs
/* The registers of a perf sample of an fprobe event */
static __always_inline struct pt_regs *
arch_fprobe_perf_regs(struct ftrace_regs *fregs, struct pt_regs *buf,
		      bool at_return)
{
	return ftrace_fill_perf_regs(fregs, buf);
}
#endif

/*
 * The sample registers: those of the probed function at its first
 * instruction, as far as perf reads them, so that the sample ip is the
 * function and the kernel callchain starts with it, then its caller. They
 * are those of ftrace_fill_perf_regs() unless the architecture's unwinder
 * needs others for that (arch_fprobe_perf_regs() in asm/fprobe.h).
 */
static struct pt_regs *fprobe_pmu_fill_regs(struct pt_regs *buf,
					    struct ftrace_regs *fregs,
					    const struct fprobe_pmu_record *rec)
{
	struct pt_regs *regs;

	regs = arch_fprobe_perf_regs(fregs, buf,
				     rec->type == FPROBE_PMU_REC_EXIT);
	/* Where ftrace_regs are full registers: not those to change. */
	if (regs != buf) {
		*buf = *regs;
		regs = buf;
	}
	instruction_pointer_set(regs, rec->func);
	return regs;
}

/*
 * Whether an event of @probe active on this CPU takes the exit record @rec:
 * a counting event, or a sampling one whose filters @rec passes. A record
 * no event takes is dropped before anything else is done for it.
 */
static bool fprobe_pmu_wanted(struct fprobe_pmu_probe *probe,
			      const struct fprobe_pmu_record *rec)
{
	struct perf_event *event;

	hlist_for_each_entry_rcu(event, this_cpu_ptr(probe->active), hlist_entry,
				 true) {
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		if (!is_sampling_event(event) || fprobe_pmu_passes(event, rec))
			return true;
	}
	return false;
}

NOKPROBE_SYMBOL(fprobe_pmu_wanted);

/*
 * Count @rec in @event and, if perf_event_trace_count() says it is to be
 * sampled, sample it, with its arguments at @args, through perf's sample
 * path (perf_event_trace_sample()). The sample registers take a perf
 * recursion context, as the buffer of a tracepoint event does: a record
 * that finds it taken (delivered from another perf event's record made in
 * the same context) is lost for the event. Called with interrupts
 * disabled.
 */
static noinline void fprobe_pmu_sample_event(struct perf_event *event,
					     const struct fprobe_pmu_record *rec,
					     const u64 *args, const void *fetch,
					     u32 fetch_size,
					     struct ftrace_regs *fregs, u64 nr,
					     u64 now, u64 period)
{
	struct perf_raw_frag args_frag = {
		.data	= (void *)args,
		.size	= rec->nargs * sizeof(u64),
	};
	struct perf_raw_frag fetch_frag = {
		.next	= rec->nargs ? &args_frag : NULL,
		.data	= (void *)fetch,
		.size	= fetch_size,
	};
	struct perf_raw_record raw = {
		.frag	= {
			.next	= fetch_size ? &fetch_frag : fetch_frag.next,
			.data	= (void *)rec,
			.size	= sizeof(*rec),
		},
	};
	struct perf_sample_data data;
	struct pt_regs *regs;
	int rctx;

	if (!perf_event_trace_count(event, nr))
		return;
	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0) {
		/* Lost as a record, counted: as when throttled */
		atomic64_inc(&(event->parent ?: event)->lost_samples);
		return;
	}
	regs = fprobe_pmu_fill_regs(this_cpu_ptr(&fprobe_pmu_regs[rctx]),
				    fregs, rec);

	perf_sample_data_init(&data, 0, period);
	data.time = now;
	data.sample_flags |= PERF_SAMPLE_TIME;
	/* The 32-bit weight saturates; PERF_SAMPLE_WEIGHT is 64 bits. */
	if (event->attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT)
		data.weight.full = min_t(u64, period, U32_MAX);
	else
		data.weight.full = period;
	data.sample_flags |= PERF_SAMPLE_WEIGHT_TYPE;
	perf_sample_save_raw_data(&data, event, &raw);
	perf_event_trace_sample(event, &data, regs);
	perf_swevent_put_recursion_context(rctx);
}

NOKPROBE_SYMBOL(fprobe_pmu_sample_event);

/*
 * Sample @rec, with its arguments at @args, to the sampling events of
 * @probe active on this CPU, and add @nr to the count of all of them. @now
 * is the local_clock() of the record. Called with preemption disabled,
 * where RCU is watching.
 *
 * The calls made from here are not traced (see fprobe_pmu_in_write()).
 */
static __always_inline void fprobe_pmu_sample(struct fprobe_pmu_probe *probe,
					      struct fprobe_pmu_record *rec,
					      const u64 *args, const void *fetch,
					      u32 fetch_size,
					      struct ftrace_regs *fregs, u64 nr,
					      u64 now)
{
	struct perf_event *event;
	struct hlist_node *node;
	unsigned int writing;
	unsigned long flags;
	u64 period = 1;

	if (rec->type == FPROBE_PMU_REC_EXIT)
		period = rec->duration;
	/* As for a software event: holds off perf_remove_from_context() */
	local_irq_save(flags);
	/* Saved for an NMI that comes while another context writes */
	writing = __this_cpu_read(fprobe_pmu_writing_ctx);
	__this_cpu_write(fprobe_pmu_writing_ctx, fprobe_pmu_context());
	/*
	 * The list is walked by its nodes: no event on it is NULL, which
	 * hlist_for_each_entry_rcu() would test for each.
	 */
	for (node = rcu_dereference_raw(hlist_first_rcu(this_cpu_ptr(probe->active)));
	     node; node = rcu_dereference_raw(hlist_next_rcu(node))) {
		event = hlist_entry(node, struct perf_event, hlist_entry);
		if (event->hw.state & PERF_HES_STOPPED)
			continue;

		/* Counting mode: no record to make. */
		if (!is_sampling_event(event)) {
			local64_add(nr, &event->count);
			continue;
		}
		/*
		 * Filtered out: neither recorded nor counted by this event.
		 * Checked for each event, whatever nr_filtered said before:
		 * a filtered event may have been added since.
		 */
		if (!fprobe_pmu_passes(event, rec))
			continue;

		fprobe_pmu_sample_event(event, rec, args, fetch, fetch_size,
					fregs, nr, now, period);
	}
	__this_cpu_write(fprobe_pmu_writing_ctx, writing);
	local_irq_restore(flags);
}

/*
 * Deliver a call of @probe to its events active on this CPU: add @nr to the
 * count of each, and sample @rec (see fprobe_pmu_sample()) to the sampling
 * ones. @rec is NULL for a call that was not timed at entry (no sampling
 * event then): it is counted by the counting events only. Called with
 * preemption disabled.
 */
static __always_inline void fprobe_pmu_deliver(struct fprobe_pmu_probe *probe,
					       struct fprobe_pmu_record *rec,
					       const u64 *args, const void *fetch,
					       u32 fetch_size,
					       struct ftrace_regs *fregs,
					       u64 nr, u64 now)
{
	struct perf_event *event;
	struct hlist_node *node;

	/*
	 * perf needs RCU: fprobe calls no handler where RCU is not watching
	 * (on the way in and out of idle), as the probe could be freed under
	 * it there. Such calls are lost and counted nowhere.
	 */
	if (rec) {
		/*
		 * The kernel-side filters: a record no event takes costs one
		 * test per event. nr_filtered only saves the walk when no event
		 * has a filter; fprobe_pmu_sample() checks each event again.
		 */
		if (unlikely(atomic_read(&probe->nr_filtered)) &&
		    !fprobe_pmu_wanted(probe, rec))
			return;
		fprobe_pmu_sample(probe, rec, args, fetch, fetch_size, fregs,
				  nr, now);
		return;
	}

	/* Counting mode: an add per event, no record (walked as above). */
	for (node = rcu_dereference_raw(hlist_first_rcu(this_cpu_ptr(probe->active)));
	     node; node = rcu_dereference_raw(hlist_next_rcu(node))) {
		event = hlist_entry(node, struct perf_event, hlist_entry);
		if (!(event->hw.state & PERF_HES_STOPPED) &&
		    !is_sampling_event(event))
			local64_add(nr, &event->count);
	}
}

static __always_inline void fprobe_pmu_init_record(struct fprobe_pmu_record *rec,
						   u16 type, u16 nargs, u32 depth,
						   unsigned long func,
						   unsigned long ret_ip)
{
	rec->size = struct_size(rec, args, nargs);
	rec->version = FPROBE_PMU_RECORD_VERSION;
	rec->type = type;
	rec->nargs = nargs;
	rec->depth = depth;
	rec->fetch_flags = 0;
	rec->func = func;
	rec->ret_ip = ret_ip;
}

/*
 * The depth of the current call on the function graph return stack. Only an
 * fprobe with an exit handler puts the call there (an entry-only one runs
 * from an ftrace_ops callback): without one, it is one above the innermost
 * call on the stack.
 */
static __always_inline u32 fprobe_pmu_depth(struct fprobe_pmu_probe *probe)
{
	return current->curr_ret_depth + !probe->exit;
}

/* The bytes of the field of @arg: its type's, times its elements */
static __always_inline u32 fprobe_pmu_field_size(const struct probe_arg *arg)
{
	return arg->type->size * (arg->count ?: 1);
}

/*
 * Read the fetch arguments of @probe at the entry of a call into the fetch
 * area @area (see include/uapi/linux/fprobe_pmu.h) with trace_probe's
 * code, as an fprobe event reads them into its fields, and their fault and
 * cut bits into *@flags. Return: the bytes of the area.
 */
static noinline u32 fprobe_pmu_fetch(struct fprobe_pmu_probe *probe,
				     struct ftrace_regs *fregs, void *area,
				     u32 *flags)
{
	struct trace_probe *tp = probe->fetch;
	u32 pos = tp->size, room, end;
	unsigned int i;
	int ret;

	*flags = 0;
	/*
	 * The area is the CPU's: no byte of an earlier record stays where a
	 * read failed (an element of an array, which trace_probe counts as
	 * read)
	 */
	memset(area, 0, tp->size);
	for (i = 0; i < tp->nr_args; i++) {
		struct probe_arg *arg = &tp->args[i];
		void *dest = area + arg->offset;

		if (arg->dynamic) {
			/* The room of its strings: a data_loc from the area */
			room = min_t(u32, FPROBE_PMU_FETCH_SIZE_MAX - pos,
				     FPROBE_PMU_STRING_MAX);
			*(u32 *)dest = make_data_loc(room, pos);
			/* None left: the string is cut before it starts */
			if (!room) {
				*flags |= FPROBE_PMU_FETCH_CUT(i);
				continue;
			}
		}
		ret = trace_fprobe_fetch_arg(arg, fregs, dest, area);
		if (ret < 0) {
			*flags |= FPROBE_PMU_FETCH_FAULT(i);
			/* What could not be read is 0, an empty string */
			if (arg->dynamic)
				*(u32 *)dest = make_data_loc(0, pos);
			else
				memset(dest, 0, fprobe_pmu_field_size(arg));
			continue;
		}
		if (!arg->dynamic)
			continue;
		/* A string as long as its room may have been cut */
		if (ret == room)
			*flags |= FPROBE_PMU_FETCH_CUT(i);
		pos += ret;
	}
	end = ALIGN(pos, sizeof(u64));
	memset(area + pos, 0, end - pos);
	return end;
}

NOKPROBE_SYMBOL(fprobe_pmu_fetch);

/* The entry record of a call, with its arguments at @args */
static noinline void fprobe_pmu_entry_record(struct fprobe_pmu_probe *probe,
					     unsigned long entry_ip,
					     unsigned long ret_ip,
					     struct ftrace_regs *fregs,
					     const u64 *args, u64 now)
{
	struct fprobe_pmu_record rec;
	unsigned int writing = 0;
	void *area = NULL;
	u32 fetch_size = 0, flags = 0;

	if (probe->fetch) {
		/*
		 * The reads call traceable functions: no record of them here.
		 * The CPU stays marked as writing in this context until the
		 * record is delivered: a call that comes meanwhile in this
		 * context (the start of an interrupt, before preempt_count()
		 * says so) would fetch into the same area.
		 */
		writing = __this_cpu_read(fprobe_pmu_writing_ctx);
		__this_cpu_write(fprobe_pmu_writing_ctx, fprobe_pmu_context());
		area = fprobe_pmu_fetch_buf()->area;
		fetch_size = fprobe_pmu_fetch(probe, fregs, area, &flags);
	}
	fprobe_pmu_init_record(&rec, FPROBE_PMU_REC_ENTRY, probe->nargs,
			       fprobe_pmu_depth(probe), entry_ip, ret_ip);
	rec.size += fetch_size;
	rec.fetch_flags = flags;
	rec.entry_time = now;
	rec.duration = 0;
	rec.retval = 0;
	/* Entry records count calls only when there is no exit. */
	fprobe_pmu_deliver(probe, &rec, args, area, fetch_size, fregs,
			   !probe->exit, now);
	if (probe->fetch)
		__this_cpu_write(fprobe_pmu_writing_ctx, writing);
}

NOKPROBE_SYMBOL(fprobe_pmu_entry_record);

/*
 * perf's clock, local_clock(), without the preemption toggle around it:
 * the handlers run with preemption disabled.
 */
static __always_inline u64 fprobe_pmu_clock(void)
{
	return local_clock_noinstr();
}

/*
 * Read the first @nargs arguments of the call into @args. Unrolled, each
 * argument is read from where it is passed (a register on the
 * architectures that pass FPROBE_PMU_MAX_ARGS arguments in registers)
 * without a loop around a possible call.
 */
static __always_inline void fprobe_pmu_read_args(struct ftrace_regs *fregs,
						 u64 *args, unsigned int nargs)
{
	/* nargs <= FPROBE_PMU_MAX_ARGS: checked when the event is opened */
	BUILD_BUG_ON(FPROBE_PMU_MAX_ARGS != 6);
	switch (nargs) {
	case 6:
		args[5] = ftrace_regs_get_argument(fregs, 5);
		fallthrough;
	case 5:
		args[4] = ftrace_regs_get_argument(fregs, 4);
		fallthrough;
	case 4:
		args[3] = ftrace_regs_get_argument(fregs, 3);
		fallthrough;
	case 3:
		args[2] = ftrace_regs_get_argument(fregs, 2);
		fallthrough;
	case 2:
		args[1] = ftrace_regs_get_argument(fregs, 1);
		fallthrough;
	case 1:
		args[0] = ftrace_regs_get_argument(fregs, 0);
		fallthrough;
	case 0:
		break;
	}
}

/* The entry of a call, for the sampling events of @probe */
static noinline void fprobe_pmu_entry_timed(struct fprobe_pmu_probe *probe,
					    unsigned long entry_ip,
					    unsigned long ret_ip,
					    struct ftrace_regs *fregs,
					    struct fprobe_pmu_call *call)
{
	u64 stack_args[FPROBE_PMU_MAX_ARGS];
	u64 now = fprobe_pmu_clock();
	u64 *args;

	args = probe->exit ? call->args : stack_args;
	fprobe_pmu_read_args(fregs, args, probe->nargs);
	if (probe->exit) {
		call->entry_time = now;
		call->depth = fprobe_pmu_depth(probe);
	}
	if (probe->entry)
		fprobe_pmu_entry_record(probe, entry_ip, ret_ip, fregs, args,
					now);
}

NOKPROBE_SYMBOL(fprobe_pmu_entry_timed);

/*
 * The entry of a call, for the sampling events of a @probe that makes exit
 * records only, the common case: save what the exit record needs, the
 * clock last, so that only @call is kept across the clock read.
 */
static noinline void fprobe_pmu_call_start(struct fprobe_pmu_probe *probe,
					   struct ftrace_regs *fregs,
					   struct fprobe_pmu_call *call)
{
	fprobe_pmu_read_args(fregs, call->args, probe->nargs);
	call->depth = fprobe_pmu_depth(probe);
	call->entry_time = fprobe_pmu_clock();
}

NOKPROBE_SYMBOL(fprobe_pmu_call_start);

static int fprobe_pmu_entry(struct fprobe *fp, unsigned long entry_ip,
			    unsigned long ret_ip, struct ftrace_regs *fregs,
			    void *entry_data)
{
	struct fprobe_pmu_probe *probe = to_probe(fp);
	struct fprobe_pmu_call *call = entry_data;
	bool timed;

	/*
	 * No event of the current task or of this CPU, or a call the events
	 * leave out, or a call perf makes to write a record: nothing to do,
	 * and no exit to hook.
	 */
	if (hlist_empty(this_cpu_ptr(probe->active)) ||
	    fprobe_pmu_left_out(probe, entry_ip) || fprobe_pmu_in_write())
		return 1;
	if (fprobe_pmu_maybe_throttled(probe) && fprobe_pmu_drop(probe))
		return 1;

	/* Only sampling events need the time and the arguments. */
	timed = atomic_read(&probe->nr_sampling);
	if (!probe->exit) {
		if (timed)
			fprobe_pmu_entry_timed(probe, entry_ip, ret_ip, fregs,
					       NULL);
		else
			fprobe_pmu_deliver(probe, NULL, NULL, NULL, 0, fregs,
					   1, 0);
		return 1;
	}

	call->gen = probe->gen;
	call->timed = timed;
	if (timed) {
		if (likely(!probe->entry))
			fprobe_pmu_call_start(probe, fregs, call);
		else
			fprobe_pmu_entry_timed(probe, entry_ip, ret_ip, fregs,
					       call);
	}
	return 0;
}

NOKPROBE_SYMBOL(fprobe_pmu_entry);

/* The return of a call, for the sampling events of @probe */
static noinline void fprobe_pmu_exit_timed(struct fprobe_pmu_probe *probe,
					   unsigned long entry_ip,
					   unsigned long ret_ip,
					   struct ftrace_regs *fregs,
					   struct fprobe_pmu_call *call)
{
	struct fprobe_pmu_record rec;
	u64 now = fprobe_pmu_clock();

	fprobe_pmu_init_record(&rec, FPROBE_PMU_REC_EXIT, probe->nargs,
			       call->depth, entry_ip, ret_ip);
	rec.entry_time = call->entry_time;
	/*
	 * local_clock() is per CPU: a call that returns on another CPU can
	 * read a clock slightly behind the one of its entry.
	 */
	rec.duration = max_t(s64, now - call->entry_time, 0);
	rec.retval = ftrace_regs_get_return_value(fregs);
	fprobe_pmu_deliver(probe, &rec, call->args, NULL, 0, fregs, 1, now);
}

NOKPROBE_SYMBOL(fprobe_pmu_exit_timed);

/*
 * The return of a call. The sampling events' record is built out of line,
 * so that counting saves no register for it.
 */
static void fprobe_pmu_exit(struct fprobe *fp, unsigned long entry_ip,
			    unsigned long ret_ip, struct ftrace_regs *fregs,
			    void *entry_data)
{
	struct fprobe_pmu_probe *probe = to_probe(fp);
	struct fprobe_pmu_call *call = entry_data;

	if (hlist_empty(this_cpu_ptr(probe->active)))
		return;

	/*
	 * A call that entered under a probe freed since, whose memory this
	 * probe reuses: the entry data is not this probe's. Dropped, and
	 * counted in the fprobe's nmissed; not a call its events saw start,
	 * so not lost for them.
	 */
	if (unlikely(call->gen != probe->gen)) {
		fp->nmissed++;
		return;
	}

	if (call->timed)
		fprobe_pmu_exit_timed(probe, entry_ip, ret_ip, fregs, call);
	else
		fprobe_pmu_deliver(probe, NULL, NULL, NULL, 0, fregs, 1, 0);
}

NOKPROBE_SYMBOL(fprobe_pmu_exit);

/*
 * Copy the filter string at user address @uaddr: -EFAULT if it cannot be
 * read, -E2BIG if it is not terminated within FPROBE_PMU_FILTER_MAX bytes,
 * -EINVAL if it has no glob.
 */
static char *fprobe_pmu_copy_filter(u64 uaddr)
{
	char *buf;
	long len;

	buf = kmalloc(FPROBE_PMU_FILTER_MAX, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return ERR_PTR(-ENOMEM);

	len = strncpy_from_user(buf, u64_to_user_ptr(uaddr),
				FPROBE_PMU_FILTER_MAX);
	if (len < 0) {
		kfree(buf);
		return ERR_PTR(-EFAULT);
	}
	if (len == FPROBE_PMU_FILTER_MAX) {
		kfree(buf);
		return ERR_PTR(-E2BIG);
	}
	if (buf[strspn(buf, ", \t\n")] == '\0') {
		kfree(buf);
		return ERR_PTR(-EINVAL);
	}
	return buf;
}

/*
 * Whether an argument of @tp is a symstr: trace_probe writes the symbol's
 * name whatever the room (an fprobe event sizes the room to it first), and
 * a record's room is the area's
 */
static bool fprobe_pmu_has_symstr(const struct trace_probe *tp)
{
	const struct fetch_insn *code;
	unsigned int i;

	for (i = 0; i < tp->nr_args; i++) {
		for (code = tp->args[i].code; code->op != FETCH_OP_END; code++) {
			if (code->op == FETCH_OP_ST_SYMSTR)
				return true;
		}
	}
	return false;
}

/*
 * Parse the fetch arguments after the ';' of @filter, if it has one, with
 * trace_probe's parser, as an fprobe event's on a function entry (errors in
 * the tracefs error_log). Return: NULL for none, or the arguments; or an
 * ERR_PTR(): -EINVAL for a malformed one, none after the ';', no glob
 * before it, more than FPROBE_PMU_MAX_FETCH, or a symstr; -E2BIG for fields
 * over FPROBE_PMU_FETCH_SIZE_MAX bytes, or an argument longer than
 * trace_probe takes; -ENOENT for a symbol not found; -EINTR; -ENOMEM.
 */
static struct trace_probe *fprobe_pmu_parse_fetch(const char *filter)
{
	const char *p = strchr(filter, ';');
	struct trace_probe *tp;
	char **argv;
	int argc;

	if (!p)
		return NULL;
	/* Globs before them */
	if (filter + strspn(filter, ", \t\n") == p)
		return ERR_PTR(-EINVAL);
	argv = argv_split(GFP_KERNEL, p + 1, &argc);
	if (!argv)
		return ERR_PTR(-ENOMEM);
	if (!argc || argc > FPROBE_PMU_MAX_FETCH)
		tp = ERR_PTR(-EINVAL);
	else
		tp = trace_fprobe_parse_entry_args("fprobe_pmu", argc,
						   (const char **)argv);
	argv_free(argv);
	/* A BTF name: trace_probe's stub says -EOPNOTSUPP without BTF */
	if (PTR_ERR(tp) == -EOPNOTSUPP)
		return ERR_PTR(-EINVAL);
	if (IS_ERR(tp))
		return tp;
	if (tp->size > FPROBE_PMU_FETCH_SIZE_MAX) {
		trace_fprobe_free_args(tp);
		return ERR_PTR(-E2BIG);
	}
	if (fprobe_pmu_has_symstr(tp)) {
		trace_fprobe_free_args(tp);
		return ERR_PTR(-EINVAL);
	}
	return tp;
}

/*
 * Split the globs of @filter (before its fetch arguments) into those of the
 * probed functions, *@globs, and those of the scope, *@scope, without their
 * '@' (NULL if none): 0, -EINVAL for a filter of scope globs only, or an
 * empty one, -ENOMEM. The strings are the caller's to free.
 */
static int fprobe_pmu_split_filter(const char *filter, char **globs,
				   char **scope)
{
	size_t len = strcspn(filter, ";"), glen = 0, slen = 0, n;
	const char *p = filter, *end = filter + len;

	*globs = kzalloc(len + 1, GFP_KERNEL_ACCOUNT);
	*scope = kzalloc(len + 1, GFP_KERNEL_ACCOUNT);
	if (!*globs || !*scope)
		goto out_free;
	while (p < end) {
		p += strspn(p, ", \t\n");
		if (p >= end)
			break;
		n = min_t(size_t, strcspn(p, ", \t\n"), end - p);
		if (*p == '@') {
			if (n == 1)
				goto out_inval;
			slen += sprintf(*scope + slen, "%s%.*s", slen ? "," : "",
					(int)n - 1, p + 1);
		} else {
			glen += sprintf(*globs + glen, "%s%.*s", glen ? "," : "",
					(int)n, p);
		}
		p += n;
	}
	if (!glen)
		goto out_inval;
	if (!slen) {
		kfree(*scope);
		*scope = NULL;
	}
	return 0;

out_inval:
	kfree(*globs);
	kfree(*scope);
	*globs = *scope = NULL;
	return -EINVAL;
out_free:
	kfree(*globs);
	kfree(*scope);
	*globs = *scope = NULL;
	return -ENOMEM;
}

static int fprobe_pmu_cmp_ip(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Set the functions of fprobe_pmu_scope_ops to those of every scope, and
 * register it, or unregister it when there is none. Under
 * fprobe_pmu_scope_mutex.
 */
static int fprobe_pmu_scope_update(void)
{
	struct fprobe_pmu_probe *probe;
	unsigned long *ips;
	unsigned int n = 0, i, j;
	int ret;

	lockdep_assert_held(&fprobe_pmu_scope_mutex);
	list_for_each_entry(probe, &fprobe_pmu_scoped, scope_list)
		n += probe->nr_scope;
	if (!n) {
		if (!fprobe_pmu_scope_registered)
			return 0;
		unregister_ftrace_graph(&fprobe_pmu_scope_ops);
		/*
		 * The function graph tracer does not wait for the callbacks
		 * of a user it unregisters: an entry may still run on another
		 * CPU, and a return in a preemptible task. Wait for both
		 * before the ops is set up again.
		 */
		synchronize_rcu_tasks_rude();
		synchronize_rcu_tasks();
		ftrace_free_filter(&fprobe_pmu_scope_ops.ops);
		fprobe_pmu_scope_registered = false;
		return 0;
	}

	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	n = 0;
	list_for_each_entry(probe, &fprobe_pmu_scoped, scope_list) {
		memcpy(ips + n, probe->scope_ips, probe->nr_scope * sizeof(*ips));
		n += probe->nr_scope;
	}
	sort(ips, n, sizeof(*ips), fprobe_pmu_cmp_ip, NULL);
	for (i = j = 0; i < n; i++)
		if (!j || ips[i] != ips[j - 1])
			ips[j++] = ips[i];

	if (!fprobe_pmu_scope_registered) {
		fprobe_pmu_scope_ops = (struct fgraph_ops) {
			.entryfunc	= fprobe_pmu_scope_entry,
			.retfunc	= fprobe_pmu_scope_return,
		};
	}
	ret = ftrace_set_filter_ips(&fprobe_pmu_scope_ops.ops, ips, j, 0, 1);
	if (!ret && !fprobe_pmu_scope_registered) {
		/* The task variables are cleared: a new chain on each task */
		WRITE_ONCE(fprobe_pmu_scope_gen, fprobe_pmu_scope_gen + 1);
		ret = register_ftrace_graph(&fprobe_pmu_scope_ops);
		if (ret)
			ftrace_free_filter(&fprobe_pmu_scope_ops.ops);
		else
			fprobe_pmu_scope_registered = true;
	}
	kvfree(ips);
	return ret;
}

/*
 * Add the scope of @probe, the functions of @scope (globs), to those of
 * fprobe_pmu_scope_ops: -ENOENT if the globs select no function, -E2BIG
 * past FPROBE_PMU_MAX_FUNCS, -ENOSPC if no function graph ops is left for the first
 * scope (there are 16).
 */
static int fprobe_pmu_register_scope(struct fprobe_pmu_probe *probe,
				     const char *scope)
{
	unsigned long *addrs;
	int n, ret;

	n = fprobe_ips_from_filter(scope, NULL, FPROBE_PMU_MAX_FUNCS, 0, &addrs);
	if (n <= 0)
		return n ?: -ENOENT;
	probe->scope_ips = kmemdup_array(addrs, n, sizeof(*addrs),
					 GFP_KERNEL_ACCOUNT);
	kvfree(addrs);
	if (!probe->scope_ips)
		return -ENOMEM;
	sort(probe->scope_ips, n, sizeof(*addrs), fprobe_pmu_cmp_ip, NULL);
	probe->nr_scope = n;

	mutex_lock(&fprobe_pmu_scope_mutex);
	/* The calls that begin from now on count, not those in progress */
	WRITE_ONCE(fprobe_pmu_scope_gen, fprobe_pmu_scope_gen + 1);
	probe->scope_gen = fprobe_pmu_scope_gen;
	list_add(&probe->scope_list, &fprobe_pmu_scoped);
	ret = fprobe_pmu_scope_update();
	if (ret) {
		list_del(&probe->scope_list);
		/* Back to the others' functions: fails only as the add did */
		fprobe_pmu_scope_update();
	}
	mutex_unlock(&fprobe_pmu_scope_mutex);
	if (ret) {
		kfree(probe->scope_ips);
		probe->scope_ips = NULL;
		probe->nr_scope = 0;
	}
	return ret;
}

/*
 * Take the scope of @probe out of fprobe_pmu_scope_ops. Its fprobe is
 * unregistered: nothing looks at the scope any more.
 */
static void fprobe_pmu_unregister_scope(struct fprobe_pmu_probe *probe)
{
	if (!probe->scope_ips)
		return;
	mutex_lock(&fprobe_pmu_scope_mutex);
	list_del(&probe->scope_list);
	/*
	 * A failure leaves the ops on more functions than the scopes have:
	 * their calls push frames no probe looks for.
	 */
	if (fprobe_pmu_scope_update())
		pr_warn_once("the functions of a scope could not be removed\n");
	mutex_unlock(&fprobe_pmu_scope_mutex);
}

/* Unregister the fprobe of @probe, then its scope */
static void fprobe_pmu_unregister(struct fprobe_pmu_probe *probe)
{
	/* This waits for the running handlers of the probe. */
	unregister_fprobe(&probe->fp);
	fprobe_pmu_unregister_scope(probe);
}

/*
 * Register the fprobe of @probe on the functions of its filters, after the
 * counting of its scope: -ENOENT if they select none, -E2BIG past
 * FPROBE_PMU_MAX_FUNCS (fprobe_ips_from_filter())
 */
static int fprobe_pmu_register(struct fprobe_pmu_probe *probe)
{
	char *globs, *scope;
	unsigned long *addrs;
	int ret;

	ret = fprobe_pmu_split_filter(probe->filter, &globs, &scope);
	if (ret)
		return ret;
	if (scope) {
		ret = fprobe_pmu_register_scope(probe, scope);
		kfree(scope);
		if (ret) {
			kfree(globs);
			return ret;
		}
	}
	probe->selective = probe->opener || probe->nr_scope;
	ret = fprobe_ips_from_filter(globs, probe->notfilter,
				     FPROBE_PMU_MAX_FUNCS, 0, &addrs);
	kfree(globs);
	if (ret > 0) {
		ret = register_fprobe_ips(&probe->fp, addrs, ret);
		kvfree(addrs);
	}
	if (ret < 0)
		fprobe_pmu_unregister_scope(probe);
	return ret;
}

static void fprobe_pmu_free_probe(struct fprobe_pmu_probe *probe)
{
	put_pid(probe->opener);
	free_percpu(probe->active);
	kfree(probe->scope_ips);
	trace_fprobe_free_args(probe->fetch);
	kfree(probe->notfilter);
	kfree(probe->filter);
	kfree(probe);
}

static void fprobe_pmu_put_probe(struct fprobe_pmu_probe *probe)
{
	if (!refcount_dec_and_mutex_lock(&probe->ref, &fprobe_pmu_mutex))
		return;
	list_del(&probe->list);
	mutex_unlock(&fprobe_pmu_mutex);
	fprobe_pmu_unregister(probe);
	fprobe_pmu_free_probe(probe);
}

static void fprobe_pmu_event_destroy(struct perf_event *event)
{
	struct fprobe_pmu_probe *probe = event->pmu_private;

	if (is_sampling_event(event))
		atomic_dec(&probe->nr_sampling);
	if (fprobe_pmu_has_filter(event))
		atomic_dec(&probe->nr_filtered);
	fprobe_pmu_put_probe(probe);
	event->pmu_private = NULL;
}

/* Check the attributes of a new (not inherited) event */
static int fprobe_pmu_check_attr(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	if (attr->config & ~FPROBE_PMU_CONFIG_MASK)
		return -EINVAL;
	if ((attr->config & FPROBE_PMU_CONFIG_NARGS_MASK) > FPROBE_PMU_MAX_ARGS)
		return -EINVAL;
	if ((attr->config & FPROBE_PMU_CONFIG_NOEXIT) &&
	    !(attr->config & FPROBE_PMU_CONFIG_ENTRY))
		return -EINVAL;
	/* The filters select exit records: a sampling event that has them */
	if (fprobe_pmu_has_filter(event) &&
	    (!is_sampling_event(event) ||
	     (attr->config & FPROBE_PMU_CONFIG_NOEXIT)))
		return -EINVAL;
	/*
	 * Every record is of a kernel function, called in the host, in any
	 * task, idle included, and is sampled, not a rate: an event that
	 * would see none (exclude_kernel, exclude_host) or only some
	 * (exclude_idle) of them, or whose period is a frequency, is not one
	 * the PMU makes. exclude_user, exclude_hv and exclude_guest leave
	 * out nothing it records: they are taken.
	 */
	if (attr->exclude_kernel || attr->exclude_host || attr->exclude_idle ||
	    attr->freq)
		return -EINVAL;
	/* No record is more precise than another: no skid to remove */
	if (attr->precise_ip)
		return -EOPNOTSUPP;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	return 0;
}

static bool fprobe_pmu_probe_match(struct fprobe_pmu_probe *probe, u64 config,
				   struct pid *opener, const char *filter,
				   const char *notfilter)
{
	if (probe->config != config || probe->opener != opener ||
	    probe->mod_gen != atomic_read(&fprobe_pmu_mod_gen) ||
	    strcmp(probe->filter, filter))
		return false;
	if (!probe->notfilter || !notfilter)
		return probe->notfilter == notfilter;
	return !strcmp(probe->notfilter, notfilter);
}

/*
 * The probe in use for @config, @opener and the filters, or NULL; under the
 * mutex
 */
static struct fprobe_pmu_probe *fprobe_pmu_find_probe(u64 config,
						      struct pid *opener,
						      const char *filter,
						      const char *notfilter)
{
	struct fprobe_pmu_probe *probe;

	lockdep_assert_held(&fprobe_pmu_mutex);
	list_for_each_entry(probe, &fprobe_pmu_probes, list) {
		if (fprobe_pmu_probe_match(probe, config, opener, filter,
					   notfilter))
			return probe;
	}
	return NULL;
}

/*
 * Get the probe for the events of @attr: the one in use for the same config,
 * filters and opener (with FPROBE_PMU_CONFIG_EXCLUDE_OPENER, the current
 * task's thread group), or a new one, registered. The filters are consumed.
 *
 * Expanding the globs and registering the fprobe can take long (every
 * traceable function for "*"): it is done without fprobe_pmu_mutex, so
 * that other opens and closes do not wait on it. If another open made a
 * probe for the same attributes meanwhile, that one is used and the new
 * one is unregistered.
 */
static struct fprobe_pmu_probe *
fprobe_pmu_get_probe(struct perf_event_attr *attr, char *filter, char *notfilter,
		     struct trace_probe *fetch)
{
	struct fprobe_pmu_probe *probe, *other;
	struct pid *opener = NULL;
	u32 gen, mod_gen;
	int ret;

	if (attr->config & FPROBE_PMU_CONFIG_EXCLUDE_OPENER)
		opener = task_tgid(current);
	ret = mutex_lock_killable(&fprobe_pmu_mutex);
	if (ret)
		goto out_free_filters;
	probe = fprobe_pmu_find_probe(attr->config & ~FPROBE_PMU_CONFIG_FILTERS,
				      opener, filter, notfilter);
	if (probe) {
		refcount_inc(&probe->ref);
		mutex_unlock(&fprobe_pmu_mutex);
		trace_fprobe_free_args(fetch);
		kfree(notfilter);
		kfree(filter);
		return probe;
	}
	/* The buffers of the fetch arguments, before a handler can use them */
	if (fetch && !fprobe_pmu_fetch_bufs) {
		fprobe_pmu_fetch_bufs = alloc_percpu(struct fprobe_pmu_fetch_bufs);
		if (!fprobe_pmu_fetch_bufs) {
			mutex_unlock(&fprobe_pmu_mutex);
			ret = -ENOMEM;
			goto out_free_filters;
		}
	}
	/* Tags the entry data from the first call on: set before registering */
	gen = ++fprobe_pmu_gen;
	/* Read before the filter is expanded: a module may come meanwhile */
	mod_gen = atomic_read(&fprobe_pmu_mod_gen);
	mutex_unlock(&fprobe_pmu_mutex);

	probe = kzalloc(sizeof(*probe), GFP_KERNEL_ACCOUNT);
	if (!probe) {
		ret = -ENOMEM;
		goto out_free_filters;
	}
	probe->gen = gen;
	probe->mod_gen = mod_gen;
	probe->filter = filter;
	probe->notfilter = notfilter;
	probe->fetch = fetch;
	probe->opener = get_pid(opener);
	filter = NULL;
	notfilter = NULL;
	fetch = NULL;
	ret = -ENOMEM;
	probe->active = alloc_percpu_gfp(struct hlist_head, GFP_KERNEL_ACCOUNT);
	if (!probe->active)
		goto out_free_probe;
	refcount_set(&probe->ref, 1);
	/* The filters are the events' own: not the probe's */
	probe->config = attr->config & ~FPROBE_PMU_CONFIG_FILTERS;
	probe->nargs = attr->config & FPROBE_PMU_CONFIG_NARGS_MASK;
	probe->entry = attr->config & FPROBE_PMU_CONFIG_ENTRY;
	probe->exit = !(attr->config & FPROBE_PMU_CONFIG_NOEXIT);
	probe->fp.entry_handler = fprobe_pmu_entry;
	probe->fp.missed_handler = fprobe_pmu_missed;
	if (probe->exit) {
		probe->fp.exit_handler = fprobe_pmu_exit;
		probe->fp.entry_data_size = struct_size_t(struct fprobe_pmu_call,
							  args, probe->nargs);
	}

	ret = fprobe_pmu_register(probe);
	if (ret)
		goto out_free_probe;

	mutex_lock(&fprobe_pmu_mutex);
	other = fprobe_pmu_find_probe(probe->config, probe->opener,
				      probe->filter, probe->notfilter);
	if (other) {
		/* Made by another open meanwhile: share it. */
		refcount_inc(&other->ref);
		mutex_unlock(&fprobe_pmu_mutex);
		fprobe_pmu_unregister(probe);
		fprobe_pmu_free_probe(probe);
		return other;
	}
	list_add(&probe->list, &fprobe_pmu_probes);
	mutex_unlock(&fprobe_pmu_mutex);
	return probe;

out_free_probe:
	fprobe_pmu_free_probe(probe);
out_free_filters:
	trace_fprobe_free_args(fetch);
	kfree(notfilter);
	kfree(filter);
	return ERR_PTR(ret);
}

/*
 * Whether a fetch argument of @tp reads memory: anything but a register
 * (an argument of the first FPROBE_PMU_MAX_ARGS, which every architecture
 * passes in registers; the others may be on the stack), the stack
 * pointer, an immediate, and $comm.
 */
static bool fprobe_pmu_reads_memory(const struct trace_probe *tp)
{
	const struct fetch_insn *code;
	unsigned int i;

	for (i = 0; i < tp->nr_args; i++) {
		code = tp->args[i].code;
		/* $comm and an immediate string: the string is no probed memory */
		if (code->op == FETCH_OP_COMM || code->op == FETCH_OP_DATA)
			continue;
		for (; code->op != FETCH_OP_END; code++) {
			switch (code->op) {
			case FETCH_OP_ARG:
				if (code->param >= FPROBE_PMU_MAX_ARGS)
					return true;
				break;
			case FETCH_OP_STACKP:
			case FETCH_OP_IMM:
			case FETCH_OP_ST_RAW:
			case FETCH_OP_MOD_BF:
				break;
			default:
				return true;
			}
		}
	}
	return false;
}

/*
 * Whether the current task may read memory at the probed functions: what
 * bpf_probe_read_kernel() and bpf_probe_read_user() take, CAP_PERFMON and
 * CAP_BPF (or CAP_SYS_ADMIN). CAP_PERFMON alone opens an event, as for a
 * kprobe PMU event, which reads no memory.
 */
static bool fprobe_pmu_memory_capable(void)
{
	return perfmon_capable() && bpf_capable();
}

static int fprobe_pmu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	char *filter, *notfilter = NULL;
	struct fprobe_pmu_probe *probe;
	struct trace_probe *fetch;
	int ret;

	if (attr->type != fprobe_pmu.type)
		return -ENOENT;

	if (is_sampling_event(event))
		local64_set(&event->hw.period_left, -(s64)event->hw.sample_period);

	/* An inherited event shares the probe of its parent. */
	if (event->parent) {
		probe = event->parent->pmu_private;
		if (!probe)
			return -EINVAL;
		refcount_inc(&probe->ref);
		goto out_set;
	}

	/*
	 * The same rules as for kprobe PMU events: CAP_PERFMON, the LSM's
	 * say on tracing with perf, and no kprobes under lockdown.
	 */
	if (!perfmon_capable())
		return -EACCES;
	ret = perf_allow_tracepoint();
	if (ret)
		return ret;
	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (ret)
		return ret;

	ret = fprobe_pmu_check_attr(event);
	if (ret)
		return ret;

	filter = fprobe_pmu_copy_filter(attr->config1);
	if (IS_ERR(filter))
		return PTR_ERR(filter);
	/* Fetch arguments are read for the entry records */
	fetch = fprobe_pmu_parse_fetch(filter);
	ret = PTR_ERR_OR_ZERO(fetch);
	if (!ret && fetch && !(attr->config & FPROBE_PMU_CONFIG_ENTRY))
		ret = -EINVAL;
	if (!ret && fetch && fprobe_pmu_reads_memory(fetch) &&
	    !fprobe_pmu_memory_capable())
		ret = -EACCES;
	if (ret)
		goto out_free;
	if (attr->config2) {
		notfilter = fprobe_pmu_copy_filter(attr->config2);
		if (IS_ERR(notfilter)) {
			ret = PTR_ERR(notfilter);
			notfilter = NULL;
			goto out_free;
		}
		/* Neither fetch arguments nor a scope there */
		if (strpbrk(notfilter, ";@")) {
			ret = -EINVAL;
			goto out_free;
		}
	}

	probe = fprobe_pmu_get_probe(attr, filter, notfilter, fetch);
	if (IS_ERR(probe))
		return PTR_ERR(probe);

out_set:
	if (is_sampling_event(event))
		atomic_inc(&probe->nr_sampling);
	if (fprobe_pmu_has_filter(event))
		atomic_inc(&probe->nr_filtered);
	event->pmu_private = probe;
	event->destroy = fprobe_pmu_event_destroy;
	return 0;

out_free:
	if (!IS_ERR_OR_NULL(fetch))
		trace_fprobe_free_args(fetch);
	kfree(notfilter);
	kfree(filter);
	return ret;
}

static int fprobe_pmu_add(struct perf_event *event, int flags)
{
	struct fprobe_pmu_probe *probe = event->pmu_private;

	event->hw.state = (flags & PERF_EF_START) ? 0 : PERF_HES_STOPPED;
	hlist_add_head_rcu(&event->hlist_entry, this_cpu_ptr(probe->active));
	perf_event_update_userpage(event);
	return 0;
}

static void fprobe_pmu_del(struct perf_event *event, int flags)
{
	hlist_del_rcu(&event->hlist_entry);
}

static void fprobe_pmu_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void fprobe_pmu_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

/* The handlers add to event->count and to the lost count directly */
static void fprobe_pmu_read(struct perf_event *event)
{
}

PMU_FORMAT_ATTR(nargs, "config:0-2");
PMU_FORMAT_ATTR(entry, "config:3");
PMU_FORMAT_ATTR(noexit, "config:4");
PMU_FORMAT_ATTR(errors, "config:5");
PMU_FORMAT_ATTR(exclude_opener, "config:6");
PMU_FORMAT_ATTR(min_duration, "config3:0-63");

static struct attribute *fprobe_pmu_format_attrs[] = {
	&format_attr_nargs.attr,
	&format_attr_entry.attr,
	&format_attr_noexit.attr,
	&format_attr_errors.attr,
	&format_attr_exclude_opener.attr,
	&format_attr_min_duration.attr,
	NULL,
};

static const struct attribute_group fprobe_pmu_format_group = {
	.name	= "format",
	.attrs	= fprobe_pmu_format_attrs,
};

/* caps/max_fetch: the most fetch arguments a filter takes */
static ssize_t max_fetch_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%d\n", FPROBE_PMU_MAX_FETCH);
}

static DEVICE_ATTR_RO(max_fetch);

/* caps/max_funcs: the most functions an event, or its scope, attaches to */
static ssize_t max_funcs_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%d\n", FPROBE_PMU_MAX_FUNCS);
}

static DEVICE_ATTR_RO(max_funcs);

/* caps/scope: the filter takes '@' globs, a scope */
static ssize_t scope_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "1\n");
}

static DEVICE_ATTR_RO(scope);

static struct attribute *fprobe_pmu_caps_attrs[] = {
	&dev_attr_max_fetch.attr,
	&dev_attr_max_funcs.attr,
	&dev_attr_scope.attr,
	NULL,
};

static const struct attribute_group fprobe_pmu_caps_group = {
	.name	= "caps",
	.attrs	= fprobe_pmu_caps_attrs,
};

static const struct attribute_group *fprobe_pmu_attr_groups[] = {
	&fprobe_pmu_format_group,
	&fprobe_pmu_caps_group,
	NULL,
};

static struct pmu fprobe_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= fprobe_pmu_event_init,
	.add		= fprobe_pmu_add,
	.del		= fprobe_pmu_del,
	.start		= fprobe_pmu_start,
	.stop		= fprobe_pmu_stop,
	.read		= fprobe_pmu_read,
	.attr_groups	= fprobe_pmu_attr_groups,
};

/**
 * fprobe_pmu_type() - Get the perf event type of the fprobe PMU.
 *
 * For the KUnit suite, which opens its events with
 * perf_event_create_kernel_counter() and has no sysfs to read it from.
 *
 * Return: the value for perf_event_attr.type, or -ENODEV if the PMU is not
 * registered.
 */
int fprobe_pmu_type(void)
{
	return READ_ONCE(fprobe_pmu_registered) ? fprobe_pmu.type : -ENODEV;
}

#ifdef CONFIG_MODULES
/*
 * A module comes: the probes made before it are no longer shared with the
 * events opened from now on, so that an event sees the functions of the
 * modules loaded when it was opened. The functions of a module that goes
 * leave the probes with it (fprobe's own module notifier).
 */
static int fprobe_pmu_module_cb(struct notifier_block *nb, unsigned long val,
				void *data)
{
	if (val == MODULE_STATE_COMING)
		atomic_inc(&fprobe_pmu_mod_gen);
	return NOTIFY_DONE;
}

static struct notifier_block fprobe_pmu_module_nb = {
	.notifier_call = fprobe_pmu_module_cb,
};

static int __init fprobe_pmu_init_module_notifier(void)
{
	return register_module_notifier(&fprobe_pmu_module_nb);
}
#else
static inline int fprobe_pmu_init_module_notifier(void)
{
	return 0;
}
#endif

static int __init fprobe_pmu_init(void)
{
	int ret;

	/* Before any event can be opened: none may miss a module */
	ret = fprobe_pmu_init_module_notifier();
	if (ret)
		return ret;
	ret = perf_pmu_register(&fprobe_pmu, "fprobe", -1);
	if (ret) {
		pr_warn("failed to register the fprobe PMU: %d\n", ret);
		return ret;
	}
	WRITE_ONCE(fprobe_pmu_registered, true);
	return 0;
}
device_initcall(fprobe_pmu_init);
