/* SPDX-License-Identifier: MIT */
/*
 * The program unmaps its vDSO and the kernel's data pages below it, as
 * valgrind does for its guest, then makes calls: sysgate, which read the
 * clock through the vDSO, must go on without it.  Then it maps fresh
 * code over where the vDSO was and makes calls again.
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "../lib/util.h"

/* [lo, hi) of the first maps line whose name is NAME; 0 if none. */
static int find_map(const char *name, unsigned long *lo, unsigned long *hi)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	test_assert(f != NULL);
	while (!found && fgets(line, sizeof(line), f))
		if (strstr(line, name) &&
		    sscanf(line, "%lx-%lx", lo, hi) == 2)
			found = 1;
	fclose(f);
	return found;
}

int main(void)
{
	unsigned long lo, hi, vlo, vhi;
	int i;
	void *p;

	if (!getauxval(AT_SYSINFO_EHDR) || !find_map("[vdso]", &lo, &hi)) {
		atomic_puts("no vDSO here");
		return 77;
	}
	if (find_map("[vvar]", &vlo, &vhi))
		test_assert(munmap((void *)vlo, vhi - vlo) == 0);
	test_assert(munmap((void *)lo, hi - lo) == 0);
	for (i = 0; i < 100; i++)
		test_assert(syscall(SYS_getppid) > 0);
	atomic_puts("calls after munmap of the vDSO: ok");
	p = mmap((void *)lo, hi - lo, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	test_assert(p == (void *)lo);
	for (i = 0; i < 100; i++)
		test_assert(syscall(SYS_getppid) > 0);
	atomic_puts("calls after mmap over it: ok");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
