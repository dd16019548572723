/* SPDX-License-Identifier: MIT */
/*
 * A program starts with no heap: its break is where the kernel put it and
 * nothing is mapped there until it asks.  Under the loader, the loader's
 * own heap must not be left behind: the kernel places it up to 1 GiB
 * past the loader, where it may lie in AddressSanitizer's shadow range
 * (0x7fff8000 on), and an ASan program then refuses to start.
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include "../lib/util.h"

static char maps[1 << 16];

int main(void)
{
	/* Before anything in this program could allocate (no stdio yet). */
	int fd = syscall(SYS_open, "/proc/self/maps", O_RDONLY), heap;
	long n, got = 0;

	test_assert(fd >= 0);
	while ((n = syscall(SYS_read, fd, maps + got, sizeof(maps) - 1 - got)) > 0)
		got += n;
	maps[got] = 0;
	heap = strstr(maps, "[heap]") != 0;
	atomic_printf("a heap mapped at the start: %s\n", heap ? "yes" : "no");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
