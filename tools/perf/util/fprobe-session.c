// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a perf fprobe recording (util/fprobe-record.c) back, as calls.
 *
 * Through the fprobe PMU, each sample is one call, decoded from its raw
 * data (util/fprobe-decode.c). Through fprobe events in tracefs, a call
 * is an entry and an exit event: the entries of each thread are kept on a
 * stack (struct fprobe_task) until the exit of the same function pops
 * them, the calls above it then having lost their exit. After records
 * were lost, an exit may belong to an entry that was lost: the calls open
 * then go without latency, as the calls without entry or exit do.
 *
 * Each call gets its function's symbol, the kernel callchain above it,
 * and the prototype from DWARF or BTF (util/fprobe-probe.c) for which of
 * its arguments are shown; what passes the filters (the report's tids and
 * times, errors and min_latency) goes to util/fprobe-report.c, and is
 * kept for --calls; or, in perf fprobe trace, to a callback as it comes.
 *
 * A thread out of every traced call is "settled" (fprobe_report__settle())
 * once a call of it begins after that: the report can then nest and sum
 * the calls it has of it and keep only the sums.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <linux/err.h>
#include <linux/fprobe_pmu.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include <traceevent/event-parse.h>

#include "data.h"
#include "debug.h"
#include "env.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "callchain.h"
#include "hashmap.h"
#include "machine.h"
#include "sample.h"
#include "session.h"
#include "symbol.h"
#include "thread.h"
#include "tool.h"
#include "fprobe-call.h"
#include "fprobe-decode.h"
#include "fprobe-dwarf.h"
#include "fprobe-probe.h"
#include "fprobe-record.h"
#include "fprobe-report.h"
#include "fprobe-session.h"

#define FPROBE_MAX_STACK	128

/* A call whose entry was seen, waiting for its exit (tracefs path) */
struct fprobe_pending {
	struct fprobe_call	call;
	u32			arg_mask;
	struct fprobe_func	*proto;
};

/*
 * The values an entry record of the fprobe PMU fetched, waiting for the exit
 * record of the same call (same function, depth and entry time)
 */
struct fprobe_fetching {
	u64			func;
	u64			entry_time;
	u32			depth;
	u32			nr;
	struct fprobe_fetched	*vals;	/* owned, with their strings */
};

struct fprobe_task {
	int			nr;
	size_t			alloc;
	struct fprobe_pending	*stack;
	/* PMU: entry records that fetched values, innermost last */
	int			nr_fetching;
	size_t			alloc_fetching;
	struct fprobe_fetching	*fetching;
	/* out of every traced call when one that ended then returned */
	u64			settle_after;
};

/* Free @nr fetched values @vals, their strings included */
static void fprobe_fetched__free(struct fprobe_fetched *vals, u32 nr)
{
	u32 i;

	for (i = 0; vals && i < nr; i++)
		free((char *)vals[i].str);
	free(vals);
}

/* Free the values fetched for @c, which its holder owns */
static void fprobe_call__free_fetched(struct fprobe_call *c)
{
	fprobe_fetched__free(c->fetch, c->nr_fetch);
	c->fetch = NULL;
	c->nr_fetch = 0;
}

/* Copies of @nr values @vals and of their strings, or NULL */
static struct fprobe_fetched *fprobe_fetched__dup(const struct fprobe_fetched *vals, u32 nr)
{
	struct fprobe_fetched *dup = calloc(nr, sizeof(*dup));
	u32 i;

	if (!dup)
		return NULL;
	for (i = 0; i < nr; i++) {
		dup[i] = vals[i];
		if (!vals[i].str)
			continue;
		dup[i].str = strdup(vals[i].str);
		if (!dup[i].str) {
			fprobe_fetched__free(dup, i);
			return NULL;
		}
	}
	return dup;
}

/* Copy the values fetched for @c, for a holder of its own: 0, -ENOMEM */
static int fprobe_call__dup_fetched(struct fprobe_call *c)
{
	if (!c->nr_fetch) {
		c->fetch = NULL;
		return 0;
	}
	c->fetch = fprobe_fetched__dup(c->fetch, c->nr_fetch);
	if (!c->fetch) {
		c->nr_fetch = 0;
		return -ENOMEM;
	}
	return 0;
}

/* A finished call kept for --calls */
struct fprobe_listed {
	struct fprobe_call	call;
	u32			arg_mask;
	struct fprobe_func	*proto;
	int			level;	/* in the report, 0: not kept there */
};

/* What is known about one evsel of a recording, in evsel->priv */
struct fprobe_evinfo {
	bool			pmu;
	bool			exit;
	int			nr_fields;
	struct tep_format_field	*fields[FPROBE_CALL_MAX_ARGS + FPROBE_CALL_MAX_FETCH];
	const char		*field_names[FPROBE_CALL_MAX_ARGS + FPROBE_CALL_MAX_FETCH];
	/* PMU: the parameters named (FPROBE_PMU_EVSEL:GLOB(NAME,...)), if any */
	int			nr_params;
	char			*params[FPROBE_CALL_MAX_ARGS];
	/* and what its entry records fetch, NAME:TYPE there */
	u32			nr_fetch;
	char			*fetch_names[FPROBE_CALL_MAX_FETCH];
	const char		*fetch_types[FPROBE_CALL_MAX_FETCH];
	/* and which arguments they are in the last function seen */
	struct fprobe_func	*last_proto;
	u32			last_mask;
};

struct fprobe_session {
	struct perf_tool	tool;
	struct fprobe_session_opts opts;
	struct fprobe_session_stats stats;
	struct perf_data	data;		/* the session's file */
	struct perf_session	*session;	/* fprobe_session__open()'s */
	struct fprobe_report	*rep;		/* the caller's */
	const sig_atomic_t	*interrupted;
	struct hashmap		*tasks;		/* tid -> struct fprobe_task */
	struct hashmap		*funcs_by_name;	/* DWARF of recorded functions */
	struct hashmap		*syms_by_addr;	/* kernel symbols of recorded ips */
	const char		*stack_buf[FPROBE_MAX_STACK];
	const char		*user_buf[FPROBE_MAX_STACK];	/* innermost first */
	/* the callchain stack_buf was resolved from, while it is valid */
	u64			last_chain[FPROBE_MAX_STACK];
	u64			last_chain_nr;
	u64			last_func;
	u32			last_nr_stack;
	bool			last_chain_valid;
	struct fprobe_listed	*listed;
	size_t			nr_listed;
	size_t			alloc_listed;
};

/* The prototype of a recorded function, looked up once */
static struct fprobe_func *fprobe_session__func_proto(struct fprobe_session *fs,
						      const char *name)
{
	struct fprobe_func *func = NULL;
	char *key;

	if (!name || !fs->opts.need_protos)
		return NULL;
	if (hashmap__find(fs->funcs_by_name, name, &func))
		return func;
	func = fprobe_protos__find_func(fs->opts.protos, name);
	key = strdup(name);
	if (key && hashmap__add(fs->funcs_by_name, key, func) < 0)
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
static struct symbol *fprobe_session__kernel_sym(struct fprobe_session *fs,
						 struct machine *machine, u64 addr)
{
	struct symbol *sym;

	if (!fs->syms_by_addr) {
		fs->syms_by_addr = hashmap__new(long_hash, long_equal, NULL);
		if (IS_ERR(fs->syms_by_addr))
			fs->syms_by_addr = NULL;
	}
	/* a hashmap key is a long: no cache for an address wider */
	if (fs->syms_by_addr && addr == (unsigned long)addr &&
	    hashmap__find(fs->syms_by_addr, addr, &sym))
		return sym;
	sym = machine__find_kernel_symbol(machine, addr, NULL);
	if (fs->syms_by_addr && addr == (unsigned long)addr)
		hashmap__add(fs->syms_by_addr, addr, sym);	/* or look up again */
	return sym;
}

/*
 * A BPF program or trampoline came or went (PERF_RECORD_KSYMBOL): the
 * symbols looked up may be freed, or an address another's.
 */
void fprobe_session__forget_syms(struct fprobe_session *fs)
{
	if (fs->syms_by_addr)
		hashmap__clear(fs->syms_by_addr);
	fs->last_chain_valid = false;
}

static int fprobe_session__process_ksymbol(const struct perf_tool *tool,
					   union perf_event *event,
					   struct perf_sample *sample,
					   struct machine *machine)
{
	struct fprobe_session *fs = container_of(tool, struct fprobe_session, tool);

	fprobe_session__forget_syms(fs);
	return perf_event__process_ksymbol(tool, event, sample, machine);
}

static const char *kernel_sym_name(struct fprobe_session *fs,
				   struct machine *machine, u64 addr)
{
	struct symbol *sym = fprobe_session__kernel_sym(fs, machine, addr);

	return sym ? sym->name : NULL;
}

/*
 * The user-space part of the callchain of @sample (--call-graph fp or dwarf),
 * innermost first, in @names: resolved by perf's callchain code, which
 * unwinds the user stack taken with dwarf. Returns the number of frames.
 */
static u32 fprobe_session__user_stack(struct evsel *evsel, struct perf_sample *sample,
				      struct machine *machine, const char **names,
				      u32 max)
{
	struct callchain_cursor *cursor = get_tls_callchain_cursor();
	struct callchain_cursor_node *node;
	struct thread *thread;
	u32 n = 0;

	thread = machine__findnew_thread(machine, sample->pid, sample->tid);
	if (!thread || !cursor ||
	    thread__resolve_callchain(thread, cursor, evsel, sample, NULL, NULL,
				      PERF_MAX_STACK_DEPTH) < 0) {
		thread__put(thread);
		return 0;
	}
	callchain_cursor_commit(cursor);
	while ((node = callchain_cursor_current(cursor)) && n < max) {
		/* the kernel frames are fprobe_session__resolve_stack()'s */
		if (!machine__kernel_ip(machine, node->ip))
			names[n++] = node->ms.sym ? node->ms.sym->name : "[unknown]";
		callchain_cursor_advance(cursor);
	}
	thread__put(thread);
	return n;
}

/* Whether @sample has a user-space callchain (--call-graph fp or dwarf) */
static bool fprobe_sample__has_user_stack(struct perf_sample *sample)
{
	struct ip_callchain *chain = sample->callchain;
	u64 i;

	if (sample->user_regs.regs && sample->user_stack.size)
		return true;
	for (i = 0; chain && i < chain->nr; i++) {
		if (chain->ips[i] == PERF_CONTEXT_USER)
			return i + 1 < chain->nr;
	}
	return false;
}

/*
 * The callchain above the call, outermost first, in fs->stack_buf: the
 * user-space part, if recorded, then the kernel part
 */
static u32 fprobe_session__resolve_stack(struct fprobe_session *fs, struct evsel *evsel,
					 struct perf_sample *sample,
					 struct machine *machine, u64 func)
{
	struct ip_callchain *chain = sample->callchain;
	const char *inner_first[FPROBE_MAX_STACK];
	struct symbol *func_sym;
	u32 n = 0, i, nr_user = 0;
	bool skip = true;

	if (!chain)
		return 0;
	/*
	 * the calls of a recording mostly come from where the one before
	 * came; not a user stack taken whole (dwarf), which the chain does not
	 * say
	 */
	if (fs->last_chain_valid && chain->nr == fs->last_chain_nr &&
	    func == fs->last_func && !sample->user_stack.size &&
	    !memcmp(chain->ips, fs->last_chain, chain->nr * sizeof(u64)))
		return fs->last_nr_stack;
	fs->last_chain_valid = false;
	if (fprobe_sample__has_user_stack(sample))
		nr_user = fprobe_session__user_stack(evsel, sample, machine,
						     fs->user_buf, FPROBE_MAX_STACK);
	func_sym = fprobe_session__kernel_sym(fs, machine, func);
	for (i = 0; i < chain->nr && n < FPROBE_MAX_STACK; i++) {
		u64 ip = chain->ips[i];
		struct symbol *sym;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_USER)
				break;
			continue;
		}
		sym = fprobe_session__kernel_sym(fs, machine, ip);
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
			inner_first[n++] = kernel_sym_name(fs, machine, ip) ?: "[unknown]";
		}
	}
	/* the outermost user frame first, the innermost kernel frame last */
	nr_user = min(nr_user, FPROBE_MAX_STACK - n);
	for (i = 0; i < nr_user; i++)
		fs->stack_buf[i] = fs->user_buf[nr_user - 1 - i];
	for (i = 0; i < n; i++)
		fs->stack_buf[nr_user + i] = inner_first[n - 1 - i];
	n += nr_user;
	/* user frames are the task's: not to be handed to the next sample */
	if (chain->nr <= FPROBE_MAX_STACK && !nr_user) {
		memcpy(fs->last_chain, chain->ips, chain->nr * sizeof(u64));
		fs->last_chain_nr = chain->nr;
		fs->last_func = func;
		fs->last_nr_stack = n;
		fs->last_chain_valid = true;
	}
	return n;
}

/*
 * Keep @call for --calls; its cookie, with which the report hands back its
 * nesting level, is then its place in the list, plus one.
 */
static int fprobe_session__list_call(struct fprobe_session *fs,
				     struct fprobe_call *call, u32 arg_mask,
				     struct fprobe_func *proto)
{
	struct fprobe_listed *l;

	call->cookie = 0;
	if (!fs->opts.list_calls)
		return 0;
	/*
	 * Grown by hand, not with realloc_array_as_needed(): it zeroes the
	 * new half of the array, which makes the whole capacity resident,
	 * and --calls of a long recording keeps one entry per call.
	 */
	if (fs->nr_listed == fs->alloc_listed) {
		size_t alloc = fs->alloc_listed ? fs->alloc_listed * 2 : 1024;
		struct fprobe_listed *tmp = realloc(fs->listed, alloc * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		fs->listed = tmp;
		fs->alloc_listed = alloc;
	}
	l = &fs->listed[fs->nr_listed];
	l->call = *call;
	l->call.stack = NULL;
	l->call.nr_stack = 0;
	if (fprobe_call__dup_fetched(&l->call) < 0)
		return -ENOMEM;
	call->cookie = ++fs->nr_listed;
	l->arg_mask = arg_mask;
	l->proto = proto;
	l->level = 0;
	return 0;
}

/*
 * Whether @call passes --errors and --min-latency. Recorded through the
 * fprobe PMU, the kernel applied them already (errors without the return
 * type): they are checked again here, with the type from DWARF when there
 * is one. A call with no exit has no return value: not an error.
 */
static bool fprobe_session__wanted(struct fprobe_session *fs, const struct fprobe_call *call,
				   const struct fprobe_func *proto)
{
	bool complete = call->flags == (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT);

	if (fs->opts.errors &&
	    (!(call->flags & FPROBE_CALL_EXIT) ||
	     !fprobe_type__is_error(proto ? &proto->ret : NULL, call->retval)))
		return false;
	return !complete || call->duration >= fs->opts.ropts->min_latency;
}

static struct fprobe_task *fprobe_session__task(struct fprobe_session *fs, s32 tid);

/*
 * The thread of @call was out of every traced call when a call that ended
 * at task->settle_after returned: if @call began after that, no call to
 * come is around or inside those the report has of the thread, which it
 * can nest and keep only the sums of (it keeps them for --calls and
 * --chrome). Not before: on another CPU, whose clock may be slightly
 * behind, a call inside the last one could still come. The idle tasks of
 * all CPUs share tid 0: they are never settled.
 */
static int fprobe_session__settle(struct fprobe_session *fs, const struct fprobe_call *call)
{
	struct fprobe_task *task;
	int err;

	if (!fs->rep || !call->tid)
		return 0;
	task = fprobe_session__task(fs, call->tid);
	if (!task)
		return -ENOMEM;
	if (!task->settle_after || call->entry_time < task->settle_after)
		return 0;
	err = fprobe_report__settle(fs->rep, call->tid);
	task->settle_after = 0;
	return err;
}

/* @call's thread is out of every traced call since @call returned */
static int fprobe_session__out_of_calls(struct fprobe_session *fs, const struct fprobe_call *call)
{
	struct fprobe_task *task;

	if (!fs->rep || !call->tid)
		return 0;
	task = fprobe_session__task(fs, call->tid);
	if (!task)
		return -ENOMEM;
	task->settle_after = call->entry_time + call->duration;
	return 0;
}

static int fprobe_session__emit(struct fprobe_session *fs, struct fprobe_call *call,
				u32 arg_mask, struct fprobe_func *proto)
{
	int err = fprobe_session__settle(fs, call);

	if (err)
		return err;
	if (!fprobe_report_opts__selects(fs->opts.ropts, call) ||
	    !fprobe_session__wanted(fs, call, proto))
		return 0;
	if (call->flags != (FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT))
		fs->stats.nr_incomplete++;
	else
		fs->stats.nr_calls++;
	if (fs->opts.call)
		return fs->opts.call(call, arg_mask, proto, fs->opts.call_arg);
	if (fprobe_session__list_call(fs, call, arg_mask, proto) < 0)
		return -ENOMEM;
	return fprobe_report__add(fs->rep, call);
}

static struct fprobe_task *fprobe_session__task(struct fprobe_session *fs, s32 tid)
{
	struct fprobe_task *task = NULL;

	if (hashmap__find(fs->tasks, (long)tid, &task))
		return task;
	task = zalloc(sizeof(*task));
	if (task && hashmap__add(fs->tasks, (long)tid, task) < 0)
		zfree(&task);
	return task;
}

/* Calls still open on @task lost their exit: they go with no latency */
static int fprobe_task__flush(struct fprobe_session *fs, struct fprobe_task *task,
			      int down_to)
{
	int err = 0;

	while (task->nr > down_to) {
		struct fprobe_pending *p = &task->stack[--task->nr];

		if (!err)
			err = fprobe_session__emit(fs, &p->call, p->arg_mask, p->proto);
		free(p->call.stack);
		fprobe_call__free_fetched(&p->call);
	}
	return err;
}

/*
 * The calls of a tracefs recording that had not returned when it ended
 * (their exits are not in it): counted, and not shown, as the fprobe PMU,
 * which records a call when it returns, has no record of them either
 */
static void fprobe_session__end_open_calls(struct fprobe_session *fs)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(fs->tasks, cur, bkt) {
		struct fprobe_task *task = cur->pvalue;

		while (task->nr) {
			struct fprobe_pending *p = &task->stack[--task->nr];

			/* not when the report was interrupted: those are unread */
			if (!(fs->interrupted && *fs->interrupted) &&
			    fprobe_report_opts__selects(fs->opts.ropts, &p->call))
				fs->stats.nr_open_at_end++;
			free(p->call.stack);
			fprobe_call__free_fetched(&p->call);
		}
	}
}

static int fprobe_session__flush_all(struct fprobe_session *fs)
{
	struct hashmap_entry *cur;
	size_t bkt;
	int err = 0;

	hashmap__for_each_entry(fs->tasks, cur, bkt) {
		struct fprobe_task *task = cur->pvalue;

		if (fprobe_task__flush(fs, task, 0) < 0)
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
	for (p = open + 1; p < name + len - 1; p = end + 1) {
		char *param, *type;

		end = strchr(p, ',');
		if (!end || end > name + len - 1)
			end = name + len - 1;
		param = strndup(p, end - p);
		if (!param)
			break;
		type = strchr(param, ':');
		if (type && info->nr_fetch < FPROBE_CALL_MAX_FETCH) {
			*type = '\0';
			info->fetch_names[info->nr_fetch] = param;
			info->fetch_types[info->nr_fetch++] = type + 1;
		} else if (!type && info->nr_params < FPROBE_CALL_MAX_ARGS) {
			info->params[info->nr_params++] = param;
		} else {
			free(param);
		}
	}
}

static void fprobe_evinfo__delete(struct fprobe_evinfo *info)
{
	int i;

	if (!info)
		return;
	for (i = 0; i < info->nr_params; i++)
		free(info->params[i]);
	for (i = 0; i < (int)info->nr_fetch; i++)
		free(info->fetch_names[i]);
	free(info);
}

/*
 * Which of the arguments a PMU record of @info captured, for a call of the
 * function @proto describes, are shown: those of the parameters named, or
 * else those of any parameter (the event captures the same number of
 * arguments for every function of its glob: the registers that hold none
 * of this one's parameters, beyond them or the halves of a struct by
 * value, are not). Without DWARF or BTF, every argument captured.
 */
static u32 fprobe_evinfo__arg_mask(struct fprobe_evinfo *info, struct fprobe_func *proto,
				   u32 nargs)
{
	u32 mask = nargs ? (1U << nargs) - 1 : 0, had = 0;
	int i, j;

	if (!proto)
		return mask;
	if (info && info->last_proto == proto)
		return mask & info->last_mask;
	for (i = 0; i < proto->nr_params; i++) {
		const struct fprobe_param *p = &proto->params[i];

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
		info->last_proto = proto;
		info->last_mask = had;
	}
	return mask & had;
}

static struct fprobe_evinfo *evsel__fprobe_evinfo(struct evsel *evsel)
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
			    info->nr_fields == FPROBE_CALL_MAX_ARGS + FPROBE_CALL_MAX_FETCH)
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

/* Drop the entries of @task's fetching stack from @down_to on */
static void fprobe_task__drop_fetching(struct fprobe_task *task, int down_to)
{
	while (task->nr_fetching > down_to) {
		struct fprobe_fetching *f = &task->fetching[--task->nr_fetching];

		fprobe_fetched__free(f->vals, f->nr);
	}
}

/*
 * The records of a PMU event that fetches values (PARAM->member,
 * PARAM:string) at entry: the entry record has them, and waits on its
 * thread's fetching stack (kept apart from the tracefs path's, which lost
 * records flush) for the exit record of the same call, with the same
 * function, depth and entry time, which takes them over. An entry drops
 * those at its depth and deeper: they returned with no exit record (one the
 * kernel-side filters left out, or lost). The idle threads (tid 0) are
 * apart per CPU. Return: 1 for an exit record, its values (copies, to free)
 * in @call if its entry record was seen; 0 for an entry record (kept, or
 * counted if it does not parse); -ENOMEM.
 */
static int fprobe_session__pmu_fetched(struct fprobe_session *fs, struct fprobe_evinfo *info,
				       struct perf_sample *sample, struct fprobe_call *call)
{
	s32 key = sample->tid ? (s32)sample->tid : -1 - (s32)sample->cpu;
	struct fprobe_task *task = fprobe_session__task(fs, key);
	struct fprobe_fetched vals[FPROBE_CALL_MAX_FETCH];
	struct fprobe_fetching *f;
	int i, err;

	if (!task)
		return -ENOMEM;
	if (call->flags & FPROBE_CALL_EXIT) {
		for (i = task->nr_fetching - 1; i >= 0; i--) {
			f = &task->fetching[i];
			if (f->func == call->func && f->depth == call->depth &&
			    f->entry_time == call->entry_time)
				break;
		}
		if (i < 0)
			return 1;
		f = &task->fetching[i];
		call->fetch = f->vals;
		call->nr_fetch = f->nr;
		f->vals = NULL;
		fprobe_task__drop_fetching(task, i);
		return 1;
	}

	for (i = task->nr_fetching; i > 0 && task->fetching[i - 1].depth >= call->depth; i--)
		;
	fprobe_task__drop_fetching(task, i);
	err = fprobe_pmu_record__fetched(sample->raw_data, sample->raw_size, info->fetch_types,
					 (const char * const *)info->fetch_names, info->nr_fetch,
					 vals);
	if (err) {
		fs->stats.nr_bad++;
		return 0;
	}
	if ((size_t)task->nr_fetching == task->alloc_fetching) {
		size_t alloc = task->alloc_fetching ? task->alloc_fetching * 2 : 8;

		f = realloc(task->fetching, alloc * sizeof(*f));
		if (!f)
			return -ENOMEM;
		task->fetching = f;
		task->alloc_fetching = alloc;
	}
	f = &task->fetching[task->nr_fetching];
	f->vals = fprobe_fetched__dup(vals, info->nr_fetch);
	if (!f->vals)
		return -ENOMEM;
	f->func = call->func;
	f->entry_time = call->entry_time;
	f->depth = call->depth;
	f->nr = info->nr_fetch;
	task->nr_fetching++;
	return 0;
}

static int fprobe_session__pmu_sample(struct fprobe_session *fs, struct evsel *evsel,
				      struct fprobe_evinfo *info,
				      struct perf_sample *sample, struct machine *machine)
{
	struct fprobe_call call;
	struct fprobe_func *proto;
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
		fs->stats.nr_bad++;
		return 0;
	}
	call.name = kernel_sym_name(fs, machine, call.func);
	call.pid = sample->pid;
	call.tid = sample->tid;
	call.cpu = sample->cpu;
	if (info->nr_fetch) {
		ret = fprobe_session__pmu_fetched(fs, info, sample, &call);
		if (ret <= 0)
			return ret;
	}
	call.nr_stack = fprobe_session__resolve_stack(fs, evsel, sample, machine, call.func);
	call.stack = fs->stack_buf;
	proto = fprobe_session__func_proto(fs, call.name);
	ret = fprobe_session__emit(fs, &call, fprobe_evinfo__arg_mask(info, proto, call.nargs),
				   proto);
	/*
	 * A call that returned with no function graph frame below its own
	 * (the PMU's depth, 0 then) was the outermost traced call of its
	 * thread: a call around it would have its frame there.
	 */
	if (!ret && call.flags & FPROBE_CALL_EXIT && !call.depth)
		ret = fprobe_session__out_of_calls(fs, &call);
	fprobe_call__free_fetched(&call);
	return ret;
}

/*
 * Add the value of the fprobe event field @field, fetched by a member path
 * or a type, to @call: 0, -ENOMEM. A string is copied; the kernel stores
 * "(fault)" for one it could not read. An integer is shown in hex when
 * the event prints it so (an x type).
 */
static int fprobe_session__tp_fetched(struct evsel *evsel, struct perf_sample *sample,
				      struct tep_format_field *field, struct fprobe_call *call)
{
	struct fprobe_fetched *v;
	const char *fmt;
	char pat[128];

	if (call->nr_fetch == FPROBE_CALL_MAX_FETCH)
		return 0;
	if (!call->fetch) {
		call->fetch = calloc(FPROBE_CALL_MAX_FETCH, sizeof(*call->fetch));
		if (!call->fetch)
			return -ENOMEM;
	}
	v = &call->fetch[call->nr_fetch];
	memset(v, 0, sizeof(*v));
	v->name = field->name;
	if (field->flags & TEP_FIELD_IS_STRING) {
		const char *str = evsel__rawptr(evsel, sample, field->name);
		size_t len = 0;

		/* within the raw data: the length the data location gives */
		if (str && field->flags & TEP_FIELD_IS_DYNAMIC &&
		    field->offset + sizeof(u32) <= sample->raw_size) {
			u32 loc;

			memcpy(&loc, (const char *)sample->raw_data + field->offset, sizeof(loc));
			len = loc >> 16;
			if ((const char *)str + len >
			    (const char *)sample->raw_data + sample->raw_size)
				str = NULL;
		} else {
			str = NULL;
		}
		v->kind = FPROBE_FETCH_STRING;
		v->str = strndup(str ?: "", len);
		if (!v->str)
			return -ENOMEM;
		if (!str)
			v->flags |= FPROBE_FETCHED_FAULT;
		call->nr_fetch++;
		return 0;
	}
	v->val = evsel__intval(evsel, sample, field->name);
	v->size = field->size;
	v->kind = field->flags & TEP_FIELD_IS_SIGNED ? FPROBE_FETCH_SIGNED : FPROBE_FETCH_UNSIGNED;
	fmt = evsel->tp_format->print_fmt.format;
	scnprintf(pat, sizeof(pat), " %s=0x", field->name);
	if (fmt && strstr(fmt, pat))
		v->kind = FPROBE_FETCH_HEX;
	call->nr_fetch++;
	return 0;
}

static int fprobe_session__tp_entry(struct fprobe_session *fs, struct evsel *evsel,
				    struct fprobe_evinfo *info, struct perf_sample *sample,
				    struct machine *machine)
{
	struct fprobe_task *task = fprobe_session__task(fs, sample->tid);
	struct fprobe_pending *p;
	int i;

	if (!task)
		return -ENOMEM;
	/* not realloc_array_as_needed(): it does not free the array it outgrew */
	if ((size_t)task->nr == task->alloc) {
		size_t alloc = task->alloc ? task->alloc * 2 : 8;
		struct fprobe_pending *stack = realloc(task->stack, alloc * sizeof(*stack));

		if (!stack)
			return -ENOMEM;
		task->stack = stack;
		task->alloc = alloc;
	}
	p = &task->stack[task->nr];
	memset(p, 0, sizeof(*p));
	p->call.func = evsel__intval(evsel, sample, "__probe_ip");
	p->call.name = kernel_sym_name(fs, machine, p->call.func);
	p->call.entry_time = sample->time;
	p->call.depth = task->nr;
	p->call.flags = FPROBE_CALL_ENTRY;
	p->call.pid = sample->pid;
	p->call.tid = sample->tid;
	p->call.cpu = sample->cpu;
	p->proto = fprobe_session__func_proto(fs, p->call.name);

	for (i = 0; i < info->nr_fields; i++) {
		struct tep_format_field *field = info->fields[i];
		int idx = i;
		u64 val;

		/*
		 * A string, or a field no parameter has, is a value a member
		 * path or a type fetched (PARAM->member, PARAM:string)
		 */
		if ((field->flags & TEP_FIELD_IS_STRING) ||
		    (p->proto && fprobe_func__param_index(p->proto, field->name) < 0)) {
			if (fprobe_session__tp_fetched(evsel, sample, field, &p->call) < 0) {
				fprobe_call__free_fetched(&p->call);
				return -ENOMEM;
			}
			continue;
		}
		if (idx >= FPROBE_CALL_MAX_ARGS)
			continue;
		val = evsel__intval(evsel, sample, info->field_names[i]);
		if (p->proto) {
			idx = fprobe_func__param_index(p->proto, info->field_names[i]);
			if (idx < 0)
				continue;
			idx = p->proto->params[idx].arg;
			if (idx < 0 || idx >= FPROBE_CALL_MAX_ARGS)
				continue;
		}
		p->call.args[idx] = val;
		p->arg_mask |= 1U << idx;
		p->call.nargs = max(p->call.nargs, (u32)idx + 1);
	}

	p->call.nr_stack = fprobe_session__resolve_stack(fs, evsel, sample,
							 machine, p->call.func);
	if (p->call.nr_stack) {
		p->call.stack = calloc(p->call.nr_stack, sizeof(*p->call.stack));
		if (!p->call.stack) {
			fprobe_call__free_fetched(&p->call);
			return -ENOMEM;
		}
		memcpy(p->call.stack, fs->stack_buf,
		       p->call.nr_stack * sizeof(*p->call.stack));
	}
	task->nr++;
	return 0;
}

static int fprobe_session__tp_exit(struct fprobe_session *fs, struct evsel *evsel,
				   struct perf_sample *sample, struct machine *machine)
{
	struct fprobe_task *task = fprobe_session__task(fs, sample->tid);
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
		call.name = kernel_sym_name(fs, machine, func);
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
		if (!fs->stats.nr_lost) {
			if (fprobe_report_opts__selects(fs->opts.ropts, &call))
				fs->stats.nr_begun_before++;
			return 0;
		}
		return fprobe_session__emit(fs, &call, 0,
					    fprobe_session__func_proto(fs, call.name));
	}

	/* the calls above it lost their exit */
	err = fprobe_task__flush(fs, task, i + 1);
	if (err)
		return err;

	task->nr--;
	call = task->stack[i].call;
	call.ret_ip = evsel__intval(evsel, sample, "__probe_ret_ip");
	call.retval = retval;
	call.duration = sample->time - call.entry_time;
	call.flags |= FPROBE_CALL_EXIT;
	err = fprobe_session__emit(fs, &call, task->stack[i].arg_mask, task->stack[i].proto);
	free(call.stack);
	fprobe_call__free_fetched(&call);
	/* no entry of the thread left open: it is out of every traced call */
	if (!err && !task->nr)
		err = fprobe_session__out_of_calls(fs, &call);
	return err;
}

int fprobe_session__sample(struct fprobe_session *fs, struct evsel *evsel,
			   struct perf_sample *sample, struct machine *machine)
{
	struct fprobe_evinfo *info = evsel__fprobe_evinfo(evsel);

	if (!info)
		return -ENOMEM;
	if (info->pmu)
		return fprobe_session__pmu_sample(fs, evsel, info, sample, machine);
	if (info->exit)
		return fprobe_session__tp_exit(fs, evsel, sample, machine);
	return fprobe_session__tp_entry(fs, evsel, info, sample, machine);
}

static int fprobe_session__process_sample(const struct perf_tool *tool,
					  union perf_event *event __maybe_unused,
					  struct perf_sample *sample, struct evsel *evsel,
					  struct machine *machine)
{
	struct fprobe_session *fs = container_of(tool, struct fprobe_session, tool);

	if (!evsel__is_fprobe(evsel))
		return 0;
	return fprobe_session__sample(fs, evsel, sample, machine);
}

/*
 * Records were lost: an exit seen after this point may belong to an entry
 * that was lost, so no call open now is given a latency. @nr records in a
 * PERF_RECORD_LOST (@samples false), which a ring buffer writes when it
 * has room again, or in a PERF_RECORD_LOST_SAMPLES, which perf writes at
 * the end of a recording from each event's PERF_FORMAT_LOST count: that
 * one counts every record the event lost, those its ring buffer lost (in
 * the PERF_RECORD_LOSTs) included. The records lost are the larger of the
 * two sums, not their sum; a recording without PERF_RECORD_LOST_SAMPLES
 * (a kernel without PERF_FORMAT_LOST) has the ring buffers' alone.
 */
static int fprobe_session__lost(struct fprobe_session *fs, u64 nr, bool samples)
{
	struct fprobe_session_stats *st = &fs->stats;
	u64 total;

	if (samples)
		st->nr_lost_samples += nr;
	else
		st->nr_lost_ring += nr;
	total = max(st->nr_lost_ring, st->nr_lost_samples);
	if (fs->rep && total > st->nr_lost)
		fprobe_report__add_lost(fs->rep, total - st->nr_lost);
	st->nr_lost = total;
	return fprobe_session__flush_all(fs);
}

static int fprobe_session__process_lost(const struct perf_tool *tool, union perf_event *event,
					struct perf_sample *sample __maybe_unused,
					struct machine *machine __maybe_unused)
{
	return fprobe_session__lost(container_of(tool, struct fprobe_session, tool),
			    event->lost.lost, false);
}

static int fprobe_session__process_lost_samples(const struct perf_tool *tool,
						union perf_event *event,
						struct perf_sample *sample __maybe_unused,
						struct machine *machine __maybe_unused)
{
	return fprobe_session__lost(container_of(tool, struct fprobe_session, tool),
			    event->lost_samples.lost, true);
}

/*
 * The kernel throttled an event (over kernel.perf_event_max_sample_rate
 * samples per second on a CPU): its records until the next tick are lost,
 * and counted in its lost samples.
 */
static int fprobe_session__process_throttle(const struct perf_tool *tool,
					    union perf_event *event __maybe_unused,
					    struct perf_sample *sample __maybe_unused,
					    struct machine *machine __maybe_unused)
{
	struct fprobe_session *fs = container_of(tool, struct fprobe_session, tool);

	fs->stats.nr_throttled++;
	if (fs->rep)
		fprobe_report__add_throttled(fs->rep);
	return 0;
}

static int listed__cmp(const void *a, const void *b)
{
	const struct fprobe_listed *la = a, *lb = b;

	if (la->call.entry_time != lb->call.entry_time)
		return la->call.entry_time < lb->call.entry_time ? -1 : 1;
	return (int)la->call.depth - (int)lb->call.depth;
}

static int listed__set_level(u64 cookie, int level, void *arg)
{
	struct fprobe_session *fs = arg;

	if (cookie && cookie <= fs->nr_listed)
		fs->listed[cookie - 1].level = level;
	return 0;
}

/*
 * --calls: one line per call, by entry time, with arguments by DWARF type.
 * With --max-depth, the calls the report nests deeper are left out, as in
 * the tree; a call without its entry or exit, which the report does not
 * nest, is shown.
 */
void fprobe_session__print_calls(struct fprobe_session *fs, FILE *fp)
{
	const u32 both = FPROBE_CALL_ENTRY | FPROBE_CALL_EXIT;
	size_t i;

	/*
	 * A call is indented by its nesting among the traced calls shown, as
	 * the report nests them: the same on both paths, where the depth the
	 * fprobe PMU records counts every function graph frame of the task.
	 */
	fprobe_report__walk_calls(fs->rep, listed__set_level, fs);
	for (i = 0; i < fs->nr_listed; i++) {
		if (fs->listed[i].level)
			fs->listed[i].call.depth = fs->listed[i].level - 1;
	}
	qsort(fs->listed, fs->nr_listed, sizeof(*fs->listed), listed__cmp);
	fprintf(fp, "# %16s %7s %3s  %12s  call\n", "time", "tid", "cpu", "duration");
	for (i = 0; i < fs->nr_listed; i++) {
		const struct fprobe_listed *l = &fs->listed[i];

		if (fs->opts.ropts->max_depth && !l->level && l->call.flags == both)
			continue;
		fprobe_call__fprintf(&l->call, l->arg_mask, l->proto, NULL, fp);
	}
}

struct fprobe_session *fprobe_session__new(const struct fprobe_session_opts *opts)
{
	struct fprobe_session *fs = zalloc(sizeof(*fs));
	struct perf_tool *tool;

	if (!fs)
		return NULL;
	fs->opts = *opts;
	fs->tasks = hashmap__new(long_hash, long_equal, NULL);
	fs->funcs_by_name = hashmap__new(fprobe__str_hash, fprobe__str_equal, NULL);
	if (IS_ERR(fs->tasks) || IS_ERR(fs->funcs_by_name)) {
		fprobe_session__delete(fs);
		return NULL;
	}

	tool = &fs->tool;
	perf_tool__init(tool, /*ordered_events=*/true);
	tool->sample	   = fprobe_session__process_sample;
	tool->comm	   = perf_event__process_comm;
	tool->fork	   = perf_event__process_fork;
	tool->exit	   = perf_event__process_exit;
	tool->mmap	   = perf_event__process_mmap;
	tool->mmap2	   = perf_event__process_mmap2;
	tool->ksymbol	   = fprobe_session__process_ksymbol;
	tool->lost	   = fprobe_session__process_lost;
	tool->lost_samples = fprobe_session__process_lost_samples;
	tool->throttle	   = fprobe_session__process_throttle;
	tool->attr	   = perf_event__process_attr;
	tool->tracing_data = perf_event__process_tracing_data;
	tool->build_id	   = perf_event__process_build_id;
	tool->ordering_requires_timestamps = true;
	return fs;
}

void fprobe_session__evsel_delete(struct evsel *evsel)
{
	fprobe_evinfo__delete(evsel->priv);
	evsel->priv = NULL;
}

void fprobe_session__delete(struct fprobe_session *fs)
{
	struct hashmap_entry *cur;
	struct evsel *evsel;
	size_t bkt;

	if (!fs)
		return;
	if (!IS_ERR_OR_NULL(fs->tasks)) {
		hashmap__for_each_entry(fs->tasks, cur, bkt) {
			struct fprobe_task *task = cur->pvalue;

			while (task->nr--) {
				free(task->stack[task->nr].call.stack);
				fprobe_call__free_fetched(&task->stack[task->nr].call);
			}
			fprobe_task__drop_fetching(task, 0);
			free(task->fetching);
			free(task->stack);
			free(task);
		}
		hashmap__free(fs->tasks);
	}
	if (!IS_ERR_OR_NULL(fs->funcs_by_name)) {
		hashmap__for_each_entry(fs->funcs_by_name, cur, bkt) {
			free((char *)cur->pkey);
			fprobe_func__delete(cur->pvalue);
		}
		hashmap__free(fs->funcs_by_name);
	}
	hashmap__free(fs->syms_by_addr);
	for (size_t i = 0; i < fs->nr_listed; i++)
		fprobe_call__free_fetched(&fs->listed[i].call);
	free(fs->listed);
	if (fs->session) {
		evlist__for_each_entry(fs->session->evlist, evsel)
			fprobe_session__evsel_delete(evsel);
		perf_session__delete(fs->session);
	}
	free(fs);
}

const struct fprobe_session_stats *fprobe_session__stats(const struct fprobe_session *fs)
{
	return &fs->stats;
}

/*
 * Without -k, prototypes are the running kernel's: not those of the
 * recording @path, made on another kernel (@env's), whose arguments are
 * then shown as registers, as said here. Return: whether they fit it.
 */
static bool fprobe_protos__fit(const struct fprobe_protos *protos, struct perf_env *env,
			       const char *path)
{
	struct utsname uts;

	if (protos->vmlinux || !env->os_release || uname(&uts) ||
	    !strcmp(env->os_release, uts.release))
		return true;
	pr_warning("perf fprobe: %s was recorded on Linux %s, this is %s: the arguments are shown as registers (give its vmlinux with -k for their names and types)\n",
		   path, env->os_release, uts.release);
	return false;
}

struct perf_session *fprobe_session__open(struct fprobe_session *fs, const char *path)
{
	struct perf_session *session;
	struct fprobe_protos *protos = fs->opts.protos;
	struct evsel *evsel;
	bool found = false;

	fs->data.path = path;
	fs->data.mode = PERF_DATA_MODE_READ;
	session = perf_session__new(&fs->data, &fs->tool);
	if (IS_ERR(session)) {
		pr_err("failed to open %s\n", path);
		return NULL;
	}
	/*
	 * -k names the kernel's symbols too, as perf report's and perf
	 * script's do: a recording read on another machine would otherwise
	 * be symbolized with that machine's /proc/kallsyms. Not a raw BTF
	 * file (--btf -k), which has no symbols.
	 */
	if (protos->vmlinux && fprobe_elf__machine(protos->vmlinux) != EM_NONE)
		symbol_conf.vmlinux_name = protos->vmlinux;
	symbol__init(&session->header.env);
	if (fs->opts.need_protos && !fprobe_protos__fit(protos, &session->header.env, path))
		fs->opts.need_protos = false;

	evlist__for_each_entry(session->evlist, evsel) {
		if (evsel__is_fprobe(evsel))
			found = true;
	}
	if (!found) {
		pr_err("%s has no perf fprobe events (neither the fprobe PMU nor %s tracepoints)\n",
		       path, FPROBE_GROUP);
		perf_session__delete(session);
		return NULL;
	}
	/*
	 * --call-graph dwarf: the maps of each thread get perf's unwinder
	 * as they are read
	 */
	if ((evlist__combined_sample_type(session->evlist) &
	     (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)) ==
	    (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		dwarf_callchain_users = true;
	fs->session = session;
	return session;
}

int fprobe_session__process(struct fprobe_session *fs, struct fprobe_report *rep,
			    const sig_atomic_t *interrupted)
{
	int ret;

	fs->rep = rep;
	fs->interrupted = interrupted;
	ret = perf_session__process_events(fs->session);
	if (interrupted && *interrupted) {
		/* the samples read and still queued for ordering: deliver them */
		session_done = 0;
		ret = ordered_events__flush(&fs->session->ordered_events, OE_FLUSH__FINAL);
	}
	if (!ret)
		fprobe_session__end_open_calls(fs);
	return ret;
}

/*
 * perf script: the call of each sample of the fprobe PMU, read alone (an
 * entry record's fetched values on its own line, not joined to its exit
 * as in a report). The events' state is kept here, not in evsel->priv,
 * which perf script has for its own.
 */
struct fprobe_script {
	struct fprobe_protos	protos;
	struct fprobe_session	*fs;	/* its prototypes, looked up once */
	struct hashmap		*infos;	/* struct evsel * -> struct fprobe_evinfo * */
};

bool evsel__is_fprobe_pmu(struct evsel *evsel)
{
	return !evsel->tp_format && evsel__is_fprobe(evsel);
}

struct fprobe_script *fprobe_script__new(const char *vmlinux, struct perf_env *env,
					 const char *path)
{
	struct fprobe_session_opts opts = { .need_protos = true };
	struct fprobe_script *sc = zalloc(sizeof(*sc));

	if (!sc)
		return NULL;
	sc->protos.vmlinux = vmlinux;
	opts.protos = &sc->protos;
	opts.need_protos = fprobe_protos__fit(&sc->protos, env, path);
	sc->fs = fprobe_session__new(&opts);
	sc->infos = hashmap__new(long_hash, long_equal, NULL);
	if (!sc->fs || IS_ERR(sc->infos)) {
		if (IS_ERR(sc->infos))
			sc->infos = NULL;
		fprobe_script__delete(sc);
		return NULL;
	}
	return sc;
}

void fprobe_script__delete(struct fprobe_script *sc)
{
	struct hashmap_entry *cur;
	size_t bkt;

	if (!sc)
		return;
	if (sc->infos) {
		hashmap__for_each_entry(sc->infos, cur, bkt)
			fprobe_evinfo__delete(cur->pvalue);
		hashmap__free(sc->infos);
	}
	fprobe_session__delete(sc->fs);
	fprobe_protos__exit(&sc->protos);
	free(sc);
}

/**
 * fprobe_script__fprintf - print the call a sample of the fprobe PMU records
 * @sc: the state of perf script's fprobe events
 * @evsel: the sample's event, of the fprobe PMU (evsel__is_fprobe_pmu())
 * @sample: the sample
 * @machine: its machine, for the traced function's symbol
 * @fp: where to
 *
 * "func(args) = ret" for an exit record, "func(args, fetched)" for an
 * entry record (which holds what the event fetches, PARAM->member and
 * PARAM:string): the arguments of the parameters the event's name gives,
 * or else all of the function's, named and typed from DWARF or BTF (see
 * fprobe_script__new()), as perf fprobe trace prints them. A record of a version this perf does not
 * know, or one that does not decode, is said so in place of the call.
 *
 * Return: 0, or -ENOMEM.
 */
int fprobe_script__fprintf(struct fprobe_script *sc, struct evsel *evsel,
			   struct perf_sample *sample, struct machine *machine, FILE *fp)
{
	struct fprobe_fetched vals[FPROBE_CALL_MAX_FETCH];
	struct fprobe_evinfo *info = NULL;
	struct fprobe_call call;
	struct fprobe_func *proto;
	struct symbol *sym;
	int err, fetch_err = 0;

	if (!hashmap__find(sc->infos, evsel, &info)) {
		info = zalloc(sizeof(*info));
		if (!info)
			return -ENOMEM;
		info->pmu = true;
		fprobe_evinfo__parse_params(info, evsel__name(evsel));
		if (hashmap__add(sc->infos, evsel, info) < 0) {
			fprobe_evinfo__delete(info);
			return -ENOMEM;
		}
	}
	memset(&call, 0, sizeof(call));
	err = fprobe_pmu_record__decode(sample->raw_data, sample->raw_size, &call);
	if (err == -EPROTONOSUPPORT) {
		fprintf(fp, "(an fprobe PMU record of version %u: this perf reads version %u)",
			fprobe_pmu_record__version(sample->raw_data, sample->raw_size),
			FPROBE_PMU_RECORD_VERSION);
		return 0;
	}
	if (err) {
		fprintf(fp, "(an fprobe PMU record that does not decode, of %u bytes)",
			sample->raw_size);
		return 0;
	}
	sym = machine__find_kernel_symbol(machine, call.func, NULL);
	call.name = sym ? sym->name : NULL;
	if (!(call.flags & FPROBE_CALL_EXIT) && info->nr_fetch) {
		fetch_err = fprobe_pmu_record__fetched(sample->raw_data, sample->raw_size,
						       info->fetch_types,
						       (const char * const *)info->fetch_names,
						       info->nr_fetch, vals);
		if (!fetch_err) {
			call.fetch = vals;
			call.nr_fetch = info->nr_fetch;
		}
	}
	proto = fprobe_session__func_proto(sc->fs, call.name);
	fprobe_call__fprintf_call(&call, fprobe_evinfo__arg_mask(info, proto, call.nargs), proto,
				  false, fp);
	if (fetch_err)
		fprintf(fp, " (its fetched values do not decode)");
	return 0;
}
