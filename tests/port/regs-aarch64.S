/* SPDX-License-Identifier: MIT */
/*
 * void regs_syscall(const unsigned long in[32], unsigned long out[32]):
 * load x0-x30 and NZCV from in[] (slot 31 holds NZCV), make one
 * `svc #0` (x8 = in[8]), store x0-x30 and NZCV to out[].  The svc is a
 * site of this program, so sysgate patches it like any other.
 */
	.section .rodata
	.globl	regs_mask, regs_nr, regs_result
	.p2align 3
regs_mask:
	.rept	31
	.8byte	-1
	.endr
	.8byte	0xf0000000		/* N, Z, C, V */
regs_nr:
	.4byte	8
regs_result:
	.4byte	0

	.text
	.globl	regs_syscall
	.type	regs_syscall, %function
	.p2align 2
regs_syscall:
	sub	sp, sp, #112
	stp	x19, x20, [sp, #0]
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	str	x1, [sp, #96]
	mov	x16, x0
	ldr	x17, [x16, #248]
	msr	nzcv, x17
	ldp	x0, x1, [x16, #0]
	ldp	x2, x3, [x16, #16]
	ldp	x4, x5, [x16, #32]
	ldp	x6, x7, [x16, #48]
	ldp	x8, x9, [x16, #64]
	ldp	x10, x11, [x16, #80]
	ldp	x12, x13, [x16, #96]
	ldp	x14, x15, [x16, #112]
	ldr	x17, [x16, #136]
	ldp	x18, x19, [x16, #144]
	ldp	x20, x21, [x16, #160]
	ldp	x22, x23, [x16, #176]
	ldp	x24, x25, [x16, #192]
	ldp	x26, x27, [x16, #208]
	ldp	x28, x29, [x16, #224]
	ldr	x30, [x16, #240]
	ldr	x16, [x16, #128]
	svc	#0
	sub	sp, sp, #256
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	mrs	x9, nzcv
	stp	x30, x9, [sp, #240]
	ldr	x1, [sp, #(256 + 96)]
	mov	x2, #0
1:	ldr	x3, [sp, x2]
	str	x3, [x1, x2]
	add	x2, x2, #8
	cmp	x2, #256
	b.lt	1b
	add	sp, sp, #256
	ldp	x19, x20, [sp, #0]
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	add	sp, sp, #112
	ret
	.size	regs_syscall, . - regs_syscall
	.section .note.GNU-stack, "", %progbits
