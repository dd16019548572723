/* SPDX-License-Identifier: MIT */
/* Signals: sigaction structs, masks and how they change, pending sets,
 * kill and tgkill of a blocked signal (delivery: sigdeliver.c). */
#include "corpus.h"
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

static volatile int got;

static void handler(int sig)
{
	got = sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = handler }, old;
	sigset_t set, oldset;

	begin();
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sa.sa_flags = SA_RESTART;
	check(sigaction(SIGUSR1, &sa, &old) == 0, "sigaction");
	sa.sa_flags = 0;
	check(sigaction(SIGUSR2, &sa, NULL) == 0, "sigaction");
	sa.sa_handler = SIG_IGN;
	check(sigaction(SIGPIPE, &sa, NULL) == 0, "sigaction");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGCHLD);
	check(sigprocmask(SIG_BLOCK, &set, &oldset) == 0, "sigprocmask");
	check(sigprocmask(SIG_SETMASK, &oldset, NULL) == 0, "sigprocmask");
	sigfillset(&set);
	sigdelset(&set, SIGUSR1);
	check(sigprocmask(SIG_BLOCK, &set, &oldset) == 0, "sigprocmask");
	check(sigprocmask(SIG_SETMASK, &oldset, NULL) == 0, "sigprocmask");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	check(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "sigprocmask");
	check(kill(getpid(), SIGUSR1) == 0, "kill");
	check(raise(SIGUSR2) == 0, "raise");
	check(sigpending(&set) == 0, "sigpending");
	sa.sa_handler = SIG_IGN;
	check(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	check(sigaction(SIGUSR2, &sa, NULL) == 0, "sigaction");
	(void)got;
	{
		/* a pending signal: sigpending's short set, taken by
		 * sigtimedwait (its siginfo, the signal's name) */
		sigset_t usr1, pend;
		siginfo_t si;
		struct timespec ts = { 0, 42 };

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		kill(getpid(), SIGUSR1);
		syscall(SYS_rt_sigpending, &pend, 1);
		syscall(SYS_rt_sigpending, &pend, 9);
		syscall(SYS_rt_sigtimedwait, &usr1, &si, &ts, 8);
		syscall(SYS_rt_sigtimedwait, &usr1, NULL, &ts, 8);
		sigprocmask(SIG_UNBLOCK, &usr1, NULL);
	}
	return 0;
}
