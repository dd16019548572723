/* SPDX-License-Identifier: MIT */
/* Memory: mmap prots and flags, mprotect, madvise, mremap, msync; NUMA
 * policies (results differ without NUMA: both tracers see the same). */
#include "corpus.h"
#include <fcntl.h>
#include <linux/mempolicy.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

int main(int argc, char **argv)
{
	char *p, *q;
	int fd;

	begin();
	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	p = mmap(NULL, 16384, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(p != MAP_FAILED, "mmap");
	p[0] = 1;
	check(mprotect(p, 4096, PROT_READ) == 0, "mprotect");
	check(mprotect(p + 4096, 4096, PROT_NONE) == 0, "mprotect");
	check(madvise(p, 16384, MADV_DONTNEED) == 0, "madvise");
	check(madvise(p, 16384, MADV_WILLNEED) == 0, "madvise");
	check(mprotect(p, 16384, PROT_READ | PROT_WRITE) == 0, "mprotect");
	q = mremap(p, 16384, 32768, MREMAP_MAYMOVE);
	check(q != MAP_FAILED, "mremap");
	check(munmap(q, 32768) == 0, "munmap");
	fd = open("m", O_RDWR | O_CREAT | O_TRUNC, 0600);
	check(fd >= 0 && ftruncate(fd, 4096) == 0, "ftruncate");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(p != MAP_FAILED, "mmap file");
	p[0] = 'x';
	check(msync(p, 4096, MS_SYNC) == 0, "msync");
	check(munmap(p, 4096) == 0, "munmap");
	check(mmap(NULL, 4096, PROT_READ, MAP_SHARED, -1, 0) == MAP_FAILED,
	      "mmap bad fd");
	/* map type 0 (strace's MAP_FILE), alone and with flags */
	check(mmap(NULL, 0, PROT_NONE, 0, 0, 0) == MAP_FAILED, "mmap type 0");
	check(mmap(NULL, 0, PROT_NONE, MAP_ANONYMOUS, -1, 0) == MAP_FAILED,
	      "mmap type 0");
	check(mlock(&fd, sizeof(fd)) == 0 || 1, "mlock");
	close(fd);
	unlink("m");
	{
		unsigned long mask[2] = { 1, 0x30 }, page;
		int mode = -1, node = 0, status = 7;

		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		check(p != MAP_FAILED, "mmap");
		p[0] = 1;
		page = (unsigned long)p;
		syscall(SYS_mbind, p, 4096, MPOL_DEFAULT, NULL, 0, 0);
		syscall(SYS_mbind, p, 4096, MPOL_BIND | MPOL_F_STATIC_NODES,
			mask, 1, 0xffffffffUL);
		syscall(SYS_set_mempolicy, MPOL_PREFERRED | MPOL_F_NUMA_BALANCING |
			MPOL_F_RELATIVE_NODES, mask, 129);
		syscall(SYS_set_mempolicy, 0x6 | MPOL_F_STATIC_NODES, mask, 65);
		syscall(SYS_set_mempolicy, 0x6, NULL, 0);
		syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0);
		syscall(SYS_get_mempolicy, &mode, mask, 1, p, 0x10 | MPOL_F_ADDR);
		syscall(SYS_move_pages, 0, 1, &page, NULL, &status, MPOL_MF_MOVE);
		syscall(SYS_move_pages, 0, 1, &page, &node, &status, 0x10);
		syscall(SYS_migrate_pages, 0, 65, mask, mask);
		munmap(p, 4096);
	}
	/* (nothing mapped there: EINVAL) an unknown type and protection
	 * bits, flags past the huge page size's bits */
	syscall(SYS_remap_file_pages, 0x1000, 4096, PROT_READ, 0,
		MAP_SHARED | MAP_NONBLOCK);
	syscall(SYS_remap_file_pages, 0x1000, 8192, 0xdefaced00000000UL, 3,
		0xdefaced00000000UL | 0xf | MAP_FIXED | (21U << 26));
	/* pkey_alloc's access rights (refused: unknown bits) */
	syscall(SYS_pkey_alloc, 0, 0xdefaced00000000UL | 0x3);
	syscall(SYS_pkey_alloc, 1, 0x40);
	{
		/* mincore's vector: a byte a page, the last one partial */
		unsigned char vec[3];
		char *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		m[0] = m[4096] = 1;
		syscall(SYS_mincore, m, 2 * 4096 + 1, vec);
		syscall(SYS_mincore, m + 1, 4096, vec);
		munmap(m, 3 * 4096);
	}
	{
		/* process_madvise's ranges (refused: no pidfd) */
		struct iovec r[2] = { { p, 4096 }, { p + 8192, 4096 } };

		syscall(SYS_process_madvise, -1, r, 2, MADV_COLD, 0);
		syscall(SYS_process_madvise, -1, r, 1, 0xdead, 1);
	}
	return 0;
}
