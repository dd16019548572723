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
 * "fiemap FILE": the main thread asks FS_IOC_FIEMAP of FILE (run with its
 * ioctl delayed at exit) while a thread, once the main thread sleeps in
 * that delay (nanosleep), makes a call.  "fiemap-probe FILE": exit 77
 * where FILE's file system has no FIEMAP.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
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

static pid_t main_tid;

static void *after_sleep(void *arg)
{
	(void)arg;
	wait_blocked(getpid(), main_tid, SYS_nanosleep);
	getppid();
	return 0;
}

/* FS_IOC_FIEMAP of path, room for one extent */
static int fiemap(const char *path)
{
	struct {
		struct fiemap m;
		struct fiemap_extent e[1];
	} f;
	int fd = open(path, O_RDONLY), r;

	memset(&f, 0, sizeof(f));
	f.m.fm_length = ~0ULL;
	f.m.fm_extent_count = 1;
	r = fd < 0 ? -1 : ioctl(fd, FS_IOC_FIEMAP, &f);
	if (fd >= 0)
		close(fd);
	return r;
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
	if (argc > 2 && !strcmp(argv[1], "fiemap-probe"))
		return fiemap(argv[2]) ? 77 : 0;
	if (argc > 2 && !strcmp(argv[1], "fiemap")) {
		main_tid = syscall(SYS_gettid);
		if (pthread_create(&t, 0, after_sleep, 0) || fiemap(argv[2]))
			return 1;
		return pthread_join(t, 0);
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
