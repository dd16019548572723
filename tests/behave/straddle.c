/* SPDX-License-Identifier: MIT */
/*
 * Syscall instructions that straddle a page boundary (glibc 2.36 has two;
 * lazypoline crashes on them) and a 64-byte cache line.
 */
#include "../lib/util.h"

long straddle_page(void);
long straddle_line(void);
__asm__(
	".section .text.straddle,\"ax\",@progbits\n"
	".p2align 12\n"
	".globl straddle_page\n"
	".type straddle_page,@function\n"
	"straddle_page:\n"
	".cfi_startproc\n"
	"	.skip 4090, 0x90\n"		/* mov at 4090, syscall at 4095 */
	"	mov $110, %eax\n"
	"	syscall\n"
	"	ret\n"
	".cfi_endproc\n"
	".size straddle_page, .-straddle_page\n"
	".p2align 6\n"
	".globl straddle_line\n"
	".type straddle_line,@function\n"
	"straddle_line:\n"
	".cfi_startproc\n"
	"	.skip 58, 0x90\n"		/* syscall at offset 63 */
	"	mov $39, %eax\n"
	"	syscall\n"
	"	ret\n"
	".cfi_endproc\n"
	".size straddle_line, .-straddle_line\n"
	".text\n");

int main(void)
{
	test_assert((unsigned long)straddle_page % 4096 == 0);
	test_assert(straddle_page() == getppid());
	atomic_puts("page-straddling syscall ok");
	test_assert((unsigned long)straddle_line % 64 == 0);
	test_assert(straddle_line() == getpid());
	atomic_puts("cache-line-straddling syscall ok");
	atomic_puts("EXIT-SUCCESS");
	return 0;
}
