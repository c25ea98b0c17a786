// SPDX-License-Identifier: GPL-2.0
/*
 * The probes of perf fprobe: each -a 'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]'
 * is expanded to the traceable functions it matches
 * (available_filter_functions, less the not-filter); the parameters it
 * names are looked up in their prototypes by util/fprobe-param.c.
 *
 * A function named that cannot be traced is skipped, and said, with the
 * reason: unknown, not traceable (in kallsyms only: notrace), inlined
 * everywhere (no symbol, but the DWARF of vmlinux has it inline), ambiguous
 * (parameters asked of several functions of the name), taken out by -N;
 * and past the cap on the functions one fprobe PMU event (or the tracefs
 * fallback) attaches, those over it are skipped. Only when nothing is left
 * to trace is it an error.
 */
#include <errno.h>
#include <inttypes.h>
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
#include "fprobe-decode.h"
#include "fprobe-dwarf.h"
#include "fprobe-probe.h"
#include "hashmap.h"
#include "levenshtein.h"
#include "probe-event.h"
#include "strbuf.h"
#include "string2.h"
#include "strlist.h"
#include "symbol/kallsyms.h"

#define FPROBE_MAX_MATCHES	5
/* The characters of the names of the kernel's functions */
#define FPROBE_NAME_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_."

/* ---- traceable functions ---------------------------------------------- */

/* available_filter_functions, read once */
int fprobe_probes__load_avail(struct fprobe_probes *probes)
{
	char *path, *line = NULL;
	size_t n = 0;
	int err = 0;
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
	probes->avail_dups = hashmap__new(fprobe__str_hash, fprobe__str_equal, NULL);
	if (!probes->avail || IS_ERR(probes->avail_dups)) {
		probes->avail_dups = NULL;
		fclose(fp);
		return -1;
	}
	while (getline(&line, &n, fp) > 0) {
		char *sp = strpbrk(line, " \t\n");
		struct str_node *nd;
		long nr = 1;

		if (sp)
			*sp = '\0';
		/*
		 * The placeholders of functions whose ftrace site is gone (an
		 * overridden weak function): listed, never attached
		 */
		if (strstarts(line, "__ftrace_invalid_address__"))
			continue;
		if (!*line || strlist__add(probes->avail, line) != -EEXIST)
			continue;
		/* several functions of the name: ftrace lists each */
		nd = strlist__find(probes->avail, line);
		hashmap__find(probes->avail_dups, nd->s, &nr);
		if (hashmap__set(probes->avail_dups, nd->s, nr + 1, NULL, NULL) < 0) {
			pr_err("out of memory\n");
			err = -1;
			break;
		}
	}
	free(line);
	fclose(fp);
	return err;
}

/* The functions of @name ftrace lists: those the kernel attaches by it */
static int fprobe_probes__nr_addrs(const struct fprobe_probes *probes, const char *name)
{
	long nr = 1;

	if (probes->avail_dups)
		hashmap__find(probes->avail_dups, name, &nr);
	return nr;
}

struct fprobe_ksyms {
	struct strlist	*names;		/* looked up */
	struct strlist	*found;		/* those that are function symbols */
};

static int fprobe_ksyms__cb(void *arg, const char *name, char type,
			    u64 start __maybe_unused)
{
	struct fprobe_ksyms *ks = arg;
	char buf[KSYM_NAME_LEN + 1];
	const char *tab = strchr(name, '\t');

	if (!kallsyms__is_function(type))
		return 0;
	/* a module's is "name\t[module]" */
	if (tab) {
		snprintf(buf, sizeof(buf), "%.*s", (int)(tab - name), name);
		name = buf;
	}
	if (strlist__has_entry(ks->names, name) &&
	    strlist__add(ks->found, name) == -ENOMEM)
		return -1;
	return 0;
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

static void fprobe_fetch__exit(struct fprobe_fetch *ft)
{
	struct perf_probe_arg_field *field, *next;

	for (field = ft->fields; field; field = next) {
		next = field->next;
		free(field->name);
		free(field);
	}
	free(ft->spec);
	free(ft->name);
	free(ft->param);
	free(ft->type);
}

static void fprobe_probe__delete(struct fprobe_probe *probe)
{
	int i;

	if (!probe)
		return;
	for (i = 0; i < probe->nr_params; i++)
		free(probe->params[i]);
	free(probe->params);
	for (i = 0; i < probe->nr_fetch; i++)
		fprobe_fetch__exit(&probe->fetch[i]);
	free(probe->fetch);
	free(probe->fetch_args);
	for (i = 0; i < probe->nr_globs; i++)
		free(probe->globs[i].glob);
	free(probe->globs);
	free(probe->cap_bound);
	strlist__delete(probe->taken);
	free(probe->filter);
	free(probe->glob);
	free(probe->spec);
	free(probe);
}

/* Split the list FUNC|GLOB[,FUNC|GLOB...] of @probe: 0, -EINVAL, -ENOMEM */
static int fprobe_probe__split(struct fprobe_probe *probe)
{
	char *list = strdup(probe->glob), *glob, *rest = list;
	int err = 0;

	if (!list)
		return -ENOMEM;
	while (!err && (glob = strsep(&rest, ","))) {
		struct fprobe_glob *globs;

		if (*glob == '!') {
			pr_err("'%s' in '%s': to leave functions out, give them to -N\n",
			       glob, probe->spec);
			err = -EINVAL;
			break;
		}
		if (!is_glob_or_func(glob)) {
			pr_err("invalid function or glob '%s' in '%s'%s\n", glob, probe->spec,
			       *glob ? "" : " (functions are apart by ',' with no blank)");
			err = -EINVAL;
			break;
		}
		globs = realloc(probe->globs, (probe->nr_globs + 1) * sizeof(*globs));
		if (!globs) {
			err = -ENOMEM;
			break;
		}
		probe->globs = globs;
		globs[probe->nr_globs].nr_funcs = 0;
		globs[probe->nr_globs].glob = strdup(glob);
		if (!globs[probe->nr_globs].glob)
			err = -ENOMEM;
		else
			probe->nr_globs++;
	}
	free(list);
	return err;
}

static const char fprobe_fetch_syntax[] =
	"[NAME=]PARAM[->member|.member|[N]...][:TYPE], TYPE string, ustring, u|s|x 8..64";

/*
 * Parse the PARAM @tok of the probe @str, with perf probe's parser of its
 * arguments, into @ft: 0, -EINVAL (said), -ENOMEM
 */
static int fprobe_fetch__parse(struct fprobe_fetch *ft, const char *tok, const char *str)
{
	struct perf_probe_event pev;
	struct perf_probe_arg *arg;
	char *cmd;
	int ret;

	memset(ft, 0, sizeof(*ft));
	memset(&pev, 0, sizeof(pev));
	/* perf probe's syntax is "POINT ARG...": the point is a placeholder */
	if (asprintf(&cmd, "fprobe %s", tok) < 0)
		return -ENOMEM;
	ret = parse_perf_probe_command(cmd, &pev);
	free(cmd);
	if (ret == -ENOMEM)
		goto out;
	if (ret < 0 || pev.nargs != 1) {
		ret = -EINVAL;
		pr_err("invalid parameter '%s' in '%s': %s\n", tok, str, fprobe_fetch_syntax);
		goto out;
	}
	ret = -EINVAL;
	arg = &pev.args[0];
	if (!arg->var || !is_ident(arg->var) || arg->user_access) {
		pr_err("invalid parameter '%s' in '%s': it starts from a parameter's name, as in %s\n",
		       tok, str, fprobe_fetch_syntax);
		goto out;
	}
	if (arg->type && !fprobe_fetch_type__valid(arg->type)) {
		pr_err("invalid type '%s' of '%s' in '%s': %s\n", arg->type, tok, str,
		       fprobe_fetch_syntax);
		goto out;
	}
	if (arg->name && !is_ident(arg->name)) {
		pr_err("invalid field name '%s' of '%s' in '%s': a C identifier is wanted\n",
		       arg->name, tok, str);
		goto out;
	}
	ret = -ENOMEM;
	ft->spec = strdup(tok);
	ft->name = strdup(arg->name ?: arg->var);
	if (!ft->spec || !ft->name)
		goto out;
	/* taken over from perf probe's argument */
	ft->param = arg->var;
	ft->type = arg->type;
	ft->fields = arg->field;
	arg->var = NULL;
	arg->type = NULL;
	arg->field = NULL;
	ret = 0;
out:
	clear_perf_probe_event(&pev);
	if (ret)
		fprobe_fetch__exit(ft);
	return ret;
}

/* "vfs_read count,ksys_read": a list after the parameters */
static const char fprobe_list_hint[] =
	" (the functions come before the parameters: give other functions their own -a)";

/**
 * fprobe_probes__add - add the probe of one -a 'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]'
 * @probes: the probes of the run
 * @str: the probe: functions or globs of functions apart by ',', then the
 *	 names of parameters to capture (at most FPROBE_CALL_MAX_ARGS), apart
 *	 by blanks
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
			int err;

			probe->glob = strdup(tok);
			if (!probe->glob)
				goto out_nomem;
			err = fprobe_probe__split(probe);
			if (err == -ENOMEM)
				goto out_nomem;
			if (err)
				goto out_inval;
			continue;
		}
		if (strchr(tok, ',')) {
			pr_err("invalid parameter '%s' in '%s'%s\n", tok, str, fprobe_list_hint);
			goto out_inval;
		}
		if (!is_ident(tok)) {
			struct fprobe_fetch *fetch;
			int err;

			if (probe->nr_fetch == FPROBE_CALL_MAX_FETCH) {
				pr_err("too many member paths and typed parameters in '%s' (at most %d)\n",
				       str, FPROBE_CALL_MAX_FETCH);
				goto out_inval;
			}
			fetch = realloc(probe->fetch, (probe->nr_fetch + 1) * sizeof(*fetch));
			if (!fetch)
				goto out_nomem;
			probe->fetch = fetch;
			err = fprobe_fetch__parse(&fetch[probe->nr_fetch], tok, str);
			if (err == -ENOMEM)
				goto out_nomem;
			if (err)
				goto out_inval;
			probe->nr_fetch++;
			continue;
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
		pr_err("empty probe: -a needs 'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]'\n");
		goto out_inval;
	}
	/* each is a field of its own in a record */
	for (int i = 0; i < probe->nr_fetch; i++) {
		const char *name = probe->fetch[i].name;
		bool dup = !strcmp(name, "retval") || strstarts(name, "__");

		for (int j = 0; j < probe->nr_params && !dup; j++)
			dup = !strcmp(probe->params[j], name);
		for (int j = 0; j < i && !dup; j++)
			dup = !strcmp(probe->fetch[j].name, name);
		if (dup) {
			const char *eq = strchr(probe->fetch[i].spec, '=');

			pr_err("'%s' in '%s' makes a field '%s' that another has (or is reserved): give it another name, as in NEWNAME=%s\n",
			       probe->fetch[i].spec, str, name, eq ? eq + 1 : probe->fetch[i].spec);
			goto out_inval;
		}
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

/**
 * fprobe_probes__add_scope - add the globs of one -G to the scope
 * @probes: the probes of the run
 * @str: functions or globs apart by ',' or blanks
 *
 * The fprobe PMU then sees only the calls made by a task inside a call of
 * a function they match (and those calls themselves): each goes into the
 * filter of every probe as '@GLOB'.
 *
 * Return: 0, -EINVAL for a malformed glob (said), -ENOMEM.
 */
int fprobe_probes__add_scope(struct fprobe_probes *probes, const char *str)
{
	char *globs = strdup(str), *glob, *saveptr = NULL;
	int err = 0, nr = 0;

	if (!globs)
		return -ENOMEM;
	if (!probes->scope)
		probes->scope = strlist__new(NULL, NULL);
	if (!probes->scope) {
		free(globs);
		return -ENOMEM;
	}
	for (glob = strtok_r(globs, ", \t", &saveptr); glob && !err;
	     glob = strtok_r(NULL, ", \t", &saveptr), nr++) {
		if (!is_glob_or_func(glob) || glob[0] == '!') {
			pr_err("invalid function or glob '%s' in -G '%s'\n", glob, str);
			err = -EINVAL;
			break;
		}
		err = strlist__add(probes->scope, glob);
		if (err == -EEXIST)
			err = 0;
	}
	if (!err && !nr) {
		pr_err("-G takes FUNC|GLOB[,FUNC|GLOB...]\n");
		err = -EINVAL;
	}
	free(globs);
	return err;
}

/* Each glob of -G matches a traceable function: 0, or -1 (said) */
static int fprobe_probes__check_scope(struct fprobe_probes *probes)
{
	struct str_node *nd, *fn;

	if (!probes->scope)
		return 0;
	strlist__for_each_entry(nd, probes->scope) {
		bool found = false;

		strlist__for_each_entry(fn, probes->avail) {
			if (strglobmatch(fn->s, nd->s)) {
				found = true;
				break;
			}
		}
		if (!found) {
			pr_err("-G '%s' matches no traceable function\n", nd->s);
			if (!strpbrk(nd->s, "*?["))
				fprobe_probes__suggest_funcs(probes, nd->s);
			return -1;
		}
	}
	return 0;
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
 * Add @name, matched by globs[@glob_idx] of @probe, to the functions to
 * trace: a hash of the names finds one matched twice, so that -a '*' sets
 * up in O(n). Matched twice by one probe, it is traced once.
 */
static int fprobe_probes__add_func(struct fprobe_probes *probes, const char *name,
				   struct fprobe_probe *probe, int glob_idx)
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
		struct fprobe_probe *other = probes->funcs[idx].probe;
		struct fprobe_probe *loser = probe;

		if (other == probe)
			return 0;
		/*
		 * Traced by one probe only: the one that names it, rather
		 * than one of whose globs matches it, else the first
		 */
		f = &probes->funcs[idx];
		if (!strpbrk(probe->globs[glob_idx].glob, "*?[") &&
		    strpbrk(other->globs[f->glob_idx].glob, "*?[")) {
			loser = other;
			other->nr_funcs--;
			other->globs[f->glob_idx].nr_funcs--;
			f->probe = probe;
			f->glob_idx = glob_idx;
			probe->nr_funcs++;
			probe->globs[glob_idx].nr_funcs++;
		}
		pr_warning("%s is matched by '%s' and by '%s': traced by '%s' only\n", name,
			   other->spec, probe->spec, f->probe->spec);
		/* the fprobe PMU event of the other leaves it out */
		if (!loser->taken)
			loser->taken = strlist__new(NULL, NULL);
		if (!loser->taken || strlist__add(loser->taken, name) == -ENOMEM) {
			pr_err("out of memory\n");
			return -1;
		}
		return 0;
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
	f->glob_idx = glob_idx;
	if (hashmap__add(probes->func_names, f->name, (long)probes->nr_funcs) < 0) {
		zfree(&f->name);
		return -1;
	}
	probes->nr_funcs++;
	probe->nr_funcs++;
	probe->globs[glob_idx].nr_funcs++;
	return 0;
}

/* Record that @name, of @probe, is not traced, and why; NULL: no memory */
struct fprobe_skipped_func *fprobe_probes__skip(struct fprobe_probes *probes,
						const char *name,
						struct fprobe_probe *probe,
						enum fprobe_skip reason)
{
	struct fprobe_skipped_func *s;

	if (probes->nr_skipped == probes->alloc_skipped) {
		int alloc = probes->alloc_skipped ? 2 * probes->alloc_skipped : 16;

		s = realloc(probes->skipped, alloc * sizeof(*s));
		if (!s)
			goto out_nomem;
		probes->skipped = s;
		probes->alloc_skipped = alloc;
	}
	s = &probes->skipped[probes->nr_skipped];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	if (!s->name)
		goto out_nomem;
	s->probe = probe;
	s->reason = reason;
	probes->nr_skipped++;
	return s;

out_nomem:
	pr_err("out of memory\n");
	return NULL;
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

bool fprobe_probe__is_multi(const struct fprobe_probe *probe)
{
	return probe->nr_globs > 1 || fprobe_probe__is_glob(probe);
}

/*
 * Expand each FUNC or GLOB of a probe to traceable functions. A function
 * named that is not traceable is skipped, as unknown until
 * fprobe_probes__classify() finds why; a glob that matches none is said.
 */
static int fprobe_probes__expand_probe(struct fprobe_probes *probes,
				       struct fprobe_probe *probe)
{
	int i;

	for (i = 0; i < probe->nr_globs; i++) {
		const char *glob = probe->globs[i].glob;
		struct str_node *nd;
		int nr = 0;

		if (!strpbrk(glob, "*?[")) {
			enum fprobe_skip why = FPROBE_SKIP_NONE;
			int j;

			if (!strlist__has_entry(probes->avail, glob))
				why = FPROBE_SKIP_UNKNOWN;
			else if (fprobe_probes__excluded(probes, glob))
				why = FPROBE_SKIP_EXCLUDED;
			if (!why) {
				if (fprobe_probes__add_func(probes, glob, probe, i) < 0)
					return -1;
				continue;
			}
			for (j = 0; j < probes->nr_skipped; j++) {
				if (!strcmp(probes->skipped[j].name, glob))
					break;
			}
			if (j == probes->nr_skipped &&
			    !fprobe_probes__skip(probes, glob, probe, why))
				return -1;
			continue;
		}

		strlist__for_each_entry(nd, probes->avail) {
			if (!strglobmatch(nd->s, glob) || fprobe_probes__excluded(probes, nd->s))
				continue;
			if (fprobe_probes__add_func(probes, nd->s, probe, i) < 0)
				return -1;
			nr++;
		}
		if (!nr)
			pr_warning("perf fprobe: no traceable function matches '%s'%s\n", glob,
				   probes->notrace ? " (less --notrace-funcs)" : "");
	}
	return 0;
}

/*
 * Why each function named and skipped as unknown is not traceable: a
 * function symbol of the running kernel (kallsyms) that ftrace does not
 * list is notrace (or has no ftrace call site); one with no symbol that
 * the DWARF of vmlinux has inline is inlined everywhere. The rest are
 * unknown. One walk of kallsyms, and of the DWARF, for them all.
 */
static int fprobe_probes__classify(struct fprobe_probes *probes)
{
	struct fprobe_ksyms ks = {
		.names = strlist__new(NULL, NULL),
		.found = strlist__new(NULL, NULL),
	};
	struct strlist *inlined = NULL;
	struct fprobe_reader *dwarf;
	int i, err = -1;

	if (!ks.names || !ks.found)
		goto out_nomem;
	for (i = 0; i < probes->nr_skipped; i++) {
		if (probes->skipped[i].reason == FPROBE_SKIP_UNKNOWN &&
		    strlist__add(ks.names, probes->skipped[i].name) == -ENOMEM)
			goto out_nomem;
	}
	if (strlist__empty(ks.names)) {
		err = 0;
		goto out_delete;
	}
	if (kallsyms__parse("/proc/kallsyms", &ks, fprobe_ksyms__cb) < 0)
		pr_debug("failed to read /proc/kallsyms: functions not traceable are said to be unknown\n");
	for (i = 0; i < probes->nr_skipped; i++) {
		struct fprobe_skipped_func *s = &probes->skipped[i];

		if (s->reason != FPROBE_SKIP_UNKNOWN || !strlist__has_entry(ks.found, s->name))
			continue;
		s->reason = FPROBE_SKIP_NOTRACE;
		strlist__remove(ks.names, strlist__find(ks.names, s->name));
	}

	dwarf = strlist__empty(ks.names) ? NULL : fprobe_protos__dwarf(probes->protos);
	if (dwarf) {
		inlined = strlist__new(NULL, NULL);
		if (!inlined || fprobe_dwarf__find_inlined(dwarf, ks.names, inlined) == -ENOMEM)
			goto out_nomem;
		for (i = 0; i < probes->nr_skipped; i++) {
			struct fprobe_skipped_func *s = &probes->skipped[i];

			if (s->reason == FPROBE_SKIP_UNKNOWN &&
			    strlist__has_entry(inlined, s->name))
				s->reason = FPROBE_SKIP_INLINED;
		}
	}
	err = 0;
	goto out_delete;

out_nomem:
	pr_err("out of memory\n");
out_delete:
	strlist__delete(inlined);
	strlist__delete(ks.found);
	strlist__delete(ks.names);
	return err;
}

static int fprobe_target_func__cmp(const void *a, const void *b)
{
	const struct fprobe_target_func * const *fa = a, * const *fb = b;

	return strcmp((*fa)->name, (*fb)->name);
}

/* Skip @f, over the cap */
static int fprobe_probes__skip_capped(struct fprobe_probes *probes,
				      struct fprobe_target_func *f)
{
	f->skip = FPROBE_SKIP_CAP;
	return fprobe_probes__skip(probes, f->name, f->probe, FPROBE_SKIP_CAP) ? 0 : -1;
}

/*
 * The cap on the functions attached (probes->max_funcs). The tracefs
 * fallback's is on the run: the functions past it, in the order of the
 * probes, are skipped. The fprobe PMU's is on each event: it attaches by
 * the filter, so those skipped are the last ones by name, all the
 * functions of a name alike (counted as the kernel counts them, each
 * function ftrace lists under the name), and the filter leaves out every
 * function from the first of them on (probe->cap_bound) by name.
 */
static int fprobe_probes__apply_cap(struct fprobe_probes *probes)
{
	struct fprobe_target_func **sorted;
	struct fprobe_probe *probe;
	int i, n, nr, err = 0;

	if (probes->max_funcs < 0)
		return 0;
	if (!probes->max_per_probe) {
		/* the functions skipped already take no room */
		for (i = 0, n = 0; i < probes->nr_funcs && !err; i++) {
			if (probes->funcs[i].skip)
				continue;
			if (n++ >= probes->max_funcs)
				err = fprobe_probes__skip_capped(probes, &probes->funcs[i]);
		}
		return err;
	}

	sorted = calloc(probes->nr_funcs, sizeof(*sorted));
	if (!sorted && probes->nr_funcs) {
		pr_err("out of memory\n");
		return -1;
	}
	list_for_each_entry(probe, &probes->list, list) {
		for (i = 0, n = 0, nr = 0; i < probes->nr_funcs; i++) {
			if (probes->funcs[i].probe != probe || probes->funcs[i].skip)
				continue;
			sorted[n++] = &probes->funcs[i];
			nr += fprobe_probes__nr_addrs(probes, probes->funcs[i].name);
		}
		if (nr <= probes->max_funcs)
			continue;
		qsort(sorted, n, sizeof(*sorted), fprobe_target_func__cmp);
		for (i = 0, nr = 0; i < n; i++) {
			nr += fprobe_probes__nr_addrs(probes, sorted[i]->name);
			if (nr > probes->max_funcs)
				break;
		}
		probe->cap_bound = strdup(sorted[i]->name);
		if (!probe->cap_bound) {
			err = -1;
			break;
		}
		for (; i < n && !err; i++)
			err = fprobe_probes__skip_capped(probes, sorted[i]);
		if (err)
			break;
	}
	free(sorted);
	return err;
}

/* Take the functions skipped out of probes->funcs */
static int fprobe_probes__drop_skipped(struct fprobe_probes *probes)
{
	int i, n = 0;

	for (i = 0; i < probes->nr_funcs; i++) {
		struct fprobe_target_func *f = &probes->funcs[i];

		if (!f->skip) {
			if (n != i)
				probes->funcs[n] = *f;
			n++;
			continue;
		}
		f->probe->nr_funcs--;
		f->probe->globs[f->glob_idx].nr_funcs--;
		free(f->name);
		free(f->event);
		for (int j = 0; j < FPROBE_CALL_MAX_FETCH; j++)
			free(f->fetch_args[j]);
		fprobe_func__delete(f->proto);
	}
	if (n == probes->nr_funcs)
		return 0;
	probes->nr_funcs = n;
	/* the indexes changed */
	hashmap__clear(probes->func_names);
	for (i = 0; i < n; i++) {
		if (hashmap__add(probes->func_names, probes->funcs[i].name, (long)i) < 0) {
			pr_err("out of memory\n");
			return -1;
		}
	}
	return 0;
}

static const char * const fprobe_skip_names[FPROBE_SKIP__MAX] = {
	[FPROBE_SKIP_UNKNOWN]	= "unknown",
	[FPROBE_SKIP_NOTRACE]	= "not traceable",
	[FPROBE_SKIP_INLINED]	= "inlined",
	[FPROBE_SKIP_AMBIGUOUS]	= "ambiguous",
	[FPROBE_SKIP_EXCLUDED]	= "excluded by -N",
	[FPROBE_SKIP_CAP]	= "over the cap",
};

/* Why @s is not traced, in words */
static const char *fprobe_probes__why(struct fprobe_probes *probes,
				      const struct fprobe_skipped_func *s,
				      char *buf, size_t size)
{
	size_t len;

	switch (s->reason) {
	case FPROBE_SKIP_UNKNOWN:
		return "unknown function: not in available_filter_functions nor in kallsyms";
	case FPROBE_SKIP_NOTRACE:
		scnprintf(buf, size, "%s",
			  "not traceable: notrace, or no ftrace call site (in kallsyms, not in available_filter_functions)");
		return buf;
	case FPROBE_SKIP_INLINED:
		scnprintf(buf, size,
			  "not traceable: inlined everywhere (no symbol; the DWARF of %s has it inline)",
			  probes->protos->dwarf->path);
		return buf;
	case FPROBE_SKIP_AMBIGUOUS:
		len = scnprintf(buf, size, "ambiguous: ");
		fprobe_protos__notuniq(probes->protos, s->notuniq_btf, buf + len, size - len);
		return buf;
	case FPROBE_SKIP_EXCLUDED:
		scnprintf(buf, size, "excluded by --notrace-funcs '%s'", probes->notrace);
		return buf;
	case FPROBE_SKIP_CAP:
		scnprintf(buf, size, "over the cap: %s attaches at most %d functions",
			  probes->max_what ?: "perf fprobe", probes->max_funcs);
		return buf;
	case FPROBE_SKIP_NONE:
	case FPROBE_SKIP__MAX:
	default:
		return "?";
	}
}

/* Say the functions named and skipped, from skipped[@from] on (not over the cap) */
static void fprobe_probes__warn_skipped(struct fprobe_probes *probes, int from)
{
	char buf[PATH_MAX + 256];
	int i;

	for (i = from; i < probes->nr_skipped; i++) {
		const struct fprobe_skipped_func *s = &probes->skipped[i];

		if (s->reason == FPROBE_SKIP_CAP)
			continue;
		pr_warning("perf fprobe: skipped %s: %s\n", s->name,
			   fprobe_probes__why(probes, s, buf, sizeof(buf)));
		if (s->reason == FPROBE_SKIP_UNKNOWN)
			fprobe_probes__suggest_funcs(probes, s->name);
	}
}

/* "skipped N (n1 reason1, n2 reason2)", or "skipped 0" */
static const char *fprobe_probes__skipped_str(const struct fprobe_probes *probes,
					      char *buf, size_t size)
{
	int nr[FPROBE_SKIP__MAX] = { 0 };
	int i, n = 0;
	size_t len;

	for (i = 0; i < probes->nr_skipped; i++)
		nr[probes->skipped[i].reason]++;
	len = scnprintf(buf, size, "skipped %d", probes->nr_skipped);
	for (i = 0; i < FPROBE_SKIP__MAX; i++) {
		if (nr[i])
			len += scnprintf(buf + len, size - len, "%s%d %s", n++ ? ", " : " (",
					 nr[i], fprobe_skip_names[i]);
	}
	if (n)
		scnprintf(buf + len, size - len, ")");
	return buf;
}

void fprobe_probes__print_summary(struct fprobe_probes *probes, const char *attached)
{
	char buf[PATH_MAX + 256], addrs[64] = "";
	int i, nr = 0;

	/* a name of several functions attaches each, as the PMU's cap counts them */
	for (i = 0; i < probes->nr_funcs; i++)
		nr += fprobe_probes__nr_addrs(probes, probes->funcs[i].name);
	if (nr != probes->nr_funcs)
		scnprintf(addrs, sizeof(addrs), " (%d addresses: names of several functions)", nr);
	pr_info("perf fprobe: %s %d function%s%s, %s\n", attached, probes->nr_funcs,
		probes->nr_funcs == 1 ? "" : "s", addrs,
		fprobe_probes__skipped_str(probes, buf, sizeof(buf)));
	if (verbose <= 0)
		return;
	for (i = 0; i < probes->nr_skipped; i++) {
		const struct fprobe_skipped_func *s = &probes->skipped[i];

		pr_info("perf fprobe:   skipped %s: %s\n", s->name,
			fprobe_probes__why(probes, s, buf, sizeof(buf)));
	}
}

void fprobe_probes__print_funcs(struct fprobe_probes *probes, FILE *fp)
{
	char buf[PATH_MAX + 256];
	int i;

	for (i = 0; i < probes->nr_funcs; i++)
		fprintf(fp, "%s\n", probes->funcs[i].name);
	for (i = 0; i < probes->nr_skipped; i++) {
		const struct fprobe_skipped_func *s = &probes->skipped[i];

		fprintf(fp, "%s\tskipped: %s\n", s->name,
			fprobe_probes__why(probes, s, buf, sizeof(buf)));
	}
}

/*
 * The filter of the fprobe PMU event of @probe: its globs that attach
 * functions, and past the cap, "!" globs that take out every function from
 * cap_bound on by name: those that have it as a prefix, and for each of
 * its characters, those that have the characters before it and then a
 * greater one. The names of the kernel's functions are of [A-Za-z0-9_.].
 * Then the globs of the scope (-G, @probes_scope), each after a '@'.
 */
static int fprobe_probe__make_filter(struct fprobe_probe *probe, struct strlist *probes_scope)
{
	const char *bound = probe->cap_bound;
	struct strbuf sb;
	int i;

	if (strbuf_init(&sb, 64) < 0)
		goto out_nomem;
	for (i = 0; i < probe->nr_globs; i++) {
		if (probe->globs[i].nr_funcs)
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "", probe->globs[i].glob);
	}
	if (bound) {
		size_t len = strlen(bound), j;

		if (strspn(bound, FPROBE_NAME_CHARS) != len) {
			pr_err("'%s' matches more functions than the cap, and %s is a name the filter cannot cut at\n",
			       probe->spec, bound);
			strbuf_release(&sb);
			return -1;
		}
		strbuf_addf(&sb, ",!%s*", bound);
		for (j = 0; j < len; j++)
			strbuf_addf(&sb, ",!%.*s[%c-~]*", (int)j, bound, bound[j] + 1);
	}
	/* the functions another probe traces */
	if (probe->taken) {
		struct str_node *nd;

		strlist__for_each_entry(nd, probe->taken)
			strbuf_addf(&sb, ",!%s", nd->s);
	}
	/* the scope, then the fetch arguments of its entry records */
	if (probes_scope) {
		struct str_node *nd;

		strlist__for_each_entry(nd, probes_scope)
			strbuf_addf(&sb, ",@%s", nd->s);
	}
	if (probe->fetch_args)
		strbuf_addf(&sb, ";%s", probe->fetch_args);
	free(probe->filter);
	probe->filter = strbuf_detach(&sb, NULL);
	if (probe->filter)
		return 0;
out_nomem:
	pr_err("out of memory\n");
	return -1;
}

/**
 * fprobe_probes__prepare - find the functions the probes trace, and their parameters
 * @probes: the probes of the run, at least one
 * @stop: set (by a signal handler) to stop preparing
 *
 * Expands each probe to the traceable functions it matches, less those of
 * the not-filter, skips those over the cap (probes->max_funcs), then finds
 * the parameters it names in DWARF or BTF: probes->funcs then lists the
 * functions, each with its probe, prototype and the index of each
 * parameter in it; each probe's nargs is the number of arguments to
 * capture, and its filter that of its fprobe PMU event. The functions
 * named that cannot be traced are in probes->skipped with the reason, and
 * said; so are those over the cap, unsaid. Errors are said.
 *
 * Return: 0, or -1 (also when no function is left to trace).
 */
int fprobe_probes__prepare(struct fprobe_probes *probes, const sig_atomic_t *stop)
{
	struct fprobe_probe *probe;
	char buf[256];
	int i, warned, pass;

	if (list_empty(&probes->list)) {
		pr_err("no probe: give at least one -a 'FUNC|GLOB [PARAM...]'\n");
		return -1;
	}
	if (fprobe_probes__load_avail(probes) < 0)
		return -1;
	if (fprobe_probes__check_scope(probes) < 0)
		return -1;
	if (fprobe_probes__split_notrace(probes) < 0) {
		pr_err("out of memory\n");
		return -1;
	}
	list_for_each_entry(probe, &probes->list, list) {
		if (fprobe_probes__expand_probe(probes, probe) < 0)
			return -1;
	}
	if (fprobe_probes__classify(probes) < 0)
		return -1;
	fprobe_probes__warn_skipped(probes, 0);
	warned = probes->nr_skipped;
	/*
	 * The functions named alone first: one that is skipped (several of
	 * its name, with parameters) takes no room under the cap; the others
	 * are looked up after it, only those in it
	 */
	for (pass = 0; pass < 2; pass++) {
		if (pass && fprobe_probes__apply_cap(probes) < 0)
			return -1;
		for (i = 0; i < probes->nr_funcs; i++) {
			struct fprobe_target_func *f = &probes->funcs[i];

			if (stop && *stop) {
				pr_err("interrupted\n");
				return -1;
			}
			if (f->skip || fprobe_probe__is_multi(f->probe) != pass)
				continue;
			if (fprobe_probes__resolve_params(probes, f) < 0)
				return -1;
		}
	}
	fprobe_probes__warn_skipped(probes, warned);
	if (fprobe_probes__drop_skipped(probes) < 0)
		return -1;
	if (!probes->nr_funcs) {
		if (probes->nr_skipped)
			pr_err("no function can be attached: %s\n",
			       fprobe_probes__skipped_str(probes, buf, sizeof(buf)));
		else
			pr_err("no function can be attached: no probe matches a traceable function\n");
		return -1;
	}
	if (fprobe_probes__check_params(probes) < 0 || fprobe_probes__check_fetch(probes) < 0)
		return -1;
	list_for_each_entry(probe, &probes->list, list) {
		if (probe->nr_funcs && fprobe_probe__make_filter(probe, probes->scope) < 0)
			return -1;
	}
	return 0;
}

void fprobe_probes__init(struct fprobe_probes *probes, struct fprobe_protos *protos)
{
	memset(probes, 0, sizeof(*probes));
	INIT_LIST_HEAD(&probes->list);
	probes->protos = protos;
	probes->max_funcs = -1;
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
		for (int j = 0; j < FPROBE_CALL_MAX_FETCH; j++)
			free(probes->funcs[i].fetch_args[j]);
		free(probes->funcs[i].name);
		free(probes->funcs[i].event);
		fprobe_func__delete(probes->funcs[i].proto);
	}
	zfree(&probes->funcs);
	probes->nr_funcs = 0;
	probes->alloc_funcs = 0;
	hashmap__free(probes->func_names);
	probes->func_names = NULL;
	for (i = 0; i < probes->nr_skipped; i++)
		free(probes->skipped[i].name);
	zfree(&probes->skipped);
	probes->nr_skipped = 0;
	probes->alloc_skipped = 0;
	hashmap__free(probes->avail_dups);
	probes->avail_dups = NULL;
	strlist__delete(probes->avail);
	probes->avail = NULL;
	strlist__delete(probes->notrace_globs);
	probes->notrace_globs = NULL;
	strlist__delete(probes->scope);
	probes->scope = NULL;
}
