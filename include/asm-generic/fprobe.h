/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic arch dependent fprobe macros.
 *
 * An architecture whose kernel addresses always have the same value in their
 * top 4 bits can define ARCH_FPROBE_HEADER_MSB_PATTERN to that value. fprobe
 * then saves the fprobe address and the size of its entry data in one long
 * on the function graph shadow stack, instead of two.
 *
 * An architecture with DYNAMIC_FTRACE_WITH_ARGS can define
 * arch_fprobe_return_address_ptr(fregs), where the return address of the
 * traced function is in an ftrace_ops callback at its entry. fprobe then
 * runs all handlers from one ftrace_ops callback, which also hooks the
 * returns the exit handlers need (function_graph_enter_ops()); otherwise
 * the fprobes with an exit handler are entered by the function graph
 * tracer.
 */
#ifndef __ASM_GENERIC_FPROBE_H__
#define __ASM_GENERIC_FPROBE_H__

#endif /* __ASM_GENERIC_FPROBE_H__ */
