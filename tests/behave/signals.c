/* SPDX-License-Identifier: MIT */
/*
 * A 1 kHz timer interrupts a loop of syscalls; the handler makes syscalls
 * too.  Blocked reads are restarted with SA_RESTART and fail with EINTR
 * without it.  sigaction() reports handlers back as they were set.
 */
#include <errno.h>
#include <signal.h>
#include <sys/time.h>
#include "../lib/util.h"

static volatile int ticks;

static void tick(int sig)
{
	(void)sig;
	ticks++;
	test_assert(getppid() > 0);
}

static void info_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	test_assert(sig == SIGUSR2 && si->si_signo == SIGUSR2);
	test_assert(si->si_code == SI_TKILL || si->si_code == SI_USER);
	ticks += 1000;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = tick }, old;
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	int fd[2], i;
	char c;

	test_assert(sigaction(SIGALRM, &sa, 0) == 0);
	test_assert(setitimer(ITIMER_REAL, &it, 0) == 0);
	for (i = 0; ticks < 50; i++)
		test_assert(getppid() > 0);
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, 0);
	atomic_puts("timer ticks handled during syscalls");

	/* The program sees its own handlers through sigaction. */
	test_assert(sigaction(SIGALRM, 0, &old) == 0);
	test_assert(old.sa_handler == tick);
	sa.sa_handler = SIG_IGN;
	test_assert(sigaction(SIGALRM, &sa, &old) == 0);
	test_assert(old.sa_handler == tick);
	test_assert(sigaction(SIGALRM, 0, &old) == 0);
	test_assert(old.sa_handler == SIG_IGN);
	sa.sa_sigaction = info_handler;
	sa.sa_flags = SA_SIGINFO;
	test_assert(sigaction(SIGUSR2, &sa, 0) == 0);
	test_assert(sigaction(SIGUSR2, 0, &old) == 0);
	test_assert(old.sa_sigaction == info_handler &&
		    (old.sa_flags & SA_SIGINFO));
	raise(SIGUSR2);
	test_assert(ticks >= 1050);
	atomic_puts("sigaction round trip and siginfo ok");

	/* EINTR vs SA_RESTART on a blocked pipe read */
	test_assert(pipe(fd) == 0);
	sa.sa_handler = tick;
	sa.sa_flags = 0;
	test_assert(sigaction(SIGALRM, &sa, 0) == 0);
	alarm(1);
	test_assert(read(fd[0], &c, 1) == -1 && errno == EINTR);
	atomic_puts("EINTR without SA_RESTART");
	sa.sa_flags = SA_RESTART;
	test_assert(sigaction(SIGALRM, &sa, 0) == 0);
	if (fork() == 0) {
		usleep(1500000);
		test_assert(write(fd[1], "y", 1) == 1);
		_exit(0);
	}
	alarm(1);
	test_assert(read(fd[0], &c, 1) == 1 && c == 'y');
	atomic_puts("read restarted with SA_RESTART");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
