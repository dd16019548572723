/* SPDX-License-Identifier: MIT */
/*
 * Goes on in two processes after its first getppid, which
 * tests/hooks/forkcb.so answers with fork's result (natively, or
 * without the hook, it forks itself when getppid returns a pid).  Each
 * process then opens a path of its own (the child writes its path into
 * the buffer the parent also uses, after the fork: a tracer reading the
 * wrong process's memory prints the parent's), takes a signal, starts
 * and joins a thread, and forks once more; the parent waits for its
 * child and says how it ended.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static char path[64] = "/nonexistent/forkcb-parent";

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

static void *thread(void *arg)
{
	return arg;
}

static int rest(const char *who)
{
	pthread_t th;
	void *r;
	int st;
	pid_t p;

	if (open(path, O_RDONLY) >= 0)
		return 1;
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	if (!got || pthread_create(&th, 0, thread, (void *)who) ||
	    pthread_join(th, &r) || r != who)
		return 2;
	p = fork();
	if (p == 0)
		_exit(syscall(SYS_getpid) == getpid() ? 7 : 8);
	if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 7)
		return 3;
	return 0;
}

int main(void)
{
	long r = syscall(SYS_getppid);
	int st, e;

	if (r == getppid())	/* no hook: fork here */
		r = fork();
	if (r < 0)
		return 9;
	if (r == 0) {
		strcpy(path, "/nonexistent/forkcb-child");
		return rest("child");
	}
	e = rest("parent");
	if (waitpid(r, &st, 0) != r)
		return 10;
	printf("parent %d, child %s %d\n", e,
	       WIFEXITED(st) ? "exited" : "killed",
	       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return e;
}
