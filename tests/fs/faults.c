/* SPDX-License-Identifier: MIT */
/* Bad pointers: each call answers EFAULT (or works) as the kernel's; a
 * path that ends just before an unmapped page is read whole. */
#include "fstest.h"
#include <sys/mman.h>
#include <sys/uio.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(0, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = m + page, *edge, buf[64];
	char *volatile bad = (char *)1;	/* (no compiler warnings) */
	struct iovec iov[2] = { { buf, 8 }, { none, 8 } };
	const char *f;
	struct stat st;
	int fd;

	start(argc, argv);
	f = P("f");
	if (m == MAP_FAILED || mprotect(none, page, PROT_NONE))
		return 1;
	/* "DIR/f" ending at the last byte before the unmapped page */
	edge = none - strlen(f) - 1;
	memcpy(edge, f, strlen(f) + 1);
	T(fd = open(edge, O_RDWR | O_CREAT, 0644));
	T(write(fd, "0123456789", 10));
	T(write(fd, none, 10));
	T(lseek(fd, 0, SEEK_SET));
	T(read(fd, none, 10));
	T(read(fd, bad, 10));
	T(pread(fd, buf, 4, 0));
	T(readv(fd, iov, 2));
	T(fstat(fd, (struct stat *)none));
	T(close(fd));
	T(stat(edge, &st));
	T(stat(f, (struct stat *)none));
	T(stat(bad, &st));
	T(stat(none, &st));
	T(open(none, O_RDONLY));
	T(mkdir(bad, 0755));
	T(symlink(none, P("l")));
	T(symlink("f", P("l")));
	T(readlink(P("l"), none, 10));
	T(readlink(P("l"), buf, sizeof(buf)));
	T(rename(f, none));
	T(rename(f, ""));
	T(link(f, none));
	T(unlink(edge));
	return 0;
}
