/* SPDX-License-Identifier: MIT */
/* -P with descriptors that are not plain arguments: select's and
 * pselect6's sets (small and past FD_SETSIZE's first word), poll's and
 * ppoll's arrays, fsconfig's path value and aux descriptor by command;
 * a relative path given to -P (list.sh) matched by a descriptor, whose
 * path is absolute. */
#define _GNU_SOURCE
#include "corpus.h"
#include <fcntl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct pollfd pfd[3];
	struct timeval tv = { 0, 0 };
	struct timespec ts = { 0, 0 };
	struct stat st;
	fd_set rd;
	int p[2], null, rel;

	/* (opened before the scratch directory: -P's relative path is
	 * the repository's, as the tracer's start saw it) */
	rel = open("tests/strace/corpus.h", O_RDONLY);
	check(rel >= 0, "open corpus.h");
	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	check(pipe(p) == 0, "pipe");
	null = open("/dev/null", O_WRONLY);
	check(null >= 0, "open /dev/null");
	begin();
	fstat(rel, &st);
	fstat(p[0], &st);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	select(p[0] + 1, &rd, NULL, NULL, &tv);
	FD_SET(null, &rd);
	select(null + 1, &rd, NULL, NULL, &tv);
	FD_ZERO(&rd);
	FD_SET(rel, &rd);
	pselect(rel + 1, NULL, &rd, NULL, &ts, NULL);
	pfd[0] = (struct pollfd){ p[0], POLLIN, 0 };
	pfd[1] = (struct pollfd){ null, POLLOUT, 0 };
	pfd[2] = (struct pollfd){ rel, POLLIN, 0 };
	poll(pfd, 1, 0);
	poll(pfd, 2, 0);
	ppoll(pfd + 2, 1, &ts, NULL);
	syscall(SYS_fsconfig, -1, FSCONFIG_SET_PATH, "source", "/dev/null",
		AT_FDCWD);
	syscall(SYS_fsconfig, -1, FSCONFIG_SET_FD, "fd", NULL, null);
	syscall(SYS_fsconfig, null, FSCONFIG_SET_FLAG, "/dev/null", NULL, 0);
	syscall(SYS_fsconfig, -1, FSCONFIG_SET_STRING, "k", "/dev/null", 0);
	return 0;
}
