/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FPROBE_H
#define _ASM_X86_FPROBE_H

#include <linux/ftrace.h>
#include <asm/processor-flags.h>
#include <asm/ptrace.h>

#ifdef CONFIG_X86_64
/* The top 4 bits of an x86-64 kernel address are always set. */
#define ARCH_FPROBE_HEADER_MSB_PATTERN	0xfUL

/*
 * In an ftrace_ops callback at the entry of a function, its return address
 * is at the top of the stack: fprobe can hook the return from there.
 */
#define arch_fprobe_return_address_ptr(fregs)	\
	((unsigned long *)ftrace_regs_get_stack_pointer(fregs))
#endif

#ifdef CONFIG_UNWINDER_ORC
/*
 * The fprobe PMU's sample registers, with the ORC unwinder. perf unwinds
 * those of ftrace_fill_perf_regs() from its own stack, from the frame above
 * their sp: at the first instruction of a function, the frame of its
 * caller, which leaves the function out of the callchain. Those of
 * ftrace_partial_regs(), as BPF kprobe_multi programs have them, are
 * unwound from their ip and sp instead (the frame pointer unwinder would
 * start from bp, still the caller's frame there, and miss the caller: it
 * keeps perf's usual registers). At return, their sp is the caller's,
 * after the ret: the function's own is the slot below, where
 * return_to_handler has written its address back, which the unwinder maps
 * to the return address through the shadow stack entry of the call (not
 * yet popped while the exit handlers run). Only the registers perf reads
 * are taken: ftrace_regs do not save the others, nor the rest of the
 * flags word.
 */
static __always_inline struct pt_regs *
arch_fprobe_perf_regs(struct ftrace_regs *fregs, struct pt_regs *buf,
		      bool at_return)
{
	struct pt_regs *regs = ftrace_partial_regs(fregs, buf);

	buf->ip = regs->ip;
	buf->sp = regs->sp - (at_return ? sizeof(long) : 0);
	buf->bp = regs->bp;
	buf->cs = regs->cs;
	buf->flags = regs->flags & X86_EFLAGS_FIXED;
	return buf;
}

#define arch_fprobe_perf_regs arch_fprobe_perf_regs
#endif /* CONFIG_UNWINDER_ORC */

#endif /* _ASM_X86_FPROBE_H */
