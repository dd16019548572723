/* SPDX-License-Identifier: MIT */
/* -e write= dumps past 1 MiB (offsets six digits wide throughout) and
 * over memory that cannot be read: strace reads 64 KiB at a time, and
 * a chunk it cannot read whole ends the dump with a line saying so; and
 * a buffer strace prints as its address: it reads one byte past -s. */
#include "corpus.h"
#include <fcntl.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	size_t big = (1 << 20) + 16, room = 2 << 20;
	unsigned char *buf;
	int null;

	check(argc > 1 && chdir(argv[1]) == 0, "chdir");
	buf = mmap(NULL, room + 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(buf != MAP_FAILED && munmap(buf + room, 4096) == 0, "mmap");
	fill_bytes(buf, room, 0, 7);
	null = open("/dev/null", O_WRONLY);
	check(null >= 0, "open");
	begin();
	/* (/dev/null takes every byte without reading them) */
	if (write(null, buf, big) < 0 ||
	    write(null, buf + room - 65536 - 100, 65536 + 101) < 0 ||
	    write(null, buf + room - 3, 4) < 0 ||
	    write(null, buf + room - 65536, 65536 + 2) < 0 ||
	    /* (the byte past -s cannot be read: an address) */
	    write(null, buf + room - 32, 40) < 0 ||
	    write(null, buf + room - 33, 40) < 0)
		return 1;
	return 0;
}
