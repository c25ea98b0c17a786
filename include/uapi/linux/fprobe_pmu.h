/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The fprobe perf PMU: perf events on kernel function entries and exits,
 * fed by fprobe. See Documentation/trace/fprobe-pmu.rst.
 *
 * perf_event_attr of an fprobe PMU event:
 *  type	/sys/bus/event_source/devices/fprobe/type
 *  config	FPROBE_PMU_CONFIG_* bits below
 *  config1	user pointer to the NUL-terminated filter: globs of the
 *		functions to probe, separated by ',' or white space, then
 *		optionally ';' and the fetch arguments of entry records (see
 *		below), at most FPROBE_PMU_FILTER_MAX bytes including the NUL
 *  config2	user pointer to an optional not-filter of the same form, or 0
 *  config3	the shortest call, in ns, that makes an exit record (0: any);
 *		requires a sampling event with exit records
 */
#ifndef _UAPI_LINUX_FPROBE_PMU_H
#define _UAPI_LINUX_FPROBE_PMU_H

#include <linux/types.h>

/* The longest filter or not-filter, including its NUL */
#define FPROBE_PMU_FILTER_MAX		4096

/* The most function arguments a record can carry */
#define FPROBE_PMU_MAX_ARGS		6

/*
 * Fetch arguments: after a ';' in the filter, up to FPROBE_PMU_MAX_FETCH
 * values to read at each call's entry, apart by white space, each in the
 * syntax of an fprobe event's fetch arguments (reduced):
 *
 *	FETCHARG := TERM ':' TYPE
 *	TERM	 := '$arg' N | ('+' | '-') ['u'] OFFS '(' TERM ')'
 *	TYPE	 := ('u' | 's' | 'x') ('8' | '16' | '32' | '64') |
 *		    'string' | 'ustring'
 *
 * N is 1 to FPROBE_PMU_MAX_ARGS, OFFS a decimal byte offset that fits in
 * an s32, and terms nest up to FPROBE_PMU_FETCH_DEPTH deep. '+OFFS(TERM)'
 * is the kernel memory at TERM + OFFS: a value of TYPE's size for the
 * outermost term, else an address. With 'string' the outermost term is not
 * read: TERM + OFFS is the address of a NUL-terminated string, at least
 * one '+OFFS()' is needed. '+uOFFS(TERM)' and 'ustring' read the user
 * memory of the current task instead. The values are in the entry records
 * (FPROBE_PMU_CONFIG_ENTRY, which a filter with fetch arguments requires),
 * in their fetch area. A fetch argument that reads memory needs
 * CAP_PERFMON and CAP_BPF, or CAP_SYS_ADMIN; else the open is -EACCES.
 */
#define FPROBE_PMU_MAX_FETCH		8
#define FPROBE_PMU_FETCH_DEPTH		4
/* The longest string a fetch argument gives, its NUL included */
#define FPROBE_PMU_STRING_MAX		256
/* fprobe_pmu_record.fetch_flags: fetch argument @i could not be read */
#define FPROBE_PMU_FETCH_FAULT(i)	(1U << (i))
/* fprobe_pmu_record.fetch_flags: the string of @i was cut at STRING_MAX */
#define FPROBE_PMU_FETCH_CUT(i)		(1U << (8 + (i)))

/* config bits 0-2: the number of arguments captured at entry (0..6) */
#define FPROBE_PMU_CONFIG_NARGS_MASK	0x7ULL
/* config bit 3: also emit a record when a call starts */
#define FPROBE_PMU_CONFIG_ENTRY		(1ULL << 3)
/* config bit 4: no exit records, no return hook (requires ENTRY) */
#define FPROBE_PMU_CONFIG_NOEXIT	(1ULL << 4)
/*
 * config bit 5: exit records only of the calls that return an error code:
 * a return value whose low 32 bits are -FPROBE_PMU_MAX_ERRNO..-1 as an int
 * (where a function returning int leaves it; a long error code has them
 * too). Requires a sampling event with exit records. A 64-bit value whose
 * low 32 bits look like an error code passes too: a tool that knows the
 * return type checks the value again.
 */
#define FPROBE_PMU_CONFIG_ERRORS	(1ULL << 5)
/*
 * config bit 6: leave out the calls that the threads of the process that
 * opened the event (an inherited event: its parent's) make in task context
 * (not those of the interrupts that come while they run): neither recorded
 * nor counted, not even as lost. A tool tracing the whole system sets it,
 * so that its own reads of the records and writes of them to a file are
 * not traced in turn.
 */
#define FPROBE_PMU_CONFIG_EXCLUDE_OPENER	(1ULL << 6)
/* Every defined config bit; any other bit set is -EINVAL */
#define FPROBE_PMU_CONFIG_MASK		(FPROBE_PMU_CONFIG_NARGS_MASK | \
					 FPROBE_PMU_CONFIG_ENTRY |	\
					 FPROBE_PMU_CONFIG_NOEXIT |	\
					 FPROBE_PMU_CONFIG_ERRORS |	\
					 FPROBE_PMU_CONFIG_EXCLUDE_OPENER)
/*
 * The config bits that filter the records of one event: events that differ
 * only in them (and in config3) share one probe.
 */
#define FPROBE_PMU_CONFIG_FILTERS	FPROBE_PMU_CONFIG_ERRORS

/* The largest error code FPROBE_PMU_CONFIG_ERRORS takes (the kernel's) */
#define FPROBE_PMU_MAX_ERRNO		4095

/* fprobe_pmu_record.type */
enum fprobe_pmu_record_type {
	FPROBE_PMU_REC_EXIT	= 1,	/* a call completed */
	FPROBE_PMU_REC_ENTRY	= 2,	/* a call started */
};

/*
 * The layout of struct fprobe_pmu_record below. An entry record with a
 * fetch area is of version FPROBE_PMU_RECORD_VERSION_FETCH: the area sits
 * between the fixed part and @args, and @fetch_flags tells of it; every
 * other record is of version 1, with @fetch_flags 0.
 */
#define FPROBE_PMU_RECORD_VERSION	1
#define FPROBE_PMU_RECORD_VERSION_FETCH	2

/*
 * The PERF_SAMPLE_RAW payload of each sample, in the byte order of the
 * kernel. Every field is naturally aligned within the record (perf puts the
 * payload after its u32 size, so in the ring buffer it is not).
 *
 * A later version may append fields to the fixed part; it keeps the fields
 * of the versions before it where they are, raises @version and @size, and
 * the arguments stay the last @nargs * 8 bytes of the record. A reader
 * refuses a @version it does not know. perf pads the raw payload to 8
 * bytes: the record ends after @size bytes.
 *
 * The fetch area is between the fixed part and @args: @size - 56 - 8 *
 * @nargs bytes, a multiple of 8, empty but in the entry records of an
 * event with fetch arguments. It starts with a u64 per fetch argument, in
 * their order: a value, zero-extended from its type's size; or for a
 * string, its offset from the start of the area in the low 32 bits and
 * its length, NUL included, in the high 32. The strings follow, then
 * zeroes up to the end of the area. A value that could not be read is 0
 * and its FPROBE_PMU_FETCH_FAULT bit is set in @fetch_flags; a string that
 * could not be read is "" (length 1).
 */
struct fprobe_pmu_record {
	__u16	size;		/* bytes in the record, @args included */
	__u16	version;	/* FPROBE_PMU_RECORD_VERSION(_FETCH) */
	__u16	type;		/* enum fprobe_pmu_record_type */
	__u16	nargs;		/* the number of entries in @args */
	__u32	depth;		/* function graph depth of the call, 0: outermost */
	__u32	fetch_flags;	/* FPROBE_PMU_FETCH_* of the fetch area, 0 without */
	__u64	func;		/* address of the probed function (entry ip) */
	__u64	ret_ip;		/* return address of the call */
	__u64	entry_time;	/* local_clock() at entry, in ns */
	__u64	duration;	/* ns from entry to return, 0 in entry records */
	__u64	retval;		/* return value, 0 in entry records */
	__u64	args[];		/* the arguments, read at entry */
};

#endif /* _UAPI_LINUX_FPROBE_PMU_H */
