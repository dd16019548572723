/* SPDX-License-Identifier: MIT */
/*
 * A storm of signals of several kinds (a one-shot timer, kill, tgkill
 * from another thread) arriving during system calls, in handlers that
 * run on an alternate signal stack and make system calls themselves, as
 * CPython's test_signal does (with faulthandler's sigaltstack).  A signal
 * that interrupts a handler's call must land below it on the alternate
 * stack, not over its frame; none may be lost (the loop waits for each
 * one, without a time limit).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include "../lib/util.h"

#define ROUNDS 10000

static volatile int usr1, alrm, usr2;
static volatile int stop;

/* A handler's own stack must survive the calls it makes. */
static void busy_handler(void)
{
	volatile uint64_t canary[32];
	int i;

	for (i = 0; i < 32; i++)
		canary[i] = 0x5347000000000000ULL + i;
	for (i = 0; i < 8; i++)
		test_assert(getppid() > 0);
	for (i = 0; i < 32; i++)
		test_assert(canary[i] == 0x5347000000000000ULL + i);
}

static void on_usr1(int sig)
{
	(void)sig;
	busy_handler();
	usr1++;
}

static void on_alrm(int sig)
{
	(void)sig;
	busy_handler();
	alrm++;
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	test_assert(sig == SIGUSR2 && si->si_signo == SIGUSR2);
	busy_handler();
	usr2++;
}

static pid_t main_tid;

static void *sender(void *arg)
{
	(void)arg;
	while (!stop) {
		int before = usr2;

		test_assert(syscall(SYS_tgkill, getpid(), main_tid, SIGUSR2) == 0);
		while (usr2 == before && !stop)
			sched_yield();
	}
	return 0;
}

int main(void)
{
	struct sigaction sa = { .sa_flags = SA_ONSTACK | SA_RESTART };
	stack_t ss = { .ss_size = 1 << 16 };
	unsigned int seed = 1;
	pthread_t t;
	int i;

	ss.ss_sp = malloc(ss.ss_size);
	test_assert(ss.ss_sp && sigaltstack(&ss, 0) == 0);
	sa.sa_handler = on_usr1;
	test_assert(sigaction(SIGUSR1, &sa, 0) == 0);
	sa.sa_handler = on_alrm;
	test_assert(sigaction(SIGALRM, &sa, 0) == 0);
	sa.sa_sigaction = on_usr2;
	sa.sa_flags |= SA_SIGINFO;
	test_assert(sigaction(SIGUSR2, &sa, 0) == 0);

	/* A timer and a kill at once, the timer's delay at random. */
	for (i = 0; i < ROUNDS; i++) {
		struct itimerval it = { { 0, 0 }, { 0, 1 + rand_r(&seed) % 20 } };
		int want_alrm = alrm + 1, want_usr1 = usr1 + 1;

		test_assert(setitimer(ITIMER_REAL, &it, 0) == 0);
		test_assert(kill(getpid(), SIGUSR1) == 0);
		while (alrm < want_alrm || usr1 < want_usr1)
			test_assert(getppid() > 0);
	}
	atomic_printf("%d timer and kill pairs handled on the alternate stack\n",
		      ROUNDS);

	/* Another thread's signals on top, while this one makes calls. */
	main_tid = syscall(SYS_gettid);
	test_assert(pthread_create(&t, 0, sender, 0) == 0);
	for (i = 0; i < ROUNDS / 10; i++) {
		struct itimerval it = { { 0, 0 }, { 0, 1 + rand_r(&seed) % 20 } };
		int want_alrm = alrm + 1;

		test_assert(setitimer(ITIMER_REAL, &it, 0) == 0);
		while (alrm < want_alrm)
			test_assert(getppid() > 0);
	}
	while (usr2 < 100)
		test_assert(getppid() > 0);
	stop = 1;
	test_assert(pthread_join(t, 0) == 0);
	atomic_puts("timers and another thread's signals handled too");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
