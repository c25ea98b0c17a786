/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_DECODE_H
#define __PERF_FPROBE_DECODE_H

#include <linux/types.h>

struct fprobe_call;

/* Decode one PERF_SAMPLE_RAW payload of the fprobe PMU: 0 or -errno */
int fprobe_pmu_record__decode(const void *raw, u32 size, struct fprobe_call *call);
/* The values of its fetch area, of @n fetch types and names: 0 or -EINVAL */
int fprobe_pmu_record__fetched(const void *raw, u32 size, const char * const *types,
			       const char * const *names, u32 n, struct fprobe_call *call);
/* The version of a record, for the error on one of an unknown version */
unsigned int fprobe_pmu_record__version(const void *raw, u32 size);

#endif /* __PERF_FPROBE_DECODE_H */
