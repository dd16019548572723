/* SPDX-License-Identifier: MIT */
/*
 * The signal mask a program reads back is the one it set, the signals
 * sysgate claims (SIGTRAP for trapped sites, SIGSYS for syscall user
 * dispatch) included, though sysgate keeps those deliverable.
 * posix_spawn's child relies on it: it blocks all, reads the mask back
 * and resets the action of each blocked signal.
 */
#include <pthread.h>
#include <signal.h>
#include "../lib/util.h"

static int blocked(int sig)
{
	sigset_t s;

	test_assert(pthread_sigmask(SIG_BLOCK, 0, &s) == 0);
	return sigismember(&s, sig);
}

static void *in_thread(void *arg)
{
	(void)arg;
	return (void *)(long)(blocked(SIGTRAP) && blocked(SIGSYS) &&
			      blocked(SIGUSR1));
}

int main(void)
{
	sigset_t all, old, one;
	pthread_t t;
	void *r;

	sigfillset(&all);
	test_assert(pthread_sigmask(SIG_BLOCK, &all, &old) == 0);
	test_assert(!sigismember(&old, SIGTRAP) && !sigismember(&old, SIGSYS));
	test_assert(blocked(SIGTRAP) && blocked(SIGSYS) && blocked(SIGUSR1));
	atomic_puts("all blocked, SIGTRAP and SIGSYS read back blocked");

	test_assert(pthread_create(&t, 0, in_thread, 0) == 0);
	test_assert(pthread_join(t, &r) == 0);
	test_assert(r);
	atomic_puts("a new thread starts with that mask");

	sigemptyset(&one);
	sigaddset(&one, SIGTRAP);
	test_assert(pthread_sigmask(SIG_UNBLOCK, &one, &old) == 0);
	test_assert(sigismember(&old, SIGTRAP));
	test_assert(!blocked(SIGTRAP) && blocked(SIGSYS));
	atomic_puts("SIGTRAP unblocked alone");

	sigemptyset(&one);
	test_assert(pthread_sigmask(SIG_SETMASK, &one, &old) == 0);
	test_assert(!sigismember(&old, SIGTRAP) && sigismember(&old, SIGSYS));
	test_assert(!blocked(SIGSYS) && !blocked(SIGTRAP) && !blocked(SIGUSR1));
	atomic_puts("mask cleared");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
