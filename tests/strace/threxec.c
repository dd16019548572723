/* SPDX-License-Identifier: MIT */
/*
 * An execve made by a thread other than the leader: strace prints the
 * call's start, the end of the call the leader was in ("= ?", with
 * "<unfinished ...>" for arguments it prints at exit), "+++ superseded by
 * execve in pid TID +++" and the call's end as the leader's; or, the
 * leader having ended itself (exit, not exit_group), "<pid changed to
 * PID ...>".  And a leader's own exit is reported at the process's end,
 * when its last thread exits.  Each step execs the next: ARGV1 is the
 * scratch directory, ARGV2 the step.
 */
#include "corpus.h"
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>

static char **args;
static int step;

static void *thread(void *p)
{
	char num[16], *argv[4];

	(void)p;
	poll(NULL, 0, 100);	/* (the leader is in its call by then) */
	if (step == 3)
		syscall(__NR_exit, 0);	/* the last thread: the process's end */
	snprintf(num, sizeof(num), "%d", step + 1);
	argv[0] = args[0];
	argv[1] = args[1];
	argv[2] = num;
	argv[3] = NULL;
	syscall(__NR_execve, args[0], argv, environ);
	_exit(1);
}

int main(int argc, char **argv)
{
	struct timespec ts = { 100, 0 };
	pthread_t t;

	args = argv;
	step = argc > 2 ? atoi(argv[2]) : 0;
	if (!step)
		begin();
	check(pthread_create(&t, NULL, thread, NULL) == 0, "pthread_create");
	switch (step) {
	case 0:
		syscall(__NR_pause);	/* no argument printed at exit */
		break;
	case 1:
		syscall(__NR_nanosleep, &ts, &ts);	/* one: what is left */
		break;
	case 2:
	case 3:
		syscall(__NR_exit, 0);	/* the leader ends itself */
		break;
	}
	return 1;
}
