/* SPDX-License-Identifier: MIT */
/*
 * Register preservation across a hooked system call: every register but
 * the result must come back as it went in -- the kernel's contract,
 * which a patched site must keep too.  Prints the result so the run
 * under sysgate can be compared (and an injected getppid seen).
 *
 * regs-<arch>.S gives regs_syscall(), which loads every register it can
 * from in[], makes one system call (a site of this program, patched like
 * any other) and stores them to out[], plus what the slots mean: the
 * bits of each slot it controls (0: left alone), the slot of the number
 * and that of the result.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

void regs_syscall(const unsigned long in[32], unsigned long out[32]);
extern const unsigned long regs_mask[32];
extern const int regs_nr, regs_result;

int main(void)
{
	unsigned long in[32], out[32];
	int i, round, bad = 0;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < 32; i++)
			in[i] = (0x5a5a000000000000UL ^ ((unsigned long)i << 40) ^
				 (unsigned long)round * 0x1111 ^
				 (unsigned long)round << 30) & regs_mask[i];
		in[regs_nr] = SYS_getppid;
		regs_syscall(in, out);
		for (i = 0; i < 32; i++) {
			if (!regs_mask[i] || i == regs_result)
				continue;
			if (out[i] != in[i]) {
				printf("slot %d changed: %#lx -> %#lx\n", i,
				       in[i], out[i]);
				bad = 1;
			}
		}
	}
	printf("result %s\n", (long)out[regs_result] == 4242 ? "4242" :
			       "kernel's");
	printf("%s\n", bad ? "REGISTERS CHANGED" : "registers kept");
	return bad;
}
