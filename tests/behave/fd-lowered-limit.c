/* SPDX-License-Identifier: MIT */
/*
 * A program lowers its RLIMIT_NOFILE below descriptors it holds, and a
 * child that closed every descriptor but 0-2 runs this program again,
 * which probes the numbers its parent used (CPython's
 * test_close_fds_when_max_fd_is_lowered): none is open.  sysgate's own
 * descriptors, passed across a followed execve, must not come down among
 * them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

int main(int argc, char **argv)
{
	struct rlimit rl;
	struct stat st;
	char line[64];
	int i, status;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "probe")) {
		for (i = 3; i < 256; i++) {
			if (fstat(i, &st) == 0) {
				snprintf(line, sizeof(line), "open: %d", i);
				atomic_puts(line);
			}
		}
		atomic_puts("probed");
		return 0;
	}
	for (i = 0; i < 40; i++)
		test_assert(open("/dev/null", O_RDONLY) >= 0);
	test_assert(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	rl.rlim_cur = 29;
	test_assert(setrlimit(RLIMIT_NOFILE, &rl) == 0);
	pid = fork();
	test_assert(pid >= 0);
	if (pid == 0) {
		char *args[] = { argv[0], "probe", 0 };

		for (i = 3; i < 256; i++)
			close(i);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	test_assert(waitpid(pid, &status, 0) == pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
