/* SPDX-License-Identifier: MIT */
/* A NULL read and a call through a NULL pointer still fault. */
#include <signal.h>
#include <sys/wait.h>
#include "../lib/util.h"

static int child(int which)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		if (which == 0)
			return *(volatile int *)0;
		((void (*)(void))0)();
		_exit(0);
	}
	test_assert(waitpid(p, &st, 0) == p);
	return WIFSIGNALED(st) ? WTERMSIG(st) : -WEXITSTATUS(st);
}

int main(void)
{
	int r;

	r = child(0);
	test_assert(r == SIGSEGV);
	atomic_puts("NULL read: SIGSEGV");
	r = child(1);
	test_assert(r == SIGSEGV);
	atomic_puts("NULL call: SIGSEGV");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
