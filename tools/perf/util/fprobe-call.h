/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_CALL_H
#define __PERF_FPROBE_CALL_H

#include <linux/types.h>

#define FPROBE_CALL_MAX_ARGS	6
/* The most values a probe fetches at entry through member paths and types */
#define FPROBE_CALL_MAX_FETCH	8

/* How a fetched value is shown, from its fetch type */
enum fprobe_fetch_kind {
	FPROBE_FETCH_UNSIGNED,	/* u8..u64 */
	FPROBE_FETCH_SIGNED,	/* s8..s64 */
	FPROBE_FETCH_HEX,	/* x8..x64 */
	FPROBE_FETCH_STRING,	/* string */
};

enum fprobe_fetched_flags {
	FPROBE_FETCHED_FAULT	= 1 << 0,	/* could not be read: no value */
	FPROBE_FETCHED_CUT	= 1 << 1,	/* a string cut at the kernel's length */
};

/* A value fetched at a call's entry: PARAM->member, PARAM:string, ... */
struct fprobe_fetched {
	const char	*name;		/* the field's: NAME=, or the last member's */
	const char	*str;		/* STRING: the string, NUL-terminated */
	u64		val;		/* the others: the value, zero-extended */
	u8		kind;		/* enum fprobe_fetch_kind */
	u8		size;		/* bytes of val */
	u8		flags;		/* enum fprobe_fetched_flags */
};

/* What a recording tells of one traced call */
enum fprobe_call_flags {
	FPROBE_CALL_ENTRY	= 1 << 0,	/* entry seen: args valid */
	FPROBE_CALL_EXIT	= 1 << 1,	/* exit seen: duration, retval valid */
};

struct fprobe_call {
	u64		func;		/* address of the traced function */
	const char	*name;		/* its symbol name */
	u64		ret_ip;		/* return address */
	u64		entry_time;	/* ns, perf clock */
	u64		duration;	/* ns, valid with FPROBE_CALL_EXIT */
	u64		retval;		/* valid with FPROBE_CALL_EXIT */
	u64		args[FPROBE_CALL_MAX_ARGS];
	u32		nargs;
	u32		depth;
	u32		flags;
	s32		pid;
	s32		tid;
	s32		cpu;
	u32		nr_stack;	/* kernel callchain above the call */
	const char	**stack;	/* its symbols, outermost first */
	u64		cookie;		/* the caller's, see fprobe_report__walk_calls() */
	u32		nr_fetch;	/* values fetched at entry */
	struct fprobe_fetched *fetch;	/* nr_fetch of them, the holder's */
};

#endif /* __PERF_FPROBE_CALL_H */
