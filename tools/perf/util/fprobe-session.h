/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FPROBE_SESSION_H
#define __PERF_FPROBE_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

struct evsel;
struct fprobe_call;
struct fprobe_func;
struct fprobe_protos;
struct fprobe_report;
struct fprobe_report_opts;
struct fprobe_session;
struct machine;
struct perf_env;
struct perf_sample;
struct perf_session;

/*
 * Reading a recording of perf fprobe back, as calls: the samples of the
 * fprobe PMU, or the entry and exit events of the tracefs fallback paired
 * per thread. The reader's state is struct fprobe_session's.
 */

/*
 * Each call read that the filters keep, with the arguments of it to show
 * (bit 0 for args[0]) and its prototype, or NULL; a negative return stops
 * the reading
 */
typedef int (*fprobe_session_call_fn)(const struct fprobe_call *call, u32 arg_mask,
				      const struct fprobe_func *proto, void *arg);

/* How the calls of a recording are read, and where they go */
struct fprobe_session_opts {
	struct fprobe_protos	*protos;	/* the prototypes of the functions */
	/* the calls of its tids and times only; checked as the calls come */
	const struct fprobe_report_opts *ropts;
	bool			need_protos;	/* the output shows args or types */
	bool			errors;		/* only calls returning an error */
	/* keep each call for fprobe_session__print_calls() */
	bool			list_calls;
	/* each call, in place of the report (perf fprobe trace); or NULL */
	fprobe_session_call_fn	call;
	void			*call_arg;
};

/* What was read, for the summary of a report or of perf fprobe trace */
struct fprobe_session_stats {
	u64			nr_calls;
	u64			nr_incomplete;	/* without entry or exit */
	/* tracefs: calls cut by the ends of the recording, not shown */
	u64			nr_open_at_end;
	u64			nr_begun_before;
	u64			nr_lost;	/* records */
	u64			nr_lost_ring;	/* in PERF_RECORD_LOST */
	u64			nr_lost_samples; /* in PERF_RECORD_LOST_SAMPLES */
	u64			nr_throttled;	/* PERF_RECORD_THROTTLE */
	u64			nr_bad;		/* undecodable records */
};

struct fprobe_session *fprobe_session__new(const struct fprobe_session_opts *opts);
void fprobe_session__delete(struct fprobe_session *fs);
const struct fprobe_session_stats *fprobe_session__stats(const struct fprobe_session *fs);

/*
 * Opens the recording @path for fprobe_session__process(): the perf
 * session, owned by @fs, or NULL after saying why (no such file, no
 * perf fprobe event in it)
 */
struct perf_session *fprobe_session__open(struct fprobe_session *fs, const char *path);
/*
 * Reads the recording until its end or *@interrupted (the samples read
 * then still delivered), its calls going to opts->call or else to @rep,
 * which @fs then settles the threads of (fprobe_report__settle()); the
 * tracefs entries it ends before their exits are counted, not shown
 */
int fprobe_session__process(struct fprobe_session *fs, struct fprobe_report *rep,
			    const sig_atomic_t *interrupted);

/* perf fprobe trace: a sample of the fprobe PMU as it comes (struct fprobe_live) */
int  fprobe_session__sample(struct fprobe_session *fs, struct evsel *evsel,
			    struct perf_sample *sample, struct machine *machine);
/* A kernel symbol came or went: forget those looked up */
void fprobe_session__forget_syms(struct fprobe_session *fs);
/* Frees what fprobe_session__sample() left in evsel->priv */
void fprobe_session__evsel_delete(struct evsel *evsel);

/* --calls: the calls kept with opts->list_calls, by entry time, after fprobe_report__finish() */
void fprobe_session__print_calls(struct fprobe_session *fs, FILE *fp);

/* perf script: the call each sample of the fprobe PMU records */
struct fprobe_script;

/* Whether @evsel is an event of the fprobe PMU that perf fprobe recorded */
bool evsel__is_fprobe_pmu(struct evsel *evsel);
/*
 * With the prototypes of @vmlinux's DWARF, or else the running kernel's
 * DWARF or BTF if the recording @path was made on it (@env's release)
 */
struct fprobe_script *fprobe_script__new(const char *vmlinux, struct perf_env *env,
					 const char *path);
void fprobe_script__delete(struct fprobe_script *sc);
int fprobe_script__fprintf(struct fprobe_script *sc, struct evsel *evsel,
			   struct perf_sample *sample, struct machine *machine, FILE *fp);

#endif /* __PERF_FPROBE_SESSION_H */
