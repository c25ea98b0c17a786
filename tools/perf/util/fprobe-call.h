/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_CALL_H
#define __PERF_FPROBE_CALL_H

#include <linux/types.h>

#define FPROBE_CALL_MAX_ARGS	6

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
};

#endif /* __PERF_FPROBE_CALL_H */
