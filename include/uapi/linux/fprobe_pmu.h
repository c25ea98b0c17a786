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
 *		below), at most FPROBE_PMU_FILTER_MAX bytes including the NUL.
 *		A glob after '@' names functions of the scope instead: the
 *		event then sees only the calls made in task context inside a
 *		call of one of them, and those calls themselves
 *  config2	user pointer to an optional not-filter of globs, without
 *		fetch arguments nor scope, or 0
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
 * values to read at each call's entry, apart by white space, each written
 * as an argument of an fprobe event on a function entry
 * (Documentation/trace/fprobetrace.rst), and parsed and read by the same
 * code: [NAME=]FETCHARG[:TYPE], with $argN, $stack, $stackN, $comm, @SYM,
 * immediates, [+|-][u]OFFS(FETCHARG), and the types of the probe events
 * (u8..u64, s8..s64, x8..x64, char, string, ustring, symbol, bitfields,
 * arrays) but symstr. BTF names are not taken: the functions are many.
 * As in probe events, a kernel read of a user address reads the current
 * task's user memory where the two do not overlap. The values are in the
 * entry records (FPROBE_PMU_CONFIG_ENTRY, which a filter with fetch
 * arguments requires), in their fetch area. A fetch argument that reads
 * memory (anything but $arg1..$arg6, $stack, an immediate or $comm) needs
 * CAP_PERFMON and CAP_BPF, or CAP_SYS_ADMIN; else the open is -EACCES.
 */
#define FPROBE_PMU_MAX_FETCH		8
/* The longest string a fetch argument gives, its NUL included */
#define FPROBE_PMU_STRING_MAX		256
/* The largest fetch area, fields and strings */
#define FPROBE_PMU_FETCH_SIZE_MAX	2048
/* fprobe_pmu_record.fetch_flags: fetch argument @i could not be read */
#define FPROBE_PMU_FETCH_FAULT(i)	(1U << (i))
/*
 * fprobe_pmu_record.fetch_flags: a string of @i filled its room (its
 * FPROBE_PMU_STRING_MAX bytes, or what was left of the area): it may have
 * been cut there
 */
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

/* The layout of struct fprobe_pmu_record below */
#define FPROBE_PMU_RECORD_VERSION	1

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
 * event with fetch arguments. It holds the fields of the fetch arguments
 * as an fprobe event with the same arguments lays them out (its format
 * file): each field in the order of the arguments, packed, of the size of
 * its type (times its elements for an array); a string's field is a u32
 * data_loc, its length (NUL included) in the high 16 bits, its offset from
 * the start of the area in the low 16. The strings follow the fields, then
 * zeroes up to the end of the area. A value that could not be read is 0,
 * a string that could not be read has length 0, and the argument's
 * FPROBE_PMU_FETCH_FAULT bit is set in @fetch_flags (an empty string of
 * user memory has length 0 too, without the bit, as trace_probe reads it;
 * so has an element of an array that could not be read, the array's
 * other elements read).
 */
struct fprobe_pmu_record {
	__u16	size;		/* bytes in the record, @args included */
	__u16	version;	/* FPROBE_PMU_RECORD_VERSION */
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
