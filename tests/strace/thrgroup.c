/* SPDX-License-Identifier: MIT */
/*
 * exit_group made by a thread other than the leader, the leader in a call:
 * strace prints the call's end ("= ?"), the thread's "+++ exited" line,
 * then the leader's, the process's.
 */
#include "corpus.h"
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>

static void *thread(void *p)
{
	(void)p;
	poll(NULL, 0, 100);	/* (the leader is in its call by then) */
	syscall(__NR_exit_group, 0);
	return NULL;
}

int main(void)
{
	pthread_t t;

	begin();
	check(pthread_create(&t, NULL, thread, NULL) == 0, "pthread_create");
	syscall(__NR_pause);
	return 1;
}
