/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The insides of a perf fprobe report: for util/fprobe-report.c, which
 * builds it, and for the files that write its outputs for other tools.
 * Not for other users: util/fprobe-report.h is the interface.
 */
#ifndef __PERF_FPROBE_REPORT_INT_H
#define __PERF_FPROBE_REPORT_INT_H

#include <stddef.h>
#include <stdio.h>
#include <linux/bits.h>
#include <linux/types.h>

#include "fprobe-call.h"
#include "fprobe-report.h"

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL

/* log2 latency buckets: 0 is [0, 1) ns, i > 0 is [2^(i-1), 2^i) ns */
#define FR_NR_BUCKETS	65
#define FR_BAR_WIDTH	46
/* The deepest callchain taken: perf_event_max_stack is at most 65535 */
#define FR_MAX_STACK	65535

enum fr_sort_key {
	FR_SORT_TOTAL,
	FR_SORT_SELF,
	FR_SORT_AVG,
	FR_SORT_MAX,
	FR_SORT_COUNT,
	FR_SORT_P99,
	FR_SORT_NAME,
};

/* Hash map from byte strings to pointers, open addressing */
struct fr_map_entry {
	const void	*key;
	size_t		len;
	u64		hash;
	void		*val;
};

struct fr_map {
	struct fr_map_entry	*entries;
	size_t			nr;
	size_t			size;	/* a power of two, or 0 */
};

/* A kernel callchain, its frames interned */
struct fr_stack {
	u32		nr;
	const char	*frames[];
};

/*
 * p99 buckets: 2^FR_SUB_BITS per power of two of the duration (chunk 0
 * holds 0 .. 2^FR_SUB_BITS - 1 ns exactly, chunk c >= 1 the durations
 * whose top bit is bit c + FR_SUB_BITS - 1), allocated a chunk at a time.
 */
#define FR_SUB_BITS	7
#define FR_SUB		BIT(FR_SUB_BITS)
#define FR_NR_CHUNKS	(64 - FR_SUB_BITS + 1)
#define FR_EXACT_DURS	256

/* Latency statistics of a set of calls */
struct fr_stats {
	u64		count;
	u64		total;
	u64		self;
	u64		max;
	u64		p99;
	u64		*durs;		/* the first FR_EXACT_DURS durations */
	size_t		nr_durs;
	size_t		alloc_durs;
	u64		**chunks;	/* [FR_NR_CHUNKS][FR_SUB], beyond */
};

struct fr_func {
	const char	*name;
	struct fr_stats	stats;
	u64		no_exit;	/* calls seen without their exit */
	u64		no_entry;	/* calls seen without their entry */
	u64		buckets[FR_NR_BUCKETS];
};

enum fr_node_kind {
	FR_NODE_ROOT,
	FR_NODE_FRAME,		/* a frame of the kernel callchain */
	FR_NODE_CALL,		/* a traced function */
};

struct fr_node_key {
	const struct fr_node	*parent;
	const char		*name;
	u64			kind;
};

struct fr_node {
	struct fr_node_key	key;		/* parent, name, kind */
	struct fr_node		**children;
	size_t			nr_children;
	size_t			alloc_children;
	struct fr_stats		stats;
	u64			flame_total;	/* width in a flame graph */
	u64			flame_self;	/* flame_total less the children's */
};

/* A call with both entry and exit, kept by the filters, until settled */
struct fr_call {
	u64			entry;
	u64			duration;
	u64			retval;
	u64			ret_ip;
	u64			func;
	u64			args[FPROBE_CALL_MAX_ARGS];
	u64			child_time;	/* of the calls nested in it */
	struct fr_func		*fn;
	const struct fr_stack	*stack;
	struct fr_node		*node;		/* NULL below max_depth */
	s32			pid;
	s32			tid;
	u32			depth;
	u32			nargs;
	int			level;		/* 1 for the outermost */
	u64			cookie;		/* fprobe_call's */
};

/* The complete calls of a thread which the report keeps */
struct fr_thread {
	s32			tid;
	bool			counted;	/* in nr_threads */
	struct fr_call		*calls;		/* by time, nested up to nr_settled */
	size_t			nr_calls;
	size_t			alloc_calls;
	size_t			nr_settled;	/* nested and summed already */
};

struct fprobe_report {
	struct fprobe_report_opts	opts;
	enum fr_sort_key		sort;
	struct fr_map			strings;	/* names, stacks */
	struct fr_map			funcs;		/* name -> fr_func */
	struct fr_map			nodes;		/* fr_node_key -> fr_node */
	struct fr_map			threads;	/* tid -> fr_thread */
	struct fr_thread		*last_thread;	/* the last call's */
	struct fr_thread		**thread_list;	/* by tid, after finish */
	size_t				nr_thread_list;
	struct fr_call			**open;		/* fr_nest_calls()' stack */
	size_t				alloc_open;
	/* the frame node of the last outermost call nested, and its stack */
	const struct fr_stack		*nest_stack;
	struct fr_node			*nest_frame;
	size_t				nr_calls;	/* complete calls kept by the filters */
	bool				dropped;	/* settled calls were dropped */
	struct fr_func			**func_list;	/* sorted, after finish */
	size_t				nr_funcs;
	struct fr_node			root;
	u64				lost;
	u64				throttled;	/* times */
	bool				counted;	/* calls counted in the kernel (-b) */
	u64				uncounted;	/* by the kernel, which missed them */
	u64				no_exit;
	u64				no_entry;
	u64				nr_threads;
	const struct fr_stack		*last_stack;	/* the last call's, interned */
	bool				finished;	/* finish was called */
	bool				ready;		/* and succeeded */
};

/* A callback of fr_visit_calls() */
typedef int (*fr_call_fn)(const struct fr_call *c, void *arg);

struct fr_walk {
	fprobe_report_call_fn	fn;
	void			*arg;
};

/* In util/fprobe-report.c, for util/fprobe-flamegraph.c */
u64 fr_add(u64 a, u64 b);
u64 fr_hash(const void *key, size_t len);
extern enum fr_sort_key fr_cur_sort;
int fr_node_cmp(const void *a, const void *b);
const char *fr_fmt_ns(char *buf, size_t size, u64 ns);
u64 fr_stats__avg(const struct fr_stats *st);
int fr_check_output(const struct fprobe_report *rep, FILE *fp);
int fr_output_status(FILE *fp);
int fr_visit_calls(const struct fprobe_report *rep, fr_call_fn fn, void *arg);

#endif /* __PERF_FPROBE_REPORT_INT_H */
