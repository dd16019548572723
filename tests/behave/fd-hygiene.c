/* SPDX-License-Identifier: MIT */
/*
 * sysgate's own descriptors never take a number the program can use: a
 * program that opens descriptors up to its RLIMIT_NOFILE gets as many as
 * natively, dup2() onto every number of its range works, and after
 * close_range(3, ~0) none of those numbers reaches a file (before, the
 * trace output sat at 64 below the limit: one descriptor fewer, and a
 * write to that number went into the trace).
 *
 * The first run lowers the soft limit (so the hard one leaves room above
 * it, as on most systems) and runs itself again with it; the second
 * raises it again later, as servers do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../lib/util.h"

int main(int argc, char **argv)
{
	struct rlimit rl;
	int fd, i, n;

	test_assert(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	if (argc < 2) {
		rl.rlim_cur = (rl.rlim_max < 1024 ? rl.rlim_max : 1024) / 4;
		test_assert(setrlimit(RLIMIT_NOFILE, &rl) == 0);
		execl("/proc/self/exe", argv[0], "again", (char *)0);
		test_assert(!"exec of /proc/self/exe");
	}
	/* (whatever the test runner left open) */
	for (i = 3; i < (int)rl.rlim_cur; i++)
		close(i);
	for (n = 0; open("/dev/null", O_RDONLY | O_CLOEXEC) >= 0; n++)
		;
	test_assert(errno == EMFILE);
	atomic_printf("opened %d descriptors up to the limit of %d\n", n,
		      (int)rl.rlim_cur);
	test_assert(syscall(SYS_close_range, 3, ~0U, 0) == 0);
	fd = open("/dev/null", O_WRONLY);
	test_assert(fd == 3);
	for (i = 4; i < (int)rl.rlim_cur; i++)
		test_assert(dup2(fd, i) == i);
	atomic_puts("dup2 onto every number of the range");
	test_assert(syscall(SYS_close_range, 3, ~0U, 0) == 0);
	for (n = 0, i = 3; i < (int)rl.rlim_cur; i++)
		n += write(i, "x", 1) == 1;
	atomic_printf("after close_range: %d numbers still write\n", n);
	/* The program raises its limit: as many descriptors again. */
	rl.rlim_cur *= 2;
	test_assert(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	for (n = 0; open("/dev/null", O_RDONLY | O_CLOEXEC) >= 0; n++)
		;
	test_assert(errno == EMFILE);
	atomic_printf("opened %d descriptors up to the limit of %d\n", n,
		      (int)rl.rlim_cur);
	test_assert(getppid() > 0);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
