/* SPDX-License-Identifier: MIT */
/* Symbolic links: symlink, readlink, lstat against stat, links followed in
 * the middle and at the end of a path (or not: O_NOFOLLOW, O_EXCL,
 * AT_SYMLINK_NOFOLLOW, unlink, rename, mkdir), relative, absolute and
 * dangling targets, loops, and the type getdents64 reports. */
#include "fstest.h"
#include <dirent.h>
#include <sys/syscall.h>

static void rl(const char *name, size_t size)
{
	char buf[256];
	ssize_t n;

	errno = 0;
	n = readlink(P(name), buf, size);
	if (n < 0)
		printf("readlink %s = -1 %s\n", name, strerrorname_np(errno));
	else
		printf("readlink %s = %zd \"%.*s\"\n", name, n, (int)n, buf);
}

static void st(const char *name, int follow)
{
	struct stat s;
	int r;

	errno = 0;
	r = follow ? stat(P(name), &s) : lstat(P(name), &s);
	if (r < 0) {
		printf("%s %s = -1 %s\n", follow ? "stat" : "lstat", name,
		       strerrorname_np(errno));
		return;
	}
	printf("%s %s = 0 type %o perm %o size %ld nlink %ld\n",
	       follow ? "stat" : "lstat", name, s.st_mode & S_IFMT,
	       follow || !S_ISLNK(s.st_mode) ? s.st_mode & 07777 : 0777,
	       S_ISDIR(s.st_mode) ? 0L : (long)s.st_size, (long)s.st_nlink);
}

/* names and d_type, sorted by name */
static void list(const char *name)
{
	char buf[4096], names[32][300];
	int fd = open(P(name), O_RDONLY | O_DIRECTORY), n = 0, i, j;
	long len, off;

	if (fd < 0)
		return;
	while ((len = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (off = 0; off < len && n < 32;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);

			if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
				snprintf(names[n++], 300, "%s:%d", d->d_name,
					 d->d_type);
			off += d->d_reclen;
		}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char t[300];

			strcpy(t, names[j]);
			strcpy(names[j], names[j - 1]);
			strcpy(names[j - 1], t);
		}
	for (i = 0; i < n; i++)
		printf("%s%s", i ? " " : "list: ", names[i]);
	printf("\n");
	close(fd);
}

int main(int argc, char **argv)
{
	char abs[4096], buf[64];
	int fd;

	start(argc, argv);
	/* a dangling link, made real by O_CREAT through it */
	T(symlink("t", P("l")));
	rl("l", 256);
	rl("l", 1);
	st("l", 0);
	st("l", 1);
	T(open(P("l"), O_RDONLY));
	T(open(P("l"), O_WRONLY | O_CREAT | O_EXCL, 0644));
	T(fd = open(P("l"), O_WRONLY | O_CREAT, 0640));
	T(write(fd, "hello", 5));
	T(close(fd));
	st("t", 1);
	st("l", 1);
	T(open(P("l"), O_RDONLY | O_NOFOLLOW));
	T(open(P("l/"), O_RDONLY));

	/* a link to a directory, in the middle of paths */
	T(mkdir(P("d"), 0755));
	T(symlink("d", P("ld")));
	T(fd = open(P("ld/f"), O_RDWR | O_CREAT, 0600));
	T(close(fd));
	st("d/f", 1);
	st("ld", 0);
	st("ld/", 0);
	st("ld/.", 1);
	T(rmdir(P("ld")));
	T(unlink(P("ld/")));
	T(mkdir(P("ld"), 0755));
	T(symlink("../t", P("d/up")));
	T(fd = open(P("ld/up"), O_RDONLY));
	T(read(fd, buf, sizeof(buf)));
	T(close(fd));
	T(symlink("d/../t", P("dt")));
	st("dt", 1);
	st("l/x", 1);

	/* absolute targets: into the directory, and out to /dev/null */
	snprintf(abs, sizeof(abs), "%s/d/f", dir);
	T(symlink(abs, P("abs")));
	st("abs", 1);
	T(symlink("/dev/null", P("null")));
	T(fd = open(P("null"), O_WRONLY));
	T(write(fd, "gone", 4));
	T(close(fd));
	st("null", 1);

	/* loops, empty and existing names, readlink of a file */
	T(symlink("loop", P("loop")));
	st("loop", 1);
	st("loop", 0);
	T(open(P("loop"), O_RDONLY));
	T(symlink("", P("empty")));
	T(symlink("x", P("t")));
	T(mkdir(P("l"), 0755));
	rl("t", 256);
	rl("nothing", 256);
	T(readlink(P("l"), buf, 0));

	/* the link itself: rename, hard link, chown, utimensat, unlink */
	T(rename(P("l"), P("l2")));
	rl("l2", 256);
	T(link(P("l2"), P("l3")));
	st("l3", 0);
	T(linkat(AT_FDCWD, P("l2"), AT_FDCWD, P("l4"), AT_SYMLINK_FOLLOW));
	st("l4", 0);
	st("t", 0);
	T(lchown(P("l2"), -1, -1));
	T(utimensat(AT_FDCWD, P("l2"), 0, AT_SYMLINK_NOFOLLOW));
	T(faccessat(AT_FDCWD, P("l2"), R_OK, AT_SYMLINK_NOFOLLOW));
	T(chmod(P("l2"), 0600));
	st("t", 1);
	list("");
	T(unlink(P("l2")));
	T(unlink(P("l3")));
	st("t", 1);
	return 0;
}
