/* SPDX-License-Identifier: MIT */
/* fork, posix_spawn, system() and exit statuses. */
#include <spawn.h>
#include <sys/wait.h>
#include "../lib/util.h"

extern char **environ;

int main(void)
{
	int st, i;
	pid_t p;
	char *argv[] = { "sh", "-c", "exit 7", 0 };

	for (i = 0; i < 10; i++) {
		p = fork();
		if (p == 0) {
			test_assert(getppid() > 0);
			_exit(i);
		}
		test_assert(waitpid(p, &st, 0) == p && WEXITSTATUS(st) == i);
	}
	atomic_puts("10 forks ok");
	test_assert(posix_spawn(&p, "/bin/sh", 0, 0, argv, environ) == 0);
	test_assert(waitpid(p, &st, 0) == p && WEXITSTATUS(st) == 7);
	atomic_puts("posix_spawn ok");
	test_assert(WEXITSTATUS(system("exit 3")) == 3);
	atomic_puts("system ok");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
