/* SPDX-License-Identifier: MIT */
/*
 * System calls made while the program has every signal blocked, by each
 * way a mask comes to be: rt_sigprocmask, a handler's sa_mask, the mask
 * of sigsuspend/ppoll/pselect/epoll_pwait in the handler that interrupts
 * them, a mask a handler leaves in uc_sigmask, a new thread made by a
 * raw clone with all signals blocked (as musl's pthread_create does),
 * signalfd.  Under the mechanisms that trap calls (SIGSYS, SIGTRAP) each
 * call must still be handled, and the program must read back the masks
 * it set, SIGSYS and SIGTRAP included.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <ucontext.h>
#include "../lib/util.h"

static volatile int handled;

static int blocked(int sig)
{
	sigset_t s;

	test_assert(sigprocmask(SIG_BLOCK, 0, &s) == 0);
	return sigismember(&s, sig);
}

static void calls(void)
{
	int i;

	for (i = 0; i < 4; i++)
		test_assert(getppid() > 0);
}

static void on_alrm(int sig)
{
	(void)sig;
	calls();
	handled++;
}

/* SIGUSR1: sa_mask has everything. */
static void on_usr1(int sig, siginfo_t *si, void *p)
{
	ucontext_t *uc = p;

	(void)sig;
	(void)si;
	calls();
	test_assert(blocked(SIGSYS) && blocked(SIGTRAP) && blocked(SIGUSR2));
	/* the interrupted code's mask: SIGSYS and SIGUSR2 */
	test_assert(sigismember(&uc->uc_sigmask, SIGSYS));
	test_assert(sigismember(&uc->uc_sigmask, SIGUSR2));
	test_assert(!sigismember(&uc->uc_sigmask, SIGTRAP));
	/* and on return SIGTRAP too */
	sigaddset(&uc->uc_sigmask, SIGTRAP);
	handled++;
}

/* A timer that interrupts the call with SIGALRM. */
static void arm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 2000 } };

	test_assert(setitimer(ITIMER_REAL, &it, 0) == 0);
}

static char child_stack[1 << 16] __attribute__((aligned(16)));
/* The child's own TLS block: a TCB whose first word points to itself. */
static void *child_tls[64] __attribute__((aligned(64)));
static volatile int child_done;

static long raw4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long r;

	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return r;
}

/* Raw calls only: its thread pointer is not the C library's. */
static const unsigned long all_sigs = ~0UL;

static int child(void *arg)
{
	unsigned long none = 0;
	int i;

	(void)arg;
	/* musl's start: the creator's mask back, with a raw call */
	if (raw4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, 0, 8) != 0)
		raw4(SYS_exit, 1, 0, 0, 0);
	for (i = 0; i < 4; i++)
		if (raw4(SYS_getppid, 0, 0, 0, 0) <= 0)
			raw4(SYS_exit, 1, 0, 0, 0);
	/* and musl's end: every signal blocked, so that the process's
	 * SIGUSR2 below goes to the main thread while this one ends */
	raw4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all_sigs, 0, 8);
	child_done = 1;
	raw4(SYS_exit, 0, 0, 0, 0);
	return 0;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alrm };
	sigset_t all, old, m;
	struct pollfd pfd;
	int fds[2], ep, sfd, before;

	test_assert(sigaction(SIGALRM, &sa, 0) == 0);
	sigfillset(&all);

	/* rt_sigprocmask */
	test_assert(sigprocmask(SIG_BLOCK, &all, &old) == 0);
	calls();
	test_assert(blocked(SIGSYS) && blocked(SIGTRAP) && blocked(SIGALRM));
	test_assert(sigprocmask(SIG_SETMASK, &old, &m) == 0);
	test_assert(sigismember(&m, SIGSYS) && sigismember(&m, SIGTRAP));
	test_assert(!blocked(SIGSYS) && !blocked(SIGTRAP));
	atomic_puts("calls with every signal blocked");

	/* a handler's sa_mask, uc_sigmask both ways */
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	test_assert(sigaction(SIGUSR1, &sa, 0) == 0);
	sigemptyset(&m);
	sigaddset(&m, SIGSYS);
	sigaddset(&m, SIGUSR2);
	test_assert(sigprocmask(SIG_SETMASK, &m, 0) == 0);
	before = handled;
	test_assert(kill(getpid(), SIGUSR1) == 0);
	test_assert(handled == before + 1);
	test_assert(blocked(SIGSYS) && blocked(SIGTRAP) && blocked(SIGUSR2));
	calls();
	test_assert(sigprocmask(SIG_SETMASK, &old, 0) == 0);
	atomic_puts("calls in a handler that blocks everything");

	/* sigsuspend with everything but SIGALRM blocked */
	sigfillset(&m);
	sigdelset(&m, SIGALRM);
	test_assert(sigprocmask(SIG_BLOCK, &all, 0) == 0);
	before = handled;
	arm();
	test_assert(sigsuspend(&m) == -1);
	test_assert(handled == before + 1 && blocked(SIGSYS));
	test_assert(sigprocmask(SIG_SETMASK, &old, 0) == 0);
	atomic_puts("calls in a handler that interrupts sigsuspend");

	/* ppoll, pselect, epoll_pwait with that mask */
	test_assert(pipe(fds) == 0);
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	test_assert(sigprocmask(SIG_BLOCK, &all, 0) == 0);
	before = handled;
	arm();
	test_assert(ppoll(&pfd, 1, 0, &m) == -1);
	test_assert(handled == before + 1);
	arm();
	test_assert(pselect(0, 0, 0, 0, 0, &m) == -1);
	test_assert(handled == before + 2);
	ep = epoll_create1(0);
	test_assert(ep >= 0);
	arm();
	{
		struct epoll_event ev;

		test_assert(epoll_pwait(ep, &ev, 1, -1, &m) == -1);
	}
	test_assert(handled == before + 3);
	test_assert(sigprocmask(SIG_SETMASK, &old, 0) == 0);
	atomic_puts("calls in handlers that interrupt ppoll, pselect, epoll_pwait");

	/* a raw clone with every signal blocked, as musl's pthread_create */
	child_tls[0] = child_tls;
	test_assert(sigprocmask(SIG_BLOCK, &all, 0) == 0);
	test_assert(clone(child, child_stack + sizeof(child_stack),
			  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
				  CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS,
			  0, 0, child_tls, 0) > 0);
	test_assert(sigprocmask(SIG_SETMASK, &old, 0) == 0);
	while (!child_done)
		sched_yield();
	atomic_puts("calls in a thread cloned with every signal blocked");

	/* signalfd takes every signal but the ones sysgate needs */
	test_assert(sigprocmask(SIG_BLOCK, &all, 0) == 0);
	sfd = signalfd(-1, &all, 0);
	test_assert(sfd >= 0);
	test_assert(kill(getpid(), SIGUSR2) == 0);
	{
		struct signalfd_siginfo si;

		test_assert(read(sfd, &si, sizeof(si)) == sizeof(si));
		test_assert(si.ssi_signo == SIGUSR2);
	}
	calls();
	test_assert(sigprocmask(SIG_SETMASK, &old, 0) == 0);
	atomic_puts("signalfd for every signal");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
