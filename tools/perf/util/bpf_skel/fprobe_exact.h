/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What fprobe_exact.bpf.c sums in the kernel, as perf fprobe -b reads it */
#ifndef __PERF_FPROBE_EXACT_H
#define __PERF_FPROBE_EXACT_H

/*
 * A call's kernel stack id and its entry time share the session cookie:
 * the id in the low FPROBE_EXACT_STACK_BITS, the time (ns, modulo 2^44,
 * about 4.9 hours) above them
 */
#define FPROBE_EXACT_STACK_BITS		20
#define FPROBE_EXACT_NO_STACK		((1U << FPROBE_EXACT_STACK_BITS) - 1)
/* The stack map: its ids must fit below FPROBE_EXACT_NO_STACK */
#define FPROBE_EXACT_MAX_STACKS		16384
#define FPROBE_EXACT_STACK_DEPTH	127	/* kernel.perf_event_max_stack's default */

/*
 * Latency buckets: 0 to 7 ns one each, then 8 per power of two (the
 * three bits below the top one), so a bucket is at most 1/8 of its lower
 * bound wide: bucket 8 * (t - 2) + s holds [2^t + s * 2^(t-3), 2^t + (s+1) * 2^(t-3))
 */
#define FPROBE_EXACT_SUB_BITS		3
#define FPROBE_EXACT_NR_BUCKETS		(8 * (64 - 2))

/* One call path: a function (its index in the attach list) and a stack id */
struct fprobe_exact_key {
	__u32	stack_id;	/* FPROBE_EXACT_NO_STACK: none taken */
	__u32	func;
};

struct fprobe_exact_sum {
	__u64	count;
	__u64	total;		/* ns */
	__u64	max;		/* ns */
};

struct fprobe_exact_bucket_key {
	__u32	stack_id;
	__u32	func;
	__u32	bucket;
	__u32	pad;
};

/* Why a call was not summed (the array "drops") */
enum fprobe_exact_drop {
	FPROBE_EXACT_DROP_SUMS,		/* the sums map was full */
	FPROBE_EXACT_DROP_BUCKETS,	/* the buckets map was full */
	FPROBE_EXACT_NR_DROPS,
};

/* Calls summed without a call path (the array "nostack"), by why */
enum fprobe_exact_nostack {
	FPROBE_EXACT_NOSTACK_FULL,	/* the stack map was full, or a collision */
	FPROBE_EXACT_NOSTACK_ERROR,	/* no stack could be taken */
	FPROBE_EXACT_NR_NOSTACK,
};

#ifdef __bpf__
/* The kfuncs of kprobe sessions (6.10) */
bool __ksym bpf_session_is_return(void);
__u64 __ksym *bpf_session_cookie(void);
#endif

#endif /* __PERF_FPROBE_EXACT_H */
