/* SPDX-License-Identifier: MIT */
/* far_getppid(): a getppid svc of its own, in a library tests/port/far.c
 * loads near or far from libc. */
	.text
	.globl	far_getppid
	.type	far_getppid, @function
far_getppid:
	stp	x29, x30, [sp, #-16]!
	mov	x8, #173
	svc	#0
	ldp	x29, x30, [sp], #16
	ret
	.size	far_getppid, . - far_getppid
	.section .note.GNU-stack, "", @progbits
