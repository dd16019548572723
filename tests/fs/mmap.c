/* SPDX-License-Identifier: MIT */
/* mmap of a file: shared mappings see write() and write() sees stores;
 * private mappings do not write back. */
#include "fstest.h"
#include <sys/mman.h>

int main(int argc, char **argv)
{
	char buf[16] = { 0 }, *m, *p;
	int fd;

	start(argc, argv);
	T(fd = open(P("m"), O_RDWR | O_CREAT | O_TRUNC, 0644));
	T(ftruncate(fd, 10000));
	T(pwrite(fd, "abc", 3, 8000));
	m = mmap(0, 10000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("shared map ok: %d\n", m != MAP_FAILED);
	if (m == MAP_FAILED)
		return 1;
	printf("sees write: %.3s %d\n", m + 8000, m[0]);
	memcpy(m + 100, "XYZ", 3);
	T(pread(fd, buf, 3, 100));
	printf("read sees store: %.3s\n", buf);
	T(pwrite(fd, "Q", 1, 9000));
	printf("map sees later write: %c\n", m[9000]);
	p = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 4096);
	printf("private map ok: %d\n", p != MAP_FAILED);
	p[0] = 'P';
	T(pread(fd, buf, 1, 4096));
	printf("private store stays: %d\n", buf[0]);
	T(munmap(m, 10000));
	T(munmap(p, 4096));
	T(close(fd));
	T(fd = open(P("m"), O_RDONLY));
	T(mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED ? -1 : 0);
	T(mmap(0, 4096, PROT_READ, MAP_SHARED, fd, 1) == MAP_FAILED ? -1 : 0);
	T(close(fd));
	return 0;
}
