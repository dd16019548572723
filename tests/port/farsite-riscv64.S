/* SPDX-License-Identifier: MIT */
/* far_getppid(): a getppid ecall with room for a gateway patch around it,
 * in a library tests/port/far.c loads near or far from libc. */
	.text
	.option	norvc
	.globl	far_getppid
	.type	far_getppid, @function
far_getppid:
	addi	sp, sp, -16
	sd	s0, 8(sp)
	mv	s0, a0
	li	a7, 173
	addi	t1, s0, 1
	ecall
	add	t2, t1, s0
	ld	s0, 8(sp)
	addi	sp, sp, 16
	ret
	.size	far_getppid, . - far_getppid
	.section .note.GNU-stack, "", @progbits
