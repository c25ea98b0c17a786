// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding of the records of the fprobe PMU (include/uapi/linux/fprobe_pmu.h)
 * found in the PERF_SAMPLE_RAW payload of its samples.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <linux/fprobe_pmu.h>

#include "fprobe-call.h"
#include "fprobe-decode.h"

/* perf pads the raw payload so that it ends on a u64 boundary */
#define FPROBE_PMU_RAW_PAD	7U

/**
 * fprobe_pmu_record__decode - decode one fprobe PMU record
 * @raw: the PERF_SAMPLE_RAW payload of a sample
 * @size: its size in bytes
 * @call: filled with what the record tells of the call
 *
 * Sets func, ret_ip, entry_time, duration, retval, args, nargs, depth and
 * flags of @call; name, pid, tid, cpu and the callchain are the caller's.
 * An exit record carries the entry's time and arguments, so it gives a
 * call with both FPROBE_CALL_ENTRY and FPROBE_CALL_EXIT; an entry record
 * gives FPROBE_CALL_ENTRY only, with no duration and no return value.
 * @raw need not be aligned. The record is read in the byte order of this
 * machine, which is the kernel's when perf.data is read where it was made.
 *
 * Return: 0; -EPROTONOSUPPORT if the record is of a version this perf does
 * not know (see fprobe_pmu_record__version()); -EINVAL if it is truncated
 * (@size too small for the header or for its nargs arguments), its size
 * does not match its nargs, it has more than FPROBE_PMU_MAX_ARGS
 * arguments, the payload is longer than the record plus the padding perf
 * adds, or it has an unknown type.
 */
int fprobe_pmu_record__decode(const void *raw, u32 size, struct fprobe_call *call)
{
	struct fprobe_pmu_record rec;

	if (!raw || !call || size < offsetof(struct fprobe_pmu_record, type))
		return -EINVAL;

	memcpy(&rec, raw, offsetof(struct fprobe_pmu_record, type));
	if (rec.version != FPROBE_PMU_RECORD_VERSION)
		return -EPROTONOSUPPORT;
	if (size < sizeof(rec))
		return -EINVAL;

	memcpy(&rec, raw, sizeof(rec));
	if (rec.nargs > FPROBE_PMU_MAX_ARGS || rec.nargs > FPROBE_CALL_MAX_ARGS)
		return -EINVAL;
	if (rec.size != sizeof(rec) + rec.nargs * sizeof(u64))
		return -EINVAL;
	if (size < rec.size || size > rec.size + FPROBE_PMU_RAW_PAD)
		return -EINVAL;

	switch (rec.type) {
	case FPROBE_PMU_REC_EXIT:
		call->flags = FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT;
		call->duration = rec.duration;
		call->retval = rec.retval;
		break;
	case FPROBE_PMU_REC_ENTRY:
		call->flags = FPROBE_CALL_ENTRY;
		call->duration = 0;
		call->retval = 0;
		break;
	default:
		return -EINVAL;
	}

	call->func = rec.func;
	call->ret_ip = rec.ret_ip;
	call->entry_time = rec.entry_time;
	call->depth = rec.depth;
	call->nargs = rec.nargs;
	memset(call->args, 0, sizeof(call->args));
	memcpy(call->args, (const char *)raw + sizeof(rec), rec.nargs * sizeof(u64));
	return 0;
}

/**
 * fprobe_pmu_record__version - the version of an fprobe PMU record
 * @raw: the PERF_SAMPLE_RAW payload of a sample
 * @size: its size in bytes
 *
 * Return: the version the record says it is, for the error message of a
 * record fprobe_pmu_record__decode() refused with -EPROTONOSUPPORT; 0 if
 * @size is too small to tell.
 */
unsigned int fprobe_pmu_record__version(const void *raw, u32 size)
{
	struct fprobe_pmu_record rec;

	if (!raw || size < offsetof(struct fprobe_pmu_record, type))
		return 0;
	memcpy(&rec, raw, offsetof(struct fprobe_pmu_record, type));
	return rec.version;
}
