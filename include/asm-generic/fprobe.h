/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic arch dependent fprobe macros.
 *
 * An architecture whose kernel addresses always have the same value in their
 * top 4 bits can define ARCH_FPROBE_HEADER_MSB_PATTERN to that value. fprobe
 * then saves the fprobe address and the size of its entry data in one long
 * on the function graph shadow stack, instead of two.
 */
#ifndef __ASM_GENERIC_FPROBE_H__
#define __ASM_GENERIC_FPROBE_H__

#endif /* __ASM_GENERIC_FPROBE_H__ */
