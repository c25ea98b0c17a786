// SPDX-License-Identifier: GPL-2.0
/*
 * Call graphs and latency histograms of the calls that 'perf fprobe'
 * recorded; util/fprobe-flamegraph.c writes their outputs for other tools.
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
#include "fprobe-report-int.h"

static const char * const fr_sort_names[] = {
	[FR_SORT_TOTAL]	= "total",
	[FR_SORT_SELF]	= "self",
	[FR_SORT_AVG]	= "avg",
	[FR_SORT_MAX]	= "max",
	[FR_SORT_COUNT]	= "count",
	[FR_SORT_P99]	= "p99",
	[FR_SORT_NAME]	= "name",
};

/* Sums of durations stop at U64_MAX rather than wrap */
u64 fr_add(u64 a, u64 b)
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

u64 fr_hash(const void *key, size_t len)
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

/* @n durations of @dur into the buckets */
static int fr_stats__bucket(struct fr_stats *st, u64 dur, u64 n)
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
	st->chunks[c][sub] = fr_add(st->chunks[c][sub], n);
	return 0;
}

/* The exact durations kept so far into the buckets, where the next go too */
static int fr_stats__to_buckets(struct fr_stats *st)
{
	size_t i;

	for (i = 0; i < st->nr_durs; i++) {
		if (fr_stats__bucket(st, st->durs[i], 1))
			return -ENOMEM;
	}
	free(st->durs);
	st->durs = NULL;
	st->nr_durs = 0;
	st->alloc_durs = 0;
	return 0;
}

static int fr_stats__add(struct fr_stats *st, u64 duration, u64 self)
{
	if (st->nr_durs < FR_EXACT_DURS && !st->chunks) {
		if (fr_grow(&st->durs, &st->alloc_durs, st->nr_durs, sizeof(u64)))
			return -ENOMEM;
		st->durs[st->nr_durs++] = duration;
	} else {
		/* one more than the exact ones: into buckets, all of them */
		if (fr_stats__to_buckets(st) || fr_stats__bucket(st, duration, 1))
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

u64 fr_stats__avg(const struct fr_stats *st)
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

/* The calls of @sum, counted in the kernel, in @st */
static int fr_stats__add_sum(struct fr_stats *st, const struct fprobe_report_sum *sum)
{
	u32 i;

	if (fr_stats__to_buckets(st))
		return -ENOMEM;
	for (i = 0; i < sum->nr_buckets; i++) {
		if (sum->buckets[i].count &&
		    fr_stats__bucket(st, sum->buckets[i].last, sum->buckets[i].count))
			return -ENOMEM;
	}
	if (sum->max > st->max)
		st->max = sum->max;
	st->count = fr_add(st->count, sum->count);
	st->total = fr_add(st->total, sum->total);
	st->self = fr_add(st->self, sum->self);
	return 0;
}

/**
 * fprobe_report__add_sum - add calls counted in the kernel, by call path
 * @rep: the report, not finished yet
 * @sum: their function, call path and sums
 *
 * The calls of perf fprobe -b, which are not recorded one by one: all those
 * of a function by one call path, with the kernel callchain above the
 * outermost traced call (@sum->stack) and the traced calls they are nested
 * in (@sum->path), their count, total, self and max times and their
 * latency buckets. The filters of threads and times cannot select among
 * them and are not applied, nor is min_latency (the kernel did it).
 *
 * Return: 0, -EINVAL for a bad @sum or a finished report, -ENOMEM.
 */
int fprobe_report__add_sum(struct fprobe_report *rep, const struct fprobe_report_sum *sum)
{
	struct fr_node *node = &rep->root;
	const char *name;
	struct fr_func *fn;
	int level = 1;
	u32 i;

	if (!rep || !sum || rep->finished || !sum->name || !sum->name[0] ||
	    sum->nr_stack > FR_MAX_STACK || (sum->nr_stack && !sum->stack) ||
	    (sum->nr_path && !sum->path) || (sum->nr_buckets && !sum->buckets) ||
	    sum->self > sum->total || sum->max > sum->total)
		return -EINVAL;

	rep->counted = true;
	name = fr_intern_str(rep, sum->name);
	fn = name ? fr_func__findnew(rep, name) : NULL;
	if (!fn || fr_stats__add_sum(&fn->stats, sum))
		return -ENOMEM;
	for (i = 0; i < sum->nr_buckets; i++) {
		u64 last = sum->buckets[i].last;

		fn->buckets[last ? 64 - __builtin_clzll(last) : 0] += sum->buckets[i].count;
	}
	rep->nr_calls += sum->count;

	for (i = 0; node && i < sum->nr_stack; i++) {
		const char *frame = sum->stack[i];

		frame = fr_intern_str(rep, frame && frame[0] ? frame : "[unknown]");
		node = frame ? fr_node__child(rep, node, frame, FR_NODE_FRAME) : NULL;
	}
	for (i = 0; node && i <= sum->nr_path; i++, level++) {
		const char *call = i < sum->nr_path ? fr_intern_str(rep, sum->path[i]) : name;

		if (rep->opts.max_depth && level > rep->opts.max_depth)
			return 0;
		node = call ? fr_node__child(rep, node, call, FR_NODE_CALL) : NULL;
	}
	if (!node || fr_stats__add_sum(&node->stats, sum))
		return -ENOMEM;
	return 0;
}

/* Calls counted in the kernel, none of which may come: those it did not count */
void fprobe_report__add_uncounted(struct fprobe_report *rep, u64 nr_calls)
{
	if (!rep)
		return;
	rep->counted = true;
	rep->uncounted = fr_add(rep->uncounted, nr_calls);
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

/* The calls the report sums: kept by its filters, or counted in the kernel */
size_t fprobe_report__nr_calls(const struct fprobe_report *rep)
{
	return rep ? rep->nr_calls : 0;
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
enum fr_sort_key fr_cur_sort;

int fr_node_cmp(const void *a, const void *b)
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
const char *fr_fmt_ns(char *buf, size_t size, u64 ns)
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

	if (rep->counted) {
		fprintf(fp, "# %s: %zu calls of %llu functions, total %s, %s\n", what,
			rep->nr_calls, (unsigned long long)fr_nr_active_funcs(rep),
			fr_fmt_ns(buf, sizeof(buf), rep->root.stats.total),
			"each counted in the kernel");
		fprintf(fp, "# calls not counted: %llu%s\n", (unsigned long long)rep->uncounted,
			rep->uncounted ? " (missing below)" : "");
		return;
	}
	fprintf(fp, "# %s: %zu calls of %llu functions in %llu threads, total %s\n",
		what, rep->nr_calls, (unsigned long long)fr_nr_active_funcs(rep),
		(unsigned long long)rep->nr_threads,
		fr_fmt_ns(buf, sizeof(buf), rep->root.stats.total));
	fprintf(fp, "# lost records: %llu", (unsigned long long)rep->lost);
	if (rep->lost)
		fprintf(fp, "%s",
			" (their calls are missing, or counted below without latency: the counts and times below are those of a sample; perf fprobe -b counts every call)");
	fprintf(fp, "\n");
	if (rep->throttled)
		fprintf(fp, "# throttled: %llu times (%s; %s)\n",
			(unsigned long long)rep->throttled,
			"over kernel.perf_event_max_sample_rate records/s on a CPU",
			"the records dropped until the next tick are among the lost");
	fr_print_partial(rep, fp, "exit", rep->no_exit, true);
	fr_print_partial(rep, fp, "entry", rep->no_entry, false);
}

int fr_check_output(const struct fprobe_report *rep, FILE *fp)
{
	if (!rep || !fp || !rep->ready)
		return -EINVAL;
	return 0;
}

int fr_output_status(FILE *fp)
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

/*
 * @fn on each call the report keeps one by one and shows (at most max_depth
 * levels deep), by thread and time; a non-zero return stops and is returned
 */
int fr_visit_calls(const struct fprobe_report *rep, fr_call_fn fn, void *arg)
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
