/* SPDX-License-Identifier: MIT */
/* Calls entry_ecall (funcentry-<arch>.S) through a pointer for getppid:
 * it must answer as getppid does, hooked or not. */
#include <stdio.h>
#include <unistd.h>

long entry_ecall(void);
long (*volatile fn)(void) = entry_ecall;

int main(void)
{
	register long a7 __asm__("a7") = 173;	/* getppid */
	register long a0 __asm__("a0");
	long f = (long)fn;

	__asm__ volatile("jalr %2"
			 : "=r"(a0)
			 : "r"(a7), "r"(f)
			 : "ra", "memory", "a1", "a2", "a3", "a4", "a5", "a6",
			   "t0", "t1", "t2", "t3", "t4", "t5", "t6");
	printf("entry_ecall: %s\n", a0 == getppid() ? "getppid" : "wrong");
	return a0 == getppid() ? 0 : 1;
}
