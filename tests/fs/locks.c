/* SPDX-License-Identifier: MIT */
/* flock, POSIX and OFD record locks between processes: conflicts, F_GETLK
 * answers (ranges merged as the kernel merges them), release by close and
 * by exit, blocking waits, and bad requests. */
#include "fstest.h"
#include <sys/file.h>
#include <sys/wait.h>

static int to_child[2], to_parent[2];

static void say(int fd)
{
	char c = 1;

	if (write(fd, &c, 1) != 1)
		exit(3);
}

static void hear(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		exit(3);
}

static int lk(int fd, int cmd, int type, long start, long len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET,
			    .l_start = start, .l_len = len };

	return fcntl(fd, cmd, &fl);
}

/* F_GETLK / F_OFD_GETLK for [start, start+len): what is in the way */
static void show(int fd, int cmd, int type, long start, long len,
		 pid_t parent)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET,
			    .l_start = start, .l_len = len };

	if (fcntl(fd, cmd, &fl) < 0) {
		printf("getlk: %s\n", strerrorname_np(errno));
		return;
	}
	printf("getlk: type %d start %ld len %ld pid %s\n", fl.l_type,
	       (long)fl.l_start, (long)fl.l_len,
	       fl.l_type == F_UNLCK ? "-" :
	       fl.l_pid == parent ? "parent" :
	       fl.l_pid == -1 ? "-1" : "other");
}

static void child(pid_t parent)
{
	int fd = open(P("l"), O_RDWR), fd2, a, b;

	/* flock: the parent holds LOCK_EX on its own open */
	hear(to_child[0]);
	T(flock(fd, LOCK_EX | LOCK_NB));
	T(flock(fd, LOCK_SH | LOCK_NB));
	say(to_parent[1]);
	hear(to_child[0]);	/* the parent let go */
	T(flock(fd, LOCK_SH | LOCK_NB));
	say(to_parent[1]);
	hear(to_child[0]);	/* the parent holds LOCK_SH too, and POSIX
				   F_WRLCK on [0, 10) and [10, 20) */
	T(flock(fd, LOCK_UN));
	T(lk(fd, F_SETLK, F_WRLCK, 5, 10));
	T(lk(fd, F_SETLK, F_RDLCK, 25, 5));
	show(fd, F_GETLK, F_RDLCK, 0, 100, parent);
	show(fd, F_GETLK, F_RDLCK, 20, 0, parent);
	/* OFD locks share the space with POSIX ones, even my own */
	T(lk(fd, F_OFD_SETLK, F_RDLCK, 15, 1));
	T(lk(fd, F_OFD_SETLK, F_RDLCK, 35, 1));
	show(fd, F_OFD_GETLK, F_WRLCK, 24, 10, parent);
	say(to_parent[1]);
	hear(to_child[0]);	/* the parent closed a second descriptor */
	T(lk(fd, F_SETLK, F_WRLCK, 5, 10));
	say(to_parent[1]);
	/* blocking: the parent holds [40, 50) and LOCK_EX for a while */
	hear(to_child[0]);
	a = lk(fd, F_SETLKW, F_WRLCK, 45, 1);
	b = flock(fd, LOCK_EX);
	hear(to_child[0]);	/* the parent has printed its part */
	printf("child waited: %d %d\n", a, b);
	/* a child's locks go with it */
	fd2 = dup(fd);
	T(lk(fd2, F_SETLK, F_WRLCK, 60, 1));
	exit(0);
}

int main(int argc, char **argv)
{
	int fd, fd2, a, b, st;
	pid_t pid, me = getpid();

	start(argc, argv);
	T(fd = open(P("l"), O_RDWR | O_CREAT, 0644));
	T(write(fd, "0123456789", 10));
	T(pipe(to_child));
	T(pipe(to_parent));
	fflush(stdout);
	if ((pid = fork()) == 0)
		child(me);

	T(flock(fd, LOCK_EX));
	say(to_child[1]);
	hear(to_parent[0]);
	T(flock(fd, LOCK_UN));
	say(to_child[1]);
	hear(to_parent[0]);
	T(flock(fd, LOCK_SH | LOCK_NB));
	T(lk(fd, F_SETLK, F_WRLCK, 0, 10));
	T(lk(fd, F_SETLK, F_WRLCK, 10, 10));	/* merges with [0, 10) */
	say(to_child[1]);
	hear(to_parent[0]);
	/* my own POSIX locks never stand in my way; the child's do */
	show(fd, F_GETLK, F_WRLCK, 0, 0, me);
	show(fd, F_OFD_GETLK, F_WRLCK, 0, 0, me);
	/* closing any descriptor of the file drops my POSIX locks */
	T(fd2 = open(P("l"), O_RDONLY));
	T(close(fd2));
	say(to_child[1]);
	hear(to_parent[0]);
	T(lk(fd, F_SETLK, F_WRLCK, 40, 10));
	T(flock(fd, LOCK_EX | LOCK_NB));	/* converts my LOCK_SH */
	say(to_child[1]);
	usleep(200 * 1000);
	T(lk(fd, F_SETLK, F_UNLCK, 40, 10));
	T(flock(fd, LOCK_UN));
	say(to_child[1]);
	T(waitpid(pid, &st, 0) == pid);
	printf("child exit %d\n", WEXITSTATUS(st));
	T(lk(fd, F_SETLK, F_WRLCK, 0, 0));	/* its locks went with it */
	T(lk(fd, F_SETLK, F_UNLCK, 0, 0));

	/* OFD locks: two opens in one process do conflict */
	T(a = open(P("l"), O_RDWR));
	T(b = open(P("l"), O_RDWR));
	T(lk(a, F_OFD_SETLK, F_WRLCK, 100, 10));
	T(lk(b, F_OFD_SETLK, F_RDLCK, 105, 1));
	show(b, F_OFD_GETLK, F_RDLCK, 0, 0, me);
	T(close(a));	/* the last close of that open file description */
	T(lk(b, F_OFD_SETLK, F_RDLCK, 105, 1));

	/* bad requests */
	T(b = open(P("l"), O_RDONLY));
	T(lk(b, F_SETLK, F_WRLCK, 0, 1));
	T(lk(b, F_SETLK, 7, 0, 1));
	T(lk(b, F_GETLK, F_UNLCK, 0, 1));
	T(lk(b, F_SETLK, F_RDLCK, -5, 1));
	T(lk(b, F_SETLK, F_RDLCK, 5, -6));
	{
		struct flock fl = { .l_type = F_RDLCK, .l_pid = 1 };

		T(fcntl(b, F_OFD_SETLK, &fl));
	}
	T(flock(b, 3));
	T(flock(b, LOCK_EX | LOCK_NB));
	T(b = open(P("l"), O_PATH));
	T(flock(b, LOCK_EX));
	T(lk(b, F_SETLK, F_RDLCK, 0, 1));
	return 0;
}
