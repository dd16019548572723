/* SPDX-License-Identifier: MIT */
/*
 * Lines written while another task waits in a call (tests/cli
 * lines-in-time-order): "threads": a thread waits in read() on a pipe
 * while the main thread makes calls, then writes to the pipe; "fork": the
 * parent waits in wait4() while its child makes calls.  Each waiter is
 * seen blocked (/proc's "syscall" file names its call) before the other
 * goes on, so the waiting call's line always has other lines inside it.
 * "exit-group": three threads wait in read() when the main thread ends
 * the process (their "= ?" and "+++ exited" lines come from it).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int p[2];
static volatile pid_t reader;

/* Until task tid of process pid is blocked in system call nr. */
static void wait_blocked(pid_t pid, pid_t tid, long nr)
{
	char path[64], buf[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	for (;;) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

		if (fd >= 0)
			close(fd);
		if (n > 0 && atol(buf) == nr)
			return;
		usleep(1000);
	}
}

static void *read_one(void *arg)
{
	char c;

	(void)arg;
	reader = syscall(SYS_gettid);
	return (void *)(long)read(p[0], &c, 1);
}

int main(int argc, char **argv)
{
	pthread_t t;
	pid_t child;
	int st;

	if (argc > 1 && !strcmp(argv[1], "threads")) {
		if (pipe(p) || pthread_create(&t, 0, read_one, 0))
			return 1;
		while (!reader)
			usleep(1000);
		wait_blocked(getpid(), reader, SYS_read);
		getppid();
		if (write(p[1], "x", 1) != 1)
			return 1;
		return pthread_join(t, 0);
	}
	if (argc > 1 && !strcmp(argv[1], "exit-group")) {
		pid_t seen = 0;
		int i;

		if (pipe(p))
			return 1;
		for (i = 0; i < 3; i++) {
			if (pthread_create(&t, 0, read_one, 0))
				return 1;
			while (reader == seen)
				usleep(1000);
			seen = reader;
			wait_blocked(getpid(), seen, SYS_read);
		}
		exit(0);
	}
	if (argc > 1 && !strcmp(argv[1], "fork")) {
		child = fork();
		if (!child) {
			wait_blocked(getppid(), getppid(), SYS_wait4);
			getppid();
			_exit(0);
		}
		return waitpid(child, &st, 0) != child;
	}
	return 2;
}
