// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-fprobe.c: trace kernel function calls with their arguments,
 * return values and durations, and show them as a call graph.
 *
 * perf fprobe builds one probe per -a 'FUNC|GLOB [PARAM...]', checks the
 * functions against available_filter_functions and their parameters
 * against the DWARF of vmlinux or its BTF (util/fprobe-probe.c), then
 * records into a perf.data file (util/fprobe-record.c), with the fprobe PMU
 * or, without it, through fprobe events in tracefs that perf record
 * records; perf fprobe trace prints the calls of the PMU's events as they
 * come instead.
 *
 * perf fprobe report reads such a file back, pairs entry and exit samples
 * per thread (tracefs path), turns each call into a struct fprobe_call
 * and hands it to util/fprobe-report.c for the tree, histograms and flame
 * graphs; --calls lists every call with its arguments by type.
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
#include <sys/utsname.h>
#include <linux/err.h>
#include <linux/fprobe_pmu.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include <subcmd/pager.h>
#include <subcmd/parse-options.h>
#include <api/fs/fs.h>
#include <traceevent/event-parse.h>

#include "util/debug.h"
#include "util/data.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/hashmap.h"
#include "util/intlist.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/pmu.h"
#include "util/pmus.h"
#include "util/sample.h"
#include "util/session.h"
#include "util/string2.h"
#include "util/strlist.h"
#include "util/symbol.h"
#include "util/target.h"
#include "util/thread.h"
#include "util/time-utils.h"
#include "util/util.h"
#include "util/tool.h"
#include "util/fprobe-call.h"
#include "util/fprobe-decode.h"
#include "util/fprobe-btf.h"
#include "util/fprobe-dwarf.h"
#include "util/fprobe-probe.h"
#include "util/fprobe-record.h"
#include "util/fprobe-report.h"

/* The tracefs path makes two events per function: keep it sane */
#define FPROBE_MAX_TRACEFS_FUNCS	128
#define FPROBE_MAX_STACK	128

enum fprobe_output {
	FPROBE_OUT_TREE		= 1 << 0,
	FPROBE_OUT_HIST		= 1 << 1,
	FPROBE_OUT_CALLS	= 1 << 2,
	FPROBE_OUT_FOLDED	= 1 << 3,
	FPROBE_OUT_FLAME	= 1 << 4,
	FPROBE_OUT_CHROME	= 1 << 5,
};

/* A call whose entry was seen, waiting for its exit (tracefs path) */
struct fprobe_pending {
	struct fprobe_call	call;
	u32			arg_mask;
	struct fprobe_func	*dwarf;
};

struct fprobe_task {
	int			nr;
	size_t			alloc;
	struct fprobe_pending	*stack;
	/* out of every traced call when one that ended then returned */
	u64			settle_after;
};

/* A finished call kept for --calls */
struct fprobe_listed {
	struct fprobe_call	call;
	u32			arg_mask;
	struct fprobe_func	*dwarf;
	int			level;	/* in the report, 0: not kept there */
};

/* What is known about one evsel of a recording, in evsel->priv */
struct fprobe_evinfo {
	bool			pmu;
	bool			exit;
	int			nr_fields;
	struct tep_format_field	*fields[FPROBE_CALL_MAX_ARGS];
	const char		*field_names[FPROBE_CALL_MAX_ARGS];
	/* PMU: the parameters named (FPROBE_PMU_EVSEL:GLOB(NAME,...)), if any */
	int			nr_params;
	char			*params[FPROBE_CALL_MAX_ARGS];
	/* and which arguments they are in the last function seen */
	struct fprobe_func	*last_dwarf;
	u32			last_mask;
};

struct perf_fprobe {
	struct perf_tool	tool;
	struct fprobe_protos	protos;		/* -k, --btf */
	struct fprobe_probes	probes;		/* -a, -N */
	struct target		target;
	const char		*output;
	const char		*input;
	const char		*show_vars;
	const char		*list_glob;
	int			duration;
	unsigned int		mmap_pages;	/* -m, per CPU; 0: perf's default */
	bool			force_tracefs;
	bool			no_inherit;	/* -t: not the threads they create */
	const char		*tid_target;	/* -t as given, before target__validate() */
	bool			record_only;
	bool			report_only;
	bool			live;		/* perf fprobe trace */
	struct machine		*machine;	/* live: symbols and comms */
	struct fprobe_live	live_ops;	/* live: the recording's reader */
	/* report */
	struct fprobe_report_opts ropts;
	int			outputs;
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
	struct fprobe_report	*rep;
	struct hashmap		*tasks;
	struct hashmap		*funcs_by_name;	/* DWARF of recorded functions */
	struct hashmap		*syms_by_addr;	/* kernel symbols of recorded ips */
	bool			need_protos;	/* the output shows args or types */
	const char		*stack_buf[FPROBE_MAX_STACK];
	/* the callchain stack_buf was resolved from, while it is valid */
	u64			last_chain[FPROBE_MAX_STACK];
	u64			last_chain_nr;
	u64			last_func;
	u32			last_nr_stack;
	bool			last_chain_valid;
	struct fprobe_listed	*listed;
	size_t			nr_listed;
	size_t			alloc_listed;
	u64			nr_calls;
	u64			nr_incomplete;
	/* tracefs: calls cut by the ends of the recording, not shown */
	u64			nr_open_at_end;
	u64			nr_begun_before;
	u64			nr_lost;
	u64			nr_bad;
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

/* ---- reading a recording ------------------------------------------------ */

/* The prototype of a recorded function, looked up once */
static struct fprobe_func *fprobe__func_dwarf(struct perf_fprobe *fprobe,
					      const char *name)
{
	struct fprobe_func *func = NULL;
	char *key;

	if (!name || !fprobe->need_protos)
		return NULL;
	if (hashmap__find(fprobe->funcs_by_name, name, &func))
		return func;
	func = fprobe_protos__find_func(&fprobe->protos, name);
	key = strdup(name);
	if (key && hashmap__add(fprobe->funcs_by_name, key, func) < 0)
		free(key);
	return func;
}

/* Hash maps keyed by an address or a tid, as is */
static size_t long_hash(long key, void *ctx __maybe_unused)
{
	return key;
}

static bool long_equal(long a, long b, void *ctx __maybe_unused)
{
	return a == b;
}

/*
 * The kernel symbol at @addr, looked up once: callchains repeat the same
 * few return addresses, and the symbols' tree walk was most of a report.
 */
static struct symbol *fprobe__kernel_sym(struct perf_fprobe *fprobe,
					 struct machine *machine, u64 addr)
{
	struct symbol *sym;

	if (!fprobe->syms_by_addr) {
		fprobe->syms_by_addr = hashmap__new(long_hash, long_equal, NULL);
		if (IS_ERR(fprobe->syms_by_addr))
			fprobe->syms_by_addr = NULL;
	}
	/* a hashmap key is a long: no cache for an address wider */
	if (fprobe->syms_by_addr && addr == (unsigned long)addr &&
	    hashmap__find(fprobe->syms_by_addr, addr, &sym))
		return sym;
	sym = machine__find_kernel_symbol(machine, addr, NULL);
	if (fprobe->syms_by_addr && addr == (unsigned long)addr)
		hashmap__add(fprobe->syms_by_addr, addr, sym);	/* or look up again */
	return sym;
}

/*
 * A BPF program or trampoline came or went (PERF_RECORD_KSYMBOL): the
 * symbols looked up may be freed, or an address another's.
 */
static void fprobe__forget_syms(struct perf_fprobe *fprobe)
{
	if (fprobe->syms_by_addr)
		hashmap__clear(fprobe->syms_by_addr);
	fprobe->last_chain_valid = false;
}

static int fprobe__process_ksymbol(const struct perf_tool *tool,
				   union perf_event *event,
				   struct perf_sample *sample,
				   struct machine *machine)
{
	struct perf_fprobe *fprobe = container_of(tool, struct perf_fprobe, tool);

	fprobe__forget_syms(fprobe);
	return perf_event__process_ksymbol(tool, event, sample, machine);
}

static const char *kernel_sym_name(struct perf_fprobe *fprobe,
				   struct machine *machine, u64 addr)
{
	struct symbol *sym = fprobe__kernel_sym(fprobe, machine, addr);

	return sym ? sym->name : NULL;
}

/* The kernel callchain above the call, outermost first, in fprobe->stack_buf */
static u32 fprobe__resolve_stack(struct perf_fprobe *fprobe,
				 struct perf_sample *sample,
				 struct machine *machine, u64 func)
{
	struct ip_callchain *chain = sample->callchain;
	const char *inner_first[FPROBE_MAX_STACK];
	struct symbol *func_sym;
	u32 n = 0, i;
	bool skip = true;

	if (!chain)
		return 0;
	/* the calls of a recording mostly come from where the one before came */
	if (fprobe->last_chain_valid && chain->nr == fprobe->last_chain_nr &&
	    func == fprobe->last_func &&
	    !memcmp(chain->ips, fprobe->last_chain, chain->nr * sizeof(u64)))
		return fprobe->last_nr_stack;
	fprobe->last_chain_valid = false;
	func_sym = fprobe__kernel_sym(fprobe, machine, func);
	for (i = 0; i < chain->nr && n < FPROBE_MAX_STACK; i++) {
		u64 ip = chain->ips[i];
		struct symbol *sym;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_USER)
				break;
			continue;
		}
		sym = fprobe__kernel_sym(fprobe, machine, ip);
		/* the probed function itself, and the handler frames below it */
		if (skip) {
			if (sym && sym == func_sym)
				skip = false;
			continue;
		}
		inner_first[n++] = sym ? sym->name : "[unknown]";
	}
	/* no frame of the probed function: take the chain as it is */
	if (skip) {
		for (i = 0, n = 0; i < chain->nr && n < FPROBE_MAX_STACK; i++) {
			u64 ip = chain->ips[i];

			if (ip >= PERF_CONTEXT_MAX) {
				if (ip == PERF_CONTEXT_USER)
					break;
				continue;
			}
			inner_first[n++] = kernel_sym_name(fprobe, machine, ip) ?: "[unknown]";
		}
	}
	for (i = 0; i < n; i++)
		fprobe->stack_buf[i] = inner_first[n - 1 - i];
	if (chain->nr <= FPROBE_MAX_STACK) {
		memcpy(fprobe->last_chain, chain->ips, chain->nr * sizeof(u64));
		fprobe->last_chain_nr = chain->nr;
		fprobe->last_func = func;
		fprobe->last_nr_stack = n;
		fprobe->last_chain_valid = true;
	}
	return n;
}

/*
 * Keep @call for --calls; its cookie, with which the report hands back its
 * nesting level, is then its place in the list, plus one.
 */
static int fprobe__list_call(struct perf_fprobe *fprobe,
			     struct fprobe_call *call, u32 arg_mask,
			     struct fprobe_func *dwarf)
{
	struct fprobe_listed *l;

	call->cookie = 0;
	if (!(fprobe->outputs & FPROBE_OUT_CALLS))
		return 0;
	/*
	 * Grown by hand, not with realloc_array_as_needed(): it zeroes the
	 * new half of the array, which makes the whole capacity resident,
	 * and --calls of a long recording keeps one entry per call.
	 */
	if (fprobe->nr_listed == fprobe->alloc_listed) {
		size_t alloc = fprobe->alloc_listed ? fprobe->alloc_listed * 2 : 1024;
		struct fprobe_listed *tmp = realloc(fprobe->listed, alloc * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		fprobe->listed = tmp;
		fprobe->alloc_listed = alloc;
	}
	l = &fprobe->listed[fprobe->nr_listed++];
	call->cookie = fprobe->nr_listed;
	l->call = *call;
	l->call.stack = NULL;
	l->call.nr_stack = 0;
	l->arg_mask = arg_mask;
	l->dwarf = dwarf;
	l->level = 0;
	return 0;
}

/*
 * Whether @call passes --errors and --min-latency. Recorded through the
 * fprobe PMU, the kernel applied them already (errors without the return
 * type): they are checked again here, with the type from DWARF when there
 * is one. A call with no exit has no return value: not an error.
 */
static bool fprobe__wanted(struct perf_fprobe *fprobe, const struct fprobe_call *call,
			   const struct fprobe_func *dwarf)
{
	bool complete = call->flags == (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT);

	if (fprobe->errors &&
	    (!(call->flags & FPROBE_CALL_EXIT) ||
	     !fprobe_type__is_error(dwarf ? &dwarf->ret : NULL, call->retval)))
		return false;
	return !complete || call->duration >= fprobe->ropts.min_latency;
}

static void fprobe__live_call(struct perf_fprobe *fprobe, const struct fprobe_call *call,
			      u32 arg_mask, struct fprobe_func *dwarf);

static struct fprobe_task *fprobe__task(struct perf_fprobe *fprobe, s32 tid);

/*
 * The thread of @call was out of every traced call when a call that ended
 * at task->settle_after returned: if @call began after that, no call to
 * come is around or inside those the report has of the thread, which it
 * can nest and keep only the sums of (it keeps them for --calls and
 * --chrome). Not before: on another CPU, whose clock may be slightly
 * behind, a call inside the last one could still come. The idle tasks of
 * all CPUs share tid 0: they are never settled.
 */
static int fprobe__settle(struct perf_fprobe *fprobe, const struct fprobe_call *call)
{
	struct fprobe_task *task;
	int err;

	if (fprobe->live || !fprobe->rep || !call->tid)
		return 0;
	task = fprobe__task(fprobe, call->tid);
	if (!task)
		return -ENOMEM;
	if (!task->settle_after || call->entry_time < task->settle_after)
		return 0;
	err = fprobe_report__settle(fprobe->rep, call->tid);
	task->settle_after = 0;
	return err;
}

/* @call's thread is out of every traced call since @call returned */
static int fprobe__out_of_calls(struct perf_fprobe *fprobe, const struct fprobe_call *call)
{
	struct fprobe_task *task;

	if (fprobe->live || !fprobe->rep || !call->tid)
		return 0;
	task = fprobe__task(fprobe, call->tid);
	if (!task)
		return -ENOMEM;
	task->settle_after = call->entry_time + call->duration;
	return 0;
}

static int fprobe__emit(struct perf_fprobe *fprobe, struct fprobe_call *call,
			u32 arg_mask, struct fprobe_func *dwarf)
{
	int err = fprobe__settle(fprobe, call);

	if (err)
		return err;
	if (!fprobe_report_opts__selects(&fprobe->ropts, call) ||
	    !fprobe__wanted(fprobe, call, dwarf))
		return 0;
	if (call->flags != (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT))
		fprobe->nr_incomplete++;
	else
		fprobe->nr_calls++;
	if (fprobe->live) {
		fprobe__live_call(fprobe, call, arg_mask, dwarf);
		return 0;
	}
	if (fprobe__list_call(fprobe, call, arg_mask, dwarf) < 0)
		return -ENOMEM;
	return fprobe_report__add(fprobe->rep, call);
}

static struct fprobe_task *fprobe__task(struct perf_fprobe *fprobe, s32 tid)
{
	struct fprobe_task *task = NULL;

	if (hashmap__find(fprobe->tasks, (long)tid, &task))
		return task;
	task = zalloc(sizeof(*task));
	if (task && hashmap__add(fprobe->tasks, (long)tid, task) < 0)
		zfree(&task);
	return task;
}

/* Calls still open on @task lost their exit: they go with no latency */
static int fprobe_task__flush(struct perf_fprobe *fprobe, struct fprobe_task *task,
			      int down_to)
{
	int err = 0;

	while (task->nr > down_to) {
		struct fprobe_pending *p = &task->stack[--task->nr];

		if (!err)
			err = fprobe__emit(fprobe, &p->call, p->arg_mask, p->dwarf);
		free(p->call.stack);
	}
	return err;
}

/*
 * The calls of a tracefs recording that had not returned when it ended
 * (their exits are not in it): counted, and not shown, as the fprobe PMU,
 * which records a call when it returns, has no record of them either
 */
static void fprobe__end_open_calls(struct perf_fprobe *fprobe)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(fprobe->tasks, cur, bkt) {
		struct fprobe_task *task = cur->pvalue;

		while (task->nr) {
			struct fprobe_pending *p = &task->stack[--task->nr];

			/* not when the report was interrupted: those are unread */
			if (!fprobe_report_interrupted &&
			    fprobe_report_opts__selects(&fprobe->ropts, &p->call))
				fprobe->nr_open_at_end++;
			free(p->call.stack);
		}
	}
}

static int fprobe__flush_all(struct perf_fprobe *fprobe)
{
	struct hashmap_entry *cur;
	size_t bkt;
	int err = 0;

	hashmap__for_each_entry(fprobe->tasks, cur, bkt) {
		struct fprobe_task *task = cur->pvalue;

		if (fprobe_task__flush(fprobe, task, 0) < 0)
			err = -1;
	}
	return err;
}

/*
 * The parameters named in a PMU event's name, FPROBE_PMU_EVSEL:GLOB(NAME,...):
 * none (every argument captured is shown) if it names none, or if it is
 * not of that form
 */
static void fprobe_evinfo__parse_params(struct fprobe_evinfo *info, const char *name)
{
	const char *open = strchr(name, '('), *p, *end;
	size_t len = strlen(name);

	if (!open || name[len - 1] != ')')
		return;
	for (p = open + 1; p < name + len - 1 && info->nr_params < FPROBE_CALL_MAX_ARGS;
	     p = end + 1) {
		end = strchr(p, ',');
		if (!end || end > name + len - 1)
			end = name + len - 1;
		info->params[info->nr_params] = strndup(p, end - p);
		if (!info->params[info->nr_params])
			break;
		info->nr_params++;
	}
}

static void fprobe_evinfo__delete(struct fprobe_evinfo *info)
{
	int i;

	if (!info)
		return;
	for (i = 0; i < info->nr_params; i++)
		free(info->params[i]);
	free(info);
}

/*
 * Which of the arguments a PMU record of @info captured, for a call of the
 * function @dwarf describes, are shown: those of the parameters named, or
 * else those of any parameter (the event captures the same number of
 * arguments for every function of its glob: the registers that hold none
 * of this one's parameters, beyond them or the halves of a struct by
 * value, are not). Without DWARF or BTF, every argument captured.
 */
static u32 fprobe_evinfo__arg_mask(struct fprobe_evinfo *info, struct fprobe_func *dwarf,
				   u32 nargs)
{
	u32 mask = nargs ? (1U << nargs) - 1 : 0, had = 0;
	int i, j;

	if (!dwarf)
		return mask;
	if (info && info->last_dwarf == dwarf)
		return mask & info->last_mask;
	for (i = 0; i < dwarf->nr_params; i++) {
		const struct fprobe_param *p = &dwarf->params[i];

		if (p->arg < 0 || p->arg >= FPROBE_CALL_MAX_ARGS)
			continue;
		for (j = 0; info && j < info->nr_params; j++) {
			if (!strcmp(info->params[j], p->name))
				break;
		}
		if (!info || !info->nr_params || j < info->nr_params)
			had |= 1U << p->arg;
	}
	if (info) {
		info->last_dwarf = dwarf;
		info->last_mask = had;
	}
	return mask & had;
}

static struct fprobe_evinfo *fprobe__evinfo(struct evsel *evsel)
{
	struct fprobe_evinfo *info = evsel->priv;
	struct tep_event *tp = evsel->tp_format;
	struct tep_format_field *field;

	if (info)
		return info;
	info = zalloc(sizeof(*info));
	if (!info)
		return NULL;
	if (!tp) {
		info->pmu = true;
		fprobe_evinfo__parse_params(info, evsel__name(evsel));
	} else {
		info->exit = fprobe_tracefs__is_exit(tp->name);
		for (field = tp->format.fields; field; field = field->next) {
			if (!strncmp(field->name, "__probe_", 8) ||
			    info->nr_fields == FPROBE_CALL_MAX_ARGS)
				continue;
			info->fields[info->nr_fields] = field;
			info->field_names[info->nr_fields++] = field->name;
		}
	}
	evsel->priv = info;
	return info;
}

static bool evsel__is_fprobe(struct evsel *evsel)
{
	if (evsel->tp_format)
		return !strcmp(evsel->tp_format->system, FPROBE_GROUP);
	return (evsel->core.attr.sample_type & PERF_SAMPLE_RAW) &&
	       strstarts(evsel__name(evsel), FPROBE_PMU_EVSEL ":");
}

static int fprobe__pmu_sample(struct perf_fprobe *fprobe, struct fprobe_evinfo *info,
			      struct perf_sample *sample, struct machine *machine)
{
	struct fprobe_call call;
	struct fprobe_func *dwarf;
	int ret;

	memset(&call, 0, sizeof(call));
	ret = fprobe_pmu_record__decode(sample->raw_data, sample->raw_size, &call);
	if (ret == -EPROTONOSUPPORT) {
		pr_err("an fprobe PMU record is of version %u; this perf reads version %u only: a newer perf is needed\n",
		       fprobe_pmu_record__version(sample->raw_data, sample->raw_size),
		       FPROBE_PMU_RECORD_VERSION);
		return ret;
	}
	if (ret < 0) {
		fprobe->nr_bad++;
		return 0;
	}
	call.name = kernel_sym_name(fprobe, machine, call.func);
	call.pid = sample->pid;
	call.tid = sample->tid;
	call.cpu = sample->cpu;
	call.nr_stack = fprobe__resolve_stack(fprobe, sample, machine, call.func);
	call.stack = fprobe->stack_buf;
	dwarf = fprobe__func_dwarf(fprobe, call.name);
	ret = fprobe__emit(fprobe, &call, fprobe_evinfo__arg_mask(info, dwarf, call.nargs),
			   dwarf);
	/*
	 * A call that returned with no function graph frame below its own
	 * (the PMU's depth, 0 then) was the outermost traced call of its
	 * thread: a call around it would have its frame there.
	 */
	if (!ret && call.flags & FPROBE_CALL_EXIT && !call.depth)
		ret = fprobe__out_of_calls(fprobe, &call);
	return ret;
}

static int fprobe__tp_entry(struct perf_fprobe *fprobe, struct evsel *evsel,
			    struct fprobe_evinfo *info, struct perf_sample *sample,
			    struct machine *machine)
{
	struct fprobe_task *task = fprobe__task(fprobe, sample->tid);
	struct fprobe_pending *p;
	int i;

	if (!task)
		return -ENOMEM;
	if (realloc_array_as_needed(task->stack, task->alloc, (size_t)task->nr, NULL))
		return -ENOMEM;
	p = &task->stack[task->nr];
	memset(p, 0, sizeof(*p));
	p->call.func = evsel__intval(evsel, sample, "__probe_ip");
	p->call.name = kernel_sym_name(fprobe, machine, p->call.func);
	p->call.entry_time = sample->time;
	p->call.depth = task->nr;
	p->call.flags = FPROBE_CALL_ENTRY;
	p->call.pid = sample->pid;
	p->call.tid = sample->tid;
	p->call.cpu = sample->cpu;
	p->dwarf = fprobe__func_dwarf(fprobe, p->call.name);

	for (i = 0; i < info->nr_fields; i++) {
		int idx = i;
		u64 val = evsel__intval(evsel, sample, info->field_names[i]);

		if (p->dwarf) {
			idx = fprobe_func__param_index(p->dwarf, info->field_names[i]);
			if (idx < 0)
				continue;
			idx = p->dwarf->params[idx].arg;
			if (idx < 0 || idx >= FPROBE_CALL_MAX_ARGS)
				continue;
		}
		p->call.args[idx] = val;
		p->arg_mask |= 1U << idx;
		p->call.nargs = max(p->call.nargs, (u32)idx + 1);
	}

	p->call.nr_stack = fprobe__resolve_stack(fprobe, sample, machine, p->call.func);
	if (p->call.nr_stack) {
		p->call.stack = calloc(p->call.nr_stack, sizeof(*p->call.stack));
		if (!p->call.stack)
			return -ENOMEM;
		memcpy(p->call.stack, fprobe->stack_buf,
		       p->call.nr_stack * sizeof(*p->call.stack));
	}
	task->nr++;
	return 0;
}

static int fprobe__tp_exit(struct perf_fprobe *fprobe, struct evsel *evsel,
			   struct perf_sample *sample, struct machine *machine)
{
	struct fprobe_task *task = fprobe__task(fprobe, sample->tid);
	u64 func = evsel__intval(evsel, sample, "__probe_func");
	u64 retval = 0;
	struct fprobe_call call;
	int i, err;

	if (!task)
		return -ENOMEM;
	if (tep_find_field(evsel->tp_format, FPROBE_RETVAL))
		retval = evsel__intval(evsel, sample, FPROBE_RETVAL);
	for (i = task->nr - 1; i >= 0; i--) {
		if (task->stack[i].call.func == func)
			break;
	}
	if (i < 0) {
		memset(&call, 0, sizeof(call));
		call.func = func;
		call.name = kernel_sym_name(fprobe, machine, func);
		call.ret_ip = evsel__intval(evsel, sample, "__probe_ret_ip");
		call.retval = retval;
		call.entry_time = sample->time;
		call.flags = FPROBE_CALL_EXIT;
		call.pid = sample->pid;
		call.tid = sample->tid;
		call.cpu = sample->cpu;
		/*
		 * No record lost so far: it began before the recording (or its
		 * entry event missed it, which tracefs does not count), and is
		 * counted, not shown, as the fprobe PMU has no record of such a
		 * call either. After records were lost, it is shown, without
		 * entry. (perf record writes the lost counts of the events at
		 * the end of the file; the ring buffers' PERF_RECORD_LOST come
		 * in time.)
		 */
		if (!fprobe->nr_lost) {
			if (fprobe_report_opts__selects(&fprobe->ropts, &call))
				fprobe->nr_begun_before++;
			return 0;
		}
		return fprobe__emit(fprobe, &call, 0, fprobe__func_dwarf(fprobe, call.name));
	}

	/* the calls above it lost their exit */
	err = fprobe_task__flush(fprobe, task, i + 1);
	if (err)
		return err;

	task->nr--;
	call = task->stack[i].call;
	call.ret_ip = evsel__intval(evsel, sample, "__probe_ret_ip");
	call.retval = retval;
	call.duration = sample->time - call.entry_time;
	call.flags |= FPROBE_CALL_EXIT;
	err = fprobe__emit(fprobe, &call, task->stack[i].arg_mask, task->stack[i].dwarf);
	free(call.stack);
	/* no entry of the thread left open: it is out of every traced call */
	if (!err && !task->nr)
		err = fprobe__out_of_calls(fprobe, &call);
	return err;
}

static int fprobe__sample(const struct perf_tool *tool,
			  union perf_event *event __maybe_unused,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct perf_fprobe *fprobe = container_of(tool, struct perf_fprobe, tool);
	struct fprobe_evinfo *info;

	if (!evsel__is_fprobe(evsel))
		return 0;
	info = fprobe__evinfo(evsel);
	if (!info)
		return -ENOMEM;
	if (info->pmu)
		return fprobe__pmu_sample(fprobe, info, sample, machine);
	if (info->exit)
		return fprobe__tp_exit(fprobe, evsel, sample, machine);
	return fprobe__tp_entry(fprobe, evsel, info, sample, machine);
}

/*
 * Records were lost: an exit seen after this point may belong to an entry
 * that was lost, so no call open now is given a latency.
 */
static int fprobe__lost(struct perf_fprobe *fprobe, u64 nr)
{
	fprobe->nr_lost += nr;
	fprobe_report__add_lost(fprobe->rep, nr);
	return fprobe__flush_all(fprobe);
}

static int fprobe__process_lost(const struct perf_tool *tool, union perf_event *event,
				struct perf_sample *sample __maybe_unused,
				struct machine *machine __maybe_unused)
{
	return fprobe__lost(container_of(tool, struct perf_fprobe, tool),
			    event->lost.lost);
}

static int fprobe__process_lost_samples(const struct perf_tool *tool,
					union perf_event *event,
					struct perf_sample *sample __maybe_unused,
					struct machine *machine __maybe_unused)
{
	return fprobe__lost(container_of(tool, struct perf_fprobe, tool),
			    event->lost_samples.lost);
}

static int listed__cmp(const void *a, const void *b)
{
	const struct fprobe_listed *la = a, *lb = b;

	if (la->call.entry_time != lb->call.entry_time)
		return la->call.entry_time < lb->call.entry_time ? -1 : 1;
	return (int)la->call.depth - (int)lb->call.depth;
}

/* One call, as --calls lists it (no comm) or perf fprobe trace prints it */
static void fprobe__print_call(const struct fprobe_listed *l, const char *comm, FILE *fp)
{
	fprobe_call__fprintf(&l->call, l->arg_mask, l->dwarf, comm, fp);
}

/* perf fprobe trace: a call as it completes, with the comm of its thread */
static void fprobe__live_call(struct perf_fprobe *fprobe, const struct fprobe_call *call,
			      u32 arg_mask, struct fprobe_func *dwarf)
{
	struct fprobe_listed l = {
		.call		= *call,
		.arg_mask	= arg_mask,
		.dwarf		= dwarf,
	};
	struct thread *thread = machine__find_thread(fprobe->machine, call->pid, call->tid);
	const char *comm = thread ? thread__comm_str(thread) : NULL;

	fprobe__print_call(&l, comm ?: "?", stdout);
	thread__put(thread);
}

static int fprobe__listed_level(u64 cookie, int level, void *arg)
{
	struct perf_fprobe *fprobe = arg;

	if (cookie && cookie <= fprobe->nr_listed)
		fprobe->listed[cookie - 1].level = level;
	return 0;
}

/*
 * --calls: one line per call, by entry time, with arguments by DWARF type.
 * With --max-depth, the calls the report nests deeper are left out, as in
 * the tree; a call without its entry or exit, which the report does not
 * nest, is shown.
 */
static void fprobe__print_calls(struct perf_fprobe *fprobe, FILE *fp)
{
	const u32 both = FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT;
	size_t i;

	/*
	 * A call is indented by its nesting among the traced calls shown, as
	 * the report nests them: the same on both paths, where the depth the
	 * fprobe PMU records counts every function graph frame of the task.
	 */
	fprobe_report__walk_calls(fprobe->rep, fprobe__listed_level, fprobe);
	for (i = 0; i < fprobe->nr_listed; i++) {
		if (fprobe->listed[i].level)
			fprobe->listed[i].call.depth = fprobe->listed[i].level - 1;
	}
	qsort(fprobe->listed, fprobe->nr_listed, sizeof(*fprobe->listed), listed__cmp);
	fprintf(fp, "# %16s %7s %3s  %12s  call\n", "time", "tid", "cpu", "duration");
	for (i = 0; i < fprobe->nr_listed; i++) {
		const struct fprobe_listed *l = &fprobe->listed[i];

		if (fprobe->ropts.max_depth && !l->level && l->call.flags == both)
			continue;
		fprobe__print_call(l, NULL, fp);
	}
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
	int out = fprobe->outputs;
	int err = 0;

	if (!out)
		out = FPROBE_OUT_TREE;
	/* as perf report --stdio: through the pager on a terminal */
	if (out & (FPROBE_OUT_TREE | FPROBE_OUT_HIST | FPROBE_OUT_CALLS | FPROBE_OUT_FOLDED))
		setup_pager();
	if (out & FPROBE_OUT_TREE && fprobe_report__print_tree(fprobe->rep, stdout) < 0)
		err = -1;
	if (out & FPROBE_OUT_HIST && fprobe_report__print_hist(fprobe->rep, stdout) < 0)
		err = -1;
	if (out & FPROBE_OUT_CALLS)
		fprobe__print_calls(fprobe, stdout);
	if (out & FPROBE_OUT_FOLDED && fprobe_report__write_folded(fprobe->rep, stdout) < 0)
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
	struct perf_data data = {
		.path = input,
		.mode = PERF_DATA_MODE_READ,
	};
	struct sigaction sa, old_sa;
	struct utsname uts;
	struct perf_session *session;
	struct hashmap_entry *cur;
	struct evsel *evsel;
	size_t bkt;
	bool found = false;
	int ret = -1;

	perf_tool__init(&fprobe->tool, /*ordered_events=*/true);
	fprobe->tool.sample	  = fprobe__sample;
	fprobe->tool.comm	  = perf_event__process_comm;
	fprobe->tool.fork	  = perf_event__process_fork;
	fprobe->tool.exit	  = perf_event__process_exit;
	fprobe->tool.mmap	  = perf_event__process_mmap;
	fprobe->tool.mmap2	  = perf_event__process_mmap2;
	fprobe->tool.ksymbol	  = fprobe__process_ksymbol;
	fprobe->tool.lost	  = fprobe__process_lost;
	fprobe->tool.lost_samples = fprobe__process_lost_samples;
	fprobe->tool.attr	  = perf_event__process_attr;
	fprobe->tool.tracing_data = perf_event__process_tracing_data;
	fprobe->tool.build_id	  = perf_event__process_build_id;
	fprobe->tool.ordering_requires_timestamps = true;

	session = perf_session__new(&data, &fprobe->tool);
	if (IS_ERR(session)) {
		pr_err("failed to open %s\n", input);
		return -1;
	}
	/*
	 * -k names the kernel's symbols too, as perf report's and perf
	 * script's do: a recording read on another machine would otherwise
	 * be symbolized with that machine's /proc/kallsyms. Not a raw BTF
	 * file (--btf -k), which has no symbols.
	 */
	if (fprobe->protos.vmlinux && fprobe_elf__machine(fprobe->protos.vmlinux) != EM_NONE)
		symbol_conf.vmlinux_name = fprobe->protos.vmlinux;
	symbol__init(&session->header.env);
	/*
	 * Without -k, prototypes are the running kernel's: not those of a
	 * recording made on another kernel.
	 */
	if (!fprobe->protos.vmlinux && fprobe->need_protos && session->header.env.os_release &&
	    !uname(&uts) && strcmp(session->header.env.os_release, uts.release)) {
		pr_warning("perf fprobe: %s was recorded on Linux %s, this is %s: the arguments are shown as registers (give its vmlinux with -k for their names and types)\n",
			   input, session->header.env.os_release, uts.release);
		fprobe->need_protos = false;
	}

	evlist__for_each_entry(session->evlist, evsel) {
		if (evsel__is_fprobe(evsel))
			found = true;
	}
	if (!found) {
		pr_err("%s has no perf fprobe events (neither the fprobe PMU nor %s tracepoints)\n",
		       input, FPROBE_GROUP);
		goto out_delete;
	}
	if (fprobe__parse_report_filters(fprobe, session) < 0)
		goto out_delete;

	fprobe->tasks = hashmap__new(long_hash, long_equal, NULL);
	fprobe->funcs_by_name = hashmap__new(fprobe__str_hash, fprobe__str_equal, NULL);
	fprobe->rep = fprobe_report__new(&fprobe->ropts);
	if (IS_ERR(fprobe->tasks) || IS_ERR(fprobe->funcs_by_name) || !fprobe->rep) {
		pr_err("failed to set up the report\n");
		goto out_free;
	}

	fprobe_report_interrupted = 0;
	sa.sa_handler = fprobe__report_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, &old_sa);
	ret = perf_session__process_events(session);
	if (fprobe_report_interrupted) {
		/* the samples read and still queued for ordering: deliver them */
		session_done = 0;
		ret = ordered_events__flush(&session->ordered_events, OE_FLUSH__FINAL);
		pr_warning("perf fprobe: interrupted: the report covers the part of %s read\n",
			   input);
	}
	sigaction(SIGINT, &old_sa, NULL);
	if (ret) {
		pr_err("failed to process the events of %s\n", input);
		goto out_free;
	}
	fprobe__end_open_calls(fprobe);
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
	fprintf(stderr, "perf fprobe: %" PRIu64 " calls", fprobe->nr_calls);
	if (fprobe->nr_incomplete)
		fprintf(stderr, ", %" PRIu64 " without entry or exit (no latency)",
			fprobe->nr_incomplete);
	if (fprobe->nr_open_at_end || fprobe->nr_begun_before)
		fprintf(stderr, " (not shown: %" PRIu64 " unfinished when the recording ended, %"
			PRIu64 " without entry: begun before it, or missed)",
			fprobe->nr_open_at_end, fprobe->nr_begun_before);
	if (fprobe->nr_lost)
		fprintf(stderr, ", %" PRIu64 " records LOST", fprobe->nr_lost);
	if (fprobe->nr_bad)
		fprintf(stderr, ", %" PRIu64 " undecodable records", fprobe->nr_bad);
	fprintf(stderr, "\n");

out_free:
	if (!IS_ERR_OR_NULL(fprobe->tasks)) {
		hashmap__for_each_entry(fprobe->tasks, cur, bkt) {
			struct fprobe_task *task = cur->pvalue;

			while (task->nr--)
				free(task->stack[task->nr].call.stack);
			free(task->stack);
			free(task);
		}
		hashmap__free(fprobe->tasks);
	}
	if (!IS_ERR_OR_NULL(fprobe->funcs_by_name)) {
		hashmap__for_each_entry(fprobe->funcs_by_name, cur, bkt) {
			free((char *)cur->pkey);
			fprobe_func__delete(cur->pvalue);
		}
		hashmap__free(fprobe->funcs_by_name);
	}
	fprobe_report__delete(fprobe->rep);
	zfree(&fprobe->listed);
	evlist__for_each_entry(session->evlist, evsel) {
		fprobe_evinfo__delete(evsel->priv);
		evsel->priv = NULL;
	}
out_delete:
	perf_session__delete(session);
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
		fprobe->outputs |= FPROBE_OUT_FLAME;
	} else {
		fprobe->chrome_file = str;
		fprobe->outputs |= FPROBE_OUT_CHROME;
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

static bool valid_sort_key(const char *key)
{
	static const char * const keys[] = {
		"total", "self", "avg", "max", "count", "p99", "name",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!strcmp(key, keys[i]))
			return true;
	}
	return false;
}

/* ---- recording ----------------------------------------------------------- */

/* perf fprobe trace: the fprobe PMU recording hands its events here */
static int fprobe__live_sample(struct fprobe_live *live, struct evsel *evsel,
			       struct perf_sample *sample, struct machine *machine)
{
	struct perf_fprobe *fprobe = container_of(live, struct perf_fprobe, live_ops);
	struct fprobe_evinfo *info = fprobe__evinfo(evsel);

	if (!info)
		return -ENOMEM;
	return fprobe__pmu_sample(fprobe, info, sample, machine);
}

static void fprobe__live_start(struct fprobe_live *live __maybe_unused)
{
	printf("# %16s %3s %16s/%-7s %12s  call\n", "time", "cpu", "comm", "tid", "duration");
	fflush(stdout);
}

static void fprobe__live_ksymbol(struct fprobe_live *live)
{
	fprobe__forget_syms(container_of(live, struct perf_fprobe, live_ops));
}

static void fprobe__live_evsel_delete(struct fprobe_live *live __maybe_unused,
				      struct evsel *evsel)
{
	fprobe_evinfo__delete(evsel->priv);
	evsel->priv = NULL;
}

/* perf fprobe trace: through the fprobe PMU, each call printed as it comes */
static int fprobe__live(struct perf_fprobe *fprobe, const struct fprobe_record_opts *opts,
			int argc, const char **argv)
{
	struct fprobe_live *live = &fprobe->live_ops;
	int ret;

	symbol__init(NULL);
	fprobe->machine = machine__new_host();
	fprobe->funcs_by_name = hashmap__new(fprobe__str_hash, fprobe__str_equal, NULL);
	if (!fprobe->machine || IS_ERR(fprobe->funcs_by_name)) {
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
	fprintf(stderr, "perf fprobe: %" PRIu64 " calls", fprobe->nr_calls);
	if (live->nr_lost + fprobe->nr_lost)
		fprintf(stderr, ", %" PRIu64 " records LOST", live->nr_lost + fprobe->nr_lost);
	if (live->nr_bad + fprobe->nr_bad)
		fprintf(stderr, ", %" PRIu64 " undecodable records",
			live->nr_bad + fprobe->nr_bad);
	fprintf(stderr, "\n");
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
		.errors		= fprobe->errors,
		.min_latency	= fprobe->ropts.min_latency,
		.interrupted	= &fprobe_interrupted,
	};
	const char **rec_argv, **run_argv;
	int rec_argc, ret = -1, i;
	struct perf_pmu *pmu = NULL;

	signal(SIGINT, fprobe__sigint);
	signal(SIGTERM, fprobe__sigint);
	if (!fprobe->force_tracefs)
		pmu = perf_pmus__find("fprobe");
	opts.pmu_type = pmu ? (int)pmu->type : -1;
	if (fprobe->live && !pmu) {
		pr_err("perf fprobe trace needs the fprobe PMU, which this kernel does not have (no /sys/bus/event_source/devices/fprobe): record with perf fprobe record, then perf fprobe report --calls\n");
		return -1;
	}
	/* the tracefs events need the return type of every function */
	fprobe->probes.all_protos = !pmu;
	if (fprobe_probes__prepare(&fprobe->probes, &fprobe_interrupted) < 0)
		return -1;

	if (pmu) {
		pr_info("perf fprobe: using the fprobe PMU (%d functions)\n",
			fprobe->probes.nr_funcs);
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

	if (fprobe->probes.nr_funcs > FPROBE_MAX_TRACEFS_FUNCS) {
		pr_err("%d functions match: the tracefs fallback takes at most %d (two fprobe events each)\n",
		       fprobe->probes.nr_funcs, FPROBE_MAX_TRACEFS_FUNCS);
		return -1;
	}
	pr_info("perf fprobe: %s, using fprobe events in tracefs (%s group, %d functions)\n",
		fprobe->force_tracefs ? "--tracefs" : "no fprobe PMU",
		FPROBE_GROUP, fprobe->probes.nr_funcs);
	if (fprobe->errors || fprobe->ropts.min_latency)
		pr_info("perf fprobe: tracefs records every call: --errors and --min-latency %s\n",
			fprobe->record_only ? "are not applied, give them to perf fprobe report" :
			"are applied in user space");
	if (fprobe_tracefs__add_events(&fprobe->probes, &fprobe_interrupted) < 0)
		goto out_remove;

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

static void fprobe__exit(struct perf_fprobe *fprobe)
{
	fprobe_probes__exit(&fprobe->probes);
	free(fprobe->tids);
	free(fprobe->times);
	/* the report frees its own: these are perf fprobe trace's */
	if (fprobe->live && !IS_ERR_OR_NULL(fprobe->funcs_by_name)) {
		struct hashmap_entry *cur;
		size_t bkt;

		hashmap__for_each_entry(fprobe->funcs_by_name, cur, bkt) {
			free((char *)cur->pkey);
			fprobe_func__delete(cur->pvalue);
		}
		hashmap__free(fprobe->funcs_by_name);
	}
	hashmap__free(fprobe->syms_by_addr);
	machine__delete(fprobe->machine);
	fprobe_protos__exit(&fprobe->protos);
}

/* -a 'FUNC|GLOB [PARAM...]' */
static int parse_probe(const struct option *opt, const char *str,
		       int unset __maybe_unused)
{
	struct perf_fprobe *fprobe = opt->value;

	return fprobe_probes__add(&fprobe->probes, str);
}

int cmd_fprobe(int argc, const char **argv)
{
	struct perf_fprobe fprobe = {
		.target		= { .uid = UINT_MAX, },
		.ropts		= {
			.sort	= "total",
		},
	};
	const struct option common_options[] = {
	OPT_INCR('v', "verbose", &verbose, "Be more verbose"),
	OPT_STRING('k', "vmlinux", &fprobe.protos.vmlinux, "file",
		   "vmlinux with DWARF (default: the running kernel's)"),
	OPT_BOOLEAN(0, "btf", &fprobe.protos.use_btf,
		    "Read prototypes from BTF, not DWARF (-k's, else the kernel's)"),
	OPT_STRING('V', "vars", &fprobe.show_vars, "func",
		   "Show a function's parameters, types and registers, from DWARF or BTF"),
	OPT_STRING_OPTARG('F', "funcs", &fprobe.list_glob, "glob",
			  "List traceable functions (matching a glob)", "*"),
	OPT_END()
	};
	const struct option report_only_options[] = {
	OPT_BIT(0, "tree", &fprobe.outputs, "Show calls as a tree by call path (default)",
		FPROBE_OUT_TREE),
	OPT_BIT(0, "hist", &fprobe.outputs, "Show a latency histogram per function",
		FPROBE_OUT_HIST),
	OPT_BIT(0, "calls", &fprobe.outputs, "List every call with its arguments and return value",
		FPROBE_OUT_CALLS),
	OPT_BIT(0, "folded", &fprobe.outputs,
		"Print folded stacks weighted by time (flamegraph.pl)",
		FPROBE_OUT_FOLDED),
	{ .type = OPTION_CALLBACK, .long_name = "flame", .value = &fprobe.flame_file,
	  .argh = "file.svg", .help = "Write a flame graph weighted by time as SVG",
	  .callback = parse_output_file, .data = &fprobe },
	{ .type = OPTION_CALLBACK, .long_name = "chrome", .value = &fprobe.chrome_file,
	  .argh = "file.json", .help = "Write a Chrome trace (Perfetto) as JSON",
	  .callback = parse_output_file, .data = &fprobe },
	OPT_STRING(0, "min-latency", &fprobe.min_latency_str, "time",
		   "Drop calls shorter than this: ns, us, ms or s (in the kernel, on the PMU)"),
	OPT_BOOLEAN(0, "errors", &fprobe.errors,
		    "Only calls that return an error code (in the kernel, on the PMU)"),
	OPT_INTEGER(0, "max-depth", &fprobe.ropts.max_depth,
		    "Depth of the call-path tree (0: unlimited)"),
	OPT_STRING('s', "sort", &fprobe.ropts.sort, "key",
		   "Sort by: total (default), self, avg, max, count, p99, name"),
	OPT_BOOLEAN(0, "stdio", &fprobe.stdio,
		    "Text output, paged on a terminal (the only one; as perf report --stdio)"),
	OPT_PARENT(common_options),
	};
	/* perf fprobe and perf fprobe record: record, then report */
	const struct option fprobe_record_options[] = {
	OPT_CALLBACK('a', "add", &fprobe, "'FUNC|GLOB [PARAM...]'",
		     "Trace the matching functions, with the named parameters",
		     parse_probe),
	OPT_BOOLEAN('A', "all-cpus", &fprobe.target.system_wide,
		    "System-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &fprobe.target.cpu_list, "cpu",
		   "Trace on these CPUs only, system-wide (list: 0,2-3)"),
	OPT_STRING('p', "pid", &fprobe.target.pid, "pid",
		   "Trace on existing process id"),
	OPT_STRING('t', "tid", &fprobe.target.tid, "tid",
		   "Trace on existing thread id (comma separated list)"),
	OPT_CALLBACK('m', "mmap-pages", &fprobe.mmap_pages, "pages",
		     "Ring buffer pages per CPU (a power of two), or a size: 512K, 4M",
		     evlist__parse_mmap_pages),
	OPT_INTEGER(0, "duration", &fprobe.duration,
		    "Stop recording after this many seconds"),
	OPT_STRING('N', "notrace-funcs", &fprobe.probes.notrace, "glob[,glob...]",
		   "Do not trace the functions these globs match"),
	OPT_BOOLEAN(0, "tracefs", &fprobe.force_tracefs,
		    "Use fprobe events in tracefs even with the fprobe PMU"),
	OPT_STRING('o', "output", &fprobe.output, "file",
		   "Write the recording to this file (perf fprobe record: perf.data)"),
	OPT_PARENT(report_only_options),
	};
	const struct option report_options[] = {
	OPT_STRING('i', "input", &fprobe.input, "file", "Input file name"),
	OPT_STRING(0, "tid", &fprobe.tid_str, "tid[,tid...]",
		   "Only the calls of these threads"),
	OPT_STRING(0, "time", &fprobe.time_str, "str",
		   "Only the calls that end in these time ranges: start,stop (s) or 0%-10%"),
	OPT_PARENT(report_only_options),
	};
	const char * const fprobe_usage[] = {
		"perf fprobe [<options>] -a 'FUNC|GLOB [PARAM...]' [-- <command>]",
		"perf fprobe record [<options>] -a 'FUNC|GLOB [PARAM...]' [-o file] [-- <command>]",
		"perf fprobe trace [<options>] -a 'FUNC|GLOB [PARAM...]' [-- <command>]",
		"perf fprobe report [<options>] [-i file]",
		"perf fprobe -V FUNC | -F [GLOB]",
		NULL
	};
	const struct option *options = fprobe_record_options;
	char tmp_path[] = "/tmp/perf-fprobe-XXXXXX";
	const char *data_path;
	bool tmp_file = false;
	int ret = -1;

	fprobe_probes__init(&fprobe.probes, &fprobe.protos);
	if (argc > 1) {
		if (!strcmp(argv[1], "record")) {
			fprobe.record_only = true;
		} else if (!strcmp(argv[1], "trace")) {
			fprobe.live = true;
		} else if (!strcmp(argv[1], "report")) {
			fprobe.report_only = true;
			options = report_options;
		}
		if (fprobe.record_only || fprobe.report_only || fprobe.live) {
			argc--;
			argv++;
		}
	}

	argc = parse_options(argc, argv, options, fprobe_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		goto out;
	/* the prototypes of traced functions are read only to show them */
	fprobe.need_protos = fprobe.live || fprobe.errors ||
			     fprobe.outputs & (FPROBE_OUT_CALLS | FPROBE_OUT_CHROME);
	/* the other outputs need only the sums of the calls, not each call */
	fprobe.ropts.keep_calls = fprobe.outputs & (FPROBE_OUT_CALLS | FPROBE_OUT_CHROME);

	if (fprobe.min_latency_str &&
	    parse_latency(fprobe.min_latency_str, &fprobe.ropts.min_latency) < 0) {
		pr_err("invalid --min-latency '%s': a number of ns, or with us, ms or s\n",
		       fprobe.min_latency_str);
		goto out;
	}
	if (!valid_sort_key(fprobe.ropts.sort)) {
		pr_err("invalid --sort key '%s'\n", fprobe.ropts.sort);
		parse_options_usage(fprobe_usage, options, "s", true);
		goto out;
	}
	if (fprobe.ropts.max_depth < 0 || fprobe.duration < 0) {
		pr_err("--max-depth and --duration take a number >= 0\n");
		goto out;
	}

	if (fprobe.show_vars) {
		ret = fprobe_probes__show_vars(&fprobe.probes, fprobe.show_vars);
		goto out;
	}
	if (fprobe.list_glob) {
		/* -F GLOB: an optional argument given apart */
		if (argc == 1 && !strcmp(fprobe.list_glob, "*")) {
			fprobe.list_glob = argv[0];
		} else if (argc) {
			pr_err("-F takes one glob\n");
			goto out;
		}
		ret = fprobe_probes__list(&fprobe.probes, fprobe.list_glob);
		goto out;
	}

	if (fprobe.report_only) {
		if (argc) {
			pr_err("perf fprobe report takes no command\n");
			parse_options_usage(fprobe_usage, options, "i", true);
			goto out;
		}
		ret = fprobe__report(&fprobe, fprobe.input ?: "perf.data");
		goto out;
	}

	if (fprobe.record_only && (fprobe.outputs || fprobe.stdio)) {
		pr_err("report options go to perf fprobe report, or to perf fprobe without record\n");
		goto out;
	}
	if (fprobe.live &&
	    (fprobe.outputs || fprobe.stdio || fprobe.output || fprobe.force_tracefs)) {
		pr_err("perf fprobe trace prints the calls as they complete: it takes no -o, --tracefs or report output\n");
		goto out;
	}
	if (!argc && target__none(&fprobe.target)) {
		pr_err("nothing to trace: give a command, -p PID, -t TID, -A or -C CPUS\n");
		parse_options_usage(fprobe_usage, options, "a", true);
		goto out;
	}
	/*
	 * As perf record: with -t, those threads, not the ones they create
	 * (with -p too, which then overrides -t: target__validate() sets the
	 * tids to the pid's)
	 */
	fprobe.no_inherit = !!fprobe.target.tid;
	fprobe.tid_target = fprobe.target.tid;
	ret = target__validate(&fprobe.target);
	if (ret) {
		char errbuf[512];

		target__strerror(&fprobe.target, ret, errbuf, sizeof(errbuf));
		pr_err("%s\n", errbuf);
		ret = -1;
		goto out;
	}

	if (fprobe.live) {
		ret = fprobe__record(&fprobe, NULL, argc, argv);
		goto out;
	}
	data_path = fprobe.output;
	if (!data_path && fprobe.record_only)
		data_path = "perf.data";
	if (!data_path) {
		int fd = mkstemp(tmp_path);

		if (fd < 0) {
			pr_err("failed to create a temporary file: %s\n", strerror(errno));
			goto out;
		}
		close(fd);
		data_path = tmp_path;
		tmp_file = true;
		fprobe.tmp_data = tmp_path;
	}

	ret = fprobe__record(&fprobe, data_path, argc, argv);
	if (ret == 0 && !fprobe.record_only)
		ret = fprobe__report(&fprobe, data_path);
	if (tmp_file && fprobe.tmp_data)
		unlink(data_path);
out:
	fprobe__exit(&fprobe);
	return ret < 0 ? 1 : ret;
}
