/* SPDX-License-Identifier: MIT */
/* execve and execveat that fail: argv cut at -s strings (unless -v),
 * each string at -s; an array that runs into an unreadable page ("...
 * and its address), envp's count ("unterminated" there), arrays that
 * cannot be read at all (their address), execveat's AT_* flags, and a
 * 6000-byte string (list.sh's -s 10000 shows it whole). */
#include "corpus.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

int main(void)
{
	static char *many[40];
	char **edge, *page, *big;
	long sz = sysconf(_SC_PAGESIZE);
	int i;

	begin();
	/* two pages, the second inaccessible: pointers end at the first's
	 * end with no NULL after them */
	page = mmap(NULL, 2 * sz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check(page != MAP_FAILED, "mmap");
	check(mprotect(page + sz, sz, PROT_NONE) == 0, "mprotect");
	edge = (char **)(page + sz) - 3;
	edge[0] = "first";
	edge[1] = "second";
	edge[2] = (char *)-1L;
	syscall(__NR_execve, "no/such/file", edge, edge + 1);
	for (i = 0; i < 39; i++)
		many[i] = "0123456789012345678901234567890123456789" + i;
	syscall(__NR_execve, "no/such/file", many, many + 30);
	syscall(__NR_execve, "no/such/file", NULL, page + sz);
	syscall(__NR_execve, "no/such/file", page + sz, NULL);
	syscall(__NR_execveat, AT_FDCWD, "no/such/file", many + 36, many + 38,
		AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);
	/* (-s was capped at 4096 when lines could not grow) */
	big = malloc(6001);
	check(big != NULL, "malloc");
	memset(big, 'x', 6000);
	big[6000] = 0;
	edge[0] = big;
	edge[1] = NULL;
	syscall(__NR_execve, "no/such/file", edge, NULL);
	return 0;
}
