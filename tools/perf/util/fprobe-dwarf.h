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
	/*
	 * The type in the description it was read from, for member paths: a
	 * DIE offset in the DWARF, a type id in the BTF; 0 for none (void)
	 */
	u64			id;
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

/* What a member path can do with a value of a type, its typedefs seen through */
enum fprobe_tnode_kind {
	FPROBE_TNODE_OTHER,	/* nothing: void, a function, ... */
	FPROBE_TNODE_SCALAR,	/* an integer, an enum, a bool, a float */
	FPROBE_TNODE_POINTER,	/* ->, [N], and :string for a pointer to char */
	FPROBE_TNODE_STRUCT,	/* a struct or a union: . */
	FPROBE_TNODE_ARRAY,	/* [N], and :string for an array of char */
};

struct fprobe_tnode {
	enum fprobe_tnode_kind	kind;
	int			size;		/* bytes of a value; -1 for an array */
	u64			target;		/* POINTER, ARRAY: the type of the elements */
	int			target_size;	/* bytes of one, -1 if unknown (void) */
	int			nr_elems;	/* ARRAY: 0 if unknown */
	bool			is_char;	/* POINTER, ARRAY: to a one-byte integer */
};

struct fprobe_reader;
struct strlist;

/* A walk of the members of a struct: a non-zero return stops it */
typedef int (*fprobe_member_fn)(const char *name, u64 offset,
				const struct fprobe_type *type, void *arg);

/*
 * A reader of the prototypes and types of the kernel's functions: the
 * DWARF of vmlinux (fprobe_dwarf__new()) or BTF (fprobe_btf__new()), one
 * interface for both. Type ids are those of struct fprobe_type.
 */
struct fprobe_reader_ops {
	void (*delete)(struct fprobe_reader *reader);
	/*
	 * The function named @name, NULL with errno ENOENT if there is
	 * none, ENOTUNIQ if there are several of that name (which one a call
	 * is, the name does not say), ENODATA if the DWARF lacks it
	 */
	struct fprobe_func *(*find_func)(struct fprobe_reader *reader, const char *name);
	/*
	 * Member paths: what a type is, the type of an id, the member @name
	 * of a struct or union (those of its anonymous members included)
	 * with its offset (-ENOENT: none, -EOPNOTSUPP: a bit field), and each
	 * member with @fn
	 */
	int (*tnode)(struct fprobe_reader *reader, u64 id, struct fprobe_tnode *tn);
	int (*type)(struct fprobe_reader *reader, u64 id, struct fprobe_type *type);
	int (*member)(struct fprobe_reader *reader, u64 id, const char *name,
		      u64 *offset, struct fprobe_type *type);
	int (*members)(struct fprobe_reader *reader, u64 id, fprobe_member_fn fn, void *arg);
};

/* What every reader starts with */
struct fprobe_reader {
	const struct fprobe_reader_ops	*ops;
	const char			*source;	/* "DWARF" or "BTF" */
	char				*path;		/* of the file read */
};

static inline void fprobe_reader__delete(struct fprobe_reader *reader)
{
	if (reader)
		reader->ops->delete(reader);
}

static inline struct fprobe_func *fprobe_reader__find_func(struct fprobe_reader *reader,
							   const char *name)
{
	return reader->ops->find_func(reader, name);
}

static inline int fprobe_reader__tnode(struct fprobe_reader *reader, u64 id,
				       struct fprobe_tnode *tn)
{
	return reader->ops->tnode(reader, id, tn);
}

static inline int fprobe_reader__type(struct fprobe_reader *reader, u64 id,
				      struct fprobe_type *type)
{
	return reader->ops->type(reader, id, type);
}

static inline int fprobe_reader__member(struct fprobe_reader *reader, u64 id, const char *name,
					u64 *offset, struct fprobe_type *type)
{
	return reader->ops->member(reader, id, name, offset, type);
}

static inline int fprobe_reader__members(struct fprobe_reader *reader, u64 id,
					 fprobe_member_fn fn, void *arg)
{
	return reader->ops->members(reader, id, fn, arg);
}

/*
 * The DWARF of @vmlinux, NULL: of the running kernel's. NULL with errno
 * ENOENT if there is no such file, ENODATA if it has no DWARF, ENOTSUP
 * when perf was built without libdw.
 */
struct fprobe_reader *fprobe_dwarf__new(const char *vmlinux);
/*
 * Add to @inlined those of @names (names of no function symbol) that the
 * DWARF @dwarf has as functions inlined everywhere: 0, -ENOMEM, -ENOTSUP,
 * -EINVAL if @dwarf is not a DWARF reader
 */
int fprobe_dwarf__find_inlined(struct fprobe_reader *dwarf, struct strlist *names,
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
