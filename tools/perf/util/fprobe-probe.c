// SPDX-License-Identifier: GPL-2.0
/*
 * The probes of perf fprobe: each -a 'FUNC|GLOB [PARAM...]' is expanded to
 * the traceable functions it matches (available_filter_functions, less the
 * not-filter), and the parameters it names are found in the prototypes of
 * those functions, read from the DWARF of vmlinux or from BTF.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include <api/fs/tracing_path.h>

#include "debug.h"
#include "fprobe-btf.h"
#include "fprobe-dwarf.h"
#include "fprobe-probe.h"
#include "hashmap.h"
#include "levenshtein.h"
#include "string2.h"
#include "strlist.h"
#include "symbol/kallsyms.h"

#define FPROBE_MAX_MATCHES	5

/* ---- traceable functions ---------------------------------------------- */

/* available_filter_functions, read once */
int fprobe_probes__load_avail(struct fprobe_probes *probes)
{
	char *path, *line = NULL;
	size_t n = 0;
	FILE *fp;

	if (probes->avail)
		return 0;

	path = get_tracing_file("available_filter_functions");
	if (!path) {
		pr_err("failed to find tracefs (is it mounted?)\n");
		return -1;
	}
	fp = fopen(path, "r");
	if (!fp) {
		pr_err("failed to open %s: %s\n", path, strerror(errno));
		put_tracing_file(path);
		return -1;
	}
	put_tracing_file(path);

	probes->avail = strlist__new(NULL, NULL);
	if (!probes->avail) {
		fclose(fp);
		return -1;
	}
	while (getline(&line, &n, fp) > 0) {
		char *sp = strpbrk(line, " \t\n");

		if (sp)
			*sp = '\0';
		if (*line)
			strlist__add(probes->avail, line);
	}
	free(line);
	fclose(fp);
	return 0;
}

static int kernel_func_cb(void *arg, const char *name, char type, u64 start __maybe_unused)
{
	size_t len = strlen(arg);

	/* a module's is "name\t[module]"; 1 stops the walk */
	return kallsyms__is_function(type) && !strncmp(name, arg, len) &&
	       (!name[len] || name[len] == '\t');
}

/* Is @name a function symbol of the running kernel (traceable or not)? */
static bool kernel_has_func(const char *name)
{
	return kallsyms__parse("/proc/kallsyms", (void *)name, kernel_func_cb) == 1;
}

static int str_distance(const char *a, const char *b)
{
	return levenshtein(a, b, 1, 1, 1, 1);
}

struct fprobe_match {
	const char	*name;
	int		dist;
};

static int fprobe_match__cmp(const void *a, const void *b)
{
	const struct fprobe_match *ma = a, *mb = b;

	if (ma->dist != mb->dist)
		return ma->dist - mb->dist;
	return strcmp(ma->name, mb->name);
}

/* Print up to FPROBE_MAX_MATCHES names of @cands close to @name */
void fprobe__print_close_matches(const char *name, const char **cands, int nr,
				 const char *what)
{
	struct fprobe_match best[FPROBE_MAX_MATCHES + 1];
	int i, nr_best = 0, limit = max(2, (int)strlen(name) / 3);

	for (i = 0; i < nr; i++) {
		int d;

		/* cheap reject before the quadratic distance */
		if (abs((int)strlen(cands[i]) - (int)strlen(name)) > limit)
			continue;
		d = str_distance(name, cands[i]);
		if (d > limit)
			continue;
		best[nr_best].name = cands[i];
		best[nr_best].dist = d;
		nr_best++;
		qsort(best, nr_best, sizeof(best[0]), fprobe_match__cmp);
		if (nr_best > FPROBE_MAX_MATCHES)
			nr_best = FPROBE_MAX_MATCHES;
	}
	if (!nr_best)
		return;
	pr_err("  close matches among %s:", what);
	for (i = 0; i < nr_best; i++)
		pr_err(" %s", best[i].name);
	pr_err("\n");
}

/* Print the traceable functions close to @name */
void fprobe_probes__suggest_funcs(struct fprobe_probes *probes, const char *name)
{
	struct str_node *nd;
	const char **cands;
	int nr = 0;

	cands = calloc(strlist__nr_entries(probes->avail), sizeof(*cands));
	if (!cands)
		return;
	strlist__for_each_entry(nd, probes->avail)
		cands[nr++] = nd->s;
	fprobe__print_close_matches(name, cands, nr, "traceable functions");
	free(cands);
}

/* -F: print the traceable functions matching @glob */
int fprobe_probes__list(struct fprobe_probes *probes, const char *glob)
{
	struct str_node *nd;
	int nr = 0;

	if (fprobe_probes__load_avail(probes) < 0)
		return -1;
	strlist__for_each_entry(nd, probes->avail) {
		if (strglobmatch(nd->s, glob)) {
			printf("%s\n", nd->s);
			nr++;
		}
	}
	if (!nr) {
		pr_err("no traceable function matches '%s'\n", glob);
		return -1;
	}
	return 0;
}

/* ---- DWARF and BTF ------------------------------------------------------ */

/*
 * Where the prototypes of traced functions come from: the DWARF of vmlinux
 * (-k, or the running kernel's found where perf probe looks), else its BTF
 * (/sys/kernel/btf/vmlinux, what distribution kernels ship); with --btf,
 * BTF only (that of -k's vmlinux when given). One source for the whole run.
 */
static struct fprobe_dwarf *fprobe_protos__dwarf(struct fprobe_protos *protos)
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

static struct fprobe_btf *fprobe_protos__btf(struct fprobe_protos *protos)
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
		scnprintf(buf, size, "the BTF of %s", fprobe_btf__path(protos->btf));
	else if (!func && protos->dwarf && protos->btf)
		scnprintf(buf, size, "the DWARF of %s or the BTF of %s",
			  fprobe_dwarf__path(protos->dwarf), fprobe_btf__path(protos->btf));
	else if (protos->dwarf)
		scnprintf(buf, size, "the DWARF of %s", fprobe_dwarf__path(protos->dwarf));
	else if (protos->btf)
		scnprintf(buf, size, "the BTF of %s", fprobe_btf__path(protos->btf));
	else
		scnprintf(buf, size, "no DWARF or BTF");
	return buf;
}

/*
 * The prototype of @name from DWARF or BTF; NULL with errno ENOENT: unknown,
 * ENOTUNIQ: BTF has several of the name (see fprobe_btf__find_func())
 */
struct fprobe_func *fprobe_protos__find_func(struct fprobe_protos *protos,
					     const char *name)
{
	struct fprobe_dwarf *dwarf = fprobe_protos__dwarf(protos);
	struct fprobe_btf *btf;
	struct fprobe_func *func;

	protos->notuniq_btf = false;
	if (dwarf) {
		func = fprobe_dwarf__find_func(dwarf, name);
		/*
		 * The running kernel's DWARF may lack a function its BTF has
		 * (one whose DIE is not found by address): not a -k vmlinux's.
		 */
		if (func || (errno != ENOENT && errno != ENODATA) || protos->vmlinux)
			return func;
	}
	btf = protos->use_btf || !protos->vmlinux ? fprobe_protos__btf(protos) : NULL;
	if (btf) {
		func = fprobe_btf__find_func(btf, name);
		protos->notuniq_btf = !func && errno == ENOTUNIQ;
		return func;
	}
	errno = ENOENT;
	return NULL;
}

/* After fprobe_protos__find_func() failed with ENOTUNIQ */
void fprobe_protos__say_notuniq(struct fprobe_protos *protos, const char *name)
{
	if (!protos->notuniq_btf)
		pr_err("%s: %s has several functions of that name (ftrace probes them all by it): their parameters are not told apart\n",
		       name, fprobe_dwarf__path(protos->dwarf));
	else
		pr_err("%s: the BTF of %s has functions of that name with different prototypes, and does not say which one is traced (read the DWARF of vmlinux with -k)\n",
		       name, protos->btf ? fprobe_btf__path(protos->btf) : "");
}

/* -V: print the prototype of @name, and where each parameter is at the entry */
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
	}
	printf("  return %-14s %-24s %s\n", "", func->ret.name,
	       func->ret.kind == FPROBE_TYPE_VOID ? "-" :
	       fprobe_type__fetch_type(&func->ret));
	fprobe_func__delete(func);
	return 0;
}

/* ---- probe specs -------------------------------------------------------- */

static bool is_ident(const char *s)
{
	if (!*s || !(isalpha(*s) || *s == '_'))
		return false;
	for (s++; *s; s++) {
		if (!isalnum(*s) && *s != '_')
			return false;
	}
	return true;
}

static bool is_glob_or_func(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isalnum(*s) && !strchr("_.*?[]!", *s))
			return false;
	}
	return true;
}

static void fprobe_probe__delete(struct fprobe_probe *probe)
{
	int i;

	if (!probe)
		return;
	for (i = 0; i < probe->nr_params; i++)
		free(probe->params[i]);
	free(probe->params);
	free(probe->filter);
	free(probe->glob);
	free(probe->spec);
	free(probe);
}

/**
 * fprobe_probes__add - add the probe of one -a 'FUNC|GLOB [PARAM...]'
 * @probes: the probes of the run
 * @str: the probe: a function or a glob of functions, then the names of
 *	 parameters to capture (at most FPROBE_CALL_MAX_ARGS), apart by blanks
 *
 * Return: 0, -EINVAL for a malformed probe (said), -ENOMEM.
 */
int fprobe_probes__add(struct fprobe_probes *probes, const char *str)
{
	struct fprobe_probe *probe;
	char *s, *tok, *saveptr = NULL;

	probe = zalloc(sizeof(*probe));
	if (!probe)
		return -ENOMEM;
	probe->spec = strdup(str);
	s = strdup(str);
	if (!probe->spec || !s)
		goto out_nomem;

	for (tok = strtok_r(s, " \t", &saveptr); tok;
	     tok = strtok_r(NULL, " \t", &saveptr)) {
		char **params;

		if (!probe->glob) {
			if (!is_glob_or_func(tok)) {
				pr_err("invalid function or glob '%s' in '%s'\n", tok, str);
				goto out_inval;
			}
			probe->glob = strdup(tok);
			if (!probe->glob)
				goto out_nomem;
			continue;
		}
		if (!is_ident(tok)) {
			pr_err("invalid parameter name '%s' in '%s'\n", tok, str);
			goto out_inval;
		}
		if (probe->nr_params == FPROBE_CALL_MAX_ARGS) {
			pr_err("too many parameters in '%s' (at most %d)\n", str,
			       FPROBE_CALL_MAX_ARGS);
			goto out_inval;
		}
		params = realloc(probe->params, (probe->nr_params + 1) * sizeof(*params));
		if (!params)
			goto out_nomem;
		probe->params = params;
		params[probe->nr_params] = strdup(tok);
		if (!params[probe->nr_params])
			goto out_nomem;
		probe->nr_params++;
	}
	if (!probe->glob) {
		pr_err("empty probe: -a needs 'FUNC|GLOB [PARAM...]'\n");
		goto out_inval;
	}
	free(s);
	list_add_tail(&probe->list, &probes->list);
	return 0;

out_nomem:
	free(s);
	fprobe_probe__delete(probe);
	return -ENOMEM;
out_inval:
	free(s);
	fprobe_probe__delete(probe);
	return -EINVAL;
}

/* Hash callbacks of string keys, for hashmap__new() */
size_t fprobe__str_hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

bool fprobe__str_equal(long a, long b, void *ctx __maybe_unused)
{
	return !strcmp((const char *)a, (const char *)b);
}

/*
 * Add @name, matched by @probe, to the functions to trace: a hash of the
 * names finds one matched twice, so that -a '*' sets up in O(n).
 */
static int fprobe_probes__add_func(struct fprobe_probes *probes, const char *name,
				   struct fprobe_probe *probe)
{
	struct fprobe_target_func *funcs, *f;
	long idx;

	if (!probes->func_names) {
		probes->func_names = hashmap__new(fprobe__str_hash, fprobe__str_equal, NULL);
		if (IS_ERR(probes->func_names)) {
			probes->func_names = NULL;
			pr_err("out of memory\n");
			return -1;
		}
	}
	if (hashmap__find(probes->func_names, name, &idx)) {
		pr_err("%s is matched by both '%s' and '%s'\n", name,
		       probes->funcs[idx].probe->spec, probe->spec);
		return -1;
	}
	if (probes->nr_funcs == probes->alloc_funcs) {
		int alloc = probes->alloc_funcs ? 2 * probes->alloc_funcs : 64;

		funcs = realloc(probes->funcs, alloc * sizeof(*funcs));
		if (!funcs)
			return -1;
		probes->funcs = funcs;
		probes->alloc_funcs = alloc;
	}
	f = &probes->funcs[probes->nr_funcs];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	if (!f->name)
		return -1;
	f->probe = probe;
	if (hashmap__add(probes->func_names, f->name, (long)probes->nr_funcs) < 0) {
		zfree(&f->name);
		return -1;
	}
	probes->nr_funcs++;
	return 0;
}

/* The globs of the not-filter (-N), split by ',' or blanks, once */
static int fprobe_probes__split_notrace(struct fprobe_probes *probes)
{
	char *globs, *glob, *saveptr = NULL;
	int err = 0;

	if (!probes->notrace || probes->notrace_globs)
		return 0;
	globs = strdup(probes->notrace);
	probes->notrace_globs = strlist__new(NULL, NULL);
	if (!globs || !probes->notrace_globs) {
		free(globs);
		return -ENOMEM;
	}
	for (glob = strtok_r(globs, ", \t", &saveptr); glob && !err;
	     glob = strtok_r(NULL, ", \t", &saveptr))
		err = strlist__add(probes->notrace_globs, glob);
	free(globs);
	return err == -EEXIST ? 0 : err;
}

/* Is @name matched by a glob of the not-filter? */
static bool fprobe_probes__excluded(struct fprobe_probes *probes, const char *name)
{
	struct str_node *nd;

	if (!probes->notrace_globs)
		return false;
	strlist__for_each_entry(nd, probes->notrace_globs) {
		if (strglobmatch(name, nd->s))
			return true;
	}
	return false;
}

bool fprobe_probe__is_glob(const struct fprobe_probe *probe)
{
	return strpbrk(probe->glob, "*?[");
}

/* Expand a probe's glob to traceable functions */
static int fprobe_probes__expand_probe(struct fprobe_probes *probes,
				       struct fprobe_probe *probe)
{
	struct str_node *nd;
	int nr = 0;

	if (!fprobe_probe__is_glob(probe)) {
		if (strlist__has_entry(probes->avail, probe->glob)) {
			if (fprobe_probes__excluded(probes, probe->glob)) {
				pr_err("%s is excluded by --notrace-funcs '%s'\n",
				       probe->glob, probes->notrace);
				return -1;
			}
			return fprobe_probes__add_func(probes, probe->glob, probe);
		}
		if (kernel_has_func(probe->glob)) {
			pr_err("%s is not traceable: it is notrace, or has no ftrace call site (not in available_filter_functions)\n",
			       probe->glob);
			return -1;
		}
		pr_err("unknown function %s: not in available_filter_functions\n",
		       probe->glob);
		fprobe_probes__suggest_funcs(probes, probe->glob);
		return -1;
	}

	strlist__for_each_entry(nd, probes->avail) {
		if (!strglobmatch(nd->s, probe->glob) || fprobe_probes__excluded(probes, nd->s))
			continue;
		if (fprobe_probes__add_func(probes, nd->s, probe) < 0)
			return -1;
		nr++;
	}
	if (!nr) {
		pr_err("no traceable function matches '%s'%s\n", probe->glob,
		       probes->notrace ? " (less --notrace-funcs)" : "");
		return -1;
	}
	return 0;
}

/*
 * Find the named parameters of @f in DWARF or BTF. A function a glob
 * matched may lack some (or have no prototype): it is traced without them,
 * its param_idx -1; fprobe_probes__check_params() then wants each parameter had
 * by one match at least. A function named alone must have them all, each
 * in an argument register at the entry.
 */
static int fprobe_probes__resolve_params(struct fprobe_probes *probes,
					 struct fprobe_target_func *f)
{
	struct fprobe_probe *probe = f->probe;
	bool glob = fprobe_probe__is_glob(probe);
	char desc[PATH_MAX + 32];
	int i;

	if (probe->nr_params) {
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
	f->dwarf = fprobe_protos__find_func(probes->protos, f->name);
	if (!f->dwarf && errno == ENOMEM) {
		pr_err("out of memory reading the prototype of %s\n", f->name);
		return -1;
	}
	if (!probe->nr_params)
		return 0;
	for (i = 0; i < probe->nr_params; i++)
		f->param_idx[i] = -1;
	if (!f->dwarf) {
		if (glob)
			return 0;
		if (errno == ENOTUNIQ)
			fprobe_protos__say_notuniq(probes->protos, f->name);
		else
			pr_err("%s has no description in %s\n", f->name,
			       fprobe_protos__desc(probes->protos, NULL, desc, sizeof(desc)));
		return -1;
	}

	for (i = 0; i < probe->nr_params; i++) {
		int idx = fprobe_func__param_index(f->dwarf, probe->params[i]);
		const struct fprobe_param *p = idx < 0 ? NULL : &f->dwarf->params[idx];

		if ((!p || p->arg < 0 || p->arg >= FPROBE_CALL_MAX_ARGS) && glob)
			continue;
		if (p && p->arg < 0) {
			pr_err("'%s' of %s cannot be captured: %s (from %s)\n",
			       p->name, f->name, p->no_arg,
			       fprobe_protos__desc(probes->protos, f->dwarf, desc, sizeof(desc)));
			return -1;
		}
		if (idx < 0) {
			const char *cands[64];
			int j, nr = min(f->dwarf->nr_params, 64);

			pr_err("%s has no parameter '%s'\n", f->name, probe->params[i]);
			for (j = 0; j < nr; j++)
				cands[j] = f->dwarf->params[j].name;
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
	return 0;
}

/*
 * After fprobe_probes__resolve_params() of every function: each parameter of a
 * glob's probe is had by one of its matches at least (else it is a typo),
 * and the matches that lack some are said.
 */
static int fprobe_probes__check_params(struct fprobe_probes *probes)
{
	struct fprobe_probe *probe;
	int i, j;

	list_for_each_entry(probe, &probes->list, list) {
		int matches = 0, lacking = 0;

		if (!probe->nr_params || !fprobe_probe__is_glob(probe))
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

/**
 * fprobe_probes__prepare - find the functions the probes trace, and their parameters
 * @probes: the probes of the run, at least one
 * @stop: set (by a signal handler) to stop preparing
 *
 * Expands each probe to the traceable functions it matches, less those of
 * the not-filter, then finds the parameters it names in DWARF or BTF:
 * probes->funcs then lists the functions, each with its probe, prototype
 * and the index of each parameter in it; each probe's nargs is the number
 * of arguments to capture. Errors are said.
 *
 * Return: 0 or -1.
 */
int fprobe_probes__prepare(struct fprobe_probes *probes, const sig_atomic_t *stop)
{
	struct fprobe_probe *probe;
	int i;

	if (list_empty(&probes->list)) {
		pr_err("no probe: give at least one -a 'FUNC|GLOB [PARAM...]'\n");
		return -1;
	}
	if (fprobe_probes__load_avail(probes) < 0)
		return -1;
	if (fprobe_probes__split_notrace(probes) < 0) {
		pr_err("out of memory\n");
		return -1;
	}
	list_for_each_entry(probe, &probes->list, list) {
		if (fprobe_probes__expand_probe(probes, probe) < 0)
			return -1;
	}
	for (i = 0; i < probes->nr_funcs; i++) {
		if (stop && *stop) {
			pr_err("interrupted\n");
			return -1;
		}
		if (fprobe_probes__resolve_params(probes, &probes->funcs[i]) < 0)
			return -1;
	}
	return fprobe_probes__check_params(probes);
}

void fprobe_protos__exit(struct fprobe_protos *protos)
{
	fprobe_dwarf__delete(protos->dwarf);
	fprobe_btf__delete(protos->btf);
	protos->dwarf = NULL;
	protos->btf = NULL;
}

void fprobe_probes__init(struct fprobe_probes *probes, struct fprobe_protos *protos)
{
	memset(probes, 0, sizeof(*probes));
	INIT_LIST_HEAD(&probes->list);
	probes->protos = protos;
}

void fprobe_probes__exit(struct fprobe_probes *probes)
{
	struct fprobe_probe *probe, *tmp;
	int i;

	list_for_each_entry_safe(probe, tmp, &probes->list, list) {
		list_del(&probe->list);
		fprobe_probe__delete(probe);
	}
	for (i = 0; i < probes->nr_funcs; i++) {
		free(probes->funcs[i].name);
		free(probes->funcs[i].event);
		fprobe_func__delete(probes->funcs[i].dwarf);
	}
	zfree(&probes->funcs);
	probes->nr_funcs = 0;
	probes->alloc_funcs = 0;
	hashmap__free(probes->func_names);
	probes->func_names = NULL;
	strlist__delete(probes->avail);
	probes->avail = NULL;
	strlist__delete(probes->notrace_globs);
	probes->notrace_globs = NULL;
}
