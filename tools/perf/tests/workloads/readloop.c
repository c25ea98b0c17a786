/* SPDX-License-Identifier: GPL-2.0 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/compiler.h>
#include "../tests.h"

/*
 * Reads /dev/zero one byte at a time, from readloop_outer() through
 * readloop_inner(): the tests look for these symbols in the user-space
 * callchains of the kernel's read calls (perf fprobe --call-graph).
 */
noinline int readloop_inner(int fd);
noinline int readloop_outer(int fd);

noinline int readloop_inner(int fd)
{
	char c;

	return read(fd, &c, 1);
}

noinline int readloop_outer(int fd)
{
	int ret = readloop_inner(fd);

	/* not a tail call: readloop_outer() keeps its frame */
	return ret == 1 ? 0 : -1;
}

static int readloop(int argc, const char **argv)
{
	int i, fd, n = 100, ret = 0;

	if (argc > 0)
		n = atoi(argv[0]);

	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		return 1;
	for (i = 0; i < n && !ret; i++)
		ret = readloop_outer(fd);
	close(fd);
	return ret ? 1 : 0;
}

DEFINE_WORKLOAD(readloop);
