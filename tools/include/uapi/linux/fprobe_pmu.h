/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_FPROBE_PMU_H
#define _UAPI_LINUX_FPROBE_PMU_H

#include <linux/types.h>

/* Record types of the fprobe PMU's PERF_SAMPLE_RAW payload */
#define FPROBE_PMU_REC_EXIT	1	/* a completed call, emitted at return */
#define FPROBE_PMU_REC_ENTRY	2	/* a call entered, emitted at entry */

#define FPROBE_PMU_MAX_ARGS	6

/*
 * One record per sample, in host byte order. perf pads the raw data, so
 * readers find the end of the record from nargs, not from the raw size.
 */
struct fprobe_pmu_record {
	__u16	type;		/* FPROBE_PMU_REC_EXIT = 1, FPROBE_PMU_REC_ENTRY = 2 */
	__u16	nargs;		/* number of entries in args[] */
	__u32	depth;		/* depth of this call on the task's function-graph return stack at entry, 0 = outermost traced call */
	__u64	func;		/* address of the probed function (entry ip) */
	__u64	ret_ip;		/* return address */
	__u64	entry_time;	/* local_clock() at entry (ns) */
	__u64	duration;	/* ns from entry to return; 0 in entry records */
	__u64	retval;		/* return value; 0 in entry records */
	__u64	args[];		/* nargs arguments read at entry */
};

#endif /* _UAPI_LINUX_FPROBE_PMU_H */
