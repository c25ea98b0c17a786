/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FPROBE_H
#define _ASM_X86_FPROBE_H

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

#endif /* _ASM_X86_FPROBE_H */
