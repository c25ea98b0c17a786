/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_RECORD_H
#define __PERF_FPROBE_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "target.h"

struct evsel;
struct fprobe_call;
struct fprobe_func;
struct fprobe_probe;
struct fprobe_probes;
struct fprobe_target_func;
struct machine;
struct perf_event_attr;
struct perf_sample;

/* The tracefs group of the fallback's events, and their return value field */
#define FPROBE_GROUP		"perf_fprobe"
#define FPROBE_RETVAL		"retval"
/*
 * The events of the fprobe PMU are named FPROBE_PMU_EVSEL:GLOB, or with
 * parameters FPROBE_PMU_EVSEL:GLOB(NAME,...): the report shows those only
 */
#define FPROBE_PMU_EVSEL	"fprobe"

/* --call-graph: the callchain of each call */
enum fprobe_call_graph {
	FPROBE_CALL_GRAPH_KERNEL,	/* the kernel part only (the default) */
	FPROBE_CALL_GRAPH_NONE,		/* none: the cheapest records */
	FPROBE_CALL_GRAPH_FP,		/* and the user part, by frame pointers */
	FPROBE_CALL_GRAPH_DWARF,	/* and the user part, unwound from DWARF */
};

/* What and how perf fprobe records */
struct fprobe_record_opts {
	struct target	target;
	const char	*tid_target;	/* -t as given, before target__validate() */
	unsigned int	mmap_pages;	/* -m, per CPU; 0: perf's default */
	int		duration;	/* s; 0: until the command or the tasks end */
	bool		no_inherit;	/* -t: not the threads they create */
	/* the fprobe PMU and what its formats say it has */
	int		pmu_type;
	bool		pmu_filters;	/* errors and min_duration */
	bool		pmu_exclude_opener;
	enum fprobe_call_graph call_graph;
	u32		stack_dump_size; /* --call-graph dwarf: user stack bytes */
	/* the kernel-side filters, with pmu_filters */
	bool		errors;
	u64		min_latency;	/* ns */
	/* set by a signal handler: stop recording */
	const sig_atomic_t *interrupted;
};

/*
 * perf fprobe trace: fprobe_pmu__record() with no file hands the events of
 * the ring buffers to their reader, in time order within each pass over
 * the ring buffers
 */
struct fprobe_live {
	/* the comms and maps of the events go here: the reader's */
	struct machine	*machine;
	/* each sample of an fprobe PMU event; a negative return stops */
	int		(*sample)(struct fprobe_live *live, struct evsel *evsel,
				  struct perf_sample *sample, struct machine *machine);
	/* once the events are open, before the first one is read; or NULL */
	void		(*start)(struct fprobe_live *live);
	/* a kernel symbol came or went; or NULL */
	void		(*ksymbol)(struct fprobe_live *live);
	/* before @evsel is deleted, for what sample() left in evsel->priv; or NULL */
	void		(*evsel_delete)(struct fprobe_live *live, struct evsel *evsel);
	u64		nr_lost;	/* records lost, and calls fprobe missed */
	u64		nr_bad;		/* events that did not parse */
};

/* A call as perf fprobe trace (with @comm) and --calls print it */
void fprobe_call__fprintf(const struct fprobe_call *c, u32 arg_mask,
			  const struct fprobe_func *proto, const char *comm, FILE *fp);
/* Its "func(args) = ret" alone, as perf script shows a sample's */
void fprobe_call__fprintf_call(const struct fprobe_call *c, u32 arg_mask,
			       const struct fprobe_func *proto, bool color, FILE *fp);

/* The fprobe PMU */
int   fprobe_pmu__set_filters(struct fprobe_probes *probes);
int   fprobe_pmu__max_funcs(void);
/* The most fetch arguments (members, strings) the PMU takes: 0 for none */
int   fprobe_pmu__max_fetch(void);
/* Whether the PMU takes '@' globs, a scope (-G) */
bool  fprobe_pmu__has_scope(void);
int   fprobe_pmu__attr(const struct fprobe_probe *probe, const struct fprobe_probes *probes,
		       const struct fprobe_record_opts *opts, struct perf_event_attr *attr);
char *fprobe_pmu__event_name(const struct fprobe_probe *probe);
int   fprobe__parse_call_graph(const char *str, enum fprobe_call_graph *mode,
			       u32 *dump_size);
int   fprobe_pmu__record(struct fprobe_probes *probes, const struct fprobe_record_opts *ropts,
			 const char *output, struct fprobe_live *live, int argc,
			 const char **argv);

/* The tracefs fallback: fprobe events recorded by perf record */
void fprobe_tracefs__event_defs(const struct fprobe_target_func *f, char *entry, char *exit,
				size_t *exit_len, size_t size);
int  fprobe_tracefs__add_events(struct fprobe_probes *probes,
				const sig_atomic_t *interrupted);
void fprobe_tracefs__remove_events(struct fprobe_probes *probes);
const char **fprobe_tracefs__record_argv(const struct fprobe_probes *probes,
					 const struct fprobe_record_opts *opts,
					 const char *output, int argc,
					 const char **argv, int *rec_argc);
bool fprobe_tracefs__is_exit(const char *name);
int  fprobe_tracefs__fixup_periods(const char *path);

/* In util/fprobe-record.c, for util/fprobe-tracefs.c */
unsigned int fprobe__mmap_pages(const struct fprobe_record_opts *opts);

#endif /* __PERF_FPROBE_RECORD_H */
