/* SPDX-License-Identifier: MIT */
/* Descriptors across fork (shared offset), vfork, execve (kept unless
 * close-on-exec), dup2 over kernel descriptors, threads, and the working
 * directory: chdir, fchdir, getcwd, relative paths and "..". */
#include "fstest.h"
#include <pthread.h>
#include <sys/wait.h>

static int tfd;

static void *thread(void *arg)
{
	(void)arg;
	if (write(tfd, "t", 1) != 1)
		printf("thread write failed\n");
	return 0;
}

int main(int argc, char **argv)
{
	char buf[4096] = { 0 };
	int fd, fd2, st;
	pid_t pid;
	pthread_t th;

	if (argc == 4 && !strcmp(argv[1], "child")) {
		/* After execve: the kept descriptor reads on, the other is
		 * gone. */
		fd = atoi(argv[2]);
		fd2 = atoi(argv[3]);
		T(read(fd, buf, 3));
		printf("child read: %.3s\n", buf);
		T(fcntl(fd2, F_GETFD));
		T(chdir("sub") == 0 && getcwd(buf, sizeof(buf)) != 0);
		T(access("../data", F_OK));
		return 0;
	}
	start(argc, argv);
	T(fd = open(P("data"), O_RDWR | O_CREAT | O_TRUNC, 0644));
	T(write(fd, "0123456789", 10));
	T(lseek(fd, 0, SEEK_SET));
	pid = fork();
	if (pid == 0) {
		if (read(fd, buf, 4) != 4)
			_exit(1);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	printf("fork child status %d\n", st);
	T(lseek(fd, 0, SEEK_CUR));
	pid = vfork();
	if (pid == 0) {
		dup2(fd, 0);
		close(fd);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	T(lseek(fd, 0, SEEK_CUR));
	T(read(fd, buf, 2));
	printf("after vfork: %.2s\n", buf);
	/* dup2 over a kernel descriptor, then back. */
	T(fd2 = dup(1));
	T(dup2(fd, 1) == 1);
	T(lseek(1, 0, SEEK_CUR));
	T(dup2(fd2, 1) == 1);
	T(close(fd2));
	T(lseek(1, 0, SEEK_CUR) == -1 ? -1 : 0);
	/* Threads share the table. */
	tfd = fd;
	pthread_create(&th, 0, thread, 0);
	pthread_join(th, 0);
	T(lseek(fd, 0, SEEK_CUR));
	/* The working directory. */
	T(mkdir(P("sub"), 0755));
	T(chdir(dir));
	T(getcwd(buf, sizeof(buf)) != 0 && !strcmp(buf, dir));
	T(access("data", R_OK));
	T(chdir("sub"));
	T(access("../data", R_OK));
	T(access("./../sub/../data", R_OK));
	T(getcwd(buf, 2));
	T(fd2 = open("..", O_RDONLY | O_DIRECTORY));
	T(fchdir(fd2));
	T(close(fd2));
	T(access("sub", F_OK));
	T(chdir("/") == 0 && chdir(dir) == 0);
	/* execve keeps fd, closes the close-on-exec one. */
	T(lseek(fd, 1, SEEK_SET));
	T(fd2 = open(P("data"), O_RDONLY | O_CLOEXEC));
	pid = fork();
	if (pid == 0) {
		char a[16], b[16];

		snprintf(a, sizeof(a), "%d", fd);
		snprintf(b, sizeof(b), "%d", fd2);
		execl("/proc/self/exe", argv[0], "child", a, b, (char *)0);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	printf("exec child status %d\n", st);
	T(lseek(fd, 0, SEEK_CUR));
	return 0;
}
