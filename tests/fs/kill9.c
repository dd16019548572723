/* SPDX-License-Identifier: MIT */
/* A process killed by SIGKILL gives back what it held: its own open file
 * descriptions and its share of inherited ones (and with them their
 * flock and OFD locks), and its POSIX locks. */
#include "fstest.h"
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>

static int lk(int fd, int cmd, int type, long start, long len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET,
			    .l_start = start, .l_len = len };

	return fcntl(fd, cmd, &fl);
}

/* Run body in a child that then waits to be killed; 0 once it is ready. */
static pid_t holder(void (*body)(int), int fd)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p) || (pid = fork()) < 0)
		exit(2);
	if (!pid) {
		body(fd);
		if (write(p[1], "", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		exit(2);
	close(p[0]);
	return pid;
}

static void kill9(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	printf("killed: %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
}

static void own(int unused)
{
	int a = open(P("k"), O_RDWR), b = open(P("k"), O_RDWR);

	(void)unused;
	if (flock(a, LOCK_EX) || lk(a, F_OFD_SETLK, F_WRLCK, 0, 10) ||
	    lk(b, F_SETLK, F_WRLCK, 20, 10))
		_exit(4);
}

static void inherited(int fd)
{
	if (flock(fd, LOCK_EX | LOCK_NB))
		_exit(4);
}

int main(int argc, char **argv)
{
	int fd, fd2;
	pid_t pid;

	start(argc, argv);
	T(fd = open(P("k"), O_RDWR | O_CREAT, 0644));
	pid = holder(own, 0);
	T(flock(fd, LOCK_EX | LOCK_NB));
	T(lk(fd, F_OFD_SETLK, F_RDLCK, 5, 1));
	T(lk(fd, F_SETLK, F_RDLCK, 25, 1));
	kill9(pid);
	T(flock(fd, LOCK_EX | LOCK_NB));
	T(lk(fd, F_OFD_SETLK, F_WRLCK, 0, 30));
	T(flock(fd, LOCK_UN));
	T(lk(fd, F_OFD_SETLK, F_UNLCK, 0, 0));

	/* the child's flock is on the description it shares with me: it
	 * stays while either holds a reference, and goes with the last */
	pid = holder(inherited, fd);
	T(close(fd));
	T(fd2 = open(P("k"), O_RDWR));
	T(flock(fd2, LOCK_EX | LOCK_NB));
	kill9(pid);
	T(flock(fd2, LOCK_EX | LOCK_NB));
	return 0;
}
