/* SPDX-License-Identifier: MIT */
/*
 * SECCOMP_MODE_STRICT: a child that enters it may read, write, exit and
 * return from a signal, and dies of SIGKILL at any other call.  sysgate's
 * own calls must not kill it, and its forbidden call must (prctl's way
 * and seccomp()'s way in).
 */
#define _GNU_SOURCE
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../lib/util.h"

static void child(int how, int forbidden)
{
	char b[1];

	if (how)
		test_assert(prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT) == 0);
	else
		test_assert(syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, 0) == 0);
	syscall(SYS_write, 1, "in strict mode\n", 15);
	syscall(SYS_read, 0, b, 0);
	if (forbidden)
		syscall(SYS_getpid);
	syscall(SYS_exit, 7);
}

int main(void)
{
	char line[64];
	int how, forbidden;

	for (how = 0; how < 2; how++)
		for (forbidden = 0; forbidden < 2; forbidden++) {
			int st = 0;
			pid_t pid = fork();

			if (pid == 0)
				child(how, forbidden);
			test_assert(pid > 0 && waitpid(pid, &st, 0) == pid);
			snprintf(line, sizeof(line), "%s: %s %d",
				 forbidden ? "forbidden call" : "allowed calls",
				 WIFSIGNALED(st) ? "signal" : "exit",
				 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			atomic_puts(line);
		}
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
