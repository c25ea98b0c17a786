/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_DWARF_H
#define __PERF_FPROBE_DWARF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#ifndef EM_AARCH64
#define EM_AARCH64	183
#endif
#ifndef EM_RISCV
#define EM_RISCV	243
#endif

/* How a parameter or return value is printed */
enum fprobe_type_kind {
	FPROBE_TYPE_VOID,	/* no value (void function) */
	FPROBE_TYPE_SIGNED,
	FPROBE_TYPE_UNSIGNED,
	FPROBE_TYPE_POINTER,
	FPROBE_TYPE_BOOL,
	FPROBE_TYPE_ENUM,
	FPROBE_TYPE_OTHER,	/* struct/union/array by value: shown as hex */
	FPROBE_TYPE_FLOAT,	/* in a floating point register: not captured */
};

struct fprobe_enumerator {
	s64		value;
	char		*name;
};

struct fprobe_type {
	char			*name;		/* C type name, e.g. "size_t" */
	enum fprobe_type_kind	kind;
	int			size;		/* bytes, at most 8: of the value shown */
	int			full_size;	/* bytes of the whole value (a struct's) */
	int			nr_enums;
	struct fprobe_enumerator *enums;
};

struct fprobe_param {
	char			*name;
	struct fprobe_type	type;
	/*
	 * The argument register the value is in at the function's entry, 0
	 * for the first (what the fprobe PMU captures as args[0] and an fprobe
	 * event as $arg1); -1 when it is in none, no_arg says why.
	 */
	int			arg;
	const char		*no_arg;
	/* the register a DWARF location list gives at the entry, or -1 */
	int			loc_arg;
};

/* The DWARF (or BTF) view of one traceable function */
struct fprobe_func {
	char			*name;
	u64			addr;		/* link-time address, 0 from BTF */
	const char		*source;	/* "DWARF" or "BTF" */
	struct fprobe_type	ret;
	int			nr_params;
	struct fprobe_param	*params;
};

struct fprobe_dwarf;
struct strlist;

struct fprobe_dwarf *fprobe_dwarf__new(const char *vmlinux);
void fprobe_dwarf__delete(struct fprobe_dwarf *fd);
const char *fprobe_dwarf__path(const struct fprobe_dwarf *fd);
/*
 * The function named @name, NULL with errno ENOENT if vmlinux has none,
 * ENOTUNIQ if it has several of that name at different addresses (which
 * one a call is, the name does not say), ENODATA if its DWARF lacks it
 */
struct fprobe_func *fprobe_dwarf__find_func(struct fprobe_dwarf *fd,
					    const char *name);
/*
 * Add to @inlined those of @names (names of no function symbol) that the
 * DWARF has as functions inlined everywhere: 0, -ENOMEM, -ENOTSUP
 */
int fprobe_dwarf__find_inlined(struct fprobe_dwarf *fd, struct strlist *names,
			       struct strlist *inlined);
/* Path of the vmlinux of the running kernel, or NULL */
const char *fprobe_dwarf__default_vmlinux(void);

void fprobe_func__delete(struct fprobe_func *func);
/* Index of parameter @name, or -1 */
int fprobe_func__param_index(const struct fprobe_func *func, const char *name);
/* The parameter in argument register @arg (0 for the first), or NULL */
const struct fprobe_param *fprobe_func__param_at(const struct fprobe_func *func,
						 int arg);
/* Free a type's strings (for a reader of another format filling one) */
void fprobe_type__exit(struct fprobe_type *type);

/*
 * Place a parameter of @type passed to a function of the kernel built for
 * @machine (an ELF EM_*) by its calling convention (x86-64 System V,
 * AAPCS64, RISC-V LP64), *next argument registers being taken by those
 * before it: its argument register, or -1 and why not in *why.
 */
int fprobe_abi__place(unsigned int machine, const struct fprobe_type *type,
		      int *next, const char **why);
/* The e_machine of the ELF file @path; EM_NONE if it is none (raw BTF) */
unsigned int fprobe_elf__machine(const char *path);

/*
 * The argument register of the first parameter of a function returning
 * @ret: 1 where a struct returned in memory takes the first for the
 * address of its buffer (x86-64 beyond 16 bytes, RISC-V beyond 2 XLEN;
 * AAPCS64 passes it in x8), else 0.
 */
int fprobe_abi__first_arg(unsigned int machine, const struct fprobe_type *ret);

/* Tracefs fetch type for a value of @type: "s32", "u64", "x64", ... */
const char *fprobe_type__fetch_type(const struct fprobe_type *type);
/* Print the raw register value @val as @type: 42, -1, 0xffff..., true, SEEK_SET */
int fprobe_type__scnprintf(const struct fprobe_type *type, u64 val,
			   char *buf, size_t size);

/*
 * Whether @val, returned by a function of return type @type, is an error
 * code: -4095..-1 as a signed integer (or enum) of the type's size, as a
 * pointer (ERR_PTR()) or an unsigned long (IS_ERR_VALUE()); a narrower
 * unsigned, a bool or a void return never is. With no
 * type (NULL), as the fprobe PMU's errors filter takes it: an error code
 * in the low 32 bits, as an int (a long error code has it there too).
 */
bool fprobe_type__is_error(const struct fprobe_type *type, u64 val);

#endif /* __PERF_FPROBE_DWARF_H */
