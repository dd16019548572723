/* SPDX-License-Identifier: MIT */
/* Data: read/write/pread/pwrite/readv/writev, lseek, O_APPEND, O_TRUNC,
 * truncate, holes, sizes, and a file bigger than the direct blocks. */
#include "fstest.h"
#include <sys/uio.h>

static char big[300000], back[300000];

static void show(const char *name)
{
	struct stat st;

	if (stat(P(name), &st) < 0) {
		printf("stat %s: %s\n", name, strerrorname_np(errno));
		return;
	}
	printf("%s: mode %o nlink %ld size %ld\n", name, st.st_mode,
	       (long)st.st_nlink, (long)st.st_size);
}

int main(int argc, char **argv)
{
	struct iovec iov[3];
	char buf[128] = { 0 };
	int fd, fd2, i;

	start(argc, argv);
	umask(022);
	T(fd = open(P("a"), O_RDWR | O_CREAT | O_TRUNC, 0666));
	T(write(fd, "hello world\n", 12));
	T(lseek(fd, 0, SEEK_CUR));
	T(lseek(fd, 6, SEEK_SET));
	T(read(fd, buf, 100));
	printf("read: %s", buf);
	T(read(fd, buf, 100));
	T(pwrite(fd, "W", 1, 6));
	T(pread(fd, buf, 5, 6));
	printf("pread: %.5s\n", buf);
	T(lseek(fd, 100, SEEK_SET));
	T(write(fd, "end", 3));
	show("a");
	T(pread(fd, buf, 10, 95));
	printf("hole: %d %d %d %.3s\n", buf[0], buf[1], buf[4], buf + 5);
	T(lseek(fd, 0, SEEK_END));
	T(ftruncate(fd, 5));
	show("a");
	T(ftruncate(fd, 20));
	T(pread(fd, buf, 20, 0));
	printf("after grow: %.5s %d %d\n", buf, buf[5], buf[19]);
	iov[0].iov_base = "ab";
	iov[0].iov_len = 2;
	iov[1].iov_base = "";
	iov[1].iov_len = 0;
	iov[2].iov_base = "cde";
	iov[2].iov_len = 3;
	T(lseek(fd, 0, SEEK_SET));
	T(writev(fd, iov, 3));
	T(lseek(fd, 0, SEEK_SET));
	memset(buf, 0, sizeof(buf));
	iov[0].iov_base = buf;
	iov[0].iov_len = 3;
	iov[1].iov_base = buf + 10;
	iov[1].iov_len = 2;
	T(readv(fd, iov, 2));
	printf("readv: %.3s %.2s\n", buf, buf + 10);
	T(close(fd));
	T(fd = open(P("a"), O_WRONLY | O_APPEND));
	T(write(fd, "++", 2));
	T(lseek(fd, 0, SEEK_CUR));
	T(close(fd));
	show("a");
	T(fd = open(P("a"), O_RDONLY | O_TRUNC));
	T(close(fd));
	T(fd = open(P("a"), O_WRONLY | O_TRUNC));
	T(close(fd));
	show("a");
	T(truncate(P("a"), 3));
	show("a");
	/* Past the direct and into the indirect blocks. */
	for (i = 0; i < (int)sizeof(big); i++)
		big[i] = i * 7 + i / 4096;
	T(fd = open(P("big"), O_RDWR | O_CREAT, 0600));
	T(write(fd, big, sizeof(big)));
	T(pread(fd, back, sizeof(back), 0));
	printf("big equal: %d\n", !memcmp(big, back, sizeof(big)));
	T(ftruncate(fd, 50000));
	T(ftruncate(fd, 300000));
	T(pread(fd, back, sizeof(back), 0));
	printf("big after shrink: %d %d\n", !memcmp(big, back, 50000),
	       back[50000] == 0 && back[299999] == 0);
	T(close(fd));
	show("big");
	/* Two descriptions, two offsets; dup shares one. */
	T(fd = open(P("a"), O_RDONLY));
	T(fd2 = open(P("a"), O_RDONLY));
	T(read(fd, buf, 1));
	T(lseek(fd2, 0, SEEK_CUR));
	T(close(fd2));
	T(fd2 = dup(fd));
	T(read(fd2, buf, 1));
	T(lseek(fd, 0, SEEK_CUR));
	T(fcntl(fd, F_GETFL) & (O_ACCMODE | O_APPEND));
	T(fcntl(fd, F_SETFL, O_APPEND));
	T(fcntl(fd2, F_GETFL) & (O_ACCMODE | O_APPEND));
	T(close(fd));
	T(close(fd));
	T(read(fd, buf, 1));
	T(close(fd2));
	/* Unlinked while open: still readable. */
	T(fd = open(P("a"), O_RDONLY));
	T(unlink(P("a")));
	T(pread(fd, buf, 3, 0));
	show("a");
	T(close(fd));
	return 0;
}
