// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute fuzzer for the fprobe perf PMU: opens events with random and
 * edge-case perf_event_attr (bad and kernel pointers, unterminated, huge,
 * empty and garbage filters, random config bits, random sample_type,
 * read_format and flags), and uses the events that open (mmap, enable,
 * a few reads of /dev/zero, read(), close). The kernel must answer every
 * attribute with an fd or an error, and never warn: run it with the
 * kernel log checked.
 *
 * Then the sharing of probes: a process on each CPU opens, in each of
 * SHARE_ROUNDS rounds, SHARE_EVENTS random valid events on a few filters
 * and configs (so that the events of both processes share probes, and
 * probes are made by both at once), task or CPU-wide, counting or
 * sampling, reads /dev/zero, checks every count against its reads, and
 * closes the events in random order.
 *
 * Usage: fprobe_pmu_fuzz [ITERATIONS [SEED]]   (default 10000, time)
 * Prints a summary of the errors seen; exits 0 if every attempt returned
 * and every shared count was right, 1 on an unexpected errno or a wrong
 * count, 4 (KSFT_SKIP) without the PMU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fprobe_pmu.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KSFT_SKIP	4
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

/* Filters that match a few functions: opening them succeeds */
static const char * const good_filters[] = {
	"vfs_read", "vfs_write", "vfs_read,vfs_write", "ksys_read ksys_write",
	"vfs_rea?", "vfs_read,,  ,vfs_write", "do_sys_openat2", "vfs_read !vfs_read",
	/* fetch arguments (with entry records): kernel and user memory */
	"vfs_read;$arg3:u64 +0($arg1):x64", "do_sys_openat2;+0($arg2):ustring",
	"vfs_read;+u0($arg2):u8 +0(+u8($arg1)):string",
};

/* Well-formed but bad filters */
static const char * const bad_filters[] = {
	"", " ", ",", " , \t\n", "no_such_function_xyz", "123", "vfs_read,42",
	"!", "!!", "vfs_read no_such_function_xyz", ":mod:", "\xff\xfe",
};

static char *page_end;		/* 8 bytes before an unmapped page */
static char *huge;		/* FPROBE_PMU_FILTER_MAX non-NUL bytes, then NUL */
static char *exact;		/* FPROBE_PMU_FILTER_MAX - 1 bytes, then NUL */
static char garbage[256];

static int setup_buffers(void)
{
	long psize = sysconf(_SC_PAGESIZE);
	char *p;

	p = mmap(NULL, 2 * psize, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + psize, psize))
		return -1;
	memset(p, 'v', psize);
	page_end = p + psize - 8;

	huge = malloc(FPROBE_PMU_FILTER_MAX + 64);
	exact = malloc(FPROBE_PMU_FILTER_MAX);
	if (!huge || !exact)
		return -1;
	memset(huge, 'x', FPROBE_PMU_FILTER_MAX + 63);
	huge[FPROBE_PMU_FILTER_MAX + 63] = '\0';
	memset(exact, 'y', FPROBE_PMU_FILTER_MAX - 1);
	memcpy(exact, "vfs_read ", 9);
	exact[FPROBE_PMU_FILTER_MAX - 1] = '\0';
	return 0;
}

/* Random bytes without glob metacharacters (which could match everything) */
static char *random_string(void)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyz_0123456789 ,!.:-\t\n";
	unsigned int len = pick(sizeof(garbage) - 1), i;

	for (i = 0; i < len; i++)
		garbage[i] = chars[pick(sizeof(chars) - 1)];
	garbage[len] = '\0';
	return garbage;
}

static uint64_t random_pointer(bool allow_good)
{
	switch (pick(12)) {
	case 0:
		return 0;
	case 1:
		return 1 + pick(4096);
	case 2:
		return 0xffffffff81000000ULL + pick(1 << 20);	/* kernel text */
	case 3:
		return 0xffff888000000000ULL;			/* direct map */
	case 4:
		return rnd();
	case 5:
		return (uintptr_t)page_end;
	case 6:
		return (uintptr_t)huge + pick(64);
	case 7:
		return (uintptr_t)exact;
	case 8:
		return (uintptr_t)random_string();
	case 9:
		return (uintptr_t)bad_filters[pick(sizeof(bad_filters) /
						   sizeof(bad_filters[0]))];
	case 10:
		return (uintptr_t)-1ULL - pick(4096);
	default:
		if (!allow_good)
			return 0;
		return (uintptr_t)good_filters[pick(sizeof(good_filters) /
						    sizeof(good_filters[0]))];
	}
}

static uint64_t random_config(void)
{
	switch (pick(6)) {
	case 0:
		return rnd();
	case 1:
		return 1ULL << pick(64);
	case 2:
		return pick(32);
	default:
		/*
		 * valid: nargs 0..6, entry, noexit only with entry, errors
		 * (valid on sampling events with exit records),
		 * exclude_opener
		 */
		return pick(7) | (pick(2) ? FPROBE_PMU_CONFIG_ENTRY |
				  (pick(2) ? FPROBE_PMU_CONFIG_NOEXIT : 0) : 0) |
		       (pick(4) ? 0 : FPROBE_PMU_CONFIG_ERRORS) |
		       (pick(4) ? 0 : FPROBE_PMU_CONFIG_EXCLUDE_OPENER);
	}
}

static uint64_t random_bits(uint64_t valid)
{
	switch (pick(4)) {
	case 0:
		return rnd();
	case 1:
		return 0;
	default:
		return rnd() & valid;
	}
}

static void random_attr(struct perf_event_attr *attr, int pmu_type)
{
	uint64_t flags;

	memset(attr, 0, sizeof(*attr));
	/* Rarely another type: a random one names no PMU (ENOENT). */
	attr->type = pick(20) ? pmu_type : (uint32_t)rnd() | 0x10000;
	switch (pick(16)) {
	case 0:
		attr->size = 0;
		break;
	case 1:
		attr->size = PERF_ATTR_SIZE_VER0;
		break;
	case 2:
		attr->size = pick(sizeof(*attr) + 8);
		break;
	default:
		attr->size = sizeof(*attr);
	}
	attr->config = random_config();
	/* Mostly good filters, so that the events get used too. */
	attr->config1 = pick(3) ? random_pointer(true) :
		(uintptr_t)good_filters[pick(sizeof(good_filters) /
					     sizeof(good_filters[0]))];
	attr->config2 = pick(4) ? 0 : random_pointer(false);
	/* The minimum duration: none, some, or anything */
	attr->config3 = pick(3) ? 0 : pick(2) ? pick(100000) : rnd();

	switch (pick(5)) {
	case 0:
		attr->sample_period = 0;
		break;
	case 1:
		attr->sample_period = 1;
		break;
	case 2:
		attr->sample_period = 1 + pick(5);
		break;
	case 3:
		attr->sample_period = rnd();
		break;
	default:
		attr->sample_period = pick(2);
	}
	attr->sample_type = random_bits(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
					PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
					PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
					PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID |
					PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT |
					PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_IDENTIFIER |
					PERF_SAMPLE_TRANSACTION |
					PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
					PERF_SAMPLE_DATA_PAGE_SIZE |
					PERF_SAMPLE_CODE_PAGE_SIZE |
					PERF_SAMPLE_WEIGHT_STRUCT |
					(pick(8) ? 0 : PERF_SAMPLE_REGS_INTR |
					 PERF_SAMPLE_REGS_USER |
					 PERF_SAMPLE_STACK_USER |
					 PERF_SAMPLE_BRANCH_STACK));
	attr->read_format = random_bits(PERF_FORMAT_TOTAL_TIME_ENABLED |
					PERF_FORMAT_TOTAL_TIME_RUNNING |
					PERF_FORMAT_ID | PERF_FORMAT_GROUP |
					PERF_FORMAT_LOST);
	/* The bit fields after read_format: disabled, inherit, ... */
	flags = random_bits(~0ULL);
	if (pick(2))
		flags &= 0x3ULL | (1ULL << 4) | (1ULL << 6);	/* benign */
	memcpy((char *)&attr->read_format + sizeof(attr->read_format), &flags,
	       sizeof(flags));
	/* Keep the events that open usable: no exec, no group leader. */
	attr->enable_on_exec = 0;
	attr->wakeup_events = pick(4);
	attr->bp_type = 0;
	attr->branch_sample_type = pick(8) ? 0 : rnd();
	attr->sample_regs_user = pick(8) ? 0 : rnd();
	attr->sample_stack_user = pick(8) ? 0 : rnd();
	attr->sample_regs_intr = pick(8) ? 0 : rnd();
	attr->clockid = pick(8) ? 0 : pick(16);
	attr->sample_max_stack = pick(4) ? 0 : pick(200);
	attr->aux_watermark = pick(8) ? 0 : rnd();
}

static void use_event(int fd, int zfd)
{
	long psize = sysconf(_SC_PAGESIZE);
	char buf[4096];
	void *ring;
	int i;

	ring = mmap(NULL, 9 * psize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 4; i++)
		if (read(zfd, buf, 64) < 0)
			break;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, buf, sizeof(buf)) < 0 && errno != ENOSPC)
		perror("read of an event");
	if (ring != MAP_FAILED)
		munmap(ring, 9 * psize);
}

static void on_sigtrap(int sig)
{
}

#define SHARE_ROUNDS	40
#define SHARE_EVENTS	8

/* vfs_read first: a task event on it counts exactly the reads */
static const char * const share_filters[] = {
	"vfs_read", "vfs_read,vfs_write", "vfs_*",
};

/*
 * The last two differ from the first ones in a filter only: they share.
 * (Not exclude_opener: the counts checked are of the opener's own reads.)
 */
static const uint64_t share_configs[] = {
	0, 1, FPROBE_PMU_CONFIG_ENTRY | 2, FPROBE_PMU_CONFIG_ERRORS,
	1 | FPROBE_PMU_CONFIG_ERRORS,
};

struct share_event {
	int		fd;
	int		filter;
	bool		task;
	uint64_t	config;
	uint64_t	period;
	void		*ring;
};

/* One round of the sharing phase on @cpu: return the number of failures */
static int share_round(int pmu_type, int cpu, int zfd)
{
	long psize = sysconf(_SC_PAGESIZE);
	struct share_event ev[SHARE_EVENTS];
	int i, j, reads, failures = 0;
	uint64_t v[2];
	char buf[64];

	for (i = 0; i < SHARE_EVENTS; i++) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = pmu_type;
		attr.config = share_configs[pick(ARRAY_SIZE(share_configs))];
		ev[i].filter = pick(ARRAY_SIZE(share_filters));
		attr.config1 = (uintptr_t)share_filters[ev[i].filter];
		/* The errors filter is for sampling events only */
		if (pick(2) || (attr.config & FPROBE_PMU_CONFIG_ERRORS)) {
			attr.sample_period = 1;
			attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					   PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
			if (pick(2))
				attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
		}
		attr.read_format = PERF_FORMAT_LOST;
		attr.disabled = 1;
		ev[i].config = attr.config;
		ev[i].period = attr.sample_period;
		ev[i].task = pick(2);
		ev[i].ring = MAP_FAILED;
		ev[i].fd = syscall(__NR_perf_event_open, &attr,
				   ev[i].task ? 0 : -1, ev[i].task ? -1 : cpu,
				   -1, PERF_FLAG_FD_CLOEXEC);
		if (ev[i].fd < 0) {
			printf("share: cpu %d: open of %s, config %#llx: %s\n",
			       cpu, share_filters[ev[i].filter],
			       (unsigned long long)attr.config, strerror(errno));
			failures++;
			continue;
		}
		if (attr.sample_period)
			ev[i].ring = mmap(NULL, 9 * psize, PROT_READ | PROT_WRITE,
					  MAP_SHARED, ev[i].fd, 0);
	}

	for (i = 0; i < SHARE_EVENTS; i++)
		if (ev[i].fd >= 0)
			ioctl(ev[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	reads = 20 + pick(40);
	for (j = 0; j < reads; j++)
		if (read(zfd, buf, 1) != 1)
			failures++;
	for (i = 0; i < SHARE_EVENTS; i++)
		if (ev[i].fd >= 0)
			ioctl(ev[i].fd, PERF_EVENT_IOC_DISABLE, 0);

	for (i = 0; i < SHARE_EVENTS; i++) {
		if (ev[i].fd < 0)
			continue;
		if (read(ev[i].fd, v, sizeof(v)) != sizeof(v)) {
			printf("share: cpu %d: read of an event: %s\n", cpu,
			       strerror(errno));
			failures++;
			continue;
		}
		/*
		 * This process runs on @cpu only: an event of it on vfs_read
		 * counts its reads, other events at least those, less the
		 * calls they lost (with many probes on one function, the
		 * shadow stack has no room for the entry data of them all:
		 * fprobe misses the others, and they count it as lost). With
		 * the errors filter, it counts none of them (they all read a
		 * byte), and the others any number.
		 */
		if (ev[i].config & FPROBE_PMU_CONFIG_ERRORS ?
		    ev[i].task && !ev[i].filter && v[0] :
		    ev[i].task && !ev[i].filter ?
		    v[0] + v[1] != (uint64_t)reads :
		    v[0] + v[1] < (uint64_t)reads) {
			printf("share: cpu %d: %s %s event, config %#" PRIx64
			       ", period %" PRIu64 ": count %" PRIu64 ", lost %"
			       PRIu64 " for %d reads\n", cpu,
			       ev[i].task ? "task" : "cpu",
			       share_filters[ev[i].filter], ev[i].config,
			       ev[i].period, v[0], v[1], reads);
			failures++;
		}
	}

	/* Closed in random order */
	for (i = SHARE_EVENTS - 1; i >= 0; i--) {
		struct share_event t;

		j = pick(i + 1);
		t = ev[j];
		ev[j] = ev[i];
		ev[i] = t;
		if (ev[i].ring != MAP_FAILED)
			munmap(ev[i].ring, 9 * psize);
		if (ev[i].fd >= 0)
			close(ev[i].fd);
	}
	return failures;
}

/* The sharing phase: a process per CPU (2); return the failures */
static int share_phase(int pmu_type, int zfd)
{
	int cpu, failures = 0, status, ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pids[2];

	if (ncpus > 2)
		ncpus = 2;
	for (cpu = 0; cpu < ncpus; cpu++) {
		pids[cpu] = fork();
		if (pids[cpu] == 0) {
			cpu_set_t set;
			int r, f = 0;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set))
				_exit(100);
			rng_state = rng_state * (cpu + 3) | 1;
			for (r = 0; r < SHARE_ROUNDS; r++)
				f += share_round(pmu_type, cpu, zfd);
			fflush(stdout);
			_exit(f > 99 ? 99 : f);
		}
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (pids[cpu] < 0 || waitpid(pids[cpu], &status, 0) < 0 ||
		    !WIFEXITED(status)) {
			failures++;
			continue;
		}
		failures += WEXITSTATUS(status);
	}
	printf("sharing: %d processes, %d rounds of %d events, %d failures\n",
	       ncpus, SHARE_ROUNDS, SHARE_EVENTS, failures);
	return failures;
}

int main(int argc, char **argv)
{
	static const int known[] = {
		EINVAL, EFAULT, E2BIG, ENOENT, EACCES, EPERM, EOPNOTSUPP,
		ENODEV, EBUSY, ENOSPC, EOVERFLOW, ESRCH, EBADF,
	};
	unsigned long iterations = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000;
	unsigned long counts[ARRAY_SIZE(known)] = {}, opened = 0;
	unsigned long i, unknown = 0;
	struct sigaction sa = { .sa_handler = on_sigtrap };
	struct perf_event_attr attr;
	int pmu_type, zfd, fd, cpu;
	unsigned int k;
	FILE *f;

	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : (uint64_t)time(NULL);
	rng_state |= 1;
	printf("seed %#" PRIx64 ", %lu iterations\n", rng_state, iterations);

	f = fopen("/sys/bus/event_source/devices/fprobe/type", "r");
	if (!f || fscanf(f, "%d", &pmu_type) != 1) {
		printf("SKIP fprobe-pmu-fuzz: no fprobe PMU\n");
		return KSFT_SKIP;
	}
	fclose(f);
	if (setup_buffers())
		return 1;
	/* A sigtrap event that opens must not kill the fuzzer. */
	sigaction(SIGTRAP, &sa, NULL);
	zfd = open("/dev/zero", O_RDONLY);

	for (i = 0; i < iterations; i++) {
		random_attr(&attr, pmu_type);
		cpu = pick(10) ? -1 : (int)pick(3) - 1;
		fd = syscall(__NR_perf_event_open, &attr, cpu == -1 ? 0 : -1,
			     cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			opened++;
			use_event(fd, zfd);
			close(fd);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(known); k++) {
			if (errno == known[k]) {
				counts[k]++;
				break;
			}
		}
		if (k == ARRAY_SIZE(known)) {
			unknown++;
			printf("unexpected errno %d (%s) for config %#llx config1 %#llx\n",
			       errno, strerror(errno),
			       (unsigned long long)attr.config,
			       (unsigned long long)attr.config1);
		}
	}

	printf("attempts %lu opened %lu", iterations, opened);
	for (k = 0; k < ARRAY_SIZE(known); k++)
		if (counts[k])
			printf(" %s %lu", strerrorname_np(known[k]), counts[k]);
	printf(" unexpected %lu\n", unknown);
	fflush(stdout);
	if (share_phase(pmu_type, zfd))
		return 1;
	return unknown ? 1 : 0;
}
