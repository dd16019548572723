/* SPDX-License-Identifier: MIT */
/*
 * Signal actions across execve: the program ignores some signals, catches
 * others with flags and a mask, blocks one, then runs itself again.  The
 * new program must find the ignored ones still ignored and every other
 * action back to SIG_DFL with no flags and an empty mask, as the kernel
 * leaves them (sysgate reads them at a process's start, in loader mode
 * from /proc/self/status, and gives the program its own view).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "../lib/util.h"

static void caught(int sig)
{
	(void)sig;
}

static void show(void)
{
	sigset_t blocked;
	int sig;

	test_assert(sigprocmask(SIG_BLOCK, 0, &blocked) == 0);
	for (sig = 1; sig < NSIG; sig++) {
		struct sigaction old;
		int n = 0, i;

		if (sigaction(sig, 0, &old) < 0)
			continue;
		for (i = 1; i < NSIG; i++)
			n += sigismember(&old.sa_mask, i) == 1;
		printf("%d %s flags=%#x mask=%d%s\n", sig,
		       old.sa_handler == SIG_IGN   ? "ignored" :
		       old.sa_handler == SIG_DFL   ? "default" :
						     "handler",
		       (unsigned int)old.sa_flags & ~0x04000000u /* SA_RESTORER */, n,
		       sigismember(&blocked, sig) == 1 ? " blocked" : "");
	}
}

int main(int argc, char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN, .sa_flags = SA_RESTART };
	struct sigaction on = { .sa_handler = caught,
				.sa_flags = SA_RESTART | SA_NODEFER };
	sigset_t one;

	if (argc > 1 && !strcmp(argv[1], "again")) {
		show();
		return 0;
	}
	sigemptyset(&on.sa_mask);
	sigaddset(&on.sa_mask, SIGUSR2);
	test_assert(sigaction(SIGHUP, &ign, 0) == 0);
	test_assert(sigaction(SIGPIPE, &ign, 0) == 0);
	test_assert(sigaction(SIGRTMIN + 3, &ign, 0) == 0);
	test_assert(sigaction(SIGTERM, &on, 0) == 0);
	test_assert(sigaction(SIGUSR1, &on, 0) == 0);
	sigemptyset(&one);
	sigaddset(&one, SIGQUIT);
	test_assert(sigprocmask(SIG_BLOCK, &one, 0) == 0);
	fflush(stdout);
	execl("/proc/self/exe", argv[0], "again", (char *)0);
	perror("execl");
	return 1;
}
