/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_BTF_H
#define __PERF_FPROBE_BTF_H

#include "fprobe-dwarf.h"

struct fprobe_btf;

/*
 * The BTF of @path (a vmlinux ELF with a .BTF section, or a raw BTF file),
 * or with @path NULL the running kernel's (/sys/kernel/btf/vmlinux). NULL
 * with errno set when there is none or it cannot be read; ENOTSUP when perf
 * was built without libbpf.
 */
struct fprobe_btf *fprobe_btf__new(const char *path);
void fprobe_btf__delete(struct fprobe_btf *fb);
const char *fprobe_btf__path(const struct fprobe_btf *fb);
/*
 * The function named @name, its parameters placed in the argument
 * registers by the calling convention of the machine perf runs on. NULL
 * with errno ENOENT if the BTF has no such function (a compiler-made
 * clone, name.isra.0 and the like, has none: its convention is the
 * compiler's own), ENOTUNIQ if it has several of that name with different
 * prototypes (which one an address is, BTF does not say), ENOMEM.
 */
struct fprobe_func *fprobe_btf__find_func(struct fprobe_btf *fb, const char *name);
/*
 * @fn on the name of each function of the BTF that has one prototype, in
 * no particular order; a non-zero return of @fn stops the walk and is
 * returned.
 */
int fprobe_btf__walk_funcs(struct fprobe_btf *fb,
			   int (*fn)(const char *name, void *arg), void *arg);
/* Member paths, as fprobe_dwarf__tnode() and its kin, on BTF type ids */
int fprobe_btf__tnode(struct fprobe_btf *fb, u64 id, struct fprobe_tnode *tn);
int fprobe_btf__type_of(struct fprobe_btf *fb, u64 id, struct fprobe_type *type);
int fprobe_btf__member(struct fprobe_btf *fb, u64 id, const char *name,
		       u64 *offset, struct fprobe_type *type);
int fprobe_btf__members(struct fprobe_btf *fb, u64 id,
			int (*fn)(const char *name, u64 offset,
				  const struct fprobe_type *type, void *arg),
			void *arg);

#endif /* __PERF_FPROBE_BTF_H */
