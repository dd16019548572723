/* SPDX-License-Identifier: MIT */
/*
 * A profiler's way of unwinding: a SIGPROF handler that walks the stack
 * with _Unwind_Backtrace while the program makes system calls.  Signals
 * land inside sysgate's entry, its stubs and the restorer of its own
 * handlers (-m int3's SIGTRAP); every walk must end by itself (no loop:
 * at most MAX_FRAMES frames) and never fault.  Runs until SIGNALS
 * signals have been handled, however long that takes.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>
#include <unwind.h>

#define SIGNALS 1000
#define MAX_FRAMES 64

static volatile long handled, runaway;

static _Unwind_Reason_Code frame(struct _Unwind_Context *c, void *arg)
{
	int *n = arg;

	(void)c;
	if (++*n < MAX_FRAMES)
		return _URC_NO_REASON;
	runaway++;
	return _URC_END_OF_STACK;
}

static void on_prof(int sig)
{
	int n = 0;

	(void)sig;
	_Unwind_Backtrace(frame, &n);
	handled++;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_prof, .sa_flags = SA_RESTART };
	struct itimerval it = { { 0, 50 }, { 0, 50 } };

	sigaction(SIGPROF, &sa, NULL);
	setitimer(ITIMER_PROF, &it, NULL);
	while (handled < SIGNALS)
		getppid();
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_PROF, &it, NULL);
	printf("%d signals, %s\n", SIGNALS,
	       runaway ? "a walk ran away" : "every walk ended");
	return runaway != 0;
}
