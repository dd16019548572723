/* SPDX-License-Identifier: MIT */
/* Copies between descriptors: sendfile, copy_file_range and splice with a
 * file of the directory at one end or both and a pipe at the other,
 * offsets given or the descriptors' own, and the refusals. */
#include "fstest.h"
#include <sys/sendfile.h>

static void at(int a, int b)
{
	printf("at %ld %ld\n", (long)lseek(a, 0, SEEK_CUR),
	       (long)lseek(b, 0, SEEK_CUR));
}

int main(int argc, char **argv)
{
	char buf[128] = { 0 }, page[4096];
	int a, b, ro, ap, p[2], q[2];
	off_t o, o2;

	start(argc, argv);
	OK(a = open(P("a"), O_RDWR | O_CREAT | O_TRUNC, 0644));
	T(write(a, "0123456789abcdefghijklmnopqrstuvwxyz\n", 37));
	T(lseek(a, 0, SEEK_SET));
	OK(b = open(P("b"), O_RDWR | O_CREAT | O_TRUNC, 0644));
	OK(ro = open(P("a"), O_RDONLY));
	OK(ap = open(P("b"), O_WRONLY | O_APPEND));
	T(pipe2(p, O_NONBLOCK));	/* (a failed copy must not leave a read waiting) */
	T(sendfile(b, a, NULL, 5));
	at(a, b);
	o = 10;
	T(sendfile(b, a, &o, 6));
	printf("o %ld\n", (long)o);
	at(a, b);
	T(sendfile(b, a, NULL, 100));
	T(sendfile(p[1], a, NULL, 4));
	T(sendfile(b, a, NULL, 0));
	T(sendfile(ro, a, NULL, 4));
	T(sendfile(ap, a, NULL, 4));
	T(sendfile(b, ap, NULL, 4));
	o = -1;
	T(sendfile(b, a, &o, 4));
	T(lseek(a, 0, SEEK_SET));
	T(sendfile(p[1], a, NULL, 4));
	T(read(p[0], buf, sizeof(buf)));
	printf("pipe %s\n", buf);
	o = 20;
	T(splice(a, &o, p[1], NULL, 3, 0));
	printf("o %ld\n", (long)o);
	T(splice(a, NULL, p[1], NULL, 3, 0));
	at(a, b);
	T(splice(p[0], NULL, b, NULL, 4, 0));
	o = 2;
	T(splice(p[0], NULL, b, &o, 2, 0));
	printf("o %ld\n", (long)o);
	at(a, b);
	T(splice(a, NULL, b, NULL, 4, 0));
	T(splice(p[0], NULL, ap, NULL, 4, 0));
	T(splice(p[1], NULL, b, NULL, 4, 0));
	T(splice(a, &o, p[1], &o, 4, 0));
	/* SPLICE_F_NONBLOCK on a blocking pipe: empty or full, EAGAIN and
	 * no offset moved; with room, what was asked. */
	T(pipe(q));
	T(fcntl(q[1], F_SETPIPE_SZ, 4096));
	T(lseek(a, 0, SEEK_SET));
	T(splice(q[0], NULL, b, NULL, 4, SPLICE_F_NONBLOCK));
	memset(page, 'x', sizeof(page));
	T(write(q[1], page, sizeof(page)));
	T(splice(a, NULL, q[1], NULL, 5, SPLICE_F_NONBLOCK));
	at(a, b);
	T(read(q[0], page, sizeof(page)));
	T(splice(a, NULL, q[1], NULL, 5, SPLICE_F_NONBLOCK));
	at(a, b);
	T(splice(q[0], NULL, b, NULL, 3, SPLICE_F_NONBLOCK));
	at(a, b);
	close(q[0]), close(q[1]);
	T(ftruncate(b, 0));
	T(lseek(b, 0, SEEK_SET));
	T(lseek(a, 0, SEEK_SET));
	T(copy_file_range(a, NULL, b, NULL, 6, 0));
	at(a, b);
	o = 3, o2 = 20;
	T(copy_file_range(a, &o, b, &o2, 5, 0));
	printf("o %ld %ld\n", (long)o, (long)o2);
	at(a, b);
	o = 1000;
	T(copy_file_range(a, &o, b, NULL, 5, 0));
	T(copy_file_range(a, NULL, b, NULL, 5, 1));
	o = 0, o2 = 4;
	T(copy_file_range(a, &o, a, &o2, 8, 0));
	T(copy_file_range(a, NULL, ro, NULL, 5, 0));
	T(copy_file_range(a, NULL, ap, NULL, 5, 0));
	T(lseek(b, 0, SEEK_SET));
	memset(buf, 0, sizeof(buf));
	T(read(b, buf, sizeof(buf)));
	for (int i = 0; i < 30; i++)
		if (!buf[i])
			buf[i] = '.';
	printf("b %s\n", buf);
	close(a), close(b), close(ro), close(ap), close(p[0]), close(p[1]);
	T(unlink(P("a")));
	T(unlink(P("b")));
	return 0;
}
