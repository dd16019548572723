/* SPDX-License-Identifier: MIT */
/*
 * Argument tampering, as list.sh's tamper-poke injects it: chdir's path
 * overwritten at entry (the kernel and the trace see the poked string),
 * at an unaligned address and where only its first bytes can be written;
 * getcwd's buffer overwritten at exit; a poke with a result injected
 * (mkdir: "INJECTED: args, retval").  Run without the options, the same
 * calls untouched.
 */
#include "corpus.h"
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

int main(void)
{
	long sz = sysconf(_SC_PAGESIZE);
	char *page, *buf;

	begin();
	/* a page whose end meets an inaccessible one */
	page = mmap(NULL, 2 * sz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(page != MAP_FAILED, "mmap");
	check(mprotect(page + sz, sz, PROT_NONE) == 0, "mprotect");
	memset(page, '/', sz);
	page[sz - 1] = 0;
	syscall(__NR_chdir, page);
	syscall(__NR_chdir, page + 1);
	/* 8 bytes left before the inaccessible page */
	syscall(__NR_chdir, page + sz - 8);
	buf = malloc(PATH_MAX);
	check(buf != NULL, "malloc");
	syscall(__NR_getcwd, buf, PATH_MAX);
	/* (in writable memory: strace's ptrace writes read-only pages too,
	 * which a process does not) */
	strcpy(buf, "tamper-dir");
	syscall(__NR_mkdir, buf, 0755);
	return 0;
}
