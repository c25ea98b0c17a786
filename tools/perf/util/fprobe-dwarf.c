// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe-dwarf.c: the parameters and return type of a kernel function, read
 * from the DWARF of vmlinux with the helpers perf probe uses (debuginfo,
 * dwarf-aux), for perf fprobe.
 *
 * A traced function is found by its symbol in vmlinux, its subprogram DIE
 * by address (as debuginfo__find_probe_point() does), and its formal
 * parameters are the children of that DIE, in order: parameter i is
 * argument register i at the function entry.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "debuginfo.h"
#include "strbuf.h"
#include "symbol.h"
#include "fprobe-dwarf.h"

#ifdef HAVE_DWARF_SUPPORT
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "dwarf-aux.h"
#endif

#ifdef HAVE_DWARF_SUPPORT
struct fprobe_dwarf {
	struct debuginfo	*dinfo;
	char			*path;
};

const char *fprobe_dwarf__default_vmlinux(void)
{
	static const char * const fmts[] = {
		"/lib/modules/%s/vmlinux",
		"/lib/modules/%s/build/vmlinux",
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
	};
	static char path[PATH_MAX];
	struct utsname uts;
	size_t i;

	if (symbol_conf.vmlinux_name)
		return symbol_conf.vmlinux_name;
	if (uname(&uts) < 0)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		snprintf(path, sizeof(path), fmts[i], uts.release);
		if (access(path, R_OK) == 0)
			return path;
	}
	return NULL;
}

struct fprobe_dwarf *fprobe_dwarf__new(const char *vmlinux)
{
	struct fprobe_dwarf *fd;

	if (!vmlinux)
		vmlinux = fprobe_dwarf__default_vmlinux();
	if (!vmlinux) {
		errno = ENOENT;
		return NULL;
	}

	fd = zalloc(sizeof(*fd));
	if (!fd)
		return NULL;
	fd->path = strdup(vmlinux);
	fd->dinfo = debuginfo__new(vmlinux);
	if (!fd->path || !fd->dinfo) {
		fprobe_dwarf__delete(fd);
		errno = ENODATA;
		return NULL;
	}
	return fd;
}

void fprobe_dwarf__delete(struct fprobe_dwarf *fd)
{
	if (!fd)
		return;
	debuginfo__delete(fd->dinfo);
	free(fd->path);
	free(fd);
}

const char *fprobe_dwarf__path(const struct fprobe_dwarf *fd)
{
	return fd->path;
}

/* The address of the function symbol @name in the symbol table */
static int fprobe_dwarf__symbol_addr(struct fprobe_dwarf *fd, const char *name,
				     Dwarf_Addr *addr)
{
	Dwfl_Module *mod = fd->dinfo->mod;
	int i, n = dwfl_module_getsymtab(mod);

	for (i = 1; i < n; i++) {
		const char *sname;
		GElf_Sym sym;
		GElf_Addr saddr;

		sname = dwfl_module_getsym_info(mod, i, &sym, &saddr,
						NULL, NULL, NULL);
		if (!sname || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || strcmp(sname, name))
			continue;
		*addr = saddr;
		return 0;
	}
	return -ENOENT;
}

static void fprobe_type__collect_enums(struct fprobe_type *type,
				       Dwarf_Die *enum_die)
{
	Dwarf_Die child;
	int n = 0;

	if (dwarf_child(enum_die, &child) != 0)
		return;
	do {
		Dwarf_Attribute attr;
		Dwarf_Sword value;
		struct fprobe_enumerator *enums;
		const char *name = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_enumerator || !name ||
		    !dwarf_attr(&child, DW_AT_const_value, &attr) ||
		    dwarf_formsdata(&attr, &value) != 0)
			continue;
		enums = realloc(type->enums, (n + 1) * sizeof(*enums));
		if (!enums)
			return;
		type->enums = enums;
		enums[n].value = value;
		enums[n].name = strdup(name);
		if (!enums[n].name)
			return;
		type->nr_enums = ++n;
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* The type of @die (a parameter, or a subprogram for its return type) */
static int fprobe_type__init(struct fprobe_type *type, Dwarf_Die *die)
{
	Dwarf_Die tdie, rdie;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	struct strbuf sb;
	int size;

	memset(type, 0, sizeof(*type));
	if (!die_get_type(die, &tdie)) {
		type->kind = FPROBE_TYPE_VOID;
		type->name = strdup("void");
		return type->name ? 0 : -ENOMEM;
	}

	if (strbuf_init(&sb, 32) < 0)
		return -ENOMEM;
	if (die_get_typename(die, &sb) < 0 || sb.len == 0) {
		strbuf_release(&sb);
		type->name = strdup("(unknown_type)");
	} else {
		type->name = strbuf_detach(&sb, NULL);
	}
	if (!type->name)
		return -ENOMEM;

	type->kind = FPROBE_TYPE_OTHER;
	type->size = sizeof(u64);
	if (!die_get_real_type(die, &rdie))
		return 0;

	switch (dwarf_tag(&rdie)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		type->kind = FPROBE_TYPE_POINTER;
		return 0;
	case DW_TAG_enumeration_type:
		type->kind = FPROBE_TYPE_ENUM;
		fprobe_type__collect_enums(type, &rdie);
		break;
	case DW_TAG_base_type:
		if (dwarf_attr(&rdie, DW_AT_encoding, &attr))
			dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_boolean)
			type->kind = FPROBE_TYPE_BOOL;
		else if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
			type->kind = FPROBE_TYPE_SIGNED;
		else if (enc == DW_ATE_unsigned || enc == DW_ATE_unsigned_char ||
			 enc == DW_ATE_UTF)
			type->kind = FPROBE_TYPE_UNSIGNED;
		break;
	default:
		break;
	}
	size = dwarf_bytesize(&rdie);
	if (size > 0 && size <= (int)sizeof(u64))
		type->size = size;
	return 0;
}

static void fprobe_type__exit(struct fprobe_type *type)
{
	int i;

	for (i = 0; i < type->nr_enums; i++)
		free(type->enums[i].name);
	zfree(&type->enums);
	zfree(&type->name);
}

static int fprobe_func__add_param(struct fprobe_func *func, Dwarf_Die *die)
{
	struct fprobe_param *params, *param;
	const char *name = dwarf_diename(die);
	char anon[16];

	params = realloc(func->params, (func->nr_params + 1) * sizeof(*params));
	if (!params)
		return -ENOMEM;
	func->params = params;
	param = &params[func->nr_params];
	if (!name) {
		snprintf(anon, sizeof(anon), "arg%d", func->nr_params + 1);
		name = anon;
	}
	param->name = strdup(name);
	if (!param->name || fprobe_type__init(&param->type, die) < 0) {
		free(param->name);
		return -ENOMEM;
	}
	func->nr_params++;
	return 0;
}

struct fprobe_func *fprobe_dwarf__find_func(struct fprobe_dwarf *fd,
					    const char *name)
{
	Dwarf_Die cu_die, sp_die, child;
	Dwarf_Addr addr;
	struct fprobe_func *func;

	if (fprobe_dwarf__symbol_addr(fd, name, &addr) < 0) {
		errno = ENOENT;
		return NULL;
	}
	addr -= fd->dinfo->bias;
	if (!dwarf_addrdie(fd->dinfo->dbg, addr, &cu_die) ||
	    !die_find_realfunc(&cu_die, addr, &sp_die)) {
		pr_debug("no DWARF subprogram for %s at %#" PRIx64 "\n",
			 name, (u64)addr);
		errno = ENODATA;
		return NULL;
	}

	func = zalloc(sizeof(*func));
	if (!func)
		return NULL;
	func->name = strdup(name);
	func->addr = addr;
	if (!func->name || fprobe_type__init(&func->ret, &sp_die) < 0)
		goto out_nomem;

	if (dwarf_child(&sp_die, &child) == 0) {
		do {
			if (dwarf_tag(&child) != DW_TAG_formal_parameter)
				continue;
			if (fprobe_func__add_param(func, &child) < 0)
				goto out_nomem;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return func;

out_nomem:
	fprobe_func__delete(func);
	errno = ENOMEM;
	return NULL;
}

#else /* HAVE_DWARF_SUPPORT */

struct fprobe_dwarf *fprobe_dwarf__new(const char *vmlinux __maybe_unused)
{
	errno = ENOTSUP;
	return NULL;
}

void fprobe_dwarf__delete(struct fprobe_dwarf *fd __maybe_unused)
{
}

const char *fprobe_dwarf__path(const struct fprobe_dwarf *fd __maybe_unused)
{
	return "";
}

struct fprobe_func *fprobe_dwarf__find_func(struct fprobe_dwarf *fd __maybe_unused,
					    const char *name __maybe_unused)
{
	errno = ENOTSUP;
	return NULL;
}

static void fprobe_type__exit(struct fprobe_type *type)
{
	int i;

	for (i = 0; i < type->nr_enums; i++)
		free(type->enums[i].name);
	zfree(&type->enums);
	zfree(&type->name);
}
#endif /* HAVE_DWARF_SUPPORT */

void fprobe_func__delete(struct fprobe_func *func)
{
	int i;

	if (!func)
		return;
	for (i = 0; i < func->nr_params; i++) {
		free(func->params[i].name);
		fprobe_type__exit(&func->params[i].type);
	}
	free(func->params);
	fprobe_type__exit(&func->ret);
	free(func->name);
	free(func);
}

int fprobe_func__param_index(const struct fprobe_func *func, const char *name)
{
	int i;

	for (i = 0; i < func->nr_params; i++) {
		if (!strcmp(func->params[i].name, name))
			return i;
	}
	return -1;
}

const char *fprobe_type__fetch_type(const struct fprobe_type *type)
{
	static const char * const sfmt[] = { "s8", "s16", "s32", "s64" };
	static const char * const ufmt[] = { "u8", "u16", "u32", "u64" };
	int order;

	switch (type->size) {
	case 1:
		order = 0;
		break;
	case 2:
		order = 1;
		break;
	case 4:
		order = 2;
		break;
	default:
		order = 3;
		break;
	}

	switch (type->kind) {
	case FPROBE_TYPE_SIGNED:
		return sfmt[order];
	case FPROBE_TYPE_UNSIGNED:
	case FPROBE_TYPE_BOOL:
	case FPROBE_TYPE_ENUM:
		return ufmt[order];
	case FPROBE_TYPE_VOID:
	case FPROBE_TYPE_POINTER:
	case FPROBE_TYPE_OTHER:
	default:
		return "x64";
	}
}

static s64 sign_extend(u64 val, int size)
{
	int shift = 64 - 8 * size;

	if (size <= 0 || size >= 8)
		return (s64)val;
	return (s64)(val << shift) >> shift;
}

static u64 zero_extend(u64 val, int size)
{
	if (size <= 0 || size >= 8)
		return val;
	return val & ((1ULL << (8 * size)) - 1);
}

int fprobe_type__scnprintf(const struct fprobe_type *type, u64 val,
			   char *buf, size_t size)
{
	s64 sval;
	int i;

	switch (type->kind) {
	case FPROBE_TYPE_SIGNED:
		return scnprintf(buf, size, "%" PRId64, sign_extend(val, type->size));
	case FPROBE_TYPE_UNSIGNED:
		return scnprintf(buf, size, "%" PRIu64, zero_extend(val, type->size));
	case FPROBE_TYPE_BOOL:
		return scnprintf(buf, size, "%s",
				 zero_extend(val, type->size) ? "true" : "false");
	case FPROBE_TYPE_ENUM:
		sval = sign_extend(val, type->size);
		for (i = 0; i < type->nr_enums; i++) {
			if (type->enums[i].value == sval ||
			    type->enums[i].value == (s64)zero_extend(val, type->size))
				return scnprintf(buf, size, "%s", type->enums[i].name);
		}
		return scnprintf(buf, size, "%" PRId64, sval);
	case FPROBE_TYPE_VOID:
		return scnprintf(buf, size, "void");
	case FPROBE_TYPE_POINTER:
	case FPROBE_TYPE_OTHER:
	default:
		return scnprintf(buf, size, "%#" PRIx64, val);
	}
}

/* The kernel's MAX_ERRNO, as the fprobe PMU's errors filter takes it */
#define FPROBE_MAX_ERRNO	4095

static bool is_errno(s64 val)
{
	return val < 0 && val >= -FPROBE_MAX_ERRNO;
}

bool fprobe_type__is_error(const struct fprobe_type *type, u64 val)
{
	if (!type)
		return is_errno((s32)val);
	switch (type->kind) {
	case FPROBE_TYPE_SIGNED:
	case FPROBE_TYPE_ENUM:
		return is_errno(sign_extend(val, type->size));
	case FPROBE_TYPE_POINTER:
		return is_errno((s64)val);
	case FPROBE_TYPE_UNSIGNED:
		/* an unsigned long error code, as do_mmap() returns */
		return type->size == 8 && is_errno((s64)val);
	case FPROBE_TYPE_VOID:
	case FPROBE_TYPE_BOOL:
	case FPROBE_TYPE_OTHER:
	default:
		return false;
	}
}
