/* SPDX-License-Identifier: MIT */
/* x86-64 rewriter cases: each function is planned, never run. */
#include "../case.h"

/* The planner reads the 127 bytes before a site for short branches into
 * it; at the very start of a text mapping it cannot, and stays careful.
 * The cases start after bytes that branch nowhere. */
	.section rewrite_code, "ax"
	.skip	256, 0xcc

/* The usual libc wrapper: the number in eax just before. */
CASE plain
	mov	$39, %eax
	syscall
	ret
END plain

/* endbr64 first: the patch must not take the landing pad. */
CASE endbr
	endbr64
	mov	$39, %eax
	syscall
	ret
END endbr

/* Two calls back to back: one patch must not cover the other's site. */
CASE back_to_back
	mov	$39, %eax
	syscall
	syscall
	ret
END back_to_back

/* A branch lands right after the syscall: the jump may end there. */
CASE branch_after
	xor	%ecx, %ecx
1:	mov	$39, %eax
	syscall
2:	inc	%ecx
	cmp	$3, %ecx
	jne	2b
	ret
END branch_after

/* A branch lands on the syscall itself: no jump may cover what is
 * before it. */
CASE branch_in
	mov	$39, %eax
	test	%edi, %edi
	jz	1f
	mov	$24, %eax
1:	syscall
	ret
END branch_in

/* A loop back to the instruction before the syscall. */
CASE loop_to_mov
	xor	%ecx, %ecx
1:	mov	$24, %eax
	syscall
	inc	%ecx
	cmp	$3, %ecx
	jne	1b
	ret
END loop_to_mov

/* The number is not known: it comes from a register. */
CASE unknown_nr
	mov	%rdi, %rax
	syscall
	ret
END unknown_nr

/* rip-relative neighbours are relocated into the stub. */
CASE rip_relative
	mov	plain(%rip), %rdx
	syscall
	lea	plain(%rip), %rcx
	ret
END rip_relative

/* 32-bit calls are left alone and said so. */
CASE int80
	mov	$20, %eax
	int	$0x80
	ret
END int80

/* An indirect jump in the function: its targets are unknown. */
CASE jump_table
	lea	1f(%rip), %rdx
	jmp	*%rdx
1:	mov	$39, %eax
	syscall
	ret
END jump_table

/* The syscall instruction straddles a page boundary. */
	.section rewrite_code, "ax"
	.p2align 12
CASE straddle
	.skip	4096 - 6, 0x90
	mov	$39, %eax
	syscall
	ret
END straddle

/* A function that is only the syscall and its return. */
CASE tight
	syscall
	ret
END tight
/* The cases' page filled to its end, as on the other arches: the
 * planner reads the whole page, and what the file held past the cases
 * (its symbol table and debug info, which every change to sysgate and
 * the build's directory move) once read as a syscall pair, whose watch
 * crashed the driver. */
	.section rewrite_code, "ax"
	.balign 4096, 0
	.section .note.GNU-stack, "", %progbits
