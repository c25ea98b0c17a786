/* SPDX-License-Identifier: GPL-2.0 */
/* Simple ftrace probe wrapper */
#ifndef _LINUX_FPROBE_H
#define _LINUX_FPROBE_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable-types.h>
#include <linux/types.h>

struct fprobe;

typedef int (*fprobe_entry_cb)(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct ftrace_regs *fregs,
			       void *entry_data);

typedef void (*fprobe_exit_cb)(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct ftrace_regs *fregs,
			       void *entry_data);

typedef void (*fprobe_missed_cb)(struct fprobe *fp, unsigned long entry_ip);

/**
 * struct fprobe_hlist_node - address based hash list node for fprobe.
 *
 * @hlist: The node in the address table (fprobe_ip_table).
 * @addr: One of the probing addresses of @fp.
 * @fp: The fprobe which owns this node, NULL once it is removed.
 * @reserve_words: The longs that the fprobes at @addr with an exit handler
 *	reserve together on the shadow stack at each call (header and entry
 *	data, capped to what a frame can hold), the same in each node at
 *	@addr.
 */
struct fprobe_hlist_node {
	struct rhlist_head	hlist;
	unsigned long		addr;
	struct fprobe		*fp;
	int			reserve_words;
};

/**
 * struct fprobe_hlist - hash list nodes for fprobe.
 *
 * @hlist: The node in the table of registered fprobes (fprobe_table).
 * @fp: The fprobe which owns this fprobe_hlist.
 * @size: The number of entries in @array.
 * @exit: @fp had an exit handler when it was registered.
 * @array: The fprobe_hlist_node for each address to probe.
 */
struct fprobe_hlist {
	struct hlist_node		hlist;
	struct fprobe			*fp;
	int				size;
	bool				exit;
	struct fprobe_hlist_node	array[] __counted_by(size);
};

/**
 * struct fprobe - ftrace based probe.
 *
 * @nmissed: The counter for missing events.
 * @flags: The status flag.
 * @entry_data_size: The private data storage size.
 * @nr_maxactive: Ignored. fprobe saves its data on the per-task shadow stack
 *		  of the function graph tracer, which needs no pre-allocation.
 *		  This is kept only for source compatibility.
 * @entry_handler: The callback function for function entry.
 * @exit_handler: The callback function for function exit. Whether it is set
 *		  decides how the fprobe is served (an fprobe without one does
 *		  not use the function graph tracer), so it must not be set
 *		  or cleared while the fprobe is registered.
 * @missed_handler: Optional. Called each time @nmissed is counted, on the
 *		  CPU and in the context of the call that was missed, with
 *		  the address of its function. It may run where the ftrace
 *		  recursion lock could not be taken: it must be notrace and
 *		  must call nothing that can be probed.
 * @hlist_array: The fprobe_hlist for fprobe search from IP hash table.
 * @entry_header: Internal: the header of the entry data on the shadow stack,
 *		  made by register_fprobe*() where it fits in one long
 *		  (ARCH_FPROBE_HEADER_MSB_PATTERN, kernel/trace/fprobe.c). So
 *		  @entry_data_size must not change while @fp is registered.
 */
struct fprobe {
	unsigned long		nmissed;
	unsigned int		flags;
	size_t			entry_data_size;
	int			nr_maxactive;

	fprobe_entry_cb entry_handler;
	fprobe_exit_cb  exit_handler;
	fprobe_missed_cb missed_handler;

	struct fprobe_hlist	*hlist_array;
	unsigned long		entry_header;
};

/* This fprobe is soft-disabled. */
#define FPROBE_FL_DISABLED	1

/*
 * This fprobe handler will be shared with kprobes.
 * This flag must be set before registering.
 */
#define FPROBE_FL_KPROBE_SHARED	2

/*
 * Internal: register_fprobe*() is hooking the functions of this fprobe (or
 * failed to), or unregister_fprobe() was called. Its entry handlers are not
 * called, as if it were disabled. The flags are written without atomics:
 * disable_fprobe() and enable_fprobe() must not race with the registration
 * or unregistration of the same fprobe.
 */
#define FPROBE_FL_HOOKING	4

/*
 * The maximum entry data size of one fprobe, in longs and in bytes. The
 * entry data is saved on the per-task shadow stack of the function graph
 * tracer, whose space is limited.
 */
#define MAX_FPROBE_DATA_SIZE_WORD	15
#define MAX_FPROBE_DATA_SIZE		(MAX_FPROBE_DATA_SIZE_WORD * sizeof(long))

static inline bool fprobe_disabled(struct fprobe *fp)
{
	return (fp) ? READ_ONCE(fp->flags) & (FPROBE_FL_DISABLED | FPROBE_FL_HOOKING) :
		      false;
}

static inline bool fprobe_shared_with_kprobes(struct fprobe *fp)
{
	return (fp) ? fp->flags & FPROBE_FL_KPROBE_SHARED : false;
}

#if IS_ENABLED(CONFIG_KUNIT) && defined(CONFIG_FPROBE)
/* fprobe_traced_by() bits: which shared ops of fprobe trace an address */
#define FPROBE_TRACED_BY_FGRAPH		BIT(0)
#define FPROBE_TRACED_BY_FTRACE		BIT(1)

unsigned int fprobe_traced_by(unsigned long addr);
#endif

/* fprobe_ips_from_filter(): each glob of the filter must match a function */
#define FPROBE_FILTER_EACH_GLOB		BIT(0)

#ifdef CONFIG_FPROBE
int fprobe_ips_from_filter(const char *filter, const char *notfilter,
			   unsigned int max, unsigned int flags,
			   unsigned long **addrsp);
int register_fprobe(struct fprobe *fp, const char *filter, const char *notfilter);
int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs, int num);
int register_fprobe_syms(struct fprobe *fp, const char **syms, int num);
int unregister_fprobe(struct fprobe *fp);
bool fprobe_is_registered(struct fprobe *fp);
int fprobe_count_ips_from_filter(const char *filter, const char *notfilter);
#else
static inline int fprobe_ips_from_filter(const char *filter,
					 const char *notfilter,
					 unsigned int max, unsigned int flags,
					 unsigned long **addrsp)
{
	return -EOPNOTSUPP;
}
static inline int register_fprobe(struct fprobe *fp, const char *filter, const char *notfilter)
{
	return -EOPNOTSUPP;
}
static inline int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs, int num)
{
	return -EOPNOTSUPP;
}
static inline int register_fprobe_syms(struct fprobe *fp, const char **syms, int num)
{
	return -EOPNOTSUPP;
}
static inline int unregister_fprobe(struct fprobe *fp)
{
	return -EOPNOTSUPP;
}
static inline bool fprobe_is_registered(struct fprobe *fp)
{
	return false;
}

static inline int fprobe_count_ips_from_filter(const char *filter,
					       const char *notfilter)
{
	return -EOPNOTSUPP;
}
#endif

/**
 * disable_fprobe() - Disable fprobe
 * @fp: The fprobe to be disabled.
 *
 * This will soft-disable @fp. Note that this doesn't remove the ftrace
 * hooks from the function entry.
 */
static inline void disable_fprobe(struct fprobe *fp)
{
	if (fp)
		fp->flags |= FPROBE_FL_DISABLED;
}

/**
 * enable_fprobe() - Enable fprobe
 * @fp: The fprobe to be enabled.
 *
 * This will soft-enable @fp.
 */
static inline void enable_fprobe(struct fprobe *fp)
{
	if (fp)
		fp->flags &= ~FPROBE_FL_DISABLED;
}

#endif
