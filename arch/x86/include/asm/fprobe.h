/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FPROBE_H
#define _ASM_X86_FPROBE_H

#ifdef CONFIG_X86_64
/* The top 4 bits of an x86-64 kernel address are always set. */
#define ARCH_FPROBE_HEADER_MSB_PATTERN	0xfUL
#endif

#endif /* _ASM_X86_FPROBE_H */
