/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_PROBE_H
#define __PERF_FPROBE_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/list.h>

#include "fprobe-call.h"

struct fprobe_reader;
struct fprobe_func;
struct hashmap;
struct perf_probe_arg_field;
struct strlist;

/* One FUNC or GLOB of a probe's list */
struct fprobe_glob {
	char			*glob;
	int			nr_funcs;	/* the functions attached by it */
};

/*
 * One PARAM of a probe that is more than a parameter's name, in perf probe's
 * syntax: [NAME=]PARAM[->member|.member|[N]...][:TYPE]
 */
struct fprobe_fetch {
	char			*spec;		/* as given */
	char			*name;		/* the field: NAME, or the last member's */
	char			*param;		/* the parameter it starts from */
	char			*type;		/* :TYPE, or NULL for the member's own */
	struct perf_probe_arg_field *fields;	/* the member path, or NULL */
};

/* One -a 'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]' */
struct fprobe_probe {
	struct list_head	list;
	char			*spec;
	char			*glob;		/* the list as given */
	int			nr_globs;
	struct fprobe_glob	*globs;		/* the list, apart */
	int			nr_params;
	char			**params;
	int			nr_fetch;
	struct fprobe_fetch	*fetch;
	/* PMU: the fetch arguments of every function, apart by blanks */
	char			*fetch_args;
	int			nargs;		/* PMU: arguments to capture */
	int			nr_funcs;	/* the functions it attaches */
	char			*cap_bound;	/* the first function over the cap */
	struct strlist		*taken;		/* functions it matches another probe traces */
	char			*filter;	/* PMU: config1 string */
};

/*
 * Why a function that a probe names or matches is not attached. Only the
 * functions named are said (as warnings), and counted, when unknown, not
 * traceable or taken out by -N; a glob's matches are all traceable, and
 * those of -N are not its.
 */
enum fprobe_skip {
	FPROBE_SKIP_NONE,
	FPROBE_SKIP_UNKNOWN,	/* no function of the name */
	FPROBE_SKIP_NOTRACE,	/* in kallsyms, not in available_filter_functions */
	FPROBE_SKIP_INLINED,	/* no symbol: the DWARF of vmlinux has it inline only */
	FPROBE_SKIP_AMBIGUOUS,	/* parameters asked of several functions of the name */
	FPROBE_SKIP_EXCLUDED,	/* taken out by -N */
	FPROBE_SKIP_CAP,	/* over the cap on the functions attached */
	FPROBE_SKIP__MAX,
};

/* One function to trace, from a probe */
struct fprobe_target_func {
	char			*name;
	struct fprobe_probe	*probe;
	int			glob_idx;	/* in probe->globs: what matched it */
	enum fprobe_skip	skip;		/* set while preparing: not traced */
	struct fprobe_func	*proto;		/* NULL: neither DWARF nor BTF */
	int			param_idx[FPROBE_CALL_MAX_ARGS];	/* -1: not had */
	/* the fetch argument of each of probe->fetch (tracefs syntax), NULL: not had */
	char			*fetch_args[FPROBE_CALL_MAX_FETCH];
	char			*event;		/* tracefs event name */
	bool			added;		/* entry event in dynamic_events */
	bool			added_exit;
};

/* One function not traced, and why */
struct fprobe_skipped_func {
	char			*name;
	struct fprobe_probe	*probe;
	enum fprobe_skip	reason;
	bool			notuniq_btf;	/* AMBIGUOUS: BTF's prototypes differ */
};

/*
 * Where the prototypes of traced functions come from: the DWARF of vmlinux
 * (vmlinux, or the running kernel's found where perf probe looks), else its
 * BTF (/sys/kernel/btf/vmlinux, what distribution kernels ship); with
 * use_btf, BTF only (that of vmlinux when given). Each is read once, when
 * first wanted.
 */
struct fprobe_protos {
	const char		*vmlinux;	/* -k */
	bool			use_btf;	/* --btf */
	struct fprobe_reader	*dwarf;
	bool			dwarf_tried;
	struct fprobe_reader	*btf;
	bool			btf_tried;
	bool			notuniq_btf;	/* the last ENOTUNIQ was BTF's */
};

/* Whether a source of prototypes can be read; said (for @what) if none */
bool fprobe_protos__have(struct fprobe_protos *protos, const char *what);
/*
 * The prototype of @name from DWARF or BTF; NULL with errno ENOENT: unknown,
 * ENOTUNIQ: several of the name (then fprobe_protos__say_notuniq() says why)
 */
struct fprobe_func *fprobe_protos__find_func(struct fprobe_protos *protos, const char *name);
void fprobe_protos__say_notuniq(struct fprobe_protos *protos, const char *name);
/* What the prototype of @func (NULL: of any) is read from, for messages */
const char *fprobe_protos__desc(struct fprobe_protos *protos, const struct fprobe_func *func,
				char *buf, size_t size);
void fprobe_protos__exit(struct fprobe_protos *protos);

/* The probes of a run, and the traceable functions they match */
struct fprobe_probes {
	struct list_head	list;		/* of struct fprobe_probe, by -a */
	const char		*notrace;	/* -N: globs apart by ',' or blanks */
	struct strlist		*scope;		/* -G: the globs of the scope, or NULL */
	struct strlist		*notrace_globs;	/* split by fprobe_probes__prepare() */
	/* prototypes of every function (tracefs: its return type), not only with params */
	bool			all_protos;
	struct fprobe_protos	*protos;
	struct strlist		*avail;		/* available_filter_functions */
	/* name -> number, of the names it lists several times */
	struct hashmap		*avail_dups;
	/*
	 * The most functions attached, -1 for no cap: by the fprobe PMU event
	 * of each probe, counted by address as the kernel does (max_per_probe),
	 * or by the run (the tracefs fallback's); max_what says whose it is
	 */
	int			max_funcs;
	bool			max_per_probe;
	const char		*max_what;
	int			nr_funcs;
	int			alloc_funcs;
	struct fprobe_target_func *funcs;
	struct hashmap		*func_names;	/* name -> index in funcs */
	int			nr_skipped;
	int			alloc_skipped;
	struct fprobe_skipped_func *skipped;
};

void fprobe_probes__init(struct fprobe_probes *probes, struct fprobe_protos *protos);
void fprobe_probes__exit(struct fprobe_probes *probes);
int  fprobe_probes__add(struct fprobe_probes *probes, const char *str);
/* -G FUNC|GLOB[,...]: record only the calls made inside those functions */
int  fprobe_probes__add_scope(struct fprobe_probes *probes, const char *str);
/* Reads probes->avail, unless it is set already */
int  fprobe_probes__load_avail(struct fprobe_probes *probes);
int  fprobe_probes__prepare(struct fprobe_probes *probes, const sig_atomic_t *stop);
/* --dry-run: each function, and each one skipped with the reason */
void fprobe_probes__print_funcs(struct fprobe_probes *probes, FILE *fp);
/* "attached N functions, skipped M (...)" (@attached: the verb), -v: the skipped */
void fprobe_probes__print_summary(struct fprobe_probes *probes, const char *attached);
int  fprobe_probes__list(struct fprobe_probes *probes, const char *glob);
int  fprobe_probes__show_vars(struct fprobe_probes *probes, const char *name);
void fprobe_probes__suggest_funcs(struct fprobe_probes *probes, const char *name);
bool fprobe_probe__is_glob(const struct fprobe_probe *probe);
/* Whether the probe may match several functions: a glob, or a list */
bool fprobe_probe__is_multi(const struct fprobe_probe *probe);

/* Print up to 5 names of @cands close to @name, "close matches among @what" */
void fprobe__print_close_matches(const char *name, const char **cands, int nr,
				 const char *what);

size_t fprobe__str_hash(long key, void *ctx);
bool fprobe__str_equal(long a, long b, void *ctx);

/* In util/fprobe-param.c, for util/fprobe-probe.c */
struct fprobe_reader *fprobe_protos__dwarf(struct fprobe_protos *protos);
const char *fprobe_protos__notuniq(struct fprobe_protos *protos, bool btf,
				   char *buf, size_t size);
int fprobe_probes__resolve_params(struct fprobe_probes *probes,
				  struct fprobe_target_func *f);
int fprobe_probes__check_params(struct fprobe_probes *probes);
int fprobe_probes__check_fetch(struct fprobe_probes *probes);

/* In util/fprobe-probe.c, for util/fprobe-param.c */
struct fprobe_skipped_func *fprobe_probes__skip(struct fprobe_probes *probes,
						const char *name,
						struct fprobe_probe *probe,
						enum fprobe_skip reason);

#endif /* __PERF_FPROBE_PROBE_H */
