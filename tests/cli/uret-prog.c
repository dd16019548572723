/* SPDX-License-Identifier: MIT */
/* A function returning 20 times, for a uretprobe on it (cases.sh
 * t_uretprobe): each return goes through the kernel's trampoline. */
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) long probed(int i)
{
	return getppid() + i;
}

int main(void)
{
	long sum = 0, ppid = getppid();
	int i;

	for (i = 0; i < 20; i++)
		sum += probed(i) - ppid;
	printf("sum %ld\n", sum);
	return 0;
}
