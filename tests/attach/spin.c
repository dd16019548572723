/* SPDX-License-Identifier: MIT */
/*
 * A program to attach to that is never in a system call made through
 * sysgate when it detaches: it counts, and writes "n N" now and then.
 */
#include <stdio.h>
#include <sys/prctl.h>

int main(void)
{
	volatile unsigned long n = 0;

	/* (Yama's ptrace_scope=1: the test's sysgate is a sibling) */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		if (!(++n & 0x3ffffff)) {
			printf("n %lu\n", n);
			fflush(stdout);
		}
}
