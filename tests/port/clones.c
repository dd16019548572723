/* SPDX-License-Identifier: MIT */
/*
 * New threads made every way a portable program can: pthread_create
 * (glibc's clone3, or clone where clone3 is missing) and clone() with a
 * stack of the program's own, plus a fork.  Each thread makes ten getppid
 * calls; with the `starts` hook loaded, sysgate must have announced each
 * thread (thread_start) and counted every call.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#define PTHREADS 3
#define CLONES 3
#define CALLS 10
#define STACK (256 * 1024)

static int calls(void)
{
	int i, ok = 1;

	for (i = 0; i < CALLS; i++)
		ok &= getppid() > 0;
	return ok;
}

static void *pthread_fn(void *arg)
{
	(void)arg;
	return calls() ? arg : NULL;
}

/* clone(CLONE_CHILD_CLEARTID) clears and wakes this when the thread ends. */
static volatile int clone_tid[CLONES];
static volatile int clone_ok[CLONES];

static int clone_fn(void *arg)
{
	long i = (long)arg;

	clone_ok[i] = calls();
	return 0;
}

int main(void)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			  CLONE_THREAD | CLONE_SYSVSEM | CLONE_CHILD_SETTID |
			  CLONE_CHILD_CLEARTID;
	pthread_t th[PTHREADS];
	int i, ok = 1, status;
	pid_t child;

	for (i = 0; i < PTHREADS; i++)
		ok &= pthread_create(&th[i], 0, pthread_fn, th) == 0;
	for (i = 0; i < PTHREADS; i++) {
		void *r;

		ok &= pthread_join(th[i], &r) == 0 && r == th;
	}
	printf("pthreads %s\n", ok ? "ok" : "FAILED");

	for (i = 0; i < CLONES; i++) {
		char *stack = malloc(STACK);

		if (!stack ||
		    clone(clone_fn, stack + STACK, flags, (void *)(long)i, 0, 0,
			  &clone_tid[i]) < 0) {
			perror("clone");
			return 1;
		}
		/* Wait for the kernel to clear the tid at the thread's end. */
		while (clone_tid[i] == 0)
			sched_yield();
		while (clone_tid[i] != 0)
			syscall(SYS_futex, &clone_tid[i], FUTEX_WAIT,
				clone_tid[i], 0, 0, 0);
		ok &= clone_ok[i];
	}
	printf("clone threads %s\n", ok ? "ok" : "FAILED");

	child = fork();
	if (child == 0)
		_exit(calls() ? 0 : 1);
	ok &= child > 0 && waitpid(child, &status, 0) == child &&
	      WIFEXITED(status) && WEXITSTATUS(status) == 0;
	printf("fork %s\n", ok ? "ok" : "FAILED");
	return !ok;
}
