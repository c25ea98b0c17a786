// SPDX-License-Identifier: GPL-2.0
/*
 * Call graphs, latency histograms and flame graphs of the calls that
 * 'perf fprobe' recorded.
 *
 * The builtin hands every traced call to fprobe_report__add() as a struct
 * fprobe_call, in any order. A call whose entry and exit were both seen
 * (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT) has a latency; a call with only
 * one of them (the other record was lost, or the recording ended while the
 * call was in flight) is only counted, per function, and never given a
 * latency.
 *
 * fprobe_report__finish() nests the calls of each thread by their time
 * intervals (fprobe_report__settle() does it earlier, see below): B is
 * inside A when both ran on the same thread and
 *
 *	A.entry <= B.entry  and  B.entry + B.duration <= A.entry + A.duration
 *
 * and B's parent is the innermost such A. The call depth the kernel
 * recorded only breaks ties between calls with the same interval. The
 * calls are then merged by call path into a tree:
 *
 *	all
 *	`- entry_SYSCALL_64_after_hwframe	kernel callchain above the
 *	   `- do_syscall_64			outermost traced call (frames)
 *	      `- ksys_read			outermost traced call
 *	         `- vfs_read			traced calls nested inside it
 *
 * Each traced node sums the calls that took its path: count, total, self
 * (total minus the time of the traced calls nested in them), average, max
 * and p99 (nearest rank: exact up to FR_EXACT_DURS calls, then from
 * log-linear buckets, within 1/128 of it, so that a node of a million calls
 * keeps a few kilobytes rather than every duration). A frame node only
 * sums the traced calls below it.
 *
 * opts->min_latency drops the calls shorter than it (and so the calls
 * nested in them) before nesting; opts->tids and opts->times keep the
 * calls of some threads, that end in some time ranges;
 * opts->max_depth keeps that many levels of traced calls in the tree, the
 * calls nested deeper being counted in the flame graph width of their
 * ancestor at that level.
 *
 * A report keeps every complete call until it nests it: a recording of
 * millions of calls would take as many fr_calls. The reader of a recording
 * knows when a thread is out of every traced call (on tracefs, no entry is
 * open; through the PMU, the call that returned had no function graph frame
 * below it), and calls fprobe_report__settle() then: the calls of that
 * thread are nested and summed into the tree and the function statistics,
 * and dropped, unless opts->keep_calls (fprobe_report__walk_calls() and the
 * Chrome trace need them). The memory then grows with the distinct call
 * paths and the calls of one outermost call, not with the recording.
 *
 * This file depends on libc and the tools/include headers only, so that the
 * perf tests and the fuzz target can link it alone.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/types.h>

#include "fprobe-call.h"
#include "fprobe-report.h"
#include "time-utils.h"

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

static const char * const fr_sort_names[] = {
	[FR_SORT_TOTAL]	= "total",
	[FR_SORT_SELF]	= "self",
	[FR_SORT_AVG]	= "avg",
	[FR_SORT_MAX]	= "max",
	[FR_SORT_COUNT]	= "count",
	[FR_SORT_P99]	= "p99",
	[FR_SORT_NAME]	= "name",
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
	u64				no_exit;
	u64				no_entry;
	u64				nr_threads;
	const struct fr_stack		*last_stack;	/* the last call's, interned */
	bool				finished;	/* finish was called */
	bool				ready;		/* and succeeded */
};

/* A callback of fr_visit_calls() */
typedef int (*fr_call_fn)(const struct fr_call *c, void *arg);

/* Sums of durations stop at U64_MAX rather than wrap */
static u64 fr_add(u64 a, u64 b)
{
	return a + b < a ? ~0ULL : a + b;
}

static int fr_grow(void *ptr, size_t *alloc, size_t nr, size_t size)
{
	void **p = ptr;
	size_t n = *alloc ? *alloc * 2 : 16;
	void *q;

	if (nr < *alloc)
		return 0;
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}

static u64 fr_hash(const void *key, size_t len)
{
	const unsigned char *s = key;
	u64 h = 14695981039346656037ULL;	/* FNV-1a */

	while (len--) {
		h ^= *s++;
		h *= 1099511628211ULL;
	}
	return h;
}

static struct fr_map_entry *fr_map__slot(const struct fr_map *map, const void *key,
					 size_t len, u64 hash)
{
	size_t mask = map->size - 1, i;

	for (i = hash & mask; map->entries[i].key; i = (i + 1) & mask) {
		struct fr_map_entry *e = &map->entries[i];

		if (e->hash == hash && e->len == len && !memcmp(e->key, key, len))
			return e;
	}
	return &map->entries[i];
}

static void *fr_map__find(const struct fr_map *map, const void *key, size_t len)
{
	if (!map->size)
		return NULL;
	return fr_map__slot(map, key, len, fr_hash(key, len))->val;
}

/* Adds KEY, which must not be in MAP; the map keeps the KEY pointer */
static int fr_map__add(struct fr_map *map, const void *key, size_t len, void *val)
{
	struct fr_map_entry *e;

	if ((map->nr + 1) * 2 > map->size) {
		struct fr_map bigger = { .size = map->size ? map->size * 2 : 64, };
		size_t i;

		bigger.entries = calloc(bigger.size, sizeof(*bigger.entries));
		if (!bigger.entries)
			return -ENOMEM;
		for (i = 0; i < map->size; i++) {
			struct fr_map_entry *old = &map->entries[i];

			if (old->key)
				*fr_map__slot(&bigger, old->key, old->len, old->hash) = *old;
		}
		free(map->entries);
		map->entries = bigger.entries;
		map->size = bigger.size;
	}
	e = fr_map__slot(map, key, len, fr_hash(key, len));
	e->key = key;
	e->len = len;
	e->hash = fr_hash(key, len);
	e->val = val;
	map->nr++;
	return 0;
}

/* Calls FREE_VAL on each value, then frees the map */
static void fr_map__exit(struct fr_map *map, void (*free_val)(void *val))
{
	size_t i;

	for (i = 0; i < map->size; i++) {
		if (map->entries[i].key && free_val)
			free_val(map->entries[i].val);
	}
	free(map->entries);
	map->entries = NULL;
	map->nr = 0;
	map->size = 0;
}

/* Returns the one copy the report keeps of LEN bytes at BYTES */
static const void *fr_intern(struct fprobe_report *rep, const void *bytes, size_t len)
{
	void *copy = fr_map__find(&rep->strings, bytes, len);

	if (copy)
		return copy;
	copy = malloc(len ? len : 1);
	if (!copy)
		return NULL;
	memcpy(copy, bytes, len);
	if (fr_map__add(&rep->strings, copy, len, copy)) {
		free(copy);
		return NULL;
	}
	return copy;
}

static const char *fr_intern_str(struct fprobe_report *rep, const char *s)
{
	return fr_intern(rep, s, strlen(s) + 1);
}

static const char *fr_call_name(struct fprobe_report *rep, const struct fprobe_call *call)
{
	char buf[32];

	if (call->name && call->name[0])
		return fr_intern_str(rep, call->name);
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)call->func);
	return fr_intern_str(rep, buf);
}

static const struct fr_stack *fr_intern_stack(struct fprobe_report *rep,
					      const struct fprobe_call *call)
{
	const struct fr_stack *last = rep->last_stack;
	const struct fr_stack *ret = NULL;
	struct fr_stack *stack;
	size_t size;
	u32 i;

	/* calls of a recording mostly come from where the one before came */
	if (last && last->nr == call->nr_stack) {
		for (i = 0; i < last->nr; i++) {
			const char *frame = call->stack[i];

			if (strcmp(last->frames[i], frame && frame[0] ? frame : "[unknown]"))
				break;
		}
		if (i == last->nr)
			return last;
	}

	size = sizeof(*stack) + call->nr_stack * sizeof(char *);
	stack = calloc(1, size);
	if (!stack)
		return NULL;
	stack->nr = call->nr_stack;
	for (i = 0; i < call->nr_stack; i++) {
		const char *frame = call->stack[i];

		stack->frames[i] = fr_intern_str(rep, frame && frame[0] ? frame : "[unknown]");
		if (!stack->frames[i])
			goto out_free;
	}
	ret = fr_intern(rep, stack, size);
	if (ret)
		rep->last_stack = ret;
out_free:
	free(stack);
	return ret;
}

static struct fr_func *fr_func__findnew(struct fprobe_report *rep, const char *name)
{
	struct fr_func *fn = fr_map__find(&rep->funcs, name, strlen(name) + 1);

	if (fn)
		return fn;
	fn = calloc(1, sizeof(*fn));
	if (!fn)
		return NULL;
	fn->name = name;
	if (fr_map__add(&rep->funcs, name, strlen(name) + 1, fn)) {
		free(fn);
		return NULL;
	}
	return fn;
}

static struct fr_thread *fr_thread__findnew(struct fprobe_report *rep, s32 tid)
{
	struct fr_thread *thr = rep->last_thread;

	if (thr && thr->tid == tid)
		return thr;
	thr = fr_map__find(&rep->threads, &tid, sizeof(tid));
	if (!thr) {
		thr = calloc(1, sizeof(*thr));
		if (!thr)
			return NULL;
		thr->tid = tid;
		if (fr_map__add(&rep->threads, &thr->tid, sizeof(thr->tid), thr)) {
			free(thr);
			return NULL;
		}
	}
	rep->last_thread = thr;
	return thr;
}

static void fr_thread__free(void *val)
{
	struct fr_thread *thr = val;

	free(thr->calls);
	free(thr);
}

static void fr_stats__exit(struct fr_stats *st)
{
	int c;

	free(st->durs);
	st->durs = NULL;
	st->nr_durs = 0;
	st->alloc_durs = 0;
	if (st->chunks) {
		for (c = 0; c < FR_NR_CHUNKS; c++)
			free(st->chunks[c]);
		free(st->chunks);
		st->chunks = NULL;
	}
}

static void fr_func__free(void *val)
{
	struct fr_func *fn = val;

	fr_stats__exit(&fn->stats);
	free(fn);
}

static void fr_node__free(void *val)
{
	struct fr_node *node = val;

	fr_stats__exit(&node->stats);
	free(node->children);
	free(node);
}

const char *fprobe_report__sort_keys(void)
{
	static char keys[64];
	size_t i, len = 0;

	if (keys[0])
		return keys;
	for (i = 0; i < ARRAY_SIZE(fr_sort_names); i++)
		len += scnprintf(keys + len, sizeof(keys) - len, "%s%s", i ? ", " : "",
				 fr_sort_names[i]);
	return keys;
}

bool fprobe_report__sort_key_valid(const char *sort)
{
	size_t i;

	if (!sort)
		return true;
	for (i = 0; i < ARRAY_SIZE(fr_sort_names); i++) {
		if (!strcmp(sort, fr_sort_names[i]))
			return true;
	}
	return false;
}

/**
 * fprobe_report__new - start a report
 * @opts: filters and sort order; NULL for the defaults
 *
 * Return: the report, or NULL with errno set to EINVAL for an unknown sort
 * key (see fprobe_report__sort_keys()), a negative max_depth or nr_tids or
 * nr_times, or a list that is NULL with a non-zero number,
 * or to ENOMEM.
 */
struct fprobe_report *fprobe_report__new(const struct fprobe_report_opts *opts)
{
	struct fprobe_report_opts defaults = { .max_depth = 0, };
	struct fprobe_report *rep;
	size_t i;

	if (!opts)
		opts = &defaults;
	if (!fprobe_report__sort_key_valid(opts->sort) || opts->max_depth < 0 ||
	    opts->nr_tids < 0 || (opts->nr_tids && !opts->tids) ||
	    opts->nr_times < 0 || (opts->nr_times && !opts->times)) {
		errno = EINVAL;
		return NULL;
	}
	rep = calloc(1, sizeof(*rep));
	if (!rep) {
		errno = ENOMEM;
		return NULL;
	}
	rep->opts = *opts;
	rep->opts.sort = NULL;
	rep->sort = FR_SORT_TOTAL;
	for (i = 0; opts->sort && i < ARRAY_SIZE(fr_sort_names); i++) {
		if (!strcmp(opts->sort, fr_sort_names[i]))
			rep->sort = i;
	}
	rep->root.key.name = "all";
	rep->root.key.kind = FR_NODE_ROOT;
	return rep;
}

void fprobe_report__delete(struct fprobe_report *rep)
{
	if (!rep)
		return;
	fr_map__exit(&rep->nodes, fr_node__free);
	fr_map__exit(&rep->funcs, fr_func__free);
	fr_map__exit(&rep->threads, fr_thread__free);
	fr_map__exit(&rep->strings, free);
	fr_stats__exit(&rep->root.stats);
	free(rep->root.children);
	free(rep->thread_list);
	free(rep->open);
	free(rep->func_list);
	free(rep);
}

void fprobe_report__add_lost(struct fprobe_report *rep, u64 nr_records)
{
	if (rep)
		rep->lost = fr_add(rep->lost, nr_records);
}

void fprobe_report__add_throttled(struct fprobe_report *rep)
{
	if (rep)
		rep->throttled = fr_add(rep->throttled, 1);
}

/**
 * fprobe_report_opts__selects - whether the filters of threads and times keep a call
 * @opts: the report options
 * @call: the call
 *
 * As perf report --tid and --time select samples: the call is of one of the
 * threads of opts->tids (if any), and the time of its record is in one of
 * the ranges of opts->times (if any), from start to end included, a start or
 * end of 0 leaving that side open. That time is the end of the call (the
 * PMU writes a call's record when it returns, tracefs its exit record), or
 * for a call without exit its entry.
 */
bool fprobe_report_opts__selects(const struct fprobe_report_opts *opts,
				 const struct fprobe_call *call)
{
	u64 time = call->entry_time;
	int i;

	if (call->flags & FPROBE_CALL_EXIT)
		time += call->duration;

	for (i = 0; i < opts->nr_tids; i++) {
		if (opts->tids[i] == call->tid)
			break;
	}
	if (opts->nr_tids && i == opts->nr_tids)
		return false;
	for (i = 0; i < opts->nr_times; i++) {
		const struct perf_time_interval *t = &opts->times[i];

		if ((!t->start || time >= t->start) && (!t->end || time <= t->end))
			return true;
	}
	return !opts->nr_times;
}

/**
 * fprobe_report__add - add one traced call to the report
 * @rep: the report, not finished yet
 * @call: the call; the report copies what it keeps of it
 *
 * Return: 0 (also for a call the filters drop), -EINVAL for a call with
 * neither FPROBE_CALL_ENTRY nor FPROBE_CALL_EXIT, too many arguments, a
 * callchain without its symbols or deeper than 65535 frames, an interval
 * past the end of time, or after fprobe_report__finish(); -ENOMEM.
 */
int fprobe_report__add(struct fprobe_report *rep, const struct fprobe_call *call)
{
	const u32 both = FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT;
	const struct fr_stack *stack;
	struct fr_thread *thr;
	struct fr_call *c;
	struct fr_func *fn;
	const char *name;

	if (!rep || !call || rep->finished || !(call->flags & both) ||
	    (call->flags & ~both) || call->nargs > FPROBE_CALL_MAX_ARGS ||
	    call->nr_stack > FR_MAX_STACK || (call->nr_stack && !call->stack))
		return -EINVAL;
	if ((call->flags & FPROBE_CALL_EXIT) &&
	    call->entry_time + call->duration < call->entry_time)
		return -EINVAL;

	if (!fprobe_report_opts__selects(&rep->opts, call))
		return 0;

	name = fr_call_name(rep, call);
	if (!name)
		return -ENOMEM;
	fn = fr_func__findnew(rep, name);
	if (!fn)
		return -ENOMEM;

	if (call->flags != both) {
		if (call->flags & FPROBE_CALL_ENTRY) {
			fn->no_exit++;
			rep->no_exit++;
		} else {
			fn->no_entry++;
			rep->no_entry++;
		}
		return 0;
	}
	if (call->duration < rep->opts.min_latency)
		return 0;

	stack = fr_intern_stack(rep, call);
	if (!stack)
		return -ENOMEM;
	thr = fr_thread__findnew(rep, call->tid);
	if (!thr || fr_grow(&thr->calls, &thr->alloc_calls, thr->nr_calls, sizeof(*thr->calls)))
		return -ENOMEM;

	rep->nr_calls++;
	c = &thr->calls[thr->nr_calls++];
	memset(c, 0, sizeof(*c));
	c->entry = call->entry_time;
	c->duration = call->duration;
	c->retval = call->retval;
	c->ret_ip = call->ret_ip;
	c->func = call->func;
	c->nargs = call->nargs;
	memcpy(c->args, call->args, call->nargs * sizeof(u64));
	c->fn = fn;
	c->stack = stack;
	c->pid = call->pid;
	c->tid = call->tid;
	c->depth = call->depth;
	c->cookie = call->cookie;
	return 0;
}

/* The chunk and the bucket in it of @dur */
static void fr_bucket_of(u64 dur, int *chunk, u32 *sub)
{
	int top;

	if (dur < FR_SUB) {
		*chunk = 0;
		*sub = dur;
		return;
	}
	top = 63 - __builtin_clzll(dur);
	*chunk = top - FR_SUB_BITS + 1;
	*sub = (dur >> (top - FR_SUB_BITS)) - FR_SUB;
}

/* The largest duration bucket @sub of @chunk holds */
static u64 fr_bucket_last(int chunk, u32 sub)
{
	int shift;

	if (!chunk)
		return sub;
	shift = chunk - 1;
	return (((u64)(FR_SUB + sub) << shift) - 1) + ((u64)1 << shift);
}

static int fr_stats__bucket(struct fr_stats *st, u64 dur)
{
	u32 sub;
	int c;

	fr_bucket_of(dur, &c, &sub);
	if (!st->chunks) {
		st->chunks = calloc(FR_NR_CHUNKS, sizeof(*st->chunks));
		if (!st->chunks)
			return -ENOMEM;
	}
	if (!st->chunks[c]) {
		st->chunks[c] = calloc(FR_SUB, sizeof(u64));
		if (!st->chunks[c])
			return -ENOMEM;
	}
	st->chunks[c][sub]++;
	return 0;
}

static int fr_stats__add(struct fr_stats *st, u64 duration, u64 self)
{
	size_t i;

	if (st->nr_durs < FR_EXACT_DURS && !st->chunks) {
		if (fr_grow(&st->durs, &st->alloc_durs, st->nr_durs, sizeof(u64)))
			return -ENOMEM;
		st->durs[st->nr_durs++] = duration;
	} else {
		/* one more than the exact ones: into buckets, all of them */
		for (i = 0; i < st->nr_durs; i++) {
			if (fr_stats__bucket(st, st->durs[i]))
				return -ENOMEM;
		}
		free(st->durs);
		st->durs = NULL;
		st->nr_durs = 0;
		st->alloc_durs = 0;
		if (fr_stats__bucket(st, duration))
			return -ENOMEM;
	}
	if (duration > st->max)
		st->max = duration;
	st->count++;
	st->total = fr_add(st->total, duration);
	st->self = fr_add(st->self, self);
	return 0;
}

static int fr_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * p99 by nearest rank: the smallest duration >= 99% of them; from the
 * buckets, the last duration of the bucket holding it (no more than the
 * max), so at most 1/FR_SUB above it.
 */
static void fr_stats__finish(struct fr_stats *st)
{
	u64 rank, seen = 0;
	u32 sub;
	int c;

	if (st->nr_durs) {
		qsort(st->durs, st->nr_durs, sizeof(u64), fr_u64_cmp);
		rank = (st->nr_durs * 99 + 99) / 100;
		st->p99 = st->durs[rank - 1];
	} else if (st->chunks) {
		rank = (st->count / 100) * 99 + ((st->count % 100) * 99 + 99) / 100;
		for (c = 0; c < FR_NR_CHUNKS && seen < rank; c++) {
			for (sub = 0; st->chunks[c] && sub < FR_SUB; sub++) {
				seen += st->chunks[c][sub];
				if (seen >= rank) {
					st->p99 = min(fr_bucket_last(c, sub), st->max);
					break;
				}
			}
		}
	}
	fr_stats__exit(st);
}

static u64 fr_stats__avg(const struct fr_stats *st)
{
	return st->count ? st->total / st->count : 0;
}

/* Threads apart, then by time; the outer of two calls with the same interval first */
static int fr_call_cmp(const void *a, const void *b)
{
	const struct fr_call *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	if (x->duration != y->duration)
		return x->duration > y->duration ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return strcmp(x->fn->name, y->fn->name);
}

static struct fr_node *fr_node__child(struct fprobe_report *rep, struct fr_node *parent,
				      const char *name, enum fr_node_kind kind)
{
	struct fr_node_key key;
	struct fr_node *node;

	memset(&key, 0, sizeof(key));
	key.parent = parent;
	key.name = name;
	key.kind = kind;
	node = fr_map__find(&rep->nodes, &key, sizeof(key));
	if (node)
		return node;

	if (fr_grow(&parent->children, &parent->alloc_children, parent->nr_children,
		    sizeof(*parent->children)))
		return NULL;
	node = calloc(1, sizeof(*node));
	if (!node)
		return NULL;
	node->key = key;
	if (fr_map__add(&rep->nodes, &node->key, sizeof(node->key), node)) {
		free(node);
		return NULL;
	}
	parent->children[parent->nr_children++] = node;
	return node;
}

/*
 * Nests the calls of @thr not nested yet (they come after those nested
 * before, which none of them is inside): each one's parent call is the
 * innermost call of the thread around it. Then sums them into their
 * functions and tree nodes.
 */
static int fr_nest_calls(struct fprobe_report *rep, struct fr_thread *thr)
{
	struct fr_call *calls = thr->calls + thr->nr_settled;
	size_t nr = thr->nr_calls - thr->nr_settled, nr_open = 0, i;

	if (!nr)
		return 0;
	if (!thr->counted) {
		thr->counted = true;
		rep->nr_threads++;
	}

	/* a recording of calls that do not nest comes in order already */
	for (i = 1; i < nr; i++) {
		if (fr_call_cmp(&calls[i - 1], &calls[i]) > 0) {
			qsort(calls, nr, sizeof(*calls), fr_call_cmp);
			break;
		}
	}

	for (i = 0; i < nr; i++) {
		struct fr_call *c = &calls[i], *parent = NULL;

		while (nr_open) {
			struct fr_call *top = rep->open[nr_open - 1];

			if (c->entry + c->duration <= top->entry + top->duration) {
				parent = top;
				break;
			}
			nr_open--;
		}
		if (fr_grow(&rep->open, &rep->alloc_open, nr_open, sizeof(*rep->open)))
			return -ENOMEM;
		rep->open[nr_open++] = c;

		c->level = parent ? parent->level + 1 : 1;
		if (parent) {
			parent->child_time = fr_add(parent->child_time, c->duration);
			c->node = parent->node;
			if (rep->opts.max_depth && c->level > rep->opts.max_depth)
				continue;
			c->node = fr_node__child(rep, parent->node, c->fn->name, FR_NODE_CALL);
		} else {
			struct fr_node *node = &rep->root;
			u32 f;

			/* the frame node of an interned stack, as the call before's */
			if (c->stack == rep->nest_stack) {
				node = rep->nest_frame;
			} else {
				for (f = 0; node && f < c->stack->nr; f++) {
					node = fr_node__child(rep, node, c->stack->frames[f],
							      FR_NODE_FRAME);
				}
				if (!node)
					return -ENOMEM;
				rep->nest_stack = c->stack;
				rep->nest_frame = node;
			}
			if (node)
				node = fr_node__child(rep, node, c->fn->name, FR_NODE_CALL);
			c->node = node;
		}
		if (!c->node)
			return -ENOMEM;
	}

	/* all nested: the time of the calls in each call is known */
	for (i = 0; i < nr; i++) {
		struct fr_call *c = &calls[i];
		u64 self = c->duration > c->child_time ? c->duration - c->child_time : 0;
		int bucket = c->duration ? 64 - __builtin_clzll(c->duration) : 0;

		if (fr_stats__add(&c->fn->stats, c->duration, self))
			return -ENOMEM;
		c->fn->buckets[bucket]++;
		if (rep->opts.max_depth && c->level > rep->opts.max_depth)
			continue;
		if (fr_stats__add(&c->node->stats, c->duration, self))
			return -ENOMEM;
	}
	thr->nr_settled = thr->nr_calls;
	return 0;
}

/**
 * fprobe_report__settle - nest and sum the calls of a thread now
 * @rep: the report, not finished yet
 * @tid: the thread
 *
 * The caller knows that no call of @tid to come is around or inside one
 * added so far: the thread was out of every traced call when the last one
 * added returned. The report nests the calls of @tid added so far and sums
 * them into the tree and the function statistics, as fprobe_report__finish()
 * would, and keeps no more of them than those sums, unless opts->keep_calls.
 * A call to come that is around some of them all the same is made a sibling
 * of theirs.
 *
 * Return: 0, -EINVAL after fprobe_report__finish(), -ENOMEM.
 */
int fprobe_report__settle(struct fprobe_report *rep, s32 tid)
{
	struct fr_thread *thr;
	int err;

	if (!rep || rep->finished)
		return -EINVAL;
	thr = fr_map__find(&rep->threads, &tid, sizeof(tid));
	if (!thr)
		return 0;
	err = fr_nest_calls(rep, thr);
	if (err || rep->opts.keep_calls)
		return err;
	if (thr->nr_calls)
		rep->dropped = true;
	thr->nr_calls = 0;
	thr->nr_settled = 0;
	return 0;
}

/* The number of calls the report keeps one by one now */
size_t fprobe_report__nr_kept_calls(const struct fprobe_report *rep)
{
	size_t i, n = 0;

	for (i = 0; rep && i < rep->threads.size; i++) {
		const struct fr_thread *thr = rep->threads.entries[i].val;

		if (rep->threads.entries[i].key)
			n += thr->nr_calls;
	}
	return n;
}

static int fr_sort_cmp(enum fr_sort_key sort, const struct fr_stats *x, const char *xname,
		       const struct fr_stats *y, const char *yname)
{
	u64 a = 0, b = 0;

	switch (sort) {
	case FR_SORT_TOTAL:
		a = x->total;
		b = y->total;
		break;
	case FR_SORT_SELF:
		a = x->self;
		b = y->self;
		break;
	case FR_SORT_AVG:
		a = fr_stats__avg(x);
		b = fr_stats__avg(y);
		break;
	case FR_SORT_MAX:
		a = x->max;
		b = y->max;
		break;
	case FR_SORT_COUNT:
		a = x->count;
		b = y->count;
		break;
	case FR_SORT_P99:
		a = x->p99;
		b = y->p99;
		break;
	case FR_SORT_NAME:
	default:
		break;
	}
	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(xname, yname);
}

/* qsort() has no context argument: the sort key of the report being sorted */
static enum fr_sort_key fr_cur_sort;

static int fr_node_cmp(const void *a, const void *b)
{
	const struct fr_node *x = *(struct fr_node * const *)a;
	const struct fr_node *y = *(struct fr_node * const *)b;
	int ret = fr_sort_cmp(fr_cur_sort, &x->stats, x->key.name, &y->stats, y->key.name);

	if (ret)
		return ret;
	return x->key.kind < y->key.kind ? -1 : x->key.kind > y->key.kind;
}

static int fr_func_cmp(const void *a, const void *b)
{
	const struct fr_func *x = *(struct fr_func * const *)a;
	const struct fr_func *y = *(struct fr_func * const *)b;

	return fr_sort_cmp(fr_cur_sort, &x->stats, x->name, &y->stats, y->name);
}

/*
 * Sums frame nodes from their children, sorts children, and sets the flame
 * graph widths: a node is at least as wide as its children together.
 */
static void fr_node__finish(struct fr_node *node)
{
	u64 children = 0;
	size_t i;

	for (i = 0; i < node->nr_children; i++) {
		struct fr_node *child = node->children[i];

		fr_node__finish(child);
		children = fr_add(children, child->flame_total);
		if (node->key.kind != FR_NODE_CALL) {
			node->stats.count += child->stats.count;
			node->stats.total = fr_add(node->stats.total, child->stats.total);
		}
	}
	fr_stats__finish(&node->stats);
	node->flame_total = node->stats.total > children ? node->stats.total : children;
	node->flame_self = node->flame_total - children;
	if (node->key.kind != FR_NODE_CALL)
		node->flame_self = 0;
	if (node->nr_children > 1)
		qsort(node->children, node->nr_children, sizeof(*node->children), fr_node_cmp);
}

static int fr_thread_cmp(const void *a, const void *b)
{
	const struct fr_thread *x = *(struct fr_thread * const *)a;
	const struct fr_thread *y = *(struct fr_thread * const *)b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/**
 * fprobe_report__finish - nest the calls and build the tree and histograms
 * @rep: the report
 *
 * Return: 0, -EINVAL if already finished, -ENOMEM.
 */
int fprobe_report__finish(struct fprobe_report *rep)
{
	size_t i, n = 0;
	int err;

	if (!rep || rep->finished)
		return -EINVAL;
	rep->finished = true;

	rep->thread_list = calloc(rep->threads.nr ? rep->threads.nr : 1,
				  sizeof(*rep->thread_list));
	if (!rep->thread_list)
		return -ENOMEM;
	for (i = 0; i < rep->threads.size; i++) {
		struct fr_thread *thr = rep->threads.entries[i].val;

		if (!rep->threads.entries[i].key)
			continue;
		rep->thread_list[rep->nr_thread_list++] = thr;
		err = fr_nest_calls(rep, thr);
		if (err)
			return err;
	}
	qsort(rep->thread_list, rep->nr_thread_list, sizeof(*rep->thread_list), fr_thread_cmp);

	rep->func_list = calloc(rep->funcs.nr ? rep->funcs.nr : 1, sizeof(*rep->func_list));
	if (!rep->func_list)
		return -ENOMEM;
	for (i = 0; i < rep->funcs.size; i++) {
		if (rep->funcs.entries[i].key) {
			struct fr_func *fn = rep->funcs.entries[i].val;

			fr_stats__finish(&fn->stats);
			rep->func_list[n++] = fn;
		}
	}
	rep->nr_funcs = n;

	fr_cur_sort = rep->sort;
	qsort(rep->func_list, rep->nr_funcs, sizeof(*rep->func_list), fr_func_cmp);
	fr_node__finish(&rep->root);
	rep->ready = true;
	return 0;
}

/* NS in human units: "999 ns", "1.234 us", "1.235 ms", "1.235 s" */
static const char *fr_fmt_ns(char *buf, size_t size, u64 ns)
{
	u64 unit;
	const char *name;

	if (ns < NSEC_PER_USEC) {
		snprintf(buf, size, "%llu ns", (unsigned long long)ns);
		return buf;
	}
	if (ns < NSEC_PER_MSEC) {
		unit = NSEC_PER_USEC;
		name = "us";
	} else if (ns < NSEC_PER_SEC) {
		unit = NSEC_PER_MSEC;
		name = "ms";
	} else {
		unit = NSEC_PER_SEC;
		name = "s";
	}
	/* thousandths of the unit, rounded */
	unit /= 1000;
	ns = ns / unit + (ns % unit >= (unit + 1) / 2 && unit > 1);
	snprintf(buf, size, "%llu.%03llu %s", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000), name);
	return buf;
}

static u64 fr_nr_active_funcs(const struct fprobe_report *rep)
{
	u64 n = 0;
	size_t i;

	for (i = 0; i < rep->nr_funcs; i++)
		n += rep->func_list[i]->stats.count != 0;
	return n;
}

/* "N calls without exit: f 2, g 1" */
static void fr_print_partial(const struct fprobe_report *rep, FILE *fp, const char *what,
			     u64 nr, bool no_exit)
{
	const char *sep = " (";
	size_t i;

	fprintf(fp, "# calls without %s: %llu", what, (unsigned long long)nr);
	for (i = 0; i < rep->nr_funcs; i++) {
		const struct fr_func *fn = rep->func_list[i];
		u64 n = no_exit ? fn->no_exit : fn->no_entry;

		if (n) {
			fprintf(fp, "%s%s %llu", sep, fn->name, (unsigned long long)n);
			sep = ", ";
		}
	}
	fprintf(fp, "%s\n", nr ? ")" : "");
}

static void fr_print_header(const struct fprobe_report *rep, FILE *fp, const char *what)
{
	char buf[32];

	fprintf(fp, "# %s: %zu calls of %llu functions in %llu threads, total %s\n",
		what, rep->nr_calls, (unsigned long long)fr_nr_active_funcs(rep),
		(unsigned long long)rep->nr_threads,
		fr_fmt_ns(buf, sizeof(buf), rep->root.stats.total));
	fprintf(fp, "# lost records: %llu%s\n", (unsigned long long)rep->lost,
		rep->lost ? " (their calls are missing, or counted below without latency)" : "");
	if (rep->throttled)
		fprintf(fp, "# throttled: %llu times (%s; %s)\n",
			(unsigned long long)rep->throttled,
			"over kernel.perf_event_max_sample_rate records/s on a CPU",
			"the records dropped until the next tick are among the lost");
	fr_print_partial(rep, fp, "exit", rep->no_exit, true);
	fr_print_partial(rep, fp, "entry", rep->no_entry, false);
}

static int fr_check_output(const struct fprobe_report *rep, FILE *fp)
{
	if (!rep || !fp || !rep->ready)
		return -EINVAL;
	return 0;
}

static int fr_output_status(FILE *fp)
{
	return ferror(fp) ? -EIO : 0;
}

static void fr_print_node(const struct fprobe_report *rep, const struct fr_node *node,
			  int indent, FILE *fp)
{
	char total[32], self[32], avg[32], max[32], p99[32];
	const struct fr_stats *st = &node->stats;
	size_t i;

	if (node->key.kind == FR_NODE_CALL) {
		fprintf(fp, "%10llu %11s %11s %11s %11s %11s  %*s%s\n",
			(unsigned long long)st->count,
			fr_fmt_ns(total, sizeof(total), st->total),
			fr_fmt_ns(self, sizeof(self), st->self),
			fr_fmt_ns(avg, sizeof(avg), fr_stats__avg(st)),
			fr_fmt_ns(max, sizeof(max), st->max),
			fr_fmt_ns(p99, sizeof(p99), st->p99), indent, "", node->key.name);
	} else {
		fprintf(fp, "%10llu %11s %11s %11s %11s %11s  %*s%s\n",
			(unsigned long long)st->count,
			fr_fmt_ns(total, sizeof(total), st->total), "-", "-", "-", "-",
			indent, "", node->key.name);
	}
	for (i = 0; i < node->nr_children; i++)
		fr_print_node(rep, node->children[i], indent + 2, fp);
}

/**
 * fprobe_report__print_tree - print the call graph by call path
 * @rep: the finished report
 * @fp: where to
 *
 * Frames of the kernel callchain show the count and total of the traced
 * calls below them, and '-' for what only traced calls have.
 *
 * Return: 0, -EINVAL unless @rep was finished, -EIO on a write error.
 */
int fprobe_report__print_tree(struct fprobe_report *rep, FILE *fp)
{
	size_t i;
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	fr_print_header(rep, fp, "fprobe call graph");
	fprintf(fp, "#\n");
	if (!rep->root.nr_children) {
		fprintf(fp, "# no complete calls\n");
		return fr_output_status(fp);
	}
	fprintf(fp, "# %8s %11s %11s %11s %11s %11s  %s\n",
		"count", "total", "self", "avg", "max", "p99", "call path");
	for (i = 0; i < rep->root.nr_children; i++)
		fr_print_node(rep, rep->root.children[i], 0, fp);
	return fr_output_status(fp);
}

/* A bucket edge in 3 significant digits: "512 ns", "1.02 us", "16.4 ms" */
static const char *fr_fmt_edge(char *buf, size_t size, int bucket)
{
	const char *unit;
	double v;
	u64 ns;

	if (bucket >= 64) {
		snprintf(buf, size, "...");
		return buf;
	}
	ns = bucket ? 1ULL << (bucket - 1) : 0;
	if (ns < NSEC_PER_USEC) {
		snprintf(buf, size, "%llu ns", (unsigned long long)ns);
		return buf;
	}
	if (ns < NSEC_PER_MSEC) {
		v = ns / 1e3;
		unit = "us";
	} else if (ns < NSEC_PER_SEC) {
		v = ns / 1e6;
		unit = "ms";
	} else {
		v = ns / 1e9;
		unit = "s";
	}
	snprintf(buf, size, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit);
	return buf;
}

static void fr_print_func_hist(const struct fr_func *fn, FILE *fp)
{
	char total[32], avg[32], max[32], p99[32], from[32], to[32];
	const struct fr_stats *st = &fn->stats;
	int first = -1, last = -1, i;

	fprintf(fp, "# %s: %llu calls", fn->name, (unsigned long long)st->count);
	if (st->count) {
		fprintf(fp, ", total %s, avg %s, max %s, p99 %s",
			fr_fmt_ns(total, sizeof(total), st->total),
			fr_fmt_ns(avg, sizeof(avg), fr_stats__avg(st)),
			fr_fmt_ns(max, sizeof(max), st->max),
			fr_fmt_ns(p99, sizeof(p99), st->p99));
	}
	if (fn->no_exit)
		fprintf(fp, "; %llu without exit", (unsigned long long)fn->no_exit);
	if (fn->no_entry)
		fprintf(fp, "; %llu without entry", (unsigned long long)fn->no_entry);
	fprintf(fp, "\n");
	if (!st->count)
		return;

	for (i = 0; i < FR_NR_BUCKETS; i++) {
		if (fn->buckets[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
	}
	fprintf(fp, "# %21s | %10s | %-*s |\n", "DURATION       ", "COUNT",
		FR_BAR_WIDTH, "GRAPH");
	for (i = first; i <= last; i++) {
		int bar = (int)(fn->buckets[i] * FR_BAR_WIDTH / st->count);

		fprintf(fp, "  %9s - %-9s | %10llu | %.*s%*s |\n",
			fr_fmt_edge(from, sizeof(from), i), fr_fmt_edge(to, sizeof(to), i + 1),
			(unsigned long long)fn->buckets[i], bar,
			"##############################################",
			FR_BAR_WIDTH - bar, "");
	}
}

/**
 * fprobe_report__print_hist - print a latency histogram per function
 * @rep: the finished report
 * @fp: where to
 *
 * Buckets are log2 of the duration in ns, from the first to the last one
 * used; functions come in the report's sort order.
 *
 * Return: 0, -EINVAL unless @rep was finished, -EIO on a write error.
 */
int fprobe_report__print_hist(struct fprobe_report *rep, FILE *fp)
{
	size_t i;
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	fr_print_header(rep, fp, "fprobe latency histograms");
	for (i = 0; i < rep->nr_funcs; i++) {
		fprintf(fp, "\n");
		fr_print_func_hist(rep->func_list[i], fp);
	}
	return fr_output_status(fp);
}

/* The children of NODE in name order, for the outputs that merge by name */
static struct fr_node **fr_children_by_name(const struct fr_node *node)
{
	struct fr_node **children;

	children = malloc((node->nr_children ? node->nr_children : 1) * sizeof(*children));
	if (!children)
		return NULL;
	if (node->nr_children)
		memcpy(children, node->children, node->nr_children * sizeof(*children));
	fr_cur_sort = FR_SORT_NAME;
	qsort(children, node->nr_children, sizeof(*children), fr_node_cmp);
	return children;
}

/* Frame names in folded stacks: no ';' (separator), no blanks, no control chars */
static void fr_folded_name(const char *name, FILE *fp)
{
	for (; *name; name++) {
		unsigned char ch = *name;

		if (ch == ';')
			ch = ':';
		else if (ch <= ' ' || ch == 0x7f)
			ch = '_';
		fputc(ch, fp);
	}
}

static int fr_write_folded_node(const struct fr_node *node, const struct fr_node **path,
				int depth, FILE *fp)
{
	struct fr_node **children;
	size_t i;
	int d, err = 0;

	path[depth] = node;
	if (node->flame_self) {
		for (d = 0; d <= depth; d++) {
			if (d)
				fputc(';', fp);
			fr_folded_name(path[d]->key.name, fp);
		}
		fprintf(fp, " %llu\n", (unsigned long long)node->flame_self);
	}
	children = fr_children_by_name(node);
	if (!children)
		return -ENOMEM;
	for (i = 0; i < node->nr_children && !err; i++)
		err = fr_write_folded_node(children[i], path, depth + 1, fp);
	free(children);
	return err;
}

static int fr_node__height(const struct fr_node *node)
{
	int max = 0, h;
	size_t i;

	for (i = 0; i < node->nr_children; i++) {
		h = fr_node__height(node->children[i]);
		if (h > max)
			max = h;
	}
	return max + 1;
}

/**
 * fprobe_report__write_folded - write folded stacks
 * @rep: the finished report
 * @fp: where to
 *
 * One "frame;frame;func value" line per call path, in name order, whose
 * value is the self time in ns of the calls on that path (the time of the
 * calls nested deeper than max_depth included), so that flamegraph.pl,
 * inferno and speedscope weight frames by time. In names, ';' becomes ':'
 * and blanks and control characters '_'.
 *
 * Return: 0, -EINVAL unless @rep was finished, -ENOMEM, -EIO on a write error.
 */
int fprobe_report__write_folded(struct fprobe_report *rep, FILE *fp)
{
	const struct fr_node **path;
	struct fr_node **children;
	size_t i;
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	path = calloc(fr_node__height(&rep->root), sizeof(*path));
	children = fr_children_by_name(&rep->root);
	if (!path || !children) {
		err = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < rep->root.nr_children && !err; i++)
		err = fr_write_folded_node(children[i], path, 0, fp);
	if (!err)
		err = fr_output_status(fp);
out_free:
	free(children);
	free(path);
	return err;
}

/* Writes S escaped for XML text and attributes; only printable ASCII is kept */
static void fr_xml_escape(const char *s, size_t len, FILE *fp)
{
	size_t i;

	for (i = 0; i < len && s[i]; i++) {
		unsigned char ch = s[i];

		switch (ch) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&apos;", fp);
			break;
		default:
			fputc(ch < ' ' || ch >= 0x7f ? '?' : ch, fp);
			break;
		}
	}
}

/* Writes S as the contents of a JSON string */
static void fr_json_escape(const char *s, FILE *fp)
{
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < ' ' || ch >= 0x7f)
			fprintf(fp, "\\u%04x", ch);
		else
			fputc(ch, fp);
	}
}

#define SVG_WIDTH	1200
#define SVG_XPAD	10
#define SVG_FRAME_H	16
#define SVG_TOP		64
#define SVG_BOTTOM	40
#define SVG_FONT	12
#define SVG_CHAR_W	(SVG_FONT * 0.59)
#define SVG_MIN_W	0.1

/* Colors from the name, so that a function keeps its color across graphs */
static void fr_svg_color(const struct fr_node *node, char *buf, size_t size)
{
	u64 h = fr_hash(node->key.name, strlen(node->key.name));
	unsigned int a, b, c;

	h ^= h >> 33;		/* spread the bits of close names apart */
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	a = h & 0xff;
	b = (h >> 8) & 0xff;
	c = (h >> 16) & 0xff;

	switch (node->key.kind) {
	case FR_NODE_CALL:	/* warm: traced functions */
		snprintf(buf, size, "rgb(%u,%u,%u)", 205 + a % 50, 60 + b % 170, c % 60);
		break;
	case FR_NODE_FRAME:	/* cool: the callchain above them */
		snprintf(buf, size, "rgb(%u,%u,%u)", 120 + a % 50, 160 + b % 40, 200 + c % 50);
		break;
	case FR_NODE_ROOT:
	default:
		snprintf(buf, size, "rgb(190,190,190)");
		break;
	}
}

struct fr_svg {
	FILE		*fp;
	u64		total;		/* ns across the whole width */
	int		height;		/* levels */
	int		img_height;
};

static void fr_svg_label(const char *name, double width, FILE *fp)
{
	size_t len = strlen(name);
	int fit = (int)((width - 6) / SVG_CHAR_W);

	if (fit < 3)
		return;
	if ((size_t)fit >= len) {
		fr_xml_escape(name, len, fp);
		return;
	}
	fr_xml_escape(name, fit - 2, fp);
	fputs("..", fp);
}

static int fr_svg_node(struct fr_svg *svg, const struct fr_node *node, u64 start, int level)
{
	const double avail = SVG_WIDTH - 2 * SVG_XPAD;
	double x = SVG_XPAD + (double)start / svg->total * avail;
	double w = (double)node->flame_total / svg->total * avail;
	int y = svg->img_height - SVG_BOTTOM - (level + 1) * SVG_FRAME_H;
	char total[32], self[32], color[32];
	struct fr_node **children;
	FILE *fp = svg->fp;
	size_t i;
	int err = 0;

	if (w < SVG_MIN_W)
		return 0;
	fr_svg_color(node, color, sizeof(color));
	fprintf(fp, "<g class=\"f\" data-s=\"%llu\" data-w=\"%llu\" data-l=\"%d\" data-n=\"",
		(unsigned long long)start, (unsigned long long)node->flame_total, level);
	fr_xml_escape(node->key.name, SIZE_MAX, fp);
	fprintf(fp, "\"><title>");
	fr_xml_escape(node->key.name, SIZE_MAX, fp);
	if (node->key.kind == FR_NODE_CALL) {
		fprintf(fp, " (%llu calls, total %s, self %s, %.2f%%)",
			(unsigned long long)node->stats.count,
			fr_fmt_ns(total, sizeof(total), node->stats.total),
			fr_fmt_ns(self, sizeof(self), node->stats.self),
			100.0 * node->flame_total / svg->total);
	} else {
		fprintf(fp, " (%llu traced calls, %s, %.2f%%)",
			(unsigned long long)node->stats.count,
			fr_fmt_ns(total, sizeof(total), node->flame_total),
			100.0 * node->flame_total / svg->total);
	}
	fprintf(fp, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"",
		x, y, w, SVG_FRAME_H - 1, color);
	fprintf(fp, " rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%d\">", x + 3, y + SVG_FRAME_H - 4);
	fr_svg_label(node->key.name, w, fp);
	fprintf(fp, "</text></g>\n");

	children = fr_children_by_name(node);
	if (!children)
		return -ENOMEM;
	for (i = 0; i < node->nr_children && !err; i++) {
		err = fr_svg_node(svg, children[i], start, level + 1);
		start = fr_add(start, children[i]->flame_total);
	}
	free(children);
	return err;
}

static const char fr_svg_style[] =
"<style type=\"text/css\">\n"
"\ttext { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
"\t#title { font-size: 17px; text-anchor: middle; }\n"
"\t#subtitle { fill: rgb(90,90,90); text-anchor: middle; }\n"
"\t#search, #unzoom, #matched { cursor: pointer; }\n"
"\t#search, #matched { text-anchor: end; }\n"
"\t.f { cursor: pointer; }\n"
"\t.f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
"\t.f text { pointer-events: none; }\n"
"\t.anc { opacity: 0.6; }\n"
"\t.hide { display: none; }\n"
"</style>\n";

/**
 * fprobe_report__write_svg - write a flame graph as a self-contained SVG
 * @rep: the finished report
 * @fp: where to
 * @title: its title, NULL for a default
 *
 * Frames are as wide as the time of the calls below them (the kernel
 * callchain frames in cool colors, the traced functions in warm ones),
 * siblings in name order, the outermost at the bottom. It opens offline:
 * no external script, style sheet or font; inline script for click to
 * zoom, Reset Zoom, and search with the matched share of the time.
 *
 * Return: 0, -EINVAL unless @rep was finished, -ENOMEM, -EIO on a write error.
 */
int fprobe_report__write_svg(struct fprobe_report *rep, FILE *fp, const char *title)
{
	struct fr_svg svg = { .fp = fp, };
	char total[32];
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	if (!title)
		title = "perf fprobe flame graph";
	svg.total = rep->root.flame_total;
	svg.height = fr_node__height(&rep->root);
	svg.img_height = SVG_TOP + svg.height * SVG_FRAME_H + SVG_BOTTOM;

	fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	fprintf(fp, "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"",
		SVG_WIDTH, svg.img_height, SVG_WIDTH, svg.img_height);
	fprintf(fp, " onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\">\n");
	fputs(fr_svg_style, fp);
	/* The script, and the layout it needs (util/fprobe-flamegraph.js) */
	fprintf(fp, "<script type=\"text/ecmascript\"><![CDATA[\n\"use strict\";\n");
	fprintf(fp, "var W = %d, XPAD = %d, CW = %.2f;\n", SVG_WIDTH, SVG_XPAD, SVG_CHAR_W);
	fputs(fprobe_flamegraph_js, fp);
	fprintf(fp, "]]></script>\n");
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
		SVG_WIDTH, svg.img_height, "rgb(250,250,245)");
	fprintf(fp, "<text id=\"title\" x=\"%d\" y=\"24\">", SVG_WIDTH / 2);
	fr_xml_escape(title, SIZE_MAX, fp);
	fprintf(fp, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"42\">%zu calls, %s traced;",
		SVG_WIDTH / 2, rep->nr_calls, fr_fmt_ns(total, sizeof(total), svg.total));
	fprintf(fp, " lost records: %llu; calls without exit: %llu; without entry: %llu</text>\n",
		(unsigned long long)rep->lost, (unsigned long long)rep->no_exit,
		(unsigned long long)rep->no_entry);
	fprintf(fp, "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n",
		SVG_XPAD);
	fprintf(fp, "<text id=\"search\" x=\"%d\" y=\"24\">Search</text>\n",
		SVG_WIDTH - SVG_XPAD);
	fprintf(fp, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		SVG_XPAD, svg.img_height - 14);
	fprintf(fp, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n",
		SVG_WIDTH - SVG_XPAD, svg.img_height - 14);

	if (svg.total)
		err = fr_svg_node(&svg, &rep->root, 0, 0);
	else
		fprintf(fp, "<text x=\"%d\" y=\"%d\">no complete calls</text>\n",
			SVG_XPAD, SVG_TOP + 12);
	fprintf(fp, "</svg>\n");
	if (!err)
		err = fr_output_status(fp);
	return err;
}

/* ns as us with three decimals, exact */
static void fr_json_us(FILE *fp, u64 ns)
{
	fprintf(fp, "%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

/*
 * @fn on each call the report keeps one by one and shows (at most max_depth
 * levels deep), by thread and time; a non-zero return stops and is returned
 */
static int fr_visit_calls(const struct fprobe_report *rep, fr_call_fn fn, void *arg)
{
	size_t t, i;
	int err;

	for (t = 0; t < rep->nr_thread_list; t++) {
		const struct fr_thread *thr = rep->thread_list[t];

		for (i = 0; i < thr->nr_calls; i++) {
			const struct fr_call *c = &thr->calls[i];

			if (rep->opts.max_depth && c->level > rep->opts.max_depth)
				continue;
			err = fn(c, arg);
			if (err)
				return err;
		}
	}
	return 0;
}

struct fr_walk {
	fprobe_report_call_fn	fn;
	void			*arg;
};

static int fr_walk_call(const struct fr_call *c, void *arg)
{
	struct fr_walk *walk = arg;

	return walk->fn(c->cookie, c->level, walk->arg);
}

int fprobe_report__walk_calls(struct fprobe_report *rep, fprobe_report_call_fn fn,
			      void *arg)
{
	struct fr_walk walk = { .fn = fn, .arg = arg, };

	if (!rep || !rep->ready || rep->dropped || !fn)
		return -EINVAL;
	return fr_visit_calls(rep, fr_walk_call, &walk);
}

struct fr_chrome {
	FILE		*fp;
	const char	*sep;
};

/* One Chrome trace event */
static int fr_chrome_call(const struct fr_call *c, void *arg)
{
	struct fr_chrome *chrome = arg;
	FILE *fp = chrome->fp;
	u32 a;

	fprintf(fp, "%s\n{\"name\":\"", chrome->sep);
	chrome->sep = ",";
	fr_json_escape(c->fn->name, fp);
	fprintf(fp, "\",\"cat\":\"fprobe\",\"ph\":\"X\",\"ts\":");
	fr_json_us(fp, c->entry);
	fprintf(fp, ",\"dur\":");
	fr_json_us(fp, c->duration);
	fprintf(fp, ",\"pid\":%d,\"tid\":%d,\"args\":{", c->pid, c->tid);
	fprintf(fp, "\"level\":%d,\"ret_ip\":\"0x%llx\",\"retval\":\"0x%llx\"",
		c->level, (unsigned long long)c->ret_ip, (unsigned long long)c->retval);
	for (a = 0; a < c->nargs; a++)
		fprintf(fp, ",\"arg%u\":\"0x%llx\"", a + 1, (unsigned long long)c->args[a]);
	fprintf(fp, "}}");
	return 0;
}

/**
 * fprobe_report__write_chrome - write the calls as Chrome trace events
 * @rep: the finished report
 * @fp: where to
 *
 * One complete ("X") event per call kept by the filters (and above
 * max_depth), by thread and time, with ts and dur in us; args hold the
 * nesting level, return address, return value and arguments (arg1 the
 * first, as perf fprobe -V and --calls number them), as hex strings since
 * JSON numbers lose 64-bit precision. Opens in Perfetto and
 * chrome://tracing.
 *
 * Return: 0, -EINVAL unless @rep was finished, or if it dropped settled
 * calls (see fprobe_report__settle()), -EIO on a write error.
 */
int fprobe_report__write_chrome(struct fprobe_report *rep, FILE *fp)
{
	struct fr_chrome chrome = { .fp = fp, .sep = "", };
	int err = fr_check_output(rep, fp);

	if (err)
		return err;
	if (rep->dropped)
		return -EINVAL;
	fprintf(fp, "{\"traceEvents\":[");
	fr_visit_calls(rep, fr_chrome_call, &chrome);
	fprintf(fp, "\n],\"displayTimeUnit\":\"ns\"}\n");
	return fr_output_status(fp);
}
