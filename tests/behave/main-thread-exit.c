/* SPDX-License-Identifier: MIT */
/*
 * The main thread calls pthread_exit and another thread goes on: the
 * process id now names a thread with no memory.  sysgate once read and
 * wrote the program's memory by that id, so every call whose arguments
 * it reads (sigaction, sigprocmask) failed with EFAULT from then on, and
 * the trace printed only addresses.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "../lib/util.h"

static void handler(int sig)
{
	(void)sig;
}

/* Whether the main thread has ended (a zombie, or gone), waiting for it
 * a while. */
static int main_gone(void)
{
	char path[64], buf[256], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)getpid());
	for (i = 0; i < 10000; i++) {
		int fd = open(path, O_RDONLY);
		ssize_t n;

		if (fd < 0)
			return 1;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = 0;
		p = strrchr(buf, ')');
		if (p && (p[2] == 'Z' || p[2] == 'X'))
			return 1;
		usleep(1000);
	}
	return 0;
}

static void *rest(void *arg)
{
	struct sigaction sa = { .sa_handler = handler }, old;
	sigset_t set, was;
	int fd[2];
	char c = 0;

	(void)arg;
	printf("main thread gone: %d\n", main_gone());
	printf("sigaction: %d\n", sigaction(SIGUSR1, &sa, &old) ? errno : 0);
	printf("old action: %s\n", old.sa_handler == SIG_DFL ? "default" : "?");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	printf("sigmask: %d\n", pthread_sigmask(SIG_BLOCK, &set, &was));
	printf("mask read back: %d\n",
	       pthread_sigmask(SIG_BLOCK, NULL, &was) == 0 &&
		       sigismember(&was, SIGUSR2));
	test_assert(pipe(fd) == 0);
	test_assert(write(fd[1], "y", 1) == 1);
	test_assert(read(fd[0], &c, 1) == 1);
	printf("pipe: %c\n", c);
	printf("raise: %d\n", raise(SIGUSR1));
	fflush(stdout);
	return 0;
}

int main(void)
{
	pthread_t t;

	test_assert(pthread_create(&t, 0, rest, 0) == 0);
	pthread_exit(0);
}
