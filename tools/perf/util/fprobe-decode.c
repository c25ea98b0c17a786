// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding of the records of the fprobe PMU (include/uapi/linux/fprobe_pmu.h)
 * found in the PERF_SAMPLE_RAW payload of its samples.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
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
	if (rec.size < sizeof(rec) + rec.nargs * sizeof(u64) ||
	    (rec.size - sizeof(rec)) % sizeof(u64))
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
	/* the arguments are the last words of the record, after the fetch area */
	memcpy(call->args, (const char *)raw + rec.size - rec.nargs * sizeof(u64),
	       rec.nargs * sizeof(u64));
	return 0;
}

/* Whether the fetch type @type is a string, of kernel or of user memory */
bool fprobe_fetch_type__is_string(const char *type)
{
	return !strcmp(type, "string") || !strcmp(type, "ustring");
}

bool fprobe_fetch_type__valid(const char *type)
{
	if (!type)
		return false;
	if (fprobe_fetch_type__is_string(type))
		return true;
	if (!type[0] || !strchr("usx", type[0]))
		return false;
	return !strcmp(type + 1, "8") || !strcmp(type + 1, "16") ||
	       !strcmp(type + 1, "32") || !strcmp(type + 1, "64");
}

/* The bytes of the field of a value of the fetch type @type: 4 for a string */
static u32 fprobe_fetch_type__size(const char *type)
{
	if (fprobe_fetch_type__is_string(type))
		return sizeof(u32);
	return atoi(type + 1) / 8;
}

/* The field of @size bytes (1, 2, 4 or 8) at @p, unaligned, zero-extended */
static u64 fprobe_fetch__field(const char *p, u32 size)
{
	u8 b;
	u16 h;
	u32 w;
	u64 q;

	switch (size) {
	case 1:
		memcpy(&b, p, 1);
		return b;
	case 2:
		memcpy(&h, p, 2);
		return h;
	case 4:
		memcpy(&w, p, 4);
		return w;
	default:
		memcpy(&q, p, 8);
		return q;
	}
}

/**
 * fprobe_pmu_record__fetched - the values of the fetch area of a record
 * @raw: the PERF_SAMPLE_RAW payload, which fprobe_pmu_record__decode() took
 * @size: its size in bytes
 * @types: the fetch type of each value ("string", "ustring", "u32", ...)
 * @names: the name of each
 * @n: the number of values the record's event fetches
 * @vals: set to the @n values; a string points into @raw
 *
 * The area holds the fields of the values as an fprobe event lays them out:
 * packed, in their order, each of its type's size, a string's a u32
 * data_loc (length << 16 | offset in the area); then the strings.
 *
 * Return: 0; -ENODATA for a record without fetch area (an exit record);
 * -EINVAL if the area is too small for the @n fields, a string is not in
 * it or not NUL-terminated, a type is not a fetch type, or @n is more
 * than FPROBE_CALL_MAX_FETCH.
 */
int fprobe_pmu_record__fetched(const void *raw, u32 size, const char * const *types,
			       const char * const *names, u32 n, struct fprobe_fetched *vals)
{
	struct fprobe_pmu_record rec;
	u32 area_size, fields = 0, pos = 0, i;
	const char *area;

	if (!raw || size < sizeof(rec) || n > FPROBE_CALL_MAX_FETCH)
		return -EINVAL;
	memcpy(&rec, raw, sizeof(rec));
	if (rec.size > size || rec.size < sizeof(rec) + rec.nargs * sizeof(u64))
		return -EINVAL;
	area = (const char *)raw + sizeof(rec);
	area_size = rec.size - sizeof(rec) - rec.nargs * sizeof(u64);
	if (!area_size)
		return -ENODATA;
	for (i = 0; i < n; i++) {
		if (!fprobe_fetch_type__valid(types[i]))
			return -EINVAL;
		fields += fprobe_fetch_type__size(types[i]);
	}
	if (area_size < fields)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct fprobe_fetched *v = &vals[i];
		u32 fsize = fprobe_fetch_type__size(types[i]);
		u64 val = fprobe_fetch__field(area + pos, fsize);

		pos += fsize;
		memset(v, 0, sizeof(*v));
		v->name = names[i];
		if (rec.fetch_flags & FPROBE_PMU_FETCH_FAULT(i))
			v->flags |= FPROBE_FETCHED_FAULT;
		if (rec.fetch_flags & FPROBE_PMU_FETCH_CUT(i))
			v->flags |= FPROBE_FETCHED_CUT;
		if (fprobe_fetch_type__is_string(types[i])) {
			u32 dl = val, off = dl & 0xffff, len = dl >> 16;

			v->kind = FPROBE_FETCH_STRING;
			/* a string that could not be read, or an empty one */
			if (!len) {
				v->str = "";
				continue;
			}
			if (off < fields || off > area_size || len > area_size - off ||
			    area[off + len - 1])
				return -EINVAL;
			v->str = area + off;
			continue;
		}
		v->kind = types[i][0] == 's' ? FPROBE_FETCH_SIGNED :
			  types[i][0] == 'x' ? FPROBE_FETCH_HEX : FPROBE_FETCH_UNSIGNED;
		v->size = fsize;
		v->val = val;
	}
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
