// SPDX-License-Identifier: GPL-2.0
/*
 * Recording the calls of the probes of perf fprobe (util/fprobe-probe.c)
 * with the fprobe PMU (/sys/bus/event_source/devices/fprobe): one event per
 * probe (fprobe_pmu__attr()); each completed call is one sample whose raw
 * data is a struct fprobe_pmu_record and whose period is the call's
 * duration. The PMU takes its filter as a user pointer in config1 (see
 * include/uapi/linux/fprobe_pmu.h): an event string cannot carry one, so
 * the events are built here and recorded with the evlist and session APIs
 * (fprobe_pmu__record()) into a perf.data file that perf report reads as
 * any, or handed as they come to perf fprobe trace (struct fprobe_live).
 * Without the PMU, util/fprobe-tracefs.c records fprobe events instead.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/err.h>
#include <linux/fprobe_pmu.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/string.h>

#include <internal/lib.h> // page_size
#include <internal/xyarray.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <api/fs/fs.h>

#include "callchain.h"
#include "color.h"
#include "data.h"
#include "debug.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "header.h"
#include "machine.h"
#include "mmap.h"
#include "record.h"
#include "sample.h"
#include "session.h"
#include "strbuf.h"
#include "symbol.h"
#include "synthetic-events.h"
#include "target.h"
#include "tool.h"
#include "fprobe-call.h"
#include "fprobe-dwarf.h"
#include "fprobe-probe.h"
#include "fprobe-record.h"

/*
 * The filter of each probe's fprobe PMU event, for config1: the one
 * fprobe_probes__prepare() made (its globs that attach functions, less
 * those over the cap), else its globs. Fails, saying which, if a filter or
 * the -N globs (config2) are longer than the PMU takes.
 */
int fprobe_pmu__set_filters(struct fprobe_probes *probes)
{
	struct fprobe_probe *probe;

	list_for_each_entry(probe, &probes->list, list) {
		if (!probe->filter)
			probe->filter = strdup(probe->glob);
		if (!probe->filter)
			return -1;
		if (strlen(probe->filter) + 1 > FPROBE_PMU_FILTER_MAX) {
			pr_err("the filter of '%s' is %zu bytes, longer than the fprobe PMU takes (%d bytes): narrow its globs, or leave functions out with -N\n",
			       probe->spec, strlen(probe->filter), FPROBE_PMU_FILTER_MAX - 1);
			return -1;
		}
	}
	if (probes->notrace && strlen(probes->notrace) + 1 > FPROBE_PMU_FILTER_MAX) {
		pr_err("the -N globs are longer than the fprobe PMU takes (%d bytes)\n",
		       FPROBE_PMU_FILTER_MAX - 1);
		return -1;
	}
	return 0;
}

/* The most functions one fprobe PMU event attaches to, -1 if not said */
int fprobe_pmu__max_funcs(void)
{
	int max;

	if (sysfs__read_int("bus/event_source/devices/fprobe/caps/max_funcs", &max) < 0 ||
	    max < 0)
		return -1;
	return max;
}

bool fprobe_pmu__has_scope(void)
{
	int scope;

	return sysfs__read_int("bus/event_source/devices/fprobe/caps/scope", &scope) == 0 &&
	       scope == 1;
}

int fprobe_pmu__max_fetch(void)
{
	int max;

	if (sysfs__read_int("bus/event_source/devices/fprobe/caps/max_fetch", &max) < 0 ||
	    max < 0)
		return 0;
	return max;
}

/*
 * --call-graph dwarf copies the user stack into each record (8 KiB by
 * default): without -m, the ring buffer of each CPU takes this many of
 * them, not perf's default 512 KiB, which fills in a burst of 60 calls;
 * up to FPROBE_DWARF_BUF_MAX
 */
#define FPROBE_DWARF_RECORDS	256
#define FPROBE_DWARF_BUF_MAX	(4UL << 20)
/*
 * The ring buffer pages per CPU: -m, the default for dwarf, or 0 for perf's.
 * As perf trace, which also makes a record of each event it traces: for
 * root, four times perf's default (2 MiB with 4 KiB pages), which holds
 * about 7,000 records with kernel callchains. At perf's default, half the
 * buffer (when the reader is woken) is about 900 such records: tracing
 * every function of an idle guest, a timer interrupt that comes while the
 * reader writes the file makes as many, and one record in eight was lost.
 */
unsigned int fprobe__mmap_pages(const struct fprobe_record_opts *opts)
{
	unsigned long bytes;

	if (opts->mmap_pages)
		return opts->mmap_pages;
	if (opts->call_graph != FPROBE_CALL_GRAPH_DWARF)
		return geteuid() == 0 ? perf_event_mlock_kb_in_pages() * 4 : 0;
	bytes = min((unsigned long)opts->stack_dump_size * FPROBE_DWARF_RECORDS,
		    FPROBE_DWARF_BUF_MAX);
	return roundup_pow_of_two(DIV_ROUND_UP(bytes, page_size));
}

/* ---- recording through the fprobe PMU ----------------------------------- */

/*
 * The fprobe PMU takes its filter as a user pointer in config1 (see
 * include/uapi/linux/fprobe_pmu.h): an event string cannot carry one, so
 * the events are built here, one per probe, and recorded with the evlist
 * and session APIs into a perf.data file that perf report reads as any.
 */
/*
 * Records the fprobe PMU events into a perf.data file, or, for perf fprobe
 * trace (@live), hands each event to its reader as it comes: the events go
 * to @machine (comms, maps), the samples to live->sample().
 */
struct fprobe_recorder {
	struct perf_tool	tool;
	struct perf_data	data;
	struct perf_session	*session;
	struct evlist		*evlist;
	struct fprobe_live	*live;
	struct machine		*machine;
	u64			bytes;		/* written, or in wbuf */
	char			*wbuf;		/* the records not yet written */
	size_t			wlen;
	int			time_pos;	/* fprobe__time_pos() */
};

/*
 * The records are written to the file in blocks of this size, not each
 * with its own write(): a write per record of a hundred bytes was most of
 * what the reader spent per call, and it fell behind the kernel.
 */
#define FPROBE_WRITE_BUF	(256 * 1024)

static sig_atomic_t fprobe_done;
static sig_atomic_t fprobe_child_done;

static void fprobe__sig_done(int sig)
{
	if (sig == SIGCHLD)
		fprobe_child_done = 1;
	fprobe_done = 1;
}

static sig_atomic_t fprobe_exec_errno;

static void fprobe__exec_failed(int signo __maybe_unused, siginfo_t *info,
				void *ucontext __maybe_unused)
{
	fprobe_exec_errno = info->si_value.sival_int;
	fprobe_child_done = 1;
	fprobe_done = 1;
}

static int fprobe_recorder__write_out(struct fprobe_recorder *rec, void *buf, size_t size)
{
	if (perf_data__write(&rec->data, buf, size) < 0) {
		pr_err("failed to write %s: %s\n", rec->data.path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Write the records kept in rec->wbuf to the file */
static int fprobe_recorder__flush(struct fprobe_recorder *rec)
{
	size_t len = rec->wlen;

	rec->wlen = 0;
	return len ? fprobe_recorder__write_out(rec, rec->wbuf, len) : 0;
}

/* Add a record to the file: into rec->wbuf, written when it fills */
static int fprobe_recorder__write(struct fprobe_recorder *rec, void *buf, size_t size)
{
	if (rec->live)
		return 0;
	rec->bytes += size;
	if (size > FPROBE_WRITE_BUF - rec->wlen && fprobe_recorder__flush(rec) < 0)
		return -1;
	if (size > FPROBE_WRITE_BUF)
		return fprobe_recorder__write_out(rec, buf, size);
	memcpy(rec->wbuf + rec->wlen, buf, size);
	rec->wlen += size;
	return 0;
}

/*
 * The position of PERF_SAMPLE_TIME in the samples of the events of @evlist,
 * if they all have the same sample types (perf fprobe's do), else -1
 */
static int fprobe__time_pos(struct evlist *evlist)
{
	u64 type = evlist__first(evlist)->core.attr.sample_type;
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel->core.attr.sample_type != type)
			return -1;
	}
	if (!(type & PERF_SAMPLE_TIME))
		return -1;
	/* the sample types before it, each one u64 */
	return !!(type & PERF_SAMPLE_IDENTIFIER) + !!(type & PERF_SAMPLE_IP) +
	       !!(type & PERF_SAMPLE_TID);
}

/*
 * The first and last sample times, for the header (HEADER_SAMPLE_TIME), as
 * perf record writes them: perf fprobe report --time and perf report
 * --time take percentages of the recording from them. The ring buffers of
 * the CPUs are read in turn, so the samples come in no order of time.
 */
static void fprobe_recorder__sample_time(struct fprobe_recorder *rec,
					 union perf_event *event)
{
	struct evlist *evlist = rec->evlist;
	u64 time;

	if (event->header.type != PERF_RECORD_SAMPLE)
		return;
	/* where every event's samples have it: no lookup of the event by id */
	if (rec->time_pos >= 0 &&
	    event->header.size >= sizeof(event->header) + (rec->time_pos + 1) * sizeof(u64))
		time = event->sample.array[rec->time_pos];
	else if (evlist__parse_sample_timestamp(evlist, event, &time) < 0)
		return;
	if (!time)
		return;
	if (!evlist->first_sample_time || time < evlist->first_sample_time)
		evlist->first_sample_time = time;
	if (time > evlist->last_sample_time)
		evlist->last_sample_time = time;
}

static int fprobe_recorder__process(const struct perf_tool *tool,
				    union perf_event *event,
				    struct perf_sample *sample __maybe_unused,
				    struct machine *machine __maybe_unused)
{
	struct fprobe_recorder *rec = container_of(tool, struct fprobe_recorder, tool);
	struct perf_sample none;

	if (rec->live) {
		/* a synthesized event: its comm or map for the live output */
		memset(&none, 0, sizeof(none));
		return machine__process_event(rec->machine, event, &none);
	}
	return fprobe_recorder__write(rec, event, event->header.size);
}

/* perf fprobe trace: one event of the ring buffers */
static int fprobe_recorder__live(struct fprobe_recorder *rec, union perf_event *event)
{
	struct fprobe_live *live = rec->live;
	struct perf_sample sample;
	struct evsel *evsel;

	memset(&sample, 0, sizeof(sample));
	if (evlist__parse_sample(rec->evlist, event, &sample) < 0) {
		live->nr_bad++;
		return 0;
	}
	switch (event->header.type) {
	case PERF_RECORD_SAMPLE:
		evsel = evlist__id2evsel(rec->evlist, sample.id);
		if (!evsel)
			return 0;
		return live->sample(live, evsel, &sample, rec->machine);
	case PERF_RECORD_LOST:
		live->nr_lost += event->lost.lost;
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		live->nr_lost += event->lost_samples.lost;
		return 0;
	case PERF_RECORD_KSYMBOL:
		if (live->ksymbol)
			live->ksymbol(live);
		return machine__process_event(rec->machine, event, &sample);
	default:
		return machine__process_event(rec->machine, event, &sample);
	}
}

/*
 * The next event of @map in this pass, or NULL when the pass is done: a
 * pass reads at most the size of the ring buffer (*@left, set by the
 * caller), because perf_mmap__read_event() follows the head as the kernel
 * moves it, and a reader that only keeps up with the writer (a recording
 * of every function, where each write makes more records) would otherwise
 * never get back to its loop to see Ctrl-C or --duration.
 */
static union perf_event *fprobe__read_event(struct perf_mmap *map, u64 *left)
{
	union perf_event *event;

	if (!*left)
		return NULL;
	event = perf_mmap__read_event(map);
	if (event)
		*left -= min_t(u64, *left, event->header.size);
	return event;
}

/* perf fprobe trace: an event read from a ring buffer, to print in time order */
struct fprobe_live_event {
	u64			time;
	size_t			seq;
	union perf_event	*event;
};

static int fprobe_live_event__cmp(const void *a, const void *b)
{
	const struct fprobe_live_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * perf fprobe trace: what the ring buffers of all CPUs hold, in time order,
 * so that the comm of a task (from a COMM event in the buffer of another
 * CPU) is known when its calls are printed
 */
static int fprobe_recorder__drain_live(struct fprobe_recorder *rec)
{
	struct fprobe_live_event *evs = NULL, *tmp;
	size_t nr = 0, alloc = 0, i;
	int m, err = 0;

	for (m = 0; m < rec->evlist->core.nr_mmaps; m++) {
		struct perf_mmap *map = &rec->evlist->mmap[m].core;
		u64 left = map->mask + 1;
		union perf_event *event;

		if (perf_mmap__read_init(map) < 0)
			continue;
		while ((event = fprobe__read_event(map, &left)) != NULL) {
			if (nr == alloc) {
				alloc = alloc ? 2 * alloc : 256;
				tmp = realloc(evs, alloc * sizeof(*evs));
				if (!tmp) {
					err = -ENOMEM;
					break;
				}
				evs = tmp;
			}
			evs[nr].event = memdup(event, event->header.size);
			if (!evs[nr].event) {
				err = -ENOMEM;
				break;
			}
			if (evlist__parse_sample_timestamp(rec->evlist, event, &evs[nr].time) < 0)
				evs[nr].time = 0;
			evs[nr].seq = nr;
			rec->bytes += event->header.size;
			nr++;
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
		if (err)
			break;
	}
	qsort(evs, nr, sizeof(*evs), fprobe_live_event__cmp);
	for (i = 0; i < nr; i++) {
		if (!err)
			err = fprobe_recorder__live(rec, evs[i].event);
		free(evs[i].event);
	}
	free(evs);
	return err ? -1 : 0;
}

/* Move what the ring buffers hold into the file (or print it, live) */
static int fprobe_recorder__drain(struct fprobe_recorder *rec)
{
	struct perf_event_header round = {
		.type	= PERF_RECORD_FINISHED_ROUND,
		.size	= sizeof(round),
	};
	u64 before = rec->bytes;
	int i;

	if (rec->live)
		return fprobe_recorder__drain_live(rec);

	for (i = 0; i < rec->evlist->core.nr_mmaps; i++) {
		struct perf_mmap *map = &rec->evlist->mmap[i].core;
		u64 left = map->mask + 1;
		union perf_event *event;

		if (perf_mmap__read_init(map) < 0)
			continue;
		while ((event = fprobe__read_event(map, &left)) != NULL) {
			int err;

			fprobe_recorder__sample_time(rec, event);
			err = fprobe_recorder__write(rec, event, event->header.size);

			perf_mmap__consume(map);
			if (err)
				return -1;
		}
		perf_mmap__read_done(map);
	}
	/*
	 * As perf record: every ring buffer was read once, so a reader can
	 * sort and deliver the events before the round before this one, and
	 * need not hold the whole recording (the report then keeps only the
	 * calls of the threads not settled, see fprobe_report__settle()).
	 */
	if (rec->bytes != before &&
	    fprobe_recorder__write(rec, &round, sizeof(round)) < 0)
		return -1;
	return fprobe_recorder__flush(rec);
}

/*
 * The records the kernel could not put in the ring buffers, and the calls
 * fprobe missed (nmissed), read with PERF_FORMAT_LOST: written as
 * PERF_RECORD_LOST_SAMPLES, which perf fprobe report and perf report show.
 */
static int fprobe_recorder__lost(struct fprobe_recorder *rec, u64 *nr_lost)
{
	struct perf_record_lost_samples_and_ids lost;
	struct evsel *evsel;
	int x, y;

	evlist__for_each_entry(rec->evlist, evsel) {
		struct xyarray *xy = evsel->core.sample_id;
		u64 sample_type = evsel->core.attr.sample_type;

		if (!xy || !evsel->core.fd)
			continue;
		for (x = 0; x < xyarray__max_x(xy); x++) {
			for (y = 0; y < xyarray__max_y(xy); y++) {
				struct perf_counts_values count = { .lost = 0, };
				struct perf_sample sample = { .id = 0, };
				struct perf_sample_id *sid;
				size_t id_size;

				if (perf_evsel__read(&evsel->core, x, y, &count) < 0) {
					pr_err("failed to read the lost count of %s\n",
					       evsel__name(evsel));
					return -1;
				}
				if (!count.lost)
					continue;
				*nr_lost += count.lost;
				memset(&lost, 0, sizeof(lost));
				lost.lost.header.type = PERF_RECORD_LOST_SAMPLES;
				lost.lost.lost = count.lost;
				sid = xyarray__entry(xy, x, y);
				sample.id = sid->id;
				id_size = perf_event__synthesize_id_sample(lost.sample_ids,
									   sample_type, &sample);
				lost.lost.header.size = sizeof(lost.lost) + id_size;
				if (fprobe_recorder__write(rec, &lost, lost.lost.header.size) < 0)
					return -1;
			}
		}
	}
	return 0;
}

/*
 * Whether a probe of @probes fetches a value from memory: a fetch argument
 * with a '+OFFS(...)' (a member, an element, a string), which the fprobe
 * PMU opens only with CAP_BPF beside CAP_PERFMON
 */
static bool fprobe_probes__reads_memory(const struct fprobe_probes *probes)
{
	const struct fprobe_probe *probe;

	list_for_each_entry(probe, &probes->list, list) {
		const char *fetch = strchr(probe->filter, ';');

		if (fetch && strchr(fetch, '('))
			return true;
	}
	return false;
}

/**
 * fprobe_pmu__attr - the fprobe PMU event of a probe
 * @probe: the probe, its filter set (fprobe_pmu__set_filters())
 * @probes: its probes, for the not-filter (-N) in config2
 * @opts: the PMU's type and formats, the kernel-side filters
 * @attr: set to the event, with the ABI of include/uapi/linux/fprobe_pmu.h
 *
 * Return: 0, -E2BIG if the filter is longer than the PMU takes.
 */
int fprobe_pmu__attr(const struct fprobe_probe *probe, const struct fprobe_probes *probes,
		     const struct fprobe_record_opts *opts, struct perf_event_attr *attr)
{
	BUILD_BUG_ON(FPROBE_CALL_MAX_ARGS > FPROBE_PMU_MAX_ARGS);
	if (strlen(probe->filter) + 1 > FPROBE_PMU_FILTER_MAX)
		return -E2BIG;
	memset(attr, 0, sizeof(*attr));
	attr->type = opts->pmu_type;
	attr->size = sizeof(*attr);
	attr->config = probe->nargs & FPROBE_PMU_CONFIG_NARGS_MASK;
	/* the entry records carry what the probe fetches */
	if (probe->nr_fetch)
		attr->config |= FPROBE_PMU_CONFIG_ENTRY;
	attr->config1 = (u64)(uintptr_t)probe->filter;
	attr->config2 = (u64)(uintptr_t)probes->notrace;
	attr->sample_period = 1;
	/* the kernel-side filters: records only of the calls wanted */
	if (opts->pmu_filters) {
		attr->config3 = opts->min_latency;
		if (opts->errors)
			attr->config |= FPROBE_PMU_CONFIG_ERRORS;
	}
	/* perf's own reads and writes of the records are not traced */
	if (opts->pmu_exclude_opener)
		attr->config |= FPROBE_PMU_CONFIG_EXCLUDE_OPENER;
	return 0;
}

/**
 * fprobe__parse_call_graph - parse --call-graph
 * @str: none, kernel, fp or dwarf[,SIZE]; the last two as perf record
 *	 takes them (parse_callchain_record()), with no maximum depth for fp
 * @mode: set to the callchain to record
 * @dump_size: set to the bytes of user stack that dwarf takes
 *
 * Return: 0, -1 with the error printed.
 */
int fprobe__parse_call_graph(const char *str, enum fprobe_call_graph *mode,
			     u32 *dump_size)
{
	struct callchain_param param = {
		.max_stack	= PERF_MAX_STACK_DEPTH,
	};

	if (!strcmp(str, "none")) {
		*mode = FPROBE_CALL_GRAPH_NONE;
		return 0;
	}
	if (!strcmp(str, "kernel")) {
		*mode = FPROBE_CALL_GRAPH_KERNEL;
		return 0;
	}
	if ((strcmp(str, "fp") && strncmp(str, "dwarf", 5)) ||
	    parse_callchain_record(str, &param) < 0) {
		pr_err("invalid --call-graph '%s': none, kernel, fp or dwarf[,SIZE]\n", str);
		return -1;
	}
	if (param.record_mode == CALLCHAIN_DWARF) {
		*mode = FPROBE_CALL_GRAPH_DWARF;
		*dump_size = param.dump_size;
	} else {
		*mode = FPROBE_CALL_GRAPH_FP;
	}
	return 0;
}

/**
 * fprobe_pmu__event_name - the name of the event of a probe
 * @probe: the probe
 *
 * FPROBE_PMU_EVSEL:GLOB, or with parameters FPROBE_PMU_EVSEL:GLOB(NAME,...):
 * perf fprobe report shows the parameters named there.
 *
 * Return: the name, to free; NULL.
 */
char *fprobe_pmu__event_name(const struct fprobe_probe *probe)
{
	struct strbuf name;
	int i;

	if (strbuf_init(&name, 64) < 0)
		return NULL;
	strbuf_addf(&name, "%s:%s", FPROBE_PMU_EVSEL, probe->glob);
	for (i = 0; i < probe->nr_params; i++)
		strbuf_addf(&name, "%c%s", i ? ',' : '(', probe->params[i]);
	/* NAME:TYPE, the fetch type, of what the entry records fetch */
	if (probe->nr_fetch) {
		char *args = strdup(probe->fetch_args ?: ""), *arg, *saveptr = NULL;

		if (!args) {
			strbuf_release(&name);
			return NULL;
		}
		for (i = 0, arg = strtok_r(args, " ", &saveptr); arg && i < probe->nr_fetch;
		     i++, arg = strtok_r(NULL, " ", &saveptr))
			strbuf_addf(&name, "%c%s:%s", i + probe->nr_params ? ',' : '(',
				    probe->fetch[i].name, strrchr(arg, ':') + 1);
		free(args);
	}
	if (probe->nr_params || probe->nr_fetch)
		strbuf_addch(&name, ')');
	return strbuf_detach(&name, NULL);
}

/* One fprobe PMU event for @probe */
static int fprobe__add_pmu_evsel(const struct fprobe_probes *probes,
				 const struct fprobe_record_opts *opts,
				 struct fprobe_probe *probe, struct evlist *evlist)
{
	struct perf_event_attr attr;
	struct evsel *evsel;

	if (fprobe_pmu__attr(probe, probes, opts, &attr) < 0) {
		pr_err("the filter of '%s' is longer than the fprobe PMU takes (%d bytes): %s\n",
		       probe->spec, FPROBE_PMU_FILTER_MAX - 1, probe->filter);
		return -1;
	}
	evsel = evsel__new(&attr);
	if (!evsel)
		return -1;
	/* the first event alone carries the comm, mmap and task events */
	evsel->tracking = evlist->core.nr_entries == 0;
	evsel->name = fprobe_pmu__event_name(probe);
	if (!evsel->name) {
		evsel__delete(evsel);
		return -1;
	}
	evlist__add(evlist, evsel);
	return 0;
}

static void fprobe_recorder__init_features(struct fprobe_recorder *rec)
{
	struct perf_header *header = &rec->session->header;
	int feat;

	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		perf_header__set_feat(header, feat);
	/* what perf record leaves out without these options */
	perf_header__clear_feat(header, HEADER_BUILD_ID);
	perf_header__clear_feat(header, HEADER_TRACING_DATA);
	perf_header__clear_feat(header, HEADER_BRANCH_STACK);
	perf_header__clear_feat(header, HEADER_AUXTRACE);
	perf_header__clear_feat(header, HEADER_CLOCKID);
	perf_header__clear_feat(header, HEADER_CLOCK_DATA);
	perf_header__clear_feat(header, HEADER_DIR_FORMAT);
	perf_header__clear_feat(header, HEADER_COMPRESSED);
	perf_header__clear_feat(header, HEADER_STAT);
}

/*
 * The kernel and module maps, and the threads of the target, for perf
 * report; with user callchains, the maps of those threads too
 */
static int fprobe_recorder__synthesize(struct fprobe_recorder *rec,
				       struct target *target,
				       enum fprobe_call_graph call_graph)
{
	bool dwarf = call_graph == FPROBE_CALL_GRAPH_DWARF;
	bool user = call_graph == FPROBE_CALL_GRAPH_FP || dwarf;
	struct machine *machine = rec->machine;
	struct perf_tool *tool = &rec->tool;

	if (perf_event__synthesize_kernel_mmap(tool, fprobe_recorder__process, machine) < 0)
		pr_warning("failed to synthesize the kernel map: kernel symbols may be missing\n");
	if (perf_event__synthesize_modules(tool, fprobe_recorder__process, machine) < 0)
		pr_warning("failed to synthesize the module maps\n");
	/* a task of -p may exit meanwhile: its comm is then missing, no more */
	if (target__has_task(target)) {
		if (perf_event__synthesize_thread_map(tool, rec->evlist->core.threads,
						      fprobe_recorder__process,
						      machine, user, dwarf) < 0)
			pr_warning("failed to synthesize the comm of the traced tasks (did they exit?)\n");
		return 0;
	}
	if (target__has_cpu(target))
		return perf_event__synthesize_threads(tool, fprobe_recorder__process,
						      machine, user, dwarf, 1);
	return 0;
}

/*
 * Whether every event hung up (POLLHUP: its task exited), after
 * evlist__poll(). A hung up event is not polled again (its fd in the poll
 * set is -1: poll() would return at once for it until the others hang up
 * too) but keeps its ring buffer. Not evlist__filter_pollfd(): it drops the
 * references of the hung up events to their ring buffers, and the records
 * still in a buffer that loses its last one are gone before the final
 * drain.
 */
static bool fprobe__hung_up(struct evlist *evlist)
{
	struct fdarray *fda = &evlist->core.pollfd;
	int i, gone = 0;

	for (i = 0; i < fda->nr; i++) {
		if (fda->entries[i].fd >= 0 &&
		    (fda->entries[i].revents & (POLLERR | POLLHUP)))
			fda->entries[i].fd = -1;
		gone += fda->entries[i].fd < 0;
	}
	return fda->nr > 0 && gone == fda->nr;
}

/*
 * Make the evlist of @rec: one fprobe PMU event per probe, configured as
 * perf record would with @opts and @callchain, the workload of @argv
 * prepared, opened and mapped. Return: 0, -1 with the error printed.
 */
static int fprobe_recorder__open(struct fprobe_recorder *rec, struct fprobe_probes *probes,
				 const struct fprobe_record_opts *ropts,
				 struct record_opts *opts, struct callchain_param *callchain,
				 int argc, const char **argv)
{
	struct fprobe_probe *probe;
	struct evsel *evsel;
	char errbuf[BUFSIZ];

	/* a probe whose functions were all skipped has no event */
	list_for_each_entry(probe, &probes->list, list) {
		if (probe->nr_funcs &&
		    fprobe__add_pmu_evsel(probes, ropts, probe, rec->evlist) < 0)
			return -1;
	}
	opts->target.uses_mmap = true;
	opts->target.default_per_cpu = true;
	if (evlist__create_maps(rec->evlist, &opts->target) < 0) {
		pr_err("failed to create the CPU and thread maps\n");
		return -1;
	}
	evlist__config(rec->evlist, opts, callchain);
	/*
	 * --call-graph dwarf: the maps of data too. perf's unwinder reads the
	 * CFI table (.eh_frame_hdr) of a library through the map of its
	 * address, in the read-only segment after the code: without it, no
	 * frame is found beyond the first one in the C library.
	 */
	if (ropts->call_graph == FPROBE_CALL_GRAPH_DWARF) {
		evlist__for_each_entry(rec->evlist, evsel) {
			if (evsel->tracking)
				evsel->core.attr.mmap_data = 1;
		}
	}

	signal(SIGCHLD, fprobe__sig_done);
	signal(SIGINT, fprobe__sig_done);
	signal(SIGTERM, fprobe__sig_done);
	signal(SIGALRM, fprobe__sig_done);
	if (argc && evlist__prepare_workload(rec->evlist, &opts->target, argv,
					     false, fprobe__exec_failed) < 0) {
		pr_err("failed to start the workload %s\n", argv[0]);
		return -1;
	}

	if (evlist__open(rec->evlist) < 0) {
		evsel = evlist__first(rec->evlist);
		if (errno == E2BIG) {
			pr_err("failed to open the fprobe PMU events: %s\n",
			       "the probes match more functions than one event may attach (see /sys/bus/event_source/devices/fprobe/caps/max_funcs)");
			return -1;
		}
		if (errno == EACCES && fprobe_probes__reads_memory(probes)) {
			pr_err("failed to open the fprobe PMU events: %s\n",
			       "a fetch argument that follows a pointer or reads a string reads memory, which needs CAP_PERFMON and CAP_BPF (or root): run with both, or fetch only parameters (PARAM or PARAM:TYPE, from their registers)");
			return -1;
		}
		evsel__open_strerror(evsel, &opts->target, errno, errbuf, sizeof(errbuf));
		pr_err("failed to open the fprobe PMU events: %s\n", errbuf);
		return -1;
	}
	fprobe_probes__print_summary(probes, "attached");
	/* as opened: perf may leave out what the kernel does not know */
	rec->time_pos = fprobe__time_pos(rec->evlist);
	if (evlist__mmap(rec->evlist, opts->mmap_pages) < 0) {
		pr_err("failed to mmap the ring buffers: %s\n",
		       str_error_r(errno, errbuf, sizeof(errbuf)));
		return -1;
	}
	return 0;
}

/*
 * Where the records of @rec go: the live output (the machine of its
 * symbols and comms, synthesized), or the session of @output, its header
 * and the synthesized events written. Return: 0, -1 with the error printed.
 */
static int fprobe_recorder__start_output(struct fprobe_recorder *rec, const char *output,
					 struct target *target,
					 enum fprobe_call_graph call_graph)
{
	struct fprobe_live *live = rec->live;

	perf_tool__init(&rec->tool, /*ordered_events=*/false);
	symbol__init(NULL);
	if (live) {
		/* no file: the symbols and comms of the calls, in live's machine */
		rec->machine = live->machine;
		if (fprobe_recorder__synthesize(rec, target, call_graph) < 0) {
			pr_err("failed to set up the live output\n");
			return -1;
		}
		if (live->start)
			live->start(live);
		return 0;
	}
	rec->session = perf_session__new(&rec->data, &rec->tool);
	if (IS_ERR(rec->session)) {
		pr_err("failed to create %s\n", output);
		rec->session = NULL;
		return -1;
	}
	rec->wbuf = malloc(FPROBE_WRITE_BUF);
	if (!rec->wbuf) {
		pr_err("failed to allocate the write buffer of %s\n", output);
		return -1;
	}
	rec->session->evlist = rec->evlist;
	rec->machine = &rec->session->machines.host;
	perf_session__set_id_hdr_size(rec->session);
	fprobe_recorder__init_features(rec);
	if (perf_session__write_header(rec->session, rec->evlist, perf_data__fd(&rec->data),
				       false) < 0 ||
	    fprobe_recorder__synthesize(rec, target, call_graph) < 0) {
		pr_err("failed to write the header of %s\n", output);
		return -1;
	}
	return 0;
}

/*
 * Enable the events of @rec, start the workload, and read the records
 * until it ends, the tasks of -p or -t exit, Ctrl-C or --duration; then
 * disable the events and read the rest, and the lost counts into
 * *@nr_lost. Return: 0, -1 with the error printed (the events disabled).
 */
static int fprobe_recorder__run(struct fprobe_recorder *rec,
				const struct fprobe_record_opts *ropts,
				struct target *target, int argc, const char **argv,
				u64 *nr_lost)
{
	char errbuf[BUFSIZ];

	if (ropts->duration > 0)
		alarm(ropts->duration);
	/*
	 * As perf record: the events of a task are enabled at its exec, the
	 * others (-A, -C, -p) here, also with a command
	 */
	if (!target__none(target))
		evlist__enable(rec->evlist);
	if (argc)
		evlist__start_workload(rec->evlist);

	while (!fprobe_done && !(ropts->interrupted && *ropts->interrupted)) {
		u64 before = rec->bytes;

		if (fprobe_recorder__drain(rec) < 0)
			goto out_disable;
		if (rec->live)
			fflush(stdout);
		if (rec->bytes != before)
			continue;
		evlist__poll(rec->evlist, 100);
		/* -p: the tasks are gone when all their events hung up */
		if (fprobe__hung_up(rec->evlist))
			fprobe_done = 1;
	}
	alarm(0);
	if (fprobe_exec_errno) {
		pr_err("failed to run %s: %s\n", argv[0],
		       str_error_r(fprobe_exec_errno, errbuf, sizeof(errbuf)));
		goto out_disable;
	}
	evlist__disable(rec->evlist);
	if (fprobe_recorder__drain(rec) < 0 ||
	    fprobe_recorder__lost(rec, nr_lost) < 0)
		return -1;
	return 0;

out_disable:
	evlist__disable(rec->evlist);
	return -1;
}

/*
 * The end of a recording of @rec: the lost count of the live output, or the
 * rest of @output written, with its final header. Return: 0, -1 with the
 * error printed.
 */
static int fprobe_recorder__finish(struct fprobe_recorder *rec, const char *output,
				   u64 nr_lost)
{
	if (rec->live) {
		fflush(stdout);
		/*
		 * The lost count of each event counts the records its ring
		 * buffer lost too, which the PERF_RECORD_LOSTs read so far
		 * counted: the larger of the two
		 */
		rec->live->nr_lost = max(rec->live->nr_lost, nr_lost);
		return 0;
	}
	if (fprobe_recorder__flush(rec) < 0)
		return -1;
	rec->session->header.data_size = rec->bytes;
	if (perf_session__write_header(rec->session, rec->evlist, perf_data__fd(&rec->data),
				       true) < 0) {
		pr_err("failed to finish %s\n", output);
		return -1;
	}
	pr_info("perf fprobe: %" PRIu64 " bytes written to %s", rec->bytes, output);
	if (nr_lost)
		pr_info(", %" PRIu64 " records LOST", nr_lost);
	pr_info("\n");
	return 0;
}

/* End the workload of @rec if it runs, close and free what @rec holds */
static void fprobe_recorder__close(struct fprobe_recorder *rec, int argc)
{
	struct evsel *evsel;

	if (argc && rec->evlist->workload.pid > 0) {
		int status;

		/* stopped by Ctrl-C, --duration or an error: end it, as perf record does */
		if (!fprobe_child_done)
			kill(rec->evlist->workload.pid, SIGTERM);
		waitpid(rec->evlist->workload.pid, &status, 0);
	}
	evlist__close(rec->evlist);
	if (rec->session) {
		rec->session->evlist = NULL;
		perf_session__delete(rec->session);
	}
	evlist__for_each_entry(rec->evlist, evsel) {
		if (rec->live && rec->live->evsel_delete)
			rec->live->evsel_delete(rec->live, evsel);
	}
	evlist__delete(rec->evlist);
	free(rec->wbuf);
}

/**
 * fprobe_pmu__record - record the fprobe PMU events of the probes
 * @probes: the probes, prepared, their filters set (fprobe_pmu__set_filters())
 * @ropts: the target, -m, --duration, the PMU and its filters
 * @output: the perf.data to write, unless @live
 * @live: perf fprobe trace: no file, each event to @live as it comes; or NULL
 * @argc: the number of words of the command to run, 0 for none
 * @argv: the command
 *
 * One event per probe, recorded with the evlist and session APIs, as perf
 * record would, until the command ends, the tasks of -p or -t exit, Ctrl-C
 * or --duration. The records the kernel could not write, and the calls
 * fprobe missed, are written as PERF_RECORD_LOST_SAMPLES (or counted in
 * live->nr_lost).
 *
 * Return: 0, -1 with the error printed.
 */
int fprobe_pmu__record(struct fprobe_probes *probes, const struct fprobe_record_opts *ropts,
		       const char *output, struct fprobe_live *live, int argc,
		       const char **argv)
{
	struct record_opts opts = {
		.target		= ropts->target,
		.sample_time	= true,
		.period		= true,
		.period_set	= true,
		.raw_samples	= true,
		.sample_cpu	= true,
		.kernel_callchains = ropts->call_graph == FPROBE_CALL_GRAPH_KERNEL,
		.mmap_pages	= fprobe__mmap_pages(ropts) ?: UINT_MAX,
		.user_freq	= UINT_MAX,
		.user_interval	= ULLONG_MAX,
		.no_inherit	= ropts->no_inherit,
	};
	struct callchain_param callchain = {
		.enabled	= ropts->call_graph != FPROBE_CALL_GRAPH_NONE,
		.record_mode	= ropts->call_graph == FPROBE_CALL_GRAPH_DWARF ?
				  CALLCHAIN_DWARF : CALLCHAIN_FP,
		.dump_size	= ropts->stack_dump_size,
		.max_stack	= PERF_MAX_STACK_DEPTH,
	};
	struct fprobe_recorder rec = {
		.data = {
			.path	= output,
			.mode	= PERF_DATA_MODE_WRITE,
		},
		.live	= live,
	};
	u64 nr_lost = 0;
	int ret = -1;

	fprobe_done = 0;
	fprobe_child_done = 0;
	fprobe_exec_errno = 0;
	rec.evlist = evlist__new();
	if (!rec.evlist)
		return -1;
	if (fprobe_recorder__open(&rec, probes, ropts, &opts, &callchain, argc, argv) < 0 ||
	    fprobe_recorder__start_output(&rec, output, &opts.target, ropts->call_graph) < 0 ||
	    fprobe_recorder__run(&rec, ropts, &opts.target, argc, argv, &nr_lost) < 0 ||
	    fprobe_recorder__finish(&rec, output, nr_lost) < 0)
		goto out;
	ret = 0;
out:
	fprobe_recorder__close(&rec, argc);
	return ret;
}

/* ---- perf fprobe trace's and --calls' lines ----------------------------------- */

static void fprobe__print_value(const struct fprobe_type *type, u64 val, FILE *fp)
{
	char buf[128];

	if (type) {
		fprobe_type__scnprintf(type, val, buf, sizeof(buf));
		fputs(buf, fp);
	} else {
		fprintf(fp, "%#" PRIx64, val);
	}
}

/*
 * "name=value" of a value fetched at entry: a string quoted (with "..."
 * after it when the kernel cut it), "name=(fault)" for one that could not
 * be read
 */
static void fprobe_fetched__fprintf(const struct fprobe_fetched *v, FILE *fp)
{
	int shift = 64 - 8 * (v->size ?: 8);

	fprintf(fp, "%s=", v->name);
	if (v->flags & FPROBE_FETCHED_FAULT) {
		fprintf(fp, "(fault)");
		return;
	}
	switch (v->kind) {
	case FPROBE_FETCH_STRING: {
		const unsigned char *c;

		fputc('"', fp);
		for (c = (const unsigned char *)v->str; c && *c; c++) {
			if (*c == '"' || *c == '\\')
				fprintf(fp, "\\%c", *c);
			else if (isprint(*c))
				fputc(*c, fp);
			else
				fprintf(fp, "\\x%02x", *c);
		}
		fputc('"', fp);
		if (v->flags & FPROBE_FETCHED_CUT)
			fprintf(fp, "...");
		break;
	}
	case FPROBE_FETCH_SIGNED:
		fprintf(fp, "%" PRId64, (s64)(v->val << shift) >> shift);
		break;
	case FPROBE_FETCH_HEX:
		fprintf(fp, "%#" PRIx64, v->val);
		break;
	default:
		fprintf(fp, "%" PRIu64, v->val);
		break;
	}
}

/**
 * fprobe_call__fprintf_call - print "func(args) = ret" of a call
 * @c: the call
 * @arg_mask: the arguments of @c to print, bit 0 for args[0]
 * @proto: its function's prototype (the parameters' names and types), or NULL
 * @color: an error code returned in red (on a terminal)
 * @fp: where to
 *
 * An argument without a parameter of @proto is argN= (arg1 the first) in
 * hex, as is a return value without its type; the values fetched at entry
 * follow the arguments; a call without exit, or of a function returning
 * void, has no '= ret'.
 */
void fprobe_call__fprintf_call(const struct fprobe_call *c, u32 arg_mask,
			       const struct fprobe_func *proto, bool color, FILE *fp)
{
	bool first = true;
	u32 a;

	fprintf(fp, "%s(", c->name ?: "[unknown]");
	for (a = 0; a < c->nargs && a < FPROBE_CALL_MAX_ARGS; a++) {
		const struct fprobe_param *p = NULL;

		if (!(arg_mask & (1U << a)))
			continue;
		if (proto)
			p = fprobe_func__param_at(proto, a);
		fprintf(fp, "%s", first ? "" : ", ");
		first = false;
		if (p)
			fprintf(fp, "%s=", p->name);
		else
			fprintf(fp, "arg%u=", a + 1);
		fprobe__print_value(p ? &p->type : NULL, c->args[a], fp);
	}
	for (a = 0; a < c->nr_fetch; a++) {
		fprintf(fp, "%s", first ? "" : ", ");
		first = false;
		fprobe_fetched__fprintf(&c->fetch[a], fp);
	}
	fprintf(fp, ")");
	if (c->flags & FPROBE_CALL_EXIT &&
	    !(proto && proto->ret.kind == FPROBE_TYPE_VOID)) {
		const struct fprobe_type *ret = proto ? &proto->ret : NULL;
		char buf[128];

		fprintf(fp, " = ");
		if (ret)
			fprobe_type__scnprintf(ret, c->retval, buf, sizeof(buf));
		else
			scnprintf(buf, sizeof(buf), "%#" PRIx64, c->retval);
		if (color && fprobe_type__is_error(ret, c->retval))
			color_fprintf(fp, PERF_COLOR_RED, "%s", buf);
		else
			fprintf(fp, "%s", buf);
	}
}

/**
 * fprobe_call__fprintf - print a call as perf fprobe trace and --calls do
 * @c: the call
 * @arg_mask: the arguments of @c to print, bit 0 for args[0]
 * @proto: its function's prototype (the parameters' names and types), or NULL
 * @comm: the comm of its thread (perf fprobe trace), or NULL (--calls)
 * @fp: where to
 *
 * "time tid cpu duration  func(args) = ret", indented by c->depth; with
 * @comm, "time cpu comm/tid duration ...", and an error code returned in
 * red on a terminal (see fprobe_call__fprintf_call()).
 */
void fprobe_call__fprintf(const struct fprobe_call *c, u32 arg_mask,
			  const struct fprobe_func *proto, const char *comm, FILE *fp)
{
	if (comm)
		fprintf(fp, "%16.9f %3d %16s/%-7d ", c->entry_time / 1e9, c->cpu, comm, c->tid);
	else
		fprintf(fp, "  %16.9f %7d %3d  ", c->entry_time / 1e9, c->tid, c->cpu);
	if (c->flags & FPROBE_CALL_ENTRY && c->flags & FPROBE_CALL_EXIT)
		fprintf(fp, "%9.3f us  ", c->duration / 1e3);
	else
		fprintf(fp, "%12s  ", c->flags & FPROBE_CALL_EXIT ?
			"(no entry)" : "(no exit)");
	fprintf(fp, "%*s", 2 * c->depth, "");
	fprobe_call__fprintf_call(c, arg_mask, proto, !!comm, fp);
	fprintf(fp, "\n");
}
