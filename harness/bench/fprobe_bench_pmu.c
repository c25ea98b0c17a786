// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe_bench_pmu: the fprobe PMU's one-record-per-call path under
 * fprobe_bench (harness/bench/fprobe_bench.c), for make bench.
 *
 *   fprobe_bench_pmu [--count|--callchain|--period N|--fetch ARGS|
 *                     --tracepoint GROUP/EVENT[,GROUP/EVENT]] MS [CALLS]
 *
 * Opens one fprobe PMU event on fprobe_bench_target for this task (one
 * record per completed call, one argument, IP|TID|TIME|CPU|RAW, with
 * --callchain also the kernel callchain, as perf fprobe records) with a
 * 64 MiB ring buffer (with --period N, a sample every N records rather than
 * every record; with --fetch ARGS, an entry record per call with the fetch
 * arguments ARGS and no exit record; with --tracepoint, one or two trace
 * events (an fprobe event and its %return event) through perf's tracepoint
 * PMU instead, a sample per event with the same sample type into the one
 * ring buffer, as perf record -e takes them), runs the "external" case of
 * fprobe_bench for MS milliseconds (or CALLS calls, see fprobe_bench.c),
 * reads the ring buffer, and prints the module's result line
 * followed by "records=N lost=N": the samples read, and the records the full
 * buffer lost (PERF_FORMAT_LOST; with nobody reading during the run, perf
 * writes no PERF_RECORD_LOST). Exits 4 when the kernel has no fprobe PMU.
 *
 * The buffer is read after the run, not during it: the guest's vCPUs share
 * one emulator thread, so a reader on the other vCPU would be timed too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fprobe_pmu.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RUN_FILE	"/sys/kernel/debug/fprobe_bench/run"
#define DATA_PAGES	16384	/* 64 MiB with 4 KiB pages */

static struct perf_event_mmap_page *meta;
static char *data;
static size_t data_size;
static uint64_t nsamples, nlost;

/* Count the samples between data_tail and data_head, and consume them */
static void drain(void)
{
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		size_t off = tail % data_size;

		if (off + sizeof(h) <= data_size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			size_t n = data_size - off;

			memcpy(&h, data + off, n);
			memcpy((char *)&h + n, data, sizeof(h) - n);
		}
		if (h.type == PERF_RECORD_SAMPLE)
			nsamples++;
		if (!h.size)
			break;
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

/* The id of the trace event GROUP/EVENT, -1 without it */
static long long tracepoint_id(const char *event)
{
	char path[256];
	long long id = -1;
	FILE *f;

	if (snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id",
		     event) >= (int)sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

/* The type of the fprobe PMU, -1 without one */
static int pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/fprobe/type", "r");
	int type = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}

int main(int argc, char **argv)
{
	char filter[FPROBE_PMU_FILTER_MAX] = "fprobe_bench_target";
	const char *fetch = NULL, *tracepoint = NULL;
	long long tp_id[2] = { -1, -1 };
	char tp_name[2][128] = { "", "" };
	int fd2 = -1, ntp = 0, i;
	struct perf_event_attr attr;
	char cmd[64], result[512];
	uint64_t counts[2];	/* value, lost */
	unsigned long long ncalls = 0;
	int fd, run, type, ms;
	int counting = 0, callchain = 0;
	unsigned long long period = 1;
	char *end;
	ssize_t n;

	/*
	 * With --count: a counting event instead (no sample period, no ring
	 * buffer), and "count=N lost=N" after the module's result line.
	 */
	if (argc > 1 && !strcmp(argv[1], "--count")) {
		counting = 1;
		argv++;
		argc--;
	} else if (argc > 1 && !strcmp(argv[1], "--callchain")) {
		callchain = 1;
		argv++;
		argc--;
	} else if (argc > 2 && !strcmp(argv[1], "--tracepoint")) {
		tracepoint = argv[2];
		argv += 2;
		argc -= 2;
	} else if (argc > 2 && !strcmp(argv[1], "--fetch")) {
		fetch = argv[2];
		argv += 2;
		argc -= 2;
	} else if (argc > 2 && !strcmp(argv[1], "--period")) {
		period = strtoull(argv[2], &end, 10);
		if (*end || !*argv[2] || !period)
			argc = 0;
		argv += 2;
		argc -= 2;
	}
	if (argc == 3) {
		ncalls = strtoull(argv[2], &end, 10);
		if (*end || !*argv[2])
			argc = 0;
	}
	if (argc < 2 || argc > 3 || (ms = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: fprobe_bench_pmu [--count|--callchain|--period N|--fetch ARGS|--tracepoint GROUP/EVENT[,GROUP/EVENT]] MS [CALLS]\n");
		return 2;
	}
	if (tracepoint) {
		ntp = sscanf(tracepoint, "%127[^,],%127s", tp_name[0], tp_name[1]);
		for (i = 0; i < ntp; i++) {
			tp_id[i] = tracepoint_id(tp_name[i]);
			if (tp_id[i] < 0) {
				fprintf(stderr, "fprobe_bench_pmu: no trace event %s\n",
					tp_name[i]);
				return 1;
			}
		}
		if (ntp < 1 || counting) {
			fprintf(stderr, "fprobe_bench_pmu: bad --tracepoint %s\n", tracepoint);
			return 2;
		}
	}
	type = tracepoint ? PERF_TYPE_TRACEPOINT : pmu_type();
	if (type < 0) {
		fprintf(stderr, "fprobe_bench_pmu: no fprobe PMU in this kernel\n");
		return 4;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = 1;	/* one argument */
	attr.config1 = (uint64_t)(uintptr_t)filter;
	if (tracepoint) {
		attr.config = tp_id[0];
		attr.config1 = 0;
	} else if (fetch) {
		/* the values are the fetch arguments' */
		attr.config = FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT;
		if ((size_t)snprintf(filter, sizeof(filter), "fprobe_bench_target; %s",
				     fetch) >= sizeof(filter)) {
			fprintf(stderr, "fprobe_bench_pmu: the fetch arguments are too long\n");
			return 2;
		}
	}
	if (!counting) {
		attr.sample_period = period;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	}
	if (callchain) {
		attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
		attr.exclude_callchain_user = 1;
	}
	attr.read_format = PERF_FORMAT_LOST;
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "fprobe_bench_pmu: perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	if (counting)
		goto run;
	data_size = (size_t)DATA_PAGES * sysconf(_SC_PAGESIZE);
	meta = mmap(NULL, data_size + sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		fprintf(stderr, "fprobe_bench_pmu: mmap: %s\n", strerror(errno));
		return 1;
	}
	data = (char *)meta + meta->data_offset;
	if (ntp == 2) {
		/* The %return event's samples into the same buffer */
		attr.config = tp_id[1];
		fd2 = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		if (fd2 < 0 || ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd)) {
			fprintf(stderr, "fprobe_bench_pmu: %s: %s\n", tp_name[1],
				strerror(errno));
			return 1;
		}
	}
run:
	run = open(RUN_FILE, O_RDWR);
	if (run < 0) {
		fprintf(stderr, "fprobe_bench_pmu: %s: %s\n", RUN_FILE, strerror(errno));
		return 1;
	}
	snprintf(cmd, sizeof(cmd), "external %d %llu\n", ms, ncalls);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (fd2 >= 0)
		ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0);
	n = write(run, cmd, strlen(cmd));
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (fd2 >= 0)
		ioctl(fd2, PERF_EVENT_IOC_DISABLE, 0);
	if (n < 0) {
		fprintf(stderr, "fprobe_bench_pmu: write %s: %s\n", RUN_FILE, strerror(errno));
		return 1;
	}
	n = pread(run, result, sizeof(result) - 1, 0);
	if (n <= 0) {
		fprintf(stderr, "fprobe_bench_pmu: no result in %s\n", RUN_FILE);
		return 1;
	}
	result[n] = '\0';
	if (!counting)
		drain();
	if (read(fd, counts, sizeof(counts)) != sizeof(counts)) {
		fprintf(stderr, "fprobe_bench_pmu: reading the event: %s\n", strerror(errno));
		return 1;
	}
	nlost = counts[1];	/* all of them, PERF_RECORD_LOST or not */
	if (fd2 >= 0) {
		if (read(fd2, counts, sizeof(counts)) != sizeof(counts)) {
			fprintf(stderr, "fprobe_bench_pmu: reading %s: %s\n", tp_name[1],
				strerror(errno));
			return 1;
		}
		nlost += counts[1];
	}
	if (counting) {
		printf("%.*s count=%llu lost=%llu\n", (int)strcspn(result, "\n"),
		       result, (unsigned long long)counts[0],
		       (unsigned long long)nlost);
		return 0;
	}
	printf("%.*s records=%llu lost=%llu\n", (int)strcspn(result, "\n"), result,
	       (unsigned long long)nsamples, (unsigned long long)nlost);
	return 0;
}
