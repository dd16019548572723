/* SPDX-License-Identifier: MIT */
/*
 * A program to attach to.  N threads (argv[1], default 1): N-1 call
 * getppid in a loop; the first, every 10 ms, writes "tick T ppid=P
 * spinning=S calls=C": a getppid result (which an injection changes), how
 * many of the others have run, and their calls so far (a call rate).  It
 * runs until killed or, with argv[2], for that many ticks.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static volatile long calls[64];

static void *spin(void *arg)
{
	long i = (long)arg;

	for (;;) {
		syscall(SYS_getppid);
		calls[i]++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, i;
	long ticks = argc > 2 ? atol(argv[2]) : -1, t;
	struct timespec ms10 = { 0, 10000000 };
	pthread_t th;

	/* Under Yama's ptrace_scope=1 only an ancestor may attach: let the
	 * test's sysgate, a sibling, do it. */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	for (i = 1; i < n && i < 64; i++)
		pthread_create(&th, 0, spin, (void *)(long)i);
	printf("ready %d\n", getpid());
	fflush(stdout);
	for (t = 0; ticks < 0 || t < ticks; t++) {
		nanosleep(&ms10, 0);
		long sum = 0, total = 0;

		for (i = 1; i < n && i < 64; i++) {
			sum += calls[i] > 0;
			total += calls[i];
		}
		printf("tick %ld ppid=%ld spinning=%ld calls=%ld\n", t,
		       syscall(SYS_getppid), sum, total);
		fflush(stdout);
	}
	return 0;
}
