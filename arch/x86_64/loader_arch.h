/* SPDX-License-Identifier: MIT */
/* x86-64 for tools/loader: the machine and the jump to a program's entry
 * (the loader's own entry: loader_start.S). */
#ifndef SG_LOADER_ARCH_H
#define SG_LOADER_ARCH_H

#include <elf.h>

#define SG_LOADER_MACHINE EM_X86_64

/* Enter a program as the kernel does: rsp at argc, rdx 0 (no exit
 * function to register), frame pointer cleared. */
static inline void __attribute__((noreturn))
sg_loader_jump(unsigned long entry, unsigned long *sp)
{
	__asm__ volatile("mov %1, %%rsp\n\t"
			 "xor %%edx, %%edx\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "jmp *%0"
			 : : "r"(entry), "r"(sp) : "memory");
	__builtin_unreachable();
}

#endif
