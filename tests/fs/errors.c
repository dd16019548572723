/* SPDX-License-Identifier: MIT */
/* Error parity: each call fails (or not) as the kernel's tmpfs says. */
#include "fstest.h"
#include <dirent.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int fd;

	start(argc, argv);
	T(open(P("missing"), O_RDONLY));
	T(open(P("missing/x"), O_RDONLY | O_CREAT, 0644));
	T(mkdir(P("d"), 0755));
	T(mkdir(P("d"), 0755));
	T(mkdir(P("d/."), 0755));
	T(mkdir(P("missing/x"), 0755));
	T(fd = open(P("f"), O_WRONLY | O_CREAT | O_EXCL, 0644));
	T(close(fd));
	T(open(P("f"), O_WRONLY | O_CREAT | O_EXCL, 0644));
	T(open(P("f/"), O_RDONLY));
	T(open(P("f/x"), O_RDONLY));
	T(open(P("f/x"), O_RDONLY | O_CREAT, 0644));
	T(open(P("new/"), O_RDONLY | O_CREAT, 0644));
	T(open(P("d"), O_WRONLY));
	T(open(P("d"), O_RDWR));
	T(open(P("f"), O_RDONLY | O_DIRECTORY));
	T(mkdir(P("f/x"), 0755));
	T(unlink(P("d")));
	T(unlink(P("missing")));
	T(unlink(P("f/")));
	T(rmdir(P("f")));
	T(rmdir(P("missing")));
	T(rmdir(P("d/.")));
	T(rmdir(P("d/..")));
	T(mkdir(P("d/e"), 0755));
	T(rmdir(P("d")));
	T(rename(P("missing"), P("x")));
	T(rename(P("f"), P("d")));
	T(rename(P("d"), P("f")));
	T(rename(P("d"), P("d/e/g")));
	T(mkdir(P("d2"), 0755));
	T(mkdir(P("d2/z"), 0755));
	T(rename(P("d"), P("d2")));
	T(rmdir(P("d2/z")));
	T(rename(P("d"), P("d2")));
	T(access(P("d2/e"), F_OK));
	T(access(P("d"), F_OK));
	T(rename(P("f"), P("f")));
	T(rename(P("f"), P("missing/f")));
	T(rename(P("f/"), P("g")));
	T(renameat2(AT_FDCWD, P("f"), AT_FDCWD, P("d2"), RENAME_NOREPLACE));
	T(renameat2(AT_FDCWD, P("f"), AT_FDCWD, P("nope"), RENAME_EXCHANGE));
	T(truncate(P("d2"), 0));
	T(truncate(P("missing"), 0));
	T(truncate(P("f"), -1));
	T(read(12345, pbuf[0], 1));
	T(close(12345));
	T(fd = open(P("f"), O_RDONLY));
	T(write(fd, "x", 1));
	T(ftruncate(fd, 0));
	T(lseek(fd, -1, SEEK_SET));
	T(lseek(fd, 0, 99));
	T(close(fd));
	T(fd = open(P("d2"), O_RDONLY | O_DIRECTORY));
	T(read(fd, pbuf[0], 1));
	T(unlinkat(fd, "e", 0));
	T(unlinkat(fd, "e", AT_REMOVEDIR));
	T(unlinkat(fd, "e", AT_REMOVEDIR));
	T(mkdirat(fd, "e", 0700));
	T(faccessat(fd, "e", R_OK | W_OK, 0));
	T(faccessat(fd, "e", 99, 0));
	T(close(fd));
	T(fd = open(P("f"), O_RDONLY));
	T(openat(fd, "x", O_RDONLY));
	T(mkdirat(fd, "x", 0700));
	T(close(fd));
	T(link(P("f"), P("f2")));
	T(link(P("f"), P("f2")));
	T(link(P("d2"), P("d3")));
	T(unlink(P("f2")));
	T(chdir(P("f")));
	T(chdir(P("missing")));
	return 0;
}
