/* SPDX-License-Identifier: MIT */
/*
 * A daemon-style program closes every descriptor above 2 (one by one and
 * with close_range) and dup2()s onto high numbers; sysgate's own output
 * must survive and the program must see the results the kernel gives.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "../lib/util.h"

int main(void)
{
	struct rlimit rl;
	int fd, i;

	test_assert(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	for (i = 3; i < (int)rl.rlim_cur && i < 4096; i++)
		close(i);
	fd = open("/dev/null", O_RDONLY);
	test_assert(fd == 3);
	/* dup2 onto every high number, then close them */
	for (i = 900; i < (int)rl.rlim_cur && i < 1024; i++)
		test_assert(dup2(fd, i) == i);
	test_assert(syscall(SYS_close_range, 3, ~0U, 0) == 0);
	test_assert(close(3) == -1 && errno == EBADF);
	test_assert(fcntl(1000, F_GETFD) == -1 && errno == EBADF);
	atomic_puts("descriptors closed as the kernel would");
	test_assert(getppid() > 0);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
