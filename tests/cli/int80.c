/* SPDX-License-Identifier: MIT */
/*
 * A 64-bit program making 32-bit system calls with int $0x80: a write
 * (number 4 there, stat here), then a 64-bit write of its result.  The
 * buffer lies below 4 GiB, where a 32-bit pointer reaches it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(void)
{
	char *buf = mmap(0, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	long r;

	if (buf == MAP_FAILED)
		return 1;
	memcpy(buf, "hi\n", 3);
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(4L), "b"(1L), "c"(buf), "d"(3L) : "memory");
	printf("ret %ld\n", r);
	return r != 3;
}
