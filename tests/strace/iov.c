/* SPDX-License-Identifier: MIT */
/* iovec arrays: readv/writev and the positioned forms (the offset of
 * pos_l alone, RWF_* flags), process_vm_readv/writev (local data, remote
 * addresses); arrays empty, unreadable at the start or part way, longer
 * than -s, and a failed read's buffers as addresses; vmsplice's data
 * dumped by -e write=. */
#include "corpus.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

int main(int argc, char **argv)
{
	static char a[] = "0123456789", b[] = "abcdefghijklmnop", in[64];
	struct iovec v[3] = { { a, 4 }, { b, 7 }, { a + 4, 6 } };
	struct iovec r[3] = { { in, 5 }, { in + 8, 20 }, { in + 30, 30 } };
	struct iovec many[40];
	struct iovec *edge;
	char *page;
	int fd, i, pfd[2];

	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	for (i = 0; i < 40; i++) {
		many[i].iov_base = b + (i % 8);
		many[i].iov_len = 2;
	}
	/* two iovecs, the second running off the end of a mapping */
	page = mmap(0, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(page != MAP_FAILED && munmap(page + 4096, 4096) == 0, "mmap");
	edge = (struct iovec *)(page + 4096) - 1;
	edge->iov_base = a;
	edge->iov_len = 3;
	begin();
	fd = open("f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	writev(fd, v, 3);
	writev(fd, many, 40);
	writev(fd, NULL, 0);
	writev(fd, v, 0);
	writev(fd, edge, 2);
	pwritev(fd, v, 2, 100);
	syscall(SYS_pwritev2, fd, v, 1, 5, 0, RWF_DSYNC | 0x1000);
	syscall(SYS_pwritev2, -1, NULL, 3, -1L, 0, 0);
	lseek(fd, 0, SEEK_SET);
	readv(fd, r, 3);
	readv(-1, r, 2);
	preadv(fd, r, 2, 3);
	preadv(fd, r, 2, -5);
	syscall(SYS_preadv2, fd, r, 3, 0, 0, RWF_NOWAIT);
	syscall(SYS_preadv2, fd, edge, 2, 0, 0, 0);
	syscall(SYS_process_vm_writev, getpid(), v, 2, r, 2, 0);
	syscall(SYS_process_vm_readv, getpid(), r, 3, v, 3, 0);
	syscall(SYS_process_vm_readv, getpid(), r, 1, edge, 2, 0);
	syscall(SYS_process_vm_readv, -1, r, 3, v, 3, 5);
	close(fd);
	check(pipe(pfd) == 0, "pipe");
	vmsplice(pfd[1], v, 2, 0);
	return 0;
}
