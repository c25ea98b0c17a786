/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_DECODE_H
#define __PERF_FPROBE_DECODE_H

#include <linux/types.h>

struct fprobe_call;

/* Decode one PERF_SAMPLE_RAW payload of the fprobe PMU: 0 or -EINVAL */
int fprobe_pmu_record__decode(const void *raw, u32 size, struct fprobe_call *call);

#endif /* __PERF_FPROBE_DECODE_H */
