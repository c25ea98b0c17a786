// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * perf fprobe -b: every call of the traced functions summed in the kernel,
 * by call path (the kernel stack at its entry) and by latency bucket, so
 * that none is lost however often they are called. One kprobe session
 * program on all the functions (BPF kprobe_multi, on fprobe): its entry
 * takes the time and the stack id into the session cookie, its return
 * adds the call to the sums.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "fprobe_exact.h"

#define CLONE_THREAD	0x10000
#ifndef ENOMEM
#define ENOMEM		12
#endif
#ifndef EEXIST
#define EEXIST		17
#endif

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct fprobe_exact_key);
	__type(value, struct fprobe_exact_sum);
	__uint(max_entries, 1);		/* set by perf */
} sums SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct fprobe_exact_bucket_key);
	__type(value, __u64);
	__uint(max_entries, 1);		/* set by perf */
} buckets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, FPROBE_EXACT_STACK_DEPTH * sizeof(__u64));
	__uint(max_entries, FPROBE_EXACT_MAX_STACKS);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, FPROBE_EXACT_NR_DROPS);
} drops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, FPROBE_EXACT_NR_NOSTACK);
} nostack SEC(".maps");

/* The processes (tgid) or threads (tid) traced; their children follow */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1);		/* set by perf */
} task_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1);		/* set by perf */
} cpu_filter SEC(".maps");

/* Set by perf: before loading, and enabled when the workload starts */
int enabled;
bool has_cpu;
bool has_task;
bool filter_tid;		/* -t: threads, not processes */
bool use_stack;			/* a call path per call */
__u64 min_latency;		/* ns */

static __always_inline bool fprobe_exact__selected(void)
{
	__u64 pid_tgid;
	__u32 key;

	if (has_cpu) {
		key = bpf_get_smp_processor_id();
		if (!bpf_map_lookup_elem(&cpu_filter, &key))
			return false;
	}
	if (has_task) {
		pid_tgid = bpf_get_current_pid_tgid();
		key = filter_tid ? (__u32)pid_tgid : pid_tgid >> 32;
		if (!bpf_map_lookup_elem(&task_filter, &key))
			return false;
	}
	return true;
}

/* 0 to 7 one each, then 8 buckets per power of two (fprobe_exact.h) */
static __always_inline __u32 fprobe_exact__bucket(__u64 d)
{
	__u64 v = d;
	__u32 top = 0;

	if (d < 8)
		return d;
	if (v >> 32) {
		top += 32;
		v >>= 32;
	}
	if (v >> 16) {
		top += 16;
		v >>= 16;
	}
	if (v >> 8) {
		top += 8;
		v >>= 8;
	}
	if (v >> 4) {
		top += 4;
		v >>= 4;
	}
	if (v >> 2) {
		top += 2;
		v >>= 2;
	}
	if (v >> 1)
		top += 1;
	/* top >= 3: the three bits below the top one */
	return 8 * (top - 2) + ((d >> (top - 3)) & 7);
}

/* One more in entry @why of the per-CPU array of counters @map */
static __always_inline void fprobe_exact__count(void *map, __u32 why)
{
	__u64 *n = bpf_map_lookup_elem(map, &why);

	if (n)
		*n += 1;
}

/* The value a new entry of sums or buckets starts from: zeroes, as many as the larger */
static const struct fprobe_exact_sum fprobe_exact_zero;

/*
 * The value of @key in the per-CPU hash @map, added as zeroes if it has
 * none (another CPU may add it meanwhile: the lookup after the insert
 * finds either); NULL, counted as dropped for @why, when the map is full
 */
static __always_inline void *fprobe_exact__value(void *map, const void *key, __u32 why)
{
	void *val = bpf_map_lookup_elem(map, key);

	if (val)
		return val;
	bpf_map_update_elem(map, key, &fprobe_exact_zero, BPF_NOEXIST);
	val = bpf_map_lookup_elem(map, key);
	if (!val)
		fprobe_exact__count(&drops, why);
	return val;
}

SEC("kprobe.session")
int fprobe_exact(struct pt_regs *ctx)
{
	struct fprobe_exact_bucket_key bkey = {};
	struct fprobe_exact_sum *sum;
	struct fprobe_exact_key key;
	__u64 *cookie = bpf_session_cookie();
	__u64 now, start, delta, *n;
	long id;

	if (!bpf_session_is_return()) {
		/* 1: this call is not traced, its return runs nothing */
		if (!enabled || !fprobe_exact__selected())
			return 1;
		id = FPROBE_EXACT_NO_STACK;
		if (use_stack) {
			id = bpf_get_stackid(ctx, &stacks, 0);
			if (id < 0 || id >= FPROBE_EXACT_NO_STACK) {
				__u32 why = id == -EEXIST || id == -ENOMEM ?
					    FPROBE_EXACT_NOSTACK_FULL : FPROBE_EXACT_NOSTACK_ERROR;

				fprobe_exact__count(&nostack, why);
				id = FPROBE_EXACT_NO_STACK;
			}
		}
		*cookie = (bpf_ktime_get_ns() << FPROBE_EXACT_STACK_BITS) | id;
		return 0;
	}

	now = bpf_ktime_get_ns() << FPROBE_EXACT_STACK_BITS;
	start = *cookie;
	delta = (now - (start & ~(__u64)FPROBE_EXACT_NO_STACK)) >> FPROBE_EXACT_STACK_BITS;
	if (delta < min_latency)
		return 0;

	key.stack_id = start & FPROBE_EXACT_NO_STACK;
	key.func = bpf_get_attach_cookie(ctx);
	sum = fprobe_exact__value(&sums, &key, FPROBE_EXACT_DROP_SUMS);
	if (!sum)
		return 0;
	sum->count++;
	sum->total += delta;
	if (delta > sum->max)
		sum->max = delta;

	bkey.stack_id = key.stack_id;
	bkey.func = key.func;
	bkey.bucket = fprobe_exact__bucket(delta);
	n = fprobe_exact__value(&buckets, &bkey, FPROBE_EXACT_DROP_BUCKETS);
	if (n)
		*n += 1;
	return 0;
}

/* A process traced forks: its child is traced too (not with -t) */
SEC("tp_btf/task_newtask")
int fprobe_exact_newtask(u64 *ctx)
{
	struct task_struct *task;
	__u64 clone_flags;
	__u32 pid;
	__u8 one = 1;

	if (!has_task || filter_tid)
		return 0;
	task = (struct task_struct *)bpf_get_current_task();
	pid = BPF_CORE_READ(task, tgid);
	if (!bpf_map_lookup_elem(&task_filter, &pid))
		return 0;
	task = (struct task_struct *)ctx[0];
	clone_flags = ctx[1];
	if (clone_flags & CLONE_THREAD)
		return 0;
	pid = BPF_CORE_READ(task, tgid);
	bpf_map_update_elem(&task_filter, &pid, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
