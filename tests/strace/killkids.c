/* SPDX-License-Identifier: MIT */
/*
 * Children killed in their calls.  SIGKILL, which no process sees itself
 * (in process, sysgate learns it from the parent's wait4, waitid or
 * SIGCHLD), and SIGTERM's default action: strace prints each thread's
 * call cut short ("= ?") and its "+++ killed by" line, the leader's last.
 */
#include "corpus.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* The child's threads about to pause (shared; counted without a system
 * call, which would be a line of its own) */
static volatile int *ready;

static void *sleeper(void *p)
{
	sigset_t term;

	/* (a second thread holds SIGTERM: the leader is the one it hits,
	 * in every run) */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	if (p)
		pthread_sigmask(SIG_BLOCK, &term, NULL);
	__atomic_add_fetch(ready, 1, __ATOMIC_SEQ_CST);
	syscall(__NR_pause);
	return NULL;
}

/* Let go once its creator is past pthread_create (a thread that ended
 * at once would clear clone3's parent_tid before a tracer reads it). */
static volatile int gone_go;

static void *gone(void *p)
{
	while (!__atomic_load_n(&gone_go, __ATOMIC_SEQ_CST))
		__builtin_ia32_pause();
	return p;
}

/* A child in pause(), with a second thread in pause() too (threads 1),
 * or after a thread that has ended (threads -1: its end is its own line,
 * none at the kill). */
static pid_t child(int threads)
{
	pid_t pid;

	*ready = 0;
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		if (threads > 0 &&
		    pthread_create(&t, NULL, sleeper, (void *)1))
			_exit(2);
		if (threads < 0) {
			if (pthread_create(&t, NULL, gone, NULL))
				_exit(2);
			__atomic_store_n(&gone_go, 1, __ATOMIC_SEQ_CST);
			/* (joined without a futex wait some runs make) */
			while (pthread_tryjoin_np(t, NULL) == EBUSY)
				;
		}
		sleeper(NULL);
		_exit(1);
	}
	check(pid > 0, "fork");
	while (__atomic_load_n(ready, __ATOMIC_SEQ_CST) <
	       1 + (threads > 0))
		__builtin_ia32_pause();
	poll(NULL, 0, 200);	/* (and in pause() by then) */
	return pid;
}

static void on_chld(int sig)
{
	(void)sig;
}

int main(void)
{
	sigset_t chld, none;
	siginfo_t si;
	pid_t pid;
	int st;

	/* SIGCHLD held (in process, sysgate sees no signal that is ignored
	 * by default): one stays pending, taken by sigwaitinfo */
	ready = mmap(NULL, sizeof(*ready), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	check(ready != MAP_FAILED, "mmap");
	sigemptyset(&chld);
	sigemptyset(&none);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	begin();
	/* seen by wait4 */
	pid = child(0);
	check(kill(pid, SIGKILL) == 0, "kill");
	check(wait4(pid, &st, 0, NULL) == pid, "wait4");
	/* two threads, seen by waitid */
	pid = child(1);
	check(kill(pid, SIGKILL) == 0, "kill");
	check(waitid(P_PID, pid, &si, WEXITED) == 0, "waitid");
	/* a thread gone before the kill */
	pid = child(-1);
	check(kill(pid, SIGKILL) == 0, "kill");
	check(wait4(pid, &st, 0, NULL) == pid, "wait4");
	/* SIGTERM, which the process itself sees end it */
	pid = child(1);
	check(kill(pid, SIGTERM) == 0, "kill");
	check(wait4(pid, &st, 0, NULL) == pid, "wait4");
	check(sigwaitinfo(&chld, &si) == SIGCHLD, "sigwaitinfo");
	/* seen by a SIGCHLD handler first (the signal held until the child
	 * is surely gone), then by wait4 */
	signal(SIGCHLD, on_chld);
	pid = child(0);
	check(kill(pid, SIGKILL) == 0, "kill");
	poll(NULL, 0, 200);
	sigsuspend(&none);
	check(wait4(pid, &st, 0, NULL) == pid, "wait4");
	return 0;
}
