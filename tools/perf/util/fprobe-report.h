/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_REPORT_H
#define __PERF_FPROBE_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct fprobe_call;
struct fprobe_report;
struct perf_time_interval;

struct fprobe_report_opts {
	u64		min_latency;	/* ns; shorter calls are dropped from tree/hist/flame */
	int		max_depth;	/* 0: unlimited; levels of traced calls in the tree */
	/* the calls of these threads only; NULL: all (kept by the report, as times) */
	const int	*tids;
	int		nr_tids;
	/* the calls that end in these ranges only (0: open end); NULL: all */
	const struct perf_time_interval *times;
	int		nr_times;
	const char	*sort;		/* FPROBE_REPORT_SORT_KEYS, NULL: "total" */
	/* fprobe_report__settle() keeps the calls, for walk_calls and Chrome */
	bool		keep_calls;
};

bool fprobe_report__sort_key_valid(const char *sort);
/* The keys opts->sort takes, the default first, as "total, self, ..." */
const char *fprobe_report__sort_keys(void);
/* Whether @call is of a thread of opts->tids and ends in a range of opts->times */
bool fprobe_report_opts__selects(const struct fprobe_report_opts *opts,
				 const struct fprobe_call *call);

/* The latency buckets of calls counted in the kernel: @count of at most @last ns */
struct fprobe_report_bucket {
	u64		last;
	u64		count;
};

/* Calls counted in the kernel (perf fprobe -b): a function by one call path */
struct fprobe_report_sum {
	const char	*name;		/* the function */
	u32		nr_stack;	/* the kernel callchain above the call path */
	const char	**stack;	/* its symbols, outermost first */
	u32		nr_path;	/* the traced calls around these */
	const char	**path;		/* their functions, outermost first */
	u64		count;
	u64		total;		/* ns */
	u64		self;		/* ns, less the traced calls nested in them */
	u64		max;		/* ns */
	u32		nr_buckets;
	const struct fprobe_report_bucket *buckets;
};

/* NULL with errno EINVAL for a bad sort key, max_depth, tids or times; ENOMEM */
struct fprobe_report *fprobe_report__new(const struct fprobe_report_opts *opts);
/* Copies what it keeps (name, stack strings too); calls may arrive in any order */
int  fprobe_report__add(struct fprobe_report *rep, const struct fprobe_call *call);
void fprobe_report__add_lost(struct fprobe_report *rep, u64 nr_records);
int  fprobe_report__add_sum(struct fprobe_report *rep, const struct fprobe_report_sum *sum);
/* Calls the kernel did not count (perf fprobe -b) */
void fprobe_report__add_uncounted(struct fprobe_report *rep, u64 nr_calls);
void fprobe_report__add_throttled(struct fprobe_report *rep);
/* No call of @tid to come is around or in one added: nest and sum them now */
int  fprobe_report__settle(struct fprobe_report *rep, s32 tid);
size_t fprobe_report__nr_kept_calls(const struct fprobe_report *rep);
size_t fprobe_report__nr_calls(const struct fprobe_report *rep);
/* Nests calls per tid by time intervals, builds the tree */
int  fprobe_report__finish(struct fprobe_report *rep);
int  fprobe_report__print_tree(struct fprobe_report *rep, FILE *fp);
int  fprobe_report__print_hist(struct fprobe_report *rep, FILE *fp);
int  fprobe_report__write_folded(struct fprobe_report *rep, FILE *fp);
int  fprobe_report__write_svg(struct fprobe_report *rep, FILE *fp, const char *title);
int  fprobe_report__write_chrome(struct fprobe_report *rep, FILE *fp);
int  fprobe_report__write_csv(struct fprobe_report *rep, FILE *fp);
/*
 * After fprobe_report__finish() succeeded: @fn on each call the report keeps (its
 * filters passed, at most max_depth levels deep), with the cookie it was
 * added with and its nesting level (1 for the outermost), by thread and
 * time; a non-zero return of @fn stops the walk and is returned. -EINVAL
 * if fprobe_report__settle() dropped calls (opts.keep_calls unset).
 */
typedef int (*fprobe_report_call_fn)(u64 cookie, int level, void *arg);
int  fprobe_report__walk_calls(struct fprobe_report *rep, fprobe_report_call_fn fn,
			       void *arg);
void fprobe_report__delete(struct fprobe_report *rep);

/* The script of the SVG flame graphs, util/fprobe-flamegraph.js (util/Build) */
extern const char fprobe_flamegraph_js[];

#endif /* __PERF_FPROBE_REPORT_H */
