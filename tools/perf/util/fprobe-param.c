// SPDX-License-Identifier: GPL-2.0
/*
 * The parameters of perf fprobe's probes: a probe's PARAM names are looked
 * up in the prototypes of the functions it attaches, read from the DWARF of
 * vmlinux (util/fprobe-dwarf.c) or from BTF (util/fprobe-btf.c), and each
 * is given where it is at the function's entry. util/fprobe-probe.c parses
 * the specs and expands them to functions, and calls in here once they are
 * known; -V (fprobe_probes__show_vars()) prints what is found.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/string.h>

#include "debug.h"
#include "fprobe-btf.h"
#include "fprobe-decode.h"
#include "fprobe-dwarf.h"
#include "fprobe-probe.h"
#include "hashmap.h"
#include "probe-event.h"
#include "strbuf.h"

/*
 * Where the prototypes of traced functions come from: the DWARF of vmlinux
 * (-k, or the running kernel's found where perf probe looks), else its BTF
 * (/sys/kernel/btf/vmlinux, what distribution kernels ship); with --btf,
 * BTF only (that of -k's vmlinux when given). One source for the whole run.
 */
struct fprobe_reader *fprobe_protos__dwarf(struct fprobe_protos *protos)
{
	if (!protos->dwarf_tried && !protos->use_btf) {
		protos->dwarf_tried = true;
		protos->dwarf = fprobe_dwarf__new(protos->vmlinux);
		if (!protos->dwarf)
			pr_debug("no DWARF: %s not readable\n",
				 protos->vmlinux ?: "vmlinux of the running kernel");
	}
	return protos->dwarf;
}

static struct fprobe_reader *fprobe_protos__btf(struct fprobe_protos *protos)
{
	if (!protos->btf_tried) {
		protos->btf_tried = true;
		protos->btf = fprobe_btf__new(protos->use_btf ? protos->vmlinux : NULL);
		if (!protos->btf)
			pr_debug("no BTF: %s: %s\n", protos->use_btf && protos->vmlinux ?
				 protos->vmlinux : "the running kernel's", strerror(errno));
	}
	return protos->btf;
}

/* Whether a source of prototypes can be read; said when there is none */
bool fprobe_protos__have(struct fprobe_protos *protos, const char *what)
{
	if (fprobe_protos__dwarf(protos) ||
	    ((protos->use_btf || !protos->vmlinux) && fprobe_protos__btf(protos)))
		return true;
	if (protos->use_btf)
		pr_err("%s: no BTF readable in %s\n", what,
		       protos->vmlinux ?: "the running kernel (/sys/kernel/btf/vmlinux)");
	else if (protos->vmlinux)
		pr_err("%s: failed to read the DWARF of %s\n", what, protos->vmlinux);
	else
		pr_err("%s: the running kernel has neither the DWARF of its vmlinux nor BTF at hand (use -k/--vmlinux)\n",
		       what);
	return false;
}

/* What the prototype of @func (NULL: of any) is read from, for messages */
const char *fprobe_protos__desc(struct fprobe_protos *protos,
				const struct fprobe_func *func, char *buf, size_t size)
{
	if (func && !strcmp(func->source, "BTF") && protos->btf)
		scnprintf(buf, size, "the BTF of %s", protos->btf->path);
	else if (!func && protos->dwarf && protos->btf)
		scnprintf(buf, size, "the DWARF of %s or the BTF of %s",
			  protos->dwarf->path, protos->btf->path);
	else if (protos->dwarf)
		scnprintf(buf, size, "the DWARF of %s", protos->dwarf->path);
	else if (protos->btf)
		scnprintf(buf, size, "the BTF of %s", protos->btf->path);
	else
		scnprintf(buf, size, "no DWARF or BTF");
	return buf;
}

/*
 * The prototype of @name from DWARF or BTF; NULL with errno ENOENT: unknown,
 * ENOTUNIQ: several of the name (see struct fprobe_reader_ops)
 */
struct fprobe_func *fprobe_protos__find_func(struct fprobe_protos *protos,
					     const char *name)
{
	struct fprobe_reader *dwarf = fprobe_protos__dwarf(protos);
	struct fprobe_reader *btf;
	struct fprobe_func *func;

	protos->notuniq_btf = false;
	if (dwarf) {
		func = fprobe_reader__find_func(dwarf, name);
		/*
		 * The running kernel's DWARF may lack a function its BTF has
		 * (one whose DIE is not found by address): not a -k vmlinux's.
		 */
		if (func || (errno != ENOENT && errno != ENODATA) || protos->vmlinux)
			return func;
	}
	btf = protos->use_btf || !protos->vmlinux ? fprobe_protos__btf(protos) : NULL;
	if (btf) {
		func = fprobe_reader__find_func(btf, name);
		protos->notuniq_btf = !func && errno == ENOTUNIQ;
		return func;
	}
	errno = ENOENT;
	return NULL;
}

/* Why the prototype of a function is not known, after ENOTUNIQ (@btf: BTF's) */
const char *fprobe_protos__notuniq(struct fprobe_protos *protos, bool btf,
				   char *buf, size_t size)
{
	if (!btf)
		scnprintf(buf, size,
			  "%s has several functions of that name (ftrace probes them all by it): their parameters are not told apart",
			  protos->dwarf->path);
	else
		scnprintf(buf, size,
			  "the BTF of %s has functions of that name with different prototypes, and does not say which one is traced (read the DWARF of vmlinux with -k)",
			  protos->btf ? protos->btf->path : "");
	return buf;
}

/* After fprobe_protos__find_func() failed with ENOTUNIQ */
void fprobe_protos__say_notuniq(struct fprobe_protos *protos, const char *name)
{
	char buf[PATH_MAX + 256];

	pr_err("%s: %s\n", name,
	       fprobe_protos__notuniq(protos, protos->notuniq_btf, buf, sizeof(buf)));
}

/* -V: print the prototype of @name, and where each parameter is at the entry */
static struct fprobe_reader *fprobe_protos__reader(struct fprobe_protos *protos,
						   const struct fprobe_func *func);

static int fprobe__print_member(const char *name, u64 offset, const struct fprobe_type *type,
				void *arg __maybe_unused)
{
	printf("        ->%-14s %-24s at +%" PRIu64 "\n", name, type->name, offset);
	return 0;
}

/* -V: the members of the struct @p points to, for PARAM->member */
static void fprobe_probes__show_members(struct fprobe_probes *probes,
					const struct fprobe_func *func,
					const struct fprobe_param *p)
{
	struct fprobe_reader *reader = fprobe_protos__reader(probes->protos, func);
	struct fprobe_tnode tn, st;

	if (!p->type.id || fprobe_reader__tnode(reader, p->type.id, &tn) < 0 ||
	    tn.kind != FPROBE_TNODE_POINTER || !tn.target ||
	    fprobe_reader__tnode(reader, tn.target, &st) < 0 ||
	    st.kind != FPROBE_TNODE_STRUCT)
		return;
	fprobe_reader__members(reader, tn.target, fprobe__print_member, NULL);
}

int fprobe_probes__show_vars(struct fprobe_probes *probes, const char *name)
{
	struct fprobe_func *func;
	char desc[PATH_MAX + 32];
	int i;

	if (!fprobe_protos__have(probes->protos, "-V"))
		return -1;
	func = fprobe_protos__find_func(probes->protos, name);
	if (!func && errno == ENOTUNIQ) {
		fprobe_protos__say_notuniq(probes->protos, name);
		return -1;
	}
	if (!func) {
		pr_err("no function %s in %s\n", name,
		       fprobe_protos__desc(probes->protos, NULL, desc, sizeof(desc)));
		if (fprobe_probes__load_avail(probes) == 0)
			fprobe_probes__suggest_funcs(probes, name);
		return -1;
	}

	printf("%s %s(", func->ret.name, func->name);
	for (i = 0; i < func->nr_params; i++)
		printf("%s%s %s", i ? ", " : "", func->params[i].type.name,
		       func->params[i].name);
	printf(")\n");
	printf("  from %s\n", fprobe_protos__desc(probes->protos, func, desc, sizeof(desc)));
	for (i = 0; i < func->nr_params; i++) {
		const struct fprobe_param *p = &func->params[i];
		const struct fprobe_type *t = &p->type;

		if (p->arg < 0)
			printf("  -     %-16s %-24s not captured: %s\n", p->name,
			       t->name, p->no_arg);
		else
			printf("  arg%d  %-16s %-24s %s\n", p->arg + 1, p->name,
			       t->name, fprobe_type__fetch_type(t));
		if (p->arg >= 0 && verbose > 0)
			fprobe_probes__show_members(probes, func, p);
	}
	printf("  return %-14s %-24s %s\n", "", func->ret.name,
	       func->ret.kind == FPROBE_TYPE_VOID ? "-" :
	       fprobe_type__fetch_type(&func->ret));
	fprobe_func__delete(func);
	return 0;
}

/* The reader @func was read from, for its member paths */
static struct fprobe_reader *fprobe_protos__reader(struct fprobe_protos *protos,
						   const struct fprobe_func *func)
{
	return !strcmp(func->source, "BTF") ? protos->btf : protos->dwarf;
}

/* Where a fetch argument's path has got to, in fprobe_fetch__resolve() */
struct fprobe_fetch_walk {
	struct fprobe_reader		*reader;	/* func's */
	const struct fprobe_func	*func;
	const struct fprobe_fetch	*ft;
	const struct fprobe_param	*p;
	struct fprobe_type		cur;	/* the type reached */
	const char			*what;	/* the name of what has it */
	char				*expr;
	bool				mem;	/* at expr + off in memory, else expr */
	s64				off;
};

/* The fetch of the memory at expr + off, as the new expr, at offset 0 */
static int fprobe_fetch_walk__load(struct fprobe_fetch_walk *w)
{
	char *tmp;

	if (asprintf(&tmp, "%+" PRId64 "(%s)", w->off, w->expr) < 0)
		return -ENOMEM;
	free(w->expr);
	w->expr = tmp;
	w->off = 0;
	return 0;
}

/*
 * The parameter a fetch argument starts from, into @w: Return: 0, -EINVAL
 * (said), -ENOMEM.
 */
static int fprobe_fetch_walk__start(struct fprobe_fetch_walk *w)
{
	const struct fprobe_func *func = w->func;
	const struct fprobe_fetch *ft = w->ft;
	const struct fprobe_param *p;
	int idx;

	idx = fprobe_func__param_index(func, ft->param);
	p = idx < 0 ? NULL : &func->params[idx];
	if (!p) {
		pr_err("%s has no parameter '%s' (in '%s')\n", func->name, ft->param, ft->spec);
		return -EINVAL;
	}
	/* a field of a parameter's name would be read back as that parameter */
	if (ft->fields && fprobe_func__param_index(func, ft->name) >= 0) {
		const char *eq = strchr(ft->spec, '=');

		pr_err("'%s' makes a field '%s', the name of a parameter of %s: give it another name, as in NEWNAME=%s\n",
		       ft->spec, ft->name, func->name, eq ? eq + 1 : ft->spec);
		return -EINVAL;
	}
	if (p->arg < 0 || p->arg >= FPROBE_CALL_MAX_ARGS) {
		pr_err("'%s' of %s cannot be fetched: %s\n", p->name, func->name,
		       p->arg < 0 ? p->no_arg : "only the first 6 arguments are at hand");
		return -EINVAL;
	}
	if (asprintf(&w->expr, "$arg%d", p->arg + 1) < 0) {
		w->expr = NULL;
		return -ENOMEM;
	}
	w->p = p;
	w->what = p->name;
	w->cur.id = p->type.id;
	if (!w->cur.id && p->type.kind != FPROBE_TYPE_VOID) {
		pr_err("'%s' of %s has no type in %s: no member path from it\n", p->name,
		       func->name, func->source);
		return -EINVAL;
	}
	return 0;
}

/*
 * Whether @field can be taken of what @w has reached, a node @tn; loads a
 * pointer it goes through. Return: 0, -EINVAL (said), -ENOMEM.
 */
static int fprobe_fetch_walk__check(struct fprobe_fetch_walk *w,
				    const struct perf_probe_arg_field *field,
				    const struct fprobe_tnode *tn)
{
	const struct fprobe_fetch *ft = w->ft;
	bool index = field->name[0] == '[';

	if (field->ref && tn->kind == FPROBE_TNODE_POINTER) {
		/* load the pointer, if it is in memory */
		if (w->mem && fprobe_fetch_walk__load(w) < 0)
			return -ENOMEM;
		w->mem = true;
		w->off = 0;
		if (tn->target_size <= 0) {
			pr_err("'%s' in '%s' points to void or to an incomplete type: no %s\n",
			       w->what, ft->spec, index ? "element" : "member");
			return -EINVAL;
		}
	} else if (index && tn->kind == FPROBE_TNODE_ARRAY && w->mem) {
		if (tn->target_size <= 0) {
			pr_err("the elements of '%s' in '%s' have no size in %s\n", w->what,
			       ft->spec, w->func->source);
			return -EINVAL;
		}
		if (tn->nr_elems && field->index >= tn->nr_elems) {
			pr_err("'%s%s' in '%s' is past the %d elements of '%s'\n", w->what,
			       field->name, ft->spec, tn->nr_elems, w->what);
			return -EINVAL;
		}
	} else if (!field->ref && tn->kind == FPROBE_TNODE_STRUCT) {
		if (!w->mem) {
			pr_err("'%s' in '%s' is a struct passed by value: its members are not at hand\n",
			       w->what, ft->spec);
			return -EINVAL;
		}
	} else {
		pr_err("'%s' in '%s' is not %s: no '%s%s' of it\n", w->what, ft->spec,
		       index ? "a pointer or an array" :
		       field->ref ?
		       "a pointer to a struct or union (use '.' for a struct)" :
		       "a struct or union (use '->' for a pointer)",
		       field->ref && !index ? "->" : index ? "" : ".", field->name);
		return -EINVAL;
	}
	return 0;
}

/*
 * One member or element of the path: its offset added, its type reached.
 * Return: 0, -ENOENT (a type the prototypes do not have, said by the
 * caller), -EINVAL (said), -ENOMEM.
 */
static int fprobe_fetch_walk__step(struct fprobe_fetch_walk *w,
				   const struct perf_probe_arg_field *field)
{
	const struct fprobe_fetch *ft = w->ft;
	const struct fprobe_func *func = w->func;
	struct fprobe_type next;
	struct fprobe_tnode tn;
	int ret;

	if (fprobe_reader__tnode(w->reader, w->cur.id, &tn) < 0)
		return -ENOENT;
	ret = fprobe_fetch_walk__check(w, field, &tn);
	if (ret < 0)
		return ret;

	if (field->name[0] == '[') {
		w->off += field->index * tn.target_size;
		ret = fprobe_reader__type(w->reader, tn.target, &next);
	} else {
		u64 moff;
		u64 sid = tn.kind == FPROBE_TNODE_POINTER ? tn.target : w->cur.id;
		struct fprobe_tnode st;

		if (tn.kind == FPROBE_TNODE_POINTER &&
		    (fprobe_reader__tnode(w->reader, sid, &st) < 0 ||
		     st.kind != FPROBE_TNODE_STRUCT)) {
			pr_err("'%s' in '%s' does not point to a struct or union: no '->%s' of it\n",
			       w->what, ft->spec, field->name);
			return -EINVAL;
		}
		ret = fprobe_reader__member(w->reader, sid, field->name, &moff, &next);
		if (ret == -ENOENT) {
			pr_err("'%s' in '%s' has no member '%s' (-V %s lists its members)\n",
			       w->what, ft->spec, field->name, func->name);
			return -EINVAL;
		}
		if (ret == -EOPNOTSUPP) {
			pr_err("'%s' in '%s' is a bit field: not fetched\n", field->name,
			       ft->spec);
			return -EINVAL;
		}
		w->off += moff;
	}
	if (ret < 0)
		return -ENOMEM;
	fprobe_type__exit(&w->cur);
	w->cur = next;
	w->what = field->name;
	return 0;
}

/*
 * The fetch argument of the end of the path, into *@text, with the fetch
 * type given or that of its type. Return: 0, -ENOENT (as for a step),
 * -EINVAL (said), -ENOMEM.
 */
static int fprobe_fetch_walk__text(struct fprobe_fetch_walk *w, char **text)
{
	const struct fprobe_fetch *ft = w->ft;
	const char *tname = w->cur.name ?: w->p->type.name;
	struct fprobe_tnode tn;
	const char *type = ft->type;

	if (fprobe_reader__tnode(w->reader, w->cur.id, &tn) < 0)
		return -ENOENT;
	if (type && fprobe_fetch_type__is_string(type)) {
		if (!tn.is_char || (tn.kind == FPROBE_TNODE_ARRAY && !w->mem)) {
			pr_err("'%s' in '%s' is a %s, not a pointer to char or an array of char: no :%s of it\n",
			       w->what, ft->spec, tname, type);
			return -EINVAL;
		}
		/* The path to an array is in kernel memory: so is the array */
		if (tn.kind == FPROBE_TNODE_ARRAY && !strcmp(type, "ustring")) {
			pr_err("'%s' in '%s' is an array of char in kernel memory: use :string, not :ustring\n",
			       w->what, ft->spec);
			return -EINVAL;
		}
		if (tn.kind == FPROBE_TNODE_POINTER && w->mem && fprobe_fetch_walk__load(w) < 0)
			return -ENOMEM;
		/* ustring: the string is in user memory, the path to it not */
		return asprintf(text, "%+" PRId64 "(%s):%s", w->off, w->expr, type) < 0 ?
		       -ENOMEM : 0;
	}
	if (tn.kind == FPROBE_TNODE_STRUCT || tn.kind == FPROBE_TNODE_ARRAY ||
	    (tn.kind == FPROBE_TNODE_OTHER && !type)) {
		pr_err("'%s' in '%s' is a %s: name a member or an element of it%s\n",
		       w->what, ft->spec, tname,
		       tn.is_char ? ", or fetch it with :string" : "");
		return -EINVAL;
	}
	if (!type)
		type = fprobe_type__fetch_type(w->cur.name ? &w->cur : &w->p->type);
	if (w->mem)
		return asprintf(text, "%+" PRId64 "(%s):%s", w->off, w->expr, type) < 0 ?
		       -ENOMEM : 0;
	return asprintf(text, "%s:%s", w->expr, type) < 0 ? -ENOMEM : 0;
}

/*
 * The fetch argument (an fprobe event's, which the fprobe PMU takes too) of
 * @ft for a call of @func, into *@text: its parameter's argument register,
 * a dereference for each pointer the path goes through, the offsets of the
 * members and elements, and the fetch type (that of the last member, or
 * the one given). Return: 0, -EINVAL (said, naming the part that is
 * wrong), -ENOMEM.
 */
static int fprobe_fetch__resolve(struct fprobe_probes *probes, const struct fprobe_func *func,
				 const struct fprobe_fetch *ft, char **text)
{
	struct fprobe_fetch_walk w = {
		.reader	= fprobe_protos__reader(probes->protos, func),
		.func	= func,
		.ft	= ft,
	};
	const struct perf_probe_arg_field *field;
	int ret;

	ret = fprobe_fetch_walk__start(&w);
	for (field = ft->fields; !ret && field; field = field->next)
		ret = fprobe_fetch_walk__step(&w, field);
	if (!ret)
		ret = fprobe_fetch_walk__text(&w, text);
	/* a type the prototypes name, but do not have */
	if (ret == -ENOENT) {
		pr_err("the type of '%s' in '%s' is not in %s\n", w.what, ft->spec,
		       func->source);
		ret = -EINVAL;
	}
	if (ret == -ENOMEM)
		pr_err("out of memory\n");
	fprobe_type__exit(&w.cur);
	free(w.expr);
	return ret;
}

/*
 * Find the named parameters of @f in DWARF or BTF. A function a glob or a
 * list matched may lack some (or have no prototype): it is traced without
 * them, its param_idx -1; fprobe_probes__check_params() then wants each
 * parameter had by one match at least. A function named alone must have
 * them all, each in an argument register at the entry; when several
 * functions have its name, with prototypes not told apart, it is skipped.
 */
int fprobe_probes__resolve_params(struct fprobe_probes *probes,
				  struct fprobe_target_func *f)
{
	struct fprobe_probe *probe = f->probe;
	bool multi = fprobe_probe__is_multi(probe);
	char desc[PATH_MAX + 32];
	int i;

	if (probe->nr_params || probe->nr_fetch) {
		char what[256];

		scnprintf(what, sizeof(what), "parameters of %s", f->name);
		if (!fprobe_protos__have(probes->protos, what))
			return -1;
	} else if (!probes->all_protos) {
		/*
		 * Only the tracefs events need a prototype without parameters
		 * (the return's type): -a '*' looks up no DWARF of every
		 * function; a report looks up those it shows.
		 */
		return 0;
	}
	f->proto = fprobe_protos__find_func(probes->protos, f->name);
	if (!f->proto && errno == ENOMEM) {
		pr_err("out of memory reading the prototype of %s\n", f->name);
		return -1;
	}
	if (!probe->nr_params && !probe->nr_fetch)
		return 0;
	for (i = 0; i < probe->nr_params; i++)
		f->param_idx[i] = -1;
	if (!f->proto) {
		struct fprobe_skipped_func *s;

		if (multi)
			return 0;
		if (errno != ENOTUNIQ) {
			pr_err("%s has no description in %s\n", f->name,
			       fprobe_protos__desc(probes->protos, NULL, desc, sizeof(desc)));
			return -1;
		}
		f->skip = FPROBE_SKIP_AMBIGUOUS;
		s = fprobe_probes__skip(probes, f->name, probe, f->skip);
		if (!s)
			return -1;
		s->notuniq_btf = probes->protos->notuniq_btf;
		return 0;
	}

	for (i = 0; i < probe->nr_params; i++) {
		int idx = fprobe_func__param_index(f->proto, probe->params[i]);
		const struct fprobe_param *p = idx < 0 ? NULL : &f->proto->params[idx];

		if ((!p || p->arg < 0 || p->arg >= FPROBE_CALL_MAX_ARGS) && multi)
			continue;
		if (p && p->arg < 0) {
			pr_err("'%s' of %s cannot be captured: %s (from %s)\n",
			       p->name, f->name, p->no_arg,
			       fprobe_protos__desc(probes->protos, f->proto, desc, sizeof(desc)));
			return -1;
		}
		if (idx < 0) {
			const char *cands[64];
			int j, nr = min(f->proto->nr_params, 64);

			pr_err("%s has no parameter '%s'\n", f->name, probe->params[i]);
			for (j = 0; j < nr; j++)
				cands[j] = f->proto->params[j].name;
			fprobe__print_close_matches(probe->params[i], cands, nr,
						    "its parameters");
			return -1;
		}
		if (p->arg >= FPROBE_CALL_MAX_ARGS) {
			pr_err("'%s' is argument %d of %s: only the first %d can be captured\n",
			       probe->params[i], p->arg + 1, f->name,
			       FPROBE_CALL_MAX_ARGS);
			return -1;
		}
		f->param_idx[i] = idx;
		probe->nargs = max(probe->nargs, p->arg + 1);
	}
	for (i = 0; i < probe->nr_fetch; i++) {
		/* a match without the parameter: said by fprobe_probes__check_params() */
		if (multi && fprobe_func__param_index(f->proto, probe->fetch[i].param) < 0)
			continue;
		if (fprobe_fetch__resolve(probes, f->proto, &probe->fetch[i],
					  &f->fetch_args[i]) < 0)
			return -1;
	}
	return 0;
}

/*
 * After fprobe_probes__resolve_params() of every function: each parameter of a
 * glob's or a list's probe is had by one of its matches at least (else it
 * is a typo), and the matches that lack some are said.
 */
int fprobe_probes__check_params(struct fprobe_probes *probes)
{
	struct fprobe_probe *probe;
	int i, j;

	list_for_each_entry(probe, &probes->list, list) {
		int matches = 0, lacking = 0;

		if (!probe->nr_params || !probe->nr_funcs || !fprobe_probe__is_multi(probe))
			continue;
		for (j = 0; j < probes->nr_funcs; j++) {
			const struct fprobe_target_func *f = &probes->funcs[j];
			bool all = true;

			if (f->probe != probe)
				continue;
			matches++;
			for (i = 0; i < probe->nr_params; i++)
				all &= f->param_idx[i] >= 0;
			lacking += !all;
		}
		for (i = 0; i < probe->nr_params; i++) {
			bool had = false;

			for (j = 0; j < probes->nr_funcs && !had; j++)
				had = probes->funcs[j].probe == probe &&
				      probes->funcs[j].param_idx[i] >= 0;
			if (!had) {
				pr_err("no function matching '%s' has a parameter '%s'\n",
				       probe->glob, probe->params[i]);
				return -1;
			}
		}
		if (lacking)
			pr_info("perf fprobe: '%s': %d of the %d functions it matches lack some of its parameters, traced without them\n",
				probe->spec, lacking, matches);
	}
	return 0;
}

/*
 * After fprobe_probes__resolve_params() of every function: each member path
 * or typed parameter of a probe is fetched the same way in every function
 * it traces (the fprobe PMU event of the probe has one fetch description),
 * which makes probe->fetch_args.
 */
int fprobe_probes__check_fetch(struct fprobe_probes *probes)
{
	struct fprobe_probe *probe;
	struct strbuf sb;
	int i, j;

	list_for_each_entry(probe, &probes->list, list) {
		const struct fprobe_target_func *first = NULL;

		if (!probe->nr_fetch || !probe->nr_funcs)
			continue;
		for (j = 0; j < probes->nr_funcs; j++) {
			const struct fprobe_target_func *f = &probes->funcs[j];

			if (f->probe != probe)
				continue;
			if (!first)
				first = f;
			for (i = 0; i < probe->nr_fetch; i++) {
				if (!f->fetch_args[i]) {
					pr_err("%s, matched by '%s', has no parameter '%s': give the functions that have it their own -a\n",
					       f->name, probe->glob, probe->fetch[i].param);
					return -1;
				}
				if (strcmp(f->fetch_args[i], first->fetch_args[i])) {
					pr_err("'%s' is %s in %s and %s in %s: give them their own -a\n",
					       probe->fetch[i].spec, first->fetch_args[i],
					       first->name, f->fetch_args[i], f->name);
					return -1;
				}
			}
		}
		if (strbuf_init(&sb, 64) < 0)
			goto out_nomem;
		for (i = 0; i < probe->nr_fetch; i++) {
			if (strbuf_addf(&sb, "%s%s", i ? " " : "", first->fetch_args[i]) < 0) {
				strbuf_release(&sb);
				goto out_nomem;
			}
		}
		probe->fetch_args = strbuf_detach(&sb, NULL);
		if (!probe->fetch_args)
			goto out_nomem;
	}
	return 0;
out_nomem:
	pr_err("out of memory\n");
	return -1;
}

void fprobe_protos__exit(struct fprobe_protos *protos)
{
	fprobe_reader__delete(protos->dwarf);
	fprobe_reader__delete(protos->btf);
	protos->dwarf = NULL;
	protos->btf = NULL;
}
