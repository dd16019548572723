/* SPDX-License-Identifier: MIT */
/*
 * Register preservation across a hooked system call: every register but
 * a0 (the result) must come back as it went in -- the kernel's contract,
 * which a patched site must keep too.  Prints the result so the run
 * under sysgate can be compared (and an injected getppid seen).
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

void regs_ecall(const unsigned long in[32], unsigned long out[32]);

int main(void)
{
	unsigned long in[32], out[32];
	int i, round, bad = 0;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < 32; i++)
			in[i] = 0x5a5a000000000000UL ^ ((unsigned long)i << 40) ^
				(unsigned long)round * 0x1111;
		in[17] = SYS_getppid;
		regs_ecall(in, out);
		for (i = 1; i < 32; i++) {
			if (i == 2 || i == 3 || i == 4 || i == 10)
				continue;	/* sp, gp, tp untouched; a0 result */
			if (out[i] != in[i]) {
				printf("x%d changed: %#lx -> %#lx\n", i, in[i],
				       out[i]);
				bad = 1;
			}
		}
	}
	printf("a0 %s\n", (long)out[10] == 4242 ? "4242" : "kernel's");
	printf("%s\n", bad ? "REGISTERS CHANGED" : "registers kept");
	return bad;
}
