/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_BTF_H
#define __PERF_FPROBE_BTF_H

#include "fprobe-dwarf.h"

/*
 * The BTF of @path (a vmlinux ELF with a .BTF section, or a raw BTF file),
 * or with @path NULL the running kernel's (/sys/kernel/btf/vmlinux). NULL
 * with errno set when there is none or it cannot be read; ENOTSUP when perf
 * was built without libbpf. A function of it is found by its name only if
 * it has one prototype: of a compiler-made clone (name.isra.0 and the
 * like) it has none, its convention is the compiler's own. Its parameters
 * are placed in the argument registers by the calling convention of the
 * machine perf runs on.
 */
struct fprobe_reader *fprobe_btf__new(const char *path);
/*
 * @fn on the name of each function of the BTF @btf that has one
 * prototype, in no particular order; a non-zero return of @fn stops the
 * walk and is returned. -EINVAL if @btf is not a BTF reader.
 */
int fprobe_btf__walk_funcs(struct fprobe_reader *btf,
			   int (*fn)(const char *name, void *arg), void *arg);

#endif /* __PERF_FPROBE_BTF_H */
