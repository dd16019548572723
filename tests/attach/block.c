/* SPDX-License-Identifier: MIT */
/*
 * A program to attach to while it waits: the main thread blocks in read
 * on stdin (echoing what comes as "got N TEXT"), another sleeps for an
 * hour at a time.  Ends at end of input.
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <time.h>

static void *sleeper(void *arg)
{
	struct timespec t = { 3600, 0 };

	(void)arg;
	for (;;)
		nanosleep(&t, 0);
	return 0;
}

int main(void)
{
	char buf[256];
	ssize_t n;
	pthread_t th;

	/* (Yama's ptrace_scope=1: the test's sysgate is a sibling) */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	pthread_create(&th, 0, sleeper, 0);
	printf("ready\n");
	fflush(stdout);
	while ((n = read(0, buf, sizeof(buf))) > 0) {
		printf("got %zd %.*s", n, (int)n, buf);
		fflush(stdout);
	}
	printf("eof\n");
	return 0;
}
