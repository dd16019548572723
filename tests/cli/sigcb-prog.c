/* SPDX-License-Identifier: MIT */
/*
 * With tests/hooks/sigcb.so: its first getppid sets a SIGUSR1 handler
 * inside the hook, which the program must see as its action, and which
 * a raised SIGUSR1 must run (the second getppid says how often).
 */
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	long h = syscall(SYS_getppid), n;
	struct sigaction old;

	if (sigaction(SIGUSR1, 0, &old))
		return 2;
	raise(SIGUSR1);
	n = syscall(SYS_getppid);
	printf("action %s, handler ran %ld\n",
	       (long)old.sa_handler == h ? "seen" : "not seen", n);
	return 0;
}
