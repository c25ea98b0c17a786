// SPDX-License-Identifier: GPL-2.0
/*
 * perf fprobe without the fprobe PMU: an entry and an exit fprobe event in
 * tracefs per function of the probes, in the perf_fprobe group
 * (fprobe_tracefs__add_events()), recorded by perf record as tracepoints
 * (fprobe_tracefs__record_argv()) and removed afterwards. The exit samples
 * are then given the call's duration as period and the function as ip
 * (fprobe_tracefs__fixup_periods()), so that perf report ranks functions by
 * time on this path too. util/fprobe-record.c records with the PMU.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include <perf/evsel.h>
#include <api/fs/fs.h>
#include <api/fs/tracing_path.h>
#include <traceevent/event-parse.h>

#include "callchain.h"
#include "data.h"
#include "debug.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "hashmap.h"
#include "header.h"
#include "mmap.h"
#include "record.h"
#include "sample.h"
#include "session.h"
#include "target.h"
#include "tool.h"
#include "fprobe-call.h"
#include "fprobe-dwarf.h"
#include "fprobe-probe.h"
#include "fprobe-record.h"

/* ---- the tracefs path: fprobe events in dynamic_events -------------------- */

static int fprobe__write_dynevent(const char *cmd, bool silent)
{
	char *path = get_tracing_file("dynamic_events");
	int fd, err = 0;

	if (!path)
		return -ENOENT;
	fd = open(path, O_WRONLY | O_APPEND);
	put_tracing_file(path);
	if (fd < 0)
		return -errno;
	pr_debug("dynamic_events: %s\n", cmd);
	if (write(fd, cmd, strlen(cmd)) < 0) {
		err = -errno;
		if (!silent)
			pr_debug("writing '%s' to dynamic_events: %s\n", cmd,
				 strerror(errno));
	}
	close(fd);
	return err;
}

static void print_tracefs_error_log(void)
{
	char *path = get_tracing_file("error_log");
	char line[512];
	FILE *fp;

	if (!path)
		return;
	fp = fopen(path, "r");
	put_tracing_file(path);
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp))
		pr_err("  %s", line);
	fclose(fp);
}

/* An event name for @func, unique among those of @probes: tracefs takes [A-Za-z0-9_] */
static char *fprobe__event_name(const struct fprobe_probes *probes, const char *func)
{
	char base[40], name[56], *p;
	int i, n = 0;

	snprintf(base, sizeof(base), "%s", func);
	for (p = base; *p; p++) {
		if (!isalnum(*p) && *p != '_')
			*p = '_';
	}
	snprintf(name, sizeof(name), "%s", base);
again:
	for (i = 0; i < probes->nr_funcs; i++) {
		if (probes->funcs[i].event && !strcmp(probes->funcs[i].event, name)) {
			snprintf(name, sizeof(name), "%s_%d", base, ++n);
			goto again;
		}
	}
	return strdup(name);
}

/**
 * fprobe_tracefs__event_defs - the fprobe events of one function
 * @f: the function, its event name set
 * @entry: its entry event, 'f:perf_fprobe/EVENT FUNC PARAM=$argN:TYPE ...'
 * @exit: its exit event, 'f:perf_fprobe/EVENT__return FUNC%return
 *	  retval=$retval:TYPE' (no retval for a function returning void)
 * @exit_len: the length of @exit without its retval, for a kernel that
 *	      refuses it (a function without prototype may return void)
 * @size: the size of @entry and @exit
 *
 * The parameters are those of the probe found in the function's prototype
 * (f->param_idx), by their register, with the fetch type of their type.
 */
void fprobe_tracefs__event_defs(const struct fprobe_target_func *f, char *entry, char *exit,
				size_t *exit_len, size_t size)
{
	const struct fprobe_probe *probe = f->probe;
	size_t len;
	int j;

	len = scnprintf(entry, size, "f:%s/%s %s", FPROBE_GROUP, f->event, f->name);
	for (j = 0; j < probe->nr_params; j++) {
		const struct fprobe_param *p;

		if (f->param_idx[j] < 0)
			continue;
		p = &f->proto->params[f->param_idx[j]];
		len += scnprintf(entry + len, size - len, " %s=$arg%d:%s", p->name,
				 p->arg + 1, fprobe_type__fetch_type(&p->type));
	}
	for (j = 0; j < probe->nr_fetch; j++)
		len += scnprintf(entry + len, size - len, " %s=%s", probe->fetch[j].name,
				 f->fetch_args[j]);

	len = scnprintf(exit, size, "f:%s/%s__return %s%%return", FPROBE_GROUP, f->event,
			f->name);
	*exit_len = len;
	if (!f->proto || f->proto->ret.kind != FPROBE_TYPE_VOID)
		scnprintf(exit + len, size - len, " %s=$retval:%s", FPROBE_RETVAL,
			  f->proto ? fprobe_type__fetch_type(&f->proto->ret) : "x64");
}

/**
 * fprobe_tracefs__add_events - add the fprobe events of every function of @probes
 * @probes: the probes, prepared (fprobe_probes__prepare())
 * @interrupted: set by a signal handler to stop, or NULL
 *
 * An entry and an exit event per function, in the perf_fprobe group. An
 * event of the same name left by an earlier run that died is replaced. On
 * failure, the events added stay: fprobe_tracefs__remove_events() removes
 * them.
 *
 * Return: 0, -1 with the error and tracefs' error_log printed.
 */
int fprobe_tracefs__add_events(struct fprobe_probes *probes,
			       const sig_atomic_t *interrupted)
{
	char cmd[1024], exit[1024];
	size_t exit_len;
	int i;

	for (i = 0; i < probes->nr_funcs; i++) {
		struct fprobe_target_func *f = &probes->funcs[i];
		int err;

		if (interrupted && *interrupted) {
			pr_err("interrupted while adding the fprobe events\n");
			return -1;
		}

		f->event = fprobe__event_name(probes, f->name);
		if (!f->event)
			return -1;
		fprobe_tracefs__event_defs(f, cmd, exit, &exit_len, sizeof(cmd));
		err = fprobe__write_dynevent(cmd, false);
		/* a stale event of an earlier run that died: replace it */
		if (err == -EEXIST || err == -EBUSY) {
			char del[128];

			snprintf(del, sizeof(del), "-:%s/%s", FPROBE_GROUP, f->event);
			fprobe__write_dynevent(del, true);
			snprintf(del, sizeof(del), "-:%s/%s__return", FPROBE_GROUP, f->event);
			fprobe__write_dynevent(del, true);
			err = fprobe__write_dynevent(cmd, false);
		}
		if (err) {
			pr_err("failed to add the fprobe event '%s': %s\n", cmd,
			       strerror(-err));
			print_tracefs_error_log();
			return -1;
		}
		f->added = true;

		err = fprobe__write_dynevent(exit, false);
		if (err && !f->proto) {
			/* no prototype: the kernel's BTF may know that it returns void */
			exit[exit_len] = '\0';
			err = fprobe__write_dynevent(exit, false);
		}
		if (err) {
			pr_err("failed to add the fprobe event '%s': %s\n", exit,
			       strerror(-err));
			print_tracefs_error_log();
			return -1;
		}
		f->added_exit = true;
	}
	return 0;
}

/*
 * Remove one fprobe event. With -p, the children the target forked while
 * perf was recording hold inherited copies of the perf events until they
 * exit, and the kernel refuses to remove an event in use (-EBUSY): wait
 * for them, up to FPROBE_REMOVE_WAIT_MS.
 */
#define FPROBE_REMOVE_WAIT_MS	5000
#define FPROBE_REMOVE_POLL_MS	20

static void fprobe__remove_event(const char *event, const char *suffix)
{
	char cmd[128];
	int err, waited = 0;

	snprintf(cmd, sizeof(cmd), "-:%s/%s%s", FPROBE_GROUP, event, suffix);
	while ((err = fprobe__write_dynevent(cmd, false)) == -EBUSY &&
	       waited < FPROBE_REMOVE_WAIT_MS) {
		usleep(FPROBE_REMOVE_POLL_MS * 1000);
		waited += FPROBE_REMOVE_POLL_MS;
	}
	if (err < 0)
		pr_warning("failed to remove the fprobe event %s/%s%s: %s\n",
			   FPROBE_GROUP, event, suffix, strerror(-err));
}

/* Remove the fprobe events that fprobe_tracefs__add_events() added */
void fprobe_tracefs__remove_events(struct fprobe_probes *probes)
{
	int i;

	for (i = 0; i < probes->nr_funcs; i++) {
		struct fprobe_target_func *f = &probes->funcs[i];

		if (f->added_exit) {
			fprobe__remove_event(f->event, "__return");
			f->added_exit = false;
		}
		if (f->added) {
			fprobe__remove_event(f->event, "");
			f->added = false;
		}
	}
}

/**
 * fprobe_tracefs__record_argv - the argv of perf record on the fprobe events
 * @probes: the probes, their events added
 * @opts: the target, -m
 * @output: the perf.data to write
 * @argc: the number of words of the command, 0 for none
 * @argv: the command
 * @rec_argc: set to the number of words of the argv returned
 *
 * Return: the argv, NULL-terminated, each word and the array to free; NULL.
 */
const char **fprobe_tracefs__record_argv(const struct fprobe_probes *probes,
					 const struct fprobe_record_opts *opts,
					 const char *output, int argc,
					 const char **argv, int *rec_argc)
{
	const char **rec_argv;
	int i, n = 0, max = 20 + 4 * probes->nr_funcs + argc;
	char buf[256];

	rec_argv = calloc(max + 1, sizeof(*rec_argv));
	if (!rec_argv)
		return NULL;

	rec_argv[n++] = strdup("record");
	for (i = 0; i < probes->nr_funcs; i++) {
		snprintf(buf, sizeof(buf), "%s:%s", FPROBE_GROUP,
			 probes->funcs[i].event);
		rec_argv[n++] = strdup("-e");
		rec_argv[n++] = strdup(buf);
		snprintf(buf, sizeof(buf), "%s:%s__return", FPROBE_GROUP,
			 probes->funcs[i].event);
		rec_argv[n++] = strdup("-e");
		rec_argv[n++] = strdup(buf);
	}
	rec_argv[n++] = strdup("--period");
	rec_argv[n++] = strdup("--sample-cpu");
	switch (opts->call_graph) {
	case FPROBE_CALL_GRAPH_KERNEL:
		rec_argv[n++] = strdup("-g");
		rec_argv[n++] = strdup("--kernel-callchains");
		break;
	case FPROBE_CALL_GRAPH_FP:
		rec_argv[n++] = strdup("--call-graph=fp");
		break;
	case FPROBE_CALL_GRAPH_DWARF:
		snprintf(buf, sizeof(buf), "--call-graph=dwarf,%u", opts->stack_dump_size);
		rec_argv[n++] = strdup(buf);
		break;
	case FPROBE_CALL_GRAPH_NONE:
	default:
		break;
	}
	rec_argv[n++] = strdup("-o");
	rec_argv[n++] = strdup(output);
	if (opts->target.system_wide)
		rec_argv[n++] = strdup("-a");
	if (opts->target.cpu_list) {
		rec_argv[n++] = strdup("-C");
		rec_argv[n++] = strdup(opts->target.cpu_list);
	}
	if (fprobe__mmap_pages(opts)) {
		snprintf(buf, sizeof(buf), "%u", fprobe__mmap_pages(opts));
		rec_argv[n++] = strdup("-m");
		rec_argv[n++] = strdup(buf);
	}
	if (opts->target.pid) {
		rec_argv[n++] = strdup("-p");
		rec_argv[n++] = strdup(opts->target.pid);
	}
	if (opts->tid_target) {
		rec_argv[n++] = strdup("-t");
		rec_argv[n++] = strdup(opts->tid_target);
	}
	if (argc)
		rec_argv[n++] = strdup("--");
	for (i = 0; i < argc; i++)
		rec_argv[n++] = strdup(argv[i]);

	for (i = 0; i < n; i++) {
		if (!rec_argv[i]) {
			while (n--)
				free((char *)rec_argv[n]);
			free(rec_argv);
			return NULL;
		}
		pr_debug("%s ", rec_argv[i]);
	}
	pr_debug("\n");
	*rec_argc = n;
	return rec_argv;
}

/* ---- period fixup of the tracefs path ------------------------------------ */

/* Whether the tracefs event @name is an exit event (FUNC__return) */
bool fprobe_tracefs__is_exit(const char *name)
{
	size_t n = strlen(name), m = strlen("__return");

	return n >= m && !strcmp(name + n - m, "__return");
}

static size_t tid_hash(long key, void *ctx __maybe_unused)
{
	return key;
}

static bool tid_equal(long a, long b, void *ctx __maybe_unused)
{
	return a == b;
}

struct fprobe_fix {
	u64	time;
	u64	func;
	__u64	*period;	/* in the mapped file */
	__u64	*ip;
	s32	tid;
	bool	exit;
	u32	order;
};

static int fprobe_fix__cmp(const void *a, const void *b)
{
	const struct fprobe_fix *fa = a, *fb = b;

	if (fa->time != fb->time)
		return fa->time < fb->time ? -1 : 1;
	return fa->order < fb->order ? -1 : 1;
}

/* Where the u64 of @bit is in the sample array, or NULL */
static __u64 *sample_field(union perf_event *event, u64 type, u64 bit)
{
	static const u64 order[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
		PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
	};
	__u64 *array = event->sample.array;
	size_t i;

	if (!(type & bit))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (order[i] == bit)
			return array;
		if (type & order[i])
			array++;
	}
	return NULL;
}

/*
 * The fprobe event samples of the @size bytes of records at @buf, in the
 * order of their time, into *@fixesp (*@nrp of them). Return 0, -1.
 */
static int fprobe_fixes__collect(struct perf_session *session, char *buf,
				 u64 size, struct fprobe_fix **fixesp,
				 size_t *nrp)
{
	struct fprobe_fix *fixes = NULL;
	size_t nr = 0, alloc = 0;
	u64 pos;

	for (pos = 0; pos + sizeof(struct perf_event_header) <= size;) {
		union perf_event *event = (union perf_event *)(buf + pos);
		struct perf_sample sample;
		struct evsel *evsel;
		struct fprobe_fix *fix;

		if (event->header.size < sizeof(event->header) ||
		    pos + event->header.size > size)
			break;
		pos += event->header.size;
		if (event->header.type != PERF_RECORD_SAMPLE)
			continue;
		if (evlist__parse_sample(session->evlist, event, &sample) < 0)
			continue;
		evsel = evlist__id2evsel(session->evlist, sample.id);
		if (!evsel || !evsel->tp_format ||
		    strcmp(evsel->tp_format->system, FPROBE_GROUP))
			continue;
		if (nr == alloc) {
			struct fprobe_fix *tmp;

			alloc = alloc ? alloc * 2 : 1024;
			tmp = realloc(fixes, alloc * sizeof(*fixes));
			if (!tmp) {
				free(fixes);
				return -1;
			}
			fixes = tmp;
		}
		fix = &fixes[nr];
		fix->time = sample.time;
		fix->tid = sample.tid;
		fix->order = nr;
		fix->exit = fprobe_tracefs__is_exit(evsel->tp_format->name);
		fix->func = evsel__intval(evsel, &sample,
					  fix->exit ? "__probe_func" : "__probe_ip");
		fix->period = sample_field(event, evsel->core.attr.sample_type,
					   PERF_SAMPLE_PERIOD);
		fix->ip = sample_field(event, evsel->core.attr.sample_type,
				       PERF_SAMPLE_IP);
		nr++;
	}
	qsort(fixes, nr, sizeof(*fixes), fprobe_fix__cmp);
	*fixesp = fixes;
	*nrp = nr;
	return 0;
}

/*
 * Pair each exit of @fixes (@nr of them, in time order) with the entry of
 * its call, and write the call's duration and function into its sample.
 * The calls open on each thread, innermost first, are a stack per tid in
 * @stacks, linked through the index of the entry below (kept in ->order,
 * no longer needed once sorted).
 */
static void fprobe_fixes__pair(struct fprobe_fix *fixes, size_t nr,
			       struct hashmap *stacks)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		struct fprobe_fix *fix = &fixes[i];
		long key = fix->tid, prev = -1;

		hashmap__find(stacks, key, &prev);
		if (!fix->exit) {
			fix->order = (u32)prev;
			hashmap__insert(stacks, key, (long)i, HASHMAP_SET, NULL, NULL);
			continue;
		}
		/* the innermost open entry of the same function */
		while (prev >= 0 && fixes[prev].func != fix->func)
			prev = (s32)fixes[prev].order;
		if (prev < 0)
			continue;	/* exit without entry: keep period 1 */
		if (fix->period)
			*fix->period = max_t(u64, fix->time - fixes[prev].time, 1);
		if (fix->ip)
			*fix->ip = fix->func;
		/* calls above it lost their exit: they leave the stack too */
		prev = (s32)fixes[prev].order;
		if (prev >= 0)
			hashmap__insert(stacks, key, prev, HASHMAP_SET, NULL, NULL);
		else
			hashmap__delete(stacks, key, NULL, NULL);
	}
}

/**
 * fprobe_tracefs__fixup_periods - durations as periods in a tracefs recording
 * @path: the perf.data perf record wrote
 *
 * Give each paired exit sample of a tracefs recording the duration of its
 * call as period and the function as ip: perf report then ranks functions
 * by time. The data section is a plain sequence of records (perf record
 * without -z or --threads): it is mapped shared, of any size, and the
 * fields are changed in place.
 *
 * Return: 0, -1.
 */
int fprobe_tracefs__fixup_periods(const char *path)
{
	struct perf_data data = { .path = path, .mode = PERF_DATA_MODE_READ };
	struct perf_session *session;
	struct fprobe_fix *fixes = NULL;
	struct hashmap *stacks = NULL;
	struct perf_tool tool;
	u64 off, size, map_off = 0, map_len = 0;
	void *map = MAP_FAILED;
	struct stat st;
	size_t nr = 0;
	int fd = -1, err = -1;

	perf_tool__init(&tool, /*ordered_events=*/false);
	session = perf_session__new(&data, &tool);
	if (IS_ERR(session))
		return -1;
	if (session->header.needs_swap || session->evlist->core.nr_entries == 0)
		goto out_delete;

	off = session->header.data_offset;
	size = session->header.data_size;
	stacks = hashmap__new(tid_hash, tid_equal, NULL);
	fd = open(path, O_RDWR);
	if (fd < 0 || IS_ERR(stacks))
		goto out_free;
	if (!size) {
		err = 0;
		goto out_free;
	}
	/* a data section beyond the file's end would fault, not fail */
	if (fstat(fd, &st) || off + size < off || off + size > (u64)st.st_size ||
	    size > SIZE_MAX / 2) {
		pr_err("%s: its data section is not within the file\n", path);
		goto out_free;
	}
	map_off = off & ~((u64)sysconf(_SC_PAGESIZE) - 1);
	map_len = size + (off - map_off);
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, map_off);
	if (map == MAP_FAILED)
		goto out_free;

	if (fprobe_fixes__collect(session, (char *)map + (off - map_off), size,
				  &fixes, &nr))
		goto out_free;
	fprobe_fixes__pair(fixes, nr, stacks);
	err = 0;	/* the writes are in the page cache: munmap() keeps them */
out_free:
	if (map != MAP_FAILED)
		munmap(map, map_len);
	if (fd >= 0)
		close(fd);
	if (!IS_ERR_OR_NULL(stacks))
		hashmap__free(stacks);
	free(fixes);
out_delete:
	perf_session__delete(session);
	return err;
}
