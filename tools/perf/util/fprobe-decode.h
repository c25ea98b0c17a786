/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_DECODE_H
#define __PERF_FPROBE_DECODE_H

#include <stdbool.h>
#include <linux/types.h>

struct fprobe_call;
struct fprobe_fetched;

/* Decode one PERF_SAMPLE_RAW payload of the fprobe PMU: 0 or -errno */
int fprobe_pmu_record__decode(const void *raw, u32 size, struct fprobe_call *call);
/* The @n values of its fetch area into @vals, of those types and names: 0 or -EINVAL */
int fprobe_pmu_record__fetched(const void *raw, u32 size, const char * const *types,
			       const char * const *names, u32 n, struct fprobe_fetched *vals);
/* Whether @type is a fetch type: string, or u, s or x and 8, 16, 32 or 64 */
bool fprobe_fetch_type__is_string(const char *type);
bool fprobe_fetch_type__valid(const char *type);
/* The version of a record, for the error on one of an unknown version */
unsigned int fprobe_pmu_record__version(const void *raw, u32 size);

#endif /* __PERF_FPROBE_DECODE_H */
