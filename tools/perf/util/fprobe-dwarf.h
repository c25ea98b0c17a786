/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_DWARF_H
#define __PERF_FPROBE_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* How a parameter or return value is printed */
enum fprobe_type_kind {
	FPROBE_TYPE_VOID,	/* no value (void function) */
	FPROBE_TYPE_SIGNED,
	FPROBE_TYPE_UNSIGNED,
	FPROBE_TYPE_POINTER,
	FPROBE_TYPE_BOOL,
	FPROBE_TYPE_ENUM,
	FPROBE_TYPE_OTHER,	/* struct/union/array by value: shown as hex */
};

struct fprobe_enumerator {
	s64		value;
	char		*name;
};

struct fprobe_type {
	char			*name;		/* C type name, e.g. "size_t" */
	enum fprobe_type_kind	kind;
	int			size;		/* bytes */
	int			nr_enums;
	struct fprobe_enumerator *enums;
};

struct fprobe_param {
	char			*name;
	struct fprobe_type	type;
};

/* The DWARF view of one traceable function */
struct fprobe_func {
	char			*name;
	u64			addr;		/* link-time address */
	struct fprobe_type	ret;
	int			nr_params;
	struct fprobe_param	*params;
};

struct fprobe_dwarf;

struct fprobe_dwarf *fprobe_dwarf__new(const char *vmlinux);
void fprobe_dwarf__delete(struct fprobe_dwarf *fd);
const char *fprobe_dwarf__path(const struct fprobe_dwarf *fd);
/* The function named @name, NULL with errno = ENOENT if vmlinux has none */
struct fprobe_func *fprobe_dwarf__find_func(struct fprobe_dwarf *fd,
					    const char *name);
/* Path of the vmlinux of the running kernel, or NULL */
const char *fprobe_dwarf__default_vmlinux(void);

void fprobe_func__delete(struct fprobe_func *func);
/* Index of parameter @name, or -1 */
int fprobe_func__param_index(const struct fprobe_func *func, const char *name);

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
