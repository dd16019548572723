/* SPDX-License-Identifier: MIT */
/*
 * A parent without a SIGCHLD handler: strace prints the signal each
 * child's end sends it (the kernel stops a traced process for every
 * signal), which in process the kernel throws away, unless blocked.
 * Children end while the parent waits in wait4, so that the line has one
 * place: after wait4's, or after the call that unblocks it.  One that
 * SIGKILL ends cannot tell it: its parent's wait does.
 */
#include "corpus.h"
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* A child that ends as end() does, once its parent waits (a pause that
 * is a line of the child's alone). */
static pid_t child(void (*end)(void))
{
	pid_t pid = fork();

	check(pid >= 0, "fork");
	if (pid == 0) {
		poll(NULL, 0, 100);
		end();
		_exit(9);
	}
	return pid;
}

static void wait_for(pid_t pid)
{
	int st;

	check(wait4(pid, &st, 0, NULL) == pid, "wait4");
}

static void exits_3(void)
{
	_exit(3);
}

static void terminated(void)
{
	kill(getpid(), SIGTERM);
}

/* SIGKILL: the child cannot tell its end, its parent's wait does */
static void killed(void)
{
	kill(getpid(), SIGKILL);
}

static void *last_thread(void *p)
{
	poll(NULL, 0, 50);
	syscall(SYS_exit, 7);
	return p;
}

/* The leader goes first; the process ends with the last thread (its
 * status is the leader's). */
static void leader_first(void)
{
	pthread_t t;

	check(pthread_create(&t, NULL, last_thread, NULL) == 0,
	      "pthread_create");
	syscall(SYS_exit, 4);
}

/* A child that waits for a grandchild of its own. */
static void parent_too(void)
{
	wait_for(child(exits_3));
	_exit(0);
}

static void on_chld(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa = { 0 };
	sigset_t chld;
	siginfo_t si;
	pid_t pid;
	int st;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	begin();
	wait_for(child(exits_3));
	wait_for(child(terminated));
	wait_for(child(killed));
	check(waitid(P_PID, child(killed), &si, WEXITED) == 0, "waitid");
	wait_for(child(leader_first));
	wait_for(child(parent_too));
	/* blocked around the wait, as system() does: it comes when
	 * unblocked */
	sigprocmask(SIG_BLOCK, &chld, NULL);
	wait_for(child(exits_3));
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	wait_for(child(killed));
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	/* blocked and taken by sigwaitinfo: never delivered */
	sigprocmask(SIG_BLOCK, &chld, NULL);
	pid = child(exits_3);
	check(sigwaitinfo(&chld, &si) == SIGCHLD, "sigwaitinfo");
	wait_for(pid);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);
	/* a handler's signal: its line once */
	signal(SIGCHLD, on_chld);
	wait_for(child(exits_3));
	/* ignored: no signal, and the child is reaped at once */
	signal(SIGCHLD, SIG_IGN);
	check(wait4(child(exits_3), &st, 0, NULL) < 0, "wait4");
	/* reaped at once, but signalled */
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = SA_NOCLDWAIT;
	sigaction(SIGCHLD, &sa, NULL);
	check(wait4(child(exits_3), &st, 0, NULL) < 0, "wait4");
	/* blocked to the end: never delivered (and the calls made while
	 * it waits cost no more than the others) */
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	wait_for(child(exits_3));
	umask(022);
	return 0;
}
