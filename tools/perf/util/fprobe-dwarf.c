// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe-dwarf.c: the parameters and return type of a kernel function, read
 * from the DWARF of vmlinux with the helpers perf probe uses (debuginfo,
 * dwarf-aux), for perf fprobe.
 *
 * A traced function is found by its symbol in vmlinux, its subprogram DIE
 * by address (as debuginfo__find_probe_point() does), and its formal
 * parameters are the children of that DIE, in order.
 *
 * fprobe reads them at the ftrace call site, the first instruction, before
 * the prologue: there every parameter is where the caller put it, by the
 * calling convention (fprobe_abi__place()), and that is where they are
 * taken from. The DW_AT_location of a parameter describes the body: gcc
 * gives a frame slot or the register the prologue moves the value into
 * for the whole function (ip_rt_update_pmtu()'s dst "in %rbp"), so it
 * would be wrong at the entry. Only for a clone the compiler made
 * (name.isra.0, .constprop.0, .part.0), whose convention is its own, is
 * the location evaluated at the entry, as probe-finder does at a probe
 * point: a parameter is captured when it is whole in an argument register
 * there.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "debuginfo.h"
#include "strbuf.h"
#include "strlist.h"
#include "symbol.h"
#include "fprobe-dwarf.h"

#ifdef HAVE_DWARF_SUPPORT
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include "dwarf-aux.h"
#include "hashmap.h"
#endif

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

#ifdef HAVE_DWARF_SUPPORT
struct fprobe_dwarf {
	struct fprobe_reader	reader;
	struct debuginfo	*dinfo;
	unsigned int		machine;	/* ELF e_machine of vmlinux */
	struct hashmap		*syms;		/* function name -> address */
};

static unsigned int fprobe_dwarf__machine(struct debuginfo *dinfo)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(dinfo->mod, &bias);
	GElf_Ehdr ehdr;

	if (!elf || !gelf_getehdr(elf, &ehdr))
		return EM_NONE;
	return ehdr.e_machine;
}

static const struct fprobe_reader_ops fprobe_dwarf_ops;

static struct fprobe_dwarf *to_fprobe_dwarf(struct fprobe_reader *reader)
{
	return container_of(reader, struct fprobe_dwarf, reader);
}

static void fprobe_dwarf__delete(struct fprobe_reader *reader)
{
	struct fprobe_dwarf *fd = to_fprobe_dwarf(reader);

	hashmap__free(fd->syms);
	debuginfo__delete(fd->dinfo);
	free(fd->reader.path);
	free(fd);
}

struct fprobe_reader *fprobe_dwarf__new(const char *vmlinux)
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
	fd->reader.ops = &fprobe_dwarf_ops;
	fd->reader.source = "DWARF";
	fd->reader.path = strdup(vmlinux);
	fd->dinfo = debuginfo__new(vmlinux);
	if (!fd->reader.path || !fd->dinfo) {
		fprobe_dwarf__delete(&fd->reader);
		errno = ENODATA;
		return NULL;
	}
	fd->machine = fprobe_dwarf__machine(fd->dinfo);
	return &fd->reader;
}

static size_t fd_name_hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

static bool fd_name_equal(long a, long b, void *ctx __maybe_unused)
{
	return !strcmp((const char *)a, (const char *)b);
}

/*
 * The function symbols of vmlinux by name, read once: a glob matching
 * thousands of functions looks each one up. A name had by functions at
 * several addresses (static functions of several files) maps to 0: ftrace
 * probes them all by that name, and they need not have one prototype.
 */
static int fprobe_dwarf__index_syms(struct fprobe_dwarf *fd)
{
	Dwfl_Module *mod = fd->dinfo->mod;
	int i, err, n = dwfl_module_getsymtab(mod);

	fd->syms = hashmap__new(fd_name_hash, fd_name_equal, NULL);
	if (IS_ERR(fd->syms)) {
		fd->syms = NULL;
		return -ENOMEM;
	}
	for (i = 1; i < n; i++) {
		const char *sname;
		GElf_Sym sym;
		GElf_Addr saddr;

		sname = dwfl_module_getsym_info(mod, i, &sym, &saddr,
						NULL, NULL, NULL);
		/* a hashmap value is a long: a 32-bit perf skips wider ones */
		if (!sname || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || saddr != (unsigned long)saddr)
			continue;
		/* the symbol table's strings live as long as the module */
		err = hashmap__add(fd->syms, sname, saddr);
		if (err == -EEXIST) {
			unsigned long other;

			hashmap__find(fd->syms, sname, &other);
			if (other == saddr)
				continue;
			err = hashmap__set(fd->syms, sname, 0, NULL, NULL);
		}
		if (err)
			return err;
	}
	return 0;
}

/* The address of the function symbol @name in the symbol table */
static int fprobe_dwarf__symbol_addr(struct fprobe_dwarf *fd, const char *name,
				     Dwarf_Addr *addr)
{
	unsigned long saddr;
	int err;

	if (!fd->syms) {
		err = fprobe_dwarf__index_syms(fd);
		if (err) {
			hashmap__free(fd->syms);
			fd->syms = NULL;
			return err;
		}
	}
	if (!hashmap__find(fd->syms, name, &saddr))
		return -ENOENT;
	if (!saddr)
		return -ENOTUNIQ;
	*addr = saddr;
	return 0;
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

/* @die, a type, seen through its typedefs and qualifiers */
static Dwarf_Die *fprobe_dwarf__real_type(Dwarf_Die *die, Dwarf_Die *mem)
{
	*mem = *die;
	for (;;) {
		switch (dwarf_tag(mem)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (!die_get_type(mem, mem))
				return NULL;	/* a typedef of void */
			break;
		default:
			return mem;
		}
	}
}

/* The type @tdie, NULL for void */
static int fprobe_type__init_type(struct fprobe_type *type, Dwarf_Die *tdie)
{
	Dwarf_Die rdie;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	struct strbuf sb;
	int size;

	memset(type, 0, sizeof(*type));
	if (!tdie) {
		type->kind = FPROBE_TYPE_VOID;
		type->name = strdup("void");
		return type->name ? 0 : -ENOMEM;
	}
	type->id = dwarf_dieoffset(tdie);

	if (strbuf_init(&sb, 32) < 0)
		return -ENOMEM;
	if (die_get_typename_from_type(tdie, &sb) < 0 || sb.len == 0) {
		strbuf_release(&sb);
		type->name = strdup("(unknown_type)");
	} else {
		type->name = strbuf_detach(&sb, NULL);
	}
	if (!type->name)
		return -ENOMEM;

	type->kind = FPROBE_TYPE_OTHER;
	type->size = sizeof(u64);
	type->full_size = sizeof(u64);
	if (!fprobe_dwarf__real_type(tdie, &rdie))
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
		else if (enc == DW_ATE_float || enc == DW_ATE_complex_float)
			type->kind = FPROBE_TYPE_FLOAT;
		break;
	default:
		break;
	}
	size = dwarf_bytesize(&rdie);
	if (size > 0)
		type->full_size = size;
	if (size > 0 && size <= (int)sizeof(u64))
		type->size = size;
	return 0;
}

/* The type of @die (a parameter, or a subprogram for its return type) */
static int fprobe_type__init(struct fprobe_type *type, Dwarf_Die *die)
{
	Dwarf_Die tdie;

	return fprobe_type__init_type(type, die_get_type(die, &tdie));
}

/* The type DIE of @id, a fprobe_type's, in @fd */
static Dwarf_Die *fprobe_dwarf__type_die(struct fprobe_dwarf *fd, u64 id, Dwarf_Die *mem)
{
	if (!id || !dwarf_offdie(fd->dinfo->dbg, id, mem))
		return NULL;
	return mem;
}

static int fprobe_dwarf__tnode(struct fprobe_reader *reader, u64 id, struct fprobe_tnode *tn)
{
	struct fprobe_dwarf *fd = to_fprobe_dwarf(reader);
	Dwarf_Die die, rdie, tdie;
	Dwarf_Word count;
	Dwarf_Attribute attr;

	memset(tn, 0, sizeof(*tn));
	if (!fprobe_dwarf__type_die(fd, id, &die))
		return -ENOENT;
	if (!fprobe_dwarf__real_type(&die, &rdie)) {
		tn->kind = FPROBE_TNODE_OTHER;
		return 0;
	}
	tn->size = dwarf_bytesize(&rdie);
	switch (dwarf_tag(&rdie)) {
	case DW_TAG_pointer_type:
		tn->kind = FPROBE_TNODE_POINTER;
		tn->size = sizeof(u64);
		break;
	case DW_TAG_array_type:
		tn->kind = FPROBE_TNODE_ARRAY;
		tn->size = -1;
		/* the bound of its dimension, if it has one */
		if (dwarf_child(&rdie, &tdie) == 0 &&
		    dwarf_tag(&tdie) == DW_TAG_subrange_type) {
			if (dwarf_attr(&tdie, DW_AT_count, &attr) &&
			    !dwarf_formudata(&attr, &count))
				tn->nr_elems = count;
			else if (dwarf_attr(&tdie, DW_AT_upper_bound, &attr) &&
				 !dwarf_formudata(&attr, &count))
				tn->nr_elems = count + 1;
			/* an element of [N][M] is no type of the DWARF's: not indexed */
			if (dwarf_siblingof(&tdie, &tdie) == 0 &&
			    dwarf_tag(&tdie) == DW_TAG_subrange_type) {
				tn->kind = FPROBE_TNODE_OTHER;
				return 0;
			}
		}
		break;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
		tn->kind = FPROBE_TNODE_STRUCT;
		return 0;
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		tn->kind = FPROBE_TNODE_SCALAR;
		return 0;
	default:
		tn->kind = FPROBE_TNODE_OTHER;
		return 0;
	}
	/* a pointer's or an array's target */
	tn->target_size = -1;
	if (die_get_type(&rdie, &tdie)) {
		tn->target = dwarf_dieoffset(&tdie);
		if (fprobe_dwarf__real_type(&tdie, &die)) {
			tn->target_size = dwarf_bytesize(&die);
			/* clang gives a pointer type no size: the kernel's are 8 */
			if (tn->target_size <= 0 && dwarf_tag(&die) == DW_TAG_pointer_type)
				tn->target_size = sizeof(u64);
			tn->is_char = dwarf_tag(&die) == DW_TAG_base_type &&
				      tn->target_size == 1;
		}
	}
	return 0;
}

static int fprobe_dwarf__type(struct fprobe_reader *reader, u64 id, struct fprobe_type *type)
{
	struct fprobe_dwarf *fd = to_fprobe_dwarf(reader);
	Dwarf_Die die;

	return fprobe_type__init_type(type, fprobe_dwarf__type_die(fd, id, &die));
}

struct fprobe_member_walk {
	int	(*fn)(const char *name, u64 offset, Dwarf_Die *mdie, void *arg);
	void	*arg;
};

/*
 * @fn on each member of the struct or union @sdie, at offset @base, the
 * members of its anonymous struct and union members as its own; a non-zero
 * return stops the walk and is returned
 */
static int fprobe_dwarf__walk_members(Dwarf_Die *sdie, u64 base,
				      struct fprobe_member_walk *w, int level)
{
	Dwarf_Die child, tdie, rdie;
	Dwarf_Word offs;
	int ret;

	if (level > 8 || dwarf_child(sdie, &child) != 0)
		return 0;
	do {
		const char *name;

		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		offs = 0;
		/* a union's members have no location: 0 */
		die_get_data_member_location(&child, &offs);
		name = dwarf_diename(&child);
		if (!name) {
			if (die_get_type(&child, &tdie) &&
			    fprobe_dwarf__real_type(&tdie, &rdie)) {
				ret = fprobe_dwarf__walk_members(&rdie, base + offs, w,
								 level + 1);
				if (ret)
					return ret;
			}
			continue;
		}
		ret = w->fn(name, base + offs, &child, w->arg);
		if (ret)
			return ret;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

struct fprobe_member_find {
	const char		*name;
	u64			offset;
	Dwarf_Die		die;
};

static int fprobe_member__find_cb(const char *name, u64 offset, Dwarf_Die *mdie, void *arg)
{
	struct fprobe_member_find *mf = arg;

	if (strcmp(name, mf->name))
		return 0;
	mf->offset = offset;
	mf->die = *mdie;
	return 1;
}

static int fprobe_dwarf__member(struct fprobe_reader *reader, u64 id, const char *name,
				u64 *offset, struct fprobe_type *type)
{
	struct fprobe_dwarf *fd = to_fprobe_dwarf(reader);
	struct fprobe_member_find mf = { .name = name };
	struct fprobe_member_walk w = { .fn = fprobe_member__find_cb, .arg = &mf };
	Dwarf_Attribute attr;
	Dwarf_Die die, rdie;

	if (!fprobe_dwarf__type_die(fd, id, &die) || !fprobe_dwarf__real_type(&die, &rdie))
		return -ENOENT;
	if (fprobe_dwarf__walk_members(&rdie, 0, &w, 0) != 1)
		return -ENOENT;
	if (dwarf_attr(&mf.die, DW_AT_bit_size, &attr))
		return -EOPNOTSUPP;
	*offset = mf.offset;
	return fprobe_type__init(type, &mf.die);
}

struct fprobe_member_list {
	int	(*fn)(const char *name, u64 offset, const struct fprobe_type *type, void *arg);
	void	*arg;
};

static int fprobe_member__list_cb(const char *name, u64 offset, Dwarf_Die *mdie, void *arg)
{
	struct fprobe_member_list *ml = arg;
	struct fprobe_type type;
	int ret;

	if (fprobe_type__init(&type, mdie) < 0)
		return -ENOMEM;
	ret = ml->fn(name, offset, &type, ml->arg);
	fprobe_type__exit(&type);
	return ret;
}

static int fprobe_dwarf__members(struct fprobe_reader *reader, u64 id,
				 fprobe_member_fn fn, void *arg)
{
	struct fprobe_dwarf *fd = to_fprobe_dwarf(reader);
	struct fprobe_member_list ml = { .fn = fn, .arg = arg };
	struct fprobe_member_walk w = { .fn = fprobe_member__list_cb, .arg = &ml };
	Dwarf_Die die, rdie;

	if (!fprobe_dwarf__type_die(fd, id, &die) || !fprobe_dwarf__real_type(&die, &rdie))
		return -ENOENT;
	return fprobe_dwarf__walk_members(&rdie, 0, &w, 0);
}

/*
 * The argument number of DWARF register @regno on @machine: 0 for the
 * register of the first integer argument, -1 for one that holds none.
 */
static int fprobe_dwarf__arg_of_reg(unsigned int machine, unsigned int regno)
{
	/* %di, %si, %dx, %cx, %r8, %r9 */
	static const unsigned int x86_64[] = { 5, 4, 1, 2, 8, 9 };
	size_t i;

	switch (machine) {
	case EM_X86_64:
		for (i = 0; i < ARRAY_SIZE(x86_64); i++) {
			if (x86_64[i] == regno)
				return i;
		}
		return -1;
	case EM_AARCH64:	/* x0 - x7 */
		return regno <= 7 ? (int)regno : -1;
	case EM_RISCV:		/* a0 - a7 are x10 - x17 */
		return regno >= 10 && regno <= 17 ? (int)regno - 10 : -1;
	default:
		return -1;
	}
}

/*
 * The ftrace call site of a function: its first instructions (a call to
 * __fentry__, after an endbr64 with IBT; a few words on arm64 and RISC-V),
 * where the parameters are still in the argument registers.
 */
#define FPROBE_ENTRY_SITE	16

/*
 * The location expression of the parameter whose DW_AT_location is @attr
 * at the entry @entry: the one given at the lowest address of the ftrace
 * call site or covering it. The compiler may start the list after the
 * call to __fentry__, or give the register only by an empty range at the
 * entry: both still say where the value is passed.
 */
static int fprobe_param__entry_location(Dwarf_Attribute *attr, Dwarf_Addr entry,
					Dwarf_Op **expr, size_t *nexpr, bool *listed)
{
	Dwarf_Addr base, start, end, best = 0;
	Dwarf_Op *op;
	ptrdiff_t off = 0;
	size_t nop;
	bool found = false;

	while ((off = dwarf_getlocations(attr, off, &base, &start, &end, &op, &nop)) > 0) {
		if (start > entry + FPROBE_ENTRY_SITE || (end <= entry && start != entry))
			continue;
		if (!found || max(start, entry) < best) {
			/* a range of a list, not one location for the whole function */
			*listed = start >= entry && end != (Dwarf_Addr)-1;
			found = true;
			best = max(start, entry);
			*expr = op;
			*nexpr = nop;
		}
	}
	return found && *nexpr ? 0 : -ENOENT;
}

/*
 * Where the parameter @die of a clone is at the entry address @entry: its
 * argument register in param->arg, or -1 and why not in param->no_arg; in
 * param->loc_arg too when a location list says so (of any function).
 */
static void fprobe_param__locate(struct fprobe_param *param, Dwarf_Die *die,
				 Dwarf_Addr entry, unsigned int machine)
{
	Dwarf_Attribute attr;
	Dwarf_Op *expr = NULL;
	size_t nexpr = 0;
	unsigned int atom, regno;
	bool listed = false;

	param->arg = -1;
	param->loc_arg = -1;
	if (!dwarf_attr(die, DW_AT_location, &attr)) {
		param->no_arg = "optimized out of this compiler-made clone";
		return;
	}
	if (fprobe_param__entry_location(&attr, entry, &expr, &nexpr, &listed) < 0) {
		param->no_arg = "not available at the entry of this compiler-made clone";
		return;
	}
	atom = expr[0].atom;
	if (atom >= DW_OP_reg0 && atom <= DW_OP_reg31) {
		regno = atom - DW_OP_reg0;
	} else if (atom == DW_OP_regx) {
		regno = expr[0].number;
	} else {
		param->no_arg = "in no register at the entry of this compiler-made clone";
		return;
	}
	if (nexpr > 1) {
		param->no_arg = "in pieces in several registers (a struct by value)";
		return;
	}
	param->arg = fprobe_dwarf__arg_of_reg(machine, regno);
	if (param->arg < 0)
		param->no_arg = "in no argument register at the entry of this compiler-made clone";
	else if (listed)
		param->loc_arg = param->arg;
}

static int fprobe_func__add_param(struct fprobe_func *func, Dwarf_Die *die,
				  unsigned int machine, bool clone, int *next)
{
	struct fprobe_param *params, *param;
	const char *name = dwarf_diename(die);
	char anon[16];

	params = realloc(func->params, (func->nr_params + 1) * sizeof(*params));
	if (!params)
		return -ENOMEM;
	func->params = params;
	param = &params[func->nr_params];
	memset(param, 0, sizeof(*param));
	if (!name) {
		snprintf(anon, sizeof(anon), "arg%d", func->nr_params + 1);
		name = anon;
	}
	param->name = strdup(name);
	if (!param->name || fprobe_type__init(&param->type, die) < 0) {
		free(param->name);
		return -ENOMEM;
	}
	fprobe_param__locate(param, die, func->addr, machine);
	if (!clone)
		param->arg = fprobe_abi__place(machine, &param->type, next,
					       &param->no_arg);
	func->nr_params++;
	return 0;
}

static struct fprobe_func *fprobe_dwarf__find_func(struct fprobe_reader *reader,
						   const char *name)
{
	struct fprobe_dwarf *fd = to_fprobe_dwarf(reader);
	Dwarf_Die cu_die, sp_die, child;
	Dwarf_Attribute attr;
	Dwarf_Word cc = DW_CC_normal;
	Dwarf_Addr addr = 0;
	struct fprobe_func *func;
	int err, next;
	bool clone;

	err = fprobe_dwarf__symbol_addr(fd, name, &addr);
	if (err < 0) {
		errno = -err;
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
	func->source = "DWARF";
	if (!func->name || fprobe_type__init(&func->ret, &sp_die) < 0)
		goto out_nomem;

	/*
	 * A clone gcc made has a suffix; a function whose signature clang
	 * rewrote keeps its name and is DW_CC_nocall (pahole leaves it out
	 * of BTF for that).
	 */
	if (dwarf_attr(&sp_die, DW_AT_calling_convention, &attr))
		dwarf_formudata(&attr, &cc);
	clone = strchr(name, '.') || cc == DW_CC_nocall;
	next = fprobe_abi__first_arg(fd->machine, &func->ret);

	if (dwarf_child(&sp_die, &child) == 0) {
		do {
			if (dwarf_tag(&child) != DW_TAG_formal_parameter)
				continue;
			if (fprobe_func__add_param(func, &child, fd->machine, clone,
						   &next) < 0)
				goto out_nomem;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	return func;

out_nomem:
	fprobe_func__delete(func);
	errno = ENOMEM;
	return NULL;
}

/*
 * A function inlined everywhere has no symbol, but its abstract instance,
 * the DIE its inlined copies refer to, is a subprogram at the top of the
 * compile units that inline it, with DW_AT_inline. The top of each unit
 * is walked (not the bodies), until every name is found.
 */
int fprobe_dwarf__find_inlined(struct fprobe_reader *dwarf, struct strlist *names,
			       struct strlist *inlined)
{
	struct fprobe_dwarf *fd = to_fprobe_dwarf(dwarf);
	unsigned int left = strlist__nr_entries(names);
	Dwarf_Off off = 0, next;
	size_t hdr_size;

	if (dwarf->ops != &fprobe_dwarf_ops)
		return -EINVAL;
	while (left && !dwarf_nextcu(fd->dinfo->dbg, off, &next, &hdr_size,
				     NULL, NULL, NULL)) {
		Dwarf_Die cu_die, die;

		if (!dwarf_offdie(fd->dinfo->dbg, off + hdr_size, &cu_die) ||
		    dwarf_child(&cu_die, &die) != 0) {
			off = next;
			continue;
		}
		do {
			const char *name;

			if (dwarf_tag(&die) != DW_TAG_subprogram || !dwarf_func_inline(&die))
				continue;
			name = dwarf_diename(&die);
			if (!name || !strlist__has_entry(names, name) ||
			    strlist__has_entry(inlined, name))
				continue;
			if (strlist__add(inlined, name) < 0)
				return -ENOMEM;
			left--;
		} while (left && dwarf_siblingof(&die, &die) == 0);
		off = next;
	}
	return 0;
}

static const struct fprobe_reader_ops fprobe_dwarf_ops = {
	.delete		= fprobe_dwarf__delete,
	.find_func	= fprobe_dwarf__find_func,
	.tnode		= fprobe_dwarf__tnode,
	.type		= fprobe_dwarf__type,
	.member		= fprobe_dwarf__member,
	.members	= fprobe_dwarf__members,
};

#else /* HAVE_DWARF_SUPPORT */

struct fprobe_reader *fprobe_dwarf__new(const char *vmlinux __maybe_unused)
{
	errno = ENOTSUP;
	return NULL;
}

int fprobe_dwarf__find_inlined(struct fprobe_reader *dwarf __maybe_unused,
			       struct strlist *names __maybe_unused,
			       struct strlist *inlined __maybe_unused)
{
	return -ENOTSUP;
}

#endif /* HAVE_DWARF_SUPPORT */

void fprobe_type__exit(struct fprobe_type *type)
{
	int i;

	for (i = 0; i < type->nr_enums; i++)
		free(type->enums[i].name);
	zfree(&type->enums);
	zfree(&type->name);
}

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

unsigned int fprobe_elf__machine(const char *path)
{
	unsigned char ehdr[20];	/* e_ident, e_type, e_machine */
	unsigned int machine = EM_NONE;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return EM_NONE;
	if (fread(ehdr, sizeof(ehdr), 1, fp) == 1 && !memcmp(ehdr, ELFMAG, SELFMAG))
		machine = ehdr[EI_DATA] == ELFDATA2MSB ? ehdr[18] << 8 | ehdr[19] :
							 ehdr[19] << 8 | ehdr[18];
	fclose(fp);
	return machine;
}

int fprobe_abi__first_arg(unsigned int machine, const struct fprobe_type *ret)
{
	/* a struct returned in memory: its buffer's address comes first */
	if (ret->kind != FPROBE_TYPE_OTHER || ret->full_size <= 16)
		return 0;
	return machine == EM_X86_64 || machine == EM_RISCV;
}

int fprobe_abi__place(unsigned int machine, const struct fprobe_type *type,
		      int *next, const char **why)
{
	int nr_regs, regs = (type->full_size + sizeof(u64) - 1) / sizeof(u64);
	bool byref;

	switch (machine) {
	case EM_X86_64:
		nr_regs = 6;
		byref = false;	/* a struct of more than 16 bytes: on the stack */
		break;
	case EM_AARCH64:
	case EM_RISCV:
		nr_regs = 8;
		byref = true;	/* ... its copy's address in a register */
		break;
	default:
		*why = "placed by a calling convention perf does not know for this machine";
		return -1;
	}
	if (type->kind == FPROBE_TYPE_FLOAT) {
		*why = "in a floating point register";
		return -1;
	}
	*why = NULL;
	if (regs <= 1) {
		/* a scalar, or a small struct whole in one register */
		if (*next < nr_regs)
			return (*next)++;
		*why = "on the stack, beyond the argument registers";
		return -1;
	}
	if (regs > 2) {
		if (!byref) {
			*why = "on the stack (a struct by value)";
		} else if (*next < nr_regs) {
			(*next)++;
			*why = "passed by reference (a struct by value, its address)";
		} else {
			*why = "on the stack, beyond the argument registers";
		}
		return -1;
	}
	if (*next + regs > nr_regs) {
		*why = "on the stack (a struct by value), the argument registers used up";
		/* AAPCS64 and RISC-V take no register for what comes after */
		if (byref)
			*next = nr_regs;
		return -1;
	}
	*next += regs;
	*why = "in two registers (a struct by value)";
	return -1;
}

const struct fprobe_param *fprobe_func__param_at(const struct fprobe_func *func,
						 int arg)
{
	int i;

	for (i = 0; i < func->nr_params; i++) {
		if (func->params[i].arg == arg)
			return &func->params[i];
	}
	return NULL;
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
	case FPROBE_TYPE_FLOAT:
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
	case FPROBE_TYPE_FLOAT:
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
	case FPROBE_TYPE_FLOAT:
	default:
		return false;
	}
}
