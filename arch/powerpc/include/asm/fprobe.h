/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_POWERPC_FPROBE_H
#define _ASM_POWERPC_FPROBE_H

/*
 * In an ftrace_ops callback at the entry of a function, its return address
 * is the link register saved in the ftrace_regs, which ftrace_caller loads
 * back before it returns to the function: fprobe can hook the return there,
 * as ftrace_graph_func() does.
 */
#define arch_fprobe_return_address_ptr(fregs)	\
	(&arch_ftrace_regs(fregs)->regs.link)

#endif /* _ASM_POWERPC_FPROBE_H */
