// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe-btf.c: the parameters and return type of a kernel function, read
 * from BTF through libbpf, for perf fprobe on a kernel whose vmlinux has no
 * DWARF at hand (most distribution kernels ship /sys/kernel/btf/vmlinux
 * and no debug info).
 *
 * BTF tells the prototype, not where each parameter is: the parameters are
 * placed in the argument registers by the calling convention of the
 * machine perf runs on (fprobe_abi__place()). That holds for a function
 * the compiler kept as written; its clones (name.isra.0 and the like) have
 * a convention of the compiler's own and are not looked up. A struct
 * passed by value is placed but not captured (it is in two registers, on
 * the stack or passed by reference), which is said.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "fprobe-btf.h"

#ifdef HAVE_LIBBPF_SUPPORT
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "hashmap.h"

#define FPROBE_BTF_SYSFS	"/sys/kernel/btf/vmlinux"

/* The machine perf runs on, whose calling convention places parameters */
#if defined(__x86_64__)
#define FPROBE_BTF_MACHINE	EM_X86_64
#elif defined(__aarch64__)
#define FPROBE_BTF_MACHINE	EM_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define FPROBE_BTF_MACHINE	EM_RISCV
#else
#define FPROBE_BTF_MACHINE	EM_NONE
#endif

struct fprobe_btf {
	struct fprobe_reader reader;
	struct btf	*btf;
	unsigned int	machine;	/* whose calling convention applies */
	struct btf_dump	*dump;
	struct hashmap	*funcs;		/* name -> BTF_KIND_FUNC id, -1: several */
	char		*decl;		/* the type name btf_dump is writing */
	size_t		decl_len;
	size_t		decl_alloc;
	int		decl_err;
};

static size_t fb_name_hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

static bool fb_name_equal(long a, long b, void *ctx __maybe_unused)
{
	return !strcmp((const char *)a, (const char *)b);
}

static void fb_printf(void *ctx, const char *fmt, va_list ap)
{
	struct fprobe_btf *fb = ctx;
	va_list aq;
	int len;

	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len < 0) {
		fb->decl_err = -EINVAL;
		return;
	}
	if (fb->decl_len + len + 1 > fb->decl_alloc) {
		size_t alloc = max(fb->decl_alloc * 2, fb->decl_len + len + 1);
		char *decl = realloc(fb->decl, alloc);

		if (!decl) {
			fb->decl_err = -ENOMEM;
			return;
		}
		fb->decl = decl;
		fb->decl_alloc = alloc;
	}
	vsnprintf(fb->decl + fb->decl_len, len + 1, fmt, ap);
	fb->decl_len += len;
}

/*
 * An index of the functions by name: libbpf's lookup walks every type. A
 * name had by functions of different prototypes (static functions of
 * several files, a weak stub and the real one) maps to -1: BTF does not
 * tell which one is at the address traced.
 */
static int fprobe_btf__index(struct fprobe_btf *fb)
{
	u32 id, nr = btf__type_cnt(fb->btf);

	fb->funcs = hashmap__new(fb_name_hash, fb_name_equal, NULL);
	if (IS_ERR(fb->funcs)) {
		fb->funcs = NULL;
		return -ENOMEM;
	}
	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(fb->btf, id);
		const char *name;
		int err;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(fb->btf, t->name_off);
		if (!name || !*name)
			continue;
		err = hashmap__add(fb->funcs, name, id);
		if (err == -EEXIST) {
			long other;

			hashmap__find(fb->funcs, name, &other);
			if (other < 0 ||
			    btf__type_by_id(fb->btf, other)->type == t->type)
				continue;
			err = hashmap__set(fb->funcs, name, -1, NULL, NULL);
		}
		if (err)
			return err;
	}
	return 0;
}

/* The machine of the vmlinux @path, or perf's own (running kernel, raw BTF) */
static unsigned int fprobe_btf__machine(const char *path)
{
	unsigned int machine = path ? fprobe_elf__machine(path) : EM_NONE;

	return machine != EM_NONE ? machine : FPROBE_BTF_MACHINE;
}

static const struct fprobe_reader_ops fprobe_btf_ops;

static struct fprobe_btf *to_fprobe_btf(struct fprobe_reader *reader)
{
	return container_of(reader, struct fprobe_btf, reader);
}

static void fprobe_btf__delete(struct fprobe_reader *reader)
{
	struct fprobe_btf *fb = to_fprobe_btf(reader);

	hashmap__free(fb->funcs);
	btf_dump__free(fb->dump);
	btf__free(fb->btf);
	free(fb->decl);
	free(fb->reader.path);
	free(fb);
}

struct fprobe_reader *fprobe_btf__new(const char *path)
{
	struct fprobe_btf *fb = zalloc(sizeof(*fb));
	int err;

	if (!fb)
		return NULL;
	fb->reader.ops = &fprobe_btf_ops;
	fb->reader.source = "BTF";
	fb->btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	err = libbpf_get_error(fb->btf);
	if (err) {
		fb->btf = NULL;
		goto out_err;
	}
	fb->machine = fprobe_btf__machine(path);
	fb->reader.path = strdup(path ?: FPROBE_BTF_SYSFS);
	if (!fb->reader.path) {
		err = -ENOMEM;
		goto out_err;
	}
	fb->dump = btf_dump__new(fb->btf, fb_printf, fb, NULL);
	err = libbpf_get_error(fb->dump);
	if (err) {
		fb->dump = NULL;
		goto out_err;
	}
	err = fprobe_btf__index(fb);
	if (err)
		goto out_err;
	return &fb->reader;

out_err:
	fprobe_btf__delete(&fb->reader);
	errno = err < 0 ? -err : err;
	return NULL;
}

/* The C name of type @id, as btf_dump declares it: "struct file *" */
static char *fprobe_btf__type_name(struct fprobe_btf *fb, u32 id)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts, .field_name = "");

	if (!id)
		return strdup("void");
	fb->decl_len = 0;
	fb->decl_err = 0;
	if (btf_dump__emit_type_decl(fb->dump, id, &opts) < 0 || fb->decl_err ||
	    !fb->decl_len)
		return strdup("(unknown_type)");
	return strndup(fb->decl, fb->decl_len);
}

static int fprobe_btf__enums(struct fprobe_type *type, const struct btf *btf,
			     const struct btf_type *t)
{
	int i, n = btf_vlen(t);
	bool is_signed = btf_kflag(t);

	type->enums = calloc(n ?: 1, sizeof(*type->enums));
	if (!type->enums)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct fprobe_enumerator *e = &type->enums[i];
		u32 name_off;

		if (btf_is_enum(t)) {
			const struct btf_enum *be = btf_enum(t) + i;

			name_off = be->name_off;
			e->value = is_signed ? (s64)be->val : (s64)(u32)be->val;
		} else {
			const struct btf_enum64 *be = btf_enum64(t) + i;

			name_off = be->name_off;
			e->value = (s64)btf_enum64_value(be);
		}
		e->name = strdup(btf__name_by_offset(btf, name_off) ?: "");
		if (!e->name)
			return -ENOMEM;
		type->nr_enums = i + 1;
	}
	return 0;
}

/* @type of BTF type @id */
static int fprobe_btf__type(struct fprobe_btf *fb, u32 id, struct fprobe_type *type)
{
	const struct btf_type *t;
	s64 size;
	int rid;

	memset(type, 0, sizeof(*type));
	type->id = id;
	type->name = fprobe_btf__type_name(fb, id);
	if (!type->name)
		return -ENOMEM;
	if (!id) {
		type->kind = FPROBE_TYPE_VOID;
		return 0;
	}

	type->kind = FPROBE_TYPE_OTHER;
	type->size = sizeof(u64);
	type->full_size = sizeof(u64);
	rid = btf__resolve_type(fb->btf, id);
	size = btf__resolve_size(fb->btf, id);
	if (rid < 0 || size < 0)
		return 0;	/* shown as hex */
	t = btf__type_by_id(fb->btf, rid);
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		type->kind = FPROBE_TYPE_POINTER;
		return 0;
	case BTF_KIND_INT:
		if (size > (s64)sizeof(u64))
			break;		/* __int128: as a struct of two words */
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			type->kind = FPROBE_TYPE_BOOL;
		else if (btf_int_encoding(t) & BTF_INT_SIGNED)
			type->kind = FPROBE_TYPE_SIGNED;
		else
			type->kind = FPROBE_TYPE_UNSIGNED;
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		type->kind = FPROBE_TYPE_ENUM;
		if (fprobe_btf__enums(type, fb->btf, t) < 0)
			return -ENOMEM;
		break;
	case BTF_KIND_FLOAT:
		type->kind = FPROBE_TYPE_FLOAT;
		break;
	default:
		/* struct, union, an array typedef'ed into a parameter */
		break;
	}
	type->full_size = size;
	if (size > 0 && size <= (s64)sizeof(u64))
		type->size = size;
	return 0;
}

/* @id seen through its typedefs and qualifiers, NULL for void */
static const struct btf_type *fprobe_btf__real(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t)))
		t = t->type ? btf__type_by_id(btf, t->type) : NULL;
	return t && btf_kind(t) != BTF_KIND_UNKN ? t : NULL;
}

static int fprobe_btf__tnode(struct fprobe_reader *reader, u64 id, struct fprobe_tnode *tn)
{
	struct fprobe_btf *fb = to_fprobe_btf(reader);
	const struct btf_type *t, *tt;
	u32 target;

	memset(tn, 0, sizeof(*tn));
	t = id ? fprobe_btf__real(fb->btf, id) : NULL;
	if (!t)
		return id ? -ENOENT : 0;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		tn->kind = FPROBE_TNODE_POINTER;
		tn->size = sizeof(u64);
		target = t->type;
		break;
	case BTF_KIND_ARRAY:
		tn->kind = FPROBE_TNODE_ARRAY;
		tn->size = -1;
		tn->nr_elems = btf_array(t)->nelems;
		target = btf_array(t)->type;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		tn->kind = FPROBE_TNODE_STRUCT;
		tn->size = t->size;
		return 0;
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		tn->kind = FPROBE_TNODE_SCALAR;
		tn->size = t->size;
		return 0;
	default:
		tn->kind = FPROBE_TNODE_OTHER;
		return 0;
	}
	tn->target = target;
	tn->target_size = -1;
	tt = target ? fprobe_btf__real(fb->btf, target) : NULL;
	if (tt) {
		s64 size = btf__resolve_size(fb->btf, target);

		tn->target_size = size < 0 ? -1 : size;
		tn->is_char = btf_is_int(tt) && size == 1;
	}
	return 0;
}

static int fprobe_btf__type_of(struct fprobe_reader *reader, u64 id, struct fprobe_type *type)
{
	return fprobe_btf__type(to_fprobe_btf(reader), id, type);
}

/*
 * @fn on each member of the struct or union @t, at byte offset @base, the
 * members of its anonymous struct and union members as its own; a non-zero
 * return stops the walk and is returned
 */
static int fprobe_btf__walk_members(struct fprobe_btf *fb, const struct btf_type *t, u64 base,
				    int (*fn)(struct fprobe_btf *fb, const char *name, u64 offset,
					      const struct btf_member *m, bool bitfield,
					      void *arg),
				    void *arg, int level)
{
	const struct btf_member *m = btf_members(t);
	int i, ret;

	if (level > 8)
		return 0;
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(fb->btf, m->name_off);
		u32 bits = btf_member_bit_offset(t, i);
		bool bitfield = btf_member_bitfield_size(t, i) || bits % 8;
		u64 offset = base + bits / 8;

		if (!name || !*name) {
			const struct btf_type *mt = fprobe_btf__real(fb->btf, m->type);

			if (mt && btf_is_composite(mt)) {
				ret = fprobe_btf__walk_members(fb, mt, offset, fn, arg,
							       level + 1);
				if (ret)
					return ret;
			}
			continue;
		}
		ret = fn(fb, name, offset, m, bitfield, arg);
		if (ret)
			return ret;
	}
	return 0;
}

struct fprobe_btf_find {
	const char		*name;
	u64			offset;
	u32			type;
	bool			bitfield;
};

static int fprobe_btf__find_cb(struct fprobe_btf *fb __maybe_unused, const char *name,
			       u64 offset, const struct btf_member *m, bool bitfield,
			       void *arg)
{
	struct fprobe_btf_find *bf = arg;

	if (strcmp(name, bf->name))
		return 0;
	bf->offset = offset;
	bf->type = m->type;
	bf->bitfield = bitfield;
	return 1;
}

static int fprobe_btf__member(struct fprobe_reader *reader, u64 id, const char *name,
			      u64 *offset, struct fprobe_type *type)
{
	struct fprobe_btf *fb = to_fprobe_btf(reader);
	const struct btf_type *t = id ? fprobe_btf__real(fb->btf, id) : NULL;
	struct fprobe_btf_find bf = { .name = name };

	if (!t || !btf_is_composite(t) ||
	    fprobe_btf__walk_members(fb, t, 0, fprobe_btf__find_cb, &bf, 0) != 1)
		return -ENOENT;
	if (bf.bitfield)
		return -EOPNOTSUPP;
	*offset = bf.offset;
	return fprobe_btf__type(fb, bf.type, type);
}

struct fprobe_btf_list {
	int	(*fn)(const char *name, u64 offset, const struct fprobe_type *type, void *arg);
	void	*arg;
};

static int fprobe_btf__list_cb(struct fprobe_btf *fb, const char *name, u64 offset,
			       const struct btf_member *m, bool bitfield __maybe_unused,
			       void *arg)
{
	struct fprobe_btf_list *bl = arg;
	struct fprobe_type type;
	int ret;

	if (fprobe_btf__type(fb, m->type, &type) < 0)
		return -ENOMEM;
	ret = bl->fn(name, offset, &type, bl->arg);
	fprobe_type__exit(&type);
	return ret;
}

static int fprobe_btf__members(struct fprobe_reader *reader, u64 id,
			       fprobe_member_fn fn, void *arg)
{
	struct fprobe_btf *fb = to_fprobe_btf(reader);
	const struct btf_type *t = id ? fprobe_btf__real(fb->btf, id) : NULL;
	struct fprobe_btf_list bl = { .fn = fn, .arg = arg };

	if (!t || !btf_is_composite(t))
		return -ENOENT;
	return fprobe_btf__walk_members(fb, t, 0, fprobe_btf__list_cb, &bl, 0);
}

static struct fprobe_func *fprobe_btf__find_func(struct fprobe_reader *reader, const char *name)
{
	struct fprobe_btf *fb = to_fprobe_btf(reader);
	const struct btf_type *t, *proto;
	const struct btf_param *bp;
	struct fprobe_func *func;
	long id;
	int i, n, next;

	if (strchr(name, '.') || !hashmap__find(fb->funcs, name, &id)) {
		errno = ENOENT;
		return NULL;
	}
	if (id < 0) {
		errno = ENOTUNIQ;
		return NULL;
	}
	t = btf__type_by_id(fb->btf, id);
	proto = btf__type_by_id(fb->btf, t->type);
	if (!proto || !btf_is_func_proto(proto)) {
		errno = ENOENT;
		return NULL;
	}

	func = zalloc(sizeof(*func));
	if (!func)
		return NULL;
	func->name = strdup(name);
	func->source = "BTF";
	if (!func->name ||
	    fprobe_btf__type(fb, proto->type, &func->ret) < 0)
		goto out_nomem;

	next = fprobe_abi__first_arg(fb->machine, &func->ret);
	n = btf_vlen(proto);
	bp = btf_params(proto);
	/* a variadic function's last parameter is "...", type 0 */
	if (n && !bp[n - 1].type && !bp[n - 1].name_off)
		n--;
	func->params = calloc(n ?: 1, sizeof(*func->params));
	if (!func->params)
		goto out_nomem;
	for (i = 0; i < n; i++) {
		struct fprobe_param *p = &func->params[i];
		const char *pname = btf__name_by_offset(fb->btf, bp[i].name_off);
		char anon[16];

		if (!pname || !*pname) {
			snprintf(anon, sizeof(anon), "arg%d", i + 1);
			pname = anon;
		}
		func->nr_params = i + 1;
		p->name = strdup(pname);
		if (!p->name ||
		    fprobe_btf__type(fb, bp[i].type, &p->type) < 0)
			goto out_nomem;
		p->arg = fprobe_abi__place(fb->machine, &p->type, &next, &p->no_arg);
		p->loc_arg = -1;
	}
	return func;

out_nomem:
	fprobe_func__delete(func);
	errno = ENOMEM;
	return NULL;
}

int fprobe_btf__walk_funcs(struct fprobe_reader *btf,
			   int (*fn)(const char *name, void *arg), void *arg)
{
	struct fprobe_btf *fb = to_fprobe_btf(btf);
	struct hashmap_entry *cur;
	size_t bkt;
	int ret;

	if (btf->ops != &fprobe_btf_ops)
		return -EINVAL;
	hashmap__for_each_entry(fb->funcs, cur, bkt) {
		if (cur->value < 0)
			continue;
		ret = fn(cur->pkey, arg);
		if (ret)
			return ret;
	}
	return 0;
}

static const struct fprobe_reader_ops fprobe_btf_ops = {
	.delete		= fprobe_btf__delete,
	.find_func	= fprobe_btf__find_func,
	.tnode		= fprobe_btf__tnode,
	.type		= fprobe_btf__type_of,
	.member		= fprobe_btf__member,
	.members	= fprobe_btf__members,
};

#else /* HAVE_LIBBPF_SUPPORT */

struct fprobe_reader *fprobe_btf__new(const char *path __maybe_unused)
{
	errno = ENOTSUP;
	return NULL;
}

int fprobe_btf__walk_funcs(struct fprobe_reader *btf __maybe_unused,
			   int (*fn)(const char *name, void *arg) __maybe_unused,
			   void *arg __maybe_unused)
{
	return -ENOTSUP;
}

#endif /* HAVE_LIBBPF_SUPPORT */
