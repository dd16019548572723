/* SPDX-License-Identifier: MIT */
/*
 * A program looks for its open descriptors the two usual ways: it lists
 * /proc/self/fd and /dev/fd, and it probes every number up to its limit
 * with fstat and fcntl (CPython's fd_status, test_pass_fds_redirected).
 * It finds only its own: sysgate's descriptors are not listed and a call
 * naming one fails with EBADF as on a closed number.
 *
 * The first run leaves sysgate no room above its limit, as where the
 * hard limit equals the soft one and cannot be raised (no
 * CAP_SYS_RESOURCE): it drops that capability, raises its soft limit to
 * the hard one (at most 65536), and runs itself again.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../lib/util.h"

#define CAP_SYS_RESOURCE_ 24

/* (no libcap: struct __user_cap_header_struct / _data_struct, v3) */
static void drop_sys_resource(void)
{
	struct { unsigned int version; int pid; } h = { 0x20080522, 0 };
	struct { unsigned int effective, permitted, inheritable; } d[2];

	prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE_, 0, 0, 0);
	if (syscall(SYS_capget, &h, d) != 0)
		return;
	d[0].effective &= ~(1U << CAP_SYS_RESOURCE_);
	d[0].permitted &= ~(1U << CAP_SYS_RESOURCE_);
	d[0].inheritable &= ~(1U << CAP_SYS_RESOURCE_);
	test_assert(syscall(SYS_capset, &h, d) == 0);
}

/* The numbers a directory lists, except the listing's own. */
static void list(const char *path)
{
	char line[512];
	size_t n;
	DIR *d = opendir(path);
	struct dirent *e;

	test_assert(d);
	n = (size_t)snprintf(line, sizeof(line), "%s:", path);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d) &&
		    n < sizeof(line) - 16)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s",
					      e->d_name);
	closedir(d);
	atomic_puts(line);
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	struct stat st;
	int fds[2], i, n, bad;

	test_assert(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	if (argc < 2) {
		drop_sys_resource();
		if (rl.rlim_max > 65536)
			rl.rlim_max = 65536;
		rl.rlim_cur = rl.rlim_max;
		test_assert(setrlimit(RLIMIT_NOFILE, &rl) == 0);
		execl("/proc/self/exe", argv[0], "again", (char *)0);
		test_assert(!"exec of /proc/self/exe");
	}
	/* (whatever the test runner left open) */
	test_assert(syscall(SYS_close_range, 3, ~0U, 0) == 0);
	test_assert(pipe(fds) == 0 && fds[0] == 3 && fds[1] == 4);
	list("/proc/self/fd");
	list("/dev/fd");
	for (n = bad = 0, i = 0; i < (int)rl.rlim_cur; i++) {
		if (fstat(i, &st) == 0) {
			atomic_printf("fstat finds %d\n", i);
			n++;
		} else {
			bad += errno != EBADF;
		}
		if (fcntl(i, F_GETFD) >= 0 && i > 4)
			atomic_printf("fcntl finds %d\n", i);
	}
	atomic_printf("%d open below the limit, %d other errors\n", n, bad);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
