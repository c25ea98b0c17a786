// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe - Simple ftrace probe wrapper for function entry and exit,
 * built on the function graph tracer.
 *
 * Where it departs from mainline's fprobe (as of v6.19: the function graph
 * tracer, an rhltable of the probed addresses, entry-only fprobes on an
 * ftrace_ops), and why; instructions counted per call on x86_64:
 *
 *  here                          mainline              why
 *  ----------------------------  --------------------  ----------------------
 *  a call that the recursion     not counted           6.12's fprobe counted
 *  lock stops is counted in                            it, and BPF's
 *  nmissed                                             kprobe_multi reports
 *                                                      it
 *  one ftrace_ops runs the       fgraph's ops enters   one pass, not two:
 *  entry handlers and hooks      the fprobes with an   entry+exit 627 -> 357
 *  the return itself (x86_64,    exit handler          (arm64: 692 -> 410)
 *  arm64, riscv, powerpc)
 *  several globs and a not-      one glob              the filters of the
 *  filter in one walk                                  fprobe PMU
 *  no handler where RCU is not   no such test          unregister_fprobe()
 *  watching                                            waits for a grace
 *                                                      period
 *  no handler while an           handlers run          "*" ran them 690,000
 *  fprobe's functions are                              times from the text
 *  being hooked                                        patching's own calls
 *  missed_handler                nmissed only          the PMU counts lost
 *                                                      calls per event
 *  no lookup in an NMI in the    looks up              the lookup would wait
 *  middle of a move by a                               for ever for the move
 *  resize of the rhltable                              it interrupted
 */
#define pr_fmt(fmt) "fprobe: " fmt

#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/fprobe.h>
#include <linux/glob.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include <asm/fprobe.h>

#include "trace.h"

/*
 * Where the architecture says where the return address is in an ftrace_ops
 * callback, fprobe_ftrace_ops serves every fprobe, and hooks the returns
 * that the exit handlers need itself (see below).
 */
#ifdef arch_fprobe_return_address_ptr
#define FPROBE_FTRACE_RETURN	1
#else
#define FPROBE_FTRACE_RETURN	0
#endif

/*
 * All fprobes share one ftrace_ops, fprobe_ftrace_ops, and one fgraph_ops,
 * fprobe_graph_ops. Where the architecture says where the return address is
 * in an ftrace_ops callback (arch_fprobe_return_address_ptr() in
 * asm/fprobe.h), the ftrace_ops serves every fprobe (FPROBE_FTRACE_RETURN):
 *
 *  every fprobe --> fprobe_ftrace_ops: fprobe_ftrace_entry() at the entry,
 *                   which runs the entry handlers and, if some fprobes at
 *                   the address have an exit handler, pushes a function
 *                   graph frame for them (function_graph_enter_ops())
 *                   fprobe_graph_ops (FGRAPH_FL_OWN_ENTRY): fprobe_return()
 *                   at the return of those calls
 *
 * So a call costs one ftrace callback, one address lookup and one recursion
 * lock at the entry, and a shadow stack frame and a return hook only when an
 * exit handler wants the return.
 *
 * s390 and loongarch do not define it yet. Their ftrace_graph_func() hooks
 * the return through the ftrace_regs too, but each would need its own frames
 * checked against its unwinder first (ftrace_regs_graph_retp()). There, the
 * two ops split the fprobes by whether they have an exit handler:
 *
 *  fprobe with an exit handler --> fprobe_graph_ops (fgraph_ops)
 *                                  fprobe_entry() at the entry, and
 *                                  fprobe_return() at the return
 *  fprobe with no exit handler --> fprobe_ftrace_ops (ftrace_ops)
 *                                  fprobe_ftrace_entry() at the entry only
 *
 * and an entry-only fprobe costs one ftrace callback and nothing of the
 * function graph tracer. The rest of this comment describes the split;
 * with FPROBE_FTRACE_RETURN, read "the kind of an fprobe" as one kind for
 * all, served by fprobe_ftrace_ops.
 *
 * The ftrace filter of each ops is the union of the addresses probed by the
 * fprobes it serves, and each ops is registered only while its filter is not
 * empty (an empty filter would trace every function). An address probed by
 * both kinds of fprobes is in both filters, and leaves one of them only when
 * the last fprobe of that kind stops probing it. With fp1 (entry and exit
 * handlers) on a and b, fp2 (entry handler only) on a, and fp3 (entry
 * handler only) on c:
 *
 *  address | fprobes  | filter of fprobe_graph_ops | of fprobe_ftrace_ops
 *  --------+----------+----------------------------+---------------------
 *  a       | fp1, fp2 | a                          | a
 *  b       | fp1      | b                          |
 *  c       | fp3      |                            | c
 *
 * Unregistering fp2 takes a out of the filter of fprobe_ftrace_ops only;
 * unregistering fp1 instead takes a and b out of that of fprobe_graph_ops.
 *
 * Two tables find the fprobes from the callbacks of both ops:
 *
 *  fprobe_ip_table (rhltable, key: probed address)
 *  +-----------+     +------------------------+     +------------------------+
 *  | bucket(a) |---->| fprobe_hlist_node      |---->| fprobe_hlist_node      |
 *  +-----------+     | addr = a, fp = fp1     |     | addr = a, fp = fp2     |
 *  | ...       |     +------------------------+     +------------------------+
 *  +-----------+
 *
 *  fprobe_table (hlist hash, key: fprobe address)
 *  +-----------+     +------------------------+
 *  | bucket(f) |---->| fprobe_hlist (of fp1)  |
 *  +-----------+     |   array[0]: addr a     |  <- nodes of fprobe_ip_table
 *  | ...       |     |   array[1]: addr b     |
 *  +-----------+     +------------------------+
 *
 * Each fprobe owns one fprobe_hlist holding one fprobe_hlist_node per probed
 * address. The entry callbacks (fprobe_entry() and fprobe_ftrace_entry())
 * look up the nodes of the traced address in fprobe_ip_table, and each runs
 * only the fprobes of its own kind there. The return callback
 * (fprobe_return()) checks in fprobe_table that an fprobe saved at entry is
 * still registered, since it may have been unregistered (and freed) while
 * the traced function was running.
 *
 * On function entry, fprobe_entry() (or, with FPROBE_FTRACE_RETURN,
 * fprobe_ftrace_entry_one() for a lone fprobe and fprobe_ftrace_entry_nodes()
 * for several) reserves ONE block on the task's shadow stack
 * (fgraph_reserve_data() or function_graph_enter_ops()) for all fprobes on
 * that address which have an exit handler. Each of them gets a header word,
 * followed by its entry data, rounded up to longs. With two such fprobes, where fp1 has 2 longs of
 * entry data and fp2 none, the block is: (the stack grows upward)
 *
 *  +--------------------------------------------+
 *  | 0 (end mark, only if the block is not full)|
 *  +--------------------------------------------+
 *  | header: fp2 | (0 << FPROBE_HEADER_SIZE_SHIFT)
 *  +--------------------------------------------+
 *  | entry data of fp1, word 1                  |
 *  | entry data of fp1, word 0                  | <- entry_data of fp1
 *  +--------------------------------------------+
 *  | header: fp1 | (2 << FPROBE_HEADER_SIZE_SHIFT)
 *  +--------------------------------------------+ <- fgraph_reserve_data()
 *
 * The header is one long when the architecture defines
 * ARCH_FPROBE_HEADER_MSB_PATTERN: the top FPROBE_HEADER_SIZE_BITS of a kernel
 * address are then always the same, so these bits hold the size of the entry
 * data in longs and the fprobe address is restored from the pattern.
 * Otherwise the header is two longs: the fprobe address and the size.
 *
 * An fprobe whose entry handler returns non-zero gets no header, so its exit
 * handler is not called (and if none gets one, the frame is dropped with
 * function_graph_cancel_ops()). On function return, fprobe_return() gets
 * the block back (from fgraph_retrieve_data(), or with FPROBE_FTRACE_RETURN
 * from fgraph itself, as the own_retfunc of fprobe_graph_ops) and calls the
 * exit handler of each fprobe in it that is still registered, with the
 * ftrace_regs saved at the return.
 *
 * Both tables are updated under fprobe_mutex, and read under RCU (or with
 * preemption disabled) from the callbacks. unregister_fprobe() waits for an
 * RCU grace period after removing an fprobe from them, so no handler of that
 * fprobe can run after it returns. A grace period does not wait for a CPU
 * where RCU is not watching: the callbacks called there touch no fprobe and
 * call no handler (rcu_is_watching()).
 */

#define FPROBE_HASH_BITS	6
#define FPROBE_TABLE_SIZE	BIT(FPROBE_HASH_BITS)

#define SIZE_IN_LONG(x)		DIV_ROUND_UP(x, sizeof(long))

/* The largest block fgraph_reserve_data() can reserve, in longs */
#define FPROBE_RESERVE_MAX_WORDS	((int)(FGRAPH_MAX_DATA_SIZE / sizeof(long)))

#if defined(CONFIG_64BIT) && defined(ARCH_FPROBE_HEADER_MSB_PATTERN)
/*
 * One long header:
 *  FPROBE_HEADER_SIZE (top 4 bits)	size of the entry data in longs
 *  FPROBE_HEADER_FP (the rest)		lower bits of the fprobe address
 */
#define FPROBE_HEADER_SIZE_IN_LONG	1
#define FPROBE_HEADER_SIZE_BITS		4
#define FPROBE_HEADER_SIZE_MAX		(BIT(FPROBE_HEADER_SIZE_BITS) - 1)
#define FPROBE_HEADER_SIZE_SHIFT	(BITS_PER_LONG - FPROBE_HEADER_SIZE_BITS)
#define FPROBE_HEADER_FP_MASK		GENMASK(FPROBE_HEADER_SIZE_SHIFT - 1, 0)
#define FPROBE_HEADER_FP_MSB		\
	(ARCH_FPROBE_HEADER_MSB_PATTERN << FPROBE_HEADER_SIZE_SHIFT)

/* Check that the address of @fp can be restored from a header */
static inline bool fprobe_header_encodable(struct fprobe *fp)
{
	return ((unsigned long)fp & ~FPROBE_HEADER_FP_MASK) == FPROBE_HEADER_FP_MSB;
}

/*
 * Make the header of @fp, for the size of its entry data (fprobe_init()):
 * the handlers only copy it and compare it.
 */
static inline void init_fprobe_header(struct fprobe *fp)
{
	BUILD_BUG_ON(MAX_FPROBE_DATA_SIZE_WORD > FPROBE_HEADER_SIZE_MAX);

	fp->entry_header = ((unsigned long)fp & FPROBE_HEADER_FP_MASK) |
		((unsigned long)SIZE_IN_LONG(fp->entry_data_size) <<
		 FPROBE_HEADER_SIZE_SHIFT);
}

/* The size of the entry data of @fp in longs */
static inline unsigned int fprobe_data_words(struct fprobe *fp)
{
	return fp->entry_header >> FPROBE_HEADER_SIZE_SHIFT;
}

/* Write the header for @fp at @stack */
static inline void write_fprobe_header(unsigned long *stack, struct fprobe *fp)
{
	*stack = fp->entry_header;
}

/* Whether the header at @stack is the one @fp writes */
static inline bool fprobe_header_is(unsigned long *stack, struct fprobe *fp)
{
	return *stack == fp->entry_header;
}

/* Get the fprobe address from the header at @stack */
static inline struct fprobe *read_fprobe_header_fp(unsigned long *stack)
{
	return (struct fprobe *)((*stack & FPROBE_HEADER_FP_MASK) |
				 FPROBE_HEADER_FP_MSB);
}

/* Get the entry data size in longs from the header at @stack */
static inline unsigned int read_fprobe_header_size(unsigned long *stack)
{
	return *stack >> FPROBE_HEADER_SIZE_SHIFT;
}

#else
/* Two longs header: the fprobe address and the entry data size in longs */
struct __fprobe_header {
	struct fprobe	*fp;
	unsigned long	size_words;
};

#define FPROBE_HEADER_SIZE_IN_LONG	SIZE_IN_LONG(sizeof(struct __fprobe_header))

/* Any fprobe address can be saved in a two longs header */
static inline bool fprobe_header_encodable(struct fprobe *fp)
{
	return true;
}

/* Nothing to make: the header is the fprobe address and the data size */
static inline void init_fprobe_header(struct fprobe *fp)
{
}

/* The size of the entry data of @fp in longs */
static inline unsigned int fprobe_data_words(struct fprobe *fp)
{
	return SIZE_IN_LONG(fp->entry_data_size);
}

/* Write the header for @fp at @stack */
static inline void write_fprobe_header(unsigned long *stack, struct fprobe *fp)
{
	struct __fprobe_header *fph = (struct __fprobe_header *)stack;

	fph->fp = fp;
	fph->size_words = fprobe_data_words(fp);
}

/* Whether the header at @stack, which names @fp, is the one @fp writes */
static inline bool fprobe_header_is(unsigned long *stack, struct fprobe *fp)
{
	return ((struct __fprobe_header *)stack)->size_words ==
	       fprobe_data_words(fp);
}

/* Get the fprobe address from the header at @stack */
static inline struct fprobe *read_fprobe_header_fp(unsigned long *stack)
{
	return ((struct __fprobe_header *)stack)->fp;
}

/* Get the entry data size in longs from the header at @stack */
static inline unsigned int read_fprobe_header_size(unsigned long *stack)
{
	return ((struct __fprobe_header *)stack)->size_words;
}
#endif

/* Size in longs of the header and entry data of @fp on the shadow stack */
static inline int fprobe_reserve_words(struct fprobe *fp)
{
	return FPROBE_HEADER_SIZE_IN_LONG + fprobe_data_words(fp);
}

static DEFINE_MUTEX(fprobe_mutex);
static struct hlist_head fprobe_table[FPROBE_TABLE_SIZE];
static struct rhltable fprobe_ip_table;
/* The number of distinct addresses that the fprobes of fprobe_graph_ops use */
static int fprobe_graph_nr_addrs;

/* The number of distinct addresses that the fprobes of fprobe_ftrace_ops use */
static int fprobe_ftrace_nr_addrs;

/*
 * Is @fp served by fprobe_ftrace_ops (true) or by fprobe_graph_ops (false)?
 * Only the fprobes with an exit handler need the function graph tracer.
 */
static __always_inline bool fprobe_is_ftrace(struct fprobe *fp)
{
	/* fprobe_ftrace_entry() hooks the returns itself: it serves them all */
	if (FPROBE_FTRACE_RETURN)
		return true;
	return !fp->exit_handler;
}

/* Hash the probed address (the key of fprobe_ip_table) */
static u32 fprobe_node_hashfn(const void *data, u32 len, u32 seed)
{
	return hash_long(*(unsigned long *)data ^ seed, 32);
}

/* Hash a node of fprobe_ip_table by its address */
static u32 fprobe_node_obj_hashfn(const void *data, u32 len, u32 seed)
{
	const struct fprobe_hlist_node *node = data;

	return hash_long(node->addr ^ seed, 32);
}

/* Compare a node of fprobe_ip_table with an address */
static int fprobe_node_cmp(struct rhashtable_compare_arg *arg, const void *ptr)
{
	const struct fprobe_hlist_node *node = ptr;

	return node->addr != *(unsigned long *)arg->key;
}

static const struct rhashtable_params fprobe_rht_params = {
	.head_offset		= offsetof(struct fprobe_hlist_node, hlist),
	.key_offset		= offsetof(struct fprobe_hlist_node, addr),
	.key_len		= sizeof_field(struct fprobe_hlist_node, addr),
	.hashfn			= fprobe_node_hashfn,
	.obj_hashfn		= fprobe_node_obj_hashfn,
	.obj_cmpfn		= fprobe_node_cmp,
	.automatic_shrinking	= true,
};

/*
 * RCU read lock for the function graph callbacks. Disabling preemption makes
 * an RCU read-side critical section, and unlike rcu_read_lock() the notrace
 * variant never calls a function that could be probed (preempt_count_add()
 * with CONFIG_DEBUG_PREEMPT), which would recurse into the callbacks. The
 * lockdep annotation keeps the RCU checks in rhashtable happy.
 *
 * Where RCU is not watching this CPU (the idle loop around the low-power
 * state, early entry and exit code, a CPU going offline), a grace period
 * does not wait for the callbacks, so unregister_fprobe() could return and
 * the fprobe be freed while a callback there still reads it. There the
 * callbacks read no fprobe and call no handler, not even the missed
 * handler, as ftrace does for an ftrace_ops with FTRACE_OPS_FL_RCU: such
 * calls are lost uncounted. Most architectures mark that code noinstr, and
 * then no probed function runs there; the check is for the code that is
 * not. Nothing is taken then and false is returned: lockdep is told of the
 * read lock only after the test, since taking it there is itself what
 * lockdep warns about.
 */
static __always_inline bool fprobe_rcu_read_lock(void)
{
	preempt_disable_notrace();
	if (unlikely(!rcu_is_watching())) {
		preempt_enable_notrace();
		return false;
	}
	rcu_lock_acquire(&rcu_lock_map);
	return true;
}

static __always_inline void fprobe_rcu_read_unlock(void)
{
	rcu_lock_release(&rcu_lock_map);
	preempt_enable_notrace();
}

/* Find the nodes probing @addr. Must be called under RCU or fprobe_mutex. */
static __always_inline struct rhlist_head *fprobe_ip_lookup(unsigned long addr)
{
	return rhltable_lookup(&fprobe_ip_table, &addr, fprobe_rht_params);
}

/*
 * Find the nodes probing @addr for a call of it, under RCU: NULL, as if there
 * were none, in an NMI that came in the middle of the move of an entry by a
 * resize of the rhltable, where the lookup would wait for ever
 * (rhashtable_lookup_may_spin()). Only NMIs ask, to keep the test off the
 * path of the other calls: a kprobe or a breakpoint that root places inside
 * a move, whose exception is not an NMI (arm64, an optimized kprobe on x86),
 * is not covered.
 */
static __always_inline struct rhlist_head *fprobe_call_lookup(unsigned long addr)
{
	struct rhlist_head *head;

	if (unlikely(in_nmi()) && rhashtable_lookup_may_spin(&fprobe_ip_table.ht))
		return NULL;
	/*
	 * Lockdep knows of the RCU read lock (fprobe_rcu_read_lock()). The
	 * rhltable's own checks of it would call rcu_read_lock_held(), which
	 * can be probed: with every function probed, each probed call went
	 * through it and was caught again by the recursion lock. Without
	 * CONFIG_LOCKDEP, lockdep_off() is nothing.
	 */
	lockdep_off();
	head = fprobe_ip_lookup(addr);
	lockdep_on();
	return head;
}

/*
 * Set the reserve_words of the nodes on @head, all at one address, and of
 * @new, a node about to be inserted there (or NULL): the longs that the
 * fprobes with an exit handler there reserve together at a call (see
 * fprobe_entry_reserve_words()). A call finds the value before or after a
 * change of the nodes, so it must never be less than what the fprobes a
 * call can find there need: it grows before a node is inserted, and shrinks
 * after one is removed, with release, so that a call which reads the value
 * that shrank does not find the removed node. (A call that finds less room
 * than its fprobes need counts those left out as missed; one that finds
 * more marks the end of what it uses.)
 */
static void fprobe_nodes_set_reserve_words(struct rhlist_head *head,
					   struct fprobe_hlist_node *new)
{
	struct fprobe_hlist_node *node;
	struct rhlist_head *pos;
	struct fprobe *fp;
	int total = 0;

	lockdep_assert_held(&fprobe_mutex);

	if (new && new->fp->exit_handler)
		total = fprobe_reserve_words(new->fp);
	rhl_for_each_entry_rcu(node, pos, head, hlist) {
		fp = node->fp;
		if (fp && fp->exit_handler)
			total += fprobe_reserve_words(fp);
	}
	total = min(total, FPROBE_RESERVE_MAX_WORDS);

	/* Not in the table yet: published by its insertion */
	if (new)
		new->reserve_words = total;
	rhl_for_each_entry_rcu(node, pos, head, hlist) {
		/* Pairs with the acquire in fprobe_entry_reserve_words() */
		smp_store_release(&node->reserve_words, total);
	}
}

/*
 * Set the reserve_words of the nodes at @addr, counting @new, which is about
 * to be inserted there (NULL: none), and that of @new (see above)
 */
static void fprobe_nodes_reserve_for(unsigned long addr,
				     struct fprobe_hlist_node *new)
{
	rcu_read_lock();
	fprobe_nodes_set_reserve_words(rhltable_lookup(&fprobe_ip_table, &addr,
						       fprobe_rht_params),
				       new);
	rcu_read_unlock();
}

/*
 * Check whether any fprobe served by fprobe_ftrace_ops (@ftrace true) or by
 * fprobe_graph_ops (@ftrace false) still probes @addr
 */
static bool fprobe_ip_in_use(unsigned long addr, bool ftrace)
{
	struct fprobe_hlist_node *node;
	struct rhlist_head *head, *pos;
	bool used = false;
	struct fprobe *fp;

	lockdep_assert_held(&fprobe_mutex);

	rcu_read_lock();
	head = fprobe_ip_lookup(addr);
	rhl_for_each_entry_rcu(node, pos, head, hlist) {
		fp = node->fp;
		if (fp && fprobe_is_ftrace(fp) == ftrace) {
			used = true;
			break;
		}
	}
	rcu_read_unlock();
	return used;
}

/* Check that @fp is registered. Must be called under RCU or fprobe_mutex. */
static nokprobe_inline bool is_fprobe_still_exist(struct fprobe *fp)
{
	struct hlist_head *head;
	struct fprobe_hlist *fph;

	head = &fprobe_table[hash_ptr(fp, FPROBE_HASH_BITS)];
	hlist_for_each_entry_rcu(fph, head, hlist,
				 lockdep_is_held(&fprobe_mutex)) {
		if (fph->fp == fp)
			return true;
	}
	return false;
}

/* Count a call of @ip that @fp missed, and tell its missed_handler */
static nokprobe_inline void fprobe_missed(struct fprobe *fp, unsigned long ip)
{
	fp->nmissed++;
	if (fp->missed_handler)
		fp->missed_handler(fp, ip);
}

/*
 * Call the entry handler of @fp, which is shared with kprobes (see
 * fprobe_call_entry_handler()). Out of line: it is the uncommon case, and
 * its result would otherwise be kept across kprobe_busy_end() in the
 * callers' registers.
 */
static noinline int
fprobe_call_shared_entry_handler(struct fprobe *fp, unsigned long ip,
				 unsigned long ret_ip, struct ftrace_regs *fregs,
				 void *data)
{
	int ret;

	/*
	 * This user handler is shared with other kprobes and is not expected to be
	 * called recursively. So if any other kprobe handler is running, this will
	 * exit as kprobe does. See the section 'Share the callbacks with kprobes'
	 * in Documentation/trace/fprobe.rst for more information.
	 */
	if (unlikely(kprobe_running())) {
		fprobe_missed(fp, ip);
		return 1;
	}

	kprobe_busy_begin();
	ret = fp->entry_handler(fp, ip, ret_ip, fregs, data);
	kprobe_busy_end();
	return ret;
}

NOKPROBE_SYMBOL(fprobe_call_shared_entry_handler);

/* Call the entry handler of @fp, taking care of kprobes if it is shared */
static nokprobe_inline int
fprobe_call_entry_handler(struct fprobe *fp, unsigned long ip,
			  unsigned long ret_ip, struct ftrace_regs *fregs,
			  void *data)
{
	if (!fp->entry_handler)
		return 0;

	if (likely(!fprobe_shared_with_kprobes(fp)))
		return fp->entry_handler(fp, ip, ret_ip, fregs, data);
	return fprobe_call_shared_entry_handler(fp, ip, ret_ip, fregs, data);
}

/*
 * Count a miss on every enabled fprobe on @head which is served by
 * fprobe_ftrace_ops (@ftrace true) or by fprobe_graph_ops (@ftrace false)
 */
static nokprobe_inline void fprobe_count_missed(struct rhlist_head *head,
						unsigned long ip, bool ftrace)
{
	struct fprobe_hlist_node *node;
	struct rhlist_head *pos;
	struct fprobe *fp;

	rhl_for_each_entry_rcu(node, pos, head, hlist) {
		fp = READ_ONCE(node->fp);
		if (fp && fprobe_is_ftrace(fp) == ftrace && !fprobe_disabled(fp))
			fprobe_missed(fp, ip);
	}
}

/*
 * A call of @ip that the recursion lock stopped is a miss of the fprobes
 * there, served by fprobe_ftrace_ops (@ftrace true) or by fprobe_graph_ops
 * (@ftrace false), as it was for 6.12's fprobe (but where RCU is not
 * watching). The lookup and the missed handlers then run where the
 * recursion lock is taken already, and so cannot stop a probed function
 * they call: a missed handler may call anything (the lookup, with lockdep
 * off, calls nothing that can be probed). fprobe_missing, a bit for each
 * context on each CPU (as the ring buffer's trace_recursive_lock() keeps,
 * without its transition bit), keeps a call made inside a path that counts
 * misses, this one or that of the exit handlers, from entering this one
 * again in the same context: such a call is not counted, nor is one from an
 * interrupt that comes before the interrupt count is raised. The lookup
 * leaves out, as the callbacks' own does, an NMI in the middle of a move by
 * a resize of the rhltable (see fprobe_call_lookup()).
 */
static DEFINE_PER_CPU(unsigned int, fprobe_missing);

/* Enter a path that counts misses, in context @ctx, preemption disabled */
static __always_inline bool fprobe_missing_enter(unsigned int ctx)
{
	if (unlikely(__this_cpu_read(fprobe_missing) & ctx))
		return false;
	/* An interrupt between the load and the store clears what it sets */
	__this_cpu_or(fprobe_missing, ctx);
	return true;
}

static __always_inline void fprobe_missing_exit(unsigned int ctx)
{
	__this_cpu_and(fprobe_missing, ~ctx);
}

static noinline void fprobe_count_recursion(unsigned long ip, bool ftrace)
{
	struct rhlist_head *head;
	unsigned int ctx;

	if (!fprobe_rcu_read_lock())
		return;
	ctx = BIT(interrupt_context_level());
	if (fprobe_missing_enter(ctx)) {
		head = fprobe_call_lookup(ip);
		fprobe_count_missed(head, ip, ftrace);
		fprobe_missing_exit(ctx);
	}
	fprobe_rcu_read_unlock();
}

NOKPROBE_SYMBOL(fprobe_count_recursion);

/*
 * The longs that the fprobes on @head with an exit handler reserve together
 * at a call, as long as they fit in one reserved block: kept up to date in
 * each node by fprobe_nodes_set_reserve_words(), so that no call walks the
 * nodes twice. The disabled fprobes are counted too, since they can be
 * enabled before their entry handlers are called.
 */
static nokprobe_inline int fprobe_entry_reserve_words(struct rhlist_head *head)
{
	struct fprobe_hlist_node *node;

	node = container_of(head, struct fprobe_hlist_node, hlist);
	/*
	 * Before the nodes are walked: pairs with the release in
	 * fprobe_nodes_set_reserve_words()
	 */
	return smp_load_acquire(&node->reserve_words);
}

/*
 * Run the entry handlers of the fprobes on @head which are served by
 * fprobe_ftrace_ops (@ftrace true) or by fprobe_graph_ops (@ftrace false).
 * Those with an exit handler get their header and entry data in
 * @fgraph_data, which has @reserved_words longs. Return how many are used.
 */
static __always_inline int
fprobe_run_entry_handlers(struct rhlist_head *head, bool ftrace,
			  unsigned long ip, unsigned long ret_ip,
			  struct ftrace_regs *fregs,
			  unsigned long *fgraph_data, int reserved_words)
{
	struct fprobe_hlist_node *node;
	struct rhlist_head *pos;
	int used = 0, words, ret;
	struct fprobe *fp;
	void *data;

	rhl_for_each_entry_rcu(node, pos, head, hlist) {
		fp = READ_ONCE(node->fp);
		/* The other ops runs the fprobes of the other kind. */
		if (!fp || fprobe_is_ftrace(fp) != ftrace || fprobe_disabled(fp))
			continue;

		data = NULL;
		words = 0;
		if (fp->exit_handler) {
			words = fprobe_reserve_words(fp);
			/* No room on the shadow stack: skip both handlers. */
			if (used + words > reserved_words) {
				fprobe_missed(fp, ip);
				continue;
			}
			if (words > FPROBE_HEADER_SIZE_IN_LONG)
				data = fgraph_data + used + FPROBE_HEADER_SIZE_IN_LONG;
		}

		ret = fprobe_call_entry_handler(fp, ip, ret_ip, fregs, data);

		/* If entry_handler returns !0, the exit_handler is cancelled. */
		if (!ret && fp->exit_handler) {
			write_fprobe_header(&fgraph_data[used], fp);
			used += words;
		}
	}
	/* Mark the end of the used part for fprobe_return(). */
	if (used < reserved_words)
		fgraph_data[used] = 0;
	return used;
}

#if !FPROBE_FTRACE_RETURN
static int fprobe_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops,
			struct ftrace_regs *fregs)
{
	struct ftrace_ret_stack *ret_stack;
	unsigned long *fgraph_data = NULL;
	unsigned long func = trace->func;
	struct rhlist_head *head;
	int reserved_words;
	unsigned long ret_ip;
	int used = 0;
	int bit;

	if (WARN_ON_ONCE(!fregs))
		return 0;

	/* The return address of the traced function, saved by fgraph */
	ret_stack = ftrace_graph_get_ret_stack(current, 0);
	ret_ip = ret_stack ? ret_stack->ret : 0;

	/*
	 * Do not run handlers recursively, e.g. when a handler calls a probed
	 * function, or when the lookup below hits a probed function.
	 */
	bit = ftrace_test_recursion_trylock(func, ret_ip);
	if (bit < 0) {
		fprobe_count_recursion(func, false);
		return 0;
	}

	if (unlikely(!fprobe_rcu_read_lock())) {
		ftrace_test_recursion_unlock(bit);
		return 0;
	}
	head = fprobe_call_lookup(func);
	if (unlikely(!head))
		goto out_unlock;

	reserved_words = fprobe_entry_reserve_words(head);
	if (reserved_words) {
		fgraph_data = fgraph_reserve_data(gops->idx,
						  reserved_words * sizeof(long));
		/* Then the fprobes with exit handlers are missed below. */
		if (unlikely(!fgraph_data))
			reserved_words = 0;
	}

	used = fprobe_run_entry_handlers(head, false, func, ret_ip, fregs,
					 fgraph_data, reserved_words);

out_unlock:
	fprobe_rcu_read_unlock();
	ftrace_test_recursion_unlock(bit);

	/* The return callback is needed only if an exit handler is set. */
	return used != 0;
}
#endif /* !FPROBE_FTRACE_RETURN */

/*
 * Can the exit handler of @fp, whose entry wrote the header at @header, be
 * called? The fprobe may have been unregistered after the entry (and
 * registered again, with another size of entry data). An entry that ran
 * before unregister_fprobe() started gets its exit until @fp leaves
 * fprobe_table, FPROBE_FL_HOOKING set or not: only a disabled fprobe skips
 * it.
 */
static nokprobe_inline bool fprobe_exit_valid(struct fprobe *fp,
					      unsigned long *header)
{
	return is_fprobe_still_exist(fp) &&
	       !(READ_ONCE(fp->flags) & FPROBE_FL_DISABLED) &&
	       fprobe_header_is(header, fp);
}

/*
 * fprobe_return_data() for the @size_words of @fgraph_data saved by several
 * fprobes, or when the call is a recursion (@missed): then the exit handlers
 * are not called, and each fprobe counts a miss.
 */
static noinline void
fprobe_return_all(unsigned long func, unsigned long *fgraph_data,
		  int size_words, unsigned long ret_ip,
		  struct ftrace_regs *fregs, bool missed)
{
	unsigned int data_words;
	struct fprobe *fp;
	int curr;

	for (curr = 0; curr < size_words && fgraph_data[curr];
	     curr += FPROBE_HEADER_SIZE_IN_LONG + data_words) {
		fp = read_fprobe_header_fp(&fgraph_data[curr]);
		data_words = read_fprobe_header_size(&fgraph_data[curr]);
		if (WARN_ON_ONCE(curr + FPROBE_HEADER_SIZE_IN_LONG + data_words >
				 size_words))
			break;
		if (!fprobe_exit_valid(fp, &fgraph_data[curr]))
			continue;
		if (missed) {
			fprobe_missed(fp, func);
			continue;
		}
		fp->exit_handler(fp, func, ret_ip, fregs,
				 data_words ?
				 fgraph_data + curr + FPROBE_HEADER_SIZE_IN_LONG :
				 NULL);
	}
}

NOKPROBE_SYMBOL(fprobe_return_all);

/*
 * @func returns, and @fgraph_data holds the @size_words longs that its entry
 * saved: call the exit handlers of the fprobes there, with @fregs, whose
 * instruction pointer is where @func returns to.
 */
static __always_inline void
fprobe_return_data(unsigned long func, unsigned long *fgraph_data,
		   int size_words, struct ftrace_regs *fregs)
{
	unsigned long ret_ip = ftrace_regs_get_instruction_pointer(fregs);
	unsigned int data_words, ctx;
	struct fprobe *fp;
	int bit;

	/*
	 * The recursion lock disables preemption, which keeps the fprobes
	 * from being freed while they are accessed: the exit handlers run
	 * in an RCU read-side critical section, as the entry handlers do, and
	 * lockdep is told so, as for them.
	 */
	bit = ftrace_test_recursion_trylock(func, ret_ip);
	if (unlikely(bit < 0)) {
		/* The missed handlers, as on the entry side */
		if (fprobe_rcu_read_lock()) {
			ctx = BIT(interrupt_context_level());
			if (fprobe_missing_enter(ctx)) {
				fprobe_return_all(func, fgraph_data, size_words,
						  ret_ip, fregs, true);
				fprobe_missing_exit(ctx);
			}
			fprobe_rcu_read_unlock();
		}
		return;
	}
	if (unlikely(!rcu_is_watching())) {
		ftrace_test_recursion_unlock(bit);
		return;
	}
	rcu_lock_acquire(&rcu_lock_map);

	/*
	 * The data of one fprobe, the common case, is handled inline. (A
	 * header of 0, the end mark of a block, names no registered fprobe.)
	 */
	data_words = read_fprobe_header_size(fgraph_data);
	if (likely(FPROBE_HEADER_SIZE_IN_LONG + data_words == size_words)) {
		fp = read_fprobe_header_fp(fgraph_data);
		if (fprobe_exit_valid(fp, fgraph_data))
			fp->exit_handler(fp, func, ret_ip, fregs,
					 data_words ?
					 fgraph_data + FPROBE_HEADER_SIZE_IN_LONG :
					 NULL);
	} else {
		fprobe_return_all(func, fgraph_data, size_words, ret_ip, fregs,
				  false);
	}

	rcu_lock_release(&rcu_lock_map);
	ftrace_test_recursion_unlock(bit);
}

#if FPROBE_FTRACE_RETURN
/*
 * The own_retfunc of fprobe_graph_ops: the return of a call whose frame
 * fprobe_ftrace_entry() pushed. fgraph gives the data on its top.
 */
static void fprobe_return(unsigned long func, unsigned long *fgraph_data,
			  int size_words, struct ftrace_regs *fregs)
{
	fprobe_return_data(func, fgraph_data, size_words, fregs);
}
#else
static void fprobe_return(struct ftrace_graph_ret *trace,
			  struct fgraph_ops *gops,
			  struct ftrace_regs *fregs)
{
	unsigned long *fgraph_data;
	int size_bytes;

	if (WARN_ON_ONCE(!fregs))
		return;

	fgraph_data = fgraph_retrieve_data(gops->idx, &size_bytes);
	if (WARN_ON_ONCE(!fgraph_data))
		return;

	fprobe_return_data(trace->func, fgraph_data, SIZE_IN_LONG(size_bytes),
			   fregs);
}
#endif

/* The function graph callbacks can run in any context: never kprobe them. */
#if !FPROBE_FTRACE_RETURN
NOKPROBE_SYMBOL(fprobe_entry);
#endif
NOKPROBE_SYMBOL(fprobe_return);

static struct fgraph_ops fprobe_graph_ops = {
#if FPROBE_FTRACE_RETURN
	/* fprobe_ftrace_entry() pushes the frames */
	.flags		= FGRAPH_FL_OWN_ENTRY,
	.own_retfunc	= fprobe_return,
#else
	.entryfunc	= fprobe_entry,
	.retfunc	= fprobe_return,
#endif
};

/*
 * Add the new addresses @addrs to the filter of fprobe_graph_ops, and
 * register it if this is the first address.
 */
static int fprobe_graph_add_ips(unsigned long *addrs, int num)
{
	int ret;

	lockdep_assert_held(&fprobe_mutex);

	if (!num)
		return 0;

	/*
	 * The first address replaces the whole filter: what a failed removal
	 * may have left in it must not be traced again.
	 */
	ret = ftrace_set_filter_ips(&fprobe_graph_ops.ops, addrs, num, 0,
				    !fprobe_graph_nr_addrs);
	if (ret)
		return ret;

	if (!fprobe_graph_nr_addrs) {
		/* on failure, the next first address replaces the filter */
		ret = register_ftrace_graph(&fprobe_graph_ops);
		if (ret)
			return ret;
	}
	fprobe_graph_nr_addrs += num;
	return 0;
}

/*
 * Remove the addresses @addrs, which no fprobe uses any more, from the
 * filter of fprobe_graph_ops. If no address is left, unregister it first,
 * because an empty filter means tracing all functions.
 */
static void fprobe_graph_remove_ips(unsigned long *addrs, int num)
{
	int ret;

	lockdep_assert_held(&fprobe_mutex);

	if (!num)
		return;

	if (WARN_ON_ONCE(num > fprobe_graph_nr_addrs))
		num = fprobe_graph_nr_addrs;

	/*
	 * Removing copies the filter, which can fail. The addresses are then
	 * left in it: while the ops is registered, their calls find no node and
	 * run no handler, and the next first address drops them. The last
	 * ones go with the whole filter, reset as ftrace_set_filter() says,
	 * which copies nothing.
	 */
	fprobe_graph_nr_addrs -= num;
	if (!fprobe_graph_nr_addrs) {
		unregister_ftrace_graph(&fprobe_graph_ops);
		ret = ftrace_set_filter(&fprobe_graph_ops.ops, NULL, 0, 1);
	} else {
		ret = ftrace_set_filter_ips(&fprobe_graph_ops.ops, addrs, num, 1, 0);
	}
	if (ret)
		pr_warn("Failed to remove addresses from the ftrace filter\n");
}

/*
 * fprobe_ftrace_entry() for any set of fprobes on @ip: with FPROBE_FTRACE_RETURN,
 * when some have an exit handler, push a function graph frame with the data
 * they need, run the entry handlers, and hook the return if one of the exit
 * handlers is still wanted. Kept out of line, so that the fast paths of
 * fprobe_ftrace_entry() keep few registers.
 */
static noinline void
fprobe_ftrace_entry_nodes(struct rhlist_head *head, unsigned long ip,
			  unsigned long parent_ip, struct ftrace_regs *fregs)
{
	unsigned long *fgraph_data = NULL;
	unsigned long *retp = NULL;
	int reserved_words = 0;
	int used;

#if FPROBE_FTRACE_RETURN
	reserved_words = fprobe_entry_reserve_words(head);
	if (reserved_words) {
		retp = arch_fprobe_return_address_ptr(fregs);
		/* If not, the fprobes with exit handlers are missed below. */
		if (unlikely(!function_graph_enter_ops(&fprobe_graph_ops, ip,
						       fregs, retp,
						       reserved_words,
						       &fgraph_data)))
			reserved_words = 0;
	}
#endif

	used = fprobe_run_entry_handlers(head, true, ip, parent_ip, fregs,
					 fgraph_data, reserved_words);

	/*
	 * Hook the return only now, so that the entry handlers see the return
	 * address on the stack; drop the frame if they cancelled all the exit
	 * handlers.
	 */
	if (reserved_words) {
		if (used)
			function_graph_commit_ops(retp);
		else
			function_graph_cancel_ops(fregs, retp);
	}
}

NOKPROBE_SYMBOL(fprobe_ftrace_entry_nodes);

#if FPROBE_FTRACE_RETURN
/*
 * fprobe_ftrace_entry_nodes() for one enabled fprobe with an exit handler,
 * the only one on @ip. Inline: a call here costs more than the register
 * that the entry-only path saves for it.
 */
static __always_inline void
fprobe_ftrace_entry_one(struct fprobe *fp, unsigned long ip,
			unsigned long parent_ip, struct ftrace_regs *fregs)
{
	int words = fprobe_reserve_words(fp);
	unsigned long *fgraph_data;
	void *data;

	if (unlikely(!function_graph_enter_ops(&fprobe_graph_ops, ip, fregs,
					       arch_fprobe_return_address_ptr(fregs),
					       words, &fgraph_data))) {
		fprobe_missed(fp, ip);
		return;
	}

	/*
	 * The header is written first, so that few values live across the
	 * calls; it is read at the return only if the frame is committed.
	 */
	write_fprobe_header(fgraph_data, fp);
	data = words > FPROBE_HEADER_SIZE_IN_LONG ?
	       fgraph_data + FPROBE_HEADER_SIZE_IN_LONG : NULL;
	if (fprobe_call_entry_handler(fp, ip, parent_ip, fregs, data))
		function_graph_cancel_ops(fregs,
					  arch_fprobe_return_address_ptr(fregs));
	else
		function_graph_commit_ops(arch_fprobe_return_address_ptr(fregs));
}
#else
/* Never called: fprobe_entry() serves the fprobes with an exit handler. */
static inline void
fprobe_ftrace_entry_one(struct fprobe *fp, unsigned long ip,
			unsigned long parent_ip, struct ftrace_regs *fregs)
{
}
#endif

/*
 * The ftrace_ops callback: run the entry handlers of the fprobes on @ip which
 * it serves. With FPROBE_FTRACE_RETURN, these are all of them, and the
 * returns are hooked from here; otherwise, these are the entry-only ones.
 * A lone fprobe on an address, the most common case, is called from here
 * (or from fprobe_ftrace_entry_one() if it has an exit handler);
 * fprobe_ftrace_entry_nodes() does the rest.
 */
static __flatten void
fprobe_ftrace_entry(unsigned long ip, unsigned long parent_ip,
		    struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct fprobe_hlist_node *node;
	struct rhlist_head *head;
	struct fprobe *fp;
	int bit;

	/*
	 * fprobe_ftrace_ops has no FTRACE_OPS_FL_RECURSION, so that ftrace
	 * calls this directly: the recursion is caught here, and counted.
	 */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		fprobe_count_recursion(ip, true);
		return;
	}
	if (unlikely(!rcu_is_watching()))
		goto out;

	/* The recursion lock disabled preemption: that is the RCU read lock. */
	rcu_lock_acquire(&rcu_lock_map);
	head = fprobe_call_lookup(ip);
	if (likely(head && !rcu_access_pointer(head->next))) {
		node = container_of(head, struct fprobe_hlist_node, hlist);
		fp = READ_ONCE(node->fp);
		if (likely(fp && !fprobe_disabled(fp))) {
			if (!fp->exit_handler)
				fprobe_call_entry_handler(fp, ip, parent_ip,
							  fregs, NULL);
			else if (FPROBE_FTRACE_RETURN)
				fprobe_ftrace_entry_one(fp, ip, parent_ip,
							fregs);
		}
	} else if (head) {
		fprobe_ftrace_entry_nodes(head, ip, parent_ip, fregs);
	}
	rcu_lock_release(&rcu_lock_map);
out:
	ftrace_test_recursion_unlock(bit);
}

/* Called from any function entry: never kprobe it. */
NOKPROBE_SYMBOL(fprobe_ftrace_entry);

static struct ftrace_ops fprobe_ftrace_ops = {
	.func	= fprobe_ftrace_entry,
	.flags	= FTRACE_OPS_FL_SAVE_ARGS,
};

/*
 * Add the new addresses @addrs to the filter of fprobe_ftrace_ops, and
 * register it if this is the first address.
 */
static int fprobe_ftrace_add_ips(unsigned long *addrs, int num)
{
	int ret;

	lockdep_assert_held(&fprobe_mutex);

	if (!num)
		return 0;

	/*
	 * The first address replaces the whole filter: what a failed removal
	 * may have left in it must not be traced again.
	 */
	ret = ftrace_set_filter_ips(&fprobe_ftrace_ops, addrs, num, 0,
				    !fprobe_ftrace_nr_addrs);
	if (ret)
		return ret;

	if (!fprobe_ftrace_nr_addrs) {
		/* on failure, the next first address replaces the filter */
		ret = register_ftrace_function(&fprobe_ftrace_ops);
		if (ret)
			return ret;
	}
	fprobe_ftrace_nr_addrs += num;
	return 0;
}

/*
 * Remove the addresses @addrs, which no entry-only fprobe uses any more, from
 * the filter of fprobe_ftrace_ops. If no address is left, unregister it
 * first, because an empty filter means tracing all functions.
 */
static void fprobe_ftrace_remove_ips(unsigned long *addrs, int num)
{
	int ret;

	lockdep_assert_held(&fprobe_mutex);

	if (!num)
		return;

	if (WARN_ON_ONCE(num > fprobe_ftrace_nr_addrs))
		num = fprobe_ftrace_nr_addrs;

	/*
	 * Removing copies the filter, which can fail. The addresses are then
	 * left in it: while the ops is registered, their calls find no node and
	 * run no handler, and the next first address drops them. The last
	 * ones go with the whole filter, reset as ftrace_set_filter() says,
	 * which copies nothing.
	 */
	fprobe_ftrace_nr_addrs -= num;
	if (!fprobe_ftrace_nr_addrs) {
		unregister_ftrace_function(&fprobe_ftrace_ops);
		ret = ftrace_set_filter(&fprobe_ftrace_ops, NULL, 0, 1);
	} else {
		ret = ftrace_set_filter_ips(&fprobe_ftrace_ops, addrs, num, 1, 0);
	}
	if (ret)
		pr_warn("Failed to remove addresses from the ftrace filter\n");
}

/*
 * Add @addrs, which no fprobe of its kind probed yet, to the filter of the
 * ops serving fprobes with an exit handler (@ftrace false) or without one
 * (@ftrace true).
 */
static int fprobe_add_ips(bool ftrace, unsigned long *addrs, int num)
{
	if (ftrace)
		return fprobe_ftrace_add_ips(addrs, num);
	return fprobe_graph_add_ips(addrs, num);
}

/*
 * Remove @addrs, which no fprobe of its kind probes any more, from the filter
 * of the ops serving fprobes with an exit handler (@ftrace false) or without
 * one (@ftrace true).
 */
static void fprobe_remove_ips(bool ftrace, unsigned long *addrs, int num)
{
	if (ftrace)
		fprobe_ftrace_remove_ips(addrs, num);
	else
		fprobe_graph_remove_ips(addrs, num);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* Check that @ops is registered and traces @addr */
static bool fprobe_ops_traces(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_hash *hash;

	/* An FGRAPH_FL_OWN_ENTRY fgraph_ops has no initialized ftrace_ops */
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		return false;
	hash = ops->func_hash->filter_hash;
	/* An empty filter traces every function. */
	return ftrace_hash_empty(hash) || ftrace_lookup_ip(hash, addr);
}

/**
 * fprobe_traced_by() - Tell which of the shared ops trace an address.
 * @addr: The ftrace location of a function.
 *
 * For the KUnit tests, which check that the filters follow the fprobes.
 *
 * Return: FPROBE_TRACED_BY_FGRAPH if fprobe_graph_ops is registered and
 * traces @addr, ORed with FPROBE_TRACED_BY_FTRACE if fprobe_ftrace_ops is
 * registered and traces @addr.
 */
unsigned int fprobe_traced_by(unsigned long addr)
{
	unsigned int ret = 0;

	guard(mutex)(&fprobe_mutex);

	if (fprobe_ops_traces(&fprobe_graph_ops.ops, addr))
		ret |= FPROBE_TRACED_BY_FGRAPH;
	if (fprobe_ops_traces(&fprobe_ftrace_ops, addr))
		ret |= FPROBE_TRACED_BY_FTRACE;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(fprobe_traced_by);
#endif /* CONFIG_KUNIT */

#if FPROBE_FTRACE_RETURN
/* The number of registered fprobes with an exit handler */
static int fprobe_nr_exit_fprobes;

/*
 * fprobe_graph_ops, which only gets the returns, is registered while an
 * fprobe with an exit handler is: take it for @fp.
 */
static int fprobe_get_graph_ops(struct fprobe *fp)
{
	int ret;

	lockdep_assert_held(&fprobe_mutex);

	if (!fp->hlist_array->exit || fprobe_nr_exit_fprobes++)
		return 0;
	ret = register_ftrace_graph(&fprobe_graph_ops);
	if (ret)
		fprobe_nr_exit_fprobes--;
	return ret;
}

/*
 * Release fprobe_graph_ops for @fp, whose nodes are gone. If @fp was the
 * last fprobe with an exit handler, wait for the callbacks which may still
 * push frames for fprobe_graph_ops: those that started before @gp, a cookie
 * of the RCU state taken once @fp left the tables, and unregister it.
 */
static void fprobe_put_graph_ops(struct fprobe *fp, unsigned long gp)
{
	lockdep_assert_held(&fprobe_mutex);

	if (!fp->hlist_array->exit || --fprobe_nr_exit_fprobes)
		return;
	cond_synchronize_rcu(gp);
	unregister_ftrace_graph(&fprobe_graph_ops);
}
#else
/* fprobe_graph_add_ips() registers fprobe_graph_ops with its first address */
static int fprobe_get_graph_ops(struct fprobe *fp)
{
	return 0;
}

static void fprobe_put_graph_ops(struct fprobe *fp, unsigned long gp)
{
}
#endif /* FPROBE_FTRACE_RETURN */

/* Add @fp to fprobe_table */
static void add_fprobe_hash(struct fprobe *fp)
{
	struct fprobe_hlist *fph = fp->hlist_array;
	struct hlist_head *head;

	lockdep_assert_held(&fprobe_mutex);

	head = &fprobe_table[hash_ptr(fp, FPROBE_HASH_BITS)];
	hlist_add_head_rcu(&fph->hlist, head);
}

/* Remove @fp from fprobe_table */
static void del_fprobe_hash(struct fprobe *fp)
{
	lockdep_assert_held(&fprobe_mutex);

	hlist_del_rcu(&fp->hlist_array->hlist);
}

/*
 * Remove @node from fprobe_ip_table. Return true if no other fprobe of the
 * same kind (with or without an exit handler) probes its address, i.e. the
 * address has to be removed from the filter of the ops serving that kind.
 * The fprobes of the other kind do not keep it there: they are served by
 * the other ops.
 */
static bool delete_fprobe_node(struct fprobe_hlist_node *node)
{
	struct fprobe *fp = node->fp;

	lockdep_assert_held(&fprobe_mutex);

	/* This node has already been removed by the module unloading. */
	if (!fp)
		return false;

	WRITE_ONCE(node->fp, NULL);
	rhltable_remove(&fprobe_ip_table, &node->hlist, fprobe_rht_params);
	fprobe_nodes_reserve_for(node->addr, NULL);
	return !fprobe_ip_in_use(node->addr, fprobe_is_ftrace(fp));
}

/*
 * Remove the nodes of @fph from fprobe_ip_table. With @addrs, a buffer for
 * all the addresses of @fph, collect there the addresses that no fprobe of
 * its kind probes any more, for the caller to remove from the filter at
 * once, and return how many; without, remove each from the filter after
 * its last node, and return 0.
 */
static int fprobe_remove_nodes(struct fprobe_hlist *fph, unsigned long *addrs)
{
	bool ftrace = fprobe_is_ftrace(fph->fp);
	int i, count = 0;

	for (i = 0; i < fph->size; i++) {
		if (!delete_fprobe_node(&fph->array[i]))
			continue;
		if (addrs)
			addrs[count++] = fph->array[i].addr;
		else
			fprobe_remove_ips(ftrace, &fph->array[i].addr, 1);
	}
	return count;
}

/*
 * Whether @addr is one of the @count sorted @addrs, for a walk of the nodes
 * of an fprobe_hlist in order (they are sorted too, see fprobe_init()): *@k
 * goes along @addrs, from 0 at the first node.
 */
static bool fprobe_addr_listed(unsigned long addr, const unsigned long *addrs,
			       int count, int *k)
{
	while (*k < count && addrs[*k] < addr)
		(*k)++;
	return *k < count && addrs[*k] == addr;
}

/*
 * Insert the nodes of @fph at the addresses of @addrs (@count of them,
 * sorted), or at the others (@in_addrs false); stop at the first failure.
 * Return the index after the last node looked at, and the error in *@err.
 */
static int fprobe_insert_some(struct fprobe_hlist *fph, unsigned long *addrs,
			      int count, bool in_addrs, int *err)
{
	int i, k = 0;

	*err = 0;
	for (i = 0; i < fph->size; i++) {
		unsigned long addr = fph->array[i].addr;

		if (fprobe_addr_listed(addr, addrs, count, &k) != in_addrs)
			continue;
		/* Room for it before any call can find it */
		fprobe_nodes_reserve_for(addr, &fph->array[i]);
		*err = rhltable_insert(&fprobe_ip_table, &fph->array[i].hlist,
				       fprobe_rht_params);
		if (*err) {
			/* Not inserted: back to what the others reserve */
			fprobe_nodes_reserve_for(addr, NULL);
			break;
		}
	}
	return i;
}

/* Remove the nodes of @fph that fprobe_insert_some() inserted before @end */
static void fprobe_remove_some(struct fprobe_hlist *fph, int end,
			       unsigned long *addrs, int count, bool in_addrs)
{
	int i, k = 0;

	for (i = 0; i < end; i++) {
		unsigned long addr = fph->array[i].addr;

		if (fprobe_addr_listed(addr, addrs, count, &k) != in_addrs)
			continue;
		WRITE_ONCE(fph->array[i].fp, NULL);
		rhltable_remove(&fprobe_ip_table, &fph->array[i].hlist,
				fprobe_rht_params);
		fprobe_nodes_reserve_for(addr, NULL);
	}
}

/*
 * Insert the nodes of @fp in fprobe_ip_table and add the new addresses to
 * the filter of the ops serving @fp. @addrs must have room for all the
 * addresses of @fp.
 *
 * The nodes at the new addresses go in first, so that the first calls of
 * those find them, then the addresses, then the nodes at the addresses that
 * are hooked already.
 */
static int fprobe_insert_nodes(struct fprobe *fp, unsigned long *addrs)
{
	struct fprobe_hlist *fph = fp->hlist_array;
	bool ftrace = fprobe_is_ftrace(fp);
	int i, count = 0, ret;

	lockdep_assert_held(&fprobe_mutex);

	/*
	 * Collect the addresses that no fprobe of the kind of @fp probes yet,
	 * sorted as fph->array is (fprobe_init()).
	 */
	for (i = 0; i < fph->size; i++) {
		if (!fprobe_ip_in_use(fph->array[i].addr, ftrace))
			addrs[count++] = fph->array[i].addr;
	}

	i = fprobe_insert_some(fph, addrs, count, true, &ret);
	if (ret)
		goto out_remove_new;
	ret = fprobe_add_ips(ftrace, addrs, count);
	if (ret)
		goto out_remove_new;
	i = fprobe_insert_some(fph, addrs, count, false, &ret);
	if (!ret)
		return 0;

	/* No handler of @fp has run: see register_fprobe_ips(). */
	fprobe_remove_ips(ftrace, addrs, count);
	fprobe_remove_some(fph, i, addrs, count, false);
	i = fph->size;
out_remove_new:
	fprobe_remove_some(fph, i, addrs, count, true);
	return ret;
}

#ifdef CONFIG_MODULES
/*
 * Remove the nodes of @fph which are in @mod, and save the addresses that no
 * fprobe of the kind of @fph->fp probes any more in @addrs, up to @max of
 * them. Return how many were saved.
 */
static int fprobe_remove_module_nodes(struct fprobe_hlist *fph,
				      struct module *mod,
				      unsigned long *addrs, int max)
{
	bool ftrace = fprobe_is_ftrace(fph->fp);
	struct fprobe_hlist_node *node;
	int i, count = 0;

	for (i = 0; i < fph->size; i++) {
		node = &fph->array[i];
		if (!node->fp || !within_module(node->addr, mod))
			continue;
		if (!delete_fprobe_node(node))
			continue;
		if (count < max) {
			addrs[count++] = node->addr;
		} else {
			/* Out of memory: remove it one by one. */
			fprobe_remove_ips(ftrace, &node->addr, 1);
		}
	}
	return count;
}

/*
 * Remove the addresses in @mod from the fprobes served by fprobe_ftrace_ops
 * (@ftrace true) or by fprobe_graph_ops (@ftrace false), and from the filter
 * of that ops.
 */
static void fprobe_remove_module_ips(struct module *mod, bool ftrace)
{
	struct fprobe_hlist *fph;
	unsigned long *addrs;
	int i, j, max, count;

	max = 0;
	for (i = 0; i < FPROBE_TABLE_SIZE; i++) {
		hlist_for_each_entry(fph, &fprobe_table[i], hlist) {
			if (fprobe_is_ftrace(fph->fp) != ftrace)
				continue;
			for (j = 0; j < fph->size; j++)
				if (within_module(fph->array[j].addr, mod))
					max++;
		}
	}
	if (!max)
		return;

	addrs = kvcalloc(max, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		max = 0;

	count = 0;
	for (i = 0; i < FPROBE_TABLE_SIZE; i++) {
		hlist_for_each_entry(fph, &fprobe_table[i], hlist) {
			if (fprobe_is_ftrace(fph->fp) != ftrace)
				continue;
			count += fprobe_remove_module_nodes(fph, mod, addrs + count,
							    max - count);
		}
	}
	fprobe_remove_ips(ftrace, addrs, count);
	kvfree(addrs);
}

/* Handle module unloading: remove the module's addresses from all fprobes. */
static int fprobe_module_callback(struct notifier_block *nb,
				  unsigned long val, void *data)
{
	struct module *mod = data;

	if (val != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	guard(mutex)(&fprobe_mutex);
	fprobe_remove_module_ips(mod, false);
	fprobe_remove_module_ips(mod, true);

	return NOTIFY_DONE;
}

static struct notifier_block fprobe_module_nb = {
	.notifier_call = fprobe_module_callback,
	.priority = 0,
};

static int __init fprobe_init_module_notifier(void)
{
	return register_module_notifier(&fprobe_module_nb);
}
#else
static inline int fprobe_init_module_notifier(void)
{
	return 0;
}
#endif /* CONFIG_MODULES */

static int __init init_fprobe(void)
{
	int ret;

	ret = rhltable_init(&fprobe_ip_table, &fprobe_rht_params);
	if (ret)
		return ret;

	return fprobe_init_module_notifier();
}
early_initcall(init_fprobe);

static int addrs_cmp(const void *a, const void *b)
{
	unsigned long addr_a = *(const unsigned long *)a;
	unsigned long addr_b = *(const unsigned long *)b;

	if (addr_a == addr_b)
		return 0;
	return addr_a < addr_b ? -1 : 1;
}

static int symbols_cmp(const void *a, const void *b)
{
	const char **str_a = (const char **)a;
	const char **str_b = (const char **)b;

	return strcmp(*str_a, *str_b);
}

/* Convert ftrace location address from symbols */
static unsigned long *get_ftrace_locations(const char **syms, int num)
{
	unsigned long *addrs;

	/* Convert symbols to symbol address */
	addrs = kcalloc(num, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return ERR_PTR(-ENOMEM);

	/* ftrace_lookup_symbols expects sorted symbols */
	sort(syms, num, sizeof(*syms), symbols_cmp, NULL);

	if (!ftrace_lookup_symbols(syms, num, addrs))
		return addrs;

	kfree(addrs);
	return ERR_PTR(-ENOENT);
}

/* The globs of a filter and a not-filter, and the functions they match */
struct fprobe_filter_match {
	char		**globs;	/* the filter's, then the not-filter's */
	bool		*hit;		/* per glob: matched a traceable function */
	unsigned int	nfilter;	/* how many are the filter's */
	unsigned int	nglobs;
	unsigned int	max;		/* the most functions wanted, 0: no limit */
	unsigned long	*addrs;		/* ftrace locations */
	unsigned int	count;
	unsigned int	size;		/* of @addrs, in entries */
	bool		unsorted;	/* @addrs may be out of order */
	bool		modules;	/* walking the modules' symbols */
	unsigned long	prev_addr;	/* the kernel's symbol before */
	unsigned long	pending;	/* the kernel's wanted symbol before */
	char		*name;		/* KSYM_NAME_LEN bytes: its name */
};

/*
 * Cut @str (globs separated by ',' or white space) into its globs, put
 * after those already in @m. Return -EINVAL for a glob of digits only
 * (set_ftrace_filter would take it as a function index), -ENOMEM, or 0.
 */
static int fprobe_split_globs(struct fprobe_filter_match *m, char *str)
{
	char **globs;
	char *glob;

	while ((glob = strsep(&str, ", \t\n"))) {
		if (!*glob)
			continue;
		if (glob[strspn(glob, "!0123456789")] == '\0')
			return -EINVAL;
		globs = krealloc_array(m->globs, m->nglobs + 1, sizeof(*globs),
				       GFP_KERNEL_ACCOUNT);
		if (!globs)
			return -ENOMEM;
		m->globs = globs;
		m->globs[m->nglobs++] = glob;
	}
	return 0;
}

/*
 * Whether @globs[0..@n-1] select @name. The globs apply in order, as
 * writes to set_ftrace_filter: a glob adds the functions it matches, a
 * "!glob" removes them. Each glob that matches @name is marked in @hit.
 */
static bool fprobe_globs_select(char *const *globs, bool *hit, unsigned int n,
				const char *name)
{
	bool selected = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const char *glob = globs[i];

		if (*glob == '!') {
			if (glob_match(glob + 1, name)) {
				hit[i] = true;
				selected = false;
			}
		} else if (glob_match(glob, name)) {
			hit[i] = true;
			selected = true;
		}
	}
	return selected;
}

/* Whether a glob of @globs[0..@n-1] that adds functions matches @name */
static bool fprobe_globs_add(char *const *globs, unsigned int n,
			     const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (globs[i][0] != '!' && glob_match(globs[i], name))
			return true;
	}
	return false;
}

/*
 * Sort the addresses of @m and drop the duplicates (aliases). Those of the
 * kernel come in order, without duplicates: only the modules' need this.
 */
static void fprobe_filter_uniq(struct fprobe_filter_match *m)
{
	unsigned int i, n = 0;

	if (!m->unsorted)
		return;
	m->unsorted = false;
	sort(m->addrs, m->count, sizeof(*m->addrs), addrs_cmp, NULL);
	for (i = 0; i < m->count; i++)
		if (!n || m->addrs[n - 1] != m->addrs[i])
			m->addrs[n++] = m->addrs[i];
	m->count = n;
}

/*
 * Keep @addr, the ftrace location of the function @name, if the globs of @m
 * select it. Return -E2BIG past @m->max distinct functions, -ENOMEM or 0.
 */
static int fprobe_filter_match_add(struct fprobe_filter_match *m,
				   const char *name, unsigned long addr)
{
	unsigned long *addrs;
	unsigned int size;
	bool wanted;

	wanted = fprobe_globs_select(m->globs, m->hit, m->nfilter, name);
	if (fprobe_globs_select(m->globs + m->nfilter, m->hit + m->nfilter,
				m->nglobs - m->nfilter, name))
		wanted = false;
	if (!wanted)
		return 0;
	if (m->count == m->size) {
		/* Full: the aliases out first, then grow */
		fprobe_filter_uniq(m);
		if (m->max && m->count >= m->max)
			return -E2BIG;
	}
	if (m->count == m->size) {
		size = m->max ? min(2 * m->size, m->max) : 2 * m->size;
		addrs = kvmalloc_array(size, sizeof(*addrs), GFP_KERNEL_ACCOUNT);
		if (!addrs)
			return -ENOMEM;
		memcpy(addrs, m->addrs, m->count * sizeof(*addrs));
		kvfree(m->addrs);
		m->addrs = addrs;
		m->size = size;
	}
	if (m->count && addr <= m->addrs[m->count - 1])
		m->unsorted = true;
	m->addrs[m->count++] = addr;
	return 0;
}

/*
 * The kernel's symbol that a glob wanted, kept in @m->pending and
 * @m->name, ends at @end, the address of the next symbol (0 at the end of
 * the walk): keep its ftrace location if it has one. This is what
 * ftrace_location() finds for it, without the kallsyms lookup of its size
 * that ftrace_location() makes for a symbol with no ftrace location at its
 * first byte, which most symbols are. (A next symbol out of order, which
 * kallsyms does not give, would only cost that lookup.)
 */
static int fprobe_filter_match_pending(struct fprobe_filter_match *m,
				       unsigned long end)
{
	unsigned long addr = m->pending, loc;

	if (!addr)
		return 0;
	m->pending = 0;
	if (end > addr) {
		loc = ftrace_location_range(addr, end - 1);
		/* As ftrace_location(): a location at @addr first */
		if (loc && loc != addr)
			loc = ftrace_location_range(addr, addr) ?: loc;
	} else {
		loc = ftrace_location(addr);
	}
	addr = loc;
	if (!addr)
		return 0;
	return fprobe_filter_match_add(m, m->name, addr);
}

/*
 * For each symbol of the kernel and its modules: keep the ftrace location
 * of a function the globs want. Ends the walk with -EINTR on a fatal
 * signal, -E2BIG past @m->max distinct functions, -ENOMEM.
 */
static int fprobe_filter_match_symbol(void *data, const char *name,
				      unsigned long addr)
{
	struct fprobe_filter_match *m = data;
	int ret;

	/* The module walk holds module_mutex and does not reschedule */
	cond_resched();
	if (fatal_signal_pending(current))
		return -EINTR;
	/*
	 * Only under the name ftrace gives the function (that of
	 * available_filter_functions, kallsyms_lookup()'s): not under an alias
	 * at its address, such as a section's start marker or a mapping
	 * symbol. The kernel's symbols come sorted by address, and for an
	 * address kallsyms_lookup() gives the first of them: an alias is a
	 * symbol at the address of the one before. The symbol before that
	 * ends here. A module's come in no order, and are looked up.
	 */
	if (!m->modules) {
		if (addr == m->prev_addr)
			return 0;
		m->prev_addr = addr;
		ret = fprobe_filter_match_pending(m, addr);
		if (ret || !fprobe_globs_add(m->globs, m->nfilter, name))
			return ret;
		m->pending = addr;
		strscpy(m->name, name, KSYM_NAME_LEN);
		return 0;
	}
	if (!fprobe_globs_add(m->globs, m->nfilter, name))
		return 0;
	addr = ftrace_location(addr);
	if (!addr || !kallsyms_lookup(addr, NULL, NULL, NULL, m->name) ||
	    strcmp(m->name, name))
		return 0;
	return fprobe_filter_match_add(m, name, addr);
}

/**
 * fprobe_ips_from_filter() - Find the functions an fprobe filter names.
 * @filter: Globs of the functions to probe, separated by commas or white
 *	    space; a "!glob" removes what the globs before it added.
 * @notfilter: Globs of the functions not to probe, or NULL.
 * @max: The most functions wanted (-E2BIG past it), or 0 for no limit.
 * @flags: FPROBE_FILTER_EACH_GLOB: each glob of @filter that adds
 *	   functions must match a traceable one (-ENOENT if not).
 * @addrsp: Set to the ftrace locations of the functions, sorted, to be
 *	    freed with kvfree().
 *
 * The one walk from the globs of a filter to the addresses to probe, for
 * register_fprobe(), fprobe events and the fprobe PMU: the traceable
 * functions (those of available_filter_functions, under the name ftrace
 * lists them by) of the kernel and its modules, selected as writes of the
 * same globs to set_ftrace_filter and set_ftrace_notrace would select them.
 * It walks the symbols once, whatever the number of globs, without
 * ftrace_lock, rescheduling as it goes, and a fatal signal stops it.
 *
 * Return: the number of addresses in *@addrsp, -ENOENT if there is none
 * (or, with FPROBE_FILTER_EACH_GLOB, a glob of @filter matches none),
 * -EINVAL if @filter holds no glob or a glob of digits only, -E2BIG past
 * @max, -EINTR on a fatal signal, -ENOMEM.
 */
int fprobe_ips_from_filter(const char *filter, const char *notfilter,
			   unsigned int max, unsigned int flags,
			   unsigned long **addrsp)
{
	struct fprobe_filter_match m = { .max = max };
	char *fstr, *nstr = NULL;
	unsigned int i;
	int ret;

	if (!filter)
		return -EINVAL;
	fstr = kstrdup(filter, GFP_KERNEL_ACCOUNT);
	if (notfilter)
		nstr = kstrdup(notfilter, GFP_KERNEL_ACCOUNT);
	ret = -ENOMEM;
	if (!fstr || (notfilter && !nstr))
		goto out;

	ret = fprobe_split_globs(&m, fstr);
	m.nfilter = m.nglobs;
	if (!ret && !m.nfilter)
		ret = -EINVAL;
	if (!ret && nstr)
		ret = fprobe_split_globs(&m, nstr);
	if (ret)
		goto out;
	ret = -ENOMEM;
	m.hit = kcalloc(m.nglobs, sizeof(*m.hit), GFP_KERNEL_ACCOUNT);
	m.name = kmalloc(KSYM_NAME_LEN, GFP_KERNEL_ACCOUNT);
	m.size = max ? min(64U, max) : 64U;
	m.addrs = kvmalloc_array(m.size, sizeof(*m.addrs), GFP_KERNEL_ACCOUNT);
	if (!m.hit || !m.name || !m.addrs)
		goto out;

	ret = kallsyms_on_each_symbol(fprobe_filter_match_symbol, &m);
	if (!ret)
		ret = fprobe_filter_match_pending(&m, 0);
	if (!ret && IS_ENABLED(CONFIG_MODULES)) {
		m.modules = true;
		ret = module_kallsyms_on_each_symbol(NULL,
						     fprobe_filter_match_symbol,
						     &m);
	}
	if (ret)
		goto out;
	fprobe_filter_uniq(&m);
	if (flags & FPROBE_FILTER_EACH_GLOB) {
		for (i = 0; i < m.nfilter; i++) {
			if (m.globs[i][0] != '!' && !m.hit[i])
				m.count = 0;
		}
	}
	if (!m.count) {
		ret = -ENOENT;
	} else if (max && m.count > max) {
		ret = -E2BIG;
	} else {
		*addrsp = m.addrs;
		m.addrs = NULL;
		ret = m.count;
	}
out:
	kvfree(m.addrs);
	kfree(m.name);
	kfree(m.hit);
	kfree(m.globs);
	kfree(nstr);
	kfree(fstr);
	return ret;
}

/*
 * Initialize @fp for probing @addrs: check the entry data size and make its
 * fprobe_hlist with one node per ftrace location (duplicates are merged).
 */
static int fprobe_init(struct fprobe *fp, unsigned long *addrs, int num)
{
	struct fprobe_hlist *fph;
	unsigned long *locs;
	int i, count, ret = 0;
	size_t size;

	if (!fp || !addrs || num <= 0)
		return -EINVAL;

	size = ALIGN(fp->entry_data_size, sizeof(long));
	if (size > MAX_FPROBE_DATA_SIZE)
		return -E2BIG;

	if (!fprobe_header_encodable(fp))
		return -EINVAL;

	locs = kvmalloc_array(num, sizeof(*addrs), GFP_KERNEL);
	if (!locs)
		return -ENOMEM;
	memcpy(locs, addrs, num * sizeof(*addrs));

	for (i = 0; i < num; i++) {
		locs[i] = ftrace_location(locs[i]);
		if (!locs[i]) {
			ret = -EINVAL;
			goto out_free_locs;
		}
	}
	/* Those of a filter come sorted (fprobe_ips_from_filter()) */
	for (i = 1; i < num && locs[i - 1] < locs[i]; i++)
		;
	if (i < num)
		sort(locs, num, sizeof(*locs), addrs_cmp, NULL);
	for (i = 1, count = 1; i < num; i++) {
		if (locs[i] != locs[count - 1])
			locs[count++] = locs[i];
	}

	fph = kvzalloc(struct_size(fph, array, count), GFP_KERNEL);
	if (!fph) {
		ret = -ENOMEM;
		goto out_free_locs;
	}
	fph->size = count;
	fph->fp = fp;
	fph->exit = !!fp->exit_handler;
	for (i = 0; i < count; i++) {
		fph->array[i].fp = fp;
		fph->array[i].addr = locs[i];
	}

	fp->entry_data_size = size;
	init_fprobe_header(fp);
	fp->nmissed = 0;
	fp->hlist_array = fph;

out_free_locs:
	kvfree(locs);
	return ret;
}

/**
 * register_fprobe() - Register fprobe to ftrace by pattern.
 * @fp: A fprobe data structure to be registered.
 * @filter: Wildcard patterns of probed symbols.
 * @notfilter: Wildcard patterns of NOT probed symbols, or NULL.
 *
 * Register @fp to ftrace for enabling the probe on the symbols matched to @filter.
 * If @notfilter is not NULL, the symbols matched the @notfilter are not probed.
 * Each of @filter and @notfilter is a list of globs separated by commas or
 * white space, expanded by fprobe_ips_from_filter().
 *
 * Return: 0 if @fp is registered successfully, -ENOENT if a glob of
 * @filter matches no traceable function or all the matched functions are
 * excluded by @notfilter, -EINVAL if @filter holds no glob (or a glob of
 * digits only), -errno for the other errors.
 */
int register_fprobe(struct fprobe *fp, const char *filter, const char *notfilter)
{
	unsigned long *addrs;
	int ret;

	if (!fp || !filter)
		return -EINVAL;

	ret = fprobe_ips_from_filter(filter, notfilter, 0, FPROBE_FILTER_EACH_GLOB,
				     &addrs);
	if (ret < 0)
		return ret;

	ret = register_fprobe_ips(fp, addrs, ret);
	kvfree(addrs);

	return ret;
}
EXPORT_SYMBOL_GPL(register_fprobe);

/**
 * fprobe_count_ips_from_filter() - Count the functions an fprobe filter matches.
 * @filter: Wildcard patterns of probed symbols, as register_fprobe() takes.
 * @notfilter: Wildcard patterns of NOT probed symbols, or NULL.
 *
 * What register_fprobe() would probe, without registering anything: for the
 * users which check their target when it is defined and register the fprobe
 * only later (fprobe events, when they are enabled).
 *
 * Return: the number of traceable functions matched by @filter and not by
 * @notfilter, -ENOENT if there are none, -EINVAL if @filter holds no
 * pattern, -errno for the other errors.
 */
int fprobe_count_ips_from_filter(const char *filter, const char *notfilter)
{
	unsigned long *addrs;
	int ret;

	if (!filter)
		return -EINVAL;

	ret = fprobe_ips_from_filter(filter, notfilter, 0, FPROBE_FILTER_EACH_GLOB,
				     &addrs);
	if (ret > 0)
		kvfree(addrs);
	return ret;
}

/**
 * register_fprobe_ips() - Register fprobe to ftrace by address.
 * @fp: A fprobe data structure to be registered.
 * @addrs: An array of target function address.
 * @num: The number of entries of @addrs.
 *
 * Register @fp to ftrace for enabling the probe on the address given by @addrs.
 * The @addrs must be the addresses of ftrace location address, which may be
 * the symbol address + arch-dependent offset.
 * If you unsure what this mean, please use other registration functions.
 *
 * Return: 0 if @fp is registered successfully, -E2BIG if the entry data size
 * of @fp is larger than MAX_FPROBE_DATA_SIZE, -EBUSY if @fp is already
 * registered, or another -errno.
 */
int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs, int num)
{
	struct fprobe_hlist *fph;
	unsigned long *buf, gp;
	int ret;

	if (!fp || !addrs || num <= 0)
		return -EINVAL;

	guard(mutex)(&fprobe_mutex);

	if (is_fprobe_still_exist(fp))
		return -EBUSY;

	ret = fprobe_init(fp, addrs, num);
	if (ret)
		return ret;

	fph = fp->hlist_array;
	buf = kvcalloc(fph->size, sizeof(*buf), GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out_free_hlist;
	}

	ret = fprobe_get_graph_ops(fp);
	if (ret) {
		kvfree(buf);
		goto out_free_hlist;
	}

	/*
	 * The handlers of @fp start once all its functions are hooked (and
	 * stop as soon as unregister_fprobe() starts, which leaves the mark
	 * set): the calls made while they are hooked only look their address
	 * up. There are many when @fp probes the functions that hooking calls
	 * (the text patching's, every function's). If hooking fails, the mark
	 * stays, and no handler has run.
	 */
	WRITE_ONCE(fp->flags, fp->flags | FPROBE_FL_HOOKING);
	/* The exit handlers check fprobe_table, so add @fp there first. */
	add_fprobe_hash(fp);
	ret = fprobe_insert_nodes(fp, buf);
	kvfree(buf);
	if (!ret) {
		WRITE_ONCE(fp->flags, fp->flags & ~FPROBE_FL_HOOKING);
		return 0;
	}

	del_fprobe_hash(fp);
	/* Wait for the handlers which may have seen @fp. */
	gp = start_poll_synchronize_rcu();
	fprobe_put_graph_ops(fp, gp);
	cond_synchronize_rcu(gp);
out_free_hlist:
	kvfree(fph);
	fp->hlist_array = NULL;
	return ret;
}
EXPORT_SYMBOL_GPL(register_fprobe_ips);

/**
 * register_fprobe_syms() - Register fprobe to ftrace by symbols.
 * @fp: A fprobe data structure to be registered.
 * @syms: An array of target symbols.
 * @num: The number of entries of @syms.
 *
 * Register @fp to the symbols given by @syms array. This will be useful if
 * you are sure the symbols exist in the kernel.
 *
 * Return: 0 if @fp is registered successfully, -errno if not.
 */
int register_fprobe_syms(struct fprobe *fp, const char **syms, int num)
{
	unsigned long *addrs;
	int ret;

	if (!fp || !syms || num <= 0)
		return -EINVAL;

	addrs = get_ftrace_locations(syms, num);
	if (IS_ERR(addrs))
		return PTR_ERR(addrs);

	ret = register_fprobe_ips(fp, addrs, num);

	kfree(addrs);

	return ret;
}
EXPORT_SYMBOL_GPL(register_fprobe_syms);

/**
 * fprobe_is_registered() - Check whether an fprobe is registered.
 * @fp: A fprobe data structure to be checked.
 *
 * Return: true if @fp is registered, false if not.
 */
bool fprobe_is_registered(struct fprobe *fp)
{
	if (!fp || !fp->hlist_array)
		return false;
	return true;
}

/**
 * unregister_fprobe() - Unregister fprobe.
 * @fp: A fprobe data structure to be unregistered.
 *
 * Unregister fprobe (and remove ftrace hooks from the function entries).
 * The calls that start after this is called run no entry handler of @fp
 * and count no miss, as if it were disabled; those entered before get their
 * exit handler until @fp leaves fprobe's tables, before its functions are
 * unhooked. When this returns, no handler of @fp is running or will run,
 * so that the caller can free @fp.
 * (The probed calls made where RCU is not watching the CPU, which the grace
 * period this waits for would not wait for, run no handler of any fprobe and
 * are not counted as missed.)
 *
 * Return: 0 if @fp is unregistered successfully, -errno if not.
 */
int unregister_fprobe(struct fprobe *fp)
{
	struct fprobe_hlist *fph;
	unsigned long *addrs, gp;
	int count;

	if (!fp)
		return -EINVAL;

	scoped_guard(mutex, &fprobe_mutex) {
		if (!is_fprobe_still_exist(fp))
			return -EINVAL;

		/* See register_fprobe_ips() */
		WRITE_ONCE(fp->flags, fp->flags | FPROBE_FL_HOOKING);
		fph = fp->hlist_array;
		/* If this fails, the addresses are removed one by one. */
		addrs = kvcalloc(fph->size, sizeof(*addrs),
				 GFP_KERNEL | __GFP_NOWARN);
		count = fprobe_remove_nodes(fph, addrs);
		del_fprobe_hash(fp);
		/*
		 * No call finds @fp from here on: the grace period to wait for
		 * starts now, and mostly passes while the functions are
		 * unhooked (a whole one if @addrs could not be allocated, and
		 * the addresses have left the filter with the nodes).
		 */
		gp = start_poll_synchronize_rcu();
		fprobe_remove_ips(fprobe_is_ftrace(fp), addrs, count);
		kvfree(addrs);
		fprobe_put_graph_ops(fp, gp);
		/* Under the mutex: @fp may be registered again once it is dropped */
		fp->hlist_array = NULL;
	}

	/* Wait for the running handlers of @fp. */
	cond_synchronize_rcu(gp);

	kvfree(fph);

	return 0;
}
EXPORT_SYMBOL_GPL(unregister_fprobe);
