/* SPDX-License-Identifier: MIT */
/* getppid from a named, exported function (see tests/hooks/unwind.c). */
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) int unwind_marker(void)
{
	int r = getppid();

	__asm__ volatile("" ::: "memory");	/* not a tail call */
	return r > 0;
}

int main(void)
{
	printf("%d\n", unwind_marker());
	return 0;
}
