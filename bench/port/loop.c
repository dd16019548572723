/* SPDX-License-Identifier: MIT */
/* N getppid calls through libc (argv[1], default 0): the difference between
 * two runs' instruction counts is what N calls cost. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, i;

	for (i = 0; i < n; i++)
		getppid();
	return 0;
}
