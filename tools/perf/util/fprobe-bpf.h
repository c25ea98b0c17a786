/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_BPF_H
#define __PERF_FPROBE_BPF_H

#include <signal.h>
#include <stdbool.h>
#include <linux/types.h>

#include "debug.h"

struct fprobe_probes;
struct fprobe_report;
struct target;

/* perf fprobe -b: what to count, and for how long */
struct fprobe_bpf_opts {
	struct target		*target;
	int			duration;	/* s, 0: until the end of the target */
	bool			use_stack;	/* a call path per call: --call-graph kernel */
	u64			min_latency;	/* ns: shorter calls are not counted */
	const sig_atomic_t	*interrupted;
};

#ifdef HAVE_BPF_SKEL
/*
 * Counts every call of the functions @probes attach while the command of
 * @argv (or the target) runs, in the kernel, into @rep: by call path and
 * latency bucket. Return: 0, -1 (said).
 */
int fprobe_bpf__count(struct fprobe_probes *probes, const struct fprobe_bpf_opts *opts,
		      struct fprobe_report *rep, int argc, const char **argv);
#else
static inline int fprobe_bpf__count(struct fprobe_probes *probes __maybe_unused,
				    const struct fprobe_bpf_opts *opts __maybe_unused,
				    struct fprobe_report *rep __maybe_unused,
				    int argc __maybe_unused, const char **argv __maybe_unused)
{
	pr_err("-b needs a perf built with BPF skeletons (BUILD_BPF_SKEL=1, with clang)\n");
	return -1;
}
#endif

#endif /* __PERF_FPROBE_BPF_H */
