/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include "parts.h"

int main(void)
{
	char s[] = "built by make";
	long t = 0;

	shout(s);
	for (int i = 0; i < table_len; i++)
		t += table[i];
	printf("%s: %ld %ld\n", s, sum_to(1000), t);
	return 0;
}
