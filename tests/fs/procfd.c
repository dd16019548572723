/* SPDX-License-Identifier: MIT */
/* Run in a sandbox (see compare.sh).  Descriptors named as paths:
 * /proc/self/fd/N, /proc/PID/fd/N, /proc/thread-self/fd/N, /dev/fd/N,
 * /dev/stdin, /proc/self/cwd, their readlink, /proc/self/fdinfo/N,
 * AT_EMPTY_PATH on each *at call, fchdir and relative paths,
 * openat(fd, "..").  Each must reach the file in DIR (under --fs: ours),
 * never what stands for the descriptor in the kernel. */
#include "fstest.h"
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

static char lnk[64];

/* /proc/self/fd/N and the like for descriptor fd */
static const char *via(const char *fmt, int fd)
{
	snprintf(lnk, sizeof(lnk), fmt, fd);
	return lnk;
}

static void mode_of(const char *name)
{
	struct stat s;

	if (stat(P(name), &s) < 0)
		printf("stat %s: %s\n", name, strerrorname_np(errno));
	else
		printf("%s: mode %o uid %d gid %d mtime %s size %ld\n", name,
		       s.st_mode, (int)s.st_uid, (int)s.st_gid,
		       s.st_mtime == 1200000000 ? "set" : "other",
		       S_ISDIR(s.st_mode) ? 0L : (long)s.st_size);
}

/* readlink, printed relative to DIR */
static void rl(const char *path)
{
	char buf[4096];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	size_t dl = strlen(dir);

	if (n < 0) {
		printf("readlink: %s\n", strerrorname_np(errno));
		return;
	}
	buf[n] = 0;
	printf("readlink: %s\n", !strncmp(buf, dir, dl) ? buf + dl : buf);
}

static void fdinfo(int fd)
{
	char buf[256], *line;
	FILE *f = fopen(via("/proc/self/fdinfo/%d", fd), "r");

	if (!f) {
		printf("fdinfo: %s\n", strerrorname_np(errno));
		return;
	}
	while ((line = fgets(buf, sizeof(buf), f)))
		if (!strncmp(line, "pos:", 4) || !strncmp(line, "flags:", 6))
			printf("fdinfo %s", line);
	fclose(f);
}

int main(int argc, char **argv)
{
	struct timespec ts[2] = { { 1000000000, 0 }, { 1200000000, 0 } };
	struct stat s;
	char buf[64];
	int d, f, p, cwd;
	ssize_t n;

	start(argc, argv);
	umask(077);
	T(mkdir(P("d"), 0700));
	T(d = open(P("d"), O_PATH | O_DIRECTORY));
	/* tar: chmod, chown, utimensat through the descriptor's link */
	T(chmod(via("/proc/self/fd/%d", d), 0755));
	T(chown(via("/proc/self/fd/%d", d), 1234, 5678));
	T(utimensat(AT_FDCWD, via("/proc/self/fd/%d", d), ts, 0));
	mode_of("d");
	rl(via("/proc/self/fd/%d", d));
	rl(via("/dev/fd/%d", d));
	snprintf(buf, sizeof(buf), "/proc/%d/fd/%%d", (int)getpid());
	rl(via(buf, d));
	rl(via("/proc/thread-self/fd/%d", d));
	/* creating and opening through the link of a directory */
	snprintf(buf, sizeof(buf), "/proc/self/fd/%d/f", d);
	T(f = open(buf, O_CREAT | O_RDWR, 0640));
	T(write(f, "hello", 5));
	mode_of("d/f");
	rl(via("/proc/self/fd/%d", f));
	fdinfo(f);
	fdinfo(d);
	T(p = open(via("/dev/fd/%d", f), O_RDONLY));
	T(read(p, buf, sizeof(buf)));
	T(close(p));
	T(truncate(via("/proc/self/fd/%d", f), 3));
	T(fchmodat(AT_FDCWD, via("/dev/fd/%d", f), 0604, 0));
	mode_of("d/f");
	/* calls on the link itself: /proc's, never the file */
	T(unlink(via("/proc/self/fd/%d", f)));
	T(rename(via("/proc/self/fd/%d", f), P("d/moved")));
	T(rmdir(via("/proc/self/fd/%d", d)));
	T(symlink("x", via("/proc/self/fd/%d", f)));
	T(mkdir(via("/proc/self/fd/%d", d), 0700));
	mode_of("d/f");
	mode_of("d/moved");
	/* AT_EMPTY_PATH on each *at call that takes it */
	T(fstatat(d, "", &s, AT_EMPTY_PATH) == 0 && S_ISDIR(s.st_mode));
	T(fchownat(f, "", 11, 12, AT_EMPTY_PATH));
	T(syscall(SYS_utimensat, f, NULL, ts, 0));
	T(syscall(SYS_faccessat2, f, "", R_OK, AT_EMPTY_PATH));
	T(fstatat(f, "", &s, 0));
	/* Linux 6.11: NULL for "" (older kernels: EFAULT, both runs) */
	T(syscall(SYS_newfstatat, f, NULL, &s, AT_EMPTY_PATH) < 0 ||
	  s.st_size == 3);
	T(linkat(f, "", d, "g", AT_EMPTY_PATH));
	mode_of("d/g");
	T(linkat(AT_FDCWD, via("/proc/self/fd/%d", f), d, "h",
		 AT_SYMLINK_FOLLOW));
	mode_of("d/h");
	/* fchdir, relative paths, the working directory's link */
	T(cwd = open(".", O_PATH | O_DIRECTORY));
	T(p = open(P("d"), O_RDONLY | O_DIRECTORY));
	T(fchdir(p));
	T(close(p));
	T(mkdir("sub", 0750));
	T(chmod(".", 0711));
	T(fstatat(AT_FDCWD, "", &s, AT_EMPTY_PATH) == 0 && s.st_mode == 040711);
	rl("/proc/self/cwd");
	T(access("/proc/self/cwd/sub", X_OK));
	T(fchdir(cwd));
	mode_of("d");
	mode_of("d/sub");
	/* openat(fd, "..") and a descriptor of the prefix's parent */
	snprintf(buf, sizeof(buf), "%s/d/sub", dir);
	T(p = open(buf, O_PATH));
	T(fstatat(p, "..", &s, 0) == 0 && s.st_mode == 040711);
	T(close(p));
	/* relative to a kernel directory above DIR (rsync walks down from /) */
	T(p = open("/", O_PATH | O_DIRECTORY));
	T(fstatat(p, P("d") + 1, &s, AT_SYMLINK_NOFOLLOW) == 0 &&
	  s.st_mode == 040711);
	T(mkdirat(p, P("d/k") + 1, 0700));
	mode_of("d/k");
	T(close(p));
	/* stdin from a file of ours */
	T(p = open(P("d/f"), O_RDONLY));
	T(dup2(p, 0));
	n = readlink("/dev/stdin", buf, sizeof(buf));
	printf("readlink /dev/stdin: %.*s\n", (int)n, buf);
	rl("/dev/fd/0");
	T(lstat(via("/proc/self/fd/%d", 0), &s) == 0 && S_ISLNK(s.st_mode));
	T(stat("/dev/stdin", &s) == 0 && s.st_size == 3);
	/* a child's own /proc/PID */
	if (fork() == 0) {
		snprintf(buf, sizeof(buf), "/proc/%d/fd/%%d", (int)getpid());
		T(chmod(via(buf, f), 0600));
		_exit(0);
	}
	wait(0);
	mode_of("d/f");
	return 0;
}
