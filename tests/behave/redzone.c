/* SPDX-License-Identifier: MIT */
/*
 * A leaf function keeps 16 values in its 128-byte red zone across a raw
 * syscall, and one more addressed through another register.  sysgate must
 * not write below the program's stack pointer (zpoline's `call` does).
 */
#include "../lib/util.h"

long rz_syscall(long nr);	/* returns rax, or -9999 if the zone changed */
__asm__(
	".text\n"
	".globl rz_syscall\n"
	".type rz_syscall,@function\n"
	"rz_syscall:\n"
	".cfi_startproc\n"
	"	mov %rdi, %rax\n"
	"	mov $0x1000, %rcx\n"
	"	mov $-8, %rdx\n"
	"1:	mov %rcx, (%rsp,%rdx)\n"
	"	add $1, %rcx\n"
	"	sub $8, %rdx\n"
	"	cmp $-136, %rdx\n"
	"	jne 1b\n"
	"	lea -64(%rsp), %rsi\n"
	"	syscall\n"
	"	mov $0x1000, %rcx\n"
	"	mov $-8, %rdx\n"
	"2:	cmp %rcx, (%rsp,%rdx)\n"
	"	jne 3f\n"
	"	add $1, %rcx\n"
	"	sub $8, %rdx\n"
	"	cmp $-136, %rdx\n"
	"	jne 2b\n"
	"	cmpq $0x100d, -48(%rsi)\n"	/* slot -112 through rsi */
	"	jne 3f\n"
	"	ret\n"
	"3:	mov $-9999, %rax\n"
	"	ret\n"
	".cfi_endproc\n"
	".size rz_syscall, .-rz_syscall\n");

int main(void)
{
	long r = rz_syscall(110);	/* getppid */

	test_assert(r != -9999);
	test_assert(r == getppid());
	atomic_puts("red zone intact");
	r = rz_syscall(39);		/* getpid */
	test_assert(r == getpid());
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
