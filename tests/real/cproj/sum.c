/* SPDX-License-Identifier: MIT */
#include "parts.h"

long sum_to(long n)
{
	return n * (n + 1) / 2;
}
