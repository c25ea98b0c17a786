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

/*
 * The fprobe PMU's sample registers at the first instruction of the probed
 * function (@at_return: at its return). perf unwinds registers with flags
 * 0 (as ftrace_fill_perf_regs() and perf_arch_fetch_caller_regs() make
 * them) from its own stack, skipping the frames up to and including the
 * one at their sp: the frame of the caller of the probed function would be
 * lost.
 * Registers marked as full ones are unwound from their ip, sp and bp
 * instead: at the function's first instruction, sp points to the return
 * address. At exit, that slot is the one below the sp that
 * return_to_handler saved; it still holds the return_to_handler address,
 * which the unwinder maps back to the real return address through the
 * shadow stack entry of the call, not yet popped while the exit handlers
 * run.
 */
static __always_inline void arch_fprobe_perf_regs(struct pt_regs *regs,
						  struct ftrace_regs *fregs,
						  bool at_return)
{
	if (at_return)
		regs->sp -= sizeof(long);
	regs->bp = ftrace_regs_get_frame_pointer(fregs);
	regs->flags |= X86_EFLAGS_FIXED;
}

#define arch_fprobe_perf_regs arch_fprobe_perf_regs

#endif /* _ASM_X86_FPROBE_H */
