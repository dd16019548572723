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

/* clone(CLONE_CHILD_CLEARTID) clears and wakes this when the thread ends;
 * the thread may end before its creator first looks, so done comes too. */
static volatile int clone_tid[CLONES];
static int clone_ok[CLONES], clone_done[CLONES];

static int clone_fn(void *arg)
{
	long i = (long)arg;

	clone_ok[i] = calls();
	__atomic_store_n(&clone_done[i], 1, __ATOMIC_RELEASE);
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

	setvbuf(stdout, 0, _IONBF, 0);	/* progress shows if it hangs */

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
		/* Wait for the thread, then for the kernel to clear its tid. */
		while (!__atomic_load_n(&clone_done[i], __ATOMIC_ACQUIRE))
			sched_yield();
		for (;;) {
			int tid = clone_tid[i];	/* read once: the wait
						   must see this value */
			if (!tid)
				break;
			syscall(SYS_futex, &clone_tid[i], FUTEX_WAIT, tid, 0, 0,
				0);
		}
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
