/* SPDX-License-Identifier: MIT */
/*
 * Signal delivery: a signal sent to itself reaches its handler (the
 * "--- SIGUSR1 {siginfo} ---" line, then rt_sigreturn with the mask it
 * restores), and sigsuspend returns once a handler ran, also with every
 * signal but one blocked (sysgate's own among them: the line shows the
 * program's mask, not the copy without them the kernel is given); a timer's
 * signal (from the kernel: no sender) cutting an absolute sleep short,
 * which the kernel does not restart with a time left; and a signal let in
 * by the rt_sigprocmask that unblocks it, whose old mask (every signal,
 * sysgate's too) the line shows before the signal's.
 */
#include "corpus.h"
#include <errno.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>

static volatile int got;

static void handler(int sig)
{
	got = sig;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = handler };
	sigset_t set, empty;

	begin();
	sigemptyset(&sa.sa_mask);
	check(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
	check(kill(getpid(), SIGUSR1) == 0 && got == SIGUSR1, "kill");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	check(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "sigprocmask");
	got = 0;
	check(kill(getpid(), SIGUSR1) == 0, "kill");
	sigemptyset(&empty);
	check(sigsuspend(&empty) < 0 && got == SIGUSR1, "sigsuspend");
	{
		sigset_t all_but;

		sigfillset(&all_but);
		sigdelset(&all_but, SIGUSR1);
		got = 0;
		check(kill(getpid(), SIGUSR1) == 0, "kill");
		check(sigsuspend(&all_but) < 0 && got == SIGUSR1,
		      "sigsuspend");
	}
	{
		sigset_t all, old;

		sigfillset(&all);
		check(sigprocmask(SIG_SETMASK, &all, NULL) == 0, "sigprocmask");
		got = 0;
		check(kill(getpid(), SIGUSR1) == 0, "kill");
		check(sigprocmask(SIG_SETMASK, &empty, &old) == 0 &&
		      got == SIGUSR1 && sigismember(&old, SIGSYS) == 1,
		      "sigprocmask");
	}
	{
		struct itimerval it = { { 0, 0 }, { 0, 20000 } };
		struct timespec until = { 2000000000, 0 }, left;

		check(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction");
		check(setitimer(ITIMER_REAL, &it, NULL) == 0, "setitimer");
		check(clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until,
				      &left) == EINTR, "clock_nanosleep");
	}
	return 0;
}
