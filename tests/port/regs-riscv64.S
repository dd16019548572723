/* SPDX-License-Identifier: MIT */
/*
 * void regs_syscall(const unsigned long in[32], unsigned long out[32]):
 * load every register but sp, gp, tp from in[], make one ecall (a7 =
 * in[17]), store every register to out[].  The ecall is a site of this
 * program, so sysgate patches it like any other.  Slot n is xn.
 */
	.section .rodata
	.globl	regs_mask, regs_nr, regs_result
	.p2align 3
regs_mask:
	.8byte	0, -1, 0, 0, 0
	.rept	27
	.8byte	-1
	.endr
regs_nr:
	.4byte	17
regs_result:
	.4byte	10

	.text
	.globl	regs_syscall
	.type	regs_syscall, @function
regs_syscall:
	addi	sp, sp, -576
	sd	ra, 0(sp)
	.irp	n, 8,9,18,19,20,21,22,23,24,25,26,27
	sd	x\n, (\n * 8)(sp)
	.endr
	sd	a1, 232(sp)
	mv	t0, a0
	ld	x1, 8(t0)
	.irp	n, 6,7,8,9,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	x\n, (\n * 8)(t0)
	.endr
	ld	t0, 40(t0)
	ecall
	.irp	n, 1,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd	x\n, (256 + \n * 8)(sp)
	.endr
	ld	a1, 232(sp)
	li	t1, 0
1:	add	t2, sp, t1
	ld	t2, 256(t2)
	add	t3, a1, t1
	sd	t2, 0(t3)
	addi	t1, t1, 8
	li	t2, 256
	blt	t1, t2, 1b
	ld	ra, 0(sp)
	.irp	n, 8,9,18,19,20,21,22,23,24,25,26,27
	ld	x\n, (\n * 8)(sp)
	.endr
	addi	sp, sp, 576
	ret
	.size	regs_syscall, . - regs_syscall
	.section .note.GNU-stack, "", @progbits
