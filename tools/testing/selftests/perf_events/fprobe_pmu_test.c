// SPDX-License-Identifier: GPL-2.0
/*
 * Test the fprobe perf PMU from user space: open events on vfs_read (and
 * on "vfs_*"), read a known number of blocks of known sizes from /dev/zero,
 * and check the records in the ring buffer value by value against what
 * was done: one exit record per call, the function address from
 * /proc/kallsyms, the return value, the arguments, the times and the
 * callchain; the counts of counting and inherited events, and of calls
 * that migrate between CPUs; and the errors
 * of bad attributes and of an unprivileged caller.
 *
 * Prints one "PASS|FAIL|SKIP name" line per test; exits 1 if any failed,
 * 4 (KSFT_SKIP) if the kernel has no fprobe PMU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <linux/fprobe_pmu.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KSFT_SKIP	4
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_READS	200
#define DATA_PAGES	256	/* ring buffer: 1 MiB with 4 KiB pages */
#define FILTER_ARGS	3	/* vfs_read(file, buf, count, pos) */

static int pmu_type;
static int failures;
static char fail_msg[512];

struct ksym {
	uint64_t addr;
	char name[128];
};

static struct ksym *ksyms;
static size_t nr_ksyms;

/* One parsed PERF_RECORD_SAMPLE */
struct sample {
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t nr_ips;
	uint64_t ips[128];
	struct fprobe_pmu_record rec;
	uint64_t args[FPROBE_PMU_MAX_ARGS];
	uint64_t weight;
};

#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |	      \
			 PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT)
/* No callchain, and every fixed-size field of a sample */
#define SIMPLE_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |	      \
			    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |	      \
			    PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |	      \
			    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	      \
			    PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT)

/* The sample type of the sampling events the tests open */
static uint64_t sample_type = SAMPLE_TYPE;

static bool failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fail_msg, sizeof(fail_msg), fmt, ap);
	va_end(ap);
	return false;
}

static void report(const char *name, bool ok)
{
	if (ok) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s: %s\n", name, fail_msg);
		failures++;
	}
	fflush(stdout);
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Load the text symbols of /proc/kallsyms, sorted by address */
static int load_kallsyms(void)
{
	char line[256], type, name[128];
	size_t cap = 0;
	uint64_t addr;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %127s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (nr_ksyms == cap) {
			cap = cap ? 2 * cap : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
			if (!ksyms)
				return -1;
		}
		ksyms[nr_ksyms].addr = addr;
		snprintf(ksyms[nr_ksyms].name, sizeof(ksyms[nr_ksyms].name),
			 "%s", name);
		nr_ksyms++;
	}
	fclose(f);
	qsort(ksyms, nr_ksyms, sizeof(*ksyms), cmp_ksym);
	return nr_ksyms ? 0 : -1;
}

static uint64_t ksym_addr(const char *name)
{
	size_t i;

	for (i = 0; i < nr_ksyms; i++)
		if (!strcmp(ksyms[i].name, name))
			return ksyms[i].addr;
	return 0;
}

/* The name of the text symbol containing @addr, or NULL */
static const char *ksym_name(uint64_t addr)
{
	size_t lo = 0, hi = nr_ksyms;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (ksyms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return nr_ksyms && ksyms[lo].addr <= addr ? ksyms[lo].name : NULL;
}

/* The number in @file of the fprobe PMU's sysfs directory, or -1 */
static int read_pmu_int(const char *file)
{
	char path[128];
	int val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/fprobe/%s",
		 file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

static void init_attr(struct perf_event_attr *attr, uint64_t config,
		      const char *filter, uint64_t period)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = pmu_type;
	attr->config = config;
	attr->config1 = (uintptr_t)filter;
	attr->sample_period = period;
	attr->sample_type = period ? sample_type : 0;
	attr->read_format = PERF_FORMAT_LOST;
	attr->disabled = 1;
}

struct ring {
	struct perf_event_mmap_page *page;
	size_t size;		/* of the data area */
	uint64_t tail;
};

static int ring_map_pages(struct ring *r, int fd, int pages)
{
	long psize = sysconf(_SC_PAGESIZE);

	r->size = pages * psize;
	r->page = mmap(NULL, r->size + psize, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);
	r->tail = 0;
	return r->page == MAP_FAILED ? -1 : 0;
}

static int ring_map(struct ring *r, int fd)
{
	return ring_map_pages(r, fd, DATA_PAGES);
}

static void ring_unmap(struct ring *r)
{
	munmap(r->page, r->size + sysconf(_SC_PAGESIZE));
}

/* Copy @len bytes at ring offset @off into @dst, across the wrap */
static void ring_copy(struct ring *r, uint64_t off, void *dst, size_t len)
{
	char *data = (char *)r->page + r->page->data_offset;
	size_t start = off % r->size, first = r->size - start;

	if (first >= len) {
		memcpy(dst, data + start, len);
	} else {
		memcpy(dst, data + start, first);
		memcpy((char *)dst + first, data, len - first);
	}
}

static bool parse_sample(const uint64_t *p, size_t words, struct sample *s)
{
	const uint64_t *end = p + words;
	uint32_t raw_size, rec_size;
	const char *raw;

	memset(s, 0, sizeof(*s));
	if (words < 8)
		return failf("sample of %zu words", words);
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		s->id = *p++;
	if (sample_type & PERF_SAMPLE_IP)
		s->ip = *p++;
	if (sample_type & PERF_SAMPLE_TID) {
		s->pid = (uint32_t)*p;
		s->tid = (uint32_t)(*p++ >> 32);
	}
	if (sample_type & PERF_SAMPLE_TIME)
		s->time = *p++;
	if ((sample_type & PERF_SAMPLE_ID) && *p++ != s->id)
		return failf("sample id %" PRIu64 ", identifier %" PRIu64,
			     p[-1], s->id);
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		s->stream_id = *p++;
	if (sample_type & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)*p++;
	if (sample_type & PERF_SAMPLE_PERIOD)
		s->period = *p++;
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		s->nr_ips = *p++;
		if (s->nr_ips > 128 || p + s->nr_ips >= end)
			return failf("callchain of %" PRIu64 " entries", s->nr_ips);
		memcpy(s->ips, p, s->nr_ips * 8);
		p += s->nr_ips;
	}
	raw_size = *(const uint32_t *)p;
	raw = (const char *)p + 4;
	if (raw_size < sizeof(s->rec) || raw + raw_size > (const char *)end)
		return failf("raw data of %u bytes", raw_size);
	memcpy(&s->rec, raw, sizeof(s->rec));
	if (s->rec.version != FPROBE_PMU_RECORD_VERSION || s->rec.fetch_flags)
		return failf("record version %u, reserved %u", s->rec.version,
			     s->rec.fetch_flags);
	rec_size = sizeof(s->rec) + s->rec.nargs * 8;
	if (s->rec.nargs > FPROBE_PMU_MAX_ARGS || s->rec.size != rec_size ||
	    raw_size != ((rec_size + 4 + 7) & ~7U) - 4)
		return failf("record of %u args, size %u, in %u bytes",
			     s->rec.nargs, s->rec.size, raw_size);
	memcpy(s->args, raw + sizeof(s->rec), s->rec.nargs * 8);
	/* The raw data ends 8-byte aligned, counting its u32 size. */
	p = (const uint64_t *)(raw + raw_size);
	if (p >= end)
		return failf("no weight after the raw data");
	s->weight = *p++;
	if (p != end)
		return failf("%zu words after the weight", (size_t)(end - p));
	return true;
}

/*
 * Read every sample in the ring into @out (at most @max), return their
 * number or -1 (fail_msg says why). Counts PERF_RECORD_LOST in *@lost.
 */
static int ring_read(struct ring *r, struct sample *out, int max,
		     uint64_t *lost)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	static uint64_t buf[8192];
	struct perf_event_header hdr;
	int n = 0;

	*lost = 0;
	while (r->tail < head) {
		ring_copy(r, r->tail, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr)) {
			failf("bad record size %u", hdr.size);
			return -1;
		}
		ring_copy(r, r->tail, buf, hdr.size);
		if (hdr.type == PERF_RECORD_SAMPLE) {
			if (n == max) {
				failf("more than %d samples", max);
				return -1;
			}
			if (!parse_sample(buf + 1, hdr.size / 8 - 1, &out[n]))
				return -1;
			n++;
		} else if (hdr.type == PERF_RECORD_LOST) {
			*lost += buf[2];
		}
		r->tail += hdr.size;
	}
	__atomic_store_n(&r->page->data_tail, r->tail, __ATOMIC_RELEASE);
	return n;
}

/* read() of an event with PERF_FORMAT_LOST */
static int read_count(int fd, uint64_t *count, uint64_t *lost)
{
	uint64_t v[2];

	if (read(fd, v, sizeof(v)) != sizeof(v))
		return -1;
	*count = v[0];
	*lost = v[1];
	return 0;
}

static char zbuf[NR_READS + 4096];

/* Read NR_READS blocks from /dev/zero, of 1, 2, ... NR_READS bytes */
static int do_reads(int zfd)
{
	int i;

	for (i = 1; i <= NR_READS; i++)
		if (read(zfd, zbuf, i) != i)
			return -1;
	return 0;
}

/*
 * The kernel callchain of a probed call starts with the function, then
 * its caller: PERF_CONTEXT_KERNEL, @func, then an address in @a or @b.
 */
static bool callchain_starts(const struct sample *s, uint64_t func,
			     const char *const *callers)
{
	const char *name;

	if (s->nr_ips < 3 || s->ips[0] != (uint64_t)PERF_CONTEXT_KERNEL ||
	    s->ips[1] != func)
		return false;
	name = ksym_name(s->ips[2]);
	for (; name && *callers; callers++)
		if (!strcmp(name, *callers))
			return true;
	return false;
}

/*
 * Where the callchain of a vfs_read() record goes on: its caller, ksys_read()
 * or the read syscall's wrapper that inlines it. The arm64 unwinder starts
 * from the frame pointer, which is still the caller's at the first
 * instruction of a function and again at its return, and misses the direct
 * caller: there, the chain goes on with the caller's caller.
 */
static const char *const read_callers[] = {
	"ksys_read", "__x64_sys_read", "__arm64_sys_read", "__riscv_sys_read",
#ifdef __aarch64__
	"invoke_syscall",
#endif
	NULL
};

/*
 * The address that the PMU reports as a function's (func and the sample
 * ip): its ftrace location, which follows what the architecture puts at the
 * start of the function (a BTI or ENDBR instruction, arm64's patchable
 * entry), from tracefs' available_filter_functions_addrs; the symbol's
 * address where tracefs does not say.
 */
static uint64_t func_addr_of(const char *name)
{
	char line[256], sym[128];
	uint64_t addr, found = 0;
	FILE *f;

	f = fopen("/sys/kernel/tracing/available_filter_functions_addrs", "r");
	if (!f)
		return ksym_addr(name);
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %127s", &addr, sym) == 2 &&
		    !strcmp(sym, name))
			found = addr;
	}
	fclose(f);
	return found;
}

/*
 * The traceable functions, as a glob "*" names them: the distinct ftrace
 * locations of available_filter_functions_addrs, less the invalid ones
 * ftrace keeps in place of functions that went; -1 if it cannot be read.
 */
static int nr_traceable(void)
{
	uint64_t addr, last = 0;
	char line[256], sym[128];
	int nr = 0;
	FILE *f;

	f = fopen("/sys/kernel/tracing/available_filter_functions_addrs", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %127s", &addr, sym) != 2 ||
		    !strncmp(sym, "__ftrace_invalid_address__", 26))
			continue;
		/* ftrace lists its records sorted by address */
		if (addr != last)
			nr++;
		last = addr;
	}
	fclose(f);
	return nr;
}

static struct sample samples[4 * NR_READS + 64];

/*
 * Open a sampling event of this task with @config, @filter and
 * @period, run the reads, and return the samples in samples[] (their
 * number), or -1.
 */
static int record_reads_period(uint64_t config, const char *filter,
			       uint64_t period, uint64_t *count)
{
	struct perf_event_attr attr;
	uint64_t lost, rlost;
	struct ring ring;
	int fd, zfd, n;

	init_attr(&attr, config, filter, period);
	fd = perf_event_open(&attr, 0, -1);
	if (fd < 0)
		return failf("perf_event_open(%s): %s", filter, strerror(errno)), -1;
	if (ring_map(&ring, fd)) {
		close(fd);
		return failf("mmap: %s", strerror(errno)), -1;
	}
	zfd = open("/dev/zero", O_RDONLY);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	n = do_reads(zfd);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(zfd);
	if (n) {
		failf("reading /dev/zero failed");
		goto out;
	}
	if (read_count(fd, count, &lost)) {
		n = failf("read of the event: %s", strerror(errno)) - 1;
		goto out;
	}
	n = ring_read(&ring, samples, ARRAY_SIZE(samples),
		      &rlost);
	if (n >= 0 && (lost || rlost))
		n = failf("%" PRIu64 " lost, %" PRIu64 " in LOST records",
			  lost, rlost) - 1;
out:
	ring_unmap(&ring);
	close(fd);
	return n;
}

/* record_reads_period() with a record for each call */
static int record_reads(uint64_t config, const char *filter, uint64_t *count)
{
	return record_reads_period(config, filter, 1, count);
}

/* Check one exit record of vfs_read against the i-th read (0-based) */
static bool check_read_exit(const struct sample *s, int i, uint64_t vfs_read,
			    uint32_t nargs)
{
	const struct fprobe_pmu_record *r = &s->rec;

	if (r->type != FPROBE_PMU_REC_EXIT)
		return failf("record %d: type %u", i, r->type);
	if (r->func != vfs_read || s->ip != vfs_read)
		return failf("record %d: func %#" PRIx64 " ip %#" PRIx64
			     ", vfs_read is %#" PRIx64, i, (uint64_t)r->func,
			     s->ip, vfs_read);
	if (r->retval != (uint64_t)i + 1)
		return failf("record %d: retval %" PRId64 ", read %d bytes", i,
			     (int64_t)r->retval, i + 1);
	if (r->nargs != nargs)
		return failf("record %d: %u args", i, r->nargs);
	if (nargs >= 3 && (!r->args[0] || r->args[1] != (uintptr_t)zbuf ||
			   r->args[2] != (uint64_t)i + 1))
		return failf("record %d: args %#" PRIx64 " %#" PRIx64 " %" PRIu64
			     ", expected file, %p, %d", i, (uint64_t)r->args[0],
			     (uint64_t)r->args[1], (uint64_t)r->args[2], zbuf,
			     i + 1);
	if (r->entry_time + r->duration > s->time)
		return failf("record %d: entry %" PRIu64 " + duration %" PRIu64
			     " after the sample time %" PRIu64, i,
			     (uint64_t)r->entry_time, (uint64_t)r->duration,
			     s->time);
	/* The sample time is the record's exit time. */
	if (r->entry_time + r->duration != s->time)
		return failf("record %d: entry %" PRIu64 " + duration %" PRIu64
			     " is not the sample time %" PRIu64, i,
			     (uint64_t)r->entry_time, (uint64_t)r->duration,
			     s->time);
	if ((sample_type & PERF_SAMPLE_CPU) &&
	    s->cpu >= (uint32_t)sysconf(_SC_NPROCESSORS_CONF))
		return failf("record %d: cpu %u", i, s->cpu);
	if ((sample_type & PERF_SAMPLE_IDENTIFIER) &&
	    (!s->id || s->id != samples[0].id || s->stream_id != s->id))
		return failf("record %d: id %" PRIu64 " stream id %" PRIu64
			     ", first id %" PRIu64, i, s->id, s->stream_id,
			     samples[0].id);
	if (s->period != r->duration || s->weight != r->duration)
		return failf("record %d: period %" PRIu64 " weight %" PRIu64
			     ", duration %" PRIu64, i, s->period, s->weight,
			     (uint64_t)r->duration);
	if (s->pid != (uint32_t)getpid() || s->tid != (uint32_t)gettid())
		return failf("record %d: pid %u tid %u", i, s->pid, s->tid);
	if (!(sample_type & PERF_SAMPLE_CALLCHAIN))
		return true;
	if (!callchain_starts(s, vfs_read, read_callers)) {
		char chain[256] = "";
		uint64_t j;

		for (j = 0; j < s->nr_ips && j < 8; j++) {
			const char *name = ksym_name(s->ips[j]);

			snprintf(chain + strlen(chain),
				 sizeof(chain) - strlen(chain), " %s",
				 s->ips[j] >= (uint64_t)PERF_CONTEXT_MAX ?
				 "(context)" : name ?: "?");
		}
		return failf("record %d: callchain not vfs_read, its caller:%s",
			     i, chain);
	}
	return true;
}

static bool test_exit_records(uint64_t vfs_read)
{
	uint64_t count;
	int n, i;

	n = record_reads(FILTER_ARGS, "vfs_read", &count);
	if (n < 0)
		return false;
	if (n != NR_READS || count != NR_READS)
		return failf("%d records, count %" PRIu64 ", %d reads", n, count,
			     NR_READS);
	for (i = 0; i < n; i++) {
		if (!check_read_exit(&samples[i], i, vfs_read, FILTER_ARGS))
			return false;
		if (i && samples[i].rec.entry_time <
			 samples[i - 1].rec.entry_time + samples[i - 1].rec.duration)
			return failf("record %d starts before record %d ended",
				     i, i - 1);
	}
	return true;
}

/*
 * sample_period 3: every call is counted, every third one recorded (the
 * third, the sixth, ...), each record whole and of its own call.
 */
static bool test_period(uint64_t vfs_read)
{
	uint64_t count;
	int n, i;

	n = record_reads_period(FILTER_ARGS, "vfs_read", 3, &count);
	if (n < 0)
		return false;
	if (n != NR_READS / 3 || count != NR_READS)
		return failf("%d records, count %" PRIu64 ", %d reads, period 3",
			     n, count, NR_READS);
	for (i = 0; i < n; i++)
		if (!check_read_exit(&samples[i], 3 * i + 2, vfs_read,
				     FILTER_ARGS))
			return false;
	return true;
}

/*
 * The PMU does not trace its own writes: event B, probing
 * perf_output_begin_forward() and writing into event A's ring
 * (PERF_EVENT_IOC_SET_OUTPUT), does not see the call that reserves each
 * vfs_read() record of A, which the PMU makes itself. It neither records it
 * (fprobe's recursion lock would let that first level through) nor counts
 * it as lost (nor the deeper ones, which the lock misses). So the ring
 * holds A's records alone, every one whole, and B counts nothing.
 */
static bool test_own_writes(uint64_t vfs_read)
{
	uint64_t count_a, lost_a, count_b, lost_b, rlost;
	struct perf_event_attr attr;
	int fda, fdb, zfd, i, n;
	struct ring ring;
	bool ok = false;

	if (!func_addr_of("perf_output_begin_forward"))
		return failf("no perf_output_begin_forward in kallsyms");
	init_attr(&attr, FILTER_ARGS, "vfs_read", 1);
	fda = perf_event_open(&attr, 0, -1);
	if (fda < 0)
		return failf("perf_event_open(vfs_read): %s", strerror(errno));
	init_attr(&attr, 0, "perf_output_begin_forward", 1);
	fdb = perf_event_open(&attr, 0, -1);
	if (fdb < 0) {
		close(fda);
		return failf("perf_event_open(perf_output_begin_forward): %s",
			     strerror(errno));
	}
	if (ring_map(&ring, fda)) {
		failf("mmap: %s", strerror(errno));
		goto out_close;
	}
	if (ioctl(fdb, PERF_EVENT_IOC_SET_OUTPUT, fda)) {
		failf("PERF_EVENT_IOC_SET_OUTPUT: %s", strerror(errno));
		goto out;
	}
	zfd = open("/dev/zero", O_RDONLY);
	ioctl(fdb, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fda, PERF_EVENT_IOC_ENABLE, 0);
	n = do_reads(zfd);
	ioctl(fda, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fdb, PERF_EVENT_IOC_DISABLE, 0);
	close(zfd);
	if (n) {
		failf("reading /dev/zero failed");
		goto out;
	}
	if (read_count(fda, &count_a, &lost_a) ||
	    read_count(fdb, &count_b, &lost_b)) {
		failf("read of the events: %s", strerror(errno));
		goto out;
	}
	n = ring_read(&ring, samples, ARRAY_SIZE(samples), &rlost);
	if (n < 0)
		goto out;
	if (count_a != NR_READS || lost_a || rlost) {
		failf("vfs_read: count %" PRIu64 ", lost %" PRIu64
		      ", %" PRIu64 " in LOST records", count_a, lost_a, rlost);
		goto out;
	}
	if (n != NR_READS || count_b || lost_b) {
		failf("%d records for %d reads; perf_output_begin_forward: count %"
		      PRIu64 ", lost %" PRIu64 ", expected none", n, NR_READS,
		      count_b, lost_b);
		goto out;
	}
	for (i = 0; i < NR_READS; i++)
		if (!check_read_exit(&samples[i], i, vfs_read, FILTER_ARGS))
			goto out;
	ok = true;
out:
	ring_unmap(&ring);
out_close:
	close(fdb);
	close(fda);
	return ok;
}

/*
 * A ring of two pages, read after each call: the samples go around it many
 * times, so some are split across the end of a page and the others are
 * written over older ones. With wakeup_events = 1, poll() wakes up for
 * each record, whatever the watermark (half the ring).
 */
static bool test_small_ring(uint64_t vfs_read)
{
	struct perf_event_attr attr;
	uint64_t count, lost, rlost;
	int fd, zfd, i, n;
	struct pollfd pfd;
	struct ring ring;
	bool ok = false;

	init_attr(&attr, FILTER_ARGS, "vfs_read", 1);
	attr.wakeup_events = 1;
	fd = perf_event_open(&attr, 0, -1);
	if (fd < 0)
		return failf("perf_event_open: %s", strerror(errno));
	if (ring_map_pages(&ring, fd, 2)) {
		close(fd);
		return failf("mmap: %s", strerror(errno));
	}
	zfd = open("/dev/zero", O_RDONLY);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < NR_READS; i++) {
		if (read(zfd, zbuf, i + 1) != i + 1) {
			failf("reading /dev/zero failed");
			goto out;
		}
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 5000) != 1 || !(pfd.revents & POLLIN)) {
			failf("no poll() wakeup for the record of read %d", i);
			goto out;
		}
		/* Exactly the record of this read */
		n = ring_read(&ring, &samples[i], 1, &rlost);
		if (n < 0)
			goto out;
		if (n != 1 || rlost) {
			failf("read %d: %d records, %" PRIu64 " lost", i, n,
			      rlost);
			goto out;
		}
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read_count(fd, &count, &lost)) {
		failf("read of the event: %s", strerror(errno));
		goto out;
	}
	if (count != NR_READS || lost) {
		failf("count %" PRIu64 ", lost %" PRIu64 ", %d reads", count,
		      lost, NR_READS);
		goto out;
	}
	/* Checked once the event is off: the checks make reads of their own. */
	for (i = 0; i < NR_READS; i++)
		if (!check_read_exit(&samples[i], i, vfs_read, FILTER_ARGS))
			goto out;
	ok = true;
out:
	close(zfd);
	ring_unmap(&ring);
	close(fd);
	return ok;
}

/*
 * Walk the records of @r: the samples, the lost records' counts and the
 * PERF_RECORD_THROTTLE records (not the unthrottles).
 */
static int ring_tally(struct ring *r, uint64_t *nr_samples, uint64_t *lost,
		      uint64_t *throttles)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	struct perf_event_header hdr;
	uint64_t word[3];

	while (r->tail < head) {
		ring_copy(r, r->tail, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr))
			return failf("bad record size %u", hdr.size), -1;
		if (hdr.type == PERF_RECORD_SAMPLE) {
			(*nr_samples)++;
		} else if (hdr.type == PERF_RECORD_LOST) {
			ring_copy(r, r->tail, word, sizeof(word));
			*lost += word[2];
		} else if (hdr.type == PERF_RECORD_THROTTLE) {
			(*throttles)++;
		}
		r->tail += hdr.size;
	}
	__atomic_store_n(&r->page->data_tail, r->tail, __ATOMIC_RELEASE);
	return 0;
}

#define MAX_SAMPLE_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define NR_THROTTLED_READS 1000

static int write_file(const char *path, const char *val);

/* Set perf_event_max_sample_rate to @rate, its value before in @old */
static bool set_sample_rate(const char *rate, char *old, size_t size)
{
	FILE *f = fopen(MAX_SAMPLE_RATE, "r");

	if (!f || !fgets(old, size, f)) {
		if (f)
			fclose(f);
		return failf("cannot read " MAX_SAMPLE_RATE);
	}
	fclose(f);
	old[strcspn(old, "\n")] = '\0';
	if (write_file(MAX_SAMPLE_RATE, rate))
		return failf("cannot write " MAX_SAMPLE_RATE ": %s",
			     strerror(errno));
	return true;
}

/*
 * The samples are throttled as a hardware PMU's interrupts are: with
 * perf_event_max_sample_rate at 1, an event takes one sample per tick;
 * the calls after it until the next tick are dropped, with a
 * PERF_RECORD_THROTTLE, and counted in the lost samples, while the
 * count goes on. NR_THROTTLED_READS reads of a few microseconds each make
 * many calls in one tick.
 */
static bool test_throttle(void)
{
	uint64_t count, lost, nr = 0, rlost = 0, throttles = 0;
	struct perf_event_attr attr;
	char old[32] = "";
	struct ring ring;
	bool ok = false;
	int fd, zfd, i;

	if (!set_sample_rate("1", old, sizeof(old)))
		return false;

	init_attr(&attr, 0, "vfs_read", 1);
	fd = perf_event_open(&attr, 0, -1);
	if (fd < 0) {
		failf("perf_event_open: %s", strerror(errno));
		goto out_rate;
	}
	if (ring_map(&ring, fd)) {
		failf("mmap: %s", strerror(errno));
		goto out_close;
	}
	zfd = open("/dev/zero", O_RDONLY);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < NR_THROTTLED_READS; i++)
		if (read(zfd, zbuf, 1) != 1)
			break;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(zfd);
	if (i != NR_THROTTLED_READS) {
		failf("reading /dev/zero failed");
		goto out_unmap;
	}
	if (read_count(fd, &count, &lost) ||
	    ring_tally(&ring, &nr, &rlost, &throttles)) {
		failf("read of the event: %s", strerror(errno));
		goto out_unmap;
	}
	if (count != NR_THROTTLED_READS || nr + lost != NR_THROTTLED_READS ||
	    !lost || !throttles || rlost)
		failf("%d reads: count %" PRIu64 ", %" PRIu64 " samples, %"
		      PRIu64 " lost, %" PRIu64 " throttles, %" PRIu64
		      " in lost records", NR_THROTTLED_READS, count, nr, lost,
		      throttles, rlost);
	else
		ok = true;
out_unmap:
	ring_unmap(&ring);
out_close:
	close(fd);
out_rate:
	write_file(MAX_SAMPLE_RATE, old);
	return ok;
}

/*
 * Every traceable function on every CPU, with exclude_opener off: the
 * calls this process makes to read the records are recorded too, and make
 * more records. The samples are throttled, so it ends: for RUN_SECONDS
 * the rings are drained as fast as this process can, then the events are
 * closed. The calls dropped are counted as lost.
 */
#define RUN_SECONDS	2
#define MAX_CPUS	64

static bool test_all_functions(void)
{
	uint64_t nr = 0, rlost = 0, throttles = 0, lost = 0, count, l;
	int fds[MAX_CPUS], nr_cpus, cpu, opened = 0;
	struct ring rings[MAX_CPUS];
	struct pollfd pfds[MAX_CPUS];
	struct perf_event_attr attr;
	struct timespec start, now;
	bool ok = false;

	nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus > MAX_CPUS)
		nr_cpus = MAX_CPUS;
	init_attr(&attr, 0, "*", 1);
	attr.wakeup_events = 1;
	for (cpu = 0; cpu < nr_cpus; cpu++, opened++) {
		fds[cpu] = perf_event_open(&attr, -1, cpu);
		if (fds[cpu] < 0) {
			if (errno == E2BIG) {
				int nr = nr_traceable(), max = read_pmu_int("caps/max_funcs");

				/* E2BIG only past the cap */
				if (nr >= 0 && nr <= max) {
					failf("'*': E2BIG, %d functions, cap %d", nr, max);
				} else {
					printf("SKIP all-functions: %d functions, cap %d\n",
					       nr, max);
					ok = true;
				}
			} else {
				failf("perf_event_open '*' on CPU %d: %s", cpu,
				      strerror(errno));
			}
			goto out;
		}
		if (ring_map_pages(&rings[cpu], fds[cpu], 16)) {
			close(fds[cpu]);
			failf("mmap: %s", strerror(errno));
			goto out;
		}
		pfds[cpu].fd = fds[cpu];
		pfds[cpu].events = POLLIN;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++)
		ioctl(fds[cpu], PERF_EVENT_IOC_ENABLE, 0);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		poll(pfds, nr_cpus, 100);
		for (cpu = 0; cpu < nr_cpus; cpu++)
			if (ring_tally(&rings[cpu], &nr, &rlost, &throttles))
				goto out;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < RUN_SECONDS);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		ioctl(fds[cpu], PERF_EVENT_IOC_DISABLE, 0);
		if (read_count(fds[cpu], &count, &l) ||
		    ring_tally(&rings[cpu], &nr, &rlost, &throttles)) {
			failf("read of the event on CPU %d", cpu);
			goto out;
		}
		lost += l;
	}
	printf("all-functions: %d CPUs, %d s: %" PRIu64 " samples, %" PRIu64
	       " lost, %" PRIu64 " throttles\n", nr_cpus, RUN_SECONDS, nr, lost,
	       throttles);
	if (!nr || !lost || !throttles)
		failf("%" PRIu64 " samples, %" PRIu64 " lost, %" PRIu64
		      " throttles: none throttled", nr, lost, throttles);
	else
		ok = true;
out:
	while (opened-- > 0) {
		ring_unmap(&rings[opened]);
		close(fds[opened]);
	}
	return ok;
}

/*
 * Modules: the sample module trace-events-sample calls foo_bar_reg() each
 * time its event foo_bar_with_fn is enabled. An event opened before the
 * module is loaded does not attach it; one opened after, with the same
 * filter (which would share the first one's probe if no module had come),
 * does, and counts each call. Unloading the module under an active
 * sampling event takes the function out of it, with no record lost and
 * the event's other function still recorded.
 */
#define SAMPLE_MODULE	"trace-events-sample"
#define FOO_BAR_ENABLE	"/sys/kernel/tracing/events/sample-trace/foo_bar_with_fn/enable"

static int foo_bar_cycles(int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (write_file(FOO_BAR_ENABLE, "1") || write_file(FOO_BAR_ENABLE, "0"))
			return -1;
	return 0;
}

static bool test_module(void)
{
	uint64_t ca, cb, la, lb, count, lost, nr = 0, rlost = 0, throttles = 0;
	struct perf_event_attr attr;
	int a, b = -1, fd = -1, zfd, i;
	struct ring ring;
	bool ok = false;

	if (system("rmmod " SAMPLE_MODULE " 2>/dev/null; ! grep -qw foo_bar_reg /proc/kallsyms"))
		return failf("%s is built in, or cannot be unloaded", SAMPLE_MODULE);
	init_attr(&attr, 0, "foo_bar_reg vfs_fsync", 0);
	a = perf_event_open(&attr, 0, -1);
	if (a < 0)
		return failf("perf_event_open before the module: %s", strerror(errno));
	if (system("modprobe " SAMPLE_MODULE)) {
		printf("SKIP module: no %s module\n", SAMPLE_MODULE);
		close(a);
		return true;
	}
	b = perf_event_open(&attr, 0, -1);
	if (b < 0) {
		failf("perf_event_open after the module: %s", strerror(errno));
		goto out;
	}
	ioctl(a, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(b, PERF_EVENT_IOC_ENABLE, 0);
	if (foo_bar_cycles(3)) {
		failf("cannot enable and disable %s", FOO_BAR_ENABLE);
		goto out;
	}
	ioctl(a, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(b, PERF_EVENT_IOC_DISABLE, 0);
	if (read_count(a, &ca, &la) || read_count(b, &cb, &lb)) {
		failf("read of the events: %s", strerror(errno));
		goto out;
	}
	if (ca != 0 || cb != 3 || la || lb) {
		failf("3 calls of the module: opened before it %" PRIu64
		      " (lost %" PRIu64 "), after it %" PRIu64 " (lost %" PRIu64
		      ")", ca, la, cb, lb);
		goto out;
	}

	/* The module goes while a sampling event has one of its functions */
	init_attr(&attr, 0, "foo_bar_reg vfs_read", 1);
	fd = perf_event_open(&attr, 0, -1);
	if (fd < 0 || ring_map(&ring, fd)) {
		failf("sampling event: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
		goto out;
	}
	zfd = open("/dev/zero", O_RDONLY);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	i = foo_bar_cycles(1);
	if (!i)
		i = system("rmmod " SAMPLE_MODULE);
	for (nr = 0; !i && nr < 10; nr++)
		if (read(zfd, zbuf, 1) != 1)
			i = -1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(zfd);
	nr = 0;
	if (i || read_count(fd, &count, &lost) ||
	    ring_tally(&ring, &nr, &rlost, &throttles)) {
		failf("the enable, rmmod or reads failed");
	} else if (count != 11 || nr != 11 || lost || rlost) {
		failf("1 call of the module, then rmmod, then 10 reads: count %"
		      PRIu64 ", %" PRIu64 " samples, %" PRIu64 " lost", count,
		      nr, lost + rlost);
	} else {
		ok = true;
	}
	ring_unmap(&ring);
out:
	if (fd >= 0)
		close(fd);
	if (b >= 0)
		close(b);
	close(a);
	system("rmmod " SAMPLE_MODULE " 2>/dev/null");
	return ok;
}

/* A glob: every vfs_* call is recorded, the vfs_read ones exactly */
static bool test_glob(uint64_t vfs_read)
{
	uint64_t count;
	int n, i, reads = 0;

	n = record_reads(0, "vfs_*", &count);
	if (n < 0)
		return false;
	if (count != (uint64_t)n)
		return failf("%d records, count %" PRIu64, n, count);
	for (i = 0; i < n; i++) {
		const struct fprobe_pmu_record *r = &samples[i].rec;
		const char *name = ksym_name(r->func);

		if (!name || strncmp(name, "vfs_", 4))
			return failf("a record of %s", name ?: "?");
		if (r->func != vfs_read)
			continue;
		if (r->retval != (uint64_t)reads + 1 || r->nargs)
			return failf("vfs_read record %d: retval %" PRIu64,
				     reads, (uint64_t)r->retval);
		reads++;
	}
	if (reads != NR_READS)
		return failf("%d vfs_read records of %d reads", reads, NR_READS);
	return true;
}

/* Entry and exit records: pairs, the calls counted once */
static bool test_entry_records(uint64_t vfs_read)
{
	uint64_t count;
	int n, i;

	n = record_reads(FPROBE_PMU_CONFIG_ENTRY | FILTER_ARGS, "vfs_read",
			 &count);
	if (n < 0)
		return false;
	if (n != 2 * NR_READS || count != NR_READS)
		return failf("%d records, count %" PRIu64 ", %d reads", n, count,
			     NR_READS);
	for (i = 0; i < NR_READS; i++) {
		const struct sample *en = &samples[2 * i];
		const struct sample *ex = &samples[2 * i + 1];

		if (en->rec.type != FPROBE_PMU_REC_ENTRY ||
		    en->rec.duration || en->rec.retval || en->period != 1)
			return failf("entry record %d: type %u duration %" PRIu64
				     " period %" PRIu64, i, en->rec.type,
				     (uint64_t)en->rec.duration, en->period);
		if (en->rec.args[2] != (uint64_t)i + 1 ||
		    en->rec.entry_time != ex->rec.entry_time ||
		    en->rec.depth != ex->rec.depth)
			return failf("entry record %d does not match its exit", i);
		if (!check_read_exit(ex, i, vfs_read, FILTER_ARGS))
			return false;
	}
	return true;
}

static bool test_noexit(void)
{
	uint64_t count;
	int n, i;

	n = record_reads(FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT |
			 FILTER_ARGS, "vfs_read", &count);
	if (n < 0)
		return false;
	if (n != NR_READS || count != NR_READS)
		return failf("%d records, count %" PRIu64, n, count);
	for (i = 0; i < n; i++)
		if (samples[i].rec.type != FPROBE_PMU_REC_ENTRY ||
		    samples[i].rec.args[2] != (uint64_t)i + 1)
			return failf("record %d: type %u count arg %" PRIu64, i,
				     samples[i].rec.type,
				     (uint64_t)samples[i].rec.args[2]);
	return true;
}

/* Open a counting event, run @fn, return the count (or -1) */
static int64_t count_of(struct perf_event_attr *attr, pid_t pid, int cpu,
			int (*fn)(void))
{
	uint64_t count, lost;
	int fd, ret;

	fd = perf_event_open(attr, pid, cpu);
	if (fd < 0)
		return failf("perf_event_open: %s", strerror(errno)), -1;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ret = fn();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (ret || read_count(fd, &count, &lost)) {
		close(fd);
		return failf("workload or read failed"), -1;
	}
	close(fd);
	if (lost)
		return failf("%" PRIu64 " lost", lost), -1;
	return count;
}

static int reads_workload(void)
{
	int zfd = open("/dev/zero", O_RDONLY), ret;

	ret = do_reads(zfd);
	close(zfd);
	return ret;
}

/* The reads in a child, counted by an inherited event */
static int forked_reads(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid)
		_exit(reads_workload() ? 1 : 0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

#define TRACEFS		"/sys/kernel/tracing/"

/* A function name and how many calls of it were seen */
struct fcount {
	char name[128];
	int n;
};

static int fcount_add(struct fcount *fc, int nr, int max, const char *name)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (!strcmp(fc[i].name, name)) {
			fc[i].n++;
			return nr;
		}
	}
	if (nr == max)
		return -1;
	snprintf(fc[nr].name, sizeof(fc[nr].name), "%s", name);
	fc[nr].n = 1;
	return nr + 1;
}

static int cmp_fcount(const void *a, const void *b)
{
	return strcmp(((const struct fcount *)a)->name,
		      ((const struct fcount *)b)->name);
}

static int tracefs_write(const char *file, const char *val)
{
	int fd = open(file, O_WRONLY | O_TRUNC), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
	close(fd);
	return ret;
}

static void tracer_off(void)
{
	tracefs_write(TRACEFS "tracing_on", "0");
	tracefs_write(TRACEFS "current_tracer", "nop");
	tracefs_write(TRACEFS "set_ftrace_filter", "");
	tracefs_write(TRACEFS "set_ftrace_pid", "");
	tracefs_write(TRACEFS "trace", "");
}

/*
 * The raw data of the first PERF_SAMPLE_RAW-only sample of @r into @raw:
 * its size, or -1
 */
static int ring_first_raw(struct ring *r, void *raw, size_t max)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	struct perf_event_header hdr;
	uint32_t size;

	while (r->tail < head) {
		ring_copy(r, r->tail, &hdr, sizeof(hdr));
		if (hdr.size < sizeof(hdr))
			return -1;
		if (hdr.type == PERF_RECORD_SAMPLE) {
			ring_copy(r, r->tail + sizeof(hdr), &size, sizeof(size));
			if (size > max || sizeof(hdr) + 4 + size > hdr.size)
				return -1;
			ring_copy(r, r->tail + sizeof(hdr) + 4, raw, size);
			return size;
		}
		r->tail += hdr.size;
	}
	return -1;
}

#define CMP_GROUP	"fprobe_pmu_cmp"
#define CMP_ARGS	"$arg1:s32 +0($arg2):ustring +0($arg3):x64 $comm +0($arg3):u8[4]"
#define CMP_PATH	"/fprobe-pmu-cmp-no-such-file"

/*
 * One fetch engine: an fprobe event (dynamic_events) and a PMU event with
 * the same fetch arguments, on the same openat() call, read the same
 * values. The fprobe event's fields are after its common fields and the
 * probed ip (16 bytes), its data_locs count from the start of the entry;
 * the PMU's fetch area is after the 56-byte fixed part, its data_locs
 * count from the area.
 */
static bool test_same_as_fprobe_event(void)
{
	static const char filter[] = "do_sys_openat2;" CMP_ARGS;
	struct perf_event_attr tattr, pattr;
	char traw[1024], praw[1024], idbuf[32];
	const char *tf, *pf;
	struct ring tr, pr;
	int tfd, pfd, idfd, tsize, psize, i;
	bool ok = false;
	uint32_t tdl, pdl;
	long id;

	tracefs_write(TRACEFS "dynamic_events", "-:" CMP_GROUP "/openat");
	if (tracefs_write(TRACEFS "dynamic_events",
			  "f:" CMP_GROUP "/openat do_sys_openat2 " CMP_ARGS))
		return failf("cannot create the fprobe event: %s", strerror(errno));
	idfd = open(TRACEFS "events/" CMP_GROUP "/openat/id", O_RDONLY);
	i = idfd < 0 ? -1 : read(idfd, idbuf, sizeof(idbuf) - 1);
	if (idfd >= 0)
		close(idfd);
	if (i <= 0) {
		failf("no id of the fprobe event");
		goto out_event;
	}
	idbuf[i] = '\0';
	id = strtol(idbuf, NULL, 10);

	memset(&tattr, 0, sizeof(tattr));
	tattr.size = sizeof(tattr);
	tattr.type = PERF_TYPE_TRACEPOINT;
	tattr.config = id;
	tattr.sample_period = 1;
	tattr.sample_type = PERF_SAMPLE_RAW;
	tattr.disabled = 1;
	init_attr(&pattr, FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT, filter, 1);
	pattr.sample_type = PERF_SAMPLE_RAW;
	tfd = perf_event_open(&tattr, 0, -1);
	pfd = perf_event_open(&pattr, 0, -1);
	if (tfd < 0 || pfd < 0) {
		failf("open: %s", strerror(errno));
		goto out_close;
	}
	if (ring_map(&tr, tfd) || ring_map(&pr, pfd)) {
		failf("mmap: %s", strerror(errno));
		goto out_close;
	}
	ioctl(tfd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
	i = open(CMP_PATH, O_RDONLY | O_CLOEXEC);
	ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(tfd, PERF_EVENT_IOC_DISABLE, 0);
	if (i >= 0)
		close(i);

	tsize = ring_first_raw(&tr, traw, sizeof(traw));
	psize = ring_first_raw(&pr, praw, sizeof(praw));
	if (tsize < 16 + 24 || psize < 56 + 24) {
		failf("raw data of %d and %d bytes", tsize, psize);
		goto out_unmap;
	}
	tf = traw + 16;
	pf = praw + 56;
	/* dfd, how->flags and its bytes: the same bytes */
	if (memcmp(tf, pf, 4) || memcmp(tf + 8, pf + 8, 8) || memcmp(tf + 20, pf + 20, 4)) {
		failf("values differ");
		goto out_unmap;
	}
	if (*(const int32_t *)pf != AT_FDCWD) {
		failf("dfd %d", *(const int32_t *)pf);
		goto out_unmap;
	}
	/* the two strings, at their data_locs */
	for (i = 0; i < 2; i++) {
		size_t off = i ? 16 : 4;

		memcpy(&tdl, tf + off, 4);
		memcpy(&pdl, pf + off, 4);
		if (tdl >> 16 != pdl >> 16 || !(tdl >> 16) ||
		    (tdl & 0xffff) + (tdl >> 16) > (uint32_t)tsize ||
		    56 + (pdl & 0xffff) + (pdl >> 16) > (uint32_t)psize ||
		    memcmp(traw + (tdl & 0xffff), pf + (pdl & 0xffff), tdl >> 16)) {
			failf("string %d differs: data_loc %#x and %#x", i, tdl, pdl);
			goto out_unmap;
		}
	}
	memcpy(&pdl, pf + 4, 4);
	if (strcmp(pf + (pdl & 0xffff), CMP_PATH)) {
		failf("file name '%s'", pf + (pdl & 0xffff));
		goto out_unmap;
	}
	ok = true;
out_unmap:
	ring_unmap(&tr);
	ring_unmap(&pr);
out_close:
	if (tfd >= 0)
		close(tfd);
	if (pfd >= 0)
		close(pfd);
out_event:
	tracefs_write(TRACEFS "dynamic_events", "-:" CMP_GROUP "/openat");
	return ok;
}

/*
 * Scopes share one function graph ops: more events with a scope than the
 * function graph tracer has ops (16) are open at once, the function_graph
 * tracer starts beside them, and each event counts the reads of its task
 * made in the read syscall, its scope, and not those of pread(), which
 * calls vfs_read() too.
 */
static bool test_scopes_function_graph(void)
{
	enum { NR = 20 };
	static char filters[NR][64];
	struct perf_event_attr attr;
	uint64_t count, lost;
	int fds[NR], i, n, zfd;
	bool ok = false;

	if (access(TRACEFS "current_tracer", W_OK)) {
		printf("SKIP scopes-with-function-graph: no " TRACEFS "\n");
		return true;
	}
	for (i = 0; i < NR; i++)
		fds[i] = -1;
	/* Distinct filter strings, distinct probes: trailing white space */
	for (i = 0; i < NR; i++) {
		snprintf(filters[i], sizeof(filters[i]), "vfs_read @*sys_read%*s",
			 i, "");
		/* Entry-only: twenty exit probes of vfs_read overflow its frame */
		init_attr(&attr, FPROBE_PMU_CONFIG_ENTRY | FPROBE_PMU_CONFIG_NOEXIT,
			  filters[i], 0);
		fds[i] = perf_event_open(&attr, 0, -1);
		if (fds[i] < 0) {
			failf("perf_event_open of scope %d: %s", i, strerror(errno));
			goto out;
		}
	}
	tracer_off();
	if (tracefs_write(TRACEFS "set_ftrace_filter", "vfs_read") ||
	    tracefs_write(TRACEFS "current_tracer", "function_graph")) {
		failf("function_graph beside %d scopes: %s", NR, strerror(errno));
		goto out;
	}
	for (i = 0; i < NR; i++)
		ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
	zfd = open("/dev/zero", O_RDONLY);
	n = do_reads(zfd);
	for (i = 1; !n && i <= NR_READS; i++)
		if (pread(zfd, zbuf, i, 0) != i)
			n = -1;
	close(zfd);
	/* Off before their counts are read: that read is a vfs_read() too */
	for (i = 0; i < NR; i++)
		ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
	if (n) {
		failf("reading /dev/zero failed");
		goto out;
	}
	for (i = 0; i < NR; i++) {
		if (read_count(fds[i], &count, &lost)) {
			failf("read of event %d: %s", i, strerror(errno));
			goto out;
		}
		if (count != NR_READS || lost) {
			failf("scope %d: count %llu, lost %llu, %d reads", i,
			      (unsigned long long)count,
			      (unsigned long long)lost, NR_READS);
			goto out;
		}
	}
	ok = true;
out:
	tracer_off();
	for (i = 0; i < NR; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ok;
}

/*
 * Count the calls per function in the function tracer's buffer; -1 if
 * the buffer lost entries or cannot be read.
 */
static int tracer_counts(struct fcount *fc, int max)
{
	unsigned long in_buf = 0, written = 0;
	char line[512], *arrow, *name;
	bool header = false;
	int nr = 0;
	FILE *f;

	f = fopen(TRACEFS "trace", "r");
	if (!f)
		return failf("cannot read the trace: %s", strerror(errno)), -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if (sscanf(line, "# entries-in-buffer/entries-written: %lu/%lu",
				   &in_buf, &written) != 2)
				continue;
			header = true;
			continue;
		}
		/* "  comm-pid  [cpu] flags  ts: func <-parent" */
		arrow = strstr(line, " <-");
		if (!arrow)
			continue;
		*arrow = '\0';
		name = strrchr(line, ' ');
		if (!name)
			continue;
		nr = fcount_add(fc, nr, max, name + 1);
		if (nr < 0)
			break;
	}
	fclose(f);
	if (nr < 0)
		return failf("more than %d functions in the trace", max), -1;
	if (!header)
		return failf("no entries-in-buffer/entries-written in the trace"), -1;
	if (in_buf != written)
		return failf("the function tracer lost entries (%lu of %lu)",
			     in_buf, written), -1;
	return nr;
}

/*
 * The done-when test of the PMU: one event on "vfs_*" against an
 * independent count of the same calls, the function tracer filtered to
 * "vfs_*" and to the pid of a child that runs the reads. Both are on
 * before the child starts and off after it has exited, so each must see
 * exactly the calls of the child; nothing may be lost on either side.
 */
static bool test_glob_vs_function_tracer(uint64_t vfs_read)
{
	static struct fcount pmu[256], ftr[256];
	int fd = -1, go[2], status, n, i, np = 0, nt, reads = 0;
	struct perf_event_attr attr;
	uint64_t count, lost, rlost;
	struct ring ring;
	char pid_str[16];
	bool ok = false;
	pid_t pid;

	if (access(TRACEFS "set_ftrace_pid", W_OK)) {
		printf("SKIP glob-vs-function-tracer: no " TRACEFS "\n");
		return true;
	}
	if (pipe(go))
		return failf("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return failf("fork: %s", strerror(errno));
	if (!pid) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(reads_workload() ? 1 : 0);
	}
	close(go[0]);

	snprintf(pid_str, sizeof(pid_str), "%d", pid);
	tracer_off();
	if (tracefs_write(TRACEFS "set_ftrace_filter", "vfs_*") ||
	    tracefs_write(TRACEFS "set_ftrace_pid", pid_str) ||
	    tracefs_write(TRACEFS "buffer_size_kb", "4096") ||
	    tracefs_write(TRACEFS "current_tracer", "function") ||
	    tracefs_write(TRACEFS "tracing_on", "1")) {
		failf("setting up the function tracer: %s", strerror(errno));
		goto out_kill;
	}

	init_attr(&attr, 3, "vfs_*", 1);
	fd = perf_event_open(&attr, pid, -1);
	if (fd < 0) {
		failf("perf_event_open(vfs_*): %s", strerror(errno));
		goto out_kill;
	}
	if (ring_map(&ring, fd)) {
		failf("mmap: %s", strerror(errno));
		goto out_kill;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (write(go[1], "g", 1) != 1 || waitpid(pid, &status, 0) != pid) {
		failf("cannot run the child: %s", strerror(errno));
		goto out_unmap;
	}
	pid = 0;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	tracefs_write(TRACEFS "tracing_on", "0");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		failf("the child's reads failed (status %#x)", status);
		goto out_unmap;
	}

	if (read_count(fd, &count, &lost)) {
		failf("read of the event: %s", strerror(errno));
		goto out_unmap;
	}
	n = ring_read(&ring, samples, ARRAY_SIZE(samples),
		      &rlost);
	if (n < 0)
		goto out_unmap;
	if (lost || rlost || count != (uint64_t)n) {
		failf("%d records, count %" PRIu64 ", %" PRIu64 " lost, %"
		      PRIu64 " in LOST records", n, count, lost, rlost);
		goto out_unmap;
	}
	for (i = 0; i < n; i++) {
		const struct fprobe_pmu_record *r = &samples[i].rec;
		const char *name = ksym_name(r->func);

		if (!name || samples[i].pid != (uint32_t)atoi(pid_str)) {
			failf("record %d: function %s, pid %u", i, name ?: "?",
			      samples[i].pid);
			goto out_unmap;
		}
		/* The reads of /dev/zero into zbuf, in order (not the pipe) */
		if (r->func == vfs_read && r->args[1] == (uintptr_t)zbuf) {
			reads++;
			if (r->args[2] != (uint64_t)reads ||
			    r->retval != (uint64_t)reads) {
				failf("read %d: vfs_read of %" PRIu64
				      " bytes returned %" PRId64, reads,
				      (uint64_t)r->args[2], (int64_t)r->retval);
				goto out_unmap;
			}
		}
		np = fcount_add(pmu, np, 256, name);
		if (np < 0) {
			failf("more than 256 functions recorded");
			goto out_unmap;
		}
	}
	if (reads != NR_READS) {
		failf("%d vfs_read records of %d reads", reads, NR_READS);
		goto out_unmap;
	}
	nt = tracer_counts(ftr, 256);
	if (nt < 0)
		goto out_unmap;
	qsort(pmu, np, sizeof(pmu[0]), cmp_fcount);
	qsort(ftr, nt, sizeof(ftr[0]), cmp_fcount);
	for (i = 0; i < np || i < nt; i++) {
		if (i >= np || i >= nt || strcmp(pmu[i].name, ftr[i].name) ||
		    pmu[i].n != ftr[i].n) {
			failf("PMU %s x%d, function tracer %s x%d",
			      i < np ? pmu[i].name : "-", i < np ? pmu[i].n : 0,
			      i < nt ? ftr[i].name : "-", i < nt ? ftr[i].n : 0);
			goto out_unmap;
		}
	}
	printf("# glob-vs-function-tracer: %d calls of %d vfs_* functions, the same in both\n",
	       n, np);
	ok = true;
out_unmap:
	ring_unmap(&ring);
out_kill:
	if (fd >= 0)
		close(fd);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	close(go[1]);
	tracer_off();
	return ok;
}

static bool test_counting(void)
{
	struct perf_event_attr attr;
	int64_t c;

	init_attr(&attr, 0, "vfs_read", 0);
	c = count_of(&attr, 0, -1, reads_workload);
	if (c != NR_READS)
		return c < 0 ? false : failf("count %" PRId64 " of %d", c, NR_READS);
	return true;
}

static bool test_inherit(void)
{
	struct perf_event_attr attr;
	int64_t c;

	init_attr(&attr, 0, "vfs_read", 0);
	attr.inherit = 1;
	c = count_of(&attr, 0, -1, forked_reads);
	if (c != NR_READS)
		return c < 0 ? false : failf("count %" PRId64 " of %d", c, NR_READS);
	return true;
}

#define NR_CHILDREN	1000
#define CHILD_BATCH	100

/* A child's record: its read() of one byte, in its only thread */
static bool child_sample_ok(const struct sample *s, uint64_t vfs_read)
{
	if (s->tid == s->pid && s->rec.func == vfs_read &&
	    s->rec.type == FPROBE_PMU_REC_EXIT && s->rec.retval == 1)
		return true;
	return failf("record of pid %u tid %u: func %#" PRIx64 ", type %u, retval %" PRIu64,
		     s->pid, s->tid, s->rec.func, s->rec.type, s->rec.retval);
}

/*
 * A scoped, inherited, sampling event on a workload that forks and reaps
 * NR_CHILDREN children, one after the other, as perf record opens it (an
 * event per CPU: an inherited task event cannot be mapped): each child
 * reads one byte with read() (in the scope) and one with pread() (not in
 * it), then exits. The rings hold one exit record of vfs_read() per
 * child, made by that child; the counts add the children's up as they
 * exit. The debug kernel runs it for the exits of tasks that hold a
 * scope's and an inherited event's state.
 */
static bool test_scope_inherit_fork(uint64_t vfs_read)
{
	int fd[MAX_CPUS], zfd = -1, i, j, k, n, cpu, ncpus, status;
	uint64_t count, total = 0, lost = 0, rlost;
	pid_t pids[CHILD_BATCH], pid;
	struct ring ring[MAX_CPUS];
	struct perf_event_attr attr;
	bool seen[CHILD_BATCH];
	char old[32] = "";
	bool ok = false;

	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1 || ncpus > MAX_CPUS)
		return failf("%d CPUs", ncpus);
	/* Records not throttled: the debug kernel lowers the rate itself */
	if (!set_sample_rate("100000000", old, sizeof(old)))
		return false;
	init_attr(&attr, 0, "vfs_read @*sys_read", 1);
	attr.inherit = 1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		fd[cpu] = perf_event_open(&attr, 0, cpu);
		if (fd[cpu] < 0) {
			failf("perf_event_open on CPU %d: %s", cpu, strerror(errno));
			goto out;
		}
		if (ring_map(&ring[cpu], fd[cpu])) {
			failf("mmap on CPU %d: %s", cpu, strerror(errno));
			close(fd[cpu]);
			goto out;
		}
	}
	zfd = open("/dev/zero", O_RDONLY);
	if (zfd < 0) {
		failf("/dev/zero: %s", strerror(errno));
		goto out;
	}
	for (k = 0; k < ncpus; k++)
		ioctl(fd[k], PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < NR_CHILDREN; i += CHILD_BATCH) {
		for (j = 0; j < CHILD_BATCH; j++) {
			pid = fork();
			if (pid < 0) {
				failf("fork: %s", strerror(errno));
				goto out;
			}
			if (!pid)
				_exit(read(zfd, zbuf, 1) == 1 &&
				      pread(zfd, zbuf, 1, 0) == 1 ? 0 : 1);
			pids[j] = pid;
			seen[j] = false;
			if (waitpid(pid, &status, 0) != pid ||
			    !WIFEXITED(status) || WEXITSTATUS(status)) {
				failf("child %d failed", i + j);
				goto out;
			}
		}
		/* Each child's record, once, in the ring of any CPU */
		for (k = 0; k < ncpus; k++) {
			n = ring_read(&ring[k], samples, ARRAY_SIZE(samples), &rlost);
			if (n < 0)
				goto out;
			if (rlost) {
				failf("children %d-%d: %" PRIu64 " lost on CPU %d",
				      i, i + CHILD_BATCH - 1, rlost, k);
				goto out;
			}
			while (n--) {
				const struct sample *s = &samples[n];

				if (!child_sample_ok(s, vfs_read))
					goto out;
				for (j = 0; j < CHILD_BATCH; j++)
					if (s->pid == (uint32_t)pids[j])
						break;
				if (j == CHILD_BATCH || seen[j]) {
					failf("children %d-%d: %s record of pid %u",
					      i, i + CHILD_BATCH - 1,
					      j < CHILD_BATCH ? "a second" : "a stray",
					      s->pid);
					goto out;
				}
				seen[j] = true;
			}
		}
		for (j = 0; j < CHILD_BATCH; j++)
			if (!seen[j]) {
				failf("child %d (pid %d): no record", i + j, pids[j]);
				goto out;
			}
	}
	/* All off before a count is read: that read() is in the scope too */
	for (k = 0; k < ncpus; k++)
		ioctl(fd[k], PERF_EVENT_IOC_DISABLE, 0);
	for (k = 0; k < ncpus; k++) {
		if (read_count(fd[k], &count, &lost) || lost) {
			failf("read of the event on CPU %d: %s, %" PRIu64 " lost",
			      k, strerror(errno), lost);
			goto out;
		}
		total += count;
	}
	if (total != NR_CHILDREN)
		failf("count %" PRIu64 ", %d children", total, NR_CHILDREN);
	else
		ok = true;
out:
	if (zfd >= 0)
		close(zfd);
	while (cpu--) {
		ring_unmap(&ring[cpu]);
		close(fd[cpu]);
	}
	write_file(MAX_SAMPLE_RATE, old);
	return ok;
}

/* Run on CPU 0 only, the affinity before saved in @old */
static bool pin_to_cpu0(cpu_set_t *old)
{
	cpu_set_t set;

	sched_getaffinity(0, sizeof(*old), old);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return failf("sched_setaffinity: %s", strerror(errno));
	return true;
}

/*
 * exclude_opener: an event of this task leaves out its reads; the same
 * event inherited by a child counts the child's, which is another process;
 * so does a plain event opened beside it in one group, enabled at once
 * with it on CPU 0, count exactly NR_READS more than the excluding one.
 */
static bool test_exclude_opener(void)
{
	struct perf_event_attr attr;
	uint64_t all, excl, lost;
	cpu_set_t old;
	int lead, fd = -1;
	bool ok = false;
	int64_t c;

	init_attr(&attr, FPROBE_PMU_CONFIG_EXCLUDE_OPENER, "vfs_read", 0);
	c = count_of(&attr, 0, -1, reads_workload);
	if (c != 0)
		return c < 0 ? false : failf("own count %" PRId64 " of 0", c);
	attr.inherit = 1;
	c = count_of(&attr, 0, -1, forked_reads);
	if (c != NR_READS)
		return c < 0 ? false : failf("child count %" PRId64 " of %d",
					     c, NR_READS);

	if (!pin_to_cpu0(&old))
		return false;
	init_attr(&attr, 0, "vfs_read", 0);
	attr.disabled = 1;
	lead = perf_event_open(&attr, -1, 0);
	init_attr(&attr, FPROBE_PMU_CONFIG_EXCLUDE_OPENER, "vfs_read", 0);
	attr.disabled = 0;
	fd = lead < 0 ? -1 : syscall(__NR_perf_event_open, &attr, -1, 0, lead, 0);
	if (fd < 0) {
		failf("perf_event_open: %s", strerror(errno));
		goto out;
	}
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	if (reads_workload()) {
		failf("workload failed");
		goto out;
	}
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (read_count(lead, &all, &lost) || lost ||
	    read_count(fd, &excl, &lost) || lost)
		failf("read failed, or calls lost");
	else if (all - excl != NR_READS)
		failf("CPU-wide: %" PRIu64 " calls, %" PRIu64
		      " without this process's, expected %d fewer",
		      all, excl, NR_READS);
	else
		ok = true;
out:
	if (fd >= 0)
		close(fd);
	if (lead >= 0)
		close(lead);
	sched_setaffinity(0, sizeof(old), &old);
	return ok;
}

/* A CPU-wide event on CPU 0 sees the reads of this task run there */
static bool test_cpu_event(void)
{
	struct perf_event_attr attr;
	cpu_set_t old;
	int64_t c;

	if (!pin_to_cpu0(&old))
		return false;
	init_attr(&attr, 0, "vfs_read", 0);
	c = count_of(&attr, -1, 0, reads_workload);
	sched_setaffinity(0, sizeof(old), &old);
	if (c < NR_READS)
		return c < 0 ? false : failf("count %" PRId64 " < %d", c, NR_READS);
	return true;
}

/*
 * Calls that start on one CPU and return on another: a child sleeps
 * NR_SLEEPS times in a probed function while this process flips its
 * affinity between CPU 0 and CPU 1, so that it often wakes up on the other
 * CPU. An event of the child on each CPU (as perf record opens them for a
 * task) counts every call once, and so do the CPU-wide sampling events of
 * the two CPUs, with nothing lost.
 */
#define NR_SLEEPS	200

static void sleep_worker(int go, int done)
{
	struct timespec ts = { .tv_nsec = 2000000 };
	int i, cpu, migrated = 0;
	char c;

	if (read(go, &c, 1) != 1)
		_exit(1);
	for (i = 0; i < NR_SLEEPS; i++) {
		cpu = sched_getcpu();
		if (nanosleep(&ts, NULL))
			_exit(1);
		migrated += sched_getcpu() != cpu;
	}
	if (write(done, &migrated, sizeof(migrated)) != sizeof(migrated))
		_exit(1);
	_exit(0);
}

/* The first of the sleeping functions the PMU can probe here */
static const char *sleep_function(void)
{
	static const char * const names[] = { "hrtimer_nanosleep", "do_nanosleep" };
	struct perf_event_attr attr;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		init_attr(&attr, 0, names[i], 0);
		fd = perf_event_open(&attr, 0, -1);
		if (fd >= 0) {
			close(fd);
			return names[i];
		}
	}
	return NULL;
}

static bool test_migration(void)
{
	int go[2], done[2], tfd[2] = { -1, -1 }, cfd[2] = { -1, -1 };
	uint64_t count, lost, rlost, tcount = 0, ccount = 0, func_addr;
	int c, n, i, status = -1, migrated = -1;
	struct perf_event_attr attr;
	struct ring ring[2] = {};
	const char *func;
	cpu_set_t set;
	bool ok = false;
	pid_t pid;

	func = sleep_function();
	func_addr = func ? func_addr_of(func) : 0;
	if (!func_addr)
		return failf("no sleeping function to probe");
	if (pipe(go) || pipe(done))
		return failf("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return failf("fork: %s", strerror(errno));
	if (!pid) {
		close(go[1]);
		close(done[0]);
		sleep_worker(go[0], done[1]);
	}
	close(go[0]);
	close(done[1]);

	for (c = 0; c < 2; c++) {
		init_attr(&attr, 0, func, 0);
		tfd[c] = perf_event_open(&attr, pid, c);
		init_attr(&attr, 0, func, 1);
		cfd[c] = perf_event_open(&attr, -1, c);
		if (tfd[c] < 0 || cfd[c] < 0) {
			failf("perf_event_open(%s) on CPU %d: %s", func, c,
			      strerror(errno));
			goto out;
		}
		if (ring_map(&ring[c], cfd[c])) {
			ring[c].page = NULL;
			failf("mmap: %s", strerror(errno));
			goto out;
		}
		ioctl(tfd[c], PERF_EVENT_IOC_ENABLE, 0);
		ioctl(cfd[c], PERF_EVENT_IOC_ENABLE, 0);
	}

	if (write(go[1], "g", 1) != 1) {
		failf("cannot start the worker");
		goto out;
	}
	for (i = 0; waitpid(pid, &status, WNOHANG) == 0; i++) {
		CPU_ZERO(&set);
		CPU_SET(i & 1, &set);
		sched_setaffinity(pid, sizeof(set), &set);
		usleep(700);
	}
	if (read(done[0], &migrated, sizeof(migrated)) != sizeof(migrated) ||
	    !WIFEXITED(status) || WEXITSTATUS(status)) {
		failf("the worker failed (status %d)", status);
		goto out_reaped;
	}

	for (c = 0; c < 2; c++) {
		ioctl(tfd[c], PERF_EVENT_IOC_DISABLE, 0);
		ioctl(cfd[c], PERF_EVENT_IOC_DISABLE, 0);
		if (read_count(tfd[c], &count, &lost)) {
			failf("read: %s", strerror(errno));
			goto out_reaped;
		}
		if (lost) {
			failf("the worker's event on CPU %d lost %" PRIu64, c, lost);
			goto out_reaped;
		}
		tcount += count;
		if (read_count(cfd[c], &count, &lost)) {
			failf("read: %s", strerror(errno));
			goto out_reaped;
		}
		n = ring_read(&ring[c], samples, ARRAY_SIZE(samples), &rlost);
		if (n < 0)
			goto out_reaped;
		if (lost || rlost) {
			failf("the event of CPU %d lost %" PRIu64 " (%" PRIu64
			      " in LOST records)", c, lost, rlost);
			goto out_reaped;
		}
		/* Other tasks may sleep too: count the worker's calls. */
		for (i = 0; i < n; i++)
			ccount += samples[i].pid == (uint32_t)pid &&
				  samples[i].rec.func == func_addr;
	}
	if (migrated < NR_SLEEPS / 10)
		failf("only %d of %d sleeps woke up on another CPU", migrated,
		      NR_SLEEPS);
	else if (tcount != NR_SLEEPS)
		failf("the worker's events counted %" PRIu64
		      " of %d calls of %s (%d migrated)", tcount, NR_SLEEPS,
		      func, migrated);
	else if (ccount != NR_SLEEPS)
		failf("the CPU-wide events recorded %" PRIu64
		      " of %d calls of %s (%d migrated)", ccount, NR_SLEEPS,
		      func, migrated);
	else
		ok = true;
	goto out_reaped;
out:
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
out_reaped:
	for (c = 0; c < 2; c++) {
		if (ring[c].page)
			ring_unmap(&ring[c]);
		if (tfd[c] >= 0)
			close(tfd[c]);
		if (cfd[c] >= 0)
			close(cfd[c]);
	}
	close(go[1]);
	close(done[0]);
	return ok;
}

/* perf_event_open() must fail with @err */
static bool expect_error(struct perf_event_attr *attr, int err)
{
	int fd = perf_event_open(attr, 0, -1);

	if (fd >= 0) {
		close(fd);
		return failf("opened, expected %s", strerror(err));
	}
	if (errno != err)
		return failf("%s, expected %s", strerror(errno), strerror(err));
	return true;
}

/* The result of opening an exit event on vfs_read with one attr bit set */
static bool attr_bit(const char *bit, int err)
{
	struct perf_event_attr attr;
	int fd;

	init_attr(&attr, 0, "vfs_read", 1);
	if (!strcmp(bit, "exclude_user"))
		attr.exclude_user = 1;
	else if (!strcmp(bit, "exclude_kernel"))
		attr.exclude_kernel = 1;
	else if (!strcmp(bit, "exclude_hv"))
		attr.exclude_hv = 1;
	else if (!strcmp(bit, "exclude_idle"))
		attr.exclude_idle = 1;
	else if (!strcmp(bit, "exclude_host"))
		attr.exclude_host = 1;
	else if (!strcmp(bit, "exclude_guest"))
		attr.exclude_guest = 1;
	else if (!strcmp(bit, "precise_ip"))
		attr.precise_ip = 1;
	else
		return failf("no attr bit %s", bit);
	if (err)
		return expect_error(&attr, err);
	fd = perf_event_open(&attr, 0, -1);
	if (fd < 0)
		return failf("%s: %s, expected to open", bit, strerror(errno));
	close(fd);
	return true;
}

/*
 * Each attr bit that selects the records of a PMU: the PMU refuses those
 * it does not honour (it would record calls they leave out), and takes
 * those that leave out none of its records (perf sets exclude_guest).
 */
static void test_attr_bits(void)
{
	static const struct {
		const char *bit;
		int err;
	} bits[] = {
		{ "exclude_kernel", EINVAL },
		{ "exclude_idle", EINVAL },
		{ "exclude_host", EINVAL },
		{ "precise_ip", EOPNOTSUPP },
		{ "exclude_user", 0 },
		{ "exclude_hv", 0 },
		{ "exclude_guest", 0 },
	};
	char name[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		snprintf(name, sizeof(name), "attr-%s-%s", bits[i].bit,
			 bits[i].err == EINVAL ? "einval" :
			 bits[i].err ? "eopnotsupp" : "taken");
		report(name, attr_bit(bits[i].bit, bits[i].err));
	}
}

static void test_errors(void)
{
	struct perf_event_attr attr;
	char *big;

	init_attr(&attr, 0, "vfs_read", 0);
	attr.config1 = 1;
	report("error-bad-pointer-efault", expect_error(&attr, EFAULT));
	attr.config1 = 0;
	report("error-null-pointer-efault", expect_error(&attr, EFAULT));

	init_attr(&attr, 0, "vfs_read", 0);
	attr.config2 = 8;
	report("error-bad-notfilter-efault", expect_error(&attr, EFAULT));

	big = malloc(5001);
	memset(big, 'a', 5000);
	big[5000] = '\0';
	init_attr(&attr, 0, big, 0);
	report("error-5000-byte-filter-e2big", expect_error(&attr, E2BIG));
	free(big);

	init_attr(&attr, 1ULL << 5, "vfs_read", 0);
	report("error-unknown-config-bit-einval", expect_error(&attr, EINVAL));
	init_attr(&attr, 1ULL << 40, "vfs_read", 0);
	report("error-config-bit-40-einval", expect_error(&attr, EINVAL));
	init_attr(&attr, 7, "vfs_read", 0);
	report("error-nargs-7-einval", expect_error(&attr, EINVAL));
	init_attr(&attr, FPROBE_PMU_CONFIG_NOEXIT, "vfs_read", 0);
	report("error-noexit-without-entry-einval", expect_error(&attr, EINVAL));
	init_attr(&attr, 0, "", 0);
	report("error-empty-filter-einval", expect_error(&attr, EINVAL));
	init_attr(&attr, 0, "no_such_function_xyz", 0);
	report("error-no-match-enoent", expect_error(&attr, ENOENT));
	init_attr(&attr, 0, "vfs_read", 0);
	attr.config2 = (uintptr_t)"vfs_*";
	report("error-all-excluded-enoent", expect_error(&attr, ENOENT));
	init_attr(&attr, 0, "vfs_read", 100);
	attr.freq = 1;
	report("error-freq-einval", expect_error(&attr, EINVAL));
	test_attr_bits();
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
	close(fd);
	return ret;
}

/* An unprivileged caller gets EACCES or EPERM */
/*
 * An unprivileged open, as user nobody, fails with EACCES (or EPERM) at
 * @paranoid: at 2, perf core refuses kernel events itself; at -1 it allows
 * them, and only the PMU's own check for CAP_PERFMON stands in the way.
 */
static bool unprivileged_refused(const char *paranoid)
{
	const char *path = "/proc/sys/kernel/perf_event_paranoid";
	char old[16] = "";
	int fd, status;
	pid_t pid;

	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, old, sizeof(old) - 1) <= 0 ||
	    write_file(path, paranoid)) {
		if (fd >= 0)
			close(fd);
		return failf("cannot set %s", path);
	}
	close(fd);

	pid = fork();
	if (!pid) {
		struct perf_event_attr attr;

		if (setgid(65534) || setuid(65534))
			_exit(3);
		init_attr(&attr, 0, "vfs_read", 0);
		fd = perf_event_open(&attr, 0, -1);
		if (fd >= 0)
			_exit(2);
		_exit(errno == EACCES || errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	write_file(path, old);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return failf("paranoid %s: child status %d (2: opened, 1: other errno, 3: setuid)",
			     paranoid, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return true;
}

/*
 * Become user nobody with only the capabilities @caps (a mask of the
 * upper 32 capabilities: CAP_PERFMON, CAP_BPF) in the effective and
 * permitted sets: 0, or -1
 */
static int become_nobody_with(uint32_t caps)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setgid(65534) || setuid(65534))
		return -1;
	data[1].effective = caps;
	data[1].permitted = caps;
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

#define CAP_BIT(c)	(1U << ((c) - 32))

/*
 * Open an event with @filter (entry records) as user nobody holding only
 * @caps: 0 if it opened, else the errno; 255 if the child could not
 * become nobody
 */
static int open_as_nobody(const char *filter, uint32_t caps)
{
	int status;
	pid_t pid;

	pid = fork();
	if (!pid) {
		struct perf_event_attr attr;
		int fd;

		if (become_nobody_with(caps))
			_exit(255);
		init_attr(&attr, FPROBE_PMU_CONFIG_ENTRY | 3, filter, 1);
		fd = perf_event_open(&attr, 0, -1);
		_exit(fd >= 0 ? 0 : errno);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

/*
 * CAP_PERFMON alone, as user nobody, opens events whose records carry the
 * arguments' registers, as it opens a kprobe PMU event; a fetch argument
 * that reads kernel or user memory needs CAP_BPF too, else EACCES.
 */
static bool perfmon_only_fetch(void)
{
	static const char * const regs[] = {
		"vfs_read",
		"vfs_read;$arg3:u64 $arg1:x64",
	};
	static const char * const mem[] = {
		"vfs_read;+0($arg1):x64",
		"vfs_read;+0(+16($arg1)):x64",
		"vfs_read;+u0($arg2):u8",
		"vfs_read;$arg3:u64 +0($arg2):ustring",
	};
	uint32_t perfmon = CAP_BIT(CAP_PERFMON), bpf = CAP_BIT(CAP_BPF);
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		ret = open_as_nobody(regs[i], perfmon);
		if (ret)
			return failf("'%s' with CAP_PERFMON: %s", regs[i],
				     ret == 255 ? "no child" : strerror(ret));
	}
	for (i = 0; i < ARRAY_SIZE(mem); i++) {
		ret = open_as_nobody(mem[i], perfmon);
		if (ret != EACCES)
			return failf("'%s' with CAP_PERFMON only: %s, expected EACCES",
				     mem[i], ret == 255 ? "no child" :
				     ret ? strerror(ret) : "opened");
		ret = open_as_nobody(mem[i], perfmon | bpf);
		if (ret)
			return failf("'%s' with CAP_PERFMON and CAP_BPF: %s", mem[i],
				     ret == 255 ? "no child" : strerror(ret));
	}
	/* without CAP_PERFMON, not even the registers */
	ret = open_as_nobody(regs[1], bpf);
	if (ret != EACCES && ret != EPERM)
		return failf("'%s' with CAP_BPF only: %s, expected EACCES", regs[1],
			     ret == 255 ? "no child" : ret ? strerror(ret) : "opened");
	return true;
}

static void test_unprivileged(void)
{
	report("error-unprivileged-eacces", unprivileged_refused("2"));
	report("error-unprivileged-paranoid-1-eacces", unprivileged_refused("-1"));
	report("perfmon-only-no-memory-fetch", perfmon_only_fetch());
}

/*
 * caps/max_funcs is the most functions a filter may name: past it, "*" is
 * E2BIG (the cap itself is KUnit-tested on fprobe_ips_from_filter())
 */
static void test_max_funcs(void)
{
	int max = read_pmu_int("caps/max_funcs"), nr = nr_traceable();
	struct perf_event_attr attr;

	if (max <= 0) {
		report("caps-max-funcs", failf("caps/max_funcs: %d", max));
		return;
	}
	report("caps-max-funcs", true);
	if (nr <= max) {
		printf("SKIP error-over-max-funcs-e2big: %d functions, cap %d\n",
		       nr, max);
		return;
	}
	init_attr(&attr, 0, "*", 0);
	report("error-over-max-funcs-e2big", expect_error(&attr, E2BIG));
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Open an event on @filter in a child; return the child, or -1 */
/*
 * Open an event on @filter in a child; if @ready is not -1, the child
 * writes a byte there just before perf_event_open().
 */
static pid_t open_in_child(const char *filter, int ready)
{
	struct perf_event_attr attr;
	pid_t pid = fork();

	if (!pid) {
		init_attr(&attr, 0, filter, 0);
		if (ready >= 0 && write(ready, "", 1) != 1)
			_exit(1);
		perf_event_open(&attr, 0, -1);
		_exit(0);
	}
	return pid;
}

/* Time the open of an event on @filter in a child, or -1 */
static double time_open(const char *filter)
{
	double t0 = now_sec();
	int status;
	pid_t pid;

	pid = open_in_child(filter, -1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return now_sec() - t0;
}

/*
 * A filter of globs that match nothing: each one walks every traceable
 * function. Its length is chosen from the time of one glob, for a whole
 * open of about 2 s. SIGKILL a quarter into the open (timed from when the
 * child is about to call it) ends it between two globs: the killed open
 * ends in less than half of the time of a whole one, measured just before.
 */
static bool test_interrupted(void)
{
	static char filter[FPROBE_PMU_FILTER_MAX];
	int i, n, len = 0, status, ready[2];
	double one, whole, killed, t0;
	char byte;
	pid_t pid;

	one = time_open("no_fn_*");
	if (one < 0)
		return failf("fork or wait: %s", strerror(errno));
	n = one > 0 ? 2.0 / one : 400;
	n = n < 8 ? 8 : n > 400 ? 400 : n;
	for (i = 0; i < n && len + 16 < (int)sizeof(filter); i++)
		len += sprintf(filter + len, "%sno_fn%d_*", i ? "," : "", i);

	whole = time_open(filter);
	if (whole < 0)
		return failf("fork or wait: %s", strerror(errno));

	/* The kill must come while the child is in the open, not before. */
	if (pipe(ready))
		return failf("pipe: %s", strerror(errno));
	pid = open_in_child(filter, ready[1]);
	if (pid < 0)
		return failf("fork: %s", strerror(errno));
	close(ready[1]);
	if (read(ready[0], &byte, 1) != 1) {
		close(ready[0]);
		return failf("the child did not get to the open");
	}
	close(ready[0]);
	usleep(whole * 1e6 / 4);
	t0 = now_sec();
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		return failf("wait: %s", strerror(errno));
	killed = now_sec() - t0;
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		return failf("the open of %d globs ended before the kill (%s %.3f s)",
			     i, "a whole one takes", whole);
	if (killed > whole / 2)
		return failf("killed after %.3f s, a whole open of %d globs takes %.3f s",
			     killed, i, whole);
	return true;
}

/*
 * Under lockdown (confidentiality, which covers kprobes) no event can be
 * opened: EPERM. Lockdown cannot be lifted: run last, in a boot of its own.
 */
static int test_lockdown(void)
{
	const char *path = "/sys/kernel/security/lockdown";
	struct perf_event_attr attr;

	if (access(path, W_OK)) {
		mkdir("/sys/kernel/security", 0755);
		mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL);
	}
	if (write_file(path, "confidentiality")) {
		printf("SKIP error-lockdown-eperm: cannot write %s\n", path);
		return 0;
	}
	init_attr(&attr, 0, "vfs_read", 0);
	report("error-lockdown-eperm", expect_error(&attr, EPERM));
	return failures ? 1 : 0;
}

/* The sysfs files of the PMU say what the ABI says */
static bool test_sysfs(void)
{
	static const char * const files[][2] = {
		{ "nargs", "config:0-2" },
		{ "entry", "config:3" },
		{ "noexit", "config:4" },
		{ "errors", "config:5" },
		{ "exclude_opener", "config:6" },
		{ "min_duration", "config3:0-63" },
	};
	char path[128], buf[64];
	unsigned int i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/fprobe/format/%s",
			 files[i][0]);
		f = fopen(path, "r");
		if (!f || !fgets(buf, sizeof(buf), f))
			return failf("cannot read %s", path);
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		if (strcmp(buf, files[i][1]))
			return failf("%s: '%s'", path, buf);
	}
	return true;
}

int main(int argc, char **argv)
{
	uint64_t vfs_read;

	pmu_type = read_pmu_int("type");
	if (pmu_type < 0) {
		printf("SKIP fprobe-pmu: no /sys/bus/event_source/devices/fprobe\n");
		return KSFT_SKIP;
	}
	if (argc > 1 && !strcmp(argv[1], "--lockdown"))
		return test_lockdown();
	vfs_read = load_kallsyms() ? 0 : func_addr_of("vfs_read");
	if (!vfs_read) {
		printf("FAIL kallsyms: no vfs_read in /proc/kallsyms or tracefs\n");
		return 1;
	}

	report("sysfs-format", test_sysfs());
	report("exit-records-vfs_read", test_exit_records(vfs_read));
	report("period-3", test_period(vfs_read));
	sample_type = SIMPLE_SAMPLE_TYPE;
	report("exit-records-no-callchain", test_exit_records(vfs_read));
	report("period-3-no-callchain", test_period(vfs_read));
	report("small-ring-no-callchain", test_small_ring(vfs_read));
	report("own-writes-untraced-no-callchain", test_own_writes(vfs_read));
	report("throttle-no-callchain", test_throttle());
	report("all-functions-with-opener-no-callchain",
	       test_all_functions());
	sample_type = SAMPLE_TYPE;
	report("small-ring-callchain", test_small_ring(vfs_read));
	report("glob-vfs_*", test_glob(vfs_read));
	report("glob-vs-function-tracer",
	       test_glob_vs_function_tracer(vfs_read));
	report("entry-records", test_entry_records(vfs_read));
	report("noexit", test_noexit());
	report("counting", test_counting());
	report("inherit", test_inherit());
	report("scope-inherit-fork", test_scope_inherit_fork(vfs_read));
	report("cpu-event", test_cpu_event());
	report("module", test_module());
	report("exclude-opener", test_exclude_opener());
	report("scopes-with-function-graph", test_scopes_function_graph());
	report("fetch-same-as-fprobe-event", test_same_as_fprobe_event());
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		printf("SKIP migration: one CPU\n");
	else
		report("migration", test_migration());
	test_errors();
	test_unprivileged();
	test_max_funcs();
	report("error-interrupted", test_interrupted());

	return failures ? 1 : 0;
}
