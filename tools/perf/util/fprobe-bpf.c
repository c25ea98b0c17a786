// SPDX-License-Identifier: GPL-2.0
/*
 * perf fprobe -b: every call of the traced functions counted in the kernel
 * by a BPF kprobe session program (util/bpf_skel/fprobe_exact.bpf.c), as
 * perf ftrace latency -b counts one function's: nothing is recorded, so
 * nothing is lost however often the functions are called. The program sums
 * the calls by call path (a function and the kernel stack id at its entry)
 * and latency bucket; this file reads the sums back, names the frames of
 * each stack, splits them into the callchain above the outermost traced
 * call and the traced calls below it, and hands them to the report.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <perf/cpumap.h>
#include <perf/threadmap.h>

#include "bpf_counter.h"
#include "util.h"
#include "debug.h"
#include "evlist.h"
#include "machine.h"
#include "map.h"
#include "symbol.h"
#include "target.h"
#include "fprobe-bpf.h"
#include "fprobe-probe.h"
#include "fprobe-report.h"

#include "bpf_skel/fprobe_exact.h"
#include "bpf_skel/fprobe_exact.skel.h"

/*
 * The call paths and their buckets the maps take. They are preallocated
 * (a map allocating as keys come fails under load, in an interrupt), per
 * CPU: on a large machine, fewer, so that each map takes at most
 * FPROBE_BPF_MAP_BYTES.
 */
#define FPROBE_BPF_MAX_SUMS	(1 << 16)
#define FPROBE_BPF_MAX_BUCKETS	(1 << 18)
#define FPROBE_BPF_MAP_BYTES	(64 << 20)
/* The processes a workload may fork while it is traced */
#define FPROBE_BPF_MAX_TASKS	(1 << 14)

/* A function and call path, with its sums over the CPUs */
struct fb_path {
	struct fprobe_exact_key		key;
	struct fprobe_exact_sum		sum;
	char				*tree_key;	/* its place in the tree, as a string */
	u32				nr_stack;	/* frames above the traced calls */
	u32				nr_path;	/* traced calls around it */
	const char			**frames;	/* nr_stack, then nr_path */
	u64				self;
	struct fprobe_report_bucket	*buckets;
	u32				nr_buckets;
};

struct fb_bucket {
	struct fprobe_exact_bucket_key	key;
	u64				count;
};

struct fprobe_bpf {
	struct fprobe_exact_bpf		*skel;
	struct bpf_link			*link;
	struct evlist			*evlist;
	struct machine			*machine;
	const char			**names;	/* by cookie */
	__u64				*cookies;
	const char			**sorted;	/* the names, for bsearch */
	u32				nr_names;
	int				nr_cpus;
	bool				prepared;	/* the workload, forked */
	bool				started;	/* and told to exec */
	u64				missed;		/* calls the kernel missed, at enable */
	struct fb_path			*paths;
	size_t				nr_paths;
	size_t				alloc_paths;
	struct fb_bucket		*buckets;
	size_t				nr_buckets;
	size_t				alloc_buckets;
};

static sig_atomic_t fb_workload_done;
static sig_atomic_t fb_workload_errno;

static void fb_sigchld(int sig __maybe_unused)
{
	fb_workload_done = 1;
}

/* evlist__prepare_workload()'s child could not exec: its errno */
static void fb_exec_failed(int signo __maybe_unused, siginfo_t *info,
			   void *ucontext __maybe_unused)
{
	fb_workload_errno = info->si_value.sival_int;
	fb_workload_done = 1;
}

static int fb_strcmp(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

static bool fb_is_traced(const struct fprobe_bpf *fb, const char *name)
{
	return name && bsearch(&name, fb->sorted, fb->nr_names, sizeof(*fb->sorted), fb_strcmp);
}

/* The names of the functions attached, their index as their cookie */
static int fb_names(struct fprobe_bpf *fb, struct fprobe_probes *probes)
{
	int i;

	fb->names = calloc(probes->nr_funcs + 1, sizeof(*fb->names));
	fb->sorted = calloc(probes->nr_funcs + 1, sizeof(*fb->sorted));
	fb->cookies = calloc(probes->nr_funcs + 1, sizeof(*fb->cookies));
	if (!fb->names || !fb->sorted || !fb->cookies)
		return -ENOMEM;
	for (i = 0; i < probes->nr_funcs; i++) {
		if (probes->funcs[i].skip != FPROBE_SKIP_NONE)
			continue;
		fb->cookies[fb->nr_names] = fb->nr_names;
		fb->names[fb->nr_names] = probes->funcs[i].name;
		fb->sorted[fb->nr_names++] = probes->funcs[i].name;
	}
	qsort(fb->sorted, fb->nr_names, sizeof(*fb->sorted), fb_strcmp);
	return 0;
}

/* kernel.perf_event_max_stack, at most what the stack map's frames are */
static u32 fb_max_stack(void)
{
	int max = sysctl__max_stack();

	return max > 0 && max < FPROBE_EXACT_STACK_DEPTH ? max : FPROBE_EXACT_STACK_DEPTH;
}

/* @max entries of @size bytes per CPU, fewer past FPROBE_BPF_MAP_BYTES */
static u32 fb_map_entries(struct fprobe_bpf *fb, u32 max, size_t size)
{
	size_t fit = FPROBE_BPF_MAP_BYTES / (size * fb->nr_cpus);

	return fit < max ? max_t(size_t, fit, 1024) : max;
}

static int fb_load(struct fprobe_bpf *fb, const struct fprobe_bpf_opts *opts)
{
	struct fprobe_exact_bpf *skel;
	struct perf_cpu_map *cpus = fb->evlist->core.user_requested_cpus;
	struct perf_thread_map *threads = fb->evlist->core.threads;
	bool has_task = target__has_task(opts->target) || target__none(opts->target);
	u32 entries;
	u8 one = 1;
	int i, fd;

	skel = fprobe_exact_bpf__open();
	if (!skel) {
		pr_err("failed to open the BPF program of -b\n");
		return -1;
	}
	fb->skel = skel;
	entries = fb_map_entries(fb, FPROBE_BPF_MAX_SUMS, sizeof(struct fprobe_exact_sum));
	bpf_map__set_max_entries(skel->maps.sums, entries);
	entries = fb_map_entries(fb, FPROBE_BPF_MAX_BUCKETS, sizeof(u64));
	bpf_map__set_max_entries(skel->maps.buckets, entries);
	if (opts->target->cpu_list) {
		bpf_map__set_max_entries(skel->maps.cpu_filter, perf_cpu_map__nr(cpus));
		skel->bss->has_cpu = true;
	}
	if (has_task) {
		bpf_map__set_max_entries(skel->maps.task_filter,
					 perf_thread_map__nr(threads) + FPROBE_BPF_MAX_TASKS);
		skel->bss->has_task = true;
		skel->bss->filter_tid = !!opts->target->tid && !opts->target->pid;
	}
	skel->bss->use_stack = opts->use_stack;
	/* the stacks of kernel.perf_event_max_stack frames (bpf_get_stackid()'s bound) */
	if (opts->use_stack)
		bpf_map__set_value_size(skel->maps.stacks, fb_max_stack() * sizeof(u64));
	else
		bpf_map__set_max_entries(skel->maps.stacks, 1);
	skel->bss->min_latency = opts->min_latency;
	/* the fork hook is loaded only to follow the children of processes */
	bpf_program__set_autoload(skel->progs.fprobe_exact_newtask,
				  has_task && !skel->bss->filter_tid);

	set_max_rlimit();
	if (fprobe_exact_bpf__load(skel)) {
		pr_err("failed to load the BPF program of -b (needs CAP_BPF and CAP_PERFMON, or root, and a kernel with BTF and kprobe sessions: 6.10 or later): %s\n",
		       strerror(errno));
		return -1;
	}

	if (opts->target->cpu_list) {
		fd = bpf_map__fd(skel->maps.cpu_filter);
		for (i = 0; i < perf_cpu_map__nr(cpus); i++) {
			u32 cpu = perf_cpu_map__cpu(cpus, i).cpu;

			if (bpf_map_update_elem(fd, &cpu, &one, BPF_ANY)) {
				pr_err("failed to set the CPUs of -b: %s\n", strerror(errno));
				return -1;
			}
		}
	}
	if (has_task) {
		fd = bpf_map__fd(skel->maps.task_filter);
		for (i = 0; i < perf_thread_map__nr(threads); i++) {
			u32 pid = perf_thread_map__pid(threads, i);

			if (bpf_map_update_elem(fd, &pid, &one, BPF_ANY)) {
				pr_err("failed to set the tasks of -b: %s\n", strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

static int fb_attach(struct fprobe_bpf *fb)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, kopts, .syms = fb->names, .cookies = fb->cookies,
		    .cnt = fb->nr_names, .session = true);
	struct bpf_link *link;

	link = bpf_program__attach_kprobe_multi_opts(fb->skel->progs.fprobe_exact, NULL, &kopts);
	if (!link) {
		pr_err("failed to attach the BPF program of -b to %u functions (a kernel with kprobe sessions, 6.10 or later, and CONFIG_FPROBE): %s\n",
		       fb->nr_names, strerror(errno));
		return -1;
	}
	fb->link = link;
	if (fb->skel->bss->has_task && !fb->skel->bss->filter_tid &&
	    fprobe_exact_bpf__attach(fb->skel)) {
		pr_err("failed to attach the fork hook of -b: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The calls the kernel missed so far: entered while the program or fprobe
 * ran on their CPU (the program's own calls above all), as the link and
 * the program count them, whoever made them
 */
static u64 fb_missed(struct fprobe_bpf *fb)
{
	struct bpf_link_info link_info = {};
	struct bpf_prog_info prog_info = {};
	u32 len = sizeof(link_info);
	u64 n = 0;

	if (!bpf_link_get_info_by_fd(bpf_link__fd(fb->link), &link_info, &len))
		n += link_info.kprobe_multi.missed;
	len = sizeof(prog_info);
	if (!bpf_prog_get_info_by_fd(bpf_program__fd(fb->skel->progs.fprobe_exact),
				     &prog_info, &len))
		n += prog_info.recursion_misses;
	return n;
}

/* Whether a process or thread of -p or -t is alive */
static bool fb_target_alive(struct fprobe_bpf *fb)
{
	struct perf_thread_map *threads = fb->evlist->core.threads;
	char path[64];
	int i;

	for (i = 0; i < perf_thread_map__nr(threads); i++) {
		snprintf(path, sizeof(path), "/proc/%d", perf_thread_map__pid(threads, i));
		if (!access(path, F_OK))
			return true;
	}
	return false;
}

/* Counts until the workload or the target ends, Ctrl-C or --duration */
static int fb_run(struct fprobe_bpf *fb, const struct fprobe_bpf_opts *opts, int argc)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	fb->missed = fb_missed(fb);
	fb->skel->bss->enabled = 1;
	if (argc) {
		evlist__start_workload(fb->evlist);
		fb->started = true;
	}
	while (!fb_workload_done && !*opts->interrupted) {
		usleep(20 * 1000);
		if (opts->duration) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - start.tv_sec >= opts->duration)
				break;
		}
		if (!argc && target__has_task(opts->target) && !fb_target_alive(fb))
			break;
	}
	fb->skel->bss->enabled = 0;
	fb->missed = fb_missed(fb) - fb->missed;
	/* the calls in flight return to no program: the sums stay as they are */
	bpf_link__destroy(fb->link);
	fb->link = NULL;
	if (fb_workload_errno) {
		pr_err("failed to run the command: %s\n", strerror(fb_workload_errno));
		return -1;
	}
	return 0;
}

/* Word @word of a per-CPU value of @nr_words words: its sum over the CPUs */
static u64 fb_percpu_sum(const u64 *vals, int nr_cpus, int nr_words, int word)
{
	u64 sum = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		sum += vals[cpu * nr_words + word];
	return sum;
}

static u64 fb_percpu_max(const u64 *vals, int nr_cpus, int nr_words, int word)
{
	u64 max = 0;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		max = max_t(u64, max, vals[cpu * nr_words + word]);
	return max;
}

typedef int (*fb_entry_fn)(struct fprobe_bpf *fb, const void *key, const u64 *vals, void *arg);

/*
 * Calls @fn for each entry of the per-CPU map @map with its key and its
 * values on every CPU, one after the other (libbpf's layout: each rounded
 * up to 8 bytes). An entry deleted during the walk is skipped.
 */
static int fb_map_for_each(struct fprobe_bpf *fb, struct bpf_map *map, fb_entry_fn fn, void *arg)
{
	size_t key_size = bpf_map__key_size(map);
	size_t vals_size = fb->nr_cpus * round_up(bpf_map__value_size(map), 8);
	char *keys = calloc(2, key_size), *key = keys, *next = keys + key_size;
	u64 *vals = malloc(vals_size);
	void *prev = NULL;
	int err = -ENOMEM;

	if (!keys || !vals)
		goto out;
	err = 0;
	while (!err && !bpf_map__get_next_key(map, prev, next, key_size)) {
		memcpy(key, next, key_size);
		prev = key;
		if (!bpf_map__lookup_elem(map, key, key_size, vals, vals_size, 0))
			err = fn(fb, key, vals, arg);
	}
out:
	free(keys);
	free(vals);
	return err;
}

/* Room in *@array, of *@alloc elements of @size, for element @nr */
static int fb_grow(void **array, size_t *alloc, size_t nr, size_t size, size_t first)
{
	size_t n = *alloc ? *alloc * 2 : first;
	void *p;

	if (nr < *alloc)
		return 0;
	p = realloc(*array, n * size);
	if (!p)
		return -ENOMEM;
	*array = p;
	*alloc = n;
	return 0;
}

static int fb_add_path(struct fprobe_bpf *fb, const void *key, const u64 *vals,
		       void *arg __maybe_unused)
{
	const int words = sizeof(struct fprobe_exact_sum) / sizeof(u64);
	struct fb_path *p;

	if (fb_grow((void **)&fb->paths, &fb->alloc_paths, fb->nr_paths, sizeof(*p), 256))
		return -ENOMEM;
	p = &fb->paths[fb->nr_paths++];
	memset(p, 0, sizeof(*p));
	memcpy(&p->key, key, sizeof(p->key));
	p->sum.count = fb_percpu_sum(vals, fb->nr_cpus, words, 0);
	p->sum.total = fb_percpu_sum(vals, fb->nr_cpus, words, 1);
	p->sum.max = fb_percpu_max(vals, fb->nr_cpus, words, 2);
	return 0;
}

static int fb_add_bucket(struct fprobe_bpf *fb, const void *key, const u64 *vals,
			 void *arg __maybe_unused)
{
	struct fb_bucket *b;

	if (fb_grow((void **)&fb->buckets, &fb->alloc_buckets, fb->nr_buckets, sizeof(*b), 1024))
		return -ENOMEM;
	b = &fb->buckets[fb->nr_buckets++];
	memcpy(&b->key, key, sizeof(b->key));
	b->count = fb_percpu_sum(vals, fb->nr_cpus, 1, 0);
	return 0;
}

static int fb_add_count(struct fprobe_bpf *fb, const void *key __maybe_unused, const u64 *vals,
			void *arg)
{
	*(u64 *)arg += fb_percpu_sum(vals, fb->nr_cpus, 1, 0);
	return 0;
}

/* The sum over its entries and the CPUs of a per-CPU array of counters */
static u64 fb_array_sum(struct fprobe_bpf *fb, struct bpf_map *map)
{
	u64 n = 0;

	fb_map_for_each(fb, map, fb_add_count, &n);
	return n;
}

static int fb_bucket_cmp(const void *a, const void *b)
{
	const struct fprobe_exact_bucket_key *x = a, *y = b;

	if (x->stack_id != y->stack_id)
		return x->stack_id < y->stack_id ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->bucket < y->bucket ? -1 : x->bucket > y->bucket;
}

/* The longest duration bucket @b holds (util/bpf_skel/fprobe_exact.h) */
static u64 fb_bucket_last(u32 b)
{
	u32 top, sub;

	if (b < 8)
		return b;
	top = b / 8 + 2;
	sub = b % 8;
	if (top >= 63 && sub == 7)
		return ~0ULL;
	return ((u64)(8 + sub + 1) << (top - 3)) - 1;
}

/* The buckets of @p: a run of the sorted ones */
static int fb_path_buckets(struct fprobe_bpf *fb, struct fb_path *p)
{
	struct fprobe_exact_bucket_key first = {
		.stack_id = p->key.stack_id,
		.func = p->key.func,
	};
	size_t lo = 0, hi = fb->nr_buckets, i;
	u32 n = 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fb_bucket_cmp(&fb->buckets[mid].key, &first) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < fb->nr_buckets; i++, n++) {
		if (fb->buckets[i].key.stack_id != first.stack_id ||
		    fb->buckets[i].key.func != first.func)
			break;
	}
	p->buckets = calloc(n ?: 1, sizeof(*p->buckets));
	if (!p->buckets)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		p->buckets[i].last = fb_bucket_last(fb->buckets[lo + i].key.bucket);
		p->buckets[i].count = fb->buckets[lo + i].count;
	}
	p->nr_buckets = n;
	return 0;
}

static const char *fb_symbol(struct fprobe_bpf *fb, u64 ip)
{
	struct symbol *sym = machine__find_kernel_symbol(fb->machine, ip, NULL);

	return sym ? sym->name : "[unknown]";
}

/*
 * The frames of @p's stack, outermost first, named, and split: those above
 * the outermost traced function, then the traced functions below it (the
 * calls around @p's); the function's own frame (its entry, innermost) is
 * not one of them. Its tree key names them all, and the function.
 */
static int fb_path_frames(struct fprobe_bpf *fb, struct fb_path *p, u64 *ips)
{
	const char *name = fb->names[p->key.func];
	size_t len = strlen(name) + 2;
	u32 nr = 0, i, first_traced;
	char *k;

	if (p->key.stack_id != FPROBE_EXACT_NO_STACK &&
	    !bpf_map_lookup_elem(bpf_map__fd(fb->skel->maps.stacks), &p->key.stack_id, ips)) {
		while (nr < FPROBE_EXACT_STACK_DEPTH && ips[nr])
			nr++;
	}
	p->frames = calloc(nr + 1, sizeof(*p->frames));
	if (!p->frames)
		return -ENOMEM;
	if (p->key.stack_id == FPROBE_EXACT_NO_STACK && fb->skel->bss->use_stack) {
		p->frames[0] = "[no call path]";
		p->nr_stack = 1;
	}
	/* innermost first: the entry of the function itself is left out */
	first_traced = nr;
	for (i = nr; i-- > 0;) {
		const char *frame = fb_symbol(fb, ips[i]);

		if (i == 0 && !strcmp(frame, name))
			break;
		if (first_traced == nr && fb_is_traced(fb, frame))
			first_traced = i;
		if (first_traced == nr)
			p->frames[p->nr_stack++] = frame;
		else if (fb_is_traced(fb, frame))
			p->frames[p->nr_stack + p->nr_path++] = frame;
	}

	for (i = 0; i < p->nr_stack + p->nr_path; i++)
		len += strlen(p->frames[i]) + 2;
	p->tree_key = malloc(len);
	if (!p->tree_key)
		return -ENOMEM;
	k = p->tree_key;
	for (i = 0; i < p->nr_stack + p->nr_path; i++)
		k += sprintf(k, "%s%c", p->frames[i], i < p->nr_stack ? ';' : '>');
	sprintf(k, "%s", name);
	return 0;
}

static int fb_path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fb_path *)a)->tree_key, ((const struct fb_path *)b)->tree_key);
}

/* Merges @from into @to: the same place in the tree by two stacks */
static int fb_path_merge(struct fb_path *to, struct fb_path *from)
{
	struct fprobe_report_bucket *b;

	b = realloc(to->buckets, (to->nr_buckets + from->nr_buckets + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	memcpy(b + to->nr_buckets, from->buckets, from->nr_buckets * sizeof(*b));
	to->buckets = b;
	to->nr_buckets += from->nr_buckets;
	to->sum.count += from->sum.count;
	to->sum.total += from->sum.total;
	to->sum.max = max_t(u64, to->sum.max, from->sum.max);
	return 0;
}

static void fb_path_exit(struct fb_path *p)
{
	free(p->frames);
	free(p->tree_key);
	free(p->buckets);
	memset(p, 0, sizeof(*p));
}

/*
 * The self time of each place in the tree: its total less those of the
 * traced calls in it, whose tree keys are its own, '>' and their function
 */
static void fb_paths_self(struct fprobe_bpf *fb)
{
	size_t i;

	for (i = 0; i < fb->nr_paths; i++)
		fb->paths[i].self = fb->paths[i].sum.total;
	for (i = 0; i < fb->nr_paths; i++) {
		struct fb_path *p = &fb->paths[i], key, *parent;
		char *sep = strrchr(p->tree_key, '>');

		if (!p->nr_path || !sep)
			continue;
		key.tree_key = strndup(p->tree_key, sep - p->tree_key);
		if (!key.tree_key)
			continue;
		parent = bsearch(&key, fb->paths, fb->nr_paths, sizeof(*fb->paths), fb_path_cmp);
		free(key.tree_key);
		if (parent)
			parent->self -= min_t(u64, parent->self, p->sum.total);
	}
}

static int fb_read(struct fprobe_bpf *fb, struct fprobe_report *rep)
{
	u64 *ips = calloc(FPROBE_EXACT_STACK_DEPTH, sizeof(u64));
	size_t i, n = 0;
	int err = -ENOMEM;

	if (!ips || fb_map_for_each(fb, fb->skel->maps.sums, fb_add_path, NULL) ||
	    fb_map_for_each(fb, fb->skel->maps.buckets, fb_add_bucket, NULL))
		goto out;
	qsort(fb->buckets, fb->nr_buckets, sizeof(*fb->buckets), fb_bucket_cmp);
	for (i = 0; i < fb->nr_paths; i++) {
		memset(ips, 0, FPROBE_EXACT_STACK_DEPTH * sizeof(u64));
		if (fb->paths[i].key.func >= fb->nr_names)
			goto out;
		if (fb_path_buckets(fb, &fb->paths[i]) || fb_path_frames(fb, &fb->paths[i], ips))
			goto out;
	}
	/* one place in the tree per function and path of traced calls */
	qsort(fb->paths, fb->nr_paths, sizeof(*fb->paths), fb_path_cmp);
	for (i = 0; i < fb->nr_paths; i++) {
		if (n && !strcmp(fb->paths[n - 1].tree_key, fb->paths[i].tree_key)) {
			if (fb_path_merge(&fb->paths[n - 1], &fb->paths[i]))
				break;
			fb_path_exit(&fb->paths[i]);
			continue;
		}
		if (n != i) {
			fb->paths[n] = fb->paths[i];
			memset(&fb->paths[i], 0, sizeof(fb->paths[i]));
		}
		n++;
	}
	if (i < fb->nr_paths) {
		/* out of memory: what is left is freed from its own slots */
		for (; i < fb->nr_paths; i++) {
			if (i >= n)
				fb->paths[n++] = fb->paths[i];
		}
		fb->nr_paths = n;
		goto out;
	}
	fb->nr_paths = n;
	fb_paths_self(fb);

	for (i = 0; i < fb->nr_paths; i++) {
		struct fb_path *p = &fb->paths[i];
		struct fprobe_report_sum sum = {
			.name		= fb->names[p->key.func],
			.nr_stack	= p->nr_stack,
			.stack		= p->frames,
			.nr_path	= p->nr_path,
			.path		= p->frames + p->nr_stack,
			.count		= p->sum.count,
			.total		= p->sum.total,
			.self		= p->self,
			.max		= p->sum.max,
			.nr_buckets	= p->nr_buckets,
			.buckets	= p->buckets,
		};

		if (!p->sum.count)
			continue;
		err = fprobe_report__add_sum(rep, &sum);
		if (err)
			goto out;
	}
	err = 0;
out:
	free(ips);
	return err;
}

static void fb_exit(struct fprobe_bpf *fb)
{
	size_t i;

	bpf_link__destroy(fb->link);
	fprobe_exact_bpf__destroy(fb->skel);
	if (fb->prepared && !fb->started) {
		evlist__cancel_workload(fb->evlist);
	} else if (fb->started && !fb_workload_done) {
		/* --duration or Ctrl-C: as perf record, end the command */
		kill(fb->evlist->workload.pid, SIGTERM);
		waitpid(fb->evlist->workload.pid, NULL, 0);
	}
	evlist__delete(fb->evlist);
	machine__delete(fb->machine);
	for (i = 0; i < fb->nr_paths; i++)
		fb_path_exit(&fb->paths[i]);
	free(fb->paths);
	free(fb->buckets);
	free(fb->names);
	free(fb->sorted);
	free(fb->cookies);
}

int fprobe_bpf__count(struct fprobe_probes *probes, const struct fprobe_bpf_opts *opts,
		      struct fprobe_report *rep, int argc, const char **argv)
{
	struct fprobe_bpf fb = { .nr_cpus = libbpf_num_possible_cpus(), };
	struct sigaction sa = { .sa_handler = fb_sigchld, }, old_sa;
	u64 dropped, no_path;
	int ret = -1;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old_sa);
	if (fb.nr_cpus <= 0) {
		pr_err("failed to count the possible CPUs: %s\n", strerror(-fb.nr_cpus));
		goto out;
	}
	if (fb_names(&fb, probes)) {
		pr_err("out of memory\n");
		goto out;
	}
	fb.evlist = evlist__new();
	if (!fb.evlist || evlist__create_maps(fb.evlist, opts->target) < 0) {
		pr_err("failed to set up the target\n");
		goto out;
	}
	fb_workload_done = 0;
	fb_workload_errno = 0;
	if (argc) {
		if (evlist__prepare_workload(fb.evlist, opts->target, argv, false,
					     fb_exec_failed) < 0) {
			pr_err("failed to prepare the command\n");
			goto out;
		}
		fb.prepared = true;
	}
	if (fb_load(&fb, opts) || fb_attach(&fb))
		goto out;
	fprobe_probes__print_summary(probes, "attached");
	pr_info("perf fprobe: counting every call in the kernel (BPF)\n");

	if (fb_run(&fb, opts, argc))
		goto out;

	symbol__init(NULL);
	fb.machine = machine__new_host();
	if (!fb.machine) {
		pr_err("failed to read the kernel's symbols\n");
		goto out;
	}
	if (fb_read(&fb, rep)) {
		pr_err("failed to read the sums of -b\n");
		goto out;
	}
	dropped = fb_array_sum(&fb, fb.skel->maps.drops);
	no_path = fb_array_sum(&fb, fb.skel->maps.nostack);
	fprobe_report__add_uncounted(rep, fb.missed + dropped);
	if (fb.missed)
		pr_warning("perf fprobe: %llu calls not counted: entered while the BPF program or fprobe ran on their CPU (mostly the calls these make themselves)\n",
			   (unsigned long long)fb.missed);
	if (dropped)
		pr_warning("perf fprobe: %llu calls not counted: the maps were full\n",
			   (unsigned long long)dropped);
	if (no_path)
		pr_warning("perf fprobe: %llu calls counted without their call path (the stack map was full): under [no call path]\n",
			   (unsigned long long)no_path);
	ret = 0;
out:
	fb_exit(&fb);
	sigaction(SIGCHLD, &old_sa, NULL);
	return ret;
}
