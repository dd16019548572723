/* SPDX-License-Identifier: MIT */
/*
 * Signal delivery: a signal sent to itself reaches its handler (the
 * "--- SIGUSR1 {siginfo} ---" line, then rt_sigreturn with the mask it
 * restores), and sigsuspend returns once a handler ran.
 */
#include "corpus.h"
#include <signal.h>

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
	return 0;
}
