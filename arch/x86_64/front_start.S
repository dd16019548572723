/* SPDX-License-Identifier: MIT */
/*
 * The entry of sysgate's command (tools/front), which has no libc to
 * start it: the kernel leaves argc at the stack pointer; sg_front_main
 * takes that address on a 16-byte aligned stack and never returns.
 */
	.text
	.globl _start
	.type _start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xor %ebp, %ebp
	mov %rsp, %rdi
	and $-16, %rsp
	call sg_front_main
	ud2
	.cfi_endproc
	.size _start, . - _start

	.section .note.GNU-stack, "", @progbits
