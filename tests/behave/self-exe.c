/* SPDX-License-Identifier: MIT */
/*
 * /proc/self/exe names this program, also when sysgate-loader started it
 * (ld.so's $ORIGIN and programs that find their files beside themselves
 * read it): whole, truncated, through readlinkat and /proc/PID/exe.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../lib/util.h"

int main(void)
{
	char buf[4096], pid_exe[64], line[4200];
	ssize_t n;

	n = readlink("/proc/self/exe", buf, sizeof(buf));
	test_assert(n > 0);
	snprintf(line, sizeof(line), "exe %.*s", (int)n, buf);
	atomic_puts(line);
	n = readlink("/proc/self/exe", buf, 4);
	snprintf(line, sizeof(line), "truncated %zd %.*s", n, (int)n, buf);
	atomic_puts(line);
	n = readlinkat(AT_FDCWD, "/proc/thread-self/exe", buf, sizeof(buf));
	test_assert(n > 0);
	snprintf(line, sizeof(line), "readlinkat %.*s", (int)n, buf);
	atomic_puts(line);
	snprintf(pid_exe, sizeof(pid_exe), "/proc/%d/exe", (int)getpid());
	n = readlink(pid_exe, buf, sizeof(buf));
	test_assert(n > 0);
	snprintf(line, sizeof(line), "by pid %.*s", (int)n, buf);
	atomic_puts(line);
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
