/* SPDX-License-Identifier: MIT */
/*
 * vfork: the child shares the parent's stack until it execs or exits
 * (zpoline crashes here).  The child makes syscalls first; the parent
 * resumes and makes more.
 */
#include <sys/wait.h>
#include "../lib/util.h"

int main(void)
{
	int i, st;

	for (i = 0; i < 20; i++) {
		pid_t p = vfork();

		if (p == 0) {
			if (getppid() < 0)
				_exit(9);
			if (i % 2)
				_exit(i);
			execl("/bin/sh", "sh", "-c", "exit 42", (char *)0);
			_exit(127);
		}
		test_assert(p > 0);
		test_assert(waitpid(p, &st, 0) == p);
		test_assert(WIFEXITED(st));
		test_assert(WEXITSTATUS(st) == (i % 2 ? i : 42));
	}
	atomic_puts("20 vforks ok");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
