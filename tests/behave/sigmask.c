/* SPDX-License-Identifier: MIT */
/*
 * The signal mask a program reads back is the one it set, the signals
 * sysgate claims (SIGTRAP for trapped sites, SIGSYS for syscall user
 * dispatch) included, though sysgate keeps those deliverable.
 * posix_spawn's child relies on it: it blocks all, reads the mask back
 * and resets the action of each blocked signal.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../lib/util.h"

/* rt_sigprocmask as the kernel answers it: -errno on failure */
static long raw_mask(long how, const void *set, void *old)
{
	long r = syscall(SYS_rt_sigprocmask, how, set, old, 8);

	return r < 0 ? -errno : r;
}

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
	void *r, *bad;

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

	/* bad sets, how and old-mask pointers: the kernel's answers, and
	 * the mask left as the kernel leaves it (a page unmapped: page 0
	 * is mapped under -m zeropage) */
	bad = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	test_assert(bad != MAP_FAILED && munmap(bad, 4096) == 0);
	test_assert(raw_mask(SIG_UNBLOCK, bad, 0) == -EFAULT);
	test_assert(raw_mask(SIG_SETMASK, bad, 0) == -EFAULT);
	test_assert(raw_mask(SIG_BLOCK, bad, 0) == -EFAULT);
	test_assert(raw_mask(7, &one, 0) == -EINVAL);
	test_assert(blocked(SIGSYS) && blocked(SIGUSR1) && !blocked(SIGTRAP));
	test_assert(raw_mask(SIG_BLOCK, &one, bad) == -EFAULT);
	test_assert(blocked(SIGTRAP));
	atomic_puts("bad pointers fail as natively");

	sigemptyset(&one);
	test_assert(pthread_sigmask(SIG_SETMASK, &one, &old) == 0);
	test_assert(sigismember(&old, SIGTRAP) && sigismember(&old, SIGSYS));
	test_assert(!blocked(SIGSYS) && !blocked(SIGTRAP) && !blocked(SIGUSR1));
	atomic_puts("mask cleared");

	/* a set that blocks a claimed signal alone, then the program's
	 * own read of it */
	sigemptyset(&one);
	sigaddset(&one, SIGSYS);
	test_assert(raw_mask(SIG_BLOCK, &one, 0) == 0);
	test_assert(blocked(SIGSYS) && !blocked(SIGTRAP));
	test_assert(raw_mask(SIG_SETMASK, &all, &old) == 0);
	test_assert(sigismember(&old, SIGSYS) && !sigismember(&old, SIGUSR1));
	test_assert(raw_mask(SIG_UNBLOCK, &one, &old) == 0);
	test_assert(!blocked(SIGSYS) && blocked(SIGTRAP));
	test_assert(raw_mask(SIG_SETMASK, &old, 0) == 0);
	test_assert(blocked(SIGSYS) && blocked(SIGTRAP) && blocked(SIGUSR1));
	sigemptyset(&one);
	test_assert(pthread_sigmask(SIG_SETMASK, &one, 0) == 0);
	atomic_puts("claimed signals alone");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
