/* SPDX-License-Identifier: MIT */
/* x86-64 for tools/loader: the machine and the jump to a program's entry
 * (the loader's own entry: loader_start.S). */
#ifndef SG_LOADER_ARCH_H
#define SG_LOADER_ARCH_H

/* Bytes below the kernel's stack pointer that the entries leave out of
 * the loader's own frames: the program's vectors grow into them when the
 * interpreters of nested scripts lengthen its argv (loader.c). */
#define SG_LOADER_ROOM 128
#define SG_LOADER_ROOM_(n) #n
#define SG_LOADER_ROOM_STR(n) SG_LOADER_ROOM_(n)

#ifndef __ASSEMBLER__
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

/*
 * The installed loader's entry, emitted by tools/loader/stub.c into the
 * stub's section with the stub's strings (nothing else of the loader is
 * mapped yet): as _start (loader_start.S), but sg_loader_stub(sp) maps
 * the loader before sg_loader_main(sp) runs.
 */
#define SG_LOADER_STUB_ENTRY(section, self, suffix, error)		\
	__asm__(".pushsection " section ", \"ax\", @progbits\n"	\
		".globl sg_loader_stub_entry\n"				\
		".type sg_loader_stub_entry, @function\n"		\
		"sg_loader_stub_entry:\n"				\
		"	xor %ebp, %ebp\n"				\
		"	mov %rsp, %rdi\n"				\
		"	sub $" SG_LOADER_ROOM_STR(SG_LOADER_ROOM) ", %rsp\n"	\
		"	and $-16, %rsp\n"				\
		"	push %rdi\n"					\
		"	push %rdi\n"					\
		"	call sg_loader_stub\n"				\
		"	pop %rdi\n"					\
		"	pop %rdi\n"					\
		"	call sg_loader_main\n"				\
		"	ud2\n"						\
		".size sg_loader_stub_entry, . - sg_loader_stub_entry\n"	\
		"sg_loader_stub_self: .asciz \"" self "\"\n"		\
		"sg_loader_stub_suffix: .asciz \"" suffix "\"\n"	\
		"sg_loader_stub_error: .ascii \"" error "\\n\"\n"	\
		".popsection")

#endif /* __ASSEMBLER__ */
#endif
