/* SPDX-License-Identifier: MIT */
/*
 * A child on its parent's memory with a stack of 4 KiB (musl's
 * posix_spawn gives its child about 5), making calls from C library
 * sites the program has not run before, then exec.  Under first-trap
 * planning those calls trap; what sysgate does about them in the child
 * must fit there too (a page that cannot be written lies below it).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "../lib/util.h"

static int child(void *arg)
{
	char *argv[] = { "sh", "-c", "exit 42", 0 };

	(void)arg;
	if (syscall(SYS_getppid) <= 0 || syscall(SYS_getppid) <= 0 ||
	    sched_yield() != 0 || sched_yield() != 0 ||
	    getpriority(PRIO_PROCESS, 0) < -20)
		_exit(9);
	if (arg)
		_exit(7);
	execv("/bin/sh", argv);
	_exit(127);
}

int main(void)
{
	char *guard = mmap(0, 8192, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0), *stack = guard + 4096;
	int i, st;

	test_assert(guard != MAP_FAILED);
	test_assert(mprotect(stack, 4096, PROT_READ | PROT_WRITE) == 0);
	for (i = 0; i < 2; i++) {
		pid_t p = clone(child, stack + 4096,
				CLONE_VM | CLONE_VFORK | SIGCHLD,
				i ? 0 : stack);

		test_assert(p > 0);
		test_assert(waitpid(p, &st, 0) == p);
		test_assert(WIFEXITED(st));
		test_assert(WEXITSTATUS(st) == (i ? 42 : 7));
	}
	atomic_puts("children on a 4 KiB stack ok");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
