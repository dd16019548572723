/* SPDX-License-Identifier: MIT */
/*
 * Signals on an alternate stack whose handlers make syscalls, delivered
 * both between syscalls and while one is blocked.
 */
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include "../lib/util.h"

static char altstack[1 << 16];
static volatile int handled, on_alt;

static void handler(int sig)
{
	char here;

	(void)sig;
	if ((uintptr_t)&here >= (uintptr_t)altstack &&
	    (uintptr_t)&here < (uintptr_t)altstack + sizeof(altstack))
		on_alt++;
	test_assert(getpid() > 0);
	test_assert(write(-1, "", 0) == -1);
	handled++;
}

int main(void)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_ONSTACK };
	int i, fd[2];
	char c;

	test_assert(sigaltstack(&ss, 0) == 0);
	test_assert(sigaction(SIGUSR1, &sa, 0) == 0);
	for (i = 0; i < 100; i++)
		kill(getpid(), SIGUSR1);
	test_assert(handled == 100 && on_alt == 100);
	atomic_puts("100 handlers on the alternate stack");

	/* A signal interrupting a blocked read: EINTR without SA_RESTART. */
	test_assert(sigaction(SIGALRM, &sa, 0) == 0);
	test_assert(pipe(fd) == 0);
	alarm(1);
	test_assert(read(fd[0], &c, 1) == -1);
	test_assert(handled == 101 && on_alt == 101);
	atomic_puts("blocked read interrupted on the alternate stack");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
