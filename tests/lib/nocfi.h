/* SPDX-License-Identifier: MIT */
/*
 * A raw system call from code without unwind info (no .cfi_startproc),
 * as in a Go binary: nothing proves such a site, so no patch covers it and
 * syscall user dispatch (or the seccomp filter) catches its calls.
 */
#ifndef SG_TEST_NOCFI_H
#define SG_TEST_NOCFI_H

long nocfi_syscall(long nr, long a, long b, long c, long d, long e);
__asm__(
	".text\n"
	".globl nocfi_syscall\n"
	"nocfi_syscall:\n"
	"	mov %rdi, %rax\n"
	"	mov %rsi, %rdi\n"
	"	mov %rdx, %rsi\n"
	"	mov %rcx, %rdx\n"
	"	mov %r8, %r10\n"
	"	mov %r9, %r8\n"
	"	syscall\n"
	"	ret\n");

#endif
