// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-fprobe.c: trace kernel function calls with their arguments,
 * return values and durations, and show them as a call graph.
 *
 * perf fprobe builds one probe per -a 'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]',
 * checks the functions against available_filter_functions, skipping (and
 * saying) those it cannot trace, and their parameters against the DWARF of
 * vmlinux or its BTF (util/fprobe-probe.c), then
 * records into a perf.data file (util/fprobe-record.c), with the fprobe PMU
 * or, without it, through fprobe events in tracefs that perf record
 * records; perf fprobe trace prints the calls of the PMU's events as they
 * come instead.
 *
 * perf fprobe report reads such a file back as calls (util/fprobe-session.c)
 * and hands them to util/fprobe-report.c for the tree, histograms and
 * flame graphs; --calls lists every call with its arguments by type.
 */
#include "builtin.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>

#include <subcmd/pager.h>
#include <subcmd/parse-options.h>

#include "util/callchain.h"
#include "util/debug.h"
#include "util/evlist.h"
#include "util/intlist.h"
#include "util/machine.h"
#include "util/pmu.h"
#include "util/pmus.h"
#include "util/session.h"
#include "util/symbol.h"
#include "util/target.h"
#include "util/thread.h"
#include "util/time-utils.h"
#include "util/util.h"
#include "util/fprobe-bpf.h"
#include "util/fprobe-call.h"
#include "util/fprobe-probe.h"
#include "util/fprobe-record.h"
#include "util/fprobe-report.h"
#include "util/fprobe-session.h"

/* The tracefs path makes two events per function: keep it sane */
#define FPROBE_MAX_TRACEFS_FUNCS	128
/* -b: the most functions of a BPF kprobe_multi link (MAX_KPROBE_MULTI_CNT) */
#define FPROBE_MAX_BPF_FUNCS		(1 << 20)

enum fprobe_output {
	FPROBE_OUT_TREE		= 1 << 0,
	FPROBE_OUT_HIST		= 1 << 1,
	FPROBE_OUT_CALLS	= 1 << 2,
	FPROBE_OUT_FOLDED	= 1 << 3,
	FPROBE_OUT_FLAME	= 1 << 4,
	FPROBE_OUT_CHROME	= 1 << 5,
	FPROBE_OUT_CSV		= 1 << 6,
};

struct perf_fprobe {
	struct fprobe_protos	protos;		/* -k, --btf */
	struct fprobe_probes	probes;		/* -a, -N */
	struct target		target;
	const char		*output_path;	/* -o */
	const char		*input;
	const char		*show_vars;
	const char		*list_glob;
	int			duration;
	unsigned int		mmap_pages;	/* -m, per CPU; 0: perf's default */
	enum fprobe_call_graph	call_graph;	/* --call-graph */
	u32			stack_dump_size; /* --call-graph dwarf,SIZE */
	bool			call_graph_set;	/* --call-graph given */
	bool			force_tracefs;
	bool			use_bpf;	/* -b: count every call in the kernel */
	/* why the fprobe PMU is not used, when it is not (fprobe__find_pmu()) */
	const char		*no_pmu;
	char			no_pmu_buf[128];
	bool			dry_run;	/* list what would be attached */
	bool			no_inherit;	/* -t: not the threads they create */
	const char		*tid_target;	/* -t as given, before target__validate() */
	bool			record_only;
	bool			report_only;
	bool			live;		/* perf fprobe trace */
	struct machine		*machine;	/* live: symbols and comms */
	struct fprobe_live	live_ops;	/* live: the recording's reader */
	/* report */
	struct fprobe_report_opts ropts;
	int			report_mask;	/* FPROBE_OUT_*: the reports asked for */
	const char		*flame_file;
	const char		*chrome_file;
	const char		*min_latency_str;
	const char		*tid_str;	/* report --tid: ropts.tids */
	int			*tids;
	const char		*time_str;	/* report --time: ropts.times */
	struct perf_time_interval *times;
	bool			errors;		/* --errors */
	bool			stdio;		/* --stdio: what is done anyway */
	const char		*tmp_data;	/* the temporary recording */
	bool			need_protos;	/* the output shows args or types */
	struct fprobe_session	*fs;		/* the recording read */
	struct fprobe_report	*rep;
};

/*
 * --duration: perf record stops on SIGINT as on Ctrl-C, so the timer turns
 * into one, delivered to the thread polling the ring buffers.
 */
static sig_atomic_t fprobe_interrupted;
static sig_atomic_t fprobe_has_workload;

static void fprobe__alarm(int sig __maybe_unused)
{
	/*
	 * perf record ends on SIGCHLD as on SIGINT, but exits by SIGINT
	 * afterwards: without a workload, end it as if one had exited.
	 */
	raise(fprobe_has_workload ? SIGINT : SIGCHLD);
}

/* Ctrl-C before recording starts: stop setting up, remove the events */
static void fprobe__sigint(int sig __maybe_unused)
{
	fprobe_interrupted = 1;
}

/* Ctrl-C while reading a recording: stop reading, report what was read */
static sig_atomic_t fprobe_report_interrupted;

static void fprobe__report_sigint(int sig __maybe_unused)
{
	fprobe_report_interrupted = 1;
	session_done = 1;
}

static int fprobe__write_file(struct perf_fprobe *fprobe, const char *path,
			      bool svg)
{
	FILE *fp = fopen(path, "w");
	int err;

	if (!fp) {
		pr_err("failed to create %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (svg)
		err = fprobe_report__write_svg(fprobe->rep, fp, "perf fprobe");
	else
		err = fprobe_report__write_chrome(fprobe->rep, fp);
	if (fclose(fp) != 0)
		err = -1;
	if (err < 0) {
		pr_err("failed to write %s\n", path);
		return -1;
	}
	pr_info("perf fprobe: wrote %s\n", path);
	return 0;
}

static int fprobe__output(struct perf_fprobe *fprobe)
{
	int out = fprobe->report_mask;
	int err = 0;

	if (!out)
		out = FPROBE_OUT_TREE;
	/* as perf report --stdio: through the pager on a terminal */
	if (out & (FPROBE_OUT_TREE | FPROBE_OUT_HIST | FPROBE_OUT_CALLS | FPROBE_OUT_FOLDED |
		   FPROBE_OUT_CSV))
		setup_pager();
	if (out & FPROBE_OUT_TREE && fprobe_report__print_tree(fprobe->rep, stdout) < 0)
		err = -1;
	if (out & FPROBE_OUT_HIST && fprobe_report__print_hist(fprobe->rep, stdout) < 0)
		err = -1;
	if (out & FPROBE_OUT_CALLS)
		fprobe_session__print_calls(fprobe->fs, stdout);
	if (out & FPROBE_OUT_FOLDED && fprobe_report__write_folded(fprobe->rep, stdout) < 0)
		err = -1;
	if (out & FPROBE_OUT_CSV && fprobe_report__write_csv(fprobe->rep, stdout) < 0)
		err = -1;
	if (out & FPROBE_OUT_FLAME && fprobe__write_file(fprobe, fprobe->flame_file, true) < 0)
		err = -1;
	if (out & FPROBE_OUT_CHROME && fprobe__write_file(fprobe, fprobe->chrome_file, false) < 0)
		err = -1;
	return err;
}

/* Is @str a list of thread ids apart by commas, such as 71,72? */
static bool is_tid_list(const char *str)
{
	size_t len = strlen(str);

	return len && strspn(str, "0123456789,") == len && str[0] != ',' &&
	       str[len - 1] != ',' && !strstr(str, ",,");
}

/*
 * perf fprobe report --tid and --time, as perf report's: a list of thread
 * ids, and time ranges (start,stop in seconds, as --calls prints the
 * calls, either side may be left out; several ranges apart by a blank;
 * or a percentage of the recording, from its first and last sample times)
 */
static int fprobe__parse_report_filters(struct perf_fprobe *fprobe,
					struct perf_session *session)
{
	const char *str = fprobe->tid_str;
	struct evlist *evlist = session->evlist;
	struct int_node *node;
	struct intlist *tids;
	int size, i;

	if (str) {
		tids = is_tid_list(str) ? intlist__new(str) : NULL;
		if (!tids) {
			pr_err("invalid --tid '%s': thread ids apart by commas, such as 71,72\n",
			       str);
			return -1;
		}
		fprobe->tids = calloc(intlist__nr_entries(tids), sizeof(*fprobe->tids));
		if (!fprobe->tids) {
			intlist__delete(tids);
			return -1;
		}
		i = 0;
		intlist__for_each_entry(node, tids)
			fprobe->tids[i++] = node->i;
		fprobe->ropts.tids = fprobe->tids;
		fprobe->ropts.nr_tids = i;
		intlist__delete(tids);
	}
	if (!fprobe->time_str)
		return 0;
	if (strchr(fprobe->time_str, '%') &&
	    !evlist->first_sample_time && !evlist->last_sample_time) {
		pr_err("--time '%s': the recording has no first and last sample times (an empty recording, or one of an older perf fprobe record): give the range in seconds\n",
		       fprobe->time_str);
		return -1;
	}
	if (perf_time__parse_for_ranges(fprobe->time_str, session, &fprobe->times,
					&size, &fprobe->ropts.nr_times) < 0) {
		pr_err("invalid --time '%s': start,stop in seconds (10.5,11 or 10.5, or ,11), or a percentage of the recording (0%%-10%%, 10%%/2)\n",
		       fprobe->time_str);
		return -1;
	}
	fprobe->ropts.times = fprobe->times;
	return 0;
}

static int fprobe__report(struct perf_fprobe *fprobe, const char *input)
{
	struct fprobe_session_opts opts = {
		.protos		= &fprobe->protos,
		.ropts		= &fprobe->ropts,
		.need_protos	= fprobe->need_protos,
		.errors		= fprobe->errors,
		.list_calls	= fprobe->report_mask & FPROBE_OUT_CALLS,
	};
	const struct fprobe_session_stats *st;
	struct perf_session *session;
	struct sigaction sa, old_sa;
	int ret = -1;

	fprobe->fs = fprobe_session__new(&opts);
	if (!fprobe->fs) {
		pr_err("failed to set up the report\n");
		return -1;
	}
	session = fprobe_session__open(fprobe->fs, input);
	if (!session)
		goto out_delete;
	if (fprobe__parse_report_filters(fprobe, session) < 0)
		goto out_delete;

	fprobe->rep = fprobe_report__new(&fprobe->ropts);
	if (!fprobe->rep) {
		pr_err("failed to set up the report\n");
		goto out_delete;
	}

	fprobe_report_interrupted = 0;
	sa.sa_handler = fprobe__report_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, &old_sa);
	ret = fprobe_session__process(fprobe->fs, fprobe->rep, &fprobe_report_interrupted);
	if (fprobe_report_interrupted)
		pr_warning("perf fprobe: interrupted: the report covers the part of %s read\n",
			   input);
	sigaction(SIGINT, &old_sa, NULL);
	if (ret) {
		pr_err("failed to process the events of %s\n", input);
		goto out_free;
	}
	ret = fprobe_report__finish(fprobe->rep);
	if (ret) {
		pr_err("failed to build the report\n");
		goto out_free;
	}

	/*
	 * A temporary recording is read: gone before the output, which the
	 * pager may end (SIGPIPE) before it is all written
	 */
	if (fprobe->tmp_data && !unlink(fprobe->tmp_data))
		fprobe->tmp_data = NULL;
	ret = fprobe__output(fprobe);
	st = fprobe_session__stats(fprobe->fs);
	fprintf(stderr, "perf fprobe: %" PRIu64 " calls", st->nr_calls);
	if (st->nr_incomplete)
		fprintf(stderr, ", %" PRIu64 " without entry or exit (no latency)",
			st->nr_incomplete);
	if (st->nr_open_at_end || st->nr_begun_before)
		fprintf(stderr, " (not shown: %" PRIu64 " unfinished when the recording ended, %"
			PRIu64 " without entry: begun before it, or missed)",
			st->nr_open_at_end, st->nr_begun_before);
	if (st->nr_lost)
		fprintf(stderr, ", %" PRIu64 " records LOST", st->nr_lost);
	if (st->nr_throttled)
		fprintf(stderr, " (throttled %" PRIu64 " times: %s)",
			st->nr_throttled,
			"raise kernel.perf_event_max_sample_rate to keep them");
	if (st->nr_bad)
		fprintf(stderr, ", %" PRIu64 " undecodable records", st->nr_bad);
	fprintf(stderr, "\n");
	/* more than 1% of the calls missing: the numbers are those of a sample */
	if (st->nr_lost && st->nr_lost * 100 > st->nr_calls + st->nr_lost)
		fprintf(stderr, "%s\n",
			"perf fprobe: the counts and times are those of the calls recorded: perf fprobe -b counts every call in the kernel");

out_free:
	fprobe_report__delete(fprobe->rep);
	fprobe->rep = NULL;
out_delete:
	fprobe_session__delete(fprobe->fs);
	fprobe->fs = NULL;
	return ret;
}

/* ---- options ------------------------------------------------------------ */

static int parse_output_file(const struct option *opt, const char *str,
			     int unset __maybe_unused)
{
	struct perf_fprobe *fprobe = opt->data;

	if (!str || !*str) {
		pr_err("--%s needs a file name\n", opt->long_name);
		return -1;
	}
	if (!strcmp(opt->long_name, "flame")) {
		fprobe->flame_file = str;
		fprobe->report_mask |= FPROBE_OUT_FLAME;
	} else {
		fprobe->chrome_file = str;
		fprobe->report_mask |= FPROBE_OUT_CHROME;
	}
	return 0;
}

/* "123", "10us", "2.5ms", "1s": nanoseconds */
static int parse_latency(const char *str, u64 *ns)
{
	char *end;
	double v = strtod(str, &end);

	if (end == str || v < 0)
		return -1;
	if (!*end || !strcmp(end, "ns"))
		*ns = v;
	else if (!strcmp(end, "us"))
		*ns = v * 1e3;
	else if (!strcmp(end, "ms"))
		*ns = v * 1e6;
	else if (!strcmp(end, "s"))
		*ns = v * 1e9;
	else
		return -1;
	return 0;
}

/* ---- recording ----------------------------------------------------------- */

/* perf fprobe trace: the fprobe PMU recording hands its events here */
static int fprobe__live_sample(struct fprobe_live *live, struct evsel *evsel,
			       struct perf_sample *sample, struct machine *machine)
{
	struct perf_fprobe *fprobe = container_of(live, struct perf_fprobe, live_ops);

	return fprobe_session__sample(fprobe->fs, evsel, sample, machine);
}

static void fprobe__live_start(struct fprobe_live *live __maybe_unused)
{
	printf("# %16s %3s %16s/%-7s %12s  call\n", "time", "cpu", "comm", "tid", "duration");
	fflush(stdout);
}

static void fprobe__live_ksymbol(struct fprobe_live *live)
{
	fprobe_session__forget_syms(container_of(live, struct perf_fprobe, live_ops)->fs);
}

static void fprobe__live_evsel_delete(struct fprobe_live *live __maybe_unused,
				      struct evsel *evsel)
{
	fprobe_session__evsel_delete(evsel);
}

/* perf fprobe trace: a call as it completes, with the comm of its thread */
static int fprobe__live_call(const struct fprobe_call *call, u32 arg_mask,
			     const struct fprobe_func *proto, void *arg)
{
	struct perf_fprobe *fprobe = arg;
	struct thread *thread = machine__find_thread(fprobe->machine, call->pid, call->tid);
	const char *comm = thread ? thread__comm_str(thread) : NULL;

	fprobe_call__fprintf(call, arg_mask, proto, comm ?: "?", stdout);
	thread__put(thread);
	return 0;
}

/* perf fprobe trace: through the fprobe PMU, each call printed as it comes */
static int fprobe__live(struct perf_fprobe *fprobe, const struct fprobe_record_opts *opts,
			int argc, const char **argv)
{
	struct fprobe_session_opts sopts = {
		.protos		= &fprobe->protos,
		.ropts		= &fprobe->ropts,
		.need_protos	= fprobe->need_protos,
		.errors		= fprobe->errors,
		.call		= fprobe__live_call,
		.call_arg	= fprobe,
	};
	struct fprobe_live *live = &fprobe->live_ops;
	const struct fprobe_session_stats *st;
	int ret;

	symbol__init(NULL);
	fprobe->machine = machine__new_host();
	fprobe->fs = fprobe_session__new(&sopts);
	if (!fprobe->machine || !fprobe->fs) {
		pr_err("failed to set up the live output\n");
		return -1;
	}
	live->machine = fprobe->machine;
	live->sample = fprobe__live_sample;
	live->start = fprobe__live_start;
	live->ksymbol = fprobe__live_ksymbol;
	live->evsel_delete = fprobe__live_evsel_delete;
	ret = fprobe_pmu__record(&fprobe->probes, opts, NULL, live, argc, argv);
	if (ret)
		return ret;
	st = fprobe_session__stats(fprobe->fs);
	fprintf(stderr, "perf fprobe: %" PRIu64 " calls", st->nr_calls);
	if (live->nr_lost + st->nr_lost)
		fprintf(stderr, ", %" PRIu64 " records LOST", live->nr_lost + st->nr_lost);
	if (st->nr_throttled)
		fprintf(stderr, " (throttled %" PRIu64 " times: %s)",
			st->nr_throttled,
			"raise kernel.perf_event_max_sample_rate to keep them");
	if (live->nr_bad + st->nr_bad)
		fprintf(stderr, ", %" PRIu64 " undecodable records", live->nr_bad + st->nr_bad);
	fprintf(stderr, "\n");
	return 0;
}

/*
 * Prepare the probes for the fprobe PMU, @pmu, or without it (NULL) for
 * fprobe events in tracefs: each path has its cap on the functions
 */
static int fprobe__prepare(struct perf_fprobe *fprobe, struct perf_pmu *pmu)
{
	struct fprobe_probes *probes = &fprobe->probes;

	if (probes->scope && !pmu) {
		pr_err("-G needs an fprobe PMU that takes a scope (/sys/bus/event_source/devices/fprobe/caps/scope), and fprobe events in tracefs have none: %s\n",
		       fprobe->no_pmu);
		return -1;
	}
	if (fprobe->live && !pmu) {
		pr_err("perf fprobe trace needs the fprobe PMU: %s; record with perf fprobe record, then perf fprobe report --calls\n",
		       fprobe->no_pmu);
		return -1;
	}
	if (fprobe->use_bpf) {
		probes->max_funcs = FPROBE_MAX_BPF_FUNCS;
		probes->max_per_probe = false;
		probes->max_what = "a BPF kprobe_multi link";
	} else if (pmu) {
		probes->max_funcs = fprobe_pmu__max_funcs();
		probes->max_per_probe = true;
		probes->max_what =
			"an fprobe PMU event (caps/max_funcs)";
	} else {
		probes->max_funcs = FPROBE_MAX_TRACEFS_FUNCS;
		probes->max_per_probe = false;
		probes->max_what = "the tracefs fallback (two fprobe events each)";
	}
	/* the tracefs events need the return type of every function */
	probes->all_protos = !pmu && !fprobe->dry_run && !fprobe->use_bpf;
	return fprobe_probes__prepare(probes, &fprobe_interrupted);
}

/* The most member paths and typed parameters a probe of @fprobe has */
static int fprobe__nr_fetch(struct perf_fprobe *fprobe)
{
	struct fprobe_probe *probe;
	int nr = 0;

	list_for_each_entry(probe, &fprobe->probes.list, list)
		nr = max(nr, probe->nr_fetch);
	return nr;
}

/*
 * The fprobe PMU, or NULL for fprobe events in tracefs, with the reason in
 * fprobe->no_pmu: --tracefs, no PMU, or one that cannot do what the probes
 * ask (a scope, members and strings)
 */
static struct perf_pmu *fprobe__find_pmu(struct perf_fprobe *fprobe)
{
	struct perf_pmu *pmu = fprobe->force_tracefs ? NULL : perf_pmus__find("fprobe");
	int nr_fetch = fprobe__nr_fetch(fprobe);

	if (fprobe->force_tracefs) {
		fprobe->no_pmu = "--tracefs";
	} else if (!pmu) {
		fprobe->no_pmu = "this kernel has no fprobe PMU";
	} else if (fprobe->probes.scope && !fprobe_pmu__has_scope()) {
		fprobe->no_pmu = "this fprobe PMU takes no scope (no caps/scope)";
		pmu = NULL;
	} else if (nr_fetch > fprobe_pmu__max_fetch()) {
		scnprintf(fprobe->no_pmu_buf, sizeof(fprobe->no_pmu_buf),
			  "this fprobe PMU cannot fetch %d member paths or typed parameters (caps/max_fetch: %d)",
			  nr_fetch, fprobe_pmu__max_fetch());
		fprobe->no_pmu = fprobe->no_pmu_buf;
		pmu = NULL;
	}
	return pmu;
}

/*
 * --dry-run: the functions the probes would attach, and those they would
 * skip, with the reason; nothing is opened or added to dynamic_events
 */
static int fprobe__dry_run(struct perf_fprobe *fprobe)
{
	struct perf_pmu *pmu = fprobe->use_bpf ? NULL : fprobe__find_pmu(fprobe);

	signal(SIGINT, fprobe__sigint);
	if (fprobe__prepare(fprobe, pmu) < 0)
		return -1;
	/* a filter the PMU would refuse fails the dry run as it would the run */
	if (pmu && fprobe_pmu__set_filters(&fprobe->probes) < 0)
		return -1;
	fprobe_probes__print_funcs(&fprobe->probes, stdout);
	fflush(stdout);
	fprobe_probes__print_summary(&fprobe->probes, fprobe->use_bpf ?
				     "dry run, counting with BPF: would attach" : pmu ?
				     "dry run, with the fprobe PMU: would attach" :
				     "dry run, with fprobe events in tracefs: would attach");
	return 0;
}

/* Records the probes into @output (NULL: live), through the PMU or tracefs */
static int fprobe__record(struct perf_fprobe *fprobe, const char *output,
			  int argc, const char **argv)
{
	struct fprobe_record_opts opts = {
		.target		= fprobe->target,
		.tid_target	= fprobe->tid_target,
		.mmap_pages	= fprobe->mmap_pages,
		.duration	= fprobe->duration,
		.no_inherit	= fprobe->no_inherit,
		.call_graph	= fprobe->call_graph,
		.stack_dump_size = fprobe->stack_dump_size,
		.errors		= fprobe->errors,
		.min_latency	= fprobe->ropts.min_latency,
		.interrupted	= &fprobe_interrupted,
	};
	const char **rec_argv, **run_argv;
	int rec_argc, ret = -1, i;
	struct perf_pmu *pmu = NULL;

	signal(SIGINT, fprobe__sigint);
	signal(SIGTERM, fprobe__sigint);
	pmu = fprobe__find_pmu(fprobe);
	opts.pmu_type = pmu ? (int)pmu->type : -1;
	if (fprobe__prepare(fprobe, pmu) < 0)
		return -1;

	if (pmu) {
		/* fprobe_pmu__record() says what it attached */
		pr_info("perf fprobe: using the fprobe PMU\n");
		/*
		 * A PMU without the formats of the filters would take the
		 * bits and ignore them: the filters are applied in user space
		 * then, as for tracefs.
		 */
		opts.pmu_filters = perf_pmu__has_format(pmu, "errors") &&
				   perf_pmu__has_format(pmu, "min_duration");
		if ((fprobe->errors || fprobe->ropts.min_latency) && !opts.pmu_filters)
			pr_info("perf fprobe: this fprobe PMU has no kernel-side filters (no format/errors, format/min_duration): every call is recorded, --errors and --min-latency %s\n",
				fprobe->record_only ?
				"are not applied, give them to perf fprobe report" :
				"are applied in user space");
		opts.pmu_exclude_opener = perf_pmu__has_format(pmu, "exclude_opener");
		if (!opts.pmu_exclude_opener && target__has_cpu(&fprobe->target))
			pr_info("perf fprobe: this fprobe PMU cannot leave perf's own calls out (no format/exclude_opener): they are traced too\n");
		if (fprobe_pmu__set_filters(&fprobe->probes) < 0)
			return -1;
		if (fprobe_interrupted) {
			pr_err("interrupted\n");
			return -1;
		}
		if (fprobe->live)
			return fprobe__live(fprobe, &opts, argc, argv);
		return fprobe_pmu__record(&fprobe->probes, &opts, output, NULL, argc, argv);
	}

	pr_info("perf fprobe: %s, using fprobe events in tracefs (%s group)\n",
		fprobe->no_pmu, FPROBE_GROUP);
	if (fprobe->errors || fprobe->ropts.min_latency)
		pr_info("perf fprobe: tracefs records every call: --errors and --min-latency %s\n",
			fprobe->record_only ? "are not applied, give them to perf fprobe report" :
			"are applied in user space");
	if (fprobe_tracefs__add_events(&fprobe->probes, &fprobe_interrupted) < 0)
		goto out_remove;
	fprobe_probes__print_summary(&fprobe->probes, "attached");

	if (fprobe_interrupted) {
		pr_err("interrupted\n");
		goto out_remove;
	}
	rec_argv = fprobe_tracefs__record_argv(&fprobe->probes, &opts, output, argc, argv,
					       &rec_argc);
	if (!rec_argv)
		goto out_remove;

	/* perf record reorders its argv: keep the strings to free them */
	run_argv = calloc(rec_argc + 1, sizeof(*run_argv));
	if (!run_argv)
		goto out_free_argv;
	memcpy(run_argv, rec_argv, rec_argc * sizeof(*run_argv));

	fprobe_has_workload = argc > 0;
	if (fprobe->duration > 0) {
		signal(SIGALRM, fprobe__alarm);
		alarm(fprobe->duration);
	}
	ret = cmd_record(rec_argc, run_argv);
	alarm(0);
	free(run_argv);
out_free_argv:
	for (i = 0; i < rec_argc; i++)
		free((char *)rec_argv[i]);
	free(rec_argv);

out_remove:
	fprobe_tracefs__remove_events(&fprobe->probes);
	if (ret == 0 && fprobe_tracefs__fixup_periods(output) < 0)
		pr_warning("failed to set the durations as periods in %s\n", output);
	return ret;
}

/*
 * -b: every call counted in the kernel by a BPF program, summed there by
 * call path and latency bucket, then reported; nothing is recorded
 */
static int fprobe__count(struct perf_fprobe *fprobe, int argc, const char **argv)
{
	struct fprobe_bpf_opts opts = {
		.target		= &fprobe->target,
		.duration	= fprobe->duration,
		.use_stack	= fprobe->call_graph != FPROBE_CALL_GRAPH_NONE,
		.min_latency	= fprobe->ropts.min_latency,
		.interrupted	= &fprobe_interrupted,
	};
	struct fprobe_report *rep;
	int ret;

	signal(SIGINT, fprobe__sigint);
	signal(SIGTERM, fprobe__sigint);
	if (fprobe__prepare(fprobe, NULL) < 0)
		return -1;
	rep = fprobe_report__new(&fprobe->ropts);
	if (!rep) {
		pr_err("failed to set up the report\n");
		return -1;
	}
	fprobe->rep = rep;
	ret = fprobe_bpf__count(&fprobe->probes, &opts, rep, argc, argv);
	if (!ret && fprobe_report__finish(rep)) {
		pr_err("failed to build the report\n");
		ret = -1;
	}
	if (!ret) {
		ret = fprobe__output(fprobe);
		fprintf(stderr, "perf fprobe: %zu calls, each counted in the kernel\n",
			fprobe_report__nr_calls(rep));
	}
	fprobe_report__delete(rep);
	fprobe->rep = NULL;
	return ret;
}

static void fprobe__exit(struct perf_fprobe *fprobe)
{
	fprobe_probes__exit(&fprobe->probes);
	free(fprobe->tids);
	free(fprobe->times);
	/* perf fprobe trace's; the report deletes its own */
	fprobe_session__delete(fprobe->fs);
	machine__delete(fprobe->machine);
	fprobe_protos__exit(&fprobe->protos);
}

/* --call-graph none|kernel|fp|dwarf[,SIZE]; --no-call-graph is none */
static int parse_call_graph(const struct option *opt, const char *str, int unset)
{
	struct perf_fprobe *fprobe = opt->value;

	fprobe->call_graph_set = true;
	if (unset) {
		fprobe->call_graph = FPROBE_CALL_GRAPH_NONE;
		return 0;
	}
	return fprobe__parse_call_graph(str, &fprobe->call_graph,
					&fprobe->stack_dump_size);
}

/* -a 'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]' */
static int parse_probe(const struct option *opt, const char *str, int unset)
{
	struct perf_fprobe *fprobe = opt->value;

	if (unset) {
		pr_err("-a takes a probe: there is no --no-add\n");
		return -1;
	}
	return fprobe_probes__add(&fprobe->probes, str);
}

static int parse_scope(const struct option *opt, const char *str, int unset)
{
	struct perf_fprobe *fprobe = opt->value;

	if (unset) {
		pr_err("-G takes functions: there is no --no-graph-funcs\n");
		return -1;
	}
	return fprobe_probes__add_scope(&fprobe->probes, str);
}

/*
 * One run of the command: what its options say, and what it has made.
 * The option tables below fill it, as perf record's fill its struct record.
 */
static struct perf_fprobe perf_fprobe = {
	.target		= { .uid = UINT_MAX, },
	.ropts		= {
		.sort	= "total",
	},
};

/* -s's help, with the keys from the report's own table */
static char sort_help[96];

static const struct option common_options[] = {
	OPT_INCR('v', "verbose", &verbose, "Be more verbose"),
	OPT_STRING('k', "vmlinux", &perf_fprobe.protos.vmlinux, "file",
		   "vmlinux with DWARF (default: the running kernel's)"),
	OPT_BOOLEAN(0, "btf", &perf_fprobe.protos.use_btf,
		    "Read prototypes from BTF, not DWARF (-k's, else the kernel's)"),
	OPT_STRING('V', "vars", &perf_fprobe.show_vars, "func",
		   "Show a function's parameters, types and registers, from DWARF or BTF"),
	OPT_STRING_OPTARG('F', "funcs", &perf_fprobe.list_glob, "glob",
			  "List traceable functions (matching a glob)", "*"),
	OPT_END()
};

static const struct option report_only_options[] = {
	OPT_BIT(0, "tree", &perf_fprobe.report_mask, "Show calls as a tree by call path (default)",
		FPROBE_OUT_TREE),
	OPT_BIT(0, "hist", &perf_fprobe.report_mask, "Show a latency histogram per function",
		FPROBE_OUT_HIST),
	OPT_BIT(0, "calls", &perf_fprobe.report_mask,
		"List every call with its arguments and return value", FPROBE_OUT_CALLS),
	OPT_BIT(0, "folded", &perf_fprobe.report_mask,
		"Print folded stacks weighted by time (flamegraph.pl)",
		FPROBE_OUT_FOLDED),
	OPT_BIT(0, "csv", &perf_fprobe.report_mask,
		"Print each function's statistics as CSV", FPROBE_OUT_CSV),
	{ .type = OPTION_CALLBACK, .long_name = "flame", .value = &perf_fprobe.flame_file,
	  .argh = "file.svg", .help = "Write a flame graph weighted by time as SVG",
	  .callback = parse_output_file, .data = &perf_fprobe },
	{ .type = OPTION_CALLBACK, .long_name = "chrome", .value = &perf_fprobe.chrome_file,
	  .argh = "file.json", .help = "Write a Chrome trace (Perfetto) as JSON",
	  .callback = parse_output_file, .data = &perf_fprobe },
	OPT_STRING(0, "min-latency", &perf_fprobe.min_latency_str, "time",
		   "Drop calls shorter than this: ns, us, ms or s (in the kernel, on the PMU)"),
	OPT_BOOLEAN(0, "errors", &perf_fprobe.errors,
		    "Only calls that return an error code (in the kernel, on the PMU)"),
	OPT_INTEGER(0, "max-depth", &perf_fprobe.ropts.max_depth,
		    "Depth of the call-path tree (0: unlimited)"),
	OPT_STRING('s', "sort", &perf_fprobe.ropts.sort, "key", sort_help),
	OPT_BOOLEAN(0, "stdio", &perf_fprobe.stdio,
		    "Text output, paged on a terminal (the only one; as perf report --stdio)"),
	OPT_PARENT(common_options),
};

/* perf fprobe and perf fprobe record: record, then report */
static const struct option fprobe_record_options[] = {
	OPT_CALLBACK('a', "add", &perf_fprobe, "'FUNC|GLOB[,FUNC|GLOB...] [PARAM...]'",
		     "Trace the matching functions, with the named parameters",
		     parse_probe),
	OPT_CALLBACK('G', "graph-funcs", &perf_fprobe, "FUNC|GLOB[,...]",
		     "Record only the calls made inside these functions (and theirs)",
		     parse_scope),
	OPT_BOOLEAN(0, "dry-run", &perf_fprobe.dry_run,
		    "List the functions -a would attach, and those skipped with why; attach none"),
	OPT_BOOLEAN('A', "all-cpus", &perf_fprobe.target.system_wide,
		    "System-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &perf_fprobe.target.cpu_list, "cpu",
		   "Trace on these CPUs only, system-wide (list: 0,2-3)"),
	OPT_STRING('p', "pid", &perf_fprobe.target.pid, "pid",
		   "Trace on existing process id"),
	OPT_STRING('t', "tid", &perf_fprobe.target.tid, "tid",
		   "Trace on existing thread id (comma separated list)"),
	OPT_CALLBACK('m', "mmap-pages", &perf_fprobe.mmap_pages, "pages",
		     "Ring buffer pages per CPU (a power of two), or a size: 512K, 4M",
		     evlist__parse_mmap_pages),
	OPT_INTEGER(0, "duration", &perf_fprobe.duration,
		    "Stop recording after this many seconds"),
	OPT_CALLBACK(0, "call-graph", &perf_fprobe, "none|kernel|fp|dwarf[,size]",
		     "The callchain of each call: none, the kernel's (default), or with user space",
		     parse_call_graph),
	OPT_STRING('N', "notrace-funcs", &perf_fprobe.probes.notrace, "glob[,glob...]",
		   "Do not trace the functions these globs match"),
	OPT_BOOLEAN(0, "tracefs", &perf_fprobe.force_tracefs,
		    "Use fprobe events in tracefs even with the fprobe PMU"),
	OPT_BOOLEAN('b', "use-bpf", &perf_fprobe.use_bpf,
		    "Count every call in the kernel with BPF: none lost, none recorded"),
	OPT_STRING('o', "output", &perf_fprobe.output_path, "file",
		   "Write the recording to this file (perf fprobe record: perf.data)"),
	OPT_PARENT(report_only_options),
};

static const struct option report_options[] = {
	OPT_STRING('i', "input", &perf_fprobe.input, "file", "Input file name"),
	OPT_STRING(0, "tid", &perf_fprobe.tid_str, "tid[,tid...]",
		   "Only the calls of these threads"),
	OPT_STRING(0, "time", &perf_fprobe.time_str, "str",
		   "Only the calls that end in these time ranges: start,stop (s) or 0%-10%"),
	OPT_PARENT(report_only_options),
};

static const char * const fprobe_usage[] = {
	"perf fprobe [<options>] -a 'FUNC|GLOB[,...] [PARAM...]' [-- <command>]",
	"perf fprobe record [<options>] -a 'FUNC|GLOB[,...] [PARAM...]' [-o file] [-- <command>]",
	"perf fprobe trace [<options>] -a 'FUNC|GLOB[,...] [PARAM...]' [-- <command>]",
	"perf fprobe [record|trace] --dry-run [-v] -a 'FUNC|GLOB[,...] [PARAM...]'",
	"perf fprobe report [<options>] [-i file]",
	"perf fprobe -V FUNC | -F [GLOB]",
	NULL
};

/*
 * perf fprobe record|trace|report: the subcommand, which then takes argv[1]'s
 * place; *@options is its option table. Return: the new argc.
 */
static int fprobe__subcommand(struct perf_fprobe *fprobe, int argc, const char ***argv,
			      const struct option **options)
{
	const char *sub = argc > 1 ? (*argv)[1] : "";

	*options = fprobe_record_options;
	if (!strcmp(sub, "record")) {
		fprobe->record_only = true;
	} else if (!strcmp(sub, "trace")) {
		fprobe->live = true;
	} else if (!strcmp(sub, "report")) {
		fprobe->report_only = true;
		*options = report_options;
	} else {
		return argc;
	}
	(*argv)++;
	return argc - 1;
}

/* The values the options take. Return: 0, -1 */
static int fprobe__check_options(struct perf_fprobe *fprobe, const struct option *options)
{
	if (fprobe->min_latency_str &&
	    parse_latency(fprobe->min_latency_str, &fprobe->ropts.min_latency) < 0) {
		pr_err("invalid --min-latency '%s': a number of ns, or with us, ms or s\n",
		       fprobe->min_latency_str);
		return -1;
	}
	if (!fprobe_report__sort_key_valid(fprobe->ropts.sort)) {
		pr_err("invalid --sort key '%s': %s\n", fprobe->ropts.sort,
		       fprobe_report__sort_keys());
		parse_options_usage(fprobe_usage, options, "s", true);
		return -1;
	}
	if (fprobe->ropts.max_depth < 0 || fprobe->duration < 0) {
		pr_err("--max-depth and --duration take a number >= 0\n");
		return -1;
	}
	return 0;
}

/* What -b, which records no call, cannot do. Return: 0, -1 */
static int fprobe__check_bpf_options(struct perf_fprobe *fprobe)
{
	struct fprobe_probe *probe;

	if (fprobe->record_only || fprobe->live) {
		pr_err("-b counts the calls in the kernel and records none: it goes with perf fprobe, not with perf fprobe record or trace\n");
		return -1;
	}
	if (fprobe->output_path || fprobe->force_tracefs || fprobe->mmap_pages ||
	    fprobe->probes.scope || fprobe->errors ||
	    fprobe->report_mask & (FPROBE_OUT_CALLS | FPROBE_OUT_CHROME)) {
		pr_err("-b counts the calls in the kernel and records none: it takes no -o, --tracefs, -m, -G, --errors, --calls or --chrome\n");
		return -1;
	}
	if (fprobe->call_graph == FPROBE_CALL_GRAPH_FP ||
	    fprobe->call_graph == FPROBE_CALL_GRAPH_DWARF) {
		pr_err("-b sums the calls by kernel call path: --call-graph takes kernel (the default) or none\n");
		return -1;
	}
	list_for_each_entry(probe, &fprobe->probes.list, list) {
		if (probe->nr_params || probe->nr_fetch) {
			pr_err("-b counts the calls and records no parameter: drop those of '%s'\n",
			       probe->spec);
			return -1;
		}
	}
	return 0;
}

/*
 * The options that do not go with perf fprobe record or trace, and trace's
 * default of no callchain. Return: 0, -1
 */
static int fprobe__check_record_options(struct perf_fprobe *fprobe)
{
	if (fprobe->record_only && (fprobe->report_mask || fprobe->stdio)) {
		pr_err("report options go to perf fprobe report, or to perf fprobe without record\n");
		return -1;
	}
	if (fprobe->live && (fprobe->report_mask || fprobe->stdio || fprobe->output_path ||
			     fprobe->force_tracefs)) {
		pr_err("perf fprobe trace prints the calls as they complete: it takes no -o, --tracefs or report output\n");
		return -1;
	}
	if (fprobe->use_bpf && fprobe__check_bpf_options(fprobe) < 0)
		return -1;
	/* perf fprobe trace prints no callchain: it records none */
	if (fprobe->live) {
		if (fprobe->call_graph == FPROBE_CALL_GRAPH_FP ||
		    fprobe->call_graph == FPROBE_CALL_GRAPH_DWARF) {
			pr_err("perf fprobe trace prints no callchains: --call-graph fp and dwarf are for perf fprobe and perf fprobe record\n");
			return -1;
		}
		if (!fprobe->call_graph_set)
			fprobe->call_graph = FPROBE_CALL_GRAPH_NONE;
	}
	return 0;
}

/*
 * Record the command (or the target of -p, -t, -A, -C) into -o's file, or
 * perf.data for perf fprobe record, else a temporary file, and report it;
 * perf fprobe trace prints the calls instead. Return: 0, -1, or perf
 * record's exit status (without the PMU).
 */
static int fprobe__record_report(struct perf_fprobe *fprobe, int argc, const char **argv)
{
	char tmp_path[] = "/tmp/perf-fprobe-XXXXXX";
	const char *data_path;
	bool tmp_file = false;
	int ret;

	/*
	 * As perf record: with -t, those threads, not the ones they create
	 * (with -p too, which then overrides -t: target__validate() sets the
	 * tids to the pid's)
	 */
	fprobe->no_inherit = !!fprobe->target.tid;
	fprobe->tid_target = fprobe->target.tid;
	ret = target__validate(&fprobe->target);
	if (ret) {
		char errbuf[512];

		target__strerror(&fprobe->target, ret, errbuf, sizeof(errbuf));
		pr_err("%s\n", errbuf);
		return -1;
	}

	if (fprobe->live)
		return fprobe__record(fprobe, NULL, argc, argv);
	if (fprobe->use_bpf)
		return fprobe__count(fprobe, argc, argv);
	data_path = fprobe->output_path;
	if (!data_path && fprobe->record_only)
		data_path = "perf.data";
	if (!data_path) {
		int fd = mkstemp(tmp_path);

		if (fd < 0) {
			pr_err("failed to create a temporary file: %s\n", strerror(errno));
			return -1;
		}
		close(fd);
		data_path = tmp_path;
		tmp_file = true;
		fprobe->tmp_data = tmp_path;
	}

	ret = fprobe__record(fprobe, data_path, argc, argv);
	if (ret == 0 && !fprobe->record_only)
		ret = fprobe__report(fprobe, data_path);
	if (tmp_file && fprobe->tmp_data)
		unlink(data_path);
	fprobe->tmp_data = NULL;
	return ret;
}

/* What the options ask, once they are parsed and checked. Return: as cmd_fprobe() */
static int fprobe__run(struct perf_fprobe *fprobe, int argc, const char **argv,
		       const struct option *options)
{
	if (fprobe->show_vars)
		return fprobe_probes__show_vars(&fprobe->probes, fprobe->show_vars);
	if (fprobe->list_glob) {
		/* -F GLOB: an optional argument given apart */
		if (argc == 1 && !strcmp(fprobe->list_glob, "*")) {
			fprobe->list_glob = argv[0];
		} else if (argc) {
			pr_err("-F takes one glob\n");
			return -1;
		}
		return fprobe_probes__list(&fprobe->probes, fprobe->list_glob);
	}
	if (fprobe->report_only) {
		if (argc) {
			pr_err("perf fprobe report takes no command\n");
			parse_options_usage(fprobe_usage, options, "i", true);
			return -1;
		}
		return fprobe__report(fprobe, fprobe->input ?: "perf.data");
	}
	if (fprobe__check_record_options(fprobe) < 0)
		return -1;
	/* what a run of the same command line would attach: no target needed */
	if (fprobe->dry_run)
		return fprobe__dry_run(fprobe);
	if (!argc && target__none(&fprobe->target)) {
		pr_err("nothing to trace: give a command, -p PID, -t TID, -A or -C CPUS\n");
		parse_options_usage(fprobe_usage, options, "a", true);
		return -1;
	}
	return fprobe__record_report(fprobe, argc, argv);
}

int cmd_fprobe(int argc, const char **argv)
{
	struct perf_fprobe *fprobe = &perf_fprobe;
	const struct option *options;
	int ret = -1;

	fprobe_probes__init(&fprobe->probes, &fprobe->protos);
	/*
	 * The frames of the reports are functions, outermost first, whatever
	 * perfconfig's call-graph.order: the user-space ones, resolved by
	 * perf's callchain code, in its callee order and with no inlined
	 * frames (which would be looked up with addr2line at each address)
	 */
	callchain_param.order = ORDER_CALLEE;
	symbol_conf.inline_name = false;
	argc = fprobe__subcommand(fprobe, argc, &argv, &options);

	snprintf(sort_help, sizeof(sort_help), "Sort by: %s (the first by default)",
		 fprobe_report__sort_keys());
	argc = parse_options(argc, argv, options, fprobe_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		goto out;
	/* the prototypes of traced functions are read only to show them */
	fprobe->need_protos = fprobe->live || fprobe->errors ||
			      fprobe->report_mask & (FPROBE_OUT_CALLS | FPROBE_OUT_CHROME);
	/* the other outputs need only the sums of the calls, not each call */
	fprobe->ropts.keep_calls = fprobe->report_mask & (FPROBE_OUT_CALLS | FPROBE_OUT_CHROME);

	if (fprobe__check_options(fprobe, options) == 0)
		ret = fprobe__run(fprobe, argc, argv, options);
out:
	fprobe__exit(fprobe);
	return ret < 0 ? 1 : ret;
}
