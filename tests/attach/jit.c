/* SPDX-License-Identifier: MIT */
/*
 * A program to attach to whose calls come from code it wrote at run time
 * before sysgate came, as a JIT's would: every 10 ms it calls getppid
 * through that code and writes "tick T ppid=P".
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>

int main(void)
{
	/* mov $110, %eax (getppid); syscall; ret */
	static const unsigned char code[] = { 0xb8, 110, 0, 0, 0, 0x0f, 0x05,
					      0xc3 };
	struct timespec ms10 = { 0, 10000000 };
	unsigned char *p = mmap(0, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long (*fn)(void);
	long t;

	if (p == MAP_FAILED)
		return 1;
	memcpy(p, code, sizeof(code));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return 1;
	fn = (long (*)(void))p;
	/* (Yama's ptrace_scope=1: the test's sysgate is a sibling) */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	printf("ready\n");
	fflush(stdout);
	for (t = 0;; t++) {
		nanosleep(&ms10, 0);
		printf("tick %ld ppid=%ld\n", t, fn());
		fflush(stdout);
	}
}
